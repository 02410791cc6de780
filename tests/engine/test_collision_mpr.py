"""libccd's MPR path (mjDSBL_NATIVECCD: engine/collision/mpr.py and the libccd branches of
convex.py and hfield.py) against mujoco 3.17.

Each pair test builds a two-geom model (geom 0 fixed, geom 1 on a free body), poses it, runs
mujoco.mj_forward, gives our data MuJoCo's geom poses and runs our narrowphase on the pair;
contacts are compared in order (MuJoCo's perturbed contacts come in a fixed order): count,
dist, pos and normal to 1e-12. Flags: nativeccd disabled with multiccd on (perturbation
contacts) and off (one contact per pair).

Measured (2026-11-29): every comparison here is bit-exact (TOL = 0 passes), as were 5280 more
random poses of the pairs below and 1440 height field poses with margins up to 0.03.
"""

import mujoco
import numpy as np
import pytest

import engine
from tests import oracle
from tests.engine import test_collision_convex as convex_test

TOL = 1e-12

# meshes with explicit faces: tetrahedron and octahedron (exhaustive support search) and a
# hexagonal prism of 12 vertices (hull-graph hill-climbing)
TET = ("0 0 0  1 0 0  0 1 0  0 0 1", "0 2 1  0 1 3  0 3 2  1 2 3")
OCT = (
  "1 0 0  -1 0 0  0 1 0  0 -1 0  0 0 1  0 0 -1",
  "0 2 4  2 1 4  1 3 4  3 0 4  2 0 5  1 2 5  3 1 5  0 3 5",
)
_ANG = np.arange(6) * np.pi / 3
PRISM = (
  " ".join(f"{np.cos(a):.6f} {np.sin(a):.6f} {z:g}" for z in (-1, 1) for a in _ANG),
  " ".join(
    [f"{i} {j} {j + 6}  {i} {j + 6} {i + 6}" for i, j in ((k, (k + 1) % 6) for k in range(6))]
    + ["0 2 1  0 3 2  0 4 3  0 5 4", "6 7 8  6 8 9  6 9 10  6 10 11"]
  ),
)

GEOMS = {
  "sphere": 'type="sphere" size=".1"',
  "capsule": 'type="capsule" size=".06 .1"',
  "ellipsoid": 'type="ellipsoid" size=".12 .08 .06"',
  "cylinder": 'type="cylinder" size=".08 .07"',
  "box": 'type="box" size=".1 .07 .05"',
  "tet": 'type="mesh" mesh="tet"',
  "oct": 'type="mesh" mesh="oct"',
  "prism": 'type="mesh" mesh="prism"',
}

# every pair MuJoCo 3.17 sends to mjc_Convex, with each mesh support search
PAIRS = [
  ("sphere", "ellipsoid"),
  ("sphere", "oct"),
  ("sphere", "prism"),
  ("capsule", "ellipsoid"),
  ("capsule", "cylinder"),
  ("capsule", "tet"),
  ("capsule", "prism"),
  ("ellipsoid", "ellipsoid"),
  ("ellipsoid", "cylinder"),
  ("ellipsoid", "box"),
  ("ellipsoid", "oct"),
  ("ellipsoid", "prism"),
  ("cylinder", "cylinder"),
  ("cylinder", "box"),
  ("cylinder", "oct"),
  ("cylinder", "prism"),
  ("box", "tet"),
  ("box", "prism"),
  ("tet", "oct"),
  ("oct", "prism"),
  ("prism", "prism"),
  ("tet", "tet"),
]

FLAGS = {
  "multiccd": '<flag nativeccd="disable"/>',
  "single": '<flag nativeccd="disable" multiccd="disable"/>',
}

_ASSETS = f"""<asset>
    <mesh name="tet" vertex="{TET[0]}" face="{TET[1]}" scale=".15 .12 .14"/>
    <mesh name="oct" vertex="{OCT[0]}" face="{OCT[1]}" scale=".09 .07 .08"/>
    <mesh name="prism" vertex="{PRISM[0]}" face="{PRISM[1]}" scale=".08 .08 .05"/>
    <hfield name="h" nrow="5" ncol="6" size=".4 .3 .1 .05" elevation="{{elev}}"/>
  </asset>"""
_ELEV = " ".join(f"{v:.3f}" for v in np.random.default_rng(21).uniform(0, 1, 30))


def _xml(a, b, flags, margin=0.0, option=""):
  first = (
    'type="hfield" hfield="h" pos=".01 -.02 .03" euler="5 -3 20"' if a == "hfield" else GEOMS[a]
  )
  return f"""<mujoco><option {option}>{flags}</option>
  {_ASSETS.format(elev=_ELEV)}
  <worldbody><geom {first} margin="{margin}"/>
    <body pos="0 0 .2"><freejoint/><geom {GEOMS[b]} margin="{margin}"/></body>
  </worldbody></mujoco>"""


def _collide(xml, qpos):
  """(our contacts, mujoco's contacts) at MuJoCo's geom poses; our normals normalized once
  more, as the driver's mju_makeFrame does (mju_normalize3)."""
  ours, ref = convex_test._collide(xml, qpos, mujoco_poses=True)
  for row in ours:
    row[4:7] *= 1 / np.sqrt(row[4] * row[4] + row[5] * row[5] + row[6] * row[6])
  return ours, ref


def _check(ours, ref, tol=TOL):
  """Same count; dist, pos and normal in order within tol; tangent rows left zero."""
  assert len(ours) == len(ref), (ours, ref)
  assert np.all(ours[:, 7:] == 0)
  if len(ref):
    dev = np.abs(ours[:, :7] - ref[:, :7]).max()
    assert dev <= tol, (dev, ours[:, :7], ref[:, :7])


def _random_pose(rng, spread=0.08):
  q = rng.normal(size=4)
  q /= np.linalg.norm(q)
  return np.r_[rng.uniform(-spread, spread, 3), q]


def test_meshes_take_both_support_searches():
  """The tetrahedron and octahedron are searched vertex by vertex, the prism hill-climbed."""
  mjm = mujoco.MjModel.from_xml_string(_xml("tet", "prism", ""))
  assert list(mjm.mesh_vertnum) == [4, 6, 12]
  assert mjm.mesh_graphadr[2] >= 0


@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize("a,b", PAIRS)
def test_random_poses(a, b, flags):
  """Overlapping and separated random poses of every mjc_Convex pair match MuJoCo."""
  rng = np.random.default_rng(convex_test._seed(a, b, flags))
  xml = _xml(a, b, FLAGS[flags])
  ncontact = 0
  for _ in range(8):
    ours, ref = _collide(xml, _random_pose(rng))
    _check(ours, ref)
    ncontact += len(ref)
  assert ncontact > 0


@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize("a,b", PAIRS)
def test_margin(a, b, flags):
  """With a margin (half of it inflates each geom in mjccd_support): random poses."""
  rng = np.random.default_rng(convex_test._seed(a, b, flags, "margin"))
  xml = _xml(a, b, FLAGS[flags], margin=0.01)
  for _ in range(5):
    ours, ref = _collide(xml, _random_pose(rng))
    _check(ours, ref)


@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize(
  "a,b",
  [
    ("sphere", "ellipsoid"),
    ("sphere", "prism"),
    ("ellipsoid", "ellipsoid"),
    ("ellipsoid", "box"),
    ("cylinder", "cylinder"),
    ("cylinder", "box"),
    ("cylinder", "prism"),
    ("box", "tet"),
    ("box", "prism"),
  ],
)
def test_aligned_poses(a, b, flags):
  """Axis-aligned poses: centers on a common axis (the origin on the portal's first segment),
  coincident centers (the center moved off the origin) and flat faces resting on each other
  (perturbation contacts)."""
  xml = _xml(a, b, FLAGS[flags])
  for pos in ((0, 0, 0.1), (0, 0.05, 0), (0.02, 0, 0), (0, 0, 0), (0.01, 0.02, 0.11)):
    ours, ref = _collide(xml, np.r_[pos, 1, 0, 0, 0])
    _check(ours, ref)


# resting poses: top of geom 0 and bottom of geom 1 (aligned) above their centers
_TOP = {"cylinder": 0.07, "box": 0.05, "prism": 0.05}
_BOTTOM = {"cylinder": 0.07, "box": 0.05, "prism": 0.05, "tet": 0.0}


@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize(
  "a,b",
  [
    ("cylinder", "cylinder"),
    ("cylinder", "box"),
    ("cylinder", "prism"),
    ("box", "prism"),
    ("box", "tet"),
    ("prism", "prism"),
    ("prism", "tet"),
  ],
)
@pytest.mark.parametrize("tilt", [0.0, 0.02])
def test_resting(a, b, flags, tilt):
  """Flat faces resting on each other, aligned or slightly tilted: aligned, the perturbation
  finds 4 more contacts (multiccd); tilted, often none."""
  rng = np.random.default_rng(convex_test._seed(a, b, flags, tilt))
  xml = _xml(a, b, FLAGS[flags])
  nmax = 0
  for _ in range(4):
    q = np.r_[1.0, 0.5 * rng.normal(size=3) * tilt]
    q /= np.linalg.norm(q)
    z = _TOP[a] + _BOTTOM[b] - rng.uniform(0.0005, 0.004)
    ours, ref = _collide(xml, np.r_[rng.uniform(-0.01, 0.01, 2), z, q])
    _check(ours, ref)
    nmax = max(nmax, len(ref))
  assert nmax == 1 if flags == "single" else nmax >= (1 if tilt else 5)


@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize(
  "b", ["sphere", "capsule", "ellipsoid", "cylinder", "box", "tet", "oct", "prism"]
)
@pytest.mark.parametrize("margin", [0.0, 0.01])
def test_hfield(b, margin, flags):
  """Height field (tilted, 5x6 grid) against every convex geom type: one MPR contact per
  prism, normals fixed for spheres, capsules, ellipsoids and cylinders."""
  rng = np.random.default_rng(convex_test._seed(b, margin, flags))
  xml = _xml("hfield", b, FLAGS[flags], margin=margin)
  ncontact = 0
  for _ in range(5):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    pos = np.r_[rng.uniform(-0.35, 0.35, 2), rng.uniform(0.0, 0.15)]
    ours, ref = _collide(xml, np.r_[pos, q])
    _check(ours, ref)
    ncontact += len(ref)
  assert ncontact > 0


@pytest.mark.parametrize("b", ['type="cylinder" size=".35 .05"', 'type="box" size=".3 .3 .05"'])
def test_hfield_contact_limit(b):
  """A large geom on a fine height field: mjMAXCONPAIR contacts, normals fixed for all."""
  elev = " ".join(f"{v:.3f}" for v in np.random.default_rng(2).uniform(0, 1, 144))
  xml = f"""<mujoco><option>{FLAGS["multiccd"]}</option>
  <asset><hfield name="h" nrow="12" ncol="12" size=".4 .4 .05 .05" elevation="{elev}"/></asset>
  <worldbody><geom type="hfield" hfield="h"/>
    <body pos="0 0 .2"><freejoint/><geom {b}/></body>
  </worldbody></mujoco>"""
  ours, ref = _collide(xml, np.r_[0.01, -0.02, 0.08, 1, 0.01, -0.02, 0])
  assert len(ref) == 50
  _check(ours, ref)


@pytest.mark.parametrize(
  "a,b",
  [("ellipsoid", "ellipsoid"), ("cylinder", "prism"), ("capsule", "cylinder"), ("box", "tet")],
)
def test_ccd_iterations_and_tolerance(a, b):
  """opt.ccd_iterations and opt.ccd_tolerance limit the portal expansion as in MuJoCo: coarse
  settings change MuJoCo's contacts, and ours change the same way."""
  rng = np.random.default_rng(convex_test._seed(a, b, "opt"))
  changed = 0
  for _ in range(6):
    qpos = _random_pose(rng, 0.04)
    results = []
    for option in (
      "",
      'ccd_iterations="1"',
      'ccd_tolerance="1e-2"',
      'ccd_iterations="3" ccd_tolerance="1e-3"',
    ):
      ours, ref = _collide(_xml(a, b, FLAGS["multiccd"], option=option), qpos)
      _check(ours, ref)
      results.append(ref)
    changed += any(
      len(r) != len(results[0]) or not np.array_equal(r, results[0]) for r in results[1:]
    )
  assert changed > 0


# ---- a toy-brick scene: boxes with cylinder studs, stacked ----


def _brick(name, pos, euler):
  studs = "\n".join(
    f'<geom type="cylinder" size=".012 .006" pos="{x} {y} .026" rgba=".8 .2 .2 1"/>'
    for x in (-0.025, 0.025)
    for y in (-0.025, 0.025)
  )
  return f"""<body name="{name}" pos="{pos}" euler="{euler}"><freejoint/>
      <geom type="box" size=".05 .05 .02" rgba=".8 .2 .2 1"/>
      {studs}
    </body>"""


def _bricks_xml(flags):
  bodies = "\n".join(
    _brick(f"b{i}", f"{0.006 * i} {-0.004 * i} {0.0205 + 0.0515 * i}", f"0 0 {7 * i}")
    for i in range(3)
  )
  return f"""<mujoco><option timestep=".002">{flags}</option>
  <worldbody><geom type="plane" size="1 1 .1"/>
    {bodies}
  </worldbody></mujoco>"""


FIELDS = ("dist", "pos", "frame", "includemargin", "friction", "solref", "solimp", "dim", "geom")


@pytest.mark.parametrize("flags", FLAGS)
def test_toy_bricks(flags):
  """Bricks settling on each other (studs against the brick above: cylinder-box through
  mjc_Convex): mj_forward finds MuJoCo's contacts, in MuJoCo's order."""
  mjm, mjd, m, d = oracle.load(_bricks_xml(FLAGS[flags]))
  for nstep in (0, 40, 150):
    if nstep:
      mujoco.mj_step(mjm, mjd, nstep)
    mujoco.mj_forward(mjm, mjd)
    oracle.copy_state(mjd, d)
    engine.mj_forward(m, d)
    assert d.ncon == mjd.ncon
    np.testing.assert_array_equal(d.contact.geom, mjd.contact.geom)
    for name in FIELDS:
      np.testing.assert_allclose(
        getattr(d.contact, name), getattr(mjd.contact, name), rtol=0, atol=TOL, err_msg=name
      )
  # the studs do touch the bricks above
  types = mjm.geom_type[mjd.contact.geom]
  assert (
    (types[:, 0] == mujoco.mjtGeom.mjGEOM_CYLINDER) & (types[:, 1] == mujoco.mjtGeom.mjGEOM_BOX)
  ).sum() >= 8
