"""Data reset and keyframes (port of parts of engine_io.c)."""

from engine import _structs
from engine import history as _history
from engine import plugin_call
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import stage


@stage()
def reset_data(m, d):
  """Port of mj_resetData, engine_io.c: clear everything, then set the qpos0 state and the
  history buffers' initial times."""
  _structs.zero_data(d)
  _history.init(m, d)
  if m.nplugin:
    plugin_call.reset(m, d)
  for i in range(m.nq):
    d.qpos[i] = m.qpos0[i]
  for i in range(m.neq):
    d.eq_active[i] = m.eq_active0[i]
  for i in range(m.nbody):
    k = m.body_mocapid[i]
    if k >= 0:
      for j in range(3):
        d.mocap_pos[k, j] = m.body_pos[i, j]
      for j in range(4):
        d.mocap_quat[k, j] = m.body_quat[i, j]


@stage(M, D, i8)
def reset_data_keyframe(m, d, key):
  """Port of mj_resetDataKeyframe, engine_io.c: reset, then copy keyframe `key`."""
  reset_data(m, d)
  d.time[0] = m.key_time[key]
  d.qpos[:] = m.key_qpos[key]
  d.qvel[:] = m.key_qvel[key]
  d.act[:] = m.key_act[key]
  d.ctrl[:] = m.key_ctrl[key]
  for i in range(m.nmocap):
    for j in range(3):
      d.mocap_pos[i, j] = m.key_mpos[key, 3 * i + j]
    for j in range(4):
      d.mocap_quat[i, j] = m.key_mquat[key, 4 * i + j]


def mj_resetData(m, d) -> None:
  """Resets the data to the model's qpos0 state (mujoco.mj_resetData)."""
  reset_data(m._struct, d._struct)


def mj_resetDataKeyframe(m, d, key: int) -> None:
  """Resets the data, then loads keyframe `key` (mujoco.mj_resetDataKeyframe)."""
  key = int(key)
  if not 0 <= key < m.nkey:
    raise ValueError(f"keyframe index {key} out of range: the model has {m.nkey} keyframes")
  reset_data_keyframe(m._struct, d._struct, key)
