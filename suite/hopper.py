"""Hopper: a one-legged planar robot; stand up, then hop forward (stand, hop)."""

import math

import numpy as np

from suite import common
from suite import control
from suite import declare
from suite import features
from suite.utils import containers
from suite.utils import randomizers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = 0.02
_STAND_HEIGHT = 0.6  # minimal torso height above the foot (centres of mass) that counts
_HOP_SPEED = 2  # forward speed (m/s) of the torso subtree that earns the full hop reward

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("hopper.xml"), common.ASSETS


@SUITE.add("benchmarking")
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stand upright with little control effort."""
  return _environment(Hopper(hopping=False, random=random), time_limit, environment_kwargs)


@SUITE.add("benchmarking")
def hop(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Hop forward while standing (full reward from 2 m/s)."""
  return _environment(Hopper(hopping=True, random=random), time_limit, environment_kwargs)


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
  foot=declare.body("foot"),
  torso_velocity=declare.sensor("torso_subtreelinvel"),
  touch=declare.sensors("touch_toe", "touch_heel"),
  hopping=declare.flag(),
)


@declare.feature(())
def height(m, d, p):
  """Height of the torso's centre of mass above the foot's."""
  return d.xipos[p.torso, 2] - d.xipos[p.foot, 2]


@declare.feature(())
def speed(m, d, p):
  """Forward (x) velocity of the torso subtree's centre of mass."""
  return d.sensordata[p.torso_velocity]


@declare.feature((2,))
def touch(m, d, p):
  """log(1 + touch) of the toe and heel sensors (compresses large impacts)."""
  toe, heel = p.touch
  return math.log1p(d.sensordata[toe]), math.log1p(d.sensordata[heel])


# qpos without the root's x: the task is translation invariant
OBSERVATION = declare.Observation(
  PARAMS, ("position", features.position_without_x), features.velocity, touch
)


@declare.reward(PARAMS)
def reward(m, d, p):
  """Standing (torso's centre of mass 0.6 to 2 m above the foot's) times, when hopping,
  forward speed linearly up to 2 m/s, else small controls."""
  standing = rewards.tolerance(height(m, d, p), (_STAND_HEIGHT, 2))
  if p.hopping:
    hopping = rewards.tolerance(
      speed(m, d, p),
      bounds=(_HOP_SPEED, np.inf),
      margin=_HOP_SPEED / 2,
      value_at_margin=0.5,
      sigmoid="linear",
    )
    return standing * hopping
  small_control = (features.small_control(m, d, p) + 4) / 5
  return standing * small_control


class Physics(declare.Physics):
  """The hopper's quantities."""

  params = PARAMS
  features = (height, speed, touch)


class Hopper(declare.Task):
  """Rewards standing (torso high above the foot): with small controls, or while hopping."""

  observation = OBSERVATION
  reward = reward

  def __init__(self, hopping, random=None):
    """`hopping`: reward forward speed instead of small controls."""
    self.hopping = hopping
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Limited hinges uniform in their ranges, root pitch uniform (root x, z kept)."""
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    super().initialize_episode(physics)
