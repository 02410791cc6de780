"""The Jaco arm reaches for a brick, grasps it and lifts it, steered by inverse kinematics.

  python examples/jaco_reach.py [--seed N]

A scripted policy for `lift_brick_features` (the large box of `lift_large_box_features` is too
wide for this grasp): at each control step it solves inverse kinematics
(composer.utils.inverse_kinematics) for the joint angles that put the hand's pinch site at the
current waypoint, pointing down with the fingers closing across the brick's short side, and
commands joint velocities towards them (the arm's actuators are velocity servos). The waypoints:
above the brick, down to its centre, hold while the fingers close, then up. It prints the reward
along the way; the task pays 1 once the brick's lowest corner is lifted past the target height.
`run` works unchanged on dm_control's environment with dm_control's inverse kinematics
(tests/manipulation compare the two).
"""

import argparse
import os
import pathlib
import sys

os.environ.setdefault("MUJOCO_GL", "egl")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import engine  # noqa: E402
from composer.utils import inverse_kinematics  # noqa: E402
from suite import manipulation  # noqa: E402

# (seconds, pinch site's offset from the brick's starting position in metres, finger command)
_PHASES = (
  (1.6, (0.0, 0.0, 0.12), -1.0),  # above the brick, fingers opening
  (1.6, (0.0, 0.0, 0.0), -1.0),  # down to its centre, the fingers on either side of it
  (1.2, (0.0, 0.0, 0.0), 1.0),  # close on it
  (2.4, (0.0, 0.0, 0.36), 1.0),  # lift past the target height, holding it
)
_GAIN = 4.0  # joint velocity per radian of error (1/s)


def _waypoints(control_timestep):
  """(offset, finger command) for every control step of the script."""
  steps = []
  for seconds, offset, fingers in _PHASES:
    steps += [(np.array(offset), fingers)] * int(round(seconds / control_timestep))
  return steps


def run(env, ik=inverse_kinematics, verbose=True):
  """Runs the script for one episode of `env` (a lift task); returns the rewards of its steps.

  `ik` is the inverse-kinematics module used on env.physics (dm_control's environments take
  dm_control's: the script runs unchanged on both)."""
  timestep = env.reset()
  physics, task = env.physics, env.task
  arm_joints = physics.bind(task.arm.joints)
  pinch = task.hand.pinch_site.full_identifier
  prop_key = next(key for key in timestep.observation if key.endswith("/position"))
  start = timestep.observation[prop_key][0].copy()
  orientation = _grasp_orientation(
    timestep.observation[prop_key.replace("/position", "/orientation")][0],
    np.array(physics.bind(task.hand.pinch_site).xmat),
  )
  joint_names = [joint.full_identifier for joint in task.arm.joints]
  spec = env.action_spec()  # the arm's joint velocities, then the fingers'
  narm = len(task.arm.actuators)
  low, high = spec.minimum[:narm], spec.maximum[:narm]

  rewards = []
  action = np.zeros(spec.shape)
  for step, (offset, fingers) in enumerate(_waypoints(env.control_timestep())):
    result = ik.qpos_from_site_pose(
      physics,
      pinch,
      target_pos=start + offset,
      target_quat=orientation,
      joint_names=joint_names,
      max_steps=50,
    )
    error = result.qpos[physics.model.jnt_qposadr[arm_joints.element_id]] - arm_joints.qpos
    action[:narm] = np.clip(_GAIN * error, low, high)
    action[narm:] = fingers * spec.maximum[narm:]
    timestep = env.step(action)
    rewards.append(timestep.reward)
    if verbose and step % 10 == 0:
      height = timestep.observation[prop_key][0][2]
      print(
        f"t={physics.data.time:5.2f} s  reward {timestep.reward:.3f}  brick height {height:.3f} m"
      )
    if timestep.last():
      break
  if verbose:
    print(f"return {sum(rewards):.2f} over {len(rewards)} steps, final reward {rewards[-1]:.3f}")
  return rewards


def _grasp_orientation(prop_quat, pinch_xmat):
  """The pinch site's target orientation: pointing down (its z axis), its x axis (the
  direction the fingers close in) along the prop's x axis (a brick's short side), of the two
  senses the one nearer the site's current x axis."""
  prop_xmat = np.empty(9)
  engine.mju_quat2Mat(prop_xmat, np.asarray(prop_quat, dtype=np.float64))
  x = np.array([prop_xmat[0], prop_xmat[3], 0.0])  # the prop's x axis, made horizontal
  x /= np.linalg.norm(x)
  if x @ pinch_xmat.reshape(3, 3)[:, 0] < 0:
    x = -x
  z = np.array([0.0, 0.0, -1.0])
  frame = np.column_stack([x, np.cross(z, x), z])
  quat = np.empty(4)
  engine.mju_mat2Quat(quat, frame.ravel())
  return quat


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args(argv)
  print(f"lift_brick_features, seed {args.seed}")
  run(manipulation.load("lift_brick_features", seed=args.seed))


if __name__ == "__main__":
  main()
