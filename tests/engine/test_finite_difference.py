"""mjd_transitionFD and mjd_inverseFD (engine/finite_difference.py) against MuJoCo's.

Each model is put in the same state in both engines (MuJoCo steps a little, its full state
with the warm start is copied into ours), both compute the Jacobians, and we compare them, the
state left in the data (exactly as before) and the derived quantities left there (those of the
last nudged evaluation, in both). Our step agrees with MuJoCo's to ~1e-12 or better, so the
Jacobians agree to about that divided by eps (the difference of two nearly equal steps, each
off by ~1e-12, over eps); the tolerances below are set from measured differences with
headroom, and say so where they are looser.
"""

import mujoco
import numpy as np
import pytest

import engine

EPS = 1e-6

# a damped pendulum (Euler's implicit damping), a motor on its hinge
PENDULUM = """<mujoco><option timestep="0.01"/>
  <worldbody><body name="arm"><joint name="hinge" axis="0 1 0" damping="0.3"/>
    <geom type="sphere" size="0.05" pos="0 0 -0.5" mass="1"/></body></worldbody>
  <actuator><motor joint="hinge" gear="2"/></actuator></mujoco>"""

# a cart-pole under implicitfast: the cart's motor sits at its upper ctrl limit, a second motor
# has a ctrlrange narrower than eps (no room to nudge: zero columns), a third is unlimited
CARTPOLE = """<mujoco><option timestep="0.005" integrator="implicitfast"/>
  <worldbody><body name="cart"><joint name="slider" type="slide" axis="1 0 0" damping="0.1"/>
    <geom type="box" size="0.2 0.1 0.05" mass="1"/>
    <body name="pole"><joint name="hinge" axis="0 1 0" damping="0.01"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.6" size="0.03" mass="0.2"/></body></body>
  </worldbody>
  <actuator><motor name="push" joint="slider" ctrllimited="true" ctrlrange="-1 1"/>
    <motor name="narrow" joint="hinge" ctrllimited="true" ctrlrange="0.2 0.2000000001"/>
    <motor name="free" joint="hinge" gear="0.5"/></actuator>
  <sensor><jointpos joint="hinge"/><jointvel joint="slider"/></sensor></mujoco>"""

# a box resting on a plane (four contacts, nq != nv), with sensors
FREE_BOX = """<mujoco><option timestep="0.004"/>
  <worldbody><geom type="plane" size="2 2 0.1"/>
    <body name="box" pos="0 0 0.05"><freejoint/><geom type="box" size="0.1 0.08 0.05" mass="1"/>
      <site name="s"/></body></worldbody>
  <sensor><framepos objtype="site" objname="s"/><accelerometer site="s"/></sensor></mujoco>"""

# activation dynamics (a filter actuator, an integrator actuator) under the implicit
# integrator, with position, velocity, force and acceleration sensors
FILTER = """<mujoco><option timestep="0.002" integrator="implicit"/>
  <worldbody><body name="a"><joint name="j1" axis="0 1 0" damping="0.05"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
    <body pos="0.3 0 0"><joint name="j2" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/><site name="tip" pos="0.3 0 0"/>
    </body></body></worldbody>
  <actuator><general name="filter" joint="j1" dyntype="filter" dynprm="0.03" gainprm="2"/>
    <general name="int" joint="j2" dyntype="integrator" gainprm="1" actlimited="true"
      actrange="-1 1"/>
    <position name="servo" joint="j2" kp="5"/></actuator>
  <sensor><jointpos joint="j1"/><jointvel joint="j2"/><actuatorfrc actuator="filter"/>
    <framepos objtype="site" objname="tip"/><accelerometer site="tip"/></sensor></mujoco>"""

CTRL = {
  "pendulum": [0.4],
  "cartpole": [1.0, 0.2, -0.3],  # push at its upper limit, narrow inside its range
  "free_box": [],
  "filter": [0.5, -0.2, 0.3],
}
XML = {"pendulum": PENDULUM, "cartpole": CARTPOLE, "free_box": FREE_BOX, "filter": FILTER}
SIGNATURE = int(mujoco.mjtState.mjSTATE_INTEGRATION)


def _pair(name, steps=20):
  """(ours, theirs): models and datas in the same state, MuJoCo's after `steps` steps from
  displaced joints (the box starts on the plane), moving joints and the controls of CTRL."""
  mjm = mujoco.MjModel.from_xml_string(XML[name])
  mjd = mujoco.MjData(mjm)
  if name != "free_box":
    mjd.qpos[:] = 0.3 * (-1) ** np.arange(mjm.nq)
    mjd.qvel[:] = 0.1 * np.arange(1, mjm.nv + 1)
  mjd.ctrl[:] = CTRL[name]
  mjd.act[:] = 0.1 * np.arange(1, mjm.na + 1)
  mujoco.mj_step(mjm, mjd, steps)
  m = engine.MjModel.from_xml_string(XML[name])
  d = engine.MjData(m)
  engine.mj_setState(m, d, _full(mujoco, mjm, mjd), SIGNATURE)
  mujoco.mj_forward(mjm, mjd)
  engine.mj_forward(m, d)
  return (m, d), (mjm, mjd)


def _full(lib, m, d):
  """The state of mjSTATE_INTEGRATION (all of it, the warm start and controls included)."""
  state = np.empty(lib.mj_stateSize(m, SIGNATURE))
  lib.mj_getState(m, d, state, SIGNATURE)
  return state


def _outputs(m):
  nx = 2 * m.nv + m.na
  ns = m.nsensordata
  return [np.full(shape, np.nan) for shape in ((nx, nx), (nx, m.nu), (ns, nx), (ns, m.nu))]


def _state(d):
  return [np.array(a) for a in (d.time, d.qpos, d.qvel, d.act, d.ctrl, d.qacc_warmstart)]


# derived quantities of the last nudged evaluation, which both engines leave in the data
DERIVED = ("xpos", "xmat", "M", "qacc", "qfrc_actuator", "qfrc_bias", "actuator_force", "act_dot")


def _assert_left_as_mujoco(d, mjd, before, atol):
  """The state exactly as it was; the derived quantities as MuJoCo leaves its own."""
  for mine, old in zip(_state(d), before, strict=True):
    np.testing.assert_array_equal(mine, old)
  for field in DERIVED:
    np.testing.assert_allclose(getattr(d, field), getattr(mjd, field), rtol=0, atol=atol)
  np.testing.assert_array_equal(d.warning.number, mjd.warning.number)


# Measured: A, B, C, D equal MuJoCo's bit for bit on these models (the box on the plane: A to
# 1e-16, its contact forces coming from the solver). Nudged steps that differed from MuJoCo's
# by rounding (~1e-16 relative) would move the Jacobians by ~1e-16/eps: the bound, relative to
# each matrix's largest entry, allows that with headroom.
RTOL = 1e-9


@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("name", list(XML))
def test_transition_matches_mujoco(name, centered):
  """MuJoCo's centered D differences its sensors the wrong way round (minus minus plus, in
  clampedDiff of engine_derivative_fd.c; its A, B and C are right): ours is the derivative,
  so its two-sided columns are MuJoCo's negated."""
  (m, d), (mjm, mjd) = _pair(name)
  mine, theirs = _outputs(m), _outputs(mjm)
  before = _state(d)
  lo, hi = mjm.actuator_ctrlrange.T
  ctrl = mjd.ctrl
  inside = (lo <= ctrl - EPS) & (ctrl + EPS <= hi)
  flipped = centered & (~mjm.actuator_ctrllimited.astype(bool) | inside)
  engine.mjd_transitionFD(m, d, EPS, centered, *mine)
  mujoco.mjd_transitionFD(mjm, mjd, EPS, centered, *theirs)
  theirs[3][:, flipped] *= -1
  for what, a, b in zip("ABCD", mine, theirs, strict=True):
    assert np.isfinite(a).all(), what
    np.testing.assert_allclose(a, b, rtol=0, atol=RTOL * max(1, np.abs(b).max(initial=0)))
  if name == "filter":  # the sign matters: the servo moves the accelerometer
    assert centered == flipped[2] and np.abs(mine[3][:, 2]).max() > 1
  _assert_left_as_mujoco(d, mjd, before, atol=1e-9)


def test_warnings_of_nudged_steps_are_counted_as_mujoco():
  """A NaN control: every step warns (and zeroes it for the step); the counts, the restored
  NaN and the Jacobians are MuJoCo's."""
  (m, d), (mjm, mjd) = _pair("filter")
  d.ctrl[1] = mjd.ctrl[1] = np.nan
  mine, theirs = _outputs(m), _outputs(mjm)
  with pytest.warns(engine.PhysicsWarning, match="mjWARN_BADCTRL"):
    engine.mjd_transitionFD(m, d, EPS, False, *mine)
  mujoco.mjd_transitionFD(mjm, mjd, EPS, False, *theirs)
  np.testing.assert_array_equal(d.warning.number, mjd.warning.number)
  assert d.warning.number[mujoco.mjtWarning.mjWARN_BADCTRL] == 1 + m.nu + 2 * m.nv + m.na  # steps
  assert np.isnan(d.ctrl[1])
  for a, b in zip(mine, theirs, strict=True):
    np.testing.assert_array_equal(a, b)


def test_warm_start_is_restored_only_when_used():
  """qacc_warmstart belongs to the restored state unless warm starts are disabled; then it is
  left as the last nudged step set it, in both engines."""
  results = []
  for warmstart in ("enable", "disable"):
    option = f'<option timestep="0.004"><flag warmstart="{warmstart}"/></option>'
    xml = FREE_BOX.replace('<option timestep="0.004"/>', option)
    assert option in xml
    m, mjm = engine.MjModel.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)
    d, mjd = engine.MjData(m), mujoco.MjData(mjm)
    mujoco.mj_step(mjm, mjd, 30)
    engine.mj_setState(m, d, _full(mujoco, mjm, mjd), SIGNATURE)
    before = d.qacc_warmstart.copy()
    mine, theirs = _outputs(m), _outputs(mjm)
    engine.mjd_transitionFD(m, d, EPS, True, *mine)
    mujoco.mjd_transitionFD(mjm, mjd, EPS, True, *theirs)
    np.testing.assert_allclose(d.qacc_warmstart, mjd.qacc_warmstart, rtol=0, atol=1e-9)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=0, atol=RTOL * np.abs(theirs[0]).max())
    results.append(np.array_equal(d.qacc_warmstart, before))
  assert results == [True, False]


def test_centered_and_forward_differences_agree():
  """The two differ by the truncation error, O(eps) relative: the centered D has the sign of
  the forward one (the derivative), not MuJoCo's."""
  (m, d), _ = _pair("filter")
  forward, centered = _outputs(m), _outputs(m)
  engine.mjd_transitionFD(m, d, EPS, False, *forward)
  engine.mjd_transitionFD(m, d, EPS, True, *centered)
  for what, a, b in zip("ABCD", forward, centered, strict=True):
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-4 * np.abs(b).max(), err_msg=what)


def test_limited_controls_are_nudged_inside_their_range():
  """The cart's push sits at its upper limit: its B column is a backward difference (equal
  either way, as the dynamics are linear in it); the narrow motor has no room: zero column."""
  (m, d), _ = _pair("cartpole")
  forward, centered = _outputs(m), _outputs(m)
  engine.mjd_transitionFD(m, d, EPS, False, *forward)
  engine.mjd_transitionFD(m, d, EPS, True, *centered)
  B, D = forward[1], forward[3]
  np.testing.assert_array_equal(B[:, 1], 0)
  np.testing.assert_array_equal(D[:, 1], 0)
  assert np.abs(B[:, 0]).max() > 1e-3  # the push moves the cart
  np.testing.assert_allclose(centered[1][:, 0], B[:, 0], atol=1e-7)
  # a control outside its range has no room either
  outside = engine.MjData(m)
  engine.mj_setState(m, outside, _full(engine, m, d), SIGNATURE)
  outside.ctrl[0] = 1.5
  B = np.full((2 * m.nv, m.nu), np.nan)
  engine.mjd_transitionFD(m, outside, EPS, True, None, B, None, None)
  np.testing.assert_array_equal(B[:, 0], 0)


# a damper (force -kv ctrl qvel) under the implicit integrator: the step's implicit matrix
# M - h qDeriv depends on the control
DAMPER = """<mujoco><option timestep="0.01" integrator="implicit"/>
  <worldbody><body><joint name="h" axis="0 1 0"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/></body></worldbody>
  <actuator><damper joint="h" kv="3" ctrlrange="0 1"/></actuator></mujoco>"""


def test_control_nudges_reuse_the_factorization_as_mujoco():
  """Where the control changes the implicit integrator's matrix (a damper's gain), the nudged
  steps reuse the unnudged step's factorization, as MuJoCo's mj_stepSkip does: B equals
  MuJoCo's, and so differs from the difference of two full mj_step calls (by 29 % for this
  light arm)."""
  m, mjm = engine.MjModel.from_xml_string(DAMPER), mujoco.MjModel.from_xml_string(DAMPER)
  d, mjd = engine.MjData(m), mujoco.MjData(mjm)
  for data in (d, mjd):
    data.qvel[0], data.ctrl[0] = 0.5, 0.5
  B, theirs = np.zeros((2, 1)), np.zeros((2, 1))
  engine.mjd_transitionFD(m, d, EPS, False, None, B, None, None)
  mujoco.mjd_transitionFD(mjm, mjd, EPS, False, None, theirs, None, None)
  np.testing.assert_allclose(B, theirs, rtol=RTOL, atol=0)
  steps = []
  for ctrl in (0.5, 0.5 + EPS):
    stepped = engine.MjData(m)
    stepped.qvel[0], stepped.ctrl[0] = 0.5, ctrl
    engine.mj_step(m, stepped)
    steps.append(np.r_[stepped.qpos, stepped.qvel])
  full_steps = (1 / EPS) * (steps[1] - steps[0])
  assert abs(B[1, 0] / full_steps[1] - 1) > 0.1


def test_pendulum_matches_its_linearisation():
  """Euler with implicit damping: (I + h b) a = tau(q) - b v + g u, v' = v + h a, q' = q + h v',
  with tau(q) = -m g l sin(q) for the bob at distance l: A and B in closed form."""
  (m, d), _ = _pair("pendulum", steps=3)
  A, B = np.zeros((2, 2)), np.zeros((2, 1))
  engine.mjd_transitionFD(m, d, EPS, True, A, B, None, None)
  engine.mj_forward(m, d)
  h, b, gear = m.opt.timestep, m.dof_damping[0], m.actuator_gear[0, 0]
  inertia = d.M[0]  # m l^2 + the sphere's own inertia
  stiffness = -1.0 * 9.81 * 0.5 * np.cos(d.qpos[0])  # d tau / d q
  denominator = inertia + h * b
  dv_dq, dv_dv, dv_du = h * stiffness / denominator, inertia / denominator, h * gear / denominator
  expected_A = [[1 + h * dv_dq, h * dv_dv], [dv_dq, dv_dv]]
  expected_B = [[h * dv_du], [dv_du]]
  np.testing.assert_allclose(A, expected_A, rtol=1e-8, atol=1e-10)
  # rounding: qpos ~0.3 differenced over 2 eps leaves ~1e-11 in B's first entry
  np.testing.assert_allclose(B, expected_B, rtol=1e-8, atol=1e-10)
  assert abs(A[1, 1] - (1 - b * h / inertia)) < 2 * (b * h / inertia) ** 2  # the brief's 1 - b h/I


def test_outputs_are_optional_and_each_is_the_same_alone():
  """Each matrix computed alone equals the one computed with all four (forward differences:
  only the sensors' being skipped when C and D are not requested changes the calls)."""
  (m, d), _ = _pair("filter")
  full = _outputs(m)
  engine.mjd_transitionFD(m, d, EPS, False, *full)
  for k in range(4):
    alone = [None] * 4
    alone[k] = np.zeros_like(full[k])
    engine.mjd_transitionFD(m, d, EPS, False, *alone)
    np.testing.assert_array_equal(alone[k], full[k])
  engine.mjd_transitionFD(m, d, EPS, False, None, None, None, None)  # nothing to do, still runs


def _inverse_outputs(m):
  nv, ns = m.nv, m.nsensordata
  shapes = [(nv, nv)] * 3 + [(nv, ns)] * 3 + [(nv, m.nC)]
  return [np.full(shape, np.nan) for shape in shapes]


@pytest.mark.parametrize("actuation", [0, 1])
@pytest.mark.parametrize("name", ["pendulum", "cartpole", "free_box", "filter"])
def test_inverse_matches_mujoco(name, actuation):
  (m, d), (mjm, mjd) = _pair(name)
  rng = np.random.default_rng(1)
  qacc = rng.normal(size=m.nv)
  d.qacc[:] = qacc
  mjd.qacc[:] = qacc
  mine, theirs = _inverse_outputs(m), _inverse_outputs(mjm)
  qpos, qvel = d.qpos.copy(), d.qvel.copy()
  engine.mjd_inverseFD(m, d, EPS, actuation, *mine)
  mujoco.mjd_inverseFD(mjm, mjd, EPS, actuation, *theirs)
  # inverse dynamics has no solver iterations: differences are rounding over eps
  for k, (a, b) in enumerate(zip(mine, theirs, strict=True)):
    assert np.isfinite(a).all(), k
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-6 * max(1, np.abs(b).max(initial=0)))
  np.testing.assert_array_equal(d.qpos, qpos)
  np.testing.assert_array_equal(d.qvel, qvel)
  np.testing.assert_array_equal(d.qacc, qacc)
  for field in ("qfrc_inverse", "sensordata", "M", "xpos", "qfrc_actuator"):
    np.testing.assert_allclose(getattr(d, field), getattr(mjd, field), rtol=0, atol=1e-9)


def test_inverse_mass_jacobian_is_the_derivative_of_M():
  """DfDa is the inertia (f = M qacc + ...), as M's lower triangle; DmDq of a hinge chain is
  nonzero where M depends on the second joint's angle."""
  (m, d), _ = _pair("filter")
  DfDa, DmDq = np.zeros((m.nv, m.nv)), np.zeros((m.nv, m.nC))
  engine.mjd_inverseFD(m, d, EPS, 0, None, None, DfDa, None, None, None, DmDq)
  full = np.zeros((m.nv, m.nv))
  engine.mj_inverse(m, d)
  engine.mj_fullM(m, d, full)
  np.testing.assert_allclose(DfDa, full, atol=1e-7)
  assert np.abs(DmDq[1]).max() > 1e-3  # M depends on j2
  np.testing.assert_allclose(DmDq[0], 0, atol=1e-7)  # not on j1


def _bad_shapes(m):
  nx = 2 * m.nv + m.na
  return [np.zeros((nx, nx + 1)), np.zeros(nx * nx), np.zeros((nx, nx), np.float32)]


def test_wrong_outputs_are_refused_before_any_work():
  (m, d), (mjm, mjd) = _pair("filter")
  before = _state(d)
  xpos = d.xpos.copy()
  for k in range(4):
    for wrong in [*_bad_shapes(m), np.zeros((2 * m.nv + m.na, 3))[:, ::2], [[0.0]]]:
      args = [None] * 4
      args[k] = wrong
      with pytest.raises(TypeError):
        engine.mjd_transitionFD(m, d, EPS, True, *args)
      theirs = [None] * 4
      theirs[k] = wrong
      with pytest.raises(TypeError):
        mujoco.mjd_transitionFD(mjm, mjd, EPS, True, *theirs)
  for k in range(7):
    args = [None] * 7
    args[k] = np.zeros((m.nv + 1, m.nv))
    with pytest.raises(TypeError, match="should be of shape"):
      engine.mjd_inverseFD(m, d, EPS, 0, *args)
  np.testing.assert_array_equal(d.xpos, xpos)  # nothing ran
  for mine, old in zip(_state(d), before, strict=True):
    np.testing.assert_array_equal(mine, old)


@pytest.mark.parametrize("function", ["mjd_transitionFD", "mjd_inverseFD"])
def test_wrong_arguments_raise_type_error(function):
  (m, d), _ = _pair("pendulum", steps=0)
  nones = [None] * (4 if function == "mjd_transitionFD" else 7)
  call = getattr(engine, function)
  for args in ([None, d], [m, None], [m, m], [d, d]):
    with pytest.raises(TypeError):
      call(*args, EPS, 1, *nones)
  for eps in (None, "1e-6", [EPS], np.array([EPS])):
    with pytest.raises(TypeError):
      call(m, d, eps, 1, *nones)
  for flag in ("yes", [1], np.array([1, 0])):
    with pytest.raises(TypeError):
      call(m, d, EPS, flag, *nones)
  # numbers of any kind are fine, as in the bindings
  for eps, flag in ((np.float32(EPS), np.bool_(True)), (np.array(EPS), 0.5), (1, None)):
    call(m, d, eps, flag, *nones)
    getattr(mujoco, function)(*_pair("pendulum", steps=0)[1], eps, flag, *nones)


def test_unsupported_options_stop_as_mujoco():
  for xml, function, nargs in ((PENDULUM, "mjd_transitionFD", 4), (PENDULUM, "mjd_inverseFD", 7)):
    m, mjm = engine.MjModel.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)
    d, mjd = engine.MjData(m), mujoco.MjData(mjm)
    m.opt.integrator = mjm.opt.integrator = mujoco.mjtIntegrator.mjINT_RK4
    with pytest.raises(mujoco.FatalError) as theirs:
      getattr(mujoco, function)(mjm, mjd, EPS, 0, *[None] * nargs)
    with pytest.raises(engine.FatalError, match=str(theirs.value)):
      getattr(engine, function)(m, d, EPS, 0, *[None] * nargs)
  m, mjm = engine.MjModel.from_xml_string(PENDULUM), mujoco.MjModel.from_xml_string(PENDULUM)
  m.opt.noslip_iterations = mjm.opt.noslip_iterations = 3
  with pytest.raises(mujoco.FatalError, match="noslip"):
    mujoco.mjd_inverseFD(mjm, mujoco.MjData(mjm), EPS, 0, *[None] * 7)
  with pytest.raises(engine.FatalError, match="noslip solver is not supported"):
    engine.mjd_inverseFD(m, engine.MjData(m), EPS, 0, *[None] * 7)
  delayed = PENDULUM.replace('gear="2"/>', 'gear="2" delay="0.02" nsample="3"/>')
  m, mjm = engine.MjModel.from_xml_string(delayed), mujoco.MjModel.from_xml_string(delayed)
  with pytest.raises(mujoco.FatalError, match="delays are not supported"):
    mujoco.mjd_transitionFD(mjm, mujoco.MjData(mjm), EPS, 0, *[None] * 4)
  with pytest.raises(engine.FatalError, match="delays are not supported"):
    engine.mjd_transitionFD(m, engine.MjData(m), EPS, 0, *[None] * 4)
