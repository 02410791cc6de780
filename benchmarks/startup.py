"""Start-up, the way users meet it: first runs from an empty cache, warm starts, the wheel.

Run: python benchmarks/startup.py [--jobs N ...] [--wheel] [--skip-cold]

Every figure comes from fresh processes, each with its own empty cache root (XDG_CACHE_HOME),
so nothing this machine compiled before counts:

- source, first run: `python -m suite cartpole swingup` from an empty cache (the stages a
  cart-pole reaches compile in NUMJOCO_COMPILE_JOBS processes; the background compile of the
  others is switched off here so that it does not slow the figures after it).
- source, everything: `python -m engine.warmup` from an empty cache, for each --jobs given
  (default: the CPUs this process may use), with the cache's size on disk.
- warm: `import engine` -> first completed mj_step (cart-pole, and the capsule humanoid on a
  floor), and `python -m suite cartpole swingup` end to end, best and median of 5 processes;
  MuJoCo's and dm_control's figures alongside when they are installed.
- wheel (--wheel): `python -m suite.wheel` builds the wheel that carries the compiled
  engine, pip installs it into a fresh venv, and its first `python -m suite cartpole swingup`
  runs from an empty cache.
The engine's Python bytecode is written before measuring (pip does that at install).
"""

import argparse
import os
import pathlib
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CARTPOLE = ROOT / "assets" / "suite" / "cartpole.xml"
HUMANOID = ROOT / "tests" / "models" / "contact" / "capsule_humanoid.xml"

_FIRST_STEP = """
import time
t0 = time.perf_counter()
import {lib} as lib
t1 = time.perf_counter()
m = lib.MjModel.from_xml_path({path!r})
d = lib.MjData(m)
lib.mj_step(m, d)
print(t1 - t0, time.perf_counter() - t1)
"""

_DM_CONTROL_EPISODE = """
import numpy as np
from dm_control import suite
env = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
spec = env.action_spec()
rng = np.random.RandomState(0)
time_step = env.reset()
while not time_step.last():
  time_step = env.step(rng.uniform(spec.minimum, spec.maximum))
"""


def _env(cache_root=None, jobs=None):
  """Our processes' environment: this source tree, a cache root of their own."""
  env = {
    k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "NUMBA_CACHE_DIR")
  }
  env.update(PYTHONPATH=str(ROOT), NUMJOCO_BACKGROUND_COMPILE="0")
  if cache_root:
    env["XDG_CACHE_HOME"] = str(cache_root)
  if jobs:
    env["NUMJOCO_COMPILE_JOBS"] = str(jobs)
  return env


def _run(args, env, cwd=ROOT):
  """(wall seconds, CPU seconds of the process tree) of one command."""
  before = resource.getrusage(resource.RUSAGE_CHILDREN)
  t0 = time.perf_counter()
  out = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True)
  wall = time.perf_counter() - t0
  after = resource.getrusage(resource.RUSAGE_CHILDREN)
  if out.returncode:
    raise RuntimeError(f"{args}: {out.stderr[-3000:]}")
  cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
  return wall, cpu, out


def _megabytes(path):
  return sum(p.stat().st_size for p in pathlib.Path(path).rglob("*") if p.is_file()) / 1e6


def _best_median(values):
  return f"{min(values):.2f} s best, {statistics.median(values):.2f} s median"


def cold(jobs_list):
  with tempfile.TemporaryDirectory() as root:
    wall, cpu, _ = _run([sys.executable, "-m", "suite", "cartpole", "swingup"], _env(root))
    print(
      f"source, empty cache: python -m suite cartpole swingup {wall:.1f} s wall "
      f"({cpu:.0f} s CPU), cache {_megabytes(root):.0f} MB"
    )
  for jobs in jobs_list:
    with tempfile.TemporaryDirectory() as root:
      wall, cpu, _ = _run([sys.executable, "-m", "engine.warmup"], _env(root, jobs))
      print(
        f"source, empty cache: python -m engine.warmup, {jobs or 'default'} jobs: "
        f"{wall:.1f} s wall ({cpu:.0f} s CPU), cache {_megabytes(root):.0f} MB"
      )


def warm():
  env = _env()
  _run([sys.executable, "-m", "engine.warmup"], env)  # (this machine's cache)
  for name, path in (("cart-pole", CARTPOLE), ("capsule humanoid", HUMANOID)):
    ours = [
      _run([sys.executable, "-c", _FIRST_STEP.format(lib="engine", path=str(path))], env)[
        2
      ].stdout.split()
      for _ in range(5)
    ]
    totals = [float(a) + float(b) for a, b in ours]
    imports = [float(a) for a, _ in ours]
    line = (
      f"warm, {name}: import engine -> first mj_step {_best_median(totals)} "
      f"(import {min(imports):.2f} s)"
    )
    try:
      import mujoco  # noqa: F401

      theirs = [
        sum(
          map(
            float,
            _run(
              [sys.executable, "-c", _FIRST_STEP.format(lib="mujoco", path=str(path))],
              dict(os.environ),
            )[2].stdout.split(),
          )
        )
        for _ in range(5)
      ]
      line += f"; MuJoCo {_best_median(theirs)}, ratio {min(totals) / min(theirs):.1f}"
    except ImportError:
      pass
    print(line)
  ours = [_run([sys.executable, "-m", "suite", "cartpole", "swingup"], env)[0] for _ in range(5)]
  line = f"warm: python -m suite cartpole swingup {_best_median(ours)}"
  try:
    import dm_control  # noqa: F401

    theirs = [
      _run([sys.executable, "-c", _DM_CONTROL_EPISODE], dict(os.environ))[0] for _ in range(5)
    ]
    line += f"; dm_control's episode {_best_median(theirs)}"
  except ImportError:
    pass
  print(line)


def wheel():
  with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    src = tmp / "src"
    shutil.copytree(
      ROOT,
      src,
      ignore=shutil.ignore_patterns(
        ".git", ".venv", "dist", "build", "*.egg-info", "__pycache__", "_prebuilt"
      ),
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "NUMJOCO_"))}
    wall, cpu, _ = _run(
      [sys.executable, "-m", "suite.wheel", str(tmp / "dist")],
      dict(env, PYTHONPATH=str(src)),
      cwd=src,
    )
    (built,) = (tmp / "dist").glob("*.whl")
    print(
      f"wheel: built {built.name} ({built.stat().st_size / 1e6:.0f} MB) in {wall:.0f} s "
      f"(seeded from this machine's cache)"
    )
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
    python = str(tmp / "venv" / "bin" / "python")
    wall, _, _ = _run([python, "-m", "pip", "install", "-q", str(built)], env, cwd=tmp)
    print(f"wheel: pip install into a fresh venv {wall:.0f} s (dependencies included)")
    runs = []
    for k in range(3):
      cache = tmp / f"cache{k}"
      wall, cpu, out = _run(
        [python, "-m", "suite", "cartpole", "swingup"],
        dict(env, XDG_CACHE_HOME=str(cache)),
        cwd=tmp,
      )
      if "compil" in out.stderr:
        raise RuntimeError(f"the wheel compiled: {out.stderr}")
      runs.append(wall)
    print(
      f"wheel, empty cache: python -m suite cartpole swingup {_best_median(runs)} "
      f"(nothing compiled; 3 runs, each with an empty cache)"
    )


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument(
    "--jobs",
    type=int,
    nargs="*",
    default=[None],
    help="NUMJOCO_COMPILE_JOBS values for the full compile (default: the CPUs)",
  )
  parser.add_argument("--wheel", action="store_true", help="also build and time the wheel")
  parser.add_argument("--skip-cold", action="store_true", help="only the warm figures")
  args = parser.parse_args()
  subprocess.run(
    [sys.executable, "-m", "compileall", "-q", str(ROOT / "engine"), str(ROOT / "suite")],
    check=True,
  )
  print(f"python {sys.version.split()[0]}, {len(os.sched_getaffinity(0))} cpus")
  if not args.skip_cold:
    cold(args.jobs)
  warm()
  if args.wheel:
    wheel()


if __name__ == "__main__":
  main()
