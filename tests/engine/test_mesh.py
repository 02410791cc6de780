"""Mesh loading, convex hull and mesh compilation (engine/compiler/mesh.py) against MuJoCo.

Each case loads the same mesh in `mujoco` (one body with one mesh geom) and compares the compiled
fields. Every mesh file gets a unique name because MuJoCo caches compiled meshes by resource
across models in one process.

Tolerances: centroid, volume, mass and inertia moments agree to rounding (1e-12 relative; the
computation follows MuJoCo's operation order), and so do the principal axes (mesh_quat,
body_iquat: MuJoCo's compiler Jacobi solver and its stopping rule are reproduced, see
engine.compiler.mesh.mesh_eig3), also for symmetric meshes with equal moments. mesh_vert and
mesh_normal are float32 in MuJoCo: they agree to one float32 rounding.
"""

import itertools
import math
import pathlib
import struct

import mujoco
import numpy as np
import pytest

from engine.compiler import mesh as M

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "assets" / "meshes"
_counter = itertools.count()

QUAT_TOL = 1e-12  # principal axes (see module docstring)
F32_TOL = 2.5e-7  # float32 rounding of mesh_vert, mesh_normal


def _name(ext):
  return f"mesh{next(_counter)}.{ext}"


# ------------------------------------------------------------------------------------- shapes


def _box():
  v = np.array([[x, y, z] for x in (0, 1) for y in (0, 2) for z in (0, 3)], float) + [0.1, 0.2, 0.3]
  f = [
    (0, 1, 3),
    (0, 3, 2),
    (4, 6, 7),
    (4, 7, 5),
    (0, 4, 5),
    (0, 5, 1),
    (2, 3, 7),
    (2, 7, 6),
    (0, 2, 6),
    (0, 6, 4),
    (1, 5, 7),
    (1, 7, 3),
  ]
  return v, np.array(f)


def _tetra():
  v = np.array([[0.1, 0.0, 0.05], [1.2, 0.1, -0.1], [0.3, 0.9, 0.2], [0.2, 0.3, 1.1]])
  return v, np.array([(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)])


def _brute_hull(v):
  """All outward hull triangles of points in general position, by brute force."""
  f = []
  for i, j, k in itertools.combinations(range(len(v)), 3):
    n = np.cross(v[j] - v[i], v[k] - v[i])
    d = (v - v[i]) @ n
    if np.all(d <= 1e-12):
      f.append((i, j, k))
    elif np.all(d >= -1e-12):
      f.append((i, k, j))
  return np.array(f)


def _irregular():
  rng = np.random.default_rng(3)
  v = rng.normal(size=(12, 3)) * [1.0, 0.6, 0.3] + [0.2, -0.1, 0.4]
  f = _brute_hull(v)
  used = np.unique(f)
  remap = -np.ones(len(v), int)
  remap[used] = np.arange(len(used))
  return v[used], remap[f]


def _lshape():
  p = np.array([[0, 0], [2, 0], [2, 1], [1, 1], [1, 3], [0, 3]], float)
  n = len(p)
  v = np.concatenate([np.c_[p, np.zeros(n)], np.c_[p, np.full(n, 0.5)]])
  f = []
  for t in [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)]:
    f += [(t[0], t[2], t[1]), (t[0] + n, t[1] + n, t[2] + n)]
  for i in range(n):
    j = (i + 1) % n
    f += [(i, j, j + n), (i, j + n, i + n)]
  return v, np.array(f)


def _icosphere(level=1, r=0.7):
  t = (1 + 5**0.5) / 2
  v = [
    [-1, t, 0],
    [1, t, 0],
    [-1, -t, 0],
    [1, -t, 0],
    [0, -1, t],
    [0, 1, t],
    [0, -1, -t],
    [0, 1, -t],
    [t, 0, -1],
    [t, 0, 1],
    [-t, 0, -1],
    [-t, 0, 1],
  ]
  f = [
    (0, 11, 5),
    (0, 5, 1),
    (0, 1, 7),
    (0, 7, 10),
    (0, 10, 11),
    (1, 5, 9),
    (5, 11, 4),
    (11, 10, 2),
    (10, 7, 6),
    (7, 1, 8),
    (3, 9, 4),
    (3, 4, 2),
    (3, 2, 6),
    (3, 6, 8),
    (3, 8, 9),
    (4, 9, 5),
    (2, 4, 11),
    (6, 2, 10),
    (8, 6, 7),
    (9, 8, 1),
  ]
  v = [np.array(x) / np.linalg.norm(x) for x in v]
  for _ in range(level):
    cache, nf = {}, []

    def mid(a, b):
      k = (min(a, b), max(a, b))
      if k not in cache:
        m = v[a] + v[b]
        v.append(m / np.linalg.norm(m))
        cache[k] = len(v) - 1
      return cache[k]

    for a, b, c in f:
      ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
      nf += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
    f = nf
  return np.array(v) * r + [0.05, -0.02, 0.1], np.array(f)


SHAPES = {
  "box": _box,
  "tetra": _tetra,
  "irregular": _irregular,
  "lshape": _lshape,
  "icosphere": _icosphere,
}


def _stl_binary(v, f):
  b = bytearray(80) + struct.pack("<i", len(f))
  for tri in f:
    b += struct.pack("<3f", 0, 0, 0)
    for i in tri:
      b += struct.pack("<3f", *v[i])
    b += b"\0\0"
  return bytes(b)


def _stl_ascii(v, f):
  s = "solid x\n"
  for tri in f:
    s += " facet normal 0 0 0\n  outer loop\n"
    s += "".join("   vertex %.9g %.9g %.9g\n" % tuple(v[i]) for i in tri)
    s += "  endloop\n endfacet\n"
  return (s + "endsolid x\n").encode()


def _obj(v, f):
  s = "".join("v %.9g %.9g %.9g\n" % tuple(x) for x in v)
  s += "".join("f " + " ".join(str(i + 1) for i in tri) + "\n" for tri in f)
  return s.encode()


# ------------------------------------------------------------------------------------ helpers


def _mj(meshattr, data=None, ext="stl", geomattr="", compiler=""):
  """MuJoCo model with one free body holding one geom of mesh 'm'."""
  assets = {}
  if data is not None:
    name = _name(ext)
    meshattr = f'file="{name}" ' + meshattr
    assets[name] = data
  xml = f"""<mujoco><compiler {compiler}/><asset><mesh name="m" {meshattr}/></asset>
    <worldbody><body><freejoint/><geom type="mesh" mesh="m" {geomattr}/></body></worldbody>
    </mujoco>"""
  return mujoco.MjModel.from_xml_string(xml, assets=assets)


def _process(data, filename, **kw):
  md = M.decode_mesh(data, filename)
  return M.process_mesh(
    md.vert,
    md.face,
    normal=md.normal,
    facenormal=md.facenormal,
    texcoord=md.texcoord,
    facetexcoord=md.facetexcoord,
    needhull=True,
    **kw,
  )


def _assert_rot(q1, q2, atol):
  r1 = np.array(M._quat2mat(list(q1)))
  r2 = np.array(M._quat2mat(list(q2)))
  np.testing.assert_allclose(r1, r2, atol=atol)


def _hull_set(faces):
  return {tuple(x) for x in np.sort(np.asarray(faces).reshape(-1, 3), axis=1)}


def _mj_graph(m, i=0):
  g = m.mesh_graph[m.mesh_graphadr[i] :]
  nv, nf = int(g[0]), int(g[1])
  return nv, nf, g[2 + 3 * nv + 3 * nf : 2 + 3 * nv + 6 * nf].reshape(-1, 3)


def _compare(m, info):
  """Our compiled mesh and mesh-geom body against MuJoCo's."""
  scale = np.max(np.abs(info.vert))
  np.testing.assert_allclose(info.pos, m.mesh_pos[0], rtol=0, atol=1e-12 * (1 + scale))
  mass, inertia = M.mesh_geom_inertia(info, density=1000.0)
  np.testing.assert_allclose(mass, m.body_mass[1], rtol=1e-12)
  np.testing.assert_allclose(m.body_ipos[1], info.pos, atol=1e-12 * (1 + scale))
  np.testing.assert_array_equal(info.face, m.mesh_face)
  np.testing.assert_array_equal(info.facenormal, m.mesh_facenormal)
  np.testing.assert_allclose(inertia, m.body_inertia[1], rtol=1e-11)
  np.testing.assert_allclose(info.quat, m.mesh_quat[0], rtol=0, atol=QUAT_TOL)
  np.testing.assert_allclose(info.quat, m.body_iquat[1], rtol=0, atol=QUAT_TOL)
  np.testing.assert_allclose(info.vert, m.mesh_vert, rtol=0, atol=F32_TOL * scale)
  np.testing.assert_allclose(info.normal, m.mesh_normal, rtol=0, atol=F32_TOL)
  np.testing.assert_allclose(M.mesh_geom_size(info), m.geom_size[0], rtol=0, atol=1e-11 * scale)
  np.testing.assert_allclose(M.mesh_geom_aabb(info), m.geom_aabb[0], rtol=0, atol=1e-11 * scale)
  np.testing.assert_allclose(M.mesh_rbound(info), m.geom_rbound[0], rtol=1e-11)
  np.testing.assert_allclose(info.scale, m.mesh_scale[0])
  nv, nf, faces = _mj_graph(m)
  assert len(np.unique(info.hull_face)) == nv
  assert len(info.hull_face) == nf
  assert info.graph[0] == nv and info.graph[1] == nf and len(info.graph) == 2 + 3 * nv + 6 * nf


# -------------------------------------------------------------------------------- compilation


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("inertia", ["legacy", "exact", "convex", "shell"])
def test_stl_matches_mujoco(shape, inertia):
  v, f = SHAPES[shape]()
  data = _stl_binary(v, f)
  m = _mj(f'inertia="{inertia}"', data)
  _compare(m, _process(data, "a.stl", inertia=inertia))


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("scale", [(0.5, -1.0, 2.0), (1.5, 0.7, 0.9)])
def test_obj_scaled_matches_mujoco(shape, scale):
  v, f = SHAPES[shape]()
  data = _obj(v, f)
  s = " ".join(map(str, scale))
  m = _mj(f'scale="{s}" inertia="exact"', data, "obj")
  _compare(m, _process(data, "a.obj", inertia="exact", scale=scale))


@pytest.mark.parametrize(
  "attr,kw",
  [
    ('refpos="0.1 0.2 0.3"', dict(refpos=(0.1, 0.2, 0.3))),
    ('refquat="0.3 0.1 0.5 0.2"', dict(refquat=(0.3, 0.1, 0.5, 0.2))),
    ('refquat="0 1 0 0" scale="2 1 -1"', dict(refquat=(0, 1, 0, 0), scale=(2, 1, -1))),
  ],
)
def test_reference_frame_matches_mujoco(attr, kw):
  v, f = _irregular()
  data = _stl_binary(v, f)
  _compare(_mj(attr, data), _process(data, "a.stl", **kw))


def test_legacy_differs_from_exact_for_nonconvex():
  # legacy takes absolute pyramid volumes from the face centroid, overcounting concave meshes
  v, f = _lshape()
  legacy = M.process_mesh(v, f, inertia="legacy")
  exact = M.process_mesh(v, f, inertia="exact")
  np.testing.assert_allclose(exact.volume, 2.0, rtol=1e-12)
  assert legacy.volume > exact.volume * 1.01


def test_inline_vertices_and_hull_faces_match_mujoco():
  v, f = _irregular()
  vs = " ".join("%.9g" % x for x in v.ravel())
  fs = " ".join(str(i) for i in f.ravel())
  vert, face = M.mesh_from_arrays(vs.split(), fs.split())
  _compare(_mj(f'vertex="{vs}" face="{fs}"'), M.process_mesh(vert, face, needhull=True))

  # without faces the hull gives them
  rng = np.random.default_rng(7)
  p = rng.normal(size=(30, 3))
  ps = " ".join("%.9g" % x for x in p.ravel())
  vert, face = M.mesh_from_arrays(ps.split())
  assert face.shape == (0, 3)
  info = M.process_mesh(vert, face)
  m = _mj(f'vertex="{ps}"')
  assert _hull_set(info.face) == _hull_set(m.mesh_face)
  np.testing.assert_allclose(info.pos, m.mesh_pos[0], atol=1e-12)
  np.testing.assert_allclose(M.mesh_geom_inertia(info)[0], m.body_mass[1], rtol=1e-12)
  np.testing.assert_allclose(M.mesh_geom_inertia(info)[1], m.body_inertia[1], rtol=1e-9)


def test_geom_mass_overrides_density():
  v, f = _tetra()
  data = _stl_binary(v, f)
  m = _mj("", data, geomattr='mass="2.5"')
  info = _process(data, "a.stl")
  mass, inertia = M.mesh_geom_inertia(info, mass=2.5)
  assert mass == 2.5
  np.testing.assert_allclose(inertia, m.body_inertia[1], rtol=1e-9)


# ------------------------------------------------------------------------------------ decoding


def test_stl_deduplicates_vertices_in_first_appearance_order():
  v, f = _box()
  data = _stl_binary(v, f)
  vert, face = M.read_mesh(data, "box.stl")
  assert vert.shape == (8, 3) and face.shape == (12, 3)
  m = _mj("", data)
  info = M.process_mesh(vert, face)
  np.testing.assert_array_equal(face, m.mesh_face)
  np.testing.assert_allclose(info.vert, m.mesh_vert, atol=1e-7)
  assert vert.dtype == np.float64 and face.dtype == np.int32
  # vertices are the float32 values of the file
  np.testing.assert_array_equal(vert, vert.astype(np.float32).astype(np.float64))


def test_ascii_stl_equals_binary():
  # MuJoCo reads binary STL only; ASCII must decode to the same mesh
  v, f = _icosphere(1)
  vb, fb = M.read_mesh(_stl_binary(v, f), "a.stl")
  va, fa = M.read_mesh(_stl_ascii(v, f), "a.stl")
  np.testing.assert_array_equal(va, vb)
  np.testing.assert_array_equal(fa, fb)
  vb, fb = M.read_mesh((FIXTURES / "box.stl").read_bytes(), "box.stl")
  va, fa = M.read_mesh((FIXTURES / "box_ascii.stl").read_bytes(), "box_ascii.stl")
  np.testing.assert_array_equal(va, vb)
  np.testing.assert_array_equal(fa, fb)


@pytest.mark.parametrize("fixture", ["box.stl", "tetra.obj", "lshape.obj"])
def test_fixture_files_match_mujoco(fixture):
  data = (FIXTURES / fixture).read_bytes()
  m = _mj('inertia="exact"', data, fixture.split(".")[1])
  info = _process(data, fixture, inertia="exact")
  _compare(m, info)
  if m.mesh_texcoordnum[0]:
    np.testing.assert_allclose(info.texcoord, m.mesh_texcoord, atol=1e-7)
    np.testing.assert_array_equal(info.facetexcoord, m.mesh_facetexcoord)


def test_obj_polygons_indices_and_shapes():
  # quads split along the shorter diagonal, n-gons from the first corner, negative and
  # slash-separated indices, only the first object's faces, vertices never merged
  obj = b"""# test
o first
v 0 0 0
v 1 0 0
v 1.5 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1.5 1 1
v 0 1 1
v 0 0 0
vt 0.25 0.5
f 4/1 3/1 2/1 1/1
f -5/-1 -4/-1 -3/-1 -2/-1
f 1/1 2/1 6/1 5/1
f 2/1 3/1 7/1 6/1
f 3/1 4/1 8/1 7/1
f 4/1 1/1 5/1 8/1
o second
f 1 2 3
"""
  vert, face = M.read_mesh(obj, "q.obj")
  assert vert.shape == (9, 3)
  m = _mj("", obj, "obj")
  np.testing.assert_array_equal(face, m.mesh_face)
  info = _process(obj, "q.obj")
  np.testing.assert_allclose(info.texcoord, m.mesh_texcoord)
  np.testing.assert_array_equal(info.facetexcoord, m.mesh_facetexcoord)

  import math as _m

  p = [(_m.cos(2 * _m.pi * k / 5), _m.sin(2 * _m.pi * k / 5) * 1.3) for k in range(5)]
  s = "".join(f"v {x} {y} 0\n" for x, y in p) + "".join(f"v {x} {y} 1\n" for x, y in p)
  s += "f 5 4 3 2 1\nf 6 7 8 9 10\n"
  s += "".join(f"f {k + 1} {(k + 1) % 5 + 1} {(k + 1) % 5 + 6} {k + 6}\n" for k in range(5))
  vert, face = M.read_mesh(s.encode(), "p.obj")
  np.testing.assert_array_equal(face, _mj("", s.encode(), "obj").mesh_face)


def test_msh_roundtrip():
  v, f = _tetra()
  data = struct.pack("<4i", 4, 0, 0, 4) + v.astype("<f4").tobytes() + f.astype("<i4").tobytes()
  vert, face = M.read_mesh(data, "t.msh")
  np.testing.assert_array_equal(face, f)
  np.testing.assert_array_equal(vert, v.astype(np.float32).astype(np.float64))
  _compare(_mj("", data, "msh"), _process(data, "t.msh"))


def test_errors():
  v, f = _tetra()
  bad = f.copy()
  bad[3] = bad[3][[0, 2, 1]]
  with pytest.raises(ValueError, match="inconsistent orientation"):
    M.process_mesh(v, bad, inertia="exact")
  with pytest.raises(ValueError, match="negative"):
    M.process_mesh(v, f[:, [0, 2, 1]], inertia="exact")
  M.process_mesh(v, f[:, [0, 2, 1]], inertia="legacy")  # legacy takes absolute volumes
  with pytest.raises(ValueError, match="at least 4 vertices"):
    M.process_mesh(v[:3], f[:1])
  with pytest.raises(ValueError, match="does not exist"):
    M.process_mesh(v, f + 1)
  with pytest.raises(ValueError, match="unknown or unsupported"):
    M.read_mesh(b"", "a.ply")
  with pytest.raises(ValueError, match="STL"):
    M.read_mesh(b"garbage", "a.stl")


# --------------------------------------------------------------------------------- convex hull


def _check_hull(pts, hf):
  pts = np.asarray(pts, float)
  n = np.cross(pts[hf[:, 1]] - pts[hf[:, 0]], pts[hf[:, 2]] - pts[hf[:, 0]])
  n /= np.linalg.norm(n, axis=1)[:, None]
  d = pts @ n.T - np.einsum("ij,ij->i", n, pts[hf[:, 0]])
  assert d.max() < 1e-9 * np.abs(pts).max()  # outward, every point inside
  assert M._hull_valid([tuple(x) for x in hf])  # closed 2-manifold, genus 0


def _rotation(seed):
  q = np.random.default_rng(seed).normal(size=4)
  return np.array(M._quat2mat(list(q / np.linalg.norm(q))))


@pytest.mark.parametrize("case", ["sphere", "gauss", "rotated_grid", "cube_noise", "cylinder"])
def test_convex_hull_matches_qhull(case):
  rng = np.random.default_rng(0)
  g = np.linspace(-1, 1, 5)
  grid = np.array([[x, y, z] for x in g for y in g for z in g])
  th = np.linspace(0, 2 * np.pi, 24, endpoint=False)
  pts = {
    "sphere": rng.normal(size=(300, 3)),
    "gauss": rng.normal(size=(500, 3)),
    "rotated_grid": grid[np.any(np.abs(grid) == 1, axis=1)] @ _rotation(1).T,
    "cube_noise": np.concatenate(
      [
        np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]),
        rng.uniform(-1, 1, (100, 3)),
      ]
    ),
    "cylinder": np.concatenate(
      [
        np.c_[np.cos(th), np.sin(th), np.zeros(24)],
        np.c_[np.cos(th), np.sin(th), np.ones(24)],
        [[0, 0, 0.5]],
      ]
    ),
  }[case]
  if case == "sphere":
    pts /= np.linalg.norm(pts, axis=1)[:, None]
  s = " ".join("%.9g" % x for x in pts.ravel())
  vert, _ = M.mesh_from_arrays(s.split())
  hf = M.convex_hull(vert)
  _check_hull(vert, hf)
  nv, nf, faces = _mj_graph(_mj(f'vertex="{s}"'))
  assert len(np.unique(hf)) == nv and len(hf) == nf
  if case in ("sphere", "gauss", "rotated_grid"):  # no coplanar facets: triangulation unique
    assert _hull_set(hf) == _hull_set(faces)


def test_convex_hull_degenerate_input():
  with pytest.raises(ValueError, match="at least 4"):
    M.convex_hull(np.random.rand(3, 3))
  with pytest.raises(ValueError, match="coplanar"):
    M.convex_hull(np.c_[np.random.rand(10, 2), np.zeros(10)])
  with pytest.raises(ValueError, match="collinear"):
    M.convex_hull(np.c_[np.arange(6.0), np.zeros(6), np.zeros(6)])
  with pytest.raises(ValueError, match="coincide"):
    M.convex_hull(np.ones((5, 3)))
  # duplicates and interior points are ignored
  cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
  pts = np.concatenate([cube, cube, [[0.5, 0.5, 0.5], [0.5, 0.5, 1.0], [0.5, 0.0, 0.0]]])
  hf = M.convex_hull(pts)
  assert len(hf) == 12 and set(np.unique(hf)) <= set(range(16))
  assert len({tuple(pts[i]) for i in np.unique(hf)}) == 8


@pytest.mark.parametrize("maxhullvert", [4, 10, 32])
def test_maxhullvert(maxhullvert):
  rng = np.random.default_rng(1)
  p = rng.normal(size=(300, 3))
  p /= np.linalg.norm(p, axis=1)[:, None]
  hf = M.convex_hull(p, maxhullvert)
  _check_hull(p[np.unique(hf)], np.searchsorted(np.unique(hf), hf))
  s = " ".join("%.9g" % x for x in p.ravel())
  nv, nf, _ = _mj_graph(_mj(f'vertex="{s}" maxhullvert="{maxhullvert}"'))
  assert len(np.unique(hf)) == nv == maxhullvert and len(hf) == nf


def test_graph_layout():
  v, _ = _icosphere(1)
  hf = M.convex_hull(v)
  g = M.make_graph(hf)
  nv, nf = g[0], g[1]
  edgeadr, gid = g[2 : 2 + nv], g[2 + nv : 2 + 2 * nv]
  edges = g[2 + 2 * nv : 2 + 3 * nv + 3 * nf]
  faces = g[2 + 3 * nv + 3 * nf :].reshape(-1, 3)
  np.testing.assert_array_equal(faces, hf)
  assert np.count_nonzero(edges == -1) == nv
  nbr = {}
  for i in range(nv):
    j = edgeadr[i]
    lst = []
    while edges[j] != -1:
      lst.append(int(edges[j]))
      j += 1
    nbr[i] = lst
  for i, lst in nbr.items():  # symmetric adjacency matching the hull edges
    assert all(i in nbr[j] for j in lst)
  hull_edges = {
    (min(a, b), max(a, b)) for t in hf for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0]))
  }
  graph_edges = {(min(gid[i], gid[j]), max(gid[i], gid[j])) for i in nbr for j in nbr[i]}
  assert hull_edges == graph_edges


# ------------------------------------------------------------------------------------- fitting


@pytest.mark.parametrize("fitaabb", [False, True])
@pytest.mark.parametrize("gtype", ["sphere", "capsule", "cylinder", "ellipsoid", "box"])
def test_fit_primitive_matches_mujoco(fitaabb, gtype):
  v, f = _irregular()
  data = _stl_binary(v, f)
  name = _name("stl")
  xml = f"""<mujoco><compiler fitaabb="{str(fitaabb).lower()}"/>
    <asset><mesh name="m" file="{name}"/></asset><worldbody><body><freejoint/>
    <geom type="{gtype}" mesh="m" fitscale="1.3" pos="0.5 -0.2 0.1" quat="0.7 0.2 -0.1 0.4"/>
    </body></worldbody></mujoco>"""
  m = mujoco.MjModel.from_xml_string(xml, assets={name: data})
  info = _process(data, "a.stl")
  np.testing.assert_allclose(M.fit_primitive(info, gtype, 1.3, fitaabb), m.geom_size[0], atol=1e-8)
  # fitted geom frame = geom frame composed with (fit_offset, info.quat)
  q = np.array([0.7, 0.2, -0.1, 0.4]) / np.linalg.norm([0.7, 0.2, -0.1, 0.4])
  pos = [0.5, -0.2, 0.1] + np.array(M._quat2mat(list(q))) @ M.fit_offset(info, fitaabb)
  np.testing.assert_allclose(pos, m.geom_pos[0], atol=1e-8)
  _assert_rot(M._mulquat(list(q), list(info.quat)), m.geom_quat[0], QUAT_TOL)
  assert (
    M.fit_primitive(
      info, int(getattr(mujoco.mjtGeom, f"mjGEOM_{gtype.upper()}")), 1.3, fitaabb
    ).tolist()
    == M.fit_primitive(info, gtype, 1.3, fitaabb).tolist()
  )


# -------------------------------------------------------------------------------------- eig3


def test_eig3_matches_mju_eig3():
  rng = np.random.default_rng(2)
  for k in range(60):
    a = rng.normal(size=(3, 3)) * 10 ** rng.uniform(-4, 3)
    a = a + a.T
    if k % 3 == 1:
      a = np.diag(rng.uniform(0, 1, 3)) + 10 ** (-rng.uniform(2, 10)) * a
    ev, evec, q = np.zeros(3), np.zeros(9), np.zeros(4)
    mujoco.mju_eig3(ev, evec, q, a.ravel())
    ours_ev, ours_q = M.eig3(a)
    np.testing.assert_allclose(ours_ev, ev, rtol=0, atol=1e-13 * np.abs(a).max())
    np.testing.assert_allclose(ours_q, q, atol=1e-13)
    r = np.array(M._quat2mat(list(ours_q)))
    np.testing.assert_allclose(r.T @ a @ r, np.diag(ours_ev), atol=1e-13 * np.abs(a).max())
  assert math.isclose(M.eig3(np.diag([1.0, 3.0, 2.0]))[0][0], 3.0)


def test_extrema_match_mujoco():
  rng = np.random.default_rng(0)
  p = rng.normal(size=(60, 3))
  s = " ".join("%.9g" % x for x in p.ravel())
  m = _mj(f'vertex="{s}"')
  vert, face = M.mesh_from_arrays(s.split())
  info = M.process_mesh(vert, face)
  mj_nv = m.mesh_graph[0]
  mj_gid = m.mesh_graph[2 + mj_nv : 2 + 2 * mj_nv]
  nv = info.graph[0]
  gid = info.graph[2 + nv : 2 + 2 * nv]
  # local ids differ (qhull's vertex order vs ours); the mesh vertices they name agree
  ext = gid[info.extrema]
  ref = mj_gid[m.mesh_extrema[0]]
  ext[13] = ref[13] = 0  # zero direction: any vertex
  np.testing.assert_array_equal(ext, ref)
  # no hull: zeros
  v, f = _tetra()
  assert not M.process_mesh(v, f).extrema.any()


@pytest.mark.parametrize(
  "contact",
  [
    "",
    '<pair geom1="a" geom2="s"/>',
    '<pair geom1="s" geom2="a"/>',
    '<exclude body1="world" body2="b"/>',
  ],
)
def test_hull_for_colliding_and_paired_geoms_matches_mujoco(contact):
  """MuJoCo builds a mesh's hull graph when a geom using it can collide: contype/conaffinity
  nonzero, or named in an explicit <pair> (a visual-class mesh paired by hand)."""
  import engine

  v, f = _box()
  vs = " ".join("%.9g" % x for x in v.ravel())
  fs = " ".join(str(i) for i in f.ravel())
  xml = f"""<mujoco><asset><mesh name="m" vertex="{vs}" face="{fs}"/>
    <mesh name="m2" vertex="{vs}" face="{fs}"/><mesh name="m3" vertex="{vs}" face="{fs}"/>
    </asset><worldbody><geom name="a" type="mesh" mesh="m" contype="0" conaffinity="0"/>
    <body name="b"><geom name="s" size=".1"/>
    <geom type="mesh" mesh="m2" contype="0" conaffinity="0"/><geom type="mesh" mesh="m3"/>
    </body></worldbody><contact>{contact}</contact></mujoco>"""
  ours = engine.MjModel.from_xml_string(xml).mesh_graphadr
  np.testing.assert_array_equal(ours, mujoco.MjModel.from_xml_string(xml).mesh_graphadr)


def test_mesh_cache_reuses_files_but_not_arrays(tmp_path):
  """Meshes compiled from files are cached within the process (as MuJoCo does): a second load
  gives the same fields, a changed file or attribute is compiled afresh, and a model's arrays
  are its own (editing one does not reach the cache)."""
  import engine

  v, f = _box()
  path = tmp_path / "m.obj"
  path.write_text(
    "".join(f"v {x} {y} {z}\n" for x, y, z in v)
    + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in f)
  )
  xml = f"""<mujoco><asset><mesh name="m" file="{path}" scale="{{s}}"/></asset>
    <worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>"""
  first = engine.MjModel.from_xml_string(xml.format(s="1 1 1"))
  first.mesh_vert[:] = 0.0
  again = engine.MjModel.from_xml_string(xml.format(s="1 1 1"))
  ref = mujoco.MjModel.from_xml_string(xml.format(s="1 1 1"))
  np.testing.assert_allclose(again.mesh_vert, ref.mesh_vert, rtol=0, atol=F32_TOL)
  np.testing.assert_allclose(again.body_inertia, ref.body_inertia, rtol=1e-12)
  scaled = engine.MjModel.from_xml_string(xml.format(s="2 1 1"))
  np.testing.assert_allclose(
    scaled.mesh_vert,
    mujoco.MjModel.from_xml_string(xml.format(s="2 1 1")).mesh_vert,
    rtol=0,
    atol=F32_TOL,
  )
  path.write_text(
    "".join(f"v {2 * x} {y} {z}\n" for x, y, z in v)
    + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in f)
  )
  changed = engine.MjModel.from_xml_string(xml.format(s="1 1 1"))
  np.testing.assert_allclose(changed.body_mass, 2 * ref.body_mass, rtol=1e-12)
