"""The dog's model against docs/suite_models.md and dm_control 1.0.50; what the parity test
leaves out: the per-task model edits, other seeds of fetch and its reward's branches."""

import os

import mujoco
import numpy as np
import pytest

from suite import dog
from tests.suite import parity

os.environ.setdefault("MUJOCO_GL", "disable")

from dm_control.suite import dog as dm_dog  # noqa: E402  (after MUJOCO_GL)

_TASK_FLOORS = {"stand": 15, "walk": 15, "trot": 45, "run": 135, "fetch": 10}


def _models(floor_size, remove_ball):
  """Ours and dm_control's model of a variant, both compiled by MuJoCo."""
  ours = mujoco.MjModel.from_xml_string(*dog.get_model_and_assets(floor_size, remove_ball))
  theirs = mujoco.MjModel.from_xml_string(*dm_dog.get_model_and_assets(floor_size, remove_ball))
  return ours, theirs


def test_compiled_totals_match_the_tables():
  """The fetch model's sizes, mass and mean inertia (docs/suite_models.md); 126 geoms: the
  colliding ones, without the 170 visual geoms."""
  physics = dog.Physics.from_xml_string(*dog.get_model_and_assets(remove_ball=False))
  m = physics.model
  sizes = dict(
    nq=87,
    nv=85,
    nu=38,
    na=38,
    nbody=63,
    njnt=75,
    ngeom=126,
    nsite=12,
    ntendon=8,
    neq=0,
    nsensor=13,
    nsensordata=31,
    nexclude=30,
    nkey=1,
    ncam=4,
    nlight=1,
  )
  assert {k: getattr(m, k) for k in sizes} == sizes
  np.testing.assert_allclose(m.body_subtreemass[0], 10.29694, rtol=1e-6)
  np.testing.assert_allclose(m.body_subtreemass[m.name2id("torso", "body")], 10.24094, rtol=1e-6)
  np.testing.assert_allclose(m.stat.meaninertia, 0.421219, rtol=1e-6)
  assert (m.opt.timestep, m.opt.noslip_iterations) == (0.005, 4)


@pytest.mark.parametrize("floor_size,remove_ball", [(10, False), (45, True)])
def test_compiled_model_matches_dm_control(floor_size, remove_ball):
  """Field by field with dm_control's model (both compiled by MuJoCo): inertials to the
  tables' 7-8 digits, everything else exactly; geoms matched by name."""
  ours, theirs = _models(floor_size, remove_ball)
  for name in (
    "nq",
    "nv",
    "nu",
    "na",
    "nbody",
    "njnt",
    "nsite",
    "ntendon",
    "nwrap",
    "nsensor",
    "nsensordata",
    "nexclude",
    "ncam",
    "nlight",
  ):
    assert getattr(ours, name) == getattr(theirs, name), name
  for name in ("body_mass", "body_inertia", "body_subtreemass"):
    np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=1e-7, err_msg=name)
  np.testing.assert_allclose(ours.body_ipos, theirs.body_ipos, atol=1e-8)
  np.testing.assert_allclose(ours.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-8)
  exact = (
    "body_parentid",
    "body_pos",
    "body_quat",
    "jnt_type",
    "jnt_bodyid",
    "jnt_axis",
    "jnt_pos",
    "jnt_range",
    "jnt_solref",
    "jnt_solimp",
    "qpos0",
    "qpos_spring",
    "dof_armature",
    "actuator_trntype",
    "actuator_trnid",
    "actuator_dyntype",
    "actuator_dynprm",
    "actuator_gaintype",
    "actuator_gainprm",
    "actuator_biastype",
    "actuator_gear",
    "actuator_ctrlrange",
    "actuator_ctrllimited",
    "wrap_objid",
    "tendon_adr",
    "tendon_num",
    "sensor_type",
    "sensor_objtype",
    "sensor_objid",
    "sensor_dim",
    "site_bodyid",
    "site_type",
    "site_size",
    "site_pos",
    "site_quat",
    "exclude_signature",
    "cam_bodyid",
    "cam_mode",
    "cam_pos",
    "cam_quat",
  )
  for name in exact:
    np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
  for name in ("jnt_stiffness", "dof_damping", "wrap_prm"):  # tabulated to 9-10 digits
    np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=1e-8, err_msg=name)
  for name in (
    "timestep",
    "noslip_iterations",
    "iterations",
    "tolerance",
    "cone",
    "integrator",
    "disableflags",
    "enableflags",
  ):
    assert getattr(ours.opt, name) == getattr(theirs.opt, name), name
  geoms = [ours.geom(i).name for i in range(ours.ngeom)]
  ids = np.array([theirs.geom(name).id for name in geoms])
  assert np.all(np.diff(ids) > 0)  # same order
  colliding = (theirs.geom_contype != 0) | (theirs.geom_conaffinity != 0)
  assert sorted(ids) == list(np.flatnonzero(colliding))
  for name in (
    "geom_type",
    "geom_bodyid",
    "geom_pos",
    "geom_quat",
    "geom_contype",
    "geom_conaffinity",
    "geom_condim",
    "geom_friction",
    "geom_solref",
    "geom_solimp",
    "geom_priority",
    "geom_solmix",
    "geom_margin",
    "geom_gap",
    "geom_rbound",
  ):
    np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name)[ids], err_msg=name)
  # sizes: the slots each type uses (a capsule's third slot is unused)
  used = np.array(
    [[1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 1, 0], [1, 1, 1]], bool
  )[ours.geom_type]  # plane ... box
  np.testing.assert_array_equal(ours.geom_size[used], theirs.geom_size[ids][used])


@pytest.mark.parametrize("task", list(_TASK_FLOORS))
def test_task_model_edits(task):
  """Floor size per task; ball, target, walls and their cameras only in fetch."""
  ours, theirs = parity.load_pair("dog", task)
  for env in (ours, theirs):
    model = env.physics.model
    assert model.geom_size[model.name2id("floor", "geom")].tolist() == [_TASK_FLOORS[task]] * 2 + [
      0.1
    ]
  names = {
    kind: [theirs.physics.model.id2name(i, kind) for i in range(count)]
    for kind, count in (("camera", theirs.physics.model.ncam), ("body", theirs.physics.model.nbody))
  }
  for kind, expected in names.items():
    count = getattr(ours.physics.model, "ncam" if kind == "camera" else "nbody")
    assert [ours.physics.model.id2name(i, kind) for i in range(count)] == expected


@pytest.mark.parametrize("seed", [1, 3])
def test_fetch_matches_dm_control_at_other_seeds(seed):
  """Fetch from seeds whose start has no contact between the dog and the target (seed 0 puts
  the right paw on the target, where the force at reset depends on the inertials beyond the
  tables' digits)."""
  parity.compare_task("dog", "fetch", seed=seed)


@pytest.mark.parametrize("where", ["target", "mouth", "away"])
def test_fetch_reward_branches(where):
  """Rewards with the ball at the target (reach forced to 1), between the bite sites and on
  the floor away from both, from the same state in both libraries."""
  ours, theirs = parity.load_pair("dog", "fetch", seed=1)
  theirs.reset()
  physics = theirs.physics
  ball = physics.named.data.qpos["ball_root"]
  if where == "target":
    ball[:3] = [0.05, 0.05, 0.1]
  elif where == "mouth":
    ball[:3] = physics.named.data.site_xpos[["upper_bite", "lower_bite"]].mean(axis=0)
  else:
    ball[:3] = [3, -2, 0.03]
  physics.forward()
  ours.reset()
  ours.physics.set_state(physics.get_state())
  ours.physics.forward()
  reward = ours.task.get_reward(ours.physics)
  assert reward > 0
  np.testing.assert_allclose(reward, theirs.task.get_reward(physics), rtol=1e-6)


def test_a_dog_with_a_skin_compiles(monkeypatch):
  """A skin added to the dog (as published dog models have one, from a .skn file) reaches both
  compilers through get_model_and_assets."""
  from engine.compiler import compile_model
  from suite import common
  from tests.engine.test_skin import _skn

  skn = _skn(
    [0, 0, 0, 0.1, 0, 0, 0, 0.1, 0],
    [0, 1, 2],
    [
      ("torso", (0, 0, 0), (1, 0, 0, 0), [0, 1, 2], [1, 1, 1]),
      ("pelvis", (0, 0, 0), (1, 0, 0, 0), [2], [1]),
    ],
  )
  xml = common.read_model("dog.xml").replace("<asset>", '<asset><skin file="dog_skin.skn"/>', 1)
  monkeypatch.setattr(common, "read_model", lambda name: xml)
  monkeypatch.setattr(common, "ASSETS", {**common.ASSETS, "dog_skin.skn": skn})
  text, assets = dog.get_model_and_assets()
  mjm = mujoco.MjModel.from_xml_string(text, assets)
  ours = compile_model(xml=text, assets=assets)
  assert ours.sizes["nskin"] == mjm.nskin == 1
  np.testing.assert_array_equal(ours.arrays["skin_bonebodyid"], mjm.skin_bonebodyid)
  np.testing.assert_array_equal(ours.arrays["skin_bonevertweight"], mjm.skin_bonevertweight)


# dm_control's Physics accessors (z_projection: rows there, flat here), then the fetch model's
_METHODS = (
  "torso_pelvis_height",
  "z_projection",
  "upright",
  "center_of_mass_velocity",
  "torso_com_velocity",
  "com_forward_velocity",
  "joint_angles",
  "joint_velocities",
  "inertial_sensors",
  "touch_sensors",
  "foot_forces",
)
_FETCH_METHODS = (
  "ball_in_head_frame",
  "target_in_head_frame",
  "ball_to_mouth_distance",
  "ball_to_target_distance",
)
# the observation keys that are not the name of their Physics method
_OBSERVED_METHODS = {
  "joint_velocites": "joint_velocities",
  "ball_state": "ball_in_head_frame",
  "target_position": "target_in_head_frame",
}


@pytest.mark.parametrize("task", ["walk", "fetch"])
def test_physics_methods_match_dm_control(task):
  """The Physics methods (the declared features) against dm_control's at the same state; each
  observation key is its method's value, exactly. Seed 1: see the fetch test above."""
  ours, theirs = parity.load_pair("dog", task, seed=1)
  observation = ours.reset().observation
  theirs.reset()
  for name in _METHODS + (_FETCH_METHODS if task == "fetch" else ()):
    np.testing.assert_allclose(
      np.ravel(getattr(ours.physics, name)()),
      np.ravel(getattr(theirs.physics, name)()),
      rtol=parity.RESET_RTOL,
      atol=parity.RESET_ATOL,
      err_msg=name,
    )
  for key, value in observation.items():
    method = getattr(ours.physics, _OBSERVED_METHODS.get(key, key))
    np.testing.assert_array_equal(method(), value, err_msg=key)


def test_episode_quantities_of_the_stand_reward():
  """The standing heights (0.9 of the torso's and pelvis's in the default pose) and the body
  weight the reward reads are the task's, set by each episode: dm_control's values."""
  ours, theirs = parity.load_pair("dog", "stand", seed=2)
  assert np.isnan(ours.task.body_weight)  # before the first episode
  ours.reset()
  theirs.reset()
  weight = (
    -ours.physics.model.opt.gravity[2]
    * ours.physics.model.body_subtreemass[ours.physics.model.name2id("torso", "body")]
  )
  assert ours.task.body_weight == ours.physics.body_weight() == weight
  np.testing.assert_allclose(ours.task.body_weight, theirs.task._body_weight, rtol=1e-7)
  np.testing.assert_allclose(
    [ours.task.torso_stand_height, ours.task.pelvis_stand_height],
    theirs.task._stand_height,
    rtol=1e-7,
  )
  params = ours.task.kernel_params(ours.physics)
  offsets = ours.task.params.offsets
  assert params[offsets["body_weight"]] == weight
  assert params[offsets["torso_stand_height"]] == ours.task.torso_stand_height
