"""The rat's model (assets/locomotion/walkers/rodent.xml) against dm_control 1.0.50's: ours
compiled by our mjcf and engine, theirs by dm_control's mjcf and MuJoCo, without its skin (visual
only). Our XML writes numbers with 12 significant digits, so quantities written in it match to
~1e-11 of their size, derived ones (inertias, principal frames) a little less; everything
else, names, orders, classes' effects and integer fields, exactly."""

import os

import numpy as np
import pytest

import assets
import mjcf

os.environ.setdefault("MUJOCO_GL", "disable")

from dm_control import mjcf as dm_mjcf  # noqa: E402  (after MUJOCO_GL)
from dm_control.locomotion.walkers import rodent as dm_rodent  # noqa: E402

RODENT_XML = assets.LOCOMOTION / "walkers" / "rodent.xml"

# relative tolerance of numbers written with 12 significant digits, and the absolute one of
# values near zero (positions of ~1e-2 m, unit quaternions and axes)
WRITTEN = dict(rtol=1e-11, atol=1e-13)
ORIENTATION = dict(rtol=0, atol=1e-11)


def _model_without_skin():
  """dm_control's rat model with its skin asset removed."""
  model = dm_mjcf.from_path(dm_rodent._XML_PATH)
  for skin in model.asset.find_all("skin"):
    skin.remove()
  return model


@pytest.fixture(scope="module")
def models():
  """(ours, theirs): the compiled models."""
  ours = mjcf.Physics.from_mjcf_model(mjcf.from_path(str(RODENT_XML))).model
  theirs = dm_mjcf.Physics.from_mjcf_model(_model_without_skin()).model
  return ours, theirs


def _names(model, kind, count):
  return [model.id2name(i, kind) for i in range(count)]


def _assert_fields(ours, theirs, exact=(), **tolerance):
  for name in exact:
    np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
  for name, tol in tolerance.items():
    np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), err_msg=name, **tol)


def test_sizes_and_totals(models):
  """The sizes of the model, its 0.338 kg, and the shapes: 56 capsules, 22 ellipsoids,
  15 spheres and 7 boxes."""
  ours, theirs = models
  for name in ("nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "ntendon", "nwrap",
               "nsensor", "nsensordata", "nexclude", "ncam", "nlight", "neq", "nkey", "nskin",
               "nmesh", "ntex", "nmat"):
    assert getattr(ours, name) == getattr(theirs, name), name
  assert (ours.nq, ours.nu, ours.nbody, ours.ngeom, ours.ntendon, ours.nexclude) == \
      (67, 38, 66, 100, 8, 26)
  assert ours.nskin == 0 and theirs.nskin == 0
  types = {name: int(np.sum(ours.geom_type == code))
           for name, code in (("sphere", 2), ("capsule", 3), ("ellipsoid", 4), ("box", 6))}
  assert types == {"sphere": 15, "capsule": 56, "ellipsoid": 22, "box": 7}
  np.testing.assert_allclose(ours.body_subtreemass[0], theirs.body_subtreemass[0], rtol=1e-11)
  np.testing.assert_allclose(ours.body_subtreemass[0], 0.33778, rtol=1e-5)
  np.testing.assert_allclose(ours.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-10)
  np.testing.assert_allclose(ours.stat.extent, theirs.stat.extent, rtol=1e-11)
  np.testing.assert_allclose(ours.stat.center, theirs.stat.center, rtol=1e-11, atol=1e-13)
  assert ours.stat.meansize == theirs.stat.meansize == 0.003
  for name in ("timestep", "iterations", "tolerance", "cone", "integrator", "jacobian",
               "solver", "noslip_iterations", "disableflags", "enableflags"):
    assert getattr(ours.opt, name) == getattr(theirs.opt, name), name
  assert ours.nconmax == theirs.nconmax and ours.njmax == theirs.njmax


def test_body_tree(models):
  """Names and order, parents, poses, masses, inertias and frames of the 66 bodies."""
  ours, theirs = models
  assert _names(ours, "body", ours.nbody) == _names(theirs, "body", theirs.nbody)
  _assert_fields(
      ours, theirs,
      exact=("body_parentid", "body_rootid", "body_weldid", "body_jntnum", "body_jntadr",
             "body_dofnum", "body_dofadr", "body_geomnum", "body_geomadr", "body_sameframe",
             "body_simple", "body_mocapid"),
      body_pos=WRITTEN, body_quat=ORIENTATION, body_mass=dict(rtol=1e-10),
      body_subtreemass=dict(rtol=1e-10), body_inertia=dict(rtol=1e-9),
      body_ipos=dict(rtol=0, atol=1e-13),
      # lower_arm_L's two largest moments differ by 4e-4 of their size, which turns its
      # principal frame by ~2e-11 for a 1e-12 change of a size
      body_iquat=dict(rtol=0, atol=1e-10),
      body_invweight0=dict(rtol=1e-10))


def test_joints_and_dofs(models):
  """The 67 hinges: names, order, classes' damping, armature, stiffness and limits, positions,
  axes, reference and spring angles."""
  ours, theirs = models
  assert _names(ours, "joint", ours.njnt) == _names(theirs, "joint", theirs.njnt)
  _assert_fields(
      ours, theirs,
      exact=("jnt_type", "jnt_bodyid", "jnt_qposadr", "jnt_dofadr", "jnt_limited", "jnt_group",
             "jnt_stiffness", "jnt_solref", "jnt_solimp", "jnt_margin", "jnt_actfrclimited",
             "dof_bodyid", "dof_jntid", "dof_parentid", "dof_treeid", "dof_damping",
             "dof_armature", "dof_frictionloss", "dof_solref", "dof_solimp", "qpos0"),
      jnt_pos=WRITTEN, jnt_axis=ORIENTATION, jnt_range=WRITTEN, qpos_spring=WRITTEN,
      dof_invweight0=dict(rtol=1e-10), dof_M0=dict(rtol=1e-10))


def test_geoms(models):
  """The 100 geoms, matched by name: same order, bodies, shapes, contact parameters, densities'
  effect (through the masses above) and appearance. Sizes: the slots the shape uses (dm_control
  writes a third, unused size for some capsules and spheres)."""
  ours, theirs = models
  assert _names(ours, "geom", ours.ngeom) == _names(theirs, "geom", theirs.ngeom)
  _assert_fields(
      ours, theirs,
      exact=("geom_type", "geom_bodyid", "geom_contype", "geom_conaffinity", "geom_condim",
             "geom_priority", "geom_friction", "geom_solmix", "geom_solref", "geom_solimp",
             "geom_margin", "geom_gap", "geom_group", "geom_rgba", "geom_sameframe"),
      geom_pos=WRITTEN, geom_quat=ORIENTATION, geom_rbound=WRITTEN, geom_aabb=WRITTEN)
  used = np.array([[1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 1, 0],
                   [1, 1, 1]], bool)[ours.geom_type]  # plane, hfield, sphere ... box
  np.testing.assert_allclose(ours.geom_size[used], theirs.geom_size[used], **WRITTEN)


def test_tendons_and_excludes(models):
  """The 8 fixed tendons (their joints, coefficients, unlimited ranges) and the 26 contact
  exclusions."""
  ours, theirs = models
  assert _names(ours, "tendon", ours.ntendon) == _names(theirs, "tendon", theirs.ntendon)
  _assert_fields(
      ours, theirs,
      exact=("tendon_adr", "tendon_num", "tendon_limited", "tendon_range", "tendon_stiffness",
             "tendon_damping", "tendon_frictionloss", "wrap_type", "wrap_objid",
             "exclude_signature"),
      wrap_prm=dict(rtol=1e-12), tendon_length0=WRITTEN, tendon_invweight0=dict(rtol=1e-10))
  assert _names(ours, "exclude", ours.nexclude) == _names(theirs, "exclude", theirs.nexclude)


def test_actuators(models):
  """The 38 position servos: targets, activation filters, gains and affine biases, control and
  force ranges."""
  ours, theirs = models
  assert _names(ours, "actuator", ours.nu) == _names(theirs, "actuator", theirs.nu)
  _assert_fields(
      ours, theirs,
      exact=("actuator_trntype", "actuator_trnid", "actuator_dyntype", "actuator_dynprm",
             "actuator_gaintype", "actuator_biastype", "actuator_ctrllimited",
             "actuator_forcelimited", "actuator_actlimited", "actuator_ctrlrange",
             "actuator_forcerange", "actuator_gear", "actuator_actadr", "actuator_actnum"),
      actuator_gainprm=WRITTEN, actuator_biasprm=WRITTEN, actuator_length0=WRITTEN,
      actuator_acc0=dict(rtol=1e-10))
  assert list(ours.actuator_trntype).count(0) == 30  # on joints; the other 8 on tendons


def test_sensors_sites_cameras_and_light(models):
  """The 8 sensors on their sites and body, the 21 sites, the 5 cameras (egocentric one in the
  skull) and the tracking light."""
  ours, theirs = models
  for kind, count in (("sensor", "nsensor"), ("site", "nsite"), ("camera", "ncam"),
                      ("light", "nlight")):
    n = getattr(ours, count)
    assert _names(ours, kind, n) == _names(theirs, kind, n), kind
  _assert_fields(
      ours, theirs,
      exact=("sensor_type", "sensor_datatype", "sensor_needstage", "sensor_objtype",
             "sensor_objid", "sensor_reftype", "sensor_refid", "sensor_dim", "sensor_adr",
             "sensor_cutoff", "sensor_noise", "site_type", "site_bodyid", "site_group",
             "site_rgba", "cam_mode", "cam_bodyid", "cam_targetbodyid", "cam_fovy",
             "cam_resolution", "light_mode", "light_bodyid", "light_pos", "light_dir"),
      site_pos=WRITTEN, site_quat=ORIENTATION, site_size=WRITTEN, cam_pos=WRITTEN,
      cam_quat=ORIENTATION)
  assert ours.cam_bodyid[ours.name2id("egocentric", "camera")] == ours.name2id("skull", "body")
