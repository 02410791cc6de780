"""Maze texture sets (dm_control.locomotion.arenas.labmaze_textures) as builtin textures.

dm_control loads the photographic PNG textures shipped with the `labmaze` package; we do not
copy them. Each entity here provides textures with the same names, types and order per style
(so a maze draws the same random texture indices as dm_control's), made from MuJoCo builtins:
a tiled 2D texture per named colour for walls and floors, and a gradient skybox per sky style.
"""

from composer import entity
import mjcf

SKY_STYLES = ('sky_01', 'sky_02', 'sky_03')
MAZE_STYLES = ('style_01', 'style_02', 'style_03', 'style_04', 'style_05')

WALL_TEXTURES = {
    'style_01': ('blue', 'cerise', 'green_bright', 'green', 'purple', 'red_bright', 'red',
                 'yellow'),
    'style_02': ('blue_bright', 'blue', 'dblue', 'lgreen', 'purple', 'yellow_bright', 'yellow'),
    'style_03': ('blue', 'cyan', 'gray_bright', 'gray', 'orange_bright', 'orange', 'purple'),
    'style_04': ('cerise', 'green_bright', 'green', 'purple', 'red_bright', 'red'),
    'style_05': ('red_bright', 'red', 'yellow_bright', 'yellow'),
}
FLOOR_TEXTURES = {
    'style_01': ('blue_bright', 'blue', 'blue_team', 'orange_bright', 'orange', 'red_team'),
    'style_02': ('blue_bright', 'blue', 'green_bright', 'green', 'orange'),
    'style_03': ('blue_bright', 'blue', 'green_bright', 'green', 'orange', 'purple', 'red'),
    'style_04': ('blue_bright', 'blue', 'cyan', 'dorange', 'orange_bright', 'orange'),
    'style_05': ('blue_bright', 'blue', 'orange_bright', 'orange'),
}

_COLOURS = {
    'blue': (.2, .3, .75), 'blue_bright': (.35, .55, 1.), 'blue_team': (.25, .35, .9),
    'dblue': (.1, .15, .45), 'cerise': (.87, .19, .39), 'cyan': (.2, .75, .8),
    'green': (.2, .55, .2), 'green_bright': (.4, .85, .3), 'lgreen': (.6, .88, .6),
    'gray': (.45, .45, .45), 'gray_bright': (.72, .72, .72), 'orange': (.85, .45, .1),
    'orange_bright': (1., .65, .3), 'dorange': (.6, .3, .05), 'purple': (.5, .25, .7),
    'red': (.7, .15, .15), 'red_bright': (1., .3, .3), 'red_team': (.9, .25, .25),
    'yellow': (.8, .7, .2), 'yellow_bright': (1., .95, .4),
}
# (zenith, horizon) colours of each sky style's gradient.
_SKIES = {
    'sky_01': ((.25, .45, .8), (.85, .9, .95)),
    'sky_02': ((.1, .15, .35), (.55, .5, .6)),
    'sky_03': ((.35, .55, .85), (.95, .85, .7)),
}
_TEXTURE_SIZE = 1024


def _check_style(style, styles):
  if style not in styles:
    raise ValueError('`style` should be one of {}: got {!r}'.format(styles, style))


def _shade(rgb, factor):
  return [min(1., c * factor) for c in rgb]


class SkyBox(entity.Entity):
  """A skybox texture in one of `SKY_STYLES`; `texture` is its MJCF element."""

  def _build(self, style):
    _check_style(style, SKY_STYLES)
    self._mjcf_root = mjcf.RootElement(model='labmaze_' + style)
    zenith, horizon = _SKIES[style]
    self._texture = self._mjcf_root.asset.add(
        'texture', type='skybox', name='texture', builtin='gradient', rgb1=zenith,
        rgb2=horizon, width=_TEXTURE_SIZE, height=6 * _TEXTURE_SIZE)

  @property
  def mjcf_model(self):
    return self._mjcf_root

  @property
  def texture(self):
    return self._texture


class _TextureSet(entity.Entity):
  """Named 2D textures of one maze style; `textures` lists their MJCF elements."""

  _NAMES = {}
  _MARK = 'edge'

  def _build(self, style):
    _check_style(style, MAZE_STYLES)
    self._mjcf_root = mjcf.RootElement(model='labmaze_' + style)
    self._textures = [
        self._mjcf_root.asset.add(
            'texture', type='2d', name=name, builtin='checker', rgb1=_COLOURS[name],
            rgb2=_shade(_COLOURS[name], .85), mark=self._MARK,
            markrgb=_shade(_COLOURS[name], .6), width=_TEXTURE_SIZE, height=_TEXTURE_SIZE)
        for name in self._NAMES[style]]

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
  _MARK = 'none'
