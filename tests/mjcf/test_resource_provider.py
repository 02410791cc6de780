"""mjcf reads models, includes and asset files through resource providers, as the compiler does.

The zip provider and the robot (two includes, STL/OBJ meshes, PNG and cube textures, a PNG
height field, a .skn skin) are tests/engine/test_resource_provider.py's.
"""

import numpy as np
import pytest

import engine
import mjcf
from engine.compiler import assets as A
from tests.engine.test_resource_provider import ZipProvider
from tests.engine.test_resource_provider import data_uri
from tests.engine.test_resource_provider import obj_bytes
from tests.engine.test_resource_provider import registered
from tests.engine.test_resource_provider import robot_files

_FIELDS = (
  "mesh_vert",
  "mesh_face",
  "tex_data",
  "hfield_data",
  "body_mass",
  "body_inertia",
  "geom_size",
  "skin_vert",
  "skin_bonevertweight",
)


def _same(m1, m2, fields=_FIELDS):
  for name in fields:
    np.testing.assert_array_equal(getattr(m1, name), getattr(m2, name), err_msg=name)


def test_from_path_reads_through_the_provider():
  files = robot_files()
  with registered("zip", ZipProvider(files)) as zp:
    robot = mjcf.from_path("zip:models/robot.xml")
    ref = engine.MjModel.from_xml_path("zip:models/robot.xml")
  assert "zip:models/parts/bodies.xml" in zp.opened  # nested include, next to its includer
  assert robot.worldbody.body["upper"].body["lower"] is not None
  assert robot.asset.mesh["tet_stl"].file.contents == files["models/meshes/tet.stl"]
  assert robot.asset.mesh["tet_obj"].file.extension == ".obj"
  sky = robot.asset.texture["sky"]
  assert sky.fileback.contents == files["models/textures/b.png"]
  # the model holds every file: it compiles with the provider gone
  physics = mjcf.Physics.from_mjcf_model(robot)
  _same(physics.model, ref)


def test_attach_and_step():
  with registered("zip", ZipProvider(robot_files())):
    robot = mjcf.from_path("zip:models/robot.xml")
    ref = engine.MjModel.from_xml_path("zip:models/robot.xml")
  robot.worldbody.body["upper"].freejoint.remove()
  arena = mjcf.RootElement(model="arena")
  arena.worldbody.add("geom", type="plane", size=[2, 2, 0.1])
  frame = arena.attach(robot)
  frame.pos = [0, 0, 1]
  frame.add("freejoint")
  physics = mjcf.Physics.from_mjcf_model(arena)
  _same(physics.model, ref, ("mesh_vert", "tex_data", "hfield_data", "skin_vert"))
  assert physics.model.nskin == 1
  physics.step(5)
  assert physics.data.time > 0 and np.isfinite(physics.data.qpos).all()


def test_from_file_with_a_provider_name():
  with registered("zip", ZipProvider(robot_files())):
    robot = mjcf.from_file("zip:models/robot.xml")
  assert robot.asset.mesh["arm"].file.contents == robot_files()["models/meshes/arm.obj"]


def test_data_uri_files_and_models():
  obj = obj_bytes()
  xml = f"""<mujoco><asset><mesh name="m" file="{data_uri(obj, "model/obj")}"/></asset>
    <worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>"""
  for model in (mjcf.from_xml_string(xml), mjcf.from_path(data_uri(xml.encode(), "text/xml"))):
    asset = model.asset.mesh["m"].file
    assert asset.contents == obj and asset.extension == ".obj" and asset.prefix == ""
    assert asset.get_vfs_filename() in model.get_assets()
    physics = mjcf.Physics.from_mjcf_model(model)
    _same(physics.model, engine.MjModel.from_xml_string(xml), ("mesh_vert", "body_mass"))


def test_file_attribute_set_to_a_provider_name():
  files = robot_files()
  model = mjcf.RootElement()
  with registered("zip", ZipProvider(files)):
    mesh = model.asset.add("mesh", name="arm", file="zip:models/meshes/arm.obj")
  assert mesh.file.contents == files["models/meshes/arm.obj"] and mesh.file.prefix == "arm"


def test_missing_file_names_the_provider():
  files = robot_files()
  del files["models/textures/grid.png"]
  with registered("zip", ZipProvider(files)):
    with pytest.raises(FileNotFoundError, match="'zip:models/textures/grid.png'.*prefix 'zip'"):
      mjcf.from_path("zip:models/robot.xml")
    with pytest.raises(FileNotFoundError, match="'zip:models/none.xml'.*prefix 'zip'"):
      mjcf.from_path("zip:models/none.xml")
  del files["models/parts/arm.xml"]
  with registered("zip", ZipProvider(files)):
    with pytest.raises(FileNotFoundError, match="include file 'parts/arm.xml'.*prefix 'zip'"):
      mjcf.from_path("zip:models/robot.xml")


def test_callback_error_names_the_resource():
  zp = ZipProvider(robot_files())

  def read(handle):
    if handle.name.endswith(".png"):
      raise OSError("unreadable")
    return handle.read()

  A.register_resource_provider("zip", zp.open, read, zp.close)
  try:
    with pytest.raises(
      A.ResourceError, match="read failed for resource 'zip:models/textures/grid.png'.*unreadable"
    ):
      mjcf.from_path("zip:models/robot.xml")
  finally:
    A.unregister_resource_provider("zip")
