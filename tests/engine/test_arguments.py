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


# ---- wrong shapes and dtypes, ids and enum values out of range ----

# a free ball on a plane, a hinged arm with a motor, a site, a sensor and a keyframe
SWEEP_XML = """<mujoco><worldbody><geom type="plane" size="1 1 0.1"/>
  <body pos="0 0 0.09"><freejoint/><geom size="0.1"/><site name="s"/></body>
  <body pos="0.5 0 0.5"><joint name="h" axis="0 1 0"/>
    <geom type="capsule" size=".02" fromto="0 0 0 0 0 -.2"/></body></worldbody>
  <actuator><motor joint="h"/></actuator><sensor><jointpos joint="h"/></sensor>
  <keyframe><key name="k"/></keyframe></mujoco>"""


def _array_calls(m, d):
  """{function: valid arguments} for the mj_ functions that take arrays."""
  nv, zeros = m.nv, np.zeros
  qpos = np.r_[zeros(3), 1.0, zeros(3), 0.0]
  physics = int(mujoco.mjtState.mjSTATE_PHYSICS)
  nstate = (engine if isinstance(m, engine.MjModel) else mujoco).mj_stateSize(m, physics)
  return {
    "mj_applyFT": [m, d, zeros(3), zeros(3), zeros(3), 1, zeros(nv)],
    "mj_contactForce": [m, d, 0, zeros(6)],
    "mj_differentiatePos": [m, zeros(nv), 0.1, qpos, qpos.copy()],
    "mj_integratePos": [m, qpos, zeros(nv), 0.1],
    "mj_fullM": [m, d, zeros((nv, nv))],
    "mj_geomDistance": [m, d, 0, 1, 1.0, zeros(6)],
    "mj_getState": [m, d, zeros(nstate), physics],
    "mj_setState": [m, d, zeros(nstate), physics],
    "mj_extractState": [m, zeros(nstate), physics, zeros(nstate), physics],
    "mj_jac": [m, d, zeros((3, nv)), zeros((3, nv)), zeros(3), 1],
    "mj_jacBody": [m, d, zeros((3, nv)), zeros((3, nv)), 1],
    "mj_jacBodyCom": [m, d, zeros((3, nv)), zeros((3, nv)), 1],
    "mj_jacGeom": [m, d, zeros((3, nv)), zeros((3, nv)), 1],
    "mj_jacSite": [m, d, zeros((3, nv)), zeros((3, nv)), 0],
    "mj_jacSubtreeCom": [m, d, zeros((3, nv)), 1],
    "mj_mulM": [m, d, zeros(nv), zeros(nv)],
    "mj_solveM": [m, d, zeros((1, nv)), np.ones((1, nv))],
    "mj_solveM2": [m, d, zeros((1, nv)), np.ones((1, nv)), np.ones(nv)],
    "mj_rne": [m, d, 0, zeros(nv)],
    "mj_ray": [
      m,
      d,
      np.array([0, 0, 1.0]),
      np.array([0, 0, -1.0]),
      None,
      1,
      -1,
      zeros(1, np.int32),
    ],
    "mj_constraintUpdate": [m, d, zeros(d.nefc), zeros(1), 0],
  }


def _wrong_versions(array):
  """(what, array) variants of a float64 argument: too short, too long, int32, and for a matrix
  its transpose (or one more column when square)."""
  variants = [("short", array.ravel()[:-1].copy()), ("long", np.zeros(array.size + 5))]
  variants.append(("int32", array.astype(np.int32)))
  if array.ndim == 2:
    rows, cols = array.shape
    variants.append(("transposed", np.zeros((cols, rows) if rows != cols else (rows, cols + 1))))
  return variants


def _sweep_models():
  ours = engine.MjModel.from_xml_string(SWEEP_XML)
  theirs = mujoco.MjModel.from_xml_string(SWEEP_XML)
  od, td = engine.MjData(ours), mujoco.MjData(theirs)
  engine.mj_forward(ours, od)
  mujoco.mj_forward(theirs, td)
  return _array_calls(ours, od), _array_calls(theirs, td)


@pytest.mark.parametrize("name", sorted(_array_calls(*(lambda m: (m, engine.MjData(m)))(
  engine.MjModel.from_xml_string(SWEEP_XML)))))  # fmt: skip
def test_wrong_array_arguments_are_refused_where_mujoco_refuses(name):
  """Each array argument in turn too short, too long, of another dtype or transposed: where the
  bindings refuse it (TypeError), ours raises TypeError or ValueError before writing anything;
  where the bindings convert it (an input of another dtype), ours runs too."""
  ours, theirs = _sweep_models()
  assert _raised(lambda: getattr(engine, name)(*ours[name])) is None
  assert _raised(lambda: getattr(mujoco, name)(*theirs[name])) is None
  for index, argument in enumerate(ours[name]):
    if not (isinstance(argument, np.ndarray) and argument.dtype == np.float64):
      continue
    for what, wrong in _wrong_versions(argument):
      if what == "transposed" and name in ("mj_solveM", "mj_solveM2"):
        continue  # ours takes x (nv, 1) for y (1, nv): the same nv numbers in the same order
      mine_args, their_args = list(ours[name]), list(theirs[name])
      mine_args[index], their_args[index] = wrong.copy(), wrong.copy()
      reference = _raised(lambda: getattr(mujoco, name)(*their_args))
      mine = _raised(lambda: getattr(engine, name)(*mine_args))
      where = (name, index, what, repr(reference), repr(mine))
      if reference is None:
        assert mine is None, where
      else:
        assert isinstance(reference, TypeError), where
        assert type(mine) in (TypeError, ValueError), where


@pytest.mark.parametrize(
  "call",
  [
    lambda m, d, i: engine.mj_jacBody(m, d, np.zeros((3, m.nv)), None, i),
    lambda m, d, i: engine.mj_jacSite(m, d, np.zeros((3, m.nv)), None, i),
    lambda m, d, i: engine.mj_jacGeom(m, d, np.zeros((3, m.nv)), None, i),
    lambda m, d, i: engine.mj_jacSubtreeCom(m, d, np.zeros((3, m.nv)), i),
    lambda m, d, i: engine.mj_applyFT(
      m, d, np.zeros(3), np.zeros(3), np.zeros(3), i, d.qfrc_applied
    ),
    lambda m, d, i: engine.mj_geomDistance(m, d, i, 0, 1.0, None),
    lambda m, d, i: engine.mj_rayMesh(m, d, i, np.zeros(3), np.array([0, 0, 1.0]), None),
    lambda m, d, i: engine.mj_resetDataKeyframe(m, d, i),
    lambda m, d, i: engine.mj_setKeyframe(m, d, i),
    lambda m, d, i: engine.mj_id2name(m, i, 0),
  ],
)
@pytest.mark.parametrize("index", [-5, -1, 1000, 2**31])
def test_ids_out_of_range_raise_value_error(call, index):
  """Where an id indexes the model's arrays, one out of range is a ValueError naming it. (The
  bindings pass such ids on to C, which reads past the arrays, so they are no oracle here.)"""
  m = engine.MjModel.from_xml_string(SWEEP_XML)
  d = engine.MjData(m)
  engine.mj_forward(m, d)
  with pytest.raises(ValueError, match=str(index)):
    call(m, d, index)


@pytest.mark.parametrize("index", [-1, 5, 1000])
def test_contact_ids_out_of_range_give_zero_force_as_mujoco(index):
  """mj_contactForce of a contact that does not exist is zero in MuJoCo (it checks the id)."""
  (m, d, _), (mm, dd, _) = _both()
  engine.mj_forward(m, d)
  mujoco.mj_forward(mm, dd)
  mine, theirs = np.ones(6), np.ones(6)
  engine.mj_contactForce(m, d, index, mine)
  mujoco.mj_contactForce(mm, dd, index, theirs)
  np.testing.assert_array_equal(mine, theirs)
  assert not mine.any()


@pytest.mark.parametrize(
  "field,value", [("cone", 7), ("cone", -1), ("jacobian", 7), ("jacobian", -2)]
)
def test_other_out_of_range_options_step_as_mujoco(field, value):
  """MuJoCo reads these options as 'pyramidal or not' and 'dense, sparse or auto': an out of
  range value steps, and ours steps to the same state."""
  (m, d, _), (mm, dd, _) = _both()
  setattr(m.opt, field, value)
  setattr(mm.opt, field, value)
  engine.mj_step(m, d, 5)
  mujoco.mj_step(mm, dd, 5)
  np.testing.assert_allclose(d.qpos, dd.qpos, rtol=1e-9, atol=1e-12)
