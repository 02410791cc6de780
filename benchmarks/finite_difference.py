"""Milliseconds per mjd_transitionFD and mjd_inverseFD call, ours vs MuJoCo's, in one run.

Run: python benchmarks/finite_difference.py [--repeat N]

Both engines load the same MJCF (a pendulum, and the Control Suite's cheetah and humanoid),
step 20 times from the initial state and time each call (best of N): forward differences for A
and B, centered for A, B, C and D, and mjd_inverseFD's DfDq, DfDv, DfDa. docs/derivatives.md
explains the cost (about 10-15 us of Python per nudged step).
"""

import argparse
import pathlib
import sys
import time

import mujoco
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402

PENDULUM = """<mujoco><option timestep="0.01"/>
  <worldbody><body><joint name="hinge" axis="0 1 0" damping="0.3"/>
    <geom type="sphere" size="0.05" pos="0 0 -0.5" mass="1"/></body></worldbody>
  <actuator><motor joint="hinge" gear="2"/></actuator></mujoco>"""


def _load(lib, name):
  if name == "pendulum":
    return lib.MjModel.from_xml_string(PENDULUM)
  return lib.MjModel.from_xml_path(str(ROOT / "assets" / "suite" / f"{name}.xml"))


def _best(call, repeat):
  times = []
  for _ in range(repeat):
    start = time.perf_counter()
    call()
    times.append(time.perf_counter() - start)
  return min(times) * 1e3


def _times(lib, name, repeat):
  m = _load(lib, name)
  d = lib.MjData(m)
  lib.mj_step(m, d, 20)
  nv, nx, nu, ns = m.nv, 2 * m.nv + m.na, m.nu, m.nsensordata
  A, B, C, D = np.zeros((nx, nx)), np.zeros((nx, nu)), np.zeros((ns, nx)), np.zeros((ns, nu))
  inverse = [np.zeros((nv, nv)) for _ in range(3)] + [None] * 4
  calls = (
    lambda: lib.mjd_transitionFD(m, d, 1e-6, False, A, B, None, None),
    lambda: lib.mjd_transitionFD(m, d, 1e-6, True, A, B, C, D),
    lambda: lib.mjd_inverseFD(m, d, 1e-6, False, *inverse),
  )
  for call in calls:  # first calls load what they need
    call()
  return (nv, nu), [_best(call, repeat) for call in calls]


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--repeat", type=int, default=20)
  args = parser.parse_args()
  print("model (nv, nu)        forward A,B         centered A,B,C,D    inverse      (MuJoCo)")
  for name in ("pendulum", "cheetah", "humanoid"):
    sizes, ours = _times(engine, name, args.repeat)
    _, theirs = _times(mujoco, name, args.repeat)
    cells = "  ".join(f"{a:6.2f} ({b:5.3f}) ms" for a, b in zip(ours, theirs, strict=True))
    print(f"{name:10s} {str(sizes):9s}  {cells}")


if __name__ == "__main__":
  main()
