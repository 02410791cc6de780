"""Data reset and keyframes: the Python API of mj_resetData and mj_resetDataKeyframe (their
kernels, reset_data and reset_data_keyframe, are in engine/forward.py: a reset with sleeping
trees may run mj_forward)."""

import warnings

import numpy as np

from engine import enums
from engine import forward as _forward
from engine.support import mj_id2name


def check_sleep_init(m, d) -> None:
  """Warns, as MuJoCo does, when trees marked sleep="init" could not all be put to sleep by
  the reset (they stay awake): e.g. in contact with islands disabled, where no island sleeps."""
  if not m.opt.enableflags & enums.mjENBL_SLEEP:
    return
  init = np.asarray(m.tree_sleep_policy) == enums.mjSLEEP_INIT
  awake = init & (np.asarray(d.tree_asleep) < 0)
  if awake.any():
    from engine.driver import PhysicsWarning  # noqa: PLC0415 - driver imports this module

    root = int(m.tree_bodyadr[int(np.argmax(awake))])
    name = mj_id2name(m, enums.mjOBJ_BODY, root) or ""
    warnings.warn(
      f"{int(init.sum())} trees were marked as sleep='init' but only "
      f"{int(init.sum() - awake.sum())} could be slept. Body '{name}' (id={root}) "
      "is the root of the first tree that could not be slept.",
      PhysicsWarning,
      stacklevel=3,
    )


def mj_resetData(m, d) -> None:
  """Resets the data to the model's qpos0 state (mujoco.mj_resetData)."""
  _forward.reset_data(m._struct, d._struct)
  check_sleep_init(m, d)


def mj_resetDataKeyframe(m, d, key: int) -> None:
  """Resets the data, then loads keyframe `key` (mujoco.mj_resetDataKeyframe)."""
  key = int(key)
  if not 0 <= key < m.nkey:
    raise ValueError(f"keyframe index {key} out of range: the model has {m.nkey} keyframes")
  _forward.reset_data_keyframe(m._struct, d._struct, key)
  check_sleep_init(m, d)
