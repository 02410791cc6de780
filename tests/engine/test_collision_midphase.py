"""Collision midphase (engine/collision/driver.py: collide_tree, collide_obb) and the bounding
volume hierarchies the compiler builds for it (engine/compiler/build_bvh.py), against mujoco.

The midphase changes results, not only speed: geoms whose oriented boxes are apart by rounding
(exactly touching faces) are dropped although the narrowphase reports them, and a body pair's
contacts come out sorted by geom pair. Every contact test runs with the midphase on and off
(mjDSBL_MIDPHASE) and checks that the case really distinguishes the two in MuJoCo.
"""

import mujoco
import numpy as np
import pytest

import engine
from engine.collision import driver
from tests import jitted
from tests import oracle

driver = jitted.module(driver)

_MIDPHASE = int(mujoco.mjtDisableBit.mjDSBL_MIDPHASE)
_FLAGS = pytest.mark.parametrize("flag", [0, _MIDPHASE], ids=["midphase", "no_midphase"])
_FIELDS = (
  "dist",
  "pos",
  "frame",
  "includemargin",
  "friction",
  "solref",
  "solreffriction",
  "solimp",
  "dim",
  "geom",
  "exclude",
  "adhesion",
)
_BVH_ARRAYS = (
  "body_bvhadr",
  "body_bvhnum",
  "mesh_bvhadr",
  "mesh_bvhnum",
  "bvh_depth",
  "bvh_child",
  "bvh_nodeid",
)


# ---- hierarchies ----


def _bodies_xml():
  """Bodies exercising the tree build: every primitive type posed in a rotated body, ties
  (equal positions along the split axis), flat nodes, an explicit rotated inertial frame,
  visual-only geoms (left out of the tree) and bodies without a tree."""
  row = "".join(f'<geom type="sphere" size=".05" pos="{0.1 * i} 0 0"/>' for i in range(9))
  grid = "".join(
    f'<geom type="box" size=".04 .04 .01" pos="{0.1 * i} {0.1 * j} 0"/>'
    for i in range(3)
    for j in range(4)
  )
  return f"""
<mujoco>
  <asset><hfield name="h" nrow="3" ncol="4" size=".5 .5 .1 .05"/></asset>
  <worldbody>
    <geom type="plane" size="0 0 1"/>
    <geom type="plane" size="2 3 .1" pos="0 0 -1" euler="10 20 0"/>
    <geom type="hfield" hfield="h" pos="3 0 0"/>
    <geom type="box" size=".1 .2 .3" pos="1 1 0" euler="0 0 30"/>
    <body name="primitives" pos="0 0 1" euler="20 -10 45">
      <freejoint/>
      <geom type="sphere" size=".1"/>
      <geom type="capsule" size=".05 .2" pos=".3 0 0" euler="0 90 0"/>
      <geom type="ellipsoid" size=".1 .2 .05" pos="0 .3 0" euler="30 0 0"/>
      <geom type="cylinder" size=".1 .05" pos="0 0 .3"/>
      <geom type="box" size=".1 .05 .2" pos="-.3 0 0" euler="0 45 10"/>
      <geom type="capsule" fromto="0 0 0 .2 .1 -.3" size=".02"/>
      <geom type="sphere" size=".1" pos="1 1 1" contype="0" conaffinity="0"/>
    </body>
    <body name="row" pos="2 0 1"><freejoint/>{row}</body>
    <body name="grid" pos="-2 0 1" euler="0 0 90"><freejoint/>{grid}</body>
    <body name="inertial" pos="0 2 1">
      <freejoint/>
      <inertial pos=".1 .2 .3" quat=".5 .5 -.5 .5" mass="1" diaginertia=".1 .2 .3"/>
      <geom type="box" size=".1 .2 .3"/>
      <geom type="cylinder" size=".1 .2" pos=".4 0 0" contype="2" conaffinity="0"/>
    </body>
    <body name="single" pos="0 -2 1"><freejoint/><geom type="sphere" size=".1"/></body>
    <body name="visual" pos="0 -3 1">
      <freejoint/><geom type="box" size=".1 .1 .1" contype="0" conaffinity="0"/>
    </body>
    <body name="empty" pos="0 -4 1">
      <freejoint/><inertial pos="0 0 0" mass="1" diaginertia=".1 .1 .1"/>
    </body>
  </worldbody>
</mujoco>
"""


_MESHES_XML = """
<mujoco>
  <asset>
    <mesh name="tet" vertex="0 0 0  1 0 0  0 1 0  0 0 1" face="0 2 1 0 1 3 0 3 2 1 2 3"
          scale=".1 .1 .1"/>
    <mesh name="cube" vertex="-1 -1 -1 1 -1 -1 -1 1 -1 1 1 -1 -1 -1 1 1 -1 1 -1 1 1 1 1 1"
          face="0 2 1 1 2 3 4 5 6 5 7 6 0 1 5 0 5 4 2 6 7 2 7 3 0 4 6 0 6 2 1 3 7 1 7 5"
          scale=".05 .05 .05"/>
    <mesh name="prism" vertex="0 0 0  2 0 0  0 1 0  0 0 3  2 0 3  0 1 3"
          face="0 2 1 3 4 5 0 1 4 0 4 3 0 3 5 0 5 2 1 2 5 1 5 4" scale=".1 .1 .1"/>
  </asset>
  <worldbody>
    <geom type="mesh" mesh="cube" pos="0 0 -.5"/>
    <body name="meshes" pos="0 0 1" euler="10 20 30">
      <freejoint/>
      <geom type="mesh" mesh="tet"/>
      <geom type="mesh" mesh="cube" pos=".2 .2 .2" euler="0 0 15"/>
      <geom type="mesh" mesh="prism" pos="-.3 0 0"/>
      <geom type="sphere" size=".05" pos="0 -.3 0"/>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize(
  "xml,atol", [(_bodies_xml(), 1e-12), (_MESHES_XML, 1e-10)], ids=["bodies", "meshes"]
)
def test_bvh_fields_match_mujoco(xml, atol):
  """The compiled hierarchies are MuJoCo's node for node: sizes, addresses, children, depths,
  leaf ids, boxes (mesh frames agree with MuJoCo's to ~1e-14, see engine/compiler/mesh.py)."""
  ours = engine.MjModel.from_xml_string(xml)
  theirs = mujoco.MjModel.from_xml_string(xml)
  for size in ("nbvh", "nbvhstatic", "nbvhdynamic"):
    assert getattr(ours, size) == getattr(theirs, size), size
  for name in _BVH_ARRAYS:
    np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
  np.testing.assert_allclose(ours.bvh_aabb, theirs.bvh_aabb, rtol=1e-12, atol=atol)
  assert ours.bvh_depth.max() >= 3  # trees deeper than one split


def test_bvh_layout():
  """Bodies without colliding geoms have no tree; the bodies' trees come first, then the
  meshes'; each tree is stored root first with children inside it."""
  m = engine.MjModel.from_xml_string(_bodies_xml())

  def body(name):
    return engine.mj_name2id(m, engine.mjtObj.mjOBJ_BODY, name)

  for name in ("visual", "empty"):
    assert m.body_bvhadr[body(name)] == -1 and m.body_bvhnum[body(name)] == 0
  assert m.body_bvhnum[body("primitives")] == 2 * 6 - 1  # the visual geom left out
  assert m.body_bvhnum[body("single")] == 1
  used = [b for b in range(m.nbody) if m.body_bvhadr[b] >= 0]
  assert m.body_bvhadr[used[0]] == 0 and m.nbvh == m.body_bvhnum.sum()
  for b in used:
    adr, num = m.body_bvhadr[b], m.body_bvhnum[b]
    child = m.bvh_child[adr : adr + num]
    assert m.bvh_depth[adr] == 0 and ((child == -1) | ((child > 0) & (child < num))).all()
    leaves = (child == -1).all(axis=1)
    np.testing.assert_array_equal(m.bvh_nodeid[adr : adr + num] >= 0, leaves)
    assert set(m.geom_bodyid[m.bvh_nodeid[adr : adr + num][leaves]]) == {b}


# ---- oriented boxes ----


def _reference_obb(aabb1, aabb2, pos1, mat1, pos2, mat2, margin):
  """The face-normal separating-axis test, from its definition."""
  r1, r2 = mat1.reshape(3, 3), mat2.reshape(3, 3)
  c1 = r1 @ aabb1[:3] + pos1
  c2 = r2 @ aabb2[:3] + pos2
  for normal in np.concatenate([r1.T, r2.T]):
    extent = aabb1[3:] @ np.abs(r1.T @ normal) + aabb2[3:] @ np.abs(r2.T @ normal)
    if abs((c2 - c1) @ normal) > extent + margin:
      return False
  return True


def _random_frame(rng):
  quat = rng.normal(size=4)
  mat = np.zeros(9)
  mujoco.mju_quat2Mat(mat, quat / np.linalg.norm(quat))
  return rng.uniform(-1, 1, 3), mat


def test_collide_obb_is_the_face_axis_test():
  """Both forms of mj_collideOBB (direct, and with products precomputed per pair of frames)
  against the separating-axis test on the six face normals, for random boxes."""
  rng = np.random.default_rng(0)
  product, offset = np.zeros(36), np.zeros(12)
  overlaps = 0
  for _ in range(2000):
    aabb1 = np.concatenate([rng.uniform(-0.5, 0.5, 3), rng.uniform(0.05, 0.6, 3)])
    aabb2 = np.concatenate([rng.uniform(-0.5, 0.5, 3), rng.uniform(0.05, 0.6, 3)])
    pos1, mat1 = _random_frame(rng)
    pos2, mat2 = _random_frame(rng)
    margin = rng.uniform(0, 0.1)
    expected = _reference_obb(aabb1, aabb2, pos1, mat1, pos2, mat2, margin)
    assert driver.collide_obb(aabb1, aabb2, pos1, mat1, pos2, mat2, margin) == expected
    driver.obb_products(pos1, mat1, pos2, mat2, product, offset)
    assert driver.collide_obb_products(aabb1, aabb2, product, offset, margin) == expected
    overlaps += expected
  assert 200 < overlaps < 1800


def test_collide_obb_infinite_boxes():
  """A box with a half size of mjMAXVAL (a plane's) is tested along its finite axis only; one
  infinite along every axis overlaps everything."""
  plane = np.array([0, 0, -5e9, 1e10, 1e10, 5e9])  # geom_aabb of a plane: the half-space z < 0
  box = np.array([0, 0, 0, 0.1, 0.1, 0.1])
  eye = np.eye(3).ravel()
  zero = np.zeros(3)
  for x, z, expected in ((0, 0.2, False), (0, 0.05, True), (1e6, 0.05, True), (1e6, 0.11, False)):
    pos = np.array([x, 0, z])
    assert driver.collide_obb(plane, box, zero, eye, pos, eye, 0.0) == expected
    assert driver.collide_obb(box, plane, pos, eye, zero, eye, 0.0) == expected
  everywhere = np.array([0, 0, 0, 1e10, 1e10, 1e10])
  far = np.array([1e3, 1e3, 1e3])
  assert driver.collide_obb(everywhere, box, zero, eye, far, eye, 0.0)


# ---- contacts ----


def _collide(mjm, mjd, m, d, flag):
  """MuJoCo's contacts and ours for MuJoCo's current state, with disableflags |= flag."""
  mjm.opt.disableflags |= flag
  m.opt.disableflags |= flag
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_kinematics(m, d)
  driver.collision(m._struct, d._struct)
  mjm.opt.disableflags &= ~flag
  m.opt.disableflags &= ~flag


def _assert_same_contacts(mjd, d, label=""):
  assert d.ncon == mjd.ncon, label
  for name in _FIELDS:
    np.testing.assert_allclose(
      getattr(d.contact, name),
      getattr(mjd.contact, name),
      rtol=0,
      atol=1e-12,
      err_msg=f"{label} {name}",
    )


# two multi-geom bodies and a sphere, posed so that faces exactly touch
_TOUCHING = """
<mujoco>
  <worldbody>
    <body name="a">
      <freejoint/>
      <geom name="a0" type="box" size=".1 .2 .05"/>
      <geom name="a1" type="sphere" size=".03" pos=".4 .3 .2"/>
    </body>
    <body name="b">
      <freejoint/>
      <geom name="b0" type="box" size=".15 .1 .08"/>
      <geom name="b1" type="capsule" size=".02 .05" pos="-.3 .2 -.3"/>
    </body>
    <body name="c">
      <freejoint/>
      <geom name="c0" type="sphere" size=".07"/>
    </body>
  </worldbody>
</mujoco>
"""


def _touching_qpos(rng):
  """A random common orientation; b's box on a0's top face and c's sphere on its bottom face,
  at distance zero up to rounding."""
  pos_a, mat = _random_frame(rng)
  quat = np.zeros(4)
  mujoco.mju_mat2Quat(quat, mat)
  rot = mat.reshape(3, 3)
  pos_b = pos_a + rot @ np.array([rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05), 0.05 + 0.08])
  pos_c = pos_a + rot @ np.array([rng.uniform(-0.05, 0.05), rng.uniform(-0.1, 0.1), -(0.05 + 0.07)])
  return np.concatenate([pos_a, quat, pos_b, quat, pos_c, quat])


def test_touching_geoms_match_mujoco():
  """Exactly touching faces: which pairs the midphase drops (oriented boxes apart by rounding)
  is MuJoCo's, to the last bit, with the midphase on and off."""
  mjm, mjd, m, d = oracle.load(_TOUCHING)
  rng = np.random.default_rng(0)
  ndiffer = 0
  for i in range(300):
    mjd.qpos[:] = _touching_qpos(rng)
    geoms = []
    for flag in (0, _MIDPHASE):
      _collide(mjm, mjd, m, d, flag)
      _assert_same_contacts(mjd, d, f"config {i} flag {flag}")
      geoms.append(sorted(map(tuple, mjd.contact.geom.tolist())))
    ndiffer += geoms[0] != geoms[1]
  assert ndiffer > 30  # the midphase drops touching pairs in many of these poses


# bodies of mixed geom types: the midphase sorts their contacts by (geom1, geom2), where geom1
# is the geom of the lower type, so the order differs from the all-pairs loop
_MIXED = """
<mujoco>
  <worldbody>
    <body name="a">
      <freejoint/>
      <geom type="box" size=".1 .1 .1"/>
      <geom type="sphere" size=".1" pos=".05 0 0"/>
      <geom type="capsule" size=".05 .1" pos="0 .05 0"/>
    </body>
    <body name="b" pos="0 0 .15">
      <freejoint/>
      <geom type="sphere" size=".1"/>
      <geom type="box" size=".1 .1 .1" pos=".05 0 0"/>
      <geom type="ellipsoid" size=".1 .1 .05" pos="0 .05 0"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_contact_order_matches_mujoco():
  mjm, mjd, m, d = oracle.load(_MIXED)
  orders = []
  for flag in (0, _MIDPHASE):
    _collide(mjm, mjd, m, d, flag)
    _assert_same_contacts(mjd, d, f"flag {flag}")
    orders.append(mjd.contact.geom.tolist())
  assert orders[0] != orders[1] and sorted(orders[0]) == sorted(orders[1])


# a world of several geoms (planes, a height field and boxes: infinite and finite boxes in one
# tree) under multi-geom bodies, with margins and gaps, an explicit pair inside a midphase body
# pair, an excluded pair and a contype-filtered geom
_SCENE = """
<mujoco>
  {option}
  <asset><hfield name="h" nrow="3" ncol="3" size=".6 .6 .05 .05"
                 elevation="0 0 0 0 .5 0 0 0 0"/></asset>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 .1"/>
    <geom name="tilted" type="plane" size=".5 .5 .1" pos="-1.5 0 .2" euler="0 30 0"/>
    <geom name="terrain" type="hfield" hfield="h" pos="1.5 0 0"/>
    <geom name="wall" type="box" size="1 .05 .3" pos="0 1.2 .3"/>
    <body name="table" pos="0 0 .34">
      <freejoint/>
      <geom name="top" type="box" size=".4 .4 .02" margin=".01" gap=".005"/>
      <geom name="leg0" type="capsule" fromto=".35 .35 0 .35 .35 -.3" size=".03"/>
      <geom name="leg1" type="capsule" fromto="-.35 .35 0 -.35 .35 -.3" size=".03"/>
      <geom name="leg2" type="cylinder" fromto=".35 -.35 0 .35 -.35 -.3" size=".03"/>
      <geom name="leg3" type="box" fromto="-.35 -.35 0 -.35 -.35 -.3" size=".03"/>
      <geom name="ghost" type="sphere" size=".05" pos="0 0 .1" contype="4" conaffinity="4"/>
    </body>
    <body name="dumbbell" pos=".1 0 .48" euler="0 0 20">
      <freejoint/>
      <geom name="bell0" type="sphere" size=".07" pos="-.15 0 0" margin=".02"/>
      <geom name="bar" type="capsule" fromto="-.15 0 0 .15 0 0" size=".02"/>
      <geom name="bell1" type="ellipsoid" size=".07 .06 .05" pos=".15 0 0"/>
    </body>
    <body name="crate" pos="1.5 0 .3" euler="10 5 0">
      <freejoint/>
      <geom type="box" size=".1 .1 .1"/>
      <geom type="sphere" size=".05" pos=".1 .1 -.1"/>
    </body>
    <body name="wedge" pos="-1.5 .1 .5">
      <freejoint/>
      <geom type="box" size=".1 .1 .05"/>
      <geom type="capsule" size=".03 .1" pos="0 0 -.05" euler="90 0 0"/>
    </body>
    <body name="ball" pos="-.1 0 .6"><freejoint/><geom type="sphere" size=".05"/></body>
  </worldbody>
  <contact>
    <pair geom1="bell0" geom2="top" condim="4" margin=".03"/>
    <exclude body1="ball" body2="dumbbell"/>
  </contact>
</mujoco>
"""


@_FLAGS
@pytest.mark.parametrize(
  "option",
  [
    "",
    '<option o_margin=".02"><flag override="enable"/></option>',
    '<option><flag filterparent="disable"/></option>',
  ],
  ids=["default", "override", "nofilterparent"],
)
def test_scene_contacts_match_mujoco(flag, option):
  """A settled scene: the same contacts in the same order with the same parameters."""
  mjm = mujoco.MjModel.from_xml_string(_SCENE.format(option=option))
  mjd = mujoco.MjData(mjm)
  mujoco.mj_step(mjm, mjd, 300)
  m = oracle.from_mujoco(mjm)
  d = engine.MjData(m)
  _collide(mjm, mjd, m, d, flag)
  assert mjd.ncon > 8
  _assert_same_contacts(mjd, d)


def test_scene_exercises_the_midphase():
  """The scene has what the tests above claim: a world of several geoms, multi-geom bodies, the
  explicit pair in contact, and geom pairs of different bodies whose bounding spheres overlap
  while their oriented boxes are apart."""
  mjm = mujoco.MjModel.from_xml_string(_SCENE.format(option=""))
  mjd = mujoco.MjData(mjm)
  mujoco.mj_step(mjm, mjd, 300)
  mujoco.mj_forward(mjm, mjd)
  assert mjm.body_geomnum[0] > 1 and (mjm.body_bvhnum[1:] > 1).sum() >= 4
  pair = {mjm.geom("bell0").id, mjm.geom("top").id}
  assert any(set(g) == pair for g in mjd.contact.geom.tolist())
  pruned = 0
  for g1 in range(mjm.ngeom):
    for g2 in range(g1 + 1, mjm.ngeom):
      r1, r2 = mjm.geom_rbound[g1], mjm.geom_rbound[g2]
      if mjm.geom_bodyid[g1] == mjm.geom_bodyid[g2] or r1 == 0 or r2 == 0:
        continue
      margin = mjm.geom_margin[g1] + mjm.geom_margin[g2] + mjm.geom_gap[g1] + mjm.geom_gap[g2]
      if np.linalg.norm(mjd.geom_xpos[g1] - mjd.geom_xpos[g2]) > r1 + r2 + margin:
        continue
      pruned += not driver.collide_obb(
        mjm.geom_aabb[g1],
        mjm.geom_aabb[g2],
        mjd.geom_xpos[g1],
        mjd.geom_xmat[g1],
        mjd.geom_xpos[g2],
        mjd.geom_xmat[g2],
        margin,
      )
  assert pruned > 0
