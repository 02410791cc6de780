"""Hopper: a one-legged planar robot; stand up, then hop forward (stand, hop)."""

import math

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers
from suite.utils import randomizers

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


# the layout of kernel_params
_TORSO, _FOOT, _SPEED_ADR, _TOE_ADR, _HEEL_ADR, _HOPPING = range(6)


@kernels.kernel
def observe(m, d, params, out):
  """position: qpos without the root's x; velocity: qvel; touch: log(1 + touch) of the toe
  and heel sensors."""
  for i in range(1, m.nq):
    out[i - 1] = d.qpos[i]
  k = m.nq - 1
  for i in range(m.nv):
    out[k + i] = d.qvel[i]
  k += m.nv
  out[k] = math.log1p(d.sensordata[int(params[_TOE_ADR])])
  out[k + 1] = math.log1p(d.sensordata[int(params[_HEEL_ADR])])


@kernels.kernel
def reward(m, d, params, out):
  """Standing (torso's centre of mass 0.6 to 2 m above the foot's) times, when hopping,
  forward speed linearly up to 2 m/s, else small controls (mean, quadratic)."""
  height = d.xipos[int(params[_TORSO]), 2] - d.xipos[int(params[_FOOT]), 2]
  standing = kernels.tolerance(height, _STAND_HEIGHT, 2.0, 0.0, kernels.GAUSSIAN, 0.1)
  if params[_HOPPING]:
    hopping = kernels.tolerance(d.sensordata[int(params[_SPEED_ADR])], _HOP_SPEED, np.inf,
                                _HOP_SPEED / 2, kernels.LINEAR, 0.5)
    value = standing * hopping
  else:
    small_control = 0.0
    for i in range(m.nu):
      small_control += kernels.tolerance(d.ctrl[i], 0.0, 0.0, 1.0, kernels.QUADRATIC, 0.0)
    small_control = (small_control / m.nu + 4) / 5
    value = standing * small_control
  out[kernels.REWARD] = value
  out[kernels.DISCOUNT] = np.nan


class Hopper(base.Task):
  """Rewards standing (torso high above the foot): with small controls, or while hopping."""

  observe_kernel = observe
  reward_kernel = reward

  def __init__(self, hopping, random=None):
    """`hopping`: reward forward speed instead of small controls."""
    self._hopping = hopping
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Limited hinges uniform in their ranges, root pitch uniform (root x, z kept)."""
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    """Positions without the root's x (translation invariant), velocities, foot touch."""
    model = physics.model
    return (("position", (model.nq - 1,)), ("velocity", (model.nv,)), ("touch", (2,)))

  def kernel_params(self, physics):
    toe, heel = physics._touch_adr
    return np.array([physics._torso, physics._foot, physics._speed_adr, toe, heel,
                     self._hopping], float)
