"""The viewer's owners: a frame loop for a window, the blocking model viewer and the passive
handle a user's own loop drives.

`App` runs frames (poll input, advance, draw, swap) until the window closes or a frame count is
reached, and saves the last frame when asked (the headless test path). `ModelViewer` advances a
model/data pair in real time (engine.viewer.launch); `Handle` shows a pair stepped by someone
else, drawing in a background thread and reading the data only in `sync()`
(engine.viewer.launch_passive). suite.viewer builds its environment viewer on `App`.
"""

import copy
import math
import pathlib
import threading
import time

import numpy as np

from engine.driver import mj_forward
from engine.driver import mj_step
from engine.io import mj_resetData
from engine.render.gl_renderer import MjrRect
from engine.types import MjData
from engine.types import MjModel
from engine.viewer.ui import Viewer
from engine.viewer.window import Window
from engine.viewer.window import glfw

MAX_MISALIGN = 0.1  # seconds of simulation lead or lag before re-synchronising
STEP_BUDGET = 1 / 30  # wall seconds of stepping per frame at most, so frames keep coming
PLACEHOLDER_XML = "<mujoco><worldbody><light pos='0 0 3'/></worldbody></mujoco>"


def save_png(rgb, path):
  from PIL import Image

  Image.fromarray(rgb).save(path)


class App:
  """A window with a Viewer and a frame loop; subclasses implement `advance()`."""

  def __init__(self, model, data, title, width, height, controls_simulation=True):
    self.window = Window(title, width, height)
    self.viewer = Viewer(model, data, self.window, controls_simulation=controls_simulation)
    self.window.handler = self.viewer
    self.last_frame = None

  def advance(self):
    """Move the simulation on by what the wall clock asks; update the scene."""
    raise NotImplementedError

  def frame(self, read=False):
    """One frame: input, simulation, drawing; with `read` the frame's RGB pixels are returned."""
    self.window.poll_events()
    self.advance()
    rgb = self.viewer.render(read=read or self.viewer.take_screenshot_request())
    if rgb is not None and not read:
      path = pathlib.Path(f"screenshot_{time.strftime('%Y%m%d_%H%M%S')}.png").resolve()
      save_png(rgb, path)
      self.viewer.notify(f"saved {path}", 5)
    self.viewer.swap()
    return rgb

  def run(self, frames=None, screenshot=None):
    """Frames until the window closes, or `frames` frames; the last is saved to `screenshot`.

    Returns the number of frames drawn.
    """
    n = 0
    try:
      while not self.window.should_close():
        last = frames is not None and n + 1 >= frames
        rgb = self.frame(read=bool(last and screenshot))
        n += 1
        if last:
          if screenshot:
            save_png(rgb, screenshot)
          break
    finally:
      self.close()
    return n

  def close(self):
    if self.window.handle is not None:
      self.viewer.close()
      self.window.close()


def add_window_arguments(parser):
  """The command-line options both viewers take: window size, and --frames N --screenshot
  FILE.png for scripts and tests on a virtual display."""
  parser.add_argument("--width", type=int, default=1280)
  parser.add_argument("--height", type=int, default=720)
  parser.add_argument("--frames", type=int, help="exit after N frames")
  parser.add_argument("--screenshot", metavar="FILE.png", help="save the last frame")


def check_window_arguments(parser, args):
  if args.frames is not None and args.frames < 1:
    parser.error("--frames must be at least 1")
  if args.screenshot and args.frames is None:
    parser.error("--screenshot needs --frames")


def run_command_line(app, args, summary) -> int:
  """Run `app` for the command line and print the frame rate and summary(app)."""
  t0 = time.perf_counter()
  frames = app.run(frames=args.frames, screenshot=args.screenshot)
  wall = time.perf_counter() - t0
  print(f"{frames} frames in {wall:.2f} s ({frames / wall:.1f} frames/s); {summary(app)}")
  if args.screenshot:
    print(f"saved the last frame to {args.screenshot}")
  return 0


class RealTimeClock:
  """Keeps simulation time level with the wall clock times the viewer's speed."""

  def __init__(self):
    self.resync()

  def resync(self):
    self._wall = None

  def steps(self, sim_time, timestep, speed):
    """Whether one more step keeps the simulation at most level with the wall clock; call
    before each step of a frame. Re-synchronises after pauses, resets and speed changes."""
    now = time.perf_counter()
    if (
      self._wall is None
      or sim_time < self._sim
      or speed != self._speed
      or abs((now - self._wall) * speed - (sim_time - self._sim)) > MAX_MISALIGN
    ):
      self._wall, self._sim, self._speed = now, sim_time, speed
      return True  # one step, then level
    return (sim_time - self._sim) < (now - self._wall) * speed


class ModelViewer(App):
  """An interactive window that simulates a model in real time (engine.viewer.launch).

  Args:
    model, data: what to show; data defaults to a fresh MjData. With no model, `path` is
      loaded, and with neither the window waits for a file to be dropped or opened.
    path: the model file (for ctrl+L reload and the title).
  """

  def __init__(self, model=None, data=None, path=None, title=None, width=1280, height=720):
    self.path = str(path) if path else None
    if model is None and self.path:
      model = MjModel.from_xml_path(self.path)
    waiting = model is None
    if waiting:
      model = MjModel.from_xml_string(PLACEHOLDER_XML)
    data = data if data is not None else MjData(model)
    super().__init__(model, data, title or self._title(), width, height)
    self.clock = RealTimeClock()
    self._applied = np.zeros((model.nbody, 6))
    if waiting:
      self.viewer.notify("drop an MJCF file on this window or press Ctrl+O", math.inf)
    mj_forward(model, data)

  def _title(self):
    return f"engine viewer: {pathlib.Path(self.path).name}" if self.path else "engine viewer"

  @property
  def model(self):
    return self.viewer.m

  @property
  def data(self):
    return self.viewer.d

  def load(self, path):
    """Show the model in `path`; on a compile error the current model stays and the error is
    shown in the window."""
    try:
      m = MjModel.from_xml_path(path)
    except Exception as e:  # any compile error: show it, keep the old model
      self.viewer.notify(f"could not load {path}: {e}".replace("\n", " ")[:300], 10)
      return False
    d = MjData(m)
    mj_forward(m, d)
    self.path = str(path)
    self.viewer.set_model(m, d)
    self._applied = np.zeros((m.nbody, 6))
    self.window.set_title(self._title())
    self.clock.resync()
    self.viewer.notify(f"loaded {pathlib.Path(path).name}")
    return True

  def advance(self):
    v = self.viewer
    path = v.take_load()
    if path is not None and (path or self.path):
      self.load(path or self.path)
    m, d = v.m, v.d
    if v.take_reset():
      mj_resetData(m, d)
      mj_forward(m, d)
      self._applied[:] = 0
      self.clock.resync()
    v.process(d)
    if v.paused:
      steps = v.take_steps()
      for _ in range(steps):
        v.apply_perturbation(d, self._applied)
        mj_step(m, d)
      if not steps:
        # a paused model can still be posed with the mouse (free bodies, mocap)
        v.apply_pose_when_paused(d)
        mj_forward(m, d)
      self.clock.resync()
    else:
      start = time.perf_counter()
      timestep = float(m.opt.timestep)
      n = 0
      while (
        self.clock.steps(d.time, timestep, v.speed) and time.perf_counter() - start < STEP_BUDGET
      ):
        v.apply_perturbation(d, self._applied)
        mj_step(m, d)
        n += 1
      v.measure_steps(n, time.perf_counter() - start)
    v.measure_time(d.time)
    v.update_scene(d)


def _rect(viewport):
  """An MjrRect of ours from any rectangle with left, bottom, width, height (mujoco's too)."""
  return MjrRect(
    int(viewport.left), int(viewport.bottom), int(viewport.width), int(viewport.height)
  )


class _Locked:
  """Forwards the window's input callbacks to the viewer while holding the lock."""

  def __init__(self, viewer, lock):
    self._viewer, self._lock = viewer, lock

  def __getattr__(self, name):
    method = getattr(self._viewer, name)

    def locked(*args):
      with self._lock:
        return method(*args)

    return locked


class Handle:
  """A window showing a model/data pair that the caller steps (engine.viewer.launch_passive).

  The window draws in a background thread. The data is read only in `sync()`, which also
  writes the mouse perturbation into d.xfrc_applied (taking back the previous one, so the
  caller's own forces stay) and moves perturbed mocap bodies. Hold `lock()` while changing the
  model or data from another thread than the one calling sync().
  """

  def __init__(self, model, data, key_callback=None, title="engine viewer", width=1280, height=720):
    self._m, self._d = model, data
    self._lock = threading.RLock()
    self._applied = np.zeros((model.nbody, 6))
    self._closing = False
    self._dirty = True
    self._error = None
    self._viewer = None
    self._frame_request = None  # an Event, set once the next frame was read into _frame
    self._frame = None
    self._ready = threading.Event()
    self._thread = threading.Thread(
      target=self._run, args=(key_callback, title, width, height), name="engine-viewer", daemon=True
    )
    self._thread.start()
    self._ready.wait()
    if self._error is not None:
      raise self._error

  def _run(self, key_callback, title, width, height):
    try:
      window = Window(title, width, height)
      viewer = Viewer(self._m, self._d, window, controls_simulation=False)
      viewer.key_callback = key_callback
      window.handler = _Locked(viewer, self._lock)
      viewer.update_scene(self._d)
    except Exception as e:  # reported to the caller of launch_passive
      self._error = e
      self._ready.set()
      return
    self._viewer = viewer
    self._ready.set()
    last = 0.0
    try:
      while not self._closing and not window.should_close():
        glfw.wait_events_timeout(1 / 60)
        now = time.perf_counter()
        if not (self._dirty or viewer.changed or now - last > 0.25):
          continue
        with self._lock:
          if viewer.changed:
            viewer.update_camera(self._d)
          viewer.changed = False
          self._dirty = False
          request, self._frame_request = self._frame_request, None
          rgb = viewer.render(read=request is not None)
        viewer.swap()
        if request is not None:
          self._frame = rgb
          request.set()
        last = now
    finally:
      with self._lock:
        self._viewer = None
        viewer._run_uploads(None)  # release callers waiting for an upload
        viewer.close()
        window.close()

  # ---- mujoco.viewer.Handle's interface ----

  def is_running(self) -> bool:
    return self._thread.is_alive() and self._viewer is not None

  def lock(self):
    """The lock under which the viewer reads the data (a context manager)."""
    return self._lock

  def sync(self, state_only=False):
    """Show the current data, and apply the mouse's perturbation to it. (`state_only` is
    accepted for mujoco.viewer's signature: the whole scene is always rebuilt.)"""
    del state_only
    with self._lock:
      v = self._viewer
      if v is None:
        return
      v.process(self._d)
      v.apply_perturbation(self._d, self._applied)
      v.update_scene(self._d)
      v.measure_time(self._d.time)
      self._dirty = True
    glfw.post_empty_event()

  def update_hfield(self, hfieldid):
    """Draw height field `hfieldid` anew after m.hfield_data changed (every frame compares
    the height fields with what was uploaded, so this only asks for a new frame)."""
    if not 0 <= int(hfieldid) < self._m.nhfield:
      raise ValueError(f"hfieldid {hfieldid} out of range [0, {self._m.nhfield})")
    self._dirty = True

  def update_mesh(self, meshid):
    """Upload mesh `meshid` anew after m.mesh_vert & co changed (mjr_uploadMesh); returns
    when it is done, as mujoco.viewer's."""
    if not 0 <= int(meshid) < self._m.nmesh:
      raise ValueError(f"meshid {meshid} out of range [0, {self._m.nmesh})")
    self._upload(lambda m, con: con.upload_mesh(m, int(meshid)))

  def update_texture(self, texid):
    """Upload texture `texid` anew after m.tex_data changed (mjr_uploadTexture); returns when
    it is done, as mujoco.viewer's."""
    if not 0 <= int(texid) < self._m.ntex:
      raise ValueError(f"texid {texid} out of range [0, {self._m.ntex})")
    self._upload(lambda m, con: con.upload_texture(m, int(texid)))

  def _upload(self, upload, timeout=10.0):
    done = threading.Event()
    errors = []

    def run(m, con):
      try:
        if con is not None:
          upload(m, con)
      except Exception as e:  # raised to the caller, not in the drawing thread
        errors.append(e)
      finally:
        done.set()

    with self._lock:
      if self._viewer is None:
        return
      self._viewer.request_upload(run)
      self._dirty = True
    glfw.post_empty_event()
    done.wait(timeout)
    if errors:
      raise errors[0]

  def set_texts(self, texts):
    """Text overlays drawn on every frame: (font, gridpos, text1, text2) or a list of them
    (mjr_overlay; None picks mjFONTSCALE_150 (the normal font), mjGRID_TOPLEFT, "")."""
    if isinstance(texts, tuple):
      texts = [texts]
    processed = [
      (
        150 if font is None else int(font),
        0 if gridpos is None else int(gridpos),
        "" if text1 is None else str(text1),
        "" if text2 is None else str(text2),
      )
      for font, gridpos, text1, text2 in texts
    ]
    self._set_user("user_texts", processed)

  def clear_texts(self):
    self._set_user("user_texts", [])

  def set_figures(self, viewports_figures):
    """Figures drawn on every frame: (viewport, MjvFigure) or a list of them (mjr_figure).
    The figures are copied: change them and call set_figures again to update."""
    if isinstance(viewports_figures, tuple):
      viewports_figures = [viewports_figures]
    self._set_user(
      "user_figures", [(_rect(viewport), copy.deepcopy(fig)) for viewport, fig in viewports_figures]
    )

  def clear_figures(self):
    self._set_user("user_figures", [])

  def set_images(self, viewports_images):
    """RGB images (height, width, 3) uint8, top row first, drawn on every frame in their
    viewports: (viewport, image) or a list of them (mjr_drawPixels)."""
    if isinstance(viewports_images, tuple):
      viewports_images = [viewports_images]
    processed = []
    for viewport, image in viewports_images:
      image = np.asarray(image)
      target = (int(viewport.height), int(viewport.width))
      if image.shape[:2] != target:
        raise ValueError(f"Image shape {image.shape[:2]} does not match target shape {target}")
      if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(
          f"images must be uint8 (height, width, 3), got {image.dtype} {image.shape}"
        )
      processed.append((_rect(viewport), np.ascontiguousarray(np.flip(image, axis=0))))
    self._set_user("user_images", processed)

  def clear_images(self):
    self._set_user("user_images", [])

  def _set_user(self, name, items):
    with self._lock:
      v = self._viewer
      if v is None:
        return
      setattr(v, name, items)
      self._dirty = True
    glfw.post_empty_event()

  def _read_frame(self, timeout=10.0):
    """The next frame drawn, RGB top row first (for tests and scripts)."""
    done = threading.Event()
    with self._lock:
      if self._viewer is None:
        raise RuntimeError("the viewer window is closed")
      self._frame_request = done
      self._dirty = True
    glfw.post_empty_event()
    if not done.wait(timeout):
      raise TimeoutError("no frame was drawn")
    return self._frame

  def close(self):
    """Close the window and wait for the drawing thread to end."""
    self._closing = True
    if self._thread.is_alive():
      glfw.post_empty_event()
      self._thread.join(timeout=10)

  def _get(self, name):
    v = self._viewer
    if v is None:
      raise RuntimeError("the viewer window is closed")
    return getattr(v, name)

  @property
  def cam(self):
    return self._get("cam")

  @property
  def opt(self):
    return self._get("opt")

  @property
  def perturb(self):
    return self._get("pert")

  @property
  def user_scn(self):
    return self._get("user_scn")

  @property
  def m(self):
    return self._m

  @property
  def d(self):
    return self._d

  @property
  def viewport(self):
    return self._get("viewport")()

  @property
  def frames(self) -> int:
    """Frames drawn so far."""
    v = self._viewer
    return v.frames if v is not None else 0

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    self.close()
