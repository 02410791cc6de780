"""Signed distance field collisions: load time and microseconds per mj_step, ours vs MuJoCo.

Run: python benchmarks/sdf.py [--steps N]

Models: examples/sdf_gears.py's gear pair (two `mujoco.sdf.gear` fields: mjc_SDF between two
SDFs, ~25 contacts a step) and tests/engine/test_sdf_collision.py's scene (a torus field on a
floor with a ball, a box and a mesh on it: plane, primitives and a mesh against an SDF). Load
time includes meshing the fields with marching cubes (and, for ours, compiling the plugins'
callbacks on first use in a process); steps are timed as in realworld.py (one `mj_step` call
per step, after 200 steps to let contacts form, the engines taking turns). The ratio column is
ours / MuJoCo.
"""

import argparse
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.realworld import measure  # noqa: E402
from examples import sdf_gears  # noqa: E402
from tests.engine.test_sdf_collision import SCENE  # noqa: E402

try:
  import mujoco
except ImportError:  # the comparison is optional
  mujoco = None


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--steps", type=int, default=1000)
  args = parser.parse_args()
  header = f"{'model':<12} {'load s':>7} {'ncon':>5} {'us/step':>8}"
  if mujoco:
    header += f" {'MuJoCo load':>11} {'ncon':>5} {'us/step':>8} {'ratio':>6}"
  print(header)
  with tempfile.TemporaryDirectory() as tmp:
    for name, xml in (("sdf_gears", sdf_gears.MODEL), ("sdf_scene", SCENE)):
      path = pathlib.Path(tmp) / f"{name}.xml"
      path.write_text(xml)
      (load, ncon, us), theirs = measure(path, args.steps)
      row = f"{name:<12} {load:7.2f} {ncon:5d} {us:8.1f}"
      if theirs:
        mload, mncon, mus = theirs
        row += f" {mload:11.2f} {mncon:5d} {mus:8.1f} {us / mus:5.2f}x"
      print(row, flush=True)


if __name__ == "__main__":
  main()
