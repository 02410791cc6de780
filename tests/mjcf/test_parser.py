"""Parsing MJCF into the object model: strings, files, paths, includes and asset files."""

import io
import pathlib
import shutil

import numpy as np
import pytest

import engine
import mjcf

_MESHES = pathlib.Path(__file__).resolve().parent.parent / "assets" / "meshes"

_README_MODEL = """
<mujoco model="test">
  <default>
    <default class="brick">
      <geom rgba="1 0 0 1"/>
    </default>
  </default>
  <worldbody>
    <body name="foo">
      <freejoint/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      <body name="bar">
        <joint name="my_hinge" type="hinge"/>
        <geom name="my_geom" pos="0 1 2" class="brick" size="0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def test_from_xml_string_traversal():
  model = mjcf.from_xml_string(_README_MODEL)
  assert isinstance(model, mjcf.RootElement) and model.model == "test"
  my_geom = model.worldbody.body["foo"].body["bar"].geom["my_geom"]
  # class names resolve to the default classes, as in dm_control
  assert my_geom.name == "my_geom" and my_geom.dclass is model.default.default["brick"]
  assert my_geom.dclass.dclass == "brick"
  np.testing.assert_array_equal(my_geom.pos, [0, 1, 2])
  # values are what the XML says: defaults are not applied
  np.testing.assert_array_equal(model.default.default["brick"].geom.rgba, [1, 0, 0, 1])
  assert my_geom.rgba is None
  assert model.worldbody.body["foo"].freejoint.tag == "freejoint"
  assert model.worldbody.body["foo"].inertial.mass == 1


def test_from_file_and_from_path(tmp_path):
  path = tmp_path / "model.xml"
  path.write_text(_README_MODEL)
  with open(path) as f:
    a = mjcf.from_file(f)
  with open(path, "rb") as f:
    b = mjcf.from_file(f)
  c = mjcf.from_path(str(path))
  d = mjcf.from_path(path)
  for m in (a, b, c, d):
    assert m.find("geom", "my_geom") is not None
  assert c.namescope.model_dir == str(tmp_path)
  assert mjcf.from_file(io.StringIO(_README_MODEL)).model == "test"


def _write_model_dir(tmp_path):
  (tmp_path / "meshes").mkdir()
  shutil.copy(_MESHES / "box.stl", tmp_path / "meshes" / "box.stl")
  shutil.copy(_MESHES / "tetra.obj", tmp_path / "tetra.obj")
  (tmp_path / "parts").mkdir()
  (tmp_path / "parts" / "body.xml").write_text("""
    <mujoco>
      <body name="included" pos="0 0 1">
        <joint name="slide" type="slide"/>
        <geom type="mesh" mesh="box"/>
      </body>
    </mujoco>""")
  (tmp_path / "assets.xml").write_text("""
    <mujoco>
      <asset>
        <mesh file="box.stl"/>
      </asset>
    </mujoco>""")
  (tmp_path / "model.xml").write_text("""
    <mujoco model="with_includes">
      <compiler meshdir="meshes" texturedir="textures"/>
      <include file="assets.xml"/>
      <asset>
        <mesh name="tetra" file="../tetra.obj"/>
      </asset>
      <worldbody>
        <include file="parts/body.xml"/>
        <geom name="t" type="mesh" mesh="tetra" pos="2 0 0"/>
      </worldbody>
    </mujoco>""")
  return tmp_path / "model.xml"


def test_includes_and_asset_files(tmp_path):
  path = _write_model_dir(tmp_path)
  model = mjcf.from_path(path)
  body = model.find("body", "included")
  assert body is not None and body.parent is model.worldbody
  assert [b.name for b in model.worldbody.body] == ["included"]
  meshes = model.asset.mesh
  assert len(meshes) == 2
  box, tetra = meshes
  assert box.name == "box"  # named after its file, as MuJoCo does
  assert isinstance(box.file, mjcf.Asset)
  assert box.file.contents == (_MESHES / "box.stl").read_bytes()
  assert box.file.extension == ".stl" and box.file.prefix == "box"
  assert tetra.file.contents == (_MESHES / "tetra.obj").read_bytes()
  # the mesh reference resolved to the element
  assert body.geom[0].mesh is box
  # the exported model embeds the files under content-hashed names and compiles
  assets = model.get_assets()
  assert set(assets) == {box.file.get_vfs_filename(), tetra.file.get_vfs_filename()}
  assert box.file.get_vfs_filename().startswith("box-")
  xml = model.to_xml_string()
  assert "meshdir" not in xml and box.file.get_vfs_filename() in xml
  compiled = engine.MjModel.from_xml_string(xml, assets=assets)
  original = engine.MjModel.from_xml_path(str(path))
  assert compiled.nmesh == original.nmesh == 2
  np.testing.assert_array_equal(compiled.mesh_vert, original.mesh_vert)


def test_includes_and_assets_from_the_assets_dict():
  assets = {
    "part.xml": b'<mujoco><geom name="from_include" type="mesh" mesh="cube"/></mujoco>',
    "cube.stl": (_MESHES / "box.stl").read_bytes(),
  }
  xml = """<mujoco><asset><mesh name="cube" file="cube.stl"/></asset>
           <worldbody><include file="part.xml"/></worldbody></mujoco>"""
  model = mjcf.from_xml_string(xml, assets=assets)
  assert model.find("geom", "from_include").mesh is model.find("mesh", "cube")
  assert model.find("mesh", "cube").file.contents == assets["cube.stl"]


def test_missing_files():
  with pytest.raises(FileNotFoundError):
    mjcf.from_xml_string('<mujoco><worldbody><include file="nope.xml"/></worldbody></mujoco>')
  with pytest.raises(FileNotFoundError):
    mjcf.from_xml_string('<mujoco><asset><mesh file="nope.stl"/></asset></mujoco>')


def test_model_dir_for_strings(tmp_path):
  path = _write_model_dir(tmp_path)
  model = mjcf.from_xml_string(path.read_text(), model_dir=str(tmp_path))
  assert model.find("mesh", "box").file.contents == (_MESHES / "box.stl").read_bytes()


def test_repeated_sections_merge():
  xml = """<mujoco>
    <option timestep="0.01" o_solref="0.03 0.9"/>
    <asset><material name="a"/></asset>
    <option gravity="0 0 -1" o_solref="0.05"/>
    <asset><material name="b"/></asset>
  </mujoco>"""
  model = mjcf.from_xml_string(xml)
  assert [m.name for m in model.asset.material] == ["a", "b"]
  assert model.option.timestep == 0.01
  np.testing.assert_array_equal(model.option.gravity, [0, 0, -1])
  # a later partial array reads over the earlier values, as in MuJoCo
  np.testing.assert_array_equal(model.option.o_solref, [0.05, 0.9])


def test_parse_errors_name_the_line():
  with pytest.raises(ValueError, match="line 3"):
    mjcf.from_xml_string('<mujoco>\n<worldbody>\n<geom pos="1 2"/>\n</worldbody></mujoco>')
  with pytest.raises(AttributeError, match="line 2"):
    mjcf.from_xml_string('<mujoco>\n<worldbody><geom bogus="1"/></worldbody></mujoco>')
  with pytest.raises(AttributeError, match="line 3"):
    mjcf.from_xml_string("<mujoco>\n<worldbody>\n<motor/></worldbody></mujoco>")
  with pytest.raises(ValueError, match="duplicated"):
    mjcf.from_xml_string('<mujoco><worldbody><body name="a"/><body name="a"/></worldbody></mujoco>')
  with pytest.raises(ValueError, match="mujoco"):
    mjcf.from_xml_string("<robot/>")


def test_separators_in_identifiers():
  xml = '<mujoco><worldbody><body name="a/b"><geom name="g" size="1"/></body></worldbody></mujoco>'
  with pytest.raises(ValueError):
    mjcf.from_xml_string(xml)
  model = mjcf.from_xml_string(xml, escape_separators=True)
  assert model.find("body", "a\\b") is not None


def test_references_resolve_to_elements():
  xml = """<mujoco><worldbody><body name="b"><joint name="j"/><geom size="1"/>
           <site name="s"/></body></worldbody>
           <actuator><motor name="m" joint="j"/></actuator>
           <sensor><framepos objtype="site" objname="s"/><jointpos joint="missing"/></sensor>
           </mujoco>"""
  model = mjcf.from_xml_string(xml)
  assert model.find("actuator", "m").joint is model.find("joint", "j")
  assert model.sensor.framepos[0].objname is model.find("site", "s")
  assert model.sensor.jointpos[0].joint == "missing"  # unresolved names stay strings
  unresolved = mjcf.from_xml_string(xml, resolve_references=False)
  assert unresolved.find("actuator", "m").joint == "j"
