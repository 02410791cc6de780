"""<skin> vs MuJoCo: inline and .skn skins compile to MuJoCo's skin_* fields, and change no physics.

Every compiled array (skin fields included) is compared with mujoco by test_compiler.compare;
the .skn files are written here with numpy in MuJoCo's binary layout.
"""

import mujoco
import numpy as np
import pytest

import engine
from engine.compiler import build_skin
from engine.compiler import compile_model
from engine.errors import CompileError
from tests.engine.test_compiler import compare

# a box-like skin (8 corners, 12 triangles) bound to two bodies with unnormalized weights
_BOX_VERT = (
  "-.1 -.1 -.1  .1 -.1 -.1  .1 .1 -.1  -.1 .1 -.1  -.1 -.1 .5  .1 -.1 .5  .1 .1 .5  -.1 .1 .5"
)
_BOX_FACE = "0 2 1 0 3 2 4 5 6 4 6 7 0 1 5 0 5 4 1 2 6 1 6 5 2 3 7 2 7 6 3 0 4 3 4 7"
_SKIN = f"""
  <skin name="box" material="skinmat" rgba=".8 .2 .2 .9" inflate=".003" group="1"
        vertex="{_BOX_VERT}" face="{_BOX_FACE}"
        texcoord="0 0 1 0 1 1 0 1 0 0 1 0 1 1 0 1">
    <bone body="upper" bindpos="0 0 0" bindquat="2 0 0 0" vertid="0 1 2 3 4 5 6 7"
          vertweight="4 4 4 4 1 1 1 1"/>
    <bone body="lower" bindpos="0 0 -.3" bindquat=".9 .1 0 .2" vertid="4 5 6 7"
          vertweight="3 3 3 .5"/>
  </skin>"""


def _model(skins=_SKIN, section="deformable", compiler="", extra="", assets=""):
  return f"""
<mujoco>
  <compiler {compiler}/>
  <asset>
    <material name="other"/>
    <material name="skinmat" rgba="1 1 1 1"/>
    {assets}
  </asset>
  <{section}>{skins}</{section}>
  <worldbody>
    <geom type="plane" size="2 2 .1"/>
    <body name="upper" pos="0 0 1">
      <freejoint/>
      <geom type="capsule" size=".05 .15"/>
      <body name="lower" pos="0 0 -.3">
        <joint type="hinge" axis="1 0 0" damping=".1"/>
        <geom type="capsule" size=".04 .12"/>
      </body>
    </body>
    {extra}
  </worldbody>
</mujoco>"""


def _skn(vert, face, bones, texcoord=()):
  """MuJoCo's binary skin file: header, vert, texcoord, face, then the bones."""
  vert = np.asarray(vert, "<f4").ravel()
  texcoord = np.asarray(texcoord, "<f4").ravel()
  face = np.asarray(face, "<i4").ravel()
  parts = [
    np.array([len(vert) // 3, len(texcoord) // 2, len(face) // 3, len(bones)], "<i4"),
    vert,
    texcoord,
    face,
  ]
  out = b"".join(p.tobytes() for p in parts)
  for body, pos, quat, ids, weights in bones:
    out += body.encode().ljust(40, b"\0")
    out += np.asarray(pos, "<f4").tobytes() + np.asarray(quat, "<f4").tobytes()
    out += np.array([len(ids)], "<i4").tobytes() + np.asarray(ids, "<i4").tobytes()
    out += np.asarray(weights, "<f4").tobytes()
  return out


_TRI = ([0, 0, 0, 0.2, 0, 0, 0, 0.2, 0, 0, 0, -0.4], [0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2])
_SKN = _skn(
  *_TRI,
  bones=[
    ("upper", (0, 0, 0.1), (1, 0, 0, 1), [0, 1, 2, 3], [1, 1, 1, 0.5]),
    ("lower", (0, 0, -0.2), (0, 0, 0, 3), [3], [1.5]),
  ],
  texcoord=[0, 0, 1, 0, 0, 1, 1, 1],
)


def test_inline_skin_matches_mujoco():
  mjm, c = compare(_model())
  assert c.sizes["nskin"] == 1 and c.sizes["nskinbonevert"] == 12
  for f in build_skin.SKIN_FIELDS:
    assert c.arrays[f.name].dtype == getattr(mjm, f.name).dtype
  # the weights of each vertex sum to one, the bind quaternions are unit
  w = np.zeros(8)
  np.add.at(w, c.arrays["skin_bonevertid"], c.arrays["skin_bonevertweight"])
  np.testing.assert_allclose(w, 1, rtol=1e-6)
  np.testing.assert_allclose(np.linalg.norm(c.arrays["skin_bonebindquat"], axis=1), 1, 1e-6)


def test_skin_names_as_mujoco():
  """mj_name2id / mj_id2name of skins, on our MjModel against mujoco's, before and after a
  pickle round trip."""
  import pickle

  xml = _model(_SKIN + _SKIN.replace('name="box"', 'name="box2"'))
  theirs = mujoco.MjModel.from_xml_string(xml)
  ours = engine.MjModel.from_xml_string(xml)
  for m in (ours, pickle.loads(pickle.dumps(ours))):
    np.testing.assert_array_equal(m.name_skinadr, theirs.name_skinadr)
    for name in ("box", "box2", "none"):
      assert engine.mj_name2id(m, mujoco.mjtObj.mjOBJ_SKIN, name) == mujoco.mj_name2id(
        theirs, mujoco.mjtObj.mjOBJ_SKIN, name
      )
    assert engine.mj_id2name(m, mujoco.mjtObj.mjOBJ_SKIN, 1) == "box2"


@pytest.mark.parametrize("section", ["asset", "deformable"])
def test_skin_in_asset_or_deformable(section):
  compare(_model(section=section))


def test_skins_of_asset_sections_come_first():
  """MuJoCo lists the skins of <asset> before those of <deformable>, whatever the order."""
  second = _SKIN.replace('name="box"', 'name="a"').replace(' material="skinmat"', "")
  xml = _model().replace("<deformable>", f"<deformable>{second}</deformable><asset>", 1)
  xml = xml.replace("</deformable>\n  <worldbody>", "</asset>\n  <worldbody>")
  mjm, c = compare(xml)
  assert c.sizes["nskin"] == 2
  assert mujoco.mj_id2name(mjm, mujoco.mjtObj.mjOBJ_SKIN, 0) == "box"


def test_several_skins_and_defaults():
  plain = (
    '<skin vertex="0 0 0 1 0 0 0 1 0" face="0 1 2">'
    '<bone body="lower" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" '
    'vertweight="1 1 1"/></skin>'
  )
  _, c = compare(_model(skins=_SKIN + plain + _SKIN.replace('"box"', '"box2"')))
  assert c.sizes["nskin"] == 3
  assert list(c.arrays["skin_texcoordadr"]) == [0, -1, 8]


def test_skn_file_matches_mujoco(tmp_path):
  skins = '<skin file="tri.skn" rgba="0 1 0 1"/><skin name="named" file="sub/tri2.skn"/>'
  assets = {"tri.skn": _SKN, "sub/tri2.skn": _SKN}
  mjm, c = compare(_model(skins=skins), assets=assets)
  assert c.sizes["nskin"] == 2 and c.sizes["nskinbone"] == 4
  assert mujoco.mj_id2name(mjm, mujoco.mjtObj.mjOBJ_SKIN, 0) == "tri"
  # from disk, relative to the model and its meshdir
  (tmp_path / "meshes").mkdir()
  (tmp_path / "meshes" / "tri.skn").write_bytes(_SKN)
  path = tmp_path / "model.xml"
  path.write_text(_model(skins='<skin file="tri.skn"/>', compiler='meshdir="meshes"'))
  compare(path=path)


def test_fusestatic_keeps_skin_bones():
  extra = (
    '<body name="static" pos="1 0 1"><geom size=".1"/>'
    '<body name="bone"><geom size=".05"/></body></body>'
  )
  skin = _SKIN.replace('body="lower"', 'body="bone"')
  mjm, c = compare(_model(skins=skin, compiler='fusestatic="true"', extra=extra))
  assert c.sizes["nbody"] == mjm.nbody


def test_discardvisual_keeps_skins_without_material():
  mjm, c = compare(_model(compiler='discardvisual="true"'))
  assert c.sizes["nskin"] == 1 and c.arrays["skin_matid"][0] == -1


def _error(xml, assets=None):
  with pytest.raises(ValueError) as mj:
    mujoco.MjModel.from_xml_string(xml, assets or {})
  with pytest.raises(CompileError) as ours:
    compile_model(xml=xml, assets=assets)
  return str(mj.value), str(ours.value)


@pytest.mark.parametrize(
  "old,new,message",
  [
    ('group="1"', 'group="6"', "skin group must be between 0 and 5"),
    (
      'vertweight="3 3 3 .5"',
      'vertweight="3 3 3"',
      "vertid and vertweight must have same non-zero size in skin",
    ),
    ('vertid="4 5 6 7"', 'vertid="4 5 6 8"', "vertid 8 out of range in skin"),
    (
      'vertweight="4 4 4 4 1 1 1 1"',
      'vertweight="0 4 4 4 1 1 1 1"',
      "vertex 0 must have positive total weight in skin",
    ),
    ('body="lower"', 'body="nobody"', "unknown body 'nobody' in skin"),
    ('material="skinmat"', 'material="nomat"', "material 'nomat' not found in skin 0"),
    ('face="0 2 1 ', 'face="2 1 ', "Face data must be multiple of 3"),
    ('vertex="-.1 ', 'vertex="', "Vertex data must be multiple of 3"),
    ('texcoord="0 0 ', 'texcoord="', "Vertex and texcoord data incompatible size"),
    ('name="box"', 'name="box" file="a.skn"', "Both skin data and file were specified: a.skn"),
  ],
)
def test_errors_match_mujoco(old, new, message):
  mj, ours = _error(_model(skins=_SKIN.replace(old, new, 1)))
  assert message in mj and message in ours


@pytest.mark.parametrize(
  "skin,assets,message",
  [
    ('<skin name="e"/>', None, "Missing data in skin"),
    ('<skin file="x.obj"/>', None, "Unknown skin file type: x.obj"),
    ('<skin file="t.skn"/>', {"t.skn": _SKN[:12]}, "missing header in SKN file"),
    ('<skin file="t.skn"/>', {"t.skn": _SKN[:40]}, "insufficient data in SKN file"),
    ('<skin file="t.skn"/>', {"t.skn": _SKN + b"\0\0\0\0"}, "unexpected buffer size in SKN"),
    ('<skin file="t.skn"/>', {"t.skn": _SKN[:-8]}, "insufficient vertex data in SKN file"),
  ],
)
def test_file_errors_match_mujoco(skin, assets, message):
  mj, ours = _error(_model(skins=skin), assets)
  assert message in mj and message in ours


def test_bone_attributes_are_required():
  with pytest.raises(CompileError, match="bindpos"):
    compile_model(xml=_model(skins=_SKIN.replace('bindpos="0 0 -.3"', "")))


def test_model_exposes_skins_and_simulates_as_mujoco():
  xml = _model()
  m = engine.MjModel.from_xml_string(xml)
  mjm = mujoco.MjModel.from_xml_string(xml)
  assert m.nskin == 1 and m.nskinbone == 2
  for f in build_skin.SKIN_FIELDS:
    ours, ref = getattr(m, f.name), getattr(mjm, f.name)
    assert ours.dtype == ref.dtype and ours.shape == ref.shape, f.name
    np.testing.assert_array_equal(ours, ref, err_msg=f.name)
  # skins survive copies and pickling, and are not shared by a copy
  import copy
  import pickle

  m2 = pickle.loads(pickle.dumps(m))
  np.testing.assert_array_equal(m2.skin_vert, m.skin_vert)
  m3 = copy.deepcopy(m)
  m3.skin_rgba[0, 0] = 0
  assert m.skin_rgba[0, 0] != 0
  # skins change no physics: the same trajectory with and without the skin
  d, mjd = engine.MjData(m), mujoco.MjData(mjm)
  mb = engine.MjModel.from_xml_string(_model(skins=""))
  db = engine.MjData(mb)
  for dd in (d, mjd, db):
    dd.qvel[:] = [0.1, 0, 0, 0, 0.3, 0, 2]
  engine.mj_step(m, d, 100)
  engine.mj_step(mb, db, 100)
  mujoco.mj_step(mjm, mjd, 100)
  np.testing.assert_array_equal(d.qpos, db.qpos)
  np.testing.assert_allclose(d.qpos, mjd.qpos, atol=1e-6)


def test_model_without_skins_has_empty_skin_fields():
  m = engine.MjModel.from_xml_string("<mujoco><worldbody/></mujoco>")
  assert m.nskin == 0 and m.skin_vert.shape == (0, 3) and m.skin_bonebindquat.shape == (0, 4)
