"""The OpenGL backend the tests render with, decided once per test process.

The oracles (mujoco, dm_control) choose their backend from MUJOCO_GL when first imported, and
importing them with a backend whose library is missing fails from inside PyOpenGL. So, before
any test module imports them, `choose_backend_for_oracles` (called by conftest.py) points
MUJOCO_GL at the headless backend our renderer can start here (EGL, else OSMesa), or disables
rendering when there is none; tests that draw in this process use the `opengl` fixture
(conftest.py), which skips them with the reason (what is missing and what to install).
"""

import functools
import os

# why no headless backend can start here, set with MUJOCO_GL=disable by
# choose_backend_for_oracles (an environment variable, so that pytest-xdist's workers, which
# inherit MUJOCO_GL, can say why too)
_NO_BACKEND = "NUMJOCO_TESTS_NO_OPENGL"


def choose_backend_for_oracles():
  """Sets MUJOCO_GL for a machine without a display, unless it is set already."""
  if os.environ.get("MUJOCO_GL") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
    return
  from engine.render import context

  problems = []
  for backend in ("egl", "osmesa"):
    problem = context.backend_problem(backend)
    if problem is None:
      os.environ["MUJOCO_GL"] = backend
      return
    problems.append(problem)
  os.environ["MUJOCO_GL"] = "disable"
  os.environ[_NO_BACKEND] = "; ".join(problems)


@functools.cache
def opengl_problem():
  """None when our renderer can draw in this process, else why not."""
  if os.environ.get(_NO_BACKEND):
    return f"no OpenGL backend can start here: {os.environ[_NO_BACKEND]}"
  from engine.physics import RenderingUnavailableError
  from engine.render import context

  try:
    context.GLContext(8, 8).free()
  except RenderingUnavailableError as e:
    return f"no OpenGL backend can start here: {e}"
  return None
