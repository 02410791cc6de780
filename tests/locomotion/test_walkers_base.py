"""`walkers.base` and `walkers.legacy_base` against dm_control 1.0.50's: the same small walker
(tests/locomotion/twin_walkers.py) built on both stacks gives the same observables, groups,
action spec, controls, contacts and frame transforms for the same physics state."""

import numpy as np
import pytest

from tests.locomotion import twin_walkers as tw
from tests.locomotion import walker_parity as wp

# kinematic readings agree to rounding (walker_parity); readings through the contact solver
# (forces, touch, accelerations) to the solver's convergence
DYNAMIC_RTOL = 1e-6
DYNAMIC_ATOL = 1e-7
_DYNAMIC = ("sensors_accelerometer", "sensors_force", "sensors_torque", "sensors_touch")

STANDING = tw.critter_state(seed=0)
# on its side: the torso and the lower leg rest on the floor
LYING = (
  np.array([0.1, 0.2, 0.095, np.cos(np.pi / 4), np.sin(np.pi / 4), 0, 0, 0.2, -0.3, 0.1, 0.05]),
  np.linspace(-0.4, 0.5, 10),
)


def _build(ours, walker_class=tw.critter_class, **kwargs):
  ns = tw.namespace(ours)
  walker = walker_class(ns)(**kwargs)
  arena = tw.arena_with(ns, walker)
  physics = ns.mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  return ns, walker, arena, physics


def _readings(walker, physics, skip=("egocentric_camera", "prev_action")):
  """{name: reading} of every observable of `walker` (without the renderer and prev_action)."""
  return {
    name: np.asarray(obs.observation_callable(physics, np.random.RandomState(0))())
    for name, obs in walker.observables.as_dict(fully_qualified=False).items()
    if name not in skip
  }


def _assert_readings_equal(ours, theirs):
  wp.assert_readings_match(ours, theirs, _DYNAMIC, rtol=DYNAMIC_RTOL, atol=DYNAMIC_ATOL)


@pytest.mark.parametrize("state", [STANDING, LYING], ids=["standing", "lying"])
def test_legacy_observables_match_dm_control(state):
  """Every observable (keys in dm_control's order) at the same state, torso velocities after
  the substep hook refreshed the subtree velocities."""
  results = {}
  for ours in (True, False):
    _, walker, _, physics = _build(ours)
    walker.after_compile(physics, np.random.RandomState(0))
    tw.set_state(physics, *state)
    walker.after_substep(physics, np.random.RandomState(0))
    results[ours] = (list(walker.observables.as_dict()), _readings(walker, physics))
  assert results[True][0] == results[False][0]
  _assert_readings_equal(results[True][1], results[False][1])


def test_legacy_observables_of_a_standing_critter():
  """Readings with a known value: feet touch the floor (flags 1), the upward rangefinder
  sees nothing (10), the downward one 10 tanh(d / 10), body height and world z axis."""
  _, walker, _, physics = _build(ours=True)
  tw.set_state(physics, *STANDING)
  readings = _readings(walker, physics)
  np.testing.assert_array_equal(readings["sensors_touch"], [1.0, 1.0])
  distance = physics.bind(walker.mjcf_model.sensor.rangefinder).sensordata
  np.testing.assert_allclose(
    readings["sensors_rangefinder"], [10 * np.tanh(distance[0] / 10), 10.0], rtol=1e-15
  )
  assert readings["body_height"] == STANDING[0][2]
  xmat = physics.bind(walker.root_body).xmat.reshape(3, 3)
  np.testing.assert_allclose(readings["world_zaxis"], xmat[2], rtol=0, atol=1e-15)
  feet = physics.bind(list(walker.end_effectors)).xpos
  torso = physics.bind(walker.root_body).xpos
  np.testing.assert_allclose(
    readings["end_effectors_pos"], ((feet - torso) @ xmat).ravel(), atol=1e-12
  )


def test_camera_observable_spec_matches_dm_control():
  specs = [_build(ours)[1].observables.egocentric_camera.array_spec for ours in (True, False)]
  assert specs[0] == specs[1]
  assert specs[0].shape == (64, 64, 3) and specs[0].dtype == np.uint8


@pytest.mark.parametrize("state", [STANDING, LYING], ids=["standing", "lying"])
def test_contacts_match_dm_control(state):
  """Geom ids of end effectors and body, and the summed normal forces of their contacts."""
  results = {}
  for ours in (True, False):
    _, walker, _, physics = _build(ours)
    walker.after_compile(physics, np.random.RandomState(0))
    tw.set_state(physics, *state)
    results[ours] = (
      walker.end_effector_geom_ids,
      walker.body_geom_ids,
      walker.end_effector_contacts(physics),
      walker.body_contacts(physics),
    )
  mine, theirs = results[True], results[False]
  assert mine[0] == theirs[0] and mine[1] == theirs[1]
  assert not mine[0] & mine[1]
  for got, want in zip(mine[2:], theirs[2:]):
    assert sorted(got) == sorted(want)
    assert all(isinstance(geom, int) for pair in got for geom in pair)
    for pair, force in want.items():
      np.testing.assert_allclose(got[pair], force, rtol=DYNAMIC_RTOL, atol=DYNAMIC_ATOL)
  # standing, only the feet touch the floor; lying, the torso does too
  assert theirs[2] and bool(theirs[3]) == (state is LYING)


def _group_names(walker):
  """The observable names in each semantic group, found by identity."""
  names = {}
  for entity in walker.iter_entities():
    for name, obs in entity.observables.as_dict().items():
      names[id(obs)] = name
  return {
    group: [names[id(obs)] for obs in getattr(walker.observables, group)]
    for group in ("proprioception", "kinematic_sensors", "dynamic_sensors")
  }


@pytest.mark.parametrize(
  "walker_class", [tw.critter_class, tw.simple_walker_class], ids=["legacy", "base"]
)
def test_observable_groups_match_dm_control(walker_class):
  """proprioception, kinematic_sensors and dynamic_sensors, with an attached walker's groups
  appended after the walker's own."""
  groups = {}
  for ours in (True, False):
    ns, walker, _, _ = _build(ours, walker_class)
    mount = walker.root_body.add("site", name="mount", pos=[0, 0, 0.1])
    walker.attach(tw.critter_class(ns)(name="rider"), mount)
    groups[ours] = _group_names(walker)
  assert groups[True] == groups[False]
  own = walker.mjcf_model.model
  assert groups[True]["proprioception"][-5:] == [
    f"{own}/rider/{name}"
    for name in ("joints_pos", "joints_vel", "body_height", "end_effectors_pos", "world_zaxis")
  ]


def test_base_walker_observables_match_dm_control():
  """A plain `base.Walker`: joint positions and the gyro, accelerometer and framequat."""
  results = {}
  for ours in (True, False):
    _, walker, _, physics = _build(ours, tw.simple_walker_class)
    tw.set_state(physics, *STANDING)
    results[ours] = _readings(walker, physics, skip=())
  assert list(results[True]) == [
    "joints_pos",
    "sensors_accelerometer",
    "sensors_framequat",
    "sensors_gyro",
  ]
  _assert_readings_equal(results[True], results[False])


def test_egocentric_transforms_match_dm_control():
  """Vectors (3-d, 2-d, batches) and xmats ((3, 3) and (9,)) into the turned torso's frame:
  dm_control's numbers, and the analytic ones of a quarter turn about z."""
  vectors = [[0, 1, 0], [-1, 0, 0], [0, 0, 1], [0, 1], [[1.0, 2.0, 3.0], [0.5, -1, 2]]]
  xmat = np.array([[0, 1, 0], [0, 0, -1], [-1, 0, 0]], float)
  results = {}
  for ours in (True, False):
    ns = tw.namespace(ours)
    walker = tw.simple_walker_class(ns)()
    physics = ns.mjcf.Physics.from_mjcf_model(walker.mjcf_model)
    results[ours] = [walker.transform_vec_to_egocentric_frame(physics, v) for v in vectors] + [
      walker.transform_xmat_to_egocentric_frame(physics, xmat),
      walker.transform_xmat_to_egocentric_frame(physics, xmat.ravel()),
    ]
  for mine, theirs in zip(results[True], results[False]):
    assert np.shape(mine) == np.shape(theirs)
    np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-15)
  np.testing.assert_allclose(results[True][0], [1, 0, 0], atol=1e-15)
  np.testing.assert_allclose(results[True][3], [1, 0], atol=1e-15)
  np.testing.assert_allclose(results[True][5], [[0, 0, -1], [0, -1, 0], [-1, 0, 0]], atol=1e-15)


def test_egocentric_transform_errors():
  _, walker, _, physics = _build(ours=True)
  with pytest.raises(ValueError, match="final dimension 2 or 3"):
    walker.transform_vec_to_egocentric_frame(physics, [1.0, 2.0, 3.0, 4.0])
  with pytest.raises(ValueError, match=r"\(3, 3\) or \(9,\)"):
    walker.transform_xmat_to_egocentric_frame(physics, np.eye(4))


def test_added_egocentric_observables_match_dm_control():
  """add_egocentric_vector (with and without an origin) and add_egocentric_xmat, with their
  options, read another body's pose in the walker's frame."""
  results = {}
  for ours in (True, False):
    ns, walker, arena, physics = _build(ours)
    target = arena.mjcf_model.worldbody.add(
      "body", name="target", pos=[1.0, -2.0, 0.5], euler=[0.3, -0.2, 1.1]
    )
    physics = ns.mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    tw.set_state(physics, *STANDING)
    observables = walker.observables
    where = ns.observable.MJCFFeature("xpos", target)
    observables.add_egocentric_vector("target_direction", where)
    observables.add_egocentric_vector(
      "target_offset",
      where,
      buffer_size=2,
      origin_callable=lambda physics: physics.bind(walker.root_body).xpos,
    )
    observables.add_egocentric_xmat(
      "target_frame", ns.observable.MJCFFeature("xmat", target), enabled=False
    )
    added = [
      observables.get_observable(name)
      for name in ("target_direction", "target_offset", "target_frame")
    ]
    results[ours] = [obs.observation_callable(physics)() for obs in added] + [
      [obs.enabled for obs in added],
      added[1].buffer_size,
    ]
  for mine, theirs in zip(results[True], results[False]):
    np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-12)


def test_action_spec_and_apply_action_match_dm_control():
  """Bounds from each actuator's own ctrlrange, else [-1, 1]; tab-joined names; controls."""
  results = {}
  for ours in (True, False):
    _, walker, _, physics = _build(ours)
    spec = walker.action_spec
    walker.apply_action(physics, [0.3, -0.4, 2.5, -0.9], np.random.RandomState(0))
    controls = physics.data.ctrl.copy()
    walker.apply_action(physics, 0.25, None)
    results[ours] = spec, controls, physics.data.ctrl.copy()
  (spec, *mine), (theirs_spec, *theirs) = results[True], results[False]
  assert (spec.shape, spec.dtype, spec.name) == (
    theirs_spec.shape,
    theirs_spec.dtype,
    theirs_spec.name,
  )
  assert spec.name == "left_hip\tleft_knee\tright_hip\tright_knee"
  np.testing.assert_array_equal(spec.minimum, theirs_spec.minimum)
  np.testing.assert_array_equal(spec.maximum, theirs_spec.maximum)
  np.testing.assert_array_equal(spec.minimum, [-1, -0.5, -2, -1])
  for got, want in zip(mine, theirs):
    np.testing.assert_array_equal(got, want)


def test_apply_action_of_the_wrong_size():
  _, walker, _, physics = _build(ours=True)
  with pytest.raises(ValueError, match=r"action of shape \(3,\) for 4 actuators"):
    walker.apply_action(physics, [0.1, 0.2, 0.3], None)


def test_walker_without_actuators_has_an_empty_action_spec():
  for ours in (True, False):
    ns = tw.namespace(ours)

    class Limbless(ns.base.Walker):
      def _build(self):
        self._model = ns.mjcf.RootElement(model="limbless")
        self._body = self._model.worldbody.add("body", name="torso")

      mjcf_model = property(lambda self: self._model)
      actuators = property(lambda self: ())
      root_body = property(lambda self: self._body)
      observable_joints = property(lambda self: ())

    spec = Limbless().action_spec
    assert spec.shape == (0,) and spec.name == ""


def test_root_joints_and_attaching_twice():
  """create_root_joints gives the attachment frame a free joint; a walker attaches once."""
  ns, walker, arena, physics = _build(ours=True)
  assert ns.mjcf.get_frame_freejoint(walker.mjcf_model) is not None
  assert physics.model.nq == 7 + 4
  walker.set_pose(physics, [1, 2, 3], [0, 0, 0, 1])
  np.testing.assert_array_equal(np.concatenate(walker.get_pose(physics)), [1, 2, 3, 0, 0, 0, 1])
  with pytest.raises(ValueError, match="already attached"):
    arena.attach(walker)


def test_walker_pose_matches_dm_control():
  poses = {}
  for ours in (True, False):
    ns = tw.namespace(ours)
    default = ns.base.WalkerPose()
    given = ns.base.WalkerPose(qpos=[1, 2], xpos=[0, 0, 1], xquat=[0, 1, 0, 0])
    poses[ours] = default, given
    assert default.qpos is None and not given.xpos.flags.writeable
    assert given.qpos.dtype == np.float64
    assert given == ns.base.WalkerPose(qpos=[1.0, 2.0], xpos=[0, 0, 1.0], xquat=[0, 1, 0, 0])
    assert not given == default
  for mine, theirs in zip(poses[True], poses[False]):
    for a, b in zip(mine, theirs):
      np.testing.assert_array_equal(a, b)


def test_walker_pose_errors():
  from suite.locomotion.walkers import base

  with pytest.raises(ValueError, match="xpos"):
    base.WalkerPose(xpos=[0, 1])
  with pytest.raises(ValueError, match="xquat"):
    base.WalkerPose(xquat=[1, 0, 0])


def test_legacy_walker_accessors_match_dm_control():
  """touch_sensors, mocap joint orders, actuator forces, aliveness and the default upright
  pose; prev_action is not recorded by default, on both."""
  results = {}
  for ours in (True, False):
    _, walker, _, physics = _build(ours)
    tw.set_state(physics, *STANDING)
    walker.apply_action(physics, [0.5, -0.3, 1.0, 0.2], None)
    physics.forward()
    with pytest.raises(NotImplementedError):
      walker.observables.prev_action.observation_callable(physics)()
    results[ours] = (
      [s.name for s in walker.touch_sensors],
      [j.name for j in walker.mocap_joints],
      walker.mocap_to_observable_joint_order,
      walker.observable_to_mocap_joint_order,
      walker.actuator_force(physics).copy(),
      walker.aliveness(physics),
      walker.upright_pose.qpos,
      walker.obs_on_other,
      [s.name for s in walker.end_effectors_pos_sensors],
    )
  for mine, theirs in zip(results[True], results[False]):
    if isinstance(theirs, np.ndarray):
      np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=1e-12)
    else:
      assert mine == theirs


def test_legacy_walker_rejects_an_object_that_is_not_an_initializer():
  ns = tw.namespace(ours=True)
  with pytest.raises(TypeError, match="initialize_pose"):
    tw.critter_class(ns)(initializer=[ns.initializers.NoOpInitializer(), "upright"])
