"""Compiled models as bytes: `mj_saveModel` / `mj_loadModel` (the counterpart of MuJoCo's MJB).

Our own layout, exact on the round trip: a magic line, a JSON header (sizes, options, statistics,
visual settings and compiler extras, with arrays replaced by references) and a compressed NumPy
.npz archive holding every array. Loading never unpickles, so a file cannot run code. MuJoCo's
own MJB files are recognised and refused with a clear message (their layout is specific to the
C library).
"""

import io
import json
import os
import struct
import zipfile

import numpy as np

from engine import errors
from engine import types

MAGIC = b"NUMJOCO-MODEL\n"
VERSION = 1
# MuJoCo's MJB files start with the int 54321 (mjb ID)
_MUJOCO_MJB_ID = struct.pack("<i", 54321)


def _flatten(value, arrays):
  """JSON-ready copy of `value` with arrays and bytes moved into `arrays`."""
  if isinstance(value, dict):
    return {"__dict__": [[k, _flatten(v, arrays)] for k, v in value.items()]}
  if isinstance(value, (list, tuple)):
    return [_flatten(v, arrays) for v in value]
  if isinstance(value, np.ndarray):
    key = f"a{len(arrays)}"
    arrays[key] = value
    return {"__array__": key}
  if isinstance(value, bytes):
    key = f"a{len(arrays)}"
    arrays[key] = np.frombuffer(value, np.uint8)
    return {"__bytes__": key}
  if isinstance(value, np.generic):
    return value.item()
  return value


def _unflatten(value, arrays):
  if isinstance(value, dict):
    if "__array__" in value:
      return np.array(arrays[value["__array__"]])
    if "__bytes__" in value:
      return arrays[value["__bytes__"]].tobytes()
    return {k: _unflatten(v, arrays) for k, v in value["__dict__"]}
  if isinstance(value, list):
    return [_unflatten(v, arrays) for v in value]
  return value


def model_to_bytes(m) -> bytes:
  """The compiled model `m` as bytes (load them with model_from_bytes)."""
  arrays = {}
  header = json.dumps({"version": VERSION, "state": _flatten(m.__getstate__(), arrays)})
  buf = io.BytesIO()
  np.savez_compressed(buf, **arrays)
  head = header.encode()
  return MAGIC + struct.pack("<Q", len(head)) + head + buf.getvalue()


def model_from_bytes(data: bytes):
  """The MjModel saved by model_to_bytes / mj_saveModel.

  Raises:
    engine.Error: not such bytes (e.g. a MuJoCo MJB file, or truncated data).
  """
  data = bytes(data)
  if data.startswith(_MUJOCO_MJB_ID):
    raise errors.Error(
      "this is a MuJoCo MJB file, whose layout is specific to MuJoCo's C "
      "library: load the model's MJCF instead, or save it with "
      "engine.mj_saveModel"
    )
  if not data.startswith(MAGIC):
    raise errors.Error("not a model saved by engine.mj_saveModel (unknown header)")
  try:
    (size,) = struct.unpack_from("<Q", data, len(MAGIC))
    start = len(MAGIC) + 8
    header = json.loads(data[start : start + size].decode())
    with np.load(io.BytesIO(data[start + size :]), allow_pickle=False) as npz:
      arrays = {k: npz[k] for k in npz.files}
  except (struct.error, ValueError, OSError, UnicodeDecodeError, zipfile.BadZipFile) as e:
    raise errors.Error(f"corrupt saved model: {e}") from None
  if header.get("version") != VERSION:
    raise errors.Error(
      f"saved model version {header.get('version')} is not supported "
      f"(this engine reads version {VERSION})"
    )
  m = types.MjModel.__new__(types.MjModel)
  m.__setstate__(_unflatten(header["state"], arrays))
  return m


def mj_saveModel(m, filename=None, buffer=None):
  """Saves `m` to `filename` and/or into `buffer` (a writable uint8 array of at least
  mj_sizeModel(m) bytes), as mujoco.mj_saveModel."""
  data = model_to_bytes(m)
  if filename is not None:
    with open(os.fspath(filename), "wb") as f:
      f.write(data)
  if buffer is not None:
    if buffer.size < len(data):
      raise ValueError(
        f"buffer has {buffer.size} bytes; the model needs {len(data)} (mj_sizeModel)"
      )
    buffer.reshape(-1).view(np.uint8)[: len(data)] = np.frombuffer(data, np.uint8)


def mj_sizeModel(m) -> int:
  """Bytes mj_saveModel writes for `m`."""
  return len(model_to_bytes(m))


def mj_loadModel(filename):
  """The model saved at `filename` by mj_saveModel."""
  with open(os.fspath(filename), "rb") as f:
    return model_from_bytes(f.read())
