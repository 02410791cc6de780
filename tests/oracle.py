"""Helpers that build our models from MuJoCo's, so each pipeline stage is tested in isolation.

`from_mujoco(mjm)` copies every field of engine/fields.py out of a compiled
`mujoco.MjModel`, so kinematics, dynamics and integrators can be compared with
MuJoCo on exactly the same model, independent of our MJCF compiler.
"""

import mujoco
import numpy as np

import engine
from engine import fields as F
from engine import types as T


def from_mujoco(mjm) -> T.MjModel:
  """Our MjModel with every field copied from a compiled mujoco.MjModel."""
  sizes = {n: getattr(mjm, n) for n in F.MODEL_SIZE_NAMES}
  arrays = {}
  for f in F.MODEL_FIELDS:
    v = getattr(mjm, f.name)
    arrays[f.name] = bytes(v) if f.dtype == "S" else np.array(v)
  opt = T.MjOption()
  for f in F.OPTION_FIELDS:
    opt._arrays[f.name][...] = getattr(mjm.opt, f.name)
  stat = T.MjStatistic()
  for f in F.STATISTIC_FIELDS:
    stat._arrays[f.name][...] = getattr(mjm.stat, f.name)
  return T.MjModel(sizes, arrays, opt, stat)


def load(xml: str):
  """(mujoco model, mujoco data, our model, our data) for the same MJCF."""
  mjm = mujoco.MjModel.from_xml_string(xml)
  mjd = mujoco.MjData(mjm)
  m = from_mujoco(mjm)
  d = engine.MjData(m)
  return mjm, mjd, m, d


def copy_state(mjd, d):
  """Copies MuJoCo's full physics state and inputs into our data."""
  d.time = mjd.time
  for name in ("qpos", "qvel", "act", "ctrl", "qfrc_applied", "xfrc_applied", "mocap_pos",
               "mocap_quat", "qacc_warmstart", "eq_active"):
    getattr(d, name)[...] = getattr(mjd, name)
