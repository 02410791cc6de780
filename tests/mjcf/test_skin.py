"""mjcf object model: <skin> and its bones parse, round-trip and follow attachment namescopes."""

import mujoco
import numpy as np
import pytest

import mjcf
from tests.engine.test_skin import _SKN
from tests.engine.test_skin import _model

_FIELDS = (
  "skin_rgba",
  "skin_group",
  "skin_inflate",
  "skin_matid",
  "skin_vert",
  "skin_face",
  "skin_texcoord",
  "skin_bonebodyid",
  "skin_bonebindpos",
  "skin_bonebindquat",
  "skin_bonevertid",
  "skin_bonevertweight",
)


def _same_skins(a, b):
  for f in _FIELDS:
    np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)


def test_inline_skin_round_trips():
  xml = _model()
  root = mjcf.from_xml_string(xml)
  skin = root.deformable.skin[0]
  assert skin.group == 1 and [b.body.name for b in skin.bone] == ["upper", "lower"]
  _same_skins(
    mujoco.MjModel.from_xml_string(xml), mujoco.MjModel.from_xml_string(root.to_xml_string())
  )


def test_skn_file_skin_round_trips_with_its_asset():
  xml = _model(skins='<skin file="tri.skn"/>')
  root = mjcf.from_xml_string(xml, assets={"tri.skn": _SKN})
  assert root.deformable.skin[0].name == "tri"
  out = root.to_xml_string()
  _same_skins(
    mujoco.MjModel.from_xml_string(xml, {"tri.skn": _SKN}),
    mujoco.MjModel.from_xml_string(out, root.get_assets()),
  )


def test_bone_bodies_follow_the_namescope():
  child = mjcf.from_xml_string(_model().replace("<freejoint/>", ""))
  child.model = "arm"
  parent = mjcf.RootElement(model="parent")
  parent.worldbody.add("site", name="mount")
  parent.attach(child)
  m = mujoco.MjModel.from_xml_string(parent.to_xml_string())
  ids = [mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, n) for n in ("arm/upper", "arm/lower")]
  assert list(m.skin_bonebodyid) == ids
  assert mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_SKIN, 0) == "arm/box"


def test_skin_files_of_attached_models_name_the_prefixed_bodies():
  """A .skn file names its bones' bodies; attached, they are renamed (as dm_control does)."""
  from dm_control import mjcf as dm_mjcf  # test-only oracle

  xml = _model(skins='<skin file="tri.skn"/>').replace("<freejoint/>", "")
  compiled = []
  for m in (dm_mjcf, mjcf):
    child = m.from_xml_string(xml, assets={"tri.skn": _SKN})
    child.model = "arm"
    parent = m.RootElement(model="parent")
    parent.attach(child)
    compiled.append(mujoco.MjModel.from_xml_string(parent.to_xml_string(), parent.get_assets()))
  theirs, ours = compiled
  _same_skins(theirs, ours)
  assert [ours.body(i).name for i in ours.skin_bonebodyid] == ["arm/upper", "arm/lower"]
  # the child alone still writes its file unchanged
  child = mjcf.from_xml_string(xml, assets={"tri.skn": _SKN})
  assert list(child.get_assets().values()) == [_SKN]


def test_skin_body_names_must_fit_the_file_format():
  from mjcf import attribute

  assert attribute.rename_skin_bodies(_SKN, lambda name: name) == _SKN
  renamed = attribute.rename_skin_bodies(_SKN, lambda name: "x" * 40)
  assert len(renamed) == len(_SKN) and renamed.count(b"x" * 40) >= 1
  with pytest.raises(ValueError, match="longer than the 40 bytes"):
    attribute.rename_skin_bodies(_SKN, lambda name: "x" * 41)
  with pytest.raises(ValueError, match="too short"):
    attribute.rename_skin_bodies(b"\0\0", lambda name: name)
