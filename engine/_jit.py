"""The project's single numba decorator and its cache location.

Every engine kernel is compiled with `jit`: cached, numpy error model (C-like
inf/nan instead of exceptions), no fastmath (NaN checks must survive), nogil.

numba does not invalidate a cached function when a function it calls in
another file changes, so the cache directory is keyed on a hash of every
engine source file. Set NUMBA_CACHE_DIR to choose the location yourself.
"""

import functools
import hashlib
import os
import pathlib

import numba
import numba.extending
import numpy as np

_ENGINE_DIR = pathlib.Path(__file__).resolve().parent


def _source_hash() -> str:
  """Hash of all engine sources, so any edit gives a fresh cache."""
  h = hashlib.sha1()
  for path in sorted(_ENGINE_DIR.rglob("*.py")):
    h.update(str(path.relative_to(_ENGINE_DIR)).encode())
    h.update(path.read_bytes())
  return h.hexdigest()[:16]


if "NUMBA_CACHE_DIR" not in os.environ:
  _base = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
  CACHE_DIR = str(_base / "numjoco" / _source_hash())
  numba.config.CACHE_DIR = CACHE_DIR
else:
  CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

DISABLE_JIT = bool(numba.config.DISABLE_JIT)

jit = functools.partial(
  numba.njit, cache=True, error_model="numpy", fastmath=False, nogil=True
)

_notified = False


def notify_if_cold() -> None:
  """Prints a one-line notice the first time the engine compiles into an empty cache."""
  global _notified
  if _notified or DISABLE_JIT:
    return
  _notified = True
  cache = pathlib.Path(CACHE_DIR)
  if not cache.is_dir() or not any(cache.rglob("*.nbi")):
    import sys

    print("numjoco: compiling the engine with numba, once per install (minutes; cached after)...",
          file=sys.stderr, flush=True)


@numba.extending.intrinsic
def borrowed(typingctx, ary):
  """The same array without NRT ownership (null meminfo and parent).

  Every use of a struct field or array argument in numba increments and decrements an
  atomic reference count; on the engine's small helpers that bookkeeping cost more than
  the arithmetic. MjModel/MjData keep their numpy arrays alive for as long as their
  struct handle exists, so the handle stores borrowed arrays and reference counting on
  them becomes a null check.
  """
  if not isinstance(ary, numba.types.Array):
    return None

  def codegen(context, builder, signature, args):
    from numba.core import cgutils

    out = context.make_array(signature.args[0])(context, builder, value=args[0])
    out.meminfo = cgutils.get_null_value(out.meminfo.type)
    out.parent = cgutils.get_null_value(out.parent.type)
    return out._getvalue()

  return ary(ary), codegen


def _stack_array(arrty, size):
  """Codegen of a C-contiguous 1-d array of `size` items in a static alloca of the kernel."""

  def codegen(context, builder, signature, args):
    from llvmlite import ir
    from numba.core import cgutils

    lltype = context.get_data_type(arrty.dtype)
    data = cgutils.alloca_once(builder, lltype, size=size)
    out = context.make_array(arrty)(context, builder)
    intp = context.get_value_type(numba.types.intp)
    itemsize = context.get_abi_sizeof(lltype)
    context.populate_array(out, data=data, shape=[ir.Constant(intp, size)],
                           strides=[ir.Constant(intp, itemsize)],
                           itemsize=ir.Constant(intp, itemsize), meminfo=None)
    return out._getvalue()

  return codegen


def _stack_array_typing(n, dtype):
  """Signature and codegen of a stack vector of dtype; only literal sizes are static."""
  if not isinstance(n, numba.types.IntegerLiteral):
    return None
  arrty = numba.types.Array(dtype, 1, "C")
  return arrty(n), _stack_array(arrty, n.literal_value)


@numba.extending.intrinsic
def _local_array_jit(typingctx, n):
  return _stack_array_typing(n, numba.types.float64)


@numba.extending.intrinsic
def _local_int_array_jit(typingctx, n):
  return _stack_array_typing(n, numba.types.int32)


# local_array(n) / local_int_array(n): an uninitialized float64 / int32 scratch vector of
# literal size n on the stack of the calling kernel: no allocation and no reference counting.
# It lives until that kernel returns, so never return it or store it in a struct.
if DISABLE_JIT:
  def local_array(n):
    return np.empty(n)

  def local_int_array(n):
    return np.empty(n, np.int32)
else:
  local_array = _local_array_jit
  local_int_array = _local_int_array_jit
