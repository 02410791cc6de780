"""traversal_utils: attachment frames, free joints, committing defaults."""

import numpy as np

import mjcf
from engine.compiler import compile_model


def _child(name="child"):
  child = mjcf.RootElement(model=name)
  child.worldbody.add("geom", name="base", size=[0.1])
  return child


def test_attachment_frame_helpers():
  parent = mjcf.RootElement()
  child = _child()
  assert mjcf.get_attachment_frame(child) is None
  assert mjcf.get_frame_freejoint(child) is None and mjcf.get_frame_joints(child) is None
  frame = parent.attach(child)
  assert mjcf.get_attachment_frame(child) is frame
  assert mjcf.traversal_utils.get_attachment_frame(child) is frame
  assert frame is parent.find("attachment_frame", "child")
  assert mjcf.get_frame_freejoint(child) is None and mjcf.get_frame_joints(child) == []
  free = frame.add("freejoint")
  assert mjcf.get_frame_freejoint(child) is free
  assert mjcf.get_frame_joints(child) == [free]
  other = _child("other")
  other_frame = parent.attach(other)
  slide = other_frame.add("joint", type="slide")
  assert mjcf.get_frame_joints(other) == [slide] and mjcf.get_frame_freejoint(other) is None
  free_by_type = other_frame.add("joint", type="free")
  assert mjcf.get_frame_freejoint(other) is free_by_type


def test_get_freejoint():
  model = mjcf.RootElement()
  body = model.worldbody.add("body")
  assert mjcf.get_freejoint(body) is None
  free = body.add("freejoint")
  assert mjcf.get_freejoint(body) is free
  assert mjcf.get_freejoint(model.worldbody) is None
  assert mjcf.get_freejoint(None) is None


def _defaults_model():
  model = mjcf.RootElement(model="m")
  model.default.geom.rgba = [1, 0, 0, 1]
  model.default.geom.size = [0.2]
  model.default.joint.damping = 2
  big = model.default.add("default", dclass="big")
  big.geom.size = [0.5]
  big.joint.armature = 0.1
  small = big.add("default", dclass="small")
  small.geom.size = [0.05]
  model.default.motor.gear = [3]
  body = model.worldbody.add("body", name="b", childclass="big")
  body.add("joint", name="j")
  body.add("geom", name="inherits_big")
  body.add("geom", name="small", dclass="small")
  body.add("geom", name="explicit", dclass="small", rgba=[0, 0, 1, 1])
  model.worldbody.add("geom", name="plain")
  model.actuator.add("motor", name="m", joint="j")
  return model


def test_commit_defaults_writes_what_the_classes_give():
  model = _defaults_model()
  before = compile_model(xml=model.to_xml_string())
  mjcf.commit_defaults(model)
  g = {n: model.find("geom", n) for n in ("inherits_big", "small", "explicit", "plain")}
  np.testing.assert_array_equal(g["inherits_big"].size, [0.5])
  np.testing.assert_array_equal(g["small"].size, [0.05])
  np.testing.assert_array_equal(g["explicit"].rgba, [0, 0, 1, 1])  # explicit values stay
  np.testing.assert_array_equal(g["small"].rgba, [1, 0, 0, 1])  # from the global class
  np.testing.assert_array_equal(g["plain"].size, [0.2])
  joint = model.find("joint", "j")
  assert joint.damping.tolist() == [2] and joint.armature == 0.1
  np.testing.assert_array_equal(model.find("actuator", "m").gear, [3])
  # the compiled model does not change, and no longer depends on the classes
  after = compile_model(xml=model.to_xml_string())
  for field in ("geom_size", "geom_rgba", "dof_damping", "dof_armature", "actuator_gear"):
    np.testing.assert_array_equal(before.arrays[field], after.arrays[field])
  model.default.geom.rgba = [0, 1, 0, 1]
  model.default.default["big"].geom.size = [9]
  changed = compile_model(xml=model.to_xml_string())
  np.testing.assert_array_equal(changed.arrays["geom_size"], before.arrays["geom_size"])


def test_commit_defaults_selected_attributes_and_attached_models():
  model = _defaults_model()
  mjcf.commit_defaults(model.find("body", "b"), attributes=["size"])
  assert model.find("geom", "small").rgba is None
  np.testing.assert_array_equal(model.find("geom", "small").size, [0.05])
  assert model.find("geom", "plain").size is None  # outside the element
  parent = mjcf.RootElement()
  parent.default.geom.rgba = [0, 1, 0, 1]
  child = _defaults_model()
  parent.attach(child)
  mjcf.commit_defaults(parent)
  np.testing.assert_array_equal(child.find("geom", "plain").rgba, [1, 0, 0, 1])  # its own


def test_commit_defaults_keeps_every_test_model_the_same():
  """Committing all defaults into a model's elements compiles (MuJoCo) to the same model.

  An element's own orientation (or a closer class's) replaces a default's other orientation
  specifier, and a camera's sensorsize a default fovy, so those are not committed.
  """
  import glob
  import os

  import mujoco

  root = os.path.join(os.path.dirname(os.path.dirname(__file__)), "models")
  checked = 0
  for path in sorted(glob.glob(os.path.join(root, "**", "*.xml"), recursive=True)):
    if os.sep + "parts" + os.sep in path:
      continue  # fragments included by other models
    model = mjcf.from_path(path)
    before = mujoco.MjModel.from_xml_string(model.to_xml_string(), model.get_assets())
    mjcf.commit_defaults(model)
    after = mujoco.MjModel.from_xml_string(model.to_xml_string(), model.get_assets())
    for name in dir(before):
      value = getattr(before, name)
      if not name.startswith("_") and isinstance(value, np.ndarray) and value.dtype != object:
        np.testing.assert_array_equal(
          getattr(after, name), value, err_msg=f"{os.path.relpath(path, root)}: {name}"
        )
    checked += 1
  assert checked >= 40
