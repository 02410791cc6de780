"""A visible GLFW window with a double-buffered OpenGL context, for the viewers.

The window forwards GLFW's input callbacks to a handler object (methods `on_key`,
`on_mouse_button`, `on_cursor`, `on_scroll`, `on_drop`, `on_resize`), so that the same
handler can be driven by scripted events in tests. A window and its context belong to the
thread that made them.
"""

import os

from engine.errors import RenderingUnavailableError
from engine.render import context


def start_virtual_display():
  """Start an Xvfb X server on a free display: (its process, DISPLAY string such as ':1').
  For headless machines (scripts, tests, benchmarks); terminate the process when done.

  Raises:
    RenderingUnavailableError: Xvfb is not installed or does not start.
  """
  import shutil
  import subprocess

  xvfb = shutil.which("Xvfb")
  if xvfb is None:
    raise RenderingUnavailableError("Xvfb is not installed (Debian: apt install xvfb)")
  read, write = os.pipe()
  proc = subprocess.Popen(
    [xvfb, "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
    pass_fds=(write,),
    stderr=subprocess.DEVNULL,
  )
  os.close(write)
  with os.fdopen(read) as f:
    number = f.readline().strip()
  if not number:
    proc.kill()
    raise RenderingUnavailableError("Xvfb exited without a display number")
  return proc, f":{number}"


def load_glfw():
  """The glfw module; RenderingUnavailableError saying what to install when its library does
  not load (pip's glfw ships one; PYGLFW_LIBRARY may name another)."""
  try:
    import glfw
  except Exception as e:
    raise RenderingUnavailableError(
      f"the viewer needs the GLFW library, which did not load ({e}): pip install glfw"
    ) from e
  return glfw


# glfw, imported on first use: the viewer's modules import where GLFW cannot load
glfw = context.LazyModule(load_glfw)


def _glfw():
  """The glfw module, initialised; RenderingUnavailableError with the reason when no window can
  open (MUJOCO_GL=osmesa, no display, no GLFW library, no X server or Wayland compositor)."""
  for var in ("ENGINE_GL", "MUJOCO_GL"):
    if os.environ.get(var, "").strip().lower() == "osmesa":
      raise RenderingUnavailableError(
        f"the viewer cannot draw with OSMesa ({var}=osmesa binds PyOpenGL to it): unset it, or "
        f"set it to glfw or egl, for a process that opens viewer windows"
      )
  if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
    raise RenderingUnavailableError(
      "the viewer needs a display: no DISPLAY or WAYLAND_DISPLAY is set (on a headless "
      "machine run it under a virtual X server, e.g. `xvfb-run -a python -m engine.viewer`; "
      "Debian: apt install xvfb)"
    )
  module = load_glfw()
  try:
    ok = module.init()
  except Exception as e:
    raise RenderingUnavailableError(f"glfw failed to initialize: {e}") from e
  if not ok:
    raise RenderingUnavailableError(
      f"glfw could not connect to the display {os.environ.get('DISPLAY', '')!r} (no X server "
      f"there? on a headless machine: `xvfb-run -a python -m engine.viewer`)"
    )
  return module


def _context_api(glfw):
  """GLFW's context creation API matching the platform PyOpenGL binds: GLX's native contexts,
  or EGL ones when MUJOCO_GL=egl chose EGL for offscreen rendering (PyOpenGL keeps per-context
  state that it finds through its own platform)."""
  platform = type(context.import_opengl("OpenGL.platform").PLATFORM).__name__.lower()
  if "osmesa" in platform:
    raise RenderingUnavailableError(
      "the viewer cannot draw with PyOpenGL bound to OSMesa (PYOPENGL_PLATFORM=osmesa): "
      "unset it, or set MUJOCO_GL to glfw or egl, for a process that opens viewer windows"
    )
  return glfw.EGL_CONTEXT_API if "egl" in platform else glfw.NATIVE_CONTEXT_API


def _software_renderer() -> bool:
  """Whether the current OpenGL context rasterizes on the CPU."""
  GL = context.import_opengl()
  renderer = (GL.glGetString(GL.GL_RENDERER) or b"").decode(errors="replace").lower()
  return any(name in renderer for name in ("llvmpipe", "softpipe", "swrast", "software"))


class Window:
  """A visible, resizable window whose OpenGL context is current on the creating thread.

  Args:
    title: window title.
    width, height: initial size in screen coordinates.
    handler: receives the input callbacks (see the module doc); may be set later.
  """

  def __init__(self, title="engine viewer", width=1280, height=720, handler=None):
    glfw = _glfw()
    self._glfw = glfw
    window = self._create(title, width, height, samples=4)
    if _software_renderer():
      # multisampling costs software rasterizers (Mesa's llvmpipe) ~40% of the frame rate
      glfw.destroy_window(window)
      window = self._create(title, width, height, samples=0)
    self.handle = window
    self.handler = handler
    glfw.swap_interval(1)
    glfw.set_key_callback(window, self._key)
    glfw.set_mouse_button_callback(window, self._mouse_button)
    glfw.set_cursor_pos_callback(window, self._cursor)
    glfw.set_scroll_callback(window, self._scroll)
    glfw.set_drop_callback(window, self._drop)
    glfw.set_framebuffer_size_callback(window, self._resize)

  def _create(self, title, width, height, samples):
    glfw = self._glfw
    glfw.default_window_hints()
    glfw.window_hint(glfw.SAMPLES, samples)
    glfw.window_hint(glfw.DOUBLEBUFFER, 1)
    glfw.window_hint(glfw.VISIBLE, 1)
    glfw.window_hint(glfw.CONTEXT_CREATION_API, _context_api(glfw))
    window = glfw.create_window(int(width), int(height), title, None, None)
    if not window and samples:
      # some X servers offer no multisampled visual
      return self._create(title, width, height, 0)
    if not window:
      raise RenderingUnavailableError("glfw could not create an OpenGL window")
    glfw.make_context_current(window)
    return window

  # ---- state ----

  def framebuffer_size(self):
    """(width, height) of the drawable in pixels (differs from the window size on HiDPI)."""
    return self._glfw.get_framebuffer_size(self.handle)

  def window_size(self):
    return self._glfw.get_window_size(self.handle)

  def should_close(self) -> bool:
    return bool(self._glfw.window_should_close(self.handle))

  def request_close(self):
    self._glfw.set_window_should_close(self.handle, 1)

  def set_title(self, title):
    self._glfw.set_window_title(self.handle, title)

  def poll_events(self):
    self._glfw.poll_events()

  def swap_buffers(self):
    self._glfw.swap_buffers(self.handle)

  def make_current(self):
    self._glfw.make_context_current(self.handle)

  def close(self):
    if self.handle is not None:
      self._glfw.destroy_window(self.handle)
      self.handle = None
      self._glfw.poll_events()  # let the X server see the window go

  # ---- GLFW callbacks, forwarded with sizes the handler needs ----

  def _key(self, window, key, scancode, action, mods):
    if self.handler is not None:
      self.handler.on_key(key, action, mods)

  def _mouse_button(self, window, button, action, mods):
    if self.handler is not None:
      self.handler.on_mouse_button(button, action, mods)

  def _cursor(self, window, x, y):
    if self.handler is not None:
      self.handler.on_cursor(x, y)

  def _scroll(self, window, dx, dy):
    if self.handler is not None:
      self.handler.on_scroll(dx, dy)

  def _drop(self, window, paths):
    if self.handler is not None and paths:
      self.handler.on_drop(list(paths))

  def _resize(self, window, width, height):
    if self.handler is not None:
      self.handler.on_resize(width, height)
