"""Oracle tests of engine/derivative.py: mjd_smooth_vel and the implicit/implicitfast integrators.

MuJoCo's analytic derivative mjd_smooth_vel is not in the Python bindings, so it is called
through ctypes in libmujoco (exported there). Each test puts MuJoCo in a random state, runs
mj_forward, copies MuJoCo's state and every intermediate quantity into our data, runs only
our derivative or integrator and compares: qDeriv, qLU/qH and the stepped qpos/qvel/act
must agree at 1e-10 relative.
"""

import ctypes
import pathlib

import mujoco
import numpy as np
import pytest

import engine
from engine import derivative
from engine import forward
from engine import sparse
from tests import jitted
from tests import oracle
from tests import trees

derivative = jitted.module(derivative)
forward = jitted.module(forward)
sparse = jitted.module(sparse)

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models" / "implicit"
XMLS = {
  name: (MODELS / f"{name}.xml").read_text() for name in ("actuators", "fluid", "free", "so3")
}
XMLS["tree"] = trees.random_tree_xml(3, nbody=10)
XMLS["tree2"] = trees.random_tree_xml(11, nbody=10)
RTOL = 1e-10


def _libmujoco():
  """ctypes handle of the libmujoco shared library inside the mujoco package."""
  libs = sorted(pathlib.Path(mujoco.__file__).parent.glob("libmujoco*"))
  lib = ctypes.CDLL(str(libs[0]))
  lib.mjd_smooth_vel.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
  return lib


LIB = _libmujoco()


def random_state(mjm, mjd, rng, vscale=1.0):
  """Random qpos (unit quaternions, limits respected), qvel, ctrl and act in MuJoCo's data."""
  mujoco.mj_resetData(mjm, mjd)
  for j in range(mjm.njnt):
    adr = mjm.jnt_qposadr[j]
    jtype = mjm.jnt_type[j]
    if jtype == mujoco.mjtJoint.mjJNT_FREE:
      mjd.qpos[adr : adr + 3] = rng.normal(size=3)
      adr += 3
    if jtype in (mujoco.mjtJoint.mjJNT_FREE, mujoco.mjtJoint.mjJNT_BALL):
      mjd.qpos[adr : adr + 4] = rng.normal(size=4)
      mujoco.mju_normalize4(mjd.qpos[adr : adr + 4])
    else:
      lo, hi = mjm.jnt_range[j] if mjm.jnt_limited[j] else (-1.0, 1.0)
      mjd.qpos[adr] = rng.uniform(lo, hi)
  mjd.qvel[:] = vscale * rng.normal(size=mjm.nv)
  mjd.ctrl[:] = rng.uniform(0.1, 0.9, size=mjm.nu)
  mjd.act[:] = rng.uniform(-0.9, 0.9, size=mjm.na)


def relerr(ours, theirs):
  """Max abs error relative to the largest magnitude of MuJoCo's array (at least 1)."""
  if theirs.size == 0:
    return 0.0
  return np.max(np.abs(ours - theirs)) / max(1.0, np.max(np.abs(theirs)))


def load(name, integrator=None):
  xml = XMLS[name]
  if integrator:
    xml = xml.replace("<mujoco>", f'<mujoco><option integrator="{integrator}"/>', 1)
  return oracle.load(xml)


@pytest.mark.parametrize("name", sorted(XMLS))
@pytest.mark.parametrize("integrator", ["Euler", "implicitfast"])
@pytest.mark.parametrize("flg_bias", [0, 1])
def test_smooth_vel_matches_mujoco(name, integrator, flg_bias):
  """qDeriv with and without the RNE term; implicitfast symmetrizes the ellipsoid fluid terms."""
  mjm, mjd, m, d = load(name, integrator)
  rng = np.random.default_rng(1)
  for _ in range(3):
    random_state(mjm, mjd, rng, vscale=2.0)
    mujoco.mj_forward(mjm, mjd)
    oracle.copy_data(mjd, d)
    LIB.mjd_smooth_vel(mjm._address, mjd._address, flg_bias)
    d.qDeriv[:] = np.nan
    derivative.mjd_smooth_vel(m, d, flg_bias)
    assert relerr(d.qDeriv, mjd.qDeriv) < RTOL
    assert np.any(mjd.qDeriv != 0)


@pytest.mark.parametrize("inputs", ["voltage", "pos vel", "vel voltage"])
def test_smooth_vel_dcmotor_terms(inputs):
  """DC motor: back-EMF (voltage input only), stateful current and LuGre damping."""
  xml = XMLS["actuators"].replace('<dcmotor joint="h0"', f'<dcmotor joint="h0" input="{inputs}"')
  mjm, mjd, _, _ = oracle.load(xml)
  dc = int(np.nonzero(mjm.actuator_gaintype == mujoco.mjtGain.mjGAIN_DCMOTOR)[0][0])
  random_state(mjm, mjd, np.random.default_rng(2))
  mujoco.mj_forward(mjm, mjd)
  for te, sigma1 in ((0.0, 0.0), (0.0, 0.3), (0.02, 0.0), (0.37, 0.5)):
    # only the derivative reads these: set them after mj_forward, in both models
    mjm.actuator_dynprm[dc, 0] = te
    mjm.actuator_dynprm[dc, 6] = sigma1
    m = oracle.from_mujoco(mjm)
    d = engine.MjData(m)
    oracle.copy_data(mjd, d)
    LIB.mjd_smooth_vel(mjm._address, mjd._address, 0)
    derivative.mjd_smooth_vel(m, d, 0)
    assert relerr(d.qDeriv, mjd.qDeriv) < RTOL


@pytest.mark.parametrize("flags", ["damper", "spring|damper", "actuation", "group"])
def test_smooth_vel_disabled_parts(flags):
  """Disabled dampers (fluid stays unless springs are off too), actuation or actuator groups."""
  bit = mujoco.mjtDisableBit
  bits = {
    "damper": bit.mjDSBL_DAMPER,
    "spring|damper": bit.mjDSBL_SPRING | bit.mjDSBL_DAMPER,
    "actuation": bit.mjDSBL_ACTUATION,
    "group": 0,
  }[flags]
  for name in ("fluid", "actuators"):
    mjm, mjd, _, _ = load(name)
    mjm.opt.disableflags = int(bits)
    if flags == "group":
      mjm.actuator_group[::2] = 2
      mjm.opt.disableactuator = 1 << 2
    m = oracle.from_mujoco(mjm)
    d = engine.MjData(m)
    random_state(mjm, mjd, np.random.default_rng(3))
    mujoco.mj_forward(mjm, mjd)
    oracle.copy_data(mjd, d)
    LIB.mjd_smooth_vel(mjm._address, mjd._address, 1)
    derivative.mjd_smooth_vel(m, d, 1)
    assert relerr(d.qDeriv, mjd.qDeriv) < RTOL


# the SO(3) servos have more controls than actuators, which forward.advance does not handle yet
@pytest.mark.parametrize("name", sorted(set(XMLS) - {"so3"}))
@pytest.mark.parametrize("integrator", ["implicit", "implicitfast"])
def test_implicit_step_matches_mujoco(name, integrator):
  """One mj_step from the same state: qDeriv, the factorization, qvel, qpos, act and time."""
  mjm, mjd, m, d = load(name, integrator)
  rng = np.random.default_rng(4)
  for _ in range(3):
    random_state(mjm, mjd, rng, vscale=3.0)
    mujoco.mj_forward(mjm, mjd)
    oracle.copy_data(mjd, d)
    for field in ("qDeriv", "qLU", "qH", "qHDiagInv"):
      getattr(d, field)[:] = np.nan
    mujoco.mj_step(mjm, mjd)
    forward.implicit(m._struct, d._struct)
    fact = ("qLU",) if integrator == "implicit" else ("qH", "qHDiagInv")
    for field in ("qDeriv", "qvel", "qpos", "act", "qacc_warmstart") + fact:
      assert relerr(getattr(d, field), getattr(mjd, field)) < RTOL, field
    assert d.time == pytest.approx(mjd.time, abs=1e-15)


def test_free_rigid_subtree_local_solve_matters():
  """implicitfast restores the gyroscopic derivative of free rigid subtrees: without the local
  6x6 solve the step would differ from MuJoCo's; the hinged free body keeps the global solve."""
  mjm, mjd, m, d = load("free", "implicitfast")
  random_state(mjm, mjd, np.random.default_rng(5), vscale=10.0)
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_data(mjd, d)
  # global symmetric solve only, in numpy
  LIB.mjd_smooth_vel(mjm._address, mjd._address, 0)
  h = mjm.opt.timestep
  M = np.zeros((mjm.nv, mjm.nv))
  mujoco.mj_fullM(mjm, mjd, M)
  Dlow = np.zeros_like(M)
  for i in range(mjm.nv):
    for k in range(mjm.D_rownnz[i]):
      j = mjm.D_colind[mjm.D_rowadr[i] + k]
      if j <= i:
        Dlow[i, j] = Dlow[j, i] = mjd.qDeriv[mjm.D_rowadr[i] + k]
  qfrc = mjd.qfrc_smooth + mjd.qfrc_constraint
  qvel_global = mjd.qvel + h * np.linalg.solve(M - h * Dlow, qfrc)
  mujoco.mj_step(mjm, mjd)
  forward.implicit(m._struct, d._struct)
  assert relerr(d.qvel, mjd.qvel) < RTOL
  free = [mjm.jnt_dofadr[j] for j in range(mjm.njnt) if mjm.jnt_type[j] == 0]
  for adr, is_subtree in zip(free, (True, True, False, True)):
    moved = np.max(np.abs(d.qvel[adr : adr + 6] - qvel_global[adr : adr + 6]))
    assert (moved > 1e-8) == is_subtree


def test_lu_sparse_solves_full_pattern():
  """factor_lu_sparse/solve_lu_sparse solve a random matrix with the D pattern exactly."""
  mjm, _, m, _ = load("tree")
  rng = np.random.default_rng(6)
  nv = m.nv
  vals = rng.normal(size=m.nD)
  for i in range(nv):
    vals[m.D_rowadr[i] + m.D_diag[i]] += 10.0
  dense = np.zeros((nv, nv))
  for i in range(nv):
    for k in range(m.D_rownnz[i]):
      dense[i, m.D_colind[m.D_rowadr[i] + k]] = vals[m.D_rowadr[i] + k]
  vec = rng.normal(size=nv)
  lu = vals.copy()
  assert sparse.factor_lu_sparse(lu, nv, np.empty(nv, np.int32), m.D_rownnz, m.D_rowadr, m.D_colind)
  res = np.empty(nv)
  sparse.solve_lu_sparse(res, lu, vec, nv, m.D_rownnz, m.D_rowadr, m.D_diag, m.D_colind)
  np.testing.assert_allclose(res, np.linalg.solve(dense, vec), rtol=1e-10, atol=1e-12)
