"""What the viewer window shows and how it answers the keyboard and mouse.

`Viewer` holds the abstract scene, camera, options and perturbation of one model, turns input
events into camera motion, selection and perturbation (MuJoCo's mjv_* interaction functions),
and draws the scene with text overlays into its window. It never steps the physics: the
owner (engine.viewer's model loop, the passive handle, suite.viewer) reads the requests it
records (`paused`, `take_steps()`, `take_reset()`, `take_load()`) and calls `process(d)` at a
point where reading and writing the data is safe.

Mouse, as in MuJoCo's simulate: left drag rotates the camera, right drag pans, middle drag or
scroll zooms (shift picks the horizontal plane); left double-click selects a body, right
double-click centres the camera on the point, ctrl + right double-click tracks the body.
Ctrl + drag perturbs the selected body: left pulls it with a spring force, right twists it with
a spring torque (mjv_applyPerturbForce), drawn as a line to the reference point.
"""

import math
import time

import numpy as np

from engine import enums
from engine.enums import mjtCamera
from engine.enums import mjtObj
from engine.enums import mjtPertBit
from engine.enums import mjtRndFlag as R
from engine.enums import mjtVisFlag as V
from engine.render import gl_text
from engine.render.figure import mjr_figure
from engine.render.gl_renderer import MjrContext
from engine.render.gl_renderer import MjrRect
from engine.render.gl_renderer import mjFB_WINDOW
from engine.render.gl_renderer import mjr_readPixels
from engine.render.gl_renderer import mjr_render
from engine.render.gl_renderer import mjr_setBuffer
from engine.render.gl_resources import mjr_drawPixels
from engine.render.visualize import MjvCamera
from engine.render.visualize import MjvOption
from engine.render.visualize import MjvPerturb
from engine.render.visualize import MjvScene
from engine.render.visualize import mjv_applyPerturbForce
from engine.render.visualize import mjv_applyPerturbPose
from engine.render.visualize import mjv_defaultFreeCamera
from engine.render.visualize import mjv_initPerturb
from engine.render.visualize import mjv_moveCamera
from engine.render.visualize import mjv_movePerturb
from engine.render.visualize import mjv_select
from engine.render.visualize import mjv_updateCamera
from engine.render.visualize import mjv_updateScene
from engine.support import mj_id2name
from engine.viewer.window import glfw

# mjtMouse: what a mouse motion does
ROTATE_V, ROTATE_H, MOVE_V, MOVE_H, ZOOM = 1, 2, 3, 4, 5

# simulation speed in percent of real time, selected with '-' and '='
SPEEDS = (
  800,
  400,
  200,
  100,
  80,
  66,
  50,
  40,
  33,
  25,
  20,
  16,
  13,
  10,
  8,
  6.6,
  5,
  4,
  3.3,
  2.5,
  2,
  1.6,
  1.3,
  1,
)
REAL_TIME = SPEEDS.index(100)

# single-letter toggles: MuJoCo's shortcuts for its visualization and rendering flags
VIS_KEYS = {
  "C": (V.mjVIS_CONTACTPOINT, "contact points"),
  "F": (V.mjVIS_CONTACTFORCE, "contact forces"),
  "P": (V.mjVIS_CONTACTSPLIT, "split contact force"),
  "J": (V.mjVIS_JOINT, "joints"),
  "U": (V.mjVIS_ACTUATOR, "actuators"),
  "V": (V.mjVIS_TENDON, "tendons"),
  "E": (V.mjVIS_CONSTRAINT, "equality constraints"),
  "M": (V.mjVIS_COM, "centres of mass"),
  "I": (V.mjVIS_INERTIA, "inertia boxes"),
  "T": (V.mjVIS_TRANSPARENT, "transparent bodies"),
  "Q": (V.mjVIS_CAMERA, "cameras"),
  "Z": (V.mjVIS_LIGHT, "lights"),
  "Y": (V.mjVIS_RANGEFINDER, "range finders"),
  "H": (V.mjVIS_CONVEXHULL, "convex hulls"),
  "X": (V.mjVIS_TEXTURE, "textures"),
  "B": (V.mjVIS_PERTFORCE, "perturbation forces"),
  "O": (V.mjVIS_PERTOBJ, "perturbation object"),
  "A": (V.mjVIS_AUTOCONNECT, "auto connect"),
  "D": (V.mjVIS_STATIC, "static bodies"),
  ";": (V.mjVIS_SKIN, "skins"),
}
RND_KEYS = {
  "W": (R.mjRND_WIREFRAME, "wireframe"),
  "S": (R.mjRND_SHADOW, "shadows"),
  "R": (R.mjRND_REFLECTION, "reflections"),
  "K": (R.mjRND_SKYBOX, "skybox"),
  "G": (R.mjRND_FOG, "fog"),
  "/": (R.mjRND_HAZE, "haze"),
  "L": (R.mjRND_ADDITIVE, "additive"),
}

HELP = (
  ("Space", "pause / run"),
  ("Right arrow", "step once (paused)"),
  ("Backspace", "reset"),
  ("-  =", "slow down / speed up"),
  ("[  ]", "previous / next model camera"),
  ("Esc", "free camera"),
  ("Left drag", "rotate camera"),
  ("Right drag", "pan camera"),
  ("Scroll, middle drag", "zoom"),
  ("Double-click", "select body"),
  ("Right double-click", "centre camera on point"),
  ("Ctrl right double-click", "track body"),
  ("Page Up", "select parent body"),
  ("Ctrl left drag", "pull selected body (force)"),
  ("Ctrl right drag", "twist selected body (torque)"),
  ("0-5  Shift 0-5", "geom / site groups"),
  ("C F J U V E M I", "contacts, forces, joints, ..."),
  ("T W S R", "transparent, wireframe, ..."),
  ("Ctrl O  /  drop file", "open a model"),
  ("Ctrl L", "reload the model file"),
  ("Ctrl S", "save a screenshot"),
  ("F1  F2", "help / info"),
)
DOUBLE_CLICK_SECONDS = 0.3


def _key_char(key):
  """The printable character of a GLFW key code (letters upper case), '' for other keys."""
  if 32 <= key < 127:
    return chr(key)
  return ""


class Viewer:
  """Scene, camera, options and input handling for one model in one window.

  Args:
    model, data: the engine MjModel / MjData shown (data is read only in `update_scene` and
      `process`).
    window: an engine.viewer.window.Window whose context is current on this thread.
    max_geom: capacity of the scene.
    controls_simulation: False for a passive viewer, whose owner steps the data: space, the
      right arrow, backspace, '-' and '=' then go to key_callback.

  Attributes:
    cam, opt, pert, scn: MjvCamera, MjvOption, MjvPerturb, MjvScene (mujoco.viewer's names).
    user_scn: an MjvScene whose geoms are drawn on top of the model's (for the user's markers).
    paused: the owner does not advance the simulation while True.
    speed_index: index into SPEEDS (100% real time by default).
    show_help, show_info: overlays toggled with F1 and F2 (help hides info while shown).
    info: extra lines (name, value) the owner shows in the info overlay (reward, return, ...).
    key_callback: called with the GLFW key code of every key press the viewer does not use.
  """

  def __init__(self, model, data, window, max_geom=10000, controls_simulation=True):
    self.window = window
    self.controls_simulation = controls_simulation
    self.changed = False  # input changed the camera or options since the last frame
    self.cam = MjvCamera()
    self.opt = MjvOption()
    self.pert = MjvPerturb()
    self.paused = False
    self.speed_index = REAL_TIME
    self.show_help = False
    self.show_info = True
    self.info = []
    self.message = ""  # one-line notice shown for a few seconds (toggles, errors)
    self._message_until = 0.0
    self.key_callback = None
    self.frames = 0
    self._max_geom = int(max_geom)
    self._steps = 0
    self._reset = False
    self._load = None
    self._ops = []  # data-dependent requests, run by process(d)
    self._buttons = {
      glfw.MOUSE_BUTTON_LEFT: False,
      glfw.MOUSE_BUTTON_RIGHT: False,
      glfw.MOUSE_BUTTON_MIDDLE: False,
    }
    self._mods = 0
    self._x = self._y = 0.0
    self._last_press = (-1, -1.0)  # button, time
    self._fps = _Rate()
    self._rtf = _Rate()
    self._step_rate = _Rate()  # (steps, seconds stepping) over the last second
    self._step_count, self._step_time = 0, 0.0
    self.con = None
    # drawn over every frame (mujoco.viewer.Handle's set_figures / set_texts / set_images):
    # (viewport, MjvFigure), (font, gridpos, text1, text2), (viewport, RGB bottom row first)
    self.user_figures = []
    self.user_texts = []
    self.user_images = []
    self._uploads = []  # functions (model, context) run with the context current
    self.set_model(model, data)

  # ---- model ----

  def set_model(self, model, data):
    """Show another model (after a load or a reload): new scene and GPU resources, free camera."""
    if self.con is not None:
      self.con.free()
    self.m, self.d = model, data
    self.scn = MjvScene(model, self._max_geom)
    self.user_scn = MjvScene(model, 1000)
    self.pert = MjvPerturb()
    mjv_defaultFreeCamera(model, self.cam)
    self.con = MjrContext(model, 150)
    self._ops.clear()
    self._run_uploads(None)  # (for the old model: release their waiters)
    self.camera_index = -1

  # ---- requests the owner consumes ----

  @property
  def speed(self) -> float:
    """Requested simulation speed as a fraction of real time."""
    return SPEEDS[self.speed_index] / 100.0

  def take_steps(self) -> int:
    """Single steps requested with the right arrow since the last call."""
    n, self._steps = self._steps, 0
    return n

  def take_reset(self) -> bool:
    r, self._reset = self._reset, False
    return r

  def take_load(self):
    """Path of a model file to open (dropped, chosen or reloaded), or None."""
    path, self._load = self._load, None
    return path

  def notify(self, text, seconds=3.0):
    self.message = text
    self._message_until = time.perf_counter() + seconds

  # ---- data-dependent work ----

  def process(self, d=None):
    """Run the queued selection and perturbation requests against the data (call where the
    data is not being stepped)."""
    d = self.d if d is None else d
    ops, self._ops = self._ops, []
    for op in ops:
      op(d)

  def update_scene(self, d=None):
    """Rebuild the scene from the data, then append user_scn's geoms."""
    d = self.d if d is None else d
    mjv_updateScene(self.m, d, self.opt, self.pert, self.cam, enums.mjtCatBit.mjCAT_ALL, self.scn)
    extra = min(self.user_scn.ngeom, self.scn.maxgeom - self.scn.ngeom)
    if extra > 0:
      lo, src, dst = self.scn.ngeom, self.user_scn.geom_arrays, self.scn.geom_arrays
      dst.records[lo : lo + extra] = src.records[:extra]
      dst.segid[lo : lo + extra] = np.arange(lo, lo + extra)
      dst.label[lo : lo + extra] = src.label[:extra]
      self.scn.ngeom += extra

  def update_camera(self, d=None):
    """Recompute the scene's camera only (after mouse motion, without rebuilding the scene)."""
    mjv_updateCamera(self.m, self.d if d is None else d, self.cam, self.scn)

  def apply_perturbation(self, d, applied):
    """Write the perturbation into d.xfrc_applied and move a perturbed mocap body.

    `applied` ((nbody, 6) array, kept by the caller) holds what the previous call added, which
    is taken back first: the user's own xfrc_applied values are left as they were.
    """
    d.xfrc_applied[:] -= applied
    applied[:] = 0
    sel = int(self.pert.select)
    if sel <= 0 or not self.pert.active:
      return
    before = np.array(d.xfrc_applied[sel])
    mjv_applyPerturbPose(self.m, d, self.pert, 0)
    mjv_applyPerturbForce(self.m, d, self.pert)
    applied[sel] = d.xfrc_applied[sel] - before
    d.xfrc_applied[sel] = before + applied[sel]

  def apply_pose_when_paused(self, d):
    """Move a perturbed free body (or mocap body) to the mouse's reference pose while paused,
    as MuJoCo's viewer does (the caller runs mj_forward afterwards)."""
    if self.pert.select > 0 and self.pert.active:
      mjv_applyPerturbPose(self.m, d, self.pert, 1)

  # ---- drawing ----

  def viewport(self) -> MjrRect:
    w, h = self.window.framebuffer_size()
    return MjrRect(0, 0, w, h)

  def render(self, read=False):
    """Draw the scene and overlays into the window's back buffer; with `read`, return the
    frame as RGB uint8 (h, w, 3), top row first. Call swap() to show it."""
    self.window.make_current()
    rect = self.viewport()
    self._run_uploads(self.con)
    self.con.refresh_hfields(self.m)
    mjr_setBuffer(mjFB_WINDOW, self.con)
    mjr_render(rect, self.scn, self.con)
    self._draw_overlays(rect)
    self._draw_user_overlays(rect)
    self.frames += 1
    self._fps.tick(self.frames)
    if not read:
      return None
    rgb = np.empty((rect.height, rect.width, 3), np.uint8)
    mjr_readPixels(rgb, None, rect, self.con)
    return np.flipud(rgb).copy()

  def swap(self):
    self.window.swap_buffers()

  def request_upload(self, upload):
    """Run upload(model, context) before the next frame, with the window's context current
    (mjr_uploadMesh / mjr_uploadTexture after the model's data changed)."""
    self._uploads.append(upload)

  def _run_uploads(self, con):
    uploads, self._uploads = self._uploads, []
    for upload in uploads:
      upload(self.m, con)

  def _draw_user_overlays(self, rect):
    """The user's figures, texts and images, in that order, as MuJoCo's simulate draws them."""
    for viewport, fig in self.user_figures:
      mjr_figure(viewport, fig, self.con)
    for font, gridpos, text1, text2 in self.user_texts:
      gl_text.mjr_overlay(font, gridpos, rect, text1, text2, self.con)
    for viewport, rgb in self.user_images:
      mjr_drawPixels(rgb, None, viewport, self.con)

  def measure_steps(self, nstep, seconds):
    """Record the wall time of nstep steps, for the info overlay's mean over the last second."""
    if nstep:
      self._step_count += nstep
      self._step_time += seconds
      self._step_rate.tick((self._step_count, self._step_time))

  def measure_time(self, sim_time):
    """Record the simulation time, for the measured real-time factor."""
    self._rtf.tick(sim_time)

  def _draw_overlays(self, rect):
    font, big = gl_text.mjFONT_NORMAL, gl_text.mjFONT_BIG
    if self.paused:
      gl_text.mjr_overlay(big, gl_text.mjGRID_TOPRIGHT, rect, "PAUSED", "", self.con)
    if self.show_help:
      keys = "\n".join(k for k, _ in HELP)
      what = "\n".join(v for _, v in HELP)
      gl_text.mjr_overlay(font, gl_text.mjGRID_TOPLEFT, rect, keys, what, self.con)
    if self.show_info and not self.show_help:  # both would overlap in a small window
      names, values = zip(*self.info_lines())
      gl_text.mjr_overlay(
        font, gl_text.mjGRID_BOTTOMLEFT, rect, "\n".join(names), "\n".join(values), self.con
      )
    if self.message and time.perf_counter() < self._message_until:
      gl_text.mjr_overlay(font, gl_text.mjGRID_BOTTOMRIGHT, rect, self.message, "", self.con)
    elif not self.show_help:
      gl_text.mjr_overlay(font, gl_text.mjGRID_TOPLEFT, rect, "F1: help", "", self.con)

  def info_lines(self):
    """(name, value) rows of the info overlay: time, speed, frame rate, solver, warnings."""
    m, d = self.m, self.d
    rtf = self._rtf.rate()
    measured = f"measured {100 * rtf:.0f}%" if rtf is not None else ""
    if self.controls_simulation:
      speed = f"{SPEEDS[self.speed_index]:g}% of real time" + (f" ({measured})" * bool(measured))
    else:  # the caller's loop sets the pace
      speed = measured or "-"
    rows = [("Time", f"{d.time:.3f}"), ("Speed", speed), ("FPS", f"{self._fps.rate() or 0:.0f}")]
    per_step = self._step_rate.ratio()
    if per_step is not None:
      rows.append(("Step time", f"{1e6 * per_step:.1f} us"))
    rows += [(name, str(value)) for name, value in self.info]
    niter = int(d.solver_niter[0]) if len(d.solver_niter) else 0
    rows += [
      ("Solver", f"{niter} iterations"),
      ("Contacts", f"{int(d.ncon)} ({int(d.nefc)} constraint rows)"),
    ]
    warnings = [
      w.name[len("mjWARN_") :].lower()
      for w in enums.mjtWarning
      if w.name != "mjNWARNING" and d.warning[int(w)].number > 0
    ]
    if warnings:
      rows.append(("Warnings", ", ".join(warnings)))
    if self.pert.select > 0:
      name = mj_id2name(m, mjtObj.mjOBJ_BODY, int(self.pert.select))
      rows.append(("Selected", name or f"body {int(self.pert.select)}"))
    rows.append(("Camera", self._camera_name()))
    return rows

  def _camera_name(self):
    cam = self.cam
    if cam.type == mjtCamera.mjCAMERA_FIXED:
      name = mj_id2name(self.m, mjtObj.mjOBJ_CAMERA, int(cam.fixedcamid))
      return name or f"camera {int(cam.fixedcamid)}"
    if cam.type == mjtCamera.mjCAMERA_TRACKING:
      name = mj_id2name(self.m, mjtObj.mjOBJ_BODY, int(cam.trackbodyid))
      return f"tracking {name or int(cam.trackbodyid)}"
    return "free"

  # ---- keyboard ----

  def on_key(self, key, action, mods):
    if action == glfw.RELEASE:
      return
    self.changed = True
    ctrl, shift = mods & glfw.MOD_CONTROL, mods & glfw.MOD_SHIFT
    char = _key_char(key)
    simulation_keys = (
      glfw.KEY_SPACE,
      glfw.KEY_RIGHT,
      glfw.KEY_BACKSPACE,
      glfw.KEY_MINUS,
      glfw.KEY_EQUAL,
    )
    if not self.controls_simulation and key in simulation_keys:
      if self.key_callback is not None:
        self.key_callback(key)
    elif key == glfw.KEY_SPACE:
      self.paused = not self.paused
    elif key == glfw.KEY_RIGHT:
      if self.paused:
        self._steps += 1
    elif key == glfw.KEY_BACKSPACE:
      self._reset = True
    elif key == glfw.KEY_MINUS:
      self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)
      self.notify(f"speed {SPEEDS[self.speed_index]:g}%")
    elif key == glfw.KEY_EQUAL:
      self.speed_index = max(0, self.speed_index - 1)
      self.notify(f"speed {SPEEDS[self.speed_index]:g}%")
    elif key == glfw.KEY_F1:
      self.show_help = not self.show_help
    elif key == glfw.KEY_F2:
      self.show_info = not self.show_info
    elif key == glfw.KEY_ESCAPE:
      self.free_camera()
    elif key in (glfw.KEY_LEFT_BRACKET, glfw.KEY_RIGHT_BRACKET):
      self.cycle_camera(1 if key == glfw.KEY_RIGHT_BRACKET else -1)
    elif key == glfw.KEY_PAGE_UP:
      if self.pert.select > 0:
        self.pert.select = int(self.m.body_parentid[int(self.pert.select)])
        self.pert.localpos[:] = 0
    elif ctrl and key == glfw.KEY_O:
      self._open_dialog()
    elif ctrl and key == glfw.KEY_L:
      self._load = ""  # reload the current file
    elif ctrl and key == glfw.KEY_S:
      self._screenshot = True
    elif glfw.KEY_0 <= key <= glfw.KEY_5 and not ctrl:
      group = key - glfw.KEY_0
      flags = self.opt.sitegroup if shift else self.opt.geomgroup
      flags[group] = 0 if flags[group] else 1
      self.notify(f"{'site' if shift else 'geom'} group {group} {'on' if flags[group] else 'off'}")
    elif char in VIS_KEYS and not ctrl:
      flag, name = VIS_KEYS[char]
      self.opt.flags[flag] = 0 if self.opt.flags[flag] else 1
      self.notify(f"{name} {'on' if self.opt.flags[flag] else 'off'}")
    elif char in RND_KEYS and not ctrl:
      flag, name = RND_KEYS[char]
      self.scn.flags[flag] = 0 if self.scn.flags[flag] else 1
      self.notify(f"{name} {'on' if self.scn.flags[flag] else 'off'}")
    elif self.key_callback is not None:
      self.key_callback(key)

  _screenshot = False

  def take_screenshot_request(self) -> bool:
    r, self._screenshot = self._screenshot, False
    return r

  def _open_dialog(self):
    """Ask for a model file with tkinter's dialog, when tkinter is there."""
    try:
      from tkinter import Tk
      from tkinter import filedialog
    except ImportError:
      self.notify("no file dialog (tkinter missing): drop a file on the window instead", 6)
      return
    root = Tk()
    root.withdraw()
    path = filedialog.askopenfilename(filetypes=[("MJCF", "*.xml"), ("all files", "*")])
    root.destroy()
    if path:
      self._load = path

  def free_camera(self):
    """Back to the free camera, where the previous camera looked."""
    self.cam.type = mjtCamera.mjCAMERA_FREE
    self.cam.trackbodyid = -1
    self.cam.fixedcamid = -1
    self.camera_index = -1

  def cycle_camera(self, step):
    """Free camera, then the model's cameras in order (step +1 or -1)."""
    n = int(self.m.ncam)
    self.camera_index = (self.camera_index + 1 + step) % (n + 1) - 1
    if self.camera_index < 0:
      self.free_camera()
    else:
      self.cam.type = mjtCamera.mjCAMERA_FIXED
      self.cam.fixedcamid = self.camera_index
    self.notify(f"camera: {self._camera_name()}")

  # ---- mouse ----

  def on_mouse_button(self, button, action, mods):
    if button not in self._buttons:
      return
    self._mods = mods
    self.changed = True
    pressed = action == glfw.PRESS
    self._buttons[button] = pressed
    if not pressed:
      if not any(self._buttons.values()):
        self.pert.active = 0
      return
    now = time.perf_counter()
    double = self._last_press[0] == button and now - self._last_press[1] < DOUBLE_CLICK_SECONDS
    self._last_press = (button, -1.0 if double else now)
    ctrl = mods & glfw.MOD_CONTROL
    if double and button in (glfw.MOUSE_BUTTON_LEFT, glfw.MOUSE_BUTTON_RIGHT):
      rect = self.viewport()
      ww, wh = self.window.window_size()
      relx, rely = self._x / max(ww, 1), (wh - self._y) / max(wh, 1)
      mode = "select" if button == glfw.MOUSE_BUTTON_LEFT else "track" if ctrl else "centre"
      aspect = rect.width / max(rect.height, 1)
      self._ops.append(lambda d: self._select(d, mode, aspect, relx, rely))
    elif ctrl and self.pert.select > 0 and button != glfw.MOUSE_BUTTON_MIDDLE:
      kind = (
        mjtPertBit.mjPERT_TRANSLATE
        if button == glfw.MOUSE_BUTTON_LEFT
        else mjtPertBit.mjPERT_ROTATE
      )
      self._ops.append(lambda d: self._start_perturbation(d, int(kind)))

  def _select(self, d, mode, aspect, relx, rely):
    selpnt = np.zeros(3)
    geom, flex, skin = (np.array([-1], np.int32) for _ in range(3))
    body = mjv_select(self.m, d, self.opt, aspect, relx, rely, self.scn, selpnt, geom, flex, skin)
    if mode == "select":
      if body > 0:
        self.pert.select = body
        self.pert.skinselect = int(skin[0])
        xmat = np.asarray(d.xmat[body]).reshape(3, 3)
        self.pert.localpos[:] = xmat.T @ (selpnt - d.xpos[body])
      else:
        self.pert.select = 0
        self.pert.skinselect = -1
      self.pert.active = 0
    elif body >= 0 and mode == "centre":
      self.cam.lookat[:] = selpnt
    elif body > 0 and mode == "track":
      self.cam.type = mjtCamera.mjCAMERA_TRACKING
      self.cam.trackbodyid = body
      self.cam.fixedcamid = -1
      self.notify(f"camera: {self._camera_name()}")

  def _start_perturbation(self, d, kind):
    if self.pert.active == 0:
      mjv_initPerturb(self.m, d, self.scn, self.pert)
    self.pert.active = kind

  def on_cursor(self, x, y):
    dx, dy = x - self._x, y - self._y
    self._x, self._y = x, y
    left = self._buttons[glfw.MOUSE_BUTTON_LEFT]
    right = self._buttons[glfw.MOUSE_BUTTON_RIGHT]
    middle = self._buttons[glfw.MOUSE_BUTTON_MIDDLE]
    if not (left or right or middle):
      return
    shift = self._mods & glfw.MOD_SHIFT
    _, height = self.window.window_size()
    reldx, reldy = dx / max(height, 1), dy / max(height, 1)
    if self.pert.active:
      # a pulled body follows a left drag, a twisted one a right drag
      if self.pert.active & mjtPertBit.mjPERT_TRANSLATE:
        action = MOVE_H if shift else MOVE_V
      else:
        action = ROTATE_H if shift else ROTATE_V
      self._ops.append(
        lambda d: mjv_movePerturb(self.m, d, action, reldx, reldy, self.scn, self.pert)
      )
      return
    if right:
      action = MOVE_H if shift else MOVE_V
    elif left:
      action = ROTATE_H if shift else ROTATE_V
    else:
      action = ZOOM
    mjv_moveCamera(self.m, action, reldx, reldy, self.cam)
    self.changed = True

  def on_scroll(self, dx, dy):
    mjv_moveCamera(self.m, ZOOM, 0.0, -0.05 * dy, self.cam)
    self.changed = True

  def on_drop(self, paths):
    self._load = paths[0]

  def on_resize(self, width, height):
    pass  # the viewport is read from the framebuffer size at every frame

  def close(self):
    if self.con is not None:
      self.window.make_current()
      self.con.free()
      self.con = None


class _Rate:
  """Rate of a growing counter (frames, simulation seconds) over the last second of wall time,
  or the ratio of two growing counters (seconds per step)."""

  def __init__(self):
    self._samples = []

  def tick(self, value):
    now = time.perf_counter()
    self._samples.append((now, value))
    while len(self._samples) > 2 and now - self._samples[0][0] > 1.0:
      self._samples.pop(0)

  def rate(self):
    if len(self._samples) < 2:
      return None
    (t0, v0), (t1, v1) = self._samples[0], self._samples[-1]
    if t1 - t0 <= 0 or v1 < v0:
      return None
    return (v1 - v0) / (t1 - t0)

  def ratio(self):
    """For (count, total) samples: the growth of total per unit of count."""
    if len(self._samples) < 2:
      return None
    (n0, s0), (n1, s1) = self._samples[0][1], self._samples[-1][1]
    return (s1 - s0) / (n1 - n0) if n1 > n0 else None


def wall_time_steps(elapsed_wall, elapsed_sim, speed, timestep, budget_steps):
  """Steps of length `timestep` that bring the simulation level with `speed` x the wall time
  elapsed, at most budget_steps (so a slow model still renders)."""
  behind = elapsed_wall * speed - elapsed_sim
  if behind <= 0:
    return 0
  return min(budget_steps, max(1, int(math.ceil(behind / timestep))))
