"""Our pure-Python labmaze against the `labmaze` package (its C++ generator as the oracle).

`RandomMaze` must give the same entity and variations layers as labmaze's for the same
arguments and seed, including after `regenerate()`; the parameter sets are drawn at random over
sizes, room limits, retry counts, extra-connection probabilities, variations, doors,
simplification and spawn/object counts. Also: the libstdc++ distributions on a known engine
output, `FixedMazeWithRandomGoals` with equal numpy random states, `TextGrid`, and the errors
for bad arguments (labmaze's own tests, re-expressed).
"""

import labmaze as lm
import numpy as np
import pytest

from suite.locomotion.arenas import labmaze

_SIZES = (1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25, 31, 41)


def _random_arguments(rs):
  low = int(rs.randint(0, 8))
  return dict(
    height=int(rs.choice(_SIZES)),
    width=int(rs.choice(_SIZES)),
    max_rooms=int(rs.randint(0, 9)),
    room_min_size=low,
    room_max_size=low + int(rs.randint(0, 7)),
    retry_count=int(rs.choice([0, 1, 5, 50, 1000])),
    extra_connection_probability=float(rs.choice([0.0, 0.05, 0.3, 1.0, rs.rand()])),
    max_variations=int(rs.randint(1, 27)),
    has_doors=bool(rs.randint(2)),
    simplify=bool(rs.randint(2)),
    spawns_per_room=int(rs.randint(0, 4)),
    objects_per_room=int(rs.randint(0, 4)),
    random_seed=int(rs.randint(2**31)),
  )


def _assert_same_mazes(count, seed, regenerations=2):
  rs = np.random.RandomState(seed)
  for _ in range(count):
    kwargs = _random_arguments(rs)
    ours, theirs = labmaze.RandomMaze(**kwargs), lm.RandomMaze(**kwargs)
    for step in range(regenerations + 1):
      if step:
        ours.regenerate()
        theirs.regenerate()
      assert str(ours.entity_layer) == str(theirs.entity_layer), kwargs
      assert str(ours.variations_layer) == str(theirs.variations_layer), kwargs
      np.testing.assert_array_equal(ours.entity_layer, theirs.entity_layer)


def test_random_mazes_match_labmaze():
  _assert_same_mazes(100, seed=0)


@pytest.mark.slow
def test_random_mazes_match_labmaze_exhaustive():
  _assert_same_mazes(1200, seed=1)


@pytest.mark.parametrize(
  "kwargs",
  [
    {},  # labmaze's defaults
    dict(
      height=15,
      width=15,
      max_rooms=4,
      room_min_size=4,
      room_max_size=5,
      spawns_per_room=1,
      objects_per_room=3,
      max_variations=26,
      simplify=True,
    ),  # basic_rodent_2020's maze
    dict(
      height=11,
      width=11,
      max_rooms=4,
      room_min_size=4,
      room_max_size=5,
      spawns_per_room=1,
      objects_per_room=3,
    ),  # basic_cmu_2019's forage maze
    dict(
      height=21,
      width=31,
      has_doors=True,
      extra_connection_probability=0.5,
      simplify=False,
      spawns_per_room=2,
      spawn_token="S",
      objects_per_room=2,
      object_token="O",
    ),
  ],
)
def test_named_configurations_match_labmaze(kwargs):
  for seed in range(5):
    ours = labmaze.RandomMaze(random_seed=seed, **kwargs)
    theirs = lm.RandomMaze(random_seed=seed, **kwargs)
    assert str(ours.entity_layer) == str(theirs.entity_layer)
    assert str(ours.variations_layer) == str(theirs.variations_layer)
    for name in (
      "height",
      "width",
      "max_rooms",
      "room_min_size",
      "room_max_size",
      "max_variations",
      "spawns_per_room",
      "spawn_token",
      "objects_per_room",
      "object_token",
    ):
      assert getattr(ours, name) == getattr(theirs, name), name


def test_unseeded_maze_draws_its_seed_from_numpy():
  np.random.seed(7)
  ours = labmaze.RandomMaze(height=13, width=13)
  np.random.seed(7)
  theirs = lm.RandomMaze(height=13, width=13)
  assert str(ours.entity_layer) == str(theirs.entity_layer)


def test_mt19937_64_matches_the_standard():
  """The C++ standard fixes the 10000th output of a default-seeded mt19937_64."""
  rng = labmaze.MT19937_64()
  for _ in range(9999):
    rng()
  assert rng() == 9981545732273789042


def test_distributions_from_known_engine_outputs():
  """GCC 10's bucket rejection, the canonical double and the paired-swap shuffle."""
  outputs = iter([2**64 - 1, 5 * (2**64 // 7), 2**63, 0, 2**62])
  rng = lambda: next(outputs)  # noqa: E731
  # 7 buckets of floor((2**64 - 1) / 7); the maximum lands past the last full bucket
  assert labmaze.uniform_int(rng, 10, 16) == 15
  assert labmaze.uniform_real01(rng) == 0.5
  assert labmaze.uniform_real01(rng) == 0.0
  assert labmaze.uniform_int(rng, 0, 3) == 1
  # a 3-element shuffle draws once in [0, 6): x = 0 swaps items 1<->0 then 2<->0
  items = ["a", "b", "c"]
  labmaze.shuffle(items, lambda: 0)
  assert items == ["c", "a", "b"]


def test_text_grid_round_trips():
  text = "*****\n*P G*\n*****\n"
  grid = labmaze.TextGrid(text)
  assert grid.shape == (3, 5)
  assert grid[1, 1] == "P" and grid[1, 3] == "G"
  assert str(grid) == text == str(lm.TextGrid(text))


_FIXED = "*********\n*   P   *\n* G * G *\n*   *   *\n*********\n"


@pytest.mark.parametrize(
  "kwargs",
  [
    {},
    dict(num_spawns=1, num_objects=1),
    dict(num_spawns=3, num_objects=5),
    dict(num_spawns=0, num_objects=2, variations_layer=_FIXED.replace(" ", "A")),
  ],
)
def test_fixed_maze_with_random_goals_matches_labmaze(kwargs):
  ours = labmaze.FixedMazeWithRandomGoals(_FIXED, random_state=np.random.RandomState(3), **kwargs)
  theirs = lm.FixedMazeWithRandomGoals(_FIXED, random_state=np.random.RandomState(3), **kwargs)
  for _ in range(4):
    np.testing.assert_array_equal(ours.entity_layer, theirs.entity_layer)
    np.testing.assert_array_equal(ours.variations_layer, theirs.variations_layer)
    assert (ours.height, ours.width, ours.max_variations, ours.objects_per_room) == (
      theirs.height,
      theirs.width,
      theirs.max_variations,
      theirs.objects_per_room,
    )
    ours.regenerate()
    theirs.regenerate()


def test_fixed_maze_too_small_for_the_goals():
  with pytest.raises(ValueError, match="too few"):
    labmaze.FixedMazeWithRandomGoals(_FIXED, num_spawns=10, num_objects=10)


@pytest.mark.parametrize(
  "kwargs, message",
  [
    (dict(height=10), "`height` should be a positive odd integer"),
    (dict(width=-3), "`width` should be a positive odd integer"),
    (dict(room_min_size=-1), "`room_min_size` should be a positive integer"),
    (dict(room_min_size=6, room_max_size=5), "less than or equal to `room_max_size`"),
    (dict(retry_count=2.5), "`retry_count` should be a positive integer"),
    (dict(extra_connection_probability=1.5), "between 0.0 and 1.0"),
    (dict(max_variations=27), "between 0 and 26"),
    (dict(spawn_token="PP"), "`spawn_token` should be a single character"),
    (dict(object_token=""), "`object_token` should be a single character"),
  ],
)
def test_bad_arguments_raise_like_labmaze(kwargs, message):
  for module in (labmaze, lm):
    with pytest.raises(ValueError, match=message):
      module.RandomMaze(**kwargs)


def test_zero_variations_with_rooms_raise():
  """labmaze divides by `max_variations` when labelling rooms (the process dies); we raise."""
  with pytest.raises(ValueError, match="max_variations"):
    labmaze.RandomMaze(height=11, width=11, max_variations=0, random_seed=1)
  # without rooms there is nothing to label
  maze = labmaze.RandomMaze(
    height=11, width=11, max_rooms=1, retry_count=0, max_variations=0, random_seed=1
  )
  assert set(str(maze.variations_layer)) == {".", "\n"}
