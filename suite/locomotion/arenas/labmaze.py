"""DeepMind Lab-style text mazes in pure Python, reproducing the `labmaze` package.

`RandomMaze` yields the same entity and variations layers as `labmaze.RandomMaze` for the
same arguments and seed. The C++ generator draws from `std::mt19937_64` through libstdc++'s
`uniform_int_distribution`, `uniform_real_distribution` and `std::shuffle` (as compiled by
GCC 10 for the published wheels), so those are reimplemented bit for bit below. The maze
algorithm itself is: carve random non-overlapping rooms on the odd grid, fill the rest with
recursive-backtracking corridors, open one random door between every pair of adjacent regions
(plus optional extra doors), optionally remove dead ends and horseshoe bends, then label rooms
in the variations layer and drop spawn/object tokens into each room.

`FixedMazeWithRandomGoals`, `TextGrid`, `BaseMaze` and `defaults` mirror the rest of the
`labmaze` API that dm_control's mazes use.
"""

import abc
import itertools
import types

import numpy as np

defaults = types.SimpleNamespace(
  EXTRA_CONNECTION_PROBABILITY=0.0,
  HAS_DOORS=False,
  MAX_ROOMS=4,
  MAX_VARIATIONS=26,
  OBJECT_COUNT=0,
  OBJECT_TOKEN="G",
  RETRY_COUNT=1000,
  ROOM_MAX_SIZE=5,
  ROOM_MIN_SIZE=3,
  SIMPLIFY=True,
  SPAWN_COUNT=0,
  SPAWN_TOKEN="P",
)

_MASK64 = (1 << 64) - 1
_EMPTY = " "
_WALL = "*"
# The C++ code marks freshly opened connections with `(char)-1` before resolving them.
_CONNECTOR = "\xff"


class MT19937_64:
  """The 64-bit Mersenne Twister (`std::mt19937_64`), seeded like its C++ constructor."""

  _N, _M = 312, 156
  _MATRIX_A = 0xB5026F5AA96619E9
  _UPPER, _LOWER = 0xFFFFFFFF80000000, 0x7FFFFFFF

  def __init__(self, seed=5489):
    state = [seed & _MASK64]
    for i in range(1, self._N):
      prev = state[-1]
      state.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & _MASK64)
    self._state = state
    self._index = self._N

  def _twist(self):
    mt, n, m = self._state, self._N, self._M
    for i in range(n):
      y = (mt[i] & self._UPPER) | (mt[(i + 1) % n] & self._LOWER)
      mt[i] = mt[(i + m) % n] ^ (y >> 1) ^ (self._MATRIX_A if y & 1 else 0)
    self._index = 0

  def __call__(self):
    """The next 64-bit output."""
    if self._index >= self._N:
      self._twist()
    y = self._state[self._index]
    self._index += 1
    y ^= (y >> 29) & 0x5555555555555555
    y ^= (y << 17) & 0x71D67FFFEDA60000
    y ^= (y << 37) & 0xFFF7EEE000000000
    y ^= y >> 43
    return y


def uniform_int(rng, low, high):
  """libstdc++ (GCC 10) `uniform_int_distribution(low, high)` on a 64-bit engine.

  The engine's full range is divided into equal buckets; draws in the incomplete last
  bucket are rejected.
  """
  span = (high - low) & _MASK64
  if span == _MASK64:
    return (low + rng()) & _MASK64
  buckets = span + 1
  scaling = _MASK64 // buckets
  past = buckets * scaling
  while True:
    value = rng()
    if value < past:
      return low + value // scaling


def uniform_real01(rng):
  """libstdc++ `uniform_real_distribution<double>(0, 1)`: one 64-bit draw over 2**64."""
  value = float(rng()) / 18446744073709551616.0
  if value >= 1.0:
    value = np.nextafter(1.0, 0.0)
  return value


def shuffle(items, rng):
  """libstdc++ (GCC 10) `std::shuffle` of a list in place with a 64-bit engine.

  Fisher-Yates from the front; since the engine range exceeds n**2 it draws one integer
  per pair of swaps and splits it into the two swap positions.
  """
  n = len(items)
  if n == 0:
    return
  if _MASK64 // n >= n:
    i = 1
    if n % 2 == 0:
      j = uniform_int(rng, 0, 1)
      items[i], items[j] = items[j], items[i]
      i += 1
    while i != n:
      first = i + 1
      second = first + 1
      x = uniform_int(rng, 0, first * second - 1)
      j = x // second
      items[i], items[j] = items[j], items[i]
      i += 1
      j = x % second
      items[i], items[j] = items[j], items[i]
      i += 1
    return
  for i in range(1, n):
    j = uniform_int(rng, 0, i)
    items[i], items[j] = items[j], items[i]


def _cdiv(a, b):
  """C integer division (truncates toward zero)."""
  q = abs(a) // abs(b)
  return q if (a >= 0) == (b >= 0) else -q


# Down, up, right, left as (d_row, d_col): the order every search below tries them in.
_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


class _Grid:
  """Entity characters, variation characters and region ids of a maze being generated."""

  def __init__(self, height, width):
    self.height, self.width = height, width
    self.entity = [[_WALL] * width for _ in range(height)]
    self.variation = [["."] * width for _ in range(height)]
    self.ids = [[0] * width for _ in range(height)]

  def inside(self, r, c):
    return 0 <= r < self.height and 0 <= c < self.width

  def get(self, r, c):
    return self.entity[r][c] if self.inside(r, c) else "\0"

  def set(self, r, c, value):
    if self.inside(r, c):
      self.entity[r][c] = value

  def get_id(self, r, c):
    return self.ids[r][c] if self.inside(r, c) else 0

  def set_id(self, r, c, value):
    if self.inside(r, c):
      self.ids[r][c] = value

  def clipped(self, rect):
    """The cells of `rect` = (row, col, height, width) inside the grid, row-major."""
    row, col, h, w = rect
    r0, c0 = max(row, 0), max(col, 0)
    r1, c1 = min(row + h, self.height), min(col + w, self.width)
    return [(r, c) for r in range(r0, r1) for c in range(c0, c1)]

  def odd_cells(self):
    for r in range(1, self.height, 2):
      for c in range(1, self.width, 2):
        yield r, c

  def text(self, layer):
    return "".join("".join(row) + "\n" for row in layer)


def _random_room(bounds, min_size, max_size, rng):
  """A room in half-resolution cells: short side in [min, mid], long side up to max."""

  def draw(lo, hi):
    return uniform_int(rng, lo, hi) if lo < hi else lo

  min_h, min_w = min_size
  max_h, max_w = max_size
  mid_w = _cdiv(max_w + min_w, 2)
  mid_h = _cdiv(max_h + min_h, 2)
  width = draw(min_w, mid_w)
  height = draw(min_h, mid_h)
  if draw(0, 1) == 0:
    width += draw(mid_w, max_w) - mid_w
  else:
    height += draw(mid_h, max_h) - mid_h
  row = bounds[0] + draw(0, bounds[2] - height - 1)
  col = bounds[1] + draw(0, bounds[3] - width - 1)
  return (row, col, height, width)


def _separate(a, b):
  return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


def _make_rooms(height, width, room_min_size, room_max_size, max_rooms, retry_count, rng):
  """Non-overlapping rooms on odd grid lines, in random order."""
  half_bounds = (0, 0, _cdiv(height - 1, 2), _cdiv(width - 1, 2))
  half_min = (_cdiv(room_min_size - 1, 2),) * 2
  half_max = (_cdiv(room_max_size - 1, 2),) * 2
  target_cells = height * width
  max_rects = max_rooms & _MASK64
  rooms, retries, cells = [], 0, 0
  while (
    retries < retry_count and cells < target_cells and (max_rects == 0 or len(rooms) != max_rects)
  ):
    r, c, h, w = _random_room(half_bounds, half_min, half_max, rng)
    room = (2 * r + 1, 2 * c + 1, 2 * h + 1, 2 * w + 1)
    if all(_separate(room, other) for other in rooms):
      rooms.append(room)
      cells += room[2] * room[3]
    else:
      retries += 1
  shuffle(rooms, rng)
  return rooms


def _carve_corridors(grid, start, maze_id, rng):
  """Recursive-backtracking corridor from `start` through cells sharing its id."""
  fill_id = grid.get_id(*start)
  grid.set(*start, _EMPTY)
  grid.set_id(*start, maze_id)
  stack = [start]
  while stack:
    r, c = stack[-1]
    options = [
      (dr, dc)
      for dr, dc in _DIRECTIONS
      if grid.inside(r + 2 * dr, c + 2 * dc) and grid.ids[r + 2 * dr][c + 2 * dc] == fill_id
    ]
    if not options:
      stack.pop()
      continue
    dr, dc = options[uniform_int(rng, 0, len(options) - 1)]
    for step in (1, 2):
      grid.set(r + step * dr, c + step * dc, _EMPTY)
      grid.set_id(r + step * dr, c + step * dc, maze_id)
    stack.append((r + 2 * dr, c + 2 * dc))


def _connect_regions(grid, extra_probability, rng):
  """Open one random door between each pair of adjacent regions, plus random extras."""
  candidates = {}
  for r, c in grid.odd_cells():
    id0 = grid.ids[r][c]
    if id0 == 0:
      continue
    for dr, dc in _DIRECTIONS:
      if not grid.inside(r + 2 * dr, c + 2 * dc):
        continue
      id1 = grid.ids[r + 2 * dr][c + 2 * dc]
      if id1 == 0 or id1 <= id0:
        continue
      candidates.setdefault((id0, id1), []).append(((r + dr, c + dc), (dr, dc)))
  ordered = [candidates[key] for key in sorted(candidates)]
  doors = []
  for locations in ordered:
    door = locations[uniform_int(rng, 0, len(locations) - 1)]
    doors.append(door)
    grid.set(*door[0], _CONNECTOR)
  for locations in ordered:
    for location in locations:
      if uniform_real01(rng) <= extra_probability:
        (r, c), _ = location
        if not any(grid.get(r + dr, c + dc) == _CONNECTOR for dr, dc in _DIRECTIONS):
          doors.append(location)
          grid.set(r, c, _CONNECTOR)
  return doors


def _remove_dead_ends(grid):
  """Wall up every open cell with at most one open neighbour, following each dead end."""
  for r0 in range(grid.height):
    for c0 in range(grid.width):
      r, c = r0, c0
      while grid.entity[r][c] == _EMPTY:
        neighbours = []
        if r - 1 >= 0:
          neighbours.append((r - 1, c))
        if r + 1 < grid.height:
          neighbours.append((r + 1, c))
        if c - 1 >= 0:
          neighbours.append((r, c - 1))
        if c + 1 < grid.width:
          neighbours.append((r, c + 1))
        walls = empties = 0
        last = None
        for nr, nc in neighbours:
          value = grid.entity[nr][nc]
          if value == _EMPTY:
            last = (nr, nc)
            empties += 1
          elif value == _WALL:
            walls += 1
        if walls + 1 < len(neighbours):
          break
        grid.entity[r][c] = _WALL
        if empties == 0:
          break
        r, c = last


def _remove_bend_at(grid, pos, bend_size):
  """Shortcut horseshoe bends of `bend_size` whose wall tip is at `pos`; True if any."""

  def is_wall(p):
    return grid.get(*p) == _WALL

  def is_corridor(p):
    return grid.get(*p) == _EMPTY

  def at(u, v, v_dir, u_dir):
    return (pos[0] + u * u_dir[0] + v * v_dir[0], pos[1] + u * u_dir[1] + v * v_dir[1])

  removed = False
  found = True
  while found:
    found = False
    if not is_wall(pos):
      break
    for v_dir in _DIRECTIONS:
      u_dir = (v_dir[1], -v_dir[0])
      if not all(
        is_wall(at(u, 0, v_dir, u_dir)) and is_wall(at(u, -1, v_dir, u_dir))
        for u in range(bend_size)
      ):
        continue
      if not all(is_corridor(at(u, 1, v_dir, u_dir)) for u in range(-1, bend_size + 1)):
        continue
      if not all(is_wall(at(u, 2, v_dir, u_dir)) for u in range(-1, bend_size + 1)):
        continue
      if not (is_wall(at(-2, 1, v_dir, u_dir)) and is_wall(at(bend_size + 1, 1, v_dir, u_dir))):
        continue
      if not (is_corridor(at(-1, 0, v_dir, u_dir)) and is_corridor(at(bend_size, 0, v_dir, u_dir))):
        continue
      removed = True
      for u in range(-1, bend_size + 1):
        outer = at(u, 1, v_dir, u_dir)
        if 0 <= u < bend_size:
          grid.set(*at(u, 0, v_dir, u_dir), grid.get(*outer))
        grid.set(*outer, _WALL)
      pos = (pos[0] - v_dir[0], pos[1] - v_dir[1])
      found = True
      break
  return removed


def _remove_all_bends(grid):
  """Remove horseshoe bends of growing size, restarting after any bend larger than 1."""
  size = 1
  while size + 3 < grid.width:
    removed = False
    entity = grid.entity
    for r in range(grid.height):
      if removed:
        # The C++ visitor short-circuits: once a bend is removed, later cells are skipped.
        break
      for c in range(grid.width):
        # A bend's tip is a wall cell next to a corridor cell; skip the others quickly.
        if entity[r][c] != _WALL or not (
          (r > 0 and entity[r - 1][c] == _EMPTY)
          or (r + 1 < grid.height and entity[r + 1][c] == _EMPTY)
          or (c > 0 and entity[r][c - 1] == _EMPTY)
          or (c + 1 < grid.width and entity[r][c + 1] == _EMPTY)
        ):
          continue
        if _remove_bend_at(grid, (r, c), size):
          removed = True
          break
    size = 1 if (removed and size != 1) else size + 1


def _add_entities(grid, rooms, count, token, rng):
  """Put `token` on up to `count` random empty cells of each room."""
  for room in rooms:
    cells = [(r, c) for r, c in grid.clipped(room) if grid.entity[r][c] == _EMPTY]
    shuffle(cells, rng)
    for r, c in cells[: max(count, 0)]:
      grid.entity[r][c] = token


def generate_random_maze(
  height,
  width,
  max_rooms,
  room_min_size,
  room_max_size,
  retry_count,
  extra_connection_probability,
  max_variations,
  has_doors,
  simplify,
  spawns_per_room,
  spawn_token,
  objects_per_room,
  object_token,
  rng,
):
  """One maze from engine `rng`; returns the (entity, variations) layer strings."""
  grid = _Grid(height, width)
  rooms = _make_rooms(height, width, room_min_size, room_max_size, max_rooms, retry_count, rng)
  for index, room in enumerate(rooms):
    for r, c in grid.clipped(room):
      grid.entity[r][c] = _EMPTY
      grid.ids[r][c] = index + 1
  next_id = len(rooms) + 1
  for r, c in grid.odd_cells():
    if grid.ids[r][c] == 0:
      _carve_corridors(grid, (r, c), next_id, rng)
      next_id += 1
  doors = _connect_regions(grid, extra_connection_probability, rng)
  if simplify:
    _remove_dead_ends(grid)
    _remove_all_bends(grid)
  if rooms:
    for r in range(height):
      for c in range(width):
        region = grid.ids[r][c]
        if 0 < region <= len(rooms):
          grid.variation[r][c] = chr(ord("A") + (region - 1) % max_variations)
  _add_entities(grid, rooms, spawns_per_room, spawn_token, rng)
  _add_entities(grid, rooms, objects_per_room, object_token, rng)
  for (r, c), (dr, dc) in doors:
    if grid.get(r + dr, c + dc) == _WALL:
      kind = _WALL
    elif has_doors:
      kind = "H" if dc == 0 else "I"
    else:
      kind = _EMPTY
    grid.set(r, c, kind)
  return grid.text(grid.entity), grid.text(grid.variation)


class TextGrid(np.ndarray):
  """A 2D character array built from (and printing back to) newline-terminated text."""

  def __new__(cls, newline_delimited_string):
    rows = newline_delimited_string[:-1].split("\n")
    width = len(rows[0]) if rows else 0
    grid = super().__new__(cls, shape=(len(rows), width), dtype="U1")
    grid[:, :] = tuple(tuple(row) for row in rows)
    return grid

  def __str__(self):
    return "".join("".join(row) + "\n" for row in self)


class BaseMaze(metaclass=abc.ABCMeta):
  """Interface of a text maze: entity and variations layers plus their size."""

  def regenerate(self):
    """Makes a new maze layout, if this kind of maze has more than one."""

  @property
  @abc.abstractmethod
  def entity_layer(self):
    """2D character array: '*' walls, ' ' free cells, spawn and object tokens."""

  @property
  @abc.abstractmethod
  def variations_layer(self):
    """2D character array of decorative variations: '.' default, 'A'-'Z' variants."""

  @property
  @abc.abstractmethod
  def height(self):
    """Number of cells along y."""

  @property
  @abc.abstractmethod
  def width(self):
    """Number of cells along x."""

  @property
  def max_variations(self):
    """The largest number of variations the variations layer may use."""

  @property
  def spawn_token(self):
    return defaults.SPAWN_TOKEN

  @property
  def object_token(self):
    return defaults.OBJECT_TOKEN


class LayeredMaze(BaseMaze):
  """A maze holding its layers and size in `_entity_layer`, `_variations_layer`, `_height`
  and `_width`."""

  @property
  def entity_layer(self):
    return self._entity_layer

  @property
  def variations_layer(self):
    return self._variations_layer

  @property
  def height(self):
    return self._height

  @property
  def width(self):
    return self._width


def _check_int(name, value, low=0, high=None, extra=""):
  if value != int(value) or value < low or (high is not None and value > high):
    raise ValueError("`{}` should be {}: got {!r}".format(name, extra, value))


class RandomMaze(LayeredMaze):
  """A random text maze, identical to `labmaze.RandomMaze` for the same arguments and seed."""

  def __init__(
    self,
    height=11,
    width=11,
    max_rooms=defaults.MAX_ROOMS,
    room_min_size=defaults.ROOM_MIN_SIZE,
    room_max_size=defaults.ROOM_MAX_SIZE,
    retry_count=defaults.RETRY_COUNT,
    extra_connection_probability=defaults.EXTRA_CONNECTION_PROBABILITY,
    max_variations=defaults.MAX_VARIATIONS,
    has_doors=defaults.HAS_DOORS,
    simplify=defaults.SIMPLIFY,
    spawns_per_room=defaults.SPAWN_COUNT,
    spawn_token=defaults.SPAWN_TOKEN,
    objects_per_room=defaults.OBJECT_COUNT,
    object_token=defaults.OBJECT_TOKEN,
    random_seed=None,
  ):
    for name, value in (("height", height), ("width", width)):
      if value != int(value) or value < 0 or value % 2 == 0:
        raise ValueError("`{}` should be a positive odd integer: got {!r}".format(name, value))
    _check_int("room_min_size", room_min_size, extra="a positive integer")
    _check_int("room_max_size", room_max_size, extra="a positive integer")
    if room_min_size > room_max_size:
      raise ValueError(
        "`room_min_size` should be less than or equal to `room_max_size`: "
        "got room_min_size={!r} and room_max_size={!r}".format(room_min_size, room_max_size)
      )
    _check_int("retry_count", retry_count, extra="a positive integer")
    if not 0 <= extra_connection_probability <= 1:
      raise ValueError(
        "`extra_connection_probability` should be between 0.0 and 1.0: got {!r}".format(
          extra_connection_probability
        )
      )
    _check_int("max_variations", max_variations, high=26, extra="an integer between 0 and 26")
    for name, token in (("spawn_token", spawn_token), ("object_token", object_token)):
      if len(str(token)) != 1:
        raise ValueError("`{}` should be a single character: got {!r}".format(name, token))
    if random_seed is None:
      random_seed = np.random.randint(2147483648)  # 2**31
    if not -(2**31) <= int(random_seed) < 2**31:
      raise ValueError("`random_seed` should fit in a C int: got {!r}".format(random_seed))

    self._height, self._width = int(height), int(width)
    self._max_rooms = max_rooms
    self._room_min_size = room_min_size
    self._room_max_size = room_max_size
    self._max_variations = max_variations
    self._spawns_per_room = spawns_per_room
    self._spawn_token = str(spawn_token)
    self._objects_per_room = objects_per_room
    self._object_token = str(object_token)
    self._generator_args = dict(
      height=self._height,
      width=self._width,
      max_rooms=int(max_rooms),
      room_min_size=int(room_min_size),
      room_max_size=int(room_max_size),
      retry_count=int(retry_count),
      # labmaze's binding takes the probability as a C float.
      extra_connection_probability=float(np.float32(extra_connection_probability)),
      max_variations=int(max_variations),
      has_doors=bool(has_doors),
      simplify=bool(simplify),
      spawns_per_room=int(spawns_per_room),
      spawn_token=self._spawn_token,
      objects_per_room=int(objects_per_room),
      object_token=self._object_token,
    )
    self._rng = MT19937_64(int(random_seed) & _MASK64)
    self.regenerate()

  def regenerate(self):
    """Draws the next maze from the same random stream."""
    entity, variations = self._generate()
    self._entity_layer = TextGrid(entity)
    self._variations_layer = TextGrid(variations)

  def _generate(self):
    if self._max_variations == 0:
      # The C++ generator divides by max_variations when labelling rooms (a crash in labmaze).
      state = (list(self._rng._state), self._rng._index)
      entity, variations = generate_random_maze(
        rng=self._rng, **dict(self._generator_args, max_variations=1)
      )
      if set(variations) - {".", "\n"}:
        self._rng._state, self._rng._index = state
        raise ValueError("`max_variations` must be positive for a maze with rooms")
      return entity, variations
    return generate_random_maze(rng=self._rng, **self._generator_args)

  @property
  def max_rooms(self):
    return self._max_rooms

  @property
  def room_min_size(self):
    return self._room_min_size

  @property
  def room_max_size(self):
    return self._room_max_size

  @property
  def max_variations(self):
    return self._max_variations

  @property
  def spawns_per_room(self):
    return self._spawns_per_room

  @property
  def spawn_token(self):
    return self._spawn_token

  @property
  def objects_per_room(self):
    return self._objects_per_room

  @property
  def object_token(self):
    return self._object_token


class FixedMazeWithRandomGoals(LayeredMaze):
  """A fixed maze layout whose spawn points and goals are redrawn on `regenerate`.

  Spawn/object tokens already in `entity_layer` are candidate positions (a random subset of
  `num_spawns`/`num_objects` of them is used); when more are requested than the layout
  provides, the rest are drawn from its empty cells. `None` keeps every token in the layout.
  """

  def __init__(
    self,
    entity_layer,
    variations_layer=None,
    num_spawns=None,
    spawn_token=defaults.SPAWN_TOKEN,
    num_objects=None,
    object_token=defaults.OBJECT_TOKEN,
    random_state=None,
  ):
    self._entity_layer = TextGrid(entity_layer)
    if variations_layer is None:
      self._variations_layer = self._entity_layer.copy()
      self._variations_layer[:] = "."
    else:
      self._variations_layer = TextGrid(variations_layer)
      if self._variations_layer.shape != self._entity_layer.shape:
        raise ValueError(
          "`variations_layer` is specified, but its shape is not the same as "
          "`entity_layer`: got {} vs. {}".format(
            self._variations_layer.shape, self._entity_layer.shape
          )
        )
    self._max_variations = len(set(self._variations_layer.flatten())) - 1
    for name, token in (("spawn_token", spawn_token), ("object_token", object_token)):
      if len(str(token)) != 1:
        raise ValueError("`{}` should be a single character: got {!r}".format(name, token))
    self._spawn_token, self._object_token = str(spawn_token), str(object_token)
    self._height, self._width = self._entity_layer.shape
    self._random_state = random_state or np.random

    cells = {_EMPTY: [], self._spawn_token: [], self._object_token: []}
    for y, x in itertools.product(range(self._height), range(self._width)):
      bucket = cells.get(self._entity_layer[y, x])
      if bucket is not None:
        bucket.append((y, x))
    self._empty_cells = cells[_EMPTY]
    self._required_spawns = cells[self._spawn_token]
    self._required_objects = cells[self._object_token]
    self._num_spawns = len(self._required_spawns) if num_spawns is None else num_spawns
    self._num_objects = len(self._required_objects) if num_objects is None else num_objects
    self.regenerate()

  def _pick(self, candidates, count):
    if not candidates:
      return []
    chosen = self._random_state.choice(len(candidates), min(count, len(candidates)), replace=False)
    return [candidates[i] for i in chosen]

  def regenerate(self):
    for y, x in itertools.chain(self._empty_cells, self._required_spawns, self._required_objects):
      self._entity_layer[y, x] = _EMPTY
    spawns = self._pick(self._required_spawns, self._num_spawns)
    objects = self._pick(self._required_objects, self._num_objects)
    extra_spawns = max(0, self._num_spawns - len(self._required_spawns))
    extra_objects = max(0, self._num_objects - len(self._required_objects))
    if extra_spawns + extra_objects > 0:
      if extra_spawns + extra_objects > len(self._empty_cells):
        raise ValueError(
          "The maze has {} empty cells, too few for {} extra spawn points and {} extra "
          "objects".format(len(self._empty_cells), extra_spawns, extra_objects)
        )
      picked = self._random_state.choice(
        len(self._empty_cells), extra_spawns + extra_objects, replace=False
      )
      extras = [self._empty_cells[i] for i in picked]
      spawns += extras[:extra_spawns]
      objects += extras[extra_spawns:]
    for y, x in spawns:
      self._entity_layer[y, x] = self._spawn_token
    for y, x in objects:
      self._entity_layer[y, x] = self._object_token

  @property
  def max_variations(self):
    return self._max_variations

  @property
  def max_rooms(self):
    return 1

  @property
  def objects_per_room(self):
    return self._num_objects

  @property
  def spawn_token(self):
    return self._spawn_token

  @property
  def object_token(self):
    return self._object_token
