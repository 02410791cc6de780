"""Parity with dm_control 1.0.50 beyond random-action rollouts: observations and rewards at
sampled states (so sparse rewards are seen to fire), the model fields a task edits at episode
start, and a domain's compiled totals (docs/suite_models.md)."""

import numpy as np

from tests.suite import parity


def set_state(physics, qpos, qvel, ctrl):
  """Puts the state in, recomputes everything (actuation off, as at a reset), then sets ctrl."""
  with physics.reset_context():
    physics.data.qpos[:] = qpos
    physics.data.qvel[:] = qvel
  physics.data.ctrl[:] = ctrl


def compare_at_states(domain, task, sample, n=100, seed=0):
  """Sets `n` states `sample(rng) -> (qpos, qvel, ctrl)` in both libraries after one reset and
  compares observations (1e-9) and rewards (1e-12: our tolerance() computes scalars with the
  math module, which may round the last bit differently from numpy); returns dm_control's
  rewards."""
  ours, theirs = parity.load_pair(domain, task, seed)
  ours.reset()
  theirs.reset()
  rng = np.random.RandomState(seed)
  rewards = []
  for i in range(n):
    qpos, qvel, ctrl = sample(rng)
    for env in (ours, theirs):
      set_state(env.physics, qpos, qvel, ctrl)
    parity.assert_observations_close(
      ours.task.get_observation(ours.physics),
      theirs.task.get_observation(theirs.physics),
      1e-9,
      f"state {i}",
    )
    reward = theirs.task.get_reward(theirs.physics)
    np.testing.assert_allclose(
      ours.task.get_reward(ours.physics), reward, rtol=1e-12, atol=1e-15, err_msg=f"state {i}"
    )
    rewards.append(reward)
  return np.array(rewards)


def compare_model_edits(domain, task, fields, episodes=5, seed=0):
  """After each of `episodes` resets, the model fields a task writes equal dm_control's."""
  ours, theirs = parity.load_pair(domain, task, seed)
  for episode in range(episodes):
    ours.reset()
    theirs.reset()
    for name in fields:
      np.testing.assert_array_equal(
        getattr(ours.physics.model, name),
        getattr(theirs.physics.model, name),
        err_msg=f"episode {episode}: model.{name}",
      )


def assert_totals(
  model, nq, nv, nu, nbody, njnt, ngeom, nsite, ntendon, nsensordata, mass, meaninertia
):
  """The compiled sizes, total mass and stat.meaninertia of dm_control's model
  (docs/suite_models.md)."""
  sizes = (
    model.nq,
    model.nv,
    model.nu,
    model.nbody,
    model.njnt,
    model.ngeom,
    model.nsite,
    model.ntendon,
    model.nsensordata,
  )
  assert sizes == (nq, nv, nu, nbody, njnt, ngeom, nsite, ntendon, nsensordata)
  np.testing.assert_allclose(model.body_mass.sum(), mass, rtol=1e-6)
  np.testing.assert_allclose(model.stat.meaninertia, meaninertia, rtol=1e-5)


def compare_physics_methods(domain, task, nsteps=20, seed=0):
  """Every accessor method dm_control's Physics of `domain` defines gives ours' values (1e-9,
  the same shape) at the states of a dm_control rollout of random actions, each put into both
  libraries; returns the names compared."""
  ours, theirs = parity.load_pair(domain, task, seed)
  names = [
    name
    for name, value in vars(type(theirs.physics)).items()
    if callable(value) and not name.startswith("_")
  ]
  ours.reset()
  theirs.reset()
  for i, action in enumerate(parity.random_actions(theirs.action_spec(), nsteps)):
    theirs.step(action)
    data = theirs.physics.data
    state = data.qpos.copy(), data.qvel.copy(), data.ctrl.copy()
    for env in (ours, theirs):
      set_state(env.physics, *state)
    for name in names:
      value, expected = getattr(ours.physics, name)(), getattr(theirs.physics, name)()
      assert np.shape(value) == np.shape(expected), (i, name)
      np.testing.assert_allclose(value, expected, rtol=0, atol=1e-9, err_msg=f"step {i}: {name}")
  return names
