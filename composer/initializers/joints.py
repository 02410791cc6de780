"""JointsInitializer: joint positions and velocities drawn at episode start."""

import numpy as np

from composer import initializer
from composer.variation import evaluate


class JointsInitializer(initializer.Initializer):
  """Sets the positions and velocities of some joints, each a value or a variation
  (e.g. distributions.Uniform(-0.1, 0.1)) evaluated with the episode's random state.

  Args:
    joints: MJCF joint elements (one or a list).
    position: qpos of the joints (concatenated in joint order: 1 per hinge or slide, 4 per
      ball, 7 per free joint), or None to leave them; drawn values of limited hinge and slide
      joints are clipped into their range.
    velocity: qvel of the joints (1, 3 or 6 per joint), or None to leave them.
  """

  def __init__(self, joints, position=None, velocity=None):
    self._joints = list(joints) if isinstance(joints, (list, tuple)) else [joints]
    if not self._joints:
      raise ValueError("JointsInitializer needs at least one joint")
    self._position = position
    self._velocity = velocity

  def __call__(self, physics, random_state):
    bound = physics.bind(self._joints)
    if self._position is not None:
      qpos = np.broadcast_to(
        evaluate(self._position, random_state=random_state), bound.qpos.shape
      ).astype(float)
      limited = np.asarray(bound.limited, bool) & (bound.range[:, 0] < bound.range[:, 1])
      # clipping applies to one-coordinate joints (a limited ball joint's range is an angle)
      scalar = np.asarray(physics.model.jnt_type[bound.element_id]) >= 2
      for k, (lo, hi) in enumerate(bound.range):
        if limited[k] and scalar[k]:
          adr = _qpos_offset(physics, bound, k)
          qpos[adr] = np.clip(qpos[adr], lo, hi)
      bound.qpos = qpos
    if self._velocity is not None:
      bound.qvel = np.broadcast_to(
        evaluate(self._velocity, random_state=random_state), bound.qvel.shape
      )


def _qpos_offset(physics, bound, k):
  """Index of joint k's first coordinate in the bound joints' concatenated qpos."""
  sizes = {0: 7, 1: 4, 2: 1, 3: 1}
  types = physics.model.jnt_type[bound.element_id]
  return int(sum(sizes[int(t)] for t in types[:k]))
