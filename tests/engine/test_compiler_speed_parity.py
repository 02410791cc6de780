"""The compiler's jitted fast paths equal their numpy / Python references on varied inputs."""

import numpy as np
import pytest

from engine.compiler import build_bvh


def _boxes(rng, n, ties, nans):
  """n element boxes and positions: rounded positions make ties (clusters within mjEPS), nan
  positions stand for degenerate triangles' circumcenters."""
  pos = rng.normal(size=(n, 3))
  if ties:
    pos = np.round(pos, 1)
  half = np.abs(rng.normal(size=(n, 3))) * 0.1
  lo, hi = pos - half, pos + half
  if nans:
    pos[rng.random(n) < 0.1] = np.nan
  return lo, hi, pos, rng.permutation(n).astype(np.int32)


@pytest.mark.parametrize("ties,nans", [(False, False), (True, False), (False, True),
                                       (True, True)])
def test_bvh_make_equals_reference(ties, nans):
  """The jitted hierarchy (own merge sort) is the numpy reference's node for node."""
  rng = np.random.default_rng(7)
  for n in [1, 2, 3, 5, 8, 33, 100, 257]:
    args = _boxes(rng, n, ties, nans)
    got, want = build_bvh._make(*args), build_bvh._make_reference(*args)
    for g, w in zip(got, want):
      np.testing.assert_array_equal(g, w)
      assert np.asarray(g).dtype == np.asarray(w).dtype
