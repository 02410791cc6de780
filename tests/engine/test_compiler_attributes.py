"""No silently ignored MJCF attribute: every attribute the schema accepts is used or accounted for.

For each supported (element, attribute) of engine/compiler/schema.py one of these holds:
  read         the compiler reads it while compiling our models (traced, tests/attr_trace.py);
               numeric and keyword attributes of the default classes and of the singleton
               elements (compiler, option, size, visual, statistic) are also set to a
               non-default value in a generated model that must compile as MuJoCo's does;
  no effect    MuJoCo 3.17's compiled model does not change with it either (checked here);
  unsupported  a non-default value raises UnsupportedError naming element, attribute, line.
Attributes of <default> children are read when their element's attribute is.
"""

import glob
import io
import os

import mujoco
import numpy as np
import pytest
from PIL import Image

from engine.compiler import build
from engine.compiler import schema
from engine.errors import CompileError
from engine.errors import UnsupportedError
from tests import attr_trace
from tests import models
from tests.engine.test_compiler import MESH_SKIP
from tests.engine.test_compiler import MESH_TOL
from tests.engine.test_compiler import compare

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _png(w, h, seed):
  rgb = np.random.default_rng(seed).integers(0, 255, (h, w, 3), dtype=np.uint8)
  buf = io.BytesIO()
  Image.fromarray(rgb).save(buf, format="PNG")
  return buf.getvalue()


# attributes only read in some configurations: files, input modes, body pairs, statistics
_EXTRA_XML = """
<mujoco>
  <statistic meaninertia="2" meanmass="3"/>
  <asset>
    <hfield name="h" file="h.png" content_type="image/png" size="1 1 .1 .1"/>
    <texture name="t2" type="2d" file="t.png" hflip="true" vflip="true"/>
    <texture name="tc" type="cube" file="c.png" gridsize="3 4" gridlayout=".U..LFRB.D.."/>
    <texture name="ts" type="skybox" fileright="t.png" fileleft="t.png" fileup="t.png"
             filedown="t.png" filefront="t.png" fileback="t.png"/>
    <material name="skinmat"/>
    <skin name="inline" material="skinmat" rgba="1 0 0 1" inflate=".01" group="1"
          vertex="0 0 0 .2 0 0 0 .2 0" texcoord="0 0 1 0 0 1" face="0 1 2">
      <bone body="a" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" vertweight="1 1 1"/>
    </skin>
    <skin file="s.skn"/>
  </asset>
  <worldbody>
    <geom type="hfield" hfield="h"/>
    <body name="a"><joint name="j"/><geom name="ga" size=".1"/></body>
    <body name="b" pos="1 0 0"><geom name="gb" size=".1"/></body>
  </worldbody>
  <actuator>
    <general joint="j" gaintype="pid" biastype="affine" dyntype="pid" input="pos ff"
             ffrange="-1 1"/>
  </actuator>
  <sensor>
    <distance body1="a" body2="b"/>
    <fromto body1="a" geom2="gb"/>
  </sensor>
</mujoco>
"""


def _extra_assets():
  from tests.engine.test_skin import _SKN  # a .skn file bound to bodies 'upper' and 'lower'

  skn = _SKN.replace(b"upper".ljust(40, b"\0"), b"a".ljust(40, b"\0"))
  skn = skn.replace(b"lower".ljust(40, b"\0"), b"b".ljust(40, b"\0"))
  return {"h.png": _png(8, 8, 0), "t.png": _png(8, 8, 1), "c.png": _png(16, 12, 2), "s.skn": skn}


def _models():
  paths = sorted(
    [str(p) for p in models.all_models()]
    + glob.glob(os.path.join(_ROOT, "assets", "suite", "*.xml"))
  )
  return [(None, p, None) for p in paths] + [(_EXTRA_XML, None, _extra_assets())]


def _parents():
  out = {}
  for k, e in schema.ELEMENTS.items():
    for ck, _ in e.children.values():
      out.setdefault(ck, set()).add(k)
  return out


def _supported_keys():
  """Element keys that can appear outside every unsupported element."""
  parents = _parents()

  def ok(k, seen):
    if not schema.ELEMENTS[k].supported:
      return False
    if k == schema.ROOT:
      return True
    return any(ok(p, seen | {k}) for p in parents.get(k, ()) if p not in seen)

  return [k for k in schema.ELEMENTS if ok(k, frozenset())]


_DEFAULT_SOURCE = {key: src[0] for key, src, _, _ in schema._DEFAULT_PROJECTIONS}

# read by defaults.py while it builds the default classes (untraced)
_HANDLED = {("default", "class")}
# sensor, body, mesh and geom plugin attributes: compiled by tests/engine/test_plugin.py and
# test_sdf_collision.py (touch_grid and the SDF plugins against MuJoCo, test-registered plugins);
# no model of the traced corpus uses them
for _key in ("sensor/plugin", "body/plugin", "asset/mesh/plugin", "geom/plugin"):
  _HANDLED |= {(_key, a) for a in schema.ELEMENTS[_key].attrs}

# (element key, attribute): (MJCF without, MJCF with the attribute); MuJoCo compiles both to the
# same model
_BASE = """<mujoco>{top}<worldbody><body name="b"><joint/><geom size=".1"/>
  <site name="s" type="box" size=".1 .1 .1"/></body></worldbody>{tail}</mujoco>"""
_TEX = (
  '<asset><texture name="t" type="2d" builtin="checker" width="8" height="8"{}/>'
  '<material name="m" texture="t"/></asset>'
)
_MESH = '<asset><mesh name="me" vertex="0 0 0 1 0 0 0 1 0 0 0 1"{}/></asset>'
NO_EFFECT = {
  # threading and saving options of the compiler (no compiled field)
  ("compiler", "usethread"): ("", '<compiler usethread="false"/>'),
  ("compiler", "saveinertial"): ("", '<compiler saveinertial="true"/>'),
  ("compiler", "savecanonical"): ("", '<compiler savecanonical="true"/>'),
  ("compiler", "savecompiled"): ("", '<compiler savecompiled="true"/>'),
  # name conflicts of attached models (<attach> is unsupported)
  ("compiler", "conflict"): ("", '<compiler conflict="error"/>'),
  # texture data saved into the XML
  ("asset/texture", "embed"): (_TEX.format(""), _TEX.format(' embed="true"')),
  # parameters of builtin meshes (builtin raises UnsupportedError)
  ("asset/mesh", "params"): (_MESH.format(""), _MESH.format(' params="1 2"')),
}

# (element key, attribute): (MJCF without, MJCF with a value MuJoCo applies or rejects and we
# cannot apply yet)
_INSIDE = _BASE.format(
  top="", tail='<sensor><insidesite site="s" objtype="body" objname="b"{}/></sensor>'
)
UNSUPPORTED = {
  ("compiler", "passthrough"): ("<mujoco/>", '<mujoco><compiler passthrough="true"/></mujoco>'),
  # MuJoCo requires integrator="discrete" and the CG solver for it
  ("option/flag", "ipc"): ("<mujoco/>", '<mujoco><option><flag ipc="enable"/></option></mujoco>'),
  # a signed distance: sensor_intprm[0] = 1 and sensor_datatype real
  ("sensor/insidesite", "enclosed"): (_INSIDE.format(""), _INSIDE.format(' enclosed="true"')),
}


@pytest.fixture(scope="module")
def traced():
  reads, bulk, errors = attr_trace.trace_reads(_models())
  assert not errors, errors
  return reads | bulk


# attributes of <composite> children that MuJoCo 3.17 ignores for capsule and cylinder cables
# (its compiled model does not change): (joint, site, skin) attribute snippets with them
_CABLE = (
  '<worldbody><composite type="cable" curve="s" count="4 1 1" size="1" initial="none">'
  '<joint kind="main"{}/><geom type="capsule" size=".01"/><site{}/>{}</composite>'
  "</worldbody>"
)
_CABLE_IGNORED = {
  ("composite/joint", "solreffix"): (' solreffix="0.05 1"', "", ""),
  ("composite/joint", "solimpfix"): (' solimpfix="0.8 0.9 0.01"', "", ""),
  ("composite/joint", "type"): (' type="hinge"', "", ""),
  ("composite/joint", "axis"): (' axis="0 1 0"', "", ""),
  ("composite/joint", "limited"): (' limited="true"', "", ""),
  ("composite/site", "mesh"): ("", ' mesh="m"', ""),
  **{
    ("composite/skin", a): ("", "", f'<skin {a}="{v}"/>')
    for a, v in (
      ("texcoord", "true"),
      ("material", "mat"),
      ("group", "2"),
      ("rgba", "1 0 0 1"),
      ("inflate", "0.01"),
      ("subgrid", "2"),
    )
  },
}
_CABLE_HEAD = (
  '<mujoco><extension><plugin plugin="mujoco.elasticity.cable"/></extension>'
  '<asset><material name="mat"/><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>'
  "</asset>{}</mujoco>"
)


def _all_attrs():
  return [(k, a) for k in _supported_keys() for a in schema.ELEMENTS[k].attrs]


@pytest.mark.parametrize("key,attr", _all_attrs(), ids=lambda v: v)
def test_attribute_is_accounted_for(traced, key, attr):
  """Read by the compiler, documented as no effect in MuJoCo, or rejected as unsupported."""
  source = _DEFAULT_SOURCE.get(key, key)
  if source != key and attr not in schema.ELEMENTS[source].attrs:
    source = key
  entry = (source, attr)
  assert (
    entry in traced
    or (key, attr) in _HANDLED
    or entry in NO_EFFECT
    or entry in UNSUPPORTED
    or entry in _CABLE_IGNORED
  ), f"<{key}> attribute {attr!r} is accepted but never read"


def test_tables_are_not_stale(traced):
  """Attributes documented as no effect really are unread (else they belong to the traced)."""
  assert not set(NO_EFFECT) & traced


def _mjb(xml):
  m = mujoco.MjModel.from_xml_string(xml)
  buf = np.zeros(mujoco.mj_sizeModel(m), np.uint8)
  mujoco.mj_saveModel(m, None, buf)
  return bytes(buf)


@pytest.mark.parametrize("key,attr", sorted(NO_EFFECT), ids=lambda v: v)
def test_no_effect_in_mujoco(key, attr):
  without, with_ = NO_EFFECT[(key, attr)]
  xml0, xml1 = _BASE.format(top=without, tail=""), _BASE.format(top=with_, tail="")
  assert f" {attr}=" in xml1 and f" {attr}=" not in xml0
  assert _mjb(xml0) == _mjb(xml1)
  build.compile_model(xml1)


@pytest.mark.parametrize("key,attr", sorted(_CABLE_IGNORED), ids=lambda v: v)
def test_ignored_by_mujoco_cables(key, attr):
  joint, site, skin = _CABLE_IGNORED[(key, attr)]
  xml0 = _CABLE_HEAD.format(_CABLE.format("", "", ""))
  xml1 = _CABLE_HEAD.format(_CABLE.format(joint, site, skin))
  assert xml1.count(f" {attr}=") == xml0.count(f" {attr}=") + 1
  theirs0, theirs1 = (mujoco.MjModel.from_xml_string(x) for x in (xml0, xml1))
  for name in dir(theirs0):
    value = getattr(theirs0, name)
    if isinstance(value, np.ndarray) and name != "names":
      np.testing.assert_array_equal(value, getattr(theirs1, name), err_msg=name)
  ours0, ours1 = build.compile_model(xml0), build.compile_model(xml1)
  for name, value in ours0.arrays.items():
    np.testing.assert_array_equal(np.asarray(value), np.asarray(ours1.arrays[name]), err_msg=name)


@pytest.mark.parametrize("key,attr", sorted(UNSUPPORTED), ids=lambda v: v)
def test_unsupported_raises(key, attr):
  without, xml = UNSUPPORTED[(key, attr)]
  assert f" {attr}=" in xml and f" {attr}=" not in without
  try:
    assert _mjb(without) != _mjb(xml)
  except ValueError:
    pass  # MuJoCo rejects the value in this model
  build.compile_model(without)
  with pytest.raises(UnsupportedError) as e:
    build.compile_model(xml)
  tag = schema.ELEMENTS[key].tag
  line = xml[: xml.index(f" {attr}=")].count("\n") + 1
  assert (e.value.element, e.value.attribute, e.value.line) == (tag, attr, line)
  assert f"element '{tag}', attribute '{attr}', line {line}" in str(e.value)


# one element of each default slot, all in class "c" (meshes are left to test_mesh.py, whose
# hull and principal-axes tolerances a generic comparison cannot apply)
_APPLIED = """<mujoco>
  {top}
  <default><default class="c">{default}</default></default>
  <asset>
    <texture name="t" class="c" type="2d" builtin="checker" width="8" height="8"/>
    <material name="m" class="c" texture="t"/>
  </asset>
  <worldbody>
    <light class="c"/>
    <camera class="c"/>
    <body name="a" pos="0 0 1">
      <joint name="j1" class="c"/>
      <geom name="g1" class="c" size=".1"/>
      <site name="s1" class="c"/>
      <body name="b" pos=".3 0 0">
        <joint name="j2" class="c"/>
        <geom name="g2" class="c" size=".1"/>
        <site name="s2" class="c"/>
      </body>
    </body>
  </worldbody>
  <contact><pair class="c" geom1="g1" geom2="g2"/></contact>
  <equality>
    <connect class="c" body1="a" body2="b" anchor="0 0 0"/>
    <joint class="c" joint1="j1" joint2="j2"/>
  </equality>
  <tendon>
    <spatial class="c"><site site="s1"/><site site="s2"/></spatial>
    <fixed class="c"><joint joint="j1" coef="1"/></fixed>
  </tendon>
  <actuator><general class="c" joint="j1" ctrlrange="0 1"/><{act}/></actuator>
</mujoco>"""
# the second actuator, of the default's kind (adhesion takes a body, dcmotor a motor constant)
_ACTUATOR = {
  "position": 'position class="c" joint="j2"',
  "adhesion": 'adhesion class="c" body="b" ctrlrange="0 1"',
  "damper": 'damper class="c" joint="j2" ctrlrange="0 1"',
  "dcmotor": 'dcmotor class="c" joint="j2"',
}
_SINGLETONS = ["compiler", "compiler/lengthrange", "option", "option/flag", "size", "statistic"]
_SINGLETONS += [k for k in schema.ELEMENTS if k.startswith("visual/")]
# applied after compiling, from a forward pass (engine/setconst.py; tests/engine/test_setconst.py)
_SETCONST = {("default/joint", "springdamper"), ("compiler/lengthrange", "mode")}


def _values(a, negative=False):
  """Non-default values of a numeric or keyword attribute, as XML text (or numbers negated)."""
  if negative:
    return [
      " ".join(w[1:] if w.startswith("-") else "-" + w for w in v.split())
      for v in _values(a)
      if a.kind in ("real", "int")
    ]
  if a.kind in ("real", "int"):
    d = a.default
    if a.nmin is None:
      d = 0 if d is None else d
      return [str(d + 1) if a.kind == "int" else repr(d * 1.5 + 0.3)]
    n = a.nmax if a.nmax not in (None, -1) else 2
    d = tuple(d or ()) + (0,) * (n - len(d or ()))
    if a.kind == "int":
      return [" ".join(str(v + 1) for v in d)]
    return [" ".join(repr(v * 1.5 + 0.3 * (i + 1)) for i, v in enumerate(d))]
  if a.kind in ("bool", "kw"):
    return [k for k, v in a.keywords.items() if v != a.default][:3]
  return []


def _applied_cases():
  cases = []
  for key, sources, _, _ in schema._DEFAULT_PROJECTIONS:
    if key == "default/mesh":
      continue
    tag = schema.ELEMENTS[key].tag
    act = (
      _ACTUATOR.get(tag, f'{tag} class="c" joint="j2"')
      if sources[0].startswith("actuator/")
      else _ACTUATOR["position"]
    )
    for name, a in schema.ELEMENTS[key].attrs.items():
      for v in _values(a) + _values(a, negative=True):
        if name != "class" and (key, name) not in _SETCONST:
          # a dcmotor default needs a motor constant and resistance of its own
          extra = "".join(
            f' {r}="1"' for r in ("motorconst", "resistance") if tag == "dcmotor" and name != r
          )
          cases.append(
            (
              key,
              name,
              v,
              _APPLIED.format(top="", default=f'<{tag} {name}="{v}"{extra}/>', act=act),
            )
          )
  for key in _SINGLETONS:
    parts = key.split("/")
    for name, a in schema.ELEMENTS[key].attrs.items():
      for v in _values(a) + _values(a, negative=True):
        top = f'<{parts[-1]} {name}="{v}"/>'
        if len(parts) == 2:
          top = f"<{parts[0]}>{top}</{parts[0]}>"
        if (key, name) not in _SETCONST:
          cases.append(
            (key, name, v, _APPLIED.format(top=top, default="", act=_ACTUATOR["position"]))
          )
  return cases


# elements without a default class: (template with `{a}` where the attribute goes, host top,
# host tail); the host is _APPLIED with a ball joint, a named fixed tendon and actuator
_HOST = _APPLIED.replace(
  '<site name="s2" class="c"/>',
  '<site name="s2" class="c"/>\n'
  '<body name="c"><joint name="jb" type="ball"/><geom size=".1"/>'
  "</body>",
).replace('<fixed class="c">', '<fixed name="tf" class="c">')
_HOST = _HOST.replace('<general class="c"', '<general name="u" class="c"')
_HOST = _HOST.replace(
  "</worldbody>",
  '<body name="d"><joint name="jl" range="-1 1"/><geom size=".1"/></body></worldbody>',
)
_HOST = _HOST.replace(
  "</tendon>", '<fixed name="tl" range="-1 1"><joint joint="jl" coef="1"/></fixed></tendon>'
)
_SENSOR_REFS = {
  "touch": 'site="s1"',
  "accelerometer": 'site="s1"',
  "velocimeter": 'site="s1"',
  "gyro": 'site="s1"',
  "force": 'site="s1"',
  "torque": 'site="s1"',
  "magnetometer": 'site="s1"',
  "rangefinder": 'site="s1"',
  "jointpos": 'joint="j1"',
  "jointvel": 'joint="j1"',
  "jointactuatorfrc": 'joint="j1"',
  "jointlimitpos": 'joint="jl"',
  "jointlimitvel": 'joint="jl"',
  "jointlimitfrc": 'joint="jl"',
  "tendonpos": 'tendon="tf"',
  "tendonvel": 'tendon="tf"',
  "tendonactuatorfrc": 'tendon="tf"',
  "tendonlimitpos": 'tendon="tl"',
  "tendonlimitvel": 'tendon="tl"',
  "tendonlimitfrc": 'tendon="tl"',
  "actuatorpos": 'actuator="u"',
  "actuatorvel": 'actuator="u"',
  "actuatorfrc": 'actuator="u"',
  "ballquat": 'joint="jb"',
  "ballangvel": 'joint="jb"',
  "subtreecom": 'body="a"',
  "subtreelinvel": 'body="a"',
  "subtreeangmom": 'body="a"',
  "insidesite": 'site="s1" objtype="body" objname="b"',
  "distance": 'geom1="g1" geom2="g2"',
  "normal": 'geom1="g1" geom2="g2"',
  "fromto": 'geom1="g1" geom2="g2"',
  "contact": 'geom1="g1"',
  "e_potential": "",
  "e_kinetic": "",
  "clock": "",
  "user": 'dim="1"',
}
for _t in ("pos", "quat", "xaxis", "yaxis", "zaxis", "linvel", "angvel", "linacc", "angacc"):
  _SENSOR_REFS["frame" + _t] = 'objtype="body" objname="a"'
_ELEMENTS = {
  "body": ('<worldbody><body {a}><joint/><geom size=".1"/></body></worldbody>', ""),
  "frame": ('<worldbody><frame {a}><body><joint/><geom size=".1"/></body></frame></worldbody>', ""),
  "body/inertial": (
    '<worldbody><body><joint/><inertial mass="1" diaginertia="1 2 3" {a}/></body></worldbody>',
    "",
  ),
  "body/freejoint": ('<worldbody><body><freejoint {a}/><geom size=".1"/></body></worldbody>', ""),
  "replicate": (
    '<worldbody><replicate count="2" {a}><body><joint/><geom size=".1"/></body>'
    "</replicate></worldbody>",
    "",
  ),
  "tendon/fixed": ("", '<tendon><fixed {a}><joint joint="j1" coef="1"/></fixed></tendon>'),
  "tendon/fixed/joint": ("", '<tendon><fixed><joint joint="j1" {a}/></fixed></tendon>'),
  "tendon/spatial/pulley": (
    "",
    '<tendon><spatial><site site="s1"/><site site="s2"/><pulley {a}/>'
    '<site site="s1"/><site site="s2"/></spatial></tendon>',
  ),
  "equality/weld": ("", '<equality><weld body1="a" {a}/></equality>'),
  "equality/weld:site": ("", '<equality><weld site1="s1" site2="s2" {a}/></equality>'),
  "equality/joint": ("", '<equality><joint joint1="j1" {a}/></equality>'),
  "equality/tendon": ("", '<equality><tendon tendon1="tf" {a}/></equality>'),
  "custom/numeric": ("", '<custom><numeric name="n" size="3" {a}/></custom>'),
  "keyframe/key": ("", "<keyframe><key {a}/></keyframe>"),
}
_ELEMENTS.update(
  {f"sensor/{t}": ("", f"<sensor><{t} {r} {{a}}/></sensor>") for t, r in _SENSOR_REFS.items()}
)


def _element_xml(key, attrs):
  top, tail = _ELEMENTS[key]
  xml = _HOST.format(top="", default="", act=_ACTUATOR["position"])
  if top:
    xml = xml.replace("</worldbody>", top.format(a=attrs)[len("<worldbody>") :], 1)
  return xml.replace("</mujoco>", tail.format(a=attrs) + "</mujoco>")


# required attributes the templates give unless the test sets them
_REQUIRED = {
  "body/inertial": {"pos": "0 0 0"},
  "tendon/fixed/joint": {"coef": "1"},
  "tendon/spatial/pulley": {"divisor": "1"},
}


def _with_required(key, attrs):
  given = {a.split("=")[0] for a in attrs.split()} if attrs else set()
  req = " ".join(f'{k}="{v}"' for k, v in _REQUIRED.get(key, {}).items() if k not in given)
  return f"{attrs} {req}".strip()


def _element_cases():
  return [
    (key, name, v, _element_xml(key, _with_required(key, f'{name}="{v}"')))
    for key in _ELEMENTS
    for name, a in schema.ELEMENTS[key.split(":")[0]].attrs.items()
    for v in _values(a)
  ]


# negative values we reject with an error naming the attribute where MuJoCo accepts them
_DIVERGES = {"nsample": "MuJoCo keeps a negative nsample in actuator_history; we reject it"}
# negative values MuJoCo rejects only after compiling: in mj_setConst's lengthrange
# (engine/setconst.py) and when allocating mjData
_REJECTED_LATER = {("default/muscle", "armature"), ("size", "nuserdata")}


@pytest.mark.parametrize("key", sorted(_ELEMENTS))
def test_element_template_matches_mujoco(key):
  """The templates of the applied-value test compile, as in MuJoCo, with no attribute set."""
  compare(xml=_element_xml(key, _with_required(key, "")))


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(
  "key,attr,value,xml", _applied_cases() + _element_cases(), ids=lambda v: v if "<" not in v else ""
)
def test_attribute_applied_as_mujoco(key, attr, value, xml):
  """A non-default value compiles to MuJoCo's fields, or is rejected as MuJoCo rejects it."""
  negative = value.startswith("-")
  if (negative and attr in _DIVERGES) or f'{attr}="{value}"' in UNSUPPORTED.get(
    (key, attr), ("", "")
  )[1]:
    with pytest.raises(CompileError) as e:
      build.compile_model(xml)
    assert e.value.attribute == attr
    return
  try:
    mujoco.MjModel.from_xml_string(xml)
  except ValueError:
    if negative and (key, attr) in _REJECTED_LATER:
      return
    with pytest.raises(CompileError):
      build.compile_model(xml)
    return
  compare(xml=xml)


def test_camera_intrinsics_need_sensorsize():
  """As MuJoCo: focal/principal lengths without a sensor size are an error, not ignored."""
  xml = '<mujoco><worldbody>\n<camera principalpixel="0 2"/></worldbody></mujoco>'
  with pytest.raises(CompileError) as e:
    build.compile_model(xml)
  assert (e.value.element, e.value.attribute, e.value.line) == ("camera", "principalpixel", 2)
  build.compile_model(xml.replace("/>", ' sensorsize="1 1" resolution="10 10"/>'))


def test_weld_sites_exclude_bodies():
  """As MuJoCo: a weld or connect is given by sites or by bodies, not both."""
  xml = (
    '<mujoco><worldbody><body name="a"><joint/><geom size=".1"/><site name="s1"/></body>'
    '<site name="s2"/></worldbody><equality>\n<weld site1="s1" site2="s2" relpose="0 0 0 1 '
    '0 0 0"/></equality></mujoco>'
  )
  with pytest.raises(CompileError) as e:
    build.compile_model(xml)
  assert (e.value.element, e.value.attribute, e.value.line) == ("weld", "relpose", 2)


@pytest.mark.parametrize(
  "attrs",
  [
    'qpos="1 2 3 0"',
    'qpos="1 2 3 0 1 0 0 7 0"',
    'qvel="1 2"',
    'mpos="9 9 9 8"',
    'mpos="9"',
    'mquat="0 2 0 0 5"',
    'ctrl=""',
    'qpos=""',
  ],
)
def test_short_keyframe_vectors(attrs):
  """As MuJoCo: short keyframe vectors set their leading entries (whole mocap bodies)."""
  xml = (
    '<mujoco><worldbody><body><freejoint/><geom size=".1"/></body><body pos="1 0 0">'
    '<joint type="slide" ref="0.5"/><joint type="ball"/><geom size=".1"/></body>'
    '<body mocap="true" pos="1 2 3"/><body mocap="true" pos="4 5 6" quat="0 0 1 0"/>'
    '</worldbody><actuator><motor joint="j"/></actuator>'
    f"<keyframe><key {attrs}/></keyframe></mujoco>"
  ).replace('<joint type="slide"', '<joint name="j" type="slide"')
  compare(xml=xml)


_CHAIN = """<mujoco>{comp}<worldbody>
  <body name="a" {A}><joint type="slide"/><geom size=".1"/>
    <body name="b" pos=".3 0 0" {B}><joint type="slide" axis="0 1 0"/><geom size=".1"/>
      <body name="c" pos=".3 0 0" {C}><geom size=".1" pos=".1 0 0"/>
        <body {D}><geom size=".1" pos="0 .2 0"/></body>
      </body>
    </body>
  </body>
  <body pos="1 0 0" {E}><freejoint/><geom size=".1"/></body>
  <body pos="2 0 0" {F}><geom size=".1"/><body><geom size=".2" pos="0 0 .3"/></body></body>
</worldbody></mujoco>"""


@pytest.mark.parametrize("comp", ["", '<compiler fusestatic="true"/>'], ids=["", "fusestatic"])
@pytest.mark.parametrize("attr", ['simple="false"', 'fuse="false"'])
@pytest.mark.parametrize("which", "ABCDEF")
def test_body_simple_and_fuse(comp, attr, which):
  """body simple="false" clears body_simple; fuse="false" keeps a static body, as MuJoCo."""
  compare(xml=_CHAIN.format(comp=comp, **{k: attr if k == which else "" for k in "ABCDEF"}))


_MESHED = """<mujoco><default><default class="c"><mesh {a}/></default></default>
  <asset><mesh name="me" class="c" vertex="0 0 0 1 0 0 0 2 0 0 0 3 1 1 1"
               face="0 2 1 0 1 3 0 3 2 1 2 4 1 4 3 2 3 4"/></asset>
  <worldbody><body><joint/><geom type="mesh" mesh="me"/></body></worldbody>
</mujoco>"""


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(
  "attr,value",
  [(n, v) for n, a in schema.ELEMENTS["default/mesh"].attrs.items() for v in _values(a)],
  ids=str,
)
def test_mesh_attribute_applied_as_mujoco(attr, value):
  """Mesh attributes (of a default class) compile as MuJoCo's, or are rejected as by MuJoCo."""
  xml = _MESHED.format(a=f'{attr}="{value}"')
  try:
    mujoco.MjModel.from_xml_string(xml)
  except ValueError:
    with pytest.raises(CompileError) as e:
      build.compile_model(xml)
    assert e.value.attribute == attr
    return
  compare(xml=xml, tol=MESH_TOL, skip=MESH_SKIP)
