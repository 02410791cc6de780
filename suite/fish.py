"""Fish: a 3-D swimmer in a dense fluid; keep upright, or swim to a target (upright, swim)."""

import math

import numpy as np

from suite import common
from suite import control
from suite import declare
from suite import features
from suite.utils import containers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 40
_CONTROL_TIMESTEP = 0.04
_JOINTS = (
  "tail1",
  "tail_twist",
  "tail2",
  "finright_roll",
  "finright_pitch",
  "finleft_roll",
  "finleft_pitch",
)

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
  return control.Environment(
    physics,
    task,
    time_limit=time_limit,
    control_timestep=_CONTROL_TIMESTEP,
    **(environment_kwargs or {}),
  )


PARAMS = declare.Params(
  torso=declare.body("torso"),
  mouth=declare.geom("mouth"),
  target=declare.geom("target"),
  velocity_sensors=declare.sensors("velocimeter", "gyro"),
  joint_qpos=declare.qposes(*_JOINTS),
  joint_dofs=declare.dofs(*_JOINTS),
)


@declare.feature(())
def torso_upright(m, d, p):
  """Cosine of the torso's tilt from upright: rotation entry zz."""
  return d.xmat[p.torso, 8]


@declare.feature((6,))
def torso_velocity(m, d, p):
  """The torso's linear, then angular velocity, in its own frame."""
  s = d.sensordata
  linear, angular = p.velocity_sensors
  return s[linear], s[linear + 1], s[linear + 2], s[angular], s[angular + 1], s[angular + 2]


@declare.feature((len(_JOINTS),))
def joint_velocities(m, d, p, out):
  for j in range(len(p.joint_dofs)):
    out[j] = d.qvel[p.joint_dofs[j]]


@declare.feature((len(_JOINTS),))
def joint_angles(m, d, p, out):
  for j in range(len(p.joint_qpos)):
    out[j] = d.qpos[p.joint_qpos[j]]


@declare.feature((3,))
def mouth_to_target(m, d, p):
  """The vector from the mouth to the target, in the mouth's frame."""
  mouth, target, frame = d.geom_xpos[p.mouth], d.geom_xpos[p.target], d.geom_xmat[p.mouth]
  return features.vector_in_frame(
    frame, target[0] - mouth[0], target[1] - mouth[1], target[2] - mouth[2]
  )


@declare.feature(())
def mouth_to_target_distance(m, d, p):
  """Distance between the centres of the mouth and the target."""
  squared = 0.0
  for delta in mouth_to_target(m, d, p):
    squared += delta * delta
  return math.sqrt(squared)


UPRIGHT_OBSERVATION = declare.Observation(
  PARAMS, joint_angles, ("upright", torso_upright), features.velocity
)
SWIM_OBSERVATION = declare.Observation(
  PARAMS, joint_angles, ("upright", torso_upright), ("target", mouth_to_target), features.velocity
)


@declare.reward(PARAMS)
def upright_reward(m, d, p):
  """zz near 1: gaussian over a margin of 1."""
  return rewards.tolerance(torso_upright(m, d, p), bounds=(1, 1), margin=1)


@declare.reward(PARAMS)
def swim_reward(m, d, p):
  """7/8 for the mouth touching the target (centres at most the sum of the radii apart,
  gaussian over twice that), 1/8 for being upright."""
  radii = m.geom_size[p.mouth, 0] + m.geom_size[p.target, 0]
  in_target = rewards.tolerance(
    mouth_to_target_distance(m, d, p), bounds=(0, radii), margin=2 * radii
  )
  is_upright = 0.5 * (torso_upright(m, d, p) + 1)
  return (7 * in_target + is_upright) / 8


class Physics(declare.Physics):
  """The fish's quantities."""

  params = PARAMS
  features = (
    torso_upright,
    torso_velocity,
    joint_velocities,
    joint_angles,
    mouth_to_target,
    mouth_to_target_distance,
  )

  def upright(self):
    """dm_control's name of torso_upright (the module's `upright` is the task)."""
    return self.torso_upright()


def _randomize_pose(task, physics):
  """Root orientation: a normalized Gaussian quaternion (uniform over rotations); the seven
  joints uniform in +-0.2 rad."""
  quat = task.random.randn(4)
  qpos = physics.named.data.qpos
  qpos["root"][3:7] = quat / np.linalg.norm(quat)
  for joint in _JOINTS:
    qpos[joint] = task.random.uniform(-0.2, 0.2)


class Upright(declare.Task):
  """Rewards an upright torso (zz near 1)."""

  observation = UPRIGHT_OBSERVATION
  reward = upright_reward
  model_fields = ("geom_rgba",)

  def initialize_episode(self, physics):
    """A random pose; the target is hidden (transparent), as it plays no part."""
    _randomize_pose(self, physics)
    physics.named.model.geom_rgba["target", 3] = 0
    super().initialize_episode(physics)


class Swim(declare.Task):
  """Rewards reaching the target with the mouth (7/8), and being upright (1/8)."""

  observation = SWIM_OBSERVATION
  reward = swim_reward
  model_fields = ("geom_pos",)

  def initialize_episode(self, physics):
    """A random pose; the target at x, y uniform in +-0.4 and z uniform in [0.1, 0.3]."""
    _randomize_pose(self, physics)
    target = physics.named.model.geom_pos["target"]
    target[0] = self.random.uniform(-0.4, 0.4)
    target[1] = self.random.uniform(-0.4, 0.4)
    target[2] = self.random.uniform(0.1, 0.3)
    super().initialize_episode(physics)
