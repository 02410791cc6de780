"""Oracle tests of engine/passive.py against MuJoCo's mj_passive.

Each test puts MuJoCo in a random state, runs mj_forward there, copies MuJoCo's state and
every intermediate quantity into our data, fills the outputs with NaN and runs only our
passive stage; qfrc_spring/damper/gravcomp/fluid/passive must match at 1e-8 relative.
"""

import ctypes
import pathlib
import re

import mujoco
import numpy as np
import pytest

import engine
from engine import passive
from tests import jitted
from tests import oracle
from tests import trees

passive = jitted.module(passive)

OUTPUTS = ("qfrc_spring", "qfrc_damper", "qfrc_gravcomp", "qfrc_fluid", "qfrc_passive")


def random_state(mjm, mjd, rng, vscale=1.0):
  """Random qpos (limits respected, unit quaternions), qvel, ctrl and act in MuJoCo's data."""
  mjd.qpos[:] = mjm.qpos0 + rng.uniform(-1, 1, mjm.nq)
  for j in range(mjm.njnt):
    adr = mjm.jnt_qposadr[j]
    jtype = mjm.jnt_type[j]
    if jtype == mujoco.mjtJoint.mjJNT_FREE:
      adr += 3
    if jtype in (mujoco.mjtJoint.mjJNT_FREE, mujoco.mjtJoint.mjJNT_BALL):
      mjd.qpos[adr : adr + 4] = rng.normal(size=4)
      mujoco.mju_normalize4(mjd.qpos[adr : adr + 4])
    elif mjm.jnt_limited[j]:
      mjd.qpos[adr] = rng.uniform(*mjm.jnt_range[j])
  mjd.qvel[:] = vscale * rng.normal(size=mjm.nv)
  mjd.ctrl[:] = rng.normal(size=mjm.nu)
  mjd.act[:] = rng.normal(size=mjm.na)


def assert_close(name, ours, theirs, rtol=1e-8):
  """Max error within rtol times the norm of MuJoCo's field."""
  err = np.max(np.abs(ours - theirs), initial=0.0)
  assert err <= rtol * np.linalg.norm(theirs) + 1e-14, f"{name}: error {err:g}"


def set_opt(mjm, m, **values):
  """Sets the same option values in both models."""
  for name, value in values.items():
    setattr(mjm.opt, name, value)
    if np.isscalar(value):
      setattr(m.opt, name, value)
    else:
      getattr(m.opt, name)[:] = value


def check_passive(mjm, mjd, m, d, seed=0, nstate=4, vscale=1.0):
  """Random states: our passive stage reproduces MuJoCo's passive forces."""
  rng = np.random.default_rng(seed)
  for _ in range(nstate):
    random_state(mjm, mjd, rng, vscale)
    mujoco.mj_forward(mjm, mjd)
    oracle.copy_data(mjd, d)
    for name in OUTPUTS:
      getattr(d, name)[:] = np.nan
    passive.mj_passive(m, d)
    for name in OUTPUTS:
      assert_close(name, getattr(d, name), getattr(mjd, name))
    assert np.all(d.qfrc_adhesion == 0)


JOINTS = """
<mujoco>
  <worldbody>
    <body pos="0 0 1">
      <joint type="free" stiffness="2 3 4" damping="0.5 0.2 0.1"/>
      <geom type="box" size=".1 .2 .3"/>
      <body pos="0 0 .5">
        <joint type="ball" stiffness="1 .5 .2" damping=".3 .1 .1" springref="20"/>
        <geom type="capsule" size=".05 .2"/>
        <body pos="0 .3 0">
          <joint name="h" type="hinge" axis="0 1 0" stiffness="1 2 3" springref="17"
                 damping="1 .2 .1"/>
          <joint name="s" type="slide" axis="1 1 0" stiffness="5" springref=".1" damping="2"/>
          <geom type="cylinder" size=".05 .1"/>
          <body pos=".2 0 0">
            <joint type="hinge" axis="1 0 0" stiffness="0 0 4" damping="0 1.5 0"/>
            <joint type="slide" axis="0 0 1" damping="0 0 .7"/>
            <geom type="sphere" size=".05"/>
          </body>
        </body>
      </body>
    </body>
    <body pos="1 0 0">
      <freejoint/>
      <geom type="sphere" size=".1"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_joint_springs_and_dampers():
  mjm, mjd, m, d = oracle.load(JOINTS)
  assert np.any(mjm.jnt_stiffnesspoly) and np.any(mjm.dof_dampingpoly)
  check_passive(mjm, mjd, m, d, seed=1, nstate=6, vscale=3.0)


def test_free_and_ball_springs_with_nonunit_quaternions():
  mjm, mjd, m, d = oracle.load(JOINTS)
  rng = np.random.default_rng(2)
  random_state(mjm, mjd, rng)
  mjd.qpos[3:7] *= 1.7
  mjd.qpos[7:11] *= 0.4
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_data(mjd, d)
  passive.mj_passive(m, d)
  assert_close("qfrc_spring", d.qfrc_spring, mjd.qfrc_spring)


TENDONS = """
<mujoco>
  <worldbody>
    <site name="anchor" pos="0 0 .5"/>
    <body>
      <joint name="a" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .4 0 0" size=".03"/>
      <body pos=".4 0 0">
        <joint name="b" axis="0 1 0"/>
        <joint name="c" type="slide" axis="1 0 0"/>
        <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
        <site name="tip" pos=".3 0 0"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="deadband" stiffness="3" springlength="-.2 .3" damping=".4">
      <joint joint="a" coef="1"/><joint joint="b" coef="-.5"/>
    </fixed>
    <fixed name="poly" stiffness="2 1 .5" springlength=".1" damping="0 .3 .2">
      <joint joint="b" coef="1"/><joint joint="c" coef="2"/>
    </fixed>
    <spatial name="spatial" stiffness="10" springlength=".2 .4" damping="1 .5 0">
      <site site="anchor"/><site site="tip"/>
    </spatial>
    <fixed name="actuated">
      <joint joint="a" coef=".3"/><joint joint="c" coef="1"/>
    </fixed>
  </tendon>
  <actuator>
    <motor tendon="actuated" gear="2" damping=".5 .1 .2"/>
    <motor tendon="spatial" damping="2" gear="1.5"/>
    <position tendon="spatial" kp="3" damping="1 .5"/>
    <motor joint="a" gear="3" damping="1.5 0 .3"/>
    <velocity joint="b" kv="1" damping=".7"/>
    <velocity joint="b" kv="1" damping=".2 .1"/>
  </actuator>
</mujoco>
"""


def test_tendon_springs_dead_band_and_actuator_damping():
  mjm, mjd, m, d = oracle.load(TENDONS)
  # one actuator per object, several (scan), and none
  assert mjm.jnt_actuatorid[0] >= 0 and mjm.jnt_actuatorid[1] < -1
  assert mjm.tendon_actuatorid[2] < -1 and mjm.tendon_actuatorid[3] >= 0
  rng = np.random.default_rng(3)
  inside = outside = 0
  for _ in range(12):
    random_state(mjm, mjd, rng, vscale=2.0)
    mujoco.mj_forward(mjm, mjd)
    ten0 = mjd.ten_length[0]
    inside += -0.2 <= ten0 <= 0.3
    outside += not -0.2 <= ten0 <= 0.3
    oracle.copy_data(mjd, d)
    for name in OUTPUTS:
      getattr(d, name)[:] = np.nan
    passive.mj_passive(m, d)
    for name in OUTPUTS:
      assert_close(name, getattr(d, name), getattr(mjd, name))
  assert inside and outside


GRAVCOMP = """
<mujoco>
  <option gravity="1 -2 -9.81"/>
  <worldbody>
    <body gravcomp="1">
      <joint type="ball"/>
      <geom size=".1" pos=".2 0 0"/>
      <body pos=".3 0 0" gravcomp=".5">
        <joint name="h" axis="0 1 0" actuatorgravcomp="true"/>
        <joint name="s" type="slide" axis="0 0 1"/>
        <geom size=".05" pos=".1 0 0"/>
        <body pos=".2 0 0" gravcomp="2">
          <joint axis="1 0 0" actuatorgravcomp="true"/>
          <geom type="box" size=".1 .05 .02"/>
        </body>
      </body>
    </body>
    <body pos="1 0 0" gravcomp=".3">
      <joint type="free" actuatorgravcomp="true"/>
      <geom type="box" size=".1 .2 .3"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_gravity_compensation():
  mjm, mjd, m, d = oracle.load(GRAVCOMP)
  check_passive(mjm, mjd, m, d, seed=4)
  # part is routed to actuators: qfrc_passive lacks it there
  assert np.any(d.qfrc_gravcomp != d.qfrc_passive)


FLUID = """
<mujoco>
  <option density="1000" viscosity=".05" wind="2 -1 .5"/>
  <worldbody>
    <body pos="0 0 1">
      <freejoint/>
      <geom type="box" size=".1 .2 .05"/>
      <geom type="sphere" size=".05" pos="0 .3 0"/>
      <body pos=".3 0 0">
        <joint type="ball"/>
        <geom type="ellipsoid" size=".1 .05 .02" fluidshape="ellipsoid"/>
        <geom type="capsule" size=".02 .1" pos="0 0 .1" fluidshape="ellipsoid"
              fluidcoef=".4 .3 1.2 .8 .5"/>
        <geom type="box" size=".02 .02 .02" pos=".1 0 0"/>
        <body pos=".2 0 0">
          <joint axis="0 1 0"/>
          <joint type="slide" axis="1 0 0"/>
          <geom type="cylinder" size=".03 .1" fluidshape="ellipsoid"/>
          <geom type="sphere" size=".04" pos=".1 0 0" fluidshape="ellipsoid" fluidcoef="1 0 2 3 1"/>
          <body pos=".2 0 0">
            <body>
              <joint axis="1 0 0"/>
              <geom type="capsule" size=".02 .1" mass=".3"/>
            </body>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize(
  "density, viscosity, wind",
  [(1000, 0.05, (2, -1, 0.5)), (1.2, 0, (0, 0, 0)), (0, 2.0, (1, 1, 1)), (0, 0, (3, 0, 0))],
)
def test_fluid_inertia_box_and_ellipsoid(density, viscosity, wind):
  mjm, mjd, m, d = oracle.load(FLUID)
  set_opt(mjm, m, density=density, viscosity=viscosity, wind=np.array(wind, float))
  check_passive(mjm, mjd, m, d, seed=5, vscale=2.0)
  if density or viscosity:
    assert np.any(d.qfrc_fluid != 0)


@pytest.mark.parametrize(
  "flags",
  [
    mujoco.mjtDisableBit.mjDSBL_SPRING,
    mujoco.mjtDisableBit.mjDSBL_DAMPER,
    mujoco.mjtDisableBit.mjDSBL_SPRING | mujoco.mjtDisableBit.mjDSBL_DAMPER,
    mujoco.mjtDisableBit.mjDSBL_GRAVITY,
  ],
)
def test_disable_flags(flags):
  xml = GRAVCOMP.replace(
    '<joint type="ball"/>', '<joint type="ball" stiffness="2" damping="1 .2"/>'
  )
  xml = xml.replace(
    '<option gravity="1 -2 -9.81"/>', '<option gravity="1 -2 -9.81" density="1.2" viscosity=".1"/>'
  )
  mjm, mjd, m, d = oracle.load(xml)
  set_opt(mjm, m, disableflags=int(flags))
  check_passive(mjm, mjd, m, d, seed=6)


def test_random_trees_with_every_passive_force():
  rng = np.random.default_rng(7)
  for seed in range(4):
    xml = trees.random_tree_xml(seed, nbody=8)
    # gravcomp on some bodies, fluid options, ellipsoid model on some geoms
    xml = re.sub(r'(<body name="b\d*[13579]")', r'\1 gravcomp="0.6"', xml)
    xml = xml.replace('<geom type="capsule"', '<geom fluidshape="ellipsoid" type="capsule"')
    xml = xml.replace("<mujoco>", '<mujoco><option density="800" viscosity=".2" wind="1 2 3"/>')
    mjm, mjd, m, d = oracle.load(xml)
    # random (polynomial) stiffness and damping on every joint
    mjm.jnt_stiffness[:] = rng.uniform(0, 3, mjm.njnt)
    mjm.jnt_stiffnesspoly[:] = rng.uniform(-1, 1, (mjm.njnt, 2))
    mjm.dof_damping[:] = rng.uniform(0, 2, mjm.nv)
    mjm.dof_dampingpoly[:] = rng.uniform(0, 1, (mjm.nv, 2))
    m = oracle.from_mujoco(mjm)
    d = engine.MjData(m)
    check_passive(mjm, mjd, m, d, seed=seed, nstate=3)


def _libmujoco():
  """libmujoco through ctypes, for functions the bindings do not expose."""
  lib = ctypes.CDLL(str(next(pathlib.Path(mujoco.__file__).parent.glob("libmujoco.so*"))))
  for f in (lib.mju_polyForce, lib.mjd_xPolyForce):
    f.restype = ctypes.c_double
    f.argtypes = [
      ctypes.c_double,
      ctypes.POINTER(ctypes.c_double),
      ctypes.c_double,
      ctypes.c_int,
      ctypes.c_int,
    ]
  return lib


def test_poly_force_and_derivative_match_libmujoco():
  lib = _libmujoco()
  rng = np.random.default_rng(8)
  for _ in range(50):
    linear, x = rng.normal(), 3 * rng.normal()
    poly = rng.normal(size=2)
    cpoly = (ctypes.c_double * 2)(*poly)
    for odd in (0, 1):
      assert passive.poly_force(linear, poly, x, odd) == lib.mju_polyForce(linear, cpoly, x, 2, odd)
      assert passive.poly_force_deriv(linear, poly, x, odd) == lib.mjd_xPolyForce(
        linear, cpoly, x, 2, odd
      )
