"""Humanoid: a 21-joint humanoid that should stand up, walk or run.

Tasks: stand, walk and run (benchmarking), and run_pure_state, which observes the raw state
(qpos, qvel) instead of the egocentric features.
"""

import math

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers
from suite.utils import randomizers

_DEFAULT_TIME_LIMIT = 25
_CONTROL_TIMESTEP = .025

_STAND_HEIGHT = 1.4  # head height (m) that counts as standing
_WALK_SPEED = 1  # horizontal centre-of-mass speeds (m/s)
_RUN_SPEED = 10

# bodies whose positions form the `extremities` observation, in its order
_EXTREMITIES = ("left_hand", "left_foot", "right_hand", "right_foot")

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("humanoid.xml"), common.ASSETS


@SUITE.add("benchmarking")
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stand up and stay still."""
  return _environment(Humanoid(move_speed=0, pure_state=False, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("benchmarking")
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Walk at 1 m/s or faster in any horizontal direction."""
  return _environment(Humanoid(move_speed=_WALK_SPEED, pure_state=False, random=random),
                      time_limit, environment_kwargs)


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run at 10 m/s or faster in any horizontal direction."""
  return _environment(Humanoid(move_speed=_RUN_SPEED, pure_state=False, random=random),
                      time_limit, environment_kwargs)


@SUITE.add()
def run_pure_state(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run at 10 m/s or faster, observing qpos and qvel only."""
  return _environment(Humanoid(move_speed=_RUN_SPEED, pure_state=True, random=random),
                      time_limit, environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The humanoid's quantities: torso frame, head height, centre of mass, extremities."""

  _TORSO = "torso"
  _HEAD = "head"
  _EXTREMITIES = _EXTREMITIES
  _COM_VELOCITY = "torso_subtreelinvel"

  def _reload_from_data(self, data):
    """Also looks up the indices the observations read on every step (after every model
    (re)load, copy or unpickling)."""
    super()._reload_from_data(data)
    model = self.model
    self._torso_id = model.name2id(self._TORSO, "body")
    self._head_id = model.name2id(self._HEAD, "body")
    self._extremity_ids = [model.name2id(name, "body") for name in self._EXTREMITIES]
    adr = model.sensor_adr[model.name2id(self._COM_VELOCITY, "sensor")]
    self._com_velocity = slice(adr, adr + 3)

  def torso_upright(self):
    """The torso z axis's world z component (1 when upright): rotation entry zz."""
    return self.data.xmat[self._torso_id, 8]

  def head_height(self):
    return self.data.xpos[self._head_id, 2]

  def center_of_mass_position(self):
    return self.data.subtree_com[self._torso_id].copy()

  def center_of_mass_velocity(self):
    """The torso subtree's linear velocity sensor (the whole body's)."""
    return self.data.sensordata[self._com_velocity].copy()

  def torso_vertical_orientation(self):
    """World up in the torso frame: rotation entries zx, zy, zz."""
    return self.data.xmat[self._torso_id, 6:9].copy()

  def joint_angles(self):
    """The hinge angles: qpos after the root's free joint (3 position + 4 quaternion)."""
    return self.data.qpos[7:].copy()

  def extremities(self):
    """Hands and feet relative to the torso, in the torso frame (left hand, left foot,
    right hand, right foot)."""
    frame = self.data.xmat[self._torso_id].reshape(3, 3)
    return ((self.data.xpos[self._extremity_ids] - self.data.xpos[self._torso_id])
            @ frame).ravel()


# the layout of kernel_params (shared with humanoid_CMU): the torso, head and extremity
# (4) body ids, the address of the centre-of-mass velocity sensor, the rotation entry of the
# torso whose value is "upright" (zz here, zy for the CMU thorax), the move speed, pure state
_TORSO_ID, _HEAD_ID, _FIRST_EXTREMITY_ID = 0, 1, 2
_COM_ADR, _UPRIGHT_ENTRY, _MOVE_SPEED, _PURE_STATE = 6, 7, 8, 9


@kernels.kernel
def observe(m, d, params, out):
  """Pure state: position (qpos), velocity (qvel). Otherwise joint_angles (qpos after the free
  joint), head_height, extremities (hands and feet relative to the torso, in its frame),
  torso_vertical (rotation entries zx, zy, zz), com_velocity, velocity (qvel)."""
  if params[_PURE_STATE]:
    for i in range(m.nq):
      out[i] = d.qpos[i]
    for i in range(m.nv):
      out[m.nq + i] = d.qvel[i]
    return
  torso = int(params[_TORSO_ID])
  k = 0
  for i in range(7, m.nq):
    out[k] = d.qpos[i]
    k += 1
  out[k] = d.xpos[int(params[_HEAD_ID]), 2]
  k += 1
  for e in range(4):
    body = int(params[_FIRST_EXTREMITY_ID + e])
    dx = d.xpos[body, 0] - d.xpos[torso, 0]
    dy = d.xpos[body, 1] - d.xpos[torso, 1]
    dz = d.xpos[body, 2] - d.xpos[torso, 2]
    for j in range(3):  # the row vector (dx, dy, dz) times the torso's rotation matrix
      out[k + j] = dx * d.xmat[torso, j] + dy * d.xmat[torso, 3 + j] + dz * d.xmat[torso, 6 + j]
    k += 3
  for j in range(3):
    out[k + j] = d.xmat[torso, 6 + j]
  k += 3
  com = int(params[_COM_ADR])
  for j in range(3):
    out[k + j] = d.sensordata[com + j]
  k += 3
  for i in range(m.nv):
    out[k + i] = d.qvel[i]


@kernels.kernel
def reward(m, d, params, out):
  """standing (head height) * upright * small controls (mean, quadratic), times: with move
  speed 0, staying still (horizontal centre-of-mass velocity); else the horizontal speed,
  linearly up to the move speed."""
  torso = int(params[_TORSO_ID])
  standing = kernels.tolerance(d.xpos[int(params[_HEAD_ID]), 2], _STAND_HEIGHT, np.inf,
                               _STAND_HEIGHT / 4, kernels.GAUSSIAN, 0.1)
  upright = kernels.tolerance(d.xmat[torso, int(params[_UPRIGHT_ENTRY])], 0.9, np.inf, 1.9,
                              kernels.LINEAR, 0.0)
  small_control = 0.0
  for i in range(m.nu):
    small_control += kernels.tolerance(d.ctrl[i], 0.0, 0.0, 1.0, kernels.QUADRATIC, 0.0)
  small_control = (4 + small_control / m.nu) / 5
  com = int(params[_COM_ADR])
  vx, vy = d.sensordata[com], d.sensordata[com + 1]
  move_speed = params[_MOVE_SPEED]
  if move_speed == 0:
    dont_move = (kernels.tolerance(vx, 0.0, 0.0, 2.0, kernels.GAUSSIAN, 0.1)
                 + kernels.tolerance(vy, 0.0, 0.0, 2.0, kernels.GAUSSIAN, 0.1)) / 2
    value = small_control * (standing * upright) * dont_move
  else:
    move = kernels.tolerance(math.sqrt(vx * vx + vy * vy), move_speed, np.inf, move_speed,
                             kernels.LINEAR, 0.0)
    move = (5 * move + 1) / 6
    value = small_control * (standing * upright) * move
  out[kernels.REWARD] = value
  out[kernels.DISCOUNT] = np.nan


def observation_layout(physics, pure_state):
  """The observation keys and shapes of the kernel `observe` (humanoid and humanoid_CMU)."""
  model = physics.model
  if pure_state:
    return (("position", (model.nq,)), ("velocity", (model.nv,)))
  return (("joint_angles", (model.nq - 7,)), ("head_height", ()), ("extremities", (12,)),
          ("torso_vertical", (3,)), ("com_velocity", (3,)), ("velocity", (model.nv,)))


def kernel_params(physics, upright_entry, move_speed, pure_state):
  """The params of the kernels (humanoid and humanoid_CMU): see their layout above."""
  return np.array([physics._torso_id, physics._head_id, *physics._extremity_ids,
                   physics._com_velocity.start, upright_entry, move_speed, pure_state], float)


class Humanoid(base.Task):
  """Rewards a high head, an upright torso and small controls, times a speed term."""

  observe_kernel = observe
  reward_kernel = reward

  def __init__(self, move_speed, pure_state, random=None):
    """`move_speed`: the horizontal speed to reach (0: stand still); `pure_state`: observe
    qpos and qvel instead of egocentric features."""
    self._move_speed = move_speed
    self._pure_state = pure_state
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Random joint angles and root orientation, redrawn until no geoms touch."""
    penetrating = True
    while penetrating:
      randomizers.randomize_limited_and_rotational_joints(physics, self.random)
      physics.after_reset()
      penetrating = physics.data.ncon > 0
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    return observation_layout(physics, self._pure_state)

  def kernel_params(self, physics):
    return kernel_params(physics, 8, self._move_speed, self._pure_state)  # upright: zz
