"""Dog: a 38-actuator quadruped with a flexible spine and tail.

Tasks (all extra, without reward visualisation): stand; walk, trot and run at 1, 3 and 9 m/s;
fetch a thrown ball and bring it to the target at the centre of a walled arena (hard).
"""

import collections

import numpy as np

import engine
import mjcf
from engine.enums import mjJNT_HINGE
from engine.enums import mjOBJ_JOINT
from suite import base
from suite import common
from suite import control
from suite.utils import containers
from suite.utils import rewards

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
_MIN_UPRIGHT_COSINE = np.cos(np.deg2rad(30))

# the fetch props, removed from the model for the other tasks
_BALL_GEOMS = ("target", "wall_px", "wall_py", "wall_nx", "wall_ny")
_BALL_CAMERAS = ("ball", "head")

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
    ball = engine.mj_name2id(model.ptr, mjOBJ_JOINT, "ball_root")
    if ball >= 0:  # the fetch props
      self._ball_qpos = model.jnt_qposadr[ball] + np.arange(3)
      self._ball_dof = model.jnt_dofadr[ball] + np.arange(3)
      self._head = model.name2id("head", "site")
      self._bite = ids("site", "upper_bite", "lower_bite")
      self._target = model.name2id("target", "geom")

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


class Stand(base.Task):
  """Rewards standing: torso and pelvis high, skull, torso and pelvis upright, weight on the
  palms and soles."""

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

  def get_observation(self, physics):
    obs = collections.OrderedDict()
    obs["joint_angles"] = physics.joint_angles()
    obs["joint_velocites"] = physics.joint_velocities()  # dm_control's spelling
    obs["torso_pelvis_height"] = physics.torso_pelvis_height()
    obs["z_projection"] = physics.z_projection()
    obs["torso_com_velocity"] = physics.torso_com_velocity()
    obs["inertial_sensors"] = physics.inertial_sensors()
    obs["foot_forces"] = physics.foot_forces()
    obs["touch_sensors"] = physics.touch_sensors()
    obs["actuator_state"] = physics.data.act.copy()
    return obs

  def stand_reward(self, physics):
    """Product of the height, upright and weight-bearing factors."""
    heights = physics.torso_pelvis_height()
    height = [rewards.tolerance(h, bounds=(lo, np.inf), margin=lo)
              for h, lo in zip(heights, self._stand_height)]
    upright = rewards.tolerance(physics.upright(), bounds=(_MIN_UPRIGHT_COSINE, np.inf),
                                margin=1 + _MIN_UPRIGHT_COSINE, sigmoid="linear",
                                value_at_margin=0)
    touch = rewards.tolerance(physics.touch_sensors().sum(), bounds=(self._body_weight, np.inf),
                              margin=self._body_weight, sigmoid="linear", value_at_margin=0.9)
    return np.prod(height) * np.prod(upright) * touch

  def get_reward(self, physics):
    return self.stand_reward(physics)


class Move(Stand):
  """Rewards standing and moving forward (along the torso's x axis) at `move_speed`."""

  def __init__(self, move_speed, random=None):
    super().__init__(random=random)
    self._move_speed = move_speed

  def get_reward(self, physics):
    speed = physics.torso_com_velocity()[0]
    forward = rewards.tolerance(speed, bounds=(self._move_speed, 2 * self._move_speed),
                                margin=max(1, self._move_speed), sigmoid="linear",
                                value_at_margin=0)
    return self.stand_reward(physics) * (4 * forward + 1) / 5


class Fetch(Stand):
  """Rewards standing, holding the ball in the mouth and bringing it to the target."""

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

  def get_observation(self, physics):
    obs = super().get_observation(physics)
    obs["ball_state"] = physics.ball_in_head_frame()
    obs["target_position"] = physics.target_in_head_frame()
    return obs

  def get_reward(self, physics):
    to_target = physics.ball_to_target_distance()
    if to_target < 2 * physics.target_radius():
      reach = 1.0  # delivered: the ball need not stay in the mouth
    else:
      reach = rewards.tolerance(physics.ball_to_mouth_distance(), bounds=(0, 0.005), margin=2,
                                sigmoid="reciprocal")
      reach = (6 * reach + 1) / 7
    fetch = rewards.tolerance(to_target, bounds=(0, 0.1), margin=physics.floor_size(),
                              sigmoid="reciprocal")
    return self.stand_reward(physics) * reach * (fetch + 1) / 2
