"""The locomotion arenas (Floor, corridors, Bowl) against dm_control's.

Each arena is built on both libraries with the same arguments (variations from each library's
own `composer.variation`) and compiled; the models must agree field by field (bodies, geoms,
materials, textures, cameras, lights, height fields, visual settings), after construction and
after each of several regenerations from equal random states. Then dm_control's own arena
tests, re-expressed, and the errors for bad input.
"""

import os
import types

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

from dm_control import composer as dm_composer  # noqa: E402  (after MUJOCO_GL)
from dm_control import mjcf as dm_mjcf  # noqa: E402
from dm_control.composer.variation import colors as dm_colors  # noqa: E402
from dm_control.composer.variation import deterministic as dm_deterministic  # noqa: E402
from dm_control.composer.variation import distributions as dm_distributions  # noqa: E402
from dm_control.locomotion.arenas import bowl as dm_bowl  # noqa: E402
from dm_control.locomotion.arenas import corridors as dm_corridors  # noqa: E402
from dm_control.locomotion.arenas import floors as dm_floors  # noqa: E402

import composer  # noqa: E402
import mjcf  # noqa: E402
from composer.variation import colors  # noqa: E402
from composer.variation import deterministic  # noqa: E402
from composer.variation import distributions  # noqa: E402
from suite.locomotion import arenas  # noqa: E402
from suite.locomotion.arenas import bowl  # noqa: E402
from suite.locomotion.arenas import corridors  # noqa: E402
from suite.locomotion.arenas import floors  # noqa: E402

OURS = types.SimpleNamespace(
  distributions=distributions, deterministic=deterministic, colors=colors
)
THEIRS = types.SimpleNamespace(
  distributions=dm_distributions, deterministic=dm_deterministic, colors=dm_colors
)

# compiled-model fields compared: kinematic tree, collision and visual geometry, materials,
# textures (pixels separately), cameras, lights, height fields
_MODEL_FIELDS = (
  "body_parentid",
  "body_pos",
  "body_quat",
  "geom_type",
  "geom_bodyid",
  "geom_size",
  "geom_pos",
  "geom_quat",
  "geom_rgba",
  "geom_group",
  "geom_matid",
  "geom_dataid",
  "geom_contype",
  "geom_conaffinity",
  "geom_condim",
  "geom_friction",
  "geom_margin",
  "geom_rbound",
  "mat_texid",
  "mat_texrepeat",
  "mat_texuniform",
  "mat_reflectance",
  "mat_rgba",
  "mat_emission",
  "mat_specular",
  "mat_shininess",
  "tex_type",
  "tex_width",
  "tex_height",
  "tex_nchannel",
  "cam_mode",
  "cam_bodyid",
  "cam_pos",
  "cam_quat",
  "cam_fovy",
  "light_mode",
  "light_bodyid",
  "light_pos",
  "light_dir",
  "light_diffuse",
  "light_ambient",
  "hfield_size",
  "hfield_nrow",
  "hfield_ncol",
  "hfield_data",
)
_NAMED_KINDS = (
  ("body", "nbody"),
  ("geom", "ngeom"),
  ("material", "nmat"),
  ("texture", "ntex"),
  ("camera", "ncam"),
  ("light", "nlight"),
  ("hfield", "nhfield"),
)


def assert_same_model(ours, theirs, texture_pixels=True):
  """Compiled models `ours` and `theirs` (physics) agree on every compared field and name."""
  a, b = ours.model, theirs.model
  for kind, count in _NAMED_KINDS:
    assert getattr(a, count) == getattr(b, count), count
    names_ours = [a.id2name(i, kind) for i in range(getattr(a, count))]
    names_theirs = [b.id2name(i, kind) for i in range(getattr(b, count))]
    assert names_ours == names_theirs, kind
  for field in _MODEL_FIELDS:
    np.testing.assert_allclose(
      getattr(a, field), getattr(b, field), rtol=1e-12, atol=1e-12, err_msg=field
    )
  if texture_pixels:
    np.testing.assert_array_equal(a.tex_data, b.tex_data)
  for light in ("ambient", "diffuse", "specular", "active"):
    np.testing.assert_allclose(
      getattr(a.vis.headlight, light), getattr(b.vis.headlight, light), err_msg=light
    )
  assert a.vis.map.znear == b.vis.map.znear
  for option in ("timestep", "cone", "noslip_iterations", "noslip_tolerance"):
    assert getattr(a.opt, option) == getattr(b.opt, option), option


def compile_both(ours, theirs):
  return (
    mjcf.Physics.from_mjcf_model(ours.mjcf_model),
    dm_mjcf.Physics.from_mjcf_model(theirs.mjcf_model),
  )


# ---- Floor ----

FLOOR_CASES = {
  "default": {},
  "sized": dict(
    size=(12.9, 27.1),
    reflectance=0.5,
    name="ground",
    top_camera_distance=50,
    top_camera_y_padding_factor=1.5,
  ),
  "outdoor_natural": dict(size=(10.0, 10.0), aesthetic="outdoor_natural"),
}


@pytest.mark.parametrize("case", sorted(FLOOR_CASES))
def test_floor_compiles_like_dm_control(case):
  kwargs = FLOOR_CASES[case]
  ours, theirs = floors.Floor(**kwargs), dm_floors.Floor(**kwargs)
  textured = kwargs.get("aesthetic", "default") != "default"
  assert_same_model(*compile_both(ours, theirs), texture_pixels=not textured)
  ours.regenerate(np.random.RandomState(0))
  theirs.regenerate(np.random.RandomState(0))
  assert_same_model(*compile_both(ours, theirs), texture_pixels=not textured)
  assert ours.size == theirs.size
  assert [g.name for g in ours.ground_geoms] == [g.name for g in theirs.ground_geoms]


def test_floor_ground_size():
  """dm_control's floors test: the plane's half-lengths are the floor's size."""
  size = (12.9, 27.1)
  assert tuple(floors.Floor(size=size).ground_geoms[0].size[:2]) == size


def test_floor_top_camera_frames_the_floor():
  """dm_control's floors test: the camera looks straight down from its distance, its half field
  of view spanning the padded half-length in y."""
  half_width, half_length = 12.9, 27.1
  floor = floors.Floor(size=[half_width, half_length])
  assert floor._top_camera_y_padding_factor > 1
  np.testing.assert_array_equal(floor._top_camera.quat, (1, 0, 0, 0))
  np.testing.assert_allclose(
    np.tan(np.deg2rad(floor._top_camera.fovy / 2)),
    half_length * floor._top_camera_y_padding_factor / floor._top_camera.pos[2],
  )


def test_outdoor_look_is_textured_and_has_a_skybox():
  """The stand-in look: a 2D ground texture on the plane's material, and a skybox."""
  physics = mjcf.Physics.from_mjcf_model(floors.Floor(aesthetic="outdoor_natural").mjcf_model)
  model = physics.model
  material = model.geom_matid[model.name2id("groundplane", "geom")]
  ground_texture = model.mat_texid[material].max()
  assert model.tex_type[ground_texture] == 0  # mjTEXTURE_2D
  assert list(model.tex_type) == [0, 2]  # the ground's, then the skybox (mjTEXTURE_SKYBOX)
  assert model.tex_data.reshape(-1, 3).std(axis=0).max() > 0  # speckled, not flat


# ---- corridors ----


def _uniform(low, high):
  return lambda ns: ns.distributions.Uniform(low, high)


CORRIDOR_CASES = {
  "empty": ("EmptyCorridor", {}),
  "empty_varied": (
    "EmptyCorridor",
    dict(
      corridor_width=_uniform(2, 6),
      corridor_length=_uniform(10, 30),
      visible_side_planes=False,
      name="hall",
    ),
  ),
  "gaps": ("GapsCorridor", {}),
  # dm_control's CMU humanoid and rodent gap tasks
  "gaps_humanoid": (
    "GapsCorridor",
    dict(
      platform_length=_uniform(0.3, 2.5),
      gap_length=_uniform(0.5, 1.25),
      corridor_width=10,
      corridor_length=100,
    ),
  ),
  "gaps_rodent": (
    "GapsCorridor",
    dict(
      platform_length=_uniform(0.4, 0.8),
      gap_length=_uniform(0.05, 0.2),
      corridor_width=2,
      corridor_length=40,
      aesthetic="outdoor_natural",
    ),
  ),
  "gaps_coloured": (
    "GapsCorridor",
    dict(
      ground_rgba=lambda ns: ns.deterministic.Sequence([(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1)]),
      corridor_width=_uniform(3, 5),
      gap_length=_uniform(0, 1),
      visible_side_planes=True,
    ),
  ),
  "walls": ("WallsCorridor", {}),
  # dm_control's CMU humanoid walls task
  "walls_humanoid": (
    "WallsCorridor",
    dict(
      wall_gap=4.0,
      wall_width=_uniform(1, 7),
      wall_height=3.0,
      corridor_width=10,
      corridor_length=100,
      include_initial_padding=False,
    ),
  ),
  "walls_varied": (
    "WallsCorridor",
    dict(
      wall_gap=_uniform(2, 4),
      wall_height=_uniform(1, 3),
      swap_wall_side=lambda ns: ns.distributions.Bernoulli(0.5),
      wall_rgba=lambda ns: ns.colors.RgbVariation(
        ns.distributions.Uniform(), ns.distributions.Uniform(), 0.5
      ),
      visible_side_planes=True,
      corridor_length=_uniform(20, 40),
    ),
  ),
}


def _corridor_pair(case):
  """The corridor of `case` built by both libraries, variations from each library's own."""
  kind, kwargs = CORRIDOR_CASES[case]

  def build(module, ns):
    return getattr(module, kind)(
      **{key: value(ns) if callable(value) else value for key, value in kwargs.items()}
    )

  return build(corridors, OURS), build(dm_corridors, THEIRS)


def _check_corridor_episodes(case, seed, episodes):
  ours, theirs = _corridor_pair(case)
  textured = CORRIDOR_CASES[case][1].get("aesthetic", "default") != "default"
  assert_same_model(*compile_both(ours, theirs), texture_pixels=not textured)
  ours_random, theirs_random = np.random.RandomState(seed), np.random.RandomState(seed)
  for _ in range(episodes):
    ours.regenerate(ours_random)
    theirs.regenerate(theirs_random)
    assert ours.corridor_length == theirs.corridor_length
    assert ours.corridor_width == theirs.corridor_width
    assert [g.name for g in ours.ground_geoms] == [g.name for g in theirs.ground_geoms]
    assert_same_model(*compile_both(ours, theirs), texture_pixels=not textured)
    assert ours_random.randint(1 << 30) == theirs_random.randint(1 << 30)  # as many draws


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("case", sorted(CORRIDOR_CASES))
def test_corridor_regenerates_like_dm_control(case, seed):
  _check_corridor_episodes(case, seed, episodes=3)


@pytest.mark.parametrize("kind", ["EmptyCorridor", "GapsCorridor", "WallsCorridor"])
def test_corridor_compiles(kind):
  mjcf.Physics.from_mjcf_model(getattr(arenas, kind)().mjcf_model)


@pytest.mark.parametrize("kind", ["EmptyCorridor", "GapsCorridor", "WallsCorridor"])
def test_corridor_size_follows_its_variations(kind):
  """dm_control's corridor test: after each regeneration a probe box the size of the corridor
  (ground plane's extent) touches none of the four bounding planes when 1e-7 smaller, and each
  at 4 points (16 contacts) when 1e-7 larger."""
  widths, lengths = [5.2, 3.8, 7.4], [21.1, 19.4, 16.3]
  corridor = getattr(arenas, kind)(
    corridor_width=deterministic.Sequence(widths), corridor_length=deterministic.Sequence(lengths)
  )
  probe_body = corridor.mjcf_model.worldbody.add("body", name="probe")
  probe_joint = probe_body.add("freejoint")
  probe = probe_body.add("geom", name="probe", type="box")
  for width, length in zip(widths, lengths):
    corridor.regenerate(random_state=None)  # deterministic variations need none
    assert (corridor.corridor_width, corridor.corridor_length) == (width, length)
    for delta, contacts in ((-1e-7, 0), (1e-7, 16)):
      probe.size = [length / 2 + 2.0 + delta, width / 2 + delta, 0.1]
      physics = mjcf.Physics.from_mjcf_model(corridor.mjcf_model)
      probe_id = physics.bind(probe).element_id
      physics.bind(probe_joint).qpos[:3] = [length / 2, 0, 100]
      physics.forward()
      touching = [c for c in physics.data.contact if probe_id in (c.geom1, c.geom2)]
      assert len(touching) == contacts, (width, length, delta)


def test_corridor_target_is_its_far_end():
  corridor = arenas.EmptyCorridor(corridor_length=30)
  corridor.regenerate(np.random.RandomState(0))
  assert corridor.is_at_target_position((30.5, 1.0))
  assert not corridor.is_at_target_position((29.5, 1.0))
  assert corridor.is_at_target_position((29.5, 1.0), tolerance=1.0)


def test_gaps_platforms_tile_the_corridor():
  """Platforms are laid end to end with the drawn gaps between them, from x = 0 up to past the
  corridor's length, with their tops at z = 0; the ground plane is hidden below."""
  gap = 0.7
  corridor = arenas.GapsCorridor(
    platform_length=distributions.Uniform(0.5, 1.5), gap_length=gap, corridor_length=30
  )
  corridor.regenerate(np.random.RandomState(5))
  plane, *platforms = corridor.ground_geoms
  assert plane.pos[2] == -10 and plane.rgba[3] == 0
  starts = [p.pos[0] - p.size[0] for p in platforms]
  ends = [p.pos[0] + p.size[0] for p in platforms]
  assert starts[0] == 0 and ends[0] == 6
  np.testing.assert_allclose(np.subtract(starts[1:], ends[:-1]), [0] + [gap] * (len(ends) - 2))
  assert starts[-1] < 30 <= ends[-1] + gap
  np.testing.assert_allclose([p.pos[2] + p.size[2] for p in platforms], 0)


def test_gaps_random_colours_come_from_the_random_state():
  """Random platform colours are drawn from the random state given to `regenerate`, not from
  numpy's global generator (dm_control's draw from the global one, see GapsCorridor)."""

  def colours(seed):
    corridor = arenas.GapsCorridor(
      ground_rgba=colors.RgbVariation(distributions.Uniform(), distributions.Uniform(), 0.5),
      corridor_length=10,
    )
    global_state = np.random.get_state()
    corridor.regenerate(np.random.RandomState(seed))
    assert np.array_equal(np.random.get_state()[1], global_state[1])
    return np.array([g.rgba for g in corridor.ground_geoms[1:]])

  first = colours(0)
  np.testing.assert_array_equal(first, colours(0))
  assert not np.array_equal(first, colours(1))
  assert len(np.unique(first, axis=0)) == len(first) > 1


def test_walls_alternate_sides_against_the_corridor_edges():
  corridor = arenas.WallsCorridor(wall_width=1.5, corridor_width=4)
  corridor.regenerate(np.random.RandomState(0))
  walls = corridor.mjcf_model.find("body", "walls").geom
  sides = [np.sign(w.pos[1]) for w in walls]
  assert sides[::2] == [1] * len(sides[::2]) and sides[1::2] == [-1] * len(sides[1::2])
  np.testing.assert_allclose([abs(w.pos[1]) + w.size[1] for w in walls], 2)  # flush to a side


# ---- Bowl ----

BOWL_CASES = {
  "default": {},
  "outdoor_natural": dict(size=(20.0, 20.0), aesthetic="outdoor_natural"),
}


@pytest.fixture
def dm_physics_without_contexts(monkeypatch):
  """dm_control's Bowl uploads its terrain to the physics' GL contexts, creating them if needed;
  the physics alone is compared here, so its physics gets none."""
  monkeypatch.setattr(dm_mjcf.Physics, "contexts", property(lambda self: None))


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("case", sorted(BOWL_CASES))
def test_bowl_terrain_like_dm_control(case, seed, dm_physics_without_contexts):
  kwargs = BOWL_CASES[case]
  ours, theirs = bowl.Bowl(**kwargs), dm_bowl.Bowl(**kwargs)
  textured = "aesthetic" in kwargs
  ours_random, theirs_random = np.random.RandomState(seed), np.random.RandomState(seed)
  ours_physics, theirs_physics = compile_both(ours, theirs)
  assert_same_model(ours_physics, theirs_physics, texture_pixels=not textured)
  terrains = []
  # the first episode draws terrain without regenerate (pending since construction); so does
  # each one after regenerate; the episode without it keeps the terrain and draws nothing
  for regenerate in (False, True, False, True):
    if regenerate:
      ours.regenerate(ours_random)
      theirs.regenerate(theirs_random)
    ours.initialize_episode(ours_physics, ours_random)
    theirs.initialize_episode(theirs_physics, theirs_random)
    assert_same_model(ours_physics, theirs_physics, texture_pixels=not textured)
    terrains.append(ours_physics.model.hfield_data.copy())
  assert ours_random.randint(1 << 30) == theirs_random.randint(1 << 30)  # as many draws
  np.testing.assert_array_equal(terrains[1], terrains[2])
  assert not np.array_equal(terrains[0], terrains[1])
  assert [g.name for g in ours.ground_geoms] == [g.name for g in theirs.ground_geoms]


def test_bowl_terrain_shape():
  """The heights are the bowl times the bumps: 0 outside the circle inscribed in the field
  (the bowl's rim, radius >= 1), positive inside it, and at the centre the bowl's flat floor
  times a bump of [0.5, 1]."""
  arena = arenas.Bowl()
  physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  arena.initialize_episode(physics, np.random.RandomState(0))
  heights = physics.model.hfield_data.reshape(201, 201)
  row, col = np.ogrid[-1:1:201j, -1:1:201j]
  radius = np.sqrt(row**2 + col**2)
  np.testing.assert_array_equal(heights[radius >= 1], 0)
  assert heights[radius < 0.99].min() > 0
  floor_height = 0.5 - np.cos(2 * np.pi * 0.1) / 2
  assert floor_height * 0.49 < heights[100, 100] < floor_height * 1.01


def test_bowl_compiles():
  mjcf.Physics.from_mjcf_model(arenas.Bowl().mjcf_model)


def test_bowl_renders_each_new_terrain(opengl):
  """A physics rendered before the terrain is drawn shows the new terrain afterwards: the image
  equals that of a physics first rendered after drawing the same terrain."""

  def bowl_physics():
    arena = arenas.Bowl()
    return arena, mjcf.Physics.from_mjcf_model(arena.mjcf_model)

  camera = dict(height=48, width=64, camera_id=-1)
  arena, rendered_before = bowl_physics()
  flat = rendered_before.render(**camera)
  arena.initialize_episode(rendered_before, np.random.RandomState(2))
  redrawn = rendered_before.render(**camera)
  arena, fresh = bowl_physics()
  arena.initialize_episode(fresh, np.random.RandomState(2))
  np.testing.assert_array_equal(redrawn, fresh.render(**camera))
  assert not np.array_equal(redrawn, flat)


# ---- in an environment ----


def _regenerating_task(composer_module, arena):
  """A task that only regenerates `arena` at each episode, as locomotion tasks do."""

  class Regenerate(composer_module.Task):
    @property
    def root_entity(self):
      return arena

    def initialize_episode_mjcf(self, random_state):
      arena.regenerate(random_state)

    def get_reward(self, physics):
      return 0.0

  return Regenerate()


@pytest.mark.parametrize("case", ["bowl", "gaps"])
def test_arena_in_environment_like_dm_control(case, dm_physics_without_contexts):
  """Resets of an environment (ours compiles again only when the model changed) give the
  same arena as dm_control's, episode after episode."""

  def arena(module, ns):
    if case == "bowl":
      return module.Bowl()
    return module.GapsCorridor(
      platform_length=ns.distributions.Uniform(0.4, 0.8),
      gap_length=ns.distributions.Uniform(0.05, 0.2),
      corridor_length=12,
    )

  ours = composer.Environment(_regenerating_task(composer, arena(arenas, OURS)), random_state=3)
  theirs = dm_composer.Environment(
    _regenerating_task(dm_composer, arena(dm_corridors if case == "gaps" else dm_bowl, THEIRS)),
    random_state=3,
  )
  for _ in range(3):
    ours.reset()
    theirs.reset()
    assert_same_model(ours.physics, theirs.physics)


# ---- bad input ----


@pytest.mark.parametrize(
  "make, message",
  [
    (lambda: arenas.Floor(size=(0, 8)), "Floor `size` must be two positive"),
    (lambda: arenas.Floor(size=8), "Floor `size` must be two positive"),
    (lambda: arenas.Floor(top_camera_distance=-1), "top_camera_distance"),
    (lambda: arenas.Floor(aesthetic="indoor"), "Floor `aesthetic` must be one of"),
    (lambda: arenas.Bowl(size=(10, -1)), "Bowl `size` must be two positive"),
    (lambda: arenas.Bowl(aesthetic="desert"), "Bowl `aesthetic` must be one of"),
    (
      lambda: arenas.EmptyCorridor(corridor_width=0),
      "EmptyCorridor `corridor_width` must be a positive number, got 0",
    ),
    (lambda: arenas.EmptyCorridor(corridor_length=-5), "`corridor_length` must be a positive"),
    (lambda: arenas.GapsCorridor(platform_length=0), "GapsCorridor `platform_length`"),
    (lambda: arenas.GapsCorridor(gap_length=-1), "`gap_length` must be a non-negative number"),
    (lambda: arenas.GapsCorridor(aesthetic="indoor"), "GapsCorridor `aesthetic` must be one of"),
    (lambda: arenas.WallsCorridor(wall_gap=0), "WallsCorridor `wall_gap` must be a positive"),
    (lambda: arenas.WallsCorridor(wall_width=-1), "`wall_width` must be a positive"),
    (lambda: arenas.WallsCorridor(wall_height=float("nan")), "`wall_height` must be a positive"),
  ],
)
def test_bad_arguments_are_named(make, message):
  with pytest.raises(ValueError, match=message.replace("(", r"\(")):
    make()


@pytest.mark.parametrize(
  "make, message",
  [
    (
      lambda: arenas.EmptyCorridor(corridor_width=distributions.Uniform(-2, -1)),
      "EmptyCorridor `corridor_width` must be a positive number, got -1.",
    ),
    (
      lambda: arenas.GapsCorridor(platform_length=distributions.Uniform(-1, 0)),
      "GapsCorridor `platform_length` must be a positive number",
    ),
    # a zero gap after a non-positive platform would never reach the corridor's end
    (
      lambda: arenas.GapsCorridor(gap_length=distributions.Uniform(-1, -0.5)),
      "`gap_length` must be a non-negative number",
    ),
    (
      lambda: arenas.WallsCorridor(wall_gap=deterministic.Sequence([3.0, 0.0])),
      "WallsCorridor `wall_gap` must be a positive number, got 0.0",
    ),
  ],
)
def test_bad_drawn_values_are_named(make, message):
  corridor = make()
  with pytest.raises(ValueError, match=message):
    corridor.regenerate(np.random.RandomState(0))


def test_corridor_is_abstract():
  with pytest.raises(TypeError, match="abstract"):
    corridors.Corridor()


def test_exports_match_dm_control():
  for name in (
    "Floor",
    "Bowl",
    "EmptyCorridor",
    "GapsCorridor",
    "WallsCorridor",
    "MazeWithTargets",
    "RandomMazeWithTargets",
    "PaddedRoom",
    "SkyBox",
    "WallTextures",
    "FloorTextures",
  ):
    assert hasattr(__import__("dm_control.locomotion.arenas", fromlist=[name]), name)
    assert getattr(arenas, name).__module__.startswith("suite.locomotion.arenas.")
