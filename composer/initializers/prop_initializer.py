"""PropPlacer: samples poses for props until none of them penetrates anything."""

import logging

import numpy as np

import mjcf
from composer import initializer
from composer.environment import EpisodeInitializationError
from composer.initializers import utils
from composer.variation import evaluate
from composer.variation import rotations
from engine.physics import PhysicsError

_SETTLE_QVEL_TOL = 1e-3
_SETTLE_QACC_TOL = 1e-2

_REJECTION_SAMPLING_FAILED = (
  "Failed to find a non-colliding pose for prop {model_name!r} within {max_attempts} "
  "attempts.\nYou may be able to avoid this error by:\n"
  "1. Sampling from a broader distribution over positions and/or quaternions\n"
  "2. Increasing `max_attempts_per_prop`\n"
  "3. Disabling collision detection by setting `ignore_collisions=False`"
)
_SETTLING_PHYSICS_FAILED = (
  "Failed to settle physics after {max_attempts} attempts of {max_time} seconds.\n"
  "Last residual velocity={max_qvel} and acceleration={max_qacc}.\n"
  "This suggests your dynamics are unstable. Consider:\n"
  "\t1. Increasing `max_settle_physics_attempts`\n"
  "\t2. Increasing `max_settle_physics_time`\n"
  "\t3. Tuning your contact parameters or initial pose distributions."
)


class PropPlacer(initializer.Initializer):
  """Places props one after another by rejection sampling of their poses.

  Props not yet placed have contacts disabled; a pose is accepted when the prop has no
  contact with dist <= 0. With `settle_physics` the scene is then simulated (other
  joints held still) until the props' joint speeds and accelerations are small.
  """

  def __init__(
    self,
    props,
    position,
    quaternion=rotations.IDENTITY_QUATERNION,
    ignore_collisions=False,
    max_qvel_tol=_SETTLE_QVEL_TOL,
    max_qacc_tol=_SETTLE_QACC_TOL,
    max_attempts_per_prop=20,
    settle_physics=False,
    min_settle_physics_time=0.0,
    max_settle_physics_time=2.0,
    max_settle_physics_attempts=1,
    raise_exception_on_settle_failure=False,
  ):
    """Args as dm_control's PropPlacer: `position`/`quaternion` are values or variations
    (evaluated with the prop's initial and current pose)."""
    if max_settle_physics_attempts < 1:
      raise ValueError(
        "max_settle_physics_attempts should be greater than zero to have any "
        f"effect, but is {max_settle_physics_attempts}"
      )
    self._props = props
    self._prop_joints = []
    for prop in props:
      free = mjcf.get_frame_freejoint(prop.mjcf_model)
      if free is not None:
        self._prop_joints.append(free)
      self._prop_joints.extend(prop.mjcf_model.find_all("joint"))
    self._position = position
    self._quaternion = quaternion
    self._ignore_collisions = ignore_collisions
    self._max_attempts_per_prop = max_attempts_per_prop
    self._settle_physics = settle_physics
    self._max_qvel_tol = max_qvel_tol
    self._max_qacc_tol = max_qacc_tol
    self._min_settle_physics_time = min_settle_physics_time
    self._max_settle_physics_time = max_settle_physics_time
    self._max_settle_physics_attempts = max_settle_physics_attempts
    self._raise_exception_on_settle_failure = raise_exception_on_settle_failure

  def _has_collisions_with_prop(self, physics, prop):
    geom_ids = physics.bind(prop.mjcf_model.find_all("geom")).element_id
    contact = physics.data.contact
    touching = np.asarray(contact.dist) <= 0
    mine = np.isin(contact.geom1, geom_ids) | np.isin(contact.geom2, geom_ids)
    return bool(np.any(touching & mine))

  def _disable_contacts(self, physics, entities):
    """Turns off contacts of the entities' geoms; returns their (contype, conaffinity)."""
    saved = {}
    for entity in entities:
      geoms = physics.bind(entity.mjcf_model.find_all("geom"))
      saved[entity] = (geoms.contype.copy(), geoms.conaffinity.copy())
      geoms.contype = 0
      geoms.conaffinity = 0
    return saved

  def _restore_contacts(self, physics, entity, saved):
    geoms = physics.bind(entity.mjcf_model.find_all("geom"))
    geoms.contype, geoms.conaffinity = saved[entity]

  def __call__(self, physics, random_state, ignore_contacts_with_entities=None):
    """Places the props (and settles them if asked).

    Raises:
      EpisodeInitializationError: no non-colliding pose within max_attempts_per_prop, or
        settling failed with raise_exception_on_settle_failure.
    """
    ignored = list(ignore_contacts_with_entities or [])
    saved = self._disable_contacts(physics, list(self._props) + ignored)
    try:
      physics.forward()
    except PhysicsError as cause:
      raise PhysicsError(
        "Despite disabling contact for all props in this initializer, "
        "`physics.forward()` resulted in a `PhysicsError`"
      ) from cause

    def place_props():
      for prop in self._props:
        self._restore_contacts(physics, prop, saved)
        # As in dm_control, for a free prop these are views of qpos: relative variations
        # (noises) apply to the pose of the previous attempt.
        initial_position, initial_quaternion = prop.get_pose(physics)
        position, quaternion = initial_position, initial_quaternion
        for _ in range(self._max_attempts_per_prop):
          position = evaluate(
            self._position,
            initial_value=initial_position,
            current_value=position,
            random_state=random_state,
          )
          quaternion = evaluate(
            self._quaternion,
            initial_value=initial_quaternion,
            current_value=quaternion,
            random_state=random_state,
          )
          prop.set_pose(physics, position, quaternion)
          try:
            physics.forward()
          except PhysicsError:
            continue
          if self._ignore_collisions or not self._has_collisions_with_prop(physics, prop):
            break
        else:
          raise EpisodeInitializationError(
            _REJECTION_SAMPLING_FAILED.format(
              model_name=prop.mjcf_model.model, max_attempts=self._max_attempts_per_prop
            )
          )
      for entity in ignored:
        self._restore_contacts(physics, entity, saved)

    if not self._settle_physics:
      place_props()
      return
    max_qvel = max_qacc = np.inf
    for _ in range(self._max_settle_physics_attempts):
      place_props()
      start = physics.data.time
      try:
        isolator = utils.JointStaticIsolator(physics, self._prop_joints)
        joints = physics.bind(self._prop_joints)
        while physics.data.time - start < self._max_settle_physics_time:
          with isolator:
            physics.step()
          max_qvel = np.max(np.abs(joints.qvel))
          max_qacc = np.max(np.abs(joints.qacc))
          if (
            max_qvel < self._max_qvel_tol
            and max_qacc < self._max_qacc_tol
            and physics.data.time - start > self._min_settle_physics_time
          ):
            return
      finally:
        physics.data.time = start
    message = _SETTLING_PHYSICS_FAILED.format(
      max_attempts=self._max_settle_physics_attempts,
      max_time=self._max_settle_physics_time,
      max_qvel=max_qvel,
      max_qacc=max_qacc,
    )
    if self._raise_exception_on_settle_failure:
      raise EpisodeInitializationError(message)
    logging.warning(message)
