"""The locomotion targets (TargetSphere, TargetSphereTwoTouch) against dm_control 1.0.50's: their
compiled models, and a ball dropped through them on both stacks (state copied from dm_control's
each step), with the activation, colours and textures compared step by step; plus dm_control's
target test re-expressed and bad arguments."""

import numpy as np
import pytest

import composer  # noqa: E402  (after task_parity sets MUJOCO_GL)
from composer.props import Primitive  # noqa: E402
from suite.locomotion import arenas  # noqa: E402
from suite.locomotion import props  # noqa: E402
from tests.locomotion import task_parity as tp

TARGET_HEIGHT, TARGET_RADIUS, BALL_RADIUS = 1, 0.6, 0.1
_RGB_ROLE = 1  # mjtTextureRole: the colour texture of a material

# models: fields of the target's geom, texture and material
_FIELDS = (
  "geom_type",
  "geom_size",
  "geom_pos",
  "geom_margin",
  "geom_gap",
  "geom_matid",
  "geom_contype",
  "geom_conaffinity",
  "mat_texid",
  "mat_rgba",
  "tex_type",
  "tex_width",
  "tex_height",
  "tex_nchannel",
  "tex_data",
)


def _primitive(ns):
  if ns.ours:
    return Primitive
  from dm_control.entities.props.primitive import Primitive as DmPrimitive

  return DmPrimitive


def _drop_through(make_target, **target_options):
  """A task-builder: a target (`make_target(props)`) on a floor, a ball dropped from 2 m."""

  def make_task(s):
    arena = s.arenas.Floor()
    target = make_target(s.props)(
      radius=TARGET_RADIUS, height_above_ground=TARGET_HEIGHT, **target_options
    )
    ball = _primitive(s)(geom_type="sphere", size=[BALL_RADIUS])
    arena.attach(target)
    arena.add_free_entity(ball)
    task = s.composer.NullTask(arena)
    task.initialize_episode = lambda physics, random_state: ball.set_pose(physics, [0, 0, 2])
    task.target, task.ball = target, ball
    return task

  return make_task


def _appearance(side):
  """(activated, material alpha, material texture ids, ball height) of a side now."""
  physics, target = side.physics, side.task.target
  material = physics.bind(target.material)
  return (
    target.activated,
    float(material.rgba[-1]),
    tuple(np.ravel(material.texid)),
    float(physics.bind(side.task.ball.geom).xpos[2]),
  )


def _drop_and_compare(twin, steps=200):
  """Steps both until the ball lies on the floor; their appearances agree at every step.
  Returns dm_control's sequence of appearances."""
  history = []
  for episode in range(2):
    twin.reset()
    assert _appearance(twin.ours) == _appearance(twin.theirs)
    for _ in range(steps):
      twin.step([])
      ours, theirs = _appearance(twin.ours), _appearance(twin.theirs)
      assert ours[:3] == theirs[:3]
      np.testing.assert_allclose(ours[3], theirs[3], rtol=0, atol=1e-9)
      history.append(theirs)
  return history


@pytest.mark.parametrize(
  "make_target, options",
  [
    (lambda p: p.TargetSphere, {}),
    (lambda p: p.TargetSphere, dict(rgb1=(0.1, 0.2, 0.3), rgb2=(0.9, 0.8, 0.7), name="goal")),
    (lambda p: p.TargetSphereTwoTouch, {}),
    (
      lambda p: p.TargetSphereTwoTouch,
      dict(rgb_initial=((1, 0, 0), (0, 1, 0)), touch_debounce=0.05, name="orb"),
    ),
  ],
)
def test_model_and_drop_match_dm_control(make_target, options):
  twin = tp.Twin(_drop_through(make_target, **options))
  ours, theirs = twin.ours.physics.model, twin.theirs.physics.model
  names = [[model.id2name(i, "geom") for i in range(model.ngeom)] for model in (ours, theirs)]
  assert names[0] == names[1]
  for field in _FIELDS:
    np.testing.assert_array_equal(getattr(ours, field), getattr(theirs, field), err_msg=field)
  history = _drop_and_compare(twin)
  touched = [np.any(activated) for activated, *_ in history]
  assert any(touched) and not touched[0]  # the drop activates it


def test_two_touch_target_counts_the_second_touch_after_the_debounce():
  """While the ball passes through, the first contact records the first touch (interval
  texture) and contact more than `touch_debounce` later the second (final texture); `reset`
  and a new episode clear both."""
  task = _drop_through(lambda p: p.TargetSphereTwoTouch, touch_debounce=0.1)(tp.stack(True))
  env = composer.Environment(task)
  env.reset()
  target, physics = task.target, env.physics
  textures = [
    physics.bind(texture).element_id
    for texture in (target._texture_initial, target._texture_interval, target._texture_final)
  ]
  first = second = None
  while physics.bind(task.ball.geom).xpos[2] > 0.2:
    env.step([])
    once, twice = target.activated
    if once and first is None:
      first = physics.time()
    if twice and second is None:
      second = physics.time()
    assert physics.bind(target.material).texid[_RGB_ROLE] == textures[once + twice]
  assert first is not None and second is not None and second > first + 0.1
  target.reset(physics)
  assert target.activated == (False, False)
  assert np.all(physics.bind(target.material).texid == textures[0])
  env.step([])
  env.reset()
  assert target.activated == (False, False)
  assert env.physics.bind(target.material).texid[_RGB_ROLE] == textures[0]


def test_activation_as_dm_controls_test():
  """dm_control's target sphere test: inactive (opaque) until the ball reaches the sphere,
  active (transparent) until it lands, inactive again after a reset."""
  arena = arenas.Floor()
  target = props.TargetSphere(radius=TARGET_RADIUS, height_above_ground=TARGET_HEIGHT)
  ball = Primitive(geom_type="sphere", size=[BALL_RADIUS])
  arena.attach(target)
  arena.add_free_entity(ball)
  task = composer.NullTask(arena)
  task.initialize_episode = lambda physics, random_state: ball.set_pose(physics, [0, 0, 2])
  env = composer.Environment(task)
  env.reset()
  highest_activation = TARGET_HEIGHT + TARGET_RADIUS + BALL_RADIUS
  while env.physics.bind(ball.geom).xpos[2] > highest_activation:
    assert not target.activated and env.physics.bind(target.material).rgba[-1] == 1
    env.step([])
  while env.physics.bind(ball.geom).xpos[2] > 0.2:
    assert target.activated and env.physics.bind(target.material).rgba[-1] == 0
    env.step([])
  env.reset()
  assert not target.activated and env.physics.bind(target.material).rgba[-1] == 1


@pytest.mark.parametrize("partners, activates", [("ball", True), ("floor", False), ("none", True)])
def test_specific_collision_geoms_choose_who_activates(partners, activates):
  arena = arenas.Floor()
  target = props.TargetSphere(radius=TARGET_RADIUS, height_above_ground=TARGET_HEIGHT)
  ball = Primitive(geom_type="sphere", size=[BALL_RADIUS])
  arena.attach(target)
  arena.add_free_entity(ball)
  task = composer.NullTask(arena)
  env = composer.Environment(task)

  def start(physics, random_state):
    ids = {
      "ball": {physics.bind(ball.geom).element_id},
      "floor": {physics.bind(arena.ground_geoms[0]).element_id},
      "none": set(),
    }
    target._specific_collision_geom_ids = ids[partners]
    ball.set_pose(physics, [0, 0, 2])

  task.initialize_episode = start
  env.reset()
  while env.physics.bind(ball.geom).xpos[2] > 0.2:
    env.step([])
  assert target.activated == activates


@pytest.mark.parametrize("target_class", [props.TargetSphere, props.TargetSphereTwoTouch])
@pytest.mark.parametrize("radius", [0, -0.1, float("nan"), "0.5", True])
def test_radius_must_be_positive(target_class, radius):
  with pytest.raises(ValueError, match=f"{target_class.__name__} `radius` must be a positive"):
    target_class(radius=radius)
