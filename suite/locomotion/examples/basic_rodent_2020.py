"""The rat's example environments (dm_control's locomotion.examples.basic_rodent_2020): escaping
a bowl, running down a corridor with gaps, and touching an orb twice with a set interval.

Each builder takes dm_control's `random_state` (None, a seed or a numpy RandomState) and builds
the same walker, arena and task with dm_control's parameters, so the same seed gives the same
episodes. All use the rat's egocentric camera observable and outdoor textures. The maze builder
needs labmaze and is not ported yet.
"""

import functools

import composer
from composer.variation import distributions
from suite.locomotion.arenas import bowl
from suite.locomotion.arenas import corridors as corr_arenas
from suite.locomotion.arenas import floors
from suite.locomotion.arenas import labmaze_textures
from suite.locomotion.arenas import mazes
from suite.locomotion.props import target_sphere
from suite.locomotion.tasks import corridors as corr_tasks
from suite.locomotion.tasks import escape
from suite.locomotion.tasks import random_goal_maze
from suite.locomotion.tasks import reach
from suite.locomotion.walkers import rodent

# control every 20 ms, 20 physics steps of 1 ms each
_CONTROL_TIMESTEP = 0.02
_PHYSICS_TIMESTEP = 0.001


def _rat():
  """The rat, its egocentric camera observable on."""
  return rodent.Rat(observable_options={"egocentric_camera": dict(enabled=True)})


def _environment(task, time_limit, random_state):
  return composer.Environment(
    time_limit=time_limit, task=task, random_state=random_state, strip_singleton_obs_buffer_dim=True
  )


def rodent_escape_bowl(random_state=None):
  """The rat climbs out of a bowl-shaped terrain (20 s episodes)."""
  walker = _rat()
  arena = bowl.Bowl(size=(20.0, 20.0), aesthetic="outdoor_natural")
  task = escape.Escape(
    walker=walker,
    arena=arena,
    physics_timestep=_PHYSICS_TIMESTEP,
    control_timestep=_CONTROL_TIMESTEP,
  )
  return _environment(task, 20, random_state)


def rodent_run_gaps(random_state=None):
  """The rat runs at 1 m/s down a 40 m corridor of platforms and gaps of random lengths.

  Any body part may touch the ground; the episode fails when a foot falls 30 cm below the floor.
  """
  walker = _rat()
  arena = corr_arenas.GapsCorridor(
    platform_length=distributions.Uniform(0.4, 0.8),
    gap_length=distributions.Uniform(0.05, 0.2),
    corridor_width=2,
    corridor_length=40,
    aesthetic="outdoor_natural",
  )
  task = corr_tasks.RunThroughCorridor(
    walker=walker,
    arena=arena,
    walker_spawn_position=(5, 0, 0),
    walker_spawn_rotation=0,
    target_velocity=1.0,
    contact_termination=False,
    terminate_at_height=-0.3,
    physics_timestep=_PHYSICS_TIMESTEP,
    control_timestep=_CONTROL_TIMESTEP,
  )
  return _environment(task, 30, random_state)


def rodent_two_touch(random_state=None):
  """The rat taps an orb, waits an interval and taps it again, on a 10 m floor (30 s episodes)."""
  walker = _rat()
  arena = floors.Floor(size=(10.0, 10.0), aesthetic="outdoor_natural")
  task = reach.TwoTouch(
    walker=walker,
    arena=arena,
    target_builders=[functools.partial(target_sphere.TargetSphereTwoTouch, radius=0.025)],
    randomize_spawn_rotation=True,
    target_type_rewards=[25.0],
    shuffle_target_builders=False,
    target_area=(1.5, 1.5),
    physics_timestep=_PHYSICS_TIMESTEP,
    control_timestep=_CONTROL_TIMESTEP,
  )
  return _environment(task, 30, random_state)


def rodent_maze_forage(random_state=None):
  """The rat collects every target (50 each) in a random 11x11-cell maze of half-metre cells and
  up to four rooms, each with a spawn point and three targets (30 s episodes). Any body part
  may touch the ground."""
  walker = _rat()
  arena = mazes.RandomMazeWithTargets(
    x_cells=11,
    y_cells=11,
    xy_scale=0.5,
    z_height=0.3,
    max_rooms=4,
    room_min_size=4,
    room_max_size=5,
    spawns_per_room=1,
    targets_per_room=3,
    wall_textures=labmaze_textures.WallTextures(style="style_01"),
    aesthetic="outdoor_natural",
  )
  task = random_goal_maze.ManyGoalsMaze(
    walker=walker,
    maze_arena=arena,
    target_builder=functools.partial(
      target_sphere.TargetSphere,
      radius=0.05,
      height_above_ground=0.125,
      rgb1=(0, 0, 0.4),
      rgb2=(0, 0, 0.7),
    ),
    target_reward_scale=50.0,
    contact_termination=False,
    physics_timestep=_PHYSICS_TIMESTEP,
    control_timestep=_CONTROL_TIMESTEP,
  )
  return _environment(task, 30, random_state)
