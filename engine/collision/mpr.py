"""libccd's MPR penetration (Minkowski Portal Refinement, libccd 2.1's mpr.c, as MuJoCo 3.17
vendors it in double precision) with MuJoCo's libccd callbacks mjccd_support and mjccd_center
(engine_collision_convex.c): the convex collision MuJoCo runs when opt.disableflags has
mjDSBL_NATIVECCD.

MPR takes the difference of the two object centers as an interior point v0 of their Minkowski
difference, discovers a portal (a triangle v1 v2 v3 of support points that the ray from v0 to
the origin crosses), refines it until the origin is behind it (the objects overlap) or the
support points stop advancing (they do not), then keeps expanding it toward the origin until the
support points advance by at most opt.ccd_tolerance or opt.ccd_iterations passes: the depth is
the distance from the origin to the last portal, the direction its closest point, and the
position the mean of the two objects' points at the origin's barycentric coordinates in the
tetrahedron v0..v3. A center at the origin is moved by 10 * DBL_EPSILON, an origin on the first
support point is a touching contact (no depth, no direction: MuJoCo reports none) and one on the
segment v0 v1 takes that segment as the direction. Numbers within DBL_EPSILON of zero (or
relatively of each other) count as equal, as libccd's ccdIsZero and ccdEq decide.

The support points are mjccd_support's, not the native CCD's (ccdobj.py): a geom is inflated
by half of its margin along the direction in its own frame before rotating to the world,
capsule and box sides come from mju_sign (0 on a zero component), ellipsoids normalize with
mju_normalize3, cylinders test the radial length against mjMINVAL, and meshes search every
vertex (fewer than 10, or no hull graph) or hill-climb the hull graph from the previous result
or vertex 0. A height field prism takes its best vertex plus half of its margin along the
direction: measured against MuJoCo 3.17 (MuJoCo 3.12 left the prism uninflated and raised its
top by the whole margin instead).

The portal (4 support points and a candidate, each the Minkowski point and the two objects'
points) lives on the stack of `libccd_penetration`.
"""

import math

import numpy as np

from engine._jit import jit
from engine._jit import local_array
from engine._stage import CONVEX_OR_HFIELD
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import ivec
from engine._stage import mat
from engine._stage import stage
from engine._stage import vec
from engine.collision.ccdobj import IGRAPH
from engine.collision.ccdobj import IMI
from engine.collision.ccdobj import IT
from engine.collision.ccdobj import IVADR
from engine.collision.ccdobj import IVNUM
from engine.collision.ccdobj import O1
from engine.collision.ccdobj import O1I
from engine.collision.ccdobj import O2
from engine.collision.ccdobj import O2I
from engine.collision.ccdobj import OM
from engine.collision.ccdobj import OMG
from engine.collision.ccdobj import OP
from engine.collision.ccdobj import OS
from engine.collision.ccdobj import obj_center
from engine.collision.ccdobj import obj_support
from engine.collision.ccdobj import set_minkowski_point
from engine.collision.primitives import set_contact
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_SDF
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjMINVAL
from engine.math import normalize3_scalars

CCD_EPS = 2.220446049250313e-16  # DBL_EPSILON: libccd's zero and equality threshold

# portal layout (45 floats): point k (0..3, V4 the candidate) at 9k: Minkowski point, object
# 1's point, object 2's point
V4 = 4


# ---- MuJoCo's libccd callbacks ----


@jit
def _sign(x):
  """mju_sign: 1, -1, or 0 for zero (and NaN)."""
  if x > 0.0:
    return 1.0
  if x < 0.0:
    return -1.0
  return 0.0


@jit
def ccd_support(m, F, I, o, oi, d0, d1, d2):
  """Port of mjccd_support, engine_collision_convex.c (MuJoCo 3.17): the support point of a
  CCD object in a world direction, inflated by half the object's margin along it."""
  t = I[oi + IT]
  if t == mjGEOM_HFIELD:
    a0, a1, a2 = obj_support(m, F, I, o, oi, d0, d1, d2)  # mjc_prism_support
    mg = F[o + OMG]
    return a0 + d0 * mg / 2, a1 + d1 * mg / 2, a2 + d2 * mg / 2

  # direction in the geom frame
  mo = o + OM
  l0 = F[mo] * d0 + F[mo + 3] * d1 + F[mo + 6] * d2
  l1 = F[mo + 1] * d0 + F[mo + 4] * d1 + F[mo + 7] * d2
  l2 = F[mo + 2] * d0 + F[mo + 5] * d1 + F[mo + 8] * d2
  s0 = F[o + OS]
  s1 = F[o + OS + 1]
  s2 = F[o + OS + 2]

  r0 = 0.0
  r1 = 0.0
  r2 = 0.0
  if t == mjGEOM_SPHERE:
    r0 = l0 * s0
    r1 = l1 * s0
    r2 = l2 * s0
  elif t == mjGEOM_CAPSULE:
    r0 = l0 * s0
    r1 = l1 * s0
    r2 = l2 * s0
    r2 += _sign(l2) * s1
  elif t == mjGEOM_ELLIPSOID:
    # unit sphere point of the scaled direction (mju_normalize3), scaled back
    _, r0, r1, r2 = normalize3_scalars(l0 * s0, l1 * s1, l2 * s2)
    r0 *= s0
    r1 *= s1
    r2 *= s2
  elif t == mjGEOM_CYLINDER:
    tmp = math.sqrt(l0 * l0 + l1 * l1)
    if tmp > mjMINVAL:
      r0 = l0 / tmp * s0
      r1 = l1 / tmp * s0
    r2 = _sign(l2) * s1
  elif t == mjGEOM_BOX:
    r0 = _sign(l0) * s0
    r1 = _sign(l1) * s1
    r2 = _sign(l2) * s2
  elif t == mjGEOM_MESH or t == mjGEOM_SDF:
    vadr = I[oi + IVADR]
    ibest = -1
    tmp = -1e10
    adr = I[oi + IGRAPH]
    if adr < 0:
      # every vertex
      for i in range(I[oi + IVNUM]):
        v = vadr + i
        vdot = (
          l0 * np.float64(m.mesh_vert[v, 0])
          + l1 * np.float64(m.mesh_vert[v, 1])
          + l2 * np.float64(m.mesh_vert[v, 2])
        )
        if vdot > tmp:
          tmp = vdot
          ibest = i
      I[oi + IMI] = ibest
    else:
      # hill-climb the hull graph from the previous result or its first vertex
      graph = m.mesh_graph
      numvert = graph[adr]
      edgeadr = adr + 2
      globalid = adr + 2 + numvert
      localid = adr + 2 + 2 * numvert
      ibest = I[oi + IMI]
      if ibest < 0:
        ibest = 0
      v = vadr + graph[globalid + ibest]
      tmp = (
        l0 * np.float64(m.mesh_vert[v, 0])
        + l1 * np.float64(m.mesh_vert[v, 1])
        + l2 * np.float64(m.mesh_vert[v, 2])
      )
      change = True
      while change:
        change = False
        i = graph[edgeadr + ibest]
        while graph[localid + i] >= 0:
          locid = graph[localid + i]
          v = vadr + graph[globalid + locid]
          vdot = (
            l0 * np.float64(m.mesh_vert[v, 0])
            + l1 * np.float64(m.mesh_vert[v, 1])
            + l2 * np.float64(m.mesh_vert[v, 2])
          )
          if vdot > tmp:
            tmp = vdot
            ibest = locid
            change = True
          i += 1
      I[oi + IMI] = ibest
      ibest = graph[globalid + ibest]

    # no vertex found (NaN direction): MuJoCo warns and takes the origin
    if ibest >= 0:
      v = vadr + ibest
      r0 = np.float64(m.mesh_vert[v, 0])
      r1 = np.float64(m.mesh_vert[v, 1])
      r2 = np.float64(m.mesh_vert[v, 2])

  # half the margin along the local direction
  mg = F[o + OMG]
  r0 += l0 * mg / 2
  r1 += l1 * mg / 2
  r2 += l2 * mg / 2

  # to the world frame
  w0 = F[mo] * r0 + F[mo + 1] * r1 + F[mo + 2] * r2
  w1 = F[mo + 3] * r0 + F[mo + 4] * r1 + F[mo + 5] * r2
  w2 = F[mo + 6] * r0 + F[mo + 7] * r1 + F[mo + 8] * r2
  return w0 + F[o + OP], w1 + F[o + OP + 1], w2 + F[o + OP + 2]


# ---- libccd's vector helpers ----


@jit
def _is_zero(x):
  """ccdIsZero."""
  return abs(x) < CCD_EPS


@jit
def _eq(a, b):
  """ccdEq: equal within CCD_EPS, absolutely or relative to the larger magnitude."""
  ab = abs(a - b)
  if ab < CCD_EPS:
    return True
  a = abs(a)
  b = abs(b)
  if b > a:
    return ab < CCD_EPS * b
  return ab < CCD_EPS * a


@jit
def _fmin(a, b):
  """C's fmin: the other argument when one is NaN."""
  if a != a:
    return b
  if b != b:
    return a
  return a if a < b else b


@jit
def _normalize(x, y, z):
  """ccdVec3Normalize: scaled by the inverse of the length (no guard)."""
  k = 1.0 / math.sqrt(x * x + y * y + z * z)
  return x * k, y * k, z * k


@jit
def _cross(a0, a1, a2, b0, b1, b2):
  """ccdVec3Cross."""
  return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@jit
def _dot_at(P, k, x, y, z):
  """Dot product of the Minkowski point of portal slot k with (x, y, z)."""
  p = 9 * k
  return P[p] * x + P[p + 1] * y + P[p + 2] * z


@jit
def _cross_at(P, a, b):
  """Cross product of the Minkowski points of portal slots a and b."""
  pa = 9 * a
  pb = 9 * b
  return _cross(P[pa], P[pa + 1], P[pa + 2], P[pb], P[pb + 1], P[pb + 2])


@jit
def _set(P, dst, src):
  """ccdSimplexSet: slot dst takes slot src (all 9 numbers)."""
  for k in range(9):
    P[9 * dst + k] = P[9 * src + k]


@jit
def _swap(P, a, b):
  """ccdSimplexSwap."""
  for k in range(9):
    tmp = P[9 * a + k]
    P[9 * a + k] = P[9 * b + k]
    P[9 * b + k] = tmp


@jit
def _at_origin(P, k):
  """ccdVec3Eq(point k, origin): every coordinate within CCD_EPS of zero."""
  p = 9 * k
  return _is_zero(P[p]) and _is_zero(P[p + 1]) and _is_zero(P[p + 2])


@jit
def _support(m, F, I, P, k, d0, d1, d2):
  """__ccdSupport: object 1's support along dir minus object 2's along -dir into slot k."""
  a0, a1, a2 = ccd_support(m, F, I, O1, O1I, d0, d1, d2)
  b0, b1, b2 = ccd_support(m, F, I, O2, O2I, -d0, -d1, -d2)
  set_minkowski_point(P, 9 * k, a0, a1, a2, b0, b1, b2)


# ---- MPR ----


@jit
def _face_dir(P, i, j, k):
  """Unit normal of the triangle of Minkowski points i j k, (vj - vi) x (vk - vi): portalDir
  for the portal v1 v2 v3."""
  i *= 9
  j *= 9
  k *= 9
  a0 = P[j] - P[i]
  a1 = P[j + 1] - P[i + 1]
  a2 = P[j + 2] - P[i + 2]
  b0 = P[k] - P[i]
  b1 = P[k + 1] - P[i + 1]
  b2 = P[k + 2] - P[i + 2]
  c0, c1, c2 = _cross(a0, a1, a2, b0, b1, b2)
  return _normalize(c0, c1, c2)


@jit
def _reach_tolerance(P, d0, d1, d2, tolerance):
  """portalReachTolerance: the candidate advances at most `tolerance` beyond the portal."""
  dv1 = _dot_at(P, 1, d0, d1, d2)
  dv2 = _dot_at(P, 2, d0, d1, d2)
  dv3 = _dot_at(P, 3, d0, d1, d2)
  dv4 = _dot_at(P, V4, d0, d1, d2)
  dot1 = _fmin(_fmin(dv4 - dv1, dv4 - dv2), dv4 - dv3)
  return _eq(dot1, tolerance) or dot1 < tolerance


@jit
def _expand(P):
  """expandPortal: the candidate replaces the portal vertex that keeps the origin ray inside."""
  x0, x1, x2 = _cross_at(P, V4, 0)
  if _dot_at(P, 1, x0, x1, x2) > 0.0:
    if _dot_at(P, 2, x0, x1, x2) > 0.0:
      _set(P, 1, V4)
    else:
      _set(P, 3, V4)
  else:
    if _dot_at(P, 3, x0, x1, x2) > 0.0:
      _set(P, 2, V4)
    else:
      _set(P, 1, V4)


@jit
def _discover(m, F, I, P):
  """discoverPortal: -1 if the origin is found outside, 1 if it lies on v1, 2 if on the segment
  v0 v1, 0 when the portal v1 v2 v3 is built."""
  # v0: center of the Minkowski difference, moved off the origin
  c10, c11, c12 = obj_center(F, I, O1, O1I)
  c20, c21, c22 = obj_center(F, I, O2, O2I)
  P[3] = c10
  P[4] = c11
  P[5] = c12
  P[6] = c20
  P[7] = c21
  P[8] = c22
  P[0] = c10 - c20
  P[1] = c11 - c21
  P[2] = c12 - c22
  if _at_origin(P, 0):
    P[0] += CCD_EPS * 10.0

  # v1: support toward the origin
  d0, d1, d2 = _normalize(P[0] * -1.0, P[1] * -1.0, P[2] * -1.0)
  _support(m, F, I, P, 1, d0, d1, d2)
  dot = _dot_at(P, 1, d0, d1, d2)
  if _is_zero(dot) or dot < 0.0:
    return -1

  # v2: support normal to v0 and v1
  d0, d1, d2 = _cross_at(P, 0, 1)
  if _is_zero(d0 * d0 + d1 * d1 + d2 * d2):
    if _at_origin(P, 1):
      return 1
    return 2
  d0, d1, d2 = _normalize(d0, d1, d2)
  _support(m, F, I, P, 2, d0, d1, d2)
  dot = _dot_at(P, 2, d0, d1, d2)
  if _is_zero(dot) or dot < 0.0:
    return -1

  # v3 direction: the triangle's normal, facing away from v0
  d0, d1, d2 = _face_dir(P, 0, 1, 2)
  dot = d0 * P[0] + d1 * P[1] + d2 * P[2]
  if dot > 0.0:
    _swap(P, 1, 2)
    d0 *= -1.0
    d1 *= -1.0
    d2 *= -1.0

  while True:
    _support(m, F, I, P, 3, d0, d1, d2)
    dot = _dot_at(P, 3, d0, d1, d2)
    if _is_zero(dot) or dot < 0.0:
      return -1

    # origin outside (v1, v0, v3): v3 replaces v2; outside (v3, v0, v2): v3 replaces v1
    cont = False
    a0, a1, a2 = _cross_at(P, 1, 3)
    dot = _dot_at(P, 0, a0, a1, a2)
    if dot < 0.0 and not _is_zero(dot):
      _set(P, 2, 3)
      cont = True
    if not cont:
      a0, a1, a2 = _cross_at(P, 3, 2)
      dot = _dot_at(P, 0, a0, a1, a2)
      if dot < 0.0 and not _is_zero(dot):
        _set(P, 1, 3)
        cont = True
    if not cont:
      return 0
    d0, d1, d2 = _face_dir(P, 0, 1, 2)


@jit
def _refine(m, F, I, P, tolerance):
  """refinePortal: 0 once the origin is behind the portal, -1 when the portal cannot reach it."""
  while True:
    d0, d1, d2 = _face_dir(P, 1, 2, 3)

    # origin inside the portal
    dot = _dot_at(P, 1, d0, d1, d2)
    if _is_zero(dot) or dot > 0.0:
      return 0

    # the candidate must pass the origin and still advance the portal
    _support(m, F, I, P, V4, d0, d1, d2)
    dot = _dot_at(P, V4, d0, d1, d2)
    if not (_is_zero(dot) or dot > 0.0) or _reach_tolerance(P, d0, d1, d2, tolerance):
      return -1
    _expand(P)


@jit
def _segment_dist2(x0, x1, x2, b0, b1, b2):
  """__ccdVec3PointSegmentDist2 from the origin: squared distance and witness point."""
  d0 = b0 - x0
  d1 = b1 - x1
  d2 = b2 - x2
  a0 = x0 - 0.0
  a1 = x1 - 0.0
  a2 = x2 - 0.0
  t = -1.0 * (a0 * d0 + a1 * d1 + a2 * d2)
  t /= d0 * d0 + d1 * d1 + d2 * d2
  if t < 0.0 or _is_zero(t):
    w0, w1, w2 = x0, x1, x2
  elif t > 1.0 or _eq(t, 1.0):
    w0, w1, w2 = b0, b1, b2
  else:
    w0 = d0 * t + x0
    w1 = d1 * t + x1
    w2 = d2 * t + x2
  e0 = w0 - 0.0
  e1 = w1 - 0.0
  e2 = w2 - 0.0
  return e0 * e0 + e1 * e1 + e2 * e2, w0, w1, w2


@jit
def _triangle_dist2(P):
  """ccdVec3PointTriDist2 from the origin to the face v1 v2 v3: squared distance and witness."""
  x0 = P[9]
  x1 = P[10]
  x2 = P[11]
  d10 = P[18] - x0
  d11 = P[19] - x1
  d12 = P[20] - x2
  d20 = P[27] - x0
  d21 = P[28] - x1
  d22 = P[29] - x2
  a0 = x0 - 0.0
  a1 = x1 - 0.0
  a2 = x2 - 0.0
  v = d10 * d10 + d11 * d11 + d12 * d12
  w = d20 * d20 + d21 * d21 + d22 * d22
  p = a0 * d10 + a1 * d11 + a2 * d12
  q = a0 * d20 + a1 * d21 + a2 * d22
  r = d10 * d20 + d11 * d21 + d12 * d22

  # parameters of the closest point of the plane (none for a degenerate triangle)
  d = w * v - r * r
  if _is_zero(d):
    s = -1.0
    t = -1.0
  else:
    s = (q * r - w * p) / d
    t = (-s * r - q) / w

  # inside the triangle
  if (
    (_is_zero(s) or s > 0.0)
    and (_eq(s, 1.0) or s < 1.0)
    and (_is_zero(t) or t > 0.0)
    and (_eq(t, 1.0) or t < 1.0)
    and (_eq(t + s, 1.0) or t + s < 1.0)
  ):
    w0 = x0 + d10 * s + d20 * t
    w1 = x1 + d11 * s + d21 * t
    w2 = x2 + d12 * s + d22 * t
    e0 = w0 - 0.0
    e1 = w1 - 0.0
    e2 = w2 - 0.0
    return e0 * e0 + e1 * e1 + e2 * e2, w0, w1, w2

  # closest of the three edges
  dist, w0, w1, w2 = _segment_dist2(x0, x1, x2, P[18], P[19], P[20])
  dist2, u0, u1, u2 = _segment_dist2(x0, x1, x2, P[27], P[28], P[29])
  if dist2 < dist:
    dist, w0, w1, w2 = dist2, u0, u1, u2
  dist2, u0, u1, u2 = _segment_dist2(P[18], P[19], P[20], P[27], P[28], P[29])
  if dist2 < dist:
    dist, w0, w1, w2 = dist2, u0, u1, u2
  return dist, w0, w1, w2


@jit
def _find_pos(P):
  """findPos: mean of the objects' points at the origin's barycentric coordinates in the
  tetrahedron v0..v3 (in the portal triangle when those are degenerate)."""
  d0, d1, d2 = _face_dir(P, 1, 2, 3)
  c0, c1, c2 = _cross_at(P, 1, 2)
  b0 = _dot_at(P, 3, c0, c1, c2)
  c0, c1, c2 = _cross_at(P, 3, 2)
  b1 = _dot_at(P, 0, c0, c1, c2)
  c0, c1, c2 = _cross_at(P, 0, 1)
  b2 = _dot_at(P, 3, c0, c1, c2)
  c0, c1, c2 = _cross_at(P, 2, 1)
  b3 = _dot_at(P, 0, c0, c1, c2)
  total = b0 + b1 + b2 + b3

  if _is_zero(total) or total < 0.0:
    b0 = 0.0
    c0, c1, c2 = _cross_at(P, 2, 3)
    b1 = c0 * d0 + c1 * d1 + c2 * d2
    c0, c1, c2 = _cross_at(P, 3, 1)
    b2 = c0 * d0 + c1 * d1 + c2 * d2
    c0, c1, c2 = _cross_at(P, 1, 2)
    b3 = c0 * d0 + c1 * d1 + c2 * d2
    total = b1 + b2 + b3
  inv = 1.0 / total

  p10 = p11 = p12 = p20 = p21 = p22 = 0.0
  for i in range(4):
    b = b0 if i == 0 else (b1 if i == 1 else (b2 if i == 2 else b3))
    p = 9 * i
    p10 += P[p + 3] * b
    p11 += P[p + 4] * b
    p12 += P[p + 5] * b
    p20 += P[p + 6] * b
    p21 += P[p + 7] * b
    p22 += P[p + 8] * b
  p10 *= inv
  p11 *= inv
  p12 *= inv
  p20 *= inv
  p21 *= inv
  p22 *= inv
  return (p10 + p20) * 0.5, (p11 + p21) * 0.5, (p12 + p22) * 0.5


@stage(M, vec, ivec, mat, i8, f8, restype=i8, needed=CONVEX_OR_HFIELD)
def libccd_penetration(m, F, I, con, i, margin):
  """Port of _libccd_wrapper, engine_collision_convex.c: ccdMPRPenetration of the workspace
  objects with opt.ccd_tolerance and opt.ccd_iterations; a contact with depth and direction
  goes to con row i (dist margin - depth) and 1 is returned, else 0."""
  tolerance = m.opt.ccd_tolerance[0]
  max_iterations = m.opt.ccd_iterations[0]
  P = local_array(45)

  res = _discover(m, F, I, P)
  if res < 0:
    return 0
  if res == 1:
    return 0  # touching at v1: no depth, no direction

  if res == 2:
    # origin on the segment v0 v1
    p0 = (P[12] + P[15]) * 0.5
    p1 = (P[13] + P[16]) * 0.5
    p2 = (P[14] + P[17]) * 0.5
    n0 = P[9]
    n1 = P[10]
    n2 = P[11]
    depth = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    n0, n1, n2 = _normalize(n0, n1, n2)
  else:
    if _refine(m, F, I, P, tolerance) < 0:
      return 0

    # expand toward the origin until the tolerance or the iteration limit
    iterations = 0
    while True:
      d0, d1, d2 = _face_dir(P, 1, 2, 3)
      _support(m, F, I, P, V4, d0, d1, d2)
      if _reach_tolerance(P, d0, d1, d2, tolerance) or (
        max_iterations >= 0 and iterations > max_iterations
      ):
        break
      _expand(P)
      iterations += 1
    depth2, n0, n1, n2 = _triangle_dist2(P)
    depth = math.sqrt(depth2)
    if _is_zero(depth):
      return 0  # touching: no direction
    n0, n1, n2 = _normalize(n0, n1, n2)
    p0, p1, p2 = _find_pos(P)

  # a direction at the origin is no contact
  if _is_zero(n0) and _is_zero(n1) and _is_zero(n2):
    return 0
  set_contact(con, i, margin - depth, p0, p1, p2, n0, n1, n2, 0.0, 0.0, 0.0)
  return 1
