"""Convex collision objects and their support functions (engine_collision_convex.c, MuJoCo
3.17), and the workspace layout shared by GJK, EPA and multi-contact.

A "CCD object" (MuJoCo's mjCCDObj) lives in the workspace d.scratch_ccd (float64) and
d.scratch_ccdi (int32): object 1 at float offset O1 / int offset O1I, object 2 at O2 / O2I. Its
pose, size and margin are copies of the geom's (so a pose can be perturbed without touching d),
plus the hfield prism. Functions take the workspace arrays `F` (floats) and `I` (ints) and the
object's base offsets. The GJK status (MuJoCo's mjCCDStatus) follows at ST_* / S_*, then the
EPA polytope, whose storage the multi-contact buffers reuse.

Meshes: as MuJoCo, a mesh with a hull graph (m.mesh_graph) and at least mjMESH_HILLCLIMB_MIN
vertices finds its support point by hill-climbing the hull's vertex neighbourhoods (exact on a
convex hull, and a few dozen dot products instead of one per vertex); smaller meshes search every
vertex.
"""

import math

from engine._jit import always_inline
from engine._jit import jit
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_SDF
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjMINVAL

mjMINVAL2 = mjMINVAL * mjMINVAL
mjMAXVAL2 = 1e10 * 1e10
mjMAX_LIMIT = 1.7976931348623157e308  # DBL_MAX
FLT_MAX = 3.4028234663852886e38
mjMESH_HILLCLIMB_MIN = 10

# ---- workspace layout ----

# object floats: pos, mat, size (4: hfield sizes), margin, hfield prism (6 x 3)
OP = 0
OM = 3
OS = 12
OMG = 16
OPR = 17
O1 = 0
O2 = 40

# object ints: geom, type, vertindex, meshindex, support mode, mesh vertadr/vertnum,
# mesh faceadr/facenum, hfield adr/nrow/ncol, hull graph address (-1: exhaustive search), mesh id
IG = 0
IT = 1
IVI = 2
IMI = 3
IMODE = 4
IVADR = 5
IVNUM = 6
IFADR = 7
IFNUM = 8
IHADR = 9
INROW = 10
INCOL = 11
IGRAPH = 12
IMESH = 13
O1I = 0
O2I = 16

# support modes: the geom's own, its center point (sphere core), its segment (capsule core)
MODE_GEOM = 0
MODE_POINT = 1
MODE_LINE = 2

# status floats: per-contact distances (mjMAXCONPAIR), tolerance, dist_cutoff, witness points
# x1, x2 (mjMAXCONPAIR each), simplex (4 vertices of 9: vert, vert1, vert2)
ST_D = 80
ST_TOL = 130
ST_CUT = 131
ST_X1 = 132
ST_X2 = 282
ST_SV = 432

# status ints: nx, max_iterations, max_contacts, gjk/epa iterations, epa status, nsimplex,
# separated flag, simplex vertex indices (4 x 2)
S_NX = 32
S_MAXIT = 33
S_MAXCON = 34
S_GJKIT = 35
S_EPAIT = 36
S_EPAST = 37
S_NSIMP = 38
S_SEP = 39
S_SVI = 40

# after the status: the gjkIntersect simplex copy (36 floats, indices at S_SVI + 8), the
# contact feature vertices for multi-contact (FV: 3 x 9 floats, FVI: 3 x 2 ints), then the
# polytope (PT0, PTI0), whose storage multi-contact reuses
GJK_TMP = 468
FV = GJK_TMP + 36
PT0 = FV + 28
FVI = 66
PTI0 = 400

# ---- object setup ----


@jit
def init_obj(m, d, F, I, o, oi, g, margin):
  """Port of mjc_initCCDObj, engine_collision_convex.c: copies the geom's pose and size."""
  t = m.geom_type[g]
  I[oi + IG] = g
  I[oi + IT] = t
  I[oi + IVI] = -1
  I[oi + IMI] = -1
  I[oi + IMODE] = MODE_GEOM
  F[o + OMG] = margin
  for k in range(3):
    F[o + OP + k] = d.geom_xpos[g, k]
    F[o + OS + k] = m.geom_size[g, k]
  F[o + OS + 3] = 0.0
  for k in range(9):
    F[o + OM + k] = d.geom_xmat[g, k]
  if t == mjGEOM_MESH or t == mjGEOM_SDF:  # an SDF geom's convex shape is its mesh's
    mid = m.geom_dataid[g]
    I[oi + IVADR] = m.mesh_vertadr[mid]
    I[oi + IVNUM] = m.mesh_vertnum[mid]
    I[oi + IFADR] = m.mesh_faceadr[mid]
    I[oi + IFNUM] = m.mesh_facenum[mid]
    I[oi + IMESH] = mid
    graphadr = m.mesh_graphadr[mid]
    I[oi + IGRAPH] = graphadr if m.mesh_vertnum[mid] >= mjMESH_HILLCLIMB_MIN else -1
  elif t == mjGEOM_HFIELD:
    hid = m.geom_dataid[g]
    I[oi + IHADR] = m.hfield_adr[hid]
    I[oi + INROW] = m.hfield_nrow[hid]
    I[oi + INCOL] = m.hfield_ncol[hid]
    for k in range(4):
      F[o + OS + k] = m.hfield_size[hid, k]


@jit
def obj_center(F, I, o, oi):
  """Port of mjc_center: the geom position, or the mean of the hfield prism's vertices."""
  if I[oi + IT] == mjGEOM_HFIELD:
    r0 = 0.0
    r1 = 0.0
    r2 = 0.0
    for i in range(6):
      r0 += F[o + OPR + 3 * i]
      r1 += F[o + OPR + 3 * i + 1]
      r2 += F[o + OPR + 3 * i + 2]
    s = 1.0 / 6.0
    return r0 * s, r1 * s, r2 * s
  return F[o + OP], F[o + OP + 1], F[o + OP + 2]


# ---- support functions ----


@jit
def _local_dir(F, o, d0, d1, d2):
  """mulMatTVec3: a world direction in the object's frame."""
  m_ = o + OM
  l0 = F[m_] * d0 + F[m_ + 3] * d1 + F[m_ + 6] * d2
  l1 = F[m_ + 1] * d0 + F[m_ + 4] * d1 + F[m_ + 7] * d2
  l2 = F[m_ + 2] * d0 + F[m_ + 5] * d1 + F[m_ + 8] * d2
  return l0, l1, l2


@jit
def _to_global(F, o, s0, s1, s2):
  """localToGlobal: mat * local + pos."""
  m_ = o + OM
  r0 = F[m_] * s0 + F[m_ + 1] * s1 + F[m_ + 2] * s2
  r1 = F[m_ + 3] * s0 + F[m_ + 4] * s1 + F[m_ + 5] * s2
  r2 = F[m_ + 6] * s0 + F[m_ + 7] * s1 + F[m_ + 8] * s2
  r0 += F[o + OP]
  r1 += F[o + OP + 1]
  r2 += F[o + OP + 2]
  return r0, r1, r2


@jit
def _mesh_support(m, F, I, o, oi, d0, d1, d2):
  """Port of mjc_meshSupport: exhaustive search over the vertices, warm started."""
  l0, l1, l2 = _local_dir(F, o, d0, d1, d2)
  vadr = I[oi + IVADR]
  nvert = I[oi + IVNUM]
  vmax = -FLT_MAX
  imax = 0

  # cached result of the previous search
  if I[oi + IVI] >= 0:
    imax = I[oi + IVI]
    v = vadr + imax
    vmax = (
      l0 * float(m.mesh_vert[v, 0]) + l1 * float(m.mesh_vert[v, 1]) + l2 * float(m.mesh_vert[v, 2])
    )

  # all vertices, maximum dot product
  for i in range(nvert):
    v = vadr + i
    vdot = (
      l0 * float(m.mesh_vert[v, 0]) + l1 * float(m.mesh_vert[v, 1]) + l2 * float(m.mesh_vert[v, 2])
    )
    if vdot > vmax:
      vmax = vdot
      imax = i
  I[oi + IVI] = imax
  v = vadr + imax
  return _to_global(
    F, o, float(m.mesh_vert[v, 0]), float(m.mesh_vert[v, 1]), float(m.mesh_vert[v, 2])
  )


@jit
def _vert_dot(verts, v, l0, l1, l2):
  """dot3f: a local direction with mesh vertex v (float32 storage)."""
  return l0 * float(verts[v, 0]) + l1 * float(verts[v, 1]) + l2 * float(verts[v, 2])


@jit
def _extrema_cell(x):
  """Index (0, 1, 2) of a direction component on m.mesh_extrema's {-1, 0, 1} grid."""
  if x > 0.4:
    return 2
  if x < -0.4:
    return 0
  return 1


@jit
def _hillclimb_support(m, F, I, o, oi, d0, d1, d2):
  """Port of mjc_hillclimbSupport: steepest ascent over the hull graph's vertex neighbours.

  Starts from the hull vertex m.mesh_extrema lists for the nearest of 26 fixed directions, or
  from the previous result when that is at least as far along; on a convex hull the dot product
  has no local maximum but the global one, so the walk ends at the support vertex.
  """
  l0, l1, l2 = _local_dir(F, o, d0, d1, d2)
  graph = m.mesh_graph
  verts = m.mesh_vert
  adr = I[oi + IGRAPH]
  numvert = graph[adr]
  edgeadr = adr + 2
  globalid = edgeadr + numvert
  localid = globalid + numvert
  vadr = I[oi + IVADR]

  cell = 9 * _extrema_cell(l0) + 3 * _extrema_cell(l1) + _extrema_cell(l2)
  imax = m.mesh_extrema[I[oi + IMESH], cell]
  vmax = _vert_dot(verts, vadr + graph[globalid + imax], l0, l1, l2)
  cached = I[oi + IMI]
  if cached >= 0:
    vcached = _vert_dot(verts, vadr + graph[globalid + cached], l0, l1, l2)
    if vcached >= vmax:
      imax = cached
      vmax = vcached
  prev = -1
  while imax != prev:
    prev = imax
    i = graph[edgeadr + prev]
    nb = graph[localid + i]
    while nb >= 0:  # (-1 ends a vertex's edge list)
      vdot = _vert_dot(verts, vadr + graph[globalid + nb], l0, l1, l2)
      if vdot > vmax:
        vmax = vdot
        imax = nb
      i += 1
      nb = graph[localid + i]

  I[oi + IMI] = imax
  gid = graph[globalid + imax]
  I[oi + IVI] = gid
  v = vadr + gid
  return _to_global(F, o, float(verts[v, 0]), float(verts[v, 1]), float(verts[v, 2]))


@always_inline
@jit
def obj_support(m, F, I, o, oi, d0, d1, d2):
  """The support point of a CCD object in a unit direction (MuJoCo's obj->support).

  Ports mjc_sphereSupport, mjc_capsuleSupport, mjc_ellipsoidSupport, mjc_cylinderSupport,
  mjc_boxSupport, mjc_meshSupport / mjc_hillclimbSupport, mjc_prism_support, and
  mjc_pointSupport / mjc_lineSupport (the sphere and capsule cores used by mjc_ccd).
  """
  mode = I[oi + IMODE]
  if mode == MODE_POINT:
    return F[o + OP], F[o + OP + 1], F[o + OP + 2]
  if mode == MODE_LINE:
    m_ = o + OM
    length = F[o + OS + 1]
    dot = F[m_ + 2] * d0 + F[m_ + 5] * d1 + F[m_ + 8] * d2
    scl = length if dot >= 0 else -length
    return (
      F[m_ + 2] * scl + F[o + OP],
      F[m_ + 5] * scl + F[o + OP + 1],
      F[m_ + 8] * scl + F[o + OP + 2],
    )

  t = I[oi + IT]
  if t == mjGEOM_SPHERE:
    radius = F[o + OS]
    return radius * d0 + F[o + OP], radius * d1 + F[o + OP + 1], radius * d2 + F[o + OP + 2]

  if t == mjGEOM_CAPSULE:
    radius = F[o + OS]
    length = F[o + OS + 1]
    l0, l1, l2 = _local_dir(F, o, d0, d1, d2)
    s0 = l0 * radius
    s1 = l1 * radius
    s2 = l2 * radius
    s2 += length if l2 >= 0 else -length
    return _to_global(F, o, s0, s1, s2)

  if t == mjGEOM_ELLIPSOID:
    l0, l1, l2 = _local_dir(F, o, d0, d1, d2)
    s0 = l0 * F[o + OS]
    s1 = l1 * F[o + OS + 1]
    s2 = l2 * F[o + OS + 2]
    norm2 = s0 * s0 + s1 * s1 + s2 * s2

    # too small to normalize
    if norm2 < mjMINVAL2:
      m_ = o + OM
      return (
        F[m_] * F[o + OS] + F[o + OP],
        F[m_ + 3] * F[o + OS] + F[o + OP + 1],
        F[m_ + 6] * F[o + OS] + F[o + OP + 2],
      )
    norm_inv = 1 / math.sqrt(norm2)
    s0 *= norm_inv * F[o + OS]
    s1 *= norm_inv * F[o + OS + 1]
    s2 *= norm_inv * F[o + OS + 2]
    return _to_global(F, o, s0, s1, s2)

  if t == mjGEOM_CYLINDER:
    l0, l1, l2 = _local_dir(F, o, d0, d1, d2)
    n2 = l0 * l0 + l1 * l1
    scl = F[o + OS] / math.sqrt(n2) if n2 >= mjMINVAL2 else 0.0
    s0 = scl * l0
    s1 = scl * l1
    s2 = F[o + OS + 1] if l2 >= 0 else -F[o + OS + 1]

    # cap index for the multi-contact feature lookup (0 top, 1 bottom)
    I[oi + IVI] = 0 if l2 >= 0 else 1
    return _to_global(F, o, s0, s1, s2)

  if t == mjGEOM_BOX:
    l0, l1, l2 = _local_dir(F, o, d0, d1, d2)
    s0 = F[o + OS] if l0 >= 0 else -F[o + OS]
    s1 = F[o + OS + 1] if l1 >= 0 else -F[o + OS + 1]
    s2 = F[o + OS + 2] if l2 >= 0 else -F[o + OS + 2]

    # corner index for the multi-contact feature lookup
    vi = 1 if s0 > 0 else 0
    if s1 > 0:
      vi |= 2
    if s2 > 0:
      vi |= 4
    I[oi + IVI] = vi
    return _to_global(F, o, s0, s1, s2)

  if t == mjGEOM_MESH or t == mjGEOM_SDF:
    if I[oi + IGRAPH] >= 0:
      return _hillclimb_support(m, F, I, o, oi, d0, d1, d2)
    return _mesh_support(m, F, I, o, oi, d0, d1, d2)

  if t == mjGEOM_HFIELD:
    # prism: best vertex in the half (bottom or top) given by dir z
    istart = 0 if d2 < 0 else 3
    ibest = istart
    p = o + OPR + 3 * istart
    best = F[p] * d0 + F[p + 1] * d1 + F[p + 2] * d2
    for i in range(istart + 1, istart + 3):
      p = o + OPR + 3 * i
      tmp = F[p] * d0 + F[p + 1] * d1 + F[p + 2] * d2
      if tmp > best:
        ibest = i
        best = tmp
    p = o + OPR + 3 * ibest
    return F[p], F[p + 1], F[p + 2]

  return F[o + OP], F[o + OP + 1], F[o + OP + 2]


@jit
def _polytope(I, oi):
  """Whether object oi is a polytope: a mesh, box or prism, or a sphere or capsule reduced to
  its center point or segment (mjc_ccd's first GJK)."""
  t = I[oi + IT]
  return I[oi + IMODE] != MODE_GEOM or t == mjGEOM_MESH or t == mjGEOM_BOX or t == mjGEOM_HFIELD


@jit
def discrete_geoms(F, I):
  """Port of discreteGeoms (MuJoCo 3.17): both objects are polytopes with no margin.

  MuJoCo 3.17 counts the point and segment cores of spheres and capsules as polytopes: GJK
  between a capsule's segment and a mesh then runs with a zero duality-gap tolerance (measured:
  with a tolerance, geom distances just beyond a cutoff kept witness points MuJoCo drops).
  """
  if F[O1 + OMG] != 0 or F[O2 + OMG] != 0:
    return False
  return _polytope(I, O1I) and _polytope(I, O2I)


@jit
def set_minkowski_point(F, v, a0, a1, a2, b0, b1, b2):
  """Stores at F[v:v+9] the Minkowski point a - b, then the two objects' points a and b."""
  F[v] = a0 - b0
  F[v + 1] = a1 - b1
  F[v + 2] = a2 - b2
  F[v + 3] = a0
  F[v + 4] = a1
  F[v + 5] = a2
  F[v + 6] = b0
  F[v + 7] = b1
  F[v + 8] = b2


@always_inline
@jit
def minkowski_support(m, F, I, v, vi, d0, d1, d2, n0, n1, n2):
  """Port of support (engine_collision_gjk.c): S_A(dir) - S_B(-dir) into vertex slot F[v:v+9]
  (vert, vert1, vert2) and I[vi:vi+2] (vertex indices), with each object inflated by half its
  margin."""
  a0, a1, a2 = obj_support(m, F, I, O1, O1I, d0, d1, d2)
  mg = F[O1 + OMG]
  if mg > 0:
    mg = 0.5 * mg
    a0 += d0 * mg
    a1 += d1 * mg
    a2 += d2 * mg
  b0, b1, b2 = obj_support(m, F, I, O2, O2I, n0, n1, n2)
  mg = F[O2 + OMG]
  if mg > 0:
    mg = 0.5 * mg
    b0 += n0 * mg
    b1 += n1 * mg
    b2 += n2 * mg
  set_minkowski_point(F, v, a0, a1, a2, b0, b1, b2)
  I[vi] = I[O1I + IVI]
  I[vi + 1] = I[O2I + IVI]
