"""Seed-level parity with dm_control 1.0.50 (the test-only oracle of the RL layer).

`compare_task(domain, task)` loads the task in both libraries with the same seed and checks,
as docs/suite.md describes: identical action and observation specs, the first observation after
reset (1e-6), then `n` steps of the same random actions, each starting from dm_control's state
(copied into ours), with rewards, observations, step types and discounts compared (1e-4).
"""

import os

import numpy as np

import engine
import suite

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

from dm_control import suite as dm_suite  # noqa: E402  (after MUJOCO_GL)

if os.environ["MUJOCO_GL"] == "disable":
  # dm_control's quadruped/escape reset uploads the new height field to a GL context, which it
  # cannot create without a backend (docs/suite.md); physics needs none.
  dm_suite.quadruped.Physics.contexts = property(lambda self: None)

OBS_ATOL = 1e-4
RESET_ATOL = 1e-6
# large readings (dog/fetch's paw force at reset, ~51 N) also get a relative tolerance: the
# models are written with 6-7 significant digits (docs/suite.md), which moves a 51 N contact
# force by ~5e-8 of its value
RESET_RTOL = 1e-7


def load_pair(domain, task, seed=0, **task_kwargs):
  kwargs = dict(task_kwargs, random=seed)
  ours = suite.load(domain, task, task_kwargs=dict(kwargs))
  theirs = dm_suite.load(domain, task, task_kwargs=dict(kwargs))
  return ours, theirs


def assert_specs_equal(ours, theirs):
  a, b = ours.action_spec(), theirs.action_spec()
  assert a.shape == b.shape and a.dtype == b.dtype
  np.testing.assert_array_equal(a.minimum, b.minimum)
  np.testing.assert_array_equal(a.maximum, b.maximum)
  oa, ob = ours.observation_spec(), theirs.observation_spec()
  assert list(oa) == list(ob), (list(oa), list(ob))
  for key in ob:
    assert oa[key].shape == ob[key].shape, key
    assert oa[key].dtype == ob[key].dtype, key


def assert_observations_close(ours, theirs, atol, label="", rtol=0.0):
  assert list(ours) == list(theirs), label
  for key in theirs:
    np.testing.assert_allclose(
      np.asarray(ours[key]),
      np.asarray(theirs[key]),
      rtol=rtol,
      atol=atol,
      err_msg=f"{label} observation {key!r}",
    )


def copy_state(theirs, ours):
  """dm_control's simulation state into ours, then our half step (mj_step1) recomputed, so the
  next legacy step starts where dm_control's does."""
  src, dst = theirs.physics.data, ours.physics.data
  for name in ("qpos", "qvel", "act", "qacc_warmstart", "ctrl", "mocap_pos", "mocap_quat"):
    getattr(dst, name)[:] = getattr(src, name)
  dst.time = src.time
  engine.mj_step1(ours.physics.model.ptr, ours.physics.data.ptr)


def random_actions(spec, n, seed=1):
  rng = np.random.RandomState(seed)
  lo = np.maximum(spec.minimum, -1.0)  # unbounded controls (lqr): unit actions
  hi = np.minimum(spec.maximum, 1.0)
  return [rng.uniform(lo, hi) for _ in range(n)]


def compare_task(domain, task, nsteps=50, seed=0):
  ours, theirs = load_pair(domain, task, seed)
  assert_specs_equal(ours, theirs)
  t1, t2 = ours.reset(), theirs.reset()
  assert t1.step_type == t2.step_type and t1.reward is None and t1.discount is None
  assert_observations_close(t1.observation, t2.observation, RESET_ATOL, "reset", RESET_RTOL)
  for i, action in enumerate(random_actions(theirs.action_spec(), nsteps)):
    copy_state(theirs, ours)
    t1, t2 = ours.step(action), theirs.step(action)
    assert t1.step_type == t2.step_type, i
    assert t1.discount == t2.discount, i
    np.testing.assert_allclose(
      t1.reward, t2.reward, rtol=0, atol=OBS_ATOL, err_msg=f"step {i} reward"
    )
    assert_observations_close(t1.observation, t2.observation, OBS_ATOL, f"step {i}")
    if t2.last():
      break


def compare_episode_end(domain, task, nsteps=3):
  """The default episode has dm_control's length; with a short time limit both end after the
  same number of steps (with a LAST step of discount 1, a truncation), and a further step
  starts a new episode."""
  ours, theirs = load_pair(domain, task)
  assert ours.step_limit == theirs._step_limit
  assert ours.control_timestep() == theirs.control_timestep()
  limit = nsteps * theirs.control_timestep()
  runs = []
  for env in load_pair(domain, task, time_limit=limit):
    env.reset()
    action = np.zeros(env.action_spec().shape)
    steps = [env.step(action)]
    while not steps[-1].last():
      steps.append(env.step(action))
    assert steps[-1].discount == 1.0 and env.step(action).first()
    runs.append([t.step_type for t in steps])
  assert runs[0] == runs[1] and len(runs[0]) in (nsteps, nsteps + 1)  # (rounding of the limit)
