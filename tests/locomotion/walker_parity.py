"""Comparisons of a walker built on our stack with the same walker built on dm_control's:
compiled models field by field, observables at the same physics state, action specs.

`build_pair(make)` puts `make(walkers_module)` into an arena with a floor on each stack and
compiles both; `settle(theirs)` steps dm_control's physics under random controls to a state
with contacts; `copy_state(theirs, ours)` copies it into ours.
"""

import os

import numpy as np

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

# contact forces depend on the solver's convergence (the tolerance is set tight below)
DYNAMIC_RTOL = 1e-6
DYNAMIC_ATOL = 1e-6
KINEMATIC_ATOL = 1e-9

# kinds whose names are part of the walker's interface (material and texture names are internal
# to each model); unnamed contact excludes get PyMJCF's generated names on both sides
_KINDS = (
  "body",
  "joint",
  "geom",
  "site",
  "camera",
  "light",
  "actuator",
  "sensor",
  "tendon",
  "exclude",
)
_SIZES = (
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
  "ntex",
  "ntendon",
  "nexclude",
  "nsensor",
  "nsensordata",
  "nmocap",
  "neq",
  "nkey",
)
# read exactly from the XML (numbers written as in dm_control's model) or by exact arithmetic
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
  "jnt_type",
  "jnt_qposadr",
  "jnt_dofadr",
  "jnt_bodyid",
  "jnt_group",
  "jnt_limited",
  "jnt_solref",
  "jnt_solimp",
  "jnt_pos",
  "jnt_axis",
  "jnt_stiffness",
  "jnt_range",
  "jnt_margin",
  "qpos0",
  "qpos_spring",
  "dof_bodyid",
  "dof_jntid",
  "dof_parentid",
  "dof_armature",
  "dof_damping",
  "dof_frictionloss",
  "geom_type",
  "geom_contype",
  "geom_conaffinity",
  "geom_condim",
  "geom_bodyid",
  "geom_group",
  "geom_priority",
  "geom_solmix",
  "geom_solref",
  "geom_solimp",
  "geom_margin",
  "geom_gap",
  "geom_friction",
  "geom_rgba",
  "geom_matid",
  "site_type",
  "site_bodyid",
  "site_group",
  "site_size",
  "site_pos",
  "site_quat",
  "site_rgba",
  "cam_mode",
  "cam_bodyid",
  "cam_targetbodyid",
  "cam_pos",
  "cam_quat",
  "cam_fovy",
  "actuator_trntype",
  "actuator_dyntype",
  "actuator_gaintype",
  "actuator_biastype",
  "actuator_trnid",
  "actuator_ctrllimited",
  "actuator_forcelimited",
  "actuator_dynprm",
  "actuator_gainprm",
  "actuator_biasprm",
  "actuator_ctrlrange",
  "actuator_forcerange",
  "actuator_gear",
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
  "exclude_signature",
  "mat_rgba",
)
# computed by the compiler (mass properties, bounding sizes, quaternions of fromto geoms)
_COMPUTED = (
  "body_mass",
  "body_subtreemass",
  "body_inertia",
  "body_ipos",
  "body_iquat",
  "geom_size",
  "geom_pos",
  "geom_quat",
  "geom_rbound",
  "dof_invweight0",
  "body_invweight0",
  "actuator_length0",
  "actuator_acc0",
)


def namespaces(ours):
  """(walkers module, composer, mjcf) of our stack or dm_control's."""
  if ours:
    import composer
    import mjcf
    from suite.locomotion import walkers
  else:
    from dm_control import composer
    from dm_control import mjcf
    from dm_control.locomotion import walkers
  return walkers, composer, mjcf


def build(ours, make):
  """(walker, physics): `make(walkers)` attached by its root joints to an arena with a floor.

  The arena's solver tolerance is tight, so that contact forces agree between the engines.
  """
  walkers, composer, mjcf = namespaces(ours)
  walker = make(walkers)
  arena = composer.Arena()
  arena.mjcf_model.worldbody.add("geom", name="floor", type="plane", size=[8, 8, 0.1])
  arena.mjcf_model.option.tolerance = 1e-14
  walker.create_root_joints(arena.attach(walker))
  physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  walker.after_compile(physics, np.random.RandomState(0))
  return walker, physics


def build_pair(make):
  """((our walker, our physics), (dm_control's walker, its physics))."""
  return build(True, make), build(False, make)


def names(model, kind, count):
  return [model.id2name(i, kind) for i in range(count)]


def assert_models_match(ours, theirs, skip=()):
  """Compiled models agree: sizes, names of every kind in order, the fields read from the
  XML exactly, and the fields the compiler computes to rounding (but the fields in `skip`)."""
  for size in _SIZES:
    assert getattr(ours, size) == getattr(theirs, size), size
  counts = dict(
    body=ours.nbody,
    joint=ours.njnt,
    geom=ours.ngeom,
    site=ours.nsite,
    camera=ours.ncam,
    light=ours.nlight,
    actuator=ours.nu,
    sensor=ours.nsensor,
    tendon=ours.ntendon,
    exclude=ours.nexclude,
  )
  for kind in _KINDS:
    assert names(ours, kind, counts[kind]) == names(theirs, kind, counts[kind]), kind
  for field in (field for field in _EXACT if field not in skip):
    np.testing.assert_array_equal(
      np.asarray(getattr(ours, field)), np.asarray(getattr(theirs, field)), err_msg=field
    )
  for field in (field for field in _COMPUTED if field not in skip):
    np.testing.assert_allclose(
      np.asarray(getattr(ours, field)),
      np.asarray(getattr(theirs, field)),
      rtol=1e-9,
      atol=1e-12,
      err_msg=field,
    )
  for field in ("timestep", "gravity", "cone", "integrator", "noslip_iterations"):
    np.testing.assert_array_equal(getattr(ours.opt, field), getattr(theirs.opt, field), field)
  np.testing.assert_allclose(ours.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-9)


def settle(physics, steps=150, seed=0):
  """Steps dm_control's physics under random controls within their ranges."""
  rng = np.random.RandomState(seed)
  low, high = physics.model.actuator_ctrlrange.T
  for _ in range(steps):
    physics.data.ctrl[:] = rng.uniform(low, high)
    physics.step()


def copy_state(theirs, ours):
  """dm_control's state (and controls, applied forces) into ours, then forward on both."""
  for field in ("qpos", "qvel", "act", "ctrl", "qacc_warmstart", "xfrc_applied", "qfrc_applied"):
    getattr(ours.data, field)[:] = getattr(theirs.data, field)
  ours.data.time = theirs.data.time
  ours.forward()
  theirs.forward()


def readings(walker, physics, skip=("egocentric_camera",)):
  """{key: reading} of every observable of `walker` but the renderer."""
  return {
    key: np.asarray(obs.observation_callable(physics, np.random.RandomState(0))())
    for key, obs in walker.observables.as_dict().items()
    if key.rsplit("/", 1)[-1] not in skip
  }


def assert_readings_match(ours, theirs, dynamic=(), rtol=DYNAMIC_RTOL, atol=DYNAMIC_ATOL):
  """Same keys in the same order; values to rounding, those named in `dynamic` (through the
  contact solver) to the solver's convergence (rtol, atol)."""
  assert list(ours) == list(theirs)
  for key, value in theirs.items():
    assert np.shape(ours[key]) == np.shape(value), key
    if key.rsplit("/", 1)[-1] in dynamic:
      np.testing.assert_allclose(ours[key], value, rtol=rtol, atol=atol, err_msg=key)
    else:
      np.testing.assert_allclose(ours[key], value, rtol=0, atol=KINEMATIC_ATOL, err_msg=key)


def assert_action_specs_equal(ours, theirs):
  assert (ours.shape, ours.dtype, ours.name) == (theirs.shape, theirs.dtype, theirs.name)
  np.testing.assert_array_equal(ours.minimum, theirs.minimum)
  np.testing.assert_array_equal(ours.maximum, theirs.maximum)
