"""The bounds-checked build the memory-safety test runs (tests/engine/test_memory_safety.py).

numba does not check array bounds; with NUMBA_BOUNDSCHECK=1 an out-of-bounds index raises
IndexError at the faulty line. That build is other code, compiled into a cache of its own
(engine/_jit.py). It compiles, with checks, every stage the memory-safety test runs; the stages
in UNCHECKED it takes from the normal build. It compiles in one process, beside the other
tests (tests/conftest.py starts its test first): measured, two compile processes beside a test
worker used a quarter more CPU time than one.
"""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# stages the bounds-checked build takes from the normal build: the SDF collisions (no
# bounds-checked test has an SDF geom)
UNCHECKED = ("engine.collision.sdf.collide_sdf", "engine.collision.sdf.collide_mesh_sdf")


def environment():
  """The environment of a process of the bounds-checked build."""
  # (it compiles only the stages its tests reach: none in the background)
  env = dict(
    os.environ,
    PYTHONPATH=ROOT,
    NUMBA_BOUNDSCHECK="1",
    NUMJOCO_COMPILE_JOBS="1",
    NUMJOCO_UNCHECKED_STAGES=",".join(UNCHECKED),
    NUMJOCO_BACKGROUND_COMPILE="0",
  )
  env.pop("NUMBA_CACHE_DIR", None)  # engine/_jit.py gives the build its own directory
  return env
