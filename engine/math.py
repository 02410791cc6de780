"""Leaf math: ports of MuJoCo's `mju_` utilities (engine_util_*.c).

Every function is a numba kernel (`@jit`) that allocates nothing and never raises; the public
`engine.mju_*` are cached versions of them that Python can call with float64 numpy arrays.
Names and argument order are MuJoCo's (outputs first). Scalars are returned; vectors are written
into the output arrays.

Fixed-size arguments are flat arrays as in the `mujoco` bindings (a 3x3 matrix is `(9,)`, a
quaternion `(w, x, y, z)`). Functions on general matrices take C's signature: flat row-major
arrays plus explicit sizes (`mju_mulMatVec(res, mat, vec, nr, nc)`), so kernels can pass
engine buffers directly. Arithmetic follows C's operation order, including `mju_dot`'s four
interleaved partial sums, so results agree with MuJoCo to the last bit where C is exact.
"""

import math

import numpy as np

from engine._jit import inline_jit
from engine._jit import jit
from engine._jit import python_callable
from engine._jit import sum4_products
from engine.enums import mjMAXVAL
from engine.enums import mjMINVAL
from engine.enums import mjPI

# ---- scalars ----


@jit
def mju_min(a, b):
  """Port of mju_min, engine_util_misc.c: a if a <= b, else b."""
  if a <= b:
    return a
  return b


@jit
def mju_max(a, b):
  """Port of mju_max, engine_util_misc.c: a if a >= b, else b."""
  if a >= b:
    return a
  return b


@jit
def mju_clip(x, min, max):
  """Port of mju_clip, engine_util_misc.c: x clipped to [min, max]."""
  if x < min:
    return min
  if x > max:
    return max
  return x


@jit
def mju_sign(x):
  """Port of mju_sign, engine_util_misc.c: -1, 0 or 1 as a float."""
  if x < 0:
    return -1.0
  if x > 0:
    return 1.0
  return 0.0


@jit
def mju_round(x):
  """Port of mju_round, engine_util_misc.c: nearest int, halves away from zero (C round).

  Saturates at the int32 range; NaN gives the int32 minimum, as the x86 build does.
  """
  # saturate outside the int32 range
  if x > 2147483647.0:
    return 2147483647
  if not x >= -2147483648.0:
    return -2147483648

  # truncate, then step away from zero when the dropped part is at least one half
  t = math.trunc(x)
  if abs(x - t) >= 0.5:
    t += 1 if x > 0 else -1
  return int(t)


@jit
def mju_isBad(x):
  """Port of mju_isBad, engine_util_misc.c: 1 if x is NaN or beyond +-mjMAXVAL, else 0."""
  if x != x or x > mjMAXVAL or x < -mjMAXVAL:
    return 1
  return 0


@jit
def _mjmax(a, b):
  """C's mjMAX macro: a if a > b, else b (differs from max() for NaN and ties)."""
  if a > b:
    return a
  return b


@jit
def mju_sigmoid(x):
  """Port of mju_sigmoid, engine_util_misc.c: quintic smoothstep on [0, 1]."""
  # clamp outside the unit interval
  if x <= 0:
    return 0.0
  if x >= 1:
    return 1.0

  # 6x^5 - 15x^4 + 10x^3, evaluated in C's factored form
  return x * x * x * (3 * x * (2 * x - 5) + 10)


# ---- 3D vectors and 3x3 matrices ----


@jit
def mju_zero3(res):
  """Port of mju_zero3, engine_util_blas.c: res = 0."""
  res[0] = 0.0
  res[1] = 0.0
  res[2] = 0.0


@jit
def mju_copy3(res, data):
  """Port of mju_copy3, engine_util_blas.c: res = data."""
  res[0] = data[0]
  res[1] = data[1]
  res[2] = data[2]


@jit
def mju_scl3(res, vec, scl):
  """Port of mju_scl3, engine_util_blas.c: res = vec*scl."""
  res[0] = vec[0] * scl
  res[1] = vec[1] * scl
  res[2] = vec[2] * scl


@jit
def mju_add3(res, vec1, vec2):
  """Port of mju_add3, engine_util_blas.c: res = vec1 + vec2."""
  res[0] = vec1[0] + vec2[0]
  res[1] = vec1[1] + vec2[1]
  res[2] = vec1[2] + vec2[2]


@jit
def mju_sub3(res, vec1, vec2):
  """Port of mju_sub3, engine_util_blas.c: res = vec1 - vec2."""
  res[0] = vec1[0] - vec2[0]
  res[1] = vec1[1] - vec2[1]
  res[2] = vec1[2] - vec2[2]


@jit
def mju_addTo3(res, vec):
  """Port of mju_addTo3, engine_util_blas.c: res += vec."""
  res[0] += vec[0]
  res[1] += vec[1]
  res[2] += vec[2]


@jit
def mju_subFrom3(res, vec):
  """Port of mju_subFrom3, engine_util_blas.c: res -= vec."""
  res[0] -= vec[0]
  res[1] -= vec[1]
  res[2] -= vec[2]


@jit
def mju_addToScl3(res, vec, scl):
  """Port of mju_addToScl3, engine_util_blas.c: res += vec*scl."""
  res[0] += vec[0] * scl
  res[1] += vec[1] * scl
  res[2] += vec[2] * scl


@jit
def mju_addScl3(res, vec1, vec2, scl):
  """Port of mju_addScl3, engine_util_blas.c: res = vec1 + scl*vec2."""
  res[0] = vec1[0] + scl * vec2[0]
  res[1] = vec1[1] + scl * vec2[1]
  res[2] = vec1[2] + scl * vec2[2]


@jit
def mju_dot3(vec1, vec2):
  """Port of mju_dot3, engine_util_blas.c: vec1 . vec2."""
  return vec1[0] * vec2[0] + vec1[1] * vec2[1] + vec1[2] * vec2[2]


@jit
def mju_dist3(pos1, pos2):
  """Port of mju_dist3, engine_util_blas.c: Euclidean distance between two points."""
  dx = pos1[0] - pos2[0]
  dy = pos1[1] - pos2[1]
  dz = pos1[2] - pos2[2]
  return math.sqrt(dx * dx + dy * dy + dz * dz)


@jit
def mju_norm3(vec):
  """Port of mju_norm3, engine_util_blas.c: Euclidean length."""
  return math.sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2])


@jit
def mju_normalize3(vec):
  """Port of mju_normalize3, engine_util_blas.c: normalize in place, return the old length.

  A vector shorter than mjMINVAL becomes (1, 0, 0).
  """
  norm = math.sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2])
  if norm < mjMINVAL:
    vec[0] = 1.0
    vec[1] = 0.0
    vec[2] = 0.0
  else:
    inv = 1 / norm
    vec[0] *= inv
    vec[1] *= inv
    vec[2] *= inv
  return norm


@jit
def mju_cross(res, a, b):
  """Port of mju_cross, engine_util_spatial.c: res = a x b (res may alias a or b)."""
  r0 = a[1] * b[2] - a[2] * b[1]
  r1 = a[2] * b[0] - a[0] * b[2]
  r2 = a[0] * b[1] - a[1] * b[0]
  res[0] = r0
  res[1] = r1
  res[2] = r2


@jit
def mju_mulMatVec3(res, mat, vec):
  """Port of mju_mulMatVec3, engine_util_blas.c: res = mat*vec for a 3x3 mat."""
  r0 = mat[0] * vec[0] + mat[1] * vec[1] + mat[2] * vec[2]
  r1 = mat[3] * vec[0] + mat[4] * vec[1] + mat[5] * vec[2]
  r2 = mat[6] * vec[0] + mat[7] * vec[1] + mat[8] * vec[2]
  res[0] = r0
  res[1] = r1
  res[2] = r2


@jit
def mju_mulMatTVec3(res, mat, vec):
  """Port of mju_mulMatTVec3, engine_util_blas.c: res = mat'*vec for a 3x3 mat."""
  r0 = mat[0] * vec[0] + mat[3] * vec[1] + mat[6] * vec[2]
  r1 = mat[1] * vec[0] + mat[4] * vec[1] + mat[7] * vec[2]
  r2 = mat[2] * vec[0] + mat[5] * vec[1] + mat[8] * vec[2]
  res[0] = r0
  res[1] = r1
  res[2] = r2


# older MuJoCo names of the two products above (rotate a vector by a rotation matrix)
mju_rotVecMat = mju_mulMatVec3
mju_rotVecMatT = mju_mulMatTVec3


@jit
def mju_mulMatMat3(res, mat1, mat2):
  """Port of mju_mulMatMat3, engine_util_blas.c: res = mat1*mat2, 3x3 (no aliasing)."""
  for i in range(3):
    for j in range(3):
      res[3 * i + j] = (
        mat1[3 * i] * mat2[j] + mat1[3 * i + 1] * mat2[3 + j] + mat1[3 * i + 2] * mat2[6 + j]
      )


@jit
def mju_mulMatTMat3(res, mat1, mat2):
  """Port of mju_mulMatTMat3, engine_util_blas.c: res = mat1'*mat2, 3x3 (no aliasing)."""
  for i in range(3):
    for j in range(3):
      res[3 * i + j] = mat1[i] * mat2[j] + mat1[3 + i] * mat2[3 + j] + mat1[6 + i] * mat2[6 + j]


@jit
def mju_mulMatMatT3(res, mat1, mat2):
  """Port of mju_mulMatMatT3, engine_util_blas.c: res = mat1*mat2', 3x3 (no aliasing)."""
  for i in range(3):
    for j in range(3):
      res[3 * i + j] = (
        mat1[3 * i] * mat2[3 * j]
        + mat1[3 * i + 1] * mat2[3 * j + 1]
        + mat1[3 * i + 2] * mat2[3 * j + 2]
      )


# ---- 4D vectors ----


@jit
def mju_zero4(res):
  """Port of mju_zero4, engine_util_blas.c: res = 0."""
  res[0] = 0.0
  res[1] = 0.0
  res[2] = 0.0
  res[3] = 0.0


@jit
def mju_unit4(res):
  """Port of mju_unit4, engine_util_blas.c: res = (1, 0, 0, 0), the identity quaternion."""
  res[0] = 1.0
  res[1] = 0.0
  res[2] = 0.0
  res[3] = 0.0


@jit
def mju_copy4(res, data):
  """Port of mju_copy4, engine_util_blas.c: res = data."""
  res[0] = data[0]
  res[1] = data[1]
  res[2] = data[2]
  res[3] = data[3]


@jit
def mju_normalize4(vec):
  """Port of mju_normalize4, engine_util_blas.c: normalize in place, return the old length.

  A vector shorter than mjMINVAL becomes (1, 0, 0, 0); one within mjMINVAL of unit length
  is left untouched.
  """
  norm = math.sqrt(vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2] + vec[3] * vec[3])
  if norm < mjMINVAL:
    vec[0] = 1.0
    vec[1] = 0.0
    vec[2] = 0.0
    vec[3] = 0.0
  elif abs(norm - 1) > mjMINVAL:
    inv = 1 / norm
    vec[0] *= inv
    vec[1] *= inv
    vec[2] *= inv
    vec[3] *= inv
  return norm


# ---- n-vectors (C's summation order) ----


@inline_jit
def dot_at(vec1, adr1, vec2, adr2, n):
  """mju_dot on vec1[adr1:adr1+n] and vec2[adr2:adr2+n], without slicing.

  Keeps C's order: four interleaved partial sums combined as (s0 + s2) + (s1 + s3), then
  the 1-3 remaining products. This is the building block that makes matrix products agree
  with MuJoCo bit for bit.
  """
  res = 0.0
  if n <= 0:
    return res
  # four interleaved partial sums, as one 4-lane vector
  if n >= 4:
    res = sum4_products(vec1, adr1, vec2, adr2, n // 4)

  # unsigned indices: numba then skips the negative-index wraparound
  a = np.uint64(adr1 + n - n % 4)
  b = np.uint64(adr2 + n - n % 4)
  one = np.uint64(1)
  two = np.uint64(2)

  # remaining 1-3 elements, summed first and then added
  left = n % 4
  if left == 3:
    res += vec1[a] * vec2[b] + vec1[a + one] * vec2[b + one] + vec1[a + two] * vec2[b + two]
  elif left == 2:
    res += vec1[a] * vec2[b] + vec1[a + one] * vec2[b + one]
  elif left == 1:
    res += vec1[a] * vec2[b]
  return res


@inline_jit
def add_to_scl_at(res, adr_res, vec, adr_vec, scl, n):
  """mju_addToScl on res[adr_res:adr_res+n] += vec[adr_vec:adr_vec+n]*scl, without slicing."""
  for i in range(n):
    res[adr_res + i] += vec[adr_vec + i] * scl


@jit
def mju_zero(res, n):
  """Port of mju_zero, engine_util_blas.c: res[:n] = 0."""
  for i in range(n):
    res[i] = 0.0


@jit
def mju_fill(res, val, n):
  """Port of mju_fill, engine_util_blas.c: res[:n] = val."""
  for i in range(n):
    res[i] = val


@jit
def mju_copy(res, vec, n):
  """Port of mju_copy, engine_util_blas.c: res[:n] = vec[:n]."""
  for i in range(n):
    res[i] = vec[i]


@jit
def mju_scl(res, vec, scl, n):
  """Port of mju_scl, engine_util_blas.c: res = vec*scl."""
  for i in range(n):
    res[i] = vec[i] * scl


@jit
def mju_add(res, vec1, vec2, n):
  """Port of mju_add, engine_util_blas.c: res = vec1 + vec2."""
  for i in range(n):
    res[i] = vec1[i] + vec2[i]


@jit
def mju_sub(res, vec1, vec2, n):
  """Port of mju_sub, engine_util_blas.c: res = vec1 - vec2."""
  for i in range(n):
    res[i] = vec1[i] - vec2[i]


@jit
def mju_addTo(res, vec, n):
  """Port of mju_addTo, engine_util_blas.c: res += vec."""
  for i in range(n):
    res[i] += vec[i]


@jit
def mju_subFrom(res, vec, n):
  """Port of mju_subFrom, engine_util_blas.c: res -= vec."""
  for i in range(n):
    res[i] -= vec[i]


@jit
def mju_addToScl(res, vec, scl, n):
  """Port of mju_addToScl, engine_util_blas.c: res += vec*scl."""
  for i in range(n):
    res[i] += vec[i] * scl


@jit
def mju_addScl(res, vec1, vec2, scl, n):
  """Port of mju_addScl, engine_util_blas.c: res = vec1 + vec2*scl."""
  for i in range(n):
    res[i] = vec1[i] + vec2[i] * scl


@jit
def mju_dot(vec1, vec2, n):
  """Port of mju_dot, engine_util_blas.c: vec1[:n] . vec2[:n] in C's summation order."""
  return dot_at(vec1, 0, vec2, 0, n)


@jit
def mju_norm(vec, n):
  """Port of mju_norm, engine_util_blas.c: Euclidean length of vec[:n]."""
  return math.sqrt(dot_at(vec, 0, vec, 0, n))


@jit
def mju_normalize(vec, n):
  """Port of mju_normalize, engine_util_blas.c: normalize in place, return the old length.

  A vector shorter than mjMINVAL becomes (1, 0, ..., 0).
  """
  norm = math.sqrt(dot_at(vec, 0, vec, 0, n))
  if norm < mjMINVAL:
    vec[0] = 1.0
    for i in range(1, n):
      vec[i] = 0.0
  else:
    inv = 1 / norm
    for i in range(n):
      vec[i] *= inv
  return norm


@jit
def mju_sum(vec, n):
  """Port of mju_sum, engine_util_blas.c: sum of vec[:n], left to right."""
  res = 0.0
  for i in range(n):
    res += vec[i]
  return res


@jit
def mju_L1(vec, n):
  """Port of mju_L1, engine_util_blas.c: sum of |vec[:n]|."""
  res = 0.0
  for i in range(n):
    res += abs(vec[i])
  return res


# ---- matrices (flat, row-major) ----


@jit
def mju_mulMatVec(res, mat, vec, nr, nc):
  """Port of mju_mulMatVec, engine_util_blas.c: res = mat*vec, mat is nr x nc."""
  for r in range(nr):
    res[r] = dot_at(mat, r * nc, vec, 0, nc)


@jit
def mju_mulMatTVec(res, mat, vec, nr, nc):
  """Port of mju_mulMatTVec, engine_util_blas.c: res = mat'*vec, mat is nr x nc."""
  for i in range(nc):
    res[i] = 0.0

  # accumulate rows with nonzero weight
  for r in range(nr):
    tmp = vec[r]
    if tmp != 0:
      add_to_scl_at(res, 0, mat, r * nc, tmp, nc)


@jit
def mju_mulVecMatVec(vec1, mat, vec2, n):
  """Port of mju_mulVecMatVec, engine_util_blas.c: vec1'*mat*vec2, mat is n x n."""
  res = 0.0
  for i in range(n):
    res += vec1[i] * dot_at(mat, i * n, vec2, 0, n)
  return res


@jit
def mju_transpose(res, mat, nr, nc):
  """Port of mju_transpose, engine_util_blas.c: res (nc x nr) = mat' (mat is nr x nc)."""
  for i in range(nr):
    for j in range(nc):
      res[j * nr + i] = mat[i * nc + j]


@jit
def mju_symmetrize(res, mat, n):
  """Port of mju_symmetrize, engine_util_blas.c: res = (mat + mat')/2, n x n."""
  for i in range(n):
    res[i * (n + 1)] = mat[i * (n + 1)]
    for j in range(i):
      val = 0.5 * (mat[i * n + j] + mat[j * n + i])
      res[i * n + j] = val
      res[j * n + i] = val


@jit
def mju_eye(mat, n):
  """Port of mju_eye, engine_util_blas.c: mat = n x n identity."""
  for i in range(n * n):
    mat[i] = 0.0
  for i in range(n):
    mat[i * (n + 1)] = 1.0


@jit
def mju_mulMatMat(res, mat1, mat2, r1, c1, c2):
  """Port of mju_mulMatMat, engine_util_blas.c: res = mat1*mat2 (r1 x c1 times c1 x c2)."""
  for i in range(r1 * c2):
    res[i] = 0.0

  # skip zeros of mat1
  for i in range(r1):
    for k in range(c1):
      tmp = mat1[i * c1 + k]
      if tmp != 0:
        add_to_scl_at(res, i * c2, mat2, k * c2, tmp, c2)


@jit
def mju_mulMatMatT(res, mat1, mat2, r1, c1, r2):
  """Port of mju_mulMatMatT, engine_util_blas.c: res = mat1*mat2' (r1 x c1 times (r2 x c1)')."""
  for i in range(r1):
    for j in range(r2):
      res[i * r2 + j] = dot_at(mat1, i * c1, mat2, j * c1, c1)


@jit
def mju_mulMatTMat(res, mat1, mat2, r1, c1, c2):
  """Port of mju_mulMatTMat, engine_util_blas.c: res = mat1'*mat2 ((r1 x c1)' times r1 x c2)."""
  for i in range(c1 * c2):
    res[i] = 0.0

  # skip zeros of mat1
  for i in range(r1):
    for j in range(c1):
      tmp = mat1[i * c1 + j]
      if tmp != 0:
        add_to_scl_at(res, j * c2, mat2, i * c2, tmp, c2)


@jit
def mju_sqrMatTD(res, mat, diag, nr, nc):
  """Port of mju_sqrMatTD, engine_util_blas.c: res = mat'*diag(diag)*mat, nc x nc.

  mat is nr x nc; diag has nr entries or is None (then res = mat'*mat). The lower triangle
  is accumulated and copied to the upper one, as in C.
  """
  for i in range(nc * nc):
    res[i] = 0.0

  # lower triangle, skipping zeros
  if diag is not None:
    for j in range(nr):
      if diag[j] != 0:
        for i in range(nc):
          tmp = mat[j * nc + i]
          if tmp != 0:
            add_to_scl_at(res, i * nc, mat, j * nc, tmp * diag[j], i + 1)
  else:
    for i in range(nc):
      for j in range(nr):
        tmp = mat[j * nc + i]
        if tmp != 0:
          add_to_scl_at(res, i * nc, mat, j * nc, tmp, i + 1)

  # copy to upper triangle
  for i in range(nc):
    for j in range(i + 1, nc):
      res[i * nc + j] = res[j * nc + i]


# ---- quaternions ----


@jit
def mju_rotVecQuat(res, vec, quat):
  """Port of mju_rotVecQuat, engine_util_spatial.c: res = quat * vec * quat^-1."""
  v0 = vec[0]
  v1 = vec[1]
  v2 = vec[2]
  w = quat[0]
  x = quat[1]
  y = quat[2]
  z = quat[3]

  # zero vector
  if v0 == 0 and v1 == 0 and v2 == 0:
    res[0] = 0.0
    res[1] = 0.0
    res[2] = 0.0

  # identity quaternion
  elif w == 1 and x == 0 and y == 0 and z == 0:
    res[0] = v0
    res[1] = v1
    res[2] = v2

  # t = w*v + q_xyz x v;  res = v + 2 * q_xyz x t
  else:
    t0 = w * v0 + y * v2 - z * v1
    t1 = w * v1 + z * v0 - x * v2
    t2 = w * v2 + x * v1 - y * v0
    res[0] = v0 + 2 * (y * t2 - z * t1)
    res[1] = v1 + 2 * (z * t0 - x * t2)
    res[2] = v2 + 2 * (x * t1 - y * t0)


@jit
def mju_negQuat(res, quat):
  """Port of mju_negQuat, engine_util_spatial.c: res = conjugate of quat."""
  res[0] = quat[0]
  res[1] = -quat[1]
  res[2] = -quat[2]
  res[3] = -quat[3]


@jit
def mul_quat_scalars(a0, a1, a2, a3, b0, b1, b2, b3):
  """Hamilton product of two quaternions given as scalars, as a 4-tuple."""
  return (
    a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3,
    a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2,
    a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1,
    a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0,
  )


@jit
def normalize4_scalars(q0, q1, q2, q3):
  """mju_normalize4 on scalars: returns the (possibly) normalized 4-tuple."""
  norm = math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3)
  if norm < mjMINVAL:
    return 1.0, 0.0, 0.0, 0.0
  if abs(norm - 1) > mjMINVAL:
    inv = 1 / norm
    return q0 * inv, q1 * inv, q2 * inv, q3 * inv
  return q0, q1, q2, q3


@jit
def normalize3_scalars(x, y, z):
  """mju_normalize3 on scalars: returns (norm, x, y, z) with the unit vector."""
  norm = math.sqrt(x * x + y * y + z * z)
  if norm < mjMINVAL:
    return norm, 1.0, 0.0, 0.0
  inv = 1 / norm
  return norm, x * inv, y * inv, z * inv


@jit
def mju_mulQuat(res, quat1, quat2):
  """Port of mju_mulQuat, engine_util_spatial.c: res = quat1*quat2 (res may alias)."""
  r0, r1, r2, r3 = mul_quat_scalars(
    quat1[0], quat1[1], quat1[2], quat1[3], quat2[0], quat2[1], quat2[2], quat2[3]
  )
  res[0] = r0
  res[1] = r1
  res[2] = r2
  res[3] = r3


@jit
def mju_mulQuatAxis(res, quat, axis):
  """Port of mju_mulQuatAxis, engine_util_spatial.c: res = quat * (0, axis)."""
  w = quat[0]
  x = quat[1]
  y = quat[2]
  z = quat[3]
  r0 = -x * axis[0] - y * axis[1] - z * axis[2]
  r1 = w * axis[0] + y * axis[2] - z * axis[1]
  r2 = w * axis[1] + z * axis[0] - x * axis[2]
  r3 = w * axis[2] + x * axis[1] - y * axis[0]
  res[0] = r0
  res[1] = r1
  res[2] = r2
  res[3] = r3


@jit
def mju_axisAngle2Quat(res, axis, angle):
  """Port of mju_axisAngle2Quat, engine_util_spatial.c: rotation of angle about unit axis."""
  if angle == 0:
    res[0] = 1.0
    res[1] = 0.0
    res[2] = 0.0
    res[3] = 0.0
  else:
    s = math.sin(angle * 0.5)
    res[0] = math.cos(angle * 0.5)
    res[1] = axis[0] * s
    res[2] = axis[1] * s
    res[3] = axis[2] * s


@jit
def _quat2vel(res, q0, q1, q2, q3, dt):
  """mju_quat2Vel on a quaternion given as scalars."""
  sin_a_2, a0, a1, a2 = normalize3_scalars(q1, q2, q3)
  speed = 2 * math.atan2(sin_a_2, q0)

  # beyond pi, the shorter rotation goes the other way
  if speed > mjPI:
    speed -= 2 * mjPI
  speed /= dt

  res[0] = a0 * speed
  res[1] = a1 * speed
  res[2] = a2 * speed


@jit
def mju_quat2Vel(res, quat, dt):
  """Port of mju_quat2Vel, engine_util_spatial.c: angular velocity rotating by quat in dt."""
  _quat2vel(res, quat[0], quat[1], quat[2], quat[3], dt)


@jit
def mju_subQuat(res, qa, qb):
  """Port of mju_subQuat, engine_util_spatial.c: 3D velocity res with qb*quat(res) = qa."""
  # qdif = neg(qb)*qa
  d0, d1, d2, d3 = mul_quat_scalars(qb[0], -qb[1], -qb[2], -qb[3], qa[0], qa[1], qa[2], qa[3])
  _quat2vel(res, d0, d1, d2, d3, 1.0)


@jit
def quat2mat_scalars(w, x, y, z):
  """mju_quat2Mat on scalars: the 3x3 rotation matrix as a row-major 9-tuple."""
  if w == 1 and x == 0 and y == 0 and z == 0:
    return 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0
  q00 = w * w
  q01 = w * x
  q02 = w * y
  q03 = w * z
  q11 = x * x
  q12 = x * y
  q13 = x * z
  q22 = y * y
  q23 = y * z
  q33 = z * z
  return (
    q00 + q11 - q22 - q33,
    2 * (q12 - q03),
    2 * (q13 + q02),
    2 * (q12 + q03),
    q00 - q11 + q22 - q33,
    2 * (q23 - q01),
    2 * (q13 - q02),
    2 * (q23 + q01),
    q00 - q11 - q22 + q33,
  )


@jit
def mju_quat2Mat(res, quat):
  """Port of mju_quat2Mat, engine_util_spatial.c: rotation matrix (9,) of a unit quat."""
  r = quat2mat_scalars(quat[0], quat[1], quat[2], quat[3])
  for i in range(9):
    res[i] = r[i]


@jit
def mju_mat2Quat(quat, mat):
  """Port of mju_mat2Quat, engine_util_spatial.c: unit quaternion of a rotation matrix.

  Picks the numerically largest component first (trace test), then normalizes.
  """
  # q0 largest
  if mat[0] + mat[4] + mat[8] > 0:
    q0 = 0.5 * math.sqrt(1 + mat[0] + mat[4] + mat[8])
    q1 = 0.25 * (mat[7] - mat[5]) / q0
    q2 = 0.25 * (mat[2] - mat[6]) / q0
    q3 = 0.25 * (mat[3] - mat[1]) / q0

  # q1 largest
  elif mat[0] > mat[4] and mat[0] > mat[8]:
    q1 = 0.5 * math.sqrt(1 + mat[0] - mat[4] - mat[8])
    q0 = 0.25 * (mat[7] - mat[5]) / q1
    q2 = 0.25 * (mat[1] + mat[3]) / q1
    q3 = 0.25 * (mat[2] + mat[6]) / q1

  # q2 largest
  elif mat[4] > mat[8]:
    q2 = 0.5 * math.sqrt(1 - mat[0] + mat[4] - mat[8])
    q0 = 0.25 * (mat[2] - mat[6]) / q2
    q1 = 0.25 * (mat[1] + mat[3]) / q2
    q3 = 0.25 * (mat[5] + mat[7]) / q2

  # q3 largest
  else:
    q3 = 0.5 * math.sqrt(1 - mat[0] - mat[4] + mat[8])
    q0 = 0.25 * (mat[3] - mat[1]) / q3
    q1 = 0.25 * (mat[2] + mat[6]) / q3
    q2 = 0.25 * (mat[5] + mat[7]) / q3

  quat[0], quat[1], quat[2], quat[3] = normalize4_scalars(q0, q1, q2, q3)


@jit
def mju_derivQuat(res, quat, vel):
  """Port of mju_derivQuat, engine_util_spatial.c: d(quat)/dt for angular velocity vel."""
  r0 = 0.5 * (-vel[0] * quat[1] - vel[1] * quat[2] - vel[2] * quat[3])
  r1 = 0.5 * (vel[0] * quat[0] + vel[1] * quat[3] - vel[2] * quat[2])
  r2 = 0.5 * (-vel[0] * quat[3] + vel[1] * quat[0] + vel[2] * quat[1])
  r3 = 0.5 * (vel[0] * quat[2] - vel[1] * quat[1] + vel[2] * quat[0])
  res[0] = r0
  res[1] = r1
  res[2] = r2
  res[3] = r3


@jit
def mju_quatIntegrate(quat, vel, scale):
  """Port of mju_quatIntegrate, engine_util_spatial.c: rotate quat by vel*scale (local frame)."""
  # rotation quaternion from the velocity's axis and angle
  norm, a0, a1, a2 = normalize3_scalars(vel[0], vel[1], vel[2])
  angle = scale * norm
  if angle == 0:
    r0, r1, r2, r3 = 1.0, 0.0, 0.0, 0.0
  else:
    s = math.sin(angle * 0.5)
    r0, r1, r2, r3 = math.cos(angle * 0.5), a0 * s, a1 * s, a2 * s

  # normalize quat, then apply the rotation on the right
  q0, q1, q2, q3 = normalize4_scalars(quat[0], quat[1], quat[2], quat[3])
  quat[0], quat[1], quat[2], quat[3] = mul_quat_scalars(q0, q1, q2, q3, r0, r1, r2, r3)


@jit
def mju_quatZ2Vec(quat, vec):
  """Port of mju_quatZ2Vec, engine_util_spatial.c: quaternion rotating the z-axis onto vec."""
  # default: no rotation
  quat[0] = 1.0
  quat[1] = 0.0
  quat[2] = 0.0
  quat[3] = 0.0

  # normalize vec; too short means no rotation
  nrm, vn0, vn1, vn2 = normalize3_scalars(vec[0], vec[1], vec[2])
  if nrm < mjMINVAL:
    return

  # axis = z x vn, written out with z = (0, 0, 1) as in C
  z0 = 0.0
  z1 = 0.0
  z2 = 1.0
  a, ax0, ax1, ax2 = normalize3_scalars(
    z1 * vn2 - z2 * vn1, z2 * vn0 - z0 * vn2, z0 * vn1 - z1 * vn0
  )
  cosine = vn0 * z0 + vn1 * z1 + vn2 * z2

  # (anti)parallel: identity, or 180 degrees about x
  if abs(a) < mjMINVAL:
    if cosine < 0:
      quat[0] = 0.0
      quat[1] = 1.0
    return

  # quaternion from angle and axis
  angle = math.atan2(a, cosine)
  s = math.sin(angle * 0.5)
  quat[0] = math.cos(angle * 0.5)
  quat[1] = ax0 * s
  quat[2] = ax1 * s
  quat[3] = ax2 * s


@jit
def mju_mat2Rot(quat, mat):
  """Port of mju_mat2Rot, engine_util_spatial.c: rotation part of an arbitrary 3x3 matrix.

  Iterates from the initial guess in quat (Mueller et al. 2016, "A robust method to extract
  the rotational part of deformations"); returns the number of iterations (at most 500).
  """
  q0 = quat[0]
  q1 = quat[1]
  q2 = quat[2]
  q3 = quat[3]
  it = 0
  while it < 500:
    r = quat2mat_scalars(q0, q1, q2, q3)

    # omega = sum over columns of rot_col x mat_col
    v10 = r[3] * mat[6] - r[6] * mat[3]
    v11 = r[6] * mat[0] - r[0] * mat[6]
    v12 = r[0] * mat[3] - r[3] * mat[0]
    v20 = r[4] * mat[7] - r[7] * mat[4]
    v21 = r[7] * mat[1] - r[1] * mat[7]
    v22 = r[1] * mat[4] - r[4] * mat[1]
    v30 = r[5] * mat[8] - r[8] * mat[5]
    v31 = r[8] * mat[2] - r[2] * mat[8]
    v32 = r[2] * mat[5] - r[5] * mat[2]
    o0 = (v10 + v20) + v30
    o1 = (v11 + v21) + v31
    o2 = (v12 + v22) + v32

    # scale by 1 / |sum of column dot products|
    d1 = r[0] * mat[0] + r[3] * mat[3] + r[6] * mat[6]
    d2 = r[1] * mat[1] + r[4] * mat[4] + r[7] * mat[7]
    d3 = r[2] * mat[2] + r[5] * mat[5] + r[8] * mat[8]
    scl = 1.0 / (abs(d1 + d2 + d3) + mjMINVAL)
    w, o0, o1, o2 = normalize3_scalars(o0 * scl, o1 * scl, o2 * scl)
    if w < 1e-9:
      break

    # rotate the estimate by the correction, renormalize
    s = math.sin(w * 0.5)
    c = math.cos(w * 0.5)
    q0, q1, q2, q3 = mul_quat_scalars(c, o0 * s, o1 * s, o2 * s, q0, q1, q2, q3)
    q0, q1, q2, q3 = normalize4_scalars(q0, q1, q2, q3)
    it += 1

  quat[0] = q0
  quat[1] = q1
  quat[2] = q2
  quat[3] = q3
  return it


@jit
def euler2quat_codes(quat, euler, codes):
  """Port of mju_euler2Quat, engine_util_spatial.c, with the sequence as integer codes.

  codes[i] is the index of the i-th axis letter in "xyzXYZ": 0-2 are intrinsic rotations
  (moving axes, post-multiplied), 3-5 extrinsic (fixed axes, pre-multiplied). Use
  `euler_seq_codes` to build codes from a string.
  """
  t0, t1, t2, t3 = 1.0, 0.0, 0.0, 0.0
  for i in range(3):
    # elementary rotation about one axis
    r0 = math.cos(euler[i] / 2)
    sa = math.sin(euler[i] / 2)
    r1, r2, r3 = 0.0, 0.0, 0.0
    axis = codes[i] % 3
    if axis == 0:
      r1 = sa
    elif axis == 1:
      r2 = sa
    else:
      r3 = sa

    # accumulate: moving axes on the right, fixed axes on the left
    if codes[i] < 3:
      t0, t1, t2, t3 = mul_quat_scalars(t0, t1, t2, t3, r0, r1, r2, r3)
    else:
      t0, t1, t2, t3 = mul_quat_scalars(r0, r1, r2, r3, t0, t1, t2, t3)

  quat[0] = t0
  quat[1] = t1
  quat[2] = t2
  quat[3] = t3


def euler_seq_codes(seq):
  """Integer codes of an Euler sequence string such as "xyz" or "XYZ" (see euler2quat_codes).

  Raises:
    ValueError: seq is not three letters from "xyzXYZ".
  """
  if len(seq) != 3:
    raise ValueError(f"Euler sequence must have exactly 3 characters, got {seq!r}")
  codes = np.empty(3, np.int32)
  for i, ch in enumerate(seq):
    k = "xyzXYZ".find(ch)
    if k < 0:
      raise ValueError(f"seq[{i}] is {ch!r}; it must be one of x, y, z, X, Y, Z")
    codes[i] = k
  return codes


def mju_euler2Quat(quat, euler, seq):
  """Port of mju_euler2Quat, engine_util_spatial.c: quaternion of Euler angles (radians).

  Plain Python (the sequence is a string); kernels call `euler2quat_codes` instead.

  Args:
    quat: (4,) output.
    euler: (3,) angles in radians.
    seq: three letters from "xyzXYZ"; lower case rotates about moving axes (intrinsic),
      upper case about fixed axes (extrinsic).
  """
  python_callable(euler2quat_codes)(quat, np.asarray(euler, dtype=np.float64), euler_seq_codes(seq))


# ---- poses (pos, quat) ----


@jit
def mju_mulPose(posres, quatres, pos1, quat1, pos2, quat2):
  """Port of mju_mulPose, engine_util_spatial.c: pose1 * pose2."""
  # quatres = quat1*quat2, normalized
  mju_mulQuat(quatres, quat1, quat2)
  mju_normalize4(quatres)

  # posres = quat1*pos2 + pos1
  mju_rotVecQuat(posres, pos2, quat1)
  mju_addTo3(posres, pos1)


@jit
def mju_negPose(posres, quatres, pos, quat):
  """Port of mju_negPose, engine_util_spatial.c: inverse of a pose."""
  # quatres = conjugate of quat
  mju_negQuat(quatres, quat)

  # posres = -(quatres*pos)
  mju_rotVecQuat(posres, pos, quatres)
  mju_scl3(posres, posres, -1.0)


@jit
def mju_trnVecPose(res, pos, quat, vec):
  """Port of mju_trnVecPose, engine_util_spatial.c: res = quat*vec + pos."""
  mju_rotVecQuat(res, vec, quat)
  mju_addTo3(res, pos)


@jit
def mju_makeFrame(frame):
  """Port of mju_makeFrame, engine_util_spatial.c: completes a contact frame (rows x, y, z)
  from its x axis (normalized here) and an optional y hint in frame[3:6] (used when its norm is
  at least 0.5; otherwise world y, or world z when x is near y), orthogonalized. Worked in
  scalars (mju_normalize3's and mju_cross's operations in their order): the slices of the
  three-vector helpers cost more than the arithmetic, once per contact."""
  # normalize x (a zero axis is left as MuJoCo's normalize leaves it: (1, 0, 0))
  x0, x1, x2 = normalize3_scalars(frame[0], frame[1], frame[2])[1:]

  # default y hint
  y0, y1, y2 = frame[3], frame[4], frame[5]
  if y0 * y0 + y1 * y1 + y2 * y2 < 0.25:
    y0 = y1 = y2 = 0.0
    if -0.5 < x1 < 0.5:
      y1 = 1.0
    else:
      y2 = 1.0

  # y orthogonal to x, normalized; z = x cross y
  dot = x0 * y0 + x1 * y1 + x2 * y2
  y0, y1, y2 = normalize3_scalars(y0 - x0 * dot, y1 - x1 * dot, y2 - x2 * dot)[1:]
  frame[0], frame[1], frame[2] = x0, x1, x2
  frame[3], frame[4], frame[5] = y0, y1, y2
  frame[6] = x1 * y2 - x2 * y1
  frame[7] = x2 * y0 - x0 * y2
  frame[8] = x0 * y1 - x1 * y0


# ---- spatial algebra (6D vectors are (rotation, translation)) ----


@jit
def mju_crossMotion(res, vel, v):
  """Port of mju_crossMotion, engine_util_spatial.c: spatial cross product vel x v (motion)."""
  r0 = -vel[2] * v[1] + vel[1] * v[2]
  r1 = vel[2] * v[0] - vel[0] * v[2]
  r2 = -vel[1] * v[0] + vel[0] * v[1]
  r3 = -vel[2] * v[4] + vel[1] * v[5]
  r4 = vel[2] * v[3] - vel[0] * v[5]
  r5 = -vel[1] * v[3] + vel[0] * v[4]

  # translational part gets the linear velocity term
  r3 += -vel[5] * v[1] + vel[4] * v[2]
  r4 += vel[5] * v[0] - vel[3] * v[2]
  r5 += -vel[4] * v[0] + vel[3] * v[1]
  res[0] = r0
  res[1] = r1
  res[2] = r2
  res[3] = r3
  res[4] = r4
  res[5] = r5


@inline_jit
def mju_crossForce(res, vel, f):
  """Port of mju_crossForce, engine_util_spatial.c: spatial cross product vel x* f (force)."""
  r0 = -vel[2] * f[1] + vel[1] * f[2]
  r1 = vel[2] * f[0] - vel[0] * f[2]
  r2 = -vel[1] * f[0] + vel[0] * f[1]
  r3 = -vel[2] * f[4] + vel[1] * f[5]
  r4 = vel[2] * f[3] - vel[0] * f[5]
  r5 = -vel[1] * f[3] + vel[0] * f[4]

  # rotational part gets the linear velocity term
  r0 += -vel[5] * f[4] + vel[4] * f[5]
  r1 += vel[5] * f[3] - vel[3] * f[5]
  r2 += -vel[4] * f[3] + vel[3] * f[4]
  res[0] = r0
  res[1] = r1
  res[2] = r2
  res[3] = r3
  res[4] = r4
  res[5] = r5


@inline_jit
def mju_inertCom(res, inert, mat, dif, mass):
  """Port of mju_inertCom, engine_util_spatial.c: 10-vector com-frame inertia (cinert layout).

  res = (I_xx, I_yy, I_zz, I_xy, I_xz, I_yz, mass*dif, mass) where I is the body inertia
  diag(inert) rotated by mat and shifted by dif with the parallel-axis term.
  """
  # tmp = diag(inert) * mat'
  t0 = mat[0] * inert[0]
  t1 = mat[3] * inert[0]
  t2 = mat[6] * inert[0]
  t3 = mat[1] * inert[1]
  t4 = mat[4] * inert[1]
  t5 = mat[7] * inert[1]
  t6 = mat[2] * inert[2]
  t7 = mat[5] * inert[2]
  t8 = mat[8] * inert[2]

  # rotational part: mat * diag(inert) * mat'
  res[0] = mat[0] * t0 + mat[1] * t3 + mat[2] * t6
  res[1] = mat[3] * t1 + mat[4] * t4 + mat[5] * t7
  res[2] = mat[6] * t2 + mat[7] * t5 + mat[8] * t8
  res[3] = mat[0] * t1 + mat[1] * t4 + mat[2] * t7
  res[4] = mat[0] * t2 + mat[1] * t5 + mat[2] * t8
  res[5] = mat[3] * t2 + mat[4] * t5 + mat[5] * t8

  # parallel-axis term: -mass * [dif]x [dif]x
  res[0] += mass * (dif[1] * dif[1] + dif[2] * dif[2])
  res[1] += mass * (dif[0] * dif[0] + dif[2] * dif[2])
  res[2] += mass * (dif[0] * dif[0] + dif[1] * dif[1])
  res[3] -= mass * dif[0] * dif[1]
  res[4] -= mass * dif[0] * dif[2]
  res[5] -= mass * dif[1] * dif[2]

  # first moment and mass
  res[6] = mass * dif[0]
  res[7] = mass * dif[1]
  res[8] = mass * dif[2]
  res[9] = mass


@inline_jit
def mju_mulInertVec(res, i, v):
  """Port of mju_mulInertVec, engine_util_spatial.c: 6D inertia (10-vector) times 6D vector."""
  r0 = i[0] * v[0] + i[3] * v[1] + i[4] * v[2] - i[8] * v[4] + i[7] * v[5]
  r1 = i[3] * v[0] + i[1] * v[1] + i[5] * v[2] + i[8] * v[3] - i[6] * v[5]
  r2 = i[4] * v[0] + i[5] * v[1] + i[2] * v[2] - i[7] * v[3] + i[6] * v[4]
  r3 = i[8] * v[1] - i[7] * v[2] + i[9] * v[3]
  r4 = i[6] * v[2] - i[8] * v[0] + i[9] * v[4]
  r5 = i[7] * v[0] - i[6] * v[1] + i[9] * v[5]
  res[0] = r0
  res[1] = r1
  res[2] = r2
  res[3] = r3
  res[4] = r4
  res[5] = r5


@jit
def mju_transformSpatial(res, vec, flg_force, newpos, oldpos, rotnew2old):
  """Port of mju_transformSpatial, engine_util_spatial.c: move a 6D vector to a new frame.

  Shifts the reference point from oldpos to newpos (force or motion rule per flg_force),
  then rotates by rotnew2old' (9,), or skips the rotation when rotnew2old is None.
  """
  # copy, then shift the reference point
  tr0, tr1, tr2, tr3, tr4, tr5 = vec[0], vec[1], vec[2], vec[3], vec[4], vec[5]
  d0 = newpos[0] - oldpos[0]
  d1 = newpos[1] - oldpos[1]
  d2 = newpos[2] - oldpos[2]
  if flg_force:
    c0 = d1 * vec[5] - d2 * vec[4]
    c1 = d2 * vec[3] - d0 * vec[5]
    c2 = d0 * vec[4] - d1 * vec[3]
    tr0 = vec[0] - c0
    tr1 = vec[1] - c1
    tr2 = vec[2] - c2
  else:
    c0 = d1 * vec[2] - d2 * vec[1]
    c1 = d2 * vec[0] - d0 * vec[2]
    c2 = d0 * vec[1] - d1 * vec[0]
    tr3 = vec[3] - c0
    tr4 = vec[4] - c1
    tr5 = vec[5] - c2

  # rotate both halves by rotnew2old', or copy
  if rotnew2old is None:
    res[0] = tr0
    res[1] = tr1
    res[2] = tr2
    res[3] = tr3
    res[4] = tr4
    res[5] = tr5
  else:
    m = rotnew2old
    res[0] = m[0] * tr0 + m[3] * tr1 + m[6] * tr2
    res[1] = m[1] * tr0 + m[4] * tr1 + m[7] * tr2
    res[2] = m[2] * tr0 + m[5] * tr1 + m[8] * tr2
    res[3] = m[0] * tr3 + m[3] * tr4 + m[6] * tr5
    res[4] = m[1] * tr3 + m[4] * tr4 + m[7] * tr5
    res[5] = m[2] * tr3 + m[5] * tr4 + m[8] * tr5


# ---- dense Cholesky and symmetric eigendecomposition ----


@jit
def mju_cholFactor(mat, n, mindiag):
  """Port of mju_cholFactor, engine_util_solve.c: in-place mat = L*L', return the rank.

  mat is n x n, flat; only the lower triangle is read and written. A pivot below mindiag
  is replaced by mindiag, lowers the returned rank and zeroes its column below the diagonal
  (as MuJoCo 3.17 does).
  """
  # unsigned indices: numba then skips the negative-index wraparound (1.6 -> 1.1 us at n=27)
  rank = n
  un = np.uint64(n)
  for j in range(un):
    jn = j * un
    tmp = mat[jn + j] - dot_at(mat, jn, mat, jn, j)

    # small pivot: clamp, count, zero the column below
    if tmp < mindiag:
      rank -= 1
      mat[jn + j] = math.sqrt(mindiag)
      for i in range(j + np.uint64(1), un):
        mat[i * un + j] = 0.0
      continue
    mat[jn + j] = math.sqrt(tmp)

    # column below the diagonal
    tmp = 1 / mat[jn + j]
    for i in range(j + np.uint64(1), un):
      mat[i * un + j] = (mat[i * un + j] - dot_at(mat, i * un, mat, jn, j)) * tmp
  return rank


@jit
def mju_cholSolve(res, mat, vec, n):
  """Port of mju_cholSolve, engine_util_solve.c: solve (L*L') res = vec; res may be vec."""
  for i in range(n):
    res[i] = vec[i]

  # forward substitution: L*y = vec
  for i in range(n):
    if i:
      res[i] -= dot_at(mat, i * n, res, 0, i)
    res[i] /= mat[i * (n + 1)]

  # backward substitution: L'*res = y
  for i in range(n - 1, -1, -1):
    for j in range(i + 1, n):
      res[i] -= mat[j * n + i] * res[j]
    res[i] /= mat[i * (n + 1)]


@jit
def _chol_rotation(Lkk, xk, flg_plus):
  """The rotation of mju_cholUpdate at a pivot: (new diagonal r, c, 1/c, s, clamped), with
  the pivot clamped to mjMINVAL (lowering the rank) as MuJoCo does."""
  if flg_plus:
    tmp = Lkk * Lkk + xk * xk
  else:
    tmp = Lkk * Lkk + -xk * xk
  clamped = tmp < mjMINVAL
  if clamped:
    tmp = mjMINVAL
  r = math.sqrt(tmp)
  c = r / Lkk
  return r, c, 1 / c, xk / Lkk, clamped


@jit
def mju_cholUpdate(mat, x, n, flg_plus):
  """Port of mju_cholUpdate, engine_util_solve.c: L*L' +- x*x' in place, return the rank.

  x is overwritten. Pivots below mjMINVAL are clamped and lower the returned rank.
  """
  rank = n
  for k in range(n):
    if x[k] != 0:
      r, c, cinv, s, clamped = _chol_rotation(mat[k * (n + 1)], x[k], flg_plus)
      if clamped:
        rank -= 1

      # update column k of L
      mat[k * (n + 1)] = r
      if flg_plus:
        for i in range(k + 1, n):
          mat[i * n + k] = (mat[i * n + k] + s * x[i]) * cinv
      else:
        for i in range(k + 1, n):
          mat[i * n + k] = (mat[i * n + k] - s * x[i]) * cinv

      # update x
      for i in range(k + 1, n):
        x[i] = c * x[i] - s * mat[i * n + k]
  return rank


@jit
def mju_eig3Tol(eigval, eigvec, quat, mat, reltol):
  """Port of mju_eig3Tol, engine_util_solve.c (internal in 3.17): mju_eig3 with a tolerance.

  Jacobi iteration accumulated in a quaternion; stops when the largest off-diagonal element
  is at most max(reltol, 4e-15) times the largest |mat| entry (the broadphase passes 1e-3).
  eigval (3,) is sorted decreasing, eigvec (9,) holds the eigenvectors as columns and quat
  their frame. Returns the number of iterations (at most 500).
  """
  # tolerances relative to the largest entry
  scale = 0.0
  for k in range(9):
    scale = mju_max(scale, abs(mat[k]))
  tol = _mjmax(reltol, 4e-15) * scale
  q0, q1, q2, q3 = 1.0, 0.0, 0.0, 0.0
  it = 0
  while it < 500:
    # D = eigvec' * mat * eigvec, with eigvec from the current quaternion
    e = quat2mat_scalars(q0, q1, q2, q3)
    t0 = e[0] * mat[0] + e[3] * mat[3] + e[6] * mat[6]
    t1 = e[0] * mat[1] + e[3] * mat[4] + e[6] * mat[7]
    t2 = e[0] * mat[2] + e[3] * mat[5] + e[6] * mat[8]
    t3 = e[1] * mat[0] + e[4] * mat[3] + e[7] * mat[6]
    t4 = e[1] * mat[1] + e[4] * mat[4] + e[7] * mat[7]
    t5 = e[1] * mat[2] + e[4] * mat[5] + e[7] * mat[8]
    t6 = e[2] * mat[0] + e[5] * mat[3] + e[8] * mat[6]
    t7 = e[2] * mat[1] + e[5] * mat[4] + e[8] * mat[7]
    t8 = e[2] * mat[2] + e[5] * mat[5] + e[8] * mat[8]
    D0 = t0 * e[0] + t1 * e[3] + t2 * e[6]
    D1 = t0 * e[1] + t1 * e[4] + t2 * e[7]
    D2 = t0 * e[2] + t1 * e[5] + t2 * e[8]
    D4 = t3 * e[1] + t4 * e[4] + t5 * e[7]
    D5 = t3 * e[2] + t4 * e[5] + t5 * e[8]
    D8 = t6 * e[2] + t7 * e[5] + t8 * e[8]
    eigval[0] = D0
    eigval[1] = D4
    eigval[2] = D8

    # largest off-diagonal element: its value, the two diagonal entries, the rotation axis
    if abs(D1) > abs(D2) and abs(D1) > abs(D5):
      off, drow, dcol, rotk = D1, D0, D4, 2
    elif abs(D2) > abs(D5):
      off, drow, dcol, rotk = D2, D0, D8, 1
    else:
      off, drow, dcol, rotk = D5, D4, D8, 0

    # converged: off-diagonal negligible
    if abs(off) <= tol:
      break

    # 2x2 symmetric Schur decomposition: t = tan(angle)
    tau = (dcol - drow) / (2 * off)
    if tau >= 0:
      t = 1.0 / (tau + math.sqrt(1 + tau * tau))
    else:
      t = -1.0 / (-tau + math.sqrt(1 + tau * tau))

    # half-angle tangent, cosine and sine, without cancellation
    th = t / (1 + math.sqrt(1 + t * t))
    ch = 1 / math.sqrt(1 + th * th)
    if rotk != 1:
      th = -th
    sh = th * ch

    # rotation about axis rotk, accumulated and renormalized
    r1, r2, r3 = 0.0, 0.0, 0.0
    if rotk == 0:
      r1 = sh
    elif rotk == 1:
      r2 = sh
    else:
      r3 = sh
    q0, q1, q2, q3 = mul_quat_scalars(q0, q1, q2, q3, ch, r1, r2, r3)
    q0, q1, q2, q3 = normalize4_scalars(q0, q1, q2, q3)
    it += 1

  # sort eigenvalues decreasing (bubble passes on pairs 0, 1, 0)
  eps = 1e-12 * scale
  for j in range(3):
    j1 = j % 2
    if eigval[j1] + eps < eigval[j1 + 1]:
      tmp = eigval[j1]
      eigval[j1] = eigval[j1 + 1]
      eigval[j1 + 1] = tmp

      # matching 90 degree rotation about the third axis
      r0 = 0.707106781186548
      r1, r2, r3 = 0.0, 0.0, 0.0
      k = (j1 + 2) % 3
      if k == 0:
        r1 = r0
      elif k == 1:
        r2 = r0
      else:
        r3 = r0
      q0, q1, q2, q3 = mul_quat_scalars(q0, q1, q2, q3, r0, r1, r2, r3)
      q0, q1, q2, q3 = normalize4_scalars(q0, q1, q2, q3)

  # eigenvectors from the final quaternion
  e = quat2mat_scalars(q0, q1, q2, q3)
  for k in range(9):
    eigvec[k] = e[k]
  quat[0] = q0
  quat[1] = q1
  quat[2] = q2
  quat[3] = q3
  return it


@jit
def mju_eig3(eigval, eigvec, quat, mat):
  """Port of mju_eig3, engine_util_solve.c: eigen-decomposition of a symmetric 3x3 matrix.

  mju_eig3Tol at the tightest tolerance; returns the number of Jacobi iterations.
  """
  return mju_eig3Tol(eigval, eigvec, quat, mat, 4e-15)


# ---- actuator models ----


@jit
def mju_muscleGainLength(length, lmin, lmax):
  """Port of mju_muscleGainLength, engine_util_misc.c: normalized force-length curve.

  Four quadratic pieces joined at lmin, (lmin+1)/2, 1, (1+lmax)/2, lmax; peak 1 at length 1.
  """
  if lmin <= length <= lmax:
    a = 0.5 * (lmin + 1)
    b = 0.5 * (1 + lmax)
    if length <= a:
      x = (length - lmin) / _mjmax(mjMINVAL, a - lmin)
      return 0.5 * x * x
    elif length <= 1:
      x = (1 - length) / _mjmax(mjMINVAL, 1 - a)
      return 1 - 0.5 * x * x
    elif length <= b:
      x = (length - 1) / _mjmax(mjMINVAL, b - 1)
      return 1 - 0.5 * x * x
    else:
      x = (lmax - length) / _mjmax(mjMINVAL, lmax - b)
      return 0.5 * x * x
  return 0.0


@jit
def mju_muscleGain(len, vel, lengthrange, acc0, prm):
  """Port of mju_muscleGain, engine_util_misc.c: active muscle force per unit activation.

  prm = (range0, range1, force, scale, lmin, lmax, vmax, fpmax, fvmax); returns a negative
  (pulling) gain -force*FL*FV.
  """
  range0 = prm[0]
  range1 = prm[1]
  force = prm[2]
  scale = prm[3]
  lmin = prm[4]
  lmax = prm[5]
  vmax = prm[6]
  fvmax = prm[8]

  # negative force: derive it from scale and acc0
  if force < 0:
    force = scale / _mjmax(mjMINVAL, acc0)

  # optimal length, normalized length and velocity
  L0 = (lengthrange[1] - lengthrange[0]) / _mjmax(mjMINVAL, range1 - range0)
  L = range0 + (len - lengthrange[0]) / _mjmax(mjMINVAL, L0)
  V = vel / _mjmax(mjMINVAL, L0 * vmax)

  # force-length and force-velocity curves
  FL = mju_muscleGainLength(L, lmin, lmax)
  y = fvmax - 1
  if V <= -1:
    FV = 0.0
  elif V <= 0:
    FV = (V + 1) * (V + 1)
  elif V <= y:
    FV = fvmax - (y - V) * (y - V) / _mjmax(mjMINVAL, y)
  else:
    FV = fvmax
  return -force * FL * FV


@jit
def mju_muscleBias(len, lengthrange, acc0, prm):
  """Port of mju_muscleBias, engine_util_misc.c: passive muscle force (same prm as the gain)."""
  range0 = prm[0]
  range1 = prm[1]
  force = prm[2]
  scale = prm[3]
  lmax = prm[5]
  fpmax = prm[7]

  # negative force: derive it from scale and acc0
  if force < 0:
    force = scale / _mjmax(mjMINVAL, acc0)

  # optimal length and normalized length
  L0 = (lengthrange[1] - lengthrange[0]) / _mjmax(mjMINVAL, range1 - range0)
  L = range0 + (len - lengthrange[0]) / _mjmax(mjMINVAL, L0)

  # zero below 1, half-quadratic up to (1+lmax)/2, linear beyond
  b = 0.5 * (1 + lmax)
  if L <= 1:
    return 0.0
  elif L <= b:
    x = (L - 1) / _mjmax(mjMINVAL, b - 1)
    return -force * fpmax * 0.5 * x * x
  else:
    x = (L - b) / _mjmax(mjMINVAL, b - 1)
    return -force * fpmax * (0.5 + x)


@jit
def mju_muscleDynamicsTimescale(dctrl, tau_act, tau_deact, smoothing_width):
  """Port of mju_muscleDynamicsTimescale, engine_util_misc.c: activation time constant.

  Switches between tau_act (dctrl > 0) and tau_deact, sharply or through a sigmoid of
  width smoothing_width.
  """
  if smoothing_width < mjMINVAL:
    if dctrl > 0:
      return tau_act
    return tau_deact
  return tau_deact + (tau_act - tau_deact) * mju_sigmoid(dctrl / smoothing_width + 0.5)


@jit
def mju_muscleDynamics(ctrl, act, prm):
  """Port of mju_muscleDynamics, engine_util_misc.c: d(act)/dt of a muscle.

  prm = (tau_act, tau_deact, smoothing_width); activation-dependent time constants as in
  Millard et al. (2013).
  """
  ctrlclamp = mju_clip(ctrl, 0.0, 1.0)
  actclamp = mju_clip(act, 0.0, 1.0)

  # time constants scaled by the current activation
  tau_act = prm[0] * (0.5 + 1.5 * actclamp)
  tau_deact = prm[1] / (0.5 + 1.5 * actclamp)
  dctrl = ctrlclamp - act
  tau = mju_muscleDynamicsTimescale(dctrl, tau_act, tau_deact, prm[2])
  return dctrl / _mjmax(mjMINVAL, tau)


# ---- miscellaneous ----


@jit
def mju_springDamper(pos0, vel0, Kp, Kv, dt):
  """Port of mju_springDamper, engine_util_misc.c: exact solution of x'' = -Kp x - Kv x'.

  Returns the position after time dt from pos0, vel0. The damping regime is decided with a
  tolerance relative to max(Kv^2, 4|Kp|), and overdamped roots are formed without
  cancellation (one from the quadratic formula, the other as Kp divided by it), as MuJoCo
  3.17 does.
  """
  det = Kv * Kv - 4 * Kp
  tol = mju_max(Kv * Kv, 4 * abs(Kp)) * mjMINVAL

  # overdamped: two real exponents r1 = -Kv/2 + w, r2 = -Kv/2 - w
  if det > tol:
    w = math.sqrt(det) * 0.5
    if Kv >= 0:
      r2 = -0.5 * Kv - w
      r1 = Kp / r2
    else:
      r1 = w + -0.5 * Kv
      r2 = Kp / r1
    c1 = (pos0 * r2 - vel0) / (r2 - r1)
    c2 = (pos0 * r1 - vel0) / (r1 - r2)
    return c1 * math.exp(r1 * dt) + c2 * math.exp(r2 * dt)

  # critically damped
  elif det >= -tol:
    c1 = pos0
    c2 = vel0 + Kv * c1 * 0.5
    return math.exp(-Kv * dt * 0.5) * (c1 + c2 * dt)

  # underdamped: decaying oscillation
  else:
    w = math.sqrt(abs(det)) * 0.5
    c1 = pos0
    c2 = (vel0 + Kv * c1 * 0.5) / w
    return math.exp(-Kv * dt * 0.5) * (c1 * math.cos(w * dt) + c2 * math.sin(w * dt))


@jit
def mju_encodePyramid(pyramid, force, mu, dim):
  """Port of mju_encodePyramid, engine_util_misc.c: contact force -> pyramid edge forces.

  force (dim,) is (normal, tangents); mu (dim-1,); pyramid gets 2*(dim-1) values.
  """
  a = force[0] / (dim - 1)
  for i in range(dim - 1):
    b = mju_min(a, force[i + 1] / mu[i])
    pyramid[2 * i] = 0.5 * (a + b)
    pyramid[2 * i + 1] = 0.5 * (a - b)


@jit
def mju_decodePyramid(force, pyramid, mu, dim):
  """Port of mju_decodePyramid, engine_util_misc.c: pyramid edge forces -> contact force."""
  # frictionless contact
  if dim == 1:
    force[0] = pyramid[0]
    return

  # normal force is the sum of all edges
  force[0] = 0.0
  for i in range(2 * (dim - 1)):
    force[0] += pyramid[i]

  # tangential forces from edge differences
  for i in range(dim - 1):
    force[i + 1] = (pyramid[2 * i] - pyramid[2 * i + 1]) * mu[i]


# ---- dm_control.mujoco.math: `from engine import math as mjmath` as with dm_control ----


def euler2quat(ax, ay, az):
  """Quaternion of roll ax, pitch ay, yaw az (degrees), applied in z-y-x order."""
  c1, s1 = np.cos(np.deg2rad(az / 2)), np.sin(np.deg2rad(az / 2))
  c2, s2 = np.cos(np.deg2rad(ay / 2)), np.sin(np.deg2rad(ay / 2))
  c3, s3 = np.cos(np.deg2rad(ax / 2)), np.sin(np.deg2rad(ax / 2))
  return np.array(
    [
      c1 * c2 * c3 + s1 * s2 * s3,
      c1 * c2 * s3 - s1 * s2 * c3,
      c1 * s2 * c3 + s1 * c2 * s3,
      s1 * c2 * c3 - c1 * s2 * s3,
    ]
  )


def mj_quatprod(q, r):
  """Quaternion product q * r (mju_mulQuat)."""
  out = np.zeros(4)
  python_callable(mju_mulQuat)(out, np.ascontiguousarray(q, float), np.ascontiguousarray(r, float))
  return out


def mj_quat2vel(q, dt):
  """Angular velocity that rotates by q in time dt (mju_quat2Vel)."""
  out = np.zeros(3)
  python_callable(mju_quat2Vel)(out, np.ascontiguousarray(q, float), float(dt))
  return out


def mj_quatneg(q):
  """Conjugate quaternion (mju_negQuat)."""
  out = np.zeros(4)
  python_callable(mju_negQuat)(out, np.ascontiguousarray(q, float))
  return out


def mj_quatdiff(source, target):
  """Rotation from source to target: conj(source) * target."""
  return mj_quatprod(mj_quatneg(source), target)


# `from engine.math import *` (engine/__init__.py) must export only the mju_ helpers: without
# this list it would also export the stdlib module `math` and shadow `engine.math` itself.
__all__ = sorted(name for name in dir() if name.startswith("mju_"))
