"""Checks shared by the manipulator and stacker tests (the same planar arm)."""

import numpy as np

from tests.suite import parity

_MIDPHASE = 1 << 14  # mjDSBL_MIDPHASE


def assert_models_equal(ours, theirs):
  """Names in id order and the compiled fields the tasks depend on, `ours` (our engine) against
  `theirs` (an MjModel)."""
  import mujoco

  for kind, size in (
    ("body", "nbody"),
    ("joint", "njnt"),
    ("geom", "ngeom"),
    ("site", "nsite"),
    ("actuator", "nu"),
    ("sensor", "nsensor"),
  ):
    names = [ours.id2name(i, kind) for i in range(getattr(ours, size))]
    obj = getattr(mujoco.mjtObj, f"mjOBJ_{kind.upper()}")
    assert names == [mujoco.mj_id2name(theirs, obj, i) for i in range(getattr(theirs, size))]
  for field in (
    "body_pos",
    "body_quat",
    "body_mass",
    "body_inertia",
    "body_ipos",
    "jnt_range",
    "jnt_solref",
    "jnt_solimp",
    "qpos0",
    "dof_damping",
    "dof_invweight0",
    "geom_type",
    "geom_size",
    "geom_pos",
    "geom_quat",
    "geom_friction",
    "geom_solref",
    "geom_solimp",
    "geom_contype",
    "geom_conaffinity",
    "site_pos",
    "site_quat",
    "wrap_prm",
    "eq_data",
    "eq_solref",
    "eq_solimp",
    "actuator_gear",
    "actuator_ctrlrange",
    "actuator_trnid",
    "sensor_objid",
  ):
    np.testing.assert_allclose(
      np.asarray(getattr(ours, field), float),
      np.asarray(getattr(theirs, field), float),
      rtol=1e-12,
      atol=1e-15,
      err_msg=field,
    )
  np.testing.assert_allclose(ours.ptr.stat.meaninertia, theirs.stat.meaninertia, rtol=1e-12)


def assert_resets_match(domain, task, seeds=range(6), episodes=3, midphase=True, **kwargs):
  """Several episodes per seed: first observations, state, edited model poses and the random
  state after each reset are dm_control's (midphase=False: both engines without the collision
  midphase)."""
  for seed in seeds:
    ours, theirs = parity.load_pair(domain, task, seed, **kwargs)
    if not midphase:
      ours.physics.model.opt.disableflags |= _MIDPHASE
      theirs.physics.model.opt.disableflags |= _MIDPHASE
    for episode in range(episodes):
      label = f"seed {seed} episode {episode}"
      a, b = ours.reset(), theirs.reset()
      parity.assert_observations_close(a.observation, b.observation, parity.RESET_ATOL, label)
      np.testing.assert_allclose(
        ours.physics.data.qvel, theirs.physics.data.qvel, atol=1e-12, err_msg=label
      )
      np.testing.assert_array_equal(
        ours.physics.model.body_pos, theirs.physics.model.body_pos, err_msg=label
      )
      np.testing.assert_array_equal(
        ours.physics.model.body_quat, theirs.physics.model.body_quat, err_msg=label
      )
      np.testing.assert_array_equal(
        ours.task.random.get_state()[1], theirs.task.random.get_state()[1], err_msg=label
      )
