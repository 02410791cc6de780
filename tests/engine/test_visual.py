"""m.vis (MjVisual) and m.stat (MjStatistic) vs MuJoCo, for every test and suite model.

Visual settings are C floats and ints in MuJoCo, so they must match exactly; statistics are
computed at qpos0 (setStat) and compared at 1e-12. tests/models/compiler/visual.xml sets every
<visual> attribute.
"""

import copy
import pathlib
import pickle

import mujoco
import numpy as np
import pytest

import engine
from engine import types
from engine.compiler import schema
from suite import cartpole
from suite import common
from suite import dog
from suite import quadruped
from suite import swimmer
from tests import models
from tests import oracle

pytestmark = [
  pytest.mark.filterwarnings("ignore:compiler attribute:DeprecationWarning"),
  pytest.mark.filterwarnings("ignore:statistic attribute:DeprecationWarning"),
]

_VISUAL_XML = models.ROOT / "compiler" / "visual.xml"
_SUITE = pathlib.Path(common.__file__).resolve().parent.parent / "assets" / "suite"
# MuJoCo's bindings read these MjVisual.rgba entries back as empty arrays (not comparable)
_EMPTY_IN_BINDINGS = {"bv", "bvactive"}


def _suite_models():
  """(id, xml, assets): every suite XML file, plus the generated variants of some domains."""
  out = [(p.stem, common.read_model(p.name), common.ASSETS) for p in sorted(_SUITE.glob("*.xml"))]
  out.append(("cartpole_3", *cartpole.get_model_and_assets(num_poles=3)))
  out.append(("swimmer_6", *swimmer.get_model_and_assets(6)))
  out.append(("dog_ball", *dog.get_model_and_assets(floor_size=5, remove_ball=False)))
  out.append(
    (
      "quadruped_terrain",
      *quadruped.get_model_and_assets(
        floor_size=8, terrain=True, rangefinders=True, walls_and_ball=True
      ),
    )
  )
  return out


_CASES = [(f"{p.parent.name}/{p.stem}", None, None, p) for p in models.all_models()] + [
  (f"suite/{name}", xml, assets, None) for name, xml, assets in _suite_models()
]


def _load_both(xml, assets, path):
  if path is not None:
    return mujoco.MjModel.from_xml_path(str(path)), types.compile_any_model(path=str(path))
  return (
    mujoco.MjModel.from_xml_string(xml, assets),
    types.compile_any_model(xml=xml, assets=assets),
  )


def assert_vis_equal(ours, theirs, label=""):
  """Every MjVisual field of `theirs` (mujoco) is in `ours` with exactly the same value."""
  for attr, _ in types.VISUAL_GROUPS:
    a, b = getattr(ours, attr), getattr(theirs, attr)
    names = {n for n in dir(b) if not n.startswith("_")}
    assert set(dir(a)) == names, f"{label} vis.{attr}"
    for name in names:
      want, got = getattr(b, name), getattr(a, name)
      if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype, f"{label} {attr}.{name}"
        if name in _EMPTY_IN_BINDINGS and want.size == 0:
          assert got.shape == (4,)
          continue
        np.testing.assert_array_equal(got, want, err_msg=f"{label} vis.{attr}.{name}")
      else:
        assert type(got) is type(want) and got == want, (
          f"{label} vis.{attr}.{name}: ours {got!r}, mujoco {want!r}"
        )


def assert_stat_close(ours, theirs, label="", tol=1e-12):
  for name in ("meaninertia", "meanmass", "meansize", "extent", "center"):
    np.testing.assert_allclose(
      getattr(ours, name), getattr(theirs, name), rtol=tol, atol=tol, err_msg=f"{label} stat.{name}"
    )


@pytest.mark.parametrize("label,xml,assets,path", _CASES, ids=[c[0] for c in _CASES])
def test_vis_and_stat_match_mujoco(label, xml, assets, path):
  mjm, m = _load_both(xml, assets, path)
  assert_vis_equal(m.vis, mjm.vis, label)
  # mesh inertia frames agree with MuJoCo's to ~1e-6 only (tests/engine/test_mesh.py), and
  # meshes' bounding radii enter the mean body size
  assert_stat_close(m.stat, mjm.stat, label, tol=1e-8 if mjm.nmesh else 1e-12)


def test_oracle_models_copy_vis():
  """tests/oracle.from_mujoco carries MuJoCo's m.vis over."""
  mjm = mujoco.MjModel.from_xml_path(str(_VISUAL_XML))
  assert_vis_equal(oracle.from_mujoco(mjm).vis, mjm.vis)


def test_visual_model_sets_every_attribute():
  """visual.xml gives every <visual> child attribute a value other than its default."""
  mjm, m = _load_both(None, None, _VISUAL_XML)
  default = engine.MjModel.from_xml_string("<mujoco/>").vis
  for attr, tag in types.VISUAL_GROUPS:
    for name in schema.ELEMENTS["visual/" + tag].attrs:
      got = getattr(getattr(m.vis, attr), name)
      assert np.any(got != getattr(getattr(default, attr), name)), f"{tag} {name}"
  assert m.vis.global_.fovy == np.float32(33.3) and m.vis.global_.cameraid == 1
  np.testing.assert_array_equal(m.vis.rgba.bv, np.float32([0.03, 0.08, 0.13, 0.18]))
  np.testing.assert_array_equal(m.vis.rgba.joint, np.float32([1, 0, 0, 0.5]))
  assert m.stat.meaninertia == 2.5 and mjm.stat.meaninertia == 2.5


def test_meaninertia_is_deprecated_like_in_mujoco():
  with pytest.warns(DeprecationWarning, match="'meaninertia' is deprecated"):
    engine.MjModel.from_xml_string('<mujoco><statistic meaninertia="2"/></mujoco>')


@pytest.mark.parametrize(
  "xml",
  [
    "<mujoco/>",
    '<mujoco><worldbody><geom size="0.3"/></worldbody></mujoco>',
    '<mujoco><worldbody><body><geom size="0.1"/></body></worldbody></mujoco>',
    '<mujoco><worldbody><geom type="plane" size="0 0 1"/></worldbody></mujoco>',
    '<mujoco><statistic extent="3" meansize="0.5" meanmass="2"/><worldbody><body>'
    '<joint/><geom size="0.1"/></body></worldbody></mujoco>',
  ],
  ids=["empty", "world_geom", "static_body", "infinite_plane", "statistic"],
)
def test_stat_defaults_where_nothing_is_measured(xml):
  """Without bodies or dofs MuJoCo keeps mj_defaultStatistic's values."""
  assert_stat_close(
    engine.MjModel.from_xml_string(xml).stat, mujoco.MjModel.from_xml_string(xml).stat
  )


def test_vis_is_writable_with_mujoco_types_and_survives_copies():
  m = engine.MjModel.from_xml_path(str(_VISUAL_XML))
  m.vis.map.znear = 0.1
  assert m.vis.map.znear == float(np.float32(0.1))
  m.vis.quality.offsamples = 8.0
  assert m.vis.quality.offsamples == 8 and type(m.vis.quality.offsamples) is int
  m.vis.rgba.haze = (0.5, 0.5, 0.5, 1)
  m.vis.headlight.ambient[1] = 0.25
  for other in (copy.copy(m), copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
    assert other.vis.map.znear == m.vis.map.znear
    assert other.vis.quality.offsamples == 8
    np.testing.assert_array_equal(other.vis.rgba.haze, np.float32([0.5, 0.5, 0.5, 1]))
    np.testing.assert_array_equal(other.vis.headlight.ambient, m.vis.headlight.ambient)
    assert other.vis.rgba.haze is not m.vis.rgba.haze
  with pytest.raises(AttributeError, match="no attribute 'fogcolor'"):
    m.vis.map.fogcolor = 1
  with pytest.raises(AttributeError):
    m.vis.global_.nothing  # noqa: B018
