"""Pendulum: swing a weakly actuated pendulum up and keep it there (swingup)."""

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers

_DEFAULT_TIME_LIMIT = 20
_ANGLE_BOUND = 8  # degrees from upright that count as "up"
_COSINE_BOUND = np.cos(np.deg2rad(_ANGLE_BOUND))

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("pendulum.xml"), common.ASSETS


@SUITE.add("benchmarking")
def swingup(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing the pendulum up from a random angle; reward while within 8 degrees of upright."""
  physics = Physics.from_xml_string(*get_model_and_assets())
  task = SwingUp(random=random)
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The pendulum's quantities (ids looked up once per model)."""

  def _reload_from_data(self, data):
    super()._reload_from_data(data)
    self._pole = self.model.name2id("pole", "body")
    self._hinge_dof = self.model.jnt_dofadr[self.model.name2id("hinge", "joint")]

  def pole_vertical(self):
    """Cosine of the pole's angle from upright: rotation entry zz."""
    return self.data.xmat[self._pole, 8]

  def angular_velocity(self):
    return self.data.qvel[self._hinge_dof:self._hinge_dof + 1].copy()

  def pole_orientation(self):
    """(cos, sin) of the angle from upright: rotation entries zz and xz."""
    return self.data.xmat[self._pole, [8, 2]]


@kernels.kernel
def observe(m, d, params, out):
  """orientation: the pole's rotation entries (zz, xz); velocity: the hinge's.
  params: (pole body, hinge dof)."""
  pole = int(params[0])
  out[0] = d.xmat[pole, 8]
  out[1] = d.xmat[pole, 2]
  out[2] = d.qvel[int(params[1])]


@kernels.kernel
def reward(m, d, params, out):
  """1 while the pole is within 8 degrees of upright (its zz entry above cos 8 deg), else 0."""
  pole = int(params[0])
  out[kernels.REWARD] = kernels.tolerance(d.xmat[pole, 8], _COSINE_BOUND, 1.0, 0.0,
                                          kernels.GAUSSIAN, 0.1)
  out[kernels.DISCOUNT] = np.nan


class SwingUp(base.Task):
  """Starts at a uniform random angle; sparse reward near upright."""

  observe_kernel = observe
  reward_kernel = reward

  def initialize_episode(self, physics):
    physics.named.data.qpos["hinge"] = self.random.uniform(-np.pi, np.pi)
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    return (("orientation", (2,)), ("velocity", (1,)))

  def kernel_params(self, physics):
    return np.array([float(physics._pole), float(physics._hinge_dof)])
