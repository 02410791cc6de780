"""composer.utils.transformations against dm_control's utils.transformations (the oracle).

Every public function is compared with dm_control's on seeded random inputs, single and batched
where dm_control takes batches, and on edge cases (identity, 180-degree rotations, gimbal lock,
zero vectors, non-unit quaternions); then analytic identities and round trips, and the errors.
"""

import inspect
import itertools
import os
import types

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

from dm_control.utils import transformations as dm_tr  # noqa: E402  (after MUJOCO_GL)

from composer.utils import transformations as tr  # noqa: E402

TAIT_BRYAN = ("XYZ", "ZYX", "XZY", "YZX", "ZXY", "YXZ")
EULER_ORDERINGS = TAIT_BRYAN + ("XYX",)  # the orderings rmat_to_euler recovers
ALL_ORDERINGS = ["".join(axes) for axes in itertools.product("XYZ", repeat=3)]  # euler_to_rmat's
IDENTITY_QUAT = np.array([1.0, 0.0, 0.0, 0.0])


def assert_same(ours, theirs):
  """Equal to dm_control's result: shape, float64, values to rounding.

  Single inputs agree bit for bit; batched products differ in the last bit where numpy's matrix
  multiplication takes another summation path for dm_control's strided arrays.
  """
  ours, theirs = np.asarray(ours), np.asarray(theirs)
  assert ours.shape == theirs.shape
  assert ours.dtype == np.float64
  np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-15)


def random_quats(rng, *shape):
  quats = rng.normal(size=shape + (4,))
  return quats / np.linalg.norm(quats, axis=-1, keepdims=True)


def random_non_unit_quats(rng, count):
  """Quaternions of norms 0.2 to 3 with |w| < 1 (the range quat_log and quat_to_axisangle take)."""
  quats = random_quats(rng, count) * rng.uniform(0.2, 3.0, size=(count, 1))
  quats[:, 0] = rng.uniform(-0.99, 0.99, size=count)
  return quats


def random_rmats(rng, count):
  return [dm_tr.quat_to_mat(quat)[:3, :3] for quat in random_quats(rng, count)]


def dm_exception(function, *args):
  """The exception type dm_control's `function` raises for `args`."""
  try:
    function(*args)
  except Exception as error:  # noqa: BLE001 (any type: it is what we compare with)
    return type(error)
  raise AssertionError(f"dm_control accepts {args}")


@pytest.fixture
def rng():
  return np.random.default_rng(0)


# The public interface.


def _public_functions(module):
  return {
    name
    for name in dir(module)
    if not name.startswith("_") and not isinstance(getattr(module, name), types.ModuleType)
  }


def test_has_every_public_name_of_dm_control():
  names = _public_functions(dm_tr)
  assert len(names) >= 19
  assert names - _public_functions(tr) == set()


@pytest.mark.parametrize("name", sorted(_public_functions(dm_tr)))
def test_same_signature(name):
  ours = inspect.signature(getattr(tr, name)).parameters
  theirs = inspect.signature(getattr(dm_tr, name)).parameters
  assert [(p.name, p.kind, p.default) for p in ours.values()] == [
    (p.name, p.kind, p.default) for p in theirs.values()
  ]


def test_same_tolerances():
  assert tr._TOL == dm_tr._TOL
  assert tr._POLE_LIMIT == dm_tr._POLE_LIMIT


# Seeded random inputs.


@pytest.mark.parametrize(
  "name", ["quat_conj", "quat_inv", "quat_to_mat", "quat_to_axisangle", "quat_log"]
)
def test_single_quaternion_functions(rng, name):
  for quat in random_quats(rng, 50):
    assert_same(getattr(tr, name)(quat), getattr(dm_tr, name)(quat))


@pytest.mark.parametrize("name", ["quat_mul", "quat_diff", "quat_dist"])
def test_quaternion_pairs(rng, name):
  for quat1, quat2 in zip(random_quats(rng, 50), random_quats(rng, 50)):
    assert_same(getattr(tr, name)(quat1, quat2), getattr(dm_tr, name)(quat1, quat2))


@pytest.mark.parametrize(
  "name", ["quat_conj", "quat_inv", "quat_log", "quat_dist", "quat_mul", "quat_diff"]
)
@pytest.mark.parametrize("shape", [(7,), (2, 3)])
def test_batched_quaternion_functions(rng, name, shape):
  args = [random_quats(rng, *shape)]
  if name in ("quat_dist", "quat_mul", "quat_diff"):
    args.append(random_quats(rng, *shape))
  assert_same(getattr(tr, name)(*args), getattr(dm_tr, name)(*args))


@pytest.mark.parametrize("shapes", [((4,), (5, 4)), ((5, 4), (4,)), ((2, 1, 4), (3, 4))])
def test_quat_mul_broadcasts_batches(rng, shapes):
  quat1, quat2 = random_quats(rng, *shapes[0][:-1]), random_quats(rng, *shapes[1][:-1])
  assert_same(tr.quat_mul(quat1, quat2), dm_tr.quat_mul(quat1, quat2))


def test_quat_rotate(rng):
  for quat, vec in zip(random_quats(rng, 50), rng.normal(size=(50, 3))):
    assert_same(tr.quat_rotate(quat, vec), dm_tr.quat_rotate(quat, vec))


@pytest.mark.parametrize("ordering", EULER_ORDERINGS)
def test_quat_to_euler(rng, ordering):
  for quat in random_quats(rng, 50):
    assert_same(tr.quat_to_euler(quat, ordering), dm_tr.quat_to_euler(quat, ordering))


@pytest.mark.parametrize("ordering", EULER_ORDERINGS)
def test_rmat_to_euler(rng, ordering):
  for rmat in random_rmats(rng, 50):
    assert_same(tr.rmat_to_euler(rmat, ordering), dm_tr.rmat_to_euler(rmat, ordering))
    homogeneous = dm_tr.quat_to_mat(dm_tr.mat_to_quat(rmat))
    assert_same(tr.rmat_to_euler(homogeneous, ordering), dm_tr.rmat_to_euler(homogeneous, ordering))


@pytest.mark.parametrize("ordering", ALL_ORDERINGS)
@pytest.mark.parametrize("full", [False, True])
def test_euler_to_rmat(rng, ordering, full):
  angles = rng.uniform(-np.pi, np.pi, size=(6, 3))
  for euler in angles:
    assert_same(tr.euler_to_rmat(euler, ordering, full), dm_tr.euler_to_rmat(euler, ordering, full))
  assert_same(tr.euler_to_rmat(angles, ordering, full), dm_tr.euler_to_rmat(angles, ordering, full))
  one = angles[:1]  # a batch of one is squeezed to a single matrix
  assert_same(tr.euler_to_rmat(one, ordering, full), dm_tr.euler_to_rmat(one, ordering, full))


def test_euler_to_rmat_default_ordering_and_list_input(rng):
  euler = list(rng.uniform(-np.pi, np.pi, size=3))
  assert_same(tr.euler_to_rmat(euler), dm_tr.euler_to_rmat(euler))
  assert_same(tr.euler_to_rmat(np.float32(euler)), dm_tr.euler_to_rmat(np.float32(euler)))
  assert_same(tr.euler_to_rmat(np.zeros((0, 3))), dm_tr.euler_to_rmat(np.zeros((0, 3))))


@pytest.mark.parametrize("ordering", ALL_ORDERINGS)
def test_euler_to_quat(rng, ordering):
  for euler in rng.uniform(-np.pi, np.pi, size=(10, 3)):
    assert_same(tr.euler_to_quat(euler, ordering), dm_tr.euler_to_quat(euler, ordering))
  one = euler[None]
  assert_same(tr.euler_to_quat(one, ordering), dm_tr.euler_to_quat(one, ordering))


def test_mat_to_quat(rng):
  for rmat in random_rmats(rng, 50):
    assert_same(tr.mat_to_quat(rmat), dm_tr.mat_to_quat(rmat))
    homogeneous = np.identity(4)
    homogeneous[:3, :3] = rmat
    assert_same(tr.mat_to_quat(homogeneous), dm_tr.mat_to_quat(homogeneous))
    homogeneous[3, 3] = 2.5  # dm_control scales by M[3, 3]
    assert_same(tr.mat_to_quat(homogeneous), dm_tr.mat_to_quat(homogeneous))


def test_mat_to_quat_every_branch():
  """The trace branch and each of x, y, z as the largest component (with ties)."""
  matrices = [
    np.identity(3),
    np.zeros((3, 3)),
    np.diag([1.0, 1.0, -1.0]),
    np.diag([-1.0, 1.0, 1.0]),
    np.diag([1.0, -1.0, 1.0]),
  ]
  for axis in np.identity(3):
    for angle in (0.9 * np.pi, np.pi):
      matrices.append(dm_tr.quat_to_mat(dm_tr.axisangle_to_quat(angle * axis))[:3, :3])
  for mat in matrices:
    assert_same(tr.mat_to_quat(mat), dm_tr.mat_to_quat(mat))


@pytest.mark.parametrize("name", ["rotation_x_axis", "rotation_y_axis", "rotation_z_axis"])
@pytest.mark.parametrize("full", [False, True])
def test_axis_rotations(rng, name, full):
  ours, theirs = getattr(tr, name), getattr(dm_tr, name)
  angles = rng.uniform(-np.pi, np.pi, size=5)
  for theta in (float(angles[0]), angles[1], np.float32(angles[2]), 2, [angles[3]], angles, []):
    assert_same(ours(theta, full), theirs(theta, full))
  assert_same(ours(angles[0]), theirs(angles[0]))  # full defaults to False


def test_axis_rotation_of_a_zero_dimensional_array(rng):
  """dm_control takes np.float64 but not a 0-d array (len() of unsized object); ours takes both."""
  theta = rng.uniform(-np.pi, np.pi)
  assert_same(tr.rotation_x_axis(np.array(theta)), dm_tr.rotation_x_axis(theta))


def test_rotation_matrix_2d(rng):
  for theta in (0.3, rng.uniform(-np.pi, np.pi, size=4), rng.uniform(-np.pi, np.pi, size=(2, 3))):
    assert_same(tr.rotation_matrix_2d(theta), dm_tr.rotation_matrix_2d(theta))


def test_axisangle_to_quat(rng):
  for axisangle in rng.normal(size=(50, 3)) * 2:
    assert_same(tr.axisangle_to_quat(axisangle), dm_tr.axisangle_to_quat(axisangle))
  batch = rng.normal(size=(2, 5, 3))
  batch[0, 1] = 0.0
  batch[1, 2] *= 1e-3
  with np.errstate(invalid="ignore"):  # dm_control divides the zero row by 0 before choosing
    assert_same(tr.axisangle_to_quat(batch), dm_tr.axisangle_to_quat(batch))
    assert_same(tr.axisangle_to_quat(batch, tol=0.01), dm_tr.axisangle_to_quat(batch, tol=0.01))


# Edge cases.


@pytest.mark.parametrize(
  "name", ["quat_conj", "quat_inv", "quat_to_mat", "quat_to_axisangle", "quat_log", "quat_to_euler"]
)
def test_identity_quaternion(name):
  assert_same(getattr(tr, name)(IDENTITY_QUAT), getattr(dm_tr, name)(IDENTITY_QUAT))


def test_identity_elsewhere(rng):
  quat = random_quats(rng)
  assert_same(tr.quat_mul(IDENTITY_QUAT, quat), quat)
  assert_same(tr.quat_dist(quat, quat), dm_tr.quat_dist(quat, quat))
  for ordering in ALL_ORDERINGS:
    assert_same(tr.euler_to_rmat(np.zeros(3), ordering), np.identity(3))
    assert_same(tr.euler_to_quat(np.zeros(3), ordering), IDENTITY_QUAT)
  for ordering in EULER_ORDERINGS:
    assert_same(
      tr.rmat_to_euler(np.identity(3), ordering), dm_tr.rmat_to_euler(np.identity(3), ordering)
    )
  assert_same(tr.mat_to_quat(np.identity(4)), IDENTITY_QUAT)
  assert_same(tr.axisangle_to_quat(np.zeros(3)), IDENTITY_QUAT)


def _half_turn_quats(rng):
  axes = [np.identity(3)[i] for i in range(3)] + list(rng.normal(size=(3, 3)))
  return [np.concatenate([[0.0], axis / np.linalg.norm(axis)]) for axis in axes]


def test_half_turns(rng):
  """180-degree rotations: w = 0 (axis-angle at the wrap-around, mat_to_quat's else branch)."""
  for quat in _half_turn_quats(rng):
    for name in ("quat_to_mat", "quat_to_axisangle", "quat_log", "quat_inv"):
      assert_same(getattr(tr, name)(quat), getattr(dm_tr, name)(quat))
    for ordering in EULER_ORDERINGS:
      assert_same(tr.quat_to_euler(quat, ordering), dm_tr.quat_to_euler(quat, ordering))
    rmat = tr.quat_to_mat(quat)
    assert_same(tr.mat_to_quat(rmat), dm_tr.mat_to_quat(rmat))
    # the angle pi wraps to -pi: the axis-angle points against the axis
    assert_same(tr.quat_to_axisangle(quat), -np.pi * quat[1:])
    assert_same(tr.axisangle_to_quat(np.pi * quat[1:]), dm_tr.axisangle_to_quat(np.pi * quat[1:]))
    np.testing.assert_allclose(tr.quat_dist(IDENTITY_QUAT, quat), [np.pi / 2], rtol=1e-9)


def _pole_matrix(ordering, pole, rng, offset=0.0):
  """R with R[i, k] = +-(1 - ...) (gimbal lock of `ordering`, 'north' when positive)."""
  i, k = "XYZ".index(ordering[0]), "XYZ".index(ordering[2])
  first, third = rng.uniform(-np.pi, np.pi, size=2)
  for middle in (np.pi / 2 - offset, -np.pi / 2 + offset):
    rmat = dm_tr.euler_to_rmat([first, middle, third], ordering)
    if (rmat[i, k] > 0) == (pole == "north"):
      return rmat


@pytest.mark.parametrize("ordering", TAIT_BRYAN)
@pytest.mark.parametrize("pole", ["north", "south"])
@pytest.mark.parametrize("offset", [0.0, 1e-4])  # |sin| = 1 - 5e-9: inside _POLE_LIMIT
def test_gimbal_lock(rng, ordering, pole, offset, caplog):
  rmat = _pole_matrix(ordering, pole, rng, offset)
  euler = tr.rmat_to_euler(rmat, ordering)
  assert_same(euler, dm_tr.rmat_to_euler(rmat, ordering))
  assert euler[0] == 0.0 and abs(euler[1]) == np.pi / 2
  assert f"{pole} pole" in caplog.text
  # dm_control's third angle at the north pole of ZYX, XZY and YZX is off by pi: the Euler angles
  # it returns (ours too, for parity) give R @ R_third(pi), a half turn more about the third axis
  rebuilt = tr.euler_to_rmat(euler, ordering)
  if pole == "north" and ordering in ("ZYX", "XZY", "YZX"):
    rebuilt = rebuilt @ tr.euler_to_rmat([0.0, 0.0, np.pi], ordering)
  np.testing.assert_allclose(rebuilt, rmat, atol=2e-4 if offset else 1e-12)


@pytest.mark.parametrize("ordering", TAIT_BRYAN)
def test_just_outside_the_pole_limit(rng, ordering):
  """|sin| = 1 - 5e-5 is resolved normally (and recovers all three angles)."""
  euler = np.array([0.3, np.pi / 2 - 1e-2, -1.2])
  rmat = tr.euler_to_rmat(euler, ordering)
  assert_same(tr.rmat_to_euler(rmat, ordering), dm_tr.rmat_to_euler(rmat, ordering))
  np.testing.assert_allclose(tr.rmat_to_euler(rmat, ordering), euler, atol=1e-9)


@pytest.mark.parametrize("middle", [0.0, np.pi])
def test_xyx_gimbal_lock(rng, middle):
  """XYX with the middle angle 0 or pi: only a + c (or a - c) is defined, c is set to 0."""
  first, third = rng.uniform(-1.0, 1.0, size=2)
  rmat = tr.euler_to_rmat([first, middle, third], "XYX")
  euler = tr.rmat_to_euler(rmat, "XYX")
  assert_same(euler, dm_tr.rmat_to_euler(rmat, "XYX"))
  # at pi, Rx(a - c) diag(-1, 1, -1); at 0, Rx(a + c), where dm_control returns -(a + c)
  expected_first = first - third if middle else -(first + third)
  np.testing.assert_allclose(euler, [expected_first, middle, 0.0], atol=1e-12)


def test_zero_vectors(rng):
  quat = random_quats(rng)
  assert_same(tr.quat_rotate(quat, np.zeros(3)), dm_tr.quat_rotate(quat, np.zeros(3)))
  assert_same(tr.quat_to_mat(np.zeros(4)), dm_tr.quat_to_mat(np.zeros(4)))  # the identity
  assert_same(tr.quat_log(np.zeros(4)), dm_tr.quat_log(np.zeros(4)))
  assert_same(tr.quat_to_axisangle(np.zeros(4)), dm_tr.quat_to_axisangle(np.zeros(4)))
  assert_same(tr.mat_to_quat(np.zeros((3, 3))), dm_tr.mat_to_quat(np.zeros((3, 3))))
  with np.errstate(invalid="ignore"):  # dm_control divides 0 by 0 before choosing the identity
    theirs = dm_tr.axisangle_to_quat(np.zeros((2, 3)))
  assert_same(tr.axisangle_to_quat(np.zeros((2, 3))), theirs)
  assert_same(tr.quat_to_euler(np.zeros(4)), [0.0, 0.0, 0.0])


def test_small_quaternion_to_mat_is_the_identity():
  assert_same(tr.quat_to_mat([1e-6, 0.0, 0.0, 0.0]), np.identity(4))


def test_non_unit_quaternions(rng):
  quats = random_non_unit_quats(rng, 20)
  for quat, other, vec in zip(quats, quats[::-1], rng.normal(size=(20, 3))):
    for name in ("quat_conj", "quat_inv", "quat_to_mat", "quat_log", "quat_to_axisangle"):
      assert_same(getattr(tr, name)(quat), getattr(dm_tr, name)(quat))
    for name in ("quat_mul", "quat_diff", "quat_dist"):
      assert_same(getattr(tr, name)(quat, other), getattr(dm_tr, name)(quat, other))
    assert_same(tr.quat_rotate(quat, vec), dm_tr.quat_rotate(quat, vec))
    assert_same(tr.quat_to_euler(quat, "ZYX"), dm_tr.quat_to_euler(quat, "ZYX"))
  assert_same(tr.quat_log(quats), dm_tr.quat_log(quats))
  assert_same(tr.quat_inv(quats), dm_tr.quat_inv(quats))


def test_w_just_above_one_is_clipped():
  quat = np.array([1.0 + 5e-11, 0.0, 0.0, 0.0])
  assert_same(tr.quat_to_axisangle(quat), dm_tr.quat_to_axisangle(quat))
  quat = np.array([1.0 + 1.5e-10, 0.0, 0.0, 0.0])  # quat_log's limit is 1 + 3 tol (w - tol)
  assert_same(tr.quat_log(quat), dm_tr.quat_log(quat))


def test_array_likes_dm_control_rejects(rng):
  """dm_control indexes its arguments as arrays in several functions (a TypeError or an
  AttributeError for lists); ours converts them and gives the array's result."""
  quat, other = random_quats(rng), random_quats(rng)
  vec = rng.normal(size=3)
  rmat = dm_tr.quat_to_mat(quat)[:3, :3]
  cases = [
    ("quat_mul", (quat, other)),
    ("quat_diff", (quat, other)),
    ("quat_dist", (quat, other)),
    ("quat_rotate", (quat, vec)),
    ("quat_to_axisangle", (quat,)),
    ("mat_to_quat", (rmat,)),
    ("rmat_to_euler", (rmat, "XYZ")),
  ]
  for name, args in cases:
    as_lists = [arg.tolist() if isinstance(arg, np.ndarray) else arg for arg in args]
    assert dm_exception(getattr(dm_tr, name), *as_lists) in (TypeError, AttributeError)
    assert_same(getattr(tr, name)(*as_lists), getattr(dm_tr, name)(*args))


# Analytic identities and round trips.


@pytest.mark.parametrize("ordering", TAIT_BRYAN)
def test_euler_quat_euler_round_trip(rng, ordering):
  for _ in range(30):
    euler = rng.uniform([-np.pi, -1.5, -np.pi], [np.pi, 1.5, np.pi])
    np.testing.assert_allclose(
      tr.quat_to_euler(tr.euler_to_quat(euler, ordering), ordering), euler, atol=1e-10
    )


def test_euler_quat_euler_round_trip_xyx(rng):
  for _ in range(30):
    euler = rng.uniform([-np.pi, 0.05, -np.pi], [np.pi, np.pi - 0.05, np.pi])
    np.testing.assert_allclose(
      tr.quat_to_euler(tr.euler_to_quat(euler, "XYX"), "XYX"), euler, atol=1e-10
    )


def test_euler_to_rmat_composes_axis_rotations(rng):
  rotations = {"X": tr.rotation_x_axis, "Y": tr.rotation_y_axis, "Z": tr.rotation_z_axis}
  euler = rng.uniform(-np.pi, np.pi, size=3)
  for ordering in ALL_ORDERINGS:
    expected = np.linalg.multi_dot([rotations[axis](angle) for axis, angle in zip(ordering, euler)])
    np.testing.assert_allclose(tr.euler_to_rmat(euler, ordering), expected, atol=1e-15)


def test_axis_rotations_turn_the_next_axis(rng):
  """Right-handed: a quarter turn about X takes Y to Z, about Y takes Z to X, about Z X to Y."""
  basis = np.identity(3)
  for axis, rotation in enumerate([tr.rotation_x_axis, tr.rotation_y_axis, tr.rotation_z_axis]):
    turned = rotation(np.pi / 2) @ basis[(axis + 1) % 3]
    np.testing.assert_allclose(turned, basis[(axis + 2) % 3], atol=1e-15)
    quat = tr.axisangle_to_quat(np.pi / 2 * basis[axis])
    np.testing.assert_allclose(tr.quat_to_mat(quat)[:3, :3], rotation(np.pi / 2), atol=1e-15)


def test_mat_quat_mat_round_trip(rng):
  for quat in random_quats(rng, 30):
    rmat = tr.quat_to_mat(quat)
    np.testing.assert_allclose(tr.quat_to_mat(tr.mat_to_quat(rmat[:3, :3])), rmat, atol=1e-14)
    recovered = tr.mat_to_quat(rmat)
    np.testing.assert_allclose(recovered * np.sign(recovered @ quat), quat, atol=1e-14)  # +-q


def test_homogeneous_inverses(rng):
  """The inverse of a transform: the conjugate quaternion, or the reversed negated Euler angles."""
  for quat in random_quats(rng, 10):
    np.testing.assert_allclose(
      tr.quat_to_mat(tr.quat_conj(quat)), np.linalg.inv(tr.quat_to_mat(quat)), atol=1e-14
    )
  for ordering in ALL_ORDERINGS:
    euler = rng.uniform(-np.pi, np.pi, size=3)
    transform = tr.euler_to_rmat(euler, ordering, full=True)
    inverse = tr.euler_to_rmat(-euler[::-1], ordering[::-1], full=True)
    np.testing.assert_allclose(inverse @ transform, np.identity(4), atol=1e-14)
    np.testing.assert_allclose(inverse, transform.T, atol=1e-15)


def test_quaternion_algebra(rng):
  quat1, quat2, quat3 = random_quats(rng, 3)
  scaled = quat1 * 2.5
  np.testing.assert_allclose(tr.quat_mul(scaled, tr.quat_inv(scaled)), IDENTITY_QUAT, atol=1e-15)
  np.testing.assert_allclose(
    tr.quat_mul(tr.quat_mul(quat1, quat2), quat3),
    tr.quat_mul(quat1, tr.quat_mul(quat2, quat3)),
    atol=1e-15,
  )
  np.testing.assert_allclose(tr.quat_mul(quat1, tr.quat_diff(quat1, quat2)), quat2, atol=1e-15)
  # the product is the composition of rotations: quat1's matrix after quat2's
  np.testing.assert_allclose(
    tr.quat_to_mat(tr.quat_mul(quat1, quat2)),
    tr.quat_to_mat(quat1) @ tr.quat_to_mat(quat2),
    atol=1e-14,
  )
  vec = rng.normal(size=3)
  np.testing.assert_allclose(
    tr.quat_rotate(quat1, vec), tr.quat_to_mat(quat1)[:3, :3] @ vec, atol=1e-14
  )


def test_axisangle_round_trip_log_and_dist(rng):
  for _ in range(20):
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    angle = rng.uniform(0.2, np.pi - 0.2)
    quat = tr.axisangle_to_quat(angle * axis)
    np.testing.assert_allclose(tr.quat_to_axisangle(quat), angle * axis, atol=1e-12)
    # quat_log offsets w by tol = 1e-10 inside acos: ~tol / sin(angle / 2) off the exact log
    np.testing.assert_allclose(tr.quat_log(quat), [0, *(angle / 2 * axis)], atol=1e-8)
    np.testing.assert_allclose(tr.quat_dist(IDENTITY_QUAT, quat), [angle / 2], atol=1e-8)
  np.testing.assert_allclose(tr.quat_dist(quat, quat), [0.0], atol=1e-9)


def test_rotation_matrix_2d_rotates(rng):
  theta = rng.uniform(-np.pi, np.pi)
  np.testing.assert_allclose(tr.rotation_matrix_2d(theta), tr.rotation_z_axis(theta)[:2, :2])


# Errors.


def test_unknown_orderings_raise_key_error(rng):
  euler, quat, rmat = np.zeros(3), random_quats(rng), np.identity(3)
  cases = [
    (tr.rmat_to_euler, dm_tr.rmat_to_euler, (rmat,)),  # the default 'ZXZ'
    (tr.rmat_to_euler, dm_tr.rmat_to_euler, (rmat, "xyz")),
    (tr.quat_to_euler, dm_tr.quat_to_euler, (quat, "ZXZ")),
    (tr.euler_to_rmat, dm_tr.euler_to_rmat, (euler, "XYW")),
    (tr.euler_to_rmat, dm_tr.euler_to_rmat, (euler, "xyz")),
    (tr.euler_to_quat, dm_tr.euler_to_quat, (euler, "XW")),
  ]
  for ours, theirs, args in cases:
    assert dm_exception(theirs, *args) is KeyError
    with pytest.raises(KeyError, match="ordering"):
      ours(*args)


def test_ordering_of_two_axes_raises_index_error():
  assert dm_exception(dm_tr.euler_to_rmat, np.zeros(3), "XY") is IndexError
  with pytest.raises(IndexError, match="three axes"):
    tr.euler_to_rmat(np.zeros(3), "XY")


def _case_id(value):
  """A test id: the function name, or the arguments' shapes (orderings as themselves)."""
  if isinstance(value, str):
    return value
  return ",".join(arg if isinstance(arg, str) else str(np.shape(arg)) for arg in value)


WRONG_SHAPES = [
  ("quat_conj", (np.ones(3),)),
  ("quat_conj", (1.0,)),
  ("quat_inv", (np.ones(3),)),
  ("quat_log", (np.ones(3),)),
  ("quat_mul", (np.ones(3), np.ones(4))),
  ("quat_mul", (np.ones(4), np.ones(3))),
  ("quat_mul", (np.ones((2, 4)), np.ones((3, 4)))),
  ("quat_rotate", (np.ones(3), np.ones(3))),
  ("quat_rotate", (IDENTITY_QUAT, np.ones(4))),
  ("quat_rotate", (IDENTITY_QUAT, np.ones((5, 3)))),
  ("quat_to_mat", (np.ones(3),)),
  ("quat_to_mat", (np.ones((5, 4)),)),
  ("quat_to_mat", (np.ones((4, 4)),)),
  ("quat_to_axisangle", (np.ones((5, 4)) / 2,)),
  ("quat_to_euler", (np.ones((5, 4)),)),
  ("rmat_to_euler", (np.identity(2), "XYZ")),
  ("rmat_to_euler", (np.stack([np.identity(3)] * 2), "XYZ")),
  ("rmat_to_euler", (np.stack([np.identity(3)] * 2), "XYX")),
  ("mat_to_quat", (np.identity(2),)),
  ("mat_to_quat", (np.eye(3, 4),)),
  ("mat_to_quat", (np.stack([np.identity(3)] * 2),)),
  ("mat_to_quat", (np.stack([np.identity(4)] * 5),)),
  ("euler_to_rmat", (np.zeros(2), "XYZ")),
  ("euler_to_rmat", (0.1, "XYZ")),
  ("euler_to_rmat", (np.zeros((3, 1)), "XYZ")),
  ("euler_to_rmat", (np.zeros((2, 2, 3)), "XYZ")),
  ("euler_to_quat", (np.zeros((2, 3)),)),
  ("axisangle_to_quat", (np.ones(4),)),
  ("axisangle_to_quat", (np.ones(2),)),
  ("axisangle_to_quat", (1.0,)),
  ("rotation_x_axis", (np.zeros((2, 1)),)),
  ("rotation_y_axis", (np.zeros((2, 2)),)),
]


@pytest.mark.parametrize("name, args", WRONG_SHAPES, ids=_case_id)
def test_wrong_shapes_raise_dm_controls_exception_type(name, args):
  """ShapeError is a ValueError and an IndexError: dm_control raises one or the other."""
  expected = dm_exception(getattr(dm_tr, name), *args)
  assert issubclass(tr.ShapeError, expected) or expected is np.exceptions.AxisError
  with pytest.raises(tr.ShapeError, match=r"shape|matrix"):
    getattr(tr, name)(*args)


WRONG_SHAPES_DM_CONTROL_ACCEPTS = [
  ("quat_conj", (np.ones(5),)),  # dm_control: the first four entries
  ("quat_mul", (np.ones(5), np.ones(4))),
  ("quat_to_mat", (np.ones(5),)),
  ("quat_to_axisangle", (np.ones(3),)),
  ("quat_rotate", (np.ones((5, 4)) / 2, np.ones(3))),  # dm_control: rows 1-4 of a product
  ("mat_to_quat", (np.identity(5),)),
  ("euler_to_rmat", (np.zeros(4), "XYZ")),  # dm_control: the first three angles
  ("axisangle_to_quat", (np.ones(1),)),  # dm_control: broadcast to (1, 1, 1)
]


@pytest.mark.parametrize("name, args", WRONG_SHAPES_DM_CONTROL_ACCEPTS, ids=_case_id)
def test_wrong_shapes_dm_control_accepts_are_rejected(name, args):
  """Extra entries that dm_control ignores (or batches it mixes up) are an error here."""
  getattr(dm_tr, name)(*args)
  with pytest.raises(tr.ShapeError, match="shape"):
    getattr(tr, name)(*args)


def test_orderings_of_more_than_three_axes_are_rejected():
  dm_tr.euler_to_rmat(np.zeros(4), "XYZX")  # dm_control uses the first three rotations
  with pytest.raises(IndexError, match="three axes"):
    tr.euler_to_rmat(np.zeros(4), "XYZX")


def test_quat_to_axisangle_w_out_of_range():
  quat = np.array([1.5, 0.0, 0.0, 0.0])
  assert dm_exception(dm_tr.quat_to_axisangle, quat) is ValueError
  with pytest.raises(ValueError, match=r"w out of \[-1\.0, 1\.0\] .*: \[1\.5\]"):
    tr.quat_to_axisangle(quat)
  with pytest.raises(ValueError, match=r": \[-1\.5\]"):
    tr.quat_to_axisangle(-quat)


def test_quat_log_w_out_of_range():
  """dm_control means to raise a ValueError here but fails formatting its message for arrays
  (a TypeError); ours raises the ValueError."""
  quat = np.array([[1.0, 0.0, 0.0, 0.0], [1.5, 0.0, 0.0, 0.0]])
  assert dm_exception(dm_tr.quat_log, quat) is TypeError
  with pytest.raises(ValueError, match=r"quat_log: w - tol out of \[-1\.0, 1\.0\]"):
    tr.quat_log(quat)
