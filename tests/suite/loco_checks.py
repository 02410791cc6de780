"""Checks shared by the tests of the locomotion domains (cheetah, hopper, walker, fish,
swimmer): compiled totals against docs/suite_models.md, and resets at several seeds against
dm_control 1.0.50."""

import numpy as np

from tests.suite import parity

SIZES = (
  "nq",
  "nv",
  "nu",
  "na",
  "nbody",
  "njnt",
  "ngeom",
  "nsite",
  "ntendon",
  "nsensor",
  "nsensordata",
)


def assert_totals(model, mass, meaninertia, **sizes):
  """The model's sizes, total mass and stat.meaninertia are the tabulated ones (the tables
  give 6-7 significant digits)."""
  for name, value in sizes.items():
    assert getattr(model, name) == value, name
  np.testing.assert_allclose(model.body_mass.sum(), mass, rtol=1e-6)
  np.testing.assert_allclose(model.stat.meaninertia, meaninertia, rtol=1e-5)


def compare_resets(ours, theirs, episodes=3):
  """Consecutive resets of two environments give the same first observations: the random
  draws of every episode, not only the first, come in dm_control's order."""
  for episode in range(episodes):
    t1, t2 = ours.reset(), theirs.reset()
    parity.assert_observations_close(
      t1.observation, t2.observation, parity.RESET_ATOL, f"episode {episode}"
    )


def compare_steps(ours, theirs, nsteps=20):
  """After a reset, `nsteps` random actions from dm_control's state give the same rewards and
  observations (as parity.compare_task, for environments built by hand)."""
  t1, t2 = ours.reset(), theirs.reset()
  parity.assert_observations_close(t1.observation, t2.observation, parity.RESET_ATOL, "reset")
  for i, action in enumerate(parity.random_actions(theirs.action_spec(), nsteps)):
    parity.copy_state(theirs, ours)
    t1, t2 = ours.step(action), theirs.step(action)
    np.testing.assert_allclose(
      t1.reward, t2.reward, rtol=0, atol=parity.OBS_ATOL, err_msg=f"step {i} reward"
    )
    parity.assert_observations_close(t1.observation, t2.observation, parity.OBS_ATOL, f"step {i}")


def step_types_until_last(env, nsteps):
  """The step types of up to `nsteps` zero-action steps after a reset, up to the first LAST."""
  env.reset()
  action = np.zeros(env.action_spec().shape)
  types = []
  for _ in range(nsteps):
    step = env.step(action)
    types.append((int(step.step_type), step.discount))
    if step.last():
      break
  return types
