"""A flat floor arena (dm_control's locomotion.arenas.floors)."""

from composer import arenas
from suite.locomotion.arenas import aesthetics


class Floor(arenas.Floor):
  """A floor plane with a top-down camera framing it: composer's checkered Floor, plus the
  'outdoor_natural' look (a builtin-texture stand-in, see `aesthetics`).

  `Floor(size=(8, 8), reflectance=.2, aesthetic='default', name='floor',
  top_camera_y_padding_factor=1.1, top_camera_distance=100)`: `size` is the plane's half-lengths
  (x, y); `reflectance` applies to the default look only, as in dm_control.
  """

  def _build_ground_look(self, aesthetic, reflectance):
    aesthetics.check_aesthetic(aesthetic, "Floor")
    if aesthetic == aesthetics.DEFAULT:
      super()._build_ground_look(aesthetic, reflectance)
      return
    self._ground_texture, self._ground_material = aesthetics.add_ground_look(
      self._mjcf_root, aesthetic
    )
    self._skybox = aesthetics.add_skybox(self._mjcf_root, aesthetic)
