"""find and find_all: namespaces, declaration order, attached models, attachment frames."""

import pytest

import mjcf


def _model():
  model = mjcf.RootElement(model="parent")
  foo = model.worldbody.add("body", name="foo")
  foo.add("freejoint", name="free")
  bar = foo.add("body", name="bar")
  hinge = bar.add("joint", name="my_hinge")
  bar.add("geom", name="my_geom", size=[1])
  site = bar.add("site", name="mount")
  model.worldbody.add("geom", name="floor", type="plane", size=[1, 1, 1])
  model.actuator.add("motor", name="m", joint=hinge)
  model.actuator.add("position", name="p", joint=hinge)
  return model, foo, bar, site


def _child(name="child"):
  child = mjcf.RootElement(model=name)
  arm = child.worldbody.add("body", name="arm")
  arm.add("joint", name="shoulder")
  arm.add("geom", name="my_geom", size=[1])
  child.actuator.add("velocity", name="v", joint=arm.joint[0])
  return child


def test_find_by_namespace_and_identifier():
  model, foo, bar, _ = _model()
  assert model.find("body", "foo") is foo
  assert model.find("geom", "my_geom") is bar.geom[0]
  assert model.find("joint", "free") is foo.freejoint
  assert model.find("actuator", "p").tag == "position"
  assert model.find("geom", "foo") is None
  assert model.find("body", "missing") is None
  # below an element: only its descendants
  assert bar.find("geom", "my_geom") is bar.geom[0]
  assert bar.find("geom", "floor") is None
  with pytest.raises(ValueError):
    model.find("bogus", "foo")
  with pytest.raises(ValueError):
    model.find("body", 3)
  with pytest.raises(ValueError):
    model.find(None, "foo")


def test_find_all_in_declaration_order():
  model, foo, bar, _ = _model()
  joints = model.find_all("joint")
  assert joints == [foo.freejoint, bar.joint[0]]  # a freejoint counts as a joint
  assert [g.name for g in model.find_all("geom")] == ["my_geom", "floor"]
  assert [a.name for a in model.find_all("actuator")] == ["m", "p"]
  assert model.find_all("body") == [foo, bar]
  assert foo.find_all("body") == [bar]
  assert model.worldbody.find_all("geom", immediate_children_only=True) == [
    model.find("geom", "floor")
  ]
  with pytest.raises(ValueError):
    model.find_all("bogus")


def test_find_into_attached_models():
  model, foo, bar, site = _model()
  child = _child()
  frame = site.attach(child)
  grandchild = _child("grand")
  child.find("body", "arm").attach(grandchild)
  arm = child.find("body", "arm")
  assert model.find("body", "child/arm") is arm
  assert model.find("geom", "child/my_geom") is child.find("geom", "my_geom")
  assert model.find("geom", "child/grand/my_geom") is grandchild.find("geom", "my_geom")
  assert model.find("geom", "nobody/my_geom") is None
  assert model.find("geom", "child/missing") is None
  assert model.find("attachment_frame", "child") is frame
  assert model.find("attachment_frame", "child/grand") is grandchild.parent_model.find(
    "attachment_frame", "grand"
  )
  assert bar.find("body", "child/arm") is arm  # the frame is inside bar
  assert model.find("geom", "floor").parent.find("geom", "child/my_geom") is not None
  assert model.enter_scope("child") is child
  assert model.enter_scope("child/grand") is grandchild
  assert model.enter_scope("nobody") is None


def test_find_all_with_attachments():
  model, foo, bar, site = _model()
  child = _child()
  frame = site.attach(child)
  slide = frame.add("joint", type="slide")  # a frame below a body takes no freejoint
  geoms = model.find_all("geom")
  assert [g.full_identifier for g in geoms] == ["my_geom", "child/my_geom", "floor"]
  own = model.find_all("geom", exclude_attachments=True)
  assert [g.full_identifier for g in own] == ["my_geom", "floor"]
  bodies = model.find_all("body")
  assert bodies == [foo, bar, frame, child.find("body", "arm")]  # frames count as bodies
  assert model.find_all("body", exclude_attachments=True) == [foo, bar, frame]
  joints = model.find_all("joint")
  assert joints == [foo.freejoint, bar.joint[0], slide, child.find("joint", "shoulder")]
  assert [a.full_identifier for a in model.find_all("actuator")] == ["m", "p", "child/v"]
  assert model.find_all("attachment_frame") == [frame]
  assert bar.find_all("geom", immediate_children_only=True) == [bar.geom[0]]
  assert child.find_all("geom") == [child.find("geom", "my_geom")]


def test_list_views_include_attached_elements():
  model, _, bar, site = _model()
  child = _child()
  frame = site.attach(child)
  assert frame.all_children() == [child.find("body", "arm")]
  with pytest.raises(AttributeError):
    frame.add("geom", size=[1])  # only joints and an inertial go on a frame
  assert [a.full_identifier for a in model.actuator.velocity] == ["child/v"]
  assert model.actuator.velocity["child/v"] is child.find("actuator", "v")
  assert len(model.actuator.motor) == 1
