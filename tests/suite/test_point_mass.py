"""point_mass: the compiled model, the random actuation directions of hard, and the reward at
sampled states against dm_control."""

import numpy as np
import pytest

from suite import point_mass
from tests.suite import state_parity


def test_compiled_totals():
  physics = point_mass.Physics.from_xml_string(*point_mass.get_model_and_assets())
  state_parity.assert_totals(
    physics.model,
    nq=2,
    nv=2,
    nu=2,
    nbody=2,
    njnt=2,
    ngeom=7,
    nsite=0,
    ntendon=2,
    nsensordata=0,
    mass=0.3,
    meaninertia=0.3,
  )


def test_hard_draws_dm_controls_directions():
  state_parity.compare_model_edits("point_mass", "hard", ["wrap_prm"], episodes=10)


def test_hard_directions_are_unit_and_not_parallel():
  env = point_mass.hard(random=0)
  for _ in range(20):
    env.reset()
    dirs = env.physics.model.wrap_prm.reshape(2, 2)
    np.testing.assert_allclose(np.linalg.norm(dirs, axis=1), 1)
    assert abs(dirs[0] @ dirs[1]) <= 0.9


def test_easy_keeps_the_axes():
  env = point_mass.easy(random=0)
  env.reset()
  np.testing.assert_array_equal(env.physics.model.wrap_prm, [1, 0, 0, 1])


@pytest.mark.parametrize("task", ["easy", "hard"])
def test_reward_at_sampled_states(task):
  def sample(rng):
    return 0.02 * rng.randn(2), rng.randn(2), rng.uniform(-1, 1, 2)

  rewards = state_parity.compare_at_states("point_mass", task, sample)
  assert (rewards > 0.5).any() and (rewards < 0.5).any()


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("point_mass", "hard")
  assert names == ["mass_to_target", "mass_to_target_dist"]
