"""Narrowphase for sphere-box, capsule-box and box-box: ports of MuJoCo 3.17's
engine_collision_box.c.

Same contract as engine/collision/primitives.py: `collide_<type1>_<type2>(m, d, g1, g2, margin,
con)` writes rows of (dist, pos, normal, tangent hint, 0) into `con` and returns their number.
The C code keeps its vectors in small stack arrays; here they live in the rows of `con` past the
last contact these functions can produce (scratch space, so nothing is allocated).
"""

import math

from engine._jit import jit
from engine._stage import BOX_PAIRS
from engine._stage import D
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import mat
from engine._stage import stage
from engine.collision.primitives import set_contact
from engine.enums import mjMAXCONPAIR
from engine.enums import mjMAXVAL
from engine.enums import mjMINVAL
from engine.math import mju_mulMatTMat3
from engine.math import mju_mulMatTVec3
from engine.math import mju_mulMatVec3
from engine.math import mju_normalize3
from engine.math import normalize3_scalars

# ---- sphere : box ----


@jit
def _raw_sphere_box(con, i, margin, sx, sy, sz, radius, pos2, mat2, size2):
  """Port of mjraw_SphereBox: sphere at (sx, sy, sz) against a box. Writes contact i and returns
  1, or returns 0 when the sphere is beyond the margin."""
  # sphere center in the box frame, clamped to the box
  tx = sx - pos2[0]
  ty = sy - pos2[1]
  tz = sz - pos2[2]
  c0 = mat2[0] * tx + mat2[3] * ty + mat2[6] * tz
  c1 = mat2[1] * tx + mat2[4] * ty + mat2[7] * tz
  c2 = mat2[2] * tx + mat2[5] * ty + mat2[8] * tz
  k0 = min(max(c0, -size2[0]), size2[0]) if size2[0] > 0 else c0
  k1 = min(max(c1, -size2[1]), size2[1]) if size2[1] > 0 else c1
  k2 = min(max(c2, -size2[2]), size2[2]) if size2[2] > 0 else c2

  # direction and distance from the center to the clamped point
  dist, t0, t1, t2 = normalize3_scalars(k0 - c0, k1 - c1, k2 - c2)
  if dist - radius > margin:
    return 0

  if dist <= mjMINVAL:
    # center inside the box: push out through the nearest face
    closest = (size2[0] + size2[1] + size2[2]) * 2
    k = 0
    for f in range(6):
      c = c0 if f < 2 else (c1 if f < 4 else c2)
      face = (size2[f // 2] if f % 2 else -size2[f // 2]) - c
      if closest > abs(face):
        closest = abs(face)
        k = f
    e0 = 0.0
    e1 = 0.0
    e2 = 0.0
    sgn = -1.0 if k % 2 else 1.0
    if k // 2 == 0:
      e0 = sgn
    elif k // 2 == 1:
      e1 = sgn
    else:
      e2 = sgn
    h = (radius - closest) / 2
    p0 = c0 + e0 * h
    p1 = c1 + e1 * h
    p2 = c2 + e2 * h
    nx = mat2[0] * e0 + mat2[1] * e1 + mat2[2] * e2
    ny = mat2[3] * e0 + mat2[4] * e1 + mat2[5] * e2
    nz = mat2[6] * e0 + mat2[7] * e1 + mat2[8] * e2
    dist = -closest
  else:
    # midpoint of the clamped point and the deepest sphere point
    p0 = 0.0 + k0 * 0.5 + (c0 + t0 * radius) * 0.5
    p1 = 0.0 + k1 * 0.5 + (c1 + t1 * radius) * 0.5
    p2 = 0.0 + k2 * 0.5 + (c2 + t2 * radius) * 0.5
    nx = mat2[0] * t0 + mat2[1] * t1 + mat2[2] * t2
    ny = mat2[3] * t0 + mat2[4] * t1 + mat2[5] * t2
    nz = mat2[6] * t0 + mat2[7] * t1 + mat2[8] * t2

  # back to world
  set_contact(
    con,
    i,
    dist - radius,
    mat2[0] * p0 + mat2[1] * p1 + mat2[2] * p2 + pos2[0],
    mat2[3] * p0 + mat2[4] * p1 + mat2[5] * p2 + pos2[1],
    mat2[6] * p0 + mat2[7] * p1 + mat2[8] * p2 + pos2[2],
    nx,
    ny,
    nz,
    0.0,
    0.0,
    0.0,
  )
  return 1


@jit
def collide_sphere_box(m, d, g1, g2, margin, con):
  """Port of mjc_SphereBox, engine_collision_box.c: at most one contact."""
  pos1 = d.geom_xpos[g1]
  return _raw_sphere_box(
    con,
    0,
    margin,
    pos1[0],
    pos1[1],
    pos1[2],
    m.geom_size[g1, 0],
    d.geom_xpos[g2],
    d.geom_xmat[g2],
    m.geom_size[g2],
  )


# ---- capsule : box ----


@jit
def collide_capsule_box(m, d, g1, g2, margin, con):
  """Port of mjc_CapsuleBox (mjraw_CapsuleBox), engine_collision_box.c.

  Finds the capsule segment point closest to the box (over the two end points against the faces
  and the segment against the 12 edges), then a second segment point when the capsule lies
  along a face or an edge, and collides the spheres at those points with the box (0-2 contacts).
  """
  pos1 = d.geom_xpos[g1]
  mat1 = d.geom_xmat[g1]
  size1 = m.geom_size[g1]
  pos2 = d.geom_xpos[g2]
  mat2 = d.geom_xmat[g2]
  size2 = m.geom_size[g2]

  # scratch vectors (contacts use rows 0-1)
  w = con[mjMAXCONPAIR - 2]
  pos = w[0:3]
  axis = w[3:6]
  halfaxis = w[6:9]
  dif = w[9:12]
  w = con[mjMAXCONPAIR - 1]
  tmp1 = w[0:3]
  tmp2 = w[3:6]
  tmp3 = w[6:9]

  halflength = size1[1]
  secondpos = -4.0  # no second contact (valid values are in [-1, 1])

  # capsule center and axis in the box frame
  for k in range(3):
    tmp1[k] = pos1[k] - pos2[k]
  mju_mulMatTVec3(pos, mat2, tmp1)
  tmp1[0] = mat1[2]
  tmp1[1] = mat1[5]
  tmp1[2] = mat1[8]
  mju_mulMatTVec3(axis, mat2, tmp1)
  for k in range(3):
    halfaxis[k] = axis[k] * halflength

  # octant of the axis direction (axisdir and 7 - axisdir are the same capsule)
  axisdir = 0
  if halfaxis[0] > 0:
    axisdir += 1
  if halfaxis[1] > 0:
    axisdir += 2
  if halfaxis[2] > 0:
    axisdir += 4

  # squared, as the distances it bounds (MuJoCo 3.17): unsquared, it rejected every edge
  # farther than its square root, and a capsule parallel to the near edge of a long box (that
  # edge is skipped as parallel, both ends lie beyond two faces) then had no contact at all
  bestdistmax = margin + 2 * (size1[0] + halflength + size2[0] + size2[1] + size2[2])
  bestdist = bestdistmax * bestdistmax
  bestsegmentpos = 0.0
  bestboxpos = 0.0
  cltype = -4  # closest type: -3/-1 a capsule end to a face, 0..8 the segment to an edge
  clface = -1
  clcorner = 0
  cledge = 0

  # capsule ends against the faces
  for i in (-1, 1):
    for k in range(3):
      tmp1[k] = pos[k] + halfaxis[k] * i
      tmp2[k] = tmp1[k]
    c1 = 0
    c2 = -1
    for j in range(3):
      if tmp1[j] < -size2[j]:
        c1 += 1
        c2 = j
        tmp1[j] = -size2[j]
      elif tmp1[j] > size2[j]:
        c1 += 1
        c2 = j
        tmp1[j] = size2[j]
    if c1 > 1:
      continue
    dist = 0.0
    for k in range(3):
      tmp1[k] -= tmp2[k]
      dist += tmp1[k] * tmp1[k]
    if dist < bestdist:
      bestdist = dist
      bestsegmentpos = float(i)
      cltype = -2 + i
      clface = c2

  # segment against the box edges (sX: 1 interior, 0/2 one end or the other)
  for j in range(3):
    for i in range(8):
      if i & (1 << j):
        continue
      # edge along axis j starting at tmp3
      tmp3[0] = size2[0] if i & 1 else -size2[0]
      tmp3[1] = size2[1] if i & 2 else -size2[1]
      tmp3[2] = size2[2] if i & 4 else -size2[2]
      tmp3[j] = 0.0
      for k in range(3):
        dif[k] = tmp3[k] - pos[k]

      # nearest points of the edge and the segment
      ma = size2[j] * size2[j]
      mb = -size2[j] * halfaxis[j]
      mc = size1[1] * size1[1]
      u = -size2[j] * dif[j]
      v = halfaxis[0] * dif[0] + halfaxis[1] * dif[1] + halfaxis[2] * dif[2]
      det = ma * mc - mb * mb
      if abs(det) < mjMINVAL:
        continue
      idet = 1 / det
      x1 = (mc * u - mb * v) * idet
      x2 = (ma * v - mb * u) * idet
      s1 = 1
      s2 = 1
      if x1 > 1:
        x1 = 1.0
        s1 = 2
        x2 = (v - mb) * (1 / mc)
      elif x1 < -1:
        x1 = -1.0
        s1 = 0
        x2 = (v + mb) * (1 / mc)
      if x2 > 1:
        x2 = 1.0
        s2 = 2
        x1 = (u - mb) * (1 / ma)
        if x1 > 1:
          x1 = 1.0
          s1 = 2
        elif x1 < -1:
          x1 = -1.0
          s1 = 0
      elif x2 < -1:
        x2 = -1.0
        s2 = 0
        x1 = (u + mb) * (1 / ma)
        if x1 > 1:
          x1 = 1.0
          s1 = 2
        elif x1 < -1:
          x1 = -1.0
          s1 = 0

      # squared distance of the nearest points
      for k in range(3):
        dif[k] = tmp3[k] - pos[k] + halfaxis[k] * -x2
      dif[j] += size2[j] * x1
      dist = dif[0] * dif[0] + dif[1] * dif[1] + dif[2] * dif[2]
      c1 = s1 * 3 + s2

      # -mjMINVAL guards axes numerically parallel to the box
      if dist < bestdist - mjMINVAL:
        bestdist = dist
        bestsegmentpos = x2
        bestboxpos = x1
        # c1 < 6: nearest box point at the lower end or the middle of the edge
        clcorner = i + (1 << j) * (c1 // 6)
        cledge = j
        cltype = c1

  if cltype == -4:
    return 0

  mul = 0.0
  if cltype >= 0 and cltype // 3 != 1:
    # nearest to a box corner: pointing at it (no second point), or along a face or edge
    c1 = axisdir ^ clcorner
    if c1 != 0 and c1 != 7:
      if c1 == 1 or c1 == 2 or c1 == 4:
        mul = 1.0
        de = 1 - bestsegmentpos
        dp = 1 + bestsegmentpos
      else:
        mul = -1.0
        c1 = 7 - c1
        dp = 1 - bestsegmentpos
        de = 1 + bestsegmentpos
      # de, dp: distances from the first point to both capsule ends
      if c1 == 1:
        ax = 0
        ax1 = 1
        ax2 = 2
      elif c1 == 2:
        ax = 1
        ax1 = 2
        ax2 = 0
      else:
        ax = 2
        ax1 = 0
        ax2 = 1
      if axis[ax] * axis[ax] > 0.5:
        # second point along the box edge, not past its other corner
        secondpos = de
        e1 = 2 * size2[ax] / abs(halfaxis[ax])
        if e1 < secondpos:
          secondpos = e1
        secondpos *= mul
      else:
        # second point along a box face
        secondpos = dp
        e1 = 2 * size2[ax1] / abs(halfaxis[ax1])
        if e1 < secondpos:
          secondpos = e1
        e1 = 2 * size2[ax2] / abs(halfaxis[ax2])
        if e1 < secondpos:
          secondpos = e1
        secondpos *= -mul
  elif cltype >= 0:
    # nearest to the middle of a box edge: a T (no second point) or an X configuration
    c1 = axisdir ^ clcorner
    c1 &= 7 - (1 << cledge)
    if c1 == 1 or c1 == 2 or c1 == 4:
      if cledge == 0:
        ax1 = 1
        ax2 = 2
      elif cledge == 1:
        ax1 = 2
        ax2 = 0
      else:
        ax1 = 0
        ax2 = 1
      ax = cledge

      # face with the lower angle to the capsule
      if abs(axis[ax1]) > abs(axis[ax2]):
        ax1 = ax2
      ax2 = 3 - ax - ax1

      # direction along the capsule of the second point
      if c1 & (1 << ax2):
        mul = 1.0
        secondpos = 1 - bestsegmentpos
      else:
        mul = -1.0
        secondpos = 1 + bestsegmentpos

      # farthest capsule point still above the box
      e1 = 2 * size2[ax2] / abs(halfaxis[ax2])
      if e1 < secondpos:
        secondpos = e1
      if ((axisdir & (1 << ax)) != 0) == ((c1 & (1 << ax2)) != 0):
        e2 = 1 - bestboxpos
      else:
        e2 = 1 + bestboxpos
      e1 = size2[ax] * e2 / abs(halfaxis[ax])
      if e1 < secondpos:
        secondpos = e1
      secondpos *= mul
  elif clface != -1:
    # a capsule end nearest to a face: the farthest capsule point still above the box
    mul = 1.0 if cltype == -3 else -1.0
    secondpos = 2.0
    for k in range(3):
      tmp1[k] = pos[k] + halfaxis[k] * -mul
    for i in range(3):
      if i != clface:
        e1 = (size2[i] - tmp1[i]) / halfaxis[i] * mul
        if e1 > 0 and e1 < secondpos:
          secondpos = e1
        e1 = (-size2[i] - tmp1[i]) / halfaxis[i] * mul
        if e1 > 0 and e1 < secondpos:
          secondpos = e1
    secondpos *= mul

  # sphere at the first point
  for k in range(3):
    tmp1[k] = pos[k] + halfaxis[k] * bestsegmentpos
  mju_mulMatVec3(tmp2, mat2, tmp1)
  n = _raw_sphere_box(
    con,
    0,
    margin,
    tmp2[0] + pos2[0],
    tmp2[1] + pos2[1],
    tmp2[2] + pos2[2],
    size1[0],
    pos2,
    mat2,
    size2,
  )

  # sphere at the second point
  if secondpos > -3:
    for k in range(3):
      tmp1[k] = pos[k] + halfaxis[k] * (secondpos + bestsegmentpos)
    mju_mulMatVec3(tmp2, mat2, tmp1)
    n += _raw_sphere_box(
      con,
      n,
      margin,
      tmp2[0] + pos2[0],
      tmp2[1] + pos2[1],
      tmp2[2] + pos2[2],
      size1[0],
      pos2,
      mat2,
      size2,
    )
  return n


# ---- box : box ----

# rounding slacks (float64): separation tests, per unit of summed half sizes; sin^2 below which
# an edge-cross axis is noise; axis component below which a support corner is ambiguous;
# squared relative radius of clip-vertex deduplication
_SEPEPS = 1e-13
_PAREPS = 1e-16
_SGNEPS = 1e-9
_DUPEPS = 1e-14

# relative penalty of edge axes against face axes on near-ties
_EDGEBIAS = 1e-6

# most vertices of the clipped incident face (a 4-gon clipped by 4 half-planes has at most 8)
_MAXVERT = 12

# scratch rows of con (contacts use rows 0.._MAXVERT-1): two polygon buffers, then vectors
_POLY0 = _MAXVERT + 2
_POLY1 = _POLY0 + _MAXVERT
_VEC = _POLY1 + _MAXVERT


@jit
def _clip_half_plane(cur, spare, dist, nin, coord, sign, limit):
  """Clips polygon `cur` (nin vertices) to the half-plane sign*v[coord] <= limit
  (Sutherland-Hodgman, z interpolated along). Returns (n, swapped): when every vertex is inside,
  cur is untouched (swapped False); otherwise the result is in `spare` (swapped True)."""
  all_inside = True
  for k in range(nin):
    dist[k] = sign * cur[k, coord] - limit
    if dist[k] > 0:
      all_inside = False
  if all_inside:
    return nin, False

  nout = 0
  for k in range(nin):
    k1 = 0 if k + 1 == nin else k + 1
    dp = dist[k]
    dq = dist[k1]

    # keep p if inside
    if dp <= 0 and nout < _MAXVERT:
      for c in range(3):
        spare[nout, c] = cur[k, c]
      nout += 1

    # crossing point if the edge strictly crosses the plane
    if ((dp < 0 and dq > 0) or (dp > 0 and dq < 0)) and nout < _MAXVERT:
      t = dp / (dp - dq)
      for c in range(3):
        spare[nout, c] = cur[k, c] + t * (cur[k1, c] - cur[k, c])
      nout += 1
  return nout, True


@jit
def _box_box_edge(con, code, septol, pos1, mat1, size1, size2, rot, pos21):
  """Edge-edge contact of mjc_BoxBox: the midpoint of the closest points of the two supporting
  edges, with depth along the separating axis (0 or 1 contact)."""
  w = con[_VEC + 2]
  axis = w[0:3]
  a2 = w[3:6]
  d2 = w[6:9]
  w = con[_VEC + 3]
  c1 = w[0:3]
  cc = w[3:6]
  c2 = w[6:9]
  w = con[_VEC + 4]
  w1 = w[0:3]
  w2 = w[3:6]
  i = (code - 6) // 3
  j = (code - 6) % 3
  i1 = (i + 1) % 3
  i2 = (i + 2) % 3
  j1 = (j + 1) % 3
  j2 = (j + 2) % 3

  # unit separating axis in the box-1 frame, from box 1 towards box 2
  axis[i] = 0.0
  axis[i1] = -rot[3 * i2 + j]
  axis[i2] = rot[3 * i1 + j]
  mju_normalize3(axis)
  if axis[0] * pos21[0] + axis[1] * pos21[1] + axis[2] * pos21[2] < 0:
    for k in range(3):
      axis[k] = -axis[k]

  # the axis in the box-2 frame; near-zero components make the supporting edge ambiguous
  for k in range(3):
    a2[k] = axis[0] * rot[k] + axis[1] * rot[3 + k] + axis[2] * rot[6 + k]
  amb1 = -1
  amb2 = -1
  if abs(axis[i1]) < _SGNEPS:
    amb1 = i1
  elif abs(axis[i2]) < _SGNEPS:
    amb1 = i2
  if abs(a2[j1]) < _SGNEPS:
    amb2 = j1
  elif abs(a2[j2]) < _SGNEPS:
    amb2 = j2

  # edge 1 along e_i, edge 2 along column j of rot: try both corners of ambiguous components
  for k in range(3):
    d2[k] = rot[3 * k + j]
  b = d2[i]
  denom = 1 - b * b
  best_d2 = mjMAXVAL
  for v1 in range(2 if amb1 >= 0 else 1):
    for v2 in range(2 if amb2 >= 0 else 1):
      # box-1 edge corner: support along +axis
      c1[i] = 0.0
      c1[i1] = size1[i1] if axis[i1] >= 0 else -size1[i1]
      c1[i2] = size1[i2] if axis[i2] >= 0 else -size1[i2]
      if amb1 >= 0 and v1:
        c1[amb1] = -c1[amb1]

      # box-2 edge corner: support along -axis, in the box-1 frame
      cc[j] = 0.0
      cc[j1] = -size2[j1] if a2[j1] >= 0 else size2[j1]
      cc[j2] = -size2[j2] if a2[j2] >= 0 else size2[j2]
      if amb2 >= 0 and v2:
        cc[amb2] = -cc[amb2]
      mju_mulMatVec3(c2, rot, cc)
      for k in range(3):
        c2[k] += pos21[k]

      # closest points of the two edge lines (unit directions), clamped to the segments
      e0 = c2[0] - c1[0]
      e1 = c2[1] - c1[1]
      e2 = c2[2] - c1[2]
      d1e = e0 if i == 0 else (e1 if i == 1 else e2)
      d2e = d2[0] * e0 + d2[1] * e1 + d2[2] * e2
      s = 0.0 if denom < mjMINVAL else (d1e - b * d2e) / denom
      s = min(max(s, -size1[i]), size1[i])
      t = min(max(b * s - d2e, -size2[j]), size2[j])
      s = min(max(d1e + b * t, -size1[i]), size1[i])

      # keep the closest witness pair
      p10 = c1[0] + (s if i == 0 else 0.0)
      p11 = c1[1] + (s if i == 1 else 0.0)
      p12 = c1[2] + (s if i == 2 else 0.0)
      p20 = c2[0] + d2[0] * t
      p21 = c2[1] + d2[1] * t
      p22 = c2[2] + d2[2] * t
      g0 = p20 - p10
      g1 = p21 - p11
      g2 = p22 - p12
      gap2 = g0 * g0 + g1 * g1 + g2 * g2
      if gap2 < best_d2:
        best_d2 = gap2
        w1[0] = p10
        w1[1] = p11
        w1[2] = p12
        w2[0] = p20
        w2[1] = p21
        w2[2] = p22

  # signed distance along the axis; contact midway between the witness points
  dist = (w2[0] - w1[0]) * axis[0] + (w2[1] - w1[1]) * axis[1] + (w2[2] - w1[2]) * axis[2]
  if dist > septol:
    return 0
  m0 = 0.5 * (w1[0] + w2[0])
  m1 = 0.5 * (w1[1] + w2[1])
  m2 = 0.5 * (w1[2] + w2[2])
  set_contact(
    con,
    0,
    dist,
    mat1[0] * m0 + mat1[1] * m1 + mat1[2] * m2 + pos1[0],
    mat1[3] * m0 + mat1[4] * m1 + mat1[5] * m2 + pos1[1],
    mat1[6] * m0 + mat1[7] * m1 + mat1[8] * m2 + pos1[2],
    mat1[0] * axis[0] + mat1[1] * axis[1] + mat1[2] * axis[2],
    mat1[3] * axis[0] + mat1[4] * axis[1] + mat1[5] * axis[2],
    mat1[6] * axis[0] + mat1[7] * axis[1] + mat1[8] * axis[2],
    0.0,
    0.0,
    0.0,
  )
  return 1


@jit
def _box_box_face(con, code, margin, pos1, mat1, size1, pos2, mat2, size2, rot, pos21, pos12):
  """Face contact of mjc_BoxBox: the incident box's face most opposed to the reference face is
  clipped to the reference face's side planes; clipped vertices within the margin are the
  contacts, midway between the surfaces (at most _MAXVERT)."""
  rinc = con[_VEC + 1, 0:9]
  w = con[_VEC + 2]
  cx = w[0:3]
  du = w[3:6]
  dv = w[6:9]
  dist = con[_POLY0:_POLY1, 3]

  # reference box (owner of the face) and incident box, incident axes in the reference frame
  ref1 = code < 3
  if ref1:
    a = code
    sizeref = size1
    sizeinc = size2
    posref = pos1
    matref = mat1
    posoi = pos21
    for k in range(9):
      rinc[k] = rot[k]
  else:
    a = code - 3
    sizeref = size2
    sizeinc = size1
    posref = pos2
    matref = mat2
    posoi = pos12
    for r in range(3):
      for c in range(3):
        rinc[3 * r + c] = rot[3 * c + r]

  # side of the reference face, and the incident face most opposed to it
  sgn = 1.0 if posoi[a] >= 0 else -1.0
  binc = 0
  for k in range(1, 3):
    if abs(rinc[3 * a + k]) > abs(rinc[3 * a + binc]):
      binc = k
  tinc = -1.0 if sgn * rinc[3 * a + binc] > 0 else 1.0

  # incident face center and half edges in (x, y, height above the reference face)
  ax = (a + 1) % 3
  ay = (a + 2) % 3
  bu = (binc + 1) % 3
  bv = (binc + 2) % 3
  for r in range(3):
    c = ax if r == 0 else (ay if r == 1 else a)
    cx[r] = posoi[c] + tinc * sizeinc[binc] * rinc[3 * c + binc]
    du[r] = sizeinc[bu] * rinc[3 * c + bu]
    dv[r] = sizeinc[bv] * rinc[3 * c + bv]
  cx[2] = sgn * cx[2] - sizeref[a]
  du[2] *= sgn
  dv[2] *= sgn

  # its corners, wound (+,+), (-,+), (-,-), (+,-)
  cur = con[_POLY0:_POLY1, 0:3]
  spare = con[_POLY1:_VEC, 0:3]
  for k in range(4):
    su = 1.0 if k == 0 or k == 3 else -1.0
    sv = 1.0 if k < 2 else -1.0
    for c in range(3):
      cur[k, c] = cx[c] + su * du[c] + sv * dv[c]

  # clip against the four side planes of the reference face
  nvert = 4
  for p in range(4):
    coord = p // 2
    sign = 1.0 if p % 2 == 0 else -1.0
    nvert, swapped = _clip_half_plane(
      cur, spare, dist, nvert, coord, sign, sizeref[ax] if coord == 0 else sizeref[ay]
    )
    if swapped:
      cur, spare = spare, cur

  # vertices within the margin, without near-duplicates (raw x, y, z in con[k, 1:4])
  naccept = 0
  dupe2 = _DUPEPS * (sizeref[ax] * sizeref[ax] + sizeref[ay] * sizeref[ay])
  for k in range(nvert):
    if cur[k, 2] > margin:
      continue
    dupe = False
    for q in range(naccept):
      dx = con[q, 1] - cur[k, 0]
      dy = con[q, 2] - cur[k, 1]
      if dx * dx + dy * dy < dupe2:
        dupe = True
        break
    if not dupe:
      for c in range(3):
        con[naccept, 1 + c] = cur[k, c]
      naccept += 1

  # normal from geom 1 to geom 2 along the reference face axis
  nsign = sgn if ref1 else -sgn
  nx = nsign * matref[a]
  ny = nsign * matref[3 + a]
  nz = nsign * matref[6 + a]

  # contacts: clipped position, midway between the face plane and the incident surface
  for k in range(naccept):
    v0 = con[k, 1]
    v1 = con[k, 2]
    v2 = con[k, 3]
    q0 = v0
    q1 = v1
    q2 = sgn * (sizeref[a] + 0.5 * v2)
    pa0 = q0 if ax == 0 else (q1 if ay == 0 else q2)
    pa1 = q0 if ax == 1 else (q1 if ay == 1 else q2)
    pa2 = q0 if ax == 2 else (q1 if ay == 2 else q2)
    set_contact(
      con,
      k,
      v2,
      matref[0] * pa0 + matref[1] * pa1 + matref[2] * pa2 + posref[0],
      matref[3] * pa0 + matref[4] * pa1 + matref[5] * pa2 + posref[1],
      matref[6] * pa0 + matref[7] * pa1 + matref[8] * pa2 + posref[2],
      nx,
      ny,
      nz,
      0.0,
      0.0,
      0.0,
    )
  return naccept


@stage(M, D, i8, i8, f8, mat, restype=i8, needed=BOX_PAIRS)
def collide_box_box(m, d, g1, g2, margin, con):
  """Port of mjc_BoxBox, engine_collision_box.c (MuJoCo 3.17's separating-axis collider).

  Separating axis test over the 6 face normals and 9 edge-edge cross products (faces win
  near-ties: an edge axis must beat them by a relative 1e-6, and one within ~8 degrees of the
  best face normal must beat it by 5%). A face axis gives the clipped incident face (up to 8
  contacts), an edge axis one contact between the supporting edges.
  """
  pos1 = d.geom_xpos[g1]
  mat1 = d.geom_xmat[g1]
  size1 = m.geom_size[g1]
  pos2 = d.geom_xpos[g2]
  mat2 = d.geom_xmat[g2]
  size2 = m.geom_size[g2]
  rot = con[_VEC, 0:9]
  w = con[_VEC + 1]
  pos21 = w[9:12]
  w = con[_VEC + 4]
  pos12 = w[6:9]
  tmp = w[9:12]

  # relative poses: rot has box-2 axes in the box-1 frame (columns)
  for k in range(3):
    tmp[k] = pos2[k] - pos1[k]
  mju_mulMatTVec3(pos21, mat1, tmp)
  for k in range(3):
    tmp[k] = pos1[k] - pos2[k]
  mju_mulMatTVec3(pos12, mat2, tmp)
  mju_mulMatTMat3(rot, mat1, mat2)

  # separation tests carry rounding slack, so barely overlapping boxes still collide
  septol = margin + _SEPEPS * (size1[0] + size1[1] + size1[2] + size2[0] + size2[1] + size2[2])

  # face axes of box 1 (codes 0-2) and box 2 (codes 3-5): largest separation
  sep_best = -mjMAXVAL
  code = -1
  for i in range(3):
    radius2 = (
      abs(rot[3 * i]) * size2[0] + abs(rot[3 * i + 1]) * size2[1] + abs(rot[3 * i + 2]) * size2[2]
    )
    sep = abs(pos21[i]) - size1[i] - radius2
    if sep > septol:
      return 0
    if sep > sep_best:
      sep_best = sep
      code = i
  for j in range(3):
    radius1 = abs(rot[j]) * size1[0] + abs(rot[3 + j]) * size1[1] + abs(rot[6 + j]) * size1[2]
    sep = abs(pos12[j]) - size2[j] - radius1
    if sep > septol:
      return 0
    if sep > sep_best:
      sep_best = sep
      code = 3 + j
  sep_face = sep_best
  code_face = code

  # edge-cross axes e_i x (column j of rot) (codes 6 + 3i + j), biased against on ties
  for i in range(3):
    for j in range(3):
      i1 = (i + 1) % 3
      i2 = (i + 2) % 3
      ax1 = -rot[3 * i2 + j]
      ax2 = rot[3 * i1 + j]
      norm2 = ax1 * ax1 + ax2 * ax2
      if norm2 < _PAREPS:
        continue  # nearly parallel edges: covered by the face axes
      inv = 1 / math.sqrt(norm2)
      ax1 *= inv
      ax2 *= inv
      radius1 = size1[i1] * abs(ax1) + size1[i2] * abs(ax2)
      j1 = (j + 1) % 3
      j2 = (j + 2) % 3
      b1 = ax1 * rot[3 * i1 + j1] + ax2 * rot[3 * i2 + j1]
      b2 = ax1 * rot[3 * i1 + j2] + ax2 * rot[3 * i2 + j2]
      radius2 = size2[j1] * abs(b1) + size2[j2] * abs(b2)
      sep = abs(ax1 * pos21[i1] + ax2 * pos21[i2]) - radius1 - radius2
      if sep > septol:
        return 0
      if sep - _EDGEBIAS * abs(sep) > sep_best and sep > sep_face:
        sep_best = sep
        code = 6 + 3 * i + j

  if code < 0:
    return 0

  # an edge axis within ~8 degrees of the best face normal loses unless 5% deeper
  if code >= 6:
    axis = con[_VEC + 2, 0:3]
    i = (code - 6) // 3
    j = (code - 6) % 3
    i1 = (i + 1) % 3
    i2 = (i + 2) % 3
    axis[i] = 0.0
    axis[i1] = -rot[3 * i2 + j]
    axis[i2] = rot[3 * i1 + j]
    mju_normalize3(axis)
    if code_face < 3:
      face_dot = abs(axis[code_face])
    else:
      f = code_face - 3
      face_dot = abs(axis[0] * rot[f] + axis[1] * rot[3 + f] + axis[2] * rot[6 + f])
    if face_dot > 0.99 and sep_best < sep_face + 0.05 * abs(sep_face) + mjMINVAL:
      code = code_face

  if code >= 6:
    return _box_box_edge(con, code, septol, pos1, mat1, size1, size2, rot, pos21)
  return _box_box_face(con, code, margin, pos1, mat1, size1, pos2, mat2, size2, rot, pos21, pos12)
