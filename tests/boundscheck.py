"""The bounds-checked build the memory-safety test runs (tests/engine/test_memory_safety.py).

numba does not check array bounds; with NUMBA_BOUNDSCHECK=1 an out-of-bounds index raises
IndexError at the faulty line. That build is other code, compiled into a cache of its own
(engine/_jit.py), in one process. It compiles, with checks, every stage the memory-safety test
runs; the stages in UNCHECKED it takes from the normal build. A test run that includes that
test starts compiling it at once, beside the normal build (tests/conftest.py), and the test
waits for it.
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# stages the bounds-checked build takes from the normal build: the struct constructors (field
# stores of the handles, no indexing) and the SDF collisions (no bounds-checked test has an SDF
# geom); a fifth of its compile time
UNCHECKED = ("engine._structs.make_model", "engine._structs.make_data",
             "engine._structs.make_option", "engine._structs.make_statistic",
             "engine.collision.sdf.collide_sdf", "engine.collision.sdf.collide_mesh_sdf")


def environment():
  """The environment of a process of the bounds-checked build."""
  env = dict(os.environ, PYTHONPATH=ROOT, NUMBA_BOUNDSCHECK="1", NUMJOCO_COMPILE_JOBS="1",
             NUMJOCO_UNCHECKED_STAGES=",".join(UNCHECKED))
  env.pop("NUMBA_CACHE_DIR", None)  # engine/_jit.py gives the build its own directory
  return env


# the compiling process holds an exclusive lock on this file (its path in the environment, which
# xdist's workers inherit) until it exits; wait_for_compiling() takes it
_LOCK = "NUMJOCO_TEST_BOUNDSCHECK_LOCK"
_COMPILE = """
import fcntl, runpy, sys
lock = open(sys.argv[1], "w")
fcntl.flock(lock, fcntl.LOCK_EX)
print("locked", flush=True)
sys.argv = ["engine.warmup", "--lazy", "--claims", sys.argv[2]]
runpy.run_module("engine.warmup", run_name="__main__")
"""


def start_compiling():
  """Starts compiling the bounds-checked build's stages in the background (it needs nothing of
  the normal build, which can compile at the same time); returns the process, or None where
  file locks are not available."""
  try:
    import fcntl  # noqa: F401
  except ImportError:
    return None
  folder = tempfile.mkdtemp(prefix="numjoco-boundscheck-")
  lock, claims = os.path.join(folder, "compiling"), os.path.join(folder, "claims")
  os.makedirs(claims)
  process = subprocess.Popen([sys.executable, "-c", _COMPILE, lock, claims], cwd=ROOT,
                             env=environment(), stdout=subprocess.PIPE, text=True)
  process.stdout.readline()  # "locked"
  process.folder = folder
  os.environ[_LOCK] = lock
  return process


def wait_for_compiling():
  """Waits until the compiling process started by this test run (if any) has exited."""
  lock = os.environ.get(_LOCK)
  if lock and os.path.exists(lock):
    import fcntl
    with open(lock) as f:
      fcntl.flock(f, fcntl.LOCK_SH)
