"""Attribute values: validation on assignment, conversion from XML text, formatting to XML.

Values are stored in their Python form: float and int scalars, 1-D numpy arrays (float64 or
int64), bools, keyword strings in the schema's spelling, strings, `Asset` objects for files, and
`Element`s or strings for references. Identifier and reference bookkeeping (namescopes,
scoping on export) lives in element.py; this module handles what does not depend on the tree.
"""

import hashlib
import os
import struct

import numpy as np

from engine.compiler import assets as engine_assets
from mjcf import constants


class Asset:
  """The contents of an asset file (mesh, texture, height field) held by a model.

  The exported XML names the file after its contents (`prefix-sha1.ext`), so assets from
  different models never collide in the virtual file system passed to the compiler.

  Attributes:
    contents: the file's bytes.
    extension: file extension with its dot ('.stl'); the compiler picks the decoder by it.
    prefix: readable part of the exported name (the original file name without extension).
  """

  __slots__ = ("contents", "extension", "prefix")

  def __init__(self, contents, extension, prefix=""):
    if isinstance(contents, str):
      contents = contents.encode()
    self.contents = bytes(contents)
    self.extension = extension
    self.prefix = prefix

  def get_vfs_filename(self, filename_with_hash=True):
    """Name of the file in the exported model: prefix, content hash and extension (without the
    hash: prefix and extension, or the hash alone when there is no prefix)."""
    digest = hashlib.sha1(self.contents).hexdigest()
    if not self.prefix:
      return digest + self.extension
    if not filename_with_hash:
      return self.prefix + self.extension
    prefix = self.prefix
    excess = len(prefix) + len(digest) + len(self.extension) + 1
    excess -= constants.MAX_VFS_FILENAME_LENGTH
    if excess > 0:
      prefix = prefix[:-excess]
    return f"{prefix}-{digest}{self.extension}"

  def __eq__(self, other):
    if not isinstance(other, Asset):
      return NotImplemented
    return (self.contents, self.extension, self.prefix) == (
      other.contents,
      other.extension,
      other.prefix,
    )

  def __hash__(self):
    return hash((self.contents, self.extension, self.prefix))

  def __repr__(self):
    return f"Asset({self.prefix}{self.extension}, {len(self.contents)} bytes)"


def asset_from_path(path, contents):
  """An Asset named after file `path` (prefix = base name without extension).

  A file named as exported models name them ('prefix-<sha1 of its contents>.ext') gets its
  original prefix back, so a model read from its export writes the same file names. A data URI
  ("data:model/obj;base64,...") has no name: no prefix, the extension of its media type.
  """
  if engine_assets.data_uri_media_type(path) is not None:
    return Asset(contents, engine_assets.decoder_name(path)[len(path) :])
  base = os.path.basename(path.replace("\\", "/"))
  prefix, ext = os.path.splitext(base)
  head, sep, digest = prefix.rpartition("-")
  if sep and len(digest) == 40 and digest == hashlib.sha1(contents).hexdigest():
    prefix = head
  elif len(prefix) == 40 and prefix == hashlib.sha1(contents).hexdigest():
    prefix = ""
  return Asset(contents, ext, prefix)


# MuJoCo's skin files (.skn) name each bone's body in a fixed field of this many bytes
SKIN_BODY_NAME_LENGTH = 40


def rename_skin_bodies(contents, rename):
  """A .skn file's bytes with each bone's body name replaced by rename(name).

  Layout (MuJoCo's skin file format, little endian): int32 nvert, ntexcoord, nface, nbone;
  float32 vertices[3 nvert], texcoords[2 ntexcoord]; int32 faces[3 nface]; then per bone: the
  body name (SKIN_BODY_NAME_LENGTH bytes, NUL padded), float32 bindpos[3], bindquat[4], int32
  vertex count n, int32 vertex ids[n], float32 weights[n]. Only the names change.

  Raises:
    ValueError: the contents are too short for their header, or a new name does not fit.
  """
  contents = bytes(contents)
  try:
    nvert, ntexcoord, nface, nbone = struct.unpack_from("<4i", contents, 0)
    pos = 16 + 4 * (3 * nvert + 2 * ntexcoord + 3 * nface)
    out = [contents[:pos]]
    for _ in range(nbone):
      field = contents[pos : pos + SKIN_BODY_NAME_LENGTH]
      if len(field) != SKIN_BODY_NAME_LENGTH:
        raise ValueError("truncated bone")
      name = field.split(b"\0", 1)[0].decode()
      new = rename(name).encode()
      if len(new) > SKIN_BODY_NAME_LENGTH:
        raise ValueError(
          f"body name {new.decode()!r} is longer than the {SKIN_BODY_NAME_LENGTH} "
          "bytes a skin file allows"
        )
      out.append(new + b"\0" * (SKIN_BODY_NAME_LENGTH - len(new)))
      pos += SKIN_BODY_NAME_LENGTH
      (count,) = struct.unpack_from("<i", contents, pos + 28)
      end = pos + 32 + 8 * count
      if count < 0 or end > len(contents):
        raise ValueError("truncated bone")
      out.append(contents[pos:end])
      pos = end
  except struct.error:
    raise ValueError("not a MuJoCo skin file: too short for its header") from None
  out.append(contents[pos:])
  return b"".join(out)


# ---- validation ----


def _error(aspec, tag, message):
  return ValueError(f"attribute '{aspec.name}' of <{tag}>: {message}")


def _scalar(aspec, tag, value):
  """A float or int scalar."""
  if isinstance(value, str):
    value = value.strip()
  if isinstance(value, np.ndarray) and value.size == 1:
    value = value.reshape(-1)[0]
  try:
    f = float(value)
  except (TypeError, ValueError):
    kind = "an integer" if aspec.kind == "int" else "a number"
    raise _error(aspec, tag, f"expected {kind}, got {value!r}") from None
  if not np.isfinite(f):
    raise _error(aspec, tag, f"expected a finite number, got {value!r}")
  if aspec.kind == "real":
    return f
  if f != int(f):
    raise _error(aspec, tag, f"expected an integer, got {value!r}")
  return int(f)


def _array(aspec, tag, value):
  """A 1-D numpy array within the attribute's length bounds (None for an empty list)."""
  integer = aspec.kind == "int_array"
  try:
    if isinstance(value, str):
      arr = np.array([float(w) for w in value.split()], dtype=np.float64)
    else:
      arr = np.array(value, dtype=np.float64)
  except (TypeError, ValueError):
    raise _error(aspec, tag, f"expected a list of numbers, got {value!r}") from None
  if arr.ndim == 0:
    arr = arr.reshape(1)
  if arr.ndim != 1:
    raise _error(aspec, tag, f"expected a one-dimensional list of numbers, got {value!r}")
  n = len(arr)
  if n == 0 and aspec.nmin == 0:
    return None
  if aspec.nmax != -1 and n > aspec.nmax:
    raise _error(aspec, tag, f"at most {aspec.nmax} values allowed, got {n}: {value!r}")
  if n < max(aspec.nmin, 1):
    want = aspec.nmin if aspec.nmin == aspec.nmax else f"at least {max(aspec.nmin, 1)}"
    raise _error(aspec, tag, f"expected {want} values, got {n}: {value!r}")
  if not np.isfinite(arr).all():
    raise _error(aspec, tag, f"values must be finite, got {value!r}")
  if integer:
    if (arr != np.round(arr)).any():
      raise _error(aspec, tag, f"expected integers, got {value!r}")
    return arr.astype(np.int64)
  return arr


def _bool(aspec, tag, value):
  if isinstance(value, (bool, np.bool_)):
    return bool(value)
  if isinstance(value, str) and value.strip().lower() in ("true", "false"):
    return value.strip().lower() == "true"
  if isinstance(value, (int, np.integer)) and value in (0, 1):
    return bool(value)
  raise _error(aspec, tag, f"expected a bool ('true' or 'false'), got {value!r}")


def _keyword(aspec, tag, value):
  if isinstance(value, (bool, np.bool_)):
    value = "true" if value else "false"
  if not isinstance(value, str):
    raise _error(aspec, tag, f"expected one of {list(aspec.keywords)}, got {value!r}")
  word = value.strip()
  for kw in aspec.keywords:
    if kw.lower() == word.lower():
      return kw
  raise _error(aspec, tag, f"expected one of {list(aspec.keywords)}, got {value!r}")


def _flags(aspec, tag, value):
  words = value.split() if isinstance(value, str) else value
  try:
    words = list(words)
  except TypeError:
    raise _error(
      aspec, tag, f"expected keywords from {list(aspec.keywords)}, got {value!r}"
    ) from None
  out = []
  for w in words:
    if not isinstance(w, str):
      raise _error(aspec, tag, f"expected keywords from {list(aspec.keywords)}, got {value!r}")
    match = [k for k in aspec.keywords if k.lower() == w.lower()]
    if not match:
      raise _error(aspec, tag, f"{w!r} is not one of {list(aspec.keywords)}")
    out.append(match[0])
  return " ".join(out) if out else None


def _string(aspec, tag, value):
  if not isinstance(value, str):
    raise _error(aspec, tag, f"expected a string, got {value!r}")
  return value or None


def convert_value(aspec, tag, value):
  """Validates and converts a value of a plain-typed attribute; None for "not set".

  Handles every kind except identifiers, references and files, which need the element's
  namescope (see element.py).

  Raises:
    ValueError: the value has the wrong type, length or keyword.
  """
  if value is None:
    return None
  kind = aspec.kind
  if kind in ("real", "int"):
    return _scalar(aspec, tag, value)
  if kind in ("real_array", "int_array"):
    return _array(aspec, tag, value)
  if kind == "bool":
    return _bool(aspec, tag, value)
  if kind == "keyword":
    return _keyword(aspec, tag, value)
  if kind == "flags":
    return _flags(aspec, tag, value)
  return _string(aspec, tag, value)


def check_name(aspec, tag, value, namespace):
  """Validates an identifier or a reference given as a string; None for "not set"."""
  if not isinstance(value, str):
    raise _error(aspec, tag, f"expected a string, got {value!r}")
  if not value:
    return None
  if constants.PREFIX_SEPARATOR in value:
    raise _error(
      aspec,
      tag,
      f"{value!r} contains '{constants.PREFIX_SEPARATOR}', which is "
      "reserved for scoping the names of attached models (assign the "
      "Element itself to refer to an element of another model)",
    )
  if aspec.kind == "identifier" and namespace == constants.BODY and value == "world":
    raise _error(aspec, tag, "a body cannot be named 'world' (MuJoCo's name for the worldbody)")
  return value


# ---- formatting ----


def _shortest(x):
  """A Python float's shortest round-trip text, without a trailing '.0'."""
  s = repr(x)
  return s[:-2] if s.endswith(".0") else s


def format_float(x, precision=17, zero_threshold=0.0):
  """A float as XML text: shortest round-trip form at full precision, else %.<precision>g."""
  x = float(x)
  if abs(x) < zero_threshold:
    x = 0.0
  if precision >= 17:
    s = repr(x)
    return s[:-2] if s.endswith(".0") else s
  return f"{x:.{precision}g}"


def format_value(aspec, value, precision=17, zero_threshold=0.0):
  """XML text of a plain-typed value (numbers, bools, keywords, strings)."""
  kind = aspec.kind
  if kind == "real":
    return format_float(value, precision, zero_threshold)
  if kind == "real_array":
    if precision >= 17 and not zero_threshold:  # (the default: shortest round trip)
      return " ".join(map(_shortest, np.asarray(value, dtype=float).ravel().tolist()))
    return " ".join(format_float(v, precision, zero_threshold) for v in value)
  if kind == "int":
    return str(int(value))
  if kind == "int_array":
    return " ".join(str(int(v)) for v in value)
  if kind == "bool":
    return "true" if value else "false"
  return str(value)


def values_equal(a, b):
  """Whether two stored values are equal (arrays elementwise, elements by identity)."""
  if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and bool(np.all(a == b))
  if hasattr(a, "spec") or hasattr(b, "spec"):
    return a is b
  return a == b
