"""Acrobot: swing a two-link arm, actuated only at the elbow, up to a target above it.

Tasks: swingup (dense reward) and swingup_sparse (reward only at the target), both
benchmarking.
"""

import math

import numpy as np

from suite import common
from suite import control
from suite import declare
from suite import features
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


PARAMS = declare.Params(
  arms=declare.bodies("upper_arm", "lower_arm"),
  target=declare.site("target"),
  tip=declare.site("tip"),
  sparse=declare.flag(),
)


@declare.feature((2,))
def horizontal(m, d, p):
  """The xz rotation entries (sines of the angles from vertical) of the two arms."""
  upper, lower = p.arms
  return d.xmat[upper, 2], d.xmat[lower, 2]


@declare.feature((2,))
def vertical(m, d, p):
  """The zz rotation entries (cosines of the angles from vertical) of the two arms."""
  upper, lower = p.arms
  return d.xmat[upper, 8], d.xmat[lower, 8]


@declare.feature(())
def to_target(m, d, p):
  """Distance from the tip to the target's centre."""
  squared = 0.0
  for k in range(3):
    squared += (d.site_xpos[p.target, k] - d.site_xpos[p.tip, k]) ** 2
  return math.sqrt(squared)


@declare.feature(())
def target_radius(m, d, p):
  return m.site_size[p.target, 0]


@declare.feature((4,))
def orientations(m, d, p):
  """Both arms' xz entries, then both zz entries."""
  return horizontal(m, d, p) + vertical(m, d, p)


OBSERVATION = declare.Observation(PARAMS, orientations, features.velocity)


@declare.reward(PARAMS)
def reward(m, d, p):
  """1 with the tip inside the target sphere; outside, 0 (sparse) or a Gaussian fall-off to
  0.1 at 1 m."""
  return rewards.tolerance(
    to_target(m, d, p), bounds=(0, target_radius(m, d, p)), margin=0.0 if p.sparse else 1.0
  )


class Physics(declare.Physics):
  """The acrobot's quantities."""

  params = PARAMS
  features = (horizontal, vertical, to_target, target_radius, orientations)


class Balance(declare.Task):
  """Rewards bringing the tip inside the target sphere (dense: a Gaussian fall-off)."""

  observation = OBSERVATION
  reward = reward

  def __init__(self, sparse, random=None):
    """`sparse`: reward 1 inside the target and 0 elsewhere, instead of a smooth fall-off."""
    self.sparse = sparse
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Shoulder and elbow angles uniform in [-pi, pi), drawn together."""
    physics.named.data.qpos[["shoulder", "elbow"]] = self.random.uniform(-np.pi, np.pi, 2)
    super().initialize_episode(physics)
