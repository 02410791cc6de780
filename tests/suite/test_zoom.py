"""suite.utils.zoom against SciPy's `ndimage.zoom` (SciPy comes with the test extra through
dm_control; the suite itself does not depend on it)."""

import numpy as np
import pytest

from suite.utils import zoom

ndimage = pytest.importorskip("scipy.ndimage")


def test_escape_bumps_match_scipy_bitwise():
  """The call quadruped/escape makes: 30x30 U(0.15, 1) bumps zoomed by 201/30."""
  rng = np.random.RandomState(0)
  for _ in range(50):
    bumps = rng.uniform(0.15, 1, (30, 30))
    ours, theirs = zoom.zoom(bumps, 201 / 30.0), ndimage.zoom(bumps, 201 / 30.0)
    assert ours.shape == theirs.shape == (201, 201)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize(
  "shape,factor",
  [
    ((7,), 3.3),
    ((5, 9), (2.5, 0.7)),
    ((4, 6, 3), 2.2),
    ((30, 30), 1 / 3),
    ((13, 17), 5.01),
    ((2,), 10),
    ((1, 5), 3),
    ((30, 30), 1),
    ((4,), 47.0),
  ],
)
def test_other_shapes_and_factors(shape, factor):
  """Upsampling, downsampling, one axis of length 1, 1-D to 3-D, zoom 1, and 4 -> 188
  samples, where the last output coordinate rounds past the input's end (cval)."""
  rng = np.random.RandomState(1)
  data = rng.randn(*shape)
  ours, theirs = zoom.zoom(data, factor), ndimage.zoom(data, factor)
  assert ours.shape == theirs.shape
  np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def test_spline_filter_matches_scipy():
  rng = np.random.RandomState(2)
  data = rng.randn(30, 30)
  np.testing.assert_allclose(
    zoom.spline_filter(data), ndimage.spline_filter(data, 3, mode="mirror"), rtol=0, atol=1e-12
  )
