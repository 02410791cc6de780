"""Default classes: <default> trees, class inheritance, `class` and `childclass` resolution.

A default class holds one "spec" dict per element kind (joint, geom, site, camera, light,
material, mesh, texture, pair, equality, tendon, actuator): every attribute of that kind with its
current value. A class starts as a copy of its parent's specs ("main" starts from the schema
defaults) and its <default> children are read over them, exactly as MuJoCo reads a default
element over the parent class's values. An element then starts from its class's spec and reads
its own attributes over it.

Reading is attribute-wise; arrays given with fewer values than they hold keep the remaining
values (friction="0.5" keeps the class's torsional and rolling friction). Actuator shortcuts
(<position kp=...>, ...) all edit the class's single actuator spec through
actuator_spec.read_actuator, as MuJoCo's actuator shortcuts do. Specs themselves (schema
templates, reading attributes) are specs.py's.
"""

from engine.compiler import schema
from engine.compiler.actuator_spec import read_actuator
from engine.compiler.specs import read_attrs
from engine.compiler.specs import template

# primary element whose attributes define each default slot
SLOT_SOURCE = {
  "joint": "body/joint",
  "geom": "geom",
  "site": "site",
  "camera": "camera",
  "light": "light",
  "pair": "contact/pair",
  "equality": "equality/weld",
  "tendon": "tendon/spatial",
  "mesh": "asset/mesh",
  "material": "asset/material",
  "texture": "asset/texture",
  "actuator": "actuator/general",
}

# element key -> default slot, for elements that take a class
ELEMENT_SLOT = {
  "body/joint": "joint",
  "geom": "geom",
  "site": "site",
  "camera": "camera",
  "light": "light",
  "contact/pair": "pair",
  "tendon/spatial": "tendon",
  "tendon/fixed": "tendon",
  "asset/mesh": "mesh",
  "asset/material": "material",
  "asset/texture": "texture",
  "equality/connect": "equality",
  "equality/weld": "equality",
  "equality/joint": "equality",
  "equality/tendon": "equality",
}
for _k in schema.ELEMENTS:
  if _k.startswith("actuator/") and _k != "actuator/plugin":
    ELEMENT_SLOT[_k] = "actuator"


class Defaults:
  """All default classes of a model.

  Attributes:
    classes: class name -> {slot: spec dict}.
    parent: class name -> parent class name (None for "main").
  """

  def __init__(self, root):
    main = {slot: template(src) for slot, src in SLOT_SOURCE.items()}
    self.classes = {"main": main}
    self.parent = {"main": None}
    self._lines = {}
    tops = root.find("default")
    for node in tops:
      if node.attrs.get("class", "main") != "main":
        raise node.error("top-level default class 'main' cannot be renamed", "class")
      self._fill("main", node)
      self._children(node, "main")

  def _add(self, node, parent):
    name = node.attrs.get("class")
    if name is None:
      raise node.error("nested default class must have a class name", "class")
    if name in self.classes:
      raise node.error(f"repeated default class name '{name}'", "class")
    self.classes[name] = {slot: dict(spec) for slot, spec in self.classes[parent].items()}
    self.parent[name] = parent
    self._fill(name, node)
    self._children(node, name)

  def _children(self, node, name):
    for c in node.children:
      if c.tag == "default":
        self._add(c, name)

  def _fill(self, name, node):
    specs = self.classes[name]
    for c in node.children:
      if c.tag == "default":
        continue
      slot = schema.DEFAULT_SLOT[c.key]
      if slot == "actuator":
        read_actuator(specs["actuator"], c, in_default=True)
      else:
        read_attrs(specs[slot], c.key, c.attrs)
        if slot == "material" and c.children:
          specs[slot]["_layers"] = tuple(
            (l.attrs.get("texture"), l.attrs["role"]) for l in c.children
          )

  def check_class(self, node, name, attr="class"):
    if name not in self.classes:
      raise node.error(f"unknown default class name '{name}'", attr)
    return name

  def class_of(self, node):
    """Class name of an element: its `class`, else the nearest enclosing childclass, or main."""
    if "class" in node.attrs:
      return self.check_class(node, node.attrs["class"])
    p = node.parent
    while p is not None:
      if p.key in ("body", "frame", "replicate") and "childclass" in p.attrs:
        return self.check_class(p, p.attrs["childclass"], "childclass")
      p = p.parent
    return "main"

  def spec(self, node, slot=None, classname=None):
    """Resolved attribute dict of an element: class spec with the element's attributes read over.

    Actuators are read through actuator_spec.read_actuator (shortcut semantics).
    """
    slot = slot or ELEMENT_SLOT[node.key]
    classname = classname or self.class_of(node)
    spec = dict(self.classes[classname][slot])
    if slot == "actuator":
      read_actuator(spec, node, in_default=False)
    else:
      read_attrs(spec, node.key, node.attrs)
    spec["class"] = classname
    return spec
