"""The walker interface of the locomotion tasks (dm_control.locomotion.walkers.base).

A walker is a robot that tasks drop into an arena: the task gives it root joints
(`create_root_joints`, a free joint by default), drives its actuators with `apply_action` and
reads its observables, grouped by meaning (`proprioception`, `kinematic_sensors`,
`dynamic_sensors`).
"""

import abc
import collections

import numpy as np
from dm_env import specs

import composer
from composer.observation import observable

_UNLIMITED_CONTROL = (-1.0, 1.0)  # dm_control's range for an actuator with no own ctrlrange


def _frozen_float64(value):
  """`value` as a float64 scalar, or a read-only float64 array (poses are shared constants)."""
  if np.isscalar(value):
    return np.float64(value)
  array = np.array(value, dtype=np.float64)
  array.flags.writeable = False
  return array


class WalkerPose(collections.namedtuple("WalkerPose", ("qpos", "xpos", "xquat"))):
  """A walker's joint configuration and the displacement of its root.

  Args:
    qpos: the walker's own joint positions, or None for the model's `qpos0`.
    xpos: Cartesian offset of the root (e.g. to lift the walker onto its feet).
    xquat: orientation of the root, a (w, x, y, z) quaternion.

  Raises:
    ValueError: `xpos` is not 3 numbers or `xquat` not 4.
  """

  __slots__ = ()

  def __new__(cls, qpos=None, xpos=(0, 0, 0), xquat=(1, 0, 0, 0)):
    xpos, xquat = _frozen_float64(xpos), _frozen_float64(xquat)
    if np.shape(xpos) != (3,):
      raise ValueError(f"WalkerPose: `xpos` must be 3 numbers, got shape {np.shape(xpos)}")
    if np.shape(xquat) != (4,):
      raise ValueError(
        f"WalkerPose: `xquat` must be a quaternion of 4 numbers, got shape {np.shape(xquat)}"
      )
    return super().__new__(
      cls, qpos=None if qpos is None else _frozen_float64(qpos), xpos=xpos, xquat=xquat
    )

  def __eq__(self, other):
    return (
      np.all(self.qpos == other.qpos)
      and np.all(self.xpos == other.xpos)
      and np.all(self.xquat == other.xquat)
    )


class Walker(composer.Robot, metaclass=abc.ABCMeta):
  """Base class of walkers: a root body, observable joints and an action per actuator."""

  def create_root_joints(self, attachment_frame) -> None:
    """Gives the walker its degrees of freedom in the arena: a free joint on its frame."""
    attachment_frame.add("freejoint")

  def _build_observables(self) -> "WalkerObservables":
    return WalkerObservables(self)

  def transform_vec_to_egocentric_frame(self, physics, vec_in_world_frame):
    """A world-frame vector (last axis 3, or 2 for the horizontal plane) rotated into the root
    body's frame; a linear map, no translation.

    Raises:
      ValueError: the last axis is neither 2 nor 3.
    """
    return super().global_vector_to_local_frame(physics, vec_in_world_frame)

  def transform_xmat_to_egocentric_frame(self, physics, xmat):
    """Another body's `xmat` (world from that body) as root-body-from-that-body, same shape.

    Raises:
      ValueError: `xmat` is not (3, 3) or (9,).
    """
    return super().global_xmat_to_local_frame(physics, xmat)

  @property
  @abc.abstractmethod
  def root_body(self):
    """The body whose frame is the walker's egocentric frame."""

  @property
  @abc.abstractmethod
  def observable_joints(self):
    """The joints whose positions (and velocities) the walker reports."""

  @property
  def action_spec(self):
    """One bounded entry per actuator: its own `ctrlrange`, else [-1, 1]; the name is the
    actuator names joined by tabs."""
    ranges = [_UNLIMITED_CONTROL if a.ctrlrange is None else a.ctrlrange for a in self.actuators]
    minimum = [low for low, _ in ranges]
    maximum = [high for _, high in ranges]
    return specs.BoundedArray(
      shape=(len(ranges),),
      dtype=float,
      minimum=minimum,
      maximum=maximum,
      name="\t".join(a.name for a in self.actuators),
    )

  def apply_action(self, physics, action, random_state):
    """Writes `action` (one value per actuator, or one for all) into the walker's controls.

    Raises:
      ValueError: `action` has neither one value nor one per actuator.
    """
    del random_state  # deterministic walkers ignore it
    actuators = self.actuators
    if np.size(action) not in (1, len(actuators)):
      raise ValueError(
        f"{type(self).__name__}.apply_action: got an action of shape "
        f"{np.shape(action)} for {len(actuators)} actuators"
      )
    physics.bind(actuators).ctrl = action


class WalkerObservables(composer.Observables):
  """Joint positions and the gyro, accelerometer and frame-orientation sensors of a walker."""

  @composer.observable
  def joints_pos(self):
    return observable.MJCFFeature("qpos", self._entity.observable_joints)

  @composer.observable
  def sensors_gyro(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.gyro)

  @composer.observable
  def sensors_accelerometer(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.accelerometer)

  @composer.observable
  def sensors_framequat(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.framequat)

  def _collect_from_attachments(self, group):
    """The observables of group `group` of every entity attached below the walker."""
    collected = []
    for attached in self._entity.iter_entities(exclude_self=True):
      collected.extend(getattr(attached.observables, group, []))
    return collected

  @property
  def proprioception(self):
    return [self.joints_pos] + self._collect_from_attachments("proprioception")

  @property
  def kinematic_sensors(self):
    return [
      self.sensors_gyro,
      self.sensors_accelerometer,
      self.sensors_framequat,
    ] + self._collect_from_attachments("kinematic_sensors")

  @property
  def dynamic_sensors(self):
    return self._collect_from_attachments("dynamic_sensors")
