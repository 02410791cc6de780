"""Compiler errors: every bad input gets a CompileError naming element, attribute and line."""

import pathlib

import mujoco
import pytest

from engine.compiler import compile_model
from engine.compiler import schema
from engine.errors import CompileError
from engine.errors import Error
from engine.errors import UnsupportedError
from tests.engine.test_compiler import compare

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models" / "compiler"


def _err(xml, assets=None, cls=CompileError):
  with pytest.raises(cls) as info:
    compile_model(xml=xml, assets=assets)
  assert isinstance(info.value, Error)
  return info.value


def _world(body):
  return f"<mujoco>\n<worldbody>\n{body}\n</worldbody>\n</mujoco>"


def test_unknown_element():
  e = _err(_world("<body>\n<bogus/>\n</body>"))
  assert e.element == "bogus" and e.line == 4
  assert "'bogus'" in str(e) and "line 4" in str(e)


def test_unknown_attribute():
  e = _err(_world('<geom size="1" colour="red"/>'))
  assert (e.element, e.attribute, e.line) == ("geom", "colour", 3)
  assert "element 'geom'" in str(e) and "attribute 'colour'" in str(e) and "line 3" in str(e)


@pytest.mark.parametrize(
  "attr,value,needle",
  [
    ("size", "1 a", "'a'"),
    ("size", "1 2 3 4", "too many"),
    ("pos", "1 2", "expected 3"),
    ("type", "cube", "'cube'"),
    ("contype", "1.5", "'1.5'"),
    ("rgba", "nan 0 0 1", "'nan'"),
  ],
)
def test_bad_value(attr, value, needle):
  e = _err(_world(f'<geom size="1" {attr}="{value}"/>'.replace('size="1" size', "size")))
  assert (e.element, e.attribute, e.line) == ("geom", attr, 3)
  assert needle in str(e) and value in str(e)


def test_malformed_xml():
  e = _err('<mujoco>\n<worldbody>\n<geom size="1">\n</worldbody>\n</mujoco>')
  assert e.line is not None and e.line >= 3
  assert "malformed XML" in str(e)


def test_root_must_be_mujoco():
  e = _err("<robot/>")
  assert e.element == "robot"


def test_missing_include():
  e = _err('<mujoco>\n<include file="nope.xml"/>\n</mujoco>')
  assert (e.element, e.attribute, e.line) == ("include", "file", 2)
  assert "nope.xml" in str(e)


def test_error_inside_include_names_file_and_line():
  frag = b'<mujoco>\n  <geom size="1"/>\n  <geom size="1" bad="2"/>\n</mujoco>'
  e = _err(_world('<include file="frag.xml"/>'), assets={"frag.xml": frag})
  assert (e.file, e.line, e.attribute) == ("frag.xml", 3, "bad")
  assert "file 'frag.xml'" in str(e)


def test_repeated_include():
  frag = b'<mujoco><geom size="1"/></mujoco>'
  e = _err(_world('<include file="f.xml"/>\n<include file="f.xml"/>'), assets={"f.xml": frag})
  assert "already included" in str(e) and e.line == 4


def test_unknown_joint_in_actuator():
  xml = (
    '<mujoco>\n<worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>\n'
    '<actuator>\n<motor joint="jj"/>\n</actuator>\n</mujoco>'
  )
  e = _err(xml)
  assert (e.element, e.attribute, e.line) == ("motor", "joint", 4)
  assert "'jj'" in str(e)


def test_unknown_references():
  xml = (
    '<mujoco>\n<worldbody><body name="b"><joint name="j"/><geom size=".1"/></body>'
    '</worldbody>\n<sensor>\n<framepos objtype="site" objname="nosite"/>\n</sensor>\n'
    "</mujoco>"
  )
  e = _err(xml)
  assert (e.element, e.attribute, e.line) == ("framepos", "objname", 4)
  e = _err(_world('<geom size="1" material="nomat"/>'))
  assert (e.element, e.attribute) == ("geom", "material")
  e = _err(_world('<geom size="1" class="noclass"/>'))
  assert (e.element, e.attribute) == ("geom", "class")


def test_required_attribute():
  e = _err(_world('<body><inertial pos="0 0 0"/></body>'))
  assert (e.element, e.attribute, e.line) == ("inertial", "mass", 3)


def test_repeated_name():
  e = _err(_world('<geom name="g" size="1"/>\n<geom name="g" size="1"/>'))
  assert "repeated name 'g'" in str(e) and e.line == 4


def test_multiple_orientations():
  e = _err(_world('<geom size="1" quat="1 0 0 0" euler="0 0 1"/>'))
  assert e.element == "geom" and e.attribute in ("quat", "euler")


def test_unique_child_repeated():
  e = _err(_world('<body><inertial pos="0 0 0" mass="1"/><inertial pos="0 0 0" mass="1"/></body>'))
  assert "'inertial'" in str(e) and e.element == "body"


def test_range_without_limited_and_autolimits_off():
  xml = (
    '<mujoco><compiler autolimits="false"/><worldbody>\n<body>\n'
    '<joint range="-1 1"/><geom size=".1"/></body></worldbody></mujoco>'
  )
  e = _err(xml)
  assert e.element == "joint" and "autolimits" in str(e) and e.line == 3


def test_moving_body_without_mass():
  e = _err(_world("<body>\n<joint/>\n</body>"))
  assert "mass and inertia" in str(e) and e.element == "body"


def test_bad_sizes():
  e = _err(_world('<body><joint/><geom type="box" size="1 1"/></body>'))
  assert e.attribute == "size" and e.element == "geom"
  e = _err(_world('<body><joint/><geom type="capsule" fromto="0 0 0 0 0 0" size=".1"/></body>'))
  assert e.attribute == "fromto"


@pytest.mark.parametrize(
  "body",
  [
    '<composite type="grid" count="2 2 1"><geom size=".1"/></composite>',
    '<flexcomp name="f" type="grid" count="2 2 1"/>',
    '<body><plugin plugin="mujoco.elasticity.shell"/></body>',
  ],
)
def test_unsupported_elements(body):
  e = _err(_world(body), cls=UnsupportedError)
  assert "not supported" in str(e) and e.line == 3


def test_unsupported_actuator_type():
  xml = (
    '<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>\n'
    '<actuator>\n<general joint="j" gaintype="user"/>\n</actuator></mujoco>'
  )
  e = _err(xml, cls=UnsupportedError)
  assert (e.element, e.line) == ("general", 3)


def test_errors_match_mujoco_rejections():
  """Models MuJoCo rejects are rejected too (not silently compiled)."""
  bad = [
    _world('<body><freejoint/><freejoint/><geom size=".1"/></body>'),
    _world('<body><body><freejoint/><geom size=".1"/></body></body>'),
    _world('<body><joint type="ball"/><joint/><geom size=".1"/></body>'),
    _world('<body mocap="true"><joint/><geom size=".1"/></body>'),
    _world('<body><joint/><geom type="plane" size="1 1 1"/></body>'),
    _world('<geom size="1" condim="2"/>'),
    _world('<body><joint limited="true" range="1 -1"/><geom size=".1"/></body>'),
    (
      '<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>'
      '<actuator><motor joint="j" ctrllimited="true" ctrlrange="1 -1"/></actuator></mujoco>'
    ),
    (
      '<mujoco><worldbody><site name="s"/></worldbody>'
      '<tendon><spatial><site site="s"/></spatial></tendon></mujoco>'
    ),
    (
      '<mujoco><worldbody><body><joint name="j" type="ball"/><geom size=".1"/></body>'
      '</worldbody><sensor><jointpos joint="j"/></sensor></mujoco>'
    ),
    '<mujoco><default class="x"/></mujoco>',
    "<mujoco><default><default/></default></mujoco>",
    (
      '<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>'
      '<keyframe><key qpos="1 2"/></keyframe></mujoco>'
    ),
    _world('<frame name="f"/><frame name="f"/>'),
    _world('<body pos="1e400 0 0"/>'),
  ]
  for xml in bad:
    with pytest.raises(ValueError):
      mujoco.MjModel.from_xml_string(xml)
    with pytest.raises(CompileError):
      compile_model(xml=xml)


def test_include_relative_to_model_dir(tmp_path):
  (tmp_path / "parts").mkdir()
  (tmp_path / "parts" / "body.xml").write_text(
    '<mujoco><body name="inc"><joint/><geom size="0.1"/></body></mujoco>'
  )
  (tmp_path / "defaults.xml").write_text(
    '<mujoco><default><geom rgba="1 0 0 1"/></default></mujoco>'
  )
  main = tmp_path / "main.xml"
  main.write_text(
    '<mujoco><include file="defaults.xml"/><worldbody>'
    '<include file="parts/body.xml"/></worldbody></mujoco>'
  )
  compare(path=main)


def test_include_from_assets_dict():
  assets = {"arm.xml": b'<mujoco><body name="arm"><joint/><geom size="0.1"/></body></mujoco>'}
  compare(xml=_world('<include file="arm.xml"/>'), assets=assets)


def test_schema_matches_mujoco_printed_schema():
  """Every element and attribute of MuJoCo 3.17's MJCF schema, and nothing else."""
  text = mujoco.mj_printSchema(False, True)
  printed = {}
  stack = []
  path = None
  for line in text.split("\n"):
    if not line.strip():
      continue
    head = line.replace("(world)", "")
    if "(" not in head:
      printed[path] |= set(line.split())
      continue
    name, rest = head.split("(", 1)
    depth = (len(name) - len(name.lstrip())) // 3
    stack = stack[:depth] + [name.strip()]
    path = "/".join(stack)
    printed[path] = set(rest.split(")", 1)[1].split())
  ours = {}

  def walk(key, path, seen):
    ours[path] = set(schema.ELEMENTS[key].attrs)
    for tag, (ckey, card) in schema.ELEMENTS[key].children.items():
      if ckey in seen or tag in ("frame", "replicate"):
        continue
      walk(ckey, path + "/" + tag, seen | {ckey})

  walk("mujoco", "mujoco", set())
  walk("body", "mujoco/body", set())
  for path, attrs in printed.items():
    assert path in ours, path
    assert ours[path] == attrs, (path, attrs ^ ours[path])


@pytest.mark.parametrize(
  "body, element, line",
  [
    ('<replicate count="2">\n<joint/>\n</replicate>', "joint", 4),
    (
      '<replicate count="2">\n<body name="b"><geom size=".1"/></body>\n</replicate>\n'
      '<body name="b1"><geom size=".1"/></body>',
      "body",
      6,
    ),
    (
      '<body name="o"><geom size=".1"/></body>\n<replicate count="2">\n'
      '<camera mode="targetbody" target="o"/>\n</replicate>',
      "camera",
      5,
    ),
  ],
)
def test_replicate_errors(body, element, line):
  """MuJoCo rejects these replicates too: joints at the top, clashing suffixed names, targets
  outside the copies (which get suffixed)."""
  xml = _world(body)
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  e = _err(xml)
  assert (e.element, e.line) == (element, line)
