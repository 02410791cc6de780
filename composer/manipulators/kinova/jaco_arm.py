"""The Kinova Jaco arm (dm_control.entities.manipulators.kinova.JacoArm)."""

import os

import numpy as np

import composer
import mjcf
from composer import define
from composer.manipulators import base
from composer.manipulators.kinova import assets_path
from composer.manipulators.kinova import meshes
from composer.observation import observable

_XML_PATH = os.path.join(assets_path.KINOVA_ROOT, "jaco_arm.xml")
_LARGE_JOINTS = ("joint_1", "joint_2", "joint_3")
_SMALL_JOINTS = ("joint_4", "joint_5", "joint_6")
_ALL_JOINTS = _LARGE_JOINTS + _SMALL_JOINTS
_WRIST_SITE = "wristsite"
# (geom, mesh) of each link that has a mesh in Kinova's model
_GEOM_MESHES = (
  ("base", "base"),
  ("link_1", "shoulder"),
  ("link_2", "arm"),
  ("link_3", "forearm"),
  ("link_4", "wrist"),
  ("link_5", "wrist"),
)

# Peak torques of Kinova's KA-75+ (shoulder, elbow) and KA-58 (wrist) actuators, N m.
_LARGE_JOINT_MAX_TORQUE = 30.5
_SMALL_JOINT_MAX_TORQUE = 6.8
# Speed limits the actuators' firmware imposes, rad/s.
_LARGE_JOINT_MAX_VELOCITY = np.deg2rad(36.0)
_SMALL_JOINT_MAX_VELOCITY = np.deg2rad(48.0)
# Velocity servo gain, N m s/rad (a rough estimate, not identified on the robot).
_VELOCITY_GAIN = 500.0


class JacoArm(base.RobotArm):
  """Kinova's six-joint Jaco arm, with a velocity servo on each joint.

  `JacoArm(name=None, mesh_dir=None)`: `name` renames the model (the prefix of its elements'
  full names, 'jaco_arm' by default). The links are primitive shapes enclosing Kinova's meshes;
  with `mesh_dir`, a directory holding Kinova's original meshes (`base.stl`, `shoulder.stl`,
  `arm.stl`, `forearm.stl`, `wrist.stl`, as in dm_control's
  `third_party/kinova/meshes_decimated`), the links are those meshes and the compiled model is
  dm_control's. When `mesh_dir` is None the environment variable `KINOVA_MESH_DIR` is used if
  set. The meshes do not change the mass properties, only the contact and visual shapes.

  Each joint has a torque sensor (at a site on the joint's body) and a velocity actuator whose
  torque and speed are limited to the datasheet's peaks. A hand attaches at `wrist_site`.
  """

  def _build(self, name=None, mesh_dir=None):
    self._mjcf_root = mjcf.from_path(_XML_PATH)
    if name:
      self._mjcf_root.model = name
    mesh_dir = meshes.resolve_mesh_dir(mesh_dir)
    if mesh_dir is not None:
      meshes.use_meshes(self._mjcf_root, mesh_dir, _GEOM_MESHES)
    self._joints = [self._mjcf_root.find("joint", joint) for joint in _ALL_JOINTS]
    self._wrist_site = self._mjcf_root.find("site", _WRIST_SITE)
    self._bodies = self._mjcf_root.find_all("body")
    self._actuators = [_add_velocity_actuator(joint) for joint in self._joints]
    self._joint_torque_sensors = [_add_torque_sensor(joint) for joint in self._joints]

  def _build_observables(self):
    return JacoArmObservables(self)

  @property
  def joints(self):
    """The arm's six joint elements, base to wrist."""
    return self._joints

  @property
  def actuators(self):
    """The velocity actuators, one per joint in the same order."""
    return self._actuators

  @property
  def joint_torque_sensors(self):
    """The torque sensors, one per joint in the same order."""
    return self._joint_torque_sensors

  @property
  def wrist_site(self):
    """The site a hand attaches to."""
    return self._wrist_site

  @property
  def mjcf_model(self):
    return self._mjcf_root


def _add_velocity_actuator(joint):
  """A velocity servo on `joint` limited to the joint's peak speed and torque."""
  if joint.name in _LARGE_JOINTS:
    max_torque, max_velocity = _LARGE_JOINT_MAX_TORQUE, _LARGE_JOINT_MAX_VELOCITY
  elif joint.name in _SMALL_JOINTS:
    max_torque, max_velocity = _SMALL_JOINT_MAX_TORQUE, _SMALL_JOINT_MAX_VELOCITY
  else:
    raise ValueError(f"`joint.name` must be one of {_ALL_JOINTS}, got {joint.name!r}.")
  return joint.root.actuator.add(
    "velocity",
    joint=joint,
    name=joint.name,
    kv=_VELOCITY_GAIN,
    ctrllimited=True,
    ctrlrange=(-max_velocity, max_velocity),
    forcelimited=True,
    forcerange=(-max_torque, max_torque),
  )


def _add_torque_sensor(joint):
  """A torque sensor at a new site on `joint`'s body (the joint's anchor and axes)."""
  site = joint.parent.add(
    "site", size=[1e-3], group=composer.SENSOR_SITES_GROUP, name=joint.name + "_site"
  )
  return joint.root.sensor.add("torque", site=site, name=joint.name + "_torque")


class JacoArmObservables(base.JointsObservables):
  """The arm's joints: angles as (sin, cos) pairs, velocities, torques about their axes."""

  @define.observable
  def joints_pos(self):
    """(num_joints, 2) sines and cosines of the joint angles: bounded though most joints
    turn without limit."""

    def sin_cos(physics):
      angles = physics.bind(self._entity.joints).qpos
      return np.vstack([np.sin(angles), np.cos(angles)]).T

    return observable.Generic(sin_cos)

  @define.observable
  def joints_torque(self):
    """Each joint's torque about its own axis: the torque sensor's 3-D reading (the torque
    the joint's body exerts on its parent) projected on the joint's axis."""

    def torques(physics):
      sensed = physics.bind(self._entity.joint_torque_sensors).sensordata
      axes = physics.bind(self._entity.joints).axis
      return np.einsum("ij,ij->i", np.reshape(sensed, (-1, 3)), axes)

    return observable.Generic(torques)
