"""Oracle tests of engine/actuation.py against MuJoCo's mj_fwdActuation.

MuJoCo runs mj_forward from a random state; its state and intermediate results (actuator
lengths, velocities, sparse moments, qfrc_gravcomp, ...) are copied into our data, the
outputs are filled with NaN and only our actuation stage runs. actuator_force, act_dot and
qfrc_actuator must match at 1e-8 relative.
"""

import ctypes
import pathlib

import mujoco
import numpy as np
import pytest

from engine import actuation
from engine.enums import mjOBJ_JOINT
from engine.enums import mjOBJ_TENDON
from tests import jitted
from tests import oracle
from tests import trees
from tests.engine.test_passive import assert_close
from tests.engine.test_passive import random_state
from tests.engine.test_passive import set_opt

actuation = jitted.module(actuation)

OUTPUTS = ("actuator_force", "act_dot", "qfrc_actuator")

ACTUATORS = """
<mujoco>
  <option timestep=".005"/>
  <worldbody>
    <site name="ref" pos="0 0 .5"/>
    <body name="base" pos="0 0 1" gravcomp=".5">
      <joint name="ball" type="ball" actuatorfrclimited="true" actuatorfrcrange="-.5 .5"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <site name="s0" pos=".3 0 0"/>
      <body name="arm" pos=".3 0 0" gravcomp="1">
        <joint name="h1" axis="0 1 0" range="-1 1" actuatorgravcomp="true"/>
        <joint name="h2" axis="0 0 1" actuatorfrclimited="true" actuatorfrcrange="-1 2"/>
        <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
        <site name="s1" pos=".3 0 0"/>
        <body name="hand" pos=".3 0 0">
          <joint name="sl" type="slide" axis="1 0 0" range="-.1 .1"/>
          <joint name="h3" axis="1 0 0"/>
          <geom type="box" size=".05 .03 .02"/>
          <site name="s2" pos=".05 0 0"/>
        </body>
      </body>
    </body>
    <body name="crank" pos="1 0 0">
      <joint name="cj" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .2 0 0" size=".02"/>
      <site name="crankpin" pos=".2 0 0"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="t1" actuatorfrclimited="true" actuatorfrcrange="-1.5 1">
      <joint joint="h1" coef="1"/><joint joint="h2" coef="-.5"/>
    </fixed>
    <spatial name="t2">
      <site site="s0"/><site site="s2"/>
    </spatial>
  </tendon>
  <actuator>
    <motor name="motor" joint="h1" gear="2" ctrllimited="true" ctrlrange="-1 1"/>
    <motor name="unlimited" joint="h3" gear="1.5"/>
    <position name="pos" joint="h2" kp="10" kv="2" forcelimited="true" forcerange="-3 3"/>
    <position name="dampratio" joint="sl" kp="30" dampratio="1"/>
    <position name="ballpos" joint="ball" kp="4" gear="0 0 1"/>
    <position name="sitepos" site="s1" refsite="ref" kp="3" gear="0 0 0 0 1 0"/>
    <velocity name="vel" joint="h3" kv="3"/>
    <intvelocity name="intvel" joint="h1" kp="5" actrange="-1 1"/>
    <intvelocity name="intvelball" joint="ball" kp="2" gear="1 0 0" actrange="-10 10"/>
    <damper name="damper" joint="h2" kv="2" ctrlrange="0 1"/>
    <cylinder name="cylinder" tendon="t2" area=".2" timeconst=".1" bias="1 -2 -.5"/>
    <muscle name="muscle" tendon="t2"/>
    <muscle name="muscle2" tendon="t1" force="50" lengthrange="-1 1" timeconst=".02 .05"
            tausmooth=".3"/>
    <adhesion name="adhesion" body="hand" ctrlrange="0 1" gain="5"/>
    <motor name="t1a" tendon="t1" gear="2"/>
    <motor name="t1b" tendon="t1" gear="-1"/>
    <general name="integrator" joint="h3" dyntype="integrator" gaintype="affine"
             gainprm="1 .5 -.2" biastype="affine" biasprm=".1 -1 -.3" actlimited="true"
             actrange="-.5 .5" actearly="true"/>
    <general name="filter" joint="sl" dyntype="filter" dynprm=".05" actearly="true"/>
    <general name="filterexact" jointinparent="h2" dyntype="filterexact" dynprm=".02"
             actearly="true" actlimited="true" actrange="-.2 .3"/>
    <general name="filterexact2" joint="h1" dyntype="filterexact" dynprm=".03"/>
    <general name="musclegen" tendon="t2" dyntype="muscle" dynprm=".01 .04 .1"
             gaintype="muscle" gainprm=".75 1.05 -1 200 .5 1.6 1.5 1.3 1.2"
             biastype="muscle" biasprm=".75 1.05 -1 200 .5 1.6 1.5 1.3 1.2"
             lengthrange=".1 .8" actearly="true"/>
    <general name="user" joint="h1" dyntype="user" gaintype="user" biastype="user"/>
    <general name="crank" cranksite="crankpin" slidersite="s2" cranklength=".3"
             gainprm="2" biastype="affine" biasprm="0 1 .1"/>
    <general name="site6d" site="s2" gear="1 0 0 0 1 0" gainprm="3"/>
  </actuator>
</mujoco>
"""


def check_actuation(mjm, mjd, m, d, seed=0, nstate=4, ctrl_scale=2.0):
  """Random states: our actuation stage reproduces MuJoCo's actuator outputs."""
  rng = np.random.default_rng(seed)
  for _ in range(nstate):
    random_state(mjm, mjd, rng)
    mjd.ctrl[:] = ctrl_scale * rng.normal(size=mjm.nu)
    mujoco.mj_forward(mjm, mjd)
    oracle.copy_data(mjd, d)
    for name in OUTPUTS:
      getattr(d, name)[:] = np.nan
    actuation.mj_fwdActuation(m, d)
    for name in OUTPUTS:
      assert_close(name, getattr(d, name), getattr(mjd, name))


def test_every_actuator_type():
  mjm, mjd, m, d = oracle.load(ACTUATORS)
  check_actuation(mjm, mjd, m, d, seed=1, nstate=8)


def test_clamping_and_limits_are_active():
  mjm, mjd, m, d = oracle.load(ACTUATORS)
  rng = np.random.default_rng(2)
  random_state(mjm, mjd, rng)
  mjd.ctrl[:] = 50.0
  mjd.act[:] = 5.0
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_data(mjd, d)
  actuation.mj_fwdActuation(m, d)
  for name in OUTPUTS:
    assert_close(name, getattr(d, name), getattr(mjd, name))
  # ctrl and force limits clamp; an unlimited ctrl does not
  motor = mjm.actuator("motor").id
  assert d.actuator_force[motor] == 1.0
  assert d.actuator_force[mjm.actuator("unlimited").id] == 50.0
  assert abs(d.actuator_force[mjm.actuator("pos").id]) == 3.0
  # tendon actuators scaled so their total is within the tendon's range
  t1 = d.actuator_force[mjm.actuator("t1a").id] + d.actuator_force[mjm.actuator("t1b").id]
  t1 += d.actuator_force[mjm.actuator("muscle2").id]
  assert -1.5 - 1e-12 <= t1 <= 1 + 1e-12


def test_rotational_setpoints_wrap():
  mjm, mjd, m, d = oracle.load(ACTUATORS)
  for name in ("ballpos", "sitepos", "intvelball"):
    assert actuation.wrap_period(m._struct, mjm.actuator(name).id) > 0
  assert actuation.wrap_period(m._struct, mjm.actuator("pos").id) == 0
  rng = np.random.default_rng(3)
  for _ in range(4):
    random_state(mjm, mjd, rng)
    mjd.ctrl[:] = rng.uniform(-20, 20, mjm.nu)
    mjd.act[:] = rng.uniform(-20, 20, mjm.na)
    mujoco.mj_forward(mjm, mjd)
    oracle.copy_data(mjd, d)
    actuation.mj_fwdActuation(m, d)
    for name in OUTPUTS:
      assert_close(name, getattr(d, name), getattr(mjd, name))


@pytest.mark.parametrize(
  "flags",
  [
    mujoco.mjtDisableBit.mjDSBL_CLAMPCTRL,
    mujoco.mjtDisableBit.mjDSBL_GRAVITY,
    mujoco.mjtDisableBit.mjDSBL_SPRING | mujoco.mjtDisableBit.mjDSBL_DAMPER,
  ],
)
def test_disable_flags(flags):
  mjm, mjd, m, d = oracle.load(ACTUATORS)
  set_opt(mjm, m, disableflags=int(flags))
  check_actuation(mjm, mjd, m, d, seed=4, nstate=2, ctrl_scale=5.0)


def test_disable_actuation():
  mjm, mjd, m, d = oracle.load(ACTUATORS)
  set_opt(mjm, m, disableflags=int(mujoco.mjtDisableBit.mjDSBL_ACTUATION))
  random_state(mjm, mjd, np.random.default_rng(5))
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_data(mjd, d)
  d.actuator_force[:] = np.nan
  d.qfrc_actuator[:] = np.nan
  actuation.mj_fwdActuation(m, d)
  assert np.all(d.actuator_force == 0) and np.all(d.qfrc_actuator == 0)
  np.testing.assert_array_equal(d.act_dot, mjd.act_dot)


def test_disabled_actuator_groups():
  xml = ACTUATORS.replace('<motor name="motor"', '<motor name="motor" group="2"')
  xml = xml.replace('<intvelocity name="intvel"', '<intvelocity name="intvel" group="3"')
  xml = xml.replace('<general name="filter"', '<general name="filter" group="2"')
  mjm, mjd, m, d = oracle.load(xml)
  set_opt(mjm, m, disableactuator=(1 << 2) | (1 << 3))
  for name in ("motor", "intvel", "filter"):
    assert actuation.actuator_disabled(m._struct, mjm.actuator(name).id)
  assert not actuation.actuator_disabled(m._struct, mjm.actuator("pos").id)
  check_actuation(mjm, mjd, m, d, seed=6, nstate=3)
  assert d.actuator_force[mjm.actuator("motor").id] == 0


def test_bad_control_zeroes_all_controls_with_a_warning():
  mjm, mjd, m, d = oracle.load(ACTUATORS)
  random_state(mjm, mjd, np.random.default_rng(7))
  mjd.ctrl[:] = 0.7
  mjd.ctrl[mjm.actuator("vel").id] = np.nan
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_data(mjd, d)
  actuation.mj_fwdActuation(m, d)
  for name in OUTPUTS:
    assert_close(name, getattr(d, name), getattr(mjd, name))
  warn = mujoco.mjtWarning.mjWARN_BADCTRL
  assert d.warning[warn].number == mjd.warning[warn].number == 1
  assert d.warning[warn].lastinfo == mjd.warning[warn].lastinfo == mjm.actuator("vel").id


def test_actuator_damping_and_armature_match_libmujoco():
  lib = ctypes.CDLL(str(next(pathlib.Path(mujoco.__file__).parent.glob("libmujoco.so*"))))
  lib.mj_actuatorDamping.restype = ctypes.c_double
  lib.mj_actuatorDamping.argtypes = [
    ctypes.c_void_p,
    ctypes.c_int,
    ctypes.c_int,
    ctypes.POINTER(ctypes.c_double),
  ]
  lib.mj_actuatorArmature.restype = ctypes.c_double
  lib.mj_actuatorArmature.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
  xml = """<mujoco><worldbody><body><joint name="a"/><joint name="b" type="slide"/>
    <joint name="c"/><geom size=".1"/></body></worldbody>
    <tendon><fixed name="t"><joint joint="a" coef="1"/></fixed>
    <fixed name="u"><joint joint="b" coef="1"/></fixed></tendon>
    <actuator><motor joint="a" gear="3" damping="2 .5 .1" armature=".3"/>
    <motor joint="b" gear="2" damping="1 .2" armature=".1"/>
    <position jointinparent="b" kp="2" gear="-1.5" damping=".5 0 .3" armature=".2"/>
    <motor tendon="t" gear="1.5" damping="3" armature="1"/>
    <motor tendon="u" damping=".5 1"/><motor tendon="u" gear="4" armature="2"/></actuator>
    </mujoco>"""
  mjm, _, m, _ = oracle.load(xml)
  for objtype, n in ((mjOBJ_JOINT, mjm.njnt), (mjOBJ_TENDON, mjm.ntendon)):
    for i in range(n):
      poly = np.array([0.1, -0.2])
      cpoly = (ctypes.c_double * 2)(*poly)
      ours = actuation.actuator_damping(m._struct, objtype, i, poly)
      assert ours == lib.mj_actuatorDamping(mjm._address, objtype, i, cpoly)
      np.testing.assert_array_equal(poly, np.array(cpoly))
      armature = actuation.actuator_armature(m._struct, objtype, i)
      assert armature == lib.mj_actuatorArmature(mjm._address, objtype, i)


def test_random_trees_with_actuators():
  rng = np.random.default_rng(8)
  for seed in range(3):
    xml = trees.random_tree_xml(seed, nbody=6)
    mjm = mujoco.MjModel.from_xml_string(xml)
    lines = []
    for j in range(mjm.njnt):
      name = mjm.joint(j).name
      kind = rng.integers(4)
      if kind == 0:
        lines.append(f'<motor joint="{name}" gear="{rng.uniform(-2, 2):.3f}"/>')
      elif kind == 1:
        lines.append(f'<position joint="{name}" kp="{rng.uniform(1, 5):.3f}" kv=".3"/>')
      elif kind == 2:
        lines.append(
          f'<general joint="{name}" dyntype="filter" dynprm=".05" '
          f'gaintype="affine" gainprm="1 .2 .1" actearly="true"/>'
        )
      else:
        lines.append(f'<intvelocity joint="{name}" kp="2" actrange="-1 1"/>')
    xml = xml.replace("</mujoco>", "<actuator>" + "".join(lines) + "</actuator></mujoco>")
    mjm, mjd, m, d = oracle.load(xml)
    check_actuation(mjm, mjd, m, d, seed=seed, nstate=2)
