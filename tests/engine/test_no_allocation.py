"""mj_step allocates nothing inside numba: every buffer lives in MjData.

MuJoCo's mj_step does not allocate either (mjData carries its arena); for us a heap
allocation in a kernel also costs malloc plus atomic reference counting on every step.
The check counts numba runtime (NRT) allocations, which are only recorded when
NUMBA_NRT_STATS is set before numba starts, hence the subprocess.

Scope: every stage, with each model's own integrator and again with implicitfast and implicit
(velocity derivatives of actuators, damping, fluid forces and the RNE included).
"""

import os
import pathlib
import subprocess
import sys

import numba
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

_SCRIPT = """
import engine
from engine.errors import UnsupportedError
from numba.core.runtime import rtsys
from tests import models

from examples import sdf_gears
from tests.engine import test_sdf_collision

def check(name, m):
  implicit = (engine.mjtIntegrator.mjINT_IMPLICITFAST, engine.mjtIntegrator.mjINT_IMPLICIT)
  for integrator in sorted({int(m.opt.integrator), *implicit}):
    m.opt.integrator = integrator
    d = engine.MjData(m)
    d.qvel[:] = 0.05
    d.ctrl[:] = 0.1
    engine.mj_step(m, d, 3)
    before = rtsys.get_allocation_stats().alloc
    engine.mj_step(m, d, 20)
    allocated = rtsys.get_allocation_stats().alloc - before
    print(f"{name}:{integrator}", allocated)

for path in models.all_models():
  try:
    m = engine.MjModel.from_xml_path(str(path))
  except UnsupportedError:
    continue  # features we reject (their own tests cover the error)
  check(path.relative_to(models.ROOT), m)
# signed distance fields against every kind of geom (plugin models, not in the corpus)
check("sdf_gears", engine.MjModel.from_xml_string(sdf_gears.MODEL))
check("sdf_scene", engine.MjModel.from_xml_string(test_sdf_collision.SCENE))
"""


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="counts allocations of compiled kernels")
def test_mj_step_allocates_nothing():
  env = dict(os.environ, NUMBA_NRT_STATS="1", PYTHONPATH=str(ROOT))
  out = subprocess.run(
    [sys.executable, "-c", _SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600
  )
  assert out.returncode == 0, out.stderr[-3000:]
  counts = dict(line.rsplit(" ", 1) for line in out.stdout.splitlines())
  assert len(counts) >= 20, out.stdout  # most test models load and step
  allocating = {name: int(n) for name, n in counts.items() if int(n)}
  assert not allocating, f"NRT allocations in 20 steps: {allocating}"
