"""Compile (or load from cache) every engine entry point: `python -m engine.warmup`.

Run once after installing so the first simulation starts at once, and before
running tests in parallel processes so they share one numba cache.
"""

import pathlib
import time

import numpy as np


def warmup() -> float:
  """Compiles the pipeline on the bundled model; returns the seconds it took."""
  t0 = time.perf_counter()
  import engine

  path = pathlib.Path(engine.__file__).with_name("models") / "chain_humanoid.xml"
  m = engine.MjModel.from_xml_path(path)
  d = engine.MjData(m)
  for integrator in engine.mjtIntegrator:
    if integrator.name in ("mjINT_EULER", "mjINT_RK4", "mjINT_IMPLICIT", "mjINT_IMPLICITFAST"):
      m.opt.integrator = int(integrator)
      engine.mj_resetData(m, d)
      engine.mj_step(m, d, 2)
  engine.mj_step1(m, d)
  engine.mj_step2(m, d)
  engine.mj_forward(m, d)
  jac = np.zeros((3, m.nv))
  engine.mj_jacBody(m, d, jac, jac.copy(), 1)
  engine.mj_fullM(m, d, np.zeros((m.nv, m.nv)))
  return time.perf_counter() - t0


if __name__ == "__main__":
  print(f"engine ready in {warmup():.1f} s")
