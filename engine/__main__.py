"""Demo: load the bundled humanoid-like model and simulate it (`python -m engine`).

Prints what it did: model sizes, simulated time, the torso height and energy, and
the stepping speed. Pass a path to an MJCF file to simulate that model instead.
"""

import argparse
import pathlib
import sys
import time

import numpy as np

import engine

DEFAULT_MODEL = pathlib.Path(__file__).with_name("models") / "chain_humanoid.xml"


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
  parser.add_argument("model", nargs="?", default=str(DEFAULT_MODEL), help="MJCF file")
  parser.add_argument("--seconds", type=float, default=2.0, help="simulated time")
  args = parser.parse_args(argv)

  t0 = time.perf_counter()
  m = engine.MjModel.from_xml_path(args.model)
  d = engine.MjData(m)
  print(f"model {pathlib.Path(args.model).name}: nq={m.nq} nv={m.nv} nu={m.nu} nbody={m.nbody}")
  engine.mj_forward(m, d)
  print(f"loaded and compiled in {time.perf_counter() - t0:.2f} s")

  nstep = max(1, int(round(args.seconds / m.opt.timestep)))
  chunk = 50
  t0 = time.perf_counter()
  done = 0
  while done < nstep:
    n = min(chunk, nstep - done)
    d.ctrl[:] = np.sin(2 * np.pi * d.time + np.arange(m.nu))
    engine.mj_step(m, d, n)
    done += n
  wall = time.perf_counter() - t0
  print(
    f"simulated {d.time:.3f} s in {nstep} steps ({1e6 * wall / nstep:.1f} us/step, "
    f"{d.time / wall:.1f}x real time)"
  )
  print(
    f"final qpos[:3] = {np.array2string(d.qpos[:3], precision=4)}, "
    f"|qvel| = {np.linalg.norm(d.qvel):.4f}"
  )
  return 0


if __name__ == "__main__":
  sys.exit(main())
