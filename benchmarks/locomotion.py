"""Locomotion examples: milliseconds per env.step and per env.reset, ours vs dm_control.

Run: python benchmarks/locomotion.py [--steps N] [--resets K] [--repeats R] [BUILDER ...]

Each builder of suite.locomotion.examples (default: all of them) is built in both libraries with
the same seed and stepped with the same uniform random actions, one `env.step` per action as
RL loops call it (observations, reward and discount included). Each is measured twice: with
the walker's egocentric camera observable on (a 64x64 frame rendered at every step, through
the OpenGL of MUJOCO_GL, default egl; cmu_humanoid_go_to_target's builder leaves it off, and it
is turned on here for the comparison) and off. `step` is the best of R runs of N steps, each
from a fresh reset (resets, also those after an episode ends, are not timed); `reset` the best
of R runs of K resets (dm_control compiles the model at every reset, ours when the episode's
MJCF changed: a new corridor, moved targets). The two libraries take turns within each run, so
that load from elsewhere on the machine hits both alike. `build` is the builder plus the first
reset. `ratio` is ours / dm_control's.
"""

import argparse
import os
import pathlib
import statistics
import sys
import time

os.environ.setdefault("MUJOCO_GL", "egl")

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from suite.locomotion import examples  # noqa: E402

try:
  from dm_control.locomotion.examples import basic_cmu_2019 as dm_basic_cmu_2019
  from dm_control.locomotion.examples import basic_rodent_2020 as dm_basic_rodent_2020
except ImportError:  # the comparison is optional
  dm_basic_cmu_2019 = dm_basic_rodent_2020 = None


def _dm_builder(name):
  module = dm_basic_cmu_2019 if name.startswith("cmu") else dm_basic_rodent_2020
  return getattr(module, name)


def _build(builder, seed=0):
  t0 = time.perf_counter()
  env = builder(random_state=seed)
  env.reset()
  return env, time.perf_counter() - t0


def _set_camera(env, enabled):
  """Turns the walker's egocentric camera observable on or off (from the next reset)."""
  for entity in env.task.root_entity.iter_entities():
    camera = getattr(entity.observables, "egocentric_camera", None)
    if camera is not None:
      camera.enabled = enabled


def _step_seconds(env, actions):
  """Seconds in env.step over `actions`; an episode that ends (the humanoid falls within ~15
  steps of random actions) is reset untimed."""
  env.reset()
  total = 0.0
  for action in actions:
    t0 = time.perf_counter()
    last = env.step(action).last()
    total += time.perf_counter() - t0
    if last:
      env.reset()
  return total


def _reset_seconds(env, n_resets):
  t0 = time.perf_counter()
  for _ in range(n_resets):
    env.reset()
  return time.perf_counter() - t0


def _best_ms(envs, measure, count, repeats):
  """Best of `repeats` runs of measure(env), per env in milliseconds per unit of `count`; the
  envs take turns within each run."""
  best = [float("inf")] * len(envs)
  for _ in range(repeats):
    for k, env in enumerate(envs):
      best[k] = min(best[k], measure(env))
  return [1e3 * b / count for b in best]


def _cell(value, width, digits):
  """`value` in a column of `width`, or a dash without dm_control."""
  return f"{value:{width}.{digits}f}" if value is not None else "-".rjust(width)


def _ratio(ours, theirs):
  return _cell(None if theirs is None else ours / theirs, 6, 2)


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("builders", nargs="*", help="builder names (default: all)")
  parser.add_argument("--steps", type=int, default=100)
  parser.add_argument("--resets", type=int, default=3)
  parser.add_argument("--repeats", type=int, default=3)
  args = parser.parse_args(argv)
  unknown = sorted(set(args.builders) - set(examples.ALL_BUILDERS))
  if unknown:
    parser.error(
      f"unknown builders {unknown}; the builders are: {', '.join(examples.ALL_BUILDERS)}"
    )
  names = args.builders or [
    name for name in examples.ALL_BUILDERS if name not in examples.MOCAP_BUILDERS
  ]
  compare = dm_basic_cmu_2019 is not None

  header = (
    f"{'builder':33s} {'camera':6s} {'step ms':>8s} {'dm ms':>8s} {'ratio':>6s} "
    f"{'reset ms':>8s} {'dm ms':>8s} {'ratio':>6s} {'build s':>7s} {'dm s':>6s}"
  )
  print(header)
  print("-" * len(header))
  step_ratios, reset_ratios = [], []
  for name in names:
    envs, builds = zip(
      *[_build(b) for b in [examples.ALL_BUILDERS[name]] + ([_dm_builder(name)] if compare else [])]
    )
    spec = envs[0].action_spec()
    actions = np.random.RandomState(1).uniform(
      spec.minimum, spec.maximum, size=(args.steps,) + spec.shape
    )
    for camera in (True, False):
      for env in envs:
        _set_camera(env, camera)
        env.reset()
      step = _best_ms(envs, lambda env: _step_seconds(env, actions), args.steps, args.repeats)
      reset = _best_ms(
        envs, lambda env: _reset_seconds(env, args.resets), args.resets, args.repeats
      )
      theirs_step, theirs_reset, theirs_build = (
        (step[1], reset[1], builds[1]) if compare else (None, None, None)
      )
      if compare:
        step_ratios.append(step[0] / step[1])
        reset_ratios.append(reset[0] / reset[1])
      print(
        f"{name:33s} {'on' if camera else 'off':6s} {step[0]:8.2f} "
        f"{_cell(theirs_step, 8, 2)} {_ratio(step[0], theirs_step)} {reset[0]:8.1f} "
        f"{_cell(theirs_reset, 8, 1)} {_ratio(reset[0], theirs_reset)} {builds[0]:7.2f} "
        f"{_cell(theirs_build, 6, 2)}",
        flush=True,
      )
  if step_ratios:
    print(
      f"\nratio ours/dm_control: env.step median {statistics.median(step_ratios):.2f} "
      f"(max {max(step_ratios):.2f}), env.reset median {statistics.median(reset_ratios):.2f} "
      f"(max {max(reset_ratios):.2f})"
    )


if __name__ == "__main__":
  main()
