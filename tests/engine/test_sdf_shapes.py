"""SDF plugin shapes (engine/collision/sdf_shapes.py) and meshes (engine/plugins/marching_cubes.py).

Analytic checks first (known distances, gradients against finite differences, bounding boxes,
marching cubes on a sphere), then MuJoCo as the oracle:
- distances, gradients, bounding boxes and attribute defaults come straight from the plugins that
  the `mujoco` package registers (mjp_getPlugin through ctypes: sdf_staticdistance, sdf_gradient
  with a real mjData, sdf_aabb, sdf_attribute). Measured: bitwise equal everywhere;
- meshes: the model's mesh_vertnum/mesh_facenum, mesh_vert and mesh_face equal ours exactly
  (MarchingCubeCpp's triangulation table, which MuJoCo uses and we carry; its per-configuration
  triangles are also read back from MuJoCo's meshes cell by cell and compared), the normals to
  float32 rounding.
"""

import ctypes
import math

import numpy as np
import pytest

from engine.collision import sdf_shapes as S
from engine.plugins import marching_cubes as MC

PLUGINS = tuple(S.SHAPES)
CUSTOM = {
  "mujoco.sdf.torus": {"radius1": "0.3", "radius2": "0.1"},
  "mujoco.sdf.bolt": {"radius": "0.2"},
  "mujoco.sdf.nut": {"radius": "0.3"},
  "mujoco.sdf.gear": {
    "alpha": "0.3",
    "diameter": "1.5",
    "teeth": "13",
    "thickness": "0.4",
    "innerdiameter": "0.5",
  },
  "mujoco.sdf.bowl": {"height": "0.2", "radius": "0.5", "thickness": "0.05"},
}


def _box(plugin, params):
  out = np.full(6, np.nan)
  S.SHAPES[plugin].aabb(params, out)
  return out


def _points(box, n, seed, grow=1.3):
  rng = np.random.default_rng(seed)
  return box[:3] + (rng.random((n, 3)) * 2 - 1) * box[3:] * grow


# ------------------------------------------------------------------------------------ parsing


def test_parse_defaults_and_values():
  assert S.parse_torus_config({}).tolist() == [0.35, 0.15]
  assert S.parse_bolt_config({}).tolist() == [0.26]
  assert S.parse_nut_config({}).tolist() == [0.26]
  assert S.parse_gear_config({}).tolist() == [0.0, 2.8, 25.0, 0.2, -1.0]
  assert S.parse_bowl_config({}).tolist() == [0.4, 1.0, 0.02]
  # what MuJoCo accepts: surrounding whitespace, exponents, hexadecimal; blank = default
  cfg = {"radius1": " 0.3\n", "radius2": "1e-1"}
  assert S.parse_torus_config(cfg).tolist() == [0.3, 0.1]
  assert S.parse_torus_config({"radius1": "0x1p-2", "radius2": " "}).tolist() == [0.25, 0.15]
  assert S.parse_gear_config({"teeth": "+13", "alpha": ".5"}).tolist() == [0.5, 2.8, 13, 0.2, -1]
  for plugin, (names, defaults) in S.ATTRIBUTES.items():
    assert S.SHAPES[plugin].parse({}).tolist() == list(defaults)
    assert len(names) == len(defaults)


@pytest.mark.parametrize(
  "value", ["abc", "0.3abc", "0. 3", "0,3", "1e", "nan", "-nan", "inf", "1e400"]
)
def test_parse_rejects_bad_values_naming_the_attribute(value):
  with pytest.raises(ValueError, match="'radius2'.*mujoco.sdf.torus"):
    S.parse_torus_config({"radius1": "0.3", "radius2": value})


def test_parse_rejects_unknown_attribute():
  with pytest.raises(ValueError, match="unrecognized attribute 'radius'.*mujoco.sdf.torus"):
    S.parse_torus_config({"radius": "0.3"})


# ---------------------------------------------------------------------------- analytic values


def test_torus_distances():
  p = S.parse_torus_config({"radius1": "0.4", "radius2": "0.1"})
  d = S.torus_distance
  assert d(0.4, 0.0, 0.0, p) == pytest.approx(-0.1)  # center of the tube
  assert d(0.0, -0.4, 0.0, p) == pytest.approx(-0.1)
  assert d(0.5, 0.0, 0.0, p) == pytest.approx(0.0, abs=1e-15)  # outer equator
  assert d(0.3, 0.0, 0.0, p) == pytest.approx(0.0, abs=1e-15)  # inner equator
  assert d(0.4, 0.0, 0.1, p) == pytest.approx(0.0, abs=1e-15)  # top of the tube
  assert d(0.0, 0.0, 0.0, p) == pytest.approx(0.3)  # the hole's center
  assert d(0.0, 0.0, 0.3, p) == pytest.approx(0.4)  # above it: sqrt(.4^2 + .3^2) - .1


def test_bowl_distances():
  h, r, t = 0.4, 1.0, 0.02
  p = S.parse_bowl_config({})
  d = S.bowl_distance
  assert d(0.0, 0.0, -r, p) == pytest.approx(-t)  # bottom of the shell
  assert d(0.0, 0.0, -r - t, p) == pytest.approx(0.0, abs=1e-15)
  assert d(0.0, 0.0, 0.0, p) == pytest.approx(r - t)  # the sphere's center
  w = math.sqrt(r * r - h * h)
  assert d(w, 0.0, h, p) == pytest.approx(-t)  # on the rim
  assert d(w, 0.0, h + 0.5, p) == pytest.approx(0.5 - t)  # above the rim
  assert d(0.0, 0.0, r, p) > 0.1  # the cut-away cap is empty


def test_gear_distances():
  p = S.parse_gear_config({"innerdiameter": "0.5", "thickness": "0.4"})
  d = S.gear_distance
  assert d(0.0, 0.0, 0.0, p) == pytest.approx(0.25)  # bore center: the bore radius
  assert d(0.0, 0.0, 0.5, p) == pytest.approx(math.hypot(0.25, 0.3))
  outer_r = (2.8 + 2 * 2.8 / 25) / 2  # pitch diameter + 2 addenda
  assert d(5.0, 0.0, 0.0, p) == pytest.approx(5.0 - outer_r)
  assert d(0.8, 0.0, 0.0, p) == pytest.approx(-0.2)  # in the web: the faces bound it
  assert d(0.8, 0.0, 0.25, p) == pytest.approx(0.05)
  # one tooth pitch of rotation maps the gear onto itself
  pts = _points(_box("mujoco.sdf.gear", p), 200, 0)
  c, s = math.cos(2 * math.pi / 25), math.sin(2 * math.pi / 25)
  rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
  a = S.distances(S.GEAR, p, pts)
  b = S.distances(S.GEAR, p, pts @ rot.T)
  np.testing.assert_allclose(a, b, atol=1e-9)
  # alpha turns the gear by -alpha
  q = S.parse_gear_config({"alpha": "0.05", "innerdiameter": "0.5", "thickness": "0.4"})
  c, s = math.cos(-0.05), math.sin(-0.05)
  rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
  np.testing.assert_allclose(S.distances(S.GEAR, q, pts @ rot.T), a, atol=1e-9)


def test_bolt_and_nut_distances():
  b = S.parse_bolt_config({})
  n = S.parse_nut_config({})
  assert S.bolt_distance(0.0, 0.0, -0.25, b) < -0.2  # inside the head
  assert S.bolt_distance(0.0, 0.0, -0.75, b) < -0.2  # inside the shaft
  assert S.bolt_distance(0.0, 0.0, -1.2, b) > 0.1  # below the tip
  assert S.bolt_distance(0.0, 0.0, 0.2, b) > 0.1  # above the head
  assert S.bolt_distance(0.45, 0.0, -0.75, b) > 0.1  # beside the shaft
  assert S.nut_distance(0.0, 0.0, -0.25, n) > 0.1  # in the hole
  assert S.nut_distance(0.4, 0.0, -0.25, n) < -0.05  # in the body
  assert S.nut_distance(0.8, 0.0, -0.25, n) > 0.1  # outside
  # the hexagon: the same distance every 60 degrees (away from the thread, which turns)
  for f, p in ((S.bolt_distance, b), (S.nut_distance, n)):
    for k in range(6):
      a = math.radians(60 * k + 10)
      assert f(0.52 * math.cos(a), 0.52 * math.sin(a), -0.2, p) == pytest.approx(
        f(0.52 * math.cos(math.radians(10)), 0.52 * math.sin(math.radians(10)), -0.2, p), abs=1e-12
      )


def test_rotational_symmetry():
  for plugin in ("mujoco.sdf.torus", "mujoco.sdf.bowl"):
    p = S.SHAPES[plugin].parse({})
    pts = _points(_box(plugin, p), 300, 1)
    c, s = math.cos(1.234), math.sin(1.234)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    shape = S.SHAPE_IDS[plugin]
    np.testing.assert_allclose(
      S.distances(shape, p, pts @ rot.T), S.distances(shape, p, pts), atol=1e-12
    )


def test_switch_matches_shape_functions():
  for plugin in PLUGINS:
    shape, fns = S.SHAPE_IDS[plugin], S.SHAPES[plugin]
    p = fns.parse(CUSTOM[plugin])
    g1, g2, b1, b2 = np.empty(3), np.empty(3), np.empty(6), np.empty(6)
    for x, y, z in _points(_box(plugin, p), 20, 2):
      assert S.distance(shape, x, y, z, p) == fns.distance(x, y, z, p)
      S.gradient(shape, x, y, z, p, g1)
      fns.gradient(x, y, z, p, g2)
      np.testing.assert_array_equal(g1, g2)
    S.aabb(shape, p, b1)
    fns.aabb(p, b2)
    np.testing.assert_array_equal(b1, b2)
  assert math.isnan(S.distance(99, 0.0, 0.0, 0.0, np.zeros(1)))


@pytest.mark.parametrize("plugin", PLUGINS)
def test_gradient_matches_finite_differences(plugin):
  """Against central differences; a few points sit on kinks (thread crests, min/max seams)."""
  p = S.SHAPES[plugin].parse({})
  pts = _points(_box(plugin, p), 400, 3, grow=1.0)
  h = 1e-6
  g = np.empty(3)
  err = []
  for x, y, z in pts:
    S.SHAPES[plugin].gradient(x, y, z, p, g)
    fd = [
      (
        S.SHAPES[plugin].distance(*(np.array([x, y, z]) + h * e), p)
        - S.SHAPES[plugin].distance(*(np.array([x, y, z]) - h * e), p)
      )
      / (2 * h)
      for e in np.eye(3)
    ]
    err.append(np.abs(g - fd).max())
  err = np.array(err)
  assert np.mean(err < 1e-5) > 0.97, np.sort(err)[-20:]
  if plugin in ("mujoco.sdf.torus", "mujoco.sdf.bowl"):  # exact distances: unit gradients
    S.SHAPES[plugin].gradient(0.2, 0.1, 0.05, p, g)
    assert np.linalg.norm(g) == pytest.approx(1.0, abs=1e-6)


def test_torus_gradient_is_analytic():
  p = S.parse_torus_config({})
  g = np.empty(3)
  S.torus_gradient(0.5, 0.0, 0.0, p, g)  # outer equator: radial
  np.testing.assert_allclose(g, [1, 0, 0], atol=1e-15)
  S.torus_gradient(0.35, 0.0, 0.15, p, g)  # top of the tube
  np.testing.assert_allclose(g, [0, 0, 1], atol=1e-15)


@pytest.mark.parametrize("plugin", PLUGINS)
def test_aabb_contains_the_zero_level(plugin):
  """Nothing is inside on the box's faces, and the grid inside finds the surface."""
  for cfg in ({}, CUSTOM[plugin]):
    p = S.SHAPES[plugin].parse(cfg)
    box = _box(plugin, p)
    assert np.all(box[3:] > 0)
    nx, ny, nz = MC.grid_size(box)
    field = S.sample_grid(S.SHAPE_IDS[plugin], p, box, nx, ny, nz)
    for face in (field[0], field[-1], field[:, 0], field[:, -1], field[:, :, 0], field[:, :, -1]):
      assert face.min() >= -1e-6, (cfg, face.min())
    assert field.min() < 0 < field.max()


# ----------------------------------------------------------------------------- marching cubes


def _check_closed_mesh(vert, face):
  """Closed, consistently oriented 2-manifold: every directed edge has its reverse, once."""
  e = np.concatenate([face[:, [0, 1]], face[:, [1, 2]], face[:, [2, 0]]])
  key = e[:, 0].astype(np.int64) * len(vert) + e[:, 1]
  rev = e[:, 1].astype(np.int64) * len(vert) + e[:, 0]
  assert len(np.unique(key)) == len(key)
  assert np.array_equal(np.sort(key), np.sort(rev))


def _volume_area(vert, face):
  a, b, c = vert[face[:, 0]], vert[face[:, 1]], vert[face[:, 2]]
  area = 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1).sum()
  return np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6, area


def _boundary(tris):
  """Directed polygon edges of a triangulation: triangle edges whose reverse is not there."""
  d = {(int(t[i]), int(t[(i + 1) % 3])) for t in tris for i in range(3)}
  return {e for e in d if e[::-1] not in d}


def test_table_polygons():
  """Each configuration's triangles (MC.h's table) cut exactly its sign-changing edges and
  bound the same oriented polygons as our independent derivation (`_triangle_table`), which
  keeps the inside corners of ambiguous cube faces apart."""
  derived, nderived = MC._triangle_table()
  for config in range(256):
    inside = [(config >> c) & 1 for c in range(8)]
    crossing = {e for e, (a, b) in enumerate(MC._EDGES) if inside[a] != inside[b]}
    tris = MC._TABLE[config, : MC._NTRI[config]]
    assert set(tris.ravel().tolist()) == crossing
    assert np.all(MC._TABLE[config, MC._NTRI[config] :] == -1)
    assert nderived[config] == MC._NTRI[config]
    assert _boundary(tris) == _boundary(derived[config, : nderived[config]]), config


def test_marching_cubes_sphere():
  r, n = 0.7, 41
  box = np.array([0.1, 0.0, 0.0, 1.0, 1.0, 1.0])
  g = np.linspace(-1, 1, n)
  z, y, x = np.meshgrid(g, g, g, indexing="ij")
  field = (np.sqrt(x**2 + y**2 + z**2) - r).astype(np.float32)  # centered in the box
  vert, face, normal = MC.marching_cubes(field, box)
  _check_closed_mesh(vert, face)
  assert len(vert) - 3 * len(face) // 2 + len(face) == 2  # Euler characteristic of a sphere
  volume, area = _volume_area(vert - box[:3], face)
  assert volume == pytest.approx(4 / 3 * math.pi * r**3, rel=5e-3)  # positive: outward
  assert area == pytest.approx(4 * math.pi * r**2, rel=5e-3)
  np.testing.assert_allclose(np.linalg.norm(vert - box[:3], axis=1), r, atol=2e-3)
  radial = (vert - box[:3]) / np.linalg.norm(vert - box[:3], axis=1)[:, None]
  assert np.min(np.einsum("ij,ij->i", normal, radial)) > 0.99
  assert vert.dtype == np.float64 and face.dtype == np.int32 and normal.dtype == np.float32
  assert np.array_equal(vert, vert.astype(np.float32))


def test_sdf_mesh_errors():
  with pytest.raises(ValueError, match="unknown SDF plugin"):
    MC.sdf_mesh("mujoco.sdf.cow", {})
  with pytest.raises(ValueError, match="half-sizes.*positive"):
    MC.sdf_mesh("mujoco.sdf.torus", {"radius1": "-0.3"})
  with pytest.raises(ValueError, match="'radius'"):
    MC.sdf_mesh("mujoco.sdf.nut", {"radius": "big"})


@pytest.mark.parametrize("plugin", PLUGINS)
def test_sdf_mesh_is_closed(plugin):
  vert, face, normal = MC.sdf_mesh(plugin, {})
  _check_closed_mesh(vert, face)
  volume, _ = _volume_area(vert, face)
  assert volume > 0
  p = S.SHAPES[plugin].parse({})
  d = S.distances(S.SHAPE_IDS[plugin], p, vert[::7])
  box = _box(plugin, p)
  assert np.abs(d).max() < 2 * np.max(2 * box[3:] / (np.array(MC.grid_size(box)) - 1))


# -------------------------------------------------------------------------- MuJoCo as oracle

mujoco = pytest.importorskip("mujoco")

_DOUBLE_P = ctypes.POINTER(ctypes.c_double)


class _Plugin(ctypes.Structure):
  """mjpPlugin (include/mujoco/mjplugin.h, MuJoCo 3.17)."""

  _fields_ = (
    [
      ("name", ctypes.c_char_p),
      ("nattribute", ctypes.c_int),
      ("attributes", ctypes.POINTER(ctypes.c_char_p)),
      ("capabilityflags", ctypes.c_int),
      ("needstage", ctypes.c_int),
    ]
    + [
      (n, ctypes.c_void_p)
      for n in (
        "nstate",
        "nsensordata",
        "init",
        "destroy",
        "copy",
        "reset",
        "compute",
        "advance",
        "visualize",
        "actuator_act_dot",
        "sdf_distance",
      )
    ]
    + [
      ("sdf_gradient", ctypes.CFUNCTYPE(None, _DOUBLE_P, _DOUBLE_P, ctypes.c_void_p, ctypes.c_int)),
      ("sdf_staticdistance", ctypes.CFUNCTYPE(ctypes.c_double, _DOUBLE_P, _DOUBLE_P)),
      (
        "sdf_attribute",
        ctypes.CFUNCTYPE(
          None, _DOUBLE_P, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p)
        ),
      ),
      ("sdf_aabb", ctypes.CFUNCTYPE(None, _DOUBLE_P, _DOUBLE_P)),
    ]
  )


def _oracle_plugin(plugin):
  lib = ctypes.CDLL(mujoco._structs.__file__)
  lib.mjp_getPlugin.restype = ctypes.POINTER(_Plugin)
  lib.mjp_getPlugin.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
  found = lib.mjp_getPlugin(plugin.encode(), None)
  # the pinned mujoco wheel (the oracle) ships every first-party SDF plugin
  assert found, f"{plugin} is not registered in this mujoco build"
  return found.contents


def _xml(plugin, cfg, geom=False):
  conf = "".join(f'<config key="{k}" value="{v}"/>' for k, v in cfg.items())
  body = '<geom type="sdf" mesh="m"><plugin instance="s"/></geom>' if geom else ""
  return (
    f'<mujoco><extension><plugin plugin="{plugin}"><instance name="s">{conf}</instance>'
    f'</plugin></extension><asset><mesh name="m"><plugin instance="s"/></mesh></asset>'
    f"<worldbody>{body}</worldbody></mujoco>"
  )


@pytest.mark.parametrize("plugin", PLUGINS)
def test_attributes_defaults_and_aabb_match_mujoco(plugin):
  ref = _oracle_plugin(plugin)
  names = tuple(ref.attributes[i].decode() for i in range(ref.nattribute))
  assert names == S.ATTRIBUTES[plugin][0]
  attr = (ctypes.c_double * len(names))()
  ref.sdf_attribute(
    attr,
    (ctypes.c_char_p * len(names))(*[n.encode() for n in names]),
    (ctypes.c_char_p * len(names))(*[b""] * len(names)),
  )
  assert list(attr) == list(S.ATTRIBUTES[plugin][1])
  for cfg in ({}, CUSTOM[plugin]):
    p = S.SHAPES[plugin].parse(cfg)
    box = (ctypes.c_double * 6)()
    ref.sdf_aabb(box, (ctypes.c_double * len(p))(*p))
    np.testing.assert_array_equal(_box(plugin, p), list(box))


@pytest.mark.parametrize("plugin", PLUGINS)
def test_distance_and_gradient_match_mujoco(plugin):
  """sdf_staticdistance and sdf_gradient of MuJoCo's plugins; measured bitwise equal (the
  tolerance only allows for another libm)."""
  ref = _oracle_plugin(plugin)
  for seed, cfg in enumerate(({}, CUSTOM[plugin])):
    p = S.SHAPES[plugin].parse(cfg)
    attr = (ctypes.c_double * len(p))(*p)
    pts = _points(_box(plugin, p), 2000, 10 + seed)
    want = np.array([ref.sdf_staticdistance((ctypes.c_double * 3)(*q), attr) for q in pts])
    np.testing.assert_allclose(S.distances(S.SHAPE_IDS[plugin], p, pts), want, rtol=0, atol=1e-12)

    m = mujoco.MjModel.from_xml_string(_xml(plugin, cfg, geom=True))
    d = mujoco.MjData(m)
    gref, g = (ctypes.c_double * 3)(), np.empty(3)
    for q in pts[:300]:
      ref.sdf_gradient(gref, (ctypes.c_double * 3)(*q), d._address, 0)
      S.SHAPES[plugin].gradient(q[0], q[1], q[2], p, g)
      np.testing.assert_allclose(g, list(gref), rtol=0, atol=1e-6)


def _mujoco_triangulation(field, mface):
  """MuJoCo's triangles per crossed cell as cube-edge ids, one table row per configuration,
  and the configurations seen."""
  pos, edge_vid = MC.grid_vertices(field)
  cell, config = MC.crossed_cells(field)
  cev = MC.cell_edge_vertices(cell, edge_vid, field.shape)
  ntri = MC._NTRI[config]
  assert ntri.sum() == len(mface)
  first = np.cumsum(ntri) - ntri
  # cube edge of each of the cell's vertices: MuJoCo's triangles of cell c in edge ids
  tri_cell = np.repeat(np.arange(len(config)), ntri)
  match = cev[tri_cell][:, None, :] == mface[:, :, None]  # (m, 3, 12)
  assert np.all(match.sum(axis=2) == 1), "a MuJoCo triangle uses a vertex outside its cell"
  edges = match.argmax(axis=2)
  table = np.full((256, 5, 3), -1, dtype=np.int8)
  for c in np.unique(config):
    cells = np.nonzero(config == c)[0]
    rows = [edges[first[k] : first[k] + ntri[k]] for k in cells]
    assert all(np.array_equal(r, rows[0]) for r in rows), "configuration triangulated twice"
    table[c, : ntri[cells[0]]] = rows[0]

  return table, np.unique(config)


def _renormalize(normal):
  """MuJoCo's compiler step on user normals: float32 renormalization, (0, 0, 1) if degenerate."""
  length = np.sqrt(np.einsum("ij,ij->i", normal, normal)).astype(np.float32)
  out = np.tile(np.float32([0, 0, 1]), (len(normal), 1))
  ok = length > 1e-15
  out[ok] = normal[ok] / length[ok, None]
  return out


@pytest.mark.parametrize(
  "plugin,custom",
  [(p, False) for p in PLUGINS] + [("mujoco.sdf.gear", True), ("mujoco.sdf.bowl", True)],
)
def test_mesh_matches_mujoco(plugin, custom):
  cfg = CUSTOM[plugin] if custom else {}
  m = mujoco.MjModel.from_xml_string(_xml(plugin, cfg))
  vert, face, normal = MC.sdf_mesh(plugin, cfg)
  assert (len(vert), len(face)) == (m.mesh_vertnum[0], m.mesh_facenum[0])
  np.testing.assert_array_equal(vert, m.mesh_vert)  # values and order
  np.testing.assert_array_equal(m.mesh_pos[0], 0)  # MuJoCo keeps SDF meshes in the SDF frame
  np.testing.assert_array_equal(m.mesh_quat[0], [1, 0, 0, 0])

  # MuJoCo's faces (MC.h's triangulation, read back cell by cell from MuJoCo's mesh), and its
  # normals to float32 rounding
  np.testing.assert_array_equal(face, m.mesh_face)
  np.testing.assert_allclose(_renormalize(normal), m.mesh_normal, rtol=0, atol=2.5e-7)
  p = S.SHAPES[plugin].parse(cfg)
  box = _box(plugin, p)
  field = S.sample_grid(S.SHAPE_IDS[plugin], p, box, *MC.grid_size(box))
  table, configs = _mujoco_triangulation(field, m.mesh_face)
  np.testing.assert_array_equal(table[configs], MC._TABLE[configs])
