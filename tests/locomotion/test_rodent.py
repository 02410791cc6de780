"""The rat against dm_control 1.0.50's: its model (assets/locomotion/walkers/rodent.xml) and
the `Rat` walker built on it.

Models: ours compiled by our mjcf and engine, theirs by dm_control's mjcf and MuJoCo, without
its skin (visual only). Our XML writes numbers with 12 significant digits, so quantities written
in it match to ~1e-11 of their size, derived ones (inertias, principal frames) a little less;
everything else, names, orders, classes' effects and integer fields, exactly. The walker: its
properties, observables, action spec and controls for the same physics state."""

import os

import numpy as np
import pytest

import assets
import mjcf

os.environ.setdefault("MUJOCO_GL", "disable")

from dm_control import composer as dm_composer  # noqa: E402  (after MUJOCO_GL)
from dm_control import mjcf as dm_mjcf  # noqa: E402
from dm_control.locomotion.walkers import rodent as dm_rodent  # noqa: E402

import composer  # noqa: E402
from suite.locomotion.walkers import rodent  # noqa: E402

RODENT_XML = assets.LOCOMOTION / "walkers" / "rodent.xml"

# relative tolerance of numbers written with 12 significant digits, and the absolute one of
# values near zero (positions of ~1e-2 m, unit quaternions and axes)
WRITTEN = dict(rtol=1e-11, atol=1e-13)
ORIENTATION = dict(rtol=0, atol=1e-11)


# the walker's options that change its model
WALKER_OPTIONS = {"walker": {}, "torque_walker": dict(torque_actuators=True, foot_mods=True)}


def _without_skin(model):
  """dm_control's rat model with its skin asset removed."""
  for skin in model.asset.find_all("skin"):
    skin.remove()
  return model


def _walkers_in_arenas(**options):
  """((our Rat, its physics), (dm_control's Rat, its physics)): each walker with `options`, on
  the floor of an arena of its library, by a free joint."""
  pairs = []
  for lib, rat_class in ((composer, rodent.Rat), (dm_composer, dm_rodent.Rat)):
    walker = rat_class(**options)
    _without_skin(walker.mjcf_model)
    arena = lib.Arena()
    arena.mjcf_model.worldbody.add("geom", name="floor", type="plane", size=[1, 1, 0.1])
    # a converged contact solve, so that contact forces agree between the engines
    arena.mjcf_model.option.tolerance = 1e-14
    arena.add_free_entity(walker)
    physics_class = mjcf.Physics if lib is composer else dm_mjcf.Physics
    pairs.append((walker, physics_class.from_mjcf_model(arena.mjcf_model)))
  return pairs


@pytest.fixture(scope="module", params=["xml", *WALKER_OPTIONS])
def models(request):
  """(ours, theirs): the compiled models of the XML alone, or of a walker in an arena."""
  if request.param == "xml":
    ours = mjcf.Physics.from_mjcf_model(mjcf.from_path(str(RODENT_XML))).model
    theirs = dm_mjcf.Physics.from_mjcf_model(
      _without_skin(dm_mjcf.from_path(dm_rodent._XML_PATH))
    ).model
    return ours, theirs
  (_, ours), (_, theirs) = _walkers_in_arenas(**WALKER_OPTIONS[request.param])
  return ours.model, theirs.model


def _names(model, kind, count):
  return [model.id2name(i, kind) for i in range(count)]


def _assert_fields(ours, theirs, exact=(), **tolerance):
  for name in exact:
    np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
  for name, tol in tolerance.items():
    np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), err_msg=name, **tol)


def test_sizes_and_totals(models):
  """The sizes of the model, its 0.338 kg, and the shapes: 56 capsules, 22 ellipsoids,
  15 spheres and 7 boxes (and the floor in an arena); in an arena the free joint adds 7 qpos
  and its frame a body."""
  ours, theirs = models
  floor = int("floor" in _names(ours, "geom", ours.ngeom))
  for name in (
    "nq",
    "nv",
    "nu",
    "na",
    "nbody",
    "njnt",
    "ngeom",
    "nsite",
    "ntendon",
    "nwrap",
    "nsensor",
    "nsensordata",
    "nexclude",
    "ncam",
    "nlight",
    "neq",
    "nkey",
    "nskin",
    "nmesh",
    "ntex",
    "nmat",
  ):
    assert getattr(ours, name) == getattr(theirs, name), name
  assert (ours.nq, ours.nu, ours.nbody, ours.ngeom, ours.ntendon, ours.nexclude) == (
    67 + 7 * floor,
    38,
    66 + floor,
    100 + floor,
    8,
    26,
  )
  assert ours.nskin == 0 and theirs.nskin == 0
  types = {
    name: int(np.sum(ours.geom_type == code))
    for name, code in (("plane", 0), ("sphere", 2), ("capsule", 3), ("ellipsoid", 4), ("box", 6))
  }
  assert types == {"plane": floor, "sphere": 15, "capsule": 56, "ellipsoid": 22, "box": 7}
  torso = [name.split("/")[-1] for name in _names(ours, "body", ours.nbody)].index("torso")
  np.testing.assert_allclose(ours.body_subtreemass[0], theirs.body_subtreemass[0], rtol=1e-11)
  np.testing.assert_allclose(ours.body_subtreemass[torso], 0.33778, rtol=1e-5)
  np.testing.assert_allclose(ours.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-10)
  np.testing.assert_allclose(ours.stat.extent, theirs.stat.extent, rtol=1e-11)
  np.testing.assert_allclose(ours.stat.center, theirs.stat.center, rtol=1e-11, atol=1e-13)
  assert ours.stat.meansize == theirs.stat.meansize == 0.003
  for name in (
    "timestep",
    "iterations",
    "tolerance",
    "cone",
    "integrator",
    "jacobian",
    "solver",
    "noslip_iterations",
    "disableflags",
    "enableflags",
    "impratio",
  ):
    assert getattr(ours.opt, name) == getattr(theirs.opt, name), name
  assert ours.nconmax == theirs.nconmax and ours.njmax == theirs.njmax


def test_body_tree(models):
  """Names and order, parents, poses, masses, inertias and frames of the bodies."""
  ours, theirs = models
  assert _names(ours, "body", ours.nbody) == _names(theirs, "body", theirs.nbody)
  _assert_fields(
    ours,
    theirs,
    exact=(
      "body_parentid",
      "body_rootid",
      "body_weldid",
      "body_jntnum",
      "body_jntadr",
      "body_dofnum",
      "body_dofadr",
      "body_geomnum",
      "body_geomadr",
      "body_sameframe",
      "body_simple",
      "body_mocapid",
    ),
    body_pos=WRITTEN,
    body_quat=ORIENTATION,
    body_mass=dict(rtol=1e-10),
    body_subtreemass=dict(rtol=1e-10),
    body_inertia=dict(rtol=1e-9),
    body_ipos=dict(rtol=0, atol=1e-13),
    # lower_arm_L's two largest moments differ by 4e-4 of their size, which turns its
    # principal frame by ~2e-11 for a 1e-12 change of a size
    body_iquat=dict(rtol=0, atol=1e-10),
    body_invweight0=dict(rtol=1e-10),
  )


def test_joints_and_dofs(models):
  """The 67 hinges (and the free joint in an arena): names, order, classes' damping, armature,
  stiffness and limits, positions, axes, reference and spring angles."""
  ours, theirs = models
  assert _names(ours, "joint", ours.njnt) == _names(theirs, "joint", theirs.njnt)
  _assert_fields(
    ours,
    theirs,
    exact=(
      "jnt_type",
      "jnt_bodyid",
      "jnt_qposadr",
      "jnt_dofadr",
      "jnt_limited",
      "jnt_group",
      "jnt_stiffness",
      "jnt_solref",
      "jnt_solimp",
      "jnt_margin",
      "jnt_actfrclimited",
      "dof_bodyid",
      "dof_jntid",
      "dof_parentid",
      "dof_treeid",
      "dof_damping",
      "dof_armature",
      "dof_frictionloss",
      "dof_solref",
      "dof_solimp",
      "qpos0",
    ),
    jnt_pos=WRITTEN,
    jnt_axis=ORIENTATION,
    jnt_range=WRITTEN,
    qpos_spring=WRITTEN,
    dof_invweight0=dict(rtol=1e-10),
    dof_M0=dict(rtol=1e-10),
  )


def test_geoms(models):
  """The geoms, matched by name: same order, bodies, shapes, contact parameters, densities'
  effect (through the masses above) and appearance. Sizes: the slots the shape uses (dm_control
  writes a third, unused size for some capsules and spheres)."""
  ours, theirs = models
  assert _names(ours, "geom", ours.ngeom) == _names(theirs, "geom", theirs.ngeom)
  _assert_fields(
    ours,
    theirs,
    exact=(
      "geom_type",
      "geom_bodyid",
      "geom_contype",
      "geom_conaffinity",
      "geom_condim",
      "geom_priority",
      "geom_friction",
      "geom_solmix",
      "geom_solref",
      "geom_solimp",
      "geom_margin",
      "geom_gap",
      "geom_group",
      "geom_rgba",
      "geom_sameframe",
    ),
    geom_pos=WRITTEN,
    geom_quat=ORIENTATION,
    geom_rbound=WRITTEN,
    geom_aabb=WRITTEN,
  )
  used = np.array(
    [[1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 1, 0], [1, 1, 1]], bool
  )[ours.geom_type]  # plane, hfield, sphere ... box
  np.testing.assert_allclose(ours.geom_size[used], theirs.geom_size[used], **WRITTEN)


def test_tendons_and_excludes(models):
  """The 8 fixed tendons (their joints, coefficients, unlimited ranges) and the 26 contact
  exclusions."""
  ours, theirs = models
  assert _names(ours, "tendon", ours.ntendon) == _names(theirs, "tendon", theirs.ntendon)
  _assert_fields(
    ours,
    theirs,
    exact=(
      "tendon_adr",
      "tendon_num",
      "tendon_limited",
      "tendon_range",
      "tendon_stiffness",
      "tendon_damping",
      "tendon_frictionloss",
      "wrap_type",
      "wrap_objid",
      "exclude_signature",
    ),
    wrap_prm=dict(rtol=1e-12),
    tendon_length0=WRITTEN,
    tendon_invweight0=dict(rtol=1e-10),
  )
  assert _names(ours, "exclude", ours.nexclude) == _names(theirs, "exclude", theirs.nexclude)


def test_actuators(models):
  """The 38 position servos: targets, activation filters, gains and affine biases, control and
  force ranges."""
  ours, theirs = models
  assert _names(ours, "actuator", ours.nu) == _names(theirs, "actuator", theirs.nu)
  _assert_fields(
    ours,
    theirs,
    exact=(
      "actuator_trntype",
      "actuator_trnid",
      "actuator_dyntype",
      "actuator_dynprm",
      "actuator_gaintype",
      "actuator_biastype",
      "actuator_ctrllimited",
      "actuator_forcelimited",
      "actuator_actlimited",
      "actuator_ctrlrange",
      "actuator_forcerange",
      "actuator_gear",
      "actuator_actadr",
      "actuator_actnum",
    ),
    actuator_gainprm=WRITTEN,
    actuator_biasprm=WRITTEN,
    actuator_length0=WRITTEN,
    actuator_acc0=dict(rtol=1e-10),
  )
  assert list(ours.actuator_trntype).count(0) == 30  # on joints; the other 8 on tendons


def test_sensors_sites_cameras_and_light(models):
  """The 8 sensors on their sites and body, the 21 sites, the 5 cameras (egocentric one in the
  skull) and the tracking light."""
  ours, theirs = models
  for kind, count in (
    ("sensor", "nsensor"),
    ("site", "nsite"),
    ("camera", "ncam"),
    ("light", "nlight"),
  ):
    n = getattr(ours, count)
    assert _names(ours, kind, n) == _names(theirs, kind, n), kind
  _assert_fields(
    ours,
    theirs,
    exact=(
      "sensor_type",
      "sensor_datatype",
      "sensor_needstage",
      "sensor_objtype",
      "sensor_objid",
      "sensor_reftype",
      "sensor_refid",
      "sensor_dim",
      "sensor_adr",
      "sensor_cutoff",
      "sensor_noise",
      "site_type",
      "site_bodyid",
      "site_group",
      "site_rgba",
      "cam_mode",
      "cam_bodyid",
      "cam_targetbodyid",
      "cam_fovy",
      "cam_resolution",
      "light_mode",
      "light_bodyid",
      "light_pos",
      "light_dir",
    ),
    site_pos=WRITTEN,
    site_quat=ORIENTATION,
    site_size=WRITTEN,
    cam_pos=WRITTEN,
    cam_quat=ORIENTATION,
  )
  cameras, bodies = _names(ours, "camera", ours.ncam), _names(ours, "body", ours.nbody)
  skull = bodies[ours.cam_bodyid[cameras.index(cameras[-1])]]
  assert (cameras[-1].split("/")[-1], skull.split("/")[-1]) == ("egocentric", "skull")


# Walker


@pytest.fixture(scope="module")
def walkers():
  """((our Rat, its physics), (dm_control's Rat, its physics)), default options."""
  return _walkers_in_arenas()


def _names_of(elements):
  return [element.name for element in elements]


def test_walker_elements_match_dm_control(walkers):
  """The named elements and element lists the walker offers, in dm_control's order; the
  joints and geoms that dm_control lists in its XML's declaration order, which for the spine
  and tail runs partly backwards, are the same elements, ours in model order."""
  (ours, physics), (theirs, _) = walkers
  for name in (
    "root_body",
    "pelvis_body",
    "head",
    "left_arm_root",
    "right_arm_root",
    "egocentric_camera",
  ):
    assert getattr(ours, name).name == getattr(theirs, name).name, name
  for name in (
    "actuators",
    "end_effectors",
    "observable_joints",
    "observable_tendons",
    "mocap_joints",
    "bodies",
    "mocap_tracking_bodies",
    "primary_joints",
    "joint_actuators",
  ):
    assert _names_of(getattr(ours, name)) == _names_of(getattr(theirs, name)), name
  for name in ("mocap_joint_order", "primary_joint_order", "joint_actuator_order"):
    assert list(getattr(ours, name)) == list(getattr(theirs, name)), name
  for name in ("vertebra_joints", "ground_contact_geoms"):
    assert sorted(_names_of(getattr(ours, name))) == sorted(_names_of(getattr(theirs, name)))
  joint_ids = physics.bind(ours.vertebra_joints).element_id
  assert list(joint_ids) == sorted(joint_ids)
  tail = [geom for geom in ours.ground_contact_geoms if geom.name.startswith("vertebra")]
  assert _names_of(tail) == [f"vertebra_C{i}_collision" for i in range(1, 31)]
  assert sorted(ours.vertebra_joint_order) == sorted(theirs.vertebra_joint_order)
  assert [ours.mocap_joint_order[i] for i in ours.vertebra_joint_order] == _names_of(
    ours.vertebra_joints
  )
  assert len(ours.vertebra_joints) + len(ours.primary_joints) == len(ours.mocap_joints) == 67
  assert ours.upright_pose == theirs.upright_pose
  assert ours.params is None and ours.body_sites == []


def test_joint_ranges_and_pose_to_actuation_match_dm_control():
  """The actuated joints' ranges, from their classes (widened by foot_mods), and the action
  that holds a pose; an action of a pose in the ranges drives the servos to it."""
  pose = np.random.RandomState(1).uniform(-0.5, 0.5, 67)
  for options in ({}, dict(foot_mods=True)):
    ours, theirs = rodent.Rat(**options), dm_rodent.Rat(**options)
    np.testing.assert_allclose(ours.joint_actuators_range, theirs.joint_actuators_range, rtol=1e-11)
    np.testing.assert_allclose(
      ours.pose_to_actuation(pose), theirs.pose_to_actuation(pose), rtol=1e-10, atol=1e-12
    )
  ankle = ours.joint_actuators_range[
    ours.joint_actuator_order.index(ours.mocap_joint_order.index("ankle_L"))
  ]
  np.testing.assert_array_equal(ankle, [-0.1, 2])
  # for a joint actuator, gain * u + biasprm[0] + biasprm[1] * q vanishes at the pose's angle
  model = mjcf.Physics.from_mjcf_model(rodent.Rat().mjcf_model).model
  action = rodent.Rat().pose_to_actuation(pose)
  joints = [model.name2id(name, "joint") for name in rodent.Rat().mocap_joint_order]
  for u, gain, bias, trntype, trnid in zip(
    action,
    model.actuator_gainprm[:, 0],
    model.actuator_biasprm,
    model.actuator_trntype,
    model.actuator_trnid[:, 0],
  ):
    if trntype == 0:  # a joint
      angle = pose[joints.index(trnid)]
      assert abs(gain * u + bias[0] + bias[1] * angle) < 1e-11


def test_pose_to_actuation_of_the_wrong_size():
  with pytest.raises(ValueError, match=r"the 67 angles of mocap_joint_order, got shape \(74,\)"):
    rodent.Rat().pose_to_actuation(np.zeros(74))


def test_standing_height_and_name():
  """`params['_STAND_HEIGHT']` as in dm_control, clear errors without it; the model's name."""
  params = {"_STAND_HEIGHT": 0.07}
  assert (
    rodent.Rat(params=params).standing_height
    == dm_rodent.Rat(params=params).standing_height
    == 0.07
  )
  with pytest.raises(TypeError, match="built with params=None"):
    rodent.Rat().standing_height
  with pytest.raises(KeyError, match="params has no '_STAND_HEIGHT'"):
    rodent.Rat(params={}).standing_height
  assert rodent.Rat(name="fred").mjcf_model.model == "fred"
  assert rodent.Rat(name=None).mjcf_model.model == dm_rodent.Rat(name=None).mjcf_model.model


def _flailing_state(physics, seed):
  """The rat in the air, turned at random, its joints off the model pose by ~0.15 rad (kept
  1e-3 rad inside their ranges, where the 12-digit ranges cannot disagree about a limit), with
  random velocities, activations and controls."""
  rng = np.random.RandomState(seed)
  model, data = physics.model, physics.data
  data.qpos[:3] = [0.1, -0.2, 0.15]
  quat = rng.randn(4)
  data.qpos[3:7] = quat / np.linalg.norm(quat)
  lower, upper = model.jnt_range[1:].T
  data.qpos[7:] = np.clip(
    model.qpos0[7:] + rng.normal(0, 0.15, model.nq - 7), lower + 1e-3, upper - 1e-3
  )
  data.qvel[:] = rng.randn(model.nv) * 0.5
  data.act[:] = rng.uniform(-1, 1, model.na)
  data.ctrl[:] = rng.uniform(-1, 1, model.nu)


def _settled_state(physics, seed):
  """The rat dropped in its model pose from 1 cm onto the floor, after 0.4 s under random
  constant controls."""
  rng = np.random.RandomState(seed)
  physics.reset()
  physics.data.qpos[2] += 0.01
  physics.data.ctrl[:] = rng.uniform(-0.2, 0.2, physics.model.nu)
  physics.step(200)


def _same_state(walkers, set_state, seed):
  """dm_control's physics put in a state, ours given its qpos, qvel, act and ctrl; both
  forwarded."""
  (_, ours), (_, theirs) = walkers
  set_state(theirs, seed)
  for field in ("qpos", "qvel", "act", "ctrl"):
    getattr(ours.data, field)[:] = getattr(theirs.data, field)
  theirs.forward()
  ours.forward()


def _readings(walker, physics):
  """{name: reading} of every observable but the camera's pixels and prev_action (which
  neither library's Rat records)."""
  return {
    name: np.asarray(obs(physics, np.random.RandomState(0)))
    for name, obs in walker.observables.as_dict(fully_qualified=False).items()
    if name not in ("egocentric_camera", "prev_action")
  }


@pytest.mark.parametrize(
  "set_state,seed",
  [(_settled_state, 0), (_flailing_state, 1), (_flailing_state, 2)],
  ids=["settled", "flailing1", "flailing2"],
)
def test_observables_match_dm_control(walkers, set_state, seed):
  """Every observable, in dm_control's order, for the same state: kinematic readings to
  rounding of the model's numbers, the accelerometer (through the dynamics) and touch
  (through the contact solver) to a relative 1e-9."""
  (ours, ours_physics), (theirs, theirs_physics) = walkers
  _same_state(walkers, set_state, seed)
  mine, expected = _readings(ours, ours_physics), _readings(theirs, theirs_physics)
  assert list(mine) == list(expected)
  for name, value in expected.items():
    assert np.shape(mine[name]) == np.shape(value), name
    np.testing.assert_allclose(mine[name], value, rtol=1e-9, atol=1e-12, err_msg=name)
  assert expected["actuator_activation"].shape == (38,)
  assert expected["appendages_pos"].shape == (15,)


def test_observable_groups_and_camera_match_dm_control(walkers):
  """proprioception, kinematic and dynamic sensors by name; the camera's spec and the geom
  groups its view leaves out."""
  groups = []
  for walker, _ in walkers:
    observables = walker.observables
    names = {id(obs): name for name, obs in observables.as_dict(fully_qualified=False).items()}
    groups.append(
      {
        group: [names[id(obs)] for obs in getattr(observables, group)]
        for group in ("proprioception", "kinematic_sensors", "dynamic_sensors")
      }
    )
  assert groups[0] == groups[1]
  (ours, _), (theirs, _) = walkers
  camera, expected = ours.observables.egocentric_camera, theirs.observables.egocentric_camera
  assert camera.array_spec == expected.array_spec
  assert (camera.width, camera.height) == (expected.width, expected.height) == (64, 64)
  assert list(camera.scene_option.geomgroup) == list(expected.scene_option.geomgroup)


def test_action_spec_and_apply_action_match_dm_control(walkers):
  """38 bounds of [-1, 1] named after the actuators; the controls apply_action writes."""
  (ours, ours_physics), (theirs, theirs_physics) = walkers
  spec, expected = ours.action_spec, theirs.action_spec
  assert (spec.shape, spec.dtype, spec.name) == (expected.shape, expected.dtype, expected.name)
  np.testing.assert_array_equal(spec.minimum, expected.minimum)
  np.testing.assert_array_equal(spec.maximum, expected.maximum)
  assert spec.shape == (38,) and spec.name.split("\t")[:2] == ["lumbar_extend", "lumbar_bend"]
  action = np.random.RandomState(3).uniform(-1, 1, 38)
  for walker, physics in walkers:
    walker.apply_action(physics, action, np.random.RandomState(0))
  np.testing.assert_array_equal(ours_physics.data.ctrl, theirs_physics.data.ctrl)
  np.testing.assert_array_equal(ours_physics.data.ctrl, action)


def test_a_short_rollout_matches_dm_control(walkers):
  """25 steps (50 ms) from the same state in the air, with self-contacts and joint limits, under
  the same controls: the same motion. (Not much longer: from this state MuJoCo itself turns a
  1e-13 change of the angles into 1e-7 by step 40.)"""
  _same_state(walkers, _flailing_state, 4)
  (_, ours), (_, theirs) = walkers
  constraints = []
  for _ in range(25):
    ours.step()
    theirs.step()
    constraints.append(theirs.data.nefc)
  assert min(constraints) > 0
  np.testing.assert_allclose(ours.data.qpos, theirs.data.qpos, rtol=0, atol=1e-10)
  np.testing.assert_allclose(ours.data.qvel, theirs.data.qvel, rtol=0, atol=1e-8)
  np.testing.assert_allclose(ours.data.act, theirs.data.act, rtol=0, atol=1e-12)


def test_two_rats_in_one_arena():
  """Two rats compile side by side, also after renaming them; each model name prefixes its
  elements."""
  rats = [rodent.Rat(name="rat1"), rodent.Rat(name="rat2")]
  arena = composer.Arena()
  for rat in rats:
    arena.add_free_entity(rat)
  assert mjcf.Physics.from_mjcf_model(arena.mjcf_model).model.nu == 2 * 38
  rats[0].mjcf_model.model, rats[1].mjcf_model.model = "rat3", "rat4"
  model = mjcf.Physics.from_mjcf_model(arena.mjcf_model).model
  assert (model.nq, model.id2name(0, "actuator"), model.id2name(38, "actuator")) == (
    2 * 74,
    "rat3/lumbar_extend",
    "rat4/lumbar_extend",
  )
