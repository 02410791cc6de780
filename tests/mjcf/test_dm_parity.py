"""Behaviour users reported as differing from dm_control's PyMJCF, checked against dm_control.

dm_control is a test-only oracle here: the same inputs go to `dm_control.mjcf` and to `mjcf`,
and the results (values, exception types and messages) are compared.
"""

import copy
import io
import os
import zipfile

import mujoco
import numpy as np
import pytest
from dm_control import mjcf as dm_mjcf

import mjcf

# a tetrahedron in OBJ form, the smallest mesh both compilers accept
_OBJ = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n"

_MESH_MODEL = """
<mujoco model="cube">
  <asset><mesh name="tet" file="meshes/tet.obj"/></asset>
  <worldbody>
    <body name="arm/upper"><joint name="elbow/hinge"/><geom type="mesh" mesh="tet"/></body>
  </worldbody>
</mujoco>
"""


@pytest.fixture
def mesh_dir(tmp_path):
  """A model directory with an XML whose mesh file lives in a subdirectory."""
  (tmp_path / "meshes").mkdir()
  (tmp_path / "meshes" / "tet.obj").write_bytes(_OBJ)
  (tmp_path / "cube.xml").write_text(_MESH_MODEL)
  return tmp_path


def _both(fn):
  """fn(module) for dm_control's mjcf and ours."""
  return fn(dm_mjcf), fn(mjcf)


# ---- from_file ----


def test_from_file_accepts_open_files_and_paths(mesh_dir):
  path = str(mesh_dir / "cube.xml")
  for mode in ("r", "rb"):
    with open(path, mode) as f:
      ours = mjcf.from_file(f, escape_separators=True, model_dir=str(mesh_dir))
    with open(path, mode) as f:
      theirs = dm_mjcf.from_file(f, escape_separators=True, model_dir=str(mesh_dir))
    assert ours.model == theirs.model == "cube"
    assert ours.worldbody.body[0].name == theirs.worldbody.body[0].name == "arm\\upper"
    assert ours.asset.mesh[0].file.contents == theirs.asset.mesh[0].file.contents == _OBJ
  # any object with read(), and a path (lxml's parse takes both)
  for source in (
    io.StringIO('<mujoco model="s"/>'),
    io.BytesIO(b'<?xml version="1.0"?>\n<mujoco model="s"/>'),
  ):
    assert mjcf.from_file(source).model == "s"
  ours = mjcf.from_file(path, escape_separators=True)
  assert ours.asset.mesh[0].file.contents == _OBJ  # a path's directory is the model directory
  with open(path) as f:  # dm_control's keyword arguments, assets searched first
    ours = mjcf.from_file(
      f,
      escape_separators=True,
      resolve_references=False,
      assets={"meshes/tet.obj": b"# from the dict\n" + _OBJ},
    )
  assert ours.asset.mesh[0].file.contents.startswith(b"# from the dict")
  assert ours.worldbody.body[0].geom[0].mesh == "tet"  # left a name: no resolution


# ---- escape_separators and export ----


def test_escape_separators_leaves_file_paths_alone(mesh_dir):
  ours, theirs = _both(lambda m: m.from_path(str(mesh_dir / "cube.xml"), escape_separators=True))
  assert ours.find("joint", "elbow\\hinge") is not None
  assert theirs.find("joint", "elbow\\hinge") is not None
  assert ours.asset.mesh[0].file.prefix == theirs.asset.mesh[0].file.prefix == "tet"
  assert ours.asset.mesh[0].file.get_vfs_filename() == theirs.asset.mesh[0].file.get_vfs_filename()
  with pytest.raises(ValueError, match="contains '/'"):
    mjcf.from_path(str(mesh_dir / "cube.xml"))


def test_export_with_assets_of_a_model_with_mesh_subdirectories(mesh_dir, tmp_path_factory):
  model = mjcf.from_path(str(mesh_dir / "cube.xml"), escape_separators=True)
  theirs = dm_mjcf.from_path(str(mesh_dir / "cube.xml"), escape_separators=True)
  out, out_dm = tmp_path_factory.mktemp("ours"), tmp_path_factory.mktemp("theirs")
  mjcf.export_with_assets(model, str(out))
  dm_mjcf.export_with_assets(theirs, str(out_dm))
  assert sorted(os.listdir(out)) == sorted(os.listdir(out_dm))
  assert (out / "cube.xml").read_text() == (out_dm / "cube.xml").read_text().replace(
    "0.0", "0"
  )  # dm_control writes floats as '0.0' where we write '0'
  ref = mujoco.MjModel.from_xml_path(str(out / "cube.xml"))
  assert ref.nmesh == 1 and ref.joint("elbow\\hinge").id == 0
  # an Asset whose name has '/' in it is written in that subdirectory (dm_control fails here)
  named = mjcf.RootElement(model="sub")
  named.asset.add("mesh", name="tet", file=mjcf.Asset(_OBJ, ".obj", "meshes/tet"))
  named.worldbody.add("geom", type="mesh", mesh="tet")
  mjcf.export_with_assets(named, str(out / "sub"))
  assert mujoco.MjModel.from_xml_path(str(out / "sub" / "sub.xml")).nmesh == 1
  with pytest.raises(ValueError, match="must end with '.xml'"):
    mjcf.export_with_assets(model, str(out), "model.txt")


# ---- zip files ----


def test_export_with_assets_as_zip_layout_and_round_trip(mesh_dir, tmp_path):
  ours = mjcf.from_path(str(mesh_dir / "cube.xml"), escape_separators=True)
  theirs = dm_mjcf.from_path(str(mesh_dir / "cube.xml"), escape_separators=True)
  path = mjcf.export_with_assets_as_zip(ours, str(tmp_path / "a"), model_name="robot")
  dm_path = dm_mjcf.export_with_assets_as_zip(theirs, str(tmp_path / "b"), model_name="robot")
  assert os.path.basename(path) == os.path.basename(dm_path) == "robot.zip"
  with zipfile.ZipFile(path) as a, zipfile.ZipFile(dm_path) as b:
    assert sorted(a.namelist()) == sorted(b.namelist())
    assert "robot/robot.xml" in a.namelist()
  # each library reads the other's archive, and ours reads its own back unchanged
  back = mjcf.from_zip(path)
  assert back.to_xml_string() == ours.to_xml_string()
  assert mjcf.from_zip(dm_path).asset.mesh[0].file.contents == _OBJ
  # dm_control cannot read its generated XML back without escape_separators (class '/')
  with pytest.raises(ValueError, match="cannot contain a '/'"):
    dm_mjcf.from_zip(dm_path)
  assert dm_mjcf.from_zip(path, escape_separators=True).asset.mesh[0].file.contents == _OBJ
  physics = mjcf.Physics.from_mjcf_model(back)
  assert physics.model.nmesh == 1 and physics.model.njnt == 1
  # default name: the model's
  assert os.path.basename(mjcf.export_with_assets_as_zip(ours, str(tmp_path))) == "cube.zip"
  with open(path, "rb") as f:  # an open binary file works too
    assert mjcf.from_zip(f).model == "cube"


def test_from_zip_errors_match_dm_control(tmp_path):
  not_zip = tmp_path / "plain.zip"
  not_zip.write_text("<mujoco/>")
  empty = tmp_path / "empty.zip"
  with zipfile.ZipFile(empty, "w") as z:
    z.writestr("m/readme.txt", "no model")
  two = tmp_path / "two.zip"
  with zipfile.ZipFile(two, "w") as z:
    z.writestr("a.xml", '<mujoco model="a"/>')
    z.writestr("model.xml", '<mujoco model="main"/>')
  for path in (not_zip, empty):
    with pytest.raises(ValueError) as ours:
      mjcf.from_zip(str(path))
    with pytest.raises(ValueError) as theirs:
      dm_mjcf.from_zip(str(path))
    assert str(ours.value) == str(theirs.value)
  assert mjcf.from_zip(str(two)).model == dm_mjcf.from_zip(str(two)).model == "main"
  with pytest.raises(ValueError) as ours:
    mjcf.from_zip(str(two), model_file="other.xml")
  with pytest.raises(ValueError) as theirs:
    dm_mjcf.from_zip(str(two), model_file="other.xml")
  assert str(ours.value) == str(theirs.value)


# ---- element specs ----


# attributes MuJoCo 3.17 no longer has
_DM_ONLY_ATTRIBUTES = set()


def test_element_spec_has_dm_control_fields():
  def specs(m):
    model = m.RootElement()
    body = model.worldbody.add("body")
    frame = model.attach(m.RootElement(model="child"))
    elements = [
      model,
      model.worldbody,
      body,
      body.add("inertial", pos=[0, 0, 0], mass=1),
      model.default,
      model.default.add("default", dclass="x"),
      model.option.flag,
      model.actuator.add("motor", joint="j"),
      frame,
    ]
    out = []
    for el in elements:
      s = el.spec
      out.append(
        (
          s.name,
          s.repeated,
          s.on_demand,
          s.identifier,
          s.namespace,
          set(s.attributes),
          set(s.children),
        )
      )
    children = model.actuator.spec.children
    out.append(
      (
        children["position"].name,
        children["position"].namespace,
        children["position"].repeated,
        list(children["position"].attributes)[:3],
      )
    )
    nested = model.default.spec.children["default"]
    out.append(nested.children["default"] is nested)
    return out

  theirs, ours = _both(specs)
  for mine, dms in zip(ours, theirs):
    if isinstance(mine, tuple) and len(mine) == 7:
      # MuJoCo 3.17 has attributes and children dm_control's schema lacks (<frame>, ...)
      assert mine[-1] >= dms[-1] and mine[-2] >= dms[-2] - _DM_ONLY_ATTRIBUTES
      mine, dms = mine[:-2], dms[:-2]
    assert mine == dms


# ---- attachment frames ----


def _frame_children(m):
  model = m.RootElement()
  world_site = model.worldbody.add("site")
  body_site = model.worldbody.add("body").add("site")
  out = []
  for frame in (
    model.attach(m.RootElement(model="a")),
    world_site.attach(m.RootElement(model="b")),
    body_site.attach(m.RootElement(model="c")),
  ):
    kids = []
    for tag, kwargs in (
      ("freejoint", {}),
      ("joint", {"type": "slide"}),
      ("inertial", {"mass": 1, "pos": [0, 0, 0]}),
      ("geom", {"size": [1]}),
    ):
      try:
        frame.add(tag, **kwargs)
        kids.append(tag)
      except AttributeError as e:
        assert "is not a valid child of <body>" in str(e)
    out.append((frame.spec.name, frame.spec.namespace, frame.spec.identifier, kids))
  return out


def test_frames_take_a_freejoint_only_in_the_worldbody():
  theirs, ours = _both(_frame_children)
  assert ours == theirs
  assert ours[2][3] == ["joint", "inertial"]


# ---- remove() and attachments ----


def _remove_cases(m):
  def model_with_child():
    parent = m.RootElement(model="parent")
    body = parent.worldbody.add("body", name="b")
    site = body.add("site", name="s")
    child = m.RootElement(model="child")
    child.worldbody.add("geom", name="g", size=[1])
    child.actuator.add("motor", name="a", joint="j")
    child.option.timestep = 0.01
    frame = site.attach(child)
    return parent, {
      "site": site,
      "body": body,
      "worldbody": parent.worldbody,
      "frame": frame,
      "actuator": parent.actuator,
      "option": parent.option,
    }

  out = {}
  for what in ("site", "body", "worldbody", "frame", "actuator", "option"):
    parent, elements = model_with_child()
    try:
      elements[what].remove()
      out[what] = ("removed", parent.find("geom", "child/g") is not None)
    except ValueError as e:
      out[what] = ("ValueError", "affect_attachments=True" in str(e))
  return out


def test_remove_insists_on_affect_attachments():
  theirs, ours = _both(_remove_cases)
  assert ours == theirs
  assert ours["site"] == ("removed", True)
  assert all(ours[w] == ("ValueError", True) for w in ours if w != "site")


def test_remove_with_affect_attachments():
  parent = mjcf.RootElement(model="parent")
  child = mjcf.RootElement(model="child")
  child.worldbody.add("body", name="arm").add("joint", name="j")
  child.actuator.add("motor", name="a", joint="j")
  child.option.timestep = 0.01
  parent.actuator.add("motor", name="own", joint=child.find("joint", "j"))
  parent.attach(child)
  parent.actuator.remove(affect_attachments=True)
  # as dm_control: the attached model's actuators go with the parent's
  assert parent.find_all("actuator") == [] and child.find_all("actuator") == []
  parent.option.remove(affect_attachments=True)
  assert parent.option.timestep is None and child.option.timestep is None
  assert child.parent_model is parent
  parent.worldbody.remove(affect_attachments=True)
  assert child.parent_model is None and parent.find("body", "child/arm") is None
  mujoco.MjModel.from_xml_string(parent.to_xml_string())
  # a detached model can be removed from freely again
  parent.actuator.remove()


# ---- size attributes ----


def test_size_strings_are_kept_as_written():
  xml = '<mujoco><size memory="1M" nuserdata="10"/></mujoco>'
  theirs, ours = _both(lambda m: m.from_xml_string(xml))
  assert ours.size.memory == theirs.size.memory == "1M"
  assert ours.size.nuserdata == theirs.size.nuserdata == 10
  assert 'memory="1M"' in ours.to_xml_string()
  model = mjcf.RootElement()
  model.size.memory = "1M"
  assert model.size.memory == "1M" and 'memory="1M"' in model.to_xml_string()
  with pytest.raises(ValueError):
    model.size.memory = 1000000  # a string attribute, as in dm_control
  with pytest.raises(ValueError):
    dm_mjcf.RootElement().size.memory = 1000000
  # combined models keep the larger size as it was written (dm_control writes bytes here)
  small = mjcf.RootElement(model="small")
  small.size.memory = "2000"
  model.attach(small)
  assert model.size.memory == "1M" and 'memory="1M"' in model.to_xml_string()
  big = mjcf.RootElement(model="big")
  big.size.memory = "2G"
  model.attach(big)
  assert model.size.memory == "2G"
  physics = mjcf.Physics.from_mjcf_model(mjcf.from_xml_string(xml))
  assert physics.model.nuserdata == mujoco.MjModel.from_xml_string(xml).nuserdata == 10


# ---- unknown attributes ----


def _attribute_errors(m):
  model = m.RootElement()
  body = model.worldbody.add("body")
  out = []
  for action in (
    lambda: body.foo,
    lambda: setattr(body, "foo", 1),
    lambda: model.worldbody.add("body", foo=1),
    lambda: getattr(body, "dclas"),
  ):
    with pytest.raises(AttributeError) as info:
      action()
    out.append(info.value)
  return out


def test_unknown_attributes_raise_attribute_error_with_the_standard_phrase():
  theirs, ours = _both(_attribute_errors)
  for mine, dms in zip(ours, theirs):
    assert isinstance(mine, AttributeError) and isinstance(dms, AttributeError)
    assert "object has no attribute" in str(mine)
    assert "'foo'" in str(mine) or "'dclas'" in str(mine)
  assert ours[0].name == "foo" and ours[0].obj is not None
  assert not hasattr(mjcf.RootElement().worldbody, "foo")
  assert getattr(mjcf.RootElement().worldbody, "foo", "fallback") == "fallback"
  with pytest.raises(AttributeError, match="object has no attribute"):
    del mjcf.RootElement().worldbody.foo


# ---- commit_defaults and actuator kinds ----

_KINDS = (
  "general",
  "motor",
  "position",
  "velocity",
  "intvelocity",
  "damper",
  "cylinder",
  "muscle",
  "adhesion",
)
_DEFAULTS = {
  "general": 'ctrllimited="true" ctrlrange="-1 1" gear="2"',
  "motor": 'forcelimited="true" forcerange="-3 3" gear="3"',
  "position": 'kp="7" ctrlrange="-2 2"',
  "velocity": 'kv="5" forcerange="-4 4"',
  "intvelocity": 'kp="4" actrange="-1 1"',
  "damper": 'kv="2" ctrlrange="0 1"',
  "cylinder": 'area="2" gear="4"',
  "muscle": 'force="9" ctrlrange="0 1"',
  "adhesion": 'gain="3" ctrlrange="0 1"',
}
_REQUIRED = {
  "damper": 'ctrlrange="0 1"',
  "adhesion": 'ctrlrange="0 1"',
  "intvelocity": 'actrange="-1 1"',
  "muscle": 'lengthrange="0.1 1" ctrlrange="0 1"',
}


def _actuator_model(default_kind, kind):
  target = 'body="b"' if kind == "adhesion" else 'joint="j"'
  required = _REQUIRED.get(kind, "") if kind != default_kind else ""
  if kind == "muscle":
    required = 'lengthrange="0.1 1"'
  return f"""
  <mujoco>
    <default>
      <{default_kind} {_DEFAULTS[default_kind]}/>
      <default class="c"><{default_kind} {_DEFAULTS[default_kind]}/></default>
    </default>
    <worldbody><body name="b"><joint name="j"/><geom size="1"/></body></worldbody>
    <actuator>
      <{kind} name="global" {target} {required}/>
      <{kind} name="classed" class="c" {target} {required}/>
    </actuator>
  </mujoco>"""


def _committed(m, xml):
  model = m.from_xml_string(xml)
  out = []
  for name in ("global", "classed"):
    actuator = model.find("actuator", name)
    m.traversal_utils.commit_defaults(actuator)
    values = actuator.get_attributes()
    if "dclass" in values:
      values["dclass"] = values["dclass"].dclass  # a resolved class name: compare the names
    out.append(
      {
        k: (v.tolist() if isinstance(v, np.ndarray) else v)
        for k, v in values.items()
        if k not in ("joint", "body")
      }
    )
  return out


# dm_control copies a kind's own parameters (kp, kv) between kinds; MuJoCo does not, and the
# MuJoCo comparison below shows it
_DM_CONTROL_SHARES_OWN_PARAMETERS = {
  ("velocity", "position"),
  ("damper", "position"),
  ("damper", "velocity"),
}


@pytest.mark.parametrize("default_kind", _KINDS)
def test_commit_defaults_of_every_actuator_kind_matches_dm_control(default_kind):
  for kind in ("general", "motor", "position", "velocity", "cylinder", "muscle"):
    xml = _actuator_model(default_kind, kind)
    ours = _committed(mjcf, xml)
    if default_kind not in ("intvelocity", "damper", "adhesion"):
      theirs = _committed(dm_mjcf, xml)
      if (default_kind, kind) in _DM_CONTROL_SHARES_OWN_PARAMETERS:
        for entry in theirs:
          entry.pop("kv")
      assert ours == theirs, (default_kind, kind)


_FIELDS = (
  "gainprm",
  "biasprm",
  "dynprm",
  "ctrlrange",
  "forcerange",
  "actrange",
  "gear",
  "gaintype",
  "biastype",
  "dyntype",
  "ctrllimited",
  "forcelimited",
  "actlimited",
)

# what the object model cannot write on the element: an <adhesion> has no gear, a <cylinder> or
# <muscle> no actrange, a <general> has no kp/kv/area/gain to take a shortcut default's gain and
# bias from
_UNREPRESENTABLE = {
  ("general", "adhesion"): {"gear"},
  ("motor", "adhesion"): {"gear"},
  ("cylinder", "adhesion"): {"gear"},
  ("intvelocity", "cylinder"): {"actrange", "actlimited"},
  ("intvelocity", "muscle"): {"actrange", "actlimited"},
  ("position", "general"): {"gainprm", "biasprm", "biastype"},
  ("velocity", "general"): {"gainprm", "biasprm", "biastype"},
  ("damper", "general"): {"gainprm", "gaintype"},
  ("cylinder", "general"): {"gainprm", "biastype", "dyntype", "dynprm"},
  ("adhesion", "general"): {"gainprm"},
  ("muscle", "general"): {"gainprm", "biasprm", "gaintype", "biastype", "dyntype", "dynprm"},
}


@pytest.mark.parametrize("default_kind", _KINDS)
def test_commit_defaults_of_every_actuator_kind_matches_mujoco(default_kind):
  """Committing the defaults, then deleting them, compiles to the same actuators."""
  for kind in _KINDS:
    xml = _actuator_model(default_kind, kind)
    try:
      ref = mujoco.MjModel.from_xml_string(xml)
    except ValueError:
      continue  # MuJoCo rejects the combination (actrange on an actuator without state)
    model = mjcf.from_xml_string(xml)
    for actuator in model.find_all("actuator"):
      mjcf.traversal_utils.commit_defaults(actuator)
      actuator.dclass = None
    model.default.default["c"].remove()
    for child in model.default.all_children():
      child.remove()
    if (default_kind, kind) == ("intvelocity", "general"):
      continue  # actrange without the integrator dynamics the shortcut default set
    committed = mujoco.MjModel.from_xml_string(model.to_xml_string())
    skip = _UNREPRESENTABLE.get((default_kind, kind), set())
    for field in _FIELDS:
      if field not in skip:
        np.testing.assert_allclose(
          getattr(committed, "actuator_" + field),
          getattr(ref, "actuator_" + field),
          err_msg=f"{default_kind} default, {kind} actuator: {field}",
        )


# ---- class references ----


def _classes(m):
  model = m.from_xml_string(
    '<mujoco><default><default class="a"><geom rgba="1 0 0 1"/></default></default>'
    '<worldbody><body childclass="a"><geom class="main" size="1"/><geom class="nope" size="1"/>'
    '<geom class="a" size="1"/></body></worldbody></mujoco>'
  )
  body = model.worldbody.body[0]
  values = [body.childclass] + [g.dclass for g in body.geom]
  return [v if isinstance(v, str) else ("element", v.dclass) for v in values]


def test_class_names_resolve_to_default_classes_as_in_dm_control():
  theirs, ours = _both(_classes)
  assert ours == theirs == [("element", "a"), "main", "nope", ("element", "a")]
  unresolved = mjcf.from_xml_string(
    '<mujoco><default><default class="a"/></default><worldbody><geom class="a" size="1"/>'
    "</worldbody></mujoco>",
    resolve_references=False,
  )
  assert unresolved.worldbody.geom[0].dclass == "a"


# ---- reading generated XML back ----


def test_generated_xml_reads_back_as_the_same_model():
  """class '/' and '//unnamed_*' names of exported XML parse back (dm_control rejects them)."""
  model = mjcf.RootElement(model="p")
  model.default.geom.rgba = [1, 0, 0, 1]
  model.default.add("default", dclass="x").joint.damping = 1
  body = model.worldbody.add("body", childclass="x", pos=[0, 0, 1])
  body.add("geom", size=[1])
  joint = body.add("joint")
  model.worldbody.add("geom", size=[1], dclass="x")
  model.actuator.add("motor", joint=joint)
  model.sensor.add("jointpos", joint=joint)
  model.sensor.add("framepos", objtype="body", objname=body)
  xml = model.to_xml_string()
  with pytest.raises(ValueError, match="cannot contain a '/'"):
    dm_mjcf.from_xml_string(xml)
  back = mjcf.from_xml_string(xml)
  assert back.to_xml_string() == xml
  assert back.actuator.motor[0].joint is back.worldbody.body[0].joint[0]
  assert back.sensor.framepos[0].objname is back.worldbody.body[0]
  assert back.worldbody.body[0].joint[0].name is None
  assert back.default.geom.rgba.tolist() == [1, 0, 0, 1]
  assert back.default.default["x"].joint.damping == 1
  assert back.worldbody.geom[0].dclass is back.default.default["x"]
  assert back.actuator.motor[0].dclass is None
  # with escape_separators the names stay, escaped, as in dm_control
  escaped = mjcf.from_xml_string(xml, escape_separators=True)
  assert escaped.find("joint", "\\\\unnamed_joint_0") is not None


# ---- element API details ----


def _insert_order(m):
  model = m.RootElement()
  tendon = model.tendon.add("fixed", name="t")
  tendon.add("joint", joint="a", coef=1)
  tendon.add("joint", joint="c", coef=3)
  tendon.insert("joint", 1, joint="b", coef=2)
  model.worldbody.insert("geom", 0, name="first", size=[1])
  with pytest.raises(ValueError, match="already"):
    model.insert("option", 0)
  return (
    [j.joint for j in tendon.joint],
    model.worldbody.all_children()[0].name,
    tendon.to_xml_string().count("<joint"),
  )


def test_insert_places_children_as_dm_control():
  theirs, ours = _both(_insert_order)
  assert ours == theirs == (["a", "b", "c"], "first", 3)


def _required_errors(m):
  model = m.RootElement()
  body = model.worldbody.add("body")
  out = []
  for action in (
    lambda: body.add("inertial", mass=1),
    lambda: delattr(body.add("inertial", mass=1, pos=[0, 0, 0]), "mass"),
  ):
    with pytest.raises(AttributeError) as info:
      action()
    out.append("required" in str(info.value))
  return out


def test_required_attributes_raise_what_dm_control_and_its_readme_say():
  theirs, ours = _both(_required_errors)
  assert ours == theirs == [True, True]
  body = mjcf.RootElement().worldbody.add("body")
  with pytest.raises(ValueError, match="required"):  # the README's type
    body.add("inertial", mass=1)


# ---- Physics.bind ----


def _arm_model(m):
  model = m.RootElement(model="arm")
  upper = model.worldbody.add("body", name="upper", pos=[0, 0, 1])
  upper.add("joint", name="shoulder", type="ball")
  upper.add("geom", name="upper", type="capsule", fromto=[0, 0, 0, 0, 0, -0.3], size=[0.05])
  fore = upper.add("body", name="fore", pos=[0, 0, -0.3])
  fore.add("joint", name="elbow", axis=[0, 1, 0])
  fore.add("geom", name="fore", type="capsule", fromto=[0, 0, 0, 0, 0, -0.3], size=[0.04])
  fore.add("site", name="tip", pos=[0, 0, -0.3])
  model.actuator.add("motor", name="m", joint="elbow", gear=[2])
  return model


def _bind_session(m):
  """A sequence of binding reads and writes; the values seen at each point."""
  model = _arm_model(m)
  physics = m.Physics.from_mjcf_model(model)
  elbow, shoulder = model.find("joint", "elbow"), model.find("joint", "shoulder")
  fore, tip = model.find("body", "fore"), model.find("site", "tip")
  out = []
  physics.bind(elbow).qpos = 0.5
  out.append(physics.is_dirty)
  out.append(physics.bind(tip).xpos.copy())  # a derived field: forward() runs first
  out.append(physics.is_dirty)
  physics.bind([shoulder, elbow]).qpos[4] = -0.3  # item writes of a list binding
  out.append(physics.is_dirty)
  out.append(physics.bind(fore).xquat.copy())
  xpos = physics.bind(fore).xpos  # one element: a live view
  physics.bind(elbow).qpos[0] = 0.1
  physics.forward()
  out.append(xpos.copy())
  physics.bind(fore).pos = [0, 0, -0.4]  # a model field: stale, sameframe cleared
  out.append(physics.is_dirty)
  out.append(physics.bind(tip).xpos.copy())
  physics.bind(model.find("geom", "fore")).rgba = [1, 0, 0, 1]  # appearance only
  out.append(physics.is_dirty)
  out.append(physics.bind([elbow])["qpos"].copy())
  out.append(physics.bind(model.find_all("geom"))["size", 0].copy())
  physics.bind(model.find_all("geom"))["size", 0] = [0.06, 0.05]
  physics.bind(model.find_all("geom"))["size", [1]] = [[0.2], [0.3]]
  out.append(physics.bind(model.find_all("geom")).size.copy())
  out.append(physics.bind([]).xpos.shape)
  with pytest.raises(ValueError):
    physics.bind([]).qpos = 1
  physics.bind(model.find("actuator", "m")).ctrl = 1.0
  out.append(physics.is_dirty)
  physics.reset()
  out.append(physics.is_dirty)
  return out


def test_bind_reads_writes_and_recomputes_as_dm_control():
  theirs, ours = _both(_bind_session)
  assert len(ours) == len(theirs)
  for k, (mine, dms) in enumerate(zip(ours, theirs)):
    np.testing.assert_allclose(
      np.asarray(mine, float), np.asarray(dms, float), atol=1e-12, err_msg=f"step {k}"
    )


def _small_api(m):
  asset = m.Asset(b"abc", ".stl", "arm")
  model = m.RootElement()
  before = model.namescope.revision
  model.worldbody.add("body")
  return (
    asset.get_vfs_filename(),
    asset.get_vfs_filename(filename_with_hash=False),
    m.Asset(b"abc", ".stl").get_vfs_filename(False),
    model.worldbody.body.spec.name,
    model.worldbody.body.spec.repeated,
    model.namescope.revision > before,
  )


def test_assets_list_views_and_namescope_revision_as_dm_control():
  theirs, ours = _both(_small_api)
  assert ours == theirs


def test_world_references_stay_names_and_follow_attachment():
  xml = (
    '<mujoco model="c"><worldbody><body name="x"><freejoint/><geom size="1"/></body>'
    '</worldbody><contact><exclude body1="x" body2="world"/></contact></mujoco>'
  )
  theirs, ours = _both(lambda m: m.from_xml_string(xml).contact.exclude[0].body2)
  assert ours == theirs == "world"
  parent = mjcf.RootElement(model="p")
  parent.worldbody.add("body", name="holder").add("site", name="s")
  child = mjcf.from_xml_string(xml.replace("<freejoint/>", ""))
  parent.find("site", "s").attach(child)
  xml_out = parent.to_xml_string()
  assert 'body1="c/x" body2="c/"' in xml_out  # the child's world is its attachment frame
  compiled = mujoco.MjModel.from_xml_string(xml_out)
  signature = compiled.exclude_signature[0]
  assert {signature >> 16, signature & 0xFFFF} == {compiled.body("c/x").id, compiled.body("c/").id}


def _copies_of_bound_arrays(m):
  model = _arm_model(m)
  physics = m.Physics.from_mjcf_model(model)
  xpos = physics.bind(model.find("body", "fore")).xpos
  copies = [xpos.copy(), copy.copy(xpos), copy.deepcopy(xpos)]
  for c in copies:
    c[0] = 99.0  # copies are detached
  return [type(c).__name__ for c in copies], float(physics.bind(model.find("body", "fore")).xpos[0])


def test_copies_of_bound_arrays_are_plain_arrays():
  theirs, ours = _both(_copies_of_bound_arrays)
  assert ours == theirs == (["ndarray"] * 3, 0.0)


def _contact_namespace(lib):
  """Unnamed pairs and excludes, names found in the 'contact' namespace, a clash between a pair
  and an exclude, and a pair's margin by name."""
  model = lib.RootElement()
  a = model.worldbody.add("body", name="a")
  ga = a.add("geom", size=[0.1], name="ga")
  b = model.worldbody.add("body", name="b")
  gb = b.add("geom", size=[0.1], name="gb")
  model.contact.add("pair", geom1=ga, geom2=gb, margin=0.25)
  model.contact.add("exclude", body1=a, body2=b)
  model.contact.add("exclude", body1=a, body2=b, name="e")
  found = (model.find("contact", "e").tag, [e.tag for e in model.find_all("contact")])
  try:
    model.contact.add("pair", geom1=ga, geom2=gb, name="e")
    clash = None
  except ValueError as error:
    clash = "duplicated identifier" in str(error).lower()
  physics = lib.Physics.from_mjcf_model(model)
  names = [
    physics.model.id2name(i, kind)
    for kind, n in (("pair", physics.model.npair), ("exclude", physics.model.nexclude))
    for i in range(n)
  ]
  return names, found, clash, float(physics.named.model.pair_margin[names[0]])


def test_pairs_and_excludes_share_the_contact_namespace():
  theirs, ours = _both(_contact_namespace)
  assert ours == theirs
  assert ours[0] == ["//unnamed_contact_0", "//unnamed_contact_1", "e"] and ours[2] is True
