"""The maze arenas (RandomMazeWithTargets, MazeWithTargets, PaddedRoom), their wall covering
and texture sets against dm_control's.

Each arena is built on both stacks from the same numpy global seed (which seeds the maze and
picks the textures) and compiled, then regenerated several times; the compiled models must
agree field by field (bodies, geoms, materials including which texture each uses, texture
types and sizes, cameras, lights), only texture pixels differing (ours are builtin stand-ins).
Then dm_control's covering tests, re-expressed, and positions/tokens against labmaze's layers.
"""

import os

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

import labmaze as lm  # noqa: E402
from dm_control import mjcf as dm_mjcf  # noqa: E402
from dm_control.locomotion.arenas import covering as dm_covering  # noqa: E402
from dm_control.locomotion.arenas import labmaze_textures as dm_textures  # noqa: E402
from dm_control.locomotion.arenas import mazes as dm_mazes  # noqa: E402
from dm_control.locomotion.arenas import padded_room as dm_padded_room  # noqa: E402

import mjcf  # noqa: E402
from suite.locomotion import arenas  # noqa: E402
from suite.locomotion.arenas import covering  # noqa: E402
from suite.locomotion.arenas import labmaze  # noqa: E402
from suite.locomotion.arenas import labmaze_textures  # noqa: E402
from suite.locomotion.arenas import mazes  # noqa: E402
from suite.locomotion.arenas import padded_room  # noqa: E402
from tests.locomotion.test_arenas import assert_same_model  # noqa: E402

OURS = (mazes, labmaze_textures, padded_room, labmaze)
THEIRS = (dm_mazes, dm_textures, dm_padded_room, lm)


def _textured(stack, sky="sky_03", style="style_01"):
  _, textures, _, _ = stack
  return dict(
    skybox_texture=textures.SkyBox(style=sky),
    wall_textures=textures.WallTextures(style=style),
    floor_textures=textures.FloorTextures(style=style),
  )


def _random_maze(stack, textured=True, **kwargs):
  arguments = dict(
    x_cells=11,
    y_cells=11,
    xy_scale=3,
    max_rooms=4,
    room_min_size=4,
    room_max_size=5,
    spawns_per_room=1,
    targets_per_room=3,
  )
  arguments.update(kwargs)
  if textured:
    arguments.update(_textured(stack))
  return stack[0].RandomMazeWithTargets(**arguments)


_FIXED_MAZE = (
  "*************\n"
  "*   *   P   *\n"
  "* G * ***** *\n"
  "*   *     * *\n"
  "*** ***** * *\n"
  "*       G   *\n"
  "*************\n"
)

CASES = {
  "random_textured": lambda s: _random_maze(s),
  "random_default_look": lambda s: _random_maze(s, textured=False, x_cells=15, y_cells=9),
  "random_outdoor_natural": lambda s: _random_maze(s, textured=False, aesthetic="outdoor_natural"),
  "random_rodent": lambda s: _random_maze(
    s,
    x_cells=15,
    y_cells=15,
    xy_scale=0.8,
    z_height=0.4,
    max_rooms=4,
    room_min_size=4,
    room_max_size=5,
    spawns_per_room=1,
    targets_per_room=3,
    textured=False,
    wall_textures=s[1].WallTextures(style="style_01"),
  ),
  "random_style_03_single_floor": lambda s: s[0].RandomMazeWithTargets(
    x_cells=21,
    y_cells=13,
    max_rooms=6,
    spawns_per_room=2,
    targets_per_room=1,
    simplify=False,
    wall_textures={"*": s[1].WallTextures(style="style_03")},
    floor_textures=s[1].FloorTextures(style="style_05"),
    skybox_texture=s[1].SkyBox(style="sky_01"),
  ),
  "fixed_with_random_goals": lambda s: s[0].MazeWithTargets(
    maze=s[3].FixedMazeWithRandomGoals(
      _FIXED_MAZE, num_spawns=1, num_objects=4, random_state=np.random.RandomState(5)
    ),
    xy_scale=2.5,
    z_height=1.5,
    **_textured(s, "sky_02", "style_04"),
  ),
  "padded_room": lambda s: s[0].MazeWithTargets(
    maze=s[2].PaddedRoom(room_size=4, num_objects=2, random_state=np.random.RandomState(2)),
    **_textured(s),
  ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_arena_compiles_like_dm_control(case):
  np.random.seed(11)
  ours = CASES[case](OURS)
  np.random.seed(11)
  theirs = CASES[case](THEIRS)
  for regeneration in range(3):
    np.random.seed(100 + regeneration)
    ours.regenerate()
    np.random.seed(100 + regeneration)
    theirs.regenerate()
    np.testing.assert_array_equal(ours.maze.entity_layer, theirs.maze.entity_layer)
    np.testing.assert_array_equal(ours.maze.variations_layer, theirs.maze.variations_layer)
    assert_same_model(
      mjcf.Physics.from_mjcf_model(ours.mjcf_model),
      dm_mjcf.Physics.from_mjcf_model(theirs.mjcf_model),
      texture_pixels=False,
    )
    for name in ("target_positions", "spawn_positions"):
      np.testing.assert_array_equal(
        np.reshape(getattr(ours, name), (-1, 3)),
        np.reshape(getattr(theirs, name), (-1, 3)),
        err_msg=name,
      )
    assert ours.target_grid_positions == theirs.target_grid_positions
    assert ours.spawn_grid_positions == theirs.spawn_grid_positions
    assert [g.name for g in ours.ground_geoms] == [g.name for g in theirs.ground_geoms]
    np.testing.assert_allclose(
      ours.world_to_grid_positions(ours.target_positions),
      theirs.world_to_grid_positions(theirs.target_positions),
    )


def test_positions_follow_the_tokens():
  """Each target/spawn sits at its token's cell: row 0 at +y, cells `xy_scale` apart."""
  np.random.seed(4)
  arena = _random_maze(OURS, textured=False, x_cells=13, y_cells=9, xy_scale=1.5)
  arena.regenerate()
  layer = arena.maze.entity_layer
  assert len(arena.target_positions) == len(arena.target_grid_positions) > 0
  for (row, col), pos in zip(arena.target_grid_positions, arena.target_positions):
    assert layer[row, col] == "G"
    np.testing.assert_allclose(pos, [(col - 6) * 1.5, (4 - row) * 1.5, 0])
  for (row, col), pos in zip(arena.spawn_grid_positions, arena.spawn_positions):
    assert layer[row, col] == "P"
  np.testing.assert_allclose(
    arena.world_to_grid_positions(arena.target_positions), arena.target_grid_positions
  )


def test_regeneration_hook_runs_and_reads_back():
  np.random.seed(1)
  arena = _random_maze(OURS, textured=False)
  calls = []
  arena.text_maze_regenerated_hook = lambda: calls.append(str(arena.maze.entity_layer))
  assert arena.text_maze_regenerated_hook is not None
  arena.regenerate()
  assert calls == [str(arena.maze.entity_layer)]


def test_texture_sets_have_labmaze_names_and_roles():
  physics = mjcf.Physics.from_mjcf_model(_random_maze(OURS).mjcf_model)
  model = physics.model
  names = [model.id2name(i, "texture") for i in range(model.ntex)]
  assert names[0] == "labmaze_sky_03/texture" and model.tex_type[0] == 2  # skybox
  walls = labmaze_textures.WALL_TEXTURES["style_01"]
  floors = labmaze_textures.FLOOR_TEXTURES["style_01"]
  assert names[1:] == (
    ["labmaze_style_01/" + n for n in walls] + ["labmaze_style_01_1/" + n for n in floors]
  )
  assert list(model.tex_type[1:]) == [0] * (len(walls) + len(floors))  # 2D
  for style in labmaze_textures.MAZE_STYLES:
    assert (
      tuple(t.name for t in arenas.WallTextures(style=style).textures)
      == (labmaze_textures.WALL_TEXTURES[style])
    )
  with pytest.raises(ValueError, match="style"):
    arenas.WallTextures(style="style_06")
  with pytest.raises(ValueError, match="style"):
    arenas.SkyBox(style="sky_04")


def test_bad_aesthetic():
  with pytest.raises(ValueError, match="aesthetic"):
    _random_maze(OURS, textured=False, aesthetic="indoor")


def test_padded_room_too_small():
  with pytest.raises(ValueError, match="cannot hold"):
    padded_room.PaddedRoom(room_size=2, num_objects=4)


def test_padded_room_keeps_its_border_free():
  room = padded_room.PaddedRoom(room_size=5, num_objects=6, random_state=np.random.RandomState(0))
  theirs = dm_padded_room.PaddedRoom(
    room_size=5, num_objects=6, random_state=np.random.RandomState(0)
  )
  for _ in range(5):
    room.regenerate()
    theirs.regenerate()
    layer = room.entity_layer
    np.testing.assert_array_equal(layer, theirs.entity_layer)
    assert (layer[0] == "*").all() and (layer[:, -1] == "*").all()
    inner = layer[1:-1, 1:-1]
    ring = np.concatenate([inner[0], inner[-1], inner[:, 0], inner[:, -1]])
    assert set(ring.tolist()) == {" "}
    assert (layer == "P").sum() == 1 and (layer == "G").sum() == 6


# ---- covering (dm_control's covering tests, plus equality with its covering) ----


def _reconstruct(shape, walls):
  grid = np.full(shape, " ", dtype="U1")
  for wall in walls:
    grid[wall.start.y : wall.end.y, wall.start.x : wall.end.x] = "*"
  return grid


@pytest.mark.parametrize("odd", [False, True])
def test_covering_reconstructs_random_mazes(odd):
  maze = labmaze.RandomMaze(
    height=17, width=17, max_rooms=5, room_min_size=3, room_max_size=5, random_seed=54321
  )
  for _ in range(100):
    maze.regenerate()
    walls = covering.make_walls(maze.entity_layer, make_odd_sized_walls=odd)
    np.testing.assert_array_equal(
      _reconstruct(maze.entity_layer.shape, walls), np.where(maze.entity_layer == "*", "*", " ")
    )
    assert walls == dm_covering.make_walls(maze.entity_layer, make_odd_sized_walls=odd)
    if odd:
      for wall in walls:
        assert (wall.end.y - wall.start.y) % 2 == 1 and (wall.end.x - wall.start.x) % 2 == 1


def test_covering_walls_do_not_overlap():
  walls = covering.make_walls(labmaze.TextGrid("..**\n.***\n.***\n"))
  assert sum((w.end.x - w.start.x) * (w.end.y - w.start.y) for w in walls) == 8
