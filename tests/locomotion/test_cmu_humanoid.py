"""The CMU humanoid walkers against dm_control 1.0.50: our MJCF assets compiled by our mjcf and
engine against dm_control's assets compiled by dm_control's mjcf and MuJoCo, field by field."""

import os

import numpy as np
import pytest

import mjcf
from assets import LOCOMOTION

os.environ.setdefault("MUJOCO_GL", "disable")

from dm_control import mjcf as dm_mjcf  # noqa: E402  (after MUJOCO_GL)
from dm_control.locomotion.walkers import cmu_humanoid as dm_cmu  # noqa: E402

VERSIONS = ("2019", "2020")

_COUNTS = ("nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "ncam", "nlight", "nmat",
           "nsensor", "nsensordata", "nexclude", "ntendon", "neq", "nkey", "njmax", "nconmax")
_NAMED = ("body", "joint", "geom", "site", "camera", "light", "actuator", "sensor", "material")
# fields the compiler copies or derives exactly from the XML's numbers
_EXACT = (
  "body_parentid", "body_rootid", "body_weldid", "body_jntnum", "body_jntadr", "body_dofnum",
  "body_dofadr", "body_geomnum", "body_geomadr", "body_pos", "body_quat", "body_mass",
  "body_subtreemass", "body_ipos",
  "jnt_type", "jnt_bodyid", "jnt_qposadr", "jnt_dofadr", "jnt_axis", "jnt_pos", "jnt_range",
  "jnt_limited", "jnt_stiffness", "jnt_solref", "jnt_solimp", "jnt_margin", "jnt_group",
  "qpos0", "qpos_spring",
  "dof_bodyid", "dof_jntid", "dof_parentid", "dof_armature", "dof_damping", "dof_frictionloss",
  "dof_solref", "dof_solimp",
  "geom_type", "geom_bodyid", "geom_contype", "geom_conaffinity", "geom_condim",
  "geom_priority", "geom_friction", "geom_solref", "geom_solimp", "geom_solmix", "geom_margin",
  "geom_gap", "geom_size", "geom_pos", "geom_quat", "geom_group", "geom_matid", "geom_rgba",
  "geom_rbound",
  "site_type", "site_bodyid", "site_size", "site_pos", "site_quat", "site_group", "site_rgba",
  "cam_bodyid", "cam_mode", "cam_targetbodyid", "cam_pos", "cam_quat", "cam_fovy",
  "light_mode", "light_bodyid", "light_pos", "light_dir",
  "actuator_trntype", "actuator_trnid", "actuator_dyntype", "actuator_dynprm",
  "actuator_gaintype", "actuator_gainprm", "actuator_biastype", "actuator_biasprm",
  "actuator_gear", "actuator_ctrlrange", "actuator_ctrllimited", "actuator_forcerange",
  "actuator_forcelimited", "actuator_actlimited", "actuator_actrange", "actuator_actadr",
  "actuator_actnum",
  "sensor_type", "sensor_objtype", "sensor_objid", "sensor_reftype", "sensor_refid",
  "sensor_dim", "sensor_adr", "sensor_noise", "sensor_cutoff",
  "exclude_signature", "mat_rgba")
# fields from eigen-decompositions and factorizations: equal to rounding
_DERIVED = ("body_inertia", "body_iquat", "body_invweight0", "dof_invweight0", "dof_M0",
            "actuator_acc0")


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
    count = getattr(theirs, "ncam" if kind == "camera" else "nmat" if kind == "material"
                    else "nu" if kind == "actuator" else "n" + kind.replace("joint", "jnt"))
    assert ([ours.id2name(i, kind) for i in range(count)]
            == [theirs.id2name(i, kind) for i in range(count)]), kind
  for name in _EXACT:
    np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
  for name in _DERIVED:
    np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=1e-12,
                               atol=1e-14, err_msg=name)
  np.testing.assert_allclose(ours.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-12)
  np.testing.assert_array_equal(ours.stat.center, theirs.stat.center)
  assert ours.stat.extent == theirs.stat.extent


@pytest.mark.parametrize("version", VERSIONS)
def test_asset_compiles_to_dm_controls_model(version):
  """Our MJCF of each version compiles to dm_control's walker asset's model."""
  ours = mjcf.Physics.from_mjcf_model(ours_asset(version)).model
  theirs = dm_mjcf.Physics.from_mjcf_model(theirs_asset(version)).model
  assert_models_equal(ours, theirs)


@pytest.mark.parametrize("version,sizes,mass", [
  ("2019", dict(nbody=32, njnt=56, nu=56, ngeom=43, ncam=7, nsensor=15, nsite=13), 39.6254),
  ("2020", dict(nbody=32, njnt=56, nu=56, ngeom=45, ncam=5, nsensor=15, nsite=14), 66.9545)])
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
