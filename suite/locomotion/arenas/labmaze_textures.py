"""Maze texture sets (dm_control.locomotion.arenas.labmaze_textures) as builtin textures.

dm_control loads the photographic PNG textures shipped with the `labmaze` package; we do not
copy them. Each entity here provides textures with the same names, types and order per style
(so a maze draws the same random texture indices as dm_control's), made from MuJoCo builtins:
a tiled 2D texture per named colour for walls and floors, and a gradient skybox per sky style.
"""

import mjcf
from composer import entity

SKY_STYLES = ("sky_01", "sky_02", "sky_03")
MAZE_STYLES = ("style_01", "style_02", "style_03", "style_04", "style_05")

WALL_TEXTURES = {
  "style_01": ("blue", "cerise", "green_bright", "green", "purple", "red_bright", "red", "yellow"),
  "style_02": ("blue_bright", "blue", "dblue", "lgreen", "purple", "yellow_bright", "yellow"),
  "style_03": ("blue", "cyan", "gray_bright", "gray", "orange_bright", "orange", "purple"),
  "style_04": ("cerise", "green_bright", "green", "purple", "red_bright", "red"),
  "style_05": ("red_bright", "red", "yellow_bright", "yellow"),
}
FLOOR_TEXTURES = {
  "style_01": ("blue_bright", "blue", "blue_team", "orange_bright", "orange", "red_team"),
  "style_02": ("blue_bright", "blue", "green_bright", "green", "orange"),
  "style_03": ("blue_bright", "blue", "green_bright", "green", "orange", "purple", "red"),
  "style_04": ("blue_bright", "blue", "cyan", "dorange", "orange_bright", "orange"),
  "style_05": ("blue_bright", "blue", "orange_bright", "orange"),
}

_COLOURS = {
  "blue": (0.2, 0.3, 0.75),
  "blue_bright": (0.35, 0.55, 1.0),
  "blue_team": (0.25, 0.35, 0.9),
  "dblue": (0.1, 0.15, 0.45),
  "cerise": (0.87, 0.19, 0.39),
  "cyan": (0.2, 0.75, 0.8),
  "green": (0.2, 0.55, 0.2),
  "green_bright": (0.4, 0.85, 0.3),
  "lgreen": (0.6, 0.88, 0.6),
  "gray": (0.45, 0.45, 0.45),
  "gray_bright": (0.72, 0.72, 0.72),
  "orange": (0.85, 0.45, 0.1),
  "orange_bright": (1.0, 0.65, 0.3),
  "dorange": (0.6, 0.3, 0.05),
  "purple": (0.5, 0.25, 0.7),
  "red": (0.7, 0.15, 0.15),
  "red_bright": (1.0, 0.3, 0.3),
  "red_team": (0.9, 0.25, 0.25),
  "yellow": (0.8, 0.7, 0.2),
  "yellow_bright": (1.0, 0.95, 0.4),
}
# (zenith, horizon) colours of each sky style's gradient.
_SKIES = {
  "sky_01": ((0.25, 0.45, 0.8), (0.85, 0.9, 0.95)),
  "sky_02": ((0.1, 0.15, 0.35), (0.55, 0.5, 0.6)),
  "sky_03": ((0.35, 0.55, 0.85), (0.95, 0.85, 0.7)),
}
_TEXTURE_SIZE = 1024


def _check_style(style, styles):
  if style not in styles:
    raise ValueError("`style` should be one of {}: got {!r}".format(styles, style))


def _shade(rgb, factor):
  return [min(1.0, c * factor) for c in rgb]


class SkyBox(entity.Entity):
  """A skybox texture in one of `SKY_STYLES`; `texture` is its MJCF element."""

  def _build(self, style):
    _check_style(style, SKY_STYLES)
    self._mjcf_root = mjcf.RootElement(model="labmaze_" + style)
    zenith, horizon = _SKIES[style]
    self._texture = self._mjcf_root.asset.add(
      "texture",
      type="skybox",
      name="texture",
      builtin="gradient",
      rgb1=zenith,
      rgb2=horizon,
      width=_TEXTURE_SIZE,
      height=6 * _TEXTURE_SIZE,
    )

  @property
  def mjcf_model(self):
    return self._mjcf_root

  @property
  def texture(self):
    return self._texture


class _TextureSet(entity.Entity):
  """Named 2D textures of one maze style; `textures` lists their MJCF elements."""

  _NAMES = {}
  _MARK = "edge"

  def _build(self, style):
    _check_style(style, MAZE_STYLES)
    self._mjcf_root = mjcf.RootElement(model="labmaze_" + style)
    self._textures = [
      self._mjcf_root.asset.add(
        "texture",
        type="2d",
        name=name,
        builtin="checker",
        rgb1=_COLOURS[name],
        rgb2=_shade(_COLOURS[name], 0.85),
        mark=self._MARK,
        markrgb=_shade(_COLOURS[name], 0.6),
        width=_TEXTURE_SIZE,
        height=_TEXTURE_SIZE,
      )
      for name in self._NAMES[style]
    ]

  @property
  def mjcf_model(self):
    return self._mjcf_root

  @property
  def textures(self):
    return self._textures


class WallTextures(_TextureSet):
  """The wall textures of a maze style in `MAZE_STYLES` (tiles with dark edges)."""

  _NAMES = WALL_TEXTURES


class FloorTextures(_TextureSet):
  """The floor textures of a maze style in `MAZE_STYLES` (checkered tiles)."""

  _NAMES = FLOOR_TEXTURES
  _MARK = "none"
