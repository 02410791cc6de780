"""<composite type="cable"> and the `mujoco.elasticity.cable` plugin against the mujoco package
(whose wheel ships the plugin): every model array the composite expands to, then qpos, qvel and
qfrc_passive stepped from the same state, and the compiler's errors for what is not supported."""

import mujoco
import numpy as np
import pytest

import engine
from engine import plugin as P
from engine.errors import CompileError
from engine.errors import UnsupportedError

PLUGIN = """
      <plugin plugin="mujoco.elasticity.cable">
        <config key="twist" value="{twist}"/>
        <config key="bend" value="{bend}"/>{extra}
      </plugin>"""


def _cable(
  attrs,
  children='<geom type="capsule" size=".005"/>',
  twist="1e6",
  bend="1e7",
  extra="",
  body=None,
  plugin=True,
  head="",
):
  """A model with one cable composite (inside `body` if given: an opening tag)."""
  comp = (
    f'<composite type="cable" {attrs}>'
    + (PLUGIN.format(twist=twist, bend=bend, extra=extra) if plugin else "")
    + f"\n      {children}\n    </composite>"
  )
  if body:
    comp = f"{body}\n    {comp}\n    </body>"
  return f"""<mujoco>
  <extension><plugin plugin="mujoco.elasticity.cable"/></extension>{head}
  <worldbody>
    {comp}
  </worldbody>
</mujoco>"""


HANGING = _cable(
  'curve="s" count="21 1 1" size="1" offset="0 0 1" initial="none" prefix="h"',
  '<joint kind="main" damping=".01"/><geom type="capsule" size=".01" rgba=".8 .2 .1 1"/>',
  twist="1e5",
  bend="1e6",
)


def _cantilever(bend="1e6"):
  """A straight cable welded to the world at one end: gravity bends it."""
  return _cable(
    'curve="s" count="11 1 1" size="0.6" offset="0 0 0.5" initial="none"',
    '<joint kind="main" damping=".002"/><geom type="cylinder" size=".01"/>',
    twist="1e6",
    bend=bend,
  )


CANTILEVER = _cantilever()
# a helix whose rest shape is straight (flat): it unwinds under its own elasticity, falling
FLAT_HELIX = _cable(
  'curve="cos(s) sin(s) s" count="12" size="1 0.2 2" offset="0 0 2" initial="free" prefix="x"',
  '<joint kind="main" damping=".001"/><geom type="capsule" size=".01" density="500"/>',
  twist="2e6",
  bend="4e6",
  extra='\n        <config key="flat" value="true"/>',
)

MODELS = {
  "line": _cable(
    'curve="s" count="5 1 1" size="1" offset="0 0 1" initial="none" prefix="c"',
    '<joint kind="main" damping=".015"/>'
    '<geom type="capsule" size=".005" rgba=".8 .2 .1 1" condim="1"/>',
    extra='\n        <config key="vmax" value="0.05"/>',
  ),
  # inside a body with a childclass: MuJoCo's built-in defaults apply, not the classes
  "cos_in_class": _cable(
    'curve="s cos(s) 0" count="6 1 1" size="1 0.2 1" offset="0 0 1" initial="ball" prefix="c"',
    '<joint kind="main" damping=".015" stiffness="0.1" armature="0.01" group="2" '
    'frictionloss="0.001"/><geom type="capsule" size=".005" condim="1" friction="0.5"/>'
    '<site size="0.01" rgba="1 0 0 1"/>',
    body='<body name="b" childclass="x" pos="0 0 2">',
    head='\n  <default><geom rgba="0 1 0 1" density="500"/><joint damping="3"/>'
    '<site rgba="1 1 0 1"/><default class="x"><geom rgba="0 0 1 1"/></default></default>',
  ),
  # in a rotated frame, with a (non-unit) quat rotating the vertices, cylinders, no prefix;
  # the model's own exclude and text come first, a body plugin instance before the cable's
  "helix_frame": """<mujoco>
  <extension><plugin plugin="mujoco.elasticity.cable"/></extension>
  <custom><text name="t0" data="hello"/></custom>
  <contact><exclude name="ex" body1="a" body2="world"/></contact>
  <worldbody>
    <body name="a"><geom size=".1"/>
      <plugin plugin="mujoco.elasticity.cable"><config key="twist" value="1"/></plugin></body>
    <frame pos="0 1 0" euler="0 0 30">
      <composite type="cable" curve="cos(s) sin(s) s" count="7" size="1 0.2 1" quat="1 0 0 1">
        <plugin plugin="mujoco.elasticity.cable"/>
        <geom type="cylinder" size=".005" mass="0.01"/>
      </composite>
    </frame>
  </worldbody>
</mujoco>""",
  "vertex_free": _cable(
    'vertex="0 0 1  0.1 0 1.05  0.25 0.02 1.1  0.3 0.1 1  0.5 0.1 1" initial="free" prefix="v:"',
    '<joint kind="main" damping=".01" armature=".02"/>'
    '<geom type="capsule" size=".02" density="300" adhesion="0.5" '
    'surfacevel="0.1 0.2"/><site group="1"/>',
  ),
  "two_cables": _cable(
    'curve="0 s" count="4" size="0.5" prefix="a"',
    '<joint kind="main" range="0 1" margin="0.01" solreflimit="0.03 1" '
    'solimplimit="0.8 0.9 0.01" solreffriction="0.03 2" solimpfriction="0.7 0.8 0.02"/>'
    '<geom type="capsule" size=".01" material="m" contype="2" conaffinity="3" group="1" '
    'priority="1" solmix="0.5" solref="0.01 2" solimp="0.8 0.9 0.01" margin="0.1" gap="0.05"/>'
    '<site material="m" size="0.02 0.03"/>',
    head='\n  <asset><material name="m" rgba="0 1 0 1"/></asset>',
  ).replace(
    "</worldbody>",
    '<composite type="cable" curve="0 0 s" count="5" size="0.4" offset="1 0 0" '
    'prefix="b"><plugin plugin="mujoco.elasticity.cable"/><geom type="cylinder" size=".01"/>'
    "</composite>\n  </worldbody>",
  ),
  "explicit_instance": _cable(
    'curve="s sin(s)" count="9 1 1" size="1 0.1 1" offset="0 0 1" initial="none" prefix="c"',
    plugin=False,
  )
  .replace(
    '<plugin plugin="mujoco.elasticity.cable"/></extension>',
    '<plugin plugin="mujoco.elasticity.cable"><instance name="foo"><config key="twist" '
    'value="1e5"/><config key="bend" value="3e5"/></instance></plugin></extension>',
  )
  .replace(
    '<geom type="capsule"',
    '<plugin plugin="mujoco.elasticity.cable" instance="foo"/><geom type="capsule"',
  ),
  "no_plugin": _cable('curve="s" count="6" size="1" initial="none"', plugin=False),
  "hanging": HANGING,
  "cantilever": CANTILEVER,
  "flat_helix": FLAT_HELIX,
  # a ribbon of boxes: MuJoCo wraps it in a skin (its default look, then a styled one)
  "box": _cable(
    'curve="s 0 sin(s)" count="11 1 1" size="1 .2 1" initial="none"',
    '<joint kind="main" damping=".01"/><geom type="box" size=".01 .02 .005"/>',
    twist="1e5",
    bend="1e6",
  ),
  "box_skin": _cable(
    'curve="s" count="7 1 1" size=".6" offset="0 0 1" prefix="r"',
    '<skin rgba=".2 .3 .4 1" group="2" texcoord="true"/><geom type="box" size=".02 .03 .004"/>',
  ),
}


def _compare_model(mm, m):
  """Every array of mujoco's model that ours has: integers equal, floats to 1e-12."""
  checked = 0
  for name in dir(mm):
    a = getattr(mm, name)
    if name.startswith("_") or not isinstance(a, np.ndarray) or not hasattr(m, name):
      continue
    if name == "plugin":  # registry slots: each process numbers its plugins its own way
      assert all(P.plugin_at_slot(k).name == "mujoco.elasticity.cable" for k in m.plugin)
      continue
    b = np.asarray(getattr(m, name))
    assert a.shape == b.shape, name
    if a.dtype.kind == "f":
      np.testing.assert_allclose(b, a, rtol=0, atol=1e-12, err_msg=name)
    else:
      np.testing.assert_array_equal(b, a, err_msg=name)
    checked += 1
  assert checked > 200


@pytest.mark.parametrize("name", MODELS)
def test_composite_model_equals_mujoco(name):
  xml = MODELS[name]
  mm = mujoco.MjModel.from_xml_string(xml)
  m = engine.MjModel.from_xml_string(xml)
  _compare_model(mm, m)
  assert m.names == bytes(mm.names)


def test_composite_names_and_layout():
  m = engine.MjModel.from_xml_string(MODELS["line"])
  name = lambda t, i: engine.mj_id2name(m, t, i)  # noqa: E731
  bodies = [name(engine.mjtObj.mjOBJ_BODY, i) for i in range(m.nbody)]
  assert bodies == ["world", "cB_first", "cB_1", "cB_2", "cB_last"]
  assert [name(engine.mjtObj.mjOBJ_JOINT, i) for i in range(m.njnt)] == ["cJ_1", "cJ_2", "cJ_last"]
  assert [name(engine.mjtObj.mjOBJ_SITE, i) for i in range(m.nsite)] == ["cS_first", "cS_last"]
  assert list(m.body_plugin) == [-1, 0, 0, 0, 0]
  assert m.nplugin == 1 and name(engine.mjtObj.mjOBJ_PLUGIN, 0) == "compositec"
  assert m.nexclude == 3 and m.ntext == 1
  assert list(m.jnt_group) == [3, 3, 3] and list(m.site_group) == [3, 3]


def _states(xml, qvel_noise, seed=0):
  mm = mujoco.MjModel.from_xml_string(xml)
  md = mujoco.MjData(mm)
  m = engine.MjModel.from_xml_string(xml)
  d = engine.MjData(m)
  md.qvel[:] = qvel_noise * np.random.default_rng(seed).standard_normal(mm.nv)
  d.qpos[:] = md.qpos
  d.qvel[:] = md.qvel
  return mm, md, m, d


@pytest.mark.parametrize(
  "name, nstep, noise",
  [
    ("hanging", 300, 0.2),
    ("cantilever", 300, 0.0),
    ("flat_helix", 200, 0.0),
    ("line", 200, 0.5),
    ("cos_in_class", 200, 0.5),
    ("vertex_free", 100, 0.3),
    ("explicit_instance", 200, 0.3),
    ("box", 200, 0.3),
    ("box_skin", 200, 0.3),
  ],
)
def test_steps_equal_mujoco(name, nstep, noise):
  """The same state stepped in both engines: bitwise equal in practice; asserted at 1e-9."""
  mm, md, m, d = _states(MODELS[name], noise)
  mujoco.mj_forward(mm, md)
  engine.mj_forward(m, d)
  np.testing.assert_allclose(d.qfrc_passive, md.qfrc_passive, rtol=0, atol=1e-12)
  worst = 0.0
  for _ in range(nstep):
    mujoco.mj_step(mm, md)
    engine.mj_step(m, d)
    for ours, theirs in ((d.qpos, md.qpos), (d.qvel, md.qvel), (d.qfrc_passive, md.qfrc_passive)):
      worst = max(worst, float(np.abs(ours - theirs).max()))
  assert worst < 1e-9, worst
  # the elastic forces are really there (the cable moved and bent)
  assert np.abs(md.qfrc_passive).max() > 1e-3


def test_elastic_forces_alone():
  """With damping and gravity off, qfrc_passive is the plugin's alone: compare a bent state."""
  xml = FLAT_HELIX.replace('damping=".001"', "").replace(
    "<worldbody>", '<option gravity="0 0 0"/>\n  <worldbody>'
  )
  mm, md, m, d = _states(xml, 0.0)
  rng = np.random.default_rng(3)
  for j in range(1, mm.njnt):  # tilt every ball joint
    adr = mm.jnt_qposadr[j]
    q = np.array([1.0, *(0.2 * rng.standard_normal(3))])
    md.qpos[adr : adr + 4] = q / np.linalg.norm(q)
  d.qpos[:] = md.qpos
  mujoco.mj_forward(mm, md)
  engine.mj_forward(m, d)
  assert np.abs(md.qfrc_passive).max() > 1e-2
  np.testing.assert_allclose(d.qfrc_passive, md.qfrc_passive, rtol=0, atol=1e-12)


def test_cantilever_bends_less_when_stiffer():
  tips = []
  for bend in ("2e5", "2e6"):
    m = engine.MjModel.from_xml_string(_cantilever(bend))
    d = engine.MjData(m)
    engine.mj_step(m, d, 500)
    tips.append(d.site_xpos[1, 2])
  assert tips[0] < tips[1] < 0.5


# ---- errors ----


def _error(xml, cls=CompileError):
  with pytest.raises(cls) as info:
    engine.MjModel.from_xml_string(xml)
  return info.value


@pytest.mark.parametrize(
  "attrs, children, attribute, text",
  [
    ('curve="s" count="5 2 1" size="1"', None, "count", "one-dimensional"),
    ('curve="s" count="1" size="1"', None, "count", "one-dimensional"),
    ('curve="s" count="0" size="1"', None, "count", "positive counts"),
    ('curve="s" count="5 1 2" size="1"', None, "count", "singleton counts"),
    ('curve="s" count="5" size="0"', None, "size", "positive spacing"),
    ('curve="s tan(s)" count="5" size="1"', None, "curve", "invalid curve shape"),
    ('curve="s 0 0 0" count="5" size="1"', None, "curve", "maximum of 3"),
    ('vertex="0 0 0 1 0 0 2 0 0" count="3"', None, "vertex", "not both"),
    ('vertex="0 0 0 1 0" ', None, "vertex", "3 numbers"),
    ('curve="s" count="5" size="1"', '<geom size=".01"/>', "type", "cylinder, capsule or box"),
    (
      'curve="s" count="5" size="1"',
      '<geom type="sphere" size=".01"/>',
      "type",
      "cylinder, capsule or box",
    ),
  ],
)
def test_composite_errors(attrs, children, attribute, text):
  xml = _cable(attrs, children) if children else _cable(attrs)
  e = _error(xml)
  assert text in str(e) and e.attribute == attribute, str(e)
  assert e.element in ("composite", "geom") and e.line is not None
  with pytest.raises(ValueError):  # mujoco rejects them too
    mujoco.MjModel.from_xml_string(xml)


def test_composite_error_location():
  e = _error(_cable('curve="s" count="5 2" size="1"'))
  assert (e.element, e.attribute, e.line) == ("composite", "count", 4)


@pytest.mark.parametrize("ctype", ["grid", "particle", "rope", "loop", "cloth"])
def test_other_composite_types_unsupported(ctype):
  e = _error(
    _cable('curve="s" count="5" size="1"').replace('"cable" curve', f'"{ctype}" curve'),
    UnsupportedError,
  )
  assert "not supported" in str(e) and ctype in str(e) and e.attribute == "type"
  assert e.element == "composite" and e.line == 4


def test_box_cable_skin_follows_the_boxes():
  """The skin's vertices (placed from its bones) lie on the boxes' long edges, widened by the
  inflate (the box's thickness) off each face: the ribbon wraps the boxes."""
  m = engine.MjModel.from_xml_string(MODELS["box"])
  d = engine.MjData(m)
  engine.mj_step(m, d, 200)  # bend it
  assert m.nskin == 1 and m.skin_inflate[0] == pytest.approx(0.01)
  bones = m.skin_bonebodyid
  assert [engine.mj_id2name(m, engine.mjtObj.mjOBJ_BODY, b) for b in bones[:4]] == [
    "B_first",
    "B_first",
    "B_1",
    "B_1",
  ]
  # bone (ix, iy): vertex ix's edge point on side iy, in its body's frame
  for k in range(0, 2 * 10, 2):
    for iy, y in ((0, -0.02), (1, 0.02)):
      b = bones[k + iy]
      np.testing.assert_allclose(m.skin_bonebindpos[k + iy], [0.0, y, 0.0], atol=1e-9)  # f32
      edge = d.xpos[b] + d.xmat[b].reshape(3, 3) @ [0.0, y, 0.0]
      geom = m.body_geomadr[b]  # that corner of the box's near end face
      box = d.geom_xpos[geom] + d.geom_xmat[geom].reshape(3, 3) @ [-m.geom_size[geom, 0], y, 0]
      np.testing.assert_allclose(edge, box, atol=1e-12)


def test_box_cable_skin_subgrid_unsupported():
  e = _error(
    _cable(
      'curve="s" count="5" size="1"', '<skin subgrid="2"/><geom type="box" size=".01 .02 .03"/>'
    ),
    UnsupportedError,
  )
  assert e.element == "skin" and e.attribute == "subgrid" and "subgrid" in str(e)


def test_other_plugin_rejected():
  xml = _cable('curve="s" count="5" size="1"').replace(
    '<plugin plugin="mujoco.elasticity.cable">\n', '<plugin plugin="mujoco.pid">\n'
  )
  e = _error(xml)
  assert "only mujoco.elasticity.cable" in str(e) and e.element == "plugin"


def test_bad_config_rejected():
  e = _error(_cable('curve="s" count="5" size="1"', twist="stiff"), Exception)
  assert "twist" in str(e)


def test_count_three_fails_as_in_mujoco():
  """MuJoCo names the first exclude's second body B_1 even when it is B_last."""
  xml = _cable('curve="s" count="3" size="1"')
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  e = _error(xml)
  assert "B_1" in str(e)


def test_bodies_must_be_contiguous():
  xml = """<mujoco>
  <extension><plugin plugin="mujoco.elasticity.cable"/></extension>
  <worldbody>
    <body><joint type="ball"/><geom type="capsule" size=".01" fromto="0 0 0 .1 0 0"/>
      <plugin instance="c"/></body>
    <body><joint type="ball"/><geom size=".01"/></body>
    <body><joint type="ball"/><geom type="capsule" size=".01" fromto="0 0 0 .1 0 0"/>
      <plugin instance="c"/></body>
  </worldbody>
</mujoco>""".replace(
    '<extension><plugin plugin="mujoco.elasticity.cable"/>',
    '<extension><plugin plugin="mujoco.elasticity.cable"><instance name="c"/></plugin>',
  )
  with pytest.raises(Exception):
    mujoco.MjData(mujoco.MjModel.from_xml_string(xml))
  e = _error(xml, Exception)
  assert "contiguous" in str(e)
