"""Narrowphase for plane, sphere, capsule and cylinder pairs: ports of MuJoCo 3.17's dedicated
pair functions (engine_collision_primitive.c).

Every `collide_<type1>_<type2>(m, d, g1, g2, margin, con)` takes two geoms ordered by type
(type(g1) <= type(g2) in mjtGeom order), posed by d.geom_xpos/d.geom_xmat, and writes up to
mjMAXCONPAIR contacts into `con` (shape (mjMAXCONPAIR, 13), normally d.scratch_con), returning
their number n. Row i holds what MuJoCo 3.17's pair function writes into its mjPreContact:
  con[i, 0]      dist, negative when penetrating
  con[i, 1:4]    pos, the contact point (midway between the surfaces)
  con[i, 4:7]    normal, pointing from geom1 to geom2 (first row of the contact frame)
  con[i, 7:10]   tangent hint (second frame row), zero where MuJoCo gives none
  con[i, 10:13]  zero
`complete_frame(con, i)` then finishes the frame as MuJoCo's mj_setContact does. Rows from n on
may have been used as scratch space.

A contact is reported when the surfaces are closer than `margin` (the driver passes the pair's
margin plus gap).
"""

import math

from engine._jit import jit
from engine.enums import mjMINVAL
from engine.math import mju_makeFrame
from engine.math import normalize3_scalars

# ---- contact rows ----


@jit
def set_contact(con, i, dist, px, py, pz, nx, ny, nz, tx, ty, tz):
  """Writes contact row i: distance, position, normal and tangent hint (third row zero)."""
  con[i, 0] = dist
  con[i, 1] = px
  con[i, 2] = py
  con[i, 3] = pz
  con[i, 4] = nx
  con[i, 5] = ny
  con[i, 6] = nz
  con[i, 7] = tx
  con[i, 8] = ty
  con[i, 9] = tz
  con[i, 10] = 0.0
  con[i, 11] = 0.0
  con[i, 12] = 0.0


@jit
def complete_frame(con, i):
  """Completes the contact frame of row i as MuJoCo 3.17 does for every narrowphase contact.

  MuJoCo copies the pair function's normal and tangent into frame rows 0 and 1 (row 2 zero) and
  calls mju_makeFrame: the normal is normalized; the tangent is used as the y hint when its
  squared norm is at least 0.25, otherwise the hint is world y (world z when |normal_y| >= 0.5);
  y is the hint made orthogonal to the normal and normalized, z = normal x y.
  """
  mju_makeFrame(con[i, 4:13])


# ---- plane collisions ----


@jit
def _raw_plane_sphere(con, i, margin, p1x, p1y, p1z, nx, ny, nz, p2x, p2y, p2z, radius):
  """Port of mjraw_PlaneSphere: plane through p1 with unit normal n against a sphere at p2.

  Writes contact i and returns 1, or returns 0 when the sphere is beyond the margin.
  """
  # normal distance of the center
  cdist = (p2x - p1x) * nx + (p2y - p1y) * ny + (p2z - p1z) * nz
  if cdist > margin + radius:
    return 0

  # depth and position
  dist = cdist - radius
  scl = -dist / 2 - radius
  set_contact(
    con, i, dist, p2x + nx * scl, p2y + ny * scl, p2z + nz * scl, nx, ny, nz, 0.0, 0.0, 0.0
  )
  return 1


@jit
def collide_plane_sphere(m, d, g1, g2, margin, con):
  """Port of mjc_PlaneSphere, engine_collision_primitive.c: at most one contact."""
  pos1 = d.geom_xpos[g1]
  mat1 = d.geom_xmat[g1]
  pos2 = d.geom_xpos[g2]
  return _raw_plane_sphere(
    con,
    0,
    margin,
    pos1[0],
    pos1[1],
    pos1[2],
    mat1[2],
    mat1[5],
    mat1[8],
    pos2[0],
    pos2[1],
    pos2[2],
    m.geom_size[g2, 0],
  )


@jit
def collide_plane_capsule(m, d, g1, g2, margin, con):
  """Port of mjc_PlaneCapsule, engine_collision_primitive.c: the two end spheres against the
  plane (0-2 contacts), with the capsule axis as tangent hint."""
  pos1 = d.geom_xpos[g1]
  mat1 = d.geom_xmat[g1]
  pos2 = d.geom_xpos[g2]
  mat2 = d.geom_xmat[g2]
  radius = m.geom_size[g2, 0]
  halflen = m.geom_size[g2, 1]

  # capsule axis and half segment
  ax = mat2[2]
  ay = mat2[5]
  az = mat2[8]
  sx = halflen * ax
  sy = halflen * ay
  sz = halflen * az

  # end points against the plane
  n1 = _raw_plane_sphere(
    con,
    0,
    margin,
    pos1[0],
    pos1[1],
    pos1[2],
    mat1[2],
    mat1[5],
    mat1[8],
    pos2[0] + sx,
    pos2[1] + sy,
    pos2[2] + sz,
    radius,
  )
  n2 = _raw_plane_sphere(
    con,
    n1,
    margin,
    pos1[0],
    pos1[1],
    pos1[2],
    mat1[2],
    mat1[5],
    mat1[8],
    pos2[0] - sx,
    pos2[1] - sy,
    pos2[2] - sz,
    radius,
  )

  # align contact frames with the capsule axis
  for i in range(n1 + n2):
    con[i, 7] = ax
    con[i, 8] = ay
    con[i, 9] = az
  return n1 + n2


@jit
def collide_plane_cylinder(m, d, g1, g2, margin, con):
  """Port of mjc_PlaneCylinder, engine_collision_primitive.c: the deepest rim point, the
  opposite rim point of the other disk, and two more points of the deeper disk (0-4 contacts)."""
  pos1 = d.geom_xpos[g1]
  mat1 = d.geom_xmat[g1]
  pos2 = d.geom_xpos[g2]
  mat2 = d.geom_xmat[g2]
  radius = m.geom_size[g2, 0]
  halflen = m.geom_size[g2, 1]
  nx = mat1[2]
  ny = mat1[5]
  nz = mat1[8]
  ax = mat2[2]
  ay = mat2[5]
  az = mat2[8]

  # make the axis point towards the plane
  prjaxis = nx * ax + ny * ay + nz * az
  if prjaxis > 0:
    ax = -ax
    ay = -ay
    az = -az
    prjaxis = -prjaxis

  # normal distance of the center
  dist0 = (pos2[0] - pos1[0]) * nx + (pos2[1] - pos1[1]) * ny + (pos2[2] - pos1[2]) * nz

  # -normal without its axis component, scaled to the radius
  vx = ax * prjaxis - nx
  vy = ay * prjaxis - ny
  vz = az * prjaxis - nz
  len_sqr = vx * vx + vy * vy + vz * vz
  if len_sqr >= mjMINVAL * mjMINVAL:
    scl = radius / math.sqrt(len_sqr)
    vx *= scl
    vy *= scl
    vz *= scl
  else:
    # disk parallel to the plane: the cylinder's x axis
    vx = mat2[0] * radius
    vy = mat2[3] * radius
    vz = mat2[6] * radius
  prjvec = vx * nx + vy * ny + vz * nz

  # half axis
  ax *= halflen
  ay *= halflen
  az *= halflen
  prjaxis *= halflen

  # first point: rim of the lower disk
  cnt = 0
  dist = dist0 + prjaxis + prjvec
  if dist > margin:
    return 0
  h = -dist * 0.5
  set_contact(
    con,
    cnt,
    dist,
    pos2[0] + vx + ax + nx * h,
    pos2[1] + vy + ay + ny * h,
    pos2[2] + vz + az + nz * h,
    nx,
    ny,
    nz,
    0.0,
    0.0,
    0.0,
  )
  cnt += 1

  # second point: rim of the upper disk
  dist = dist0 - prjaxis + prjvec
  if dist <= margin:
    h = -dist * 0.5
    set_contact(
      con,
      cnt,
      dist,
      pos2[0] + vx - ax + nx * h,
      pos2[1] + vy - ay + ny * h,
      pos2[2] + vz - az + nz * h,
      nx,
      ny,
      nz,
      0.0,
      0.0,
      0.0,
    )
    cnt += 1

  # two more points on the lower disk, a third of the way round each side
  prjvec1 = -prjvec * 0.5
  dist = dist0 + prjaxis + prjvec1
  if dist <= margin:
    # sideways vector
    _, wx, wy, wz = normalize3_scalars(vy * az - vz * ay, vz * ax - vx * az, vx * ay - vy * ax)
    scl = radius * math.sqrt(3.0) / 2
    wx *= scl
    wy *= scl
    wz *= scl
    h = -dist * 0.5
    set_contact(
      con,
      cnt,
      dist,
      pos2[0] + wx + ax - 0.5 * vx + nx * h,
      pos2[1] + wy + ay - 0.5 * vy + ny * h,
      pos2[2] + wz + az - 0.5 * vz + nz * h,
      nx,
      ny,
      nz,
      0.0,
      0.0,
      0.0,
    )
    cnt += 1
    set_contact(
      con,
      cnt,
      dist,
      pos2[0] - wx + ax - 0.5 * vx + nx * h,
      pos2[1] - wy + ay - 0.5 * vy + ny * h,
      pos2[2] - wz + az - 0.5 * vz + nz * h,
      nx,
      ny,
      nz,
      0.0,
      0.0,
      0.0,
    )
    cnt += 1
  return cnt


@jit
def collide_plane_box(m, d, g1, g2, margin, con):
  """Port of mjc_PlaneBox, engine_collision_primitive.c: box corners below the margin, taken in
  corner order, at most 4."""
  pos1 = d.geom_xpos[g1]
  mat1 = d.geom_xmat[g1]
  pos2 = d.geom_xpos[g2]
  mat2 = d.geom_xmat[g2]
  size = m.geom_size[g2]
  nx = mat1[2]
  ny = mat1[5]
  nz = mat1[8]
  dist = (pos2[0] - pos1[0]) * nx + (pos2[1] - pos1[1]) * ny + (pos2[2] - pos1[2]) * nz

  cnt = 0
  for i in range(8):
    # corner relative to the box center, in world axes
    vx = size[0] if i & 1 else -size[0]
    vy = size[1] if i & 2 else -size[1]
    vz = size[2] if i & 4 else -size[2]
    cx = mat2[0] * vx + mat2[1] * vy + mat2[2] * vz
    cy = mat2[3] * vx + mat2[4] * vy + mat2[5] * vz
    cz = mat2[6] * vx + mat2[7] * vy + mat2[8] * vz

    # skip corners too far or on the upper side
    ldist = nx * cx + ny * cy + nz * cz
    if dist + ldist > margin or ldist > 0:
      continue

    # contact
    cdist = dist + ldist
    h = -cdist / 2
    set_contact(
      con,
      cnt,
      cdist,
      cx + pos2[0] + nx * h,
      cy + pos2[1] + ny * h,
      cz + pos2[2] + nz * h,
      nx,
      ny,
      nz,
      0.0,
      0.0,
      0.0,
    )
    cnt += 1
    if cnt >= 4:
      return 4
  return cnt


# ---- sphere and capsule collisions ----


@jit
def _raw_sphere_sphere(con, i, margin, p1x, p1y, p1z, mat1, r1, p2x, p2y, p2z, mat2, r2):
  """Port of mjraw_SphereSphere: spheres at p1 and p2 (mat1/mat2 only orient the normal when
  the centers coincide). Writes contact i and returns 1, or returns 0."""
  # bounding test
  dx = p1x - p2x
  dy = p1y - p2y
  dz = p1z - p2z
  cdist_sqr = dx * dx + dy * dy + dz * dz
  min_dist = margin + r1 + r2
  if cdist_sqr > min_dist * min_dist:
    return 0

  # depth and normal
  dist = math.sqrt(cdist_sqr) - r1 - r2
  length, nx, ny, nz = normalize3_scalars(p2x - p1x, p2y - p1y, p2z - p1z)

  # same centers: normal is the cross product of the z axes ((1, 0, 0) if parallel)
  if length < mjMINVAL:
    _, nx, ny, nz = normalize3_scalars(
      mat1[5] * mat2[8] - mat1[8] * mat2[5],
      mat1[8] * mat2[2] - mat1[2] * mat2[8],
      mat1[2] * mat2[5] - mat1[5] * mat2[2],
    )

  # position
  scl = r1 + dist / 2
  set_contact(
    con, i, dist, nx * scl + p1x, ny * scl + p1y, nz * scl + p1z, nx, ny, nz, 0.0, 0.0, 0.0
  )
  return 1


@jit
def collide_sphere_sphere(m, d, g1, g2, margin, con):
  """Port of mjc_SphereSphere, engine_collision_primitive.c: at most one contact."""
  pos1 = d.geom_xpos[g1]
  pos2 = d.geom_xpos[g2]
  return _raw_sphere_sphere(
    con,
    0,
    margin,
    pos1[0],
    pos1[1],
    pos1[2],
    d.geom_xmat[g1],
    m.geom_size[g1, 0],
    pos2[0],
    pos2[1],
    pos2[2],
    d.geom_xmat[g2],
    m.geom_size[g2, 0],
  )


@jit
def collide_sphere_capsule(m, d, g1, g2, margin, con):
  """Port of mjc_SphereCapsule, engine_collision_primitive.c: the sphere against the nearest
  point of the capsule segment."""
  pos1 = d.geom_xpos[g1]
  pos2 = d.geom_xpos[g2]
  mat2 = d.geom_xmat[g2]
  length = m.geom_size[g2, 1]
  ax = mat2[2]
  ay = mat2[5]
  az = mat2[8]

  # projection on the axis, clipped to the segment
  x = ax * (pos1[0] - pos2[0]) + ay * (pos1[1] - pos2[1]) + az * (pos1[2] - pos2[2])
  x = min(max(x, -length), length)
  return _raw_sphere_sphere(
    con,
    0,
    margin,
    pos1[0],
    pos1[1],
    pos1[2],
    d.geom_xmat[g1],
    m.geom_size[g1, 0],
    ax * x + pos2[0],
    ay * x + pos2[1],
    az * x + pos2[2],
    mat2,
    m.geom_size[g2, 0],
  )


@jit
def collide_sphere_cylinder(m, d, g1, g2, margin, con):
  """Port of mjc_SphereCylinder, engine_collision_primitive.c: side (sphere-sphere with the
  axis point), cap (plane-sphere) or rim (sphere-point) contact, at most one."""
  pos1 = d.geom_xpos[g1]
  mat1 = d.geom_xmat[g1]
  r1 = m.geom_size[g1, 0]
  pos2 = d.geom_xpos[g2]
  mat2 = d.geom_xmat[g2]
  radius = m.geom_size[g2, 0]
  height = m.geom_size[g2, 1]
  ax = mat2[2]
  ay = mat2[5]
  az = mat2[8]

  # sphere center projected on the axis and on the mid plane
  vx = pos1[0] - pos2[0]
  vy = pos1[1] - pos2[1]
  vz = pos1[2] - pos2[2]
  x = ax * vx + ay * vy + az * vz
  a_x = ax * x
  a_y = ay * x
  a_z = az * x
  p_x = vx - a_x
  p_y = vy - a_y
  p_z = vz - a_z
  p_proj_sqr = p_x * p_x + p_y * p_y + p_z * p_z

  # collision type; center inside: the nearer of side and cap
  collide_side = abs(x) < height
  collide_cap = p_proj_sqr < radius * radius
  if collide_side and collide_cap:
    dist_cap = height - abs(x)
    dist_radius = radius - math.sqrt(p_proj_sqr)
    if dist_cap < dist_radius:
      collide_side = False
    else:
      collide_cap = False

  # side: sphere against the axis point
  if collide_side:
    return _raw_sphere_sphere(
      con,
      0,
      margin,
      pos1[0],
      pos1[1],
      pos1[2],
      mat1,
      r1,
      a_x + pos2[0],
      a_y + pos2[1],
      a_z + pos2[2],
      mat2,
      radius,
    )

  # cap: the cap plane against the sphere, normal flipped to point from sphere to cylinder
  if collide_cap:
    if x > 0:
      ncon = _raw_plane_sphere(
        con,
        0,
        margin,
        pos2[0] + ax * height,
        pos2[1] + ay * height,
        pos2[2] + az * height,
        ax,
        ay,
        az,
        pos1[0],
        pos1[1],
        pos1[2],
        r1,
      )
    else:
      ncon = _raw_plane_sphere(
        con,
        0,
        margin,
        pos2[0] - ax * height,
        pos2[1] - ay * height,
        pos2[2] - az * height,
        -ax,
        -ay,
        -az,
        pos1[0],
        pos1[1],
        pos1[2],
        r1,
      )
    if ncon:
      con[0, 4] = -con[0, 4]
      con[0, 5] = -con[0, 5]
      con[0, 6] = -con[0, 6]
    return ncon

  # rim: sphere against the nearest rim point
  scl = radius / math.sqrt(p_proj_sqr)
  h = height if x > 0 else -height
  return _raw_sphere_sphere(
    con,
    0,
    margin,
    pos1[0],
    pos1[1],
    pos1[2],
    mat1,
    r1,
    ax * h + p_x * scl + pos2[0],
    ay * h + p_y * scl + pos2[1],
    az * h + p_z * scl + pos2[2],
    mat2,
    0.0,
  )


@jit
def collide_capsule_capsule(m, d, g1, g2, margin, con):
  """Port of mjc_CapsuleCapsule, engine_collision_primitive.c (MuJoCo 3.17): nearest points of
  the two segments (one contact), or for axes within 1e-4 rad of parallel the two ends of the
  segments' overlap (up to two contacts).

  The parallel case follows MuJoCo 3.17's behaviour, measured against the library (it differs
  from older MuJoCo releases, which tested the segment ends one by one).
  """
  pos1 = d.geom_xpos[g1]
  mat1 = d.geom_xmat[g1]
  r1 = m.geom_size[g1, 0]
  pos2 = d.geom_xpos[g2]
  mat2 = d.geom_xmat[g2]
  r2 = m.geom_size[g2, 0]

  # scaled axes and center difference
  a1x = mat1[2] * m.geom_size[g1, 1]
  a1y = mat1[5] * m.geom_size[g1, 1]
  a1z = mat1[8] * m.geom_size[g1, 1]
  a2x = mat2[2] * m.geom_size[g2, 1]
  a2y = mat2[5] * m.geom_size[g2, 1]
  a2z = mat2[8] * m.geom_size[g2, 1]
  dx = pos1[0] - pos2[0]
  dy = pos1[1] - pos2[1]
  dz = pos1[2] - pos2[2]

  # normal equations of the segment parameters
  ma = a1x * a1x + a1y * a1y + a1z * a1z
  mb = -(a1x * a2x + a1y * a2y + a1z * a2z)
  mc = a2x * a2x + a2y * a2y + a2z * a2z
  u = -(a1x * dx + a1y * dy + a1z * dz)
  v = a2x * dx + a2y * dy + a2z * dz
  det = ma * mc - mb * mb

  # general configuration (axes more than 1e-4 rad from parallel): clipped nearest points
  if abs(det) >= 1e-8 * ma * mc:
    x1 = (mc * u - mb * v) / det
    x2 = (ma * v - mb * u) / det
    if x1 > 1:
      x1 = 1.0
      x2 = (v - mb) / mc
    elif x1 < -1:
      x1 = -1.0
      x2 = (v + mb) / mc
    if x2 > 1:
      x2 = 1.0
      x1 = min(max((u - mb) / ma, -1.0), 1.0)
    elif x2 < -1:
      x2 = -1.0
      x1 = min(max((u + mb) / ma, -1.0), 1.0)
    return _raw_sphere_sphere(
      con,
      0,
      margin,
      a1x * x1 + pos1[0],
      a1y * x1 + pos1[1],
      a1z * x1 + pos1[2],
      mat1,
      r1,
      a2x * x2 + pos2[0],
      a2y * x2 + pos2[1],
      a2z * x2 + pos2[2],
      mat2,
      r2,
    )

  # (nearly) parallel axes: the ends of the overlap of the two segments, in the order of
  # segment 1; an end of segment 2 projecting outside segment 1 is replaced by the end of
  # segment 1 and its nearest point on segment 2
  tm = (u + mb) / ma  # end -1 of segment 2, in segment 1's parameter
  tp = (u - mb) / ma  # end +1 of segment 2
  n = 0
  for k in range(2):
    if (k == 0) == (tm <= tp):
      t = tm
      end2 = -1.0
    else:
      t = tp
      end2 = 1.0
    x1 = min(max(t, -1.0), 1.0)
    x2 = end2 if x1 == t else min(max((v - mb * x1) / mc, -1.0), 1.0)
    n += _raw_sphere_sphere(
      con,
      n,
      margin,
      a1x * x1 + pos1[0],
      a1y * x1 + pos1[1],
      a1z * x1 + pos1[2],
      mat1,
      r1,
      a2x * x2 + pos2[0],
      a2y * x2 + pos2[1],
      a2z * x2 + pos2[2],
      mat2,
      r2,
    )
  return n
