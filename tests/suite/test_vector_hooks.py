"""Tasks with their own step hooks or Python methods, batched (suite/vector.py): a before_step
that transforms the action, an after_step that changes the state, Python reward and
termination overrides; world i of the batch is the single environment of its seed, bitwise,
across episode ends, on the serial and the threaded path. visualize_reward is refused."""

import numpy as np
import pytest
from dm_env import specs

from suite import cartpole
from suite import control
from suite import vector
from tests.suite.test_vector import _assert_world_is_single_env
from tests.suite.test_vector import _rollout_batch


class NegatedActions(cartpole.Balance):
  """before_step writes minus half the action, clipped to +-0.3."""

  def before_step(self, action, physics):
    physics.data.ctrl[:] = np.clip(-0.5 * np.asarray(action), -0.3, 0.3)


class TwoInputs(cartpole.Balance):
  """Takes two inputs per step; the control is their difference."""

  def action_spec(self, physics):
    return specs.BoundedArray((2,), float, -1.0, 1.0)

  def before_step(self, action, physics):
    physics.data.ctrl[0] = action[0] - action[1]


class DampedAfterStep(cartpole.Balance):
  """after_step damps the velocities (reward and observation must see it); the episode ends
  (discount 0) once the cart leaves +-0.1 m."""

  def after_step(self, physics):
    physics.data.qvel[:] *= 0.9

  def get_termination(self, physics):
    return 0.0 if abs(physics.data.qpos[0]) > 0.1 else None


class PythonReward(cartpole.Balance):
  """The kernel's observation, but a reward of its own in Python."""

  def get_reward(self, physics):
    return float(physics.data.qpos[0] ** 2)


def _make(task_class, seed):
  physics = cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets())
  task = task_class(swing_up=False, sparse=False, random=seed)
  return control.Environment(physics, task, time_limit=0.1)  # 10 steps per episode


@pytest.mark.parametrize("task_class", [NegatedActions, TwoInputs, DampedAfterStep, PythonReward])
@pytest.mark.parametrize("num_threads", [1, 2])
def test_worlds_with_hooks_are_their_single_environments(task_class, num_threads):
  seeds = (1, 2, 3, 4)
  env = vector.VectorEnvironment([_make(task_class, s) for s in seeds], num_threads=num_threads)
  spec = env.action_spec()
  rng = np.random.RandomState(5)
  actions = [rng.uniform(spec.minimum, spec.maximum, (len(seeds),) + spec.shape) for _ in range(25)]
  steps = _rollout_batch(env, actions)
  assert {int(s) for t in steps for s in t.step_type} == {0, 1, 2}
  for world, seed in enumerate(seeds):
    _assert_world_is_single_env(steps, world, _make(task_class, seed), actions)


def test_a_transformed_action_is_not_overwritten_by_the_batched_copy():
  env = vector.VectorEnvironment([_make(NegatedActions, s) for s in (1, 2)])
  env.reset()
  env.step(np.array([[0.4], [-2.0]]))
  np.testing.assert_array_equal([w.physics.data.ctrl[0] for w in env.worlds], [-0.2, 0.3])


def test_the_termination_of_an_after_step_task_ends_its_world_only():
  env = vector.VectorEnvironment([_make(DampedAfterStep, s) for s in (1, 2)])
  env.reset()
  physics = env.worlds[1].physics
  with physics.reset_context():
    physics.data.qpos[0] = 0.5
  step = env.step(np.zeros((2, 1)))
  assert list(step.step_type) == [1, 2] and list(step.discount) == [1.0, 0.0]


def test_visualize_reward_is_refused_with_the_hook_named():
  worlds = [_make(cartpole.Balance, s) for s in (1, 2)]
  worlds[1].task.visualize_reward = True
  with pytest.raises(ValueError, match=r"visualize_reward .*suite\.base\.Task\.after_step"):
    vector.VectorEnvironment(worlds)


def test_actions_take_the_shape_of_the_tasks_own_spec():
  env = vector.VectorEnvironment([_make(TwoInputs, s) for s in (1, 2)])
  env.reset()
  with pytest.raises(ValueError, match=r"takes \(2, 2\)"):
    env.step(np.zeros((2, 1)))
