"""Soccer: milliseconds per env.step and per env.reset, ours vs dm_control.

Run: python benchmarks/soccer.py [--steps N] [--resets K] [--repeats R] [CONFIG ...]

CONFIGs are TEAMSIZE_WALKER (default: 2_BOXHEAD 1_BOXHEAD 2_ANT). Each is loaded with
`soccer.load(team_size, walker_type=..., random_state=0)` in both libraries and stepped with
the same uniform random actions for every player, one `env.step` per action list as RL loops
call it (all players' observations, rewards and discount included). `step` is the best of R
runs of N steps, each from a fresh reset (resets after an episode ends are not timed); `reset`
the best of R runs of K resets (both compile the model at every reset: the pitch's size is
drawn anew). The two libraries take turns within each run. `speedup` is dm_control's time /
ours (above 1: ours is faster).
"""

import argparse
import os
import pathlib
import sys

os.environ.setdefault("MUJOCO_GL", "disable")

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from locomotion import _reset_seconds  # noqa: E402
from locomotion import _step_seconds  # noqa: E402

from suite.locomotion import soccer  # noqa: E402

try:
  from dm_control.locomotion import soccer as dm_soccer
except ImportError:  # the comparison is optional
  dm_soccer = None

DEFAULT_CONFIGS = ("2_BOXHEAD", "1_BOXHEAD", "2_ANT")


def _load(module, config):
  team_size, walker = config.split("_", 1)
  return module.load(int(team_size), walker_type=module.WalkerType[walker], random_state=0)


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("configs", nargs="*", default=DEFAULT_CONFIGS)
  parser.add_argument("--steps", type=int, default=200)
  parser.add_argument("--resets", type=int, default=10)
  parser.add_argument("--repeats", type=int, default=3)
  args = parser.parse_args(argv)
  print(f"{'config':12s} {'what':6s} {'ours ms':>9s} {'dm ms':>9s} {'speedup':>7s}")
  for config in args.configs:
    envs = {"ours": _load(soccer, config)}
    if dm_soccer is not None:
      envs["dm"] = _load(dm_soccer, config)
    specs = envs["ours"].action_spec()
    rng = np.random.RandomState(0)
    actions = [[rng.uniform(s.minimum, s.maximum) for s in specs] for _ in range(args.steps)]
    for env in envs.values():  # warm up (numba, caches)
      _step_seconds(env, actions[:5])
    best = {what: {name: np.inf for name in envs} for what in ("step", "reset")}
    for _ in range(args.repeats):
      for name, env in envs.items():
        best["step"][name] = min(best["step"][name], _step_seconds(env, actions) / args.steps)
        best["reset"][name] = min(
          best["reset"][name], _reset_seconds(env, args.resets) / args.resets
        )
    for what, times in best.items():
      ours = 1e3 * times["ours"]
      if "dm" in times:
        theirs = 1e3 * times["dm"]
        print(f"{config:12s} {what:6s} {ours:9.3f} {theirs:9.3f} {theirs / ours:6.2f}x")
      else:
        print(f"{config:12s} {what:6s} {ours:9.3f} {'-':>9s} {'-':>7s}")
  return 0


if __name__ == "__main__":
  sys.exit(main())
