"""A Gymnasium vector environment over a vectorised suite environment (gymnasium optional).

  env = suite.gym_vector.GymVectorEnv(suite.load("cheetah", "run", num_envs=64))
  obs, info = env.reset(seed=0)
  obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

Gymnasium's "next-step" autoreset is the dm_env rule the batch follows: after a world's last
step the next `step` resets it (reward 0, neither terminated nor truncated, its action
ignored). A LAST step with discount 0 is `terminated`, any other LAST step (the time limit)
`truncated`. Observations are a Dict space of the task's keys, (num_envs, ...) each.
`reset(seed=s)` rebuilds nothing: it reseeds world i's task with world_seed(s, i) and resets.
"""

import numpy as np

try:
  import gymnasium
  from gymnasium import spaces
  from gymnasium.vector import AutoresetMode
except ImportError:
  raise ImportError("suite.gym_vector needs gymnasium: pip install 'numjoco[gymnasium]'") from None

import dm_env

from suite import vector


def _box(spec):
  low = getattr(spec, "minimum", -np.inf)
  high = getattr(spec, "maximum", np.inf)
  return spaces.Box(
    np.broadcast_to(low, spec.shape).astype(np.float64),
    np.broadcast_to(high, spec.shape).astype(np.float64),
    spec.shape,
    np.float64,
  )


class GymVectorEnv(gymnasium.vector.VectorEnv):
  """gymnasium.vector.VectorEnv over a suite.vector.VectorEnvironment."""

  metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

  def __init__(self, env: vector.VectorEnvironment):
    self.env = env
    self.num_envs = env.num_envs
    self.single_action_space = _box(env.action_spec())
    self.single_observation_space = spaces.Dict(
      {key: _box(spec) for key, spec in env.observation_spec().items()}
    )
    self.action_space = spaces.Box(
      np.tile(self.single_action_space.low, (self.num_envs, 1)),
      np.tile(self.single_action_space.high, (self.num_envs, 1)),
      dtype=np.float64,
    )
    self.observation_space = spaces.Dict(
      {
        key: spaces.Box(-np.inf, np.inf, (self.num_envs,) + space.shape, np.float64)
        for key, space in self.single_observation_space.items()
      }
    )

  def reset(self, *, seed=None, options=None):
    if seed is not None:
      self.env.seed = int(seed)
      for i, world in enumerate(self.env.worlds):
        world.task._random = np.random.RandomState(vector.world_seed(seed, i))
    time_step = self.env.reset()
    return dict(time_step.observation), {}

  def step(self, actions):
    time_step = self.env.step(actions)
    last = time_step.step_type == dm_env.StepType.LAST
    terminated = last & (time_step.discount == 0.0)
    truncated = last & ~terminated
    return (
      dict(time_step.observation),
      time_step.reward,
      terminated,
      truncated,
      {"discount": time_step.discount},
    )

  def close_extras(self, **kwargs):
    self.env.close()
