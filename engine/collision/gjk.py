"""GJK distance (engine_collision_gjk.c, MuJoCo 3.17's native CCD): the support-point
iteration with the signed-volume distance sub-algorithm of Montanari et al. (2017), and the
gjkIntersect fallback that only decides overlap.

Works on the workspace objects and status laid out in engine/collision/ccdobj.py.
"""

import math

from engine._jit import jit
from engine.collision.ccdobj import GJK_TMP
from engine.collision.ccdobj import S_GJKIT
from engine.collision.ccdobj import S_MAXIT
from engine.collision.ccdobj import S_NSIMP
from engine.collision.ccdobj import S_NX
from engine.collision.ccdobj import S_SEP
from engine.collision.ccdobj import S_SVI
from engine.collision.ccdobj import ST_CUT
from engine.collision.ccdobj import ST_D
from engine.collision.ccdobj import ST_SV
from engine.collision.ccdobj import ST_TOL
from engine.collision.ccdobj import ST_X1
from engine.collision.ccdobj import ST_X2
from engine.collision.ccdobj import discrete_geoms
from engine.collision.ccdobj import minkowski_support
from engine.collision.ccdobj import mjMAX_LIMIT
from engine.collision.ccdobj import mjMAXVAL2
from engine.collision.ccdobj import mjMINVAL2
from engine.enums import mjMINVAL

# ---- distance sub-algorithm (Montanari et al. 2017) ----


@jit
def _det3(a0, a1, a2, b0, b1, b2, c0, c1, c2):
  """det3: a . (b x c)."""
  return a0 * (b1 * c2 - b2 * c1) + a1 * (b2 * c0 - b0 * c2) + a2 * (b0 * c1 - b1 * c0)


@jit
def _same_sign2(a, b):
  """sameSign2: 1 if both positive, -1 if both negative, else 0."""
  if a > 0 and b > 0:
    return 1
  if a < 0 and b < 0:
    return -1
  return 0


@jit
def project_origin_plane(v10, v11, v12, v20, v21, v22, v30, v31, v32):
  """Port of projectOriginPlane: (fail, projection of the origin on the plane v1 v2 v3)."""
  d21_0 = v20 - v10
  d21_1 = v21 - v11
  d21_2 = v22 - v12
  d31_0 = v30 - v10
  d31_1 = v31 - v11
  d31_2 = v32 - v12
  d32_0 = v30 - v20
  d32_1 = v31 - v21
  d32_2 = v32 - v22

  # n = (v1 - v2) x (v3 - v2)
  n0 = d32_1 * d21_2 - d32_2 * d21_1
  n1 = d32_2 * d21_0 - d32_0 * d21_2
  n2 = d32_0 * d21_1 - d32_1 * d21_0
  nv = n0 * v20 + n1 * v21 + n2 * v22
  nn = n0 * n0 + n1 * n1 + n2 * n2
  if nn == 0:
    return True, 0.0, 0.0, 0.0
  if nv != 0 and nn > mjMINVAL:
    s = nv / nn
    return False, n0 * s, n1 * s, n2 * s

  # n = (v2 - v1) x (v3 - v1)
  n0 = d21_1 * d31_2 - d21_2 * d31_1
  n1 = d21_2 * d31_0 - d21_0 * d31_2
  n2 = d21_0 * d31_1 - d21_1 * d31_0
  nv = n0 * v10 + n1 * v11 + n2 * v12
  nn = n0 * n0 + n1 * n1 + n2 * n2
  if nn == 0:
    return True, 0.0, 0.0, 0.0
  if nv != 0 and nn > mjMINVAL:
    s = nv / nn
    return False, n0 * s, n1 * s, n2 * s

  # n = (v1 - v3) x (v2 - v3)
  n0 = d31_1 * d32_2 - d31_2 * d32_1
  n1 = d31_2 * d32_0 - d31_0 * d32_2
  n2 = d31_0 * d32_1 - d31_1 * d32_0
  nv = n0 * v30 + n1 * v31 + n2 * v32
  nn = n0 * n0 + n1 * n1 + n2 * n2
  s = nv / nn
  return False, n0 * s, n1 * s, n2 * s


@jit
def _s1d(s10, s11, s12, s20, s21, s22):
  """Port of S1D: barycentric coordinates of the origin's closest point on a segment."""
  # projection of the origin onto the line (projectOriginLine)
  f0 = s20 - s10
  f1 = s21 - s11
  f2 = s22 - s12
  scl = -((s20 * f0 + s21 * f1 + s22 * f2) / (f0 * f0 + f1 * f1 + f2 * f2))
  p0 = s20 + scl * f0
  p1 = s21 + scl * f1
  p2 = s22 + scl * f2

  # axis with the largest projection of the simplex
  mu = s10 - s20
  mu_max = mu
  index = 0
  mu = s11 - s21
  if abs(mu) >= abs(mu_max):
    mu_max = mu
    index = 1
  mu = s12 - s22
  if abs(mu) >= abs(mu_max):
    mu_max = mu
    index = 2
  if index == 0:
    c1 = p0 - s20
    c2 = s10 - p0
  elif index == 1:
    c1 = p1 - s21
    c2 = s11 - p1
  else:
    c1 = p2 - s22
    c2 = s12 - p2

  # projection inside the segment
  same = _same_sign2(mu_max, c1) != 0 and _same_sign2(mu_max, c2) != 0
  if same:
    return c1 / mu_max, c2 / mu_max
  return 0.0, 1.0


@jit
def _s2d(s10, s11, s12, s20, s21, s22, s30, s31, s32):
  """Port of S2D: barycentric coordinates of the origin's closest point on a triangle."""
  fail, p0, p1, p2 = project_origin_plane(s10, s11, s12, s20, s21, s22, s30, s31, s32)
  if fail:
    a, b = _s1d(s10, s11, s12, s20, s21, s22)
    return a, b, 0.0

  # minors M_i4 of [s1 s2 s3; 1 1 1]
  M_14 = s21 * s32 - s22 * s31 - s11 * s32 + s12 * s31 + s11 * s22 - s12 * s21
  M_24 = s20 * s32 - s22 * s30 - s10 * s32 + s12 * s30 + s10 * s22 - s12 * s20
  M_34 = s20 * s31 - s21 * s30 - s10 * s31 + s11 * s30 + s10 * s21 - s11 * s20

  # drop the axis with the largest projection
  mu1 = abs(M_14)
  mu2 = abs(M_24)
  mu3 = abs(M_34)
  if mu1 >= mu2 and mu1 >= mu3:
    M_max = M_14
    a0, a1, b0, b1, c0, c1, q0, q1 = s11, s12, s21, s22, s31, s32, p1, p2
  elif mu2 >= mu3:
    M_max = M_24
    a0, a1, b0, b1, c0, c1, q0, q1 = s10, s12, s20, s22, s30, s32, p0, p2
  else:
    M_max = M_34
    a0, a1, b0, b1, c0, c1, q0, q1 = s10, s11, s20, s21, s30, s31, p0, p1

  # signed areas with the projected origin
  C31 = q0 * b1 + q1 * c0 + b0 * c1 - q0 * c1 - q1 * b0 - c0 * b1
  C32 = q0 * c1 + q1 * a0 + c0 * a1 - q0 * a1 - q1 * c0 - a0 * c1
  C33 = q0 * a1 + q1 * b0 + a0 * b1 - q0 * b1 - q1 * a0 - b0 * a1
  comp1 = _same_sign2(M_max, C31)
  comp2 = _same_sign2(M_max, C32)
  comp3 = _same_sign2(M_max, C33)

  # inside the triangle
  if comp1 != 0 and comp2 != 0 and comp3 != 0:
    return C31 / M_max, C32 / M_max, C33 / M_max

  # closest edge
  l0 = 0.0
  l1 = 0.0
  l2 = 0.0
  dmin = mjMAX_LIMIT
  if comp1 == 0:
    e0, e1 = _s1d(s20, s21, s22, s30, s31, s32)
    x0 = e0 * s20 + e1 * s30
    x1 = e0 * s21 + e1 * s31
    x2 = e0 * s22 + e1 * s32
    dd = x0 * x0 + x1 * x1 + x2 * x2
    l0 = 0.0
    l1 = e0
    l2 = e1
    dmin = dd
  if comp2 == 0:
    e0, e1 = _s1d(s10, s11, s12, s30, s31, s32)
    x0 = e0 * s10 + e1 * s30
    x1 = e0 * s11 + e1 * s31
    x2 = e0 * s12 + e1 * s32
    dd = x0 * x0 + x1 * x1 + x2 * x2
    if dd < dmin:
      l0 = e0
      l1 = 0.0
      l2 = e1
      dmin = dd
  if comp3 == 0:
    e0, e1 = _s1d(s10, s11, s12, s20, s21, s22)
    x0 = e0 * s10 + e1 * s20
    x1 = e0 * s11 + e1 * s21
    x2 = e0 * s12 + e1 * s22
    dd = x0 * x0 + x1 * x1 + x2 * x2
    if dd < dmin:
      l0 = e0
      l1 = e1
      l2 = 0.0
  return l0, l1, l2


@jit
def _s3d(s10, s11, s12, s20, s21, s22, s30, s31, s32, s40, s41, s42):
  """Port of S3D: barycentric coordinates of the origin's closest point on a tetrahedron."""
  C41 = -_det3(s20, s21, s22, s30, s31, s32, s40, s41, s42)
  C42 = _det3(s10, s11, s12, s30, s31, s32, s40, s41, s42)
  C43 = -_det3(s10, s11, s12, s20, s21, s22, s40, s41, s42)
  C44 = _det3(s10, s11, s12, s20, s21, s22, s30, s31, s32)
  m_det = C41 + C42 + C43 + C44
  comp1 = _same_sign2(m_det, C41)
  comp2 = _same_sign2(m_det, C42)
  comp3 = _same_sign2(m_det, C43)
  comp4 = _same_sign2(m_det, C44)

  # inside the tetrahedron
  if comp1 != 0 and comp2 != 0 and comp3 != 0 and comp4 != 0:
    return C41 / m_det, C42 / m_det, C43 / m_det, C44 / m_det

  # closest face
  l0 = 0.0
  l1 = 0.0
  l2 = 0.0
  l3 = 0.0
  dmin = mjMAX_LIMIT
  if comp1 == 0:
    a, b, c = _s2d(s20, s21, s22, s30, s31, s32, s40, s41, s42)
    x0 = a * s20 + b * s30 + c * s40
    x1 = a * s21 + b * s31 + c * s41
    x2 = a * s22 + b * s32 + c * s42
    dd = x0 * x0 + x1 * x1 + x2 * x2
    l0, l1, l2, l3 = 0.0, a, b, c
    dmin = dd
  if comp2 == 0:
    a, b, c = _s2d(s10, s11, s12, s30, s31, s32, s40, s41, s42)
    x0 = a * s10 + b * s30 + c * s40
    x1 = a * s11 + b * s31 + c * s41
    x2 = a * s12 + b * s32 + c * s42
    dd = x0 * x0 + x1 * x1 + x2 * x2
    if dd < dmin:
      l0, l1, l2, l3 = a, 0.0, b, c
      dmin = dd
  if comp3 == 0:
    a, b, c = _s2d(s10, s11, s12, s20, s21, s22, s40, s41, s42)
    x0 = a * s10 + b * s20 + c * s40
    x1 = a * s11 + b * s21 + c * s41
    x2 = a * s12 + b * s22 + c * s42
    dd = x0 * x0 + x1 * x1 + x2 * x2
    if dd < dmin:
      l0, l1, l2, l3 = a, b, 0.0, c
      dmin = dd
  if comp4 == 0:
    a, b, c = _s2d(s10, s11, s12, s20, s21, s22, s30, s31, s32)
    x0 = a * s10 + b * s20 + c * s30
    x1 = a * s11 + b * s21 + c * s31
    x2 = a * s12 + b * s22 + c * s32
    dd = x0 * x0 + x1 * x1 + x2 * x2
    if dd < dmin:
      l0, l1, l2, l3 = a, b, c, 0.0
  return l0, l1, l2, l3


@jit
def _subdistance(F, n):
  """Port of subdistance: barycentric coordinates (4) of the simplex point closest to the
  origin, for the first n simplex vertices in the status."""
  s = ST_SV
  if n == 4:
    return _s3d(
      F[s],
      F[s + 1],
      F[s + 2],
      F[s + 9],
      F[s + 10],
      F[s + 11],
      F[s + 18],
      F[s + 19],
      F[s + 20],
      F[s + 27],
      F[s + 28],
      F[s + 29],
    )
  if n == 3:
    a, b, c = _s2d(
      F[s], F[s + 1], F[s + 2], F[s + 9], F[s + 10], F[s + 11], F[s + 18], F[s + 19], F[s + 20]
    )
    return a, b, c, 0.0
  if n == 2:
    a, b = _s1d(F[s], F[s + 1], F[s + 2], F[s + 9], F[s + 10], F[s + 11])
    return a, b, 0.0, 0.0
  return 1.0, 0.0, 0.0, 0.0


@jit
def _lincomb(F, res, base, lam0, lam1, lam2, lam3, n):
  """lincomb: res = sum of lambda_i times the 3-vector at simplex vertex i, offset base."""
  if n < 1 or n > 4:
    return
  s = ST_SV + base
  r0 = lam0 * F[s]
  r1 = lam0 * F[s + 1]
  r2 = lam0 * F[s + 2]
  if n >= 2:
    r0 = r0 + lam1 * F[s + 9]
    r1 = r1 + lam1 * F[s + 10]
    r2 = r2 + lam1 * F[s + 11]
  if n >= 3:
    r0 = r0 + lam2 * F[s + 18]
    r1 = r1 + lam2 * F[s + 19]
    r2 = r2 + lam2 * F[s + 20]
  if n >= 4:
    r0 = r0 + lam3 * F[s + 27]
    r1 = r1 + lam3 * F[s + 28]
    r2 = r2 + lam3 * F[s + 29]
  F[res] = r0
  F[res + 1] = r1
  F[res + 2] = r2


@jit
def _copy_simplex_vertex(F, I, dst, src):
  """simplex[dst] = simplex[src]."""
  for k in range(9):
    F[ST_SV + 9 * dst + k] = F[ST_SV + 9 * src + k]
  I[S_SVI + 2 * dst] = I[S_SVI + 2 * src]
  I[S_SVI + 2 * dst + 1] = I[S_SVI + 2 * src + 1]


# ---- GJK ----


@jit
def _signed_distance(F, a, b, c):
  """Port of signedDistance: unit face normal of simplex vertices a, b, c (float offsets) and
  the face's signed distance to the origin (mjMAX_LIMIT when degenerate)."""
  d10 = F[c] - F[a]
  d11 = F[c + 1] - F[a + 1]
  d12 = F[c + 2] - F[a + 2]
  d20 = F[b] - F[a]
  d21 = F[b + 1] - F[a + 1]
  d22 = F[b + 2] - F[a + 2]
  n0 = d11 * d22 - d12 * d21
  n1 = d12 * d20 - d10 * d22
  n2 = d10 * d21 - d11 * d20
  norm2 = n0 * n0 + n1 * n1 + n2 * n2
  if norm2 > mjMINVAL2 and norm2 < mjMAXVAL2:
    s = 1 / math.sqrt(norm2)
    n0 *= s
    n1 *= s
    n2 *= s
    return n0 * F[a] + n1 * F[a + 1] + n2 * F[a + 2], n0, n1, n2
  return mjMAX_LIMIT, n0, n1, n2


@jit
def _gjk_intersect(m, F, I, tmp):
  """Port of gjkIntersect: 1 if the objects intersect, 0 if not, -1 if inconclusive.

  Works on a copy of the status simplex placed at float offset `tmp` (4 x 9 floats) with its
  indices at int offset tmp of I's scratch (see gjk); s permutes the copy.
  """
  s0, s1, s2, s3 = 0, 1, 2, 3
  k = I[S_GJKIT]
  kmax = I[S_MAXIT]
  while k < kmax:
    # signed distance of each face with normals
    d0, a0, a1, a2 = _signed_distance(F, tmp + 9 * s2, tmp + 9 * s1, tmp + 9 * s3)
    d1, b0, b1, b2 = _signed_distance(F, tmp + 9 * s0, tmp + 9 * s2, tmp + 9 * s3)
    d2, c0, c1, c2 = _signed_distance(F, tmp + 9 * s1, tmp + 9 * s0, tmp + 9 * s3)
    d3, e0, e1, e2 = _signed_distance(F, tmp + 9 * s0, tmp + 9 * s1, tmp + 9 * s2)

    # origin on an affine hull: convergence fails
    if d3 == 0 or d2 == 0 or d1 == 0 or d0 == 0:
      I[S_GJKIT] = k
      return -1

    # face closest to the origin
    i = 0 if d0 < d1 else 1
    j = 2 if d2 < d3 else 3
    di = d0 if i == 0 else d1
    dj = d2 if j == 2 else d3
    index = i if di < dj else j
    dist = di if di < dj else dj
    if index == 0:
      nn0, nn1, nn2 = a0, a1, a2
    elif index == 1:
      nn0, nn1, nn2 = b0, b1, b2
    elif index == 2:
      nn0, nn1, nn2 = c0, c1, c2
    else:
      nn0, nn1, nn2 = e0, e1, e2

    # origin inside the simplex (EPA gives the contact)
    if dist > 0:
      I[S_NSIMP] = 4
      for q in range(4):
        sq = s0 if q == 0 else (s1 if q == 1 else (s2 if q == 2 else s3))
        for kk in range(9):
          F[ST_SV + 9 * q + kk] = F[tmp + 9 * sq + kk]
        I[S_SVI + 2 * q] = I[S_SVI + 8 + 2 * sq]
        I[S_SVI + 2 * q + 1] = I[S_SVI + 8 + 2 * sq + 1]
      I[S_GJKIT] = k
      return 1

    # replace the worst vertex with a new candidate
    si = s0 if index == 0 else (s1 if index == 1 else (s2 if index == 2 else s3))
    v = tmp + 9 * si
    minkowski_support(m, F, I, v, S_SVI + 8 + 2 * si, nn0, nn1, nn2, -nn0, -nn1, -nn2)

    # origin outside the Minkowski difference
    if nn0 * F[v] + nn1 * F[v + 1] + nn2 * F[v + 2] < 0:
      I[S_NSIMP] = 0
      I[S_GJKIT] = k
      return 0

    # swap vertices to keep the orientation
    i = (index + 1) & 3
    j = (index + 2) & 3
    si = s0 if i == 0 else (s1 if i == 1 else (s2 if i == 2 else s3))
    sj = s0 if j == 0 else (s1 if j == 1 else (s2 if j == 2 else s3))
    if i == 0:
      s0 = sj
    elif i == 1:
      s1 = sj
    elif i == 2:
      s2 = sj
    else:
      s3 = sj
    if j == 0:
      s0 = si
    elif j == 1:
      s1 = si
    elif j == 2:
      s2 = si
    else:
      s3 = si
    k += 1
  I[S_GJKIT] = k
  return -1


@jit
def _stop(F, I, k, dist):
  """Ends GJK with no contact (objects separated)."""
  I[S_SEP] = 1
  I[S_GJKIT] = k
  I[S_NSIMP] = 0
  I[S_NX] = 0
  F[ST_D] = dist


@jit
def _in_simplex(F, n, s0, s1, s2):
  """Whether point s equals one of the first n simplex vertices."""
  for i in range(n):
    v = ST_SV + 9 * i
    if F[v] == s0 and F[v + 1] == s1 and F[v + 2] == s2:
      return True
  return False


@jit
def gjk(m, F, I):
  """Port of gjk (engine_collision_gjk.c, MuJoCo 3.17): distance between the objects, or the
  simplex that encloses the origin, and whether they are separated. Reads the initial witness
  points x1, x2 from the status."""
  cutoff = F[ST_CUT]
  get_dist = cutoff > 0
  backup_gjk = not get_dist
  n = 0
  k = 0
  kmax = I[S_MAXIT]
  lam0, lam1, lam2, lam3 = 0.0, 0.0, 0.0, 0.0
  tol = F[ST_TOL]
  I[S_SEP] = 0

  # discrete shapes converge in finitely many steps: zero tolerance
  discrete = discrete_geoms(F, I)
  epsilon = 0.0 if discrete else 0.5 * (tol * tol)
  min_norm = mjMINVAL if (discrete or get_dist) else tol

  # initial guess
  x0 = F[ST_X1] - F[ST_X2]
  x1 = F[ST_X1 + 1] - F[ST_X2 + 1]
  x2 = F[ST_X1 + 2] - F[ST_X2 + 2]
  x_norm = math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)
  x_norm_prev = 0.0

  while k < kmax:
    if x_norm < min_norm or abs(x_norm_prev - x_norm) < mjMINVAL:
      break

    # kth support point
    dn0 = x0 * (1 / x_norm)
    dn1 = x1 * (1 / x_norm)
    dn2 = x2 * (1 / x_norm)
    v = ST_SV + 9 * n
    minkowski_support(m, F, I, v, S_SVI + 2 * n, -dn0, -dn1, -dn2, dn0, dn1, dn2)
    sk0 = F[v]
    sk1 = F[v + 1]
    sk2 = F[v + 2]

    # Frank-Wolfe duality gap stopping criterion
    if x0 * (x0 - sk0) + x1 * (x1 - sk1) + x2 * (x2 - sk2) < epsilon:
      break

    # separating hyperplane, or farther than the cutoff
    lower = x0 * sk0 + x1 * sk1 + x2 * sk2
    if not get_dist:
      if lower > 0:
        _stop(F, I, k, mjMAX_LIMIT)
        return
    elif cutoff < mjMAX_LIMIT:
      if lower > 0 and lower >= cutoff * x_norm:
        _stop(F, I, k, mjMAX_LIMIT)
        return

    # distances: a support point already in the simplex means x_k is optimal (its gap is zero
    # but for rounding); adding it again would make the simplex degenerate and its
    # barycentric coordinates meaningless (measured: box-box distances of 0 instead of 0.06).
    # After the cutoff test, as MuJoCo: a pair beyond the cutoff reports no witness points
    if get_dist and _in_simplex(F, n, sk0, sk1, sk2):
      break

    # tetrahedron and only contact needed: gjkIntersect decides
    if n == 3 and backup_gjk:
      I[S_GJKIT] = k
      for q in range(36):
        F[GJK_TMP + q] = F[ST_SV + q]
      for q in range(8):
        I[S_SVI + 8 + q] = I[S_SVI + q]
      ret = _gjk_intersect(m, F, I, GJK_TMP)
      if ret != -1:
        I[S_NX] = 0
        I[S_SEP] = 1 if ret == 0 else 0
        F[ST_D] = 0.0 if ret > 0 else mjMAX_LIMIT
        return
      k = I[S_GJKIT]
      backup_gjk = False

    # barycentric coordinates of the closest simplex point
    lam0, lam1, lam2, lam3 = _subdistance(F, n + 1)

    # drop vertices no longer needed
    n = 0
    for i in range(4):
      li = lam0 if i == 0 else (lam1 if i == 1 else (lam2 if i == 2 else lam3))
      if li == 0:
        continue
      _copy_simplex_vertex(F, I, n, i)
      if n == 0:
        lam0 = li
      elif n == 1:
        lam1 = li
      elif n == 2:
        lam2 = li
      else:
        lam3 = li
      n += 1

    # should not occur
    if n < 1:
      _stop(F, I, k, mjMAX_LIMIT)
      return

    # next x_k
    _lincomb(F, GJK_TMP, 0, lam0, lam1, lam2, lam3, n)
    x0 = F[GJK_TMP]
    x1 = F[GJK_TMP + 1]
    x2 = F[GJK_TMP + 2]
    x_norm_prev = x_norm
    x_norm = math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)

    # tetrahedron containing the origin
    if n == 4:
      break
    k += 1

  # approximate witness points
  if n > 0:
    _lincomb(F, ST_X1, 3, lam0, lam1, lam2, lam3, n)
    _lincomb(F, ST_X2, 6, lam0, lam1, lam2, lam3, n)

  # separated if the support along -x_k stays on the far side (1/0 is inf, as in C)
  inv = 1 / x_norm if x_norm != 0 else math.inf
  dn0 = float(x0) * inv
  dn1 = float(x1) * inv
  dn2 = float(x2) * inv
  minkowski_support(m, F, I, GJK_TMP, S_SVI + 8, -dn0, -dn1, -dn2, dn0, dn1, dn2)
  if x0 * F[GJK_TMP] + x1 * F[GJK_TMP + 1] + x2 * F[GJK_TMP + 2] > 0:
    I[S_SEP] = 1
  I[S_NX] = 1
  I[S_GJKIT] = k
  I[S_NSIMP] = n
  F[ST_D] = 0.0 if (n == 4 and I[S_SEP] == 0) else x_norm
