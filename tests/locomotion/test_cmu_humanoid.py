"""The CMU humanoid walkers against dm_control 1.0.50: our MJCF assets (compiled by our mjcf
and engine) against dm_control's (compiled by its mjcf and MuJoCo) field by field; then each
walker class against dm_control's: compiled models, properties, observables at the same physics
state, action specs and controls."""

import os

import numpy as np
import pytest

import mjcf
from assets import LOCOMOTION
from suite.locomotion.walkers import cmu_humanoid
from tests.locomotion import twin_walkers as tw
from tests.locomotion import walker_parity as wp

os.environ.setdefault("MUJOCO_GL", "disable")

from dm_control import mjcf as dm_mjcf  # noqa: E402  (after MUJOCO_GL)
from dm_control.locomotion.walkers import cmu_humanoid as dm_cmu  # noqa: E402

VERSIONS = ("2019", "2020")

_COUNTS = (
  "nq",
  "nv",
  "nu",
  "na",
  "nbody",
  "njnt",
  "ngeom",
  "nsite",
  "ncam",
  "nlight",
  "nmat",
  "nsensor",
  "nsensordata",
  "nexclude",
  "ntendon",
  "neq",
  "nkey",
  "njmax",
  "nconmax",
)
_NAMED = ("body", "joint", "geom", "site", "camera", "light", "actuator", "sensor", "material")
# fields the compiler copies or derives exactly from the XML's numbers
_EXACT = (
  "body_parentid",
  "body_rootid",
  "body_weldid",
  "body_jntnum",
  "body_jntadr",
  "body_dofnum",
  "body_dofadr",
  "body_geomnum",
  "body_geomadr",
  "body_pos",
  "body_quat",
  "body_mass",
  "body_subtreemass",
  "body_ipos",
  "jnt_type",
  "jnt_bodyid",
  "jnt_qposadr",
  "jnt_dofadr",
  "jnt_axis",
  "jnt_pos",
  "jnt_range",
  "jnt_limited",
  "jnt_stiffness",
  "jnt_solref",
  "jnt_solimp",
  "jnt_margin",
  "jnt_group",
  "qpos0",
  "qpos_spring",
  "dof_bodyid",
  "dof_jntid",
  "dof_parentid",
  "dof_armature",
  "dof_damping",
  "dof_frictionloss",
  "dof_solref",
  "dof_solimp",
  "geom_type",
  "geom_bodyid",
  "geom_contype",
  "geom_conaffinity",
  "geom_condim",
  "geom_priority",
  "geom_friction",
  "geom_solref",
  "geom_solimp",
  "geom_solmix",
  "geom_margin",
  "geom_gap",
  "geom_size",
  "geom_pos",
  "geom_quat",
  "geom_group",
  "geom_matid",
  "geom_rgba",
  "geom_rbound",
  "site_type",
  "site_bodyid",
  "site_size",
  "site_pos",
  "site_quat",
  "site_group",
  "site_rgba",
  "cam_bodyid",
  "cam_mode",
  "cam_targetbodyid",
  "cam_pos",
  "cam_quat",
  "cam_fovy",
  "light_mode",
  "light_bodyid",
  "light_pos",
  "light_dir",
  "actuator_trntype",
  "actuator_trnid",
  "actuator_dyntype",
  "actuator_dynprm",
  "actuator_gaintype",
  "actuator_gainprm",
  "actuator_biastype",
  "actuator_biasprm",
  "actuator_gear",
  "actuator_ctrlrange",
  "actuator_ctrllimited",
  "actuator_forcerange",
  "actuator_forcelimited",
  "actuator_actlimited",
  "actuator_actrange",
  "actuator_actadr",
  "actuator_actnum",
  "sensor_type",
  "sensor_objtype",
  "sensor_objid",
  "sensor_reftype",
  "sensor_refid",
  "sensor_dim",
  "sensor_adr",
  "sensor_noise",
  "sensor_cutoff",
  "exclude_signature",
  "mat_rgba",
)
# fields from eigen-decompositions and factorizations: equal to rounding
_DERIVED = (
  "body_inertia",
  "body_iquat",
  "body_invweight0",
  "dof_invweight0",
  "dof_M0",
  "actuator_acc0",
)


def ours_asset(version):
  return mjcf.from_path(str(LOCOMOTION / "walkers" / f"humanoid_CMU_V{version}.xml"))


def theirs_asset(version):
  return dm_mjcf.from_path(dm_cmu._XML_PATH.format(model_version=version))


def assert_models_equal(ours, theirs):
  """Two compiled models (`physics.model` of ours and of dm_control's) agree field by field:
  sizes, the names of every kind of object in order, the XML's numbers exactly and the
  compiler's derived quantities to rounding."""
  for name in _COUNTS:
    assert getattr(ours, name) == getattr(theirs, name), name
  for kind in _NAMED:
    count = getattr(
      theirs,
      "ncam"
      if kind == "camera"
      else "nmat"
      if kind == "material"
      else "nu"
      if kind == "actuator"
      else "n" + kind.replace("joint", "jnt"),
    )
    assert [ours.id2name(i, kind) for i in range(count)] == [
      theirs.id2name(i, kind) for i in range(count)
    ], kind
  for name in _EXACT:
    np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
  for name in _DERIVED:
    np.testing.assert_allclose(
      getattr(ours, name), getattr(theirs, name), rtol=1e-12, atol=1e-14, err_msg=name
    )
  np.testing.assert_allclose(ours.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-12)
  np.testing.assert_array_equal(ours.stat.center, theirs.stat.center)
  assert ours.stat.extent == theirs.stat.extent


@pytest.mark.parametrize("version", VERSIONS)
def test_asset_compiles_to_dm_controls_model(version):
  """Our MJCF of each version compiles to dm_control's walker asset's model."""
  ours = mjcf.Physics.from_mjcf_model(ours_asset(version)).model
  theirs = dm_mjcf.Physics.from_mjcf_model(theirs_asset(version)).model
  assert_models_equal(ours, theirs)


@pytest.mark.parametrize(
  "version,sizes,mass",
  [
    ("2019", dict(nbody=32, njnt=56, nu=56, ngeom=43, ncam=7, nsensor=15, nsite=13), 39.6254),
    ("2020", dict(nbody=32, njnt=56, nu=56, ngeom=45, ncam=5, nsensor=15, nsite=14), 66.9545),
  ],
)
def test_asset_totals(version, sizes, mass):
  """The sizes and total mass of each version (dm_control's compiled assets, to 6 digits):
  the 2020 version adds the thighs' massless upper capsules and a wrist site, drops two
  cameras and weighs more (bigger capsules)."""
  model = mjcf.Physics.from_mjcf_model(ours_asset(version)).model
  assert {name: getattr(model, name) for name in sizes} == sizes
  np.testing.assert_allclose(model.body_subtreemass[0], mass, rtol=1e-6)


def test_2019_ranges_are_degrees():
  """The 2019 asset sets no compiler angle, so its radian-valued limits compile as degrees (as
  dm_control's); the 2020 asset reads them as radians."""
  limits = {}
  for version in VERSIONS:
    model = mjcf.Physics.from_mjcf_model(ours_asset(version)).model
    limits[version] = model.jnt_range[model.name2id("lfemurrx", "joint")]
  np.testing.assert_allclose(limits["2020"], [-2.79253, 0.349066])
  np.testing.assert_allclose(limits["2019"], np.deg2rad([-2.79253, 0.349066]))


# ------------------------------------------------------------------------------------------------
# the walker classes

# (class name, constructor arguments) of each walker variant
WALKERS = {
  "torque": ("CMUHumanoid", {}),
  "position_2019": ("CMUHumanoidPositionControlled", {}),
  "position_2020": ("CMUHumanoidPositionControlled", {"model_version": "2020"}),
  "v2020": ("CMUHumanoidPositionControlledV2020", {}),
}
# readings through the contact solver (accelerations, touch, torques) agree to its convergence
# (the arena asks for 1e-14; they agree to ~5e-13)
DYNAMIC_RTOL = 1e-8
DYNAMIC_ATOL = 1e-8
_DYNAMIC = ("sensors_accelerometer", "sensors_torque", "sensors_touch")
_CAMERAS = ("body_camera", "egocentric_camera")


def _walker(ours, variant, **kwargs):
  class_name, arguments = WALKERS[variant]
  module = cmu_humanoid if ours else dm_cmu
  return getattr(module, class_name)(**arguments, **kwargs)


def _in_arena(ours, variant, **kwargs):
  """(walker, physics) of the walker on a floor, by its free joint."""
  ns = tw.namespace(ours)
  walker = _walker(ours, variant, **kwargs)
  arena = tw.arena_with(ns, walker)
  return walker, ns.mjcf.Physics.from_mjcf_model(arena.mjcf_model)


def _compiled(ours, walker):
  return (mjcf if ours else dm_mjcf).Physics.from_mjcf_model(walker.mjcf_model).model


@pytest.mark.parametrize("variant", list(WALKERS))
def test_walker_model_matches_dm_control(variant):
  """The walker's own model, as its class builds it (servos, rescaling, face, end-effector
  sensors), compiles to dm_control's."""
  assert_models_equal(
    _compiled(True, _walker(True, variant)), _compiled(False, _walker(False, variant))
  )


@pytest.mark.parametrize(
  "variant,sizes,mass",
  [
    ("torque", dict(nq=63, nu=56, na=0, nbody=33, ngeom=44, ncam=7, nsensor=19), 39.6254),
    ("v2020", dict(nq=63, nu=56, na=56, nbody=34, ngeom=48, ncam=5, nsensor=19), 70),
  ],
)
def test_walker_on_a_floor(variant, sizes, mass):
  """On a floor by a free joint (the arena adds the world body, the floor and a free joint),
  the walker compiles as dm_control's; sizes and the walker's mass (the 2020 walker is
  rescaled to 70 kg)."""
  (walker, ours), (_, theirs) = (_in_arena(flag, variant) for flag in (True, False))
  assert_models_equal(ours.model, theirs.model)
  assert {name: getattr(ours.model, name) for name in sizes} == sizes
  np.testing.assert_allclose(ours.bind(walker.root_body).subtreemass, mass, rtol=1e-6)


def _names(elements):
  return [element.full_identifier for element in elements]


@pytest.mark.parametrize("variant", list(WALKERS))
def test_walker_properties_match_dm_control(variant):
  """Element properties (by identifier), orders and poses."""
  found = {}
  for ours in (True, False):
    walker = _walker(ours, variant)
    pose = walker.upright_pose
    found[ours] = dict(
      single=_names(
        [
          walker.root_body,
          walker.head,
          walker.left_arm_root,
          walker.right_arm_root,
          walker.egocentric_camera,
          walker.body_camera,
        ]
      ),
      **{
        name: _names(getattr(walker, name))
        for name in (
          "actuators",
          "bodies",
          "end_effectors",
          "ground_contact_geoms",
          "marker_geoms",
          "mocap_joints",
          "mocap_tracking_bodies",
          "observable_joints",
          "touch_sensors",
          "end_effectors_pos_sensors",
        )
      },
      orders=[
        list(walker.actuator_order),
        list(walker.actuator_to_joint_order),
        walker.mocap_to_observable_joint_order,
        walker.observable_to_mocap_joint_order,
      ],
      scalars=[walker.standing_height, walker.mjcf_model.model],
      pose=[pose.qpos, list(pose.xpos), list(pose.xquat)],
    )
  assert found[True] == found[False]


@pytest.mark.parametrize("variant", ["torque", "v2020"])
def test_upright_initializer_matches_dm_control(variant):
  """The default initializer stands the y-up model upright at its upright height."""
  poses = {}
  for ours in (True, False):
    walker, physics = _in_arena(ours, variant)
    walker.reinitialize_pose(physics, np.random.RandomState(0))
    poses[ours] = np.array(physics.data.qpos)
  np.testing.assert_allclose(poses[True], poses[False], rtol=0, atol=1e-15)
  height = 1.143 if variant == "v2020" else 0.94
  np.testing.assert_allclose(
    poses[True][:7],
    [0, 0, height, *np.array([0.859, 1, 1, 0.859]) / np.linalg.norm([0.859, 1, 1, 0.859])],
    atol=1e-15,
  )


@pytest.mark.parametrize("variant", ["position_2019", "v2020"])
def test_actuators_are_position_servos(variant):
  """Each servo drives its own joint over that joint's range: control -1 and +1 give zero
  force at the range's low and high end (kp (g u + b0 - q) = 0), within the table's force
  limit; the 2020 servos low-pass their controls."""
  walker = _walker(True, variant)
  physics = mjcf.Physics.from_mjcf_model(walker.mjcf_model)
  servos = physics.bind(walker.actuators)
  for actuator, gain, bias, limits in zip(
    walker.actuators, servos.gainprm, servos.biasprm, servos.forcerange
  ):
    assert actuator.name == actuator.joint.name
    low, high = actuator.joint.range
    np.testing.assert_allclose(
      [gain[0] * -1 + bias[0] + bias[1] * low, gain[0] + bias[0] + bias[1] * high], 0, atol=1e-12
    )
    assert -limits[0] == limits[1] > 0
  assert set(servos.dyntype) == {2 if variant == "v2020" else 0}  # mjDYN_FILTER, mjDYN_NONE


def _landed_state(variant, steps=200, seed=0):
  """dm_control's walker after `steps` steps of random controls from its upright pose, which
  starts it above the floor: landed, with touch readings; (qpos, qvel, act, ctrl)."""
  walker, physics = _in_arena(False, variant)
  random_state = np.random.RandomState(seed)
  walker.reinitialize_pose(physics, random_state)
  for _ in range(steps):
    physics.bind(walker.actuators).ctrl = random_state.uniform(-1, 1, len(walker.actuators))
    physics.step()
  return tuple(
    np.array(array)
    for array in (physics.data.qpos, physics.data.qvel, physics.data.act, physics.data.ctrl)
  )


def _readings(walker, physics):
  """{name: reading} of every observable but the cameras and prev_action."""
  return {
    name: np.asarray(obs.observation_callable(physics, np.random.RandomState(0))())
    for name, obs in walker.observables.as_dict(fully_qualified=False).items()
    if name not in _CAMERAS + ("prev_action",)
  }


@pytest.mark.parametrize("variant", list(WALKERS))
def test_observables_match_dm_control(variant):
  """Every observable (keys in dm_control's order) at the same state (qpos, qvel, act, ctrl
  copied from dm_control's simulation of the walker landing on the floor, then forward)."""
  qpos, qvel, act, ctrl = _landed_state(variant)
  results = {}
  for ours in (True, False):
    walker, physics = _in_arena(ours, variant)
    walker.after_compile(physics, np.random.RandomState(0))
    physics.data.qpos[:], physics.data.qvel[:], physics.data.act[:] = qpos, qvel, act
    physics.data.ctrl[:] = ctrl
    physics.forward()
    walker.after_substep(physics, np.random.RandomState(0))
    results[ours] = (
      list(walker.observables.as_dict()),
      _readings(walker, physics),
      physics.data.ncon,
    )
  assert results[True][0] == results[False][0]
  assert results[True][2] == results[False][2] > 0
  ours, theirs = results[True][1], results[False][1]
  assert theirs["sensors_touch"].any()  # a foot is on the floor
  wp.assert_readings_match(ours, theirs, _DYNAMIC, rtol=DYNAMIC_RTOL, atol=DYNAMIC_ATOL)


@pytest.mark.parametrize("variant", list(WALKERS))
def test_simulation_matches_dm_control(variant):
  """50 steps from the landed state with its controls (servo filters, force limits, springs,
  contacts): the same states to rounding (they agree to ~5e-12)."""
  state = _landed_state(variant)
  results = {}
  for ours in (True, False):
    _, physics = _in_arena(ours, variant)
    for array, value in zip(
      (physics.data.qpos, physics.data.qvel, physics.data.act, physics.data.ctrl), state
    ):
      array[:] = value
    physics.forward()
    physics.step(50)
    results[ours] = np.concatenate([physics.data.qpos, physics.data.qvel, physics.data.act])
  np.testing.assert_allclose(results[True], results[False], rtol=0, atol=1e-9)


def _group_names(walker):
  names = {id(obs): name for name, obs in walker.observables.as_dict().items()}
  return {
    group: [names[id(obs)] for obs in getattr(walker.observables, group)]
    for group in ("proprioception", "kinematic_sensors", "dynamic_sensors")
  }


@pytest.mark.parametrize("variant", ["torque", "v2020"])
def test_observable_groups_and_cameras_match_dm_control(variant):
  """Semantic groups, enabled flags, and the cameras' sizes and hidden geom groups (the body
  camera hides the body's capsules, the egocentric camera the nose)."""
  found = {}
  for ours in (True, False):
    walker = _walker(ours, variant)
    cameras = {}
    for name in _CAMERAS:
      camera = getattr(walker.observables, name)
      option = camera.scene_option
      cameras[name] = (camera.width, camera.height, list(option.geomgroup), list(option.flags))
    found[ours] = (
      _group_names(walker),
      cameras,
      {name: obs.enabled for name, obs in walker.observables.as_dict().items()},
    )
  assert found[True] == found[False]
  assert found[True][1]["body_camera"][2] == [1, 1, 0, 0, 0, 0]
  assert found[True][1]["egocentric_camera"][2] == [1, 0, 1, 0, 0, 0]


@pytest.mark.parametrize("variant", list(WALKERS))
def test_action_spec_and_apply_action_match_dm_control(variant):
  action = np.random.RandomState(1).uniform(-1, 1, 56)
  found = {}
  for ours in (True, False):
    walker, physics = _in_arena(ours, variant)
    spec = walker.action_spec
    walker.apply_action(physics, action, np.random.RandomState(0))
    found[ours] = (
      spec.shape,
      spec.dtype,
      spec.name,
      list(spec.minimum),
      list(spec.maximum),
      list(physics.data.ctrl),
    )
  assert found[True] == found[False]
  assert found[True][5] == list(action)


@pytest.mark.parametrize("variant", ["position_2019", "v2020"])
def test_cmu_pose_to_actuation(variant):
  """Controls for a pose in the mocap channel order: dm_control's numbers, and the controls a
  pose was made from (pose = low + (high - low) (1 + u) / 2 per joint)."""
  random_state = np.random.RandomState(123)
  walkers = [_walker(ours, variant) for ours in (True, False)]
  controls = random_state.uniform(-1, 1, 56)
  low, high = np.array([joint.range for joint in walkers[0].mocap_joints]).T
  pose = low + (high - low) * (1 + controls[walkers[0].actuator_to_joint_order]) / 2
  ours, theirs = (walker.cmu_pose_to_actuation(pose) for walker in walkers)
  np.testing.assert_array_equal(ours, theirs)
  np.testing.assert_allclose(ours, controls, rtol=0, atol=1e-12)
  with pytest.raises(ValueError, match="expected 56 joint positions, got shape"):
    walkers[0].cmu_pose_to_actuation(pose[:-1])


def test_name_markers_and_face_match_dm_control():
  """A renamed torque walker with coloured forearms and a face compiles as dm_control's."""
  kwargs = dict(name="fred", marker_rgba=(1, 0, 1, 0.5), include_face=True)
  walkers = [_walker(ours, "torque", **kwargs) for ours in (True, False)]
  assert walkers[0].mjcf_model.model == "fred"
  for geom in walkers[0].marker_geoms:
    np.testing.assert_array_equal(geom.rgba, kwargs["marker_rgba"])
  assert_models_equal(*(_compiled(ours, walker) for ours, walker in zip((True, False), walkers)))


def test_scale_default_matches_dm_control():
  """The 2019 position-controlled walker rescaled by `scale_default` (1.2, 70 kg)."""
  kwargs = dict(scale_default=True)
  ours, theirs = (
    _compiled(flag, _walker(flag, "position_2019", **kwargs)) for flag in (True, False)
  )
  assert_models_equal(ours, theirs)
  np.testing.assert_allclose(ours.body_subtreemass[1], 70, rtol=1e-12)


def test_unknown_model_version():
  with pytest.raises(
    ValueError,
    match=r"model_version must be one of \('2019', '2020'\): "
    "got '2021'",
  ):
    cmu_humanoid.CMUHumanoidPositionControlled(model_version="2021")
