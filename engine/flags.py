"""disabled(m, flag) and enabled(m, flag): MuJoCo's mjDISABLED / mjENABLED, the tests of
m.opt's disableflags / enableflags bits that the pipeline's stages make.

One helper instead of spelling out the bit test at each site, so that a site cannot read the
wrong field (enableflags for a disable bit) or forget the [0] of the option's 1-element array.
Both return a bool: True when any bit of `flag` (one mjtDisableBit / mjtEnableBit or an OR of
several) is set.
"""

from engine._jit import inline_jit


@inline_jit
def disabled(m, flag):
  """Whether a bit of `flag` (mjtDisableBit values) is set in m.opt.disableflags."""
  return (m.opt.disableflags[0] & flag) != 0


@inline_jit
def enabled(m, flag):
  """Whether a bit of `flag` (mjtEnableBit values) is set in m.opt.enableflags."""
  return (m.opt.enableflags[0] & flag) != 0
