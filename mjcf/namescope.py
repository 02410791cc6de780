"""NameScope: the identifiers of one model, and its place among attached models."""

import collections

from mjcf import constants

# One counter for every model, incremented on each change of a tree or of an identifier; caches
# (element.py's) compare against it. It lives here, below element.py, so that scopes can read
# and bump it without importing element.py.
REVISION = [0]


def bump_revision():
  REVISION[0] += 1


class NameScope:
  """The identifiers of one RootElement, by namespace, and its parent scope once attached.

  Every model has one scope, named after the model. Attaching a model makes its scope a child of
  the parent model's scope; identifiers are then exported as the chain of scope names joined by
  '/', followed by the element's own name ('arena/creature/leg_1/hip').

  Attributes:
    name: the model's name (the prefix of its identifiers once attached).
    mjcf_model: the RootElement this scope belongs to.
    parent: the scope of the model this one is attached to (None at the top).
    model_dir: directory asset files are read from.
    assets: {file name: bytes} searched before the disk.
  """

  def __init__(self, name, mjcf_model, model_dir="", assets=None):
    self.name = name
    self.mjcf_model = mjcf_model
    self.parent = None
    self.model_dir = model_dir or ""
    self.assets = dict(assets) if assets else {}
    self.tree_revision = 0  # incremented on each change of this model's tree or identifiers
    self._namespaces = collections.defaultdict(dict)

  @property
  def root(self):
    """The top scope of the attachment tree this scope belongs to."""
    scope = self
    while scope.parent is not None:
      scope = scope.parent
    return scope

  def full_prefix(self, prefix_root=None, as_list=False):
    """Scope names from below `prefix_root` (default: the top) down to this scope.

    Returns:
      'a/b/' (each name followed by '/'; '' for the root itself), or ['a', 'b'] with
      `as_list`.
    """
    names = []
    scope = self
    while scope is not prefix_root and scope.parent is not None:
      names.append(scope.name)
      scope = scope.parent
    names.reverse()
    if as_list:
      return names
    return "".join(n + constants.PREFIX_SEPARATOR for n in names)

  def add(self, namespace, identifier, element):
    """Registers an identifier.

    Raises:
      ValueError: the identifier is already used in this namespace.
    """
    table = self._namespaces[namespace]
    other = table.get(identifier)
    if other is not None and other is not element:
      raise ValueError(
        f"duplicated identifier {identifier!r} in namespace {namespace!r} of model {self.name!r}"
      )
    table[identifier] = element

  def replace(self, namespace, identifier, element):
    """Registers an identifier, replacing any element registered under it."""
    self._namespaces[namespace][identifier] = element

  def remove(self, namespace, identifier):
    """Forgets an identifier (no error if absent)."""
    self._namespaces[namespace].pop(identifier, None)

  def rename(self, namespace, old, new):
    """Moves an entry to a new identifier."""
    table = self._namespaces[namespace]
    if new in table and table[new] is not table.get(old):
      raise ValueError(f"duplicated identifier {new!r} in namespace {namespace!r}")
    table[new] = table.pop(old)

  def get(self, namespace, identifier):
    """The element registered under `identifier`.

    Raises:
      KeyError: nothing is registered under it.
    """
    return self._namespaces[namespace][identifier]

  def has_identifier(self, namespace, identifier):
    return identifier in self._namespaces[namespace]

  def identifiers(self, namespace):
    """{identifier: element} of one namespace (a copy)."""
    return dict(self._namespaces[namespace])

  @property
  def revision(self):
    """A counter that changes whenever any model's tree or identifiers change."""
    return REVISION[0]

  def increment_revision(self):
    bump_revision()

  def __repr__(self):
    return f"NameScope({self.name!r})"
