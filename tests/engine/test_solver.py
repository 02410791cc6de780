"""Constraint solvers (engine/solver.py) against mujoco 3.17, decoupled from collision and
constraint building: MuJoCo's contacts and constraint rows are copied into our data, our
smooth stages recompute M, qLD, qfrc_smooth and qacc_smooth, and our solver runs on them.

Models: boxes, capsules and spheres on a plane (condim 1/3/4/6), and an arm with joint and
ball limits, dof and tendon friction loss, a tendon limit and connect/joint/weld equalities;
both friction cones, both Jacobian layouts, PGS/CG/Newton and the noslip pass.

Every solver solves each constraint island on its own (MuJoCo 3.17's default): the iterates,
iteration counts and statistics are compared per island, and with islands disabled (one
solve of every row).
CG and Newton follow MuJoCo 3.17's primal solver (mj_solPrimal): line-search costs relative to
the current point, Hager-Zhang CG directions, the convergence certificate before the first
iteration and the Newton decrement after each; iteration counts are equal.
"""

import ctypes
import pathlib

import mujoco
import numpy as np
import pytest

import engine
from engine import actuation
from engine import forward
from engine import island
from engine import smooth
from engine import solver
from engine import tendon
from engine.solver_pgs import mju_QCQP
from engine.solver_pgs import mju_QCQP2
from engine.solver_pgs import mju_QCQP3
from tests import jitted
from tests import oracle

actuation = jitted.module(actuation)
forward = jitted.module(forward)
smooth = jitted.module(smooth)
solver = jitted.module(solver)
tendon = jitted.module(tendon)
mju_QCQP = jitted.callable_(mju_QCQP)
mju_QCQP2 = jitted.callable_(mju_QCQP2)
mju_QCQP3 = jitted.callable_(mju_QCQP3)

OPTION = """<option cone="{cone}" solver="{solver}" iterations="{iterations}"
  tolerance="{tolerance}" noslip_iterations="{noslip}" jacobian="{jacobian}"
  impratio="{impratio}"/>"""

BOXES = """
<mujoco>
  {option}
  <worldbody>
    <geom type="plane" size="5 5 .1"/>
    <body pos="0 0 .099"><freejoint/>
      <geom type="box" size=".1 .1 .1" condim="3" friction=".8 .01 .001"/></body>
    <body pos=".5 0 .095" euler="0 90 20"><freejoint/>
      <geom type="capsule" size=".1 .2" condim="6" friction=".6 .02 .002"/></body>
    <body pos="-.5 0 .098"><freejoint/>
      <geom type="sphere" size=".1" condim="4" friction="1 .03 .001"/></body>
    <body pos="0 .6 .098"><freejoint/>
      <geom type="box" size=".1 .1 .1" condim="1"/></body>
    <body pos="0 -.6 1"><freejoint/>
      <geom type="sphere" size=".1"/></body>
  </worldbody>
</mujoco>
"""

JOINTS = """
<mujoco>
  {option}
  <worldbody>
    <geom type="plane" size="5 5 .1"/>
    <body name="arm" pos="0 0 1">
      <joint name="j0" type="hinge" axis="0 1 0" limited="true" range="-30 30" frictionloss=".5"/>
      <geom type="capsule" fromto="0 0 0 .4 0 0" size=".05"/>
      <body name="fore" pos=".4 0 0">
        <joint name="j1" type="hinge" axis="0 1 0" limited="true" range="-10 60" frictionloss=".2"/>
        <geom type="capsule" fromto="0 0 0 .4 0 0" size=".04"/>
        <body name="hand" pos=".4 0 0">
          <joint name="j2" type="slide" axis="1 0 0" limited="true" range="-.05 .05"/>
          <joint name="j3" type="ball" limited="true" range="0 20"/>
          <geom type="box" size=".05 .05 .05" condim="4"/>
        </body>
      </body>
    </body>
    <body name="free" pos=".6 .3 .055">
      <freejoint/>
      <geom type="box" size=".06 .06 .06" condim="6"/>
    </body>
    <body name="free2" pos="-.6 .3 .14">
      <freejoint/>
      <geom type="capsule" size=".05 .1"/>
    </body>
    <body name="slider" pos="0 -1 .5">
      <joint name="s0" type="slide" axis="0 0 1" limited="true" range="-.1 .1"/>
      <geom type="sphere" size=".1"/>
      <body pos=".3 0 0">
        <joint name="s1" type="hinge" axis="1 0 0"/>
        <geom type="sphere" size=".05"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="t0" limited="true" range="-.2 .2" frictionloss=".3">
      <joint joint="j0" coef="1"/><joint joint="j1" coef="-.5"/>
    </fixed>
  </tendon>
  <equality>
    <connect body1="free2" body2="world" anchor="0 0 .1"/>
    <joint joint1="s1" joint2="s0" polycoef="0 1 0 0 0"/>
    <weld body1="slider" solref=".05 1"/>
  </equality>
</mujoco>
"""

MODELS = {"boxes": BOXES, "joints": JOINTS}


def _xml(
  model,
  cone="pyramidal",
  solver_name="Newton",
  iterations=200,
  tolerance=1e-10,
  noslip=0,
  jacobian="dense",
  impratio=1.0,
):
  option = OPTION.format(
    cone=cone,
    solver=solver_name,
    iterations=iterations,
    tolerance=tolerance,
    noslip=noslip,
    jacobian=jacobian,
    impratio=impratio,
  )
  return MODELS[model].format(option=option)


def _pose(model, mjm, mjd, rng):
  """Random velocities; the arm bent against its limits."""
  mjd.qvel[:] = rng.normal(size=mjm.nv)
  if model == "joints":
    adr = mjm.jnt_qposadr
    mjd.qpos[adr[0]] = 0.6
    mjd.qpos[adr[1]] = -0.3
    mjd.qpos[adr[2]] = 0.08
    q = np.array([0.9, 0.3, 0.3, 0.0])
    mjd.qpos[adr[3] : adr[3] + 4] = q / np.linalg.norm(q)


def _smooth_stages(m, d):
  """Our smooth pipeline up to qacc_smooth (no collision, no constraint rows)."""
  ms, ds = m._struct, d._struct
  smooth.kinematics(ms, ds)
  smooth.com_pos(ms, ds)
  tendon.tendon(ms, ds)
  smooth.make_m(ms, ds)
  smooth.factor_m(ms, ds)
  tendon.transmission(ms, ds)
  forward.fwd_velocity(ms, ds)
  actuation.fwd_actuation(ms, ds)
  forward.fwd_acceleration(ms, ds)


def _setup(model, seed=0, islands=False, warmstart=True, **kw):
  """Both engines at the same state; MuJoCo's rows copied into ours. Returns (mjm, mjd, m, d)
  with mjd after mj_forward."""
  mjm, mjd, m, d = oracle.load(_xml(model, **kw))
  flags = 0 if islands else mujoco.mjtDisableBit.mjDSBL_ISLAND
  if not warmstart:
    flags |= mujoco.mjtDisableBit.mjDSBL_WARMSTART
  mjm.opt.disableflags |= flags
  m.opt.disableflags |= flags
  rng = np.random.default_rng(seed)
  _pose(model, mjm, mjd, rng)
  mujoco.mj_forward(mjm, mjd)
  mjd.qacc_warmstart[:] = mjd.qacc + 0.3 * rng.normal(size=mjm.nv)
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  _smooth_stages(m, d)
  oracle.copy_contacts(mjd, d)
  oracle.copy_constraints(mjd, d)
  island.mj_island(m, d)
  return mjm, mjd, m, d


def _solve(d, m):
  """Runs our solver with outputs poisoned first, so every output is proven written."""
  d.qacc[:] = np.nan
  d.efc_force[:] = np.nan
  d.efc_state[:] = -1
  d.qfrc_constraint[:] = np.nan
  engine.mj_fwdConstraint(m, d)


def _rel(a, b):
  return np.abs(np.asarray(a) - np.asarray(b)).max() / max(1.0, np.linalg.norm(b))


# ---- mj_constraintUpdate ----


@pytest.mark.parametrize("model", ["boxes", "joints"])
@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_constraint_update_matches_mujoco(model, cone, jacobian):
  mjm, mjd, m, d = _setup(model, cone=cone, jacobian=jacobian)
  rng = np.random.default_rng(1)
  states = set()
  for scale in (0.01, 1.0, 3.0, 30.0):
    jar = scale * rng.normal(size=mjd.nefc)
    c_mj = np.zeros(1)
    mujoco.mj_constraintUpdate(mjm, mjd, jar, c_mj, 1)
    c = np.full(1, np.nan)
    d.efc_force[:] = np.nan
    d.qfrc_constraint[:] = np.nan
    solver.mj_constraintUpdate(m, d, jar, c, 1)
    np.testing.assert_allclose(c, c_mj, rtol=1e-14)
    np.testing.assert_array_equal(d.efc_state, mjd.efc_state)
    np.testing.assert_allclose(d.efc_force, mjd.efc_force, rtol=1e-14, atol=1e-12)
    np.testing.assert_allclose(d.qfrc_constraint, mjd.qfrc_constraint, rtol=1e-12, atol=1e-10)
    cone_rows = mjd.efc_state == mujoco.mjtConstraintState.mjCNSTRSTATE_CONE
    for con in set(mjd.efc_id[cone_rows]):
      dim = mjd.contact.dim[con]
      np.testing.assert_allclose(
        d.contact.H[con, : dim * dim], mjd.contact.H[con, : dim * dim], rtol=1e-13, atol=1e-10
      )
    states |= set(mjd.efc_state.tolist())

    # without a cost
    solver.mj_constraintUpdate(m, d, jar, None, 0)
    np.testing.assert_array_equal(d.efc_state, mjd.efc_state)
  # the jar scales reach several zones
  assert len(states) >= (3 if cone == "elliptic" else 2)


def test_constraint_update_no_rows():
  mjm, mjd, m, d = _setup("boxes")
  d._arrays["nefc"][0] = 0
  c = np.full(1, np.nan)
  solver.mj_constraintUpdate(m, d, np.zeros(0), c, 0)
  assert c[0] == 0
  np.testing.assert_array_equal(d.qfrc_constraint, 0)


# ---- solvers ----

# (model, cone, jacobian) cases for every solver
CASES = [
  (mo, c, j)
  for mo in ("boxes", "joints")
  for c in ("pyramidal", "elliptic")
  for j in ("dense", "sparse")
]


@pytest.mark.parametrize("solver_name", ["Newton", "CG", "PGS"])
@pytest.mark.parametrize("model,cone,jacobian", CASES)
def test_solve_matches_mujoco(solver_name, model, cone, jacobian):
  """One island (MuJoCo with islands disabled): same solution, iterations and statistics."""
  mjm, mjd, m, d = _setup(
    model,
    seed=2,
    solver_name=solver_name,
    cone=cone,
    jacobian=jacobian,
    iterations=300,
    impratio=1.5,
  )
  _solve(d, m)
  tol = {"Newton": 1e-12, "CG": 1e-11, "PGS": 1e-12}
  assert _rel(d.qacc, mjd.qacc) < tol[solver_name]
  assert _rel(d.efc_force, mjd.efc_force) < tol[solver_name] * 10
  assert _rel(d.qfrc_constraint, mjd.qfrc_constraint) < tol[solver_name] * 10
  niter, mj_niter = int(d.solver_niter[0]), int(mjd.solver_niter[0])
  np.testing.assert_array_equal(d.solver_niter[1:], 0)

  if solver_name == "PGS":
    # same shuffled sweeps, same momentum restarts: same iterations and statistics
    assert niter == mj_niter
    stat = d.solver.improvement[:niter]
    np.testing.assert_allclose(stat, mjd.solver.improvement[:niter], rtol=1e-6, atol=1e-12)
    if cone == "pyramidal":
      np.testing.assert_array_equal(d.solver.nactive[:niter], mjd.solver.nactive[:niter])
      np.testing.assert_array_equal(d.solver.nchange[:niter], mjd.solver.nchange[:niter])
    if jacobian == "dense":
      assert d.solver_nnz[0] == mjd.solver_nnz[0]
    # dual states: an elliptic force put on the cone boundary may land on either side
    diff = d.efc_state != mjd.efc_state
    assert np.all(mjd.efc_type[diff] == mujoco.mjtConstraint.mjCNSTR_CONTACT_ELLIPTIC)
  else:
    np.testing.assert_array_equal(d.efc_state, mjd.efc_state)
    # same termination tests (Newton: also the Newton decrement): same iterations
    assert niter == mj_niter
    # the iterations follow MuJoCo's to rounding
    k = niter
    for name in ("improvement", "gradient"):
      np.testing.assert_allclose(
        getattr(d.solver, name)[:k], getattr(mjd.solver, name)[:k], rtol=1e-5, atol=1e-10
      )
    for name in ("nactive", "nchange"):
      np.testing.assert_array_equal(getattr(d.solver, name)[:k], getattr(mjd.solver, name)[:k])
    if solver_name == "Newton":
      np.testing.assert_array_equal(d.solver.nupdate[:k], mjd.solver.nupdate[:k])
    assert d.solver_nnz[0] == mjd.solver_nnz[0]


@pytest.mark.parametrize("noslip", [0, 20])
@pytest.mark.parametrize("model,cone,jacobian", CASES)
def test_pgs_solves_each_island_as_mujoco(model, cone, jacobian, noslip):
  """PGS with islands (MuJoCo's default): each island's solution, iterations and statistics."""
  mjm, mjd, m, d = _setup(
    model,
    seed=2,
    islands=True,
    solver_name="PGS",
    cone=cone,
    jacobian=jacobian,
    iterations=300,
    impratio=1.5,
    noslip=noslip,
  )
  assert mjd.nisland > 1 and d.nisland == mjd.nisland
  _solve(d, m)
  assert _rel(d.qacc, mjd.qacc) < 1e-12
  assert _rel(d.efc_force, mjd.efc_force) < 1e-11
  assert _rel(d.qfrc_constraint, mjd.qfrc_constraint) < 1e-11
  np.testing.assert_array_equal(d.solver_niter, mjd.solver_niter)
  for k in range(mjd.nisland):
    niter = int(mjd.solver_niter[k])
    rows = slice(k * mujoco.mjNSOLVER, k * mujoco.mjNSOLVER + niter)
    np.testing.assert_allclose(
      d.solver.improvement[rows], mjd.solver.improvement[rows], rtol=1e-6, atol=1e-12
    )
    if cone == "pyramidal":
      np.testing.assert_array_equal(d.solver.nactive[rows], mjd.solver.nactive[rows])
      np.testing.assert_array_equal(d.solver.nchange[rows], mjd.solver.nchange[rows])
  if jacobian == "dense":
    np.testing.assert_array_equal(d.solver_nnz, mjd.solver_nnz)


@pytest.mark.parametrize("solver_name", ["Newton", "CG"])
@pytest.mark.parametrize("noslip", [0, 20])
@pytest.mark.parametrize("model,cone,jacobian", CASES)
def test_primal_solves_each_island_as_mujoco(solver_name, model, cone, jacobian, noslip):
  """CG and Newton with islands: each island's blocks of M and J, its own scale, termination
  and statistics; the island-major i* fields and efc_state (left at the warm start's states
  by the island solve) as MuJoCo's."""
  mjm, mjd, m, d = _setup(
    model,
    seed=2,
    islands=True,
    solver_name=solver_name,
    cone=cone,
    jacobian=jacobian,
    iterations=300,
    impratio=1.5,
    noslip=noslip,
  )
  assert mjd.nisland > 1 and d.nisland == mjd.nisland
  _solve(d, m)
  assert _rel(d.qacc, mjd.qacc) < 1e-12
  assert _rel(d.efc_force, mjd.efc_force) < 1e-11
  assert _rel(d.qfrc_constraint, mjd.qfrc_constraint) < 1e-11
  np.testing.assert_array_equal(d.solver_niter, mjd.solver_niter)
  np.testing.assert_array_equal(d.iefc_state, mjd.iefc_state)
  # noslip's dual states: an elliptic force it puts on the cone boundary may land on either side
  diff = d.efc_state != mjd.efc_state
  assert not diff.any() or (
    noslip and np.all(mjd.efc_type[diff] == mujoco.mjtConstraint.mjCNSTR_CONTACT_ELLIPTIC)
  )
  for name in ("iacc", "ifrc_constraint", "iefc_force", "iacc_smooth", "ifrc_smooth", "iefc_aref"):
    assert _rel(getattr(d, name), getattr(mjd, name)) < 1e-11, name
  for k in range(mjd.nisland):
    niter = int(mjd.solver_niter[k])
    rows = slice(k * mujoco.mjNSOLVER, k * mujoco.mjNSOLVER + niter)
    for name in ("improvement", "gradient"):
      np.testing.assert_allclose(
        getattr(d.solver, name)[rows], getattr(mjd.solver, name)[rows], rtol=1e-6, atol=1e-12
      )
    for name in ("neval", "nupdate"):
      np.testing.assert_array_equal(getattr(d.solver, name)[rows], getattr(mjd.solver, name)[rows])
    # active rows and changes; the noslip rows (no line search) only for pyramidal cones
    exact = (mjd.solver.neval[rows] > 0) | (cone == "pyramidal")
    for name in ("nactive", "nchange"):
      np.testing.assert_array_equal(
        getattr(d.solver, name)[rows][exact], getattr(mjd.solver, name)[rows][exact]
      )
  np.testing.assert_array_equal(d.solver_nnz, mjd.solver_nnz)


@pytest.mark.parametrize("solver_name", ["Newton", "CG", "PGS"])
@pytest.mark.parametrize(
  "model,cone",
  [("boxes", "pyramidal"), ("boxes", "elliptic"), ("joints", "pyramidal"), ("joints", "elliptic")],
)
def test_noslip_matches_mujoco(solver_name, model, cone):
  mjm, mjd, m, d = _setup(
    model, seed=5, solver_name=solver_name, cone=cone, noslip=20, iterations=300
  )
  _solve(d, m)
  tol = {"Newton": 1e-11, "CG": 1e-11, "PGS": 1e-12}[solver_name]
  assert _rel(d.qacc, mjd.qacc) < tol
  assert _rel(d.efc_force, mjd.efc_force) < tol * 10
  niter, mj_niter = int(d.solver_niter[0]), int(mjd.solver_niter[0])
  assert niter == mj_niter
  if solver_name == "PGS":
    # noslip statistics follow the main solver's
    np.testing.assert_allclose(
      d.solver.improvement[:niter], mjd.solver.improvement[:niter], rtol=1e-6, atol=1e-12
    )


@pytest.mark.parametrize("solver_name", ["Newton", "CG", "PGS"])
def test_cold_start(solver_name):
  mjm, mjd, m, d = _setup(
    "boxes", seed=6, warmstart=False, solver_name=solver_name, cone="elliptic", iterations=300
  )
  _solve(d, m)
  assert _rel(d.qacc, mjd.qacc) < 1e-7
  niter, mj_niter = int(d.solver_niter[0]), int(mjd.solver_niter[0])
  assert abs(niter - mj_niter) <= (0 if solver_name == "PGS" else 3)


def test_default_options_match():
  """Default tolerance and iteration limits: Newton iteration counts are MuJoCo's (one more or
  less with elliptic cones, see the module docstring)."""
  for model in ("boxes", "joints"):
    for cone in ("pyramidal", "elliptic"):
      mjm, mjd, m, d = _setup(model, seed=7, cone=cone, tolerance=1e-8, iterations=100)
      _solve(d, m)
      slack = 0 if cone == "pyramidal" else 1
      assert abs(int(d.solver_niter[0]) - int(mjd.solver_niter[0])) <= slack
      assert _rel(d.qacc, mjd.qacc) < (1e-12 if cone == "pyramidal" else 1e-6)


def test_iteration_limit():
  mjm, mjd, m, d = _setup("joints", seed=8, solver_name="CG", iterations=3, tolerance=1e-15)
  _solve(d, m)
  assert d.solver_niter[0] == mjd.solver_niter[0] == 3
  assert _rel(d.qacc, mjd.qacc) < 1e-9


def test_no_constraints():
  mjm, mjd, m, d = _setup("boxes")
  d._arrays["nefc"][0] = 0
  d.solver_niter[:] = 7
  _solve(d, m)
  np.testing.assert_array_equal(d.qacc, d.qacc_smooth)
  np.testing.assert_array_equal(d.qfrc_constraint, 0)
  np.testing.assert_array_equal(d.solver_niter, 0)


SMALL = """
<mujoco>
  <size njmax="40" nconmax="10"/>
  <option cone="elliptic" solver="{solver}" tolerance="1e-10" noslip_iterations="5"/>
  <worldbody>
    <geom type="plane" size="1 1 .1"/>
    <body pos="0 0 .09"><freejoint/><geom type="box" size=".1 .1 .1" condim="6"/></body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("solver_name", ["Newton", "PGS"])
def test_small_row_capacity(solver_name, monkeypatch):
  """A tiny row capacity (below the 256-float block workspace; MjData's capacity is forced
  down to <size njmax>, which only sizes MuJoCo's arena): same results."""
  capacity = engine.types.data_capacity
  monkeypatch.setattr(
    engine.types, "data_capacity", lambda m: dict(capacity(m), nefccap=int(m.njmax))
  )
  mjm, mjd, m, d = oracle.load(SMALL.format(solver=solver_name))
  mjm.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_ISLAND
  m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_ISLAND
  mjd.qvel[:] = np.random.default_rng(9).normal(size=mjm.nv)
  mujoco.mj_forward(mjm, mjd)
  assert d._arrays["scratch_jar"].shape[0] == 40 and mjd.nefc > 12
  oracle.copy_state(mjd, d)
  _smooth_stages(m, d)
  oracle.copy_contacts(mjd, d)
  oracle.copy_constraints(mjd, d)
  _solve(d, m)
  assert _rel(d.qacc, mjd.qacc) < 1e-7
  assert _rel(d.efc_force, mjd.efc_force) < 1e-6


# ---- QCQP ----


def _lib():
  path = next(pathlib.Path(mujoco.__file__).parent.glob("libmujoco.so*"))
  lib = ctypes.CDLL(str(path))
  dbl = ctypes.POINTER(ctypes.c_double)
  for name in ("mju_QCQP2", "mju_QCQP3"):
    getattr(lib, name).restype = ctypes.c_int
    getattr(lib, name).argtypes = [dbl, dbl, dbl, dbl, ctypes.c_double]
  return lib


def _ptr(a):
  return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def _spd(rng, n):
  a = rng.normal(size=(n, n))
  return (a @ a.T + 0.1 * np.eye(n)).reshape(-1)


@pytest.mark.parametrize("n", [2, 3])
def test_qcqp_matches_mujoco(n):
  lib = _lib()
  fn_mj = lib.mju_QCQP2 if n == 2 else lib.mju_QCQP3
  fn = mju_QCQP2 if n == 2 else mju_QCQP3
  rng = np.random.default_rng(n)
  active = 0
  for _ in range(50):
    A = _spd(rng, n)
    b = rng.normal(size=n)
    mu = rng.uniform(0.2, 1.5, size=5)
    r = rng.uniform(0.1, 3)
    res_mj = np.zeros(n)
    flag_mj = fn_mj(_ptr(res_mj), _ptr(A), _ptr(b), _ptr(mu), r)
    res = np.full(n, np.nan)
    flag = fn(res, A, b, mu, r)
    assert flag == flag_mj
    np.testing.assert_allclose(res, res_mj, rtol=1e-14, atol=1e-15)
    active += flag
  assert 0 < active < 50


@pytest.mark.parametrize("n", [2, 3, 5])
def test_qcqp_general(n):
  """mju_QCQP agrees with the 2-d/3-d closed forms and satisfies the optimality conditions."""
  rng = np.random.default_rng(10 + n)
  work = np.zeros(60)
  for _ in range(30):
    A = _spd(rng, n)
    b = rng.normal(size=n) * 3
    mu = rng.uniform(0.2, 1.5, size=5)
    r = rng.uniform(0.1, 2)
    res = np.zeros(n)
    flag = mju_QCQP(res, A, b, mu, r, n, work)
    if n < 4:
      ref = np.zeros(n)
      flag_ref = (mju_QCQP2 if n == 2 else mju_QCQP3)(ref, A, b, mu, r)
      assert flag == flag_ref
      np.testing.assert_allclose(res, ref, rtol=1e-9, atol=1e-12)
    # feasible; inactive: unconstrained minimum; active: on the ellipsoid, KKT multiplier >= 0
    s = np.sum((res / mu[:n]) ** 2)
    assert s <= r * r * (1 + 1e-8) + 1e-10
    grad = A.reshape(n, n) @ res + b
    if not flag:
      np.testing.assert_allclose(grad, 0, atol=1e-8)
    else:
      normal = res / mu[:n] ** 2
      la = -grad @ normal / (normal @ normal)
      assert la >= -1e-8
      np.testing.assert_allclose(grad + la * normal, 0, atol=1e-6 * (1 + np.abs(grad).max()))
