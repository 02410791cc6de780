"""Cheetah: a planar two-legged runner; reward for running forward fast (run)."""

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers

_DEFAULT_TIME_LIMIT = 10
_RUN_SPEED = 10  # m/s of the torso's centre of mass that earns the full reward
_SETTLE_STEPS = 200  # physics steps with zero control after the random pose

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("cheetah.xml"), common.ASSETS


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run forward as fast as possible (full reward from 10 m/s)."""
  physics = Physics.from_xml_string(*get_model_and_assets())
  task = Cheetah(random=random)
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The cheetah's quantities (the sensor address looked up once per model)."""

  def _reload_from_data(self, data):
    super()._reload_from_data(data)
    model = self.model
    self._speed_adr = model.sensor_adr[model.name2id("torso_subtreelinvel", "sensor")]

  def speed(self):
    """Forward (x) velocity of the torso subtree's centre of mass."""
    return self.data.sensordata[self._speed_adr]


@kernels.kernel
def observe(m, d, params, out):
  """position: qpos without the root's x (the task is translation invariant); velocity."""
  for i in range(1, m.nq):
    out[i - 1] = d.qpos[i]
  for i in range(m.nv):
    out[m.nq - 1 + i] = d.qvel[i]


@kernels.kernel
def reward(m, d, params, out):
  """Forward speed (the sensor at params[0]), linearly up to 10 m/s."""
  speed = d.sensordata[int(params[0])]
  out[kernels.REWARD] = kernels.tolerance(speed, _RUN_SPEED, np.inf, _RUN_SPEED,
                                          kernels.LINEAR, 0.0)
  out[kernels.DISCOUNT] = np.nan


class Cheetah(base.Task):
  """Rewards forward speed, linearly up to 10 m/s."""

  observe_kernel = observe
  reward_kernel = reward

  def initialize_episode(self, physics):
    """Limited joints uniform in their ranges, then 200 physics steps with zero control so the
    body settles on the ground; the clock restarts at 0."""
    model = physics.model
    limited = model.jnt_limited.ravel() == 1
    lower, upper = model.jnt_range[limited].T
    # every joint has one coordinate, so joint ids index qpos
    physics.data.qpos[limited] = self.random.uniform(lower, upper)
    physics.step(_SETTLE_STEPS)  # as many single legacy steps, in one engine call
    physics.data.time = 0
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    return (("position", (physics.model.nq - 1,)), ("velocity", (physics.model.nv,)))

  def kernel_params(self, physics):
    return np.array([float(physics._speed_adr)])
