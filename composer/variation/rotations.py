"""Rotation variations: quaternions are (w, x, y, z)."""

import numpy as np

from composer.utils import transformations
from composer.variation import base
from composer.variation import variation_values

IDENTITY_QUATERNION = np.array([1.0, 0.0, 0.0, 0.0])


class UniformQuaternion(base.Variation):
  """Unit quaternions uniformly distributed over rotations."""

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    random_state = random_state or np.random
    u1, u2, u3 = random_state.uniform([0.0] * 3, [1.0, 2.0 * np.pi, 2.0 * np.pi])
    return np.array(
      [
        np.sqrt(1.0 - u1) * np.sin(u2),
        np.sqrt(1.0 - u1) * np.cos(u2),
        np.sqrt(u1) * np.sin(u3),
        np.sqrt(u1) * np.cos(u3),
      ]
    )

  def __eq__(self, other):
    return isinstance(other, UniformQuaternion)

  def __repr__(self):
    return "UniformQuaternion()"


class QuaternionFromAxisAngle(base.Variation):
  """The rotation by `angle` about `axis` (both may be variations)."""

  def __init__(self, axis, angle):
    self._axis = axis
    self._angle = angle

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    args = (initial_value, current_value, random_state or np.random)
    axis = variation_values.evaluate(self._axis, *args)
    angle = variation_values.evaluate(self._angle, *args)
    return transformations.axisangle_to_quat(np.asarray(axis) * angle)

  def __eq__(self, other):
    return (
      isinstance(other, QuaternionFromAxisAngle)
      and self._axis == other._axis
      and self._angle == other._angle
    )


class QuaternionPreMultiply(base.Variation):
  """quat * (current value if cumulative else initial value)."""

  def __init__(self, quat, cumulative=False):
    self._quat = quat
    self._cumulative = cumulative

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    quat = variation_values.evaluate(
      self._quat, initial_value, current_value, random_state or np.random
    )
    other = current_value if self._cumulative else initial_value
    return transformations.quat_mul(quat, other)

  def __eq__(self, other):
    return (
      isinstance(other, QuaternionPreMultiply)
      and self._quat == other._quat
      and self._cumulative == other._cumulative
    )


class QuaternionRotate(base.Variation):
  """A vector (`vec`, or the current/initial value) rotated by `quat`."""

  def __init__(self, quat, vec=None, cumulative=False):
    self._quat = quat
    self._vec = vec
    self._cumulative = cumulative

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    args = (initial_value, current_value, random_state or np.random)
    quat = variation_values.evaluate(self._quat, *args)
    if self._vec is None:
      vec = current_value if self._cumulative else initial_value
    else:
      vec = variation_values.evaluate(self._vec, *args)
    return transformations.quat_rotate(quat, vec)

  def __eq__(self, other):
    return (
      isinstance(other, QuaternionRotate)
      and self._quat == other._quat
      and self._vec == other._vec
      and self._cumulative == other._cumulative
    )
