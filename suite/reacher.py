"""Reacher: bring the fingertip of a two-link planar arm to a randomly placed target.

Tasks: easy (a 5 cm target) and hard (a 1.5 cm target), both benchmarking.
"""

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
_BIG_TARGET = 0.05
_SMALL_TARGET = 0.015

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("reacher.xml"), common.ASSETS


@SUITE.add("benchmarking", "easy")
def easy(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach a target of radius 5 cm."""
  return _environment(
    Reacher(target_size=_BIG_TARGET, random=random), time_limit, environment_kwargs
  )


@SUITE.add("benchmarking")
def hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach a target of radius 1.5 cm."""
  return _environment(
    Reacher(target_size=_SMALL_TARGET, random=random), time_limit, environment_kwargs
  )


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


PARAMS = declare.Params(target=declare.geom("target"), finger=declare.geom("finger"))


@declare.feature((2,))
def finger_to_target(m, d, p):
  """(x, y) of the target relative to the fingertip."""
  return (
    d.geom_xpos[p.target, 0] - d.geom_xpos[p.finger, 0],
    d.geom_xpos[p.target, 1] - d.geom_xpos[p.finger, 1],
  )


@declare.feature(())
def finger_to_target_dist(m, d, p):
  dx, dy = finger_to_target(m, d, p)
  return math.sqrt(dx * dx + dy * dy)


@declare.feature(())
def touch_distance(m, d, p):
  """Target radius plus fingertip radius: the largest distance that counts as touching."""
  return m.geom_size[p.target, 0] + m.geom_size[p.finger, 0]


OBSERVATION = declare.Observation(
  PARAMS, features.position, ("to_target", finger_to_target), features.velocity
)


@declare.reward(PARAMS)
def reward(m, d, p):
  """1 while the fingertip touches the target ((x, y) distance of the centres at most the sum
  of the radii), else 0."""
  return rewards.tolerance(finger_to_target_dist(m, d, p), bounds=(0, touch_distance(m, d, p)))


class Physics(declare.Physics):
  """The reacher's quantities."""

  params = PARAMS
  features = (finger_to_target, finger_to_target_dist, touch_distance)


class Reacher(declare.Task):
  """Rewards the fingertip touching the target (sparse)."""

  observation = OBSERVATION
  reward = reward
  model_fields = ("geom_size", "geom_pos")  # the target's radius and place

  def __init__(self, target_size, random=None):
    """`target_size`: the target's radius, set on the model every episode."""
    self._target_size = target_size
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Random joint angles (shoulder in [-pi, pi), wrist within its limits); then the target
    at angle U[0, 2pi) and radius U[.05, .2] from the shoulder."""
    physics.named.model.geom_size["target", 0] = self._target_size
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    angle = self.random.uniform(0, 2 * np.pi)
    radius = self.random.uniform(0.05, 0.20)
    physics.named.model.geom_pos["target", "x"] = radius * np.sin(angle)
    physics.named.model.geom_pos["target", "y"] = radius * np.cos(angle)
    super().initialize_episode(physics)
