"""The Ant: a four-legged walker with eight hinge motors (dm_control.locomotion.walkers.Ant)."""

import numpy as np

import assets
import composer
import mjcf
from composer.observation import observable
from suite.locomotion.walkers import base
from suite.locomotion.walkers import legacy_base

_XML_PATH = assets.LOCOMOTION / "walkers" / "ant.xml"
_FEET = ("front_left_foot", "front_right_foot", "back_right_foot", "back_left_foot")


class Ant(legacy_base.Walker):
  """The Ant: a ball torso (the root body) and four legs whose feet are the end effectors.

  `Ant(name='walker', marker_rgba=None, initializer=None)`: `marker_rgba` colours the two
  front leg segments (to tell walkers apart); `initializer` as legacy_base.Walker. The Ant
  records the previous action (`prev_action`, zero at each episode start).
  """

  def _build(self, name="walker", marker_rgba=None, initializer=None):
    super()._build(initializer=initializer)
    self._appendages_sensors = []
    self._bodies_pos_sensors = []
    self._bodies_quats_sensors = []
    self._mjcf_root = mjcf.from_path(str(_XML_PATH))
    if name:
      self._mjcf_root.model = name
    if marker_rgba is not None:
      for geom in self.marker_geoms:
        geom.set_attributes(rgba=marker_rgba)
    spec = self.action_spec
    self._prev_action = np.zeros(shape=spec.shape, dtype=spec.dtype)

  def initialize_episode(self, physics, random_state):
    self._prev_action = np.zeros_like(self._prev_action)

  def apply_action(self, physics, action, random_state):
    super().apply_action(physics, action, random_state)
    self._prev_action[:] = action

  def _build_observables(self):
    return AntObservables(self)

  @property
  def upright_pose(self):
    return base.WalkerPose()

  @property
  def marker_geoms(self):
    """The front legs' hip segments, which `marker_rgba` colours."""
    return [
      self._mjcf_root.find("geom", "front_left_leg_geom"),
      self._mjcf_root.find("geom", "front_right_leg_geom"),
    ]

  @composer.cached_property
  def actuators(self):
    return self._mjcf_root.find_all("actuator")

  @composer.cached_property
  def root_body(self):
    return self._mjcf_root.find("body", "torso")

  @composer.cached_property
  def bodies(self):
    return tuple(self._mjcf_root.find_all("body"))

  @composer.cached_property
  def mocap_tracking_bodies(self):
    """The bodies motion capture tracks: all of them."""
    return tuple(self._mjcf_root.find_all("body"))

  @property
  def mocap_joints(self):
    return self._mjcf_root.find_all("joint")

  @property
  def _foot_bodies(self):
    return tuple(self._mjcf_root.find("body", name) for name in _FEET)

  @composer.cached_property
  def end_effectors(self):
    return self._foot_bodies

  @composer.cached_property
  def observable_joints(self):
    return [actuator.joint for actuator in self.actuators]

  @composer.cached_property
  def egocentric_camera(self):
    return self._mjcf_root.find("camera", "egocentric")

  def aliveness(self, physics):
    """(zz - 1) / 2 of the torso's orientation: 0 upright, -1 upside down."""
    return (physics.bind(self.root_body).xmat[-1] - 1.0) / 2.0

  @composer.cached_property
  def ground_contact_geoms(self):
    return tuple(geom for foot in self._foot_bodies for geom in foot.find_all("geom"))

  @property
  def prev_action(self):
    return self._prev_action

  @property
  def appendages_sensors(self):
    return self._appendages_sensors

  @property
  def bodies_pos_sensors(self):
    return self._bodies_pos_sensors

  @property
  def bodies_quats_sensors(self):
    return self._bodies_quats_sensors


def _add_egocentric_frame_sensors(walker, kind, bodies, suffix, store):
  """Adds a `kind` (framepos or framequat) sensor per body, relative to the root body, to
  the walker's model and lists them in `store` (emptied first); returns an observable of
  their readings, concatenated."""
  store[:] = []
  for body in bodies:
    store.append(
      walker.mjcf_model.sensor.add(
        kind,
        name=body.name + suffix,
        objtype="xbody",
        objname=body,
        reftype="xbody",
        refname=walker.root_body,
      )
    )
  return observable.Generic(lambda physics: np.reshape(physics.bind(store).sensordata, -1))


class AntObservables(legacy_base.WalkerObservables):
  """The legacy observables plus the feet, bodies' positions and bodies' orientations in the
  torso's frame."""

  @composer.observable
  def appendages_pos(self):
    """The feet's positions in the torso's frame (as end_effectors_pos)."""
    walker = self._entity
    return _add_egocentric_frame_sensors(
      walker, "framepos", walker.end_effectors, "_appendage", walker.appendages_sensors
    )

  @composer.observable
  def bodies_quats(self):
    """Every body's orientation quaternion in the torso's frame."""
    walker = self._entity
    return _add_egocentric_frame_sensors(
      walker, "framequat", walker.bodies, "_ego_body_quat", walker.bodies_quats_sensors
    )

  @composer.observable
  def bodies_pos(self):
    """Every body's position relative to the torso, in its frame."""
    walker = self._entity
    return _add_egocentric_frame_sensors(
      walker, "framepos", walker.bodies, "_ego_body_pos", walker.bodies_pos_sensors
    )

  @property
  def proprioception(self):
    return [
      self.joints_pos,
      self.joints_vel,
      self.body_height,
      self.end_effectors_pos,
      self.appendages_pos,
      self.world_zaxis,
      self.bodies_quats,
      self.bodies_pos,
    ] + self._collect_from_attachments("proprioception")
