"""Sensors and mechanical energy (port of engine_sensor.c).

`sensor_pos`, `sensor_vel` and `sensor_acc` fill `d.sensordata` for the sensors whose
`m.sensor_needstage` is the stage's, then clamp each to `m.sensor_cutoff` by its datatype.
They only read `d`. MuJoCo evaluates two quantities lazily inside its sensor stages; here the
pipeline (forward.sensors_vel, forward.sensors_acc) computes them first, under the same
condition (`needs_subtree_vel`, `needs_rne_post`):
  - before sensor_vel: `smooth.subtree_vel(m, d)` when a velocity-stage subtreelinvel,
    subtreeangmom or user sensor exists (d.subtree_linvel, d.subtree_angmom);
  - before sensor_acc: `smooth.rne_post_constraint(m, d)` when an acceleration-stage
    accelerometer, force, torque, framelinacc, frameangacc or user sensor exists (d.cacc,
    d.cfrc_int, d.cfrc_ext).
All stages are skipped when mjDSBL_SENSOR is set. Noise is never applied (as in MuJoCo).

`energy_pos` and `energy_vel` fill `d.energy` (potential, kinetic); the driver calls them when
mjENBL_ENERGY is set, and e_potential/e_kinetic sensors call them on their own.

Rangefinders cast rays with engine/ray.py; touch and contact sensors read d.contact_* and
d.efc_force (contact_sensor: matching, reductions, relative velocities), limit sensors the limit
rows of d.efc_* (they need the collision and constraint stages first). geomdist, geomnormal and
geomfromto measure geom pairs with support.geom_distance (mj_geomDistance); plugin sensors
are computed by their plugins (engine/plugin_call.py) at their stage. Not computed yet (the
output is left as it is; engine/loader.py reports such models as unsupported): tactile (signed
distances of the touching geoms at the vertices of a mesh).
Known differences: MuJoCo 3.17 keeps lazy-evaluation flags (d.flg_energyvel, ...) that we do not
have, so our e_kinetic sensor always reports the current kinetic energy, where MuJoCo's repeats
the previous mj_forward's value when mjENBL_ENERGY is set.
"""

import math

import numpy as np

from engine import history as _history
from engine import plugin_call
from engine import sleep as _sleep
from engine._jit import always_inline
from engine._jit import jit
from engine._jit import local_array
from engine._stage import ENERGY
from engine._stage import SENSORS
from engine._stage import SENSORS_OR_PLUGINS
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import runs_stage
from engine._stage import stage
from engine._stage import vec
from engine.enums import mjCNSTR_LIMIT_JOINT
from engine.enums import mjCNSTR_LIMIT_TENDON
from engine.enums import mjCONDATA_ANGVEL
from engine.enums import mjCONDATA_DIST
from engine.enums import mjCONDATA_FORCE
from engine.enums import mjCONDATA_FOUND
from engine.enums import mjCONDATA_LINVEL
from engine.enums import mjCONDATA_NORMAL
from engine.enums import mjCONDATA_POS
from engine.enums import mjCONDATA_TANGENT
from engine.enums import mjCONDATA_TORQUE
from engine.enums import mjDATATYPE_POSITIVE
from engine.enums import mjDATATYPE_REAL
from engine.enums import mjDSBL_GRAVITY
from engine.enums import mjDSBL_SENSOR
from engine.enums import mjDSBL_SPRING
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjMAXVAL
from engine.enums import mjMINVAL
from engine.enums import mjOBJ_BODY
from engine.enums import mjOBJ_GEOM
from engine.enums import mjOBJ_SITE
from engine.enums import mjOBJ_TENDON
from engine.enums import mjOBJ_UNKNOWN
from engine.enums import mjOBJ_XBODY
from engine.enums import mjPI
from engine.enums import mjPROJ_ORTHOGRAPHIC
from engine.enums import mjRAYDATA_DEPTH
from engine.enums import mjRAYDATA_DIR
from engine.enums import mjRAYDATA_DIST
from engine.enums import mjRAYDATA_NORMAL
from engine.enums import mjRAYDATA_ORIGIN
from engine.enums import mjRAYDATA_POINT
from engine.enums import mjS_AWAKE
from engine.enums import mjSENS_ACCELEROMETER
from engine.enums import mjSENS_ACTUATORFRC
from engine.enums import mjSENS_ACTUATORPOS
from engine.enums import mjSENS_ACTUATORVEL
from engine.enums import mjSENS_BALLANGVEL
from engine.enums import mjSENS_BALLQUAT
from engine.enums import mjSENS_CAMPROJECTION
from engine.enums import mjSENS_CLOCK
from engine.enums import mjSENS_CONTACT
from engine.enums import mjSENS_E_KINETIC
from engine.enums import mjSENS_E_POTENTIAL
from engine.enums import mjSENS_FORCE
from engine.enums import mjSENS_FRAMEANGACC
from engine.enums import mjSENS_FRAMEANGVEL
from engine.enums import mjSENS_FRAMELINACC
from engine.enums import mjSENS_FRAMELINVEL
from engine.enums import mjSENS_FRAMEPOS
from engine.enums import mjSENS_FRAMEQUAT
from engine.enums import mjSENS_FRAMEXAXIS
from engine.enums import mjSENS_FRAMEYAXIS
from engine.enums import mjSENS_FRAMEZAXIS
from engine.enums import mjSENS_GEOMDIST
from engine.enums import mjSENS_GEOMFROMTO
from engine.enums import mjSENS_GEOMNORMAL
from engine.enums import mjSENS_GYRO
from engine.enums import mjSENS_INSIDESITE
from engine.enums import mjSENS_JOINTACTFRC
from engine.enums import mjSENS_JOINTLIMITFRC
from engine.enums import mjSENS_JOINTLIMITPOS
from engine.enums import mjSENS_JOINTLIMITVEL
from engine.enums import mjSENS_JOINTPOS
from engine.enums import mjSENS_JOINTVEL
from engine.enums import mjSENS_MAGNETOMETER
from engine.enums import mjSENS_PLUGIN
from engine.enums import mjSENS_RANGEFINDER
from engine.enums import mjSENS_SUBTREEANGMOM
from engine.enums import mjSENS_SUBTREECOM
from engine.enums import mjSENS_SUBTREELINVEL
from engine.enums import mjSENS_TENDONACTFRC
from engine.enums import mjSENS_TENDONLIMITFRC
from engine.enums import mjSENS_TENDONLIMITPOS
from engine.enums import mjSENS_TENDONLIMITVEL
from engine.enums import mjSENS_TENDONPOS
from engine.enums import mjSENS_TENDONVEL
from engine.enums import mjSENS_TORQUE
from engine.enums import mjSENS_TOUCH
from engine.enums import mjSENS_USER
from engine.enums import mjSENS_VELOCIMETER
from engine.enums import mjSTAGE_ACC
from engine.enums import mjSTAGE_POS
from engine.enums import mjSTAGE_VEL
from engine.enums import mjTRN_TENDON
from engine.flags import disabled
from engine.math import mju_normalize4
from engine.math import mul_quat_scalars
from engine.math import normalize3_scalars
from engine.ray import cam_intrinsics
from engine.ray import cam_pixel_ray
from engine.ray import cast_ray
from engine.ray import cast_ray_geom
from engine.ray import multi_ray_prepare
from engine.ray import single_ray
from engine.support import contact_force
from engine.support import geom_distance

# ---- small frame helpers (scalars in, tuples out: no allocation) ----


@jit
def _mat_t_vec(mat, x, y, z):
  """mat' * (x, y, z) for a 3x3 row-major mat (mju_mulMatTVec3)."""
  return (
    mat[0] * x + mat[3] * y + mat[6] * z,
    mat[1] * x + mat[4] * y + mat[7] * z,
    mat[2] * x + mat[5] * y + mat[8] * z,
  )


@jit
def _frame_tables(d, objtype):
  """The global position and orientation tables of an object type (see _frame)."""
  if objtype == mjOBJ_XBODY:
    return d.xpos, d.xmat
  if objtype == mjOBJ_BODY:
    return d.xipos, d.ximat
  if objtype == mjOBJ_GEOM:
    return d.geom_xpos, d.geom_xmat
  if objtype == mjOBJ_SITE:
    return d.site_xpos, d.site_xmat
  return d.cam_xpos, d.cam_xmat


@jit
def _frame(m, d, objtype, objid):
  """Port of get_xpos_xmat: global position (3,) and orientation (9,) rows of an object.

  objtype is mjOBJ_XBODY, BODY (inertial frame), GEOM, SITE or CAMERA (the compiler checks it).
  """
  xpos, xmat = _frame_tables(d, objtype)
  return xpos[objid], xmat[objid]


@jit
def _xquat(m, d, objtype, objid):
  """Port of get_xquat: global orientation quaternion of an object, as a 4-tuple."""
  if objtype == mjOBJ_XBODY:
    q = d.xquat[objid]
    return q[0], q[1], q[2], q[3]
  if objtype == mjOBJ_BODY:
    body = objid
    loc = m.body_iquat[objid]
  elif objtype == mjOBJ_GEOM:
    body = m.geom_bodyid[objid]
    loc = m.geom_quat[objid]
  elif objtype == mjOBJ_SITE:
    body = m.site_bodyid[objid]
    loc = m.site_quat[objid]
  else:
    body = m.cam_bodyid[objid]
    loc = m.cam_quat[objid]
  q = d.xquat[body]
  return mul_quat_scalars(q[0], q[1], q[2], q[3], loc[0], loc[1], loc[2], loc[3])


@jit
def _object_body(m, objtype, objid):
  """Body an object with a spatial frame is attached to."""
  if objtype == mjOBJ_XBODY or objtype == mjOBJ_BODY:
    return objid
  if objtype == mjOBJ_GEOM:
    return m.geom_bodyid[objid]
  if objtype == mjOBJ_SITE:
    return m.site_bodyid[objid]
  return m.cam_bodyid[objid]


@jit
def _motion_at(m, d, motion, body, objtype, objid, flg_local):
  """mju_transformSpatial of body's motion vector (a row of d.cvel or d.cacc), moved from
  the subtree com of its root to the object and optionally rotated into the object's frame
  (flg_local), as a 6-tuple (rot, lin). Indexes the tables: sensors run per object per step."""
  xpos, xmat = _frame_tables(d, objtype)
  root = m.body_rootid[body]
  d0 = xpos[objid, 0] - d.subtree_com[root, 0]
  d1 = xpos[objid, 1] - d.subtree_com[root, 1]
  d2 = xpos[objid, 2] - d.subtree_com[root, 2]
  a0, a1, a2 = motion[body, 0], motion[body, 1], motion[body, 2]
  l0 = motion[body, 3] - (d1 * a2 - d2 * a1)
  l1 = motion[body, 4] - (d2 * a0 - d0 * a2)
  l2 = motion[body, 5] - (d0 * a1 - d1 * a0)
  if flg_local:
    r = objid
    a0, a1, a2 = (
      xmat[r, 0] * a0 + xmat[r, 3] * a1 + xmat[r, 6] * a2,
      xmat[r, 1] * a0 + xmat[r, 4] * a1 + xmat[r, 7] * a2,
      xmat[r, 2] * a0 + xmat[r, 5] * a1 + xmat[r, 8] * a2,
    )
    l0, l1, l2 = (
      xmat[r, 0] * l0 + xmat[r, 3] * l1 + xmat[r, 6] * l2,
      xmat[r, 1] * l0 + xmat[r, 4] * l1 + xmat[r, 7] * l2,
      xmat[r, 2] * l0 + xmat[r, 5] * l1 + xmat[r, 8] * l2,
    )
  return a0, a1, a2, l0, l1, l2


@jit
def _object_velocity(m, d, objtype, objid, flg_local):
  """Port of mj_objectVelocity, engine_support.c: 6D velocity (rot, lin) at the object,
  in the world (flg_local=0) or object (flg_local=1) orientation, as a 6-tuple."""
  body = _object_body(m, objtype, objid)
  return _motion_at(m, d, d.cvel, body, objtype, objid, flg_local)


@jit
def _object_acceleration(m, d, objtype, objid, flg_local):
  """Port of mj_objectAcceleration, engine_support.c: 6D acceleration (rot, lin) at the
  object, including the centripetal term, as a 6-tuple (needs d.cacc); zero for the world."""
  body = _object_body(m, objtype, objid)
  # the world body does not accelerate (its cacc holds the gravity offset)
  if body == 0:
    return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
  w0, w1, w2, v0, v1, v2 = _motion_at(m, d, d.cvel, body, objtype, objid, flg_local)
  a0, a1, a2, l0, l1, l2 = _motion_at(m, d, d.cacc, body, objtype, objid, flg_local)
  # acc_lin += vel_rot x vel_lin
  l0 += w1 * v2 - w2 * v1
  l1 += w2 * v0 - w0 * v2
  l2 += w0 * v1 - w1 * v0
  return a0, a1, a2, l0, l1, l2


@jit
def _site_force(m, d, objid):
  """cfrc_int of the site's body moved to the site, in the site frame (rot, lin)."""
  body = m.site_bodyid[objid]
  root = m.body_rootid[body]
  f = d.cfrc_int[body]
  p = d.site_xpos[objid]
  c = d.subtree_com[root]
  d0 = p[0] - c[0]
  d1 = p[1] - c[1]
  d2 = p[2] - c[2]
  # force rule: torque -= (newpos - oldpos) x force
  t0 = f[0] - (d1 * f[5] - d2 * f[4])
  t1 = f[1] - (d2 * f[3] - d0 * f[5])
  t2 = f[2] - (d0 * f[4] - d1 * f[3])
  rot = d.site_xmat[objid]
  t0, t1, t2 = _mat_t_vec(rot, t0, t1, t2)
  f0, f1, f2 = _mat_t_vec(rot, f[3], f[4], f[5])
  return t0, t1, t2, f0, f1, f2


@jit
def inside_geom(pos, mat, size, geomtype, point):
  """Port of mju_insideGeom: 1 if point is inside the primitive (sphere, capsule, ellipsoid,
  cylinder or box) placed at pos with orientation mat (9,), else 0."""
  dx = point[0] - pos[0]
  dy = point[1] - pos[1]
  dz = point[2] - pos[2]
  x, y, z = _mat_t_vec(mat, dx, dy, dz)
  if geomtype == mjGEOM_SPHERE:
    return 1 if x * x + y * y + z * z < size[0] * size[0] else 0
  if geomtype == mjGEOM_CAPSULE:
    # distance to the segment along z
    zc = min(max(z, -size[1]), size[1])
    return 1 if x * x + y * y + (z - zc) * (z - zc) < size[0] * size[0] else 0
  if geomtype == mjGEOM_ELLIPSOID:
    s = (x / size[0]) ** 2 + (y / size[1]) ** 2 + (z / size[2]) ** 2
    return 1 if s < 1 else 0
  if geomtype == mjGEOM_CYLINDER:
    return 1 if x * x + y * y < size[0] * size[0] and abs(z) < size[1] else 0
  if geomtype == mjGEOM_BOX:
    return 1 if abs(x) < size[0] and abs(y) < size[1] and abs(z) < size[2] else 0
  return 0


@jit
def cam_project(res, target, cam_xpos, cam_xmat, width, height, fovy, intrinsic, sensorsize):
  """Port of cam_project: pixel coordinates (2,) of a world point seen by a camera.

  Focal lengths come from intrinsic/sensorsize when the sensor size is set, else from the
  vertical field of view fovy (degrees); the principal point is the image center.
  """
  if sensorsize[0] != 0 and sensorsize[1] != 0:
    # single precision, as MuJoCo's float intrinsic / float sensorsize * int resolution
    fx = float(intrinsic[0] / sensorsize[0] * np.float32(width))
    fy = float(intrinsic[1] / sensorsize[1] * np.float32(height))
  else:
    fx = 0.5 / math.tan(fovy * mjPI / 360.0) * height
    fy = fx
  # camera-frame coordinates: cam_xmat' * (target - cam_xpos)
  cx, cy, cz = _mat_t_vec(
    cam_xmat, target[0] - cam_xpos[0], target[1] - cam_xpos[1], target[2] - cam_xpos[2]
  )
  # focal and image matrices: u = -fx*x + w/2*z, v = fy*y + h/2*z, homogeneous z
  u = -fx * cx + 0.5 * width * cz
  v = fy * cy + 0.5 * height * cz
  denom = cz
  if abs(denom) < mjMINVAL:
    denom = min(denom, -mjMINVAL) if denom < 0 else max(denom, mjMINVAL)
  res[0] = u / denom
  res[1] = v / denom


# ---- rays, contacts and constraint rows ----


@always_inline
@jit
def _fill_raydata(out, k, dataspec, dist, origin, direction, normal, cam_xpos, cam_z, flg_cam):
  """Port of fill_raydata: the fields of one ray selected by dataspec (mjtRayDataField bits)
  into out[k:], in field order; returns the next index.

  Direction, normal and point are zero on a miss (dist < 0), depth -1. Depth is dist for a
  site, the hit point's depth along the camera's viewing axis -cam_z for a camera (flg_cam).
  """
  hit = dist >= 0
  if dataspec & (1 << mjRAYDATA_DIST):
    out[k] = dist
    k += 1
  if dataspec & (1 << mjRAYDATA_DIR):
    for j in range(3):
      out[k + j] = direction[j] if hit else 0.0
    k += 3
  if dataspec & (1 << mjRAYDATA_ORIGIN):
    for j in range(3):
      out[k + j] = origin[j]
    k += 3
  # hit point, for the point and depth fields
  p0 = p1 = p2 = 0.0
  if hit:
    p0 = origin[0] + dist * direction[0]
    p1 = origin[1] + dist * direction[1]
    p2 = origin[2] + dist * direction[2]
  if dataspec & (1 << mjRAYDATA_POINT):
    out[k], out[k + 1], out[k + 2] = p0, p1, p2
    k += 3
  if dataspec & (1 << mjRAYDATA_NORMAL):
    for j in range(3):
      out[k + j] = normal[j] if hit else 0.0
    k += 3
  if dataspec & (1 << mjRAYDATA_DEPTH):
    if not hit:
      out[k] = -1.0
    elif flg_cam:
      out[k] = -(
        (p0 - cam_xpos[0]) * cam_z[0]
        + (p1 - cam_xpos[1]) * cam_z[1]
        + (p2 - cam_xpos[2]) * cam_z[2]
      )
    else:
      out[k] = dist
    k += 1
  return k


_PIXEL_CHUNK = 16
_PIXEL_CHUNK_FLOATS = 3 * _PIXEL_CHUNK


@jit
def rangefinder(m, d, i, out):
  """The mjSENS_RANGEFINDER case of mj_computeSensorPos: rays from a site along its z axis, or
  one ray per pixel of a camera (row-major), against every geom except those of the sensor's
  body, with the fields of sensor_intprm[i, 0].

  Cameras cast rays with their own projection (cam_projection); invisible geoms (alpha 0)
  are skipped.
  """
  dataspec = m.sensor_intprm[i, 0]
  objid = m.sensor_objid[i]
  # empty mask: every geom
  nomask = m.geom_bodyid[0:0]
  if m.sensor_objtype[i] == mjOBJ_SITE:
    pos = d.site_xpos[objid]
    mat = d.site_xmat[objid]
    origin = (pos[0], pos[1], pos[2])
    rvec = (mat[2], mat[5], mat[8])
    dist, _, n0, n1, n2 = cast_ray(m, d, origin, rvec, nomask, 1, m.site_bodyid[objid])
    _fill_raydata(out, 0, dataspec, dist, origin, rvec, (n0, n1, n2), pos, rvec, False)
    return

  # camera: one ray per pixel
  width = m.cam_resolution[objid, 0]
  height = m.cam_resolution[objid, 1]
  cam_xpos = d.cam_xpos[objid]
  cam_xmat = d.cam_xmat[objid]
  cam_z = (cam_xmat[2], cam_xmat[5], cam_xmat[8])
  projection = m.cam_projection[objid]
  fx, fy, cx, cy, extent = cam_intrinsics(m, objid)
  bodyexclude = m.cam_bodyid[objid]
  if projection == mjPROJ_ORTHOGRAPHIC:  # parallel rays from the pixels' points
    k = 0
    for row in range(height):
      for col in range(width):
        origin, direction = cam_pixel_ray(
          cam_xpos, cam_xmat, col, row, fx, fy, cx, cy, projection, extent
        )
        dist, _, n0, n1, n2 = cast_ray(m, d, origin, direction, nomask, 1, bodyexclude)
        k = _fill_raydata(
          out, k, dataspec, dist, origin, direction, (n0, n1, n2), cam_xpos, cam_z, True
        )
    return

  # perspective: one source, so MuJoCo casts the rays with mj_multiRay; as it does, the
  # directions are computed ahead of the casts (here _PIXEL_CHUNK pixels of a row at a time),
  # so the divisions and square roots of successive pixels overlap instead of each ray's
  # cast waiting for its own
  source = (cam_xpos[0], cam_xpos[1], cam_xpos[2])
  ba, skip = d.scratch_ray_ba, d.scratch_ray_skip
  multi_ray_prepare(m, d, source, nomask, 1, bodyexclude, mjMAXVAL, ba, skip)
  directions = local_array(_PIXEL_CHUNK_FLOATS)
  k = 0
  for row in range(height):
    for col0 in range(0, width, _PIXEL_CHUNK):
      n = min(_PIXEL_CHUNK, width - col0)
      for j in range(n):
        _, direction = cam_pixel_ray(
          cam_xpos, cam_xmat, col0 + j, row, fx, fy, cx, cy, projection, extent
        )
        directions[3 * j] = direction[0]
        directions[3 * j + 1] = direction[1]
        directions[3 * j + 2] = direction[2]
      for j in range(n):
        direction = (directions[3 * j], directions[3 * j + 1], directions[3 * j + 2])
        dist, _, n0, n1, n2 = single_ray(m, d, source, direction, ba, skip)
        k = _fill_raydata(
          out, k, dataspec, dist, source, direction, (n0, n1, n2), cam_xpos, cam_z, True
        )


@jit
def touch(m, d, objid):
  """The mjSENS_TOUCH case of mj_computeSensorAcc: sum of the positive normal forces of the
  contacts (with constraint rows) of the site's body whose ray from the contact point along the
  normal, oriented away from the site's body, meets the site's zone (always when the contact
  point is inside it). Allocates the 6-vector of mj_contactForce once per call.
  """
  bodyid = m.site_bodyid[objid]
  total = 0.0
  conforce = local_array(6)
  for j in range(d.ncon[0]):
    g0 = d.contact_geom[j, 0]
    g1 = d.contact_geom[j, 1]
    b0 = m.geom_bodyid[g0] if g0 >= 0 else -1
    b1 = m.geom_bodyid[g1] if g1 >= 0 else -1
    if d.contact_efc_address[j] < 0 or (bodyid != b0 and bodyid != b1):
      continue
    contact_force(m, d, j, conforce)
    f = conforce[0]
    if f <= 0:
      continue
    # normal force direction, flipped when the sensor is on the second body
    frame = d.contact_frame[j]
    r0, r1, r2 = frame[0] * f, frame[1] * f, frame[2] * f
    norm = math.sqrt(r0 * r0 + r1 * r1 + r2 * r2)
    if norm < mjMINVAL:
      r0, r1, r2 = 1.0, 0.0, 0.0
    else:
      inv = 1 / norm
      r0, r1, r2 = r0 * inv, r1 * inv, r2 * inv
    if bodyid == b1:
      r0, r1, r2 = -r0, -r1, -r2
    pos = d.contact_pos[j]
    x = cast_ray_geom(
      d.site_xpos[objid],
      d.site_xmat[objid],
      m.site_size[objid],
      (pos[0], pos[1], pos[2]),
      (r0, r1, r2),
      m.site_type[objid],
    )[0]
    if x >= 0:
      total += f
  return total


# ---- contact sensor ----

# values per slot of each contact data field, in mjtConDataField order (found, force, torque,
# dist, pos, normal, tangent, linvel, angvel)
_CONDATA_SIZE = (1, 3, 3, 1, 3, 3, 3, 3, 3)
# reductions of a contact sensor (sensor_intprm[i, 1])
_REDUCE_MINDIST = 1
_REDUCE_MAXFORCE = 2
_REDUCE_NETFORCE = 3


@jit
def _contact_side_match(m, body, geom, objtype, objid):
  """Port of checkMatch: whether one side (body, geom) of a contact is the sensor's object: the
  geom, the body, a body of the subtree (xbody), or anything (none given, or a site, whose zone
  was tested already)."""
  if objtype == mjOBJ_UNKNOWN or objtype == mjOBJ_SITE:
    return True
  if objtype == mjOBJ_GEOM:
    return objid == geom
  if objtype == mjOBJ_BODY:
    return objid == body
  if objtype == mjOBJ_XBODY:
    # climb from body: ancestors have smaller ids
    while body > objid:
      body = m.body_parentid[body]
    return body == objid
  return False


@jit
def _match_contact(m, d, j, type1, id1, type2, id2):
  """Port of matchContact: 0 if contact j does not match the sensor's objects, 1 if it does
  with its normal pointing from object 1 to object 2, -1 if the normal must be flipped."""
  if type1 == mjOBJ_UNKNOWN and type2 == mjOBJ_UNKNOWN:
    return 1

  # site: the contact point must be inside the site's zone
  if type1 == mjOBJ_SITE:
    if not inside_geom(
      d.site_xpos[id1], d.site_xmat[id1], m.site_size[id1], m.site_type[id1], d.contact_pos[j]
    ):
      return 0

  geom1 = d.contact_geom[j, 0]
  geom2 = d.contact_geom[j, 1]
  body1 = m.geom_bodyid[geom1] if geom1 >= 0 else -1
  body2 = m.geom_bodyid[geom2] if geom2 >= 0 else -1
  match11 = _contact_side_match(m, body1, geom1, type1, id1)
  match12 = _contact_side_match(m, body2, geom2, type1, id1)
  match21 = _contact_side_match(m, body1, geom1, type2, id2)
  match22 = _contact_side_match(m, body2, geom2, type2, id2)

  # each given object must take part in the contact
  if not match11 and not match12:
    return 0
  if not match21 and not match22:
    return 0

  if type1 != mjOBJ_UNKNOWN and type2 != mjOBJ_UNKNOWN:
    # both given: the order decides (regular when ambiguous)
    regular = match11 and match22
    reverse = match12 and match21
    if regular:
      return 1
    if reverse:
      return -1
  elif type1 != mjOBJ_UNKNOWN:
    # only object 1: the normal points away from it
    return 1 if match11 else -1
  elif type2 != mjOBJ_UNKNOWN:
    # only object 2: the normal points towards it
    return 1 if match22 else -1
  return 0


@jit
def _velocity_at(m, d, body, p):
  """Linear and angular velocity (6-tuple: lin, rot) of a point p moving with body, in the
  world frame; zero for no body (-1)."""
  if body < 0:
    return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
  c = d.subtree_com[m.body_rootid[body]]
  v = d.cvel[body]
  d0, d1, d2 = p[0] - c[0], p[1] - c[1], p[2] - c[2]
  l0 = v[3] - (d1 * v[2] - d2 * v[1])
  l1 = v[4] - (d2 * v[0] - d0 * v[2])
  l2 = v[5] - (d0 * v[1] - d1 * v[0])
  return l0, l1, l2, v[0], v[1], v[2]


@jit
def _contact_slot(m, d, out, k, dataspec, j, flip, nfound, conforce):
  """Port of copySensorData: the fields selected by dataspec of contact j into out[k:], in
  field order; returns the next index. A flipped contact (flip) has its frame turned half a
  turn about the second tangent: normal and first tangent negate, and the third component of
  the force, torque and velocities (along the second tangent) changes sign."""
  con_frame = d.contact_frame[j]
  if dataspec & (1 << mjCONDATA_FOUND):
    out[k] = nfound
    k += 1
  if dataspec & ((1 << mjCONDATA_FORCE) | (1 << mjCONDATA_TORQUE)):
    contact_force(m, d, j, conforce)
    sign = -1.0 if flip else 1.0
    if dataspec & (1 << mjCONDATA_FORCE):
      out[k], out[k + 1], out[k + 2] = conforce[0], conforce[1], sign * conforce[2]
      k += 3
    if dataspec & (1 << mjCONDATA_TORQUE):
      out[k], out[k + 1], out[k + 2] = conforce[3], conforce[4], sign * conforce[5]
      k += 3
  if dataspec & (1 << mjCONDATA_DIST):
    out[k] = d.contact_dist[j]
    k += 1
  if dataspec & (1 << mjCONDATA_POS):
    p = d.contact_pos[j]
    out[k], out[k + 1], out[k + 2] = p[0], p[1], p[2]
    k += 3
  if dataspec & (1 << mjCONDATA_NORMAL):
    for a in range(3):
      out[k + a] = -con_frame[a] if flip else con_frame[a]
    k += 3
  if dataspec & (1 << mjCONDATA_TANGENT):
    for a in range(3):
      out[k + a] = -con_frame[3 + a] if flip else con_frame[3 + a]
    k += 3
  if dataspec & ((1 << mjCONDATA_LINVEL) | (1 << mjCONDATA_ANGVEL)):
    # velocity of geom2's body relative to geom1's at the contact point, in the contact frame
    g1 = d.contact_geom[j, 0]
    g2 = d.contact_geom[j, 1]
    p = d.contact_pos[j]
    a0, a1, a2, a3, a4, a5 = _velocity_at(m, d, m.geom_bodyid[g1] if g1 >= 0 else -1, p)
    b0, b1, b2, b3, b4, b5 = _velocity_at(m, d, m.geom_bodyid[g2] if g2 >= 0 else -1, p)
    sign = -1.0 if flip else 1.0
    f = con_frame
    if dataspec & (1 << mjCONDATA_LINVEL):
      x, y, z = b0 - a0, b1 - a1, b2 - a2
      out[k] = f[0] * x + f[1] * y + f[2] * z
      out[k + 1] = f[3] * x + f[4] * y + f[5] * z
      out[k + 2] = sign * (f[6] * x + f[7] * y + f[8] * z)
      k += 3
    if dataspec & (1 << mjCONDATA_ANGVEL):
      x, y, z = b3 - a3, b4 - a4, b5 - a5
      out[k] = f[0] * x + f[1] * y + f[2] * z
      out[k + 1] = f[3] * x + f[4] * y + f[5] * z
      out[k + 2] = sign * (f[6] * x + f[7] * y + f[8] * z)
      k += 3
  return k


@jit
def _contact_criterion(m, d, j, reduce, conforce):
  """Sorting key of contact j for a mindist (its distance) or maxforce (minus its squared
  force) reduction."""
  if reduce == _REDUCE_MINDIST:
    return d.contact_dist[j]
  contact_force(m, d, j, conforce)
  return -(conforce[0] * conforce[0] + conforce[1] * conforce[1] + conforce[2] * conforce[2])


@jit
def _contact_netforce(m, d, out, dataspec, type1, id1, type2, id2, nmatch, conforce):
  """The netforce reduction of a contact sensor: total force and torque of the matching
  contacts (flipped ones negated) in the world frame, about their force-weighted centroid,
  into the first slot (normal and tangent are the world x and y axes, dist 0)."""
  # force-weighted centroid of the contact points
  p0 = p1 = p2 = 0.0
  total = 0.0
  for j in range(d.ncon[0]):
    if _match_contact(m, d, j, type1, id1, type2, id2) == 0:
      continue
    contact_force(m, d, j, conforce)
    weight = math.sqrt(
      conforce[0] * conforce[0] + conforce[1] * conforce[1] + conforce[2] * conforce[2]
    )
    pos = d.contact_pos[j]
    p0 += pos[0] * weight
    p1 += pos[1] * weight
    p2 += pos[2] * weight
    total += weight
  scale = 1.0 / max(total, mjMINVAL)
  p0, p1, p2 = p0 * scale, p1 * scale, p2 * scale

  # total wrench about the centroid, in the world frame
  f0 = f1 = f2 = t0 = t1 = t2 = 0.0
  for j in range(d.ncon[0]):
    flip = _match_contact(m, d, j, type1, id1, type2, id2)
    if flip == 0:
      continue
    contact_force(m, d, j, conforce)
    if flip < 0:
      for k in range(6):
        conforce[k] = -conforce[k]
    frame = d.contact_frame[j]
    x0, x1, x2 = _mat_t_vec(frame, conforce[0], conforce[1], conforce[2])
    y0, y1, y2 = _mat_t_vec(frame, conforce[3], conforce[4], conforce[5])
    f0, f1, f2 = f0 + x0, f1 + x1, f2 + x2
    t0, t1, t2 = t0 + y0, t1 + y1, t2 + y2
    # moment of the force about the centroid: (pos - point) x force
    pos = d.contact_pos[j]
    r0, r1, r2 = pos[0] - p0, pos[1] - p1, pos[2] - p2
    t0 += r1 * x2 - r2 * x1
    t1 += r2 * x0 - r0 * x2
    t2 += r0 * x1 - r1 * x0

  k = 0
  if dataspec & (1 << mjCONDATA_FOUND):
    out[k] = nmatch
    k += 1
  if dataspec & (1 << mjCONDATA_FORCE):
    out[k], out[k + 1], out[k + 2] = f0, f1, f2
    k += 3
  if dataspec & (1 << mjCONDATA_TORQUE):
    out[k], out[k + 1], out[k + 2] = t0, t1, t2
    k += 3
  if dataspec & (1 << mjCONDATA_DIST):
    k += 1
  if dataspec & (1 << mjCONDATA_POS):
    out[k], out[k + 1], out[k + 2] = p0, p1, p2
    k += 3
  if dataspec & (1 << mjCONDATA_NORMAL):
    out[k] = 1.0
    k += 3
  if dataspec & (1 << mjCONDATA_TANGENT):
    out[k + 1] = 1.0


@jit
def contact_sensor(m, d, i, out):
  """The mjSENS_CONTACT case of mj_computeSensor: up to num slots of the fields selected by
  sensor_intprm[i, 0], for the contacts matching the sensor's objects (objtype/objid: geom1,
  body1, subtree1 or site; reftype/refid: geom2, body2 or subtree2; none: any contact).

  Slots hold the first matching contacts (reduce none), those of smallest distance (mindist)
  or largest force (maxforce), in that order, or one net wrench (netforce); unused slots are
  zero, and so is everything when no contact matches. The compiler gives the sensor the stage
  its fields need (position; velocity for linvel/angvel; acceleration for forces and force
  reductions). Sorted reductions pick each slot by a scan over the contacts (no scratch).
  """
  dataspec = m.sensor_intprm[i, 0]
  reduce = m.sensor_intprm[i, 1]
  type1 = m.sensor_objtype[i]
  id1 = m.sensor_objid[i]
  type2 = m.sensor_reftype[i]
  id2 = m.sensor_refid[i]
  dim = m.sensor_dim[i]
  for k in range(dim):
    out[k] = 0.0
  size = 0
  for k in range(len(_CONDATA_SIZE)):
    if dataspec & (1 << k):
      size += _CONDATA_SIZE[k]
  if size == 0:
    return
  num = dim // size
  conforce = local_array(6)
  ncon = d.ncon[0]

  nmatch = 0
  for j in range(ncon):
    if _match_contact(m, d, j, type1, id1, type2, id2) != 0:
      nmatch += 1

  if nmatch == 0:
    return
  if reduce == _REDUCE_NETFORCE:
    _contact_netforce(m, d, out, dataspec, type1, id1, type2, id2, nmatch, conforce)
    return

  nslot = min(num, nmatch)
  if reduce == _REDUCE_MINDIST or reduce == _REDUCE_MAXFORCE:
    # slot s: the smallest (criterion, id) after slot s-1's
    last_key = -math.inf
    last_id = -1
    for s in range(nslot):
      best = -1
      best_key = math.inf
      best_flip = 0
      for j in range(ncon):
        flip = _match_contact(m, d, j, type1, id1, type2, id2)
        if flip == 0:
          continue
        key = _contact_criterion(m, d, j, reduce, conforce)
        if key < last_key or (key == last_key and j <= last_id):
          continue
        if best < 0 or key < best_key:
          best, best_key, best_flip = j, key, flip
      if best < 0:
        break
      _contact_slot(m, d, out, s * size, dataspec, best, best_flip < 0, nmatch, conforce)
      last_key, last_id = best_key, best
    return

  # no reduction: the first nslot matches in contact order
  s = 0
  for j in range(ncon):
    if s == nslot:
      break
    flip = _match_contact(m, d, j, type1, id1, type2, id2)
    if flip != 0:
      _contact_slot(m, d, out, s * size, dataspec, j, flip < 0, nmatch, conforce)
      s += 1


@jit
def _limit_row(d, cnstr_type, id):
  """First limit row (from ne+nf) of type cnstr_type for joint/tendon id, -1 if inactive."""
  for j in range(d.ne[0] + d.nf[0], d.nefc[0]):
    if d.efc_type[j] == cnstr_type and d.efc_id[j] == id:
      return j
  return -1


# ---- cutoff ----


@jit
def _apply_cutoff(m, i, out):
  """Port of apply_cutoff: clamp sensor i (real: both sides, positive: above) to its cutoff."""
  cutoff = m.sensor_cutoff[i]
  if cutoff <= 0:
    return
  # contact and fromto sensors use the cutoff otherwise
  type = m.sensor_type[i]
  if type == mjSENS_CONTACT or type == mjSENS_GEOMFROMTO:
    return
  datatype = m.sensor_datatype[i]
  for j in range(m.sensor_dim[i]):
    if datatype == mjDATATYPE_REAL:
      out[j] = min(max(out[j], -cutoff), cutoff)
    elif datatype == mjDATATYPE_POSITIVE:
      out[j] = min(cutoff, out[j])


# ---- per-stage sensor values ----
# each family is a stage of its own, compiled once and called by its sensor_* stage and by
# advance (delayed sensors), instead of being compiled into both


@stage(M, D, i8, vec, needed=SENSORS)
def _compute_pos(m, d, i, out):
  """Port of mj_computeSensorPos: value of position-stage sensor i into out."""
  type = m.sensor_type[i]
  objtype = m.sensor_objtype[i]
  objid = m.sensor_objid[i]
  reftype = m.sensor_reftype[i]
  refid = m.sensor_refid[i]

  if type == mjSENS_MAGNETOMETER:
    mat = d.site_xmat[objid]
    b = m.opt.magnetic
    out[0], out[1], out[2] = _mat_t_vec(mat, b[0], b[1], b[2])

  elif type == mjSENS_CAMPROJECTION:
    cam_project(
      out,
      d.site_xpos[objid],
      d.cam_xpos[refid],
      d.cam_xmat[refid],
      float(m.cam_resolution[refid, 0]),
      float(m.cam_resolution[refid, 1]),
      m.cam_fovy[refid],
      m.cam_intrinsic[refid],
      m.cam_sensorsize[refid],
    )

  elif type == mjSENS_JOINTPOS:
    out[0] = d.qpos[m.jnt_qposadr[objid]]

  elif type == mjSENS_TENDONPOS:
    out[0] = d.ten_length[objid]

  elif type == mjSENS_ACTUATORPOS:
    out[0] = d.actuator_length[m.actuator_outadr[objid]]

  elif type == mjSENS_BALLQUAT:
    adr = m.jnt_qposadr[objid]
    for k in range(4):
      out[k] = d.qpos[adr + k]
    mju_normalize4(out)

  elif type == mjSENS_RANGEFINDER:
    rangefinder(m, d, i, out)

  elif type == mjSENS_JOINTLIMITPOS or type == mjSENS_TENDONLIMITPOS:
    # distance minus margin of the limit row, 0 when inactive
    j = _limit_row(
      d, mjCNSTR_LIMIT_JOINT if type == mjSENS_JOINTLIMITPOS else mjCNSTR_LIMIT_TENDON, objid
    )
    out[0] = d.efc_pos[j] - d.efc_margin[j] if j >= 0 else 0.0

  elif (
    type == mjSENS_FRAMEPOS
    or type == mjSENS_FRAMEXAXIS
    or type == mjSENS_FRAMEYAXIS
    or type == mjSENS_FRAMEZAXIS
  ):
    xpos, xmat = _frame(m, d, objtype, objid)
    if type == mjSENS_FRAMEPOS:
      x, y, z = xpos[0], xpos[1], xpos[2]
    else:
      # column 0, 1 or 2 of xmat for the x, y or z axis
      offset = type - mjSENS_FRAMEXAXIS
      x, y, z = xmat[offset], xmat[offset + 3], xmat[offset + 6]
    if refid == -1:
      out[0], out[1], out[2] = x, y, z
    else:
      # express in the reference frame
      xpos_ref, xmat_ref = _frame(m, d, reftype, refid)
      if type == mjSENS_FRAMEPOS:
        x, y, z = x - xpos_ref[0], y - xpos_ref[1], z - xpos_ref[2]
      out[0], out[1], out[2] = _mat_t_vec(xmat_ref, x, y, z)

  elif type == mjSENS_FRAMEQUAT:
    q0, q1, q2, q3 = _xquat(m, d, objtype, objid)
    if refid != -1:
      # relative quaternion: neg(refquat) * objquat
      r0, r1, r2, r3 = _xquat(m, d, reftype, refid)
      q0, q1, q2, q3 = mul_quat_scalars(r0, -r1, -r2, -r3, q0, q1, q2, q3)
    out[0], out[1], out[2], out[3] = q0, q1, q2, q3

  elif type == mjSENS_SUBTREECOM:
    c = d.subtree_com[objid]
    out[0], out[1], out[2] = c[0], c[1], c[2]

  elif type == mjSENS_INSIDESITE:
    xpos, xmat = _frame(m, d, objtype, objid)
    out[0] = inside_geom(
      d.site_xpos[refid], d.site_xmat[refid], m.site_size[refid], m.site_type[refid], xpos
    )

  elif type == mjSENS_E_POTENTIAL:
    energy_pos(m, d)
    out[0] = d.energy[0]

  elif type == mjSENS_E_KINETIC:
    energy_vel(m, d)
    out[0] = d.energy[1]

  elif type == mjSENS_CLOCK:
    out[0] = d.time[0]

  elif type == mjSENS_GEOMDIST or type == mjSENS_GEOMNORMAL or type == mjSENS_GEOMFROMTO:
    _geom_pair(m, d, i, type, objtype, objid, reftype, refid, out)

  elif type == mjSENS_CONTACT:
    contact_sensor(m, d, i, out)


@jit
def _geom_pair(m, d, i, type, objtype, objid, reftype, refid, out):
  """The geomdist/geomnormal/geomfromto case of mj_computeSensorPos: closest pair among the
  geoms of object and reference (a geom, or a body's own geoms) within the cutoff; the cutoff
  and zeros when no pair is closer."""
  cutoff = m.sensor_cutoff[i]
  dist = cutoff
  fromto = local_array(6)
  fromto_new = local_array(6)
  for k in range(6):
    fromto[k] = 0.0

  # lists of geoms to collide
  n1, id1 = 1, objid
  if objtype == mjOBJ_BODY:
    n1, id1 = m.body_geomnum[objid], m.body_geomadr[objid]
  n2, id2 = 1, refid
  if reftype == mjOBJ_BODY:
    n2, id2 = m.body_geomnum[refid], m.body_geomadr[refid]

  # closest pair
  for geom1 in range(id1, id1 + n1):
    for geom2 in range(id2, id2 + n2):
      dist_new = geom_distance(m, d, geom1, geom2, cutoff, fromto_new)
      if dist_new < dist:
        dist = dist_new
        for k in range(6):
          fromto[k] = fromto_new[k]

  # write data
  if type == mjSENS_GEOMDIST:
    out[0] = dist
  elif type == mjSENS_GEOMNORMAL:
    x, y, z = fromto[3] - fromto[0], fromto[4] - fromto[1], fromto[5] - fromto[2]
    if x != 0 or y != 0 or z != 0:
      _, x, y, z = normalize3_scalars(x, y, z)
    out[0], out[1], out[2] = x, y, z
  else:
    for k in range(6):
      out[k] = fromto[k]


@stage(M, D, i8, vec, needed=SENSORS)
def _compute_vel(m, d, i, out):
  """Port of mj_computeSensorVel: value of velocity-stage sensor i into out."""
  type = m.sensor_type[i]
  objtype = m.sensor_objtype[i]
  objid = m.sensor_objid[i]
  reftype = m.sensor_reftype[i]
  refid = m.sensor_refid[i]

  if type == mjSENS_VELOCIMETER:
    v = _object_velocity(m, d, mjOBJ_SITE, objid, 1)
    out[0], out[1], out[2] = v[3], v[4], v[5]

  elif type == mjSENS_GYRO:
    v = _object_velocity(m, d, mjOBJ_SITE, objid, 1)
    out[0], out[1], out[2] = v[0], v[1], v[2]

  elif type == mjSENS_JOINTVEL:
    out[0] = d.qvel[m.jnt_dofadr[objid]]

  elif type == mjSENS_TENDONVEL:
    out[0] = d.ten_velocity[objid]

  elif type == mjSENS_ACTUATORVEL:
    out[0] = d.actuator_velocity[m.actuator_outadr[objid]]

  elif type == mjSENS_BALLANGVEL:
    adr = m.jnt_dofadr[objid]
    out[0], out[1], out[2] = d.qvel[adr], d.qvel[adr + 1], d.qvel[adr + 2]

  elif type == mjSENS_JOINTLIMITVEL or type == mjSENS_TENDONLIMITVEL:
    # velocity of the limit row, 0 when inactive
    j = _limit_row(
      d, mjCNSTR_LIMIT_JOINT if type == mjSENS_JOINTLIMITVEL else mjCNSTR_LIMIT_TENDON, objid
    )
    out[0] = d.efc_vel[j] if j >= 0 else 0.0

  elif type == mjSENS_FRAMELINVEL or type == mjSENS_FRAMEANGVEL:
    w0, w1, w2, v0, v1, v2 = _object_velocity(m, d, objtype, objid, 0)
    if refid > -1:
      xpos, xmat = _frame(m, d, objtype, objid)
      xpos_ref, xmat_ref = _frame(m, d, reftype, refid)
      r0, r1, r2, s0, s1, s2 = _object_velocity(m, d, reftype, refid, 0)
      # relative velocity, corrected for the rotating reference frame
      rx = xpos[0] - xpos_ref[0]
      ry = xpos[1] - xpos_ref[1]
      rz = xpos[2] - xpos_ref[2]
      v0 = v0 - s0 + (ry * r2 - rz * r1)
      v1 = v1 - s1 + (rz * r0 - rx * r2)
      v2 = v2 - s2 + (rx * r1 - ry * r0)
      w0, w1, w2 = _mat_t_vec(xmat_ref, w0 - r0, w1 - r1, w2 - r2)
      v0, v1, v2 = _mat_t_vec(xmat_ref, v0, v1, v2)
    if type == mjSENS_FRAMELINVEL:
      out[0], out[1], out[2] = v0, v1, v2
    else:
      out[0], out[1], out[2] = w0, w1, w2

  elif type == mjSENS_SUBTREELINVEL:
    v = d.subtree_linvel[objid]
    out[0], out[1], out[2] = v[0], v[1], v[2]

  elif type == mjSENS_SUBTREEANGMOM:
    v = d.subtree_angmom[objid]
    out[0], out[1], out[2] = v[0], v[1], v[2]

  elif type == mjSENS_CONTACT:
    contact_sensor(m, d, i, out)


@stage(M, D, i8, vec, needed=SENSORS)
def _compute_acc(m, d, i, out):
  """Port of mj_computeSensorAcc: value of acceleration-stage sensor i into out."""
  type = m.sensor_type[i]
  objtype = m.sensor_objtype[i]
  objid = m.sensor_objid[i]

  if type == mjSENS_TOUCH:
    out[0] = touch(m, d, objid)

  elif type == mjSENS_ACCELEROMETER:
    a = _object_acceleration(m, d, mjOBJ_SITE, objid, 1)
    out[0], out[1], out[2] = a[3], a[4], a[5]

  elif type == mjSENS_FORCE:
    f = _site_force(m, d, objid)
    out[0], out[1], out[2] = f[3], f[4], f[5]

  elif type == mjSENS_TORQUE:
    f = _site_force(m, d, objid)
    out[0], out[1], out[2] = f[0], f[1], f[2]

  elif type == mjSENS_ACTUATORFRC:
    out[0] = d.actuator_force[m.actuator_outadr[objid]]

  elif type == mjSENS_JOINTACTFRC:
    out[0] = d.qfrc_actuator[m.jnt_dofadr[objid]]

  elif type == mjSENS_TENDONACTFRC:
    frc = 0.0
    for j in range(m.nactuator):
      if m.actuator_trntype[j] == mjTRN_TENDON and m.actuator_trnid[j, 0] == objid:
        frc += d.actuator_force[m.actuator_outadr[j]]
    out[0] = frc

  elif type == mjSENS_JOINTLIMITFRC or type == mjSENS_TENDONLIMITFRC:
    # force of the limit row, 0 when inactive
    j = _limit_row(
      d, mjCNSTR_LIMIT_JOINT if type == mjSENS_JOINTLIMITFRC else mjCNSTR_LIMIT_TENDON, objid
    )
    out[0] = d.efc_force[j] if j >= 0 else 0.0

  elif type == mjSENS_FRAMELINACC or type == mjSENS_FRAMEANGACC:
    a = _object_acceleration(m, d, objtype, objid, 0)
    if type == mjSENS_FRAMELINACC:
      out[0], out[1], out[2] = a[3], a[4], a[5]
    else:
      out[0], out[1], out[2] = a[0], a[1], a[2]

  elif type == mjSENS_CONTACT:
    contact_sensor(m, d, i, out)

  # tactile: not computed (left as is)


@jit
def compute_sensor(m, d, i, out):
  """Port of mj_computeSensor: value of sensor i (any stage) into out, then its cutoff.

  `out` is the sensor's (dim,) slot, normally d.sensordata[adr:adr+dim].
  """
  stage = m.sensor_needstage[i]
  if stage == mjSTAGE_POS:
    _compute_pos(m, d, i, out)
  elif stage == mjSTAGE_VEL:
    _compute_vel(m, d, i, out)
  elif stage == mjSTAGE_ACC:
    _compute_acc(m, d, i, out)
  _apply_cutoff(m, i, out)


@jit
def _skip(m, d, i, needstage):
  """Whether the stage `needstage` leaves sensor i alone: other stages, plugins, sensors of
  sleeping trees (they keep their values), and user sensors (cleared: there is no user
  callback)."""
  type = m.sensor_type[i]
  if type == mjSENS_PLUGIN or m.sensor_needstage[i] != needstage:
    return True
  if d.nbody_awake[0] < m.nbody and _sleep.enabled(m) and _sleep.sensor_asleep(m, d, i):
    return True
  if type == mjSENS_USER:
    adr = m.sensor_adr[i]
    d.sensordata[adr : adr + m.sensor_dim[i]] = 0.0
    return True
  return False


@jit
def _slot(m, d, i):
  """Sensor i's values in d.sensordata."""
  adr = m.sensor_adr[i]
  return d.sensordata[adr : adr + m.sensor_dim[i]]


@jit
def _plugin_sensors(m, d, stage):
  """compute(m, d, i, mjPLUGIN_SENSOR) of the sensor plugins computed at `stage`, then the
  cutoff of their sensors (the end of mj_sensorPos/Vel/Acc)."""
  for i in range(m.nplugin):
    if not m.plugin_capability[i] & plugin_call.mjPLUGIN_SENSOR or m.plugin_needstage[i] != stage:
      continue
    fn = m.plugin_fn[i, plugin_call.FN_COMPUTE]
    if fn:
      plugin_call.call_compute(fn, m, d, i, plugin_call.mjPLUGIN_SENSOR)
    for s in range(m.nsensor):
      if m.sensor_plugin[s] == i:
        _apply_cutoff(m, s, _slot(m, d, s))


# each stage loops over its sensors itself, so it compiles only its own stage's sensors; a
# delayed sensor, or an interval sensor between samples, is read from its history buffer


@stage(needed=SENSORS_OR_PLUGINS)
def sensor_pos(m, d):
  """Port of mj_sensorPos: position-dependent sensors."""
  if disabled(m, mjDSBL_SENSOR):
    return
  needstage = m.sensor_needstage
  history = m.nhistory > 0
  for i in range(m.nsensor):
    if needstage[i] == mjSTAGE_POS and not _skip(m, d, i, mjSTAGE_POS):
      out = _slot(m, d, i)
      if history and _history.sensor_reads_buffer(m, d, i):
        _history.read_sensor(m, d, i, out)
      else:
        _compute_pos(m, d, i, out)
        _apply_cutoff(m, i, out)
  if m.nplugin:
    _plugin_sensors(m, d, mjSTAGE_POS)


@stage(needed=SENSORS_OR_PLUGINS)
def sensor_vel(m, d):
  """Port of mj_sensorVel: velocity-dependent sensors (forward.sensors_vel runs subtree_vel
  first when they need it)."""
  if disabled(m, mjDSBL_SENSOR):
    return
  needstage = m.sensor_needstage
  history = m.nhistory > 0
  for i in range(m.nsensor):
    if needstage[i] == mjSTAGE_VEL and not _skip(m, d, i, mjSTAGE_VEL):
      out = _slot(m, d, i)
      if history and _history.sensor_reads_buffer(m, d, i):
        _history.read_sensor(m, d, i, out)
      else:
        _compute_vel(m, d, i, out)
        _apply_cutoff(m, i, out)
  if m.nplugin:
    _plugin_sensors(m, d, mjSTAGE_VEL)


@stage(needed=SENSORS_OR_PLUGINS)
def sensor_acc(m, d):
  """Port of mj_sensorAcc: acceleration/force sensors (forward.sensors_acc runs
  rne_post_constraint first when they need it)."""
  if disabled(m, mjDSBL_SENSOR):
    return
  needstage = m.sensor_needstage
  history = m.nhistory > 0
  for i in range(m.nsensor):
    if needstage[i] == mjSTAGE_ACC and not _skip(m, d, i, mjSTAGE_ACC):
      out = _slot(m, d, i)
      if history and _history.sensor_reads_buffer(m, d, i):
        _history.read_sensor(m, d, i, out)
      else:
        _compute_acc(m, d, i, out)
        _apply_cutoff(m, i, out)
  if m.nplugin:
    _plugin_sensors(m, d, mjSTAGE_ACC)


@jit
def needs_subtree_vel(m):
  """Whether sensor_vel reads d.subtree_linvel/angmom, so mj_subtreeVel must run first.

  True for an enabled velocity-stage subtreelinvel, subtreeangmom or user sensor, where
  MuJoCo's mj_sensorVel calls mj_subtreeVel.
  """
  if disabled(m, mjDSBL_SENSOR):
    return False
  for i in range(m.nsensor):
    if m.sensor_needstage[i] != mjSTAGE_VEL:
      continue
    type = m.sensor_type[i]
    if type == mjSENS_SUBTREELINVEL or type == mjSENS_SUBTREEANGMOM or type == mjSENS_USER:
      return True
  return False


@jit
def needs_rne_post(m):
  """Whether sensor_acc reads d.cacc/cfrc_int, so mj_rnePostConstraint must run first.

  True for an enabled acceleration-stage accelerometer, force, torque, framelinacc,
  frameangacc or user sensor, where MuJoCo's mj_sensorAcc calls mj_rnePostConstraint.
  """
  if disabled(m, mjDSBL_SENSOR):
    return False
  for i in range(m.nsensor):
    if m.sensor_needstage[i] != mjSTAGE_ACC:
      continue
    type = m.sensor_type[i]
    if (
      type == mjSENS_ACCELEROMETER
      or type == mjSENS_FORCE
      or type == mjSENS_TORQUE
      or type == mjSENS_FRAMELINACC
      or type == mjSENS_FRAMEANGACC
      or type == mjSENS_USER
    ):
      return True
  return False


# ---- energy ----


@jit
def _spring_energy(k, k1, k2, x):
  """Energy stored by the spring force k*x + k1*x^2 + k2*x^3 at stretch x."""
  x2 = x * x
  return 0.5 * k * x2 + k1 * x2 * x / 3.0 + 0.25 * k2 * x2 * x2


@stage(needed=ENERGY)
def energy_pos(m, d):
  """Port of mj_energyPos: potential energy (gravity and springs) into d.energy[0]."""
  energy = 0.0

  # gravity: -sum of mass * (gravity . com)
  if not disabled(m, mjDSBL_GRAVITY):
    g = m.opt.gravity
    for i in range(1, m.nbody):
      p = d.xipos[i]
      energy -= m.body_mass[i] * (g[0] * p[0] + g[1] * p[1] + g[2] * p[2])

  if not disabled(m, mjDSBL_SPRING):
    # joint springs, by body as MuJoCo sums them (sleeping trees' springs left out)
    sleeping = _sleep.enabled(m) and d.nbody_awake[0] < m.nbody
    for b in range(1, m.nbody):
      if sleeping and d.body_awake[b] != mjS_AWAKE:
        continue
      for j in range(m.body_jntadr[b], m.body_jntadr[b] + m.body_jntnum[b]):
        k = m.jnt_stiffness[j]
        k1 = m.jnt_stiffnesspoly[j, 0]
        k2 = m.jnt_stiffnesspoly[j, 1]
        if k == 0 and k1 == 0 and k2 == 0:
          continue
        padr = m.jnt_qposadr[j]
        jtype = m.jnt_type[j]
        if jtype == mjJNT_FREE or jtype == mjJNT_BALL:
          if jtype == mjJNT_FREE:
            dx = d.qpos[padr] - m.qpos_spring[padr]
            dy = d.qpos[padr + 1] - m.qpos_spring[padr + 1]
            dz = d.qpos[padr + 2] - m.qpos_spring[padr + 2]
            energy += _spring_energy(k, k1, k2, math.sqrt(dx * dx + dy * dy + dz * dz))
            padr += 3
          # rotation: quaternion difference as a rotation vector
          energy += _spring_energy(k, k1, k2, _quat_angle(d.qpos, m.qpos_spring, padr))
        else:
          energy += _spring_energy(k, k1, k2, d.qpos[padr] - m.qpos_spring[padr])

    # tendon springs, with a dead band between the two spring lengths
    for i in range(m.ntendon):
      if sleeping and _sleep.object_state(m, d, mjOBJ_TENDON, i) != mjS_AWAKE:
        continue
      length = d.ten_length[i]
      lower = m.tendon_lengthspring[i, 0]
      upper = m.tendon_lengthspring[i, 1]
      x = 0.0
      if length > upper:
        x = length - upper
      elif length < lower:
        x = length - lower
      energy += _spring_energy(
        m.tendon_stiffness[i], m.tendon_stiffnesspoly[i, 0], m.tendon_stiffnesspoly[i, 1], x
      )

  d.energy[0] = energy


@jit
def _quat_angle(qpos, qpos_spring, adr):
  """Rotation angle of mju_subQuat(qpos[adr:adr+4], qpos_spring[adr:adr+4]), in [0, pi]."""
  a = qpos[adr : adr + 4]
  b = qpos_spring[adr : adr + 4]
  # qdif = neg(qb) * qa, then its angle as in mju_quat2Vel
  q0, q1, q2, q3 = mul_quat_scalars(b[0], -b[1], -b[2], -b[3], a[0], a[1], a[2], a[3])
  speed = 2 * math.atan2(math.sqrt(q1 * q1 + q2 * q2 + q3 * q3), q0)
  if speed > mjPI:
    speed -= 2 * mjPI
  return abs(speed)


@stage(needed=ENERGY)
def energy_vel(m, d):
  """Port of mj_energyVel: kinetic energy 0.5 * qvel' * M * qvel into d.energy[1]."""
  # qvel' M qvel over the lower triangle of the reduced sparse M: off-diagonals twice
  e = 0.0
  for i in range(m.nv):
    adr = m.M_rowadr[i]
    n = m.M_rownnz[i]
    vi = d.qvel[i]
    s = 0.0
    for k in range(n - 1):
      s += d.M[adr + k] * d.qvel[m.M_colind[adr + k]]
    e += vi * (2.0 * s + d.M[adr + n - 1] * vi)
  d.energy[1] = 0.5 * e


# ---- Python API ----


@runs_stage(sensor_pos)
def mj_sensorPos(m, d) -> None:
  """Position-dependent sensors."""
  sensor_pos(m._struct, d._struct)


@runs_stage(sensor_vel)
def mj_sensorVel(m, d) -> None:
  """Velocity-dependent sensors; d.subtree_linvel/angmom must be current (mj_subtreeVel)."""
  sensor_vel(m._struct, d._struct)


@runs_stage(sensor_acc)
def mj_sensorAcc(m, d) -> None:
  """Acceleration/force sensors; d.cacc/cfrc_int must be current (mj_rnePostConstraint)."""
  sensor_acc(m._struct, d._struct)


@runs_stage(energy_pos)
def mj_energyPos(m, d) -> None:
  """Potential energy into d.energy[0]."""
  energy_pos(m._struct, d._struct)


@runs_stage(energy_vel)
def mj_energyVel(m, d) -> None:
  """Kinetic energy into d.energy[1]."""
  energy_vel(m._struct, d._struct)
