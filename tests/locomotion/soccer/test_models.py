"""Compiled BoxHead, pitch and ball models against dm_control's, field by field (textures
differ in pixels only), and the walker's and ball's construction errors."""

import io
import os

import numpy as np
import pytest
from PIL import Image

from tests.locomotion import walker_parity

os.environ.setdefault("MUJOCO_GL", "disable")


def _soccer(ours):
  if ours:
    from suite.locomotion import soccer
  else:
    from dm_control.locomotion import soccer
  return soccer


def _boxhead_maker(**kwargs):
  def make(walkers):
    return _soccer(not walkers.__name__.startswith("dm_control")).BoxHead(**kwargs)

  return make


BOXHEADS = [
  dict(),
  dict(walker_id=0, marker_rgba=[0.1, 0.1, 0.8, 1.0]),
  dict(walker_id=10, marker_rgba=[0.8, 0.1, 0.1, 1.0], camera_control=True),
  dict(marker_rgba=[0.2, 0.7, 0.2, 1.0], roll_gear=-20, steer_gear=30),
]


@pytest.mark.parametrize("kwargs", BOXHEADS)
def test_boxhead_compiles_as_dm_control(kwargs):
  (ours, our_physics), (theirs, their_physics) = walker_parity.build_pair(_boxhead_maker(**kwargs))
  walker_parity.assert_models_match(our_physics.model, their_physics.model)
  walker_parity.assert_action_specs_equal(ours.action_spec, theirs.action_spec)
  walker_parity.settle(their_physics)
  walker_parity.copy_state(their_physics, our_physics)
  walker_parity.assert_readings_match(
    walker_parity.readings(ours, our_physics),
    walker_parity.readings(theirs, their_physics),
    dynamic=("sensors_accelerometer",),
  )


@pytest.mark.parametrize("walker_id", [-1, 11])
def test_boxhead_rejects_walker_ids_outside_0_to_10(walker_id):
  from suite.locomotion import soccer

  with pytest.raises(ValueError, match=r"walker_id must be in \[0-10\], got: "):
    soccer.BoxHead(walker_id=walker_id, marker_rgba=[1.0, 0, 0, 1.0])


def test_boxhead_head_shows_its_number_over_the_team_colour():
  from suite.locomotion import soccer

  walker = soccer.BoxHead(walker_id=7, marker_rgba=[0.8, 0.1, 0.1, 1.0])
  texture = walker.mjcf_model.find("texture", "head_texture")
  image = np.asarray(Image.open(io.BytesIO(texture.file.contents)).convert("RGBA"))
  pixels, counts = np.unique(image.reshape(-1, 4), axis=0, return_counts=True)
  np.testing.assert_array_equal(pixels[np.argmax(counts)], [204, 25, 25, 255])  # background
  assert np.any(np.all(image[..., :3] == 255, axis=-1))  # white digit strokes
  assert walker.mjcf_model.find("geom", "head").material.texture is texture
  # without a number the head is a marker geom, with one it is not
  assert walker.mjcf_model.find("geom", "head") not in walker.marker_geoms
  plain = soccer.BoxHead(marker_rgba=[0.8, 0.1, 0.1, 1.0])
  assert plain.mjcf_model.find("geom", "head") in plain.marker_geoms


def _pitch_physics(ours, make, seed=None):
  soccer = _soccer(ours)
  mjcf = __import__("mjcf") if ours else __import__("dm_control.mjcf", fromlist=["mjcf"])
  arena = make(soccer)
  if seed is not None:
    arena.initialize_episode_mjcf(np.random.RandomState(seed))
  return arena, mjcf.Physics.from_mjcf_model(arena.mjcf_model)


PITCHES = {
  "default": lambda soccer: soccer.Pitch(),
  "field_box": lambda soccer: soccer.Pitch(
    size=(20, 15), field_box=True, field_box_offset=1.0, hoarding_color_scheme_id=2
  ),
  "mini_goals": lambda soccer: soccer.Pitch(
    size=(10, 8), goal_size=soccer.MINI_FOOTBALL_GOAL_SIZE, hoarding_color_scheme_id=3
  ),
}


@pytest.mark.parametrize("name", sorted(PITCHES))
def test_pitch_compiles_as_dm_control(name):
  (_, ours), (_, theirs) = (_pitch_physics(side, PITCHES[name]) for side in (True, False))
  walker_parity.assert_models_match(ours.model, theirs.model)
  for field in (
    "site_size",
    "site_pos",
    "site_rgba",
    "light_pos",
    "light_dir",
    "cam_fovy",
    "geom_size",
    "geom_pos",
  ):
    np.testing.assert_allclose(
      getattr(ours.model, field),
      getattr(theirs.model, field),
      rtol=1e-12,
      atol=1e-12,
      err_msg=field,
    )


@pytest.mark.parametrize("keep_aspect_ratio", [False, True])
@pytest.mark.parametrize("field_box", [False, True])
def test_randomized_pitch_resizes_as_dm_control(keep_aspect_ratio, field_box):
  def make(soccer):
    return soccer.RandomizedPitch(
      min_size=(32, 24), max_size=(48, 36), field_box=field_box, keep_aspect_ratio=keep_aspect_ratio
    )

  (our_arena, ours), (their_arena, theirs) = (
    _pitch_physics(side, make, seed=5) for side in (True, False)
  )
  assert our_arena.size == their_arena.size
  length_ratio = (our_arena.size[0] - 32) / 16
  width_ratio = (our_arena.size[1] - 24) / 12
  assert (abs(length_ratio - width_ratio) < 1e-12) == keep_aspect_ratio
  walker_parity.assert_models_match(ours.model, theirs.model)
  for field in ("site_size", "site_pos", "site_rgba", "light_pos", "light_dir", "cam_fovy"):
    np.testing.assert_allclose(
      getattr(ours.model, field),
      getattr(theirs.model, field),
      rtol=1e-12,
      atol=1e-12,
      err_msg=field,
    )
  for detector in ("home_goal", "away_goal", "field"):
    mine, their = getattr(our_arena, detector), getattr(their_arena, detector)
    np.testing.assert_allclose(mine.lower, their.lower, rtol=1e-14)
    np.testing.assert_allclose(mine.upper, their.upper, rtol=1e-14)


def test_balls_compile_as_dm_control():
  for make in (lambda soccer: soccer.SoccerBall(), lambda soccer: soccer.regulation_soccer_ball()):
    physics = []
    for ours in (True, False):
      soccer = _soccer(ours)
      composer, mjcf = walker_parity.namespaces(ours)[1:]
      arena = composer.Arena()
      arena.add_free_entity(make(soccer))
      physics.append(mjcf.Physics.from_mjcf_model(arena.mjcf_model))
    walker_parity.assert_models_match(physics[0].model, physics[1].model)


def test_ball_rejects_negative_damp_ratio():
  from suite.locomotion import soccer

  with pytest.raises(ValueError, match=r"Invalid `damp_ratio` parameter \(-0.5 is not"):
    soccer.SoccerBall(damp_ratio=-0.5)


def test_ball_has_three_tracking_cameras():
  from suite.locomotion import soccer

  ball = soccer.SoccerBall()
  cameras = ball.mjcf_model.find_all("camera")
  assert [c.name for c in cameras] == ["ball_cam_near", "ball_cam", "ball_cam_far"]
  assert all(c.mode == "trackcom" for c in cameras)
