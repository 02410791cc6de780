"""The manipulation props, the shared arena, cameras, observation settings, workspaces and
registry, and the place task's pedestal and cradle, against dm_control's: compiled models field
by field, sensor readings at the same state, settings and draws equal."""

import os

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

from dm_control import composer as dm_composer  # noqa: E402  (after MUJOCO_GL)
from dm_control import mjcf as dm_mjcf  # noqa: E402
from dm_control.entities import props as dm_entity_props  # noqa: E402
from dm_control.manipulation import place as dm_place  # noqa: E402
from dm_control.manipulation import props as dm_props  # noqa: E402
from dm_control.manipulation.shared import arenas as dm_arenas  # noqa: E402
from dm_control.manipulation.shared import cameras as dm_cameras  # noqa: E402
from dm_control.manipulation.shared import constants as dm_constants  # noqa: E402
from dm_control.manipulation.shared import observations as dm_observations  # noqa: E402
from dm_control.manipulation.shared import tags as dm_tags  # noqa: E402
from dm_control.manipulation.shared import workspaces as dm_workspaces  # noqa: E402

import composer  # noqa: E402
import mjcf  # noqa: E402
from composer import props as entity_props  # noqa: E402
from suite.manipulation import place  # noqa: E402
from suite.manipulation import props  # noqa: E402
from suite.manipulation.shared import arenas  # noqa: E402
from suite.manipulation.shared import cameras  # noqa: E402
from suite.manipulation.shared import constants  # noqa: E402
from suite.manipulation.shared import observations  # noqa: E402
from suite.manipulation.shared import registry  # noqa: E402
from suite.manipulation.shared import tags  # noqa: E402
from suite.manipulation.shared import workspaces  # noqa: E402
from suite.utils import containers  # noqa: E402
from tests.locomotion import test_arenas  # noqa: E402
from tests.locomotion import walker_parity  # noqa: E402

# (class name, keyword arguments)
PRIMITIVES = [
  ("Sphere", {}),
  ("Sphere", dict(radius=0.03, mass=0.2, name="ball")),
  ("Box", {}),
  ("Box", dict(half_lengths=[0.02, 0.03, 0.04], mass=0.1)),
  ("BoxWithSites", {}),
  ("BoxWithSites", dict(half_lengths=[0.02, 0.03, 0.04], name="b")),
  ("Ellipsoid", {}),
  ("Ellipsoid", dict(radii=[0.02, 0.03, 0.05], mass=1.5)),
  ("Cylinder", {}),
  ("Cylinder", dict(radius=0.02, half_length=0.05, mass=0.3)),
  ("Capsule", {}),
  ("Capsule", dict(radius=0.02, half_length=0.05, name="pill")),
]


def _dropped(ours, make_props):
  """(props, physics): the props free over the shared arena, dropped at spaced positions and
  stepped (dm_control's stack) until they rest on the floor and on each other."""
  arena = arenas.Standard() if ours else dm_arenas.Standard()
  arena.mjcf_model.option.tolerance = 1e-14  # converged contact solves
  made = make_props(props if ours else dm_props)
  frames = [arena.add_free_entity(prop) for prop in made]
  for i, frame in enumerate(frames):
    frame.pos = (0.3 * i - 0.3, 0.05 * i, 0.3)
  physics = (mjcf if ours else dm_mjcf).Physics.from_mjcf_model(arena.mjcf_model)
  return made, physics


@pytest.mark.parametrize("name,kwargs", PRIMITIVES, ids=lambda p: str(p))
def test_primitive_matches_dm_control(name, kwargs):
  """Each prop class compiles to dm_control's model; its readings (touch included) agree
  after it falls onto the floor."""
  make = lambda module: [getattr(module, name)(**kwargs)]  # noqa: E731
  (ours,), physics = _dropped(True, make)
  (theirs,), dm_physics = _dropped(False, make)
  walker_parity.assert_models_match(physics.model, dm_physics.model)
  assert ours.name == theirs.name
  for _ in range(200):
    dm_physics.step()
  walker_parity.copy_state(dm_physics, physics)
  readings = walker_parity.readings(ours, physics)
  prefix = ours.mjcf_model.model + "/"
  assert sorted(readings) == sorted(
    prefix + key
    for key in ("position", "orientation", "linear_velocity", "angular_velocity", "touch")
  )
  assert readings[prefix + "touch"][0] > 0  # resting on the floor
  walker_parity.assert_readings_match(
    readings, walker_parity.readings(theirs, dm_physics), dynamic=("touch",)
  )


def test_box_with_sites_corners():
  """The eight corner sites sit at the box's corners (x, then y, then z; + before -)."""
  box = props.BoxWithSites(half_lengths=[0.1, 0.2, 0.3])
  corners = np.array([site.pos for site in box.corner_sites])
  expected = [(x, y, z) for x in (0.1, -0.1) for y in (0.2, -0.2) for z in (0.3, -0.3)]
  np.testing.assert_array_equal(corners, expected)
  assert [site.name for site in box.corner_sites] == [f"corner_{i}" for i in range(8)]


def test_entity_props_export_duplo():
  assert entity_props.Duplo is not None and hasattr(dm_entity_props, "Duplo")
  assert entity_props.Duplo.__module__ == "composer.props.duplo"


def test_standard_arena_matches_dm_control():
  """Floor, sky and light, and a prop at an offset from the arena's attachment site."""
  ours, theirs = arenas.Standard(), dm_arenas.Standard()
  test_arenas.assert_same_model(*test_arenas.compile_both(ours, theirs))
  physics, dm_physics = test_arenas.compile_both(ours, theirs)
  walker_parity.assert_models_match(physics.model, dm_physics.model)
  np.testing.assert_array_equal(physics.model.stat.center, dm_physics.model.stat.center)
  for arena, module in ((ours, props), (theirs, dm_props)):
    frame = arena.attach_offset(module.Sphere(), offset=(0.1, 0.2, 0.3))
    np.testing.assert_array_equal(frame.pos, (0.1, 0.2, 0.3))
  walker_parity.assert_models_match(*[p.model for p in test_arenas.compile_both(ours, theirs)])
  named = arenas.Standard(name="named")
  assert named.mjcf_model.model == "named"


def _spec_equal(ours, theirs):
  """Two observable specs agree field by field; corruptors give equal outputs."""
  assert type(ours).__name__ == type(theirs).__name__ and ours._fields == theirs._fields
  for field, value in theirs._asdict().items():
    mine = getattr(ours, field)
    if callable(value):
      x = np.array([-1e4, -3.5, -1e-3, 0.0, 2e-7, 0.7, 42.0, 1e6])
      np.testing.assert_allclose(
        mine(x, np.random.RandomState(0)), value(x, np.random.RandomState(0)), rtol=1e-15, atol=0
      )
    else:
      assert mine == value, field


@pytest.mark.parametrize("preset", ["PERFECT_FEATURES", "VISION"])
def test_observation_presets_match_dm_control(preset):
  ours, theirs = getattr(observations, preset), getattr(dm_observations, preset)
  assert ours._fields == theirs._fields
  for category in theirs._fields:
    _spec_equal(getattr(ours, category), getattr(theirs, category))


def test_observation_names_and_options_match_dm_control():
  for names in ("JACO_ARM_OBSERVABLES", "JACO_HAND_OBSERVABLES", "FREEPROP_OBSERVABLES"):
    ours, theirs = getattr(observations, names), getattr(dm_observations, names)
    assert tuple(ours) == tuple(theirs), names
    for preset in ("PERFECT_FEATURES", "VISION"):
      mine = observations.make_options(getattr(observations, preset), ours)
      reference = dm_observations.make_options(getattr(dm_observations, preset), theirs)
      assert list(mine) == list(reference)
      for key, options in reference.items():
        assert list(mine[key]) == list(options)
        _spec_equal(
          observations.ObservableSpec(
            **{k: mine[key][k] for k in observations.ObservableSpec._fields}
          ),
          dm_observations.ObservableSpec(
            **{k: options[k] for k in dm_observations.ObservableSpec._fields}
          ),
        )
  assert observations.ObservableNames() == dm_observations.ObservableNames() == ((),) * 4


def test_symlog1p_corruptor():
  """Force/torque/touch readings pass through sign(x) log(1 + |x|)."""
  corrupt = observations.PERFECT_FEATURES.ftt.corruptor
  x = np.array([-(np.e - 1), 0.0, np.e**2 - 1])
  np.testing.assert_allclose(corrupt(x, None), [-1.0, 0.0, 2.0], rtol=1e-15)
  assert observations.VISION.ftt.corruptor is corrupt
  assert observations.PERFECT_FEATURES.proprio.corruptor is None


def test_constants_and_tags_match_dm_control():
  for name in (
    "CONTROL_TIMESTEP",
    "RED",
    "GREEN",
    "BLUE",
    "CYAN",
    "MAGENTA",
    "YELLOW",
    "TASK_SITE_GROUP",
  ):
    assert getattr(constants, name) == getattr(dm_constants, name), name
  for name in ("FEATURES", "VISION", "EASY"):
    assert getattr(tags, name) == getattr(dm_tags, name), name


def test_cameras_match_dm_control():
  """The five camera specs, and cameras added with their observables configured."""
  specs = ("FRONT_CLOSE", "FRONT_FAR", "TOP_DOWN", "LEFT_CLOSE", "RIGHT_CLOSE")
  for spec in specs:
    assert tuple(getattr(cameras, spec)) == tuple(getattr(dm_cameras, spec)), spec
  ours, theirs = arenas.Standard(), dm_arenas.Standard()
  mine = cameras.add_camera_observables(
    ours, observations.VISION, *[getattr(cameras, s) for s in specs]
  )
  reference = dm_cameras.add_camera_observables(
    theirs, dm_observations.VISION, *[getattr(dm_cameras, s) for s in specs]
  )
  assert list(mine) == list(reference) == [getattr(cameras, s).name for s in specs]
  for key, observable in reference.items():
    for option in ("height", "width", "enabled", "update_interval", "buffer_size", "delay"):
      assert getattr(mine[key], option) == getattr(observable, option), option
  test_arenas.assert_same_model(*test_arenas.compile_both(ours, theirs))
  features = cameras.add_camera_observables(
    arenas.Standard(), observations.PERFECT_FEATURES, cameras.FRONT_CLOSE
  )
  assert not features["front_close"].enabled


def test_workspace_sites_match_dm_control():
  """Box sites span their bounds (flat ones get a minimal thickness), target sites are
  spheres; hidden in the task-site group unless visible."""
  models = []
  for module, arena in ((workspaces, arenas.Standard()), (dm_workspaces, dm_arenas.Standard())):
    body = arena.mjcf_model.worldbody
    module.add_bbox_site(body, (-0.1, -0.2, 0.0), (0.1, 0.2, 0.0), rgba=(0, 1, 0, 0.3), name="flat")
    module.add_bbox_site(body, (-0.1, -0.1, 0.2), (0.3, 0.1, 0.4), visible=True, name="box")
    module.add_target_site(body, 0.05, rgba=(1, 0, 0, 0.3), name="target")
    module.add_target_site(body, 0.02, visible=True, name="seen")
    models.append(arena)
  physics, dm_physics = test_arenas.compile_both(*models)
  walker_parity.assert_models_match(physics.model, dm_physics.model)
  model = physics.model
  np.testing.assert_allclose(model.site_size[model.name2id("flat", "site")], (0.1, 0.2, 1e-6))
  np.testing.assert_allclose(model.site_pos[model.name2id("box", "site")], (0.1, 0, 0.3))
  assert model.site_group[model.name2id("target", "site")] == constants.TASK_SITE_GROUP
  assert model.site_group[model.name2id("seen", "site")] == 0
  np.testing.assert_array_equal(workspaces.DOWN_QUATERNION, dm_workspaces.DOWN_QUATERNION)
  assert workspaces.BoundingBox._fields == ("lower", "upper")


def test_uniform_z_rotation_matches_dm_control():
  """One angle per draw even given a quaternion as initial value; dm_control's draws."""
  ours, theirs = np.random.RandomState(4), np.random.RandomState(4)
  for _ in range(5):
    quat = workspaces.uniform_z_rotation(initial_value=np.ones(4), random_state=ours)
    reference = dm_workspaces.uniform_z_rotation(initial_value=np.ones(4), random_state=theirs)
    np.testing.assert_allclose(quat, reference, rtol=0, atol=1e-15)
    assert quat.shape == (4,) and quat[1] == quat[2] == 0


def test_registry_tags_and_overriding():
  """The registry's functions are those of one TaggedTasks; after done_importing_tasks a
  name may be registered again (dm_control's reloading behaviour)."""
  tasks = containers.TaggedTasks()
  tasks.add("a", "b")(lambda: 1)
  with pytest.raises(ValueError, match="already registered"):
    tasks.add("a")(lambda: 2)
  tasks.allow_overriding_keys = True
  tasks.add("a")(lambda: 2)
  assert tasks["<lambda>"]() == 2 and tasks.tagged("a") == ["<lambda>"]
  everything = registry._ALL_CONSTRUCTORS
  assert registry.add == everything.add and registry.get_tags == everything.tags
  assert registry.get_constructor == everything.__getitem__
  assert registry.get_all_names == everything.keys
  assert registry.get_names_by_tag == everything.tagged


@pytest.mark.parametrize("cradle", ["cradle", "duplo"])
def test_pedestal_matches_dm_control(cradle):
  """The pedestal under a sphere cradle or a Duplo brick, placed in the arena, compiles to
  dm_control's model; its target-position observable agrees."""
  built = []
  for module, arena_module, duplo_module in (
    (place, arenas, entity_props),
    (dm_place, dm_arenas, dm_entity_props),
  ):
    under = module.SphereCradle() if cradle == "cradle" else duplo_module.Duplo()
    pedestal = module.Pedestal(cradle=under, target_radius=0.05)
    arena = arena_module.Standard()
    arena.attach(pedestal).pos = (0.05, -0.02, 0.12)
    built.append((pedestal, arena))
  (ours, arena), (theirs, dm_arena) = built
  physics, dm_physics = test_arenas.compile_both(arena, dm_arena)
  walker_parity.assert_models_match(physics.model, dm_physics.model)
  walker_parity.assert_readings_match(
    walker_parity.readings(ours, physics), walker_parity.readings(theirs, dm_physics)
  )
  np.testing.assert_allclose(physics.bind(ours.target_site).xpos, (0.05, -0.02, 0.12))
  assert physics.bind(ours.target_site).size[0] == 0.05


def test_sphere_cradle_geometry():
  """Three spheres of 0.049 m, 120 degrees apart, centred 0.0343 m from the axis and below."""
  cradle = place.SphereCradle()
  geoms = cradle.mjcf_model.find_all("geom")
  assert len(geoms) == 3
  centres = np.array([g.pos for g in geoms])
  np.testing.assert_allclose(np.hypot(centres[:, 0], centres[:, 1]), 0.7 * 0.049)
  np.testing.assert_allclose(centres[:, 2], -0.7 * 0.049)
  assert all(g.size[0] == pytest.approx(0.049) and g.condim == 6 for g in geoms)
  assert isinstance(cradle, composer.Entity) and isinstance(
    dm_place.SphereCradle(), dm_composer.Entity
  )
