"""Spec dicts: every attribute of an element kind with its current value, and reading XML over one.

A spec starts as the schema defaults of its element kind (`template`); typed XML attributes are
then read over it (`read_attrs`). Default classes (defaults.py), actuator shortcuts
(actuator_spec.py), the kinematic tree (build_tree.py) and the model settings (build.py) all work
on specs, so these helpers sit below all of them and import nothing but the schema.
"""

from engine.compiler import schema

# orientation attributes, the default form first
ORIENT_ATTRS = ("quat", "axisangle", "xyaxes", "zaxis", "euler")


def template(key):
  """Spec dict of schema defaults for element `key` (id/class attributes excluded)."""
  return {
    name: a.default
    for name, a in schema.ELEMENTS[key].attrs.items()
    if a.kind != "id" and name != "class"
  }


def read_attrs(spec, node_key, attrs):
  """Reads typed XML attributes over a spec dict (in place), completing partial arrays.

  An orientation given here replaces any other orientation form the spec held (a class's euler
  does not survive an element's quat).
  """
  elem_attrs = schema.ELEMENTS[node_key].attrs
  for name in ORIENT_ATTRS:
    if name in attrs and "quat" in spec:
      for other in ORIENT_ATTRS:
        spec[other] = (1.0, 0.0, 0.0, 0.0) if other == "quat" else None
      break
  for name, value in attrs.items():
    attr = elem_attrs[name]
    old = spec.get(name)
    if isinstance(value, tuple) and attr.nmax not in (None, -1) and len(value) < attr.nmax:
      if name == "springlength" and len(value) == 1:
        value = (value[0], value[0])
      elif isinstance(old, tuple) and len(old) == attr.nmax:
        value = value + tuple(old[len(value) :])
      else:
        value = value + (0.0,) * (attr.nmax - len(value))
    spec[name] = value
