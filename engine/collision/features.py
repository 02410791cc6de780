"""Contact features of boxes, cylinders, capsules and meshes for multi-contact
(engine_collision_gjk.c, MuJoCo 3.17): candidate face normals at the touching vertices, edge
directions, and face polygons in the world frame.

Vectors live in the workspace `F` at float offsets; index lists in `I`. Box corners are
indexed by bits (1: +x, 2: +y, 4: +z), cylinder points by cap (0 top, 1 bottom).

Mesh polygons are the merged convex-hull polygons the compiler stores in m.mesh_poly*
(engine/compiler/mesh.py make_polygons): normals and vertex cycles by mesh-local polygon id, and
per vertex the polygons containing it (m.mesh_polymap), as engine_collision_gjk.c reads them.
"""

import math

from engine._jit import jit
from engine.collision.ccdobj import IG
from engine.collision.ccdobj import IVADR
from engine.collision.ccdobj import OM
from engine.collision.ccdobj import OMG
from engine.collision.ccdobj import OP
from engine.collision.ccdobj import OS
from engine.collision.ccdobj import PTI0
from engine.enums import mjMINVAL

mjFACE_TOL = 0.996  # cosine of about 5.1 degrees
mjEDGE_TOL = 0.0888
mjMAX_POLYVERT = 150

# int scratch for polygon lists
MC_PL1 = PTI0
MC_PL2 = MC_PL1 + mjMAX_POLYVERT
MC_PL3 = MC_PL2 + mjMAX_POLYVERT
MC_PLT = MC_PL3 + mjMAX_POLYVERT
MC_ORD = MC_PLT + mjMAX_POLYVERT


@jit
def gcoord(F, o, l0, l1, l2, withpos):
  """globalcoord: mat * (l0, l1, l2) (+ pos)."""
  m_ = o + OM
  r0 = F[m_] * l0 + F[m_ + 1] * l1 + F[m_ + 2] * l2
  r1 = F[m_ + 3] * l0 + F[m_ + 4] * l1 + F[m_ + 5] * l2
  r2 = F[m_ + 6] * l0 + F[m_ + 7] * l1 + F[m_ + 8] * l2
  if withpos:
    r0 += F[o + OP]
    r1 += F[o + OP + 1]
    r2 += F[o + OP + 2]
  return r0, r1, r2


@jit
def set3(F, a, x, y, z):
  """F[a:a+3] = (x, y, z)."""
  F[a] = x
  F[a + 1] = y
  F[a + 2] = z


@jit
def dot3_at(F, a, b):
  """Dot product of the 3-vectors at offsets a and b."""
  return F[a] * F[b] + F[a + 1] * F[b + 1] + F[a + 2] * F[b + 2]


@jit
def normalize_at(F, a):
  """mju_normalize3 in place at offset a."""
  norm = math.sqrt(F[a] * F[a] + F[a + 1] * F[a + 1] + F[a + 2] * F[a + 2])
  if norm < mjMINVAL:
    set3(F, a, 1.0, 0.0, 0.0)
  else:
    inv = 1 / norm
    F[a] *= inv
    F[a + 1] *= inv
    F[a + 2] *= inv


# ---- box features ----


@jit
def box_normals2(F, I, o, res, resind, n0, n1, n2):
  """Port of boxNormals2: the box face whose normal is within 1.6e-3 rad of n, if any."""
  m_ = o + OM
  l0 = F[m_] * n0 + F[m_ + 3] * n1 + F[m_ + 6] * n2
  l1 = F[m_ + 1] * n0 + F[m_ + 4] * n1 + F[m_ + 7] * n2
  l2 = F[m_ + 2] * n0 + F[m_ + 5] * n1 + F[m_ + 8] * n2
  s = 1 / math.sqrt(l0 * l0 + l1 * l1 + l2 * l2)
  l0 = l0 * s
  l1 = l1 * s
  l2 = l2 * s
  for i in range(6):
    ax = i // 2
    sg = 1.0 if i % 2 == 0 else -1.0
    e0 = sg if ax == 0 else 0.0
    e1 = sg if ax == 1 else 0.0
    e2 = sg if ax == 2 else 0.0
    if l0 * e0 + l1 * e1 + l2 * e2 > mjFACE_TOL:
      r0, r1, r2 = gcoord(F, o, e0, e1, e2, False)
      set3(F, res, r0, r1, r2)
      I[resind] = i
      return 1
  return 0


@jit
def _bit3(v1, v2, v3, b):
  """+1 if all three vertex indices have bit b, -1 if none has it, else 0."""
  return (1 if (v1 & b) and (v2 & b) and (v3 & b) else 0) - (
    1 if not (v1 & b) and not (v2 & b) and not (v3 & b) else 0
  )


@jit
def _bit2(v1, v2, b):
  """+1 if both vertex indices have bit b, -1 if neither has it, else 0."""
  return (1 if (v1 & b) and (v2 & b) else 0) - (1 if not (v1 & b) and not (v2 & b) else 0)


@jit
def box_normals(F, I, o, res, resind, dim, v1, v2, v3, n0, n1, n2):
  """Port of boxNormals: candidate face normals of a box from up to 3 corner indices."""
  if dim == 3:
    c = 0
    x = _bit3(v1, v2, v3, 1)
    y = _bit3(v1, v2, v3, 2)
    z = _bit3(v1, v2, v3, 4)
    r0, r1, r2 = gcoord(F, o, float(x), float(y), float(z), False)
    set3(F, res, r0, r1, r2)
    sgn = x + y + z
    if x:
      I[resind + c] = 0
      c += 1
    if y:
      I[resind + c] = 2
      c += 1
    if z:
      I[resind + c] = 4
      c += 1
    if sgn == -1:
      I[resind] += 1
    if c == 1:
      return 1
    return box_normals2(F, I, o, res, resind, n0, n1, n2)

  if dim == 2:
    c = 0
    x = _bit2(v1, v2, 1)
    y = _bit2(v1, v2, 2)
    z = _bit2(v1, v2, 4)
    if x:
      r0, r1, r2 = gcoord(F, o, float(x), 0.0, 0.0, False)
      set3(F, res, r0, r1, r2)
      I[resind + c] = 0 if x > 0 else 1
      c += 1
    if y:
      r0, r1, r2 = gcoord(F, o, 0.0, float(y), 0.0, False)
      set3(F, res + 3 * c, r0, r1, r2)
      I[resind + c] = 2 if y > 0 else 3
      c += 1
    if z:
      r0, r1, r2 = gcoord(F, o, 0.0, 0.0, float(z), False)
      set3(F, res + 3, r0, r1, r2)
      I[resind + c] = 4 if z > 0 else 5
      c += 1
    if c == 2:
      return 2
    return box_normals2(F, I, o, res, resind, n0, n1, n2)

  if dim == 1:
    x = 1.0 if v1 & 1 else -1.0
    y = 1.0 if v1 & 2 else -1.0
    z = 1.0 if v1 & 4 else -1.0
    r0, r1, r2 = gcoord(F, o, x, 0.0, 0.0, False)
    set3(F, res, r0, r1, r2)
    r0, r1, r2 = gcoord(F, o, 0.0, y, 0.0, False)
    set3(F, res + 3, r0, r1, r2)
    r0, r1, r2 = gcoord(F, o, 0.0, 0.0, z, False)
    set3(F, res + 6, r0, r1, r2)
    I[resind] = 0 if x > 0 else 1
    I[resind + 1] = 2 if y > 0 else 3
    I[resind + 2] = 4 if z > 0 else 5
    return 3
  return 0


@jit
def box_edge_normals(F, o, res, endverts, dim, v1, v2, v1i):
  """Port of boxEdgeNormals: unit directions of the edges at the touching feature."""
  if dim == 2:
    for k in range(3):
      F[endverts + k] = F[v2 + k]
      F[res + k] = F[v2 + k] - F[v1 + k]
    normalize_at(F, res)
    return 1

  # the 3 edges at a corner
  if dim == 1:
    x = F[o + OS] if v1i & 1 else -F[o + OS]
    y = F[o + OS + 1] if v1i & 2 else -F[o + OS + 1]
    z = F[o + OS + 2] if v1i & 4 else -F[o + OS + 2]
    for q in range(3):
      a = -x if q == 0 else x
      b = -y if q == 1 else y
      c = -z if q == 2 else z
      r0, r1, r2 = gcoord(F, o, a, b, c, True)
      set3(F, endverts + 3 * q, r0, r1, r2)
      for k in range(3):
        F[res + 3 * q + k] = F[endverts + 3 * q + k] - F[v1 + k]
      normalize_at(F, res + 3 * q)
    return 3
  return 0


@jit
def box_face(F, o, res, idx):
  """Port of boxFace: the 4 corners of box face idx (world frame)."""
  s0 = F[o + OS]
  s1 = F[o + OS + 1]
  s2 = F[o + OS + 2]
  for q in range(4):
    # corner signs of each face, in MuJoCo's order
    if idx == 0:
      a, b, c = s0, (s1 if q < 2 else -s1), (s2 if q == 0 or q == 3 else -s2)
    elif idx == 1:
      a, b, c = -s0, (s1 if q < 2 else -s1), (-s2 if q == 0 or q == 3 else s2)
    elif idx == 2:
      a, b, c = (-s0 if q == 0 or q == 3 else s0), s1, (-s2 if q < 2 else s2)
    elif idx == 3:
      a, b, c = (-s0 if q == 0 or q == 3 else s0), -s1, (s2 if q < 2 else -s2)
    elif idx == 4:
      a, b, c = (-s0 if q == 0 or q == 3 else s0), (s1 if q < 2 else -s1), s2
    else:
      a, b, c = (s0 if q == 0 or q == 3 else -s0), (s1 if q < 2 else -s1), -s2
    r0, r1, r2 = gcoord(F, o, a, b, c, True)
    set3(F, res + 3 * q, r0, r1, r2)
  return 4


# ---- cylinder and capsule features ----


# 16-gon approximating a cylinder cap (cos and sin of k * 22.5 degrees)
_COS16 = (
  1.0,
  0.923879532511287,
  0.707106781186548,
  0.38268343236509,
  0.0,
  -0.38268343236509,
  -0.707106781186547,
  -0.923879532511287,
  -1.0,
  -0.923879532511287,
  -0.707106781186548,
  -0.38268343236509,
  0.0,
  0.38268343236509,
  0.707106781186547,
  0.923879532511287,
)
_SIN16 = (
  0.0,
  0.38268343236509,
  0.707106781186547,
  0.923879532511287,
  1.0,
  0.923879532511287,
  0.707106781186548,
  0.38268343236509,
  0.0,
  -0.38268343236509,
  -0.707106781186547,
  -0.923879532511287,
  -1.0,
  -0.923879532511287,
  -0.707106781186548,
  -0.38268343236509,
)


@jit
def cylinder_normals(F, I, o, res, resind, dim, v1):
  """Port of the cylinder branch of multicontact's normals: the cap normal when the feature is
  a single cap."""
  if dim != 1:
    return 0
  sgn = 1.0 if v1 == 0 else -1.0
  m_ = o + OM
  set3(
    F,
    res,
    F[m_ + 1] * 0.0 + F[m_] * 0.0 + F[m_ + 2] * sgn,
    F[m_ + 4] * 0.0 + F[m_ + 3] * 0.0 + F[m_ + 5] * sgn,
    F[m_ + 7] * 0.0 + F[m_ + 6] * 0.0 + F[m_ + 8] * sgn,
  )
  I[resind] = v1
  return 1


@jit
def cylinder_edge_normals(F, I, o, oi, res, endverts, v, v1i):
  """Port of cylinderEdgeNormals: the side line through point v (snapped to the rim when the
  cylinder has a margin), directed from cap v1i to the other cap."""
  sgn = 1.0 if v1i != 0 else -1.0
  m_ = o + OM
  set3(F, res, sgn * F[m_ + 2], sgn * F[m_ + 5], sgn * F[m_ + 8])
  if F[o + OMG] > 0 and I[oi] >= 0:
    d0 = F[v] - F[o + OP]
    d1 = F[v + 1] - F[o + OP + 1]
    d2 = F[v + 2] - F[o + OP + 2]
    lx = F[m_] * d0 + F[m_ + 3] * d1 + F[m_ + 6] * d2
    ly = F[m_ + 1] * d0 + F[m_ + 4] * d1 + F[m_ + 7] * d2
    r2 = lx * lx + ly * ly
    scl = F[o + OS] / math.sqrt(r2) if r2 >= mjMINVAL * mjMINVAL else 0.0
    lx = lx * scl
    ly = ly * scl
    lz = -sgn * F[o + OS + 1]
    g0, g1, g2 = gcoord(F, o, lx, ly, lz, True)
    set3(F, v, g0, g1, g2)
  h2 = F[o + OS + 1] + F[o + OS + 1]
  set3(F, endverts, h2 * F[res] + F[v], h2 * F[res + 1] + F[v + 1], h2 * F[res + 2] + F[v + 2])
  return 1


@jit
def cylinder_face(F, o, res, idx):
  """Port of cylinderFace: a cap (0 top, 1 bottom) as a 16-gon, clockwise about its normal."""
  sgn = -1.0 if idx else 1.0
  for i in range(16):
    x = F[o + OS] * _COS16[i]
    y = sgn * (F[o + OS] * -_SIN16[i])
    g0, g1, g2 = gcoord(F, o, x, y, sgn * F[o + OS + 1], True)
    set3(F, res + 3 * i, g0, g1, g2)
  return 16


@jit
def capsule_edge_normals(F, o, res, endverts, start, v):
  """Port of capsuleEdgeNormals: the capsule axis and the segment through point v parallel to
  it (endpoints at start and endverts)."""
  m_ = o + OM
  a0 = F[m_ + 2]
  a1 = F[m_ + 5]
  a2 = F[m_ + 8]
  set3(F, res, a0, a1, a2)
  t = (F[v] - F[o + OP]) * a0 + (F[v + 1] - F[o + OP + 1]) * a1 + (F[v + 2] - F[o + OP + 2]) * a2
  h = F[o + OS + 1]
  lo = -t - h
  set3(F, start, lo * a0 + F[v], lo * a1 + F[v + 1], lo * a2 + F[v + 2])
  hi = h - t
  set3(F, endverts, hi * a0 + F[v], hi * a1 + F[v + 1], hi * a2 + F[v + 2])
  return 1


# ---- mesh polygons (m.mesh_poly*) ----


@jit
def _poly_normal(F, m, o, polyadr, p, res):
  """World normal of mesh polygon p (mesh-local id) into F[res:res+3]."""
  q = polyadr + p
  r0, r1, r2 = gcoord(
    F, o, m.mesh_polynormal[q, 0], m.mesh_polynormal[q, 1], m.mesh_polynormal[q, 2], False
  )
  set3(F, res, r0, r1, r2)


@jit
def _mesh_vert_world(F, m, o, v, res):
  """World position of mesh vertex row v (float32 as stored) into F[res:res+3]."""
  r0, r1, r2 = gcoord(
    F, o, float(m.mesh_vert[v, 0]), float(m.mesh_vert[v, 1]), float(m.mesh_vert[v, 2]), True
  )
  set3(F, res, r0, r1, r2)


@jit
def _intersect(I, res, a, b, n, mm):
  """Port of intersect: up to 2 common ints of I[a:a+n] and I[b:b+mm] into I[res:]."""
  count = 0
  for i in range(n):
    for j in range(mm):
      if I[a + i] == I[b + j]:
        I[res + count] = I[a + i]
        count += 1
        if count == 2:
          return 2
  return count


@jit
def _polymap_copy(m, I, vertadr, v, out):
  """Polygons (mesh-local ids, ascending) containing mesh vertex v into I[out:], returns their
  count (capped at mjMAX_POLYVERT, as MuJoCo)."""
  adr = m.mesh_polymapadr[vertadr + v]
  n = min(m.mesh_polymapnum[vertadr + v], mjMAX_POLYVERT)
  for i in range(n):
    I[out + i] = m.mesh_polymap[adr + i]
  return n


@jit
def mesh_vertex_polys(m, I, oi, v, out):
  """Polygons (mesh-local ids, ascending) containing mesh vertex v into I[out:], their count."""
  return _polymap_copy(m, I, I[oi + IVADR], v, out)


@jit
def mesh_poly_verts(m, I, oi, p, out):
  """Vertex cycle (mesh-local ids, counterclockwise about the normal) of mesh polygon p into
  I[out:], its length (capped at mjMAX_POLYVERT)."""
  q = m.mesh_polyadr[m.geom_dataid[I[oi + IG]]] + p
  adr = m.mesh_polyvertadr[q]
  n = min(m.mesh_polyvertnum[q], mjMAX_POLYVERT)
  for i in range(n):
    I[out + i] = m.mesh_polyvert[adr + i]
  return n


@jit
def mesh_poly_normal_local(m, I, oi, p):
  """Normal of mesh polygon p in the mesh frame."""
  q = m.mesh_polyadr[m.geom_dataid[I[oi + IG]]] + p
  return m.mesh_polynormal[q, 0], m.mesh_polynormal[q, 1], m.mesh_polynormal[q, 2]


@jit
def mesh_normals(F, m, I, o, oi, res, resind, dim, v1, v2, v3):
  """Port of meshNormals: candidate polygon normals of a mesh from up to 3 vertices, looked up
  through the vertex-to-polygon map."""
  vertadr = I[oi + IVADR]
  polyadr = m.mesh_polyadr[m.geom_dataid[I[oi + IG]]]
  if dim == 3:
    n1 = _polymap_copy(m, I, vertadr, v1, MC_PL1)
    n2 = _polymap_copy(m, I, vertadr, v2, MC_PL2)
    n3 = _polymap_copy(m, I, vertadr, v3, MC_PL3)
    n = _intersect(I, MC_PLT, MC_PL1, MC_PL2, n1, n2)
    if n == 0:
      return 0
    n = _intersect(I, MC_PLT + 2, MC_PLT, MC_PL3, n, n3)
    if n == 0:
      return 0
    _poly_normal(F, m, o, polyadr, I[MC_PLT + 2], res)
    I[resind] = I[MC_PLT + 2]
    return 1

  if dim == 2:
    n1 = _polymap_copy(m, I, vertadr, v1, MC_PL1)
    n2 = _polymap_copy(m, I, vertadr, v2, MC_PL2)
    n = _intersect(I, MC_PLT, MC_PL1, MC_PL2, n1, n2)
    for i in range(n):
      _poly_normal(F, m, o, polyadr, I[MC_PLT + i], res + 3 * i)
      I[resind + i] = I[MC_PLT + i]
    return n

  if dim == 1:
    n1 = _polymap_copy(m, I, vertadr, v1, MC_PL1)
    for i in range(n1):
      _poly_normal(F, m, o, polyadr, I[MC_PL1 + i], res + 3 * i)
      I[resind + i] = I[MC_PL1 + i]
    return n1
  return 0


@jit
def mesh_edge_normals(F, m, I, o, oi, res, endverts, dim, v1, v2, v1i):
  """Port of meshEdgeNormals: unit directions of the mesh edges at the touching feature."""
  if dim == 2:
    for k in range(3):
      F[endverts + k] = F[v2 + k]
      F[res + k] = F[v2 + k] - F[v1 + k]
    normalize_at(F, res)
    return 1

  # for each polygon at the vertex: the edge to the previous polygon vertex
  if dim == 1:
    vertadr = I[oi + IVADR]
    polyadr = m.mesh_polyadr[m.geom_dataid[I[oi + IG]]]
    npoly = _polymap_copy(m, I, vertadr, v1i, MC_PL1)
    for i in range(npoly):
      q = polyadr + I[MC_PL1 + i]
      adr = m.mesh_polyvertadr[q]
      nvert = m.mesh_polyvertnum[q]
      for j in range(nvert):
        if m.mesh_polyvert[adr + j] == v1i:
          k = nvert - 1 if j == 0 else j - 1
          _mesh_vert_world(F, m, o, vertadr + m.mesh_polyvert[adr + k], endverts + 3 * i)
          for c in range(3):
            F[res + 3 * i + c] = F[endverts + 3 * i + c] - F[v1 + c]
          normalize_at(F, res + 3 * i)
          break
    return npoly
  return 0


@jit
def mesh_face(F, m, I, o, oi, res, p):
  """Port of meshFace: the polygon's vertices in world frame, clockwise about its normal."""
  vertadr = I[oi + IVADR]
  q = m.mesh_polyadr[m.geom_dataid[I[oi + IG]]] + p
  adr = m.mesh_polyvertadr[q]
  nvert = min(m.mesh_polyvertnum[q], mjMAX_POLYVERT)
  j = 0
  for i in range(nvert - 1, -1, -1):
    _mesh_vert_world(F, m, o, vertadr + m.mesh_polyvert[adr + i], res + 3 * j)
    j += 1
  return nvert
