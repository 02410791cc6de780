"""Attribute edits applied to a compiled model exactly as a recompilation would apply them.

Composer tasks change a few attributes of their MJCF before every episode (soccer draws a new
pitch size and moves its walls, goals, boards and lights) and dm_control recompiles the whole
model for that. A `ModelEditor` keeps the compiler's elements (their resolved attributes, class
defaults included) and applies such edits in place: the element's new attributes go through the
compiler's own code for that element (`compile_geom`, `compile_site`, ...; a moved or resized
geom's whole body, whose inertia its geoms give), the rows it produces are written, the bodies'
bounding-volume trees are rebuilt, and the qpos0 constants and statistics are recomputed
(mj_setConst). The result equals a recompilation, array for array.

An edit whose effects this does not redo (a site a tendon wraps sets the tendon's length range,
a fused static body's elements sit in its parent, a muscle's length range may come from a
simulation) or that the compiler would read otherwise (a partial array shorter than the one
given, completed from the class; a mesh geom) is refused: `apply` then returns False and changes
nothing, and the caller recompiles.
"""

from engine import enums
from engine import setconst
from engine import types as _types
from engine.compiler import build_bvh
from engine.compiler import build_tree as bt
from engine.compiler import schema
from engine.compiler.build_treearrays import sameframe
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_SDF
from engine.enums import mjWRAP_CYLINDER
from engine.enums import mjWRAP_SITE
from engine.enums import mjWRAP_SPHERE
from engine.errors import CompileError

# attributes an edit may change, by element kind
EDITABLE = {
  "geom": ("pos", "size", "fromto", "rgba"),
  "site": ("pos", "size", "fromto", "rgba"),
  "camera": ("fovy",),
  "light": ("pos", "dir"),
}
# attributes nothing else reads: editable wherever the element is
_LOCAL = ("rgba",)
_COMPILE = {
  "geom": bt.compile_geom,
  "site": bt.compile_site,
  "camera": bt.compile_camera,
  "light": bt.compile_light,
}


def compile_editable(xml=None, path=None, assets=None):
  """Compiles MJCF (text or file) into a ModelEditor (its `model` is the MjModel)."""
  model, elements = _types.load_with_elements(xml, path, assets)
  return ModelEditor(model, elements)


class ModelEditor:
  """A compiled model and the compiler's elements, for edits without recompiling.

  Attributes:
    model: the MjModel the edits change.
  """

  def __init__(self, model, elements):
    self.model = model
    self._ctx = elements["ctx"]
    self._lists = elements
    self._scratch = None  # MjData for mj_setConst
    self._referenced = _referenced_by_others(model)
    ctx = self._ctx
    extras = model._extras
    # fused static bodies' elements sit in their parents with poses no longer their own; muscle
    # length ranges and spring-dampers come from simulations or sums over the whole model
    self._frozen = bool(
      ctx.fusestatic
      or _has_length_ranges(model)
      or (extras.get("springdamper") is not None and extras["springdamper"].any())
    )
    # options under which a body's inertia is not its own geoms'
    self._inertia_fixed = bool(ctx.discardvisual or ctx.settotalmass > 0)

  def apply(self, edits) -> bool:
    """Applies [(kind, id, attribute, value)] (MJCF attribute values, arrays complete) as a
    recompilation would; False, with the model unchanged, for an edit that needs one."""
    changed = {}  # (kind, id): (element, [(attribute, value)])
    for kind, index, name, value in edits:
      obj = self._editable(kind, index, name, value)
      if obj is None:
        return False
      changed.setdefault((kind, index), (obj, []))[1].append((name, value))
    given = [(obj, dict(obj.node.attrs)) for obj, _ in changed.values()]
    # a geom's pose or size is its body's inertia (the world's geoms aside)
    bodies = {}
    for (kind, _), (obj, changes) in changed.items():
      if kind == "geom" and any(name not in _LOCAL for name, _ in changes):
        bodies[obj.body.id] = obj.body
    saved = [(obj, dict(obj.spec)) for obj, _ in changed.values()]
    saved_frames = {i: (b.ipos, b.iquat) for i, b in bodies.items()}
    for obj, changes in changed.values():
      for name, value in changes:
        obj.spec[name] = _complete(value, obj.spec[name])
        obj.node.attrs[name] = value
    if not self._recompile(changed, bodies, saved_frames):
      for (obj, spec), (_, attrs) in zip(saved, given):
        obj.spec, obj.node.attrs = spec, attrs
      self._recompile(changed, bodies, saved_frames)
      return False
    m = self.model
    for (kind, index), (obj, _) in changed.items():
      _write_rows(m, kind, index, obj)
    for b in bodies.values():
      _write_body(m, b)
    if bodies:
      self._rebuild_bvhs(bodies.values())
    if any(name not in _LOCAL for _, changes in changed.values() for name, _ in changes):
      if self._scratch is None:
        self._scratch = _types.MjData(m)
      setconst.recompute_constants(m, self._scratch)
    return True

  def _recompile(self, changed, bodies, frames):
    """Runs the compiler's code of the changed elements (of whole bodies where a geom moved);
    False where it raises (the recompilation raises it, located in the MJCF) or where the
    body's frame flags, and so the model's structure, would change."""
    ctx = self._ctx
    try:
      for b in bodies.values():
        bt.compile_inertial(ctx, b)
      for (kind, _), (obj, _) in changed.items():
        if not (kind == "geom" and obj.body.id in bodies):
          _COMPILE[kind](ctx, obj)
      bt.check_mass(self._lists)
    except CompileError:
      return False
    return all(sameframe(b.ipos, b.iquat) == sameframe(*frames[i]) for i, b in bodies.items() if i)

  def _editable(self, kind, index, name, value):
    """The compiler element of one edit, or None if the edit needs a recompilation."""
    if name not in EDITABLE.get(kind, ()):
      return None
    objs = self._lists[kind]
    if not 0 <= index < len(objs) or objs[index].node is None:
      return None
    obj = objs[index]
    aspec = schema.ELEMENTS[kind].attrs[name]
    if aspec.nmax in (None, -1):
      if not isinstance(value, float):
        return None
    elif not isinstance(value, tuple) or len(value) > aspec.nmax:
      return None
    elif len(value) < aspec.nmax and (
      obj.spec[name] is None or len(value) < len(obj.node.attrs.get(name, ()))
    ):
      return None  # the rest is the class's (read_attrs), which the spec no longer holds
    if name in _LOCAL:
      return obj
    body = obj.body
    if (
      self._frozen
      or (kind, index) in self._referenced
      or _enclosing_body(obj.node) is not body.node
      or getattr(body, "aligned", False)
    ):
      return None
    if kind == "geom" and (
      body.id and self._inertia_fixed or obj.spec.get("mesh") or obj.spec.get("hfield")
    ):
      return None
    if kind == "geom" and obj.type in _DATA_GEOMS:
      return None
    return obj

  def _rebuild_bvhs(self, bodies):
    """The hierarchies of the bodies' colliding geoms, rebuilt from their new boxes."""
    m = self.model
    bodies = list(bodies)
    for b, tree in zip(bodies, build_bvh.body_bvhs(bodies)):
      adr, num = int(m.body_bvhadr[b.id]), int(m.body_bvhnum[b.id])
      if len(tree.aabb) != num:  # the same geoms make the same number of nodes
        raise AssertionError(f"the hierarchy of body {b.id} changed size")
      if num:
        rows = slice(adr, adr + num)
        m.bvh_aabb[rows] = tree.aabb
        m.bvh_child[rows] = tree.child
        m.bvh_depth[rows] = tree.depth
        m.bvh_nodeid[rows] = tree.nodeid


_DATA_GEOMS = (mjGEOM_MESH, mjGEOM_SDF, mjGEOM_HFIELD)
_OBJ_KINDS = {enums.mjOBJ_SITE: "site", enums.mjOBJ_GEOM: "geom"}


def _enclosing_body(node):
  """The node of the body an element node sits in, frames in between (the world's is the root);
  an element whose compiled body has another node was fused into it."""
  parent = node.parent
  while parent is not None and parent.key not in ("body", "worldbody"):
    parent = parent.parent
  return parent.parent if parent is not None and parent.key == "worldbody" else parent


def _has_length_ranges(m):
  """Whether the compiler finds an actuator length range (mj_setLengthRange), possibly by
  simulating the model: an edit would not redo it."""
  mode = setconst.length_range_options(m)["mode"]
  return any(setconst.finds_length_range(m, i, mode) for i in range(m.nu))


def _referenced_by_others(m):
  """(kind, id) of geoms and sites whose pose other elements read when compiled: tendon wraps
  (and their side sites) and equality constraints."""
  found = set()
  for kind, objid, prm in zip(m.wrap_type, m.wrap_objid, m.wrap_prm):
    if kind in (mjWRAP_SPHERE, mjWRAP_CYLINDER):
      found.add(("geom", int(objid)))
      if prm >= 0:  # its side site
        found.add(("site", int(round(prm))))
    elif kind == mjWRAP_SITE:
      found.add(("site", int(objid)))
  for objtype, obj1, obj2 in zip(m.eq_objtype, m.eq_obj1id, m.eq_obj2id):
    kind = _OBJ_KINDS.get(int(objtype))
    if kind:
      found.update(((kind, int(obj1)), (kind, int(obj2))))
  return found


def _complete(value, current):
  """A partial array completed as read_attrs does, from the class's values that `current` (the
  resolved attribute, given values no longer than `value`) ends with."""
  if isinstance(value, tuple) and len(value) < len(current):
    return value + tuple(current[len(value) :])
  return value


def _write_body(m, b):
  """A recompiled body's inertia rows and its elements' frame flags."""
  i = b.id
  m.body_ipos[i] = b.ipos
  m.body_iquat[i] = b.iquat
  m.body_mass[i] = b.mass
  m.body_inertia[i] = b.inertia
  for g in b.geoms:
    _write_rows(m, "geom", g.id, g)
  for s in b.sites:
    m.site_sameframe[s.id] = sameframe(s.pos, s.quat, b.ipos, b.iquat)


def _write_rows(m, kind, i, obj):
  """The model rows of one recompiled element (what build_treearrays makes of it)."""
  if kind == "geom":
    m.geom_pos[i] = obj.pos
    m.geom_quat[i] = obj.quat
    m.geom_size[i] = obj.size
    m.geom_aabb[i] = obj.aabb
    m.geom_rbound[i] = bt.geom_rbound(obj)
    m.geom_sameframe[i] = sameframe(obj.pos, obj.quat, obj.body.ipos, obj.body.iquat)
    m.geom_fluid[i] = obj.fluid
    m.geom_rgba[i] = obj.spec["rgba"]
  elif kind == "site":
    m.site_pos[i] = obj.pos
    m.site_quat[i] = obj.quat
    m.site_size[i] = obj.size
    m.site_sameframe[i] = sameframe(obj.pos, obj.quat, obj.body.ipos, obj.body.iquat)
    m.site_rgba[i] = obj.spec["rgba"]
  elif kind == "camera":
    m.cam_fovy[i] = obj.fovy
    m.cam_sensorsize[i] = obj.sensorsize
    m.cam_intrinsic[i] = obj.intrinsic
  else:
    m.light_pos[i] = obj.pos
    m.light_dir[i] = obj.dir
