"""The locomotion tasks (RunThroughCorridor, GoToTarget, Escape, TwoTouch) against dm_control
1.0.50's: the same task on both stacks, seeded alike, stepped with the same random actions from
dm_control's state (task_parity.py); the properties dm_control's own task tests check; and
errors for bad walkers, arenas and arguments.

The fast tests use small walkers (Ant, the balls, and a 'MiniRat' for the tasks that accept only
a Rat or a CMU humanoid); the slow ones the walkers and settings of dm_control's examples.
"""

import functools
import types

import numpy as np
import pytest

import composer  # noqa: E402  (after task_parity sets MUJOCO_GL)
import mjcf  # noqa: E402
from suite.locomotion import arenas  # noqa: E402
from suite.locomotion import props  # noqa: E402
from suite.locomotion import tasks  # noqa: E402
from suite.locomotion import walkers  # noqa: E402
from suite.locomotion.tasks import escape  # noqa: E402
from tests.locomotion import task_parity as tp
from tests.locomotion import twin_walkers


@pytest.fixture
def no_dm_gl_contexts():
  with tp.no_dm_gl_contexts():
    yield


# ---- task builders, for either stack (`s` is task_parity.stack(ours)) ----


def corridor_ant(s):
  return s.tasks.RunThroughCorridor(s.walkers.Ant(), s.arenas.EmptyCorridor())


def corridor_jumping_ball_gaps(s):
  """Spawn position and rotation drawn from Variations (drawn rotation first)."""
  return s.tasks.RunThroughCorridor(
    s.walkers.JumpingBallWithHead(),
    s.arenas.GapsCorridor(),
    walker_spawn_position=s.distributions.Uniform((0, -1, 0), (1, 1, 0)),
    walker_spawn_rotation=s.distributions.Uniform(-1, 1),
    target_velocity=1.5,
    terminate_at_height=-0.2,
  )


def corridor_rolling_ball_walls(s):
  return s.tasks.RunThroughCorridor(
    s.walkers.RollingBallWithHead(),
    s.arenas.WallsCorridor(),
    walker_spawn_rotation=np.pi / 3,
    contact_termination=False,
    terminate_at_height=None,
    physics_timestep=0.004,
    control_timestep=0.02,
  )


def go_to_target_ant(s):
  return s.tasks.GoToTarget(
    s.walkers.Ant(), s.arenas.Floor(size=(4, 4)), moving_target=True, steps_before_moving_target=3
  )


def go_to_relative_target_ball(s):
  return s.tasks.GoToTarget(
    s.walkers.RollingBallWithHead(),
    s.arenas.Floor(),
    moving_target=True,
    target_relative=True,
    target_relative_dist=2.0,
    steps_before_moving_target=2,
    distance_tolerance=0.5,
    target_spawn_position=s.deterministic.Sequence([(1, 1), (-1, 2), (2, -1), (0, 3)]),
    walker_spawn_position=(0.5, -0.5),
    walker_spawn_rotation=s.distributions.Uniform(0, 3),
  )


def escape_mini_rat(s):
  return s.tasks.Escape(tp.mini_rat(s), s.arenas.Bowl(size=(8, 8)))


def two_touch_mini_rat(s):
  target = functools.partial(s.props.TargetSphereTwoTouch, radius=0.04)
  return s.tasks.TwoTouch(
    tp.mini_rat(s),
    s.arenas.Floor(size=(3, 3)),
    target_builders=[target],
    target_type_rewards=[25.0],
    target_area=(1.0, 1.0),
    z_height=0.1,
    physics_timestep=0.005,
    control_timestep=0.03,
  )


def two_touch_mini_rat_shuffled(s):
  """Three builders shuffled with the episode's random state every episode."""
  builders = [
    functools.partial(s.props.TargetSphereTwoTouch, radius=radius) for radius in (0.03, 0.04, 0.05)
  ]
  return s.tasks.TwoTouch(
    tp.mini_rat(s),
    s.arenas.Floor(size=(3, 3)),
    target_builders=builders,
    target_type_rewards=[10.0],
    shuffle_target_builders=True,
    aliveness_reward=0.5,
    reset_delay=0.1,
    touch_interval=0.5,
    interval_tolerance=0.05,
    failure_timeout=0.3,
  )


# dm_control's examples (basic_cmu_2019.py and basic_rodent_2020.py), their cameras excepted


def cmu_run_gaps(s):
  arena = s.arenas.GapsCorridor(
    platform_length=s.distributions.Uniform(0.3, 2.5),
    gap_length=s.distributions.Uniform(0.5, 1.25),
    corridor_width=10,
    corridor_length=100,
  )
  return s.tasks.RunThroughCorridor(
    s.walkers.CMUHumanoidPositionControlledV2020(),
    arena,
    walker_spawn_position=(0.5, 0, 0),
    target_velocity=3.0,
    physics_timestep=0.005,
    control_timestep=0.03,
  )


def cmu_run_gaps_without_contact_termination(s):
  """The example's task with falls allowed: the walker lies across platforms and gaps."""
  arena = s.arenas.GapsCorridor(
    platform_length=s.distributions.Uniform(0.3, 2.5),
    gap_length=s.distributions.Uniform(0.5, 1.25),
    corridor_width=10,
    corridor_length=100,
  )
  return s.tasks.RunThroughCorridor(
    s.walkers.CMUHumanoidPositionControlledV2020(),
    arena,
    walker_spawn_position=(0.5, 0, 0),
    target_velocity=3.0,
    contact_termination=False,
    physics_timestep=0.005,
    control_timestep=0.03,
  )


def cmu_run_walls(s):
  arena = s.arenas.WallsCorridor(
    wall_gap=4.0,
    wall_width=s.distributions.Uniform(1, 7),
    wall_height=3.0,
    corridor_width=10,
    corridor_length=100,
    include_initial_padding=False,
  )
  return s.tasks.RunThroughCorridor(
    s.walkers.CMUHumanoidPositionControlled(),
    arena,
    walker_spawn_position=(0.5, 0, 0),
    target_velocity=3.0,
    physics_timestep=0.005,
    control_timestep=0.03,
  )


def cmu_go_to_target(s):
  return s.tasks.GoToTarget(
    s.walkers.CMUHumanoidPositionControlled(),
    s.arenas.Floor(),
    physics_timestep=0.005,
    control_timestep=0.03,
  )


def rat_escape_bowl(s):
  return s.tasks.Escape(
    s.walkers.Rat(), s.arenas.Bowl(size=(20.0, 20.0)), physics_timestep=0.001, control_timestep=0.02
  )


def rat_run_gaps(s):
  arena = s.arenas.GapsCorridor(
    platform_length=s.distributions.Uniform(0.4, 0.8),
    gap_length=s.distributions.Uniform(0.05, 0.2),
    corridor_width=2,
    corridor_length=40,
  )
  return s.tasks.RunThroughCorridor(
    s.walkers.Rat(),
    arena,
    walker_spawn_position=(5, 0, 0),
    walker_spawn_rotation=0,
    target_velocity=1.0,
    contact_termination=False,
    terminate_at_height=-0.3,
    physics_timestep=0.001,
    control_timestep=0.02,
  )


def rat_two_touch(s):
  target = functools.partial(s.props.TargetSphereTwoTouch, radius=0.025)
  return s.tasks.TwoTouch(
    s.walkers.Rat(),
    s.arenas.Floor(size=(10.0, 10.0)),
    target_builders=[target],
    randomize_spawn_rotation=True,
    target_type_rewards=[25.0],
    shuffle_target_builders=False,
    target_area=(1.5, 1.5),
    physics_timestep=0.001,
    control_timestep=0.02,
  )


# ---- scripts: the same intervention on both sides before a step ----


def _walker(side):
  return side.task._walker  # both stacks keep the walker here


def _flip_walker_at(episode_step):
  """Turns the walker upside down onto the ground before step `episode_step` of the second
  episode (its non-foot geoms then touch the ground)."""

  def script(side, episode, step):
    if (episode, step) == (1, episode_step):
      walker = _walker(side)
      x, y, _ = side.physics.bind(walker.root_body).xpos
      walker.set_pose(side.physics, position=[x, y, 0.25], quaternion=[0, 1, 0, 0])

  return script


def _sink_walker_at(episode_step):
  """Drops the walker 2 m under the ground before step `episode_step` of the first episode."""

  def script(side, episode, step):
    if (episode, step) == (0, episode_step):
      walker = _walker(side)
      walker.shift_pose(side.physics, position=[0, 0, -2])

  return script


def _walker_to_target(side, episode, step):
  """Keeps the walker on the target during steps 5-15 of each episode (it moves away)."""
  if 5 <= step <= 15:
    walker = _walker(side)
    target = side.task.target_position(side.physics)
    z = side.physics.bind(walker.root_body).xpos[2]
    walker.set_pose(side.physics, position=[target[0], target[1], z])


def _two_touch_target(side):
  return next(
    entity
    for entity in side.task.root_entity.iter_entities()
    if type(entity).__name__ == "TargetSphereTwoTouch"
  )


def _touch_script(touch_steps):
  """Before each step in `touch_steps[episode]`, puts the target on the walker's left hand;
  before the step after, lifts it out of reach."""

  def script(side, episode, step):
    target = _two_touch_target(side)
    if step in touch_steps[episode]:
      hand = _walker(side).mjcf_model.find("body", "hand_L")
      side.physics.bind(target.geom).pos = side.physics.bind(hand).xpos
    elif step - 1 in touch_steps[episode]:
      side.physics.bind(target.geom).pos = [0, 0, 5]

  return script


# (touch steps per episode) at 0.03 s per step: two touches 0.81 s apart (rewarded), a second
# touch too soon (0.3 s), and no second touch
_TWO_TOUCH_TRIALS = ({5, 32}, {4, 14}, {6})
# at 0.02 s per step (the rat): 0.8 s apart, 0.4 s, none
_RAT_TWO_TOUCH_TRIALS = ({5, 45}, {4, 24}, {6})


def _one_failure(history):
  """The episodes end once, by a failure (discount 0)."""
  assert [(kind, discount) for kind, _, discount in history if kind == 2] == [(2, 0.0)]


def _rewarded_at_target(history):
  assert sum(reward for _, reward, _ in history) >= 3


def _touch_rewards(count, touch_reward):
  """`count` steps earn a touch reward."""

  def check(history):
    assert sum(reward > touch_reward for _, reward, _ in history) == count

  return check


# name: (task builder, run_episodes options, a check of dm_control's steps that the scripts did
# what they are for)
FAST = {
  "corridor_ant": (corridor_ant, dict(script=_flip_walker_at(20)), _one_failure),
  "corridor_jumping_ball_gaps": (
    corridor_jumping_ball_gaps,
    dict(script=_sink_walker_at(30)),
    _one_failure,
  ),
  "corridor_rolling_ball_walls": (corridor_rolling_ball_walls, {}, None),
  "go_to_target_ant": (go_to_target_ant, dict(script=_walker_to_target), _rewarded_at_target),
  "go_to_relative_target_ball": (
    go_to_relative_target_ball,
    dict(script=_walker_to_target),
    _rewarded_at_target,
  ),
  "escape_mini_rat": (escape_mini_rat, {}, None),
  # both touches of the first trial and the first of the others (only the first touches of the
  # shuffled variant, whose interval is shorter)
  "two_touch_mini_rat": (
    two_touch_mini_rat,
    dict(episodes=3, steps=70, script=_touch_script(_TWO_TOUCH_TRIALS)),
    _touch_rewards(4, 25),
  ),
  "two_touch_mini_rat_shuffled": (
    two_touch_mini_rat_shuffled,
    dict(episodes=3, script=_touch_script(_TWO_TOUCH_TRIALS)),
    _touch_rewards(3, 10),
  ),
}

# name: (task builder, Twin options, run_episodes options[, check]). The rat's contacts amplify
# last-bit differences of the engines within a 20-substep control step (see task_parity.py), so
# its physics steps each start from dm_control's state. The humanoids fall within ~15 steps of
# random actions, ending the episode (contact termination).
SLOW = {
  "cmu_run_gaps": (cmu_run_gaps, {}, dict(episodes=3)),
  "cmu_run_gaps_without_contact_termination": (
    cmu_run_gaps_without_contact_termination,
    {},
    dict(steps=100, action_scale=0.5),
  ),
  "cmu_run_walls": (cmu_run_walls, {}, dict(episodes=3, script=_flip_walker_at(10))),
  "cmu_go_to_target": (
    cmu_go_to_target,
    {},
    dict(episodes=3, script=_walker_to_target),
    _rewarded_at_target,
  ),
  "rat_escape_bowl": (rat_escape_bowl, dict(copy_every_substep=True), dict(steps=100)),
  "rat_run_gaps": (rat_run_gaps, dict(copy_every_substep=True), dict(steps=100)),
  "rat_two_touch": (
    rat_two_touch,
    dict(copy_every_substep=True),
    dict(episodes=3, steps=100, script=_touch_script(_RAT_TWO_TOUCH_TRIALS)),
    _touch_rewards(4, 25),
  ),
}


def _assert_same_observables_enabled(twin):
  """Both tasks enabled the same observables (cameras included), in the same order."""
  assert twin.ours.enabled_at_build == twin.theirs.enabled_at_build


@pytest.mark.parametrize("name", FAST)
def test_episodes_match_dm_control(name, no_dm_gl_contexts):
  make, run_options, check = FAST[name]
  twin = tp.Twin(make)
  _assert_same_observables_enabled(twin)
  history = tp.run_episodes(twin, **run_options)
  if check is not None:
    check(history)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_example_episodes_match_dm_control(name, no_dm_gl_contexts):
  make, twin_options, run_options, *check = SLOW[name]
  twin = tp.Twin(make, **twin_options)
  _assert_same_observables_enabled(twin)
  history = tp.run_episodes(twin, **run_options)
  for each in check:
    each(history)


@pytest.mark.parametrize("make", [corridor_ant, escape_mini_rat, two_touch_mini_rat])
def test_enabled_camera_gives_dm_controls_image_spec(make, opengl):
  """The tasks that enable the egocentric camera observe images of dm_control's spec."""
  ours, theirs = make(tp.stack(True)), make(tp.stack(False))
  camera = "walker/egocentric_camera"
  image = composer.Environment(ours, random_state=0).reset().observation[camera]
  spec = theirs.observables[camera].array_spec
  assert ours.observables[camera].enabled and theirs.observables[camera].enabled
  assert (image.shape, image.dtype) == ((1, *spec.shape), spec.dtype)
  assert image.any()  # something was drawn


# ---- dm_control's task tests, on our stack ----


@pytest.mark.parametrize(
  "position_offset, rotate_180_degrees, use_variations",
  [((0, 0, 0), False, False), ((1, 2, 3), True, True)],
)
def test_corridor_walker_is_correctly_reinitialized(
  position_offset, rotate_180_degrees, use_variations
):
  from composer.variation import deterministic
  from composer.variation import rotations

  spawn_position, spawn_rotation = position_offset, np.pi if rotate_180_degrees else None
  if use_variations:
    spawn_position = deterministic.Constant(position_offset)
    spawn_rotation = deterministic.Constant(spawn_rotation)
  walker = walkers.CMUHumanoid()
  task = tasks.RunThroughCorridor(
    walker,
    arenas.EmptyCorridor(),
    walker_spawn_position=spawn_position,
    walker_spawn_rotation=spawn_rotation,
  )
  random_state = np.random.RandomState(12345)
  task.initialize_episode_mjcf(random_state)
  physics = mjcf.Physics.from_mjcf_model(task.root_entity.mjcf_model)
  joints = walker.mjcf_model.find_all("joint")
  physics.bind(joints).qpos = random_state.uniform(size=len(joints))
  walker.set_pose(
    physics,
    position=random_state.uniform(size=3),
    quaternion=rotations.UniformQuaternion()(random_state),
  )
  task.initialize_episode(physics, random_state)
  physics.forward()

  expected_qpos = (
    physics.bind(joints).qpos0 if walker.upright_pose.qpos is None else walker.upright_pose.qpos
  )
  np.testing.assert_array_equal(physics.bind(joints).qpos, expected_qpos)
  xpos, xquat = walker.get_pose(physics)
  np.testing.assert_array_equal(xpos, walker.upright_pose.xpos + np.array(position_offset))
  upright = walker.upright_pose.xquat / np.linalg.norm(walker.upright_pose.xquat)
  expected = (-upright[3], -upright[2], upright[1], upright[0]) if rotate_180_degrees else upright
  np.testing.assert_allclose(xquat, expected)


def _turn_upside_down_and_drop(env, walker):
  """dm_control's tests' way to a failure: upside down 10 m up, fallen until it touches."""
  time = env.physics.data.time
  walker.shift_pose(env.physics, position=(0, 0, 10), quaternion=(0, 1, 0, 0))
  env.physics.forward()
  while env.physics.data.ncon == 0:
    env.physics.step()
  env.physics.data.time = time


@pytest.mark.parametrize(
  "make_task",
  [
    lambda walker: tasks.RunThroughCorridor(walker, arenas.EmptyCorridor()),
    lambda walker: tasks.GoToTarget(walker, arenas.Floor()),
  ],
)
def test_termination_and_discount(make_task):
  walker = walkers.CMUHumanoid()
  task = make_task(walker)
  env = composer.Environment(task, random_state=np.random.RandomState(12345))
  env.reset()
  zero_action = np.zeros_like(env.physics.data.ctrl)
  for _ in range(5):
    env.step(zero_action)
    assert not task.should_terminate_episode(env.physics)
    assert task.get_discount(env.physics) == 1
  _turn_upside_down_and_drop(env, walker)
  env.step(zero_action)
  assert task.should_terminate_episode(env.physics)
  assert task.get_discount(env.physics) == 0


def _go_to_target_env(**options):
  walker = walkers.CMUHumanoid()
  task = tasks.GoToTarget(walker=walker, arena=arenas.Floor(), **options)
  return walker, task, composer.Environment(task, random_state=np.random.RandomState(12345))


def test_go_to_target_observes_the_target_and_draws_it_each_episode():
  _, task, env = _go_to_target_env(moving_target=False)
  assert "walker/target" in env.reset().observation
  first = task.target_position(env.physics)
  env.reset()
  assert not np.all(first == task.target_position(env.physics))


@pytest.mark.parametrize("moving_target", [False, True])
def test_go_to_target_rewards(moving_target):
  steps_before_moving = 2
  walker, task, env = _go_to_target_env(
    moving_target=moving_target, steps_before_moving_target=steps_before_moving
  )
  env.reset()
  target = task.target_position(env.physics)
  zero_action = np.zeros_like(env.physics.data.ctrl)
  for _ in range(2):
    assert env.step(zero_action).reward == 0
  height = env.physics.bind(walker.root_body).xpos[2]
  walker.set_pose(env.physics, position=[target[0], target[1], height])
  env.physics.forward()
  for _ in range(steps_before_moving):
    assert env.step(zero_action).reward == 1
    np.testing.assert_array_equal(task.target_position(env.physics), target)
  if moving_target:  # the target moved away
    assert env.step(zero_action).reward == 0


def test_escape_observes_and_does_not_terminate(no_dm_gl_contexts):
  task = tasks.Escape(
    walkers.Rat(),
    arenas.Bowl(size=(20.0, 20.0), aesthetic="outdoor_natural"),
    physics_timestep=0.001,
    control_timestep=0.02,
  )
  env = composer.Environment(task, random_state=np.random.RandomState(12345))
  observation = env.reset().observation
  assert "walker/joints_pos" in observation and "walker/origin" in observation
  zero_action = np.zeros_like(env.physics.data.ctrl)
  for _ in range(5):
    env.step(zero_action)
    assert not task.should_terminate_episode(env.physics)
    assert task.get_discount(env.physics) == 1


def test_two_touch_observes_joints_and_its_stage():
  task = tasks.TwoTouch(
    walkers.Rat(),
    arenas.Floor(size=(10.0, 10.0), aesthetic="outdoor_natural"),
    target_builders=[functools.partial(props.TargetSphereTwoTouch, radius=0.025)],
    randomize_spawn_rotation=True,
    target_type_rewards=[25.0],
    target_area=(1.5, 1.5),
    physics_timestep=0.001,
    control_timestep=0.02,
  )
  task.observables["walker/egocentric_camera"].enabled = False
  observation = composer.Environment(task, random_state=12345).reset().observation
  assert "walker/joints_pos" in observation
  np.testing.assert_array_equal(observation["task_logic"], [[tasks.reach.TwoTouchState.PRE_TOUCH]])
  assert task.name == "two_touch"


def test_two_touch_without_random_rotation_keeps_the_upright_yaw():
  """dm_control fails here (an unbound quaternion); ours spawns the walker unturned."""
  walker = tp.mini_rat(tp.stack(True))
  task = tasks.TwoTouch(
    walker,
    arenas.Floor(),
    target_builders=[props.TargetSphereTwoTouch],
    target_type_rewards=[1.0],
    randomize_spawn_rotation=False,
  )
  env = composer.Environment(task, random_state=3)
  env.reset()
  _, quaternion = walker.get_pose(env.physics)
  np.testing.assert_allclose(quaternion, [1, 0, 0, 0])


# ---- helpers of the escape task against dm_control's ----


def test_non_contacting_height_and_upright_reward_match_dm_control(no_dm_gl_contexts):
  from dm_control.locomotion.tasks import escape as dm_escape

  twin = tp.Twin(rat_escape_bowl)
  twin.reset()
  orientation = np.array([0.3, -0.5, 0.6, 0.2])
  orientation /= np.linalg.norm(orientation)
  for side, module in ((twin.ours, escape), (twin.theirs, dm_escape)):
    module._find_non_contacting_height(side.physics, _walker(side), orientation, 0.4, -0.2)
  np.testing.assert_array_equal(twin.ours.physics.data.qpos[:7], twin.theirs.physics.data.qpos[:7])
  assert twin.ours.physics.data.ncon == twin.theirs.physics.data.ncon == 0
  tp.copy_state(twin.theirs.physics, twin.ours.physics)
  for angle in (0, 30, 90):
    np.testing.assert_allclose(
      escape._upright_reward(twin.ours.physics, _walker(twin.ours), angle),
      dm_escape._upright_reward(twin.theirs.physics, _walker(twin.theirs), angle),
      atol=1e-12,
    )


def test_non_contacting_height_gives_up_after_maxiter(no_dm_gl_contexts):
  twin = tp.Twin(rat_escape_bowl)
  twin.reset()
  with pytest.raises(ValueError, match="maxiter reached"):
    escape._find_non_contacting_height(
      twin.ours.physics, _walker(twin.ours), [1, 0, 0, 0], maxiter=2
    )


# ---- bad input ----


def _critter():
  return twin_walkers.critter_class(twin_walkers.namespace(True))()


def _simple_walker():
  return twin_walkers.simple_walker_class(twin_walkers.namespace(True))()


class _LegacyWalkerWithBaseObservables(twin_walkers.critter_class(twin_walkers.namespace(True))):
  """A legacy walker whose observables lack the touch sensors and the camera."""

  def _build_observables(self):
    from suite.locomotion.walkers import base

    return base.WalkerObservables(self)


@pytest.mark.parametrize(
  "build, error, message",
  [
    (
      lambda: tasks.RunThroughCorridor(arenas.Floor(), arenas.EmptyCorridor()),
      TypeError,
      "RunThroughCorridor: `walker` must be a locomotion walker",
    ),
    (
      lambda: tasks.RunThroughCorridor(_simple_walker(), arenas.EmptyCorridor()),
      ValueError,
      "RunThroughCorridor needs a walker with reinitialize_pose, ground_contact_geoms",
    ),
    (
      lambda: tasks.RunThroughCorridor(_LegacyWalkerWithBaseObservables(), arenas.EmptyCorridor()),
      ValueError,
      "needs the walker observables sensors_touch, egocentric_camera",
    ),
    (
      lambda: tasks.RunThroughCorridor(_critter(), composer.Arena()),
      ValueError,
      "RunThroughCorridor needs an arena with regenerate, ground_geoms",
    ),
    (
      lambda: tasks.RunThroughCorridor(_critter(), arenas.EmptyCorridor(), target_velocity=-1),
      ValueError,
      "`target_velocity` must be a non-negative speed",
    ),
    (
      lambda: tasks.RunThroughCorridor(
        _critter(), arenas.EmptyCorridor(), physics_timestep=0.01, control_timestep=0.025
      ),
      ValueError,
      "Control timestep should be an integer multiple of physics timestep",
    ),
    (
      lambda: tasks.GoToTarget(_critter(), arenas.EmptyCorridor()),
      ValueError,
      "GoToTarget needs an arena with size",
    ),
    (
      lambda: tasks.Escape(walkers.Ant(), arenas.Bowl()),
      ValueError,
      "Escape expects Rat or CMUHumanoid",
    ),
    (
      lambda: tasks.Escape(_critter(), arenas.Bowl()),
      ValueError,
      "Escape expects Rat or CMUHumanoid",
    ),
    (
      lambda: tasks.TwoTouch(walkers.Ant(), arenas.Floor(), [props.TargetSphereTwoTouch], [1.0]),
      ValueError,
      "TwoTouch expects Rat or CMUHumanoid",
    ),
    (
      lambda: tasks.TwoTouch(tp.mini_rat(tp.stack(True)), arenas.Floor(), [], [1.0]),
      ValueError,
      "`target_builders` must be a non-empty sequence of callables",
    ),
    (
      lambda: tasks.TwoTouch(
        tp.mini_rat(tp.stack(True)), arenas.Floor(), [props.TargetSphereTwoTouch], []
      ),
      ValueError,
      "`target_type_rewards` must give at least one reward",
    ),
    (
      lambda: tasks.TwoTouch(
        tp.mini_rat(tp.stack(True)),
        arenas.Floor(),
        [props.TargetSphereTwoTouch],
        [1.0],
        randomize_spawn_position=True,
      ),
      ValueError,
      "TwoTouch needs an arena with spawn_positions",
    ),
    (
      lambda: tasks.TwoTouch(
        tp.mini_rat(tp.stack(True)), arenas.Bowl(), [props.TargetSphereTwoTouch], [1.0]
      ),
      ValueError,
      "TwoTouch needs an arena with size",
    ),
  ],
)
def test_bad_input_is_named(build, error, message):
  with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
    build()


def test_rat_tasks_need_the_rats_bodies():
  rat_without_hands = tp.mini_rat(tp.stack(True))
  rat_without_hands.mjcf_model.find("body", "hand_L").name = "paw_L"
  with pytest.raises(ValueError, match="the walker MiniRat has no body 'hand_L'"):
    tasks.TwoTouch(rat_without_hands, arenas.Floor(), [props.TargetSphereTwoTouch], [1.0])
  headless = tp.mini_rat(tp.stack(True))
  headless.mjcf_model.find("site", "head").remove()
  with pytest.raises(ValueError, match="the walker MiniRat has no site 'head'"):
    tasks.Escape(headless, arenas.Bowl())


def test_escape_needs_a_height_field():
  task = tasks.Escape(tp.mini_rat(tp.stack(True)), arenas.Floor())
  with pytest.raises(ValueError, match="Escape needs an arena with a height field"):
    composer.Environment(task)


def test_package_exports_dm_controls_names():
  from dm_control.locomotion import props as dm_props
  from dm_control.locomotion import tasks as dm_tasks

  # (submodules aside: which are attributes depends on what other tests imported)
  ours = {
    name
    for name, value in vars(tasks).items()
    if not name.startswith("_") and not isinstance(value, types.ModuleType)
  }
  theirs = {
    "RunThroughCorridor",
    "GoToTarget",
    "Escape",
    "TwoTouch",
    "ManyGoalsMaze",
    "ManyHeterogeneousGoalsMaze",
    "RepeatSingleGoalMaze",
    "RepeatSingleGoalMazeAugmentedWithTargets",
  }
  assert ours == theirs and theirs <= set(dir(dm_tasks))
  assert {"TargetSphere", "TargetSphereTwoTouch"} <= set(dir(props)) & set(dir(dm_props))
