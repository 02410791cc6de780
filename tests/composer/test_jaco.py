"""Kinova Jaco arm and hand (composer.manipulators.kinova) against dm_control's.

The hand is attached to the arm and the arm to an arena, as dm_control.manipulation builds
them. With our primitive shapes every compiled field but the geoms' shapes is dm_control's;
with `mesh_dir` pointing at dm_control's meshes the whole model is. Observables are compared at
the same states; the primitives are checked against the hulls of dm_control's meshes.
"""

import importlib.util
import os

import numpy as np
import pytest
from scipy import spatial

import composer
import mjcf
from composer.manipulators import kinova
from composer.manipulators.kinova import meshes
from engine.enums import mjtGeom
from tests.locomotion import walker_parity  # sets MUJOCO_GL before dm_control is imported

MESH_DIR = os.path.join(
  os.path.dirname(importlib.util.find_spec("dm_control").origin),
  "third_party",
  "kinova",
  "meshes_decimated",
)
# the geoms' shapes: what the primitives change
_GEOMETRY = ("geom_type", "geom_size", "geom_pos", "geom_quat", "geom_rbound")
_MESH_FIELDS = (
  "geom_dataid",
  "geom_aabb",
  "mesh_vertadr",
  "mesh_vertnum",
  "mesh_faceadr",
  "mesh_facenum",
  "mesh_vert",
  "mesh_face",
  "mesh_pos",
  "mesh_quat",
)


@pytest.fixture(autouse=True)
def _no_mesh_dir_from_environment(monkeypatch):
  monkeypatch.delenv(meshes.MESH_DIR_ENV, raising=False)


def _stack(ours):
  if ours:
    return composer, mjcf, kinova
  from dm_control import composer as dm_composer  # noqa: PLC0415
  from dm_control import mjcf as dm_mjcf  # noqa: PLC0415
  from dm_control.entities.manipulators import kinova as dm_kinova  # noqa: PLC0415

  return dm_composer, dm_mjcf, dm_kinova


def build(ours, mesh_dir=None, use_pinch_site_as_tcp=False):
  """(arm, hand, physics): the hand on the arm's wrist, the arm in an empty arena."""
  composer_, mjcf_, kinova_ = _stack(ours)
  extra = dict(mesh_dir=mesh_dir) if ours else {}
  arm = kinova_.JacoArm(**extra)
  hand = kinova_.JacoHand(use_pinch_site_as_tcp=use_pinch_site_as_tcp, **extra)
  arm.attach(hand)
  arena = composer_.Arena()
  arena.mjcf_model.option.tolerance = 1e-14  # constraint forces converged on both engines
  arena.attach(arm)
  return arm, hand, mjcf_.Physics.from_mjcf_model(arena.mjcf_model)


def ids(elements):
  return [element.full_identifier for element in elements]


def test_compiled_model_equals_dm_controls_but_the_shapes():
  _, _, ours = build(True)
  _, _, theirs = build(False)
  walker_parity.assert_models_match(ours.model, theirs.model, skip=_GEOMETRY)
  assert ours.model.nmesh == 0
  assert not np.any(np.asarray(ours.model.geom_type) == int(mjtGeom.mjGEOM_MESH))


def test_with_kinovas_meshes_the_compiled_model_is_dm_controls():
  _, _, ours = build(True, mesh_dir=MESH_DIR)
  _, _, theirs = build(False)
  walker_parity.assert_models_match(ours.model, theirs.model)
  assert ours.model.nmesh == theirs.model.nmesh == 9
  assert walker_parity.names(ours.model, "mesh", 9) == walker_parity.names(theirs.model, "mesh", 9)
  for field in _MESH_FIELDS:
    np.testing.assert_allclose(
      np.asarray(getattr(ours.model, field)),
      np.asarray(getattr(theirs.model, field)),
      rtol=1e-9,
      atol=1e-12,
      err_msg=field,
    )


def test_mesh_dir_from_the_environment(monkeypatch):
  monkeypatch.setenv(meshes.MESH_DIR_ENV, MESH_DIR)
  arm, hand, physics = build(True)
  assert physics.model.nmesh == 9

  def mesh_geoms(entity):
    geoms = entity.mjcf_model.find_all("geom", exclude_attachments=True)
    return list(physics.bind(geoms).type).count(int(mjtGeom.mjGEOM_MESH))

  assert (mesh_geoms(arm), mesh_geoms(hand)) == (6, 8)


def test_missing_mesh_files_are_named(tmp_path):
  (tmp_path / "base.stl").write_bytes(open(os.path.join(MESH_DIR, "base.stl"), "rb").read())
  with pytest.raises(
    FileNotFoundError,
    match=r"shoulder\.stl, arm\.stl, forearm\.stl, "
    r"wrist\.stl$",
  ):
    kinova.JacoArm(mesh_dir=tmp_path)
  with pytest.raises(FileNotFoundError, match="hand_3finger_main.stl"):
    kinova.JacoHand(mesh_dir=tmp_path)


@pytest.mark.parametrize("use_pinch_site_as_tcp", [False, True])
def test_elements_exposed_are_dm_controls(use_pinch_site_as_tcp):
  ours = build(True, use_pinch_site_as_tcp=use_pinch_site_as_tcp)
  theirs = build(False, use_pinch_site_as_tcp=use_pinch_site_as_tcp)
  (arm, hand, _), (dm_arm, dm_hand, _) = ours, theirs
  for name in ("joints", "actuators", "joint_torque_sensors"):
    assert ids(getattr(arm, name)) == ids(getattr(dm_arm, name)), name
  for name in ("wrist_site", "attachment_site"):
    assert getattr(arm, name).full_identifier == getattr(dm_arm, name).full_identifier, name
  for name in ("joints", "actuators", "hand_geom", "finger_geoms"):
    assert ids(getattr(hand, name)) == ids(getattr(dm_hand, name)), name
  for name in ("tool_center_point", "grip_site", "pinch_site"):
    assert getattr(hand, name).full_identifier == getattr(dm_hand, name).full_identifier, name
  assert hand.tool_center_point.name == ("pinchsite" if use_pinch_site_as_tcp else "gripsite")
  assert [joint.name for joint in arm.joints] == [f"joint_{i}" for i in range(1, 7)]
  assert arm.mjcf_model.model == "jaco_arm" and hand.mjcf_model.model == "jaco_hand"
  assert kinova.JacoArm(name="left").mjcf_model.model == "left"


def test_pinch_site_sensors_raise_a_clear_error():
  # dm_control's properties read attributes its JacoHand never sets
  hand = kinova.JacoHand()
  for name in ("pinch_site_pos_sensor", "pinch_site_quat_sensor"):
    with pytest.raises(AttributeError, match=f"JacoHand has no {name}.*pinch_site_pos"):
      getattr(hand, name)


def _random_state(physics, arm, hand, rng):
  """Joints within their sampling bounds, random velocities and controls within range."""
  lower, upper = arm._get_joint_pos_sampling_bounds(physics)
  physics.bind(arm.joints).qpos = rng.uniform(lower, upper)
  low, high = physics.bind(hand.joints).range.T
  physics.bind(hand.joints).qpos = rng.uniform(low, high)
  physics.data.qvel[:] = rng.normal(scale=0.5, size=physics.model.nv)
  low, high = physics.model.actuator_ctrlrange.T
  physics.data.ctrl[:] = rng.uniform(low, high)


def _all_readings(arm, hand, physics):
  readings = walker_parity.readings(arm, physics)
  readings.update(walker_parity.readings(hand, physics))
  return readings


def test_observables_match_at_random_states_without_contacts():
  # contacts are off on both sides: the primitives touch where the meshes may not
  arm, hand, ours = build(True)
  dm_arm, dm_hand, theirs = build(False)
  rng = np.random.RandomState(0)
  keys = [
    "jaco_arm/joints_pos",
    "jaco_arm/joints_vel",
    "jaco_arm/joints_torque",
    "jaco_arm/jaco_hand/joints_pos",
    "jaco_arm/jaco_hand/joints_vel",
    "jaco_arm/jaco_hand/pinch_site_pos",
    "jaco_arm/jaco_hand/pinch_site_rmat",
  ]
  for _ in range(5):
    _random_state(theirs, dm_arm, dm_hand, rng)
    with ours.model.disable("contact"), theirs.model.disable("contact"):
      walker_parity.copy_state(theirs, ours)
      mine, dms = _all_readings(arm, hand, ours), _all_readings(dm_arm, dm_hand, theirs)
    assert sorted(mine) == sorted(keys)
    walker_parity.assert_readings_match(mine, dms, dynamic=("joints_torque",))
    assert np.shape(mine["jaco_arm/joints_pos"]) == (6, 2)


def test_observables_match_with_kinovas_meshes_in_self_contact():
  # dm_control's arm folded onto itself (its wrist and hand pressed into the upper arm: mesh
  # on mesh and ring on mesh) and stepped twice under random controls, copied into ours
  arm, hand, ours = build(True, mesh_dir=MESH_DIR)
  dm_arm, dm_hand, theirs = build(False)
  rng = np.random.RandomState(24)
  dm_arm.randomize_arm_joints(theirs, rng)
  dm_hand.set_grasp(theirs, rng.uniform())
  walker_parity.settle(theirs, steps=2, seed=24)
  walker_parity.copy_state(theirs, ours)
  assert ours.data.ncon == theirs.data.ncon == 6
  walker_parity.assert_readings_match(
    _all_readings(arm, hand, ours),
    _all_readings(dm_arm, dm_hand, theirs),
    dynamic=("joints_torque",),
  )


def test_joints_pos_observable_is_sin_cos():
  arm = kinova.JacoArm()
  physics = mjcf.Physics.from_mjcf_model(arm.mjcf_model)
  angles = np.array([0.0, -0.5 * np.pi, np.pi, 10 * np.pi, 1.0, 2.0])
  physics.bind(arm.joints).qpos = angles
  np.testing.assert_allclose(
    arm.observables.joints_pos(physics),
    np.stack([np.sin(angles), np.cos(angles)], axis=1),
    atol=1e-12,
  )


@pytest.mark.parametrize("joint_index", [0, 2, 4])
@pytest.mark.parametrize("torque", [-6.8, 30.5])
def test_joints_torque_reads_a_torque_applied_to_the_joints_body(joint_index, torque):
  # the sensor measures what the body exerts on its parent: the applied torque, negated
  arm = kinova.JacoArm()
  joint = arm.joints[joint_index]
  physics = mjcf.Physics.from_mjcf_model(arm.mjcf_model)
  with physics.model.disable("gravity", "limit", "contact", "actuation"):
    physics.bind(joint.parent).xfrc_applied[3:] = torque * physics.bind(joint).xaxis
    observed = arm.observables.joints_torque(physics)[joint_index]
  assert observed == pytest.approx(-torque, abs=0.1)


@pytest.mark.parametrize("close_factors", [0.0, 1.0, 0.25, (0.0, 0.5, 1.0)])
def test_set_grasp(close_factors):
  hand = kinova.JacoHand()
  physics = mjcf.Physics.from_mjcf_model(hand.mjcf_model)
  physics.data.ctrl[:] = 3.0
  hand.set_grasp(physics, close_factors)
  factors = np.broadcast_to(close_factors, (3,))
  np.testing.assert_allclose(physics.bind(hand.joints).qpos, 0.15 + 1.2 * factors, atol=1e-15)
  np.testing.assert_array_equal(physics.data.ctrl, 0.0)
  # and the pose is propagated (after_reset runs forward), as dm_control's
  dm_hand, theirs = _dm_hand()
  dm_hand.set_grasp(theirs, close_factors)
  np.testing.assert_array_equal(physics.data.qpos, theirs.data.qpos)
  np.testing.assert_allclose(physics.data.xpos, theirs.data.xpos, atol=1e-12)


def _dm_hand():
  _, mjcf_, kinova_ = _stack(False)
  hand = kinova_.JacoHand()
  return hand, mjcf_.Physics.from_mjcf_model(hand.mjcf_model)


def _inside(geom_type, size, points):
  """Whether `points` (in the geom's frame) lie in the primitive."""
  if geom_type == mjtGeom.mjGEOM_BOX:
    return np.all(np.abs(points) <= size, axis=1)
  radius, half = size[:2]
  radial = np.hypot(points[:, 0], points[:, 1])
  if geom_type == mjtGeom.mjGEOM_CYLINDER:
    return (radial <= radius) & (np.abs(points[:, 2]) <= half)
  assert geom_type == mjtGeom.mjGEOM_CAPSULE
  axial = np.abs(points[:, 2]) - np.minimum(np.abs(points[:, 2]), half)
  return np.hypot(radial, axial) <= radius


def _rotation(quat):
  """The rotation matrix of a quaternion (w, x, y, z)."""
  quat = np.asarray(quat, dtype=np.float64)
  w, x, y, z = quat / np.linalg.norm(quat)
  return np.array(
    [
      [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]
  )


def _frame(physics, geom):
  """(position, rotation matrix) of a geom in its body's frame."""
  return (
    np.asarray(physics.model.geom_pos[geom], dtype=np.float64),
    _rotation(physics.model.geom_quat[geom]),
  )


def test_primitives_overlap_the_mesh_hulls():
  # each primitive shares at least 2/3 of the union of itself and the hull of dm_control's
  # mesh, in the body's frame (the fit maximised this ratio: 0.73 to 0.93)
  _, _, ours = build(True)
  _, _, theirs = build(False)
  rng = np.random.RandomState(0)
  for geom in range(theirs.model.ngeom):
    if theirs.model.geom_type[geom] != mjtGeom.mjGEOM_MESH:
      continue
    mesh = theirs.model.geom_dataid[geom]
    start, count = theirs.model.mesh_vertadr[mesh], theirs.model.mesh_vertnum[mesh]
    pos, rot = _frame(theirs, geom)
    vertices = np.asarray(theirs.model.mesh_vert[start : start + count], np.float64) @ rot.T + pos
    hull = spatial.ConvexHull(vertices)
    low, high = vertices.min(0), vertices.max(0)
    points = rng.uniform(low - 0.3 * (high - low), high + 0.3 * (high - low), (40000, 3))
    in_hull = np.all(points @ hull.equations[:, :3].T + hull.equations[:, 3] <= 0, axis=1)
    pos, rot = _frame(ours, geom)
    in_primitive = _inside(
      ours.model.geom_type[geom], ours.model.geom_size[geom], (points - pos) @ rot
    )
    iou = np.sum(in_hull & in_primitive) / np.sum(in_hull | in_primitive)
    assert iou > 0.68, (ours.model.id2name(geom, "geom"), iou)


@pytest.mark.parametrize(
  "pos, quat", [((0.0, 0.0, 0.3), (0.0, 1.0, 0.0, 1.0)), ((0.0, -0.1, 0.5), (1.0, 1.0, 0.0, 0.0))]
)
def test_pinch_site_driven_to_a_pose_by_inverse_kinematics(pos, quat):
  # dm_control's pinch-site test: the arm solves for the pose, the observables report it; the
  # joint angles found are dm_control's
  quat = np.asarray(quat) / np.linalg.norm(quat)
  results = []
  for ours in (True, False):
    arm, hand, physics = build(ours)
    assert arm.set_site_to_xpos(
      physics, np.random.RandomState(0), hand.pinch_site, np.asarray(pos), quat
    )
    observed_pos = hand.observables.pinch_site_pos(physics)
    observed_rmat = np.reshape(hand.observables.pinch_site_rmat(physics), (3, 3))
    results.append((np.array(physics.data.qpos), observed_pos, observed_rmat))
  (qpos, observed_pos, observed_rmat), (dm_qpos, _, _) = results
  np.testing.assert_allclose(qpos, dm_qpos, atol=1e-9)
  np.testing.assert_allclose(observed_pos, pos, atol=1e-3)
  u, _, vt = np.linalg.svd(observed_rmat @ _rotation(quat).T)
  angle = np.arccos(np.clip((np.trace(u @ vt) - 1) / 2, -1, 1))
  assert angle < 1e-3


@pytest.mark.parametrize("opening, mesh_dir", [(True, None), (False, MESH_DIR)])
def test_finger_travel_time_is_the_datasheets(opening, mesh_dir):
  # dm_control's check of the finger servos: 99.9% of the travel at full speed takes 1.2 s
  # (closing with Kinova's meshes: the primitive fingertips 1 and 3 meet just before the end)
  hand = kinova.JacoHand(mesh_dir=mesh_dir)
  physics = mjcf.Physics.from_mjcf_model(hand.mjcf_model)
  actuators, joints = physics.bind(hand.actuators), physics.bind(hand.joints)
  low, high = joints.range.T
  hand.set_grasp(physics, 1.0 if opening else 0.0)
  target = low if opening else high
  actuators.ctrl = actuators.ctrlrange[:, 0 if opening else 1]
  with physics.model.disable("gravity"):
    while np.any(np.abs(joints.qpos - target) > 1e-3 * (high - low)):
      assert physics.data.time < 2.0, joints.qpos
      physics.step()
  assert physics.data.time == pytest.approx(1.2, abs=0.1)
