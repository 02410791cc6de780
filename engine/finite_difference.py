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
sensordata, ...) as the last nudged evaluation computed them. Each nudged step is one call into
the engine (mj_stepSkip's operation), and, as MuJoCo's, reuses the unnudged step's factored
inertia for nudges of controls, activations and (under Euler) velocities. One deliberate
difference from MuJoCo (docs/derivatives.md): a centered D is the derivative (MuJoCo's has the
opposite sign for controls nudged both ways).
"""

import functools

import numpy as np

from engine import _jit
from engine import errors
from engine.driver import OP_STEP_SKIP
from engine.driver import mj_fwdActuation
from engine.driver import mj_inverseSkip
from engine.driver import run
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
from engine.state import mj_stateSize
from engine.state import set_state
from engine.support import _differentiate_pos
from engine.support import mj_integratePos

# ---- arguments, checked as the bindings check them ----


def _incompatible(function, args):
  given = ", ".join(type(a).__name__ for a in args)
  return TypeError(f"{function}(): incompatible function arguments ({given})")


def _real(value, function, args) -> float:
  """eps as a float: anything with __float__ or __index__ but strings, None and arrays of one
  or more dimensions (as pybind11 converts it)."""
  kind = type(value)
  if (
    isinstance(value, (str, bytes))
    or (isinstance(value, np.ndarray) and value.ndim > 0)
    or not (hasattr(kind, "__float__") or hasattr(kind, "__index__"))
  ):
    raise _incompatible(function, args)
  return float(value)


def _flag(value, function, args) -> bool:
  """A bool argument as pybind11 converts it: None is False, anything with __bool__ its truth
  (numbers, 0-d arrays); strings, lists and larger arrays are refused."""
  if value is None:
    return False
  if isinstance(value, np.ndarray) and value.ndim > 0 or not hasattr(type(value), "__bool__"):
    raise _incompatible(function, args)
  return bool(value)


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


# ---- the step from nudged states ----


class _Nudges:
  """Steps from the saved state of `d` and from nudged copies of it, restoring the state after
  each (mj_stepSkip and the restore of MuJoCo's engine_derivative_fd.c), and records for each
  derivative column the two outcomes it differences and the distance between their inputs;
  `differences` then turns them all into Jacobian columns at once."""

  def __init__(self, m, d, skipsensor, ncolumns):
    self.m, self.d, self.skipsensor = m, d, skipsensor
    self.nq, self.nv = m.nq, m.nv
    # MuJoCo's restore: the physics state, the controls and (when used) the warm start
    self.signature = mjSTATE_FULLPHYSICS | mjSTATE_CTRL
    if not int(m.opt.disableflags) & mjDSBL_WARMSTART:
      self.signature |= mjSTATE_WARMSTART
    self.saved = np.empty(mj_stateSize(m, self.signature))
    mj_getState(m, d, self.saved, self.signature)
    self.m_handle, self.d_handle = m._struct, d._struct
    self.set_state = _set_state_code()
    nstate, ns = m.nq + m.nv + m.na, 0 if skipsensor else m.nsensordata
    # per column: outcome `first` -> outcome `second` over h (h = 0: nothing to difference)
    self.first, self.second = np.zeros((ncolumns, nstate)), np.zeros((ncolumns, nstate))
    self.first_sensors, self.second_sensors = np.zeros((ncolumns, ns)), np.zeros((ncolumns, ns))
    self.h = np.zeros(ncolumns)
    self.center, self.center_sensors = np.zeros(nstate), np.zeros(ns)
    self.step(mjSTAGE_NONE, self.center, self.center_sensors)

  def step(self, skipstage, state, sensors):
    """One step from the state in d with the stages below `skipstage` (and the sensors, if
    skipped) taken as they are, reusing the last factorization as mj_stepSkip does; the next
    [qpos, qvel, act] into `state`, the sensors into `sensors`; then the saved state back."""
    m, d = self.m, self.d
    run(m, d, OP_STEP_SKIP, 0, skipstage, self.skipsensor)
    nq, nv = self.nq, self.nv
    state[:nq] = d.qpos
    state[nq : nq + nv] = d.qvel
    state[nq + nv :] = d.act
    if not self.skipsensor:
      sensors[:] = d.sensordata
    self.set_state(self.m_handle, self.d_handle, self.saved, self.signature)  # mj_setState

  def column(self, k, nudge, skipstage, eps, plus, minus):
    """Column k: a forward nudge (if `plus`) and a backward one (if `minus`) of the input
    `nudge(h)` moves by h, each stepped from the saved state; centered when both, one-sided
    against the unnudged step when one, zero when neither."""
    if plus:
      nudge(eps)
      self.step(skipstage, self.second[k], self.second_sensors[k])
    if minus:
      nudge(-eps)
      self.step(skipstage, self.first[k], self.first_sensors[k])
    if plus and not minus:
      self.first[k], self.first_sensors[k] = self.center, self.center_sensors
    if minus and not plus:
      self.second[k], self.second_sensors[k] = self.center, self.center_sensors
    self.h[k] = 2 * eps if plus and minus else eps if plus or minus else 0

  def differences(self):
    """(columns of next-state derivatives (ncolumns, 2nv+na), of sensor derivatives): (second
    (-) first) / h, positions on the tangent space, as MuJoCo computes them (1/h times the
    difference)."""
    nq, nv = self.nq, self.nv
    done = self.h > 0
    inverse = np.zeros_like(self.h)
    inverse[done] = 1 / self.h[done]
    ds = np.zeros((len(self.h), nv + self.first.shape[1] - nq))
    ds[:, nv:] = inverse[:, None] * (self.second[:, nq:] - self.first[:, nq:])
    if nq == nv:
      ds[:, :nv] = inverse[:, None] * (self.second[:, :nq] - self.first[:, :nq])
    else:
      first, second = self.first[:, :nq], self.second[:, :nq]
      for k in np.flatnonzero(done):  # mj_differentiatePos, without re-checking its arguments
        _differentiate_pos(self.m_handle, ds[k, :nv], self.h[k], first[k], second[k])
    dsensors = inverse[:, None] * (self.second_sensors - self.first_sensors)
    return ds, dsensors


@functools.cache
def _set_state_code():
  """The state kernel's machine code, called without numba's typing of its arguments (two struct
  handles: microseconds a call; the caller passes exactly the declared types)."""
  return _jit.compiled_entry(set_state.dispatcher, *set_state.signature.args)


def _in_range(x1, x2, lo, hi):
  return lo <= x1 <= hi and lo <= x2 <= hi


def mjd_transitionFD(m, d, eps, flg_centered, A, B, C, D) -> None:
  """Finite-differenced transition matrices of mj_step, in control-theory form:
  d(next state) = A dx + B du and d(sensordata) = C dx + D du, with x = [qpos (on the tangent
  space, nv), qvel, act] and u = ctrl. Outputs are optional (None) writable C-contiguous float64
  matrices: A (2nv+na, 2nv+na), B (2nv+na, nu), C (nsensordata, 2nv+na), D (nsensordata, nu).
  Forward differences, or centered with `flg_centered`; a control of a ctrl-limited actuator is
  nudged only within its ctrlrange (one-sided at a limit, a zero column without room). The
  state of `d` is left as it was, the derived quantities as the last nudged step computed them
  (as MuJoCo)."""
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

  controls = B is not None or D is not None
  states = A is not None or C is not None
  # columns: the controls, then the state [qpos, qvel, act] (nudged in MuJoCo's order: controls,
  # activations, velocities, positions; the nudges that cannot change a stage skip it)
  first = nu if controls else 0
  nudges = _Nudges(m, d, C is None and D is None, first + (nx if states else 0))
  ctrl = d.ctrl.copy()

  if controls:
    ranges, limited = m.actuator_ctrlrange, m.actuator_ctrllimited
    for i in range(nu):
      lo, hi = ranges[i]
      plus = not limited[i] or _in_range(ctrl[i], ctrl[i] + eps, lo, hi)
      minus = (centered or not plus) and (
        not limited[i] or _in_range(ctrl[i] - eps, ctrl[i], lo, hi)
      )

      def nudge_ctrl(h, i=i):
        d.ctrl[i] += h

      nudges.column(i, nudge_ctrl, mjSTAGE_VEL, eps, plus, minus)

  if states:
    for i in range(na):

      def nudge_act(h, i=i):
        d.act[i] += h

      nudges.column(first + 2 * nv + i, nudge_act, mjSTAGE_VEL, eps, True, centered)

    for i in range(nv):

      def nudge_vel(h, i=i):
        d.qvel[i] += h

      nudges.column(first + nv + i, nudge_vel, mjSTAGE_POS, eps, True, centered)

    direction = np.zeros(nv)
    for i in range(nv):

      def nudge_pos(h, i=i):  # on the tangent space
        direction[:] = 0
        direction[i] = 1
        mj_integratePos(m, d.qpos, direction, h)

      nudges.column(first + i, nudge_pos, mjSTAGE_NONE, eps, True, centered)

  ds, dsensors = nudges.differences()
  for matrix, columns in ((B, ds[:first]), (A, ds[first:])):
    if matrix is not None:
      matrix[:] = columns.T
  for matrix, columns in ((D, dsensors[:first]), (C, dsensors[first:])):
    if matrix is not None:
      matrix[:] = columns.T


# ---- inverse dynamics ----


def _diff(x1, x2, h):
  """(x2 - x1) / h, computed as MuJoCo does (1/h times the difference)."""
  return (1 / h) * (x2 - x1)


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

  # accelerations (positions and velocities unchanged), then velocities (positions unchanged)
  nudged = ((d.qacc, mjSTAGE_VEL, DfDa, DsDa), (d.qvel, mjSTAGE_POS, DfDv, DsDv))
  for x, skipstage, Df, Ds in nudged:
    if Df is None and Ds is None:
      continue
    for i in range(nv):
      saved = x[i]
      x[i] += eps
      force_plus = evaluate(skipstage)
      x[i] = saved
      rows(i, force_plus, Df, Ds)

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
