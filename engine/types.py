"""MjModel, MjData, MjOption and MjStatistic: Python wrappers over numba struct handles.

MjVisual (`m.vis`) and the skins (`m.nskin`, `m.skin_*`) are host-only: the renderer and viewer
read them, the jitted pipeline never does, so they are plain Python data outside the model handle.

Every field is a numpy array owned by the Python object; the numba handle
(`_struct`) points at the same memory, so `d.qpos[:] = x` in Python is seen by
the jitted pipeline and vice versa. Scalars that can change (`d.time`,
`m.opt.timestep`) are 1-element arrays exposed as Python numbers. Model sizes
(`m.nq`, ...) are plain ints. Everything is generated from `engine/fields.py`.
MuJoCo's named accessors (`m.body('torso').mass`, `d.joint(0).qpos`) come from the view tables
near the end of this file.

Under NUMBA_DISABLE_JIT=1 the handle is a plain namespace with the same
attributes (numba's structref cannot be built without the JIT), so the whole
engine runs as ordinary Python for debugging and coverage.
"""

import copy as _copy
import math
import operator
import types as _pytypes

import numpy as np

from engine import _jit
from engine import _stage
from engine import _structs
from engine import enums
from engine import fields as F
from engine import io
from engine import loader
from engine import setconst
from engine import support
from engine.compiler import build_skin as _skin
from engine.compiler import specs as _specs


def _make_handle(ctor, members, values: dict):
  """Builds the numba handle (or its plain-Python twin) from named members."""
  if _jit.DISABLE_JIT:
    return _pytypes.SimpleNamespace(**{n: values[n] for n in members})
  return ctor(*[values[n] for n in members])


def _write_in_place(fget):
  """Setter of an array property: `obj.field = value` writes into the array, as the bindings do
  (numpy broadcasting: a number fills it), so views taken before stay views of the field."""

  def fset(self, value):
    fget(self)[...] = value

  return fset


# capacity dimensions of MjData and the counter that says how much of them is in use
CUT_BY = {
  "nconcap": "ncon",
  "nefccap": "nefc",
  "nJcap": "nJ",
  "nislandcap": "nisland",
  "nidofcap": "nidof",
  "nYcap": "nY",
  "nAcap": "nA",
}


def _add_properties(cls, rows):
  """Adds one property per table row: arrays as views (assigning writes into them), scalars as
  numbers."""
  for f in rows:
    name = f.name

    if f.is_scalar:
      cast = float if f.dtype.startswith("f") else int

      def fget(self, name=name, cast=cast):
        return cast(self._arrays[name][0])

      def fset(self, value, name=name):
        self._arrays[name][0] = value

    elif f.dims[0] in CUT_BY:
      count = CUT_BY[f.dims[0]]

      def fget(self, name=name, count=count):
        return self._arrays[name][: self._arrays[count][0]]

      fset = _write_in_place(fget)

    else:

      def fget(self, name=name):
        return self._arrays[name]

      fset = _write_in_place(fget)

    setattr(cls, name, property(fget, fset, doc=f.doc))


def _alloc(rows, sizes: dict) -> dict:
  return {f.name: np.zeros(f.shape(sizes), dtype=f.dtype) for f in rows}


_LINE = 64  # bytes of a cache line


def _alloc_arena(rows, sizes: dict) -> dict:
  """Zeroed arrays carved out of one buffer, as MuJoCo's arena: the smallest first, each on
  its own cache line, so that what a step touches (state, kinematics, the first contact and
  constraint rows) is dense in memory and the large, mostly idle capacity arrays come last.
  Thousands of worlds stepped in turn then miss the caches far less."""
  shapes = [(f.name, f.shape(sizes), np.dtype(f.dtype)) for f in rows]
  nbytes = [math.prod(shape) * dtype.itemsize for _, shape, dtype in shapes]
  order = sorted(range(len(shapes)), key=nbytes.__getitem__)
  offsets, total = {}, 0
  for i in order:
    offsets[i] = total
    total += -(-nbytes[i] // _LINE) * _LINE
  try:
    buffer = np.zeros(total + _LINE, np.uint8)
  except MemoryError:
    largest = sorted(range(len(shapes)), key=nbytes.__getitem__)[-3:][::-1]
    names = ", ".join(f"{shapes[i][0]} {nbytes[i] / 2**30:.1f} GiB" for i in largest)
    raise MemoryError(
      f"cannot allocate {total / 2**30:.1f} GiB for this model's data (largest: {names}); "
      "constraint capacity grows with the number of geoms (contacts) times nv: bound it with "
      "<size nconmax=... njmax=.../>"
    ) from None
  start = -buffer.ctypes.data % _LINE  # the first array on a line boundary
  arrays = {}
  for i, (name, shape, dtype) in enumerate(shapes):
    at = start + offsets[i]
    arrays[name] = buffer[at : at + nbytes[i]].view(dtype).reshape(shape)
  return arrays


class _StructView:
  """Base of MjOption and MjStatistic: a small struct of named arrays."""

  _ROWS = ()
  _CTOR = None
  _MEMBERS = ()

  def __init__(self, arrays: dict | None = None):
    self._arrays = arrays if arrays is not None else _alloc(self._ROWS, {})
    self._struct = _make_handle(self._CTOR, self._MEMBERS, self._arrays)

  def __getstate__(self):
    return {k: v.copy() for k, v in self._arrays.items()}

  def __setstate__(self, state):
    self.__init__(state)

  def _assign(self, other):
    """Copies `other`'s values into this struct's arrays (`m.opt = opt` does this: the model
    keeps its arrays, so its handle and the views taken before see the new values)."""
    if type(other) is not type(self):
      raise TypeError(f"expected an {type(self).__name__}, got {type(other).__name__}")
    for name, value in self._arrays.items():
      value[...] = other._arrays[name]

  def __eq__(self, other):
    if type(other) is not type(self):
      return NotImplemented
    return all(np.array_equal(v, other._arrays[k]) for k, v in self._arrays.items())

  __hash__ = None  # mutable, as MuJoCo's structs

  def __repr__(self):
    return _struct_repr(self, [f.name for f in self._ROWS])


class MjOption(_StructView):
  """Physics options (`m.opt`): timestep, gravity, integrator, solver settings, flags.

  A new MjOption holds MuJoCo's defaults (mj_defaultOption: the <option> defaults of the
  schema, no flags set).
  """

  _ROWS = F.OPTION_FIELDS
  _CTOR = staticmethod(_stage.make_option)
  _MEMBERS = _structs.OPTION_MEMBERS

  def __init__(self, arrays: dict | None = None):
    if arrays is None:
      arrays = _alloc(self._ROWS, {})
      for name, value in _specs.template("option").items():
        if name in arrays:
          arrays[name][...] = value
    super().__init__(arrays)


# mj_defaultStatistic: what a model keeps where setStat has nothing to measure (no body, no dof)
STATISTIC_DEFAULTS = {
  "meaninertia": 1.0,
  "meanmass": 1.0,
  "meansize": 0.2,
  "extent": 2.0,
  "center": 0.0,
}


class MjStatistic(_StructView):
  """Model statistics (`m.stat`) computed at qpos0 (mean inertia, extent, ...).

  A new MjStatistic holds MuJoCo's defaults (mj_defaultStatistic), which the compiler then
  overwrites with what it measures and with the <statistic> values given.
  """

  _ROWS = F.STATISTIC_FIELDS
  _CTOR = staticmethod(_stage.make_statistic)
  _MEMBERS = _structs.STATISTIC_MEMBERS

  def __init__(self, arrays: dict | None = None):
    if arrays is None:
      arrays = _alloc(self._ROWS, {})
      for name, value in STATISTIC_DEFAULTS.items():
        arrays[name][...] = value
    super().__init__(arrays)


_add_properties(MjOption, F.OPTION_FIELDS)
_add_properties(MjStatistic, F.STATISTIC_FIELDS)


# m.vis attribute -> <visual> child element (MuJoCo's binding renames `global`, a Python keyword)
VISUAL_GROUPS = (
  ("global_", "global"),
  ("quality", "quality"),
  ("headlight", "headlight"),
  ("map", "map"),
  ("scale", "scale"),
  ("rgba", "rgba"),
)


class MjVisualGroup:
  """One group of m.vis (m.vis.map, m.vis.rgba, ...), with MuJoCo's field types.

  MjVisual stores floats as C float: scalar reals read back as the float32-rounded Python float
  (m.vis.global_.glow == float(np.float32(0.3))), vectors are float32 arrays assigned in place,
  ints and flags are ints. Fields and defaults come from the <visual> children of the schema.
  """

  def __init__(self, tag: str, values: dict | None = None):
    """Schema defaults for <visual><tag>, overridden by `values` (the compiler's output)."""
    object.__setattr__(self, "_tag", tag)
    object.__setattr__(self, "_values", {})
    for name, default in _specs.template("visual/" + tag).items():
      if isinstance(default, tuple):
        self._values[name] = np.array(default, np.float32)
      else:
        self._values[name] = 0.0 if isinstance(default, float) else 0
      setattr(self, name, default if values is None else values.get(name, default))

  def __getattr__(self, name):
    values = self.__dict__.get("_values", {})
    if name in values:
      return values[name]
    raise AttributeError(f"'MjVisual.{self.__dict__.get('_tag')}' has no attribute '{name}'")

  def __setattr__(self, name, value):
    old = self._values.get(name)
    if old is None:
      raise AttributeError(f"'MjVisual.{self._tag}' has no attribute '{name}'")
    if isinstance(old, np.ndarray):
      old[...] = value
    elif isinstance(old, float):
      self._values[name] = float(np.float32(value))
    else:
      self._values[name] = int(value)

  def __dir__(self):
    return sorted(self._values)

  def _assign(self, other):
    """Copies `other`'s values into this group (arrays in place: views stay valid)."""
    if not isinstance(other, MjVisualGroup) or other._tag != self._tag:
      raise TypeError(f"expected an MjVisual.{self._tag}, got {type(other).__name__}")
    for name, value in other._values.items():
      setattr(self, name, value)

  def __eq__(self, other):
    if not isinstance(other, MjVisualGroup):
      return NotImplemented
    return self._tag == other._tag and all(
      np.array_equal(v, other._values[k]) for k, v in self._values.items()
    )

  __hash__ = None  # mutable, as MuJoCo's structs

  def __copy__(self):
    new = MjVisualGroup.__new__(MjVisualGroup)
    object.__setattr__(new, "_tag", self._tag)
    values = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in self._values.items()}
    object.__setattr__(new, "_values", values)
    return new

  def __deepcopy__(self, memo):
    return self.__copy__()

  def _dict(self) -> dict:
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self._values.items()}

  def __repr__(self):
    body = "\n".join(f"  {k}: {v!r}" for k, v in self._values.items())
    return f"<MjVisual.{self._tag}\n{body}\n>"


class MjVisual:
  """Visualization settings (`m.vis`) from <visual>: global_, quality, headlight, map, scale,
  rgba, each an MjVisualGroup with MuJoCo's field names (host-only, not in the model handle)."""

  def __init__(self, vis: dict | None = None):
    """`vis` maps <visual> child tags to attribute values (compiler output); None: defaults."""
    vis = vis or {}
    for attr, tag in VISUAL_GROUPS:
      object.__setattr__(self, attr, MjVisualGroup(tag, vis.get(tag)))

  def __setattr__(self, name, value):
    """`vis.headlight = group` copies the group's values in (views of the old one stay valid)."""
    group = self.__dict__.get(name)
    if not isinstance(group, MjVisualGroup):
      raise AttributeError(f"'MjVisual' has no attribute '{name}'")
    group._assign(value)

  def _assign(self, other):
    """Copies every group of `other` into this one's (`m.vis = vis` does this)."""
    if not isinstance(other, MjVisual):
      raise TypeError(f"expected an MjVisual, got {type(other).__name__}")
    for attr, _ in VISUAL_GROUPS:
      getattr(self, attr)._assign(getattr(other, attr))

  def __eq__(self, other):
    if not isinstance(other, MjVisual):
      return NotImplemented
    return all(getattr(self, a) == getattr(other, a) for a, _ in VISUAL_GROUPS)

  __hash__ = None  # mutable, as MuJoCo's structs

  def __copy__(self):
    new = MjVisual.__new__(MjVisual)
    for attr, _ in VISUAL_GROUPS:
      object.__setattr__(new, attr, _copy.copy(getattr(self, attr)))
    return new

  def __deepcopy__(self, memo):
    return self.__copy__()

  def _dict(self) -> dict:
    return {tag: getattr(self, attr)._dict() for attr, tag in VISUAL_GROUPS}

  def __repr__(self):
    return "<MjVisual " + " ".join(attr for attr, _ in VISUAL_GROUPS) + ">"


class MjModel:
  """A compiled model: sizes, options and every MjModel array of engine/fields.py.

  Build one with `MjModel.from_xml_string(xml, assets=None)` or
  `MjModel.from_xml_path(path, assets=None)`. Arrays can be edited in place
  (`m.geom_size[0, 0] = 0.2`); the next mj_forward sees the change.
  """

  def __init__(
    self, sizes: dict, arrays: dict, opt: MjOption, stat: MjStatistic, extras: dict | None = None
  ):
    """Wraps compiled arrays; use the from_xml_* constructors instead."""
    self._sizes = {n: int(sizes.get(n, 0)) for n in F.MODEL_SIZE_NAMES}
    self._arrays = {}
    for f in F.MODEL_FIELDS:
      shape = f.shape(self._sizes)
      if f.dtype == "S":
        value = arrays.get(f.name, b"")
        self._arrays[f.name] = bytes(value)
        continue
      value = arrays.get(f.name)
      if value is None:
        value = np.zeros(shape, f.dtype)
      value = np.ascontiguousarray(value, dtype=f.dtype)
      if value.shape != shape:
        if value.size != int(np.prod(shape)):
          raise ValueError(f"MjModel.{f.name}: shape {value.shape}, expected {shape}")
        value = value.reshape(shape)
      self._arrays[f.name] = value
    self._opt = opt
    self._stat = stat
    self._extras = dict(extras or {})
    self._vis = MjVisual(self._extras.get("vis"))
    self._skin = _skin_arrays(self._extras.get("skin") or {})
    self._extras["skin"] = self._skin
    if self._sizes["nplugin"]:
      from engine import plugin  # only models with plugins need it

      plugin.bind(self)
    self._build_struct()

  def _build_struct(self):
    _stage.prepare(self)  # the stages this model reaches, loaded (or compiled) before any runs
    values = dict(self._arrays)
    values.update(self._sizes)
    values["opt"] = self.opt._struct
    values["stat"] = self.stat._struct
    self._struct = _make_handle(_stage.make_model, _structs.MODEL_MEMBERS, values)
    self._ptr = _stage.address_of(self._struct)

  def thread_handle(self, k: int) -> int:
    """Address of alias k of this model's handle: another struct over the same arrays (k=0:
    the model's own). Threads stepping one model use one alias each: every jitted call taking a
    handle updates the handle's reference count, and two threads doing that on one handle take
    turns on its cache line (two threads ran slower than one)."""
    if k == 0:
      return self._ptr
    owner, aliases = self.__dict__.get("_aliases", (None, []))
    if owner is not self._struct:  # the handle was rebuilt: so are its aliases
      aliases = []
      self.__dict__["_aliases"] = (self._struct, aliases)
    while len(aliases) < k:
      values = dict(self._arrays)
      values.update(self._sizes)
      for name in ("opt", "stat"):
        view = getattr(self, name)
        values[name] = _make_handle(view._CTOR, view._MEMBERS, view._arrays)
      aliases.append(_make_handle(_stage.make_model, _structs.MODEL_MEMBERS, values))
    return _stage.address_of(aliases[k - 1])

  # ---- options, statistics, visual settings: assigning one copies its values in ----
  @property
  def opt(self) -> MjOption:
    return self._opt

  @opt.setter
  def opt(self, value: MjOption):
    self._opt._assign(value)

  @property
  def stat(self) -> MjStatistic:
    return self._stat

  @stat.setter
  def stat(self, value: MjStatistic):
    self._stat._assign(value)

  @property
  def vis(self) -> MjVisual:
    return self._vis

  @vis.setter
  def vis(self, value: MjVisual):
    self._vis._assign(value)

  # ---- construction ----
  @classmethod
  def from_xml_string(cls, xml: str, assets: dict | None = None) -> "MjModel":
    """Compiles MJCF text; `assets` maps file names to bytes, searched before disk."""
    return model_from_xml(xml=xml, assets=assets)

  @classmethod
  def from_xml_path(cls, path: str, assets: dict | None = None) -> "MjModel":
    """Compiles an MJCF file; includes and assets resolve relative to its folder."""
    return model_from_xml(path=str(path), assets=assets)

  # ---- names ----
  def __getattr__(self, name):
    sizes = self.__dict__.get("_sizes")
    if sizes is not None and name in sizes:
      return sizes[name]
    raise AttributeError(f"'MjModel' has no attribute '{name}'")

  @property
  def names(self) -> bytes:
    return self._arrays["names"]

  @property
  def flg_gravcomp(self) -> bool:
    """Gravity compensation is applied (ngravcomp > 0): set it after giving bodies a
    body_gravcomp the compiled model did not have. Setting it makes ngravcomp 1 or 0, as
    MuJoCo's flag does."""
    return self._sizes["ngravcomp"] > 0

  @flg_gravcomp.setter
  def flg_gravcomp(self, value):
    self._sizes["ngravcomp"] = int(bool(value))
    self._build_struct()

  # ---- copy and pickle ----
  def __getstate__(self):
    return {
      "sizes": self._sizes,
      "arrays": self._arrays,
      "opt": self.opt.__getstate__(),
      "stat": self.stat.__getstate__(),
      "extras": dict(self._extras, vis=self.vis._dict()),
    }

  def __setstate__(self, state):
    MjModel.__init__(
      self,
      state["sizes"],
      _copy.deepcopy(state["arrays"]),
      MjOption(state["opt"]),
      MjStatistic(state["stat"]),
      state["extras"],
    )

  def __copy__(self):
    return self.__deepcopy__({})

  def __deepcopy__(self, memo):
    new = MjModel.__new__(MjModel)
    new.__setstate__(self.__getstate__())
    return new

  def __repr__(self):
    return f"<MjModel nq={self.nq} nv={self.nv} nu={self.nu} nbody={self.nbody}>"


_add_properties(MjModel, F.MODEL_FIELDS)


class ModelBatch:
  """n models that share every array of `model` except `fields`, which get one row per world:
  per-world masses, sizes, colours, gains, timesteps... without n copies of the model.

  `fields` names model arrays ("body_mass") or options ("opt.timestep", "opt.gravity").
  `batch.body_mass` is the (n, nbody) array of the per-world values and `batch.opt_gravity` the
  (n, 3) one (edit them in place); `batch[i]` (or iterating) gives world i's model, to pass to
  engine.rollout.rollout as a sequence of models, to mj_step, or to engine.Physics.from_model;
  its `body_mass` and `opt` are world i's. Everything else stays shared: an edit of
  `model.geom_rgba` shows in every world.
  """

  def __init__(self, model: MjModel, n: int, fields=()):
    n = int(n)
    if n < 1:
      raise ValueError(f"a ModelBatch needs at least one world, got n={n}")
    rows, opt_rows = {}, {}
    for name in fields:
      source, key, table = model._arrays, name, rows
      if name.startswith("opt."):
        source, key, table = model.opt._arrays, name[4:], opt_rows
      value = source.get(key)
      if not isinstance(value, np.ndarray):
        raise ValueError(f"MjModel has no array field {name!r} to vary per world")
      table[key] = np.ascontiguousarray(np.repeat(value[None], n, axis=0))
    self.model = model
    self._rows = rows
    self._opt_rows = opt_rows
    self._worlds = [
      _WorldModel(model, {k: v[i] for k, v in rows.items()}, {k: v[i] for k, v in opt_rows.items()})
      for i in range(n)
    ]

  def __len__(self):
    return len(self._worlds)

  def __getitem__(self, i):
    return self._worlds[i]

  def __iter__(self):
    return iter(self._worlds)

  def __getattr__(self, name):
    rows = self.__dict__.get("_rows", {})
    opt_rows = self.__dict__.get("_opt_rows", {})
    if name in rows:
      return rows[name]
    if name.startswith("opt_") and name[4:] in opt_rows:
      return opt_rows[name[4:]]
    raise AttributeError(
      f"'ModelBatch' has no per-world field '{name}' (fields: "
      f"{sorted(rows) + ['opt_' + k for k in sorted(opt_rows)]})"
    )


class _WorldModel:
  """One world of a ModelBatch: the shared model with some arrays (and options) replaced by
  row views. Reads every other attribute (sizes, arrays, statistics) from the shared model."""

  def __init__(self, model: MjModel, own: dict, own_opt: dict):
    self._model = model
    self._own = own
    self._arrays = {**model._arrays, **own}
    self._opt_arrays = {**model.opt._arrays, **own_opt}
    self.opt = MjOption(self._opt_arrays)  # the options as this world's handle sees them
    self._values = {**self._arrays, **model._sizes}
    self._views = {}  # its own named views (w.body('torso').mass), not the shared model's
    self._struct = self._handle()
    self._ptr = _stage.address_of(self._struct)

  def _handle(self):
    """A new struct over this world's arrays, with its own option and statistic structs."""
    values = dict(self._values)
    opt, stat = self._model.opt, self._model.stat
    values["opt"] = _make_handle(opt._CTOR, opt._MEMBERS, self._opt_arrays)
    values["stat"] = _make_handle(stat._CTOR, stat._MEMBERS, stat._arrays)
    return _make_handle(_stage.make_model, _structs.MODEL_MEMBERS, values)

  def thread_handle(self, k: int) -> int:
    """As MjModel.thread_handle: alias k of this world's handle, for thread k."""
    if k == 0:
      return self._ptr
    aliases = self.__dict__.setdefault("_aliases", [])
    while len(aliases) < k:
      aliases.append(self._handle())
    return _stage.address_of(aliases[k - 1])

  def __getattr__(self, name):
    own = self.__dict__.get("_own", {})
    if name in own:
      return own[name]
    return getattr(self.__dict__["_model"], name)


def _skin_arrays(skin: dict) -> dict:
  """Own copies of the host-side skin sizes and arrays (empty when the model has no skins)."""
  out = {f.name: int(skin.get(f.name, 0)) for f in _skin.SKIN_SIZES}
  for f in _skin.SKIN_FIELDS:
    shape = f.shape(out)
    out[f.name] = np.array(skin.get(f.name, np.zeros(shape)), f.dtype).reshape(shape)
  out["name_skinadr"] = np.array(skin.get("name_skinadr", ()), np.int32).reshape(out["nskin"])
  return out


def _add_skin_properties(cls):
  """m.nskin, ... and m.skin_* (views of the host-side skin arrays)."""
  for f in _skin.SKIN_SIZES:
    setattr(cls, f.name, property(lambda self, n=f.name: self._skin[n], doc=f.doc))
  for f in _skin.SKIN_FIELDS:
    fget = lambda self, n=f.name: self._skin[n]  # noqa: E731
    setattr(cls, f.name, property(fget, _write_in_place(fget), doc=f.doc))


_add_skin_properties(MjModel)
MjModel.name_skinadr = property(
  lambda self: self._skin["name_skinadr"], doc="address of each skin name in names"
)
for _f in F.MODEL_SIZES:
  setattr(MjModel, _f.name, property(lambda self, n=_f.name: self._sizes[n], doc=_f.doc))


class _OwnRows:
  """The arrays of one standalone struct (`MjWarningStat()`, `MjContact()`): the MjData fields
  `names` with one row, so the classes that view a row of an MjData view this one."""

  def __init__(self, names):
    fields = {f.name: f for f in F.DATA_FIELDS}
    self._arrays = {}
    for name in names:
      f = fields[name]
      shape = [1] + [getattr(enums, n) if isinstance(n, str) else n for n in f.dims[1:]]
      self._arrays[name] = np.zeros(shape, f.dtype)
    self._arrays["ncon"] = np.ones(1, np.int64)


def _struct_repr(obj, names) -> str:
  """MuJoCo's repr of a struct: its type and one `name: value` line per field, sorted."""
  lines = "".join(f"  {n}: {getattr(obj, n)!r}\n" for n in sorted(names))
  return f"<{type(obj).__name__}\n{lines}>"


class MjWarningStat:
  """One entry of `d.warning`: how often a warning happened and its last info.
  `MjWarningStat()` is a standalone one (zeros), as in MuJoCo."""

  __slots__ = ("_d", "_i")

  def __init__(self, d=None, i=0):
    if d is None:
      d = _OwnRows(("warning_number", "warning_lastinfo"))
    self._d, self._i = d, i

  def __eq__(self, other):
    if not isinstance(other, MjWarningStat):
      return NotImplemented
    return (self.number, self.lastinfo) == (other.number, other.lastinfo)

  __hash__ = None  # mutable, as MuJoCo's structs

  @property
  def number(self) -> int:
    return int(self._d._arrays["warning_number"][self._i])

  @number.setter
  def number(self, value):
    self._d._arrays["warning_number"][self._i] = value

  @property
  def lastinfo(self) -> int:
    return int(self._d._arrays["warning_lastinfo"][self._i])

  @lastinfo.setter
  def lastinfo(self, value):
    self._d._arrays["warning_lastinfo"][self._i] = value

  def __repr__(self):
    return _struct_repr(self, ("number", "lastinfo"))


class _WarningList:
  """`d.warning`: indexable by mjtWarning, with `.number`/`.lastinfo` arrays."""

  def __init__(self, d):
    self._d = d

  def __getitem__(self, i):
    n = len(self)
    if not -n <= int(i) < n:
      raise IndexError(f"warning index {i} out of range (mjNWARNING={n})")
    return MjWarningStat(self._d, int(i) % n)

  def __len__(self):
    return len(self._d._arrays["warning_number"])

  @property
  def number(self):
    return self._d._arrays["warning_number"]

  @property
  def lastinfo(self):
    return self._d._arrays["warning_lastinfo"]


def _sparse_layout(m: MjModel) -> bool:
  """The model's constraint Jacobian is sparse (mj_isSparse)."""
  jacobian = int(m.opt.jacobian)
  return jacobian == enums.mjJAC_SPARSE or (jacobian == enums.mjJAC_AUTO and m.nv >= 60)


def _row_width(m: MjModel) -> int:
  """Room per constraint row in the Jacobian: nv in the dense layout; in the sparse layout
  the most dofs one row's M^-1*J' can touch: the dofs of the trees the row acts on.

  Contacts, connects, welds and joint equalities join at most two trees; a tendon row acts on
  the trees its path passes through (two tendons for a tendon equality). In the sparse layout
  every Jacobian row fits in this width too (a body's dof chain lies in its tree), so the
  Jacobian and M^-1*J' grow with the number of rows times the size of a tree, not times nv.
  """
  nv = int(m.nv)
  if not _sparse_layout(m):
    return max(1, nv)  # dense rows
  tree_dofnum = np.asarray(m.tree_dofnum)
  widest = 2 * int(tree_dofnum.max()) if len(tree_dofnum) else 0
  wrap_body = {
    enums.mjWRAP_JOINT: m.jnt_bodyid,
    enums.mjWRAP_SITE: m.site_bodyid,
    enums.mjWRAP_SPHERE: m.geom_bodyid,
    enums.mjWRAP_CYLINDER: m.geom_bodyid,
  }
  for t in range(m.ntendon):
    trees = set()
    for w in range(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t]):
      bodies = wrap_body.get(int(m.wrap_type[w]))
      if bodies is not None:
        trees.add(int(m.body_treeid[bodies[m.wrap_objid[w]]]))
    widest = max(widest, 2 * sum(int(tree_dofnum[k]) for k in trees if k >= 0))
  return max(1, min(nv, widest))


def data_capacity(m: MjModel) -> dict:
  """Contact and constraint-row capacity of MjData (MuJoCo sizes its arena from `<size memory>`).

  Contacts get 12 per geom (at least 100), or `<size nconmax>` if more, plus
  for each SDF geom room for sdf_initpoints contacts with each of up to 8 geoms, and rows
  cover every equality, friction loss and limit row plus each contact's rows in the widest
  cone (2*(condim-1) pyramidal rows), or `<size njmax>` if more (in MuJoCo 3.17 both only
  size its arena, m.narena, which holds far more). Running out sets
  mjWARN_CONTACTFULL/CNSTRFULL.
  Jacobian nonzeros get each row the width `_row_width` (nv in the dense layout), Newton's
  Hessian at most 2^22 entries (a larger island takes its own), and the broadphase every body
  pair up to 2^24. Sparse elliptic models get room for the Jacobian that folds cone Hessians;
  models with a dual solver (PGS, or noslip) room for efc_Y and efc_AR (2^22 entries, or as
  many as half of MuJoCo's arena m.narena holds, where MuJoCo's AR lives, up to 2^25),
  and for efc_Y with diagexact: more (or a switch to those options after MjData is made)
  warns mjWARN_CNSTRFULL, as MuJoCo does when its arena cannot hold them.
  """
  condims = [int(c) for c in m.geom_condim] + [int(c) for c in m.pair_dim]
  rows_per_contact = max([1] + [2 * (c - 1) for c in condims])
  nsdf = int(np.count_nonzero(np.asarray(m.geom_type) == enums.mjGEOM_SDF))
  sdfcon = nsdf * min(int(m.opt.sdf_initpoints), enums.mjMAXCONPAIR) * min(m.ngeom - 1, 8)
  nv = int(m.nv)
  width = _row_width(m)
  # MuJoCo 3.17 takes contacts and rows from its arena, which njmax and nconmax only size (it
  # holds far more): they raise the capacity above the estimate, never lower it
  nconcap = max(int(m.nconmax), max(100, 12 * m.ngeom) + sdfcon)
  nefccap = max(
    int(m.njmax), 6 * m.neq + m.nv + 3 * m.ntendon + 2 * m.njnt + rows_per_contact * nconcap
  )
  sparse_elliptic = _sparse_layout(m) and int(m.opt.cone) == enums.mjCONE_ELLIPTIC
  dual = int(m.opt.solver) == enums.mjSOL_PGS or int(m.opt.noslip_iterations) > 0
  project = dual or bool(int(m.opt.enableflags) & enums.mjENBL_DIAGEXACT)
  return {
    "nconcap": nconcap,
    "nefccap": nefccap,
    "nJcap": nefccap * width,
    "nYcap": nefccap * width if project else 0,
    "nAcap": min(nefccap * nefccap, max(_AR_CAP, _ar_share_of_arena(m))) if dual else 0,
    "nislandcap": int(m.ntree),
    "nidofcap": nv,
    "nHcap": min(nv * nv, _HESSIAN_CAP),
    "npaircap": max(1, min(m.nbody * (m.nbody - 1) // 2, _PAIR_CAP)),
    "nJconecap": nefccap * width if sparse_elliptic else 0,
  }


# Newton's dense Hessian and the broadphase pair list: past these sizes (32 MiB and 64 MiB,
# touched only as far as used) an island allocates its own Hessian and the pair list is full
_HESSIAN_CAP = 1 << 22
_AR_CAP = 1 << 22
# efc_AR may also take as many entries as half of MuJoCo's arena holds (8 bytes each: MuJoCo's
# AR lives there), up to 2^25 (256 MiB, touched only as far as used)
_AR_ARENA_SHARE = 16
_AR_ARENA_CAP = 1 << 25


def _ar_share_of_arena(m) -> int:
  return min(int(m.narena) // _AR_ARENA_SHARE, _AR_ARENA_CAP)


_PAIR_CAP = 1 << 24


# MjData's fields a copy takes whole, and those of contact and constraint rows with the counter
# of the rows in use (None: scratch, nothing to copy)
_WHOLE_FIELDS = tuple(f.name for f in F.DATA_FIELDS if not F.in_use_rows(f))
_ROW_COUNTERS = {f.name: CUT_BY.get(f.dims[0]) for f in F.DATA_FIELDS if F.in_use_rows(f)}


class MjData:
  """Simulation state and everything the pipeline computes from it, for one MjModel.

  `MjData(m)` allocates every buffer once and resets to qpos0; nothing is
  allocated while stepping.
  """

  def __init__(self, model: MjModel):
    if not isinstance(model, (MjModel, _WorldModel)):
      raise TypeError(f"MjData(): expected an MjModel, got {type(model).__name__}")
    self.model = model
    self._arrays = _alloc_arena(F.DATA_FIELDS, {**model._sizes, **data_capacity(model)})
    self._build_struct()
    io.mj_resetData(model, self)

  def _build_struct(self):
    self._struct = _make_handle(_stage.make_data, _structs.DATA_MEMBERS, self._arrays)
    self._ptr = _stage.address_of(self._struct)

  @property
  def warning(self) -> _WarningList:
    return _WarningList(self)

  # ---- copy and pickle ----
  def __getstate__(self):
    return {"model": self.model, "arrays": self._arrays}

  def __setstate__(self, state):
    self.model = state["model"]
    sizes = {**self.model._sizes, **data_capacity(self.model)}
    self._arrays = _alloc_arena(F.DATA_FIELDS, sizes)
    arrays = state["arrays"]
    for name, counter in _ROW_COUNTERS.items():  # the rows in use only (ncon contacts, ...)
      value = arrays[name][: int(arrays[counter][0]) if counter else 0]
      self._arrays[name][: len(value)] = value
    for name in _WHOLE_FIELDS:
      self._arrays[name][...] = arrays[name]
    self._build_struct()

  def __copy__(self):
    """Copies the data (sharing the model), like mujoco's copy.copy(MjData)."""
    new = MjData.__new__(MjData)
    new.__setstate__({"model": self.model, "arrays": self._arrays})
    return new

  def __deepcopy__(self, memo):
    new = MjData.__new__(MjData)
    new.__setstate__({"model": _copy.deepcopy(self.model, memo), "arrays": self._arrays})
    return new

  def __repr__(self):
    return f"<MjData time={self.time} nq={len(self.qpos)} nv={len(self.qvel)}>"


_add_properties(
  MjData, [f for f in F.DATA_FIELDS if not f.name.startswith(F.DATA_NON_ATTRIBUTE_PREFIXES)]
)


class MjContactView:
  """`d.contact`: MuJoCo's contact array as columns (`d.contact.dist`, `d.contact.frame`, ...),
  each cut to the `d.ncon` detected contacts; `d.contact[i]` is one contact (its scalar
  fields Python numbers, as MuJoCo's MjContact), `d.contact[a:b]` a run of them."""

  def __init__(self, d: MjData, index=None):
    self._d = d
    self._index = index  # None: all contacts; an int: one; a range: a run

  def _column(self, name):
    arr = self._d._arrays["contact_" + name][: self._d._arrays["ncon"][0]]
    if self._index is None:
      return arr
    if isinstance(self._index, range):
      run = self._index
      return arr[run.start : run.stop : run.step] if run.step > 0 else arr[list(run)]
    value = arr[self._index]
    return value.item() if value.ndim == 0 else value

  def __getattr__(self, name):
    if name.startswith("_") or "contact_" + name not in self._d._arrays:
      raise AttributeError(f"MjContact has no field {name!r}")
    return self._column(name)

  def __setattr__(self, name, value):
    """`contact.pos = x` writes the contact's field (each contact's, for a run)."""
    if name.startswith("_"):
      object.__setattr__(self, name, value)
      return
    if "contact_" + name not in self._d._arrays:
      raise AttributeError(f"MjContact has no field {name!r}")
    rows = self._d._arrays["contact_" + name][: self._d._arrays["ncon"][0]]
    index = self._index
    rows[slice(None) if index is None else list(index) if isinstance(index, range) else index] = (
      value
    )

  def __eq__(self, other):
    """Field by field, as MuJoCo compares contacts (and lists of them: same length too)."""
    if not isinstance(other, MjContactView):
      return NotImplemented
    if isinstance(self._index, int) != isinstance(other._index, int) or len(self) != len(other):
      return False
    return all(np.array_equal(self._column(n), other._column(n)) for n in CONTACT_FIELDS)

  __hash__ = None  # mutable, as MuJoCo's structs

  def __copy__(self):
    """A contact's copy is a standalone MjContact (a run's: a list of them)."""
    if not isinstance(self._index, int):
      return [copy for copy in map(MjContactView.__copy__, self)]
    new = MjContact()
    for name in CONTACT_FIELDS:
      new._d._arrays["contact_" + name][0] = self._column(name)
    return new

  def __deepcopy__(self, memo):
    return self.__copy__()

  @property
  def geom1(self):
    geom = self._column("geom")
    return int(geom[0]) if isinstance(self._index, int) else geom[..., 0]

  @property
  def geom2(self):
    geom = self._column("geom")
    return int(geom[1]) if isinstance(self._index, int) else geom[..., 1]

  def _indices(self) -> range:
    if isinstance(self._index, range):
      return self._index
    return range(int(self._d._arrays["ncon"][0]))

  def __len__(self):
    return 1 if isinstance(self._index, int) else len(self._indices())

  def __getitem__(self, i):
    if isinstance(self._index, int):
      raise TypeError("a single contact cannot be indexed")
    indices = self._indices()
    if isinstance(i, slice):
      return MjContactView(self._d, indices[i])
    if not isinstance(i, (int, np.integer)):
      raise TypeError(f"contact indices are ints or slices, not {type(i).__name__}")
    if not -len(indices) <= i < len(indices):
      raise IndexError(f"contact index {i} out of range for {len(indices)} contacts")
    return MjContactView(self._d, indices[int(i)])

  def __iter__(self):
    if isinstance(self._index, int):
      raise TypeError("a single contact is not iterable")
    return (MjContactView(self._d, k) for k in self._indices())

  def __repr__(self):
    if isinstance(self._index, int):
      return _struct_repr(self, (*CONTACT_FIELDS, "geom1", "geom2")).replace(
        type(self).__name__, "MjContact", 1
      )
    return f"<MjContact ncon={len(self)}>"


# the fields of a contact (MjContact's attributes but geom1, geom2)
CONTACT_FIELDS = tuple(f.name[8:] for f in F.DATA_FIELDS if f.name.startswith("contact_"))


class MjContact(MjContactView):
  """A standalone contact, MuJoCo's MjContact struct: `MjContact()` (zeros) or a copy of one of
  `d.contact` (`copy.copy(d.contact[i])`); its fields are its own."""

  def __init__(self):
    super().__init__(_OwnRows(["contact_" + name for name in CONTACT_FIELDS]), 0)


_SOLVER_STAT = ("improvement", "gradient", "lineslope", "nactive", "nchange", "neval", "nupdate")


class MjSolverStatView:
  """`d.solver`: per-iteration solver statistics as columns (`d.solver.improvement`, ...)."""

  def __init__(self, d: MjData):
    self._stat = d._arrays["solver_stat"]

  def __getattr__(self, name):
    if name not in _SOLVER_STAT:
      raise AttributeError(f"MjSolverStat has no field {name!r}")
    col = self._stat[:, _SOLVER_STAT.index(name)]
    return col if name in ("improvement", "gradient", "lineslope") else col.astype(np.int32)

  def __len__(self):
    return len(self._stat)


def mj_copyData(dest: MjData, m: MjModel, src: MjData) -> None:
  """Copies MjData `src` into `dest`, both made for model `m` (or for models of its sizes): the
  state, everything computed from it and the contacts and constraint rows in use. Unlike
  `copy.copy(src)`, `dest` keeps its arrays: views of them stay valid."""
  if dest._arrays["qpos"].shape != src._arrays["qpos"].shape or int(m.nq) != len(src.qpos):
    raise ValueError("mj_copyData: dest and src must be MjData of the model m")
  for name in _WHOLE_FIELDS:
    dest._arrays[name][...] = src._arrays[name]
  for name, counter in _ROW_COUNTERS.items():  # the rows in use only (ncon contacts, ...)
    n = int(src._arrays[counter][0]) if counter else 0
    dest._arrays[name][:n] = src._arrays[name][:n]


MjData.contact = property(MjContactView, doc="detected contacts (MuJoCo's d.contact)")
MjData.solver = property(MjSolverStatView, doc="solver statistics (MuJoCo's d.solver)")


# ---- named accessors: m.body('torso').mass, d.joint('hinge').qpos (MuJoCo's views) ----
#
# Each accessor (`m.body`, `m.jnt`/`m.joint`, `d.actuator`, ...) takes an object's name or id and
# returns its view: `.id`, `.name` and one attribute per field of its type, a numpy view of the
# engine's array that writes through (`d.joint('hinge').qpos[0] = 1` changes `d.qpos`; assigning
# `view.qpos = x` writes `view.qpos[:] = x`). Unknown names raise KeyError, ids out of range
# IndexError, with MuJoCo's messages.
#
# How an attribute cuts its field follows the field's first dimension (engine/fields.py):
#   the object count (nbody, ...)  the object's row, flattened; a scalar field gives shape (1,)
#   nq, nv (joints)                the joint's block: 7 qpos of a free joint, 1 of a hinge
#   nu, nout (actuators)           its controls or outputs, (n, ...); the row alone if n == 1
#   nsensordata                    the sensor's `dim` numbers
#   nnumericdata, ntupledata       the numeric's or the tuple's `size` entries
#   nhfielddata, ntexdata          (nrow, ncol) heights, (height, width, nchannel) texels
#   nJten                          the tendon's Jacobian columns: rownnz entries from rowadr
#                                  (MuJoCo 3.17 reads nv entries from id*nv: past the end)
# `d.actuator(i).moment` is the actuator's dense moment row (nv,) per output, computed from the
# compressed rows at each read: a read-only copy, as MuJoCo's.
#
# Views and their arrays are made on first use and cached on the MjModel/MjData: a repeated
# `d.body('torso').xpos` is two dictionary lookups and an attribute read.

# One entry per object type: a line `accessor [other names] Title OBJTYPE count prefix` (the view
# type is `_MjModel<Title>Views`, names resolve as mjOBJ_<OBJTYPE>, `-` for no prefix), then the
# attributes, indented: `a` reads the field prefix + a, `a=field` reads `field`.
_MODEL_VIEW_TABLE = """
actuator Actuator ACTUATOR nactuator actuator_
  trntype dyntype gaintype biastype trnid actadr actnum group ctrllimited forcelimited actlimited
  dynprm gainprm biasprm ctrlrange forcerange actrange gear cranklength acc0 length0 lengthrange
  user
body Body BODY nbody body_
  parentid rootid weldid mocapid jntnum jntadr dofnum dofadr geomnum geomadr simple sameframe pos
  quat ipos iquat mass subtreemass inertia invweight0 user
cam camera Camera CAMERA ncam cam_
  mode bodyid targetbodyid pos quat poscom0 pos0 mat0 fovy ipd user
eq equality Equality EQUALITY neq eq_
  type obj1id obj2id active0 solref solimp data
exclude Exclude EXCLUDE nexclude exclude_
  signature
geom Geom GEOM ngeom geom_
  type contype conaffinity condim bodyid dataid matid group priority sameframe solmix solref
  solimp size rbound pos quat friction margin gap user rgba
hfield Hfield HFIELD nhfield hfield_
  size nrow ncol adr data
jnt joint Joint JOINT njnt jnt_
  qpos0=qpos0 qpos_spring=qpos_spring type qposadr dofadr group limited pos axis stiffness
  stiffnesspoly range margin user bodyid=dof_bodyid jntid=dof_jntid parentid=dof_parentid
  Madr=dof_Madr simplenum=dof_simplenum solref solimp frictionloss=dof_frictionloss
  armature=dof_armature damping=dof_damping dampingpoly=dof_dampingpoly
  invweight0=dof_invweight0 M0=dof_M0
light Light LIGHT nlight light_
  mode bodyid targetbodyid type castshadow active pos dir poscom0 pos0 dir0 attenuation cutoff
  exponent ambient diffuse specular
mat material Material MATERIAL nmat mat_
  texid texuniform texrepeat emission specular shininess reflectance rgba
mesh Mesh MESH nmesh mesh_
  vertadr vertnum texcoordadr faceadr facenum graphadr
numeric Numeric NUMERIC nnumeric numeric_
  adr size data
pair Pair PAIR npair pair_
  dim geom1 geom2 signature solref solimp margin gap friction
sensor Sensor SENSOR nsensor sensor_
  type datatype needstage objtype objid reftype refid dim adr cutoff noise user
site Site SITE nsite site_
  type bodyid matid group sameframe size pos quat user rgba
skin Skin SKIN nskin skin_
  matid rgba inflate vertadr vertnum texcoordadr faceadr facenum boneadr bonenum
tendon Tendon TENDON ntendon tendon
  _adr _num _matid _group _limited _width _solref_lim _solimp_lim _solref_fri _solimp_fri _range
  _margin _stiffness _stiffnesspoly _damping _dampingpoly _frictionloss _lengthspring _length0
  _invweight0 _user _rgba J_rownnz=ten_J_rownnz J_rowadr=ten_J_rowadr J_colind=ten_J_colind
tex texture Texture TEXTURE ntex tex_
  type colorspace height width nchannel adr data
tuple Tuple TUPLE ntuple tuple_
  adr size objtype objid objprm
key keyframe Keyframe KEY nkey key_
  time qpos qvel act mpos mquat ctrl
"""
# (MuJoCo's tendon view keeps the underscore of tendon_range: `m.tendon(0)._range`)

_DATA_VIEW_TABLE = """
actuator Actuator ACTUATOR nactuator actuator_
  ctrl=ctrl length velocity force
body Body BODY nbody -
  xfrc_applied xpos xquat xmat xipos ximat subtree_com cinert crb cvel subtree_linvel
  subtree_angmom cacc cfrc_int cfrc_ext
cam camera Camera CAMERA ncam cam_
  xpos xmat
geom Geom GEOM ngeom geom_
  xpos xmat
jnt joint Joint JOINT njnt -
  qpos qvel qacc_warmstart qfrc_applied qacc xanchor xaxis cdof qLDiagInv cdof_dot qfrc_bias
  qfrc_passive qfrc_actuator qfrc_smooth qacc_smooth qfrc_constraint qfrc_inverse
light Light LIGHT nlight light_
  xpos xdir
sensor Sensor SENSOR nsensor -
  data=sensordata
site Site SITE nsite site_
  xpos xmat
tendon ten Tendon TENDON ntendon ten_
  wrapadr wrapnum length velocity
"""
# (and d.actuator(i).moment, computed: _actuator_moment_rows)


def _parse_view_table(table: str) -> list:
  """The entries of a view table: (names, title, object type, count, prefix, {attr: field})."""
  entries = []
  for line in table.strip("\n").splitlines():
    if not line.startswith(" "):
      *names, title, objtype, count, prefix = line.split()
      prefix = "" if prefix == "-" else prefix
      entries.append((tuple(names), title, getattr(enums, "mjOBJ_" + objtype), count, prefix, {}))
      continue
    for token in line.split():
      attr, _, field = token.partition("=")
      entries[-1][-1][attr] = field or entries[-1][4] + attr
  return entries


def _view_row(model, arr, i):
  """Object i's row of a per-object field, flattened ((1,) for a scalar field)."""
  row = arr[i]
  return arr[i : i + 1] if row.ndim == 0 else row.reshape(-1)


def _joint_block(adr_name, total_name):
  """A joint's block of an nq or nv array: from its address to the next joint's (MuJoCo's
  rule), keeping trailing dimensions (cdof of a hinge is (1, 6))."""

  def cut(model, arr, i):
    adr = model._arrays[adr_name]
    end = adr[i + 1] if i + 1 < len(adr) else model._sizes[total_name]
    return arr[adr[i] : end]

  return cut


def _actuator_block(adr_name, num_name):
  """An actuator's controls or outputs: (num, ...) for several, the one row for one."""

  def cut(model, arr, i):
    adr, num = int(model._arrays[adr_name][i]), int(model._arrays[num_name][i])
    block = arr[adr : adr + num]
    return block[0] if num == 1 and block.ndim > 1 else block

  return cut


def _address_size(adr_name, size_name):
  def cut(model, arr, i):
    adr = int(model._arrays[adr_name][i])
    return arr[adr : adr + int(model._arrays[size_name][i])]

  return cut


def _grid(adr_name, dim_names):
  """A block reshaped to the object's grid: hfield heights (nrow, ncol), texels (h, w, c)."""

  def cut(model, arr, i):
    adr = int(model._arrays[adr_name][i])
    shape = tuple(int(model._arrays[n][i]) for n in dim_names)
    return arr[adr : adr + int(np.prod(shape))].reshape(shape)

  return cut


# first dimension of a field other than the object count -> how an object's part is cut
_VIEW_CUTS = {
  "nq": _joint_block("jnt_qposadr", "nq"),
  "nv": _joint_block("jnt_dofadr", "nv"),
  "nu": _actuator_block("actuator_ctrladr", "actuator_ctrlnum"),
  "nout": _actuator_block("actuator_outadr", "actuator_outnum"),
  "nsensordata": _address_size("sensor_adr", "sensor_dim"),
  "nnumericdata": _address_size("numeric_adr", "numeric_size"),
  "ntupledata": _address_size("tuple_adr", "tuple_size"),
  "nJten": _address_size("ten_J_rowadr", "ten_J_rownnz"),
  "nhfielddata": _grid("hfield_adr", ("hfield_nrow", "hfield_ncol")),
  "ntexdata": _grid("tex_adr", ("tex_height", "tex_width", "tex_nchannel")),
}


def _actuator_moment_rows(view):
  """The actuator's moment rows, dense (nv,) per output: a fresh read-only array (MuJoCo's
  `d.actuator(i).moment` too is computed from the compressed rows at each read)."""
  d, m, i = view._source, view._model, view._id
  adr, num = int(m._arrays["actuator_outadr"][i]), int(m._arrays["actuator_outnum"][i])
  rownnz, rowadr = d["moment_rownnz"], d["moment_rowadr"]
  colind, values = d["moment_colind"], d["actuator_moment"]
  out = np.zeros((num, m._sizes["nv"]))
  for r in range(num):
    start = int(rowadr[adr + r])
    end = start + int(rownnz[adr + r])
    out[r, colind[start:end]] = values[start:end]
  if num == 1:
    out = out[0]
  out.flags.writeable = False
  return out


class _ViewField:
  """One attribute of a view: cuts the object's part of its field on first read and leaves it
  in the view's __dict__, where later reads find it without calling here."""

  __slots__ = ("attr", "field", "cut", "as_byte")

  def __init__(self, attr, field, cut, as_byte):
    self.attr, self.field, self.cut, self.as_byte = attr, field, cut, as_byte

  def __get__(self, view, owner=None):
    if view is None:
      return self
    arr = self.cut(view._model, view._source[self.field], view._id)
    if self.as_byte:  # MuJoCo's views show mjtByte flags as uint8
      arr = arr.view(np.uint8)
    view.__dict__[self.attr] = arr
    return arr


class _View:
  """Base of the view types: `.id`, `.name` and the attributes of the type's table row."""

  _FIELDS = _WRITABLE = frozenset()  # the attributes; those `view.attr = x` writes into

  def __init__(self, model, source, i, name):
    d = self.__dict__
    d["_model"], d["_source"], d["_id"], d["_name"] = model, source, i, name

  @property
  def id(self) -> int:
    return self._id

  @property
  def name(self) -> str:
    return self._name

  def __setattr__(self, attr, value):
    if attr in self._WRITABLE:
      getattr(self, attr)[...] = value
      return
    if attr in ("id", "name", "moment"):
      raise AttributeError(f"property of '{type(self).__name__}' object has no setter")
    raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")

  def __dir__(self):  # the attributes, not the view's own bookkeeping (_model, _id, ...)
    return [a for a in super().__dir__() if a[0] != "_" or a[:2] == "__" or a in self._FIELDS]

  def __repr__(self):  # MuJoCo's: the attributes without a leading underscore, sorted
    names = sorted(a for a in (*self._FIELDS, "id", "name") if not a.startswith("_"))
    lines = "".join(f"  {a}: {getattr(self, a)!r}\n" for a in names)
    return f"<{type(self).__name__}\n{lines}>"


class _ViewGroup:
  """One object type's accessor: its view type, and how names and ids resolve."""

  def __init__(self, entry, is_model):
    names, title, objtype, count, prefix, attrs = entry
    self.method, self.names, self.objtype, self.count = names[0], names, objtype, count
    self.is_model = is_model
    fields = {f.name: f for f in (F.MODEL_FIELDS if is_model else F.DATA_FIELDS)}
    if is_model:
      fields.update({f.name: f for f in _skin.SKIN_FIELDS})
    members = {}
    for attr, name in attrs.items():
      f = fields[name]
      first = f.dims[0]
      cut = _view_row if first == count else _VIEW_CUTS[first]
      members[attr] = _ViewField(attr, f.name, cut, f.dtype == "b1")
    writable = frozenset(members)
    if not is_model and self.method == "actuator":
      members["moment"] = property(_actuator_moment_rows)  # read-only, as MuJoCo's
    members.update(_FIELDS=frozenset(members), _WRITABLE=writable, __module__=__name__)
    kind = "Model" if is_model else "Data"
    self.view_type = type(f"_Mj{kind}{title}Views", (_View,), members)

  def resolve(self, owner, key):
    """The view of object `key` (a name or an id) of `owner`, made and cached on first use."""
    model = owner if self.is_model else owner.model
    if isinstance(key, str):
      i = support.mj_name2id(model, self.objtype, key)
      if i < 0:
        raise KeyError(f"Invalid name '{key}'. Valid names: {self._valid_names(model)}")
    else:
      try:
        i = operator.index(key)
      except TypeError:
        raise TypeError(
          f"{self.method}(): takes an object's name (str) or id (int), not {type(key).__name__}"
        ) from None
      n = int(getattr(model, self.count))
      if not 0 <= i < n:
        raise IndexError(f"Invalid index {i}. Valid indices from 0 to {n - 1}")
    cache = owner.__dict__.setdefault("_views", {}).setdefault(self.method, {})
    view = cache.get(i)
    if view is None:
      source = model._skin if self.method == "skin" else owner._arrays
      name = support.mj_id2name(model, self.objtype, i) or ""
      view = cache[i] = self.view_type(model, source, i, name)
    if type(key) is str or type(key) is int:
      cache[key] = view
    return view

  def _valid_names(self, model) -> list:
    n = int(getattr(model, self.count))
    names = (support.mj_id2name(model, self.objtype, i) for i in range(n))
    return sorted(name for name in names if name)

  def accessor(self):
    method, resolve = self.method, self.resolve

    def view(self, name=""):
      # a name or an exact int seen before: straight from the cache (floats equal to an id,
      # numpy ints and unknown keys take resolve, which checks them)
      if name.__class__ is str or name.__class__ is int:
        try:
          return self._views[method][name]
        except (AttributeError, KeyError):
          pass
      return resolve(self, name)

    view.__name__ = view.__qualname__ = method
    return view


def _add_accessors(model_classes, data_class):
  """Adds the accessors (`body`, `jnt`, `joint`, ...) to the model classes and MjData."""
  for classes, table, is_model in (
    (model_classes, _MODEL_VIEW_TABLE, True),
    ((data_class,), _DATA_VIEW_TABLE, False),
  ):
    kind = "MjModel" if is_model else "MjData"
    for entry in _parse_view_table(table):
      group = _ViewGroup(entry, is_model)
      fn = group.accessor()
      for alias in group.names:
        fn_alias = fn
        if alias != group.method:  # a copy with its own name for help() and tracebacks
          fn_alias = group.accessor()
          fn_alias.__name__ = fn_alias.__qualname__ = alias
        fn_alias.__doc__ = (
          f"{kind}.{alias}(name or id): the {group.method} view of one object (MuJoCo's "
          f"`{alias}` accessor): .id, .name and {', '.join(sorted(group.view_type._FIELDS))}."
        )
        for cls in classes:
          setattr(cls, alias, fn_alias)


# a ModelBatch world's views show its own rows of the per-world fields
_add_accessors((MjModel, _WorldModel), MjData)


# ---- loading ----


def model_from_xml(
  xml: str | None = None, path: str | None = None, assets: dict | None = None
) -> MjModel:
  """Compiles MJCF (text or file) into an MjModel and computes its qpos0 constants; raises
  UnsupportedError for valid MJCF that the engine cannot simulate yet."""
  return _load(xml, path, assets, reject_unsupported=True)


def compile_any_model(
  xml: str | None = None, path: str | None = None, assets: dict | None = None
) -> MjModel:
  """The compiled model even where it uses features we cannot simulate yet (to compare it
  with MuJoCo's). For such models the muscle length ranges that need a simulation are left
  as written."""
  return _load(xml, path, assets, reject_unsupported=False)


def load_with_elements(xml: str | None, path: str | None, assets: dict | None):
  """(MjModel, the compiler's elements) of MJCF text or a file: what compiler.edit keeps."""
  m = _load(xml, path, assets, reject_unsupported=True, keep_elements=True)
  return m, m._extras.pop("elements")


def _load(xml, path, assets, reject_unsupported: bool, keep_elements: bool = False) -> MjModel:
  sizes, arrays, options, extras, problems = loader.compile_xml(
    xml, path, assets, reject_unsupported, keep_elements
  )
  opt = MjOption()
  for name, value in options.items():
    if name in opt._arrays:
      opt._arrays[name][...] = value
  m = MjModel(sizes, arrays, opt, MjStatistic(), extras)
  d = MjData(m)
  springdamper = extras.get("springdamper")
  if springdamper is not None and (springdamper > 0).any():
    # MuJoCo sets them after mj_setConst and before the length ranges
    setconst.mj_setConst(m, d)
    _auto_spring_damper(m, springdamper)
  setconst.set_constants(m, d, simulate_length_ranges=not problems)
  return m


_NDOF = {enums.mjJNT_FREE: 6, enums.mjJNT_BALL: 3, enums.mjJNT_SLIDE: 1, enums.mjJNT_HINGE: 1}


def _auto_spring_damper(m, springdamper) -> None:
  """Port of mjCModel::AutoSpringDamper (user_model.cc): joint springdamper=(timeconst,
  dampratio) sets jnt_stiffness and dof_damping from the mean dof_invweight0 at qpos0."""
  minval = enums.mjMINVAL
  for n in range(m.njnt):
    timeconst, dampratio = springdamper[n]
    if timeconst <= 0 or dampratio <= 0:
      continue
    adr = m.jnt_dofadr[n]
    ndim = _NDOF[int(m.jnt_type[n])]
    inertia = ndim / max(minval, float(np.sum(m.dof_invweight0[adr : adr + ndim])))
    m.jnt_stiffness[n] = inertia / max(minval, timeconst * timeconst * dampratio * dampratio)
    m.dof_damping[adr : adr + ndim] = 2 * inertia / max(minval, timeconst)
