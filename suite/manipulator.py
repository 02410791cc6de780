"""Planar manipulator: a four-link arm with a two-finger gripper brings a prop to a target.

Tasks: bring the ball (benchmarking) or the peg to a ghost target anywhere in the workspace,
or insert the ball into a cup / the peg into a slot placed at the target. All are hard.
"""

import collections

import numpy as np

import mjcf
from suite import base
from suite import common
from suite import control
from suite.utils import containers
from suite.utils import rewards

_CLOSE = .01  # metres: a site this close to its target counts as there
_CONTROL_TIMESTEP = .01  # seconds: 10 physics steps of 1 ms
_TIME_LIMIT = 10  # seconds
_P_IN_HAND = .1  # probability that an episode starts with the prop in the hand
_P_IN_TARGET = .1  # probability that an episode starts with the prop at the target
_ARM_JOINTS = ("arm_root", "arm_shoulder", "arm_elbow", "arm_wrist", "finger", "fingertip",
               "thumb", "thumbtip")
_ALL_PROPS = ("ball", "target_ball", "cup", "peg", "target_peg", "slot")

SUITE = containers.TaggedTasks()


def make_model(use_peg, insert):
  """The model's XML text keeping only the task's props, and the include files it needs.

  Ball tasks keep `ball` and `target_ball` (and `cup` when inserting), peg tasks keep `peg` and
  `target_peg` (and `slot` when inserting); the other prop bodies are removed.
  """
  if use_peg:
    props = ("peg", "target_peg") + (("slot",) if insert else ())
  else:
    props = ("ball", "target_ball") + (("cup",) if insert else ())
  model = mjcf.from_xml_string(common.read_model("manipulator.xml"), assets=common.ASSETS)
  for name in _ALL_PROPS:
    if name not in props:
      model.find("body", name).remove()
  return model.to_xml_string(), common.ASSETS


@SUITE.add("benchmarking", "hard")
def bring_ball(fully_observable=True, time_limit=_TIME_LIMIT, random=None,
               environment_kwargs=None):
  """Bring the ball to the target."""
  return _environment(False, False, fully_observable, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def bring_peg(fully_observable=True, time_limit=_TIME_LIMIT, random=None,
              environment_kwargs=None):
  """Bring the peg to the target peg's pose."""
  return _environment(True, False, fully_observable, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def insert_ball(fully_observable=True, time_limit=_TIME_LIMIT, random=None,
                environment_kwargs=None):
  """Put the ball into the cup (the target sits in the cup)."""
  return _environment(False, True, fully_observable, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def insert_peg(fully_observable=True, time_limit=_TIME_LIMIT, random=None,
               environment_kwargs=None):
  """Insert the peg into the slot (the target peg sits in the slot)."""
  return _environment(True, True, fully_observable, time_limit, random, environment_kwargs)


def _environment(use_peg, insert, fully_observable, time_limit, random, environment_kwargs):
  physics = Physics.from_xml_string(*make_model(use_peg, insert))
  task = Bring(use_peg=use_peg, insert=insert, fully_observable=fully_observable, random=random)
  return control.Environment(physics, task, control_timestep=_CONTROL_TIMESTEP,
                             time_limit=time_limit, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The planar arm's quantities (shared with the stacker domain).

  Positions are in the x-z plane; orientations are rotations about y, given by the body
  quaternion's (qw, qy).
  """

  def bounded_joint_pos(self, joint_names):
    """(sin, cos) of each named joint's angle, one row per joint."""
    angles = self.named.data.qpos[list(joint_names)]
    return np.vstack([np.sin(angles), np.cos(angles)]).T

  def joint_vel(self, joint_names):
    """The named joints' velocities."""
    return self.named.data.qvel[list(joint_names)]

  def body_2d_pose(self, body_names, orientation=True):
    """(x, z, qw, qy) of a body, or one such row per body of a list; (x, z) without
    `orientation`."""
    if not isinstance(body_names, str):
      body_names = np.array(body_names).reshape(-1, 1)
    pos = self.named.data.xpos[body_names, ["x", "z"]]
    if not orientation:
      return pos
    return np.hstack([pos, self.named.data.xquat[body_names, ["qw", "qy"]]])

  def touch(self):
    """log(1 + reading) of every touch sensor, in sensor order."""
    return np.log1p(self.data.sensordata)

  def site_distance(self, site1, site2):
    """Euclidean distance between two sites."""
    diff = self.named.data.site_xpos[site1] - self.named.data.site_xpos[site2]
    return np.linalg.norm(diff)


class ArmIndices:
  """Model addresses the arm tasks read every step (names resolved once per model).

  Attributes:
    model: the model the addresses belong to.
    arm_qpos, arm_dof: qpos and qvel addresses of _ARM_JOINTS, in that order.
    hand: the hand's body id.
  """

  def __init__(self, physics):
    model = physics.model
    self.model = model.ptr
    joints = [model.name2id(name, "joint") for name in _ARM_JOINTS]
    self.arm_qpos = model.jnt_qposadr[joints]
    self.arm_dof = model.jnt_dofadr[joints]
    self.hand = model.name2id("hand", "body")

  def arm_observation(self, physics, obs):
    """Adds arm_pos (sin, cos of each arm joint), arm_vel and touch to `obs`."""
    angles = physics.data.qpos[self.arm_qpos]
    obs["arm_pos"] = np.vstack([np.sin(angles), np.cos(angles)]).T
    obs["arm_vel"] = physics.data.qvel[self.arm_dof]
    obs["touch"] = np.log1p(physics.data.sensordata)


def body_2d_poses(physics, bodies):
  """Rows (x, z, qw, qy) of the bodies with ids `bodies`."""
  data = physics.data
  return np.hstack([data.xpos[bodies][:, ::2], data.xquat[bodies][:, ::2]])


def randomize_arm(physics, random):
  """Draws the arm's joint angles: uniform in each range (+-pi for the unlimited root), in one
  draw over _ARM_JOINTS; the finger then copies the thumb, so the gripper is symmetric."""
  model = physics.named.model
  qpos = physics.named.data.qpos
  joints = list(_ARM_JOINTS)
  limited = model.jnt_limited[joints].astype(bool)
  ranges = model.jnt_range[joints]
  lower = np.where(limited, ranges[:, 0], -np.pi)
  upper = np.where(limited, ranges[:, 1], np.pi)
  qpos[joints] = random.uniform(lower, upper)
  qpos["finger"] = qpos["thumb"]


class Bring(base.Task):
  """Rewards the prop (ball or peg) being at the target, optionally inside a receptacle."""

  def __init__(self, use_peg, insert, fully_observable, random=None):
    """`use_peg`: the prop is the peg, else the ball; `insert`: the target sits in the slot
    (peg) or cup (ball), placed with it each episode; `fully_observable`: observe the hand,
    prop and target poses too."""
    self._use_peg = use_peg
    self._insert = insert
    self._fully_observable = fully_observable
    self._object = "peg" if use_peg else "ball"
    self._target = "target_peg" if use_peg else "target_ball"
    self._receptacle = "slot" if use_peg else "cup"
    self._object_joints = [f"{self._object}_{axis}" for axis in "xzy"]
    self._indices = None
    super().__init__(random=random)

  def _get_indices(self, physics):
    """The task's model addresses for `physics`' model (computed once per model)."""
    indices = self._indices
    if indices is None or indices.model is not physics.model.ptr:
      model = physics.model
      indices = ArmIndices(physics)
      indices.bodies = np.array([model.name2id(name, "body") for name in
                                 ("hand", self._object, self._target)])
      joints = [model.name2id(name, "joint") for name in self._object_joints]
      indices.object_dof = model.jnt_dofadr[joints]
      sites = ("peg_grasp", "grasp", "peg_pinch", "pinch", "peg", "target_peg",
               "target_peg_tip", "peg_tip") if self._use_peg else ("ball", "target_ball")
      indices.sites = np.array([model.name2id(name, "site") for name in sites])
      self._indices = indices
    return indices

  def initialize_episode(self, physics):
    """Draws arm, target and prop until the configuration has no contact.

    Each try: arm angles; target x ~ U(-.4, .4), z ~ U(.1, .4); its tilt ~ U(-pi/3, pi/3) when
    inserting (the receptacle is placed there too), else U(-pi, pi); then where the prop starts:
    in the hand (p .1), at the target (p .1) or uniform (x ~ U(-.5, .5), z ~ U(0, .7), angle ~
    U(0, 2 pi), x velocity ~ U(-5, 5)).
    """
    random = self.random
    model = physics.named.model
    data = physics.named.data
    p_uniform = 1 - _P_IN_HAND - _P_IN_TARGET
    while True:
      randomize_arm(physics, random)

      target_x = random.uniform(-.4, .4)
      target_z = random.uniform(.1, .4)
      if self._insert:
        target_angle = random.uniform(-np.pi / 3, np.pi / 3)
        _place(model, self._receptacle, target_x, target_z, target_angle)
      else:
        target_angle = random.uniform(-np.pi, np.pi)
      _place(model, self._target, target_x, target_z, target_angle)

      start = random.choice(3, p=[_P_IN_HAND, _P_IN_TARGET, p_uniform])
      if start == 0:  # in the hand: at the grasp site, aligned with the gripper
        physics.after_reset()
        object_x, object_z = data.site_xpos["grasp", ["x", "z"]]
        xx, zx = data.site_xmat["grasp", ["xx", "zx"]]
        object_angle = np.pi - np.arctan2(zx, xx)
      elif start == 1:  # at the target, in its pose
        object_x, object_z, object_angle = target_x, target_z, target_angle
      else:
        object_x = random.uniform(-.5, .5)
        object_z = random.uniform(0, .7)
        object_angle = random.uniform(0, 2 * np.pi)
        data.qvel[self._object + "_x"] = random.uniform(-5, 5)
      data.qpos[self._object_joints] = object_x, object_z, object_angle

      physics.after_reset()
      if physics.data.ncon == 0:
        break
    super().initialize_episode(physics)

  def get_observation(self, physics):
    """Arm angles (sin, cos), velocities and touch; with full observability also the hand,
    prop and target poses (x, z, qw, qy) and the prop's velocities (x, z, angle)."""
    indices = self._get_indices(physics)
    obs = collections.OrderedDict()
    indices.arm_observation(physics, obs)
    if self._fully_observable:
      hand, obj, target = body_2d_poses(physics, indices.bodies)
      obs["hand_pos"] = hand
      obs["object_pos"] = obj
      obs["object_vel"] = physics.data.qvel[indices.object_dof]
      obs["target_pos"] = target
    return obs

  def get_reward(self, physics):
    """Ball: closeness of ball and target. Peg: the larger of bringing (peg and its tip at the
    target's) and a third of grasping (the peg's grasp and pinch points at the gripper's)."""
    xpos = physics.data.site_xpos[self._get_indices(physics).sites]
    if not self._use_peg:
      return _is_close(np.linalg.norm(xpos[0] - xpos[1]))
    grasp, pinch, bring, bring_tip = _is_close(np.linalg.norm(xpos[0::2] - xpos[1::2], axis=1))
    grasping = (grasp + pinch) / 2
    bringing = (bring + bring_tip) / 2
    return max(bringing, grasping / 3)


def _is_close(distance):
  return rewards.tolerance(distance, (0, _CLOSE), _CLOSE * 2)


def _place(model, body, x, z, angle):
  """Moves `body` to (x, z) in the plane, rotated by `angle` about y (a model edit)."""
  model.body_pos[body, ["x", "z"]] = x, z
  model.body_quat[body, ["qw", "qy"]] = np.cos(angle / 2), np.sin(angle / 2)
