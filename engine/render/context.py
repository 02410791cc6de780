"""OpenGL contexts for rendering: EGL (headless), OSMesa (software), GLFW (hidden window).

The backend is chosen like dm_control's `_render`: the environment variable `ENGINE_GL` (ours,
taking precedence) or `MUJOCO_GL` names it (egl, osmesa, glfw; disable/off refuses rendering);
with neither set, EGL is tried first when there is no DISPLAY, else GLFW first, then the others.
PyOpenGL binds its platform (EGL, OSMesa or GLX) when `OpenGL` is first imported, so
`PYOPENGL_PLATFORM` is set here before that import, as dm_control does.

A backend whose library is missing fails inside PyOpenGL with an unrelated AttributeError, so
each backend's libraries are looked up first (`backend_problem`, without loading PyOpenGL) and
the renderer imports OpenGL lazily (`LazyModule`, `import_opengl`): where nothing can draw, the
first draw raises RenderingUnavailableError naming the backend and what to install.

A context belongs to the thread that created it (OpenGL state is per thread); using it from
another thread raises a clear error instead of drawing into whatever context that thread holds.

Contexts die with their owner (a Physics, a Renderer), often in a garbage collection that runs
while another context is current. So: `with ctx.make_current():` holds the cyclic garbage
collector off for its block (a finalizer freeing a context, ours or another library's, cannot
run between two GL calls of the block), and what was current before the block is made current
again afterwards only if it still exists: ours are tracked (`_LIVE`, by native handle, so that
a new context at a destroyed one's address is never mistaken for it); another library's is
checked by EGL itself (EGL_BAD_CONTEXT: none is current instead). A GLFW window or OSMesa
context of another library cannot be checked: an OSMesa one is not restored (as before: it
cannot be made current without its buffer), a GLFW one is, and GLFW's error, if it was
destroyed, leaves none current.
"""

import ctypes
import ctypes.util
import gc
import importlib
import os
import sys
import threading
import warnings
import weakref

from engine.errors import RenderingUnavailableError

_DISABLED = ("disable", "disabled", "off", "false", "0")
_BACKENDS = ("egl", "osmesa", "glfw")
_PLATFORM_OF = {"egl": "egl", "osmesa": "osmesa", "glfw": None}
_DESKTOP_GL = ("OpenGL", "GL")  # what PyOpenGL loads for desktop OpenGL, in its order


def requested_backend():
  """Backend named by ENGINE_GL or MUJOCO_GL (lowercase), '' when neither is set.

  Raises:
    RenderingUnavailableError: the variable disables rendering or names an unknown backend.
  """
  for var in ("ENGINE_GL", "MUJOCO_GL"):
    value = os.environ.get(var, "").strip().lower()
    if not value:
      continue
    if value in _DISABLED:
      raise RenderingUnavailableError(f"rendering disabled by {var}={value!r}")
    if value not in _BACKENDS:
      raise RenderingUnavailableError(
        f"invalid value for environment variable {var}: {value!r}; "
        f"valid values are {', '.join(_BACKENDS)} or disable"
      )
    return value
  return ""


def candidate_backends():
  """Backends to try in order: the requested one alone, or the headless-friendly default order."""
  backend = requested_backend()
  if backend:
    return (backend,)
  if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
    return ("glfw", "egl", "osmesa")
  return ("egl", "osmesa", "glfw")


def _loads(name) -> bool:
  """Whether the shared library lib<name> loads, looked up as PyOpenGL looks it up (on Linux
  lib<name>.so, then lib<name>.so.9 down to .so.0; elsewhere through ctypes.util)."""
  if sys.platform.startswith("linux"):
    files = [f"lib{name}.so"] + [f"lib{name}.so.{i}" for i in range(9, -1, -1)]
  else:
    files = [ctypes.util.find_library(name)]
  for file in filter(None, files):
    try:
      ctypes.CDLL(file)
      return True
    except OSError:
      pass
  return False


def backend_problem(backend):
  """Why `backend` cannot start in this process, naming what to install, or None when nothing
  is missing. Checked without loading PyOpenGL (which binds one platform per process and fails
  from inside when that platform's library is missing)."""
  if backend == "egl":
    if not _loads("EGL"):
      return "egl: libEGL not found (Debian: apt install libegl1 libegl-mesa0)"
    if not any(_loads(name) for name in _DESKTOP_GL):
      return (
        "egl: no desktop OpenGL library (libOpenGL or libGL) to draw with "
        "(Debian: apt install libopengl0)"
      )
  elif backend == "osmesa":
    if not _loads("OSMesa"):
      return "osmesa: libOSMesa not found (Debian: apt install libosmesa6)"
  elif backend == "glfw":
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
      return (
        "glfw: needs a DISPLAY (an X server or Wayland compositor; on a headless machine "
        "Xvfb: apt install xvfb)"
      )
    try:
      import glfw  # noqa: F401
    except Exception as e:  # the wheel's GLFW library, or PYGLFW_LIBRARY's, did not load
      return f"glfw: the GLFW library did not load ({e}; pip install glfw ships it)"
    if not any(_loads(name) for name in _DESKTOP_GL):
      return "glfw: no OpenGL library (libGL) (Debian: apt install libgl1)"
  return None


def choose_backend():
  """The backend this process renders with: the requested one, or the first of the default
  order that can start here.

  Raises:
    RenderingUnavailableError: naming each candidate's problem and what to install.
  """
  names = candidate_backends()
  problems = []
  for name in names:
    problem = backend_problem(name)
    if problem is None:
      return name
    problems.append(problem)
  if len(problems) == 1:
    raise RenderingUnavailableError(problems[0])
  raise RenderingUnavailableError("no OpenGL backend can start here: " + "; ".join(problems))


# the platform this module chose for PyOpenGL (an explicit GLContext backend may replace it
# until OpenGL is imported); a user's own PYOPENGL_PLATFORM is kept
_chosen_platform = None


def _set_pyopengl_platform(backend):
  """Point PyOpenGL at the backend's platform before OpenGL is first imported.

  Raises:
    RenderingUnavailableError: OpenGL was already imported for an incompatible platform.
  """
  global _chosen_platform
  wanted = _PLATFORM_OF[backend]
  current = os.environ.get("PYOPENGL_PLATFORM", "").lower()
  if "OpenGL.platform" in sys.modules:
    if wanted and current and current != wanted:
      raise RenderingUnavailableError(
        f"cannot use the {backend} backend: PyOpenGL was already imported with "
        f"PYOPENGL_PLATFORM={current!r}; set MUJOCO_GL/ENGINE_GL before importing OpenGL"
      )
    if wanted and not current:
      # imported with the default (GLX) platform: EGL/OSMesa entry points are not bound
      raise RenderingUnavailableError(
        f"cannot use the {backend} backend: PyOpenGL was already imported without "
        f"PYOPENGL_PLATFORM={wanted!r}; set MUJOCO_GL={backend} before importing OpenGL"
      )
    return
  if current and current == _chosen_platform:
    current = ""  # our own earlier choice, not yet bound
  if wanted:
    if current and current != wanted:
      raise RenderingUnavailableError(
        f"cannot use the {backend} backend: PYOPENGL_PLATFORM is set to {current!r}"
      )
    os.environ["PYOPENGL_PLATFORM"] = _chosen_platform = wanted
  elif current in ("egl", "osmesa"):
    raise RenderingUnavailableError(f"cannot use glfw: PYOPENGL_PLATFORM is set to {current!r}")
  elif _chosen_platform:
    del os.environ["PYOPENGL_PLATFORM"]
    _chosen_platform = None


def configure_pyopengl():
  """Set PYOPENGL_PLATFORM for the backend that will be used, unless OpenGL is imported already.

  Called when this module is imported, so that OpenGL imported afterwards (by the renderer or
  by another library) binds to EGL or OSMesa as dm_control's `_render` package arranges.
  """
  if "OpenGL" in sys.modules or os.environ.get("PYOPENGL_PLATFORM"):
    return
  try:
    _set_pyopengl_platform(choose_backend())
  except RenderingUnavailableError:
    return  # reported when a context is asked for


_import_failure = None


def import_opengl(name="OpenGL.GL"):
  """PyOpenGL's module `name`, with PyOpenGL bound to a backend that can start here.

  Raises:
    RenderingUnavailableError: no backend can start, or PyOpenGL failed to load OpenGL for its
      platform (say, a library that loads but lacks OpenGL's functions); never PyOpenGL's own
      exception from inside its import.
  """
  global _import_failure
  module = sys.modules.get(name)
  if module is not None and _import_failure is None:
    return module
  if _import_failure is not None:
    raise RenderingUnavailableError(_import_failure)
  if "OpenGL.platform" not in sys.modules and not os.environ.get("PYOPENGL_PLATFORM"):
    _set_pyopengl_platform(choose_backend())
  try:
    return importlib.import_module(name)
  except Exception as e:
    platform = os.environ.get("PYOPENGL_PLATFORM") or "default (GLX)"
    _import_failure = (
      f"PyOpenGL could not load OpenGL for its {platform} platform ({type(e).__name__}: {e}); "
      f"install the backend's libraries (Debian: apt install libegl1 libegl-mesa0 libopengl0, "
      f"or libosmesa6 with MUJOCO_GL=osmesa) or choose another with MUJOCO_GL"
    )
    raise RenderingUnavailableError(_import_failure) from e


class LazyModule:
  """A module loaded by `load()` on its first attribute use (`GL = LazyModule(import_opengl)`):
  the renderer's and viewer's modules import without OpenGL or GLFW, and a machine where these
  cannot load gets RenderingUnavailableError when something is drawn. Each attribute is looked
  up once, then read as a plain attribute."""

  def __init__(self, load):
    self._load = load

  def __getattr__(self, attr):
    if attr.startswith("__"):
      raise AttributeError(attr)
    value = getattr(self._load(), attr)
    setattr(self, attr, value)
    return value


# every live context of ours: (backend, address of its native handle) -> weakref to its
# implementation; a handle current before one of our blocks is restored only if it is still
# registered to the same implementation
_LIVE = {}


def _register(backend, impl):
  _LIVE[(backend, impl.address())] = weakref.ref(impl)


def _unregister(backend, impl):
  key = (backend, impl.address())
  if key in _LIVE and _LIVE[key]() is impl:
    del _LIVE[key]


def _live(backend, address):
  """The live implementation of ours whose handle is at `address`, or None."""
  ref = _LIVE.get((backend, address))
  return ref() if ref is not None else None


class _Previous:
  """The context current before a block: its address, the backend's raw handle(s), and the
  implementation of ours it belonged to (a weakref) or None for another library's."""

  __slots__ = ("address", "raw", "owner")

  def __init__(self, backend, address, raw):
    self.address = address
    self.raw = raw
    impl = _live(backend, address)
    self.owner = weakref.ref(impl) if impl is not None else None


def _restore(backend, impl, previous):
  """Makes `previous` current again if it still exists, else leaves no context current."""
  if previous.owner is not None:
    other = previous.owner()
    if other is not None and _live(backend, previous.address) is other:
      other.make_current()
      return
  elif _live(backend, previous.address) is None and impl.restore(previous.raw):
    return
  # destroyed meanwhile (or its address now holds a new context of ours)
  impl.release()


# the cyclic garbage collector is held off while any of our blocks runs (see the docstring)
_gc_lock = threading.Lock()
_gc_hold = [0, False]  # open blocks, whether the collector was enabled before the first


def _hold_gc():
  with _gc_lock:
    if _gc_hold[0] == 0:
      _gc_hold[1] = gc.isenabled()
      gc.disable()
    _gc_hold[0] += 1


def _release_gc():
  with _gc_lock:
    _gc_hold[0] -= 1
    if _gc_hold[0] == 0 and _gc_hold[1]:
      gc.enable()


class GLContext:
  """An OpenGL context on one backend, bound to the thread that created it and current there
  after creation unless another library's context was current (that one stays current).

  Attributes:
    backend: 'egl', 'osmesa' or 'glfw'.
    max_width, max_height: largest framebuffer the caller intends to use (pixels).
  """

  def __init__(self, max_width=640, max_height=480, backend=None):
    names = (backend,) if backend else candidate_backends()
    errors = []
    for name in names:
      if name not in _BACKENDS:
        raise RenderingUnavailableError(f"unknown OpenGL backend {name!r}")
      try:
        problem = backend_problem(name)
        if problem:
          raise RenderingUnavailableError(problem)
        _set_pyopengl_platform(name)
        self._impl = _IMPLEMENTATIONS[name](max_width, max_height)
      except RenderingUnavailableError as e:
        errors.append(str(e))
        continue
      self.backend = name
      break
    else:
      if len(errors) == 1:
        raise RenderingUnavailableError(errors[0])
      raise RenderingUnavailableError("no OpenGL backend can start here: " + "; ".join(errors))
    self.max_width = max_width
    self.max_height = max_height
    self._thread = threading.get_ident()
    _register(self.backend, self._impl)
    # another library's context stays current: dm_control remembers which of its contexts is
    # current and would otherwise draw into this one
    previous = self._previous()
    self._impl.make_current()
    if previous is not None:
      _restore(self.backend, self._impl, previous)

  def _check_thread(self):
    if self._impl is None:
      raise RuntimeError("this GLContext was freed")
    if threading.get_ident() != self._thread:
      raise RuntimeError(
        "this GLContext belongs to another thread: OpenGL contexts are bound to the thread "
        "that created them; create one context per thread"
      )

  def _previous(self):
    """_Previous for the context current on this thread if it is not this one, else None."""
    current = self._impl.current()
    if current is None:
      return None
    address, raw = current
    return _Previous(self.backend, address, raw)

  def make_current(self):
    """Make the context current on this thread. As `with ctx.make_current():` the context that
    was current before (another library's, e.g. dm_control's or mujoco's) is current again
    after the block, if it still exists (else none is), and no garbage collection runs inside
    the block: those libraries assume their context stays current between their calls."""
    self._check_thread()
    previous = self._previous()
    self._impl.make_current()
    return _Current(self, previous)

  def call(self, func, *args, **kwargs):
    """Run func(*args, **kwargs) with this context current (dm_control's `ctx.call`); the
    previously current context is current again afterwards."""
    with self.make_current():
      return func(*args, **kwargs)

  def free(self):
    """Release the context; further use raises. Freed from another thread than its own (a
    garbage collection there), the native context is left for the process's end."""
    impl = getattr(self, "_impl", None)
    if impl is not None:
      self._impl = None
      _unregister(self.backend, impl)
      if threading.get_ident() == self._thread:
        impl.free()

  def __del__(self):
    try:
      self.free()
    except Exception:  # interpreter shutdown: libraries may be gone already
      pass


class _Current:
  """Context manager returned by make_current: holds the garbage collector off in the block and
  restores the previously current context (if it still exists) after it."""

  def __init__(self, context, previous):
    self.context = context
    self._previous = previous
    self._holding = False

  def __enter__(self):
    _hold_gc()
    self._holding = True
    return self.context

  def __exit__(self, *exc):
    try:
      impl = self.context._impl
      if impl is not None and self._previous is not None:
        _restore(self.context.backend, impl, self._previous)
    finally:
      if self._holding:
        self._holding = False
        _release_gc()
    return False


# ---- EGL ----

_EGL_PLATFORM_DEVICE_EXT = 0x313F
_EGL_PLATFORM_SURFACELESS_MESA = 0x31DD


class _EGLContext:
  """Headless EGL context (Mesa surfaceless or device platform); rendering goes to FBOs."""

  _display = None

  def __init__(self, max_width, max_height):
    del max_width, max_height  # framebuffers are FBOs, no pbuffer needed
    EGL = import_opengl("OpenGL.EGL")
    self._egl = EGL
    display = self._get_display()
    # the default surface type (window) has no configs on headless platforms: ask for pbuffer
    attributes = (EGL.EGLint * 19)(
      EGL.EGL_RED_SIZE,
      8,
      EGL.EGL_GREEN_SIZE,
      8,
      EGL.EGL_BLUE_SIZE,
      8,
      EGL.EGL_ALPHA_SIZE,
      8,
      EGL.EGL_DEPTH_SIZE,
      24,
      EGL.EGL_STENCIL_SIZE,
      8,
      EGL.EGL_SURFACE_TYPE,
      EGL.EGL_PBUFFER_BIT,
      EGL.EGL_RENDERABLE_TYPE,
      EGL.EGL_OPENGL_BIT,
      EGL.EGL_NONE,
    )
    config = EGL.EGLConfig()
    count = EGL.EGLint()
    if (
      not EGL.eglChooseConfig(display, attributes, ctypes.byref(config), 1, ctypes.byref(count))
      or count.value < 1
    ):
      raise RenderingUnavailableError(
        "egl: no framebuffer configuration for OpenGL (Debian: apt install libegl-mesa0)"
      )
    if not EGL.eglBindAPI(EGL.EGL_OPENGL_API):
      raise RenderingUnavailableError("egl: cannot bind the desktop OpenGL API")
    context = EGL.eglCreateContext(display, config, EGL.EGL_NO_CONTEXT, None)
    if not context:
      raise RenderingUnavailableError("egl: could not create an OpenGL context")
    self._context = context
    self._display_handle = display

  def _get_display(self):
    """An initialized EGL display: Mesa surfaceless, then the first device, then the default."""
    if _EGLContext._display is not None:
      return _EGLContext._display
    EGL = self._egl
    candidates = []
    get_platform_display = _egl_extension(
      "eglGetPlatformDisplayEXT", ctypes.c_void_p, (ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    )
    if get_platform_display is not None:
      candidates.append(lambda: get_platform_display(_EGL_PLATFORM_SURFACELESS_MESA, None, None))
      query_devices = _egl_extension(
        "eglQueryDevicesEXT",
        ctypes.c_uint,
        (ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int)),
      )
      if query_devices is not None:

        def first_device():
          devices = (ctypes.c_void_p * 8)()
          num = ctypes.c_int()
          if not query_devices(8, devices, ctypes.byref(num)) or num.value < 1:
            return None
          return get_platform_display(_EGL_PLATFORM_DEVICE_EXT, devices[0], None)

        candidates.append(first_device)
    candidates.append(lambda: EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY))
    for make in candidates:
      try:
        raw = make()
      except Exception:
        continue
      if not raw:
        continue
      display = raw if isinstance(raw, EGL.EGLDisplay) else ctypes.cast(raw, EGL.EGLDisplay)
      major, minor = EGL.EGLint(), EGL.EGLint()
      try:
        ok = EGL.eglInitialize(display, ctypes.byref(major), ctypes.byref(minor))
      except Exception:
        ok = False
      if ok:
        _EGLContext._display = display
        return display
    raise RenderingUnavailableError(
      "egl: could not initialize a display (no surfaceless, device or default platform; "
      "Mesa's: apt install libegl-mesa0)"
    )

  def address(self):
    return _address(self._context)

  def make_current(self):
    EGL = self._egl
    if not EGL.eglMakeCurrent(
      self._display_handle, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, self._context
    ):
      raise RuntimeError("failed to make the EGL context current")

  def current(self):
    """(address, (display, draw, read, context)) of the context current on this thread if it
    is another context than this one, else None."""
    EGL = self._egl
    context = EGL.eglGetCurrentContext()
    if not context or _address(context) == _address(self._context):
      return None
    return _address(context), (
      EGL.eglGetCurrentDisplay(),
      EGL.eglGetCurrentSurface(EGL.EGL_DRAW),
      EGL.eglGetCurrentSurface(EGL.EGL_READ),
      context,
    )

  def restore(self, previous):
    """Makes another library's context current again; False if EGL refuses it (destroyed
    meanwhile: EGL_BAD_CONTEXT)."""
    try:
      return bool(self._egl.eglMakeCurrent(*previous))
    except Exception:  # (PyOpenGL raises EGLError where EGL returns false)
      return False

  def release(self):
    """Leaves no context current on this thread."""
    EGL = self._egl
    try:
      EGL.eglMakeCurrent(
        self._display_handle, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT
      )
    except Exception:  # nothing current to release
      pass

  def free(self):
    EGL = self._egl
    current = EGL.eglGetCurrentContext()
    if current and _address(current) == _address(self._context):
      self.release()
    EGL.eglDestroyContext(self._display_handle, self._context)


def _address(handle):
  return ctypes.cast(handle, ctypes.c_void_p).value


def _egl_extension(name, restype, argtypes):
  """EGL extension function from eglGetProcAddress as a ctypes function, or None."""
  address = import_opengl("OpenGL.EGL").eglGetProcAddress(name.encode())
  if not address:
    return None
  return ctypes.CFUNCTYPE(restype, *argtypes)(ctypes.cast(address, ctypes.c_void_p).value)


# ---- OSMesa ----


class _OSMesaContext:
  """Software OSMesa context drawing into a client-memory buffer (FBOs are used on top)."""

  def __init__(self, max_width, max_height):
    osmesa = import_opengl("OpenGL.osmesa")
    self._osmesa = osmesa
    self._gl = import_opengl("OpenGL.GL")
    attributes = [
      osmesa.OSMESA_FORMAT,
      osmesa.OSMESA_RGBA,
      osmesa.OSMESA_DEPTH_BITS,
      24,
      osmesa.OSMESA_STENCIL_BITS,
      8,
      osmesa.OSMESA_PROFILE,
      osmesa.OSMESA_COMPAT_PROFILE,
      0,
    ]
    self._context = osmesa.OSMesaCreateContextAttribs(attributes, None)
    if not self._context:
      raise RenderingUnavailableError("osmesa: could not create a context")
    self._width, self._height = max_width, max_height
    self._buffer = (ctypes.c_ubyte * (4 * max_width * max_height))()

  def address(self):
    return _address(self._context)

  def make_current(self):
    if not self._osmesa.OSMesaMakeCurrent(
      self._context, self._buffer, self._gl.GL_UNSIGNED_BYTE, self._width, self._height
    ):
      raise RuntimeError("failed to make the OSMesa context current")

  def current(self):
    """(address, None) of another context of ours current on this thread, else None: OSMesa
    cannot make another library's context current again without its buffer."""
    context = self._osmesa.OSMesaGetCurrentContext()
    if not context or _address(context) == _address(self._context):
      return None
    address = _address(context)
    return (address, None) if _live("osmesa", address) is not None else None

  def restore(self, previous):
    return False  # (never asked: current() reports only contexts of ours)

  def release(self):
    """Leaves no context current on this thread."""
    self._osmesa.OSMesaMakeCurrent(None, None, self._gl.GL_UNSIGNED_BYTE, 0, 0)

  def free(self):
    current = self._osmesa.OSMesaGetCurrentContext()
    if current and _address(current) == _address(self._context):
      self.release()
    self._osmesa.OSMesaDestroyContext(self._context)


# ---- GLFW ----


class _GLFWContext:
  """A hidden GLFW window's context (also what an on-screen viewer draws with)."""

  def __init__(self, max_width, max_height):
    import glfw  # backend_problem checked that it loads

    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    try:
      ok = glfw.init()
    except Exception as e:
      raise RenderingUnavailableError(
        f"glfw: failed to initialize on display {display!r}: {e}"
      ) from e
    if not ok:
      raise RenderingUnavailableError(f"glfw: could not connect to the display {display!r}")
    glfw.window_hint(glfw.VISIBLE, 0)
    glfw.window_hint(glfw.DOUBLEBUFFER, 0)
    try:
      window = glfw.create_window(max_width, max_height, "invisible", None, None)
    except Exception as e:
      raise RenderingUnavailableError(f"glfw: could not create a window: {e}") from e
    if not window:
      raise RenderingUnavailableError(f"glfw: could not create a window on {display!r}")
    self._glfw = glfw
    self._window = window

  def address(self):
    return _address(self._window)

  def make_current(self):
    self._glfw.make_context_current(self._window)

  def current(self):
    """(address, window) of the window whose context is current on this thread, if it is
    another one."""
    window = self._glfw.get_current_context()
    if not window or _address(window) == _address(self._window):
      return None
    return _address(window), window

  def restore(self, previous):
    """Makes another library's window current again; False if GLFW reports an error (a
    window destroyed meanwhile), as an exception or as a warning, by pyglfw's setting."""
    glfw = self._glfw
    try:
      with warnings.catch_warnings():
        warnings.simplefilter("error", glfw.GLFWError)
        glfw.make_context_current(previous)
    except glfw.GLFWError:
      return False
    return True

  def release(self):
    """Leaves no context current on this thread."""
    self._glfw.make_context_current(None)

  def free(self):
    current = self._glfw.get_current_context()
    if current and _address(current) == _address(self._window):
      self.release()  # (GLFW would do so only on the main thread)
    self._glfw.destroy_window(self._window)


_IMPLEMENTATIONS = {"egl": _EGLContext, "osmesa": _OSMesaContext, "glfw": _GLFWContext}


configure_pyopengl()
