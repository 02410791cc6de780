"""Features several suite tasks observe or reward (suite/declare.py): the state vectors and
the controls' cost."""

from engine._jit import inline_jit
from suite import declare
from suite.utils import rewards


@declare.feature(lambda m: (m.nq,))
def position(m, d, p, out):
  """qpos."""
  for i in range(m.nq):
    out[i] = d.qpos[i]


@declare.feature(lambda m: (m.nq - 1,))
def position_without_x(m, d, p, out):
  """qpos without the root's x: the observation of a task invariant to translation along x."""
  for i in range(m.nq - 1):
    out[i] = d.qpos[1 + i]


@declare.feature(lambda m: (m.nv,))
def velocity(m, d, p, out):
  """qvel."""
  for i in range(m.nv):
    out[i] = d.qvel[i]


@declare.feature(())
def small_control(m, d, p):
  """How close the controls are to 0: the mean of their quadratic tolerances (margin 1)."""
  total = 0.0
  for i in range(m.nu):
    total += rewards.tolerance(d.ctrl[i], margin=1, value_at_margin=0, sigmoid="quadratic")
  return total / m.nu


@inline_jit
def in_frame(origin, point, rotation, axis):
  """Coordinate `axis` of point - origin (3-vectors) in the frame of `rotation` (a rotation
  matrix's 9 entries, row by row): the row vector times the matrix's column `axis`."""
  value = 0.0
  for i in range(3):
    value += (point[i] - origin[i]) * rotation[3 * i + axis]
  return value
