"""Oracle tests of MuJoCo 3.17's orientation (SO3), dcmotor and pid actuators and of the
history buffers (actuator delay, sensor delay and sampling interval).

Each model of ours is stepped in both engines with the same varying controls; qpos, qvel,
act, act_dot, actuator_force, sensordata and the history buffer must match MuJoCo's after
every step.
"""

import math

import mujoco
import numpy as np
import pytest

import engine

INTEGRATORS = ("Euler", "implicit", "implicitfast", "RK4")
FIELDS = ("qpos", "qvel", "act", "act_dot", "actuator_force", "sensordata", "history", "time")


def _models(xml):
  return mujoco.MjModel.from_xml_string(xml), engine.MjModel.from_xml_string(xml)


def _assert_same(md, ed, fields, tol, where):
  for f in fields:
    want = np.asarray(getattr(md, f))
    got = np.asarray(getattr(ed, f))
    assert got.shape == want.shape, (f, where)
    scale = max(1.0, float(np.max(np.abs(want), initial=0.0)))
    err = float(np.max(np.abs(got - want), initial=0.0))
    assert err <= tol * scale, f"{f} differs by {err:.3g} at {where}:\n{got}\n{want}"


def _controls(nu, k):
  """Smooth, varying controls of step k (different for every control)."""
  return np.array(
    [math.sin(0.13 * k + 0.7 * u) + 0.2 * math.cos(0.05 * k * (u + 1)) for u in range(nu)]
  )


def _run(xml, nstep=60, tol=1e-10, controls=_controls, qvel=None, fields=FIELDS):
  mm, em = _models(xml)
  md, ed = mujoco.MjData(mm), engine.MjData(em)
  _assert_same(md, ed, ("history",), 0.0, "reset")
  if qvel is not None:
    md.qvel[:] = qvel
    ed.qvel[:] = qvel
  for k in range(nstep):
    u = controls(mm.nu, k)
    md.ctrl[:] = u
    ed.ctrl[:] = u
    mujoco.mj_step(mm, md)
    engine.mj_step(em, ed)
    _assert_same(md, ed, fields, tol, f"step {k}")
  return mm, md, em, ed


def _world(bodies, actuators="", sensors="", integrator="Euler", timestep=0.005):
  return f"""
<mujoco>
  <option timestep="{timestep}" integrator="{integrator}" gravity="0 0 -9.81"/>
  <worldbody>{bodies}</worldbody>
  <actuator>{actuators}</actuator>
  <sensor>{sensors}</sensor>
</mujoco>"""


ARM = """
<body name="upper" pos="0 0 1">
  <joint name="h1" axis="0 1 0" damping=".05"/>
  <geom type="capsule" fromto="0 0 0 .3 0 0" size=".04"/>
  <body name="lower" pos=".3 0 0">
    <joint name="h2" axis="0 1 0" damping=".02"/>
    <geom type="capsule" fromto="0 0 0 .25 0 .05" size=".03"/>
    <site name="tip" pos=".25 0 .05"/>
  </body>
</body>"""

BALL = """
<body name="ball" pos="0 0 1">
  <joint name="b" type="ball" damping=".02"/>
  <geom type="box" size=".2 .1 .05" pos=".05 .02 0"/>
</body>"""

FREE = """
<site name="ref" pos="0 0 1" euler="10 20 30"/>
<body name="floating" pos=".1 .2 1.1" euler="5 -10 15">
  <freejoint/>
  <geom type="box" size=".15 .1 .05" mass="1.5"/>
  <site name="s" pos=".05 0 0" euler="0 0 20"/>
</body>"""


# ---- SO3 (orientation) actuators ----


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_orientation_ball_expmap(integrator):
  _run(
    _world(BALL, '<orientation joint="b" kp="3" kv=".4"/>', integrator=integrator),
    qvel=[0.3, -0.2, 0.5],
  )


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_orientation_free_quat_and_integrator(integrator):
  # the torque-norm limit only with explicit integrators: the implicit derivative is skipped
  # when the clamped norm is >= the limit, which rounding decides once the limit is active
  limit = "" if integrator.startswith("implicit") else 'forcerange="0 .8"'
  acts = (
    f'<orientation site="s" refsite="ref" kp="2" kv=".3" input="quat" {limit}/>'
    '<general site="s" refsite="ref" gaintype="so3" biastype="so3" dyntype="integrator" '
    'gainprm="1" biasprm="0 -1 -.1"/>'
  )
  _run(_world(FREE, acts, integrator=integrator), qvel=[0, 0, 0, 0.4, -0.3, 1.0])


def test_orientation_integrator_reanchors_past_pi():
  """An integrating SO3 servo driven far keeps its target rotation vector within pi."""
  xml = _world(
    BALL,
    '<general joint="b" gaintype="so3" biastype="so3" dyntype="integrator" '
    'gainprm="3" biasprm="0 -3 -.4" actearly="true"/>',
  )
  _, md, _, ed = _run(xml, nstep=80, controls=lambda nu, k: np.array([30.0, -10.0, 5.0]))
  assert np.linalg.norm(md.act) <= math.pi and np.linalg.norm(ed.act) <= math.pi


def test_integrated_rotational_setpoint_wraps():
  """An intvelocity servo on a ball joint keeps its integrated setpoint within a period of
  its length (mj_advance wraps it), so act matches MuJoCo's after many turns."""
  xml = _world(BALL, '<intvelocity joint="b" kp="3" kv=".4" gear="0 0 1"/>')
  _, md, _, ed = _run(xml, nstep=300, controls=lambda nu, k: np.full(nu, 5.0))
  assert abs(md.act[0]) < 2 * math.pi and abs(ed.act[0]) < 2 * math.pi


# ---- DC motors ----


DCMOTORS = {
  "voltage": '<dcmotor joint="h1" motorconst=".5" resistance="2"/>',
  "inductance": '<dcmotor joint="h1" motorconst=".5" resistance="2" inductance=".02"/>',
  "saturated": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" inductance=".02" saturation=".4 0 30"/>'
  ),
  "vmax": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" inductance=".02" '
    'controller="0 0 0 0 0 .3"/>'
  ),
  "ffvoltage": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" inductance=".02" '
    'input="ff voltage" controller="0 0 0 0 0 1.5"/>'
  ),
  "posvoltage": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" input="pos voltage" '
    'controller="4 0 .2 0 0 3"/>'
  ),
  "passive": '<dcmotor joint="h1" motorconst=".5" resistance="2" input="none" cogging=".1 3 0"/>',
  "thermal": '<dcmotor joint="h1" motorconst=".5" resistance="2" thermal="2 3 0 .01 20 25"/>',
  "thermalservo": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" input="pos ff" '
    'controller="4 1 .2" thermal="2 3 0 .01 20 25"/>'
  ),
  "lugre": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" lugre="100 1 .1 .2 .05" cogging=".1 4 .3"/>'
  ),
  "pos": '<dcmotor joint="h1" motorconst=".5" resistance="2" input="pos" controller="4 1 .2"/>',
  "posvelff": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" inductance=".05" '
    'input="pos vel ff" controller="4 0 .2 5 0 6"/>'
  ),
  "imax": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" input="pos" controller="4 3 .2 0 .002 3"/>'
  ),
  "everything": (
    '<dcmotor joint="h1" motorconst=".5" resistance="2" inductance=".02" '
    'input="pos vel" controller="4 1 .2 5 .05 8" thermal="2 3 0 .01 20 25" '
    'lugre="100 1 .1 .2 .05"/>'
  ),
}


@pytest.mark.parametrize("kind", sorted(DCMOTORS))
def test_dcmotor(kind):
  acts = DCMOTORS[kind] + '<dcmotor joint="h2" motorconst=".3" resistance="1.5"/>'
  _run(_world(ARM, acts))


@pytest.mark.parametrize("integrator", INTEGRATORS)
@pytest.mark.parametrize("kind", ("everything", "thermal", "thermalservo", "posvelff"))
def test_dcmotor_integrators(integrator, kind):
  acts = DCMOTORS[kind] + '<dcmotor joint="h2" motorconst=".3" resistance="1.5"/>'
  _run(_world(ARM, acts, integrator=integrator))


# ---- PID ----


PIDS = {
  "pd": '<pid joint="h1" kp="20" kv="2"/>',
  "posvelff": '<pid joint="h1" kp="20" kv="2" input="pos vel ff"/>',
  "ki": '<pid joint="h1" kp="20" kv="2" ki="15" input="pos"/>',
  "imax": '<pid joint="h1" kp="20" kv="2" ki="40" imax=".01" input="pos"/>',
  "slew": '<pid joint="h1" kp="20" kv="2" slewmax="3" input="pos vel"/>',
  "all": (
    '<pid joint="h1" kp="20" kv="2" ki="15" imax=".05" slewmax="3" input="pos vel ff" '
    'forcerange="-3 3"/>'
  ),
}


@pytest.mark.parametrize("kind", sorted(PIDS))
def test_pid(kind):
  _run(_world(ARM, PIDS[kind] + '<pid joint="h2" kp="5" kv=".5" ki="2" input="pos"/>'))


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_pid_integrators(integrator):
  _run(
    _world(
      ARM, PIDS["all"] + '<pid joint="h2" kp="5" dampratio="1" input="pos"/>', integrator=integrator
    )
  )


# ---- history buffers ----


DELAYED = (
  '<motor joint="h1" nsample="4" delay=".012"/>'
  '<motor joint="h2" nsample="5" delay=".01" interp="linear"/>'
  '<position joint="h1" kp="10" nsample="6" delay=".013" interp="cubic"/>'
  '<motor joint="h2" nsample="3"/>'
)

SENSORS = (
  '<jointpos joint="h1" nsample="3" delay=".01"/>'
  '<jointvel joint="h2" nsample="4" delay=".0125" interp="linear"/>'
  '<framepos objtype="site" objname="tip" nsample="5" delay=".0075" interp="cubic"/>'
  '<jointpos joint="h2" nsample="3" interval=".02"/>'
  '<jointvel joint="h1" nsample="3" interval=".015 -.005"/>'
  '<framequat objtype="body" objname="lower" nsample="2" interval=".01" delay=".005"/>'
  '<actuatorfrc actuator="m0" nsample="3" delay=".005" cutoff=".3"/>'
  '<accelerometer site="tip" nsample="2"/>'
)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_delays(integrator):
  acts = DELAYED.replace('<motor joint="h1"', '<motor name="m0" joint="h1"', 1)
  _run(_world(ARM, acts, SENSORS, integrator=integrator))


def test_step1_step2_delays():
  """Controls set between mj_step1 and mj_step2 are the ones the buffers record."""
  acts = DELAYED.replace('<motor joint="h1"', '<motor name="m0" joint="h1" ctrlrange="-.3 .5"', 1)
  mm, em = _models(_world(ARM, acts, SENSORS))
  md, ed = mujoco.MjData(mm), engine.MjData(em)
  for k in range(40):
    mujoco.mj_step1(mm, md)
    engine.mj_step1(em, ed)
    u = _controls(mm.nu, k)
    md.ctrl[:] = u
    ed.ctrl[:] = u
    mujoco.mj_step2(mm, md)
    engine.mj_step2(em, ed)
    _assert_same(md, ed, FIELDS, 1e-10, f"step {k}")


def test_delayed_orientation_controls():
  """An SO3 servo's buffer holds its three controls per sample."""
  _run(
    _world(BALL, '<orientation joint="b" kp="3" kv=".4" nsample="4" delay=".01" interp="linear"/>'),
    qvel=[0.3, -0.2, 0.5],
  )


def test_forward_reads_without_inserting():
  """mj_forward reads delayed controls and sensors but leaves the buffers as they are."""
  acts = DELAYED.replace('<motor joint="h1"', '<motor name="m0" joint="h1"', 1)
  mm, md, em, ed = _run(_world(ARM, acts, SENSORS), nstep=20)
  history = ed.history.copy()
  for k in range(3):
    u = _controls(mm.nu, 100 + k)
    md.ctrl[:] = u
    ed.ctrl[:] = u
    md.qpos[0] += 0.01
    ed.qpos[0] += 0.01
    md.time += 0.003
    ed.time += 0.003
    mujoco.mj_forward(mm, md)
    engine.mj_forward(em, ed)
    _assert_same(md, ed, FIELDS, 1e-10, f"forward {k}")
  np.testing.assert_array_equal(ed.history, history)


@pytest.mark.parametrize("time", (0.5, -0.02, -0.0133))
def test_reset_and_keyframe_initialize_history(time):
  """Buffer times stay relative to 0 whatever the keyframe's time: a negative time inserts
  samples among (or onto) the initial ones."""
  xml = _world(ARM, DELAYED, SENSORS).replace(
    "</mujoco>", f'<keyframe><key time="{time}" qpos=".1 .2"/></keyframe></mujoco>'
  )
  xml = xml.replace('<actuatorfrc actuator="m0" nsample="3" delay=".005" cutoff=".3"/>', "")
  mm, md, em, ed = _run(xml, nstep=10)
  mujoco.mj_resetData(mm, md)
  engine.mj_resetData(em, ed)
  _assert_same(md, ed, ("history", "time"), 0.0, "reset")
  mujoco.mj_resetDataKeyframe(mm, md, 0)
  engine.mj_resetDataKeyframe(em, ed, 0)
  md.qvel[:] = ed.qvel[:] = 0.5
  _assert_same(md, ed, ("history", "time", "qpos"), 0.0, "keyframe")
  for k in range(10):
    u = _controls(mm.nu, k)
    md.ctrl[:] = u
    ed.ctrl[:] = u
    mujoco.mj_step(mm, md)
    engine.mj_step(em, ed)
    _assert_same(md, ed, FIELDS, 1e-10, f"step {k} after keyframe")


def test_disabled_sensors_still_record_delayed_samples():
  """With sensors disabled, sensordata is left alone but mj_step still samples delayed
  sensors into their buffers."""
  acts = DELAYED.replace('<motor joint="h1"', '<motor name="m0" joint="h1"', 1)
  xml = _world(ARM, acts, SENSORS).replace(
    "<option ", '<option><flag sensor="disable"/></option>\n  <option '
  )
  _run(xml, nstep=30)


def test_history_is_state():
  """mjSTATE_HISTORY is part of the physics state: its size and round trip."""
  _, md, em, ed = _run(
    _world(
      ARM,
      DELAYED,
      SENSORS.replace('<actuatorfrc actuator="m0" nsample="3" delay=".005" cutoff=".3"/>', ""),
    ),
    nstep=8,
  )
  sig = mujoco.mjtState.mjSTATE_HISTORY
  assert engine.mj_stateSize(em, sig) == em.nhistory > 0
  state = np.empty(em.nhistory)
  engine.mj_getState(em, ed, state, sig)
  np.testing.assert_array_equal(state, md.history)
  ed.history[:] = 0
  engine.mj_setState(em, ed, state, sig)
  np.testing.assert_array_equal(ed.history, md.history)


_HISTORY_API = """<mujoco><option timestep="0.01"/>
  <worldbody><body><joint name="j"/><geom size=".1" pos=".2 0 0"/></body></worldbody>
  <actuator><motor joint="j" delay="0.02" nsample="4"/><motor joint="j"/></actuator>
  <sensor><jointpos joint="j" delay="0.02" nsample="3" interval="0.05"/><jointvel joint="j"/>
  </sensor></mujoco>"""


def test_history_api_matches_mujoco():
  """mj_readCtrl / mj_readSensor (the buffer read at time minus the delay, each interpolation;
  the current values without a buffer) and mj_initCtrlHistory / mj_initSensorHistory (given or
  kept times, the phase) against MuJoCo's, then stepping on from the filled buffers."""
  mjm = mujoco.MjModel.from_xml_string(_HISTORY_API)
  mjd = mujoco.MjData(mjm)
  m = engine.MjModel.from_xml_string(_HISTORY_API)
  d = engine.MjData(m)
  for k in range(7):
    mjd.ctrl[:] = d.ctrl[:] = [k + 1.0, -k]
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
  np.testing.assert_allclose(d.history, mjd.history, rtol=0, atol=1e-12)
  want, got = np.zeros(1), np.zeros(1)
  for t in (0.0, 0.03, 0.045, 0.07, 0.2):
    for interp in (0, 1, 2):
      np.testing.assert_allclose(
        engine.mj_readCtrl(m, d, 0, t, got, interp),
        mujoco.mj_readCtrl(mjm, mjd, 0, t, want, interp),
        atol=1e-12,
      )
      np.testing.assert_allclose(
        engine.mj_readSensor(m, d, 0, t, got, interp),
        mujoco.mj_readSensor(mjm, mjd, 0, t, want, interp),
        atol=1e-12,
      )
  np.testing.assert_array_equal(engine.mj_readCtrl(m, d, 1, 0.0, got, 0), d.ctrl[1:2])
  np.testing.assert_array_equal(engine.mj_readSensor(m, d, 1, 0.0, got, 0), d.sensordata[1:2])

  for lib, model, data in ((mujoco, mjm, mjd), (engine, m, d)):
    lib.mj_initCtrlHistory(
      model, data, 0, np.array([0.01, 0.02, 0.03, 0.04]), np.array([[10.0], [20.0], [30.0], [40.0]])
    )
    lib.mj_initCtrlHistory(model, data, 0, None, np.array([[11.0], [21.0], [31.0], [41.0]]))
    lib.mj_initSensorHistory(
      model, data, 0, np.array([0.02, 0.03, 0.04]), np.array([[1.0], [2.0], [3.0]]), 0.025
    )
  np.testing.assert_array_equal(d.history, mjd.history)
  for _ in range(8):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
  np.testing.assert_allclose(d.history, mjd.history, rtol=0, atol=1e-12)
  np.testing.assert_allclose(d.sensordata, mjd.sensordata, rtol=0, atol=1e-12)


def test_history_api_errors():
  m = engine.MjModel.from_xml_string(_HISTORY_API)
  d = engine.MjData(m)
  with pytest.raises(ValueError, match="no history buffer"):
    engine.mj_initCtrlHistory(m, d, 1, None, np.zeros((4, 1)))
  with pytest.raises(ValueError, match="strictly increasing"):
    engine.mj_initCtrlHistory(m, d, 0, np.array([0.3, 0.2, 0.1, 0.0]), np.zeros((4, 1)))
  with pytest.raises(ValueError, match="4 samples"):
    engine.mj_initCtrlHistory(m, d, 0, None, np.zeros((3, 1)))
  with pytest.raises(ValueError, match="out of range"):
    engine.mj_readSensor(m, d, 5, 0.0, np.zeros(1), 0)
  with pytest.raises(TypeError, match="result"):
    engine.mj_readCtrl(m, d, 0, 0.0, np.zeros(1, np.float32), 0)
