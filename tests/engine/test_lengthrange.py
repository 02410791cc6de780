"""Muscle length ranges found at compile time (mj_setLengthRange) match MuJoCo's.

Our own models: a two-joint arm whose muscles pull on spatial tendons wrapping a
cylinder and a sphere, a fixed tendon, a limited and an unlimited joint, and every
<compiler><lengthrange> option. The simulation that finds a range runs without gravity,
contacts, passive forces and actuation, as MuJoCo's compiler runs it.
"""

import mujoco
import numpy as np
import pytest

import engine

_ARM = """
<mujoco>
  <compiler autolimits="true">{lengthrange}</compiler>
  <option timestep="0.005"/>
  <worldbody>
    <geom type="plane" size="1 1 .1"/>
    <site name="s0" pos="-0.1 0 0.05"/>
    <body name="upper" pos="0 0 0.2">
      <joint name="shoulder" type="hinge" axis="0 1 0" range="-90 90" damping="0.1"
             frictionloss="0.05"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
      <site name="s1" pos="0.05 0 0.04"/>
      <geom name="wrapcyl" type="cylinder" pos="0.3 0 0" size="0.04 0.03"
            axisangle="1 0 0 90" contype="0" conaffinity="0"/>
      <site name="side" pos="0.3 0 0.08"/>
      <body name="fore" pos="0.3 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" stiffness="0.5"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.025"/>
        <geom name="ball" type="sphere" pos="0.1 0 0" size="0.03" contype="0" conaffinity="0"/>
        <site name="s2" pos="0.06 0 0.03"/>
        <site name="s3" pos="0.2 0 0.02"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <spatial name="biceps">
      <site site="s0"/><site site="s1"/><geom geom="wrapcyl" sidesite="side"/><site site="s2"/>
    </spatial>
    <spatial name="tri" range="0.1 0.6">
      <site site="s1"/><geom geom="ball"/><site site="s3"/>
    </spatial>
    <fixed name="fx"><joint joint="shoulder" coef="0.3"/><joint joint="elbow" coef="-0.2"/></fixed>
  </tendon>
  <actuator>
    <muscle name="bic" tendon="biceps"/>
    <muscle name="tri" tendon="tri"/>
    <muscle name="fx" tendon="fx" scale="100" range="0.8 1.1"/>
    <muscle name="sh" joint="shoulder"/>
    <muscle name="el" joint="elbow"/>
    <muscle name="given" tendon="biceps" lengthrange="0.1 0.3"/>
    <motor name="mot" tendon="biceps"/>
    <general name="gm" tendon="tri" gaintype="muscle" gainprm="0.7 1.2 -1 200 0.6 1.4 1.5 1.3 1.2"
             biastype="muscle" biasprm="0.7 1.2 -1 200 0.6 1.4 1.5 1.3 1.2"/>
  </actuator>
</mujoco>
"""

_OPTIONS = {
  "default": "",
  "uselimit": '<lengthrange uselimit="true"/>',
  "all": '<lengthrange mode="all" useexisting="false"/>',
  "muscleuser": '<lengthrange mode="muscleuser"/>',
  "none": '<lengthrange mode="none"/>',
  "params": '<lengthrange accel="35" maxforce="3" timeconst="0.5" inttotal="6" interval="1"'
  ' tolrange="0.2"/>',
  "model_timestep": '<lengthrange timestep="0"/>',
}

_FIELDS = (
  "actuator_lengthrange",
  "actuator_gainprm",
  "actuator_biasprm",
  "actuator_acc0",
  "actuator_length0",
)


def _load(xml):
  return engine.MjModel.from_xml_string(xml), mujoco.MjModel.from_xml_string(xml)


@pytest.mark.parametrize("name", list(_OPTIONS))
def test_lengthrange_matches_mujoco(name):
  xml = _ARM.format(lengthrange=_OPTIONS[name])
  m, mjm = _load(xml)
  for f in _FIELDS:
    np.testing.assert_allclose(getattr(m, f), getattr(mjm, f), rtol=0, atol=1e-8, err_msg=f)
  # the options in force during the simulation are restored
  assert m.opt.disableflags == mjm.opt.disableflags
  assert m.opt.timestep == mjm.opt.timestep


_ONE = """
<mujoco>
  <compiler>{lengthrange}</compiler>
  <worldbody>
    <site name="a" pos="0 0 0.1"/>
    <body>
      <joint name="h" type="hinge" axis="0 1 0" range="-1 1" limited="true"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
      <site name="b" pos="0.2 0 0.02"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="t" limited="true" range="0.12 0.3"><site site="a"/><site site="b"/></spatial>
  </tendon>
  <actuator><muscle tendon="t"/></actuator>
</mujoco>
"""


def test_uselimit_copies_the_tendon_range():
  """With uselimit the limited tendon's range is copied; by default it is simulated."""
  for lengthrange, copied in (("", False), ('<lengthrange uselimit="true"/>', True)):
    m, mjm = _load(_ONE.format(lengthrange=lengthrange))
    np.testing.assert_allclose(m.actuator_lengthrange, mjm.actuator_lengthrange, atol=1e-8)
    assert np.array_equal(m.actuator_lengthrange[0], [0.12, 0.3]) == copied


def test_muscle_trajectory_matches_mujoco():
  """Muscle forces depend on the range: 200 steps with excited muscles stay on MuJoCo's."""
  xml = _ARM.format(lengthrange="")
  m, mjm = _load(xml)
  d, mjd = engine.MjData(m), mujoco.MjData(mjm)
  ctrl = np.linspace(0.2, 0.9, m.nu)
  d.ctrl[:] = ctrl
  mjd.ctrl[:] = ctrl
  for _ in range(200):
    engine.mj_step(m, d)
    mujoco.mj_step(mjm, mjd)
  np.testing.assert_allclose(d.actuator_force, mjd.actuator_force, atol=1e-6)
  np.testing.assert_allclose(d.qpos, mjd.qpos, atol=1e-6)
  np.testing.assert_allclose(d.act, mjd.act, atol=1e-6)


def test_unstable_simulation_is_a_compile_error():
  """A muscle on an unlimited slider with nothing to stop it never converges."""
  xml = """<mujoco><worldbody><body><joint name="s" type="slide"/><geom size=".1"/></body>
    </worldbody><actuator><muscle joint="s"/></actuator></mujoco>"""
  with pytest.raises(ValueError):
    mujoco.MjModel.from_xml_string(xml)
  with pytest.raises(engine.Error, match="lengthrange"):
    engine.MjModel.from_xml_string(xml)
