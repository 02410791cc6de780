"""Tessellation of MuJoCo's builtin shapes, planes, meshes and height fields as vertex arrays.

Port of the shape builders of render_context.c (sphere, halfSphere, disk, cone, cylinder, haze,
box, makePlane, mjr_uploadMesh, mjr_uploadHField): the same vertices, normals and winding, so
silhouettes and shading match MuJoCo's. Each builder returns a list of `Batch`es (one OpenGL
primitive mode each) that gl_renderer.py compiles into display lists once per context.
All arithmetic is float32, as MuJoCo's (cosf, sinf on float angles).
"""

import dataclasses

import numpy as np

f32 = np.float32
PI = np.pi  # mjPI is a double: MuJoCo computes angles in double and stores them as float


def _cos(x):
  """cosf: float32 cosine of float32 angles (correctly rounded through float64)."""
  return np.cos(np.asarray(x, f32).astype(np.float64)).astype(f32)


def _sin(x):
  """sinf: float32 sine of float32 angles (correctly rounded through float64)."""
  return np.sin(np.asarray(x, f32).astype(np.float64)).astype(f32)


MAXPLANEGRID = 200  # mjMAXPLANEGRID
PLANE_TILES, PLANE_TILE_CELLS = 8, 16  # tiles of a plane's grid, see plane_tiles


@dataclasses.dataclass
class Batch:
  """One primitive batch: mode is 'triangles' or 'quads'; arrays are float32 (n, k)."""

  mode: str
  vert: np.ndarray
  normal: np.ndarray
  texcoord: np.ndarray = None
  color: np.ndarray = None


def _batch(mode, vert, normal, texcoord=None, color=None):
  return Batch(
    mode,
    np.ascontiguousarray(vert, f32).reshape(-1, 3),
    np.ascontiguousarray(normal, f32).reshape(-1, 3),
    None if texcoord is None else np.ascontiguousarray(texcoord, f32).reshape(-1, 2),
    None if color is None else np.ascontiguousarray(color, f32).reshape(-1, 4),
  )


def _angles(n):
  """Azimuths of slice boundaries j and j+1, as MuJoCo computes them (float32)."""
  j = np.arange(n, dtype=np.float64)
  az1 = ((2 * PI * j) / n).astype(f32)
  az2 = ((2 * PI * (j + 1)) / n).astype(f32)
  return az1, az2


def _sphere_vertex(az, el, sign):
  """setVertexSphere: vertex on a unit sphere centred at z=sign, and its normal."""
  az, el = np.broadcast_arrays(f32(az) * np.ones(1, f32), f32(el) * np.ones(1, f32))
  v = np.stack([_cos(az) * _cos(el), _sin(az) * _cos(el), f32(sign) + _sin(el)], -1).astype(f32)
  n = v.copy()
  n[..., 2] -= f32(sign)
  return v, n


def _interleave(*arrays):
  """Stack per-slice vertices (n, 3) each into primitive order (n*k, 3)."""
  return np.stack(arrays, 1).reshape(-1, arrays[0].shape[-1])


def _u_of_angles(az1, az2):
  """Texture u of the slice boundaries and of the pole vertex between them: azimuth / 2 pi."""
  u1 = (az1.astype(np.float64) / (2 * PI)).astype(f32)
  u2 = (az2.astype(np.float64) / (2 * PI)).astype(f32)
  u3 = (((az1 + az2) / f32(2)).astype(np.float64) / (2 * PI)).astype(f32)
  return u1, u2, u3


def _uv(u, v):
  """(n, 2) texture coordinates from per-slice u (n,) and a scalar or per-slice v."""
  u = np.asarray(u, f32)
  return np.stack([u, np.broadcast_to(np.asarray(v, f32), u.shape)], -1)


def sphere(nslice, nstack):
  """Unit sphere: pole triangles plus quads, as render_context.c sphere(). Texture coordinates:
  u the azimuth over 2 pi, v from 0 at the top pole to 1 at the bottom one."""
  az1, az2 = _angles(nslice)
  u1, u2, u3 = _u_of_angles(az1, az2)
  half = nstack // 2
  tv, tn, tt, qv, qn, qt = [], [], [], [], [], []
  for sign in (-1, 1):
    el1 = f32((0.5 * PI * sign * (half - 1)) / half)
    v1, n1 = _sphere_vertex(az1, el1, 0)
    v2, n2 = _sphere_vertex(az2, el1, 0)
    v3 = np.zeros_like(v1)
    v3[:, 2] = sign
    n3 = v3.copy()
    ve1 = f32(0.5) - f32(sign) * f32(half - 1) / f32(nstack)
    ve3 = f32(0 if sign > 0 else 1)
    t1, t2, t3 = _uv(u1, ve1), _uv(u2, ve1), _uv(u3, ve3)
    if sign > 0:
      tv.append(_interleave(v1, v2, v3))
      tn.append(_interleave(n1, n2, n3))
      tt.append(_interleave(t1, t2, t3))
    else:
      tv.append(_interleave(v3, v2, v1))
      tn.append(_interleave(n3, n2, n1))
      tt.append(_interleave(t3, t2, t1))
  for sign in (-1, 1):
    for i in range(half - 1):
      el1 = f32((0.5 * PI * sign * i) / half)
      el2 = f32((0.5 * PI * sign * (i + 1)) / half)
      v1, n1 = _sphere_vertex(az1, el1, 0)
      v2, n2 = _sphere_vertex(az2, el1, 0)
      v3, n3 = _sphere_vertex(az2, el2, 0)
      v4, n4 = _sphere_vertex(az1, el2, 0)
      ve1 = f32(0.5) - f32(sign) * f32(i) / f32(nstack)
      ve2 = f32(0.5) - f32(sign) * f32(i + 1) / f32(nstack)
      t1, t2, t3, t4 = _uv(u1, ve1), _uv(u2, ve1), _uv(u2, ve2), _uv(u1, ve2)
      if sign > 0:
        qv.append(_interleave(v1, v2, v3, v4))
        qn.append(_interleave(n1, n2, n3, n4))
        qt.append(_interleave(t1, t2, t3, t4))
      else:
        qv.append(_interleave(v4, v3, v2, v1))
        qn.append(_interleave(n4, n3, n2, n1))
        qt.append(_interleave(t4, t3, t2, t1))
  return [
    _batch("triangles", np.concatenate(tv), np.concatenate(tn), np.concatenate(tt)),
    _batch("quads", np.concatenate(qv), np.concatenate(qn), np.concatenate(qt)),
  ]


def half_sphere(sign, nslice, nstack):
  """Half sphere centred at z=sign (capsule caps): +1 top, -1 bottom. Texture coordinates: u
  the azimuth over 2 pi, v from 0 at the equator to 1 at the pole (mirrored for the top)."""
  az1, az2 = _angles(nslice)
  u1, u2, u3 = _u_of_angles(az1, az2)

  def flip(v):
    return f32(1) - v if sign > 0 else v

  el1 = f32((PI / 2 * sign * (nstack - 1)) / nstack)
  v1, n1 = _sphere_vertex(az1, el1, sign)
  v2, n2 = _sphere_vertex(az2, el1, sign)
  v3 = np.zeros_like(v1)
  v3[:, 2] = 2 * sign
  n3 = np.zeros_like(v1)
  n3[:, 2] = sign
  ve1 = flip(f32(nstack - 1) / f32(nstack))
  t1, t2, t3 = _uv(u1, ve1), _uv(u2, ve1), _uv(u3, flip(f32(1)))
  if sign > 0:
    tri = _batch(
      "triangles", _interleave(v1, v2, v3), _interleave(n1, n2, n3), _interleave(t1, t2, t3)
    )
  else:
    tri = _batch(
      "triangles", _interleave(v3, v2, v1), _interleave(n3, n2, n1), _interleave(t3, t2, t1)
    )
  qv, qn, qt = [], [], []
  for i in range(nstack - 1):
    el1 = f32((PI / 2 * sign * i) / nstack)
    el2 = f32((PI / 2 * sign * (i + 1)) / nstack)
    v1, n1 = _sphere_vertex(az1, el1, sign)
    v2, n2 = _sphere_vertex(az2, el1, sign)
    v3, n3 = _sphere_vertex(az2, el2, sign)
    v4, n4 = _sphere_vertex(az1, el2, sign)
    ve1, ve2 = flip(f32(i) / f32(nstack)), flip(f32(i + 1) / f32(nstack))
    t1, t2, t3, t4 = _uv(u1, ve1), _uv(u2, ve1), _uv(u2, ve2), _uv(u1, ve2)
    if sign > 0:
      qv.append(_interleave(v1, v2, v3, v4))
      qn.append(_interleave(n1, n2, n3, n4))
      qt.append(_interleave(t1, t2, t3, t4))
    else:
      qv.append(_interleave(v4, v3, v2, v1))
      qn.append(_interleave(n4, n3, n2, n1))
      qt.append(_interleave(t4, t3, t2, t1))
  batches = [tri]
  if qv:
    batches.append(_batch("quads", np.concatenate(qv), np.concatenate(qn), np.concatenate(qt)))
  return batches


def _disk_vertex(az, r, sign):
  return np.stack([_cos(az) * f32(r), _sin(az) * f32(r), np.full_like(az, f32(sign))], -1).astype(
    f32
  )


def _disk_uv(v):
  """A disk's texture coordinates: its unit-radius x, y mapped onto [0, 1]^2."""
  return (f32(0.5) + f32(0.5) * v[:, :2]).astype(f32)


def disk(sign, nslice, nstack):
  """Disk at z=sign facing sign (0: at z=0 facing down)."""
  az1, az2 = _angles(nslice)
  normal = np.array([0, 0, -1 if sign == 0 else sign], f32)
  r1 = f32(1) / f32(nstack)
  v1, v2 = _disk_vertex(az1, r1, sign), _disk_vertex(az2, r1, sign)
  v3 = np.zeros_like(v1)
  v3[:, 2] = sign
  order = (lambda *a: a) if sign > 0 else (lambda *a: a[::-1])
  tv = _interleave(*order(v1, v2, v3))
  tt = _interleave(*order(*(_disk_uv(v) for v in (v1, v2, v3))))
  batches = [_batch("triangles", tv, np.broadcast_to(normal, tv.shape), tt)]
  qv, qt = [], []
  for i in range(nstack - 1):
    r1 = f32(i + 1) / f32(nstack)
    r2 = f32(i + 2) / f32(nstack)
    v1, v2 = _disk_vertex(az1, r2, sign), _disk_vertex(az2, r2, sign)
    v3, v4 = _disk_vertex(az2, r1, sign), _disk_vertex(az1, r1, sign)
    qv.append(_interleave(*order(v1, v2, v3, v4)))
    qt.append(_interleave(*order(*(_disk_uv(v) for v in (v1, v2, v3, v4)))))
  if qv:
    qv = np.concatenate(qv)
    batches.append(_batch("quads", qv, np.broadcast_to(normal, qv.shape), np.concatenate(qt)))
  return batches


def _cone_vertex(az, r):
  scale = f32(1) / np.sqrt(f32(2))
  v = np.stack(
    [_cos(az) * f32(r), _sin(az) * f32(r), np.full_like(az, f32(1) - f32(r))], -1
  ).astype(f32)
  n = np.stack([_cos(az) * scale, _sin(az) * scale, np.full_like(az, scale)], -1).astype(f32)
  return v, n


def _slice_u(nslice):
  """u of slice boundaries j and j+1 for cones and cylinders: j / nslice."""
  j = np.arange(nslice, dtype=f32)
  return j / f32(nslice), (j + f32(1)) / f32(nslice)


def cone(nslice, nstack):
  """Open cone with its tip at z=1 and base radius 1 at z=0. Texture coordinates: u the slice
  over nslice, v the distance from the tip (the radius)."""
  az1, az2 = _angles(nslice)
  u1, u2 = _slice_u(nslice)
  u3 = (u1 + u2) / f32(2)
  r1 = f32(1) / f32(nstack)
  v1, n1 = _cone_vertex(az1, r1)
  v2, n2 = _cone_vertex(az2, r1)
  v3 = np.zeros_like(v1)
  v3[:, 2] = 1
  n3 = n1 + n2
  n3 /= np.linalg.norm(n3, axis=1, keepdims=True)
  tt = _interleave(_uv(u1, r1), _uv(u2, r1), _uv(u3, 0))
  batches = [_batch("triangles", _interleave(v1, v2, v3), _interleave(n1, n2, n3), tt)]
  qv, qn, qt = [], [], []
  for i in range(nstack - 1):
    r1 = f32(i + 1) / f32(nstack)
    r2 = f32(i + 2) / f32(nstack)
    v1, n1 = _cone_vertex(az1, r2)
    v2, n2 = _cone_vertex(az2, r2)
    v3, n3 = _cone_vertex(az2, r1)
    v4, n4 = _cone_vertex(az1, r1)
    qv.append(_interleave(v1, v2, v3, v4))
    qn.append(_interleave(n1, n2, n3, n4))
    qt.append(_interleave(_uv(u1, r2), _uv(u2, r2), _uv(u2, r1), _uv(u1, r1)))
  if qv:
    batches.append(_batch("quads", np.concatenate(qv), np.concatenate(qn), np.concatenate(qt)))
  return batches


def cylinder(nslice, nstack):
  """Open cylinder of radius 1 from z=-1 to z=1. Texture coordinates: u the slice over nslice,
  v from 0 at the top to 1 at the bottom."""
  az1, az2 = _angles(nslice)
  u1, u2 = _slice_u(nslice)
  qv, qn, qt = [], [], []
  for i in range(nstack):
    h1 = f32(2 * i) / f32(nstack) - f32(1)
    h2 = f32(2 * (i + 1)) / f32(nstack) - f32(1)
    vs = []
    for az, h in ((az1, h1), (az2, h1), (az2, h2), (az1, h2)):
      vs.append(np.stack([_cos(az), _sin(az), np.full_like(az, h)], -1).astype(f32))
    ns = []
    for v in vs:
      n = v.copy()
      n[:, 2] = 0
      n[:, :2] /= np.sqrt(v[:, 0:1] ** 2 + v[:, 1:2] ** 2)
      ns.append(n)
    ve1, ve2 = (f32(1) - h1) / f32(2), (f32(1) - h2) / f32(2)
    qv.append(_interleave(*vs))
    qn.append(_interleave(*ns))
    qt.append(_interleave(_uv(u1, ve1), _uv(u2, ve1), _uv(u2, ve2), _uv(u1, ve2)))
  return [_batch("quads", np.concatenate(qv), np.concatenate(qn), np.concatenate(qt))]


def closed_cylinder(nslice, nstack):
  """Cylinder with both caps (mjrCYLINDER)."""
  return disk(-1, nslice, nstack // 2) + cylinder(nslice, nstack) + disk(1, nslice, nstack // 2)


def cone_with_base(nslice, nstack):
  """Cone plus its base disk (mjrCONE)."""
  return cone(nslice, nstack) + disk(0, nslice, nstack)


def haze(nslice, r, rgba):
  """Truncated cone whose alpha fades from the horizon up (skybox haze)."""
  alpha = np.arctan2(f32(1), f32(r))
  beta = f32(0.75 * np.pi) - alpha
  h = np.sqrt(f32(0.5)) * f32(r) * _sin(alpha) / _sin(beta)
  az1, az2 = _angles(nslice)
  qv, qc = [], []
  for i in range(2):
    h1 = f32(0) if i == 0 else f32(h)
    h2 = f32(h) if i == 0 else f32(1)
    vs = []
    for az, hh in ((az1, h1), (az2, h1), (az2, h2), (az1, h2)):
      rad = f32(1) - f32(r) * (f32(1) - hh)
      vs.append(np.stack([_cos(az) * rad, _sin(az) * rad, np.full_like(az, hh)], -1).astype(f32))
    c1 = np.array([rgba[0], rgba[1], rgba[2], float(i == 1)], f32)
    c2 = np.array([rgba[0], rgba[1], rgba[2], float(i == 0)], f32)
    cs = [np.broadcast_to(c, (nslice, 4)) for c in (c1, c1, c2, c2)]
    qv.append(_interleave(*vs))
    qc.append(_interleave(*cs))
  qv = np.concatenate(qv)
  normal = np.broadcast_to(np.array([0, 0, 1], f32), qv.shape)
  return [_batch("quads", qv, normal, color=np.concatenate(qc))]


def box(numquads):
  """Unit box [-1, 1]^3 with each face split into numquads^2 quads. Every face maps the
  texture once: u along its first axis (x, or y on the +-x faces), v down its second."""
  d = f32(2) / f32(numquads)
  x, y = np.meshgrid(np.arange(numquads, dtype=f32), np.arange(numquads, dtype=f32), indexing="ij")
  x, y = x.ravel(), y.ravel()
  a0, a1 = d * x - 1, d * (x + 1) - 1
  b0, b1 = d * y - 1, d * (y + 1) - 1
  one = np.ones_like(a0)
  nq = float(numquads)
  xd, yd = x.astype(np.float64), y.astype(np.float64)
  ua, ub = xd / nq, (xd + 1) / nq  # u at a0, a1
  va, vb = 1 - yd / nq, 1 - (yd + 1) / nq  # v at b0, b1
  front = [(ua, va), (ub, va), (ub, vb), (ua, vb)]  # corners (a0,b0) (a1,b0) (a1,b1) (a0,b1)
  back = [(ua, vb), (ub, vb), (ub, va), (ua, va)]  # corners (a0,b1) (a1,b1) (a1,b0) (a0,b0)
  faces = [
    ((0, 0, 1), [(a0, b0, one), (a1, b0, one), (a1, b1, one), (a0, b1, one)], front),
    ((0, 0, -1), [(a0, b1, -one), (a1, b1, -one), (a1, b0, -one), (a0, b0, -one)], back),
    ((1, 0, 0), [(one, a0, b0), (one, a1, b0), (one, a1, b1), (one, a0, b1)], front),
    ((-1, 0, 0), [(-one, a0, b1), (-one, a1, b1), (-one, a1, b0), (-one, a0, b0)], back),
    ((0, -1, 0), [(a0, -one, b0), (a1, -one, b0), (a1, -one, b1), (a0, -one, b1)], front),
    ((0, 1, 0), [(a0, one, b1), (a1, one, b1), (a1, one, b0), (a0, one, b0)], back),
  ]
  # MuJoCo emits the six faces of one (x, y) cell together: (cell, face, corner) order
  verts = np.stack([_interleave(*[np.stack(c, -1) for c in corners]) for _, corners, _ in faces])
  texcoords = np.stack([_interleave(*[np.stack(c, -1) for c in uv]) for _, _, uv in faces])
  normals = np.broadcast_to(np.array([n for n, _, _ in faces], f32)[:, None, :], verts.shape)

  def cells(a):  # (face, cell*4, k) -> (cell*face*4, k)
    return a.reshape(6, -1, 4, a.shape[-1]).transpose(1, 0, 2, 3).reshape(-1, a.shape[-1])

  return [_batch("quads", cells(verts), cells(normals), cells(texcoords))]


def _grid_quads(gx, gy, gu, gv):
  """Quads over the grid lines gx (nx+1,) and gy (ny+1,), normal +z, with the texture
  coordinates gu (nx+1,) and gv (ny+1,) of those lines."""
  x0, y0 = np.meshgrid(gx[:-1], gy[:-1], indexing="ij")
  x1, y1 = np.meshgrid(gx[1:], gy[1:], indexing="ij")
  u0, v0 = np.meshgrid(gu[:-1], gv[:-1], indexing="ij")
  u1, v1 = np.meshgrid(gu[1:], gv[1:], indexing="ij")
  z = np.zeros_like(x0)
  v = _interleave(
    *[np.stack(c, -1).reshape(-1, 3) for c in ((x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z))]
  )
  t = _interleave(
    *[np.stack(c, -1).reshape(-1, 2) for c in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))]
  )
  return [_batch("quads", v, np.broadcast_to(np.array([0, 0, 1], f32), v.shape), t)]


def unit_plane(numquads):
  """Plane [-1, 1]^2 at z=0 split into numquads^2 quads (planes without their own list), the
  texture once over it: u along x, v down y."""
  k = np.arange(numquads + 1) / float(numquads)
  g = (2.0 / numquads) * np.arange(numquads + 1) - 1
  return _grid_quads(g, g, k, 1 - k)


def plane_grid_lines(size, matid, texrepeat, zfar):
  """Grid lines (gx, gy) of one plane geom as makePlane builds it: padded finite or
  far-reaching infinite. Its quads are what the fixed-function lighting is evaluated on."""
  grids = []
  for k in range(2):
    sz = float(size[k])
    if sz > 0:
      sz2 = max(float(size[2]), sz / (MAXPLANEGRID - 2))
      n = int(np.floor(sz / max(1e-15, sz2)))
      n -= n % 2
      pad = sz - n * sz2
      n += 2
      g = np.zeros(n + 1)
      for x in range(n):
        if x == 0:
          left = -sz
          right = left + pad
        else:
          left = -sz + pad + (x - 1) * sz2 * 2
          right = left + (pad if x == n - 1 else sz2 * 2)
        g[x] = left
        g[x + 1] = max(left, right)
    else:
      if matid >= 0 and texrepeat[k] > 0:
        sx = 2 / float(texrepeat[k])
      else:
        sx = 2.1 * zfar / (MAXPLANEGRID - 2)
      d = (2.1 * zfar + 2 * sx) / MAXPLANEGRID
      g = d * np.arange(MAXPLANEGRID + 1) - d * (MAXPLANEGRID // 2)
    grids.append(g)
  return grids[0], grids[1]


def plane_texcoord_lines(size, gx, gy):
  """Texture coordinates (gu, gv) of a plane's grid lines: a finite side maps the texture once
  from its -x (+y) edge, u along x and v down y; an infinite side half a texture per unit."""
  gu = (gx + size[0]) / (2.0 * size[0]) if size[0] > 0 else 0.5 * gx
  gv = 1.0 - (gy + size[1]) / (2.0 * size[1]) if size[1] > 0 else -0.5 * gy
  return gu, gv


def plane_tiles(gx, gy, gu, gv, per_side=PLANE_TILES, min_cells=PLANE_TILE_CELLS):
  """The grid of a plane cut into at most per_side^2 rectangular tiles of at least min_cells
  quads a side, so that a frame can skip the tiles outside the view: [(batches, corners)],
  corners (4, 4) homogeneous plane-local points of the tile's rectangle. gu, gv: the texture
  coordinates of the grid lines (plane_texcoord_lines), the same in every tile."""

  def cuts(g):
    n = len(g) - 1
    step = max(min_cells, -(-n // per_side))
    return list(range(0, n, step)) + [n]

  tiles = []
  cx, cy = cuts(gx), cuts(gy)
  for i0, i1 in zip(cx[:-1], cx[1:]):
    for j0, j1 in zip(cy[:-1], cy[1:]):
      x, y = gx[i0 : i1 + 1], gy[j0 : j1 + 1]
      corners = np.array(
        [[x[0], y[0], 0, 1], [x[-1], y[0], 0, 1], [x[-1], y[-1], 0, 1], [x[0], y[-1], 0, 1]], f32
      )
      tiles.append((_grid_quads(x, y, gu[i0 : i1 + 1], gv[j0 : j1 + 1]), corners))
  return tiles


def plane_outline(gx, gy, gu, gv):
  """The whole plane as one quad: where only its coverage and depth count (stencil masks,
  shadow maps), not lighting interpolated over its grid."""
  ends = [0, -1]
  return _grid_quads(gx[ends], gy[ends], gu[ends], gv[ends])


def _face_normals(v1, v2, v3):
  """mjr_makeNormal for many triangles: unit cross product, (0,0,1) when degenerate."""
  n = np.cross(v2 - v1, v3 - v1).astype(f32)
  length = np.linalg.norm(n, axis=1, keepdims=True)
  out = np.where(length < 1e-10, np.array([0, 0, 1], f32), n / np.maximum(length, 1e-30))
  return out.astype(f32)


def mesh(m, meshid):
  """Triangles of mesh meshid with MuJoCo's normals: the vertex normal where it is within
  acos(0.8) of the face normal, else the face normal (sharp edges stay sharp)."""
  vertadr = int(m.mesh_vertadr[meshid])
  nvert = int(m.mesh_vertnum[meshid])
  faceadr = int(m.mesh_faceadr[meshid])
  nface = int(m.mesh_facenum[meshid])
  vert = np.asarray(m.mesh_vert[vertadr : vertadr + nvert], f32).reshape(-1, 3)
  face = np.asarray(m.mesh_face[faceadr : faceadr + nface], np.int64).reshape(-1, 3)
  v = vert[face]  # (nface, 3, 3)
  facenormal = _face_normals(v[:, 0], v[:, 1], v[:, 2])
  texcoord = None
  normaladr = int(m.mesh_normaladr[meshid])
  normal = np.asarray(m.mesh_normal, f32).reshape(-1, 3)
  fn = np.asarray(m.mesh_facenormal, np.int64).reshape(-1, 3)[faceadr : faceadr + nface]
  vn = normal[fn + normaladr]
  texadr = int(m.mesh_texcoordadr[meshid])
  if texadr >= 0:
    tc = np.asarray(m.mesh_texcoord, f32).reshape(-1, 2)
    ft = np.asarray(m.mesh_facetexcoord, np.int64).reshape(-1, 3)[faceadr : faceadr + nface]
    texcoord = tc[ft + texadr].reshape(-1, 2)
  else:
    dots = np.einsum("fkj,fj->fk", vn, facenormal)
    vn = np.where((dots < 0.8)[..., None], facenormal[:, None, :], vn)
  return [_batch("triangles", v.reshape(-1, 3), vn.reshape(-1, 3), texcoord)]


def convex_hull(m, meshid):
  """Flat-shaded triangles of the mesh's convex hull (m.mesh_graph), or None without one."""
  graphadr = int(m.mesh_graphadr[meshid])
  if graphadr < 0:
    return None
  graph = np.asarray(m.mesh_graph).reshape(-1)
  numvert, numface = int(graph[graphadr]), int(graph[graphadr + 1])
  start = graphadr + 2 + 3 * numvert + 3 * numface
  face = graph[start : start + 3 * numface].astype(np.int64).reshape(-1, 3)
  vertadr = int(m.mesh_vertadr[meshid])
  vert = np.asarray(m.mesh_vert, f32).reshape(-1, 3)[
    vertadr : vertadr + int(m.mesh_vertnum[meshid])
  ]
  v = vert[face]
  normal = _face_normals(v[:, 0], v[:, 1], v[:, 2])
  texcoord = None
  texadr = int(m.mesh_texcoordadr[meshid])
  if texadr >= 0:
    # indexed by vertex id, as MuJoCo does for hulls
    tc = np.asarray(m.mesh_texcoord, f32).reshape(-1, 2)
    texcoord = tc[np.minimum(face + texadr, len(tc) - 1)].reshape(-1, 2)
  return [_batch("triangles", v.reshape(-1, 3), np.repeat(normal, 3, axis=0), texcoord)]


def hfield(m, hid, numquads):
  """Height field surface (triangle strips unrolled), its four sides and the bottom."""
  nrow, ncol = int(m.hfield_nrow[hid]), int(m.hfield_ncol[hid])
  adr = int(m.hfield_adr[hid])
  data = np.asarray(m.hfield_data[adr : adr + nrow * ncol], f32).reshape(nrow, ncol)
  sz = np.asarray(m.hfield_size[hid], f32).reshape(4)
  width = f32(0.5) * f32(ncol - 1)
  height = f32(0.5) * f32(nrow - 1)
  cx = sz[0] * (np.arange(ncol, dtype=f32) / width - f32(1))
  ry = sz[1] * (np.arange(nrow, dtype=f32) / height - f32(1))
  tris = []
  for r in range(nrow - 1):
    # strip of vertices alternating between rows r+1 and r, as addVert receives them
    strip = np.empty((2 * ncol, 3), f32)
    strip[0::2, 0] = cx
    strip[0::2, 1] = ry[r + 1]
    strip[0::2, 2] = data[r + 1] * sz[2]
    strip[1::2, 0] = cx
    strip[1::2, 1] = ry[r]
    strip[1::2, 2] = data[r] * sz[2]
    a, b, c = strip[:-2], strip[1:-1], strip[2:]
    # nvert counts from 1: the triangle completed by vertex k+3 is odd when k is even
    odd = (np.arange(len(a)) % 2 == 0)[:, None]
    p2 = np.where(odd, b, c)
    p3 = np.where(odd, c, b)
    tris.append(np.stack([a, p2, p3], 1))
  tri = np.concatenate(tris) if tris else np.zeros((0, 3, 3), f32)
  normal = _face_normals(tri[:, 0], tri[:, 1], tri[:, 2])
  batches = [_batch("triangles", tri.reshape(-1, 3), np.repeat(normal, 3, axis=0))]
  quads, qnormals = [], []

  def add(normal, *corners):
    quads.append(np.array(corners, f32))
    qnormals.append(np.broadcast_to(np.array(normal, f32), (4, 3)))

  for r in range(nrow - 1):
    add(
      (-1, 0, 0),
      (-sz[0], ry[r + 1], -sz[3]),
      (-sz[0], ry[r], -sz[3]),
      (-sz[0], ry[r], data[r, 0] * sz[2]),
      (-sz[0], ry[r + 1], data[r + 1, 0] * sz[2]),
    )
    add(
      (1, 0, 0),
      (sz[0], ry[r], -sz[3]),
      (sz[0], ry[r + 1], -sz[3]),
      (sz[0], ry[r + 1], data[r + 1, -1] * sz[2]),
      (sz[0], ry[r], data[r, -1] * sz[2]),
    )
  for c in range(ncol - 1):
    add(
      (0, -1, 0),
      (cx[c], -sz[1], -sz[3]),
      (cx[c + 1], -sz[1], -sz[3]),
      (cx[c + 1], -sz[1], data[0, c + 1] * sz[2]),
      (cx[c], -sz[1], data[0, c] * sz[2]),
    )
    add(
      (0, 1, 0),
      (cx[c + 1], sz[1], -sz[3]),
      (cx[c], sz[1], -sz[3]),
      (cx[c], sz[1], data[-1, c] * sz[2]),
      (cx[c + 1], sz[1], data[-1, c + 1] * sz[2]),
    )
  w = f32(0.5) * f32(numquads)
  g = np.arange(numquads + 1, dtype=f32) / w - f32(1)
  for r in range(numquads):
    for c in range(numquads):
      x0, x1, y0, y1 = sz[0] * g[c], sz[0] * g[c + 1], sz[1] * g[r], sz[1] * g[r + 1]
      add((0, 0, -1), (x0, y0, -sz[3]), (x0, y1, -sz[3]), (x1, y1, -sz[3]), (x1, y0, -sz[3]))
  batches.append(_batch("quads", np.concatenate(quads), np.concatenate(qnormals)))
  return batches
