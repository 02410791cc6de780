"""Dog: a 38-actuator quadruped with a flexible spine and tail.

Tasks (all extra, without reward visualisation): stand; walk, trot and run at 1, 3 and 9 m/s;
fetch a thrown ball and bring it to the target at the centre of a walled arena (hard).
"""

import math

import numpy as np

import mjcf
from engine._jit import inline_jit
from suite import common
from suite import control
from suite import declare
from suite import features
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
_MIN_UPRIGHT_COSINE = float(np.cos(np.deg2rad(30)))

# the fetch props, removed from the model for the other tasks
_BALL_GEOMS = ("target", "wall_px", "wall_py", "wall_nx", "wall_ny")
_BALL_CAMERAS = ("ball", "head")

# the bodies whose tilt the task observes and rewards
_UPRIGHT_BODIES = ("skull", "torso", "pelvis")
# the sensors observed: vector sensors (3 readings each), and the touch sensors of the paws
_INERTIAL = ("accelerometer", "velocimeter", "gyro")
_FORCES = ("foot_L", "foot_R", "hand_L", "hand_R")
_TOUCH = ("palm_L", "palm_R", "sole_L", "sole_R")

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
  return _environment(
    _WALK_FLOOR, True, Move(_WALK_SPEED, random=random), time_limit, environment_kwargs
  )


@SUITE.add("no_reward_visualization")
def trot(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Trot forward at 3 m/s."""
  return _environment(
    _TROT_FLOOR, True, Move(_TROT_SPEED, random=random), time_limit, environment_kwargs
  )


@SUITE.add("no_reward_visualization")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run forward at 9 m/s."""
  return _environment(
    _RUN_FLOOR, True, Move(_RUN_SPEED, random=random), time_limit, environment_kwargs
  )


@SUITE.add("no_reward_visualization", "hard")
def fetch(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Catch the thrown ball and bring it to the target."""
  return _environment(_FETCH_FLOOR, False, Fetch(random=random), time_limit, environment_kwargs)


def _environment(floor_size, remove_ball, task, time_limit, environment_kwargs):
  physics_type = Physics if remove_ball else FetchPhysics
  physics = physics_type.from_xml_string(*get_model_and_assets(floor_size, remove_ball))
  return control.Environment(
    physics,
    task,
    time_limit=time_limit,
    control_timestep=_CONTROL_TIMESTEP,
    **(environment_kwargs or {}),
  )


PARAMS = declare.Params(
  torso=declare.body("torso"),
  pelvis=declare.body("pelvis"),
  upright_bodies=declare.bodies(*_UPRIGHT_BODIES),
  floor=declare.geom("floor"),
  com_velocity=declare.sensor("torso_linvel"),
  inertial=declare.sensors(*_INERTIAL),
  forces=declare.sensors(*_FORCES),
  touch=declare.sensors(*_TOUCH),
  # the task's: the standing heights and the body weight of the episode, Move's speed
  torso_stand_height=declare.number(),
  pelvis_stand_height=declare.number(),
  body_weight=declare.number(),
  move_speed=declare.number(),
)

# fetch: also the ball, the head site and the bite sites of the mouth, and the target
FETCH_PARAMS = declare.Params(
  **PARAMS.fields,
  ball=declare.qpos("ball_root"),
  ball_velocity=declare.dof("ball_root"),
  head=declare.site("head"),
  bite=declare.sites("upper_bite", "lower_bite"),
  head_velocity=declare.sensor("velocimeter"),
  target=declare.geom("target"),
)


@declare.feature((2,))
def torso_pelvis_height(m, d, p):
  """World heights of the torso and the pelvis."""
  return d.xpos[p.torso, 2], d.xpos[p.pelvis, 2]


@declare.feature((3 * len(_UPRIGHT_BODIES),))
def z_projection(m, d, p, out):
  """The world z axis in the frames of the skull, torso and pelvis (rotation row z)."""
  for i in range(len(p.upright_bodies)):
    for j in range(3):
      out[3 * i + j] = d.xmat[p.upright_bodies[i], 6 + j]


@declare.feature((len(_UPRIGHT_BODIES),))
def upright(m, d, p):
  """zz of the skull, torso and pelvis: cosines of their tilt from upright."""
  skull, torso, pelvis = p.upright_bodies
  return d.xmat[skull, 8], d.xmat[torso, 8], d.xmat[pelvis, 8]


@declare.feature((3,))
def center_of_mass_velocity(m, d, p):
  """The torso subtree's (the dog's) linear velocity."""
  velocity = p.com_velocity
  return d.sensordata[velocity], d.sensordata[velocity + 1], d.sensordata[velocity + 2]


@declare.feature((3,))
def torso_com_velocity(m, d, p):
  """The dog's linear velocity in the torso frame."""
  x, y, z = center_of_mass_velocity(m, d, p)
  return features.vector_in_frame(d.xmat[p.torso], x, y, z)


@declare.feature(())
def com_forward_velocity(m, d, p):
  """The dog's velocity along the torso's x axis."""
  return torso_com_velocity(m, d, p)[0]


@declare.feature((features.VECTOR_SIZE * len(_INERTIAL),))
def inertial_sensors(m, d, p, out):
  """Accelerometer, velocimeter and gyro at the head."""
  features.vector_readings(d, p.inertial, out)


@declare.feature((features.VECTOR_SIZE * len(_FORCES),))
def foot_forces(m, d, p, out):
  """Force sensors at the foot and hand anchors: foot_L, foot_R, hand_L, hand_R."""
  features.vector_readings(d, p.forces, out)


@declare.feature((len(_TOUCH),))
def touch_sensors(m, d, p, out):
  """Palm and sole touch sensors: palm_L, palm_R, sole_L, sole_R."""
  for i in range(len(p.touch)):
    out[i] = d.sensordata[p.touch[i]]


@declare.feature(lambda m: (m.na,))
def actuator_state(m, d, p, out):
  """The actuators' activations."""
  for i in range(m.na):
    out[i] = d.act[i]


@declare.feature(())
def body_weight(m, d, p):
  """The dog's weight (the torso's subtree is the whole dog)."""
  return -m.opt.gravity[2] * m.body_subtreemass[p.torso]


@declare.feature(())
def floor_size(m, d, p):
  """Half-size of the square floor."""
  return m.geom_size[p.floor, 0]


@declare.feature((3,))
def ball_position(m, d, p):
  return d.qpos[p.ball], d.qpos[p.ball + 1], d.qpos[p.ball + 2]


@inline_jit
def _ball_distance(m, d, p, point):
  """Distance from the ball to `point` (3 coordinates)."""
  x, y, z = ball_position(m, d, p)
  dx, dy, dz = x - point[0], y - point[1], z - point[2]
  return math.sqrt(dx * dx + dy * dy + dz * dz)


@declare.feature(())
def ball_to_target_distance(m, d, p):
  return _ball_distance(m, d, p, d.geom_xpos[p.target])


@declare.feature(())
def ball_to_mouth_distance(m, d, p):
  """Mean distance from the ball to the upper and lower bite sites."""
  upper, lower = p.bite
  return (
    _ball_distance(m, d, p, d.site_xpos[upper]) + _ball_distance(m, d, p, d.site_xpos[lower])
  ) / 2


@declare.feature(())
def target_radius(m, d, p):
  return m.geom_size[p.target, 0]


@declare.feature((6,))
def ball_in_head_frame(m, d, p):
  """The ball's position relative to the head site and its velocity relative to the head's
  (the velocimeter), both in the head site's frame."""
  head, frame = d.site_xpos[p.head], d.site_xmat[p.head]
  ball_x, ball_y, ball_z = ball_position(m, d, p)
  x, y, z = features.vector_in_frame(frame, ball_x - head[0], ball_y - head[1], ball_z - head[2])
  ball, head_velocity = p.ball_velocity, p.head_velocity
  vx, vy, vz = features.vector_in_frame(frame, d.qvel[ball], d.qvel[ball + 1], d.qvel[ball + 2])
  return (
    x,
    y,
    z,
    vx - d.sensordata[head_velocity],
    vy - d.sensordata[head_velocity + 1],
    vz - d.sensordata[head_velocity + 2],
  )


@declare.feature((3,))
def target_in_head_frame(m, d, p):
  """The target's position relative to the head site, in the head site's frame."""
  head, target = d.site_xpos[p.head], d.geom_xpos[p.target]
  return features.vector_in_frame(
    d.site_xmat[p.head], target[0] - head[0], target[1] - head[1], target[2] - head[2]
  )


# "joint_velocites": dm_control's spelling
OBSERVATION = declare.Observation(
  PARAMS,
  ("joint_angles", features.hinge_angles),
  ("joint_velocites", features.hinge_velocities),
  torso_pelvis_height,
  z_projection,
  torso_com_velocity,
  inertial_sensors,
  foot_forces,
  touch_sensors,
  actuator_state,
)
FETCH_OBSERVATION = declare.Observation(
  FETCH_PARAMS,
  *OBSERVATION.items,
  ("ball_state", ball_in_head_frame),
  ("target_position", target_in_head_frame),
)


@inline_jit
def _standing(m, d, p):
  """Product of the height (torso and pelvis at their standing heights), upright (skull,
  torso and pelvis within 30 degrees) and weight-bearing (palms and soles) factors."""
  torso_height, pelvis_height = torso_pelvis_height(m, d, p)
  value = rewards.tolerance(
    torso_height, bounds=(p.torso_stand_height, np.inf), margin=p.torso_stand_height
  ) * rewards.tolerance(
    pelvis_height, bounds=(p.pelvis_stand_height, np.inf), margin=p.pelvis_stand_height
  )
  for cosine in upright(m, d, p):
    value *= rewards.tolerance(
      cosine,
      bounds=(_MIN_UPRIGHT_COSINE, np.inf),
      sigmoid="linear",
      margin=1 + _MIN_UPRIGHT_COSINE,
      value_at_margin=0,
    )
  touch = 0.0
  for sensor in p.touch:
    touch += d.sensordata[sensor]
  return value * rewards.tolerance(
    touch,
    bounds=(p.body_weight, np.inf),
    sigmoid="linear",
    margin=p.body_weight,
    value_at_margin=0.9,
  )


@declare.reward(PARAMS)
def stand_reward(m, d, p):
  """Standing (_standing)."""
  return _standing(m, d, p)


@declare.reward(PARAMS)
def move_reward(m, d, p):
  """Standing times (4 forward + 1) / 5, forward: the dog's speed along the torso's x axis,
  1 between the move speed and twice it, linear to 0 a margin max(1, speed) away."""
  forward = rewards.tolerance(
    com_forward_velocity(m, d, p),
    bounds=(p.move_speed, 2 * p.move_speed),
    margin=max(1.0, p.move_speed),
    sigmoid="linear",
    value_at_margin=0,
  )
  return _standing(m, d, p) * (4 * forward + 1) / 5


@declare.reward(FETCH_PARAMS)
def fetch_reward(m, d, p):
  """Standing times reach (1 once the ball is within twice the target's radius, else the ball
  in the mouth: reciprocal in its mean distance to the bite sites, as (6 reach + 1) / 7) times
  (fetch + 1) / 2, fetch reciprocal in the ball's distance to the target over the floor."""
  to_target = ball_to_target_distance(m, d, p)
  if to_target < 2 * target_radius(m, d, p):
    reach = 1.0  # delivered: the ball need not stay in the mouth
  else:
    reach = rewards.tolerance(
      ball_to_mouth_distance(m, d, p),
      bounds=(0, 0.005),
      margin=2,
      sigmoid="reciprocal",
      value_at_margin=0.1,
    )
    reach = (6 * reach + 1) / 7
  fetch = rewards.tolerance(
    to_target,
    bounds=(0, 0.1),
    margin=floor_size(m, d, p),
    sigmoid="reciprocal",
    value_at_margin=0.1,
  )
  return _standing(m, d, p) * reach * (fetch + 1) / 2


class Physics(declare.Physics):
  """The dog's quantities."""

  params = PARAMS
  features = (
    torso_pelvis_height,
    z_projection,
    upright,
    center_of_mass_velocity,
    torso_com_velocity,
    com_forward_velocity,
    features.hinge_angles,
    features.hinge_velocities,
    inertial_sensors,
    touch_sensors,
    foot_forces,
    actuator_state,
    body_weight,
    floor_size,
  )

  def joint_angles(self):
    """Angles of the hinge joints."""
    return self.hinge_angles()

  def joint_velocities(self):
    """Velocities of the hinge joints."""
    return self.hinge_velocities()


class FetchPhysics(Physics):
  """The dog's quantities with the fetch props: the ball, the target and the mouth."""

  params = FETCH_PARAMS
  features = (
    ball_position,
    ball_to_target_distance,
    ball_to_mouth_distance,
    target_radius,
    ball_in_head_frame,
    target_in_head_frame,
  )


class Stand(declare.Task):
  """Rewards standing: torso and pelvis high, skull, torso and pelvis upright, weight on the
  palms and soles."""

  observation = OBSERVATION
  reward = stand_reward
  move_speed = np.nan  # Move's

  def __init__(self, random=None):
    super().__init__(random=random)
    # set by each episode (NaN before the first)
    self.torso_stand_height = self.pelvis_stand_height = self.body_weight = np.nan

  def initialize_episode(self, physics):
    """Default pose at a random yaw, random planar velocity and yaw rate, random activations.

    dm_control's dog does not call the base initializer (no reward colouring: the domain has
    no reward visualisation), so neither do we."""
    physics.reset()
    heights = _STAND_HEIGHT_FRACTION * physics.torso_pelvis_height()
    self.torso_stand_height, self.pelvis_stand_height = heights
    self.body_weight = physics.body_weight()
    yaw = self.random.uniform(0, 2 * np.pi)
    physics.named.data.qpos["root"][3:] = [np.cos(yaw / 2), 0, 0, np.sin(yaw / 2)]
    physics.data.qvel[[0, 1, 5]] = 2 * self.random.randn(3)  # root x, y velocity and yaw rate
    physics.data.act[:] = self.random.uniform(-1, 1, physics.model.na)


class Move(Stand):
  """Rewards standing and moving forward (along the torso's x axis) at `move_speed`."""

  reward = move_reward

  def __init__(self, move_speed, random=None):
    super().__init__(random=random)
    self.move_speed = move_speed


class Fetch(Stand):
  """Rewards standing, holding the ball in the mouth and bringing it to the target."""

  observation = FETCH_OBSERVATION
  reward = fetch_reward

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
