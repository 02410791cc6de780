"""Contact features of boxes, cylinders, capsules and meshes for multi-contact
(engine_collision_gjk.c, MuJoCo 3.17): candidate face normals at the touching vertices, edge
directions, and face polygons in the world frame.

Vectors live in the workspace `F` at float offsets; index lists in `I`. Box corners are
indexed by bits (1: +x, 2: +y, 4: +z), cylinder points by cap (0 top, 1 bottom).

Mesh polygons: MuJoCo reads merged hull polygons from m.mesh_poly* (not in our model yet).
Here a mesh polygon is derived from the mesh triangles (for a convex mesh, its hull faces):
polygon id = lowest index of the triangles sharing its plane, normal = that triangle's unit
normal, vertices = the mesh vertices on the plane, ordered around the normal. For convex meshes
this is the same polygon; only its starting vertex (hence the order of the contacts) and the
last bits of the normal can differ.
"""

import math

from engine._jit import jit
from engine.collision.ccdobj import IFADR
from engine.collision.ccdobj import IFNUM
from engine.collision.ccdobj import IVADR
from engine.collision.ccdobj import IVNUM
from engine.collision.ccdobj import OM
from engine.collision.ccdobj import OMG
from engine.collision.ccdobj import OP
from engine.collision.ccdobj import OS
from engine.collision.ccdobj import PTI0
from engine.enums import mjMINVAL

mjFACE_TOL = 0.996  # cosine of about 5.1 degrees
mjEDGE_TOL = 0.0888
mjMAX_POLYVERT = 150

# plane tolerance (relative to the mesh size) for merging coplanar hull triangles
_PLANE_TOL = 1e-6

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
    1 if not (v1 & b) and not (v2 & b) and not (v3 & b) else 0)


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
_COS16 = (1.0, 0.923879532511287, 0.707106781186548, 0.38268343236509, 0.0,
          -0.38268343236509, -0.707106781186547, -0.923879532511287, -1.0,
          -0.923879532511287, -0.707106781186548, -0.38268343236509, 0.0,
          0.38268343236509, 0.707106781186547, 0.923879532511287)
_SIN16 = (0.0, 0.38268343236509, 0.707106781186547, 0.923879532511287, 1.0,
          0.923879532511287, 0.707106781186548, 0.38268343236509, 0.0,
          -0.38268343236509, -0.707106781186547, -0.923879532511287, -1.0,
          -0.923879532511287, -0.707106781186548, -0.38268343236509)


@jit
def cylinder_normals(F, I, o, res, resind, dim, v1):
  """Port of the cylinder branch of multicontact's normals: the cap normal when the feature is
  a single cap."""
  if dim != 1:
    return 0
  sgn = 1.0 if v1 == 0 else -1.0
  m_ = o + OM
  set3(F, res, F[m_ + 1] * 0.0 + F[m_] * 0.0 + F[m_ + 2] * sgn,
       F[m_ + 4] * 0.0 + F[m_ + 3] * 0.0 + F[m_ + 5] * sgn,
       F[m_ + 7] * 0.0 + F[m_ + 6] * 0.0 + F[m_ + 8] * sgn)
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
  set3(F, endverts, h2 * F[res] + F[v], h2 * F[res + 1] + F[v + 1],
       h2 * F[res + 2] + F[v + 2])
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


# ---- mesh polygons (derived from the hull triangles) ----


@jit
def _tri_normal(m, I, oi, t):
  """Unit normal (mesh frame) of mesh triangle t and its plane offset."""
  fadr = I[oi + IFADR] + t
  vadr = I[oi + IVADR]
  a = vadr + m.mesh_face[fadr, 0]
  b = vadr + m.mesh_face[fadr, 1]
  c = vadr + m.mesh_face[fadr, 2]
  a0 = float(m.mesh_vert[a, 0])
  a1 = float(m.mesh_vert[a, 1])
  a2 = float(m.mesh_vert[a, 2])
  e0 = float(m.mesh_vert[b, 0]) - a0
  e1 = float(m.mesh_vert[b, 1]) - a1
  e2 = float(m.mesh_vert[b, 2]) - a2
  f0 = float(m.mesh_vert[c, 0]) - a0
  f1 = float(m.mesh_vert[c, 1]) - a1
  f2 = float(m.mesh_vert[c, 2]) - a2
  n0 = e1 * f2 - e2 * f1
  n1 = e2 * f0 - e0 * f2
  n2 = e0 * f1 - e1 * f0
  norm = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
  if norm < mjMINVAL:
    return 0.0, 0.0, 0.0, 0.0
  n0 /= norm
  n1 /= norm
  n2 /= norm
  return n0, n1, n2, n0 * a0 + n1 * a1 + n2 * a2


@jit
def _mesh_scale(m, I, oi):
  """Largest vertex coordinate magnitude of the mesh (tolerance scale)."""
  vadr = I[oi + IVADR]
  s = 0.0
  for i in range(I[oi + IVNUM]):
    for k in range(3):
      s = max(s, abs(float(m.mesh_vert[vadr + i, k])))
  return max(s, mjMINVAL)


@jit
def _poly_id(m, I, oi, t):
  """Polygon of triangle t: the lowest-index triangle with the same plane."""
  n0, n1, n2, off = _tri_normal(m, I, oi, t)
  for s in range(t):
    q0, q1, q2, qoff = _tri_normal(m, I, oi, s)
    if n0 * q0 + n1 * q1 + n2 * q2 > 1 - _PLANE_TOL:
      return s
  return t


@jit
def _vertex_polys(m, I, oi, v, out):
  """Polygons containing mesh vertex v (ascending ids) into I[out:], returns their count."""
  fadr = I[oi + IFADR]
  n = 0
  for t in range(I[oi + IFNUM]):
    if m.mesh_face[fadr + t, 0] != v and m.mesh_face[fadr + t, 1] != v and (
        m.mesh_face[fadr + t, 2] != v):
      continue
    p = _poly_id(m, I, oi, t)

    # insert sorted, skip duplicates
    pos = n
    dup = False
    for i in range(n):
      if I[out + i] == p:
        dup = True
        break
      if I[out + i] > p:
        pos = i
        break
    if dup or n >= mjMAX_POLYVERT:
      continue
    for i in range(n, pos, -1):
      I[out + i] = I[out + i - 1]
    I[out + pos] = p
    n += 1
  return n


@jit
def _poly_normal(F, m, I, o, oi, p, res):
  """World normal of mesh polygon p into F[res:res+3]."""
  n0, n1, n2, off = _tri_normal(m, I, oi, p)
  r0, r1, r2 = gcoord(F, o, n0, n1, n2, False)
  set3(F, res, r0, r1, r2)


@jit
def _poly_verts(F, m, I, o, oi, p, out):
  """Vertices of mesh polygon p, counterclockwise about its normal, into I[out:]."""
  n0, n1, n2, off = _tri_normal(m, I, oi, p)
  vadr = I[oi + IVADR]
  tol = _PLANE_TOL * _mesh_scale(m, I, oi)

  # vertices on the plane, and their centroid
  nv = 0
  c0 = 0.0
  c1 = 0.0
  c2 = 0.0
  for i in range(I[oi + IVNUM]):
    x0 = float(m.mesh_vert[vadr + i, 0])
    x1 = float(m.mesh_vert[vadr + i, 1])
    x2 = float(m.mesh_vert[vadr + i, 2])
    if abs(n0 * x0 + n1 * x1 + n2 * x2 - off) < tol and nv < mjMAX_POLYVERT:
      I[out + nv] = i
      nv += 1
      c0 += x0
      c1 += x1
      c2 += x2
  if nv == 0:
    return 0
  c0 /= nv
  c1 /= nv
  c2 /= nv

  # in-plane axes
  v = vadr + I[out]
  u0 = float(m.mesh_vert[v, 0]) - c0
  u1 = float(m.mesh_vert[v, 1]) - c1
  u2 = float(m.mesh_vert[v, 2]) - c2
  w0 = n1 * u2 - n2 * u1
  w1 = n2 * u0 - n0 * u2
  w2 = n0 * u1 - n1 * u0

  # insertion sort by angle about the normal
  for i in range(1, nv):
    key = I[out + i]
    ka = _angle(m, vadr + key, c0, c1, c2, u0, u1, u2, w0, w1, w2)
    j = i - 1
    while j >= 0 and _angle(m, vadr + I[out + j], c0, c1, c2, u0, u1, u2, w0, w1, w2) > ka:
      I[out + j + 1] = I[out + j]
      j -= 1
    I[out + j + 1] = key
  return nv


@jit
def _angle(m, v, c0, c1, c2, u0, u1, u2, w0, w1, w2):
  """Angle of mesh vertex row v about the centroid, in the (u, w) plane axes."""
  d0 = float(m.mesh_vert[v, 0]) - c0
  d1 = float(m.mesh_vert[v, 1]) - c1
  d2 = float(m.mesh_vert[v, 2]) - c2
  return math.atan2(d0 * w0 + d1 * w1 + d2 * w2, d0 * u0 + d1 * u1 + d2 * u2)


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
def mesh_normals(F, m, I, o, oi, res, resind, dim, v1, v2, v3):
  """Port of meshNormals: candidate polygon normals of a mesh from up to 3 vertices."""
  if dim == 3:
    n1 = _vertex_polys(m, I, oi, v1, MC_PL1)
    n2 = _vertex_polys(m, I, oi, v2, MC_PL2)
    n3 = _vertex_polys(m, I, oi, v3, MC_PL3)
    n = _intersect(I, MC_PLT, MC_PL1, MC_PL2, n1, n2)
    if n == 0:
      return 0
    n = _intersect(I, MC_PLT + 2, MC_PLT, MC_PL3, n, n3)
    if n == 0:
      return 0
    _poly_normal(F, m, I, o, oi, I[MC_PLT + 2], res)
    I[resind] = I[MC_PLT + 2]
    return 1

  if dim == 2:
    n1 = _vertex_polys(m, I, oi, v1, MC_PL1)
    n2 = _vertex_polys(m, I, oi, v2, MC_PL2)
    n = _intersect(I, MC_PLT, MC_PL1, MC_PL2, n1, n2)
    for i in range(n):
      _poly_normal(F, m, I, o, oi, I[MC_PLT + i], res + 3 * i)
      I[resind + i] = I[MC_PLT + i]
    return n

  if dim == 1:
    n1 = _vertex_polys(m, I, oi, v1, MC_PL1)
    for i in range(n1):
      _poly_normal(F, m, I, o, oi, I[MC_PL1 + i], res + 3 * i)
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
    vadr = I[oi + IVADR]
    npoly = _vertex_polys(m, I, oi, v1i, MC_PL1)
    for i in range(npoly):
      nvert = _poly_verts(F, m, I, o, oi, I[MC_PL1 + i], MC_ORD)
      for j in range(nvert):
        if I[MC_ORD + j] == v1i:
          k = nvert - 1 if j == 0 else j - 1
          v = vadr + I[MC_ORD + k]
          r0, r1, r2 = gcoord(F, o, float(m.mesh_vert[v, 0]), float(m.mesh_vert[v, 1]),
                               float(m.mesh_vert[v, 2]), True)
          set3(F, endverts + 3 * i, r0, r1, r2)
          for q in range(3):
            F[res + 3 * i + q] = F[endverts + 3 * i + q] - F[v1 + q]
          normalize_at(F, res + 3 * i)
    return npoly
  return 0


@jit
def mesh_face(F, m, I, o, oi, res, p):
  """Port of meshFace: the polygon's vertices in world frame, clockwise about its normal."""
  vadr = I[oi + IVADR]
  nvert = _poly_verts(F, m, I, o, oi, p, MC_ORD)
  j = 0
  for i in range(nvert - 1, -1, -1):
    v = vadr + I[MC_ORD + i]
    r0, r1, r2 = gcoord(F, o, float(m.mesh_vert[v, 0]), float(m.mesh_vert[v, 1]),
                         float(m.mesh_vert[v, 2]), True)
    set3(F, res + 3 * j, r0, r1, r2)
    j += 1
  return nvert
