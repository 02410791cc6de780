"""Features several suite tasks observe or reward (suite/declare.py): the state vectors and
the controls' cost."""

from numba.extending import register_jitable

from engine._jit import inline_jit
from engine.enums import mjJNT_HINGE
from suite import declare
from suite.utils import rewards

_HINGE = int(mjJNT_HINGE)


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


@register_jitable
def hinge_count(m):
  """The model's hinge joints (in Python and in jitted code: a shape function calls it)."""
  count = 0
  for j in range(m.njnt):
    if m.jnt_type[j] == _HINGE:
      count += 1
  return count


@inline_jit
def _hinge_values(m, values, addresses, out):
  """values[addresses[j]] of each hinge joint j, in joint order, into out."""
  k = 0
  for j in range(m.njnt):
    if m.jnt_type[j] == _HINGE:
      out[k] = values[addresses[j]]
      k += 1


@declare.feature(lambda m: (hinge_count(m),))
def hinge_angles(m, d, p, out):
  """The hinge joints' angles, in joint order (the free and ball joints left out)."""
  _hinge_values(m, d.qpos, m.jnt_qposadr, out)


@declare.feature(lambda m: (hinge_count(m),))
def hinge_velocities(m, d, p, out):
  """The hinge joints' velocities, in joint order."""
  _hinge_values(m, d.qvel, m.jnt_dofadr, out)


@inline_jit
def vector_in_frame(rotation, x, y, z):
  """The vector (x, y, z) in the frame of `rotation` (a body's or site's 9 xmat entries): its
  components along the frame's axes, (x, y, z) @ R (a velocity, a difference of two
  points)."""
  return (
    x * rotation[0] + y * rotation[3] + z * rotation[6],
    x * rotation[1] + y * rotation[4] + z * rotation[7],
    x * rotation[2] + y * rotation[5] + z * rotation[8],
  )


VECTOR_SIZE = 3  # readings of a vector sensor: accelerometer, velocimeter, gyro, force, torque


@inline_jit
def vector_readings(d, sensors, out):
  """The readings of the vector sensors at sensordata addresses `sensors`, one after the
  other, into out."""
  for i in range(len(sensors)):
    for j in range(VECTOR_SIZE):
      out[VECTOR_SIZE * i + j] = d.sensordata[sensors[i] + j]
