"""EPA penetration depth and the convex collision entry mjc_ccd (engine_collision_gjk.c,
MuJoCo 3.17's native CCD).

The polytope (engine/collision/polytope.py) is expanded toward the face of the Minkowski
difference closest to the origin. MuJoCo keeps room for 170 EPA iterations (6 faces each) and
allocates more for larger ccd_iterations (EPA stops at 1000); the workspace holds a fixed
number (about 200 iterations), so EPA stops there for larger ccd_iterations.
"""

import math

from engine._jit import jit
from engine._stage import CONVEX_OR_HFIELD
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import ivec
from engine._stage import stage
from engine._stage import vec
from engine.collision import multicontact
from engine.collision.ccdobj import FV
from engine.collision.ccdobj import FVI
from engine.collision.ccdobj import IG
from engine.collision.ccdobj import IMODE
from engine.collision.ccdobj import IT
from engine.collision.ccdobj import MODE_GEOM
from engine.collision.ccdobj import MODE_LINE
from engine.collision.ccdobj import MODE_POINT
from engine.collision.ccdobj import O1
from engine.collision.ccdobj import O1I
from engine.collision.ccdobj import O2
from engine.collision.ccdobj import O2I
from engine.collision.ccdobj import OMG
from engine.collision.ccdobj import OS
from engine.collision.ccdobj import PT0
from engine.collision.ccdobj import PTI0
from engine.collision.ccdobj import S_EPAIT
from engine.collision.ccdobj import S_EPAST
from engine.collision.ccdobj import S_GJKIT
from engine.collision.ccdobj import S_MAXCON
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
from engine.collision.ccdobj import mjMAX_LIMIT
from engine.collision.ccdobj import obj_center
from engine.collision.gjk import gjk
from engine.collision.polytope import FC_ADJ
from engine.collision.polytope import FC_D2
from engine.collision.polytope import FC_P
from engine.collision.polytope import FC_V
from engine.collision.polytope import P_FB
from engine.collision.polytope import P_HE
from engine.collision.polytope import P_HI
from engine.collision.polytope import P_MAP
from engine.collision.polytope import P_MAXF
from engine.collision.polytope import P_NE
from engine.collision.polytope import P_NF
from engine.collision.polytope import P_NMAP
from engine.collision.polytope import P_NV
from engine.collision.polytope import P_W
from engine.collision.polytope import _attach_face
from engine.collision.polytope import _epa_support
from engine.collision.polytope import _ff
from engine.collision.polytope import _fvert
from engine.collision.polytope import _horizon
from engine.collision.polytope import _map_add
from engine.collision.polytope import _polytope2
from engine.collision.polytope import _polytope3
from engine.collision.polytope import _polytope4
from engine.collision.polytope import _vf
from engine.collision.polytope import tri_affine_coord
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjMAXCONPAIR
from engine.enums import mjMINVAL

mjMAX_EPA_ITERATIONS = 170


@jit
def capacity(F, I):
  """Most EPA iterations the workspace holds (the last 64 floats are left to the callers)."""
  nf = (F.shape[0] - 64 - PT0 - 45) // 75
  ni = (I.shape[0] - PTI0 - 22) // 10
  return min(nf, ni)


# ---- EPA ----


@jit
def _epa_witness(F, I, f):
  """Port of epaWitness: witness points of face f into the status x1, x2; returns the depth
  (negative distance)."""
  b = _ff(I, f)
  va = _vf(_fvert(F, I, f, 0))
  vb = _vf(_fvert(F, I, f, 1))
  vc = _vf(_fvert(F, I, f, 2))
  l0, l1, l2 = tri_affine_coord(
    F[va],
    F[va + 1],
    F[va + 2],
    F[vb],
    F[vb + 1],
    F[vb + 2],
    F[vc],
    F[vc + 1],
    F[vc + 2],
    F[b + FC_P],
    F[b + FC_P + 1],
    F[b + FC_P + 2],
  )
  for k in range(3):
    F[ST_X1 + k] = l0 * F[va + 3 + k] + l1 * F[vb + 3 + k] + l2 * F[vc + 3 + k]
    F[ST_X2 + k] = l0 * F[va + 6 + k] + l1 * F[vb + 6 + k] + l2 * F[vc + 6 + k]
  return -math.sqrt(F[b + FC_D2])


@jit
def _epa(m, F, I, kmax):
  """Port of epa: expands the polytope to the face closest to the origin; returns that face
  (or -1) and sets the penetration and witness points in the status."""
  upper = mjMAX_LIMIT
  upper2 = mjMAX_LIMIT
  face = -1
  discrete = discrete_geoms(F, I)
  tolerance = mjMINVAL if discrete else F[ST_TOL]

  mapb = I[P_MAP]
  k = 0
  while k < kmax:
    pface = face

    # face closest to the origin (lower bound of the depth)
    lower2 = mjMAX_LIMIT
    for i in range(I[P_NMAP]):
      fi = I[mapb + i]
      d2 = F[_ff(I, fi) + FC_D2]
      if d2 < lower2:
        face = fi
        lower2 = d2

    # no valid face: previous one
    if lower2 > upper2 or face < 0:
      face = pface
      break

    # origin on the face's affine hull
    if lower2 <= 0:
      break

    # support point along the face normal
    fb = _ff(I, face)
    lower = math.sqrt(lower2)
    wi = _epa_support(m, F, I, F[fb + FC_P], F[fb + FC_P + 1], F[fb + FC_P + 2], lower)
    w = _vf(wi)
    upper_k = (
      F[fb + FC_P] * F[w] + F[fb + FC_P + 1] * F[w + 1] + F[fb + FC_P + 2] * F[w + 2]
    ) / lower
    if upper_k < upper:
      upper = upper_k
      upper2 = upper * upper
    if upper - lower < tolerance:
      if k == 0 and upper < lower - 1e-10:
        face = -1
      break

    # repeated support point of discrete geoms
    if discrete:
      nverts = I[P_NV] - 1
      i = 0
      while i < nverts:
        if I[PTI0 + 2 * wi] == I[PTI0 + 2 * i] and I[PTI0 + 2 * wi + 1] == I[PTI0 + 2 * i + 1]:
          break
        i += 1
      if i != nverts:
        break

    I[P_W] = wi
    _horizon(F, I, face)

    # numerical failure
    if I[P_NE] < 3:
      face = -1
      break

    # attach faces along the horizon to w
    nfaces = I[P_NF]
    nedges = I[P_NE]
    if nedges > I[P_MAXF] - nfaces:
      break
    hor_index = I[I[P_HI]]
    hor_edge = I[I[P_HE]]
    hb = _ff(I, hor_index)
    v1 = int(F[hb + FC_V + hor_edge])
    v2 = int(F[hb + FC_V + (hor_edge + 1) % 3])
    F[hb + FC_ADJ + hor_edge] = nfaces
    dist2 = _attach_face(F, I, wi, v2, v1, nfaces + nedges - 1, hor_index, nfaces + 1)
    if dist2 == 0:
      face = -1
      break
    if dist2 >= lower2 and dist2 <= upper2:
      _map_add(F, I, I[P_NF] - 1)
    for i in range(1, nedges):
      cur = nfaces + i
      nxt = nfaces + (i + 1) % nedges
      hor_index = I[I[P_HI] + i]
      hor_edge = I[I[P_HE] + i]
      hb = _ff(I, hor_index)
      v1 = int(F[hb + FC_V + hor_edge])
      v2 = int(F[hb + FC_V + (hor_edge + 1) % 3])
      F[hb + FC_ADJ + hor_edge] = cur
      dist2 = _attach_face(F, I, wi, v2, v1, cur - 1, hor_index, nxt)
      if dist2 == 0:
        face = -1
        break
      if dist2 >= lower2 and dist2 <= upper2:
        _map_add(F, I, I[P_NF] - 1)
    I[P_NE] = 0

    # no candidates left
    if I[P_NMAP] == 0 or face < 0:
      break
    k += 1

  I[S_EPAIT] = k
  if face >= 0:
    F[ST_D] = _epa_witness(F, I, face)
    I[S_NX] = 1
  else:
    I[S_NX] = 0
    F[ST_D] = 0.0
  return face


# ---- entry point ----


@jit
def inflate(F, nx, margin1, margin2, n0, n1, n2, use_normal):
  """Port of inflate (MuJoCo 3.17): moves nx witness point pairs out by the margins along the
  given normal (or the first pair's direction), reducing their distances."""
  if margin1 == 0 and margin2 == 0:
    return
  if not use_normal:
    n0 = F[ST_X2] - F[ST_X1]
    n1 = F[ST_X2 + 1] - F[ST_X1 + 1]
    n2 = F[ST_X2 + 2] - F[ST_X1 + 2]
    norm = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)
    if norm < mjMINVAL:
      n0, n1, n2 = 1.0, 0.0, 0.0
    else:
      inv = 1 / norm
      n0 *= inv
      n1 *= inv
      n2 *= inv
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


@jit
def _set_centers(F, I):
  """Initial witness points: the object centers."""
  c0, c1, c2 = obj_center(F, I, O1, O1I)
  F[ST_X1] = c0
  F[ST_X1 + 1] = c1
  F[ST_X1 + 2] = c2
  c0, c1, c2 = obj_center(F, I, O2, O2I)
  F[ST_X2] = c0
  F[ST_X2 + 1] = c1
  F[ST_X2 + 2] = c2


@jit
def _features_from_simplex(F, I):
  """Contact features for multi-contact from the GJK simplex (its first 3 vertices)."""
  n = I[S_NSIMP]
  sel1 = 1 if n != 1 else 0
  sel2 = 2 if n >= 3 else 0
  for q in range(3):
    v = 0 if q == 0 else (sel1 if q == 1 else sel2)
    for k in range(9):
      F[FV + 9 * q + k] = F[ST_SV + 9 * v + k]
    I[FVI + 2 * q] = I[S_SVI + 2 * v]
    I[FVI + 2 * q + 1] = I[S_SVI + 2 * v + 1]


@jit
def _features_from_face(F, I, face):
  """Contact features for multi-contact from the EPA face's vertices."""
  for q in range(3):
    v = _fvert(F, I, face, q)
    for k in range(9):
      F[FV + 9 * q + k] = F[PT0 + 9 * v + k]
    I[FVI + 2 * q] = I[PTI0 + 2 * v]
    I[FVI + 2 * q + 1] = I[PTI0 + 2 * v + 1]


@jit
def _min_dist(F, I):
  """The smallest distance among the witness pairs."""
  dist = F[ST_D]
  for i in range(1, I[S_NX]):
    dist = min(dist, F[ST_D + i])
  return dist


@stage(M, vec, ivec, i8, f8, i8, f8, restype=f8, needed=CONVEX_OR_HFIELD)
def ccd(m, F, I, max_iterations, tolerance, max_contacts, dist_cutoff):
  """Port of mjc_ccd, engine_collision_gjk.c (MuJoCo 3.17): GJK distance, EPA penetration and
  (for max_contacts > 1) multi-contact of the two workspace objects.

  Spheres and capsules are reduced to their center point and segment, and geoms with a margin
  to their bare shape, for a first GJK; if that finds them apart by more than the tolerance,
  the witness points are moved out by the radii and half margins. Otherwise GJK and EPA run on
  the full (margin-inflated) shapes. Returns the smallest distance (negative: penetration);
  witness points and per-pair distances are in the status (x1, x2, dist, nx).
  """
  _set_centers(F, I)
  I[S_GJKIT] = 0
  I[S_EPAIT] = 0
  I[S_EPAST] = -1
  F[ST_TOL] = tolerance
  I[S_MAXIT] = max_iterations
  max_contacts = min(max_contacts, mjMAXCONPAIR)
  I[S_MAXCON] = max_contacts
  F[ST_CUT] = dist_cutoff
  I[S_NX] = 0

  # cores: sphere centers, capsule segments, geoms without margin
  t1 = I[O1I + IT]
  t2 = I[O2I + IT]
  core1 = t1 == mjGEOM_SPHERE or t1 == mjGEOM_CAPSULE
  core2 = t2 == mjGEOM_SPHERE or t2 == mjGEOM_CAPSULE
  shrink = core1 or core2
  if not shrink and I[O1I + IG] >= 0 and I[O2I + IG] >= 0:
    shrink = F[O1 + OMG] > 0 or F[O2 + OMG] > 0
  if shrink:
    margin1 = F[O1 + OMG]
    margin2 = F[O2 + OMG]
    full_margin1 = 0.5 * margin1
    full_margin2 = 0.5 * margin2
    F[O1 + OMG] = 0.0
    F[O2 + OMG] = 0.0
    if core1:
      I[O1I + IMODE] = MODE_POINT if t1 == mjGEOM_SPHERE else MODE_LINE
      full_margin1 = full_margin1 + F[O1 + OS]
    if core2:
      I[O2I + IMODE] = MODE_POINT if t2 == mjGEOM_SPHERE else MODE_LINE
      full_margin2 = full_margin2 + F[O2 + OS]
    F[ST_CUT] = dist_cutoff + (full_margin1 + full_margin2)
    gjk(m, F, I)
    F[ST_CUT] = dist_cutoff

    # restore margins and supports
    F[O1 + OMG] = margin1
    F[O2 + OMG] = margin2
    I[O1I + IMODE] = MODE_GEOM
    I[O2I + IMODE] = MODE_GEOM

    # shallow: inflate the core contact, then multi-contact
    if F[ST_D] > F[ST_TOL]:
      inflate(F, I[S_NX], full_margin1, full_margin2, 0.0, 0.0, 0.0, False)
      if F[ST_D] > F[ST_CUT]:
        F[ST_D] = mjMAX_LIMIT
        return F[ST_D]
      if F[ST_D] < 0 and max_contacts >= 2 and I[S_NSIMP] > 0:
        _features_from_simplex(F, I)
        I[S_NX] = multicontact.multicontact(m, F, I)
      return _min_dist(F, I)

    # contact not needed
    if max_contacts == 0:
      I[S_NX] = 0
      F[ST_D] = 0.0
      return 0.0

    # deep penetration: full shapes
    I[S_GJKIT] = 0
    _set_centers(F, I)
  gjk(m, F, I)

  # penetration not needed
  if max_contacts == 0:
    return F[ST_D]

  if F[ST_D] <= tolerance and I[S_NSIMP] >= 2 and I[S_SEP] == 0:
    F[ST_D] = 0.0

    # polytope storage
    ncap = capacity(F, I)
    nalloc = max(max_iterations, mjMAX_EPA_ITERATIONS)
    if nalloc > ncap:
      nalloc = ncap
    vcap = 5 + nalloc
    I[P_NV] = 0
    I[P_NF] = 0
    I[P_NMAP] = 0
    I[P_NE] = 0
    I[P_MAXF] = 6 * nalloc
    I[P_FB] = PT0 + 9 * vcap
    I[P_MAP] = PTI0 + 2 * vcap
    I[P_HI] = I[P_MAP] + 6 * nalloc
    I[P_HE] = I[P_HI] + 6 + nalloc

    nsimplex = I[S_NSIMP]
    if nsimplex == 2:
      ret = _polytope2(m, F, I)
    elif nsimplex == 3:
      ret = _polytope3(m, F, I)
    else:
      ret = _polytope4(m, F, I)
    I[S_EPAST] = ret

    # penetrating: EPA, then the contact manifold
    if ret == 0:
      face = _epa(m, F, I, min(min(max_iterations, 1000), nalloc))
      if max_contacts >= 2 and face >= 0:
        _features_from_face(F, I, face)
        I[S_NX] = multicontact.multicontact(m, F, I)
  return _min_dist(F, I)
