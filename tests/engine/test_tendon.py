"""engine.tendon against MuJoCo: tendon lengths, Jacobians, wrap paths and transmissions.

Each test puts MuJoCo in random states, runs mj_fwdPosition there, copies MuJoCo's kinematics
into our data and runs only our mj_tendon and mj_transmission, so any difference comes from
this module. Outputs are pre-filled with NaN to prove they are written.
"""

import pathlib

import mujoco
import numpy as np
import pytest

from engine import tendon as T
from tests import oracle
from tests import trees

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models" / "tendon"
TOL = 1e-9

# kinematic quantities consumed by mj_tendon / mj_transmission
KINEMATICS = (
  "qpos",
  "xpos",
  "xquat",
  "xmat",
  "xipos",
  "ximat",
  "xanchor",
  "xaxis",
  "geom_xpos",
  "geom_xmat",
  "site_xpos",
  "site_xmat",
  "subtree_com",
  "cdof",
  "cinert",
)
OUTPUTS_F = ("ten_length", "ten_J", "wrap_xpos", "actuator_length", "actuator_moment")
OUTPUTS_I = (
  "ten_wrapadr",
  "ten_wrapnum",
  "wrap_obj",
  "moment_rownnz",
  "moment_rowadr",
  "moment_colind",
)


def _load(name):
  return oracle.load((MODELS / name).read_text())


def _random_state(mjm, mjd, rng):
  """Random joint positions (angles in [-pi, pi], quaternions normalized)."""
  for j in range(mjm.njnt):
    adr = mjm.jnt_qposadr[j]
    jtype = mjm.jnt_type[j]
    if jtype == mujoco.mjtJoint.mjJNT_FREE:
      mjd.qpos[adr : adr + 3] = rng.uniform(-1, 1, 3)
      mjd.qpos[adr + 3 : adr + 7] = rng.normal(size=4)
      mujoco.mju_normalize4(mjd.qpos[adr + 3 : adr + 7])
    elif jtype == mujoco.mjtJoint.mjJNT_BALL:
      mjd.qpos[adr : adr + 4] = rng.normal(size=4)
      mujoco.mju_normalize4(mjd.qpos[adr : adr + 4])
    elif jtype == mujoco.mjtJoint.mjJNT_SLIDE:
      mjd.qpos[adr] = rng.uniform(-0.3, 0.3)
    else:
      mjd.qpos[adr] = rng.uniform(-np.pi, np.pi)


def _run(mjm, mjd, d, m):
  """MuJoCo's fwdPosition, then ours from MuJoCo's kinematics."""
  mujoco.mj_fwdPosition(mjm, mjd)
  for name in KINEMATICS:
    getattr(d, name)[...] = getattr(mjd, name)
  for name in OUTPUTS_F:
    getattr(d, name)[...] = np.nan
  for name in OUTPUTS_I:
    getattr(d, name)[...] = -7
  T.mj_tendon(m, d)
  T.mj_transmission(m, d)


def _dense_moment(nout, nv, data):
  dense = np.zeros((nout, nv))
  for i in range(nout):
    adr, nnz = data.moment_rowadr[i], data.moment_rownnz[i]
    dense[i, data.moment_colind[adr : adr + nnz]] = data.actuator_moment[adr : adr + nnz]
  return dense


def _compare(mjm, mjd, d):
  """All tendon and transmission outputs equal MuJoCo's (values at TOL, structure exactly)."""
  # tendons: lengths, Jacobian values in the model's structure
  np.testing.assert_allclose(d.ten_length, mjd.ten_length, rtol=0, atol=TOL)
  np.testing.assert_allclose(d.ten_J, mjd.ten_J, rtol=0, atol=TOL)

  # wrap paths: addresses, objects and points actually used
  np.testing.assert_array_equal(d.ten_wrapadr, mjd.ten_wrapadr)
  np.testing.assert_array_equal(d.ten_wrapnum, mjd.ten_wrapnum)
  nwrap = int(mjd.ten_wrapadr[-1] + mjd.ten_wrapnum[-1]) if mjm.ntendon else 0
  np.testing.assert_array_equal(d.wrap_obj.ravel()[:nwrap], mjd.wrap_obj.ravel()[:nwrap])
  np.testing.assert_allclose(
    d.wrap_xpos.ravel()[: 3 * nwrap], mjd.wrap_xpos.ravel()[: 3 * nwrap], rtol=0, atol=TOL
  )

  # transmissions: lengths, sparse structure, values
  np.testing.assert_allclose(d.actuator_length, mjd.actuator_length, rtol=0, atol=TOL)
  np.testing.assert_array_equal(d.moment_rownnz, mjd.moment_rownnz)
  np.testing.assert_array_equal(d.moment_rowadr, mjd.moment_rowadr)
  nnz = int(mjd.moment_rowadr[-1] + mjd.moment_rownnz[-1]) if mjm.nout else 0
  np.testing.assert_array_equal(d.moment_colind[:nnz], mjd.moment_colind[:nnz])
  np.testing.assert_allclose(d.actuator_moment[:nnz], mjd.actuator_moment[:nnz], rtol=0, atol=TOL)


def test_fixed_and_spatial_tendons_on_arm():
  """Fixed tendons (hinge, slide), site paths across links and trees, pulleys."""
  mjm, mjd, m, d = _load("arm.xml")
  rng = np.random.default_rng(0)
  for _ in range(30):
    _random_state(mjm, mjd, rng)
    _run(mjm, mjd, d, m)
    _compare(mjm, mjd, d)

  # fixed tendon: length is the coefficient-weighted sum of joint positions
  fx = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_TENDON, "fx_hinges")
  q = {n: mjd.joint(n).qpos[0] for n in ("h1", "h2", "h3y")}
  assert d.ten_length[fx] == pytest.approx(-1.5 * q["h1"] + 2 * q["h2"] + 0.5 * q["h3y"])


def test_spatial_jacobian_is_length_derivative():
  """ten_J is d(ten_length)/dq: compare with central differences on the arm."""
  mjm, mjd, m, d = _load("arm.xml")
  rng = np.random.default_rng(1)
  _random_state(mjm, mjd, rng)
  _run(mjm, mjd, d, m)
  J = np.zeros((mjm.ntendon, mjm.nv))
  for i in range(mjm.ntendon):
    adr, nnz = mjm.ten_J_rowadr[i], mjm.ten_J_rownnz[i]
    J[i, mjm.ten_J_colind[adr : adr + nnz]] = d.ten_J[adr : adr + nnz]
  qpos0 = mjd.qpos.copy()
  eps = 1e-6
  for v in range(mjm.nv):
    lengths = []
    for sgn in (1, -1):
      dq = np.zeros(mjm.nv)
      dq[v] = sgn * eps
      mjd.qpos[:] = qpos0
      mujoco.mj_integratePos(mjm, mjd.qpos, dq, 1)
      _run(mjm, mjd, d, m)
      lengths.append(d.ten_length.copy())
    np.testing.assert_allclose((lengths[0] - lengths[1]) / (2 * eps), J[:, v], atol=1e-6)


def test_wrapping_sphere_and_cylinder():
  """Sphere/cylinder wrapping with and without side sites (outside, inside, high)."""
  mjm, mjd, m, d = _load("wrap.xml")
  rng = np.random.default_rng(2)
  wrapped = np.zeros(mjm.ntendon, int)
  for _ in range(150):
    _random_state(mjm, mjd, rng)
    _run(mjm, mjd, d, m)
    _compare(mjm, mjd, d)
    for i in range(mjm.ntendon):
      objs = d.wrap_obj.ravel()[d.ten_wrapadr[i] : d.ten_wrapadr[i] + d.ten_wrapnum[i]]
      wrapped[i] += np.any(objs >= 0)

  # every tendon wrapped in some states and went straight in others
  assert np.all(wrapped > 0), wrapped
  assert np.all(wrapped < 150), wrapped


def test_every_transmission_type():
  """Joint (hinge, slide, ball, free; in parent), tendon, site (+refsite), slider-crank,
  body (adhesion, no contacts: zero) and SO3 (ball, site) transmissions."""
  mjm, mjd, m, d = _load("actuators.xml")
  assert set(mjm.actuator_trntype) == set(range(7))
  rng = np.random.default_rng(3)
  crank_short = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_ACTUATOR, "crank_short")
  det_cases = set()
  for _ in range(40):
    _random_state(mjm, mjd, rng)
    _run(mjm, mjd, d, m)
    _compare(mjm, mjd, d)

    # slider-crank with a short rod: both the regular and the degenerate (det <= 0) branch
    o = mjm.actuator_outadr[crank_short]
    axis = mjd.site_xmat[mjm.actuator_trnid[crank_short, 1]].reshape(3, 3)[:, 2]
    vec = (
      mjd.site_xpos[mjm.actuator_trnid[crank_short, 0]]
      - mjd.site_xpos[mjm.actuator_trnid[crank_short, 1]]
    )
    det_cases.add(bool((vec @ axis) ** 2 + 0.05**2 - vec @ vec > 0))
    assert np.isfinite(d.actuator_length[o])

  assert det_cases == {True, False}

  # adhesion without contacts: zero length, empty moment row
  adh = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_ACTUATOR, "adhesion")
  assert d.actuator_length[mjm.actuator_outadr[adh]] == 0
  assert d.moment_rownnz[mjm.actuator_outadr[adh]] == 0


def test_transmission_moment_is_length_derivative():
  """Moment rows are d(actuator_length)/dq for transmissions with a length.

  (Not for refsite transmissions: like MuJoCo, their moment ignores the rotation of the
  refsite frame and uses the relative angular velocity instead of the expmap derivative.)
  """
  mjm, mjd, m, d = _load("actuators.xml")
  rng = np.random.default_rng(4)
  _random_state(mjm, mjd, rng)
  _run(mjm, mjd, d, m)
  moment = _dense_moment(mjm.nout, mjm.nv, d)
  names = (
    "hinge",
    "slide",
    "fixed_tendon",
    "spatial_tendon",
    "crank",
    "crank_short",
    "crank_trees",
  )
  rows = [
    mjm.actuator_outadr[mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_ACTUATOR, n)] for n in names
  ]
  qpos0 = mjd.qpos.copy()
  eps = 1e-6
  for v in range(mjm.nv):
    lengths = []
    for sgn in (1, -1):
      dq = np.zeros(mjm.nv)
      dq[v] = sgn * eps
      mjd.qpos[:] = qpos0
      mujoco.mj_integratePos(mjm, mjd.qpos, dq, 1)
      _run(mjm, mjd, d, m)
      lengths.append(d.actuator_length[rows].copy())
    np.testing.assert_allclose((lengths[0] - lengths[1]) / (2 * eps), moment[rows, v], atol=1e-6)


def _random_tendon_model(seed):
  """A random tree with sites, a wrapping sphere, tendons and actuators on random targets."""
  rng = np.random.default_rng(seed)
  spec = mujoco.MjSpec.from_string(trees.random_tree_xml(seed, nbody=8))
  bodies = [b.name for b in spec.bodies if b.name]
  sites = []
  for k in range(6):
    body = spec.body(str(rng.choice(bodies)))
    quat = rng.normal(size=4)
    body.add_site(name=f"s{k}", pos=rng.uniform(-0.2, 0.2, 3), quat=quat / np.linalg.norm(quat))
    sites.append(f"s{k}")
  wrapbody = spec.body(str(rng.choice(bodies)))
  wrapbody.add_geom(
    name="wrap",
    type=mujoco.mjtGeom.mjGEOM_SPHERE,
    size=[0.08, 0, 0],
    pos=rng.uniform(-0.1, 0.1, 3),
    contype=0,
    conaffinity=0,
  )
  wrapbody.add_site(name="side", pos=rng.uniform(-0.3, 0.3, 3))

  # spatial tendons: a site path, and a sphere wrap with a side site
  path = spec.add_tendon(name="path")
  for s in rng.permutation(sites)[:4]:
    path.wrap_site(str(s))
  wrap = spec.add_tendon(name="wrapped")
  s0, s1 = rng.choice(sites, 2, replace=False)
  wrap.wrap_site(str(s0))
  wrap.wrap_geom("wrap", "side")
  wrap.wrap_site(str(s1))

  # fixed tendon over the hinge and slide joints
  model = spec.compile()
  kinds = (int(mujoco.mjtJoint.mjJNT_HINGE), int(mujoco.mjtJoint.mjJNT_SLIDE))
  scalar = [model.joint(j).name for j in range(model.njnt) if int(model.jnt_type[j]) in kinds]
  assert scalar
  if scalar:
    fixed = spec.add_tendon(name="fixed")
    for j in rng.permutation(scalar)[:3]:
      fixed.wrap_joint(str(j), float(rng.uniform(-2, 2)))

  # actuators: every joint, both tendons, sites with and without refsite, slider-cranks, SO3
  trn = mujoco.mjtTrn
  for j in range(model.njnt):
    gear = rng.uniform(-1, 1, 6)
    kind = trn.mjTRN_JOINTINPARENT if rng.random() < 0.5 else trn.mjTRN_JOINT
    spec.add_actuator(target=model.joint(j).name, trntype=kind, gear=gear)
  for t in ("path", "wrapped", "fixed"):
    spec.add_actuator(target=t, trntype=trn.mjTRN_TENDON, gear=[rng.uniform(-2, 2), 0, 0, 0, 0, 0])
  for k in range(4):
    s0, s1 = rng.choice(sites, 2, replace=False)
    refsite = str(s1) if k else ""
    spec.add_actuator(
      target=str(s0), refsite=refsite, trntype=trn.mjTRN_SITE, gear=rng.uniform(-1, 1, 6)
    )
    s0, s1 = rng.choice(sites, 2, replace=False)
    spec.add_actuator(
      target=str(s0),
      slidersite=str(s1),
      trntype=trn.mjTRN_SLIDERCRANK,
      cranklength=rng.uniform(0.05, 1),
      gear=[rng.uniform(-2, 2), 0, 0, 0, 0, 0],
    )
  s0, s1 = rng.choice(sites, 2, replace=False)
  spec.add_actuator(
    target=str(s0),
    refsite=str(s1),
    trntype=trn.mjTRN_SITE,
    gaintype=mujoco.mjtGain.mjGAIN_SO3,
    biastype=mujoco.mjtBias.mjBIAS_SO3,
    gainprm=[1] + [0] * 9,
    biasprm=[0, -1] + [0] * 8,
  )
  return spec.to_xml()


@pytest.mark.parametrize("seed", range(6))
def test_random_trees(seed):
  """Random trees: chains with every joint type, common ancestors of site pairs."""
  mjm, mjd, m, d = oracle.load(_random_tendon_model(seed))
  rng = np.random.default_rng(100 + seed)
  for _ in range(10):
    _random_state(mjm, mjd, rng)
    _run(mjm, mjd, d, m)
    _compare(mjm, mjd, d)


def test_no_tendons_no_actuators():
  """Models without tendons or actuators leave everything untouched."""
  mjm, mjd, m, d = oracle.load(
    '<mujoco><worldbody><body><joint/><geom size=".1"/></body></worldbody></mujoco>'
  )
  _run(mjm, mjd, d, m)
  assert mjm.ntendon == 0 and mjm.nu == 0
