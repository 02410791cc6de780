"""Attaching models: frames, namescoping, defaults isolation, global options, merging, copies."""

import copy
import pathlib

import numpy as np
import pytest
from lxml import etree

import mjcf
from engine.compiler import compile_model

_MESHES = pathlib.Path(__file__).resolve().parent.parent / "assets" / "meshes"


def _compile(model):
  return compile_model(xml=model.to_xml_string(), assets=model.get_assets())


def _names(c, adr_field):
  buf = c.arrays["names"]
  out = []
  for adr in c.arrays[adr_field]:
    end = buf.find(b"\0", int(adr))
    out.append(buf[int(adr) : end].decode())
  return out


def _body_id(c, name):
  return _names(c, "name_bodyadr").index(name)


def _child(name="child", rgba=None, base=False):
  child = mjcf.RootElement(model=name)
  if base:  # a geom welded to the attachment frame, so the frame can move
    child.worldbody.add("geom", name="base", size=[0.05])
  body = child.worldbody.add("body", name="b", pos=[0.5, 0.25, 1.0])
  body.add("joint", name="j", axis=[0, 1, 0])
  body.add("geom", name="g", type="box", size=[0.1, 0.2, 0.3], rgba=rgba)
  return child


def test_attach_to_site_creates_frame_at_the_site():
  parent = mjcf.RootElement(model="parent")
  body = parent.worldbody.add("body", name="holder")
  body.add("geom", name="foo", type="box", pos=[-0.2, 0, 0.3], size=[0.5, 0.3, 0.1])
  site = body.add("site", name="attachment_site", pos=[1, 2, 3], quat=[1, 0, 0, 1])
  child = _child()
  frame = site.attach(child)
  assert frame.parent is body and body.all_children().index(frame) == 2  # after the site
  np.testing.assert_array_equal(frame.pos, [1, 2, 3])
  np.testing.assert_array_equal(frame.quat, [1, 0, 0, 1])
  assert frame.full_identifier == "child/"
  xml = etree.fromstring(parent.to_xml_string())
  fx = xml.find("worldbody/body/body")
  assert fx.get("name") == "child/" and fx.get("pos") == "1 2 3"
  assert fx.find("body").get("name") == "child/b"
  assert fx.find("body/geom").get("name") == "child/g"
  c = _compile(parent)
  f = _body_id(c, "child/")
  np.testing.assert_allclose(c.arrays["body_pos"][f], [1, 2, 3])
  np.testing.assert_allclose(c.arrays["body_quat"][f], np.array([1, 0, 0, 1]) / np.sqrt(2))
  assert c.arrays["body_parentid"][_body_id(c, "child/b")] == f


def test_attach_to_site_with_euler_and_to_bodies_and_world():
  parent = mjcf.RootElement(model="parent")
  site = parent.worldbody.add("site", name="s", pos=[0, 0, 1], euler=[0, 0, 90])
  frame_a = site.attach(_child("a"))
  np.testing.assert_array_equal(frame_a.euler, [0, 0, 90])
  holder = parent.worldbody.add("body", name="holder", pos=[3, 0, 0])
  holder.add("geom", size=[0.1])
  frame_b = holder.attach(_child("b"))
  assert frame_b.parent is holder and frame_b.pos is None
  frame_c = parent.attach(_child("c"))
  assert frame_c.parent is parent.worldbody
  c = _compile(parent)
  quat = c.arrays["body_quat"][_body_id(c, "a/")]
  np.testing.assert_allclose(quat, [np.cos(np.pi / 4), 0, 0, np.sin(np.pi / 4)], atol=1e-15)
  assert c.arrays["body_parentid"][_body_id(c, "b/")] == _body_id(c, "holder")
  assert c.arrays["body_parentid"][_body_id(c, "c/")] == 0


def test_frames_take_joints_and_inertial_only():
  parent = mjcf.RootElement()
  frame = parent.attach(_child())
  free = frame.add("freejoint")
  assert frame.freejoint is free
  frame.add("inertial", pos=[0, 0, 0], mass=1, diaginertia=[1, 1, 1])
  for tag in ("geom", "body", "site"):
    with pytest.raises(AttributeError):
      frame.add(tag)
  with pytest.raises(AttributeError):
    frame.name = "x"  # the frame's name is not the user's
  frame.pos = [0, 0, 1]
  c = _compile(parent)
  assert c.sizes["nq"] == 8 and _names(c, "name_jntadr")[0] == "child/"
  np.testing.assert_allclose(c.arrays["qpos0"][:3], [0, 0, 1])


def test_frame_joints_are_named_after_the_frame():
  parent = mjcf.RootElement()
  frame = parent.attach(_child(base=True))
  frame.add("joint", type="slide", axis=[1, 0, 0])
  frame.add("joint", name="lift", type="slide", axis=[0, 0, 1])
  frame.add("joint", type="hinge")
  c = _compile(parent)
  assert _names(c, "name_jntadr") == ["child/", "child/lift/", "child/unnamed_joint_1/", "child/j"]
  assert [j.full_identifier for j in frame.joint] == _names(c, "name_jntadr")[:3]


def test_namescoping_of_every_identifier():
  child = mjcf.RootElement(model="child")
  child.asset.add("material", name="mat", rgba=[0, 0, 1, 1])
  child.asset.add("texture", name="tex", type="2d", builtin="checker", width=8, height=8)
  body = child.worldbody.add("body", name="b")
  body.add("joint", name="j")
  geom = body.add("geom", name="g", size=[0.1], material="mat")
  body.add("site", name="s")
  body.add("camera", name="cam")
  body.add("light", name="light")
  child.tendon.add("fixed", name="t").add("joint", joint="j", coef=1)
  child.actuator.add("motor", name="m", joint="j")
  child.sensor.add("jointpos", name="sj", joint="j")
  child.equality.add("joint", name="eq", joint1="j")
  child.contact.add("exclude", name="ex", body1="b", body2="world")
  child.custom.add("numeric", name="num", data=[1])
  child.keyframe.add("key", name="home", qpos=[0.5])
  parent = mjcf.RootElement(model="parent")
  parent.worldbody.add("body", name="b").add("geom", name="g", size=[0.1])
  parent.attach(child)
  c = _compile(parent)
  assert _names(c, "name_bodyadr") == ["world", "b", "child/", "child/b"]
  assert _names(c, "name_geomadr") == ["g", "child/g"]
  for adr, name in [
    ("name_jntadr", "child/j"),
    ("name_siteadr", "child/s"),
    ("name_camadr", "child/cam"),
    ("name_lightadr", "child/light"),
    ("name_tendonadr", "child/t"),
    ("name_actuatoradr", "child/m"),
    ("name_sensoradr", "child/sj"),
    ("name_eqadr", "child/eq"),
    ("name_excludeadr", "child/ex"),
    ("name_numericadr", "child/num"),
    ("name_keyadr", "child/home"),
    ("name_matadr", "child/mat"),
    ("name_texadr", "child/tex"),
  ]:
    assert _names(c, adr) == [name], adr
  assert c.arrays["geom_matid"][1] == 0
  assert geom.full_identifier == "child/g"


def test_duplicate_model_names_are_made_unique():
  parent = mjcf.RootElement()
  children = [_child("leg") for _ in range(3)]
  frames = [parent.attach(c) for c in children]
  assert [c.model for c in children] == ["leg", "leg_1", "leg_2"]
  assert [f.full_identifier for f in frames] == ["leg/", "leg_1/", "leg_2/"]
  c = _compile(parent)
  assert _names(c, "name_geomadr") == ["leg/g", "leg_1/g", "leg_2/g"]


def test_default_classes_are_isolated():
  parent = mjcf.RootElement(model="parent")
  parent.default.geom.rgba = [1, 0, 0, 1]
  parent.default.joint.damping = 3
  green = parent.default.add("default", dclass="green")
  green.geom.rgba = [0, 1, 0, 1]
  parent.worldbody.add("geom", name="red_geom", size=[0.1])
  parent.worldbody.add("geom", name="green_geom", size=[0.1], dclass="green")
  child = mjcf.RootElement(model="child")
  child.default.joint.range = [0, 1]
  stiff = child.default.add("default", dclass="stiff")
  stiff.joint.stiffness = 0.1
  green_child = child.default.add("default", dclass="green")  # same class name, no clash
  green_child.geom.rgba = [0, 0.5, 0, 1]
  body = child.worldbody.add("body", name="b", childclass="stiff")
  body.add("joint", name="j1")
  body.add("geom", name="plain", size=[0.1], dclass="green")
  child.worldbody.add("geom", name="child_geom", size=[0.1])
  other = child.worldbody.add("body", name="o")
  other.add("joint", name="j2")
  other.add("geom", size=[0.1])
  parent.attach(child)
  xml = etree.fromstring(parent.to_xml_string())
  classes = [d.get("class") for d in xml.iter("default") if d.get("class")]
  assert classes == ["/", "green", "child/", "child/stiff", "child/green"]
  c = _compile(parent)
  rgba = dict(zip(_names(c, "name_geomadr"), c.arrays["geom_rgba"]))
  np.testing.assert_array_equal(rgba["red_geom"], [1, 0, 0, 1])
  np.testing.assert_array_equal(rgba["green_geom"], [0, 1, 0, 1])
  np.testing.assert_array_equal(rgba["child/child_geom"], [0.5, 0.5, 0.5, 1])  # not red
  np.testing.assert_array_equal(rgba["child/plain"], [0, 0.5, 0, 1])
  joints = _names(c, "name_jntadr")
  j1, j2 = joints.index("child/j1"), joints.index("child/j2")
  assert c.arrays["jnt_stiffness"][j1] == 0.1 and c.arrays["jnt_stiffness"][j2] == 0
  np.testing.assert_allclose(c.arrays["jnt_range"][j1], np.deg2rad([0, 1]))  # via stiff
  assert c.arrays["dof_damping"][j1] == 0 and c.arrays["dof_damping"][j2] == 0  # not parent's
  # inside Python the global defaults still read as the model's <default>
  np.testing.assert_array_equal(child.default.joint.range, [0, 1])


def test_conflicting_global_options():
  model_1 = mjcf.RootElement()
  model_1.compiler.angle = "radian"
  model_2 = mjcf.RootElement()
  model_2.compiler.angle = "degree"
  with pytest.raises(ValueError, match="angle"):
    model_1.attach(model_2)
  assert model_2.parent_model is None and not model_1.find_all("attachment_frame")
  for section, attribute, a, b in [
    ("option", "timestep", 0.01, 0.02),
    ("option", "gravity", [0, 0, -9], [0, 0, -10]),
    ("size", "memory", "1M", "1M"),
    ("visual", None, None, None),
  ]:
    m1, m2 = mjcf.RootElement(), mjcf.RootElement()
    if attribute is None:
      m1.visual.headlight.ambient = [0.1] * 3
      m2.visual.headlight.ambient = [0.2] * 3
    else:
      setattr(getattr(m1, section), attribute, a)
      setattr(getattr(m2, section), attribute, b)
    if section == "size":
      m1.attach(m2)  # equal values do not conflict
    else:
      with pytest.raises(ValueError):
        m1.attach(m2)
  m1, m2 = mjcf.RootElement(), mjcf.RootElement()
  m1.option.flag.gravity = "disable"
  m2.option.flag.gravity = "enable"
  with pytest.raises(ValueError, match="gravity"):
    m1.attach(m2)


def test_options_set_on_one_side_are_merged():
  model_1 = mjcf.RootElement()
  model_1.option.timestep = 0.005
  model_2 = mjcf.RootElement()
  model_2.compiler.angle = "radian"
  model_2.option.timestep = 0.005
  model_2.size.njmax = 100
  model_1.size.njmax = 50
  model_2.compiler.meshdir = "somewhere"  # asset directories stay per model
  model_1.attach(model_2)
  assert model_1.compiler.angle == "radian"
  assert model_1.size.njmax == 100  # buffer sizes take the larger value
  assert model_1.compiler.meshdir is None
  # after attaching, both models see the shared values
  model_2.option.integrator = "RK4"
  assert model_1.option.integrator == "RK4"
  c = _compile(model_1)
  assert c.opt["timestep"] == 0.005 and c.opt["integrator"] == 1
  model_2.detach()
  assert model_2.option.integrator == "RK4" and model_2.compiler.meshdir == "somewhere"
  model_2.option.integrator = "Euler"
  assert model_1.option.integrator == "RK4"


def test_sections_are_merged():
  child = mjcf.RootElement(model="child")
  stl = (_MESHES / "box.stl").read_bytes()
  child.asset.add("mesh", name="box", file=mjcf.Asset(stl, ".stl", "box"))
  child.asset.add("material", name="m")
  body = child.worldbody.add("body", name="b")
  body.add("joint", name="j")
  body.add("geom", type="mesh", mesh="box", material="m")
  s1 = body.add("site", name="s1")
  s2 = body.add("site", name="s2", pos=[0, 0, 1])
  child.tendon.add("spatial", name="t").add("site", site=s1)
  child.tendon.spatial["t"].add("site", site=s2)
  child.actuator.add("motor", name="m", joint="j")
  child.sensor.add("tendonpos", name="tp", tendon="t")
  child.equality.add("joint", name="e", joint1="j", active=False)
  child.contact.add("exclude", body1="b", body2="world")
  parent = mjcf.RootElement(model="parent")
  parent.asset.add("mesh", name="box", file=mjcf.Asset(stl, ".stl", "box"))
  parent.worldbody.add("geom", type="mesh", mesh="box")
  parent.actuator.add("motor", name="m", joint=body.joint["j"])
  parent.attach(child)
  assets = parent.get_assets()
  assert len(assets) == 1  # the same file once
  c = _compile(parent)
  assert c.sizes["nmesh"] == 2 and _names(c, "name_meshadr") == ["box", "child/box"]
  assert _names(c, "name_actuatoradr") == ["m", "child/m"]
  assert _names(c, "name_tendonadr") == ["child/t"]
  assert _names(c, "name_sensoradr") == ["child/tp"]
  assert _names(c, "name_eqadr") == ["child/e"]
  assert c.sizes["nexclude"] == 1 and c.sizes["nmat"] == 1
  assert [a.full_identifier for a in parent.actuator.motor] == ["m", "child/m"]


def test_keyframes_are_padded_for_the_combined_model():
  child = mjcf.RootElement(model="child")
  child.worldbody.add("geom", name="base", size=[0.1])
  body = child.worldbody.add("body", name="b", pos=[0, 0, 1])
  body.add("joint", name="slide", type="slide")
  body.add("joint", name="ball", type="ball")
  body.add("geom", size=[0.1])
  child.actuator.add("motor", name="m", joint="slide")
  child.keyframe.add("key", name="home", qpos=[0.5, 0, 1, 0, 0], ctrl=[0.2])
  parent = mjcf.RootElement(model="parent")
  parent.compiler.angle = "radian"
  hinge_body = parent.worldbody.add("body", name="h")
  hinge_body.add("joint", name="hinge", ref=0.25)
  hinge_body.add("geom", size=[0.1])
  parent.actuator.add("motor", name="pm", joint="hinge")
  parent.keyframe.add("key", name="start", qpos=[0.75], qvel=[1])
  frame = parent.worldbody.add("site", pos=[0, 0, 2]).attach(child)
  frame.add("freejoint")
  c = _compile(parent)
  assert _names(c, "name_keyadr") == ["start", "child/home"]
  # qpos: hinge (1), frame free joint (7), slide (1), ball (4)
  np.testing.assert_allclose(c.arrays["key_qpos"][0], [0.75, 0, 0, 2, 1, 0, 0, 0, 0, 1, 0, 0, 0])
  np.testing.assert_allclose(c.arrays["key_qpos"][1], [0.25, 0, 0, 2, 1, 0, 0, 0, 0.5, 0, 1, 0, 0])
  np.testing.assert_allclose(c.arrays["key_qvel"][0], [1] + [0] * 10)
  np.testing.assert_allclose(c.arrays["key_ctrl"][1], [0, 0.2])
  # a key written for the model with its frame joints, or for the whole subtree, is used as is
  key = parent.keyframe.key["start"]
  key.qpos = [0.5, 0, 0, 3, 1, 0, 0, 0]
  np.testing.assert_allclose(
    _compile(parent).arrays["key_qpos"][0], [0.5, 0, 0, 3, 1, 0, 0, 0, 0, 1, 0, 0, 0]
  )
  full = [0.1, 0, 0, 2.5, 0, 1, 0, 0, 0.3, 0, 0, 1, 0]
  key.qpos = full
  np.testing.assert_allclose(_compile(parent).arrays["key_qpos"][0], full)
  key.qpos = [1, 2]
  with pytest.raises(ValueError, match="start"):
    parent.to_xml_string()


def test_keyframes_pad_mocap_poses():
  parent = mjcf.RootElement(model="parent")
  target = parent.worldbody.add("body", name="target", mocap=True, pos=[1, 2, 3])
  target.add("geom", size=[0.1], contype=0, conaffinity=0)
  parent.keyframe.add("key", name="k", mpos=[4, 5, 6], mquat=[0, 1, 0, 0])
  frame = parent.attach(_child())
  frame.mocap = True  # the attached model follows a mocap frame
  frame.pos = [7, 8, 9]
  c = _compile(parent)
  np.testing.assert_allclose(c.arrays["key_mpos"][0], [4, 5, 6, 7, 8, 9])
  np.testing.assert_allclose(c.arrays["key_mquat"][0], [0, 1, 0, 0, 1, 0, 0, 0])


def test_deep_attachment_trees():
  models = [_child(f"level{i}") for i in range(4)]
  for upper, lower in zip(models, models[1:]):
    upper.find("body", "b").add("site", name="mount", pos=[0, 0, 1]).attach(lower)
  root = mjcf.RootElement(model="root")
  root.attach(models[0])
  deepest = models[-1].find("geom", "g")
  assert deepest.full_identifier == "level0/level1/level2/level3/g"
  assert root.find("geom", "level0/level1/level2/level3/g") is deepest
  assert models[-1].root_model is root and models[-1].parent_model is models[-2]
  assert len(root.find_all("joint")) == 4
  c = _compile(root)
  assert "level0/level1/level2/level3/g" in _names(c, "name_geomadr")
  assert c.sizes["nbody"] == 1 + 4 * 2
  # frame nesting: each level's frame sits in the body of the level above
  b0 = _body_id(c, "level0/b")
  f1 = _body_id(c, "level0/level1/")
  assert c.arrays["body_parentid"][f1] == b0


def test_a_model_is_attached_once():
  parent = mjcf.RootElement()
  child = _child()
  parent.attach(child)
  with pytest.raises(ValueError, match="already attached"):
    mjcf.RootElement().attach(child)
  with pytest.raises(ValueError):
    child.attach(parent)  # no cycles
  with pytest.raises(ValueError):
    parent.attach(parent)
  with pytest.raises(ValueError):
    parent.attach(child.worldbody)


def test_detach():
  parent = mjcf.RootElement()
  parent.worldbody.add("geom", size=[1])
  child = _child()
  frame = parent.attach(child)
  frame.add("freejoint")
  child.detach()
  assert child.parent_model is None and frame.is_removed
  assert parent.find("geom", "child/g") is None and parent.find_all("attachment_frame") == []
  assert len(parent.find_all("joint")) == 0
  assert "child" not in parent.to_xml_string()
  parent.attach(child)  # can be attached again
  with pytest.raises(RuntimeError):
    parent.detach()


def test_removing_a_frame_holder_needs_affect_attachments():
  parent = mjcf.RootElement()
  body = parent.worldbody.add("body")
  child = _child()
  body.add("site").attach(child)
  with pytest.raises(ValueError):
    body.remove()
  body.remove(affect_attachments=True)
  assert child.parent_model is None


def test_model_rename_after_attachment():
  parent = mjcf.RootElement()
  child = _child()
  parent.attach(child)
  child.model = "renamed"
  assert parent.find("geom", "renamed/g") is child.find("geom", "g")
  assert parent.find("attachment_frame", "renamed") is not None
  assert "renamed/g" in parent.to_xml_string()


def test_deepcopy_is_independent():
  parent = mjcf.RootElement(model="parent")
  site = parent.worldbody.add("site", name="s", pos=[1, 0, 0])
  child = _child(base=True)
  frame = site.attach(child)
  frame.add("freejoint")
  parent.actuator.add("motor", name="pm", joint=child.find("joint", "j"))
  parent.keyframe.add("key", name="k", qpos=[0, 0, 0, 1, 0, 0, 0, 0.1])
  dup = copy.deepcopy(parent)
  assert dup.to_xml_string() == parent.to_xml_string()
  assert dup.is_same_as(parent)
  new_joint = dup.find("joint", "child/j")
  assert new_joint is not child.find("joint", "j")
  assert dup.find("actuator", "pm").joint is new_joint  # references follow the copy
  dup.find("geom", "child/g").rgba = [1, 1, 1, 1]
  assert child.find("geom", "g").rgba is None
  assert copy.copy(child).model == "child"
  # copies of one model can be attached many times
  arena = mjcf.RootElement()
  for _ in range(3):
    arena.attach(copy.deepcopy(_child("c")))
  assert [m.model for m in arena.namescope.identifiers("attached_model").values()] == [
    "c",
    "c_1",
    "c_2",
  ]


def test_attach_inside_mujoco_frames():
  parent = mjcf.RootElement()
  group = parent.worldbody.add("frame", name="group", pos=[0, 0, 1])
  frame = group.attach(_child())
  assert frame.parent is group
  c = _compile(parent)
  np.testing.assert_allclose(c.arrays["body_pos"][_body_id(c, "child/")], [0, 0, 1])


def test_include_copy_merges_content():
  model = mjcf.RootElement(model="main")
  model.option.timestep = 0.01
  other = mjcf.RootElement(model="other")
  body = other.worldbody.add("body", name="b")
  joint = body.add("joint", name="j")
  body.add("geom", size=[0.1])
  other.actuator.add("motor", name="m", joint=joint)
  model.include_copy(other)
  assert model.find("actuator", "m").joint is model.find("joint", "j")
  assert model.find("joint", "j") is not joint
  other.option.timestep = 0.02
  with pytest.raises(ValueError):
    model.include_copy(other)
  other.worldbody.body["b"].remove()
  other.actuator.motor["m"].remove()
  model.include_copy(other, override_attributes=True)
  assert model.option.timestep == 0.02
