"""Covers the wall cells of a text maze with few rectangles (dm_control.locomotion.arenas.covering).

A greedy sweep: the first uncovered wall cell in row-major order is the top-left corner of the
next rectangle; every row below it is extended as far right as it stays on uncovered wall
(never wider than the row above), and the rectangle keeps the depth with the most cells. With
`make_odd_sized_walls` widths and depths are odd (MuJoCo's texture repeat then lines up).
"""

import collections

import numpy as np

GridCoordinates = collections.namedtuple("GridCoordinates", ("y", "x"))
MazeWall = collections.namedtuple("MazeWall", ("start", "end"))


def _next_wall(grid, covered, wall_char, start, odd):
  """The rectangle grown from top-left corner `start`; marks its cells covered."""
  height, width = grid.shape
  right = width
  ends, areas = [], []
  for y in range(start.y, height):
    x = start.x
    while x < right and grid[y, x] == wall_char and not covered[y, x]:
      x += 1
    if x == start.x:
      break
    if odd and (x - start.x) % 2 == 0:
      x -= 1
    right = x
    ends.append(x)
    areas.append((x - start.x) * (y - start.y + 1))
  if odd:
    # Only odd depths (every other row) are candidates; ties go to the shallowest.
    depth = 2 * int(np.argmax(areas[::2]))
  else:
    depth = int(np.argmax(areas))
  end = GridCoordinates(start.y + depth + 1, ends[depth])
  covered[start.y : end.y, start.x : end.x] = True
  return MazeWall(start, end)


def make_walls(text_maze, wall_char="*", make_odd_sized_walls=False):
  """A tuple of `MazeWall(start, end)` (end exclusive) covering every `wall_char` cell."""
  grid = np.asarray(text_maze)
  covered = np.zeros(grid.shape, dtype=bool)
  height, width = grid.shape
  walls = []
  y, x = 0, 0
  while y < height:
    if x >= width:
      y, x = y + 1, 0
      continue
    if grid[y, x] == wall_char and not covered[y, x]:
      wall = _next_wall(grid, covered, wall_char, GridCoordinates(y, x), make_odd_sized_walls)
      walls.append(wall)
      x = wall.end.x
    else:
      x += 1
  return tuple(walls)
