"""Small-vector frame math used by the compiler (ports of MuJoCo's user_util.cc mjuu_ helpers).

Plain Python on lists of floats: the compiler handles a few vectors per element, where Python
arithmetic is much faster than numpy calls. Operation order follows MuJoCo so compiled values
match to the last bits in the common cases.
"""

import ctypes
import ctypes.util
import math

import numpy as np

from engine.enums import mjPI

# MuJoCo's compiler tolerance (user_util.h); engine.enums holds the public mj* constants only
mjEPS = 1e-14


def _load_atan2f():
  """The C library's atan2f (MuJoCo computes camera fovy in float with it), or None."""
  try:
    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    fn = libm.atan2f
  except (OSError, AttributeError):
    return None
  fn.restype = ctypes.c_float
  fn.argtypes = [ctypes.c_float, ctypes.c_float]
  return fn


_ATAN2F = _load_atan2f()


def atan2f(y, x):
  """Single-precision atan2 as C's atan2f (numpy's float32 arctan2 if libm is unavailable)."""
  if _ATAN2F is not None:
    return np.float32(_ATAN2F(y, x))
  return np.arctan2(np.float32(y), np.float32(x))


def normvec(vec):
  """Port of mjuu_normvec: normalizes `vec` in place, returns the previous length."""
  nrm = 0.0
  for v in vec:
    nrm += v * v
  if nrm < mjEPS:
    return 0.0
  nrm = math.sqrt(nrm)
  if abs(nrm - 1) > mjEPS:
    for i in range(len(vec)):
      vec[i] /= nrm
  return nrm


def quat2mat(quat):
  """Port of mjuu_quat2mat: 3x3 row-major rotation matrix of a unit quaternion."""
  if quat[0] == 1 and quat[1] == 0 and quat[2] == 0 and quat[3] == 0:
    return [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
  q00 = quat[0] * quat[0]
  q01 = quat[0] * quat[1]
  q02 = quat[0] * quat[2]
  q03 = quat[0] * quat[3]
  q11 = quat[1] * quat[1]
  q12 = quat[1] * quat[2]
  q13 = quat[1] * quat[3]
  q22 = quat[2] * quat[2]
  q23 = quat[2] * quat[3]
  q33 = quat[3] * quat[3]
  return [
    q00 + q11 - q22 - q33,
    2 * (q12 - q03),
    2 * (q13 + q02),
    2 * (q12 + q03),
    q00 - q11 + q22 - q33,
    2 * (q23 - q01),
    2 * (q13 - q02),
    2 * (q23 + q01),
    q00 - q11 - q22 + q33,
  ]


def mulquat(qa, qb):
  """Port of mjuu_mulquat: normalized quaternion product qa * qb."""
  tmp = [
    qa[0] * qb[0] - qa[1] * qb[1] - qa[2] * qb[2] - qa[3] * qb[3],
    qa[0] * qb[1] + qa[1] * qb[0] + qa[2] * qb[3] - qa[3] * qb[2],
    qa[0] * qb[2] - qa[1] * qb[3] + qa[2] * qb[0] + qa[3] * qb[1],
    qa[0] * qb[3] + qa[1] * qb[2] - qa[2] * qb[1] + qa[3] * qb[0],
  ]
  normvec(tmp)
  return tmp


def mulvecmat(vec, mat):
  """Port of mjuu_mulvecmat: mat @ vec (3x3 row-major)."""
  return [
    mat[0] * vec[0] + mat[1] * vec[1] + mat[2] * vec[2],
    mat[3] * vec[0] + mat[4] * vec[1] + mat[5] * vec[2],
    mat[6] * vec[0] + mat[7] * vec[1] + mat[8] * vec[2],
  ]


def mulmat(a, b):
  """Port of mjuu_mulmat: 3x3 row-major product a @ b."""
  return [
    a[0] * b[0] + a[1] * b[3] + a[2] * b[6],
    a[0] * b[1] + a[1] * b[4] + a[2] * b[7],
    a[0] * b[2] + a[1] * b[5] + a[2] * b[8],
    a[3] * b[0] + a[4] * b[3] + a[5] * b[6],
    a[3] * b[1] + a[4] * b[4] + a[5] * b[7],
    a[3] * b[2] + a[4] * b[5] + a[5] * b[8],
    a[6] * b[0] + a[7] * b[3] + a[8] * b[6],
    a[6] * b[1] + a[7] * b[4] + a[8] * b[7],
    a[6] * b[2] + a[7] * b[5] + a[8] * b[8],
  ]


def transpose(m):
  """Port of mjuu_transposemat."""
  return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]


def cross(b, c):
  """Port of mjuu_crossvec: b x c."""
  return [b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0]]


def rotvecquat(vec, quat):
  """Port of mjuu_rotVecQuat: rotate vec by quat."""
  if vec[0] == 0 and vec[1] == 0 and vec[2] == 0:
    return [0.0, 0.0, 0.0]
  if quat[0] == 1 and quat[1] == 0 and quat[2] == 0 and quat[3] == 0:
    return [vec[0], vec[1], vec[2]]
  tmp = [
    quat[0] * vec[0] + quat[2] * vec[2] - quat[3] * vec[1],
    quat[0] * vec[1] + quat[3] * vec[0] - quat[1] * vec[2],
    quat[0] * vec[2] + quat[1] * vec[1] - quat[2] * vec[0],
  ]
  return [
    vec[0] + 2 * (quat[2] * tmp[2] - quat[3] * tmp[1]),
    vec[1] + 2 * (quat[3] * tmp[0] - quat[1] * tmp[2]),
    vec[2] + 2 * (quat[1] * tmp[1] - quat[2] * tmp[0]),
  ]


def z2quat(vec):
  """Port of mjuu_z2quat: minimal rotation from (0,0,1) to vec."""
  q = cross([0.0, 0.0, 1.0], vec)
  s = normvec(q)
  if s < 1e-10:
    q = [1.0, 0.0, 0.0]
  ang = math.atan2(s, vec[2])
  sa = math.sin(ang / 2)
  return [math.cos(ang / 2), q[0] * sa, q[1] * sa, q[2] * sa]


def frame2quat(x, y, z):
  """Port of mjuu_frame2quat: quaternion of the frame with axes x, y, z (matrix columns)."""
  mat = (x, y, z)
  q = [0.0, 0.0, 0.0, 0.0]
  if mat[0][0] + mat[1][1] + mat[2][2] > 0:
    q[0] = 0.5 * math.sqrt(1 + mat[0][0] + mat[1][1] + mat[2][2])
    q[1] = 0.25 * (mat[1][2] - mat[2][1]) / q[0]
    q[2] = 0.25 * (mat[2][0] - mat[0][2]) / q[0]
    q[3] = 0.25 * (mat[0][1] - mat[1][0]) / q[0]
  elif mat[0][0] > mat[1][1] and mat[0][0] > mat[2][2]:
    q[1] = 0.5 * math.sqrt(1 + mat[0][0] - mat[1][1] - mat[2][2])
    q[0] = 0.25 * (mat[1][2] - mat[2][1]) / q[1]
    q[2] = 0.25 * (mat[1][0] + mat[0][1]) / q[1]
    q[3] = 0.25 * (mat[2][0] + mat[0][2]) / q[1]
  elif mat[1][1] > mat[2][2]:
    q[2] = 0.5 * math.sqrt(1 - mat[0][0] + mat[1][1] - mat[2][2])
    q[0] = 0.25 * (mat[2][0] - mat[0][2]) / q[2]
    q[1] = 0.25 * (mat[1][0] + mat[0][1]) / q[2]
    q[3] = 0.25 * (mat[2][1] + mat[1][2]) / q[2]
  else:
    q[3] = 0.5 * math.sqrt(1 - mat[0][0] - mat[1][1] + mat[2][2])
    q[0] = 0.25 * (mat[0][1] - mat[1][0]) / q[3]
    q[1] = 0.25 * (mat[2][0] + mat[0][2]) / q[3]
    q[2] = 0.25 * (mat[2][1] + mat[1][2]) / q[3]
  normvec(q)
  return q


def localaxis(ag, quat):
  """Port of mjuu_localaxis: express a global axis in the frame `quat`."""
  mat = quat2mat([quat[0], -quat[1], -quat[2], -quat[3]])
  return mulvecmat(ag, mat)


def frameaccum(pos, quat, childpos, childquat):
  """Port of mjuu_frameaccum: returns (pos, quat) of child frame composed with parent frame."""
  mat = quat2mat(quat)
  vec = mulvecmat(childpos, mat)
  return [pos[0] + vec[0], pos[1] + vec[1], pos[2] + vec[2]], mulquat(quat, childquat)


def frameinvert(pos, quat):
  """Port of mjuu_frameinvert: inverse transformation (pos, quat)."""
  p = localaxis(pos, quat)
  return [-p[0], -p[1], -p[2]], [quat[0], -quat[1], -quat[2], -quat[3]]


def resolve_orientation(node, spec, degree, eulerseq, quat=None):
  """Port of ResolveOrientation (user_objects.cc): quat from quat/axisangle/xyaxes/zaxis/euler.

  `spec` holds the orientation attributes (at most one of the alternatives set); the quat
  attribute is normalized first, as the element compilers do. Raises CompileError located at
  `node` for degenerate input.
  """
  q = list(spec["quat"] if quat is None else quat)
  if normvec(q) < mjEPS:
    raise node.error("zero quaternion is not allowed", "quat")
  axisangle = spec.get("axisangle")
  xyaxes = spec.get("xyaxes")
  zaxis = spec.get("zaxis")
  euler = spec.get("euler")
  if axisangle is not None:
    aa = list(axisangle)
    if degree:
      aa[3] = aa[3] / 180.0 * mjPI
    axis = aa[:3]
    if normvec(axis) < mjEPS:
      raise node.error("axisangle too small", "axisangle")
    ang2 = aa[3] / 2
    s = math.sin(ang2)
    q = [math.cos(ang2), s * axis[0], s * axis[1], s * axis[2]]
  elif xyaxes is not None:
    x = list(xyaxes[:3])
    y = list(xyaxes[3:])
    if normvec(x) < mjEPS:
      raise node.error("xaxis too small", "xyaxes")
    d = x[0] * y[0] + x[1] * y[1] + x[2] * y[2]
    y = [y[0] - x[0] * d, y[1] - x[1] * d, y[2] - x[2] * d]
    if normvec(y) < mjEPS:
      raise node.error("yaxis too small", "xyaxes")
    z = cross(x, y)
    if normvec(z) < mjEPS:
      raise node.error("cross(xaxis, yaxis) too small", "xyaxes")
    q = frame2quat(x, y, z)
  elif zaxis is not None:
    z = list(zaxis)
    if normvec(z) < mjEPS:
      raise node.error("zaxis too small", "zaxis")
    q = z2quat(z)
  elif euler is not None:
    e = list(euler)
    if degree:
      e = [v / 180.0 * mjPI for v in e]
    q = [1.0, 0.0, 0.0, 0.0]
    for i in range(3):
      ch = eulerseq[i]
      qrot = [math.cos(e[i] / 2), 0.0, 0.0, 0.0]
      qrot["xyz".index(ch.lower()) + 1] = math.sin(e[i] / 2)
      if ch in "xyz":
        q = mulquat(q, qrot)
      else:
        q = mulquat(qrot, q)
    normvec(q)
  return q
