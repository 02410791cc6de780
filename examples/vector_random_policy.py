"""Random-policy throughput of a vectorised suite environment.

Steps `--num-envs` worlds of a suite task with uniform random actions for `--steps` batched
steps (episodes restart on their own at their time limit) and prints environment steps per
second, the mean reward and how many episodes ended.

  python examples/vector_random_policy.py [--domain cheetah] [--task run] [--num-envs 256]
                                          [--steps 500] [--seed 0]
"""

import argparse
import time

import dm_env
import numpy as np

import suite


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--domain", default="cheetah")
  parser.add_argument("--task", default="run")
  parser.add_argument("--num-envs", type=int, default=256)
  parser.add_argument("--steps", type=int, default=500)
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args(argv)

  t0 = time.perf_counter()
  env = suite.load(
    args.domain, args.task, task_kwargs={"random": args.seed}, num_envs=args.num_envs
  )
  env.reset()
  print(
    f"{args.num_envs} worlds of {args.domain}/{args.task} built and reset in "
    f"{time.perf_counter() - t0:.1f} s"
  )
  spec = env.action_spec()
  rng = np.random.RandomState(args.seed)
  total_reward, episodes = 0.0, 0
  t0 = time.perf_counter()
  for _ in range(args.steps):
    actions = rng.uniform(spec.minimum, spec.maximum, (args.num_envs,) + spec.shape)
    time_step = env.step(actions)
    total_reward += time_step.reward.sum()
    episodes += int((time_step.step_type == dm_env.StepType.LAST).sum())
  elapsed = time.perf_counter() - t0
  steps = args.steps * args.num_envs
  print(
    f"{steps:,} environment steps in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s; "
    f"mean reward {total_reward / steps:.3f}, {episodes} episodes ended"
  )
  return steps / elapsed


if __name__ == "__main__":
  main()
