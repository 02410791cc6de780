"""The soccer pitch: a ground plane inside four walls, two goals that detect the ball and an
inverted field detector that tells when the ball is out (dm_control.locomotion.soccer.pitch).

The field's texture (grass stripes and white lines) is drawn with pillow when first needed.
"""

import colorsys
import functools
import io

import numpy as np
from PIL import Image
from PIL import ImageDraw

import composer
import mjcf
from composer import props
from composer.variation import distributions
from suite.locomotion.soccer import team

_TOP_CAMERA_Y_PADDING_FACTOR = 1.1
_TOP_CAMERA_DISTANCE = 95.0
_WALL_THICKNESS = 0.5
_SIDE_WIDTH = 32.0 / 6.0
_GROUND_GEOM_GRID_RATIO = 1.0 / 100  # the ground's grid size (for lighting), per pitch length
_FIELD_BOX_CONTACT_BIT = 1 << 7  # a contact bit of the ball and field box only

_DEFAULT_PITCH_SIZE = (12, 9)
_DEFAULT_GOAL_LENGTH_RATIO = 0.33  # goal width / pitch width

_GOALPOST_RELATIVE_SIZE = 0.07  # goalpost radius / mean goal half size
_NET_RELATIVE_SIZE = 0.01  # net thickness / mean goal half size
_SUPPORT_POST_RATIO = 0.75  # support post radius / goalpost radius
# the goal's posts as capsule fromto's in the cube [-1, 1]^3, mouth towards +x
_GOALPOSTS = {
  "right_post": (1, -1, -1, 1, -1, 1),
  "left_post": (1, 1, -1, 1, 1, 1),
  "top_post": (1, -1, 1, 1, 1, 1),
  "right_base": (1, -1, -1, -1, -1, -1),
  "left_base": (1, 1, -1, -1, 1, -1),
  "back_base": (-1, -1, -1, -1, 1, -1),
  "right_support": (-1, -1, -1, 0.2, -1, 1),
  "right_top_support": (0.2, -1, 1, 1, -1, 1),
  "left_support": (-1, 1, -1, 0.2, 1, 1),
  "left_top_support": (0.2, 1, 1, 1, 1, 1),
}
# the net's four panels, each spanned by two posts (4 corners x 3 coordinates)
_NET = {
  name: np.array(_GOALPOSTS[a] + _GOALPOSTS[b], float).reshape(4, 3)
  for name, (a, b) in dict(
    top=("right_top_support", "left_top_support"),
    back=("right_support", "left_support"),
    left=("left_base", "left_top_support"),
    right=("right_base", "right_top_support"),
  ).items()
}
_NUM_HOARDING = 30  # advertising boards per side

_GRASS = ((62, 150, 52), (72, 166, 60))
_FIELD_TEXTURE_SIZE = (800, 600)


@functools.lru_cache(maxsize=None)
def _field_png():
  """PNG bytes of the field: mown stripes, the touch and goal lines, the halfway line, the
  centre circle and both penalty boxes, in the proportions of the default pitch."""
  width, height = _FIELD_TEXTURE_SIZE
  image = Image.new("RGB", (width, height), _GRASS[0])
  draw = ImageDraw.Draw(image)
  stripes = 12
  for i in range(1, stripes, 2):
    draw.rectangle([i * width // stripes, 0, (i + 1) * width // stripes, height], _GRASS[1])
  line, white, margin = 6, (235, 235, 235), 10
  draw.rectangle([margin, margin, width - margin, height - margin], outline=white, width=line)
  draw.line([width // 2, margin, width // 2, height - margin], fill=white, width=line)
  radius = height // 7
  draw.ellipse(
    [width // 2 - radius, height // 2 - radius, width // 2 + radius, height // 2 + radius],
    outline=white,
    width=line,
  )
  box_w, box_h = width // 8, height // 2
  for x0 in (margin, width - margin - box_w):
    draw.rectangle(
      [x0, (height - box_h) // 2, x0 + box_w, (height + box_h) // 2], outline=white, width=line
    )
  buffer = io.BytesIO()
  image.save(buffer, format="PNG")
  return buffer.getvalue()


def _top_down_cam_fovy(size, top_camera_distance):
  return (360 / np.pi) * np.arctan2(_TOP_CAMERA_Y_PADDING_FACTOR * max(size), top_camera_distance)


def _wall_pos_xyaxes(size):
  """(pos, xyaxes) of the four wall planes around a pitch of half size `size`, facing in:
  at -y, +y, -x, +x."""
  return [
    ((0.0, -size[1], 0.0), (-1, 0, 0, 0, 0, 1)),
    ((0.0, size[1], 0.0), (1, 0, 0, 0, 0, 1)),
    ((-size[0], 0.0, 0.0), (0, 1, 0, 0, 0, 1)),
    ((size[0], 0.0, 0.0), (0, -1, 0, 0, 0, 1)),
  ]


def _fieldbox_pos_size(field_size, goal_size):
  """(pos, size) of the eight boxes that fence the ball (only) into the field of half size
  `field_size`, leaving the goal mouths (`goal_size` = depth, width, height) open: both touch
  lines, then at -x and at +x the corner below, the lintel, the corner above."""
  half_height, thickness = 20.0, 1.0
  corner_y = 0.5 * (field_size[1] + goal_size[1])
  corner_half = 0.5 * (field_size[1] - goal_size[1])
  top_z, top_half = half_height + goal_size[2], half_height - goal_size[2]
  x, y = field_size[0] + thickness, field_size[1] + thickness
  boxes = [
    ((0.0, -y, half_height), (field_size[0], thickness, half_height)),
    ((0.0, y, half_height), (field_size[0], thickness, half_height)),
  ]
  for sign in (-1, 1):
    boxes += [
      ((sign * x, -corner_y, half_height), (thickness, corner_half, half_height)),
      ((sign * x, 0.0, top_z), (thickness, goal_size[1], top_half)),
      ((sign * x, corner_y, half_height), (thickness, corner_half, half_height)),
    ]
  return boxes


def _reposition_corner_lights(lights, size):
  """Four lights above the corners of a field of half size `size`, aimed at the centre."""
  height = sum(size) / 3
  corners = [(x, y) for x in (-size[0], size[0]) for y in (-size[1], size[1])]
  for light, (x, y) in zip(lights, corners):
    light.pos = np.array((x, y, height))
    light.dir = -np.array((x, y, height * 2))


def _goalpost_radius(size):
  return _GOALPOST_RELATIVE_SIZE * sum(size) / 3.0


def _post_radius(goalpost_name, goalpost_radius):
  """The crossbar a little thicker (no z-fighting at the corners), supports thinner."""
  radius = goalpost_radius
  if "top" in goalpost_name:
    radius *= 1.01
  if "support" in goalpost_name:
    radius *= _SUPPORT_POST_RATIO
  return radius


def _goalpost_fromto(unit_fromto, size, pos, direction):
  """A unit-cube goalpost flipped by `direction`, scaled by `size` and moved to `pos`."""
  fromto = np.array(unit_fromto) * np.hstack((direction, direction))
  return fromto * np.array(tuple(size) + tuple(size)) + np.array(tuple(pos) + tuple(pos))


class Goal(props.PositionDetector):
  """A goal: a position detector (kept hidden) framed by capsule goalposts that take the
  detector's colours, and optionally a translucent net.

  `Goal(direction, net_rgba=(1, 1, 1, .15), make_net=True, **position_detector_kwargs)`:
  `direction` 1 opens the goal towards +x, -1 towards -x; `pos` and `size` must be 3D.
  """

  def _make_net_vertices(self, size=(1, 1, 1)):
    """Vertices of the four net meshes: each panel doubled along its normal by the net's
    thickness (divided by the mesh scale `size`, which the mesh applies)."""
    thickness = _NET_RELATIVE_SIZE * sum(size) / 3
    dx, dy, dz = (np.eye(3)[i] * thickness / size[i] for i in range(3))
    top = [v + dz for v in _NET["top"]] + [v - dz for v in _NET["top"]]
    right = [v + dy for v in _NET["right"]] + [v - dy for v in _NET["right"]]
    left = [v + dy for v in _NET["left"]] + [v - dy for v in _NET["left"]]
    upper = [v for v in _NET["back"] if v[2] == 1]
    lower = [v for v in _NET["back"] if v[2] == -1]
    back = (
      [v + dz for v in upper]
      + [v - dz for v in upper]
      + [v + dx for v in lower]
      + [v - dx for v in lower]
    )
    vertices = dict(top=top, back=back, left=left, right=right)
    return {key: (np.array(value) * self._direction).flatten() for key, value in vertices.items()}

  def _move_goal(self, pos, size):
    for geom in self._goal_geoms:
      geom.fromto = _goalpost_fromto(_GOALPOSTS[geom.name], size, pos, self._direction)
      geom.size = (_post_radius(geom.name, self._goalpost_radius),)
    if self._make_net:
      net_vertices = self._make_net_vertices(size)
      for geom in self._net_geoms:
        geom.pos = pos
        geom.mesh.vertex = net_vertices[geom.mesh.name]
        geom.mesh.scale = size

  def _build(self, direction, net_rgba=(1, 1, 1, 0.15), make_net=True, **kwargs):
    if len(kwargs["size"]) != 3 or len(kwargs["pos"]) != 3:
      raise ValueError("Only 3D Goals are supported.")
    if direction not in [1, -1]:
      raise ValueError("direction must be either 1 or -1.")
    # x and y both flip, so that left and right stay the goalkeeper's
    self._direction = np.array((direction, direction, 1))
    self._make_net = make_net
    kwargs["visible"] = False  # the posts show the goal
    super()._build(retain_substep_detections=True, **kwargs)
    size, pos = kwargs["size"], kwargs["pos"]
    self._goalpost_radius = _goalpost_radius(size)
    self._goal_geoms = [
      self._mjcf_root.worldbody.add(
        "geom",
        type="capsule",
        name=name,
        size=(_post_radius(name, self._goalpost_radius),),
        fromto=_goalpost_fromto(unit_fromto, size, pos, self._direction),
        rgba=self.goalpost_rgba,
      )
      for name, unit_fromto in _GOALPOSTS.items()
    ]
    if make_net:
      self._net_geoms = []
      for name, vertex in self._make_net_vertices().items():
        mesh = self._mjcf_root.asset.add("mesh", name=name, vertex=vertex)
        self._net_geoms.append(
          self._mjcf_root.worldbody.add(
            "geom", type="mesh", mesh=mesh, name=name, rgba=net_rgba, contype=0, conaffinity=0
          )
        )

  def resize(self, pos, size):
    """Resizes the detector and moves the posts (and net) with it."""
    super().resize(pos, size)
    self._goalpost_radius = _goalpost_radius(size)
    self._move_goal(pos, size)

  def set_position(self, physics, pos):
    """Moves the detector in the compiled model, and the posts in the MJCF model."""
    super().set_position(physics, pos)
    self._move_goal(pos, 0.5 * (self.upper - self.lower))

  def _update_detection(self, physics):
    """Detects, then colours the posts as the detector's site (detected or not)."""
    super()._update_detection(physics)
    if self._detected and not self._previously_detected:
      physics.bind(self._goal_geoms).rgba = self.goalpost_detected_rgba
    elif self._previously_detected and not self._detected:
      physics.bind(self._goal_geoms).rgba = self.goalpost_rgba

  @property
  def goalpost_rgba(self):
    """The detector's colour, opaque."""
    rgba = self._rgba.copy()
    rgba[3] = 1
    return rgba

  @property
  def goalpost_detected_rgba(self):
    """The detector's detected colour, opaque."""
    rgba = self._detected_rgba.copy()
    rgba[3] = 1
    return rgba


class Pitch(composer.Arena):
  """A pitch: ground plane, walls, two goals (home at -x, away at +x), an inverted field
  detector, visual perimeter planes and coloured hoarding boards.

  `Pitch(size=(12, 9), goal_size=None, top_camera_distance=95., field_box=False,
  field_box_offset=0., hoarding_color_scheme_id=0, name='pitch')`: `size` is the half
  (length, width); `goal_size` (depth, width, height) halves default to a third of the width;
  `field_box` fences the ball (not the walkers) into the field.
  """

  def _build(
    self,
    size=_DEFAULT_PITCH_SIZE,
    goal_size=None,
    top_camera_distance=_TOP_CAMERA_DISTANCE,
    field_box=False,
    field_box_offset=0.0,
    hoarding_color_scheme_id=0,
    name="pitch",
  ):
    super()._build(name=name)
    self._size = size
    self._goal_size = goal_size
    self._top_camera_distance = top_camera_distance
    self._hoarding_color_scheme_id = hoarding_color_scheme_id
    root = self._mjcf_root
    self._top_camera = root.worldbody.add(
      "camera",
      name="top_down",
      pos=[0, 0, top_camera_distance],
      zaxis=[0, 0, 1],
      fovy=_top_down_cam_fovy(self._size, top_camera_distance),
    )
    # a tenth of the pitch length as the model's extent (which scales the clipping planes)
    extent = 0.1 * max(self._size)
    root.statistic.extent = extent
    root.statistic.center = (0, 0, extent)
    root.visual.map.zfar = 50
    root.visual.map.znear = 0.1 / extent
    root.asset.add(
      "texture",
      name="skybox",
      type="skybox",
      builtin="gradient",
      rgb1=(0.7, 0.9, 0.9),
      rgb2=(0.03, 0.09, 0.27),
      width=400,
      height=400,
    )
    self._corner_lights = [root.worldbody.add("light", cutoff=60) for _ in range(4)]
    _reposition_corner_lights(self._corner_lights, size)
    root.visual.quality.shadowsize = 8192

    if len(self._size) != 2:
      raise ValueError(f"`size` should be a sequence of length 2: got {self._size!r}")
    self._field_texture = root.asset.add(
      "texture", type="2d", name="fieldplane", file=mjcf.Asset(_field_png(), ".png")
    )
    self._field_material = root.asset.add(
      "material", name="fieldplane", texture=self._field_texture
    )
    self._ground_geom = root.worldbody.add(
      "geom",
      name="ground",
      type="plane",
      material=self._field_material,
      size=list(self._size) + [max(self._size) * _GROUND_GEOM_GRID_RATIO],
    )
    self._walls = [
      root.worldbody.add(
        "geom",
        type="plane",
        rgba=[0.1, 0.1, 0.1, 0.8],
        pos=pos,
        size=[1e-7, 1e-7, 1e-7],
        xyaxes=xyaxes,
      )
      for pos, xyaxes in _wall_pos_xyaxes(self._size)
    ]

    # with a field box the goals move in by the offset, so that the ball enters them before
    # it bounces off the box
    self._fb_offset = field_box_offset if field_box else 0.0
    goal_size = self._get_goal_size()
    self._home_goal = Goal(
      direction=1,
      make_net=False,
      pos=(-self._size[0] + goal_size[0] + self._fb_offset, 0, goal_size[2]),
      size=goal_size,
      rgba=(0.2, 0.2, 1, 0.5),
      visible=True,
      name="home_goal",
    )
    self.attach(self._home_goal)
    self._away_goal = Goal(
      direction=-1,
      make_net=False,
      pos=(self._size[0] - goal_size[0] - self._fb_offset, 0, goal_size[2]),
      size=goal_size,
      rgba=(1, 0.2, 0.2, 0.5),
      visible=True,
      name="away_goal",
    )
    self.attach(self._away_goal)
    self._field = props.PositionDetector(
      pos=(0, 0),
      size=(self._size[0] - 2 * goal_size[0], self._size[1] - 2 * goal_size[0]),
      inverted=True,
      visible=False,
      name="field",
    )
    self.attach(self._field)

    self._perimeter = [
      root.worldbody.add(
        "geom",
        type="plane",
        size=(1, 1, 1),
        rgba=(0.306, 0.682, 0.223, 1),
        contype=0,
        conaffinity=0,
      )
      for _ in range(8)
    ]
    self._update_perimeter()

    self._field_box = []
    if field_box:
      for pos, box_size in _fieldbox_pos_size(
        (self._field.upper - self._field.lower) / 2.0, goal_size
      ):
        self._field_box.append(
          root.worldbody.add("geom", type="box", rgba=[0.3, 0.3, 0.3, 0.0], pos=pos, size=box_size)
        )
    self._hoarding = [
      root.worldbody.add("site", type="box", size=(1, 1, 1)) for _ in range(4 * _NUM_HOARDING)
    ]
    self._update_hoarding()

  def _hoarding_hue(self, x, y):
    """The hue of the board at (x, y): around the pitch from red to blue, through green
    (schemes 0, 1) or purple (2, 3), blue behind the home goal (0, 3) or the away goal."""
    scheme = self._hoarding_color_scheme_id
    if scheme == 0:
      angle = np.pi + np.arctan2(x, -np.abs(y))
    elif scheme == 1:
      angle = np.arctan2(x, np.abs(y))
    elif scheme == 2:
      angle = np.arctan2(x, -np.abs(y))
    else:
      angle = np.pi + np.arctan2(x, np.abs(y))
    return (0.5 + angle / (2 * np.pi) - 0.25) % 1.0

  def _update_hoarding(self):
    """Sizes, places and colours the boards: a row along each side, just outside the walls."""
    goal_height = self._get_goal_size()[2]
    width, height = goal_height / 8, goal_height / 2
    boxes = iter(self._hoarding)
    for dim in (0, 1):
      length = self._size[dim] + (2 * width if dim == 1 else 0)  # y rows cover the corners
      box_size = height * np.ones(3)
      box_size[dim] = length / _NUM_HOARDING
      box_size[1 - dim] = width
      along = np.linspace(-length, length, _NUM_HOARDING, endpoint=False) + length / _NUM_HOARDING
      for sign in (-1, 1):
        across = sign * (self._size[1 - dim] + width)
        for a in along:
          pos = np.array((a, across, width) if dim == 0 else (across, a, width))
          rgb = colorsys.hsv_to_rgb(self._hoarding_hue(pos[0], pos[1]), 0.7, 1.0)
          box = next(boxes)
          box.pos = pos
          box.size = box_size
          box.rgba = (*rgb, 1.0)

  def _update_perimeter(self):
    """The eight visual planes of the strip between the field and the walls."""
    width = self._get_goal_size()[0]
    planes = iter(self._perimeter)
    for x in (-1, 0, 1):
      for y in (-1, 0, 1):
        if x == 0 and y == 0:
          continue
        plane = next(planes)
        plane.size = [
          self._size[0] - 2 * width if x == 0 else width,
          self._size[1] - 2 * width if y == 0 else width,
          max(self._size) * _GROUND_GEOM_GRID_RATIO,
        ]
        plane.pos = (x * (self._size[0] - width), y * (self._size[1] - width), 0)

  def _get_goal_size(self):
    if self._goal_size is not None:
      return self._goal_size
    return (_SIDE_WIDTH / 2, self._size[1] * _DEFAULT_GOAL_LENGTH_RATIO, _SIDE_WIDTH / 2)

  def register_ball(self, ball):
    """The goals detect `ball`; so does the field (when it leaves it), unless a field box
    keeps the ball in (its geom then collides with the box through a contact bit of its own)."""
    self._home_goal.register_entities(ball)
    self._away_goal.register_entities(ball)
    if self._field_box:
      ball.geom.contype = (ball.geom.contype or 1) | _FIELD_BOX_CONTACT_BIT
      for wall in self._field_box:
        wall.conaffinity = _FIELD_BOX_CONTACT_BIT
        wall.contype = _FIELD_BOX_CONTACT_BIT
    else:
      self._field.register_entities(ball)

  def detected_goal(self):
    """The team that scored (the ball is in the other team's goal), or None."""
    if self._home_goal.detected_entities:
      return team.Team.AWAY
    if self._away_goal.detected_entities:
      return team.Team.HOME
    return None

  def detected_off_court(self):
    return self._field.detected_entities

  @property
  def size(self):
    return self._size

  @property
  def home_goal(self):
    return self._home_goal

  @property
  def away_goal(self):
    return self._away_goal

  @property
  def field(self):
    return self._field

  @property
  def ground_geom(self):
    return self._ground_geom


class RandomizedPitch(Pitch):
  """A Pitch whose size is drawn at each episode between `min_size` and `max_size` (built at
  `max_size`); `randomizer` draws the ratios in [0, 1] (uniform by default), one for both
  dimensions with `keep_aspect_ratio`."""

  def __init__(
    self,
    min_size,
    max_size,
    randomizer=None,
    keep_aspect_ratio=False,
    goal_size=None,
    field_box=False,
    field_box_offset=0.0,
    top_camera_distance=_TOP_CAMERA_DISTANCE,
    name="randomized_pitch",
  ):
    super().__init__(
      size=max_size,
      goal_size=goal_size,
      top_camera_distance=top_camera_distance,
      field_box=field_box,
      field_box_offset=field_box_offset,
      name=name,
    )
    self._min_size = min_size
    self._max_size = max_size
    self._randomizer = randomizer or distributions.Uniform()
    self._keep_aspect_ratio = keep_aspect_ratio

  def _resize_goals(self, goal_size):
    self._home_goal.resize(
      pos=(-self._size[0] + goal_size[0] + self._fb_offset, 0, goal_size[2]), size=goal_size
    )
    self._away_goal.resize(
      pos=(self._size[0] - goal_size[0] - self._fb_offset, 0, goal_size[2]), size=goal_size
    )

  def initialize_episode_mjcf(self, random_state):
    """Draws the size and rebuilds everything that depends on it."""
    super().initialize_episode_mjcf(random_state)
    (min_len, min_wid), (max_len, max_wid) = self._min_size, self._max_size
    len_ratio = self._randomizer(random_state=random_state)
    wid_ratio = (
      len_ratio if self._keep_aspect_ratio else self._randomizer(random_state=random_state)
    )
    self._size = (
      min_len + len_ratio * (max_len - min_len),
      min_wid + wid_ratio * (max_wid - min_wid),
    )
    self._top_camera.fovy = _top_down_cam_fovy(self._size, self._top_camera_distance)
    self._update_perimeter()
    for wall, (pos, _) in zip(self._walls, _wall_pos_xyaxes(self._size)):
      wall.pos = pos
    goal_size = self._get_goal_size()
    self._resize_goals(goal_size)
    field_size = (self._size[0] - 2 * goal_size[0], self._size[1] - 2 * goal_size[0])
    self._field.resize(pos=(0, 0), size=field_size)
    self._ground_geom.size = list(field_size) + [max(self._size) * _GROUND_GEOM_GRID_RATIO]
    if self._field_box:
      for box, (pos, size) in zip(
        self._field_box,
        _fieldbox_pos_size((self._field.upper - self._field.lower) / 2.0, goal_size),
      ):
        box.pos = pos
        box.size = size
    _reposition_corner_lights(self._corner_lights, size=field_size)
    self._update_hoarding()


# mini football (5 a side)
_GOAL_LENGTH = 3.66
_GOAL_SIDE = 1.22

MINI_FOOTBALL_MIN_AREA_PER_HUMANOID = 100.0
MINI_FOOTBALL_MAX_AREA_PER_HUMANOID = 350.0
MINI_FOOTBALL_GOAL_SIZE = (_GOAL_SIDE / 2, _GOAL_LENGTH / 2, _GOAL_SIDE / 2)
