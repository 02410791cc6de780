"""Comparing two compiled models value for value (an edited model against a recompilation)."""

import numpy as np


def assert_same_values(ours, reference, groups=("opt", "stat")):
  """Every array of `ours` equals `reference`'s bit for bit, and so do the option and statistic
  values of `groups`. Either may be an MjModel or its wrapper (`.ptr`)."""
  ours, reference = getattr(ours, "ptr", ours), getattr(reference, "ptr", reference)
  for name, value in reference._arrays.items():
    if isinstance(value, np.ndarray):
      np.testing.assert_array_equal(ours._arrays[name], value, err_msg=name)
  for group in groups:
    for name, value in getattr(reference, group)._arrays.items():
      np.testing.assert_array_equal(getattr(ours, group)._arrays[name], value, err_msg=name)
