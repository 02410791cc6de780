"""Forward dynamics and time integration (port of engine_forward.c).

`mj_step(m, d, nstep)` crosses into numba once and runs the whole loop there.
The stage order follows MuJoCo's mj_forwardSkip: position, velocity,
actuation, acceleration, constraint; then the selected integrator.
"""

import warnings

import numpy as np

from engine import actuation as _actuation
from engine import io as _io
from engine import passive as _passive
from engine import sensor as _sensor
from engine import smooth as _smooth
from engine import support as _support
from engine import tendon as _tendon
from engine._jit import jit
from engine.enums import mjDSBL_ACTUATION
from engine.enums import mjDSBL_AUTORESET
from engine.enums import mjDSBL_DAMPER
from engine.enums import mjDSBL_EULERDAMP
from engine.enums import mjDSBL_SENSOR
from engine.enums import mjDYN_FILTEREXACT
from engine.enums import mjENBL_ENERGY
from engine.enums import mjINT_IMPLICIT
from engine.enums import mjINT_IMPLICITFAST
from engine.enums import mjINT_RK4
from engine.enums import mjSTAGE_NONE
from engine.enums import mjSTAGE_POS
from engine.enums import mjSTAGE_VEL
from engine.enums import mjWARN_BADQACC
from engine.enums import mjWARN_BADQPOS
from engine.enums import mjWARN_BADQVEL
from engine.enums import mjtWarning
from engine.math import mju_isBad

# ---- sparse L'DL factorization in the reduced layout ----


@jit
def factor_i(mat, diaginv, nv, rownnz, rowadr, colind):
  """Port of mj_factorI: in-place L'*D*L of an inertia-like matrix in the reduced layout."""
  for k in range(nv - 1, -1, -1):
    start = rowadr[k]
    diag = rownnz[k] - 1
    end = start + diag
    invd = 1.0 / mat[end]
    diaginv[k] = invd
    # update the rows of the ancestors of k
    for adr in range(end - 1, start - 1, -1):
      i = colind[adr]
      scl = -mat[adr] * invd
      ri = rowadr[i]
      for j in range(rownnz[i]):
        mat[ri + j] += scl * mat[start + j]
    # scale row k by the inverse diagonal
    for j in range(start, end):
      mat[j] *= invd


@jit
def solve_ld(x, mat, diaginv, nv, rownnz, rowadr, colind):
  """Port of mj_solveLD for one vector: x <- inv(L'*D*L) x, in place."""
  # x <- inv(L') x
  for i in range(nv - 1, -1, -1):
    xi = x[i]
    if xi != 0:
      start = rowadr[i]
      for adr in range(start, start + rownnz[i] - 1):
        x[colind[adr]] -= mat[adr] * xi
  # x <- inv(D) x
  for i in range(nv):
    x[i] *= diaginv[i]
  # x <- inv(L) x
  for i in range(nv):
    start = rowadr[i]
    s = 0.0
    for adr in range(start, start + rownnz[i] - 1):
      s += mat[adr] * x[colind[adr]]
    x[i] -= s


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
  """Port of mj_fwdPosition (contacts and constraints come with the constraint stage)."""
  _smooth.kinematics(m, d)
  _smooth.com_pos(m, d)
  _smooth.camlight(m, d)
  _tendon.tendon(m, d)
  _smooth.make_m(m, d)
  _smooth.factor_m(m, d)
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
    _sparse_mul(d.actuator_velocity, d.actuator_moment, d.qvel, m.nu, d.moment_rownnz,
                d.moment_rowadr, d.moment_colind)
  else:
    d.actuator_velocity[:] = 0.0
  _smooth.com_vel(m, d)
  _passive.passive(m, d)
  _smooth.rne(m, d, 0, d.qfrc_bias)
  _smooth.tendon_bias(m, d, d.qfrc_bias)


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
  """Port of mj_fwdConstraint without constraints: qacc = qacc_smooth."""
  d.qfrc_constraint[:] = 0.0
  d.qacc[:] = d.qacc_smooth
  d.solver_niter[:] = 0


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
      _sensor.sensor_vel(m, d)
    if m.opt.enableflags[0] & mjENBL_ENERGY:
      _sensor.energy_vel(m, d)
  _actuation.fwd_actuation(m, d)
  fwd_acceleration(m, d)
  fwd_constraint(m, d)
  if sensors:
    _sensor.sensor_acc(m, d)


@jit
def forward(m, d):
  """Port of mj_forward."""
  forward_skip(m, d, mjSTAGE_NONE, 0)


# ---- integrators ----


@jit
def next_activation(m, d, i, adr, act_dot):
  """Activation after one step (exact for filterexact), clamped to actrange."""
  act = d.act[adr]
  if m.actuator_dyntype[i] == mjDYN_FILTEREXACT:
    tau = max(1e-15, m.actuator_dynprm[i, 0])
    act = act + act_dot * tau * (1.0 - np.exp(-m.opt.timestep[0] / tau))
  else:
    act = act + act_dot * m.opt.timestep[0]
  if m.actuator_actlimited[i]:
    act = min(max(act, m.actuator_actrange[i, 0]), m.actuator_actrange[i, 1])
  return act


@jit
def advance(m, d, act_dot, qacc, qvel, use_qvel):
  """Port of mj_advance: activations, velocities, positions and time by one step."""
  h = m.opt.timestep[0]
  if m.na and not m.opt.disableflags[0] & mjDSBL_ACTUATION:
    for i in range(m.nu):
      adr = m.actuator_actadr[i]
      for j in range(adr, adr + m.actuator_actnum[i]):
        rate = 0.0 if _actuation.actuator_disabled(m, i) else act_dot[j]
        d.act[j] = next_activation(m, d, i, j, rate)
  for i in range(m.nv):
    d.qvel[i] += qacc[i] * h
  if use_qvel:
    _support.integrate_pos(m, d.qpos, qvel, h)
  else:
    _support.integrate_pos(m, d.qpos, d.qvel, h)
  d.time[0] += h
  d.qacc_warmstart[:] = d.qacc


@jit
def euler(m, d):
  """Port of mj_Euler: semi-implicit Euler, implicit in dof damping unless disabled."""
  nv = m.nv
  qacc = d.scratch_qacc[0]
  damping = False
  if not m.opt.disableflags[0] & (mjDSBL_EULERDAMP | mjDSBL_DAMPER):
    for i in range(nv):
      if m.dof_damping[i] > 0:
        damping = True
        break
  if not damping:
    qacc[:] = d.qacc
  else:
    # (M + h*B) qacc = qfrc_smooth + qfrc_constraint
    d.qH[:] = d.M
    for i in range(nv):
      d.qH[m.M_rowadr[i] + m.M_rownnz[i] - 1] += m.opt.timestep[0] * m.dof_damping[i]
    factor_i(d.qH, d.qHDiagInv, nv, m.M_rownnz, m.M_rowadr, m.M_colind)
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
  dx_act = np.zeros(na)
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
def step_n(m, d, nstep):
  """mj_step repeated nstep times inside one numba call."""
  for _ in range(nstep):
    step(m, d)


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
    _sensor.sensor_vel(m, d)
  if m.opt.enableflags[0] & mjENBL_ENERGY:
    _sensor.energy_vel(m, d)


@jit
def step2(m, d):
  """Port of mj_step2: actuation, acceleration and integration (RK4 falls back to Euler)."""
  _actuation.fwd_actuation(m, d)
  fwd_acceleration(m, d)
  fwd_constraint(m, d)
  if not m.opt.disableflags[0] & mjDSBL_SENSOR:
    _sensor.sensor_acc(m, d)
  check_acc(m, d)
  integrator = m.opt.integrator[0]
  if integrator == mjINT_IMPLICIT or integrator == mjINT_IMPLICITFAST:
    implicit(m, d)
  else:
    euler(m, d)


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
  """Reports new engine warnings through Python's warnings module, once per kind."""
  after = d._arrays["warning_number"]
  if not np.array_equal(after, before):
    for kind in np.nonzero(after != before)[0]:
      text = _WARNING_TEXT[mjtWarning(kind)].format(d._arrays["warning_lastinfo"][kind])
      warnings.warn(f"{mjtWarning(kind).name}: {text}", PhysicsWarning, stacklevel=3)


def _run(fn, m, d, *args):
  before = d._arrays["warning_number"].copy()
  fn(m._struct, d._struct, *args)
  _report_warnings(d, before)


def mj_step(m, d, nstep: int = 1) -> None:
  """Advances the simulation by `nstep` steps in one call into numba."""
  nstep = int(nstep)
  if nstep < 1:
    raise ValueError(f"nstep must be >= 1, got {nstep}")
  _run(step_n, m, d, nstep)


def mj_forward(m, d) -> None:
  """Forward dynamics: every derived quantity at the current state."""
  _run(forward, m, d)


def mj_forwardSkip(m, d, skipstage: int, skipsensor: int) -> None:
  """Forward dynamics skipping stages below `skipstage` (an mjtStage)."""
  _run(forward_skip, m, d, int(skipstage), int(skipsensor))


def mj_step1(m, d) -> None:
  """First half of a step: position and velocity stages (set ctrl between step1 and step2)."""
  _run(step1, m, d)


def mj_step2(m, d) -> None:
  """Second half of a step: actuation, acceleration, integration."""
  _run(step2, m, d)


def mj_checkPos(m, d) -> None:
  _run(check_pos, m, d)


def mj_checkVel(m, d) -> None:
  _run(check_vel, m, d)


def mj_checkAcc(m, d) -> None:
  _run(check_acc, m, d)


def mj_fwdPosition(m, d) -> None:
  _run(fwd_position, m, d)


def mj_fwdVelocity(m, d) -> None:
  _run(fwd_velocity, m, d)


def mj_fwdActuation(m, d) -> None:
  _run(_actuation.fwd_actuation, m, d)


def mj_fwdAcceleration(m, d) -> None:
  _run(fwd_acceleration, m, d)


def mj_fwdConstraint(m, d) -> None:
  _run(fwd_constraint, m, d)


def mj_Euler(m, d) -> None:
  _run(euler, m, d)


def mj_RungeKutta(m, d, N: int) -> None:
  if int(N) != 4:
    raise ValueError("supported Runge-Kutta orders: N=4")
  _run(runge_kutta4, m, d)


def mj_implicit(m, d) -> None:
  _run(implicit, m, d)


from engine import implicit as _implicit  # noqa: E402  (implicit.py calls back into this module)
