"""What changed in an mjcf model since it was compiled, as edits the engine can apply in place.

Every attribute assignment, and every hand-out of a stored array (which the caller may change
in place), stamps the element with a serial number (element.py). An EditTracker remembers the
tree's revision, the last serial and the bytes of the arrays handed out when the model was
compiled; later it lists the attributes set since, or changed in place, as
`engine.compiler.edit` edits: (kind, compiled id, attribute, value). A change of the tree itself
(an element added, removed, renamed, attached) or of an attribute the engine cannot edit in place
means a recompilation.
"""

import numpy as np

from engine import enums
from engine import support
from engine.compiler import edit as engine_edit
from mjcf import element as element_mod

# element namespaces an edit may change (default classes have none), with their mjtObj
_KINDS = {
  "geom": enums.mjOBJ_GEOM,
  "site": enums.mjOBJ_SITE,
  "camera": enums.mjOBJ_CAMERA,
  "light": enums.mjOBJ_LIGHT,
}


class EditTracker:
  """The attributes of one model changed since `snapshot()` (call it after each compilation or
  applied edit)."""

  def __init__(self, mjcf_model):
    self.mjcf_model = mjcf_model
    self._revisions = None  # [(scope, tree revision)] of the models in the tree
    self._elements = []
    self._ids = {}  # kind: {full identifier: compiled id}

  def snapshot(self):
    """Marks the model's current attributes as the compiled ones."""
    if not self._same_tree():
      self._elements = _all_elements(self.mjcf_model)
      scopes = {id(el._root._namescope): el._root._namescope for el in self._elements}
      self._revisions = [(scope, scope.tree_revision) for scope in scopes.values()]
      self._ids = {}
    self._serial = next(element_mod._edit_serial)
    self._arrays = {
      (id(el), name): value.tobytes()
      for el in self._elements
      if el._edits
      for name, value in el._store().items()
      if name in el._edits and isinstance(value, np.ndarray)
    }

  def edits(self, model):
    """[(kind, id, attribute, value)] for `engine.compiler.edit` of the changes since the
    snapshot, ids those of the compiled `model`; None if they need a recompilation."""
    if not self._same_tree():
      return None
    out = []
    serial, arrays = self._serial, self._arrays
    for el in self._elements:
      if not el._edits:
        continue
      store = el._store()
      for name, stamp in el._edits.items():
        value = store.get(name)
        old = arrays.get((id(el), name))
        if old is not None and isinstance(value, np.ndarray):
          if old == value.tobytes():  # unchanged, even if set or handed out since
            continue
        elif stamp < serial:
          continue
        change = self._edit(model, el, name, value)
        if change is None:
          return None
        out.append(change)
    return out

  def _same_tree(self):
    """Whether no element was added, removed, renamed, attached or detached since."""
    return self._revisions is not None and all(
      scope.tree_revision == revision for scope, revision in self._revisions
    )

  def _edit(self, model, el, name, value):
    kind = el._spec.namespace
    if kind not in _KINDS or name not in engine_edit.EDITABLE[kind] or value is None:
      return None
    ids = self._ids.get(kind)
    if ids is None:
      objtype = _KINDS[kind]
      count = getattr(model, {"camera": "ncam"}.get(kind, "n" + kind))
      ids = {support.mj_id2name(model, objtype, i): i for i in range(count)}
      self._ids[kind] = ids
    index = ids.get(el.full_identifier)
    if index is None:
      return None
    if isinstance(value, np.ndarray):
      value = tuple(value.tolist())
    else:
      value = float(value)
    return (kind, index, name, value)


def _all_elements(root):
  """Every element of a model and of the models attached to it (through their frames)."""
  out = []
  stack = [root]
  while stack:
    el = stack.pop()
    out.append(el)
    stack.extend(el._children)
    attached = getattr(el, "_attachment", None)  # an attachment frame's model
    if attached is not None:
      stack.append(attached)
  return out
