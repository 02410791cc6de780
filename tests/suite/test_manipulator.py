"""The manipulator domain beyond the parity test: the compiled models against docs/suite.md and
dm_control, resets over several seeds and episodes (every start of the prop, rejections),
rewards near the target, and the partially observable variant."""

import numpy as np
import pytest

import engine
from suite import common
from suite import manipulator
from tests.suite import parity
from tests.suite import planar_arm

TASKS = ("bring_ball", "bring_peg", "insert_ball", "insert_peg")
_VARIANTS = {
  "bring_ball": (False, False),
  "insert_ball": (False, True),
  "bring_peg": (True, False),
  "insert_peg": (True, True),
}
# per task: nbody and total mass of the compiled model (docs/suite.md); all have nq 11
_TOTALS = {
  "bring_ball": (12, 0.3601039),
  "insert_ball": (13, 0.4145452),
  "bring_peg": (13, 0.3112416),
  "insert_peg": (14, 0.4941216),
}


def _compile(xml, assets):
  return engine.Physics.from_xml_string(xml, assets).model


def test_full_model_matches_the_tables():
  model = _compile(common.read_model("manipulator.xml"), common.ASSETS)
  sizes = (
    model.nq,
    model.nv,
    model.nu,
    model.na,
    model.nbody,
    model.njnt,
    model.ngeom,
    model.nsite,
    model.ntendon,
    model.neq,
    model.nsensor,
    model.nsensordata,
  )
  assert sizes == (14, 14, 5, 0, 17, 14, 34, 20, 2, 1, 5, 5)
  np.testing.assert_allclose(model.body_mass.sum(), 0.6266755, rtol=1e-6)
  np.testing.assert_allclose(model.ptr.stat.meaninertia, 0.0104787, rtol=1e-5)
  assert model.ptr.opt.timestep == 0.001 and model.ptr.opt.cone == 1  # elliptic


@pytest.mark.parametrize("task", TASKS)
def test_task_model_matches_dm_control(task):
  """Each task's model (props removed with mjcf) compiles to dm_control's, field by field."""
  import mujoco
  from dm_control.suite import manipulator as dm_manipulator

  ours = _compile(*manipulator.make_model(*_VARIANTS[task]))
  theirs = mujoco.MjModel.from_xml_string(*dm_manipulator.make_model(*_VARIANTS[task]))
  nbody, mass = _TOTALS[task]
  assert (ours.nq, ours.nbody) == (11, nbody)
  np.testing.assert_allclose(ours.body_mass.sum(), mass, rtol=1e-6)
  planar_arm.assert_models_equal(ours, theirs)


@pytest.mark.parametrize("task", ("bring_ball", "bring_peg"))
def test_resets_match_dm_control(task):
  """Seeds 0-5 x 3 episodes start the prop in the hand, at the target and uniformly, some after
  rejected (penetrating) draws."""
  planar_arm.assert_resets_match("manipulator", task)


@pytest.mark.parametrize("task,seed", [("insert_ball", 0), ("insert_peg", 11)])
def test_insert_resets_match_dm_control(task, seed):
  """Seeds whose draws put the prop exactly touching a receptacle geom: MuJoCo's collision
  midphase drops that pair (its oriented boxes are apart by rounding) while the narrowphase
  alone would report a contact, so dm_control's contact-free rejection depends on it."""
  planar_arm.assert_resets_match("manipulator", task, seeds=[seed])


@pytest.mark.parametrize("task", ("insert_ball", "insert_peg"))
def test_insert_resets_match_dm_control_without_midphase(task):
  """The draw order of the insertion tasks over seeds 0-5, with both engines' midphase off
  (mjDSBL_MIDPHASE)."""
  planar_arm.assert_resets_match("manipulator", task, midphase=False)


def _set_object(physics, obj, x, z, angle):
  for axis, value in zip("xzy", (x, z, angle)):
    physics.named.data.qpos[f"{obj}_{axis}"] = value
  physics.forward()


@pytest.mark.parametrize("task", TASKS)
def test_rewards_near_the_target(task):
  """Rewards with the prop near the target, and (peg) near the grasp: the reward's every term is
  exercised, against dm_control at the same states."""
  use_peg = _VARIANTS[task][0]
  obj, target = ("peg", "target_peg") if use_peg else ("ball", "target_ball")
  ours, theirs = parity.load_pair("manipulator", task, seed=3)
  ours.reset()
  theirs.reset()
  rng = np.random.RandomState(0)
  rewards = []
  for k in range(20):
    data = theirs.physics.named.data
    if use_peg and k % 2:  # near the hand: the grasping term
      x, z = data.site_xpos["grasp", ["x", "z"]]
      xx, zx = data.site_xmat["grasp", ["xx", "zx"]]
      angle = np.pi - np.arctan2(zx, xx)
    else:
      x, z = data.xpos[target, ["x", "z"]]
      qw, qy = data.xquat[target, ["qw", "qy"]]
      angle = 2 * np.arctan2(qy, qw)
    pose = np.array([x, z, angle]) + rng.normal(0, [0.01, 0.01, 0.2])
    _set_object(ours.physics, obj, *pose)
    _set_object(theirs.physics, obj, *pose)
    reward = ours.task.get_reward(ours.physics)
    np.testing.assert_allclose(reward, theirs.task.get_reward(theirs.physics), atol=1e-12)
    rewards.append(reward)
  assert max(rewards) > 0.5 and min(rewards) < 0.5


@pytest.mark.parametrize("task", ("bring_ball", "insert_peg"))
def test_partially_observable(task):
  """fully_observable=False drops the hand, object and target keys, as dm_control does."""
  ours, theirs = parity.load_pair("manipulator", task, seed=1, fully_observable=False)
  parity.assert_specs_equal(ours, theirs)
  assert list(ours.observation_spec()) == ["arm_pos", "arm_vel", "touch"]
  a, b = ours.reset(), theirs.reset()
  parity.assert_observations_close(a.observation, b.observation, parity.RESET_ATOL)
  action = np.full(5, 0.5)
  a, b = ours.step(action), theirs.step(action)
  parity.assert_observations_close(a.observation, b.observation, parity.OBS_ATOL)


@pytest.mark.parametrize("task", ("bring_ball", "insert_peg"))
def test_physics_methods_match_dm_control(task):
  """The planar arm's Physics methods against dm_control's at the same state (touch is the
  declared feature, the observation's `touch` exactly)."""
  ours, theirs = parity.load_pair("manipulator", task, seed=2)
  observation = ours.reset().observation
  theirs.reset()
  obj, target = ("peg", "target_peg") if _VARIANTS[task][0] else ("ball", "target_ball")
  joints = list(manipulator.ARM_JOINTS)
  calls = {
    "touch": (),
    "bounded_joint_pos": (joints,),
    "joint_vel": (joints,),
    "body_2d_pose": (["hand", obj, target],),
    "site_distance": (obj, target),
  }
  for name, args in calls.items():
    np.testing.assert_allclose(
      getattr(ours.physics, name)(*args),
      getattr(theirs.physics, name)(*args),
      rtol=0,
      atol=parity.RESET_ATOL,
      err_msg=name,
    )
  np.testing.assert_array_equal(ours.physics.touch(), observation["touch"])
