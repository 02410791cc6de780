"""Manipulation environments: milliseconds per env.step and per env.reset, ours vs dm_control.

Run: python benchmarks/manipulation.py [--steps N] [--resets K] [--repeats R] [NAME ...]

Each environment of suite.manipulation (default: all 25; `features` or `vision` selects a
variant) is loaded in both libraries with the same seed and stepped with the same uniform random
actions, one `env.step` per action as RL loops call it (observations, reward and discount
included). The `_vision` environments render their 84x84 front-close camera at every step,
through the OpenGL of MUJOCO_GL (default egl). `step` is the best of R runs of N steps, each from
a fresh reset (resets, also those after an episode ends, are not timed); `reset` the best of R
runs of K resets (placing the props and the arm by rejection sampling and inverse kinematics).
`load` is manipulation.load plus the first reset. The two libraries take turns within each run,
so that load from elsewhere on the machine hits both alike. `ratio` is ours / dm_control's.
"""

import argparse
import os
import statistics
import time

os.environ.setdefault("MUJOCO_GL", "egl")

import numpy as np  # noqa: E402
from locomotion import ROOT  # noqa: E402,F401  (puts the repository on sys.path)
from locomotion import _best_ms  # noqa: E402
from locomotion import _cell  # noqa: E402
from locomotion import _ratio  # noqa: E402
from locomotion import _reset_seconds  # noqa: E402
from locomotion import _step_seconds  # noqa: E402

from suite import manipulation  # noqa: E402

try:
  from dm_control import manipulation as dm_manipulation
except ImportError:  # the comparison is optional
  dm_manipulation = None


def _load(module, name, seed=0):
  t0 = time.perf_counter()
  env = module.load(name, seed=seed)
  env.reset()
  return env, time.perf_counter() - t0


def _names(selection):
  """The environments named, or those of a variant (`features`, `vision`), or all."""
  if not selection:
    return list(manipulation.ALL)
  names = []
  for item in selection:
    if item in ("features", "vision"):
      names += [name for name in manipulation.ALL if name.endswith("_" + item)]
    elif item in manipulation.ALL:
      names.append(item)
    else:
      raise SystemExit(
        f"unknown environment {item!r}; the environments are: "
        f"{', '.join(manipulation.ALL)} (or: features, vision)"
      )
  return names


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("names", nargs="*", help="environment names, or features / vision")
  parser.add_argument("--steps", type=int, default=100)
  parser.add_argument("--resets", type=int, default=3)
  parser.add_argument("--repeats", type=int, default=3)
  args = parser.parse_args(argv)
  names = _names(args.names)
  compare = dm_manipulation is not None

  header = (
    f"{'environment':40s} {'step ms':>8s} {'dm ms':>8s} {'ratio':>6s} {'reset ms':>8s} "
    f"{'dm ms':>8s} {'ratio':>6s} {'load s':>6s} {'dm s':>6s}"
  )
  print(header)
  print("-" * len(header))
  ratios = {"features": [], "vision": []}
  reset_ratios = []
  for name in names:
    modules = [manipulation] + ([dm_manipulation] if compare else [])
    envs, loads = zip(*[_load(module, name) for module in modules])
    spec = envs[0].action_spec()
    actions = np.random.RandomState(1).uniform(
      spec.minimum, spec.maximum, size=(args.steps,) + spec.shape
    )
    step = _best_ms(envs, lambda env: _step_seconds(env, actions), args.steps, args.repeats)
    reset = _best_ms(envs, lambda env: _reset_seconds(env, args.resets), args.resets, args.repeats)
    theirs_step, theirs_reset, theirs_load = (
      (step[1], reset[1], loads[1]) if compare else (None, None, None)
    )
    if compare:
      ratios["vision" if name.endswith("_vision") else "features"].append(step[0] / step[1])
      reset_ratios.append(reset[0] / reset[1])
    print(
      f"{name:40s} {step[0]:8.2f} {_cell(theirs_step, 8, 2)} {_ratio(step[0], theirs_step)} "
      f"{reset[0]:8.1f} {_cell(theirs_reset, 8, 1)} {_ratio(reset[0], theirs_reset)} "
      f"{loads[0]:6.2f} {_cell(theirs_load, 6, 2)}",
      flush=True,
    )
  print()
  for variant, values in ratios.items():
    if values:
      print(
        f"ratio ours/dm_control, {variant}: env.step median {statistics.median(values):.2f} "
        f"(max {max(values):.2f})"
      )
  if reset_ratios:
    print(
      f"ratio ours/dm_control: env.reset median {statistics.median(reset_ratios):.2f} "
      f"(max {max(reset_ratios):.2f})"
    )


if __name__ == "__main__":
  main()
