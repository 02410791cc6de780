"""mjcf.Physics: compiling an object model, bind, export_with_assets."""

import pathlib

import numpy as np
import pytest

import engine
import mjcf
from tests.mjcf import builders

_MESHES = pathlib.Path(__file__).resolve().parent.parent / "assets" / "meshes"


def _model():
  """A small contact-free model with one of most element kinds."""
  model = mjcf.RootElement(model="m")
  model.option.flag.contact = "disable"
  model.asset.add(
    "mesh", name="box", file=mjcf.Asset((_MESHES / "box.stl").read_bytes(), ".stl", "box")
  )
  body = model.worldbody.add("body", name="b", pos=[0, 0, 1])
  hinge = body.add("joint", name="hinge", axis=[0, 1, 0], damping=0.5)
  body.add("geom", name="g1", type="capsule", fromto=[0, 0, 0, 0, 0, -0.5], size=[0.05])
  tip = body.add("site", name="tip", pos=[0, 0, -0.5])
  ball_body = body.add("body", name="c", pos=[0, 0, -0.5])
  ball = ball_body.add("joint", name="ball", type="ball")
  ball_body.add("geom", name="g2", type="mesh", mesh="box", rgba=[0, 0, 1, 1])
  model.worldbody.add("site", name="anchor", pos=[0, 0, 2])
  target = model.worldbody.add("body", name="target", mocap=True, pos=[1, 0, 0])
  target.add("geom", name="g3", size=[0.05], contype=0, conaffinity=0)
  tendon = model.tendon.add("spatial", name="t")
  tendon.add("site", site="anchor")
  tendon.add("site", site=tip)
  model.actuator.add("motor", name="m1", joint=hinge, gear=[2])
  model.actuator.add("position", name="m2", joint=hinge, kp=3)
  model.sensor.add("jointpos", name="s1", joint=hinge)
  model.sensor.add("framepos", name="s2", objtype="site", objname=tip)
  model.keyframe.add("key", name="bent", qpos=[0.3, 1, 0, 0, 0])
  return model, hinge, ball


def test_from_mjcf_model_compiles_the_model():
  model, _, _ = _model()
  physics = mjcf.Physics.from_mjcf_model(model)
  assert isinstance(physics, mjcf.Physics) and isinstance(physics, engine.Physics)
  direct = engine.MjModel.from_xml_string(model.to_xml_string(), assets=model.get_assets())
  for field in ("body_pos", "geom_size", "mesh_vert", "actuator_gear", "key_qpos"):
    np.testing.assert_array_equal(getattr(physics.model, field), getattr(direct, field))
  assert physics.model.nmesh == 1 and physics.model.nsensor == 2 and physics.model.nu == 2


def test_bind_reads_model_and_data_fields():
  model, hinge, ball = _model()
  physics = mjcf.Physics.from_mjcf_model(model)
  physics.reset(0)
  b = model.find("body", "b")
  np.testing.assert_array_equal(physics.bind(b).xpos, physics.named.data.xpos["b"])
  np.testing.assert_array_equal(physics.bind(b).pos, [0, 0, 1])  # body_pos
  assert physics.bind(b).mass == physics.named.model.body_mass["b"]
  np.testing.assert_array_equal(physics.bind(hinge).qpos, [0.3])  # a block of qpos
  np.testing.assert_array_equal(physics.bind(ball).qpos, [1, 0, 0, 0])
  np.testing.assert_array_equal(physics.bind([hinge, ball]).qpos, [0.3, 1, 0, 0, 0])
  assert physics.bind([hinge, ball]).qvel.shape == (4,)
  assert physics.bind(hinge).damping == 0.5  # dof_damping
  assert physics.bind(hinge).type == engine.mjtJoint.mjJNT_HINGE  # jnt_type
  geoms = model.find_all("geom")
  assert physics.bind(geoms).rgba.shape == (3, 4)
  np.testing.assert_array_equal(physics.bind(geoms[1]).rgba, [0, 0, 1, 1])
  np.testing.assert_array_equal(physics.bind(geoms).xpos, physics.data.geom_xpos)
  tip = model.find("site", "tip")
  np.testing.assert_array_equal(physics.bind(tip).xpos, physics.named.data.site_xpos["tip"])
  tendon = model.find("tendon", "t")
  assert physics.bind(tendon).length == physics.data.ten_length[0]  # ten_length
  sensors = model.find_all("sensor")
  np.testing.assert_array_equal(physics.bind(sensors).sensordata, physics.data.sensordata)
  assert physics.bind(sensors[0]).sensordata[0] == pytest.approx(0.3)
  actuators = model.find_all("actuator")
  np.testing.assert_array_equal(physics.bind(actuators).gear[:, 0], [2, 1])
  # the control fields (per control, not per actuator) drop their prefix too, as dm_control's
  np.testing.assert_array_equal(physics.bind(actuators).ctrlrange, physics.model.actuator_ctrlrange)
  np.testing.assert_array_equal(
    physics.bind(actuators).ctrllimited, physics.model.actuator_ctrllimited
  )
  target = model.find("body", "target")
  np.testing.assert_array_equal(physics.bind(target).mocap_pos, [1, 0, 0])
  key = model.find("keyframe", "bent")
  np.testing.assert_array_equal(physics.bind(key).qpos, [0.3, 1, 0, 0, 0])
  mesh = model.find("mesh", "box")
  assert physics.bind(mesh).vertnum == physics.model.mesh_vertnum[0]
  assert physics.bind(geoms).element_id.tolist() == [0, 1, 2]
  assert physics.bind(tip).element_id == 1  # the world's site comes first


def test_bind_writes_through():
  model, hinge, ball = _model()
  physics = mjcf.Physics.from_mjcf_model(model)
  geoms = model.find_all("geom")
  physics.bind(geoms).rgba = [0.1, 0.2, 0.3, 0.4]
  np.testing.assert_array_equal(physics.model.geom_rgba, np.float32([[0.1, 0.2, 0.3, 0.4]] * 3))
  physics.bind(geoms).rgba[:, 3] = 1  # item assignment writes back too
  np.testing.assert_array_equal(physics.model.geom_rgba[:, 3], [1, 1, 1])
  physics.bind(geoms[0]).rgba[0] = 0.9  # a single element's row is a view
  assert physics.model.geom_rgba[0, 0] == np.float32(0.9)
  physics.bind(model.find_all("actuator")).ctrl = [0.5, -0.5]
  np.testing.assert_array_equal(physics.data.ctrl, [0.5, -0.5])
  physics.bind(model.find("actuator", "m1")).ctrl = 0.25
  assert physics.data.ctrl[0] == 0.25
  physics.bind([hinge, ball]).qpos = [0.1, 0, 1, 0, 0]
  np.testing.assert_array_equal(physics.data.qpos, [0.1, 0, 1, 0, 0])
  physics.bind(ball).qpos[1:] = [0, 0, 1]
  np.testing.assert_array_equal(physics.data.qpos[1:], [0, 0, 0, 1])
  physics.bind(model.find("body", "b")).mass = 3.0
  assert physics.named.model.body_mass["b"] == 3.0
  physics.bind(hinge).damping = 0.25
  assert physics.model.dof_damping[0] == 0.25
  physics.forward()
  xpos = physics.bind(model.find_all("body")).xpos
  np.testing.assert_array_equal(xpos, physics.data.xpos[1:])
  assert type(xpos + 1) is np.ndarray  # arithmetic gives plain arrays


def test_binding_reader_reads_as_the_attribute_does():
  """`reader(name)` returns what reading the attribute returns, as a plain array; a derived
  field of a stale physics runs forward() first (a state field does not), as a binding does."""
  model, hinge, ball = _model()
  physics = mjcf.Physics.from_mjcf_model(model)
  physics.forward()
  bodies = model.find_all("body")
  read_xpos, read_qpos = physics.bind(bodies).reader("xpos"), physics.bind(hinge).reader("qpos")
  np.testing.assert_array_equal(read_xpos(), physics.bind(bodies).xpos)
  assert type(read_xpos()) is np.ndarray
  physics.bind(hinge).qpos = 1.0  # marks the physics stale
  assert read_qpos() == 1.0 and physics.is_dirty  # a state field: no forward()
  tip = read_xpos()[1]  # body c, at the end of the hinged rod
  assert not physics.is_dirty
  np.testing.assert_allclose(tip, [-0.5 * np.sin(1.0), 0, 1 - 0.5 * np.cos(1.0)], atol=1e-12)
  read_xpos()[:] = 7  # a list's reading is a copy: it does not write back
  np.testing.assert_array_equal(physics.data.xpos[1:], physics.bind(bodies).xpos)
  assert physics.bind([]).reader("xpos")().shape == (0,)


def test_bind_errors_and_caching():
  model, hinge, _ = _model()
  physics = mjcf.Physics.from_mjcf_model(model)
  with pytest.raises(AttributeError):
    physics.bind(hinge).bogus  # pylint: disable=expression-not-assigned
  with pytest.raises(ValueError):
    physics.bind([hinge, model.find("body", "b")])
  empty = physics.bind([])  # as dm_control: fields read empty, writes fail
  assert empty.qpos.shape == (0,)
  with pytest.raises(ValueError):
    empty.qpos = 1
  with pytest.raises(ValueError):
    physics.bind(model.worldbody.body["b"].site["tip"].parent.parent.parent.option)
  assert physics.bind(hinge) is physics.bind(hinge)
  geom = model.worldbody.body["b"].add("geom", name="late", size=[0.1])
  with pytest.raises(KeyError):
    physics.bind(geom).rgba  # pylint: disable=expression-not-assigned
  physics.reload_from_mjcf_model(model)
  assert physics.bind(geom).size[0] == 0.1


def test_bind_attached_models_and_frames():
  body = builders.UpperBody()
  physics = mjcf.Physics.from_mjcf_model(body.mjcf_model)
  left, right = body.left_arm, body.right_arm
  xpos = physics.bind([left.forearm, right.forearm]).xpos
  np.testing.assert_allclose(xpos, [[-0.15, 0, -0.05], [0.15, 0, -0.05]], atol=1e-15)
  frame = mjcf.get_attachment_frame(left.mjcf_model)
  np.testing.assert_allclose(physics.bind(frame).xpos, [-0.15, 0, 0.25])
  np.testing.assert_array_equal(physics.bind([left.shoulder, left.elbow]).qpos, [1, 0, 0, 0, 0])
  physics.bind(left.elbow).qpos = 0.5
  assert physics.named.data.qpos["left_arm/elbow"][0] == 0.5
  assert physics.bind(body.mjcf_model.worldbody).xpos.tolist() == [0, 0, 0]


def test_export_with_assets(tmp_path):
  model, _, _ = _model()
  mjcf.export_with_assets(model, str(tmp_path))
  files = sorted(p.name for p in tmp_path.iterdir())
  vfs = model.find("mesh", "box").file.get_vfs_filename()
  assert files == sorted(["m.xml", vfs])
  assert (tmp_path / vfs).read_bytes() == (_MESHES / "box.stl").read_bytes()
  loaded = engine.MjModel.from_xml_path(str(tmp_path / "m.xml"))
  np.testing.assert_array_equal(
    loaded.mesh_vert, mjcf.Physics.from_mjcf_model(model).model.mesh_vert
  )
  mjcf.export_with_assets(model, str(tmp_path / "sub"), "other.xml", precision=5)
  assert (tmp_path / "sub" / "other.xml").exists()
  with pytest.raises(ValueError):
    mjcf.export_with_assets(model, str(tmp_path), "model.txt")
