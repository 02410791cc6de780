"""Your own task, batched: a cheetah that runs backward, declared once (suite/declare.py) and
stepped as N worlds in one jitted call (suite/vector.py), each world's trajectory bitwise the
one a single environment gives.

  python examples/custom_task_batched.py            # 256 worlds: steps/s, and the check

The task reuses the cheetah's model and episode start (suite/cheetah.py) and declares its own
parameters, features, observation and reward; nothing else is needed for it to run batched.
"""

import time

import numpy as np

from suite import cheetah
from suite import control
from suite import declare
from suite import features
from suite import vector
from suite.utils import rewards

_TIME_LIMIT = 10  # seconds per episode

PARAMS = declare.Params(
  torso=declare.body("torso"),
  torso_velocity=declare.sensor("torso_subtreelinvel"),
  target_speed=declare.number(),
)  # the task's `target_speed`


@declare.feature(())
def backward_speed(m, d, p):
  """Backward (-x) velocity of the torso subtree's centre of mass."""
  return -d.sensordata[p.torso_velocity]


@declare.feature(())
def torso_height(m, d, p):
  return d.xpos[p.torso, 2]


OBSERVATION = declare.Observation(
  PARAMS, ("position", features.position_without_x), features.velocity, torso_height
)


@declare.reward(PARAMS)
def reward(m, d, p):
  """Backward speed, linearly up to the target speed, weighted up when the torso stays low."""
  run = rewards.tolerance(
    backward_speed(m, d, p),
    bounds=(p.target_speed, np.inf),
    margin=p.target_speed,
    value_at_margin=0,
    sigmoid="linear",
  )
  low = rewards.tolerance(torso_height(m, d, p), bounds=(0.0, 0.6), margin=0.3)
  return run * (1 + low) / 2


class RunBackward(cheetah.Cheetah):
  """The cheetah's episode start; runs backward for its reward."""

  observation = OBSERVATION
  reward = reward

  def __init__(self, target_speed=4.0, random=None):
    self.target_speed = target_speed
    super().__init__(random=random)


def environment(seed, time_limit=_TIME_LIMIT):
  """A single environment of the task, its random state seeded with `seed`."""
  physics = cheetah.Physics.from_xml_string(*cheetah.get_model_and_assets())
  return control.Environment(physics, RunBackward(random=seed), time_limit=time_limit)


def batched(num_envs, seed, time_limit=_TIME_LIMIT):
  """`num_envs` worlds of the task; world i is `environment(vector.world_seed(seed, i))`."""
  worlds = [environment(vector.world_seed(seed, i), time_limit) for i in range(num_envs)]
  return vector.VectorEnvironment(worlds, seed=seed)


def main(num_envs=256, num_steps=200, seed=0):
  env = batched(num_envs, seed)
  rng = np.random.RandomState(seed)
  spec = env.action_spec()
  actions = rng.uniform(spec.minimum, spec.maximum, (num_steps, num_envs, spec.shape[0]))
  env.reset()
  start = time.perf_counter()
  rewards_ = [env.step(a).reward for a in actions]
  elapsed = time.perf_counter() - start
  print(
    f"{num_envs} worlds x {num_steps} steps: {num_envs * num_steps / elapsed:,.0f} env "
    f"steps/s, mean reward {np.mean(rewards_):.3f}"
  )

  single = environment(vector.world_seed(seed, 1))  # world 1 on its own
  single.reset()
  same = all(single.step(a[1]).reward == r[1] for a, r in zip(actions, rewards_))
  print(f"world 1 stepped alone gives the batch's rewards bitwise: {same}")


if __name__ == "__main__":
  main()
