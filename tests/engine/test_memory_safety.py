"""Memory safety: tiny random models step and exit cleanly, and a bounds-checked build passes.

numba does not check array bounds: a write one past a view corrupts the heap and the process
dies later ("corrupted size vs. prev_size", "free(): invalid pointer"), far from the cause.
Both checks run in subprocesses so that such a death fails the test instead of the session.

- Fuzz: models of 0-3 bodies (nv = 0, 1, 2, ...) with every joint type, damping, armature,
  friction loss and limits on and off, every integrator, both cones, the three solvers,
  actuators, tendons and contacts on and off (tests/fuzz.py), stepped with the normal build;
  the process must exit with status 0 and print no allocator error.
- Bounds-checked: the same fuzz models plus a representative subset of the engine's oracle
  tests and the suite's task kernels, run with NUMBA_BOUNDSCHECK=1 (its own numba cache, see
  engine/_jit.py and tests/boundscheck.py), where an out-of-bounds index raises IndexError at
  the faulty line.
"""

import os
import pathlib
import subprocess
import sys

import numba
import pytest

from tests import boundscheck

ROOT = pathlib.Path(__file__).resolve().parents[2]

# fuzz driver: prints each case before stepping it, so a crash names the model
_FUZZ = """
import sys
import numpy as np
import engine
from tests import fuzz

cases = list(fuzz.CASES.items())
cases += [(f"seed{s}", fuzz.random_tiny_xml(s)) for s in range(NCASES)]
for name, xml in cases:
  print("case", name, flush=True)
  m = engine.MjModel.from_xml_string(xml)
  d = engine.MjData(m)
  rng = np.random.default_rng(0)
  d.qvel[:] = rng.normal(0, 0.5, m.nv)
  d.ctrl[:] = rng.normal(0, 1, m.nu)
  engine.mj_step(m, d, 100)
  for _ in range(5):
    engine.mj_step(m, d)
  engine.mj_step1(m, d)
  engine.mj_step2(m, d)
  engine.mj_forward(m, d)
  engine.mj_inverse(m, d)
  assert m.nv == 0 or np.all(np.isfinite(d.qacc)), name
print("all", len(cases), "cases ok", flush=True)
"""

_ALLOCATOR_ERRORS = (
  "corrupted",
  "free():",
  "double free",
  "malloc",
  "Segmentation fault",
  "Fatal Python error",
)

# oracle tests that reach every stage of the pipeline: all test models, contacts with every
# solver and cone, the collision midphase, the implicit derivatives, sensors, rays, Jacobians and
# state functions
BOUNDSCHECKED_TESTS = [
  "tests/engine/test_forward.py",
  "tests/engine/test_contact_pipeline.py",
  "tests/engine/test_collision_midphase.py",
  "tests/engine/test_collision_mpr.py",
  "tests/engine/test_island.py",
  "tests/engine/test_sleep.py",
  "tests/engine/test_many_trees.py",
  # sparse Newton with elliptic cones: Hessian patterns, factor, updates, folded cone Hessians
  "tests/engine/test_trajectory.py::test_primal_solve_bit_equal_from_mujocos_state"
  "[pile-elliptic-sparse-Newton]",
  # efc_Y and efc_AR of the dual solvers, dense and sparse
  "tests/engine/test_constraint.py::test_projection_contact_models",
  "tests/engine/test_constraint.py::test_projection_equalities_and_exact_diagonal",
  "tests/engine/test_derivative.py",
  "tests/engine/test_sensor.py",
  "tests/engine/test_support.py",
  "tests/engine/test_state.py",
  "tests/engine/test_ray.py",
  # plugin callbacks (pid, touch_grid, Python plugins; the corpus has pid and cable models)
  "tests/engine/test_plugin.py",
  # the task kernels of the vectorised suite (suite/kernels.py), one task per domain
  "tests/suite/test_vector.py",
  "tests/suite/test_vector_simple.py",
  "tests/suite/test_vector_locomotion.py",
  "tests/suite/test_vector_complex.py",
  "tests/suite/test_kernels_all_tasks.py",
]


def _run(args, env, timeout):
  return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


def _check_clean(out):
  text = out.stdout[-3000:] + out.stderr[-3000:]
  last = [line for line in out.stdout.splitlines() if line.startswith("case ")]
  where = f" (last case started: {last[-1][5:]})" if last else ""
  assert out.returncode == 0, f"exit status {out.returncode}{where}\n{text}"
  assert not any(e in out.stderr for e in _ALLOCATOR_ERRORS), text


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="memory errors only exist compiled")
def test_fuzz_tiny_models_exit_cleanly():
  out = _run(
    [sys.executable, "-c", _FUZZ.replace("NCASES", "60")],
    dict(os.environ, PYTHONPATH=str(ROOT)),
    timeout=900,
  )
  _check_clean(out)
  assert "cases ok" in out.stdout


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="bounds checks are a compiled-code option")
def test_bounds_checked_engine():
  from engine import _stage

  _stage.compile_all(lazy=False)  # the normal build, which has the UNCHECKED stages
  env = boundscheck.environment()
  fuzz = _run([sys.executable, "-c", _FUZZ.replace("NCASES", "30")], env, timeout=1200)
  _check_clean(fuzz)
  tests = _run(
    [
      sys.executable,
      "-m",
      "pytest",
      "-q",
      "-x",
      "-n0",
      "-p",
      "no:cacheprovider",
      *BOUNDSCHECKED_TESTS,
    ],
    env,
    timeout=1800,
  )
  assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
  if "NUMBA_CACHE_DIR" not in os.environ:
    # the bounds-checked build compiled the stages it ran, and took UNCHECKED from the normal one
    from engine import _jit

    compiled = {
      p.name.split("-")[0]
      for p in pathlib.Path(_jit.NORMAL_CACHE_DIR + "-boundscheck").rglob("*.nbi")
    }
    assert "forward.step" in compiled
    assert not compiled & {".".join(name.split(".")[-2:]) for name in boundscheck.UNCHECKED}
