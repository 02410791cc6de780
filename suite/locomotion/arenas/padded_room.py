"""A square room whose outermost ring of cells is kept empty (dm_control's padded_room)."""

import numpy as np

from suite.locomotion.arenas import labmaze

_PADDING = 4


class PaddedRoom(labmaze.LayeredMaze):
  """A `room_size` square of free cells framed by a two-cell margin.

  The outer ring is wall when `pad_with_walls`; on `regenerate` the spawn points and then the
  objects are put on distinct random cells of the inner `room_size` square, so the ring next to
  the walls always stays free.
  """

  def __init__(
    self,
    room_size,
    num_objects=0,
    random_state=None,
    pad_with_walls=True,
    num_agent_spawn_positions=1,
  ):
    if num_objects + num_agent_spawn_positions > room_size * room_size:
      raise ValueError(
        "A room of {0}x{0} cells cannot hold {1} objects and {2} spawn positions".format(
          room_size, num_objects, num_agent_spawn_positions
        )
      )
    self._room_size = room_size
    self._num_objects = num_objects
    self._num_agent_spawn_positions = num_agent_spawn_positions
    self._random_state = random_state or np.random
    side = room_size + _PADDING
    self._height = self._width = side
    blank = ("." * side + "\n") * side
    self._entity_layer = labmaze.TextGrid(blank)
    if pad_with_walls:
      for edge in (
        self._entity_layer[0, :],
        self._entity_layer[-1, :],
        self._entity_layer[:, 0],
        self._entity_layer[:, -1],
      ):
        edge[...] = "*"
    self._variations_layer = labmaze.TextGrid(blank)

  def regenerate(self):
    self._entity_layer[1:-1, 1:-1] = " "
    self._variations_layer[:, :] = "."
    cells = self._random_state.choice(
      self._room_size * self._room_size,
      self._num_objects + self._num_agent_spawn_positions,
      replace=False,
    )
    margin = _PADDING // 2
    for rank, cell in enumerate(cells):
      row, col = divmod(int(cell), self._room_size)
      is_spawn = rank < self._num_agent_spawn_positions
      self._entity_layer[row + margin, col + margin] = (
        labmaze.defaults.SPAWN_TOKEN if is_spawn else labmaze.defaults.OBJECT_TOKEN
      )
