"""Test configuration: the repository root is importable (engine, mjcf, tests.oracle), the
OpenGL backend is chosen before the oracles are imported (tests/gl.py), and the tests run on
several processes (pytest-xdist, `-n auto` in pyproject.toml) that share one compiled engine."""

import os
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests import gl  # noqa: E402

gl.choose_backend_for_oracles()

# the longest test (a subprocess running the bounds-checked build), started first so that the
# others run beside it
_BOUNDS_CHECKED = "tests/engine/test_memory_safety.py::test_bounds_checked_engine"


def pytest_configure(config):
  """Before xdist starts its workers, compile the engine (or load it) in this process once, so
  that the workers load it from the cache instead of each compiling it."""
  if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
    return
  from engine import _jit
  if not _jit.DISABLE_JIT:
    from engine import _stage
    _stage.compile_all(lazy=True)


def pytest_xdist_auto_num_workers(config):
  """`-n auto`: a worker per core, at most one per 3 GB of memory (each holds mujoco, dm_control
  and the engine) and at most 4."""
  try:
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
  except (ValueError, OSError, AttributeError):
    memory = 12 << 30
  return max(1, min(os.cpu_count() or 1, memory // (3 << 30), 4))


def pytest_collection_modifyitems(config, items):
  items.sort(key=lambda item: item.nodeid != _BOUNDS_CHECKED)

  # tests that draw in this process run where an OpenGL backend starts, and say why not
  # elsewhere (.ci/run installs Mesa's EGL and OSMesa, so none is skipped there)
  drawing = [item for item in items if "opengl" in item.fixturenames]
  if drawing:
    problem = gl.opengl_problem()
    for item in drawing:
      item.add_marker(pytest.mark.skipif(problem is not None, reason=str(problem)))


@pytest.fixture(scope="session")
def opengl():
  """Marks a test that draws in this process (see pytest_collection_modifyitems)."""
