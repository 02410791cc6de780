"""suite.control and suite.base: the environment loop, specs, bad input and physics errors,
with dm_control 1.0.50 as the oracle where behaviour is shared."""

import collections

import dm_env
import numpy as np
import pytest

import suite
from suite import control
from suite.utils import containers
from tests.suite import parity


def test_unknown_names_list_the_valid_ones():
  with pytest.raises(ValueError, match="domains are: .*cartpole.*pendulum"):
    suite.load("cartpol", "swingup")
  with pytest.raises(ValueError, match="tasks are: balance, balance_sparse, swingup"):
    suite.load("cartpole", "swing")


def test_flat_observation_concatenates_in_key_order():
  env = suite.load(
    "cartpole", "swingup", task_kwargs={"random": 3}, environment_kwargs={"flat_observation": True}
  )
  dict_env = suite.load("cartpole", "swingup", task_kwargs={"random": 3})
  flat = env.reset().observation
  obs = dict_env.reset().observation
  assert list(flat) == [control.FLAT_OBSERVATION_KEY]
  np.testing.assert_array_equal(
    flat["observations"], np.concatenate([obs["position"], obs["velocity"]])
  )
  assert env.observation_spec()["observations"].shape == (5,)


def test_flatten_observation_of_plain_dicts_sorts_keys():
  out = control.flatten_observation({"b": np.array([1.0, 2.0]), "a": np.float64(3.0)})
  np.testing.assert_array_equal(out["observations"], [3.0, 1.0, 2.0])
  with pytest.raises(ValueError, match="dict-like"):
    control.flatten_observation(np.zeros(3))


def test_substeps_must_divide_the_control_timestep():
  assert control.compute_n_steps(0.02, 0.002) == 10
  with pytest.raises(ValueError, match="integer multiple"):
    control.compute_n_steps(0.025, 0.01)
  with pytest.raises(ValueError, match="cannot be smaller"):
    control.compute_n_steps(0.001, 0.01)
  physics = suite.pendulum.Physics.from_xml_string(*suite.pendulum.get_model_and_assets())
  task = suite.pendulum.SwingUp(random=0)
  with pytest.raises(ValueError, match="Both n_sub_steps and control_timestep"):
    control.Environment(physics, task, n_sub_steps=2, control_timestep=0.04)
  env = control.Environment(physics, task, control_timestep=0.06, time_limit=1.2)
  assert env.control_timestep() == pytest.approx(0.06) and env.step_limit == pytest.approx(20)


def test_random_may_be_a_seed_a_randomstate_or_none():
  a = suite.pendulum.SwingUp(random=7).random.uniform()
  b = suite.pendulum.SwingUp(random=np.random.RandomState(7)).random.uniform()
  assert a == b
  assert isinstance(suite.pendulum.SwingUp(random=None).random, np.random.RandomState)


@pytest.mark.parametrize("action", [np.array([np.nan]), np.array([5.0]), 0.5, np.array([1.0, 2.0])])
def test_bad_actions_behave_as_in_dm_control(action):
  """Out of bounds: clipped by the control range; a scalar broadcasts; NaN: PhysicsError
  (mjWARN_BADCTRL), after which a reset works; a wrong shape: ValueError."""
  ours, theirs = parity.load_pair("cartpole", "swingup")
  outcomes = []
  for env in (ours, theirs):
    env.reset()
    try:
      outcomes.append(("ok", env.step(action).reward))
    except ValueError:
      outcomes.append(("ValueError", None))
    except Exception as e:  # each library's own PhysicsError class
      assert type(e).__name__ == "PhysicsError" and "mjWARN_BADCTRL" in str(e)
      outcomes.append(("PhysicsError", None))
      assert env.reset().first() and env.step(np.zeros(1)).mid()
  (kind, value), (kind2, value2) = outcomes
  assert kind == kind2
  if kind == "ok":
    assert value == pytest.approx(value2, abs=1e-12)


def test_wrong_shape_message_names_the_spec():
  env = suite.load("cartpole", "swingup")
  env.reset()
  with pytest.raises(ValueError, match=r"takes 1 controls, shape \(1,\)"):
    env.step(np.zeros(3))


def test_divergence_raises_physics_error_and_reset_recovers():
  env = suite.load("pendulum", "swingup", task_kwargs={"random": 0})
  env.reset()
  env.physics.data.qvel[:] = np.inf
  with pytest.raises(control.PhysicsError, match="mjWARN_BADQ(POS|VEL|ACC)"):
    env.step(np.zeros(1))
  assert env.reset().first()
  assert np.isfinite(env.step(np.zeros(1)).reward)


def test_step_after_last_starts_a_new_episode_and_first_has_no_reward():
  env = suite.load("pendulum", "swingup", task_kwargs={"time_limit": 0.04})
  first = env.reset()
  assert first.step_type == dm_env.StepType.FIRST
  assert first.reward is None and first.discount is None
  assert env.step(np.zeros(1)).mid()
  last = env.step(np.zeros(1))
  assert last.last() and last.discount == 1.0
  assert env.step(np.zeros(1)).first()


def test_tagged_tasks():
  tasks = containers.TaggedTasks()

  @tasks.add("a", "b")
  def one():
    return 1

  @tasks.add("a")
  def two():
    return 2

  assert list(tasks) == ["one", "two"] and tasks["two"]() == 2 and len(tasks) == 2
  assert tasks.tagged("a") == ["one", "two"] and tasks.tagged("a", "b") == ["one"]
  assert tasks.tagged() == [] and tasks.tagged("c") == [] and tasks.tags() == ["a", "b"]
  with pytest.raises(ValueError, match="already registered"):
    tasks.add()(one)


def test_visualize_reward_recolours_like_dm_control():
  ours, theirs = parity.load_pair("cartpole", "balance")
  for env in (ours, theirs):
    env.task.visualize_reward = True
    env.reset()
    for _ in range(3):
      env.step(np.array([0.2]))
  np.testing.assert_allclose(ours.physics.model.mat_rgba, theirs.physics.model.mat_rgba, atol=1e-6)
  assert not np.allclose(
    ours.physics.named.model.mat_rgba["self"], ours.physics.named.model.mat_rgba["self_default"]
  )
  with pytest.raises(ValueError, match="boolean"):
    ours.task.visualize_reward = 1


def test_observation_spec_matches_observations():
  env = suite.load("cartpole", "two_poles")
  spec = env.observation_spec()
  obs = env.reset().observation
  assert isinstance(obs, collections.OrderedDict) and list(spec) == list(obs)
  for key, value in obs.items():
    spec[key].validate(value)
