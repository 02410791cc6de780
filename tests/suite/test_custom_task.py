"""A task written outside the suite on suite/declare.py (examples/custom_task_batched.py):
its jitted reward is the formula it declares, and batched it is the single environment."""

import numpy as np

from examples import custom_task_batched as example
from suite import vector
from suite.utils import rewards


def test_declared_reward_is_its_formula_in_python():
  env = example.environment(seed=3)
  env.reset()
  spec = env.action_spec()
  rng = np.random.RandomState(0)
  for _ in range(20):
    step = env.step(rng.uniform(spec.minimum, spec.maximum))
    physics = env.physics
    speed = -physics.named.data.sensordata["torso_subtreelinvel"][0]
    height = physics.named.data.xpos["torso", "z"]
    run = rewards.tolerance(
      speed, bounds=(4.0, np.inf), margin=4.0, value_at_margin=0, sigmoid="linear"
    )
    low = rewards.tolerance(height, bounds=(0.0, 0.6), margin=0.3)
    assert step.reward == run * (1 + low) / 2
    assert step.observation["torso_height"] == height


def test_batched_worlds_are_single_environments_bitwise():
  num_envs, seed, time_limit = 3, 7, 0.3  # 30 steps an episode: 45 steps cross a restart
  env = example.batched(num_envs, seed, time_limit)
  singles = [example.environment(vector.world_seed(seed, i), time_limit) for i in range(num_envs)]
  spec = env.action_spec()
  rng = np.random.RandomState(1)
  batch = env.reset()
  alone = [s.reset() for s in singles]
  restarts = 0
  for t in range(45):
    if t:
      actions = rng.uniform(spec.minimum, spec.maximum, (num_envs, spec.shape[0]))
      batch = env.step(actions)
      alone = [s.step(a) for s, a in zip(singles, actions)]
    restarts += sum(step.first() for step in alone) if t else 0
    for i, step in enumerate(alone):
      assert batch.step_type[i] == step.step_type
      if not step.first():
        assert batch.reward[i] == step.reward and batch.discount[i] == step.discount
      for key, value in step.observation.items():
        np.testing.assert_array_equal(batch.observation[key][i], value)
  assert restarts == num_envs  # every world restarted once, after its 30th step
