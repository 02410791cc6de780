"""Asset files for the MJCF compiler: resource providers, file lookup, height fields, textures.

Plain Python + numpy + pillow (ports of mjCHField and mjCTexture, user_objects.cc, and of the
resource providers: mjp_registerResourceProvider, mju_openResource). The compiler (build.py)
calls:

- Resource providers (MuJoCo's mjpResourceProvider): `register_resource_provider(prefix, open,
  read, close, getdir=None, modified=None)` makes every file name starting with "prefix:"
  (case-insensitive) load through Python callbacks; `unregister_resource_provider(prefix)`,
  `resource_providers()`, `find_resource_provider(name)`; `open_resource(name) -> Resource`
  (read / modified / close), `read_resource(name) -> bytes` and `resource_dir(name)` (the
  directory names inside a resource resolve against) serve providers and the file system alike.
  A "data:" provider (RFC 2397 data URIs, base64 or percent-encoded) is registered at import.
  Errors: a provider's failure to open a name is a FileNotFoundError naming it and the prefix
  (MissingFileError, also a CompileError, when compiling); a callback that raises is a
  ResourceError naming the resource (ResourceCompileError when compiling).
- `AssetStore(assets, model_dir).read(filename, kind_dir="") -> bytes`: the name combined with
  the model and asset directories (`model_dir/kind_dir/filename`; kind_dir is the compiler's
  meshdir / texturedir / assetdir, possibly absolute; an absolute filename, or one with a
  provider's prefix, is used as is) through its resource provider if one matches; then the
  user's `assets` dict (key as written in the MJCF, then with the directory prefix applied,
  then the bare file name); then the disk. Raises FileNotFoundError naming the file and every
  place searched (and the provider that failed).
- Height fields: `load_hfield(data, filename) -> (nrow, ncol, elevation (nrow*ncol,) float64)` for
  PNG (grey levels, first image row = last hfield row, as MuJoCo) or MuJoCo's binary format
  (int32 nrow, int32 ncol, float32 data row-major); `normalize_hfield(elevation)` scales to [0, 1]
  as MuJoCo always does at compile time (file and inline elevation alike; constant data becomes
  0). Values are computed in float32 like m.hfield_data, returned as float64.
  `hfield_from_elevation(nrow, ncol, elevation)` gives m.hfield_data for inline elevation (rows
  reversed like an image, then normalized).
- Textures: `load_texture_png(data, nchannel=3) -> (width, height, nchannel, uint8 (h*w*nc,))`,
  `load_texture_file(data, filename, nchannel, hflip, vflip)` (also returns is_srgb, which sets
  tex_colorspace when the texture's colorspace is auto), `flip_texture(...)`,
  `builtin_texture(type, builtin, rgb1, rgb2, mark, markrgb, random, width, height, nchannel=3)
  -> (width, height, uint8)` (byte-exact with m.tex_data), and cube/skybox assembly from one
  image (`cube_texture_from_grid`) or six (`cube_texture_from_faces`).
"""

import base64
import binascii
import collections
import dataclasses
import functools
import io
import math
import os
import re
import struct
import threading
import urllib.parse
from collections.abc import Callable

import numpy as np
from numba.core import types

from engine._jit import compiled_entry
from engine._jit import entry
from engine._jit import jit
from engine.compiler.build_math import mjEPS
from engine.enums import mjTEXTURE_2D
from engine.enums import mjTEXTURE_CUBE
from engine.enums import mjTEXTURE_SKYBOX
from engine.errors import CompileError

TEXTURE_TYPES = {"2d": mjTEXTURE_2D, "cube": mjTEXTURE_CUBE, "skybox": mjTEXTURE_SKYBOX}


# ----------------------------------------------------------------------------- resource providers


class ResourceError(OSError):
  """A resource provider's callback failed (raised, or returned no bytes); names the resource."""


class MissingFileError(CompileError, FileNotFoundError):
  """A file the model names was found nowhere (a compile error that is also FileNotFoundError)."""


class ResourceCompileError(CompileError, ResourceError):
  """A resource provider failed while compiling a model (located at the element naming it)."""


@dataclasses.dataclass(frozen=True)
class ResourceProvider:
  """A registered resource provider (MuJoCo's mjpResourceProvider), with Python callbacks.

  Attributes:
    prefix: URI scheme matched, case-insensitively, as "prefix:" at the start of a name.
    open: open(name) -> handle, or None / False when the resource cannot be opened.
    read: read(handle) -> bytes (bytes-like or str) of the whole resource.
    close: close(handle), called once after every successful open.
    getdir: optional getdir(name) -> directory part of name (relative references inside the
      resource are combined with it); default: name up to its last '/' (or "prefix:").
    modified: optional modified(handle, timestamp) -> whether the resource changed since
      timestamp (an opaque value the caller recorded); without it a resource always counts as
      modified, as in MuJoCo.
  """

  prefix: str
  open: Callable
  read: Callable
  close: Callable
  getdir: Callable | None = None
  modified: Callable | None = None


_CALLBACKS = ("open", "read", "close", "getdir", "modified")
_PROVIDERS = {}  # lowercase prefix -> ResourceProvider
_PROVIDERS_LOCK = threading.Lock()
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")


def register_resource_provider(
  prefix: str,
  open: Callable,
  read: Callable,
  close: Callable,
  getdir: Callable | None = None,
  modified: Callable | None = None,
) -> ResourceProvider:
  """Registers callbacks that load every file whose name starts with "prefix:".

  Port of mjp_registerResourceProvider, with Python callbacks. The model
  file, <include> files, meshes, textures (cube faces too), height fields and skins of
  MjModel.from_xml_path / from_xml_string and of mjcf go through it once registered.

  Args:
    prefix: URI scheme syntax (a letter, then letters, digits, '+', '-', '.').
    open, read, close, getdir, modified: the callbacks; see ResourceProvider.

  Returns:
    The registered provider (the existing one when the same callbacks are registered again).

  Raises:
    ValueError: invalid prefix, or the prefix is taken by other callbacks.
    TypeError: a callback is not callable.
  """
  if not isinstance(prefix, str) or not _SCHEME.fullmatch(prefix):
    raise ValueError(
      f"invalid resource provider prefix {prefix!r}: expected URI scheme syntax "
      "(a letter, then letters, digits, '+', '-' or '.')"
    )
  for cbname, cb, required in (
    ("open", open, True),
    ("read", read, True),
    ("close", close, True),
    ("getdir", getdir, False),
    ("modified", modified, False),
  ):
    if (cb is not None or required) and not callable(cb):
      raise TypeError(f"resource provider '{prefix}': {cbname} must be callable, got {cb!r}")
  provider = ResourceProvider(prefix, open, read, close, getdir, modified)
  key = prefix.lower()
  with _PROVIDERS_LOCK:
    old = _PROVIDERS.get(key)
    if old is not None:
      if all(getattr(old, f) == getattr(provider, f) for f in _CALLBACKS):
        return old
      raise ValueError(
        f"a resource provider with prefix '{old.prefix}' is already registered with other callbacks"
      )
    _PROVIDERS[key] = provider
  return provider


def unregister_resource_provider(prefix: str) -> bool:
  """Removes the provider of `prefix` (any case); False if none was registered."""
  with _PROVIDERS_LOCK:
    return _PROVIDERS.pop(str(prefix).lower(), None) is not None


def resource_providers() -> tuple:
  """The registered providers (ResourceProvider), in registration order."""
  with _PROVIDERS_LOCK:
    return tuple(_PROVIDERS.values())


def find_resource_provider(name: str) -> ResourceProvider | None:
  """The provider whose "prefix:" starts `name` (case-insensitive), or None."""
  if not _PROVIDERS or not isinstance(name, str):
    return None
  colon = name.find(":")
  if colon < 1:
    return None
  return _PROVIDERS.get(name[:colon].lower())


def shown_name(name: str, limit: int = 80) -> str:
  """A resource name for messages (data URIs can be megabytes long)."""
  return name if len(name) <= limit else name[: limit - 3] + "..."


def _call(provider, cbname, name, *args):
  """One provider callback; an exception becomes ResourceError naming the resource."""
  try:
    return getattr(provider, cbname)(*args)
  except Exception as e:
    raise ResourceError(
      f"resource provider '{provider.prefix}': {cbname} failed for resource "
      f"'{shown_name(name)}': {type(e).__name__}: {e}"
    ) from e


def resource_dir(name: str) -> str:
  """Directory of a resource, against which names written inside it resolve.

  Port of mju_getResourceDir: the provider's getdir; otherwise the name up to and including its
  last '/' or '\\' (so "zip:models/robot.xml" -> "zip:models/"). Unlike MuJoCo, a provider
  name with no directory keeps its "prefix:" ("zip:robot.xml" -> "zip:"), so the files it names
  stay with the same provider. A file-system name gives os.path.dirname.
  """
  provider = find_resource_provider(name)
  if provider is None:
    return os.path.dirname(name)
  if provider.getdir is not None:
    out = _call(provider, "getdir", name, name)
    if not isinstance(out, str):
      raise ResourceError(
        f"resource provider '{provider.prefix}': getdir returned {out!r} for "
        f"resource '{shown_name(name)}', expected a str"
      )
    return out
  cut = max(name.rfind("/"), name.rfind("\\"))
  return name[: cut + 1] if cut >= 0 else name[: name.find(":") + 1]


class Resource:
  """An open resource (MuJoCo's mjResource): a provider's handle, or a file on disk.

  Use as a context manager (`with open_resource(name) as r: data = r.read()`), or call close().

  Attributes:
    name: the resource name.
    provider: the ResourceProvider serving it (None for a file).
    handle: what the provider's open returned (the path for a file).
  """

  def __init__(self, name, provider, handle):
    self.name, self.provider, self.handle = name, provider, handle
    self._open = True

  def read(self) -> bytes:
    """The resource's bytes (port of mju_readResource).

    Raises:
      ResourceError: the read callback raised or returned neither bytes nor str.
    """
    p = self.provider
    if p is None:
      with open(self.handle, "rb") as f:
        return f.read()
    data = _call(p, "read", self.name, self.handle)
    if isinstance(data, str):
      return data.encode()
    if isinstance(data, (bytes, bytearray, memoryview)):
      return bytes(data)
    raise ResourceError(
      f"resource provider '{p.prefix}': read returned {type(data).__name__} "
      f"for resource '{shown_name(self.name)}', expected bytes"
    )

  def modified(self, timestamp) -> bool:
    """Whether the resource changed since `timestamp` (mju_isModifiedResource).

    A provider without a modified callback always answers True; a file compares timestamp
    with its modification time (os.path.getmtime).
    """
    p = self.provider
    if p is None:
      return os.path.getmtime(self.handle) != timestamp
    if p.modified is None:
      return True
    return bool(_call(p, "modified", self.name, self.handle, timestamp))

  def close(self):
    """Releases the provider's handle (once; later calls do nothing)."""
    if self._open:
      self._open = False
      if self.provider is not None:
        _call(self.provider, "close", self.name, self.handle)

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    self.close()


def open_resource(name: str) -> Resource:
  """Opens `name` with the provider matching its prefix, else from the file system.

  Port of mju_openResource (without the VFS: the assets dict is AssetStore's).

  Raises:
    FileNotFoundError: the provider's open failed (the message names the resource and the
      prefix), or no such file.
    ResourceError: the provider's open raised.
  """
  provider = find_resource_provider(name)
  if provider is None:
    if not os.path.isfile(name):
      raise FileNotFoundError(f"file '{name}' not found")
    return Resource(name, None, name)
  handle = _call(provider, "open", name, name)
  if handle is None or handle is False:
    raise FileNotFoundError(
      f"could not open resource '{shown_name(name)}' with the resource "
      f"provider for prefix '{provider.prefix}'"
    )
  return Resource(name, provider, handle)


def read_resource(name: str) -> bytes:
  """The bytes of resource `name` (open_resource, read, close)."""
  with open_resource(name) as r:
    return r.read()


# ----------------------------------------------------------------------------------- data URIs


def data_uri_media_type(name: str) -> str | None:
  """The media type of a "data:" name ('model/obj'), '' if it names none, None if no data URI."""
  if not isinstance(name, str) or name[:5].lower() != "data:":
    return None
  head = name.partition(",")[0]
  return head[5:].split(";")[0].strip().lower()


CONTENT_TYPE_EXTENSIONS = {
  "image/png": ".png",
  "image/ktx": ".ktx",
  "model/stl": ".stl",
  "model/obj": ".obj",
  "model/vnd.mujoco.msh": ".msh",
  "image/vnd.mujoco.hfield": ".bin",
}


def decoder_name(name: str) -> str:
  """`name` with the extension the decoders dispatch on appended, for a data URI whose media
  type is one of CONTENT_TYPE_EXTENSIONS; other names unchanged."""
  ext = CONTENT_TYPE_EXTENSIONS.get(data_uri_media_type(name) or "")
  return name + ext if ext else name


def _data_open(name):
  """The payload of an RFC 2397 data URI (base64 or percent-encoded); None if malformed."""
  head, sep, payload = name.partition(",")
  if not sep:
    return None
  if head.split(";")[-1].strip().lower() != "base64":
    return urllib.parse.unquote_to_bytes(payload)
  try:
    return base64.b64decode("".join(payload.split()), validate=True)
  except (binascii.Error, ValueError):
    return None


def _data_read(handle):
  return handle


def _data_close(handle):
  pass


def _data_getdir(name):
  return ""  # a data URI holds everything; names inside it resolve as for a string model


register_resource_provider("data", _data_open, _data_read, _data_close, _data_getdir)


# ----------------------------------------------------------------------------------- file system


def combine_path(path1: str, path2: str) -> str:
  """Joins two paths as MuJoCo's FilePath::Combine (an absolute path2 wins).

  A directory that is a provider's bare "prefix:" is joined without a slash ("zip:" + "a.stl").
  """
  if not path1 or is_absolute(path2):
    return path2
  if path1[-1] in "/\\" or (path1[-1] == ":" and find_resource_provider(path1)):
    return path1 + path2
  return path1 + "/" + path2


def is_absolute(path: str) -> bool:
  """Absolute path as MuJoCo sees it: leading slash, drive letter, a scheme prefix ("x:/"), or
  the prefix of a registered resource provider."""
  if not path:
    return False
  return (
    path[0] in "/\\" or ":/" in path or ":\\" in path or find_resource_provider(path) is not None
  )


def _basename(path: str) -> str:
  return path.replace("\\", "/").rsplit("/", 1)[-1]


class AssetStore:
  """Resolves asset file names written in MJCF to their bytes.

  Lookup order: the name combined with the model and asset directories through the resource
  provider matching its prefix (a provider's failure to open it moves on); the assets dict under
  the name as written, under the name with the directory prefix applied, then any key with the
  same base name (MuJoCo's virtual file system ignores directories when matching); then the
  disk.

  Attributes:
    assets: user-provided {filename: bytes}, searched before the disk.
    model_dir: directory of the model file (empty for a model given as a string); a provider's
      directory ("zip:models/") for a model loaded through one.
  """

  def __init__(self, assets: dict | None, model_dir: str):
    self.assets = dict(assets) if assets else {}
    self.model_dir = model_dir or ""
    self._bybase = {}
    seen = set()
    for k in self.assets:
      base = _basename(k)
      if base.lower() in seen:  # MuJoCo's VFS matches base names, ignoring case
        raise ValueError(f"Repeated file name in assets dict: {base}")
      seen.add(base.lower())
      self._bybase.setdefault(base, k)

  def candidates(self, filename: str, kind_dir: str = ""):
    """(asset keys, combined paths: resource names or disk paths) tried for filename, in order."""
    keys = [filename]
    prefixed = combine_path(kind_dir, filename) if kind_dir else filename
    if prefixed not in keys:
      keys.append(prefixed)
    base = self._bybase.get(_basename(filename))
    if base is not None and base not in keys:
      keys.append(base)
    disk = combine_path(self.model_dir, prefixed) if self.model_dir else prefixed
    return keys, [disk]

  def read(self, filename: str, kind_dir: str = "") -> bytes:
    """Bytes of an asset file.

    Args:
      filename: the file name as written in the MJCF.
      kind_dir: the compiler's meshdir / texturedir (may be absolute, may be empty).

    Raises:
      FileNotFoundError: no provider opened it, not in the assets dict and not on disk; the
        message names the failing provider and lists every key and path tried.
      ResourceError: a resource provider's callback raised.
    """
    keys, paths = self.candidates(filename, kind_dir)
    failed = []
    # resource providers
    for p in paths:
      if find_resource_provider(p) is not None:
        try:
          return read_resource(p)
        except FileNotFoundError as e:
          failed.append(str(e))
    # assets dict
    for k in keys:
      if k in self.assets:
        data = self.assets[k]
        return data.encode() if isinstance(data, str) else bytes(data)
    # file system
    disk = [p for p in paths if find_resource_provider(p) is None]
    for p in disk:
      if os.path.isfile(p):
        with open(p, "rb") as f:
          return f.read()
    places = [f"assets[{shown_name(k)!r}]" for k in keys] + [repr(p) for p in disk]
    raise FileNotFoundError(
      f"file '{shown_name(filename)}' not found; "
      + "; ".join(failed + ["searched " + ", ".join(places)])
    )


# ---------------------------------------------------------------------------------- PNG decoding


def _hashable(value):
  """`value` as a cache key: lists and arrays become tuples."""
  if isinstance(value, (list, tuple, np.ndarray)):
    return tuple(_hashable(v) for v in value)
  if isinstance(value, np.generic):
    return value.item()
  return value


def _memoized_images(function):
  """Caches `function`'s results by its arguments, their arrays made read-only (the compiler
  copies them into tex_data; a copy here cost 2 ms of soccer's 20 ms compile): the same
  texture compiles to the same pixels, and tasks that recompile their model at every episode
  (soccer's pitch is resized) would otherwise decode or draw them again each time. The last
  48 images are kept."""
  cache = collections.OrderedDict()
  lock = threading.Lock()

  @functools.wraps(function)
  def wrapper(*args, **kwargs):
    key = (_hashable(args), _hashable(sorted(kwargs.items())))
    with lock:
      result = cache.get(key)
      if result is not None:
        cache.move_to_end(key)
    if result is None:
      result = function(*args, **kwargs)
      for v in result:
        if isinstance(v, np.ndarray):
          v.setflags(write=False)
      with lock:
        cache[key] = result
        if len(cache) > 48:
          cache.popitem(last=False)
    return result

  return wrapper


@_memoized_images
def _png_to_array(data: bytes, nchannel: int):
  """Decodes a PNG into (height, width, nchannel) uint8 the way MuJoCo's lodepng converts colors.

  Grey output takes the red channel of color images; 16-bit samples keep their high byte; a
  missing alpha channel is opaque (255); dropped alpha is ignored (no blending).
  """
  from PIL import Image  # pillow is only needed for PNG assets

  im = Image.open(io.BytesIO(data))
  im.load()
  srgb = "srgb" in im.info
  mode = im.mode
  if mode in ("I;16", "I;16B", "I;16L", "I"):
    grey = (np.asarray(im, dtype=np.int64) >> 8).clip(0, 255).astype(np.uint8)
    rgba = np.stack([grey, grey, grey, np.full_like(grey, 255)], axis=-1)
  elif mode == "1":
    grey = np.asarray(im.convert("L"), dtype=np.uint8)
    rgba = np.stack([grey, grey, grey, np.full_like(grey, 255)], axis=-1)
  elif mode in ("L", "LA"):
    arr = np.asarray(im, dtype=np.uint8)
    grey = arr if mode == "L" else arr[..., 0]
    alpha = np.full_like(grey, 255) if mode == "L" else arr[..., 1]
    rgba = np.stack([grey, grey, grey, alpha], axis=-1)
  else:
    rgba = np.asarray(im.convert("RGBA"), dtype=np.uint8)
  if nchannel == 1:
    out = rgba[..., :1]
  elif nchannel == 3:
    out = rgba[..., :3]
  elif nchannel == 4:
    out = rgba
  else:
    raise ValueError(f"Unsupported number of channels: {nchannel}")
  return np.ascontiguousarray(out), srgb


def png_is_srgb(data: bytes) -> bool:
  """Whether a PNG declares the sRGB color space (sRGB chunk)."""
  return _png_to_array(data, 3)[1]


# ---------------------------------------------------------------------------------- height fields


def load_hfield(data: bytes, filename: str):
  """Elevation data of an hfield file (port of mjCHField::LoadPNG / LoadCustom).

  Args:
    data: file contents.
    filename: name; ".png" selects PNG, anything else MuJoCo's binary format.

  Returns:
    (nrow, ncol, elevation (nrow*ncol,) float64), not yet normalized: PNG grey levels 0..255 with
    the image rows reversed (row 0 of the hfield is the bottom image row).
  """
  if filename.lower().endswith(".png"):
    img, _ = _png_to_array(data, 1)
    nrow, ncol = img.shape[0], img.shape[1]
    if nrow == 0 or ncol == 0:
      raise ValueError(f"Zero dimension in PNG hfield '{filename}'")
    elev = img[::-1, :, 0].astype(np.float32).reshape(-1)
    return nrow, ncol, elev.astype(np.float64)
  if len(data) < 8:
    raise ValueError(f"hfield missing header '{filename}'")
  nrow, ncol = struct.unpack_from("<2i", data, 0)
  if nrow < 1 or ncol < 1:
    raise ValueError(f"non-positive hfield dimensions in file '{filename}'")
  if len(data) != nrow * ncol * 4 + 8:
    raise ValueError(f"unexpected file size in file '{filename}'")
  elev = np.frombuffer(data, dtype="<f4", count=nrow * ncol, offset=8)
  return nrow, ncol, elev.astype(np.float64)


def normalize_hfield(data) -> np.ndarray:
  """Scales elevation to [0, 1] in float32, as mjCHField::Compile does for every hfield.

  Subtracts the minimum; divides by the range only if it exceeds 1e-14 (so constant data
  becomes all zeros).
  """
  d = np.asarray(data, dtype=np.float32).reshape(-1).copy()
  if d.size == 0:
    raise ValueError("hfield not specified")
  emin = np.float32(min(np.float32(1e10), d.min()))
  emax = np.float32(max(np.float32(-1e10), d.max()))
  if emin > emax:
    raise ValueError("invalid data range in hfield")
  d = d - emin
  rng = np.float32(emax - emin)
  if float(rng) > mjEPS:
    d = d / rng
  return d.astype(np.float64)


def hfield_from_elevation(nrow: int, ncol: int, elevation=None) -> np.ndarray:
  """Normalized data of an inline `<hfield nrow ncol elevation>` (as m.hfield_data).

  MuJoCo reads the elevation rows in image order (first row written = last hfield row), like a
  PNG; without elevation the data is all zeros.
  """
  if nrow < 1 or ncol < 1:
    raise ValueError("hfield not specified")
  if elevation is None or len(elevation) == 0:
    return np.zeros(nrow * ncol)
  e = np.asarray(elevation, dtype=np.float32).reshape(-1)
  if e.size != nrow * ncol:
    raise ValueError("elevation data length must match nrow*ncol")
  return normalize_hfield(e.reshape(nrow, ncol)[::-1].reshape(-1))


# ------------------------------------------------------------------------------- texture files


def load_texture_png(data: bytes, nchannel: int = 3):
  """Decodes a PNG texture as MuJoCo (mjCTexture::LoadPNG) for the texture's nchannel.

  Returns:
    (width, height, nchannel, data (height*width*nchannel,) uint8), rows top to bottom.
  """
  img, _ = _png_to_array(data, nchannel)
  h, w = img.shape[0], img.shape[1]
  return w, h, nchannel, img.reshape(-1)


def load_texture_file(data: bytes, filename: str, nchannel: int = 3, hflip=False, vflip=False):
  """A texture image from file bytes (PNG, or KTX passed through as raw bytes), flipped.

  MuJoCo 3.17 rejects other formats (its former custom binary texture format included).

  Returns:
    (width, height, nchannel, data uint8, is_srgb).
  """
  name = filename.lower()
  if name.endswith(".png"):
    img, srgb = _png_to_array(data, nchannel)
    h, w = img.shape[:2]
    out = flip_texture(img.reshape(-1), w, h, nchannel, hflip, vflip)
    return w, h, nchannel, out, srgb
  if name.endswith(".ktx"):
    if hflip or vflip:
      raise ValueError("cannot flip KTX textures")
    return len(data), 1, nchannel, np.frombuffer(data, dtype=np.uint8).copy(), False
  raise ValueError(f"unsupported content type for texture file '{filename}'")


def flip_texture(data, width, height, nchannel, hflip=False, vflip=False):
  """Horizontal / vertical flip of a texture image (3-channel only, as MuJoCo)."""
  if not (hflip or vflip):
    return data
  if nchannel != 3:
    raise ValueError("currently only 3-channel textures support horizontal/vertical flip")
  img = np.asarray(data, dtype=np.uint8).reshape(height, width, 3)
  if hflip:
    img = img[:, ::-1]
  if vflip:
    img = img[::-1]
  return np.ascontiguousarray(img).reshape(-1)


def _rgb_bytes(rgb):
  """(std::byte)(255*rgb[j]) for the three channels."""
  return np.array([int(255 * float(c)) & 0xFF for c in rgb[:3]], dtype=np.uint8)


def cube_texture_from_grid(image, width, height, gridsize=(1, 1), gridlayout="", rgb1=(0.8,) * 3):
  """Cube/skybox texture from one image (port of mjCTexture::LoadCubeSingle).

  Args:
    image: (height*width*3,) uint8 RGB image as loaded.
    width, height: image size.
    gridsize: (rows, cols) of square faces in the image.
    gridlayout: one char per grid cell among "RLUDFB." (right, left, up, down, front, back).
    rgb1: color of faces missing from the layout.

  Returns:
    (tex_width, tex_height, data uint8): a 1x1 grid keeps the single (repeated) square face
    (tex_height = tex_width); otherwise six faces stacked (tex_height = 6 * tex_width).
  """
  rows, cols = int(gridsize[0]), int(gridsize[1])
  if rows < 1 or cols < 1 or rows * cols > 12:
    raise ValueError("gridsize must be non-zero and no more than 12 squares in texture")
  if width // cols != height // rows or width % cols or height % rows:
    raise ValueError("PNG size must be integer multiple of gridsize in texture")
  img = np.asarray(image, dtype=np.uint8).reshape(height, width, 3)
  if rows == 1 and cols == 1:
    tw = width
    return tw, tw, np.ascontiguousarray(img[:tw, :tw]).reshape(-1)
  tw = width // cols
  out = np.empty((6, tw, tw, 3), dtype=np.uint8)
  loaded = [False] * 6
  for k in range(rows * cols):
    ch = gridlayout[k] if k < len(gridlayout) else "."
    if ch == ".":
      continue
    if ch not in "RLUDFB":
      raise ValueError("gridlayout symbol is not among '.RLUDFB' in texture")
    i = "RLUDFB".index(ch)
    r0, c0 = tw * (k // cols), tw * (k % cols)
    out[i] = img[r0 : r0 + tw, c0 : c0 + tw]
    loaded[i] = True
  for i in range(6):
    if not loaded[i]:
      out[i] = _rgb_bytes(rgb1)
  return tw, 6 * tw, out.reshape(-1)


def cube_texture_from_faces(faces, rgb1=(0.8,) * 3):
  """Cube/skybox texture from separate square face images (mjCTexture::LoadCubeSeparate).

  Args:
    faces: six entries (right, left, up, down, front, back), each None or (width, height, data).
    rgb1: color of missing faces.

  Returns:
    (tex_width, 6 * tex_width, data uint8).
  """
  tw = None
  for f in faces:
    if f is None:
      continue
    w, h, _ = f
    if w != h:
      raise ValueError("Non-square PNG file in cube or skybox")
    if tw is None:
      tw = w
    elif w != tw:
      raise ValueError("PNG file has incompatible size in cube or skybox texture")
  if tw is None:
    raise ValueError("No cubefiles defined in cube or skybox texture")
  out = np.empty((6, tw, tw, 3), dtype=np.uint8)
  for i, f in enumerate(faces):
    if f is None:
      out[i] = _rgb_bytes(rgb1)
    else:
      out[i] = np.asarray(f[2], dtype=np.uint8).reshape(tw, tw, 3)
  return tw, 6 * tw, out.reshape(-1)


# ----------------------------------------------------------------------------- builtin textures


@jit
def _mt_seed(seed):
  """std::mt19937_64's state (312 words) after seeding with `seed`."""
  mt = np.empty(312, np.uint64)
  mt[0] = np.uint64(seed)
  for i in range(1, 312):
    prev = mt[i - 1]
    mt[i] = np.uint64(6364136223846793005) * (prev ^ (prev >> np.uint64(62))) + np.uint64(i)
  return mt


@jit
def _mt_twist(mt):
  """The next 312 state words, in place (later words read earlier ones already updated); the
  index arithmetic split in three loops, and the odd-word xor without a branch."""
  n, m = 312, 156
  upper = np.uint64(0xFFFFFFFF80000000)
  lower = np.uint64(0x7FFFFFFF)
  mag = np.uint64(0xB5026F5AA96619E9)
  one = np.uint64(1)
  for i in range(n - m):
    y = (mt[i] & upper) | (mt[i + 1] & lower)
    mt[i] = mt[i + m] ^ (y >> one) ^ (mag * (y & one))
  for i in range(n - m, n - 1):
    y = (mt[i] & upper) | (mt[i + 1] & lower)
    mt[i] = mt[i + m - n] ^ (y >> one) ^ (mag * (y & one))
  y = (mt[n - 1] & upper) | (mt[0] & lower)
  mt[n - 1] = mt[m - 1] ^ (y >> one) ^ (mag * (y & one))


@jit
def _mt_temper(y):
  """The output of state word `y`."""
  y ^= (y >> np.uint64(29)) & np.uint64(0x5555555555555555)
  y ^= (y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
  y ^= (y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
  return y ^ (y >> np.uint64(43))


@entry
def _mt19937_64(seed, count):
  """The first `count` outputs of std::mt19937_64 seeded with `seed` (the reference the tests
  check _mt19937_64_hits against)."""
  mt = _mt_seed(seed)
  out = np.empty(count, np.uint64)
  for k in range(count):
    if k % 312 == 0:
      _mt_twist(mt)
    out[k] = _mt_temper(mt[k % 312])
  return out


@entry
def _mt19937_64_hits(seed, count, probability):
  """Indices k < count where std::uniform_real_distribution<double>(0, 1) on the k-th output of
  std::mt19937_64 seeded with `seed` is below `probability`: libstdc++'s generate_canonical,
  one 64-bit draw scaled by 2^-64, 1 moved just below 1.

  Jitted and fused (draw, scale, compare, keep the few hits): a skybox's 3.84 million draws
  take ~10 ms, with no 30 MB intermediate arrays.
  """
  mt = _mt_seed(seed)
  below_one = np.nextafter(1.0, 0.0)
  hits = np.empty(count, np.int64)
  nhit = 0
  for start in range(0, count, 312):
    _mt_twist(mt)
    for j in range(min(312, count - start)):
      x = np.float64(_mt_temper(mt[j])) * 5.421010862427522e-20  # 2^-64
      if x >= 1.0:
        x = below_one
      if x < probability:
        hits[nhit] = start + j
        nhit += 1
  return hits[:nhit].copy()


@functools.lru_cache(maxsize=4)
def _random_marks(count, probability):
  """Flat indices of the pixels (of `count`) that get a random mark, as MuJoCo draws them:
  a uniform double from std::mt19937_64 seeded with 42 below `probability`."""
  hits = _mt19937_64_hits(42, int(count), float(probability))
  hits.flags.writeable = False
  return hits


# _blend's argument types: two colors, the positions (h, w) and the image (h, w, 3)
_BLEND_TYPES = (
  types.float64[::1],
  types.float64[::1],
  types.float64[:, ::1],
  types.uint8[:, :, ::1],
)


@entry
def _blend(rgb1, rgb2, pos, out):
  """MuJoCo's sigmoid blend of rgb1 and rgb2 at each pos (interp(), user_objects.cc) into out
  (h, w, 3), with the numpy form's operations in the same order (tests/engine/test_assets.py:
  bitwise equal); a value converts to a byte as numpy's cast does on x86 (the low byte of the int32
  truncation; 0 for nan and outside int32's range). Jitted, in branch-free loops that vectorize:
  the three 800 x 800 faces of a gradient skybox took ~50 ms in numpy's temporaries."""
  correction = 1.0 / math.sqrt(2.0)
  flat = pos.reshape(-1)
  pixels = out.reshape(-1, 3)
  n = flat.size
  alpha = np.empty(n)
  for i in range(n):
    p = flat[i]
    a = 0.5 * (1.0 + p / math.sqrt(1.0 + p * p) / correction)
    a = 0.0 if a < 0.0 else a
    alpha[i] = 1.0 if a > 1.0 else a
  for k in range(3):
    c1 = rgb1[k]
    c2 = rgb2[k]
    for i in range(n):
      a = alpha[i]
      v = 255.0 * (a * c1 + (1.0 - a) * c2)
      inside = v > -2147483649.0 and v < 2147483648.0
      pixels[i, k] = np.int32(v if inside else 0.0) & 0xFF


def _interp(rgb1, rgb2, pos, out=None):
  """Port of interp(), user_objects.cc: sigmoid blend of two colors at pos in (-1, 1), as
  (h, w, 3) uint8 (written into `out`, C-contiguous, if given)."""
  pos = np.ascontiguousarray(pos, dtype=np.float64)
  if out is None:
    out = np.empty(pos.shape + (3,), dtype=np.uint8)
  if not (
    pos.ndim == 2
    and out.dtype == np.uint8
    and out.shape == pos.shape + (3,)
    and out.flags.c_contiguous
  ):  # (the types compiled_entry's caller guarantees)
    raise ValueError(f"_interp: {pos.shape} positions, {out.shape} {out.dtype} image")
  blend = compiled_entry(_blend, *_BLEND_TYPES)
  blend(np.array([float(c) for c in rgb1[:3]]), np.array([float(c) for c in rgb2[:3]]), pos, out)
  return out


def _checker(img, c1, c2):
  """Port of checker(): c1 in the top-left and bottom-right quadrants, c2 elsewhere."""
  h, w = img.shape[:2]
  img[: h // 2, : w // 2] = c1
  img[h // 2 :, w // 2 :] = c1
  img[: h // 2, w // 2 :] = c2
  img[h // 2 :, : w // 2] = c2


def _marks(img, mark, markc):
  """Edge or cross marks on one (h, w, 3) face."""
  h, w = img.shape[:2]
  if mark == "edge":
    img[:, 0] = markc
    img[:, w - 1] = markc
    img[0, :] = markc
    img[h - 1, :] = markc
  elif mark == "cross":
    img[:, w // 2] = markc
    img[h // 2, :] = markc


@_memoized_images
def builtin_texture(
  type,
  builtin,
  rgb1=(0.8, 0.8, 0.8),
  rgb2=(0.5, 0.5, 0.5),
  mark="none",
  markrgb=(0.0, 0.0, 0.0),
  random=0.01,
  width=0,
  height=0,
  nchannel=3,
):
  """Port of mjCTexture::Builtin2D / BuiltinCube: procedural texture data.

  Args:
    type: "2d", "cube" or "skybox" (or the mjtTexture value 0, 1, 2).
    builtin: "gradient", "checker" or "flat".
    rgb1, rgb2: the two colors.
    mark: "none", "edge", "cross" or "random".
    markrgb: mark color.
    random: probability of a random dot per pixel (mark="random").
    width, height: size (height is ignored for cube/skybox: six width x width faces).
    nchannel: must be 3 (MuJoCo: "builtin textures must have 3 channels").

  Returns:
    (width, height, data (height*width*3,) uint8) byte-identical to MuJoCo's tex_data.
  """
  if isinstance(type, str):
    ttype = TEXTURE_TYPES[type]
  else:
    ttype = int(type)
  if nchannel != 3:
    raise ValueError("builtin textures must have 3 channels")
  if width < 1:
    raise ValueError("Invalid width of builtin texture")
  c1, c2, cm = _rgb_bytes(rgb1), _rgb_bytes(rgb2), _rgb_bytes(markrgb)

  if ttype == mjTEXTURE_2D:
    if height < 1:
      raise ValueError("Invalid height of builtin texture")
    img = np.zeros((height, width, 3), dtype=np.uint8)
    if builtin == "gradient":
      with np.errstate(divide="ignore", invalid="ignore"):
        c = np.arange(width, dtype=np.float64)
        r = np.arange(height, dtype=np.float64)
        x = 2 * c / float(width - 1) - 1
        y = 1 - 2 * r / float(height - 1)
        pos = 2 * np.sqrt(x[None, :] * x[None, :] + y[:, None] * y[:, None]) - 1
        _interp(rgb2, rgb1, pos, img)
    elif builtin == "checker":
      _checker(img, c1, c2)
    elif builtin == "flat":
      img[:] = c1
    _marks(img, mark, cm)
    if mark == "random" and random > 0:
      img.reshape(-1, 3)[_random_marks(width * height, random)] = cm
    return width, height, img.reshape(-1)

  # cube and skybox: six w x w faces (right, left, up, down, front, back)
  w = width
  faces = np.zeros((6, w, w, 3), dtype=np.uint8)
  if builtin == "gradient":
    with np.errstate(divide="ignore", invalid="ignore"):
      c = np.arange(w, dtype=np.float64)
      x = (2 * c / float(w - 1) - 1)[None, :]
      y = (1 - 2 * c / float(w - 1))[:, None]
      rad = np.sqrt(1 + x * x + y * y)
      elside = np.arcsin(y / rad) / (0.5 * math.pi)
      elup = 1 - np.arccos(1.0 / rad) / (0.5 * math.pi)
      _interp(rgb1, rgb2, elside, faces[0])
      for i in (1, 4, 5):
        faces[i] = faces[0]
      _interp(rgb1, rgb2, elup, faces[2])
      _interp(rgb1, rgb2, -elup, faces[3])
  elif builtin == "checker":
    for i in range(4):
      _checker(faces[i], c1, c2)
    for i in (4, 5):
      _checker(faces[i], c2, c1)
  elif builtin == "flat":
    faces[[0, 1, 2, 4, 5]] = c1
    faces[3] = c2
  for i in range(6):
    _marks(faces[i], mark, cm)
  img = faces.reshape(6 * w, w, 3)
  if mark == "random" and random > 0:
    img.reshape(-1, 3)[_random_marks(6 * w * w, random)] = cm
  return w, 6 * w, img.reshape(-1)
