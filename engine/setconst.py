"""Model constants computed from the reference configuration (port of engine_setconst.c).

mj_setConst runs the kinematics and inertia stages at qpos0 and stores what the
solver and actuators need later: inverse weights, lengths at qpos0, actuator
acceleration scales, camera/light offsets, model statistics, spring lengths;
then muscle length ranges are found by simulation (mj_setLengthRange).
"""

import math

import numpy as np

from engine import actuation as _actuation
from engine import errors
from engine import forward as _forward
from engine import io as _io
from engine import smooth as _smooth
from engine import support as _support
from engine import tendon as _tendon
from engine._jit import jit
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import never
from engine._stage import stage
from engine._stage import vec
from engine.enums import mjBIAS_MUSCLE
from engine.enums import mjBIAS_USER
from engine.enums import mjCAMLIGHT_FIXED
from engine.enums import mjDSBL_ACTUATION
from engine.enums import mjDSBL_CONTACT
from engine.enums import mjDSBL_DAMPER
from engine.enums import mjDSBL_FRICTIONLOSS
from engine.enums import mjDSBL_GRAVITY
from engine.enums import mjDSBL_SPRING
from engine.enums import mjEQ_CONNECT
from engine.enums import mjEQ_WELD
from engine.enums import mjGAIN_MUSCLE
from engine.enums import mjGAIN_PID
from engine.enums import mjGAIN_USER
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjGEOM_PLANE
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjJNT_HINGE
from engine.enums import mjLRMODE_ALL
from engine.enums import mjLRMODE_MUSCLE
from engine.enums import mjLRMODE_MUSCLEUSER
from engine.enums import mjLRMODE_NONE
from engine.enums import mjOBJ_BODY
from engine.enums import mjOBJ_JOINT
from engine.enums import mjTRN_JOINT
from engine.enums import mjTRN_JOINTINPARENT
from engine.enums import mjTRN_TENDON
from engine.math import mju_dot
from engine.math import mju_mulInertVec
from engine.math import mju_mulQuat
from engine.math import mju_negQuat
from engine.math import mju_norm
from engine.math import mju_normalize4

_MINVAL = 1e-15


@jit
def set_fixed(m):
  """Quantities that do not depend on qpos0: subtree masses, actuator ids of joints/tendons."""
  for i in range(m.nbody):
    m.body_subtreemass[i] = m.body_mass[i]
  for i in range(m.nbody - 1, 0, -1):
    m.body_subtreemass[m.body_parentid[i]] += m.body_subtreemass[i]
  m.jnt_actuatorid[:] = -1
  m.tendon_actuatorid[:] = -1
  for i in range(m.nactuator):
    if (
      m.actuator_damping[i] == 0
      and m.actuator_dampingpoly[i, 0] == 0
      and m.actuator_dampingpoly[i, 1] == 0
      and m.actuator_armature[i] == 0
    ):
      continue
    tid = m.actuator_trnid[i, 0]
    if m.actuator_trntype[i] == mjTRN_JOINT or m.actuator_trntype[i] == mjTRN_JOINTINPARENT:
      m.jnt_actuatorid[tid] = i if m.jnt_actuatorid[tid] == -1 else -2
    elif m.actuator_trntype[i] == mjTRN_TENDON:
      m.tendon_actuatorid[tid] = i if m.tendon_actuatorid[tid] == -1 else -2


@jit
def _set_m0(m, d):
  """dof_M0: diagonal of the inertia matrix at qpos0 (composite inertias, with armature)."""
  crb = d.crb
  crb[:, :] = d.cinert
  for i in range(m.nbody - 1, 0, -1):
    p = m.body_parentid[i]
    if p > 0:
      for k in range(10):
        crb[p, k] += crb[i, k]
  buf = np.empty(6)
  for i in range(m.nv):
    mju_mulInertVec(buf, crb[m.dof_bodyid[i]], d.cdof[i])
    armature = m.dof_armature[i] + _actuation.actuator_armature(m, mjOBJ_JOINT, m.dof_jntid[i])
    s = 0.0
    for k in range(6):
      s += d.cdof[i, k] * buf[k]
    m.dof_M0[i] = armature + s


@jit
def set0(m, d):
  """Port of set0: constants that depend on qpos0 (d is scratch)."""
  nv = m.nv
  cammode = m.cam_mode.copy()
  lightmode = m.light_mode.copy()
  m.cam_mode[:] = mjCAMLIGHT_FIXED
  m.light_mode[:] = mjCAMLIGHT_FIXED
  d.qpos[:] = m.qpos0
  _smooth.kinematics(m, d)
  _smooth.com_pos(m, d)
  _smooth.camlight(m, d)
  _set_m0(m, d)
  _tendon.tendon(m, d)
  _smooth.make_m(m, d)
  _smooth.factor_m(m, d)
  _tendon.transmission(m, d)
  m.cam_mode[:] = cammode
  m.light_mode[:] = lightmode
  m.tendon_length0[:] = d.ten_length
  m.actuator_length0[:] = d.actuator_length[: m.nout]

  jacp = np.zeros((3, nv))
  jacr = np.zeros((3, nv))
  tmp = np.zeros(nv)

  # body_invweight0: mean diagonal of J inv(M) J' for translation and rotation
  m.body_invweight0[0, 0] = 0.0
  m.body_invweight0[0, 1] = 0.0
  for i in range(1, m.nbody):
    if m.body_weldid[i] == 0:
      m.body_invweight0[i, 0] = 0.0
      m.body_invweight0[i, 1] = 0.0
    elif m.body_simple[i] == 2:
      m.body_invweight0[i, 0] = 1.0 / max(_MINVAL, m.body_mass[i])
      m.body_invweight0[i, 1] = 0.0
    else:
      _support.jac(m, d, jacp, jacr, d.xipos[i], i)
      tr = 0.0
      rot = 0.0
      for k in range(3):
        tmp[:] = jacp[k]
        _smooth.solve_m(m, d, tmp, tmp, 1)
        tr += mju_dot(jacp[k], tmp, nv)
        tmp[:] = jacr[k]
        _smooth.solve_m(m, d, tmp, tmp, 1)
        rot += mju_dot(jacr[k], tmp, nv)
      m.body_invweight0[i, 0] = tr / 3.0
      m.body_invweight0[i, 1] = rot / 3.0

  # dof_invweight0: mean diagonal of the joint block of inv(M)
  for j in range(m.njnt):
    adr = m.jnt_dofadr[j]
    b = m.jnt_bodyid[j]
    if m.body_simple[b] == 2:
      m.dof_invweight0[adr] = 1.0 / max(_MINVAL, m.body_mass[b])
      continue
    jtype = m.jnt_type[j]
    dnum = 6 if jtype == mjJNT_FREE else (3 if jtype == mjJNT_BALL else 1)
    diag = np.zeros(dnum)
    for k in range(dnum):
      tmp[:] = 0.0
      tmp[adr + k] = 1.0
      _smooth.solve_m(m, d, tmp, tmp, 1)
      diag[k] = tmp[adr + k]
    if dnum == 6:
      t = (diag[0] + diag[1] + diag[2]) / 3.0
      r = (diag[3] + diag[4] + diag[5]) / 3.0
      for k in range(3):
        m.dof_invweight0[adr + k] = t
        m.dof_invweight0[adr + 3 + k] = r
    elif dnum == 3:
      t = (diag[0] + diag[1] + diag[2]) / 3.0
      for k in range(3):
        m.dof_invweight0[adr + k] = t
    else:
      m.dof_invweight0[adr] = diag[0]

  # tendon_invweight0 = J inv(M) J'; actuator_acc0 = |inv(M) moment|
  dense = np.zeros(nv)
  for i in range(m.ntendon):
    dense[:] = 0.0
    adr = m.ten_J_rowadr[i]
    for k in range(m.ten_J_rownnz[i]):
      dense[m.ten_J_colind[adr + k]] = d.ten_J[adr + k]
    tmp[:] = dense
    _smooth.solve_m(m, d, tmp, tmp, 1)
    m.tendon_invweight0[i] = mju_dot(dense, tmp, nv)
  for i in range(m.nout):
    tmp[:] = 0.0
    adr = d.moment_rowadr[i]
    for k in range(d.moment_rownnz[i]):
      tmp[d.moment_colind[adr + k]] = d.actuator_moment[adr + k]
    _smooth.solve_m(m, d, tmp, tmp, 1)
    m.actuator_acc0[i] = mju_norm(tmp, nv)

  # equality data that the compiler leaves to qpos0
  pos = np.empty(3)
  quat = np.empty(4)
  for i in range(m.neq):
    id1 = m.eq_obj1id[i]
    id2 = m.eq_obj2id[i]
    if m.eq_objtype[i] != mjOBJ_BODY:
      if m.eq_type[i] == mjEQ_CONNECT:
        m.eq_data[i, :] = 0.0
      continue
    if m.eq_type[i] == mjEQ_CONNECT:
      # anchor in body1 frame -> global -> body2 frame
      for k in range(3):
        pos[k] = d.xpos[id1, k] - d.xpos[id2, k]
        for c in range(3):
          pos[k] += d.xmat[id1, 3 * k + c] * m.eq_data[i, c]
      for k in range(3):
        m.eq_data[i, 3 + k] = (
          d.xmat[id2, k] * pos[0] + d.xmat[id2, 3 + k] * pos[1] + d.xmat[id2, 6 + k] * pos[2]
        )
    elif m.eq_type[i] == mjEQ_WELD:
      q = m.eq_data[i, 6:10]
      if q[0] != 0 or q[1] != 0 or q[2] != 0 or q[3] != 0:
        mju_normalize4(q)
        continue
      # anchor in body2 frame -> global -> body1 frame; relative orientation
      for k in range(3):
        pos[k] = d.xpos[id2, k] - d.xpos[id1, k]
        for c in range(3):
          pos[k] += d.xmat[id2, 3 * k + c] * m.eq_data[i, c]
      for k in range(3):
        m.eq_data[i, 3 + k] = (
          d.xmat[id1, k] * pos[0] + d.xmat[id1, 3 + k] * pos[1] + d.xmat[id1, 6 + k] * pos[2]
        )
      mju_negQuat(quat, d.xquat[id1])
      mju_mulQuat(q, quat, d.xquat[id2])

  # camera and light offsets at qpos0
  for i in range(m.ncam):
    b = m.cam_bodyid[i]
    t = m.cam_targetbodyid[i]
    for k in range(3):
      m.cam_pos0[i, k] = d.cam_xpos[i, k] - d.xpos[b, k]
      m.cam_poscom0[i, k] = d.cam_xpos[i, k] - d.subtree_com[t if t >= 0 else b, k]
    m.cam_mat0[i, :] = d.cam_xmat[i]
  for i in range(m.nlight):
    b = m.light_bodyid[i]
    t = m.light_targetbodyid[i]
    for k in range(3):
      m.light_pos0[i, k] = d.light_xpos[i, k] - d.xpos[b, k]
      m.light_poscom0[i, k] = d.light_xpos[i, k] - d.subtree_com[t if t >= 0 else b, k]
    m.light_dir0[i, :] = d.light_xdir[i]

  # position and pid actuators given a damping ratio: biasprm[2] > 0 becomes -damping, with
  # the reflected mass sum(1 / (dof_invweight0 * moment^2)) (MuJoCo 3.17, observed)
  for i in range(m.nactuator):
    kp = -m.actuator_biasprm[i, 1]
    if m.actuator_biasprm[i, 2] <= 0 or (
      m.actuator_gaintype[i] != mjGAIN_PID and m.actuator_gainprm[i, 0] != kp
    ):
      continue
    out = m.actuator_outadr[i]
    adr = d.moment_rowadr[out]
    mass = 0.0
    for k in range(d.moment_rownnz[out]):
      trn2 = d.actuator_moment[adr + k] ** 2
      if trn2 > _MINVAL:
        mass += 1.0 / (m.dof_invweight0[d.moment_colind[adr + k]] * trn2)
    m.actuator_biasprm[i, 2] = -m.actuator_biasprm[i, 2] * 2 * np.sqrt(kp * mass)


@jit
def set_stat(m, d):
  """Port of setStat: model center, extent, mean body size, mass and inertia, dof lengths."""
  xmin = np.full(3, 1e10)
  xmax = np.full(3, -1e10)
  for i in range(1, m.nbody):
    _update_box(xmin, xmax, d.xpos[i], 0.0)
    _update_box(xmin, xmax, d.xipos[i], 0.0)
  for i in range(m.njnt):
    _update_box(xmin, xmax, d.xanchor[i], 0.0)
  for i in range(m.nsite):
    _update_box(xmin, xmax, d.site_xpos[i], 0.0)
  for i in range(m.ngeom):
    rbound = 0.0
    if m.geom_rbound[i] > 0:
      rbound = m.geom_rbound[i]
    elif m.geom_type[i] == mjGEOM_PLANE:
      if m.geom_size[i, 0] or m.geom_size[i, 1]:
        rbound = max(m.geom_size[i, 0], m.geom_size[i, 1]) * 0.1
      else:
        rbound = 0.01
    elif m.geom_type[i] == mjGEOM_HFIELD:
      j = m.geom_dataid[i]
      rbound = (
        max(
          m.hfield_size[j, 0],
          max(m.hfield_size[j, 1], max(m.hfield_size[j, 2], m.hfield_size[j, 3])),
        )
        * 0.1
      )
    _update_box(xmin, xmax, d.geom_xpos[i], rbound)
  for k in range(3):
    m.stat.center[k] = 0.5 * (xmin[k] + xmax[k])
  if xmax[0] > xmin[0]:
    m.stat.extent[0] = max(1e-5, max(xmax[0] - xmin[0], max(xmax[1] - xmin[1], xmax[2] - xmin[2])))

  # body size: largest com-joint distance, then geom extents
  body = np.zeros(m.nbody)
  for i in range(m.njnt):
    b = m.jnt_bodyid[i]
    body[b] = max(body[b], _dist3(d.xipos[b], d.xanchor[i]))
    b = m.body_parentid[b]
    body[b] = max(body[b], _dist3(d.xipos[b], d.xanchor[i]))
  body[0] = 0.0
  for i in range(1, m.nbody):
    for g in range(m.body_geomadr[i], m.body_geomadr[i] + m.body_geomnum[i]):
      if m.geom_rbound[g] > 0:
        body[i] = max(body[i], m.geom_rbound[g] + _dist3(d.xipos[i], d.geom_xpos[g]))
  if m.nbody > 1:
    m.stat.meansize[0] = 0.0
    for i in range(1, m.nbody):
      body[i] = max(body[i], 1e-5)
      m.stat.meansize[0] += body[i] / (m.nbody - 1)
  for i in range(m.nv):
    m.dof_length[i] = 1.0
    j = m.dof_jntid[i]
    jtype = m.jnt_type[j]
    if (
      jtype == mjJNT_BALL
      or jtype == mjJNT_HINGE
      or (jtype == mjJNT_FREE and i - m.jnt_dofadr[j] >= 3)
    ):
      m.dof_length[i] = body[m.dof_bodyid[i]]
  m.stat.extent[0] = max(m.stat.extent[0], 2 * m.stat.meansize[0])
  if m.nbody > 1:
    s = 0.0
    for i in range(1, m.nbody):
      s += m.body_mass[i]
    m.stat.meanmass[0] = s / (m.nbody - 1)
  if m.nv:
    s = 0.0
    for i in range(m.nv):
      s += d.M[m.M_rowadr[i] + m.M_rownnz[i] - 1]
    m.stat.meaninertia[0] = s / m.nv


@jit
def _update_box(xmin, xmax, pos, radius):
  for k in range(3):
    xmin[k] = min(xmin[k], pos[k] - radius)
    xmax[k] = max(xmax[k], pos[k] + radius)


@jit
def _dist3(a, b):
  return np.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2)


@jit
def set_spring(m, d):
  """Port of setSpring: tendon spring lengths of -1 take the length at qpos_spring."""
  d.qpos[:] = m.qpos_spring
  _smooth.kinematics(m, d)
  _smooth.com_pos(m, d)
  _tendon.tendon(m, d)
  _tendon.transmission(m, d)
  for i in range(m.ntendon):
    if m.tendon_lengthspring[i, 0] == -1 and m.tendon_lengthspring[i, 1] == -1:
      m.tendon_lengthspring[i, 0] = d.ten_length[i]
      m.tendon_lengthspring[i, 1] = d.ten_length[i]


@stage(M, D, i8)
def set_const(m, d, statistics):
  """The jitted part of mj_setConst (d is scratch data); with `statistics`, also the model
  statistics (m.stat), which MuJoCo's compiler computes and its mj_setConst leaves alone."""
  set_fixed(m)
  set0(m, d)
  if statistics:
    set_stat(m, d)
  set_spring(m, d)


def mj_setConst(m, d) -> None:
  """Recomputes every qpos0-dependent constant of `m` in place, using `d` as scratch data
  (mujoco.mj_setConst: after editing masses, armature, qpos0, ...; m.stat is kept)."""
  set_const(m._struct, d._struct, 0)


def set_constants(m, d, simulate_length_ranges: bool = True) -> None:
  """The constants of a newly compiled model: mj_setConst, the statistics and the muscle length
  ranges. simulate_length_ranges=False leaves the length ranges that need a simulation (no
  limit to take them from) as they are."""
  recompute_constants(m, d)
  set_length_ranges(m, d, simulate=simulate_length_ranges)


def recompute_constants(m, d) -> None:
  """mj_setConst and the model statistics, the statistics given in <statistic> kept: what a
  recompilation computes after the element arrays (the muscle length ranges aside)."""
  set_const(m._struct, d._struct, 1)
  for name, value in m._extras.get("stat_user", {}).items():
    m.stat._arrays[name][...] = value


# ---- muscle length ranges (mj_setLengthRange) ----

# mj_defaultLROpt; <compiler><lengthrange> has the same defaults
LENGTHRANGE_DEFAULTS = dict(
  mode=mjLRMODE_MUSCLE,
  useexisting=True,
  uselimit=False,
  accel=20.0,
  maxforce=0.0,
  timeconst=1.0,
  timestep=0.01,
  inttotal=10.0,
  interval=2.0,
  tolrange=0.05,
)

_LRMODES = {
  "none": mjLRMODE_NONE,
  "muscle": mjLRMODE_MUSCLE,
  "muscleuser": mjLRMODE_MUSCLEUSER,
  "all": mjLRMODE_ALL,
}

# what MuJoCo's compiler (mjCModel::LengthRange) disables while it simulates
_LR_DISABLE = (
  mjDSBL_FRICTIONLOSS
  | mjDSBL_CONTACT
  | mjDSBL_SPRING
  | mjDSBL_DAMPER
  | mjDSBL_GRAVITY
  | mjDSBL_ACTUATION
)


def set_length_ranges(m, d, options: dict | None = None, simulate: bool = True) -> None:
  """Finds actuator_lengthrange as MuJoCo's compiler does (mjCModel::LengthRange).

  `options` are <compiler><lengthrange>'s (mjLROpt); by default the model's own. The
  simulation runs without gravity, contacts, passive forces, friction loss and actuation,
  at the options' timestep (the model's when 0), as MuJoCo's compiler runs it.
  """
  opt = length_range_options(m, options)
  saved = m.opt.disableflags, m.opt.timestep
  m.opt.disableflags = _LR_DISABLE
  if opt["timestep"] > 0:
    m.opt.timestep = opt["timestep"]
  try:
    for i in range(m.nactuator):
      _set_length_range(m, d, i, opt, simulate)
  finally:
    m.opt.disableflags, m.opt.timestep = saved


def length_range_options(m, options: dict | None = None) -> dict:
  """<compiler><lengthrange>'s options (mjLROpt), mode as mjtLRMode: `options`, else the
  model's own."""
  opt = dict(LENGTHRANGE_DEFAULTS, **(options or m._extras.get("lengthrange") or {}))
  opt["mode"] = _LRMODES.get(opt["mode"], opt["mode"])
  return opt


def finds_length_range(m, index, mode) -> bool:
  """Whether mj_setLengthRange in `mode` sets actuator `index`'s length range (muscles, user
  actuators, every actuator: as mjtLRMode says)."""
  ismuscle = (
    m.actuator_gaintype[index] == mjGAIN_MUSCLE or m.actuator_biastype[index] == mjBIAS_MUSCLE
  )
  isuser = m.actuator_gaintype[index] == mjGAIN_USER or m.actuator_biastype[index] == mjBIAS_USER
  return not (
    mode == mjLRMODE_NONE
    or (mode == mjLRMODE_MUSCLE and not ismuscle)
    or (mode == mjLRMODE_MUSCLEUSER and not ismuscle and not isuser)
  )


def _set_length_range(m, d, index, opt, simulate):
  """Port of mj_setLengthRange, engine_setconst.c; raises CompileError where it fails."""
  if not finds_length_range(m, index, opt["mode"]):
    return
  out = m.actuator_outadr[index]
  lr = m.actuator_lengthrange[out]

  # use existing length range if available
  if opt["useexisting"] and lr[0] < lr[1]:
    return

  # use joint and tendon limits if available; MuJoCo 3.17 reads the transmission id at
  # actuator_trnid's flat element `index` (not 2*index), and so do we; an id it reads that
  # is out of range (-1: C reads before the array) counts as unlimited
  tid = m.actuator_trnid.reshape(-1)[index]
  trn = m.actuator_trntype[index]
  if opt["uselimit"]:
    if trn in (mjTRN_JOINT, mjTRN_JOINTINPARENT) and 0 <= tid < m.njnt and m.jnt_limited[tid]:
      lr[:] = m.jnt_range[tid]
      return
    if trn == mjTRN_TENDON and 0 <= tid < m.ntendon and m.tendon_limited[tid]:
      lr[:] = m.tendon_range[tid]
      return
  if simulate:
    _simulate_length_range(m, d, index, opt)


def _simulate_length_range(m, d, index, opt):
  """Pushes the actuator to each side from qpos0 and records the lengths reached."""
  out = m.actuator_outadr[index]
  lmin, lmax = [0.0, 0.0], [0.0, 0.0]
  params = np.array(
    [opt["inttotal"], opt["interval"], opt["timeconst"], opt["accel"], opt["maxforce"]],
    dtype=np.float64,
  )
  work = np.zeros(3 + 2 * m.nv)
  for side in range(2):
    _io.mj_resetData(m, d)
    push_actuator(m._struct, d._struct, index, side, params, work)
    if work[2]:  # reset: cannot proceed
      raise errors.CompileError(f"unstable lengthrange simulation in actuator {index}")
    lmin[side], lmax[side] = work[0], work[1]
    m.actuator_lengthrange[out, side] = lmin[side] if side == 0 else lmax[side]

  # check range and convergence
  lr = m.actuator_lengthrange[out]
  dif = lr[1] - lr[0]
  if dif <= 0:
    raise errors.CompileError(f"invalid lengthrange ({lr[0]:g}, {lr[1]:g}) in actuator {index}")
  for side in range(2):
    if lmax[side] - lmin[side] > opt["tolrange"] * dif:
      raise errors.CompileError(
        f"lengthrange computation did not converge in actuator {index}: eval "
        f"({lmin[side]:g}, {lmax[side]:g}), range ({lr[0]:g}, {lr[1]:g})"
      )


@stage(M, D, i8, i8, vec, vec, needed=never)
def push_actuator(m, d, index, side, params, work):
  """The simulation of mj_setLengthRange (engine_setconst.c) for one side: from the current
  (reset) state, steps pushing actuator `index` to be shorter (side 0) or longer (1) with the
  force that gives acceleration `accel` (evalAct), until time `inttotal`, and records the least
  and greatest length of the last `interval` seconds in work[0], work[1]; work[2] = 1 if the
  simulation reset (unstable). params: inttotal, interval, timeconst, accel, maxforce; work
  has 3 + 2*nv entries (the rest is scratch). One call for the thousands of steps (from Python
  they were most of a muscle model's load time)."""
  inttotal, interval, timeconst, accel, maxforce = (
    params[0],
    params[1],
    params[2],
    params[3],
    params[4],
  )
  nv = m.nv
  out = m.actuator_outadr[index]
  moment = work[3 : 3 + nv]
  work[0] = 0.0
  work[1] = 0.0
  work[2] = 0.0
  updated = False
  decay = math.exp(-m.opt.timestep[0] / max(0.01, timeconst))  # (evalAct's, every step)
  while d.time[0] < inttotal:
    # reduce velocity, then step1: inertia and actuator moments
    for i in range(nv):
      d.qvel[i] *= decay
    _forward.step1(m, d)

    # the force giving the desired acceleration along the dense moment row, capped
    for i in range(nv):
      moment[i] = 0.0
    adr = d.moment_rowadr[out]
    for k in range(adr, adr + d.moment_rownnz[out]):
      moment[d.moment_colind[k]] = d.actuator_moment[k]
    _smooth.solve_m(m, d, d.qfrc_applied, moment, 1)
    scale = (2 * side - 1) * accel / max(_MINVAL, mju_norm(d.qfrc_applied, nv))
    for i in range(nv):
      d.qfrc_applied[i] = moment[i] * scale
    nrm = mju_norm(d.qfrc_applied, nv)
    if maxforce > 0 and nrm > maxforce:
      scale = maxforce / max(_MINVAL, nrm)
      for i in range(nv):
        d.qfrc_applied[i] *= scale

    # step2: apply the force
    _forward.step2(m, d)
    length = d.actuator_length[out]
    if d.time[0] == 0:
      work[2] = 1.0
      return
    if d.time[0] > inttotal - interval:
      if length < work[0] or not updated:
        work[0] = length
      if length > work[1] or not updated:
        work[1] = length
      updated = True
