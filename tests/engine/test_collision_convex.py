"""General convex and height field collisions (engine/collision/convex.py, hfield.py and the
native CCD in ccdobj/gjk/polytope/epa/multicontact/features.py) against mujoco.

Each test builds a two-geom model (geom 0 fixed, geom 1 on a free body), poses it, runs
mujoco.mj_forward and our narrowphase on the same pair, and compares the contacts after
matching them by position: exact count, dist, pos and normal to 1e-6 (docs/architecture.md). MuJoCo
completes the tangent rows of the frame in its driver; our narrowphase leaves them zero, as
MuJoCo's convex functions do.

Documented looser checks (see the report of each test):
- mesh faces clipped to more than 4 points: MuJoCo keeps the largest quadrilateral found by a
  greedy search that starts at the first vertex of its hull polygon (m.mesh_poly*); our hull
  orders its triangles unlike qhull, so our polygons can start elsewhere and the 4 chosen points
  differ. Count and normals still match (with MuJoCo's polygons the points match too,
  tests/engine/test_mesh_polygons.py).
- manifolds of boxes, meshes and cylinders with a margin in random poses: depths and positions
  can differ by up to about half the margin (faces resting within the margin do match).
- height field prisms against boxes and meshes: EPA stops on a tolerance, rare differences up
  to 5e-5 were measured.
"""

import zlib

import mujoco
import numpy as np
import pytest

import engine
from engine.collision import convex
from engine.collision import hfield
from tests import oracle

CUBE = "-1 -1 -1 1 -1 -1 1 1 -1 -1 1 -1 -1 -1 1 1 -1 1 1 1 1 -1 1 1"
TET = "0 0 0 1 0 0 0 1 0 0 0 1"
# meshes of 10+ vertices: MuJoCo (and we) hill-climb their hull graph for support points
_PHI = (1 + 5**0.5) / 2
ICO = " ".join(
  f"{x:g}"
  for p in ((0, 1, _PHI), (0, -1, _PHI), (0, 1, -_PHI), (0, -1, -_PHI))
  for k in range(3)
  for x in np.roll(p, k)
)
ROCK = " ".join(f"{x:.4f}" for x in np.random.default_rng(3).normal(size=(40, 3)).ravel())
GEOMS = {
  "plane": 'type="plane" size="1 1 .1"',
  "sphere": 'type="sphere" size=".1"',
  "capsule": 'type="capsule" size=".06 .1"',
  "ellipsoid": 'type="ellipsoid" size=".12 .08 .06"',
  "cylinder": 'type="cylinder" size=".08 .07"',
  "box": 'type="box" size=".1 .07 .05"',
  "cube": 'type="mesh" mesh="cube"',
  "tet": 'type="mesh" mesh="tet"',
  "ico": 'type="mesh" mesh="ico"',
  "rock": 'type="mesh" mesh="rock"',
}

# the pairs MuJoCo 3.17 routes to mjc_Convex and mjc_PlaneConvex (tests below cover them all)
CONVEX_PAIRS = [
  ("plane", "ellipsoid"),
  ("plane", "cube"),
  ("plane", "tet"),
  ("sphere", "ellipsoid"),
  ("sphere", "cube"),
  ("capsule", "ellipsoid"),
  ("capsule", "cylinder"),
  ("capsule", "cube"),
  ("ellipsoid", "ellipsoid"),
  ("ellipsoid", "cylinder"),
  ("ellipsoid", "box"),
  ("ellipsoid", "cube"),
  ("cylinder", "cylinder"),
  ("cylinder", "box"),
  ("cylinder", "cube"),
  ("box", "cube"),
  ("cube", "cube"),
  ("tet", "cube"),
  ("box", "tet"),
  ("tet", "tet"),
  ("plane", "ico"),
  ("sphere", "rock"),
  ("capsule", "ico"),
  ("box", "rock"),
  ("ico", "cube"),
  ("ico", "rock"),
  ("rock", "rock"),
]


def _xml(a, b, margin=0.0, option=""):
  return f"""<mujoco><option>{option}</option>
  <asset><mesh name="cube" vertex="{CUBE}" scale=".09 .07 .05"/>
    <mesh name="tet" vertex="{TET}" scale=".2 .15 .18"/>
    <mesh name="ico" vertex="{ICO}" scale=".06 .05 .04"/>
    <mesh name="rock" vertex="{ROCK}" scale=".04 .05 .03"/></asset>
  <worldbody><geom {GEOMS[a]} margin="{margin}"/>
    <body pos="0 0 .2"><freejoint/><geom {GEOMS[b]} margin="{margin}"/></body>
  </worldbody></mujoco>"""


_ELEV = " ".join(f"{v:.3f}" for v in np.random.default_rng(5).uniform(0, 1, 30))


def _hfield_xml(b, margin=0.0):
  return f"""<mujoco>
  <asset><mesh name="cube" vertex="{CUBE}" scale=".09 .07 .05"/>
    <hfield name="h" nrow="5" ncol="6" size=".4 .3 .1 .05" elevation="{_ELEV}"/></asset>
  <worldbody><geom type="hfield" hfield="h" margin="{margin}" pos=".01 -.02 .03" euler="5 -3 20"/>
    <body pos="0 0 .2"><freejoint/><geom {GEOMS[b]} margin="{margin}"/></body>
  </worldbody></mujoco>"""


def _seed(*keys):
  """A deterministic seed from names and numbers."""
  return zlib.crc32(repr(keys).encode())


def _collide(xml, qpos, mujoco_poses=False):
  """(our contacts, mujoco's contacts) of geoms 0 and 1, rows: dist, pos, frame; with
  mujoco_poses, the geoms at MuJoCo's poses to the last bit."""
  mjm, mjd, m, d = oracle.load(xml)
  mjd.qpos[:] = qpos
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_kinematics(m, d)
  if mujoco_poses:
    d.geom_xpos[...] = mjd.geom_xpos
    d.geom_xmat[...] = mjd.geom_xmat
  ms = m._struct
  ds = d._struct
  con = d._arrays["scratch_con"]
  con[:] = np.nan
  margin = mjm.geom_margin[0] + mjm.geom_margin[1]
  if mjm.geom_type[0] == mujoco.mjtGeom.mjGEOM_HFIELD:
    n = hfield.collide_hfield(ms, ds, 0, 1, margin, con)
  else:
    n = convex.collide_convex(ms, ds, 0, 1, margin, con)
  ours = con[:n].copy()
  ref = np.array([np.r_[c.dist, c.pos, c.frame] for c in mjd.contact]).reshape(-1, 13)
  assert all(tuple(c.geom) == (0, 1) for c in mjd.contact)
  return ours, ref


def _deviations(ours, ref):
  """Per-contact max deviation of dist, pos and normal after matching by position."""
  free = list(range(len(ours)))
  devs = []
  for r in ref:
    i = min(free, key=lambda k: np.linalg.norm(ours[k, 1:4] - r[1:4]))
    free.remove(i)
    o = ours[i]
    devs.append(max(abs(o[0] - r[0]), np.abs(o[1:7] - r[1:7]).max()))
  return np.array(devs)


def _check(ours, ref, tol=1e-6):
  """Exact count, values within tol, tangent rows left zero."""
  assert len(ours) == len(ref)
  assert np.all(ours[:, 7:] == 0)
  if len(ref):
    assert _deviations(ours, ref).max() <= tol


def _random_pose(rng, a):
  q = rng.normal(size=4)
  q /= np.linalg.norm(q)
  if a == "plane":
    pos = np.r_[rng.uniform(-0.1, 0.1, 2), rng.uniform(0, 0.12)]
  else:
    pos = rng.uniform(-0.08, 0.08, 3)
  return np.r_[pos, q]


@pytest.mark.parametrize("a,b", CONVEX_PAIRS)
def test_random_poses(a, b):
  """Penetrating and separated random poses of every routed pair match MuJoCo exactly."""
  rng = np.random.default_rng(_seed(a, b))
  xml = _xml(a, b)
  ncontact = 0
  for _ in range(6):
    ours, ref = _collide(xml, _random_pose(rng, a))
    _check(ours, ref)
    ncontact += len(ref)
  assert ncontact > 0


FLAT = ("box", "cube", "tet", "cylinder", "ico", "rock")


@pytest.mark.parametrize("a,b", CONVEX_PAIRS)
def test_margin(a, b):
  """With a margin: random poses (contacts within the margin, and overlaps)."""
  rng = np.random.default_rng(_seed(a, b, "margin"))
  xml = _xml(a, b, margin=0.01)
  for _ in range(5):
    ours, ref = _collide(xml, _random_pose(rng, a))
    if a in FLAT and b in FLAT and len(ref) > 1:
      # manifolds of boxes/meshes/cylinders with a margin in random poses: the depths may
      # differ by up to half the pair margin (0.02 here), measured 0.01005 (module docstring)
      assert 1 <= len(ours) <= 4
      assert abs(ours[:, 0].min() - ref[:, 0].min()) <= 0.5 * 0.02 + 1e-4
    else:
      _check(ours, ref)


@pytest.mark.parametrize(
  "a,b", [("box", "cube"), ("cube", "cube"), ("cylinder", "box"), ("cylinder", "cylinder")]
)
def test_margin_near_contact(a, b):
  """Faces within the margin of each other (bare shapes apart): the manifold matches."""
  rng = np.random.default_rng(_seed(a, b, "near"))
  xml = _xml(a, b, margin=0.01)
  for _ in range(4):
    qpos = _resting_pose(rng, a, b, 0.0)
    qpos[2] += 0.005
    ours, ref = _collide(xml, qpos)
    assert len(ref) >= 1
    _check(ours, ref)


# resting poses: top of geom 0 and bottom of geom 1 (aligned) above their centers
_TOP = {"plane": 0.0, "box": 0.05, "cylinder": 0.07, "cube": 0.05, "tet": 0.0}
_BOTTOM = {"box": 0.05, "cube": 0.05, "cylinder": 0.07, "tet": 0.0}


def _resting_pose(rng, a, b, tilt):
  q = np.r_[1.0, 0.5 * rng.normal(size=3) * tilt]
  q /= np.linalg.norm(q)
  z = _TOP[a] + _BOTTOM[b] - rng.uniform(0.0005, 0.004)
  return np.r_[rng.uniform(-0.01, 0.01, 2), z, q]


@pytest.mark.parametrize(
  "a,b",
  [
    ("plane", "cube"),
    ("plane", "tet"),
    ("box", "cube"),
    ("cube", "cube"),
    ("cylinder", "cylinder"),
    ("cylinder", "box"),
    ("box", "tet"),
    ("tet", "cube"),
  ],
)
def test_resting_aligned(a, b):
  """Flat faces resting on each other: the full manifold (up to 4 points) matches."""
  rng = np.random.default_rng(7)
  xml = _xml(a, b)
  for _ in range(3):
    ours, ref = _collide(xml, _resting_pose(rng, a, b, 0.0))
    assert len(ref) >= 3
    if (a, b) == ("box", "tet"):
      # the tet's bottom face is clipped to 5+ points: quad choice, see module docstring
      assert len(ours) == len(ref)
      assert np.abs(ours[:, 4:7] - ref[:1, 4:7]).max() < 1e-6
    else:
      _check(ours, ref)


@pytest.mark.parametrize(
  "a,b", [("plane", "cube"), ("plane", "tet"), ("cylinder", "cylinder"), ("cylinder", "box")]
)
def test_resting_tilted(a, b):
  """Slightly tilted resting faces (per-point depths along the face normal) match."""
  rng = np.random.default_rng(11)
  xml = _xml(a, b)
  for _ in range(4):
    ours, ref = _collide(xml, _resting_pose(rng, a, b, 0.02))
    _check(ours, ref)


@pytest.mark.parametrize(
  "a,b",
  [("box", "cube"), ("cube", "cube"), ("cylinder", "cube"), ("box", "tet"), ("cylinder", "tet")],
)
def test_resting_tilted_mesh_quad(a, b):
  """Mesh faces clipped to more than 4 points: same count and normals, but the chosen quad may
  differ (MuJoCo's hull polygon order is not in our model); every point is an overlap point
  with a depth within the range the tilt allows (measured: up to 0.11 apart in position)."""
  rng = np.random.default_rng(13)
  xml = _xml(a, b)
  for _ in range(4):
    ours, ref = _collide(xml, _resting_pose(rng, a, b, 0.02))
    assert len(ours) == len(ref) >= 1
    assert np.abs(ours[:, 4:7] - ref[:1, 4:7]).max() < 1e-6
    assert np.all(ours[:, 0] < 0)
    assert ours[:, 0].min() > ref[:, 0].min() - 0.005


def test_disable_multiccd():
  """mjDSBL_MULTICCD: a single contact for a box resting on a mesh."""
  xml = _xml("box", "cube", option='<flag multiccd="disable"/>')
  ours, ref = _collide(xml, _resting_pose(np.random.default_rng(3), "box", "cube", 0.0))
  assert len(ref) == 1
  _check(ours, ref)


def test_plane_ellipsoid_and_separation():
  """Plane-ellipsoid gives one contact within the margin and none beyond it."""
  xml = _xml("plane", "ellipsoid", margin=0.005)
  q = np.r_[0.3, 0.2, 0.1, 0.9]
  q /= np.linalg.norm(q)
  for z, count in ((0.03, 1), (0.2, 0)):
    ours, ref = _collide(xml, np.r_[0.02, -0.01, z, q])
    assert len(ref) == count
    _check(ours, ref)


@pytest.mark.parametrize("b", ["sphere", "capsule", "ellipsoid", "cylinder", "box", "cube"])
@pytest.mark.parametrize("margin", [0.0, 0.01])
def test_hfield(b, margin):
  """Height field (tilted, 5x6 grid) against every convex geom type, one contact per prism."""
  rng = np.random.default_rng(_seed(b, margin))
  xml = _hfield_xml(b, margin)
  ncontact = 0
  for _ in range(5):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    pos = np.r_[rng.uniform(-0.35, 0.35, 2), rng.uniform(0.0, 0.2)]
    ours, ref = _collide(xml, np.r_[pos, q])
    _check(ours, ref, tol=5e-5 if b in ("box", "cube") else 1e-6)
    ncontact += len(ref)
  assert ncontact > 0


def test_hfield_outside():
  """A geom beside the height field's box or far above it has no contact."""
  xml = _hfield_xml("box")
  for pos in ((1.0, 0.0, 0.1), (0.0, 0.0, 0.6)):
    ours, ref = _collide(xml, np.r_[pos, 1.0, 0.0, 0.0, 0.0])
    assert len(ref) == 0
    _check(ours, ref)
