"""Planar manipulator: a four-link arm with a two-finger gripper brings a prop to a target.

Tasks: bring the ball (benchmarking) or the peg to a ghost target anywhere in the workspace,
or insert the ball into a cup / the peg into a slot placed at the target. All are hard.
"""

import math

import numpy as np

import mjcf
from engine._jit import jit
from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers

_CLOSE = .01  # metres: a site this close to its target counts as there
_CONTROL_TIMESTEP = .01  # seconds: 10 physics steps of 1 ms
_TIME_LIMIT = 10  # seconds
_P_IN_HAND = .1  # probability that an episode starts with the prop in the hand
_P_IN_TARGET = .1  # probability that an episode starts with the prop at the target
_ARM_JOINTS = ("arm_root", "arm_shoulder", "arm_elbow", "arm_wrist", "finger", "fingertip",
               "thumb", "thumbtip")
_ALL_PROPS = ("ball", "target_ball", "cup", "peg", "target_peg", "slot")
_NARM = len(_ARM_JOINTS)
# the reward's site pairs: the ball and its target, or the peg's grasp, pinch, centre and tip
_BALL_SITES = ("ball", "target_ball")
_PEG_SITES = ("peg_grasp", "grasp", "peg_pinch", "pinch", "peg", "target_peg", "target_peg_tip",
              "peg_tip")

# the layout of Bring's kernel parameters
_FULLY_OBSERVABLE, _USE_PEG = 0, 1
_ARM_QPOS = 2  # qpos addresses of _ARM_JOINTS
_ARM_DOF = _ARM_QPOS + _NARM  # their dof addresses
_BODIES = _ARM_DOF + _NARM  # hand, prop and target body ids
_PROP_DOF = _BODIES + 3  # dofs of the prop's x, z and angle joints
_SITES = _PROP_DOF + 3  # _BALL_SITES or _PEG_SITES ids

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


def arm_addresses(physics):
  """qpos and dof addresses of _ARM_JOINTS, in that order (the arm observation's)."""
  model = physics.model
  joints = [model.name2id(name, "joint") for name in _ARM_JOINTS]
  return model.jnt_qposadr[joints], model.jnt_dofadr[joints]


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


@jit
def _observe_arm(m, d, params, out):
  """arm_pos: (sin, cos) of each arm joint (rows of 2); arm_vel; touch: log(1 + reading) of
  every sensor. Returns the index in `out` after them."""
  for i in range(_NARM):
    angle = d.qpos[int(params[_ARM_QPOS + i])]
    out[2 * i] = math.sin(angle)
    out[2 * i + 1] = math.cos(angle)
  k = 2 * _NARM
  for i in range(_NARM):
    out[k + i] = d.qvel[int(params[_ARM_DOF + i])]
  k += _NARM
  for i in range(m.nsensordata):
    out[k + i] = math.log1p(d.sensordata[i])
  return k + m.nsensordata


@jit
def _body_2d_pose(d, body, out, k):
  """(x, z, qw, qy) of body `body` into out[k:k + 4]."""
  out[k] = d.xpos[body, 0]
  out[k + 1] = d.xpos[body, 2]
  out[k + 2] = d.xquat[body, 0]
  out[k + 3] = d.xquat[body, 2]


@jit
def _site_distance(d, site1, site2):
  dx = d.site_xpos[site1, 0] - d.site_xpos[site2, 0]
  dy = d.site_xpos[site1, 1] - d.site_xpos[site2, 1]
  dz = d.site_xpos[site1, 2] - d.site_xpos[site2, 2]
  return math.sqrt(dx * dx + dy * dy + dz * dz)


@jit
def _pair_is_close(d, params, pair):
  """1 when the sites of pair `pair` of _SITES are within _CLOSE, gaussian beyond (0.1 at
  2 _CLOSE further)."""
  distance = _site_distance(d, int(params[_SITES + 2 * pair]), int(params[_SITES + 2 * pair + 1]))
  return kernels.tolerance(distance, 0.0, _CLOSE, 2 * _CLOSE, kernels.GAUSSIAN, 0.1)


@kernels.kernel
def observe(m, d, params, out):
  """The arm (see _observe_arm); fully observable: then the hand, prop and target poses and
  the prop's velocities (x, z, angle)."""
  k = _observe_arm(m, d, params, out)
  if params[_FULLY_OBSERVABLE]:
    _body_2d_pose(d, int(params[_BODIES]), out, k)
    _body_2d_pose(d, int(params[_BODIES + 1]), out, k + 4)
    for i in range(3):
      out[k + 8 + i] = d.qvel[int(params[_PROP_DOF + i])]
    _body_2d_pose(d, int(params[_BODIES + 2]), out, k + 11)


@kernels.kernel
def reward(m, d, params, out):
  """Ball: closeness of ball and target. Peg: the larger of bringing (peg and its tip at the
  target's) and a third of grasping (the peg's grasp and pinch points at the gripper's)."""
  if not params[_USE_PEG]:
    value = _pair_is_close(d, params, 0)
  else:
    grasping = (_pair_is_close(d, params, 0) + _pair_is_close(d, params, 1)) / 2
    bringing = (_pair_is_close(d, params, 2) + _pair_is_close(d, params, 3)) / 2
    value = max(bringing, grasping / 3)
  out[kernels.REWARD] = value
  out[kernels.DISCOUNT] = np.nan


class Bring(base.Task):
  """Rewards the prop (ball or peg) being at the target, optionally inside a receptacle."""

  observe_kernel = observe
  reward_kernel = reward
  model_fields = ("body_pos", "body_quat")  # the target (and receptacle) placed per episode

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
    self._params = None  # (model, the kernel parameters for it)
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

  def observation_layout(self, physics):
    """Arm angles (sin, cos), velocities and touch; with full observability also the hand,
    prop and target poses (x, z, qw, qy) and the prop's velocities (x, z, angle)."""
    layout = (("arm_pos", (_NARM, 2)), ("arm_vel", (_NARM,)),
              ("touch", (physics.model.nsensordata,)))
    if self._fully_observable:
      layout += (("hand_pos", (4,)), ("object_pos", (4,)), ("object_vel", (3,)),
                 ("target_pos", (4,)))
    return layout

  def kernel_params(self, physics):
    """Flags and model addresses (see the layout above the kernels), computed once per
    model."""
    model = physics.model
    if self._params is None or self._params[0] is not model.ptr:
      arm_qpos, arm_dof = arm_addresses(physics)
      bodies = [model.name2id(name, "body") for name in ("hand", self._object, self._target)]
      joints = [model.name2id(name, "joint") for name in self._object_joints]
      sites = [model.name2id(name, "site")
               for name in (_PEG_SITES if self._use_peg else _BALL_SITES)]
      params = np.concatenate(([self._fully_observable, self._use_peg], arm_qpos, arm_dof,
                               bodies, model.jnt_dofadr[joints], sites)).astype(float)
      self._params = (model.ptr, params)
    return self._params[1]


def _place(model, body, x, z, angle):
  """Moves `body` to (x, z) in the plane, rotated by `angle` about y (a model edit)."""
  model.body_pos[body, ["x", "z"]] = x, z
  model.body_quat[body, ["qw", "qy"]] = np.cos(angle / 2), np.sin(angle / 2)
