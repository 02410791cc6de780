"""Every suite task against dm_control 1.0.50 at the same seed (tests/suite/parity.py)."""

import pytest

import suite
from tests.suite import parity


def test_task_lists_are_a_subset_of_dm_controls():
  from dm_control import suite as dm_suite

  assert set(suite.ALL_TASKS) <= set(dm_suite.ALL_TASKS)
  for name in ("BENCHMARKING", "EASY", "HARD", "NO_REWARD_VIZ"):
    ours = set(getattr(suite, name))
    assert ours == set(getattr(dm_suite, name)) & set(suite.ALL_TASKS), name


def _tasks():
  """Every task: by default the first task of each domain, the others with `-m slow`."""
  params, seen = [], set()
  for domain, task in suite.ALL_TASKS:
    params.append(pytest.param(domain, task, marks=[pytest.mark.slow] if domain in seen else []))
    seen.add(domain)
  return params


@pytest.mark.parametrize("domain,task", _tasks())
def test_matches_dm_control(domain, task):
  parity.compare_task(domain, task)


@pytest.mark.parametrize("domain,task", _tasks())
def test_episode_length(domain, task):
  parity.compare_episode_end(domain, task)
