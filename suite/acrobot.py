"""Acrobot: swing a two-link arm, actuated only at the elbow, up to a target above it.

Tasks: swingup (dense reward) and swingup_sparse (reward only at the target), both
benchmarking.
"""

import collections
import functools

import numpy as np

from suite import base
from suite import common
from suite import control
from suite.utils import containers
from suite.utils import rewards

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


class Balance(base.Task):
  """Rewards bringing the tip inside the target sphere (dense: a Gaussian fall-off)."""

  def __init__(self, sparse, random=None):
    """`sparse`: reward 1 inside the target and 0 elsewhere, instead of a smooth fall-off."""
    self._sparse = sparse
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Shoulder and elbow angles uniform in [-pi, pi), drawn together."""
    physics.named.data.qpos[["shoulder", "elbow"]] = self.random.uniform(-np.pi, np.pi, 2)
    super().initialize_episode(physics)

  def get_observation(self, physics):
    obs = collections.OrderedDict()
    obs["orientations"] = physics.orientations()
    obs["velocity"] = physics.data.qvel.copy()
    return obs

  def get_reward(self, physics):
    return rewards.tolerance(physics.to_target(), bounds=(0, physics.target_radius()),
                             margin=0 if self._sparse else 1)
