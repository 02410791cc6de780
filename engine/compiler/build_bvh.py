"""Bounding-volume hierarchies of the bodies and meshes: m.body_bvhadr/bvhnum,
m.mesh_bvhadr/bvhnum, m.bvh_* and the nbvh sizes.

Port of mjCBoundingVolumeHierarchy (user_objects.cc) as mjCBody and mjCMesh (user_mesh.cc) use
it, and of the layout mjCModel gives the nodes: every body's tree in body order, then every
mesh's, each in pre-order (a node, its first child's subtree, its second child's subtree)
with child ids local to the tree.

A body's elements are its colliding geoms (contype or conaffinity nonzero), each the geom's
box (m.geom_aabb) posed in the body's inertial frame; a mesh's elements are its faces, each the
box of its three vertices in the mesh frame, positioned at its circumcenter. A node's box
bounds its elements' boxes (flat sides inflated by mjEPS); a node with more than one element
splits them at the median of their positions along its longest side, by a margin of mjEPS
(positions within mjEPS count as equal and keep element order).
"""

import collections
import hashlib

import numpy as np
from numba.core import types

from engine._jit import compiled_entry
from engine._jit import entry
from engine._jit import jit
from engine.compiler.build_common import arr as _arr
from engine.compiler.build_math import mjEPS


class _Tree:
  """Nodes of one hierarchy, in the order MuJoCo stores them (m.bvh_* rows)."""

  def __init__(self, lo=None, hi=None, lpos=None, ids=None):
    self.aabb, self.child, self.depth, self.nodeid = [], [], [], []
    if lo is not None and len(lo):
      make = compiled_entry(_make, *_MAKE_ARGS)
      self.aabb, self.child, self.depth, self.nodeid = make(
        *[np.ascontiguousarray(np.reshape(a, (-1, 3)), np.float64) for a in (lo, hi, lpos)],
        np.ascontiguousarray(ids, np.int32),
      )


_BOXES = types.float64[:, ::1]  # (n, 3) corners or positions
_MAKE_ARGS = (_BOXES, _BOXES, _BOXES, types.int32[::1])  # (lo, hi, positions, element ids)


@jit
def _before(a, b, lpos, axis, by_position):
  """Whether element a sorts before element b: by position along axis (nan last), then by id;
  by id alone without by_position."""
  if by_position:
    pa = lpos[a, axis]
    pb = lpos[b, axis]
    if (pa != pa) != (pb != pb):
      return pb != pb
    if pa < pb:
      return True
    if pb < pa:
      return False
  return a < b


@jit
def _sort(work, tmp, start, stop, lpos, axis, by_position):
  """Sorts work[start:stop] by _before (bottom-up merge sort through tmp)."""
  width = 1
  inplace = True  # the sorted runs are in work (else in tmp)
  while width < stop - start:
    src = work if inplace else tmp
    dst = tmp if inplace else work
    for lo in range(start, stop, 2 * width):
      mid = min(lo + width, stop)
      hi = min(lo + 2 * width, stop)
      i, j = lo, mid
      for k in range(lo, hi):
        if j < hi and (i >= mid or _before(src[j], src[i], lpos, axis, by_position)):
          dst[k] = src[j]
          j += 1
        else:
          dst[k] = src[i]
          i += 1
    inplace = not inplace
    width *= 2
  if not inplace:
    for k in range(start, stop):
      work[k] = tmp[k]


@entry
def _make(lo, hi, lpos, ids):
  """Port of mjCBoundingVolumeHierarchy::MakeBVH for elements with boxes (lo, hi) and positions
  lpos: the nodes (aabb center and half sizes, children, depth, element id of a leaf) in
  pre-order. Jitted (with an explicit stack): meshes of 10^5 faces made 2x10^5 Python calls;
  in plain loops (our own merge sort; no numpy sorts, masks, slice copies or np.full), which
  keeps the compiled code small and its load from the cache short (it was ~25 ms).
  tests/engine/test_compiler_speed_parity.py keeps the numpy form it replaced, to check it."""
  n = len(lo)
  nnode = 2 * n - 1
  aabb = np.zeros((nnode, 6))
  child = np.empty((nnode, 2), np.int32)
  depth = np.zeros(nnode, np.int32)
  nodeid = np.empty(nnode, np.int32)
  for i in range(nnode):
    child[i, 0] = -1
    child[i, 1] = -1
    nodeid[i] = -1
  work = np.empty(n, np.int64)  # element order; a node owns the slice [start, stop)
  for i in range(n):
    work[i] = i
  tmp = np.empty(n, np.int64)
  amin = np.empty(3)
  amax = np.empty(3)

  # stack of (start, stop, parent, child slot, level); the first child is popped first
  stack = np.zeros((nnode, 5), np.int64)
  stack[0, 1] = n
  stack[0, 2] = -1
  top = 1
  count = 0
  while top > 0:
    top -= 1
    start = stack[top, 0]
    stop = stack[top, 1]
    parent = stack[top, 2]
    slot = stack[top, 3]
    lev = stack[top, 4]
    index = count
    count += 1
    if parent >= 0:
      child[parent, slot] = index
    depth[index] = lev
    for k in range(3):
      amin[k] = lo[work[start], k]
      amax[k] = hi[work[start], k]
    for i in range(start + 1, stop):
      e = work[i]
      for k in range(3):
        amin[k] = min(amin[k], lo[e, k])
        amax[k] = max(amax[k], hi[e, k])
    for k in range(3):
      if abs(amin[k] - amax[k]) < mjEPS:
        amin[k] -= mjEPS
        amax[k] += mjEPS
      aabb[index, k] = (amax[k] + amin[k]) / 2
      aabb[index, 3 + k] = (amax[k] - amin[k]) / 2
    if stop - start == 1:
      nodeid[index] = ids[work[start]]
      continue

    # longest side, by a margin of mjEPS
    axis = 0
    if amax[1] - amin[1] >= amax[0] - amin[0] + mjEPS:
      axis = 1
    if amax[2] - amin[2] >= amax[axis] - amin[axis] + mjEPS:
      axis = 2

    # median split: sorted by position (ties and nan last by element id), positions within
    # mjEPS of their neighbour form a cluster that keeps element order
    _sort(work, tmp, start, stop, lpos, axis, True)
    i = start
    while i < stop:
      j = i + 1
      while j < stop and not (lpos[work[j], axis] - lpos[work[j - 1], axis] > mjEPS):
        j += 1
      _sort(work, tmp, i, j, lpos, axis, False)
      i = j
    mid = start + (stop - start) // 2
    stack[top, 0] = mid
    stack[top, 1] = stop
    stack[top, 2] = index
    stack[top, 3] = 1
    stack[top, 4] = lev + 1
    stack[top + 1, 0] = start
    stack[top + 1, 1] = mid
    stack[top + 1, 2] = index
    stack[top + 1, 3] = 0
    stack[top + 1, 4] = lev + 1
    top += 2
  return aabb, child, depth, nodeid


def _rotate(vec, quat):
  """build_math.rotvecquat (mjuu_rotVecQuat) on rows: vec (..., 3) by quat (..., 4), the same
  arithmetic, including its exact answers for a zero vector and the identity."""
  w, x, y, z = (quat[..., k] for k in range(4))
  v0, v1, v2 = (vec[..., k] for k in range(3))
  t0 = w * v0 + y * v2 - z * v1
  t1 = w * v1 + z * v0 - x * v2
  t2 = w * v2 + x * v1 - y * v0
  out = np.stack(
    [v0 + 2 * (y * t2 - z * t1), v1 + 2 * (z * t0 - x * t2), v2 + 2 * (x * t1 - y * t0)], axis=-1
  )
  identity = (w == 1) & (x == 0) & (y == 0) & (z == 0)
  out = np.where(identity[..., None], vec, out)
  return np.where((vec == 0).all(axis=-1)[..., None], 0.0, out)


# corner v of a box: its x, y, z at the box's high side where bit 0, 1, 2 of v is set
_CORNER_HIGH = np.array([[bool(v & 1 << k) for k in range(3)] for v in range(8)])


def body_bvhs(bodies) -> list:
  """The hierarchy of each body's colliding geoms, in the body's inertial frame
  (mjCBoundingVolumeHierarchy::CreateBVH with the body's ipos and iquat): each geom's box
  (m.geom_aabb) posed at the geom, its 8 corners taken into that frame, bounded."""
  geoms = [[g for g in b.geoms if g.contype or g.conaffinity] for b in bodies]
  owners = [b for b, gs in zip(bodies, geoms) for _ in gs]
  if not owners:
    return [_Tree() for _ in bodies]
  flat = [g for gs in geoms for g in gs]
  aabb = np.array([g.aabb for g in flat], float)
  pos = np.array([g.pos for g in flat], float)
  quat = np.array([g.quat for g in flat], float)
  ipos = np.array([b.ipos for b in owners], float)
  qinv = np.array([[b.iquat[0], -b.iquat[1], -b.iquat[2], -b.iquat[3]] for b in owners], float)
  lo, hi = aabb[:, :3] - aabb[:, 3:], aabb[:, :3] + aabb[:, 3:]
  corners = np.where(_CORNER_HIGH, hi[:, None], lo[:, None])  # (geoms, 8, 3)
  offset = (pos - ipos)[:, None]
  corners = _rotate(_rotate(corners, quat[:, None]) + offset, qinv[:, None])
  lpos = _rotate(pos - ipos, qinv)
  trees, start = [], 0
  for gs in geoms:
    part = slice(start, start + len(gs))
    start += len(gs)
    trees.append(
      _Tree(corners[part].min(axis=1), corners[part].max(axis=1), lpos[part], [g.id for g in gs])
      if gs
      else _Tree()
    )
  return trees


def face_circumcenters(vert, face):
  """Circumcenter of each triangle (mjCMesh::MakeCenter); nan for degenerate triangles."""
  v0, v1, v2 = vert[face[:, 0]], vert[face[:, 1]], vert[face[:, 2]]
  a = v0 - v2
  b = v1 - v2
  nrm = _cross(a, b)
  norm_a_2 = _dot(a, a)
  norm_b_2 = _dot(b, b)
  area = np.sqrt(_dot(nrm, nrm))
  vec = norm_a_2[:, None] * b - norm_b_2[:, None] * a
  res = _cross(vec, nrm)
  with np.errstate(divide="ignore", invalid="ignore"):
    return res / (2 * area * area)[:, None] + v2


def _cross(a, b):
  """Row-wise cross product, as mjuu_crossvec."""
  return np.stack(
    [
      a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
      a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
      a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0],
    ],
    axis=1,
  )


def _dot(a, b):
  """Row-wise dot product, as mjuu_dot3."""
  return a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1] + a[:, 2] * b[:, 2]


# hierarchies of recently compiled meshes, keyed on their vertices and faces (composer
# recompiles the same models every episode); trees are only read
_MESH_TREES = collections.OrderedDict()
_MESH_TREES_SIZE = 64


def mesh_bvh(info) -> _Tree:
  """The hierarchy of a compiled mesh's faces, in the mesh frame (mjCMesh::SetBoundingVolume
  and CreateBVH): each face is the box of its vertices, positioned at its circumcenter."""
  vert = np.ascontiguousarray(info.vert, np.float64).reshape(-1, 3)
  face = np.ascontiguousarray(info.face, np.int64).reshape(-1, 3)
  if len(face) == 0:
    return _Tree()
  key = hashlib.sha1(vert.tobytes() + face.tobytes()).digest()
  if key in _MESH_TREES:
    _MESH_TREES.move_to_end(key)
    return _MESH_TREES[key]
  corners = vert[face]
  fmin = corners.min(axis=1)
  fmax = corners.max(axis=1)
  center = 0.5 * (fmin + fmax)
  half = 0.5 * (fmax - fmin)
  tree = _Tree(center - half, center + half, face_circumcenters(vert, face), np.arange(len(face)))
  _MESH_TREES[key] = tree
  if len(_MESH_TREES) > _MESH_TREES_SIZE:
    _MESH_TREES.popitem(last=False)
  return tree


def arrays(bodies, meshes, sizes, arrays):
  """Fills the BVH sizes and arrays: the bodies' trees, then the meshes' (mesh MeshInfo list)."""
  trees = body_bvhs(bodies) + [mesh_bvh(info) for info in meshes]
  num = [len(tree.aabb) for tree in trees]
  start = np.concatenate([[0], np.cumsum(num)[:-1]]).astype(int) if trees else []
  adr = [int(a) if n else -1 for a, n in zip(start, num)]

  def stacked(field, shape):
    parts = [np.asarray(getattr(t, field)).reshape(shape) for t in trees if len(t.aabb)]
    return np.concatenate(parts) if parts else np.zeros((0,) + shape[1:])

  aabb = stacked("aabb", (-1, 6))
  child = stacked("child", (-1, 2))
  depth = stacked("depth", (-1,))
  nodeid = stacked("nodeid", (-1,))
  nbody = len(bodies)
  nbvh = len(aabb)
  sizes.update(nbvh=nbvh, nbvhstatic=nbvh, nbvhdynamic=0)
  _arr(arrays, "body_bvhadr", adr[:nbody])
  _arr(arrays, "body_bvhnum", num[:nbody])
  _arr(arrays, "mesh_bvhadr", adr[nbody:])
  _arr(arrays, "mesh_bvhnum", num[nbody:])
  _arr(arrays, "bvh_depth", depth)
  _arr(arrays, "bvh_child", child, (nbvh, 2))
  _arr(arrays, "bvh_nodeid", nodeid)
  _arr(arrays, "bvh_aabb", aabb, (nbvh, 6))
