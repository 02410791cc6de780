"""Forward dynamics and time integration (port of engine_forward.c).

The stage order follows MuJoCo's mj_forwardSkip: position, velocity, actuation,
acceleration, constraint; mj_step adds the selected integrator (Euler, RK4, implicit).
Each function here is a stage (engine/_stage.py): compiled once and called through a
pointer, so the pipeline compiles in minutes. Python reaches them through engine/driver.py.
"""

import math

import numpy as np

from engine import _structs
from engine import actuation as _actuation
from engine import constraint as _constraint
from engine import derivative as _derivative
from engine import history as _history
from engine import island as _island
from engine import passive as _passive
from engine import plugin_call
from engine import sensor as _sensor
from engine import sleep as _sleep
from engine import smooth as _smooth
from engine import solver as _solver
from engine import sparse as _sparse
from engine import support as _support
from engine import tendon as _tendon
from engine._jit import jit
from engine._jit import local_array
from engine._jit import local_int_array
from engine._stage import IMPLICIT
from engine._stage import KEYFRAMES
from engine._stage import RK4
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import stage
from engine._stage import vec
from engine.collision import driver as _collision
from engine.enums import mjDSBL_ACTUATION
from engine.enums import mjDSBL_AUTORESET
from engine.enums import mjDSBL_DAMPER
from engine.enums import mjDSBL_EULERDAMP
from engine.enums import mjDSBL_SENSOR
from engine.enums import mjDYN_INTEGRATOR
from engine.enums import mjENBL_ENERGY
from engine.enums import mjGAIN_SO3
from engine.enums import mjINT_IMPLICIT
from engine.enums import mjINT_IMPLICITFAST
from engine.enums import mjINT_RK4
from engine.enums import mjJNT_FREE
from engine.enums import mjMAXVAL
from engine.enums import mjOBJ_JOINT
from engine.enums import mjPI
from engine.enums import mjSLEEP_INIT
from engine.enums import mjSTAGE_NONE
from engine.enums import mjSTAGE_POS
from engine.enums import mjSTAGE_VEL
from engine.enums import mjWARN_BADQACC
from engine.enums import mjWARN_BADQPOS
from engine.enums import mjWARN_BADQVEL
from engine.flags import disabled
from engine.flags import enabled
from engine.math import mju_isBad
from engine.math import mju_round

# ---- warnings and checks ----


@jit
def warning(d, kind, info):
  """Port of mj_warning: count the warning and remember its info."""
  d.warning_number[kind] += 1
  d.warning_lastinfo[kind] = info


@jit
def _bad_index(x, n):
  """The first i < n with mju_isBad(x[i]), else -1. A pass without early exit first: it
  vectorizes, and almost always finds nothing."""
  bad = False
  for i in range(n):
    v = x[i]
    bad |= (v != v) | (v > mjMAXVAL) | (v < -mjMAXVAL)
  if not bad:
    return -1
  for i in range(n):
    if mju_isBad(x[i]):
      return i
  return -1


@jit
def _check(m, d, x, n, kind):
  i = _bad_index(x, n)
  if i < 0:
    return False
  warning(d, kind, i)
  if not disabled(m, mjDSBL_AUTORESET):
    reset_data(m, d)
  d.warning_number[kind] += 1
  d.warning_lastinfo[kind] = i
  return True


@stage()
def check_pos(m, d):
  """Port of mj_checkPos: reset on NaN/inf or huge qpos."""
  _check(m, d, d.qpos, m.nq, mjWARN_BADQPOS)


@stage()
def check_vel(m, d):
  """Port of mj_checkVel: reset on NaN/inf or huge qvel."""
  _check(m, d, d.qvel, m.nv, mjWARN_BADQVEL)


@stage()
def check_acc(m, d):
  """Port of mj_checkAcc: reset on bad qacc, then recompute forward dynamics."""
  if _check(m, d, d.qacc, m.nv, mjWARN_BADQACC):
    if not disabled(m, mjDSBL_AUTORESET):
      forward_skip(m, d, mjSTAGE_NONE, 0)


# ---- stages ----


@stage()
def fwd_position(m, d):
  """Port of mj_fwdPosition: kinematics, inertia, collision, constraint rows and islands,
  transmission."""
  _smooth.kinematics(m, d)
  _smooth.com_pos(m, d)
  _smooth.camlight(m, d)
  _tendon.tendon(m, d)
  sleeping = _sleep.enabled(m)
  if sleeping and _sleep.wake_tendon(m, d):
    _sleep.update_sleep(m, d)
  _smooth.make_m(m, d)
  _smooth.factor_m(m, d)
  if _collision.enabled(m):
    _collision.collision(m, d)
  else:
    d.ncon[0] = 0
  if sleeping and _sleep.wake_collision(m, d):
    _sleep.update_sleep(m, d)
    _collision.collision(m, d)
  if sleeping and _sleep.wake_equality(m, d):
    _sleep.update_sleep(m, d)
  _constraint.make_constraint(m, d)
  _island.island(m, d)
  _tendon.transmission(m, d)


@stage()
def fwd_velocity(m, d):
  """Port of mj_fwdVelocity: tendon/actuator velocities, com velocities, passive, bias."""
  _sparse.mul_mat_vec(
    d.ten_velocity, d.ten_J, d.qvel, m.ntendon, m.ten_J_rownnz, m.ten_J_rowadr, m.ten_J_colind
  )
  if not disabled(m, mjDSBL_ACTUATION):
    _sparse.mul_mat_vec(
      d.actuator_velocity,
      d.actuator_moment,
      d.qvel,
      m.nout,
      d.moment_rownnz,
      d.moment_rowadr,
      d.moment_colind,
    )
  else:
    d.actuator_velocity[:] = 0.0
  _smooth.com_vel(m, d)
  _passive.passive(m, d)
  _smooth.rne(m, d, 0, d.qfrc_bias)
  _smooth.tendon_bias(m, d, d.qfrc_bias)
  _constraint.reference_constraint(m, d)


@stage()
def fwd_acceleration(m, d):
  """Port of mj_fwdAcceleration: qfrc_smooth and the unconstrained qacc_smooth."""
  for i in range(m.nv):
    d.qfrc_smooth[i] = d.qfrc_passive[i] - d.qfrc_bias[i] + d.qfrc_applied[i]
    d.qfrc_smooth[i] += d.qfrc_actuator[i]
  _support.xfrc_accumulate(m, d, d.qfrc_smooth)
  d.qacc_smooth[:] = d.qfrc_smooth
  _sparse.solve_ld(d.qacc_smooth, d.qLD, d.qLDiagInv, m.nv, 1, m.M_rownnz, m.M_rowadr, m.M_colind)


@stage()
def fwd_constraint(m, d):
  """Port of mj_fwdConstraint: qacc and constraint forces from the solver (engine/solver.py)."""
  _solver.solve(m, d)


@jit
def sensors_vel(m, d):
  """Velocity sensors, computing subtree velocities first when a sensor reads them."""
  if _sensor.needs_subtree_vel(m):
    _smooth.subtree_vel(m, d)
  _sensor.sensor_vel(m, d)


@jit
def sensors_acc(m, d):
  """Acceleration sensors, computing cacc/cfrc_int/cfrc_ext first when a sensor reads them."""
  if _sensor.needs_rne_post(m):
    _smooth.rne_post_constraint(m, d)
  _sensor.sensor_acc(m, d)


@jit
def position_velocity(m, d, skipstage, skipsensor):
  """The position and velocity stages with their sensors and energy, from `skipstage` on."""
  # (a model without sensors or plugins never reaches the sensor stages: they need not load)
  sensors = not skipsensor and not disabled(m, mjDSBL_SENSOR) and (m.nsensor > 0 or m.nplugin > 0)
  if skipstage < mjSTAGE_POS:
    fwd_position(m, d)
    if sensors:
      _sensor.sensor_pos(m, d)
    if enabled(m, mjENBL_ENERGY):
      _sensor.energy_pos(m, d)
    else:
      d.energy[0] = 0.0
      d.energy[1] = 0.0
  if skipstage < mjSTAGE_VEL:
    fwd_velocity(m, d)
    if sensors:
      sensors_vel(m, d)
    if enabled(m, mjENBL_ENERGY):
      _sensor.energy_vel(m, d)


@stage(M, D, i8, i8)
def forward_skip(m, d, skipstage, skipsensor):
  """Port of mj_forwardSkip: forward dynamics, skipping stages below `skipstage`."""
  position_velocity(m, d, skipstage, skipsensor)
  _actuation.fwd_actuation(m, d)
  fwd_acceleration(m, d)
  fwd_constraint(m, d)
  if not skipsensor and not disabled(m, mjDSBL_SENSOR) and (m.nsensor > 0 or m.nplugin > 0):
    sensors_acc(m, d)


# ---- reset (mj_resetData) ----


@stage()
def reset_data(m, d):
  """Port of mj_resetData, engine_io.c: clear everything, then set the qpos0 state and the
  history buffers' initial times."""
  _structs.zero_data(d)
  _history.init(m, d)
  if m.nplugin:
    plugin_call.reset(m, d)
  for i in range(m.nq):
    d.qpos[i] = m.qpos0[i]
  for i in range(m.neq):
    d.eq_active[i] = m.eq_active0[i]
  reset_sleep(m, d)
  for i in range(m.nbody):
    k = m.body_mocapid[i]
    if k >= 0:
      for j in range(3):
        d.mocap_pos[k, j] = m.body_pos[i, j]
      for j in range(4):
        d.mocap_quat[k, j] = m.body_quat[i, j]


@stage(M, D, i8, needed=KEYFRAMES)
def reset_data_keyframe(m, d, key):
  """Port of mj_resetDataKeyframe, engine_io.c: reset, then copy keyframe `key`."""
  reset_data(m, d)
  d.time[0] = m.key_time[key]
  d.qpos[:] = m.key_qpos[key]
  d.qvel[:] = m.key_qvel[key]
  d.act[:] = m.key_act[key]
  d.ctrl[:] = m.key_ctrl[key]
  for i in range(m.nmocap):
    for j in range(3):
      d.mocap_pos[i, j] = m.key_mpos[key, 3 * i + j]
    for j in range(4):
      d.mocap_quat[i, j] = m.key_mquat[key, 4 * i + j]


@stage()
def reset_sleep(m, d):
  """The sleeping part of mj_resetData: every tree awake; with sleeping enabled, the poses of
  static bodies (kinematics then skips them) and the trees with sleep="init" put to sleep
  after one mj_forward. A tree that could not be put to sleep stays awake (the Python API
  warns, as MuJoCo does)."""
  for i in range(m.ntree):
    d.tree_asleep[i] = _sleep.AWAKE
  if _sleep.enabled(m):
    ninit = 0
    for i in range(m.ntree):
      if m.tree_sleep_policy[i] == mjSLEEP_INIT:
        ninit += 1
    _sleep.update_sleep(m, d, True)
    if not ninit:
      _smooth.kinematics(m, d)
      _smooth.com_pos(m, d)
      _smooth.camlight(m, d)
      _tendon.tendon(m, d)
    else:
      forward_skip(m, d, mjSTAGE_NONE, 0)
      for i in range(m.ntree):
        d.tree_asleep[i] = -1 if m.tree_sleep_policy[i] == mjSLEEP_INIT else _sleep.AWAKE
      _sleep.sleep(m, d)
      for i in range(m.ntree):  # init trees that could not sleep: fully awake
        if m.tree_sleep_policy[i] == mjSLEEP_INIT and d.tree_asleep[i] < 0:
          d.tree_asleep[i] = _sleep.AWAKE
      for i in range(m.nv):
        d.qacc_smooth[i] = 0.0
        d.qfrc_smooth[i] = 0.0
      d.ne[0] = d.nf[0] = d.nl[0] = d.nefc[0] = d.nJ[0] = 0
      d.nisland[0] = d.nidof[0] = 0
  _sleep.update_sleep(m, d)


# ---- integrators ----


@jit
def advance_history(m, d):
  """Appends the current controls and sensor samples to the history buffers: a delayed
  sensor is computed now, others copy sensordata; interval sensors only at sampling times."""
  _history.advance_ctrl(m, d)
  for i in range(m.nsensor):
    adr = _history.sensor_slot(m, d, i)
    if adr < 0:
      continue
    dim = m.sensor_dim[i]
    out = d.history[adr : adr + dim]
    if m.sensor_delay[i] > 0:
      _sensor.compute_sensor(m, d, i, out)
    else:
      sadr = m.sensor_adr[i]
      out[:] = d.sensordata[sadr : sadr + dim]


@jit
def wrap_setpoints(m, d):
  """Rotational setpoints integrated in act, replaced by an equivalent bounded representative
  (the force does not change): a per-axis servo's by the one nearest its length, an SO3
  servo's rotation vector longer than pi by the equivalent one of angle in [-pi, pi]."""
  for i in range(m.nactuator):
    if m.actuator_dyntype[i] != mjDYN_INTEGRATOR:
      continue
    period = _actuation.wrap_period(m, i)
    if period > 0:
      adr = m.actuator_actadr[i] + m.actuator_actnum[i] - 1
      d.act[adr] = _actuation.wrap_setpoint(
        d.act[adr], d.actuator_length[m.actuator_outadr[i]], period
      )
    elif m.actuator_gaintype[i] == mjGAIN_SO3:
      adr = m.actuator_actadr[i]
      a0, a1, a2 = d.act[adr], d.act[adr + 1], d.act[adr + 2]
      angle = math.sqrt(a0 * a0 + a1 * a1 + a2 * a2)
      if angle > mjPI:
        scale = (angle - 2 * mjPI * mju_round(angle / (2 * mjPI))) / angle
        for k in range(3):
          d.act[adr + k] *= scale


@stage(M, D, vec, vec, vec, i8)
def advance(m, d, act_dot, qacc, qvel, use_qvel):
  """Port of mj_advance: history buffers, activations, velocities, positions and time by one
  step; trees at rest fall asleep first (sleep.py), and sleeping trees are not advanced."""
  h = m.opt.timestep[0]
  if m.nhistory:
    advance_history(m, d)
  if m.na and not disabled(m, mjDSBL_ACTUATION):
    for i in range(m.nactuator):
      adr = m.actuator_actadr[i]
      for j in range(adr, adr + m.actuator_actnum[i]):
        rate = 0.0 if _actuation.actuator_disabled(m, i) else act_dot[j]
        d.act[j] = _actuation.next_activation(m, d, i, j, rate)
    wrap_setpoints(m, d)

  # trees put to sleep (qvel zeroed): velocity-dependent quantities again, then the sleep lists
  if _sleep.enabled(m) and _sleep.sleep(m, d):
    forward_skip(m, d, mjSTAGE_POS, 0)
    _sleep.update_sleep(m, d)

  v = qvel if use_qvel else d.qvel
  if _sleep.filtering(m, d):
    for k in range(d.nv_awake[0]):
      i = d.dof_awake_ind[k]
      d.qvel[i] += qacc[i] * h
    _support.integrate_pos_bodies(m, d.qpos, v, h, d.body_awake_ind, d.nbody_awake[0])
  else:
    for i in range(m.nv):
      d.qvel[i] += qacc[i] * h
    _support.integrate_pos(m, d.qpos, v, h)
  d.time[0] += h
  if m.nplugin:
    plugin_call.advance(m, d)
  d.qacc_warmstart[:] = d.qacc


@jit
def implicit_damping(m, i):
  """Whether dof i is damped through dof, polynomial or actuator damping (Euler treats it
  implicitly)."""
  return (
    m.dof_damping[i] > 0
    or m.dof_dampingpoly[i, 0] != 0
    or m.dof_dampingpoly[i, 1] != 0
    or m.jnt_actuatorid[m.dof_jntid[i]] != -1
  )


@jit
def euler_damping(m, i, poly):
  """Damping coefficient of dof i in the implicit Euler step (joint plus actuator damping);
  writes the 2 damping-polynomial coefficients into `poly`."""
  poly[0] = m.dof_dampingpoly[i, 0]
  poly[1] = m.dof_dampingpoly[i, 1]
  b = m.dof_damping[i]
  if m.jnt_actuatorid[m.dof_jntid[i]] != -1:  # skip the call (and its struct refcount)
    b += _actuation.actuator_damping(m, mjOBJ_JOINT, m.dof_jntid[i], poly)
  return b


@stage()
def euler(m, d):
  """Port of mj_Euler: semi-implicit Euler, implicit in dof damping unless disabled."""
  euler_skip(m, d, False)


@jit
def euler_skip(m, d, skipfactor):
  """Port of mj_EulerSkip: with `skipfactor`, the damped inertia factored by the last step
  (d.qH) is reused (finite differences nudging what it does not depend on)."""
  nv = m.nv
  h = m.opt.timestep[0]
  qacc = d.scratch_step_qacc
  # some tree sleeps: the awake dofs only (advance moves no other)
  filtered = _sleep.enabled(m) and d.nv_awake[0] < nv
  nawake = d.nv_awake[0] if filtered else nv
  damping = False
  if not disabled(m, mjDSBL_EULERDAMP | mjDSBL_DAMPER):
    for k in range(nawake):
      if implicit_damping(m, d.dof_awake_ind[k] if filtered else k):
        damping = True
        break
  if not damping:
    for k in range(nawake):
      i = d.dof_awake_ind[k] if filtered else k
      qacc[i] = d.qacc[i]
  else:
    # (M + h*dB/dv) qacc = qfrc_smooth + qfrc_constraint, B the (polynomial) damping force
    if not skipfactor:
      d.qH[:] = d.M
      poly = local_array(2)
      for i in range(nv):
        b = euler_damping(m, i, poly)
        d.qH[m.M_rowadr[i] + m.M_rownnz[i] - 1] += h * _passive.poly_force_deriv(
          b, poly, d.qvel[i], 1
        )
      _sparse.factor_i(d, d.qH, d.qHDiagInv, nv, m.M_rownnz, m.M_rowadr, m.M_colind)
    for i in range(nv):
      qacc[i] = d.qfrc_smooth[i] + d.qfrc_constraint[i]
    _sparse.solve_ld(qacc, d.qH, d.qHDiagInv, nv, 1, m.M_rownnz, m.M_rowadr, m.M_colind)
  advance(m, d, d.act_dot, qacc, d.qvel, 0)


# Runge-Kutta 4 tableau: stage weights A (lower triangle, by rows) and B
_RK4_A = np.array([[0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 1.0]])
_RK4_B = np.array([1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0])


@stage(needed=RK4)
def runge_kutta4(m, d):
  """Port of mj_RungeKutta with N=4 (mj_forward has already been called)."""
  nv, na = m.nv, m.na
  h = m.opt.timestep[0]
  time0 = d.time[0]
  X_qpos, X_qvel, X_act = d.scratch_rk4_qpos, d.scratch_rk4_qvel, d.scratch_rk4_act
  F_qacc, F_act = d.scratch_rk4_qacc, d.scratch_rk4_act_dot
  dx_pos, dx_vel, dx_act = d.scratch_rk4_dqpos, d.scratch_rk4_dqvel, d.scratch_rk4_dact
  X_qpos[0, :] = d.qpos
  X_qvel[0, :] = d.qvel
  F_qacc[0, :] = d.qacc
  X_act[0, :] = d.act
  F_act[0, :] = d.act_dot
  for i in range(1, 4):
    # dX = sum_j A(i,j) * [qvel_j, qacc_j, act_dot_j]
    dx_pos[:] = 0.0
    dx_vel[:] = 0.0
    dx_act[:] = 0.0
    c = 0.0
    for j in range(i):
      a = _RK4_A[i - 1, j]
      c += a
      for k in range(nv):
        dx_pos[k] += a * X_qvel[j, k]
        dx_vel[k] += a * F_qacc[j, k]
      for k in range(na):
        dx_act[k] += a * F_act[j, k]
    # X[i] = X[0] (+) h*dX
    X_qpos[i, :] = X_qpos[0]
    _support.integrate_pos(m, X_qpos[i], dx_pos, h)
    for k in range(nv):
      X_qvel[i, k] = X_qvel[0, k] + h * dx_vel[k]
    for k in range(na):
      X_act[i, k] = X_act[0, k] + h * dx_act[k]
    d.qpos[:] = X_qpos[i]
    d.qvel[:] = X_qvel[i]
    d.act[:] = X_act[i]
    d.time[0] = time0 + c * h
    forward_skip(m, d, mjSTAGE_NONE, 1)
    F_qacc[i, :] = d.qacc
    F_act[i, :] = d.act_dot
  # final increment with weights B
  dx_pos[:] = 0.0
  dx_vel[:] = 0.0
  dx_act[:] = 0.0
  for j in range(4):
    b = _RK4_B[j]
    for k in range(nv):
      dx_pos[k] += b * X_qvel[j, k]
      dx_vel[k] += b * F_qacc[j, k]
    for k in range(na):
      dx_act[k] += b * F_act[j, k]
  d.time[0] = time0
  d.qpos[:] = X_qpos[0]
  d.qvel[:] = X_qvel[0]
  d.act[:] = X_act[0]
  advance(m, d, dx_act, dx_vel, dx_pos, 1)


@stage(needed=IMPLICIT)
def implicit(m, d):
  """Port of mj_implicit (mj_implicitSkip without skipping): implicit in velocity."""
  implicit_skip(m, d, False)


@jit
def implicit_skip(m, d, skipfactor):
  """Port of mj_implicitSkip: with `skipfactor`, the matrix factored by the last step (d.qLU or
  d.qH) is reused (finite differences nudging what it is taken not to depend on)."""
  nv = m.nv
  h = m.opt.timestep[0]
  qacc = d.scratch_step_qacc
  qfrc = d.scratch_step_qfrc
  for i in range(nv):
    qfrc[i] = d.qfrc_smooth[i] + d.qfrc_constraint[i]
  if m.opt.integrator[0] == mjINT_IMPLICIT:
    # qLU = M - h*qDeriv in the full pattern, factor and solve
    if not skipfactor:
      _derivative.smooth_vel(m, d, 1)
      for k in range(m.nD):
        adr = m.mapM2D[k]
        d.qLU[k] = d.M[adr] if adr >= 0 else 0.0
      for k in range(m.nD):
        d.qLU[k] += -h * d.qDeriv[k]
      _sparse.factor_lu_sparse(
        d.qLU, nv, d.scratch_lu_remaining, m.D_rownnz, m.D_rowadr, m.D_colind
      )
    _sparse.solve_lu_sparse(qacc, d.qLU, qfrc, nv, m.D_rownnz, m.D_rowadr, m.D_diag, m.D_colind)
  else:
    # qH = M - h*qDeriv (lower triangle, no RNE term), L'DL factor and solve
    if not skipfactor:
      _derivative.smooth_vel(m, d, 0)
      for k in range(m.nC):
        d.qH[k] = d.M[k] + -h * d.qDeriv[m.mapD2M[k]]
      # free rigid subtrees: their rows keep M here and are solved locally below
      for j in range(m.njnt):
        if m.jnt_type[j] != mjJNT_FREE or not _derivative.is_free_body(m, m.jnt_bodyid[j]):
          continue
        adr = m.jnt_dofadr[j]
        for r in range(6):
          rowadr = m.M_rowadr[adr + r]
          for k in range(m.M_rownnz[adr + r]):
            d.qH[rowadr + k] = d.M[rowadr + k]
      _sparse.factor_i(d, d.qH, d.qHDiagInv, nv, m.M_rownnz, m.M_rowadr, m.M_colind)
    qacc[:nv] = qfrc[:nv]
    _sparse.solve_ld(qacc, d.qH, d.qHDiagInv, nv, 1, m.M_rownnz, m.M_rowadr, m.M_colind)
    # local unsymmetric 6x6 solve with the gyroscopic derivative, per free rigid subtree
    A = local_array(36)
    pivot = local_int_array(6)
    x = local_array(6)
    for j in range(m.njnt):
      if not _derivative.free_mhat(m, d, j, h, A):
        continue
      adr = m.jnt_dofadr[j]
      if _derivative.factor_lu6(A, pivot):
        _derivative.solve_lu6(x, A, qfrc, adr, pivot)
        for k in range(6):
          qacc[adr + k] = x[k]
  advance(m, d, d.act_dot, qacc, d.qvel, 0)


# ---- top level ----


@jit
def _integrate(m, d, rk4):
  """The integrator step after forward dynamics (RK4 only where mj_step allows it)."""
  integrator = m.opt.integrator[0]
  if integrator == mjINT_RK4 and rk4:
    runge_kutta4(m, d)
  elif integrator == mjINT_IMPLICIT or integrator == mjINT_IMPLICITFAST:
    implicit(m, d)
  else:
    euler(m, d)


@stage()
def step(m, d):
  """Port of mj_step: checks, forward dynamics and one integrator step."""
  check_pos(m, d)
  check_vel(m, d)
  forward_skip(m, d, mjSTAGE_NONE, 0)
  check_acc(m, d)
  _integrate(m, d, True)


@stage(M, D, i8, i8)
def step_skip(m, d, skipstage, skipsensor):
  """Port of mj_stepSkip (finite differences): a step whose forward pass takes the stages below
  `skipstage` as they are, and whose integrator reuses the last factorization where the nudge
  is taken not to change it (Euler: from velocities on; implicit: from controls on). RK4 is
  refused by the caller, as MuJoCo refuses it."""
  check_pos(m, d)
  check_vel(m, d)
  forward_skip(m, d, skipstage, skipsensor)
  check_acc(m, d)
  integrator = m.opt.integrator[0]
  if integrator == mjINT_IMPLICIT or integrator == mjINT_IMPLICITFAST:
    implicit_skip(m, d, skipstage >= mjSTAGE_VEL)
  else:
    euler_skip(m, d, skipstage >= mjSTAGE_POS)


@stage()
def step1(m, d):
  """Port of mj_step1: everything that does not depend on the controls."""
  check_pos(m, d)
  check_vel(m, d)
  position_velocity(m, d, mjSTAGE_NONE, 0)


@stage()
def step2(m, d):
  """Port of mj_step2: actuation, acceleration and integration (RK4 falls back to Euler)."""
  _actuation.fwd_actuation(m, d)
  fwd_acceleration(m, d)
  fwd_constraint(m, d)
  if not disabled(m, mjDSBL_SENSOR):
    sensors_acc(m, d)
  check_acc(m, d)
  _integrate(m, d, False)


@stage(M, D, i8)
def legacy_step(m, d, nstep):
  """dm_control's step: finish the step with step2, then step1 so derived fields match qpos/qvel.

  With RK4 the full mj_step is used (step2 would fall back to Euler). nstep < 1 does nothing.
  """
  if nstep < 1:
    return
  if m.opt.integrator[0] != mjINT_RK4:
    step2(m, d)
    for _ in range(nstep - 1):
      step(m, d)
  else:
    for _ in range(nstep):
      step(m, d)
  step1(m, d)
