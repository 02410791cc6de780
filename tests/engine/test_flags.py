"""engine/flags.py: `disabled(m, flag)` / `enabled(m, flag)`, MuJoCo's mjDISABLED / mjENABLED.

The helpers must give, for every bit and for ORs of bits, exactly the bit test the stages made
before (any bit of the mask set in opt.disableflags / opt.enableflags), and the stages must use
them rather than testing the option's array themselves.
"""

import pathlib
import re

import engine
from engine import enums
from engine import flags
from tests import jitted

ROOT = pathlib.Path(__file__).resolve().parents[2]
_XML = "<mujoco><worldbody><body><joint/><geom size='.1'/></body></worldbody></mujoco>"


def _check(field, helper, bits):
  m = engine.MjModel.from_xml_string(_XML)
  test = jitted.callable_(helper)
  masks = [int(b) for b in bits]
  masks += [masks[0] | masks[-1], masks[1] | masks[2]]
  for value in (0, *[int(b) for b in bits], int(bits[0]) | int(bits[3]), sum(map(int, bits))):
    setattr(m.opt, field, value)
    assert int(getattr(m.opt, field)) == value
    for mask in masks:
      got = test(m._struct, mask)
      assert got is True or got is False, type(got)
      assert got == bool(value & mask), (field, value, mask)


def test_disabled_is_any_bit_of_disableflags():
  _check("disableflags", flags.disabled, list(enums.mjtDisableBit))


def test_enabled_is_any_bit_of_enableflags():
  _check("enableflags", flags.enabled, list(enums.mjtEnableBit))


def test_the_pipeline_tests_flags_through_the_helpers():
  pattern = re.compile(r"(disable|enable)flags\[0\]")
  sites = [
    f"{path.relative_to(ROOT)}:{i}"
    for path in sorted((ROOT / "engine").rglob("*.py"))
    if path.name != "flags.py"
    for i, line in enumerate(path.read_text().splitlines(), 1)
    if pattern.search(line)
  ]
  assert not sites, "read the option's flags with engine.flags.disabled/enabled: " + str(sites)
