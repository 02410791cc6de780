"""Test configuration: the repository root is importable (engine, mjcf, tests.oracle), and the
OpenGL backend is chosen before the oracles are imported (tests/gl.py)."""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests import gl  # noqa: E402

gl.choose_backend_for_oracles()


@pytest.fixture(scope="session")
def opengl():
  """For tests that draw in this process: skips them, saying why, where no OpenGL backend can
  start (.ci/run installs Mesa's EGL and OSMesa, so none is skipped there)."""
  problem = gl.opengl_problem()
  if problem:
    pytest.skip(problem)
