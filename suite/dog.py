"""Dog: a 38-actuator quadruped with a flexible spine and tail.

Tasks (all extra, without reward visualisation): stand; walk, trot and run at 1, 3 and 9 m/s;
fetch a thrown ball and bring it to the target at the centre of a walled arena (hard).
"""

import math

import numpy as np

import engine
import mjcf
from engine._jit import jit
from engine.enums import mjJNT_HINGE
from engine.enums import mjOBJ_JOINT
from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers

_DEFAULT_TIME_LIMIT = 15
_CONTROL_TIMESTEP = 0.015

# floor half-sizes per task (stand and walk: 15 m; faster tasks get more room)
_STAND_FLOOR = _WALK_FLOOR = 15
_TROT_FLOOR = 45
_RUN_FLOOR = 135
_FETCH_FLOOR = 10

_WALK_SPEED = 1
_TROT_SPEED = 3
_RUN_SPEED = 9

_STAND_HEIGHT_FRACTION = 0.9  # of the torso and pelvis heights in the default pose
_MIN_UPRIGHT_COSINE = float(np.cos(np.deg2rad(30)))

# the fetch props, removed from the model for the other tasks
_BALL_GEOMS = ("target", "wall_px", "wall_py", "wall_nx", "wall_ny")
_BALL_CAMERAS = ("ball", "head")

# the layout of the kernel parameters: the model's ids (Physics._kernel_ids)...
_TORSO, _PELVIS, _SKULL, _FLOOR = range(4)  # bodies, and the floor geom
_INERTIAL = 4  # sensors: accelerometer, velocimeter, gyro
_VELOCIMETER = _INERTIAL + 1
_TORSO_LINVEL = 7  # sensor
_TOUCH = 8  # sensors: palm_L, palm_R, sole_L, sole_R
_FORCES = 12  # sensors: foot_L, foot_R, hand_L, hand_R
_BALL_QPOS, _BALL_DOF, _HEAD, _UPPER_BITE, _LOWER_BITE, _TARGET = range(16, 22)  # fetch, or -1
# ...then the task's
_STAND_HEIGHT = 22  # torso and pelvis
_BODY_WEIGHT = 24
_MOVE_SPEED = 25  # Move

SUITE = containers.TaggedTasks()


def get_model_and_assets(floor_size=10, remove_ball=True):
  """The model's XML text, with a `floor_size` floor (half-size in x and y), without the ball,
  target, walls and their cameras if `remove_ball`, and the files it needs: the include files
  and the model's own assets under the names the XML text gives them (meshes, skins)."""
  model = make_model(floor_size, remove_ball)
  return model.to_xml_string(), {**common.ASSETS, **model.get_assets()}


def make_model(floor_size, remove_ball):
  """The dog's mjcf model: the tabulated (fetch) model with the floor resized and, if
  `remove_ball`, the fetch props removed."""
  model = mjcf.from_xml_string(common.read_model("dog.xml"), assets=common.ASSETS)
  model.find("geom", "floor").size = [floor_size, floor_size, 0.1]
  if remove_ball:
    model.find("body", "ball").remove()
    for name in _BALL_GEOMS:
      model.find("geom", name).remove()
    for name in _BALL_CAMERAS:
      model.find("camera", name).remove()
  return model


@SUITE.add("no_reward_visualization")
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stand up and stay upright."""
  return _environment(_STAND_FLOOR, True, Stand(random=random), time_limit, environment_kwargs)


@SUITE.add("no_reward_visualization")
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Walk forward at 1 m/s."""
  return _environment(_WALK_FLOOR, True, Move(_WALK_SPEED, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("no_reward_visualization")
def trot(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Trot forward at 3 m/s."""
  return _environment(_TROT_FLOOR, True, Move(_TROT_SPEED, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("no_reward_visualization")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run forward at 9 m/s."""
  return _environment(_RUN_FLOOR, True, Move(_RUN_SPEED, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("no_reward_visualization", "hard")
def fetch(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Catch the thrown ball and bring it to the target."""
  return _environment(_FETCH_FLOOR, False, Fetch(random=random), time_limit, environment_kwargs)


def _environment(floor_size, remove_ball, task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets(floor_size, remove_ball))
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The dog's quantities. Element indices are looked up once per model (the observations and
  rewards read them every step)."""

  def _reload_from_data(self, data):
    """As engine.Physics's, then the index tables of the quantities below."""
    super()._reload_from_data(data)
    model = self.model

    def ids(kind, *names):
      return np.array([model.name2id(name, kind) for name in names])

    def sensor(*names):
      ids_ = ids("sensor", *names)
      return np.concatenate([np.arange(adr, adr + dim) for adr, dim in
                             zip(model.sensor_adr[ids_], model.sensor_dim[ids_])])

    hinges = np.flatnonzero(model.jnt_type == mjJNT_HINGE)
    self._hinge_qpos = model.jnt_qposadr[hinges]
    self._hinge_dof = model.jnt_dofadr[hinges]
    self._torso = model.name2id("torso", "body")
    self._height_bodies = ids("body", "torso", "pelvis")
    self._upright_bodies = ids("body", "skull", "torso", "pelvis")
    self._inertial = sensor("accelerometer", "velocimeter", "gyro")
    self._velocimeter = sensor("velocimeter")
    self._torso_linvel = sensor("torso_linvel")
    self._touch = sensor("palm_L", "palm_R", "sole_L", "sole_R")
    self._forces = sensor("foot_L", "foot_R", "hand_L", "hand_R")
    self._floor = model.name2id("floor", "geom")
    fetch = [-1] * 6
    ball = engine.mj_name2id(model.ptr, mjOBJ_JOINT, "ball_root")
    if ball >= 0:  # the fetch props
      self._ball_qpos = model.jnt_qposadr[ball] + np.arange(3)
      self._ball_dof = model.jnt_dofadr[ball] + np.arange(3)
      self._head = model.name2id("head", "site")
      self._bite = ids("site", "upper_bite", "lower_bite")
      self._target = model.name2id("target", "geom")
      fetch = [self._ball_qpos[0], self._ball_dof[0], self._head, *self._bite, self._target]
    # the model's part of the kernel parameters (see their layout at the top)
    self._kernel_ids = np.concatenate((
      ids("body", "torso", "pelvis", "skull"), [self._floor],
      ids("sensor", "accelerometer", "velocimeter", "gyro", "torso_linvel", "palm_L", "palm_R",
          "sole_L", "sole_R", "foot_L", "foot_R", "hand_L", "hand_R"), fetch)).astype(float)

  def torso_pelvis_height(self):
    """World heights of the torso and the pelvis."""
    return self.data.xpos[self._height_bodies, 2]

  def z_projection(self):
    """The world z axis in the frames of the skull, torso and pelvis (rotation row z)."""
    return self.data.xmat[self._upright_bodies, 6:].ravel()

  def upright(self):
    """zz of the skull, torso and pelvis: cosines of their tilt from upright."""
    return self.data.xmat[self._upright_bodies, 8]

  def torso_com_velocity(self):
    """The torso subtree's (the dog's) linear velocity in the torso frame."""
    data = self.data
    return data.xmat[self._torso].reshape(3, 3).T @ data.sensordata[self._torso_linvel]

  def joint_angles(self):
    """Angles of the hinge joints."""
    return self.data.qpos[self._hinge_qpos]

  def joint_velocities(self):
    """Velocities of the hinge joints."""
    return self.data.qvel[self._hinge_dof]

  def inertial_sensors(self):
    """Accelerometer, velocimeter and gyro at the head."""
    return self.data.sensordata[self._inertial]

  def touch_sensors(self):
    """Palm and sole touch sensors: palm_L, palm_R, sole_L, sole_R."""
    return self.data.sensordata[self._touch]

  def foot_forces(self):
    """Force sensors at the foot and hand anchors: foot_L, foot_R, hand_L, hand_R."""
    return self.data.sensordata[self._forces]

  def body_weight(self):
    """The dog's weight (the torso's subtree is the whole dog)."""
    return -self.model.opt.gravity[2] * self.model.body_subtreemass[self._torso]

  def floor_size(self):
    """Half-size of the square floor."""
    return self.model.geom_size[self._floor, 0]

  def ball_position(self):
    return self.data.qpos[self._ball_qpos]

  def ball_to_target_distance(self):
    return np.linalg.norm(self.ball_position() - self.data.geom_xpos[self._target])

  def ball_to_mouth_distance(self):
    """Mean distance from the ball to the upper and lower bite sites."""
    bite = self.data.site_xpos[self._bite]
    return np.linalg.norm(self.ball_position() - bite, axis=1).mean()

  def target_radius(self):
    return self.model.geom_size[self._target, 0]

  def ball_in_head_frame(self):
    """The ball's position relative to the head site and its velocity relative to the head's
    (the velocimeter), both in the head site's frame."""
    data = self.data
    head = data.site_xmat[self._head].reshape(3, 3)
    position = (self.ball_position() - data.site_xpos[self._head]) @ head
    velocity = data.qvel[self._ball_dof] @ head - data.sensordata[self._velocimeter]
    return np.hstack((position, velocity))

  def target_in_head_frame(self):
    """The target's position relative to the head site, in the head site's frame."""
    data = self.data
    head = data.site_xmat[self._head].reshape(3, 3)
    return (data.geom_xpos[self._target] - data.site_xpos[self._head]) @ head


@jit
def _copy_sensor(m, d, sensor, out, k):
  """The readings of sensor `sensor` into out from k. Returns the index after them."""
  adr = m.sensor_adr[sensor]
  for j in range(m.sensor_dim[sensor]):
    out[k + j] = d.sensordata[adr + j]
  return k + m.sensor_dim[sensor]


@jit
def _in_frame(xmat, x, y, z, out, k):
  """The vector (x, y, z) in the frame of the rotation row `xmat` (x @ R) into out[k:k + 3]."""
  for j in range(3):
    out[k + j] = x * xmat[j] + y * xmat[3 + j] + z * xmat[6 + j]


@jit
def _observe_stand(m, d, params, out):
  """joint_angles and joint_velocites (of the hinges), torso_pelvis_height, z_projection
  (rotation row z of skull, torso and pelvis), torso_com_velocity (in the torso frame),
  inertial_sensors, foot_forces, touch_sensors, actuator_state. Returns the index in `out`
  after them."""
  k = kernels.write_hinge_state(m, d, out, 0)
  out[k] = d.xpos[int(params[_TORSO]), 2]
  out[k + 1] = d.xpos[int(params[_PELVIS]), 2]
  k += 2
  for body in (int(params[_SKULL]), int(params[_TORSO]), int(params[_PELVIS])):
    for j in range(3):
      out[k + j] = d.xmat[body, 6 + j]
    k += 3
  adr = m.sensor_adr[int(params[_TORSO_LINVEL])]
  _in_frame(d.xmat[int(params[_TORSO])], d.sensordata[adr], d.sensordata[adr + 1],
            d.sensordata[adr + 2], out, k)
  k += 3
  for i in range(3):
    k = _copy_sensor(m, d, int(params[_INERTIAL + i]), out, k)
  for i in range(4):
    k = _copy_sensor(m, d, int(params[_FORCES + i]), out, k)
  for i in range(4):
    k = _copy_sensor(m, d, int(params[_TOUCH + i]), out, k)
  for i in range(m.na):
    out[k + i] = d.act[i]
  return k + m.na


@jit
def _stand_reward(m, d, params):
  """Product of the height (torso and pelvis at their standing heights), upright (skull,
  torso and pelvis within 30 degrees) and weight-bearing (palms and soles) factors."""
  torso_lower, pelvis_lower = params[_STAND_HEIGHT], params[_STAND_HEIGHT + 1]
  value = (kernels.tolerance(d.xpos[int(params[_TORSO]), 2], torso_lower, np.inf, torso_lower,
                             kernels.GAUSSIAN, 0.1)
           * kernels.tolerance(d.xpos[int(params[_PELVIS]), 2], pelvis_lower, np.inf,
                               pelvis_lower, kernels.GAUSSIAN, 0.1))
  for body in (int(params[_SKULL]), int(params[_TORSO]), int(params[_PELVIS])):
    value *= kernels.tolerance(d.xmat[body, 8], _MIN_UPRIGHT_COSINE, np.inf,
                               1 + _MIN_UPRIGHT_COSINE, kernels.LINEAR, 0.0)
  touch = 0.0
  for i in range(4):
    sensor = int(params[_TOUCH + i])
    adr = m.sensor_adr[sensor]
    for j in range(m.sensor_dim[sensor]):
      touch += d.sensordata[adr + j]
  weight = params[_BODY_WEIGHT]
  return value * kernels.tolerance(touch, weight, np.inf, weight, kernels.LINEAR, 0.9)


@kernels.kernel
def observe_stand(m, d, params, out):
  """The observations of stand and the move tasks (_observe_stand)."""
  _observe_stand(m, d, params, out)


@kernels.kernel
def reward_stand(m, d, params, out):
  """Standing (_stand_reward)."""
  out[kernels.REWARD] = _stand_reward(m, d, params)
  out[kernels.DISCOUNT] = np.nan


@kernels.kernel
def reward_move(m, d, params, out):
  """Standing times (4 forward + 1) / 5, forward: the dog's speed along the torso's x axis,
  1 between the move speed and twice it, linear to 0 a margin max(1, speed) away."""
  adr = m.sensor_adr[int(params[_TORSO_LINVEL])]
  torso = int(params[_TORSO])
  speed = (d.sensordata[adr] * d.xmat[torso, 0] + d.sensordata[adr + 1] * d.xmat[torso, 3]
           + d.sensordata[adr + 2] * d.xmat[torso, 6])
  move_speed = params[_MOVE_SPEED]
  forward = kernels.tolerance(speed, move_speed, 2 * move_speed, max(1.0, move_speed),
                              kernels.LINEAR, 0.0)
  out[kernels.REWARD] = _stand_reward(m, d, params) * (4 * forward + 1) / 5
  out[kernels.DISCOUNT] = np.nan


@kernels.kernel
def observe_fetch(m, d, params, out):
  """Stand's observations, then ball_state (the ball's position relative to the head site and
  its velocity relative to the head's velocimeter) and target_position (relative to the head
  site), in the head site's frame."""
  k = _observe_stand(m, d, params, out)
  head = int(params[_HEAD])
  ball, ball_dof = int(params[_BALL_QPOS]), int(params[_BALL_DOF])
  frame = d.site_xmat[head]
  _in_frame(frame, d.qpos[ball] - d.site_xpos[head, 0], d.qpos[ball + 1] - d.site_xpos[head, 1],
            d.qpos[ball + 2] - d.site_xpos[head, 2], out, k)
  _in_frame(frame, d.qvel[ball_dof], d.qvel[ball_dof + 1], d.qvel[ball_dof + 2], out, k + 3)
  adr = m.sensor_adr[int(params[_VELOCIMETER])]
  for j in range(3):
    out[k + 3 + j] -= d.sensordata[adr + j]
  target = int(params[_TARGET])
  _in_frame(frame, d.geom_xpos[target, 0] - d.site_xpos[head, 0],
            d.geom_xpos[target, 1] - d.site_xpos[head, 1],
            d.geom_xpos[target, 2] - d.site_xpos[head, 2], out, k + 6)


@jit
def _ball_distance(d, ball, x, y, z):
  """Distance from the ball (its qpos address) to (x, y, z)."""
  dx, dy, dz = d.qpos[ball] - x, d.qpos[ball + 1] - y, d.qpos[ball + 2] - z
  return math.sqrt(dx * dx + dy * dy + dz * dz)


@kernels.kernel
def reward_fetch(m, d, params, out):
  """Standing times reach (1 once the ball is within twice the target's radius, else the ball
  in the mouth: reciprocal in its mean distance to the bite sites, as (6 reach + 1) / 7) times
  (fetch + 1) / 2, fetch reciprocal in the ball's distance to the target over the floor."""
  ball, target = int(params[_BALL_QPOS]), int(params[_TARGET])
  to_target = _ball_distance(d, ball, d.geom_xpos[target, 0], d.geom_xpos[target, 1],
                             d.geom_xpos[target, 2])
  if to_target < 2 * m.geom_size[target, 0]:
    reach = 1.0  # delivered: the ball need not stay in the mouth
  else:
    to_mouth = 0.0
    for site in (int(params[_UPPER_BITE]), int(params[_LOWER_BITE])):
      to_mouth += _ball_distance(d, ball, d.site_xpos[site, 0], d.site_xpos[site, 1],
                                 d.site_xpos[site, 2])
    reach = kernels.tolerance(to_mouth / 2, 0.0, 0.005, 2.0, kernels.RECIPROCAL, 0.1)
    reach = (6 * reach + 1) / 7
  fetch = kernels.tolerance(to_target, 0.0, 0.1, m.geom_size[int(params[_FLOOR]), 0],
                            kernels.RECIPROCAL, 0.1)
  out[kernels.REWARD] = _stand_reward(m, d, params) * reach * (fetch + 1) / 2
  out[kernels.DISCOUNT] = np.nan


class Stand(base.Task):
  """Rewards standing: torso and pelvis high, skull, torso and pelvis upright, weight on the
  palms and soles."""

  observe_kernel = observe_stand
  reward_kernel = reward_stand
  _move_speed = np.nan  # Move's

  def __init__(self, random=None):
    super().__init__(random=random)
    self._stand_height = None
    self._body_weight = None

  def initialize_episode(self, physics):
    """Default pose at a random yaw, random planar velocity and yaw rate, random activations.

    dm_control's dog does not call the base initializer (no reward colouring: the domain has
    no reward visualisation), so neither do we."""
    physics.reset()
    self._stand_height = _STAND_HEIGHT_FRACTION * physics.torso_pelvis_height()
    self._body_weight = physics.body_weight()
    yaw = self.random.uniform(0, 2 * np.pi)
    physics.named.data.qpos["root"][3:] = [np.cos(yaw / 2), 0, 0, np.sin(yaw / 2)]
    physics.data.qvel[[0, 1, 5]] = 2 * self.random.randn(3)  # root x, y velocity and yaw rate
    physics.data.act[:] = self.random.uniform(-1, 1, physics.model.na)

  def observation_layout(self, physics):
    model = physics.model
    nhinge = len(physics._hinge_qpos)
    return (("joint_angles", (nhinge,)), ("joint_velocites", (nhinge,)),  # dm_control's spelling
            ("torso_pelvis_height", (2,)), ("z_projection", (9,)), ("torso_com_velocity", (3,)),
            ("inertial_sensors", (len(physics._inertial),)),
            ("foot_forces", (len(physics._forces),)), ("touch_sensors", (len(physics._touch),)),
            ("actuator_state", (model.na,)))

  def kernel_params(self, physics):
    """The model's ids, then the standing heights and the body weight of this episode (NaN
    before the first) and the move speed (NaN but in Move)."""
    stand_height = np.full(2, np.nan) if self._stand_height is None else self._stand_height
    body_weight = np.nan if self._body_weight is None else self._body_weight
    return np.concatenate((physics._kernel_ids, stand_height, [body_weight, self._move_speed]))


class Move(Stand):
  """Rewards standing and moving forward (along the torso's x axis) at `move_speed`."""

  reward_kernel = reward_move

  def __init__(self, move_speed, random=None):
    super().__init__(random=random)
    self._move_speed = move_speed


class Fetch(Stand):
  """Rewards standing, holding the ball in the mouth and bringing it to the target."""

  observe_kernel = observe_fetch
  reward_kernel = reward_fetch

  def initialize_episode(self, physics):
    """The dog as in Stand; the ball thrown from a circle of radius 0.75 x floor size toward
    the centre."""
    super().initialize_episode(physics)
    floor_size = physics.floor_size()
    azimuth = self.random.uniform(0, 2 * np.pi)
    position = 0.75 * floor_size * np.array([np.sin(azimuth), np.cos(azimuth)])
    height = self.random.uniform(0, 3)  # of the throw's apex above the start
    speed = self.random.uniform(0, 5)  # horizontal
    direction = -position / np.linalg.norm(position) + 0.05 * self.random.randn(2)
    vertical = np.sqrt(2 * -physics.model.opt.gravity[2] * height)
    physics.named.data.qpos["ball_root"][:3] = [position[0], position[1], 0.05]
    physics.named.data.qvel["ball_root"][:3] = [*(speed * direction), vertical]

  def observation_layout(self, physics):
    return super().observation_layout(physics) + (("ball_state", (6,)),
                                                  ("target_position", (3,)))
