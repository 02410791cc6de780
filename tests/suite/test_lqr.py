"""lqr: the model drawn at construction from the task's RandomState, the termination at rest
(discount 0) and the success criterion, against dm_control 1.0.50."""

import numpy as np
import pytest

from suite import lqr
from tests.suite import parity
from tests.suite import state_parity


def test_stiffnesses_are_drawn_from_the_task_random_state():
  env = lqr.lqr_2_1(random=0)
  np.testing.assert_array_equal(
    env.physics.model.jnt_stiffness, [20.488135039273246, 21.02763376071644]
  )
  np.testing.assert_array_equal(env.physics.model.dof_damping, [0, 0])
  # stiffness, damping (always 0, still drawn), stiffness, damping: then the task's draws
  random = np.random.RandomState(0)
  draws = random.uniform(15, 25, 4)
  np.testing.assert_array_equal(env.physics.model.jnt_stiffness, draws[::2])
  assert env.task.random.uniform() == random.uniform()


@pytest.mark.parametrize("n_bodies,n_actuators", [(2, 1), (6, 2), (3, 3)])
def test_model_matches_dm_control(n_bodies, n_actuators):
  mujoco = pytest.importorskip("mujoco")
  from dm_control.suite import lqr as dm_lqr

  theirs = mujoco.MjModel.from_xml_string(
    *dm_lqr.get_model_and_assets(n_bodies, n_actuators, np.random.RandomState(3))
  )
  ours = lqr.Physics.from_xml_string(
    *lqr.get_model_and_assets(n_bodies, n_actuators, np.random.RandomState(3))
  ).model
  assert (ours.nq, ours.nbody, ours.ntendon, ours.nu) == (
    theirs.nq,
    theirs.nbody,
    theirs.ntendon,
    theirs.nu,
  )
  for field in (
    "body_pos",
    "body_mass",
    "body_inertia",
    "jnt_stiffness",
    "dof_damping",
    "jnt_axis",
    "tendon_length0",
    "actuator_gear",
    "actuator_ctrllimited",
  ):
    np.testing.assert_array_equal(getattr(ours, field), getattr(theirs, field), err_msg=field)
  assert ours.opt.timestep == theirs.opt.timestep == 0.03
  assert ours.opt.disableflags == theirs.opt.disableflags
  np.testing.assert_allclose(ours.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-12)


def test_compiled_totals_of_lqr_6_2():
  model = lqr.lqr_6_2(random=0).physics.model
  assert (model.nq, model.nbody, model.nu, model.ntendon) == (6, 7, 2, 5)
  np.testing.assert_allclose(model.body_mass.sum(), 25.13274, rtol=1e-6)
  np.testing.assert_allclose(model.stat.meaninertia, 14.6608, rtol=1e-5)


def test_bad_actuator_counts_raise():
  with pytest.raises(ValueError):
    lqr.get_model_and_assets(2, 3, np.random.RandomState(0))
  with pytest.raises(ValueError):
    lqr.get_model_and_assets(2, 0, np.random.RandomState(0))


@pytest.mark.parametrize("task", ["lqr_2_1", "lqr_6_2"])
def test_termination_at_rest_has_discount_zero(task):
  """A state norm below 1e-6 after a step ends the episode with discount 0; the next step
  starts a new one. Just above it, the episode goes on. Same as dm_control."""
  for env in parity.load_pair("lqr", task):
    action = np.zeros(env.action_spec().shape)
    nq = env.physics.model.nq
    env.reset()
    with env.physics.reset_context():
      env.physics.data.qpos[:] = 1e-8 / np.sqrt(nq)
    step = env.step(action)
    assert step.last() and step.discount == 0.0, type(env)
    assert env.physics.state_norm() < 1e-6
    assert env.step(action).first()
    env.reset()
    with env.physics.reset_context():
      env.physics.data.qpos[:] = 1e-3
    step = env.step(action)
    assert step.mid() and step.discount == 1.0, type(env)


def test_no_time_limit_and_evaluation():
  env = lqr.lqr_2_1(random=0)
  assert env.step_limit == float("inf")
  env.reset()
  assert not env.task.get_evaluation(env.physics)  # starts at distance sqrt(2)
  np.testing.assert_allclose(env.physics.state_norm(), np.sqrt(2), rtol=1e-12)
  env.physics.data.qpos[:] = 0.005
  assert env.task.get_evaluation(env.physics)


def test_reward_is_one_minus_quadratic_cost():
  env = lqr.lqr_6_2(random=0)
  env.reset()
  action = np.array([2.0, -3.0])
  step = env.step(action)
  qpos = env.physics.data.qpos
  np.testing.assert_allclose(step.reward, 1 - (0.5 * qpos @ qpos + 0.1 * 0.5 * 13), rtol=1e-12)


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("lqr", "lqr_6_2")
  assert names == ["state_norm"]
