"""Real-world-style models: load time and microseconds per mj_step, ours vs MuJoCo.

Run: python benchmarks/realworld.py [--steps N] [MODEL.xml ...]

Without arguments it times our corpus (tests/models/realworld: a 7-dof mesh arm with a
gripper, a muscle-driven hand holding a 2562-vertex mesh, a pile of mesh and primitive
objects); any MJCF paths given are timed instead (e.g. published robot models you have).
Each model is loaded by both engines (load time counted, as users start up), reset to its
first keyframe, stepped 200 times to let contacts form, then stepped with one `mj_step` call
per step, as RL loops do, best of three runs with the two engines taking turns. The ratio
column is ours / MuJoCo (lower is better).
"""

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402

try:
  import mujoco
except ImportError:  # the comparison is optional
  mujoco = None

CORPUS = ROOT / "tests" / "models" / "realworld"


def _timer(step, m, d, nstep):
  """A function timing nstep one-call steps from where d is, in microseconds per step."""

  def run():
    t0 = time.perf_counter()
    for _ in range(nstep):
      step(m, d)
    return 1e6 * (time.perf_counter() - t0) / nstep

  return run


def _load(lib, path, nstep):
  """(load seconds, contacts after settling, step timer) with engine `lib`."""
  t0 = time.perf_counter()
  m = lib.MjModel.from_xml_path(str(path))
  load = time.perf_counter() - t0
  d = lib.MjData(m)
  if m.nkey:
    lib.mj_resetDataKeyframe(m, d, 0)
  for _ in range(200):
    lib.mj_step(m, d)
  return load, d.ncon, _timer(lib.mj_step, m, d, nstep)


def measure(path, nstep):
  """(load s, contacts, µs per step) of ours and, when installed, of MuJoCo (else None): best
  of 3, the two engines taking turns so that a busy host's drift hits both alike."""
  load, ncon, ours = _load(engine, path, nstep)
  if not mujoco:
    return (load, ncon, min(ours() for _ in range(3))), None
  mload, mncon, theirs = _load(mujoco, path, nstep)
  us = mus = float("inf")
  for _ in range(3):
    us = min(us, ours())
    mus = min(mus, theirs())
  return (load, ncon, us), (mload, mncon, mus)


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--steps", type=int, default=1000)
  parser.add_argument("models", nargs="*", type=pathlib.Path)
  args = parser.parse_args()
  paths = [p.resolve() for p in args.models] or sorted(CORPUS.glob("*.xml"))

  header = f"{'model':<28} {'load s':>7} {'ncon':>5} {'us/step':>8}"
  if mujoco:
    header += f" {'MuJoCo load':>11} {'ncon':>5} {'us/step':>8} {'ratio':>6}"
  print(header)
  ratios = []
  for path in paths:
    (load, ncon, us), theirs = measure(path, args.steps)
    row = f"{path.stem[:28]:<28} {load:7.2f} {ncon:5d} {us:8.1f}"
    if theirs:
      mload, mncon, mus = theirs
      ratios.append(us / mus)
      row += f" {mload:11.2f} {mncon:5d} {mus:8.1f} {us / mus:5.2f}x"
    print(row, flush=True)
  if ratios:
    print(f"max ratio {max(ratios):.2f}x, median {sorted(ratios)[len(ratios) // 2]:.2f}x")


if __name__ == "__main__":
  main()
