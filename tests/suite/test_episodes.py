"""suite.episodes: the episode rules on one world's Python scalars (the single environment)
and on a batch's arrays (the vectorised one) give the same step types, discounts and resets."""

import copy
import itertools
import math

import dm_env
import numpy as np
import pytest

from suite import episodes

# every case: (time limit reached, the task's termination (NaN: none), physics failed)
_CASES = list(itertools.product((False, True), (math.nan, 0.0, 0.5), (False, True)))


def _expected(time_up, termination, failed):
  """(step type, discount) by the rules of the module docstring, as dm_control writes them."""
  if failed:
    return dm_env.StepType.LAST, 0.0
  if time_up:
    return dm_env.StepType.LAST, 1.0
  if math.isnan(termination):
    return dm_env.StepType.MID, 1.0
  return dm_env.StepType.LAST, termination


def test_one_world_and_a_batch_follow_the_same_rules():
  n = len(_CASES)
  batch = episodes.Episodes(n, step_limit=3)
  worlds = np.arange(n)
  batch.begin(worlds)
  for _ in range(2):
    assert not batch.count_step(worlds).any()
  assert batch.count_step(worlds).all() and (batch.step_count == 3).all()
  time_up, termination, failed = (np.array(column) for column in zip(*_CASES))
  step_type, discount = batch.end_step(worlds, time_up, termination, failed)
  for w, case in enumerate(_CASES):
    one = episodes.Episodes(1, step_limit=3)
    one.begin(0)
    assert not one.must_reset(0)
    single = one.end_step(0, *case)
    assert single == _expected(*case), case
    assert type(single[0]) is dm_env.StepType and type(single[1]) is float
    assert (step_type[w], discount[w]) == single, case
    assert batch.needs_reset[w] == one.must_reset(0) == (single[0] == dm_env.StepType.LAST)


def test_the_step_that_reaches_the_limit_is_the_last_and_a_reset_starts_over():
  one = episodes.Episodes(1, step_limit=2.0)
  assert one.must_reset(0)  # before the first reset
  one.begin(0)
  assert one.count_step(0) is False and one.end_step(0, False, math.nan)[0] == 1
  assert one.count_step(0) is True
  assert one.end_step(0, True, math.nan) == (dm_env.StepType.LAST, 1.0)
  assert one.must_reset(0) and one.step_count[0] == 2
  one.begin(0)
  assert not one.must_reset(0) and one.step_count[0] == 0


def test_state_is_read_only_outside_and_survives_a_copy():
  batch = episodes.Episodes(3, step_limit=float("inf"))
  batch.begin(np.array([0, 2]))
  batch.count_step(np.array([0]))
  with pytest.raises(ValueError):
    batch.needs_reset[1] = False
  twin = copy.deepcopy(batch)
  np.testing.assert_array_equal(twin.step_count, [1, 0, 0])
  np.testing.assert_array_equal(twin.needs_reset, [False, True, False])
  twin.count_step(0)
  assert twin.step_count[0] == 2 and batch.step_count[0] == 1
