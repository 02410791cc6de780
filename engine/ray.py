"""Ray casting against geoms (port of engine_ray.c, MuJoCo 3.17).

A ray is `pnt + x*vec` for x >= 0; every function returns the smallest such x at which the ray
meets a surface, or -1 when it meets none (distances are in units of |vec|). The `_normal`
variants also write the unit surface normal at the hit into `normal` (zeros on a miss), as the
`normal` argument of MuJoCo 3.17's ray functions does.

Kernels allocate nothing: internal helpers take the ray point and direction as 3-tuples (one
compiled signature whatever the caller's arrays) and return `(x, n0, n1, n2)`.

Meshes are intersected triangle by triangle; MuJoCo walks its bounding-volume tree, which only
skips triangles the ray cannot meet, so distances agree (where the ray crosses an edge shared by
two triangles at the same distance, the reported normal may be the other triangle's). SDF geoms
are not supported (-1).

Kernels skip invisible geoms (alpha 0) themselves; mj_ray's geomgroup filter reaches them as a
per-geom mask (`geom_mask`).
"""

import math

import numpy as np

from engine._jit import always_inline
from engine._jit import jit
from engine._stage import D
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import ivec
from engine._stage import stage
from engine._stage import vec
from engine.collision import sdf
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_PLANE
from engine.enums import mjGEOM_SDF
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjMAXVAL
from engine.enums import mjMINVAL
from engine.enums import mjNGROUP
from engine.enums import mjPROJ_ORTHOGRAPHIC
from engine.math import normalize3_scalars

# ---- small tuple helpers ----


@jit
def _t3(a):
  """A 3-vector as a tuple (internal helpers take ray points and directions as tuples)."""
  return a[0], a[1], a[2]


@jit
def _ray_map(pos, mat, pnt, vec):
  """Port of ray_map: ray point and direction in the frame (pos, mat), as a 6-tuple."""
  d0 = pnt[0] - pos[0]
  d1 = pnt[1] - pos[1]
  d2 = pnt[2] - pos[2]
  return (
    mat[0] * d0 + mat[3] * d1 + mat[6] * d2,
    mat[1] * d0 + mat[4] * d1 + mat[7] * d2,
    mat[2] * d0 + mat[5] * d1 + mat[8] * d2,
    mat[0] * vec[0] + mat[3] * vec[1] + mat[6] * vec[2],
    mat[1] * vec[0] + mat[4] * vec[1] + mat[7] * vec[2],
    mat[2] * vec[0] + mat[5] * vec[1] + mat[8] * vec[2],
  )


@jit
def _mat_vec(mat, x, y, z):
  """mat * (x, y, z) for a 3x3 row-major mat (mju_mulMatVec3), as a 3-tuple."""
  return (
    mat[0] * x + mat[1] * y + mat[2] * z,
    mat[3] * x + mat[4] * y + mat[5] * z,
    mat[6] * x + mat[7] * y + mat[8] * z,
  )


@jit
def _normalize(x, y, z):
  """mju_normalize3 on a 3-tuple: unit vector, (1, 0, 0) below mjMINVAL."""
  norm = math.sqrt(x * x + y * y + z * z)
  if norm < mjMINVAL:
    return 1.0, 0.0, 0.0
  inv = 1 / norm
  return x * inv, y * inv, z * inv


@jit
def _ray_quad(a, b, c):
  """Port of ray_quad: roots of a*x^2 + 2*b*x + c = 0 as (smallest root >= 0 or -1, x0, x1).

  Both roots are -1 without real finite roots (negative determinant or a < mjMINVAL).
  """
  det = b * b - a * c
  if det < 0 or a < mjMINVAL:
    return -1.0, -1.0, -1.0
  det = math.sqrt(det)
  x0 = (-b - det) / a
  x1 = (-b + det) / a
  if x0 >= 0:
    return x0, x0, x1
  if x1 >= 0:
    return x1, x0, x1
  return -1.0, x0, x1


@jit
def _ray_triangle(v0, v1, v2, lpnt, lvec, b0, b1):
  """Port of ray_triangle: (x, unit normal) of the ray and a triangle (3-tuples), x = -1 if
  the ray misses; b0, b1 span the plane normal to lvec."""
  # vertices relative to the ray point, projected on the normal plane
  d00, d01, d02 = v0[0] - lpnt[0], v0[1] - lpnt[1], v0[2] - lpnt[2]
  d10, d11, d12 = v1[0] - lpnt[0], v1[1] - lpnt[1], v1[2] - lpnt[2]
  d20, d21, d22 = v2[0] - lpnt[0], v2[1] - lpnt[1], v2[2] - lpnt[2]
  p00 = b0[0] * d00 + b0[1] * d01 + b0[2] * d02
  p01 = b1[0] * d00 + b1[1] * d01 + b1[2] * d02
  p10 = b0[0] * d10 + b0[1] * d11 + b0[2] * d12
  p11 = b1[0] * d10 + b1[1] * d11 + b1[2] * d12
  p20 = b0[0] * d20 + b0[1] * d21 + b0[2] * d22
  p21 = b1[0] * d20 + b1[1] * d21 + b1[2] * d22

  # reject if all on the same side of a coordinate axis
  if (
    (p00 > 0 and p10 > 0 and p20 > 0)
    or (p00 < 0 and p10 < 0 and p20 < 0)
    or (p01 > 0 and p11 > 0 and p21 > 0)
    or (p01 < 0 and p11 < 0 and p21 < 0)
  ):
    return -1.0, 0.0, 0.0, 0.0

  # barycentric coordinates of the origin: A*t = -p2, A = (p0-p2, p1-p2)
  a0 = p00 - p20
  a1 = p10 - p20
  a2 = p01 - p21
  a3 = p11 - p21
  bb0 = -p20
  bb1 = -p21
  det = a0 * a3 - a1 * a2
  if abs(det) < mjMINVAL:
    return -1.0, 0.0, 0.0, 0.0
  t0 = (a3 * bb0 - a1 * bb1) / det
  t1 = (-a2 * bb0 + a0 * bb1) / det
  if t0 < 0 or t1 < 0 or t0 + t1 > 1:
    return -1.0, 0.0, 0.0, 0.0

  # intersect with the triangle's plane
  e00, e01, e02 = v0[0] - v2[0], v0[1] - v2[1], v0[2] - v2[2]
  e10, e11, e12 = v1[0] - v2[0], v1[1] - v2[1], v1[2] - v2[2]
  e20, e21, e22 = lpnt[0] - v2[0], lpnt[1] - v2[1], lpnt[2] - v2[2]
  n0 = e01 * e12 - e02 * e11
  n1 = e02 * e10 - e00 * e12
  n2 = e00 * e11 - e01 * e10
  denom = lvec[0] * n0 + lvec[1] * n1 + lvec[2] * n2
  if abs(denom) < mjMINVAL:
    return -1.0, 0.0, 0.0, 0.0
  x = -(e20 * n0 + e21 * n1 + e22 * n2) / denom
  n0, n1, n2 = _normalize(n0, n1, n2)
  return x, n0, n1, n2


@jit
def _normal_basis(lvec):
  """Orthonormal basis (b0, b1) of the plane normal to lvec, as ray_triangle expects."""
  c0, c1, c2 = 1.0, 1.0, 1.0
  if abs(lvec[0]) >= abs(lvec[1]) and abs(lvec[0]) >= abs(lvec[2]):
    c0 = 0.0
  elif abs(lvec[1]) >= abs(lvec[2]):
    c1 = 0.0
  else:
    c2 = 0.0
  # b1 = c - lvec * (lvec.c)/(lvec.lvec); b0 = b1 x lvec
  s = -(lvec[0] * c0 + lvec[1] * c1 + lvec[2] * c2) / (
    lvec[0] * lvec[0] + lvec[1] * lvec[1] + lvec[2] * lvec[2]
  )
  b10, b11, b12 = _normalize(c0 + s * lvec[0], c1 + s * lvec[1], c2 + s * lvec[2])
  b00 = b11 * lvec[2] - b12 * lvec[1]
  b01 = b12 * lvec[0] - b10 * lvec[2]
  b02 = b10 * lvec[1] - b11 * lvec[0]
  b00, b01, b02 = _normalize(b00, b01, b02)
  return (b00, b01, b02), (b10, b11, b12)


# ---- primitives ----


@always_inline
@jit
def _ray_plane(pos, mat, size, pnt, vec):
  """Port of ray_plane: front face only, within the rendered rectangle when size > 0."""
  lp0, lp1, lp2, lv0, lv1, lv2 = _ray_map(pos, mat, pnt, vec)
  # ray not pointing at the front face
  if lv2 > -mjMINVAL:
    return -1.0, 0.0, 0.0, 0.0
  x = -lp2 / lv2
  if x < 0:
    return -1.0, 0.0, 0.0, 0.0
  p0 = lp0 + x * lv0
  p1 = lp1 + x * lv1
  if (size[0] <= 0 or abs(p0) <= size[0]) and (size[1] <= 0 or abs(p1) <= size[1]):
    return x, mat[2], mat[5], mat[8]
  return -1.0, 0.0, 0.0, 0.0


@always_inline
@jit
def _ray_sphere(p0, p1, p2, dist_sqr, pnt, vec):
  """Port of ray_sphere: sphere of squared radius dist_sqr centered at (p0, p1, p2)."""
  d0 = pnt[0] - p0
  d1 = pnt[1] - p1
  d2 = pnt[2] - p2
  a = vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]
  b = vec[0] * d0 + vec[1] * d1 + vec[2] * d2
  c = d0 * d0 + d1 * d1 + d2 * d2 - dist_sqr
  x, _, _ = _ray_quad(a, b, c)
  if x < 0:
    return -1.0, 0.0, 0.0, 0.0
  # normal at the surface point, global frame
  n0, n1, n2 = _normalize(
    pnt[0] + x * vec[0] - p0, pnt[1] + x * vec[1] - p1, pnt[2] + x * vec[2] - p2
  )
  return x, n0, n1, n2


@always_inline
@jit
def _ray_capsule(pos, mat, size, pnt, vec):
  """Port of ray_capsule: cylinder side between the caps, then the two half spheres."""
  # bounding sphere
  ssz = size[0] + size[1]
  if _ray_sphere(pos[0], pos[1], pos[2], ssz * ssz, pnt, vec)[0] < 0:
    return -1.0, 0.0, 0.0, 0.0
  lp0, lp1, lp2, lv0, lv1, lv2 = _ray_map(pos, mat, pnt, vec)
  x = -1.0
  kind = 0  # -1: bottom cap, 0: side, 1: top cap

  # cylinder side, between the flat ends
  a = lv0 * lv0 + lv1 * lv1
  b = lv0 * lp0 + lv1 * lp1
  c = lp0 * lp0 + lp1 * lp1 - size[0] * size[0]
  sol, _, _ = _ray_quad(a, b, c)
  if sol >= 0 and abs(lp2 + sol * lv2) <= size[1]:
    x = sol

  # top cap: upper half sphere
  a = lv0 * lv0 + lv1 * lv1 + lv2 * lv2
  l2 = lp2 - size[1]
  b = lv0 * lp0 + lv1 * lp1 + lv2 * l2
  c = lp0 * lp0 + lp1 * lp1 + l2 * l2 - size[0] * size[0]
  _, x0, x1 = _ray_quad(a, b, c)
  if x0 >= 0 and lp2 + x0 * lv2 >= size[1] and (x < 0 or x0 < x):
    x = x0
    kind = 1
  if x1 >= 0 and lp2 + x1 * lv2 >= size[1] and (x < 0 or x1 < x):
    x = x1
    kind = 1

  # bottom cap: lower half sphere
  l2 = lp2 + size[1]
  b = lv0 * lp0 + lv1 * lp1 + lv2 * l2
  c = lp0 * lp0 + lp1 * lp1 + l2 * l2 - size[0] * size[0]
  _, x0, x1 = _ray_quad(a, b, c)
  if x0 >= 0 and lp2 + x0 * lv2 <= -size[1] and (x < 0 or x0 < x):
    x = x0
    kind = -1
  if x1 >= 0 and lp2 + x1 * lv2 <= -size[1] and (x < 0 or x1 < x):
    x = x1
    kind = -1

  if x < 0:
    return -1.0, 0.0, 0.0, 0.0
  # local normal, rotated to the global frame
  nz = 0.0 if kind == 0 else lp2 + lv2 * x - size[1] * kind
  n0, n1, n2 = _normalize(lp0 + lv0 * x, lp1 + lv1 * x, nz)
  n0, n1, n2 = _mat_vec(mat, n0, n1, n2)
  return x, n0, n1, n2


@always_inline
@jit
def _ray_ellipsoid(pos, mat, size, pnt, vec):
  """Port of ray_ellipsoid: quadric with semi-axes size in the geom frame."""
  lp0, lp1, lp2, lv0, lv1, lv2 = _ray_map(pos, mat, pnt, vec)
  s0 = 1 / (size[0] * size[0])
  s1 = 1 / (size[1] * size[1])
  s2 = 1 / (size[2] * size[2])
  a = s0 * lv0 * lv0 + s1 * lv1 * lv1 + s2 * lv2 * lv2
  b = s0 * lv0 * lp0 + s1 * lv1 * lp1 + s2 * lv2 * lp2
  c = s0 * lp0 * lp0 + s1 * lp1 * lp1 + s2 * lp2 * lp2 - 1
  x, _, _ = _ray_quad(a, b, c)
  if x < 0:
    return -1.0, 0.0, 0.0, 0.0
  # gradient of the quadric at the surface point
  n0, n1, n2 = _normalize(s0 * (lp0 + x * lv0), s1 * (lp1 + x * lv1), s2 * (lp2 + x * lv2))
  n0, n1, n2 = _mat_vec(mat, n0, n1, n2)
  return x, n0, n1, n2


@always_inline
@jit
def _ray_cylinder(pos, mat, size, pnt, vec):
  """Port of ray_cylinder: the two flat ends, then the round side."""
  # bounding sphere
  ssz = size[0] * size[0] + size[1] * size[1]
  if _ray_sphere(pos[0], pos[1], pos[2], ssz, pnt, vec)[0] < 0:
    return -1.0, 0.0, 0.0, 0.0
  lp0, lp1, lp2, lv0, lv1, lv2 = _ray_map(pos, mat, pnt, vec)
  x = -1.0
  kind = 0  # -1: bottom, 0: round side, 1: top

  # flat ends, within the radius
  if abs(lv2) > mjMINVAL:
    for side in (-1, 1):
      sol = (side * size[1] - lp2) / lv2
      if sol >= 0:
        p0 = lp0 + sol * lv0
        p1 = lp1 + sol * lv1
        if p0 * p0 + p1 * p1 <= size[0] * size[0] and (x < 0 or sol < x):
          x = sol
          kind = side

  # round side, between the flat ends
  a = lv0 * lv0 + lv1 * lv1
  b = lv0 * lp0 + lv1 * lp1
  c = lp0 * lp0 + lp1 * lp1 - size[0] * size[0]
  sol, _, _ = _ray_quad(a, b, c)
  if sol >= 0 and abs(lp2 + sol * lv2) <= size[1] and (x < 0 or sol < x):
    x = sol
    kind = 0

  if x < 0:
    return -1.0, 0.0, 0.0, 0.0
  if kind == 0:
    n0, n1, n2 = _normalize(lp0 + lv0 * x, lp1 + lv1 * x, 0.0)
  else:
    n0, n1, n2 = 0.0, 0.0, float(kind)
  n0, n1, n2 = _mat_vec(mat, n0, n1, n2)
  return x, n0, n1, n2


@jit
def _ray_box(p0, p1, p2, mat, s0, s1, s2, pnt, vec):
  """Port of ray_box: box at (p0, p1, p2) with half sizes (s0, s1, s2).

  Returns (x, n0, n1, n2, all0, ..., all5) where all[2*i + (side+1)/2] is the hit distance on
  the face normal to local axis i at side -1/+1 (-1 if that face is not hit).
  """
  a0 = a1 = a2 = a3 = a4 = a5 = -1.0

  # bounding sphere
  ssz = s0 * s0 + s1 * s1 + s2 * s2
  if _ray_sphere(p0, p1, p2, ssz, pnt, vec)[0] < 0:
    return -1.0, 0.0, 0.0, 0.0, a0, a1, a2, a3, a4, a5
  pos = (p0, p1, p2)
  size = (s0, s1, s2)
  lp = _ray_map(pos, mat, pnt, vec)
  x = -1.0
  face_axis = -1
  face_side = 0

  # faces of the axes the ray is not parallel to
  for i in range(3):
    lvi = lp[3 + i]
    if abs(lvi) > mjMINVAL:
      # the two other axes span the face
      j = 1 if i == 0 else 0
      k = 1 if i == 2 else 2
      for side in (-1, 1):
        sol = (side * size[i] - lp[i]) / lvi
        if sol >= 0:
          q0 = lp[j] + sol * lp[3 + j]
          q1 = lp[k] + sol * lp[3 + k]
          if abs(q0) <= size[j] and abs(q1) <= size[k]:
            if x < 0 or sol < x:
              x = sol
              face_axis = i
              face_side = side
            slot = 2 * i + (side + 1) // 2
            if slot == 0:
              a0 = sol
            elif slot == 1:
              a1 = sol
            elif slot == 2:
              a2 = sol
            elif slot == 3:
              a3 = sol
            elif slot == 4:
              a4 = sol
            else:
              a5 = sol

  if x < 0:
    return -1.0, 0.0, 0.0, 0.0, a0, a1, a2, a3, a4, a5
  # face normal: the face axis, rotated to the global frame
  s = float(face_side)
  n0 = mat[face_axis] * s
  n1 = mat[3 + face_axis] * s
  n2 = mat[6 + face_axis] * s
  return x, n0, n1, n2, a0, a1, a2, a3, a4, a5


@always_inline
@jit
def cast_ray_geom(pos, mat, size, pnt, vec, geomtype):
  """Port of mju_rayGeom for kernels: the ray (pnt, vec: 3-tuples) against a primitive, as
  (x, n0, n1, n2)."""
  if geomtype == mjGEOM_PLANE:
    return _ray_plane(pos, mat, size, pnt, vec)
  if geomtype == mjGEOM_SPHERE:
    return _ray_sphere(pos[0], pos[1], pos[2], size[0] * size[0], pnt, vec)
  if geomtype == mjGEOM_CAPSULE:
    return _ray_capsule(pos, mat, size, pnt, vec)
  if geomtype == mjGEOM_ELLIPSOID:
    return _ray_ellipsoid(pos, mat, size, pnt, vec)
  if geomtype == mjGEOM_CYLINDER:
    return _ray_cylinder(pos, mat, size, pnt, vec)
  if geomtype == mjGEOM_BOX:
    r = _ray_box(pos[0], pos[1], pos[2], mat, size[0], size[1], size[2], pnt, vec)
    return r[0], r[1], r[2], r[3]
  # not a primitive (MuJoCo raises)
  return -1.0, 0.0, 0.0, 0.0


@jit
def ray_geom(pos, mat, size, pnt, vec, geomtype):
  """Port of mju_rayGeom, engine_ray.c: distance along the ray to a primitive geom (plane,
  sphere, capsule, ellipsoid, cylinder or box) at pos with orientation mat (9,), -1 if none."""
  return cast_ray_geom(pos, mat, size, _t3(pnt), _t3(vec), geomtype)[0]


@jit
def ray_geom_normal(pos, mat, size, pnt, vec, geomtype, normal):
  """ray_geom that also writes the global surface normal at the hit into normal (3,)."""
  x, normal[0], normal[1], normal[2] = cast_ray_geom(pos, mat, size, _t3(pnt), _t3(vec), geomtype)
  return x


# ---- meshes and height fields ----


@jit
def _mesh_vertex(m, vertadr, v):
  """Vertex v of a mesh (float32 storage) as a float64 3-tuple (numba's float() would keep
  float32)."""
  p = m.mesh_vert[vertadr + v]
  return np.float64(p[0]), np.float64(p[1]), np.float64(p[2])


@jit
def _ray_mesh(m, d, geomid, pnt, vec):
  """Port of mj_rayMesh: nearest triangle of the geom's mesh, as (x, n0, n1, n2)."""
  if m.geom_type[geomid] != mjGEOM_MESH:
    return -1.0, 0.0, 0.0, 0.0
  pos = d.geom_xpos[geomid]
  mat = d.geom_xmat[geomid]

  # bounding box from the geom size
  size = m.geom_size[geomid]
  if _ray_box(pos[0], pos[1], pos[2], mat, size[0], size[1], size[2], pnt, vec)[0] < 0:
    return -1.0, 0.0, 0.0, 0.0

  # ray in the mesh frame, basis of its normal plane
  r = _ray_map(pos, mat, pnt, vec)
  lpnt = (r[0], r[1], r[2])
  lvec = (r[3], r[4], r[5])
  b0, b1 = _normal_basis(lvec)

  # every triangle
  meshid = m.geom_dataid[geomid]
  vertadr = m.mesh_vertadr[meshid]
  faceadr = m.mesh_faceadr[meshid]
  x, n0, n1, n2 = -1.0, 0.0, 0.0, 0.0
  for f in range(faceadr, faceadr + m.mesh_facenum[meshid]):
    face = m.mesh_face[f]
    sol, t0, t1, t2 = _ray_triangle(
      _mesh_vertex(m, vertadr, face[0]),
      _mesh_vertex(m, vertadr, face[1]),
      _mesh_vertex(m, vertadr, face[2]),
      lpnt,
      lvec,
      b0,
      b1,
    )
    if sol >= 0 and (x < 0 or sol < x):
      x, n0, n1, n2 = sol, t0, t1, t2

  if x < 0:
    return -1.0, 0.0, 0.0, 0.0
  n0, n1, n2 = _mat_vec(mat, n0, n1, n2)
  return x, n0, n1, n2


@jit
def ray_mesh(m, d, geomid, pnt, vec):
  """Port of mj_rayMesh, engine_ray.c: distance along the ray to a mesh geom, -1 if none."""
  return _ray_mesh(m, d, geomid, _t3(pnt), _t3(vec))[0]


@jit
def ray_mesh_normal(m, d, geomid, pnt, vec, normal):
  """ray_mesh that also writes the global surface normal at the hit into normal (3,)."""
  x, normal[0], normal[1], normal[2] = _ray_mesh(m, d, geomid, _t3(pnt), _t3(vec))
  return x


@jit
def _hfield_vertex(data, ncol, r, c, dx, dy, size):
  """Height-field grid point (row r, column c) in the geom frame, as a 3-tuple."""
  return dx * c - size[0], dy * r - size[1], np.float64(data[r * ncol + c]) * size[2]


@jit
def _ray_hfield(m, d, geomid, pnt, vec):
  """Port of mj_rayHfield: base box, triangles of the grid cells the ray crosses inside the
  top box, and the top box's side walls under the boundary profile, as (x, n0, n1, n2)."""
  if m.geom_type[geomid] != mjGEOM_HFIELD:
    return -1.0, 0.0, 0.0, 0.0
  hid = m.geom_dataid[geomid]
  nrow = m.hfield_nrow[hid]
  ncol = m.hfield_ncol[hid]
  size = m.hfield_size[hid]
  adr = m.hfield_adr[hid]
  data = m.hfield_data[adr : adr + nrow * ncol]
  xpos = d.geom_xpos[geomid]
  xmat = d.geom_xmat[geomid]

  # base box below the surface, top box enclosing the elevation range
  hb = size[3] * 0.5
  ht = size[2] * 0.5
  x, bn0, bn1, bn2 = _ray_box(
    xpos[0] - xmat[2] * hb,
    xpos[1] - xmat[5] * hb,
    xpos[2] - xmat[8] * hb,
    xmat,
    size[0],
    size[1],
    hb,
    pnt,
    vec,
  )[:4]
  top = _ray_box(
    xpos[0] + xmat[2] * ht,
    xpos[1] + xmat[5] * ht,
    xpos[2] + xmat[8] * ht,
    xmat,
    size[0],
    size[1],
    ht,
    pnt,
    vec,
  )
  top_intersect = top[0]
  if top_intersect < 0:
    return x, bn0, bn1, bn2

  # ray in the geom frame, basis of its normal plane
  r = _ray_map(xpos, xmat, pnt, vec)
  lpnt = (r[0], r[1], r[2])
  lvec = (r[3], r[4], r[5])
  b0, b1 = _normal_basis(lvec)

  # segment of the ray inside the top box
  seg0, seg1 = 0.0, top_intersect
  for i in range(6):
    if top[4 + i] > seg1:
      seg0, seg1 = top_intersect, top[4 + i]

  # its grid cells, padded by one
  dx = (2.0 * size[0]) / (ncol - 1)
  dy = (2.0 * size[1]) / (nrow - 1)
  sx0 = (lpnt[0] + seg0 * lvec[0] + size[0]) / dx
  sx1 = (lpnt[0] + seg1 * lvec[0] + size[0]) / dx
  sy0 = (lpnt[1] + seg0 * lvec[1] + size[1]) / dy
  sy1 = (lpnt[1] + seg1 * lvec[1] + size[1]) / dy
  cmin = max(0, int(math.floor(min(sx0, sx1))) - 1)
  cmax = min(ncol - 1, int(math.ceil(max(sx0, sx1))) + 1)
  rmin = max(0, int(math.floor(min(sy0, sy1))) - 1)
  rmax = min(nrow - 1, int(math.ceil(max(sy0, sy1))) + 1)

  # local normal, starting from the base box's
  n0, n1, n2 = 0.0, 0.0, 0.0
  if x >= 0:
    n0 = xmat[0] * bn0 + xmat[3] * bn1 + xmat[6] * bn2
    n1 = xmat[1] * bn0 + xmat[4] * bn1 + xmat[7] * bn2
    n2 = xmat[2] * bn0 + xmat[5] * bn1 + xmat[8] * bn2

  # two triangles per cell
  for rr in range(rmin, rmax):
    for c in range(cmin, cmax):
      v00 = _hfield_vertex(data, ncol, rr, c, dx, dy, size)
      v11 = _hfield_vertex(data, ncol, rr + 1, c + 1, dx, dy, size)
      v01 = _hfield_vertex(data, ncol, rr, c + 1, dx, dy, size)
      v10 = _hfield_vertex(data, ncol, rr + 1, c, dx, dy, size)
      sol, t0, t1, t2 = _ray_triangle(v00, v01, v11, lpnt, lvec, b0, b1)
      if sol >= 0 and (x < 0 or sol < x):
        x, n0, n1, n2 = sol, t0, t1, t2
      sol, t0, t1, t2 = _ray_triangle(v00, v11, v10, lpnt, lvec, b0, b1)
      if sol >= 0 and (x < 0 or sol < x):
        x, n0, n1, n2 = sol, t0, t1, t2

  # side walls of the top box (faces normal to x and y), below the boundary profile
  for i in range(4):
    ai = top[4 + i]
    if ai >= 0 and (ai < x or x < 0):
      z = (lpnt[2] + ai * lvec[2]) / size[2]
      if i < 2:
        y = (lpnt[1] + ai * lvec[1] + size[1]) / dy
        y0 = max(0.0, min(nrow - 2.0, math.floor(y)))
        col = ncol - 1 if i == 1 else 0
        z0 = np.float64(data[int(_round(y0)) * ncol + col])
        z1 = np.float64(data[int(_round(y0 + 1)) * ncol + col])
      else:
        y = (lpnt[0] + ai * lvec[0] + size[0]) / dx
        y0 = max(0.0, min(ncol - 2.0, math.floor(y)))
        row = (nrow - 1) * ncol if i == 3 else 0
        z0 = np.float64(data[int(_round(y0)) + row])
        z1 = np.float64(data[int(_round(y0 + 1)) + row])
      if z < z0 * (y0 + 1 - y) + z1 * (y - y0):
        x = ai
        n0, n1, n2 = 0.0, 0.0, 0.0
        if i == 0:
          n0 = -1.0
        elif i == 1:
          n0 = 1.0
        elif i == 2:
          n1 = -1.0
        else:
          n1 = 1.0

  if x < 0:
    return -1.0, 0.0, 0.0, 0.0
  n0, n1, n2 = _mat_vec(xmat, n0, n1, n2)
  return x, n0, n1, n2


@jit
def _round(x):
  """mju_round: nearest integer as a float (halves away from zero)."""
  return math.floor(x + 0.5) if x >= 0 else math.ceil(x - 0.5)


@jit
def ray_hfield(m, d, geomid, pnt, vec):
  """Port of mj_rayHfield, engine_ray.c: distance along the ray to a height-field geom, -1 if
  none."""
  return _ray_hfield(m, d, geomid, _t3(pnt), _t3(vec))[0]


@jit
def ray_hfield_normal(m, d, geomid, pnt, vec, normal):
  """ray_hfield that also writes the global surface normal at the hit into normal (3,)."""
  x, normal[0], normal[1], normal[2] = _ray_hfield(m, d, geomid, _t3(pnt), _t3(vec))
  return x


# ---- all geoms ----


@always_inline
@jit
def _ray_eliminate(m, geomid, geommask, flg_static, bodyexclude):
  """Port of ray_eliminate: 1 if the geom is skipped (on bodyexclude, masked out, or welded
  to the world without flg_static), else 0.

  Invisible geoms (alpha 0 in geom_rgba, or in mat_rgba with a material) are skipped;
  geommask carries the geomgroup filter of mj_ray (see geom_mask).
  """
  body = m.geom_bodyid[geomid]
  if body == bodyexclude:
    return 1
  if geommask.shape[0] != 0 and geommask[geomid] == 0:
    return 1
  matid = m.geom_matid[geomid]
  if (m.mat_rgba[matid, 3] if matid >= 0 else m.geom_rgba[geomid, 3]) == 0:
    return 1
  if not flg_static and m.body_weldid[body] == 0:
    return 1
  return 0


@jit
def _ray_sdf(m, d, g, pnt, vec):
  """Port of mj_raySdf: sphere tracing on the SDF geom's field (engine/collision/sdf.py) in its
  frame, after its box test: up to 40 steps of the field's absolute value along the normalized
  direction, a hit once a step is below 1e-7 (the distance is along the unit direction, not in
  units of vec, as MuJoCo's), the normal from the field's gradient. As (x, n0, n1, n2)."""
  pos = d.geom_xpos[g]
  mat = d.geom_xmat[g]
  size = m.geom_size[g]
  if _ray_box(pos[0], pos[1], pos[2], mat, size[0], size[1], size[2], pnt, vec)[0] < 0:
    return -1.0, 0.0, 0.0, 0.0
  F, _, _, I = sdf.pair_workspace(d)
  I[0] = mjGEOM_SDF
  I[1] = m.geom_plugin[g]
  r = _ray_map(pos, mat, pnt, vec)
  _, u0, u1, u2 = normalize3_scalars(r[3], r[4], r[5])
  total = 0.0
  for _ in range(40):
    step = abs(
      sdf.distance(m, d, sdf.SINGLE, I, F, r[0] + u0 * total, r[1] + u1 * total, r[2] + u2 * total)
    )
    total += step
    if step < 1e-7:
      g0, g1, g2 = sdf.gradient(
        m, d, sdf.SINGLE, I, F, r[0] + u0 * total, r[1] + u1 * total, r[2] + u2 * total
      )
      _, g0, g1, g2 = normalize3_scalars(g0, g1, g2)
      return (
        total,
        mat[0] * g0 + mat[1] * g1 + mat[2] * g2,
        mat[3] * g0 + mat[4] * g1 + mat[5] * g2,
        mat[6] * g0 + mat[7] * g1 + mat[8] * g2,
      )
    if step > 1e6:
      break
  return -1.0, 0.0, 0.0, 0.0


@always_inline
@jit
def _ray_any(m, d, i, pnt, vec):
  """Ray against geom i of any supported type, as (x, n0, n1, n2)."""
  type = m.geom_type[i]
  if type == mjGEOM_MESH:
    return _ray_mesh(m, d, i, pnt, vec)
  if type == mjGEOM_SDF:
    return _ray_sdf(m, d, i, pnt, vec)
  if type == mjGEOM_HFIELD:
    return _ray_hfield(m, d, i, pnt, vec)
  return cast_ray_geom(d.geom_xpos[i], d.geom_xmat[i], m.geom_size[i], pnt, vec, type)


@jit
def cast_ray(m, d, pnt, vec, geommask, flg_static, bodyexclude):
  """Port of mj_ray for kernels: nearest geom hit of the ray (pnt, vec: 3-tuples) as
  (dist, geomid, n0, n1, n2); (-1, -1, 0, 0, 0) if none or if |vec| < mjMINVAL (where MuJoCo
  raises). Arguments as in `ray`."""
  if math.sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]) < mjMINVAL:
    return -1.0, -1, 0.0, 0.0, 0.0
  dist, geomid, n0, n1, n2 = -1.0, -1, 0.0, 0.0, 0.0
  for i in range(m.ngeom):
    if _ray_eliminate(m, i, geommask, flg_static, bodyexclude):
      continue
    newdist, t0, t1, t2 = _ray_any(m, d, i, pnt, vec)
    if newdist >= 0 and (newdist < dist or dist < 0):
      dist, geomid, n0, n1, n2 = newdist, i, t0, t1, t2
  return dist, geomid, n0, n1, n2


# ---- many rays from one point (mj_multiRay) ----


@jit
def _longitude(v0, v1, v2):
  """Azimuth of a direction in spherical coordinates."""
  return math.atan2(v1, v0)


@jit
def _latitude(v0, v1, v2):
  """Elevation of a direction in spherical coordinates (0 along +z)."""
  return math.atan2(math.sqrt(v0 * v0 + v1 * v1), v2)


@jit
def _point_in_box(aabb, xpos, xmat, pnt):
  """Port of point_in_box: whether pnt lies in the geom's box (m.geom_aabb, geom frame)."""
  p0 = pnt[0] - xpos[0]
  p1 = pnt[1] - xpos[1]
  p2 = pnt[2] - xpos[2]
  local = (
    xmat[0] * p0 + xmat[3] * p1 + xmat[6] * p2 - aabb[0],
    xmat[1] * p0 + xmat[4] * p1 + xmat[7] * p2 - aabb[1],
    xmat[2] * p0 + xmat[5] * p1 + xmat[8] * p2 - aabb[2],
  )
  for j in range(3):
    if abs(local[j]) > aabb[3 + j]:
      return False
  return True


@jit
def _whole_sphere(ba):
  ba[0] = -math.pi
  ba[1] = 0.0
  ba[2] = math.pi
  ba[3] = math.pi


@jit
def multi_ray_prepare(m, d, pnt, geommask, flg_static, bodyexclude, cutoff, ba, skip):
  """Port of mju_multiRayPrepare: the geoms no ray from pnt can hit into skip (eliminated as
  mj_ray does, or whose bounding sphere lies beyond cutoff), and for the geoms of bodies with a
  bounding-volume tree their box's azimuth and elevation bounds seen from pnt into ba (min
  azimuth, min elevation, max azimuth, max elevation), widened by the angle of the box's largest
  half size; the whole sphere where the source is inside the box or the bounds wrap."""
  for g in range(m.ngeom):
    skip[g] = _ray_eliminate(m, g, geommask, flg_static, bodyexclude)
  for b in range(m.nbody):
    if m.body_bvhadr[b] == -1:
      continue
    for g in range(m.body_geomadr[b], m.body_geomadr[b] + m.body_geomnum[b]):
      if skip[g]:
        continue
      xpos = d.geom_xpos[g]
      xmat = d.geom_xmat[g]
      aabb = m.geom_aabb[g]
      c0 = xpos[0] - pnt[0]
      c1 = xpos[1] - pnt[1]
      c2 = xpos[2] - pnt[2]
      dist = math.sqrt(c0 * c0 + c1 * c1 + c2 * c2)
      if dist > cutoff + m.geom_rbound[g]:
        skip[g] = 1
        continue
      if _point_in_box(aabb, xpos, xmat, pnt):
        _whole_sphere(ba[g])
        continue
      az_min = el_min = mjMAXVAL
      az_max = el_max = -mjMAXVAL
      for v in range(8):
        v0 = aabb[0] + aabb[3] if v & 1 else aabb[0] - aabb[3]
        v1 = aabb[1] + aabb[4] if v & 2 else aabb[1] - aabb[4]
        v2 = aabb[2] + aabb[5] if v & 4 else aabb[2] - aabb[5]
        w0 = xmat[0] * v0 + xmat[1] * v1 + xmat[2] * v2 + xpos[0] - pnt[0]
        w1 = xmat[3] * v0 + xmat[4] * v1 + xmat[5] * v2 + xpos[1] - pnt[1]
        w2 = xmat[6] * v0 + xmat[7] * v1 + xmat[8] * v2 + xpos[2] - pnt[2]
        azimuth = _longitude(w0, w1, w2)
        elevation = _latitude(w0, w1, w2)
        az_min = min(az_min, azimuth)
        el_min = min(el_min, elevation)
        az_max = max(az_max, azimuth)
        el_max = max(el_max, elevation)
      # the faces' centers bend away from the corners' angles by at most this much
      max_half = max(aabb[3], max(aabb[4], aabb[5]))
      if dist > mjMINVAL:
        margin = math.atan2(max_half, dist)
        az_min -= margin
        el_min -= margin
        az_max += margin
        el_max += margin
      bounds = ba[g]
      if az_max - az_min > math.pi or el_max - el_min > math.pi:
        _whole_sphere(bounds)
      else:
        bounds[0] = az_min
        bounds[1] = el_min
        bounds[2] = az_max
        bounds[3] = el_max


@jit
def single_ray(m, d, pnt, vec, ba, skip):
  """Port of mju_singleRay: the nearest hit of one ray from multi_ray_prepare's source, as
  (dist, geomid, n0, n1, n2), (-1, -1, 0, 0, 0) for none. A body with a tree is passed over when
  the ray misses the sphere around its root box (centered at the box center plus xipos, as
  MuJoCo places it), a geom when the ray's angles fall outside its bounds."""
  azimuth = _longitude(vec[0], vec[1], vec[2])
  elevation = _latitude(vec[0], vec[1], vec[2])
  dist, geomid, n0, n1, n2 = -1.0, -1, 0.0, 0.0, 0.0
  box = m.bvh_aabb
  xipos = d.xipos
  a = vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2]
  # (elements read by index, not through row views: this runs for every body of every ray)
  for b in range(m.nbody):
    adr = m.body_bvhadr[b]
    if adr != -1:
      ssz = box[adr, 3] * box[adr, 3] + box[adr, 4] * box[adr, 4] + box[adr, 5] * box[adr, 5]
      d0 = pnt[0] - (box[adr, 0] + xipos[b, 0])
      d1 = pnt[1] - (box[adr, 1] + xipos[b, 1])
      d2 = pnt[2] - (box[adr, 2] + xipos[b, 2])
      bq = vec[0] * d0 + vec[1] * d1 + vec[2] * d2
      c = d0 * d0 + d1 * d1 + d2 * d2 - ssz
      if _ray_quad(a, bq, c)[0] < 0:
        continue
    for i in range(m.body_geomadr[b], m.body_geomadr[b] + m.body_geomnum[b]):
      if skip[i]:
        continue
      if adr != -1:
        if elevation < ba[i, 1] or elevation > ba[i, 3]:
          continue
        az_center = (ba[i, 0] + ba[i, 2]) * 0.5
        az_half_width = (ba[i, 2] - ba[i, 0]) * 0.5
        az_diff = azimuth - az_center
        if az_diff > math.pi:
          az_diff -= 2 * math.pi
        elif az_diff < -math.pi:
          az_diff += 2 * math.pi
        if abs(az_diff) > az_half_width:
          continue
      newdist, t0, t1, t2 = _ray_any(m, d, i, pnt, vec)
      if newdist >= 0 and (newdist < dist or dist < 0):
        dist, geomid, n0, n1, n2 = newdist, i, t0, t1, t2
  return dist, geomid, n0, n1, n2


@jit
def multi_ray(m, d, pnt, vec, geommask, flg_static, bodyexclude, geomid, dist, normal, cutoff):
  """Port of mj_multiRay: rays from pnt along vec (3 numbers a ray); each one's distance into
  dist, geom into geomid and surface normal into normal (3 numbers a ray, or empty for none). A
  direction shorter than sqrt(mjMINVAL) hits nothing. Arguments as in `ray`."""
  ba = d.scratch_ray_ba
  skip = d.scratch_ray_skip
  source = _t3(pnt)
  multi_ray_prepare(m, d, source, geommask, flg_static, bodyexclude, cutoff, ba, skip)
  for i in range(dist.shape[0]):
    v = (vec[3 * i], vec[3 * i + 1], vec[3 * i + 2])
    n0 = n1 = n2 = 0.0
    if v[0] * v[0] + v[1] * v[1] + v[2] * v[2] < mjMINVAL:
      dist[i], geomid[i] = -1.0, -1
    else:
      dist[i], geomid[i], n0, n1, n2 = single_ray(m, d, source, v, ba, skip)
    if normal.shape[0]:
      normal[3 * i], normal[3 * i + 1], normal[3 * i + 2] = n0, n1, n2


@jit
def ray(m, d, pnt, vec, geommask, flg_static, bodyexclude, geomid_out):
  """Port of mj_ray, engine_ray.c: distance along the ray pnt + x*vec to the nearest geom,
  -1 if none; its id into geomid_out[0] (-1 if none).

  geommask: (ngeom,) int32, 0 for geoms in a hidden group (geom_mask builds it from mj_ray's
  geomgroup), or an empty array for every group; invisible geoms are always skipped;
  flg_static: 1 to include geoms welded to the world; bodyexclude: body whose geoms are skipped
  (-1: none).
  """
  dist, geomid, _, _, _ = cast_ray(m, d, _t3(pnt), _t3(vec), geommask, flg_static, bodyexclude)
  geomid_out[0] = geomid
  return dist


@jit
def ray_normal(m, d, pnt, vec, geommask, flg_static, bodyexclude, geomid_out, normal):
  """ray that also writes the global surface normal at the hit into normal (3,)."""
  dist, geomid, normal[0], normal[1], normal[2] = cast_ray(
    m, d, _t3(pnt), _t3(vec), geommask, flg_static, bodyexclude
  )
  geomid_out[0] = geomid
  return dist


# ---- camera rays (engine_util_misc.c) ----


@jit
def cam_intrinsics(m, camid):
  """Port of mju_camIntrinsics: (fx, fy, cx, cy, extent) of a camera in pixels.

  Perspective: focal lengths and principal point from intrinsic/sensorsize when the sensor size
  is set (in single precision, as MuJoCo's float arithmetic), else from the vertical field of
  view with the image center. Orthographic: half the resolution, so pixel offsets map to
  [-1, 1]. extent is cam_fovy (the orthographic view height).
  """
  width = m.cam_resolution[camid, 0]
  height = m.cam_resolution[camid, 1]
  sensorsize = m.cam_sensorsize[camid]
  intrinsic = m.cam_intrinsic[camid]
  if m.cam_projection[camid] == mjPROJ_ORTHOGRAPHIC:
    fx = width / 2.0
    fy = height / 2.0
    return fx, fy, fx, fy, m.cam_fovy[camid]
  if sensorsize[0] != 0 and sensorsize[1] != 0:
    w = np.float32(width)
    h = np.float32(height)
    fx = np.float64(intrinsic[0] / sensorsize[0] * w)
    fy = np.float64(intrinsic[1] / sensorsize[1] * h)
    cx = np.float64(intrinsic[2] / sensorsize[0] * w)
    cy = np.float64(intrinsic[3] / sensorsize[1] * h)
  else:
    fx = 0.5 / math.tan(m.cam_fovy[camid] * math.pi / 360.0) * height
    fy = fx
    cx = width / 2.0
    cy = height / 2.0
  return fx, fy, cx, cy, m.cam_fovy[camid]


@always_inline
@jit
def cam_pixel_ray(cam_xpos, cam_xmat, col, row, fx, fy, cx, cy, projection, extent):
  """Port of mju_camPixelRay: (origin, unit direction) 3-tuples of the ray through the center
  of pixel (col, row): from the camera position (perspective) or from the pixel's point on the
  image plane along the viewing axis -z (orthographic, extent = view height)."""
  u = (col + 0.5 - cx) / fx
  v = -(row + 0.5 - cy) / fy
  if projection == mjPROJ_ORTHOGRAPHIC:
    o0, o1, o2 = _mat_vec(cam_xmat, u * extent * 0.5, v * extent * 0.5, 0.0)
    origin = (cam_xpos[0] + o0, cam_xpos[1] + o1, cam_xpos[2] + o2)
    return origin, (-cam_xmat[2], -cam_xmat[5], -cam_xmat[8])
  d0, d1, d2 = _normalize(u, v, -1.0)
  return (cam_xpos[0], cam_xpos[1], cam_xpos[2]), _mat_vec(cam_xmat, d0, d1, d2)


# ---- Python API (mujoco binding signatures) ----


def _vec(x, n, name):
  a = np.ascontiguousarray(x, dtype=np.float64).reshape(-1)
  if a.shape != (n,):
    raise ValueError(f"{name} must have {n} elements, got {a.size}")
  return a if a.flags.writeable else a.copy()  # numba types read-only arrays apart


def _normal_out(normal):
  if normal is None:
    return np.zeros(3)
  if not (
    isinstance(normal, np.ndarray)
    and normal.dtype == np.float64
    and normal.flags.c_contiguous
    and normal.size == 3
  ):
    raise TypeError("normal must be a C-contiguous float64 numpy array of 3 elements")
  return normal.reshape(3)


def _geom_id(m, geomid, geomtype, what):
  geomid = int(geomid)
  if not 0 <= geomid < m.ngeom:
    raise ValueError(f"geom id {geomid} out of range [0, {m.ngeom})")
  if m.geom_type[geomid] != geomtype:
    raise ValueError(f"geom with {what} type expected")
  return geomid


# the kernels above, compiled once more as stages for Python's calls
_ray_geom_normal = stage(vec, vec, vec, vec, vec, i8, vec, restype=f8, lazy=True)(ray_geom_normal)
_ray_mesh_normal = stage(M, D, i8, vec, vec, vec, restype=f8, lazy=True)(ray_mesh_normal)
_ray_hfield_normal = stage(M, D, i8, vec, vec, vec, restype=f8, lazy=True)(ray_hfield_normal)
_ray_normal = stage(M, D, vec, vec, ivec, i8, i8, ivec, vec, restype=f8, lazy=True)(ray_normal)
_multi_ray = stage(M, D, vec, vec, ivec, i8, i8, ivec, vec, vec, f8, lazy=True)(multi_ray)


def mju_rayGeom(pos, mat, size, pnt, vec, geomtype, normal=None) -> float:
  """Distance along pnt + x*vec to a primitive geom, -1 if none; normal (3,) gets the hit's
  surface normal when given."""
  geomtype = int(geomtype)
  if geomtype not in (
    mjGEOM_PLANE,
    mjGEOM_SPHERE,
    mjGEOM_CAPSULE,
    mjGEOM_ELLIPSOID,
    mjGEOM_CYLINDER,
    mjGEOM_BOX,
  ):
    raise ValueError(f"unexpected geom type {geomtype}")
  return float(
    _ray_geom_normal(
      _vec(pos, 3, "pos"),
      _vec(mat, 9, "mat"),
      _vec(size, 3, "size"),
      _vec(pnt, 3, "pnt"),
      _vec(vec, 3, "vec"),
      geomtype,
      _normal_out(normal),
    )
  )


def mj_rayMesh(m, d, geomid, pnt, vec, normal=None) -> float:
  """Distance along pnt + x*vec to mesh geom `geomid`, -1 if none."""
  geomid = _geom_id(m, geomid, mjGEOM_MESH, "mesh")
  return float(
    _ray_mesh_normal(
      m._struct, d._struct, geomid, _vec(pnt, 3, "pnt"), _vec(vec, 3, "vec"), _normal_out(normal)
    )
  )


def mj_rayHfield(m, d, geomid, pnt, vec, normal=None) -> float:
  """Distance along pnt + x*vec to height-field geom `geomid`, -1 if none."""
  geomid = _geom_id(m, geomid, mjGEOM_HFIELD, "hfield")
  return float(
    _ray_hfield_normal(
      m._struct, d._struct, geomid, _vec(pnt, 3, "pnt"), _vec(vec, 3, "vec"), _normal_out(normal)
    )
  )


def geom_mask(m, geomgroup=None) -> np.ndarray:
  """The geommask of `ray`: empty (every geom) when geomgroup is None, else (ngeom,) int32
  with 0 for geoms in a group whose flag (of 6) is 0 (groups clamped to 0..5)."""
  if geomgroup is None:
    return np.zeros(0, np.int32)
  groups = _vec(geomgroup, 6, "geomgroup")
  mask = groups[np.clip(m.geom_group, 0, mjNGROUP - 1)] != 0
  return np.ascontiguousarray(mask, dtype=np.int32)


def mj_multiRay(
  m, d, pnt, vec, geomgroup, flg_static, bodyexclude, geomid, dist, normal, nray, cutoff
) -> None:
  """`nray` rays from `pnt` along `vec` (nray*3 numbers): each one's distance into dist[i] and
  geom into geomid[i] (-1 where it hits nothing), its surface normal into normal[3*i:3*i+3]
  unless normal is None. As MuJoCo, geoms whose bounding spheres lie beyond `cutoff` are
  skipped, and geoms are culled by the angles their boxes span as seen from `pnt`."""
  nray = int(nray)
  directions = _vec(vec, 3 * nray, "vec")
  hits = np.zeros(nray, np.int32)
  dists = np.zeros(nray)
  normals = np.zeros(3 * nray if normal is not None else 0)
  _multi_ray(
    m._struct,
    d._struct,
    _vec(pnt, 3, "pnt"),
    directions,
    geom_mask(m, geomgroup),
    1 if flg_static else 0,
    int(bodyexclude),
    hits,
    dists,
    normals,
    float(cutoff),
  )
  np.asarray(dist).reshape(-1)[:nray] = dists
  np.asarray(geomid).reshape(-1)[:nray] = hits
  if normal is not None:
    np.asarray(normal).reshape(-1)[: 3 * nray] = normals


def mj_ray(m, d, pnt, vec, geomgroup, flg_static, bodyexclude, geomid, normal=None) -> float:
  """Distance along pnt + x*vec to the nearest visible geom not on body `bodyexclude`, -1 if
  none. geomgroup: 6 group flags or None (all groups); geomid: int32 array receiving the geom
  id (-1 if none) or None; normal: float64 (3,) receiving the surface normal, or None."""
  pnt, vec = _vec(pnt, 3, "pnt"), _vec(vec, 3, "vec")
  if np.linalg.norm(vec) < mjMINVAL:
    raise ValueError("vector length is too small")
  gid = np.zeros(1, np.int32)
  dist = _ray_normal(
    m._struct,
    d._struct,
    pnt,
    vec,
    geom_mask(m, geomgroup),
    1 if flg_static else 0,
    int(bodyexclude),
    gid,
    _normal_out(normal),
  )
  if geomid is not None:
    np.asarray(geomid).reshape(-1)[0] = gid[0]
  return float(dist)
