"""Multi-contact manifold (mjc_multicontact, engine_collision_gjk.c, MuJoCo 3.17).

From the vertex indices of the contact features (the EPA face, or the GJK simplex of a shallow
contact) each geom's touching feature is classified as a vertex, edge or face. When a face of
each geom is aligned (normals opposite within about 5 degrees, facing along the contact
direction), one face polygon is clipped against the other; otherwise a face and an edge
perpendicular to its normal are clipped. Each clipped point on the penetrating side becomes a
contact with its own depth; more than 4 points are reduced to the largest quadrilateral, and an
edge keeps its two farthest points. Contacts are then moved out by half the geom margins.

Box, cylinder (caps as 16-gons), capsule (axis segment) and mesh features take part; other
types keep the single contact.
"""

import math

from engine._jit import jit
from engine._stage import CONVEX_OR_HFIELD
from engine._stage import M
from engine._stage import i8
from engine._stage import ivec
from engine._stage import stage
from engine._stage import vec
from engine.collision.ccdobj import FV
from engine.collision.ccdobj import FVI
from engine.collision.ccdobj import IG
from engine.collision.ccdobj import IT
from engine.collision.ccdobj import O1
from engine.collision.ccdobj import O1I
from engine.collision.ccdobj import O2
from engine.collision.ccdobj import O2I
from engine.collision.ccdobj import OMG
from engine.collision.ccdobj import PT0
from engine.collision.ccdobj import S_MAXCON
from engine.collision.ccdobj import ST_D
from engine.collision.ccdobj import ST_X1
from engine.collision.ccdobj import ST_X2
from engine.collision.features import box_edge_normals
from engine.collision.features import box_face
from engine.collision.features import box_normals
from engine.collision.features import capsule_edge_normals
from engine.collision.features import cylinder_edge_normals
from engine.collision.features import cylinder_face
from engine.collision.features import cylinder_normals
from engine.collision.features import dot3_at
from engine.collision.features import mesh_edge_normals
from engine.collision.features import mesh_face
from engine.collision.features import mesh_normals
from engine.collision.features import mjEDGE_TOL
from engine.collision.features import mjFACE_TOL
from engine.collision.features import mjMAX_POLYVERT
from engine.collision.features import set3
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_MESH
from engine.enums import mjMAXCONPAIR
from engine.enums import mjMINVAL

# float layout (the polytope area is free once the features are copied to FV)
MC_F1 = PT0
MC_F2 = MC_F1 + 3 * mjMAX_POLYVERT
MC_EV = MC_F2 + 3 * mjMAX_POLYVERT
MC_N1 = MC_EV + 3 * mjMAX_POLYVERT
MC_N2 = MC_N1 + 3 * mjMAX_POLYVERT
MC_PN = MC_N2 + 3 * mjMAX_POLYVERT
MC_PD = MC_PN + 3 * mjMAX_POLYVERT
MC_P1 = MC_PD + mjMAX_POLYVERT
MC_P2 = MC_P1 + 6 * mjMAX_POLYVERT
MC_END = MC_P2 + 6 * mjMAX_POLYVERT

# int layout
MC_IDX1 = 72
MC_IDX2 = MC_IDX1 + mjMAX_POLYVERT


# ---- polygon clipping ----


@jit
def _area4(F, a, b, c, d):
  """Port of area4: area of the quadrilateral a b c d from its diagonals."""
  ca0 = F[a] - F[c]
  ca1 = F[a + 1] - F[c + 1]
  ca2 = F[a + 2] - F[c + 2]
  db0 = F[b] - F[d]
  db1 = F[b + 1] - F[d + 1]
  db2 = F[b + 2] - F[d + 2]
  x0 = ca1 * db2 - ca2 * db1
  x1 = ca2 * db0 - ca0 * db2
  x2 = ca0 * db1 - ca1 * db0
  return 0.5 * math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)


@jit
def hull4(F, poly, nvert):
  """Port of hull4 (polygonQuad): indices of a maximum-area quadrilateral of the polygon."""
  a, b, c, d = 0, 1, 2, 3
  r0, r1, r2, r3 = 0, 1, 2, 3
  mm = _area4(F, poly, poly + 3, poly + 6, poly + 9)
  while a < nvert:
    while True:
      d_next = (d + 1) % nvert
      m_next = _area4(F, poly + 3 * a, poly + 3 * b, poly + 3 * c, poly + 3 * d_next)
      if m_next <= mm:
        break
      d = d_next
      mm = m_next
      r0, r1, r2, r3 = a, b, c, d
      while True:
        c_next = (c + 1) % nvert
        m_next = _area4(F, poly + 3 * a, poly + 3 * b, poly + 3 * c_next, poly + 3 * d)
        if m_next <= mm:
          break
        c = c_next
        mm = m_next
        r0, r1, r2, r3 = a, b, c, d
      while True:
        b_next = (b + 1) % nvert
        m_next = _area4(F, poly + 3 * a, poly + 3 * b_next, poly + 3 * c, poly + 3 * d)
        if m_next <= mm:
          break
        b = b_next
        mm = m_next
        r0, r1, r2, r3 = a, b, c, d
    if b == a:
      b = (b + 1) % nvert
      if c == b:
        c = (c + 1) % nvert
        if d == c:
          d = (d + 1) % nvert
    a += 1
  return r0, r1, r2, r3


@jit
def _witness(F, i, p, face1, n, w0, w1, w2):
  """Port of witnessOnFace: contact i at clipped point p: x1 is p projected onto face1's plane
  along n, x2 = x1 + dist * w with dist the plane distance projected on the direction w."""
  dist = (
    (F[p] - F[face1]) * F[n]
    + (F[p + 1] - F[face1 + 1]) * F[n + 1]
    + (F[p + 2] - F[face1 + 2]) * F[n + 2]
  )
  a0 = F[p] - dist * F[n]
  a1 = F[p + 1] - dist * F[n + 1]
  a2 = F[p + 2] - dist * F[n + 2]
  dist = dist * (F[n] * w0 + F[n + 1] * w1 + F[n + 2] * w2)
  set3(F, ST_X1 + 3 * i, a0, a1, a2)
  set3(F, ST_X2 + 3 * i, a0 + dist * w0, a1 + dist * w1, a2 + dist * w2)
  F[ST_D + i] = dist


@jit
def polygon_clip(F, I, face1, nface1, face2, nface2, n, w0, w1, w2, margin):
  """Port of polygonClip: clips polygon face2 by the edge planes of face1 (normal n) and makes
  contacts from the points behind face1 or within the margin of it; returns their number."""
  if nface1 < 3:
    return 0
  pn = MC_PN
  pd = MC_PD

  # unit edge planes of face1 (planeNormal)
  for i in range(nface1):
    v1 = face1 + 3 * i
    v2 = face1 + 3 * (i + 1) if i < nface1 - 1 else face1
    a0 = F[v2] - F[v1]
    a1 = F[v2 + 1] - F[v1 + 1]
    a2 = F[v2 + 2] - F[v1 + 2]
    b0 = (F[v1] + F[n]) - F[v1]
    b1 = (F[v1 + 1] + F[n + 1]) - F[v1 + 1]
    b2 = (F[v1 + 2] + F[n + 2]) - F[v1 + 2]
    c0 = a1 * b2 - a2 * b1
    c1 = a2 * b0 - a0 * b2
    c2 = a0 * b1 - a1 * b0
    norm = math.sqrt(c0 * c0 + c1 * c1 + c2 * c2)
    if norm < mjMINVAL:
      c0, c1, c2 = 1.0, 0.0, 0.0
    else:
      inv = 1 / norm
      c0 *= inv
      c1 *= inv
      c2 *= inv
    p = pn + 3 * i
    set3(F, p, c0, c1, c2)
    F[pd + i] = c0 * F[v1] + c1 * F[v1 + 1] + c2 * F[v1 + 2]

  # clip by one edge at a time
  polygon = MC_P1
  clipped = MC_P2
  npolygon = nface2
  nclipped = 0
  for i in range(3 * nface2):
    F[polygon + i] = F[face2 + i]
  for e in range(nface1):
    ea = face1 + 3 * e
    en = pn + 3 * e
    for i in range(npolygon):
      P = polygon + 3 * i
      Q = polygon + 3 * (i + 1) if i < npolygon - 1 else polygon
      pq0 = F[Q] - F[P]
      pq1 = F[Q + 1] - F[P + 1]
      pq2 = F[Q + 2] - F[P + 2]
      inside1 = (
        (F[P] - F[ea]) * F[en]
        + (F[P + 1] - F[ea + 1]) * F[en + 1]
        + (F[P + 2] - F[ea + 2]) * F[en + 2]
      ) > -mjMINVAL
      inside2 = (
        (F[Q] - F[ea]) * F[en]
        + (F[Q + 1] - F[ea + 1]) * F[en + 1]
        + (F[Q + 2] - F[ea + 2]) * F[en + 2]
      ) > -mjMINVAL
      if not inside1 and not inside2:
        continue
      if nclipped >= 2 * mjMAX_POLYVERT - 1:
        continue
      if inside1 and inside2:
        set3(F, clipped + 3 * nclipped, F[Q], F[Q + 1], F[Q + 2])
        nclipped += 1
        continue

      # intersection of PQ with the edge plane
      tmp = F[en] * pq0 + F[en + 1] * pq1 + F[en + 2] * pq2
      if tmp != 0.0:
        t = (F[pd + e] - (F[en] * F[P] + F[en + 1] * F[P + 1] + F[en + 2] * F[P + 2])) / tmp
        if t >= 0.0 and t <= 1.0:
          set3(F, clipped + 3 * nclipped, F[P] + t * pq0, F[P + 1] + t * pq1, F[P + 2] + t * pq2)
          nclipped += 1
      if inside2:
        set3(F, clipped + 3 * nclipped, F[Q], F[Q + 1], F[Q + 2])
        nclipped += 1
    polygon, clipped = clipped, polygon
    npolygon = nclipped
    nclipped = 0

  # keep the points behind face1 (or within the margin)
  m = npolygon
  npolygon = 0
  for i in range(m):
    p = polygon + 3 * i
    if (
      (F[p] - F[face1]) * F[n]
      + (F[p + 1] - F[face1 + 1]) * F[n + 1]
      + (F[p + 2] - F[face1 + 2]) * F[n + 2]
    ) <= margin:
      if npolygon != i:
        set3(F, polygon + 3 * npolygon, F[p], F[p + 1], F[p + 2])
      npolygon += 1
  if npolygon < 1:
    return 0

  # largest quadrilateral
  if I[S_MAXCON] < 5 and npolygon > 4:
    q0, q1, q2, q3 = hull4(F, polygon, npolygon)
    for i in range(4):
      q = q0 if i == 0 else (q1 if i == 1 else (q2 if i == 2 else q3))
      _witness(F, i, polygon + 3 * q, face1, n, w0, w1, w2)
    return 4

  # clipped edge: its two farthest points
  if nface2 == 2 and npolygon > 2:
    best1 = 0
    best2 = 1
    dd = 0.0
    for i in range(npolygon):
      for j in range(i + 1, npolygon):
        e0 = F[polygon + 3 * j] - F[polygon + 3 * i]
        e1 = F[polygon + 3 * j + 1] - F[polygon + 3 * i + 1]
        e2 = F[polygon + 3 * j + 2] - F[polygon + 3 * i + 2]
        d2 = e0 * e0 + e1 * e1 + e2 * e2
        if d2 > dd:
          dd = d2
          best1 = i
          best2 = j
    _witness(F, 0, polygon + 3 * best1, face1, n, w0, w1, w2)
    _witness(F, 1, polygon + 3 * best2, face1, n, w0, w1, w2)
    return 2

  # all points
  npolygon = min(npolygon, mjMAXCONPAIR)
  for i in range(npolygon):
    _witness(F, i, polygon + 3 * i, face1, n, w0, w1, w2)
  return npolygon


# ---- manifold ----


@jit
def _simplex_dim(I, o):
  """Port of simplexDim: dimension (1-3) of the feature with vertex indices at I[o:o+3] (the
  third replaces a repeated second); returns the dimension and the slot of its second point."""
  a = I[o]
  b = I[o + 1]
  c = I[o + 2]
  if a == b:
    if a == c:
      return 1, 1
    return 2, 2
  return (2 if (c == a or c == b) else 3), 1


@jit
def _normals(F, m, I, o, oi, res, resind, dim, i1, i2, i3, d0, d1, d2):
  """Candidate face normals of a geom's feature (boxNormals, meshNormals, cylinder caps)."""
  t = I[oi + IT]
  if t == mjGEOM_BOX:
    return box_normals(F, I, o, res, resind, dim, i1, i2, i3, d0, d1, d2)
  if t == mjGEOM_MESH:
    return mesh_normals(F, m, I, o, oi, res, resind, dim, i1, i2, i3)
  if t == mjGEOM_CYLINDER:
    return cylinder_normals(F, I, o, res, resind, dim, i1)
  return 0


@jit
def _edge_normals(F, m, I, o, oi, res, endverts, dim, v1, v2, v1i, wit):
  """Edge directions at a geom's vertex or edge feature; the first point is v1 (a capsule's
  segment runs through its witness point wit, and v1 becomes its start)."""
  t = I[oi + IT]
  if t == mjGEOM_BOX:
    return box_edge_normals(F, o, res, endverts, dim, v1, v2, v1i)
  if t == mjGEOM_MESH:
    return mesh_edge_normals(F, m, I, o, oi, res, endverts, dim, v1, v2, v1i)
  if t == mjGEOM_CYLINDER:
    return cylinder_edge_normals(F, I, o, oi, res, endverts, v1, v1i)
  if t == mjGEOM_CAPSULE:
    return capsule_edge_normals(F, o, res, endverts, v1, wit)
  return 0


@jit
def _face(F, m, I, o, oi, res, idx):
  """Polygon of a geom's face index (boxFace, meshFace, cylinderFace)."""
  t = I[oi + IT]
  if t == mjGEOM_BOX:
    return box_face(F, o, res, idx)
  if t == mjGEOM_MESH:
    return mesh_face(F, m, I, o, oi, res, idx)
  if t == mjGEOM_CYLINDER:
    return cylinder_face(F, o, res, idx)
  return 0


@jit
def _aligned_faces(F, n1, nn1, n2, nn2, dir0, dir1, dir2):
  """The most opposite pair of face normals (within the face tolerance), geom1's facing
  against and geom2's along the contact direction."""
  thr = math.sqrt(dir0 * dir0 + dir1 * dir1 + dir2 * dir2) * mjEDGE_TOL
  best = -mjFACE_TOL
  found = False
  bi = 0
  bj = 0
  for i in range(nn1):
    a = n1 + 3 * i
    if F[a] * dir0 + F[a + 1] * dir1 + F[a + 2] * dir2 >= -thr:
      continue
    for j in range(nn2):
      b = n2 + 3 * j
      if thr >= F[b] * dir0 + F[b + 1] * dir1 + F[b + 2] * dir2:
        continue
      c = F[a] * F[b] + F[a + 1] * F[b + 1] + F[a + 2] * F[b + 2]
      if best > c:
        found = True
        best = c
        bi = i
        bj = j
  return found, bi, bj


@jit
def _aligned_face_edge(F, edge, nedge, face, nface, dir0, dir1, dir2):
  """Port of alignedFaceEdge: an edge (j) perpendicular to a face normal (i) that faces along
  the direction."""
  for i in range(nface):
    f = face + 3 * i
    if F[f] * dir0 + F[f + 1] * dir1 + F[f + 2] * dir2 <= mjMINVAL:
      continue
    for j in range(nedge):
      if abs(dot3_at(F, edge + 3 * j, f)) < mjEDGE_TOL:
        return True, j, i
  return False, 0, 0


@jit
def _inflate_all(F, nx, margin1, margin2, n0, n1, n2):
  """inflate: moves the nx witness pairs out by the half margins along the normal."""
  if margin1 == 0 and margin2 == 0:
    return
  for i in range(nx):
    if margin1 != 0:
      F[ST_X1 + 3 * i] += margin1 * n0
      F[ST_X1 + 3 * i + 1] += margin1 * n1
      F[ST_X1 + 3 * i + 2] += margin1 * n2
    if margin2 != 0:
      F[ST_X2 + 3 * i] += -margin2 * n0
      F[ST_X2 + 3 * i + 1] += -margin2 * n1
      F[ST_X2 + 3 * i + 2] += -margin2 * n2
    F[ST_D + i] -= margin1 + margin2


@stage(M, vec, ivec, restype=i8, needed=CONVEX_OR_HFIELD)
def multicontact(m, F, I):
  """Port of mjc_multicontact (engine_collision_gjk.c, MuJoCo 3.17): contact manifold from the
  features in FV/FVI and the status witness points; returns the number of contacts (1 keeps
  the single contact)."""
  t1 = I[O1I + IT]
  t2 = I[O2I + IT]
  if not (t1 == mjGEOM_BOX or t1 == mjGEOM_MESH or t1 == mjGEOM_CYLINDER or t1 == mjGEOM_CAPSULE):
    return 1
  if not (t2 == mjGEOM_BOX or t2 == mjGEOM_MESH or t2 == mjGEOM_CYLINDER or t2 == mjGEOM_CAPSULE):
    return 1

  # feature vertex indices (I[MC_IDX...] as scratch) and dimensions
  for q in range(3):
    I[MC_IDX1 + q] = I[FVI + 2 * q]
    I[MC_IDX2 + q] = I[FVI + 2 * q + 1]
  dim1, s1 = _simplex_dim(I, MC_IDX1)
  dim2, s2 = _simplex_dim(I, MC_IDX2)
  i11 = I[MC_IDX1]
  i12 = I[MC_IDX1 + s1]
  i13 = I[MC_IDX1 + 2]
  i21 = I[MC_IDX2]
  i22 = I[MC_IDX2 + s2]
  i23 = I[MC_IDX2 + 2]
  v11 = FV + 3
  v12 = FV + 9 * s1 + 3
  v21 = FV + 6
  v22 = FV + 9 * s2 + 6

  dir0 = F[ST_X2] - F[ST_X1]
  dir1 = F[ST_X2 + 1] - F[ST_X1 + 1]
  dir2 = F[ST_X2 + 2] - F[ST_X1 + 2]

  # candidate face normals of each geom
  nn1 = _normals(F, m, I, O1, O1I, MC_N1, MC_IDX1, dim1, i11, i12, i13, -dir0, -dir1, -dir2)
  nn2 = _normals(F, m, I, O2, O2I, MC_N2, MC_IDX2, dim2, i21, i22, i23, dir0, dir1, dir2)

  # aligned faces, else a face and an edge
  edgecon1 = False
  edgecon2 = False
  found = False
  i = 0
  j = 0
  if nn1 > 0 and nn2 > 0:
    found, i, j = _aligned_faces(F, MC_N1, nn1, MC_N2, nn2, dir0, dir1, dir2)
  if not found:
    if dim1 != 3 and nn2 != 0 and (dim1 <= dim2 or nn1 == 0):
      nn1 = _edge_normals(F, m, I, O1, O1I, MC_N1, MC_EV, dim1, v11, v12, i11, ST_X1)
      found, i, j = _aligned_face_edge(F, MC_N1, nn1, MC_N2, nn2, dir0, dir1, dir2)
      if not found:
        return 1
      edgecon1 = True
    elif dim2 != 3 and nn1 != 0:
      nn2 = _edge_normals(F, m, I, O2, O2I, MC_N2, MC_EV, dim2, v21, v22, i21, ST_X2)
      found, i, j = _aligned_face_edge(F, MC_N2, nn2, MC_N1, nn1, -dir0, -dir1, -dir2)
      if not found:
        return 1
      edgecon2 = True
    else:
      return 1

  # geom1's edge or face
  if edgecon1:
    set3(F, MC_F1, F[v11], F[v11 + 1], F[v11 + 2])
    set3(F, MC_F1 + 3, F[MC_EV + 3 * i], F[MC_EV + 3 * i + 1], F[MC_EV + 3 * i + 2])
    nface1 = 2
  else:
    nface1 = _face(F, m, I, O1, O1I, MC_F1, I[MC_IDX1 + (j if edgecon2 else i)])

  # geom2's edge or face
  if edgecon2:
    set3(F, MC_F2, F[v21], F[v21 + 1], F[v21 + 2])
    set3(F, MC_F2 + 3, F[MC_EV + 3 * i], F[MC_EV + 3 * i + 1], F[MC_EV + 3 * i + 2])
    nface2 = 2
  else:
    nface2 = _face(F, m, I, O2, O2I, MC_F2, I[MC_IDX2 + j])

  # half margins (capsules carry theirs in the witness points)
  m1 = 0.0
  m2 = 0.0
  if I[O1I + IG] >= 0 and t1 != mjGEOM_CAPSULE:
    m1 = 0.5 * F[O1 + OMG]
  if I[O2I + IG] >= 0 and t2 != mjGEOM_CAPSULE:
    m2 = 0.5 * F[O2 + OMG]
  mtot = m1 + m2

  # clip, contacts with their depths
  if edgecon1:
    nrm = MC_N2 + 3 * j
    nx = polygon_clip(F, I, MC_F2, nface2, MC_F1, nface1, nrm, F[nrm], F[nrm + 1], F[nrm + 2], mtot)
    for k in range(nx):
      for q in range(3):
        tmp = F[ST_X1 + 3 * k + q]
        F[ST_X1 + 3 * k + q] = F[ST_X2 + 3 * k + q]
        F[ST_X2 + 3 * k + q] = tmp
    n0, n1, n2 = -F[nrm], -F[nrm + 1], -F[nrm + 2]
  elif edgecon2:
    nrm = MC_N1 + 3 * j
    nx = polygon_clip(F, I, MC_F1, nface1, MC_F2, nface2, nrm, F[nrm], F[nrm + 1], F[nrm + 2], mtot)
    n0, n1, n2 = F[nrm], F[nrm + 1], F[nrm + 2]
  else:
    nrm = MC_N1 + 3 * i
    w = MC_N2 + 3 * j
    nx = polygon_clip(F, I, MC_F1, nface1, MC_F2, nface2, nrm, -F[w], -F[w + 1], -F[w + 2], mtot)
    n0, n1, n2 = F[nrm], F[nrm + 1], F[nrm + 2]
  if nx <= 0:
    return 1
  _inflate_all(F, nx, m1, m2, n0, n1, n2)
  return nx
