"""Quadruped: a four-legged walker driven by position servos.

Tasks (all extra): walk and run (forward speed 0.5 and 5 m/s), escape (climb out of a bowl of
random bumpy terrain, seen through 20 rangefinders) and fetch (bring a ball to the target in
the middle of a walled arena).
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
from suite.utils import zoom

_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = 0.02

_WALK_SPEED = 0.5
_RUN_SPEED = 5

# escape terrain: bumps every 2 m (a 30x30 grid over the 60 m field), each scaling the bowl by
# U(0.15, 1)
_HEIGHTFIELD_ID = 0
_TERRAIN_BUMP_SCALE = 2
_TERRAIN_SMOOTHNESS = 0.15

_WALLS = ("wall_px", "wall_py", "wall_nx", "wall_ny")

# the sensors observed: vector sensors (3 readings each) at the torso and the toes, in sensor
# order, and the escape variant's rangefinders (one reading each) in 4 rows of 5
_IMU = ("imu_accel", "imu_gyro")
_FORCE_TORQUE = tuple(
  f"{kind}_toe_{toe}"
  for kind in ("force", "torque")
  for toe in ("front_left", "front_right", "back_right", "back_left")
)
_RANGEFINDERS = tuple(f"rf_{row}{column}" for row in range(4) for column in range(5))
# the toes' bodies, in toe_positions' order
_TOES = ("toe_front_left", "toe_back_left", "toe_back_right", "toe_front_right")

SUITE = containers.TaggedTasks()


def get_model_and_assets(floor_size=None, terrain=False, rangefinders=False, walls_and_ball=False):
  """The model's XML text and the include files it needs (see `make_model`)."""
  return make_model(floor_size, terrain, rangefinders, walls_and_ball), common.ASSETS


def make_model(floor_size=None, terrain=False, rangefinders=False, walls_and_ball=False):
  """The quadruped model with only the parts a task uses.

  Args:
    floor_size: half-extent of the square floor (None: the file's 15 m).
    terrain: keep the height-field geom `terrain`.
    rangefinders: keep the 20 rangefinder sensors (their sites stay in every variant).
    walls_and_ball: keep the four walls, the ball and the target site.
  """
  model = mjcf.from_xml_string(common.read_model("quadruped.xml"), assets=common.ASSETS)
  if floor_size is not None:
    model.find("geom", "floor").size = [floor_size, floor_size, 0.5]
  if not walls_and_ball:
    for name in _WALLS:
      model.find("geom", name).remove()
    model.find("body", "ball").remove()
    model.find("site", "target").remove()
  if not terrain:
    model.find("geom", "terrain").remove()
  if not rangefinders:
    for sensor in model.find_all("sensor"):
      if sensor.tag == "rangefinder":
        sensor.remove()
  return model.to_xml_string()


@SUITE.add()
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Walk forward at 0.5 m/s or faster, upright, on a 10 m floor."""
  xml = make_model(floor_size=_DEFAULT_TIME_LIMIT * _WALK_SPEED)
  return _environment(
    Physics, xml, Move(desired_speed=_WALK_SPEED, random=random), time_limit, environment_kwargs
  )


@SUITE.add()
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run forward at 5 m/s or faster, upright, on a 100 m floor."""
  xml = make_model(floor_size=_DEFAULT_TIME_LIMIT * _RUN_SPEED)
  return _environment(
    Physics, xml, Move(desired_speed=_RUN_SPEED, random=random), time_limit, environment_kwargs
  )


@SUITE.add()
def escape(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Climb out of a bowl of random terrain, sensed through rangefinders."""
  xml = make_model(floor_size=40, terrain=True, rangefinders=True)
  return _environment(EscapePhysics, xml, Escape(random=random), time_limit, environment_kwargs)


@SUITE.add()
def fetch(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach a thrown ball and push it to the target in a walled arena."""
  xml = make_model(walls_and_ball=True)
  return _environment(FetchPhysics, xml, Fetch(random=random), time_limit, environment_kwargs)


def _environment(physics_type, xml, task, time_limit, environment_kwargs):
  physics = physics_type.from_xml_string(xml, common.ASSETS)
  return control.Environment(
    physics,
    task,
    time_limit=time_limit,
    control_timestep=_CONTROL_TIMESTEP,
    **(environment_kwargs or {}),
  )


PARAMS = declare.Params(
  torso=declare.body("torso"),
  velocimeter=declare.sensor("velocimeter"),  # the torso's velocity in its frame
  imu=declare.sensors(*_IMU),
  force_torque=declare.sensors(*_FORCE_TORQUE),
  toes=declare.bodies(*_TOES),
  workspace=declare.site("workspace"),
)


def _task_params(upright_angle, **fields):
  """A task's parameters: the model's (PARAMS), the cosine of the tilt (degrees) up to which
  the torso counts as upright, then `fields`."""
  return declare.Params(
    **PARAMS.fields, upright_cosine=declare.number(np.cos(np.deg2rad(upright_angle))), **fields
  )


MOVE_PARAMS = _task_params(0, desired_speed=declare.number())
ESCAPE_PARAMS = _task_params(20, rangefinders=declare.sensors(*_RANGEFINDERS))
FETCH_PARAMS = _task_params(
  0,
  root=declare.dof("root"),
  ball=declare.body("ball"),
  ball_velocity=declare.dof("ball_root"),
  ball_geom=declare.geom("ball"),
  target=declare.site("target"),
  floor=declare.geom("floor"),
)


@inline_jit
def _in_torso_frame(d, p, x, y, z):
  """The vector (x, y, z) in the torso's frame (rotated, not translated)."""
  return features.vector_in_frame(d.xmat[p.torso], x, y, z)


@inline_jit
def _from_torso(d, p, position):
  """`position` (a world position) relative to the torso, in the torso's frame."""
  torso = d.xpos[p.torso]
  return _in_torso_frame(
    d, p, position[0] - torso[0], position[1] - torso[1], position[2] - torso[2]
  )


@declare.feature(())
def torso_upright(m, d, p):
  """The torso's zz rotation entry: cosine of its tilt from upright."""
  return d.xmat[p.torso, 8]


@declare.feature((3,))
def torso_velocity(m, d, p):
  """The velocimeter: the torso's linear velocity in its frame."""
  velocity = d.sensordata
  return velocity[p.velocimeter], velocity[p.velocimeter + 1], velocity[p.velocimeter + 2]


@declare.feature(lambda m: (2 * features.hinge_count(m) + m.na,))
def egocentric_state(m, d, p, out):
  """Hinge angles, hinge velocities and actuator activations."""
  hinges = features.hinge_count(m)
  features.hinge_angles(m, d, p, out[:hinges])
  features.hinge_velocities(m, d, p, out[hinges : 2 * hinges])
  for i in range(m.na):
    out[2 * hinges + i] = d.act[i]


@declare.feature((len(_TOES), 3))
def toe_positions(m, d, p, out):
  """Positions of the four toes relative to the torso, in the torso frame."""
  for i in range(len(p.toes)):
    x, y, z = _from_torso(d, p, d.xpos[p.toes[i]])
    out[3 * i], out[3 * i + 1], out[3 * i + 2] = x, y, z


@declare.feature((features.VECTOR_SIZE * len(_FORCE_TORQUE),))
def force_torque(m, d, p, out):
  """arcsinh of the toe force and torque sensors (compresses their large range)."""
  features.vector_readings(d, p.force_torque, out)
  for i in range(len(out)):
    out[i] = math.asinh(out[i])


@declare.feature((features.VECTOR_SIZE * len(_IMU),))
def imu(m, d, p, out):
  """Accelerometer and gyro readings."""
  features.vector_readings(d, p.imu, out)


@declare.feature((len(_RANGEFINDERS),))
def rangefinder(m, d, p, out):
  """tanh of the rangefinder distances; 1 for rays that hit nothing (reading -1)."""
  for i in range(len(p.rangefinders)):
    reading = d.sensordata[p.rangefinders[i]]
    out[i] = 1.0 if reading == -1.0 else math.tanh(reading)


@declare.feature(())
def origin_distance(m, d, p):
  """Distance of the workspace site from the world origin."""
  distance = 0.0
  for i in range(3):
    distance += d.site_xpos[p.workspace, i] ** 2
  return math.sqrt(distance)


@declare.feature((3,))
def origin(m, d, p):
  """The world origin relative to the torso, in the torso frame."""
  torso = d.xpos[p.torso]
  return _in_torso_frame(d, p, -torso[0], -torso[1], -torso[2])


@declare.feature((9,))
def ball_state(m, d, p):
  """The ball's position relative to the torso, its linear velocity relative to the torso's
  root velocity and its angular velocity, all in the torso frame."""
  ball, root = p.ball_velocity, p.root
  position = _from_torso(d, p, d.xpos[p.ball])
  velocity = _in_torso_frame(
    d,
    p,
    d.qvel[ball] - d.qvel[root],
    d.qvel[ball + 1] - d.qvel[root + 1],
    d.qvel[ball + 2] - d.qvel[root + 2],
  )
  spin = _in_torso_frame(d, p, d.qvel[ball + 3], d.qvel[ball + 4], d.qvel[ball + 5])
  return position + velocity + spin


@declare.feature((3,))
def target_position(m, d, p):
  """The target relative to the torso, in the torso frame."""
  return _from_torso(d, p, d.site_xpos[p.target])


@declare.feature(())
def ball_to_target_distance(m, d, p):
  """Horizontal distance from the ball to the target."""
  return math.hypot(
    d.site_xpos[p.target, 0] - d.xpos[p.ball, 0], d.site_xpos[p.target, 1] - d.xpos[p.ball, 1]
  )


@declare.feature(())
def self_to_ball_distance(m, d, p):
  """Horizontal distance from the workspace site to the ball."""
  return math.hypot(
    d.site_xpos[p.workspace, 0] - d.xpos[p.ball, 0], d.site_xpos[p.workspace, 1] - d.xpos[p.ball, 1]
  )


# every task's observation, then the task's own
_OBSERVED = (egocentric_state, torso_velocity, torso_upright, imu, force_torque)
MOVE_OBSERVATION = declare.Observation(MOVE_PARAMS, *_OBSERVED)
ESCAPE_OBSERVATION = declare.Observation(ESCAPE_PARAMS, *_OBSERVED, origin, rangefinder)
FETCH_OBSERVATION = declare.Observation(FETCH_PARAMS, *_OBSERVED, ball_state, target_position)


@inline_jit
def _upright(m, d, p):
  """1 when the torso's tilt has a cosine of at least p.upright_cosine, falling linearly to 0
  upside down."""
  return rewards.tolerance(
    torso_upright(m, d, p),
    bounds=(p.upright_cosine, np.inf),
    sigmoid="linear",
    margin=1 + p.upright_cosine,
    value_at_margin=0,
  )


@declare.reward(MOVE_PARAMS)
def move_reward(m, d, p):
  """Upright times the speed factor of the forward speed (velocimeter x): 1 from the desired
  speed on, falling linearly to 0.5 at rest."""
  move = rewards.tolerance(
    torso_velocity(m, d, p)[0],
    bounds=(p.desired_speed, np.inf),
    margin=p.desired_speed,
    value_at_margin=0.5,
    sigmoid="linear",
  )
  return _upright(m, d, p) * move


@declare.reward(ESCAPE_PARAMS)
def escape_reward(m, d, p):
  """Upright within 20 degrees times the workspace's distance from the origin, linearly from
  0 at the origin to 1 at the terrain's half-extent."""
  terrain_size = m.hfield_size[_HEIGHTFIELD_ID, 0]
  escape = rewards.tolerance(
    origin_distance(m, d, p),
    bounds=(terrain_size, np.inf),
    margin=terrain_size,
    value_at_margin=0,
    sigmoid="linear",
  )
  return _upright(m, d, p) * escape


@declare.reward(FETCH_PARAMS)
def fetch_reward(m, d, p):
  """Upright times reaching the ball (the workspace's horizontal distance to it) times, half
  of it, bringing the ball to the target (horizontal distance), both linear over the arena
  (the floor's diagonal)."""
  arena_radius = m.geom_size[p.floor, 0] * math.sqrt(2)
  reach_radius = m.site_size[p.workspace, 0] + m.geom_size[p.ball_geom, 0]
  reach = rewards.tolerance(
    self_to_ball_distance(m, d, p),
    bounds=(0, reach_radius),
    margin=arena_radius,
    sigmoid="linear",
    value_at_margin=0,
  )
  fetch = rewards.tolerance(
    ball_to_target_distance(m, d, p),
    bounds=(0, m.site_size[p.target, 0]),
    margin=arena_radius,
    sigmoid="linear",
    value_at_margin=0,
  )
  return _upright(m, d, p) * (reach * (0.5 + 0.5 * fetch))


class Physics(declare.Physics):
  """The quadruped's quantities; vectors "in the torso frame" are rotated by the torso's
  orientation, not translated unless stated."""

  params = PARAMS
  features = (
    torso_upright,
    torso_velocity,
    egocentric_state,
    toe_positions,
    force_torque,
    imu,
    origin_distance,
    origin,
  )


class EscapePhysics(Physics):
  """The quadruped's quantities with the rangefinders (the escape model)."""

  params = ESCAPE_PARAMS
  features = (rangefinder,)


class FetchPhysics(Physics):
  """The quadruped's quantities with the ball and the target (the fetch model)."""

  params = FETCH_PARAMS
  features = (ball_state, target_position, ball_to_target_distance, self_to_ball_distance)


def _find_non_contacting_height(physics, orientation, x_pos=0.0, y_pos=0.0):
  """Places the torso at (x_pos, y_pos) with `orientation`, starting in the floor and rising
  in 1 cm steps until nothing touches.

  Raises:
    RuntimeError: still in contact after 10000 steps (100 m).
  """
  z_pos = 0.0
  num_contacts = 1
  num_attempts = 0
  qpos = physics.named.data.qpos
  while num_contacts > 0:
    try:
      with physics.reset_context():
        qpos["root"][:3] = x_pos, y_pos, z_pos
        qpos["root"][3:] = orientation
    except control.PhysicsError:
      pass  # e.g. too many contacts deep in the floor: keep rising
    num_contacts = physics.data.ncon
    z_pos += 0.01
    num_attempts += 1
    if num_attempts > 10000:
      raise RuntimeError("Failed to find a non-contacting configuration.")


def _random_orientation(random):
  """A random orientation: a normalized Gaussian quaternion."""
  orientation = random.randn(4)
  return orientation / np.linalg.norm(orientation)


class Move(declare.Task):
  """Rewards moving forward (torso x velocity) at `desired_speed` or faster, upright."""

  observation = MOVE_OBSERVATION
  reward = move_reward

  def __init__(self, desired_speed, random=None):
    """`desired_speed`: the torso speed (m/s) at and above which the speed factor is 1."""
    self.desired_speed = desired_speed
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """A random orientation at the origin, lifted until contact-free."""
    _find_non_contacting_height(physics, _random_orientation(self.random))
    super().initialize_episode(physics)


class Escape(declare.Task):
  """Rewards getting far from the origin (out of the terrain's bowl), roughly upright.

  Each episode draws new terrain into the model's height field (`hfield_data`, per world in a
  vectorised environment); a renderer redraws it when it notices the change.
  """

  observation = ESCAPE_OBSERVATION
  reward = escape_reward
  model_fields = ("hfield_data",)

  def initialize_episode(self, physics):
    """New terrain (a bowl times random smooth bumps), then a random orientation at the
    origin, lifted until contact-free."""
    model = physics.model
    res = model.hfield_nrow[_HEIGHTFIELD_ID]
    assert res == model.hfield_ncol[_HEIGHTFIELD_ID]
    # bowl: flat in the middle, rising to 1 at radius 1 (the edge of the field)
    row_grid, col_grid = np.ogrid[-1 : 1 : res * 1j, -1 : 1 : res * 1j]
    radius = np.clip(np.sqrt(col_grid**2 + row_grid**2), 0.04, 1)
    bowl_shape = 0.5 - np.cos(2 * np.pi * radius) / 2
    # random bumps, upsampled by a cubic spline
    terrain_size = 2 * model.hfield_size[_HEIGHTFIELD_ID, 0]
    bump_res = int(terrain_size / _TERRAIN_BUMP_SCALE)
    bumps = self.random.uniform(_TERRAIN_SMOOTHNESS, 1, (bump_res, bump_res))
    smooth_bumps = zoom.zoom(bumps, res / float(bump_res))
    terrain = bowl_shape * smooth_bumps
    start = model.hfield_adr[_HEIGHTFIELD_ID]
    model.hfield_data[start : start + res**2] = terrain.ravel()
    # dm_control resets the reward colours here, before placing the body (same colours)
    super().initialize_episode(physics)
    _find_non_contacting_height(physics, _random_orientation(self.random))


class Fetch(declare.Task):
  """Rewards reaching the ball and, once there, bringing it to the target, upright."""

  observation = FETCH_OBSERVATION
  reward = fetch_reward

  def initialize_episode(self, physics):
    """Random yaw and position of the quadruped (lifted until contact-free), then the ball
    at a random position 2 m up, thrown horizontally."""
    azimuth = self.random.uniform(0, 2 * np.pi)
    orientation = np.array((np.cos(azimuth / 2), 0, 0, np.sin(azimuth / 2)))
    spawn_radius = 0.9 * physics.named.model.geom_size["floor", 0]
    x_pos, y_pos = self.random.uniform(-spawn_radius, spawn_radius, size=(2,))
    _find_non_contacting_height(physics, orientation, x_pos, y_pos)
    qpos, qvel = physics.named.data.qpos, physics.named.data.qvel
    qpos["ball_root"][:2] = self.random.uniform(-spawn_radius, spawn_radius, size=(2,))
    qpos["ball_root"][2] = 2
    qvel["ball_root"][:2] = 5 * self.random.randn(2)
    super().initialize_episode(physics)
