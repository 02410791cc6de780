"""The stacker domain beyond the parity test: the compiled models for 1-4 boxes against
docs/suite.md and dm_control, resets over several seeds and episodes, tasks built with another
number of boxes, rewards near the target, and the partially observable variant."""

import numpy as np
import pytest

import engine
from suite import control
from suite import stacker
from tests.suite import parity
from tests.suite import planar_arm

# per number of boxes: nq, nbody, total mass (dm_control's; 1 and 3 boxes by the same rule)
_TOTALS = {2: (14, 13, 0.5375433), 4: (20, 15, 0.7079113)}


@pytest.mark.parametrize("n_boxes", (1, 2, 3, 4))
def test_model_matches_dm_control(n_boxes):
  import mujoco
  from dm_control.suite import stacker as dm_stacker

  ours = engine.Physics.from_xml_string(*stacker.make_model(n_boxes)).model
  theirs = mujoco.MjModel.from_xml_string(*dm_stacker.make_model(n_boxes))
  assert (ours.nq, ours.nbody, ours.ngeom, ours.nsite) == (
    8 + 3 * n_boxes,
    11 + n_boxes,
    20 + n_boxes,
    8 + n_boxes,
  )
  if n_boxes in _TOTALS:
    nq, nbody, mass = _TOTALS[n_boxes]
    assert (ours.nq, ours.nbody) == (nq, nbody)
    np.testing.assert_allclose(ours.body_mass.sum(), mass, rtol=1e-6)
  if n_boxes == 4:
    np.testing.assert_allclose(ours.ptr.stat.meaninertia, 0.0354886, rtol=1e-5)
  planar_arm.assert_models_equal(ours, theirs)


@pytest.mark.parametrize("task", ("stack_2", "stack_4"))
def test_resets_match_dm_control(task):
  planar_arm.assert_resets_match("stacker", task)


@pytest.mark.parametrize("n_boxes", (1, 3))
def test_other_box_counts_match_dm_control(n_boxes):
  """Stack(n_boxes) on make_model(n_boxes) for counts without a registered task."""
  from dm_control.rl import control as dm_control_rl
  from dm_control.suite import stacker as dm_stacker

  ours = control.Environment(
    stacker.Physics.from_xml_string(*stacker.make_model(n_boxes)),
    stacker.Stack(n_boxes, True, random=4),
    control_timestep=0.01,
  )
  theirs = dm_control_rl.Environment(
    dm_stacker.Physics.from_xml_string(*dm_stacker.make_model(n_boxes)),
    dm_stacker.Stack(n_boxes, True, random=4),
    control_timestep=0.01,
  )
  parity.assert_specs_equal(ours, theirs)
  assert ours.observation_spec()["box_pos"].shape == (n_boxes, 4)
  for _ in range(3):
    a, b = ours.reset(), theirs.reset()
    parity.assert_observations_close(a.observation, b.observation, parity.RESET_ATOL)


def test_rewards_near_the_target():
  """Rewards with a box near the target and the hand near or away from it, against dm_control
  at the same states."""
  ours, theirs = parity.load_pair("stacker", "stack_2", seed=2)
  ours.reset()
  theirs.reset()
  rng = np.random.RandomState(0)
  rewards = []
  for k in range(20):
    named = theirs.physics.named
    target = named.model.body_pos["target"].copy()
    if k % 3 == 0:  # the target under the hand: hand_far falls off
      target[[0, 2]] = named.data.site_xpos["grasp", ["x", "z"]] + rng.normal(0, 0.05, 2)
    box = [target[0], target[2], 0] + rng.normal(0, [0.02, 0.02, 0.3])
    for env in (ours, theirs):
      env.physics.named.model.body_pos["target"] = target
      for axis, value in zip("xzy", box):
        env.physics.named.data.qpos[f"box{k % 2}_{axis}"] = value
      env.physics.forward()
    reward = ours.task.get_reward(ours.physics)
    np.testing.assert_allclose(reward, theirs.task.get_reward(theirs.physics), atol=1e-12)
    rewards.append(reward)
  assert max(rewards) > 0.5 and min(rewards) < 0.5


def test_partially_observable():
  """fully_observable=False drops the hand, box and target keys, as dm_control does."""
  ours, theirs = parity.load_pair("stacker", "stack_4", seed=1, fully_observable=False)
  parity.assert_specs_equal(ours, theirs)
  assert list(ours.observation_spec()) == ["arm_pos", "arm_vel", "touch"]
  a, b = ours.reset(), theirs.reset()
  parity.assert_observations_close(a.observation, b.observation, parity.RESET_ATOL)
