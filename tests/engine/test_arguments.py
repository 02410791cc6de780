"""Bad arguments raise what MuJoCo's bindings raise, with a message naming the function.

Each case runs in both engines: the exception types must agree (TypeError for arguments of the
wrong type, engine.FatalError where MuJoCo's mjERROR stops a step, a compile error for bad
MJCF), and ours must never be an AttributeError or a numba TypingError from inside the engine.
"""

import inspect

import mujoco
import numpy as np
import pytest

import engine

# the ball rests on the plane: a contact, so that the constraint solver runs
XML = """<mujoco><worldbody><geom type="plane" size="1 1 0.1"/>
  <body pos="0 0 0.09"><freejoint/><geom size="0.1"/></body></worldbody></mujoco>"""


def _both():
  ours = engine.MjModel.from_xml_string(XML)
  theirs = mujoco.MjModel.from_xml_string(XML)
  return (ours, engine.MjData(ours), engine), (theirs, mujoco.MjData(theirs), mujoco)


def _raised(call):
  try:
    call()
  except Exception as error:  # the type is what is compared
    return error
  return None


@pytest.mark.parametrize(
  "case",
  [
    lambda m, d, lib: lib.mj_step(m, None),
    lambda m, d, lib: lib.mj_step(None, d),
    lambda m, d, lib: lib.mj_forward(None, d),
    lambda m, d, lib: lib.mj_step1(m, "data"),
    lambda m, d, lib: lib.MjData(None),
    lambda m, d, lib: lib.mj_step(m, d, 2.5),
    lambda m, d, lib: lib.mj_step(m, d, "3"),
    lambda m, d, lib: lib.mj_kinematics(m, None),
    lambda m, d, lib: lib.mj_resetData(None, d),
    lambda m, d, lib: lib.mj_jacBody(m, d, np.zeros((3, 6), np.float32), None, 1),
  ],
)
def test_wrong_types_raise_type_error_as_mujoco(case):
  (m, d, ours), (mm, dd, theirs) = _both()
  mine, reference = _raised(lambda: case(m, d, ours)), _raised(lambda: case(mm, dd, theirs))
  assert isinstance(reference, TypeError)
  assert isinstance(mine, TypeError), repr(mine)
  assert "has no attribute" not in str(mine) and "nopython" not in str(mine), str(mine)


def test_nstep_counts_as_in_mujoco():
  """numpy integers step; zero and negative counts do nothing (MuJoCo's loop runs no step)."""
  (m, d, _), (mm, dd, _) = _both()
  for nstep in (np.int64(2), 0, -1, 3):
    engine.mj_step(m, d, nstep)
    mujoco.mj_step(mm, dd, nstep)
    assert d.time == dd.time
  assert d.time == pytest.approx(5 * m.opt.timestep)


@pytest.mark.parametrize(
  "field,value,function,message",
  [
    ("integrator", 99, "mj_step", "mj_step: invalid integrator"),
    ("integrator", -1, "mj_step", "mj_step: invalid integrator"),
    ("integrator", 99, "mj_forward", None),
    ("solver", 9, "mj_step", "mj_fwdConstraint: unknown solver type 9"),
    ("solver", 9, "mj_forward", "mj_fwdConstraint: unknown solver type 9"),
  ],
)
def test_invalid_options_stop_where_mujoco_stops(field, value, function, message):
  (m, d, _), (mm, dd, _) = _both()
  setattr(m.opt, field, value)
  setattr(mm.opt, field, value)
  mine = _raised(lambda: getattr(engine, function)(m, d))
  reference = _raised(lambda: getattr(mujoco, function)(mm, dd))
  if message is None:
    assert mine is None and reference is None
    return
  assert isinstance(reference, mujoco.FatalError) and str(reference) == message
  assert isinstance(mine, engine.FatalError) and str(mine) == message


def test_invalid_solver_is_refused_even_without_constraints():
  """Stricter than MuJoCo, which only notices an invalid solver once a constraint is active."""
  m = engine.MjModel.from_xml_string(XML.replace('pos="0 0 0.09"', 'pos="0 0 1"'))
  d = engine.MjData(m)
  m.opt.solver = 9
  with pytest.raises(engine.FatalError, match="unknown solver type 9"):
    engine.mj_forward(m, d)


def test_invalid_integrator_stops_physics_and_rollouts():
  physics = engine.Physics.from_xml_string(XML)
  physics.model.opt.integrator = 7
  with pytest.raises(engine.FatalError, match="invalid integrator"):
    physics.step()
  m = physics.model.ptr
  state = np.zeros((1, engine.mj_stateSize(m, engine.mjtState.mjSTATE_FULLPHYSICS)))
  with pytest.raises(engine.FatalError, match="invalid integrator"):
    engine.rollout.rollout(m, engine.MjData(m), state, nstep=2)


@pytest.mark.parametrize("element", ["body", "geom", "site"])
def test_zero_quaternion_is_refused_as_mujoco(element):
  inner = {
    "body": '<body quat="0 0 0 0"><geom size=".1"/></body>',
    "geom": '<geom size=".1" quat="0 0 0 0"/>',
    "site": '<body><geom size=".1"/><site quat="0 0 0 0"/></body>',
  }[element]
  xml = f"<mujoco><worldbody>{inner}</worldbody></mujoco>"
  with pytest.raises(ValueError, match="zero quaternion is not allowed"):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(engine.CompileError, match="zero quaternion is not allowed") as error:
    engine.MjModel.from_xml_string(xml)
  assert error.value.element == element and error.value.attribute == "quat"


@pytest.mark.parametrize("depth", [496, 497, 2000])
def test_nesting_depth_limit_is_mujocos(depth):
  """MuJoCo's parser takes 496 nested bodies (499 levels with the geom) and refuses 497; deeper
  still is the same clear error, not a RecursionError."""
  xml = "<mujoco><worldbody>" + "<body>" * depth + '<geom size=".1"/>' + "</body>" * depth
  xml += "</worldbody></mujoco>"
  if depth == 496:
    assert engine.MjModel.from_xml_string(xml).nbody == mujoco.MjModel.from_xml_string(xml).nbody
    return
  with pytest.raises(ValueError, match="too deep|DEPTH"):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(engine.CompileError, match="nesting is too deep"):
    engine.MjModel.from_xml_string(xml)


def _public_functions():
  names = sorted(n for n in dir(engine) if n.startswith(("mj_", "mjd_")))
  return [n for n in names if callable(getattr(engine, n))]


@pytest.mark.parametrize("name", _public_functions())
def test_every_mj_function_refuses_none_cleanly(name):
  """Every public mj_ function given None for each of its required arguments in turn (the others
  valid where they are the model or data) raises TypeError or ValueError, never an error from
  inside the engine."""
  (m, d, _), _ = _both()
  function = getattr(engine, name)
  parameters = [
    p
    for p in inspect.signature(function).parameters.values()
    if p.default is inspect.Parameter.empty
    and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
  ]
  valid = {"m": m, "d": d}
  for index, parameter in enumerate(parameters):
    args = [valid.get(p.name, np.zeros(3)) for p in parameters]
    args[index] = None
    error = _raised(lambda: function(*args))
    assert isinstance(error, (TypeError, ValueError)), (name, parameter.name, repr(error))
