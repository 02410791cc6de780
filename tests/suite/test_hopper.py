"""Hopper beyond the parity test: the tabulated model, resets at several seeds."""

import pytest

import suite
from tests.suite import loco_checks
from tests.suite import parity


def test_model_totals():
  model = suite.load("hopper", "stand").physics.model
  loco_checks.assert_totals(
    model,
    mass=12.43915,
    meaninertia=4.45036,
    nq=7,
    nv=7,
    nu=4,
    na=0,
    nbody=6,
    njnt=7,
    ngeom=7,
    nsite=2,
    ntendon=0,
    nsensor=3,
    nsensordata=5,
  )


@pytest.mark.parametrize("task", ["stand", "hop"])
def test_resets_match_dm_control(task):
  ours, theirs = parity.load_pair("hopper", task, seed=3)
  loco_checks.compare_resets(ours, theirs)
