"""Corridor arenas (dm_control's locomotion.arenas.corridors): a straight track along +x,
bounded by four planes, empty or with gaps in the floor or walls to get around.

Every dimension may be a number or a `composer.variation` variation: `regenerate(random_state)`
draws new values and rebuilds the corridor, with the draws in dm_control's order (so the same
random state gives the same corridor). Drawn lengths are checked, so a variation that yields a
non-positive length fails with a message naming it instead of building an empty or endless
corridor.
"""

import abc

import numpy as np

from composer import arena
from composer import variation
from suite.locomotion.arenas import aesthetics

# the bounding planes reach this far past both ends of the corridor
_END_PADDING = 2.0
_BOUNDARY_HEIGHT = 4.0
# the bounding planes' geom group and, when visible, their opacity
_BOUNDARY_GROUP = 3
_BOUNDARY_ALPHA = 0.5
# the thickness of the walls of WallsCorridor; platforms are twice as thick
_WALL_THICKNESS = 0.16

# xyaxes of the left (+y), right (-y), near (-x) and far (+x) planes: each normal (x cross y)
# points into the corridor
_BOUNDARY_AXES = ([1, 0, 0, 0, 0, 1], [-1, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 1], [0, -1, 0, 0, 0, 1])


def _check_length(value, what, allow_zero=False):
  """Raises ValueError naming `what` unless `value` is a finite positive (or zero) number."""
  try:
    valid = bool(np.isfinite(value) and (value >= 0 if allow_zero else value > 0))
  except (TypeError, ValueError):
    valid = False
  if not valid:
    bound = "non-negative" if allow_zero else "positive"
    raise ValueError(f"{what} must be a {bound} number, got {value!r}")


class Corridor(arena.Arena, metaclass=abc.ABCMeta):
  """A corridor along +x, rebuilt by `regenerate` at every episode."""

  @abc.abstractmethod
  def regenerate(self, random_state):
    """Draws the corridor's dimensions and rebuilds it."""

  @property
  @abc.abstractmethod
  def corridor_length(self):
    """The length drawn by the last `regenerate` (None before)."""

  @property
  @abc.abstractmethod
  def corridor_width(self):
    """The width drawn by the last `regenerate` (None before)."""

  @property
  @abc.abstractmethod
  def ground_geoms(self):
    """The geoms a walker may stand on."""

  def is_at_target_position(self, position, tolerance=0.0):
    """Whether `position` (x, y) is within `tolerance` of the corridor's far end."""
    x, _ = position
    return x > self.corridor_length - tolerance

  def _check_parameters(self, **parameters):
    """Checks the constant ones of `parameters` (name=(value, allow_zero)); variations are
    checked when drawn."""
    for name, (value, allow_zero) in parameters.items():
      if not callable(value):
        _check_length(value, self._describe(name), allow_zero)

  def _draw(self, name, parameter, random_state, allow_zero=False):
    """A value of `parameter` (a number or a variation), checked to be a usable length."""
    value = variation.evaluate(parameter, random_state=random_state)
    _check_length(value, self._describe(name), allow_zero)
    return value

  def _describe(self, name):
    return f"{type(self).__name__} `{name}`"


class EmptyCorridor(Corridor):
  """A flat corridor of `corridor_width` by `corridor_length` bounded by four planes.

  `EmptyCorridor(corridor_width=4, corridor_length=40, visible_side_planes=True,
  name='empty_corridor')`; both dimensions may be variations, drawn (width first) by
  `regenerate`. The ground is a plane reaching 2 m past both ends; the bounding planes are 4 m
  tall, translucent red, in geom group 3, or invisible without `visible_side_planes`.
  """

  def _build(
    self, corridor_width=4, corridor_length=40, visible_side_planes=True, name="empty_corridor"
  ):
    self._check_parameters(
      corridor_width=(corridor_width, False), corridor_length=(corridor_length, False)
    )
    super()._build(name=name)
    self._corridor_width = corridor_width
    self._corridor_length = corridor_length
    root = self._mjcf_root
    # obstacles of subclasses, removed at every regeneration
    self._walls_body = root.worldbody.add("body", name="walls")
    root.visual.map.znear = 0.0005
    root.asset.add(
      "texture",
      type="skybox",
      builtin="gradient",
      rgb1=[0.4, 0.6, 0.8],
      rgb2=[0, 0, 0],
      width=100,
      height=600,
    )
    root.visual.headlight.set_attributes(
      ambient=[0.4, 0.4, 0.4], diffuse=[0.8, 0.8, 0.8], specular=[0.1, 0.1, 0.1]
    )
    # unit sizes until the first regeneration sets the corridor's
    self._ground_plane = root.worldbody.add(
      "geom", type="plane", rgba=[0.5, 0.5, 0.5, 1], size=[1, 1, 1]
    )
    alpha = _BOUNDARY_ALPHA if visible_side_planes else 0.0
    self._boundary_planes = tuple(
      root.worldbody.add(
        "geom",
        type="plane",
        xyaxes=axes,
        size=[1, 1, 1],
        rgba=[1, 0, 0, alpha],
        group=_BOUNDARY_GROUP,
      )
      for axes in _BOUNDARY_AXES
    )
    self._current_corridor_length = None
    self._current_corridor_width = None

  def regenerate(self, random_state):
    """Removes the obstacles, draws a new width then length, and resizes the planes."""
    self._walls_body.geom.clear()
    width = self._draw("corridor_width", self._corridor_width, random_state)
    length = self._draw("corridor_length", self._corridor_length, random_state)
    self._current_corridor_width = width
    self._current_corridor_length = length
    half_span = length / 2 + _END_PADDING  # half the planes' extent along the corridor
    half_height = _BOUNDARY_HEIGHT / 2
    self._ground_plane.pos = [length / 2, 0, 0]
    self._ground_plane.size = [half_span, width / 2, 1]
    left, right, near, far = self._boundary_planes
    placements = (
      (left, [length / 2, width / 2, half_height], half_span),
      (right, [length / 2, -width / 2, half_height], half_span),
      (near, [-_END_PADDING, 0, half_height], width / 2),
      (far, [length + _END_PADDING, 0, half_height], width / 2),
    )
    for plane, pos, half_extent in placements:
      plane.pos = pos
      plane.size = [half_extent, half_height, 1]

  @property
  def corridor_length(self):
    return self._current_corridor_length

  @property
  def corridor_width(self):
    return self._current_corridor_width

  @property
  def ground_geoms(self):
    return (self._ground_plane,)


class GapsCorridor(EmptyCorridor):
  """A corridor whose floor is a row of platforms separated by gaps to jump.

  `GapsCorridor(platform_length=1., gap_length=2.5, corridor_width=4, corridor_length=40,
  ground_rgba=(0.5, 0.5, 0.5, 1), visible_side_planes=False, aesthetic='default',
  name='gaps_corridor')`. Each regeneration lays a 6 m start platform, then platforms and gaps
  of drawn lengths until the corridor's length is reached; the platforms' tops are at z = 0 and
  the ground plane is hidden 10 m below. `ground_rgba` (a colour or a variation) colours each
  platform in the default look; the 'outdoor_natural' look textures them instead (a stand-in,
  see `aesthetics`).

  dm_control passes the random state to a `ground_rgba` variation as its initial value, so
  random colours are drawn there from numpy's global generator; here they are drawn from the
  random state given to `regenerate`, like every other parameter. Constant colours (the default)
  and deterministic variations give the same corridor as dm_control for the same random state.
  """

  def _build(
    self,
    platform_length=1.0,
    gap_length=2.5,
    corridor_width=4,
    corridor_length=40,
    ground_rgba=(0.5, 0.5, 0.5, 1),
    visible_side_planes=False,
    aesthetic="default",
    name="gaps_corridor",
  ):
    aesthetics.check_aesthetic(aesthetic, "GapsCorridor")
    self._check_parameters(platform_length=(platform_length, False), gap_length=(gap_length, True))
    super()._build(
      corridor_width=corridor_width,
      corridor_length=corridor_length,
      visible_side_planes=visible_side_planes,
      name=name,
    )
    self._platform_length = platform_length
    self._gap_length = gap_length
    self._ground_rgba = ground_rgba
    self._aesthetic = aesthetic
    root = self._mjcf_root
    if aesthetic != aesthetics.DEFAULT:
      self._ground_texture, self._ground_material = aesthetics.add_ground_look(root, aesthetic)
      for texture in root.asset.find_all("texture"):
        if texture.type == "skybox":
          texture.remove()
      self._skybox = aesthetics.add_skybox(root, aesthetic)
    self._ground_body = root.worldbody.add("body", name="ground")

  def regenerate(self, random_state):
    """Resizes the corridor, then lays new platforms: per platform its length, its colour (in
    the default look), then the gap after it."""
    super().regenerate(random_state)
    self._ground_plane.pos = [self._current_corridor_length / 2, 0, -10]
    self._ground_plane.rgba = [0, 0, 0, 0]
    self._ground_body.geom.clear()
    start_length = 3 * _END_PADDING
    self._add_platform("start_floor", 0, start_length, random_state)
    x = start_length
    index = 0
    while x < self._current_corridor_length:
      length = self._draw("platform_length", self._platform_length, random_state)
      self._add_platform(f"floor_{index}", x, length, random_state)
      index += 1
      x += length + self._draw("gap_length", self._gap_length, random_state, allow_zero=True)

  def _add_platform(self, name, start_x, length, random_state):
    """A box platform from `start_x` along the corridor, its top at z = 0."""
    look = (
      {"rgba": variation.evaluate(self._ground_rgba, random_state=random_state)}
      if self._aesthetic == aesthetics.DEFAULT
      else {"material": self._ground_material}
    )
    self._ground_body.add(
      "geom",
      type="box",
      name=name,
      pos=[start_x + length / 2, 0, -_WALL_THICKNESS],
      size=[length / 2, self._current_corridor_width / 2, _WALL_THICKNESS],
      **look,
    )

  @property
  def ground_geoms(self):
    return (self._ground_plane,) + tuple(self._ground_body.find_all("geom"))


class WallsCorridor(EmptyCorridor):
  """A corridor obstructed by walls standing against one side or the other, to go around.

  `WallsCorridor(wall_gap=2.5, wall_width=2.5, wall_height=2.0, swap_wall_side=True,
  wall_rgba=(1, 1, 1, 1), corridor_width=4, corridor_length=40, visible_side_planes=False,
  include_initial_padding=True, name='walls_corridor')`. `wall_gap` is the distance between
  consecutive walls, `wall_width` how far a wall reaches across the corridor; `swap_wall_side`
  (a boolean or a variation) says whether each wall stands against the other side than the
  previous one. The first wall is at `wall_gap - 2` m, 4 m further with
  `include_initial_padding`.
  """

  def _build(
    self,
    wall_gap=2.5,
    wall_width=2.5,
    wall_height=2.0,
    swap_wall_side=True,
    wall_rgba=(1, 1, 1, 1),
    corridor_width=4,
    corridor_length=40,
    visible_side_planes=False,
    include_initial_padding=True,
    name="walls_corridor",
  ):
    self._check_parameters(
      wall_gap=(wall_gap, False), wall_width=(wall_width, False), wall_height=(wall_height, False)
    )
    super()._build(
      corridor_width=corridor_width,
      corridor_length=corridor_length,
      visible_side_planes=visible_side_planes,
      name=name,
    )
    self._wall_gap = wall_gap
    self._wall_width = wall_width
    self._wall_height = wall_height
    self._swap_wall_side = swap_wall_side
    self._wall_rgba = wall_rgba
    self._include_initial_padding = include_initial_padding

  def regenerate(self, random_state):
    """Resizes the corridor, then places new walls: the first wall's distance, then per wall
    its width, height, colour and side swap, then the gap to the next."""
    super().regenerate(random_state)
    x = self._draw("wall_gap", self._wall_gap, random_state) - _END_PADDING
    if self._include_initial_padding:
      x += 2 * _END_PADDING
    side = 0  # 0: against the right (-y) side, 1: against the left (+y) side
    index = 0
    while x < self._current_corridor_length:
      width = self._draw("wall_width", self._wall_width, random_state)
      height = self._draw("wall_height", self._wall_height, random_state)
      rgba = variation.evaluate(self._wall_rgba, random_state=random_state)
      if variation.evaluate(self._swap_wall_side, random_state=random_state):
        side = 1 - side
      y = (2 * side - 1) * (self._current_corridor_width - width) / 2
      self._walls_body.add(
        "geom",
        type="box",
        name=f"wall_{index}",
        pos=[x, y, height / 2],
        size=[_WALL_THICKNESS / 2, width / 2, height / 2],
        rgba=rgba,
      )
      index += 1
      x += self._draw("wall_gap", self._wall_gap, random_state)

  @property
  def ground_geoms(self):
    return (self._ground_plane,)
