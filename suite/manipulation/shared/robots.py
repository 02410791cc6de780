"""The Jaco arm and hand with the manipulation tasks' observable settings."""

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
