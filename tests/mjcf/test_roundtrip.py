"""parse -> to_xml_string -> compile gives the same compiled model as compiling the file.

Every model of tests/models goes through the object model and back. The generated XML moves
the global defaults into the class '/', names unnamed elements and embeds asset files under
content-hashed names, so only names and file paths may differ; every other array, size and
option of the compiled model must be identical.
"""

import pathlib

import numpy as np
import pytest

import engine
import mjcf
from engine.compiler import compile_model

pytestmark = [
  pytest.mark.filterwarnings("ignore:compiler attribute:DeprecationWarning"),
  pytest.mark.filterwarnings("ignore:statistic attribute:DeprecationWarning"),
]

# nested includes are found relative to the including file's folder too, as MuJoCo does
_MODELS = sorted((pathlib.Path(__file__).resolve().parent.parent / "models").glob("*/*.xml"))
# what generated XML may change: element names (unnamed ones get names) and file paths
_NAME_SIZES = ("nnames", "npaths")


def _differs(a, b):
  if isinstance(a, (bytes, str)):
    return a != b
  a, b = np.asarray(a), np.asarray(b)
  return a.shape != b.shape or not np.array_equal(a, b, equal_nan=True)


def _is_name_field(name):
  return name.startswith(("name_", "names", "paths")) or name.endswith("_pathadr")


def _roundtrip(path):
  model = mjcf.from_path(path)
  return model.to_xml_string(), model.get_assets()


def test_models_are_found():
  assert len(_MODELS) >= 30


@pytest.mark.parametrize("path", _MODELS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_roundtrip_compiles_identically(path):
  original = compile_model(path=str(path))
  xml, assets = _roundtrip(path)
  again = compile_model(xml=xml, assets=assets)
  assert {k: v for k, v in original.sizes.items() if k not in _NAME_SIZES} == {
    k: v for k, v in again.sizes.items() if k not in _NAME_SIZES
  }
  assert set(original.arrays) == set(again.arrays)
  diff = [
    k
    for k in original.arrays
    if not _is_name_field(k) and _differs(original.arrays[k], again.arrays[k])
  ]
  assert not diff
  assert not [k for k in original.opt if _differs(original.opt[k], again.opt[k])]
  # every <visual> child and attribute and every <statistic> value survives
  assert not [
    f"{g}.{k}"
    for g in original.vis
    for k in original.vis[g]
    if _differs(original.vis[g][k], again.vis[g][k])
  ]
  assert original.stat_user == again.stat_user
  # named elements keep their names (a model without a name is called 'unnamed_model')
  names = original.arrays["names"].split(b"\0")[1:]
  assert set(names) - {b""} <= set(again.arrays["names"].split(b"\0"))


@pytest.mark.parametrize(
  "name",
  [
    "core/hinge_chain.xml",
    "compiler/defaults.xml",
    "compiler/assets.xml",
    "contact/capsule_humanoid.xml",
  ],
)
def test_roundtrip_mjmodel_is_identical(name):
  path = [p for p in _MODELS if p.as_posix().endswith(name)][0]
  original = engine.MjModel.from_xml_path(str(path))
  xml, assets = _roundtrip(path)
  again = engine.MjModel.from_xml_string(xml, assets=assets)
  diff = [
    k
    for k in original._arrays
    if not _is_name_field(k) and _differs(original._arrays[k], again._arrays[k])
  ]
  assert not diff
  assert not [
    k for k in original.opt._arrays if _differs(original.opt._arrays[k], again.opt._arrays[k])
  ]


def test_roundtrip_is_a_fixed_point():
  path = [p for p in _MODELS if p.as_posix().endswith("compiler/humanoid.xml")][0]
  first, _ = _roundtrip(path)
  second = mjcf.from_xml_string(first, escape_separators=True)
  assert compile_model(xml=second.to_xml_string()).sizes == compile_model(xml=first).sizes


@pytest.mark.parametrize("path", _MODELS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_generated_xml_reads_back_without_escaping(path):
  """The generated XML, read again (no escape_separators), generates the same XML."""
  xml, assets = _roundtrip(path)
  assert mjcf.from_xml_string(xml, assets=assets).to_xml_string() == xml


def test_every_visual_attribute_set_through_the_object_model():
  """model.visual.<child>.<attr> = value reaches the compiled m.vis (the object model and the
  compiler share the schema's <visual> children)."""
  source = mjcf.from_path(_MODELS[0].parent.parent / "compiler" / "visual.xml")
  model = mjcf.RootElement()
  for child in ("global", "quality", "headlight", "map", "scale", "rgba"):
    src = getattr(source.visual, child)  # as in dm_control: <global> is getattr(v, 'global')
    dst = getattr(model.visual, child)
    for name, value in src.get_attributes().items():
      setattr(dst, name, value)
  m = engine.MjModel.from_xml_string(model.to_xml_string())
  ref = engine.MjModel.from_xml_path(str(_MODELS[0].parent.parent / "compiler" / "visual.xml"))
  assert m.vis._dict() == ref.vis._dict()
