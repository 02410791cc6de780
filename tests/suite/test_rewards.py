"""suite.utils.rewards.tolerance against dm_control's, and its defining properties."""

import numpy as np
import pytest
from dm_control.utils import rewards as dm_rewards  # noqa: E402  (test-only oracle)

from suite import rewards as suite_rewards
from suite.utils import rewards
from tests.suite import parity  # noqa: F401  (sets MUJOCO_GL before dm_control loads)

X = np.concatenate([np.linspace(-5, 5, 401), [-np.inf, np.inf, 0.25, 0.75]])


@pytest.mark.parametrize("sigmoid", rewards.SIGMOIDS)
@pytest.mark.parametrize("bounds", [(0, 0), (-0.5, 0.25), (1, np.inf), (-np.inf, 2)])
@pytest.mark.parametrize("margin,value", [(0, 0.1), (1.0, 0.1), (2.5, 0.5), (0.3, 0.01)])
def test_matches_dm_control(sigmoid, bounds, margin, value):
  if value == 0 and sigmoid not in ("cosine", "linear", "quadratic"):
    return
  x = X[np.isfinite(X)] if margin else X
  kwargs = dict(bounds=bounds, margin=margin, sigmoid=sigmoid, value_at_margin=value)
  np.testing.assert_allclose(
    rewards.tolerance(x, **kwargs), dm_rewards.tolerance(x, **kwargs), rtol=1e-12, atol=1e-15
  )
  for scalar in (-0.7, 0.1, 3.0):
    ours = rewards.tolerance(scalar, **kwargs)
    assert isinstance(ours, float) and ours == pytest.approx(dm_rewards.tolerance(scalar, **kwargs))


@pytest.mark.parametrize("sigmoid", rewards.SIGMOIDS)
def test_one_inside_value_at_margin_outside(sigmoid):
  value = 0.3
  assert rewards.tolerance(0.5, bounds=(0, 1), margin=2, sigmoid=sigmoid) == 1.0
  at_margin = rewards.tolerance(
    3.0, bounds=(0, 1), margin=2, sigmoid=sigmoid, value_at_margin=value
  )
  assert at_margin == pytest.approx(value)
  below = rewards.tolerance(-2.0, bounds=(0, 1), margin=2, sigmoid=sigmoid, value_at_margin=value)
  assert below == pytest.approx(value)


def test_margin_zero_is_an_indicator_and_errors_are_clear():
  np.testing.assert_array_equal(
    rewards.tolerance(np.array([-1, 0, 0.5, 1, 2]), (0, 1)), [0, 1, 1, 1, 0]
  )
  with pytest.raises(ValueError, match="Lower bound"):
    rewards.tolerance(0.0, bounds=(1, 0))
  with pytest.raises(ValueError, match="non-negative"):
    rewards.tolerance(0.0, margin=-1)
  with pytest.raises(ValueError, match="Unknown sigmoid"):
    rewards.tolerance(2.0, margin=1, sigmoid="sine")
  with pytest.raises(ValueError, match="strictly between"):
    rewards.tolerance(2.0, margin=1, sigmoid="gaussian", value_at_margin=0)
  assert suite_rewards.tolerance is rewards.tolerance
