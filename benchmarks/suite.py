"""Microseconds per env.step of every Control Suite task, ours vs dm_control, in one run.

Run: python benchmarks/suite.py [--steps N] [--repeats R] [DOMAIN[/TASK] ...]

Each task is loaded in both libraries with the same seed and stepped with the same uniform
random actions, one `env.step` per action as RL loops call it (observation, reward and
discount included). A column reports the best of R runs of N steps, each run from a fresh
reset; `ratio` is ours / dm_control's. `load` is `suite.load` + the first `reset`, in a process
where the engine is already imported and compiled (model parsing and compilation counted).
Start-up of the engine itself is measured by benchmarks/startup.py.
"""

import argparse
import os
import pathlib
import statistics
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import suite  # noqa: E402

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context
try:
  from dm_control import suite as dm_suite
except ImportError:  # the comparison is optional
  dm_suite = None
else:
  # quadruped/escape's reset uploads its height field to a GL context, which physics needs not
  dm_suite.quadruped.Physics.contexts = property(lambda self: None)


def _load(library, domain, task, seed=0):
  t0 = time.perf_counter()
  env = library.load(domain, task, task_kwargs={"random": seed})
  env.reset()
  return env, time.perf_counter() - t0


def _actions(env, n, seed=1):
  spec = env.action_spec()
  rng = np.random.RandomState(seed)
  return rng.uniform(spec.minimum, spec.maximum, size=(n,) + spec.shape)


def _us_per_step(env, actions, repeats):
  """Best of `repeats` runs over `actions`, each from a fresh reset (not timed)."""
  best = float("inf")
  for _ in range(repeats):
    env.reset()
    t0 = time.perf_counter()
    for action in actions:
      if env.step(action).last():
        env.reset()
    best = min(best, time.perf_counter() - t0)
  return 1e6 * best / len(actions)


def _selected(patterns):
  if not patterns:
    return list(suite.ALL_TASKS)
  out = []
  for domain, task in suite.ALL_TASKS:
    if any(p in (domain, f"{domain}/{task}") for p in patterns):
      out.append((domain, task))
  return out


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("tasks", nargs="*", help="domains or domain/task (default: all 51)")
  parser.add_argument("--steps", type=int, default=300)
  parser.add_argument("--repeats", type=int, default=3)
  args = parser.parse_args()

  suite.load("pendulum", "swingup").reset()  # import and link the engine before timing
  header = (
    f"{'task':30s} {'ours µs':>9s} {'dm µs':>9s} {'ratio':>6s} {'load s':>7s} {'dm load':>7s}"
  )
  print(header)
  print("-" * len(header))
  ratios = []
  for domain, task in _selected(args.tasks):
    ours, ours_load = _load(suite, domain, task)
    actions = _actions(ours, args.steps)
    ours_us = _us_per_step(ours, actions, args.repeats)
    line = f"{domain + '/' + task:30s} {ours_us:9.1f}"
    if dm_suite is None:
      print(f"{line} {'-':>9s} {'-':>6s} {ours_load:7.2f}", flush=True)
      continue
    theirs, dm_load = _load(dm_suite, domain, task)
    dm_us = _us_per_step(theirs, actions, args.repeats)
    ratios.append(ours_us / dm_us)
    print(f"{line} {dm_us:9.1f} {ratios[-1]:6.2f} {ours_load:7.2f} {dm_load:7.2f}", flush=True)
  if ratios:
    print(
      f"\nratio ours/dm_control: median {statistics.median(ratios):.2f}, "
      f"max {max(ratios):.2f}, tasks over 1.5x: {sum(r > 1.5 for r in ratios)}"
    )


if __name__ == "__main__":
  main()
