"""Cubic-spline zoom of an array: `scipy.ndimage.zoom(x, factor)` (order 3, mode 'constant').

quadruped/escape upsamples a 30x30 grid of random bumps to its 201x201 height field with SciPy's
`ndimage.zoom` at its defaults; SciPy is not a dependency of this project, so this module
reproduces that call in numpy: the same output shape and coordinate mapping (output corners on
input corners), the same cubic B-spline prefilter (mirror-symmetric boundary, which SciPy uses
to prefilter for mode 'constant'), the same interpolation weights and mirrored coefficients at
the edges, and the same order of floating-point operations, so results agree bit for bit
(tests/suite/test_zoom.py checks against SciPy).
"""

import itertools
import math

import numpy as np

# the pole of the cubic B-spline's inverse filter, sqrt(3) - 2, rounded to the nearest double
_POLE = -0.267949192431122706472553658494127633


def zoom(input, zoom, cval=0.0):
  """`input` (n-D, real) resampled by cubic-spline interpolation to round(shape * zoom).

  Output index k of an axis of n input and m output samples reads input coordinate
  k * (n - 1) / (m - 1), so the first and last samples of both grids coincide. Coordinates
  outside [0, n - 1] (only possible through rounding) give `cval`, as SciPy's mode 'constant'.

  Args:
    input: the array to zoom (any real dtype; computed in float64).
    zoom: one factor for every axis, or one per axis.
    cval: the value outside the input's extent.

  Returns:
    A float64 array of shape round(input.shape * zoom).
  """
  data = np.asarray(input, dtype=np.float64)
  if data.ndim < 1:
    raise RuntimeError("input and output rank must be > 0")
  factors = np.broadcast_to(np.asarray(zoom, dtype=np.float64), (data.ndim,))
  shape = tuple(int(round(n * f)) for n, f in zip(data.shape, factors))
  if all(f == 1 for f in factors):
    return data.copy()
  coeffs = spline_filter(data)
  # per axis: the four coefficient indices and weights of every output sample
  indices, weights, outside = [], [], []
  for n, m in zip(data.shape, shape):
    step = (n - 1) / (m - 1) if m > 1 else 1.0
    x = np.arange(m, dtype=np.float64) * step
    out = (x < 0) | (x > n - 1)
    x = np.where(out, 0.0, x)
    indices.append(_mirror(np.floor(x).astype(np.intp)[:, None] - 1 + np.arange(4), n))
    weights.append(_weights(x))
    outside.append(out)
  # sum over the 4^ndim neighbours in row-major order, each coefficient times its weights in
  # axis order (SciPy's accumulation order)
  ndim = data.ndim
  total = np.zeros(shape)
  for taps in itertools.product(range(4), repeat=ndim):
    term = coeffs[np.ix_(*[indices[a][:, taps[a]] for a in range(ndim)])]
    for a in range(ndim):
      term = term * _along(weights[a][taps[a]], a, ndim)
    total += term
  for a in range(ndim):
    total[(slice(None),) * a + (outside[a],)] = cval
  return total


def spline_filter(data):
  """The cubic B-spline coefficients of `data` (float64), axis by axis, mirror-symmetric
  boundary (SciPy's `ndimage.spline_filter(data, 3, mode='mirror')`)."""
  coeffs = np.array(data, dtype=np.float64)
  for axis in range(coeffs.ndim):
    _filter_axis(np.moveaxis(coeffs, axis, 0))
  return coeffs


def _filter_axis(c):
  """In place along the first axis of `c`: gain, then the causal and anticausal first-order
  recursions of the pole, each started from its mirror-boundary value."""
  n = c.shape[0]
  if n < 2:
    return
  z = _POLE
  c *= (1.0 - z) * (1.0 - 1.0 / z)
  # causal start: the sum over the mirrored signal, in closed form
  z_n_1 = math.pow(z, n - 1)
  c0 = c[0] + z_n_1 * c[n - 1]
  z_i = z
  for i in range(1, n - 1):
    c0 += z_i * (c[i] + z_n_1 * c[n - 1 - i])
    z_i *= z
  c[0] = c0 / (1 - z_n_1 * z_n_1)
  for i in range(1, n):
    c[i] += z * c[i - 1]
  # anticausal start and pass
  c[n - 1] = (z * c[n - 2] + c[n - 1]) * z / (z * z - 1)
  for i in range(n - 2, -1, -1):
    c[i] = z * (c[i + 1] - c[i])


def _weights(x):
  """The four cubic B-spline weights of coordinates `x`, for coefficients floor(x) - 1 ...
  floor(x) + 2 (the last one is 1 minus the others)."""
  y = x - np.floor(x)
  z = 1.0 - y
  w1 = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0
  w2 = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0
  w0 = z * z * z / 6.0
  w3 = 1.0 - w0 - w1 - w2
  return w0, w1, w2, w3


def _mirror(idx, n):
  """Indices reflected about the first and last samples (whole-sample symmetry, period
  2n - 2) into [0, n)."""
  if n <= 1:
    return np.zeros_like(idx)
  period = 2 * n - 2
  idx = np.abs(idx) % period
  return np.where(idx >= n, period - idx, idx)


def _along(values, axis, ndim):
  """`values` shaped to broadcast along `axis` of an ndim-array."""
  return values.reshape((-1,) + (1,) * (ndim - 1 - axis))
