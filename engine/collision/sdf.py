"""Collisions with signed distance fields: mjc_SDF and mjc_MeshSDF (engine_collision_sdf.c,
MuJoCo 3.17).

An SDF geom (`<geom type="sdf" mesh=...><plugin instance=.../></geom>`) is a field given by
its plugin's sdf_distance / sdf_gradient callbacks (engine/plugin_call.py), evaluated in the
geom's "SDF frame": the geom frame with the mesh's own transform (mesh_pos, mesh_quat) undone,
which for a plugin mesh is the geom frame itself.

- `collide_sdf(g1, g2)`, g2 an SDF and g1 a sphere, capsule, ellipsoid, cylinder, box or SDF
  (primitives have analytic fields): `sdf_initpoints` Halton points over the intersection of
  the two geoms' boxes; from each, gradient descent with a backtracking line search on the
  "collision" objective A + B + |max(A, B)| (A, B the two fields; a step that does not
  decrease it is undone and ends the descent), then one step on the intersection max(A, B);
  a penetrating end point (max < 0) becomes a contact, with its normal from the "midsurface"
  A - B. Points at the same place (closer than mjMINVAL) count once. Inside a box the field
  is MuJoCo's smooth radial one, not the exact distance. Measured: MuJoCo's contacts to
  rounding (tests/engine/test_sdf_collision.py).
- `collide_mesh_sdf(g1, g2)`, g1 a mesh: the mesh's face BVH is walked with bounding-sphere
  tests against the field, surviving triangles pass a circumsphere test, then Frank-Wolfe on
  each triangle finds its deepest point; the deepest mjMAXCONPAIR become contacts. This is
  the algorithm of MuJoCo's source before 3.17; MuJoCo 3.17 keeps fewer of these points
  (measured: a subset of ours plus points we do not find), so mesh-SDF contacts are not
  MuJoCo's.
A plane against an SDF is mjc_PlaneConvex on the SDF's mesh (narrowphase.py); MuJoCo has no
height field-SDF function.

Deviations, all where MuJoCo would write past its buffers or stop with an error: contacts
beyond mjMAXCONPAIR (sdf_initpoints > 50) are dropped, as are triangles beyond 1300 (MuJoCo
warns) and penetrating triangles beyond 500.
"""

import math

import numpy as np

from engine._jit import always_inline
from engine._jit import jit
from engine._stage import MESH_SDF
from engine._stage import SDFS
from engine._stage import D
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import mat
from engine._stage import stage
from engine.collision import sdf_shapes
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_PLANE
from engine.enums import mjGEOM_SDF
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjMAXCONPAIR
from engine.enums import mjMAXVAL
from engine.enums import mjMINVAL
from engine.math import mju_makeFrame
from engine.math import mju_mat2Quat
from engine.math import mju_mulPose
from engine.math import mju_negPose
from engine.math import mju_quat2Mat
from engine.math import mju_rotVecQuat
from engine.math import normalize3_scalars
from engine.plugin_call import FN_SDF_DISTANCE
from engine.plugin_call import FN_SDF_GRADIENT
from engine.plugin_call import FN_SDF_SHAPE
from engine.plugin_call import call_sdf_distance
from engine.plugin_call import call_sdf_gradient

MAXSDFFACE = 1300  # triangles kept by the mesh BVH walk
MAXMESHPNT = 500  # penetrating triangles kept

# mjtSDFType: how the two fields of a pair combine
SINGLE, INTERSECTION, MIDSURFACE, COLLISION = 0, 1, 2, 3

# the pair's fields: F[0:3] relpos, F[3:12] relmat (SDF-0 frame -> SDF-1 frame), F[12:15] a
# point and F[15:18] a gradient handed to plugin callbacks; I = (type0, id0, type1, id1), id a
# plugin instance for SDF geoms and a geom id otherwise
NF = 18

# d.scratch_ccd layout (the convex-collision workspace, idle during SDF collisions; nothing is
# allocated while stepping): pair fields, 14 poses of 9, 16 temporaries, box bounds, the point,
# the contacts' points, then mjc_MeshSDF's triangle scratch and candidates
W_F, W_P, W_TMP, W_BOX, W_X, W_PTS = 0, NF, NF + 126, NF + 142, NF + 154, NF + 157
W_TRI = W_PTS + 3 * mjMAXCONPAIR  # corners, v, cross products, center: 4 x 9
W_CAND = W_TRI + 36  # candidates (MAXMESHPNT, 3) then their depths (MAXMESHPNT)
# d.scratch_ccdi layout: the pair's (type, id) x 2, the BVH's face list, then the walk's stack
# (reused for the candidates' order)
WI_FACE, WI_STACK = 4, 4 + MAXSDFFACE


@jit
def halton(index, base):
  """mju_Halton: element `index` of the Halton sequence in `base`."""
  n0 = index
  b = float(base)
  f = 1.0 / b
  hn = 0.0
  while n0 > 0:
    n1 = n0 // base
    r = n0 - n1 * base
    hn += f * r
    f /= b
    n0 = n1
  return hn


# ---------------------------------------------------------------- one field: a geom or a plugin


@always_inline
@jit
def geom_distance(m, d, gtype, i, x0, x1, x2, F):
  """Signed distance of geom i (type gtype; for an SDF, plugin instance i) at a point of its
  frame (MuJoCo's geomDistance; the primitives' fields are Inigo Quilez's)."""
  if gtype == mjGEOM_PLANE:
    return x2
  if gtype == mjGEOM_SDF:
    shape = m.plugin_fn[i, FN_SDF_SHAPE]
    if shape:  # one of our own shapes: its parameters follow the shape id
      params = m.plugin_param[m.plugin_paramadr[i] + 1 :]
      return sdf_shapes.distance(shape - 1, x0, x1, x2, params)
    F[12] = x0
    F[13] = x1
    F[14] = x2
    return call_sdf_distance(m.plugin_fn[i, FN_SDF_DISTANCE], m, d, i, F[12:15])
  s = m.geom_size[i]
  if gtype == mjGEOM_SPHERE:
    return math.sqrt(x0 * x0 + x1 * x1 + x2 * x2) - s[0]
  if gtype == mjGEOM_BOX:
    a0 = abs(x0) - s[0]
    a1 = abs(x1) - s[1]
    a2 = abs(x2) - s[2]
    if a0 >= 0 or a1 >= 0 or a2 >= 0:
      b0 = max(a0, 0.0)
      b1 = max(a1, 0.0)
      b2 = max(a2, 0.0)
      return math.sqrt(b0 * b0 + b1 * b1 + b2 * b2) + min(max(a0, max(a1, a2)), 0.0)
    # inside: distance to the surface along the radial field (smooth, unlike the exact one)
    b0, b1, b2 = _box_radial(s, a0, a1, a2, x0, x1, x2)
    t = min(-a0 / abs(b0), min(-a1 / abs(b1), -a2 / abs(b2)))
    return -t * math.sqrt(b0 * b0 + b1 * b1 + b2 * b2)
  if gtype == mjGEOM_CAPSULE:
    a2 = x2 - min(max(x2, -s[1]), s[1])
    return math.sqrt(x0 * x0 + x1 * x1 + a2 * a2) - s[0]
  if gtype == mjGEOM_ELLIPSOID:
    _, _, _, k0, k1 = _ellipsoid(s, x0, x1, x2)
    return k0 * (k0 - 1.0) / k1
  if gtype == mjGEOM_CYLINDER:
    a0 = math.sqrt(x0 * x0 + x1 * x1) - s[0]
    a1 = abs(x2) - s[1]
    b0 = max(a0, 0.0)
    b1 = max(a1, 0.0)
    return min(max(a0, a1), 0.0) + math.sqrt(b0 * b0 + b1 * b1)
  return mjMAXVAL  # no field (the narrowphase routes no other type here)


@jit
def _ellipsoid(s, x0, x1, x2):
  """The ellipsoid field's terms: b = x / size^2, k0 = |x / size|, k1 = |b|."""
  a0 = x0 / s[0]
  a1 = x1 / s[1]
  a2 = x2 / s[2]
  b0 = a0 / s[0]
  b1 = a1 / s[1]
  b2 = a2 / s[2]
  k0 = math.sqrt(a0 * a0 + a1 * a1 + a2 * a2)
  k1 = math.sqrt(b0 * b0 + b1 * b1 + b2 * b2)
  return b0, b1, b2, k0, k1


@always_inline
@jit
def geom_gradient(m, d, gtype, i, x0, x1, x2, F):
  """Gradient of geom_distance (MuJoCo's geomGradient) -> (g0, g1, g2)."""
  if gtype == mjGEOM_PLANE:
    return 0.0, 0.0, 1.0
  if gtype == mjGEOM_SDF:
    shape = m.plugin_fn[i, FN_SDF_SHAPE]
    if shape:
      params = m.plugin_param[m.plugin_paramadr[i] + 1 :]
      sdf_shapes.gradient(shape - 1, x0, x1, x2, params, F[15:18])
      return F[15], F[16], F[17]
    F[12] = x0
    F[13] = x1
    F[14] = x2
    call_sdf_gradient(m.plugin_fn[i, FN_SDF_GRADIENT], m, d, i, F[12:15], F[15:18])
    return F[15], F[16], F[17]
  s = m.geom_size[i]
  if gtype == mjGEOM_SPHERE:
    c = math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)
    return x0 * (1.0 / c), x1 * (1.0 / c), x2 * (1.0 / c)
  if gtype == mjGEOM_BOX:
    a0 = abs(x0) - s[0]
    a1 = abs(x1) - s[1]
    a2 = abs(x2) - s[2]
    k = 0 if a0 > a1 else 1
    ak = a0 if k == 0 else a1
    l = 2 if a2 > ak else k
    al = a2 if l == 2 else ak
    if al < 0:
      return _box_radial(s, a0, a1, a2, x0, x1, x2)
    b0 = max(a0, 0.0)
    b1 = max(a1, 0.0)
    b2 = max(a2, 0.0)
    c = math.sqrt(b0 * b0 + b1 * b1 + b2 * b2)
    return (
      b0 / c * x0 / abs(x0) if a0 > 0 else 0.0,
      b1 / c * x1 / abs(x1) if a1 > 0 else 0.0,
      b2 / c * x2 / abs(x2) if a2 > 0 else 0.0,
    )
  if gtype == mjGEOM_CAPSULE:
    a2 = x2 - min(max(x2, -s[1]), s[1])
    c = math.sqrt(x0 * x0 + x1 * x1 + a2 * a2)
    return x0 / c, x1 / c, a2 / c
  if gtype == mjGEOM_ELLIPSOID:
    b0, b1, b2, k0, k1 = _ellipsoid(s, x0, x1, x2)
    inv0 = 1.0 / k0
    inv1 = 1.0 / k1
    df0 = (2.0 * k0 - 1.0) * inv1
    df1 = k0 * (k0 - 1.0) * inv1 * inv1
    g0 = b0 * inv0 * df0 - b0 * inv1 / (s[0] * s[0]) * df1
    g1 = b1 * inv0 * df0 - b1 * inv1 / (s[1] * s[1]) * df1
    g2 = b2 * inv0 * df0 - b2 * inv1 / (s[2] * s[2]) * df1
    return _normalized(g0, g1, g2)
  if gtype == mjGEOM_CYLINDER:
    c = math.sqrt(x0 * x0 + x1 * x1)
    e = abs(x2)
    a0 = c - s[0]
    a1 = e - s[1]
    r0 = x0 / max(c, 1.0 / mjMAXVAL)
    r1 = x1 / max(c, 1.0 / mjMAXVAL)
    r2 = x2 / max(e, 1.0 / mjMAXVAL)
    if (a0 if a0 > a1 else a1) < 0:
      if a0 > a1:
        return r0, r1, 0.0
      return 0.0, 0.0, r2
    b0 = max(a0, 0.0)
    b1 = max(a1, 0.0)
    bn = max(math.sqrt(b0 * b0 + b1 * b1), 1.0 / mjMAXVAL)
    return r0 * b0 / bn, r1 * b0 / bn, r2 * b1 / bn
  return 0.0, 0.0, 0.0


@jit
def _box_radial(s, a0, a1, a2, x0, x1, x2):
  """MuJoCo's radialField3d: inside a box (a = |x| - size < 0), a unit field turning from
  radial at the center to the face normals at the surface."""
  f0, f1, f2 = _normalized(-s[0] / a0, -s[1] / a1, -s[2] / a2)
  return (-f0 if x0 < 0 else f0), (-f1 if x1 < 0 else f1), (-f2 if x2 < 0 else f2)


@jit
def _normalized(x, y, z):
  """mju_normalize3 on scalars (a vector shorter than mjMINVAL becomes (1, 0, 0))."""
  return normalize3_scalars(x, y, z)[1:]


# ---------------------------------------------------------------- the pair's combined field


@jit
def _to_second(F, x0, x1, x2):
  """y = relmat x + relpos: a point of the first field's frame in the second's."""
  y0 = F[3] * x0 + F[4] * x1 + F[5] * x2 + F[0]
  y1 = F[6] * x0 + F[7] * x1 + F[8] * x2 + F[1]
  y2 = F[9] * x0 + F[10] * x1 + F[11] * x2 + F[2]
  return y0, y1, y2


@jit
def _from_second(F, g0, g1, g2):
  """relmat^T g: a direction of the second field's frame in the first's."""
  return (
    F[3] * g0 + F[6] * g1 + F[9] * g2,
    F[4] * g0 + F[7] * g1 + F[10] * g2,
    F[5] * g0 + F[8] * g1 + F[11] * g2,
  )


@always_inline
@jit
def distance(m, d, stype, I, F, x0, x1, x2):
  """MuJoCo's mjc_distance: the combined field of type stype at x (first field's frame)."""
  A = geom_distance(m, d, I[0], I[1], x0, x1, x2, F)
  if stype == SINGLE:
    return A
  y0, y1, y2 = _to_second(F, x0, x1, x2)
  B = geom_distance(m, d, I[2], I[3], y0, y1, y2, F)
  if stype == INTERSECTION:
    return max(A, B)
  if stype == MIDSURFACE:
    return A - B
  return A + B + abs(max(A, B))


@always_inline
@jit
def gradient(m, d, stype, I, F, x0, x1, x2):
  """MuJoCo's mjc_gradient -> (g0, g1, g2)."""
  if stype == SINGLE:
    return geom_gradient(m, d, I[0], I[1], x0, x1, x2, F)
  y0, y1, y2 = _to_second(F, x0, x1, x2)
  if stype == INTERSECTION:
    if geom_distance(m, d, I[0], I[1], x0, x1, x2, F) > geom_distance(
      m, d, I[2], I[3], y0, y1, y2, F
    ):
      return geom_gradient(m, d, I[0], I[1], x0, x1, x2, F)
    g0, g1, g2 = geom_gradient(m, d, I[2], I[3], y0, y1, y2, F)
    return _from_second(F, g0, g1, g2)
  if stype == MIDSURFACE:
    a0, a1, a2 = geom_gradient(m, d, I[0], I[1], x0, x1, x2, F)
    a0, a1, a2 = _normalized(a0, a1, a2)
    b0, b1, b2 = geom_gradient(m, d, I[2], I[3], y0, y1, y2, F)
    b0, b1, b2 = _from_second(F, b0, b1, b2)
    b0, b1, b2 = _normalized(b0, b1, b2)
    return _normalized(a0 - b0, a1 - b1, a2 - b2)
  A = geom_distance(m, d, I[0], I[1], x0, x1, x2, F)
  B = geom_distance(m, d, I[2], I[3], y0, y1, y2, F)
  a0, a1, a2 = geom_gradient(m, d, I[0], I[1], x0, x1, x2, F)
  b0, b1, b2 = geom_gradient(m, d, I[2], I[3], y0, y1, y2, F)
  b0, b1, b2 = _from_second(F, b0, b1, b2)
  s = 1.0 if max(A, B) > 0 else -1.0
  if A > B:
    return a0 + b0 + a0 * s, a1 + b1 + a1 * s, a2 + b2 + a2 * s
  return a0 + b0 + b0 * s, a1 + b1 + b1 * s, a2 + b2 + b2 * s


# ---------------------------------------------------------------- minimizers


@jit
def step_gradient(m, d, stype, I, F, x, niter):
  """Gradient descent with backtracking (Armijo) from x (updated in place; a step without
  improvement is undone and ends it); returns the field's value there (MuJoCo's
  stepGradient)."""
  c = 0.1
  rho = 0.5
  amin = 1e-4
  dist = mjMAXVAL
  for _ in range(niter):
    g0, g1, g2 = gradient(m, d, stype, I, F, x[0], x[1], x[2])
    if not (abs(g0) <= mjMAXVAL) or not (abs(g1) <= mjMAXVAL) or not (abs(g2) <= mjMAXVAL):
      return mjMAXVAL  # NaN or huge gradient
    p0 = x[0]
    p1 = x[1]
    p2 = x[2]
    dist0 = distance(m, d, stype, I, F, p0, p1, p2)
    alpha = 2.0
    wolfe = -c * alpha * (g0 * g0 + g1 * g1 + g2 * g2)
    while True:
      alpha *= rho
      wolfe *= rho
      x[0] = p0 + g0 * -alpha
      x[1] = p1 + g1 * -alpha
      x[2] = p2 + g2 * -alpha
      dist = distance(m, d, stype, I, F, x[0], x[1], x[2])
      if not (alpha > amin and dist - dist0 > wolfe):
        break
    if dist0 < dist:  # no improvement: back to the last point, stop
      x[0] = p0
      x[1] = p1
      x[2] = p2
      return dist0
  return dist


@jit
def step_frank_wolfe(m, d, I, F, x, corners):
  """Frank-Wolfe over a triangle (corners (3, 3)) on a single field from x (in place);
  returns the field's value there (MuJoCo's stepFrankWolfe)."""
  for step in range(m.opt.sdf_iterations[0]):
    g0, g1, g2 = gradient(m, d, SINGLE, I, F, x[0], x[1], x[2])
    best = 1e10
    s0 = s1 = s2 = 0.0
    for i in range(3):
      fun = corners[i, 0] * g0 + corners[i, 1] * g1 + corners[i, 2] * g2
      if fun < best:
        best = fun
        s0 = corners[i, 0]
        s1 = corners[i, 1]
        s2 = corners[i, 2]
    scl = 2.0 / (step + 2.0)
    x[0] += scl * (s0 - x[0])
    x[1] += scl * (s1 - x[1])
    x[2] += scl * (s2 - x[2])
  return distance(m, d, SINGLE, I, F, x[0], x[1], x[2])


# ---------------------------------------------------------------- contacts and frames


@jit
def _add_contact(m, d, stype, I, F, points, con, cnt, x, pos2, quat2, dist, tmp):
  """MuJoCo's addContact: a contact at x (SDF-0 frame, posed by pos2, quat2) if it penetrates
  and is new; returns the contact count."""
  if dist > 0 or cnt >= con.shape[0]:
    return cnt
  for i in range(cnt):
    e0 = x[0] - points[i, 0]
    e1 = x[1] - points[i, 1]
    e2 = x[2] - points[i, 2]
    if math.sqrt(e0 * e0 + e1 * e1 + e2 * e2) < mjMINVAL:
      return cnt
  for k in range(3):
    points[cnt, k] = x[k]
  g0, g1, g2 = gradient(m, d, stype, I, F, x[0], x[1], x[2])
  tmp[0] = -g0
  tmp[1] = -g1
  tmp[2] = -g2
  frame = con[cnt, 4:13]
  mju_rotVecQuat(frame[0:3], tmp[0:3], quat2)
  frame[3] = 0.0
  frame[4] = 0.0
  frame[5] = 0.0
  mju_makeFrame(frame)
  con[cnt, 0] = dist
  mju_rotVecQuat(tmp[3:6], x, quat2)
  for k in range(3):
    con[cnt, 1 + k] = tmp[3 + k] + pos2[k] + frame[k] * (dist / 2)
  return cnt + 1


@jit
def _map_pose(xpos1, xquat1, xpos2, xquat2, pos12, mat12, tmp):
  """MuJoCo's mapPose: (pos12, mat12) = (xpos2, xquat2)^-1 (xpos1, xquat1)."""
  mju_negPose(tmp[0:3], tmp[3:7], xpos2, xquat2)
  mju_mulPose(pos12, tmp[7:11], tmp[0:3], tmp[3:7], xpos1, xquat1)
  mju_quat2Mat(mat12, tmp[7:11])


@jit
def _sdf_pose(m, d, g, pos, quat, tmp):
  """MuJoCo's undoTransformation: the pose of geom g's SDF frame (a mesh's own transform
  undone for mesh and SDF geoms)."""
  mju_mat2Quat(tmp[0:4], d.geom_xmat[g])
  t = m.geom_type[g]
  if t == mjGEOM_MESH or t == mjGEOM_SDF:
    mid = m.geom_dataid[g]
    mju_negPose(tmp[4:7], tmp[7:11], m.mesh_pos[mid], m.mesh_quat[mid])
    mju_mulPose(pos, quat, d.geom_xpos[g], tmp[0:4], tmp[4:7], tmp[7:11])
  else:
    for k in range(3):
      pos[k] = d.geom_xpos[g, k]
    for k in range(4):
      quat[k] = tmp[k]


@jit
def _mat_vec(mat9, v0, v1, v2):
  return (
    mat9[0] * v0 + mat9[1] * v1 + mat9[2] * v2,
    mat9[3] * v0 + mat9[4] * v1 + mat9[5] * v2,
    mat9[6] * v0 + mat9[7] * v1 + mat9[8] * v2,
  )


# ---------------------------------------------------------------- SDF against a geom or an SDF


@jit
def pair_workspace(d):
  """Views of the workspace shared by both pair functions: F, poses, temporaries, I."""
  W = d.scratch_ccd
  return (
    W[W_F : W_F + NF],
    W[W_P : W_P + 126].reshape((14, 9)),
    W[W_TMP : W_TMP + 16],
    d.scratch_ccdi[0:4],
  )


@jit
def _box_bounds(lo, hi):
  for k in range(3):
    lo[k] = mjMAXVAL
    hi[k] = -mjMAXVAL


@stage(M, D, i8, i8, f8, mat, restype=i8, needed=SDFS)
def collide_sdf(m, d, g1, g2, margin, con):
  """mjc_SDF: geom g1 (sphere, capsule, ellipsoid, cylinder, box or SDF) against SDF geom g2.
  Contacts into con (rows as primitives.py); returns their number. The margin is not used
  (MuJoCo's contacts here are penetrations only)."""
  F, P, tmp, I = pair_workspace(d)
  W = d.scratch_ccd
  box = W[W_BOX : W_BOX + 12].reshape((4, 3))  # lo, hi of the intersection; lo, hi of geom 2
  x = W[W_X : W_X + 3]
  points = W[W_PTS : W_PTS + 3 * mjMAXCONPAIR].reshape((mjMAXCONPAIR, 3))
  pos1, quat1, pos2, quat2 = P[0, :3], P[1, :4], P[2, :3], P[3, :4]
  pos1t, squat1, pos2t, squat2 = P[4, :3], P[5, :4], P[6, :3], P[7, :4]
  offset1, rot1, offset2, rot2 = P[8, :3], P[9], P[10, :3], P[11]
  offset12, rot12 = P[12, :3], P[13]
  F[:] = 0.0
  _sdf_pose(m, d, g1, pos1t, squat1, tmp)
  _sdf_pose(m, d, g2, pos2t, squat2, tmp)
  for k in range(3):
    pos1[k] = d.geom_xpos[g1, k]
    pos2[k] = d.geom_xpos[g2, k]
  mju_mat2Quat(quat1, d.geom_xmat[g1])
  mju_mat2Quat(quat2, d.geom_xmat[g2])
  _map_pose(pos2, quat2, pos1, quat1, offset1, rot1, tmp)  # geom 2 -> geom 1
  _map_pose(pos1, quat1, pos1t, squat1, offset2, rot2, tmp)  # geom 1 -> SDF 1
  _map_pose(pos2t, squat2, pos1t, squat1, F[0:3], F[3:12], tmp)  # SDF 2 -> SDF 1
  _map_pose(pos1t, squat1, pos2t, squat2, offset12, rot12, tmp)  # SDF 1 -> SDF 2

  # the boxes of both geoms in geom 1's frame, and their intersection
  size1 = m.geom_aabb[g1]
  size2 = m.geom_aabb[g2]
  lo, hi, lo2, hi2 = box[0], box[1], box[2], box[3]
  _box_bounds(lo, hi)
  _box_bounds(lo2, hi2)
  for i in range(8):
    for k in range(3):
      sgn = 1.0 if (i >> k) & 1 else -1.0
      v = size1[k] + sgn * size1[3 + k]
      lo[k] = min(lo[k], v)
      hi[k] = max(hi[k], v)
      tmp[k] = size2[k] + sgn * size2[3 + k]
    v0, v1, v2 = _mat_vec(rot1, tmp[0], tmp[1], tmp[2])
    v0 += offset1[0]
    v1 += offset1[1]
    v2 += offset1[2]
    lo2[0] = min(lo2[0], v0)
    lo2[1] = min(lo2[1], v1)
    lo2[2] = min(lo2[2], v2)
    hi2[0] = max(hi2[0], v0)
    hi2[1] = max(hi2[1], v1)
    hi2[2] = max(hi2[2], v2)
  for k in range(3):
    lo[k] = max(lo[k], lo2[k])
    hi[k] = min(hi[k], hi2[k])
  if hi[0] < lo[0] or hi[1] < lo[1] or hi[2] < lo[2]:
    return 0

  # field 0: the SDF g2, at points of its frame; field 1: g1 (by its plugin instance if an
  # SDF), at relmat x + relpos
  I[0] = mjGEOM_SDF
  I[1] = m.geom_plugin[g2]
  I[2] = m.geom_type[g1]
  I[3] = m.geom_plugin[g1] if m.geom_type[g1] == mjGEOM_SDF else g1
  cnt = 0
  for j in range(m.opt.sdf_initpoints[0]):
    a0 = lo[0] + (hi[0] - lo[0]) * halton(j, 2)
    a1 = lo[1] + (hi[1] - lo[1]) * halton(j, 3)
    a2 = lo[2] + (hi[2] - lo[2]) * halton(j, 5)
    y0, y1, y2 = _mat_vec(rot2, a0, a1, a2)
    y0 += offset2[0]
    y1 += offset2[1]
    y2 += offset2[2]
    x0, x1, x2 = _mat_vec(rot12, y0, y1, y2)
    x[0] = x0 + offset12[0]
    x[1] = x1 + offset12[1]
    x[2] = x2 + offset12[2]
    step_gradient(m, d, COLLISION, I, F, x, m.opt.sdf_iterations[0])
    dist = step_gradient(m, d, INTERSECTION, I, F, x, 1)
    cnt = _add_contact(m, d, MIDSURFACE, I, F, points, con, cnt, x, pos2t, squat2, dist, tmp)
  return cnt


# ---------------------------------------------------------------- a mesh against an SDF


@jit
def _box_intersect(m, d, I, F, box, offset, rot):
  """Whether the SDF reaches the bounding sphere of a BVH box (MuJoCo's boxIntersect)."""
  r = math.sqrt(box[3] * box[3] + box[4] * box[4] + box[5] * box[5])
  c0, c1, c2 = _mat_vec(rot, box[0], box[1], box[2])
  return distance(m, d, SINGLE, I, F, c0 + offset[0], c1 + offset[1], c2 + offset[2]) < r


@jit
def _triangle_intersect(m, d, I, F, T):
  """MuJoCo's triangleIntersect: whether the SDF reaches the circumsphere of the triangle
  T[0] (3, 3) and a fourth point raised off its centroid by a tenth of the field's value there
  (T[1:4]: scratch)."""
  t, v, cr, c = T[0], T[1], T[2], T[3, 0]
  e0 = t[1, 0] - t[0, 0]
  e1 = t[1, 1] - t[0, 1]
  e2 = t[1, 2] - t[0, 2]
  f0 = t[2, 0] - t[0, 0]
  f1 = t[2, 1] - t[0, 1]
  f2 = t[2, 2] - t[0, 2]
  n0, n1, n2 = _normalized(e1 * f2 - e2 * f1, e2 * f0 - e0 * f2, e0 * f1 - e1 * f0)
  p0 = t[0, 0] * (1.0 / 3.0) + t[1, 0] * (1.0 / 3.0) + t[2, 0] * (1.0 / 3.0)
  p1 = t[0, 1] * (1.0 / 3.0) + t[1, 1] * (1.0 / 3.0) + t[2, 1] * (1.0 / 3.0)
  p2 = t[0, 2] * (1.0 / 3.0) + t[1, 2] * (1.0 / 3.0) + t[2, 2] * (1.0 / 3.0)
  h = -distance(m, d, SINGLE, I, F, p0, p1, p2) / 10.0
  p0 += n0 * -h
  p1 += n1 * -h
  p2 += n2 * -h
  for i in range(3):
    v[i, 0] = t[i, 0] - p0
    v[i, 1] = t[i, 1] - p1
    v[i, 2] = t[i, 2] - p2
  for i in range(3):
    a = v[(i + 1) % 3]
    b = v[(i + 2) % 3]
    cr[i, 0] = a[1] * b[2] - a[2] * b[1]
    cr[i, 1] = a[2] * b[0] - a[0] * b[2]
    cr[i, 2] = a[0] * b[1] - a[1] * b[0]
  for i in range(3):
    w = v[i, 0] * v[i, 0] + v[i, 1] * v[i, 1] + v[i, 2] * v[i, 2]
    for k in range(3):
      c[k] = c[k] + cr[i, k] * w if i else cr[i, k] * w
  den = 1.0 / (2.0 * (v[0, 0] * cr[0, 0] + v[0, 1] * cr[0, 1] + v[0, 2] * cr[0, 2]))
  c0 = c[0] * den
  c1 = c[1] * den
  c2 = c[2] * den
  r = math.sqrt(c0 * c0 + c1 * c1 + c2 * c2)
  return distance(m, d, SINGLE, I, F, c0 + p0, c1 + p1, c2 + p2) < r


@stage(M, D, i8, i8, f8, mat, restype=i8, needed=MESH_SDF)
def collide_mesh_sdf(m, d, g1, g2, margin, con):
  """mjc_MeshSDF: mesh geom g1 against SDF geom g2; contacts into con, returns their number.

  The face BVH is walked with bounding-sphere tests against the field, surviving triangles
  pass a circumsphere test, Frank-Wolfe finds each one's deepest point, and the deepest
  mjMAXCONPAIR penetrating points become contacts (normal: minus the field's gradient)."""
  F, P, tmp, I = pair_workspace(d)
  W = d.scratch_ccd
  WI = d.scratch_ccdi
  pos1, quat1, pos2t, quat2t, offset, rot = P[0, :3], P[1, :4], P[2, :3], P[3, :4], P[4, :3], P[5]
  for k in range(3):
    pos1[k] = d.geom_xpos[g1, k]
  mju_mat2Quat(quat1, d.geom_xmat[g1])
  _sdf_pose(m, d, g2, pos2t, quat2t, tmp)
  _map_pose(pos1, quat1, pos2t, quat2t, offset, rot, tmp)  # mesh frame -> SDF frame
  F[:] = 0.0
  I[0] = mjGEOM_SDF
  I[1] = m.geom_plugin[g2]
  I[2] = mjGEOM_SDF
  I[3] = I[1]

  # BVH walk (depth first, second child first): leaves whose box's sphere the field reaches
  mid = m.geom_dataid[g1]
  adr = m.mesh_bvhadr[mid]
  faces = WI[WI_FACE : WI_FACE + MAXSDFFACE]
  stack = WI[WI_STACK:]
  nface = 0
  nstack = 1
  stack[0] = 0
  while nstack and nface < MAXSDFFACE:
    nstack -= 1
    node = adr + stack[nstack]
    if not _box_intersect(m, d, I, F, m.bvh_aabb[node], offset, rot):
      continue
    if m.bvh_nodeid[node] != -1:
      faces[nface] = m.bvh_nodeid[node]
      nface += 1
      continue
    for i in range(2):
      child = m.bvh_child[node, i]
      if child != -1 and nstack < stack.shape[0]:
        stack[nstack] = child
        nstack += 1

  # Frank-Wolfe on each triangle that passes the circumsphere test
  vadr = m.mesh_vertadr[mid]
  fadr = m.mesh_faceadr[mid]
  T = W[W_TRI : W_TRI + 36].reshape((4, 3, 3))
  corners = T[0]
  x = W[W_X : W_X + 3]
  cand = W[W_CAND : W_CAND + 3 * MAXMESHPNT].reshape((MAXMESHPNT, 3))
  depth = W[W_CAND + 3 * MAXMESHPNT : W_CAND + 4 * MAXMESHPNT]
  ncand = 0
  for i in range(nface):
    for v in range(3):
      vert = m.mesh_vert[vadr + m.mesh_face[fadr + faces[i], v]]
      c0, c1, c2 = _mat_vec(rot, np.float64(vert[0]), np.float64(vert[1]), np.float64(vert[2]))
      corners[v, 0] = c0 + offset[0]
      corners[v, 1] = c1 + offset[1]
      corners[v, 2] = c2 + offset[2]
    if not _triangle_intersect(m, d, I, F, T):
      continue
    for k in range(3):
      x[k] = (corners[0, k] + corners[1, k] + corners[2, k]) / 3
    dist = step_frank_wolfe(m, d, I, F, x, corners)
    if dist < 0 and ncand < MAXMESHPNT:
      cand[ncand] = x
      depth[ncand] = dist
      ncand += 1

  # deepest first (a stable sort, as MuJoCo's merge sort), at most mjMAXCONPAIR contacts
  order = WI[WI_STACK : WI_STACK + MAXMESHPNT]
  for i in range(ncand):
    j = i
    while j > 0 and depth[order[j - 1]] > depth[i]:
      order[j] = order[j - 1]
      j -= 1
    order[j] = i
  points = W[W_PTS : W_PTS + 3 * mjMAXCONPAIR].reshape((mjMAXCONPAIR, 3))
  cnt = 0
  for i in range(min(ncand, mjMAXCONPAIR)):
    cnt = _add_contact(
      m, d, SINGLE, I, F, points, con, cnt, cand[order[i]], pos2t, quat2t, depth[order[i]], tmp
    )
  return cnt
