"""The time the physics spends stepping, as an observation (dm_control's
`wrappers.mujoco_profiling`).

dm_control reads MuJoCo's mjTIMER_STEP; our engine has no internal timers, so the wrapper
times the physics step calls of the environment itself: the observation is
[seconds spent in physics steps, number of physics steps] since the episode began.
"""

import time

import numpy as np
from dm_env import specs

from suite.wrappers import _base


class Wrapper(_base.Wrapper):
  """Adds `observation_key` (2,): cumulative physics step time (s) and step count."""

  def __init__(self, env, observation_key="step_timing"):
    super().__init__(env)
    self._observation_key = observation_key
    self._duration = 0.0
    self._count = 0
    physics = env.physics
    step = physics.step

    def timed_step(nstep=1):
      t0 = time.perf_counter()
      try:
        step(nstep)
      finally:
        self._duration += time.perf_counter() - t0
        self._count += nstep

    physics.step = timed_step  # the environment steps through this

  def reset(self):
    self._duration = 0.0
    self._count = 0
    return self._with_timing(self._env.reset())

  def step(self, action):
    return self._with_timing(self._env.step(action))

  def observation_spec(self):
    spec = self._env.observation_spec().copy()
    spec[self._observation_key] = specs.Array(
      shape=(2,), dtype=np.float64, name=self._observation_key
    )
    return spec

  def _with_timing(self, time_step):
    observation = time_step.observation.copy()
    observation[self._observation_key] = np.array([self._duration, self._count], np.float64)
    return time_step._replace(observation=observation)
