"""Helpers that walk the object model: attachment frames, free joints, committing defaults."""

from mjcf import constants

# element tag -> tag of its default settings inside a <default> class
_DEFAULT_TAG = {
  "spatial": "tendon",
  "fixed": "tendon",
  "connect": "equality",
  "weld": "equality",
}

# Actuator kinds. In MuJoCo every actuator element of a default class writes the class's one
# actuator default, so an actuator takes the attributes all actuator kinds share (ctrlrange,
# forcerange, gear, ...: those of <general>) from any of them; a kind's own parameters (kp, kv,
# area, gain, ...) are only taken from its own kind, since MuJoCo's shortcuts reset them. When
# several kinds of one class set a shared attribute, the first in dm_control's order wins (its
# six kinds, then the others).
_ACTUATOR_TAGS = (
  "general",
  "motor",
  "position",
  "velocity",
  "cylinder",
  "muscle",
  "intvelocity",
  "damper",
  "adhesion",
)


def get_freejoint(element):
  """The free joint of a body (a <freejoint> or a joint of type 'free'), or None."""
  if element is None or element.tag != constants.BODY:
    return None
  free = element.get_children("freejoint") if "freejoint" in element.spec.children else None
  if free is not None:
    return free
  for joint in element.find_all("joint", immediate_children_only=True):
    if joint.tag == "joint" and joint.type == "free":
      return joint
  return None


def get_attachment_frame(mjcf_model):
  """The frame `mjcf_model` is attached with in its parent model (None if not attached)."""
  parent = mjcf_model.parent_model
  if parent is None:
    return None
  return parent.find(constants.ATTACHMENT_FRAME, mjcf_model.model)


def get_frame_freejoint(mjcf_model):
  """The free joint of `mjcf_model`'s attachment frame, or None."""
  return get_freejoint(get_attachment_frame(mjcf_model))


def get_frame_joints(mjcf_model):
  """The joints of `mjcf_model`'s attachment frame (None if the model is not attached)."""
  frame = get_attachment_frame(mjcf_model)
  if frame is None:
    return None
  return frame.find_all("joint", immediate_children_only=True)


def _default_class(element):
  """The <default> element whose settings apply to `element` (explicit, childclass, global)."""
  root = element.root
  dclass = element.get_attributes().get(constants.DCLASS)
  if dclass is not None:
    if not isinstance(dclass, str):
      return dclass
    found = root.find(constants.DEFAULT, dclass)
    if found is None:
      raise ValueError(
        f"{element}: default class {dclass!r} does not exist in model {root.model!r}"
      )
    return found
  parent = element.parent
  while parent is not None:
    if constants.CHILDCLASS in parent.spec.attributes:
      childclass = parent.get_attributes().get(constants.CHILDCLASS)
      if childclass is not None:
        if not isinstance(childclass, str):
          return childclass
        return root.find(constants.DEFAULT, childclass)
    parent = parent.parent
  return root.default


# Attributes of which an element uses one: set on the element (or by a closer class), it
# replaces any other of its group from defaults (MuJoCo's rule), so those are not committed.
_ALTERNATIVES = (
  frozenset({"quat", "axisangle", "xyaxes", "zaxis", "euler"}),
  frozenset({"fovy", "sensorsize"}),
)


def _replaced(name, current):
  """Whether `name` is one of a group of alternatives of which `current` already has one."""
  return any(name in group and not group.isdisjoint(current) for group in _ALTERNATIVES)


def _shared_actuator_attributes(dclass):
  """Attributes every actuator kind takes from the class's actuator default (<general>'s)."""
  return dclass.spec.children["general"].attributes


def commit_defaults(element, attributes=None):
  """Writes the values `element` and its descendants get from default classes into them.

  Afterwards the elements carry those values explicitly, so they no longer depend on their
  classes (useful before moving them to another model).

  Args:
    element: where to start; every descendant (attached models included) is processed.
    attributes: only commit these attribute names (default: all).
  """
  stack = [element]
  while stack:
    el = stack.pop()
    stack.extend(reversed(el.all_children()))
    if constants.CLASS not in el.spec.attributes or el.tag == constants.DEFAULT:
      continue
    if el.tag in _ACTUATOR_TAGS and el.parent is not None and el.parent.tag == "actuator":
      tags = _ACTUATOR_TAGS
    elif el.parent is not None and el.parent.tag == "equality":
      tags = ("equality",)
    else:
      tags = (_DEFAULT_TAG.get(el.tag, el.tag),)
    dclass = _default_class(el)
    current = el.get_attributes()
    while dclass is not None and dclass.tag == constants.DEFAULT:
      for tag in tags:
        if tag not in dclass.spec.children:
          continue
        settings = dclass.get_children(tag)
        shared_only = tag != el.tag and tag in _ACTUATOR_TAGS
        for name, value in settings.get_attributes().items():
          if attributes is not None and name not in attributes:
            continue
          if shared_only and name not in _shared_actuator_attributes(dclass):
            continue
          if name in el.spec.attributes and name not in current and not _replaced(name, current):
            setattr(el, name, value)
            current[name] = value
      dclass = dclass.parent
