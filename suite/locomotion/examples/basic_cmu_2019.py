"""The CMU humanoid's example environments (dm_control's locomotion.examples.basic_cmu_2019):
a position-controlled humanoid running down corridors with walls or gaps, or going to a target.

Each builder takes dm_control's `random_state` (None, a seed or a numpy RandomState) and builds
the same walker, arena and task with dm_control's parameters, so the same seed gives the same
episodes. The maze builders need labmaze and are not ported yet.
"""

import composer
from composer.variation import distributions
from suite.locomotion.arenas import corridors as corr_arenas
from suite.locomotion.arenas import floors
from suite.locomotion.tasks import corridors as corr_tasks
from suite.locomotion.tasks import go_to_target
from suite.locomotion.walkers import cmu_humanoid

# control every 30 ms, 6 physics steps of 5 ms each
_PHYSICS_TIMESTEP = 0.005
_CONTROL_TIMESTEP = 0.03


def _walker_with_camera():
  """The 2019 position-controlled humanoid, its 64x64 egocentric camera observable on."""
  return cmu_humanoid.CMUHumanoidPositionControlled(
    observable_options={"egocentric_camera": dict(enabled=True)})


def _run_through_corridor(walker, arena):
  """Running at 3 m/s along the corridor, from half a metre past its start."""
  return corr_tasks.RunThroughCorridor(
    walker=walker, arena=arena, walker_spawn_position=(0.5, 0, 0), target_velocity=3.0,
    physics_timestep=_PHYSICS_TIMESTEP, control_timestep=_CONTROL_TIMESTEP)


def _environment(task, random_state):
  """A 30 s episode, observations without the singleton buffer dimension."""
  return composer.Environment(time_limit=30, task=task, random_state=random_state,
                              strip_singleton_obs_buffer_dim=True)


def cmu_humanoid_run_walls(random_state=None):
  """The CMU humanoid runs down a 100 m corridor past walls of random widths."""
  walker = _walker_with_camera()
  arena = corr_arenas.WallsCorridor(
    wall_gap=4., wall_width=distributions.Uniform(1, 7), wall_height=3.0, corridor_width=10,
    corridor_length=100, include_initial_padding=False)
  return _environment(_run_through_corridor(walker, arena), random_state)


def cmu_humanoid_run_gaps(random_state=None):
  """The CMU humanoid runs down a 100 m corridor of platforms and gaps of random lengths."""
  walker = _walker_with_camera()
  arena = corr_arenas.GapsCorridor(
    platform_length=distributions.Uniform(.3, 2.5), gap_length=distributions.Uniform(.5, 1.25),
    corridor_width=10, corridor_length=100)
  return _environment(_run_through_corridor(walker, arena), random_state)


def cmu_humanoid_go_to_target(random_state=None):
  """The CMU humanoid goes to a target on a floor (no camera observable)."""
  walker = cmu_humanoid.CMUHumanoidPositionControlled()
  task = go_to_target.GoToTarget(walker=walker, arena=floors.Floor(),
                                 physics_timestep=_PHYSICS_TIMESTEP,
                                 control_timestep=_CONTROL_TIMESTEP)
  return _environment(task, random_state)
