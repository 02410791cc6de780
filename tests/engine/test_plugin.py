"""Engine plugins: registration, MJCF instances, state layout, copy/reset/state, errors, and
MuJoCo's first-party `mujoco.pid` against the mujoco package (which ships and loads it)."""

import copy
import pickle
import subprocess
import sys

import mujoco
import numpy as np
import pytest

import engine
from engine import plugin as P

# ---- a Python sensor plugin: a first-order low-pass filter of a joint's velocity ----
# state: the filtered value; sensor: the state; advance: x += alpha * (qvel - x);
# reset: x = the config's initial value (parameters from init: alpha, x0, joint's dof)


def _lpf_init(m, instance):
  config = P.plugin_config(m, instance)
  sensor = int(np.flatnonzero(np.asarray(m.sensor_plugin) == instance)[0])
  joint = int(m.sensor_objid[sensor])
  return np.array(
    [
      float(config["alpha"]),
      float(config["x0"] or 0.0),
      float(m.jnt_dofadr[joint]),
      float(m.sensor_adr[sensor]),
    ]
  )


def _lpf_compute(m, d, instance, capability):
  p = m.plugin_paramadr[instance]
  d.sensordata[int(m.plugin_param[p + 3])] = d.plugin_state[m.plugin_stateadr[instance]]


def _lpf_advance(m, d, instance):
  p = m.plugin_paramadr[instance]
  s = m.plugin_stateadr[instance]
  alpha = m.plugin_param[p]
  d.plugin_state[s] += alpha * (d.qvel[int(m.plugin_param[p + 2])] - d.plugin_state[s])


def _lpf_reset(m, d, instance):
  p = m.plugin_paramadr[instance]
  d.plugin_state[m.plugin_stateadr[instance]] = m.plugin_param[p + 1]


# ---- a passive plugin: a torsion spring k * (0 - q) on every joint of its body ----


def _spring_init(m, instance):
  return np.array([float(P.plugin_config(m, instance)["stiffness"])])


def _spring_compute(m, d, instance, capability):
  k = m.plugin_param[m.plugin_paramadr[instance]]
  for b in range(m.nbody):
    if m.body_plugin[b] == instance:
      for j in range(m.body_jntadr[b], m.body_jntadr[b] + m.body_jntnum[b]):
        d.qfrc_passive[m.jnt_dofadr[j]] -= k * d.qpos[m.jnt_qposadr[j]]


@pytest.fixture(scope="module", autouse=True)
def plugins():
  P.register_plugin(
    "test.lowpass",
    P.mjPLUGIN_SENSOR,
    ("alpha", "x0"),
    nstate=1,
    nsensordata=1,
    init=_lpf_init,
    compute=_lpf_compute,
    advance=_lpf_advance,
    reset=_lpf_reset,
  )
  P.register_plugin(
    "test.spring", P.mjPLUGIN_PASSIVE, ("stiffness",), init=_spring_init, compute=_spring_compute
  )
  yield
  P.unregister_plugin("test.lowpass")
  P.unregister_plugin("test.spring")


LPF = """
<mujoco>
  <option timestep="0.01"/>
  <extension>
    <plugin plugin="test.lowpass">
      <instance name="slow"><config key="alpha" value="0.1"/><config key="x0" value="0.5"/>
      </instance>
    </plugin>
  </extension>
  <worldbody>
    <body><joint name="j" type="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0 0 -.5" size=".05"/></body>
  </worldbody>
  <sensor>
    <jointvel joint="j"/>
    <plugin name="filtered" instance="slow" objtype="joint" objname="j"/>
  </sensor>
</mujoco>
"""


def test_sensor_plugin_with_state_filters_as_written():
  m = engine.MjModel.from_xml_string(LPF)
  d = engine.MjData(m)
  assert (m.nplugin, m.npluginstate, m.nsensordata) == (1, 1, 2)
  assert m.sensor_type[1] == engine.mjSENS_PLUGIN and m.sensor_plugin.tolist() == [-1, 0]
  assert d.plugin_state.tolist() == [0.5]  # reset callback ran at creation
  d.qpos[0] = 1.0
  x = 0.5
  for _ in range(50):
    engine.mj_step(m, d)
    x += 0.1 * (d.qvel[0] - x)  # the state advanced after the step's velocity
    assert d.plugin_state[0] == pytest.approx(x, abs=1e-15)
  engine.mj_forward(m, d)
  assert d.sensordata[1] == d.plugin_state[0]  # computed at the acc stage from the state


def test_plugin_state_is_part_of_state_copy_and_reset():
  m = engine.MjModel.from_xml_string(LPF)
  d = engine.MjData(m)
  d.qpos[0] = 1.0
  engine.mj_step(m, d, 20)
  sig = engine.mjSTATE_FULLPHYSICS
  assert engine.mj_stateSize(m, engine.mjSTATE_PLUGIN) == 1
  state = np.zeros(engine.mj_stateSize(m, sig))
  engine.mj_getState(m, d, state, sig)
  saved = d.plugin_state.copy()
  d2 = copy.copy(d)
  assert d2.plugin_state.tolist() == saved.tolist()
  engine.mj_step(m, d, 5)
  engine.mj_setState(m, d, state, sig)
  assert d.plugin_state.tolist() == saved.tolist()
  engine.mj_resetData(m, d)
  assert d.plugin_state.tolist() == [0.5]


def test_passive_plugin_equals_a_joint_spring():
  body = '<joint type="hinge" axis="0 1 0"/><geom type="box" size=".1 .2 .3" pos=".1 0 0"/>'
  with_plugin = f"""<mujoco>
    <extension><plugin plugin="test.spring"/></extension>
    <worldbody><body>{body}<plugin plugin="test.spring">
      <config key="stiffness" value="3"/></plugin></body></worldbody></mujoco>"""
  builtin = f"""<mujoco><worldbody><body>{body.replace("/>", ' stiffness="3"/>', 1)}</body>
    </worldbody></mujoco>"""
  m1, m2 = (engine.MjModel.from_xml_string(x) for x in (with_plugin, builtin))
  assert m1.body_plugin.tolist() == [-1, 0]
  d1, d2 = engine.MjData(m1), engine.MjData(m2)
  d1.qpos[0] = d2.qpos[0] = 0.7
  engine.mj_step(m1, d1, 100)
  engine.mj_step(m2, d2, 100)
  np.testing.assert_allclose(d1.qpos, d2.qpos, rtol=0, atol=1e-12)


def test_one_instance_serves_several_bodies():
  """One-to-many: an explicit instance referenced by two bodies acts on both."""
  body = '<body pos="{x} 0 0"><joint type="hinge" axis="0 1 0"/><geom size=".1"/>{p}</body>'
  xml = (
    '<mujoco><extension><plugin plugin="test.spring"><instance name="k">'
    '<config key="stiffness" value="2"/></instance></plugin></extension><worldbody>'
    + body.format(x=0, p='<plugin instance="k"/>')
    + body.format(x=1, p='<plugin instance="k"/>')
    + "</worldbody></mujoco>"
  )
  m = engine.MjModel.from_xml_string(xml)
  assert m.nplugin == 1 and m.body_plugin.tolist() == [-1, 0, 0]
  d = engine.MjData(m)
  d.qpos[:] = [0.3, -0.2]
  engine.mj_forward(m, d)
  np.testing.assert_allclose(d.qfrc_passive, [-0.6, 0.4], rtol=0, atol=1e-15)


def test_pickled_model_binds_its_plugins_again():
  m = engine.MjModel.from_xml_string(LPF)
  m2 = pickle.loads(pickle.dumps(m))
  assert m2.plugin_fn.tolist() == m.plugin_fn.tolist()  # same process, same entry points
  d1, d2 = engine.MjData(m), engine.MjData(m2)
  d1.qpos[0] = d2.qpos[0] = 0.3
  engine.mj_step(m, d1, 30)
  engine.mj_step(m2, d2, 30)
  assert d1.plugin_state.tolist() == d2.plugin_state.tolist()


def test_saved_model_binds_its_plugins_when_loaded(tmp_path):
  m = engine.MjModel.from_xml_string(PID)
  engine.mj_saveModel(m, tmp_path / "pid.mjb")
  m2 = engine.mj_loadModel(tmp_path / "pid.mjb")
  assert m2.nplugin == 3 and m2.plugin_param.tolist() == m.plugin_param.tolist()
  d1, d2 = engine.MjData(m), engine.MjData(m2)
  d1.ctrl[:] = d2.ctrl[:] = [0.5, 0.3, 0.2]
  engine.mj_step(m, d1, 50)
  engine.mj_step(m2, d2, 50)
  assert d1.qpos.tolist() == d2.qpos.tolist() and d1.act.tolist() == d2.act.tolist()


def test_model_without_plugins_never_loads_the_plugin_registry():
  code = (
    "import sys, engine; m = engine.MjModel.from_xml_string('<mujoco><worldbody><body>"
    '<freejoint/><geom size=".1"/></body></worldbody></mujoco>\'); d = engine.MjData(m);'
    " engine.mj_step(m, d); print('engine.plugin' in sys.modules, m.nplugin)"
  )
  out = subprocess.run(
    [sys.executable, "-c", code], capture_output=True, text=True, check=True
  ).stdout.split()
  assert out == ["False", "0"]


# ---- errors ----


@pytest.mark.parametrize(
  "xml, message",
  [
    ("""<extension><plugin plugin="no.such"/></extension>""", "unrecognized plugin 'no.such'"),
    (
      """<extension><plugin plugin="test.lowpass"><instance name="a">
      <config key="beta" value="1"/></instance></plugin></extension>""",
      "unrecognized attribute 'plugin:beta' for plugin 'test.lowpass'",
    ),
    (
      """<worldbody><body><joint/><geom size=".1"/><plugin plugin="test.spring"/></body>
      </worldbody>""",
      "plugin 'test.spring' is used but not declared in <extension>",
    ),
    (
      """<extension><plugin plugin="test.spring"><instance name="s"/></plugin></extension>
      <worldbody><body><joint/><geom size=".1"/><plugin instance="s">
      <config key="stiffness" value="1"/></plugin></body></worldbody>""",
      "plugin instance 's' is declared in <extension>: configure it there, not in place",
    ),
    (
      """<extension><plugin plugin="test.spring"/></extension>
      <worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
      <sensor><plugin plugin="test.spring"/></sensor>""",
      "plugin 'test.spring' cannot be used in a sensor",
    ),
    (
      """<extension><plugin plugin="mujoco.pid"/></extension>
      <worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
      <actuator><plugin joint="j" plugin="mujoco.pid"><config key="ki" value="1"/></plugin>
      </actuator>""",
      'actuator 0 has actdim 0, expected 1. Add actdim="1"',
    ),
  ],
)
def test_clear_compile_errors(xml, message):
  with pytest.raises(engine.CompileError, match="line") as e:
    engine.MjModel.from_xml_string(f"<mujoco>{xml}</mujoco>")
  assert message in str(e.value)


def test_registration_rules():
  p = P.find_plugin("test.spring")
  again = P.register_plugin(
    "test.spring", P.mjPLUGIN_PASSIVE, ("stiffness",), init=_spring_init, compute=_spring_compute
  )
  assert again is p
  with pytest.raises(ValueError, match="already registered with other callbacks"):
    P.register_plugin("test.spring", P.mjPLUGIN_PASSIVE, ("stiffness",), compute=_lpf_compute)
  with pytest.raises(ValueError, match="need compute"):
    P.register_plugin("test.nocompute", P.mjPLUGIN_SENSOR)
  with pytest.raises(ValueError, match="invalid plugin name"):
    P.register_plugin("bad name", P.mjPLUGIN_SENSOR, compute=_lpf_compute)


def test_callback_that_does_not_compile_is_a_clear_error():
  def compute(m, d, instance, capability):
    d.no_such_field[0] = 1.0

  P.register_plugin("test.broken", P.mjPLUGIN_PASSIVE, compute=compute)
  try:
    with pytest.raises(engine.CompileError, match="test.broken.compute does not compile"):
      engine.MjModel.from_xml_string(
        '<mujoco><extension><plugin plugin="test.broken"/></extension><worldbody><body>'
        '<joint/><geom size=".1"/><plugin plugin="test.broken"/></body></worldbody></mujoco>'
      )
  finally:
    P.unregister_plugin("test.broken")


# ---- mujoco.pid against MuJoCo ----

PID = """
<mujoco>
  <option timestep="0.002"/>
  <extension>
    <plugin plugin="mujoco.pid">
      <instance name="E">
        <config key="kp" value="40"/><config key="ki" value="5"/><config key="kd" value="2"/>
        <config key="imax" value="3"/><config key="slewmax" value="4"/>
      </instance>
    </plugin>
  </extension>
  <worldbody>
    <body><joint name="j" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/></body>
    <body pos="0 .3 0"><joint name="j2" type="slide" axis="1 0 0"/><geom size=".05"/></body>
  </worldbody>
  <actuator>
    <plugin name="a2" joint="j2" plugin="mujoco.pid" actdim="1">
      <config key="kp" value="10"/><config key="ki" value="2"/></plugin>
    <plugin name="a1" joint="j" instance="E" actdim="2" ctrlrange="-1 1"/>
    <plugin name="a3" joint="j2" plugin="mujoco.pid" dyntype="filter" dynprm="0.05" actdim="1">
      <config key="kp" value="3"/><config key="kd" value="1"/></plugin>
  </actuator>
</mujoco>
"""


def test_pid_matches_mujoco():
  m = engine.MjModel.from_xml_string(PID)
  d = engine.MjData(m)
  mjm = mujoco.MjModel.from_xml_string(PID)
  mjd = mujoco.MjData(mjm)
  for name in ("nplugin", "npluginattr", "npluginstate", "na"):
    assert getattr(m, name) == getattr(mjm, name), name
  for name in (
    "actuator_plugin",
    "plugin_attr",
    "plugin_attradr",
    "plugin_stateadr",
    "plugin_statenum",
    "actuator_actnum",
    "actuator_actadr",
  ):
    np.testing.assert_array_equal(getattr(m, name), getattr(mjm, name), err_msg=name)
  assert engine.mj_name2id(m, engine.mjOBJ_PLUGIN, "E") == 0
  for k in range(300):
    ctrl = np.array([0.5, 0.8 * np.sin(0.05 * k), 0.2])
    d.ctrl[:] = mjd.ctrl[:] = ctrl
    engine.mj_step(m, d)
    mujoco.mj_step(mjm, mjd)
  # the slew limit, the integral clamp and the filter state all take part
  np.testing.assert_allclose(d.act, mjd.act, rtol=0, atol=1e-12)
  np.testing.assert_allclose(d.qpos, mjd.qpos, rtol=0, atol=1e-12)
  np.testing.assert_allclose(d.actuator_force, mjd.actuator_force, rtol=0, atol=1e-10)


# ---- mujoco.sensor.touch_grid against MuJoCo ----

TOUCH = """
<mujoco>
  <option timestep="0.002"/>
  <extension><plugin plugin="mujoco.sensor.touch_grid"/></extension>
  <worldbody>
    <geom type="plane" size="2 2 .1"/>
    <body pos="0 0 .2" euler="3 5 0"><freejoint/>
      <geom type="box" size=".1 .07 .05" friction="1 .01 .001" condim="{condim}"/>
      <site name="s" pos=".02 0 .03"/></body>
    <body pos=".3 0 .1"><freejoint/><geom type="sphere" size=".05"/></body>
  </worldbody>
  <sensor>
    <plugin plugin="mujoco.sensor.touch_grid" objtype="site" objname="s">
      <config key="nchannel" value="{nchannel}"/><config key="size" value="5 4"/>
      <config key="fov" value="70 50"/><config key="gamma" value="{gamma}"/>
    </plugin>
  </sensor>
</mujoco>
"""


@pytest.mark.parametrize("condim, nchannel, gamma", [(3, 3, 0), (6, 6, 0.5)])
def test_touch_grid_matches_mujoco(condim, nchannel, gamma):
  """The box lands and settles on its four corners; each step starts from the same state in
  both engines, so the taxels see the same contacts and forces."""
  xml = TOUCH.format(condim=condim, nchannel=nchannel, gamma=gamma)
  m, mjm = engine.MjModel.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)
  d, mjd = engine.MjData(m), mujoco.MjData(mjm)
  assert m.nsensordata == mjm.nsensordata == nchannel * 20
  touched = 0
  for _ in range(150):
    engine.mj_step(m, d)
    mjd.qpos[:], mjd.qvel[:], mjd.qacc_warmstart[:] = d.qpos, d.qvel, d.qacc_warmstart
    engine.mj_forward(m, d)
    mujoco.mj_forward(mjm, mjd)
    np.testing.assert_allclose(d.sensordata, mjd.sensordata, rtol=0, atol=1e-10)
    touched = max(touched, np.count_nonzero(mjd.sensordata))
  assert touched >= 4 * nchannel  # the corners fall into several taxels of every channel


def test_touch_grid_config_errors():
  bad = TOUCH.format(condim=3, nchannel=3, gamma=0).replace('value="70 50"', 'value="200 50"')
  with pytest.raises(engine.CompileError, match=r"fov\[0\]` must be a float between"):
    engine.MjModel.from_xml_string(bad)
