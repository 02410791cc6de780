"""A bowl of bumpy terrain to escape from (dm_control's locomotion.arenas.bowl)."""

import numpy as np

from composer import arena
from composer import arenas
from suite.locomotion.arenas import aesthetics
from suite.utils import zoom

# the height field: 201x201 samples over 12 m x 12 m, 0.5 m high, 0.1 m base
_HFIELD_RESOLUTION = 201
_HFIELD_SIZE = (6, 6, 0.5, 0.1)
# the bumps' heights are drawn in [_BUMP_MINIMUM, 1] (1 would be smooth), one per
# _BUMP_SPACING metres, and interpolated between
_BUMP_MINIMUM = 0.5
_BUMP_SPACING = 0.2
_DEFAULT_RGBA = (0.2, 0.3, 0.4, 1)


class Bowl(arena.Arena):
  """A height-field bowl with random smooth bumps, on a ground plane.

  `Bowl(size=(10, 10), aesthetic='default', name='bowl')`: `size` is the ground plane's
  half-lengths (x, y); the terrain is 12 m square whatever the size. New terrain is drawn at the
  first `initialize_episode` after construction or `regenerate` (it needs the compiled model);
  a renderer draws the new terrain, since ours redraws a height field whose data changed (MuJoCo
  needs it uploaded with mjr_uploadHField, which dm_control does here).
  """

  def _build(self, size=(10, 10), aesthetic="default", name="bowl"):
    arenas.check_floor_size(size, "Bowl")
    aesthetics.check_aesthetic(aesthetic, "Bowl")
    super()._build(name=name)
    root = self._mjcf_root
    self._hfield = root.asset.add(
      "hfield", name="terrain", nrow=_HFIELD_RESOLUTION, ncol=_HFIELD_RESOLUTION, size=_HFIELD_SIZE
    )
    if aesthetic == aesthetics.DEFAULT:
      look = {"rgba": _DEFAULT_RGBA}
    else:
      self._texture, self._material = aesthetics.add_ground_look(root, aesthetic)
      self._skybox = aesthetics.add_skybox(root, aesthetic)
      look = {"material": self._material}
    # 1 cm down: the terrain's border, at height 0, stays just under the ground plane
    self._terrain_geom = root.worldbody.add(
      "geom", name="terrain", type="hfield", pos=(0, 0, -0.01), hfield="terrain", **look
    )
    self._ground_geom = root.worldbody.add(
      "geom", type="plane", name="groundplane", size=list(size) + [0.5], **look
    )
    root.visual.headlight.set_attributes(
      ambient=[0.4, 0.4, 0.4], diffuse=[0.8, 0.8, 0.8], specular=[0.1, 0.1, 0.1]
    )
    self._terrain_pending = True

  def regenerate(self, random_state):
    """Asks for new terrain at the next `initialize_episode` (drawing needs the physics)."""
    self._terrain_pending = True

  def initialize_episode(self, physics, random_state):
    """Draws new terrain if asked: a sinusoidal bowl, flat within 10% of the centre and rising to
    its rim, times bumps drawn uniformly and smoothed by a cubic spline."""
    if not self._terrain_pending:
      return
    self._terrain_pending = False
    hfield = physics.bind(self._hfield)
    res = hfield.nrow  # square: nrow == ncol
    row, col = np.ogrid[-1 : 1 : res * 1j, -1 : 1 : res * 1j]
    radius = np.clip(np.sqrt(col**2 + row**2), 0.1, 1)
    bowl = 0.5 - np.cos(2 * np.pi * radius) / 2
    extent = 2 * hfield.size[0]
    bump_count = int(extent / _BUMP_SPACING)
    bumps = random_state.uniform(_BUMP_MINIMUM, 1, (bump_count, bump_count))
    smooth_bumps = zoom.zoom(bumps, res / float(bump_count))
    start = hfield.adr
    physics.model.hfield_data[start : start + res**2] = (bowl * smooth_bumps).ravel()

  @property
  def ground_geoms(self):
    return (self._terrain_geom, self._ground_geom)
