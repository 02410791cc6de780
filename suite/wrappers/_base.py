"""What every wrapper shares: everything not overridden goes to the wrapped environment."""

import dm_env


class Wrapper(dm_env.Environment):
  """Delegates reset, step, specs and any other attribute to the wrapped environment."""

  def __init__(self, env):
    self._env = env

  def reset(self):
    return self._env.reset()

  def step(self, action):
    return self._env.step(action)

  def observation_spec(self):
    return self._env.observation_spec()

  def action_spec(self):
    return self._env.action_spec()

  def step_spec(self):
    return self._env.step_spec()

  def __getattr__(self, name):
    return getattr(self._env, name)
