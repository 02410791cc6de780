"""Microseconds per mj_step called once per step, ours and MuJoCo's measured in turn.

Run: python benchmarks/interleaved.py [--repeats R] [--steps N] [MODEL ...]

Both engines load the same MJCF; MuJoCo steps 200 times and its full physics state is copied
into ours, then each repetition times N one-call steps of ours and then of MuJoCo's from that
state. Alternating the two in one process keeps a busy host's drift out of the ratio, which a
script timing one engine after the other does not (the real-world models swung 1.4x-2.5x that
way). Best of R. MODEL: a name below or a path to an MJCF file.
"""

import argparse
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402

MODELS = {
  "arm": ROOT / "tests/models/realworld/arm.xml",
  "hand": ROOT / "tests/models/realworld/hand.xml",
  "pile": ROOT / "tests/models/realworld/pile.xml",
  "box_pile": ROOT / "tests/models/contact/box_pile.xml",
  "capsule_humanoid": ROOT / "tests/models/contact/capsule_humanoid.xml",
  "chain_humanoid": ROOT / "engine/models/chain_humanoid.xml",
}


def _timer(lib, m, d, state, nstep):
  """Seconds for nstep one-call steps of `lib` from `state`."""
  spec = lib.mjtState.mjSTATE_FULLPHYSICS
  step = lib.mj_step

  def run():
    lib.mj_setState(m, d, state, spec)
    t0 = time.perf_counter()
    for _ in range(nstep):
      step(m, d)
    return time.perf_counter() - t0

  return run


def main():
  import mujoco

  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("models", nargs="*", default=list(MODELS))
  parser.add_argument("--repeats", type=int, default=10)
  parser.add_argument("--steps", type=int, default=300)
  args = parser.parse_args()
  print("model              ours us  MuJoCo us  ratio")
  for name in args.models:
    path = str(MODELS.get(name, name))
    mjm = mujoco.MjModel.from_xml_path(path)
    mjd = mujoco.MjData(mjm)
    for _ in range(200):
      mujoco.mj_step(mjm, mjd)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    state = np.zeros(mujoco.mj_stateSize(mjm, spec))
    mujoco.mj_getState(mjm, mjd, state, spec)
    m = engine.MjModel.from_xml_path(path)
    ours = _timer(engine, m, engine.MjData(m), state, args.steps)
    theirs = _timer(mujoco, mjm, mjd, state, args.steps)
    ours()  # (first calls: caches, lazy set-up)
    theirs()
    best_ours = best_theirs = float("inf")
    for _ in range(args.repeats):
      best_ours = min(best_ours, ours())
      best_theirs = min(best_theirs, theirs())
    us = 1e6 / args.steps
    label = pathlib.Path(name).stem if name not in MODELS else name
    print(
      f"{label:18s} {best_ours * us:8.2f} {best_theirs * us:10.2f} {best_ours / best_theirs:6.2f}",
      flush=True,
    )


if __name__ == "__main__":
  main()
