"""Task kernels: observations and rewards as numba functions, shared by the single environment
and the vectorised one (suite/vector.py), so the two cannot drift.

A task with kernels (suite/base.py) names two functions of the fixed signature

  observe(m, d, params, out)   writes the flat observation, key after key, into `out`
  reward(m, d, params, out)    writes the reward to out[0] and the discount to out[1]
                               (NaN: the episode goes on; a task whose discount can be
                               otherwise sets `terminates = True`)

where `params` is the float vector the task's `kernel_params(physics)` returns (object ids,
sensor addresses, flags). `@kernel` compiles such a function once, on its own and cached (a
lazy stage, engine/_stage.py); jitted code calls it through its address, so the one compiled
batched step below serves every task and a new task compiles only its own two functions.

`step_worlds` runs, for each world of a batch, what `control.Environment.step` does: action
into ctrl, `nsub` physics steps, reward and discount, observation; `step_worlds_parallel`
spreads the worlds over numba's threads. `tolerance` is `suite.utils.rewards.tolerance` for
jitted code, with the sigmoid given by its index in `SIGMOIDS`; jitted code may also call
`rewards.tolerance` itself, with dm_control's keywords and a literal sigmoid name (resolved as
the kernel compiles).
"""

import hashlib
import math
import os
import pathlib

import numba
import numpy as np
from numba.core import errors as numba_errors
from numba.core import types
from numba.extending import overload

from engine import _jit
from engine import driver as _driver
from engine._jit import entry
from engine._jit import jit
from engine._stage import D
from engine._stage import M
from engine._stage import address_caller
from engine._stage import handle_at
from engine._stage import stage
from engine._stage import vec
from suite.utils import rewards
from suite.utils.rewards import SIGMOIDS

GAUSSIAN, HYPERBOLIC, LONG_TAIL, RECIPROCAL, COSINE, LINEAR, QUADRATIC, TANH_SQUARED = range(8)
assert SIGMOIDS[LINEAR] == "linear" and SIGMOIDS[TANH_SQUARED] == "tanh_squared"

# the result row of the reward kernel
REWARD, DISCOUNT = 0, 1


# files no kernel compiles from: editing them keeps the cached kernels
_NO_KERNELS = ("viewer.py", "__main__.py")


def _cache_dir() -> str:
  """Where the kernels are cached: the engine's cache directory keyed by the suite's sources
  too. A kernel compiles in helpers from other files (`tolerance` here, a domain's shared
  helpers) and numba notices edits of the kernel's own file only."""
  if "NUMBA_CACHE_DIR" in os.environ:
    return os.environ["NUMBA_CACHE_DIR"]
  digest = hashlib.sha1()
  for path in sorted(pathlib.Path(__file__).parent.rglob("*.py")):
    if path.name in _NO_KERNELS:
      continue
    digest.update(path.name.encode())
    digest.update(path.read_bytes())
  return f"{_jit.CACHE_DIR}-suite-{digest.hexdigest()[:16]}"


_CACHE_DIR = None if _jit.DISABLE_JIT else _cache_dir()


def kernel(py_func=None, *, refcounts=True):
  """Declares a task kernel: py_func(m, d, params, out), compiled once and cached.

  refcounts=False compiles numba's reference counting out of the kernel and of the functions
  numba inlines into it, for a kernel that allocates nothing (the handles and arrays it gets
  outlive the call; an allocation then fails to compile). Each inlined call taking m and d
  otherwise counts both handles up and down, atomically: about 10 ns a call
  (benchmarks/kernels.py).
  """
  if py_func is None:
    return lambda f: kernel(f, refcounts=refcounts)
  previous = numba.config.CACHE_DIR
  numba.config.CACHE_DIR = _CACHE_DIR  # read by the dispatcher's cache as it is created
  try:
    compiled = stage(M, D, vec, vec, lazy=True)(py_func)
  finally:
    numba.config.CACHE_DIR = previous
  if not refcounts and not _jit.DISABLE_JIT:
    # numba's NRT switch (the dispatcher's compiler reads these options as it compiles)
    compiled.dispatcher.targetoptions["_nrt"] = False
  return compiled


_call = address_caller(types.none, M, D, vec, vec)


@entry
def _run_at(address, mptr, dptr, params, out):
  _call(address, handle_at(mptr, M), handle_at(dptr, D), params, out)


def run(kernel_stage, physics, params, out) -> None:
  """Runs a kernel on one Physics (the single environment's path; addresses cross into numba
  in nanoseconds, struct handles in microseconds)."""
  _run_at(kernel_stage.address(), physics.model.ptr._ptr, physics.data.ptr._ptr, params, out)


# ---- reward shaping in jitted code ----


@jit
def _sigmoid(x, value_at_1, sigmoid):
  """The sigmoid with index `sigmoid` at distance x >= 0 (in margins), value_at_1 at x = 1:
  the formulas of suite/utils/rewards.py."""
  if sigmoid == GAUSSIAN:
    scale = math.sqrt(-2 * math.log(value_at_1))
    return math.exp(-0.5 * (x * scale) ** 2)
  if sigmoid == HYPERBOLIC:
    scale = math.acosh(1 / value_at_1)
    return 1 / math.cosh(x * scale)
  if sigmoid == LONG_TAIL:
    scale = math.sqrt(1 / value_at_1 - 1)
    return 1 / ((x * scale) ** 2 + 1)
  if sigmoid == RECIPROCAL:
    scale = 1 / value_at_1 - 1
    return 1 / (abs(x) * scale + 1)
  if sigmoid == COSINE:
    scaled_x = x * (math.acos(2 * value_at_1 - 1) / math.pi)
    return (1 + math.cos(math.pi * scaled_x)) / 2 if abs(scaled_x) < 1 else 0.0
  if sigmoid == LINEAR:
    scaled_x = x * (1 - value_at_1)
    return 1 - scaled_x if abs(scaled_x) < 1 else 0.0
  if sigmoid == QUADRATIC:
    scaled_x = x * math.sqrt(1 - value_at_1)
    return 1 - scaled_x**2 if abs(scaled_x) < 1 else 0.0
  scale = math.atanh(math.sqrt(1 - value_at_1))  # TANH_SQUARED
  return 1 - math.tanh(x * scale) ** 2


@jit
def tolerance(x, lower, upper, margin, sigmoid, value_at_margin):
  """1 inside [lower, upper]; outside, 0 with margin 0, else the sigmoid of the distance to
  the nearest bound in margins (suite.utils.rewards.tolerance for one float)."""
  if lower <= x <= upper:
    return 1.0
  if margin == 0:
    return 0.0
  d = (lower - x if x < lower else x - upper) / margin
  return _sigmoid(d, value_at_margin, sigmoid)


@overload(rewards.tolerance, prefer_literal=True)
def _tolerance_in_jitted_code(
  x,
  bounds=(0.0, 0.0),
  margin=0.0,
  sigmoid="gaussian",
  value_at_margin=rewards.DEFAULT_VALUE_AT_MARGIN,
):
  """rewards.tolerance(x, bounds=(lo, hi), margin=, sigmoid=, value_at_margin=) for a float x in
  jitted code: `tolerance` above, the sigmoid's name (a literal) turned into its index here."""
  if isinstance(sigmoid, str):  # (the default)
    name = sigmoid
  elif isinstance(sigmoid, types.Omitted):
    name = sigmoid.value
  elif isinstance(sigmoid, types.StringLiteral):
    name = sigmoid.literal_value
  else:
    raise numba_errors.TypingError("tolerance: in jitted code `sigmoid` must be a literal name")
  if name not in SIGMOIDS:
    raise numba_errors.TypingError(f"Unknown sigmoid type {name!r}; known: {', '.join(SIGMOIDS)}.")
  index = SIGMOIDS.index(name)

  def impl(
    x,
    bounds=(0.0, 0.0),
    margin=0.0,
    sigmoid="gaussian",
    value_at_margin=rewards.DEFAULT_VALUE_AT_MARGIN,
  ):
    lower, upper = bounds
    return tolerance(
      float(x), float(lower), float(upper), float(margin), index, float(value_at_margin)
    )

  return impl


# ---- the batched step ----


@jit
def _step_range(
  mptrs, dptrs, worlds, start, end, actions, op, nsub, observe, reward, params, obs, result, fired
):
  """Worlds worlds[start:end]: ctrl from the action row (no columns: the controls stay), nsub
  steps of operation `op`, then (unless a warning fired, as the single environment raises
  there) reward and observation."""
  for j in range(start, end):
    w = worlds[j]
    m = handle_at(mptrs[w], M)
    d = handle_at(dptrs[w], D)
    for k in range(actions.shape[1]):
      d.ctrl[k] = actions[w, k]
    fired[w] = _driver._run(mptrs[w], dptrs[w], op, nsub, 0, 0)
    if fired[w] == 0:
      if reward:
        _call(reward, m, d, params[w], result[w])
      if observe:
        _call(observe, m, d, params[w], obs[w])


@entry
def step_worlds(
  mptrs, dptrs, worlds, actions, op, nsub, observe, reward, params, obs, result, fired
):
  """Steps worlds `worlds` (indices into the per-world arrays) on the calling thread.

  mptrs, dptrs: model and data handle addresses per world; actions (nworld, nu), or
  (nworld, 0) to leave the controls as they are (a task's own before_step wrote them); op,
  nsub: the engine operation (OP_LEGACY_STEP or OP_STEP) and its count; observe, reward:
  kernel addresses (0: none); params (nworld, nparam); obs (nworld, nobs) and result
  (nworld, 2) are written; fired (nworld,) gets the warning bitmask of each world's step (0:
  none).
  """
  _step_range(
    mptrs,
    dptrs,
    worlds,
    0,
    worlds.shape[0],
    actions,
    op,
    nsub,
    observe,
    reward,
    params,
    obs,
    result,
    fired,
  )


def _step_chunks(
  mptrs, dptrs, worlds, chunk, actions, op, nsub, observe, reward, params, obs, result, fired
):
  """step_worlds over numba's threads, `chunk` worlds per task; row `thread` of mptrs holds
  that thread's own model handles (engine.batch.POOL.model_handles)."""
  nchunk = (worlds.shape[0] + chunk - 1) // chunk
  for c in numba.prange(nchunk):
    start = np.int64(c) * chunk
    end = min(start + chunk, worlds.shape[0])
    thread = numba.get_thread_id()
    _step_range(
      mptrs[thread],
      dptrs,
      worlds,
      start,
      end,
      actions,
      op,
      nsub,
      observe,
      reward,
      params,
      obs,
      result,
      fired,
    )


# the parallel driver: uncached, as every parallel=True function of the project
# (docs/architecture.md); it compiles in about a second, its callees being stages
step_worlds_parallel = numba.njit(_step_chunks, parallel=True, nogil=True, error_model="numpy")
