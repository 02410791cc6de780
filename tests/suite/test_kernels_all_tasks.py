"""Every task's observation and reward kernels, once each, on a valid state: the values are
finite and the observation has the spec's shapes. Cheap enough for the default run, and listed
in the bounds-checked job (tests/engine/test_memory_safety.py), where a kernel that writes past
its layout or reads past its params raises IndexError instead of corrupting memory."""

import numpy as np
import pytest

import suite


@pytest.mark.parametrize("domain,task", suite.ALL_TASKS)
def test_kernels_give_finite_values_of_the_spec_shapes(domain, task):
  env = suite.load(domain, task, task_kwargs={"random": 0})
  spec = env.observation_spec()
  time_step = env.reset()
  action = np.clip(
    np.full(env.action_spec().shape, 0.3), env.action_spec().minimum, env.action_spec().maximum
  )
  for _ in range(2):
    time_step = env.step(action)
    assert np.isfinite(time_step.reward)
    for key, value in time_step.observation.items():
      assert np.shape(value) == spec[key].shape, key
      assert np.all(np.isfinite(value)), key
