"""Cheetah beyond the parity test: the tabulated model, the settled reset at several seeds."""

import pytest

import suite
from tests.suite import loco_checks
from tests.suite import parity


def test_model_totals():
  model = suite.load("cheetah", "run").physics.model
  loco_checks.assert_totals(
    model,
    mass=14,
    meaninertia=3.7227,
    nq=9,
    nv=9,
    nu=6,
    na=0,
    nbody=8,
    njnt=9,
    ngeom=9,
    nsite=0,
    ntendon=0,
    nsensor=1,
    nsensordata=3,
  )


@pytest.mark.parametrize("seed", [1, 2])
def test_resets_match_dm_control(seed):
  ours, theirs = parity.load_pair("cheetah", "run", seed=seed)
  loco_checks.compare_resets(ours, theirs)


def test_reset_restarts_the_clock():
  """The 200 settling steps happen inside the reset: an episode starts at time 0."""
  env = suite.load("cheetah", "run", task_kwargs={"random": 0})
  env.reset()
  assert env.physics.data.time == 0
