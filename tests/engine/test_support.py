"""Jacobians, applied forces, position integration and names match MuJoCo."""

import mujoco
import numpy as np
import pytest

import engine
from tests import oracle
from tests import trees


def _random_state(mjm, mjd, rng):
  mjd.qpos[:] = mjm.qpos0 + 0.3 * rng.normal(size=mjm.nq)
  for j in range(mjm.njnt):
    adr = mjm.jnt_qposadr[j]
    if mjm.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
      mjd.qpos[adr + 3 : adr + 7] /= np.linalg.norm(mjd.qpos[adr + 3 : adr + 7])
    elif mjm.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
      mjd.qpos[adr : adr + 4] /= np.linalg.norm(mjd.qpos[adr : adr + 4])
  mjd.qvel[:] = rng.normal(size=mjm.nv)


@pytest.mark.parametrize("seed", range(4))
def test_jacobians_match(seed):
  rng = np.random.default_rng(seed)
  mjm, mjd, m, d = oracle.load(trees.random_tree_xml(seed))
  _random_state(mjm, mjd, rng)
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_forward(m, d)
  for body in range(mjm.nbody):
    point = rng.normal(size=3)
    want_p, want_r = np.zeros((3, mjm.nv)), np.zeros((3, mjm.nv))
    got_p, got_r = np.full((3, m.nv), np.nan), np.full((3, m.nv), np.nan)
    mujoco.mj_jac(mjm, mjd, want_p, want_r, point, body)
    engine.mj_jac(m, d, got_p, got_r, point, body)
    np.testing.assert_allclose(got_p, want_p, atol=1e-9)
    np.testing.assert_allclose(got_r, want_r, atol=1e-9)
    mujoco.mj_jacSubtreeCom(mjm, mjd, want_p, body)
    engine.mj_jacSubtreeCom(m, d, got_p, body)
    np.testing.assert_allclose(got_p, want_p, atol=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_apply_ft_matches(seed):
  rng = np.random.default_rng(seed)
  mjm, mjd, m, d = oracle.load(trees.random_tree_xml(seed))
  _random_state(mjm, mjd, rng)
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_forward(m, d)
  for body in range(1, mjm.nbody):
    f, t, p = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
    want, got = np.zeros(mjm.nv), np.zeros(mjm.nv)
    mujoco.mj_applyFT(mjm, mjd, f, t, p, body, want)
    engine.mj_applyFT(m, d, f, t, p, body, got)
    np.testing.assert_allclose(got, want, atol=1e-10)


@pytest.mark.parametrize("seed", range(4))
def test_integrate_and_differentiate_pos(seed):
  rng = np.random.default_rng(seed)
  mjm, mjd, m, d = oracle.load(trees.random_tree_xml(seed))
  _random_state(mjm, mjd, rng)
  qvel, dt = rng.normal(size=mjm.nv), 0.37
  want, got = mjd.qpos.copy(), mjd.qpos.copy()
  mujoco.mj_integratePos(mjm, want, qvel, dt)
  engine.mj_integratePos(m, got, qvel, dt)
  np.testing.assert_allclose(got, want, atol=1e-12)
  v_want, v_got = np.zeros(mjm.nv), np.zeros(mjm.nv)
  mujoco.mj_differentiatePos(mjm, v_want, dt, mjd.qpos, want)
  engine.mj_differentiatePos(m, v_got, dt, mjd.qpos, got)
  np.testing.assert_allclose(v_got, v_want, atol=1e-10)
  np.testing.assert_allclose(v_got, qvel, atol=1e-9)  # round trip


def test_name_lookup_matches():
  mjm, _, m, _ = oracle.load(trees.random_tree_xml(1))
  for objtype in (mujoco.mjtObj.mjOBJ_BODY, mujoco.mjtObj.mjOBJ_JOINT, mujoco.mjtObj.mjOBJ_GEOM):
    n = {
      mujoco.mjtObj.mjOBJ_BODY: mjm.nbody,
      mujoco.mjtObj.mjOBJ_JOINT: mjm.njnt,
      mujoco.mjtObj.mjOBJ_GEOM: mjm.ngeom,
    }[objtype]
    for i in range(n):
      name = mujoco.mj_id2name(mjm, objtype, i)
      assert engine.mj_id2name(m, int(objtype), i) == name
      if name:
        assert engine.mj_name2id(m, int(objtype), name) == i
  assert engine.mj_name2id(m, engine.mjtObj.mjOBJ_BODY, "no such body") == -1


def test_bad_arguments_raise():
  _, _, m, d = oracle.load(trees.random_tree_xml(0))
  with pytest.raises(ValueError, match="body id"):
    engine.mj_jac(m, d, None, None, np.zeros(3), m.nbody)
  with pytest.raises(ValueError, match="point"):
    engine.mj_jac(m, d, None, None, np.zeros(2), 1)
