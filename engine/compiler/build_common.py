"""Helpers shared by the build modules: MjModel arrays with MuJoCo's dtypes (engine/fields.py)."""

import numpy as np

from engine import fields as F
from engine.compiler import build_skin

_DTYPES = {
  f.name: f.dtype for f in F.MODEL_FIELDS + F.COMPILER_ONLY_FIELDS + build_skin.SKIN_FIELDS
}


def arr(arrays, name, data, shape=None):
  """Stores `data` as array `name` with MuJoCo's dtype (and 2-D shape if given)."""
  code = _DTYPES.get(name, "f8")
  a = np.array(data, dtype=None if code == "S" else np.dtype(code))
  if shape is not None:
    a = a.reshape(shape)
  arrays[name] = a
