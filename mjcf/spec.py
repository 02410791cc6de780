"""Element and attribute specifications of the object model, derived from engine's MJCF schema.

The compiler (engine/compiler/) and this package read one language definition,
`engine.compiler.schema.ELEMENTS`, so they never disagree about which elements and attributes
exist and what their types are. This module only adds what the object model needs on top:

- cardinality as PyMJCF sees it: the sections under <mujoco> are pre-created singletons (several
  <asset> sections in an XML file merge into one), '?' children are singletons, created up front
  unless they must be added explicitly (<inertial>, <freejoint>: "on demand"), everything else
  repeats;
- namespaces by PyMJCF's names: an element's namespace is the namespace of its identifier
  attribute, with the schema's 'class' called 'default' and 'key' called 'keyframe';
- attribute kinds: sensor/tuple `objname` strings become references whose namespace is given by
  their `objtype` attribute, so they are scoped on attachment like every other reference;
  compiler `meshdir`/`texturedir`/`assetdir` are base paths used to load asset files (the
  exported model embeds the files, so they are not written out);
- which global options take the larger value instead of conflicting when two models are
  combined (memory and buffer sizes, offscreen buffer sizes).
"""

import dataclasses
import functools

from engine.compiler import schema
from mjcf import constants

# schema namespace -> object model namespace (PyMJCF's: contact pairs and excludes share one)
_NAMESPACE_NAMES = {"class": "default", "key": "keyframe", "pair": "contact", "exclude": "contact"}

# objtype keyword (sensors, tuples) -> namespace of the referenced element
OBJTYPE_NAMESPACES = {
  "body": "body",
  "xbody": "body",
  "geom": "geom",
  "site": "site",
  "camera": "camera",
  "joint": "joint",
  "tendon": "tendon",
  "actuator": "actuator",
  "sensor": "sensor",
  "light": "light",
  "mesh": "mesh",
  "hfield": "hfield",
  "texture": "texture",
  "material": "material",
  "equality": "equality",
  "pair": "contact",
  "exclude": "contact",
  "key": "keyframe",
  "numeric": "numeric",
  "text": "text",
  "tuple": "tuple",
  "frame": "frame",
  "skin": "skin",
  "flex": "flex",
}

# children that exist at most once but are only created by add() (they have required
# attributes, or their presence changes the model)
_ON_DEMAND = {("body", "body/inertial"), ("body", "body/freejoint")}

# sections of a global option whose attributes must agree between attached models
GLOBAL_OPTION_SECTIONS = ("compiler", "option", "size", "statistic", "visual")

# global options for which combining models keeps the larger value instead of failing
_TAKE_MAX = {
  "size": {
    "memory",
    "njmax",
    "nconmax",
    "nstack",
    "nuserdata",
    "nkey",
    "nuser_body",
    "nuser_jnt",
    "nuser_geom",
    "nuser_site",
    "nuser_cam",
    "nuser_tendon",
    "nuser_actuator",
    "nuser_sensor",
  },
  "visual/quality": {"shadowsize", "offsamples", "numslices", "numstacks", "numquads"},
  "visual/global": {"offwidth", "offheight"},
}

# compiler attributes that locate asset files: not exported, not merged
BASEPATH_ATTRIBUTES = {"meshdir": "mesh", "texturedir": "texture", "assetdir": "asset"}


@dataclasses.dataclass(frozen=True)
class AttributeSpec:
  """One attribute as the object model handles it.

  Attributes:
    name: XML name.
    kind: 'real', 'int' (scalars), 'real_array', 'int_array', 'bool', 'keyword', 'flags',
      'string', 'file', 'basepath', 'identifier', 'reference' or 'indirect' (a reference whose
      namespace is the value of `type_attribute`).
    nmin, nmax: allowed length of arrays (nmax -1: unbounded).
    keywords: valid keywords of 'keyword'/'flags' attributes, in the schema's order.
    namespace: namespace declared ('identifier') or referenced ('reference').
    type_attribute: for 'indirect', the attribute naming the referenced element's type.
    required: the element is invalid without it.
    path_kind: for 'file'/'basepath', which compiler directory applies ('mesh' or 'texture').
    take_max: combining two models keeps the larger value instead of reporting a conflict.
  """

  name: str
  kind: str
  nmin: int | None = None
  nmax: int | None = None
  keywords: tuple = ()
  namespace: str | None = None
  type_attribute: str | None = None
  required: bool = False
  path_kind: str | None = None
  take_max: bool = False


class ElementSpec:
  """One element kind at one place of the schema (dm_control's ElementSpec fields, and more).

  Attributes:
    name: XML tag (dm_control's name for it); `tag` is the same.
    repeated: any number of such elements under their parent (a list view), else a singleton.
    on_demand: a singleton that exists only once added (<inertial>, <freejoint>).
    identifier: name of the identifier attribute ('name', or 'class' for <default>), or None.
    namespace: namespace of the element's identifier (None if it has none).
    attributes: name -> AttributeSpec, in the schema's order.
    children: tag -> ElementSpec of each allowed child, in the schema's order.
    key: schema key ('body', 'tendon/fixed/joint', 'default/geom', ...).
    supported: False for valid MJCF the engine does not simulate yet.
  """

  __slots__ = (
    "key",
    "tag",
    "attributes",
    "namespace",
    "identifier",
    "supported",
    "repeated",
    "on_demand",
    "_children",
    "_child_cards",
    "_xml_rank",
    "_xml_always",
  )

  def __init__(
    self,
    key,
    tag,
    attributes,
    child_cards,
    namespace,
    identifier,
    supported=True,
    repeated=False,
    on_demand=False,
    children=None,
  ):
    self.key = key
    self.tag = tag
    self.attributes = attributes
    self.namespace = namespace
    self.identifier = identifier
    self.supported = supported
    self.repeated = repeated
    self.on_demand = on_demand
    # children are built on first access: <default> contains itself
    self._child_cards = child_cards
    self._children = children
    self._xml_rank = None
    self._xml_always = None

  def xml_attributes(self, store):
    """The attributes that XML generation writes or must examine, in the schema's order:
    those set in `store` (an element's values) and the identifier, references and indirect
    references (written even when unset: a name or a class may be implied)."""
    if self._xml_rank is None:
      self._xml_rank = {name: i for i, name in enumerate(self.attributes)}
      self._xml_always = tuple(
        name
        for name, a in self.attributes.items()
        if name == self.identifier or a.kind in ("identifier", "reference", "indirect")
      )
    names = [name for name in store if name not in self._xml_always]
    names.extend(self._xml_always)
    if len(names) > 1:
      names.sort(key=self._xml_rank.__getitem__)
    return names

  @property
  def name(self):
    return self.tag

  @property
  def children(self):
    if self._children is None:
      self._children = {
        tag: get(ckey, *cardinality(self.key, ckey, card))
        for tag, (ckey, card) in self._child_cards.items()
      }
    return self._children

  def __repr__(self):
    return (
      f"ElementSpec(name={self.tag!r}, repeated={self.repeated}, "
      f"on_demand={self.on_demand}, identifier={self.identifier!r}, "
      f"namespace={self.namespace!r})"
    )


def namespace_name(ns):
  """The object model's name of a schema namespace."""
  return _NAMESPACE_NAMES.get(ns, ns)


def _attribute(key, elem, attr):
  """AttributeSpec of one schema attribute of element `elem`."""
  kind = attr.kind
  kw = dict(name=attr.name, required=attr.required)
  if kind in ("real", "int"):
    if attr.is_array:
      kw.update(kind=kind + "_array", nmin=attr.nmin, nmax=attr.nmax)
    else:
      kw.update(kind=kind)
  elif kind == "bool":
    kw.update(kind="bool")
  elif kind in ("kw", "flags"):
    kw.update(kind="keyword" if kind == "kw" else "flags", keywords=tuple(attr.keywords))
  elif kind == "id":
    kw.update(kind="identifier", namespace=namespace_name(attr.ns))
  elif kind == "ref":
    kw.update(kind="reference", namespace=namespace_name(attr.ns))
  elif kind == "file":
    kw.update(kind="file", path_kind="texture" if elem.tag == "texture" else "mesh")
  elif key == "compiler" and attr.name in BASEPATH_ATTRIBUTES:
    kw.update(kind="basepath", path_kind=BASEPATH_ATTRIBUTES[attr.name])
  elif attr.name in ("objname", "refname"):
    type_attr = "objtype" if attr.name == "objname" else "reftype"
    if type_attr in elem.attrs:
      kw.update(kind="indirect", type_attribute=type_attr)
    else:
      kw.update(kind="string")
  else:
    kw.update(kind="string")
  kw["take_max"] = attr.name in _TAKE_MAX.get(key, ())
  return AttributeSpec(**kw)


def cardinality(parent_key, child_key, card):
  """(repeated, on_demand) of a child kind under a parent kind (schema card '?', '*', ...)."""
  if parent_key == schema.ROOT:
    return False, False
  if (parent_key, child_key) in _ON_DEMAND:
    return False, True
  if card == "?":
    return False, False
  return True, False


@functools.cache
def get(key, repeated=False, on_demand=False):
  """The ElementSpec of schema key `key` at a place with this cardinality, built once."""
  elem = schema.ELEMENTS[key]
  attributes = {name: _attribute(key, elem, a) for name, a in elem.attrs.items()}
  identifier = next((a.name for a in attributes.values() if a.kind == "identifier"), None)
  namespace = attributes[identifier].namespace if identifier else None
  return ElementSpec(
    key,
    elem.tag,
    attributes,
    dict(elem.children),
    namespace,
    identifier,
    elem.supported,
    repeated,
    on_demand,
  )


@functools.cache
def attachment_frame(in_world=True):
  """Spec of an attachment frame: a nameless <body> holding only joints and an inertial.

  Only a frame placed directly in the worldbody may hold a <freejoint> (MuJoCo allows free
  joints only there; dm_control makes the same distinction).
  """
  body = get(constants.BODY, True)
  attributes = {n: a for n, a in body.attributes.items() if n != "name"}
  children = {
    "inertial": get("body/inertial", False, True),
    "joint": get("body/joint", True, False),
  }
  if in_world:
    children["freejoint"] = get("body/freejoint", False, True)
  return ElementSpec(
    constants.BODY,
    constants.BODY,
    attributes,
    None,
    constants.BODY,
    None,
    repeated=True,
    children=children,
  )


def root():
  """Spec of <mujoco>."""
  return get(schema.ROOT)


@functools.cache
def findable_namespaces():
  """Namespaces `find`/`find_all` accept."""
  out = {constants.ATTACHMENT_FRAME}
  for key in schema.ELEMENTS:
    ns = get(key).namespace
    if ns:
      out.add(ns)
  return frozenset(out)
