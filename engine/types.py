"""MjModel, MjData, MjOption and MjStatistic: Python wrappers over numba struct handles.

MjVisual (`m.vis`) and the skins (`m.nskin`, `m.skin_*`) are host-only: the renderer and viewer
read them, the jitted pipeline never does, so they are plain Python data outside the model handle.

Every field is a numpy array owned by the Python object; the numba handle
(`_struct`) points at the same memory, so `d.qpos[:] = x` in Python is seen by
the jitted pipeline and vice versa. Scalars that can change (`d.time`,
`m.opt.timestep`) are 1-element arrays exposed as Python numbers. Model sizes
(`m.nq`, ...) are plain ints. Everything is generated from `engine/fields.py`.

Under NUMBA_DISABLE_JIT=1 the handle is a plain namespace with the same
attributes (numba's structref cannot be built without the JIT), so the whole
engine runs as ordinary Python for debugging and coverage.
"""

import copy as _copy
import math
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
from engine.compiler import build_skin as _skin
from engine.compiler import specs as _specs


def _make_handle(ctor, members, values: dict):
  """Builds the numba handle (or its plain-Python twin) from named members."""
  if _jit.DISABLE_JIT:
    return _pytypes.SimpleNamespace(**{n: values[n] for n in members})
  return ctor(*[values[n] for n in members])


def _assign_error(owner: str, name: str):
  def fset(self, value):
    raise AttributeError(
      f"{owner}.{name} is a view of engine memory and cannot be replaced; "
      f"assign in place instead: {owner.lower()}.{name}[:] = value"
    )

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


def _add_properties(cls, rows, owner: str, writable_arrays: bool = False):
  """Adds one property per table row: arrays as views, scalars as numbers."""
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

      fset = _assign_error(owner, name)

    else:

      def fget(self, name=name):
        return self._arrays[name]

      if writable_arrays:

        def fset(self, value, name=name):
          self._arrays[name][...] = value

      else:
        fset = _assign_error(owner, name)

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

  def __repr__(self):
    body = "\n".join(f"  {f.name}: {getattr(self, f.name)!r}" for f in self._ROWS)
    return f"<{type(self).__name__}\n{body}\n>"


class MjOption(_StructView):
  """Physics options (`m.opt`): timestep, gravity, integrator, solver settings, flags."""

  _ROWS = F.OPTION_FIELDS
  _CTOR = staticmethod(_stage.make_option)
  _MEMBERS = _structs.OPTION_MEMBERS


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


_add_properties(MjOption, F.OPTION_FIELDS, "MjOption", writable_arrays=True)
_add_properties(MjStatistic, F.STATISTIC_FIELDS, "MjStatistic", writable_arrays=True)


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
      setattr(self, attr, MjVisualGroup(tag, vis.get(tag)))

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
    self.opt = opt
    self.stat = stat
    self._extras = dict(extras or {})
    self.vis = MjVisual(self._extras.get("vis"))
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


_add_properties(MjModel, F.MODEL_FIELDS, "MjModel")


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
    setattr(
      cls,
      f.name,
      property(lambda self, n=f.name: self._skin[n], _assign_error("MjModel", f.name), doc=f.doc),
    )


_add_skin_properties(MjModel)
MjModel.name_skinadr = property(
  lambda self: self._skin["name_skinadr"], doc="address of each skin name in names"
)
for _f in F.MODEL_SIZES:
  setattr(MjModel, _f.name, property(lambda self, n=_f.name: self._sizes[n], doc=_f.doc))


class MjWarningStat:
  """One entry of `d.warning`: how often a warning happened and its last info."""

  __slots__ = ("_d", "_i")

  def __init__(self, d, i):
    self._d, self._i = d, i

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
    return f"<MjWarningStat number={self.number} lastinfo={self.lastinfo}>"


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
  models with a dual solver (PGS, or noslip) room for efc_Y and efc_AR (up to 2^22 entries),
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
    "nAcap": min(nefccap * nefccap, _AR_CAP) if dual else 0,
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
    if not isinstance(model, MjModel):
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
  MjData,
  [f for f in F.DATA_FIELDS if not f.name.startswith(F.DATA_NON_ATTRIBUTE_PREFIXES)],
  "MjData",
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
    return f"<MjContact ncon={len(self)}>"


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


MjData.contact = property(MjContactView, doc="detected contacts (MuJoCo's d.contact)")
MjData.solver = property(MjSolverStatView, doc="solver statistics (MuJoCo's d.solver)")


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


def _load(xml, path, assets, reject_unsupported: bool) -> MjModel:
  sizes, arrays, options, extras, problems = loader.compile_xml(
    xml, path, assets, reject_unsupported
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
