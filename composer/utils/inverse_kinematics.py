"""Inverse kinematics of a site by damped least squares (dm_control.utils.inverse_kinematics).

  result = qpos_from_site_pose(physics, 'arm/pinch', target_pos=(0.1, 0.2, 0.3),
                               joint_names=['arm/joint_1', 'arm/joint_2'])

Each step linearizes the site's pose with its Jacobian, solves for the joint update that
removes the pose error (with an L2 penalty on the update while the error is large), caps the
update's norm and integrates it into `qpos`. It stops when the error is below `tol`, when an
update barely reduces the error relative to its size (a local minimum), or after `max_steps`.
Joint limits are not taken into account.
"""

import collections
import logging

import numpy as np

import engine

_LOG = logging.getLogger(__name__)
_INVALID_JOINT_NAMES_TYPE = (
  "`joint_names` must be either None, a list, a tuple, or a numpy array; got {}."
)
_REQUIRE_TARGET_POS_OR_QUAT = "At least one of `target_pos` or `target_quat` must be specified."

IKResult = collections.namedtuple("IKResult", ["qpos", "err_norm", "steps", "success"])


def _dof_indices(physics, joint_names):
  """Columns of the Jacobian (entries of the velocity update) that `joint_names` may move.

  Names select all the DOFs of their joints, in the order given; integers are taken as DOF
  indices, as dm_control's indexer passes them through.
  """
  if joint_names is None:
    return slice(None)
  if not isinstance(joint_names, (list, np.ndarray, tuple)):
    raise ValueError(_INVALID_JOINT_NAMES_TYPE.format(type(joint_names)))
  items = list(np.ravel(joint_names)) if isinstance(joint_names, np.ndarray) else list(joint_names)
  # dm_control fails here with an IndexError from deep inside its indexer (empty list) or
  # later with a numpy one (names mixed with integers); we say what is wrong instead.
  if not items:
    raise ValueError("`joint_names` is empty: give at least one joint, or None for all joints.")
  if not (
    all(isinstance(item, str) for item in items)
    or all(isinstance(item, (int, np.integer)) for item in items)
  ):
    raise ValueError(f"`joint_names` must hold either joint names or DOF indices, got {items!r}.")
  return physics.named.model.dof_jntid.axes.row.convert(items)


def qpos_from_site_pose(
  physics,
  site_name,
  target_pos=None,
  target_quat=None,
  joint_names=None,
  tol=1e-14,
  rot_weight=1.0,
  regularization_threshold=0.1,
  regularization_strength=3e-2,
  max_update_norm=2.0,
  progress_thresh=20.0,
  max_steps=100,
  inplace=False,
):
  """Joint positions that put a site at a target position and/or orientation.

  Args:
    physics: an `engine.Physics` (or `mjcf.Physics`).
    site_name: the site's name.
    target_pos: (3,) Cartesian position for the site, or None to leave it free.
    target_quat: (4,) orientation quaternion for the site, or None to leave it free; at least
      one of the two targets must be given.
    joint_names: the joints the solver may move (list, tuple or numpy array of names), or None
      for all of them.
    tol: the solver succeeds once `err_norm` is below this.
    rot_weight: weight of the rotational error relative to the translational one.
    regularization_threshold: the update is L2-regularized while `err_norm` exceeds this.
    regularization_strength: coefficient of that regularization.
    max_update_norm: the joint update of a step is scaled down to at most this norm.
    progress_thresh: the solver gives up when `err_norm` divided by the update's norm exceeds
      this (it is making too little progress: a local minimum).
    max_steps: the most iterations to run.
    inplace: move `physics` itself; by default a copy sharing the model is moved.

  Returns:
    An `IKResult(qpos, err_norm, steps, success)`: the (nq,) joint positions (a view of
    `physics.data.qpos` when `inplace`, else a copy), the last error (translational norm plus
    `rot_weight` times rotational norm), the index of the last iteration, and whether `tol`
    was reached.

  Raises:
    ValueError: both targets are None, a target is not finite, `joint_names` has an
      unsupported type or is empty, or `max_steps` is below 1.
  """
  dtype = physics.data.qpos.dtype
  nv = physics.model.nv

  if target_pos is not None and target_quat is not None:
    jac = np.empty((6, nv), dtype=dtype)
    err = np.empty(6, dtype=dtype)
    jac_pos, jac_rot = jac[:3], jac[3:]
    err_pos, err_rot = err[:3], err[3:]
  elif target_pos is not None:
    jac = np.empty((3, nv), dtype=dtype)
    err = np.empty(3, dtype=dtype)
    jac_pos, jac_rot, err_pos, err_rot = jac, None, err, None
  elif target_quat is not None:
    jac = np.empty((3, nv), dtype=dtype)
    err = np.empty(3, dtype=dtype)
    jac_pos, jac_rot, err_pos, err_rot = None, jac, None, err
  else:
    raise ValueError(_REQUIRE_TARGET_POS_OR_QUAT)
  # dm_control reads an unset `err_norm` (UnboundLocalError) when no step runs, and stops
  # with numpy's LinAlgError ('SVD did not converge') on a target that is not finite.
  if max_steps < 1:
    raise ValueError(f"`max_steps` must be at least 1, got {max_steps}.")
  for name, target in (("target_pos", target_pos), ("target_quat", target_quat)):
    if target is not None and not np.all(np.isfinite(target)):
      raise ValueError(f"`{name}` must be finite, got {target}.")

  update_nv = np.zeros(nv, dtype=dtype)
  if target_quat is not None:
    target_quat = np.asarray(target_quat, dtype=np.float64)
    site_xquat = np.empty(4, dtype=dtype)
    neg_site_xquat = np.empty(4, dtype=dtype)
    err_rot_quat = np.empty(4, dtype=dtype)

  if not inplace:
    physics = physics.copy(share_model=True)
  model, data = physics.model.ptr, physics.data.ptr

  engine.mj_fwdPosition(model, data)  # the site's pose of the starting qpos
  site_id = physics.model.name2id(site_name, "site")
  # Views into the data: each mj_fwdPosition refreshes them.
  site_xpos = physics.data.site_xpos[site_id]
  site_xmat = physics.data.site_xmat[site_id]

  dof_indices = _dof_indices(physics, joint_names)

  steps = 0
  success = False
  for steps in range(max_steps):
    err_norm = 0.0
    if target_pos is not None:
      err_pos[:] = target_pos - site_xpos
      err_norm += np.linalg.norm(err_pos)
    if target_quat is not None:
      # Rotation taking the site's orientation to the target, as an angular velocity (dt=1).
      engine.mju_mat2Quat(site_xquat, site_xmat)
      engine.mju_negQuat(neg_site_xquat, site_xquat)
      engine.mju_mulQuat(err_rot_quat, target_quat, neg_site_xquat)
      engine.mju_quat2Vel(err_rot, err_rot_quat, 1.0)
      err_norm += np.linalg.norm(err_rot) * rot_weight

    if err_norm < tol:
      _LOG.debug("Converged after %i steps: err_norm=%3g", steps, err_norm)
      success = True
      break

    engine.mj_jacSite(model, data, jac_pos, jac_rot, site_id)
    jac_joints = jac[:, dof_indices]
    reg_strength = regularization_strength if err_norm > regularization_threshold else 0.0
    update_joints = nullspace_method(jac_joints, err, regularization_strength=reg_strength)
    update_norm = np.linalg.norm(update_joints)

    # A large error for a small update: the solver is stuck.
    progress_criterion = err_norm / update_norm
    if progress_criterion > progress_thresh:
      _LOG.debug(
        "Step %2i: err_norm / update_norm (%3g) > tolerance (%3g). Halting due "
        "to insufficient progress",
        steps,
        progress_criterion,
        progress_thresh,
      )
      break
    if update_norm > max_update_norm:
      update_joints *= max_update_norm / update_norm

    update_nv[dof_indices] = update_joints
    engine.mj_integratePos(model, data.qpos, update_nv, 1)  # quaternions stay on the sphere
    engine.mj_fwdPosition(model, data)
    _LOG.debug("Step %2i: err_norm=%-10.3g update_norm=%-10.3g", steps, err_norm, update_norm)

  if not success and steps == max_steps - 1:
    _LOG.warning("Failed to converge after %i steps: err_norm=%3g", steps, err_norm)

  qpos = physics.data.qpos if inplace else physics.data.qpos.copy()
  return IKResult(qpos=qpos, err_norm=err_norm, steps=steps, success=success)


def nullspace_method(jac_joints, delta, regularization_strength=0.0):
  """Joint velocities that move the end effector by `delta` (damped least squares).

  Solves (J^T J + lambda I) dq = J^T delta; without regularization (lambda = 0) the
  least-squares solution, which handles a singular J^T J.

  Args:
    jac_joints: (ndelta, nv) Jacobian of the end effector with respect to the joints.
    delta: (ndelta,) desired change of position, rotation, or both (3 or 6 entries).
    regularization_strength: lambda, the weight of the quadratic penalty on the velocities.

  Returns:
    The (nv,) joint velocities.

  Reference: Buss, S. R. (2004), Introduction to inverse kinematics with Jacobian transpose,
  pseudoinverse and damped least squares methods.
  """
  hess_approx = jac_joints.T.dot(jac_joints)
  joint_delta = jac_joints.T.dot(delta)
  if regularization_strength > 0:
    hess_approx += np.eye(hess_approx.shape[0]) * regularization_strength
    return np.linalg.solve(hess_approx, joint_delta)
  return np.linalg.lstsq(hess_approx, joint_delta, rcond=-1)[0]
