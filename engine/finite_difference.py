"""Finite-difference derivatives of the step and of inverse dynamics, as MuJoCo's
engine_derivative_fd.c computes them (mujoco.mjd_transitionFD, mujoco.mjd_inverseFD).

Plain Python over the public pipeline functions: every nudged evaluation is a few calls into the
compiled engine (docs/derivatives.md). The algorithm is MuJoCo's, so the Jacobians agree with
MuJoCo's to the engine's agreement with MuJoCo's step divided by eps:

- mjd_transitionFD saves the state (mjSTATE_FULLPHYSICS, the controls and, unless warm starts are
  disabled, qacc_warmstart), steps once from it, then nudges in turn each control (clamped
  one-sided at the limits of a ctrl-limited actuator), each activation, each velocity and each
  position (on the tangent space, through mj_integratePos), stepping from each nudged state with
  the stages the nudge cannot change skipped, and restoring the saved state after each step.
  Next states are differenced on the tangent space (mj_differentiatePos). Sensors are computed
  only when C or D is requested.
- mjd_inverseFD nudges qacc, qvel and qpos in turn around the current point and differences
  qfrc_inverse (minus qfrc_actuator with flg_actuation), the sensors and the inertia M.

As in MuJoCo, the state is left as it was and the derived quantities (positions, forces,
sensordata, ...) as the last nudged evaluation computed them.
"""

import numpy as np

from engine import errors
from engine.driver import mj_checkAcc
from engine.driver import mj_checkPos
from engine.driver import mj_checkVel
from engine.driver import mj_Euler
from engine.driver import mj_forwardSkip
from engine.driver import mj_fwdActuation
from engine.driver import mj_implicit
from engine.driver import mj_inverseSkip
from engine.driver import mj_step
from engine.enums import mjDSBL_WARMSTART
from engine.enums import mjINT_EULER
from engine.enums import mjINT_IMPLICIT
from engine.enums import mjINT_IMPLICITFAST
from engine.enums import mjINT_RK4
from engine.enums import mjSTAGE_NONE
from engine.enums import mjSTAGE_POS
from engine.enums import mjSTAGE_VEL
from engine.enums import mjSTATE_CTRL
from engine.enums import mjSTATE_FULLPHYSICS
from engine.enums import mjSTATE_WARMSTART
from engine.state import mj_getState
from engine.state import mj_setState
from engine.state import mj_stateSize
from engine.support import mj_differentiatePos
from engine.support import mj_integratePos

# ---- arguments, checked as the bindings check them ----


def _incompatible(function, args):
  given = ", ".join(type(a).__name__ for a in args)
  return TypeError(f"{function}(): incompatible function arguments ({given})")


def _real(value, function, args) -> float:
  """eps as a float: anything with __float__ or __index__ (not a string or None)."""
  kind = type(value)
  if isinstance(value, (str, bytes)) or not (
    hasattr(kind, "__float__") or hasattr(kind, "__index__")
  ):
    raise _incompatible(function, args)
  return float(value)


def _flag(value, function, args) -> bool:
  """A bool argument: bools, numpy bools, ints and None (False), as pybind11 converts them."""
  if value is None:
    return False
  if isinstance(value, (bool, np.bool_, int, np.integer)):
    return bool(value)
  raise _incompatible(function, args)


def _output(array, name, shape, shape_text, function, args):
  """`array` if it is None or a writable C-contiguous float64 matrix of `shape`; TypeError
  otherwise (the bindings' message for a wrong shape)."""
  if array is None:
    return None
  if not (
    isinstance(array, np.ndarray)
    and array.dtype == np.float64
    and array.flags.c_contiguous
    and array.flags.writeable
  ):
    raise _incompatible(function, args)
  if array.shape != shape:
    raise TypeError(f"{name} should be of shape {shape_text}")
  return array


def _model_and_data(m, d, function):
  from engine.types import MjData
  from engine.types import MjModel

  if not isinstance(m, MjModel) or not isinstance(d, MjData):
    raise TypeError(
      f"{function}(): expected (m: MjModel, d: MjData), got ({type(m).__name__}, "
      f"{type(d).__name__})"
    )
  if d.qpos.shape[0] != m.nq or d.qvel.shape[0] != m.nv:
    raise ValueError("MjData does not belong to this MjModel: their sizes differ")


# ---- the step from a nudged state ----


def _step_skip(m, d, skipstage, skipsensor):
  """One step with the stages below `skipstage` (and the sensors, if `skipsensor`) taken from
  `d` as they are: mj_stepSkip of MuJoCo's engine_derivative_fd.c (the integrators refactor
  their matrices, where MuJoCo reuses the last factorization when the nudge leaves it alone)."""
  if skipstage == mjSTAGE_NONE and not skipsensor:
    mj_step(m, d)  # the same calls in one entry
    return
  mj_checkPos(m, d)
  mj_checkVel(m, d)
  mj_forwardSkip(m, d, skipstage, skipsensor)
  mj_checkAcc(m, d)
  if int(m.opt.integrator) == mjINT_EULER:
    mj_Euler(m, d)
  else:
    mj_implicit(m, d)


def _diff(x1, x2, h):
  """(x2 - x1) / h, computed as MuJoCo does."""
  return (1 / h) * (x2 - x1)


class _Step:
  """The step at the saved state and at nudged states: next states [qpos, qvel, act] and
  sensordata, and their differences on the tangent space."""

  def __init__(self, m, d, skipsensor):
    self.m, self.d, self.skipsensor = m, d, skipsensor
    self.nq, self.nv = m.nq, m.nv
    self.signature = mjSTATE_FULLPHYSICS | mjSTATE_CTRL
    if not int(m.opt.disableflags) & mjDSBL_WARMSTART:
      self.signature |= mjSTATE_WARMSTART
    self.saved = np.empty(mj_stateSize(m, self.signature))
    mj_getState(m, d, self.saved, self.signature)
    self.velocity = np.empty(m.nv)

  def run(self, skipstage):
    """Steps from the state in d, returns (next state, sensordata or None), restores d."""
    m, d = self.m, self.d
    _step_skip(m, d, skipstage, self.skipsensor)
    state = np.concatenate((d.qpos, d.qvel, d.act))
    sensors = None if self.skipsensor else d.sensordata.copy()
    mj_setState(m, d, self.saved, self.signature)
    return state, sensors

  def state_diff(self, s1, s2, h):
    """(s2 (-) s1) / h: positions on the tangent space, then velocities and activations."""
    nq, nv = self.nq, self.nv
    if nq == nv:
      return _diff(s1, s2, h)
    mj_differentiatePos(self.m, self.velocity, h, s1[:nq], s2[:nq])
    return np.concatenate((self.velocity, _diff(s1[nq:], s2[nq:], h)))


def _centered_or_forward(step, center, plus, minus, eps):
  """Columns (state, sensors) from the forward nudge `plus` and, when centered, `minus`."""
  (state, sensors), (state_plus, sensors_plus) = center, plus
  if minus is None:
    ds = step.state_diff(state, state_plus, eps)
    dsensor = None if sensors is None else _diff(sensors, sensors_plus, eps)
  else:
    state_minus, sensors_minus = minus
    ds = step.state_diff(state_minus, state_plus, 2 * eps)
    dsensor = None if sensors is None else _diff(sensors_minus, sensors_plus, 2 * eps)
  return ds, dsensor


def _in_range(x1, x2, lo, hi):
  return lo <= x1 <= hi and lo <= x2 <= hi


def mjd_transitionFD(m, d, eps, flg_centered, A, B, C, D) -> None:
  """Finite-differenced transition matrices of mj_step, in control-theory form:
  d(next state) = A dx + B du and d(sensordata) = C dx + D du, with x = [qpos (on the tangent
  space, nv), qvel, act] and u = ctrl. Outputs are optional (None) writable C-contiguous float64
  matrices: A (2nv+na, 2nv+na), B (2nv+na, nu), C (nsensordata, 2nv+na), D (nsensordata, nu).
  Forward differences, or centered with `flg_centered`; a control of a ctrl-limited actuator is
  nudged only within its ctrlrange (one-sided at a limit). The state of `d` is left as it was,
  the derived quantities as the last nudged step computed them (as MuJoCo)."""
  function = "mjd_transitionFD"
  args = (m, d, eps, flg_centered, A, B, C, D)
  _model_and_data(m, d, function)
  eps = _real(eps, function, args)
  centered = _flag(flg_centered, function, args)
  nv, na, nu, ns = m.nv, m.na, m.nu, m.nsensordata
  nx = 2 * nv + na
  A = _output(A, "A", (nx, nx), "(2*nv+na, 2*nv+na)", function, args)
  B = _output(B, "B", (nx, nu), "(2*nv+na, nu)", function, args)
  C = _output(C, "C", (ns, nx), "(nsensordata, 2*nv+na)", function, args)
  D = _output(D, "D", (ns, nu), "(nsensordata, nu)", function, args)
  integrator = int(m.opt.integrator)
  if integrator == mjINT_RK4:
    raise errors.FatalError(f"{function}: RK4 integrator is not supported")
  if m.nhistory:
    raise errors.FatalError(f"{function}: delays are not supported")
  if integrator not in (mjINT_EULER, mjINT_IMPLICIT, mjINT_IMPLICITFAST):
    raise errors.FatalError("mj_stepSkip: invalid integrator")

  skipsensor = C is None and D is None
  step = _Step(m, d, skipsensor)
  ctrl = d.ctrl.copy()
  center = step.run(mjSTAGE_NONE)

  def columns(nudge, skipstage):
    """Derivative columns for one input: nudge it by eps, step; by -eps, step (centered)."""
    nudge(eps)
    plus = step.run(skipstage)
    minus = None
    if centered:
      nudge(-eps)
      minus = step.run(skipstage)
    return _centered_or_forward(step, center, plus, minus, eps)

  # controls: velocities and positions unchanged; one-sided at the limits of ctrlrange
  if B is not None or D is not None:
    for i in range(nu):
      limited = bool(m.actuator_ctrllimited[i])
      lo, hi = m.actuator_ctrlrange[i]
      forward = not limited or _in_range(ctrl[i], ctrl[i] + eps, lo, hi)
      plus = minus = None
      if forward:
        d.ctrl[i] += eps
        plus = step.run(mjSTAGE_VEL)
      backward = (centered or not forward) and (
        not limited or _in_range(ctrl[i] - eps, ctrl[i], lo, hi)
      )
      if backward:
        d.ctrl[i] -= eps
        minus = step.run(mjSTAGE_VEL)
      if plus is not None and minus is not None:
        ds, dsensor = _centered_or_forward(step, center, plus, minus, eps)
      elif plus is not None:
        ds, dsensor = _centered_or_forward(step, center, plus, None, eps)
      elif minus is not None:  # backward difference: (center - minus) / eps
        ds, dsensor = _centered_or_forward(step, minus, center, None, eps)
      else:  # no room to nudge within ctrlrange
        ds, dsensor = np.zeros(nx), None if skipsensor else np.zeros(ns)
      if B is not None:
        B[:, i] = ds
      if D is not None:
        D[:, i] = dsensor

  if A is None and C is None:
    return

  def store(column, ds, dsensor):
    if A is not None:
      A[:, column] = ds
    if C is not None:
      C[:, column] = dsensor

  # activations: velocities and positions unchanged
  for i in range(na):

    def nudge_act(h, i=i):
      d.act[i] += h

    store(2 * nv + i, *columns(nudge_act, mjSTAGE_VEL))

  # velocities: positions unchanged
  for i in range(nv):

    def nudge_vel(h, i=i):
      d.qvel[i] += h

    store(nv + i, *columns(nudge_vel, mjSTAGE_POS))

  # positions, on the tangent space: nothing is reused
  direction = np.zeros(nv)
  for i in range(nv):

    def nudge_pos(h, i=i):
      direction[:] = 0
      direction[i] = 1
      mj_integratePos(m, d.qpos, direction, h)

    store(i, *columns(nudge_pos, mjSTAGE_NONE))


# ---- inverse dynamics ----


def mjd_inverseFD(m, d, eps, flg_actuation, DfDq, DfDv, DfDa, DsDq, DsDv, DsDa, DmDq) -> None:
  """Forward-differenced Jacobians of mj_inverse at the current qpos, qvel and qacc, each
  transposed with respect to control theory (row i: the derivative along input i): of
  f = qfrc_inverse (minus qfrc_actuator with `flg_actuation`), DfDq, DfDv, DfDa (nv, nv); of
  the sensors, DsDq, DsDv, DsDa (nv, nsensordata); of the inertia M, DmDq (nv, nC). Outputs
  are optional (None). qpos, qvel and qacc are left as they were, the derived quantities as the
  last nudged evaluation computed them (as MuJoCo)."""
  function = "mjd_inverseFD"
  args = (m, d, eps, flg_actuation, DfDq, DfDv, DfDa, DsDq, DsDv, DsDa, DmDq)
  _model_and_data(m, d, function)
  eps = _real(eps, function, args)
  actuation = _flag(flg_actuation, function, args)
  nv, ns, nC = m.nv, m.nsensordata, m.nC
  DfDq = _output(DfDq, "DfDq", (nv, nv), "(nv, nv)", function, args)
  DfDv = _output(DfDv, "DfDv", (nv, nv), "(nv, nv)", function, args)
  DfDa = _output(DfDa, "DfDa", (nv, nv), "(nv, nv)", function, args)
  DsDq = _output(DsDq, "DsDq", (nv, ns), "(nv, nsensordata)", function, args)
  DsDv = _output(DsDv, "DsDv", (nv, ns), "(nv, nsensordata)", function, args)
  DsDa = _output(DsDa, "DsDa", (nv, ns), "(nv, nsensordata)", function, args)
  DmDq = _output(DmDq, "DmDq", (nv, nC), "(nv, nC)", function, args)
  if int(m.opt.integrator) == mjINT_RK4:
    raise errors.FatalError(f"{function}: RK4 integrator is not supported")
  if int(m.opt.noslip_iterations):
    raise errors.FatalError(f"{function}: noslip solver is not supported")

  skipsensor = DsDq is None and DsDv is None and DsDa is None

  def evaluate(skipstage):
    mj_inverseSkip(m, d, skipstage, skipsensor)
    force = d.qfrc_inverse.copy()
    if actuation:
      mj_fwdActuation(m, d)
      force -= d.qfrc_actuator
    return force

  qpos = d.qpos.copy()
  force = evaluate(mjSTAGE_NONE)
  sensors = None if skipsensor else d.sensordata.copy()
  mass = None if DmDq is None else d.M.copy()

  def rows(i, force_plus, Df, Ds):
    if Df is not None:
      Df[i] = _diff(force, force_plus, eps)
    if Ds is not None:
      Ds[i] = _diff(sensors, d.sensordata, eps)

  # accelerations: positions and velocities unchanged
  if DfDa is not None or DsDa is not None:
    for i in range(nv):
      saved = d.qacc[i]
      d.qacc[i] += eps
      force_plus = evaluate(mjSTAGE_VEL)
      d.qacc[i] = saved
      rows(i, force_plus, DfDa, DsDa)

  # velocities: positions unchanged
  if DfDv is not None or DsDv is not None:
    for i in range(nv):
      saved = d.qvel[i]
      d.qvel[i] += eps
      force_plus = evaluate(mjSTAGE_POS)
      d.qvel[i] = saved
      rows(i, force_plus, DfDv, DsDv)

  # positions, on the tangent space
  if DfDq is not None or DsDq is not None or DmDq is not None:
    direction = np.zeros(nv)
    for i in range(nv):
      direction[:] = 0
      direction[i] = 1
      mj_integratePos(m, d.qpos, direction, eps)
      force_plus = evaluate(mjSTAGE_NONE)
      d.qpos[:] = qpos
      rows(i, force_plus, DfDq, DsDq)
      if DmDq is not None:
        DmDq[i] = _diff(mass, d.M, eps)
