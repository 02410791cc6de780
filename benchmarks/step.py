"""Microseconds per mj_step, ours vs MuJoCo's C engine, and cold/warm start times.

Run: python benchmarks/step.py [--steps N] [--no-startup]

For each contact-free model (the test models, the bundled humanoid-like demo and a
random 20-body tree) both engines load the same MJCF and step from the same
state; MuJoCo runs its C loop (mujoco.mj_step with nstep), ours one numba call.
Contact-rich models (a capsule humanoid lying on a floor, a pile of 20 boxes) step with
contacts and the default Newton solver after 200 settling steps.
Start-up: seconds from `import engine` to the first completed mj_step in a fresh
process, with an empty numba cache (cold) and with the cache filled (warm).
"""

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402

try:
  import mujoco
except ImportError:  # the comparison is optional
  mujoco = None


def _models():
  from tests import models
  from tests import trees

  out = [(p.stem, p.read_text(), str(p)) for p in models.all_models()]
  demo = pathlib.Path(engine.__file__).with_name("models") / "chain_humanoid.xml"
  out.append(("chain_humanoid (33 dof)", demo.read_text(), str(demo)))
  out.append(("random_tree_20", trees.random_tree_xml(3, nbody=20), None))
  return out


def _time_per_step(step, nstep, repeats=5):
  best = float("inf")
  for _ in range(repeats):
    t0 = time.perf_counter()
    step(nstep)
    best = min(best, time.perf_counter() - t0)
  return 1e6 * best / nstep


def bench_step(nstep: int):
  print(f"{'model':28s} {'nv':>4s} {'ours us':>9s} {'mujoco us':>10s} {'ratio':>7s}")
  for name, xml, path in _models():
    try:
      m = engine.MjModel.from_xml_path(path) if path else engine.MjModel.from_xml_string(xml)
    except Exception as e:  # noqa: BLE001 - report and continue
      print(f"{name:28s} ours failed to load: {e}")
      continue
    m.opt.disableflags |= engine.mjtDisableBit.mjDSBL_CONSTRAINT
    d = engine.MjData(m)
    engine.mj_step(m, d, 10)
    ours = _time_per_step(lambda n: engine.mj_step(m, d, n), nstep)
    theirs = float("nan")
    if mujoco is not None:
      mjm = mujoco.MjModel.from_xml_path(path) if path else mujoco.MjModel.from_xml_string(xml)
      mjm.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
      mjd = mujoco.MjData(mjm)
      mujoco.mj_step(mjm, mjd, 10)
      theirs = _time_per_step(lambda n: mujoco.mj_step(mjm, mjd, nstep=n), nstep)
    print(f"{name:28s} {m.nv:4d} {ours:9.2f} {theirs:10.2f} {ours / theirs:7.2f}")


def _contact_models():
  """Contact-rich models: the capsule humanoid dropped on a floor and a pile of 20 boxes."""
  root = ROOT / "tests" / "models" / "contact"
  return [(p.stem, str(p)) for p in (root / "capsule_humanoid.xml", root / "box_pile.xml")]


def bench_contact(nstep: int):
  """Both engines step the same contact-rich model from the same start (Newton, default)."""
  print(f"\n{'contact model':28s} {'nv':>4s} {'ncon':>5s} {'ours us':>9s} {'mujoco us':>10s} "
        f"{'ratio':>7s}")
  for name, path in _contact_models():
    m = engine.MjModel.from_xml_path(path)
    d = engine.MjData(m)
    engine.mj_step(m, d, 200)  # settle into contact
    ours = _time_per_step(lambda n: engine.mj_step(m, d, n), nstep)
    theirs = float("nan")
    if mujoco is not None:
      mjm = mujoco.MjModel.from_xml_path(path)
      mjd = mujoco.MjData(mjm)
      mujoco.mj_step(mjm, mjd, 200)
      theirs = _time_per_step(lambda n: mujoco.mj_step(mjm, mjd, nstep=n), nstep)
    print(f"{name:28s} {m.nv:4d} {d.ncon:5d} {ours:9.2f} {theirs:10.2f} {ours / theirs:7.2f}")


_STARTUP = """
import time
t0 = time.perf_counter()
import engine
m = engine.MjModel.from_xml_path({path!r})
d = engine.MjData(m)
engine.mj_step(m, d)
print(time.perf_counter() - t0)
"""


def bench_startup():
  demo = pathlib.Path(engine.__file__).with_name("models") / "chain_humanoid.xml"
  code = _STARTUP.format(path=str(demo))
  with tempfile.TemporaryDirectory() as cache:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    for label in ("cold (empty cache)", "warm (cached)", "warm (cached)"):
      out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           cwd=ROOT)
      if out.returncode:
        print(f"{label}: failed\n{out.stderr[-2000:]}")
        return
      print(f"import engine -> first mj_step, {label}: {float(out.stdout.split()[-1]):.2f} s")


if __name__ == "__main__":
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--steps", type=int, default=2000)
  parser.add_argument("--no-startup", action="store_true")
  args = parser.parse_args()
  print(f"numjoco benchmark, {time.strftime('%Y-%m-%d')}, python {sys.version.split()[0]}, "
        f"mujoco {getattr(mujoco, '__version__', 'not installed')}, {os.cpu_count()} cpus")
  bench_step(args.steps)
  bench_contact(args.steps)
  if not args.no_startup:
    bench_startup()
