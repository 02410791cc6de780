"""Gaussian noise on every action, scaled to the action range (dm_control's
`wrappers.action_noise`)."""

import numpy as np

from suite.wrappers import _base


class Wrapper(_base.Wrapper):
  """Adds N(0, (scale * (maximum - minimum))^2) noise to each action, drawn from the task's
  RandomState, then clips the action to the spec's bounds."""

  def __init__(self, env, scale=0.01):
    """Raises ValueError if the action spec has infinite bounds (the noise is relative to
    the range)."""
    spec = env.action_spec()
    if not (np.all(np.isfinite(spec.minimum)) and np.all(np.isfinite(spec.maximum))):
      raise ValueError(f"`env.action_spec()` must specify finite bounds, got {spec}.")
    super().__init__(env)
    self._minimum = spec.minimum
    self._maximum = spec.maximum
    self._noise_std = scale * (spec.maximum - spec.minimum)

  def step(self, action):
    noisy = action + self._env.task.random.normal(scale=self._noise_std)
    # clip here too (MuJoCo clips controls itself) for actions that are not controls
    np.clip(noisy, self._minimum, self._maximum, out=noisy)
    return self._env.step(noisy)
