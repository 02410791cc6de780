"""Collision driver (engine/collision/driver.py) against mujoco: which geom pairs collide, in
which order, and the contact parameters (priority and solmix mixing, explicit pairs, margins,
gaps, adhesion, overrides, exclusions, parent and dof-less filtering, capacity).

Spheres and planes keep the narrowphase simple, so these tests isolate the driver.
"""

import mujoco
import numpy as np
import pytest

import engine
from engine.collision import driver
from tests import jitted
from tests import oracle

driver = jitted.module(driver)

# a floor, a chain of touching spheres (parent-child and weld cases), free spheres with mixed
# contact parameters, an explicit pair, an excluded pair and a mocap body on the floor
SCENE = """
<mujoco>
  {option}
  <worldbody>
    <geom name="floor" type="plane" size="3 3 .1" friction=".7 .01 .002" solref=".03 1.1"/>
    <geom name="post" type="sphere" size=".1" pos="2 2 .3" priority="2" condim="6"/>
    <body name="arm" pos="0 0 .35">
      <joint type="hinge" axis="0 1 0"/>
      <geom name="upper" type="sphere" size=".12" margin=".02" gap=".005" solmix="2"/>
      <body name="fore" pos=".2 0 0">
        <joint type="hinge" axis="0 1 0"/>
        <geom name="lower" type="sphere" size=".1" solimp=".8 .9 .002 .4 3" adhesion=".2"/>
        <body name="hand" pos=".15 0 0">
          <geom name="palm" type="sphere" size=".06" condim="4"/>
        </body>
      </body>
    </body>
    <body name="a" pos="1 0 .09">
      <freejoint/>
      <geom name="a" type="sphere" size=".1" priority="1" condim="1" friction=".3 .02 .003"
            solref="-1000 -20" adhesion=".5"/>
    </body>
    <body name="b" pos="1 .18 .11">
      <freejoint/>
      <geom name="b" type="sphere" size=".1" solmix="0" margin=".03" gap=".01" friction="1.2"/>
    </body>
    <body name="c" pos="1 -.18 .11">
      <freejoint/>
      <geom name="c" type="sphere" size=".1" contype="2" conaffinity="2"/>
    </body>
    <body name="d" pos="1.5 0 .3">
      <freejoint/>
      <geom name="d" type="sphere" size=".1" pos="0 0 -.1"/>
      <geom name="d2" type="sphere" size=".08" pos="0 .1 -.15" condim="3" solmix="0"/>
    </body>
    <body name="e" pos="2 2 .48">
      <freejoint/>
      <geom name="e" type="sphere" size=".1"/>
    </body>
    <body name="target" mocap="true" pos="-1 0 .05">
      <geom name="target" type="sphere" size=".1"/>
    </body>
    <body name="f" pos="-1 .19 .1">
      <freejoint/>
      <geom name="f" type="sphere" size=".1"/>
    </body>
  </worldbody>
  <contact>
    <pair geom1="c" geom2="floor" condim="4" friction=".5 .5 .01 .001 .001" margin=".02"
          gap=".01" solreffriction=".05 1" adhesion=".3"/>
    <exclude body1="d" body2="world"/>
  </contact>
</mujoco>
"""

FIELDS = (
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


def _collide(option=""):
  mjm, mjd, m, d = oracle.load(SCENE.format(option=option))
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_kinematics(m, d)
  driver.collision(m._struct, d._struct)
  return mjd, d


def _assert_same_contacts(mjd, d):
  assert d.ncon == mjd.ncon
  for name in FIELDS:
    np.testing.assert_allclose(
      getattr(d.contact, name), getattr(mjd.contact, name), rtol=0, atol=1e-12, err_msg=name
    )


@pytest.mark.parametrize(
  "option",
  [
    "",
    '<option o_margin=".05" o_solref=".04 .9" o_solimp=".7 .8 .01 .3 2" '
    'o_friction=".4 .4 .02 .001 .001"><flag override="enable"/></option>',
    '<option><flag filterparent="disable"/></option>',
    '<option><flag contact="disable"/></option>',
  ],
)
def test_contacts_and_parameters_match_mujoco(option):
  mjd, d = _collide(option)
  _assert_same_contacts(mjd, d)


def test_scene_exercises_every_rule():
  """The scene really has what the test above claims to cover."""
  mjd, _ = _collide()
  names = {
    (
      mujoco.mj_id2name(mjd.model, mujoco.mjtObj.mjOBJ_GEOM, g1),
      mujoco.mj_id2name(mjd.model, mujoco.mjtObj.mjOBJ_GEOM, g2),
    )
    for g1, g2 in mjd.contact.geom
  }
  assert ("floor", "c") in names  # explicit pair despite contype mismatch
  assert ("floor", "a") in names and ("a", "b") in names  # priority and solmix mixing
  assert ("upper", "lower") not in names  # parent-child filtered
  assert ("floor", "d") not in names  # excluded
  assert ("post", "e") in names  # world geom vs free body
  assert ("target", "f") in names  # mocap body vs free body
  assert ("floor", "target") not in names  # two bodies without dofs: no force can act
  assert (mjd.contact.exclude == 1).any() or (mjd.contact.dist > 0).any()


def test_full_contact_buffer_warns(monkeypatch):
  """Past the contact capacity: no write beyond it, mjWARN_CONTACTFULL."""
  capacity = engine.types.data_capacity
  monkeypatch.setattr(engine.types, "data_capacity", lambda m: dict(capacity(m), nconcap=2))
  mjm, mjd, m, d = oracle.load(SCENE.format(option=""))
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_kinematics(m, d)
  driver.collision(m._struct, d._struct)
  assert d.ncon == 2
  assert d.warning[engine.mjtWarning.mjWARN_CONTACTFULL].number == 1


_SPHERES_ON_A_PLANE = """<mujoco><size njmax="500" nconmax="50"/><option cone="elliptic"/>
  <worldbody><geom type="plane" size="10 10 .1"/>{}</worldbody></mujoco>""".format(
  "".join(
    f'<body pos="{0.3 * (i % 15)} {0.3 * (i // 15)} 0"><freejoint/><geom size=".1"/></body>'
    for i in range(180)
  )
)


def test_njmax_and_nconmax_size_the_arena_they_do_not_cap_it():
  """MuJoCo 3.17 takes contacts and rows from its arena, which <size njmax nconmax> only
  size: 180 resting spheres make 180 contacts and 540 rows past nconmax=50 and njmax=500,
  with no warning."""
  mjm, mjd, m, d = oracle.load(_SPHERES_ON_A_PLANE)
  mujoco.mj_forward(mjm, mjd)
  engine.mj_forward(m, d)
  assert (d.ncon, d.nefc) == (mjd.ncon, mjd.nefc) == (180, 540)
  for kind in (mujoco.mjtWarning.mjWARN_CONTACTFULL, mujoco.mjtWarning.mjWARN_CNSTRFULL):
    assert d.warning[int(kind)].number == mjd.warning[kind].number == 0
  assert m.narena == mjm.narena


_SCENES = ["capsule_humanoid", "box_pile", "gripper", "terrain_quadruped"]


@pytest.mark.parametrize("name", _SCENES)
def test_scene_contacts_match_mujoco_in_order(name):
  """Whole scenes in contact (after MuJoCo simulates them for a while): same contacts, same
  order, same parameters."""
  mjm, mjd, m, d = oracle.settled_contact_scene(name, 300)
  assert mjd.ncon > 3
  engine.mj_kinematics(m, d)
  driver.collision(m._struct, d._struct)
  assert d.ncon == mjd.ncon
  np.testing.assert_array_equal(d.contact.geom, mjd.contact.geom)
  for field in FIELDS:
    np.testing.assert_allclose(
      getattr(d.contact, field), getattr(mjd.contact, field), rtol=0, atol=1e-6, err_msg=field
    )


@pytest.mark.parametrize(
  "nbody,npair", [(1, 0), (2, 1), (5, 10), (40, 300), (70, 2000), (700, 5000)]
)
def test_sort_pairs_sorts_body_pairs_in_place(nbody, npair):
  # the broadphase sorts its candidate pairs (lo << 16) + hi with it, allocating nothing;
  # bodies with more than 16 pairs are sorted by marks, the others by insertion
  rng = np.random.default_rng(npair)
  lo_hi = (
    {tuple(sorted(rng.choice(nbody, 2, replace=False))) for _ in range(npair)}
    if nbody > 1
    else set()
  )
  pairs = np.array([(lo << 16) + hi for lo, hi in lo_hi] + [-7] * 5, np.int32)
  n = len(lo_hi)
  rng.shuffle(pairs[:n])
  expected = np.sort(pairs[:n])
  start, bucket = np.full(nbody, 99, np.int32), np.full(nbody, 99, np.int32)
  driver._sort_pairs(pairs, n, start, bucket, nbody)
  np.testing.assert_array_equal(pairs[:n], expected)
  np.testing.assert_array_equal(pairs[n:], -7)  # untouched beyond npair


@pytest.mark.parametrize("n", [1, 2, 16, 64, 65, 150])
def test_sort_contacts_is_a_stable_sort_of_whole_records(n):
  # midphase contacts are sorted by (geom1, geom2), keeping each geom pair's own order; every
  # field of a record moves with it (up to 64 contacts through an index buffer, more directly)
  m = engine.MjModel.from_xml_string(
    _BOX_ON_FLOOR.replace("<worldbody>", "<size nconmax='200'/><worldbody>")
  )
  d = engine.MjData(m)
  rng = np.random.default_rng(n)
  start = 3
  d.ncon = start + n
  geom = rng.integers(0, 4, (n, 2)).astype(np.int32)
  d.contact.geom[start : start + n] = geom
  d.contact.dist[start : start + n] = np.arange(n)  # the record's identity
  d.contact.pos[start : start + n] = np.arange(n)[:, None] + [0.1, 0.2, 0.3]
  d.contact.efc_address[start : start + n] = np.arange(n)
  d.contact.friction[start : start + n] = np.arange(n)[:, None] * np.ones(5)
  driver.sort_contacts(d._struct, start, start + n)
  expected = sorted(range(n), key=lambda k: tuple(geom[k]))  # Python's sort is stable
  np.testing.assert_array_equal(d.contact.dist[start : start + n], expected)
  np.testing.assert_array_equal(d.contact.geom[start : start + n], geom[expected])
  np.testing.assert_array_equal(d.contact.pos[start : start + n, 2], np.add(expected, 0.3))
  np.testing.assert_array_equal(d.contact.efc_address[start : start + n], expected)
  np.testing.assert_array_equal(d.contact.friction[start : start + n, 4], expected)


def test_data_too_large_names_the_buffers(monkeypatch):
  """A model whose contact and constraint capacity does not fit in memory: MjData raises a
  MemoryError naming the largest buffers and the <size> attributes that bound them."""
  m = engine.MjModel.from_xml_string(SCENE.format(option=""))
  real_zeros = np.zeros

  def refuse_arena(shape, dtype=float):
    if dtype == np.uint8:
      raise MemoryError
    return real_zeros(shape, dtype)

  monkeypatch.setattr(np, "zeros", refuse_arena)
  with pytest.raises(MemoryError, match=r"GiB for this model's data \(largest: .*nconmax"):
    engine.MjData(m)


_BOX_ON_FLOOR = """<mujoco><worldbody><geom type="plane" size="1 1 1"/>
  <body pos="0 0 .09"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
</worldbody></mujoco>"""


def test_one_contact_reads_as_mujocos_mjcontact():
  """d.contact[i]: scalar fields are Python numbers (usable as dict keys, as MuJoCo's MjContact
  fields are), vectors arrays; iteration yields each contact; negative indices count back."""
  mjm = mujoco.MjModel.from_xml_string(_BOX_ON_FLOOR)
  mjd = mujoco.MjData(mjm)
  mujoco.mj_forward(mjm, mjd)
  m = engine.MjModel.from_xml_string(_BOX_ON_FLOOR)
  d = engine.MjData(m)
  engine.mj_forward(m, d)
  assert d.ncon == mjd.ncon == 4
  for ours, theirs in zip(d.contact, mjd.contact, strict=True):
    for name in ("geom1", "geom2", "dim", "dist", "efc_address", "exclude"):
      value = getattr(ours, name)
      assert type(value) is type(getattr(theirs, name)) and value == getattr(theirs, name), name
    np.testing.assert_array_equal(ours.geom, theirs.geom)
    np.testing.assert_allclose(ours.frame, theirs.frame, atol=1e-12)
  assert {d.contact[0].geom1, d.contact[1].geom2} == {0, 1}
  assert d.contact[-1].dist == d.contact.dist[3]
  with pytest.raises(IndexError, match="contact index 4 out of range for 4 contacts"):
    d.contact[4]


def test_a_run_of_contacts_is_a_slice_of_the_columns():
  """d.contact[a:b] (MuJoCo's bindings ignore the slice; we take it): its columns, its length
  and its contacts are those of the slice."""
  m = engine.MjModel.from_xml_string(_BOX_ON_FLOOR)
  d = engine.MjData(m)
  engine.mj_forward(m, d)
  for run in (slice(0, 0), slice(1, 3), slice(None, None, -1), slice(-2, None)):
    part = d.contact[run]
    expected = np.arange(4)[run]
    assert len(part) == len(expected)
    np.testing.assert_array_equal(part.dist, d.contact.dist[expected])
    np.testing.assert_array_equal(part.geom2, d.contact.geom2[expected])
    assert [c.dist for c in part] == [d.contact[int(k)].dist for k in expected]
