"""Vectorised environments of the locomotion and swimming domains (walker, hopper, humanoid,
humanoid_CMU, swimmer, fish), whose observations and rewards are kernels: world i of a batch is
the single environment seeded world_seed(s, i), step by step and bitwise, across episode ends
(swimmer and fish move their target at each reset: the per-world model fields)."""

import pytest

from tests.suite.test_vector import assert_worlds_are_their_single_environments


# one task per domain, and the tasks whose kernels take another branch (pure state; fish's
# upright, which hides the target: its own model field)
@pytest.mark.parametrize(
  "domain,task",
  [
    ("walker", "walk"),
    ("hopper", "hop"),
    ("humanoid", "walk"),
    ("humanoid", "run_pure_state"),
    ("humanoid_CMU", "stand"),
    ("swimmer", "swimmer6"),
    ("fish", "swim"),
    ("fish", "upright"),
  ],
)
def test_every_world_is_the_single_environment_of_its_seed(domain, task):
  assert_worlds_are_their_single_environments(domain, task, 0.1, seed=11)
