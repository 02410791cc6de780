"""Start-up: cold compile (empty numba cache) and warm start, the way users meet them.

Run: python benchmarks/startup.py [--jobs N] [--profile]

- cold: `python -m engine.warmup` from an empty NUMBA_CACHE_DIR (every stage and entry point
  compiled), and a fresh process that runs `import engine`, loads the capsule humanoid lying
  on a floor (a contact model) and completes one mj_step with an empty cache (what a new user
  waits for; the Python-only API stages compile later, on first use). Stages compile in
  NUMJOCO_COMPILE_JOBS processes (default: up to 2). Wall seconds, CPU seconds of the process
  tree and the cache size on disk.
- warm: five fresh processes with that cache; seconds from `import engine` to the first
  completed mj_step, split into import, model load (MJCF compile, stage loading, constants)
  and the step. MuJoCo's figure (import mujoco, load, step) alongside when it is installed.
- profile (--profile): one more cold compile in a single process, with the seconds of every
  stage (the compile-time profile in benchmarks/RESULTS.md).
The Python bytecode of the engine is written once before measuring (pip does that at install).
"""

import argparse
import os
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODEL = ROOT / "tests" / "models" / "contact" / "capsule_humanoid.xml"

_FIRST_STEP = """
import time
t0 = time.perf_counter()
import {lib} as lib
t1 = time.perf_counter()
m = lib.MjModel.from_xml_path({path!r})
t2 = time.perf_counter()
d = lib.MjData(m)
lib.mj_step(m, d)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def _env(cache, jobs=None):
  env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
  env.update(NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
  if jobs:
    env["NUMJOCO_COMPILE_JOBS"] = str(jobs)
  return env


def _first_step(lib, env):
  """(import, load, step) seconds of a fresh process, its stderr and CPU seconds."""
  before = resource.getrusage(resource.RUSAGE_CHILDREN)
  out = subprocess.run([sys.executable, "-c", _FIRST_STEP.format(lib=lib, path=str(MODEL))],
                       env=env, cwd=ROOT, capture_output=True, text=True)
  after = resource.getrusage(resource.RUSAGE_CHILDREN)
  if out.returncode:
    raise RuntimeError(out.stderr[-3000:])
  cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
  return [float(x) for x in out.stdout.split()[-3:]], out.stderr, cpu


def _megabytes(path):
  return sum(p.stat().st_size for p in pathlib.Path(path).rglob("*") if p.is_file()) / 1e6


def _warmup(env):
  """Wall and CPU seconds of `python -m engine.warmup`."""
  before = resource.getrusage(resource.RUSAGE_CHILDREN)
  t0 = time.perf_counter()
  subprocess.run([sys.executable, "-m", "engine.warmup"], env=env, cwd=ROOT, check=True,
                 capture_output=True)
  wall = time.perf_counter() - t0
  after = resource.getrusage(resource.RUSAGE_CHILDREN)
  return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cold_and_warm(jobs):
  with tempfile.TemporaryDirectory() as cache:
    wall, cpu = _warmup(_env(cache, jobs))
    print(f"cold python -m engine.warmup ({jobs or 'default'} jobs): {wall:.1f} s wall "
          f"({cpu:.0f} s CPU in all processes), cache {_megabytes(cache):.0f} MB")
  with tempfile.TemporaryDirectory() as cache:
    (imp, load, step), _, cpu = _first_step("engine", _env(cache, jobs))
    total = imp + load + step
    print(f"cold (empty cache, {jobs or 'default'} jobs): {total:.1f} s wall to the first step "
          f"({cpu:.0f} s CPU in all processes), cache {_megabytes(cache):.0f} MB")
    runs = [_first_step("engine", _env(cache))[0] for _ in range(5)]
  totals = [sum(r) for r in runs]
  best = runs[totals.index(min(totals))]
  print(f"warm: import engine -> first mj_step {min(totals):.2f} s best, "
        f"{statistics.median(totals):.2f} s median of 5 (best run: import {best[0]:.2f} s, "
        f"load {best[1]:.2f} s, first step {best[2] * 1e3:.1f} ms)")
  try:
    import mujoco  # noqa: F401
  except ImportError:
    return
  theirs = [sum(_first_step("mujoco", dict(os.environ))[0]) for _ in range(5)]
  print(f"mujoco: import mujoco -> first mj_step {min(theirs):.2f} s best")


def profile():
  """Seconds per stage of a cold compile in one process, largest first."""
  with tempfile.TemporaryDirectory() as cache:
    _, stderr, cpu = _first_step("engine", _env(cache, jobs=1))
    rows = re.findall(r"\] (\S+) ([\d.]+) s", stderr)
    size = _megabytes(cache)
  rows = sorted(((float(t), name) for name, t in rows), reverse=True)
  total = sum(t for t, _ in rows)
  print(f"\ncompile profile, one process: {len(rows)} stages, {total:.0f} s of stage compiles "
        f"({cpu:.0f} s CPU for the whole start), cache {size:.0f} MB")
  for t, name in rows:
    print(f"  {t:6.1f} s  {name}")


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--jobs", type=int, default=None, help="NUMJOCO_COMPILE_JOBS")
  parser.add_argument("--profile", action="store_true", help="per-stage compile seconds")
  args = parser.parse_args()
  subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "engine")], check=True)
  print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, model {MODEL.name}")
  cold_and_warm(args.jobs)
  if args.profile:
    profile()


if __name__ == "__main__":
  main()
