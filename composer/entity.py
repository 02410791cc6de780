"""Entities: reusable pieces of a scene (MJCF model + observables + episode hooks).

An Entity owns an `mjcf_model`; entities attach to one another (the child's model is
attached to a site or body of the parent's model, so it gets an attachment frame) and
form a tree rooted at the task's root entity (usually an Arena). The Environment calls
each entity's hooks at the MJCF stage (`initialize_episode_mjcf`), after compilation
(`after_compile`) and at the physics stages (`initialize_episode`, `before_step`,
`before_substep`, `after_substep`, `after_step`).
"""

import abc
import collections
import logging
import os
import weakref

import numpy as np

import mjcf
from composer import define

_OPTION_KEYS = frozenset(
  ["update_interval", "buffer_size", "delay", "aggregator", "corruptor", "enabled"]
)
_NO_ATTACHMENT_FRAME = "No attachment frame found."


def _multiply_quaternions(q1, q2):
  """Hamilton product q1 * q2 of (w, x, y, z) quaternions."""
  w1, x1, y1, z1 = q1
  w2, x2, y2, z2 = q2
  return np.array(
    [
      w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
      w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
      w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
      w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ]
  )


def _rotate_vector(vec, quat):
  """`vec` rotated by the unit quaternion `quat` (v' = q v q*)."""
  w, axis = quat[0], np.asarray(quat[1:], float)
  vec = np.asarray(vec, float)
  cross = np.cross(axis, vec)
  return vec + 2.0 * (w * cross + np.cross(axis, cross))


def _model_identifier(entity):
  try:
    return entity.mjcf_model.full_identifier
  except AttributeError as exc:
    raise ValueError("Cannot retrieve the full identifier of mjcf_model.") from exc


class _ObservableKeys:
  """`observables.dict_keys.<name>`: the fully qualified key of an observable."""

  def __init__(self, entity, observables):
    self._entity = entity
    self._observables = observables

  def __getattr__(self, name):
    return os.path.join(_model_identifier(self._entity), name)

  def __dir__(self):
    return sorted(set(self._observables) | set(dir(super())))


class Observables:
  """An entity's observables: the `@define.observable` methods of a subclass plus added ones.

  Each observable is also an attribute (`entity.observables.joint_positions`); keys of
  `as_dict()` are prefixed with the entity model's full identifier ('walker/joint_positions').
  """

  def __init__(self, entity):
    self._entity = weakref.proxy(entity)
    self._observables = collections.OrderedDict()
    self._keys_helper = _ObservableKeys(self._entity, self._observables)
    for name in sorted(dir(type(self))):
      if isinstance(getattr(type(self), name), define.observable):
        self._observables[name] = getattr(self, name)

  @property
  def dict_keys(self):
    return self._keys_helper

  def as_dict(self, fully_qualified=True):
    """An OrderedDict of this entity's observables, keys prefixed when `fully_qualified`."""
    if not fully_qualified:
      return self._observables.copy()
    prefix = _model_identifier(self._entity)
    return collections.OrderedDict(
      (os.path.join(prefix, name), obs) for name, obs in self._observables.items()
    )

  def get_observable(self, name, name_fully_qualified=False):
    if name_fully_qualified:
      name = name.replace(_model_identifier(self._entity), "")
    return self._observables[name]

  def set_options(self, options):
    """Configures observables from {name: {option: value}}, or {option: value} for all."""
    if options is None:
      options = {}
    elif options.keys() and set(options.keys()).issubset(_OPTION_KEYS):
      options = {name: options for name in self._observables}
    for name, obs_options in options.items():
      if name not in self._observables:
        raise KeyError(f"No observable with name {name!r}")
      self._observables[name].configure(**obs_options)

  def enable_all(self):
    for obs in self._observables.values():
      obs.enabled = True

  def disable_all(self):
    for obs in self._observables.values():
      obs.enabled = False

  def add_observable(self, name, observable, enabled=True):
    self._observables[name] = observable
    observable.enabled = enabled

  def __getattr__(self, name):
    # Observables added with add_observable are reachable as attributes too.
    observables = self.__dict__.get("_observables")
    if observables is not None and name in observables:
      return observables[name]
    raise AttributeError(f"{type(self).__name__!r} has no observable {name!r}")


class FreePropObservableMixin(metaclass=abc.ABCMeta):
  """Observables every free-moving prop provides."""

  @property
  @abc.abstractmethod
  def position(self):
    pass

  @property
  @abc.abstractmethod
  def orientation(self):
    pass

  @property
  @abc.abstractmethod
  def linear_velocity(self):
    pass

  @property
  @abc.abstractmethod
  def angular_velocity(self):
    pass


class Entity(metaclass=abc.ABCMeta):
  """Base class of entities: subclasses implement `_build` and `mjcf_model`."""

  def __init__(self, *args, **kwargs):
    """Calls `_build(*args, **kwargs)`, then builds the observables.

    The keyword `observable_options` (not passed to `_build`) configures observables,
    as Observables.set_options.
    """
    self._post_init_hooks = []
    self._parent = None
    self._attached = []
    observable_options = kwargs.pop("observable_options", None)
    self._build(*args, **kwargs)
    self._observables = self._build_observables()
    self._observables.set_options(observable_options)

  @abc.abstractmethod
  def _build(self, *args, **kwargs):
    """Builds the entity's MJCF model."""

  def _build_observables(self):
    """The entity's Observables; override to return a subclass with @observable methods."""
    return Observables(self)

  def iter_entities(self, exclude_self=False):
    """This entity (unless excluded) then the attached ones, depth first in attach order."""
    if not exclude_self:
      yield self
    for child in self._attached:
      yield from child.iter_entities()

  @property
  def observables(self):
    return self._observables

  # ---- hooks (called by the Environment; no-ops by default) ----

  def initialize_episode_mjcf(self, random_state):
    """Called before the model is compiled for an episode: edit the MJCF here."""

  def after_compile(self, physics, random_state):
    """Called after the model was compiled into `physics`."""

  def initialize_episode(self, physics, random_state):
    """Called to set the initial physics state of an episode."""

  def before_step(self, physics, random_state):
    """Called before each control step."""

  def before_substep(self, physics, random_state):
    """Called before each physics step."""

  def after_substep(self, physics, random_state):
    """Called after each physics step."""

  def after_step(self, physics, random_state):
    """Called after each control step."""

  # ---- model and attachment ----

  @property
  @abc.abstractmethod
  def mjcf_model(self):
    """The entity's mjcf.RootElement."""

  def attach(self, entity, attach_site=None):
    """Attaches `entity` rigidly at `attach_site` (default: self.attachment_site).

    Returns:
      The attachment frame (a <body>) of the attached model.
    """
    site = self.attachment_site if attach_site is None else attach_site
    frame = site.attach(entity.mjcf_model)
    self._attached.append(entity)
    entity._parent = weakref.ref(self)
    return frame

  def detach(self):
    """Detaches this entity from its parent.

    Raises:
      RuntimeError: the entity is not attached.
    """
    if self._parent is None:
      raise RuntimeError("Cannot detach an entity that is not attached.")
    parent = self._parent()
    if parent is not None:
      self.mjcf_model.detach()
      parent._attached.remove(self)
    self._parent = None

  @property
  def parent(self):
    """The entity this one is attached to, or None."""
    return self._parent() if self._parent else None

  @property
  def attachment_site(self):
    return self.mjcf_model

  @property
  def root_body(self):
    """The attachment frame when attached, else the worldbody."""
    if self.parent:
      return mjcf.get_attachment_frame(self.mjcf_model)
    return self.mjcf_model.worldbody

  # ---- frames ----

  def global_vector_to_local_frame(self, physics, vec_in_world_frame):
    """A world-frame vector (last axis 2 or 3) expressed in the root body's frame.

    Raises:
      ValueError: the last axis is neither 2 nor 3.
    """
    vec = np.asarray(vec_in_world_frame)
    xmat = np.reshape(physics.bind(self.root_body).xmat, (3, 3))
    if vec.shape[-1] == 2:
      return np.dot(vec, xmat[:2, :2])
    if vec.shape[-1] == 3:
      return np.dot(vec, xmat)
    raise ValueError(
      f"`vec_in_world_frame` should have shape with final dimension 2 or 3: got {vec.shape}"
    )

  def global_xmat_to_local_frame(self, physics, xmat):
    """Another body's xmat (world from it) as this entity's frame from it.

    Raises:
      ValueError: `xmat` is not (3, 3) or (9,).
    """
    xmat = np.asarray(xmat)
    input_shape = xmat.shape
    if xmat.shape == (9,):
      xmat = xmat.reshape(3, 3)
    if xmat.shape != (3, 3):
      raise ValueError(f"`xmat` should have shape (3, 3) or (9,): got {xmat.shape}")
    own = np.reshape(physics.bind(self.root_body).xmat, (3, 3))
    return np.reshape(own.T @ xmat, input_shape)

  # ---- pose and velocity ----

  def _attachment_frame_or_raise(self):
    frame = mjcf.get_attachment_frame(self.mjcf_model)
    if frame is None:
      raise RuntimeError(_NO_ATTACHMENT_FRAME)
    return frame

  def get_pose(self, physics):
    """(position, quaternion): the free joint's qpos (world frame) if the entity has one,
    else the attachment frame's pos/quat (parent frame).

    Raises:
      RuntimeError: the entity is not attached.
    """
    free = mjcf.get_frame_freejoint(self.mjcf_model)
    if free is not None:
      qpos = physics.bind(free).qpos
      return qpos[:3], qpos[3:]
    frame = self._attachment_frame_or_raise()
    binding = physics.bind(frame)
    return binding.pos, binding.quat

  def set_pose(self, physics, position=None, quaternion=None):
    """Sets the free joint's qpos, or the attachment frame's pos/quat (quaternion normalized).

    Raises:
      RuntimeError: the entity is not attached.
    """
    if quaternion is not None:
      quaternion = np.asarray(quaternion) / np.linalg.norm(quaternion)
    free = mjcf.get_frame_freejoint(self.mjcf_model)
    if free is not None:
      binding = physics.bind(free)
      if position is not None:
        binding.qpos[:3] = position
      if quaternion is not None:
        binding.qpos[3:] = quaternion
      return
    binding = physics.bind(self._attachment_frame_or_raise())
    if position is not None:
      binding.pos = position
    if quaternion is not None:
      binding.quat = quaternion

  def shift_pose(self, physics, position=None, quaternion=None, rotate_velocity=False):
    """Adds `position` to the position and premultiplies the orientation by `quaternion`;
    with `rotate_velocity` a free entity's linear velocity is rotated too."""
    current_position, current_quaternion = self.get_pose(physics)
    new_position = None if position is None else current_position + position
    new_quaternion = None
    if quaternion is not None:
      quaternion = np.asarray(quaternion, dtype=np.float64)
      new_quaternion = _multiply_quaternions(quaternion, current_quaternion)
      free = mjcf.get_frame_freejoint(self.mjcf_model)
      if free is not None and rotate_velocity:
        velocity = physics.bind(free).qvel[:3]
        self.set_velocity(physics, _rotate_vector(velocity, quaternion))
    self.set_pose(physics, new_position, new_quaternion)

  def get_velocity(self, physics):
    """(linear, angular) velocity of a free entity (its free joint's qvel).

    Raises:
      ValueError: the entity has no free joint.
    """
    free = mjcf.get_frame_freejoint(self.mjcf_model)
    if free is None:
      raise ValueError("get_velocity cannot be used on a non-free entity")
    qvel = physics.bind(free).qvel
    return qvel[:3], qvel[3:]

  def set_velocity(self, physics, velocity=None, angular_velocity=None):
    """Sets a free entity's linear and/or angular velocity (logs a warning if not free)."""
    free = mjcf.get_frame_freejoint(self.mjcf_model)
    if free is None:
      logging.warning("Cannot set velocity on Entity with no free joint.")
      return
    binding = physics.bind(free)
    if velocity is not None:
      binding.qvel[:3] = velocity
    if angular_velocity is not None:
      binding.qvel[3:] = angular_velocity

  def configure_joints(self, physics, position):
    """Sets the qpos of this entity's own joints (not those of attached entities)."""
    joints = self.mjcf_model.find_all("joint", exclude_attachments=True)
    physics.bind(joints).qpos = position


class ModelWrapperEntity(Entity):
  """An entity around an existing MJCF model, with no extra logic."""

  def _build(self, mjcf_model):
    self._mjcf_model = mjcf_model

  @property
  def mjcf_model(self):
    return self._mjcf_model
