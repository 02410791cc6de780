"""qpos_from_site_pose and nullspace_method against dm_control's, on the same model and start.

Both stacks run the same float operations (our engine's kinematics and Jacobians equal
MuJoCo's to rounding), so iterations, success and the solution agree to 1e-10 or better.
"""

import logging
import re

import numpy as np
import pytest

import engine
from composer.utils import inverse_kinematics
from tests.composer import manipulator_twins as twins

QPOS_ATOL = 1e-10
DOWN = np.array([0.0, 0.70710678118, 0.70710678118, 0.0])


def _unit(v):
  return np.asarray(v, dtype=np.float64) / np.linalg.norm(v)


def _arm_start(seed):
  """A start qpos of ARM_XML: hinges and rail perturbed, the ball and the puck turned."""
  rng = np.random.RandomState(seed)
  qpos = np.zeros(15)
  qpos[:4] = rng.uniform(-0.8, 0.8, 4)  # rail, shoulder_yaw, shoulder_pitch, elbow
  qpos[4:8] = _unit(rng.normal(size=4))  # wrist
  qpos[8:11] = rng.uniform(-0.5, 0.5, 3) + [0.5, 0.5, 0.3]  # puck position
  qpos[11:15] = _unit(rng.normal(size=4))
  return qpos


def _arm_physics(ns):
  return ns.Physics.from_xml_string(twins.ARM_XML)


def _jaco_physics(ns):
  model = ns.mjcf.from_path(twins.kinova_dir() + "/jaco_arm.xml")
  return ns.mjcf.Physics.from_mjcf_model(model)


def _solve_both(make_physics, qpos0, **kwargs):
  """[(result, physics) of ours, (result, physics) of dm_control's], from qpos0."""
  out = []
  for ours in (True, False):
    ns = twins.namespace(ours)
    physics = make_physics(ns)
    physics.data.qpos[:] = qpos0
    out.append((ns.inverse_kinematics.qpos_from_site_pose(physics, **kwargs), physics))
  return out


def _assert_same(ours, theirs):
  assert (ours.steps, ours.success) == (theirs.steps, theirs.success)
  assert type(ours.steps) is type(theirs.steps)
  np.testing.assert_allclose(ours.qpos, theirs.qpos, rtol=0, atol=QPOS_ATOL)
  np.testing.assert_allclose(ours.err_norm, theirs.err_norm, rtol=1e-9, atol=1e-13)


def _site_pose(physics, site_name, qpos):
  """(xpos, xquat) of a site at `qpos`, from a fresh forward pass."""
  physics.data.qpos[:] = qpos
  physics.forward()
  quat = np.empty(4)
  engine.mju_mat2Quat(quat, np.ascontiguousarray(physics.named.data.site_xmat[site_name]))
  return physics.named.data.site_xpos[site_name].copy(), quat


def _same_rotation(q1, q2, atol):
  return min(np.abs(q1 - q2).max(), np.abs(q1 + q2).max()) < atol


_ARM_CASES = {
  "position": dict(site_name="tcp", target_pos=[0.3, 0.2, 0.4]),
  "orientation": dict(site_name="tcp", target_quat=[0.5, 0.5, 0.5, 0.5]),
  "pose": dict(site_name="tcp", target_pos=np.array([0.3, -0.2, 0.4]), target_quat=DOWN),
  "hinges_list": dict(site_name="tcp", target_pos=[0.2, 0.3, 0.5], joint_names=twins.ARM_HINGES),
  "tuple_with_ball": dict(
    site_name="tcp",
    target_pos=[0.35, 0.1, 0.3],
    target_quat=_unit([1, 0.2, -0.3, 0.1]),
    joint_names=("rail", "wrist", "elbow", "shoulder_yaw"),
  ),
  "ndarray": dict(
    site_name="tcp",
    target_pos=[0.1, 0.4, 0.35],
    joint_names=np.array(["shoulder_yaw", "shoulder_pitch", "elbow", "rail"]),
  ),
  "free_joint": dict(
    site_name="puck_site",
    target_pos=[0.1, -0.2, 0.4],
    target_quat=[0.5, 0.5, -0.5, 0.5],
    joint_names=["puck_free"],
  ),
  "options": dict(
    site_name="tcp",
    target_pos=[0.3, 0.2, 0.4],
    target_quat=DOWN,
    tol=1e-8,
    rot_weight=2.0,
    regularization_threshold=0.5,
    regularization_strength=0.1,
    max_update_norm=0.3,
    progress_thresh=50.0,
    max_steps=60,
  ),
}


@pytest.mark.parametrize("case", sorted(_ARM_CASES))
@pytest.mark.parametrize("seed", [0, 1])
def test_small_arm_matches_dm_control_and_reaches_target(case, seed):
  kwargs = _ARM_CASES[case]
  (ours, our_physics), (theirs, _) = _solve_both(_arm_physics, _arm_start(seed), **kwargs)
  _assert_same(ours, theirs)
  assert ours.success
  pos, quat = _site_pose(our_physics, kwargs["site_name"], ours.qpos)
  tol = kwargs.get("tol", 1e-14)
  if "target_pos" in kwargs:
    np.testing.assert_allclose(pos, kwargs["target_pos"], rtol=0, atol=max(tol, 1e-13))
  if "target_quat" in kwargs:
    assert _same_rotation(quat, _unit(kwargs["target_quat"]), atol=max(tol, 1e-12))


def test_only_listed_joints_move():
  qpos0 = _arm_start(3)
  (ours, _), (theirs, _) = _solve_both(
    _arm_physics,
    qpos0,
    site_name="tcp",
    target_pos=[0.2, 0.3, 0.5],
    joint_names=["elbow", "shoulder_pitch", "shoulder_yaw"],
  )
  _assert_same(ours, theirs)
  moved = np.flatnonzero(ours.qpos != qpos0)
  np.testing.assert_array_equal(moved, [1, 2, 3])


def test_slide_alone_translates_exactly():
  """A rail along x reaches a target displaced along x from the site: the Jacobian is constant,
  so the rail moves by the displacement."""
  qpos0 = _arm_start(4)
  ns = twins.namespace(True)
  physics = _arm_physics(ns)
  start_pos, _ = _site_pose(physics, "tcp", qpos0)
  target = start_pos + [0.2, 0, 0]
  (ours, _), (theirs, _) = _solve_both(
    _arm_physics, qpos0, site_name="tcp", target_pos=target, joint_names=["rail"]
  )
  _assert_same(ours, theirs)
  assert ours.success
  assert ours.qpos[0] == pytest.approx(qpos0[0] + 0.2, abs=1e-14)
  np.testing.assert_array_equal(ours.qpos[1:], qpos0[1:])


def test_no_progress_halts_without_warning(caplog):
  """A slide cannot turn the site: the update is zero, err_norm / 0 is inf, and the solver stops
  at step 0 (no failure warning: that one is only for running out of steps)."""
  caplog.set_level(logging.WARNING)
  with np.errstate(divide="ignore"):
    (ours, _), (theirs, _) = _solve_both(
      _arm_physics, _arm_start(0), site_name="tcp", target_quat=DOWN, joint_names=["rail"]
    )
  _assert_same(ours, theirs)
  assert (ours.steps, ours.success) == (0, False)
  assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_unreachable_target_fails_after_max_steps_with_warning(caplog):
  """The hinges alone cannot reach 3 m away: both stacks give up after `max_steps` with
  dm_control's warning."""
  caplog.set_level(logging.WARNING)
  (ours, _), (theirs, _) = _solve_both(
    _arm_physics,
    _arm_start(0),
    site_name="tcp",
    target_pos=[3.0, 0.0, 0.3],
    joint_names=twins.ARM_HINGES,
    max_steps=7,
  )
  _assert_same(ours, theirs)
  assert (ours.steps, ours.success) == (6, False)
  messages = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
  assert len(messages) == 2
  assert messages[0] == messages[1]
  assert messages[0].startswith("Failed to converge after 6 steps: err_norm=")


@pytest.mark.parametrize("inplace", [False, True])
def test_inplace(inplace):
  """inplace=False leaves the physics alone and returns a copy; inplace=True moves it and
  returns a view of its qpos."""
  qpos0 = _arm_start(2)
  for (result, physics), is_ours in zip(
    _solve_both(_arm_physics, qpos0, site_name="tcp", target_pos=[0.3, 0.2, 0.4], inplace=inplace),
    (True, False),
  ):
    assert result.success
    assert np.shares_memory(result.qpos, physics.data.qpos) == inplace, is_ours
    if inplace:
      np.testing.assert_allclose(physics.named.data.site_xpos["tcp"], [0.3, 0.2, 0.4], atol=1e-13)
    else:
      np.testing.assert_array_equal(physics.data.qpos, qpos0)
      assert not np.allclose(physics.named.data.site_xpos["tcp"], [0.3, 0.2, 0.4])


def _jaco_start(seed):
  rng = np.random.RandomState(seed)
  lower = np.array([0, 0.820305, 0.331613, 0, 0, 0])
  upper = np.array([2 * np.pi, 5.462881, 5.951573, 2 * np.pi, 2 * np.pi, 2 * np.pi])
  return rng.uniform(lower, upper)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("target", ["pose", "position", "orientation"])
def test_jaco_arm_matches_dm_control(seed, target):
  """dm_control's Jaco arm (the XML of the installed wheel) on both stacks, with the arguments
  RobotArm.set_site_to_xpos passes (rot_weight=2, the arm's joints by name)."""
  kwargs = dict(
    site_name="wristsite", rot_weight=2, joint_names=[f"joint_{i}" for i in range(1, 7)]
  )
  if target != "orientation":
    kwargs["target_pos"] = [0.25 - 0.1 * seed, 0.2, 0.3]
  if target != "position":
    kwargs["target_quat"] = DOWN
  (ours, _), (theirs, _) = _solve_both(_jaco_physics, _jaco_start(seed), **kwargs)
  _assert_same(ours, theirs)


def test_named_physics_copy_shares_no_state():
  """The solver's private copy (inplace=False) is independent: solving twice from the same
  physics gives the same answer."""
  physics = _arm_physics(twins.namespace(True))
  physics.data.qpos[:] = _arm_start(5)
  first = inverse_kinematics.qpos_from_site_pose(physics, "tcp", target_pos=[0.3, 0.2, 0.4])
  second = inverse_kinematics.qpos_from_site_pose(physics, "tcp", target_pos=[0.3, 0.2, 0.4])
  np.testing.assert_array_equal(first.qpos, second.qpos)
  assert first.steps == second.steps


# ---- errors ----


def _errors(**kwargs):
  """(our exception, dm_control's exception) for the same call on ARM_XML."""
  out = []
  for ours in (True, False):
    ns = twins.namespace(ours)
    physics = _arm_physics(ns)
    try:
      ns.inverse_kinematics.qpos_from_site_pose(physics, **kwargs)
    except Exception as e:  # noqa: BLE001 (the exception is what is compared)
      out.append(e)
    else:
      out.append(None)
  return out


@pytest.mark.parametrize(
  "kwargs",
  [
    dict(site_name="tcp"),
    dict(site_name="tcp", target_pos=[0, 0, 0], joint_names="elbow"),
    dict(site_name="tcp", target_pos=[0, 0, 0], joint_names={"elbow"}),
  ],
  ids=["no_target", "string_joint_names", "set_joint_names"],
)
def test_bad_arguments_raise_dm_controls_value_error(kwargs):
  ours, theirs = _errors(**kwargs)
  assert type(theirs) is ValueError
  assert type(ours) is ValueError
  assert str(ours) == str(theirs)


def test_unknown_site_raises_the_engines_error():
  from dm_control.mujoco.wrapper import core

  ours, theirs = _errors(site_name="nope", target_pos=[0, 0, 0])
  assert type(theirs) is core.Error
  assert type(ours) is engine.Error
  assert "nope" in str(ours)


def test_unknown_joint_raises_key_error():
  ours, theirs = _errors(site_name="tcp", target_pos=[0, 0, 0], joint_names=["elbow", "nope"])
  assert type(theirs) is KeyError
  assert type(ours) is KeyError
  assert "nope" in str(ours)


@pytest.mark.parametrize(
  "kwargs, message",
  [
    (dict(joint_names=[]), "`joint_names` is empty"),
    (dict(joint_names=np.array([], dtype=str)), "`joint_names` is empty"),
    (dict(joint_names=["elbow", 1]), "either joint names or DOF indices"),
    (dict(max_steps=0), "`max_steps` must be at least 1"),
    (dict(target_quat=[np.nan, 0, 0, 1]), "`target_quat` must be finite"),
    (dict(target_pos=[0, np.inf, 0]), "`target_pos` must be finite"),
  ],
)
def test_where_dm_control_crashes_we_raise_value_error(kwargs, message):
  """dm_control fails obscurely here (IndexError from its indexer or numpy,
  UnboundLocalError for max_steps=0, LinAlgError for a target that is not finite); we raise
  ValueError saying why."""
  kwargs = dict(dict(site_name="tcp", target_pos=[0.3, 0.2, 0.4]), **kwargs)
  with np.errstate(all="ignore"):
    ours, theirs = _errors(**kwargs)
  assert type(ours) is ValueError
  assert re.search(re.escape(message), str(ours))
  assert theirs is not None and type(theirs) is not ValueError


def test_dof_indices_pass_through_like_dm_control():
  """Integers in `joint_names` are DOF indices (dm_control's indexer passes them through)."""
  (ours, _), (theirs, _) = _solve_both(
    _arm_physics, _arm_start(1), site_name="tcp", target_pos=[0.2, 0.3, 0.5], joint_names=[1, 2, 3]
  )
  _assert_same(ours, theirs)
  assert ours.success


# ---- nullspace_method ----


@pytest.mark.parametrize("shape", [(3, 5), (6, 4), (6, 6), (3, 2)])
@pytest.mark.parametrize("strength", [0.0, 0.03])
def test_nullspace_method_matches_dm_control(shape, strength):
  from dm_control.utils import inverse_kinematics as theirs

  rng = np.random.RandomState(shape[0] * 10 + shape[1])
  jac = rng.normal(size=shape)
  delta = rng.normal(size=shape[0])
  ours = inverse_kinematics.nullspace_method(jac, delta, regularization_strength=strength)
  np.testing.assert_array_equal(
    ours, theirs.nullspace_method(jac, delta, regularization_strength=strength)
  )
  if strength:
    # the damped normal equations
    np.testing.assert_allclose(
      (jac.T @ jac + strength * np.eye(shape[1])) @ ours, jac.T @ delta, atol=1e-12
    )
  else:
    # the minimum-norm least-squares solution
    np.testing.assert_allclose(ours, np.linalg.pinv(jac) @ delta, atol=1e-10)
