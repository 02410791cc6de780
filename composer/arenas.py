"""Ready-made arenas (dm_control's locomotion.arenas.Floor, default look)."""

import numpy as np

from composer import arena

_GROUNDPLANE_QUAD_SIZE = 0.25


def check_floor_size(size, owner):
  """Raises ValueError naming `owner` unless `size` is two positive, finite half-lengths."""
  try:
    values = [float(v) for v in size]
  except (TypeError, ValueError):
    values = []
  if len(values) != 2 or not all(np.isfinite(v) and v > 0 for v in values):
    raise ValueError(f"{owner} `size` must be two positive half-lengths (x, y), got {size!r}")


class Floor(arena.Arena):
  """A checkered floor plane with a top-down camera that frames the whole floor.

  `Floor(size=(8, 8), reflectance=.2, aesthetic='default', name='floor',
  top_camera_y_padding_factor=1.1, top_camera_distance=100)`; only the default aesthetic
  exists here (suite.locomotion.arenas.Floor adds a stand-in for dm_control's textured one).
  """

  def _build(
    self,
    size=(8, 8),
    reflectance=0.2,
    aesthetic="default",
    name="floor",
    top_camera_y_padding_factor=1.1,
    top_camera_distance=100,
  ):
    check_floor_size(size, "Floor")
    if not top_camera_distance > 0 or not top_camera_y_padding_factor > 0:
      raise ValueError(
        "Floor `top_camera_distance` and `top_camera_y_padding_factor` must be positive, got "
        f"{top_camera_distance!r} and {top_camera_y_padding_factor!r}"
      )
    super()._build(name=name)
    self._size = size
    self._top_camera_y_padding_factor = top_camera_y_padding_factor
    self._top_camera_distance = top_camera_distance
    root = self._mjcf_root
    root.visual.headlight.set_attributes(
      ambient=[0.4, 0.4, 0.4], diffuse=[0.8, 0.8, 0.8], specular=[0.1, 0.1, 0.1]
    )
    self._build_ground_look(aesthetic, reflectance)
    self._ground_geom = root.worldbody.add(
      "geom",
      type="plane",
      name="groundplane",
      material=self._ground_material,
      size=list(size) + [_GROUNDPLANE_QUAD_SIZE],
    )
    # a field of view that fits the floor whatever its size
    fovy = 2 * np.arctan2(top_camera_y_padding_factor * size[1], top_camera_distance)
    self._top_camera = root.worldbody.add(
      "camera",
      name="top_camera",
      pos=[0, 0, top_camera_distance],
      quat=[1, 0, 0, 0],
      fovy=np.rad2deg(fovy),
    )

  def _build_ground_look(self, aesthetic, reflectance):
    """Adds the ground's texture and material (`_ground_texture`, `_ground_material`)."""
    if aesthetic != "default":
      raise NotImplementedError(
        f"Floor aesthetic {aesthetic!r}: only 'default' is available here (the others are in "
        "suite.locomotion.arenas.Floor)"
      )
    root = self._mjcf_root
    self._ground_texture = root.asset.add(
      "texture",
      name="groundplane",
      type="2d",
      builtin="checker",
      rgb1=[0.2, 0.3, 0.4],
      rgb2=[0.1, 0.2, 0.3],
      width=200,
      height=200,
      mark="edge",
      markrgb=[0.8, 0.8, 0.8],
    )
    # texrepeat 2 makes each square 1x1 length unit
    self._ground_material = root.asset.add(
      "material",
      name="groundplane",
      texrepeat=[2, 2],
      texuniform=True,
      reflectance=reflectance,
      texture=self._ground_texture,
    )

  @property
  def ground_geoms(self):
    return (self._ground_geom,)

  def regenerate(self, random_state):
    """Nothing to regenerate on a flat floor."""

  @property
  def size(self):
    return self._size
