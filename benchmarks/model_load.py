"""Model load time, ours vs MuJoCo: `MjModel.from_xml_path` on every suite and realworld model.

Run: python benchmarks/model_load.py [--repeats N] [--processes N] [MODEL.xml ...]

Without arguments it times the control suite's domain files (assets/suite/*.xml) and the
realworld corpus (tests/models/realworld/*.xml); any MJCF paths given are timed instead. Each
model is loaded in fresh processes, one per engine (`import engine` / `import mujoco` not
counted): `first` is a process's first load, which users pay at start-up (for us it includes
loading the compiled stages the model reaches from numba's cache), `warm` the best of N
further loads in the same process (what re-creating a model costs). Figures are the best over
--processes processes (the machine may be busy); ratios are ours / MuJoCo (lower is better).
MuJoCo is optional.
"""

import argparse
import importlib.util
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SUITE = ROOT / "assets" / "suite"
REALWORLD = ROOT / "tests" / "models" / "realworld"

# run in a fresh process: prints the seconds {"first": .., "warm": ..}
_CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
import {lib} as lib
t0 = time.perf_counter()
lib.MjModel.from_xml_path({path!r})
first = time.perf_counter() - t0
warm = float("inf")
for _ in range({repeats}):
  t0 = time.perf_counter()
  lib.MjModel.from_xml_path({path!r})
  warm = min(warm, time.perf_counter() - t0)
print(json.dumps({{"first": first, "warm": warm}}))
"""


def _measure(lib: str, path: pathlib.Path, repeats: int, processes: int) -> dict:
  """Best first-load and warm-load seconds of `path` by `lib` over fresh processes."""
  code = _CHILD.format(root=str(ROOT), lib=lib, path=str(path), repeats=repeats)
  best = {}
  for _ in range(processes):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
      raise RuntimeError(f"{lib} failed on {path}:\n{out.stderr}")
    times = json.loads(out.stdout.strip().splitlines()[-1])
    best = {k: min(v, best.get(k, v)) for k, v in times.items()}
  return best


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--repeats", type=int, default=5, help="warm loads per process")
  parser.add_argument("--processes", type=int, default=2, help="fresh processes per figure")
  parser.add_argument("models", nargs="*", type=pathlib.Path)
  args = parser.parse_args()
  paths = [p.resolve() for p in args.models] or sorted(SUITE.glob("*.xml")) + sorted(
    REALWORLD.glob("*.xml")
  )
  mujoco = importlib.util.find_spec("mujoco") is not None

  header = f"{'model':<16} {'first ms':>8} {'warm ms':>8}"
  if mujoco:
    header += f" {'MuJoCo first':>12} {'warm':>6} {'first':>6} {'warm':>6}"
  print(header)
  worst = {}
  for path in paths:
    ours = _measure("engine", path, args.repeats, args.processes)
    row = f"{path.stem[:16]:<16} {1e3 * ours['first']:8.1f} {1e3 * ours['warm']:8.1f}"
    if mujoco:
      theirs = _measure("mujoco", path, args.repeats, args.processes)
      ratios = {"first": ours["first"] / theirs["first"], "warm": ours["warm"] / theirs["warm"]}
      row += f" {1e3 * theirs['first']:12.1f} {1e3 * theirs['warm']:6.1f}"
      row += "".join(f" {r:5.2f}x" for r in ratios.values())
      for k, r in ratios.items():
        worst[k] = max(worst.get(k, (0, "")), (r, path.stem))
    print(row, flush=True)
  if worst:
    largest = (f"{k} {r:.2f}x ({name})" for k, (r, name) in worst.items())
    print("largest ratios: " + ", ".join(largest))


if __name__ == "__main__":
  main()
