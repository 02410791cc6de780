"""The Jaco arm and hand with the manipulation tasks' observable settings."""

from composer import task as task_module
from composer.manipulators import kinova
from suite.manipulation.shared import observations

ARM_OFFSET = (0., 0.4, 0.)  # where the arm's base stands, from the arena's origin


def make_arm(obs_settings):
  """A Jaco arm whose observables are configured by `obs_settings`."""
  return kinova.JacoArm(observable_options=observations.make_options(
    obs_settings, observations.JACO_ARM_OBSERVABLES))


def make_hand(obs_settings):
  """A Jaco hand whose tool centre point is its pinch site, its observables configured by
  `obs_settings`."""
  return kinova.JacoHand(use_pinch_site_as_tcp=True, observable_options=observations.make_options(
    obs_settings, observations.JACO_HAND_OBSERVABLES))


class ArmTask(task_module.Task):
  """A task of an arm and hand in an arena: the properties every manipulation task has, read
  from the `_arena`, `_arm`, `_hand` and `_task_observables` its constructor sets."""

  @property
  def root_entity(self):
    return self._arena

  @property
  def arm(self):
    return self._arm

  @property
  def hand(self):
    return self._hand

  @property
  def task_observables(self):
    return self._task_observables
