"""The CMU humanoid's example environments (dm_control's locomotion.examples.basic_cmu_2019):
a position-controlled humanoid running down corridors with walls or gaps, going to a target, or
foraging for targets in a maze.

Each builder takes dm_control's `random_state` (None, a seed or a numpy RandomState) and builds
the same walker, arena and task with dm_control's parameters, so the same seed gives the same
episodes (the mazes come from our own labmaze generator, the maze textures are builtin
stand-ins of dm_control's images).
"""

import functools

import composer
from composer.variation import distributions
from suite.locomotion.arenas import corridors as corr_arenas
from suite.locomotion.arenas import floors
from suite.locomotion.arenas import labmaze
from suite.locomotion.arenas import labmaze_textures
from suite.locomotion.arenas import mazes
from suite.locomotion.props import target_sphere
from suite.locomotion.tasks import corridors as corr_tasks
from suite.locomotion.tasks import go_to_target
from suite.locomotion.tasks import random_goal_maze
from suite.locomotion.walkers import cmu_humanoid

# control every 30 ms, 6 physics steps of 5 ms each
_PHYSICS_TIMESTEP = 0.005
_CONTROL_TIMESTEP = 0.03


def _walker_with_camera():
  """The 2019 position-controlled humanoid, its 64x64 egocentric camera observable on."""
  return cmu_humanoid.CMUHumanoidPositionControlled(
    observable_options={"egocentric_camera": dict(enabled=True)}
  )


def _run_through_corridor(walker, arena):
  """Running at 3 m/s along the corridor, from half a metre past its start."""
  return corr_tasks.RunThroughCorridor(
    walker=walker,
    arena=arena,
    walker_spawn_position=(0.5, 0, 0),
    target_velocity=3.0,
    physics_timestep=_PHYSICS_TIMESTEP,
    control_timestep=_CONTROL_TIMESTEP,
  )


def _environment(task, random_state):
  """A 30 s episode, observations without the singleton buffer dimension."""
  return composer.Environment(
    time_limit=30, task=task, random_state=random_state, strip_singleton_obs_buffer_dim=True
  )


def cmu_humanoid_run_walls(random_state=None):
  """The CMU humanoid runs down a 100 m corridor past walls of random widths."""
  walker = _walker_with_camera()
  arena = corr_arenas.WallsCorridor(
    wall_gap=4.0,
    wall_width=distributions.Uniform(1, 7),
    wall_height=3.0,
    corridor_width=10,
    corridor_length=100,
    include_initial_padding=False,
  )
  return _environment(_run_through_corridor(walker, arena), random_state)


def cmu_humanoid_run_gaps(random_state=None):
  """The CMU humanoid runs down a 100 m corridor of platforms and gaps of random lengths."""
  walker = _walker_with_camera()
  arena = corr_arenas.GapsCorridor(
    platform_length=distributions.Uniform(0.3, 2.5),
    gap_length=distributions.Uniform(0.5, 1.25),
    corridor_width=10,
    corridor_length=100,
  )
  return _environment(_run_through_corridor(walker, arena), random_state)


def cmu_humanoid_go_to_target(random_state=None):
  """The CMU humanoid goes to a target on a floor (no camera observable)."""
  walker = cmu_humanoid.CMUHumanoidPositionControlled()
  task = go_to_target.GoToTarget(
    walker=walker,
    arena=floors.Floor(),
    physics_timestep=_PHYSICS_TIMESTEP,
    control_timestep=_CONTROL_TIMESTEP,
  )
  return _environment(task, random_state)


def _maze_textures():
  """DeepMind Lab's look: the 'sky_03' skybox, 'style_01' walls and floors."""
  return dict(
    skybox_texture=labmaze_textures.SkyBox(style="sky_03"),
    wall_textures=labmaze_textures.WallTextures(style="style_01"),
    floor_textures=labmaze_textures.FloorTextures(style="style_01"),
  )


def cmu_humanoid_maze_forage(random_state=None):
  """The CMU humanoid collects every target (50 each) in a random 11x11-cell maze of up to four
  rooms, each with a spawn point and three targets (30 s episodes)."""
  walker = _walker_with_camera()
  arena = mazes.RandomMazeWithTargets(
    x_cells=11,
    y_cells=11,
    xy_scale=3,
    max_rooms=4,
    room_min_size=4,
    room_max_size=5,
    spawns_per_room=1,
    targets_per_room=3,
    **_maze_textures(),
  )
  task = random_goal_maze.ManyGoalsMaze(
    walker=walker,
    maze_arena=arena,
    target_builder=functools.partial(
      target_sphere.TargetSphere, radius=0.4, rgb1=(0, 0, 0.4), rgb2=(0, 0, 0.7)
    ),
    target_reward_scale=50.0,
    physics_timestep=_PHYSICS_TIMESTEP,
    control_timestep=_CONTROL_TIMESTEP,
  )
  return _environment(task, random_state)


# a 5x5-cell room with a fixed spawn point; its six targets are redrawn each episode
_HETEROGENEOUS_FORAGE_ROOM = "*******\n*     *\n*  P  *\n*     *\n*  G  *\n*     *\n*******\n"


def cmu_humanoid_heterogeneous_forage(random_state=None):
  """The CMU humanoid in a small room with six targets, half green (+30), half red (-10),
  the colours' roles shuffled each episode; 0.01 per step alive (25 s episodes)."""
  walker = _walker_with_camera()
  maze = labmaze.FixedMazeWithRandomGoals(
    entity_layer=_HETEROGENEOUS_FORAGE_ROOM, variations_layer=None, num_spawns=1, num_objects=6
  )
  arena = mazes.MazeWithTargets(maze=maze, xy_scale=3.0, z_height=2.0, **_maze_textures())
  sphere = functools.partial(target_sphere.TargetSphere, radius=0.4)
  task = random_goal_maze.ManyHeterogeneousGoalsMaze(
    walker=walker,
    maze_arena=arena,
    target_builders=[
      functools.partial(sphere, rgb1=(0, 0.4, 0), rgb2=(0, 0.7, 0)),
      functools.partial(sphere, rgb1=(0.4, 0, 0), rgb2=(0.7, 0, 0)),
    ],
    randomize_spawn_rotation=False,
    target_type_rewards=[30.0, -10.0],
    target_type_proportions=[1, 1],
    shuffle_target_builders=True,
    aliveness_reward=0.01,
    control_timestep=0.03,
  )
  return composer.Environment(
    time_limit=25, task=task, random_state=random_state, strip_singleton_obs_buffer_dim=True
  )
