"""Signed distance field geoms (`<geom type="sdf">` with an SDF plugin) and their collisions
(engine/collision/sdf.py), against the `mujoco` package.

- compile: a plugin mesh's vertices, faces, frame, the body mass and inertia and the geom's
  size, box and bounding radius equal MuJoCo's; implicit instances are numbered as MuJoCo's;
- contacts of a geom against an SDF (mjc_SDF: every primitive, and SDF against SDF) equal
  MuJoCo's to rounding, for several iteration counts and poses; a plane against an SDF
  (mjc_PlaneConvex on its mesh) too; short trajectories of a gear pair follow MuJoCo's;
- mesh against SDF (mjc_MeshSDF) is checked for what it must do (MuJoCo 3.17 picks other
  points, see sdf.py): contacts exactly where the mesh penetrates, normals along the field;
- a plugin SDF registered from Python meshes and collides like the analytic sphere it is;
- errors name the element.
"""

import numpy as np
import pytest
from numba import njit

import engine
from engine import plugin as P
from engine import plugin_call
from engine.errors import CompileError
from examples import sdf_gears

mujoco = pytest.importorskip("mujoco")

TORUS = """
  <extension>
    <plugin plugin="mujoco.sdf.torus"><instance name="torus">
      <config key="radius1" value="0.3"/><config key="radius2" value="0.1"/></instance></plugin>
    <plugin plugin="mujoco.sdf.bowl"><instance name="bowl">
      <config key="height" value="0.4"/><config key="radius" value="0.5"/>
      <config key="thickness" value="0.03"/></instance></plugin>
  </extension>
  <asset><mesh name="torus"><plugin instance="torus"/></mesh>
    <mesh name="bowl"><plugin instance="bowl"/></mesh></asset>"""

SHAPES = {
  "sphere": ".1",
  "box": ".06 .05 .04",
  "capsule": ".04 .05",
  "ellipsoid": ".05 .07 .04",
  "cylinder": ".05 .05",
}


def _pair(xml):
  m = engine.MjModel.from_xml_string(xml)
  r = mujoco.MjModel.from_xml_string(xml)
  d, rd = engine.MjData(m), mujoco.MjData(r)
  return m, d, r, rd


def _assert_same_contacts(d, rd, atol=1e-12):
  assert d.ncon == rd.ncon
  c = d.contact
  for i in range(rd.ncon):
    ref = rd.contact[i]
    assert list(c.geom[i]) == list(ref.geom), i
    assert c.dist[i] == pytest.approx(ref.dist, abs=atol), i
    np.testing.assert_allclose(c.pos[i], ref.pos, rtol=0, atol=atol, err_msg=str(i))
    np.testing.assert_allclose(c.frame[i], ref.frame, rtol=0, atol=atol, err_msg=str(i))


def test_plugin_mesh_and_body_match_mujoco():
  xml = f"""<mujoco>{TORUS}<worldbody>
    <body pos="0 0 .2" euler="10 20 30"><freejoint/>
      <geom type="sdf" mesh="torus"><plugin instance="torus"/></geom></body>
    <body pos="1 0 0"><geom type="sdf" mesh="bowl" density="300"><plugin instance="bowl"/></geom>
    </body></worldbody></mujoco>"""
  m, _, r, _ = _pair(xml)
  for name in (
    "mesh_vert",
    "mesh_face",
    "mesh_pos",
    "mesh_quat",
    "mesh_vertnum",
    "mesh_facenum",
    "mesh_polynum",
    "geom_size",
    "geom_aabb",
    "geom_rbound",
    "geom_plugin",
    "body_mass",
    "body_inertia",
    "body_ipos",
    "body_iquat",
  ):
    np.testing.assert_array_equal(np.asarray(getattr(m, name)), getattr(r, name), err_msg=name)
  np.testing.assert_allclose(m.mesh_normal, r.mesh_normal, rtol=0, atol=2.5e-7)
  assert m.nplugin == r.nplugin == 2


def test_implicit_instances_numbered_as_mujoco():
  xml = """<mujoco><extension><plugin plugin="mujoco.sdf.torus"/></extension>
    <asset><mesh name="m"><plugin plugin="mujoco.sdf.torus">
      <config key="radius1" value="0.5"/></plugin></mesh></asset>
    <worldbody><body><freejoint/><geom type="sdf" mesh="m">
      <plugin plugin="mujoco.sdf.torus"/></geom></body></worldbody></mujoco>"""
  m, _, r, _ = _pair(xml)
  assert m.nplugin == r.nplugin == 2
  assert list(m.geom_plugin) == list(r.geom_plugin) == [1]
  assert bytes(np.asarray(m.plugin_attr, np.int8)) == r.plugin_attr.tobytes()
  assert engine.plugin.plugin_config(m, 0) == {"radius1": "0.5", "radius2": ""}


@pytest.mark.parametrize("shape", SHAPES)
def test_geom_against_sdf_matches_mujoco(shape):
  xml = f"""<mujoco><option sdf_initpoints="40"/>{TORUS}
    <worldbody>
      <body pos=".1 -.2 0" euler="0 20 40"><freejoint/>
        <geom type="sdf" mesh="torus"><plugin instance="torus"/></geom></body>
      <body pos=".3604 -.0072 .0436" euler="10 20 30"><freejoint/>
        <geom type="{shape}" size="{SHAPES[shape]}"/></body>
      <body pos="2 0 0" euler="5 -3 10"><geom type="sdf" mesh="bowl"><plugin instance="bowl"/>
        </geom></body>
      <body pos="2.05 0.05 -.44" euler="30 20 0"><freejoint/>
        <geom type="{shape}" size="{SHAPES[shape]}"/></body>
    </worldbody></mujoco>"""
  m, d, r, rd = _pair(xml)
  for iterations in (1, 4, 10):
    m.opt.sdf_iterations = r.opt.sdf_iterations = iterations
    engine.mj_forward(m, d)
    mujoco.mj_forward(r, rd)
    assert rd.ncon >= 3  # both pairs touch
    _assert_same_contacts(d, rd)


def test_gear_pair_follows_mujoco():
  """SDF against SDF (examples/sdf_gears.py's driven gear pair): along MuJoCo's trajectory,
  given MuJoCo's state, the same contacts at every step; stepped on its own, the same motion.
  The gear's field has finite-difference gradients (step 1e-8), which turn last-bit state
  differences (from the solver) into 1e-9 contact differences (measured), so trajectories
  are compared at looser tolerances: 1e-6 after 50 steps, 1e-3 after 500."""
  m, d, r, rd = _pair(sdf_gears.MODEL)
  d.ctrl[0] = rd.ctrl[0] = 2.0
  for _ in range(25):
    d.qpos[:], d.qvel[:] = rd.qpos, rd.qvel
    engine.mj_forward(m, d)
    mujoco.mj_forward(r, rd)
    _assert_same_contacts(d, rd)
    mujoco.mj_step(r, rd, 2)
  m, d, r, rd = _pair(sdf_gears.MODEL)
  d.ctrl[0] = rd.ctrl[0] = 2.0
  engine.mj_step(m, d, 50)
  mujoco.mj_step(r, rd, 50)
  np.testing.assert_allclose(d.qpos, rd.qpos, rtol=0, atol=1e-6)
  engine.mj_step(m, d, 450)
  mujoco.mj_step(r, rd, 450)
  np.testing.assert_allclose(d.qpos, rd.qpos, rtol=0, atol=1e-3)


# an SDF torus on a plane, with a sphere, a box and a mesh on it (mjc_PlaneConvex, mjc_SDF,
# mjc_MeshSDF)
SCENE = f"""<mujoco>{TORUS}<asset><mesh name="octa" vertex=".1 0 0 -.1 0 0 0 .1 0 0 -.1 0
    0 0 .1 0 0 -.1" face="0 2 4 2 1 4 1 3 4 3 0 4 2 0 5 1 2 5 3 1 5 0 3 5"/></asset>
  <worldbody><geom type="plane" size="1 1 .1"/>
    <body pos="0 0 .1"><freejoint/><geom type="sdf" mesh="torus"><plugin instance="torus"/>
      </geom></body>
    <body pos="0 0 .4"><freejoint/><geom type="sphere" size=".25"/></body>
    <body pos="-.3 0 .25"><freejoint/><geom type="box" size=".06 .06 .06"/></body>
    <body pos="0 .3 .28" euler="10 30 0"><freejoint/><geom type="mesh" mesh="octa"/></body>
  </worldbody></mujoco>"""


def test_ball_cradled_by_the_torus():
  """A ball (radius .25) dropped into the torus (ring radius .3, tube .1) on the floor comes
  to rest on the tube all around: its centre at .1 + sqrt(.35^2 - .3^2) = .28 (the box and
  the mesh tumble off meanwhile)."""
  m = engine.MjModel.from_xml_string(SCENE)
  d = engine.MjData(m)
  engine.mj_step(m, d, 1500)
  assert np.abs(d.qvel[:12]).max() < 1e-3  # torus and ball at rest
  assert d.xpos[1, 2] == pytest.approx(0.1, abs=2e-3)
  np.testing.assert_allclose(d.xpos[2], [0, 0, 0.1 + np.sqrt(0.35**2 - 0.3**2)], atol=3e-3)


def test_plane_against_sdf_is_plane_convex():
  xml = f"""<mujoco>{TORUS}<worldbody><geom type="plane" size="1 1 .1"/>
    <body pos="0 0 .09" euler="3 2 0"><freejoint/>
      <geom type="sdf" mesh="torus"><plugin instance="torus"/></geom></body>
    </worldbody></mujoco>"""
  m, d, r, rd = _pair(xml)
  engine.mj_forward(m, d)
  mujoco.mj_forward(r, rd)
  assert rd.ncon >= 1
  _assert_same_contacts(d, rd)


def test_hfield_against_sdf_has_no_contacts():
  xml = f"""<mujoco>{TORUS}<asset><hfield name="h" nrow="3" ncol="3" size="1 1 .1 .1"
    elevation="0 0 0 0 1 0 0 0 0"/></asset><worldbody><geom type="hfield" hfield="h"/>
    <body pos="0 0 .05"><freejoint/><geom type="sdf" mesh="torus"><plugin instance="torus"/>
    </geom></body></worldbody></mujoco>"""
  m, d, r, rd = _pair(xml)
  engine.mj_forward(m, d)
  mujoco.mj_forward(r, rd)
  assert d.ncon == rd.ncon == 0


MESH = """<mujoco>{torus}<asset><mesh name="octa" vertex=".1 0 0 -.1 0 0 0 .1 0 0 -.1 0
    0 0 .1 0 0 -.1" face="0 2 4 2 1 4 1 3 4 3 0 4 2 0 5 1 2 5 3 1 5 0 3 5"/></asset>
  <worldbody><body><geom type="sdf" mesh="torus"><plugin instance="torus"/></geom></body>
    <body pos="{x} 0 {z}" euler="10 30 0"><freejoint/><geom type="mesh" mesh="octa"/></body>
  </worldbody></mujoco>"""


def test_mesh_against_sdf_contacts_where_it_penetrates():
  # the octahedron's lowest vertex dips 2 cm into the torus's tube (tube top at z = .1)
  m = engine.MjModel.from_xml_string(MESH.format(torus=TORUS, x=0.3, z=0.16))
  d = engine.MjData(m)
  engine.mj_forward(m, d)
  assert d.ncon >= 1
  tube = np.array([0.3, 0.0])
  for i in range(d.ncon):
    assert list(d.contact.geom[i]) == [1, 0]
    assert d.contact.dist[i] < 0
    # the normal points from the mesh (geom 1) ... into the torus: the field's gradient
    # there points out of the tube, so the normal is minus it: downward, toward the tube axis
    p = d.contact.pos[i]
    radial = np.array([p[0], p[1]]) / np.hypot(p[0], p[1])
    out = np.array([*(radial * (np.hypot(p[0], p[1]) - tube[0])), p[2]])
    assert np.dot(d.contact.frame[i][:3], out) < 0
  # lifted clear of the tube: no contacts
  m2 = engine.MjModel.from_xml_string(MESH.format(torus=TORUS, x=0.3, z=0.25))
  d2 = engine.MjData(m2)
  engine.mj_forward(m2, d2)
  assert d2.ncon == 0


# ---- an SDF plugin written in Python: a ball of radius `radius`


@njit
def _ball_distance(m, d, instance, point):
  r = m.plugin_param[m.plugin_paramadr[instance]]
  return np.sqrt(point[0] ** 2 + point[1] ** 2 + point[2] ** 2) - r


@njit
def _ball_gradient(m, d, instance, point, gradient):
  n = np.sqrt(point[0] ** 2 + point[1] ** 2 + point[2] ** 2)
  for k in range(3):
    gradient[k] = point[k] / n


def _radius(config):
  return float(config.get("radius") or 0.1)


@pytest.fixture
def ball_plugin():
  P.register_plugin(
    "test.sdf.ball",
    plugin_call.mjPLUGIN_SDF,
    ("radius",),
    init=lambda m, i: np.array([_radius(P.plugin_config(m, i))]),
    sdf_distance=_ball_distance,
    sdf_gradient=_ball_gradient,
    sdf_aabb=lambda c: np.array([0, 0, 0, _radius(c), _radius(c), _radius(c)]) * 1.1,
    sdf_staticdistance=lambda c, p: np.linalg.norm(p, axis=1) - _radius(c),
  )
  yield
  P.unregister_plugin("test.sdf.ball")


def test_python_sdf_plugin_meshes_and_collides(ball_plugin):
  xml = """<mujoco><extension><plugin plugin="test.sdf.ball"><instance name="ball">
      <config key="radius" value="0.2"/></instance></plugin></extension>
    <asset><mesh name="ball"><plugin instance="ball"/></mesh></asset>
    <worldbody><body><geom type="sdf" mesh="ball"><plugin instance="ball"/></geom></body>
      <body pos=".25 .1 .05"><freejoint/><geom type="sphere" size=".1"/></body>
    </worldbody></mujoco>"""
  m = engine.MjModel.from_xml_string(xml)
  np.testing.assert_allclose(np.linalg.norm(m.mesh_vert, axis=1), 0.2, atol=2e-3)
  assert m.body_mass[1] == pytest.approx(1000 * 4 / 3 * np.pi * 0.2**3, rel=2e-2)
  d = engine.MjData(m)
  engine.mj_forward(m, d)
  assert d.ncon >= 1
  center = np.array([0.25, 0.1, 0.05])
  overlap = 0.3 - np.linalg.norm(center)  # the two balls' radii minus their distance
  axis = center / np.linalg.norm(center)
  deepest = int(np.argmin(d.contact.dist[: d.ncon]))
  # mjc_SDF's depth is min over x of max(A, B): half the overlap, midway between the surfaces,
  # reached to within a few tenths of a millimetre in sdf_iterations steps
  assert d.contact.dist[deepest] == pytest.approx(-overlap / 2, abs=3e-3)
  np.testing.assert_allclose(d.contact.frame[deepest][:3], -axis, atol=2e-2)  # geom 1 to 2


# ---- errors


@pytest.mark.parametrize(
  "xml, match",
  [
    (
      f"<mujoco>{TORUS}<worldbody><body><freejoint/><geom type='sdf' mesh='torus'/></body>"
      "</worldbody></mujoco>",
      r"sdf geom needs a <plugin>.*line",
    ),
    (
      "<mujoco><extension><plugin plugin='mujoco.pid'><instance name='pid'/></plugin>"
      "</extension><asset><mesh name='m'><plugin instance='pid'/></mesh></asset></mujoco>",
      r"'mujoco.pid' cannot be used in a mesh",
    ),
    (
      f"<mujoco>{TORUS}<asset><mesh name='v' vertex='0 0 0 1 0 0 0 1 0 0 0 1'>"
      "<plugin instance='torus'/></mesh></asset></mujoco>",
      r"plugin and file or vertex",
    ),
  ],
)
def test_errors_name_the_element(xml, match):
  with pytest.raises(CompileError, match=match):
    engine.MjModel.from_xml_string(xml)


def test_rays_hit_the_sdf_mesh_as_mujoco():
  """mj_ray (and so rangefinders and mouse selection) hits an SDF geom where its mesh is."""
  xml = f"""<mujoco>{TORUS}<worldbody><body pos=".1 0 0" euler="20 10 0">
    <geom type="sdf" mesh="torus"><plugin instance="torus"/></geom></body></worldbody></mujoco>"""
  m, d, r, rd = _pair(xml)
  engine.mj_forward(m, d)
  mujoco.mj_forward(r, rd)
  rng = np.random.default_rng(0)
  hits = 0
  for _ in range(20):
    pnt = rng.uniform(-1, 1, 3)
    vec = rng.uniform(-0.4, 0.4, 3) - pnt
    g, rg = np.array([-1], np.int32), np.array([-1], np.int32)
    dist = engine.mj_ray(m, d, pnt, vec, None, 1, -1, g)
    want = mujoco.mj_ray(r, rd, pnt, vec, None, 1, -1, rg)
    assert dist == pytest.approx(want, abs=1e-12) and g[0] == rg[0]
    hits += want >= 0
  assert hits >= 5
