"""Model loading, data reset and keyframes (port of parts of engine_io.c)."""

import numpy as np

from engine import types as _types


def model_from_xml(xml: str | None = None, path: str | None = None,
                   assets: dict | None = None) -> "_types.MjModel":
  """Compiles MJCF (text or file) into an MjModel and computes its qpos0 constants."""
  from engine import compiler
  from engine import setconst

  c = compiler.compile_model(xml=xml, path=path, assets=assets)
  opt = _types.MjOption()
  for name, value in c.opt.items():
    if name in opt._arrays:
      opt._arrays[name][...] = value
  m = _types.MjModel(c.sizes, c.arrays, opt, _types.MjStatistic(),
                     extras={"vis": c.vis, "stat_user": c.stat_user})
  setconst.mj_setConst(m)
  return m


def mj_resetData(m: "_types.MjModel", d: "_types.MjData") -> None:
  """Port of mj_resetData, engine_io.c: clear everything, then the qpos0 state."""
  for a in d._arrays.values():
    a.fill(0)
  d.qpos[:] = m.qpos0
  d.eq_active[:] = m.eq_active0
  mocap = m.body_mocapid >= 0
  d.mocap_pos[m.body_mocapid[mocap]] = m.body_pos[mocap]
  d.mocap_quat[m.body_mocapid[mocap]] = m.body_quat[mocap]


def mj_resetDataKeyframe(m: "_types.MjModel", d: "_types.MjData", key: int) -> None:
  """Port of mj_resetDataKeyframe, engine_io.c: reset, then copy keyframe `key`."""
  key = int(key)
  if not 0 <= key < m.nkey:
    raise ValueError(f"keyframe index {key} out of range: the model has {m.nkey} keyframes")
  mj_resetData(m, d)
  d.time = m.key_time[key]
  d.qpos[:] = m.key_qpos[key]
  d.qvel[:] = m.key_qvel[key]
  d.act[:] = m.key_act[key]
  d.ctrl[:] = m.key_ctrl[key]
  d.mocap_pos[:] = m.key_mpos[key].reshape(-1, 3)
  d.mocap_quat[:] = m.key_mquat[key].reshape(-1, 4)


def mj_resetDataDebug(m, d, debug_value: int) -> None:
  """Port of mj_resetDataDebug: reset, filling computed fields with a byte pattern."""
  mj_resetData(m, d)
  state = {"qpos", "qvel", "act", "ctrl", "mocap_pos", "mocap_quat", "eq_active", "time"}
  for name, a in d._arrays.items():
    if name not in state and a.dtype == np.float64:
      a.view(np.uint8).fill(debug_value)
