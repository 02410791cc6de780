"""`Renderer`: the counterpart of `mujoco.Renderer` (model + offscreen context + scene).

    renderer = engine.Renderer(model, height=240, width=320)
    renderer.update_scene(data, camera="track")
    pixels = renderer.render()                  # (240, 320, 3) uint8
    renderer.enable_depth_rendering(); depth = renderer.render()  # metres

Depth and segmentation come out as in MuJoCo's Python renderer: depth in metres along the view
axis, segmentation as (object id, object type) per pixel with -1 for background.
"""

from engine import enums
from engine.render.camera import check_image_size
from engine.render.gl_renderer import OffscreenRenderer
from engine.render.visualize import MjvCamera
from engine.render.visualize import MjvOption
from engine.render.visualize import MjvPerturb
from engine.render.visualize import MjvScene
from engine.render.visualize import mjv_defaultFreeCamera
from engine.render.visualize import mjv_updateScene
from engine.support import mj_name2id


class Renderer:
  """Renders a model's scenes offscreen.

  Args:
    model: an engine.MjModel.
    height, width: image size, at most the model's offscreen buffer
      (`<visual><global offwidth= offheight=/>`).
    max_geom: scene capacity.
  """

  def __init__(self, model, height=240, width=320, max_geom=10000):
    model = getattr(model, "ptr", model)
    check_image_size(model, height, width)
    self._model = model
    self._width, self._height = int(width), int(height)
    self._scene = MjvScene(model, max_geom)
    self._scene_option = MjvOption()
    self._perturb = MjvPerturb()
    self._camera = MjvCamera()
    mjv_defaultFreeCamera(model, self._camera)
    self._depth = False
    self._segmentation = False
    self._renderer = OffscreenRenderer(model, self._height, self._width)

  @property
  def model(self):
    return self._model

  @property
  def scene(self):
    return self._scene

  @property
  def width(self) -> int:
    return self._width

  @property
  def height(self) -> int:
    return self._height

  def enable_depth_rendering(self):
    self._segmentation = False
    self._depth = True

  def disable_depth_rendering(self):
    self._depth = False

  def enable_segmentation_rendering(self):
    self._segmentation = True
    self._depth = False

  def disable_segmentation_rendering(self):
    self._segmentation = False

  def update_scene(self, data, camera=-1, scene_option=None):
    """Updates the scene from `data`, seen by `camera`: an MjvCamera, a model camera's index or
    name, or -1 for the default free camera."""
    data = getattr(data, "ptr", data)
    if isinstance(camera, MjvCamera):
      cam = camera
    else:
      if isinstance(camera, str):
        name = camera
        camera = mj_name2id(self._model, enums.mjtObj.mjOBJ_CAMERA, name)
        if camera == -1:
          raise ValueError(f'The camera "{name}" does not exist.')
      if not -1 <= camera < self._model.ncam:
        raise ValueError(f"The camera id {camera} is out of range [-1, {self._model.ncam}).")
      cam = self._camera
      if camera == -1:
        mjv_defaultFreeCamera(self._model, cam)
      else:
        cam.type = enums.mjtCamera.mjCAMERA_FIXED
        cam.fixedcamid = camera
    mjv_updateScene(
      self._model,
      data,
      scene_option or self._scene_option,
      self._perturb,
      cam,
      enums.mjtCatBit.mjCAT_ALL,
      self._scene,
    )

  def render(self, *, out=None):
    """The current scene as RGB (uint8), depth (float32 metres) or segmentation (int32 pairs),
    top row first; into `out` when given."""
    if self._renderer is None:
      raise RuntimeError("render() called after close()")
    image = self._renderer.render(self._scene, depth=self._depth, segmentation=self._segmentation)
    if out is not None:
      out[...] = image
      return out
    return image

  def close(self):
    """Frees the OpenGL context (the renderer cannot be used afterwards)."""
    if self._renderer is not None:
      self._renderer.close()
      self._renderer = None

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    self.close()
