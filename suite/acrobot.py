"""Acrobot: swing a two-link arm, actuated only at the elbow, up to a target above it.

Tasks: swingup (dense reward) and swingup_sparse (reward only at the target), both
benchmarking.
"""

import functools

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers

_DEFAULT_TIME_LIMIT = 10

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("acrobot.xml"), common.ASSETS


@SUITE.add("benchmarking")
def swingup(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing the tip up to the target (reward falls off smoothly with the distance)."""
  return _environment(Balance(sparse=False, random=random), time_limit, environment_kwargs)


@SUITE.add("benchmarking")
def swingup_sparse(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing the tip up to the target (reward 1 only inside the target)."""
  return _environment(Balance(sparse=True, random=random), time_limit, environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The acrobot's quantities."""

  @functools.cached_property
  def _arms(self):
    """Body ids of the upper and lower arm."""
    return np.array([self.model.name2id(name, "body") for name in ("upper_arm", "lower_arm")])

  @functools.cached_property
  def _sites(self):
    """Site ids of the target and the tip."""
    return tuple(self.model.name2id(name, "site") for name in ("target", "tip"))

  def horizontal(self):
    """The xz rotation entries (sines of the angles from vertical) of the two arms."""
    return self.data.xmat[self._arms, 2]

  def vertical(self):
    """The zz rotation entries (cosines of the angles from vertical) of the two arms."""
    return self.data.xmat[self._arms, 8]

  def to_target(self):
    """Distance from the tip to the target's centre."""
    target, tip = self._sites
    xpos = self.data.site_xpos
    return np.linalg.norm(xpos[target] - xpos[tip])

  def target_radius(self):
    return self.model.site_size[self._sites[0], 0]

  def orientations(self):
    """Both arms' xz entries, then both zz entries."""
    return np.concatenate((self.horizontal(), self.vertical()))


@kernels.kernel
def observe(m, d, params, out):
  """orientations: both arms' xz rotation entries, then both zz entries; velocity: qvel.
  params: (upper arm body, lower arm body, ...)."""
  upper, lower = int(params[0]), int(params[1])
  out[0] = d.xmat[upper, 2]
  out[1] = d.xmat[lower, 2]
  out[2] = d.xmat[upper, 8]
  out[3] = d.xmat[lower, 8]
  for i in range(m.nv):
    out[4 + i] = d.qvel[i]


@kernels.kernel
def reward(m, d, params, out):
  """1 with the tip inside the target sphere; outside, 0 (sparse, params[4] = 1) or a Gaussian
  fall-off to 0.1 at 1 m. params: (upper arm, lower arm, target site, tip site, sparse)."""
  target, tip = int(params[2]), int(params[3])
  distance = 0.0
  for k in range(3):
    distance += (d.site_xpos[target, k] - d.site_xpos[tip, k]) ** 2
  distance = np.sqrt(distance)
  margin = 0.0 if params[4] else 1.0
  out[kernels.REWARD] = kernels.tolerance(distance, 0.0, m.site_size[target, 0], margin,
                                          kernels.GAUSSIAN, 0.1)
  out[kernels.DISCOUNT] = np.nan


class Balance(base.Task):
  """Rewards bringing the tip inside the target sphere (dense: a Gaussian fall-off)."""

  observe_kernel = observe
  reward_kernel = reward

  def __init__(self, sparse, random=None):
    """`sparse`: reward 1 inside the target and 0 elsewhere, instead of a smooth fall-off."""
    self._sparse = sparse
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Shoulder and elbow angles uniform in [-pi, pi), drawn together."""
    physics.named.data.qpos[["shoulder", "elbow"]] = self.random.uniform(-np.pi, np.pi, 2)
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    return (("orientations", (4,)), ("velocity", (physics.model.nv,)))

  def kernel_params(self, physics):
    upper, lower = physics._arms
    target, tip = physics._sites
    return np.array([upper, lower, target, tip, self._sparse], dtype=float)
