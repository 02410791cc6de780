"""The ball walkers (JumpingBallWithHead, RollingBallWithHead) against dm_control 1.0.50's:
compiled models of every variant, observables at the same state, action specs, set_pose on
slide and free root joints, and the camera mount's gravity compensation."""

import numpy as np
import pytest

from tests.locomotion import walker_parity as wp

_DYNAMIC = ("sensors_accelerometer",)
_VARIANTS = {
  "jumping": lambda walkers: walkers.JumpingBallWithHead(),
  "camera_control": lambda walkers: walkers.JumpingBallWithHead(
    camera_control=True, add_ears=True, camera_height=0.5, marker_rgba=(0.2, 0.3, 0.4, 1)
  ),
  "rolling": lambda walkers: walkers.RollingBallWithHead(name="roller"),
  "rolling_camera": lambda walkers: walkers.RollingBallWithHead(camera_control=True),
}


@pytest.mark.parametrize("variant", list(_VARIANTS))
def test_compiled_model_matches_dm_control(variant):
  (_, ours), (_, theirs) = wp.build_pair(_VARIANTS[variant])
  wp.assert_models_match(ours.model, theirs.model)


def test_variants_have_dm_control_degrees_of_freedom():
  """Root slides, steer, kick and roll; the camera mount adds two joints and actuators, the
  rolling ball drops the kick; the ears are two more sites."""
  expected = {
    "jumping": (6, 3, 1),
    "camera_control": (8, 5, 3),
    "rolling": (5, 2, 1),
    "rolling_camera": (7, 4, 1),
  }
  for variant, (njnt, nu, nsite) in expected.items():
    (_, physics), _ = wp.build_pair(_VARIANTS[variant])
    assert (physics.model.njnt, physics.model.nu, physics.model.nsite) == (njnt, nu, nsite)
  (walker, physics), _ = wp.build_pair(_VARIANTS["camera_control"])
  assert physics.bind(walker.mjcf_model.find("body", "egocentric_camera")).pos[2] == 0.5
  np.testing.assert_allclose(
    physics.bind(walker.marker_geoms[0]).rgba, (0.2, 0.3, 0.4, 1), rtol=1e-7
  )  # stored as float32


def test_ball_texture_is_a_builtin_cube_map():
  """The shell's material carries a cube texture, as dm_control's: ours a builtin checker,
  theirs a PNG."""
  kinds = []
  for _, physics in wp.build_pair(_VARIANTS["jumping"]):
    material = physics.model.geom_matid[physics.model.name2id("walker/shell", "geom")]
    texture = np.max(physics.model.mat_texid[material])
    kinds.append(physics.model.tex_type[texture])
  assert kinds == [1, 1]  # mjTEXTURE_CUBE


@pytest.mark.parametrize("variant", list(_VARIANTS))
def test_observables_match_dm_control(variant):
  """Every observable at a state dm_control reached by rolling (and jumping) randomly."""
  (ours, our_physics), (theirs, their_physics) = wp.build_pair(_VARIANTS[variant])
  for walker, physics in ((ours, our_physics), (theirs, their_physics)):
    walker.initialize_episode(physics, np.random.RandomState(0))
  wp.settle(their_physics, steps=250)
  wp.copy_state(their_physics, our_physics)
  for walker, physics in ((ours, our_physics), (theirs, their_physics)):
    walker.after_substep(physics, np.random.RandomState(0))
  skip = ("egocentric_camera", "prev_action")
  wp.assert_readings_match(
    wp.readings(ours, our_physics, skip), wp.readings(theirs, their_physics, skip), dynamic=_DYNAMIC
  )


@pytest.mark.parametrize("variant", list(_VARIANTS))
def test_action_spec_matches_dm_control(variant):
  (ours, our_physics), (theirs, their_physics) = wp.build_pair(_VARIANTS[variant])
  wp.assert_action_specs_equal(ours.action_spec, theirs.action_spec)
  action = np.linspace(-1, 1, ours.action_spec.shape[0])
  ours.apply_action(our_physics, action, None)
  theirs.apply_action(their_physics, action, None)
  np.testing.assert_array_equal(our_physics.data.ctrl, their_physics.data.ctrl)


def test_rolling_ball_observes_no_joints():
  (walker, physics), _ = wp.build_pair(_VARIANTS["rolling"])
  assert walker.observable_joints == []
  assert walker.observables.joints_pos.observation_callable(physics)().shape == (0,)


@pytest.mark.parametrize(
  "position,quaternion",
  [
    ([0.5, -1.0, 0.2], [np.cos(0.4), 0, 0, np.sin(0.4)]),
    ([0.1, 0.2, 0.3], [0.3, 0.2, -0.5, 0.7]),
    (None, [0, 0, 0, 1]),
    ([1.0, 2.0, 0.0], None),
  ],
)
def test_set_pose_on_slide_joints_matches_dm_control(position, quaternion):
  """The position goes to the root slides, the joints are zeroed, and the quaternion's yaw
  to the steer joint."""
  states = []
  for walker, physics in wp.build_pair(_VARIANTS["camera_control"]):
    physics.data.qpos[:] = 0.3
    walker.set_pose(physics, position, quaternion)
    states.append(physics.data.qpos.copy())
  np.testing.assert_allclose(states[0], states[1], rtol=0, atol=1e-15)
  if quaternion is not None and quaternion[1:3] == [0, 0]:
    steer = 3
    np.testing.assert_allclose(
      states[0][steer], 2 * np.arctan2(quaternion[3], quaternion[0]), atol=1e-15
    )


def _free_ball(ours):
  walkers, composer, mjcf = wp.namespaces(ours)
  walker = walkers.JumpingBallWithHead()
  arena = composer.Arena()
  arena.add_free_entity(walker)
  return walker, mjcf.Physics.from_mjcf_model(arena.mjcf_model)


def test_set_pose_on_a_free_joint_matches_dm_control():
  """Without its slide joints the ball moves its free joint (orientation left alone)."""
  states = []
  for ours in (True, False):
    walker, physics = _free_ball(ours)
    walker.set_pose(physics, [0.2, 0.4, 0.6], [np.cos(0.3), 0, 0, np.sin(0.3)])
    states.append(physics.data.qpos.copy())
  np.testing.assert_allclose(states[0], states[1], rtol=0, atol=1e-15)
  np.testing.assert_allclose(states[0][:7], [0.2, 0.4, 0.6, 1, 0, 0, 0])


def test_camera_mount_gravity_compensation_matches_dm_control():
  """With camera control, initialize_episode holds the 1 kg mount up: -m g on its body."""
  forces = []
  for walker, physics in wp.build_pair(_VARIANTS["camera_control"]):
    walker.initialize_episode(physics, np.random.RandomState(0))
    forces.append(physics.data.xfrc_applied.copy())
  np.testing.assert_array_equal(forces[0], forces[1])
  (walker, physics), _ = wp.build_pair(_VARIANTS["camera_control"])
  walker.initialize_episode(physics, None)
  mount = physics.model.name2id("walker/egocentric_camera", "body")
  np.testing.assert_allclose(physics.data.xfrc_applied[mount], [0, 0, 9.81, 0, 0, 0])
  assert np.count_nonzero(physics.data.xfrc_applied) == 1


def test_element_lists_match_dm_control():
  lists = []
  for walker, _ in wp.build_pair(_VARIANTS["jumping"]):
    lists.append(
      [
        [body.name for body in walker.end_effectors],
        [geom.name for geom in walker.ground_contact_geoms],
        [joint.name for joint in walker.observable_joints],
        [actuator.name for actuator in walker.actuators],
        walker.root_body.name,
        walker.egocentric_camera.name,
        sorted(walker.end_effector_geom_ids),
        sorted(walker.body_geom_ids),
      ]
    )
  assert lists[0] == lists[1]
