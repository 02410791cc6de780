"""Narrowphase pair functions (engine/collision/primitives.py, box.py) against mujoco, and the
narrowphase dispatch (engine/collision/narrowphase.py).

Each pair is a two-geom model: geom 1 on a mocap body, geom 2 on a free body, so every pose is
set through mocap_pos/quat and qpos. For each pose MuJoCo's contacts (mj_forward) are compared
with our pair function called with the margin MuJoCo's driver uses (the sum of the geom margins):
exact count, and distance, position and completed frame to 1e-6 after matching by position.

Poses: geom 2 straight above geom 1 at the height where their extents along z touch, then
shifted by a depth (penetrating, resting, within the margin, beyond it), for several
orientations and lateral offsets; then seeded random poses.
"""

import mujoco
import numpy as np
import pytest

import engine
from engine.collision import box
from engine.collision import convex
from engine.collision import narrowphase
from engine.collision import primitives
from tests import jitted
from tests import oracle

box = jitted.module(box)
convex = jitted.module(convex)
narrowphase = jitted.module(narrowphase)
primitives = jitted.module(primitives)

TOL = 1e-6

# capsule-box divides by zero axis components as MuJoCo does (inf, harmless); numpy warns about
# it when the kernels run as plain Python (NUMBA_DISABLE_JIT=1)
pytestmark = pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")

# geom sizes per type
SIZE = {
  "plane": "0 0 .1",
  "sphere": ".1",
  "capsule": ".07 .2",
  "ellipsoid": ".1 .16 .06",
  "cylinder": ".1 .15",
  "box": ".2 .15 .1",
}
SIZE2 = {"sphere": ".08", "capsule": ".05 .12", "box": ".12 .1 .08"}

PAIRS = {
  ("plane", "sphere"): primitives.collide_plane_sphere,
  ("plane", "capsule"): primitives.collide_plane_capsule,
  ("plane", "cylinder"): primitives.collide_plane_cylinder,
  ("plane", "box"): primitives.collide_plane_box,
  ("sphere", "sphere"): primitives.collide_sphere_sphere,
  ("sphere", "capsule"): primitives.collide_sphere_capsule,
  ("sphere", "cylinder"): primitives.collide_sphere_cylinder,
  ("sphere", "box"): box.collide_sphere_box,
  ("capsule", "capsule"): primitives.collide_capsule_capsule,
  ("capsule", "box"): box.collide_capsule_box,
  ("box", "box"): box.collide_box_box,
}


def _quat(axis, deg):
  axis = np.asarray(axis, float)
  axis = axis / np.linalg.norm(axis)
  half = np.radians(deg) / 2
  return np.r_[np.cos(half), np.sin(half) * axis]


def _mul(q1, q2):
  res = np.zeros(4)
  mujoco.mju_mulQuat(res, q1, q2)
  return res


# orientations: identity, axis horizontal, tilted, 45 degrees about z, edge/corner up
QUATS = [
  np.array([1.0, 0, 0, 0]),
  _quat([1, 0, 0], 90),
  _quat([0, 1, 0], 30),
  _quat([0, 0, 1], 45),
  _quat([1, 0, 0], 45),
  _mul(_quat([1, 0, 0], 35.26), _quat([0, 1, 0], 45)),
  _mul(_quat([0, 0, 1], 20), _quat([0, 1, 0], 80)),
]

# depths: penetrating, resting, within the margin (0.05), beyond it
DEPTHS = [-0.03, -0.001, 0.02, 0.08]


def _model(t1, t2, margin1, margin2):
  size2 = SIZE2[t2] if t1 == t2 else SIZE[t2]
  xml = f"""
  <mujoco>
    <worldbody>
      <body mocap="true">
        <geom type="{t1}" size="{SIZE[t1]}" margin="{margin1}"/>
      </body>
      <body>
        <freejoint/>
        <geom type="{t2}" size="{size2}" margin="{margin2}"/>
      </body>
    </worldbody>
  </mujoco>"""
  return oracle.load(xml)


def _extent(mjm, mjd, g):
  """Half extent of geom g along world z (0 for a plane: its surface is through its center)."""
  t = mjm.geom_type[g]
  size = mjm.geom_size[g]
  z = mjd.geom_xmat[g].reshape(3, 3)[2]
  if t == mujoco.mjtGeom.mjGEOM_PLANE:
    return 0.0
  if t == mujoco.mjtGeom.mjGEOM_SPHERE:
    return size[0]
  if t == mujoco.mjtGeom.mjGEOM_CAPSULE:
    return size[0] + size[1] * abs(z[2])
  if t == mujoco.mjtGeom.mjGEOM_ELLIPSOID:
    return np.sqrt(np.sum((size * z) ** 2))
  if t == mujoco.mjtGeom.mjGEOM_CYLINDER:
    return size[0] * np.sqrt(max(0.0, 1 - z[2] ** 2)) + size[1] * abs(z[2])
  return np.sum(size * np.abs(z))


def _pose(mjm, mjd, pos1, quat1, pos2, quat2):
  mjd.mocap_pos[0] = pos1
  mjd.mocap_quat[0] = quat1 / np.linalg.norm(quat1)
  mjd.qpos[:3] = pos2
  mjd.qpos[3:7] = quat2 / np.linalg.norm(quat2)
  mujoco.mj_kinematics(mjm, mjd)


def _compare(mjm, mjd, m, d, fn):
  """Runs MuJoCo and our pair function at the current pose; returns MuJoCo's contact count."""
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_kinematics(m, d)
  margin = mjm.geom_margin[0] + mjm.geom_margin[1]
  con = np.full((50, 13), np.nan)
  n = fn(m._struct, d._struct, 0, 1, margin, con)
  assert n == mjd.ncon, (n, mjd.ncon)

  # raw rows: third frame row zero; then complete the frames
  assert np.all(con[:n, 10:13] == 0)
  for i in range(n):
    primitives.complete_frame(con, i)

  # match by position, then compare
  used = np.zeros(n, bool)
  for k in range(mjd.ncon):
    c = mjd.contact[k]
    err = np.linalg.norm(con[:n, 1:4] - c.pos, axis=1) + used * 1e9
    i = int(np.argmin(err))
    used[i] = True
    np.testing.assert_allclose(con[i, 0], c.dist, atol=TOL)
    np.testing.assert_allclose(con[i, 1:4], c.pos, atol=TOL)
    np.testing.assert_allclose(con[i, 4:13], c.frame, atol=TOL)
  return mjd.ncon


@pytest.mark.parametrize("pair", list(PAIRS), ids=lambda p: f"{p[0]}-{p[1]}")
def test_pair_stacked(pair):
  """Geom 2 above geom 1 at touching extents plus a depth, over orientations and offsets."""
  fn = PAIRS[pair]
  mjm, mjd, m, d = _model(pair[0], pair[1], 0.03, 0.02)
  quats1 = [QUATS[0]] if pair[0] == "plane" else QUATS[:4]
  ntouch = 0
  nconfig = 0
  for quat1 in quats1:
    for quat2 in QUATS:
      for offset in ([0.0, 0.0], [0.06, -0.03]):
        for depth in DEPTHS:
          _pose(mjm, mjd, [0, 0, 0], quat1, [0, 0, 10], quat2)
          height = _extent(mjm, mjd, 0) + _extent(mjm, mjd, 1) + depth
          _pose(mjm, mjd, [0, 0, 0], quat1, [offset[0], offset[1], height], quat2)
          n = _compare(mjm, mjd, m, d, fn)
          if depth > 0.05:
            assert n == 0  # all of geom 2 is above geom 1 by more than the margin
          else:
            ntouch += n > 0
            nconfig += 1
  assert ntouch > nconfig // 3


@pytest.mark.parametrize("pair", list(PAIRS), ids=lambda p: f"{p[0]}-{p[1]}")
@pytest.mark.parametrize("margins", [(0.0, 0.0), (0.03, 0.02)])
def test_pair_random(pair, margins):
  """Seeded random poses (half with the two geoms' axes aligned)."""
  fn = PAIRS[pair]
  mjm, mjd, m, d = _model(pair[0], pair[1], *margins)
  rng = np.random.default_rng(list(PAIRS).index(pair))
  reach = 0.6 * (mjm.geom_rbound[0] + mjm.geom_rbound[1]) if pair[0] != "plane" else 0.25
  hits = 0
  for k in range(40):
    quat1 = rng.normal(size=4)
    quat2 = rng.normal(size=4)
    if k % 2:
      quat2 = quat1.copy()
      if k % 4 == 1:
        quat2 = _mul(quat1, QUATS[1 + (k // 4) % 5])
    pos2 = rng.uniform(-reach, reach, 3)
    _pose(mjm, mjd, rng.uniform(-0.05, 0.05, 3), quat1, pos2, quat2)
    hits += _compare(mjm, mjd, m, d, fn) > 0
  assert hits >= 5


def _compare_pose(
  t1, t2, quat1, quat2, depth=None, pos2=(0, 0, 0), size1=None, size2=None, margin=0.0
):
  """Compares one pose; with `depth`, geom 2 is at pos2's (x, y) and at the height where the
  z extents overlap by -depth."""
  xml = f"""
  <mujoco>
    <worldbody>
      <body mocap="true"><geom type="{t1}" size="{size1 or SIZE[t1]}" margin="{margin}"/></body>
      <body><freejoint/><geom type="{t2}" size="{size2 or SIZE[t2]}"/></body>
    </worldbody>
  </mujoco>"""
  mjm, mjd, m, d = oracle.load(xml)
  quat1 = np.asarray(quat1, float)
  quat2 = np.asarray(quat2, float)
  pos2 = np.r_[np.asarray(pos2, float), np.zeros(3 - len(pos2))]
  if depth is not None:
    _pose(mjm, mjd, [0, 0, 0], quat1, [0, 0, 10], quat2)
    pos2[2] = _extent(mjm, mjd, 0) + _extent(mjm, mjd, 1) + depth
  _pose(mjm, mjd, [0, 0, 0], quat1, pos2, quat2)
  return _compare(mjm, mjd, m, d, PAIRS[(t1, t2)])


ID = np.array([1.0, 0, 0, 0])


def test_box_box_manifolds():
  """Face-face (4 and 8 contacts), clipped, edge-face, edge-edge and corner cases."""
  cube = ".2 .2 .1"
  small = ".1 .1 .1"

  # equal faces stacked: 4 corners; one turned 45 degrees: the octagon, 8 contacts
  assert _compare_pose("box", "box", ID, ID, -0.001, size1=cube, size2=cube) == 4
  assert _compare_pose("box", "box", ID, _quat([0, 0, 1], 45), -0.001, size1=cube, size2=cube) == 8
  assert (
    _compare_pose(
      "box", "box", ID, _quat([0, 0, 1], 30), -0.002, (0.05, 0.03), cube, ".15 .1 .1", margin=0.02
    )
    > 4
  )

  # a small box partly over the edge of a big one: clipped polygon
  assert (
    _compare_pose("box", "box", ID, _quat([0, 0, 1], 10), -0.002, (0.25, 0.1), cube, small) == 4
  )

  # an edge of box 2 on the face of box 1: its two ends
  assert _compare_pose("box", "box", ID, _quat([1, 0, 0], 45), -0.002, (0.02, 0), cube, small) == 2

  # crossed edges: box 1 edge-up along x, box 2 edge-down along y
  assert (
    _compare_pose(
      "box",
      "box",
      _quat([1, 0, 0], 45),
      _quat([0, 1, 0], 45),
      -0.003,
      (0.01, 0.02),
      ".2 .1 .1",
      ".1 .2 .1",
    )
    == 1
  )

  # a corner of box 2 into the face of box 1
  corner = _mul(_quat([1, 0, 0], 35.26), _quat([0, 1, 0], 45))
  assert _compare_pose("box", "box", ID, corner, -0.004, size1=cube, size2=small) == 1

  # nearly aligned faces: face axes win the tie against edge axes
  assert _compare_pose("box", "box", ID, _quat([1, 1, 0], 1e-5), -0.001, (0.01, 0), cube, cube) == 4


def test_capsule_capsule_parallel():
  """Parallel and nearly parallel capsules: two contacts at the ends of the overlap."""
  lying = _quat([0, 1, 0], 90)
  assert _compare_pose("capsule", "capsule", lying, lying, -0.001, (0.1, 0)) == 2
  assert _compare_pose("capsule", "capsule", lying, lying, -0.001, (0.35, 0.01)) == 2
  near = _mul(_quat([0, 0, 1], 0.003), lying)
  assert _compare_pose("capsule", "capsule", lying, near, -0.001, (0.1, 0)) == 2
  # beyond the 1e-4 rad parallel tolerance: one contact
  tilted = _mul(_quat([0, 0, 1], 0.02), lying)
  assert _compare_pose("capsule", "capsule", lying, tilted, -0.001, (0.1, 0)) == 1
  # end to end on one line: the same contact twice, as in MuJoCo
  assert _compare_pose("capsule", "capsule", ID, ID, -0.01) == 2


def test_degenerate_centers():
  """Coincident or inner centers: sphere-sphere normal from the z axes, sphere inside a box,
  a cylinder or a capsule, capsules through each other."""
  q = _quat([1, 0, 0], 30)
  assert _compare_pose("sphere", "sphere", ID, q) == 1
  assert _compare_pose("sphere", "sphere", ID, ID) == 1
  assert _compare_pose("sphere", "box", ID, q, pos2=(0.01, 0.02, 0.0)) == 1
  assert _compare_pose("sphere", "cylinder", ID, q, pos2=(0.0, 0.02, 0.01)) == 1
  assert _compare_pose("sphere", "cylinder", ID, ID, pos2=(0.0, 0.02, 0.13)) == 1
  assert _compare_pose("sphere", "capsule", ID, ID, pos2=(0, 0, 0.05)) == 1
  assert _compare_pose("capsule", "capsule", ID, _quat([1, 0, 0], 90)) == 1


def test_plane_multi_contacts():
  """Flat box on a plane (4 corners), box on an edge (2), upright cylinder (a rim point and a
  triangle), lying cylinder, lying capsule."""
  assert _compare_pose("plane", "box", ID, ID, -0.001) == 4
  assert _compare_pose("plane", "box", ID, _quat([1, 0, 0], 45), -0.001) == 2
  assert _compare_pose("plane", "cylinder", ID, ID, -0.001) == 3
  assert _compare_pose("plane", "cylinder", ID, _quat([1, 0, 0], 90), -0.001) == 2
  assert _compare_pose("plane", "cylinder", ID, _quat([1, 0, 0], 10), -0.001) >= 1
  assert _compare_pose("plane", "capsule", ID, _quat([0, 1, 0], 90), -0.001) == 2
  tilted = np.array([0.98, 0.1, -0.15, 0.05])
  assert _compare_pose("plane", "box", tilted, ID, -0.001) >= 1


def test_complete_frame_rule():
  """complete_frame: the tangent row is the y hint when its norm is at least 0.5, else world y
  (world z when the normal is near y); rows orthonormal and right-handed."""
  con = np.zeros((3, 13))
  con[0, 4:7] = [0.0, 0.6, 0.8]
  con[0, 7:10] = [2.0, 0.0, 0.0]  # hint used
  con[1, 4:7] = [0.0, 0.0, 2.0]  # no hint: world y
  con[2, 4:7] = [0.0, 0.8, 0.6]
  con[2, 7:10] = [0.4, 0.0, 0.0]  # hint too short: world z, as the normal is near y
  for i in range(3):
    primitives.complete_frame(con, i)
  for i in range(3):
    f = con[i, 4:13].reshape(3, 3)
    np.testing.assert_allclose(f @ f.T, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(np.cross(f[0], f[1]), f[2], atol=1e-12)
  np.testing.assert_allclose(con[0, 7:10], [1, 0, 0], atol=1e-12)
  np.testing.assert_allclose(con[1, 4:13], [0, 0, 1, 0, 1, 0, -1, 0, 0], atol=1e-12)
  np.testing.assert_allclose(con[2, 7:10], [0, -0.6, 0.8], atol=1e-12)


def test_narrowphase_dispatch():
  """collide_geoms calls the dedicated function of each pair (same output), the convex routine
  for the other convex pairs, and returns 0 where MuJoCo has no collision function."""
  rng = np.random.default_rng(5)
  pairs = dict(PAIRS)
  pairs[("plane", "ellipsoid")] = convex.collide_convex
  pairs[("sphere", "ellipsoid")] = convex.collide_convex
  pairs[("capsule", "cylinder")] = convex.collide_convex
  pairs[("ellipsoid", "box")] = convex.collide_convex
  for (t1, t2), fn in pairs.items():
    mjm, mjd, m, d = _model(t1, t2, 0.03, 0.02)
    for _ in range(6):
      _pose(
        mjm,
        mjd,
        rng.uniform(-0.02, 0.02, 3),
        rng.normal(size=4),
        rng.uniform(-0.15, 0.15, 3) + [0, 0, 0.1],
        rng.normal(size=4),
      )
      oracle.copy_state(mjd, d)
      engine.mj_kinematics(m, d)
      want = np.full((50, 13), np.nan)
      got = np.full((50, 13), np.nan)
      n = fn(m._struct, d._struct, 0, 1, 0.05, want)
      assert narrowphase.collide_geoms(m._struct, d._struct, 0, 1, 0.05, got) == n
      np.testing.assert_array_equal(got[:n], want[:n])

  # no collision function: plane-plane, plane-hfield, hfield-hfield
  xml = """
  <mujoco>
    <asset><hfield name="h" nrow="3" ncol="3" size="1 1 .2 .1"/></asset>
    <worldbody>
      <geom type="plane" size="1 1 .1"/>
      <geom type="plane" size="1 1 .1" pos="0 0 .01"/>
      <geom type="hfield" hfield="h"/>
      <geom type="hfield" hfield="h" pos="0 0 .01"/>
    </worldbody>
  </mujoco>"""
  mjm, mjd, m, d = oracle.load(xml)
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_kinematics(m, d)
  con = np.zeros((50, 13))
  for g1, g2 in ((0, 1), (0, 2), (2, 3)):
    assert narrowphase.collide_geoms(m._struct, d._struct, g1, g2, 0.1, con) == 0


@pytest.mark.parametrize("axis", ["0 -1 0", "0 1 0"])
def test_capsule_parallel_to_the_near_edge_of_a_long_box(axis):
  """A capsule just outside a long box's edge and parallel to it: that edge is skipped as
  parallel and both capsule ends lie beyond two faces, so the contact comes from a farther
  edge; MuJoCo 3.17 bounds those by the square of its initial distance (2 or 1 contacts)."""
  xml = f"""<mujoco><worldbody><geom type="box" size="3 5 .16" pos="3 0 -.16"/>
    <body pos="-0.00106 0.73 0.0345" zaxis="{axis}"><freejoint/>
    <geom type="capsule" size=".114 .0289"/></body></worldbody></mujoco>"""
  mjm, mjd, m, d = oracle.load(xml)
  mujoco.mj_forward(mjm, mjd)
  engine.mj_forward(m, d)
  assert d.ncon == mjd.ncon > 0
  np.testing.assert_allclose(d.contact.dist, mjd.contact.dist, rtol=1e-12)
  np.testing.assert_allclose(d.contact.pos, mjd.contact.pos, atol=1e-12)
  np.testing.assert_allclose(d.contact.frame, mjd.contact.frame, atol=1e-12)
