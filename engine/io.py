"""Model loading, data reset and keyframes (port of parts of engine_io.c)."""

import numpy as np

from engine import _structs
from engine import enums
from engine import errors
from engine import types as _types
from engine._jit import jit


def model_from_xml(xml: str | None = None, path: str | None = None,
                   assets: dict | None = None) -> "_types.MjModel":
  """Compiles MJCF (text or file) into an MjModel and computes its qpos0 constants; raises
  UnsupportedError for valid MJCF that the engine cannot simulate yet."""
  return _build_model(xml, path, assets, reject_unsupported=True)


def compile_any_model(xml: str | None = None, path: str | None = None,
                      assets: dict | None = None) -> "_types.MjModel":
  """The compiled model even where it uses features we cannot simulate yet (to compare it
  with MuJoCo's). For such models the muscle length ranges that need a simulation are left
  as written."""
  return _build_model(xml, path, assets, reject_unsupported=False)


def _build_model(xml, path, assets, reject_unsupported: bool) -> "_types.MjModel":
  from engine import compiler
  from engine import setconst
  from engine.compiler import sparsity

  c = compiler.compile_model(xml=xml, path=path, assets=assets)
  problems = unsupported_features(c.arrays.get)
  if problems and reject_unsupported:
    raise errors.UnsupportedError(
      "the model uses features this engine does not simulate yet: " + "; ".join(problems)
    )
  sizes, arrays = dict(c.sizes), dict(c.arrays)
  s = sparsity.mass_sparsity(
    arrays["dof_parentid"], arrays["body_parentid"], arrays["body_dofadr"], arrays["body_dofnum"],
    arrays["dof_simplenum"]
  )
  sizes.update(s["sizes"])
  arrays.update(s["arrays"])
  opt = _types.MjOption()
  for name, value in c.opt.items():
    if name in opt._arrays:
      opt._arrays[name][...] = value
  m = _types.MjModel(sizes, arrays, opt, _types.MjStatistic(),
                     extras={"vis": c.vis, "stat_user": c.stat_user})
  setconst.mj_setConst(m, simulate_length_ranges=not problems)
  return m


# features of MuJoCo 3.17 that compile but are not simulated yet, by field and value
_UNSUPPORTED = (
  ("actuator_trntype", enums.mjTRN_SO3, "SO3 transmission (orientation actuator)"),
  ("actuator_dyntype", enums.mjDYN_DCMOTOR, "dcmotor activation dynamics"),
  ("actuator_dyntype", enums.mjDYN_PID, "pid activation dynamics"),
  ("actuator_gaintype", enums.mjGAIN_DCMOTOR, "dcmotor gain"),
  ("actuator_gaintype", enums.mjGAIN_SO3, "so3 gain (orientation actuator)"),
  ("actuator_gaintype", enums.mjGAIN_PID, "pid gain"),
  ("actuator_biastype", enums.mjBIAS_DCMOTOR, "dcmotor bias"),
  ("actuator_biastype", enums.mjBIAS_SO3, "so3 bias (orientation actuator)"),
  ("sensor_type", enums.mjSENS_GEOMDIST, "geomdist sensor (collision distance)"),
  ("sensor_type", enums.mjSENS_GEOMNORMAL, "geomnormal sensor (collision distance)"),
  ("sensor_type", enums.mjSENS_GEOMFROMTO, "geomfromto sensor (collision distance)"),
  ("sensor_type", enums.mjSENS_CONTACT, "contact sensor (contacts)"),
  ("sensor_type", enums.mjSENS_TACTILE, "tactile sensor (contacts)"),
  ("sensor_type", enums.mjSENS_PLUGIN, "plugin sensor"),
)


def unsupported_features(get) -> list:
  """Descriptions of the compiled features we cannot simulate yet ([] if none).

  `get(field)` returns a compiled MjModel array (or None). Each entry names the
  element kind, its index and the feature, e.g. "actuator 3: pid gain".
  """
  found = []
  for field, value, what in _UNSUPPORTED:
    arr = get(field)
    if arr is None:
      continue
    kind = field.split("_")[0]
    for i in np.nonzero(np.asarray(arr) == value)[0]:
      found.append(f"{kind} {i}: {what}")
  for field, what in (("actuator_delay", "control delay"), ("sensor_delay", "sensor delay"),
                      ("sensor_interval", "sensor sampling interval")):
    arr = get(field)
    if arr is not None and len(arr):
      kind = field.split("_")[0]
      rows = np.asarray(arr).reshape(len(arr), -1)
      for i in np.nonzero(np.any(rows != 0, axis=1))[0]:
        found.append(f"{kind} {i}: {what} (history buffers)")
  return found


@jit
def reset_data(m, d):
  """Port of mj_resetData, engine_io.c: clear everything, then set the qpos0 state."""
  _structs.zero_data(d)
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


@jit
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


def mj_resetData(m: "_types.MjModel", d: "_types.MjData") -> None:
  """Resets the data to the model's qpos0 state (mujoco.mj_resetData)."""
  reset_data(m._struct, d._struct)


def mj_resetDataKeyframe(m: "_types.MjModel", d: "_types.MjData", key: int) -> None:
  """Resets the data, then loads keyframe `key` (mujoco.mj_resetDataKeyframe)."""
  key = int(key)
  if not 0 <= key < m.nkey:
    raise ValueError(f"keyframe index {key} out of range: the model has {m.nkey} keyframes")
  reset_data_keyframe(m._struct, d._struct, key)
