"""Element API: creation, typed attributes, validation, children, removal, XML output."""

import copy

import numpy as np
import pytest
from lxml import etree

import mjcf
from engine.compiler import schema


def _model():
  model = mjcf.RootElement(model="test")
  body = model.worldbody.add("body", name="foo", pos=[0, 1, 2])
  body.add("joint", name="hinge", type="hinge", axis=[0, 1, 0], range=[-1, 1])
  body.add("geom", name="ball", type="sphere", size=[0.1], rgba=[1, 0, 0, 1])
  return model, body


def test_root_element_and_repr():
  model = mjcf.RootElement()
  assert model.model == "unnamed_model"
  assert str(model) == '<mujoco model="unnamed_model"/>'
  assert repr(model).startswith("MJCF Element: <mujoco")
  named = mjcf.RootElement(model="arm")
  assert named.model == "arm" and named.namescope.name == "arm"
  assert isinstance(named, mjcf.Element)
  assert named.root is named and named.parent is None


def test_add_returns_child_with_attributes():
  model, body = _model()
  geom = body.geom["ball"]
  assert geom.tag == "geom" and geom.parent is body and geom.root is model
  assert geom.namescope is model.namescope
  assert geom.name == "ball" and geom.type == "sphere"
  assert str(geom) == '<geom name="ball" type="sphere" size="0.1" rgba="1 0 0 1"/>'


def test_typed_attribute_values():
  model, body = _model()
  assert isinstance(body.pos, np.ndarray) and body.pos.dtype == np.float64
  np.testing.assert_array_equal(body.pos, [0, 1, 2])
  joint = body.joint["hinge"]
  joint.damping = "0.5 0.1"
  np.testing.assert_array_equal(joint.damping, [0.5, 0.1])
  joint.armature = "0.25"
  assert joint.armature == 0.25 and isinstance(joint.armature, float)
  geom = body.geom["ball"]
  geom.condim = 4.0
  assert geom.condim == 4 and isinstance(geom.condim, int)
  joint.actuatorgravcomp = "true"
  assert joint.actuatorgravcomp is True
  joint.limited = True
  assert joint.limited == "true"
  model.option.integrator = "rk4"
  assert model.option.integrator == "RK4"
  sensor = model.sensor.add("contact", name="c", geom1=geom, data=["found", "force"])
  assert sensor.data == "found force"
  numeric = model.custom.add("numeric", name="n", data=[1, 2, 3])
  np.testing.assert_array_equal(numeric.data, [1, 2, 3])
  model.option.actuatorgroupdisable = [1, 2]
  assert model.option.actuatorgroupdisable.dtype.kind == "i"
  assert body.mocap is None  # not set: defaults are not filled in


def test_attribute_validation_errors():
  model, body = _model()
  geom = body.geom["ball"]
  with pytest.raises(AttributeError):
    geom.poss  # pylint: disable=pointless-statement
  with pytest.raises(AttributeError):
    geom.poss = [1, 2, 3]
  with pytest.raises(AttributeError):
    body.add("geom", sizes=[1])
  with pytest.raises(ValueError):
    geom.pos = "invalid"
  with pytest.raises(ValueError):
    geom.pos = [1, 2, 3, 4, 5, 6]
  with pytest.raises(ValueError):
    geom.pos = [1, 2]
  with pytest.raises(ValueError):
    geom.size = [1, 2, 3, 4]
  with pytest.raises(ValueError):
    geom.condim = 1.5
  with pytest.raises(ValueError):
    geom.type = "cube"
  with pytest.raises(ValueError):
    geom.rgba = [[1, 0, 0, 1]]
  with pytest.raises(ValueError):
    geom.name = 3
  with pytest.raises(ValueError):
    model.sensor.add("contact", data="found bogus")
  # a failed add leaves no trace
  with pytest.raises(ValueError):
    body.add("geom", name="bad", pos="a b c")
  assert model.find("geom", "bad") is None
  assert len(body.geom) == 1


def test_required_attributes():
  model, body = _model()
  with pytest.raises(ValueError):
    body.add("inertial", pos=[0, 0, 0])  # mass is required
  inertial = body.add("inertial", pos=[0, 0, 0], mass=1)
  with pytest.raises(ValueError):
    del inertial.mass
  assert inertial.mass == 1
  with pytest.raises(ValueError):
    del inertial.pos  # required too
  np.testing.assert_array_equal(inertial.pos, [0, 0, 0])
  with pytest.raises(ValueError):
    model.sensor.add("jointpos")  # joint is required


def test_delete_attribute():
  model, body = _model()
  geom = body.geom["ball"]
  geom.quat = [0, 1, 0, 0]
  np.testing.assert_array_equal(geom.quat, [0, 1, 0, 0])
  del geom.quat
  assert geom.quat is None
  geom.rgba = None
  assert geom.rgba is None
  assert "rgba" not in geom.get_attributes()


def test_dclass_and_class():
  model = mjcf.RootElement()
  red = model.default.add("default", dclass="red")
  assert red.dclass == "red" and getattr(red, "class") == "red"
  geom = model.worldbody.add("geom", dclass="red", size=[1])
  assert geom.dclass == "red" and getattr(geom, "class") == "red"
  setattr(geom, "class", "blue")
  assert geom.dclass == "blue"
  assert "dclass" in dir(geom) and "class" not in dir(geom)
  assert geom.get_attributes()["dclass"] == "blue"


def test_singleton_and_repeated_children():
  model = mjcf.RootElement()
  for tag in (
    "worldbody",
    "option",
    "compiler",
    "size",
    "visual",
    "asset",
    "actuator",
    "sensor",
    "default",
    "keyframe",
    "contact",
    "equality",
    "tendon",
  ):
    child = getattr(model, tag)
    assert isinstance(child, mjcf.Element) and child.tag == tag
    with pytest.raises(ValueError):
      model.add(tag)
  assert model.option.flag.tag == "flag"
  assert model.visual.headlight.tag == "headlight"
  body = model.worldbody.add("body")
  assert body.inertial is None and body.freejoint is None  # on demand
  free = body.add("freejoint")
  assert body.freejoint is free
  with pytest.raises(ValueError):
    body.add("freejoint")
  assert len(body.geom) == 0
  g1 = body.add("geom", name="a", size=[1])
  g2 = body.add("geom", size=[1])
  assert list(body.geom) == [g1, g2] and body.geom[1] is g2 and body.geom["a"] is g1
  assert body.geom[-1] is g2 and body.geom[0:1] == [g1]
  with pytest.raises(KeyError):
    body.geom["missing"]
  with pytest.raises(AttributeError):
    body.add("worldbody")
  with pytest.raises(ValueError):  # invalid children are also ValueErrors
    body.add("motor")


def test_same_tag_in_different_contexts():
  model = mjcf.RootElement()
  body = model.worldbody.add("body", name="b")
  joint = body.add("joint", name="j")
  fixed = model.tendon.add("fixed", name="t")
  tjoint = fixed.add("joint", joint=joint, coef=2)
  eq = model.equality.add("joint", joint1=joint)
  dj = model.default.joint
  assert {joint.spec.key, tjoint.spec.key, eq.spec.key, dj.spec.key} == {
    "body/joint",
    "tendon/fixed/joint",
    "equality/joint",
    "default/joint",
  }
  assert tjoint.coef == 2 and tjoint.joint is joint
  with pytest.raises(AttributeError):
    tjoint.axis = [1, 0, 0]
  with pytest.raises(AttributeError):
    dj.name = "x"  # defaults have no names


def test_specs_come_from_engine_schema():
  model = mjcf.RootElement()
  geom = model.worldbody.add("geom", size=[1])
  assert set(geom.spec.attributes) == set(schema.ELEMENTS["geom"].attrs)
  assert set(model.worldbody.spec.children) == set(schema.ELEMENTS["worldbody"].children)


def test_remove():
  model, body = _model()
  geom = body.geom["ball"]
  actuator = model.actuator.add("motor", name="m", joint=body.joint["hinge"])
  body.joint["hinge"].remove()
  assert actuator.joint is None  # a reference to a removed element is dead
  geom.remove()
  assert geom.is_removed and geom.parent is None
  assert model.find("geom", "ball") is None
  body.add("geom", name="ball", size=[1])  # the name is free again
  model.option.timestep = 0.01
  model.option.flag.gravity = "disable"
  model.option.remove()  # singletons are cleared, not removed
  assert model.option.timestep is None and model.option.flag.gravity is None
  assert model.option.parent is model
  del body.geom[0]
  assert len(body.geom) == 0
  body.remove()
  assert model.find("body", "foo") is None and len(model.worldbody.body) == 0


def test_eq_and_hash_are_identity():
  model, body = _model()
  other, _ = _model()
  assert body == model.find("body", "foo")
  assert body != other.find("body", "foo")
  assert len({body, model.find("body", "foo"), other.find("body", "foo")}) == 2
  assert body.is_same_as(other.find("body", "foo"))
  other.find("geom", "ball").rgba = [0, 1, 0, 1]
  assert not body.is_same_as(other.find("body", "foo"))
  assert model.is_same_as(_model()[0])


def test_get_and_set_attributes():
  model, body = _model()
  geom = body.geom["ball"]
  attrs = geom.get_attributes()
  assert list(attrs) == ["name", "type", "size", "rgba"]
  geom.set_attributes(pos=[1, 2, 3], dclass="c")
  np.testing.assert_array_equal(geom.pos, [1, 2, 3])
  assert geom.dclass == "c"
  with pytest.raises(ValueError):
    geom.set_attributes(pos=[4, 5, 6], size="bad")
  np.testing.assert_array_equal(geom.pos, [1, 2, 3])  # nothing changed
  assert geom.get_attribute_xml_string("pos") == "1 2 3"


def test_parent_root_namescope_full_identifier_all_children():
  model, body = _model()
  geom = body.geom["ball"]
  assert geom.parent is body and body.parent is model.worldbody
  assert geom.root is model and model.worldbody.root is model
  assert geom.full_identifier == "ball"
  unnamed = body.add("site")
  assert unnamed.full_identifier == "//unnamed_site_0"
  assert body.all_children() == [body.joint["hinge"], geom, unnamed]
  assert model.worldbody.full_identifier == "world"


def test_to_xml_string_options():
  model = mjcf.RootElement(model="m")
  model.worldbody.add("geom", name="g", size=[0.1 + 0.2], pos=[1e-12, 1.0 / 3, -2])
  text = model.to_xml_string()
  assert 'pos="1e-12 0.3333333333333333 -2"' in text and 'size="0.30000000000000004"' in text
  text = model.to_xml_string(precision=5, zero_threshold=1e-9)
  assert 'pos="0 0.33333 -2"' in text and 'size="0.3"' in text
  compact = model.to_xml_string(pretty_print=False)
  assert "\n" not in compact.strip()
  root = etree.fromstring(text)
  assert root.tag == "mujoco" and root.get("model") == "m"
  xml = model.to_xml()
  assert isinstance(xml, etree._Element) and xml.find("worldbody/geom").get("name") == "g"
  assert model.worldbody.to_xml_string(self_only=True) == "<worldbody>...</worldbody>\n"


def test_empty_singletons_are_not_written():
  model = mjcf.RootElement(model="m")
  text = model.to_xml_string(pretty_print=False)
  assert text == '<mujoco model="m"><default><default class="/"/></default></mujoco>'
  model.visual.headlight.ambient = [0.1, 0.2, 0.3]
  assert '<visual><headlight ambient="0.1 0.2 0.3"/></visual>' in model.to_xml_string(
    pretty_print=False
  )


def test_list_view_clear_and_repr():
  model = mjcf.RootElement()
  for i in range(3):
    model.worldbody.add("geom", name=f"g{i}", size=[1])
  assert "g1" in repr(model.worldbody.geom)
  model.worldbody.geom.clear()
  assert len(model.worldbody.geom) == 0


def test_children_cannot_be_assigned_or_deleted():
  model = mjcf.RootElement()
  with pytest.raises(AttributeError):
    model.worldbody = None
  with pytest.raises(AttributeError):
    del model.worldbody.body
  with pytest.raises(AttributeError):
    model.tag = "x"


def test_only_models_are_copied():
  model, body = _model()
  with pytest.raises(TypeError):
    copy.deepcopy(body)
