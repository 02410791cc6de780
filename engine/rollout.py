"""Batched open-loop rollouts: the counterpart of `mujoco.rollout` (MuJoCo 3.17's Python API).

`rollout(model, data, initial_state, control)` steps nbatch trajectories of nstep steps from
initial states (`mj_getState` layout, mjSTATE_FULLPHYSICS) under open-loop inputs (layout of
`control_spec`, mjSTATE_CTRL by default) and returns the states and sensor values after every
step, as arrays (nbatch, nstep, nstate) and (nbatch, nstep, nsensordata). Inputs with a
singleton batch or step dimension are tiled; `model` may be one model or a sequence of nbatch
models of one size signature (e.g. with different masses); `data` is one MjData per thread.

Every trajectory starts from its initial state alone (inputs outside `control_spec` cleared,
mocap poses and equality activations from its model, warmstart zero unless given), so the
results do not depend on the data a trajectory runs in: with several data the trajectories are
split over numba's threads (one `prange` over chunks, the GIL released), bitwise equal to the
serial loop. A trajectory whose step raised a warning (e.g. a diverging state) keeps its last
state for the remaining steps, as MuJoCo's does.
"""

import numba
import numpy as np
from numba.core import types

from engine import forward as _forward
from engine._jit import jit
from engine._stage import D
from engine._stage import M
from engine._stage import handle_at
from engine._stage import i8
from engine._stage import never
from engine._stage import stage
from engine._stage import vec
from engine.batch import POOL
from engine.driver import OP_STEP
from engine.driver import SIZE_MISMATCH
from engine.driver import _sizes_match
from engine.driver import check_status
from engine.driver import invalid_option
from engine.enums import mjNWARNING
from engine.enums import mjSTATE_CTRL
from engine.enums import mjSTATE_EQ_ACTIVE
from engine.enums import mjSTATE_FULLPHYSICS
from engine.enums import mjSTATE_MOCAP_POS
from engine.enums import mjSTATE_MOCAP_QUAT
from engine.enums import mjSTATE_QFRC_APPLIED
from engine.enums import mjSTATE_USER
from engine.enums import mjSTATE_XFRC_APPLIED
from engine.state import mj_stateSize
from engine.state import read_state_at
from engine.state import size_of
from engine.state import write_state_at

_addresses = types.int64[::1]


# ---- kernels ----


@jit
def _reset_inputs(m, d, control_spec):
  """Inputs a trajectory does not set come from its model: mocap poses from the mocap bodies'
  poses, equality activations from eq_active0."""
  if not control_spec & mjSTATE_MOCAP_POS:
    for b in range(m.nbody):
      k = m.body_mocapid[b]
      if k >= 0:
        d.mocap_pos[k, :] = m.body_pos[b]
  if not control_spec & mjSTATE_MOCAP_QUAT:
    for b in range(m.nbody):
      k = m.body_mocapid[b]
      if k >= 0:
        d.mocap_quat[k, :] = m.body_quat[b]
  if not control_spec & mjSTATE_EQ_ACTIVE:
    for i in range(m.neq):
      d.eq_active[i] = m.eq_active0[i]


@jit
def _warned(d):
  for k in range(mjNWARNING):
    if d.warning_number[k]:
      return True
  return False


@stage(_addresses, i8, i8, i8, i8, i8, vec, vec, vec, vec, vec, restype=i8, needed=never)
def rollout_range(
  mptrs, dptr, start, end, nstep, control_spec, state0, warmstart0, control, state, sensordata
):
  """Trajectories start..end-1 in the data at dptr (models at mptrs[r]); the arrays are flat,
  empty when absent, and indexed rather than sliced (a slice takes a reference to the array,
  which threads sharing it would contend for). Returns 0, or SIZE_MISMATCH when a model and
  the data differ in size (or INVALID_INTEGRATOR, INVALID_SOLVER for a model's options)."""
  d = handle_at(dptr, D)
  m = handle_at(mptrs[start], M)
  nstate = size_of(m, mjSTATE_FULLPHYSICS)
  ncontrol = size_of(m, control_spec)
  nv = m.nv
  nsensordata = m.nsensordata
  if not control_spec & mjSTATE_CTRL:
    d.ctrl[:] = 0.0
  if not control_spec & mjSTATE_QFRC_APPLIED:
    d.qfrc_applied[:] = 0.0
  if not control_spec & mjSTATE_XFRC_APPLIED:
    d.xfrc_applied[:, :] = 0.0
  for r in range(start, end):
    m = handle_at(mptrs[r], M)
    if not _sizes_match(m, d):
      return SIZE_MISMATCH
    invalid = invalid_option(m, OP_STEP)
    if invalid:
      return invalid
    _reset_inputs(m, d, control_spec)
    write_state_at(m, d, state0, r * nstate, mjSTATE_FULLPHYSICS)
    for i in range(nv):
      d.qacc_warmstart[i] = warmstart0[r * nv + i] if warmstart0.shape[0] else 0.0
    d.warning_number[:] = 0
    for t in range(nstep):
      step = r * nstep + t
      if not _warned(d):
        if control.shape[0]:
          write_state_at(m, d, control, step * ncontrol, control_spec)
        _forward.step(m, d)
      # after a warning the last state stands for the remaining steps
      if state.shape[0]:
        read_state_at(m, d, state, step * nstate, mjSTATE_FULLPHYSICS)
      if sensordata.shape[0]:
        for i in range(nsensordata):
          sensordata[step * nsensordata + i] = d.sensordata[i]
  return 0


def _rollout_chunks(
  mptrs,
  dptrs,
  nroll,
  chunk,
  nstep,
  control_spec,
  state0,
  warmstart0,
  control,
  state,
  sensordata,
  status,
):
  """Chunks of `chunk` trajectories over numba's threads, each thread in its own data and with
  its own handles of the models (row mptrs[thread], see MjModel.thread_handle)."""
  nchunk = (nroll + chunk - 1) // chunk
  for j in numba.prange(nchunk):
    start = np.int64(j) * chunk
    thread = numba.get_thread_id()
    status[j] = rollout_range(
      mptrs[thread],
      dptrs[thread],
      start,
      min(start + chunk, nroll),
      nstep,
      control_spec,
      state0,
      warmstart0,
      control,
      state,
      sensordata,
    )


# the one parallel driver, uncached (docs/architecture.md: parallel functions and the cache do not
# mix well); it compiles in about a second since rollout_range comes from its own cache
_parallel = numba.njit(_rollout_chunks, parallel=True, nogil=True, error_model="numpy")


# ---- Python API ----


def _as_float_array(name, value, ndim):
  if value is None:
    return None
  array = np.asarray(value)
  if not (np.issubdtype(array.dtype, np.number) or array.dtype == bool):
    raise ValueError(f"{name} must be numeric, got dtype {array.dtype}")
  if array.ndim > ndim:
    raise ValueError(f"{name} can have at most {ndim} dimensions, got {array.ndim}")
  return np.ascontiguousarray(
    array.reshape((1,) * (ndim - array.ndim) + array.shape), dtype=np.float64
  )


def _output_array(name, value, shape):
  """A caller's output array: written in place, so it must be exactly what rollout writes."""
  if value is None:
    return np.empty(shape)
  if not (
    isinstance(value, np.ndarray)
    and value.dtype == np.float64
    and value.flags.c_contiguous
    and value.flags.writeable
  ):
    raise ValueError(f"{name} must be a writable C-contiguous float64 array")
  if value.size != int(np.prod(shape)):
    raise ValueError(f"{name} has shape {value.shape}; expected {shape}")
  return value


def _dimension(axis, arrays, default):
  """The size of `axis` over the arrays that have it larger than 1 (they must agree)."""
  sizes = {name: a.shape[axis] for name, a in arrays.items() if a is not None}
  big = {n: s for n, s in sizes.items() if s != 1}
  if len(set(big.values())) > 1:
    what = ("batch", "step")[axis]
    raise ValueError(f"{what} dimensions disagree: {big}")
  return next(iter(big.values()), default)


def _tile(array, nbatch, nstep=None):
  if array is None:
    return None
  reps = [nbatch if array.shape[0] == 1 else 1]
  if nstep is not None:
    reps.append(nstep if array.shape[1] == 1 else 1)
  reps += [1] * (array.ndim - len(reps))
  return np.ascontiguousarray(np.tile(array, reps)) if any(r > 1 for r in reps) else array


def _flat(array):
  return np.empty(0) if array is None else array.reshape(-1)


class Rollout:
  """Rollouts on `nthread` threads (numba's pool, which lives for the process: entered through
  engine.batch.POOL); 0 or None: on the calling thread. A context manager, as
  mujoco.rollout.Rollout."""

  def __init__(self, *, nthread=None):
    self.nthread = 0 if nthread is None else int(nthread)
    self._closed = False

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    self.close()

  def close(self):
    self._closed = True

  def rollout(
    self,
    model,
    data,
    initial_state,
    control=None,
    *,
    control_spec=mjSTATE_CTRL,
    skip_checks=False,
    nstep=None,
    initial_warmstart=None,
    state=None,
    sensordata=None,
    chunk_size=None,
  ):
    """Rolls out trajectories; returns (state, sensordata). See the module docstring.

    Args:
      model: an MjModel, or a sequence of nbatch MjModels of one size signature.
      data: an MjData, or a sequence of MjData, one per thread.
      initial_state: ([nbatch or 1] x nstate) initial states (mjSTATE_FULLPHYSICS).
      control: ([nbatch or 1] x [nstep or 1] x ncontrol) inputs of `control_spec` layout.
      control_spec: mjtState bits of the inputs (within mjSTATE_USER).
      skip_checks: accepted for mujoco's signature; shapes are checked regardless (a wrong
        shape would make jitted code read out of bounds).
      nstep: steps per trajectory, when no array gives it.
      initial_warmstart: ([nbatch or 1] x nv) qacc_warmstart at the start.
      state, sensordata: output arrays (nbatch x nstep x nstate / nsensordata), else new.
      chunk_size: trajectories per task on the threads (default nbatch / (10 nthread)).
    """
    if self._closed:
      raise RuntimeError("rollout requested after thread pool shutdown")
    control_spec = int(control_spec)
    if control_spec & ~mjSTATE_USER:
      raise ValueError("control_spec can only contain bits in mjSTATE_USER")
    if nstep is not None and not isinstance(nstep, (int, np.integer)):
      raise ValueError("nstep must be an integer")
    if chunk_size is not None and not isinstance(chunk_size, (int, np.integer)):
      raise ValueError("chunk_size must be an integer")
    models = [model] if hasattr(model, "_ptr") else list(model)
    datas = [data] if hasattr(data, "_ptr") else list(data)
    if not models or not datas:
      raise ValueError("rollout needs at least one model and one data")
    initial_state = _as_float_array("initial_state", initial_state, 2)
    initial_warmstart = _as_float_array("initial_warmstart", initial_warmstart, 2)
    control = _as_float_array("control", control, 3)
    for name, value, ndim in (("state", state, 3), ("sensordata", sensordata, 3)):
      if value is not None and np.ndim(value) > ndim:
        raise ValueError(f"{name} can have at most {ndim} dimensions, got {np.ndim(value)}")
    outputs = {
      "state": None
      if state is None
      else np.asarray(state).reshape((1,) * (3 - np.ndim(state)) + np.shape(state)),
      "sensordata": None
      if sensordata is None
      else np.asarray(sensordata).reshape((1,) * (3 - np.ndim(sensordata)) + np.shape(sensordata)),
    }

    nbatch = _dimension(
      0,
      {
        "initial_state": initial_state,
        "initial_warmstart": initial_warmstart,
        "control": control,
        **outputs,
      },
      1,
    )
    if len(models) > 1:
      if nbatch == 1:
        nbatch = len(models)
      elif len(models) != nbatch:
        raise ValueError(f"nbatch inferred as {nbatch} but model is length {len(models)}")
    nstep = _dimension(1, {"control": control, **outputs}, nstep or 1)

    m0 = models[0]
    nstate = mj_stateSize(m0, mjSTATE_FULLPHYSICS)
    ncontrol = mj_stateSize(m0, control_spec)
    for m in models[1:]:
      if (
        mj_stateSize(m, mjSTATE_FULLPHYSICS) != nstate
        or mj_stateSize(m, control_spec) != ncontrol
        or m.nv != m0.nv
        or m.nsensordata != m0.nsensordata
      ):
        raise ValueError("models are not compatible")
    for name, array, size in (
      ("initial_state", initial_state, nstate),
      ("initial_warmstart", initial_warmstart, m0.nv),
      ("control", control, ncontrol),
    ):
      if array is not None and array.shape[-1] != size:
        raise ValueError(f"trailing dimension of {name} must be {size}, got {array.shape[-1]}")

    models = models * nbatch if len(models) == 1 else models
    initial_state = _tile(initial_state, nbatch)
    initial_warmstart = _tile(initial_warmstart, nbatch)
    control = _tile(control, nbatch, nstep)
    state = _output_array("state", state, (nbatch, nstep, nstate))
    sensordata = _output_array("sensordata", sensordata, (nbatch, nstep, m0.nsensordata))
    if nstep < 1 or nbatch < 1:
      return state, sensordata

    dptrs = POOL.data_handles(datas)
    arrays = (
      _flat(initial_state),
      _flat(initial_warmstart),
      _flat(control),
      state.reshape(-1),
      sensordata.reshape(-1),
    )
    nthread = min(len(datas), numba.config.NUMBA_NUM_THREADS)
    if self.nthread and nthread > 1 and nbatch > 1 and POOL.usable():
      mptrs = POOL.model_handles(models, nthread)
      chunk = int(chunk_size) if chunk_size else max(1, nbatch // (10 * nthread))
      status = np.zeros((nbatch + chunk - 1) // chunk, np.int64)
      POOL.run(
        nthread, _parallel, mptrs, dptrs, nbatch, chunk, nstep, control_spec, *arrays, status
      )  # one data per thread id
      failed = status.min()
    else:
      mptrs = np.array([m._ptr for m in models], np.int64)
      failed = rollout_range(mptrs, int(dptrs[0]), 0, nbatch, nstep, control_spec, *arrays)
    if failed == SIZE_MISMATCH:
      raise ValueError("an MjData does not belong to the models: their sizes differ")
    if failed < 0:
      check_status(failed, "rollout")
    return state, sensordata


def rollout(
  model,
  data,
  initial_state,
  control=None,
  *,
  control_spec=mjSTATE_CTRL,
  skip_checks=False,
  nstep=None,
  initial_warmstart=None,
  state=None,
  sensordata=None,
  chunk_size=None,
  persistent_pool=False,
):
  """Rolls out open-loop trajectories (mujoco.rollout.rollout); see the module docstring and
  Rollout.rollout. With several data the trajectories run on that many threads (at most
  NUMBA_NUM_THREADS). `persistent_pool` is accepted for mujoco's signature: numba's thread pool
  lives for the process anyway."""
  datas = [data] if hasattr(data, "_ptr") else list(data)
  runner = Rollout(nthread=len(datas) if len(datas) > 1 else 0)
  return runner.rollout(
    model,
    datas,
    initial_state,
    control,
    control_spec=control_spec,
    skip_checks=skip_checks,
    nstep=nstep,
    initial_warmstart=initial_warmstart,
    state=state,
    sensordata=sensordata,
    chunk_size=chunk_size,
  )
