"""Fish beyond the parity test: the tabulated model, resets at several seeds, the target."""

import numpy as np
import pytest

import suite
from tests.suite import loco_checks
from tests.suite import parity
from tests.suite import state_parity


def test_model_totals():
  model = suite.load("fish", "upright").physics.model
  loco_checks.assert_totals(
    model,
    mass=0.03448838,
    meaninertia=0.00797278,
    nq=14,
    nv=13,
    nu=5,
    na=0,
    nbody=6,
    njnt=8,
    ngeom=12,
    nsite=1,
    ntendon=2,
    nsensor=2,
    nsensordata=6,
  )


@pytest.mark.parametrize("task", ["upright", "swim"])
def test_resets_match_dm_control(task):
  ours, theirs = parity.load_pair("fish", task, seed=5)
  loco_checks.compare_resets(ours, theirs)


@pytest.mark.parametrize("task", ["upright", "swim"])
def test_target_as_dm_control(task):
  """Upright hides the target; swim moves it (a model edit that persists)."""
  ours, theirs = parity.load_pair("fish", task, seed=6)
  for _ in range(2):
    ours.reset(), theirs.reset()
    for field in ("geom_pos", "geom_rgba"):
      np.testing.assert_array_equal(
        getattr(ours.physics.named.model, field)["target"],
        getattr(theirs.physics.named.model, field)["target"],
      )


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("fish", "swim")
  assert names == [
    "upright",
    "torso_velocity",
    "joint_velocities",
    "joint_angles",
    "mouth_to_target",
  ]
