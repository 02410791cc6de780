"""dm_control's rendering API over our renderer: Camera, MovableCamera, TextOverlay, and the
`Physics.render` / `Physics.contexts` entry points.

The same numbers as dm_control's `mujoco.engine`: images are flipped to top-down rows, depth is
converted from the [0, 1] depth buffer to metres with MuJoCo's near and far planes
(`m.vis.map.znear`, `m.vis.map.zfar`, times `m.stat.extent`), segmentation decodes the scene's
segment ids (rendered as flat colours) into (object id, object type) pairs, -1 for background.
"""

import collections
import contextlib
from typing import NamedTuple

import numpy as np

from engine import enums
from engine.render import visualize
from engine.render.context import GLContext
from engine.render.gl_renderer import MjrContext
from engine.render.gl_renderer import OffscreenRenderer
from engine.render.gl_renderer import depth_to_metres as depth_to_metres
from engine.render.gl_renderer import mjr_overlay
from engine.render.visualize import MjvCamera
from engine.render.visualize import MjvPerturb
from engine.render.visualize import MjvScene
from engine.render.visualize import mjv_defaultFreeCamera
from engine.render.visualize import mjv_select
from engine.render.visualize import mjv_updateScene

_BOTH_SEGMENTATION_AND_DEPTH = "`segmentation` and `depth` cannot both be `True`."
_OVERLAYS_ONLY_RGB = "Overlays are not supported with depth or segmentation rendering."
_FLAG_OVERRIDES_ONLY_RGB = (
  "`render_flag_overrides` are not supported for depth or segmentation rendering."
)

# dm_control's names of the rendering flags (mjtRndFlag without the mjRND_ prefix, lower case)
RENDER_FLAGS = {
  e.name[len("mjRND_") :].lower(): int(e) for e in enums.mjtRndFlag if e.name != "mjNRNDFLAG"
}

_FONT_STYLES = {
  "normal": enums.mjtFont.mjFONT_NORMAL,
  "shadow": enums.mjtFont.mjFONT_SHADOW,
  "big": enums.mjtFont.mjFONT_BIG,
}
_GRID_POSITIONS = {
  "top left": enums.mjtGridPos.mjGRID_TOPLEFT,
  "top right": enums.mjtGridPos.mjGRID_TOPRIGHT,
  "bottom left": enums.mjtGridPos.mjGRID_BOTTOMLEFT,
  "bottom right": enums.mjtGridPos.mjGRID_BOTTOMRIGHT,
}


class MjvOption(visualize.MjvOption):
  """dm_control's MjvOption (`dm_control.mujoco.wrapper.core.MjvOption`, our
  `engine.wrapper.core.MjvOption`): MuJoCo's visualization options with rangefinder rays hidden,
  what Camera and Physics.render use when given none. `engine.MjvOption` is MuJoCo's."""

  def __init__(self):
    super().__init__()
    self.flags[enums.mjtVisFlag.mjVIS_RANGEFINDER] = 0

  @property
  def ptr(self):
    return self  # (dm_control's, for code that passes `option.ptr` to mjv_ functions)


class Contexts(NamedTuple):
  """A Physics' rendering contexts: the OpenGL context and the uploaded model (MjrContext)."""

  gl: object
  mujoco: object


class CameraMatrices(NamedTuple):
  """Camera matrices (dm_control's): `image @ focal @ rotation @ translation` projects
  homogeneous world points to homogeneous pixel coordinates."""

  image: np.ndarray
  focal: np.ndarray
  rotation: np.ndarray
  translation: np.ndarray


class Pose(NamedTuple):
  """A free camera's pose: lookat point, distance, azimuth and elevation (degrees)."""

  lookat: np.ndarray
  distance: float
  azimuth: float
  elevation: float


Selected = collections.namedtuple("Selected", ["body", "geom", "flex", "skin", "world_position"])


def contexts(physics) -> Contexts:
  """The rendering contexts of `physics`, made on first use (one OpenGL context per Physics,
  with the model's offscreen buffer size) and remade when the model changes."""
  model = physics.model.ptr
  ctx = physics.__dict__.get("_render_contexts")
  if ctx is not None and ctx[0] is model:
    return ctx[1]
  if ctx is not None:
    _free(ctx[1])
  vis = model.vis.global_
  gl = GLContext(max(vis.offwidth, 1), max(vis.offheight, 1))
  mjr = gl.call(MjrContext, model, enums.mjtFontScale.mjFONTSCALE_150)
  made = Contexts(gl, mjr)
  physics.__dict__["_render_contexts"] = (model, made)
  return made


def _free(ctx: Contexts):
  with contextlib.suppress(Exception):
    ctx.gl.call(ctx.mujoco.free)
  ctx.gl.free()


def free_contexts(physics):
  """Releases the rendering contexts of `physics`, if any (the next render makes new ones)."""
  physics.__dict__.pop("_render_cameras", None)
  ctx = physics.__dict__.pop("_render_contexts", None)
  if ctx is not None:
    _free(ctx[1])


def estimate_max_geoms(model) -> int:
  """Scene capacity for `model`: every geom and site, their decorations and a margin (a scene
  that runs out of room drops the geoms that do not fit, as MuJoCo's does)."""
  frames = max(model.nbody, model.ngeom, model.nsite, model.ncam, model.nlight)
  return int(
    3 * frames
    + 4 * model.ngeom
    + 3 * model.nsite
    + 6 * model.ntendon
    + 4 * model.njnt
    + 3 * model.nu
    + 2 * model.nbody
    + 1000
  )


class Camera:
  """A camera of a Physics (dm_control's Camera): renders RGB, depth or segmentation images.

  Args:
    physics: the Physics to render.
    height, width: image size in pixels, at most the model's offscreen buffer
      (`<visual><global offwidth= offheight=/>`).
    camera_id: index or name of a model camera, or -1 for the free camera.
    max_geom: scene capacity; None: estimated from the model.
    scene_callback: called with (physics, scene) after the scene is updated, before drawing.
  """

  def __init__(
    self, physics, height=240, width=320, camera_id=-1, max_geom=None, scene_callback=None
  ):
    model = physics.model
    check_image_size(model, height, width)
    if isinstance(camera_id, str):
      camera_id = model.name2id(camera_id, "camera")
    if camera_id < -1:
      raise ValueError("camera_id cannot be smaller than -1.")
    if camera_id >= model.ncam:
      raise ValueError(f"model has {model.ncam} fixed cameras. camera_id={camera_id} is invalid.")
    self._physics = physics
    self._width, self._height = int(width), int(height)
    self._scene_callback = scene_callback
    self._scene_option = MjvOption()
    self._perturb = MjvPerturb()
    self._perturb.active = 0
    self._perturb.select = 0
    self._render_camera = MjvCamera()
    if camera_id == -1:
      self._render_camera.type = enums.mjtCamera.mjCAMERA_FREE
      mjv_defaultFreeCamera(model.ptr, self._render_camera)
    else:
      self._render_camera.type = enums.mjtCamera.mjCAMERA_FIXED
      self._render_camera.fixedcamid = camera_id
    self._scene = MjvScene(model.ptr, max_geom or estimate_max_geoms(model))
    self._renderer = None

  @property
  def width(self) -> int:
    return self._width

  @property
  def height(self) -> int:
    return self._height

  @property
  def option(self):
    """The MjvOption used when no scene_option is given."""
    return self._scene_option

  @property
  def scene(self):
    """The MjvScene (its geoms, lights and cameras after the last update)."""
    return self._scene

  def update(self, scene_option=None):
    """Updates the scene from the physics' current state."""
    physics = self._physics
    mjv_updateScene(
      physics.model.ptr,
      physics.data.ptr,
      scene_option or self._scene_option,
      self._perturb,
      self._render_camera,
      enums.mjtCatBit.mjCAT_ALL,
      self._scene,
    )

  def matrices(self) -> CameraMatrices:
    """The camera's image, focal, rotation and translation matrices (a method, as dm_control's;
    the free camera's from its current pose: the scene is updated first)."""
    camera_id = self._render_camera.fixedcamid
    if self._render_camera.type == enums.mjtCamera.mjCAMERA_FREE or camera_id == -1:
      # the free camera's pose is the scene's (a stereo pair: both eyes averaged), so the
      # scene is updated first, as dm_control does: the matrix is right before any render
      self.update()
      cams = [self._scene.camera[i] for i in range(2)]
      # (in the scene's float32, as dm_control computes it)
      pos = np.mean([cam.pos for cam in cams], axis=0)
      z = -np.mean([cam.forward for cam in cams], axis=0)
      up = np.mean([cam.up for cam in cams], axis=0)
      rot = np.vstack((np.cross(up, z), up, z))
      fov = self._physics.model.vis.global_.fovy
    else:
      pos = np.asarray(self._physics.data.cam_xpos[camera_id], float)
      rot = np.asarray(self._physics.data.cam_xmat[camera_id], float).reshape(3, 3).T
      fov = float(self._physics.model.cam_fovy[camera_id])
    translation = np.eye(4)
    translation[0:3, 3] = -pos
    rotation = np.eye(4)
    rotation[0:3, 0:3] = rot
    scale = (1.0 / np.tan(np.deg2rad(fov) / 2)) * self._height / 2.0
    focal = np.diag([-scale, scale, 1.0, 0])[0:3, :]
    image = np.eye(3)
    image[0, 2] = (self._width - 1) / 2.0
    image[1, 2] = (self._height - 1) / 2.0
    return CameraMatrices(image=image, focal=focal, rotation=rotation, translation=translation)

  @property
  def matrix(self) -> np.ndarray:
    """The 3x4 camera matrix: world points (homogeneous) to pixel coordinates (homogeneous)."""
    image, focal, rotation, translation = self.matrices()
    return image @ focal @ rotation @ translation

  def render(
    self,
    overlays=(),
    depth=False,
    segmentation=False,
    scene_option=None,
    render_flag_overrides=None,
  ):
    """An image: (height, width, 3) uint8 RGB; with `depth`, (height, width) float32 metres;
    with `segmentation`, (height, width, 2) int32 (object id, object type), -1 for none.

    Args:
      overlays: TextOverlay objects drawn over an RGB image.
      depth, segmentation: the kind of image (at most one of them).
      scene_option: an MjvOption (visible groups, decorations); None: the camera's option.
      render_flag_overrides: {flag name or mjtRndFlag: bool} for this image (RGB only).
    """
    if overlays and (depth or segmentation):
      raise ValueError(_OVERLAYS_ONLY_RGB)
    if render_flag_overrides and (depth or segmentation):
      raise ValueError(_FLAG_OVERRIDES_ONLY_RGB)
    if depth and segmentation:
      raise ValueError(_BOTH_SEGMENTATION_AND_DEPTH)
    self.update(scene_option)
    if self._scene_callback:
      self._scene_callback(self._physics, self._scene)
    ctx = contexts(self._physics)
    if self._renderer is None or self._renderer.con is not ctx.mujoco:
      self._renderer = OffscreenRenderer(
        self._physics.model.ptr,
        self._height,
        self._width,
        gl_context=ctx.gl,
        mjr_context=ctx.mujoco,
      )
    flags = self._scene.flags
    saved = np.array(flags, copy=True)
    try:
      for key, value in (render_flag_overrides or {}).items():
        flags[_flag_index(key)] = bool(value)
      return self._renderer.render(
        self._scene,
        depth=depth,
        segmentation=segmentation,
        dm_control_depth=True,
        overlays=[(o.style, o.position, o.title, o.body) for o in overlays],
      )
    finally:
      flags[...] = saved

  def select(self, cursor_position):
    """What the image shows at `cursor_position` (x, y in [0, 1], (0, 0) at the bottom left):
    Selected(body, geom, flex, skin, world_position), None where nothing is hit."""
    self.update()
    x, y = cursor_position
    aspect = self._width / self._height
    physics = self._physics
    point = np.empty(3)
    ids = [np.full(1, -1, np.int32) for _ in range(3)]
    body = mjv_select(
      physics.model.ptr,
      physics.data.ptr,
      self._scene_option,
      aspect,
      x,
      y,
      self._scene,
      point,
      *ids,
    )
    body, geom, flex, skin = (None if i == -1 else int(i) for i in (body, *(a[0] for a in ids)))
    world_position = None if body is None and geom is None and skin is None else point
    return Selected(body=body, geom=geom, flex=flex, skin=skin, world_position=world_position)


def _flag_index(key) -> int:
  if isinstance(key, str):
    name = key.lower()
    if name.startswith("mjrnd_"):
      name = name[len("mjrnd_") :]
    if name not in RENDER_FLAGS:
      raise KeyError(f"unknown rendering flag {key!r}; known: {sorted(RENDER_FLAGS)}")
    return RENDER_FLAGS[name]
  return int(key)


def check_image_size(model, height, width):
  """ValueError (dm_control's message) if the image exceeds the model's offscreen buffer."""
  buffer_width = model.vis.global_.offwidth
  buffer_height = model.vis.global_.offheight
  if width > buffer_width:
    raise ValueError(
      f"Image width {width} > framebuffer width {buffer_width}. Either reduce the image "
      "width or specify a larger offscreen framebuffer in the model XML using the clause\n"
      '<visual>\n  <global offwidth="my_width"/>\n</visual>'
    )
  if height > buffer_height:
    raise ValueError(
      f"Image height {height} > framebuffer height {buffer_height}. Either reduce the image "
      "height or specify a larger offscreen framebuffer in the model XML using the clause\n"
      '<visual>\n  <global offheight="my_height"/>\n</visual>'
    )


class MovableCamera(Camera):
  """The free camera of a Physics (id -1), placed with `set_pose` (dm_control's
  MovableCamera)."""

  def __init__(self, physics, height=240, width=320, max_geom=None, scene_callback=None):
    super().__init__(
      physics,
      height=height,
      width=width,
      camera_id=-1,
      max_geom=max_geom,
      scene_callback=scene_callback,
    )

  def get_pose(self) -> Pose:
    cam = self._render_camera
    return Pose(
      lookat=np.array(cam.lookat, float),
      distance=float(cam.distance),
      azimuth=float(cam.azimuth),
      elevation=float(cam.elevation),
    )

  def set_pose(self, lookat, distance, azimuth, elevation):
    """Points the camera at `lookat` from `distance`, azimuth and elevation in degrees."""
    cam = self._render_camera
    cam.lookat[:] = lookat
    cam.distance = distance
    cam.azimuth = azimuth
    cam.elevation = elevation


class TextOverlay:
  """Text drawn over an RGB image (dm_control's TextOverlay).

  Args:
    title, body: the two columns of text.
    style: 'normal', 'shadow' or 'big'.
    position: 'top left', 'top right', 'bottom left' or 'bottom right'.
  """

  def __init__(self, title="", body="", style="normal", position="top left"):
    if style not in _FONT_STYLES:
      raise ValueError(f"unknown overlay style {style!r}; known: {sorted(_FONT_STYLES)}")
    if position not in _GRID_POSITIONS:
      raise ValueError(f"unknown overlay position {position!r}; known: {sorted(_GRID_POSITIONS)}")
    self.title = title
    self.body = body
    self.style = _FONT_STYLES[style]
    self.position = _GRID_POSITIONS[position]

  def draw(self, context, rect):
    """Draws the text into the current framebuffer (context: the MjrContext)."""
    mjr_overlay(self.style, self.position, rect, self.title, self.body, context)


def _camera_for(physics, height, width, camera_id):
  """The Camera that `Physics.render` drew this size and camera with before, or a new one (its
  scene buffers and options cost about as much as drawing a small image), made anew for a new
  model."""
  model = physics.model.ptr
  cache = physics.__dict__.get("_render_cameras")
  if cache is None or cache[0] is not model:
    cache = physics.__dict__["_render_cameras"] = (model, {})
  key = (int(height), int(width), camera_id)
  camera = cache[1].get(key)
  if camera is None:
    camera = cache[1][key] = Camera(physics, height=height, width=width, camera_id=camera_id)
  return camera


def render_physics(
  physics,
  height=240,
  width=320,
  camera_id=-1,
  overlays=(),
  depth=False,
  segmentation=False,
  scene_option=None,
  render_flag_overrides=None,
  scene_callback=None,
):
  """`Physics.render`: one image from a camera of `physics` (see Camera.render)."""
  camera = _camera_for(physics, height, width, camera_id)
  camera._physics, camera._scene_callback = physics, scene_callback
  try:
    return camera.render(
      overlays=overlays,
      depth=depth,
      segmentation=segmentation,
      scene_option=scene_option,
      render_flag_overrides=render_flag_overrides,
    )
  finally:
    # the cache lives in the physics: no reference back to it between calls
    camera._physics = camera._scene_callback = None
