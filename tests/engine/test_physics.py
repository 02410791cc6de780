"""engine.Physics (engine/physics.py) against MuJoCo driven the way dm_control drives it.

The oracle replays dm_control's calls by hand on `mujoco`: reset, forward with
actuation disabled (after_reset), mj_step2 then mj_step1 per step (mj_step then
mj_step1 for RK4). The model has no contacts or limits, so every number is
compared at the tolerances of the trajectory tests.
"""

import copy
import pickle
import threading

import mujoco
import numpy as np
import pytest

import engine
from engine import physics as P
from tests import oracle

XML = """
<mujoco model="arm">
  <option timestep="0.005"/>
  <worldbody>
    <light name="top" pos="0 0 3"/>
    <camera name="fixed" pos="0 -3 1" xyaxes="1 0 0 0 0 1"/>
    <body name="torso" pos="0 0 1">
      <freejoint name="root"/>
      <geom name="torso_geom" type="capsule" size="0.1 0.2" contype="0" conaffinity="0"/>
      <site name="head" pos="0 0 0.3"/>
      <body name="arm" pos="0.2 0 0">
        <joint name="shoulder" type="ball" damping="0.1"/>
        <geom name="arm_geom" type="capsule" fromto="0 0 0 0.3 0 0" size="0.05"
              contype="0" conaffinity="0"/>
        <body name="hand" pos="0.3 0 0">
          <joint name="elbow" type="hinge" axis="0 1 0" damping="0.05" stiffness="0.5"/>
          <geom type="sphere" size="0.05" contype="0" conaffinity="0"/>
          <site name="tip" pos="0.05 0 0"/>
          <body name="finger" pos="0.1 0 0">
            <joint name="slider" type="slide" axis="1 0 0" damping="0.2"/>
            <geom name="finger_geom" type="box" size="0.02 0.02 0.02" contype="0"
                  conaffinity="0"/>
          </body>
        </body>
      </body>
    </body>
    <body name="target" mocap="true" pos="1 0 1">
      <geom type="sphere" size="0.05" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="elbow_motor" joint="elbow" gear="2"/>
    <position name="slider_servo" joint="slider" kp="5" timeconst="0.05"/>
  </actuator>
  <sensor>
    <jointpos name="elbow_pos" joint="elbow"/>
    <framepos name="tip_pos" objtype="site" objname="tip"/>
    <framequat name="head_quat" objtype="site" objname="head"/>
    <velocimeter name="tip_vel" site="tip"/>
    <accelerometer name="head_acc" site="head"/>
    <actuatorfrc name="elbow_frc" actuator="elbow_motor"/>
  </sensor>
  <keyframe>
    <key name="bent" qpos="0 0 1.2 1 0 0 0 0.9238795 0 0.3826834 0 0.5 0.01"
         qvel="0 0 0 0 0 1 0 0 0 0.5 0" ctrl="0.1 0.02" act="0.01"/>
  </keyframe>
</mujoco>
"""

_ACT_OFF = int(mujoco.mjtDisableBit.mjDSBL_ACTUATION)
_TOL = dict(rtol=0, atol=1e-9)


def _mujoco(integrator=None):
  mjm = mujoco.MjModel.from_xml_string(XML)
  if integrator is not None:
    mjm.opt.integrator = integrator
  return mjm, mujoco.MjData(mjm)


def _physics(mjm):
  """Our Physics on an exact copy of a mujoco model."""
  return P.Physics.from_model(oracle.from_mujoco(mjm))


def _dm_after_reset(mjm, mjd):
  mjm.opt.disableflags |= _ACT_OFF
  mujoco.mj_forward(mjm, mjd)
  mjm.opt.disableflags &= ~_ACT_OFF


def _dm_step(mjm, mjd, nstep=1):
  for _ in range(nstep):
    if mjm.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4:
      mujoco.mj_step(mjm, mjd)
    else:
      mujoco.mj_step2(mjm, mjd)
    mujoco.mj_step1(mjm, mjd)


def _assert_data_close(physics, mjd, atol=1e-9):
  d = physics.data
  for name in (
    "qpos",
    "qvel",
    "act",
    "xpos",
    "xquat",
    "geom_xpos",
    "site_xpos",
    "sensordata",
    "qacc",
    "actuator_force",
    "ten_length",
    "actuator_length",
    "cvel",
  ):
    np.testing.assert_allclose(
      getattr(d, name), getattr(mjd, name), rtol=0, atol=atol, err_msg=name
    )
  assert physics.time() == pytest.approx(mjd.time, abs=1e-12)


def _start_state(physics):
  with physics.reset_context():
    physics.named.data.qpos["elbow"] = 0.4
    physics.named.data.qpos["shoulder"] = [0.9238795, 0, 0.3826834, 0]
    physics.named.data.qvel["root"][3:] = [0.1, 0.2, 0.3]
    physics.named.data.qvel["slider"] = -0.5


def _start_state_mujoco(mjm, mjd):
  mujoco.mj_resetData(mjm, mjd)
  mjd.joint("elbow").qpos = 0.4
  mjd.joint("shoulder").qpos = [0.9238795, 0, 0.3826834, 0]
  mjd.qvel[3:6] = [0.1, 0.2, 0.3]
  mjd.joint("slider").qvel = -0.5
  _dm_after_reset(mjm, mjd)


# ---- the dm_control script ----


def test_a_dm_control_script_runs_unchanged_and_matches_mujoco():
  # the script as written for dm_control, with `mujoco.Physics` imported from engine
  Physics = engine.Physics if hasattr(engine, "Physics") else P.Physics
  physics = Physics.from_xml_string(XML)
  with physics.reset_context():
    physics.named.data.qpos["elbow"] = 0.4
    physics.named.data.qpos["shoulder"] = [0.9238795, 0, 0.3826834, 0]
    physics.named.data.qvel["root"][3:] = [0.1, 0.2, 0.3]
    physics.named.data.qvel["slider"] = -0.5
  initial_tip = physics.named.data.sensordata["tip_pos"].copy()
  physics.set_control([0.5, 0.2])
  for _ in range(10):
    physics.step()
  physics.step(nstep=10)
  tip = physics.named.data.sensordata["tip_pos"].copy()
  head_quat = physics.named.data.sensordata["head_quat"].copy()
  arm_z = physics.named.data.geom_xpos["arm_geom", "z"]
  clone = physics.copy()
  restored = pickle.loads(pickle.dumps(physics))
  for p in (physics, clone, restored):
    p.step(5)

  # the same calls by hand on mujoco
  mjm, mjd = _mujoco()
  _start_state_mujoco(mjm, mjd)
  np.testing.assert_allclose(initial_tip, mjd.sensor("tip_pos").data, **_TOL)
  mjd.ctrl[:] = [0.5, 0.2]
  _dm_step(mjm, mjd, 20)
  np.testing.assert_allclose(tip, mjd.sensor("tip_pos").data, rtol=0, atol=1e-8)
  np.testing.assert_allclose(head_quat, mjd.sensor("head_quat").data, rtol=0, atol=1e-8)
  assert arm_z == pytest.approx(mjd.geom("arm_geom").xpos[2], abs=1e-8)
  # copies run after_reset like dm_control's: forward without actuation, same state
  mjd_copy = mujoco.MjData(mjm)
  mujoco.mj_copyData(mjd_copy, mjm, mjd)
  _dm_after_reset(mjm, mjd_copy)
  _dm_step(mjm, mjd, 5)
  _dm_step(mjm, mjd_copy, 5)
  _assert_data_close(physics, mjd, atol=1e-8)
  _assert_data_close(clone, mjd_copy, atol=1e-8)
  _assert_data_close(restored, mjd_copy, atol=1e-8)


# ---- stepping ----


@pytest.mark.parametrize("integrator", ["EULER", "RK4", "IMPLICIT", "IMPLICITFAST"])
def test_step_follows_dm_control_order_for_every_integrator(integrator):
  mjm, mjd = _mujoco(getattr(mujoco.mjtIntegrator, f"mjINT_{integrator}"))
  physics = _physics(mjm)
  _start_state(physics)
  _start_state_mujoco(mjm, mjd)
  _assert_data_close(physics, mjd)
  physics.set_control([0.3, -0.1])
  mjd.ctrl[:] = [0.3, -0.1]
  physics.step()
  _dm_step(mjm, mjd)
  _assert_data_close(physics, mjd)
  physics.step(nstep=7)
  _dm_step(mjm, mjd, 7)
  _assert_data_close(physics, mjd)
  # zero steps do nothing
  before = physics.get_state()
  physics.step(0)
  np.testing.assert_array_equal(physics.get_state(), before)


def test_non_legacy_step_is_mj_step():
  mjm, mjd = _mujoco()
  physics = _physics(mjm)
  physics.legacy_step = False
  _start_state(physics)
  _start_state_mujoco(mjm, mjd)
  physics.set_control([0.3, -0.1])
  mjd.ctrl[:] = [0.3, -0.1]
  physics.step(6)
  mujoco.mj_step(mjm, mjd, 6)
  for name in ("qpos", "qvel", "act", "time"):
    np.testing.assert_allclose(getattr(physics.data, name), getattr(mjd, name), **_TOL)


def test_forward_and_reset_to_keyframe_match_mujoco():
  mjm, mjd = _mujoco()
  physics = _physics(mjm)
  physics.reset(keyframe_id=0)
  mujoco.mj_resetDataKeyframe(mjm, mjd, 0)
  _dm_after_reset(mjm, mjd)
  _assert_data_close(physics, mjd)
  np.testing.assert_array_equal(physics.control(), mjd.ctrl)
  # forward uses the controls
  physics.forward()
  mujoco.mj_forward(mjm, mjd)
  _assert_data_close(physics, mjd)
  assert physics.named.data.sensordata["elbow_frc"] == pytest.approx(0.1, abs=1e-12)
  physics.reset()
  np.testing.assert_array_equal(physics.data.qpos, mjm.qpos0)
  assert physics.time() == 0.0
  with pytest.raises(ValueError, match="keyframe"):
    physics.reset(keyframe_id=1)


def test_reset_context_leaves_sensors_valid_at_the_initial_state():
  mjm, mjd = _mujoco()
  physics = _physics(mjm)
  physics.set_control([1.0, 1.0])
  physics.step(3)  # some history that the reset must erase
  with physics.reset_context() as p:
    assert p is physics
    physics.named.data.qpos["elbow"] = -0.7
    physics.named.data.qvel["elbow"] = 2.0
    physics.named.data.act["slider_servo"] = 0.3
    # prove that everything below is recomputed on exit
    physics.data.sensordata[:] = np.nan
    physics.data.xpos[1:] = np.nan
  mujoco.mj_resetData(mjm, mjd)
  mjd.ctrl[:] = [1.0, 1.0]
  mjd.joint("elbow").qpos = -0.7
  mjd.joint("elbow").qvel = 2.0
  mjd.act[0] = 0.3
  _dm_after_reset(mjm, mjd)
  # every stage, acceleration sensors included, is computed for the new state
  np.testing.assert_allclose(physics.data.sensordata, mjd.sensordata, rtol=0, atol=1e-9)
  np.testing.assert_allclose(
    physics.named.data.sensordata["head_acc"], mjd.sensor("head_acc").data, rtol=0, atol=1e-9
  )
  assert physics.named.data.sensordata["elbow_pos"] == pytest.approx(-0.7, abs=1e-15)
  _assert_data_close(physics, mjd)
  # actuation stays off only during the pass: the model's flags are untouched
  assert physics.model.opt.disableflags == 0


def test_after_reset_does_not_touch_a_shared_model():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  twin = physics.copy(share_model=True)
  flags = physics.model.opt.disableflags
  physics.after_reset()
  assert twin.model.opt.disableflags == flags
  # options edited on the model are seen by the next after_reset
  assert physics.data.qacc[2] == pytest.approx(-9.81, abs=1e-9)
  physics.model.opt.gravity[:] = [0, 0, 0]
  physics.after_reset()
  np.testing.assert_allclose(physics.data.qacc, 0.0, rtol=0, atol=1e-12)


# ---- state ----


def test_state_layout_is_qpos_qvel_act_and_round_trips():
  mjm, mjd = _mujoco()
  physics = _physics(mjm)
  physics.reset(0)
  mujoco.mj_resetDataKeyframe(mjm, mjd, 0)
  state = physics.get_state()
  assert state.shape == (mjm.nq + mjm.nv + mjm.na,)
  np.testing.assert_array_equal(state, np.concatenate([mjd.qpos, mjd.qvel, mjd.act]))
  ref = np.empty(mujoco.mj_stateSize(mjm, mujoco.mjtState.mjSTATE_PHYSICS))
  mujoco.mj_getState(mjm, mjd, ref, mujoco.mjtState.mjSTATE_PHYSICS)
  np.testing.assert_array_equal(state, ref)
  np.testing.assert_array_equal(physics.state(), state)
  # round trip, and the vector is a copy
  physics.step(10)
  later = physics.get_state()
  physics.set_state(state)
  np.testing.assert_array_equal(physics.get_state(), state)
  state[:] = 0
  assert physics.get_state().any()
  physics.set_state(later)
  np.testing.assert_array_equal(physics.get_state(), later)
  np.testing.assert_array_equal(physics.position(), physics.data.qpos)
  np.testing.assert_array_equal(physics.velocity(), physics.data.qvel)
  np.testing.assert_array_equal(physics.activation(), physics.data.act)
  with pytest.raises(ValueError, match="shape"):
    physics.set_state(later[:-1])


_S = mujoco.mjtState


@pytest.mark.parametrize(
  "sig",
  [
    _S.mjSTATE_PHYSICS,
    _S.mjSTATE_FULLPHYSICS,
    _S.mjSTATE_USER,
    _S.mjSTATE_INTEGRATION,
    _S.mjSTATE_QPOS | _S.mjSTATE_CTRL,
  ],
)
def test_state_with_signature_is_mj_getState(sig):
  """get_state(sig)/set_state(state, sig) as dm_control: mj_getState/mj_setState of `sig`."""
  mjm, mjd = _mujoco()
  physics = _physics(mjm)
  physics.reset(0)
  mujoco.mj_resetDataKeyframe(mjm, mjd, 0)
  for data in (physics.data, mjd):
    data.ctrl[:] = [0.3, -0.2]
    data.time = 0.5
  ref = np.empty(mujoco.mj_stateSize(mjm, sig))
  mujoco.mj_getState(mjm, mjd, ref, sig)
  state = physics.get_state(sig=int(sig))
  np.testing.assert_array_equal(state, ref)
  physics.step(3)
  assert not np.array_equal(physics.get_state(sig), ref) or sig == _S.mjSTATE_USER
  physics.set_state(ref, sig=sig)
  np.testing.assert_array_equal(physics.get_state(sig), ref)
  with pytest.raises(ValueError, match="shape"):
    physics.set_state(ref[:-1], sig=sig)


def test_state_with_invalid_signature_is_a_fatal_error():
  mjm, mjd = _mujoco()
  physics = _physics(mjm)
  for sig in (-1, 1 << int(_S.mjNSTATE)):
    with pytest.raises(mujoco.FatalError) as theirs:
      mujoco.mj_stateSize(mjm, sig)
    with pytest.raises(engine.FatalError) as ours:
      physics.get_state(sig=sig)
    assert str(ours.value) == str(theirs.value)


def test_same_state_gives_same_trajectory():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  physics.set_control([0.2, 0.1])
  physics.step(5)
  state = physics.get_state()
  time = physics.time()
  physics.step(20)
  first = physics.get_state()
  physics.set_state(state)
  physics.data.time = time
  physics.forward()
  physics.step(20)
  np.testing.assert_array_equal(physics.get_state(), first)


# ---- copies ----


def test_copy_is_independent_and_share_model_shares_only_the_model():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  _start_state(physics)
  physics.set_control([0.4, 0.1])
  copied = physics.copy()
  shared = physics.copy(share_model=True)
  for c in (copied, shared):
    np.testing.assert_array_equal(c.get_state(), physics.get_state())
    np.testing.assert_array_equal(c.control(), physics.control())
    assert c.data.ptr is not physics.data.ptr
    assert not np.shares_memory(c.data.qpos, physics.data.qpos)
  assert copied.model.ptr is not physics.model.ptr
  assert shared.model.ptr is physics.model.ptr
  # stepping a copy leaves the original alone
  before = physics.get_state()
  copied.step(10)
  shared.step(10)
  np.testing.assert_array_equal(physics.get_state(), before)
  np.testing.assert_array_equal(copied.get_state(), shared.get_state())
  # editing a copied model leaves the original model alone; a shared one is the same object
  copied.named.model.body_mass["hand"] = 10.0
  assert physics.named.model.body_mass["hand"] != 10.0
  shared.named.model.geom_size["torso_geom", "x"] = 0.3
  assert physics.named.model.geom_size["torso_geom", "x"] == 0.3


@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy"])
def test_pickle_and_deepcopy_continue_bit_identically(how):
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  _start_state(physics)
  physics.set_control([0.4, 0.1])
  physics.step(3)
  if how == "pickle":
    clone = pickle.loads(pickle.dumps(physics))
  elif how == "deepcopy":
    clone = copy.deepcopy(physics)
  else:
    clone = physics.copy()
  assert type(clone) is type(physics)
  assert clone.model.ptr is not physics.model.ptr
  np.testing.assert_array_equal(clone.get_state(), physics.get_state())
  assert clone.time() == physics.time()
  np.testing.assert_array_equal(clone.control(), physics.control())
  clone.step(10)
  physics.step(10)
  np.testing.assert_array_equal(clone.get_state(), physics.get_state())
  np.testing.assert_array_equal(clone.data.sensordata, physics.data.sensordata)
  assert clone.named.data.qpos["elbow"] == physics.named.data.qpos["elbow"]


def test_subclasses_survive_copy_and_pickle():
  mjm, _ = _mujoco()
  physics = _ArmPhysics.from_model(oracle.from_mujoco(mjm))
  for clone in (physics.copy(), pickle.loads(pickle.dumps(physics)), copy.deepcopy(physics)):
    assert isinstance(clone, _ArmPhysics)
    assert clone.tip_height() == physics.tip_height()


class _ArmPhysics(P.Physics):
  """A task-style subclass, as the control suite defines them."""

  def tip_height(self):
    return self.named.data.site_xpos["tip", "z"]


# ---- invalid states ----


def _diverge(physics):
  physics.named.data.qpos["elbow"] = np.nan


def test_divergence_raises_physics_error_naming_the_warning_and_resets_like_mujoco():
  mjm, mjd = _mujoco()
  physics = _physics(mjm)
  physics.step(2)
  _diverge(physics)
  with pytest.raises(P.PhysicsError) as info:
    physics.step()
  # MuJoCo does the same: the state was reset, and the counts are MuJoCo's
  _dm_after_reset(mjm, mjd)
  _dm_step(mjm, mjd, 2)
  mjd.joint("elbow").qpos = np.nan
  _dm_step(mjm, mjd)
  number = np.array([w.number for w in mjd.warning])
  lastinfo = np.array([w.lastinfo for w in mjd.warning])
  np.testing.assert_array_equal(physics.data.warning.number, number)
  np.testing.assert_array_equal(physics.data.warning.lastinfo, lastinfo)
  expected = tuple(engine.mjtWarning(k) for k in np.nonzero(number)[0])
  assert expected and info.value.warnings == expected
  for kind in expected:
    assert kind.name in str(info.value)
    assert f"at dof {lastinfo[kind]}" in str(info.value)
  assert isinstance(info.value, RuntimeError) and isinstance(info.value, engine.errors.Error)
  np.testing.assert_allclose(physics.data.qpos, mjd.qpos, **_TOL)
  assert physics.time() == mjd.time
  # a second identical divergence is detected although the counts end up the same
  _diverge(physics)
  with pytest.raises(P.PhysicsError) as again:
    physics.step()
  assert again.value.warnings == expected
  np.testing.assert_array_equal(physics.data.warning.number, number)


def test_check_invalid_state_reports_any_new_warning_and_keeps_old_counts():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  inertia = engine.mjtWarning.mjWARN_INERTIA
  with pytest.raises(P.PhysicsError, match="mjWARN_INERTIA") as info:
    with physics.check_invalid_state():
      physics.data.warning[inertia].number += 1
  assert info.value.warnings == (inertia,)
  # no new warning: no error, and the counts from before the block are kept
  with physics.check_invalid_state():
    physics.step()
  assert physics.data.warning[inertia].number == 1
  # an exception inside the block leaves the counts as they were
  with pytest.raises(KeyError):
    with physics.check_invalid_state():
      raise KeyError("user error")
  assert physics.data.warning[inertia].number == 1


def test_suppress_physics_errors_warns_instead():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  _diverge(physics)
  with physics.suppress_physics_errors():
    with pytest.warns(engine.PhysicsWarning, match="Physics state is invalid"):
      physics.step()
  _diverge(physics)
  with pytest.raises(P.PhysicsError):
    physics.step()


def test_reset_context_ignores_errors_on_reset_and_runs_after_reset(monkeypatch):
  mjm, _ = _mujoco()
  physics = _physics(mjm)

  def failing_reset(keyframe_id=None):
    raise P.PhysicsError("diverged on reset")

  monkeypatch.setattr(physics, "reset", failing_reset)
  with physics.reset_context():
    physics.named.data.qpos["elbow"] = 0.3
    physics.data.site_xpos[:] = np.nan
  assert np.isfinite(physics.data.site_xpos).all()


# ---- wrappers, names and utilities ----


def test_model_and_data_are_writable_in_place_but_fields_cannot_be_replaced():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  physics.data.qpos[:] = physics.model.qpos0 + 0.1
  assert physics.data.ptr.qpos[0] == pytest.approx(0.1)
  physics.model.geom_size[0, 0] = 0.2
  assert physics.model.ptr.geom_size[0, 0] == 0.2
  with pytest.raises(AttributeError, match=r"physics.data.qpos\[:\] = value"):
    physics.data.qpos = np.zeros(13)
  with pytest.raises(AttributeError, match=r"physics.model.body_mass\[:\] = value"):
    physics.model.body_mass = np.ones(6)
  with pytest.raises(AttributeError):
    physics.model.opt = None
  with pytest.raises(AttributeError, match="model size"):
    physics.model.nq = 3
  physics.data.time = 2.5
  assert physics.time() == 2.5
  physics.model.opt.timestep = 0.01
  assert physics.timestep() == 0.01
  assert physics.data.model is physics.model
  assert "qpos" in dir(physics.data)
  assert physics.model.name == "arm"


def test_ptr_gives_the_engine_objects_for_mj_functions():
  mjm, mjd = _mujoco()
  physics = _physics(mjm)
  assert isinstance(physics.model.ptr, engine.MjModel)
  assert isinstance(physics.data.ptr, engine.MjData)
  _start_state(physics)
  _start_state_mujoco(mjm, mjd)
  engine.mj_forward(physics.model.ptr, physics.data.ptr)
  mujoco.mj_forward(mjm, mjd)
  _assert_data_close(physics, mjd)
  jacp = np.empty((3, mjm.nv))
  ref = np.empty((3, mjm.nv))
  engine.mj_jacSite(physics.model.ptr, physics.data.ptr, jacp, None, 1)
  mujoco.mj_jacSite(mjm, mjd, ref, None, 1)
  np.testing.assert_allclose(jacp, ref, **_TOL)


def test_names_and_ids():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  model = physics.model
  for objtype, name in (
    ("body", "hand"),
    ("joint", "elbow"),
    ("geom", "arm_geom"),
    ("site", "tip"),
    ("actuator", "slider_servo"),
    ("sensor", "head_acc"),
    ("camera", "fixed"),
    ("light", "top"),
    ("key", "bent"),
  ):
    objid = model.name2id(name, objtype)
    assert objid == mujoco.mj_name2id(mjm, getattr(mujoco.mjtObj, f"mjOBJ_{objtype.upper()}"), name)
    assert model.id2name(objid, objtype) == name
    assert model.id2name(objid, getattr(engine.mjtObj, f"mjOBJ_{objtype.upper()}")) == name
  assert model.id2name(2, "geom") == ""  # the unnamed sphere
  assert model.id2name(99, "body") == ""
  with pytest.raises(engine.errors.Error, match="named 'nothing'"):
    model.name2id("nothing", "body")
  with pytest.raises(engine.errors.Error, match="object type"):
    model.name2id("hand", "bodie")


def test_disable_context_restores_flags():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  with physics.model.disable("actuation", "gravity"):
    assert physics.model.opt.disableflags == int(
      engine.mjtDisableBit.mjDSBL_ACTUATION | engine.mjtDisableBit.mjDSBL_GRAVITY
    )
  assert physics.model.opt.disableflags == 0
  with pytest.raises(ValueError, match="disable flag"):
    with physics.model.disable("nothing"):
      pass


def test_controls_timestep_and_time():
  mjm, _ = _mujoco()
  physics = _physics(mjm)
  physics.set_control([0.25, -0.5])
  control = physics.control()
  np.testing.assert_array_equal(control, [0.25, -0.5])
  control[:] = 0
  np.testing.assert_array_equal(physics.data.ctrl, [0.25, -0.5])
  assert physics.timestep() == 0.005
  physics.step(4)
  assert physics.time() == pytest.approx(0.02, abs=1e-15)
  with pytest.raises(ValueError):
    physics.set_control([1.0, 2.0, 3.0])


def test_several_physics_stepped_from_threads_match_sequential_runs():
  mjm, _ = _mujoco()
  base = _physics(mjm)
  _start_state(base)
  controls = [[0.1 * k, -0.05 * k] for k in range(4)]

  def run(p, u):
    p.set_control(u)
    for _ in range(20):
      p.step(5)

  sequential = [base.copy() for _ in controls]
  for p, u in zip(sequential, controls):
    run(p, u)
  threaded = [base.copy(share_model=bool(k % 2)) for k in range(len(controls))]
  threads = [threading.Thread(target=run, args=(p, u)) for p, u in zip(threaded, controls)]
  for t in threads:
    t.start()
  for t in threads:
    t.join()
  for a, b in zip(sequential, threaded):
    np.testing.assert_array_equal(a.get_state(), b.get_state())
    np.testing.assert_array_equal(a.data.sensordata, b.data.sensordata)


@pytest.mark.render  # (draws when OpenGL starts; the conftest's rules see no sign of it)
def test_render_draws_or_explains_why_it_cannot():
  from tests import gl

  mjm, _ = _mujoco()
  physics = _physics(mjm)
  if gl.opengl_problem():  # (tests/render/test_backends.py checks the messages)
    with pytest.raises(P.RenderingUnavailableError):
      physics.render(64, 64)
  else:
    image = physics.render(height=32, width=48)
    assert image.shape == (32, 48, 3) and image.dtype == np.uint8


def test_from_xml_path_and_reload(tmp_path):
  path = tmp_path / "arm.xml"
  path.write_text(XML)
  physics = P.Physics.from_xml_path(str(path))
  assert physics.model.nq == 13
  physics.reload_from_xml_string(
    "<mujoco><worldbody><body name='b'><joint name='j'/>"
    "<geom size='0.1'/></body></worldbody></mujoco>"
  )
  assert physics.model.nq == 1
  assert physics.named.data.qpos["j"].shape == (1,)
  physics.reload_from_xml_path(str(path))
  assert physics.named.data.qpos["root"].shape == (7,)
