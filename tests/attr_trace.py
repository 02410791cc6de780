"""Which schema attributes the MJCF compiler actually reads, found by tracing a compile.

Every element's attributes reach the compiler either as `Node.attrs` or as a resolved spec dict
(default classes, templates, `Obj.spec`). `trace_reads` swaps those dicts for `_TrackDict`s that
record each key looked up, per schema element key, while compiling the given models. Reads
done while parsing, reading attributes over specs (copying, not using) and building the default
classes are not recorded. A lookup of an absent key counts too, so a model needs the element,
not every attribute. Used by tests/engine/test_compiler_attributes.py.
"""

import contextlib
import functools

from engine.compiler import actuator_spec
from engine.compiler import build
from engine.compiler import build_tree
from engine.compiler import defaults
from engine.compiler import parse
from engine.compiler import specs

_state = {"on": False, "reads": None, "bulk": None}


class _TrackDict(dict):
  """A dict that records key reads (and whole-dict reads) under its element key."""

  def _hit(self, k):
    if _state["on"] and isinstance(k, str):
      _state["reads"].add((self.key, k))

  def _all(self):
    if _state["on"]:
      _state["bulk"].update((self.key, k) for k in dict.keys(self) if isinstance(k, str))

  def __getitem__(self, k):
    self._hit(k)
    return dict.__getitem__(self, k)

  def get(self, k, default=None):
    self._hit(k)
    return dict.get(self, k, default)

  def __contains__(self, k):
    self._hit(k)
    return dict.__contains__(self, k)

  def pop(self, k, *default):
    self._hit(k)
    return dict.pop(self, k, *default)

  def setdefault(self, k, default=None):
    self._hit(k)
    return dict.setdefault(self, k, default)

  def __iter__(self):
    self._all()
    return dict.__iter__(self)

  def keys(self):
    self._all()
    return dict.keys(self)

  def items(self):
    self._all()
    return dict.items(self)

  def values(self):
    self._all()
    return dict.values(self)


def _track(d, key):
  if isinstance(d, _TrackDict):
    d.key = key
    return d
  t = _TrackDict(d)
  t.key = key
  return t


def _quiet(fn):
  """fn with recording off while it runs."""

  @functools.wraps(fn)
  def wrapper(*args, **kwargs):
    on = _state["on"]
    _state["on"] = False
    try:
      return fn(*args, **kwargs)
    finally:
      _state["on"] = on

  return wrapper


@contextlib.contextmanager
def _patched():
  saved = []

  def patch(obj, name, value):
    saved.append((obj, name, getattr(obj, name)))
    setattr(obj, name, value)

  node_init = parse.Node.__post_init__

  def node_post_init(self):
    node_init(self)
    self.attrs = _track(self.attrs, self.key)

  obj_init = build_tree.Obj.__init__

  def obj_new(self, node, spec=None):
    obj_init(self, node, spec)
    if node is not None:
      self.spec = _track(self.spec, node.key)

  template = specs.template

  def tracked_template(key):
    return _track(template(key), key)

  spec_fn = defaults.Defaults.spec

  def tracked_spec(self, node, slot=None, classname=None):
    return _track(spec_fn(self, node, slot, classname), node.key)

  patch(parse.Node, "__post_init__", node_post_init)
  patch(build_tree.Obj, "__init__", obj_new)
  patch(defaults.Defaults, "spec", tracked_spec)
  patch(defaults.Defaults, "__init__", _quiet(defaults.Defaults.__init__))
  patch(build, "pmod", type("P", (), {"parse": staticmethod(_quiet(parse.parse))}))
  for mod in (specs, build_tree, build):
    if hasattr(mod, "template"):
      patch(mod, "template", tracked_template)
  patch(specs, "read_attrs", _quiet(specs.read_attrs))
  patch(defaults, "read_attrs", specs.read_attrs)
  patch(actuator_spec, "read_attrs", specs.read_attrs)
  try:
    yield
  finally:
    for obj, name, value in reversed(saved):
      setattr(obj, name, value)


def trace_reads(models):
  """(reads, bulk, errors): {(element key, attr)} read by compiling each (xml, assets) model.

  `bulk` holds attributes only read as part of a whole dict (update, items, iteration);
  `errors` maps a model index to the exception its compile raised.
  """
  _state["reads"], _state["bulk"] = set(), set()
  errors = {}
  with _patched():
    for i, (xml, path, assets) in enumerate(models):
      _state["on"] = True
      try:
        build.compile_model(xml=xml, path=path, assets=assets)
      except Exception as e:  # noqa: BLE001
        errors[i] = e
      finally:
        _state["on"] = False
  return _state["reads"], _state["bulk"] - _state["reads"], errors
