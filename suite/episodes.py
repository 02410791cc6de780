"""Episode bookkeeping of N worlds: dm_env's episode rules as dm_control's rl.control applies
them, shared by the single environment (suite/control.py, N = 1) and the vectorised one
(suite/vector.py).

  episodes = Episodes(num_worlds, step_limit)
  episodes.begin(worlds)                        # a reset: FIRST step, step count 0
  time_up = episodes.count_step(worlds)         # a step was taken: time limit reached?
  step_type, discount = episodes.end_step(worlds, time_up, termination)
  episodes.must_reset(worlds)                   # the next step starts a new episode instead

Rules. Every step counts; the step that reaches the step limit is LAST with discount 1 (a
truncation; the caller need not ask the task for its termination then, and dm_control does
not). Otherwise a termination (the discount the task ends the episode with; NaN: it goes on)
makes the step LAST with that discount, and a failed step (its physics raised a warning: the
vectorised environment's physics_errors="end_episode") is LAST with discount 0. Any other
step is MID with discount 1. After a LAST step a world's next step is a reset.

`worlds` is one world's index, an int (the single environment: the values are Python
scalars; numpy's scalar operations would cost a microsecond each, a tenth of a small task's
step), or an array of indices (a batch: the values are arrays).
"""

import dm_env
import numpy as np

_LAST, _MID = dm_env.StepType.LAST, dm_env.StepType.MID
_LAST_CODE, _MID_CODE = int(_LAST), int(_MID)  # (numpy converts an enum member slowly)


class Episodes:
  """The episode state of `num_worlds` worlds (see the module docstring).

  Attributes:
    step_limit: steps per episode (a float: the time limit over the control timestep; inf:
      none).
    step_count: (num_worlds,) steps taken in each world's episode (read-only).
    needs_reset: (num_worlds,) whether each world's next step starts a new episode
      (read-only; True before the first reset).
  """

  def __init__(self, num_worlds, step_limit):
    self.step_limit = step_limit
    self._count = np.zeros(num_worlds, np.int64)
    self._reset = np.ones(num_worlds, bool)
    # the same arrays, indexed by one world: Python scalars
    self._count_items, self._reset_items = memoryview(self._count), memoryview(self._reset)
    self.step_count = self._count.view()
    self.needs_reset = self._reset.view()
    self.step_count.flags.writeable = self.needs_reset.flags.writeable = False

  def __getstate__(self):  # the memoryviews do not pickle; they are rebuilt
    return self.step_limit, self._count, self._reset

  def __setstate__(self, state):
    step_limit, count, reset = state
    self.__init__(len(count), step_limit)
    self._count[:], self._reset[:] = count, reset

  def must_reset(self, worlds):
    """Whether the next step of `worlds` starts a new episode (their last step was LAST)."""
    return (self._reset_items if type(worlds) is int else self._reset)[worlds]

  def begin(self, worlds) -> None:
    """`worlds` start a new episode: their step counts go back to 0."""
    one = type(worlds) is int
    (self._count_items if one else self._count)[worlds] = 0
    (self._reset_items if one else self._reset)[worlds] = False

  def count_step(self, worlds):
    """Counts a step of `worlds`; returns whether it reached the time limit."""
    count = self._count_items if type(worlds) is int else self._count
    steps = count[worlds] + 1
    count[worlds] = steps
    return steps >= self.step_limit

  def end_step(self, worlds, time_up, termination, failed=False):
    """The step types and discounts of the step `worlds` took (see the module docstring);
    the worlds whose step is LAST reset at their next step.

    Args:
      worlds: a world's index or an index array.
      time_up: what count_step returned for them.
      termination: the task's discount to end the episode with, NaN where it goes on
        (ignored where time_up).
      failed: whether their physics failed (a batch with physics_errors="end_episode"; the
        single environment raises PhysicsError instead).
    """
    ends = time_up | (termination == termination)  # the time limit, or a termination (not NaN)
    terminated = ends ^ time_up  # a termination before the time limit
    last = ends | failed
    if isinstance(last, np.ndarray):  # a batch
      self._reset[worlds] = last
      discount = np.where(terminated, termination, 1.0)
      discount[failed] = 0.0
      return np.where(last, _LAST_CODE, _MID_CODE), discount
    self._reset_items[worlds] = last  # one world: the same rule on Python scalars
    return (_LAST if last else _MID), (0.0 if failed else termination if terminated else 1.0)
