"""Arenas built from text mazes (dm_control.locomotion.arenas.mazes).

A text maze (`labmaze.BaseMaze`: '*' walls, spawn 'P' and target 'G' tokens, a variations
layer lettering the rooms) becomes a grid of `xy_scale`-metre cells centred on the origin, row
0 at +y. Walls are a few large boxes (the greedy `covering` of the wall cells, odd-sized so
textures tile evenly) in an invisible geom group, each dressed with textured planes on its
faces; the floor is tiled the same way, one texture per variation. `regenerate` draws a new
maze and rebuilds the walls and tiles, picking textures with numpy's global random state (as
dm_control does).
"""

import string

import numpy as np

import composer
from composer.observation import observable
from suite.locomotion.arenas import aesthetics
from suite.locomotion.arenas import covering
from suite.locomotion.arenas import labmaze

# the box geoms that collide are hidden in their own group; textured planes show the walls
_WALL_GEOM_GROUP = 3
_TOP_CAMERA_DISTANCE = 100
_TOP_CAMERA_Y_PADDING_FACTOR = 1.1
_DEFAULT_WALL_CHAR = "*"
_DEFAULT_FLOOR_CHAR = "."

# each face's plane orientation (xyaxes) by normal axis and sign, normals pointing outwards
_FACE_XYAXES = {
  "x": {-1: [0, -1, 0, 0, 0, 1], 1: [0, 1, 0, 0, 0, 1]},
  "y": {-1: [1, 0, 0, 0, 0, 1], 1: [-1, 0, 0, 0, 0, 1]},
  "z": {-1: [-1, 0, 0, 0, 1, 0], 1: [1, 0, 0, 0, 1, 0]},
}


def _pick(items):
  """One of `items`, drawn from numpy's global random state like `np.random.choice(items)`."""
  return items[np.random.choice(len(items))]


class MazeWithTargets(composer.Arena):
  """A maze arena from a `labmaze.BaseMaze`, with target and spawn positions.

  `MazeWithTargets(maze, xy_scale=2.0, z_height=2.0, skybox_texture=None,
  wall_textures=None, floor_textures=None, aesthetic='default', name='maze')`.
  `wall_textures` is a texture entity (walls are '*') or a dict from wall character to texture
  entity; `floor_textures` is one texture entity, sampled once per variation. Without them the
  walls are flat light grey and the floor flat dark grey.
  """

  def _build(
    self,
    maze,
    xy_scale=2.0,
    z_height=2.0,
    skybox_texture=None,
    wall_textures=None,
    floor_textures=None,
    aesthetic="default",
    name="maze",
  ):
    aesthetics.check_aesthetic(aesthetic, "MazeWithTargets")
    super()._build(name)
    self._maze = maze
    self._xy_scale = xy_scale
    self._z_height = z_height
    self._x_offset = (maze.width - 1) / 2
    self._y_offset = (maze.height - 1) / 2
    root = self._mjcf_root
    root.default.geom.rgba = [1, 1, 1, 1]

    if aesthetic != aesthetics.DEFAULT:
      self._skybox = aesthetics.add_skybox(root, aesthetic)
    elif skybox_texture:
      self._skybox_texture = skybox_texture.texture
      self.attach(skybox_texture)
    else:
      self._skybox_texture = root.asset.add(
        "texture",
        type="skybox",
        name="skybox",
        builtin="gradient",
        rgb1=[0.4, 0.6, 0.8],
        rgb2=[0, 0, 0],
        width=100,
        height=100,
      )

    self._texturing_geom_names = []
    self._texturing_material_names = []
    if wall_textures:
      if isinstance(wall_textures, dict):
        for provider in set(wall_textures.values()):
          self.attach(provider)
        self._wall_textures = {char: provider.textures for char, provider in wall_textures.items()}
      else:
        self.attach(wall_textures)
        self._wall_textures = {_DEFAULT_WALL_CHAR: wall_textures.textures}
    else:
      self._wall_textures = {
        _DEFAULT_WALL_CHAR: [
          root.asset.add(
            "texture",
            type="2d",
            name="wall",
            builtin="flat",
            rgb1=[0.8, 0.8, 0.8],
            width=100,
            height=100,
          )
        ]
      }

    if aesthetic != aesthetics.DEFAULT:
      # dm_control loads its ground image twice under these two names; both are candidates
      self._floor_textures = [
        root.asset.add(
          "texture",
          name=texture_name,
          type="2d",
          builtin="flat",
          rgb1=[0.24, 0.4, 0.13],
          mark="random",
          random=0.25,
          markrgb=[0.42, 0.58, 0.24],
          width=512,
          height=512,
        )
        for texture_name in ("aesthetic_texture_main", "aesthetic_texture")
      ]
    elif floor_textures:
      self._floor_textures = floor_textures.textures
      self.attach(floor_textures)
    else:
      self._floor_textures = [
        root.asset.add(
          "texture",
          type="2d",
          name="floor",
          builtin="flat",
          rgb1=[0.2, 0.2, 0.2],
          width=100,
          height=100,
        )
      ]

    # an invisible plane under the whole maze: what the walker stands on and must not touch
    root.worldbody.add(
      "geom",
      name="ground",
      type="plane",
      pos=[0, 0, 0],
      size=[maze.width * xy_scale / 2, maze.height * xy_scale / 2, 1],
      rgba=[0, 0, 0, 0],
    )
    self._maze_body = root.worldbody.add("body", name="maze_body")
    root.visual.map.znear = 0.0005

    # a field of view that frames the whole maze from the camera's height
    maze_size = max(maze.width, maze.height)
    fovy = (360 / np.pi) * np.arctan2(
      _TOP_CAMERA_Y_PADDING_FACTOR * maze_size * xy_scale / 2, _TOP_CAMERA_DISTANCE
    )
    self._top_camera = root.worldbody.add(
      "camera", name="top_camera", pos=[0, 0, _TOP_CAMERA_DISTANCE], zaxis=[0, 0, 1], fovy=fovy
    )

    self._target_positions = ()
    self._spawn_positions = ()
    self._text_maze_regenerated_hook = None
    self._tile_geom_names = {}

  def _build_observables(self):
    return MazeObservables(self)

  @property
  def top_camera(self):
    return self._top_camera

  @property
  def xy_scale(self):
    return self._xy_scale

  @property
  def z_height(self):
    return self._z_height

  @property
  def maze(self):
    return self._maze

  @property
  def text_maze_regenerated_hook(self):
    """A callable run after each regeneration of the text maze (or None).

    dm_control's getter reads a misnamed attribute and raises AttributeError; ours returns the
    hook.
    """
    return self._text_maze_regenerated_hook

  @text_maze_regenerated_hook.setter
  def text_maze_regenerated_hook(self, hook):
    self._text_maze_regenerated_hook = hook

  @property
  def target_positions(self):
    """World positions (x, y, 0) of the current maze's targets."""
    return self._target_positions

  @property
  def spawn_positions(self):
    """World positions (x, y, 0) of the current maze's spawn points."""
    return self._spawn_positions

  @property
  def target_grid_positions(self):
    """Grid (row, column) of the current maze's targets."""
    return self._target_grid_positions

  @property
  def spawn_grid_positions(self):
    """Grid (row, column) of the current maze's spawn points."""
    return self._spawn_grid_positions

  def regenerate(self, random_state=None):
    """Draws a new text maze and rebuilds walls and floor (`random_state` is unused)."""
    del random_state
    self._maze.regenerate()
    self._find_spawn_and_target_positions()
    if self._text_maze_regenerated_hook:
      self._text_maze_regenerated_hook()

    worldbody, assets = self._mjcf_root.worldbody, self._mjcf_root.asset
    for geom_name in self._texturing_geom_names:
      del worldbody.geom[geom_name]
    self._texturing_geom_names = []
    for material_name in self._texturing_material_names:
      del assets.material[material_name]
    self._texturing_material_names = []
    self._maze_body.geom.clear()

    self._current_wall_texture = {
      char: _pick(textures) for char, textures in self._wall_textures.items()
    }
    for wall_char in self._wall_textures:
      self._make_wall_geoms(wall_char)
    self._make_floor_variations()

  def _cell_box(self, rect, z_center, z_half):
    """World centre and half-sizes of the grid rectangle `rect` (a `covering.MazeWall`)."""
    mid_y = (rect.start.y + rect.end.y - 1) / 2
    mid_x = (rect.start.x + rect.end.x - 1) / 2
    pos = np.array(
      [
        (mid_x - self._x_offset) * self._xy_scale,
        -(mid_y - self._y_offset) * self._xy_scale,
        z_center,
      ]
    )
    size = np.array(
      [
        (rect.end.x - mid_x - 0.5) * self._xy_scale,
        (rect.end.y - mid_y - 0.5) * self._xy_scale,
        z_half,
      ]
    )
    return pos, size

  def _make_wall_geoms(self, wall_char):
    walls = covering.make_walls(
      self._maze.entity_layer, wall_char=wall_char, make_odd_sized_walls=True
    )
    for i, wall in enumerate(walls):
      pos, size = self._cell_box(wall, self._z_height / 2, self._z_height / 2)
      self._maze_body.add(
        "geom",
        name="wall{}_{}".format(wall_char, i),
        type="box",
        pos=pos,
        size=size,
        group=_WALL_GEOM_GROUP,
      )
      self._make_wall_texturing_planes(wall_char, i, pos, size)

  def _make_wall_texturing_planes(self, wall_char, wall_id, wall_pos, wall_size):
    """A textured plane on each face of a wall box but its bottom, one material per axis."""
    for axis_index, axis in enumerate("xyz"):
      in_plane = [i for i in range(3) if i != axis_index]
      normal = np.eye(3, dtype=int)[axis_index]
      material_name = "wall{}_{}_{}".format(wall_char, wall_id, axis)
      self._texturing_material_names.append(material_name)
      material = self._mjcf_root.asset.add(
        "material",
        name=material_name,
        texture=self._current_wall_texture[wall_char],
        texrepeat=2 * wall_size[in_plane] / self._xy_scale,
      )
      for sign, sign_name in ((-1, "neg"), (1, "pos")):
        if axis == "z" and sign == -1:
          continue
        geom_name = "wall{}_{}_texturing_{}_{}".format(wall_char, wall_id, sign_name, axis)
        self._texturing_geom_names.append(geom_name)
        self._mjcf_root.worldbody.add(
          "geom",
          type="plane",
          name=geom_name,
          pos=wall_pos + sign * normal * wall_size,
          size=np.concatenate([wall_size[in_plane], [self._xy_scale]]),
          xyaxes=_FACE_XYAXES[axis][sign],
          material=material,
          contype=0,
          conaffinity=0,
        )

  def _make_floor_variations(self, build_tile_geoms_fn=None):
    """Tiles the floor, one texture per variation ('.' then 'A', 'B', ...).

    `build_tile_geoms_fn(wall_char=variation)`, if given, returns the tiles of a variation
    instead of the default covering. Variations other than '.' take a texture different from
    the main one; with a single floor texture only the '.' cells are tiled (as dm_control).
    """
    main_texture = _pick(self._floor_textures)
    for variation in _DEFAULT_FLOOR_CHAR + string.ascii_uppercase:
      if variation not in self._maze.variations_layer:
        break
      if build_tile_geoms_fn is None:
        tiles = covering.make_walls(
          self._maze.variations_layer, wall_char=variation, make_odd_sized_walls=True
        )
      else:
        tiles = build_tile_geoms_fn(wall_char=variation)
      texture = main_texture
      if variation != _DEFAULT_FLOOR_CHAR:
        if len(self._floor_textures) == 1:
          return
        while texture is main_texture:
          texture = _pick(self._floor_textures)
      for i, tile in enumerate(tiles):
        pos, size = self._cell_box(tile, 0.0, self._xy_scale)
        if variation == _DEFAULT_FLOOR_CHAR:
          tile_name = "floor_{}".format(i)
        else:
          tile_name = "floor_{}_{}".format(variation, i)
        self._tile_geom_names[tile.start] = tile_name
        self._texturing_material_names.append(tile_name)
        self._texturing_geom_names.append(tile_name)
        material = self._mjcf_root.asset.add(
          "material", name=tile_name, texture=texture, texrepeat=2 * size[[0, 1]] / self._xy_scale
        )
        self._mjcf_root.worldbody.add(
          "geom",
          name=tile_name,
          type="plane",
          material=material,
          pos=pos,
          size=size,
          contype=0,
          conaffinity=0,
        )

  @property
  def ground_geoms(self):
    """The geoms whose name contains 'ground' (those a walker must not fall onto)."""
    return tuple(geom for geom in self.mjcf_model.find_all("geom") if "ground" in geom.name)

  def find_token_grid_positions(self, tokens):
    """{token: [(row, column), ...]} over the entity layer, in row-major order."""
    layer = self._maze.entity_layer
    found = {token: [] for token in tokens}
    for y in range(layer.shape[0]):
      for x in range(layer.shape[1]):
        for token in tokens:
          if layer[y, x] == token:
            found[token].append((y, x))
    return found

  def grid_to_world_positions(self, grid_positions):
    """World (x, y, 0) arrays of grid (row, column) cells."""
    return [
      np.array([(x - self._x_offset) * self._xy_scale, -(y - self._y_offset) * self._xy_scale, 0.0])
      for y, x in grid_positions
    ]

  def world_to_grid_positions(self, world_positions):
    """Fractional grid (row, column) arrays of world (x, y, z) positions."""
    return [
      np.array([self._y_offset - y / self._xy_scale, self._x_offset + x / self._xy_scale])
      for x, y, _ in world_positions
    ]

  def _find_spawn_and_target_positions(self):
    target, spawn = labmaze.defaults.OBJECT_TOKEN, labmaze.defaults.SPAWN_TOKEN
    grid_positions = self.find_token_grid_positions([target, spawn])
    self._target_grid_positions = tuple(grid_positions[target])
    self._spawn_grid_positions = tuple(grid_positions[spawn])
    self._target_positions = tuple(self.grid_to_world_positions(self._target_grid_positions))
    self._spawn_positions = tuple(self.grid_to_world_positions(self._spawn_grid_positions))


class MazeObservables(composer.Observables):
  """The maze's top-down camera."""

  @composer.observable
  def top_camera(self):
    return observable.MJCFCamera(self._entity.top_camera)


class RandomMazeWithTargets(MazeWithTargets):
  """A `MazeWithTargets` over a `labmaze.RandomMaze` of `x_cells` by `y_cells` (both odd).

  The maze's seed is drawn from numpy's global random state (as dm_control does), so seeding
  `np.random` fixes the sequence of mazes.
  """

  def _build(
    self,
    x_cells,
    y_cells,
    xy_scale=2.0,
    z_height=2.0,
    max_rooms=labmaze.defaults.MAX_ROOMS,
    room_min_size=labmaze.defaults.ROOM_MIN_SIZE,
    room_max_size=labmaze.defaults.ROOM_MAX_SIZE,
    spawns_per_room=labmaze.defaults.SPAWN_COUNT,
    targets_per_room=labmaze.defaults.OBJECT_COUNT,
    max_variations=labmaze.defaults.MAX_VARIATIONS,
    simplify=labmaze.defaults.SIMPLIFY,
    skybox_texture=None,
    wall_textures=None,
    floor_textures=None,
    aesthetic="default",
    name="random_maze",
  ):
    random_seed = np.random.randint(2147483648)  # 2**31
    maze = labmaze.RandomMaze(
      height=y_cells,
      width=x_cells,
      max_rooms=max_rooms,
      room_min_size=room_min_size,
      room_max_size=room_max_size,
      max_variations=max_variations,
      spawns_per_room=spawns_per_room,
      objects_per_room=targets_per_room,
      simplify=simplify,
      random_seed=random_seed,
    )
    super()._build(
      maze=maze,
      xy_scale=xy_scale,
      z_height=z_height,
      skybox_texture=skybox_texture,
      wall_textures=wall_textures,
      floor_textures=floor_textures,
      aesthetic=aesthetic,
      name=name,
    )
