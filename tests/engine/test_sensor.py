"""Oracle tests for engine/sensor.py: every supported sensor type against MuJoCo.

MuJoCo runs mj_forward in a random state; its intermediate quantities (poses, velocities,
cacc, cfrc_int, subtree momenta, actuator forces, M, ...) are copied into our data and only
our sensor/energy stage runs, so each test checks sensor.py alone.
"""

import mujoco
import numpy as np
import pytest

import engine
from engine import sensor
from tests import jitted
from tests import oracle

sensor = jitted.module(sensor)

# a tree with every joint type, offset inertial frames, sites of every shape, cameras,
# tendons and actuators; no contacts (contype 0) and inactive limits
_BASE = """
<mujoco>
  <option timestep="0.005" magnetic="0.1 -0.3 0.4"/>
  <visual><global fovy="50"/></visual>
  <worldbody>
    <site name="ws" type="box" size="0.4 0.3 0.5" pos="0.1 0 0.9" euler="10 20 30"/>
    <camera name="wcam" pos="0.5 -2 1.5" xyaxes="1 0 0 0 0.6 0.8" resolution="640 480"/>
    <body name="b1" pos="0 0 1" euler="5 -10 15">
      <freejoint name="free"/>
      <inertial pos="0.05 -0.02 0.03" euler="20 10 -30" mass="2" diaginertia="0.1 0.2 0.15"/>
      <geom name="g1" type="box" size="0.1 0.15 0.05" pos="0.02 0.03 0" euler="0 30 0"
            contype="0" conaffinity="0"/>
      <site name="s1" type="sphere" size="0.6" pos="0.1 0.2 -0.1"/>
      <camera name="c1" pos="0.3 0.1 0.2" euler="-20 40 10" resolution="320 200"
              sensorsize="0.004 0.003" focal="0.003 0.0025"/>
      <body name="b2" pos="0.2 0.1 -0.1" euler="30 0 -20">
        <joint name="hinge" type="hinge" axis="0.3 1 0.2" pos="0 0 0.05" stiffness="2"
               limited="true" range="-170 170"/>
        <inertial pos="0 0.1 0" quat="0.9 0.1 0.3 0.2" mass="1" diaginertia="0.05 0.04 0.03"/>
        <geom name="g2" type="capsule" size="0.05 0.2" pos="0 0.1 0" euler="90 0 0"
              contype="0" conaffinity="0"/>
        <site name="s2" type="capsule" size="0.2 0.3" pos="0 0.2 0" euler="0 45 0"/>
        <body name="b3" pos="0 0.3 0.1">
          <joint name="slide" type="slide" axis="1 0.2 -0.1"/>
          <joint name="hinge2" type="hinge" axis="0 0 1" pos="0.05 0 0"/>
          <geom name="g3" type="ellipsoid" size="0.05 0.08 0.1" contype="0" conaffinity="0"/>
          <site name="s3" type="ellipsoid" size="0.3 0.4 0.5" pos="0.05 0 0" euler="10 0 0"/>
          <camera name="c3" pos="0 0 0.3" euler="0 -30 0"/>
          <body name="b4" pos="0.1 0.1 0" euler="0 0 45">
            <joint name="ball" type="ball" pos="0 0 0.02"/>
            <geom name="g4" type="cylinder" size="0.04 0.12" pos="0 0 0.1" contype="0"
                  conaffinity="0"/>
            <site name="s4" type="cylinder" size="0.3 0.4" pos="0 0.05 0.1"/>
            <body name="b5" pos="0 0 0.25" euler="15 0 0">
              <geom name="g5" type="sphere" size="0.05" pos="0.02 0 0" contype="0"
                    conaffinity="0"/>
              <site name="s5" type="box" size="0.2 0.3 0.4" pos="0 0.02 0"/>
            </body>
          </body>
        </body>
      </body>
    </body>
    <body name="b6" pos="1 0 0.5">
      <joint name="hinge6" type="hinge" axis="1 0 0" limited="true" range="-170 170"/>
      <geom name="g6" type="box" size="0.1 0.1 0.1" pos="0 0.2 0" contype="0" conaffinity="0"/>
      <site name="s6" type="sphere" size="0.05" pos="0 0.3 0"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="tfix" limited="true" range="-5 5">
      <joint joint="hinge" coef="1.5"/>
      <joint joint="slide" coef="-0.7"/>
    </fixed>
    <spatial name="tspa" stiffness="3" springlength="0.4 0.6">
      <site site="s1"/>
      <site site="s4"/>
    </spatial>
  </tendon>
  <actuator>
    <motor name="mh" joint="hinge" gear="2"/>
    <position name="ps" joint="slide" kp="5"/>
    <motor name="mt1" tendon="tfix"/>
    <motor name="mt2" tendon="tfix" gear="-3"/>
    <velocity name="v6" joint="hinge6" kv="2"/>
    <motor name="mf" joint="free" gear="0 0 1 0 0 0"/>
  </actuator>
  <sensor>
{sensors}
  </sensor>
</mujoco>
"""

_FRAME_OBJECTS = [
  ("body", "b1"),
  ("xbody", "b3"),
  ("body", "b4"),
  ("geom", "g2"),
  ("geom", "g5"),
  ("site", "s3"),
  ("site", "ws"),
  ("camera", "c1"),
  ("camera", "wcam"),
  ("xbody", "world"),
]
_REF_OBJECTS = [
  None,
  ("xbody", "b2"),
  ("body", "b3"),
  ("geom", "g4"),
  ("site", "s1"),
  ("camera", "c3"),
  ("xbody", "world"),
]
_SITES = ["s1", "s2", "s3", "s4", "s5", "s6", "ws"]


def _sensors_xml():
  """Every supported sensor type on every object type it accepts."""
  s = []
  for kind in (
    "framepos",
    "framequat",
    "framexaxis",
    "frameyaxis",
    "framezaxis",
    "framelinvel",
    "frameangvel",
  ):
    for obj in _FRAME_OBJECTS:
      for ref in _REF_OBJECTS:
        r = f' reftype="{ref[0]}" refname="{ref[1]}"' if ref else ""
        s.append(f'<{kind} objtype="{obj[0]}" objname="{obj[1]}"{r}/>')
  for kind in ("framelinacc", "frameangacc"):
    for obj in _FRAME_OBJECTS:
      s.append(f'<{kind} objtype="{obj[0]}" objname="{obj[1]}"/>')
  for site in _SITES:
    for kind in (
      "accelerometer",
      "velocimeter",
      "gyro",
      "force",
      "torque",
      "magnetometer",
      "touch",
    ):
      s.append(f'<{kind} site="{site}"/>')
    for cam in ("wcam", "c1", "c3"):
      s.append(f'<camprojection site="{site}" camera="{cam}"/>')
  for site in ("s1", "s2", "s3", "s4", "s5", "ws"):
    for obj in _FRAME_OBJECTS:
      s.append(f'<insidesite site="{site}" objtype="{obj[0]}" objname="{obj[1]}"/>')
  for j in ("hinge", "slide", "hinge2", "hinge6"):
    s += [
      f'<jointpos joint="{j}"/>',
      f'<jointvel joint="{j}"/>',
      f'<jointactuatorfrc joint="{j}"/>',
    ]
  for j in ("hinge", "hinge6"):
    s += [
      f'<jointlimitpos joint="{j}"/>',
      f'<jointlimitvel joint="{j}"/>',
      f'<jointlimitfrc joint="{j}"/>',
    ]
  s += ['<ballquat joint="ball"/>', '<ballangvel joint="ball"/>']
  for t in ("tfix", "tspa"):
    s += [
      f'<tendonpos tendon="{t}"/>',
      f'<tendonvel tendon="{t}"/>',
      f'<tendonactuatorfrc tendon="{t}"/>',
    ]
  s += [
    '<tendonlimitpos tendon="tfix"/>',
    '<tendonlimitvel tendon="tfix"/>',
    '<tendonlimitfrc tendon="tfix"/>',
  ]
  for a in ("mh", "ps", "mt1", "mt2", "v6", "mf"):
    s += [
      f'<actuatorpos actuator="{a}"/>',
      f'<actuatorvel actuator="{a}"/>',
      f'<actuatorfrc actuator="{a}"/>',
    ]
  for b in ("world", "b1", "b2", "b4", "b5", "b6"):
    s += [
      f'<subtreecom body="{b}"/>',
      f'<subtreelinvel body="{b}"/>',
      f'<subtreeangmom body="{b}"/>',
    ]
  s += ["<clock/>", "<e_potential/>", "<e_kinetic/>"]
  for stage in ("pos", "vel", "acc"):
    s.append(f'<user dim="2" needstage="{stage}"/>')
  # cutoffs on real and positive sensors of every stage
  s += [
    '<framepos objtype="site" objname="s5" cutoff="0.3"/>',
    '<jointvel joint="hinge" cutoff="0.05"/>',
    '<accelerometer site="s4" cutoff="1.5"/>',
    '<insidesite site="s1" objtype="body" objname="b2" cutoff="0.5"/>',
    '<touch site="s2" cutoff="0.5"/>',
    '<clock cutoff="0.01"/>',
    '<user dim="1" needstage="acc" cutoff="0.1"/>',
  ]
  return "\n".join("    " + x for x in s)


_XML = _BASE.replace("{sensors}", _sensors_xml())

# quantities MuJoCo computes before its sensor stages; copied into our data
_INPUTS = (
  "qpos",
  "qvel",
  "act",
  "ctrl",
  "xpos",
  "xquat",
  "xmat",
  "xipos",
  "ximat",
  "geom_xpos",
  "geom_xmat",
  "site_xpos",
  "site_xmat",
  "cam_xpos",
  "cam_xmat",
  "subtree_com",
  "ten_length",
  "ten_velocity",
  "actuator_length",
  "actuator_velocity",
  "actuator_force",
  "qfrc_actuator",
  "cvel",
  "M",
  "subtree_linvel",
  "subtree_angmom",
  "cacc",
  "cfrc_int",
  "cfrc_ext",
)


def _randomize(mjm, mjd, rng, scale=0.3):
  mjd.qpos[:] = mjm.qpos0 + scale * rng.normal(size=mjm.nq)
  for j in range(mjm.njnt):
    adr = mjm.jnt_qposadr[j]
    if mjm.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
      mujoco.mju_normalize4(mjd.qpos[adr + 3 : adr + 7])
    elif mjm.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
      mujoco.mju_normalize4(mjd.qpos[adr : adr + 4])
  mjd.qvel[:] = rng.normal(size=mjm.nv)
  mjd.ctrl[:] = rng.uniform(-1, 1, size=mjm.nu)
  mjd.time = rng.uniform(0, 10)


def _copy_inputs(mjd, d):
  d.time = mjd.time
  for name in _INPUTS:
    getattr(d, name)[...] = getattr(mjd, name)


def _run_ours(m, d):
  d.sensordata[:] = np.nan
  sensor.mj_sensorPos(m, d)
  sensor.mj_sensorVel(m, d)
  sensor.mj_sensorAcc(m, d)


def _close(got, want, name):
  np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9, err_msg=name)


def _check_all_sensors(mjm, mjd, m, d):
  for i in range(mjm.nsensor):
    adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
    name = f"sensor {i} {mujoco.mjtSensor(mjm.sensor_type[i]).name}"
    _close(d.sensordata[adr : adr + dim], mjd.sensordata[adr : adr + dim], name)


@pytest.fixture(scope="module")
def model():
  return oracle.load(_XML)


@pytest.mark.parametrize("seed", range(4))
def test_all_sensors_match_mujoco(model, seed):
  mjm, mjd, m, d = model
  rng = np.random.default_rng(seed)
  _randomize(mjm, mjd, rng)
  mujoco.mj_forward(mjm, mjd)
  assert mjd.ncon == 0 and mjd.nefc == 0
  _copy_inputs(mjd, d)
  _run_ours(m, d)
  _check_all_sensors(mjm, mjd, m, d)


def test_sensor_model_exercises_every_branch(model):
  """The oracle model covers every supported type, real clamping and inside/outside (types
  tested in their own files are left out: rangefinders in test_ray, the collision-distance
  sensors in test_geomdist)."""
  mjm, mjd, m, d = model
  supported = set(range(mujoco.mjtSensor.mjSENS_USER + 1)) - {
    mujoco.mjtSensor.mjSENS_RANGEFINDER,
    mujoco.mjtSensor.mjSENS_GEOMDIST,
    mujoco.mjtSensor.mjSENS_GEOMNORMAL,
    mujoco.mjtSensor.mjSENS_GEOMFROMTO,
    mujoco.mjtSensor.mjSENS_CONTACT,
    mujoco.mjtSensor.mjSENS_TACTILE,
    mujoco.mjtSensor.mjSENS_PLUGIN,
  }
  assert set(mjm.sensor_type) == supported
  inside = mjm.sensor_type == mujoco.mjtSensor.mjSENS_INSIDESITE
  seen, clamped = set(), 0
  for seed in range(4):
    _randomize(mjm, mjd, np.random.default_rng(seed))
    mujoco.mj_forward(mjm, mjd)
    for i in np.nonzero(inside)[0]:
      seen.add(mjd.sensordata[mjm.sensor_adr[i]])
    for i in np.nonzero(mjm.sensor_cutoff > 0)[0]:
      adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
      clamped += np.sum(np.abs(mjd.sensordata[adr : adr + dim]) == mjm.sensor_cutoff[i])
  assert {0.0, 1.0} <= seen
  assert clamped >= 4


@pytest.mark.parametrize("seed", range(3))
def test_stages_write_only_their_sensors(model, seed):
  mjm, mjd, m, d = model
  _randomize(mjm, mjd, np.random.default_rng(100 + seed))
  mujoco.mj_forward(mjm, mjd)
  _copy_inputs(mjd, d)
  for stage, fn in ((1, sensor.mj_sensorPos), (2, sensor.mj_sensorVel), (3, sensor.mj_sensorAcc)):
    d.sensordata[:] = np.nan
    fn(m, d)
    for i in range(mjm.nsensor):
      adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
      got = d.sensordata[adr : adr + dim]
      if mjm.sensor_needstage[i] == stage:
        _close(got, mjd.sensordata[adr : adr + dim], f"sensor {i}")
      else:
        assert np.all(np.isnan(got))


def test_disabled_sensors_leave_sensordata(model):
  mjm, mjd, m, d = model
  _randomize(mjm, mjd, np.random.default_rng(7))
  mujoco.mj_forward(mjm, mjd)
  _copy_inputs(mjd, d)
  m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_SENSOR
  try:
    d.sensordata[:] = 5.0
    sensor.mj_sensorPos(m, d)
    sensor.mj_sensorVel(m, d)
    sensor.mj_sensorAcc(m, d)
    assert np.all(d.sensordata == 5.0)
    assert not sensor.needs_subtree_vel(m._struct)
    assert not sensor.needs_rne_post(m._struct)
  finally:
    m.opt.disableflags &= ~int(mujoco.mjtDisableBit.mjDSBL_SENSOR)


def test_user_sensors_are_cleared_like_mujoco(model):
  """Without a sensor callback MuJoCo 3.17 writes zeros to user sensors at their stage."""
  mjm, mjd, m, d = model
  _randomize(mjm, mjd, np.random.default_rng(3))
  mujoco.mj_forward(mjm, mjd)
  _copy_inputs(mjd, d)
  _run_ours(m, d)
  user = np.nonzero(mjm.sensor_type == mujoco.mjtSensor.mjSENS_USER)[0]
  assert len(user) == 4
  for i in user:
    adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
    assert np.all(d.sensordata[adr : adr + dim] == 0)
    assert np.all(mjd.sensordata[adr : adr + dim] == 0)


def _lazy_xml(sensors):
  return _BASE.replace("{sensors}", sensors)


@pytest.mark.parametrize(
  "sensors, subtree, rnepost",
  [
    ("", False, False),
    ('<jointpos joint="hinge"/><framelinvel objtype="body" objname="b2"/>', False, False),
    ('<subtreelinvel body="b1"/>', True, False),
    ('<subtreeangmom body="b2"/>', True, False),
    ('<user dim="1" needstage="vel"/>', True, False),
    ('<user dim="1" needstage="pos"/><touch site="s1"/><actuatorfrc actuator="mh"/>', False, False),
    ('<accelerometer site="s1"/>', False, True),
    ('<force site="s2"/>', False, True),
    ('<torque site="s2"/>', False, True),
    ('<framelinacc objtype="geom" objname="g1"/>', False, True),
    ('<frameangacc objtype="geom" objname="g1"/>', False, True),
    ('<user dim="1" needstage="acc"/>', False, True),
  ],
)
def test_lazy_stage_conditions_match_mujoco(sensors, subtree, rnepost):
  """needs_subtree_vel/needs_rne_post are true exactly when MuJoCo's sensor stages run
  mj_subtreeVel/mj_rnePostConstraint (its flg_subtreevel/flg_rnepost after mj_forward)."""
  mjm, mjd, m, d = oracle.load(_lazy_xml(sensors))
  mujoco.mj_forward(mjm, mjd)
  assert bool(mjd.flg_subtreevel) == subtree
  assert bool(mjd.flg_rnepost) == rnepost
  assert sensor.needs_subtree_vel(m._struct) == subtree
  assert sensor.needs_rne_post(m._struct) == rnepost


# ---- leaf helpers ----


@pytest.mark.parametrize(
  "sitetype, size",
  [
    ("sphere", "0.3"),
    ("capsule", "0.2 0.3"),
    ("ellipsoid", "0.2 0.3 0.4"),
    ("cylinder", "0.25 0.3"),
    ("box", "0.2 0.3 0.4"),
  ],
)
def test_inside_geom_matches_mujoco(sitetype, size):
  xml = f"""
  <mujoco>
    <worldbody>
      <site name="zone" type="{sitetype}" size="{size}" pos="0.1 -0.2 0.3" euler="20 30 40"/>
      <body name="p"><freejoint/><geom size="0.01" contype="0" conaffinity="0"/></body>
    </worldbody>
    <sensor><insidesite site="zone" objtype="xbody" objname="p"/></sensor>
  </mujoco>"""
  mjm, mjd, m, d = oracle.load(xml)
  rng = np.random.default_rng(0)
  hits = 0
  for _ in range(300):
    mjd.qpos[:3] = np.array([0.1, -0.2, 0.3]) + rng.uniform(-0.5, 0.5, 3)
    mjd.qpos[3:] = [1, 0, 0, 0]
    mujoco.mj_kinematics(mjm, mjd)
    mujoco.mj_sensorPos(mjm, mjd)
    got = sensor.inside_geom(
      mjd.site_xpos[0], mjd.site_xmat[0], mjm.site_size[0], int(mjm.site_type[0]), mjd.xpos[1]
    )
    assert got == mjd.sensordata[0]
    hits += got
  assert 20 < hits < 280


def test_cam_project_behind_and_on_the_image_plane():
  """Points on the camera plane divide by +-mjMINVAL instead of zero, as MuJoCo does."""
  res = np.zeros(2)
  eye = np.eye(3).ravel()
  intrinsic = np.zeros(4, np.float32)
  sensorsize = np.zeros(2, np.float32)
  sensor.cam_project(
    res, np.array([0.1, 0.2, 0.0]), np.zeros(3), eye, 640.0, 480.0, 45.0, intrinsic, sensorsize
  )
  assert np.all(np.isfinite(res)) and abs(res[0]) > 1e10
  # straight ahead (-z) maps to the image center
  sensor.cam_project(
    res, np.array([0.0, 0.0, -2.0]), np.zeros(3), eye, 640.0, 480.0, 45.0, intrinsic, sensorsize
  )
  np.testing.assert_allclose(res, [320.0, 240.0])


# ---- energy ----

_SPRINGS = """
<mujoco>
  <option gravity="0.3 -0.5 -9.81"><flag energy="enable"/></option>
  <worldbody>
    <site name="a" pos="0.3 0 2"/>
    <body name="f" pos="0 0 1">
      <freejoint name="free"/>
      <geom type="box" size="0.1 0.2 0.3" contype="0" conaffinity="0"/>
      <site name="fs" pos="0.1 0 0"/>
      <body name="h" pos="0.2 0 0">
        <joint name="hinge" type="hinge" axis="0 1 0" stiffness="3 0.5 0.2" springref="0.3"
               armature="0.05"/>
        <geom type="capsule" size="0.05 0.2" contype="0" conaffinity="0"/>
        <body name="s" pos="0 0.2 0">
          <joint name="slide" type="slide" axis="1 0 0" stiffness="0 1 0" springref="-0.1"/>
          <geom type="sphere" size="0.05" pos="0.1 0 0" contype="0" conaffinity="0"/>
          <body name="b" pos="0 0 -0.2">
            <joint name="ball" type="ball" stiffness="2 0 0.7"/>
            <geom type="ellipsoid" size="0.05 0.06 0.1" pos="0 0 -0.1" contype="0"
                  conaffinity="0"/>
            <site name="bs" pos="0 0 -0.2"/>
          </body>
        </body>
      </body>
    </body>
    <body name="f2" pos="1 0 1">
      <freejoint name="free2"/>
      <geom type="sphere" size="0.1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="t1" stiffness="4 0.3 0.1" springlength="0.8 1.2">
      <site site="a"/><site site="bs"/>
    </spatial>
    <spatial name="t2" stiffness="2" springlength="0.5">
      <site site="fs"/><site site="bs"/>
    </spatial>
    <fixed name="t3" stiffness="1 0 0.4" springlength="0.1 0.2" armature="0.1">
      <joint joint="hinge" coef="1"/><joint joint="slide" coef="2"/>
    </fixed>
  </tendon>
  <sensor><e_potential/><e_kinetic/></sensor>
</mujoco>
"""


def _free2_stiffness(mjm):
  # a stiff free joint too (its springs act on position and orientation)
  mjm.jnt_stiffness[mjm.joint("free2").id] = 1.5
  mjm.jnt_stiffnesspoly[mjm.joint("free2").id] = [0.2, 0.3]
  mjm.qpos_spring[7:14] = [1.2, 0.1, 0.9, 0.8, 0.2, -0.3, 0.1]
  mjm.qpos_spring[10:14] /= np.linalg.norm(mjm.qpos_spring[10:14])


@pytest.mark.parametrize(
  "flags", [0, mujoco.mjtDisableBit.mjDSBL_GRAVITY, mujoco.mjtDisableBit.mjDSBL_SPRING]
)
@pytest.mark.parametrize("seed", range(3))
def test_energy_matches_mujoco(seed, flags):
  mjm = mujoco.MjModel.from_xml_string(_SPRINGS)
  _free2_stiffness(mjm)
  mjm.opt.disableflags |= flags
  mjd = mujoco.MjData(mjm)
  m = oracle.from_mujoco(mjm)
  d = engine.MjData(m)
  rng = np.random.default_rng(seed)
  _randomize(mjm, mjd, rng, scale=0.8)
  # unnormalized quaternions: the spring energy uses their rotation only
  mjd.qpos[3:7] *= 1.3
  mujoco.mj_forward(mjm, mjd)
  assert np.all(mjd.ten_length != mjm.tendon_lengthspring[:, 0])
  _copy_inputs(mjd, d)
  d.energy[:] = np.nan
  sensor.mj_energyPos(m, d)
  sensor.mj_energyVel(m, d)
  np.testing.assert_allclose(d.energy, mjd.energy, rtol=1e-9, atol=1e-12)
  assert mjd.energy[0] != 0 and mjd.energy[1] > 0


def test_energy_sensors_with_energy_disabled_match_mujoco():
  mjm = mujoco.MjModel.from_xml_string(_SPRINGS)
  mjm.opt.enableflags &= ~int(mujoco.mjtEnableBit.mjENBL_ENERGY)
  mjd = mujoco.MjData(mjm)
  m = oracle.from_mujoco(mjm)
  d = engine.MjData(m)
  for seed in range(2):
    _randomize(mjm, mjd, np.random.default_rng(seed), scale=0.8)
    mujoco.mj_forward(mjm, mjd)
    _copy_inputs(mjd, d)
    _run_ours(m, d)
    _close(d.sensordata, mjd.sensordata, "e_potential, e_kinetic")
    _close(d.energy, mjd.energy, "energy")


def test_kinetic_energy_sensor_is_current_where_mujoco_is_one_step_stale():
  """Intentional difference: with mjENBL_ENERGY, MuJoCo's e_kinetic (a position-stage sensor)
  reuses d.energy[1] of the previous mj_forward (its flg_energyvel is still set), while ours
  always reports the kinetic energy of the current state."""
  mjm, mjd, m, d = oracle.load(_SPRINGS)
  _randomize(mjm, mjd, np.random.default_rng(0))
  mujoco.mj_forward(mjm, mjd)
  stale = mjd.energy[1]
  mjd.qvel[:] *= 2
  mujoco.mj_forward(mjm, mjd)
  assert mjd.sensordata[1] == pytest.approx(stale)
  _copy_inputs(mjd, d)
  _run_ours(m, d)
  assert d.sensordata[1] == pytest.approx(mjd.energy[1], rel=1e-9)
  assert d.sensordata[1] == pytest.approx(4 * stale, rel=1e-9)


# ---- rangefinder ----

_RANGE = """
<mujoco>
  <asset>
    <mesh name="poly" vertex="0 0 0  1 0.2 0  0.3 1 0.1  0.2 0.3 1.2  0.9 0.8 0.7  -0.3 0.5 0.4"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <geom name="block" type="box" size="0.3 0.4 0.5" pos="2 0 0.5" euler="0 0 20"/>
    <camera name="wcam" pos="0 -3 1.5" xyaxes="1 0 0 0 0.5 1" resolution="37 4" fovy="70"/>
    <body name="mast" pos="0 0 0.5">
      <camera name="ocam" pos="0.5 -0.5 2.5" euler="10 -5 0" resolution="6 3"
              projection="orthographic" fovy="3"/>
      <site name="up"/>
      <site name="down" pos="2.1 0.1 2.5" euler="180 0 0"/>
      <camera name="icam" pos="0.5 -2.5 1.5" xyaxes="1 0.2 0 0 0.6 0.8" resolution="4 3"
              sensorsize="0.004 0.003" focal="0.002 0.0025" principalpixel="0.2 -0.3"/>
    </body>
    <body name="arm" pos="0 0 1">
      <joint name="yaw" type="hinge" axis="0 0 1"/>
      <joint name="pitch" type="hinge" axis="0 1 0"/>
      <geom name="hub" type="sphere" size="0.1"/>
      <site name="s_x" pos="0.1 0 0" euler="0 90 0"/>
      <site name="s_y" pos="0 0.1 0" euler="-90 0 0"/>
      <site name="s_z" pos="0 0 0.1"/>
      <site name="s_d" pos="0 0 -0.1" euler="180 0 0"/>
      <site name="s_o" pos="0.05 0.05 0" euler="30 60 10"/>
      <camera name="acam" pos="0 0 0.2" euler="0 30 0" resolution="3 2" fovy="90"/>
    </body>
    <body name="ball" pos="-1.5 0.5 0.8">
      <freejoint/>
      <geom name="ball" type="sphere" size="0.4"/>
    </body>
    <body name="rod" pos="0.3 1.5 0.6" euler="30 0 40">
      <joint type="slide" axis="1 0 0"/>
      <geom name="rod" type="capsule" size="0.15 0.5"/>
      <geom name="can" type="cylinder" size="0.2 0.3" pos="0 0 1"/>
      <geom name="egg" type="ellipsoid" size="0.2 0.3 0.4" pos="0.5 0 0"/>
      <geom name="poly" type="mesh" mesh="poly" pos="-0.6 0 0"/>
    </body>
  </worldbody>
  <sensor>
{sensors}
  </sensor>
</mujoco>
"""

_RAY_SITES = ("up", "down", "s_x", "s_y", "s_z", "s_d", "s_o")
_RAY_DATA = ("dist", "dist dir origin point normal depth", "normal depth", "dir point", "origin")


def _range_xml():
  s = []
  for site in _RAY_SITES:
    for data in _RAY_DATA:
      s.append(f'<rangefinder site="{site}" data="{data}"/>')
  s += [
    '<rangefinder site="s_x" cutoff="0.7"/>',
    '<rangefinder site="up" cutoff="0.2"/>',
    '<rangefinder site="s_o" data="dist point normal" cutoff="0.5"/>',
  ]
  for cam in ("wcam", "icam", "acam"):
    s += [
      f'<rangefinder camera="{cam}"/>',
      f'<rangefinder camera="{cam}" data="dist dir origin point normal depth"/>',
    ]
  s += ['<rangefinder camera="ocam" data="dist dir origin point normal depth"/>']
  return _RANGE.replace("{sensors}", "\n".join("    " + x for x in s))


def _copy_poses(mjd, d):
  for name in (
    "xpos",
    "xmat",
    "xipos",  # camera rangefinders' rays pass bodies by spheres placed at them
    "geom_xpos",
    "geom_xmat",
    "site_xpos",
    "site_xmat",
    "cam_xpos",
    "cam_xmat",
  ):
    getattr(d, name)[...] = getattr(mjd, name)


@pytest.fixture(scope="module")
def range_model():
  return oracle.load(_range_xml())


def _sensor_slice(mjm, i):
  adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
  return slice(adr, adr + dim)


@pytest.mark.parametrize("seed", range(6))
def test_rangefinder_matches_mujoco(range_model, seed):
  mjm, mjd, m, d = range_model
  rng = np.random.default_rng(seed)
  mjd.qpos[:] = mjm.qpos0 + rng.normal(size=mjm.nq) * [2, 1, 0.5, 0.5, 0.3, 1, 1, 1, 1, 0.5]
  mujoco.mju_normalize4(mjd.qpos[5:9])
  mujoco.mj_forward(mjm, mjd)
  _copy_poses(mjd, d)
  d.sensordata[:] = np.nan
  sensor.mj_sensorPos(m, d)
  ocam = mjm.camera("ocam").id
  for i in range(mjm.nsensor):
    if mjm.sensor_objtype[i] == mujoco.mjtObj.mjOBJ_CAMERA and mjm.sensor_objid[i] == ocam:
      continue
    sl = _sensor_slice(mjm, i)
    _close(d.sensordata[sl], mjd.sensordata[sl], f"sensor {i}")


def test_rangefinder_model_hits_and_misses(range_model):
  """The rangefinders above see every geom type, misses (-1), and clamped values."""
  mjm, mjd, m, d = range_model
  rng = np.random.default_rng(0)
  hit, missed, clamped = set(), 0, 0
  for seed in range(20):
    mjd.qpos[:] = mjm.qpos0 + rng.normal(size=mjm.nq) * [2, 1, 0.5, 0.5, 0.3, 1, 1, 1, 1, 0.5]
    mujoco.mju_normalize4(mjd.qpos[5:9])
    mujoco.mj_forward(mjm, mjd)
    for i in range(mjm.nsensor):
      if mjm.sensor_objtype[i] != mujoco.mjtObj.mjOBJ_SITE:
        continue
      site = mjm.sensor_objid[i]
      mat = mjd.site_xmat[site]
      gid = np.zeros(1, np.int32)
      dist = mujoco.mj_ray(
        mjm, mjd, mjd.site_xpos[site], mat[2::3].copy(), None, 1, mjm.site_bodyid[site], gid
      )
      hit.add(int(mjm.geom_type[gid[0]]) if dist >= 0 else -1)
      missed += dist < 0
      clamped += (
        mjm.sensor_cutoff[i] > 0 and abs(mjd.sensordata[mjm.sensor_adr[i]]) == mjm.sensor_cutoff[i]
      )
  assert hit >= {-1, 0, 2, 3, 4, 5, 6, 7} and missed > 5 and clamped > 2


@pytest.mark.parametrize("seed", range(2))
def test_orthographic_camera_rangefinder_matches_mujoco(range_model, seed):
  """sensor.rangefinder on an orthographic camera (cam_projection) matches MuJoCo."""
  mjm, mjd, m, d = range_model
  rng = np.random.default_rng(10 + seed)
  mjd.qpos[:] = mjm.qpos0 + rng.normal(size=mjm.nq) * 0.3
  mujoco.mju_normalize4(mjd.qpos[5:9])
  mujoco.mj_forward(mjm, mjd)
  _copy_poses(mjd, d)
  ocam = mjm.camera("ocam").id
  assert mjm.cam_projection[ocam] == mujoco.mjtProjection.mjPROJ_ORTHOGRAPHIC
  i = np.nonzero((mjm.sensor_objtype == mujoco.mjtObj.mjOBJ_CAMERA) & (mjm.sensor_objid == ocam))[
    0
  ][0]
  out = np.full(mjm.sensor_dim[i], np.nan)
  sensor.rangefinder(m._struct, d._struct, i, out)
  want = mjd.sensordata[_sensor_slice(mjm, i)]
  _close(out, want, "orthographic rangefinder")
  assert np.sum(want.reshape(-1, 14)[:, 0] >= 0) >= 6


def test_rangefinder_skips_invisible_geoms():
  """As MuJoCo's rangefinder (mj_ray's visibility test), geoms with alpha 0 are not hit."""
  xml = """
  <mujoco>
    <worldbody>
      <site name="s" pos="0 0 0"/>
      <body pos="0 0 1"><geom type="sphere" size="0.2" rgba="1 1 1 0"/></body>
      <body pos="0 0 3"><geom type="sphere" size="0.2"/></body>
    </worldbody>
    <sensor><rangefinder site="s"/></sensor>
  </mujoco>"""
  mjm, mjd, m, d = oracle.load(xml)
  mujoco.mj_forward(mjm, mjd)
  _copy_poses(mjd, d)
  sensor.mj_sensorPos(m, d)
  assert mjd.sensordata[0] == pytest.approx(2.8)
  assert d.sensordata[0] == pytest.approx(2.8)


# ---- touch ----

_TOUCH = """
<mujoco>
  <option timestep="0.002" cone="{cone}"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" condim="{condim}"/>
    <site name="floorzone" type="box" size="0.5 0.5 0.05" pos="0 0 0"/>
    <body name="box" pos="0 0 0.11" euler="0 0 15">
      <freejoint/>
      <geom type="box" size="0.2 0.15 0.1" condim="{condim}"/>
      <site name="whole" type="box" size="0.25 0.2 0.15"/>
      <site name="corner" type="sphere" size="0.08" pos="0.2 0.15 -0.1"/>
      <site name="top" type="box" size="0.2 0.15 0.02" pos="0 0 0.1"/>
      <site name="under" type="cylinder" size="0.1 0.01" pos="0 0 -0.13"/>
    </body>
    <body name="ball" pos="1 0 0.11">
      <freejoint/>
      <geom type="sphere" size="0.1" condim="{condim}"/>
      <site name="cap" type="capsule" size="0.05 0.02" pos="0 0 -0.15"/>
      <site name="egg" type="ellipsoid" size="0.04 0.05 0.03" pos="0 0 0.15"/>
    </body>
    <body name="pill" pos="-1 0 0.1" euler="0 80 0">
      <freejoint/>
      <geom type="capsule" size="0.05 0.2" condim="{condim}"/>
      <site name="pillall" type="sphere" size="0.3"/>
      <site name="pillend" type="sphere" size="0.08" pos="0 0 0.2"/>
    </body>
    <body name="stack" pos="0.02 0.01 0.32">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1" condim="{condim}"/>
      <site name="stackall" type="box" size="0.12 0.12 0.12"/>
    </body>
  </worldbody>
  <sensor>
    <touch site="floorzone"/>
    <touch site="whole"/>
    <touch site="corner"/>
    <touch site="top"/>
    <touch site="under"/>
    <touch site="cap"/>
    <touch site="egg"/>
    <touch site="pillall"/>
    <touch site="pillend"/>
    <touch site="stackall"/>
    <touch site="whole" cutoff="1"/>
  </sensor>
</mujoco>
"""


def _settled(cone, condim, nstep):
  mjm, mjd, m, d = oracle.load(_TOUCH.format(cone=cone, condim=condim))
  for _ in range(nstep):
    mujoco.mj_step(mjm, mjd)
  mujoco.mj_forward(mjm, mjd)
  return mjm, mjd, m, d


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("condim", [1, 3, 4, 6])
@pytest.mark.parametrize("nstep", [40, 300])
def test_touch_matches_mujoco(cone, condim, nstep):
  """Touch sensors on bodies falling onto and resting on a floor (and on each other), with
  MuJoCo's contacts and constraint forces copied in."""
  mjm, mjd, m, d = _settled(cone, condim, nstep)
  assert mjd.ncon >= 6
  _copy_poses(mjd, d)
  oracle.copy_contacts(mjd, d)
  oracle.copy_constraints(mjd, d)
  d.sensordata[:] = np.nan
  sensor.mj_sensorAcc(m, d)
  _close(d.sensordata, mjd.sensordata, "touch")


def test_touch_sees_partial_zones():
  """The resting model has sensors that see all, part and none of their body's contacts."""
  mjm, mjd, m, d = _settled("pyramidal", 3, 300)
  s = {
    mjm.sensor(i).name or mjm.site(mjm.sensor_objid[i]).name: mjd.sensordata[i]
    for i in range(mjm.nsensor - 1)
  }
  assert s["whole"] > s["corner"] > 0 and s["top"] > 0 and s["floorzone"] > 0
  assert s["pillall"] > s["pillend"] > 0 and s["cap"] > 0
  # the ray from the contact point leaves the sensor's body: zones beside or behind miss
  assert s["under"] == 0 and s["egg"] == 0
  assert mjd.sensordata[-1] == 1
  # MuJoCo counts a contact only while it has constraint rows
  mjd.contact.efc_address[:] = -1
  mujoco.mj_sensorAcc(mjm, mjd)
  assert np.all(mjd.sensordata == 0)


# ---- joint and tendon limits ----

_LIMITS = """
<mujoco>
  <worldbody>
    <body name="a">
      <joint name="j1" type="hinge" axis="0 1 0" range="-30 30" margin="0.05"/>
      <geom type="capsule" size="0.05 0.2" pos="0 0 -0.2" contype="0" conaffinity="0"/>
      <site name="sa" pos="0 0 -0.4"/>
      <body name="b" pos="0 0 -0.4">
        <joint name="j2" type="slide" axis="1 0 0" range="-0.1 0.2"/>
        <joint name="j3" type="hinge" axis="1 0 0" range="-10 40" margin="0.1"/>
        <geom type="sphere" size="0.05" contype="0" conaffinity="0"/>
        <site name="sb" pos="0.1 0 0"/>
      </body>
    </body>
    <site name="w" pos="0.3 0 0"/>
  </worldbody>
  <tendon>
    <fixed name="t1" range="-0.3 0.2" margin="0.02">
      <joint joint="j1" coef="1"/>
      <joint joint="j2" coef="-2"/>
    </fixed>
    <spatial name="t2" range="0.1 0.45" margin="0.01">
      <site site="w"/><site site="sb"/>
    </spatial>
  </tendon>
  <sensor>
    <jointlimitpos joint="j1"/><jointlimitvel joint="j1"/><jointlimitfrc joint="j1"/>
    <jointlimitpos joint="j2"/><jointlimitvel joint="j2"/><jointlimitfrc joint="j2"/>
    <jointlimitpos joint="j3"/><jointlimitvel joint="j3"/><jointlimitfrc joint="j3"/>
    <tendonlimitpos tendon="t1"/><tendonlimitvel tendon="t1"/><tendonlimitfrc tendon="t1"/>
    <tendonlimitpos tendon="t2"/><tendonlimitvel tendon="t2"/><tendonlimitfrc tendon="t2"/>
    <jointlimitfrc joint="j1" cutoff="0.01"/>
  </sensor>
</mujoco>
"""


@pytest.mark.parametrize("seed", range(8))
def test_limit_sensors_match_mujoco(seed):
  mjm, mjd, m, d = oracle.load(_LIMITS)
  rng = np.random.default_rng(seed)
  mjd.qpos[:] = rng.uniform(-1, 1, mjm.nq) * [0.8, 0.3, 0.9]
  mjd.qvel[:] = rng.normal(size=mjm.nv)
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_constraints(mjd, d)
  d.sensordata[:] = np.nan
  sensor.mj_sensorPos(m, d)
  sensor.mj_sensorVel(m, d)
  sensor.mj_sensorAcc(m, d)
  _close(d.sensordata, mjd.sensordata, "limit sensors")


def test_limit_sensor_model_has_active_and_inactive_limits():
  mjm, mjd, m, d = oracle.load(_LIMITS)
  active, inactive = set(), set()
  for seed in range(8):
    rng = np.random.default_rng(seed)
    mjd.qpos[:] = rng.uniform(-1, 1, mjm.nq) * [0.8, 0.3, 0.9]
    mjd.qvel[:] = rng.normal(size=mjm.nv)
    mujoco.mj_forward(mjm, mjd)
    rows = {(int(t), int(i)) for t, i in zip(mjd.efc_type, mjd.efc_id)}
    for k, key in enumerate([(3, 0), (3, 1), (3, 2), (4, 0), (4, 1)]):
      (active if key in rows else inactive).add(k)
      if key not in rows:
        assert np.all(mjd.sensordata[3 * k : 3 * k + 3] == 0)
  assert active == inactive == set(range(5))


def test_rangefinder_through_our_compiler_and_forward():
  """Compiled by our MJCF compiler and run by engine.mj_forward, the rangefinders (except the
  orthographic camera's, see above) match MuJoCo's."""
  xml = _range_xml().replace("<geom ", '<geom contype="0" conaffinity="0" ')
  mjm = mujoco.MjModel.from_xml_string(xml)
  mjd = mujoco.MjData(mjm)
  m = engine.MjModel.from_xml_string(xml)
  d = engine.MjData(m)
  np.testing.assert_array_equal(m.sensor_intprm, mjm.sensor_intprm)
  np.testing.assert_array_equal(m.sensor_dim, mjm.sensor_dim)
  rng = np.random.default_rng(1)
  mjd.qpos[:] = mjm.qpos0 + rng.normal(size=mjm.nq) * 0.5
  mujoco.mju_normalize4(mjd.qpos[5:9])
  d.qpos[:] = mjd.qpos
  mujoco.mj_forward(mjm, mjd)
  engine.mj_forward(m, d)
  ocam = mjm.camera("ocam").id
  for i in range(mjm.nsensor):
    if mjm.sensor_objtype[i] == mujoco.mjtObj.mjOBJ_CAMERA and mjm.sensor_objid[i] == ocam:
      continue
    sl = _sensor_slice(mjm, i)
    _close(d.sensordata[sl], mjd.sensordata[sl], f"sensor {i}")
