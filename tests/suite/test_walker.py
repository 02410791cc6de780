"""Walker beyond the parity test: the tabulated model, resets at several seeds, and the episode
end for a time limit that is not a whole number of control steps in floating point."""

import pytest

import suite
from tests.suite import loco_checks
from tests.suite import parity


def test_model_totals():
  model = suite.load("walker", "stand").physics.model
  loco_checks.assert_totals(
    model,
    mass=28.54032,
    meaninertia=9.02435,
    nq=9,
    nv=9,
    nu=6,
    na=0,
    nbody=8,
    njnt=9,
    ngeom=8,
    nsite=0,
    ntendon=0,
    nsensor=1,
    nsensordata=3,
  )


@pytest.mark.parametrize("task", ["stand", "walk", "run"])
def test_resets_match_dm_control(task):
  ours, theirs = parity.load_pair("walker", task, seed=4)
  loco_checks.compare_resets(ours, theirs)


@pytest.mark.parametrize("time_limit", [3 * 0.025, 0.075, 0.1])
def test_episode_end_matches_dm_control(time_limit):
  """3 * 0.025 is 0.07500000000000001, 3.0000000000000004 control steps: dm_control (and so
  we) end that episode after 4 steps, not 3."""
  ours, theirs = parity.load_pair("walker", "walk", time_limit=time_limit)
  expected = loco_checks.step_types_until_last(theirs, 10)
  assert loco_checks.step_types_until_last(ours, 10) == expected
  assert expected[-1] == (2, 1.0)
