"""Vectorised environments of the simple domains' kernel tasks (pendulum, acrobot, point_mass,
reacher, ball_in_cup, finger): world i of a batch is the single environment seeded
world_seed(s, i), step by step and bitwise, across an episode end. point_mass/hard, reacher
and finger/turn edit the model at episode start: an edited array missing from the task's
model_fields would be shared by the worlds and break the equality."""

import pytest

from tests.suite.test_vector import assert_worlds_are_their_single_environments

_TIME_LIMIT = 0.1  # seconds: every world ends an episode and starts the next one


@pytest.mark.parametrize(
  "domain,task",
  [
    ("pendulum", "swingup"),
    ("acrobot", "swingup"),
    ("point_mass", "hard"),
    ("reacher", "easy"),
    ("ball_in_cup", "catch"),
    ("finger", "turn_hard"),
  ],
)
def test_every_world_is_the_single_environment_of_its_seed(domain, task):
  assert_worlds_are_their_single_environments(domain, task, _TIME_LIMIT, seed=3)
