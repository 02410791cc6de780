"""No silently ignored MJCF attribute: every attribute the schema accepts is used or accounted for.

For each supported (element, attribute) of engine/compiler/schema.py one of these holds:
  read         the compiler reads it while compiling our models (traced, tests/attr_trace.py);
               its effect is checked against MuJoCo by the oracle tests of each feature;
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
from engine.errors import UnsupportedError
from tests import attr_trace

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _png(w, h, seed):
  rgb = np.random.default_rng(seed).integers(0, 255, (h, w, 3), dtype=np.uint8)
  buf = io.BytesIO()
  Image.fromarray(rgb).save(buf, format='PNG')
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
  return {'h.png': _png(8, 8, 0), 't.png': _png(8, 8, 1), 'c.png': _png(16, 12, 2)}


def _models():
  paths = sorted(glob.glob(os.path.join(_ROOT, 'tests', 'models', '**', '*.xml'), recursive=True)
                 + glob.glob(os.path.join(_ROOT, 'assets', 'suite', '*.xml')))
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
_HANDLED = {('default', 'class')}

# (element key, attribute): (MJCF without, MJCF with the attribute); MuJoCo compiles both to the
# same model
_BASE = """<mujoco>{top}<worldbody><body name="b"><joint/><geom size=".1"/>
  <site name="s" type="box" size=".1 .1 .1"/></body></worldbody>{tail}</mujoco>"""
_TEX = ('<asset><texture name="t" type="2d" builtin="checker" width="8" height="8"{}/>'
        '<material name="m" texture="t"/></asset>')
_MESH = '<asset><mesh name="me" vertex="0 0 0 1 0 0 0 1 0 0 0 1"{}/></asset>'
NO_EFFECT = {
  # threading and saving options of the compiler (no compiled field)
  ('compiler', 'usethread'): ('', '<compiler usethread="false"/>'),
  ('compiler', 'saveinertial'): ('', '<compiler saveinertial="true"/>'),
  ('compiler', 'savecanonical'): ('', '<compiler savecanonical="true"/>'),
  ('compiler', 'savecompiled'): ('', '<compiler savecompiled="true"/>'),
  # name conflicts of attached models (<attach> is unsupported)
  ('compiler', 'conflict'): ('', '<compiler conflict="error"/>'),
  # texture data saved into the XML
  ('asset/texture', 'embed'): (_TEX.format(''), _TEX.format(' embed="true"')),
  # parameters of builtin meshes (builtin raises UnsupportedError)
  ('asset/mesh', 'params'): (_MESH.format(''), _MESH.format(' params="1 2"')),
}

# (element key, attribute): (MJCF without, MJCF with a value MuJoCo applies or rejects and we
# cannot apply yet)
_BODY = '<mujoco><worldbody><body{}><joint/><geom size=".1"/></body></worldbody></mujoco>'
_FUSE = ('<mujoco><compiler fusestatic="true"/><worldbody><body><joint/><geom size=".1"/>'
         '<body{}><geom size=".1" pos="0 0 .3"/></body></body></worldbody></mujoco>')
_INSIDE = _BASE.format(top='', tail='<sensor><insidesite site="s" objtype="body" objname="b"{}/>'
                       '</sensor>')
UNSUPPORTED = {
  ('compiler', 'passthrough'): ('<mujoco/>', '<mujoco><compiler passthrough="true"/></mujoco>'),
  # MuJoCo requires integrator="discrete" and the CG solver for it
  ('option/flag', 'ipc'): ('<mujoco/>', '<mujoco><option><flag ipc="enable"/></option></mujoco>'),
  # body_simple and dof_simplenum change
  ('body', 'simple'): (_BODY.format(''), _BODY.format(' simple="false"')),
  # the body is kept under compiler fusestatic
  ('body', 'fuse'): (_FUSE.format(''), _FUSE.format(' fuse="false"')),
  # a signed distance: sensor_intprm[0] = 1 and sensor_datatype real
  ('sensor/insidesite', 'enclosed'): (_INSIDE.format(''), _INSIDE.format(' enclosed="true"')),
}


@pytest.fixture(scope='module')
def traced():
  reads, bulk, errors = attr_trace.trace_reads(_models())
  assert not errors, errors
  return reads | bulk


def _all_attrs():
  return [(k, a) for k in _supported_keys() for a in schema.ELEMENTS[k].attrs]


@pytest.mark.parametrize('key,attr', _all_attrs(), ids=lambda v: v)
def test_attribute_is_accounted_for(traced, key, attr):
  """Read by the compiler, documented as no effect in MuJoCo, or rejected as unsupported."""
  source = _DEFAULT_SOURCE.get(key, key)
  if source != key and attr not in schema.ELEMENTS[source].attrs:
    source = key
  entry = (source, attr)
  assert (entry in traced or (key, attr) in _HANDLED or entry in NO_EFFECT
          or entry in UNSUPPORTED), f'<{key}> attribute {attr!r} is accepted but never read'


def test_tables_are_not_stale(traced):
  """Attributes documented as no effect really are unread (else they belong to the traced)."""
  assert not set(NO_EFFECT) & traced


def _mjb(xml):
  m = mujoco.MjModel.from_xml_string(xml)
  buf = np.zeros(mujoco.mj_sizeModel(m), np.uint8)
  mujoco.mj_saveModel(m, None, buf)
  return bytes(buf)


@pytest.mark.parametrize('key,attr', sorted(NO_EFFECT), ids=lambda v: v)
def test_no_effect_in_mujoco(key, attr):
  without, with_ = NO_EFFECT[(key, attr)]
  xml0, xml1 = _BASE.format(top=without, tail=''), _BASE.format(top=with_, tail='')
  assert f' {attr}=' in xml1 and f' {attr}=' not in xml0
  assert _mjb(xml0) == _mjb(xml1)
  build.compile_model(xml1)


@pytest.mark.parametrize('key,attr', sorted(UNSUPPORTED), ids=lambda v: v)
def test_unsupported_raises(key, attr):
  without, xml = UNSUPPORTED[(key, attr)]
  assert f' {attr}=' in xml and f' {attr}=' not in without
  try:
    assert _mjb(without) != _mjb(xml)
  except ValueError:
    pass  # MuJoCo rejects the value in this model
  build.compile_model(without)
  with pytest.raises(UnsupportedError) as e:
    build.compile_model(xml)
  tag = schema.ELEMENTS[key].tag
  line = xml[:xml.index(f' {attr}=')].count('\n') + 1
  assert (e.value.element, e.value.attribute, e.value.line) == (tag, attr, line)
  assert f"element '{tag}', attribute '{attr}', line {line}" in str(e.value)
