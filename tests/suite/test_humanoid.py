"""humanoid and humanoid_CMU: compiled models (the totals of docs/suite_models.md, dm_control's
fields), the contact-free initial state over several seeds, episode ends, against dm_control
1.0.50."""

import pathlib

import numpy as np
import pytest

from suite import humanoid
from suite import humanoid_CMU
from tests.suite import parity

_MODULES = {"humanoid": humanoid, "humanoid_CMU": humanoid_CMU}
_DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "suite_models.md"


def _documented_totals(domain):
  """(nq, nv, nu, na, nbody, njnt, ngeom, nsite, nsensordata), total mass and meaninertia: the
  row of `domain` in the compiled totals table of docs/suite_models.md (dm_control's values)."""
  for line in _DOC.read_text().splitlines():
    cells = [c.strip() for c in line.strip("|").split("|")]
    if len(cells) == 14 and cells[0] == domain:
      return tuple(int(c) for c in cells[3:12]), float(cells[12]), float(cells[13])
  raise AssertionError(f"docs/suite_models.md has no compiled totals row for {domain}")


# compiled fields compared exactly with dm_control's model
_FIELDS = (
  "body_parentid",
  "body_pos",
  "body_quat",
  "body_ipos",
  "body_iquat",
  "body_mass",
  "body_inertia",
  "jnt_type",
  "jnt_bodyid",
  "jnt_axis",
  "jnt_pos",
  "jnt_range",
  "jnt_stiffness",
  "jnt_solimp",
  "dof_damping",
  "dof_armature",
  "dof_invweight0",
  "qpos0",
  "geom_type",
  "geom_bodyid",
  "geom_size",
  "geom_pos",
  "geom_quat",
  "geom_condim",
  "geom_friction",
  "geom_solref",
  "geom_solimp",
  "geom_contype",
  "geom_conaffinity",
  "site_type",
  "site_bodyid",
  "site_size",
  "site_pos",
  "site_quat",
  "actuator_trnid",
  "actuator_gear",
  "actuator_ctrlrange",
  "actuator_ctrllimited",
  "sensor_type",
  "sensor_objid",
  "sensor_adr",
  "exclude_signature",
  "cam_pos",
  "cam_quat",
  "cam_mode",
)


@pytest.mark.parametrize("domain", sorted(_MODULES))
def test_compiled_totals(domain):
  sizes, mass, meaninertia = _documented_totals(domain)
  module = _MODULES[domain]
  model = module.Physics.from_xml_string(*module.get_model_and_assets()).model
  assert (
    model.nq,
    model.nv,
    model.nu,
    model.na,
    model.nbody,
    model.njnt,
    model.ngeom,
    model.nsite,
    model.nsensordata,
  ) == sizes
  np.testing.assert_allclose(model.body_mass.sum(), mass, rtol=1e-6)
  np.testing.assert_allclose(model.stat.meaninertia, meaninertia, rtol=1e-5)


@pytest.mark.parametrize("domain", sorted(_MODULES))
def test_model_matches_dm_control(domain):
  """Our XML compiled by MuJoCo equals dm_control's model exactly; compiled by our engine, up
  to the compiler's rounding (inertia frames, invweight0: ~1e-15 relative)."""
  mujoco = pytest.importorskip("mujoco")
  from dm_control import suite as dm_suite

  module = _MODULES[domain]
  theirs = mujoco.MjModel.from_xml_string(*getattr(dm_suite, domain).get_model_and_assets())
  by_mujoco = mujoco.MjModel.from_xml_string(*module.get_model_and_assets())
  ours = module.Physics.from_xml_string(*module.get_model_and_assets()).model
  for field in _FIELDS:
    np.testing.assert_array_equal(getattr(by_mujoco, field), getattr(theirs, field), err_msg=field)
    np.testing.assert_allclose(
      getattr(ours, field), getattr(theirs, field), rtol=1e-12, atol=1e-14, err_msg=field
    )
  assert ours.opt.timestep == theirs.opt.timestep
  np.testing.assert_allclose(ours.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-12)


@pytest.mark.parametrize(
  "domain,task", [("humanoid", "walk"), ("humanoid", "run_pure_state"), ("humanoid_CMU", "stand")]
)
def test_initial_state_over_seeds(domain, task):
  """The rejection loop (resample until contact-free) draws as dm_control's does."""
  for seed in range(1, 6):
    ours, theirs = parity.load_pair(domain, task, seed)
    t1, t2 = ours.reset(), theirs.reset()
    parity.assert_observations_close(
      t1.observation, t2.observation, parity.RESET_ATOL, f"seed {seed}"
    )
    np.testing.assert_array_equal(ours.physics.data.qpos, theirs.physics.data.qpos)
    assert ours.physics.data.ncon == 0


@pytest.mark.parametrize("domain,task", [("humanoid", "stand"), ("humanoid_CMU", "run")])
def test_episode_ends_as_dm_controls(domain, task):
  """With a time limit of 3 control steps, the step types and discounts equal dm_control's
  (for humanoid, 3 * 0.025 / (5 * 0.005) rounds above 3, so both take 4 steps)."""
  runs = []
  for env in parity.load_pair(
    domain, task, time_limit=3 * 0.025 if domain == "humanoid" else 3 * 0.02
  ):
    env.reset()
    action = np.zeros(env.action_spec().shape)
    runs.append([(t.step_type, t.discount) for t in (env.step(action) for _ in range(6))])
  assert runs[0] == runs[1]


def test_observation_sizes():
  env = humanoid.stand(random=0)
  sizes = {k: np.shape(v) for k, v in env.reset().observation.items()}
  assert sizes == {
    "joint_angles": (21,),
    "head_height": (),
    "extremities": (12,),
    "torso_vertical": (3,),
    "com_velocity": (3,),
    "velocity": (27,),
  }
  env = humanoid.run_pure_state(random=0)
  sizes = {k: np.shape(v) for k, v in env.reset().observation.items()}
  assert sizes == {"position": (28,), "velocity": (27,)}
  env = humanoid_CMU.walk(random=0)
  sizes = {k: np.shape(v) for k, v in env.reset().observation.items()}
  assert sizes == {
    "joint_angles": (56,),
    "head_height": (),
    "extremities": (12,),
    "torso_vertical": (3,),
    "com_velocity": (3,),
    "velocity": (62,),
  }


def test_physics_copy_keeps_indices():
  physics = humanoid_CMU.Physics.from_xml_string(*humanoid_CMU.get_model_and_assets())
  clone = physics.copy()
  np.testing.assert_array_equal(clone.extremities(), physics.extremities())
  assert clone.thorax_upright() == physics.named.data.xmat["thorax", "zy"]
  assert clone.head_height() == physics.named.data.xpos["head", "z"]
