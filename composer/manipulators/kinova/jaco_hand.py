"""The Kinova Jaco three-finger hand (dm_control.entities.manipulators.kinova.JacoHand)."""

import collections.abc
import os

import composer
import mjcf
from composer.manipulators import base
from composer.manipulators.kinova import assets_path
from composer.manipulators.kinova import meshes
from composer.observation import observable

_XML_PATH = os.path.join(assets_path.KINOVA_ROOT, "jaco_hand.xml")
_HAND_BODY = "hand"
_PINCH_SITE = "pinchsite"
_GRIP_SITE = "gripsite"
# (geom, mesh) of each part that has a mesh in Kinova's model
_GEOM_MESHES = (
  ("link_6_main", "hand_3finger_main"),
  ("link_6_insert", "hand_3finger_insert"),
  ("finger_knuckle_1", "finger_proximal"),
  ("finger_tip_1", "finger_distal"),
  ("finger_knuckle_2", "finger_proximal"),
  ("finger_tip_2", "finger_distal"),
  ("finger_knuckle_3", "finger_proximal"),
  ("finger_tip_3", "finger_distal"),
)

# Finger servos: tuned for a grip force of about 25 N and a closing time of about 1.2 s (the
# hand's datasheet); the speed limit is that of Kinova's URDF.
_FINGER_GAIN = 10.0
_FINGER_FORCERANGE = (-1.0, 1.0)
_FINGER_CTRLRANGE = (-5.0, 5.0)

_NO_PINCH_SENSORS = (
  "JacoHand has no {} (dm_control's JacoHand declares the property but never makes the "
  "sensor); read the pinch site's pose with `observables.pinch_site_pos` / `pinch_site_rmat` or "
  "`physics.bind(hand.pinch_site)`"
)


class JacoHand(base.RobotHand):
  """Kinova's three-finger hand, with a velocity servo on each finger.

  `JacoHand(name=None, use_pinch_site_as_tcp=False, mesh_dir=None)`: `name` renames the model
  ('jaco_hand' by default); the tool center point is the grip site (between the fingers'
  bases) or, with `use_pinch_site_as_tcp`, the pinch site (where the fingertips meet). The
  parts are primitive shapes enclosing Kinova's meshes; with `mesh_dir`, a directory holding
  Kinova's original meshes (`hand_3finger_main.stl`, `hand_3finger_insert.stl`,
  `finger_proximal.stl`, `finger_distal.stl`, as in dm_control's
  `third_party/kinova/meshes_decimated`), the parts are those meshes and the compiled model is
  dm_control's. When `mesh_dir` is None the environment variable `KINOVA_MESH_DIR` is used if
  set. The meshes do not change the mass properties, only the contact and visual shapes.

  `pinch_site_pos_sensor` and `pinch_site_quat_sensor` raise AttributeError: dm_control's
  hand declares them without ever making the sensors.
  """

  def _build(self, name=None, use_pinch_site_as_tcp=False, mesh_dir=None):
    self._mjcf_root = mjcf.from_path(_XML_PATH)
    if name:
      self._mjcf_root.model = name
    mesh_dir = meshes.resolve_mesh_dir(mesh_dir)
    if mesh_dir is not None:
      meshes.use_meshes(self._mjcf_root, mesh_dir, _GEOM_MESHES)
    self._bodies = self._mjcf_root.find_all("body")
    self._tool_center_point = self._mjcf_root.find(
      "site", _PINCH_SITE if use_pinch_site_as_tcp else _GRIP_SITE
    )
    self._joints = self._mjcf_root.find_all("joint")
    self._hand_geoms = list(self._mjcf_root.find("body", _HAND_BODY).geom)
    self._finger_geoms = [
      geom
      for geom in self._mjcf_root.find_all("geom")
      if geom.name and geom.name.startswith("finger")
    ]
    self._grip_site = self._mjcf_root.find("site", _GRIP_SITE)
    self._pinch_site = self._mjcf_root.find("site", _PINCH_SITE)
    self._finger_actuators = [_add_velocity_actuator(joint) for joint in self._joints]

  def _build_observables(self):
    return JacoHandObservables(self)

  @property
  def tool_center_point(self):
    """The grip site, or the pinch site when built with `use_pinch_site_as_tcp`."""
    return self._tool_center_point

  @property
  def joints(self):
    """The three finger joints."""
    return self._joints

  @property
  def actuators(self):
    """The finger velocity actuators, one per joint in the same order."""
    return self._finger_actuators

  @property
  def hand_geom(self):
    """The palm's geoms."""
    return self._hand_geoms

  @property
  def finger_geoms(self):
    """The fingers' geoms (proximal and distal phalanges)."""
    return self._finger_geoms

  @property
  def grip_site(self):
    """Between the fingers' bases, where a power grasp holds an object."""
    return self._grip_site

  @property
  def pinch_site(self):
    """Where the fingertips meet."""
    return self._pinch_site

  @property
  def pinch_site_pos_sensor(self):
    raise AttributeError(_NO_PINCH_SENSORS.format("pinch_site_pos_sensor"))

  @property
  def pinch_site_quat_sensor(self):
    raise AttributeError(_NO_PINCH_SENSORS.format("pinch_site_quat_sensor"))

  @property
  def mjcf_model(self):
    return self._mjcf_root

  def set_grasp(self, physics, close_factors):
    """Puts the fingers at `close_factors` of their travel (0 open, 1 closed; one number for
    all fingers or one per finger) and zeroes their target velocities."""
    if not isinstance(close_factors, collections.abc.Iterable):
      close_factors = (close_factors,) * len(self.joints)
    for joint, factor in zip(self.joints, close_factors):
      bound = physics.bind(joint)
      low, high = bound.range
      bound.qpos = low + (high - low) * factor
    physics.after_reset()
    physics.bind(self.actuators).ctrl = 0


def _add_velocity_actuator(joint):
  """A finger's velocity servo."""
  return joint.root.actuator.add(
    "velocity",
    joint=joint,
    name=joint.name,
    kv=_FINGER_GAIN,
    ctrllimited=True,
    ctrlrange=_FINGER_CTRLRANGE,
    forcelimited=True,
    forcerange=_FINGER_FORCERANGE,
  )


class JacoHandObservables(base.JointsObservables):
  """The fingers' joints and the pinch site's pose in world coordinates."""

  @composer.observable
  def pinch_site_pos(self):
    """The pinch site's position."""
    return observable.MJCFFeature("xpos", self._entity.pinch_site)

  @composer.observable
  def pinch_site_rmat(self):
    """The pinch site's orientation, a flattened rotation matrix."""
    return observable.MJCFFeature("xmat", self._entity.pinch_site)
