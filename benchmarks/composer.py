"""Composer: microseconds per env.step and milliseconds per reset, ours vs dm_control.

Run: python benchmarks/composer.py [--steps N] [--repeats R]

The same task definition (tests/composer/twin_tasks.py: a capsule creature with a motorized
hinge, free-jointed in an arena with a floor, with buffered, delayed, aggregated and noisy
observables and hooks on the task and the entity) is built once on dm_control's Composer and
once on ours, and stepped with the same random actions. Each figure is the best of R runs.
Resets are timed twice: with the MJCF unchanged between episodes (we reuse the compiled
model, dm_control recompiles) and with a geom resized at every episode (both recompile).
"""

import argparse
import os
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("MUJOCO_GL", "disable")

from tests.composer import twin_tasks  # noqa: E402


def _us_per_step(env, n_steps, repeats):
  actions = np.random.RandomState(1).uniform(-1, 1, size=(n_steps, 1))
  best = float("inf")
  for _ in range(repeats):
    env.reset()
    t0 = time.perf_counter()
    for action in actions:
      env.step(action)
    best = min(best, time.perf_counter() - t0)
  return 1e6 * best / n_steps


def _ms_per_reset(env, n_resets, repeats):
  best = float("inf")
  for _ in range(repeats):
    t0 = time.perf_counter()
    for _ in range(n_resets):
      env.reset()
    best = min(best, time.perf_counter() - t0)
  return 1e3 * best / n_resets


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--steps", type=int, default=1000)
  parser.add_argument("--repeats", type=int, default=3)
  args = parser.parse_args(argv)
  rows = []
  for label, kwargs in (
    ("step", {}),
    ("reset, same MJCF", {}),
    ("reset, resized geom", {"resize_every_episode": True}),
  ):
    values = []
    for ours in (True, False):
      env = twin_tasks.make_env(ours, **kwargs)
      env.reset()
      if label == "step":
        values.append(_us_per_step(env, args.steps, args.repeats))
      else:
        values.append(_ms_per_reset(env, 20, args.repeats))
    unit = "us" if label == "step" else "ms"
    rows.append((label, unit, values[0], values[1]))
  print("| measure | ours | dm_control | ratio |")
  print("|---|---|---|---|")
  for label, unit, ours, theirs in rows:
    print(f"| {label} ({unit}) | {ours:.1f} | {theirs:.1f} | {ours / theirs:.2f} |")


if __name__ == "__main__":
  main()
