"""General convex collision: mjc_Convex and mjc_PlaneConvex (engine_collision_convex.c,
MuJoCo 3.17).

mjc_Convex handles every convex pair without a dedicated function in MuJoCo 3.17's collision
table: sphere-ellipsoid, sphere-mesh, capsule-ellipsoid, capsule-cylinder, capsule-mesh,
ellipsoid-{ellipsoid, cylinder, box, mesh}, cylinder-{cylinder, box, mesh}, box-mesh and
mesh-mesh. It runs the native CCD (GJK + EPA, engine/collision/epa.py); pairs of cylinders,
boxes and meshes get up to 4 contacts, capsules with those up to 2, from the multi-contact
manifold (engine/collision/multicontact.py), unless opt.disableflags has mjDSBL_MULTICCD.

mjc_PlaneConvex (plane-ellipsoid, plane-mesh) takes the support point against the plane normal
and, for meshes, up to 3 more vertices of the hull polygon at that vertex that faces the plane
(the largest quadrilateral for bigger polygons), when within the margin.

Contacts are rows of `con` (d.scratch_con): dist, pos (3), frame (9) with the normal (from geom1
to geom2) first and the tangent rows zero, as MuJoCo leaves them.

Known differences from MuJoCo 3.17: with mjDSBL_NATIVECCD MuJoCo falls back to libccd's MPR,
which is not ported (the native CCD is used regardless); mesh support points come from an
exhaustive vertex search instead of the hull graph (see ccdobj.py); mesh polygons are the
compiled hull polygons (m.mesh_poly*), see features.py.
"""

import math

import numpy as np

from engine._jit import jit
from engine._stage import D
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import mat
from engine._stage import stage
from engine.collision.ccdobj import IFNUM
from engine.collision.ccdobj import IVADR
from engine.collision.ccdobj import IVI
from engine.collision.ccdobj import IT
from engine.collision.ccdobj import O1
from engine.collision.ccdobj import O1I
from engine.collision.ccdobj import O2
from engine.collision.ccdobj import O2I
from engine.collision.ccdobj import S_NX
from engine.collision.ccdobj import ST_D
from engine.collision.ccdobj import ST_X1
from engine.collision.ccdobj import ST_X2
from engine.collision.ccdobj import obj_support
from engine.collision.ccdobj import init_obj
from engine.collision.epa import ccd
from engine.collision.features import MC_ORD
from engine.collision.features import MC_PL1
from engine.collision.features import mesh_poly_normal_local
from engine.collision.features import mesh_poly_verts
from engine.collision.features import mesh_vertex_polys
from engine.enums import mjDSBL_MULTICCD
from engine.enums import mjDSBL_NATIVECCD
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_PLANE
from engine.enums import mjMINVAL


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
      set_contact(con, start + i, margin + F[ST_D + i], (F[a] + F[b]) * 0.5,
                  (F[a + 1] + F[b + 1]) * 0.5, (F[a + 2] + F[b + 2]) * 0.5, n0, n1, n2)
    return nx
  return 0


@jit
def _max_contacts(m, F, I):
  """Port of maxContacts (MuJoCo 3.17): contacts one CCD pass may return: 4 for pairs of
  cylinders, boxes and meshes, 2 for capsules with those, else 1."""
  t1 = I[O1I + IT]
  t2 = I[O2I + IT]
  if m.opt.disableflags[0] & mjDSBL_NATIVECCD:
    return 1
  if t1 == mjGEOM_BOX and t2 == mjGEOM_BOX:
    return 8
  if m.opt.disableflags[0] & mjDSBL_MULTICCD:
    return 1
  poly1 = t1 == mjGEOM_BOX or t1 == mjGEOM_MESH or t1 == mjGEOM_CYLINDER
  poly2 = t2 == mjGEOM_BOX or t2 == mjGEOM_MESH or t2 == mjGEOM_CYLINDER
  if poly1 and poly2:
    return 4
  if ((poly1 and t2 == mjGEOM_CAPSULE) or (t1 == mjGEOM_CAPSULE and poly2)
      or (t1 == mjGEOM_CAPSULE and t2 == mjGEOM_CAPSULE)):
    return 2
  return 1


@jit
def mjc_convex(m, d, g1, g2, margin, con):
  """Port of mjc_Convex, engine_collision_convex.c (MuJoCo 3.17): native CCD with
  multi-contact."""
  F = d.scratch_ccd
  I = d.scratch_ccdi
  init_obj(m, d, F, I, O1, O1I, g1, margin)
  init_obj(m, d, F, I, O2, O2I, g2, margin)
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
  dist = (n0 * (q0 - d.geom_xpos[g1, 0]) + n1 * (q1 - d.geom_xpos[g1, 1])
          + n2 * (q2 - d.geom_xpos[g1, 2]))
  if dist > margin:
    return 0
  if (n0 * (q0 - d.geom_xpos[g2, 0]) + n1 * (q1 - d.geom_xpos[g2, 1])
      + n2 * (q2 - d.geom_xpos[g2, 2])) > 0:
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
  dist = (n0 * (v0 - d.geom_xpos[g1, 0]) + n1 * (v1 - d.geom_xpos[g1, 1])
          + n2 * (v2 - d.geom_xpos[g1, 2]))
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


@stage(M, D, i8, i8, f8, mat, restype=i8)
def collide_convex(m, d, g1, g2, margin, con):
  """Contacts of a convex geom pair routed to MuJoCo's general convex functions (type(g1) <=
  type(g2)): mjc_PlaneConvex for a plane, else mjc_Convex. Returns the contact count."""
  if m.geom_type[g1] == mjGEOM_PLANE:
    return mjc_plane_convex(m, d, g1, g2, margin, con)
  return mjc_convex(m, d, g1, g2, margin, con)

