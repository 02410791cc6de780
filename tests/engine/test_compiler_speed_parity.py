"""The compiler's jitted fast paths equal their numpy / Python references on varied inputs."""

import numpy as np
import pytest

from engine.compiler import build_bvh
from engine.compiler import mesh


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


@pytest.mark.parametrize("n", [4, 5, 9, 40, 300, 2000])
def test_make_graph_equals_reference(n):
  """The vectorized hull graph is the dict-built one: random clouds (few hull vertices of high
  degree) and points on a sphere (all on the hull), mirrored hulls too."""
  rng = np.random.default_rng(n)
  for sphere in (False, True):
    pts = rng.normal(size=(n, 3))
    if sphere:
      pts /= np.linalg.norm(pts, axis=1)[:, None]
    hull = mesh.convex_hull(pts)
    for face in (hull, hull[:, [0, 2, 1]]):
      got, want = mesh.make_graph(face), mesh._make_graph_reference(face)
      assert got.dtype == want.dtype == np.int32
      np.testing.assert_array_equal(got, want)
