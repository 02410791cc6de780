"""The MJCF object model: elements, their attributes and children, attachment of models.

Every XML element of a model is an `Element` whose children and attributes are Python
attributes with the XML names (`class` is `dclass`). Element kinds, attributes and their types
come from engine's MJCF schema (see spec.py). A model is a `RootElement` (<mujoco>); models
attach to sites, bodies or the worldbody of other models, which creates an attachment frame (a
body named `prefix/` in the generated XML) holding the child's <worldbody>, scopes every
identifier of the child with `prefix/`, moves its defaults under the class `prefix/` and merges
its other sections (assets, actuators, sensors, ...) into the parent's.
"""

import itertools
import os

import numpy as np
from lxml import etree

from engine.compiler import assets as engine_assets
from mjcf import attribute as attr_mod
from mjcf import constants
from mjcf import debugging
from mjcf import keyframes
from mjcf import namescope as ns_mod
from mjcf import spec as spec_mod

# incremented on every change of the tree or of an identifier; caches compare against it
_revision = ns_mod.REVISION

_ORIENTATION = ("pos", "quat", "axisangle", "xyaxes", "zaxis", "euler")
_NAMED_FROM_FILE = ("mesh", "hfield", "texture", "skin")


def _bump(*elements):
  """Records a change of the tree or of an identifier in the models of `elements`."""
  ns_mod.bump_revision()
  for el in elements:
    if el._root is not None:
      el._root._namescope.tree_revision += 1


# numbers attribute changes (and hand-outs of stored arrays, which callers may change in place)
# for edits.EditTracker
_edit_serial = itertools.count(1)


class UnknownAttributeError(AttributeError):
  """An attribute or child name the element does not have.

  The message starts with Python's "<tag> object has no attribute 'name'" (code matches that
  phrase) and says why; `name` and `obj` are set as for a standard AttributeError.
  """


class RequiredAttributeError(ValueError, AttributeError):
  """A required attribute is missing or being deleted (dm_control raises AttributeError here,
  its README says ValueError: this is both)."""


class InvalidChildError(AttributeError, ValueError):
  """A tag that is not a valid child of the element (an AttributeError and a ValueError)."""


def _make(espec, parent, attributes=None, repeated=False, on_demand=False):
  """An element of the right class for `espec` under `parent`."""
  if isinstance(parent, _AttachmentFrame):
    cls = _FrameChild
  elif espec.key in (constants.WORLDBODY, constants.BODY, constants.FRAME):
    cls = _AttachableElement
  elif espec.key == constants.SITE and parent.tag in (
    constants.BODY,
    constants.WORLDBODY,
    constants.FRAME,
  ):
    cls = _AttachableElement
  elif espec.key == constants.DEFAULT:
    cls = _DefaultElement
  else:
    cls = Element
  return cls(espec, parent, attributes, repeated=repeated, on_demand=on_demand)


class _XmlOptions:
  """Settings of one XML generation."""

  __slots__ = ("prefix_root", "precision", "zero_threshold", "filename_with_hash", "debug")

  def __init__(self, prefix_root, precision, zero_threshold, filename_with_hash, debug):
    self.prefix_root = prefix_root
    self.precision = precision
    self.zero_threshold = zero_threshold
    self.filename_with_hash = filename_with_hash
    self.debug = debug


class Element:
  """An MJCF element. Children and attributes are Python attributes with their XML names.

  Create elements with `parent.add(tag, **attributes)`; a model is a `RootElement`.

  Attributes:
    tag: the XML tag.
    spec: the ElementSpec (allowed attributes and children).
    parent: the enclosing element (None for a root or a removed element).
    root: the RootElement of the model this element belongs to.
    namescope: the NameScope of that model.
  """

  __slots__ = (
    "_spec",
    "_parent",
    "_root",
    "_attrs",
    "_children",
    "_attachments",
    "_removed",
    "_alias",
    "_repeated",
    "_on_demand",
    "_init_stack",
    "_attr_stacks",
    "_edits",
    "__weakref__",
  )

  def __init__(self, espec, parent, attributes=None, repeated=False, on_demand=False, root=None):
    object.__setattr__(self, "_spec", espec)
    self._parent = parent
    self._root = parent._root if parent is not None else root
    self._attrs = {}
    self._children = []
    self._attachments = {}
    self._removed = False
    self._alias = None
    self._repeated = repeated
    self._on_demand = on_demand
    self._attr_stacks = {}
    self._edits = {}  # attribute name: serial of its last change or hand-out
    self._init_stack = debugging.get_current_stack_trace() if debugging.debug_mode() else None

    with debugging.freeze_current_stack_trace():
      for tag, cspec in espec.children.items():
        if not (cspec.repeated or cspec.on_demand):
          self._children.append(_make(cspec, self))
      attributes = dict(attributes or {})
      if constants.DCLASS in attributes:
        attributes[constants.CLASS] = attributes.pop(constants.DCLASS)
      for name in attributes:
        self._check_attribute_name(name)
      if (
        espec.tag in _NAMED_FROM_FILE
        and isinstance(attributes.get("file"), str)
        and not attributes.get("name")
        and "name" in espec.attributes
      ):
        # MuJoCo names an unnamed asset after its file
        base = os.path.basename(attributes["file"].replace("\\", "/"))
        attributes["name"] = base.rsplit(".", 1)[0] if "." in base else base
      try:
        for name in espec.attributes:
          if name in attributes:
            self._set_attribute(name, attributes[name])
        for name, aspec in espec.attributes.items():
          if aspec.required and name not in self._attrs:
            raise RequiredAttributeError(f"attribute '{name}' of <{espec.tag}> is required")
      except (ValueError, AttributeError, OSError) as e:
        self._unregister_identifiers()
        raise type(e)(f"while creating <{espec.tag}>: {e}") from None

  # ---- basic properties ----

  @property
  def tag(self):
    return self._spec.tag

  @property
  def spec(self):
    return self._spec

  @property
  def parent(self):
    return self._parent

  @property
  def root(self):
    return self._root

  @property
  def namescope(self):
    return self._root._namescope

  @property
  def is_removed(self):
    return self._removed

  def __eq__(self, other):
    return self is other

  def __hash__(self):
    return object.__hash__(self)

  def __copy__(self):
    raise TypeError("only whole models can be copied: use copy.deepcopy(mjcf_model)")

  def __deepcopy__(self, memo):
    raise TypeError("only whole models can be copied: use copy.deepcopy(mjcf_model)")

  # ---- attribute access ----

  def _check_attribute_name(self, name):
    if name not in self._spec.attributes:
      raise self._no_attribute(name, f"not a valid attribute of <{self._spec.tag}>")

  def _no_attribute(self, name, reason):
    """The AttributeError for an unknown name: Python's standard phrase, then why."""
    return UnknownAttributeError(
      f"<{self._spec.tag}> object has no attribute {name!r}: {reason}", name=name, obj=self
    )

  def _store(self, name=None):
    """The dict holding this element's attribute values (shared once a model is attached)."""
    if name is not None and self._spec.attributes[name].kind == "basepath":
      return self._attrs
    el = self
    while el._alias is not None:
      el = el._alias
    return el._attrs

  def _get_attribute(self, name):
    self._check_attribute_name(name)
    store = self._store(name)
    value = store.get(name)
    if isinstance(value, Element) and value._removed:
      del store[name]
      return None
    return value

  def _set_attribute(self, name, value):
    self._check_attribute_name(name)
    aspec = self._spec.attributes[name]
    kind = aspec.kind
    if kind == "identifier":
      value = self._assign_identifier(aspec, value)
    elif kind in ("reference", "indirect"):
      value = self._check_reference(aspec, value)
    elif kind == "file":
      value = self._load_file(aspec, value)
    else:
      value = attr_mod.convert_value(aspec, self._spec.tag, value)
    store = self._store(name)
    if value is None:
      if aspec.required and name in store:
        raise RequiredAttributeError(f"attribute '{name}' of <{self._spec.tag}> is required")
      store.pop(name, None)
    else:
      store[name] = value
    self._edits[name] = next(_edit_serial)
    if debugging.debug_mode():
      self._attr_stacks[name] = debugging.get_current_stack_trace()

  def _assign_identifier(self, aspec, value):
    """Validates a new identifier and registers it in the model's namescope."""
    if value is not None:
      value = attr_mod.check_name(aspec, self._spec.tag, value, aspec.namespace)
    old = self._attrs.get(aspec.name)
    if value != old and self._registers_identifier():
      scope = self.namescope
      if value is not None:
        scope.add(aspec.namespace, value, self)
      if old is not None:
        scope.remove(aspec.namespace, old)
      _bump(self)
    return value

  def _registers_identifier(self):
    return True

  def _unregister_identifiers(self):
    ident = self._spec.identifier
    if ident and self._registers_identifier():
      value = self._attrs.get(ident)
      if value is not None:
        scope = self.namescope
        try:
          if scope.get(self._spec.namespace, value) is self:
            scope.remove(self._spec.namespace, value)
        except KeyError:
          pass

  def _check_reference(self, aspec, value):
    """Validates a reference: an Element of the right namespace, or a name without '/'."""
    if value is None:
      return None
    if isinstance(value, Element):
      namespace = _reference_namespace_of(value)
      if aspec.kind == "indirect":
        self._set_reference_type(aspec, value, namespace)
      elif namespace != aspec.namespace:
        raise ValueError(
          f"attribute '{aspec.name}' of <{self._spec.tag}> refers to "
          f"{aspec.namespace!r} elements, got a {namespace!r} element <{value.tag}>"
        )
      return value
    if isinstance(value, str):
      return attr_mod.check_name(aspec, self._spec.tag, value, aspec.namespace)
    raise ValueError(
      f"attribute '{aspec.name}' of <{self._spec.tag}>: expected an mjcf Element "
      f"or a name, got {value!r}"
    )

  def _set_reference_type(self, aspec, target, namespace):
    """Sets `objtype` (or `reftype`) to match an Element assigned to `objname`."""
    type_name = aspec.type_attribute
    tspec = self._spec.attributes[type_name]
    current = self._store(type_name).get(type_name)
    if current is not None and spec_mod.OBJTYPE_NAMESPACES.get(current) == namespace:
      return
    choices = tspec.keywords or tuple(spec_mod.OBJTYPE_NAMESPACES)
    for word in choices:
      if spec_mod.OBJTYPE_NAMESPACES.get(word) == namespace:
        self._store(type_name)[type_name] = word
        return
    raise ValueError(
      f"attribute '{aspec.name}' of <{self._spec.tag}> cannot refer to a "
      f"{namespace!r} element (allowed {type_name}: {list(choices)})"
    )

  def _load_file(self, aspec, value):
    """An Asset from an Asset, or from a file name looked up in the assets dict or on disk."""
    if value is None or isinstance(value, attr_mod.Asset):
      return value
    if not isinstance(value, str):
      raise ValueError(
        f"attribute '{aspec.name}' of <{self._spec.tag}>: expected a file name "
        f"or an mjcf.Asset, got {value!r}"
      )
    if not value:
      return None
    scope = self.namescope
    base = self._root._basepath(aspec.path_kind)
    candidates = list(
      dict.fromkeys([engine_assets.combine_path(base, value) if base else value, value])
    )
    # resource providers matching the name combined with the model directory, as the compiler
    paths = [engine_assets.combine_path(scope.model_dir, n) for n in candidates]
    failed = []
    for path in paths:
      if engine_assets.find_resource_provider(path):
        try:
          return attr_mod.asset_from_path(value, engine_assets.read_resource(path))
        except FileNotFoundError as e:
          failed.append(str(e))
    for name in candidates:
      if name in scope.assets:
        return attr_mod.asset_from_path(value, scope.assets[name])
    basename = os.path.basename(value.replace("\\", "/"))
    for name, contents in scope.assets.items():
      if os.path.basename(name.replace("\\", "/")) == basename:
        return attr_mod.asset_from_path(value, contents)
    for path in paths:
      if not engine_assets.find_resource_provider(path) and os.path.isfile(path):
        with open(path, "rb") as f:
          return attr_mod.asset_from_path(value, f.read())
    shown = [engine_assets.shown_name(n) for n in candidates]
    raise FileNotFoundError(
      f"<{self._spec.tag}> {aspec.name}={engine_assets.shown_name(value)!r}: file not found: "
      + "".join(f"{e}; " for e in failed)
      + "not in the assets dict or in "
      f"{scope.model_dir or os.getcwd()!r} (tried {shown})"
    )

  def get_attributes(self):
    """{name: value} of the attributes that are set (`class` as 'dclass')."""
    out = {}
    for name in self._spec.attributes:
      value = self._handed_out(name)
      if value is not None:
        out[constants.DCLASS if name == constants.CLASS else name] = value
    return out

  def _handed_out(self, name):
    """An attribute's value for a caller: a stored array may be changed in place, so handing
    it out counts as a change (see edits.EditTracker)."""
    value = self._get_attribute(name)
    if isinstance(value, np.ndarray):
      self._edits[name] = next(_edit_serial)
    return value

  def set_attributes(self, **kwargs):
    """Sets several attributes; on an invalid value none of them changes."""
    if constants.DCLASS in kwargs:
      kwargs[constants.CLASS] = kwargs.pop(constants.DCLASS)
    done = []
    with debugging.freeze_current_stack_trace():
      for name, value in kwargs.items():
        try:
          old = self._get_attribute(name)
          self._set_attribute(name, value)
          done.append((name, old))
        except (ValueError, AttributeError, OSError) as e:
          for n, v in reversed(done):
            self._set_attribute(n, v)
          raise type(e)(f"while setting attribute '{name}' of <{self._spec.tag}>: {e}") from None

  def get_attribute_xml_string(self, attribute_name, prefix_root=None):
    """The attribute as it would be written in the XML (None if not written)."""
    self._check_attribute_name(attribute_name)
    opts = _XmlOptions(prefix_root or self.namescope, 17, 0.0, True, None)
    return self._attribute_xml(self._spec.attributes[attribute_name], opts)

  def __getattr__(self, name):
    if name.startswith("__"):
      raise AttributeError(name)
    espec = object.__getattribute__(self, "_spec")
    if name in espec.children:
      return self.get_children(name)
    if name in espec.attributes:
      return self._handed_out(name)
    if name == constants.DCLASS and constants.CLASS in espec.attributes:
      return self._get_attribute(constants.CLASS)
    raise self._no_attribute(name, f"<{espec.tag}> has no child or attribute of that name")

  def __setattr__(self, name, value):
    if name.startswith("_"):
      object.__setattr__(self, name, value)
      return
    class_attr = getattr(type(self), name, None)
    if isinstance(class_attr, property):
      if class_attr.fset is None:
        raise AttributeError(f"{name!r} of an mjcf element cannot be assigned")
      class_attr.fset(self, value)
      return
    attribute_name = constants.CLASS if name == constants.DCLASS else name
    if attribute_name in self._spec.attributes:
      self._set_attribute(attribute_name, value)
    elif name in self._spec.children:
      raise AttributeError(
        f"<{name}> is a child element of <{self._spec.tag}>: use add() or modify its attributes"
      )
    else:
      raise self._no_attribute(name, f"not a valid attribute of <{self._spec.tag}>")

  def __delattr__(self, name):
    if name in self._spec.children:
      if self._spec.children[name].repeated:
        raise AttributeError(
          f"{name!r} is a list of child elements, which cannot be deleted (use {name}.clear())"
        )
      child = self.get_children(name)
      if child is not None:
        child.remove()
      return
    attribute_name = constants.CLASS if name == constants.DCLASS else name
    if attribute_name not in self._spec.attributes:
      raise self._no_attribute(name, f"not a valid attribute of <{self._spec.tag}>")
    if self._spec.attributes[attribute_name].required:
      raise RequiredAttributeError(
        f"attribute '{attribute_name}' of <{self._spec.tag}> is required and cannot be deleted"
      )
    self._set_attribute(attribute_name, None)

  def __dir__(self):
    out = set(super().__dir__())
    out.update(self._spec.children)
    out.update(self._spec.attributes)
    if constants.CLASS in out:
      out.discard(constants.CLASS)
      out.add(constants.DCLASS)
    return sorted(out)

  # ---- children ----

  def _check_child(self, tag):
    try:
      return self._spec.children[tag]
    except KeyError:
      raise InvalidChildError(
        f"<{tag}> is not a valid child of <{self._spec.tag}>; allowed: "
        f"{sorted(self._spec.children)}"
      ) from None

  def get_children(self, tag):
    """The children with this tag: a list view if they repeat, else the element (or None)."""
    cspec = self._check_child(tag)
    if cspec.repeated:
      return _ElementListView(self, tag)
    for child in self._children:
      if child.tag == tag:
        return child
    return None

  def add(self, tag, **attributes):
    """Adds a child element; `attributes` are its XML attributes (`dclass` for class).

    Raises:
      AttributeError: `tag` is not a valid child (InvalidChildError, also a ValueError) or an
        attribute is unknown.
      ValueError: an attribute value is invalid, or a singleton child already exists.
    """
    return self.insert(tag, None, **attributes)

  def insert(self, tag, position, **attributes):
    """Adds a child element at `position` among this element's own children (None: last).

    The position counts every own child, singletons included, as dm_control's insert does;
    the order matters in the XML (e.g. the children of a <tendon>).

    Raises:
      As add().
    """
    cspec = self._check_child(tag)
    if not cspec.repeated:
      if not cspec.on_demand or self.get_children(tag) is not None:
        raise ValueError(
          f"<{self._spec.tag}> already has a <{tag}> child: access it as "
          f".{tag} instead of adding one"
        )
    child = _make(cspec, self, attributes, repeated=cspec.repeated, on_demand=cspec.on_demand)
    if position is None:
      self._children.append(child)
    else:
      self._children.insert(position, child)
    _bump(self)
    return child

  def all_children(self):
    """Own children followed by the repeated children contributed by attached models."""
    out = list(self._children)
    for attached in self._attachments.values():
      out.extend(c for c in attached.all_children() if c._repeated)
    return out

  def remove(self, affect_attachments=False):
    """Removes this element (a singleton is cleared instead) and everything below it.

    Args:
      affect_attachments: also act on attached models: detach those attached below this
        element, and remove the elements attached models contribute to it (removing the
        <actuator> section of a model removes the actuators of its attached models too).

    Raises:
      ValueError: `affect_attachments` is False and this element or one below it holds
        attached models or content from them (as dm_control).
    """
    subtree = self._subtree()
    if not affect_attachments and any(el._attachments for el in subtree):
      raise ValueError(
        "please use remove(affect_attachments=True): removing this element "
        "affects attributes or children that belong to an attached model"
      )
    for frame in subtree:
      if isinstance(frame, _AttachmentFrame) and not frame._removed:
        frame._attachment.detach()
    for el in subtree:
      for attached in list(el._attachments.values()):
        attached.remove(affect_attachments=True)
    if self._repeated or self._on_demand:
      for el in subtree:
        el._unregister_identifiers()
        el._removed = True
      if self._parent is not None:
        self._parent._children.remove(self)
      self._parent = None
    else:
      for child in list(self._children):
        child.remove(affect_attachments)
      self._unregister_identifiers()
      if self._alias is None:
        self._attrs.clear()
    _bump(self)

  def _subtree(self):
    """This element and its own descendants (not attached models)."""
    out = [self]
    for child in self._children:
      out.extend(child._subtree())
    return out

  # ---- finding ----

  def find(self, namespace, identifier):
    """The element of `namespace` called `identifier` ('leg/hip' looks into attached 'leg').

    Returns None when there is none (or when it is not below this element).

    Raises:
      ValueError: `namespace` or `identifier` is not a string, or the namespace is unknown.
    """
    if not isinstance(namespace, str):
      raise ValueError(f"namespace should be a string, got {namespace!r}")
    if not isinstance(identifier, str):
      raise ValueError(f"identifier should be a string, got {identifier!r}")
    namespace = _namespace_alias(namespace)
    if namespace not in spec_mod.findable_namespaces():
      raise ValueError(
        f"{namespace!r} is not a valid namespace; valid: {sorted(spec_mod.findable_namespaces())}"
      )
    sep = constants.PREFIX_SEPARATOR
    if sep in identifier:
      scope_name, rest = identifier.split(sep, 1)
      try:
        attached = self.namescope.get(constants.ATTACHED_MODEL, scope_name)
      except KeyError:
        return None
      if not rest:
        found = attached if namespace == constants.ATTACHMENT_FRAME else None
        found = self.namescope.get(constants.ATTACHMENT_FRAME, scope_name) if found else None
      else:
        found = attached.find(namespace, rest)
    else:
      try:
        found = self.namescope.get(namespace, identifier)
      except KeyError:
        found = None
        if namespace == constants.DEFAULT and identifier == "main":
          found = self._root.default
    if found is not None and self._parent is not None and not _is_below(found, self):
      return None
    return found

  def find_all(self, namespace, immediate_children_only=False, exclude_attachments=False):
    """Every element of `namespace` below this one, in declaration order.

    A <freejoint> counts as a joint and an attachment frame as a body. Elements of attached
    models are included unless `exclude_attachments`.

    Raises:
      ValueError: the namespace is unknown.
    """
    namespace = _namespace_alias(namespace)
    if namespace not in spec_mod.findable_namespaces():
      raise ValueError(
        f"{namespace!r} is not a valid namespace; valid: {sorted(spec_mod.findable_namespaces())}"
      )
    out = []
    self._find_all(namespace, immediate_children_only, exclude_attachments, out)
    return out

  def _find_all(self, namespace, immediate, exclude_attachments, out):
    children = self._children if exclude_attachments else self.all_children()
    for child in children:
      if child._in_namespace(namespace):
        out.append(child)
      if not immediate:
        child._find_all(namespace, False, exclude_attachments, out)

  def _in_namespace(self, namespace):
    return self._spec.namespace == namespace

  def enter_scope(self, scope_identifier):
    """The attached model called `scope_identifier` ('a/b' for nested ones), or None."""
    names = [n for n in scope_identifier.split(constants.PREFIX_SEPARATOR) if n]
    model = self._root
    for name in names:
      try:
        model = model.namescope.get(constants.ATTACHED_MODEL, name)
      except KeyError:
        return None
    return model

  # ---- identifiers ----

  def prefixed_identifier(self, prefix_root=None):
    """This element's name in XML generated from the model of `prefix_root` (a NameScope)."""
    ident = self._spec.identifier
    if ident is None:
      if self._spec.tag == constants.WORLDBODY:
        return self.namescope.full_prefix(prefix_root) or "world"
      return None
    prefix = self.namescope.full_prefix(prefix_root)
    value = self._get_attribute(ident)
    if value:
      return prefix + value
    index = self._root._unnamed_index(self)
    sep = constants.PREFIX_SEPARATOR
    return (prefix or sep) + f"{sep}unnamed_{self._spec.namespace}_{index}"

  @property
  def full_identifier(self):
    """This element's name in the XML of the whole model (the top of the attachment tree)."""
    return self.prefixed_identifier(self.namescope.root)

  # ---- references ----

  def resolve_references(self):
    """Replaces names in reference attributes by the elements they name, where found."""
    for name, aspec in self._spec.attributes.items():
      if aspec.kind not in ("reference", "indirect"):
        continue
      value = self._store(name).get(name)
      if not isinstance(value, str):
        continue
      if aspec.kind == "indirect":
        objtype = self._store(aspec.type_attribute).get(aspec.type_attribute)
        namespace = spec_mod.OBJTYPE_NAMESPACES.get(objtype)
        if namespace is None:
          continue
      else:
        namespace = aspec.namespace
        if namespace == constants.DEFAULT and value == "main":
          continue  # MuJoCo's name of the global class stays a name, as in dm_control
      # 'world' stays a name (as in dm_control); it is written as the model's world, which is
      # its attachment frame once attached
      target = self._root.find(namespace, value)
      if target is not None:
        self._store(name)[name] = target
    for child in self.all_children():
      child.resolve_references()

  # ---- XML ----

  def to_xml(
    self,
    prefix_root=None,
    debug_context=None,
    *,
    precision=17,
    zero_threshold=0.0,
    filename_with_hash=True,
  ):
    """This element (and its children) as an lxml element, as the compiler should see it.

    Args:
      prefix_root: NameScope the identifiers are relative to (default: this model's).
      debug_context: a debugging.DebugContext that records which element made which line.
      precision: significant digits of real numbers (17: exact round trip).
      zero_threshold: reals smaller in magnitude are written as 0.
      filename_with_hash: name asset files by their content hash (as get_assets() does).
    """
    opts = _XmlOptions(
      prefix_root or self.namescope, precision, zero_threshold, filename_with_hash, debug_context
    )
    return self._to_xml(opts)

  def _to_xml(self, opts):
    xml = etree.Element(self._spec.tag)
    self._attributes_to_xml(xml, opts)
    self._children_to_xml(xml, opts)
    if opts.debug is not None:
      opts.debug.register(xml, self)
    return xml

  def _attributes_to_xml(self, xml, opts):
    spec = self._spec
    ident = spec.identifier
    attributes = spec.attributes
    # (unset attributes, most of an element's, have nothing to write)
    for name in spec.xml_attributes(self._store()):
      if name == ident:
        text = self.prefixed_identifier(opts.prefix_root)
      else:
        text = self._attribute_xml(attributes[name], opts)
      if text is not None:
        xml.set(name, text)

  def _attribute_xml(self, aspec, opts):
    """One attribute's XML text, or None when it is not written."""
    name = aspec.name
    kind = aspec.kind
    if kind == "identifier":
      return self.prefixed_identifier(opts.prefix_root)
    value = self._get_attribute(name)
    if kind in ("reference", "indirect"):
      if aspec.namespace == constants.DEFAULT:
        if name == constants.CLASS:
          return self._class_xml(value, opts)
        return self._default_name_xml(value, opts)
      if isinstance(value, Element):
        return value.prefixed_identifier(opts.prefix_root)
      if value is None:
        return None
      namespace = aspec.namespace
      if kind == "indirect":
        objtype = self._store(aspec.type_attribute).get(aspec.type_attribute)
        namespace = spec_mod.OBJTYPE_NAMESPACES.get(objtype)
        if namespace is None:
          return value
      if value == "world" and namespace == constants.BODY:
        # the model's own world, which is the attachment frame once attached
        return self._root.worldbody.prefixed_identifier(opts.prefix_root)
      return self.namescope.full_prefix(opts.prefix_root) + value
    if value is None or kind == "basepath":
      return None
    if kind == "file":
      value = self._exported_asset(value, opts.prefix_root)
      if opts.filename_with_hash:
        return value.get_vfs_filename()
      return value.get_vfs_filename(filename_with_hash=False)
    return attr_mod.format_value(aspec, value, opts.precision, opts.zero_threshold)

  def _exported_asset(self, asset, prefix_root):
    """The file as the generated XML uses it: a skin file's bones name their bodies as the XML
    does (prefixed once the model is attached, as dm_control rewrites them)."""
    if self._spec.tag != "skin" or asset.extension.lower() != ".skn":
      return asset
    root = self._root

    def rename(name):
      body = root.find(constants.BODY, name)
      return body.prefixed_identifier(prefix_root) if body is not None else name

    contents = attr_mod.rename_skin_bodies(asset.contents, rename)
    if contents == asset.contents:
      return asset
    return attr_mod.Asset(contents, asset.extension, asset.prefix)

  def _default_name_xml(self, value, opts):
    """A reference to a default class, scoped ('main' is the model's global class)."""
    if value is None:
      return None
    if isinstance(value, Element):
      return value.prefixed_identifier(opts.prefix_root)
    if value == "main" or value == self._root.default._attrs.get(constants.CLASS):
      return self._root.default.prefixed_identifier(opts.prefix_root)
    return self.namescope.full_prefix(opts.prefix_root) + value

  def _class_xml(self, value, opts):
    """The `class` of an element: scoped, and the model's own global class when unset."""
    if value:
      return self._default_name_xml(value, opts)
    # inherit a childclass set on an enclosing element of the same model
    el = self._parent
    while el is not None:
      if constants.CHILDCLASS in el._spec.attributes and el._get_attribute(constants.CHILDCLASS):
        return None
      el = el._parent
    return self._root.default.prefixed_identifier(opts.prefix_root)

  def _children_to_xml(self, xml, opts):
    for child in self.all_children():
      child_xml = child._to_xml(opts)
      if len(child_xml.attrib) or len(child_xml) or child._repeated or child._on_demand:
        xml.append(child_xml)

  def to_xml_string(
    self,
    prefix_root=None,
    self_only=False,
    pretty_print=True,
    debug_context=None,
    *,
    precision=17,
    zero_threshold=0.0,
    filename_with_hash=True,
  ):
    """This element as XML text; see to_xml for the arguments.

    Args:
      self_only: only this element, its children replaced by '...'.
      pretty_print: indent the XML.
    """
    xml = self.to_xml(
      prefix_root,
      debug_context,
      precision=precision,
      zero_threshold=zero_threshold,
      filename_with_hash=filename_with_hash,
    )
    if self_only:
      for child in list(xml):
        xml.remove(child)
      if any(not c._is_empty() for c in self.all_children()):
        xml.text = "..."
      # only what the user set: no generated names or implicit classes
      for name in (self._spec.identifier, constants.CLASS):
        if name and name in xml.attrib and not self._get_attribute(name):
          del xml.attrib[name]
    text = etree.tostring(xml, pretty_print=pretty_print, encoding="unicode")
    if debug_context is not None and not self_only:
      debug_context.commit_xml_string(text)
    return text

  def _is_empty(self):
    """Whether this is a singleton with nothing set anywhere below it."""
    if self._repeated or self._on_demand or self._store():
      return False
    return all(c._is_empty() for c in self.all_children())

  def __str__(self):
    return self.to_xml_string(self_only=True, pretty_print=False)

  def __repr__(self):
    return f"MJCF Element: {self}"

  # ---- comparison ----

  def is_same_as(self, other):
    """Whether `other` has the same kind, attribute values and (recursively) children.

    Children are compared in order within each tag (the order of <tendon> children in full).
    Referenced elements are compared by their full identifiers.
    """
    if not isinstance(other, Element) or other._spec.key != self._spec.key:
      return False
    for name in self._spec.attributes:
      a, b = self._get_attribute(name), other._get_attribute(name)
      if isinstance(a, Element) or isinstance(b, Element):
        ida = a.full_identifier if isinstance(a, Element) else a
        idb = b.full_identifier if isinstance(b, Element) else b
        if ida != idb:
          return False
      elif (a is None) != (b is None) or (a is not None and not attr_mod.values_equal(a, b)):
        return False
    mine, theirs = self.all_children(), other.all_children()
    if self._parent is not None and self._parent.tag == "tendon":
      return len(mine) == len(theirs) and all(a.is_same_as(b) for a, b in zip(mine, theirs))
    for tag in self._spec.children:
      a = [c for c in mine if c.tag == tag]
      b = [c for c in theirs if c.tag == tag]
      if len(a) != len(b) or not all(x.is_same_as(y) for x, y in zip(a, b)):
        return False
    return True

  # ---- debugging ----

  def get_init_stack(self):
    """The user stack that created this element (debug mode only, else None)."""
    return self._init_stack

  def get_last_modified_stacks_for_all_attributes(self):
    """{attribute: user stack of its last assignment} (debug mode only)."""
    return {name: self._attr_stacks.get(name) for name in self._spec.attributes}


def _reference_namespace_of(element):
  """Namespace an element counts as when it is assigned to a reference."""
  if isinstance(element, _AttachmentFrame) or element.tag == constants.WORLDBODY:
    return constants.BODY
  return element._spec.namespace


def _namespace_alias(namespace):
  return {"class": constants.DEFAULT, "key": "keyframe"}.get(namespace, namespace)


def _is_below(element, ancestor):
  """Whether `element` is inside `ancestor`, following attached models up to their frames."""
  el = element
  while el is not None:
    if el is ancestor:
      return True
    if el._parent is None and isinstance(el, RootElement):
      el = el._attachment_frame()
    else:
      el = el._parent
  return False


# ---- attachment ----


class _AttachableElement(Element):
  """A <worldbody>, <body>, <frame> or <site>: other models can be attached to it."""

  __slots__ = ()

  def attach(self, attachment):
    """Attaches model `attachment` here and returns its attachment frame.

    At a site the frame takes the site's position and orientation and is placed in the site's
    body; at a body or the worldbody it is placed inside with no offset. The child's worldbody
    content becomes the content of the frame; its other sections merge into this model's.
    Add joints (e.g. a <freejoint>) to the frame to give the child degrees of freedom.

    Raises:
      ValueError: `attachment` is not a RootElement, is already attached, is this model or one
        of its parents, or sets a global option (compiler, option, size, visual, statistic) to
        a value different from this model's.
    """
    if not isinstance(attachment, RootElement):
      raise ValueError(f"expected an mjcf.RootElement to attach, got {attachment!r}")
    if attachment.namescope.parent is not None:
      raise ValueError(
        f"model {attachment.model!r} is already attached to model "
        f"{attachment.parent_model.model!r} (a model can be attached once; "
        "attach a copy.deepcopy of it instead)"
      )
    scope = self.namescope
    while scope is not None:
      if scope is attachment.namescope:
        raise ValueError("cannot attach a model to itself or to one of its attachments")
      scope = scope.parent
    root = self._root
    _merge_models(root, attachment, dry_run=True)

    # a unique name for the child among this model's attachments
    base = attachment.model
    name, i = base, 0
    while root.namescope.has_identifier(constants.ATTACHED_MODEL, name):
      i += 1
      name = f"{base}_{i}"
    if name != base:
      attachment.model = name
    attachment.namescope.parent = root.namescope

    if self.tag == constants.SITE:
      frame_parent = self._parent
      siblings = frame_parent._children
      index = siblings.index(self) + 1
      while index < len(siblings) and isinstance(siblings[index], _AttachmentFrame):
        index += 1
    else:
      frame_parent = self
      index = len(self._children)
    frame = _AttachmentFrame(frame_parent, self if self.tag == constants.SITE else None, attachment)
    frame_parent._children.insert(index, frame)
    root.namescope.add(constants.ATTACHMENT_FRAME, name, frame)
    root.namescope.add(constants.ATTACHED_MODEL, name, attachment)
    _merge_models(root, attachment, dry_run=False)
    _bump(self, attachment)
    return frame


class _AttachmentFrame(Element):
  """The body holding an attached model: named `prefix/` in XML, transparent to users."""

  __slots__ = ("_site", "_attachment")

  def __init__(self, parent, site, attachment):
    attributes = {}
    if site is not None:
      for name in _ORIENTATION:
        value = site._get_attribute(name)
        if value is not None:
          attributes[name] = np.array(value)
    object.__setattr__(self, "_site", site)
    object.__setattr__(self, "_attachment", attachment)
    holder = parent
    while holder.tag == constants.FRAME:  # <frame>s add no body
      holder = holder.parent
    in_world = holder.tag == constants.WORLDBODY
    super().__init__(spec_mod.attachment_frame(in_world), parent, attributes, repeated=True)
    self._attachments[attachment.namescope] = attachment.worldbody

  @property
  def attachment(self):
    """The attached model (a RootElement)."""
    return self._attachment

  def _in_namespace(self, namespace):
    return namespace in (constants.ATTACHMENT_FRAME, constants.BODY)

  def prefixed_identifier(self, prefix_root=None):
    return (
      self.namescope.full_prefix(prefix_root)
      + self._attachment.namescope.name
      + constants.PREFIX_SEPARATOR
    )

  @property
  def full_identifier(self):
    return self.prefixed_identifier(self.namescope.root)

  def _attributes_to_xml(self, xml, opts):
    xml.set("name", self.prefixed_identifier(opts.prefix_root))
    super()._attributes_to_xml(xml, opts)


class _FrameChild(Element):
  """A joint, freejoint or inertial of an attachment frame; named after the frame."""

  __slots__ = ()

  def _registers_identifier(self):
    return False

  def prefixed_identifier(self, prefix_root=None):
    if self._spec.identifier is None:
      return None
    frame_id = self._parent.prefixed_identifier(prefix_root)
    name = self._get_attribute(self._spec.identifier)
    if name:
      return frame_id + name + constants.PREFIX_SEPARATOR
    unnamed = [
      c
      for c in self._parent._children
      if c._spec.identifier and not c._get_attribute(c._spec.identifier)
    ]
    k = unnamed.index(self) if self in unnamed else 0
    return frame_id if k == 0 else f"{frame_id}unnamed_joint_{k}{constants.PREFIX_SEPARATOR}"


def _merge_models(parent, child, dry_run):
  """Merges the sections of `child` into `parent`; with dry_run only checks for conflicts."""
  scope = child.namescope
  for section in child._children:
    tag = section.tag
    if tag == constants.WORLDBODY:
      continue
    target = parent.get_children(tag)
    if tag in spec_mod.GLOBAL_OPTION_SECTIONS:
      _merge_options(target, section, dry_run)
    elif not dry_run:
      target._attachments[scope] = section
  if not dry_run:
    parent._attachments[scope] = child


def _merge_options(target, source, dry_run):
  """Checks that `source` sets no global option differently, then shares `target`'s values."""
  store = target._store()
  merged = {}
  for name, value in source._store().items():
    aspec = source._spec.attributes[name]
    if aspec.kind == "basepath":
      continue
    current = store.get(name)
    if current is not None and not attr_mod.values_equal(current, value):
      if not aspec.take_max:
        raise ValueError(
          f"conflicting values of global option <{source._spec.tag}> {name}: "
          f"{_show(current)} in model {target._root.model!r} vs {_show(value)} in model "
          f"{source._root.model!r}"
        )
      value = current if _size_value(current) >= _size_value(value) else value
    merged[name] = value
  for child in source._children:
    _merge_options(target.get_children(child.tag), child, dry_run)
  if not dry_run:
    store.update(merged)
    source._alias = target
    # recorded so that removing the parent's section knows it affects the attached model
    target._attachments[source._root.namescope] = source


def _unmerge_options(source):
  """Gives an attached global-option section back its own values (the merged ones)."""
  if source._alias is not None:
    own = {k: v for k, v in source._attrs.items() if source._spec.attributes[k].kind == "basepath"}
    merged = dict(source._store())
    merged.update(own)
    source._attrs = merged
    source._alias = None
  for child in source._children:
    _unmerge_options(child)


def _size_value(value):
  """A number to compare sizes by ('10M' memory strings included)."""
  if isinstance(value, str):
    text = value.strip()
    scale = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50, "E": 2**60}
    if text and text[-1].upper() in scale:
      return float(text[:-1]) * scale[text[-1].upper()]
    return float(text) if text else 0.0
  return float(np.max(value))


def _show(value):
  if isinstance(value, np.ndarray):
    return " ".join(str(v) for v in value.tolist())
  return repr(value)


# ---- defaults ----


class _DefaultElement(Element):
  """A <default> class. The model's global defaults are written as the class '/' (or 'prefix/'
  once attached), so a parent's defaults never apply to an attached model's elements."""

  __slots__ = ()

  def prefixed_identifier(self, prefix_root=None):
    names = self.namescope.full_prefix(prefix_root, as_list=True)
    # the global class is '/' (or 'prefix/') whatever the XML called it
    is_global = isinstance(self._parent, RootElement)
    names.append("" if is_global else self._get_attribute(constants.CLASS) or "")
    return constants.PREFIX_SEPARATOR.join(names) or constants.PREFIX_SEPARATOR

  def all_children(self):
    return list(self._children)

  def _to_xml(self, opts):
    xml = super()._to_xml(opts)
    if isinstance(self._parent, RootElement):
      wrapper = etree.Element(constants.DEFAULT)
      wrapper.append(xml)
      for attached in self._attachments.values():
        for child_xml in list(attached._to_xml(opts)):
          wrapper.append(child_xml)
      if opts.debug is not None:
        opts.debug.register(wrapper, self)
      return wrapper
    return xml


# ---- the model ----


class RootElement(Element):
  """A model: the <mujoco> element, with its namescope, assets and attached models.

  Args:
    model: the model's name (the prefix of its identifiers once attached).
    model_dir: directory asset files are read from.
    assets: {file name: bytes} searched before the disk.
  """

  __slots__ = ("_namescope", "_unnamed_cache")

  def __init__(self, model=None, model_dir="", assets=None):
    model = model or constants.UNNAMED_MODEL
    if not isinstance(model, str) or constants.PREFIX_SEPARATOR in model:
      raise ValueError(f"a model name must be a string without '/', got {model!r}")
    object.__setattr__(self, "_namescope", ns_mod.NameScope(model, self, model_dir, assets))
    object.__setattr__(self, "_unnamed_cache", None)
    super().__init__(spec_mod.root(), None, {"model": model}, root=self)

  @property
  def namescope(self):
    return self._namescope

  @property
  def root(self):
    return self

  @property
  def model(self):
    """The model's name."""
    return self._namescope.name

  @model.setter
  def model(self, new_name):
    if not isinstance(new_name, str) or not new_name or constants.PREFIX_SEPARATOR in new_name:
      raise ValueError(f"a model name must be a non-empty string without '/', got {new_name!r}")
    old = self._namescope.name
    parent = self.parent_model
    if parent is not None and new_name != old:
      parent.namescope.rename(constants.ATTACHED_MODEL, old, new_name)
      parent.namescope.rename(constants.ATTACHMENT_FRAME, old, new_name)
    self._namescope.name = new_name
    self._attrs["model"] = new_name
    _bump(self)

  @property
  def parent_model(self):
    """The model this one is attached to (None if it is not attached)."""
    parent = self._namescope.parent
    return parent.mjcf_model if parent is not None else None

  @property
  def root_model(self):
    """The top model of the attachment tree."""
    return self._namescope.root.mjcf_model

  @property
  def full_identifier(self):
    return self._namescope.full_prefix(self._namescope.root)

  def prefixed_identifier(self, prefix_root=None):
    return self._namescope.full_prefix(prefix_root)

  def _attachment_frame(self):
    parent = self.parent_model
    if parent is None:
      return None
    return parent.namescope.get(constants.ATTACHMENT_FRAME, self.model)

  def _basepath(self, kind):
    """The compiler directory for asset files of `kind` ('mesh' or 'texture')."""
    compiler = self.compiler
    own = compiler._attrs
    if kind == "texture" and own.get("texturedir"):
      return own["texturedir"]
    if kind != "texture" and own.get("meshdir"):
      return own["meshdir"]
    return own.get("assetdir") or ""

  def _unnamed_index(self, element):
    """Position of `element` among this model's elements of its namespace (for its auto name)."""
    cache = self._unnamed_cache
    if cache is None or cache[0] != _revision[0]:
      cache = (_revision[0], {})
      self._unnamed_cache = cache
    namespace = element._spec.namespace
    table = cache[1].get(namespace)
    if table is None:
      found = self.find_all(namespace, exclude_attachments=True)
      table = {id(e): i for i, e in enumerate(found)}
      cache[1][namespace] = table
    return table.get(id(element), 0)

  def attach(self, attachment):
    """Attaches `attachment` to this model's worldbody; see _AttachableElement.attach."""
    return self.worldbody.attach(attachment)

  def detach(self):
    """Detaches this model from the model it is attached to.

    Raises:
      RuntimeError: this model is not attached.
    """
    parent = self.parent_model
    if parent is None:
      raise RuntimeError("cannot detach a model that is not attached to another model")
    scope = self._namescope
    frame = self._attachment_frame()
    for section in parent._children:
      section._attachments.pop(scope, None)
      if section.tag in spec_mod.GLOBAL_OPTION_SECTIONS:
        for el in section._subtree():
          el._attachments.pop(scope, None)
    for section in self._children:
      if section.tag in spec_mod.GLOBAL_OPTION_SECTIONS:
        _unmerge_options(section)
    parent._attachments.pop(scope, None)
    parent.namescope.remove(constants.ATTACHMENT_FRAME, self.model)
    parent.namescope.remove(constants.ATTACHED_MODEL, self.model)
    frame._attachments.clear()
    for el in frame._subtree():
      el._removed = True
    if frame._parent is not None:
      frame._parent._children.remove(frame)
    frame._parent = None
    scope.parent = None
    _bump(self, parent)

  def get_assets(self):
    """{file name in the exported XML: bytes} of every asset file of this and attached models."""
    out = {}
    for el in _walk(self):
      for name, aspec in el._spec.attributes.items():
        if aspec.kind == "file":
          value = el._attrs.get(name)
          if value is not None:
            value = el._exported_asset(value, self.namescope)
            out[value.get_vfs_filename()] = value.contents
    return out

  def to_xml(
    self,
    prefix_root=None,
    debug_context=None,
    *,
    precision=17,
    zero_threshold=0.0,
    filename_with_hash=True,
  ):
    """The model as an lxml element; keyframes are padded to the combined model's sizes."""
    xml = super().to_xml(
      prefix_root,
      debug_context,
      precision=precision,
      zero_threshold=zero_threshold,
      filename_with_hash=filename_with_hash,
    )
    if self._has_attachments():
      opts = _XmlOptions(
        prefix_root or self.namescope, precision, zero_threshold, filename_with_hash, None
      )
      keyframes.pad_keyframes(self, xml, opts, _AttachmentFrame)
    return xml

  def _has_attachments(self):
    return bool(self._attachments)

  def include_copy(self, other, override_attributes=False):
    """Copies the content of model `other` into this one (like an <include>).

    Raises:
      ValueError: a singleton attribute differs and `override_attributes` is False.
    """
    mapping = {}
    _copy_children(other, self, mapping, override_attributes)
    _remap_references(self, mapping)
    _bump(self)

  def __copy__(self):
    return self.__deepcopy__({})

  def __deepcopy__(self, memo):
    new, _ = self._deepcopy_with_mapping()
    return new

  def _deepcopy_with_mapping(self):
    """An independent copy of this model and its attachments, and {old element: new element}."""
    scope = self._namescope
    new = RootElement(model=scope.name, model_dir=scope.model_dir, assets=scope.assets)
    mapping = {self: new}
    with debugging.freeze_current_stack_trace():
      _copy_children(self, new, mapping, override=True)
      _remap_references(new, mapping)
    return new, mapping

  def is_same_as(self, other):
    if not isinstance(other, RootElement):
      return False
    for a in self._children:
      if not a.is_same_as(other.get_children(a.tag)):
        return False
    return True


def _walk(element):
  """Every element below `element` (attached models included), depth first."""
  yield element
  for child in element.all_children():
    yield from _walk(child)


# ---- copying ----


def _copy_attributes(src, dst, override):
  for name, value in src._store().items():
    aspec = src._spec.attributes[name]
    if aspec.kind == "basepath" or (name == "model" and isinstance(dst, RootElement)):
      continue
    if isinstance(value, np.ndarray):
      value = value.copy()
    current = dst._store(name).get(name)
    if current is not None and not override and not attr_mod.values_equal(current, value):
      raise ValueError(
        f"conflicting values of <{src.tag}> {name}: {_show(current)} vs {_show(value)}"
      )
    if aspec.kind == "identifier":
      dst._set_attribute(name, value)
    else:
      dst._store(name)[name] = value
  for name, value in src._attrs.items():
    if src._spec.attributes[name].kind == "basepath":
      dst._attrs[name] = value


def _attribute_values(el):
  """{name: value} of an element's set attributes, arrays copied."""
  out = {}
  for name, value in el._store().items():
    if el._spec.attributes[name].kind != "basepath":
      out[name] = value.copy() if isinstance(value, np.ndarray) else value
  for name, value in el._attrs.items():
    if el._spec.attributes[name].kind == "basepath":
      out[name] = value
  return out


def _copy_children(src, dst, mapping, override, copy_attributes=True):
  """Copies the attributes and own children of `src` into `dst` (same kind of element)."""
  if copy_attributes:
    _copy_attributes(src, dst, override)
  for child in src._children:
    if isinstance(child, _AttachmentFrame):
      _copy_frame(child, dst, mapping)
      continue
    if child._repeated or child._on_demand:
      new = _make(
        child._spec,
        dst,
        _attribute_values(child),
        repeated=child._repeated,
        on_demand=child._on_demand,
      )
      dst._children.append(new)
      mapping[child] = new
      _copy_children(child, new, mapping, override, copy_attributes=False)
    else:
      new = dst.get_children(child.tag)
      mapping[child] = new
      _copy_children(child, new, mapping, override)


def _copy_frame(frame, dst_parent, mapping):
  """Copies an attached model and attaches the copy at the corresponding place."""
  child_copy, child_map = frame._attachment._deepcopy_with_mapping()
  child_copy.model = frame._attachment.model
  mapping.update(child_map)
  site = mapping.get(frame._site) if frame._site is not None else None
  target = site if site is not None else dst_parent
  new_frame = target.attach(child_copy)
  mapping[frame] = new_frame
  new_frame._attrs.clear()
  new_frame._attrs.update(_attribute_values(frame))
  _copy_children(frame, new_frame, mapping, override=True, copy_attributes=False)


def _remap_references(root, mapping):
  """Points Element-valued references of the copy at the copied elements."""
  for el in _walk(root):
    store = el._attrs
    for name, value in list(store.items()):
      if isinstance(value, Element) and value in mapping:
        store[name] = mapping[value]


# ---- list views ----


class _ElementListView:
  """The repeated children of one tag: a list that also indexes by name ('child/name' too)."""

  def __init__(self, parent, tag):
    self._parent = parent
    self._tag = tag

  @property
  def tag(self):
    return self._tag

  @property
  def spec(self):
    """The ElementSpec of the listed children."""
    return self._parent.spec.children[self._tag]

  @property
  def parent(self):
    return self._parent

  @property
  def namescope(self):
    return self._parent.namescope

  def _own(self):
    return [c for c in self._parent._children if c.tag == self._tag]

  def _full_list(self):
    out = self._own()
    for attached in self._parent._attachments.values():
      out.extend(_ElementListView(attached, self._tag)._full_list())
    return out

  def __len__(self):
    return len(self._full_list())

  def __iter__(self):
    return iter(self._full_list())

  def __getitem__(self, index):
    if isinstance(index, str):
      sep = constants.PREFIX_SEPARATOR
      if sep in index:
        scope_name, rest = index.split(sep, 1)
        for scope, attached in self._parent._attachments.items():
          if scope.name == scope_name:
            return _ElementListView(attached, self._tag)[rest]
        raise KeyError(f"no attached model {scope_name!r} in <{self._parent.tag}>")
      for el in self._own():
        ident = el._spec.identifier
        if ident and el._get_attribute(ident) == index:
          return el
      raise KeyError(f"no <{self._tag}> named {index!r} in <{self._parent.tag}>")
    if isinstance(index, slice) or (isinstance(index, (int, np.integer)) and index < 0):
      return self._full_list()[index]
    own = self._own()
    if 0 <= index < len(own):
      return own[index]
    return self._full_list()[index]

  def __delitem__(self, index):
    self[index].remove()

  def clear(self):
    """Removes every element of this list (own children only)."""
    for el in self._own():
      el.remove()

  def __str__(self):
    return str([str(el) for el in self._full_list()])

  def __repr__(self):
    return f"MJCF Elements List: {self}"
