"""The compiler's jitted fast paths equal their numpy / Python references on varied inputs."""

import numpy as np
import pytest

from engine.compiler import build_bvh
from engine.compiler import mesh


def _make_reference(lo, hi, lpos, ids):
  """build_bvh._make in numpy (sorts and masks): the form the jitted one replaced."""
  n = len(lo)
  nnode = 2 * n - 1
  aabb = np.zeros((nnode, 6))
  child = np.full((nnode, 2), -1, np.int32)
  depth = np.zeros(nnode, np.int32)
  nodeid = np.full(nnode, -1, np.int32)
  work = np.arange(n)  # element order; a node owns the slice [start, stop)

  # stack of (start, stop, parent, child slot, level); the first child is popped first
  stack = np.zeros((nnode, 5), np.int64)
  stack[0, :] = (0, n, -1, 0, 0)
  top = 1
  count = 0
  while top > 0:
    top -= 1
    start, stop, parent, slot, lev = stack[top]
    index = count
    count += 1
    if parent >= 0:
      child[parent, slot] = index
    depth[index] = lev
    amin = lo[work[start]].copy()
    amax = hi[work[start]].copy()
    for i in range(start + 1, stop):
      e = work[i]
      for k in range(3):
        amin[k] = min(amin[k], lo[e, k])
        amax[k] = max(amax[k], hi[e, k])
    for k in range(3):
      if abs(amin[k] - amax[k]) < build_bvh.mjEPS:
        amin[k] -= build_bvh.mjEPS
        amax[k] += build_bvh.mjEPS
      aabb[index, k] = (amax[k] + amin[k]) / 2
      aabb[index, 3 + k] = (amax[k] - amin[k]) / 2
    if stop - start == 1:
      nodeid[index] = ids[work[start]]
      continue

    # longest side, by a margin of build_bvh.mjEPS
    axis = 0
    if amax[1] - amin[1] >= amax[0] - amin[0] + build_bvh.mjEPS:
      axis = 1
    if amax[2] - amin[2] >= amax[axis] - amin[axis] + build_bvh.mjEPS:
      axis = 2

    # median split: sorted by position (ties and nan last by element id), positions within
    # build_bvh.mjEPS of their neighbour form a cluster that keeps element order
    elems = np.sort(work[start:stop])
    value = lpos[elems, axis]
    finite = ~np.isnan(value)
    ordered = np.concatenate(
      (elems[finite][np.argsort(value[finite], kind="mergesort")], elems[~finite])
    )
    i = 0
    while i < len(ordered):
      j = i + 1
      while j < len(ordered) and not (
        lpos[ordered[j], axis] - lpos[ordered[j - 1], axis] > build_bvh.mjEPS
      ):
        j += 1
      ordered[i:j] = np.sort(ordered[i:j])
      i = j
    work[start:stop] = ordered
    mid = start + (stop - start) // 2
    stack[top, :] = (mid, stop, index, 1, lev + 1)
    stack[top + 1, :] = (start, mid, index, 0, lev + 1)
    top += 2
  return aabb, child, depth, nodeid


def _make_graph_reference(hull_face) -> np.ndarray:
  """mesh.make_graph with Python dicts: the form the vectorized one replaced.

  Layout: numvert, numface, vert_edgeadr[numvert], vert_globalid[numvert],
  edge_localid[numvert + 3*numface] (neighbors of each hull vertex as local ids, each list ended
  by -1), face_globalid[3*numface] (outward triangles as mesh vertex ids). Hull vertices are in
  increasing mesh vertex id; neighbors are listed in cyclic order around each vertex.
  """
  hf = np.asarray(hull_face, dtype=np.int64).reshape(-1, 3)
  gids = np.unique(hf)
  local = {int(g): i for i, g in enumerate(gids)}
  nxt = {}  # for vertex u: map neighbor v -> next neighbor around u (from face (u, v, w))
  for a, b, c in hf.tolist():
    for u, v, w in ((a, b, c), (b, c, a), (c, a, b)):
      nxt.setdefault(u, {})[v] = w
  numvert, numface = len(gids), len(hf)
  edgeadr, edges = [], []
  for g in gids.tolist():
    edgeadr.append(len(edges))
    ring = nxt[g]
    start = min(ring)
    v = start
    for _ in range(len(ring)):
      edges.append(local[v])
      v = ring[v]
      if v == start:
        break
    edges.append(-1)
  graph = [numvert, numface] + edgeadr + gids.tolist() + edges + hf.ravel().tolist()
  return np.array(graph, dtype=np.int32)


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


@pytest.mark.parametrize("ties,nans", [(False, False), (True, False), (False, True), (True, True)])
def test_bvh_make_equals_reference(ties, nans):
  """The jitted hierarchy (own merge sort) is the numpy reference's node for node."""
  rng = np.random.default_rng(7)
  for n in [1, 2, 3, 5, 8, 33, 100, 257]:
    args = _boxes(rng, n, ties, nans)
    got, want = build_bvh._make(*args), _make_reference(*args)
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
      got, want = mesh.make_graph(face), _make_graph_reference(face)
      assert got.dtype == want.dtype == np.int32
      np.testing.assert_array_equal(got, want)
