"""Pendulum: swing a weakly actuated pendulum up and keep it there (swingup)."""

import numpy as np

from suite import common
from suite import control
from suite import declare
from suite.utils import containers
from suite.utils import rewards

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


PARAMS = declare.Params(pole=declare.body("pole"), hinge=declare.dof("hinge"))


@declare.feature(())
def pole_vertical(m, d, p):
  """Cosine of the pole's angle from upright: rotation entry zz."""
  return d.xmat[p.pole, 8]


@declare.feature((1,))
def angular_velocity(m, d, p):
  return (d.qvel[p.hinge],)


@declare.feature((2,))
def pole_orientation(m, d, p):
  """(cos, sin) of the angle from upright: rotation entries zz and xz."""
  return pole_vertical(m, d, p), d.xmat[p.pole, 2]


OBSERVATION = declare.Observation(
  PARAMS, ("orientation", pole_orientation), ("velocity", angular_velocity)
)


@declare.reward(PARAMS)
def reward(m, d, p):
  """1 while the pole is within 8 degrees of upright, else 0."""
  return rewards.tolerance(pole_vertical(m, d, p), bounds=(_COSINE_BOUND, 1))


class Physics(declare.Physics):
  """The pendulum's quantities."""

  params = PARAMS
  features = (pole_vertical, angular_velocity, pole_orientation)


class SwingUp(declare.Task):
  """Starts at a uniform random angle; sparse reward near upright."""

  observation = OBSERVATION
  reward = reward

  def initialize_episode(self, physics):
    physics.named.data.qpos["hinge"] = self.random.uniform(-np.pi, np.pi)
    super().initialize_episode(physics)
