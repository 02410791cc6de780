"""Abstract robot arms and hands (dm_control.entities.manipulators.base).

An arm exposes its joints and a wrist site to attach a hand to; a hand exposes a tool center
point and a way to set its grip. `RobotArm.set_site_to_xpos` puts a site at a Cartesian pose by
inverse kinematics, restarting from random joint positions when the solver fails.
"""

import abc

import numpy as np

import composer
import mjcf
from composer import define
from composer.observation import observable
from composer.utils import inverse_kinematics
from engine.enums import mjtJoint

# The site's z axis points down the world's -z axis (a gripper facing the table).
DOWN_QUATERNION = np.array([0.0, 0.70710678118, 0.70710678118, 0.0])

_INVALID_JOINTS_ERROR = (
  "All non-hinge joints must have limits. Model contains the following "
  "non-hinge joints which are unbounded:\n{invalid_str}"
)

_TWO_PI = 2 * np.pi
_MAX_TURNS = 10**6  # whole turns _wrap_into_bounds may take before it calls an angle bad


class RobotArm(composer.Robot, metaclass=abc.ABCMeta):
  """Base class of robot arms: subclasses give their joints and wrist site."""

  def _build_observables(self):
    return JointsObservables(self)

  @property
  def attachment_site(self):
    """Where a hand attaches: the wrist site."""
    return self.wrist_site

  def _get_joint_pos_sampling_bounds(self, physics):
    """(lower, upper) joint positions to sample from, a (2, num_joints) array.

    A joint's range when it is limited; [0, 2pi] for an unlimited hinge.

    Raises:
      RuntimeError: a joint that is not a hinge has no limits (nothing sensible to sample).
    """
    joints = physics.bind(self.joints)
    bounds = np.array(joints.range, dtype=np.float64, copy=True).reshape(-1, 2)
    hinge = np.asarray(joints.type).reshape(-1) == int(mjtJoint.mjJNT_HINGE)
    limited = np.asarray(joints.limited).reshape(-1).astype(bool)
    unbounded = ~hinge & ~limited
    if unbounded.any():
      names = "\n".join(str(self.joints[i]) for i in np.flatnonzero(unbounded))
      raise RuntimeError(_INVALID_JOINTS_ERROR.format(invalid_str=names))
    bounds[hinge & ~limited] = 0.0, _TWO_PI
    return bounds.T

  def randomize_arm_joints(self, physics, random_state):
    """Sets every arm joint to a uniform sample from its sampling bounds."""
    lower, upper = self._get_joint_pos_sampling_bounds(physics)
    physics.bind(self.joints).qpos = random_state.uniform(lower, upper)

  def set_site_to_xpos(
    self, physics, random_state, site, target_pos, target_quat=None, max_ik_attempts=10
  ):
    """Moves the arm's joints so that `site` sits at `target_pos` with `target_quat`.

    Args:
      physics: an `mjcf.Physics`.
      random_state: an `np.random.RandomState`, for the restarts.
      site: an `mjcf.Element` or the site's full name.
      target_pos: Cartesian position of the site.
      target_quat: orientation of the site; None means `DOWN_QUATERNION`.
      max_ik_attempts: how many times to run the solver; the joints are randomized after each
        failed attempt (except when only one attempt is allowed).

    Returns:
      Whether a solution was found with every joint inside its sampling bounds (hinges are
      shifted by whole turns to get there).

    Raises:
      ValueError: `site` is neither a string nor an `mjcf.Element`.
    """
    if isinstance(site, mjcf.Element):
      site_name = site.full_identifier
    elif isinstance(site, str):
      site_name = site
    else:
      raise ValueError(f"site should either be a string or mjcf.Element: got {site}")
    if target_quat is None:
      target_quat = DOWN_QUATERNION
    lower, upper = self._get_joint_pos_sampling_bounds(physics)
    joint_names = [joint.full_identifier for joint in self.joints]

    success = False
    for _ in range(max_ik_attempts):
      result = inverse_kinematics.qpos_from_site_pose(
        physics=physics,
        site_name=site_name,
        target_pos=target_pos,
        target_quat=target_quat,
        joint_names=joint_names,
        rot_weight=2,
        inplace=True,
      )
      success = result.success
      if success:
        success = _wrap_into_bounds(physics, self.joints, lower, upper)
      if success or max_ik_attempts <= 1:
        break
      self.randomize_arm_joints(physics, random_state)
    return success

  @property
  @abc.abstractmethod
  def joints(self):
    """The arm's joint elements."""
    raise NotImplementedError

  @property
  @abc.abstractmethod
  def wrist_site(self):
    """The arm's wrist site element."""
    raise NotImplementedError


def _wrap_into_bounds(physics, joints, lower, upper):
  """Shifts each joint's angle by whole turns into [low, high]; False if one does not fit.

  Whole turns are added or subtracted one at a time, as dm_control does, so the angles are
  the same to the last bit; a joint that does not fit is left just above its range and the
  later joints are still shifted.

  Raises:
    ValueError: an angle is not finite or more than `_MAX_TURNS` turns out of range
      (dm_control's loop would run for ever or nearly so).
  """
  fits = True
  for joint, low, high in zip(joints, lower, upper):
    bound = physics.bind(joint)
    qpos = float(np.asarray(bound.qpos).reshape(-1)[0])
    if not abs(qpos - np.clip(qpos, low, high)) <= _MAX_TURNS * _TWO_PI:
      raise ValueError(
        f"joint {joint.full_identifier!r} has position {qpos}, more than "
        f"{_MAX_TURNS} turns from its range [{low}, {high}]"
      )
    while bound.qpos >= high:
      bound.qpos -= _TWO_PI
    while bound.qpos < low:
      bound.qpos += _TWO_PI
      if bound.qpos > high:
        fits = False
        break
  return fits


class JointsObservables(composer.Observables):
  """Observables of every robot arm: its joints' positions and velocities."""

  @define.observable
  def joints_pos(self):
    return observable.MJCFFeature("qpos", self._entity.joints)

  @define.observable
  def joints_vel(self):
    return observable.MJCFFeature("qvel", self._entity.joints)


class RobotHand(composer.Robot, metaclass=abc.ABCMeta):
  """Base class of robot hands: subclasses give a grip setter and a tool center point."""

  @abc.abstractmethod
  def set_grasp(self, physics, close_factors):
    """Sets the fingers' positions.

    Args:
      physics: an `mjcf.Physics`.
      close_factors: a number or one number per finger, 0 fully open to 1 fully closed; a
        single number applies to all fingers.
    """

  @property
  @abc.abstractmethod
  def tool_center_point(self):
    """The hand's tool center point element."""
