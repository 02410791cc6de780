"""The clip collections a reference-pose task samples from."""

import numpy as np


class ClipCollection:
  """Clip identifiers with, per clip, the first and one-past-last step to use and a sampling
  weight. Start steps default to 0, weights to 1; end steps, when None, are each clip's length
  (the task reads them from the data).

  Raises:
    ValueError: a per-clip sequence does not have one entry per clip, or a weight is negative.
  """

  def __init__(self, ids, start_steps=None, end_steps=None, weights=None):
    self.ids = ids
    self.start_steps = start_steps
    self.end_steps = end_steps
    self.weights = weights
    n = len(ids)
    for name in ("start_steps", "end_steps", "weights"):
      value = getattr(self, name)
      if value is not None and len(value) != n:
        raise ValueError(
          f"ClipCollection validation failed. {name} has {len(value)} entries for {n} clips"
        )
    if self.start_steps is None:
      self.start_steps = (0,) * n
    if self.weights is None:
      self.weights = (1.0,) * n
    elif not np.all(np.asarray(self.weights) >= 0.0):
      raise ValueError(
        f"ClipCollection validation failed. weights must be non-negative, got {tuple(self.weights)}"
      )
