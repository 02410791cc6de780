"""Collision driver: port of mj_collision (engine_collision_driver.c, MuJoCo 3.17).

Broadphase: sweep-and-prune over world-aligned body boxes (geom boxes inflated by margin and
gap), giving body pairs sorted by signature `(b1 << 16) + b2`. Bodies welded together,
parent-child welds (unless mjDSBL_FILTERPARENT), `<exclude>`d pairs and contype/conaffinity
masks are filtered; explicit `<pair>`s are merged in signature order and replace the dynamic
contacts of their geoms.

Midphase (mj_collideTree), unless mjDSBL_MIDPHASE: a body pair with more than one geom on
either side walks the two bodies' bounding-volume hierarchies (m.bvh_*, built by the compiler
in each body's inertial frame), pruning node pairs whose oriented boxes are apart
(mj_collideOBB, with the bodies' margins); a pair of leaves is collided only if the geoms'
own oriented boxes (m.geom_aabb) overlap within the pair's margin and gap. The midphase is
not a pure optimization: geoms whose boxes are apart by a hair are dropped even when the
narrowphase would report them (exactly touching faces, for instance), and the pair's
contacts come out sorted by (geom1, geom2) rather than in the all-pairs order. Other body
pairs test every geom pair.

Each geom pair passes the bounding-sphere test, then the narrowphase
(engine/collision/narrowphase.py) writes up to mjMAXCONPAIR contacts, whose parameters are
mixed here (priority, solmix, max friction, summed margin/gap/adhesion) as mj_contactParam
and mj_setContact do.

MuJoCo's broadphase sweeps along the principal axis of the geom centers, this one along
world x; both prune only body pairs whose margin-inflated boxes are apart, which cannot have
contacts, so the same body pairs go on to the midphase.
"""

import numpy as np

from engine import flags as _flags
from engine import sleep as _sleep
from engine._jit import jit
from engine._jit import local_array
from engine._jit import local_int_array
from engine._stage import CONTACTS
from engine._stage import stage
from engine.collision import narrowphase
from engine.enums import mjDSBL_CONSTRAINT
from engine.enums import mjDSBL_CONTACT
from engine.enums import mjDSBL_FILTERPARENT
from engine.enums import mjDSBL_MIDPHASE
from engine.enums import mjENBL_OVERRIDE
from engine.enums import mjGEOM_PLANE
from engine.enums import mjMAXTREEDEPTH
from engine.enums import mjMAXVAL
from engine.enums import mjMINMU
from engine.enums import mjMINVAL
from engine.enums import mjNIMP
from engine.enums import mjNREF
from engine.enums import mjS_ASLEEP
from engine.enums import mjS_AWAKE
from engine.enums import mjWARN_CONTACTFULL
from engine.math import mju_makeFrame

# ---- parameters ----


@jit
def assign_margin(m, margin):
  """Port of mj_assignMargin: the override margin when mjENBL_OVERRIDE is set."""
  if _flags.enabled(m, mjENBL_OVERRIDE):
    return m.opt.o_margin[0]
  return margin


@jit
def _pair_margin_gap(m, g1, g2, ipair):
  """Margin and gap of a geom pair: the explicit pair's, else the sums of the geoms'."""
  if ipair >= 0:
    return assign_margin(m, m.pair_margin[ipair]), m.pair_gap[ipair]
  return assign_margin(m, m.geom_margin[g1] + m.geom_margin[g2]), m.geom_gap[g1] + m.geom_gap[g2]


@jit
def _contact_param(m, d, c, g1, g2):
  """Port of mj_contactParam: condim, solref, solimp, friction and adhesion of a dynamic pair.

  The higher priority geom wins; at equal priority condim and friction are the max, solref and
  solimp are mixed by solmix (solref by min when either is direct), adhesion is summed.
  """
  p1 = m.geom_priority[g1]
  p2 = m.geom_priority[g2]
  if p1 != p2:
    g = g1 if p1 > p2 else g2
    d.contact_dim[c] = m.geom_condim[g]
    for i in range(mjNREF):
      d.contact_solref[c, i] = m.geom_solref[g, i]
    for i in range(mjNIMP):
      d.contact_solimp[c, i] = m.geom_solimp[g, i]
    f0 = m.geom_friction[g, 0]
    f1 = m.geom_friction[g, 1]
    f2 = m.geom_friction[g, 2]
    d.contact_adhesion[c] = m.geom_adhesion[g]
  else:
    d.contact_dim[c] = max(m.geom_condim[g1], m.geom_condim[g2])
    s1 = m.geom_solmix[g1]
    s2 = m.geom_solmix[g2]
    if s1 >= mjMINVAL and s2 >= mjMINVAL:
      mix = s1 / (s1 + s2)
    elif s1 < mjMINVAL and s2 < mjMINVAL:
      mix = 0.5
    elif s1 < mjMINVAL:
      mix = 0.0
    else:
      mix = 1.0
    if m.geom_solref[g1, 0] > 0 and m.geom_solref[g2, 0] > 0:
      for i in range(mjNREF):
        d.contact_solref[c, i] = mix * m.geom_solref[g1, i] + (1 - mix) * m.geom_solref[g2, i]
    else:
      for i in range(mjNREF):
        d.contact_solref[c, i] = min(m.geom_solref[g1, i], m.geom_solref[g2, i])
    for i in range(mjNIMP):
      d.contact_solimp[c, i] = mix * m.geom_solimp[g1, i] + (1 - mix) * m.geom_solimp[g2, i]
    f0 = max(m.geom_friction[g1, 0], m.geom_friction[g2, 0])
    f1 = max(m.geom_friction[g1, 1], m.geom_friction[g2, 1])
    f2 = max(m.geom_friction[g1, 2], m.geom_friction[g2, 2])
    d.contact_adhesion[c] = m.geom_adhesion[g1] + m.geom_adhesion[g2]
  d.contact_friction[c, 0] = f0
  d.contact_friction[c, 1] = f0
  d.contact_friction[c, 2] = f1
  d.contact_friction[c, 3] = f2
  d.contact_friction[c, 4] = f2
  for i in range(mjNREF):
    d.contact_solreffriction[c, i] = 0.0


@jit
def _pair_param(m, d, c, ipair):
  """Contact parameters of an explicit `<pair>`."""
  d.contact_dim[c] = m.pair_dim[ipair]
  for i in range(mjNREF):
    d.contact_solref[c, i] = m.pair_solref[ipair, i]
    d.contact_solreffriction[c, i] = m.pair_solreffriction[ipair, i]
  for i in range(mjNIMP):
    d.contact_solimp[c, i] = m.pair_solimp[ipair, i]
  for i in range(5):
    d.contact_friction[c, i] = m.pair_friction[ipair, i]
  d.contact_adhesion[c] = m.pair_adhesion[ipair]


@jit
def _set_contact(m, d, c, includemargin):
  """Port of mj_setContact: overrides, friction floor, gap exclusion, complete frame."""
  d.contact_includemargin[c] = includemargin
  if _flags.enabled(m, mjENBL_OVERRIDE):
    for i in range(mjNREF):
      d.contact_solref[c, i] = m.opt.o_solref[i]
      d.contact_solreffriction[c, i] = m.opt.o_solref[i]
    for i in range(mjNIMP):
      d.contact_solimp[c, i] = m.opt.o_solimp[i]
    for i in range(5):
      d.contact_friction[c, i] = m.opt.o_friction[i]
  for i in range(5):
    d.contact_friction[c, i] = max(mjMINMU, d.contact_friction[c, i])
  d.contact_exclude[c] = 1 if d.contact_dist[c] >= includemargin else 0
  mju_makeFrame(d.contact_frame[c])
  d.contact_efc_address[c] = -1
  d.contact_mu[c] = 0.0
  d.contact_H[c, :] = 0.0
  for k in range(2):
    d.contact_flex[c, k] = -1
    d.contact_elem[c, k] = -1
    d.contact_vert[c, k] = -1


# ---- narrowphase of one geom pair ----


@jit
def _plane_geom_dist(d, plane, g):
  """Signed distance of geom g's center above the plane geom."""
  dist = 0.0
  for k in range(3):
    dist += (d.geom_xpos[g, k] - d.geom_xpos[plane, k]) * d.geom_xmat[plane, 3 * k + 2]
  return dist


@jit
def _sphere_filter(m, d, g1, g2, margin):
  """Port of mj_filterSphere: True when the bounding spheres (or plane half-space) are apart."""
  r1 = m.geom_rbound[g1]
  r2 = m.geom_rbound[g2]
  if r1 > 0 and r2 > 0:
    bound = r1 + r2 + margin
    dist2 = 0.0
    for k in range(3):
      dif = d.geom_xpos[g1, k] - d.geom_xpos[g2, k]
      dist2 += dif * dif
    return dist2 > bound * bound
  if m.geom_type[g1] == mjGEOM_PLANE and r2 > 0 and _plane_geom_dist(d, g1, g2) > margin + r2:
    return True
  if m.geom_type[g2] == mjGEOM_PLANE and r1 > 0 and _plane_geom_dist(d, g2, g1) > margin + r1:
    return True
  return False


@jit
def collide_pair(m, d, g1, g2, ipair):
  """Filters one geom pair by bounding spheres, runs the narrowphase and appends its contacts.
  An explicit pair is skipped when sleeping is enabled and neither body is awake.

  Returns False when the contact buffer is full (mjWARN_CONTACTFULL is raised).
  """
  if (
    ipair >= 0
    and _sleep.enabled(m)
    and d.body_awake[m.geom_bodyid[g1]] != mjS_AWAKE
    and d.body_awake[m.geom_bodyid[g2]] != mjS_AWAKE
  ):
    return True
  if m.geom_type[g1] > m.geom_type[g2]:
    g1, g2 = g2, g1
  margin, gap = _pair_margin_gap(m, g1, g2, ipair)
  if _sphere_filter(m, d, g1, g2, margin + gap):
    return True
  if not narrowphase.has_collider(m.geom_type[g1], m.geom_type[g2]):
    return True
  con = d.scratch_con
  n = narrowphase.collide_geoms(m, d, g1, g2, margin + gap, con)
  capacity = d.contact_dist.shape[0]
  for j in range(n):
    c = d.ncon[0]
    if c >= capacity:
      d.warning_number[mjWARN_CONTACTFULL] += 1
      d.warning_lastinfo[mjWARN_CONTACTFULL] = c
      return False
    d.ncon[0] = c + 1
    d.contact_dist[c] = con[j, 0]
    for k in range(3):
      d.contact_pos[c, k] = con[j, 1 + k]
    for k in range(9):
      d.contact_frame[c, k] = con[j, 4 + k]
    d.contact_geom[c, 0] = g1
    d.contact_geom[c, 1] = g2
    if ipair >= 0:
      _pair_param(m, d, c, ipair)
    else:
      _contact_param(m, d, c, g1, g2)
    _set_contact(m, d, c, margin)
  return True


@jit
def _is_predefined(m, g1, g2, start, end):
  """Whether an explicit pair in [start, end) names geoms g1 and g2."""
  for k in range(start, end):
    if (m.pair_geom1[k] == g1 and m.pair_geom2[k] == g2) or (
      m.pair_geom1[k] == g2 and m.pair_geom2[k] == g1
    ):
      return True
  return False


@jit
def _collide_dynamic(m, d, g1, g2, merged, start, pairadr):
  """Port of filterCollisionPair and the narrowphase for a dynamic geom pair: skipped when an
  explicit pair of this body pair (in [start, pairadr)) names it or contype/conaffinity
  exclude it. Returns False when the contact buffer is full."""
  if merged and _is_predefined(m, g1, g2, start, pairadr):
    return True
  if not (
    (m.geom_contype[g1] & m.geom_conaffinity[g2]) or (m.geom_contype[g2] & m.geom_conaffinity[g1])
  ):
    return True
  return collide_pair(m, d, g1, g2, -1)


# ---- broadphase ----


@jit
def _can_collide(m, b):
  return m.body_contype[b] != 0 or m.body_conaffinity[b] != 0


@jit
def _body_boxes(m, d):
  """World-aligned box (min xyz, max xyz) of each body's geoms, inflated by margin and gap."""
  box = d.scratch_aabb
  for b in range(m.nbody):
    for k in range(3):
      box[b, k] = np.inf
      box[b, 3 + k] = -np.inf
  override = _flags.enabled(m, mjENBL_OVERRIDE)
  for g in range(m.ngeom):
    b = m.geom_bodyid[g]
    inflate = (m.opt.o_margin[0] if override else m.geom_margin[g]) + m.geom_gap[g]
    for k in range(3):
      center = d.geom_xpos[g, k]
      half = inflate
      for j in range(3):
        r = d.geom_xmat[g, 3 * k + j]
        center += r * m.geom_aabb[g, j]
        half += abs(r) * m.geom_aabb[g, 3 + j]
      box[b, k] = min(box[b, k], center - half)
      box[b, 3 + k] = max(box[b, 3 + k], center + half)


@jit
def _weld_filtered(m, d, b1, b2, filterparent, sleeping):
  """Port of filterBodyPair: same weld body, both without dofs (static or mocap: no force can
  act), both asleep or one asleep and the other static (when some tree sleeps), or
  parent-child welds."""
  weld1 = m.body_weldid[b1]
  weld2 = m.body_weldid[b2]
  if weld1 == weld2:
    return True
  if m.body_dofnum[weld1] == 0 and m.body_dofnum[weld2] == 0:
    return True
  if sleeping:
    asleep1 = d.body_awake[b1] == mjS_ASLEEP
    asleep2 = d.body_awake[b2] == mjS_ASLEEP
    if (asleep1 and asleep2) or (asleep1 and weld2 == 0) or (asleep2 and weld1 == 0):
      return True
  if filterparent and weld1 != 0 and weld2 != 0:
    parent1 = m.body_weldid[m.body_parentid[weld1]]
    parent2 = m.body_weldid[m.body_parentid[weld2]]
    if weld1 == parent2 or weld2 == parent1:
      return True
  return False


@jit
def broadphase(m, d):
  """Sweep-and-prune along x over body boxes: candidate body pairs, sorted by signature, in
  d.scratch_bodypair; returns their number. Pairs past its capacity (every body pair, at most
  2^24) are dropped with mjWARN_CONTACTFULL."""
  _body_boxes(m, d)
  box = d.scratch_aabb
  order = d.scratch_bp_order
  active = d.scratch_bp_active
  pairs = d.scratch_bodypair
  filterparent = not _flags.disabled(m, mjDSBL_FILTERPARENT)
  sleeping = _sleep.enabled(m) and d.nbody_awake[0] < m.nbody

  # collidable bodies with geoms, sorted by their lower x bound
  _sort_bodies(m, d, box, order)
  n = d.scratch_bp_count[0]

  # sweep: each body against the active ones whose x interval it still overlaps
  npair = 0
  full = False
  nactive = 0
  for i in range(n):
    b = order[i]
    keep = 0
    for j in range(nactive):
      a = active[j]
      if box[a, 3] < box[b, 0]:
        continue  # a ends before b starts: drop it from the active list
      active[keep] = a
      keep += 1
      if (
        box[a, 1] > box[b, 4]
        or box[b, 1] > box[a, 4]
        or box[a, 2] > box[b, 5]
        or box[b, 2] > box[a, 5]
      ):
        continue
      if _weld_filtered(m, d, a, b, filterparent, sleeping):
        continue
      if npair == pairs.shape[0]:
        full = True
        continue
      lo = min(a, b)
      hi = max(a, b)
      pairs[npair] = (lo << 16) + hi
      npair += 1
    active[keep] = b
    nactive = keep + 1
  if full:
    d.warning_number[mjWARN_CONTACTFULL] += 1
    d.warning_lastinfo[mjWARN_CONTACTFULL] = pairs.shape[0]
  _sort_pairs(pairs, npair, active, d.scratch_bp_bucket, m.nbody)
  return npair


@jit
def _sort_pairs(pairs, npair, start, bucket, nbody):
  """Sorts the body pairs pairs[:npair] ascending in place, without allocating: a counting
  sort by first body (start, bucket: nbody ints of scratch), swapping each pair into its
  body's next place, then each body's pairs by second body: a few by insertion, many (the
  world's, whose box spans the static geoms) by marking the second bodies and reading the
  marks back in order. About npair + nbody steps where a comparison sort's unpredictable
  branches cost npair log npair."""
  for b in range(nbody):
    start[b] = 0
  for k in range(npair):
    start[pairs[k] >> 16] += 1
  total = 0
  for b in range(nbody):
    count = start[b]
    start[b] = total
    bucket[b] = total
    total += count
  for b in range(nbody):
    end = start[b + 1] if b + 1 < nbody else npair
    while bucket[b] < end:
      pair = pairs[bucket[b]]
      owner = pair >> 16
      while owner != b:  # swap it into its owner's next place, take what was there
        place = bucket[owner]
        bucket[owner] = place + 1
        pairs[place], pair = pair, pairs[place]
        owner = pair >> 16
      pairs[bucket[b]] = pair
      bucket[b] += 1
  marked = bucket  # free again: marks of second bodies
  for b in range(nbody):
    marked[b] = 0
  for b in range(nbody):
    first = start[b]
    end = start[b + 1] if b + 1 < nbody else npair
    if end - first > 16:
      for i in range(first, end):
        marked[pairs[i] & 0xFFFF] = 1
      k = first
      for h in range(b + 1, nbody):
        if marked[h]:
          marked[h] = 0
          pairs[k] = (b << 16) + h
          k += 1
      continue
    for i in range(first + 1, end):
      pair = pairs[i]
      j = i - 1
      while j >= first and pairs[j] > pair:
        pairs[j + 1] = pairs[j]
        j -= 1
      pairs[j + 1] = pair


@jit
def _sort_bodies(m, d, box, order):
  """d.scratch_bp_order[:n] = the n collidable bodies with geoms by their lower x bound.

  The previous step's order is nearly sorted: insertion sort from it costs about n. When the
  collidable set changed (or after a reset) or insertion would move too much, the bodies are
  listed anew and heap sorted, so thousands of bodies never cost n^2."""
  n = 0
  for b in range(m.nbody):
    if m.body_geomnum[b] > 0 and _can_collide(m, b):
      n += 1
  valid = d.scratch_bp_count[0] == n
  if valid:
    for i in range(n):
      b = order[i]
      if not (m.body_geomnum[b] > 0 and _can_collide(m, b)):
        valid = False
        break
  if valid:
    budget = 8 * n + 64
    for i in range(1, n):
      b = order[i]
      j = i - 1
      while j >= 0 and box[order[j], 0] > box[b, 0]:
        order[j + 1] = order[j]
        j -= 1
        budget -= 1
      order[j + 1] = b
      if budget < 0:
        valid = False
        break
  if not valid:
    k = 0
    for b in range(m.nbody):
      if m.body_geomnum[b] > 0 and _can_collide(m, b):
        order[k] = b
        k += 1
    _heapsort_by_key(order, n, box)
  d.scratch_bp_count[0] = n


@jit
def _heapsort_by_key(ids, n, box):
  """Sorts ids[:n] in place by box[id, 0] ascending (a heap sort: no allocation)."""
  for start in range(n // 2 - 1, -1, -1):
    _sift_down_by_key(ids, start, n, box)
  for end in range(n - 1, 0, -1):
    ids[0], ids[end] = ids[end], ids[0]
    _sift_down_by_key(ids, 0, end, box)


@jit
def _sift_down_by_key(ids, root, n, box):
  while True:
    child = 2 * root + 1
    if child >= n:
      return
    if child + 1 < n and box[ids[child + 1], 0] > box[ids[child], 0]:
      child += 1
    if box[ids[root], 0] >= box[ids[child], 0]:
      return
    ids[root], ids[child] = ids[child], ids[root]
    root = child


# ---- midphase ----

# traversal stack of mj_collideTree: a depth-first walk holds at most one pending sibling per
# level of the two trees plus the two children just pushed; the compiler's median split keeps
# a body's tree within log2(ngeom) < mjMAXTREEDEPTH levels
_TREE_STACK = 2 * mjMAXTREEDEPTH + 2


@jit
def _col_dot(mat1, c1, mat2, c2):
  """Dot product of column c1 of the 3x3 matrix mat1 and column c2 of mat2 (row-major)."""
  return mat1[c1] * mat2[c2] + mat1[3 + c1] * mat2[3 + c2] + mat1[6 + c1] * mat2[6 + c2]


@jit
def _obb_infinite(aabb):
  """Whether a box has any, and all, half sizes of at least mjMAXVAL (planes are infinite)."""
  inf0 = aabb[3] >= mjMAXVAL
  inf1 = aabb[4] >= mjMAXVAL
  inf2 = aabb[5] >= mjMAXVAL
  return inf0 or inf1 or inf2, inf0 and inf1 and inf2


@jit
def collide_obb(aabb1, aabb2, xpos1, xmat1, xpos2, xmat2, margin):
  """Port of mj_collideOBB without precomputed products: whether two oriented boxes overlap.

  aabb: center and half sizes in the frame (xpos, xmat). Separating-axis test on the six face
  normals (Gottschalk et al.), the boxes inflated by margin in total; the faces of a box are
  not tested against an infinite box, and a box infinite along every axis always overlaps.
  """
  any1, all1 = _obb_infinite(aabb1)
  any2, all2 = _obb_infinite(aabb2)
  if all1 or all2:
    return True

  # centers in the world frame
  c1x = xmat1[0] * aabb1[0] + xmat1[1] * aabb1[1] + xmat1[2] * aabb1[2] + xpos1[0]
  c1y = xmat1[3] * aabb1[0] + xmat1[4] * aabb1[1] + xmat1[5] * aabb1[2] + xpos1[1]
  c1z = xmat1[6] * aabb1[0] + xmat1[7] * aabb1[1] + xmat1[8] * aabb1[2] + xpos1[2]
  c2x = xmat2[0] * aabb2[0] + xmat2[1] * aabb2[1] + xmat2[2] * aabb2[2] + xpos2[0]
  c2y = xmat2[3] * aabb2[0] + xmat2[4] * aabb2[1] + xmat2[5] * aabb2[2] + xpos2[1]
  c2z = xmat2[6] * aabb2[0] + xmat2[7] * aabb2[1] + xmat2[8] * aabb2[2] + xpos2[2]

  # project both boxes on each face normal of box j
  for j in range(2):
    if any2 if j == 0 else any1:
      continue  # no test against an infinite box
    axes = xmat1 if j == 0 else xmat2
    for k in range(3):
      proj1 = c1x * axes[k] + c1y * axes[3 + k] + c1z * axes[6 + k]
      proj2 = c2x * axes[k] + c2y * axes[3 + k] + c2z * axes[6 + k]
      radius1 = (
        abs(aabb1[3] * _col_dot(xmat1, 0, axes, k))
        + abs(aabb1[4] * _col_dot(xmat1, 1, axes, k))
        + abs(aabb1[5] * _col_dot(xmat1, 2, axes, k))
      )
      radius2 = (
        abs(aabb2[3] * _col_dot(xmat2, 0, axes, k))
        + abs(aabb2[4] * _col_dot(xmat2, 1, axes, k))
        + abs(aabb2[5] * _col_dot(xmat2, 2, axes, k))
      )
      if radius1 + radius2 + margin < abs(proj2 - proj1):
        return False
  return True


@jit
def obb_products(xpos1, xmat1, xpos2, xmat2, product, offset):
  """The products mj_collideOBB precomputes for one pair of frames, reused by every node pair.

  product[18i + 9j + 3k + c]: column c of frame i dotted with column k of frame j;
  offset[6i + 3j + k]: origin of frame i dotted with column k of frame j (frame 0 is
  (xpos1, xmat1), frame 1 is (xpos2, xmat2)).
  """
  for i in range(2):
    mat_i = xmat1 if i == 0 else xmat2
    pos_i = xpos1 if i == 0 else xpos2
    for j in range(2):
      mat_j = xmat1 if j == 0 else xmat2
      for k in range(3):
        for c in range(3):
          product[18 * i + 9 * j + 3 * k + c] = _col_dot(mat_i, c, mat_j, k)
        offset[6 * i + 3 * j + k] = (
          pos_i[0] * mat_j[k] + pos_i[1] * mat_j[3 + k] + pos_i[2] * mat_j[6 + k]
        )


@jit
def collide_obb_products(aabb1, aabb2, product, offset, margin):
  """Port of mj_collideOBB with precomputed products (obb_products): the same test, with the
  boxes given in the two frames the products were computed for."""
  any1, all1 = _obb_infinite(aabb1)
  any2, all2 = _obb_infinite(aabb2)
  if all1 or all2:
    return True
  for j in range(2):
    if any2 if j == 0 else any1:
      continue  # no test against an infinite box
    for k in range(3):
      adr1 = 9 * j + 3 * k
      adr2 = 18 + 9 * j + 3 * k
      proj1 = (
        aabb1[0] * product[adr1]
        + aabb1[1] * product[adr1 + 1]
        + aabb1[2] * product[adr1 + 2]
        + offset[3 * j + k]
      )
      proj2 = (
        aabb2[0] * product[adr2]
        + aabb2[1] * product[adr2 + 1]
        + aabb2[2] * product[adr2 + 2]
        + offset[6 + 3 * j + k]
      )
      radius1 = (
        abs(aabb1[3] * product[adr1])
        + abs(aabb1[4] * product[adr1 + 1])
        + abs(aabb1[5] * product[adr1 + 2])
      )
      radius2 = (
        abs(aabb2[3] * product[adr2])
        + abs(aabb2[4] * product[adr2 + 1])
        + abs(aabb2[5] * product[adr2 + 2])
      )
      if radius1 + radius2 + margin < abs(proj2 - proj1):
        return False
  return True


@jit
def _bvh_surface(aabb):
  """The surface measure mj_collideTree compares to pick the node to descend: MuJoCo reads the
  (center, half size) row as if it were (min, max), so do we, for the same traversal."""
  x = aabb[3] - aabb[0]
  y = aabb[4] - aabb[1]
  z = aabb[5] - aabb[2]
  return x * y + y * z + z * x


@jit
def _is_leaf(m, adr, node):
  return m.bvh_child[adr + node, 0] < 0 and m.bvh_child[adr + node, 1] < 0


@jit
def _collide_leaves(m, d, g1, g2, merged, start, pairadr):
  """The leaf pair of mj_collideTree: bounding spheres, then the geoms' oriented boxes, then
  the dynamic pair. Returns False when the contact buffer is full."""
  margin, gap = _pair_margin_gap(m, g1, g2, -1)
  if _sphere_filter(m, d, g1, g2, margin + gap):
    return True
  if not collide_obb(
    m.geom_aabb[g1],
    m.geom_aabb[g2],
    d.geom_xpos[g1],
    d.geom_xmat[g1],
    d.geom_xpos[g2],
    d.geom_xmat[g2],
    margin + gap,
  ):
    return True
  return _collide_dynamic(m, d, g1, g2, merged, start, pairadr)


@jit
def collide_tree(m, d, b1, b2, merged, start, pairadr):
  """Port of mj_collideTree for two bodies: walks their hierarchies depth first and collides
  the leaf pairs whose boxes overlap. Returns False when the contact buffer is full.

  Node pairs are tested in the bodies' inertial frames with the bodies' summed margins; at
  each overlapping pair the node that is not a leaf, or else the one with the larger surface
  measure, is split.
  """
  adr1 = m.body_bvhadr[b1]
  adr2 = m.body_bvhadr[b2]
  margin = assign_margin(m, m.body_margin[b1] + m.body_margin[b2])
  product = local_array(36)
  offset = local_array(12)
  obb_products(d.xipos[b1], d.ximat[b1], d.xipos[b2], d.ximat[b2], product, offset)

  stack1 = local_int_array(_TREE_STACK)
  stack2 = local_int_array(_TREE_STACK)
  stack1[0] = 0
  stack2[0] = 0
  nstack = 1
  while nstack > 0:
    nstack -= 1
    node1 = stack1[nstack]
    node2 = stack2[nstack]
    leaf1 = _is_leaf(m, adr1, node1)
    leaf2 = _is_leaf(m, adr2, node2)

    # two leaves: collide their geoms
    if leaf1 and leaf2:
      if not _collide_leaves(
        m, d, m.bvh_nodeid[adr1 + node1], m.bvh_nodeid[adr2 + node2], merged, start, pairadr
      ):
        return False
      continue

    # inner node pair: stop where the boxes are apart
    aabb1 = m.bvh_aabb[adr1 + node1]
    aabb2 = m.bvh_aabb[adr2 + node2]
    if not collide_obb_products(aabb1, aabb2, product, offset, margin):
      continue

    # split the inner node, the larger one if both are inner
    if nstack + 2 > _TREE_STACK:
      continue  # cannot happen (see _TREE_STACK); never write past the stack
    if leaf2 or (not leaf1 and _bvh_surface(aabb1) > _bvh_surface(aabb2)):
      for i in range(2):
        child = m.bvh_child[adr1 + node1, i]
        if child != -1:
          stack1[nstack] = child
          stack2[nstack] = node2
          nstack += 1
    else:
      for i in range(2):
        child = m.bvh_child[adr2 + node2, i]
        if child != -1:
          stack1[nstack] = node1
          stack2[nstack] = child
          nstack += 1
  return True


@jit
def _swap(a, i, j):
  a[i], a[j] = a[j], a[i]


@jit
def _swap_rows(a, i, j):
  for k in range(a.shape[1]):
    a[i, k], a[j, k] = a[j, k], a[i, k]


@jit
def _swap_contacts(d, i, j):
  """Exchanges contacts i and j (every d.contact_* field)."""
  _swap(d.contact_dist, i, j)
  _swap_rows(d.contact_pos, i, j)
  _swap_rows(d.contact_frame, i, j)
  _swap(d.contact_includemargin, i, j)
  _swap_rows(d.contact_friction, i, j)
  _swap_rows(d.contact_solref, i, j)
  _swap_rows(d.contact_solreffriction, i, j)
  _swap_rows(d.contact_solimp, i, j)
  _swap(d.contact_mu, i, j)
  _swap_rows(d.contact_H, i, j)
  _swap(d.contact_adhesion, i, j)
  _swap(d.contact_dim, i, j)
  _swap_rows(d.contact_geom, i, j)
  _swap_rows(d.contact_flex, i, j)
  _swap_rows(d.contact_elem, i, j)
  _swap_rows(d.contact_vert, i, j)
  _swap(d.contact_exclude, i, j)
  _swap(d.contact_efc_address, i, j)


@jit
def _contact_after(d, i, j):
  """Whether contact i sorts after contact j: by geom1, then geom2."""
  gi1 = d.contact_geom[i, 0]
  gj1 = d.contact_geom[j, 0]
  if gi1 != gj1:
    return gi1 > gj1
  return d.contact_geom[i, 1] > d.contact_geom[j, 1]


_SORT_BUFFER = 64


@jit
def sort_contacts(d, start, end):
  """Stable sort of contacts [start, end) by (geom1, geom2), as mj_collision sorts the contacts
  of a midphase body pair (the tree walk finds geom pairs out of order).

  The order is found on indices first (insertion sort: a body pair has few contacts, each geom
  pair's contiguous), then the records are moved into place with at most n - 1 swaps; moving
  whole records inside the insertion sort took one swap per inversion, 96 for four geom pairs
  of four contacts in reverse. Beyond the stack buffer's size, records are sorted directly.
  """
  n = end - start
  is_sorted = True
  for i in range(start + 1, end):
    if _contact_after(d, i - 1, i):
      is_sorted = False
      break
  if is_sorted:
    return
  if n > _SORT_BUFFER:
    for i in range(start + 1, end):
      j = i
      while j > start and _contact_after(d, j - 1, j):
        _swap_contacts(d, j - 1, j)
        j -= 1
    return

  # order[k]: the contact (offset from start) that belongs at offset k
  order = local_int_array(_SORT_BUFFER)
  for i in range(n):
    j = i
    while j > 0 and _contact_after(d, start + order[j - 1], start + i):
      order[j] = order[j - 1]
      j -= 1
    order[j] = i

  # where[c]: the offset contact c sits at now; held[k]: the contact sitting at offset k
  where = local_int_array(_SORT_BUFFER)
  held = local_int_array(_SORT_BUFFER)
  for i in range(n):
    where[i] = i
    held[i] = i
  for k in range(n):
    c = order[k]
    at = where[c]
    if at != k:
      _swap_contacts(d, start + k, start + at)
      moved = held[k]
      held[k] = c
      held[at] = moved
      where[c] = k
      where[moved] = at


# ---- entry point ----


@jit
def _is_excluded(m, signature):
  for i in range(m.nexclude):
    if m.exclude_signature[i] == signature:
      return True
  return False


@jit
def enabled(m):
  """Whether contacts can occur: enabled, and two bodies (mj_collision's early return; the
  collision stage is compiled for the models where it holds, engine/_stage.py CONTACTS)."""
  return not _flags.disabled(m, mjDSBL_CONSTRAINT | mjDSBL_CONTACT) and m.nbody >= 2


@stage(needed=CONTACTS)
def collision(m, d):
  """Port of mj_collision: fills d.contact_* and d.ncon for the current geom poses."""
  d.ncon[0] = 0
  if not enabled(m):
    return
  midphase = not _flags.disabled(m, mjDSBL_MIDPHASE)
  npair = broadphase(m, d)
  pairs = d.scratch_bodypair
  pairadr = 0
  for i in range(npair):
    signature = pairs[i]
    b1 = signature >> 16
    b2 = signature & 0xFFFF

    # explicit pairs up to this signature come first
    start = pairadr
    merged = False
    while pairadr < m.npair and m.pair_signature[pairadr] <= signature:
      merged = m.pair_signature[pairadr] == signature
      if not collide_pair(m, d, m.pair_geom1[pairadr], m.pair_geom2[pairadr], pairadr):
        return
      pairadr += 1

    # dynamic pairs: body masks, exclusions
    if not (
      (m.body_contype[b1] & m.body_conaffinity[b2]) or (m.body_contype[b2] & m.body_conaffinity[b1])
    ):
      continue
    if _is_excluded(m, signature):
      continue

    # midphase unless both bodies have a single geom: contacts sorted by geom pair
    if (
      midphase
      and (m.body_geomnum[b1] != 1 or m.body_geomnum[b2] != 1)
      and m.body_bvhadr[b1] >= 0
      and m.body_bvhadr[b2] >= 0
    ):
      ncon = d.ncon[0]
      full = not collide_tree(m, d, b1, b2, merged, start, pairadr)
      sort_contacts(d, ncon, d.ncon[0])
      if full:
        return
      continue

    # every geom pair
    for g1 in range(m.body_geomadr[b1], m.body_geomadr[b1] + m.body_geomnum[b1]):
      for g2 in range(m.body_geomadr[b2], m.body_geomadr[b2] + m.body_geomnum[b2]):
        if not _collide_dynamic(m, d, g1, g2, merged, start, pairadr):
          return

  # the remaining explicit pairs
  while pairadr < m.npair:
    if not collide_pair(m, d, m.pair_geom1[pairadr], m.pair_geom2[pairadr], pairadr):
      return
    pairadr += 1


def mj_collision(m, d) -> None:
  """Detects contacts for the current geom poses (mj_collision): fills d.contact and d.ncon."""
  collision(m._struct, d._struct)
