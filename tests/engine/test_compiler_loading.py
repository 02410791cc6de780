"""Loading MJCF as people write it: nested includes, tinyxml2-tolerated XML, silent-wrong-model
guards. Each case is compiled by MuJoCo and by us and compared."""

import numpy as np
import pytest

import engine

mujoco = pytest.importorskip("mujoco")

_TET = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
_FIELDS = ("ngeom", "geom_size", "geom_pos", "nmeshvert", "mesh_vert", "body_mass", "body_inertia")


def _same(mjm, m, fields=_FIELDS):
  for f in fields:
    np.testing.assert_allclose(getattr(m, f), getattr(mjm, f), atol=1e-9, err_msg=f)


def _both_path(path):
  return mujoco.MjModel.from_xml_path(str(path)), engine.MjModel.from_xml_path(str(path))


def _nested_tree(root, top_b=False):
  (root / "sub").mkdir()
  (root / "main.xml").write_text('<mujoco>\n  <include file="sub/a.xml"/>\n</mujoco>')
  (root / "sub" / "a.xml").write_text(
    '<mujoco><worldbody><geom size="1"/></worldbody><include file="b.xml"/></mujoco>'
  )
  (root / "sub" / "b.xml").write_text('<mujoco><worldbody><geom size="2"/></worldbody></mujoco>')
  if top_b:
    (root / "b.xml").write_text('<mujoco><worldbody><geom size="3"/></worldbody></mujoco>')


def test_nested_include_relative_to_including_file(tmp_path):
  _nested_tree(tmp_path)
  mjm, m = _both_path(tmp_path / "main.xml")
  assert m.ngeom == 2
  _same(mjm, m)


def test_nested_include_prefers_model_folder(tmp_path):
  # MuJoCo tries the model file's folder before the including file's folder
  _nested_tree(tmp_path, top_b=True)
  mjm, m = _both_path(tmp_path / "main.xml")
  assert m.geom_size[1, 0] == 3
  _same(mjm, m)


def test_nested_include_relative_model_path(tmp_path, monkeypatch):
  _nested_tree(tmp_path)
  monkeypatch.chdir(tmp_path)
  mjm, m = _both_path("main.xml")
  _same(mjm, m)


def test_nested_include_three_levels_from_assets():
  main = '<mujoco><include file="sub/a.xml"/></mujoco>'
  a = b'<mujoco><worldbody><geom size="1"/></worldbody><include file="sub2/c.xml"/></mujoco>'
  c = b'<mujoco><worldbody><geom size="4"/></worldbody><include file="d.xml"/></mujoco>'
  d = b'<mujoco><worldbody><geom size="2"/></worldbody></mujoco>'
  assets = {"sub/a.xml": a, "sub/sub2/c.xml": c, "sub/sub2/d.xml": d}
  mjm = mujoco.MjModel.from_xml_string(main, assets)
  m = engine.MjModel.from_xml_string(main, assets)
  assert m.ngeom == 3
  _same(mjm, m)


def test_nested_include_error_names_nested_file(tmp_path):
  _nested_tree(tmp_path)
  (tmp_path / "sub" / "b.xml").write_text(
    '<mujoco>\n<worldbody>\n<geom sizes="2"/></worldbody></mujoco>'
  )
  with pytest.raises(engine.Error) as e:
    engine.MjModel.from_xml_path(str(tmp_path / "main.xml"))
  assert (e.value.line, e.value.element, e.value.attribute) == (3, "geom", "sizes")
  assert "sub/b.xml" in str(e.value)


def test_nested_include_cycle_is_an_error(tmp_path):
  (tmp_path / "sub").mkdir()
  (tmp_path / "main.xml").write_text('<mujoco><include file="sub/a.xml"/></mujoco>')
  (tmp_path / "sub" / "a.xml").write_text('<mujoco><include file="a.xml"/></mujoco>')
  with pytest.raises(engine.Error, match="already included"):
    engine.MjModel.from_xml_path(str(tmp_path / "main.xml"))


@pytest.mark.parametrize("meshdir", ["", "meshes"])
def test_mesh_file_next_to_included_file(tmp_path, meshdir):
  # an included file's mesh is found in that file's folder when not under model dir/meshdir
  (tmp_path / "sub").mkdir()
  (tmp_path / "sub" / "m.obj").write_text(_TET)
  compiler = f'<compiler meshdir="{meshdir}"/>' if meshdir else ""
  (tmp_path / "sub" / "a.xml").write_text(
    f'<mujoco>{compiler}<asset><mesh name="m" file="m.obj"/></asset>'
    '<worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>'
  )
  (tmp_path / "main.xml").write_text('<mujoco><include file="sub/a.xml"/></mujoco>')
  mjm, m = _both_path(tmp_path / "main.xml")
  _same(mjm, m)


def test_mesh_file_in_model_folder_wins(tmp_path):
  (tmp_path / "sub").mkdir()
  (tmp_path / "sub" / "m.obj").write_text(_TET)
  (tmp_path / "m.obj").write_text(_TET.replace("v 1 0 0", "v 2 0 0"))
  (tmp_path / "sub" / "a.xml").write_text(
    '<mujoco><asset><mesh name="m" file="m.obj"/></asset>'
    '<worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>'
  )
  (tmp_path / "main.xml").write_text('<mujoco><include file="sub/a.xml"/></mujoco>')
  mjm, m = _both_path(tmp_path / "main.xml")
  _same(mjm, m, ("nmeshvert", "body_mass", "body_inertia"))


# ------------------------------------------------------------- XML that tinyxml2 accepts


_LENIENT = """<?xml version="1.0"?>
<mujoco>
  <!-- double -- dashes -- in a comment --->
  <worldbody>
    <geom size="1 1 1"type="box"/>
    <body pos="0 0 1"name="b"><freejoint/><geom size=".2"pos="0 0 .1"mass='2'/></body>
  </worldbody>
</mujoco>
"""


def test_tinyxml_leniency_matches_mujoco():
  mjm = mujoco.MjModel.from_xml_string(_LENIENT)
  m = engine.MjModel.from_xml_string(_LENIENT)
  _same(mjm, m, _FIELDS + ("geom_type", "body_pos"))


def test_tinyxml_leniency_in_include_file():
  main = '<mujoco><include file="f.xml"/></mujoco>'
  assets = {"f.xml": _LENIENT.encode()}
  _same(mujoco.MjModel.from_xml_string(main, assets), engine.MjModel.from_xml_string(main, assets))


def test_lenient_retry_keeps_line_numbers():
  # a real error after a repaired line is still reported at its own line
  xml = _LENIENT.replace('<geom size=".2"', '<geom sizes=".2"')
  with pytest.raises(engine.Error) as e:
    engine.MjModel.from_xml_string(xml)
  assert (e.value.line, e.value.element, e.value.attribute) == (6, "geom", "sizes")


@pytest.mark.parametrize(
  "xml, line",
  [
    ('<mujoco>\n<worldbody>\n<geom size="1"></worldbody></mujoco>', 3),
    ('<mujoco>\n<worldbody>\n<geom size="1" size="2"/>\n</worldbody></mujoco>', 3),
    ('<mujoco>\n<worldbody>\n<geom size="1/>\n</worldbody>\n</mujoco>', None),
  ],
)
def test_malformed_xml_still_raises(xml, line):
  with pytest.raises(engine.Error, match="malformed XML") as e:
    engine.MjModel.from_xml_string(xml)
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  if line is not None:
    assert e.value.line == line
  else:
    assert e.value.line is not None


# ------------------------------------------------------------------ joint springdamper


_SPRINGDAMPER = """<mujoco>
  <default><default class="soft"><joint springdamper=".3 .9"/></default></default>
  <worldbody>
    <body>
      <joint type="hinge" axis="0 1 0" springdamper=".5 1"/>
      <geom size=".1" pos=".3 0 0"/>
      <body pos=".5 0 0">
        <joint type="ball" springdamper=".2 .7"/>
        <geom type="capsule" size=".1 .2"/>
        <body pos="0 0 -.4"><joint class="soft" axis="1 0 0"/><geom size=".05" mass=".3"/></body>
      </body>
    </body>
    <body pos="1 1 1">
      <joint type="free" springdamper="2 .5"/>
      <geom type="box" size=".1 .2 .3"/>
      <body>
        <joint type="slide" springdamper="1 2" stiffness="5" damping="3"/><geom size=".1"/>
      </body>
      <body pos="0 .3 0"><joint type="slide" stiffness="5" damping="3"/><geom size=".1"/></body>
    </body>
  </worldbody>
</mujoco>
"""


def test_springdamper_sets_stiffness_and_damping():
  mjm = mujoco.MjModel.from_xml_string(_SPRINGDAMPER)
  m = engine.MjModel.from_xml_string(_SPRINGDAMPER)
  assert mjm.jnt_stiffness[-1] == 5 and mjm.dof_damping[-1] == 3
  _same(mjm, m, ("jnt_stiffness", "dof_damping", "dof_invweight0"))


def test_springdamper_must_be_positive():
  xml = _SPRINGDAMPER.replace('springdamper="1 2"', 'springdamper="1 0"')
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(engine.Error) as e:
    engine.MjModel.from_xml_string(xml)
  assert (e.value.element, e.value.attribute) == ("joint", "springdamper")


# -------------------------------------------------------- degenerate meshes (no math errors)

# two flat heptagons (fans of 5 triangles) in tilted planes: A + B - C of their shell inertia
# rounds below zero in MuJoCo and here, so the box half-size is NaN (C's sqrt), not an error
_FLAT = [
  [
    [-0.5589060851660304, -0.8032443021063956, 1.7510955893021392],
    [-0.2642704545687984, -1.667548203733272, 0.3174141965575703],
    [0.25161780534901546, 1.0082652634114302, -2.175702766523835],
    [0.15832262847114234, 1.9952475944078143, -1.7188101040151729],
    [0.11002122547442136, 2.246819919870238, -1.4833277140035497],
    [-0.06374642269123482, 2.7298220578121057, -0.6378931141427839],
    [-0.6506921489693978, 0.6531733544601077, 2.2025869727181346],
  ],
  [
    [-1.3408506570509262, 1.1299394784817398, 1.5933874874907732],
    [-1.3565652422183705, 1.0488700259746468, 1.5736630609867004],
    [-1.380468128489377, 0.8794270528139002, 1.521851326389497],
    [-0.7435685509870869, -0.4322038714629637, 0.1477766136216988],
    [-0.7362298496562663, -0.43358970540220265, 0.1384337830773723],
    [-0.5750444403520414, -0.4441051317179317, -0.0573508901871303],
    [-0.3088548517282954, 2.683803779827235, 1.1063252003423338],
  ],
]


def _mesh_model(vert, face, inertia="shell", joint=""):
  v = " ".join(repr(x) for p in vert for x in p)
  f = " ".join(str(i) for t in face for i in t)
  return (
    f'<mujoco><asset><mesh name="m" vertex="{v}" face="{f}" inertia="{inertia}"/></asset>'
    f'<worldbody><body>{joint}<geom type="mesh" mesh="m"/></body></worldbody></mujoco>'
  )


@pytest.mark.parametrize("vert", _FLAT)
def test_flat_mesh_compiles_like_mujoco(vert):
  fan = [(0, i, i + 1) for i in range(1, 6)]
  xml = _mesh_model(vert, fan)
  mjm = mujoco.MjModel.from_xml_string(xml)
  m = engine.MjModel.from_xml_string(xml)
  assert np.isnan(mjm.body_inertia[1]).any()
  np.testing.assert_array_equal(np.isnan(m.body_inertia), np.isnan(mjm.body_inertia))
  np.testing.assert_allclose(m.body_mass, mjm.body_mass, rtol=1e-12)
  np.testing.assert_allclose(m.geom_size[:, 1:], mjm.geom_size[:, 1:], rtol=1e-7)
  # a moving body with that inertia is rejected by both
  xml = _mesh_model(vert, fan, joint="<freejoint/>")
  with pytest.raises(ValueError, match="mjMINVAL"):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(engine.Error, match="mjMINVAL"):
    engine.MjModel.from_xml_string(xml)


_TET_VERT = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.3, 0.3, 1]]
_TET_FACE = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]


@pytest.mark.parametrize("height", [1e-3, 1e-5])
@pytest.mark.parametrize("inertia", ["shell", "exact", "convex"])
def test_sliver_mesh_compiles_like_mujoco(height, inertia):
  vert = [list(p) for p in _TET_VERT]
  vert[3][2] = height
  xml = _mesh_model(vert, _TET_FACE, inertia, joint="<freejoint/>")
  try:
    mjm = mujoco.MjModel.from_xml_string(xml)
  except ValueError as e:
    with pytest.raises(engine.Error):
      engine.MjModel.from_xml_string(xml)
    assert "volume" in str(e) or "mjMINVAL" in str(e)
    return
  m = engine.MjModel.from_xml_string(xml)
  for f in ("body_mass", "body_inertia", "body_ipos", "geom_size", "mesh_vert"):
    a, b = getattr(mjm, f), getattr(m, f)
    np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-9 * np.abs(a).max(), err_msg=f)


def test_zero_area_face_compiles_like_mujoco():
  # a repeated vertex index and a collinear triangle add faces of zero area
  vert = _TET_VERT + [[0.5, 0, 0]]
  face = _TET_FACE + [(0, 0, 1), (0, 4, 1)]
  xml = _mesh_model(vert, face, "exact", joint="<freejoint/>")
  mjm = mujoco.MjModel.from_xml_string(xml)
  m = engine.MjModel.from_xml_string(xml)
  _same(mjm, m, ("body_mass", "body_inertia", "body_ipos", "geom_size"))
