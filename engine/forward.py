"""Forward dynamics and time integration (port of engine_forward.c).

`mj_step(m, d, nstep)` crosses into numba once and runs the whole loop there.
The stage order follows MuJoCo's mj_forwardSkip: position, velocity,
actuation, acceleration, constraint; then the selected integrator.
"""

import warnings

import numpy as np

from engine import actuation as _actuation
from engine import constraint as _constraint
from engine import io as _io
from engine import passive as _passive
from engine import sensor as _sensor
from engine import smooth as _smooth
from engine import solver as _solver
from engine import support as _support
from engine import tendon as _tendon
from engine._jit import jit
from engine.collision import driver as _collision
from engine.enums import mjDSBL_ACTUATION
from engine.enums import mjDSBL_AUTORESET
from engine.enums import mjDSBL_DAMPER
from engine.enums import mjDSBL_EULERDAMP
from engine.enums import mjDSBL_SENSOR
from engine.enums import mjENBL_ENERGY
from engine.enums import mjINT_IMPLICIT
from engine.enums import mjINT_IMPLICITFAST
from engine.enums import mjINT_RK4
from engine.enums import mjOBJ_JOINT
from engine.enums import mjSTAGE_NONE
from engine.enums import mjSTAGE_POS
from engine.enums import mjSTAGE_VEL
from engine.enums import mjWARN_BADQACC
from engine.enums import mjWARN_BADQPOS
from engine.enums import mjWARN_BADQVEL
from engine.enums import mjtWarning
from engine.math import mju_isBad

# the sparse L'DL factorization and solve of the reduced layout live in smooth.py
factor_i = _smooth.factor_i


@jit
def solve_ld(x, mat, diaginv, nv, rownnz, rowadr, colind):
  """x <- inv(L'*D*L) x for one vector, in place (mj_solveLD with n=1)."""
  _smooth.solve_ld(x, mat, diaginv, nv, 1, rownnz, rowadr, colind)


# ---- warnings and checks ----


@jit
def warning(d, kind, info):
  """Port of mj_warning: count the warning and remember its info."""
  d.warning_number[kind] += 1
  d.warning_lastinfo[kind] = info


@jit
def _bad_index(x, n):
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
  if not m.opt.disableflags[0] & mjDSBL_AUTORESET:
    _io.reset_data(m, d)
  d.warning_number[kind] += 1
  d.warning_lastinfo[kind] = i
  return True


@jit
def check_pos(m, d):
  """Port of mj_checkPos: reset on NaN/inf or huge qpos."""
  _check(m, d, d.qpos, m.nq, mjWARN_BADQPOS)


@jit
def check_vel(m, d):
  """Port of mj_checkVel: reset on NaN/inf or huge qvel."""
  _check(m, d, d.qvel, m.nv, mjWARN_BADQVEL)


@jit
def check_acc(m, d):
  """Port of mj_checkAcc: reset on bad qacc, then recompute forward dynamics."""
  if _check(m, d, d.qacc, m.nv, mjWARN_BADQACC):
    if not m.opt.disableflags[0] & mjDSBL_AUTORESET:
      forward_skip(m, d, mjSTAGE_NONE, 0)


# ---- stages ----


@jit
def fwd_position(m, d):
  """Port of mj_fwdPosition: kinematics, inertia, collision, constraint rows, transmission."""
  _smooth.kinematics(m, d)
  _smooth.com_pos(m, d)
  _smooth.camlight(m, d)
  _tendon.tendon(m, d)
  _smooth.make_m(m, d)
  _smooth.factor_m(m, d)
  _collision.collision(m, d)
  _constraint.make_constraint(m, d)
  _tendon.transmission(m, d)


@jit
def _sparse_mul(res, vals, vec, nrow, rownnz, rowadr, colind):
  for i in range(nrow):
    s = 0.0
    adr = rowadr[i]
    for k in range(rownnz[i]):
      s += vals[adr + k] * vec[colind[adr + k]]
    res[i] = s


@jit
def fwd_velocity(m, d):
  """Port of mj_fwdVelocity: tendon/actuator velocities, com velocities, passive, bias."""
  _sparse_mul(d.ten_velocity, d.ten_J, d.qvel, m.ntendon, m.ten_J_rownnz, m.ten_J_rowadr,
              m.ten_J_colind)
  if not m.opt.disableflags[0] & mjDSBL_ACTUATION:
    _sparse_mul(d.actuator_velocity, d.actuator_moment, d.qvel, m.nout, d.moment_rownnz,
                d.moment_rowadr, d.moment_colind)
  else:
    d.actuator_velocity[:] = 0.0
  _smooth.com_vel(m, d)
  _passive.passive(m, d)
  _smooth.rne(m, d, 0, d.qfrc_bias)
  _smooth.tendon_bias(m, d, d.qfrc_bias)
  _constraint.reference_constraint(m, d)


@jit
def fwd_acceleration(m, d):
  """Port of mj_fwdAcceleration: qfrc_smooth and the unconstrained qacc_smooth."""
  for i in range(m.nv):
    d.qfrc_smooth[i] = d.qfrc_passive[i] - d.qfrc_bias[i] + d.qfrc_applied[i]
    d.qfrc_smooth[i] += d.qfrc_actuator[i]
  _support.xfrc_accumulate(m, d, d.qfrc_smooth)
  d.qacc_smooth[:] = d.qfrc_smooth
  solve_ld(d.qacc_smooth, d.qLD, d.qLDiagInv, m.nv, m.M_rownnz, m.M_rowadr, m.M_colind)


@jit
def fwd_constraint(m, d):
  """Port of mj_fwdConstraint: qacc and constraint forces from the solver (engine/solver.py)."""
  _solver.solve(m, d)


@jit
def _sensors_vel(m, d):
  """Velocity sensors, computing subtree velocities first when a sensor reads them."""
  if _sensor.needs_subtree_vel(m):
    _smooth.subtree_vel(m, d)
  _sensor.sensor_vel(m, d)


@jit
def _sensors_acc(m, d):
  """Acceleration sensors, computing cacc/cfrc_int/cfrc_ext first when a sensor reads them."""
  if _sensor.needs_rne_post(m):
    _smooth.rne_post_constraint(m, d)
  _sensor.sensor_acc(m, d)


@jit
def _energy_pos_stage(m, d):
  if m.opt.enableflags[0] & mjENBL_ENERGY:
    _sensor.energy_pos(m, d)
  else:
    d.energy[0] = 0.0
    d.energy[1] = 0.0


@jit
def forward_skip(m, d, skipstage, skipsensor):
  """Port of mj_forwardSkip: forward dynamics, skipping stages below `skipstage`."""
  sensors = not skipsensor and not m.opt.disableflags[0] & mjDSBL_SENSOR
  if skipstage < mjSTAGE_POS:
    fwd_position(m, d)
    if sensors:
      _sensor.sensor_pos(m, d)
    _energy_pos_stage(m, d)
  if skipstage < mjSTAGE_VEL:
    fwd_velocity(m, d)
    if sensors:
      _sensors_vel(m, d)
    if m.opt.enableflags[0] & mjENBL_ENERGY:
      _sensor.energy_vel(m, d)
  _actuation.fwd_actuation(m, d)
  fwd_acceleration(m, d)
  fwd_constraint(m, d)
  if sensors:
    _sensors_acc(m, d)


@jit
def forward(m, d):
  """Port of mj_forward."""
  forward_skip(m, d, mjSTAGE_NONE, 0)


# ---- integrators ----


@jit
def advance(m, d, act_dot, qacc, qvel, use_qvel):
  """Port of mj_advance: activations, velocities, positions and time by one step."""
  h = m.opt.timestep[0]
  if m.na and not m.opt.disableflags[0] & mjDSBL_ACTUATION:
    for i in range(m.nactuator):
      adr = m.actuator_actadr[i]
      for j in range(adr, adr + m.actuator_actnum[i]):
        rate = 0.0 if _actuation.actuator_disabled(m, i) else act_dot[j]
        d.act[j] = _actuation.next_activation(m, d, i, j, rate)
  for i in range(m.nv):
    d.qvel[i] += qacc[i] * h
  if use_qvel:
    _support.integrate_pos(m, d.qpos, qvel, h)
  else:
    _support.integrate_pos(m, d.qpos, d.qvel, h)
  d.time[0] += h
  d.qacc_warmstart[:] = d.qacc


@jit
def _implicit_damping(m, i):
  """Whether dof i is damped through dof, polynomial or actuator damping (Euler treats it
  implicitly)."""
  return (m.dof_damping[i] > 0 or m.dof_dampingpoly[i, 0] != 0 or m.dof_dampingpoly[i, 1] != 0
          or m.jnt_actuatorid[m.dof_jntid[i]] != -1)


@jit
def euler(m, d):
  """Port of mj_Euler: semi-implicit Euler, implicit in dof damping unless disabled."""
  nv = m.nv
  h = m.opt.timestep[0]
  qacc = d.scratch_qacc[0]
  damping = False
  if not m.opt.disableflags[0] & (mjDSBL_EULERDAMP | mjDSBL_DAMPER):
    for i in range(nv):
      if _implicit_damping(m, i):
        damping = True
        break
  if not damping:
    qacc[:] = d.qacc
  else:
    # (M + h*dB/dv) qacc = qfrc_smooth + qfrc_constraint, B the (polynomial) damping force
    d.qH[:] = d.M
    poly = d.scratch_dx[2][:2]
    for i in range(nv):
      poly[0] = m.dof_dampingpoly[i, 0]
      poly[1] = m.dof_dampingpoly[i, 1]
      b = m.dof_damping[i]
      if m.jnt_actuatorid[m.dof_jntid[i]] != -1:  # skip the call (and its struct refcount)
        b += _actuation.actuator_damping(m, mjOBJ_JOINT, m.dof_jntid[i], poly)
      d.qH[m.M_rowadr[i] + m.M_rownnz[i] - 1] += h * _passive.poly_force_deriv(b, poly,
                                                                                d.qvel[i], 1)
    factor_i(d, d.qH, d.qHDiagInv, nv, m.M_rownnz, m.M_rowadr, m.M_colind)
    for i in range(nv):
      qacc[i] = d.qfrc_smooth[i] + d.qfrc_constraint[i]
    solve_ld(qacc, d.qH, d.qHDiagInv, nv, m.M_rownnz, m.M_rowadr, m.M_colind)
  advance(m, d, d.act_dot, qacc, d.qvel, False)


# Runge-Kutta 4 tableau: stage weights A (lower triangle, by rows) and B
_RK4_A = np.array([[0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 1.0]])
_RK4_B = np.array([1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0])


@jit
def runge_kutta4(m, d):
  """Port of mj_RungeKutta with N=4 (mj_forward has already been called)."""
  nv, na = m.nv, m.na
  h = m.opt.timestep[0]
  time0 = d.time[0]
  X_qpos, X_qvel, X_act = d.scratch_qpos, d.scratch_qvel, d.scratch_act
  F_qacc, F_act = d.scratch_qacc, d.scratch_act_dot
  dx_pos, dx_vel = d.scratch_dx[0], d.scratch_dx[1]
  dx_act = X_act[4]
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
  advance(m, d, dx_act, dx_vel, dx_pos, True)


@jit
def implicit(m, d):
  """Port of mj_implicit: implicit (full derivative) or implicitfast integration."""
  _implicit.implicit(m, d)


# ---- top level ----


@jit
def step(m, d):
  """Port of mj_step: checks, forward dynamics and one integrator step."""
  check_pos(m, d)
  check_vel(m, d)
  forward(m, d)
  check_acc(m, d)
  integrator = m.opt.integrator[0]
  if integrator == mjINT_RK4:
    runge_kutta4(m, d)
  elif integrator == mjINT_IMPLICIT or integrator == mjINT_IMPLICITFAST:
    implicit(m, d)
  else:
    euler(m, d)


@jit
def step1(m, d):
  """Port of mj_step1: everything that does not depend on the controls."""
  check_pos(m, d)
  check_vel(m, d)
  sensors = not m.opt.disableflags[0] & mjDSBL_SENSOR
  fwd_position(m, d)
  if sensors:
    _sensor.sensor_pos(m, d)
  _energy_pos_stage(m, d)
  fwd_velocity(m, d)
  if sensors:
    _sensors_vel(m, d)
  if m.opt.enableflags[0] & mjENBL_ENERGY:
    _sensor.energy_vel(m, d)


@jit
def step2(m, d):
  """Port of mj_step2: actuation, acceleration and integration (RK4 falls back to Euler)."""
  _actuation.fwd_actuation(m, d)
  fwd_acceleration(m, d)
  fwd_constraint(m, d)
  if not m.opt.disableflags[0] & mjDSBL_SENSOR:
    _sensors_acc(m, d)
  check_acc(m, d)
  integrator = m.opt.integrator[0]
  if integrator == mjINT_IMPLICIT or integrator == mjINT_IMPLICITFAST:
    implicit(m, d)
  else:
    euler(m, d)


# ---- one entry point for every driver call ----
# Each jitted function called from Python is compiled (and cached) with its whole call
# tree, so the Python API enters numba through this single dispatcher: the pipeline is
# compiled once, not once per public function.

OP_STEP = 0
OP_FORWARD_SKIP = 1
OP_STEP1 = 2
OP_STEP2 = 3
OP_LEGACY_STEP = 4
OP_CHECK_POS = 5
OP_CHECK_VEL = 6
OP_CHECK_ACC = 7
OP_FWD_POSITION = 8
OP_FWD_VELOCITY = 9
OP_FWD_ACTUATION = 10
OP_FWD_ACCELERATION = 11
OP_FWD_CONSTRAINT = 12
OP_EULER = 13
OP_RK4 = 14
OP_IMPLICIT = 15
OP_INVERSE_SKIP = 16
OP_SET_CONST = 17


@jit
def dispatch(m, d, op, n, a, b):
  """Runs driver operation `op` (OP_*) with integer arguments n, a, b."""
  if op == OP_STEP:
    for _ in range(n):
      step(m, d)
  elif op == OP_FORWARD_SKIP:
    forward_skip(m, d, a, b)
  elif op == OP_STEP1:
    step1(m, d)
  elif op == OP_STEP2:
    step2(m, d)
  elif op == OP_LEGACY_STEP:
    legacy_step(m, d, n)
  elif op == OP_CHECK_POS:
    check_pos(m, d)
  elif op == OP_CHECK_VEL:
    check_vel(m, d)
  elif op == OP_CHECK_ACC:
    check_acc(m, d)
  elif op == OP_FWD_POSITION:
    fwd_position(m, d)
  elif op == OP_FWD_VELOCITY:
    fwd_velocity(m, d)
  elif op == OP_FWD_ACTUATION:
    _actuation.fwd_actuation(m, d)
  elif op == OP_FWD_ACCELERATION:
    fwd_acceleration(m, d)
  elif op == OP_FWD_CONSTRAINT:
    fwd_constraint(m, d)
  elif op == OP_EULER:
    euler(m, d)
  elif op == OP_RK4:
    runge_kutta4(m, d)
  elif op == OP_IMPLICIT:
    implicit(m, d)
  elif op == OP_INVERSE_SKIP:
    _inverse.inverse_skip(m, d, a, b)
  elif op == OP_SET_CONST:
    _setconst.set_const(m, d)


@jit
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


# ---- Python API ----

_WARNING_TEXT = {
  mjtWarning.mjWARN_INERTIA: "inertia matrix is too close to singular at dof {}",
  mjtWarning.mjWARN_CONTACTFULL: "contact buffer is full (increase nconmax): {}",
  mjtWarning.mjWARN_CNSTRFULL: "constraint buffer is full (increase njmax): {}",
  mjtWarning.mjWARN_BADQPOS: "NaN, inf or huge value in qpos at dof {}; the state was reset",
  mjtWarning.mjWARN_BADQVEL: "NaN, inf or huge value in qvel at dof {}; the state was reset",
  mjtWarning.mjWARN_BADQACC: "NaN, inf or huge value in qacc at dof {}; the state was reset",
  mjtWarning.mjWARN_BADCTRL: "NaN, inf or huge value in ctrl at actuator {}; ctrl set to zero",
}


class PhysicsWarning(RuntimeWarning):
  """A MuJoCo warning (mjtWarning) raised by the engine during a step."""


def _report_warnings(d, before):
  """Reports new engine warnings through Python's warnings module."""
  after = d._arrays["warning_number"]
  if not np.array_equal(after, before):
    for kind in np.nonzero(after != before)[0]:
      text = _WARNING_TEXT[mjtWarning(kind)].format(d._arrays["warning_lastinfo"][kind])
      warnings.warn(f"{mjtWarning(kind).name}: {text}", PhysicsWarning, stacklevel=3)


def run(m, d, op: int, n: int = 0, a: int = 0, b: int = 0) -> None:
  """Runs one dispatcher operation on Python objects and reports new warnings."""
  before = d._arrays["warning_number"].copy()
  dispatch(m._struct, d._struct, op, n, a, b)
  _report_warnings(d, before)


def mj_step(m, d, nstep: int = 1) -> None:
  """Advances the simulation by `nstep` steps in one call into numba."""
  nstep = int(nstep)
  if nstep < 1:
    raise ValueError(f"nstep must be >= 1, got {nstep}")
  run(m, d, OP_STEP, nstep)


def mj_forward(m, d) -> None:
  """Forward dynamics: every derived quantity at the current state."""
  run(m, d, OP_FORWARD_SKIP, 0, mjSTAGE_NONE, 0)


def mj_forwardSkip(m, d, skipstage: int, skipsensor: int) -> None:
  """Forward dynamics skipping stages below `skipstage` (an mjtStage)."""
  run(m, d, OP_FORWARD_SKIP, 0, int(skipstage), int(skipsensor))


def mj_step1(m, d) -> None:
  """First half of a step: position and velocity stages (set ctrl between step1 and step2)."""
  run(m, d, OP_STEP1)


def mj_step2(m, d) -> None:
  """Second half of a step: actuation, acceleration, integration."""
  run(m, d, OP_STEP2)


def mj_checkPos(m, d) -> None:
  run(m, d, OP_CHECK_POS)


def mj_checkVel(m, d) -> None:
  run(m, d, OP_CHECK_VEL)


def mj_checkAcc(m, d) -> None:
  run(m, d, OP_CHECK_ACC)


def mj_fwdPosition(m, d) -> None:
  run(m, d, OP_FWD_POSITION)


def mj_fwdVelocity(m, d) -> None:
  run(m, d, OP_FWD_VELOCITY)


def mj_fwdActuation(m, d) -> None:
  run(m, d, OP_FWD_ACTUATION)


def mj_fwdAcceleration(m, d) -> None:
  run(m, d, OP_FWD_ACCELERATION)


def mj_fwdConstraint(m, d) -> None:
  run(m, d, OP_FWD_CONSTRAINT)


def mj_Euler(m, d) -> None:
  run(m, d, OP_EULER)


def mj_RungeKutta(m, d, N: int) -> None:
  if int(N) != 4:
    raise ValueError("supported Runge-Kutta orders: N=4")
  run(m, d, OP_RK4)


def mj_implicit(m, d) -> None:
  run(m, d, OP_IMPLICIT)


def mj_inverse(m, d) -> None:
  """Inverse dynamics: qfrc_inverse that produces the current qacc."""
  run(m, d, OP_INVERSE_SKIP, 0, mjSTAGE_NONE, 0)


def mj_inverseSkip(m, d, skipstage: int, skipsensor: int) -> None:
  run(m, d, OP_INVERSE_SKIP, 0, int(skipstage), int(skipsensor))


# modules that call back into this one are imported last
from engine import inverse as _inverse  # noqa: E402
from engine import setconst as _setconst  # noqa: E402
from engine import implicit as _implicit  # noqa: E402  (implicit.py calls back into this module)
