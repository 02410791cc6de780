"""Observation settings of the manipulation tasks: how each category of observable (robot
proprioception; force, torque and touch; prop poses; cameras) is configured, and the names
of the observables in each category."""

import collections

import numpy as np


class ObservableSpec(
  collections.namedtuple(
    "ObservableSpec",
    ["enabled", "update_interval", "buffer_size", "delay", "aggregator", "corruptor"],
  )
):
  """The options of a non-camera observable."""

  __slots__ = ()


class CameraObservableSpec(
  collections.namedtuple("CameraObservableSpec", ("height", "width") + ObservableSpec._fields)
):
  """The options of a camera observable: its image size, then ObservableSpec's."""

  __slots__ = ()


class ObservationSettings(
  collections.namedtuple("ObservationSettings", ["proprio", "ftt", "prop_pose", "camera"])
):
  """An observable spec per category."""

  __slots__ = ()


class ObservableNames(
  collections.namedtuple("ObservableNames", ["proprio", "ftt", "prop_pose", "camera"])
):
  """The names of observables per category (each empty by default)."""

  __slots__ = ()

  def __new__(cls, proprio=(), ftt=(), prop_pose=(), camera=()):
    return super().__new__(cls, proprio=proprio, ftt=ftt, prop_pose=prop_pose, camera=camera)


def _symlog1p(x, random_state):
  """sign(x) log(1 + |x|): compresses forces and torques, whose range spans decades, into a
  range a network takes well. A corruptor, so it takes (and ignores) the random state."""
  del random_state  # deterministic
  return np.sign(x) * np.log1p(abs(x))


_DISABLED_FEATURE = ObservableSpec(
  enabled=False, update_interval=1, buffer_size=1, delay=0, aggregator=None, corruptor=None
)
_ENABLED_FEATURE = _DISABLED_FEATURE._replace(enabled=True)

_DISABLED_FTT = _DISABLED_FEATURE._replace(corruptor=_symlog1p)
_ENABLED_FTT = _ENABLED_FEATURE._replace(corruptor=_symlog1p)

_DISABLED_CAMERA = CameraObservableSpec(
  height=84,
  width=84,
  enabled=False,
  update_interval=1,
  buffer_size=1,
  delay=0,
  aggregator=None,
  corruptor=None,
)
_ENABLED_CAMERA = _DISABLED_CAMERA._replace(enabled=True)

# the props' true poses, no camera
PERFECT_FEATURES = ObservationSettings(
  proprio=_ENABLED_FEATURE, ftt=_ENABLED_FTT, prop_pose=_ENABLED_FEATURE, camera=_DISABLED_CAMERA
)
# a camera instead of the props' poses
VISION = ObservationSettings(
  proprio=_ENABLED_FEATURE, ftt=_ENABLED_FTT, prop_pose=_DISABLED_FEATURE, camera=_ENABLED_CAMERA
)

JACO_ARM_OBSERVABLES = ObservableNames(proprio=["joints_pos", "joints_vel"], ftt=["joints_torque"])
JACO_HAND_OBSERVABLES = ObservableNames(
  proprio=["joints_pos", "joints_vel", "pinch_site_pos", "pinch_site_rmat"]
)
FREEPROP_OBSERVABLES = ObservableNames(
  prop_pose=["position", "orientation", "linear_velocity", "angular_velocity"]
)


def make_options(obs_settings, obs_names):
  """`{observable name: {option: value}}` for the observables named in `obs_names`
  (an ObservableNames), each with the options of its category in `obs_settings`."""
  options = {}
  for category, spec in obs_settings._asdict().items():
    for name in getattr(obs_names, category):
      options[name] = spec._asdict()
  return options
