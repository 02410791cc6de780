"""General convex collision: mjc_Convex and mjc_PlaneConvex (engine_collision_convex.c,
MuJoCo 3.17).

mjc_Convex handles every convex pair without a dedicated function in MuJoCo 3.17's collision
table: sphere-ellipsoid, sphere-mesh, capsule-ellipsoid, capsule-cylinder, capsule-mesh,
ellipsoid-{ellipsoid, cylinder, box, mesh}, cylinder-{cylinder, box, mesh}, box-mesh and
mesh-mesh. It runs the native CCD (GJK + EPA, engine/collision/epa.py); pairs of cylinders,
boxes and meshes get up to 4 contacts, capsules with those up to 2, from the multi-contact
manifold (engine/collision/multicontact.py), unless opt.disableflags has mjDSBL_MULTICCD.

With mjDSBL_NATIVECCD it runs libccd's MPR instead (engine/collision/mpr.py) and replaces the
normal by the analytic one of a sphere, capsule, ellipsoid or cylinder at the contact point
(mjc_fixNormal). Unless mjDSBL_MULTICCD is set or a sphere or ellipsoid is involved, up to 4 more
contacts come from MPR runs with both geoms rotated by 1e-3 rad either way about the first
contact's tangent axes (about the contact point, in opposite senses); each is kept when farther
than 1e-3 times the smaller bounding radius from the contacts found before, with the first
contact's depth.

mjc_PlaneConvex (plane-ellipsoid, plane-mesh) takes the support point against the plane normal
and, for meshes, up to 3 more vertices of the hull polygon at that vertex that faces the plane
(the largest quadrilateral for bigger polygons), when within the margin.

Contacts are rows of `con` (d.scratch_con): dist, pos (3), frame (9) with the normal (from geom1
to geom2) first and the tangent rows zero, as MuJoCo leaves them.

Known differences from MuJoCo 3.17: mesh polygons are the compiled hull polygons
(m.mesh_poly*), see features.py.
"""

import math

import numpy as np

from engine._jit import jit
from engine._jit import local_array
from engine._stage import CONVEX_PAIRS
from engine._stage import D
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import mat
from engine._stage import stage
from engine.collision.ccdobj import IFNUM
from engine.collision.ccdobj import IT
from engine.collision.ccdobj import IVADR
from engine.collision.ccdobj import IVI
from engine.collision.ccdobj import O1
from engine.collision.ccdobj import O1I
from engine.collision.ccdobj import O2
from engine.collision.ccdobj import O2I
from engine.collision.ccdobj import OM
from engine.collision.ccdobj import OP
from engine.collision.ccdobj import S_NX
from engine.collision.ccdobj import ST_D
from engine.collision.ccdobj import ST_X1
from engine.collision.ccdobj import ST_X2
from engine.collision.ccdobj import init_obj
from engine.collision.ccdobj import obj_support
from engine.collision.epa import ccd
from engine.collision.features import MC_ORD
from engine.collision.features import MC_PL1
from engine.collision.features import mesh_poly_normal_local
from engine.collision.features import mesh_poly_verts
from engine.collision.features import mesh_vertex_polys
from engine.collision.mpr import libccd_penetration
from engine.enums import mjDSBL_MULTICCD
from engine.enums import mjDSBL_NATIVECCD
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_PLANE
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjMINVAL
from engine.flags import disabled
from engine.math import mju_makeFrame
from engine.math import normalize3_scalars
from engine.math import quat2mat_scalars


@jit
def set_contact(con, i, dist, p0, p1, p2, n0, n1, n2):
  """Writes contact row i: dist, pos, normal and zero tangent rows."""
  con[i, 0] = dist
  con[i, 1] = p0
  con[i, 2] = p1
  con[i, 3] = p2
  con[i, 4] = n0
  con[i, 5] = n1
  con[i, 6] = n2
  for k in range(7, 13):
    con[i, k] = 0.0


@jit
def penetration(m, F, I, con, start, max_contacts, margin):
  """Port of mjc_penetration (native CCD branch): contacts from the workspace objects into
  con rows start..; returns their number."""
  dist = ccd(m, F, I, m.opt.ccd_iterations[0], m.opt.ccd_tolerance[0], max_contacts, 0.0)
  if dist < 0:
    nx = I[S_NX]
    for i in range(nx):
      a = ST_X1 + 3 * i
      b = ST_X2 + 3 * i
      n0 = F[a] - F[b]
      n1 = F[a + 1] - F[b + 1]
      n2 = F[a + 2] - F[b + 2]
      norm = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
      if norm < mjMINVAL:
        n0, n1, n2 = 1.0, 0.0, 0.0
      else:
        inv = 1 / norm
        n0 *= inv
        n1 *= inv
        n2 *= inv
      set_contact(
        con,
        start + i,
        margin + F[ST_D + i],
        (F[a] + F[b]) * 0.5,
        (F[a + 1] + F[b + 1]) * 0.5,
        (F[a + 2] + F[b + 2]) * 0.5,
        n0,
        n1,
        n2,
      )
    return nx
  return 0


@jit
def _max_contacts(m, F, I):
  """Port of maxContacts (MuJoCo 3.17): contacts one CCD pass may return: 4 for pairs of
  cylinders, boxes and meshes, 2 for capsules with those, else 1."""
  t1 = I[O1I + IT]
  t2 = I[O2I + IT]
  if disabled(m, mjDSBL_NATIVECCD):
    return 1
  if t1 == mjGEOM_BOX and t2 == mjGEOM_BOX:
    return 8
  if disabled(m, mjDSBL_MULTICCD):
    return 1
  poly1 = t1 == mjGEOM_BOX or t1 == mjGEOM_MESH or t1 == mjGEOM_CYLINDER
  poly2 = t2 == mjGEOM_BOX or t2 == mjGEOM_MESH or t2 == mjGEOM_CYLINDER
  if poly1 and poly2:
    return 4
  if (
    (poly1 and t2 == mjGEOM_CAPSULE)
    or (t1 == mjGEOM_CAPSULE and poly2)
    or (t1 == mjGEOM_CAPSULE and t2 == mjGEOM_CAPSULE)
  ):
    return 2
  return 1


# ---- analytic normals (libccd path) ----


@jit
def _ellipsoid_inside(p0, p1, p2, n0, n1, n2, s0, s1, s2):
  """Port of mjc_ellipsoidInside: for a point inside the ellipsoid, iterates the normal at the
  surface point hit by the ray along the normal (at most 30 steps, until it moves less than
  1e-6); returns (processed, normal)."""
  i0 = 1 / (s0 * s0)
  i1 = 1 / (s1 * s1)
  i2 = 1 / (s2 * s2)
  c = p0 * p0 * i0 + p1 * p1 * i1 + p2 * p2 * i2 - 1
  if c > 0:
    return False, n0, n1, n2
  _, n0, n1, n2 = normalize3_scalars(n0, n1, n2)
  for it in range(30):
    # ray pos + x*nrm (x >= 0) against the ellipsoid
    a = n0 * n0 * i0 + n1 * n1 * i1 + n2 * n2 * i2
    b = p0 * n0 * i0 + p1 * n1 * i1 + p2 * n2 * i2
    det = b * b - a * c
    if det < mjMINVAL or a < mjMINVAL:
      return it > 0, n0, n1, n2
    x = (-b + math.sqrt(det)) / a
    if x < 0:
      return it > 0, n0, n1, n2

    # normal at the hit point
    _, m0, m1, m2 = normalize3_scalars((p0 + n0 * x) * i0, (p1 + n1 * x) * i1, (p2 + n2 * x) * i2)
    e0 = n0 - m0
    e1 = n1 - m1
    e2 = n2 - m2
    change = math.sqrt(e0 * e0 + e1 * e1 + e2 * e2)
    n0, n1, n2 = m0, m1, m2
    if change < 1e-6:
      break
  return True, n0, n1, n2


@jit
def _ellipsoid_outside(p0, p1, p2, s0, s1, s2):
  """Port of mjc_ellipsoidOutside: normal of the ellipsoid point closest to a point outside it,
  from Newton steps on the multiplier of the projection (at most 30)."""
  q0 = s0 * s0
  q1 = s1 * s1
  q2 = s2 * s2
  t0 = p0 * p0 * q0
  t1 = p1 * p1 * q1
  t2 = p2 * p2 * q2
  la = 0.0
  for _ in range(30):
    r0 = 1 / (q0 + la)
    r1 = 1 / (q1 + la)
    r2 = 1 / (q2 + la)
    val = t0 * r0 * r0 + t1 * r1 * r1 + t2 * r2 * r2 - 1
    if val < 1e-6:
      break
    deriv = -2 * (t0 * r0 * r0 * r0 + t1 * r1 * r1 * r1 + t2 * r2 * r2 * r2)
    if deriv > -mjMINVAL:
      break
    delta = -val / deriv
    if delta < 1e-6:
      break
    la += delta
  _, n0, n1, n2 = normalize3_scalars(p0 / (q0 + la), p1 / (q1 + la), p2 / (q2 + la))
  return n0, n1, n2


@jit
def _geom_normal(m, d, con, i, g, sgn):
  """One geom's part of mjc_fixNormal: (processed, world normal) of geom g (a sphere, capsule,
  ellipsoid or cylinder) at contact row i, whose normal times sgn points out of g."""
  t = m.geom_type[g]
  mat_ = d.geom_xmat[g]
  size = m.geom_size[g]

  # contact point and normal in the geom frame
  e0 = con[i, 1] - d.geom_xpos[g, 0]
  e1 = con[i, 2] - d.geom_xpos[g, 1]
  e2 = con[i, 3] - d.geom_xpos[g, 2]
  p0 = mat_[0] * e0 + mat_[3] * e1 + mat_[6] * e2
  p1 = mat_[1] * e0 + mat_[4] * e1 + mat_[7] * e2
  p2 = mat_[2] * e0 + mat_[5] * e1 + mat_[8] * e2
  c0 = con[i, 4] * sgn
  c1 = con[i, 5] * sgn
  c2 = con[i, 6] * sgn
  n0 = mat_[0] * c0 + mat_[3] * c1 + mat_[6] * c2
  n1 = mat_[1] * c0 + mat_[4] * c1 + mat_[7] * c2
  n2 = mat_[2] * c0 + mat_[5] * c1 + mat_[8] * c2

  processed = False
  if t == mjGEOM_SPHERE:
    n0, n1, n2 = p0, p1, p2
    processed = True
  elif t == mjGEOM_CAPSULE:
    # nearest point of the segment
    if p2 < -size[1]:
      n2 = p2 + size[1]
    elif p2 > size[1]:
      n2 = p2 - size[1]
    else:
      n2 = 0.0
    n0 = p0
    n1 = p1
    processed = True
  elif t == mjGEOM_ELLIPSOID:
    if size[0] >= mjMINVAL and size[1] >= mjMINVAL and size[2] >= mjMINVAL:
      dst1 = (
        p0 * p0 / (size[0] * size[0])
        + p1 * p1 / (size[1] * size[1])
        + p2 * p2 / (size[2] * size[2])
      )
      if dst1 <= 1:
        processed, n0, n1, n2 = _ellipsoid_inside(p0, p1, p2, n0, n1, n2, size[0], size[1], size[2])
      else:
        n0, n1, n2 = _ellipsoid_outside(p0, p1, p2, size[0], size[1], size[2])
        processed = True
  elif t == mjGEOM_CYLINDER:
    # round wall, unless within 5% of a flat one or not 4x closer to the round one
    if abs(p2) <= 0.95 * size[1]:
      dst1 = abs(size[1] - abs(p2))
      dst2 = abs(size[0] - math.sqrt(p0 * p0 + p1 * p1))
      if not dst1 < 0.25 * dst2:
        n0 = p0
        n1 = p1
        n2 = 0.0
        processed = True

  if not processed:
    return False, 0.0, 0.0, 0.0
  _, n0, n1, n2 = normalize3_scalars(n0, n1, n2)
  return (
    True,
    mat_[0] * n0 + mat_[1] * n1 + mat_[2] * n2,
    mat_[3] * n0 + mat_[4] * n1 + mat_[5] * n2,
    mat_[6] * n0 + mat_[7] * n1 + mat_[8] * n2,
  )


@jit
def _fixable(m, g):
  """Whether mjc_fixNormal has an analytic normal for geom g (-1: none)."""
  if g < 0:
    return False
  t = m.geom_type[g]
  return t == mjGEOM_SPHERE or t == mjGEOM_CAPSULE or t == mjGEOM_ELLIPSOID or t == mjGEOM_CYLINDER


@jit
def fix_normal(m, d, con, i, g1, g2):
  """Port of mjc_fixNormal, engine_collision_convex.c: replaces the normal of contact row i by
  the analytic normal of g1 and/or g2 at the contact point (spheres, capsules, ellipsoids, the
  round wall of cylinders), the normalized difference when both have one."""
  ok1 = False
  ok2 = False
  a0 = a1 = a2 = b0 = b1 = b2 = 0.0
  if _fixable(m, g1):
    ok1, a0, a1, a2 = _geom_normal(m, d, con, i, g1, 1.0)
  if _fixable(m, g2):
    ok2, b0, b1, b2 = _geom_normal(m, d, con, i, g2, -1.0)
  if ok1 and ok2:
    _, n0, n1, n2 = normalize3_scalars(a0 - b0, a1 - b1, a2 - b2)
    con[i, 4] = n0
    con[i, 5] = n1
    con[i, 6] = n2
  elif ok1:
    con[i, 4] = a0
    con[i, 5] = a1
    con[i, 6] = a2
  elif ok2:
    con[i, 4] = b0 * -1.0
    con[i, 5] = b1 * -1.0
    con[i, 6] = b2 * -1.0


# ---- mjc_Convex ----


@jit
def _rotate_frame(F, o, c0, c1, c2, rot):
  """mju_rotateFrame: rotates the object's frame (F[o + OM], F[o + OP]) by rot (a row-major
  9-tuple) about the point c."""
  mo = o + OM
  r = (
    F[mo],
    F[mo + 1],
    F[mo + 2],
    F[mo + 3],
    F[mo + 4],
    F[mo + 5],
    F[mo + 6],
    F[mo + 7],
    F[mo + 8],
  )
  for a in range(3):
    for b in range(3):
      F[mo + 3 * a + b] = rot[3 * a] * r[b] + rot[3 * a + 1] * r[3 + b] + rot[3 * a + 2] * r[6 + b]

  # the origin's displacement: rot*rel - rel, rel = c - pos
  e0 = c0 - F[o + OP]
  e1 = c1 - F[o + OP + 1]
  e2 = c2 - F[o + OP + 2]
  v0 = rot[0] * e0 + rot[1] * e1 + rot[2] * e2
  v1 = rot[3] * e0 + rot[4] * e1 + rot[5] * e2
  v2 = rot[6] * e0 + rot[7] * e1 + rot[8] * e2
  v0 -= e0
  v1 -= e1
  v2 -= e2
  F[o + OP] -= v0
  F[o + OP + 1] -= v1
  F[o + OP + 2] -= v2


@jit
def _reset_obj(d, F, o, g):
  """Restores a CCD object's pose from the geom's."""
  for k in range(3):
    F[o + OP + k] = d.geom_xpos[g, k]
  for k in range(9):
    F[o + OM + k] = d.geom_xmat[g, k]


@jit
def _is_distinct(con, ncon, tolerance):
  """Port of mjc_isDistinctContact: whether row ncon - 1 is farther than tolerance from every
  earlier row."""
  last = ncon - 1
  for i in range(last):
    e0 = con[i, 1] - con[last, 1]
    e1 = con[i, 2] - con[last, 2]
    e2 = con[i, 3] - con[last, 3]
    if math.sqrt(e0 * e0 + e1 * e1 + e2 * e2) <= tolerance:
      return False
  return True


@jit
def _convex_libccd(m, d, F, I, g1, g2, margin, con):
  """mjc_Convex with mjDSBL_NATIVECCD: libccd's MPR (mpr.py) and fixed normals, then, unless
  mjDSBL_MULTICCD or a sphere or ellipsoid is involved, up to 4 more contacts from the geoms
  rotated by +-1e-3 rad about the contact's tangent axes (in opposite senses about the contact
  point), kept when farther than 1e-3 * the smaller bounding radius from the others; they take
  the first contact's depth."""
  ncon = libccd_penetration(m, F, I, con, 0, margin)
  if ncon:
    fix_normal(m, d, con, 0, g1, g2)
  t1 = m.geom_type[g1]
  t2 = m.geom_type[g2]
  multiccd = not disabled(m, mjDSBL_MULTICCD)
  if (
    ncon != 1
    or not multiccd
    or t1 == mjGEOM_ELLIPSOID
    or t1 == mjGEOM_SPHERE
    or t2 == mjGEOM_ELLIPSOID
    or t2 == mjGEOM_SPHERE
  ):
    return ncon

  # tangent axes of the first contact
  frame = local_array(9)
  frame[0] = con[0, 4]
  frame[1] = con[0, 5]
  frame[2] = con[0, 6]
  for k in range(3, 9):
    frame[k] = 0.0
  mju_makeFrame(frame)
  tolerance = 1e-3 * min(m.geom_rbound[g1], m.geom_rbound[g2])
  c0 = con[0, 1]
  c1 = con[0, 2]
  c2 = con[0, 3]

  # both geoms rotated about the contact point, in opposite senses
  for axis in range(2):
    x0 = frame[3 + 3 * axis]
    x1 = frame[4 + 3 * axis]
    x2 = frame[5 + 3 * axis]
    for side in range(2):
      angle = -1e-3 if side == 0 else 1e-3
      s = math.sin(angle * 0.5)
      rot = quat2mat_scalars(math.cos(angle * 0.5), x0 * s, x1 * s, x2 * s)
      _rotate_frame(F, O1, c0, c1, c2, rot)
      rott = (rot[0], rot[3], rot[6], rot[1], rot[4], rot[7], rot[2], rot[5], rot[8])
      _rotate_frame(F, O2, c0, c1, c2, rott)

      # a new contact far enough from the others
      n = libccd_penetration(m, F, I, con, ncon, margin)
      if n:
        fix_normal(m, d, con, ncon, g1, g2)
      if n and _is_distinct(con, ncon + 1, tolerance):
        con[ncon, 0] = con[0, 0]
        ncon += 1

      _reset_obj(d, F, O1, g1)
      _reset_obj(d, F, O2, g2)
  return ncon


@jit
def mjc_convex(m, d, g1, g2, margin, con):
  """Port of mjc_Convex, engine_collision_convex.c (MuJoCo 3.17): native CCD with
  multi-contact, or libccd's MPR with mjDSBL_NATIVECCD."""
  F = d.scratch_ccd
  I = d.scratch_ccdi
  init_obj(m, d, F, I, O1, O1I, g1, margin)
  init_obj(m, d, F, I, O2, O2I, g2, margin)
  if disabled(m, mjDSBL_NATIVECCD):
    return _convex_libccd(m, d, F, I, g1, g2, margin, con)
  return penetration(m, F, I, con, 0, _max_contacts(m, F, I), margin)


@jit
def _quad_area(m, vadr, I, ords, a, b, c, d):
  """Area of the mesh quadrilateral with polygon positions a b c d, from its diagonals."""
  va = vadr + I[ords + a]
  vb = vadr + I[ords + b]
  vc = vadr + I[ords + c]
  vd = vadr + I[ords + d]
  # numba's float() keeps a float32 a float32: widen before subtracting, as MuJoCo's mjtNum
  ac0 = np.float64(m.mesh_vert[va, 0]) - np.float64(m.mesh_vert[vc, 0])
  ac1 = np.float64(m.mesh_vert[va, 1]) - np.float64(m.mesh_vert[vc, 1])
  ac2 = np.float64(m.mesh_vert[va, 2]) - np.float64(m.mesh_vert[vc, 2])
  bd0 = np.float64(m.mesh_vert[vb, 0]) - np.float64(m.mesh_vert[vd, 0])
  bd1 = np.float64(m.mesh_vert[vb, 1]) - np.float64(m.mesh_vert[vd, 1])
  bd2 = np.float64(m.mesh_vert[vb, 2]) - np.float64(m.mesh_vert[vd, 2])
  x0 = ac1 * bd2 - ac2 * bd1
  x1 = ac2 * bd0 - ac0 * bd2
  x2 = ac0 * bd1 - ac1 * bd0
  return 0.5 * math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)


@jit
def _plane_vertex(m, d, con, i, v, g1, g2, margin, n0, n1, n2):
  """Contact row i at mesh vertex row v if within the margin and below the mesh center."""
  mat2 = d.geom_xmat[g2]
  x0 = float(m.mesh_vert[v, 0])
  x1 = float(m.mesh_vert[v, 1])
  x2 = float(m.mesh_vert[v, 2])
  q0 = mat2[0] * x0 + mat2[1] * x1 + mat2[2] * x2 + d.geom_xpos[g2, 0]
  q1 = mat2[3] * x0 + mat2[4] * x1 + mat2[5] * x2 + d.geom_xpos[g2, 1]
  q2 = mat2[6] * x0 + mat2[7] * x1 + mat2[8] * x2 + d.geom_xpos[g2, 2]
  dist = (
    n0 * (q0 - d.geom_xpos[g1, 0]) + n1 * (q1 - d.geom_xpos[g1, 1]) + n2 * (q2 - d.geom_xpos[g1, 2])
  )
  if dist > margin:
    return 0
  if (
    n0 * (q0 - d.geom_xpos[g2, 0]) + n1 * (q1 - d.geom_xpos[g2, 1]) + n2 * (q2 - d.geom_xpos[g2, 2])
  ) > 0:
    return 0
  s = dist * -0.5
  set_contact(con, i, dist, n0 * s + q0, n1 * s + q1, n2 * s + q2, n0, n1, n2)
  return 1


@jit
def mjc_plane_convex(m, d, g1, g2, margin, con):
  """Port of mjc_PlaneConvex, engine_collision_convex.c (MuJoCo 3.17): plane against an
  ellipsoid or mesh."""
  F = d.scratch_ccd
  I = d.scratch_ccdi
  mat1 = d.geom_xmat[g1]
  n0 = mat1[2]
  n1 = mat1[5]
  n2 = mat1[8]
  init_obj(m, d, F, I, O1, O1I, g2, 0.0)

  # support point against the plane normal
  v0, v1, v2 = obj_support(m, F, I, O1, O1I, -n0, -n1, -n2)
  dist = (
    n0 * (v0 - d.geom_xpos[g1, 0]) + n1 * (v1 - d.geom_xpos[g1, 1]) + n2 * (v2 - d.geom_xpos[g1, 2])
  )
  if dist > margin:
    return 0
  s = dist * -0.5
  set_contact(con, 0, dist, n0 * s + v0, n1 * s + v1, n2 * s + v2, n0, n1, n2)

  # ellipsoid, or no polygon at the support vertex: single contact
  if m.geom_dataid[g2] == -1 or I[O1I + IFNUM] == 0 or I[O1I + IVI] < 0:
    return 1
  vert = I[O1I + IVI]
  vadr = I[O1I + IVADR]

  # plane normal in the mesh frame
  mat2 = d.geom_xmat[g2]
  l0 = n0 * mat2[0] + n1 * mat2[3] + n2 * mat2[6]
  l1 = n0 * mat2[1] + n1 * mat2[4] + n2 * mat2[7]
  l2 = n0 * mat2[2] + n1 * mat2[5] + n2 * mat2[8]

  # polygon at the support vertex facing the plane most
  npoly = mesh_vertex_polys(m, I, O1I, vert, MC_PL1)
  best = 1.0
  poly = -1
  for i in range(npoly):
    p = I[MC_PL1 + i]
    q0, q1, q2 = mesh_poly_normal_local(m, I, O1I, p)
    dot = q0 * l0 + q1 * l1 + q2 * l2
    if best > dot:
      poly = p
      best = dot
  if poly < 0:
    return 1
  nvert = mesh_poly_verts(m, I, O1I, poly, MC_ORD)
  a = 0
  for i in range(nvert):
    if I[MC_ORD + i] == vert:
      a = i
      break

  # the next three vertices, or the largest quadrilateral through the support vertex
  b = (a + 1) % nvert
  c = (a + 2) % nvert
  e = (a + 3) % nvert
  count = nvert
  if nvert >= 5:
    count = 4
    area = _quad_area(m, vadr, I, MC_ORD, a, b, c, e)
    while True:
      en = (e + 1) % nvert
      new = _quad_area(m, vadr, I, MC_ORD, a, b, c, en)
      if area >= new:
        break
      area = new
      e = en
      while True:
        cn = (c + 1) % nvert
        new = _quad_area(m, vadr, I, MC_ORD, a, b, cn, e)
        if not area < new:
          break
        area = new
        c = cn
      while True:
        bn = (b + 1) % nvert
        new = _quad_area(m, vadr, I, MC_ORD, a, bn, c, e)
        if not area < new:
          break
        area = new
        b = bn
  elif nvert < 2:
    return 1

  # contacts at those vertices within the margin
  ncon = 1
  for k in range(1, count):
    pos = b if k == 1 else (c if k == 2 else e)
    ncon += _plane_vertex(m, d, con, ncon, vadr + I[MC_ORD + pos], g1, g2, margin, n0, n1, n2)
  return ncon


@stage(M, D, i8, i8, f8, mat, restype=i8, needed=CONVEX_PAIRS)
def collide_convex(m, d, g1, g2, margin, con):
  """Contacts of a convex geom pair routed to MuJoCo's general convex functions (type(g1) <=
  type(g2)): mjc_PlaneConvex for a plane, else mjc_Convex. Returns the contact count."""
  if m.geom_type[g1] == mjGEOM_PLANE:
    return mjc_plane_convex(m, d, g1, g2, margin, con)
  return mjc_convex(m, d, g1, g2, margin, con)
