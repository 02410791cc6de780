"""quadruped beyond the parity test: the model variants against dm_control's totals and
compiled models (docs/suite.md), the escape terrain and its rangefinders, more reset seeds."""

import numpy as np
import pytest

import engine
import suite
from suite import common
from suite import quadruped
from tests.suite import parity

mujoco = pytest.importorskip("mujoco")
from dm_control.suite import common as dm_common  # noqa: E402  (parity sets MUJOCO_GL first)
from dm_control.suite import quadruped as dm_quadruped  # noqa: E402

# make_model arguments of each task (floor size, terrain, rangefinders, walls and ball)
VARIANTS = {
  "walk": (10, False, False, False),
  "run": (100, False, False, False),
  "escape": (40, True, True, False),
  "fetch": (None, False, False, True),
  "superset": (None, True, True, True),
}


@pytest.mark.parametrize("task", ["walk", "run", "escape", "fetch"])
def test_reset_matches_dm_control_over_seeds(task):
  """Initial state and model edits (height field) are the same, seed by seed, with the
  reward colours reset at the same point of the episode initializer."""
  for seed in range(2, 5):
    ours, theirs = parity.load_pair("quadruped", task, seed)
    ours.task.visualize_reward = theirs.task.visualize_reward = True
    t1, t2 = ours.reset(), theirs.reset()
    parity.assert_observations_close(t1.observation, t2.observation, 1e-12, f"seed {seed}")
    np.testing.assert_array_equal(ours.physics.data.qpos, theirs.physics.data.qpos)
    np.testing.assert_array_equal(ours.physics.data.qvel, theirs.physics.data.qvel)
    np.testing.assert_array_equal(ours.physics.model.hfield_data, theirs.physics.model.hfield_data)
    np.testing.assert_allclose(
      ours.physics.model.mat_rgba, theirs.physics.model.mat_rgba, rtol=0, atol=1e-12
    )


def test_escape_terrain_is_new_every_episode():
  env = suite.load("quadruped", "escape", task_kwargs={"random": 0})
  assert not env.physics.model.hfield_data.any()  # flat until the first episode
  env.reset()
  first = env.physics.model.hfield_data.copy()
  env.reset()
  second = env.physics.model.hfield_data
  assert not np.array_equal(first, second)
  # a bowl: flat in the middle, up to ~1 (the spline overshoots) at the rim
  terrain = second.reshape(201, 201)
  assert terrain[100, 100] < 0.02 and 0.9 < terrain.max() < 1.1 and terrain.min() >= 0


def test_rangefinders_see_the_terrain():
  env = suite.load("quadruped", "escape", task_kwargs={"random": 0})
  rays = env.reset().observation["rangefinder"]
  assert rays.shape == (20,)
  assert np.all((rays > 0) & (rays <= 1))


def _variant_xml(task):
  return quadruped.make_model(*VARIANTS[task])


def _dm_variant_xml(task):
  floor, terrain, rangefinders, walls_and_ball = VARIANTS[task]
  return dm_quadruped.make_model(
    floor_size=floor, terrain=terrain, rangefinders=rangefinders, walls_and_ball=walls_and_ball
  )


@pytest.mark.parametrize(
  "task,sizes",
  [
    ("walk", dict(nq=23, nbody=18, ngeom=20, nsensor=12)),
    ("run", dict(nq=23, nbody=18, ngeom=20, nsensor=12)),
    ("escape", dict(nq=23, nbody=18, ngeom=21, nsensor=32)),
    ("fetch", dict(nq=30, nbody=19, ngeom=25, nsensor=12)),
    (
      "superset",
      dict(
        nq=30,
        nv=28,
        nu=12,
        na=12,
        nbody=19,
        njnt=18,
        ngeom=26,
        nsite=30,
        ntendon=12,
        neq=4,
        nsensor=32,
        nsensordata=56,
        nhfield=1,
      ),
    ),
  ],
)
def test_compiled_totals_from_the_tables(task, sizes):
  """Sizes, floor size, masses and meaninertia of each variant, as dm_control compiles them."""
  m = engine.MjModel.from_xml_string(_variant_xml(task), common.ASSETS)
  for name, value in sizes.items():
    assert getattr(m, name) == value, name
  floor = engine.mj_name2id(m, engine.mjtObj.mjOBJ_GEOM, "floor")
  expected_floor = VARIANTS[task][0] or 15
  np.testing.assert_array_equal(m.geom_size[floor], [expected_floor, expected_floor, 0.5])
  expected_mass = 121.2551 if sizes["nbody"] == 19 else 107.1179
  np.testing.assert_allclose(m.body_mass.sum(), expected_mass, rtol=1e-6)
  if task == "superset":
    np.testing.assert_allclose(m.stat.meaninertia, 15.1382, rtol=1e-5)
  # the rangefinder and workspace sites and the height field are kept in every variant
  assert m.nhfield == 1 and m.nsite == (30 if VARIANTS[task][3] else 29)  # + target


@pytest.mark.parametrize("task", list(VARIANTS))
def test_compiles_like_dm_controls_model(task):
  """Our XML and dm_control's, both compiled by MuJoCo, agree in every numeric model field
  (the unused radii of the spherical `workspace` site aside), and our compiler agrees with
  MuJoCo's on the fields physics reads."""
  ours = mujoco.MjModel.from_xml_string(_variant_xml(task), common.ASSETS)
  theirs = mujoco.MjModel.from_xml_string(_dm_variant_xml(task), dm_common.ASSETS)
  workspace = ours.site("workspace").id
  ours.site_size[workspace, 1:] = theirs.site_size[workspace, 1:]
  for name in dir(theirs):
    value = getattr(theirs, name)
    if name.startswith("_") or not isinstance(value, np.ndarray) or value.dtype.kind not in "fiub":
      continue
    if name in ("names", "paths", "text_data") or name.startswith("name_"):
      continue
    np.testing.assert_array_equal(getattr(ours, name), value, err_msg=name)
  for struct in ("opt", "stat"):
    for name in dir(getattr(theirs, struct)):
      value = getattr(getattr(theirs, struct), name)
      if not name.startswith("_") and isinstance(value, (int, float, np.ndarray)):
        np.testing.assert_array_equal(
          getattr(getattr(ours, struct), name), value, err_msg=f"{struct}.{name}"
        )
  for kind, count in (
    ("body", "nbody"),
    ("joint", "njnt"),
    ("geom", "ngeom"),
    ("site", "nsite"),
    ("tendon", "ntendon"),
    ("actuator", "nu"),
    ("sensor", "nsensor"),
  ):
    names = [getattr(theirs, kind)(i).name for i in range(getattr(theirs, count))]
    assert [getattr(ours, kind)(i).name for i in range(getattr(ours, count))] == names, kind

  m = engine.MjModel.from_xml_string(_variant_xml(task), common.ASSETS)
  for name in (
    "body_mass",
    "body_inertia",
    "body_ipos",
    "body_iquat",
    "body_pos",
    "body_quat",
    "jnt_range",
    "dof_damping",
    "dof_armature",
    "dof_invweight0",
    "qpos0",
    "geom_size",
    "geom_pos",
    "geom_quat",
    "geom_friction",
    "geom_solref",
    "geom_solimp",
    "geom_condim",
    "geom_priority",
    "site_pos",
    "site_quat",
    "tendon_length0",
    "wrap_prm",
    "eq_data",
    "eq_solref",
    "eq_solimp",
    "actuator_gainprm",
    "actuator_biasprm",
    "actuator_dynprm",
    "actuator_ctrlrange",
    "actuator_acc0",
    "actuator_length0",
    "sensor_type",
    "sensor_adr",
    "hfield_size",
    "hfield_nrow",
    "hfield_data",
  ):
    np.testing.assert_allclose(
      getattr(m, name), getattr(ours, name), rtol=1e-12, atol=1e-12, err_msg=name
    )
  np.testing.assert_allclose(m.stat.meaninertia, ours.stat.meaninertia, rtol=1e-12)


# dm_control's Physics accessors: every model's, then those of a variant's extra parts
_METHODS = (
  "torso_upright",
  "torso_velocity",
  "egocentric_state",
  "toe_positions",
  "force_torque",
  "imu",
  "origin_distance",
  "origin",
)
_VARIANT_METHODS = {
  "walk": (),
  "escape": ("rangefinder",),
  "fetch": ("ball_state", "target_position", "ball_to_target_distance", "self_to_ball_distance"),
}


@pytest.mark.parametrize("task", list(_VARIANT_METHODS))
def test_physics_methods_match_dm_control(task):
  """The Physics methods (the declared features) against dm_control's at the same state; each
  observation key is the method of its name, exactly."""
  ours, theirs = parity.load_pair("quadruped", task, seed=2)
  observation = ours.reset().observation
  theirs.reset()
  for name in _METHODS + _VARIANT_METHODS[task]:
    np.testing.assert_allclose(
      np.ravel(getattr(ours.physics, name)()),
      np.ravel(getattr(theirs.physics, name)()),
      rtol=parity.RESET_RTOL,
      atol=parity.RESET_ATOL,
      err_msg=name,
    )
  for key, value in observation.items():
    np.testing.assert_array_equal(getattr(ours.physics, key)(), value, err_msg=key)
