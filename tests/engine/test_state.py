"""State functions (engine/state.py) against MuJoCo's, bit for bit, for every signature."""

import mujoco
import numpy as np
import pytest

import engine
from engine import state as S
from tests import oracle

XML = """
<mujoco>
  <size nuserdata="3"/>
  <worldbody>
    <body name="a" pos="0 0 1">
      <freejoint/>
      <geom size="0.1"/>
      <body name="b" pos="0.2 0 0">
        <joint name="ball" type="ball"/>
        <geom size="0.1"/>
        <body name="c" pos="0.2 0 0"><joint name="hinge"/><geom size="0.1"/></body>
      </body>
    </body>
    <body name="m1" mocap="true"/>
    <body name="m2" mocap="true" pos="1 0 0"/>
  </worldbody>
  <equality><weld body1="m1" body2="a"/><connect body1="m2" body2="c" anchor="0 0 0"/></equality>
  <actuator>
    <motor joint="hinge"/>
    <position joint="hinge" kp="2" timeconst="0.1"/>
    <general joint="hinge" dyntype="integrator"/>
  </actuator>
  <keyframe><key/><key/></keyframe>
</mujoco>
"""

_NAMED = {
  name: int(getattr(mujoco.mjtState, f"mjSTATE_{name}"))
  for name in ("PHYSICS", "FULLPHYSICS", "USER", "INTEGRATION")
}
_BIT = {name: int(value) for name, value in mujoco.mjtState.__members__.items()}


def _random_data(seed=0):
  mjm, mjd, m, d = oracle.load(XML)
  rng = np.random.default_rng(seed)
  for name in (
    "qpos",
    "qvel",
    "act",
    "ctrl",
    "qfrc_applied",
    "xfrc_applied",
    "mocap_pos",
    "mocap_quat",
    "qacc_warmstart",
    "userdata",
  ):
    value = rng.normal(size=getattr(mjd, name).shape)
    getattr(mjd, name)[...] = value
    getattr(d, name)[...] = value
  mjd.time = d.time = 3.25
  mjd.eq_active[:] = d.eq_active[:] = [False, True]
  return mjm, mjd, m, d


def test_enum_values_are_mujocos():
  for name, value in mujoco.mjtState.__members__.items():
    assert int(getattr(engine.mjtState, name)) == int(value), name


def test_state_size_matches_for_every_signature():
  mjm, _, m, _ = _random_data()
  for sig in range(1 << int(mujoco.mjtState.mjNSTATE)):
    assert S.mj_stateSize(m, sig) == mujoco.mj_stateSize(mjm, sig), sig


@pytest.mark.parametrize("sig", [*(1 << i for i in range(14)), *_NAMED.values(), 0b1010101010101])
def test_get_state_matches_mujoco(sig):
  mjm, mjd, m, d = _random_data()
  ref = np.full(mujoco.mj_stateSize(mjm, sig), np.nan)
  mujoco.mj_getState(mjm, mjd, ref, sig)
  out = np.full(S.mj_stateSize(m, sig), np.nan)
  S.mj_getState(m, d, out, sig)
  np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("name", sorted(_NAMED))
def test_set_state_matches_mujoco_and_round_trips(name):
  sig = _NAMED[name]
  mjm, mjd, m, d = _random_data()
  n = mujoco.mj_stateSize(mjm, sig)
  state = np.random.default_rng(5).normal(size=n)
  mujoco.mj_setState(mjm, mjd, state, sig)
  S.mj_setState(m, d, state, sig)
  for field in (
    "qpos",
    "qvel",
    "act",
    "ctrl",
    "qfrc_applied",
    "xfrc_applied",
    "mocap_pos",
    "mocap_quat",
    "qacc_warmstart",
    "userdata",
    "eq_active",
  ):
    np.testing.assert_array_equal(getattr(d, field), getattr(mjd, field), err_msg=field)
  assert d.time == mjd.time
  back = np.empty(n)
  S.mj_getState(m, d, back, sig)
  ref = np.empty(n)
  mujoco.mj_getState(mjm, mjd, ref, sig)
  np.testing.assert_array_equal(back, ref)


def test_extract_and_copy_state_match_mujoco():
  mjm, mjd, m, d = _random_data()
  full = _BIT["mjSTATE_INTEGRATION"]
  src = np.empty(mujoco.mj_stateSize(mjm, full))
  mujoco.mj_getState(mjm, mjd, src, full)
  for sub in (*_NAMED.values(), _BIT["mjSTATE_MOCAP_QUAT"] | _BIT["mjSTATE_TIME"]):
    ref = np.empty(mujoco.mj_stateSize(mjm, sub))
    mujoco.mj_extractState(mjm, src, full, ref, sub)
    out = np.empty_like(ref)
    S.mj_extractState(m, src, full, out, sub)
    np.testing.assert_array_equal(out, ref)
  # copy the user inputs into fresh data
  d2 = engine.MjData(m)
  S.mj_copyState(m, d, d2, _BIT["mjSTATE_USER"])
  np.testing.assert_array_equal(d2.ctrl, d.ctrl)
  np.testing.assert_array_equal(d2.xfrc_applied, d.xfrc_applied)
  np.testing.assert_array_equal(d2.qpos, m.qpos0)


def test_set_keyframe_matches_mujoco():
  mjm, mjd, m, d = _random_data()
  mujoco.mj_setKeyframe(mjm, mjd, 1)
  S.mj_setKeyframe(m, d, 1)
  for field in ("key_time", "key_qpos", "key_qvel", "key_act", "key_ctrl", "key_mpos", "key_mquat"):
    np.testing.assert_array_equal(getattr(m, field), getattr(mjm, field), err_msg=field)
  with pytest.raises(ValueError, match="keyframe"):
    S.mj_setKeyframe(m, d, 2)


def test_invalid_signatures_and_sizes_raise_like_mujoco():
  mjm, mjd, m, d = _random_data()
  too_big = 1 << int(mujoco.mjtState.mjNSTATE)
  with pytest.raises(mujoco.FatalError):
    mujoco.mj_stateSize(mjm, too_big)
  with pytest.raises(engine.errors.FatalError, match="invalid state signature"):
    S.mj_stateSize(m, too_big)
  with pytest.raises(TypeError):
    mujoco.mj_getState(mjm, mjd, np.empty(3), _BIT["mjSTATE_QPOS"])
  with pytest.raises(TypeError, match="mj_stateSize"):
    S.mj_getState(m, d, np.empty(3), _BIT["mjSTATE_QPOS"])
  with pytest.raises(TypeError, match="writable"):
    S.mj_getState(m, d, [0.0] * m.nq, _BIT["mjSTATE_QPOS"])
  qpos, qvel = _BIT["mjSTATE_QPOS"], _BIT["mjSTATE_QVEL"]
  with pytest.raises(engine.errors.FatalError, match="subset"):
    S.mj_extractState(m, np.empty(m.nq), qpos, np.empty(m.nq + m.nv), qpos | qvel)
