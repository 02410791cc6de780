"""State vectors: mj_stateSize, mj_getState, mj_setState, mj_extractState, mj_copyState and
mj_setKeyframe (port of the state functions of engine_support.c).

A state is a flat float64 vector holding the components selected by the bits
of a signature (`mjtState`), concatenated in bit order:

  bit                    component        size
  mjSTATE_TIME           time             1
  mjSTATE_QPOS           qpos             nq
  mjSTATE_QVEL           qvel             nv
  mjSTATE_ACT            act              na
  mjSTATE_HISTORY        history          nhistory
  mjSTATE_WARMSTART      qacc_warmstart   nv
  mjSTATE_CTRL           ctrl             nu
  mjSTATE_QFRC_APPLIED   qfrc_applied     nv
  mjSTATE_XFRC_APPLIED   xfrc_applied     6*nbody (row-major)
  mjSTATE_EQ_ACTIVE      eq_active        neq (0.0 or 1.0)
  mjSTATE_MOCAP_POS      mocap_pos        3*nmocap
  mjSTATE_MOCAP_QUAT     mocap_quat       4*nmocap
  mjSTATE_USERDATA       userdata         nuserdata
  mjSTATE_PLUGIN         plugin_state     npluginstate

Common signatures: mjSTATE_PHYSICS (qpos, qvel, act, history), mjSTATE_FULLPHYSICS
(adds time and plugin state), mjSTATE_USER (the inputs) and mjSTATE_INTEGRATION
(everything mj_step reads). The kernels take the numba handles so batched
rollouts can call them inside numba.
"""

import numpy as np

from engine import errors
from engine._jit import jit
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import stage
from engine._stage import vec
from engine.enums import mjNSTATE
from engine.enums import mjSTATE_ACT
from engine.enums import mjSTATE_CTRL
from engine.enums import mjSTATE_EQ_ACTIVE
from engine.enums import mjSTATE_HISTORY
from engine.enums import mjSTATE_MOCAP_POS
from engine.enums import mjSTATE_MOCAP_QUAT
from engine.enums import mjSTATE_PLUGIN
from engine.enums import mjSTATE_QFRC_APPLIED
from engine.enums import mjSTATE_QPOS
from engine.enums import mjSTATE_QVEL
from engine.enums import mjSTATE_TIME
from engine.enums import mjSTATE_USERDATA
from engine.enums import mjSTATE_WARMSTART
from engine.enums import mjSTATE_XFRC_APPLIED

# ---- kernels ----


@jit
def element_size(m, element):
  """Port of mj_stateElemSize: number of values of one state component (one bit)."""
  if element == mjSTATE_TIME:
    return 1
  if element == mjSTATE_QPOS:
    return m.nq
  if element == mjSTATE_QVEL or element == mjSTATE_WARMSTART or element == mjSTATE_QFRC_APPLIED:
    return m.nv
  if element == mjSTATE_ACT:
    return m.na
  if element == mjSTATE_CTRL:
    return m.nu
  if element == mjSTATE_XFRC_APPLIED:
    return 6 * m.nbody
  if element == mjSTATE_EQ_ACTIVE:
    return m.neq
  if element == mjSTATE_MOCAP_POS:
    return 3 * m.nmocap
  if element == mjSTATE_MOCAP_QUAT:
    return 4 * m.nmocap
  if element == mjSTATE_USERDATA:
    return m.nuserdata
  if element == mjSTATE_HISTORY:
    return m.nhistory
  if element == mjSTATE_PLUGIN:
    return m.npluginstate
  return 0


@jit
def size_of(m, sig):
  """Port of mj_stateSize: number of values in a state with signature `sig`."""
  size = 0
  for i in range(mjNSTATE):
    element = 1 << i
    if element & sig:
      size += element_size(m, element)
  return size


@jit
def _put(dst, dadr, src):
  """dst[dadr:dadr + len(src)] = src, element by element: a slice would take a reference to
  dst, which rollout threads sharing it would contend for."""
  for i in range(src.shape[0]):
    dst[dadr + i] = src[i]


@jit
def _take(dst, src, sadr):
  """dst[:] = src[sadr:sadr + len(dst)], element by element (see _put)."""
  for i in range(dst.shape[0]):
    dst[i] = src[sadr + i]


@jit
def _copy_flat(dst, dadr, src2d):
  n = 0
  for i in range(src2d.shape[0]):
    for j in range(src2d.shape[1]):
      dst[dadr + n] = src2d[i, j]
      n += 1


@jit
def _fill_2d(dst2d, src, sadr):
  n = 0
  for i in range(dst2d.shape[0]):
    for j in range(dst2d.shape[1]):
      dst2d[i, j] = src[sadr + n]
      n += 1


@jit
def read_state_at(m, d, state, start, sig):
  """Port of mj_getState: copies the components selected by `sig` into `state`, from index
  `start` on (rollouts write rows of one flat array without slicing it)."""
  adr = start
  for i in range(mjNSTATE):
    element = 1 << i
    if not element & sig:
      continue
    size = element_size(m, element)
    if element == mjSTATE_TIME:
      state[adr] = d.time[0]
    elif element == mjSTATE_QPOS:
      _put(state, adr, d.qpos)
    elif element == mjSTATE_QVEL:
      _put(state, adr, d.qvel)
    elif element == mjSTATE_ACT:
      _put(state, adr, d.act)
    elif element == mjSTATE_HISTORY:
      _put(state, adr, d.history)
    elif element == mjSTATE_WARMSTART:
      _put(state, adr, d.qacc_warmstart)
    elif element == mjSTATE_CTRL:
      _put(state, adr, d.ctrl)
    elif element == mjSTATE_QFRC_APPLIED:
      _put(state, adr, d.qfrc_applied)
    elif element == mjSTATE_XFRC_APPLIED:
      _copy_flat(state, adr, d.xfrc_applied)
    elif element == mjSTATE_EQ_ACTIVE:
      for j in range(size):
        state[adr + j] = 1.0 if d.eq_active[j] else 0.0
    elif element == mjSTATE_MOCAP_POS:
      _copy_flat(state, adr, d.mocap_pos)
    elif element == mjSTATE_MOCAP_QUAT:
      _copy_flat(state, adr, d.mocap_quat)
    elif element == mjSTATE_USERDATA:
      _put(state, adr, d.userdata)
    elif element == mjSTATE_PLUGIN:
      _put(state, adr, d.plugin_state)
    adr += size


@jit
def write_state_at(m, d, state, start, sig):
  """Port of mj_setState: copies the components selected by `sig` from `state` into `d`,
  reading from index `start` on."""
  adr = start
  for i in range(mjNSTATE):
    element = 1 << i
    if not element & sig:
      continue
    size = element_size(m, element)
    if element == mjSTATE_TIME:
      d.time[0] = state[adr]
    elif element == mjSTATE_QPOS:
      _take(d.qpos, state, adr)
    elif element == mjSTATE_QVEL:
      _take(d.qvel, state, adr)
    elif element == mjSTATE_ACT:
      _take(d.act, state, adr)
    elif element == mjSTATE_HISTORY:
      _take(d.history, state, adr)
    elif element == mjSTATE_WARMSTART:
      _take(d.qacc_warmstart, state, adr)
    elif element == mjSTATE_CTRL:
      _take(d.ctrl, state, adr)
    elif element == mjSTATE_QFRC_APPLIED:
      _take(d.qfrc_applied, state, adr)
    elif element == mjSTATE_XFRC_APPLIED:
      _fill_2d(d.xfrc_applied, state, adr)
    elif element == mjSTATE_EQ_ACTIVE:
      for j in range(size):
        d.eq_active[j] = state[adr + j] != 0.0
    elif element == mjSTATE_MOCAP_POS:
      _fill_2d(d.mocap_pos, state, adr)
    elif element == mjSTATE_MOCAP_QUAT:
      _fill_2d(d.mocap_quat, state, adr)
    elif element == mjSTATE_USERDATA:
      _take(d.userdata, state, adr)
    elif element == mjSTATE_PLUGIN:
      _take(d.plugin_state, state, adr)
    adr += size


@jit
def read_state(m, d, state, sig):
  read_state_at(m, d, state, 0, sig)


@jit
def write_state(m, d, state, sig):
  write_state_at(m, d, state, 0, sig)


# the Python API's stages; jitted code (rollouts) calls the helpers above directly
state_size = stage(M, i8, restype=i8, lazy=True)(size_of)
get_state = stage(M, D, vec, i8, lazy=True)(read_state)
set_state = stage(M, D, vec, i8, lazy=True)(write_state)


@stage(M, vec, i8, vec, i8, lazy=True)
def extract_state(m, src, srcsig, dst, dstsig):
  """Port of mj_extractState: copies the `dstsig` components of a `srcsig` state."""
  srcadr = 0
  dstadr = 0
  for i in range(mjNSTATE):
    element = 1 << i
    if element & srcsig:
      size = element_size(m, element)
      if element & dstsig:
        dst[dstadr : dstadr + size] = src[srcadr : srcadr + size]
        dstadr += size
      srcadr += size


@stage(M, D, i8, lazy=True)
def set_keyframe(m, d, k):
  """Port of mj_setKeyframe: copies the current state of `d` into keyframe `k` of `m`."""
  m.key_time[k] = d.time[0]
  m.key_qpos[k, :] = d.qpos
  m.key_qvel[k, :] = d.qvel
  m.key_act[k, :] = d.act
  m.key_ctrl[k, :] = d.ctrl
  for i in range(m.nmocap):
    for j in range(3):
      m.key_mpos[k, 3 * i + j] = d.mocap_pos[i, j]
    for j in range(4):
      m.key_mquat[k, 4 * i + j] = d.mocap_quat[i, j]


# ---- Python API (mujoco binding signatures) ----


def _check_sig(sig, fname) -> int:
  sig = int(sig)
  if sig < 0:
    raise errors.FatalError(f"{fname}: invalid state signature {sig} < 0")
  if sig >= 1 << mjNSTATE:
    raise errors.FatalError(f"{fname}: invalid state signature {sig} >= 2^mjNSTATE")
  return sig


def _state_array(state, size, name, writable):
  if writable:
    if not (
      isinstance(state, np.ndarray)
      and state.dtype == np.float64
      and state.flags.c_contiguous
      and state.flags.writeable
    ):
      raise TypeError(f"{name} must be a writable C-contiguous float64 numpy array")
    arr = state.reshape(-1)
  else:
    arr = np.ascontiguousarray(state, dtype=np.float64).reshape(-1)
    if not arr.flags.writeable:
      arr = arr.copy()  # numba types read-only arrays apart
  if arr.size != size:
    # TypeError, as mujoco raises
    raise TypeError(f"{name} has size {arr.size}; it must equal mj_stateSize(m, sig) = {size}")
  return arr


def mj_stateSize(m, sig: int) -> int:
  """Number of values in a state with signature `sig` (mujoco.mj_stateSize)."""
  return int(state_size(m._struct, _check_sig(sig, "mj_stateSize")))


def mj_getState(m, d, state: np.ndarray, sig: int) -> None:
  """Writes the components selected by `sig` into `state` (mujoco.mj_getState)."""
  sig = _check_sig(sig, "mj_getState")
  arr = _state_array(state, mj_stateSize(m, sig), "state", writable=True)
  get_state(m._struct, d._struct, arr, sig)


def mj_setState(m, d, state, sig: int) -> None:
  """Sets the components selected by `sig` from `state` (mujoco.mj_setState)."""
  sig = _check_sig(sig, "mj_setState")
  arr = _state_array(state, mj_stateSize(m, sig), "state", writable=False)
  set_state(m._struct, d._struct, arr, sig)


def mj_extractState(m, src, srcsig: int, dst: np.ndarray, dstsig: int) -> None:
  """Copies the `dstsig` components of a state taken with `srcsig` (mujoco.mj_extractState).

  `dstsig` must be a subset of `srcsig`.
  """
  srcsig = _check_sig(srcsig, "mj_extractState")
  dstsig = _check_sig(dstsig, "mj_extractState")
  if dstsig & ~srcsig:
    raise errors.FatalError(f"mj_extractState: dstsig {dstsig} is not a subset of srcsig {srcsig}")
  src = _state_array(src, mj_stateSize(m, srcsig), "src", writable=False)
  dst = _state_array(dst, mj_stateSize(m, dstsig), "dst", writable=True)
  extract_state(m._struct, src, srcsig, dst, dstsig)


def mj_copyState(m, src, dst, sig: int) -> None:
  """Copies the components selected by `sig` from data `src` to data `dst` (mj_copyState)."""
  sig = _check_sig(sig, "mj_copyState")
  buf = np.empty(mj_stateSize(m, sig))
  get_state(m._struct, src._struct, buf, sig)
  set_state(m._struct, dst._struct, buf, sig)


def mj_setKeyframe(m, d, k: int) -> None:
  """Copies the current state into keyframe `k` of the model (mujoco.mj_setKeyframe)."""
  k = int(k)
  if not 0 <= k < m.nkey:
    raise ValueError(f"keyframe index {k} out of range: the model has {m.nkey} keyframes")
  set_keyframe(m._struct, d._struct, k)
