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
- faces: per cell, the triangles MC.h's table lists for its sign configuration (`_MC_TRIS`,
  the library's public-domain data), so m.mesh_face, and the volume, mass and inertia MuJoCo
  derives from it, are MuJoCo's. `_triangle_table` derives the configurations' polygons
  independently (ambiguous cube faces keep diagonal inside corners apart) and fans them; the
  tests check that MC.h's triangles bound exactly those polygons;
- normals: per vertex, the normalized float32 sum of the triangles' cross products, taken in grid
  index units (not scaled by the grid spacing), as MC.h does; they follow our triangles.

MuJoCo then compiles the mesh without merging vertices (coincident ones, from samples exactly
0, stay apart) and keeps it in the SDF frame (m.mesh_pos = 0, m.mesh_quat = identity,
measured), renormalizing the normals (a degenerate one, NaN here, becomes (0, 0, 1)).

Entry points: `sdf_mesh(plugin, config) -> (vert (n, 3) float64 of float32 values, face (m, 3)
int32, normal (n, 3) float32)` for the first-party plugins; `field_mesh(box, distance)` for any
plugin's field (what the compiler calls); `marching_cubes(field, box)` for a field already
sampled.
"""

import math

import numpy as np

from engine.collision import sdf_shapes

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
    triangles = [
      (poly[0], poly[k], poly[k + 1]) for poly in _polygons(config) for k in range(1, len(poly) - 1)
    ]
    count[config] = len(triangles)
    if triangles:
      table[config, : len(triangles)] = triangles
  return table, count


# MarchingCubeCpp's triangulation (MC.h, public domain), the table MuJoCo's compiler meshes
# with: per configuration, the triangle count in the low 4 bits, then 4-bit cube edge ids
# fmt: off
_MC_TRIS = (
  0x0000000000000000, 0x0000000000008401, 0x0000000000009051, 0x0000000009845942,
  0x0000000000004a11, 0x0000000008a10812, 0x0000000000594a12, 0x0000008a99a5a153,
  0x00000000000051b1, 0x0000000004081b52, 0x000000000b901b02, 0x00000098bb818413,
  0x00000000054ab5a2, 0x000000ab88b0b503, 0x000000b9aa949043, 0x000000000b98ab82,
  0x0000000000006821, 0x0000000006402602, 0x0000000008260592, 0x0000004566525923,
  0x000000000682a142, 0x00000002112a26a3, 0x0000004a12685903, 0x000592152126a164,
  0x000000000b516822, 0x00000051b0264063, 0x00000082601b90b3, 0x000b919619261644,
  0x000000682ab54a53, 0x000250ab5a526a24, 0x00090494ab9a6824, 0x000000ab9a926a23,
  0x0000000000007291, 0x0000000002978402, 0x0000000005720522, 0x0000005744787283,
  0x0000000009724a12, 0x0000002978a10813, 0x00000014a5720523, 0x00018a5711787284,
  0x00000000097251b2, 0x0000009721b58403, 0x0000000122171b73, 0x000b717211242844,
  0x00000097254ab5a3, 0x000b50b08ab82974, 0x0002070a704a7ab4, 0x0000008ab8b72873,
  0x0000000007689782, 0x0000006477494093, 0x0000007655606803, 0x0000000005747642,
  0x0000004a18976873, 0x000109619a166974, 0x00068060576514a4, 0x00000057656a15a3,
  0x000000b517689783, 0x000409497647b514, 0x000b0176bb606804, 0x000000764741b713,
  0x000976896b54ab44, 0x0970b506a0ab0765, 0x04a0680b70760ab5, 0x000000000ab6b762,
  0x000000000000a631, 0x00000000084063a2, 0x000000000590a632, 0x000000a634598493,
  0x0000000004631432, 0x0000001033060863, 0x0000000594631433, 0x0003158356388594,
  0x0000000001b5a632, 0x000000a63084b513, 0x0000003a6b901b03, 0x00084181b98b3a64,
  0x00000046556b63b3, 0x000b503b03086384, 0x000604b90b063b64, 0x000000b98b863b63,
  0x000000000a823a22, 0x0000002300343a43, 0x00000090523a82a3, 0x000392459493a434,
  0x0000003122181483, 0x0000000002303102, 0x0001481823129054, 0x0000002312159253,
  0x0000001b5a823a23, 0x0003a434023051b4, 0x000901b91823a834, 0x41b43a4924234b95,
  0x00023b42b8244b54, 0x00000002303b50b3, 0x48249043b4b94235, 0x000000000b939232,
  0x00000000063a2972, 0x0000008403a69723, 0x00000063a2057253, 0x000728784574a634,
  0x0000007293146343, 0x0000860631037294, 0x0007205706314614, 0x8638728158578315,
  0x000000b51297a633, 0x000b512973a68404, 0x0001b717201263a4, 0x28424172171ba635,
  0x00063b6b54659724, 0x3b53506306089725, 0xb72b63b04b46b205, 0x000728b783b83864,
  0x00000089aa939733, 0x00097309303a40a4, 0x0005707a073a0a84, 0x000000457473a433,
  0x0001738978714814, 0x0000003103097393, 0x8058148738318575, 0x0000000005717312,
  0x00097393a89a1b54, 0x09707340343ab515, 0x73a71b7807017a85, 0x0001b7417a47a734,
  0x3b53973483893545, 0x000b503b07307094, 0x000000000b734802, 0x0000000000003b71,
  0x000000000000b371, 0x0000000007b38402, 0x0000000007b39052, 0x0000007b39845943,
  0x000000000a1437b2, 0x000000b37108a183, 0x00000059037b4a13, 0x000a15a598a97b34,
  0x0000000007513712, 0x0000004081375173, 0x0000001300393793, 0x0007139877818414,
  0x0000005477434a33, 0x000750a7037aa084, 0x00079390330a04a4, 0x00000098a9a37933,
  0x00000000037b6822, 0x00000037b6402603, 0x0000007b30596823, 0x00059252645637b4,
  0x00000068214a7b33, 0x00026a2a1021b374, 0x0007b30592684a14, 0x159192a12a267b35,
  0x0000002687513713, 0x0005137534026424, 0x0003793901308264, 0x9269379419139645,
  0x0004a34375472684, 0xa37a26a50a02a755, 0x04a0a39039376825, 0x000379a396a96924,
  0x0000000009b32932, 0x0000000849b32933, 0x00000020330b05b3, 0x00032b24b284b454,
  0x000000a14329b393, 0x000b329b2a108a04, 0x00005b0b3203a144, 0x5b35a152858a5325,
  0x0000003211252953, 0x0002952513214084, 0x0000000003201302, 0x0000001321284183,
  0x0009325499434a34, 0x5085295a353258a5, 0x000000320304a343, 0x0000000008a2a322,
  0x0000009b88b6b363, 0x0000649b00b6b364, 0x0005b0b300383684, 0x00000064565b36b3,
  0x000b36b689b84a14, 0x6a16b360969b6105, 0x368380b30b054a15, 0x000b365b615616a4,
  0x0001353853685894, 0x9519409369649135, 0x0000000130368063, 0x0000000006434132,
  0x36834a3953543895, 0x0000000009506a32, 0x0004a30438038364, 0x0000000000006a31,
  0x000000000ba67b62, 0x00000084067ba6b3, 0x000000590ba67b63, 0x0007ba67a5984584,
  0x0000006744717b13, 0x0000b167b6b08604, 0x0007b17146740594, 0x15917b1861671985,
  0x00000075665a51a3, 0x00051a5a67568404, 0x0000191691a69674, 0x1a61841791981675,
  0x0000000007546742, 0x0000006756508603, 0x0000004674790493, 0x0000000006787982,
  0x000000a8bb878273, 0x000027a0740aa7b4, 0x00082787ba8b5904, 0x27b2592a42452ba5,
  0x0007b12712148244, 0x000000102127b173, 0x27b2b18218145905, 0x0007b12719219154,
  0x00081a7517182784, 0xa40a51a27a75a025, 0x79078271a7a87015, 0x000000000792a412,
  0x0000007547482783, 0x0000000007525022, 0x0009047942742484, 0x0000000000002791,
  0x000000ba99a2a623, 0x000a62a29ba90844, 0x000520ba55a2a624, 0x2842a625b2ba2455,
  0x0009b16912966144, 0x6296086b161069b5, 0xb14b05b62b20b465, 0x0000000005b18622,
  0x0009525122161a64, 0x1a61625125298405, 0x00000020121a62a3, 0x00084128162161a4,
  0x0000005465629523, 0x0002956258658504, 0x0000000004606202, 0x0000000000008621,
  0x0000000009b8ba82, 0x0000009ba9a40943, 0x000000ba8b805b03, 0x00000000045a5ba2,
  0x00000089b8b14813, 0x0000000009b0b102, 0x00005b80b48b4b14, 0x00000000000015b1,
  0x000000a89a951a53, 0x00051a95a09a0a44, 0x000000000a818012, 0x000000000000a411,
  0x0000000008949542, 0x0000000000000951, 0x0000000000004801, 0x0000000000000000,
)
# fmt: on


def _unpack_table(packed):
  """(256, 5, 3) int8 edge ids of each configuration's triangles (-1 pads), (256,) counts."""
  table = np.full((256, 5, 3), -1, dtype=np.int8)
  count = np.zeros(256, dtype=np.int64)
  for config, word in enumerate(packed):
    count[config] = word & 0xF
    edges = [(word >> (4 + 4 * i)) & 0xF for i in range(3 * count[config])]
    table[config, : count[config]] = np.reshape(edges, (-1, 3))
  return table, count


_TABLE, _NTRI = _unpack_table(_MC_TRIS)

# where each cube edge starts (offset from the cell's corner 0) and its axis
_EDGE_AXIS = np.array([e // 4 for e in range(12)])
_EDGE_OFFSET = np.array(
  [[(c >> 0) & 1, (c >> 1) & 1, (c >> 2) & 1] for c in (_EDGES[e][0] for e in range(12))]
)


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
  edge_vid[
    np.concatenate([base[a] + np.ravel_multi_index(e[0], shapes[a]) for a, e in enumerate(edges)])
  ] = vid
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
    config |= inside[dz : nz - 1 + dz, dy : ny - 1 + dy, dx : nx - 1 + dx].astype(np.int64) << c
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
      each sign configuration; default MC.h's (`_MC_TRIS`).

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
  n = np.stack(
    [
      u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1],
      u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2],
      u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0],
    ],
    axis=1,
  )
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
  """The mesh MuJoCo 3.17's compiler makes for a first-party SDF plugin instance.

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
  shape = sdf_shapes.SHAPE_IDS[plugin]
  return field_mesh(box, lambda points: sdf_shapes.distances(shape, params, points), plugin)


def field_mesh(box, distance, name="SDF"):
  """The marching-cubes mesh of any signed distance field over its bounding box, as MuJoCo's
  compiler makes it for `<mesh><plugin instance=.../></mesh>`.

  Args:
    box: (6,) the field's bounding box: center, half-sizes (the plugin's sdf_aabb).
    distance: callable (n, 3) float64 points -> (n,) distances (the plugin's
      sdf_staticdistance), evaluated once on the whole grid.
    name: what the error messages call the field.

  Returns:
    (vert, face, normal) as `sdf_mesh`.
  """
  box = np.asarray(box, dtype=np.float64).reshape(6)
  if not np.all(np.isfinite(box)) or np.any(box[3:] <= 0):
    raise ValueError(
      f"{name}: bounding box half-sizes {box[3:].tolist()} must be "
      f"positive (check the config values)"
    )
  nx, ny, nz = grid_size(box)
  # grid points as mjCMesh::LoadSDF computes them (same operations, so the same doubles)
  axes = [
    box[a] - box[3 + a] + 2.0 * box[3 + a] * np.arange(n) / (n - 1)
    for a, n in enumerate((nx, ny, nz))
  ]
  pz, py, px = np.meshgrid(axes[2], axes[1], axes[0], indexing="ij")
  points = np.stack([px.ravel(), py.ravel(), pz.ravel()], axis=1)
  values = np.asarray(distance(points), dtype=np.float64).reshape(nz, ny, nx)
  vert, face, normal = marching_cubes(values.astype(np.float32), box)
  if len(vert) < 4:
    raise ValueError(
      f"{name}: the surface has {len(vert)} vertices in its bounding box, at least 4 are required"
    )
  return vert, face, normal
