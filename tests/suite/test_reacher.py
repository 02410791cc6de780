"""reacher: the compiled model, the target placed each episode, and the reward at sampled
states against dm_control."""

import numpy as np
import pytest

from suite import reacher
from tests.suite import state_parity


def test_compiled_totals():
  physics = reacher.Physics.from_xml_string(*reacher.get_model_and_assets())
  state_parity.assert_totals(
    physics.model,
    nq=2,
    nv=2,
    nu=2,
    nbody=4,
    njnt=2,
    ngeom=10,
    nsite=0,
    ntendon=0,
    nsensordata=0,
    mass=0.08168141,
    meaninertia=0.000856189,
  )


@pytest.mark.parametrize("task,radius", [("easy", 0.05), ("hard", 0.015)])
def test_target_each_episode(task, radius):
  state_parity.compare_model_edits("reacher", task, ["geom_pos", "geom_size"])
  env = reacher.SUITE[task](random=1)
  for _ in range(10):
    env.reset()
    assert env.physics.named.model.geom_size["target", 0] == radius
    distance = np.linalg.norm(env.physics.named.model.geom_pos["target", ["x", "y"]])
    assert 0.05 <= distance <= 0.2


@pytest.mark.parametrize("task", ["easy", "hard"])
def test_reward_at_sampled_states(task):
  def sample(rng):
    return rng.uniform(-np.pi, np.pi, 2) * [1, 0.9], rng.randn(2), rng.uniform(-1, 1, 2)

  rewards = state_parity.compare_at_states("reacher", task, sample, n=300)
  assert (rewards == 1).any() and (rewards == 0).any()


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("reacher", "easy")
  assert names == ["finger_to_target", "finger_to_target_dist"]
