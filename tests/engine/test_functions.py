"""The mj_ functions of engine/functions.py against mujoco 3.17 at the same state.

One small model holds a free, a ball, a hinge and a slide joint, a site, two cameras (one on
the world, one on a moving body), a mocap body, contacts with the floor and three actuators.
Both engines load it, get the same qpos, qvel, ctrl and run mj_forward; each function is then
called in both and the results compared. Where the arithmetic is the same the tolerance is
1e-12 relative to the largest entry compared (numpy's sums and matrix products may round in
another order than C's loops); looser ones say why.
"""

import mujoco
import numpy as np
import pytest

import engine

XML = """<mujoco>
  <option timestep="0.005"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <camera name="fixed" pos="1 -1 1" xyaxes="1 1 0 0 0 1"/>
    <body name="mocap" mocap="true" pos="1 1 1"><geom type="box" size=".05 .05 .05"
      contype="0" conaffinity="0"/></body>
    <body name="ball" pos="0 0 0.12">
      <freejoint name="free"/>
      <geom name="ballgeom" size="0.1" mass="1.3"/>
      <site name="ballsite" pos="0.02 0.03 0.04" quat="0.9 0.1 0.2 0.3"/>
      <body name="arm" pos="0.1 0 0.05">
        <joint name="ball" type="ball"/>
        <geom type="capsule" size="0.03" fromto="0 0 0 0.2 0 0" mass="0.4"/>
        <camera name="armcam" pos="0.1 0 0.05" quat="0.7 0.1 0.7 0.1"/>
        <body name="forearm" pos="0.2 0 0">
          <joint name="hinge" axis="0 1 0" damping="0.1" range="-1 1"/>
          <geom type="box" size="0.05 0.02 0.03" pos="0.05 0 0" mass="0.3"/>
          <site name="tip" pos="0.1 0.01 0"/>
        </body>
      </body>
    </body>
    <body name="slider" pos="0.6 0 0.05">
      <joint name="slide" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.05 0.05 0.05" mass="0.7"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="motor" joint="hinge" gear="2"/>
    <position name="servo" joint="slide" kp="10"/>
    <velocity name="damper" joint="slide" kv="3"/>
  </actuator>
</mujoco>"""

QPOS = [0.1, -0.05, 0.09, 0.95, 0.1, -0.2, 0.15, 0.9, 0.3, -0.2, 0.25, 0.4, 0.05]
QVEL = [0.3, -0.2, 0.1, 0.5, -0.7, 0.9, 1.1, -0.4, 0.6, -1.3, 0.8]
CTRL = [0.5, 0.2, -0.3]


def _pair(xml=XML, forward=True, **options):
  """(our model, data), (mujoco's model, data) at the same state after mj_forward."""
  result = []
  for lib in (engine, mujoco):
    m = lib.MjModel.from_xml_string(xml)
    for key, value in options.items():
      setattr(m.opt, key, value)
    d = lib.MjData(m)
    d.qpos[:] = QPOS[: m.nq]
    d.qvel[:] = QVEL[: m.nv]
    d.ctrl[:] = CTRL[: m.nu]
    if forward:
      lib.mj_forward(m, d)
    result.append((m, d))
  return result


def _close(mine, theirs, rtol=1e-12):
  """Equal to rtol relative to the largest entry of the reference."""
  theirs = np.asarray(theirs, dtype=np.float64)
  scale = max(1.0, float(np.abs(theirs).max(initial=0.0)))
  np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=rtol * scale)


def test_state_has_contacts_and_constraints():
  """The test state exercises the constraint functions: contacts and a joint limit."""
  (m, d), (mm, dd) = _pair()
  assert dd.ncon > 0 and d.ncon == dd.ncon and d.nefc == dd.nefc > 0


# ---- frames and velocities ----

OBJECTS = [
  (mujoco.mjtObj.mjOBJ_BODY, 2),
  (mujoco.mjtObj.mjOBJ_BODY, 3),
  (mujoco.mjtObj.mjOBJ_XBODY, 4),
  (mujoco.mjtObj.mjOBJ_XBODY, 1),  # mocap: no dofs
  (mujoco.mjtObj.mjOBJ_GEOM, 0),  # the floor: static
  (mujoco.mjtObj.mjOBJ_GEOM, 3),
  (mujoco.mjtObj.mjOBJ_SITE, 0),
  (mujoco.mjtObj.mjOBJ_SITE, 1),
  (mujoco.mjtObj.mjOBJ_CAMERA, 0),  # on the world
  (mujoco.mjtObj.mjOBJ_CAMERA, 1),
]


@pytest.mark.parametrize("objtype, objid", OBJECTS)
@pytest.mark.parametrize("local", [0, 1])
@pytest.mark.parametrize("function", ["mj_objectVelocity", "mj_objectAcceleration"])
def test_object_motion_matches_mujoco(function, objtype, objid, local):
  (m, d), (mm, dd) = _pair()
  engine.mj_rnePostConstraint(m, d)  # cacc
  mujoco.mj_rnePostConstraint(mm, dd)
  mine, theirs = np.full(6, np.nan), np.full(6, np.nan)
  getattr(engine, function)(m, d, int(objtype), objid, mine, local)
  getattr(mujoco, function)(mm, dd, int(objtype), objid, theirs, local)
  _close(mine, theirs)
  if objid == 0 and objtype in (mujoco.mjtObj.mjOBJ_GEOM, mujoco.mjtObj.mjOBJ_CAMERA):
    assert not mine.any()  # static objects neither move nor accelerate


def test_object_motion_arguments():
  (m, d), _ = _pair()
  res = np.zeros(6)
  with pytest.raises(ValueError, match="objid 99"):
    engine.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_SITE, 99, res, 0)
  with pytest.raises(ValueError, match="objid -1"):
    engine.mj_objectAcceleration(m, d, mujoco.mjtObj.mjOBJ_GEOM, -1, res, 0)
  with pytest.raises(engine.FatalError, match="invalid object type"):
    engine.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_JOINT, 0, res, 0)
  with pytest.raises(ValueError, match="res"):
    engine.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_SITE, 0, np.zeros(5), 0)
  with pytest.raises(TypeError, match="res"):
    engine.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_SITE, 0, np.zeros(6, np.float32), 0)


@pytest.mark.parametrize("sameframe", range(5))
@pytest.mark.parametrize("body", [0, 2, 3])
def test_local2global_matches_mujoco(sameframe, body):
  (m, d), (mm, dd) = _pair()
  pos, quat = np.array([0.1, -0.2, 0.3]), np.array([0.8, 0.2, -0.3, 0.1])
  quat /= np.linalg.norm(quat)
  mine, theirs = (np.zeros(3), np.zeros(9)), (np.zeros(3), np.zeros(9))
  engine.mj_local2Global(d, *mine, pos, quat, body, sameframe)
  mujoco.mj_local2Global(dd, *theirs, pos, quat, body, sameframe)
  _close(mine[0], theirs[0])
  _close(mine[1], theirs[1])


def test_local2global_arguments():
  (m, d), _ = _pair()
  args = np.zeros(3), np.zeros(9), np.zeros(3), np.array([1.0, 0, 0, 0])
  with pytest.raises(ValueError, match="body 7"):
    engine.mj_local2Global(d, *args, 7, 0)
  with pytest.raises(ValueError, match="sameframe"):
    engine.mj_local2Global(d, *args, 1, 5)
  with pytest.raises(ValueError, match="xmat"):
    engine.mj_local2Global(d, np.zeros(3), np.zeros(3), *args[2:], 1, 0)


# ---- model queries and edits ----


def test_total_mass_get_and_set_match_mujoco():
  (m, d), (mm, dd) = _pair()
  assert engine.mj_getTotalmass(m) == mujoco.mj_getTotalmass(mm)  # same sum, same order
  engine.mj_setTotalmass(m, 5.5)
  mujoco.mj_setTotalmass(mm, 5.5)
  _close(m.body_mass, mm.body_mass)
  _close(m.body_inertia, mm.body_inertia)
  _close(engine.mj_getTotalmass(m), mujoco.mj_getTotalmass(mm))
  assert engine.mj_getTotalmass(m) == pytest.approx(5.5, rel=1e-14)


def test_normalize_quat_matches_mujoco():
  (m, d), (mm, dd) = _pair(forward=False)
  qpos = np.array(QPOS) * 1.7
  qpos[7:11] = 0  # a zero quaternion becomes the identity
  mine, theirs = qpos.copy(), qpos.copy()
  engine.mj_normalizeQuat(m, mine)
  mujoco.mj_normalizeQuat(mm, theirs)
  np.testing.assert_array_equal(mine, theirs)  # same helper as MuJoCo's: bit for bit
  with pytest.raises(ValueError, match="qpos"):
    engine.mj_normalizeQuat(m, np.zeros(m.nq + 1))


@pytest.mark.parametrize(
  "options",
  [
    {},
    {"jacobian": 1, "cone": 1, "solver": 0},
    {"jacobian": 2, "solver": 1, "noslip_iterations": 3},
    {"jacobian": 0},
  ],
)
def test_option_queries_match_mujoco(options):
  (m, _), (mm, _) = _pair(forward=False, **options)
  for name in ("mj_isSparse", "mj_isPyramidal", "mj_isDual"):
    assert getattr(engine, name)(m) == getattr(mujoco, name)(mm), name


def test_default_option_and_visual_match_mujoco():
  (m, _), (mm, _) = _pair(forward=False)
  for model in (m, mm):
    model.opt.timestep, model.opt.gravity[:], model.opt.iterations = 0.1, (1, 2, 3), 3
    model.vis.global_.fovy, model.vis.map.znear = 12.0, 0.3
  engine.mj_defaultOption(m.opt)
  mujoco.mj_defaultOption(mm.opt)
  engine.mj_defaultVisual(m.vis)
  mujoco.mj_defaultVisual(mm.vis)
  for name in ("timestep", "gravity", "iterations", "tolerance", "impratio", "integrator"):
    np.testing.assert_array_equal(getattr(m.opt, name), getattr(mm.opt, name), name)
  assert m.vis.global_.fovy == mm.vis.global_.fovy and m.vis.map.znear == mm.vis.map.znear
  opt = engine.MjOption()
  opt.timestep = 9
  engine.mj_defaultOption(opt)
  assert opt.timestep == mujoco.MjOption().timestep
  with pytest.raises(TypeError, match="MjOption"):
    engine.mj_defaultOption(m.vis)
  with pytest.raises(TypeError, match="MjVisual"):
    engine.mj_defaultVisual(m.opt)


def test_default_solref_solimp_are_mujocos_defaults():
  """mujoco 3.17's binding cannot take arrays: its defaults are those of a geom."""
  mm = mujoco.MjModel.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
  solref, solimp = np.zeros(2), np.zeros(5)
  engine.mj_defaultSolRefImp(solref, solimp)
  np.testing.assert_array_equal(solref, mm.geom_solref[0])
  np.testing.assert_array_equal(solimp, mm.geom_solimp[0])
  engine.mj_defaultSolRefImp(None, solimp)  # either may be None, as in C
  with pytest.raises(ValueError, match="solimp"):
    engine.mj_defaultSolRefImp(solref, np.zeros(3))


def test_default_lropt_matches_mujoco():
  mine, theirs = engine.MjLROpt(), mujoco.MjLROpt()
  fields = sorted(engine.MjLROpt._FIELDS)
  assert [getattr(mine, f) for f in fields] == [getattr(theirs, f) for f in fields]
  engine.mj_defaultLROpt(mine)
  mujoco.mj_defaultLROpt(theirs)
  assert [getattr(mine, f) for f in fields] == [getattr(theirs, f) for f in fields]


def test_actuator_input_names_match_mujoco():
  (m, _), (mm, _) = _pair(forward=False)
  for i in range(-1, m.nu + 1):
    for k in range(-1, 3):
      assert engine.mj_actuatorInputName(m, i, k) == mujoco.mj_actuatorInputName(mm, i, k)
  assert engine.mj_actuatorInputName(m, 1, 0) == "pos"


@pytest.mark.parametrize("has_margin", [-1, 0, 1])
def test_max_contact_matches_mujoco(has_margin):
  (m, _), (mm, _) = _pair(forward=False)
  for g1 in range(m.ngeom):
    for g2 in range(m.ngeom):
      mine = engine.mj_maxContact(m, g1, g2, has_margin)
      assert mine == mujoco.mj_maxContact(mm, g1, g2, has_margin), (g1, g2)
  with pytest.raises(ValueError, match="g2"):
    engine.mj_maxContact(m, 0, m.ngeom, -1)


# ---- data resets ----


def test_reset_ctrl_matches_mujoco():
  (m, d), (mm, dd) = _pair()
  engine.mj_resetCtrl(m, d)
  mujoco.mj_resetCtrl(mm, dd)
  np.testing.assert_array_equal(d.ctrl, dd.ctrl)
  assert not d.ctrl.any()


# mj_resetData's own difference (engine/forward.py reset_data, jitted): it leaves these 0 where
# MuJoCo sets -1 (no island) until the next mj_forward
RESET_DIFFERENCES = ("dof_island", "tree_island")


def test_reset_data_debug_matches_mujoco():
  """Every array both data have with the same shape is equal byte for byte after it."""
  (m, d), (mm, dd) = _pair()
  engine.mj_resetDataDebug(m, d, 7)
  mujoco.mj_resetDataDebug(mm, dd, 7)
  compared = 0
  for name in dir(dd):
    theirs = getattr(dd, name, None)
    mine = getattr(d, name, None)
    if isinstance(theirs, np.ndarray) and isinstance(mine, np.ndarray):
      if name in RESET_DIFFERENCES:
        continue
      if mine.shape == theirs.shape and theirs.size:
        assert mine.tobytes() == theirs.tobytes(), name
        compared += 1
  assert compared > 60
  assert (d.xpos.view(np.uint8) == 7).all() and d.qpos.tolist() == m.qpos0.tolist()
  engine.mj_forward(m, d)  # the pipeline overwrites the debug bytes
  mujoco.mj_forward(mm, dd)
  _close(d.qacc, dd.qacc, rtol=1e-9)  # the whole pipeline: solver iterations
  with pytest.raises(ValueError, match="debug_value"):
    engine.mj_resetDataDebug(m, d, 256)


# ---- constraint Jacobian and inertia products ----


@pytest.mark.parametrize("jacobian", [0, 1])
def test_jacobian_products_match_mujoco(jacobian):
  (m, d), (mm, dd) = _pair(jacobian=jacobian)
  assert engine.mj_isSparse(m) == jacobian and d.nefc == dd.nefc > 0
  rng = np.random.default_rng(1)
  v, w = rng.normal(size=m.nv), rng.normal(size=d.nefc)
  for name, x, size in (("mj_mulJacVec", v, d.nefc), ("mj_mulJacTVec", w, m.nv)):
    mine, theirs = np.zeros(size), np.zeros(size)
    getattr(engine, name)(m, d, mine, x)
    getattr(mujoco, name)(mm, dd, theirs, x)
    _close(mine, theirs)
  with pytest.raises(ValueError, match="vec"):
    engine.mj_mulJacVec(m, d, np.zeros(d.nefc), np.zeros(m.nv + 1))
  with pytest.raises(ValueError, match="res"):
    engine.mj_mulJacTVec(m, d, np.zeros(m.nv - 1), w)


def test_mul_m2_matches_mujoco():
  (m, d), (mm, dd) = _pair()
  vec = np.linspace(-1, 1, m.nv)
  mine, theirs = np.zeros(m.nv), np.zeros(m.nv)
  engine.mj_mulM2(m, d, mine, vec)
  mujoco.mj_mulM2(mm, dd, theirs, vec)
  _close(mine, theirs)
  full = np.zeros((m.nv, m.nv))
  engine.mj_fullM(m, d, full)
  _close(mine @ mine, vec @ full @ vec, rtol=1e-10)  # |M^(1/2) v|^2 = v' M v


@pytest.mark.parametrize("prefilled", [False, True])
def test_add_m_sparse_matches_mujoco(prefilled):
  """M's lower triangle added into a sparse matrix with M's row starts: empty, or holding each
  row's diagonal (merged with M's entry there)."""
  (m, d), (mm, dd) = _pair()
  nv = m.nv
  rowadr = np.array(mm.M_rowadr, np.int32)
  rownnz = np.full(nv, int(prefilled), np.int32)
  colind = np.zeros(mm.nM, np.int32)
  dst = np.zeros(mm.nM)
  if prefilled:
    colind[rowadr] = np.arange(nv)
    dst[rowadr] = 0.5
  mine = [a.copy() for a in (dst, rownnz, rowadr, colind)]
  theirs = [a.copy() for a in (dst, rownnz, rowadr, colind)]
  engine.mj_addM(m, d, *mine)
  mujoco.mj_addM(mm, dd, *theirs)
  for a, b in zip(mine[1:], theirs[1:]):
    np.testing.assert_array_equal(a, b)
  _close(mine[0], theirs[0])
  if not prefilled:
    _close(mine[0], dd.M)  # M's own layout: M itself


def test_add_m_dense_is_the_lower_triangle():
  (m, d), (mm, dd) = _pair()
  full = np.zeros((m.nv, m.nv))
  mujoco.mj_fullM(mm, dd, full)
  dense = np.ones((m.nv, m.nv))
  engine.mj_addM(m, d, dense, None, None, None)
  _close(dense, 1 + np.tril(full))


def test_add_m_refuses_rows_that_do_not_fit():
  (m, d), _ = _pair()
  nv = m.nv
  rowadr = np.arange(nv, dtype=np.int32)  # rows one entry apart cannot grow
  rownnz, colind = np.zeros(nv, np.int32), np.zeros(m.nM, np.int32)
  with pytest.raises(ValueError, match="does not fit"):
    engine.mj_addM(m, d, np.zeros(m.nM), rownnz, rowadr + m.nM - 2, colind)
  with pytest.raises(ValueError, match="dst"):
    engine.mj_addM(m, d, np.zeros(nv * nv), rownnz, rowadr, colind)
  with pytest.raises(TypeError, match="rownnz"):
    engine.mj_addM(m, d, np.zeros(m.nM), np.zeros(nv), rowadr, colind)
  assert not rownnz.any()  # nothing written


# ---- Jacobians ----


@pytest.mark.parametrize("body", [0, 2, 3, 4, 5])
def test_jac_dot_matches_mujoco(body):
  (m, d), (mm, dd) = _pair()
  point = np.array([0.2, -0.1, 0.3])
  mine, theirs = np.zeros((2, 3, m.nv)), np.zeros((2, 3, m.nv))
  engine.mj_jacDot(m, d, mine[0], mine[1], point, body)
  mujoco.mj_jacDot(mm, dd, theirs[0], theirs[1], point, body)
  _close(mine, theirs)
  only = np.zeros((3, m.nv))
  engine.mj_jacDot(m, d, None, only, point, body)
  np.testing.assert_array_equal(only, mine[1])


def test_jac_dot_is_the_derivative_of_the_jacobian():
  """J(q + h qvel) - J(q - h qvel) over 2h, for a point moving with the body."""
  (m, d), _ = _pair()
  body, local = 4, np.array([0.05, 0.01, -0.02])
  jdot = np.zeros((3, m.nv))
  point = d.xpos[body] + d.xmat[body].reshape(3, 3) @ local
  engine.mj_jacDot(m, d, jdot, None, point, body)
  h, jacs = 1e-6, []
  for sign in (1, -1):
    d2 = engine.MjData(m)
    d2.qpos[:] = d.qpos
    engine.mj_integratePos(m, d2.qpos, d.qvel, sign * h)
    engine.mj_forward(m, d2)
    jac = np.zeros((3, m.nv))
    engine.mj_jac(m, d2, jac, None, d2.xpos[body] + d2.xmat[body].reshape(3, 3) @ local, body)
    jacs.append(jac)
  _close(jdot, (jacs[0] - jacs[1]) / (2 * h), rtol=1e-6)  # central difference error


@pytest.mark.parametrize("body", [0, 3, 4])
def test_jac_point_axis_matches_mujoco(body):
  (m, d), (mm, dd) = _pair()
  point, axis = np.array([0.1, 0.2, 0.3]), np.array([0.0, 0.6, 0.8])
  mine, theirs = np.zeros((2, 3, m.nv)), np.zeros((2, 3, m.nv))
  engine.mj_jacPointAxis(m, d, mine[0], mine[1], point, axis, body)
  mujoco.mj_jacPointAxis(mm, dd, theirs[0], theirs[1], point, axis, body)
  _close(mine, theirs)
  with pytest.raises(ValueError, match="jacAxis"):
    engine.mj_jacPointAxis(m, d, None, np.zeros((m.nv, 3)), point, axis, body)


@pytest.mark.parametrize("body", [0, 1, 2, 3, 5])
def test_angmom_mat_matches_mujoco(body):
  (m, d), (mm, dd) = _pair()
  mine, theirs = np.zeros((3, m.nv)), np.zeros((3, m.nv))
  engine.mj_angmomMat(m, d, mine, body)
  mujoco.mj_angmomMat(mm, dd, theirs, body)
  _close(mine, theirs)
  engine.mj_subtreeVel(m, d)
  _close(mine @ d.qvel, d.subtree_angmom[body], rtol=1e-10)  # the momentum it maps qvel to
  with pytest.raises(ValueError, match="body 6"):
    engine.mj_angmomMat(m, d, mine, 6)


# ---- pipeline pieces ----

KINEMATIC_FIELDS = ("xpos", "xquat", "xmat", "xipos", "ximat", "geom_xpos", "site_xmat",
                    "cam_xpos", "cam_xmat", "subtree_com", "cdof", "cinert")  # fmt: skip


def test_fwd_kinematics_matches_mujoco():
  (m, d), (mm, dd) = _pair(forward=False)
  engine.mj_fwdKinematics(m, d)
  mujoco.mj_fwdKinematics(mm, dd)
  for name in KINEMATIC_FIELDS:
    _close(getattr(d, name), getattr(dd, name))
  engine.mj_flex(m, d)  # no flexes: nothing to do


def test_island_matches_mujoco():
  (m, d), (mm, dd) = _pair()
  engine.mj_island(m, d)
  mujoco.mj_island(mm, dd)
  assert d.nisland == dd.nisland > 0
  for name in ("dof_island", "tree_island", "island_dofadr", "island_nv", "efc_island"):
    np.testing.assert_array_equal(getattr(d, name), getattr(dd, name), name)


@pytest.mark.parametrize("diagexact", [False, True])
def test_inverse_stages_match_mujoco(diagexact):
  """mj_invPosition, mj_invVelocity, mj_invConstraint from a fresh state: the same rows,
  impedances, constraint forces and bias forces as mujoco's (diagexact: the exact diagonal)."""
  flags = int(mujoco.mjtEnableBit.mjENBL_DIAGEXACT) if diagexact else 0
  (m, d), (mm, dd) = _pair(forward=False, enableflags=flags)
  for data in (d, dd):
    data.qacc[:] = np.linspace(-2, 2, m.nv)
  for lib, model, data in ((engine, m, d), (mujoco, mm, dd)):
    lib.mj_invPosition(model, data)
    lib.mj_invVelocity(model, data)
    lib.mj_invConstraint(model, data)
  assert d.nefc == dd.nefc > 0
  fields = ("qLD", "efc_J", "efc_pos", "efc_D", "efc_R", "efc_diagA", "efc_aref", "actuator_moment")
  for name in KINEMATIC_FIELDS + fields:
    _close(getattr(d, name), getattr(dd, name))
  for name in ("qfrc_bias", "qfrc_passive", "efc_force", "qfrc_constraint"):
    _close(getattr(d, name), getattr(dd, name), rtol=1e-10)  # through the constraint model
  np.testing.assert_array_equal(d.efc_state, dd.efc_state)


def test_inv_constraint_without_rows_clears_the_force():
  (m, d), _ = _pair(XML.replace('range="-1 1"', ""), forward=False)
  d.qpos[2] = 5  # off the floor: no contacts
  engine.mj_invPosition(m, d)
  d.qfrc_constraint[:] = 1
  engine.mj_invConstraint(m, d)
  assert d.nefc == 0 and not d.qfrc_constraint.any()


def test_compare_fwd_inv_matches_mujoco():
  (m, d), (mm, dd) = _pair()
  for data in (d, dd):
    data.xfrc_applied[3] = (0.1, -0.2, 0.3, 0.01, 0.02, -0.03)
    data.qfrc_applied[:] = 0.05
  engine.mj_forward(m, d)
  mujoco.mj_forward(mm, dd)
  force, qfrc = d.efc_force.copy(), d.qfrc_constraint.copy()
  engine.mj_compareFwdInv(m, d)
  mujoco.mj_compareFwdInv(mm, dd)
  # the norms measure the forward solver's residual (~1e-9 here): compare them loosely
  _close(d.solver_fwdinv, dd.solver_fwdinv, rtol=1e-6)
  np.testing.assert_array_equal(d.efc_force, force)  # forward results restored
  np.testing.assert_array_equal(d.qfrc_constraint, qfrc)


# ---- argument checks ----


@pytest.mark.parametrize(
  "call",
  [
    lambda m, d: engine.mj_jacDot(m, d, np.zeros((3, m.nv)), None, np.zeros(3), m.nbody),
    lambda m, d: engine.mj_jacPointAxis(m, d, None, None, np.zeros(3), np.zeros(3), -1),
    lambda m, d: engine.mj_angmomMat(m, d, np.zeros((3, m.nv)), -2),
    lambda m, d: engine.mj_objectVelocity(m, d, 6, 5, np.zeros(6), 0),
    lambda m, d: engine.mj_local2Global(
      d, np.zeros(3), np.zeros(9), np.zeros(3), np.zeros(4), 99, 0
    ),
    lambda m, d: engine.mj_maxContact(m, -1, 0, 0),
  ],
)
def test_ids_out_of_range_raise_value_error(call):
  (m, d), _ = _pair()
  with pytest.raises(ValueError, match="out of range"):
    call(m, d)


def test_wrong_output_dtypes_raise_type_error():
  (m, d), _ = _pair()
  with pytest.raises(TypeError, match="mj_jacDot.*jacp"):
    engine.mj_jacDot(m, d, np.zeros((3, m.nv), np.float32), None, np.zeros(3), 1)
  with pytest.raises(TypeError, match="mj_mulM2.*res"):
    engine.mj_mulM2(m, d, np.zeros(m.nv, np.int32), np.zeros(m.nv))
  with pytest.raises(ValueError, match="mj_angmomMat.*mat"):
    engine.mj_angmomMat(m, d, np.zeros((m.nv, 3)), 1)
  with pytest.raises(TypeError):
    engine.mj_getTotalmass(None)


@pytest.mark.parametrize("jacobian", [0, 1])
@pytest.mark.parametrize("diagexact", [False, True])
def test_project_constraint_matches_mujoco(jacobian, diagexact):
  """efc_AR recomputed from scratch (PGS: dual) and, with diagexact, the impedance."""
  flags = int(mujoco.mjtEnableBit.mjENBL_DIAGEXACT) if diagexact else 0
  (m, d), (mm, dd) = _pair(solver=0, jacobian=jacobian, enableflags=flags)
  for data in (d, dd):
    data.efc_AR[:] = 0
  engine.mj_projectConstraint(m, d)
  mujoco.mj_projectConstraint(mm, dd)
  assert d.nA == dd.nA > 0
  _close(d.efc_AR, dd.efc_AR)
  for name in ("efc_D", "efc_R", "iefc_D", "iefc_R", "efc_diagA"):
    _close(getattr(d, name), getattr(dd, name))
  if jacobian:
    for name in ("efc_AR_rownnz", "efc_AR_rowadr", "efc_AR_colind"):
      np.testing.assert_array_equal(getattr(d, name), getattr(dd, name))


def test_project_constraint_of_a_primal_solver_does_nothing():
  (m, d), (mm, dd) = _pair()
  engine.mj_projectConstraint(m, d)
  mujoco.mj_projectConstraint(mm, dd)
  assert d.nA == dd.nA == 0


def test_project_constraint_without_room_is_refused():
  """An MjData made for a primal solver has no room for efc_AR: switching to PGS afterwards
  and projecting raises instead of writing past the arrays."""
  (m, d), _ = _pair()
  m.opt.solver = 0
  with pytest.raises(engine.UnsupportedError, match="no room"):
    engine.mj_projectConstraint(m, d)


# ---- text dumps ----


def test_print_model_and_data_write_readable_dumps(tmp_path):
  """Not MuJoCo's layout: each field's name and shape, then its rows, numbers to 9 digits."""
  (m, d), _ = _pair()
  engine.mj_printModel(m, tmp_path / "model.txt")
  engine.mj_printData(m, d, str(tmp_path / "data.txt"))
  model = (tmp_path / "model.txt").read_text().splitlines()
  data = (tmp_path / "data.txt").read_text().splitlines()
  assert f"  nv {m.nv}" in model
  row = model.index(f"  body_mass ({m.nbody},)")
  np.testing.assert_allclose([float(x) for x in model[row + 1].split()], m.body_mass, rtol=1e-8)
  row = data.index(f"  qpos ({m.nq},)")
  np.testing.assert_allclose([float(x) for x in data[row + 1].split()], d.qpos, rtol=1e-8)
  assert data.count("  contact 0") == 1 and f"  contact {d.ncon - 1}" in data
  assert not any("scratch_" in line for line in data)
  with pytest.raises(TypeError, match="filename"):
    engine.mj_printData(m, d, 3)
