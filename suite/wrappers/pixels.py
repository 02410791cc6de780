"""Camera images as observations (dm_control's `wrappers.pixels`)."""

import collections

import numpy as np
from dm_env import specs

from suite.wrappers import _base

STATE_KEY = "state"


class Wrapper(_base.Wrapper):
  """Adds `observation_key`: the image `physics.render(**render_kwargs)` after every step.

  With `pixels_only` the image is the only observation; otherwise the state observations are
  kept (under their own keys, or under STATE_KEY when the environment's observation is not a
  dict). Needs the engine's renderer: without one, construction raises its
  RenderingUnavailableError, which says why.
  """

  def __init__(self, env, pixels_only=True, render_kwargs=None, observation_key="pixels"):
    """Raises:
    ValueError: `observation_key` collides with a state observation key.
    """
    super().__init__(env)
    self._pixels_only = pixels_only
    self._render_kwargs = dict(render_kwargs or {})
    self._observation_key = observation_key
    state_spec = env.observation_spec()
    if isinstance(state_spec, collections.abc.MutableMapping):
      self._state_is_dict = True
      invalid = set(state_spec) & {observation_key}
      if invalid and not pixels_only:
        raise ValueError(f"Duplicate or reserved observation key {observation_key!r}.")
    else:
      self._state_is_dict = False
      state_spec = collections.OrderedDict([(STATE_KEY, state_spec)])
    spec = collections.OrderedDict() if pixels_only else collections.OrderedDict(state_spec)
    pixels = env.physics.render(**self._render_kwargs)
    spec[observation_key] = specs.Array(
      shape=pixels.shape, dtype=pixels.dtype, name=observation_key
    )
    self._observation_spec = spec

  def reset(self):
    return self._with_pixels(self._env.reset())

  def step(self, action):
    return self._with_pixels(self._env.step(action))

  def observation_spec(self):
    return self._observation_spec

  def _with_pixels(self, time_step):
    observation = collections.OrderedDict()
    if not self._pixels_only:
      if self._state_is_dict:
        observation.update(time_step.observation)
      else:
        observation[STATE_KEY] = time_step.observation
    observation[self._observation_key] = np.asarray(self._env.physics.render(**self._render_kwargs))
    return time_step._replace(observation=observation)
