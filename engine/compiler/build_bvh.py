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

import numpy as np

from engine.compiler import build_math as bm
from engine.compiler.build_common import arr as _arr
from engine.compiler.build_math import mjEPS


class _Tree:
  """Nodes of one hierarchy, in the order MuJoCo stores them (m.bvh_* rows)."""

  def __init__(self):
    self.aabb, self.child, self.depth, self.nodeid = [], [], [], []


def _make(tree, lo, hi, lpos, ids, elements, lev):
  """Port of mjCBoundingVolumeHierarchy::MakeBVH: appends the node of `elements` (indices into
  the element arrays, in element order) and its subtrees; returns its index, -1 if empty."""
  n = len(elements)
  if n == 0:
    return -1
  amin = lo[elements].min(axis=0)
  amax = hi[elements].max(axis=0)
  flat = np.abs(amin - amax) < mjEPS
  amin[flat] -= mjEPS
  amax[flat] += mjEPS

  index = len(tree.aabb)
  tree.aabb.append(np.concatenate([(amax + amin) / 2, (amax - amin) / 2]))
  tree.child.append([-1, -1])
  tree.depth.append(lev)
  tree.nodeid.append(-1)
  if n == 1:
    tree.nodeid[index] = ids[elements[0]]
    return index

  # longest side, by a margin of mjEPS
  edges = amax - amin
  axis = 0
  if edges[1] >= edges[0] + mjEPS:
    axis = 1
  if edges[2] >= edges[axis] + mjEPS:
    axis = 2

  # median split: positions within mjEPS of their neighbours tie, ties keep element order
  value = lpos[elements, axis]
  ordered = elements[np.lexsort((elements, value))]
  cluster = np.concatenate([[0], np.cumsum(np.diff(lpos[ordered, axis]) > mjEPS)])
  ordered = ordered[np.lexsort((ordered, cluster))]
  m = n // 2
  tree.child[index][0] = _make(tree, lo, hi, lpos, ids, ordered[:m], lev + 1)
  tree.child[index][1] = _make(tree, lo, hi, lpos, ids, ordered[m:], lev + 1)
  return index


def _corner_box(aabb, pos, quat, ipos, qinv):
  """Box (min, max) in the tree frame of the 8 corners of aabb (center, half sizes) posed at
  (pos, quat) in the owner's frame, the tree frame being (ipos, qinv^-1) in that frame."""
  lo = [aabb[0] - aabb[3], aabb[1] - aabb[4], aabb[2] - aabb[5]]
  hi = [aabb[0] + aabb[3], aabb[1] + aabb[4], aabb[2] + aabb[5]]
  offset = [pos[0] - ipos[0], pos[1] - ipos[1], pos[2] - ipos[2]]
  corners = []
  for v in range(8):
    vert = [hi[0] if v & 1 else lo[0], hi[1] if v & 2 else lo[1], hi[2] if v & 4 else lo[2]]
    box = bm.rotvecquat(vert, quat)
    box = [box[0] + offset[0], box[1] + offset[1], box[2] + offset[2]]
    corners.append(bm.rotvecquat(box, qinv))
  corners = np.array(corners)
  return corners.min(axis=0), corners.max(axis=0)


def body_bvh(b) -> _Tree:
  """The hierarchy of body b's colliding geoms, in the body's inertial frame
  (mjCBoundingVolumeHierarchy::CreateBVH with the body's ipos and iquat)."""
  qinv = [b.iquat[0], -b.iquat[1], -b.iquat[2], -b.iquat[3]]
  geoms = [g for g in b.geoms if g.contype or g.conaffinity]
  tree = _Tree()
  if not geoms:
    return tree
  boxes = [_corner_box(g.aabb, g.pos, g.quat, b.ipos, qinv) for g in geoms]
  lo = np.array([bx[0] for bx in boxes])
  hi = np.array([bx[1] for bx in boxes])
  lpos = np.array([bm.rotvecquat([g.pos[k] - b.ipos[k] for k in range(3)], qinv)
                   for g in geoms])
  ids = [g.id for g in geoms]
  _make(tree, lo, hi, lpos, ids, np.arange(len(geoms)), 0)
  return tree


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
  with np.errstate(divide='ignore', invalid='ignore'):
    return res / (2 * area * area)[:, None] + v2


def _cross(a, b):
  """Row-wise cross product, as mjuu_crossvec."""
  return np.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
                   a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                   a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]], axis=1)


def _dot(a, b):
  """Row-wise dot product, as mjuu_dot3."""
  return a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1] + a[:, 2] * b[:, 2]


def mesh_bvh(info) -> _Tree:
  """The hierarchy of a compiled mesh's faces, in the mesh frame (mjCMesh::SetBoundingVolume
  and CreateBVH): each face is the box of its vertices, positioned at its circumcenter."""
  vert = np.asarray(info.vert, np.float64).reshape(-1, 3)
  face = np.asarray(info.face, np.int64).reshape(-1, 3)
  tree = _Tree()
  if len(face) == 0:
    return tree
  corners = vert[face]
  fmin = corners.min(axis=1)
  fmax = corners.max(axis=1)
  center = .5 * (fmin + fmax)
  half = .5 * (fmax - fmin)
  _make(tree, center - half, center + half, face_circumcenters(vert, face),
        list(range(len(face))), np.arange(len(face)), 0)
  return tree


def arrays(bodies, meshes, sizes, arrays):
  """Fills the BVH sizes and arrays: the bodies' trees, then the meshes' (mesh MeshInfo list)."""
  trees = [body_bvh(b) for b in bodies] + [mesh_bvh(info) for info in meshes]
  adr, num = [], []
  aabb, child, depth, nodeid = [], [], [], []
  for tree in trees:
    adr.append(len(aabb) if tree.aabb else -1)
    num.append(len(tree.aabb))
    aabb += tree.aabb
    child += tree.child
    depth += tree.depth
    nodeid += tree.nodeid
  nbody = len(bodies)
  nbvh = len(aabb)
  sizes.update(nbvh=nbvh, nbvhstatic=nbvh, nbvhdynamic=0)
  _arr(arrays, 'body_bvhadr', adr[:nbody])
  _arr(arrays, 'body_bvhnum', num[:nbody])
  _arr(arrays, 'mesh_bvhadr', adr[nbody:])
  _arr(arrays, 'mesh_bvhnum', num[nbody:])
  _arr(arrays, 'bvh_depth', depth)
  _arr(arrays, 'bvh_child', child, (nbvh, 2))
  _arr(arrays, 'bvh_nodeid', nodeid)
  _arr(arrays, 'bvh_aabb', aabb, (nbvh, 6))
