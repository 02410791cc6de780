"""Named indexing: `physics.named.model.<field>[...]` and `physics.named.data.<field>[...]`.

Every array field of engine/fields.py gets a `FieldIndexer`, an array-like view
whose rows (and, for some fields, columns) can be indexed by name, the way
dm_control's `physics.named` works:

  physics.named.data.xpos['torso']            # (3,) position of body 'torso'
  physics.named.data.xpos['torso', 'z']       # its height
  physics.named.data.qpos['root']             # (7,) slice of a free joint
  physics.named.data.qpos['hinge']            # (1,) slice of a hinge: joints are ragged
  physics.named.model.geom_rgba[['a', 'b'], 'a'] = 0.5

Each dimension of a field has a size name in the field table ('nbody', 'nq',
'nsensordata', 3, ...). The size name decides how that axis is named:

- object axes ('nbody', 'ngeom', 'njnt', 'nkey', ...): one row per object; a
  name selects one row (the axis is dropped, as with an int).
- ragged axes ('nq', 'nv' by joint, 'nsensordata' by sensor, 'na'/'nu'/'nout'
  by actuator, ...): one object owns a block of consecutive entries; a name
  selects the block as a slice, so a free joint gives its 7 qpos / 6 qvel. On
  actuator axes a block of width 1 gives a single entry instead of a slice.
- column axes of fields with a fixed meaning: 'x y z', 'qw qx qy qz', the nine
  'xx xy ... zz' entries of a rotation matrix, 'r g b a'.
- anything else is unnamed and takes ordinary numpy indices.

Keys may mix names, lists of names, ints, slices, boolean masks and Ellipsis;
after names are converted the key is plain numpy indexing, for reading and
writing. Unknown names raise KeyError; `None` and empty names raise IndexError.
"""

import collections

import numpy as np

from engine import fields as F
from engine import support
from engine import types as T
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjtObj

# size name of an object axis -> the object type whose names label it
_OBJECT_AXES = {
  "nbody": mjtObj.mjOBJ_BODY,
  "njnt": mjtObj.mjOBJ_JOINT,
  "ngeom": mjtObj.mjOBJ_GEOM,
  "nsite": mjtObj.mjOBJ_SITE,
  "ncam": mjtObj.mjOBJ_CAMERA,
  "nlight": mjtObj.mjOBJ_LIGHT,
  "nmesh": mjtObj.mjOBJ_MESH,
  "nhfield": mjtObj.mjOBJ_HFIELD,
  "ntex": mjtObj.mjOBJ_TEXTURE,
  "nmat": mjtObj.mjOBJ_MATERIAL,
  "npair": mjtObj.mjOBJ_PAIR,
  "nexclude": mjtObj.mjOBJ_EXCLUDE,
  "neq": mjtObj.mjOBJ_EQUALITY,
  "ntendon": mjtObj.mjOBJ_TENDON,
  "nactuator": mjtObj.mjOBJ_ACTUATOR,
  "nsensor": mjtObj.mjOBJ_SENSOR,
  "nnumeric": mjtObj.mjOBJ_NUMERIC,
  "ntext": mjtObj.mjOBJ_TEXT,
  "ntuple": mjtObj.mjOBJ_TUPLE,
  "nkey": mjtObj.mjOBJ_KEY,
  "nskin": mjtObj.mjOBJ_SKIN,
  "nplugin": mjtObj.mjOBJ_PLUGIN,
}


def _qpos_widths(m):
  t = m.jnt_type
  return np.where(t == mjJNT_FREE, 7, np.where(t == mjJNT_BALL, 4, 1))


def _dof_widths(m):
  t = m.jnt_type
  return np.where(t == mjJNT_FREE, 6, np.where(t == mjJNT_BALL, 3, 1))


# size name of a ragged axis -> (owner object type, block start address, block width, whether
# a block of width 1 selects a single entry rather than a slice)
_RAGGED_AXES = {
  "nq": (mjtObj.mjOBJ_JOINT, lambda m: m.jnt_qposadr, _qpos_widths, False),
  "nv": (mjtObj.mjOBJ_JOINT, lambda m: m.jnt_dofadr, _dof_widths, False),
  "na": (mjtObj.mjOBJ_ACTUATOR, lambda m: m.actuator_actadr, lambda m: m.actuator_actnum, True),
  "nu": (mjtObj.mjOBJ_ACTUATOR, lambda m: m.actuator_ctrladr, lambda m: m.actuator_ctrlnum, True),
  "nout": (mjtObj.mjOBJ_ACTUATOR, lambda m: m.actuator_outadr, lambda m: m.actuator_outnum, True),
  "nsensordata": (mjtObj.mjOBJ_SENSOR, lambda m: m.sensor_adr, lambda m: m.sensor_dim, False),
  "nnumericdata": (mjtObj.mjOBJ_NUMERIC, lambda m: m.numeric_adr, lambda m: m.numeric_size, False),
  "ntupledata": (mjtObj.mjOBJ_TUPLE, lambda m: m.tuple_adr, lambda m: m.tuple_size, False),
  "nmeshvert": (mjtObj.mjOBJ_MESH, lambda m: m.mesh_vertadr, lambda m: m.mesh_vertnum, False),
  "nmeshface": (mjtObj.mjOBJ_MESH, lambda m: m.mesh_faceadr, lambda m: m.mesh_facenum, False),
  "nhfielddata": (
    mjtObj.mjOBJ_HFIELD,
    lambda m: m.hfield_adr,
    lambda m: m.hfield_nrow * m.hfield_ncol,
    False,
  ),
}

# ragged axes indexed by name here but printed without names, as dm_control prints them (it has
# no names for them)
_UNPRINTED_AXES = frozenset(("ntupledata", "nmeshvert", "nmeshface", "nhfielddata"))

# column names of fields whose second dimension has a fixed meaning
COLUMN_NAMES = {
  "xyz": ("x", "y", "z"),
  "quat": ("qw", "qx", "qy", "qz"),
  "mat": ("xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz"),
  "rgba": ("r", "g", "b", "a"),
}

# fields whose columns are named, by kind (dm_control's; fields missing from the table are ignored;
# wrap_xpos's six columns are two points: only the first three are named, as in dm_control)
COLUMN_FIELDS = {
  "xyz": frozenset(
    """
    body_pos body_ipos body_inertia jnt_pos jnt_axis geom_size geom_pos site_size site_pos
    cam_pos cam_poscom0 cam_pos0 light_pos light_dir light_poscom0 light_pos0 light_dir0
    mesh_vert mesh_normal mocap_pos xpos xipos xanchor xaxis geom_xpos site_xpos cam_xpos
    light_xpos light_xdir subtree_com wrap_xpos subtree_linvel subtree_angmom
  """.split()
  ),
  "quat": frozenset(
    """
    body_quat body_iquat geom_quat site_quat cam_quat mocap_quat xquat
  """.split()
  ),
  "mat": frozenset("cam_mat0 xmat ximat geom_xmat site_xmat cam_xmat".split()),
  "rgba": frozenset("geom_rgba site_rgba skin_rgba mat_rgba tendon_rgba".split()),
}


def _column_kind(field_name):
  for kind, names in COLUMN_FIELDS.items():
    if field_name in names:
      return kind
  return None


# ---- axes ----


def _check_item(item):
  """Rejects the index items named indexing does not support."""
  if item is None:
    raise IndexError("None (np.newaxis) is not supported in named indexing")
  if isinstance(item, (str, bytes)) and not item:
    raise IndexError("empty names are not allowed in named indexing")


def _as_name(item):
  """The item as a str if it is a name (str, bytes or numpy string), else None."""
  if isinstance(item, str):
    return item
  if isinstance(item, bytes):
    return item.decode()
  return None


def _names_in(item):
  """The items of a list or array key, flattened, if any of them is a name; else None."""
  if isinstance(item, np.ndarray):
    if item.ndim == 0 or item.dtype.kind not in "USO":
      return None
  elif not isinstance(item, (list, tuple)) or not item:
    return None
  flat = list(np.asarray(item, dtype=object).flat)
  return flat if any(_as_name(k) is not None for k in flat) else None


class UnnamedAxis:
  """An axis whose entries have no names: indices pass through unchanged."""

  names = ()

  def convert(self, item):
    """Returns the numpy index for `item` (validated, unchanged)."""
    _check_item(item)
    if _as_name(item) is not None or _names_in(item) is not None:
      raise KeyError(f"this axis has no names, got {item!r}")
    return item

  def labels(self, size):
    """One label per entry, for printing."""
    return [""] * size

  def __repr__(self):
    return "UnnamedAxis()"


class ObjectAxis:
  """One entry per named element: a name selects one entry, like an int.

  Attributes:
    names: element names in index order ('' for unnamed elements).
    kind: what the elements are, used in error messages ('body', 'geom', ...).
  """

  def __init__(self, names, kind="element"):
    self.names = list(names)
    self.kind = kind
    self._ids = {n: i for i, n in enumerate(self.names) if n}

  def _id(self, name):
    try:
      return self._ids[name]
    except KeyError:
      raise KeyError(
        f"{name!r} is not a {self.kind} name; valid names: {sorted(self._ids)}"
      ) from None

  def convert(self, item):
    """Returns the numpy index for `item`: names become ints, lists of names int arrays."""
    _check_item(item)
    name = _as_name(item)
    if name is not None:
      return self._id(name)
    flat = _names_in(item)
    if flat is not None:
      return np.array([self._convert_scalar(k) for k in flat], dtype=np.intp).reshape(
        np.shape(item)
      )
    return item

  def _convert_scalar(self, k):
    _check_item(k)
    name = _as_name(k)
    return self._id(name) if name is not None else int(k)

  def labels(self, size):
    return (self.names + [""] * size)[:size]

  def __repr__(self):
    return f"ObjectAxis({self.kind}: {self.names})"


class RaggedAxis:
  """Each named element owns a block of consecutive entries (a joint's qpos, a sensor's data).

  A name selects its block as a slice (a hinge gives a 1-long slice, a free joint 7);
  with `singleton`, a block of width 1 selects that one entry instead. A list of
  names selects the concatenation of their blocks.

  Attributes:
    names: element names in element order ('' for unnamed elements).
    kind: what the elements are ('joint', 'sensor', ...).
  """

  def __init__(self, names, starts, widths, singleton=False, kind="element", printed=True):
    self.names = list(names)
    self.kind = kind
    self.printed = printed
    self._blocks = {}
    self._starts = [int(s) for s in starts]
    self._widths = [int(w) for w in widths]
    for name, start, width in zip(self.names, self._starts, self._widths):
      if not name:
        continue
      if width <= 0:
        self._blocks[name] = slice(0, 0)
      elif width == 1 and singleton:
        self._blocks[name] = start
      else:
        self._blocks[name] = slice(start, start + width)

  def _block(self, name):
    try:
      return self._blocks[name]
    except KeyError:
      raise KeyError(
        f"{name!r} is not a {self.kind} name; valid names: {sorted(self._blocks)}"
      ) from None

  def convert(self, item):
    """Returns the numpy index for `item`: a name becomes its block, a list the flat indices."""
    _check_item(item)
    name = _as_name(item)
    if name is not None:
      return self._block(name)
    items = _names_in(item)
    if items is None:
      return item
    flat = []
    for k in items:
      _check_item(k)
      kname = _as_name(k)
      if kname is None:
        flat.append(int(k))
        continue
      block = self._block(kname)
      if isinstance(block, slice):
        flat.extend(range(block.start, block.stop))
      else:
        flat.append(block)
    return np.array(flat, dtype=np.intp)

  def labels(self, size):
    out = [""] * size
    for name, start, width in zip(self.names, self._starts, self._widths):
      for i in range(max(start, 0), min(start + width, size)):
        out[i] = name
    return out

  def __repr__(self):
    return f"RaggedAxis({self.kind}: {self.names})"


def make_axis_indexers(model) -> "AxisTable":
  """Axis of every size name of `model` (an MjModel or a wrapper with `.ptr`), built lazily.

  Size names without element names map to an UnnamedAxis.
  """
  return AxisTable(getattr(model, "ptr", model))


class AxisTable(dict):
  """{size name: axis} for one model; each axis is built the first time it is looked up."""

  def __init__(self, m):
    super().__init__()
    self._m = m

  def __missing__(self, size_name):
    axis = _build_axis(self._m, size_name)
    self[size_name] = axis
    return axis


def _build_axis(m, size_name):
  """The axis of one size name: object, ragged, mocap, column or unnamed."""
  if size_name in COLUMN_NAMES:
    return ObjectAxis(COLUMN_NAMES[size_name], "column")
  if size_name in _OBJECT_AXES:
    objtype = _OBJECT_AXES[size_name]
    if getattr(m, size_name):
      return ObjectAxis(support._names(m, objtype), _kind(objtype))
  elif size_name in _RAGGED_AXES:
    objtype, starts, widths, singleton = _RAGGED_AXES[size_name]
    count = len(starts(m))
    if count:
      names = support._names(m, objtype)[:count]
      printed = size_name not in _UNPRINTED_AXES
      return RaggedAxis(names, starts(m), widths(m), singleton, _kind(objtype), printed)
  elif size_name in ("nmocap", "nmocap*3", "nmocap*4") and m.nmocap:
    # mocap bodies in mocap order; keyframe columns of 3 or 4 numbers per mocap body
    bodies = support._names(m, mjtObj.mjOBJ_BODY)
    mocap = [""] * m.nmocap
    for b, k in enumerate(m.body_mocapid):
      if k >= 0:
        mocap[k] = bodies[b]
    if size_name == "nmocap":
      return ObjectAxis(mocap, "mocap body")
    n = int(size_name[-1])
    starts = range(0, n * m.nmocap, n)
    return RaggedAxis(mocap, starts, [n] * m.nmocap, False, "mocap body", printed=False)
  return UnnamedAxis()


def _kind(objtype):
  return mjtObj(objtype).name[len("mjOBJ_") :].lower()


# ---- field indexer ----

Axes = collections.namedtuple("Axes", ["row", "col"], defaults=(None,))


class FieldIndexer:
  """An array-like view of one field, indexable by element names.

  Reading returns what numpy returns for the converted key (a view for slices,
  a copy for lists); writing writes into the engine's memory. Array attributes
  (shape, dtype, copy(), ...) are forwarded to the underlying array.
  """

  __slots__ = ("_field_name", "_field", "_axes", "_keys")

  def __init__(self, field, field_name, axes):
    self._field_name = field_name
    self._field = field
    self._axes = Axes(*axes)
    self._keys = {}  # converted keys of names, ints and tuples/lists of them

  @property
  def axes(self):
    """Axes(row, col): the axis objects of the field's dimensions."""
    return self._axes

  def _convert_key(self, key):
    """The numpy index equivalent to a (possibly named) key."""
    if not isinstance(key, tuple):
      if key is Ellipsis:
        return key
      return self._axes.row.convert(key)
    ndim = self._field.ndim
    nell = sum(1 for k in key if k is Ellipsis)
    if nell > 1:
      raise IndexError("an index can only have a single ellipsis ('...')")
    if nell:
      at = next(i for i, k in enumerate(key) if k is Ellipsis)
      fill = ndim - (len(key) - 1)
      key = key[:at] + (slice(None),) * max(fill, 0) + key[at + 1 :]
    if len(key) > ndim:
      raise IndexError(
        f"too many indices for {self._field_name}: {len(key)} given, the field has {ndim} "
        f"dimension{'s' if ndim > 1 else ''}"
      )
    return tuple(axis.convert(k) for axis, k in zip(self._axes, key))

  def _index(self, key):
    """The converted key, remembered for keys made of names and ints: tasks read the same
    named entries every step, and converting names is most of a lookup's cost."""
    cache_key = _hashable(key)
    if cache_key is None:
      return self._convert_key(key)
    index = self._keys.get(cache_key)
    if index is None:
      index = self._keys[cache_key] = self._convert_key(key)
    return index

  def __getitem__(self, key):
    return self._field[self._index(key)]

  def __setitem__(self, key, value):
    self._field[self._index(key)] = value

  def __getattr__(self, name):
    return getattr(self._field, name)

  def __dir__(self):
    return sorted(set(dir(type(self))) | set(dir(self._field)))

  def __array__(self, dtype=None, copy=None):
    if dtype is None:
      return self._field
    return self._field.astype(dtype)

  def __len__(self):
    return len(self._field)

  def __iter__(self):
    return iter(self._field)

  def __repr__(self):
    return format_table(self._field, self._field_name, self._axes, type(self).__name__)


def _hashable(key):
  """A dict key standing for `key` when it is made only of names and ints (str, int, and
  tuples or lists of them), else None (slices, arrays, masks: converted every time)."""
  if isinstance(key, (str, int)) and not isinstance(key, bool):
    return key
  if isinstance(key, (tuple, list)):
    parts = tuple(_hashable(k) for k in key)
    if any(p is None for p in parts):
      return None
    return (type(key).__name__,) + parts
  return None


def _printed_labels(axis, size):
  """(one label per entry, the labels' width) as dm_control prints an axis: its element names
  (a ragged element's name on each of its entries), blank for unnamed axes."""
  names = [] if isinstance(axis, RaggedAxis) and not axis.printed else axis.names
  if not names:
    return [""] * size, 0
  if isinstance(axis, RaggedAxis):
    labels = axis.labels(size)
  else:
    labels = (list(names) + [""] * size)[:size]
  return labels, max(len(name) for name in names)


def format_table(field, name, axes, title="FieldIndexer"):
  """dm_control's printout of a named field: a title line, the column names (each in at least
  10 characters) when the columns are named, then each row's index, its name right-aligned and
  its values as numpy prints them with dm_control's options (3 significant digits)."""
  row_labels, row_width = _printed_labels(axes[0], field.shape[0])
  col_axis = axes[1] if len(axes) > 1 and axes[1] is not None else None
  if field.ndim > 1 and col_axis is not None:
    col_labels, col_width = _printed_labels(col_axis, field.shape[1])
  else:
    col_labels, col_width = [""], 0
  idx_width = int(np.log10(max(field.shape[0], 1))) + 1
  lines = [f"{title}({name}):"]
  if col_width:
    width = max(col_width, 9) + 1
    padding = " " * (idx_width + row_width + 4)
    lines.append(padding + "".join(f"{label:<{width}}" for label in col_labels))
  if not field.shape[0]:
    lines.append("(empty)")
  for i, row in enumerate(field):
    values = np.array2string(
      np.atleast_1d(row), suppress_small=True, formatter={"float_kind": "{: < 9.3g}".format}
    )
    lines.append(f"{i:{idx_width}} {row_labels[i]:>{row_width}} {values}")
  return "\n".join(lines)


# ---- struct indexers ----


def model_fields():
  """Table rows that named.model exposes: every MjModel array except byte strings."""
  return [f for f in F.MODEL_FIELDS if f.dtype != "S"]


def data_fields():
  """Table rows that named.data exposes: every public MjData array (not scalars)."""
  return [
    f
    for f in F.DATA_FIELDS
    if f.dims and not f.name.startswith(F.DATA_NON_ATTRIBUTE_PREFIXES) and f.dtype != "S"
  ]


_MODEL_ROWS = {f.name: f for f in model_fields()}
_DATA_ROWS = {f.name: f for f in data_fields()}


def field_axes(f, axis_indexers) -> list:
  """The axis objects of table row `f`, one per dimension."""
  axes = []
  for dim in f.dims:
    axes.append(axis_indexers[dim] if isinstance(dim, str) else UnnamedAxis())
  kind = _column_kind(f.name)
  if kind is not None and len(axes) == 2:
    axes[1] = axis_indexers[kind]
  return axes


class StructIndexer:
  """Named views of every field of one struct, as attributes: `named.data.qpos`.

  Field indexers are built on first access. The object is read-only: assign
  through indexing (`named.data.qpos['hinge'] = 0.3`), never to the attribute.
  """

  __slots__ = ("_arrays", "_rows", "_axis_indexers", "_cache", "_struct_name")

  def __init__(self, arrays, rows: dict, axis_indexers, struct_name):
    object.__setattr__(self, "_arrays", arrays)
    object.__setattr__(self, "_rows", rows)
    object.__setattr__(self, "_axis_indexers", axis_indexers)
    object.__setattr__(self, "_cache", {})
    object.__setattr__(self, "_struct_name", struct_name)

  def __getattr__(self, name):
    cache = object.__getattribute__(self, "_cache")
    indexer = cache.get(name)
    if indexer is None:
      rows = object.__getattribute__(self, "_rows")
      if name not in rows:
        raise AttributeError(
          f"named.{self._struct_name} has no field {name!r} (named fields are the array "
          f"fields of Mj{self._struct_name.capitalize()})"
        )
      axes = field_axes(rows[name], self._axis_indexers)
      count = T.CUT_BY.get(rows[name].dims[0])
      if count is not None:
        # contact and constraint rows: a view of the rows in use now, never cached
        return FieldIndexer(self._arrays[name][: self._arrays[count][0]], name, axes)
      indexer = FieldIndexer(self._arrays[name], name, axes)
      cache[name] = indexer
    return indexer

  def __setattr__(self, name, value):
    raise AttributeError(
      f"named.{self._struct_name}.{name} cannot be replaced; assign through indexing, e.g. "
      f"named.{self._struct_name}.{name}[...] = value"
    )

  def __dir__(self):
    return sorted(set(dir(type(self))) | set(self._rows))

  def _asdict(self) -> dict:
    """{field name: FieldIndexer} for every field."""
    return {name: getattr(self, name) for name in self._rows}

  def __repr__(self):
    return f"<named.{self._struct_name}: {len(self._rows)} fields>"


def struct_indexer(struct, struct_name: str, axis_indexers) -> StructIndexer:
  """Named views of an MjModel ('mjmodel') or MjData ('mjdata'), or of their wrappers."""
  struct = getattr(struct, "ptr", struct)
  key = struct_name.lower()
  if key == "mjmodel":
    return StructIndexer(struct._arrays, _MODEL_ROWS, axis_indexers, "model")
  if key == "mjdata":
    return StructIndexer(struct._arrays, _DATA_ROWS, axis_indexers, "data")
  raise ValueError(f"unknown struct name {struct_name!r}: expected 'mjmodel' or 'mjdata'")


NamedIndexStructs = collections.namedtuple("NamedIndexStructs", ["model", "data"])


def named_structs(model, data) -> NamedIndexStructs:
  """NamedIndexStructs(model=..., data=...) for a model and its data (physics.named)."""
  axes = make_axis_indexers(model)
  return NamedIndexStructs(
    struct_indexer(model, "mjmodel", axes), struct_indexer(data, "mjdata", axes)
  )
