"""Ready-made arenas (dm_control's locomotion.arenas.Floor, default look)."""

import numpy as np

from composer import arena

_GROUNDPLANE_QUAD_SIZE = 0.25


class Floor(arena.Arena):
  """A checkered floor plane with a top-down camera that frames the whole floor.

  `Floor(size=(8, 8), reflectance=.2, aesthetic='default', name='floor',
  top_camera_y_padding_factor=1.1, top_camera_distance=100)`; only the default aesthetic
  exists here (dm_control's others load texture files we do not ship).
  """

  def _build(self, size=(8, 8), reflectance=.2, aesthetic='default', name='floor',
             top_camera_y_padding_factor=1.1, top_camera_distance=100):
    if aesthetic != 'default':
      raise NotImplementedError(
        f"Floor aesthetic {aesthetic!r}: only 'default' is available (the others use "
        "dm_control's texture files)")
    super()._build(name=name)
    self._size = size
    root = self._mjcf_root
    root.visual.headlight.set_attributes(ambient=[.4, .4, .4], diffuse=[.8, .8, .8],
                                         specular=[.1, .1, .1])
    self._ground_texture = root.asset.add(
      'texture', name='groundplane', type='2d', builtin='checker', rgb1=[.2, .3, .4],
      rgb2=[.1, .2, .3], width=200, height=200, mark='edge', markrgb=[0.8, 0.8, 0.8])
    # texrepeat 2 makes each square 1x1 length unit
    self._ground_material = root.asset.add(
      'material', name='groundplane', texrepeat=[2, 2], texuniform=True,
      reflectance=reflectance, texture=self._ground_texture)
    self._ground_geom = root.worldbody.add(
      'geom', type='plane', name='groundplane', material=self._ground_material,
      size=list(size) + [_GROUNDPLANE_QUAD_SIZE])
    # a field of view that fits the floor whatever its size
    fovy = 2 * np.arctan2(top_camera_y_padding_factor * size[1], top_camera_distance)
    self._top_camera = root.worldbody.add('camera', name='top_camera',
                                          pos=[0, 0, top_camera_distance], quat=[1, 0, 0, 0],
                                          fovy=np.rad2deg(fovy))

  @property
  def ground_geoms(self):
    return (self._ground_geom,)

  def regenerate(self, random_state):
    """Nothing to regenerate on a flat floor."""

  @property
  def size(self):
    return self._size
