"""Bad input never crashes the compiler: mutated models compile or raise CompileError."""

import pathlib
import re
import zlib

import mujoco
import numpy as np
import pytest

from engine.compiler import compile_model
from engine.errors import CompileError
from tests.engine.test_compiler import compare

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models" / "compiler"
GARBAGE = [
  "abc",
  "-1",
  "0",
  "1e400",
  "",
  "0 0 0 0 0 0 0 0 0 0 0",
  "nan",
  "-5 -5",
  "true",
  "1.5",
  "zzz yyy",
]
ATTR = re.compile(r'(\s)([a-z_0-9]+)="([^"]*)"')


def _mutations(text, rng, n):
  spans = [m for m in ATTR.finditer(text)]
  for _ in range(n):
    m = spans[int(rng.integers(len(spans)))]
    value = GARBAGE[int(rng.integers(len(GARBAGE)))]
    yield text[: m.start(3)] + value + text[m.end(3) :], m.group(2), value


@pytest.mark.parametrize(
  "name",
  [
    "humanoid",
    "actuators",
    "sensors",
    "tendons",
    "equality_contact_custom",
    "options",
    "cameras_lights",
  ],
)
def test_mutated_attributes(name):
  rng = np.random.default_rng(zlib.crc32(name.encode()))
  text = (MODELS / f"{name}.xml").read_text()
  for xml, attr, value in _mutations(text, rng, 25):
    try:
      compile_model(xml=xml)
    except CompileError as e:
      assert e.line is not None or e.element is not None, (attr, value, str(e))
      continue
    # we accepted it: MuJoCo must accept it too, and agree
    try:
      mujoco.MjModel.from_xml_string(xml)
    except ValueError as e:
      pytest.fail(f'accepted {attr}="{value}" that MuJoCo rejects: {e}')
    compare(xml=xml)


@pytest.mark.parametrize(
  "xml",
  [
    "",
    "<",
    "<mujoco",
    "<mujoco></mujoc>",
    "<mujoco><worldbody><body></worldbody></mujoco>",
    "\x00\x01",
    "<mujoco>" * 50,
    '<?xml version="1.0"?><mujoco/><mujoco/>',
    "<mujoco><worldbody><body>" * 40 + "</body></worldbody></mujoco>",
  ],
)
def test_malformed_xml_is_a_compile_error(xml):
  with pytest.raises(CompileError):
    compile_model(xml=xml)


def test_deep_tree_compiles():
  depth = 300
  xml = (
    "<mujoco><worldbody>"
    + '<body><joint/><geom size=".1"/>' * depth
    + "</body>" * depth
    + "</worldbody></mujoco>"
  )
  compile_model(xml=xml)
