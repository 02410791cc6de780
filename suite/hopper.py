"""Hopper: a one-legged planar robot; stand up, then hop forward (stand, hop)."""

import collections

import numpy as np

from suite import base
from suite import common
from suite import control
from suite.utils import containers
from suite.utils import randomizers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = .02
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
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The hopper's quantities (ids and sensor addresses looked up once per model)."""

  def _reload_from_data(self, data):
    super()._reload_from_data(data)
    model = self.model
    self._torso = model.name2id("torso", "body")
    self._foot = model.name2id("foot", "body")
    self._speed_adr = model.sensor_adr[model.name2id("torso_subtreelinvel", "sensor")]
    self._touch_adr = model.sensor_adr[[model.name2id(name, "sensor")
                                        for name in ("touch_toe", "touch_heel")]]

  def height(self):
    """Height of the torso's centre of mass above the foot's."""
    xipos = self.data.xipos
    return xipos[self._torso, 2] - xipos[self._foot, 2]

  def speed(self):
    """Forward (x) velocity of the torso subtree's centre of mass."""
    return self.data.sensordata[self._speed_adr]

  def touch(self):
    """log(1 + touch) of the toe and heel sensors (compresses large impacts)."""
    return np.log1p(self.data.sensordata[self._touch_adr])


class Hopper(base.Task):
  """Rewards standing (torso high above the foot): with small controls, or while hopping."""

  def __init__(self, hopping, random=None):
    """`hopping`: reward forward speed instead of small controls."""
    self._hopping = hopping
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Limited hinges uniform in their ranges, root pitch uniform (root x, z kept)."""
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    super().initialize_episode(physics)

  def get_observation(self, physics):
    """Positions without the root's x (translation invariant), velocities, foot touch."""
    obs = collections.OrderedDict()
    obs["position"] = physics.data.qpos[1:].copy()
    obs["velocity"] = physics.data.qvel.copy()
    obs["touch"] = physics.touch()
    return obs

  def get_reward(self, physics):
    standing = rewards.tolerance(physics.height(), (_STAND_HEIGHT, 2))
    if self._hopping:
      hopping = rewards.tolerance(physics.speed(), bounds=(_HOP_SPEED, float("inf")),
                                  margin=_HOP_SPEED / 2, value_at_margin=0.5, sigmoid="linear")
      return standing * hopping
    small_control = rewards.tolerance(physics.control(), margin=1, value_at_margin=0,
                                      sigmoid="quadratic").mean()
    small_control = (small_control + 4) / 5
    return standing * small_control
