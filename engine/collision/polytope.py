"""The EPA polytope: storage, faces, horizon, and the initial polytopes built from a GJK
simplex (engine_collision_gjk.c, MuJoCo 3.17).

The polytope lives in the workspace after the GJK status (layout in engine/collision/ccdobj.py):
vertices (9 floats each: vert, vert1, vert2; 2 ints: vertex indices of the two objects), faces
(11 floats each: 3 vertex ids, 3 adjacent faces, map index, projection v of the origin, its
squared norm), the face map and the horizon (ints). Face normals are oriented away from the
polytope's initial center, as MuJoCo 3.17 does.
"""

import math

from engine._jit import jit
from engine.collision.ccdobj import GJK_TMP
from engine.collision.ccdobj import PT0
from engine.collision.ccdobj import PTI0
from engine.collision.ccdobj import S_NSIMP
from engine.collision.ccdobj import S_SVI
from engine.collision.ccdobj import ST_D
from engine.collision.ccdobj import ST_SV
from engine.collision.ccdobj import minkowski_support
from engine.collision.ccdobj import mjMAX_LIMIT
from engine.collision.ccdobj import mjMINVAL2
from engine.collision.gjk import project_origin_plane
from engine.enums import mjMINVAL

# EPA status codes (mjEPAStatus)
mjEPA_P2_NONCONVEX = 2
mjEPA_P3_BAD_NORMAL = 4
mjEPA_P3_INVALID_V4 = 5
mjEPA_P3_INVALID_V5 = 6
mjEPA_P3_MISSING_ORIGIN = 7
mjEPA_P3_ORIGIN_ON_FACE = 8
mjEPA_P4_MISSING_ORIGIN = 9

# int layout: polytope counters and addresses
P_NV = 56
P_NF = 57
P_NMAP = 58
P_NE = 59
P_MAXF = 60
P_FB = 61
P_MAP = 62
P_HI = 63
P_HE = 64
P_W = 65

# face record (floats)
FC_V = 0
FC_ADJ = 3
FC_IDX = 6
FC_P = 7
FC_D2 = 10
FSIZE = 11

# polytope center (floats; the gjkIntersect scratch is free during EPA)
PC = GJK_TMP


# ---- polytope access ----


@jit
def _vf(v):
  """Float offset of polytope vertex v."""
  return PT0 + 9 * v


@jit
def _ff(I, f):
  """Float offset of polytope face f."""
  return I[P_FB] + FSIZE * f


@jit
def _fvert(F, I, f, k):
  """Vertex k of face f."""
  return int(F[I[P_FB] + FSIZE * f + FC_V + k])


@jit
def _fadj(F, I, f, k):
  """Adjacent face k of face f."""
  return int(F[I[P_FB] + FSIZE * f + FC_ADJ + k])


@jit
def _findex(F, I, f):
  """Map index of face f (-1 not in map, -2 deleted)."""
  return int(F[I[P_FB] + FSIZE * f + FC_IDX])


@jit
def _insert_vertex(F, I, srcf, srci):
  """Port of insertVertex: copies a vertex (floats at srcf, ints at srci), returns its id."""
  n = I[P_NV]
  I[P_NV] = n + 1
  for k in range(9):
    F[PT0 + 9 * n + k] = F[srcf + k]
  I[PTI0 + 2 * n] = I[srci]
  I[PTI0 + 2 * n + 1] = I[srci + 1]
  return n


@jit
def _epa_support(m, F, I, d0, d1, d2, dnorm):
  """Port of epaSupport: new polytope vertex from the support in direction d/|d|."""
  e0, e1, e2 = 1.0, 0.0, 0.0
  n0, n1, n2 = -1.0, 0.0, 0.0
  if dnorm > mjMINVAL:
    e0 = d0 / dnorm
    e1 = d1 / dnorm
    e2 = d2 / dnorm
    n0 = -e0
    n1 = -e1
    n2 = -e2
  n = I[P_NV]
  I[P_NV] = n + 1
  minkowski_support(m, F, I, PT0 + 9 * n, PTI0 + 2 * n, e0, e1, e2, n0, n1, n2)
  return n


@jit
def _attach_face(F, I, v1, v2, v3, adj1, adj2, adj3):
  """Port of attachFace: appends a face, returns its squared distance to the origin (0 when
  the origin's projection cannot be computed)."""
  f = I[P_NF]
  I[P_NF] = f + 1
  b = I[P_FB] + FSIZE * f
  F[b + FC_V] = v1
  F[b + FC_V + 1] = v2
  F[b + FC_V + 2] = v3
  F[b + FC_ADJ] = adj1
  F[b + FC_ADJ + 1] = adj2
  F[b + FC_ADJ + 2] = adj3

  # projection of the origin on the face
  a = _vf(v3)
  c = _vf(v2)
  e = _vf(v1)
  fail, p0, p1, p2 = project_origin_plane(
    F[a], F[a + 1], F[a + 2], F[c], F[c + 1], F[c + 2], F[e], F[e + 1], F[e + 2]
  )
  if fail:
    return 0.0

  # orient the projection away from the polytope center
  if (p0 * (F[e] - F[PC]) + p1 * (F[e + 1] - F[PC + 1]) + p2 * (F[e + 2] - F[PC + 2])) < 0:
    p0 = -1 * p0
    p1 = -1 * p1
    p2 = -1 * p2
  F[b + FC_P] = p0
  F[b + FC_P + 1] = p1
  F[b + FC_P + 2] = p2
  dist2 = p0 * p0 + p1 * p1 + p2 * p2
  F[b + FC_D2] = dist2
  F[b + FC_IDX] = -1
  return dist2


@jit
def _map_add(F, I, f):
  """Stores face f in the map."""
  i = I[P_NMAP]
  I[P_NMAP] = i + 1
  I[I[P_MAP] + i] = f
  F[_ff(I, f) + FC_IDX] = i


@jit
def _delete_face(F, I, f):
  """Port of deleteFace: removes face f from the map and marks it deleted."""
  idx = _findex(F, I, f)
  if idx >= 0:
    I[P_NMAP] -= 1
    last = I[I[P_MAP] + I[P_NMAP]]
    I[I[P_MAP] + idx] = last
    F[_ff(I, last) + FC_IDX] = idx
  F[_ff(I, f) + FC_IDX] = -2


@jit
def _get_edge(F, I, f, vertex):
  """Port of getEdge: the edge of face f starting at vertex."""
  if _fvert(F, I, f, 0) == vertex:
    return 0
  if _fvert(F, I, f, 1) == vertex:
    return 1
  return 2


@jit
def _add_edge(I, index, edge):
  """Port of addEdge: appends a horizon edge."""
  n = I[P_NE]
  I[I[P_HE] + n] = edge
  I[I[P_HI] + n] = index
  I[P_NE] = n + 1


@jit
def _horizon_rec(F, I, f, e):
  """Port of horizonRec: deletes faces visible from w, recording the horizon; True if f was
  visible."""
  b = _ff(I, f)
  w = _vf(I[P_W])
  vis = F[b + FC_P] * F[w] + F[b + FC_P + 1] * F[w + 1] + F[b + FC_P + 2] * F[w + 2] - F[b + FC_D2]
  if vis > mjMINVAL:
    _delete_face(F, I, f)

    # the adjacent faces on the next two edges
    for k in range(1, 3):
      i = (e + k) % 3
      adj = _fadj(F, I, f, i)
      if _findex(F, I, adj) > -2:
        adj_edge = _get_edge(F, I, adj, _fvert(F, I, f, (i + 1) % 3))
        if not _horizon_rec(F, I, adj, adj_edge):
          _add_edge(I, adj, adj_edge)
    return True
  return False


@jit
def _horizon(F, I, f):
  """Port of horizon: the horizon seen from w, starting at face f."""
  _delete_face(F, I, f)

  # first edge
  adj = _fadj(F, I, f, 0)
  adj_edge = _get_edge(F, I, adj, _fvert(F, I, f, 1))
  if not _horizon_rec(F, I, adj, adj_edge):
    _add_edge(I, adj, adj_edge)

  # second edge
  adj = _fadj(F, I, f, 1)
  adj_edge = _get_edge(F, I, adj, _fvert(F, I, f, 2))
  if _findex(F, I, adj) > -2 and not _horizon_rec(F, I, adj, adj_edge):
    _add_edge(I, adj, adj_edge)

  # third edge
  adj = _fadj(F, I, f, 2)
  adj_edge = _get_edge(F, I, adj, _fvert(F, I, f, 0))
  if _findex(F, I, adj) > -2 and not _horizon_rec(F, I, adj, adj_edge):
    _add_edge(I, adj, adj_edge)


# ---- geometric predicates ----


@jit
def tri_affine_coord(v10, v11, v12, v20, v21, v22, v30, v31, v32, p0, p1, p2):
  """Port of triAffineCoord: affine coordinates of p on the triangle v1 v2 v3."""
  M_14 = v21 * v32 - v22 * v31 - v11 * v32 + v12 * v31 + v11 * v22 - v12 * v21
  M_24 = v20 * v32 - v22 * v30 - v10 * v32 + v12 * v30 + v10 * v22 - v12 * v20
  M_34 = v20 * v31 - v21 * v30 - v10 * v31 + v11 * v30 + v10 * v21 - v11 * v20

  # drop the axis with the largest projection
  mu1 = abs(M_14)
  mu2 = abs(M_24)
  mu3 = abs(M_34)
  if mu1 >= mu2 and mu1 >= mu3:
    M_max = M_14
    px, py, ax, ay, bx, by, cx, cy = p1, p2, v11, v12, v21, v22, v31, v32
  elif mu2 >= mu3:
    M_max = M_24
    px, py, ax, ay, bx, by, cx, cy = p0, p2, v10, v12, v20, v22, v30, v32
  else:
    M_max = M_34
    px, py, ax, ay, bx, by, cx, cy = p0, p1, v10, v11, v20, v21, v30, v31
  C31 = px * by + py * cx + bx * cy - px * cy - py * bx - cx * by
  C32 = px * cy + py * ax + cx * ay - px * ay - py * cx - ax * cy
  C33 = px * ay + py * bx + ax * by - px * by - py * ax - bx * ay
  return C31 / M_max, C32 / M_max, C33 / M_max


@jit
def _tri_point_intersect(F, a, b, c, p):
  """Port of triPointIntersect: point p (float offset) lies on triangle a b c."""
  l0, l1, l2 = tri_affine_coord(
    F[a],
    F[a + 1],
    F[a + 2],
    F[b],
    F[b + 1],
    F[b + 2],
    F[c],
    F[c + 1],
    F[c + 2],
    F[p],
    F[p + 1],
    F[p + 2],
  )
  if l0 < 0 or l1 < 0 or l2 < 0:
    return False
  r0 = F[a] * l0 + F[b] * l1 + F[c] * l2 - F[p]
  r1 = F[a + 1] * l0 + F[b + 1] * l1 + F[c + 1] * l2 - F[p + 1]
  r2 = F[a + 2] * l0 + F[b + 2] * l1 + F[c + 2] * l2 - F[p + 2]
  return math.sqrt(r0 * r0 + r1 * r1 + r2 * r2) < mjMINVAL


@jit
def _same_side(F, p0, p1, p2, p3):
  """Port of sameSide: the origin and p3 lie on the same side of plane p0 p1 p2."""
  a0 = F[p1] - F[p0]
  a1 = F[p1 + 1] - F[p0 + 1]
  a2 = F[p1 + 2] - F[p0 + 2]
  b0 = F[p2] - F[p0]
  b1 = F[p2 + 1] - F[p0 + 1]
  b2 = F[p2 + 2] - F[p0 + 2]
  n0 = a1 * b2 - a2 * b1
  n1 = a2 * b0 - a0 * b2
  n2 = a0 * b1 - a1 * b0
  dot1 = n0 * (F[p3] - F[p0]) + n1 * (F[p3 + 1] - F[p0 + 1]) + n2 * (F[p3 + 2] - F[p0 + 2])
  dot2 = n0 * (-F[p0]) + n1 * (-F[p0 + 1]) + n2 * (-F[p0 + 2])
  if dot1 > 0 and dot2 > 0:
    return True
  if dot1 < 0 and dot2 < 0:
    return True
  return False


@jit
def _test_tetra(F, p0, p1, p2, p3):
  """Port of testTetra: the origin lies in the tetrahedron."""
  return (
    _same_side(F, p0, p1, p2, p3)
    and _same_side(F, p1, p2, p3, p0)
    and _same_side(F, p2, p3, p0, p1)
    and _same_side(F, p3, p0, p1, p2)
  )


@jit
def _det3(a0, a1, a2, b0, b1, b2, c0, c1, c2):
  """det3: a . (b x c)."""
  return a0 * (b1 * c2 - b2 * c1) + a1 * (b2 * c0 - b0 * c2) + a2 * (b0 * c1 - b1 * c0)


@jit
def _ray_triangle(F, v1, v2, v3, v4, v5):
  """Port of rayTriangle: nonzero if the ray v1 v2 crosses triangle v3 v4 v5."""
  d12_0 = F[v2] - F[v1]
  d12_1 = F[v2 + 1] - F[v1 + 1]
  d12_2 = F[v2 + 2] - F[v1 + 2]
  d13_0 = F[v3] - F[v1]
  d13_1 = F[v3 + 1] - F[v1 + 1]
  d13_2 = F[v3 + 2] - F[v1 + 2]
  d14_0 = F[v4] - F[v1]
  d14_1 = F[v4 + 1] - F[v1 + 1]
  d14_2 = F[v4 + 2] - F[v1 + 2]
  d15_0 = F[v5] - F[v1]
  d15_1 = F[v5 + 1] - F[v1 + 1]
  d15_2 = F[v5 + 2] - F[v1 + 2]
  vol1 = _det3(d13_0, d13_1, d13_2, d14_0, d14_1, d14_2, d12_0, d12_1, d12_2)
  vol2 = _det3(d14_0, d14_1, d14_2, d15_0, d15_1, d15_2, d12_0, d12_1, d12_2)
  vol3 = _det3(d15_0, d15_1, d15_2, d13_0, d13_1, d13_2, d12_0, d12_1, d12_2)
  if vol1 >= 0 and vol2 >= 0 and vol3 >= 0:
    return 1
  if vol1 <= 0 and vol2 <= 0 and vol3 <= 0:
    return -1
  return 0


# ---- initial polytopes ----


@jit
def _replace_simplex3(F, I, v1, v2, v3):
  """Port of replaceSimplex3: the status simplex becomes polytope vertices v1 v2 v3, and the
  polytope is emptied."""
  I[S_NSIMP] = 3
  for q in range(3):
    v = v1 if q == 0 else (v2 if q == 1 else v3)
    for k in range(9):
      F[ST_SV + 9 * q + k] = F[PT0 + 9 * v + k]
    I[S_SVI + 2 * q] = I[PTI0 + 2 * v]
    I[S_SVI + 2 * q + 1] = I[PTI0 + 2 * v + 1]
  I[P_NF] = 0
  I[P_NV] = 0
  I[P_NMAP] = 0


@jit
def _fill_map(F, I, n):
  """Puts the first n faces in the map."""
  for i in range(n):
    I[I[P_MAP] + i] = i
    F[_ff(I, i) + FC_IDX] = i
  I[P_NMAP] = n


@jit
def _polytope2(m, F, I):
  """Port of polytope2: a hexahedron around a segment simplex (0 on success)."""
  a = ST_SV
  b = ST_SV + 9
  for k in range(3):
    F[PC + k] = 0.5 * (F[a + k] + F[b + k])
  df0 = F[b] - F[a]
  df1 = F[b + 1] - F[a + 1]
  df2 = F[b + 2] - F[a + 2]

  # coordinate axis with the smallest component
  value = mjMAX_LIMIT
  index = 0
  for i in range(3):
    c = df0 if i == 0 else (df1 if i == 1 else df2)
    if abs(c) < value:
      value = abs(c)
      index = i
  e0 = 1.0 if index == 0 else 0.0
  e1 = 1.0 if index == 1 else 0.0
  e2 = 1.0 if index == 2 else 0.0
  d10 = e1 * df2 - e2 * df1
  d11 = e2 * df0 - e0 * df2
  d12 = e0 * df1 - e1 * df0

  # rotation by 120 degrees about the segment (rotmat)
  n = math.sqrt(df0 * df0 + df1 * df1 + df2 * df2)
  u1 = df0 / n
  u2 = df1 / n
  u3 = df2 / n
  sn = 0.86602540378
  cs = -0.5
  R0 = cs + u1 * u1 * (1 - cs)
  R1 = u1 * u2 * (1 - cs) - u3 * sn
  R2 = u1 * u3 * (1 - cs) + u2 * sn
  R3 = u2 * u1 * (1 - cs) + u3 * sn
  R4 = cs + u2 * u2 * (1 - cs)
  R5 = u2 * u3 * (1 - cs) - u1 * sn
  R6 = u1 * u3 * (1 - cs) - u2 * sn
  R7 = u2 * u3 * (1 - cs) + u1 * sn
  R8 = cs + u3 * u3 * (1 - cs)
  d20 = R0 * d10 + R1 * d11 + R2 * d12
  d21 = R3 * d10 + R4 * d11 + R5 * d12
  d22 = R6 * d10 + R7 * d11 + R8 * d12
  d30 = R0 * d20 + R1 * d21 + R2 * d22
  d31 = R3 * d20 + R4 * d21 + R5 * d22
  d32 = R6 * d20 + R7 * d21 + R8 * d22

  # vertices
  v1i = _insert_vertex(F, I, ST_SV, S_SVI)
  v2i = _insert_vertex(F, I, ST_SV + 9, S_SVI + 2)
  v3i = _epa_support(m, F, I, d10, d11, d12, math.sqrt(d10 * d10 + d11 * d11 + d12 * d12))
  v4i = _epa_support(m, F, I, d20, d21, d22, math.sqrt(d20 * d20 + d21 * d21 + d22 * d22))
  v5i = _epa_support(m, F, I, d30, d31, d32, math.sqrt(d30 * d30 + d31 * d31 + d32 * d32))

  # hexahedron
  if _attach_face(F, I, v1i, v3i, v4i, 1, 3, 2) < mjMINVAL2:
    _replace_simplex3(F, I, v1i, v3i, v4i)
    return _polytope3(m, F, I)
  if _attach_face(F, I, v1i, v5i, v3i, 2, 4, 0) < mjMINVAL2:
    _replace_simplex3(F, I, v1i, v5i, v3i)
    return _polytope3(m, F, I)
  if _attach_face(F, I, v1i, v4i, v5i, 0, 5, 1) < mjMINVAL2:
    _replace_simplex3(F, I, v1i, v4i, v5i)
    return _polytope3(m, F, I)
  if _attach_face(F, I, v2i, v4i, v3i, 5, 0, 4) < mjMINVAL2:
    _replace_simplex3(F, I, v2i, v4i, v3i)
    return _polytope3(m, F, I)
  if _attach_face(F, I, v2i, v3i, v5i, 3, 1, 5) < mjMINVAL2:
    _replace_simplex3(F, I, v2i, v3i, v5i)
    return _polytope3(m, F, I)
  if _attach_face(F, I, v2i, v5i, v4i, 4, 2, 3) < mjMINVAL2:
    _replace_simplex3(F, I, v2i, v5i, v4i)
    return _polytope3(m, F, I)

  # convexity
  if _ray_triangle(F, _vf(v1i), _vf(v2i), _vf(v3i), _vf(v4i), _vf(v5i)) == 0:
    return mjEPA_P2_NONCONVEX
  _fill_map(F, I, 6)
  return 0


@jit
def _polytope3(m, F, I):
  """Port of polytope3: a hexahedron around a triangle simplex (0 on success)."""
  a = ST_SV
  b = ST_SV + 9
  c = ST_SV + 18
  for k in range(3):
    F[PC + k] = (F[a + k] + F[b + k] + F[c + k]) * (1.0 / 3.0)
  a0 = F[b] - F[a]
  a1 = F[b + 1] - F[a + 1]
  a2 = F[b + 2] - F[a + 2]
  b0 = F[c] - F[a]
  b1 = F[c + 1] - F[a + 1]
  b2 = F[c + 2] - F[a + 2]
  n0 = a1 * b2 - a2 * b1
  n1 = a2 * b0 - a0 * b2
  n2 = a0 * b1 - a1 * b0
  n_norm = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
  if n_norm < mjMINVAL:
    return mjEPA_P3_BAD_NORMAL

  # vertices
  v1i = _insert_vertex(F, I, ST_SV, S_SVI)
  v2i = _insert_vertex(F, I, ST_SV + 9, S_SVI + 2)
  v3i = _insert_vertex(F, I, ST_SV + 18, S_SVI + 4)
  v5i = _epa_support(m, F, I, -n0, -n1, -n2, n_norm)
  v4i = _epa_support(m, F, I, n0, n1, n2, n_norm)

  # the new vertices are off the triangle
  if _tri_point_intersect(F, a, b, c, _vf(v4i)):
    return mjEPA_P3_INVALID_V4
  if _tri_point_intersect(F, a, b, c, _vf(v5i)):
    return mjEPA_P3_INVALID_V5

  # origin enclosed (status dist is 0 here, as in MuJoCo)
  if (
    F[ST_D] > 10 * mjMINVAL
    and not _test_tetra(F, a, b, c, _vf(v4i))
    and not _test_tetra(F, a, b, c, _vf(v5i))
  ):
    return mjEPA_P3_MISSING_ORIGIN

  # hexahedron
  if _attach_face(F, I, v4i, v1i, v2i, 1, 3, 2) < mjMINVAL2:
    return mjEPA_P3_ORIGIN_ON_FACE
  if _attach_face(F, I, v4i, v3i, v1i, 2, 4, 0) < mjMINVAL2:
    return mjEPA_P3_ORIGIN_ON_FACE
  if _attach_face(F, I, v4i, v2i, v3i, 0, 5, 1) < mjMINVAL2:
    return mjEPA_P3_ORIGIN_ON_FACE
  if _attach_face(F, I, v5i, v2i, v1i, 5, 0, 4) < mjMINVAL2:
    return mjEPA_P3_ORIGIN_ON_FACE
  if _attach_face(F, I, v5i, v1i, v3i, 3, 1, 5) < mjMINVAL2:
    return mjEPA_P3_ORIGIN_ON_FACE
  if _attach_face(F, I, v5i, v3i, v2i, 4, 2, 3) < mjMINVAL2:
    return mjEPA_P3_ORIGIN_ON_FACE
  _fill_map(F, I, 6)
  return 0


@jit
def _polytope4(m, F, I):
  """Port of polytope4: the tetrahedron simplex as polytope (0 on success)."""
  v1 = _insert_vertex(F, I, ST_SV, S_SVI)
  v2 = _insert_vertex(F, I, ST_SV + 9, S_SVI + 2)
  v3 = _insert_vertex(F, I, ST_SV + 18, S_SVI + 4)
  v4 = _insert_vertex(F, I, ST_SV + 27, S_SVI + 6)
  for k in range(3):
    F[PC + k] = (F[_vf(v1) + k] + F[_vf(v2) + k] + F[_vf(v3) + k] + F[_vf(v4) + k]) * 0.25

  # origin on a face: use that face as a triangle simplex
  if _attach_face(F, I, v1, v2, v3, 1, 3, 2) < mjMINVAL2:
    _replace_simplex3(F, I, v1, v2, v3)
    return _polytope3(m, F, I)
  if _attach_face(F, I, v1, v4, v2, 2, 3, 0) < mjMINVAL2:
    _replace_simplex3(F, I, v1, v4, v2)
    return _polytope3(m, F, I)
  if _attach_face(F, I, v1, v3, v4, 0, 3, 1) < mjMINVAL2:
    _replace_simplex3(F, I, v1, v3, v4)
    return _polytope3(m, F, I)
  if _attach_face(F, I, v4, v3, v2, 2, 0, 1) < mjMINVAL2:
    _replace_simplex3(F, I, v4, v3, v2)
    return _polytope3(m, F, I)
  if not _test_tetra(F, _vf(v1), _vf(v2), _vf(v3), _vf(v4)):
    return mjEPA_P4_MISSING_ORIGIN
  _fill_map(F, I, 4)
  return 0
