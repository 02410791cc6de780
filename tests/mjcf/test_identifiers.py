"""Identifiers (unique per namespace) and references (Elements or names, scoped on export)."""

import pytest
from lxml import etree

import engine
import mjcf


def test_identifiers_are_unique_per_namespace():
  model = mjcf.RootElement()
  model.worldbody.add("geom", name="my_geom", size=[1])
  foo = model.worldbody.add("body", name="foo")
  with pytest.raises(ValueError):
    foo.add("geom", name="my_geom", size=[1])
  foo.add("geom", name="foo", size=[1])  # a geom may share a body's name
  with pytest.raises(ValueError):
    model.find("geom", "foo").name = "my_geom"
  assert model.find("geom", "foo") is not None
  model.actuator.add("position", name="act", joint="j")
  with pytest.raises(ValueError):  # all actuator kinds share one namespace
    model.actuator.add("velocity", name="act", joint="j")
  model.sensor.add("jointpos", name="act", joint="j")  # sensors have their own
  model.default.add("default", dclass="c")
  with pytest.raises(ValueError):
    model.default.add("default", dclass="c")
  with pytest.raises(ValueError):
    model.worldbody.add("body", name="world")


def test_renaming_updates_the_namescope():
  model = mjcf.RootElement()
  geom = model.worldbody.add("geom", name="a", size=[1])
  geom.name = "b"
  assert model.find("geom", "a") is None and model.find("geom", "b") is geom
  model.worldbody.add("geom", name="a", size=[1])
  del geom.name
  assert model.find("geom", "b") is None
  assert geom.full_identifier == "//unnamed_geom_0"


def test_names_cannot_contain_separators():
  model = mjcf.RootElement()
  with pytest.raises(ValueError):
    model.worldbody.add("body", name="a/b")
  with pytest.raises(ValueError):
    model.actuator.add("motor", joint="child/hinge")
  with pytest.raises(ValueError):
    mjcf.RootElement(model="a/b")


def test_references_accept_elements_and_names():
  model = mjcf.RootElement()
  body = model.worldbody.add("body", name="b")
  hinge = body.add("joint", name="hinge")
  body.add("geom", size=[1])
  by_element = model.actuator.add("velocity", joint=hinge)
  by_name = model.actuator.add("motor", joint="hinge")
  assert by_element.joint is hinge and by_name.joint == "hinge"
  # an element reference follows renames; a name does not
  hinge.name = "renamed"
  xml = etree.fromstring(model.to_xml_string())
  acts = xml.find("actuator")
  assert acts[0].get("joint") == "renamed" and acts[1].get("joint") == "hinge"
  with pytest.raises(ValueError):
    by_element.joint = body  # a body is not a joint
  with pytest.raises(ValueError):
    by_element.joint = 3
  by_element.joint = model.worldbody.add("body", name="c").add("freejoint", name="f")
  assert by_element.joint.tag == "freejoint"


def test_body_references_accept_worldbody_and_frames():
  model = mjcf.RootElement()
  child = mjcf.RootElement(model="child")
  child.worldbody.add("geom", size=[1])
  frame = model.attach(child)
  frame.add("freejoint")
  weld = model.equality.add("weld", body1=frame, body2=model.worldbody)
  xml = etree.fromstring(model.to_xml_string())
  assert xml.find("equality/weld").get("body1") == "child/"
  assert xml.find("equality/weld").get("body2") == "world"
  assert weld.body1 is frame


def test_indirect_references_set_their_type():
  model = mjcf.RootElement()
  body = model.worldbody.add("body", name="b")
  site = body.add("site", name="s")
  sensor = model.sensor.add("framepos", objtype="body", objname="b")
  sensor.objname = site
  assert sensor.objtype == "site"
  xsensor = model.sensor.add("framequat", objtype="xbody", objname=body)
  assert xsensor.objtype == "xbody"  # a body may be read as an xbody
  with pytest.raises(ValueError):
    model.sensor.add("framepos", objtype="site", objname=model.actuator.add("motor", joint="j"))


def test_unnamed_elements_get_unique_generated_names():
  model = mjcf.RootElement()
  body = model.worldbody.add("body")
  g0 = body.add("geom", size=[1])
  g1 = model.worldbody.add("geom", size=[1])
  assert body.full_identifier == "//unnamed_body_0"
  assert (g0.full_identifier, g1.full_identifier) == ("//unnamed_geom_0", "//unnamed_geom_1")
  child = mjcf.RootElement(model="c")
  g2 = child.worldbody.add("geom", size=[1])
  model.attach(child)
  assert g2.full_identifier == "c//unnamed_geom_0"
  compiled = engine.MjModel.from_xml_string(model.to_xml_string())
  names = [engine.mj_id2name(compiled, engine.mjtObj.mjOBJ_GEOM, i) for i in range(3)]
  assert names == ["//unnamed_geom_1", "//unnamed_geom_0", "c//unnamed_geom_0"]


def test_references_are_scoped_on_export():
  child = mjcf.RootElement(model="child")
  arm = child.worldbody.add("body", name="arm")
  shoulder = arm.add("joint", name="shoulder")
  arm.add("geom", size=[0.1])
  tip = arm.add("site", name="tip")
  child.actuator.add("motor", name="by_name", joint="shoulder")
  child.actuator.add("motor", name="by_element", joint=shoulder)
  child.sensor.add("framepos", name="tip_pos", objtype="site", objname="tip")
  child.tendon.add("fixed", name="t").add("joint", joint="shoulder", coef=1)
  parent = mjcf.RootElement(model="parent")
  parent.attach(child)
  # the parent may refer to the child's elements by Element
  parent.sensor.add("jointpos", name="shoulder_pos", joint=shoulder)
  parent.sensor.add("framepos", name="tip_pos", objtype="site", objname=tip)
  xml = etree.fromstring(parent.to_xml_string())
  motors = xml.findall("actuator/motor")
  assert [(m.get("name"), m.get("joint")) for m in motors] == [
    ("child/by_name", "child/shoulder"),
    ("child/by_element", "child/shoulder"),
  ]
  sensors = xml.find("sensor")
  assert [(s.get("name"), s.get("joint") or s.get("objname")) for s in sensors] == [
    ("shoulder_pos", "child/shoulder"),
    ("tip_pos", "child/tip"),
    ("child/tip_pos", "child/tip"),
  ]
  assert xml.find("tendon/fixed/joint").get("joint") == "child/shoulder"
  compiled = engine.MjModel.from_xml_string(parent.to_xml_string())
  assert compiled.nsensor == 3 and compiled.nu == 2
  # exported alone, the child's names are its own
  alone = etree.fromstring(child.to_xml_string())
  assert alone.find("actuator/motor").get("joint") == "shoulder"
