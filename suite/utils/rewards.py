"""Reward shaping: `tolerance`, the bounded soft indicator most suite rewards are built from.

`tolerance(x, bounds=(lo, hi), margin, sigmoid, value_at_margin)` is 1 inside [lo, hi]. Outside,
with margin 0 it is 0; otherwise it falls off with the distance to the nearest bound measured
in margins, d, along one of eight sigmoids s with s(0) = 1 and s(1) = value_at_margin (see
docs/suite.md and the dm_control tech report). Works elementwise on arrays.
"""

import math

import numpy as np

DEFAULT_VALUE_AT_MARGIN = 0.1

SIGMOIDS = (
  "gaussian",
  "hyperbolic",
  "long_tail",
  "reciprocal",
  "cosine",
  "linear",
  "quadratic",
  "tanh_squared",
)


def _sigmoids(x, value_at_1, sigmoid):
  """The sigmoid named `sigmoid` at distance x (in margins), scaled so that it is
  `value_at_1` at x = 1."""
  if sigmoid in ("cosine", "linear", "quadratic"):
    if not 0 <= value_at_1 < 1:
      raise ValueError(f"`value_at_1` must be nonnegative and smaller than 1, got {value_at_1}.")
  elif not 0 < value_at_1 < 1:
    raise ValueError(f"`value_at_1` must be strictly between 0 and 1, got {value_at_1}.")

  if sigmoid == "gaussian":
    scale = np.sqrt(-2 * np.log(value_at_1))
    return np.exp(-0.5 * (x * scale) ** 2)
  if sigmoid == "hyperbolic":
    scale = np.arccosh(1 / value_at_1)
    return 1 / np.cosh(x * scale)
  if sigmoid == "long_tail":
    scale = np.sqrt(1 / value_at_1 - 1)
    return 1 / ((x * scale) ** 2 + 1)
  if sigmoid == "reciprocal":
    scale = 1 / value_at_1 - 1
    return 1 / (abs(x) * scale + 1)
  if sigmoid == "cosine":
    scale = np.arccos(2 * value_at_1 - 1) / np.pi
    scaled_x = x * scale
    with np.errstate(over="ignore", invalid="ignore"):
      return np.where(abs(scaled_x) < 1, (1 + np.cos(np.pi * scaled_x)) / 2, 0.0)
  if sigmoid == "linear":
    scale = 1 - value_at_1
    scaled_x = x * scale
    return np.where(abs(scaled_x) < 1, 1 - scaled_x, 0.0)
  if sigmoid == "quadratic":
    scale = np.sqrt(1 - value_at_1)
    scaled_x = x * scale
    return np.where(abs(scaled_x) < 1, 1 - scaled_x**2, 0.0)
  if sigmoid == "tanh_squared":
    scale = np.arctanh(np.sqrt(1 - value_at_1))
    return 1 - np.tanh(x * scale) ** 2
  raise ValueError(f"Unknown sigmoid type {sigmoid!r}; known: {', '.join(SIGMOIDS)}.")


def _sigmoid_scalar(x, value_at_1, sigmoid):
  """_sigmoids for a float x (x >= 0: a distance in margins), with the math module."""
  if sigmoid == "gaussian" and 0 < value_at_1 < 1:
    scale = math.sqrt(-2 * math.log(value_at_1))
    return math.exp(-0.5 * (x * scale) ** 2)
  if sigmoid == "linear" and 0 <= value_at_1 < 1:
    scaled_x = x * (1 - value_at_1)
    return 1 - scaled_x if abs(scaled_x) < 1 else 0.0
  if sigmoid == "quadratic" and 0 <= value_at_1 < 1:
    scaled_x = x * math.sqrt(1 - value_at_1)
    return 1 - scaled_x * scaled_x if abs(scaled_x) < 1 else 0.0
  return float(_sigmoids(x, value_at_1, sigmoid))  # the other shapes, and the errors


def tolerance(
  x, bounds=(0.0, 0.0), margin=0.0, sigmoid="gaussian", value_at_margin=DEFAULT_VALUE_AT_MARGIN
):
  """1 when `x` is within `bounds`, falling off to `value_at_margin` at `margin` outside them.

  Args:
    x: a float or a numpy array.
    bounds: (lower, upper) of the target interval; either may be infinite; lower <= upper.
    margin: how far outside the bounds the output falls to `value_at_margin`; 0 makes the
      output an indicator of the interval. Must be >= 0.
    sigmoid: the shape of the fall-off, one of SIGMOIDS.
    value_at_margin: the output at distance `margin` from the interval (0 < v < 1, or 0 <= v < 1
      for the cosine, linear and quadratic sigmoids).

  Returns:
    A float, or an array of x's shape, in [0, 1].

  Raises:
    ValueError: bounds[0] > bounds[1], margin < 0, or a bad sigmoid or value_at_margin.
  """
  lower, upper = bounds
  if lower > upper:
    raise ValueError("Lower bound must be <= upper bound.")
  if margin < 0:
    raise ValueError(f"`margin` must be non-negative. Current value: {margin}")
  if np.isscalar(x):
    # a scalar (most rewards): plain float arithmetic, an order of magnitude cheaper than the
    # array code and the same formulas
    x = float(x)
    if lower <= x <= upper:
      return 1.0
    if margin == 0:
      return 0.0
    d = (lower - x if x < lower else x - upper) / margin
    return _sigmoid_scalar(d, value_at_margin, sigmoid)

  in_bounds = np.logical_and(lower <= x, x <= upper)
  if margin == 0:
    return np.where(in_bounds, 1.0, 0.0)
  d = np.where(x < lower, lower - x, x - upper) / margin
  return np.where(in_bounds, 1.0, _sigmoids(d, value_at_margin, sigmoid))
