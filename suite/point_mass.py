"""Point-mass: push a point mass on a plane to a target at its centre.

Tasks: easy (benchmarking; the two motors push along x and y) and hard (each episode the
motors push along two random, not nearly parallel, directions).
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
_MAX_PARALLEL = 0.9  # largest |cos| allowed between the two random actuation directions

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("point_mass.xml"), common.ASSETS


@SUITE.add("benchmarking", "easy")
def easy(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach the target with motors along x and y."""
  return _environment(
    PointMass(randomize_gains=False, random=random), time_limit, environment_kwargs
  )


@SUITE.add()
def hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach the target with motors along random directions, redrawn every episode."""
  return _environment(
    PointMass(randomize_gains=True, random=random), time_limit, environment_kwargs
  )


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


PARAMS = declare.Params(target=declare.geom("target"), mass=declare.geom("pointmass"))


@declare.feature((3,))
def mass_to_target(m, d, p):
  """The target's position relative to the point mass."""
  return (
    d.geom_xpos[p.target, 0] - d.geom_xpos[p.mass, 0],
    d.geom_xpos[p.target, 1] - d.geom_xpos[p.mass, 1],
    d.geom_xpos[p.target, 2] - d.geom_xpos[p.mass, 2],
  )


@declare.feature(())
def mass_to_target_dist(m, d, p):
  squared = 0.0
  for delta in mass_to_target(m, d, p):
    squared += delta**2
  return math.sqrt(squared)


@declare.feature(())
def target_radius(m, d, p):
  return m.geom_size[p.target, 0]


OBSERVATION = declare.Observation(PARAMS, features.position, features.velocity)


@declare.reward(PARAMS)
def reward(m, d, p):
  """Being at the target (1 inside it, a Gaussian fall-off to 0.1 one radius outside) times
  (4 + mean of the controls' quadratic smallness) / 5."""
  radius = target_radius(m, d, p)
  near_target = rewards.tolerance(mass_to_target_dist(m, d, p), bounds=(0, radius), margin=radius)
  small_control = (features.small_control(m, d, p) + 4) / 5
  return near_target * small_control


class Physics(declare.Physics):
  """The point mass's quantities."""

  params = PARAMS
  features = (mass_to_target, mass_to_target_dist, target_radius)


class PointMass(declare.Task):
  """Rewards being at the target (Gaussian fall-off) with small controls."""

  observation = OBSERVATION
  reward = reward
  model_fields = ("wrap_prm",)  # hard: the tendons' random directions

  def __init__(self, randomize_gains, random=None):
    """`randomize_gains`: each episode, let the motors push along two random unit directions
    (the fixed tendons' joint coefficients) instead of along x and y."""
    self._randomize_gains = randomize_gains
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Both slides uniform within their limits; then, with random gains, a Gaussian unit
    direction for each tendon, the second redrawn while |cos| between them exceeds 0.9."""
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    if self._randomize_gains:
      dir1 = self.random.randn(2)
      dir1 /= np.linalg.norm(dir1)
      parallel = True
      while parallel:
        dir2 = self.random.randn(2)
        dir2 /= np.linalg.norm(dir2)
        parallel = abs(np.dot(dir1, dir2)) > _MAX_PARALLEL
      # wrap_prm holds t1's (root_x, root_y) coefficients, then t2's
      physics.model.wrap_prm[0:2] = dir1
      physics.model.wrap_prm[2:4] = dir2
    super().initialize_episode(physics)
