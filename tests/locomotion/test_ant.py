"""The Ant against dm_control 1.0.50's: compiled model, observables at the same state, action
spec, previous action, aliveness and its element lists."""

import numpy as np
import pytest

from tests.locomotion import walker_parity as wp

_DYNAMIC = ("sensors_accelerometer", "sensors_touch")
_RED = (1.0, 0.0, 0.0, 1.0)


@pytest.mark.parametrize(
  "kwargs", [{}, {"name": "ant", "marker_rgba": _RED}], ids=["default", "marked"]
)
def test_compiled_model_matches_dm_control(kwargs):
  """Field by field, the walker in an arena with its free joint and the sensors its
  observables add; marker_rgba colours the two front hip segments."""
  (_, ours), (_, theirs) = wp.build_pair(lambda walkers: walkers.Ant(**kwargs))
  wp.assert_models_match(ours.model, theirs.model)
  name = kwargs.get("name", "walker")
  if kwargs:
    for side in ("front_left", "front_right"):
      geom = ours.model.name2id(f"{name}/{side}_leg_geom", "geom")
      np.testing.assert_array_equal(ours.model.geom_rgba[geom], _RED)


def test_compiled_totals():
  """Sizes (bodies: world, attachment frame, torso, three per leg; sites: 26 on the torso, two
  touch pads per leg) and the mass (torso ball at 100 kg/m^3, leg capsules at 50)."""
  (walker, physics), _ = wp.build_pair(lambda walkers: walkers.Ant())
  m = physics.model
  sizes = dict(nq=15, nv=14, nu=8, nbody=15, njnt=9, ngeom=14, nsite=34, ncam=4, nexclude=4)
  assert {key: getattr(m, key) for key in sizes} == sizes
  torso = 4 / 3 * np.pi * 0.25**3 * 100
  capsule = (np.pi * 0.08**2 * np.sqrt(0.08) + 4 / 3 * np.pi * 0.08**3) * 50  # 0.283 m
  long_capsule = (np.pi * 0.08**2 * np.sqrt(0.32) + 4 / 3 * np.pi * 0.08**3) * 50
  mass = m.body_subtreemass[m.name2id("walker/torso", "body")]
  np.testing.assert_allclose(mass, torso + 4 * (2 * capsule + long_capsule), rtol=1e-12)
  assert len(walker.observables.proprioception) == 8


def test_observables_match_dm_control():
  """Every observable (the previous action included) after the same action, at a state
  dm_control reached by walking randomly."""
  (ours, our_physics), (theirs, their_physics) = wp.build_pair(lambda walkers: walkers.Ant())
  wp.settle(their_physics, steps=300)
  wp.copy_state(their_physics, our_physics)
  action = np.linspace(-0.9, 0.8, 8)
  for walker, physics in ((ours, our_physics), (theirs, their_physics)):
    walker.apply_action(physics, action, np.random.RandomState(0))
    physics.forward()
    walker.after_substep(physics, np.random.RandomState(0))
  mine, expected = wp.readings(ours, our_physics), wp.readings(theirs, their_physics)
  wp.assert_readings_match(mine, expected, dynamic=_DYNAMIC)
  np.testing.assert_array_equal(mine["walker/prev_action"], action)
  assert their_physics.data.ncon > 0
  assert len(mine["walker/bodies_quats"]) == 4 * 13
  assert len(mine["walker/bodies_pos"]) == 3 * 13
  assert len(mine["walker/appendages_pos"]) == 3 * 4


def test_action_spec_matches_dm_control():
  (ours, _), (theirs, _) = wp.build_pair(lambda walkers: walkers.Ant())
  wp.assert_action_specs_equal(ours.action_spec, theirs.action_spec)
  assert ours.action_spec.shape == (8,)
  np.testing.assert_array_equal(ours.action_spec.minimum, -1)


def test_prev_action_is_recorded_and_reset():
  (walker, physics), _ = wp.build_pair(lambda walkers: walkers.Ant())
  np.testing.assert_array_equal(walker.prev_action, np.zeros(8))
  walker.apply_action(physics, np.full(8, 0.5), None)
  np.testing.assert_array_equal(walker.prev_action, 0.5)
  np.testing.assert_array_equal(physics.data.ctrl, 0.5)
  walker.initialize_episode(physics, np.random.RandomState(0))
  np.testing.assert_array_equal(walker.prev_action, np.zeros(8))


@pytest.mark.parametrize(
  "quaternion,expected",
  [
    ([1, 0, 0, 0], 0.0),
    ([0, 1, 0, 0], -1.0),
    ([np.cos(np.pi / 8), np.sin(np.pi / 8), 0, 0], (np.cos(np.pi / 4) - 1) / 2),
  ],
)
def test_aliveness_matches_dm_control(quaternion, expected):
  """(zz - 1) / 2: 0 upright, -1 upside down."""
  values = []
  for walker, physics in wp.build_pair(lambda walkers: walkers.Ant()):
    walker.set_pose(physics, [0, 0, 1], quaternion)
    physics.forward()
    values.append(walker.aliveness(physics))
  np.testing.assert_allclose(values, [expected] * 2, atol=1e-15)


def test_element_lists_match_dm_control():
  """End effectors, ground-contact geoms, bodies, joints, sensors' names, upright pose and
  contact bookkeeping."""
  lists = []
  for walker, _ in wp.build_pair(lambda walkers: walkers.Ant()):
    lists.append(
      [
        [body.name for body in walker.end_effectors],
        [geom.name for geom in walker.ground_contact_geoms],
        [body.name for body in walker.bodies],
        [body.name for body in walker.mocap_tracking_bodies],
        [joint.name for joint in walker.mocap_joints],
        [joint.name for joint in walker.observable_joints],
        [sensor.name for sensor in walker.touch_sensors],
        [geom.name for geom in walker.marker_geoms],
        [
          sensor.name
          for sensor in walker.appendages_sensors
          + walker.bodies_pos_sensors
          + walker.bodies_quats_sensors
          + walker.end_effectors_pos_sensors
        ],
        walker.root_body.name,
        walker.egocentric_camera.name,
        walker.upright_pose.qpos,
        sorted(walker.end_effector_geom_ids),
        sorted(walker.body_geom_ids),
      ]
    )
  assert lists[0] == lists[1]


def test_upright_initializer_matches_dm_control():
  states = []
  for walker, physics in wp.build_pair(lambda walkers: walkers.Ant()):
    physics.data.qpos[:] = np.random.RandomState(3).uniform(-0.3, 0.3, physics.model.nq)
    physics.data.qvel[:] = 1.0
    walker.reinitialize_pose(physics, np.random.RandomState(0))
    states.append(np.concatenate([physics.data.qpos, physics.data.qvel]))
  np.testing.assert_array_equal(states[0], states[1])
  np.testing.assert_array_equal(states[0][:15], [0, 0, 0, 1, 0, 0, 0] + [0] * 8)
