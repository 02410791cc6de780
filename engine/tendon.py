"""Tendons and actuator transmissions (port of engine_core_smooth.c and engine_util_misc.c).

`tendon` (mj_tendon) computes tendon lengths, their sparse Jacobians and the wrap paths;
`transmission` (mj_transmission) computes actuator lengths and the sparse actuator moment
matrix. The wrapping geometry (mju_wrap: tendons around spheres and cylinders, optionally
steered by a side site) is a set of allocation-free leaf functions.

Sparse layouts follow MuJoCo 3.17:
  ten_J: values of the model's fixed structure (m.ten_J_rownnz/rowadr/colind); every entry of
    the structure is written, zero where a dof does not move the tendon.
  actuator_moment: one row per actuator output (nout rows, actuator i owns rows
    outadr[i]..outadr[i]+outnum[i]-1); the structure (d.moment_rownnz/rowadr/colind) is rebuilt
    here on every call, rows packed one after the other. Joint and tendon rows keep their
    natural structure (zeros included); site, slider-crank, body and SO3 rows keep only the
    nonzeros of the dense row.
"""

import math

from engine._jit import jit
from engine._jit import local_array
from engine._stage import runs_stage
from engine._stage import stage
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE
from engine.enums import mjMINVAL
from engine.enums import mjPI
from engine.enums import mjTRN_BODY
from engine.enums import mjTRN_JOINT
from engine.enums import mjTRN_JOINTINPARENT
from engine.enums import mjTRN_SITE
from engine.enums import mjTRN_SLIDERCRANK
from engine.enums import mjTRN_SO3
from engine.enums import mjTRN_TENDON
from engine.enums import mjWRAP_CYLINDER
from engine.enums import mjWRAP_JOINT
from engine.enums import mjWRAP_NONE
from engine.enums import mjWRAP_PULLEY
from engine.enums import mjWRAP_SPHERE
from engine.math import mju_mat2Quat
from engine.math import mju_mulMatTVec3
from engine.math import mju_mulMatVec3
from engine.math import mju_mulQuat
from engine.math import mju_negQuat
from engine.math import mju_normalize4
from engine.math import mju_quat2Vel
from engine.math import mju_rotVecQuat
from engine.math import mju_round
from engine.math import mju_subQuat
from engine.math import normalize3_scalars
from engine.support import chain_step
from engine.support import jac as _jac
from engine.support import jac_dif_col
from engine.support import last_dof

# ---- wrapping geometry (engine_util_misc.c), scalars only ----


@jit
def _normalize2(x, y):
  """mju_normalize on a 2D vector given as scalars: the unit vector ((1, 0) if tiny)."""
  norm = math.sqrt(x * x + y * y)
  if norm < mjMINVAL:
    return 1.0, 0.0
  inv = 1 / norm
  return x * inv, y * inv


@jit
def _cross(a0, a1, a2, b0, b1, b2):
  """mju_cross on scalars."""
  return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@jit
def _is_intersect(p1x, p1y, p2x, p2y, p3x, p3y, p4x, p4y):
  """Port of is_intersect: do the 2D segments p1-p2 and p3-p4 intersect."""
  det = (p4y - p3y) * (p2x - p1x) - (p4x - p3x) * (p2y - p1y)
  if abs(det) < mjMINVAL:
    return False
  a = ((p4x - p3x) * (p1y - p3y) - (p4y - p3y) * (p1x - p3x)) / det
  b = ((p2x - p1x) * (p1y - p3y) - (p2y - p1y) * (p1x - p3x)) / det
  return a >= 0 and a <= 1 and b >= 0 and b <= 1


@jit
def _length_circle(p0x, p0y, p1x, p1y, ind, radius):
  """Port of length_circle: arc length from p0 to p1 on the circle, direction given by ind."""
  n0x, n0y = _normalize2(p0x, p0y)
  n1x, n1y = _normalize2(p1x, p1y)
  angle = math.acos(n0x * n1x + n0y * n1y)

  # flip to the long way round if needed
  cross = p0y * p1x - p0x * p1y
  if (cross > 0 and ind) or (cross < 0 and not ind):
    angle = 2 * mjPI - angle
  return radius * angle


@jit
def _wrap_circle(e0, e1, e2, e3, has_side, s0, s1, radius):
  """Port of wrap_circle: 2D wrap of segment (e0, e1)-(e2, e3) around a circle at the origin.

  Returns (length of the arc or -1 if no wrap, tangent point 0 x, y, tangent point 1 x, y).
  The side point (s0, s1) on the circle selects the side when has_side.
  """
  sqlen0 = e0 * e0 + e1 * e1
  sqlen1 = e2 * e2 + e3 * e3
  sqrad = radius * radius

  # either point inside the circle or circle too small: no wrap
  if sqlen0 < sqrad or sqlen1 < sqrad or radius < mjMINVAL:
    return -1.0, 0.0, 0.0, 0.0, 0.0

  # points too close: no wrap
  dif0 = e2 - e0
  dif1 = e3 - e1
  dd = dif0 * dif0 + dif1 * dif1
  if dd < mjMINVAL:
    return -1.0, 0.0, 0.0, 0.0, 0.0

  # nearest point of the segment to the origin
  a = -(dif0 * e0 + dif1 * e1) / dd
  if a < 0:
    a = 0.0
  elif a > 1:
    a = 1.0
  t0 = a * dif0 + e0
  t1 = a * dif1 + e1

  # segment misses the circle (on the side point's side): no wrap
  if t0 * t0 + t1 * t1 > sqrad and (not has_side or s0 * t0 + s1 * t1 >= 0):
    return -1.0, 0.0, 0.0, 0.0, 0.0

  sqrt0 = math.sqrt(sqlen0 - sqrad)
  sqrt1 = math.sqrt(sqlen1 - sqrad)

  # the two tangent solutions and their goodness
  best = -1
  good0 = 0.0
  b00 = b01 = b10 = b11 = 0.0
  for i in range(2):
    sgn = 1 if i == 0 else -1
    a00 = (e0 * sqrad + sgn * radius * e1 * sqrt0) / sqlen0
    a01 = (e1 * sqrad - sgn * radius * e0 * sqrt0) / sqlen0
    a10 = (e2 * sqrad - sgn * radius * e3 * sqrt1) / sqlen1
    a11 = (e3 * sqrad + sgn * radius * e2 * sqrt1) / sqlen1

    # close to the side point, or shorter path
    if has_side:
      u0, u1 = _normalize2(a00 + a10, a01 + a11)
      good = u0 * s0 + u1 * s1
    else:
      u0 = a00 - a10
      u1 = a01 - a11
      good = -(u0 * u0 + u1 * u1)

    # penalize intersection
    if _is_intersect(e0, e1, a00, a01, e2, e3, a10, a11):
      good = -10000.0

    # keep solution 0 unless solution 1 is at least as good
    if i == 0:
      good0 = good
      b00, b01, b10, b11 = a00, a01, a10, a11
      best = 0
    elif not good0 > good:
      b00, b01, b10, b11 = a00, a01, a10, a11
      best = 1

  # the chosen path crosses itself: no wrap
  if _is_intersect(e0, e1, b00, b01, e2, e3, b10, b11):
    return -1.0, 0.0, 0.0, 0.0, 0.0
  return _length_circle(b00, b01, b10, b11, best, radius), b00, b01, b10, b11


@jit
def _wrap_inside(e0, e1, e2, e3, radius):
  """Port of wrap_inside: wrap of a segment whose side point is inside the circle.

  The tendon touches the circle at one point; returns (0 if wrap or -1, point x, y, x, y).
  As MuJoCo 3.17, Newton's method runs on the tangent angle t from pi/2 (older releases
  iterated on z = sin(t) from 1 - 1e-7; the two stop at different points within tolerance).
  """
  maxiter = 20
  tolerance = 1e-6

  len0 = math.sqrt(e0 * e0 + e1 * e1)
  len1 = math.sqrt(e2 * e2 + e3 * e3)
  dif0 = e2 - e0
  dif1 = e3 - e1
  dd = dif0 * dif0 + dif1 * dif1

  # either point inside the circle or circle too small: no wrap
  if len0 <= radius or len1 <= radius or radius < mjMINVAL or len0 < mjMINVAL or len1 < mjMINVAL:
    return -1.0, 0.0, 0.0, 0.0, 0.0

  # segment intersects the circle: no wrap
  if dd > mjMINVAL:
    a = -(dif0 * e0 + dif1 * e1) / dd
    if a > 0 and a < 1:
      t0 = e0 + dif0 * a
      t1 = e1 + dif1 * a
      if math.sqrt(t0 * t0 + t1 * t1) <= radius:
        return -1.0, 0.0, 0.0, 0.0, 0.0

  # default in case of numerical failure: the direction of the average
  p0, p1 = _normalize2(0.5 * (e0 + e2), 0.5 * (e1 + e3))
  p0 *= radius
  p1 *= radius

  # solve asin(A*sin(t)) + asin(B*sin(t)) - 2*t + G = 0 for the angle t (z = sin(t))
  A = radius / len0
  B = radius / len1
  cosG = (len0 * len0 + len1 * len1 - dd) / (2 * len0 * len1)
  if cosG < -1 + mjMINVAL:
    return -1.0, 0.0, 0.0, 0.0, 0.0
  elif cosG > 1 - mjMINVAL:
    return 0.0, p0, p1, p0, p1
  G = math.acos(cosG)

  t = 0.5 * mjPI
  z = math.sin(t)
  f = math.asin(A * z) + math.asin(B * z) - 2 * t + G

  # init on the other side
  if f > 0:
    return 0.0, p0, p1, p0, p1

  # Newton iterations in t
  it = 0
  while it < maxiter and abs(f) > tolerance:
    c = math.cos(t)
    df = (
      A * c / max(mjMINVAL, math.sqrt(1 - z * z * A * A))
      + B * c / max(mjMINVAL, math.sqrt(1 - z * z * B * B))
      - 2
    )

    # wrong sign or moving right: give up with the default
    if df > -mjMINVAL:
      return 0.0, p0, p1, p0, p1
    t1 = t - f / df
    if t1 > t:
      return 0.0, p0, p1, p0, p1

    t = t1
    z = math.sin(t)
    f = math.asin(A * z) + math.asin(B * z) - 2 * t + G
    if f > tolerance:
      return 0.0, p0, p1, p0, p1
    it += 1

  # not converged
  if it >= maxiter:
    return 0.0, p0, p1, p0, p1

  # rotate the endpoint direction by ang
  if e0 * e3 - e1 * e2 > 0:
    v0, v1 = _normalize2(e0, e1)
    ang = t - math.asin(A * z)
  else:
    v0, v1 = _normalize2(e2, e3)
    ang = t - math.asin(B * z)
  c = math.cos(ang)
  s = math.sin(ang)
  p0 = radius * (c * v0 - s * v1)
  p1 = radius * (s * v0 + c * v1)
  return 0.0, p0, p1, p0, p1


@jit
def mju_wrap(wpnt, x0, x1, xpos, xmat, radius, type, side):
  """Port of mju_wrap, engine_util_misc.c: wrap the segment x0-x1 around a sphere or cylinder.

  Args:
    wpnt: (6,) output, the two tangent points in global coordinates.
    x0, x1: (3,) segment endpoints.
    xpos, xmat: (3,), (9,) pose of the wrapping geom.
    radius: sphere or cylinder radius.
    type: mjWRAP_SPHERE or mjWRAP_CYLINDER.
    side: (3,) side site position, or an empty array for none.

  Returns:
    The length of the path on the surface, or -1 if the segment does not wrap.
  """
  has_side = side.shape[0] == 3

  # endpoints in the geom frame
  p00 = x0[0] - xpos[0]
  p01 = x0[1] - xpos[1]
  p02 = x0[2] - xpos[2]
  q0 = xmat[0] * p00 + xmat[3] * p01 + xmat[6] * p02
  q1 = xmat[1] * p00 + xmat[4] * p01 + xmat[7] * p02
  q2 = xmat[2] * p00 + xmat[5] * p01 + xmat[8] * p02
  p10 = x1[0] - xpos[0]
  p11 = x1[1] - xpos[1]
  p12 = x1[2] - xpos[2]
  r0 = xmat[0] * p10 + xmat[3] * p11 + xmat[6] * p12
  r1 = xmat[1] * p10 + xmat[4] * p11 + xmat[7] * p12
  r2 = xmat[2] * p10 + xmat[5] * p11 + xmat[8] * p12

  # too close to the origin: no wrap
  if (
    math.sqrt(q0 * q0 + q1 * q1 + q2 * q2) < mjMINVAL
    or math.sqrt(r0 * r0 + r1 * r1 + r2 * r2) < mjMINVAL
  ):
    return -1.0

  # 2D frame of the wrap plane
  if type == mjWRAP_SPHERE:
    # first axis along p0, normal to the plane (0, p0, p1)
    _, a00, a01, a02 = normalize3_scalars(q0, q1, q2)
    n0, n1, n2 = _cross(q0, q1, q2, r0, r1, r2)
    nrm, n0, n1, n2 = normalize3_scalars(n0, n1, n2)

    # p0, p1 parallel: any normal
    if nrm < mjMINVAL:
      i = 0
      if abs(a01) > abs(a00) and abs(a01) > abs(a02):
        i = 1
      if abs(a02) > abs(a00) and abs(a02) > abs(a01):
        i = 2
      b0 = 0.0 if i == 0 else 1.0
      b1 = 0.0 if i == 1 else 1.0
      b2 = 0.0 if i == 2 else 1.0
      n0, n1, n2 = _cross(a00, a01, a02, b0, b1, b2)
      _, n0, n1, n2 = normalize3_scalars(n0, n1, n2)

    # second axis = normal x first axis
    a10, a11, a12 = _cross(n0, n1, n2, a00, a01, a02)
    _, a10, a11, a12 = normalize3_scalars(a10, a11, a12)
  else:
    a00, a01, a02 = 1.0, 0.0, 0.0
    a10, a11, a12 = 0.0, 1.0, 0.0

  # project the endpoints on the plane
  e0 = q0 * a00 + q1 * a01 + q2 * a02
  e1 = q0 * a10 + q1 * a11 + q2 * a12
  e2 = r0 * a00 + r1 * a01 + r2 * a02
  e3 = r0 * a10 + r1 * a11 + r2 * a12

  # side point: projected and moved onto the circle
  s0 = s1 = 0.0
  inside = False
  if has_side:
    t0 = side[0] - xpos[0]
    t1 = side[1] - xpos[1]
    t2 = side[2] - xpos[2]
    v0 = xmat[0] * t0 + xmat[3] * t1 + xmat[6] * t2
    v1 = xmat[1] * t0 + xmat[4] * t1 + xmat[7] * t2
    v2 = xmat[2] * t0 + xmat[5] * t1 + xmat[8] * t2
    s0, s1 = _normalize2(v0 * a00 + v1 * a01 + v2 * a02, v0 * a10 + v1 * a11 + v2 * a12)
    s0 *= radius
    s1 *= radius
    inside = math.sqrt(v0 * v0 + v1 * v1 + v2 * v2) < radius

  # inside wrap or circle wrap
  if inside:
    wlen, d0, d1, d2, d3 = _wrap_inside(e0, e1, e2, e3, radius)
  else:
    wlen, d0, d1, d2, d3 = _wrap_circle(e0, e1, e2, e3, has_side, s0, s1, radius)
  if wlen < 0:
    return -1.0

  # tangent points in the geom frame
  u0 = a00 * d0 + a10 * d1
  u1 = a01 * d0 + a11 * d1
  u2 = a02 * d0 + a12 * d1
  w0 = a00 * d2 + a10 * d3
  w1 = a01 * d2 + a11 * d3
  w2 = a02 * d2 + a12 * d3

  # cylinder: interpolate the height along the path
  if type == mjWRAP_CYLINDER:
    L0 = math.sqrt((q0 - u0) * (q0 - u0) + (q1 - u1) * (q1 - u1))
    L1 = math.sqrt((r0 - w0) * (r0 - w0) + (r1 - w1) * (r1 - w1))
    u2 = q2 + (r2 - q2) * L0 / (L0 + wlen + L1)
    w2 = q2 + (r2 - q2) * (L0 + wlen) / (L0 + wlen + L1)
    height = abs(w2 - u2)
    wlen = math.sqrt(wlen * wlen + height * height)

  # back to the global frame
  wpnt[0] = xmat[0] * u0 + xmat[1] * u1 + xmat[2] * u2 + xpos[0]
  wpnt[1] = xmat[3] * u0 + xmat[4] * u1 + xmat[5] * u2 + xpos[1]
  wpnt[2] = xmat[6] * u0 + xmat[7] * u1 + xmat[8] * u2 + xpos[2]
  wpnt[3] = xmat[0] * w0 + xmat[1] * w1 + xmat[2] * w2 + xpos[0]
  wpnt[4] = xmat[3] * w0 + xmat[4] * w1 + xmat[5] * w2 + xpos[1]
  wpnt[5] = xmat[6] * w0 + xmat[7] * w1 + xmat[8] * w2 + xpos[2]
  return wlen


# ---- tendons ----


@jit
def _add_segment(m, d, row, p0, b0, p1, b1, scl):
  """Adds scl * d|p1 - p0|/dq to the dense tendon row (p0 on body b0, p1 on body b1).

  The two bodies' dof chains are walked together (dof ids fall towards the root), so only the
  dofs that move a point are touched, as in mj_jacDifPair's sparse path; per dof the column of
  the Jacobian difference (support.jac_dif_col) has the arithmetic of differencing the two
  points' mj_jac Jacobians, without clearing and scanning (3, nv) arrays for every segment.
  """
  _, dif0, dif1, dif2 = normalize3_scalars(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2])
  i0 = last_dof(m, b0)
  i1 = last_dof(m, b1)
  com0 = d.subtree_com[m.body_rootid[b0]]
  com1 = d.subtree_com[m.body_rootid[b1]]
  o0x, o0y, o0z = p0[0] - com0[0], p0[1] - com0[1], p0[2] - com0[2]
  o1x, o1y, o1z = p1[0] - com1[0], p1[1] - com1[1], p1[2] - com1[2]
  while i0 >= 0 or i1 >= 0:
    dof, in0, in1, i0, i1 = chain_step(m, i0, i1)
    px, py, pz, _, _, _ = jac_dif_col(d, dof, in0, o0x, o0y, o0z, in1, o1x, o1y, o1z)
    tmp = 0.0
    if dif0 != 0:
      tmp += px * dif0
    if dif1 != 0:
      tmp += py * dif1
    if dif2 != 0:
      tmp += pz * dif2
    row[dof] += tmp * scl


@jit
def _fixed_tendon(m, d, i):
  """Length and Jacobian of fixed tendon i: a linear combination of joint positions."""
  adr = m.tendon_adr[i]
  rowadr = m.ten_J_rowadr[i]
  rownnz = m.ten_J_rownnz[i]
  for k in range(rownnz):
    d.ten_J[rowadr + k] = 0.0
  length = 0.0
  for j in range(m.tendon_num[i]):
    jid = m.wrap_objid[adr + j]
    coef = m.wrap_prm[adr + j]
    length += coef * d.qpos[m.jnt_qposadr[jid]]

    # coefficient at the joint's dof in the row structure
    dof = m.jnt_dofadr[jid]
    for k in range(rownnz):
      if m.ten_J_colind[rowadr + k] == dof:
        d.ten_J[rowadr + k] += coef
        break
  d.ten_length[i] = length


@jit
def _spatial_tendon(m, d, i, wcnt, wobj, wxpos, wpnt, row, noside):
  """Length, dense Jacobian row and path of spatial tendon i; returns the new wrap count."""
  adr = m.tendon_adr[i]
  num = m.tendon_num[i]
  for k in range(m.nv):
    row[k] = 0.0
  length = 0.0
  divisor = 1.0
  j = 0
  while j < num - 1:
    type0 = m.wrap_type[adr + j]
    type1 = m.wrap_type[adr + j + 1]
    id0 = m.wrap_objid[adr + j]
    id1 = m.wrap_objid[adr + j + 1]

    # pulley: new divisor, path marker -2
    if type0 == mjWRAP_PULLEY or type1 == mjWRAP_PULLEY:
      if type0 == mjWRAP_PULLEY:
        divisor = m.wrap_prm[adr + j]
        for k in range(3):
          wxpos[3 * wcnt + k] = 0.0
        wobj[wcnt] = -2
        d.ten_wrapnum[i] += 1
        wcnt += 1
      j += 1
      continue

    # segment starts at a site
    wlen = -1.0
    wrapid = -1
    for k in range(3):
      wpnt[k] = d.site_xpos[id0, k]
    body0 = m.site_bodyid[id0]

    # site-geom-site: wrap, possibly adding two tangent points
    wraptype = mjWRAP_NONE
    if type1 == mjWRAP_SPHERE or type1 == mjWRAP_CYLINDER:
      wraptype = type1
      wrapid = id1
      id1 = m.wrap_objid[adr + j + 2]
      sideid = mju_round(m.wrap_prm[adr + j + 1])
      side = d.site_xpos[sideid] if sideid >= 0 else noside
      wlen = mju_wrap(
        wpnt[3:9],
        d.site_xpos[id0],
        d.site_xpos[id1],
        d.geom_xpos[wrapid],
        d.geom_xmat[wrapid],
        m.geom_size[wrapid, 0],
        wraptype,
        side,
      )

    # complete the segment, accumulate length and Jacobian
    scl = 1 / divisor
    body1 = m.site_bodyid[id1]
    if wlen < 0:
      for k in range(3):
        wpnt[3 + k] = d.site_xpos[id1, k]
      length += _dist(wpnt, 0, 3) / divisor
      if body0 != body1:
        _add_segment(m, d, row, wpnt[0:3], body0, wpnt[3:6], body1, scl)
    else:
      for k in range(3):
        wpnt[9 + k] = d.site_xpos[id1, k]
      length += (_dist(wpnt, 0, 3) + wlen + _dist(wpnt, 6, 9)) / divisor
      bodyw = m.geom_bodyid[wrapid]
      if body0 != bodyw:
        _add_segment(m, d, row, wpnt[0:3], body0, wpnt[3:6], bodyw, scl)
      if bodyw != body1:
        _add_segment(m, d, row, wpnt[6:9], bodyw, wpnt[9:12], body1, scl)

    # record the path: site, then the two tangent points on the geom
    npnt = 1 if wlen < 0 else 3
    for k in range(3 * npnt):
      wxpos[3 * wcnt + k] = wpnt[k]
    wobj[wcnt] = -1
    if wlen >= 0:
      wobj[wcnt + 1] = wrapid
      wobj[wcnt + 2] = wrapid
    d.ten_wrapnum[i] += npnt
    wcnt += npnt

    # advance; last site before a pulley or the end of the tendon
    j += 2 if wraptype != mjWRAP_NONE else 1
    if j == num - 1 or m.wrap_type[adr + j + 1] == mjWRAP_PULLEY:
      for k in range(3):
        wxpos[3 * wcnt + k] = d.site_xpos[id1, k]
      wobj[wcnt] = -1
      d.ten_wrapnum[i] += 1
      wcnt += 1

  d.ten_length[i] = length

  # gather the dense row into the model's sparse structure
  rowadr = m.ten_J_rowadr[i]
  for k in range(m.ten_J_rownnz[i]):
    d.ten_J[rowadr + k] = row[m.ten_J_colind[rowadr + k]]
  return wcnt


@jit
def _dist(p, a, b):
  """mju_dist3 between the points p[a:a+3] and p[b:b+3]."""
  dx = p[a] - p[b]
  dy = p[a + 1] - p[b + 1]
  dz = p[a + 2] - p[b + 2]
  return math.sqrt(dx * dx + dy * dy + dz * dz)


@stage()
def tendon(m, d):
  """Port of mj_tendon, engine_core_smooth.c: tendon lengths, Jacobians and wrap paths.

  Fills ten_length, ten_J (in the model's sparse structure), ten_wrapadr, ten_wrapnum and
  the path points wrap_obj, wrap_xpos (flat, as in C: point k is wrap_xpos.flat[3k:3k+3]).
  """
  if m.ntendon == 0:
    return

  # scratch: the dense tendon row, segment points, flat path views
  row = d.scratch_dof_row
  wpnt = local_array(12)
  noside = local_array(0)
  wobj = d.wrap_obj.reshape(-1)
  wxpos = d.wrap_xpos.reshape(-1)

  wcnt = 0
  for i in range(m.ntendon):
    d.ten_wrapadr[i] = wcnt
    d.ten_wrapnum[i] = 0
    if m.wrap_type[m.tendon_adr[i]] == mjWRAP_JOINT:
      _fixed_tendon(m, d, i)
    else:
      wcnt = _spatial_tendon(m, d, i, wcnt, wobj, wxpos, wpnt, row, noside)


# ---- transmissions ----


@jit
def _mul_jac_t(res, jac, vec, nv):
  """mju_mulMatTVec for a (3, nv) Jacobian: res = jac' * vec, skipping zero weights."""
  for j in range(nv):
    res[j] = 0.0
  for k in range(3):
    w = vec[k]
    if w != 0:
      for j in range(nv):
        res[j] += jac[k, j] * w


@jit
def _start_row(d, o):
  """Start address of moment row o: rows are packed in output order."""
  adr = 0 if o == 0 else d.moment_rowadr[o - 1] + d.moment_rownnz[o - 1]
  d.moment_rowadr[o] = adr
  return adr


@jit
def _compress_row(m, d, o, row):
  """Stores the nonzeros of the dense row as moment row o."""
  adr = _start_row(d, o)
  nnz = 0
  cap = d.actuator_moment.shape[0]
  for j in range(m.nv):
    if row[j] != 0 and adr + nnz < cap:
      d.actuator_moment[adr + nnz] = row[j]
      d.moment_colind[adr + nnz] = j
      nnz += 1
  d.moment_rownnz[o] = nnz


@jit
def _common_dof(m, site0, site1):
  """Last dof shared by the chains of the bodies of two sites, -1 if none."""
  b0 = m.body_weldid[m.site_bodyid[site0]]
  b1 = m.body_weldid[m.site_bodyid[site1]]
  dof0 = m.body_dofadr[b0] + m.body_dofnum[b0] - 1
  dof1 = m.body_dofadr[b1] + m.body_dofnum[b1] - 1
  if dof0 < 0 or dof1 < 0:
    return -1

  # walk up the deeper chain until the chains meet
  while dof0 != dof1:
    if dof0 < dof1:
      dof1 = m.dof_parentid[dof1]
    else:
      dof0 = m.dof_parentid[dof0]
    if dof0 == -1 or dof1 == -1:
      break
  return dof0 if dof0 == dof1 else -1


@jit
def _clear_chain(m, jac, dof):
  """Zeroes the Jacobian columns of dof and all its ancestors."""
  while dof >= 0:
    jac[0, dof] = 0.0
    jac[1, dof] = 0.0
    jac[2, dof] = 0.0
    dof = m.dof_parentid[dof]


@jit
def _trn_joint(m, d, i, o, gear, small):
  """Joint and joint-in-parent transmissions: hinge/slide scalar, ball 3D, free 6D gear."""
  jid = m.actuator_trnid[i, 0]
  jtype = m.jnt_type[jid]
  dofadr = m.jnt_dofadr[jid]
  qadr = m.jnt_qposadr[jid]
  adr = _start_row(d, o)

  # hinge and slide: scalar gear
  if jtype == mjJNT_SLIDE or jtype == mjJNT_HINGE:
    d.actuator_length[o] = d.qpos[qadr] * gear[0]
    d.actuator_moment[adr] = gear[0]
    d.moment_colind[adr] = dofadr
    d.moment_rownnz[o] = 1
    return

  quat = small[0:4]
  axis = small[4:7]
  gear_axis = small[7:10]
  inparent = m.actuator_trntype[i] == mjTRN_JOINTINPARENT

  # ball: length is the expmap along the gear axis (rotated to the parent frame if needed)
  if jtype == mjJNT_BALL:
    for k in range(4):
      quat[k] = d.qpos[qadr + k]
    mju_normalize4(quat)
    mju_quat2Vel(axis, quat, 1.0)
    if inparent:
      mju_negQuat(quat, quat)
      mju_rotVecQuat(gear_axis, gear[0:3], quat)
    else:
      for k in range(3):
        gear_axis[k] = gear[k]
    d.actuator_length[o] = axis[0] * gear_axis[0] + axis[1] * gear_axis[1] + axis[2] * gear_axis[2]
    for k in range(3):
      d.actuator_moment[adr + k] = gear_axis[k]
      d.moment_colind[adr + k] = dofadr + k
    d.moment_rownnz[o] = 3
    return

  # free: no meaningful length; translational gear, rotational gear axis
  d.actuator_length[o] = 0.0
  if inparent:
    for k in range(4):
      quat[k] = d.qpos[qadr + 3 + k]
    mju_normalize4(quat)
    mju_negQuat(quat, quat)
    mju_rotVecQuat(gear_axis, gear[3:6], quat)
  else:
    for k in range(3):
      gear_axis[k] = gear[3 + k]
  for k in range(3):
    d.actuator_moment[adr + k] = gear[k]
    d.actuator_moment[adr + 3 + k] = gear_axis[k]
  for k in range(6):
    d.moment_colind[adr + k] = dofadr + k
  d.moment_rownnz[o] = 6


@jit
def _trn_slidercrank(m, d, i, o, gear, jac, jacS, jacA, jacr, row):
  """Slider-crank transmission: crank site trnid[0], slider site trnid[1] (its z axis)."""
  sid = m.actuator_trnid[i, 0]
  slider = m.actuator_trnid[i, 1]
  rod = m.actuator_cranklength[i]
  xmat = d.site_xmat[slider]
  ax0 = xmat[2]
  ax1 = xmat[5]
  ax2 = xmat[8]
  v0 = d.site_xpos[sid, 0] - d.site_xpos[slider, 0]
  v1 = d.site_xpos[sid, 1] - d.site_xpos[slider, 1]
  v2 = d.site_xpos[sid, 2] - d.site_xpos[slider, 2]

  # length = a'v - sqrt(det), det = (a'v)^2 + r^2 - v'v
  av = v0 * ax0 + v1 * ax1 + v2 * ax2
  det = av * av + rod * rod - (v0 * v0 + v1 * v1 + v2 * v2)
  if det <= 0:
    length = av
    dlda0, dlda1, dlda2 = v0, v1, v2
    dldv0, dldv1, dldv2 = ax0, ax1, ax2
  else:
    sdet = math.sqrt(det)
    length = av - sdet

    # derivatives of the length w.r.t. vec and axis
    c = 1 - av / sdet
    inv = 1 / sdet
    dldv0 = ax0 * c + v0 * inv
    dldv1 = ax1 * c + v1 * inv
    dldv2 = ax2 * c + v2 * inv
    dlda0 = v0 * c
    dlda1 = v1 * c
    dlda2 = v2 * c

  # Jacobians of the slider axis (jacA) and of vec (jac), as mj_jacPointAxis and mj_jacSite
  _jac(m, d, jacS, jacr, d.site_xpos[slider], m.site_bodyid[slider])
  for j in range(m.nv):
    jacA[0, j] = jacr[1, j] * ax2 - jacr[2, j] * ax1
    jacA[1, j] = jacr[2, j] * ax0 - jacr[0, j] * ax2
    jacA[2, j] = jacr[0, j] * ax1 - jacr[1, j] * ax0
  _jac(m, d, jac, jacr, d.site_xpos[sid], m.site_bodyid[sid])

  # chain rule, gear
  g = gear[0]
  for j in range(m.nv):
    r = 0.0
    r += dlda0 * jacA[0, j] + dldv0 * (jac[0, j] - jacS[0, j])
    r += dlda1 * jacA[1, j] + dldv1 * (jac[1, j] - jacS[1, j])
    r += dlda2 * jacA[2, j] + dldv2 * (jac[2, j] - jacS[2, j])
    row[j] = r * g
  d.actuator_length[o] = length * g
  _compress_row(m, d, o, row)


@jit
def _trn_tendon(m, d, i, o, gear):
  """Tendon transmission: the tendon's length and sparse Jacobian, scaled by the gear."""
  tid = m.actuator_trnid[i, 0]
  adr = _start_row(d, o)
  d.actuator_length[o] = d.ten_length[tid] * gear[0]
  tadr = m.ten_J_rowadr[tid]
  nnz = m.ten_J_rownnz[tid]
  for k in range(nnz):
    d.moment_colind[adr + k] = m.ten_J_colind[tadr + k]
    d.actuator_moment[adr + k] = d.ten_J[tadr + k] * gear[0]
  d.moment_rownnz[o] = nnz


@jit
def _site_quat(m, d, sid, quat):
  """Global orientation of a site as a quaternion (from its rotation matrix)."""
  mju_mat2Quat(quat, d.site_xmat[sid])


@jit
def _trn_site(m, d, i, o, gear, jac, jacS, jacref, jacr, row, tmp, small):
  """Site transmission: wrench in the site frame, or displacement relative to a refsite."""
  sid = m.actuator_trnid[i, 0]
  refid = m.actuator_trnid[i, 1]
  nv = m.nv
  wrench = small[0:3]
  vec = small[3:6]
  _jac(m, d, jac, jacS, d.site_xpos[sid], m.site_bodyid[sid])
  length = 0.0

  # no refsite: global Jacobian projected on the gear wrench expressed in the site frame
  if refid == -1:
    mju_mulMatVec3(wrench, d.site_xmat[sid], gear[0:3])
    _mul_jac_t(row, jac, wrench, nv)
    mju_mulMatVec3(wrench, d.site_xmat[sid], gear[3:6])
    _mul_jac_t(tmp, jacS, wrench, nv)
    for j in range(nv):
      row[j] += tmp[j]

  # refsite: relative position and orientation in the refsite frame
  else:
    common = _common_dof(m, sid, refid)
    for j in range(nv):
      row[j] = 0.0

    # translation
    if gear[0] != 0 or gear[1] != 0 or gear[2] != 0:
      for k in range(3):
        vec[k] = d.site_xpos[sid, k] - d.site_xpos[refid, k]
      mju_mulMatTVec3(vec, d.site_xmat[refid], vec)
      length += vec[0] * gear[0] + vec[1] * gear[1] + vec[2] * gear[2]
      _jac(m, d, jacref, jacr, d.site_xpos[refid], m.site_bodyid[refid])
      for k in range(3):
        for j in range(nv):
          jac[k, j] -= jacref[k, j]
      _clear_chain(m, jac, common)
      mju_mulMatVec3(wrench, d.site_xmat[refid], gear[0:3])
      _mul_jac_t(row, jac, wrench, nv)

    # rotation
    if gear[3] != 0 or gear[4] != 0 or gear[5] != 0:
      quat = small[6:10]
      refquat = small[10:14]
      _site_quat(m, d, sid, quat)
      _site_quat(m, d, refid, refquat)
      mju_subQuat(vec, quat, refquat)
      length += vec[0] * gear[3] + vec[1] * gear[4] + vec[2] * gear[5]
      _jac(m, d, jacref, jacr, d.site_xpos[refid], m.site_bodyid[refid])
      for k in range(3):
        for j in range(nv):
          jacS[k, j] -= jacr[k, j]
      _clear_chain(m, jacS, common)
      mju_mulMatVec3(wrench, d.site_xmat[refid], gear[3:6])
      _mul_jac_t(tmp, jacS, wrench, nv)
      for j in range(nv):
        row[j] += tmp[j]

  d.actuator_length[o] = length
  _compress_row(m, d, o, row)


@jit
def _trn_body(m, d, i, o, row):
  """Body (adhesion) transmission: minus the average contact normal Jacobian of the body.

  Contacts are not part of our MjData yet, so this is the no-contact case of MuJoCo: zero
  length and an empty moment row.
  """
  d.actuator_length[o] = 0.0
  for j in range(m.nv):
    row[j] = 0.0
  _compress_row(m, d, o, row)


@jit
def _trn_so3(m, d, i, o, jac, jacS, jacref, jacr, row, small):
  """SO3 transmission, three outputs: relative orientation as an expmap and its Jacobian.

  Ball joint: the joint's expmap, unit moments on its three dofs. Site with refsite: the
  expmap of the site orientation relative to the refsite; the moments are the relative
  angular-velocity Jacobian expressed in the site frame.
  """
  tid = m.actuator_trnid[i, 0]
  refid = m.actuator_trnid[i, 1]
  vec = small[0:3]
  quat = small[3:7]

  # ball joint
  if refid < 0:
    qadr = m.jnt_qposadr[tid]
    dofadr = m.jnt_dofadr[tid]
    for k in range(4):
      quat[k] = d.qpos[qadr + k]
    mju_normalize4(quat)
    mju_quat2Vel(vec, quat, 1.0)
    for k in range(3):
      adr = _start_row(d, o + k)
      d.actuator_length[o + k] = vec[k]
      d.actuator_moment[adr] = 1.0
      d.moment_colind[adr] = dofadr + k
      d.moment_rownnz[o + k] = 1
    return

  # site relative to refsite (site orientations from their bodies', as MuJoCo composes them)
  refquat = small[7:11]
  mju_mulQuat(quat, d.xquat[m.site_bodyid[tid]], m.site_quat[tid])
  mju_mulQuat(refquat, d.xquat[m.site_bodyid[refid]], m.site_quat[refid])
  mju_subQuat(vec, quat, refquat)
  _jac(m, d, jac, jacS, d.site_xpos[tid], m.site_bodyid[tid])
  _jac(m, d, jacref, jacr, d.site_xpos[refid], m.site_bodyid[refid])
  for k in range(3):
    for j in range(m.nv):
      jacS[k, j] -= jacr[k, j]
  _clear_chain(m, jacS, _common_dof(m, tid, refid))
  xmat = d.site_xmat[tid]
  axis = small[11:14]
  for k in range(3):
    d.actuator_length[o + k] = vec[k]
    axis[0] = xmat[k]
    axis[1] = xmat[3 + k]
    axis[2] = xmat[6 + k]
    _mul_jac_t(row, jacS, axis, m.nv)
    _compress_row(m, d, o + k, row)


@stage()
def transmission(m, d):
  """Port of mj_transmission, engine_core_smooth.c: actuator lengths and sparse moments.

  Actuator i writes outputs outadr[i].. (one, or three for SO3) of actuator_length and the
  moment rows, and gear row outadr[i]. Requires kinematics, com_pos and tendon.
  """
  if m.nactuator == 0:
    return

  # scratch Jacobians and dense rows (MjData: nothing is allocated while stepping)
  jac = d.scratch_jac_a
  jacS = d.scratch_jac_b
  jacA = d.scratch_jac_c
  jacref = d.scratch_jac_ref
  jacr = d.scratch_jac_rot
  row = d.scratch_dof_row
  tmp = d.scratch_dof_tmp
  small = local_array(16)

  for i in range(m.nactuator):
    o = m.actuator_outadr[i]
    gear = m.actuator_gear[o]
    trntype = m.actuator_trntype[i]
    if trntype == mjTRN_JOINT or trntype == mjTRN_JOINTINPARENT:
      _trn_joint(m, d, i, o, gear, small)
    elif trntype == mjTRN_SLIDERCRANK:
      _trn_slidercrank(m, d, i, o, gear, jac, jacS, jacA, jacr, row)
    elif trntype == mjTRN_TENDON:
      _trn_tendon(m, d, i, o, gear)
    elif trntype == mjTRN_SITE:
      _trn_site(m, d, i, o, gear, jac, jacS, jacref, jacr, row, tmp, small)
    elif trntype == mjTRN_BODY:
      _trn_body(m, d, i, o, row)
    elif trntype == mjTRN_SO3:
      _trn_so3(m, d, i, o, jac, jacS, jacref, jacr, row, small)
    else:
      # unknown type (compiler rejects it): empty rows
      for k in range(m.actuator_outnum[i]):
        _start_row(d, o + k)
        d.actuator_length[o + k] = 0.0
        d.moment_rownnz[o + k] = 0


# ---- Python API (mujoco binding signatures) ----


@runs_stage(tendon)
def mj_tendon(m, d):
  """Tendon lengths, Jacobians (d.ten_J in m.ten_J_* structure) and wrap paths."""
  tendon(m._struct, d._struct)


@runs_stage(transmission)
def mj_transmission(m, d):
  """Actuator lengths and sparse moments (d.actuator_moment, d.moment_rownnz/rowadr/colind)."""
  transmission(m._struct, d._struct)
