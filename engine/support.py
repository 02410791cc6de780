"""Jacobians, applied forces, position integration and name lookup (port of engine_support.c)."""

import operator

import numpy as np

from engine import enums
from engine import history
from engine._jit import inline_jit
from engine._jit import jit
from engine._jit import python_callable
from engine._stage import D
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import mat
from engine._stage import stage
from engine._stage import vec
from engine.collision.ccdobj import O1
from engine.collision.ccdobj import O1I
from engine.collision.ccdobj import O2
from engine.collision.ccdobj import O2I
from engine.collision.ccdobj import S_NX
from engine.collision.ccdobj import ST_X1
from engine.collision.ccdobj import ST_X2
from engine.collision.ccdobj import init_obj
from engine.collision.epa import ccd
from engine.collision.narrowphase import collide_geoms
from engine.collision.narrowphase import has_collider
from engine.collision.narrowphase import uses_convex
from engine.enums import mjCONE_PYRAMIDAL
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.flags import disabled
from engine.math import mju_decodePyramid
from engine.math import mju_quatIntegrate
from engine.math import mju_subQuat

# ---- Jacobians ----


@jit
def last_dof(m, body):
  """Last dof affecting `body` (its own or a moving ancestor's), -1 for static bodies."""
  while body > 0 and m.body_dofnum[body] == 0:
    body = m.body_parentid[body]
  if body <= 0:
    return -1
  return m.body_dofadr[body] + m.body_dofnum[body] - 1


@jit
def jac(m, d, jacp, jacr, point, body):
  """Port of mj_jac: (3, nv) translational and rotational Jacobians of `point` on `body`."""
  jacp[:, :] = 0.0
  jacr[:, :] = 0.0
  i = last_dof(m, body)
  if i < 0:
    return
  root = m.body_rootid[body]
  ox = point[0] - d.subtree_com[root, 0]
  oy = point[1] - d.subtree_com[root, 1]
  oz = point[2] - d.subtree_com[root, 2]
  while i >= 0:
    c = d.cdof[i]
    jacr[0, i] = c[0]
    jacr[1, i] = c[1]
    jacr[2, i] = c[2]
    # linear part: cdof_lin + cdof_rot x offset
    jacp[0, i] = c[3] + (c[1] * oz - c[2] * oy)
    jacp[1, i] = c[4] + (c[2] * ox - c[0] * oz)
    jacp[2, i] = c[5] + (c[0] * oy - c[1] * ox)
    i = m.dof_parentid[i]


@inline_jit
def chain_step(m, da1, da2):
  """One step down the dof chains of two bodies walked together, last dof first (as
  mj_mergeChain merges them; dof ids fall towards the root): (dof, whether it is in chain 1,
  in chain 2, the next da1, da2). Start from last_dof of each body; stop when both are -1."""
  da = max(da1, da2)
  in1 = da1 == da
  in2 = da2 == da
  if in1:
    da1 = m.dof_parentid[da1]
  if in2:
    da2 = m.dof_parentid[da2]
  return da, in1, in2, da1, da2


@inline_jit
def jac_dif_col(d, da, in1, o1x, o1y, o1z, in2, o2x, o2y, o2z):
  """Column da of jac2 - jac1 (mj_jacDifPair): translation (3) and rotation (3).

  Each body's column is mj_jac's (cdof with the lever arm o from its root com), or zero when
  the dof is not in that body's chain.
  """
  c = d.cdof[np.uint64(da)]
  p1x = p1y = p1z = r1x = r1y = r1z = 0.0
  p2x = p2y = p2z = r2x = r2y = r2z = 0.0
  if in1:
    r1x, r1y, r1z = c[0], c[1], c[2]
    p1x = c[3] + (c[1] * o1z - c[2] * o1y)
    p1y = c[4] + (c[2] * o1x - c[0] * o1z)
    p1z = c[5] + (c[0] * o1y - c[1] * o1x)
  if in2:
    r2x, r2y, r2z = c[0], c[1], c[2]
    p2x = c[3] + (c[1] * o2z - c[2] * o2y)
    p2y = c[4] + (c[2] * o2x - c[0] * o2z)
    p2z = c[5] + (c[0] * o2y - c[1] * o2x)
  return p2x - p1x, p2y - p1y, p2z - p1z, r2x - r1x, r2y - r1y, r2z - r1z


@jit
def jac_subtree_com(m, d, jacp, body):
  """Port of mj_jacSubtreeCom: mass-weighted Jacobian of the subtree center of mass."""
  jacp[:, :] = 0.0
  jp = np.empty((3, m.nv))
  jr = np.empty((3, m.nv))
  for b in range(body, m.nbody):
    # b is in the subtree of body if body is an ancestor (bodies are in tree order)
    a = b
    while a > body:
      a = m.body_parentid[a]
    if a != body:
      continue
    jac(m, d, jp, jr, d.xipos[b], b)
    w = m.body_mass[b] / max(1e-15, m.body_subtreemass[body])
    for k in range(3):
      for i in range(m.nv):
        jacp[k, i] += w * jp[k, i]


@jit
def apply_ft(m, d, force, torque, point, body, qfrc_target):
  """Port of mj_applyFT: adds the generalized force of a Cartesian force/torque at a point."""
  apply_ft_scalars(
    m,
    d,
    force[0],
    force[1],
    force[2],
    torque[0],
    torque[1],
    torque[2],
    point[0],
    point[1],
    point[2],
    body,
    qfrc_target,
  )


@jit
def apply_ft_scalars(m, d, f0, f1, f2, t0, t1, t2, px, py, pz, body, qfrc_target):
  """apply_ft on scalars (force f, torque t at point p), for callers that compute them."""
  i = last_dof(m, body)
  if i < 0:
    return
  root = m.body_rootid[body]
  ox = px - d.subtree_com[root, 0]
  oy = py - d.subtree_com[root, 1]
  oz = pz - d.subtree_com[root, 2]
  cdof = d.cdof
  while i >= 0:
    c0, c1, c2 = cdof[i, 0], cdof[i, 1], cdof[i, 2]
    lx = cdof[i, 3] + (c1 * oz - c2 * oy)
    ly = cdof[i, 4] + (c2 * ox - c0 * oz)
    lz = cdof[i, 5] + (c0 * oy - c1 * ox)
    qfrc_target[i] += lx * f0 + ly * f1 + lz * f2
    qfrc_target[i] += c0 * t0 + c1 * t1 + c2 * t2
    i = m.dof_parentid[i]


@jit
def xfrc_accumulate(m, d, qfrc):
  """Port of mj_xfrcAccumulate: adds every body's xfrc_applied (at its com) to qfrc."""
  for b in range(1, m.nbody):
    f = d.xfrc_applied[b]
    if f[0] != 0 or f[1] != 0 or f[2] != 0 or f[3] != 0 or f[4] != 0 or f[5] != 0:
      apply_ft(m, d, f[0:3], f[3:6], d.xipos[b], b, qfrc)


@jit
def contact_force(m, d, id, result):
  """Port of mj_contactForce: force of contact id in its frame (normal, tangents, torques)."""
  for k in range(6):
    result[k] = 0.0
  if id < 0 or id >= d.ncon[0]:
    return
  adr = d.contact_efc_address[id]
  if adr < 0:
    return
  dim = d.contact_dim[id]
  if m.opt.cone[0] == mjCONE_PYRAMIDAL:
    mju_decodePyramid(result, d.efc_force[adr:], d.contact_friction[id], dim)
  else:
    for k in range(dim):
      result[k] = d.efc_force[adr + k]


# ---- positions ----


@jit
def integrate_pos(m, qpos, qvel, dt):
  """Port of mj_integratePos: qpos <- qpos (+) qvel*dt on the joint manifold."""
  for j in range(m.njnt):
    _integrate_joint(m, qpos, qvel, dt, j)


@jit
def integrate_pos_bodies(m, qpos, qvel, dt, bodies, nbody):
  """Port of mj_integratePosInd: integrate_pos on the joints of bodies[:nbody] only (the awake
  ones when trees sleep)."""
  for b in range(nbody):
    i = bodies[b]
    for j in range(m.body_jntadr[i], m.body_jntadr[i] + m.body_jntnum[i]):
      _integrate_joint(m, qpos, qvel, dt, j)


@inline_jit
def _integrate_joint(m, qpos, qvel, dt, j):
  """One joint of integrate_pos."""
  padr = m.jnt_qposadr[j]
  vadr = m.jnt_dofadr[j]
  jtype = m.jnt_type[j]
  if jtype == mjJNT_FREE:
    for k in range(3):
      qpos[padr + k] += dt * qvel[vadr + k]
    mju_quatIntegrate(qpos[padr + 3 : padr + 7], qvel[vadr + 3 : vadr + 6], dt)
  elif jtype == mjJNT_BALL:
    mju_quatIntegrate(qpos[padr : padr + 4], qvel[vadr : vadr + 3], dt)
  else:
    qpos[padr] += dt * qvel[vadr]


@jit
def differentiate_pos(m, qvel, dt, qpos1, qpos2):
  """Port of mj_differentiatePos: qvel = (qpos2 (-) qpos1) / dt."""
  for j in range(m.njnt):
    padr = m.jnt_qposadr[j]
    vadr = m.jnt_dofadr[j]
    jtype = m.jnt_type[j]
    if jtype == mjJNT_FREE:
      for k in range(3):
        qvel[vadr + k] = (qpos2[padr + k] - qpos1[padr + k]) / dt
      mju_subQuat(qvel[vadr + 3 : vadr + 6], qpos2[padr + 3 : padr + 7], qpos1[padr + 3 : padr + 7])
      for k in range(3):
        qvel[vadr + 3 + k] /= dt
    elif jtype == mjJNT_BALL:
      mju_subQuat(qvel[vadr : vadr + 3], qpos2[padr : padr + 4], qpos1[padr : padr + 4])
      for k in range(3):
        qvel[vadr + k] /= dt
    else:
      qvel[vadr] = (qpos2[padr] - qpos1[padr]) / dt


# ---- Python API (mujoco binding signatures) ----


@jit
def _geom_distance_ccd(m, d, g1, g2, distmax, fromto):
  """Port of mj_geomDistanceCCD: native CCD distance (margins 0, one witness pair) between
  geoms g1 and g2, clamped to distmax; fromto gets the witness points when CCD found any."""
  F = d.scratch_ccd
  I = d.scratch_ccdi
  init_obj(m, d, F, I, O1, O1I, g1, 0.0)
  init_obj(m, d, F, I, O2, O2I, g2, 0.0)
  dist = ccd(m, F, I, m.opt.ccd_iterations[0], m.opt.ccd_tolerance[0], 1, distmax)

  # witness points exist only within distmax
  if I[S_NX] > 0:
    for k in range(3):
      fromto[k] = F[ST_X1 + k]
      fromto[3 + k] = F[ST_X2 + k]

  # ccd reports DBL_MAX beyond distmax
  return dist if dist < distmax else distmax


@jit
def geom_distance(m, d, geom1, geom2, distmax, fromto):
  """Port of mj_geomDistance: smallest signed distance between geom1 and geom2 (distmax when
  none is smaller) and, in fromto (6,), the segment from geom1 to geom2 (zeros when none).

  Pairs MuJoCo collides with mjc_Convex or mjc_BoxBox are measured by the native CCD (unless
  mjDSBL_NATIVECCD); the others run the pair's narrowphase with margin distmax into
  d.scratch_con and keep the closest contact.
  """
  dist = distmax
  for k in range(6):
    fromto[k] = 0.0

  # collision functions take the geoms in type order
  flip = m.geom_type[geom1] > m.geom_type[geom2]
  g1 = geom2 if flip else geom1
  g2 = geom1 if flip else geom2
  type1 = m.geom_type[g1]
  type2 = m.geom_type[g2]
  if not has_collider(type1, type2):
    return dist

  # native CCD, in the caller's order
  if not disabled(m, enums.mjDSBL_NATIVECCD) and uses_convex(type1, type2):
    return _geom_distance_ccd(m, d, geom1, geom2, distmax, fromto)

  # narrowphase with distmax as margin, smallest distance
  con = d.scratch_con
  num = collide_geoms(m, d, g1, g2, distmax, con)
  smallest = -1
  for i in range(num):
    if con[i, 0] < dist:
      dist = con[i, 0]
      smallest = i

  # segment through the contact point along the normal (from geom1 to geom2)
  if smallest >= 0:
    sign = -1.0 if flip else 1.0
    for k in range(3):
      pos = con[smallest, 1 + k]
      normal = con[smallest, 4 + k]
      fromto[k] = pos - 0.5 * sign * dist * normal
      fromto[3 + k] = pos + 0.5 * sign * dist * normal
  return dist


# the helpers above, compiled once more as stages for Python's calls
_jac = stage(M, D, mat, mat, vec, i8, lazy=True)(jac)
_jac_subtree_com = stage(M, D, mat, i8, lazy=True)(jac_subtree_com)
_apply_ft = stage(M, D, vec, vec, vec, i8, vec, lazy=True)(apply_ft)
_contact_force = stage(M, D, i8, vec, lazy=True)(contact_force)
_geom_distance = stage(M, D, i8, i8, f8, vec, restype=f8, lazy=True)(geom_distance)
_integrate_pos = stage(M, vec, vec, f8, lazy=True)(integrate_pos)
_differentiate_pos = stage(M, vec, f8, vec, vec, lazy=True)(differentiate_pos)


def _vec(x, n, name):
  a = np.ascontiguousarray(x, dtype=np.float64)
  if a.shape != (n,):
    raise ValueError(f"{name} must have shape ({n},), got {a.shape}")
  return a if a.flags.writeable else a.copy()  # numba types read-only arrays apart


def _out(x, shape, name):
  if x is None:
    return np.empty(shape)
  if not (isinstance(x, np.ndarray) and x.dtype == np.float64 and x.flags.c_contiguous):
    raise TypeError(f"{name} must be a C-contiguous float64 numpy array")
  if x.size != int(np.prod(shape)):
    raise ValueError(f"{name} must have {int(np.prod(shape))} elements, got {x.size}")
  if len(shape) == 2 and x.shape != shape:  # a transposed or flat matrix: rows would mix up
    raise ValueError(f"{name} must have shape {shape}, got {x.shape}")
  return x.reshape(shape)


def _check_id(i, n, what):
  i = int(i)
  if not 0 <= i < n:
    raise ValueError(f"{what} id {i} out of range [0, {n})")
  return i


def mj_jac(m, d, jacp, jacr, point, body):
  """Jacobians (3, nv) of a global point attached to `body`; jacp/jacr may be None."""
  body = _check_id(body, m.nbody, "body")
  p, r = _out(jacp, (3, m.nv), "jacp"), _out(jacr, (3, m.nv), "jacr")
  _jac(m._struct, d._struct, p, r, _vec(point, 3, "point"), body)


def mj_jacBody(m, d, jacp, jacr, body):
  """Jacobians of the body frame origin."""
  mj_jac(m, d, jacp, jacr, d.xpos[_check_id(body, m.nbody, "body")], body)


def mj_jacBodyCom(m, d, jacp, jacr, body):
  """Jacobians of the body center of mass."""
  mj_jac(m, d, jacp, jacr, d.xipos[_check_id(body, m.nbody, "body")], body)


def mj_jacSite(m, d, jacp, jacr, site):
  """Jacobians of a site."""
  site = _check_id(site, m.nsite, "site")
  mj_jac(m, d, jacp, jacr, d.site_xpos[site], m.site_bodyid[site])


def mj_jacGeom(m, d, jacp, jacr, geom):
  """Jacobians of a geom center."""
  geom = _check_id(geom, m.ngeom, "geom")
  mj_jac(m, d, jacp, jacr, d.geom_xpos[geom], m.geom_bodyid[geom])


def mj_jacSubtreeCom(m, d, jacp, body):
  """Translational Jacobian of the center of mass of the subtree rooted at `body`."""
  body = _check_id(body, m.nbody, "body")
  _jac_subtree_com(m._struct, d._struct, _out(jacp, (3, m.nv), "jacp"), body)


def mj_applyFT(m, d, force, torque, point, body, qfrc_target):
  """Adds the generalized force of a Cartesian force/torque applied at a point on `body`."""
  body = _check_id(body, m.nbody, "body")
  _apply_ft(
    m._struct,
    d._struct,
    _vec(force, 3, "force"),
    _vec(torque, 3, "torque"),
    _vec(point, 3, "point"),
    body,
    _out(qfrc_target, (m.nv,), "qfrc_target"),
  )


def mj_integratePos(m, qpos, qvel, dt):
  """qpos <- qpos (+) qvel*dt in place (quaternions integrated on the sphere)."""
  _integrate_pos(m._struct, _out(qpos, (m.nq,), "qpos"), _vec(qvel, m.nv, "qvel"), float(dt))


def mj_differentiatePos(m, qvel, dt, qpos1, qpos2):
  """qvel <- (qpos2 (-) qpos1) / dt."""
  _differentiate_pos(
    m._struct,
    _out(qvel, (m.nv,), "qvel"),
    float(dt),
    _vec(qpos1, m.nq, "qpos1"),
    _vec(qpos2, m.nq, "qpos2"),
  )


def mj_contactForce(m, d, id, result):
  """6D force of contact `id` in its contact frame, written into `result` (6,)."""
  if not (
    isinstance(result, np.ndarray)
    and result.dtype == np.float64
    and result.flags.c_contiguous
    and result.size == 6
  ):
    raise TypeError("result must be a C-contiguous float64 numpy array with 6 elements")
  _contact_force(m._struct, d._struct, int(id), result.reshape(6))


def mj_geomDistance(m, d, geom1, geom2, distmax, fromto=None) -> float:
  """Smallest signed distance between geoms geom1 and geom2, at most distmax; fromto: None or
  a float64 (6,) array receiving the segment from geom1 to geom2 (zeros when none is found)."""
  geom1, geom2 = int(geom1), int(geom2)
  for g in (geom1, geom2):
    if not 0 <= g < m.ngeom:
      raise ValueError(f"geom id {g} out of range [0, {m.ngeom})")
  if fromto is None:
    fromto = np.zeros(6)
  elif not (
    isinstance(fromto, np.ndarray)
    and fromto.dtype == np.float64
    and fromto.flags.c_contiguous
    and fromto.size == 6
  ):
    raise TypeError("fromto must be a C-contiguous float64 numpy array of 6 elements")
  return float(
    _geom_distance(m._struct, d._struct, geom1, geom2, float(distmax), fromto.reshape(6))
  )


# ---- history buffers (delayed actuators and sensors) ----


def _history_block(m, d, kind, i):
  """(buffer view, nsample, dim, delay) of actuator or sensor i's history buffer."""
  count = m.nu if kind == "actuator" else m.nsensor
  if not 0 <= int(i) < count:
    raise ValueError(f"{kind} id {i} out of range [0, {count})")
  n = int(getattr(m, f"{kind}_history")[i, 0])
  dim = int(m.actuator_ctrlnum[i] if kind == "actuator" else m.sensor_dim[i])
  adr = int(getattr(m, f"{kind}_historyadr")[i])
  block = d.history[adr : adr + 2 + n * (1 + dim)] if n > 0 else None
  return block, n, dim, float(getattr(m, f"{kind}_delay")[i])


def _read_history(m, d, kind, i, time, result, interp, current):
  block, n, dim, delay = _history_block(m, d, kind, i)
  if n <= 0:
    return current(dim)
  if not (
    isinstance(result, np.ndarray)
    and result.dtype == np.float64
    and result.size >= dim
    and result.flags.c_contiguous
  ):
    raise TypeError(f"result must be a C-contiguous float64 numpy array of at least {dim}")
  python_callable(history.read)(block, n, dim, result.reshape(-1), float(time) - delay, int(interp))
  return result


def mj_readCtrl(m, d, id, time, result, interp):
  """Actuator `id`'s controls as its delay sees them at `time` (the buffer read at time minus
  the delay; interp 0 zero-order hold, 1 linear, 2 cubic), written into result and returned; the
  current controls when the actuator has no history buffer."""
  adr = int(m.actuator_ctrladr[id]) if 0 <= int(id) < m.nu else 0
  return _read_history(
    m, d, "actuator", id, time, result, interp, lambda dim: d.ctrl[adr : adr + dim]
  )


def mj_readSensor(m, d, id, time, result, interp):
  """Sensor `id`'s value as its delay sees it at `time` (as mj_readCtrl); its current
  sensordata when it has no history buffer."""
  adr = int(m.sensor_adr[id]) if 0 <= int(id) < m.nsensor else 0
  return _read_history(
    m, d, "sensor", id, time, result, interp, lambda dim: d.sensordata[adr : adr + dim]
  )


def _init_history(m, d, kind, i, times, values, user=None):
  block, n, dim, _ = _history_block(m, d, kind, i)
  if n <= 0:
    raise ValueError(f"{kind} {i} has no history buffer (nsample is 0)")
  values = np.asarray(values, dtype=np.float64)
  if values.size != n * dim:
    raise ValueError(f"values must hold {n} samples of {dim} numbers, got shape {values.shape}")
  times = block[2 : 2 + n].copy() if times is None else np.asarray(times, np.float64).ravel()
  if times.size != n:
    raise ValueError(f"times must hold {n} numbers, got {times.size}")
  if np.any(np.diff(times) <= 0):
    raise ValueError(f"history times must be strictly increasing, got {times.tolist()}")
  block[1] = n - 1
  block[2 : 2 + n] = times
  block[2 + n :] = values.ravel()
  if user is not None:
    block[0] = user


def mj_initCtrlHistory(m, d, id, times, values):
  """Fills actuator `id`'s history buffer: `times` (nsample increasing numbers; None keeps the
  buffer's) and `values` (nsample x ctrlnum), oldest first."""
  _init_history(m, d, "actuator", id, times, values)


def mj_initSensorHistory(m, d, id, times, values, phase):
  """Fills sensor `id`'s history buffer as mj_initCtrlHistory; `phase` is the last sampling
  time of an interval sensor."""
  _init_history(m, d, "sensor", id, times, values, float(phase))


# ---- names ----

# object type -> (name address field, count)
_NAME_FIELDS = {
  enums.mjOBJ_BODY: ("name_bodyadr", "nbody"),
  enums.mjOBJ_XBODY: ("name_bodyadr", "nbody"),
  enums.mjOBJ_JOINT: ("name_jntadr", "njnt"),
  enums.mjOBJ_GEOM: ("name_geomadr", "ngeom"),
  enums.mjOBJ_SITE: ("name_siteadr", "nsite"),
  enums.mjOBJ_CAMERA: ("name_camadr", "ncam"),
  enums.mjOBJ_LIGHT: ("name_lightadr", "nlight"),
  enums.mjOBJ_MESH: ("name_meshadr", "nmesh"),
  enums.mjOBJ_SKIN: ("name_skinadr", "nskin"),
  enums.mjOBJ_HFIELD: ("name_hfieldadr", "nhfield"),
  enums.mjOBJ_TEXTURE: ("name_texadr", "ntex"),
  enums.mjOBJ_MATERIAL: ("name_matadr", "nmat"),
  enums.mjOBJ_PAIR: ("name_pairadr", "npair"),
  enums.mjOBJ_EXCLUDE: ("name_excludeadr", "nexclude"),
  enums.mjOBJ_EQUALITY: ("name_eqadr", "neq"),
  enums.mjOBJ_TENDON: ("name_tendonadr", "ntendon"),
  enums.mjOBJ_ACTUATOR: ("name_actuatoradr", "nactuator"),
  enums.mjOBJ_SENSOR: ("name_sensoradr", "nsensor"),
  enums.mjOBJ_NUMERIC: ("name_numericadr", "nnumeric"),
  enums.mjOBJ_TEXT: ("name_textadr", "ntext"),
  enums.mjOBJ_TUPLE: ("name_tupleadr", "ntuple"),
  enums.mjOBJ_KEY: ("name_keyadr", "nkey"),
  enums.mjOBJ_PLUGIN: ("name_pluginadr", "nplugin"),
}


def _names(m, objtype) -> list:
  """All names of one object type ('' for unnamed), cached on the model."""
  cache = m.__dict__.setdefault("_name_cache", {})
  objtype = int(objtype)
  if objtype not in cache:
    if objtype not in _NAME_FIELDS:
      raise ValueError(f"object type {objtype} has no names")
    field, count = _NAME_FIELDS[objtype]
    buf = m.names
    names = []
    for adr in getattr(m, field)[: getattr(m, count)]:
      end = buf.find(b"\0", adr)
      names.append(buf[adr : end if end >= 0 else None].decode())
    cache[objtype] = names
  return cache[objtype]


def mj_name2id(m, objtype, name: str) -> int:
  """Id of the object of `objtype` called `name`, or -1 (mujoco.mj_name2id)."""
  if not isinstance(name, str):
    raise TypeError(f"mj_name2id(): name must be a str, got {type(name).__name__}")
  objtype = operator.index(objtype)  # an mjtObj or an int (TypeError for anything else)
  if not name or objtype not in _NAME_FIELDS:
    return -1
  try:
    return _names(m, objtype).index(name)
  except ValueError:
    return -1


def mj_id2name(m, objtype, objid: int) -> str | None:
  """Name of object `objid` of `objtype`, None if unnamed or out of range."""
  names = _names(m, objtype)
  if not 0 <= int(objid) < len(names):
    return None
  return names[int(objid)] or None
