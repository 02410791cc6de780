"""engine.math against the `mujoco` bindings (the oracle), on seeded random inputs.

Ports follow C's operation order, so they are compared bit for bit (`assert_array_equal`).
Internal functions the bindings do not wrap are called in libmujoco through ctypes when it
exports them, otherwise checked against their defining formula at 1e-12.
"""

import ctypes
import functools
import glob
import os
import tempfile

import mujoco
import numba
import numpy as np
import pytest

from engine import math as engine_math
from tests import jitted

em = jitted.module(engine_math)  # the helpers, callable from Python

N = 200  # random trials per function


@pytest.fixture
def rng():
  return np.random.default_rng(12345)


def _quat(rng, unit=True):
  q = rng.normal(size=4)
  return q / np.linalg.norm(q) if unit else q * rng.uniform(0.2, 3.0)


def _rot(rng):
  mat = np.zeros(9)
  mujoco.mju_quat2Mat(mat, _quat(rng))
  return mat


def _same(ours, theirs):
  np.testing.assert_array_equal(ours, theirs)


_PTR = ctypes.POINTER(ctypes.c_double)


@functools.lru_cache(maxsize=None)
def _libmujoco():
  """The oracle's shared library, for internal functions the bindings do not wrap."""
  path = glob.glob(os.path.join(os.path.dirname(mujoco.__file__), "libmujoco.so*"))[0]
  return ctypes.CDLL(path)


def _c_function(name, argtypes, restype=None):
  fn = getattr(_libmujoco(), name)
  fn.argtypes = argtypes
  fn.restype = restype

  def call(*args):
    return fn(*[a.ctypes.data_as(_PTR) if isinstance(a, np.ndarray) else a for a in args])

  return call


def _eig3_tol_oracle():
  """mju_eig3Tol is exported by libmujoco but not bound in Python."""
  return _c_function("mju_eig3Tol", [_PTR] * 4 + [ctypes.c_double], ctypes.c_int)


# ---- scalars ----


def test_scalars_match_bindings(rng):
  edge = [0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 0.49999999999999994, 3e9, -2147483648.6, 1e11, -1e11]
  xs = np.concatenate([rng.normal(size=N) * 3, edge])
  for x in xs:
    y = rng.normal()
    assert em.mju_min(x, y) == mujoco.mju_min(x, y)
    assert em.mju_max(x, y) == mujoco.mju_max(x, y)
    assert em.mju_sign(x) == mujoco.mju_sign(x)
    assert em.mju_round(x) == mujoco.mju_round(x)
    assert em.mju_isBad(x) == mujoco.mju_isBad(x)
    assert em.mju_clip(x, -1.0, 0.5) == mujoco.mju_clip(x, -1.0, 0.5)
    assert em.mju_sigmoid(x) == mujoco.mju_sigmoid(x)
  assert em.mju_isBad(np.nan) == mujoco.mju_isBad(np.nan) == 1
  assert em.mju_round(np.nan) == mujoco.mju_round(np.nan)


# ---- 3D and 4D vectors ----


def test_vec3_ops_match_bindings(rng):
  for _ in range(N):
    a, b, s = rng.normal(size=3), rng.normal(size=3), rng.normal()
    mat = rng.normal(size=9)
    for name, args in [
      ("mju_scl3", (a, s)),
      ("mju_add3", (a, b)),
      ("mju_sub3", (a, b)),
      ("mju_cross", (a, b)),
      ("mju_mulMatVec3", (mat, a)),
      ("mju_mulMatTVec3", (mat, a)),
      ("mju_copy3", (a,)),
    ]:
      ours, theirs = np.full(3, np.nan), np.full(3, np.nan)
      getattr(em, name)(ours, *args)
      getattr(mujoco, name)(theirs, *args)
      _same(ours, theirs)

    # in-place accumulation
    ours, theirs = b.copy(), b.copy()
    em.mju_addTo3(ours, a)
    mujoco.mju_addTo3(theirs, a)
    _same(ours, theirs)
    ours, theirs = b.copy(), b.copy()
    em.mju_addToScl3(ours, a, s)
    mujoco.mju_addToScl3(theirs, a, s)
    _same(ours, theirs)

    # scalar results
    assert em.mju_dot3(a, b) == mujoco.mju_dot3(a, b)
    assert em.mju_dist3(a, b) == mujoco.mju_dist3(a, b)
    assert em.mju_norm3(a) == mujoco.mju_norm3(a)
    ours, theirs = a.copy(), a.copy()
    assert em.mju_normalize3(ours) == mujoco.mju_normalize3(theirs)
    _same(ours, theirs)

  # zero vector normalizes to the x axis
  z = np.zeros(3)
  assert em.mju_normalize3(z) == 0.0
  _same(z, [1.0, 0.0, 0.0])
  em.mju_zero3(z)
  _same(z, np.zeros(3))


def test_cross_aliases_output():
  a = np.array([1.0, 2.0, 3.0])
  b = np.array([-2.0, 0.5, 4.0])
  expected = np.cross(a, b)
  em.mju_cross(a, a, b)
  _same(a, expected)


def test_rotvecmat_is_matvec3(rng):
  for _ in range(20):
    mat, v = _rot(rng), rng.normal(size=3)
    ours, theirs = np.zeros(3), np.zeros(3)
    em.mju_rotVecMat(ours, mat, v)
    mujoco.mju_mulMatVec3(theirs, mat, v)
    _same(ours, theirs)
    em.mju_rotVecMatT(ours, mat, v)
    mujoco.mju_mulMatTVec3(theirs, mat, v)
    _same(ours, theirs)


def test_mat3_products_match_numpy(rng):
  for _ in range(20):
    a, b = rng.normal(size=9), rng.normal(size=9)
    A, B = a.reshape(3, 3), b.reshape(3, 3)
    res = np.zeros(9)
    em.mju_mulMatMat3(res, a, b)
    np.testing.assert_allclose(res, (A @ B).ravel(), atol=1e-12)
    em.mju_mulMatTMat3(res, a, b)
    np.testing.assert_allclose(res, (A.T @ B).ravel(), atol=1e-12)
    em.mju_mulMatMatT3(res, a, b)
    np.testing.assert_allclose(res, (A @ B.T).ravel(), atol=1e-12)


def test_unbound_helpers_match_library(rng):
  # exported by libmujoco, not wrapped by the bindings: call them through ctypes
  dbl, i32 = ctypes.c_double, ctypes.c_int
  for _ in range(N):
    a, b, s = rng.normal(size=9), rng.normal(size=9), rng.normal()
    for name in ["mju_mulMatMat3", "mju_mulMatTMat3", "mju_mulMatMatT3"]:
      ours, theirs = np.full(9, np.nan), np.full(9, np.nan)
      getattr(em, name)(ours, a, b)
      _c_function(name, [_PTR] * 3)(theirs, a, b)
      _same(ours, theirs)
    ours, theirs = np.full(3, np.nan), np.full(3, np.nan)
    em.mju_addScl3(ours, a, b, s)
    _c_function("mju_addScl3", [_PTR] * 3 + [dbl])(theirs, a, b, s)
    _same(ours, theirs)
    ours, theirs = a[:3].copy(), a[:3].copy()
    em.mju_subFrom3(ours, b)
    _c_function("mju_subFrom3", [_PTR] * 2)(theirs, b)
    _same(ours, theirs)
    ours, theirs = np.full(9, np.nan), np.full(9, np.nan)
    em.mju_addScl(ours, a, b, s, 7)
    _c_function("mju_addScl", [_PTR] * 3 + [dbl, i32])(theirs, a, b, s, 7)
    _same(ours, theirs)
    ours, theirs = a.copy(), a.copy()
    em.mju_subFrom(ours, b, 9)
    _c_function("mju_subFrom", [_PTR] * 2 + [i32])(theirs, b, 9)
    _same(ours, theirs)

    # 6D inertia (10-vector) times a 6D vector
    inert, v = rng.normal(size=10), rng.normal(size=6)
    ours, theirs = np.full(6, np.nan), np.full(6, np.nan)
    em.mju_mulInertVec(ours, inert, v)
    _c_function("mju_mulInertVec", [_PTR] * 3)(theirs, inert, v)
    _same(ours, theirs)

    # muscle helper curves
    length, lmin, lmax = rng.uniform(0, 2), rng.uniform(0.3, 0.9), rng.uniform(1.1, 1.8)
    gain_length = _c_function("mju_muscleGainLength", [dbl] * 3, dbl)
    assert em.mju_muscleGainLength(length, lmin, lmax) == gain_length(length, lmin, lmax)
    args = (rng.normal(), 0.01, 0.04, rng.choice([0.0, 0.3]))
    timescale = _c_function("mju_muscleDynamicsTimescale", [dbl] * 4, dbl)
    assert em.mju_muscleDynamicsTimescale(*args) == timescale(*args)


def test_vec4_ops_match_bindings(rng):
  for _ in range(N):
    q = rng.normal(size=4) * rng.choice([1e-20, 1.0, 1 + 1e-16, 5.0])
    ours, theirs = q.copy(), q.copy()
    assert em.mju_normalize4(ours) == mujoco.mju_normalize4(theirs)
    _same(ours, theirs)
  for name in ["mju_zero4", "mju_unit4"]:
    ours, theirs = np.full(4, np.nan), np.full(4, np.nan)
    getattr(em, name)(ours)
    getattr(mujoco, name)(theirs)
    _same(ours, theirs)
  ours, theirs = np.zeros(4), np.zeros(4)
  em.mju_copy4(ours, q)
  mujoco.mju_copy4(theirs, q)
  _same(ours, theirs)


# ---- n-vectors ----


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 13, 30])
def test_nvec_ops_match_bindings(rng, n):
  a, b, s = rng.normal(size=n), rng.normal(size=n), rng.normal()
  assert em.mju_dot(a, b, n) == mujoco.mju_dot(a, b)
  assert em.mju_sum(a, n) == mujoco.mju_sum(a)
  assert em.mju_L1(a, n) == mujoco.mju_L1(a)
  if n:
    assert em.mju_norm(a, n) == mujoco.mju_norm(a)
    ours, theirs = a.copy(), a.copy()
    assert em.mju_normalize(ours, n) == mujoco.mju_normalize(theirs)
    _same(ours, theirs)
  for name, args in [
    ("mju_scl", (a, s)),
    ("mju_add", (a, b)),
    ("mju_sub", (a, b)),
    ("mju_copy", (a,)),
  ]:
    ours, theirs = np.full(n, np.nan), np.full(n, np.nan)
    getattr(em, name)(ours, *args, n)
    getattr(mujoco, name)(theirs, *args)
    _same(ours, theirs)
  for name, args in [("mju_addTo", (a,)), ("mju_addToScl", (a, s))]:
    ours, theirs = b.copy(), b.copy()
    getattr(em, name)(ours, *args, n)
    getattr(mujoco, name)(theirs, *args)
    _same(ours, theirs)
  ours, theirs = np.full(n, np.nan), np.full(n, np.nan)
  em.mju_fill(ours, s, n)
  mujoco.mju_fill(theirs, s)
  _same(ours, theirs)
  em.mju_zero(ours, n)
  _same(ours, np.zeros(n))

  # addScl and subFrom, against their definition
  ours = np.zeros(n)
  em.mju_addScl(ours, a, b, s, n)
  _same(ours, a + b * s)
  ours = b.copy()
  em.mju_subFrom(ours, a, n)
  _same(ours, b - a)


def test_dot_at_offsets(rng):
  a, b = rng.normal(size=40), rng.normal(size=40)
  for adr1, adr2, n in [(0, 0, 40), (3, 5, 17), (10, 1, 4), (7, 7, 3), (39, 0, 1)]:
    assert em.dot_at(a, adr1, b, adr2, n) == mujoco.mju_dot(a[adr1 : adr1 + n], b[adr2 : adr2 + n])
  res = a.copy()
  em.add_to_scl_at(res, 4, b, 9, 0.25, 6)
  expected = a.copy()
  expected[4:10] += b[9:15] * 0.25
  _same(res, expected)


# ---- matrices ----


@pytest.mark.parametrize("nr,nc", [(1, 1), (3, 4), (5, 2), (7, 9), (12, 12)])
def test_matrix_products_match_bindings(rng, nr, nc):
  mat = rng.normal(size=(nr, nc))
  mat[rng.random(size=mat.shape) < 0.3] = 0.0  # exercise the zero-skipping branches
  v_c, v_r = rng.normal(size=nc), rng.normal(size=nr)
  v_r[0] = 0.0

  ours, theirs = np.full(nr, np.nan), np.full(nr, np.nan)
  em.mju_mulMatVec(ours, mat.ravel(), v_c, nr, nc)
  mujoco.mju_mulMatVec(theirs, mat, v_c)
  _same(ours, theirs)

  ours, theirs = np.full(nc, np.nan), np.full(nc, np.nan)
  em.mju_mulMatTVec(ours, mat.ravel(), v_r, nr, nc)
  mujoco.mju_mulMatTVec(theirs, mat, v_r)
  _same(ours, theirs)

  ours, theirs = np.full(nr * nc, np.nan), np.full((nc, nr), np.nan)
  em.mju_transpose(ours, mat.ravel(), nr, nc)
  mujoco.mju_transpose(theirs, mat)
  _same(ours, theirs.ravel())

  # products with a second matrix
  c2 = 3
  mat2 = rng.normal(size=(nc, c2))
  ours, theirs = np.full(nr * c2, np.nan), np.full((nr, c2), np.nan)
  em.mju_mulMatMat(ours, mat.ravel(), mat2.ravel(), nr, nc, c2)
  mujoco.mju_mulMatMat(theirs, mat, mat2)
  _same(ours, theirs.ravel())

  mat3 = rng.normal(size=(4, nc))
  ours, theirs = np.full(nr * 4, np.nan), np.full((nr, 4), np.nan)
  em.mju_mulMatMatT(ours, mat.ravel(), mat3.ravel(), nr, nc, 4)
  mujoco.mju_mulMatMatT(theirs, mat, mat3)
  _same(ours, theirs.ravel())

  mat4 = rng.normal(size=(nr, c2))
  ours, theirs = np.full(nc * c2, np.nan), np.full((nc, c2), np.nan)
  em.mju_mulMatTMat(ours, mat.ravel(), mat4.ravel(), nr, nc, c2)
  mujoco.mju_mulMatTMat(theirs, mat, mat4)
  _same(ours, theirs.ravel())

  # mat' * diag * mat, with and without diag
  diag = rng.uniform(0.1, 2.0, size=nr)
  diag[-1] = 0.0
  ours, theirs = np.full(nc * nc, np.nan), np.full((nc, nc), np.nan)
  em.mju_sqrMatTD(ours, mat.ravel(), diag, nr, nc)
  mujoco.mju_sqrMatTD(theirs, mat, diag)
  _same(ours, theirs.ravel())
  em.mju_sqrMatTD(ours, mat.ravel(), None, nr, nc)
  mujoco.mju_sqrMatTD(theirs, mat, None)
  _same(ours, theirs.ravel())


@pytest.mark.parametrize("n", [1, 3, 6, 10])
def test_square_matrix_ops_match_bindings(rng, n):
  mat = rng.normal(size=(n, n))
  v1, v2 = rng.normal(size=n), rng.normal(size=n)
  assert em.mju_mulVecMatVec(v1, mat.ravel(), v2, n) == mujoco.mju_mulVecMatVec(v1, mat, v2)
  ours, theirs = np.full(n * n, np.nan), np.full((n, n), np.nan)
  em.mju_symmetrize(ours, mat.ravel(), n)
  mujoco.mju_symmetrize(theirs, mat)
  _same(ours, theirs.ravel())
  em.mju_eye(ours, n)
  mujoco.mju_eye(theirs)
  _same(ours, theirs.ravel())


# ---- quaternions ----


def _special_quats():
  return [np.array([1.0, 0, 0, 0]), np.array([0.0, 1, 0, 0]), np.array([-1.0, 0, 0, 0])]


def test_quaternion_ops_match_bindings(rng):
  quats = [_quat(rng) for _ in range(N)] + _special_quats()
  for q in quats:
    q2, v, s = _quat(rng), rng.normal(size=3), rng.normal()
    for name, args, size in [
      ("mju_rotVecQuat", (v, q), 3),
      ("mju_rotVecQuat", (np.zeros(3), q), 3),
      ("mju_negQuat", (q,), 4),
      ("mju_mulQuat", (q, q2), 4),
      ("mju_mulQuatAxis", (q, v), 4),
      ("mju_axisAngle2Quat", (v / np.linalg.norm(v), s), 4),
      ("mju_axisAngle2Quat", (v, 0.0), 4),
      ("mju_quat2Vel", (q, 0.01 + abs(s)), 3),
      ("mju_subQuat", (q, q2), 3),
      ("mju_quat2Mat", (q,), 9),
      ("mju_derivQuat", (q, v), 4),
      ("mju_quatZ2Vec", (v,), 4),
    ]:
      ours, theirs = np.full(size, np.nan), np.full(size, np.nan)
      getattr(em, name)(ours, *args)
      getattr(mujoco, name)(theirs, *args)
      _same(ours, theirs)

    # in place: integrate an unnormalized quaternion
    ours, theirs = q * 1.5, q * 1.5
    em.mju_quatIntegrate(ours, v, s)
    mujoco.mju_quatIntegrate(theirs, v, s)
    _same(ours, theirs)


def test_quat_z2vec_special_vectors():
  for v in [[0, 0, 1.0], [0, 0, -1.0], [0, 0, 1e-20], [1e-20, 0, 1], [0, 1.0, 0], [0, 0, 0]]:
    v = np.array(v, dtype=float)
    ours, theirs = np.full(4, np.nan), np.full(4, np.nan)
    em.mju_quatZ2Vec(ours, v)
    mujoco.mju_quatZ2Vec(theirs, v)
    _same(ours, theirs)


def test_mat2quat_match_bindings(rng):
  # rotations covering all four branches (each quaternion component largest)
  mats = [_rot(rng) for _ in range(N)]
  for k in range(4):
    q = np.full(4, 0.1)
    q[k] = 1.0
    q /= np.linalg.norm(q)
    mat = np.zeros(9)
    mujoco.mju_quat2Mat(mat, q)
    mats.append(mat)
  for mat in mats:
    ours, theirs = np.full(4, np.nan), np.full(4, np.nan)
    em.mju_mat2Quat(ours, mat)
    mujoco.mju_mat2Quat(theirs, mat)
    _same(ours, theirs)


def test_mat2rot_match_bindings(rng):
  for _ in range(50):
    mat = _rot(rng).reshape(3, 3) @ np.diag(rng.uniform(0.5, 2.0, size=3))
    mat = (mat + 0.1 * rng.normal(size=(3, 3))).ravel()
    guess = _quat(rng)
    ours, theirs = guess.copy(), guess.copy()
    assert em.mju_mat2Rot(ours, mat) == mujoco.mju_mat2Rot(theirs, mat)
    _same(ours, theirs)


def test_euler2quat_match_bindings(rng):
  seqs = ["xyz", "XYZ", "zyx", "ZYX", "xYz", "zxz", "YzX"]
  for _ in range(30):
    euler = rng.uniform(-np.pi, np.pi, size=3)
    for seq in seqs:
      ours, theirs = np.full(4, np.nan), np.full(4, np.nan)
      em.mju_euler2Quat(ours, euler, seq)
      mujoco.mju_euler2Quat(theirs, euler, seq)
      _same(ours, theirs)


@pytest.mark.parametrize("seq", ["xy", "xyzx", "xyw", "abc"])
def test_euler2quat_rejects_bad_sequence(seq):
  with pytest.raises(ValueError):
    em.mju_euler2Quat(np.zeros(4), np.zeros(3), seq)


# ---- poses ----


def test_pose_ops_match_bindings(rng):
  for _ in range(N):
    p1, q1, p2, q2 = rng.normal(size=3), _quat(rng, unit=False), rng.normal(size=3), _quat(rng)
    v = rng.normal(size=3)
    ours = np.full(3, np.nan), np.full(4, np.nan)
    theirs = np.full(3, np.nan), np.full(4, np.nan)
    em.mju_mulPose(*ours, p1, q1, p2, q2)
    mujoco.mju_mulPose(*theirs, p1, q1, p2, q2)
    _same(ours[0], theirs[0])
    _same(ours[1], theirs[1])
    em.mju_negPose(*ours, p1, q1)
    mujoco.mju_negPose(*theirs, p1, q1)
    _same(ours[0], theirs[0])
    _same(ours[1], theirs[1])
    res_o, res_t = np.full(3, np.nan), np.full(3, np.nan)
    em.mju_trnVecPose(res_o, p1, q2, v)
    mujoco.mju_trnVecPose(res_t, p1, q2, v)
    _same(res_o, res_t)


# ---- spatial algebra ----


def _skew(v):
  return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def test_transform_spatial_match_bindings(rng):
  for _ in range(N):
    vec, newpos, oldpos, rot = rng.normal(size=6), rng.normal(size=3), rng.normal(size=3), _rot(rng)
    for flg_force in (0, 1):
      ours, theirs = np.full(6, np.nan), np.full(6, np.nan)
      em.mju_transformSpatial(ours, vec, flg_force, newpos, oldpos, rot)
      mujoco.mju_transformSpatial(theirs, vec, flg_force, newpos, oldpos, rot)
      _same(ours, theirs)

      # without rotation (NULL in C; the bindings require a matrix, so call the library)
      em.mju_transformSpatial(ours, vec, flg_force, newpos, oldpos, None)
      transform = _c_function("mju_transformSpatial", [_PTR, _PTR, ctypes.c_int] + [_PTR] * 3)
      transform(theirs, vec, flg_force, newpos, oldpos, None)
      _same(ours, theirs)


def test_spatial_cross_products_match_definition(rng):
  for _ in range(N):
    vel, v = rng.normal(size=6), rng.normal(size=6)
    # 6x6 motion cross operator [w]x 0; [v]x [w]x, and its negative transpose for forces
    cm = np.zeros((6, 6))
    cm[:3, :3] = _skew(vel[:3])
    cm[3:, 3:] = _skew(vel[:3])
    cm[3:, :3] = _skew(vel[3:])
    res = np.full(6, np.nan)
    em.mju_crossMotion(res, vel, v)
    np.testing.assert_allclose(res, cm @ v, atol=1e-12)
    em.mju_crossForce(res, vel, v)
    np.testing.assert_allclose(res, -cm.T @ v, atol=1e-12)


def test_inertia_ops_match_definition(rng):
  for _ in range(N):
    inert, mat, dif, mass = rng.uniform(0.1, 2, size=3), _rot(rng), rng.normal(size=3), 2.5
    cinert = np.full(10, np.nan)
    em.mju_inertCom(cinert, inert, mat, dif, mass)

    # rotational inertia about the com-frame origin: R diag(I) R' - m [dif]x^2
    R = mat.reshape(3, 3)
    rot_i = R @ np.diag(inert) @ R.T - mass * _skew(dif) @ _skew(dif)
    idx = [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)]
    np.testing.assert_allclose(cinert[:6], [rot_i[i, j] for i, j in idx], atol=1e-12)
    np.testing.assert_allclose(cinert[6:], np.append(mass * dif, mass), atol=1e-12)

    # 6x6 spatial inertia times a vector
    full = np.zeros((6, 6))
    full[:3, :3] = rot_i
    full[:3, 3:] = _skew(mass * dif)
    full[3:, :3] = -_skew(mass * dif)
    full[3:, 3:] = mass * np.eye(3)
    v, res = rng.normal(size=6), np.full(6, np.nan)
    em.mju_mulInertVec(res, cinert, v)
    np.testing.assert_allclose(res, full @ v, atol=1e-12)


# ---- Cholesky and eigen ----


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_cholesky_match_bindings(rng, n):
  a = rng.normal(size=(n, n))
  spd = a @ a.T + 0.1 * np.eye(n)
  ours, theirs = spd.ravel().copy(), spd.copy()
  assert em.mju_cholFactor(ours, n, 0.0) == mujoco.mju_cholFactor(theirs, 0.0) == n
  _same(ours, theirs.ravel())

  # solve, also in place
  vec = rng.normal(size=n)
  res_o, res_t = np.full(n, np.nan), np.full(n, np.nan)
  em.mju_cholSolve(res_o, ours, vec, n)
  mujoco.mju_cholSolve(res_t, theirs, vec)
  _same(res_o, res_t)
  inplace = vec.copy()
  em.mju_cholSolve(inplace, ours, inplace, n)
  _same(inplace, res_t)

  # rank-one updates, both signs
  for flg_plus in (1, 0):
    x = 0.3 * rng.normal(size=n)
    x_o, x_t = x.copy(), x.copy()
    assert em.mju_cholUpdate(ours, x_o, n, flg_plus) == mujoco.mju_cholUpdate(theirs, x_t, flg_plus)
    _same(ours, theirs.ravel())
    _same(x_o, x_t)


def test_cholesky_rank_deficient_match_bindings(rng):
  a = rng.normal(size=(4, 2))
  singular = a @ a.T
  ours, theirs = singular.ravel().copy(), singular.copy()
  assert em.mju_cholFactor(ours, 4, 1e-8) == mujoco.mju_cholFactor(theirs, 1e-8) < 4
  _same(ours, theirs.ravel())


def _tree_hessian(rng, n=24, nrow=30):
  """A sparse Jacobian over 4 chains of 6 dofs (rows act on one chain's tail, or join two, as
  contacts do), D, and M with a dof's ancestors on its chain: Newton's sparse H = J'*D*J + M.
  CSR rows with sorted columns; M's rows end with their diagonal."""
  J = np.zeros((nrow, n))
  for r in range(nrow):
    for chain in rng.choice(4, size=rng.integers(1, 3), replace=False):
      first = 6 * chain + rng.integers(0, 6)
      J[r, first : 6 * chain + 6] = rng.normal(size=6 * chain + 6 - first)
  D = rng.uniform(0.5, 2, size=nrow) * (rng.random(nrow) < 0.8)  # some rows not quadratic
  M = np.zeros((n, n))
  for i in range(n):
    for j in range(6 * (i // 6), i + 1):
      M[i, j] = M[j, i] = rng.normal() * 0.1
    M[i, i] = 2 + rng.random()
  return J, D, M


def _csr(a, lower=False):
  rows = [
    [j for j in range(a.shape[1] if not lower else i + 1) if a[i, j] != 0]
    for i in range(a.shape[0])
  ]
  rownnz = np.array([len(r) for r in rows], np.int32)
  rowadr = np.concatenate([[0], np.cumsum(rownnz)[:-1]]).astype(np.int32)
  colind = np.array([j for r in rows for j in r], np.int32)
  vals = np.array([a[i, j] for i, r in enumerate(rows) for j in r])
  return vals, rownnz, rowadr, colind


def _dense(vals, rownnz, rowadr, colind, n):
  out = np.zeros((n, n))
  for i in range(n):
    for k in range(rowadr[i], rowadr[i] + rownnz[i]):
      out[i, colind[k]] = vals[k]
  return out


@functools.lru_cache(maxsize=None)
def _c_data():
  """An mjData of libmujoco's own (its stack serves the sparse routines' scratch)."""
  lib = _libmujoco()
  lib.mj_loadXML.restype = lib.mj_makeData.restype = ctypes.c_void_p
  with tempfile.NamedTemporaryFile("w", suffix=".xml") as f:
    f.write('<mujoco><size memory="1M"/></mujoco>')
    f.flush()
    model = lib.mj_loadXML(f.name.encode(), None, None, 0)
  return ctypes.cast(lib.mj_makeData(ctypes.c_void_p(model)), _PTR)


def test_sparse_hessian_routines_match_library(rng):
  # Newton's sparse path (engine/sparse.py) step by step against libmujoco's routines: the
  # pattern and values of J'*D*J, M added in, the reverse Cholesky pattern and factor, rank-1
  # updates, all bit for bit; the factor and solve also checked against the dense algebra
  from engine import sparse as es

  es = jitted.module(es)
  ptr, i32, dbl = _PTR, ctypes.c_int, ctypes.c_double
  mj_pattern = _c_function("mju_sqrMatTDSparseSymbolic", [ptr] * 4 + [i32] * 2 + [ptr] * 8, i32)
  mj_values = _c_function("mju_sqrMatTDSparseNumeric", [ptr, i32] + [ptr] * 15)
  mj_add = _c_function("mju_addToMatSparse", [ptr] * 4 + [i32] + [ptr] * 4)
  mj_chol_pattern = _c_function("mju_cholFactorSymbolic", [ptr] * 10 + [i32, ptr], i32)
  mj_factor = _c_function("mju_cholFactorNumeric", [ptr, i32, dbl] + [ptr] * 12, i32)
  mj_update = _c_function(
    "mju_cholUpdateSparse", [ptr, ptr, i32, i32] + [ptr] * 3 + [i32, ptr, ptr], i32
  )
  d = _c_data()
  for _ in range(20):
    J, D, M = _tree_hessian(rng)
    nrow, n = J.shape
    Jv, Jn, Ja, Jc = _csr(J)
    JTv, JTn, JTa, JTc = _csr(J.T)
    Mv, Mn, Ma, Mc = _csr(M, lower=True)
    JTs = np.zeros(n, np.int32)  # columns of J with equal rows, taken together
    es.super_rows(JTs, JTn, JTa, JTc, n)
    assert JTs.any()

    # J'*D*J: pattern (count, then fill at rows with room for M), values, then + M
    ours = [np.zeros(n, np.int32) for _ in range(2)]
    theirs = [np.zeros(n, np.int32) for _ in range(2)]
    work = np.zeros((3, max(n, nrow)), np.int32)
    nH = es.sqr_mat_td_pattern(
      ours[0],
      ours[1],
      work[2],
      False,
      nrow,
      n,
      Jn,
      Ja,
      Jc,
      JTn,
      JTa,
      JTc,
      JTs,
      work[0],
      work[1],
      work[2],
    )
    assert nH == mj_pattern(
      theirs[0], theirs[1], None, None, nrow, n, Jn, Ja, Jc, JTn, JTa, JTc, JTs, d
    )
    _same(ours[0], theirs[0])
    _same(ours[1], theirs[1])
    rowadr = (ours[1] + np.concatenate([[0], np.cumsum(Mn)[:-1]])).astype(np.int32)
    size = nH + len(Mv)
    H, H_mj = np.full(size, np.nan), np.full(size, np.nan)
    colind, colind_mj = np.zeros(size, np.int32), np.zeros(size, np.int32)
    rownnz, rownnz_mj = np.zeros(n, np.int32), np.zeros(n, np.int32)
    es.sqr_mat_td_pattern(
      rownnz,
      rowadr,
      colind,
      True,
      nrow,
      n,
      Jn,
      Ja,
      Jc,
      JTn,
      JTa,
      JTc,
      JTs,
      work[0],
      work[1],
      work[2],
    )
    mj_pattern(rownnz_mj, rowadr, colind_mj, None, nrow, n, Jn, Ja, Jc, JTn, JTa, JTc, JTs, d)
    es.sqr_mat_td_values(
      H, n, rownnz, rowadr, colind, Jv, Jn, Ja, Jc, JTv, JTn, JTa, JTc, JTs, D, np.zeros(8 * n)
    )
    mj_values(
      H_mj, n, rownnz_mj, rowadr, colind_mj, None, Jv, Jn, Ja, Jc, JTv, JTn, JTa, JTc, JTs, D, d
    )  # MuJoCo's row batches sum each entry in the same order
    es.add_to_mat_sparse(H, rownnz, rowadr, colind, n, Mv, Mn, Ma, Mc)
    mj_add(H_mj, rownnz_mj, rowadr, colind_mj, n, Mv, Mn, Ma, Mc)
    _same(rownnz, rownnz_mj)
    for i in range(n):
      row = slice(rowadr[i], rowadr[i] + rownnz[i])
      _same(colind[row], colind_mj[row])
      _same(H[row], H_mj[row])
    exact = np.tril(J.T @ np.diag(D) @ J + M)
    np.testing.assert_allclose(_dense(H, rownnz, rowadr, colind, n), exact, atol=1e-12)

    # the factor's pattern from H's upper triangle, then the factor L'*L = H
    HTn, HTa, HTc = np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(size, np.int32)
    es.transpose(H, HTn, HTa, HTc, H, rownnz, rowadr, colind, n, n, False)
    rows = np.zeros((4, n), np.int32)
    nL = es.chol_pattern(
      work[0],
      rows[0],
      rows[1],
      work[0],
      rows[2],
      rows[3],
      work[0],
      False,
      HTn,
      HTa,
      HTc,
      n,
      *np.zeros((4, n), np.int32),
    )
    rows_mj = np.zeros((4, n), np.int32)
    assert nL == mj_chol_pattern(
      None, rows_mj[0], rows_mj[1], None, rows_mj[2], rows_mj[3], None, HTn, HTa, HTc, n, None
    )
    _same(rows, rows_mj)
    ind = np.zeros((3, nL), np.int32)
    ind_mj = np.zeros((3, nL), np.int32)
    es.chol_pattern(
      ind[0],
      rows[0],
      rows[1],
      ind[1],
      rows[2],
      rows[3],
      ind[2],
      True,
      HTn,
      HTa,
      HTc,
      n,
      *np.zeros((4, n), np.int32),
    )
    mj_chol_pattern(
      ind_mj[0], rows[0], rows[1], ind_mj[1], rows[2], rows[3], ind_mj[2], HTn, HTa, HTc, n, None
    )
    _same(ind, ind_mj)
    L, L_mj = np.full(nL, np.nan), np.full(nL, np.nan)
    assert (
      es.chol_factor_sparse(
        L,
        n,
        1e-15,
        rows[0],
        rows[1],
        ind[0],
        rows[2],
        rows[3],
        ind[1],
        ind[2],
        H,
        rownnz,
        rowadr,
        colind,
        np.zeros(n),
      )
      == n
    )
    assert (
      mj_factor(
        L_mj,
        n,
        1e-15,
        rows[0],
        rows[1],
        ind[0],
        rows[2],
        rows[3],
        ind[1],
        ind[2],
        H,
        rownnz,
        rowadr,
        colind,
        np.zeros(n),
      )
      == n
    )  # 3.17: a scratch row last
    _same(L, L_mj)
    Ld = _dense(L, rows[0], rows[1], ind[0], n)
    H_full = J.T @ np.diag(D) @ J + M
    np.testing.assert_allclose(Ld.T @ Ld, H_full, atol=1e-10)

    # rank-1 update and downdate with a sparse row of J (as a row entering or leaving the
    # quadratic zone), each followed by a solve
    r = rng.integers(nrow)
    x = Jv[Ja[r] : Ja[r] + Jn[r]] * 0.7
    for sign in (1, 0):
      ours, theirs = L.copy(), L.copy()
      assert (
        es.chol_update_sparse(
          ours, x, 0, n, sign, rows[0], rows[1], ind[0], Jn[r], Jc, Ja[r], np.zeros(n)
        )
        == n
      )
      assert (
        mj_update(theirs, x, n, sign, rows[0], rows[1], ind[0], Jn[r], Jc[Ja[r] :], np.zeros(n))
        == n
      )  # 3.17's last argument: a dense scratch row
      _same(ours, theirs)
      L = ours
      vec = rng.normal(size=n)
      res = np.full(n, np.nan)
      es.chol_solve_sparse(res, L, vec, n, rows[0], rows[1], ind[0])
      update = np.outer(J[r], J[r]) * 0.49 if sign else 0
      np.testing.assert_allclose((H_full + update) @ res, vec, atol=1e-9)

  # a singular pivot is raised to mindiag and lowers the rank
  H[rowadr[5] : rowadr[5] + rownnz[5]] = 0
  assert (
    es.chol_factor_sparse(
      L,
      n,
      1e-8,
      rows[0],
      rows[1],
      ind[0],
      rows[2],
      rows[3],
      ind[1],
      ind[2],
      H,
      rownnz,
      rowadr,
      colind,
      np.zeros(n),
    )
    < n
  )


def _sym3(rng, k):
  a = rng.normal(size=(3, 3)) * 10 ** rng.uniform(-3, 3)
  mat = a @ a.T
  if k % 5 == 0:
    mat = np.diag(rng.normal(size=3))
  if k % 7 == 0:
    mat = np.diag([2.0, 1.0, 1.0])  # repeated eigenvalue
  if k % 11 == 0:
    mat = np.zeros((3, 3))
  return mat.ravel().copy()


def test_eig3_match_bindings(rng):
  for k in range(N):
    mat = _sym3(rng, k)
    ours = np.full(3, np.nan), np.full(9, np.nan), np.full(4, np.nan)
    theirs = np.full(3, np.nan), np.full(9, np.nan), np.full(4, np.nan)
    assert em.mju_eig3(*ours, mat) == mujoco.mju_eig3(*theirs, mat)
    for o, t in zip(ours, theirs):
      _same(o, t)


def test_eig3_tol_matches_library(rng):
  oracle = _eig3_tol_oracle()
  for k in range(N):
    mat = _sym3(rng, k)
    for reltol in (1e-3, 1e-8):
      ours = np.full(3, np.nan), np.full(9, np.nan), np.full(4, np.nan)
      theirs = np.full(3, np.nan), np.full(9, np.nan), np.full(4, np.nan)
      assert em.mju_eig3Tol(*ours, mat, reltol) == oracle(*theirs, mat, reltol)
      for o, t in zip(ours, theirs):
        _same(o, t)


# ---- actuator models and miscellaneous ----


def test_muscle_functions_match_bindings(rng):
  for _ in range(N):
    lengthrange = np.sort(rng.uniform(0.1, 1.0, size=2))
    prm = np.array([0.75, 1.05, rng.choice([-1.0, 50.0]), 200.0, 0.5, 1.6, 1.5, 1.3, 1.2])
    length = rng.uniform(lengthrange[0] - 0.3, lengthrange[1] + 0.3)
    vel, acc0 = rng.normal() * 2, rng.uniform(0.0, 5.0)
    gain = em.mju_muscleGain(length, vel, lengthrange, acc0, prm)
    assert gain == mujoco.mju_muscleGain(length, vel, lengthrange, acc0, prm)
    bias = em.mju_muscleBias(length, lengthrange, acc0, prm)
    assert bias == mujoco.mju_muscleBias(length, lengthrange, acc0, prm)

    # activation dynamics, hard and smooth switching
    ctrl, act = rng.uniform(-0.2, 1.2), rng.uniform(-0.2, 1.2)
    for width in (0.0, 0.3):
      dprm = np.array([0.01, 0.04, width])
      assert em.mju_muscleDynamics(ctrl, act, dprm) == mujoco.mju_muscleDynamics(ctrl, act, dprm)


def test_spring_damper_matches_bindings(rng):
  # over-, critically and under-damped, negative damping, and near the regime boundaries
  cases = [(1.0, 3.0), (4.0, 4.0), (10.0, 0.5), (0.0, 0.0), (1.0, -3.0), (-2.0, 1.0), (0.0, 2.0)]
  cases += [(1e-20, 2.0), (4.0, 4.0 + 1e-10), (1.0, 2.0 + 1e-7), (1.0, 2.0 - 1e-15)]
  for Kp, Kv in cases:
    for _ in range(20):
      pos0, vel0, dt = rng.normal(), rng.normal(), rng.uniform(0, 2)
      assert em.mju_springDamper(pos0, vel0, Kp, Kv, dt) == mujoco.mju_springDamper(
        pos0, vel0, Kp, Kv, dt
      )


@pytest.mark.parametrize("dim", [1, 3, 4, 6])
def test_pyramid_codec_matches_bindings(rng, dim):
  # the bindings pass mu.size as C's dim, so they get mu (dim,), force (dim+1,), pyramid (2*dim,)
  for _ in range(20):
    force = np.append(rng.normal(size=dim), np.nan)
    force[0] = abs(force[0])
    mu = rng.uniform(0.1, 1.0, size=dim)
    pyramid = rng.uniform(0.0, 1.0, size=2 * dim)
    if dim > 1:
      ours, theirs = np.full(2 * dim, np.nan), np.full(2 * dim, np.nan)
      em.mju_encodePyramid(ours, force, mu, dim)
      mujoco.mju_encodePyramid(theirs, force, mu)
      _same(ours, theirs)
    ours, theirs = np.full(dim + 1, np.nan), np.full(dim + 1, np.nan)
    em.mju_decodePyramid(ours, pyramid, mu, dim)
    mujoco.mju_decodePyramid(theirs, pyramid, mu)
    _same(ours, theirs)


# ---- numba interoperability ----


@numba.njit(cache=False)
def _kernel_pose_chain(quats, out):
  # compose rotations and measure angles with the leaf functions, from compiled code
  acc = np.array([1.0, 0.0, 0.0, 0.0])
  vel = np.zeros(3)
  for i in range(quats.shape[0]):
    engine_math.mju_mulQuat(acc, acc, quats[i])
    engine_math.mju_normalize4(acc)
  engine_math.mju_quat2Mat(out, acc)
  engine_math.mju_subQuat(vel, acc, quats[0])
  return engine_math.mju_norm3(vel) + engine_math.mju_dot(out, out, 9)


def test_callable_from_numba_kernel(rng):
  quats = np.array([_quat(rng) for _ in range(5)])
  out = np.zeros(9)
  val = _kernel_pose_chain(quats, out)

  # same chain through the bindings
  acc = np.array([1.0, 0, 0, 0])
  for q in quats:
    mujoco.mju_mulQuat(acc, acc, q)
    mujoco.mju_normalize4(acc)
  mat, vel = np.zeros(9), np.zeros(3)
  mujoco.mju_quat2Mat(mat, acc)
  mujoco.mju_subQuat(vel, acc, quats[0])
  _same(out, mat)
  assert val == mujoco.mju_norm3(vel) + mujoco.mju_dot(mat, mat)


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="decorators are no-ops without the JIT")
def test_functions_are_jitted():
  for name in dir(em):
    if name.startswith("mju_") and name != "mju_euler2Quat":
      assert isinstance(getattr(em, name), numba.core.registry.CPUDispatcher), name


def test_make_frame_matches_definition(rng):
  """mju_makeFrame (not exported by libmujoco; contact frames are compared with MuJoCo's in
  test_collision_driver): x normalized, y the hint (or world y, or world z when x is near y)
  made orthonormal to x, z = x cross y."""
  for _ in range(N):
    frame = np.zeros(9)
    frame[:3] = rng.normal(size=3) * rng.choice([1e-3, 1.0, 7.0])
    if rng.uniform() < 0.2:
      frame[:3] = [0.1, rng.choice([-1.0, 1.0]), 0.05]
    hinted = rng.uniform() < 0.5
    if hinted:
      frame[3:6] = rng.normal(size=3) + frame[:3]
    x = frame[:3] / np.linalg.norm(frame[:3])
    hint = (
      frame[3:6].copy()
      if hinted and frame[3:6] @ frame[3:6] >= 0.25
      else (np.array([0.0, 1.0, 0.0]) if abs(x[1]) < 0.5 else np.array([0.0, 0.0, 1.0]))
    )
    y = hint - x * (x @ hint)
    y /= np.linalg.norm(y)
    em.mju_makeFrame(frame)
    np.testing.assert_allclose(frame, np.concatenate([x, y, np.cross(x, y)]), atol=1e-12)
