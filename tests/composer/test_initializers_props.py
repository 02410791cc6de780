"""PropPlacer, JointStaticIsolator, Primitive and PositionDetector against dm_control's."""

import numpy as np
import pytest

import composer
import mjcf
from composer import initializers
from composer import props
from composer.variation import distributions


def _scene(ours, n_props=4):
  if ours:
    ns = (composer, mjcf, initializers, props, distributions)
  else:
    from dm_control import composer as dm_composer
    from dm_control import mjcf as dm_mjcf
    from dm_control.composer import initializers as dm_initializers
    from dm_control.composer.variation import distributions as dm_distributions
    from dm_control.entities import props as dm_props

    ns = (dm_composer, dm_mjcf, dm_initializers, dm_props, dm_distributions)
  comp, mjcf_module, inits, prop_lib, dists = ns
  arena = comp.Arena()
  arena.mjcf_model.option.tolerance = 1e-14  # converged contact solves (see twin_tasks)
  arena.mjcf_model.worldbody.add("geom", name="floor", type="plane", size=[2, 2, 0.1])
  boxes = [prop_lib.Primitive("box", [0.1, 0.1, 0.1], name=f"box{i}") for i in range(n_props)]
  for box in boxes:
    arena.add_free_entity(box)
  physics = mjcf_module.Physics.from_mjcf_model(arena.mjcf_model)
  return ns, arena, boxes, physics


def _penetrations(physics):
  contact = physics.data.contact
  return np.asarray(contact.dist)[: physics.data.ncon]


def test_prop_placer_rejection_sampling_matches_dm_control():
  """Boxes dropped into a small square: poses are resampled until no box penetrates
  another or the floor; the accepted poses are dm_control's."""
  poses = {}
  for ours in (False, True):
    (comp, _, inits, _, dists), _, boxes, physics = _scene(ours)
    placer = inits.PropPlacer(
      boxes,
      position=dists.Uniform([-0.3, -0.3, 0.12], [0.3, 0.3, 0.12]),
      quaternion=[1, 0, 0, 0],
      max_attempts_per_prop=50,
    )
    random_state = np.random.RandomState(2)
    placer(physics, random_state)
    assert random_state.get_state()[2] > 4 * 3 * 2  # some poses were rejected and redrawn
    physics.forward()
    assert np.all(_penetrations(physics) > 0) or physics.data.ncon == 0
    poses[ours] = np.concatenate([np.concatenate(b.get_pose(physics)) for b in boxes])
  np.testing.assert_allclose(poses[True], poses[False], rtol=0, atol=1e-12)


def test_prop_placer_settles_like_dm_control():
  final = {}
  for ours in (False, True):
    (comp, _, inits, _, dists), _, boxes, physics = _scene(ours, 2)
    placer = inits.PropPlacer(
      boxes,
      position=dists.Uniform([-0.5, -0.5, 0.3], [0.5, 0.5, 0.6]),
      quaternion=[1, 0, 0, 0],
      settle_physics=True,
      max_settle_physics_time=1.0,
    )
    placer(physics, np.random.RandomState(0))
    final[ours] = (physics.data.qpos.copy(), physics.data.time)
    heights = physics.data.qpos.reshape(-1, 7)[:, 2]
    np.testing.assert_allclose(heights, 0.1, atol=2e-3)  # resting on the floor
  assert final[True][1] == final[False][1] == 0.0  # time is restored after settling
  np.testing.assert_allclose(final[True][0], final[False][0], atol=1e-6)


def test_prop_placer_gives_up():
  (_, _, inits, _, _), _, boxes, physics = _scene(True, 2)
  placer = inits.PropPlacer(boxes, position=[0, 0, 0.12], max_attempts_per_prop=3)
  with pytest.raises(composer.EpisodeInitializationError, match="'box1' within 3 attempts"):
    placer(physics, np.random.RandomState(0))
  with pytest.raises(ValueError, match="greater than zero"):
    inits.PropPlacer(boxes, position=[0, 0, 0], max_settle_physics_attempts=0)


def test_joint_static_isolator():
  _, _, boxes, physics = _scene(True, 2)
  moved = mjcf.get_frame_freejoint(boxes[0].mjcf_model)
  held = mjcf.get_frame_freejoint(boxes[1].mjcf_model)
  physics.bind(held).qpos[:3] = [1, 1, 1]
  with initializers.JointStaticIsolator(physics, [moved]):
    physics.bind(held).qpos[:3] = [5, 5, 5]
    physics.bind(moved).qpos[:3] = [2, 2, 2]
  np.testing.assert_array_equal(physics.bind(held).qpos[:3], [1, 1, 1])
  np.testing.assert_array_equal(physics.bind(moved).qpos[:3], [2, 2, 2])


def test_primitive_observables_match_dm_control():
  values = {}
  for ours in (False, True):
    _, _, boxes, physics = _scene(ours, 1)
    boxes[0].set_pose(physics, [0.1, 0.2, 0.5], [np.cos(0.3), 0, 0, np.sin(0.3)])
    boxes[0].set_velocity(physics, [1, 0, 0], [0, 0, 2])
    physics.forward()
    obs = boxes[0].observables
    values[ours] = [
      np.asarray(getattr(obs, name)(physics))
      for name in ("position", "orientation", "linear_velocity", "angular_velocity")
    ]
    assert sorted(obs.as_dict()) == [
      "box0/angular_velocity",
      "box0/linear_velocity",
      "box0/orientation",
      "box0/position",
    ]
  for mine, theirs in zip(values[True], values[False]):
    np.testing.assert_allclose(mine, theirs, atol=1e-12)


@pytest.mark.parametrize("retain", [False, True])
def test_position_detector_matches_dm_control(retain):
  """A ball thrown through a 2D detector region: detections per control step as dm_control's
  (instantaneous, or retained over substeps)."""
  history = {}
  for ours in (False, True):
    (comp, mjcf_module, _, prop_lib, _), arena, _, _ = _scene(ours, 0)
    ball = prop_lib.Primitive("sphere", [0.05], name="ball")
    arena.add_free_entity(ball)
    detector = prop_lib.PositionDetector(
      pos=[0.5, 0], size=[0.1, 0.5], retain_substep_detections=retain
    )
    arena.attach(detector)
    detector.register_entities(ball)

    class Throw(comp.NullTask):
      def initialize_episode(self, physics, random_state):
        ball.set_pose(physics, [0, 0, 0.5])
        ball.set_velocity(physics, [9.0, 0, 0])

    task = Throw(arena)
    task.set_timesteps(0.02, 0.002)
    env = comp.Environment(task)
    env.reset()
    record = [(detector.activated, len(detector.detected_entities))]
    for _ in range(8):
      env.step(np.zeros(0))
      record.append((bool(detector.activated), len(detector.detected_entities)))
    history[ours] = record
  assert history[True] == history[False]
  assert any(n for _, n in history[True])


def test_prop_placer_with_noise_matches_dm_control():
  """Relative (noise) position variations: same accepted poses as dm_control."""
  poses = {}
  for ours in (False, True):
    (comp, _, inits, _, dists), _, boxes, physics = _scene(ours, 3)
    for i, box in enumerate(boxes):
      box.set_pose(physics, [0.0, 0.0, 0.12 + 0.001 * i])
    if ours:
      from composer.variation import noises as noise_lib
    else:
      from dm_control.composer.variation import noises as noise_lib
    placer = inits.PropPlacer(
      boxes,
      position=noise_lib.Additive(dists.Normal([0, 0, 0], [0.1, 0.1, 0])),
      max_attempts_per_prop=200,
    )
    placer(physics, np.random.RandomState(3))
    poses[ours] = np.concatenate([np.concatenate(b.get_pose(physics)) for b in boxes])
  np.testing.assert_allclose(poses[True], poses[False], rtol=0, atol=1e-12)
