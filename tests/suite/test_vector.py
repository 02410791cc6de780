"""Vectorised suite environments (suite/vector.py): world i of a batch is the single
environment seeded world_seed(s, i), step by step and bitwise, across episode ends; threads
give the serial numbers; the jitted reward shaping equals the Python one."""

import dm_env
import numpy as np
import pytest

import engine
import suite
from engine._jit import python_callable
from suite import kernels
from suite import vector
from suite.utils import rewards


def _rollout_batch(env, actions):
  steps = [env.reset()]
  steps += [env.step(a) for a in actions]
  return steps


def _assert_world_is_single_env(steps, world, single, actions):
  """The time steps of `world` in the batch equal those of `single` under its actions."""
  t = single.reset()
  for k in range(len(steps)):
    batch = steps[k]
    assert batch.step_type[world] == t.step_type, (world, k)
    if t.reward is None:  # FIRST: the batch reports reward 0, discount 1
      assert batch.reward[world] == 0.0 and batch.discount[world] == 1.0
    else:
      assert batch.reward[world] == t.reward, (world, k)
      assert batch.discount[world] == t.discount, (world, k)
    for key, value in t.observation.items():
      np.testing.assert_array_equal(batch.observation[key][world], value, err_msg=f"{k} {key}")
    if k < len(actions):
      t = single.step(actions[k][world])


def assert_worlds_are_their_single_environments(domain, task, time_limit, seed=7, num_envs=3):
  """Steps a batch past an episode end (`time_limit` of a few control steps) under random
  actions in the action spec (within +-1 where unbounded) and checks every world against the
  single environment seeded world_seed(seed, world)."""
  kwargs = {"random": seed, "time_limit": time_limit}
  env = suite.load(domain, task, task_kwargs=kwargs, num_envs=num_envs)
  spec = env.action_spec()
  rng = np.random.RandomState(0)
  low, high = np.maximum(spec.minimum, -1), np.minimum(spec.maximum, 1)
  nstep = int(round(time_limit / env.control_timestep())) + 3
  actions = [rng.uniform(low, high, (num_envs,) + spec.shape) for _ in range(nstep)]
  steps = _rollout_batch(env, actions)
  for key, value in steps[0].observation.items():
    assert value.shape[0] == num_envs, key
  kinds = {int(s) for t in steps for s in t.step_type}
  assert kinds == {0, 1, 2}, "the run should cross an episode end"
  for world in range(num_envs):
    single = suite.load(
      domain, task, task_kwargs=dict(kwargs, random=vector.world_seed(seed, world))
    )
    _assert_world_is_single_env(steps, world, single, actions)


@pytest.mark.parametrize("domain,task", [("cartpole", "swingup"), ("cheetah", "run")])
def test_every_world_is_the_single_environment_of_its_seed(domain, task):
  assert_worlds_are_their_single_environments(domain, task, time_limit=0.1)


def test_threads_give_the_serial_numbers():
  def run(threads):
    env = suite.load(
      "cartpole", "swingup", task_kwargs={"random": 1}, num_envs=80, num_threads=threads
    )
    rng = np.random.RandomState(2)
    steps = _rollout_batch(env, [rng.uniform(-1, 1, (80, 1)) for _ in range(20)])
    return (
      np.stack([t.observation["velocity"] for t in steps]),
      np.stack([t.reward for t in steps]),
    )

  serial, parallel = run(1), run(2)
  np.testing.assert_array_equal(serial[0], parallel[0])
  np.testing.assert_array_equal(serial[1], parallel[1])


def test_seeds_differ_per_world_and_first_world_shifts_them():
  env = suite.load("cartpole", "swingup", task_kwargs={"random": 5}, num_envs=4)
  obs = env.reset().observation["position"]
  assert len({tuple(row) for row in obs}) == 4
  tail = suite.load("cartpole", "swingup", task_kwargs={"random": 5}, num_envs=2, first_world=2)
  np.testing.assert_array_equal(tail.reset().observation["position"], obs[2:])
  assert vector.world_seed(5, 0) != vector.world_seed(6, 0)


def test_flat_observation_and_specs():
  env = suite.load(
    "cartpole",
    "balance",
    task_kwargs={"random": 0},
    num_envs=2,
    environment_kwargs={"flat_observation": True},
  )
  single = suite.load(
    "cartpole",
    "balance",
    task_kwargs={"random": vector.world_seed(0, 1)},
    environment_kwargs={"flat_observation": True},
  )
  np.testing.assert_array_equal(
    env.reset().observation["observations"][1], single.reset().observation["observations"]
  )
  assert env.observation_spec()["observations"].shape == (5,)
  assert env.action_spec().shape == (1,)
  assert env.reward_spec().shape == (2,)


def test_bad_actions_and_arguments_raise_clear_errors():
  env = suite.load("cheetah", "run", task_kwargs={"random": 0}, num_envs=2)
  env.reset()
  with pytest.raises(ValueError, match=r"takes \(2, 6\)"):
    env.step(np.zeros((2, 5)))
  with pytest.raises(ValueError, match="numbers"):
    env.step([["a"] * 6] * 2)
  with pytest.raises(ValueError, match="RandomState"):
    suite.load("cheetah", "run", task_kwargs={"random": np.random.RandomState(0)}, num_envs=2)
  with pytest.raises(ValueError, match="at least 1"):
    suite.load("cheetah", "run", num_envs=0)
  with pytest.raises(TypeError, match="num_envs"):
    suite.load("cheetah", "run", num_threads=2)


def test_a_world_whose_physics_fails_raises_or_ends_its_episode():
  env = suite.load("cartpole", "swingup", task_kwargs={"random": 0}, num_envs=3)
  env.reset()
  actions = np.zeros((3, 1))
  actions[1] = np.nan  # mjWARN_BADCTRL in world 1 only
  with pytest.raises(engine.PhysicsError, match=r"world\(s\) \[1\]"):
    env.step(actions)
  assert env.step(np.zeros((3, 1))).step_type[1] == dm_env.StepType.FIRST

  env = suite.load(
    "cartpole", "swingup", task_kwargs={"random": 0}, num_envs=3, physics_errors="end_episode"
  )
  env.reset()
  with pytest.warns(engine.PhysicsWarning, match="BADCTRL"):
    t = env.step(actions)
  assert list(t.step_type) == [1, 2, 1] and t.discount[1] == 0.0


@pytest.mark.parametrize("sigmoid", rewards.SIGMOIDS)
def test_jitted_tolerance_is_the_python_one(sigmoid):
  jitted = python_callable(kernels.tolerance)
  index = rewards.SIGMOIDS.index(sigmoid)
  value_at_margin = 0.0 if sigmoid in ("cosine", "linear", "quadratic") else 0.1
  for x in np.linspace(-3.0, 4.0, 57):
    expected = rewards.tolerance(
      x, bounds=(-0.5, 1.0), margin=1.3, sigmoid=sigmoid, value_at_margin=value_at_margin
    )
    got = jitted(x, -0.5, 1.0, 1.3, index, value_at_margin)
    assert got == pytest.approx(expected, rel=1e-14, abs=1e-15), x
  assert jitted(2.0, -0.5, 1.0, 0.0, index, value_at_margin) == 0.0


def test_gymnasium_adapter_follows_the_batch():
  pytest.importorskip("gymnasium")
  from suite import gym_vector

  env = gym_vector.GymVectorEnv(
    suite.load("cartpole", "balance", num_envs=3, task_kwargs={"time_limit": 0.05})
  )
  obs, _ = env.reset(seed=4)
  twin = suite.load(
    "cartpole", "balance", num_envs=3, task_kwargs={"random": 4, "time_limit": 0.05}
  )
  np.testing.assert_array_equal(obs["position"], twin.reset().observation["position"])
  assert env.observation_space["position"].shape == (3, 3)
  assert env.single_action_space.shape == (1,)
  actions = np.zeros((3, 1))
  for _ in range(5):
    obs, reward, terminated, truncated, _ = env.step(actions)
    t = twin.step(actions)
    np.testing.assert_array_equal(reward, t.reward)
  assert truncated.all() and not terminated.any()  # the 0.05 s time limit, 5 steps
  obs, reward, terminated, truncated, _ = env.step(actions)
  assert not truncated.any() and (reward == 0).all()  # next-step autoreset


def test_a_task_without_kernels_is_stepped_with_its_python_methods():
  from suite import cartpole
  from suite import control

  class PythonBalance(cartpole.Balance):
    """Observation and reward in Python only (as a user's own task might be)."""

    observe_kernel = reward_kernel = None

    def get_observation(self, physics):
      return {"angle": physics.data.qpos[1:].copy()}

    def get_reward(self, physics):
      return float(physics.data.xmat[2, 8])

  def make(seed):
    physics = cartpole.Physics.from_xml_string(*cartpole.get_model_and_assets())
    task = PythonBalance(swing_up=True, sparse=False, random=seed)
    return control.Environment(physics, task, time_limit=0.1)

  env = vector.VectorEnvironment([make(s) for s in (1, 2)])
  actions = [np.full((2, 1), 0.3)] * 14
  steps = _rollout_batch(env, actions)
  for world, seed in enumerate((1, 2)):
    _assert_world_is_single_env(steps, world, make(seed), actions)


@pytest.mark.slow
@pytest.mark.parametrize("domain,task", suite.ALL_TASKS)
def test_every_task_batches_as_its_single_environments(domain, task):
  env = suite.load(domain, task, task_kwargs={"random": 2}, num_envs=2)
  spec = env.action_spec()
  rng = np.random.RandomState(0)
  lo, hi = np.maximum(spec.minimum, -1), np.minimum(spec.maximum, 1)
  actions = [rng.uniform(lo, hi, (2,) + spec.shape) for _ in range(3)]
  steps = _rollout_batch(env, actions)
  single = suite.load(domain, task, task_kwargs={"random": vector.world_seed(2, 1)})
  _assert_world_is_single_env(steps, 1, single, actions)


def test_worlds_of_different_tasks_are_refused():
  a = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
  b = suite.load("cartpole", "swingup", task_kwargs={"random": 1, "time_limit": 3})
  with pytest.raises(ValueError, match="one task"):
    vector.VectorEnvironment([a, b])


def _step_in_child(queue):
  with pytest.warns(RuntimeWarning, match="forked"):
    queue.put(_threaded_cartpole_rewards())


def _threaded_cartpole_rewards():
  env = suite.load("cartpole", "swingup", task_kwargs={"random": 3}, num_envs=8, num_threads=2)
  steps = _rollout_batch(env, [np.full((8, 1), 0.5)] * 5)
  return np.stack([t.reward for t in steps])


def test_forked_child_steps_its_batch_on_one_thread_with_the_same_result():
  # the child of a process that entered numba's thread pool must not (engine.batch.POOL)
  import multiprocessing

  parent = _threaded_cartpole_rewards()
  context = multiprocessing.get_context("fork")
  queue = context.Queue()
  child = context.Process(target=_step_in_child, args=(queue,))
  child.start()
  rewards = queue.get(timeout=120)
  child.join(60)
  assert child.exitcode == 0
  np.testing.assert_array_equal(rewards, parent)
