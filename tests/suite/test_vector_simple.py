"""Vectorised environments of the simple domains' kernel tasks (pendulum, acrobot, point_mass,
reacher, ball_in_cup, finger): world i of a batch is the single environment seeded
world_seed(s, i), step by step and bitwise, across an episode end. point_mass/hard, reacher
and finger/turn edit the model at episode start: an edited array missing from the task's
model_fields would be shared by the worlds and break the equality."""

import numpy as np
import pytest

import suite
from suite import vector
from tests.suite.test_vector import _assert_world_is_single_env
from tests.suite.test_vector import _rollout_batch

_TIME_LIMIT = 0.1  # seconds: every world ends an episode and starts the next one


@pytest.mark.parametrize("domain,task", [("pendulum", "swingup"), ("acrobot", "swingup"),
                                         ("point_mass", "hard"), ("reacher", "easy"),
                                         ("ball_in_cup", "catch"), ("finger", "turn_hard")])
def test_every_world_is_the_single_environment_of_its_seed(domain, task):
  kwargs = {"random": 3, "time_limit": _TIME_LIMIT}
  env = suite.load(domain, task, task_kwargs=kwargs, num_envs=3)
  spec = env.action_spec()
  rng = np.random.RandomState(0)
  nstep = int(round(_TIME_LIMIT / env.control_timestep())) + 4
  actions = [rng.uniform(spec.minimum, spec.maximum, (3, spec.shape[0])) for _ in range(nstep)]
  steps = _rollout_batch(env, actions)
  kinds = {int(s) for t in steps for s in t.step_type}
  assert kinds == {0, 1, 2}, "the run should cross an episode end"
  for world in range(3):
    single = suite.load(domain, task, task_kwargs=dict(kwargs,
                                                       random=vector.world_seed(3, world)))
    _assert_world_is_single_env(steps, world, single, actions)
