"""mjcf.Physics: engine.Physics built from an object model, with `bind` to its elements.

  physics = mjcf.Physics.from_mjcf_model(model)
  physics.bind(model.find_all('joint')).qpos = 0.1
  physics.bind(torsos).xpos           # (n, 3) world positions
  physics.bind(geom).rgba[3] = 0.5    # writes through to the model

A binding exposes every model and data field of its elements by the field's name without the
element-kind prefix: for bodies `xpos`, `mass` (body_mass), `mocap_pos`; for joints `qpos`,
`qvel` (blocks of each joint's entries), `range` (jnt_range), `damping` (dof_damping); for
geoms `rgba`, `size`, `xpos` (geom_xpos); for tendons `length` (ten_length); for actuators
`ctrl`, `act`, `gear`, `force` (actuator_force); for sensors `sensordata`; and so on. Elements
are found in the compiled model by their full identifiers.
"""

import contextlib

import numpy as np

from engine import errors as engine_errors
from engine import index as engine_index
from engine import physics as engine_physics
from engine.compiler import edit as engine_edit
from mjcf import constants
from mjcf import debugging
from mjcf import element as element_mod

# namespace -> [(size name of the first dimension, prefixes stripped from field names)]
_NAMESPACE_AXES = {
  "body": [("nbody", ("body_",)), ("nmocap", ())],
  "joint": [("njnt", ("jnt_",)), ("nq", ()), ("nv", ("dof_",))],
  "geom": [("ngeom", ("geom_",))],
  "site": [("nsite", ("site_",))],
  "camera": [("ncam", ("cam_",))],
  "light": [("nlight", ("light_",))],
  "mesh": [("nmesh", ("mesh_",))],
  "hfield": [("nhfield", ("hfield_",))],
  "texture": [("ntex", ("tex_",))],
  "material": [("nmat", ("mat_",))],
  "pair": [("npair", ("pair_",))],
  "exclude": [("nexclude", ("exclude_",))],
  "equality": [("neq", ("eq_",))],
  "tendon": [("ntendon", ("tendon_", "ten_"))],
  "actuator": [
    ("nactuator", ("actuator_",)),
    ("nu", ("actuator_",)),
    ("na", ()),
    ("nout", ("actuator_",)),
  ],
  "sensor": [("nsensor", ("sensor_",)), ("nsensordata", ())],
  "numeric": [("nnumeric", ("numeric_",)), ("nnumericdata", ("numeric_",))],
  "tuple": [("ntuple", ("tuple_",))],
  "text": [("ntext", ("text_",))],
  "keyframe": [("nkey", ("key_",))],
}

_field_tables = {}


def _field_table(namespace):
  """{binding attribute: ('model' or 'data', field name)} of one namespace, built once."""
  table = _field_tables.get(namespace)
  if table is not None:
    return table
  table = {}
  axes = _NAMESPACE_AXES[namespace]
  for struct, rows in (
    ("model", engine_index.model_fields()),
    ("data", engine_index.data_fields()),
  ):
    for size_name, prefixes in axes:
      for f in rows:
        if not f.dims or f.dims[0] != size_name:
          continue
        name = f.name
        for prefix in prefixes:
          if name.startswith(prefix):
            name = name[len(prefix) :]
            break
        table.setdefault(name, (struct, f.name))
  _field_tables[namespace] = table
  return table


def _binding_namespace(element):
  if isinstance(element, element_mod._AttachmentFrame) or element.tag == constants.WORLDBODY:
    return constants.BODY
  if element.spec.namespace == "contact":  # (pairs and excludes: the model's arrays differ)
    return element.tag
  return element.spec.namespace


# Writing these data fields makes the derived quantities stale (dm_control's list); reading any
# other field of a binding first runs forward() when the physics is stale.
_DATA_TRIGGERS_DIRTY = frozenset({"qpos", "qvel", "act", "ctrl", "qfrc_applied", "xfrc_applied"})
# model fields whose writes leave the simulation unchanged (appearance only)
_MODEL_DOESNT_TRIGGER_DIRTY = frozenset(
  {"rgba", "matid", "emission", "specular", "shininess", "reflectance", "needstage"}
)
# Writing a frame's pos/quat through a binding clears the flags that let the engine skip it
# (`*_sameframe`: the frame coincides with another; `body_simple`), as dm_control does, so that
# the new values are used.
_DISABLE_ON_WRITE = {
  "body_pos": ("sameframe",),
  "body_quat": ("sameframe",),
  "geom_pos": ("sameframe",),
  "geom_quat": ("sameframe",),
  "site_pos": ("sameframe",),
  "site_quat": ("sameframe",),
  "body_ipos": ("simple", "sameframe"),
  "body_iquat": ("simple", "sameframe"),
}


class _SynchronizingArray(np.ndarray):
  """The entries of bound elements: item assignments write through to the engine's arrays.

  For one element the array is a view of the engine's memory (it follows the simulation); for a
  list it is a copy that writes assigned items back.
  """

  def __new__(cls, values, target, index, binding, name):
    obj = np.asarray(values).view(cls)
    obj._target = target
    obj._index = index
    obj._binding = binding
    obj._name = name
    return obj

  def __array_finalize__(self, obj):
    self._target = None
    self._index = None
    self._binding = None
    self._name = None

  def __setitem__(self, index, value):
    binding = self._binding
    if binding is not None:
      binding._before_access(self._name)
    super().__setitem__(index, value)
    if self._target is not None:
      self._target[self._index] = np.asarray(self)
    if binding is not None:
      binding._after_write(self._name)

  def __array_wrap__(self, obj, context=None, return_scalar=False):
    out = np.asarray(obj).view(np.ndarray)
    if return_scalar and out.ndim == 0:
      return out[()]
    return out

  def copy(self, order="C"):
    """A plain numpy copy (detached from the engine)."""
    return np.copy(self, order=order)

  def __copy__(self):
    return self.copy()

  def __deepcopy__(self, memo):
    return self.copy()

  def __reduce__(self):
    raise NotImplementedError("bound arrays cannot be pickled: copy them first (x.copy())")


class Binding:
  """Named, writable access to the model and data fields of bound elements.

  Reading an attribute gives the field's entries for the elements (one element: its own row or
  block; a list: one row per element, or the concatenated blocks for joints' qpos/qvel and the
  like). Assigning an attribute, or items of what was read, writes into the engine's arrays.
  `binding['pos']` and `binding['pos', 2]` (field, columns) work too. As in dm_control,
  writing state or model fields marks the physics stale, and reading a derived field of a stale
  physics first runs `physics.forward()`.

  Attributes:
    element_id: id of the element(s) in the compiled model.
  """

  __slots__ = (
    "_physics",
    "_namespace",
    "_names",
    "_key",
    "_single",
    "_elements",
    "_cache",
    "_views",
  )

  def __init__(self, physics, namespace, elements, single):
    object.__setattr__(self, "_physics", physics)
    object.__setattr__(self, "_namespace", namespace)
    object.__setattr__(self, "_elements", elements)
    names = [e.full_identifier for e in elements]
    object.__setattr__(self, "_names", names)
    object.__setattr__(self, "_key", names[0] if single else names)
    object.__setattr__(self, "_single", single)
    object.__setattr__(self, "_cache", {})
    object.__setattr__(self, "_views", {})  # attribute name: whether reading it gives a view

  def _lookup(self, name):
    """(engine array, numpy index of the bound elements, field name) of one attribute."""
    entry = self._cache.get(name)
    if entry is not None:
      return entry
    table = _field_table(self._namespace)
    try:
      struct, field = table[name]
    except KeyError:
      raise AttributeError(
        f"bound element <{self._namespace}> object has no attribute "
        f"{name!r}: not a field of {self._namespace} elements; available: "
        f"{sorted(table)}"
      ) from None
    named = self._physics.named
    indexer = getattr(named.model if struct == "model" else named.data, field)
    try:
      index = indexer.axes.row.convert(self._key)
    except KeyError as e:
      raise KeyError(
        f"cannot bind {self._namespace} elements {self._names} to field {field!r} "
        f"of the compiled model: {e}"
      ) from None
    if struct == "data":
      dirty = name in _DATA_TRIGGERS_DIRTY
    else:
      dirty = name not in _MODEL_DOESNT_TRIGGER_DIRTY
    entry = (np.asarray(indexer), index, field, dirty)
    self._cache[name] = entry
    return entry

  def _before_access(self, name):
    """Runs forward() before reading or writing a derived field of a stale physics."""
    if not self._lookup(name)[3] and self._physics.is_dirty:
      self._physics.forward()

  def _after_write(self, name):
    _, _, field, dirty = self._lookup(name)
    for other in _DISABLE_ON_WRITE.get(field, ()):
      array, index, _, _ = self._lookup(other)
      array[index] = 0
    if dirty:
      self._physics.mark_as_dirty()

  def __getattr__(self, name):
    if name.startswith("__"):
      raise AttributeError(name)
    array, index, _, state = self._cache.get(name) or self._lookup(name)
    if not state and self._physics.is_dirty:
      self._physics.forward()
    value = array[index]
    if isinstance(value, np.ndarray):
      # a view or a copy depending on the index only: found out once per attribute
      view = self._views.get(name)
      if view is None:
        view = self._views[name] = bool(np.shares_memory(value, array))
      return _SynchronizingArray(value, None if view else array, index, self, name)
    return value

  def reader(self, name):
    """A no-argument function that reads attribute `name` as a plain numpy array, for code that
    reads the same attribute at every step (observables): the field and rows are looked up
    once, and a stale physics runs forward() first, as reading the attribute does. What it
    returns does not write back: for one element it is a view of the engine's memory (it
    changes with the simulation), for a list a copy."""
    array, index, _, state = self._lookup(name)
    physics = self._physics
    if state:  # a state or model field: never stale

      def read():
        return array[index]

    else:

      def read():
        if physics.is_dirty:
          physics.forward()
        return array[index]

    return read

  def __setattr__(self, name, value):
    self._before_access(name)
    array, index, _, _ = self._lookup(name)
    array[index] = value
    self._after_write(name)

  def _item(self, key):
    """(attribute name, engine array, index) of `binding[name]` or `binding[name, columns]`."""
    if isinstance(key, tuple):
      name, columns = key
    else:
      name, columns = key, None
    array, index, _, _ = self._lookup(name)
    if columns is None:
      return name, array, index
    if isinstance(index, slice) or np.isscalar(index) or np.ndim(columns) != 1:
      return name, array, (index, columns)
    return name, array, np.ix_(np.asarray(index), np.asarray(columns))

  def __getitem__(self, key):
    name, array, index = self._item(key)
    self._before_access(name)
    return array[index].copy()

  def __setitem__(self, key, value):
    name, array, index = self._item(key)
    self._before_access(name)
    array[index] = value
    self._after_write(name)

  @property
  def element_id(self):
    """Ids of the bound elements in the compiled model (an int for a single element)."""
    objtype = self._namespace if self._namespace != "keyframe" else "key"
    ids = [self._physics.model.name2id(n, objtype) for n in self._names]
    return ids[0] if self._single else np.array(ids)

  def __dir__(self):
    return sorted(set(super().__dir__()) | set(_field_table(self._namespace)))

  def __repr__(self):
    return f"<Binding of {self._namespace} {self._key!r}>"


class _EmptyBinding:
  """The binding of an empty list: every field reads as an empty array (as dm_control)."""

  __slots__ = ()

  def __getattr__(self, name):
    if name.startswith("__"):
      raise AttributeError(name)
    return np.empty(0)

  def reader(self, name):
    del name  # every field is empty
    return lambda: np.empty(0)

  def __setattr__(self, name, value):
    raise ValueError("Cannot assign a value to an empty binding.")


_EMPTY_BINDING = _EmptyBinding()


class Physics(engine_physics.Physics):
  """engine.Physics with construction from an mjcf model and `bind`."""

  @classmethod
  def from_mjcf_model(cls, mjcf_model):
    """Compiles an mjcf RootElement (with its asset files) into a Physics.

    In debug mode (see mjcf.debugging) a compile error names the Python line that created the
    offending element or last set the offending attribute.
    """
    xml, assets, context = _export(mjcf_model)
    with _debug_errors(context):
      return cls.from_xml_string(xml, assets=assets)

  def reload_from_mjcf_model(self, mjcf_model):
    """Replaces this Physics' model and data by a compilation of `mjcf_model`."""
    xml, assets, context = _export(mjcf_model)
    with _debug_errors(context):
      self.reload_from_xml_string(xml, assets=assets)

  def _reload_from_data(self, data):
    super()._reload_from_data(data)
    self._bindings = {}
    self._dirty = False

  @property
  def is_dirty(self):
    """Whether state or model fields were written through a binding since the last forward()."""
    return self._dirty

  def mark_as_dirty(self):
    """Marks the derived quantities as stale: bindings run forward() before reading them."""
    self._dirty = True

  def forward(self):
    super().forward()
    self._dirty = False

  def after_reset(self):
    super().after_reset()
    self._dirty = False

  def bind(self, mjcf_elements):
    """A Binding of one element or a list of elements of the same kind.

    Raises:
      ValueError: the elements are of different kinds, or of a kind without model fields.
    """
    single = isinstance(mjcf_elements, element_mod.Element)
    elements = (mjcf_elements,) if single else tuple(mjcf_elements)
    if not elements:
      return _EMPTY_BINDING
    cache_key = (single,) + tuple(id(e) for e in elements)
    cached = self._bindings.get(cache_key)
    if cached is not None and all(a is b for a, b in zip(cached._elements, elements)):
      return cached
    namespaces = {_binding_namespace(e) for e in elements}
    if len(namespaces) != 1:
      kinds = sorted(map(str, namespaces))
      raise ValueError(f"all bound elements must be of one kind, got {kinds}")
    namespace = namespaces.pop()
    if namespace not in _NAMESPACE_AXES:
      raise ValueError(f"elements <{elements[0].tag}> have no fields in the compiled model")
    binding = Binding(self, namespace, elements, single)
    self._bindings[cache_key] = binding
    return binding


def compile_editable(mjcf_model):
  """An `engine.compiler.edit.ModelEditor` of `mjcf_model` (compile errors as from_mjcf_model
  reports them)."""
  xml, assets, context = _export(mjcf_model)
  with _debug_errors(context):
    return engine_edit.compile_editable(xml, assets=assets)


def _export(mjcf_model):
  """(XML text, assets, DebugContext) of a model for the compiler."""
  context = debugging.DebugContext()
  xml = mjcf_model.to_xml_string(debug_context=context if debugging.debug_mode() else None)
  context.xml_string = xml
  return xml, mjcf_model.get_assets(), context


@contextlib.contextmanager
def _debug_errors(context):
  """Adds the offending line of the generated XML to compile errors and, in debug mode, the
  Python lines that made its element (as dm_control does)."""
  try:
    yield
  except engine_errors.CompileError as exc:
    if not exc.line or exc.file:
      raise
    lines = context.xml_string.split("\n")
    if not 0 < exc.line <= len(lines):
      raise
    parts = [exc.msg, f"  generated XML line {exc.line}: {lines[exc.line - 1].strip()}"]
    if debugging.debug_mode():
      info = context.describe(exc.line, exc.attribute)
      if info is not None:
        parts.append(f"  {info}")
      if debugging.get_full_dump_dir():
        context.dump_full_debug_info_to_disk()
    else:
      parts.append(
        "  (enable mjcf.debugging.enable_debug_mode() or NUMJOCO_MJCF_DEBUG=1 for the "
        "Python lines that made this element)"
      )
    raise type(exc)(
      "\n".join(parts), file=exc.file, line=exc.line, element=exc.element, attribute=exc.attribute
    ) from exc
