"""Scenes of thousands of free bodies, ours vs MuJoCo's C engine: load time, MjData size and
milliseconds per mj_step (one call per step, as users write loops).

Run: python benchmarks/many_trees.py [--sizes 1000,3000,10000] [--steps 50]

Each scene is n free spheres of radius .1 on a cubic grid above a plane, with
`<size memory="2G"/>`: MuJoCo's default arena for 10,000 free bodies asks for more memory than
the machine has and MuJoCo refuses to load the model (ours sizes MjData from the model).
`falling` times the first steps (no contacts yet: kinematics, broadphase, integration);
`resting` the steps after they have landed on the plane and on each other (one island per
contact group, Newton). Load is model compilation plus MjData, as `MjModel.from_xml_string`
and `MjData` are called.
"""

import argparse
import os
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


def scene(n: int) -> str:
  k = max(1, round(n ** (1 / 3) + 0.5))
  bodies = "".join(
    f'<body pos="{0.25 * (i % k)} {0.25 * ((i // k) % k)} {0.2 + 0.25 * (i // k // k)}">'
    f'<freejoint/><geom size=".1"/></body>'
    for i in range(n)
  )
  return (
    f"<mujoco><size memory='2G'/><worldbody><geom type='plane' size='20 20 .1'/>{bodies}"
    "</worldbody></mujoco>"
  )


def _measure(lib, xml, nstep, settle):
  t = time.perf_counter()
  m = lib.MjModel.from_xml_string(xml)
  d = lib.MjData(m)
  load = time.perf_counter() - t
  lib.mj_step(m, d)
  t = time.perf_counter()
  for _ in range(nstep):
    lib.mj_step(m, d)
  falling = (time.perf_counter() - t) / nstep * 1e3
  for _ in range(settle):
    lib.mj_step(m, d)
  t = time.perf_counter()
  for _ in range(nstep):
    lib.mj_step(m, d)
  resting = (time.perf_counter() - t) / nstep * 1e3
  return load, falling, resting, d.ncon, d


def main(sizes, nstep):
  print(
    f"numjoco many-trees benchmark, {time.strftime('%Y-%m-%d')}, "
    f"mujoco {getattr(mujoco, '__version__', 'not installed')}, {os.cpu_count()} cpus"
  )
  print(
    f"{'bodies':>7s} {'MjData GiB':>10s} {'load s':>14s} {'falling ms':>20s} "
    f"{'resting ms':>20s} {'ncon':>6s}"
  )
  print(
    f"{'':>7s} {'ours':>10s} {'ours  mujoco':>14s} {'ours mujoco  ratio':>20s} "
    f"{'ours mujoco  ratio':>20s}"
  )
  for n in sizes:
    xml = scene(n)
    settle = 400
    load, fall, rest, ncon, d = _measure(engine, xml, nstep, settle)
    gib = sum(a.nbytes for a in d._arrays.values()) / 2**30
    del d
    theirs = (float("nan"),) * 5
    if mujoco is not None:
      try:
        theirs = _measure(mujoco, xml, nstep, settle)
      except ValueError as e:  # MuJoCo's arena heuristic can ask for more than there is
        print(f"{n:7d} mujoco failed: {e}")
    print(
      f"{n:7d} {gib:10.2f} {load:6.1f} {theirs[0]:7.1f} {fall:6.2f} {theirs[1]:6.2f} "
      f"{fall / theirs[1]:6.2f} {rest:6.2f} {theirs[2]:6.2f} {rest / theirs[2]:6.2f} "
      f"{ncon:6d}"
    )


if __name__ == "__main__":
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--sizes", default="1000,3000,10000")
  parser.add_argument("--steps", type=int, default=50)
  args = parser.parse_args()
  main([int(s) for s in args.sizes.split(",")], args.steps)
