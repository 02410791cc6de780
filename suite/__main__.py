"""Run a suite task with a random policy: `python -m suite [DOMAIN TASK] [--episodes N]`.

Prints the task's specs, then each episode's return, length and speed (environment steps per
second, observation and reward included). The default task is cartpole swingup.
"""

import argparse
import sys
import time

import numpy as np

import suite


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(prog="python -m suite", description=__doc__.splitlines()[0])
  parser.add_argument("domain", nargs="?", default="cartpole")
  parser.add_argument("task", nargs="?", default="swingup")
  parser.add_argument("--episodes", type=int, default=1)
  parser.add_argument("--seed", type=int, default=0, help="task and policy seed")
  args = parser.parse_args(argv)

  t0 = time.perf_counter()
  try:
    env = suite.load(args.domain, args.task, task_kwargs={"random": args.seed})
  except ValueError as e:
    parser.error(str(e))
  env.reset()
  print(f"{args.domain}/{args.task}: loaded in {time.perf_counter() - t0:.2f} s")
  spec = env.action_spec()
  print(f"action: shape {spec.shape}, bounds [{np.min(spec.minimum):g}, {np.max(spec.maximum):g}]")
  for key, value in env.observation_spec().items():
    print(f"observation {key!r}: shape {value.shape}")

  rng = np.random.RandomState(args.seed)
  lo, hi = np.maximum(spec.minimum, -1), np.minimum(spec.maximum, 1)
  for episode in range(args.episodes):
    time_step = env.reset()
    total, steps = 0.0, 0
    t0 = time.perf_counter()
    while not time_step.last():
      time_step = env.step(rng.uniform(lo, hi))
      total += time_step.reward
      steps += 1
    wall = time.perf_counter() - t0
    print(f"episode {episode}: return {total:.2f} in {steps} steps, "
          f"{steps / wall:.0f} steps/s ({1e6 * wall / steps:.1f} us per env.step)")
  return 0


if __name__ == "__main__":
  sys.exit(main())
