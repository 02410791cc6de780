"""ToolCenterPointInitializer: puts a hand's tool center point at a sampled pose by IK."""

import numpy as np

import mjcf
from composer import initializer
from composer import variation
from composer.environment import EpisodeInitializationError
from composer.manipulators import base

_REJECTION_SAMPLING_FAILED = (
  "Failed to find a valid initial configuration for the robot after "
  "{max_rejection_samples} TCP poses sampled and up to {max_ik_attempts} "
  "initial joint configurations per pose."
)

# what a geom belongs to, for the collision test
_EXTERNAL_FIXED, _ARM, _HAND, _EXTERNAL_FREE = range(4)


class ToolCenterPointInitializer(initializer.Initializer):
  """Sets the arm's joints so that the hand's tool center point is at a sampled pose.

  Poses are sampled until the arm's inverse kinematics (`RobotArm.set_site_to_xpos`) reaches
  one without a relevant collision: arm with arm, arm with hand (not hand with hand), or arm
  or hand with a body outside the robot that has no free joint. Contacts with positive
  distance do not count.
  """

  def __init__(
    self,
    hand,
    arm,
    position,
    quaternion=base.DOWN_QUATERNION,
    ignore_collisions=False,
    max_ik_attempts=10,
    max_rejection_samples=10,
  ):
    """Args:
    hand: a `RobotHand`, or None to use `arm.wrist_site` as the tool center point.
    arm: a `RobotArm`.
    position: the TCP's Cartesian position, or a variation sampling it.
    quaternion: the TCP's orientation, or a variation sampling it.
    ignore_collisions: accept the first pose the solver reaches, colliding or not.
    max_ik_attempts: solver runs per sampled pose; the arm's joints are randomized between
      runs (set to 1 to keep them).
    max_rejection_samples: how many poses to sample before giving up.
    """
    super().__init__()
    self._arm = arm
    self._hand = hand
    self._position = position
    self._quaternion = quaternion
    self._ignore_collisions = ignore_collisions
    self._max_ik_attempts = max_ik_attempts
    self._max_rejection_samples = max_rejection_samples

  def _geom_owners(self, physics):
    """(ngeom,) array: which of arm, hand, free external body or fixed external body each
    compiled geom belongs to."""
    root = self._arm.mjcf_model.root_model
    owners = np.full(physics.model.ngeom, _EXTERNAL_FIXED)
    for body in root.worldbody.get_children("body"):
      if mjcf.get_freejoint(body):
        geoms = body.find_all("geom")
        if geoms:
          owners[physics.bind(geoms).element_id] = _EXTERNAL_FREE
    arm_model = self._arm.mjcf_model
    hand_model = self._hand.mjcf_model if self._hand is not None else None
    # Robot geoms count as the robot's even inside a free body (a hand attached to a prop).
    geoms = root.find_all("geom")
    robot = [
      (geom, _ARM if geom.root is arm_model else _HAND)
      for geom in geoms
      if geom.root is arm_model or (hand_model is not None and geom.root is hand_model)
    ]
    if robot:
      owners[physics.bind([geom for geom, _ in robot]).element_id] = [kind for _, kind in robot]
    return owners

  def _has_relevant_collisions(self, physics):
    contact = physics.data.contact
    touching = np.asarray(contact.dist) <= 0
    if not touching.any():
      return False
    owners = self._geom_owners(physics)
    first = owners[np.asarray(contact.geom1)[touching]]
    second = owners[np.asarray(contact.geom2)[touching]]
    arm_pair = ((first == _ARM) & np.isin(second, (_ARM, _HAND))) | (
      (first == _HAND) & (second == _ARM)
    )
    robot_first = np.isin(first, (_ARM, _HAND))
    robot_second = np.isin(second, (_ARM, _HAND))
    with_fixed = (robot_first & (second == _EXTERNAL_FIXED)) | (
      robot_second & (first == _EXTERNAL_FIXED)
    )
    return bool(np.any(arm_pair | with_fixed))

  def __call__(self, physics, random_state):
    """Samples TCP poses and solves for the arm's joints until one is accepted.

    Raises:
      EpisodeInitializationError: no accepted pose after `max_rejection_samples` samples
        (the arm's joints are then back where they started).
    """
    if self._hand is not None:
      target_site = self._hand.tool_center_point
    else:
      target_site = self._arm.wrist_site
    initial_qpos = physics.bind(self._arm.joints).qpos.copy()

    for _ in range(self._max_rejection_samples):
      target_pos = variation.evaluate(self._position, random_state=random_state)
      target_quat = variation.evaluate(self._quaternion, random_state=random_state)
      success = self._arm.set_site_to_xpos(
        physics=physics,
        random_state=random_state,
        site=target_site,
        target_pos=target_pos,
        target_quat=target_quat,
        max_ik_attempts=self._max_ik_attempts,
      )
      if success:
        physics.forward()  # contacts of the new pose
        if self._ignore_collisions or not self._has_relevant_collisions(physics):
          return
      physics.bind(self._arm.joints).qpos = initial_qpos

    raise EpisodeInitializationError(
      _REJECTION_SAMPLING_FAILED.format(
        max_rejection_samples=self._max_rejection_samples, max_ik_attempts=self._max_ik_attempts
      )
    )
