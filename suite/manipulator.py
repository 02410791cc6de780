"""Planar manipulator: a four-link arm with a two-finger gripper brings a prop to a target.

Tasks: bring the ball (benchmarking) or the peg to a ghost target anywhere in the workspace,
or insert the ball into a cup / the peg into a slot placed at the target. All are hard.
"""

import math

import numpy as np

import mjcf
from engine._jit import inline_jit
from suite import common
from suite import control
from suite import declare
from suite.utils import containers
from suite.utils import rewards

_CLOSE = 0.01  # metres: a site this close to its target counts as there
_CONTROL_TIMESTEP = 0.01  # seconds: 10 physics steps of 1 ms
_TIME_LIMIT = 10  # seconds
_P_IN_HAND = 0.1  # probability that an episode starts with the prop in the hand
_P_IN_TARGET = 0.1  # probability that an episode starts with the prop at the target
ARM_JOINTS = (
  "arm_root",
  "arm_shoulder",
  "arm_elbow",
  "arm_wrist",
  "finger",
  "fingertip",
  "thumb",
  "thumbtip",
)
_ALL_PROPS = ("ball", "target_ball", "cup", "peg", "target_peg", "slot")
_PROP_AXES = "xzy"  # a prop's joints {prop}_x, {prop}_z and {prop}_y (its angle about y)
POSE_SIZE = 4  # a body's pose in the plane: x, z and the quaternion's qw, qy

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
def bring_ball(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
  """Bring the ball to the target."""
  return _environment(False, False, fully_observable, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def bring_peg(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
  """Bring the peg to the target peg's pose."""
  return _environment(True, False, fully_observable, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def insert_ball(
  fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None
):
  """Put the ball into the cup (the target sits in the cup)."""
  return _environment(False, True, fully_observable, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def insert_peg(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
  """Insert the peg into the slot (the target peg sits in the slot)."""
  return _environment(True, True, fully_observable, time_limit, random, environment_kwargs)


def _environment(use_peg, insert, fully_observable, time_limit, random, environment_kwargs):
  physics = Physics.from_xml_string(*make_model(use_peg, insert))
  task = Bring(use_peg=use_peg, insert=insert, fully_observable=fully_observable, random=random)
  return control.Environment(
    physics,
    task,
    control_timestep=_CONTROL_TIMESTEP,
    time_limit=time_limit,
    **(environment_kwargs or {}),
  )


# the arm's joints and hand: the start of every planar-arm task's parameters (stacker's too)
ARM_PARAMS = declare.Params(
  arm_qpos=declare.qposes(*ARM_JOINTS), arm_dof=declare.dofs(*ARM_JOINTS), hand=declare.body("hand")
)


def _prop_joints(prop):
  return [f"{prop}_{axis}" for axis in _PROP_AXES]


def _params(prop, target, **reward_sites):
  """Bringing `prop` to `target`: the arm's parameters, the prop and target bodies, the prop's
  joints (x, z, angle) and the site pairs the reward wants close."""
  return declare.Params(
    **ARM_PARAMS.fields,
    prop=declare.body(prop),
    target=declare.body(target),
    prop_dofs=declare.dofs(*_prop_joints(prop)),
    **reward_sites,
  )


BALL_PARAMS = _params("ball", "target_ball", at_target=declare.sites("ball", "target_ball"))
PEG_PARAMS = _params(
  "peg",
  "target_peg",
  at_target=declare.sites("peg", "target_peg"),
  tip_at_target=declare.sites("target_peg_tip", "peg_tip"),
  grasped=declare.sites("peg_grasp", "grasp"),
  pinched=declare.sites("peg_pinch", "pinch"),
)


@declare.feature((len(ARM_JOINTS), 2))
def arm_pos(m, d, p, out):
  """(sin, cos) of each arm joint's angle, one row per joint."""
  for i in range(len(p.arm_qpos)):
    angle = d.qpos[p.arm_qpos[i]]
    out[2 * i] = math.sin(angle)
    out[2 * i + 1] = math.cos(angle)


@declare.feature((len(ARM_JOINTS),))
def arm_vel(m, d, p, out):
  """The arm joints' velocities."""
  for i in range(len(p.arm_dof)):
    out[i] = d.qvel[p.arm_dof[i]]


@declare.feature(lambda m: (m.nsensordata,))
def touch(m, d, p, out):
  """log(1 + reading) of every touch sensor, in sensor order."""
  for i in range(m.nsensordata):
    out[i] = math.log1p(d.sensordata[i])


@inline_jit
def body_2d_pose(d, body):
  """The pose (x, z, qw, qy) of body `body`: its position in the plane and its rotation about
  y (POSE_SIZE values)."""
  return d.xpos[body, 0], d.xpos[body, 2], d.xquat[body, 0], d.xquat[body, 2]


@declare.feature((POSE_SIZE,))
def hand_pos(m, d, p):
  """The hand's pose (x, z, qw, qy)."""
  return body_2d_pose(d, p.hand)


@declare.feature((POSE_SIZE,))
def object_pos(m, d, p):
  """The prop's pose (x, z, qw, qy)."""
  return body_2d_pose(d, p.prop)


@declare.feature((len(_PROP_AXES),))
def object_vel(m, d, p):
  """The prop's velocities along x and z and about y."""
  x, z, angle = p.prop_dofs
  return d.qvel[x], d.qvel[z], d.qvel[angle]


@declare.feature((POSE_SIZE,))
def target_pos(m, d, p):
  """The target's pose (x, z, qw, qy)."""
  return body_2d_pose(d, p.target)


# what every planar-arm task observes (a partially observable one only this)
ARM_OBSERVED = (arm_pos, arm_vel, touch)


def _observations(params):
  """The observations of bringing a prop, by full observability: the arm's, then the hand,
  prop and target poses and the prop's velocities."""
  arm = declare.Observation(params, *ARM_OBSERVED)
  return {
    False: arm,
    True: declare.Observation(params, *arm.items, hand_pos, object_pos, object_vel, target_pos),
  }


_OBSERVATIONS = {False: _observations(BALL_PARAMS), True: _observations(PEG_PARAMS)}  # by use_peg


@inline_jit
def site_distance(d, site1, site2):
  """Euclidean distance between two sites."""
  dx = d.site_xpos[site1, 0] - d.site_xpos[site2, 0]
  dy = d.site_xpos[site1, 1] - d.site_xpos[site2, 1]
  dz = d.site_xpos[site1, 2] - d.site_xpos[site2, 2]
  return math.sqrt(dx * dx + dy * dy + dz * dz)


@inline_jit
def _close(d, sites):
  """1 when the pair of sites `sites` is within _CLOSE, gaussian beyond (0.1 at 2 _CLOSE
  further)."""
  site1, site2 = sites
  return rewards.tolerance(site_distance(d, site1, site2), bounds=(0, _CLOSE), margin=2 * _CLOSE)


@declare.reward(BALL_PARAMS)
def ball_reward(m, d, p):
  """The ball's closeness to the target."""
  return _close(d, p.at_target)


@declare.reward(PEG_PARAMS)
def peg_reward(m, d, p):
  """The larger of bringing (the peg and its tip at the target's) and a third of grasping
  (the peg's grasp and pinch points at the gripper's)."""
  grasping = (_close(d, p.grasped) + _close(d, p.pinched)) / 2
  bringing = (_close(d, p.at_target) + _close(d, p.tip_at_target)) / 2
  return max(bringing, grasping / 3)


class Physics(declare.Physics):
  """The planar arm's quantities (shared with the stacker domain).

  Positions are in the x-z plane; orientations are rotations about y, given by the body
  quaternion's (qw, qy).
  """

  params = ARM_PARAMS
  features = (touch,)

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

  def site_distance(self, site1, site2):
    """Euclidean distance between two sites."""
    diff = self.named.data.site_xpos[site1] - self.named.data.site_xpos[site2]
    return np.linalg.norm(diff)


def randomize_arm(physics, random):
  """Draws the arm's joint angles: uniform in each range (+-pi for the unlimited root), in one
  draw over ARM_JOINTS; the finger then copies the thumb, so the gripper is symmetric."""
  model = physics.named.model
  qpos = physics.named.data.qpos
  joints = list(ARM_JOINTS)
  limited = model.jnt_limited[joints].astype(bool)
  ranges = model.jnt_range[joints]
  lower = np.where(limited, ranges[:, 0], -np.pi)
  upper = np.where(limited, ranges[:, 1], np.pi)
  qpos[joints] = random.uniform(lower, upper)
  qpos["finger"] = qpos["thumb"]


class Bring(declare.Task):
  """Rewards the prop (ball or peg) being at the target, optionally inside a receptacle."""

  model_fields = ("body_pos", "body_quat")  # the target (and receptacle) placed per episode

  def __init__(self, use_peg, insert, fully_observable, random=None):
    """`use_peg`: the prop is the peg, else the ball; `insert`: the target sits in the slot
    (peg) or cup (ball), placed with it each episode; `fully_observable`: observe the hand,
    prop and target poses too."""
    self._insert = insert
    self.observation = _OBSERVATIONS[bool(use_peg)][bool(fully_observable)]
    self.reward = peg_reward if use_peg else ball_reward
    self._object = "peg" if use_peg else "ball"
    self._target = "target_peg" if use_peg else "target_ball"
    self._receptacle = "slot" if use_peg else "cup"
    self._object_joints = _prop_joints(self._object)
    super().__init__(random=random)

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

      target_x = random.uniform(-0.4, 0.4)
      target_z = random.uniform(0.1, 0.4)
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
        object_x = random.uniform(-0.5, 0.5)
        object_z = random.uniform(0, 0.7)
        object_angle = random.uniform(0, 2 * np.pi)
        data.qvel[self._object + "_x"] = random.uniform(-5, 5)
      data.qpos[self._object_joints] = object_x, object_z, object_angle

      physics.after_reset()
      if physics.data.ncon == 0:
        break
    super().initialize_episode(physics)


def _place(model, body, x, z, angle):
  """Moves `body` to (x, z) in the plane, rotated by `angle` about y (a model edit)."""
  model.body_pos[body, ["x", "z"]] = x, z
  model.body_quat[body, ["qw", "qy"]] = np.cos(angle / 2), np.sin(angle / 2)
