"""Every way rendering can be unavailable ends in a clear error: RenderingUnavailableError (or
the viewer's message) naming the backend and what to install, never an exception from inside
PyOpenGL or glfw, and never a crash at import.

Each case runs in a fresh process (PyOpenGL binds one platform per process) in which the
missing piece is faked, so that these checks run on every machine, whatever it has installed:
shared libraries are hidden from ctypes (through which PyOpenGL, glfw and our own checks load
them), GLFW's library is a path that does not exist (PYGLFW_LIBRARY), the display is unset or
names no X server, or PyOpenGL's platform module fails to import.
"""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# run first in each process: hides the libraries named in HIDE_LIBRARIES (comma-separated
# names as PyOpenGL spells them, e.g. EGL for libEGL.so.1) from ctypes
_HIDE = """
import ctypes, ctypes.util, os
_hidden = [h for h in os.environ.get("HIDE_LIBRARIES", "").split(",") if h]
_open = ctypes.CDLL.__init__
def _refuse(self, name, *args, **kwargs):
  base = os.path.basename(str(name))
  if any(base == f"lib{h}.so" or base.startswith(f"lib{h}.so.") for h in _hidden):
    raise OSError(f"{name}: cannot open shared object file (hidden by the test)")
  _open(self, name, *args, **kwargs)
ctypes.CDLL.__init__ = _refuse
_find = ctypes.util.find_library
ctypes.util.find_library = lambda name: None if name in _hidden else _find(name)
"""

# PyOpenGL present but unable to import its platform module
_BREAK_PYOPENGL = """
import sys
class _NoPlatform:
  def find_spec(self, name, path, target=None):
    if name == "OpenGL.platform":
      raise ImportError("PyOpenGL cannot bind its platform (faked by the test)")
sys.meta_path.insert(0, _NoPlatform())
"""

_RENDER = """
import sys, engine
from suite import common
p = engine.Physics.from_xml_string(common.read_model("cartpole.xml"), common.ASSETS)
for attempt in ("physics.render", "engine.Renderer"):
  try:
    if attempt == "physics.render":
      p.render(24, 32, 0)
    else:
      engine.Renderer(p.model, 24, 32).render()
    print(attempt, "drew with", p.contexts.gl.backend)
  except engine.RenderingUnavailableError as e:
    print(attempt, "unavailable:", e)
"""


def _run(code, hide=(), prelude="", args=None, **env_vars):
  """Runs `code` (or `python args`) in a fresh process with the libraries `hide` hidden and
  the environment changed by env_vars (None unsets); returns (exit status, stdout + stderr)."""
  env = dict(os.environ, PYTHONPATH=ROOT, HIDE_LIBRARIES=",".join(hide))
  for var in ("MUJOCO_GL", "ENGINE_GL", "PYOPENGL_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
    env.pop(var, None)
  for var, value in env_vars.items():
    if value is None:
      env.pop(var, None)
    else:
      env[var] = value
  if args is not None:  # python -m args[0] args[1:], after the prelude
    code = (
      f"import runpy, sys\nsys.argv = {args!r}\n"
      f"runpy.run_module({args[0]!r}, run_name='__main__', alter_sys=True)\n"
    )
  out = subprocess.run(
    [sys.executable, "-c", _HIDE + prelude + code],
    env=env,
    cwd=ROOT,
    capture_output=True,
    text=True,
    timeout=300,
  )
  return out.returncode, out.stdout + out.stderr


def _assert_unavailable(output, *words):
  """Both physics.render and engine.Renderer raised RenderingUnavailableError saying words."""
  lines = [
    line for line in output.splitlines() if line.startswith(("physics.render", "engine.Renderer"))
  ]
  assert len(lines) == 2, output
  for line in lines:
    assert "unavailable:" in line, output
    for word in words:
      assert word in line, output
  assert "Traceback" not in output, output


@pytest.mark.parametrize(
  "backend, hide, words",
  [
    ("egl", ["EGL"], ["egl: libEGL not found", "apt install libegl1"]),
    ("egl", ["OpenGL", "GL"], ["egl: no desktop OpenGL library", "apt install libopengl0"]),
    ("osmesa", ["OSMesa"], ["osmesa: libOSMesa not found", "apt install libosmesa6"]),
  ],
  ids=["egl-without-libEGL", "egl-without-libGL", "osmesa-without-libOSMesa"],
)
def test_a_missing_library_names_its_package(backend, hide, words):
  from engine.render import context

  problem = context.backend_problem(backend)
  if problem:  # the machine lacks the backend's first library already: that one is named
    words = [problem]
  status, output = _run(_RENDER, hide=hide, MUJOCO_GL=backend)
  assert status == 0, output
  _assert_unavailable(output, *words)


def test_no_backend_at_all_names_each_ones_problem():
  status, output = _run(_RENDER, hide=["EGL", "OSMesa"])
  assert status == 0, output
  _assert_unavailable(
    output, "no OpenGL backend can start here", "libegl1", "libosmesa6", "glfw: needs a DISPLAY"
  )


@pytest.mark.parametrize(
  "env, words",
  [
    ({}, ["glfw: needs a DISPLAY", "apt install xvfb"]),
    (
      {"DISPLAY": ":4321", "PYGLFW_LIBRARY": "/nonexistent/libglfw.so.3"},
      ["glfw: the GLFW library did not load", "pip install glfw"],
    ),
    ({"DISPLAY": ":4321"}, ["glfw: could not connect to the display ':4321'"]),
  ],
  ids=["no-display", "no-glfw-library", "no-x-server"],
)
def test_glfw_without_its_pieces_says_which(env, words):
  status, output = _run(_RENDER, MUJOCO_GL="glfw", **env)
  assert status == 0, output
  _assert_unavailable(output, *words)


def test_a_pyopengl_that_cannot_bind_its_platform_is_a_clear_error():
  """Where a headless backend's libraries exist, PyOpenGL failing inside is reported as such;
  where none exist, the missing libraries are (either way no PyOpenGL traceback)."""
  status, output = _run(_RENDER, prelude=_BREAK_PYOPENGL)
  assert status == 0, output
  from engine.render import context

  if any(context.backend_problem(b) is None for b in ("egl", "osmesa")):
    _assert_unavailable(output, "PyOpenGL could not load OpenGL", "ImportError")
  else:
    _assert_unavailable(output, "no OpenGL backend can start here")


def test_renderer_modules_import_without_opengl():
  """Importing the renderer, engine's rendering names and the viewers needs no OpenGL and no
  GLFW library: only drawing does."""
  code = (
    "import engine, engine.render, engine.viewer, suite.viewer\n"
    "from engine.render import gl_renderer, gl_text, gl_resources\n"
    "print(engine.Renderer.__name__, engine.MjrContext.__name__, 'imported')\n"
  )
  status, output = _run(
    code, hide=["EGL", "OSMesa", "OpenGL", "GL"], PYGLFW_LIBRARY="/nonexistent/libglfw.so.3"
  )
  assert status == 0 and "Renderer MjrContext imported" in output, output


@pytest.mark.parametrize(
  "args, env, hide, words",
  [
    (
      ["engine.viewer"],
      {"MUJOCO_GL": "osmesa"},
      ["OSMesa"],
      ["cannot draw with OSMesa", "unset it"],
    ),
    (["engine.viewer"], {}, [], ["needs a display", "xvfb-run -a python -m engine.viewer"]),
    (
      ["engine.viewer"],
      {"DISPLAY": ":4321", "PYGLFW_LIBRARY": "/nonexistent/libglfw.so.3"},
      [],
      ["needs the GLFW library", "pip install glfw"],
    ),
    (["engine.viewer"], {"DISPLAY": ":4321"}, [], ["could not connect to the display ':4321'"]),
    (
      ["suite.viewer", "cartpole", "swingup"],
      {"DISPLAY": ":4321", "PYGLFW_LIBRARY": "/nonexistent/libglfw.so.3"},
      [],
      ["needs the GLFW library", "pip install glfw"],
    ),
  ],
  ids=["osmesa", "no-display", "no-glfw-library", "no-x-server", "suite-no-glfw-library"],
)
def test_viewers_say_why_no_window_opens(args, env, hide, words):
  status, output = _run("", hide=hide, args=args + ["--frames", "1"], **env)
  assert status == 1, output
  assert "Traceback" not in output, output
  error = [line for line in output.splitlines() if line.startswith("error: ")]
  assert error, output
  for word in words:
    assert word in error[0], output
