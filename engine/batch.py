"""numba's thread pool as the batched entry points use it: one process-wide object, `POOL`.

engine.rollout and the vectorised suite environments (suite/vector.py) step many worlds in one
call of an uncached `parallel=True` driver. Around that call they need the same four things,
which this object owns:

  if POOL.usable():                        # not a child forked after the pool started
    mptrs = POOL.model_handles(models, nthread)  # row t: thread t's handles of the models
    dptrs = POOL.data_handles(datas)             # the MjData the driver steps
    POOL.run(nthread, parallel_driver, mptrs, dptrs, ...)  # thread ids 0..nthread-1

Otherwise they run their serial driver on the calling thread, with the same results.
"""

import os
import threading
import warnings

import numba
import numpy as np


class ThreadPool:
  """numba's thread pool (one per process; use `POOL`): who may enter it, with how many
  threads, through which model handles."""

  def __init__(self):
    self._lock = threading.Lock()
    self._owner = None  # the process that first asked for the pool
    self._warned = False

  def usable(self) -> bool:
    """Whether this process may enter numba's thread pool. A child forked after its parent
    started the pool may not (OpenMP kills such a child as it enters): batched steps run on
    one thread there, with the same results, after a warning (once per process)."""
    pid = os.getpid()
    if self._owner is None:
      self._owner = pid
    if self._owner == pid:
      return True
    if not self._warned:
      self._warned = True
      warnings.warn(
        "numba's thread pool: this process was forked from one that used it, and "
        "cannot; batched steps (engine.rollout, vectorised environments) run on one "
        "thread here (start worker processes with the 'spawn' method to use threads "
        "in them)",
        RuntimeWarning,
        stacklevel=3,
      )
    return False

  def run(self, nthread, parallel_driver, *args):
    """parallel_driver(*args) with numba's thread count set to `nthread`, so its thread ids
    (numba.get_thread_id) run 0..nthread-1: one row of model handles, or one MjData, per id.
    One parallel call at a time in the process (numba's workqueue layer, used where OpenMP is
    missing, aborts on concurrent use). Returns what the driver returns."""
    with self._lock:
      previous = numba.get_num_threads()
      numba.set_num_threads(nthread)
      try:
        return parallel_driver(*args)
      finally:
        numba.set_num_threads(previous)

  @staticmethod
  def data_handles(datas) -> np.ndarray:
    """(len(datas),) handle addresses of the MjData: one per world, or one per thread."""
    return np.array([d._ptr for d in datas], np.int64)

  @staticmethod
  def model_handles(models, nthread) -> np.ndarray:
    """(nthread, len(models)) handle addresses: row t holds thread t's alias of each model's
    handle (MjModel.thread_handle; row 0: the models' own). Threads sharing one handle would
    contend for its reference count."""
    return np.array(
      [[m.thread_handle(t) for m in models] for t in range(max(1, nthread))], np.int64
    )


POOL = ThreadPool()
