"""The maze tasks (dm_control.locomotion.tasks.random_goal_maze) against dm_control's.

Each task is built on both stacks (task_parity.Twin: same environment seed, each stack with its
own copy of numpy's global generator, which seeds the mazes and picks their textures) and
stepped with the same random actions from dm_control's state; observations (the maze layout
and global observables included), rewards, discounts and episode ends must agree. Scripts move
the walker onto targets so that rewards, repeats and successful terminations happen. The ant
is the walker here; the humanoid's and the rat's builders are compared in test_examples.py.
Then dm_control's task tests, re-expressed, and errors for mazes too small for their targets.
"""

import functools

import labmaze as lm  # noqa: E402
import numpy as np
import pytest
from dm_control.locomotion.tasks import random_goal_maze as dm_random_goal_maze  # noqa: E402

import composer  # noqa: E402  (after task_parity sets MUJOCO_GL)
from suite.locomotion import arenas  # noqa: E402
from suite.locomotion import props  # noqa: E402
from suite.locomotion import tasks  # noqa: E402
from suite.locomotion import walkers  # noqa: E402
from suite.locomotion.arenas import labmaze  # noqa: E402
from suite.locomotion.tasks import random_goal_maze  # noqa: E402
from tests.locomotion import task_parity as tp


def _maze(s, **kwargs):
  # the maze's seed comes from numpy's global generator, which Twin swaps per stack only
  # around resets and steps: seed it alike for both builds
  np.random.seed(21)
  arguments = dict(
    x_cells=11,
    y_cells=11,
    xy_scale=2.0,
    z_height=1.0,
    max_rooms=4,
    room_min_size=3,
    room_max_size=5,
    spawns_per_room=1,
    targets_per_room=2,
  )
  arguments.update(kwargs)
  return s.arenas.RandomMazeWithTargets(**arguments)


def _sphere(s, **kwargs):
  return functools.partial(s.props.TargetSphere, radius=0.4, height_above_ground=0.5, **kwargs)


def many_goals_ant(s):
  return s.tasks.ManyGoalsMaze(
    s.walkers.Ant(),
    _maze(s, wall_textures=s.arenas.WallTextures(style="style_02")),
    target_builder=_sphere(s),
    target_reward_scale=5.0,
    physics_timestep=0.005,
    control_timestep=0.025,
  )


def heterogeneous_ant(s):
  layer = "*********\n*   P   *\n*       *\n* ***** *\n*       *\n*********\n"
  fixed = labmaze if s.ours else lm
  maze = fixed.FixedMazeWithRandomGoals(
    layer, num_spawns=2, num_objects=5, random_state=np.random.RandomState(8)
  )
  arena = s.arenas.MazeWithTargets(maze, xy_scale=2.5, **_textures(s))
  return s.tasks.ManyHeterogeneousGoalsMaze(
    s.walkers.Ant(),
    arena,
    target_builders=[
      _sphere(s, rgb1=(0, 0.4, 0)),
      _sphere(s, rgb1=(0.4, 0, 0)),
      _sphere(s, rgb1=(0.4, 0.4, 0)),
    ],
    target_type_rewards=[30.0, -10.0, 2.0],
    target_type_proportions=[2, 1, 1.5],
    shuffle_target_builders=True,
    rotation_bias_factor=3.0,
    aliveness_reward=0.01,
    physics_timestep=0.005,
    control_timestep=0.025,
  )


def _textures(s):
  return dict(
    skybox_texture=s.arenas.SkyBox(style="sky_01"),
    wall_textures=s.arenas.WallTextures(style="style_04"),
    floor_textures=s.arenas.FloorTextures(style="style_03"),
  )


def repeat_single_goal_ant(s):
  """Two repeats, the maze regenerated at each; global observables on."""
  return s.tasks.RepeatSingleGoalMaze(
    s.walkers.Ant(),
    _maze(s, x_cells=13),
    target=s.props.TargetSphere(radius=0.5),
    target_reward_scale=3.0,
    max_repeats=2,
    regenerate_maze_on_repeat=True,
    enable_global_task_observables=True,
    aliveness_reward=0.1,
    physics_timestep=0.005,
    control_timestep=0.025,
  )


def augmented_ant(s):
  return s.tasks.RepeatSingleGoalMazeAugmentedWithTargets(
    s.walkers.Ant(),
    main_target=s.props.TargetSphere(radius=0.3),
    maze_arena=_maze(s, targets_per_room=3, room_min_size=4),
    num_subtargets=3,
    subtarget_reward_scale=2.0,
    randomize_spawn_position=False,
    physics_timestep=0.005,
    control_timestep=0.025,
  )


def null_goal_ant(s):
  # NullGoalMaze is not among the package's exports (nor dm_control's)
  module = random_goal_maze if s.ours else dm_random_goal_maze
  return module.NullGoalMaze(
    s.walkers.Ant(),
    s.arenas.MazeWithTargets(
      (labmaze if s.ours else lm).FixedMazeWithRandomGoals("*******\n*     *\n*  P  *\n*******\n")
    ),
    randomize_spawn_rotation=False,
    aliveness_reward=0.25,
    aliveness_threshold=-0.1,
    physics_timestep=0.005,
    control_timestep=0.025,
  )


# ---- scripts ----


def _targets(side):
  """The task's target entities still to be reached, in a fixed order (sub-targets first)."""
  task = side.task
  found = list(getattr(task, "_subtargets", []))
  found += [task._target] if hasattr(task, "_target") else []
  for group in getattr(task, "_active_targets", []):
    found += group
  return [target for target in found if not target.activated]


def _visit_targets(every):
  """Every `every` steps, puts the walker on the next target not yet reached."""

  def script(side, episode, step):
    if step % every == every - 1:
      remaining = _targets(side)
      if remaining:
        position = side.physics.bind(remaining[0].geom).xpos
        side.task._walker.set_pose(side.physics, position=[position[0], position[1], 0.5])

  return script


def _flip_at(step_to_flip):
  def script(side, episode, step):
    if step == step_to_flip:
      walker = side.task._walker
      x, y, _ = side.physics.bind(walker.root_body).xpos
      walker.set_pose(side.physics, position=[x, y, 0.3], quaternion=[0, 1, 0, 0])

  return script


def _successes(history):
  return sum(kind == 2 and discount == 1.0 for kind, _, discount in history)


CASES = {
  # every target reached: a successful end (discount 1) of each episode
  "many_goals": (
    many_goals_ant,
    dict(episodes=2, steps=80, script=_visit_targets(4)),
    lambda h: _successes(h) == 2,
  ),
  "heterogeneous": (
    heterogeneous_ant,
    dict(episodes=2, steps=60, script=_visit_targets(3)),
    lambda h: _successes(h) == 2 and min(r for _, r, _ in h) < 0,
  ),
  "repeat_single_goal": (
    repeat_single_goal_ant,
    dict(episodes=2, steps=40, script=_visit_targets(5)),
    lambda h: sum(r > 3 for _, r, _ in h) == 6,
  ),
  "augmented": (
    augmented_ant,
    dict(episodes=2, steps=40, script=_visit_targets(4)),
    lambda h: sum(r > 1 for _, r, _ in h) >= 4,
  ),
  # the flip ends each episode at once (its last step keeps discount 1: dm_control reads the
  # discount before the termination check)
  "null_goal_flipped": (
    null_goal_ant,
    dict(episodes=2, steps=30, script=_flip_at(10)),
    lambda h: [k for k, _, _ in h] == ([1] * 10 + [2]) * 2,
  ),
}


@pytest.mark.parametrize("name", CASES)
def test_maze_task_episodes_match_dm_control(name):
  make, run_options, check = CASES[name]
  twin = tp.Twin(make)
  assert twin.ours.enabled_at_build == twin.theirs.enabled_at_build
  history = tp.run_episodes(twin, **run_options)
  assert check(history), history


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_maze_task_long_episodes_match_dm_control(name):
  make, run_options, check = CASES[name]
  twin = tp.Twin(make, seed=5, global_seed=7)
  tp.run_episodes(twin, **dict(run_options, episodes=5))


# ---- dm_control's task tests, re-expressed ----


def test_null_goal_maze_observables_and_no_termination():
  """The walker's sensor groups and egocentric camera (64x64) are enabled; with a generous
  threshold and no contact termination an episode runs to its time limit."""
  walker = walkers.Ant()
  arena = _maze(types_ours())
  task = random_goal_maze.NullGoalMaze(
    walker,
    arena,
    contact_termination=False,
    aliveness_threshold=-2.0,
    physics_timestep=0.005,
    control_timestep=0.025,
  )
  camera = walker.observables.egocentric_camera
  assert camera.enabled and (camera.height, camera.width) == (64, 64)
  assert all(obs.enabled for obs in walker.observables.proprioception)
  env = composer.Environment(task, time_limit=0.5, random_state=np.random.RandomState(0))
  camera.enabled = False
  step = env.reset()
  steps = 0
  while not step.last():
    step = env.step(np.zeros(env.action_spec().shape))
    steps += 1
    assert step.reward == 0.0 and step.discount == 1.0
  assert steps == 20


def types_ours():
  return tp.stack(True)


def test_walker_spawns_on_a_spawn_cell_facing_the_longest_ray():
  """Without randomized rotation the walker is unrotated; with a large bias its heading points
  (nearly) along the longest free ray out of its spawn cell."""
  for bias in (None, 1000.0):
    np.random.seed(3)
    walker = walkers.Ant()
    arena = _maze(types_ours())
    task = random_goal_maze.NullGoalMaze(
      walker,
      arena,
      randomize_spawn_rotation=bias is not None,
      rotation_bias_factor=bias or 0,
      physics_timestep=0.005,
      control_timestep=0.025,
    )
    walker.observables.egocentric_camera.enabled = False
    env = composer.Environment(task, random_state=np.random.RandomState(1))
    env.reset()
    xpos = env.physics.bind(walker.root_body).xpos
    spawn = min(arena.spawn_positions, key=lambda p: np.linalg.norm(p[:2] - xpos[:2]))
    np.testing.assert_allclose(xpos[:2], spawn[:2], atol=1e-6)
    xmat = env.physics.bind(walker.root_body).xmat.reshape(3, 3)
    heading = np.arctan2(xmat[1, 0], xmat[0, 0])
    if bias is None:
      assert abs(heading) < 1e-6
    else:
      distances = [_free_distance(arena, spawn, 2 * np.pi * i / 10) for i in range(10)]
      best = 2 * np.pi * np.argmax(distances) / 10
      assert abs(np.angle(np.exp(1j * (heading - best)))) < 0.05


def _free_distance(arena, start, theta):
  """Distance from `start` to the first wall cell along direction `theta` (grid walk)."""
  layer = arena.maze.entity_layer
  direction = np.array([np.cos(theta), np.sin(theta)])
  for k in range(1, 4000):
    point = start[:2] + direction * k * 0.01
    row, col = arena.world_to_grid_positions([[point[0], point[1], 0]])[0]
    if layer[int(round(row)), int(round(col))] == "*":
      return k * 0.01
  return np.inf


# ---- errors ----


def test_maze_without_targets_is_named():
  np.random.seed(0)
  task = tasks.RepeatSingleGoalMaze(walkers.Ant(), _maze(types_ours(), targets_per_room=0))
  with pytest.raises(ValueError, match="0 target position"):
    task.initialize_episode_mjcf(np.random.RandomState(0))


def test_maze_with_fewer_targets_than_subtargets_is_named():
  np.random.seed(0)
  task = tasks.RepeatSingleGoalMazeAugmentedWithTargets(
    walkers.Ant(), props.TargetSphere(), _maze(types_ours(), targets_per_room=1), num_subtargets=20
  )
  with pytest.raises(ValueError, match="fewer than the 20"):
    task.initialize_episode_mjcf(np.random.RandomState(0))


def test_maze_without_spawns_is_named():
  arena = arenas.MazeWithTargets(labmaze.FixedMazeWithRandomGoals("*****\n*   *\n*****\n"))
  task = random_goal_maze.NullGoalMaze(walkers.Ant(), arena)
  task.walker_camera = task._walker.observables.egocentric_camera.enabled = False
  with pytest.raises(ValueError, match="no spawn positions"):
    composer.Environment(task, random_state=0).reset()


def test_heterogeneous_kinds_must_line_up():
  with pytest.raises(ValueError, match="one entry per target kind"):
    tasks.ManyHeterogeneousGoalsMaze(
      walkers.Ant(),
      _maze(types_ours()),
      target_builders=[props.TargetSphere],
      target_type_rewards=[1.0, 2.0],
      target_type_proportions=[1],
    )
