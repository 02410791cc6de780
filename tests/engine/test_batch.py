"""engine.batch: the one way into numba's thread pool (engine.rollout and the vectorised
environments use it): the thread count it sets for a call and restores, the per-thread model
handles it hands out."""

import numba
import pytest

import engine
from engine import batch

XML = "<mujoco><worldbody><body><freejoint/><geom size='.1'/></body></worldbody></mujoco>"


def test_run_sets_the_thread_count_for_the_call_only():
  previous = numba.get_num_threads()
  assert batch.POOL.run(1, numba.get_num_threads) == 1
  assert numba.get_num_threads() == previous

  def fails():
    raise RuntimeError("inside the pool")

  with pytest.raises(RuntimeError, match="inside the pool"):
    batch.POOL.run(1, fails)
  assert numba.get_num_threads() == previous
  assert batch.POOL.usable()  # the process that first asked owns the pool


def test_model_handles_give_each_thread_its_own_alias():
  models = [engine.MjModel.from_xml_string(XML) for _ in range(3)]
  handles = batch.POOL.model_handles(models, 2)
  assert handles.shape == (2, 3) and handles.dtype == "int64"
  assert list(handles[0]) == [m._ptr for m in models]  # row 0: the models' own handles
  assert list(handles[1]) == [m.thread_handle(1) for m in models]
  assert len(set(handles.ravel())) == 6
  assert batch.POOL.model_handles(models, 0).shape == (1, 3)  # the calling thread
