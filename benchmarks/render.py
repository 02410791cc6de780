"""Rendering speed: milliseconds per RGB frame of `physics.render`, ours vs dm_control/MuJoCo.

Run: python benchmarks/render.py [--frames N] [--rounds R] [--domains cartpole,cheetah,...]

For each suite domain (default cartpole, cheetah, humanoid, quadruped) both stacks load the
task, take a few random steps, then render camera 0 at 84x84, 240x320 and 480x640, one
`physics.render(height, width, camera_id=0)` call per frame (scene update, drawing and
read-back included, as pixel-based RL calls it), moving the state between frames so nothing is
cached across frames that a real rollout would change. Both use the same OpenGL: MUJOCO_GL
(default egl, Mesa's llvmpipe on machines without a GPU). The ratio column is ours / MuJoCo
(lower is better).
"""

import argparse
import os
import pathlib
import sys
import time

os.environ.setdefault("MUJOCO_GL", "egl")

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import suite  # noqa: E402

try:
  from dm_control import suite as dm_suite
except ImportError:  # the comparison is optional
  dm_suite = None

SIZES = ((84, 84), (240, 320), (480, 640))
TASKS = {
  "cartpole": "swingup",
  "cheetah": "run",
  "humanoid": "walk",
  "quadruped": "walk",
  "walker": "walk",
  "finger": "spin",
  "hopper": "hop",
  "acrobot": "swingup",
}


def _render_time(env, height, width, nframe, rng):
  """Seconds spent in nframe renders, a random step between frames."""
  spec = env.action_spec()
  elapsed = 0.0
  for _ in range(nframe):
    env.step(rng.uniform(spec.minimum, spec.maximum))
    t0 = time.perf_counter()
    env.physics.render(height, width, camera_id=0)
    elapsed += time.perf_counter() - t0
  return elapsed


def _ms_per_frame(envs, height, width, nframe, rounds):
  """Best over `rounds` runs of nframe renders, for each env, in milliseconds. The envs take
  turns within each round, so that load from elsewhere on the machine hits both alike."""
  best = [float("inf")] * len(envs)
  rng = np.random.RandomState(0)
  for env in envs:
    env.physics.render(height, width, camera_id=0)  # contexts, uploads
  for _ in range(rounds):
    for k, env in enumerate(envs):
      best[k] = min(best[k], _render_time(env, height, width, nframe, rng))
  return [1e3 * b / nframe for b in best]


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--frames", type=int, default=20)
  parser.add_argument("--rounds", type=int, default=5)
  parser.add_argument("--domains", default="cartpole,cheetah,humanoid,quadruped")
  args = parser.parse_args(argv)
  print(
    f"MUJOCO_GL={os.environ['MUJOCO_GL']}, ms per frame "
    f"(best of {args.rounds} rounds of {args.frames} frames, the two stacks taking turns)"
  )
  header = "| domain | size | ours ms | MuJoCo ms | ratio |"
  print(header)
  print("|---|---|---|---|---|")
  for domain in args.domains.split(","):
    task = TASKS.get(domain)
    if task is None:
      parser.error(f"unknown domain {domain!r}; known: {sorted(TASKS)}")
    ours = suite.load(domain, task, task_kwargs={"random": 0})
    ours.reset()
    theirs = None
    if dm_suite is not None:
      theirs = dm_suite.load(domain, task, task_kwargs={"random": 0})
      theirs.reset()
    for height, width in SIZES:
      if theirs is None:
        (a,) = _ms_per_frame([ours], height, width, args.frames, args.rounds)
        print(f"| {domain} | {height}x{width} | {a:.2f} | - | - |")
        continue
      a, b = _ms_per_frame([ours, theirs], height, width, args.frames, args.rounds)
      print(f"| {domain} | {height}x{width} | {a:.2f} | {b:.2f} | {a / b:.2f} |")


if __name__ == "__main__":
  main()
