"""Actions in another range, mapped linearly onto the environment's (dm_control's
`wrappers.action_scale`)."""

import numpy as np

from suite.wrappers import _base


class Wrapper(_base.Wrapper):
  """Accepts actions in [minimum, maximum] and maps them affinely onto the wrapped
  environment's action bounds."""

  def __init__(self, env, minimum, maximum):
    """`minimum`, `maximum`: the new bounds, scalars or arrays of the action shape.

    Raises:
      ValueError: non-finite bounds (old or new), or new bounds that do not broadcast to the
        action shape.
    """
    spec = env.action_spec()
    minimum = np.broadcast_to(np.asarray(minimum, spec.dtype), spec.shape)
    maximum = np.broadcast_to(np.asarray(maximum, spec.dtype), spec.shape)
    for name, bound in (
      ("minimum", minimum),
      ("maximum", maximum),
      ("env.action_spec().minimum", spec.minimum),
      ("env.action_spec().maximum", spec.maximum),
    ):
      if not np.all(np.isfinite(bound)):
        raise ValueError(f"`{name}` must be finite, got {bound}.")
    super().__init__(env)
    self._minimum = minimum
    self._scale = (spec.maximum - spec.minimum) / (maximum - minimum)
    self._offset = spec.minimum
    self._action_spec = spec.replace(minimum=minimum, maximum=maximum)

  def step(self, action):
    action = np.asarray(action, self._action_spec.dtype)
    if action.shape != self._action_spec.shape:
      raise ValueError(f"action has shape {action.shape}, expected {self._action_spec.shape}")
    return self._env.step(self._offset + self._scale * (action - self._minimum))

  def action_spec(self):
    return self._action_spec
