"""Collision-distance sensors (distance, normal, fromto) and mj_geomDistance against MuJoCo."""

import math

import mujoco
import numpy as np
import pytest

import engine

# free bodies carrying every convex geom type, one body with several geoms, a static plane
_BODIES = """
  <body name="b_sphere" pos="0 0 0"><freejoint/><geom name="sphere" type="sphere" size=".1"/></body>
  <body name="b_capsule" pos=".3 0 0"><freejoint/>
    <geom name="capsule" type="capsule" size=".07 .12"/>
  </body>
  <body name="b_box" pos="0 .3 0"><freejoint/><geom name="box" type="box" size=".1 .08 .06"/></body>
  <body name="b_cylinder" pos=".3 .3 0"><freejoint/>
    <geom name="cylinder" type="cylinder" size=".08 .1"/>
  </body>
  <body name="b_ellipsoid" pos="0 .6 0"><freejoint/>
    <geom name="ellipsoid" type="ellipsoid" size=".1 .07 .05"/>
  </body>
  <body name="b_mesh" pos=".3 .6 0"><freejoint/><geom name="mesh" type="mesh" mesh="wedge"/></body>
  <body name="b_multi" pos=".6 .3 0"><freejoint/>
    <geom name="multi_a" type="sphere" size=".05" pos=".1 0 0"/>
    <geom name="multi_b" type="box" size=".04 .04 .04" pos="-.1 0 0"/>
    <geom name="multi_c" type="capsule" size=".03 .1" pos="0 .1 0"/>
  </body>
"""
_GEOMS = ("sphere", "capsule", "box", "cylinder", "ellipsoid", "mesh")


def _xml(sensors, option=""):
  return f"""<mujoco>
  <option gravity="0 0 0">{option}</option>
  <default><geom contype="0" conaffinity="0"/></default>
  <asset><mesh name="wedge" vertex="-.1 -.05 -.05  .1 -.05 -.05  -.1 .05 -.05  .1 .05 -.05
                                     -.1 -.05 .05  -.1 .05 .05"
                             face="0 2 1  1 2 3  0 4 2  2 4 5  0 1 4  2 5 3  1 3 5  1 5 4"/></asset>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 .1" pos="0 0 -.5"/>
    {_BODIES}
  </worldbody>
  <sensor>{sensors}</sensor>
</mujoco>"""


_TYPES = {"sphere": 2, "capsule": 3, "ellipsoid": 4, "cylinder": 5, "box": 6, "mesh": 7, "floor": 0}


def _pair_sensors(cutoff):
  """A distance, normal and fromto sensor for every pair of geom types (both orders), the
  plane, and bodies with several geoms."""
  s = []
  names = _GEOMS + ("floor",)
  for a in names:
    for b in names:
      if a == b:
        continue
      for tag in ("distance", "normal", "fromto"):
        s.append(f'<{tag} geom1="{a}" geom2="{b}" cutoff="{cutoff}"/>')
  for a in ("b_multi", "b_capsule", "world"):
    for b in ("b_multi", "b_sphere"):
      if a != b:
        for tag in ("distance", "normal", "fromto"):
          s.append(f'<{tag} body1="{a}" body2="{b}" cutoff="{cutoff}"/>')
  s.append(f'<distance body1="b_multi" geom2="capsule" cutoff="{cutoff}"/>')
  s.append(f'<fromto geom1="floor" body2="b_multi" cutoff="{cutoff}"/>')
  return "\n".join(s)


def _load(xml):
  mjm = mujoco.MjModel.from_xml_string(xml)
  m = engine.MjModel.from_xml_string(xml)
  return mjm, mujoco.MjData(mjm), m, engine.MjData(m)


def _randomize(mjm, mjd, rng, spread):
  """Random positions (within spread of the origin) and orientations of the free bodies."""
  for j in range(mjm.njnt):
    adr = mjm.jnt_qposadr[j]
    mjd.qpos[adr : adr + 3] = rng.uniform(-spread, spread, 3)
    q = rng.normal(size=4)
    mjd.qpos[adr + 3 : adr + 7] = q / math.sqrt(
      q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]
    )
  mjd.qvel[:] = rng.normal(scale=0.5, size=mjm.nv)


def _curved(mjm, i):
  """Whether sensor i measures the ellipsoid or the cylinder, curved shapes for GJK."""
  curved = {mjm.geom("ellipsoid").id, mjm.geom("cylinder").id}
  return (mjm.sensor_objtype[i] == mujoco.mjtObj.mjOBJ_GEOM and mjm.sensor_objid[i] in curved) or (
    mjm.sensor_reftype[i] == mujoco.mjtObj.mjOBJ_GEOM and mjm.sensor_refid[i] in curved
  )


def _compare(mjm, mjd, m, d):
  """Sensors after mj_forward from MuJoCo's state.

  GJK stops on a curved shape once its duality gap is below 0.5*ccd_tolerance^2, which fixes
  the distance to ~1e-10 but the witness point along the surface only to ~1e-6: fromto and
  normal (of a short segment) of the ellipsoid's and cylinder's pairs get a looser tolerance.
  """
  d.qpos[:] = mjd.qpos
  d.qvel[:] = mjd.qvel
  d.sensordata[:] = np.nan
  mujoco.mj_forward(mjm, mjd)
  engine.mj_forward(m, d)
  for i in range(mjm.nsensor):
    adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
    atol = 1e-4 if dim > 1 and _curved(mjm, i) else 1e-6
    np.testing.assert_allclose(
      d.sensordata[adr : adr + dim],
      mjd.sensordata[adr : adr + dim],
      rtol=1e-6,
      atol=atol,
      err_msg=f"sensor {i}",
    )


def test_compiled_sensor_fields_match_mujoco():
  mjm, _, m, _ = _load(_xml(_pair_sensors(0.3)))
  for name in (
    "sensor_type",
    "sensor_objtype",
    "sensor_objid",
    "sensor_reftype",
    "sensor_refid",
    "sensor_dim",
    "sensor_adr",
    "sensor_datatype",
    "sensor_needstage",
    "sensor_intprm",
    "sensor_cutoff",
  ):
    np.testing.assert_array_equal(getattr(m, name), getattr(mjm, name), err_msg=name)
  assert {int(t) for t in m.sensor_type} == {
    engine.mjtSensor.mjSENS_GEOMDIST,
    engine.mjtSensor.mjSENS_GEOMNORMAL,
    engine.mjtSensor.mjSENS_GEOMFROMTO,
  }


@pytest.mark.parametrize("cutoff", [0.0, 0.05, 0.3, 10.0])
def test_sensors_match_mujoco(cutoff):
  mjm, mjd, m, d = _load(_xml(_pair_sensors(cutoff)))
  rng = np.random.default_rng(int(cutoff * 100))
  # spread 0.25: many pairs penetrate, many are apart within or beyond the cutoff
  for _ in range(6):
    _randomize(mjm, mjd, rng, 0.25)
    _compare(mjm, mjd, m, d)


def test_sensors_see_separated_penetrating_and_far_pairs():
  mjm, mjd, m, d = _load(_xml(_pair_sensors(0.3)))
  rng = np.random.default_rng(1)
  dists = []
  for _ in range(6):
    _randomize(mjm, mjd, rng, 0.25)
    _compare(mjm, mjd, m, d)
    for i in np.nonzero(m.sensor_type == engine.mjtSensor.mjSENS_GEOMDIST)[0]:
      dists.append(d.sensordata[m.sensor_adr[i]])
  dists = np.array(dists)
  assert (dists < 0).sum() > 5
  assert ((dists > 0) & (dists < 0.3)).sum() > 10
  assert (dists == 0.3).sum() > 10


def test_nothing_within_cutoff_writes_cutoff_and_zeros():
  xml = _xml(
    '<distance geom1="sphere" geom2="box" cutoff=".01"/>'
    '<normal geom1="sphere" geom2="box" cutoff=".01"/>'
    '<fromto geom1="sphere" geom2="box" cutoff=".01"/>'
    '<distance geom1="floor" geom2="mesh"/>'
  )
  mjm, mjd, m, d = _load(xml)
  _compare(mjm, mjd, m, d)
  np.testing.assert_array_equal(d.sensordata, [0.01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])


def test_sensors_over_a_trajectory_match_mujoco():
  mjm, mjd, m, d = _load(_xml(_pair_sensors(0.2)))
  rng = np.random.default_rng(7)
  _randomize(mjm, mjd, rng, 0.25)
  d.qpos[:] = mjd.qpos
  d.qvel[:] = mjd.qvel
  for _ in range(20):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
    np.testing.assert_allclose(d.qpos, mjd.qpos, atol=1e-9)
    _compare(mjm, mjd, m, d)


@pytest.mark.parametrize("flags", ["", "nativeccd", "multiccd"])
def test_geom_distance_matches_mujoco(flags):
  """Every geom pair (with nativeccd disabled, the mjc_Convex pairs through libccd's MPR)."""
  option = f'<flag {flags}="disable"/>' if flags else ""
  mjm, mjd, m, d = _load(_xml("", option))
  rng = np.random.default_rng(3)
  for _ in range(4):
    _randomize(mjm, mjd, rng, 0.25)
    d.qpos[:] = mjd.qpos
    mujoco.mj_forward(mjm, mjd)
    engine.mj_forward(m, d)
    for g1 in range(mjm.ngeom):
      for g2 in range(mjm.ngeom):
        for distmax in (0.0, 0.1, 1.0):
          want, got = np.full(6, np.nan), np.full(6, np.nan)
          dw = mujoco.mj_geomDistance(mjm, mjd, g1, g2, distmax, want)
          dg = engine.mj_geomDistance(m, d, g1, g2, distmax, got)
          np.testing.assert_allclose(dg, dw, atol=1e-6, err_msg=f"{g1} {g2} {distmax}")
          np.testing.assert_allclose(got, want, atol=1e-6, err_msg=f"{g1} {g2} {distmax}")
          assert engine.mj_geomDistance(m, d, g1, g2, distmax, None) == dg


def _configuration(mjm, mjd, seed, index):
  """The index-th random configuration of seed (as the tests above draw them)."""
  rng = np.random.default_rng(seed)
  for _ in range(index + 1):
    _randomize(mjm, mjd, rng, 0.25)


def _nudge_quaternions(mjm, qpos, bodies, rng):
  """qpos with each quaternion element of the bodies' free joints one ulp up or down."""
  q = qpos.copy()
  for b in bodies:
    adr = mjm.jnt_qposadr[mjm.body_jntadr[b]] + 3
    q[adr : adr + 4] = np.nextafter(q[adr : adr + 4], rng.choice([-np.inf, np.inf], 4))
  return q


@pytest.mark.parametrize(
  "seed, index, g1, g2, fraction",
  [
    (0, 0, "capsule", "mesh", 0.99),
    (0, 0, "multi_c", "mesh", 0.97),
    (11, 0, "sphere", "mesh", 0.99),
  ],
)
def test_witness_points_just_beyond_the_cutoff_follow_mujoco(seed, index, g1, g2, fraction):
  """A sphere's or capsule's core (a point or a segment) against a polytope converges exactly
  in GJK, so for a cutoff just below the distance MuJoCo keeps or drops the witness points on
  the sign of a ~1e-18 duality gap: on the last bits of the poses. Over one-ulp nudges of the
  two quaternions both outcomes occur in MuJoCo, and ours follows each one (MuJoCo 3.17 counts
  such cores as discrete shapes, with a zero gap tolerance, and tests the cutoff before a
  repeated support point)."""
  mjm, mjd, m, d = _load(_xml(""))
  g1, g2 = mjm.geom(g1).id, mjm.geom(g2).id
  _configuration(mjm, mjd, seed, index)
  mujoco.mj_forward(mjm, mjd)
  cutoff = fraction * mujoco.mj_geomDistance(mjm, mjd, g1, g2, 1.0, None)
  qpos = mjd.qpos.copy()
  rng = np.random.default_rng(0)
  kept = []
  for _ in range(24):
    mjd.qpos[:] = d.qpos[:] = _nudge_quaternions(
      mjm, qpos, (mjm.geom_bodyid[g1], mjm.geom_bodyid[g2]), rng
    )
    mujoco.mj_forward(mjm, mjd)
    engine.mj_forward(m, d)
    want, got = np.full(6, np.nan), np.full(6, np.nan)
    assert (
      engine.mj_geomDistance(m, d, g1, g2, cutoff, got)
      == mujoco.mj_geomDistance(mjm, mjd, g1, g2, cutoff, want)
      == cutoff
    )
    np.testing.assert_array_equal(got, want)
    kept.append(want.any())
  assert 0 < sum(kept) < len(kept)  # a tie: MuJoCo decides both ways


# pair kinds whose distance can differ from MuJoCo's in the last bit (some GJK iterates and
# the capsule segments' nearest points are summed in another order), so that a cutoff equal to
# MuJoCo's distance may be decided the other way; every other kind is bitwise MuJoCo's
_LAST_BIT_KINDS = {("box", "box"), ("box", "mesh"), ("capsule", "capsule"), ("capsule", "mesh")}
_KIND = {v: k for k, v in _TYPES.items()}


@pytest.mark.parametrize("flags", ["", "nativeccd"])
def test_geom_distance_exactly_at_the_cutoff_matches_mujoco(flags):
  """distmax equal to MuJoCo's distance of the pair and one ulp either side: the same distance
  (bit for bit) and the same witness points (or none, as MuJoCo) for every pair whose distance
  is MuJoCo's to the last bit (all kinds but _LAST_BIT_KINDS)."""
  option = f'<flag {flags}="disable"/>' if flags else ""
  mjm, mjd, m, d = _load(_xml("", option))
  last_bit = set()
  for seed, index in ((0, 0), (1, 1), (2, 2)):
    _configuration(mjm, mjd, seed, index)
    d.qpos[:] = mjd.qpos
    mujoco.mj_forward(mjm, mjd)
    engine.mj_forward(m, d)
    for g1 in range(mjm.ngeom):
      for g2 in range(mjm.ngeom):
        if g1 == g2:
          continue
        dist = mujoco.mj_geomDistance(mjm, mjd, g1, g2, 1.0, None)
        if dist != engine.mj_geomDistance(m, d, g1, g2, 1.0, None):
          last_bit.add(tuple(sorted((_KIND[mjm.geom_type[g1]], _KIND[mjm.geom_type[g2]]))))
          continue
        for distmax in (np.nextafter(dist, 0), dist, np.nextafter(dist, 1)):
          want, got = np.full(6, np.nan), np.full(6, np.nan)
          assert engine.mj_geomDistance(m, d, g1, g2, distmax, got) == mujoco.mj_geomDistance(
            mjm, mjd, g1, g2, distmax, want
          ), (g1, g2, distmax)
          assert got.any() == want.any(), (g1, g2, distmax)
          np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
  assert last_bit <= _LAST_BIT_KINDS


def test_contacts_at_exactly_the_margin_match_mujoco():
  """Geom margins equal to MuJoCo's distance of a pair and one ulp either side: the pair is a
  contact (dist < margin) in both engines or in neither, with the same contact count."""
  xml = _xml("").replace('contype="0" conaffinity="0"', 'contype="1" conaffinity="1"')
  mjm, mjd, m, d = _load(xml)
  decided = 0
  for seed, index in ((0, 0), (1, 1)):
    _configuration(mjm, mjd, seed, index)
    d.qpos[:] = mjd.qpos
    for g1 in range(mjm.ngeom):
      for g2 in range(g1 + 1, mjm.ngeom):
        mjm.geom_margin[:] = m.geom_margin[:] = 0
        mujoco.mj_forward(mjm, mjd)
        engine.mj_forward(m, d)
        dist = mujoco.mj_geomDistance(mjm, mjd, g1, g2, 1.0, None)
        if (
          mjm.geom_bodyid[g1] == mjm.geom_bodyid[g2]
          or not 0 < dist < 0.5
          or dist != engine.mj_geomDistance(m, d, g1, g2, 1.0, None)
        ):
          continue
        for margin in (np.nextafter(dist, 0), dist, np.nextafter(dist, 1)):
          mjm.geom_margin[:] = m.geom_margin[:] = 0
          mjm.geom_margin[[g1, g2]] = m.geom_margin[[g1, g2]] = margin
          mujoco.mj_forward(mjm, mjd)
          engine.mj_forward(m, d)
          pair = {g1, g2}
          ours = any(
            {int(d.contact.geom1[i]), int(d.contact.geom2[i])} == pair for i in range(d.ncon)
          )
          theirs = any({c.geom1, c.geom2} == pair for c in mjd.contact)
          assert (ours, d.ncon) == (theirs, mjd.ncon), (g1, g2, margin)
          decided += 1
  assert decided > 100


def test_geom_distance_checks_its_arguments():
  _, _, m, d = _load(_xml(""))
  with pytest.raises(ValueError, match="out of range"):
    engine.mj_geomDistance(m, d, 0, m.ngeom, 1.0, None)
  with pytest.raises(TypeError, match="fromto"):
    engine.mj_geomDistance(m, d, 0, 1, 1.0, np.zeros(5))


@pytest.mark.parametrize(
  "sensor, message",
  [
    ('<distance geom1="sphere" geom2="sphere"/>', "must be different"),
    ('<distance body1="b_box" body2="b_box"/>', "must be different"),
    ('<normal geom1="sphere"/>', "requires geom2 or body2"),
    ('<fromto geom2="sphere"/>', "requires geom1 or body1"),
    ('<distance geom1="sphere" geom2="nope"/>', "nope"),
    ('<distance geom1="sphere" geom2="box" cutoff="-1"/>', "negative cutoff"),
  ],
)
def test_invalid_sensors_are_rejected_like_mujoco(sensor, message):
  xml = _xml(sensor)
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(engine.Error, match=message):
    engine.MjModel.from_xml_string(xml)


def test_height_field_geoms_are_rejected():
  xml = """<mujoco><asset><hfield name="h" nrow="3" ncol="3" size="1 1 .1 .1"/></asset>
  <worldbody><geom name="h" type="hfield" hfield="h"/><geom name="s" size=".1"/></worldbody>
  <sensor><distance geom1="h" geom2="s"/></sensor></mujoco>"""
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(engine.Error, match="height fields"):
    engine.MjModel.from_xml_string(xml)


_ARM = """<mujoco model="arm">
  <worldbody>
    <geom name="floor" type="plane" size="1 1 .1"/>
    <geom name="target" type="sphere" size=".05" pos=".4 .1 .3" contype="0" conaffinity="0"/>
    <body name="upper" pos="0 0 .3">
      <joint name="shoulder" type="hinge" axis="0 0 1"/>
      <geom name="upper" type="capsule" fromto="0 0 0 .2 0 0" size=".03"/>
      <body name="lower" pos=".2 0 0">
        <joint name="elbow" type="hinge" axis="0 0 1" range="-2 2"/>
        <geom name="lower" type="capsule" fromto="0 0 0 .18 0 0" size=".025"/>
        <body name="hand" pos=".18 0 0"><geom name="hand" type="box" size=".03 .02 .02"/></body>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="shoulder"/><motor joint="elbow"/></actuator>
  <sensor>
    <distance name="hand_to_target" geom1="hand" geom2="target" cutoff="1"/>
    <fromto name="lower_to_floor" body1="lower" geom2="floor" cutoff=".5"/>
  </sensor>
</mujoco>"""


def test_arm_with_two_distance_sensors_compiles_and_runs():
  physics = engine.Physics.from_xml_string(_ARM)
  mjm = mujoco.MjModel.from_xml_string(_ARM)
  mjd = mujoco.MjData(mjm)
  physics.data.ctrl[:] = mjd.ctrl[:] = [0.3, -0.2]
  for _ in range(30):
    physics.step()
    mujoco.mj_step(mjm, mjd)
  physics.forward()
  mujoco.mj_forward(mjm, mjd)
  np.testing.assert_allclose(physics.data.sensordata, mjd.sensordata, rtol=1e-6, atol=1e-6)
  dist = physics.named.data.sensordata["hand_to_target"]
  assert 0 < dist[0] < 1
  assert physics.named.data.sensordata["lower_to_floor"].shape == (6,)


_PHI = (1 + 5**0.5) / 2
_ICO = " ".join(
  f"{x:g}"
  for p in ((0, 1, _PHI), (0, -1, _PHI), (0, 1, -_PHI), (0, -1, -_PHI))
  for k in range(3)
  for x in np.roll(p, k)
)
_CCD_GEOMS = {
  "box": 'type="box" size=".1 .07 .05"',
  "cube": 'type="mesh" mesh="cube"',
  "ico": 'type="mesh" mesh="ico"',
  "ellipsoid": 'type="ellipsoid" size=".12 .08 .06"',
  "cylinder": 'type="cylinder" size=".08 .07"',
  "capsule": 'type="capsule" size=".06 .1"',
}


@pytest.mark.parametrize(
  "a, b",
  [
    ("box", "box"),
    ("box", "cube"),
    ("cube", "cube"),
    ("ico", "box"),
    ("ico", "ico"),
    ("cylinder", "box"),
    ("capsule", "cube"),
    ("ellipsoid", "ico"),
  ],
)
def test_native_ccd_distance_matches_mujoco(a, b):
  """The native CCD distance (GJK with a cutoff, EPA when penetrating) in random poses: distance
  and witness points as MuJoCo's, to rounding. Boxes and meshes are discrete: GJK reaches the
  closest feature exactly, and a support point already in its simplex ends it (without that
  stop a duplicated vertex made box-box distances 0)."""
  xml = f"""<mujoco><asset><mesh name="cube" vertex="-1 -1 -1 1 -1 -1 1 1 -1 -1 1 -1 -1 -1 1 1 -1 1
    1 1 1 -1 1 1" scale=".09 .07 .05"/><mesh name="ico" vertex="{_ICO}" scale=".06 .05 .04"/>
    </asset><worldbody><geom {_CCD_GEOMS[a]}/><body><freejoint/><geom {_CCD_GEOMS[b]}/></body>
    </worldbody></mujoco>"""
  mjm, mjd, m, d = _load(xml)
  rng = np.random.default_rng(11)
  separated = 0
  for _ in range(40):
    _randomize(mjm, mjd, rng, 0.3)
    d.qpos[:] = mjd.qpos
    mujoco.mj_forward(mjm, mjd)
    engine.mj_forward(m, d)
    want, got = np.zeros(6), np.zeros(6)
    dw = mujoco.mj_geomDistance(mjm, mjd, 0, 1, 0.5, want)
    dg = engine.mj_geomDistance(m, d, 0, 1, 0.5, got)
    separated += dw > 0
    np.testing.assert_allclose(dg, dw, atol=1e-9)
    np.testing.assert_allclose(got, want, atol=1e-9)
  assert 10 < separated < 40


def test_pymjcf_arm_with_distance_sensors_matches_mujoco():
  import mjcf
  from mjcf import physics as mjcf_physics

  root = mjcf.RootElement(model="arm")
  upper = root.worldbody.add("body", name="upper", pos=[0, 0, 0.3])
  upper.add("joint", name="shoulder", type="hinge", axis=[0, 0, 1])
  upper.add("geom", name="upper", type="capsule", fromto=[0, 0, 0, 0.2, 0, 0], size=[0.03])
  hand = upper.add("body", name="hand", pos=[0.2, 0, 0])
  hand_geom = hand.add("geom", name="hand", type="box", size=[0.03, 0.02, 0.02])
  target = root.worldbody.add(
    "geom", name="target", type="sphere", size=[0.05], pos=[0.4, 0.1, 0.3]
  )
  root.sensor.add("distance", name="hand_target", geom1=hand_geom, geom2=target, cutoff=1)
  root.sensor.add("fromto", name="arm_target", body1=upper, geom2=target, cutoff=1)
  physics = mjcf_physics.Physics.from_mjcf_model(root)
  physics.data.qpos[:] = 0.4
  physics.forward()
  mjm = mujoco.MjModel.from_xml_string(root.to_xml_string())
  mjd = mujoco.MjData(mjm)
  mjd.qpos[:] = 0.4
  mujoco.mj_forward(mjm, mjd)
  np.testing.assert_allclose(physics.data.sensordata, mjd.sensordata, rtol=1e-6, atol=1e-9)
  assert 0 < physics.named.data.sensordata["hand_target"][0] < 1
