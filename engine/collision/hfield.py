"""Height field against a convex geom: mjc_ConvexHField (engine_collision_convex.c, MuJoCo
3.17).

The geom is expressed in the height field's frame; after a bounding-sphere and a bounding-box
test, every grid cell under the geom's box is split into two triangles, each extruded down to
the base as a triangular prism, and the native CCD (GJK + EPA) collides each prism with the
geom, one contact per prism, up to mjMAXCONPAIR. Prisms and geom carry the margin as in
mjc_Convex (the CCD inflates each by half of it).

With mjDSBL_NATIVECCD, libccd's MPR (mpr.py, which inflates prism and geom by half the margin
too) replaces the native CCD, and the contact normals are then fixed as in mjc_Convex
(mjc_fixNormal: analytic normals of spheres, capsules, ellipsoids and cylinder walls).
"""

import math

from engine._jit import jit
from engine._stage import HFIELDS
from engine._stage import D
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import mat
from engine._stage import stage
from engine.collision.ccdobj import O1
from engine.collision.ccdobj import O1I
from engine.collision.ccdobj import O2
from engine.collision.ccdobj import O2I
from engine.collision.ccdobj import OM
from engine.collision.ccdobj import OMG
from engine.collision.ccdobj import OP
from engine.collision.ccdobj import OPR
from engine.collision.ccdobj import S_NX
from engine.collision.ccdobj import ST_D
from engine.collision.ccdobj import ST_X1
from engine.collision.ccdobj import ST_X2
from engine.collision.ccdobj import init_obj
from engine.collision.ccdobj import obj_support
from engine.collision.convex import fix_normal
from engine.collision.convex import set_contact
from engine.collision.epa import ccd
from engine.collision.mpr import libccd_penetration
from engine.enums import mjDSBL_NATIVECCD
from engine.enums import mjMAXCONPAIR
from engine.enums import mjMINVAL
from engine.flags import disabled


@jit
def _add_prism_vert(m, F, adr, ncol, r, c, i, dx, dy, size0, size1, size2):
  """Port of addPrismVert: shifts the prism's vertices and adds grid point (r + 1 - i, c)."""
  p = O1 + OPR
  for k in range(3):
    F[p + k] = F[p + 3 + k]
    F[p + 3 + k] = F[p + 6 + k]
    F[p + 9 + k] = F[p + 12 + k]
    F[p + 12 + k] = F[p + 15 + k]
  dr = 1 - i
  x = dx * c - size0
  y = dy * (r + dr) - size1
  F[p + 6] = x
  F[p + 15] = x
  F[p + 7] = y
  F[p + 16] = y
  F[p + 17] = float(m.hfield_data[adr + (r + dr) * ncol + c]) * size2


@stage(M, D, i8, i8, f8, mat, restype=i8, needed=HFIELDS)
def collide_hfield(m, d, g1, g2, margin, con):
  """Port of mjc_ConvexHField, engine_collision_convex.c: height field g1 against convex g2;
  writes up to mjMAXCONPAIR contact rows into con and returns their number."""
  F = d.scratch_ccd
  I = d.scratch_ccdi
  mat1 = d.geom_xmat[g1]
  hid = m.geom_dataid[g1]
  nrow = m.hfield_nrow[hid]
  ncol = m.hfield_ncol[hid]
  adr = m.hfield_adr[hid]
  size0 = m.hfield_size[hid, 0]
  size1 = m.hfield_size[hid, 1]
  size2 = m.hfield_size[hid, 2]
  size3 = m.hfield_size[hid, 3]

  # geom position in the height field frame
  e0 = d.geom_xpos[g2, 0] - d.geom_xpos[g1, 0]
  e1 = d.geom_xpos[g2, 1] - d.geom_xpos[g1, 1]
  e2 = d.geom_xpos[g2, 2] - d.geom_xpos[g1, 2]
  p0 = mat1[0] * e0 + mat1[3] * e1 + mat1[6] * e2
  p1 = mat1[1] * e0 + mat1[4] * e1 + mat1[7] * e2
  p2 = mat1[2] * e0 + mat1[5] * e1 + mat1[8] * e2

  # bounding sphere against the height field box
  radius = m.geom_rbound[g2] + margin
  if (
    (size0 < p0 - radius)
    or (-size0 > p0 + radius)
    or (size1 < p1 - radius)
    or (-size1 > p1 + radius)
    or (size2 < p2 - radius)
    or (-size3 > p2 + radius)
  ):
    return 0

  # CCD objects, geom in the height field frame
  init_obj(m, d, F, I, O1, O1I, g1, 0.0)
  init_obj(m, d, F, I, O2, O2I, g2, 0.0)
  mat2 = d.geom_xmat[g2]
  for i in range(3):
    for j in range(3):
      F[O2 + OM + 3 * i + j] = (
        mat1[i] * mat2[j] + mat1[3 + i] * mat2[3 + j] + mat1[6 + i] * mat2[6 + j]
      )
  F[O2 + OP] = p0
  F[O2 + OP + 1] = p1
  F[O2 + OP + 2] = p2

  # bounding box of the geom from its support points
  xmax = obj_support(m, F, I, O2, O2I, 1.0, 0.0, 0.0)[0]
  xmin = obj_support(m, F, I, O2, O2I, -1.0, 0.0, 0.0)[0]
  ymax = obj_support(m, F, I, O2, O2I, 0.0, 1.0, 0.0)[1]
  ymin = obj_support(m, F, I, O2, O2I, 0.0, -1.0, 0.0)[1]
  zmax = obj_support(m, F, I, O2, O2I, 0.0, 0.0, 1.0)[2]
  zmin = obj_support(m, F, I, O2, O2I, 0.0, 0.0, -1.0)[2]
  if (
    (xmin - margin > size0)
    or (xmax + margin < -size0)
    or (ymin - margin > size1)
    or (ymax + margin < -size1)
    or (zmin - margin > size2)
    or (zmax + margin < -size3)
  ):
    return 0

  # sub-grid under the box grown by the margin
  cmin = int(math.floor(((xmin - margin) + size0) / (2.0 * size0) * (ncol - 1)))
  cmax = int(math.ceil(((margin + xmax) + size0) / (2.0 * size0) * (ncol - 1)))
  rmin = int(math.floor(((ymin - margin) + size1) / (2.0 * size1) * (nrow - 1)))
  rmax = int(math.ceil(((margin + ymax) + size1) / (2.0 * size1) * (nrow - 1)))
  cmin = max(0, cmin)
  cmax = min(ncol - 1, cmax)
  rmin = max(0, rmin)
  rmax = min(nrow - 1, rmax)

  # both the prisms and the geom carry the margin
  F[O1 + OMG] = margin
  F[O2 + OMG] = margin
  zlow = zmin - margin
  dx = (2.0 * size0) / (ncol - 1)
  dy = (2.0 * size1) / (nrow - 1)
  for k in range(3):
    F[O1 + OPR + 3 * k + 2] = -size3

  # all prisms of the sub-grid
  iters = m.opt.ccd_iterations[0]
  tol = m.opt.ccd_tolerance[0]
  libccd = disabled(m, mjDSBL_NATIVECCD)
  ncon = 0
  for r in range(rmin, rmax):
    _add_prism_vert(m, F, adr, ncol, r, cmin, 0, dx, dy, size0, size1, size2)
    _add_prism_vert(m, F, adr, ncol, r, cmin, 1, dx, dy, size0, size1, size2)
    for c in range(cmin + 1, cmax + 1):
      for i in range(2):
        _add_prism_vert(m, F, adr, ncol, r, c, i, dx, dy, size0, size1, size2)

        # prism entirely below the geom
        if F[O1 + OPR + 11] < zlow and F[O1 + OPR + 14] < zlow and F[O1 + OPR + 17] < zlow:
          continue

        # penetration of the prism and the geom (libccd: a contact row in the hfield frame)
        if libccd:
          if not libccd_penetration(m, F, I, con, ncon, margin):
            continue
          a0 = con[ncon, 4]
          a1 = con[ncon, 5]
          a2 = con[ncon, 6]
          q0 = con[ncon, 1]
          q1 = con[ncon, 2]
          q2 = con[ncon, 3]
          dist = con[ncon, 0]
        else:
          dist = ccd(m, F, I, iters, tol, 1, 0.0)
          if not (dist < 0 and I[S_NX] > 0):
            continue
          dist = margin + F[ST_D]
          a0 = F[ST_X1] - F[ST_X2]
          a1 = F[ST_X1 + 1] - F[ST_X2 + 1]
          a2 = F[ST_X1 + 2] - F[ST_X2 + 2]
          norm = math.sqrt(a0 * a0 + a1 * a1 + a2 * a2)
          if norm < mjMINVAL:
            a0, a1, a2 = 1.0, 0.0, 0.0
          else:
            inv = 1 / norm
            a0 *= inv
            a1 *= inv
            a2 *= inv
          q0 = 0.5 * (F[ST_X1] + F[ST_X2])
          q1 = 0.5 * (F[ST_X1 + 1] + F[ST_X2 + 1])
          q2 = 0.5 * (F[ST_X1 + 2] + F[ST_X2 + 2])

        # to the world frame
        w0 = mat1[0] * q0 + mat1[1] * q1 + mat1[2] * q2 + d.geom_xpos[g1, 0]
        w1 = mat1[3] * q0 + mat1[4] * q1 + mat1[5] * q2 + d.geom_xpos[g1, 1]
        w2 = mat1[6] * q0 + mat1[7] * q1 + mat1[8] * q2 + d.geom_xpos[g1, 2]
        set_contact(
          con,
          ncon,
          dist,
          w0,
          w1,
          w2,
          mat1[0] * a0 + mat1[1] * a1 + mat1[2] * a2,
          mat1[3] * a0 + mat1[4] * a1 + mat1[5] * a2,
          mat1[6] * a0 + mat1[7] * a1 + mat1[8] * a2,
        )
        ncon += 1
        if ncon >= mjMAXCONPAIR:
          return _fix_normals(m, d, con, ncon, g1, g2)
  return _fix_normals(m, d, con, ncon, g1, g2)


@jit
def _fix_normals(m, d, con, ncon, g1, g2):
  """With mjDSBL_NATIVECCD, MuJoCo's analytic normals of the geom (mjc_fixNormal); returns
  ncon."""
  if disabled(m, mjDSBL_NATIVECCD):
    for i in range(ncon):
      fix_normal(m, d, con, i, g1, g2)
  return ncon
