"""Mesh loading and processing for the MJCF compiler (port of MuJoCo's user_mesh.cc).

Plain Python + numpy; nothing here is jitted. The compiler (build.py) calls:

- `read_mesh(data, filename) -> (vert (n,3) float64, face (m,3) int32)`: decode an STL (binary or
  ASCII), OBJ or MSH file. Vertices are rounded to float32 as MuJoCo stores them; binary and ASCII
  STL vertices are deduplicated (exact float equality, first-appearance order) like MuJoCo, OBJ
  vertices are kept as written. `decode_mesh` returns the same plus normals and texture
  coordinates (`MeshData`).
- `mesh_from_arrays(vertex, face=None) -> (vert, face)`: the inline `<mesh vertex=... face=...>`
  form (face may be empty: the convex hull then supplies the faces).
- `convex_hull(vert, maxhullvert=-1) -> face (k,3) int32`: our own 3-D quickhull, outward
  triangles indexing `vert`; only extreme points become hull vertices (like qhull's triangulated
  output); raises ValueError for degenerate (coplanar) input. `make_graph(hull_face)` packs it
  in m.mesh_graph's layout, `hull_extrema(vert, graph)` gives m.mesh_extrema.
- `process_mesh(vert, face, scale, inertia, refpos, refquat, maxhullvert, needhull, ...) ->
  MeshInfo`: MuJoCo's mesh compilation (mjCMesh::Process): reference transform and scale, volume,
  centroid and inertia ("legacy", "exact", "convex", "shell"), then translate the vertices to the
  centroid and rotate them into the principal axes; the transform is `MeshInfo.pos/quat`
  (m.mesh_pos / m.mesh_quat).
- `mesh_geom_inertia(info, density=1000.0, mass=None) -> (mass, inertia (3,))`: a mesh geom's
  mass and diagonal inertia in the geom (= mesh) frame, as mjCGeom::SetInertia.
- `fit_primitive(info, geom_type, fitscale=1.0, fitaabb=False) -> size (3,)` and
  `fit_offset(info, fitaabb=False) -> pos (3,)`: `<geom type="box" mesh=...>` fitting
  (mjCMesh::FitGeom). The fitted geom frame is the geom frame composed with
  (`fit_offset(...)`, `info.quat`).
- `mesh_geom_size(info)`, `mesh_geom_aabb(info)`, `mesh_rbound(info)`: geom_size, geom_aabb and
  geom_rbound of a mesh geom; `info.aamm` is the mesh-frame bounding box (min, max).

Hull requirement: MuJoCo builds the hull graph (m.mesh_graph) when a geom using the mesh can
collide (contype or conaffinity nonzero), when inertia="convex", or when the mesh has no faces;
the caller passes `needhull=True` in those cases. A mirroring scale (negative product) flips the
triangle winding; normals are mapped by the inverse scale. Mesh geoms with shellinertia are an
error in MuJoCo ("inertia should be specified in the mesh asset").

Precision against MuJoCo 3.17: centroid, volume, surface and inertia moments match to rounding
(same operation order); so does the principal-axes rotation (mesh_quat: bitwise in our tests,
~1e-15 for inertia="convex" whose hull triangles are summed in another order), because
mesh_eig3 reproduces the compiler's Jacobi solver with its early stop and its tie-keeping sort,
which also decide the axes of symmetric meshes (equal moments). Hull vertex and triangle counts
match qhull; coplanar facets may be triangulated differently.

The face BVH (m.mesh_bvhadr/bvhnum, m.bvh_*) is built by build_bvh.py from `MeshInfo.vert/face`.

Hull polygons (m.mesh_poly*): `make_polygons(raw_vert, hull_face, vert, mirror)` ports
mjCMesh::MakePolygons and MakePolygonNormals (see its docstring). Given MuJoCo's hull triangles
it reproduces MuJoCo's polygons exactly (order, first vertex, map; normals to rounding); on our
quickhull, whose triangle order differs from qhull's, the polygons are the same vertex cycles
but their order and first vertices can differ.

Not implemented: the octree, SDF/plugin meshes, flex/skin files (.skn).
"""

import collections
import dataclasses
import hashlib
import itertools
import math
import struct

import numpy as np

from engine.compiler.build_math import mjEPS
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjMINVAL

_EIG_EPS = 1e-12

INERTIA_TYPES = ("legacy", "convex", "exact", "shell")

# mjtGeom values of the primitive types a mesh can be fitted to
_GEOM_TYPES = {
  "sphere": mjGEOM_SPHERE,
  "capsule": mjGEOM_CAPSULE,
  "ellipsoid": mjGEOM_ELLIPSOID,
  "cylinder": mjGEOM_CYLINDER,
  "box": mjGEOM_BOX,
}


@dataclasses.dataclass
class MeshData:
  """Raw mesh as decoded from a file.

  Attributes:
    vert: (nvert, 3) float64 vertex positions (float32-rounded)
    face: (nface, 3) int32 triangle vertex indices
    normal: (nnormal, 3) float32 normals given by the file, or None
    facenormal: (nface, 3) int32 normal indices per face corner, or None
    texcoord: (ntexcoord, 2) float32 texture coordinates (v flipped as MuJoCo), or None
    facetexcoord: (nface, 3) int32 texcoord indices per face corner, or None
  """

  vert: np.ndarray
  face: np.ndarray
  normal: np.ndarray | None = None
  facenormal: np.ndarray | None = None
  texcoord: np.ndarray | None = None
  facetexcoord: np.ndarray | None = None


@dataclasses.dataclass
class MeshInfo:
  """A compiled mesh, in MuJoCo's mesh frame (centroid origin, principal axes).

  Attributes:
    vert: (nvert, 3) float64 vertices in the mesh frame (MuJoCo stores them as float32)
    face: (nface, 3) int32 triangles (hull triangles if the mesh had no faces)
    normal: (nnormal, 3) float32 normals (m.mesh_normal)
    facenormal: (nface, 3) int32 normal index per face corner (m.mesh_facenormal)
    texcoord: (ntexcoord, 2) float32 or None
    facetexcoord: (nface, 3) int32 or None
    pos: (3,) centroid of the scaled asset (m.mesh_pos)
    quat: (4,) principal-axes orientation of the scaled asset (m.mesh_quat)
    scale: (3,) scale applied to the asset (m.mesh_scale)
    inertia_type: "legacy", "convex", "exact" or "shell"
    volume: volume (0 for shell meshes, whose reference measure is `surface`)
    surface: surface area (set for shell meshes only, as MuJoCo)
    boxsz: (3,) half-sizes of the box with the same inertia (unit density)
    aamm: (6,) mesh-frame bounding box (xmin, ymin, zmin, xmax, ymax, zmax)
    hull_face: (nhullface, 3) int32 outward hull triangles, or None
    graph: int32 hull graph in m.mesh_graph layout, or None
    extrema: (27,) int32 extreme hull vertices per direction (m.mesh_extrema), see hull_extrema
    polygons: hull polygons as vertex-id cycles (m.mesh_polyvert), empty without a hull
    polynormal: (npoly, 3) float64 outward polygon normals (m.mesh_polynormal)
    polymap: per vertex, the ids of the polygons containing it (m.mesh_polymap)

  polygons and polymap are tuples of tuples: copies of a cached mesh share them instead of
  copying tens of thousands of small lists.
  """

  vert: np.ndarray
  face: np.ndarray
  normal: np.ndarray
  facenormal: np.ndarray
  texcoord: np.ndarray | None
  facetexcoord: np.ndarray | None
  pos: np.ndarray
  quat: np.ndarray
  scale: np.ndarray
  inertia_type: str
  volume: float
  surface: float
  boxsz: np.ndarray
  aamm: np.ndarray
  hull_face: np.ndarray | None
  graph: np.ndarray | None
  extrema: np.ndarray
  polygons: tuple = ()
  polynormal: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros((0, 3)))
  polymap: tuple = ()
  _flat: tuple | None = dataclasses.field(default=None, repr=False, compare=False)

  def __post_init__(self):
    if not isinstance(self.polygons, tuple):
      self.polygons = tuple(map(tuple, self.polygons))
    if not isinstance(self.polymap, tuple):
      self.polymap = tuple(map(tuple, self.polymap))

  def copy(self) -> "MeshInfo":
    """A copy sharing nothing mutable with this one (copy.deepcopy takes a second on a mesh of
    tens of thousands of polygons: it walks every small list)."""
    self.polygon_arrays()  # made once, for this mesh and its copies
    fields = {}
    for f in dataclasses.fields(self):
      value = getattr(self, f.name)
      if isinstance(value, np.ndarray):
        value = value.copy()
      fields[f.name] = value
    return MeshInfo(**fields)

  def polygon_arrays(self):
    """(vertnum, polyvert, mapnum, polymap) int32 arrays: the polygons' sizes and vertex ids
    concatenated, the map's entry counts per vertex and polygon ids concatenated (an empty map
    entry per vertex when the map does not cover the vertices). Read-only, made once per mesh
    and shared by its copies."""
    if self._flat is None:
      polys = self.polygons
      pmap = self.polymap if len(self.polymap) == len(self.vert) else ((),) * len(self.vert)
      flat = (
        np.fromiter(map(len, polys), np.int32, len(polys)),
        np.fromiter(itertools.chain.from_iterable(polys), np.int32),
        np.fromiter(map(len, pmap), np.int32, len(pmap)),
        np.fromiter(itertools.chain.from_iterable(pmap), np.int32),
      )
      for a in flat:
        a.flags.writeable = False
      self._flat = flat
    return self._flat

  @property
  def volume_ref(self) -> float:
    """Volume, or surface area for shell inertia (MuJoCo's GetVolumeRef)."""
    return self.surface if self.inertia_type == "shell" else self.volume

  @property
  def inertia(self) -> np.ndarray:
    """(3,) principal moments of inertia for unit density (body inertia = density * these)."""
    return mesh_geom_inertia(self, density=1.0)[1]


# ------------------------------------------------------------------------- small 3-D helpers


def _unique(a):
  """np.unique of a 1-d array (numpy's plain np.unique, and np.setdiff1d, import numpy.ma: 7 ms
  of a process's first mesh)."""
  a = np.sort(a)
  keep = np.ones(len(a), dtype=bool)
  keep[1:] = a[1:] != a[:-1]
  return a[keep]


def _quat2mat(q):
  """Port of mjuu_quat2mat, user_util.cc (row-major 3x3 as a nested list)."""
  if q[0] == 1 and q[1] == 0 and q[2] == 0 and q[3] == 0:
    return [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
  q00, q01, q02, q03 = q[0] * q[0], q[0] * q[1], q[0] * q[2], q[0] * q[3]
  q11, q12, q13 = q[1] * q[1], q[1] * q[2], q[1] * q[3]
  q22, q23, q33 = q[2] * q[2], q[2] * q[3], q[3] * q[3]
  return [
    [q00 + q11 - q22 - q33, 2 * (q12 - q03), 2 * (q13 + q02)],
    [2 * (q12 + q03), q00 - q11 + q22 - q33, 2 * (q23 - q01)],
    [2 * (q13 - q02), 2 * (q23 + q01), q00 - q11 - q22 + q33],
  ]


def _normvec(v):
  """Port of mjuu_normvec, user_util.cc: normalize in place, return the previous length."""
  nrm = sum(x * x for x in v)
  if nrm < mjEPS:
    return 0.0
  nrm = math.sqrt(nrm)
  if abs(nrm - 1) > mjEPS:
    for i in range(len(v)):
      v[i] /= nrm
  return nrm


def _normalize4(v):
  """Port of mju_normalize4 (multiplies by the inverse norm)."""
  norm = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3])
  if norm < mjMINVAL:
    return [1.0, 0.0, 0.0, 0.0]
  if abs(norm - 1) > mjMINVAL:
    inv = 1 / norm
    return [v[0] * inv, v[1] * inv, v[2] * inv, v[3] * inv]
  return list(v)


def _mulquat(qa, qb):
  """Quaternion product qa * qb (mju_mulQuat)."""
  return [
    qa[0] * qb[0] - qa[1] * qb[1] - qa[2] * qb[2] - qa[3] * qb[3],
    qa[0] * qb[1] + qa[1] * qb[0] + qa[2] * qb[3] - qa[3] * qb[2],
    qa[0] * qb[2] - qa[1] * qb[3] + qa[2] * qb[0] + qa[3] * qb[1],
    qa[0] * qb[3] + qa[1] * qb[2] - qa[2] * qb[1] + qa[3] * qb[0],
  ]


def _mulmat(a, b):
  return [
    [a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] for j in range(3)] for i in range(3)
  ]


def _csqrt(x):
  """sqrt as C computes it: NaN for a negative argument instead of raising."""
  return math.sqrt(x) if x >= 0 else math.nan


def _rotated(mat, quat):
  """D = R' * mat * R for the rotation of quat (one Jacobi sweep's matrix)."""
  r = _quat2mat(quat)
  rt = [[r[j][i] for j in range(3)] for i in range(3)]
  return _mulmat(_mulmat(rt, mat), r)


def _jacobi_pivot(d):
  """(row, column, rotation axis) of the largest off-diagonal entry of a symmetric 3x3 d."""
  if abs(d[0][1]) > abs(d[0][2]) and abs(d[0][1]) > abs(d[1][2]):
    return 0, 1, 2
  if abs(d[0][2]) > abs(d[1][2]):
    return 0, 2, 1
  return 1, 2, 0


def _jacobi_half_tangent(d, rk, ck):
  """tan(angle/2) of the rotation that zeroes d[rk][ck] (2x2 symmetric Schur decomposition,
  t = tan(angle) first)."""
  tau = (d[ck][ck] - d[rk][rk]) / (2 * d[rk][ck])
  if tau >= 0:
    t = 1.0 / (tau + math.sqrt(1 + tau * tau))
  else:
    t = -1.0 / (-tau + math.sqrt(1 + tau * tau))
  return t / (1 + math.sqrt(1 + t * t))


def eig3(mat):
  """Eigen-decomposition of a symmetric 3x3 matrix by quaternion Jacobi rotations.

  Follows mju_eig3 (engine_util_solve.c) as MuJoCo 3.17 behaves: cyclic-by-largest Jacobi
  rotations accumulated in a quaternion, each rotation built from the tangent of its half angle
  (accurate for tiny angles), stopping when the largest off-diagonal entry is below 4e-15 times
  the largest entry of `mat`; eigenvalues sorted in decreasing order by 90-degree rotations.
  Used for `fullinertia`; mesh frames use the compiler's own solver (mesh_eig3).

  Args:
    mat: (3, 3) symmetric matrix.

  Returns:
    (eigval (3,) decreasing, quat (4,)): the columns of quat2mat(quat) are the eigenvectors.
  """
  m = [[float(mat[i][j]) for j in range(3)] for i in range(3)]
  scale = max(abs(x) for row in m for x in row)
  quat = [1.0, 0.0, 0.0, 0.0]
  eigval = [m[0][0], m[1][1], m[2][2]]
  for _ in range(500 if scale > 0 else 0):
    d = _rotated(m, quat)
    eigval = [d[0][0], d[1][1], d[2][2]]

    rk, ck, rotk = _jacobi_pivot(d)
    if abs(d[rk][ck]) < 4e-15 * scale:
      break
    half = _jacobi_half_tangent(d, rk, ck)
    tmp = [1.0, 0.0, 0.0, 0.0]
    tmp[rotk + 1] = half if rotk == 1 else -half
    quat = _normalize4(_mulquat(quat, _normalize4(tmp)))

  # sort eigenvalues in decreasing order (bubble sort 0, 1, 0)
  for j in range(3):
    j1 = j % 2
    if eigval[j1] + _EIG_EPS * scale < eigval[j1 + 1]:
      eigval[j1], eigval[j1 + 1] = eigval[j1 + 1], eigval[j1]
      tmp = [0.707106781186548, 0.0, 0.0, 0.0]
      tmp[(j1 + 2) % 3 + 1] = tmp[0]
      quat = _normalize4(_mulquat(quat, tmp))
  return np.array(eigval), np.array(quat)


def _mulquat_unit(qa, qb):
  """Port of mjuu_mulquat: the product qa * qb, renormalized by _normvec."""
  res = _mulquat(qa, qb)
  _normvec(res)
  return res


def mesh_eig3(mat):
  """Principal axes of a mesh inertia: mjuu_eig3 (user_util.cc) as MuJoCo 3.17 computes it.

  The compiler's own Jacobi solver, distinct from the engine's mju_eig3 (see eig3): the same
  cyclic-by-largest rotations, but it stops as soon as the largest off-diagonal entry of
  D = R' mat R is below 1e-7 times the largest |entry| of mat, so a mesh frame is a few Jacobi
  sweeps short of the converged axes; each rotation is the unit quaternion of half-angle
  tangent h, (1, h) / sqrt(1 + h^2); eigenvalues within that same 1e-7 tolerance keep their
  order in the final sort, which fixes the axes of symmetric meshes. With the same operation
  order the result is MuJoCo's to the last bit for the same input matrix.

  Args:
    mat: (3, 3) symmetric matrix.

  Returns:
    (eigval (3,) decreasing, quat (4,)): the columns of quat2mat(quat) are the eigenvectors.
  """
  a = [[float(mat[i][j]) for j in range(3)] for i in range(3)]
  scale = max(abs(x) for row in a for x in row)
  tol = 1e-7 * scale
  quat = [1.0, 0.0, 0.0, 0.0]
  eigval = [a[0][0], a[1][1], a[2][2]]
  for _ in range(500):
    d = _rotated(a, quat)
    eigval = [d[0][0], d[1][1], d[2][2]]
    rk, ck, rotk = _jacobi_pivot(d)
    if abs(d[rk][ck]) < tol:
      break
    half = _jacobi_half_tangent(d, rk, ck)
    chalf = 1.0 / math.sqrt(1 + half * half)
    rot = [chalf, 0.0, 0.0, 0.0]
    rot[rotk + 1] = half * chalf if rotk == 1 else -half * chalf
    quat = _mulquat_unit(quat, rot)

  # sort eigenvalues in decreasing order (bubble sort 0, 1, 0) by 90-degree rotations
  for j in range(3):
    j1 = j % 2
    if eigval[j1] + tol < eigval[j1 + 1]:
      eigval[j1], eigval[j1 + 1] = eigval[j1 + 1], eigval[j1]
      rot = [0.707106781186548, 0.0, 0.0, 0.0]
      rot[(j1 + 2) % 3 + 1] = rot[0]
      quat = _mulquat_unit(quat, rot)
  return np.array(eigval), np.array(quat)


def _dot3(a, b):
  """Row-wise a.b summed left to right, as mjuu_dot3."""
  return a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1] + a[:, 2] * b[:, 2]


def _cross3(b, c):
  """Row-wise b x c, as mjuu_crossvec."""
  return np.stack(
    [
      b[:, 1] * c[:, 2] - b[:, 2] * c[:, 1],
      b[:, 2] * c[:, 0] - b[:, 0] * c[:, 2],
      b[:, 0] * c[:, 1] - b[:, 1] * c[:, 0],
    ],
    axis=1,
  )


def _seqsum(x):
  """Sum over axis 0 in sequential order (as MuJoCo's accumulation loops), not pairwise."""
  if len(x) == 0:
    return np.zeros(x.shape[1:]) if x.ndim > 1 else 0.0
  return np.cumsum(x, axis=0)[-1]


def _mulmat_rows(v, mat):
  """Each row of v multiplied by mat (mat @ v_i), summed as mjuu_mulvecmat."""
  return np.stack(
    [
      mat[0][0] * v[:, 0] + mat[0][1] * v[:, 1] + mat[0][2] * v[:, 2],
      mat[1][0] * v[:, 0] + mat[1][1] * v[:, 1] + mat[1][2] * v[:, 2],
      mat[2][0] * v[:, 0] + mat[2][1] * v[:, 1] + mat[2][2] * v[:, 2],
    ],
    axis=1,
  )


def _triangles(v, f):
  """Vectorized port of triangle(), user_mesh.cc: (area, unit normal, center) per face.

  Arithmetic follows MuJoCo's operation order so results are bitwise identical.
  """
  a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
  center = (a + b + c) / 3
  nrm = _cross3(b - a, c - a)
  length = np.sqrt(_dot3(nrm, nrm))
  small = length < mjMINVAL
  area = np.where(small, 0.0, 0.5 * length)
  normal = nrm / np.where(small, 1.0, length)[:, None]
  return area, normal, center


# ------------------------------------------------------------------------------------ decoding


def _dedup_vertices(v32, face):
  """Port of mjCMesh::ProcessVertices(remove_repeated=true): merge identical float32 vertices.

  Vertices keep their first-appearance order, as MuJoCo's hash map assigns indices.
  """
  bits = (v32 + np.float32(0.0)).view(np.uint32)  # -0.0 and 0.0 hash alike in MuJoCo
  # rows sorted by their bits (stable: each run of equal rows starts at its first appearance);
  # np.unique(axis=0) does the same through a void view, 5x slower
  order = np.lexsort(bits.T[::-1])
  ranked = bits[order]
  starts = np.ones(len(order), dtype=bool)
  starts[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
  first = order[starts]
  inverse = np.empty(len(order), dtype=np.int64)
  inverse[order] = np.cumsum(starts) - 1
  if len(first) == len(v32):
    return v32, face
  order = np.argsort(first, kind="stable")
  rank = np.empty_like(order)
  rank[order] = np.arange(len(order))
  newvert = v32[first[order]]
  return newvert, rank[inverse][face].astype(np.int32)


def _check_finite(v32, filename):
  if not np.all(np.isfinite(v32)):
    i = int(np.nonzero(~np.all(np.isfinite(v32), axis=1))[0][0])
    raise ValueError(f"vertex coordinate {i} is not finite in mesh file '{filename}'")


def _decode_stl(data: bytes, filename: str) -> MeshData:
  """Binary STL (mjCMesh::LoadSTL) and, beyond MuJoCo, ASCII STL."""
  if len(data) == 0:
    raise ValueError(f"STL file '{filename}' is empty")
  nfaces = struct.unpack_from("<i", data, 80)[0] if len(data) >= 84 else -1
  if len(data) >= 84 and nfaces >= 1 and nfaces * 50 == len(data) - 84:
    if nfaces > 200000:
      raise ValueError(f"number of faces should be between 1 and 200000 in STL file '{filename}'")
    rec = np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("attr", "<u2")])
    tri = np.frombuffer(data, dtype=rec, count=nfaces, offset=84)["v"]
    v32 = tri.reshape(-1, 3).astype(np.float32)
  elif data.lstrip()[:5].lower() == b"solid":
    v32 = _parse_ascii_stl(data, filename)
  else:
    raise ValueError(f"STL file '{filename}' has wrong size (not binary STL) and is not ASCII STL")
  _check_finite(v32, filename)
  if np.any(np.abs(v32) > 2.0**30):
    raise ValueError(f"vertex in STL file '{filename}' exceed maximum bounds")
  face = np.arange(len(v32), dtype=np.int32).reshape(-1, 3)
  v32, face = _dedup_vertices(v32, face)
  return MeshData(v32.astype(np.float64), face.astype(np.int32))


def _parse_ascii_stl(data: bytes, filename: str) -> np.ndarray:
  """Vertices of an ASCII STL file, three per facet, as float32."""
  tokens = data.split()
  vals = []
  i, n = 0, len(tokens)
  while i < n:
    if tokens[i].lower() == b"vertex":
      try:
        vals.extend(float(t) for t in tokens[i + 1 : i + 4])
      except ValueError as e:
        raise ValueError(f"bad vertex in ASCII STL file '{filename}'") from e
      i += 4
    else:
      i += 1
  if not vals or len(vals) % 9:
    raise ValueError(f"ASCII STL file '{filename}' has no complete facets")
  return np.array(vals, dtype=np.float32).reshape(-1, 3)


def _obj_index(tok: bytes, count: int, filename: str) -> int:
  """One OBJ index (1-based, or negative relative to the current count) as 0-based."""
  i = int(tok)
  if i > 0:
    return i - 1
  if i < 0:
    return count + i
  raise ValueError(f"zero index in OBJ file '{filename}'")


def _triangulate_polygon(poly, v):
  """Triangles of one OBJ polygon, as MuJoCo's OBJ reader (tinyobjloader) splits them.

  Quads are split along the shorter diagonal (computed in float32); larger polygons by ear
  clipping from the first corner, which is a fan from the first corner for convex polygons.
  """
  n = len(poly)
  if n == 3:
    return [poly]
  if n == 4:
    p = [v[c[0]].astype(np.float32) for c in poly]
    e02, e13 = p[2] - p[0], p[3] - p[1]
    sqr02 = np.float32(e02[0] * e02[0] + e02[1] * e02[1] + e02[2] * e02[2])
    sqr13 = np.float32(e13[0] * e13[0] + e13[1] * e13[1] + e13[2] * e13[2])
    if sqr02 < sqr13:
      return [[poly[0], poly[1], poly[2]], [poly[0], poly[2], poly[3]]]
    return [[poly[0], poly[1], poly[3]], [poly[1], poly[2], poly[3]]]

  # ear clipping in the plane that drops the polygon normal's largest axis
  pts = np.array([v[c[0]] for c in poly], dtype=np.float64)
  nrm = np.zeros(3)
  for i in range(n):
    nrm += np.cross(pts[i], pts[(i + 1) % n])
  ax = int(np.argmax(np.abs(nrm)))
  a0, a1 = [k for k in range(3) if k != ax]
  xy = pts[:, [a0, a1]]
  area = sum(xy[i, 0] * xy[(i + 1) % n, 1] - xy[(i + 1) % n, 0] * xy[i, 1] for i in range(n))
  remaining = list(range(n))
  tris = []
  guess, tries = 0, n
  while len(remaining) > 3 and tries > 0:
    m = len(remaining)
    guess %= m
    i0, i1, i2 = (remaining[(guess + k) % m] for k in range(3))
    e0, e1 = xy[i1] - xy[i0], xy[i2] - xy[i1]
    cross = e0[0] * e1[1] - e0[1] * e1[0]
    inside = False
    if cross * area >= 0:
      for k in remaining:
        if k in (i0, i1, i2):
          continue
        if _point_in_triangle(xy[k], xy[i0], xy[i1], xy[i2]):
          inside = True
          break
    if cross * area < 0 or inside:
      guess += 1
      tries -= 1
      continue
    tris.append([poly[i0], poly[i1], poly[i2]])
    remaining.remove(i1)
    tries = len(remaining)
  if len(remaining) >= 3:
    tris.append([poly[remaining[0]], poly[remaining[1]], poly[remaining[2]]])
  return tris


def _point_in_triangle(p, a, b, c):
  d1 = (p[0] - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (p[1] - b[1])
  d2 = (p[0] - c[0]) * (b[1] - c[1]) - (b[0] - c[0]) * (p[1] - c[1])
  d3 = (p[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (p[1] - a[1])
  neg = d1 < 0 or d2 < 0 or d3 < 0
  pos = d1 > 0 or d2 > 0 or d3 > 0
  return not (neg and pos)


def _decode_obj(data: bytes, filename: str) -> MeshData:
  """Wavefront OBJ as MuJoCo reads it (mjCMesh::LoadOBJ via tinyobjloader).

  Only the faces of the first object/group that has faces are used (MuJoCo takes the first
  shape); all vertices are kept, unmerged. Polygons are triangulated (see _triangulate_polygon).
  """
  verts, normals, texcoords = [], [], []
  polys = []  # list of corners (v, vt, vn) per polygon, first shape only
  shape_done = False
  for raw in data.splitlines():
    line = raw.strip()
    if not line or line[0:1] == b"#":
      continue
    tok = line.split()
    key = tok[0]
    if key == b"v":
      verts.append([float(t) for t in tok[1:4]])
    elif key == b"vn":
      normals.append([float(t) for t in tok[1:4]])
    elif key == b"vt":
      uv = [float(t) for t in tok[1:3]]
      texcoords.append(uv + [0.0] * (2 - len(uv)))
    elif key in (b"o", b"g"):
      if polys:
        shape_done = True
    elif key == b"f" and not shape_done:
      poly = []
      for t in tok[1:]:
        parts = t.split(b"/")
        vi = _obj_index(parts[0], len(verts), filename)
        ti = _obj_index(parts[1], len(texcoords), filename) if len(parts) > 1 and parts[1] else -1
        ni = _obj_index(parts[2], len(normals), filename) if len(parts) > 2 and parts[2] else -1
        poly.append((vi, ti, ni))
      if len(poly) < 3:
        raise ValueError(f"only tri or quad meshes are supported for OBJ (file '{filename}')")
      polys.append(poly)
  v32 = np.array(verts, dtype=np.float32).reshape(-1, 3)
  _check_finite(v32, filename)
  vert = v32.astype(np.float64)
  corners = []
  for poly in polys:
    if any(c[0] < 0 or c[0] >= len(verts) for c in poly):
      raise ValueError(f"vertex index out of range in OBJ file '{filename}'")
    corners.extend(_triangulate_polygon(poly, v32))
  corners = np.array(corners, dtype=np.int64).reshape(-1, 3, 3)
  face = corners[:, :, 0].astype(np.int32)
  normal = facenormal = texcoord = facetexcoord = None
  if normals:
    normal = np.array(normals, dtype=np.float32)
    facenormal = corners[:, :, 2].astype(np.int32)
    if np.any((facenormal < 0) | (facenormal >= len(normals))):
      raise ValueError(f"normal index out of bounds in OBJ file '{filename}'")
  if texcoords and np.any((corners[:, :, 1] < 0) | (corners[:, :, 1] >= len(texcoords))):
    texcoords = []  # MuJoCo discards texture coordinates when a face lacks them
  if texcoords:
    texcoord = np.array(texcoords, dtype=np.float32)
    texcoord[:, 1] = np.float32(1) - texcoord[:, 1]
    facetexcoord = corners[:, :, 1].astype(np.int32)
  return MeshData(vert, face, normal, facenormal, texcoord, facetexcoord)


def _decode_msh(data: bytes, filename: str) -> MeshData:
  """MuJoCo's legacy binary MSH format (mjCMesh::LoadMSH)."""
  if len(data) < 16:
    raise ValueError(f"missing header in MSH file '{filename}'")
  nv, nn, nt, nf = struct.unpack_from("<4i", data, 0)
  if nv < 4 or nf < 0 or nn < 0 or nt < 0 or (nn > 0 and nn != nv) or (nt > 0 and nt != nv):
    raise ValueError(f"invalid sizes in MSH file '{filename}'")
  if len(data) != 16 + 12 * nv + 12 * nn + 8 * nt + 12 * nf:
    raise ValueError(f"unexpected file size in MSH file '{filename}'")
  off = 16
  v32 = np.frombuffer(data, "<f4", 3 * nv, off).reshape(-1, 3).astype(np.float32)
  off += 12 * nv
  normal = texcoord = None
  if nn:
    normal = np.frombuffer(data, "<f4", 3 * nn, off).reshape(-1, 3).astype(np.float32)
    off += 12 * nn
  if nt:
    texcoord = np.frombuffer(data, "<f4", 2 * nt, off).reshape(-1, 2).astype(np.float32)
    off += 8 * nt
  face = np.frombuffer(data, "<i4", 3 * nf, off).reshape(-1, 3).astype(np.int32)
  _check_finite(v32, filename)
  return MeshData(
    v32.astype(np.float64),
    face,
    normal,
    face.copy() if nf else None,
    texcoord,
    face.copy() if nf and nt else None,
  )


def decode_mesh(data: bytes, filename: str) -> MeshData:
  """Decodes a mesh file by extension (.stl, .obj, .msh), as MuJoCo's content types.

  Raises:
    ValueError: unknown extension or malformed file (the message names the file).
  """
  ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
  if ext == "stl":
    return _decode_stl(data, filename)
  if ext == "obj":
    return _decode_obj(data, filename)
  if ext == "msh":
    return _decode_msh(data, filename)
  raise ValueError(f"unknown or unsupported mesh file: '{filename}'")


def read_mesh(data: bytes, filename: str):
  """Vertices and triangles of a mesh file.

  Args:
    data: file contents.
    filename: name used to pick the format (.stl, .obj, .msh) and in error messages.

  Returns:
    (vert (n, 3) float64 rounded to float32, face (m, 3) int32).
  """
  md = decode_mesh(data, filename)
  return md.vert, md.face


def mesh_from_arrays(vertex, face=None):
  """The inline `<mesh vertex="..." face="...">` form, with MuJoCo's float32 vertex storage.

  Args:
    vertex: flat or (n, 3) vertex coordinates.
    face: flat or (m, 3) vertex indices, or None/empty (the convex hull then gives the faces).

  Returns:
    (vert (n, 3) float64, face (m, 3) int32, m may be 0).
  """
  v = np.asarray(vertex, dtype=np.float64).reshape(-1)
  if v.size % 3:
    raise ValueError("vertex data must be a multiple of 3")
  v32 = v.astype(np.float32).reshape(-1, 3)
  if not np.all(np.isfinite(v32)):
    raise ValueError("vertex coordinate is not finite")
  f = np.zeros(0, dtype=np.int64) if face is None else np.asarray(face, dtype=np.int64).ravel()
  if f.size % 3:
    raise ValueError("face data must be a multiple of 3")
  return v32.astype(np.float64), f.reshape(-1, 3).astype(np.int32)


# --------------------------------------------------------------------------------- convex hull


def _hull_tolerance(pts):
  """Distance below which a point counts as on a plane (qhull-like roundoff scale)."""
  return 3 * np.finfo(np.float64).eps * float(np.sum(np.max(np.abs(pts), axis=0))) * 4


def _initial_simplex(pts, tol):
  """Four affinely independent extreme points, or ValueError for degenerate input."""
  imin, imax = np.argmin(pts, axis=0), np.argmax(pts, axis=0)
  cand = _unique(np.concatenate([imin, imax]))
  # farthest pair among axis extremes
  best, pair = -1.0, (0, 0)
  for i in cand:
    d = np.sum((pts[cand] - pts[i]) ** 2, axis=1)
    j = int(np.argmax(d))
    if d[j] > best:
      best, pair = d[j], (int(i), int(cand[j]))
  i0, i1 = pair
  if best <= tol * tol:
    raise ValueError("convex hull needs at least 4 non-coplanar points (all points coincide)")
  # farthest from the line
  u = pts[i1] - pts[i0]
  u = u / np.linalg.norm(u)
  w = pts - pts[i0]
  dl = np.linalg.norm(w - np.outer(w @ u, u), axis=1)
  i2 = int(np.argmax(dl))
  if dl[i2] <= tol:
    raise ValueError("convex hull needs at least 4 non-coplanar points (all points collinear)")
  # farthest from the plane
  n = np.cross(pts[i1] - pts[i0], pts[i2] - pts[i0])
  n /= np.linalg.norm(n)
  dp = w @ n
  i3 = int(np.argmax(np.abs(dp)))
  if abs(dp[i3]) <= tol:
    raise ValueError("convex hull needs at least 4 non-coplanar points (all points coplanar)")
  if dp[i3] > 0:  # make (i0, i1, i2) face away from i3
    i1, i2 = i2, i1
  return i0, i1, i2, i3


class _Quickhull:
  """Incremental 3-D quickhull with outside sets (triangulated, outward faces)."""

  def __init__(self, pts, tol):
    self.pts = pts
    self.pl = pts.tolist()
    self.tol = tol
    self.fv = []  # face vertices (a, b, c), counter-clockwise seen from outside
    self.fn = []  # unit normals
    self.fd = []  # plane offsets
    self.alive = []
    self.outside = {}  # face -> array of point indices outside it
    self.edge = {}  # directed edge (u, v) -> face

  def add_face(self, a, b, c):
    pa, pb, pc = self.pl[a], self.pl[b], self.pl[c]
    ux, uy, uz = pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]
    wx, wy, wz = pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]
    nx, ny, nz = uy * wz - uz * wy, uz * wx - ux * wz, ux * wy - uy * wx
    ln = math.sqrt(nx * nx + ny * ny + nz * nz)
    if ln > 0:
      nx, ny, nz = nx / ln, ny / ln, nz / ln
    f = len(self.fv)
    self.fv.append((a, b, c))
    self.fn.append((nx, ny, nz))
    self.fd.append(
      nx * (pa[0] + pb[0] + pc[0]) / 3
      + ny * (pa[1] + pb[1] + pc[1]) / 3
      + nz * (pa[2] + pb[2] + pc[2]) / 3
    )
    self.alive.append(True)
    for u, v in ((a, b), (b, c), (c, a)):
      self.edge[(u, v)] = f
    return f

  def assign(self, idx, faces):
    """Gives each point of idx to the new face it is farthest outside of (if any)."""
    if len(idx) == 0 or not faces:
      return
    nrm = np.array([self.fn[f] for f in faces])
    off = np.array([self.fd[f] for f in faces])
    dist = self.pts[idx] @ nrm.T - off
    best = np.argmax(dist, axis=1)
    far = dist[np.arange(len(idx)), best] > self.tol
    for k, f in enumerate(faces):
      sel = idx[far & (best == k)]
      if len(sel):
        self.outside[f] = sel

  def run(self, maxvert):
    i0, i1, i2, i3 = _initial_simplex(self.pts, self.tol)
    faces = [
      self.add_face(i0, i1, i2),
      self.add_face(i0, i3, i1),
      self.add_face(i1, i3, i2),
      self.add_face(i2, i3, i0),
    ]
    nvert = 4
    others = np.ones(len(self.pts), dtype=bool)
    others[[i0, i1, i2, i3]] = False
    rest = np.flatnonzero(others)
    self.assign(rest, faces)
    while self.outside:
      if 0 < maxvert <= nvert:
        break
      f, idx = next(iter(self.outside.items()))
      dist = self.pts[idx] @ np.array(self.fn[f]) - self.fd[f]
      eye = int(idx[int(np.argmax(dist))])
      ex, ey, ez = self.pl[eye]

      # visible faces: connected region around f
      visible = {f}
      stack = [f]
      while stack:
        g = stack.pop()
        a, b, c = self.fv[g]
        for u, v in ((a, b), (b, c), (c, a)):
          h = self.edge[(v, u)]
          n = self.fn[h]
          if h not in visible and n[0] * ex + n[1] * ey + n[2] * ez - self.fd[h] > self.tol:
            visible.add(h)
            stack.append(h)

      # horizon edges and orphaned points
      horizon = []
      orphans = []
      for g in visible:
        a, b, c = self.fv[g]
        for u, v in ((a, b), (b, c), (c, a)):
          if self.edge[(v, u)] not in visible:
            horizon.append((u, v))
        if g in self.outside:
          orphans.append(self.outside.pop(g))
        self.alive[g] = False
      for g in visible:
        a, b, c = self.fv[g]
        for u, v in ((a, b), (b, c), (c, a)):
          if self.edge.get((u, v)) == g:
            del self.edge[(u, v)]

      # cone of new faces
      new = [self.add_face(u, v, eye) for u, v in horizon]
      nvert += 1
      if orphans:
        idx = np.concatenate(orphans)
        self.assign(idx[idx != eye], new)
    return [self.fv[g] for g in range(len(self.fv)) if self.alive[g]]


def _hull_valid(faces):
  """Closed, consistently oriented, Euler characteristic 2: no directed edge twice, each one's
  reverse present, V - E + F = 2 (vectorized: hulls of large meshes have thousands of faces)."""
  f = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
  u = f.ravel()
  v = f[:, [1, 2, 0]].ravel()
  width = int(u.max(initial=0)) + 1
  forward = np.sort(u * width + v)
  if len(forward) and (forward[1:] == forward[:-1]).any():
    return False
  if not np.array_equal(forward, np.sort(v * width + u)):
    return False
  return len(_unique(u)) - len(forward) // 2 + len(f) == 2


def _nonextreme(pts, faces):
  """Hull vertices whose incident faces span fewer than 3 directions (on an edge or face)."""
  f = np.array(faces, dtype=np.int64)
  n = np.cross(pts[f[:, 1]] - pts[f[:, 0]], pts[f[:, 2]] - pts[f[:, 0]])
  ln = np.linalg.norm(n, axis=1)
  ok = ln > 0
  n = n[ok] / ln[ok, None]
  f = f[ok]

  # incidences (vertex, face normal) grouped by vertex
  vid = f.T.ravel()
  nrm = np.concatenate([n, n, n])
  order = np.argsort(vid, kind="stable")
  vid, nrm = vid[order], nrm[order]
  start = np.flatnonzero(np.r_[True, vid[1:] != vid[:-1]])
  group = np.repeat(np.arange(len(start)), np.diff(np.r_[start, len(vid)]))

  # all normals parallel to the first one: vertex inside a flat region
  n0 = nrm[start][group]
  cr = np.cross(nrm, n0)
  crn = np.linalg.norm(cr, axis=1)
  spread = np.maximum.reduceat(crn, start)

  # all normals in one plane: vertex on an edge between two flat regions
  best = start + np.array([np.argmax(crn[a:b]) for a, b in zip(start, np.r_[start[1:], len(vid)])])
  axis = cr[best] / np.maximum(crn[best], 1e-300)[:, None]
  off = np.abs(np.einsum("ij,ij->i", nrm, axis[group]))
  offplane = np.maximum.reduceat(off, start)
  bad = (spread < 1e-10) | (offplane < 1e-10)
  return vid[start][bad].tolist()


# hulls of recently compiled meshes (composer recompiles the same models every episode)
_HULL_CACHE = collections.OrderedDict()
_HULL_CACHE_SIZE = 64


def convex_hull(vert, maxhullvert=-1):
  """Convex hull of a point set (our quickhull; MuJoCo uses qhull with option Qt).

  Args:
    vert: (n, 3) points.
    maxhullvert: maximum number of hull vertices (-1: no limit), as `<mesh maxhullvert>`.

  Returns:
    (k, 3) int32 outward-oriented triangles indexing vert. Points lying on a hull face or edge
    are not hull vertices. Results are cached by input (the hull is the slow part of compiling
    a large mesh).

  Raises:
    ValueError: fewer than 4 non-coplanar points.
  """
  pts = np.ascontiguousarray(vert, dtype=np.float64).reshape(-1, 3)
  key = (hashlib.sha1(pts.tobytes()).digest(), len(pts), int(maxhullvert))
  if key in _HULL_CACHE:
    _HULL_CACHE.move_to_end(key)
    return _HULL_CACHE[key].copy()
  hull = _convex_hull(pts, maxhullvert)
  _HULL_CACHE[key] = hull
  if len(_HULL_CACHE) > _HULL_CACHE_SIZE:
    _HULL_CACHE.popitem(last=False)
  return hull.copy()


def _convex_hull(pts, maxhullvert):
  """convex_hull without the cache."""
  if len(pts) < 4:
    raise ValueError(f"convex hull needs at least 4 non-coplanar points, got {len(pts)} points")
  if not np.all(np.isfinite(pts)):
    raise ValueError("convex hull of non-finite points")
  center = 0.5 * (pts.min(axis=0) + pts.max(axis=0))
  local = pts - center
  tol = _hull_tolerance(local)
  ids = np.arange(len(pts))
  maxvert = maxhullvert if maxhullvert and maxhullvert > 0 else -1
  for _ in range(8):
    faces = None
    for scale in (1.0, 10.0, 100.0, 1e3, 1e4):
      faces = _Quickhull(local[ids], tol * scale).run(maxvert)
      if _hull_valid(faces):
        break
    else:
      raise ValueError("convex hull construction failed (numerically degenerate input)")
    bad = _nonextreme(local[ids], faces)
    hullids = sorted({v for f in faces for v in f} - set(bad))
    if not bad and (maxvert < 0 or len(hullids) == len(ids)):
      break
    ids = ids[hullids]
    maxvert = -1
  return ids[np.array(faces, dtype=np.int64).reshape(-1, 3)].astype(np.int32)


def make_graph(hull_face) -> np.ndarray:
  """Hull graph in m.mesh_graph layout (as mjCMesh::MakeGraph builds from qhull).

  Layout: numvert, numface, vert_edgeadr[numvert], vert_globalid[numvert],
  edge_localid[numvert + 3*numface] (neighbors of each hull vertex as local ids, each list ended
  by -1), face_globalid[3*numface] (outward triangles as mesh vertex ids). Hull vertices are in
  increasing mesh vertex id; neighbors are listed in cyclic order around each vertex, from the
  lowest: the corner (u, v, w) of a triangle makes w follow v around u.

  Vectorized (all vertices walk their rings at once; hulls of large meshes have thousands of
  triangles, ~40 ms in dicts); tests/engine/test_compiler_speed_parity.py keeps the dict form.
  """
  hf = np.asarray(hull_face, dtype=np.int64).reshape(-1, 3)
  gids = _unique(hf.ravel())
  numvert, numface = len(gids), len(hf)
  # corners (u, v, w), sorted by (u, v): each vertex's ring is a run, its first v the lowest
  u = hf.ravel()
  v = hf[:, [1, 2, 0]].ravel()
  w = hf[:, [2, 0, 1]].ravel()
  width = int(hf.max(initial=0)) + 1
  key = u * width + v
  order = np.argsort(key, kind="stable")
  key, u, v, w = key[order], u[order], v[order], w[order]
  # a repeated (u, v) keeps its last w, as a dict would (a valid hull has none)
  last = np.r_[key[1:] != key[:-1], True]
  key, u, v, w = key[last], u[last], v[last], w[last]
  succ = np.searchsorted(key, u * width + w)  # the corner whose v is this corner's w
  succ = np.minimum(succ, len(key) - 1)
  succ = np.where(key[succ] == u * width + w, succ, -1)
  start = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
  degree = np.diff(np.r_[start, len(u)])
  local = np.searchsorted(gids, v)
  # walk every ring at once: step k lists the k-th neighbor of the vertices still walking
  steps = []
  cur = start.copy()
  walking = np.arange(len(start))
  k = 0
  while len(walking):
    steps.append((walking, np.full(len(walking), k), local[cur]))
    nxt = succ[cur]
    k += 1
    keep = (k < degree[walking]) & (nxt >= 0)
    keep[keep] = v[nxt[keep]] != v[start[walking[keep]]]
    walking, cur = walking[keep], nxt[keep]
  ring = np.concatenate([s[0] for s in steps]) if steps else np.zeros(0, np.int64)
  pos = np.concatenate([s[1] for s in steps]) if steps else np.zeros(0, np.int64)
  ids = np.concatenate([s[2] for s in steps]) if steps else np.zeros(0, np.int64)
  length = np.bincount(ring, minlength=numvert) + 1  # each list ended by -1
  edgeadr = np.cumsum(length) - length
  edges = np.full(int(length.sum()), -1, np.int64)
  edges[edgeadr[ring] + pos] = ids
  return np.concatenate([[numvert, numface], edgeadr, gids, edges, hf.ravel()]).astype(np.int32)


def hull_extrema(vert, graph) -> np.ndarray:
  """Extreme hull vertices along 27 directions (m.mesh_extrema), as local graph vertex ids.

  Entry 9*(dx+1) + 3*(dy+1) + (dz+1) holds the hull vertex maximizing dot(v, (dx, dy, dz)) for
  dx, dy, dz in {-1, 0, 1}; ties go to the lowest local id (the zero direction gives 0). All
  zeros without a hull, as MuJoCo.
  """
  out = np.zeros(27, dtype=np.int32)
  if graph is None:
    return out
  nv = int(graph[0])
  gid = np.asarray(graph[2 + nv : 2 + 2 * nv], dtype=np.int64)
  pts = np.asarray(vert, dtype=np.float64)[gid]
  dirs = np.array(
    [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)], dtype=np.float64
  )
  out[:] = np.argmax(pts @ dirs.T, axis=0)
  out[13] = 0
  return out


# ------------------------------------------------------------------------------------ polygons

# angular bucket (radians) of the hull-triangle normals merged into one polygon
_POLY_ANGLE_TOL = 0.01


def _cround(x):
  """C's round(): halves away from zero."""
  ax = abs(x)
  r = math.floor(ax)
  if ax - r >= 0.5:
    r += 1.0
  return math.copysign(r, x)


def _polygon_key(a, b, c):
  """Port of MeshPolygonKey: the (azimuth, polar) bucket of triangle (a, b, c)'s normal, or None
  for a degenerate triangle. Near the poles the azimuth is meaningless and set to 0."""
  d0, d1, d2 = b[0] - a[0], b[1] - a[1], b[2] - a[2]
  e0, e1, e2 = c[0] - a[0], c[1] - a[1], c[2] - a[2]
  n0 = d1 * e2 - d2 * e1
  n1 = d2 * e0 - d0 * e2
  n2 = d0 * e1 - d1 * e0
  norm = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
  if norm < mjMINVAL:
    return None
  # + 0.0 turns -0.0 into +0.0 (atan2 depends on the sign of zero)
  n0 = n0 / norm + 0.0
  n1 = n1 / norm + 0.0
  n2 = n2 / norm + 0.0
  if abs(n2) > 1.0 - 1e-7:
    return (0.0, _cround(math.pi / _POLY_ANGLE_TOL) if n2 < 0 else 0.0)
  return (_cround(math.atan2(n1, n0) / _POLY_ANGLE_TOL), _cround(math.acos(n2) / _POLY_ANGLE_TOL))


class _Polygon:
  """Port of MeshPolygon: the boundary edges of a group of same-bucket triangles, split into
  islands (connected components) that merge when a later triangle joins them."""

  def __init__(self, a, b, c):
    self.edges = [(a, b), (b, c), (c, a)]
    self.islands = [0, 0, 0]
    self.nisland = 1

  def _take(self, first, second):
    """Remove the edge (first, second) if present; its island, or None."""
    for i, e in enumerate(self.edges):
      if e[0] == first and e[1] == second:
        del self.edges[i]
        return self.islands.pop(i)
    return None

  def _combine(self, island1, island2):
    """CombineIslands: relabel island2 as island1 (the smaller) and close the numbering gap."""
    if island2 < island1:
      island1, island2 = island2, island1
    for k, s in enumerate(self.islands):
      if s == island2:
        self.islands[k] = island1
      elif s > island2:
        self.islands[k] = s - 1
    return island1

  def insert_face(self, v1, v2, v3):
    """InsertFace: a shared (reversed) edge cancels; new edges join the touched island."""
    island = -1
    add = []
    for a, b in ((v1, v2), (v2, v3), (v3, v1)):
      s = self._take(b, a)
      if s is None:
        add.append((a, b))
        continue
      if island == -1:
        island = s
      elif s != island:
        # MuJoCo keeps the island of the first shared edge in its variable (possibly renumbered)
        self.nisland -= 1
        island = self._combine(island, s)
    if island == -1:
      island = self.nisland
      self.nisland += 1
    for e in add:
      self.edges.append(e)
      self.islands.append(island)

  def paths(self):
    """Paths: each island's boundary as a vertex cycle, started at its first edge."""
    edges, islands = self.edges, self.islands
    if len(edges) == 3:
      return [[edges[0][0], edges[1][0], edges[2][0]]]
    paths = []
    for i in range(self.nisland):
      path = []
      for j, e in enumerate(edges):
        if islands[j] == i:
          path = [e[0], e[1]]
          break
      if not path:
        continue
      nxt = path[-1]
      for _ in range(len(edges)):
        finished = False
        # MuJoCo scans from edge 1, as written in MeshPolygon::Paths
        for k in range(1, len(edges)):
          if islands[k] == i and edges[k][0] == nxt:
            nxt = edges[k][1]
            if nxt == path[0]:
              paths.append(path)
              finished = True
            else:
              path.append(nxt)
            break
        if finished:
          break
    return paths


def _hash_double(x):
  """std::hash<double> of libc++ (MuJoCo's wheels): the bit pattern, 0 for +-0."""
  if x == 0.0:
    return 0
  return struct.unpack("<Q", struct.pack("<d", x))[0]


def _is_prime(n):
  if n < 2:
    return False
  i = 2
  while i * i <= n:
    if n % i == 0:
      return False
    i += 1
  return True


def _bucket(h, count):
  """libc++ __constrain_hash: mask for power-of-two bucket counts, modulo otherwise."""
  if count & (count - 1) == 0:
    return h & (count - 1)
  return h % count


class _HashOrder:
  """Iteration order of a libc++ std::unordered_map with unique keys, max_load_factor 1.

  MakePolygons lists the polygons in the iteration order of an unordered_map keyed by the
  normal bucket; this replays libc++'s insertion (new bucket: list front; known bucket: front
  of its run) and rehash (walk the list, splice each node to the front of its bucket's run).
  The list is kept as runs of equal-bucket keys.
  """

  def __init__(self):
    self.count = 0
    self.runs = []  # [bucket, [keys]] in list order
    self.where = {}  # bucket -> its run
    self.size = 0
    self.hash = {}

  def _rehash(self, n):
    if n == 1:
      n = 2
    elif n & (n - 1):
      while not _is_prime(n):
        n += 1
    if n <= self.count:
      return
    self.count = n
    runs, where = [], {}
    for _, keys in self.runs:
      for key in keys:
        b = _bucket(self.hash[key], n)
        if runs and runs[-1][0] == b:
          runs[-1][1].append(key)
        elif b in where:
          where[b][1].insert(0, key)
        else:
          where[b] = [b, [key]]
          runs.append(where[b])
    self.runs = runs
    self.where = where

  def insert(self, key):
    """Insert a key not yet in the map."""
    self.hash[key] = _hash_double(key[0]) ^ _hash_double(key[1])
    if self.size + 1 > self.count:
      pow2 = self.count > 2 and self.count & (self.count - 1) == 0
      self._rehash(max(2 * self.count + (0 if pow2 else 1), self.size + 1))
    b = _bucket(self.hash[key], self.count)
    if b in self.where:
      self.where[b][1].insert(0, key)
    else:
      self.where[b] = [b, [key]]
      self.runs.insert(0, self.where[b])
    self.size += 1

  def keys(self):
    return [k for _, keys in self.runs for k in keys]


def _polygon_normal(vert, path):
  """Unit normal of a polygon by Newell's method (sum over its edges), as MuJoCo 3.17: for a
  merged, slightly non-planar polygon it is the best-fit plane's normal."""
  n0 = n1 = n2 = 0.0
  k = len(path)
  for i in range(k):
    a = vert[path[i]]
    b = vert[path[(i + 1) % k]]
    n0 += (a[1] - b[1]) * (a[2] + b[2])
    n1 += (a[2] - b[2]) * (a[0] + b[0])
    n2 += (a[0] - b[0]) * (a[1] + b[1])
  nrm = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
  if nrm < mjEPS:
    return (1.0, 0.0, 0.0)
  return (n0 / nrm, n1 / nrm, n2 / nrm)


def make_polygons(raw_vert, hull_face, vert, mirror=False):
  """Port of mjCMesh::MakePolygons and MakePolygonNormals: merge the hull triangles into polygons.

  Triangles whose normals fall in the same 0.01 rad (azimuth, polar) bucket form one group; a
  group's triangles sharing edges merge, and each connected island becomes a polygon (vertex
  cycle, counterclockwise about its outward normal). Grouping uses the vertices as given
  (before refpos/refquat/scale), as MuJoCo; a mirroring scale reverses each cycle (keeping its
  first vertex). Polygon normals are then recomputed from the first three cycle vertices in the
  final mesh frame.

  Args:
    raw_vert: (n, 3) vertices before the reference transform and scale.
    hull_face: (k, 3) hull triangles (m.mesh_graph order), outward in the final frame.
    vert: (n, 3) final (mesh-frame) vertices.
    mirror: the scale mirrors the mesh (negative product).

  Returns:
    (polygons: list of vertex-id lists, normals: (npoly, 3) float64, polymap: list per vertex of
    the polygon ids containing it, ascending).
  """
  raw = np.asarray(raw_vert, dtype=np.float64).reshape(-1, 3).tolist()
  hf = np.asarray(hull_face, dtype=np.int64).reshape(-1, 3)
  if mirror:
    hf = hf[:, [0, 2, 1]]
  groups, order = {}, _HashOrder()
  for a, b, c in hf.tolist():
    key = _polygon_key(raw[a], raw[b], raw[c])
    if key is None:
      continue
    if key in groups:
      groups[key].insert_face(a, b, c)
    else:
      groups[key] = _Polygon(a, b, c)
      order.insert(key)
  polygons = []
  for key in order.keys():
    for path in groups[key].paths():
      if len(path) >= 3:
        polygons.append(path)
  if mirror:
    polygons = [[p[0]] + p[:0:-1] for p in polygons]
  fv = np.asarray(vert, dtype=np.float64).reshape(-1, 3).tolist()
  normals = np.array([_polygon_normal(fv, p) for p in polygons], dtype=np.float64).reshape(-1, 3)
  polymap = [[] for _ in range(len(raw))]
  for i, p in enumerate(polygons):
    for v in p:
      polymap[v].append(i)
  return polygons, normals, polymap


# ---------------------------------------------------------------------------------- processing


def _face_centroid(v, f):
  """Port of mjCMesh::ComputeFaceCentroid: area-weighted centroid of the faces, total area."""
  area, _, center = _triangles(v, f)
  total = float(_seqsum(area))
  facecen = _seqsum(area[:, None] * center)
  if total >= mjMINVAL:
    facecen = facecen / total
  return facecen, total


def _volume_com(v, f, facecen, legacy):
  """Port of mjCMesh::ComputeVolume: signed pyramid volumes from facecen, and their centroid."""
  area, normal, center = _triangles(v, f)
  vol = _dot3(center - facecen, normal) * area / 3
  if legacy:
    vol = np.abs(vol)
  total = float(_seqsum(vol))
  com = _seqsum(vol[:, None] * (center * 3.0 / 4.0 + facecen / 4.0))
  if total >= mjMINVAL:
    com = com / total
  return total, com


def _surface_com(v, f, facecen):
  """Port of mjCMesh::ComputeSurfaceArea: surface area and area centroid (as MuJoCo weighs it)."""
  area, _, center = _triangles(v, f)
  total = float(_seqsum(area))
  com = _seqsum(area[:, None] * (center * 3.0 / 4.0 + facecen / 4.0))
  if total >= mjMINVAL:
    com = com / total
  return total, com


def _inertia(v, f, com, mode):
  """Port of mjCMesh::ComputeInertia: inertia tensor (xx, yy, zz, xy, xz, yz) about com."""
  vc = v - com
  d, e, g = vc[f[:, 0]], vc[f[:, 1]], vc[f[:, 2]]
  area, normal, center = _triangles(vc, f)
  if mode == "shell":
    vol = area
  else:
    vol = _dot3(center, normal) * area / 3
  if mode == "legacy":
    vol = np.abs(vol)
  total = float(_seqsum(vol))
  cnum = 12 if mode == "shell" else 20
  p = np.zeros(6)
  for j, (k0, k1) in enumerate(((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))):
    s = (
      2 * (d[:, k0] * d[:, k1] + e[:, k0] * e[:, k1] + g[:, k0] * g[:, k1])
      + d[:, k0] * e[:, k1]
      + d[:, k1] * e[:, k0]
      + d[:, k0] * g[:, k1]
      + d[:, k1] * g[:, k0]
      + e[:, k0] * g[:, k1]
      + e[:, k1] * g[:, k0]
    )
    p[j] = float(_seqsum(vol / cnum * s))
  inert = np.array([p[1] + p[2], p[0] + p[2], p[0] + p[1], -p[3], -p[4], -p[5]])
  return inert, total


def _make_normal(v, f, smoothnormal):
  """Port of mjCMesh::MakeNormal: area-weighted vertex normals (float32), sharp edges removed."""
  a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
  nrm = np.cross(b - a, c - a)
  area = np.sqrt(np.einsum("ij,ij->i", nrm, nrm))
  unit = np.where((area * area >= mjEPS)[:, None], nrm / np.where(area > 0, area, 1)[:, None], nrm)
  area = np.where(area * area >= mjEPS, area, 0.0)
  contrib = unit * area[:, None]
  normal = np.zeros_like(v)
  for j in range(3):
    np.add.at(normal, f[:, j], contrib)
  if not smoothnormal:
    vn = normal / np.maximum(np.linalg.norm(normal, axis=1), 1e-300)[:, None]
    vn = np.where((np.einsum("ij,ij->i", normal, normal) >= mjEPS)[:, None], vn, normal)
    remove = np.zeros_like(v)
    for j in range(3):
      dot = np.einsum("ij,ij->i", unit, vn[f[:, j]])
      sel = dot < 0.8
      np.add.at(remove, f[sel, j], contrib[sel])
    normal = normal - remove
  normal = normal.astype(np.float32)
  length = np.sqrt(np.einsum("ij,ij->i", normal, normal))
  ok = length > mjMINVAL
  out = np.zeros_like(normal)
  out[ok] = normal[ok] / length[ok, None]
  out[~ok] = (0, 0, 1)
  return out


def _check_faces(vert, face):
  """Part of mjCMesh::CheckInitialMesh: vertex count and face indices."""
  if len(vert) < 4:
    raise ValueError("at least 4 vertices required")
  bad = np.nonzero((face.ravel() < 0) | (face.ravel() >= len(vert)))[0]
  if len(bad):
    i = int(bad[0])
    raise ValueError(f"in face {i // 3}, vertex index {int(face.ravel()[i])} does not exist")


def _check_orientation(vert, face):
  """Port of the half-edge check in mjCMesh::Process: a repeated directed edge is an error."""
  area, _, _ = _triangles(vert, face)
  f = face[area > math.sqrt(mjMINVAL)].astype(np.int64)
  he = np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]])
  if len(he) == 0:
    return
  key = he[:, 0] * (int(he.max()) + 1) + he[:, 1]
  uniq, counts = np.unique(key, return_counts=True)
  if np.any(counts > 1):
    # report the smallest repeated edge, as MuJoCo's sorted adjacent_find
    k = int(uniq[np.argmax(counts > 1)])
    v0, v1 = divmod(k, int(he.max()) + 1)
    raise ValueError(
      f"faces of mesh have inconsistent orientation. Please check the faces containing the "
      f"vertices {v0 + 1} and {v1 + 1}."
    )


def process_mesh(
  vert,
  face,
  scale=(1.0, 1.0, 1.0),
  inertia="legacy",
  refpos=None,
  refquat=None,
  maxhullvert=-1,
  needhull=False,
  normal=None,
  facenormal=None,
  texcoord=None,
  facetexcoord=None,
  smoothnormal=False,
  keep_frame=False,
) -> MeshInfo:
  """Port of mjCMesh::Process, user_mesh.cc: compile a mesh into MuJoCo's mesh frame.

  Steps: flip the winding if the scale mirrors; build the hull if needed; vertex normals; apply
  refpos/refquat (subtract, then rotate by the inverse of refquat) and scale; volume and centroid
  (pyramids from the face centroid: of the hull for "convex", of the faces otherwise, absolute
  volumes for "legacy", area for "shell"); inertia about the centroid; principal axes by
  mesh_eig3; then vertices (and normals) are translated by -pos and rotated by quat^-1.

  Args:
    vert: (n, 3) vertices (float32-rounded values, see read_mesh / mesh_from_arrays).
    face: (m, 3) triangles; may be empty, then the hull's triangles become the faces.
    scale: (3,) `<mesh scale>`.
    inertia: "legacy" (default), "exact", "convex" or "shell".
    refpos, refquat: `<mesh refpos/refquat>` (None: identity).
    maxhullvert: `<mesh maxhullvert>`, -1 for no limit.
    needhull: build the hull graph (a colliding geom uses this mesh).
    normal, facenormal, texcoord, facetexcoord: from the file (see decode_mesh), or None.
    smoothnormal: `<mesh smoothnormal>`.
    keep_frame: leave the vertices in the asset's frame (mesh_pos 0, mesh_quat identity), as
      MuJoCo does for meshes made from an SDF plugin, whose field is evaluated in that frame;
      the inertia is still the principal moments, reported in that frame unrotated (as MuJoCo).

  Returns:
    MeshInfo.

  Raises:
    ValueError: with MuJoCo's message for invalid meshes (too few vertices, bad indices,
      inconsistent orientation for "exact", zero/negative volume, invalid inertia).
  """
  if inertia not in INERTIA_TYPES:
    raise ValueError(f"invalid mesh inertia type '{inertia}'")
  scale = np.asarray(scale, dtype=np.float64).reshape(3)
  v = np.array(vert, dtype=np.float64).reshape(-1, 3)
  f = np.zeros((0, 3), np.int32) if face is None else np.array(face, np.int32).reshape(-1, 3)
  _check_faces(v, f)

  # flip winding when the scale mirrors the mesh
  mirror = scale[0] * scale[1] * scale[2] < 0
  v0, f0 = v, f
  if mirror and len(f):
    f = f[:, [0, 2, 1]]
    if facenormal is not None:
      facenormal = np.asarray(facenormal)[:, [0, 2, 1]]
    if facetexcoord is not None:
      facetexcoord = np.asarray(facetexcoord)[:, [0, 2, 1]]

  if inertia == "exact" and len(f):
    _check_orientation(v, f)

  # user offset, rotation, scaling of the vertices
  if refpos is not None and np.any(np.asarray(refpos) != 0):
    v = v - np.asarray(refpos, dtype=np.float64)
  rmat_t = None
  if refquat is not None and tuple(refquat) != (1, 0, 0, 0):
    q = [float(x) for x in refquat]
    _normvec(q)
    rmat = _quat2mat(q)
    rmat_t = [[rmat[j][i] for j in range(3)] for i in range(3)]
    v = _mulmat_rows(v, rmat_t)
  if np.any(scale != 1):
    v = v * scale

  # hull (of the transformed vertices, so it is outward-oriented in the final geometry)
  hull_face = graph = None
  if needhull or inertia == "convex" or len(f) == 0:
    hull_face = convex_hull(v, maxhullvert)
    graph = make_graph(hull_face)
  if len(f) == 0:
    f = hull_face.copy()
    f0 = f[:, [0, 2, 1]] if mirror else f

  # normals: from the file, or area-weighted vertex normals of the untransformed mesh
  if normal is None or len(normal) == 0:
    nrm = _make_normal(v0, f0, smoothnormal)
    facenormal = f.copy()
  else:
    nrm = np.asarray(normal, dtype=np.float32).reshape(-1, 3)
    if facenormal is None:
      facenormal = f.copy()
  nrm = _transform_normals(nrm, rmat_t, scale)
  facenormal = np.asarray(facenormal, dtype=np.int32).reshape(-1, 3)
  if len(facenormal) != len(f):
    raise ValueError("face data must have the same size as face normal data")
  if texcoord is not None and facetexcoord is None:
    facetexcoord = f.copy()

  # centroid of the faces (pyramid apex)
  facecen, area = _face_centroid(v, f)
  if area < mjMINVAL:
    raise ValueError("mesh surface area is too small")

  # volume or surface and centroid
  vf = hull_face if inertia == "convex" else f
  volume = surface = 0.0
  if inertia == "shell":
    surface, com = _surface_com(v, f, facecen)
    if surface < mjMINVAL:
      raise ValueError("mesh surface area is too small")
  else:
    volume, com = _volume_com(v, vf, facecen, inertia == "legacy")
    if volume < mjMINVAL:
      if volume < 0:
        raise ValueError("mesh volume is negative (misoriented triangles)")
      raise ValueError("mesh volume is too small. Try setting inertia to shell")

  # inertia about the centroid, principal axes
  inert, total = _inertia(v, f if inertia == "shell" else vf, com, inertia)
  if inertia == "shell":
    surface = total
  else:
    volume = total
  full = [
    [inert[0], inert[3], inert[4]],
    [inert[3], inert[1], inert[5]],
    [inert[4], inert[5], inert[2]],
  ]
  eigval, quat = mesh_eig3(full)
  if eigval[2] <= 0:
    raise ValueError("eigenvalue of mesh inertia must be positive")
  atol, rtol = 1e-9, 1e-6
  e0, e1, e2 = eigval
  if (
    e0 + e1 < e2 * (1 - rtol) - atol
    or e0 + e2 < e1 * (1 - rtol) - atol
    or e1 + e2 < e0 * (1 - rtol) - atol
  ):
    raise ValueError("eigenvalues of mesh inertia violate A + B >= C")
  vref = surface if inertia == "shell" else volume
  # C's sqrt: a flat mesh can round A + B - C below zero (within the tolerance above), which
  # gives MuJoCo a NaN half-size (and NaN geom inertia) rather than an error
  boxsz = np.array(
    [
      0.5 * _csqrt(6 * (e1 + e2 - e0) / vref),
      0.5 * _csqrt(6 * (e0 + e2 - e1) / vref),
      0.5 * _csqrt(6 * (e0 + e1 - e2) / vref),
    ]
  )

  # translate to the centroid, rotate into the principal axes
  if keep_frame:
    com, quat = np.zeros(3), np.array([1.0, 0.0, 0.0, 0.0])
  mat = _quat2mat([quat[0], -quat[1], -quat[2], -quat[3]])
  v = _mulmat_rows(v - com, mat)
  aamm = np.concatenate([np.minimum(v.min(axis=0), 1e10), np.maximum(v.max(axis=0), -1e10)])
  nrm = _mulmat_rows(nrm.astype(np.float64), mat).astype(np.float32)

  # hull polygons (MuJoCo groups the hull triangles before the transform, normals after it)
  if graph is not None:
    polygons, polynormal, polymap = make_polygons(v0, hull_face, v, mirror)
  else:
    polygons, polynormal, polymap = [], np.zeros((0, 3)), [[] for _ in range(len(v))]

  return MeshInfo(
    vert=v,
    face=f.astype(np.int32),
    normal=nrm,
    facenormal=facenormal,
    texcoord=None if texcoord is None else np.asarray(texcoord, dtype=np.float32),
    facetexcoord=None if facetexcoord is None else np.asarray(facetexcoord, dtype=np.int32),
    pos=np.asarray(com, dtype=np.float64),
    quat=quat,
    scale=scale,
    inertia_type=inertia,
    volume=volume,
    surface=surface,
    boxsz=boxsz,
    aamm=aamm,
    hull_face=hull_face,
    graph=graph,
    extrema=hull_extrema(v, graph),
    polygons=polygons,
    polynormal=polynormal,
    polymap=polymap,
  )


def _transform_normals(nrm, rmat_t, scale):
  """Normal part of the reference transform: rotate, divide by the scale, renormalize (float32).

  MuJoCo 3.17 maps normals by the inverse scale (the correct normal transform for a diagonal
  scale), which keeps them outward for mirroring scales too.
  """
  n = nrm.astype(np.float64)
  if rmat_t is not None:
    n = _mulmat_rows(n, rmat_t).astype(np.float32).astype(np.float64)
  if np.any(scale != 1):
    n = n / scale
  n32 = n.astype(np.float32)
  length = np.sqrt(np.einsum("ij,ij->i", n32, n32).astype(np.float32))
  ok = length > mjMINVAL
  out = np.zeros_like(n32)
  out[ok] = n32[ok] / length[ok, None]
  out[~ok] = (0, 0, 1)
  return out


# ------------------------------------------------------------------------------ geoms and fitting


def mesh_geom_inertia(info: MeshInfo, density=1000.0, mass=None):
  """Mass and diagonal inertia of a mesh geom, as mjCGeom::SetInertia (geom frame = mesh frame).

  Args:
    info: compiled mesh.
    density: geom density (ignored if mass is given).
    mass: geom mass, or None to use density * volume (surface area for shell meshes).

  Returns:
    (mass, inertia (3,)).
  """
  vref = info.volume_ref
  if mass is None:
    mass = density * vref
  b = info.boxsz
  inertia = np.array(
    [
      mass * (b[1] * b[1] + b[2] * b[2]) / 3,
      mass * (b[0] * b[0] + b[2] * b[2]) / 3,
      mass * (b[0] * b[0] + b[1] * b[1]) / 3,
    ]
  )
  return float(mass), inertia


def _geom_type(geom_type):
  if isinstance(geom_type, str):
    if geom_type not in _GEOM_TYPES:
      raise ValueError(f"invalid geom type '{geom_type}' in fitting mesh")
    return _GEOM_TYPES[geom_type]
  t = int(geom_type)
  if t not in _GEOM_TYPES.values():
    raise ValueError(f"invalid geom type {t} in fitting mesh")
  return t


def fit_offset(info: MeshInfo, fitaabb=False) -> np.ndarray:
  """Position of a fitted primitive in the frame of the geom that names the mesh.

  The fitted geom frame is the geom frame composed with (this pos, info.quat): the mesh centroid,
  plus, with fitaabb, the center of the mesh-frame bounding box rotated by info.quat.
  """
  pos = np.array(info.pos, dtype=np.float64)
  if fitaabb:
    a = info.aamm
    cen = [(a[0] + a[3]) / 2, (a[1] + a[4]) / 2, (a[2] + a[5]) / 2]
    pos += _mulmat_rows(np.array([cen]), _quat2mat(list(info.quat)))[0]
  return pos


def fit_primitive(info: MeshInfo, geom_type, fitscale=1.0, fitaabb=False) -> np.ndarray:
  """Size of a primitive geom fitted to a mesh (mjCMesh::FitGeom, as MuJoCo 3.17 behaves).

  Without fitaabb the primitive matches the mesh's equivalent-inertia box (half-sizes b):
  sphere r = mean(b); capsule r = (b0 + b1) / 2, half-length max(0, b2 - r / 2); cylinder
  r = (b0 + b1) / 2, half-length b2; box and ellipsoid b. With fitaabb it encloses the mesh-frame
  bounding box (half-sizes h): sphere r = max(h); capsule r = max(h0, h1), half-length
  max(0, h2 - r); cylinder r = max(h0, h1), half-length h2; box and ellipsoid h.

  Args:
    info: compiled mesh.
    geom_type: "sphere", "capsule", "cylinder", "ellipsoid", "box" or the mjtGeom value.
    fitscale: `<geom fitscale>`, multiplies the result.
    fitaabb: `<compiler fitaabb>`.

  Returns:
    size (3,) (unused entries 0).
  """
  t = _geom_type(geom_type)
  size = np.zeros(3)
  if not fitaabb:
    b = info.boxsz
    if t == mjGEOM_SPHERE:
      size[0] = (b[0] + b[1] + b[2]) / 3
    elif t == mjGEOM_CAPSULE:
      size[0] = (b[0] + b[1]) / 2
      size[1] = max(0.0, b[2] - size[0] / 2)
    elif t == mjGEOM_CYLINDER:
      size[0] = (b[0] + b[1]) / 2
      size[1] = b[2]
    else:
      size[:] = b
  else:
    a = info.aamm
    h = [(a[3] - a[0]) / 2, (a[4] - a[1]) / 2, (a[5] - a[2]) / 2]
    if t == mjGEOM_SPHERE:
      size[0] = max(h)
    elif t == mjGEOM_CAPSULE:
      size[0] = max(h[0], h[1])
      size[1] = max(0.0, h[2] - size[0])
    elif t == mjGEOM_CYLINDER:
      size[0] = max(h[0], h[1])
      size[1] = h[2]
    else:
      size[:] = h
  return size * fitscale


def mesh_geom_size(info: MeshInfo) -> np.ndarray:
  """geom_size of a mesh geom: per-axis max |coordinate| of the mesh-frame bounding box."""
  a = info.aamm
  return np.maximum(np.abs(a[:3]), np.abs(a[3:]))


def mesh_geom_aabb(info: MeshInfo) -> np.ndarray:
  """geom_aabb of a mesh geom: (center (3,), half-size (3,)) of the mesh-frame bounding box."""
  a = info.aamm
  return np.array(
    [
      (a[3] + a[0]) / 2,
      (a[4] + a[1]) / 2,
      (a[5] + a[2]) / 2,
      (a[3] - a[0]) / 2,
      (a[4] - a[1]) / 2,
      (a[5] - a[2]) / 2,
    ]
  )


def mesh_rbound(info: MeshInfo) -> float:
  """geom_rbound of a mesh geom (mjCGeom::GetRBound)."""
  return float(np.linalg.norm(mesh_geom_size(info)))
