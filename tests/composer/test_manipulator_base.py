"""composer.manipulators.base against dm_control.entities.manipulators.base: sampling bounds,
joint randomization, set_site_to_xpos and the joints observables, on both stacks."""

import logging

import numpy as np
import pytest

from composer.manipulators import base
from tests.composer import manipulator_twins as twins


def _small_arm(ours, unlimited_rail=False):
  ns = twins.namespace(ours)
  _, _, small_arm = twins.entity_classes(ns)
  arm = small_arm()
  if unlimited_rail:
    rail = arm.mjcf_model.find("joint", "rail")
    rail.range = None
    rail.limited = False
  physics = ns.mjcf.Physics.from_mjcf_model(arm.mjcf_model)
  return arm, physics


def _jaco(ours):
  ns, _, arm, hand, physics = twins.jaco_scene(ours)
  return arm, hand, physics


def test_down_quaternion_is_dm_controls():
  from dm_control.entities.manipulators import base as theirs

  np.testing.assert_array_equal(base.DOWN_QUATERNION, theirs.DOWN_QUATERNION)


@pytest.mark.parametrize(
  "make", [_small_arm, lambda ours: _jaco(ours)[::2]], ids=["small_arm", "jaco"]
)
def test_sampling_bounds_match_dm_control(make):
  """Limited joints: their range; unlimited hinges: [0, 2pi]."""
  (ours, our_physics), (theirs, their_physics) = make(True), make(False)
  bounds = ours._get_joint_pos_sampling_bounds(our_physics)
  np.testing.assert_array_equal(bounds, theirs._get_joint_pos_sampling_bounds(their_physics))
  assert bounds.shape == (2, len(ours.joints))


def test_small_arm_bounds_are_its_ranges():
  arm, physics = _small_arm(True)
  np.testing.assert_array_equal(
    arm._get_joint_pos_sampling_bounds(physics), [[-0.5, 0, -2, -2.5], [0.5, 2 * np.pi, 2, 2.5]]
  )


def test_unlimited_slide_raises_dm_controls_error():
  (ours, our_physics), (theirs, their_physics) = (
    _small_arm(True, unlimited_rail=True),
    _small_arm(False, unlimited_rail=True),
  )
  with pytest.raises(RuntimeError) as their_error:
    theirs._get_joint_pos_sampling_bounds(their_physics)
  with pytest.raises(RuntimeError) as our_error:
    ours._get_joint_pos_sampling_bounds(our_physics)
  first_line = "All non-hinge joints must have limits. Model contains the following non-hinge "
  assert str(their_error.value).startswith(first_line)
  assert str(our_error.value).startswith(first_line)
  assert "rail" in str(our_error.value).splitlines()[1]
  assert len(str(our_error.value).splitlines()) == 2  # only the rail


@pytest.mark.parametrize("seed", [0, 5])
def test_randomize_arm_joints_matches_dm_control(seed):
  (ours, our_physics), (theirs, their_physics) = _small_arm(True), _small_arm(False)
  ours.randomize_arm_joints(our_physics, np.random.RandomState(seed))
  theirs.randomize_arm_joints(their_physics, np.random.RandomState(seed))
  np.testing.assert_array_equal(our_physics.data.qpos, their_physics.data.qpos)
  lower, upper = ours._get_joint_pos_sampling_bounds(our_physics)
  qpos = our_physics.bind(ours.joints).qpos
  assert np.all(qpos >= lower) and np.all(qpos <= upper)


@pytest.mark.parametrize("by_name", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_set_site_to_xpos_matches_dm_control(by_name, seed):
  """The Jaco hand's pinch site to a pose (the default orientation is DOWN_QUATERNION): same
  outcome, joints and random draws as dm_control."""
  target = np.array([0.2 - 0.15 * seed, 0.25, 0.1 + 0.1 * seed])
  outcomes = []
  logging.disable(logging.WARNING)
  try:
    for ours in (True, False):
      arm, hand, physics = _jaco(ours)
      site = hand.tool_center_point
      random_state = np.random.RandomState(seed)
      success = arm.set_site_to_xpos(
        physics, random_state, site.full_identifier if by_name else site, target
      )
      outcomes.append(
        (
          success,
          physics.bind(arm.joints).qpos.copy(),
          random_state.randint(1 << 30),
          physics,
          site,
        )
      )
  finally:
    logging.disable(logging.NOTSET)
  (success, qpos, draw, physics, site), (their_success, their_qpos, their_draw, _, _) = outcomes
  assert success == their_success
  np.testing.assert_allclose(qpos, their_qpos, rtol=0, atol=1e-10)
  assert draw == their_draw
  if success:
    physics.forward()
    np.testing.assert_allclose(physics.bind(site).xpos, target, atol=1e-12)


def test_set_site_to_xpos_rejects_other_site_types():
  outcomes = []
  for ours in (True, False):
    arm, _, physics = _jaco(ours)
    with pytest.raises(ValueError) as error:
      arm.set_site_to_xpos(physics, np.random.RandomState(0), 3, [0, 0, 0.3])
    outcomes.append(str(error.value))
  assert outcomes[0] == outcomes[1] == "site should either be a string or mjcf.Element: got 3"


def test_single_attempt_leaves_failed_solution_in_place():
  """With max_ik_attempts=1 an unreachable target is not retried and the joints are not
  randomized: the solver's last iterate stays, as in dm_control."""
  qpos = []
  logging.disable(logging.WARNING)
  try:
    for ours in (True, False):
      arm, hand, physics = _jaco(ours)
      random_state = np.random.RandomState(0)
      assert not arm.set_site_to_xpos(
        physics, random_state, hand.tool_center_point, [0, 0, 3.0], max_ik_attempts=1
      )
      qpos.append(physics.bind(arm.joints).qpos.copy())
      assert random_state.randint(1 << 30) == np.random.RandomState(0).randint(1 << 30)
  finally:
    logging.disable(logging.NOTSET)
  np.testing.assert_allclose(qpos[0], qpos[1], rtol=0, atol=1e-10)


def test_joints_observables_match_dm_control():
  readings = []
  for ours in (True, False):
    arm, physics = _small_arm(ours)
    physics.data.qpos[:4] = [0.1, 0.2, -0.3, 0.4]
    physics.data.qvel[:4] = [1.0, -2.0, 3.0, -4.0]
    observables = arm.observables.as_dict()
    readings.append(
      {key: np.array(obs.observation_callable(physics)()) for key, obs in observables.items()}
    )
  assert list(readings[0]) == list(readings[1]) == ["joints_pos", "joints_vel"]
  for key in readings[1]:
    np.testing.assert_array_equal(readings[0][key], readings[1][key])
  np.testing.assert_array_equal(readings[0]["joints_pos"], [0.1, 0.2, -0.3, 0.4])


def test_arm_and_hand_are_abstract():
  with pytest.raises(TypeError):
    base.RobotArm()
  with pytest.raises(TypeError):
    base.RobotHand()
  ns = twins.namespace(True)
  _, _, small_arm = twins.entity_classes(ns)
  arm = small_arm()
  assert arm.attachment_site is arm.wrist_site


def test_wrapping_into_bounds_by_whole_turns():
  """Angles are shifted one turn at a time (dm_control's arithmetic, to the bit); an angle a
  million turns or more out of range raises instead of looping for ages."""
  arm, physics = _small_arm(True)
  lower, upper = arm._get_joint_pos_sampling_bounds(physics)
  yaw = physics.bind(arm.joints[1])
  yaw.qpos = 4 * 2 * np.pi + 0.1
  assert base._wrap_into_bounds(physics, arm.joints, lower, upper)
  expected = 4 * 2 * np.pi + 0.1
  for _ in range(4):
    expected -= 2 * np.pi
  assert float(yaw.qpos[0]) == expected
  yaw.qpos = -0.1  # one turn up lands inside [0, 2pi)
  assert base._wrap_into_bounds(physics, arm.joints, lower, upper)
  assert float(yaw.qpos[0]) == -0.1 + 2 * np.pi
  elbow = physics.bind(arm.joints[3])
  elbow.qpos = -2.6  # below [-2.5, 2.5], and a turn up overshoots: does not fit
  assert not base._wrap_into_bounds(physics, arm.joints, lower, upper)
  elbow.qpos = 0
  for bad in (1e9, np.nan, -np.inf):
    yaw.qpos = bad
    with pytest.raises(ValueError, match="turns from its range"):
      base._wrap_into_bounds(physics, arm.joints, lower, upper)
