"""Reacher: bring the fingertip of a two-link planar arm to a randomly placed target.

Tasks: easy (a 5 cm target) and hard (a 1.5 cm target), both benchmarking.
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
_BIG_TARGET = 0.05
_SMALL_TARGET = 0.015

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("reacher.xml"), common.ASSETS


@SUITE.add("benchmarking", "easy")
def easy(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach a target of radius 5 cm."""
  return _environment(Reacher(target_size=_BIG_TARGET, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("benchmarking")
def hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Reach a target of radius 1.5 cm."""
  return _environment(Reacher(target_size=_SMALL_TARGET, random=random), time_limit,
                      environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The reacher's quantities."""

  @functools.cached_property
  def _geoms(self):
    """Geom ids of the target and the fingertip."""
    return np.array([self.model.name2id(name, "geom") for name in ("target", "finger")])

  def finger_to_target(self):
    """(x, y) of the target relative to the fingertip."""
    target, finger = self._geoms
    return self.data.geom_xpos[target, :2] - self.data.geom_xpos[finger, :2]

  def finger_to_target_dist(self):
    return np.linalg.norm(self.finger_to_target())

  def touch_distance(self):
    """Target radius plus fingertip radius: the largest distance that counts as touching."""
    return self.model.geom_size[self._geoms, 0].sum()


@kernels.kernel
def observe(m, d, params, out):
  """position: qpos; to_target: the target's (x, y) relative to the fingertip; velocity: qvel.
  params: (target geom, fingertip geom)."""
  target, finger = int(params[0]), int(params[1])
  for i in range(m.nq):
    out[i] = d.qpos[i]
  for k in range(2):
    out[m.nq + k] = d.geom_xpos[target, k] - d.geom_xpos[finger, k]
  for i in range(m.nv):
    out[m.nq + 2 + i] = d.qvel[i]


@kernels.kernel
def reward(m, d, params, out):
  """1 while the fingertip touches the target ((x, y) distance of the centres at most the sum
  of the radii), else 0."""
  target, finger = int(params[0]), int(params[1])
  dx = d.geom_xpos[target, 0] - d.geom_xpos[finger, 0]
  dy = d.geom_xpos[target, 1] - d.geom_xpos[finger, 1]
  touch_distance = m.geom_size[target, 0] + m.geom_size[finger, 0]
  out[kernels.REWARD] = kernels.tolerance(np.sqrt(dx * dx + dy * dy), 0.0, touch_distance, 0.0,
                                          kernels.GAUSSIAN, 0.1)
  out[kernels.DISCOUNT] = np.nan


class Reacher(base.Task):
  """Rewards the fingertip touching the target (sparse)."""

  observe_kernel = observe
  reward_kernel = reward
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

  def observation_layout(self, physics):
    model = physics.model
    return (("position", (model.nq,)), ("to_target", (2,)), ("velocity", (model.nv,)))

  def kernel_params(self, physics):
    return physics._geoms.astype(float)
