"""Vectorised quadruped, dog, manipulator, stacker and lqr (suite/vector.py): world i of a batch
is the single environment seeded world_seed(s, i), step by step and bitwise, across episode
ends; per-world model edits (escape's terrain, the arm tasks' targets) and models drawn from
the seed (lqr) stay in their world."""

import numpy as np
import pytest

import suite
from tests.suite.test_vector import assert_worlds_are_their_single_environments


@pytest.mark.parametrize(
  "domain,task,time_limit",
  [
    ("quadruped", "escape", 0.06),  # a new height field per world and episode
    ("dog", "fetch", 0.045),
    ("manipulator", "insert_peg", 0.03),  # target and slot placed per world
    ("stacker", "stack_2", 0.03),
    ("lqr", "lqr_2_1", 0.09),  # one model per world, drawn from its seed
  ],
)
def test_every_world_is_the_single_environment_of_its_seed(domain, task, time_limit):
  assert_worlds_are_their_single_environments(domain, task, time_limit)


def test_lqr_world_at_rest_terminates_alone():
  """The reward kernel's discount ends an episode (discount 0) in that world only."""
  env = suite.load("lqr", "lqr_2_1", task_kwargs={"random": 1}, num_envs=3)
  env.reset()
  physics = env.worlds[1].physics
  with physics.reset_context():
    physics.data.qpos[:] = 1e-8
  step = env.step(np.zeros((3, 1)))
  assert list(step.step_type) == [1, 2, 1] and list(step.discount) == [1, 0, 1]
  assert list(env.step(np.zeros((3, 1))).step_type) == [1, 0, 1]
