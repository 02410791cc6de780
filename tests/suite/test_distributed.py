"""suite.distributed on a local Ray cluster: the actors' worlds are the worlds of one local
vectorised environment of the same seed (slow: starts Ray and its actor processes)."""

import numpy as np
import pytest

import suite
from suite import distributed

pytestmark = pytest.mark.slow


def _policy(time_step):
  """Deterministic and row by row, so that any split of the worlds gives the same actions."""
  obs = time_step.observation
  return np.tanh(obs["position"][:, :1] - 0.3 * obs["velocity"][:, :1])


def test_actor_worlds_equal_the_same_worlds_stepped_locally():
  ray = pytest.importorskip("ray")
  ray.init(num_cpus=2, include_dashboard=False)
  try:
    runner = distributed.Runner(
      "cartpole",
      "swingup",
      num_actors=2,
      envs_per_actor=3,
      seed=11,
      task_kwargs={"time_limit": 0.3},
    )
    remote = runner.rollout(_policy, num_steps=40)
    runner.close()
  finally:
    ray.shutdown()
  local = distributed.rollout(
    suite.load("cartpole", "swingup", task_kwargs={"random": 11, "time_limit": 0.3}, num_envs=6),
    _policy,
    num_steps=40,
  )
  assert remote["reward"].shape == (6, 41)
  assert set(np.unique(remote["step_type"])) == {0, 1, 2}  # crosses an episode end
  for name in ("step_type", "reward", "discount", "action"):
    np.testing.assert_array_equal(remote[name], local[name], err_msg=name)
  for key in local["observation"]:
    np.testing.assert_array_equal(remote["observation"][key], local["observation"][key])


def test_seed_in_task_kwargs_is_refused():
  pytest.importorskip("ray")
  with pytest.raises(ValueError, match="seed"):
    distributed.Runner("cartpole", "swingup", 1, 1, task_kwargs={"random": 0})
