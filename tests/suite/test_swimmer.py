"""Swimmer beyond the parity test: the tabulated models, the generic n-link constructor, resets
at several seeds."""

import os

import pytest

import suite
from suite import swimmer
from tests.suite import loco_checks
from tests.suite import parity
from tests.suite import state_parity

os.environ.setdefault("MUJOCO_GL", "disable")

from dm_control.suite import swimmer as dm_swimmer  # noqa: E402  (after MUJOCO_GL)


def test_model_totals():
  model = suite.load("swimmer", "swimmer6").physics.model
  loco_checks.assert_totals(
    model,
    mass=0.06,
    meaninertia=0.0168381,
    nq=8,
    nv=8,
    nu=5,
    na=0,
    nbody=7,
    njnt=8,
    ngeom=17,
    nsite=6,
    ntendon=0,
    nsensor=16,
    nsensordata=48,
  )
  model = suite.load("swimmer", "swimmer15").physics.model
  loco_checks.assert_totals(
    model, mass=0.15, meaninertia=0.0458832, nq=17, nu=14, nbody=16, ngeom=35, nsensor=34
  )


def test_registered_tasks():
  """The generic constructor is not a task."""
  assert list(swimmer.SUITE) == ["swimmer6", "swimmer15"]
  assert swimmer.SUITE.tagged("benchmarking") == ["swimmer6", "swimmer15"]


@pytest.mark.parametrize("n_links", [3, 8])
def test_generic_constructor_matches_dm_control(n_links):
  ours = swimmer.swimmer(n_links=n_links, random=2)
  theirs = dm_swimmer.swimmer(n_links=n_links, random=2)
  parity.assert_specs_equal(ours, theirs)
  assert ours.physics.model.nu == n_links - 1
  loco_checks.compare_steps(ours, theirs)


def test_too_few_links():
  with pytest.raises(ValueError, match="At least 3 bodies"):
    swimmer.swimmer(n_links=2)


@pytest.mark.parametrize("task", ["swimmer6", "swimmer15"])
def test_resets_match_dm_control(task):
  """Several episodes: the target's random placement comes after the joints' draws."""
  ours, theirs = parity.load_pair("swimmer", task, seed=7)
  loco_checks.compare_resets(ours, theirs, episodes=5)


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("swimmer", "swimmer6")
  assert names == ["nose_to_target", "nose_to_target_dist", "body_velocities", "joints"]
