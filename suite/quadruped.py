"""Quadruped: a four-legged walker driven by position servos.

Tasks (all extra): walk and run (forward speed 0.5 and 5 m/s), escape (climb out of a bowl of
random bumpy terrain, seen through 20 rangefinders) and fetch (bring a ball to the target in
the middle of a walled arena).
"""

import math

import numpy as np

import engine
import mjcf
from engine._jit import jit
from engine.enums import mjtJoint
from engine.enums import mjtObj
from engine.enums import mjtSensor
from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers
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

# joint and sensor types the observations select (as ints for the kernels)
_HINGE = int(mjtJoint.mjJNT_HINGE)
_IMU_SENSORS = (int(mjtSensor.mjSENS_ACCELEROMETER), int(mjtSensor.mjSENS_GYRO))
_FORCE_TORQUE_SENSORS = (int(mjtSensor.mjSENS_FORCE), int(mjtSensor.mjSENS_TORQUE))
_RANGEFINDER = int(mjtSensor.mjSENS_RANGEFINDER)

# the layout of the kernel parameters: every task's, then its own
_TORSO, _VELOCIMETER, _UPRIGHT_COSINE = range(3)  # torso body, velocimeter's first reading
_DESIRED_SPEED = 3  # Move
_WORKSPACE = 3  # Escape and Fetch: the workspace site
_ROOT_DOF, _BALL, _TARGET, _BALL_DOF, _FLOOR, _BALL_GEOM = range(4, 10)  # Fetch

SUITE = containers.TaggedTasks()


def get_model_and_assets(floor_size=None, terrain=False, rangefinders=False,
                         walls_and_ball=False):
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
  return _environment(xml, Move(desired_speed=_WALK_SPEED, random=random), time_limit,
                      environment_kwargs)


@SUITE.add()
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run forward at 5 m/s or faster, upright, on a 100 m floor."""
  xml = make_model(floor_size=_DEFAULT_TIME_LIMIT * _RUN_SPEED)
  return _environment(xml, Move(desired_speed=_RUN_SPEED, random=random), time_limit,
                      environment_kwargs)


@SUITE.add()
def escape(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Climb out of a bowl of random terrain, sensed through rangefinders."""
  xml = make_model(floor_size=40, terrain=True, rangefinders=True)
  return _environment(xml, Escape(random=random), time_limit, environment_kwargs)


@SUITE.add()
def fetch(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach a thrown ball and push it to the target in a walled arena."""
  xml = make_model(walls_and_ball=True)
  return _environment(xml, Fetch(random=random), time_limit, environment_kwargs)


def _environment(xml, task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(xml, common.ASSETS)
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The quadruped's quantities; vectors "in the torso frame" are rotated by the torso's
  orientation, not translated unless stated."""

  def _reload_from_data(self, data):
    super()._reload_from_data(data)
    self._make_indices()

  def _make_indices(self):
    """Addresses read every step: hinge coordinates, sensor blocks by type, body, site and
    joint ids (-1 for the ball and target where the variant has none)."""
    m = self.model
    hinges = np.nonzero(m.jnt_type == _HINGE)[0]
    self._hinge_qpos = m.jnt_qposadr[hinges]
    self._hinge_dof = m.jnt_dofadr[hinges]
    self._imu = self._sensor_indices(*_IMU_SENSORS)
    self._force_torque = self._sensor_indices(*_FORCE_TORQUE_SENSORS)
    self._rangefinder = self._sensor_indices(_RANGEFINDER)
    velocimeter = self._id(mjtObj.mjOBJ_SENSOR, "velocimeter")
    self._velocimeter = slice(m.sensor_adr[velocimeter], m.sensor_adr[velocimeter] + 3)
    self._torso = self._id(mjtObj.mjOBJ_BODY, "torso")
    self._workspace = self._id(mjtObj.mjOBJ_SITE, "workspace")
    self._root_dof = m.jnt_dofadr[self._id(mjtObj.mjOBJ_JOINT, "root")]
    self._ball = self._id(mjtObj.mjOBJ_BODY, "ball")
    self._target = self._id(mjtObj.mjOBJ_SITE, "target")
    ball_root = self._id(mjtObj.mjOBJ_JOINT, "ball_root")
    self._ball_dof = m.jnt_dofadr[ball_root] if ball_root >= 0 else -1
    self._floor = self._id(mjtObj.mjOBJ_GEOM, "floor")
    self._ball_geom = self._id(mjtObj.mjOBJ_GEOM, "ball")

  def _id(self, objtype, name):
    return engine.mj_name2id(self.model.ptr, objtype, name)

  def _sensor_indices(self, *types):
    """sensordata indices of the sensors of `types`, in sensor order."""
    m = self.model
    ids = np.nonzero(np.isin(m.sensor_type, types))[0]
    return np.array([m.sensor_adr[i] + k for i in ids for k in range(m.sensor_dim[i])],
                    dtype=np.intp)

  def _torso_frame(self):
    return self.data.xmat[self._torso].reshape(3, 3)

  def torso_upright(self):
    """The torso's zz rotation entry: cosine of its tilt from upright."""
    return np.asarray(self.data.xmat[self._torso, 8])

  def torso_velocity(self):
    """The velocimeter: the torso's linear velocity in its frame."""
    return self.data.sensordata[self._velocimeter].copy()

  def egocentric_state(self):
    """Hinge angles, hinge velocities and actuator activations."""
    data = self.data
    return np.concatenate((data.qpos[self._hinge_qpos], data.qvel[self._hinge_dof], data.act))

  def toe_positions(self):
    """Positions of the four toes relative to the torso, in the torso frame."""
    toes = self.named.data.xpos[["toe_front_left", "toe_back_left", "toe_back_right",
                                 "toe_front_right"]]
    return (toes - self.data.xpos[self._torso]).dot(self._torso_frame())

  def force_torque(self):
    """arcsinh of the toe force and torque sensors (compresses their large range)."""
    return np.arcsinh(self.data.sensordata[self._force_torque])

  def imu(self):
    """Accelerometer and gyro readings, in sensor order."""
    return self.data.sensordata[self._imu]

  def rangefinder(self):
    """tanh of the rangefinder distances; 1 for rays that hit nothing (reading -1)."""
    readings = self.data.sensordata[self._rangefinder]
    return np.where(readings == -1.0, 1.0, np.tanh(readings))

  def origin_distance(self):
    """Distance of the workspace site from the world origin."""
    return np.asarray(np.linalg.norm(self.data.site_xpos[self._workspace]))

  def origin(self):
    """The world origin relative to the torso, in the torso frame."""
    return -self.data.xpos[self._torso].dot(self._torso_frame())

  def ball_state(self):
    """The ball's position relative to the torso, its linear velocity relative to the torso's
    root velocity and its angular velocity, all in the torso frame (9 values)."""
    data = self.data
    xpos, qvel = data.xpos, data.qvel
    ball_pos = xpos[self._ball] - xpos[self._torso]
    ball_vel = qvel[self._ball_dof:self._ball_dof + 3] - qvel[self._root_dof:self._root_dof + 3]
    ball_rot_vel = qvel[self._ball_dof + 3:self._ball_dof + 6]
    return np.vstack((ball_pos, ball_vel, ball_rot_vel)).dot(self._torso_frame()).ravel()

  def target_position(self):
    """The target relative to the torso, in the torso frame."""
    data = self.data
    return (data.site_xpos[self._target] - data.xpos[self._torso]).dot(self._torso_frame())

  def ball_to_target_distance(self):
    """Horizontal distance from the ball to the target."""
    data = self.data
    return np.linalg.norm(data.site_xpos[self._target, :2] - data.xpos[self._ball, :2])

  def self_to_ball_distance(self):
    """Horizontal distance from the workspace site to the ball."""
    data = self.data
    return np.linalg.norm(data.site_xpos[self._workspace, :2] - data.xpos[self._ball, :2])


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


@jit
def _copy_sensors(m, d, type1, type2, out, k, arcsinh):
  """The readings of the sensors of type `type1` or `type2`, in sensor order, into out from k
  (their arcsinh with `arcsinh`). Returns the index after them."""
  for i in range(m.nsensor):
    if m.sensor_type[i] == type1 or m.sensor_type[i] == type2:
      adr = m.sensor_adr[i]
      for j in range(m.sensor_dim[i]):
        value = d.sensordata[adr + j]
        out[k] = math.asinh(value) if arcsinh else value
        k += 1
  return k


@jit
def _observe_common(m, d, params, out):
  """egocentric_state (hinge angles, hinge velocities, activations), torso_velocity,
  torso_upright, imu, force_torque (arcsinh): the observations of every task. Returns the
  index in `out` after them."""
  k = kernels.write_hinge_state(m, d, out, 0)
  for i in range(m.na):
    out[k + i] = d.act[i]
  k += m.na
  velocimeter = int(params[_VELOCIMETER])
  for i in range(3):
    out[k + i] = d.sensordata[velocimeter + i]
  out[k + 3] = d.xmat[int(params[_TORSO]), 8]
  k = _copy_sensors(m, d, _IMU_SENSORS[0], _IMU_SENSORS[1], out, k + 4, False)
  return _copy_sensors(m, d, _FORCE_TORQUE_SENSORS[0], _FORCE_TORQUE_SENSORS[1], out, k, True)


@jit
def _to_torso_frame(d, torso, x, y, z, out, k):
  """The vector (x, y, z) in the torso's frame (rotated, not translated) into out[k:k + 3]."""
  for j in range(3):
    out[k + j] = x * d.xmat[torso, j] + y * d.xmat[torso, 3 + j] + z * d.xmat[torso, 6 + j]


@jit
def _upright_reward(d, params):
  """1 when the torso's tilt has a cosine of at least params[_UPRIGHT_COSINE], falling
  linearly to 0 upside down."""
  deviation = params[_UPRIGHT_COSINE]
  return kernels.tolerance(d.xmat[int(params[_TORSO]), 8], deviation, np.inf, 1 + deviation,
                           kernels.LINEAR, 0.0)


@kernels.kernel
def observe_move(m, d, params, out):
  """The observations of every task (_observe_common)."""
  _observe_common(m, d, params, out)


@kernels.kernel
def reward_move(m, d, params, out):
  """Upright times the speed factor of the forward speed (velocimeter x): 1 from the desired
  speed on, falling linearly to 0.5 at rest."""
  speed = params[_DESIRED_SPEED]
  move_reward = kernels.tolerance(d.sensordata[int(params[_VELOCIMETER])], speed, np.inf, speed,
                                  kernels.LINEAR, 0.5)
  out[kernels.REWARD] = _upright_reward(d, params) * move_reward
  out[kernels.DISCOUNT] = np.nan


@kernels.kernel
def observe_escape(m, d, params, out):
  """Every task's observations, then origin (the world origin in the torso frame) and
  rangefinder (tanh of the distances; 1 for rays that hit nothing, reading -1)."""
  k = _observe_common(m, d, params, out)
  torso = int(params[_TORSO])
  _to_torso_frame(d, torso, -d.xpos[torso, 0], -d.xpos[torso, 1], -d.xpos[torso, 2], out, k)
  k += 3
  for i in range(m.nsensor):
    if m.sensor_type[i] == _RANGEFINDER:
      adr = m.sensor_adr[i]
      for j in range(m.sensor_dim[i]):
        reading = d.sensordata[adr + j]
        out[k] = 1.0 if reading == -1.0 else math.tanh(reading)
        k += 1


@kernels.kernel
def reward_escape(m, d, params, out):
  """Upright within 20 degrees times the workspace's distance from the origin, linearly from
  0 at the origin to 1 at the terrain's half-extent."""
  workspace = int(params[_WORKSPACE])
  distance = 0.0
  for i in range(3):
    distance += d.site_xpos[workspace, i] ** 2
  distance = math.sqrt(distance)
  terrain_size = m.hfield_size[_HEIGHTFIELD_ID, 0]
  escape_reward = kernels.tolerance(distance, terrain_size, np.inf, terrain_size, kernels.LINEAR,
                                    0.0)
  out[kernels.REWARD] = _upright_reward(d, params) * escape_reward
  out[kernels.DISCOUNT] = np.nan


@kernels.kernel
def observe_fetch(m, d, params, out):
  """Every task's observations, then ball_state (the ball's position relative to the torso,
  its linear velocity relative to the torso's root velocity and its angular velocity) and
  target_position (relative to the torso), all in the torso frame."""
  k = _observe_common(m, d, params, out)
  torso, ball, target = int(params[_TORSO]), int(params[_BALL]), int(params[_TARGET])
  ball_dof, root_dof = int(params[_BALL_DOF]), int(params[_ROOT_DOF])
  _to_torso_frame(d, torso, d.xpos[ball, 0] - d.xpos[torso, 0],
                  d.xpos[ball, 1] - d.xpos[torso, 1], d.xpos[ball, 2] - d.xpos[torso, 2], out, k)
  _to_torso_frame(d, torso, d.qvel[ball_dof] - d.qvel[root_dof],
                  d.qvel[ball_dof + 1] - d.qvel[root_dof + 1],
                  d.qvel[ball_dof + 2] - d.qvel[root_dof + 2], out, k + 3)
  _to_torso_frame(d, torso, d.qvel[ball_dof + 3], d.qvel[ball_dof + 4], d.qvel[ball_dof + 5],
                  out, k + 6)
  _to_torso_frame(d, torso, d.site_xpos[target, 0] - d.xpos[torso, 0],
                  d.site_xpos[target, 1] - d.xpos[torso, 1],
                  d.site_xpos[target, 2] - d.xpos[torso, 2], out, k + 9)


@kernels.kernel
def reward_fetch(m, d, params, out):
  """Upright times reaching the ball (the workspace's horizontal distance to it) times, half
  of it, bringing the ball to the target (horizontal distance), both linear over the arena
  (the floor's diagonal)."""
  ball, workspace, target = int(params[_BALL]), int(params[_WORKSPACE]), int(params[_TARGET])
  arena_radius = m.geom_size[int(params[_FLOOR]), 0] * math.sqrt(2)
  reach_radius = m.site_size[workspace, 0] + m.geom_size[int(params[_BALL_GEOM]), 0]
  to_ball = math.hypot(d.site_xpos[workspace, 0] - d.xpos[ball, 0],
                       d.site_xpos[workspace, 1] - d.xpos[ball, 1])
  reach_reward = kernels.tolerance(to_ball, 0.0, reach_radius, arena_radius, kernels.LINEAR,
                                   0.0)
  to_target = math.hypot(d.site_xpos[target, 0] - d.xpos[ball, 0],
                         d.site_xpos[target, 1] - d.xpos[ball, 1])
  fetch_reward = kernels.tolerance(to_target, 0.0, m.site_size[target, 0], arena_radius,
                                   kernels.LINEAR, 0.0)
  reach_then_fetch = reach_reward * (0.5 + 0.5 * fetch_reward)
  out[kernels.REWARD] = _upright_reward(d, params) * reach_then_fetch
  out[kernels.DISCOUNT] = np.nan


def _observation_layout(physics):
  """The layout of _observe_common."""
  return (("egocentric_state", (2 * len(physics._hinge_qpos) + physics.model.na,)),
          ("torso_velocity", (3,)), ("torso_upright", ()), ("imu", (len(physics._imu),)),
          ("force_torque", (len(physics._force_torque),)))


def _kernel_params(physics, deviation_angle, *task_params):
  """Every task's kernel parameters (the torso, the velocimeter, the cosine of the upright
  reward's `deviation_angle` in degrees), then the task's."""
  return np.array([physics._torso, physics._velocimeter.start,
                   np.cos(np.deg2rad(deviation_angle)), *task_params], dtype=float)


def _random_orientation(random):
  """A random orientation: a normalized Gaussian quaternion."""
  orientation = random.randn(4)
  return orientation / np.linalg.norm(orientation)


class Move(base.Task):
  """Rewards moving forward (torso x velocity) at `desired_speed` or faster, upright."""

  observe_kernel = observe_move
  reward_kernel = reward_move

  def __init__(self, desired_speed, random=None):
    """`desired_speed`: the torso speed (m/s) at and above which the speed factor is 1."""
    self._desired_speed = desired_speed
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """A random orientation at the origin, lifted until contact-free."""
    _find_non_contacting_height(physics, _random_orientation(self.random))
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    return _observation_layout(physics)

  def kernel_params(self, physics):
    return _kernel_params(physics, 0, self._desired_speed)


class Escape(base.Task):
  """Rewards getting far from the origin (out of the terrain's bowl), roughly upright.

  Each episode draws new terrain into the model's height field (`hfield_data`, per world in a
  vectorised environment); a renderer redraws it when it notices the change.
  """

  observe_kernel = observe_escape
  reward_kernel = reward_escape
  model_fields = ("hfield_data",)

  def initialize_episode(self, physics):
    """New terrain (a bowl times random smooth bumps), then a random orientation at the
    origin, lifted until contact-free."""
    model = physics.model
    res = model.hfield_nrow[_HEIGHTFIELD_ID]
    assert res == model.hfield_ncol[_HEIGHTFIELD_ID]
    # bowl: flat in the middle, rising to 1 at radius 1 (the edge of the field)
    row_grid, col_grid = np.ogrid[-1:1:res * 1j, -1:1:res * 1j]
    radius = np.clip(np.sqrt(col_grid ** 2 + row_grid ** 2), 0.04, 1)
    bowl_shape = 0.5 - np.cos(2 * np.pi * radius) / 2
    # random bumps, upsampled by a cubic spline
    terrain_size = 2 * model.hfield_size[_HEIGHTFIELD_ID, 0]
    bump_res = int(terrain_size / _TERRAIN_BUMP_SCALE)
    bumps = self.random.uniform(_TERRAIN_SMOOTHNESS, 1, (bump_res, bump_res))
    smooth_bumps = zoom.zoom(bumps, res / float(bump_res))
    terrain = bowl_shape * smooth_bumps
    start = model.hfield_adr[_HEIGHTFIELD_ID]
    model.hfield_data[start:start + res ** 2] = terrain.ravel()
    # dm_control resets the reward colours here, before placing the body (same colours)
    super().initialize_episode(physics)
    _find_non_contacting_height(physics, _random_orientation(self.random))

  def observation_layout(self, physics):
    return _observation_layout(physics) + (("origin", (3,)),
                                           ("rangefinder", (len(physics._rangefinder),)))

  def kernel_params(self, physics):
    return _kernel_params(physics, 20, physics._workspace)


class Fetch(base.Task):
  """Rewards reaching the ball and, once there, bringing it to the target, upright."""

  observe_kernel = observe_fetch
  reward_kernel = reward_fetch

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

  def observation_layout(self, physics):
    return _observation_layout(physics) + (("ball_state", (9,)), ("target_position", (3,)))

  def kernel_params(self, physics):
    return _kernel_params(physics, 0, physics._workspace, physics._root_dof, physics._ball,
                          physics._target, physics._ball_dof, physics._floor, physics._ball_geom)
