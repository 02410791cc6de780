"""Gymnasium's MuJoCo environments: env.step per second on our engine and on MuJoCo.

Run: python benchmarks/gym_mujoco.py [--steps N] [--repeats R] [ENV ...]

Each library runs in its own process (both are imported as `mujoco`: ours through
`engine.install_as_mujoco()`), the two taking turns per repeat. An environment is made, reset
with seed 0 and stepped N times with uniform random actions (reset when an episode ends, not
timed); the figure is the best of R repeats. `ratio` is our time per step / MuJoCo's (below 1:
ours is faster). Needs gymnasium and imageio (the test extra).
"""

import argparse
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests.engine.test_gymnasium import NAMES  # noqa: E402 (the eleven v5 environments)

_WORKER = """
import json, sys, time
import numpy as np
if sys.argv[1] == "ours":
  import engine
  engine.install_as_mujoco()
import gymnasium as gym
out = {}
for name in sys.argv[3].split(","):
  env = gym.make(name)
  env.reset(seed=0)
  rng = np.random.default_rng(0)
  shape = (50 + int(sys.argv[2]),) + env.action_space.shape
  actions = rng.uniform(env.action_space.low, env.action_space.high, shape)
  for a in actions[:50]:  # warm-up
    if any(env.step(a)[2:4]):
      env.reset()
  elapsed = 0.0
  for a in actions[50:]:
    t0 = time.perf_counter()
    done = any(env.step(a)[2:4])
    elapsed += time.perf_counter() - t0
    if done:
      env.reset()
  out[name] = elapsed / int(sys.argv[2])
print(json.dumps(out))
"""


def _run(lib, steps, names):
  done = subprocess.run(
    [sys.executable, "-c", _WORKER, lib, str(steps), ",".join(names)],
    capture_output=True,
    text=True,
    check=True,
  )
  return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("names", nargs="*", default=NAMES)
  parser.add_argument("--steps", type=int, default=2000)
  parser.add_argument("--repeats", type=int, default=3)
  args = parser.parse_args(argv)
  best = {lib: {name: float("inf") for name in args.names} for lib in ("ours", "mujoco")}
  for _ in range(args.repeats):
    for lib in best:
      for name, seconds in _run(lib, args.steps, args.names).items():
        best[lib][name] = min(best[lib][name], seconds)
  print(f"{'environment':28s} {'ours µs':>9s} {'MuJoCo µs':>10s} {'ratio':>6s}")
  for name in args.names:
    ours, theirs = 1e6 * best["ours"][name], 1e6 * best["mujoco"][name]
    print(f"{name:28s} {ours:9.1f} {theirs:10.1f} {ours / theirs:6.2f}")
  return 0


if __name__ == "__main__":
  sys.exit(main())
