"""Compile (or load from cache) every engine entry point: `python -m engine.warmup`.

Run once after installing so the first simulation starts at once, and before running tests
in parallel processes so they share one numba cache. The engine's stages compile in up to
NUMJOCO_COMPILE_JOBS processes (engine/_stage.py); `--claims DIR` is the mode of those helper
processes.
"""

import argparse
import pathlib
import sys
import time

import numpy as np


def warmup() -> float:
  """Compiles every stage and entry point on the bundled model; returns the seconds it took."""
  t0 = time.perf_counter()
  import engine
  from engine import _stage

  _stage.compile_all(lazy=True)

  path = pathlib.Path(engine.__file__).with_name("models") / "chain_humanoid.xml"
  m = engine.MjModel.from_xml_path(path)
  d = engine.MjData(m)
  engine.mj_step(m, d, 2)
  engine.mj_step1(m, d)
  engine.mj_step2(m, d)
  engine.mj_forward(m, d)
  jac = np.zeros((3, m.nv))
  engine.mj_jacBody(m, d, jac, jac.copy(), 1)
  engine.mj_fullM(m, d, np.zeros((m.nv, m.nv)))
  return time.perf_counter() - t0


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(prog="python -m engine.warmup", description=__doc__)
  parser.add_argument("--claims", help="(helper process) compile the stages claimed in DIR")
  parser.add_argument("--lazy", action="store_true", help="(helper process) lazy stages too")
  args = parser.parse_args(argv)
  if args.claims:
    from engine import _stage

    _stage.compile_claimed(_stage.cold_stages(args.lazy), args.claims, time.perf_counter(),
                           report=False)
    return 0
  print(f"engine ready in {warmup():.1f} s")
  return 0


if __name__ == "__main__":
  sys.exit(main())
