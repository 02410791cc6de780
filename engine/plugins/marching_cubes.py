"""The mesh MuJoCo's compiler builds for `<mesh><plugin instance="..."/></mesh>` (mjCMesh::LoadSDF).

MuJoCo samples the SDF plugin's static distance on a regular grid over its bounding box and
runs marching cubes (the MarchingCubeCpp library, MC.h) on the float32 samples:
- box = the plugin's sdf_aabb (center c, half-sizes h); with n = 300 and total = h0 + h1 + h2,
  the grid has nx = floor(n / total * h0) + 1 points along x (likewise y, z), spread from c - h
  to c + h inclusive (`sdf_shapes.sample_grid`);
- a vertex on each grid edge whose end values differ in sign (`value < 0` is inside), at the
  linear-interpolation zero, computed in float32 grid-index units and then mapped to the box in
  double and stored as float32, as MuJoCo does;
- vertex order: cells are visited z-major, then y, then x; each sign-changing edge is created by
  one cell (the one for which it is the farthest edge along the other two axes, or the nearest
  on the grid's low boundary), in MC.h's per-cell edge order (the x edges, then y, then z). We
  reproduce that order, so our vertex array equals MuJoCo's m.mesh_vert;
- faces: per cell, the triangles of the isosurface polygons of its sign configuration;
  ambiguous cube faces (two diagonal inside corners) keep those corners apart, as MC.h's table
  does for every one of the 256 configurations. Our table is generated here (`_triangle_table`):
  same polygons with the same orientation as MC.h's, so the same face count and the same
  surface; inside each polygon of 4-7 vertices we fan from its first vertex, where MC.h's
  hand-made table uses other diagonals in about three quarters of those polygons. So
  m.mesh_face differs from ours in the choice of diagonals and in order (60-83 % of the
  triangles are the same), and so do the volume (measured 2e-5 to 8e-4 relative, most for the
  gear's thin teeth), the area (to 1.5e-4) and the mass and inertia MuJoCo derives from them.
  `marching_cubes(..., table=...)` takes another triangulation: with MC.h's (read back from
  MuJoCo's meshes in tests/engine/test_sdf_shapes.py) the faces are MuJoCo's exactly;
- normals: per vertex, the normalized float32 sum of the triangles' cross products, taken in grid
  index units (not scaled by the grid spacing), as MC.h does; they follow our triangles.

MuJoCo then compiles the mesh without merging vertices (coincident ones, from samples exactly
0, stay apart) and keeps it in the SDF frame (m.mesh_pos = 0, m.mesh_quat = identity,
measured), renormalizing the normals (a degenerate one, NaN here, becomes (0, 0, 1)).

Entry point: `sdf_mesh(plugin, config) -> (vert (n, 3) float64 of float32 values, face (m, 3)
int32, normal (n, 3) float32)`; `marching_cubes(field, box)` for a field already sampled.
"""

import math

import numpy as np

from engine.plugins import sdf_shapes

GRID_POINTS = 300  # MuJoCo's `n`: grid intervals along x, y and z together (before flooring)

# ---------------------------------------------------------------- cube numbering (MC.h's)
# corner c = x + 2 y + 4 z for x, y, z in {0, 1}; edges 0-3 run along x at (y, z) = (0, 0),
# (1, 0), (0, 1), (1, 1); 4-7 along y at (x, z) in the same order; 8-11 along z at (x, y).


def _edge_corners(edge):
  axis, k = divmod(edge, 4)
  start = [0, 0, 0]
  others = [a for a in range(3) if a != axis]
  start[others[0]] = k & 1
  start[others[1]] = k >> 1
  end = list(start)
  end[axis] = 1
  corner = lambda p: p[0] + 2 * p[1] + 4 * p[2]  # noqa: E731
  return corner(start), corner(end)


_EDGES = [_edge_corners(e) for e in range(12)]


def _cube_faces():
  """The six cube faces as corner cycles, counterclockwise seen from outside the cube."""
  faces = []
  for axis in range(3):
    u, v = (axis + 1) % 3, (axis + 2) % 3  # (u, v, axis) is right-handed
    for side in (0, 1):
      cycle = []
      for pu, pv in ((0, 0), (1, 0), (1, 1), (0, 1)):
        p = [0, 0, 0]
        p[axis], p[u], p[v] = side, pu, pv
        cycle.append(p[0] + 2 * p[1] + 4 * p[2])
      faces.append(cycle if side == 1 else cycle[::-1])
  return faces


def _polygons(config):
  """Isosurface polygons of one cube (corner c inside iff bit c of `config`), as cycles of edge
  ids oriented so that their normals point out of the inside region.

  On each cube face, walking its boundary counterclockwise (seen from outside the cube), every
  sign change is a crossing; the surface curve on the face runs from a crossing that enters
  the inside to the next crossing that leaves it, so each inside corner is cut off on its own
  when a face is ambiguous. Chaining the curves of the six faces gives the polygons.
  """
  inside = [(config >> c) & 1 for c in range(8)]
  edge_id = {frozenset(corners): e for e, corners in enumerate(_EDGES)}
  successor = {}
  for cycle in _cube_faces():
    crossings = []  # (edge, entering the inside?) in counterclockwise order
    for i in range(4):
      a, b = cycle[i], cycle[(i + 1) % 4]
      if inside[a] != inside[b]:
        crossings.append((edge_id[frozenset((a, b))], bool(inside[b])))
    for i, (edge, entering) in enumerate(crossings):
      if entering:
        successor[edge] = crossings[(i + 1) % len(crossings)][0]
  polygons, seen = [], set()
  for start in sorted(successor):
    if start in seen:
      continue
    cycle = [start]
    seen.add(start)
    while successor[cycle[-1]] not in seen:
      cycle.append(successor[cycle[-1]])
      seen.add(cycle[-1])
    polygons.append(cycle)
  return polygons


def _triangle_table():
  """(256, 5, 3) int8 edge ids of each configuration's triangles (-1 pads), and (256,) counts."""
  table = np.full((256, 5, 3), -1, dtype=np.int8)
  count = np.zeros(256, dtype=np.int64)
  for config in range(256):
    triangles = [(poly[0], poly[k], poly[k + 1])
                 for poly in _polygons(config) for k in range(1, len(poly) - 1)]
    count[config] = len(triangles)
    if triangles:
      table[config, :len(triangles)] = triangles
  return table, count


_TABLE, _NTRI = _triangle_table()

# where each cube edge starts (offset from the cell's corner 0) and its axis
_EDGE_AXIS = np.array([e // 4 for e in range(12)])
_EDGE_OFFSET = np.array([[(c >> 0) & 1, (c >> 1) & 1, (c >> 2) & 1]
                         for c in (_EDGES[e][0] for e in range(12))])


# ----------------------------------------------------------------------------- marching cubes


def grid_size(box):
  """MuJoCo's grid point counts (nx, ny, nz) for a bounding box (center, half-sizes)."""
  total = box[3] + box[4] + box[5]
  return tuple(int(math.floor(GRID_POINTS / total * box[3 + a])) + 1 for a in range(3))


def _edge_vertices(field, inside, axis):
  """Vertices on the sign-changing grid edges along `axis`.

  Returns (index (k, j, i) arrays of the edges' start points, float32 vertex positions in grid
  units (n, 3), sort keys giving MC.h's creation order).
  """
  n = [field.shape[2], field.shape[1], field.shape[0]]  # nx, ny, nz
  lo = [slice(None)] * 3
  hi = [slice(None)] * 3
  lo[2 - axis] = slice(0, -1)
  hi[2 - axis] = slice(1, None)
  lo, hi = tuple(lo), tuple(hi)
  k, j, i = np.nonzero(inside[lo] != inside[hi])
  va = field[lo][k, j, i]
  vb = field[hi][k, j, i]
  pos = np.stack([i, j, k], axis=1).astype(np.float32)
  pos[:, axis] += va / (va - vb)  # float32, as MC.h
  # the cell creating this edge: the one that has it as its farthest edge along the other axes
  start = [i, j, k]
  cell = [c if a == axis else np.maximum(c - 1, 0) for a, c in enumerate(start)]
  others = [a for a in range(3) if a != axis]
  slot = 4 * axis + (start[others[0]] - cell[others[0]]) + 2 * (start[others[1]] - cell[others[1]])
  linear = (cell[2].astype(np.int64) * (n[1] - 1) + cell[1]) * (n[0] - 1) + cell[0]
  return (k, j, i), pos, linear * 12 + slot


def grid_vertices(field):
  """The surface's vertices on the grid edges of `field` (nz, ny, nx), in MC.h's order.

  Returns (pos (n, 3) float32 positions in grid units (x, y, z), edge_vid): edge_vid holds the
  vertex id of every grid edge (-1: no crossing): the x edges as a C-ordered (nz, ny, nx - 1)
  block, then the y edges (nz, ny - 1, nx), then the z edges (nz - 1, ny, nx).
  """
  nz, ny, nx = field.shape
  inside = field < 0
  sizes = [math.prod(s) for s in _edge_shapes(nx, ny, nz)]
  base = np.cumsum([0] + sizes)
  edges = [_edge_vertices(field, inside, axis) for axis in range(3)]
  order = np.argsort(np.concatenate([e[2] for e in edges]), kind="stable")
  pos = np.concatenate([e[1] for e in edges])[order]
  vid = np.empty(len(order), dtype=np.int64)
  vid[order] = np.arange(len(order))
  edge_vid = np.full(base[3], -1, dtype=np.int64)
  shapes = _edge_shapes(nx, ny, nz)
  edge_vid[np.concatenate([base[a] + np.ravel_multi_index(e[0], shapes[a])
                           for a, e in enumerate(edges)])] = vid
  return pos, edge_vid


def _edge_shapes(nx, ny, nz):
  return [(nz, ny, nx - 1), (nz, ny - 1, nx), (nz - 1, ny, nx)]


def crossed_cells(field):
  """The cells the surface crosses, in MC.h's visiting order (z, then y, then x).

  Returns (cell (ncell, 3) int64 (k, j, i) index of each cell's corner 0, config (ncell,) the
  sign configuration: bit c set when corner c is inside).
  """
  nz, ny, nx = field.shape
  inside = field < 0
  config = np.zeros((nz - 1, ny - 1, nx - 1), dtype=np.int64)
  for c in range(8):
    dx, dy, dz = c & 1, (c >> 1) & 1, (c >> 2) & 1
    config |= inside[dz:nz - 1 + dz, dy:ny - 1 + dy, dx:nx - 1 + dx].astype(np.int64) << c
  k, j, i = np.nonzero((config != 0) & (config != 255))
  return np.stack([k, j, i], axis=1), config[k, j, i]


def cell_edge_vertices(cell, edge_vid, shape):
  """(ncell, 12) vertex ids on the 12 edges of each cell (-1 where the edge is not crossed),
  for a field of shape `shape` (nz, ny, nx)."""
  nz, ny, nx = shape
  shapes = np.array(_edge_shapes(nx, ny, nz))
  base = np.cumsum([0] + [math.prod(s) for s in shapes])
  corner = cell[:, None, :] + _EDGE_OFFSET[None, :, ::-1]  # (ncell, 12, kji)
  dims = shapes[_EDGE_AXIS]  # (12, 3)
  flat = (corner[..., 0] * dims[:, 1] + corner[..., 1]) * dims[:, 2] + corner[..., 2]
  return edge_vid[base[_EDGE_AXIS] + flat]


def marching_cubes(field, box, table=None):
  """Marching cubes over a float32 field (nz, ny, nx) sampled on MuJoCo's grid over `box`.

  Args:
    field: the samples (see sdf_shapes.sample_grid), negative inside.
    box: (6,) the grid's box: center, half-sizes.
    table: (triangles (256, 5, 3) cube-edge ids padded with -1, counts (256,)) to triangulate
      each sign configuration; default our generated table (`_triangle_table`).

  Returns:
    (vert (n, 3) float64 holding float32 values, face (m, 3) int32, normal (n, 3) float32), see
    the module docstring.
  """
  tri_table, tri_count = (_TABLE, _NTRI) if table is None else table
  field = np.ascontiguousarray(field, dtype=np.float32)
  nz, ny, nx = field.shape
  if min(nx, ny, nz) < 2:
    raise ValueError(f"SDF grid of {nx} x {ny} x {nz} points is too small for marching cubes")
  pos, edge_vid = grid_vertices(field)
  cell, config = crossed_cells(field)
  cev = cell_edge_vertices(cell, edge_vid, field.shape)

  # triangles: each crossed cell's table entries in order, cube edge ids -> vertex ids
  ntri = np.asarray(tri_count)[config]
  tri_cell = np.repeat(np.arange(len(config)), ntri)
  local = np.arange(len(tri_cell)) - (np.cumsum(ntri) - ntri)[tri_cell]
  tri_edges = np.asarray(tri_table)[config[tri_cell], local].astype(np.int64)
  face = cev[tri_cell[:, None], tri_edges]
  if np.any(face < 0):
    raise AssertionError("marching cubes: a triangle uses an edge without a vertex")

  # normals in grid units: per triangle (a, b, c), cross(c - b, a - b) added to a, b and c in
  # triangle order (float32, as MC.h), then normalized
  a, b, c = pos[face[:, 0]], pos[face[:, 1]], pos[face[:, 2]]
  u, v = c - b, a - b
  n = np.stack([u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1], u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2],
                u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]], axis=1)
  normal = np.zeros_like(pos)
  np.add.at(normal, face.reshape(-1), np.repeat(n, 3, axis=0))
  with np.errstate(invalid="ignore", divide="ignore"):
    x, y, z = normal[:, 0], normal[:, 1], normal[:, 2]
    normal = normal / np.sqrt(x * x + y * y + z * z)[:, None]

  # grid units -> box, in double, stored as float32 (uservert in mjCMesh::LoadSDF)
  scale = 2.0 * np.asarray(box[3:6], dtype=np.float64)
  vert = (scale * pos.astype(np.float64) / (np.array([nx, ny, nz]) - 1.0) + box[0:3]) - box[3:6]
  vert = vert.astype(np.float32).astype(np.float64)
  return vert, face.astype(np.int32), normal.astype(np.float32)


def sdf_mesh(plugin, config):
  """The mesh MuJoCo 3.17's compiler makes for an SDF plugin instance.

  Args:
    plugin: plugin name, e.g. "mujoco.sdf.torus" (a key of sdf_shapes.SHAPES).
    config: the instance's `<config key=... value=...>` pairs as strings.

  Returns:
    (vert (n, 3) float64 of float32 values, face (m, 3) int32, normal (n, 3) float32), in the
    SDF's frame; see the module docstring for what matches MuJoCo.

  Raises:
    ValueError: unknown plugin, bad config value, or a bounding box too small to mesh.
  """
  if plugin not in sdf_shapes.SHAPES:
    raise ValueError(f"unknown SDF plugin '{plugin}' (known: {', '.join(sdf_shapes.SHAPES)})")
  params = sdf_shapes.SHAPES[plugin].parse(config)
  box = np.empty(6)
  sdf_shapes.SHAPES[plugin].aabb(params, box)
  if not np.all(np.isfinite(box)) or np.any(box[3:] <= 0):
    raise ValueError(f"SDF plugin {plugin}: bounding box half-sizes {box[3:].tolist()} must be "
                     f"positive (check the config values)")
  nx, ny, nz = grid_size(box)
  field = sdf_shapes.sample_grid(sdf_shapes.SHAPE_IDS[plugin], params, box, nx, ny, nz)
  vert, face, normal = marching_cubes(field, box)
  if len(vert) < 4:
    raise ValueError(f"SDF plugin {plugin}: the surface has {len(vert)} vertices in its "
                     f"bounding box, at least 4 are required")
  return vert, face, normal
