"""acrobot: the compiled model and the rewards at sampled states against dm_control."""

import numpy as np
import pytest

from suite import acrobot
from tests.suite import state_parity


def test_compiled_totals():
  physics = acrobot.Physics.from_xml_string(*acrobot.get_model_and_assets())
  state_parity.assert_totals(
    physics.model,
    nq=2,
    nv=2,
    nu=1,
    nbody=3,
    njnt=2,
    ngeom=4,
    nsite=2,
    ntendon=0,
    nsensordata=0,
    mass=2,
    meaninertia=1.51809,
  )


@pytest.mark.parametrize("task", ["swingup", "swingup_sparse"])
def test_rewards_at_sampled_states(task):
  def sample(rng):
    # near upright half of the time, so the tip reaches the target sphere
    scale = np.pi if rng.rand() < 0.5 else 0.15
    return rng.uniform(-1, 1, 2) * scale, rng.randn(2), rng.uniform(-1, 1, 1)

  rewards = state_parity.compare_at_states("acrobot", task, sample)
  assert (rewards == 1).any() and (rewards < 1).any()


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("acrobot", "swingup")
  assert names == ["horizontal", "vertical", "to_target", "orientations"]
