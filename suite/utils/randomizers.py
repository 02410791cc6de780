"""Random initial joint configurations (dm_control's `suite.utils.randomizers`)."""

import numpy as np

from engine import mju_axisAngle2Quat
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE


def random_limited_quaternion(random, limit):
  """A unit quaternion: a random axis, an angle uniform in [0, limit)."""
  axis = random.randn(3)
  axis /= np.linalg.norm(axis)
  angle = random.rand() * limit
  quat = np.zeros(4)
  mju_axisAngle2Quat(quat, axis, angle)
  return quat


def randomize_limited_and_rotational_joints(physics, random=None):
  """Sets every joint's qpos to a random value, joint by joint in model order.

  Limited hinge/slide: uniform in its range. Limited ball: random axis, angle uniform below its
  limit. Unlimited hinge: uniform in [-pi, pi). Unlimited ball: a normalized Gaussian
  quaternion. Free joint: the orientation becomes a normalized quaternion with components
  uniform in [0, 1) (not uniform on SO(3), as in dm_control), the position is kept. Unlimited
  slides are left as they are.

  Args:
    physics: a Physics.
    random: a numpy RandomState (default: numpy's global one); its draw order is part of the
      seed-level contract with dm_control.
  """
  random = random or np.random
  model = physics.model
  qpos = physics.data.qpos
  for j in range(model.njnt):
    jtype = model.jnt_type[j]
    adr = model.jnt_qposadr[j]
    lo, hi = model.jnt_range[j]
    if model.jnt_limited[j]:
      if jtype in (mjJNT_HINGE, mjJNT_SLIDE):
        qpos[adr] = random.uniform(lo, hi)
      elif jtype == mjJNT_BALL:
        qpos[adr : adr + 4] = random_limited_quaternion(random, hi)
    elif jtype == mjJNT_HINGE:
      qpos[adr] = random.uniform(-np.pi, np.pi)
    elif jtype == mjJNT_BALL:
      quat = random.randn(4)
      qpos[adr : adr + 4] = quat / np.linalg.norm(quat)
    elif jtype == mjJNT_FREE:
      quat = random.rand(4)
      qpos[adr + 3 : adr + 7] = quat / np.linalg.norm(quat)
