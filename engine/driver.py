"""The Python API of the pipeline: one jitted entry point, operation codes, warning reports.

Every `mj_step`, `mj_forward`, ... call from Python crosses into numba once, through `_run`,
which takes the two struct handles as addresses and the operation as integers (plain ints
unbox in nanoseconds; struct proxies cost microseconds) and returns a bitmask of the warning
kinds that fired, so Python does nothing more unless something went wrong. Batched stepping
has its own parallel drivers, which call the same stages: engine/rollout.py (open-loop
rollouts) and suite/kernels.py (vectorised suite environments).
"""

import operator
import warnings

from numba.core import types

from engine import _jit
from engine import actuation as _actuation
from engine import fastcall
from engine import forward as _forward
from engine import inverse as _inverse
from engine._jit import jit
from engine._jit import local_int_array
from engine._stage import D
from engine._stage import M
from engine._stage import address_caller
from engine._stage import handle_at
from engine._stage import i8
from engine._stage import stage
from engine.enums import mjDSBL_AUTORESET
from engine.enums import mjINT_IMPLICITFAST
from engine.enums import mjNWARNING
from engine.enums import mjSOL_NEWTON
from engine.enums import mjSTAGE_NONE
from engine.enums import mjtWarning
from engine.enums import mjWARN_BADQACC
from engine.enums import mjWARN_BADQPOS
from engine.enums import mjWARN_BADQVEL
from engine.errors import FatalError
from engine.flags import disabled

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
OP_STEP_SKIP = 17
OP_STAGE = 18  # a = the address of an (m, d) stage (stage_function)

# an entry call with a data of another model (or another size) returns this instead of running
SIZE_MISMATCH = -1
# and these for an option value MuJoCo stops at (mjERROR), after the stages it runs first
INVALID_INTEGRATOR = -2
INVALID_SOLVER = -3


@jit
def _sizes_match(m, d):
  """Whether d was made for a model of m's sizes (a mismatch would index out of bounds)."""
  return (
    d.qpos.shape[0] == m.nq
    and d.qvel.shape[0] == m.nv
    and d.act.shape[0] == m.na
    and d.ctrl.shape[0] == m.nu
    and d.xpos.shape[0] == m.nbody
    and d.geom_xpos.shape[0] == m.ngeom
    and d.site_xpos.shape[0] == m.nsite
    and d.ten_length.shape[0] == m.ntendon
    and d.sensordata.shape[0] == m.nsensordata
    and d.mocap_pos.shape[0] == m.nmocap
    and d.eq_active.shape[0] == m.neq
    and d.M.shape[0] == m.nC
    and d.userdata.shape[0] == m.nuserdata
    and d.history.shape[0] == m.nhistory
  )


# bit FIRST_TIME << k of an entry call's result: warning kind k fired in the call and its count
# was zero before it, the one time MuJoCo's mj_warning prints it
FIRST_TIME = 1 << mjNWARNING


@jit
def _warnings_fired(m, d, before):
  """Bitmask of the warning kinds that fired since the counts (saved in `before`) were zeroed
  (bit k), and of those among them whose count was zero before (bit mjNWARNING + k); puts the
  earlier counts back, unless a diverging state reset the data, which clears them as in
  MuJoCo."""
  fired = 0
  for k in range(mjNWARNING):
    if d.warning_number[k]:
      fired |= 1 << k
      if before[k] == 0:
        fired |= FIRST_TIME << k
  resetting = (1 << mjWARN_BADQPOS) | (1 << mjWARN_BADQVEL) | (1 << mjWARN_BADQACC)
  if not (fired & resetting and not disabled(m, mjDSBL_AUTORESET)):
    for k in range(mjNWARNING):
      d.warning_number[k] += before[k]
  return fired


@jit
def invalid_option(m, op):
  """INVALID_INTEGRATOR or INVALID_SOLVER where MuJoCo's mjERROR stops operation `op` (an
  integrator outside mjtIntegrator in mj_step; a solver outside mjtSolver wherever the
  constraint solver runs), else 0. Checked before running, so nothing half-runs."""
  steps = op == OP_STEP or op == OP_STEP2 or op == OP_LEGACY_STEP or op == OP_STEP_SKIP
  integrator = m.opt.integrator[0]
  if steps and (integrator < 0 or integrator > mjINT_IMPLICITFAST):
    return INVALID_INTEGRATOR
  solves = steps or op == OP_FORWARD_SKIP or op == OP_FWD_CONSTRAINT
  solver = m.opt.solver[0]
  if solves and (solver < 0 or solver > mjSOL_NEWTON):
    return INVALID_SOLVER
  return 0


_call_stage = address_caller(types.none, M, D)


@stage(i8, i8, i8, i8, i8, i8, restype=i8)
def _run(mptr, dptr, op, n, a, b):
  """Runs operation `op` (OP_*) with integer arguments; returns the warning kinds that fired
  (_warnings_fired's bitmask) or a negative status."""
  m = handle_at(mptr, M)
  d = handle_at(dptr, D)
  if not _sizes_match(m, d):
    return SIZE_MISMATCH
  invalid = invalid_option(m, op)
  if invalid:
    return invalid
  # counts start at zero so that any nonzero count after the call is a warning that fired
  before = local_int_array(mjNWARNING)
  for k in range(mjNWARNING):
    before[k] = d.warning_number[k]
    d.warning_number[k] = 0
  if op == OP_STEP:
    for _ in range(n):
      _forward.step(m, d)
  elif op == OP_FORWARD_SKIP:
    _forward.forward_skip(m, d, a, b)
  elif op == OP_STEP1:
    _forward.step1(m, d)
  elif op == OP_STEP2:
    _forward.step2(m, d)
  elif op == OP_LEGACY_STEP:
    _forward.legacy_step(m, d, n)
  elif op == OP_CHECK_POS:
    _forward.check_pos(m, d)
  elif op == OP_CHECK_VEL:
    _forward.check_vel(m, d)
  elif op == OP_CHECK_ACC:
    _forward.check_acc(m, d)
  elif op == OP_FWD_POSITION:
    _forward.fwd_position(m, d)
  elif op == OP_FWD_VELOCITY:
    _forward.fwd_velocity(m, d)
  elif op == OP_FWD_ACTUATION:
    _actuation.fwd_actuation(m, d)
  elif op == OP_FWD_ACCELERATION:
    _forward.fwd_acceleration(m, d)
  elif op == OP_FWD_CONSTRAINT:
    _forward.fwd_constraint(m, d)
  elif op == OP_EULER:
    _forward.euler(m, d)
  elif op == OP_RK4:
    _forward.runge_kutta4(m, d)
  elif op == OP_IMPLICIT:
    _forward.implicit(m, d)
  elif op == OP_INVERSE_SKIP:
    _inverse.inverse_skip(m, d, a, b)
  elif op == OP_STEP_SKIP:
    _forward.step_skip(m, d, a, b)
  elif op == OP_STAGE:
    _call_stage(a, m, d)
  return _warnings_fired(m, d, before)


_run_or_raise = fastcall.calling_or_raising(_run)


@stage(i8, i8, i8, i8, restype=i8)
def _vectorcall_entry(target, args, nargs, kwnames):
  """The machine code of the builtin mj_step, mj_forward, ... (engine/fastcall.py): CPython's
  vectorcall arguments, `target` the builtin's self tuple; returns a new reference, or 0 with
  an exception set. Whatever is not two handles (and an integer nstep) goes to the Python
  function."""
  python_function = fastcall.item(target, fastcall.PYTHON_FUNCTION)
  max_args = fastcall.as_int(fastcall.item(target, fastcall.MAX_ARGS))
  if kwnames != 0 or nargs < 2 or nargs > max_args:
    return fastcall.vectorcall(python_function, args, nargs, kwnames)
  op = fastcall.as_int(fastcall.item(target, fastcall.OPERATION))
  n = 0
  if op == OP_STEP:
    n = 1
    if nargs == 3:
      n = fastcall.as_int(fastcall.pointer_at(args + 16))
      if n == fastcall.NOT_INT:
        return fastcall.vectorcall(python_function, args, nargs, kwnames)
      if n < 1:  # MuJoCo's loop runs no step
        return fastcall.none()
  m = fastcall.pointer_at(args)
  d = fastcall.pointer_at(args + 8)
  name = fastcall.item(target, fastcall.PTR_NAME)
  mptr = fastcall.attribute_int(m, name)
  dptr = fastcall.attribute_int(d, name)
  if mptr == fastcall.NOT_INT or dptr == fastcall.NOT_INT:  # not an MjModel and an MjData
    return fastcall.vectorcall(python_function, args, nargs, kwnames)
  changed = _run_or_raise(mptr, dptr, op, n, 0, 0)
  if changed == fastcall.NOT_INT:
    return 0
  if changed >= FIRST_TIME or changed < 0:
    return fastcall.report_call(fastcall.item(target, fastcall.REPORT), m, d, changed)
  return fastcall.none()


# ---- warnings ----

WARNING_TEXT = {
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


def check_status(changed: int, function: str = "mj_step", m=None) -> None:
  """Raises for an entry call that did not run: a data of another model, an invalid option."""
  if changed == SIZE_MISMATCH:
    raise ValueError("MjData does not belong to this MjModel: their sizes differ")
  if changed == INVALID_INTEGRATOR:
    raise FatalError(f"{function}: invalid integrator")
  if changed == INVALID_SOLVER:
    solver = "" if m is None else f" {m.opt.solver}"
    raise FatalError(f"mj_fwdConstraint: unknown solver type{solver}")


def _not_model_and_data(function: str, m, d) -> TypeError:
  """The TypeError of a call given something other than an MjModel and an MjData (MuJoCo's
  bindings raise TypeError too)."""
  return TypeError(
    f"{function}(): expected (m: MjModel, d: MjData), got ({type(m).__name__}, {type(d).__name__})"
  )


def fired_kinds(fired: int) -> list:
  """The mjtWarning kinds in a bitmask returned by the entry point."""
  return [mjtWarning(k) for k in range(mjNWARNING) if fired >> k & 1]


def _report_warnings(m, d, fired: int, stacklevel: int, function: str) -> None:
  """Reports the warnings that fired in a call for the first time since their counts were zero
  (bitmask `fired`; MuJoCo prints a warning only then) through Python's warnings module,
  attributed to the user's line `stacklevel` frames up; raises for a call that did not run."""
  check_status(fired, function, m)
  lastinfo = d._arrays["warning_lastinfo"]
  for kind in fired_kinds(fired // FIRST_TIME):
    text = WARNING_TEXT[kind].format(lastinfo[kind])
    warnings.warn(f"{kind.name}: {text}", PhysicsWarning, stacklevel=stacklevel)


def _entry(mptr, dptr, op, n, a, b):
  """_run's machine code, called without numba's typing of the six arguments (0.1 us of each
  call; the callers pass Python or numpy integers only). Found on the first call: a model's
  handles exist only after engine/_stage.prepare loaded its stages, this one among them."""
  global _entry
  _entry = _jit.compiled_entry(_run.dispatcher, *_run.signature.args)
  return _entry(mptr, dptr, op, n, a, b)


def call(mptr: int, dptr: int, op: int, n: int = 0, a: int = 0, b: int = 0) -> int:
  """One entry call on handle addresses; returns the changed-warning bitmask."""
  changed = _entry(mptr, dptr, op, n, a, b)
  if changed < 0:
    check_status(changed, _OP_NAMES.get(op, "mj_step"))
  return changed


def run(m, d, op: int, n: int = 0, a: int = 0, b: int = 0, name: str = "") -> None:
  """Runs one operation on Python MjModel/MjData and reports new warnings (as mj_ function
  `name`, default the operation's)."""
  try:
    changed = _entry(m._ptr, d._ptr, op, n, a, b)
  except (AttributeError, TypeError):  # not an MjModel and an MjData (no cost when they are)
    raise _not_model_and_data(name or _OP_NAMES.get(op, "mj_forward"), m, d) from None
  if changed >= FIRST_TIME or changed < 0:
    # user -> mj_forward -> run -> here
    name = name or _OP_NAMES.get(op, "mj_forward")
    _report_warnings(m, d, changed, stacklevel=4, function=name)


def stage_function(function):
  """The mj_ function `function` (marked with _stage.runs_stage) as a call of its (m, d) stage
  through the entry point: the stage's address and two handle addresses are plain integers
  (~0.5 µs a call, where numba's typing of the struct handles cost ~2 µs)."""
  stage_ = function.stage
  name = function.__name__

  def call(m, d):
    address = stage_._cell.value
    if not address:
      stage_.compile()
      address = stage_._cell.value
    run(m, d, OP_STAGE, 0, address, 0, name)

  call.__name__ = call.__qualname__ = name
  call.__doc__ = function.__doc__
  return call


# the mj_ function of each operation, for error messages
_OP_NAMES = {
  OP_STEP: "mj_step",
  OP_FORWARD_SKIP: "mj_forward",
  OP_STEP1: "mj_step1",
  OP_STEP2: "mj_step2",
  OP_LEGACY_STEP: "mj_step",
  OP_CHECK_POS: "mj_checkPos",
  OP_CHECK_VEL: "mj_checkVel",
  OP_CHECK_ACC: "mj_checkAcc",
  OP_FWD_POSITION: "mj_fwdPosition",
  OP_FWD_VELOCITY: "mj_fwdVelocity",
  OP_FWD_ACTUATION: "mj_fwdActuation",
  OP_FWD_ACCELERATION: "mj_fwdAcceleration",
  OP_FWD_CONSTRAINT: "mj_fwdConstraint",
  OP_EULER: "mj_Euler",
  OP_RK4: "mj_RungeKutta",
  OP_IMPLICIT: "mj_implicit",
  OP_INVERSE_SKIP: "mj_inverse",
  OP_STEP_SKIP: "mj_step",
}


# ---- mj_ functions ----


def mj_step(m, d, nstep: int = 1) -> None:
  """Advances the simulation by `nstep` steps in one call into numba (none for nstep < 1, as
  MuJoCo's loop does)."""
  if type(nstep) is not int:
    try:
      nstep = operator.index(nstep)  # ints and numpy integers; not floats or strings
    except TypeError:
      raise TypeError(f"mj_step(): nstep must be an integer, got {nstep!r}") from None
  if nstep < 1:
    return
  try:
    changed = _entry(m._ptr, d._ptr, OP_STEP, nstep, 0, 0)
  except (AttributeError, TypeError):  # not an MjModel and an MjData (no cost when they are)
    raise _not_model_and_data("mj_step", m, d) from None
  if changed >= FIRST_TIME or changed < 0:
    _report_warnings(m, d, changed, stacklevel=3, function="mj_step")  # user -> mj_step -> here


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


# ---- the hot mj_ functions as builtins (engine/fastcall.py) ----


def _reporter(name: str):
  """report(m, d, changed) of a builtin's call: the warnings for the user's line (the builtin
  has no frame: user -> report -> _report_warnings) or the status error."""

  def report(m, d, changed):
    _report_warnings(m, d, changed, stacklevel=3, function=name)

  return report


def _builtin(function, op: int, text_signature: str = "(m, d)"):
  max_args = text_signature.count(",") + 1
  report = _reporter(function.__name__)
  return fastcall.builtin(function, _vectorcall_entry, report, op, max_args, text_signature)


mj_step = _builtin(mj_step, OP_STEP, "(m, d, nstep=1)")
mj_forward = _builtin(mj_forward, OP_FORWARD_SKIP)
mj_step1 = _builtin(mj_step1, OP_STEP1)
mj_step2 = _builtin(mj_step2, OP_STEP2)
mj_inverse = _builtin(mj_inverse, OP_INVERSE_SKIP)
