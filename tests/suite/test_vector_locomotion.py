"""Vectorised environments of the locomotion and swimming domains (walker, hopper, humanoid,
humanoid_CMU, swimmer, fish), whose observations and rewards are kernels: world i of a batch is
the single environment seeded world_seed(s, i), step by step and bitwise, across episode ends
(swimmer and fish move their target at each reset: the per-world model fields)."""

import numpy as np
import pytest

import suite
from suite import vector
from tests.suite.test_vector import _assert_world_is_single_env
from tests.suite.test_vector import _rollout_batch

_NUM_ENVS = 3


# one task per domain, and the tasks whose kernels take another branch (pure state; fish's
# upright, which hides the target: its own model field)
@pytest.mark.parametrize("domain,task", [("walker", "walk"), ("hopper", "hop"),
                                         ("humanoid", "walk"), ("humanoid", "run_pure_state"),
                                         ("humanoid_CMU", "stand"), ("swimmer", "swimmer6"),
                                         ("fish", "swim"), ("fish", "upright")])
def test_every_world_is_the_single_environment_of_its_seed(domain, task):
  # a time limit of a few control steps, so that every world ends an episode and starts the
  # next one
  kwargs = {"random": 11, "time_limit": 0.1}
  env = suite.load(domain, task, task_kwargs=kwargs, num_envs=_NUM_ENVS)
  spec = env.action_spec()
  rng = np.random.RandomState(0)
  nstep = int(round(0.1 / env.control_timestep())) + 3
  actions = [rng.uniform(spec.minimum, spec.maximum, (_NUM_ENVS, spec.shape[0]))
             for _ in range(nstep)]
  steps = _rollout_batch(env, actions)
  for key, value in steps[0].observation.items():
    assert value.shape[0] == _NUM_ENVS, key
  kinds = {int(s) for t in steps for s in t.step_type}
  assert kinds == {0, 1, 2}, "the run should cross an episode end"
  for world in range(_NUM_ENVS):
    single = suite.load(domain, task,
                        task_kwargs=dict(kwargs, random=vector.world_seed(11, world)))
    _assert_world_is_single_env(steps, world, single, actions)
