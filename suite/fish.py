"""Fish: a 3-D swimmer in a dense fluid; keep upright, or swim to a target (upright, swim)."""

import collections

import numpy as np

from suite import base
from suite import common
from suite import control
from suite.utils import containers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 40
_CONTROL_TIMESTEP = .04
_JOINTS = ("tail1", "tail_twist", "tail2", "finright_roll", "finright_pitch", "finleft_roll",
           "finleft_pitch")

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


class Upright(base.Task):
  """Rewards an upright torso (zz near 1)."""

  def initialize_episode(self, physics):
    """A random pose; the target is hidden (transparent), as it plays no part."""
    _randomize_pose(self, physics)
    physics.named.model.geom_rgba["target", 3] = 0
    super().initialize_episode(physics)

  def get_observation(self, physics):
    """Joint angles, uprightness, velocities."""
    obs = collections.OrderedDict()
    obs["joint_angles"] = physics.joint_angles()
    obs["upright"] = physics.upright()
    obs["velocity"] = physics.data.qvel.copy()
    return obs

  def get_reward(self, physics):
    return rewards.tolerance(physics.upright(), bounds=(1, 1), margin=1)


class Swim(base.Task):
  """Rewards reaching the target with the mouth (7/8), and being upright (1/8)."""

  def initialize_episode(self, physics):
    """A random pose; the target at x, y uniform in +-0.4 and z uniform in [0.1, 0.3]."""
    _randomize_pose(self, physics)
    target = physics.named.model.geom_pos["target"]
    target[0] = self.random.uniform(-.4, .4)
    target[1] = self.random.uniform(-.4, .4)
    target[2] = self.random.uniform(.1, .3)
    super().initialize_episode(physics)

  def get_observation(self, physics):
    """Joint angles, uprightness, the target in the mouth's frame, velocities."""
    obs = collections.OrderedDict()
    obs["joint_angles"] = physics.joint_angles()
    obs["upright"] = physics.upright()
    obs["target"] = physics.mouth_to_target()
    obs["velocity"] = physics.data.qvel.copy()
    return obs

  def get_reward(self, physics):
    # touching: the distance between centres is at most the sum of the two radii
    radii = physics.model.geom_size[[physics._mouth, physics._target], 0].sum()
    in_target = rewards.tolerance(physics.mouth_to_target_distance(), bounds=(0, radii),
                                  margin=2 * radii)
    is_upright = 0.5 * (physics.upright() + 1)
    return (7 * in_target + is_upright) / 8
