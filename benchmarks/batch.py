"""Batched simulation speed: steps per second of engine.rollout vs mujoco.rollout.

Run: python benchmarks/batch.py [--nbatch N] [--nstep T] [--models cartpole,cheetah,humanoid]

For each suite model both engines roll out N trajectories of T steps from the same initial
states (the model's reference pose with random velocities) under the same random controls,
on 1 thread (one MjData) and on 2 threads (two MjData), and report steps per second (N*T over
the best of 3 calls) and the ratio ours / MuJoCo (higher is better). The first call of each
configuration is a warm-up (our parallel driver compiles there, about a second). Then the
memory of one world: an MjData (the model is shared by all worlds).
"""

import argparse
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import engine  # noqa: E402
from suite import common  # noqa: E402

try:
  import mujoco
  from mujoco import rollout as mujoco_rollout
except ImportError:  # the comparison is optional
  mujoco = None

FULL = int(engine.mjtState.mjSTATE_FULLPHYSICS)


def _inputs(m, nbatch, nstep):
  d = engine.MjData(m)
  rng = np.random.RandomState(0)
  x0 = np.zeros((nbatch, engine.mj_stateSize(m, FULL)))
  for i in range(nbatch):
    engine.mj_resetData(m, d)
    d.qvel[:] = 0.1 * rng.randn(m.nv)
    engine.mj_getState(m, d, x0[i], FULL)
  lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
  control = rng.uniform(lo, hi, (nbatch, nstep, m.nu))
  return x0, control


def _steps_per_second(run, nbatch, nstep):
  run()  # warm-up
  best = float("inf")
  for _ in range(3):
    t0 = time.perf_counter()
    run()
    best = min(best, time.perf_counter() - t0)
  return nbatch * nstep / best


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--nbatch", type=int, default=64)
  parser.add_argument("--nstep", type=int, default=200)
  parser.add_argument("--models", default="cartpole,cheetah,humanoid")
  args = parser.parse_args(argv)
  print(f"engine.rollout vs mujoco.rollout: {args.nbatch} trajectories x {args.nstep} steps, "
        f"steps/s (best of 3), {os.cpu_count()} cores")
  print("| model | threads | ours steps/s | MuJoCo steps/s | ratio |")
  print("|---|---|---|---|---|")
  for name in args.models.split(","):
    xml = common.read_model(f"{name}.xml")
    m = engine.MjModel.from_xml_string(xml, common.ASSETS)
    x0, control = _inputs(m, args.nbatch, args.nstep)
    theirs_model = mujoco.MjModel.from_xml_string(xml, common.ASSETS) if mujoco else None
    for nthread in (1, 2):
      datas = [engine.MjData(m) for _ in range(nthread)]
      ours = _steps_per_second(lambda: engine.rollout.rollout(m, datas, x0, control),
                               args.nbatch, args.nstep)
      if theirs_model is None:
        print(f"| {name} | {nthread} | {ours:,.0f} | - | - |")
        continue
      their_datas = [mujoco.MjData(theirs_model) for _ in range(nthread)]
      theirs = _steps_per_second(
        lambda: mujoco_rollout.rollout(theirs_model, their_datas, x0, control),
        args.nbatch, args.nstep)
      print(f"| {name} | {nthread} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f} |")
  print("\nmemory per world (one MjData; the model is shared):")
  for name in args.models.split(","):
    xml = common.read_model(f"{name}.xml")
    d = engine.MjData(engine.MjModel.from_xml_string(xml, common.ASSETS))
    ours = sum(a.nbytes for a in d._arrays.values() if isinstance(a, np.ndarray))
    line = f"  {name}: ours {ours / 1e6:.2f} MB"
    if mujoco:
      md = mujoco.MjData(mujoco.MjModel.from_xml_string(xml, common.ASSETS))
      line += (f", MuJoCo {(md.nbuffer + md.narena) / 1e6:.2f} MB (buffer {md.nbuffer / 1e3:.0f}"
               f" kB + arena {md.narena / 1e6:.1f} MB)")
    print(line)


if __name__ == "__main__":
  main()
