"""suite.wrappers against dm_control's wrappers at the same seed."""

import numpy as np
import pytest
from dm_control.suite.wrappers import action_noise as dm_action_noise  # noqa: E402
from dm_control.suite.wrappers import action_scale as dm_action_scale  # noqa: E402

import suite
from suite.wrappers import action_noise
from suite.wrappers import action_scale
from suite.wrappers import mujoco_profiling
from suite.wrappers import pixels
from tests.suite import parity


def _run(env, actions):
  out = [env.reset()]
  out += [env.step(a) for a in actions]
  return out


def _same(a, b):
  for t1, t2 in zip(a, b):
    assert t1.step_type == t2.step_type
    if t2.reward is not None:
      assert t1.reward == pytest.approx(t2.reward, abs=1e-9)
    parity.assert_observations_close(t1.observation, t2.observation, 1e-9)


def test_action_noise_draws_from_the_task_random_state():
  ours, theirs = parity.load_pair("cartpole", "swingup", seed=4)
  actions = [np.array([0.3])] * 5
  _same(
    _run(action_noise.Wrapper(ours, scale=0.2), actions),
    _run(dm_action_noise.Wrapper(theirs, scale=0.2), actions),
  )


def test_action_noise_needs_finite_bounds():
  env = suite.load("cartpole", "swingup")
  env.action_spec = lambda: env.task.action_spec(env.physics).replace(minimum=[-np.inf])
  with pytest.raises(ValueError, match="finite bounds"):
    action_noise.Wrapper(env)


def test_action_scale_maps_onto_the_spec():
  ours, theirs = parity.load_pair("cartpole", "balance", seed=2)
  wrapped = action_scale.Wrapper(ours, minimum=0.0, maximum=2.0)
  spec = wrapped.action_spec()
  np.testing.assert_array_equal(spec.minimum, [0.0])
  np.testing.assert_array_equal(spec.maximum, [2.0])
  actions = [np.array([0.0]), np.array([2.0]), np.array([1.5])]
  _same(
    _run(wrapped, actions), _run(dm_action_scale.Wrapper(theirs, minimum=0.0, maximum=2.0), actions)
  )
  with pytest.raises(ValueError, match="finite"):
    action_scale.Wrapper(ours, minimum=-np.inf, maximum=1.0)


def test_mujoco_profiling_reports_physics_time_and_steps():
  env = mujoco_profiling.Wrapper(suite.load("cartpole", "swingup"))
  assert env.observation_spec()["step_timing"].shape == (2,)
  first = env.reset().observation["step_timing"]
  assert first[1] == 0
  timing = [env.step(np.zeros(1)).observation["step_timing"] for _ in range(3)][-1]
  assert timing[1] == 3 and timing[0] > 0


@pytest.mark.parametrize("pixels_only", [True, False])
def test_pixels_matches_dm_control(opengl, pixels_only):
  """Same seed, same actions: the same specs, the same state observations and the same
  picture (rendered by our renderer and by MuJoCo's)."""
  from dm_control.suite.wrappers import pixels as dm_pixels

  ours, theirs = parity.load_pair("cartpole", "swingup")
  kwargs = {"height": 48, "width": 64, "camera_id": 0}
  ours = pixels.Wrapper(ours, pixels_only=pixels_only, render_kwargs=kwargs)
  theirs = dm_pixels.Wrapper(theirs, pixels_only=pixels_only, render_kwargs=kwargs)
  assert ours.observation_spec() == theirs.observation_spec()
  actions = np.random.RandomState(0).uniform(-1, 1, (5, 1))
  for t1, t2 in zip(_run(ours, actions), _run(theirs, actions)):
    a, b = t1.observation["pixels"], t2.observation["pixels"]
    assert a.shape == b.shape == (48, 64, 3) and a.dtype == b.dtype
    assert np.abs(a.astype(int) - b.astype(int)).mean() < 2.0
    if not pixels_only:
      state = {k: v for k, v in t2.observation.items() if k != "pixels"}
      parity.assert_observations_close({k: t1.observation[k] for k in state}, state, 1e-9)
