"""Rotations in numpy: quaternions, Euler angles, rotation matrices and axis-angles.

dm_control's `utils.transformations` with the same names, arguments and results, so that ported
locomotion and manipulation code calls it unchanged. Conventions:

- quaternions are (w, x, y, z), w first; `quat_conj`, `quat_inv`, `quat_mul`, `quat_diff`,
  `quat_log`, `quat_dist` and `axisangle_to_quat` take any leading batch dimensions (`quat_mul`
  broadcasts them), the other quaternion functions take a single quaternion;
- an Euler ordering such as 'XYZ' lists the coordinate-axis rotations in multiplication order:
  angles (a, b, c) give R = Rx(a) @ Ry(b) @ Rz(c);
- matrices are 3x3 rotations or 4x4 homogeneous transforms (a zero translation), float64.

Arrays of the wrong shape raise `ShapeError`; unknown Euler orderings raise KeyError.
"""

import logging

import numpy as np

# |sin| of the middle Euler angle above which the first angle is set to 0 (gimbal lock)
_POLE_LIMIT = 1.0 - 1e-6
# the default numerical tolerance (identity detection, range checks, `quat_log`'s offset)
_TOL = 1e-10

_AXIS_INDEX = {"X": 0, "Y": 1, "Z": 2}

# rmat_to_euler at gimbal lock (the first angle set to 0): the third angle as
# sign * atan2(R[numerator], R[denominator]), dm_control's choice for each ordering. For ZYX,
# XZY and YZX at the north pole this angle is off by pi (see tests/locomotion).
_POLE_THIRD_ANGLE = {
  "XYZ": (1.0, (1, 0), (1, 1)),
  "ZYX": (1.0, (0, 1), (0, 2)),
  "XZY": (1.0, (1, 2), (1, 0)),
  "YZX": (-1.0, (0, 2), (0, 1)),
  "ZXY": (1.0, (0, 2), (0, 0)),
  "YXZ": (-1.0, (0, 1), (0, 0)),
}
_EULER_ORDERINGS = (*_POLE_THIRD_ANGLE, "XYX")  # the orderings rmat_to_euler can recover


class ShapeError(ValueError, IndexError):
  """An array of the wrong shape.

  Both a ValueError and an IndexError (as numpy's AxisError): dm_control's functions raise one or
  the other for the same mistake, depending on where their indexing fails.
  """


def _as_single(value, shape, what):
  """`value` as a float64 array of exactly `shape`."""
  array = np.asarray(value, dtype=np.float64)
  if array.shape != shape:
    raise ShapeError(f"{what} must have shape {shape}, got {array.shape}")
  return array


def _as_batch(value, size, what):
  """`value` as a float64 array of shape (..., size)."""
  array = np.asarray(value, dtype=np.float64)
  if array.ndim == 0 or array.shape[-1] != size:
    raise ShapeError(f"{what} must have shape (..., {size}), got {array.shape}")
  return array


def _as_rotation(rmat, what):
  """`rmat` as a float64 3x3 rotation or 4x4 homogeneous transform."""
  rmat = np.asarray(rmat, dtype=np.float64)
  if rmat.shape not in ((3, 3), (4, 4)):
    raise ShapeError(f"{what} must be a 3x3 or 4x4 matrix, got shape {rmat.shape}")
  return rmat


def _clip_within_precision(value, low, high, precision, what):
  """`value` clipped into [low, high]; a ValueError if it is further than `precision` outside."""
  value = np.asarray(value)
  outside = (value < low - precision) | (value > high + precision)
  if np.any(outside):
    raise ValueError(
      f"{what} out of [{low}, {high}] by more than {precision}: {value[outside].tolist()}"
    )
  return np.clip(value, low, high)


def _homogeneous(rmat):
  """The 4x4 transform with rotation `rmat` (3x3) and no translation."""
  transform = np.identity(4)
  transform[:3, :3] = rmat
  return transform


def _ordering_axes(ordering, what):
  """The axis indices (0, 1, 2 for X, Y, Z) of a three-letter Euler ordering."""
  for letter in ordering:
    if letter not in _AXIS_INDEX:
      raise KeyError(f"{what}: ordering {ordering!r} has {letter!r}; axes are X, Y and Z")
  if len(ordering) != 3:
    raise IndexError(f"{what}: ordering {ordering!r} must name three axes")
  return tuple(_AXIS_INDEX[letter] for letter in ordering)


def _axis_rotation(axis, theta, full):
  """Rotations by `theta` (a scalar or 1-D) about coordinate axis `axis` (0, 1, 2).

  One matrix for a scalar or a single angle, else one per angle; 4x4 if `full`.
  """
  theta = np.asarray(theta)
  if theta.ndim > 1:
    raise ShapeError(
      f"rotation_{'xyz'[axis]}_axis: theta must be a scalar or 1-D, got shape {theta.shape}"
    )
  cos, sin = np.cos(theta), np.sin(theta)
  rmat = np.tile(np.identity(4 if full else 3), theta.shape + (1, 1))
  first, second = (axis + 1) % 3, (axis + 2) % 3  # the rotated plane, in right-handed order
  rmat[..., first, first] = cos
  rmat[..., second, second] = cos
  rmat[..., first, second] = -sin
  rmat[..., second, first] = sin
  return rmat[0] if theta.shape == (1,) else rmat


def rotation_x_axis(theta, full=False):
  """The rotation matrix about the X axis by `theta` (radians); (n, 3, 3) for n angles.

  A single angle in a list gives one matrix; with `full`, 4x4 homogeneous transforms instead.
  """
  return _axis_rotation(0, theta, full)


def rotation_y_axis(theta, full=False):
  """The rotation matrix about the Y axis by `theta` (radians); (n, 3, 3) for n angles.

  A single angle in a list gives one matrix; with `full`, 4x4 homogeneous transforms instead.
  """
  return _axis_rotation(1, theta, full)


def rotation_z_axis(theta, full=False):
  """The rotation matrix about the Z axis by `theta` (radians); (n, 3, 3) for n angles.

  A single angle in a list gives one matrix; with `full`, 4x4 homogeneous transforms instead.
  """
  return _axis_rotation(2, theta, full)


def rotation_matrix_2d(theta):
  """The 2x2 rotation matrix by `theta`; for an array `theta`, shape (2, 2) + theta.shape."""
  cos, sin = np.cos(theta), np.sin(theta)
  return np.array([[cos, -sin], [sin, cos]])


def euler_to_rmat(euler_vec, ordering="ZXZ", full=False):
  """The rotation matrix R_a(e0) @ R_b(e1) @ R_c(e2) of the ordering 'abc' (any three axes).

  `euler_vec` is (3,) or a batch (n, 3), giving (3, 3) or (n, 3, 3) (a batch of one gives
  (3, 3)); with `full`, 4x4 homogeneous transforms instead.
  """
  axes = _ordering_axes(ordering, "euler_to_rmat")
  angles = np.atleast_2d(euler_vec)
  if angles.ndim != 2 or angles.shape[1] != 3:
    raise ShapeError(
      f"euler_to_rmat: euler_vec must have shape (3,) or (n, 3), got {np.shape(euler_vec)}"
    )
  first, second, third = (_axis_rotation(axis, angles[:, i], full) for i, axis in enumerate(axes))
  return first @ second @ third


def euler_to_quat(euler_vec, ordering="XYZ"):
  """The quaternion of one set of Euler angles in `ordering` (see `euler_to_rmat`)."""
  rmat = euler_to_rmat(euler_vec, ordering=ordering)
  if rmat.ndim != 2:
    raise ShapeError(
      f"euler_to_quat: euler_vec must have shape (3,) or (1, 3), got {np.shape(euler_vec)}"
    )
  return mat_to_quat(rmat)


def _rmat_to_euler_xyx(rmat):
  """Angles (a, b, c) with R = Rx(a) Ry(b) Rx(c), b in [0, pi].

  At b = 0 or pi only a sum or difference of a and c is defined: c is set to 0. At b = 0 the
  returned a is -(a + c), dm_control's sign, kept for parity.
  """
  cos_b = rmat[0, 0]
  if -1.0 < cos_b < 1.0:
    return np.array(
      [np.arctan2(rmat[1, 0], -rmat[2, 0]), np.arccos(cos_b), np.arctan2(rmat[0, 1], rmat[0, 2])]
    )
  return np.array([np.arctan2(rmat[1, 2], rmat[1, 1]), np.pi if cos_b <= -1.0 else 0.0, 0.0])


def _rmat_to_euler_tait_bryan(rmat, ordering):
  """Angles (a, b, c) with R = R_i(a) R_j(b) R_k(c) for three distinct axes, b in [-pi/2, pi/2].

  R[i, k] = +-sin(b), + for the cyclic orderings (XYZ, YZX, ZXY). Within `_POLE_LIMIT` of the
  poles (b = +-pi/2) only a combination of a and c is defined: a is set to 0.
  """
  i, j, k = _ordering_axes(ordering, "rmat_to_euler")
  sign = 1.0 if (j - i) % 3 == 1 else -1.0
  sin_b = rmat[i, k]
  if abs(sin_b) > _POLE_LIMIT:
    pole = "north" if sin_b > 0 else "south"
    logging.warning(
      "rmat_to_euler(%s): angle at the %s pole; the first angle is set to 0", ordering, pole
    )
    third_sign, numerator, denominator = _POLE_THIRD_ANGLE[ordering]
    third = third_sign * np.arctan2(rmat[numerator], rmat[denominator])
    return np.array([0.0, sign * np.copysign(np.pi / 2, sin_b), third])
  return np.array(
    [
      -sign * np.arctan2(rmat[j, k], rmat[k, k]),
      sign * np.arcsin(sin_b),
      -sign * np.arctan2(rmat[i, j], rmat[i, i]),
    ]
  )


def rmat_to_euler(rmat, ordering="ZXZ"):
  """The Euler angles in `ordering` of the rotation matrix `rmat` (3x3 or 4x4).

  Orderings: XYZ, ZYX, XZY, YZX, ZXY, YXZ and XYX (a KeyError for any other, the default 'ZXZ'
  included, as in dm_control).
  """
  if ordering not in _EULER_ORDERINGS:
    raise KeyError(f"rmat_to_euler: ordering {ordering!r} is not one of {_EULER_ORDERINGS}")
  rmat = _as_rotation(rmat, "rmat_to_euler: rmat")
  if ordering == "XYX":
    return _rmat_to_euler_xyx(rmat)
  return _rmat_to_euler_tait_bryan(rmat, ordering)


def quat_conj(quat):
  """The conjugate (w, -x, -y, -z): the inverse rotation of a unit quaternion."""
  return _as_batch(quat, 4, "quat_conj: quat") * np.array([1.0, -1.0, -1.0, -1.0])


def quat_inv(quat):
  """The inverse quaternion, conj(q) / |q|^2 (any norm)."""
  quat = _as_batch(quat, 4, "quat_inv: quat")
  return quat_conj(quat) / np.sum(quat * quat, axis=-1, keepdims=True)


def _left_multiplication_matrix(quat):
  """The (..., 4, 4) matrices L with L @ p = quat * p."""
  w, x, y, z = np.moveaxis(quat, -1, 0)
  rows = [w, -x, -y, -z, x, w, -z, y, y, z, w, -x, z, -y, x, w]
  return np.stack(rows, axis=-1).reshape(quat.shape[:-1] + (4, 4))


def quat_mul(quat1, quat2):
  """The Hamilton product quat1 * quat2 (the rotation quat2, then quat1); batches broadcast."""
  quat1 = _as_batch(quat1, 4, "quat_mul: quat1")
  quat2 = _as_batch(quat2, 4, "quat_mul: quat2")
  try:
    np.broadcast_shapes(quat1.shape, quat2.shape)
  except ValueError:
    raise ShapeError(
      f"quat_mul: the batch shapes of quat1 {quat1.shape} and quat2 {quat2.shape} do not broadcast"
    ) from None
  return (_left_multiplication_matrix(quat1) @ quat2[..., None])[..., 0]


def quat_diff(source, target):
  """conj(source) * target: the rotation from `source` to `target`, in source's frame."""
  return quat_mul(quat_conj(source), target)


def quat_log(quat, tol=_TOL):
  """The quaternion logarithm (log|q|, axis * acos(w) / |q|), (..., 4).

  `tol` is added to the components inside both norms (which keeps a zero vector part finite)
  and subtracted from w inside acos, as dm_control does; |w| may exceed 1 by at most 2 * tol.
  """
  quat = _as_batch(quat, 4, "quat_log: quat")
  norm = np.linalg.norm(quat + tol, axis=-1, keepdims=True)
  vec = quat[..., 1:]
  half_angle = np.arccos(
    _clip_within_precision(quat[..., :1] - tol, -1.0, 1.0, 2.0 * tol, "quat_log: w - tol")
  )
  vec_log = vec / np.linalg.norm(vec + tol, axis=-1, keepdims=True) * half_angle / norm
  return np.concatenate([np.log(norm), vec_log], axis=-1)


def quat_dist(source, target):
  """The distance |log(source * target^-1)|, shape (..., 1), of unit quaternions.

  That is half the angle between the rotations when the product has w >= 0, else pi minus it:
  q and -q are not identified.
  """
  product = quat_mul(source, quat_inv(target))
  product = product / np.linalg.norm(product, axis=-1, keepdims=True)
  return np.linalg.norm(quat_log(product), axis=-1, keepdims=True)


def quat_rotate(quat, vec):
  """`vec` (3,) rotated by the unit quaternion `quat` (4,): q (0, vec) conj(q).

  A non-unit `quat` also scales `vec` by |q|^2.
  """
  quat = _as_single(quat, (4,), "quat_rotate: quat")
  vec = _as_single(vec, (3,), "quat_rotate: vec")
  pure = np.concatenate([[0.0], vec])
  return quat_mul(quat_mul(quat, pure), quat_conj(quat))[1:]


def quat_to_axisangle(quat):
  """The axis-angle (3,) of the unit quaternion `quat`: the axis times the angle in [-pi, pi).

  Zero for angles below the tolerance; a ValueError if |w| > 1 + 1e-10.
  """
  quat = _as_single(quat, (4,), "quat_to_axisangle: quat")
  angle = 2.0 * np.arccos(_clip_within_precision(quat[0], -1.0, 1.0, _TOL, "quat_to_axisangle: w"))
  if angle < _TOL:
    return np.zeros(3)
  axis = quat[1:] / np.sin(angle / 2.0)
  return axis * ((angle + np.pi) % (2.0 * np.pi) - np.pi)


def quat_to_mat(quat):
  """The 4x4 homogeneous transform of the rotation `quat` (normalised first).

  A quaternion with squared norm below the tolerance gives the identity.
  """
  quat = _as_single(quat, (4,), "quat_to_mat: quat")
  norm_squared = np.dot(quat, quat)
  if norm_squared < _TOL:
    return np.identity(4)
  w, x, y, z = quat * np.sqrt(2.0 / norm_squared)
  return _homogeneous(
    [
      [1.0 - y * y - z * z, x * y - z * w, x * z + y * w],
      [x * y + z * w, 1.0 - x * x - z * z, y * z - x * w],
      [x * z - y * w, y * z + x * w, 1.0 - x * x - y * y],
    ]
  )


def quat_to_euler(quat, ordering="XYZ"):
  """The Euler angles in `ordering` of the rotation `quat` (see `rmat_to_euler`)."""
  return rmat_to_euler(quat_to_mat(quat)[:3, :3], ordering=ordering)


def mat_to_quat(mat):
  """The quaternion of a 3x3 rotation or 4x4 homogeneous transform.

  For numerical stability, w (if the trace shows |w| > 1/2) or else the largest of |x|, |y|, |z|
  is computed from the diagonal and taken positive, so the sign of w is not fixed. A 4x4 matrix
  is scaled by its M[3, 3].
  """
  mat = _as_rotation(mat, "mat_to_quat: mat")
  if mat.shape == (3, 3):
    mat = _homogeneous(mat)
  quat = np.empty(4)
  trace = np.trace(mat)
  if trace > mat[3, 3]:
    largest = trace  # 4 w^2 (times M[3, 3])
    quat[:] = (trace, mat[2, 1] - mat[1, 2], mat[0, 2] - mat[2, 0], mat[1, 0] - mat[0, 1])
  else:
    i = int(np.argmax(np.diag(mat)[:3]))  # the largest of x, y, z by magnitude
    j, k = (i + 1) % 3, (i + 2) % 3
    largest = mat[i, i] - (mat[j, j] + mat[k, k]) + mat[3, 3]
    quat[0] = mat[k, j] - mat[j, k]
    quat[1 + i] = largest
    quat[1 + j] = mat[i, j] + mat[j, i]
    quat[1 + k] = mat[k, i] + mat[i, k]
  return quat * (0.5 / np.sqrt(largest * mat[3, 3]))


def axisangle_to_quat(axisangle, tol=0.0):
  """The quaternion of the rotation by |axisangle| about axisangle / |axisangle|, (..., 4).

  Angles at or below `tol` give the identity.
  """
  axisangle = _as_batch(axisangle, 3, "axisangle_to_quat: axisangle")
  angle = np.linalg.norm(axisangle, axis=-1, keepdims=True)
  is_identity = angle <= tol
  axis = np.where(
    is_identity, [1.0, 0.0, 0.0], axisangle / np.where(is_identity, 1.0, angle)
  )  # no division by zero
  half_angle = np.where(is_identity, 0.0, angle) / 2.0
  return np.concatenate([np.cos(half_angle), axis * np.sin(half_angle)], axis=-1)
