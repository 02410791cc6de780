"""The 25 manipulation environments against dm_control 1.0.50's: names, tags, specs; episodes
of `_features` environments stepped side by side from dm_control's state with the same seed and
random actions (tests/locomotion/task_parity.py), with Kinova's meshes so that contacts are
dm_control's; and the brick tasks' helpers against their definitions."""

import importlib.util
import os

import mujoco  # noqa: E402  (after task_parity sets MUJOCO_GL)
import numpy as np
import pytest
from dm_control import manipulation as dm_manipulation  # noqa: E402
from dm_control.manipulation import bricks as dm_bricks  # noqa: E402

from composer.manipulators.kinova import meshes  # noqa: E402
from suite import manipulation  # noqa: E402
from suite.manipulation import bricks  # noqa: E402
from suite.manipulation.shared import registry  # noqa: E402
from tests.locomotion import task_parity as tp

MESH_DIR = os.path.join(
  os.path.dirname(importlib.util.find_spec("dm_control").origin),
  "third_party",
  "kinova",
  "meshes_decimated",
)


@pytest.fixture
def kinova_meshes(monkeypatch):
  """Our Jaco built with Kinova's meshes, as dm_control's."""
  monkeypatch.setenv(meshes.MESH_DIR_ENV, MESH_DIR)


def _constructor(name):
  def make_task(ns):
    if ns.ours:
      return registry.get_constructor(name)()
    from dm_control.manipulation.shared import registry as dm_registry

    return dm_registry.get_constructor(name)()

  return make_task


def test_names_and_tags_are_dm_controls():
  assert manipulation.ALL == dm_manipulation.ALL and len(manipulation.ALL) == 25
  assert manipulation.TAGS == dm_manipulation.TAGS == ("features", "vision", "easy")
  for tag in manipulation.TAGS:
    assert manipulation.get_environments_by_tag(tag) == dm_manipulation.get_environments_by_tag(
      tag
    ), tag
  assert manipulation.get_environments_by_tag("hard") == ()


def test_unknown_name_lists_the_environments():
  with pytest.raises(
    ValueError,
    match="Unknown manipulation environment 'stack_7_bricks'; "
    "the environments are: stack_2_bricks_features, .*, reach_site_vision\\.$",
  ):
    manipulation.load("stack_7_bricks")


def test_time_limit_follows_timeout(monkeypatch):
  env = manipulation.load("reach_site_features", seed=0)
  assert env._time_limit == 10.0 and env.control_timestep() == 0.04
  monkeypatch.setattr(manipulation, "TIMEOUT", False)
  assert manipulation.load("reach_site_features", seed=0)._time_limit == float("inf")


@pytest.mark.parametrize("name", manipulation.ALL)
def test_specs_match_dm_control(name):
  """Action and observation specs (names, shapes, dtypes, bounds), timesteps; dm_control's
  `load` and ours."""
  ours, theirs = manipulation.load(name, seed=0), dm_manipulation.load(name, seed=0)
  tp.assert_specs_equal(ours, theirs)
  assert ours.control_timestep() == theirs.control_timestep()
  assert ours.physics.timestep() == theirs.physics.timestep()
  assert ours._time_limit == theirs._time_limit


FEATURES = dm_manipulation.get_environments_by_tag("features")


# The first observation follows the props' settling (PropPlacer steps the physics up to 2 s
# inside the reset, before any state can be shared): a brick coming to rest keeps a residual
# angular velocity of ~1e-6 rad/s that roundoff tips either way (seen up to 3e-6 over seeds
# 0-3 of every _features environment; positions agree to 1e-8).
RESET_ATOL = 1e-5


def _run_parity(name, seed, episodes=2, steps=20):
  """`episodes` episodes of `steps` steps on both stacks: the reset observations to
  RESET_ATOL, then every step from dm_control's state to task_parity's tolerances."""
  twin = tp.Twin(_constructor(name), seed=seed, time_limit=10.0)
  tp.assert_specs_equal(twin.ours.env, twin.theirs.env)
  actions = tp.random_actions(twin.theirs.env.action_spec(), seed + 1)
  rewards = []
  for episode in range(episodes):
    ours, theirs = twin.reset()
    assert ours.first() and theirs.first() and ours.reward is None
    assert list(ours.observation) == list(theirs.observation)
    for key, value in theirs.observation.items():
      np.testing.assert_allclose(
        ours.observation[key],
        value,
        rtol=0,
        atol=RESET_ATOL,
        err_msg=f"episode {episode} reset {key}",
      )
    for step in range(steps):
      ours, theirs = twin.step(next(actions))
      tp.assert_steps_close(ours, theirs, f"episode {episode} step {step}")
      rewards.append(theirs.reward)
  assert np.all((np.array(rewards) >= 0) & (np.array(rewards) <= 1))


@pytest.mark.parametrize("name", FEATURES)
def test_features_episodes_match_dm_control(name, kinova_meshes):
  """2 episodes of 20 steps."""
  _run_parity(name, seed=3)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", FEATURES)
def test_longer_features_episodes_match_dm_control(name, seed, kinova_meshes):
  """3 episodes of 100 steps."""
  _run_parity(name, seed=seed, episodes=3, steps=100)


@pytest.fixture
def primitive_shapes(monkeypatch):
  """Our Jaco with its primitive shapes, whatever the environment says."""
  monkeypatch.delenv(meshes.MESH_DIR_ENV, raising=False)


@pytest.mark.parametrize("name", FEATURES)
def test_features_environments_run_with_primitive_shapes(name, primitive_shapes):
  """With the shipped primitive Jaco (contacts differ from dm_control's): an episode starts with
  dm_control's first observation but for the settled props' velocities, and runs with finite
  observations and rewards in [0, 1]."""
  env, theirs = manipulation.load(name, seed=4), dm_manipulation.load(name, seed=4)
  first, reference = env.reset(), theirs.reset()
  for key, value in reference.observation.items():
    if not key.endswith("velocity"):  # the hand's shapes touch a settling prop differently
      np.testing.assert_allclose(first.observation[key], value, rtol=0, atol=1e-4, err_msg=key)
  actions = tp.random_actions(env.action_spec(), 5)
  for _ in range(10):
    step = env.step(next(actions))
    assert 0 <= step.reward <= 1
    assert all(np.all(np.isfinite(v)) for v in step.observation.values())


def _assert_images_close(ours, theirs, label):
  """Our renderer draws dm_control's scene: same spec; on average within 1 of 255 levels,
  fewer than 2% of the values off by more than 10 (edges rasterised differently)."""
  assert (ours.shape, ours.dtype) == (theirs.shape, theirs.dtype) == ((1, 84, 84, 3), np.uint8)
  difference = np.abs(ours.astype(int) - theirs.astype(int))
  assert difference.mean() < 1 and (difference > 10).mean() < 0.02, label
  assert ours.std() > 10  # a scene, not a blank frame


@pytest.mark.parametrize(
  "name", ["reach_site_vision", "stack_2_bricks_vision", "place_cradle_vision"]
)
def test_vision_environments_see_dm_controls_image(name, kinova_meshes, opengl):
  """The front_close camera at the first observation and after a step from dm_control's state;
  every other observation as in the _features tests."""
  twin = tp.Twin(_constructor(name), seed=1, time_limit=10.0)
  steps = [twin.reset(), twin.step(next(tp.random_actions(twin.theirs.env.action_spec(), 2)))]
  for label, (ours, theirs) in zip(("reset", "step"), steps):
    _assert_images_close(ours.observation["front_close"], theirs.observation["front_close"], label)

    def rest(observation):
      return {k: v for k, v in observation.items() if k != "front_close"}

    if label == "step":
      tp.assert_observations_close(rest(ours.observation), rest(theirs.observation), label)
      np.testing.assert_allclose(ours.reward, theirs.reward, rtol=0, atol=tp.OBS_ATOL)


def test_half_turn_is_mujocos_quat_integrate():
  """The top brick's half turn about z: MuJoCo's mju_quatIntegrate by pi, to the bit."""
  rng = np.random.RandomState(0)
  for quat in [np.array([1.0, 0, 0, 0]), np.array([0.3, -0.2, 0.1, 0.9])] + list(
    rng.normal(size=(5, 4))
  ):
    expected = np.array(quat, float)
    mujoco.mju_quatIntegrate(expected, np.array([0.0, 0.0, 1.0]), np.pi)
    np.testing.assert_array_equal(bricks._half_turn_about_z(quat), expected)


def test_hint_bricks_compile_like_dm_controls():
  """A goal-hint brick: no contacts, translucent (its body, the attachment frame, is fixed to
  the world and moved by set_pose)."""
  from dm_control import composer as dm_composer
  from dm_control import mjcf as dm_mjcf
  from dm_control.entities.props import duplo as dm_duplo

  import composer
  import mjcf
  from composer.props import duplo
  from tests.locomotion import walker_parity

  physics = []
  for hint_module, duplo_module, composer_module, mjcf_module in (
    (bricks, duplo, composer, mjcf),
    (dm_bricks, dm_duplo, dm_composer, dm_mjcf),
  ):
    brick = duplo_module.Duplo(color=(0.0, 1.0, 1.0))
    hint_module._hintify(brick, alpha=0.75)
    arena = composer_module.Arena()
    arena.attach(brick)
    physics.append(mjcf_module.Physics.from_mjcf_model(arena.mjcf_model))
  walker_parity.assert_models_match(physics[0].model, physics[1].model)
  model = physics[0].model
  assert not np.any(model.geom_contype) and not np.any(model.geom_conaffinity)
  np.testing.assert_array_equal(
    model.geom_rgba[model.name2id("duplo2x4/wall_x0", "geom")], (0.0, 1.0, 1.0, 0.75)
  )


def test_built_stack_clicks_holes_onto_studs():
  """_build_stack puts each brick's matching hole on the stud below (half the pairs turned),
  so the clicked reward term is 1 for every pair."""
  env = manipulation.load("reassemble_5_bricks_random_order_features", seed=2)
  env.reset()
  task, physics = env.task, env.physics
  order = task._initial_order
  for bottom, top in zip(order[:-1], order[1:]):
    distance = bricks._min_stud_to_hole_distance(physics, task._bricks[bottom], task._bricks[top])
    assert distance < 1e-3
  stacked = bricks._get_pairwise_stacking_rewards(
    physics, task._bricks, list(zip(order[:-1], order[1:]))
  )
  np.testing.assert_allclose(stacked, 1.0)
  assert sorted(task._desired_order) == list(range(5))
  assert task._desired_order[0] == order[0]


@pytest.mark.parametrize(
  "make,message",
  [
    (
      lambda m: m.bricks._stack(
        m.observations.PERFECT_FEATURES, num_bricks=7, moveable_base=False, randomize_order=False
      ),
      "`num_bricks` must be between 2 and 6, got 7.",
    ),
    (
      lambda m: m.bricks._stack(
        m.observations.PERFECT_FEATURES,
        num_bricks=3,
        moveable_base=False,
        randomize_order=False,
        target_height=4,
      ),
      "`target_height` must be between 2 and 3, got 4.",
    ),
    (
      lambda m: m.lift._lift(m.observations.PERFECT_FEATURES, prop_name="ball"),
      "`prop_name` must be either 'duplo' or 'box'.",
    ),
    (
      lambda m: m.place._place(m.observations.PERFECT_FEATURES, cradle_prop_name="cup"),
      "`cradle_prop_name` must be either 'duplo' or 'cradle'.",
    ),
  ],
)
def test_bad_arguments_raise_dm_controls_errors(make, message):
  import types

  from dm_control.manipulation import lift as dm_lift
  from dm_control.manipulation import place as dm_place
  from dm_control.manipulation.shared import observations as dm_observations

  from suite.manipulation import lift
  from suite.manipulation import place
  from suite.manipulation.shared import observations

  for namespace in (
    types.SimpleNamespace(bricks=bricks, lift=lift, place=place, observations=observations),
    types.SimpleNamespace(
      bricks=dm_bricks, lift=dm_lift, place=dm_place, observations=dm_observations
    ),
  ):
    with pytest.raises(ValueError) as error:
      make(namespace)
    assert str(error.value) == message


@pytest.mark.slow
@pytest.mark.parametrize("name", manipulation.ALL)
def test_task_runs(name, opengl):
  """dm_control's manipulation test: 5 episodes of 10 random steps, observations valid for the
  spec, rewards and discounts floats in [0, 1] (None at the first step)."""
  env = manipulation.load(name, seed=99)
  rng = np.random.RandomState(99)
  observation_spec, action_spec = env.observation_spec(), env.action_spec()
  assert np.all(np.isfinite(action_spec.minimum)) and np.all(np.isfinite(action_spec.maximum))
  for _ in range(5):
    time_step = env.reset()
    for _ in range(10):
      assert list(time_step.observation) == list(observation_spec)
      for key, spec in observation_spec.items():
        spec.validate(time_step.observation[key])
      if time_step.first():
        assert time_step.reward is None and time_step.discount is None
      else:
        for value in (time_step.reward, time_step.discount):
          assert isinstance(value, float) and 0 <= value <= 1
      time_step = env.step(rng.uniform(action_spec.minimum, action_spec.maximum))


def _arm_contact(physics):
  """Whether any contact involves a geom of the arm or hand."""
  data, model = physics.data, physics.model
  return any(
    model.id2name(geom, "geom").startswith("jaco_arm/")
    for pair in np.asarray(data.contact.geom)[: data.ncon]
    for geom in pair
  )


@pytest.mark.parametrize("name", FEATURES)
def test_primitive_jaco_matches_dm_control_until_the_arm_touches(
  name, primitive_shapes, monkeypatch
):
  """With the shipped primitive Jaco against dm_control's meshes, each step from dm_control's
  state: dm_control's observations and rewards at every step before the arm or hand first
  touches anything (their shapes differ, nothing else does)."""
  monkeypatch.setattr(tp, "share_model", lambda theirs, ours: None)  # geometry differs
  twin = tp.Twin(_constructor(name), seed=2, time_limit=10.0)
  actions = tp.random_actions(twin.theirs.env.action_spec(), 3, scale=0.5)
  twin.reset()
  compared = 0
  for step in range(30):
    ours, theirs = twin.step(next(actions))
    if _arm_contact(twin.ours.physics) or _arm_contact(twin.theirs.physics):
      break
    tp.assert_steps_close(ours, theirs, f"step {step}")
    compared += 1
  assert compared >= 3, f"the arm touched something after {compared} steps"
