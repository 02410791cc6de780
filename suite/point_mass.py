"""Point-mass: push a point mass on a plane to a target at its centre.

Tasks: easy (benchmarking; the two motors push along x and y) and hard (each episode the
motors push along two random, not nearly parallel, directions).
"""

import functools

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers
from suite.utils import randomizers

_DEFAULT_TIME_LIMIT = 20
_MAX_PARALLEL = 0.9  # largest |cos| allowed between the two random actuation directions

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("point_mass.xml"), common.ASSETS


@SUITE.add("benchmarking", "easy")
def easy(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach the target with motors along x and y."""
  return _environment(PointMass(randomize_gains=False, random=random), time_limit,
                      environment_kwargs)


@SUITE.add()
def hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach the target with motors along random directions, redrawn every episode."""
  return _environment(PointMass(randomize_gains=True, random=random), time_limit,
                      environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The point mass's quantities."""

  @functools.cached_property
  def _geoms(self):
    """Geom ids of the target and the point mass."""
    return tuple(self.model.name2id(name, "geom") for name in ("target", "pointmass"))

  def mass_to_target(self):
    """The target's position relative to the point mass."""
    target, mass = self._geoms
    return self.data.geom_xpos[target] - self.data.geom_xpos[mass]

  def mass_to_target_dist(self):
    return np.linalg.norm(self.mass_to_target())

  def target_radius(self):
    return self.model.geom_size[self._geoms[0], 0]


@kernels.kernel
def reward(m, d, params, out):
  """Being at the target (1 inside it, a Gaussian fall-off to 0.1 one radius outside) times
  (4 + mean of the controls' quadratic smallness) / 5. params: (target geom, mass geom)."""
  target, mass = int(params[0]), int(params[1])
  distance = 0.0
  for k in range(3):
    distance += (d.geom_xpos[target, k] - d.geom_xpos[mass, k]) ** 2
  distance = np.sqrt(distance)
  radius = m.geom_size[target, 0]
  near_target = kernels.tolerance(distance, 0.0, radius, radius, kernels.GAUSSIAN, 0.1)
  control_reward = 0.0
  for k in range(m.nu):
    control_reward += kernels.tolerance(d.ctrl[k], 0.0, 0.0, 1.0, kernels.QUADRATIC, 0.0)
  small_control = (control_reward / m.nu + 4) / 5
  out[kernels.REWARD] = near_target * small_control
  out[kernels.DISCOUNT] = np.nan


class PointMass(base.Task):
  """Rewards being at the target (Gaussian fall-off) with small controls."""

  observe_kernel = kernels.observe_position_velocity
  reward_kernel = reward
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

  def observation_layout(self, physics):
    return kernels.position_velocity_layout(physics)

  def kernel_params(self, physics):
    return np.array(physics._geoms, dtype=float)
