"""The mjcf object model takes engine plugin elements: parse, build, edit, export, compile."""

import numpy as np

import engine
import mjcf
from tests.engine.test_plugin import PID


def test_pid_model_through_mjcf_steps_like_the_engine():
  root = mjcf.from_xml_string(PID)
  assert root.extension.plugin[0].plugin == "mujoco.pid"
  assert [a.tag for a in root.actuator.all_children()] == ["plugin"] * 3
  physics = mjcf.Physics.from_mjcf_model(root)
  m = engine.MjModel.from_xml_string(PID)
  d = engine.MjData(m)
  for k in range(50):
    physics.data.ctrl[:] = d.ctrl[:] = [0.5, np.sin(0.1 * k), 0.2]
    physics.step()
    engine.mj_step(m, d)
  np.testing.assert_array_equal(physics.data.qpos, d.qpos)
  np.testing.assert_array_equal(physics.data.act, d.act)


def test_plugin_built_in_python():
  root = mjcf.RootElement()
  root.extension.add("plugin", plugin="mujoco.pid")
  body = root.worldbody.add("body")
  body.add("joint", name="j", type="slide")
  body.add("geom", size=[0.1])
  act = root.actuator.add("plugin", joint="j", plugin="mujoco.pid", actdim=1)
  act.add("config", key="kp", value="5")
  act.add("config", key="ki", value="1")
  xml = root.to_xml_string()
  assert 'key="kp"' in xml and 'plugin="mujoco.pid"' in xml
  physics = mjcf.Physics.from_mjcf_model(root)
  assert physics.model.nplugin == 1 and physics.model.na == 1
  physics.data.ctrl[0] = 1.0
  for _ in range(20):
    physics.step()
  assert physics.data.act[0] > 0  # the integral of the positive error grows
