"""engine/fastcall.py: mj_step, mj_forward, mj_step1, mj_step2 and mj_inverse are CPython
builtins whose machine code calls the driver's entry stage; whatever they do not handle goes to
the Python function they stand for, with its checks and messages.
"""

import inspect
import threading
import warnings

import numpy as np
import pytest

import engine
from engine import _stage
from engine import driver
from engine import fastcall

_PENDULUM = """<mujoco><worldbody><body><joint type="hinge" axis="0 1 0"/>
  <geom type="capsule" size=".05" fromto="0 0 0 .3 0 0"/></body></worldbody></mujoco>"""

_BUILTINS = ["mj_step", "mj_forward", "mj_step1", "mj_step2", "mj_inverse"]


def _python_function(name):
  return getattr(engine, name).__self__[fastcall.PYTHON_FUNCTION]


def _pendulum(qvel=1.0):
  m = engine.MjModel.from_xml_string(_PENDULUM)
  d = engine.MjData(m)
  d.qvel[0] = qvel
  return m, d


@pytest.mark.parametrize("name", _BUILTINS)
def test_the_builtins_call_the_loaded_machine_code(name):
  _pendulum()  # a model exists: prepare() loaded the entry stage
  function = getattr(engine, name)
  assert type(function).__name__ == "builtin_function_or_method"
  address = fastcall._code_address(driver._vectorcall_entry)
  assert address
  definition = next(
    dfn for dfn in fastcall._DEFINITIONS[driver._vectorcall_entry] if dfn.ml_name.decode() == name
  )
  assert definition.ml_meth == address
  assert function.__name__ == name
  assert function.__module__ == "engine.driver"
  assert list(inspect.signature(function).parameters)[:2] == ["m", "d"]
  assert function.__doc__ == _python_function(name).__doc__


def test_builtin_steps_match_the_python_function_bitwise():
  m1, d1 = _pendulum()
  m2, d2 = _pendulum()
  for _ in range(20):
    engine.mj_step(m1, d1)
    _python_function("mj_step")(m2, d2)
  engine.mj_step(m1, d1, 7)
  _python_function("mj_step")(m2, d2, 7)
  for name in ["mj_step1", "mj_step2", "mj_forward", "mj_inverse"]:
    getattr(engine, name)(m1, d1)
    _python_function(name)(m2, d2)
  assert d1.time == d2.time == pytest.approx(28 * m1.opt.timestep)  # step2 steps too
  for field in ["qpos", "qvel", "qacc", "qfrc_inverse"]:
    np.testing.assert_array_equal(getattr(d1, field), getattr(d2, field))


@pytest.mark.parametrize(
  "nstep, steps",
  [(3, 3), (np.int32(2), 2), (np.int64(4), 4), (True, 1), (0, 0), (-5, 0)],
)
def test_nstep_takes_integers_and_runs_none_below_one(nstep, steps):
  m, d = _pendulum()
  engine.mj_step(m, d, nstep)
  assert d.time == pytest.approx(steps * m.opt.timestep)
  engine.mj_step(m, d, nstep=2)  # a keyword goes through the Python function
  assert d.time == pytest.approx((steps + 2) * m.opt.timestep)


@pytest.mark.parametrize(
  "call, error, message",
  [
    (lambda m, d: engine.mj_step(m, d, 1.5), TypeError, "nstep must be an integer, got 1.5"),
    (lambda m, d: engine.mj_step(m, d, "2"), TypeError, "nstep must be an integer"),
    (lambda m, d: engine.mj_step(None, d), TypeError, r"expected \(m: MjModel, d: MjData\)"),
    (lambda m, d: engine.mj_forward(m, 3), TypeError, r"got \(MjModel, int\)"),
    (lambda m, d: engine.mj_step(m), TypeError, "missing 1 required positional argument"),
    (lambda m, d: engine.mj_step1(m, d, 1), TypeError, "takes 2 positional arguments"),
    (lambda m, d: engine.mj_step(m, d, 1, 2), TypeError, "positional arguments"),
    (lambda m, d: engine.mj_step(m, m), ValueError, "does not belong to this MjModel"),
  ],
)
def test_wrong_arguments_get_the_python_functions_errors(call, error, message):
  m, d = _pendulum()
  with pytest.raises(error, match=message):
    call(m, d)
  assert d.time == 0


def test_a_step_releases_the_gil():
  """Other Python threads run during a long mj_step (as with MuJoCo's bindings): a thread
  watching d.time sees it between the call's start and end; with the GIL held it would only
  run once the call returned."""
  m, d = _pendulum()
  nstep = 1_000_000  # ~0.5 s
  started = threading.Event()
  seen = []

  def watch():
    started.wait()
    while d.time == 0:
      pass
    seen.append(d.time)

  watcher = threading.Thread(target=watch)
  watcher.start()
  started.set()
  engine.mj_step(m, d, nstep)
  watcher.join()
  assert 0 < seen[0] < nstep * m.opt.timestep * (1 - 1e-9)


def test_a_physics_wrapper_is_refused_with_the_python_message():
  """dm_control-style wrappers hold the MjModel in `_ptr`: not an address."""
  physics = engine.Physics.from_xml_string(_PENDULUM)
  with pytest.raises(TypeError, match=r"expected \(m: MjModel, d: MjData\), got \(ModelWrapper"):
    engine.mj_step(physics.model, physics.data)


def test_warnings_name_the_callers_line():
  m, d = _pendulum()
  d.qpos[0] = np.nan
  with pytest.warns(engine.PhysicsWarning, match="mjWARN_BADQPOS") as record:
    line = inspect.currentframe().f_lineno + 1
    engine.mj_step(m, d)
  assert (record[0].filename, record[0].lineno) == (__file__, line)
  d.qvel[0] = np.inf
  with warnings.catch_warnings(record=True) as record:
    warnings.simplefilter("always")
    line = inspect.currentframe().f_lineno + 1
    engine.mj_step1(m, d)
  assert [(w.filename, w.lineno) for w in record] == [(__file__, line)]


# a stage of _run's signature that raises: put in _run's cell, it shows what the builtin does with
# an exception of the pipeline (IndexError under NUMBA_BOUNDSCHECK, a stage that failed)
@_stage.stage(*[_stage.i8] * 6, restype=_stage.i8, lazy=True)
def _raising_run(mptr, dptr, op, n, a, b):
  if n >= 0:
    raise ZeroDivisionError("raised in the pipeline")
  return 0


def test_an_exception_of_the_pipeline_reaches_the_caller():
  m, d = _pendulum()
  cell = driver._run._cell
  saved = cell.value
  cell.value = _raising_run.address()
  try:
    with pytest.raises(ZeroDivisionError, match="raised in the pipeline"):
      engine.mj_step(m, d)
    with pytest.raises(ZeroDivisionError, match="raised in the pipeline"):
      engine.mj_forward(m, d)
  finally:
    cell.value = saved
  engine.mj_step(m, d)
  assert d.time == pytest.approx(m.opt.timestep)


def _never_loaded(target, args, nargs, kwnames):
  return 0


def test_before_its_code_loads_a_builtin_calls_the_python_function():
  """The method pointer a builtin starts with: CPython's PyObject_Vectorcall calling `self`."""
  calls = []

  def mj_example(m, d):
    """An example."""
    calls.append((m, d))
    return "python"

  unloaded = _stage.stage(*[_stage.i8] * 4, restype=_stage.i8, lazy=True)(_never_loaded)
  function = fastcall.builtin(mj_example, unloaded, None, driver.OP_STEP, 2, "(m, d)")
  assert function(1, 2) == "python"
  assert function(m=1, d=2) == "python"
  assert calls == [(1, 2), (1, 2)]
  assert fastcall._DEFINITIONS[unloaded][0].ml_meth == fastcall._FORWARD
