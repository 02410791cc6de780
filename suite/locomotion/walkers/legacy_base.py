"""The walker base of dm_control's locomotion walkers (dm_control.locomotion.walkers.legacy_base):
end effectors, an egocentric camera, ground-contact geoms, pose initializers, contact
bookkeeping, and the full set of observables the locomotion tasks read.
"""

import abc

import numpy as np

import composer
import engine
from composer.observation import observable
from suite.locomotion.walkers import base
from suite.locomotion.walkers import initializers

# rangefinder readings are squashed into [0, 10) m by 10 tanh(d / 10); "no hit" (-1) reads 10
_RANGEFINDER_SCALE = 10.0
# a touch sensor reads 1 above this force (N), else 0
_TOUCH_THRESHOLD = 1e-3


def _as_initializers(initializer):
  """`initializer` (one, several, or None for the upright pose) as a tuple of initializers.

  Raises:
    TypeError: an item has no `initialize_pose` method.
  """
  try:
    chosen = tuple(initializer)
  except TypeError:
    chosen = (initializer or initializers.UprightInitializer(),)
  for item in chosen:
    if not callable(getattr(item, "initialize_pose", None)):
      raise TypeError(
        "a walker initializer must have an `initialize_pose(physics, walker, "
        f"random_state)` method (e.g. a WalkerInitializer): got {item!r}"
      )
  return chosen


class Walker(base.Walker):
  """Base class of the locomotion walkers (Ant, the balls, CMU humanoids, Rat).

  `_build(initializer=None)`: subclasses call it from their own `_build`; `initializer` is a
  WalkerInitializer, a sequence of them (applied in order), or None for UprightInitializer.
  """

  def _build(self, initializer=None):
    self._end_effectors_pos_sensors = []
    self._obs_on_other = {}
    self._initializers = _as_initializers(initializer)

  @property
  def mjcf_model(self):
    """The walker's MJCF root, which its `_build` makes as `_mjcf_root`."""
    return self._mjcf_root

  @property
  def upright_pose(self):
    """The pose UprightInitializer sets: here the model's qpos0 at the attachment frame."""
    return base.WalkerPose()

  def _build_observables(self):
    return WalkerObservables(self)

  def reinitialize_pose(self, physics, random_state):
    """Applies the walker's initializers in order."""
    for initializer in self._initializers:
      initializer.initialize_pose(physics, self, random_state)

  def aliveness(self, physics):
    """How alive the walker is, in [-1, 0]: -1 is beyond recovery (e.g. flipped over), 0 is
    alive; tasks use it for termination or shaping. Always 0 unless a walker defines it."""
    del physics  # walkers without a notion of aliveness are always alive
    return 0.0

  @property
  @abc.abstractmethod
  def ground_contact_geoms(self):
    """The geoms expected to touch the ground in normal locomotion (e.g. the feet); tasks
    may terminate on other ground contacts."""

  def after_compile(self, physics, random_state):
    """Splits the walker's geom ids into end-effector geoms and the other (body) geoms."""
    super().after_compile(physics, random_state)
    self._end_effector_geom_ids = set()
    for effector in self.end_effectors:
      self._end_effector_geom_ids |= set(physics.bind(effector.find_all("geom")).element_id)
    self._body_geom_ids = {
      physics.bind(geom).element_id for geom in self.mjcf_model.find_all("geom")
    }
    self._body_geom_ids.difference_update(self._end_effector_geom_ids)

  @property
  def end_effector_geom_ids(self):
    return self._end_effector_geom_ids

  @property
  def body_geom_ids(self):
    return self._body_geom_ids

  @property
  def obs_on_other(self):
    return self._obs_on_other

  def end_effector_contacts(self, physics):
    """{(geom1, geom2): total normal force} of the contacts touching an end effector."""
    return self.collect_contacts(physics, self._end_effector_geom_ids)

  def body_contacts(self, physics):
    """{(geom1, geom2): total normal force} of the contacts touching a non-end-effector geom."""
    return self.collect_contacts(physics, self._body_geom_ids)

  def collect_contacts(self, physics, geom_ids):
    """{(geom1, geom2): summed normal force} of the active contacts (dist < includemargin)
    with a geom in `geom_ids`; the force is the first component of `mj_contactForce`."""
    contact = physics.data.contact  # read column-wise: one array per field
    geom1, geom2 = np.array(contact.geom1), np.array(contact.geom2)
    ids = list(geom_ids)
    active = (np.isin(geom1, ids) | np.isin(geom2, ids)) & (
      np.asarray(contact.dist) < np.asarray(contact.includemargin)
    )
    contacts = {}
    force_torque = np.zeros(6)
    for i in np.flatnonzero(active):
      engine.mj_contactForce(physics.model.ptr, physics.data.ptr, int(i), force_torque)
      pair = (int(geom1[i]), int(geom2[i]))
      contacts[pair] = contacts.get(pair, 0.0) + force_torque[0]
    return contacts

  @property
  @abc.abstractmethod
  def end_effectors(self):
    """The end-effector elements (bodies, e.g. hands and feet)."""

  @property
  @abc.abstractmethod
  def egocentric_camera(self):
    """The walker's first-person <camera>."""

  @composer.cached_property
  def touch_sensors(self):
    return self.mjcf_model.sensor.get_children("touch")

  @property
  def prev_action(self):
    """The action applied at the previous step; walkers that offer it store it (e.g. in
    `apply_action`)."""
    raise NotImplementedError(
      f"{type(self).__name__} does not record its previous action (prev_action)"
    )

  def after_substep(self, physics, random_state):
    """Refreshes the subtree velocities, which the engine computes only when a sensor needs
    them, for the torso_xvel/torso_yvel observables."""
    del random_state  # unused
    engine.mj_subtreeVel(physics.model.ptr, physics.data.ptr)

  @composer.cached_property
  def mocap_joints(self):
    return tuple(self.mjcf_model.find_all("joint"))

  def actuator_force(self, physics):
    """The actuator forces on the observable joints (their qfrc_actuator)."""
    return physics.bind(self.observable_joints).qfrc_actuator

  @composer.cached_property
  def mocap_to_observable_joint_order(self):
    """Index into `mocap_joints` of each observable joint."""
    return [self.mocap_joints.index(joint) for joint in self.observable_joints]

  @composer.cached_property
  def observable_to_mocap_joint_order(self):
    """Index into `observable_joints` of each mocap joint."""
    return [self.observable_joints.index(joint) for joint in self.mocap_joints]

  @property
  def end_effectors_pos_sensors(self):
    return self._end_effectors_pos_sensors


class WalkerObservables(base.WalkerObservables):
  """Every observable of the legacy walkers, with their semantic groups."""

  @composer.observable
  def joints_vel(self):
    return observable.MJCFFeature("qvel", self._entity.observable_joints)

  @composer.observable
  def body_height(self):
    return observable.MJCFFeature("xpos", self._entity.root_body)[2]

  @composer.observable
  def end_effectors_pos(self):
    """End-effector positions relative to the root body, in its frame: one framepos sensor
    per end effector, added to the model when the observables are built."""
    walker = self._entity
    sensors = walker.end_effectors_pos_sensors
    sensors[:] = []
    for effector in walker.end_effectors:
      sensors.append(
        walker.mjcf_model.sensor.add(
          "framepos",
          name=effector.name + "_end_effector",
          objtype="xbody" if effector.tag == "body" else effector.tag,
          objname=effector,
          reftype="xbody",
          refname=walker.root_body,
        )
      )

    return observable.Generic(
      observable.BoundAttribute("sensordata", walker.end_effectors_pos_sensors, flat=True)
    )

  @composer.observable
  def world_zaxis(self):
    """The world's z axis in the root body's frame (last row of its xmat)."""
    return observable.MJCFFeature("xmat", self._entity.root_body)[6:]

  @composer.observable
  def sensors_velocimeter(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.velocimeter)

  @composer.observable
  def sensors_force(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.force)

  @composer.observable
  def sensors_torque(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.torque)

  @composer.observable
  def sensors_touch(self):
    """Touch sensors as 0/1 contact flags."""
    return observable.MJCFFeature(
      "sensordata", self._entity.mjcf_model.sensor.touch, corruptor=_touch_flags
    )

  @composer.observable
  def sensors_rangefinder(self):
    """Rangefinder distances squashed by a tanh (no hit reads the scale, 10)."""
    rangefinders = self._entity.mjcf_model.sensor.rangefinder

    def squashed_distances(physics):
      distances = np.array(physics.bind(rangefinders).sensordata)
      distances[distances == -1.0] = np.inf
      return _RANGEFINDER_SCALE * np.tanh(distances / _RANGEFINDER_SCALE)

    return observable.Generic(squashed_distances)

  @composer.observable
  def egocentric_camera(self):
    return observable.MJCFCamera(self._entity.egocentric_camera, width=64, height=64)

  @composer.observable
  def position(self):
    return observable.MJCFFeature("xpos", self._entity.root_body)

  @composer.observable
  def orientation(self):
    return observable.MJCFFeature("xmat", self._entity.root_body)

  def add_egocentric_vector(
    self, name, world_frame_observable, enabled=True, origin_callable=None, **kwargs
  ):
    """Adds observable `name`: `world_frame_observable`'s vector, minus
    `origin_callable(physics)` if given, in the walker's egocentric frame. `kwargs` are
    observable options (buffer_size, delay, ...)."""

    def egocentric(physics):
      vector = world_frame_observable.observation_callable(physics)()
      if origin_callable is not None:
        vector = vector - origin_callable(physics)
      return self._entity.transform_vec_to_egocentric_frame(physics, vector)

    self.add_observable(name, observable.Generic(egocentric, **kwargs), enabled=enabled)

  def add_egocentric_xmat(self, name, xmat_observable, enabled=True, **kwargs):
    """Adds observable `name`: the orientation `xmat_observable` reads, in the walker's
    egocentric frame."""

    def egocentric(physics):
      xmat = xmat_observable.observation_callable(physics)()
      return self._entity.transform_xmat_to_egocentric_frame(physics, xmat)

    self.add_observable(name, observable.Generic(egocentric, **kwargs), enabled=enabled)

  @property
  def proprioception(self):
    return [
      self.joints_pos,
      self.joints_vel,
      self.body_height,
      self.end_effectors_pos,
      self.world_zaxis,
    ] + self._collect_from_attachments("proprioception")

  @property
  def kinematic_sensors(self):
    return [
      self.sensors_gyro,
      self.sensors_velocimeter,
      self.sensors_accelerometer,
    ] + self._collect_from_attachments("kinematic_sensors")

  @property
  def dynamic_sensors(self):
    return [
      self.sensors_force,
      self.sensors_torque,
      self.sensors_touch,
    ] + self._collect_from_attachments("dynamic_sensors")

  # Scalars the tasks build rewards and terminations from.

  @composer.observable
  def veloc_strafe(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.velocimeter)[1]

  @composer.observable
  def veloc_up(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.velocimeter)[2]

  @composer.observable
  def veloc_forward(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.velocimeter)[0]

  @composer.observable
  def gyro_backward_roll(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.gyro)[0]

  @composer.observable
  def gyro_rightward_roll(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.gyro)[1]

  @composer.observable
  def gyro_anticlockwise_spin(self):
    return observable.MJCFFeature("sensordata", self._entity.mjcf_model.sensor.gyro)[2]

  @composer.observable
  def torso_xvel(self):
    return observable.MJCFFeature("subtree_linvel", self._entity.root_body)[0]

  @composer.observable
  def torso_yvel(self):
    return observable.MJCFFeature("subtree_linvel", self._entity.root_body)[1]

  @composer.observable
  def prev_action(self):
    walker = self._entity
    return observable.Generic(lambda physics: walker.prev_action)


def _touch_flags(touch, random_state):
  """1 where a touch sensor reads more than the threshold, else 0."""
  del random_state  # deterministic
  return np.array(touch > _TOUCH_THRESHOLD, dtype=float)
