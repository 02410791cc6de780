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

    print("numjoco: compiling the engine with numba, once per install (about 1-2 minutes)...",
          file=sys.stderr, flush=True)
