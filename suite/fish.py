"""Fish: a 3-D swimmer in a dense fluid; keep upright, or swim to a target (upright, swim)."""

import math

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers

_DEFAULT_TIME_LIMIT = 40
_CONTROL_TIMESTEP = .04
_JOINTS = ("tail1", "tail_twist", "tail2", "finright_roll", "finright_pitch", "finleft_roll",
           "finleft_pitch")
_NUM_JOINTS = len(_JOINTS)

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("fish.xml"), common.ASSETS


@SUITE.add("benchmarking")
def upright(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Turn upright from a random orientation and stay so."""
  return _environment(Upright(random=random), time_limit, environment_kwargs)


@SUITE.add("benchmarking")
def swim(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swim to a randomly placed target, mouth first, staying upright."""
  return _environment(Swim(random=random), time_limit, environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The fish's quantities (ids and addresses looked up once per model)."""

  def _reload_from_data(self, data):
    super()._reload_from_data(data)
    model = self.model
    self._torso = model.name2id("torso", "body")
    self._mouth = model.name2id("mouth", "geom")
    self._target = model.name2id("target", "geom")
    joints = [model.name2id(name, "joint") for name in _JOINTS]
    self._joint_qpos = model.jnt_qposadr[joints]
    self._joint_dof = model.jnt_dofadr[joints]

  def upright(self):
    """Cosine of the torso's tilt from upright: rotation entry zz."""
    return self.data.xmat[self._torso, 8]

  def torso_velocity(self):
    """Linear velocity of the torso in its own frame."""
    return self.named.data.sensordata["velocimeter"]

  def joint_velocities(self):
    return self.data.qvel[self._joint_dof]

  def joint_angles(self):
    return self.data.qpos[self._joint_qpos]

  def mouth_to_target(self):
    """The vector from the mouth to the target, in the mouth's frame."""
    data = self.data
    mouth_to_target = data.geom_xpos[self._target] - data.geom_xpos[self._mouth]
    return mouth_to_target.dot(data.geom_xmat[self._mouth].reshape(3, 3))

  def mouth_to_target_distance(self):
    """Distance between the centres of the mouth and the target."""
    return np.linalg.norm(self.mouth_to_target())


def _randomize_pose(task, physics):
  """Root orientation: a normalized Gaussian quaternion (uniform over rotations); the seven
  joints uniform in +-0.2 rad."""
  quat = task.random.randn(4)
  qpos = physics.named.data.qpos
  qpos["root"][3:7] = quat / np.linalg.norm(quat)
  for joint in _JOINTS:
    qpos[joint] = task.random.uniform(-.2, .2)


# the layout of kernel_params: the torso body, the mouth and target geoms, the swim flag, then
# the qpos addresses of the seven _JOINTS
_TORSO, _MOUTH, _TARGET, _SWIM, _FIRST_JOINT_QPOS = range(5)


@kernels.kernel
def observe(m, d, params, out):
  """joint_angles (the seven _JOINTS), upright (torso rotation entry zz), when swimming the
  target in the mouth's frame, velocity (qvel)."""
  for j in range(_NUM_JOINTS):
    out[j] = d.qpos[int(params[_FIRST_JOINT_QPOS + j])]
  k = _NUM_JOINTS
  out[k] = d.xmat[int(params[_TORSO]), 8]
  k += 1
  if params[_SWIM]:
    mouth, target = int(params[_MOUTH]), int(params[_TARGET])
    for j in range(3):  # the row vector target - mouth times the mouth's rotation matrix
      value = 0.0
      for i in range(3):
        value += (d.geom_xpos[target, i] - d.geom_xpos[mouth, i]) * d.geom_xmat[mouth, 3 * i + j]
      out[k + j] = value
    k += 3
  for i in range(m.nv):
    out[k + i] = d.qvel[i]


@kernels.kernel
def reward(m, d, params, out):
  """Upright: zz near 1 (gaussian over a margin of 1). Swim: 7/8 for the mouth touching the
  target (centres at most the sum of the radii apart, gaussian over twice that), 1/8 for
  being upright."""
  upright = d.xmat[int(params[_TORSO]), 8]
  if params[_SWIM]:
    mouth, target = int(params[_MOUTH]), int(params[_TARGET])
    squared_distance = 0.0
    for j in range(3):  # the distance is the same in the mouth's frame
      delta = 0.0
      for i in range(3):
        delta += (d.geom_xpos[target, i] - d.geom_xpos[mouth, i]) * d.geom_xmat[mouth, 3 * i + j]
      squared_distance += delta * delta
    radii = m.geom_size[mouth, 0] + m.geom_size[target, 0]
    in_target = kernels.tolerance(math.sqrt(squared_distance), 0.0, radii, 2 * radii,
                                  kernels.GAUSSIAN, 0.1)
    is_upright = 0.5 * (upright + 1)
    value = (7 * in_target + is_upright) / 8
  else:
    value = kernels.tolerance(upright, 1.0, 1.0, 1.0, kernels.GAUSSIAN, 0.1)
  out[kernels.REWARD] = value
  out[kernels.DISCOUNT] = np.nan


def _observation_layout(physics, swim):
  target = (("target", (3,)),) if swim else ()
  return (("joint_angles", (_NUM_JOINTS,)), ("upright", ()), *target,
          ("velocity", (physics.model.nv,)))


def _kernel_params(physics, swim):
  return np.array([physics._torso, physics._mouth, physics._target, swim,
                   *physics._joint_qpos], float)


class Upright(base.Task):
  """Rewards an upright torso (zz near 1)."""

  observe_kernel = observe
  reward_kernel = reward
  model_fields = ("geom_rgba",)

  def initialize_episode(self, physics):
    """A random pose; the target is hidden (transparent), as it plays no part."""
    _randomize_pose(self, physics)
    physics.named.model.geom_rgba["target", 3] = 0
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    """Joint angles, uprightness, velocities."""
    return _observation_layout(physics, swim=False)

  def kernel_params(self, physics):
    return _kernel_params(physics, swim=False)


class Swim(base.Task):
  """Rewards reaching the target with the mouth (7/8), and being upright (1/8)."""

  observe_kernel = observe
  reward_kernel = reward
  model_fields = ("geom_pos",)

  def initialize_episode(self, physics):
    """A random pose; the target at x, y uniform in +-0.4 and z uniform in [0.1, 0.3]."""
    _randomize_pose(self, physics)
    target = physics.named.model.geom_pos["target"]
    target[0] = self.random.uniform(-.4, .4)
    target[1] = self.random.uniform(-.4, .4)
    target[2] = self.random.uniform(.1, .3)
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    """Joint angles, uprightness, the target in the mouth's frame, velocities."""
    return _observation_layout(physics, swim=True)

  def kernel_params(self, physics):
    return _kernel_params(physics, swim=True)
