"""Parsed MJCF tree -> MjModel sizes, arrays and options (plain numpy; no MjModel objects).

Follows mjCModel::TryCompile (user_model.cc): settings, defaults, assets, kinematic tree (with
fusestatic), non-tree elements, names, then the arrays of CopyTree / CopyObjects and the
topology part of mj_setConst (subtree masses, trees, sleep policy). Quantities mj_setConst
computes from a forward pass at qpos0 (invweight0, length0, acc0, dof_M0, stat, cam/light *0,
lengthrange by simulation, springdamper) are left to engine/setconst.py.
"""

import dataclasses
import math
import warnings

import numpy as np

from engine.compiler import build_actuator
from engine.compiler import build_assets
from engine.compiler import build_bvh
from engine.compiler import build_composite
from engine.compiler import build_fuse
from engine.compiler import build_math as bm
from engine.compiler import build_misc
from engine.compiler import build_plugin
from engine.compiler import build_replicate
from engine.compiler import build_sensor
from engine.compiler import build_skin
from engine.compiler import build_tendon
from engine.compiler import build_tree as bt
from engine.compiler import build_treearrays
from engine.compiler import defaults as dmod
from engine.compiler import parse as pmod
from engine.compiler import specs
from engine.compiler.build_common import arr as _arr
from engine.compiler.parse import deep_recursion
from engine.enums import mjEQ_CONNECT
from engine.enums import mjEQ_WELD
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjMINVAL
from engine.enums import mjNDISABLE
from engine.enums import mjNENABLE
from engine.enums import mjOBJ_BODY
from engine.enums import mjOBJ_GEOM
from engine.enums import mjOBJ_XBODY
from engine.enums import mjSLEEP_ALLOWED
from engine.enums import mjSLEEP_AUTO
from engine.enums import mjSLEEP_AUTO_ALLOWED
from engine.enums import mjSLEEP_AUTO_NEVER
from engine.enums import mjSLEEP_INIT
from engine.enums import mjtDisableBit
from engine.enums import mjtEnableBit
from engine.enums import mjTRN_BODY
from engine.enums import mjTRN_JOINT
from engine.enums import mjTRN_JOINTINPARENT
from engine.enums import mjTRN_SITE
from engine.enums import mjTRN_SLIDERCRANK
from engine.enums import mjTRN_SO3
from engine.enums import mjTRN_TENDON
from engine.enums import mjWRAP_CYLINDER
from engine.enums import mjWRAP_JOINT
from engine.enums import mjWRAP_SITE
from engine.enums import mjWRAP_SPHERE
from engine.errors import CompileError
from engine.errors import UnsupportedError

# slots per name in each names_map hash table (engine_io.h, not part of MuJoCo's public API)
mjLOAD_MULTIPLE = 2

# mjtObj values of the named object lists, in MuJoCo's names order
NAME_LISTS = (
  ("body", "name_bodyadr"),
  ("joint", "name_jntadr"),
  ("geom", "name_geomadr"),
  ("site", "name_siteadr"),
  ("camera", "name_camadr"),
  ("light", "name_lightadr"),
  ("flex", "name_flexadr"),
  ("mesh", "name_meshadr"),
  ("skin", "name_skinadr"),
  ("hfield", "name_hfieldadr"),
  ("texture", "name_texadr"),
  ("material", "name_matadr"),
  ("pair", "name_pairadr"),
  ("exclude", "name_excludeadr"),
  ("equality", "name_eqadr"),
  ("tendon", "name_tendonadr"),
  ("actuator", "name_actuatoradr"),
  ("sensor", "name_sensoradr"),
  ("numeric", "name_numericadr"),
  ("text", "name_textadr"),
  ("tuple", "name_tupleadr"),
  ("key", "name_keyadr"),
  ("plugin", "name_pluginadr"),
)


@dataclasses.dataclass
class CompiledModel:
  """Result of compile_model.

  Attributes:
    sizes: MjModel sizes (nq, nv, nbody, ...), named as mujoco.MjModel.
    arrays: MjModel arrays by field name, with MuJoCo's dtype and shape ('S' fields as bytes).
    opt: every MjOption field.
    vis: <visual> settings: {'global': {...}, 'quality': ..., 'headlight', 'map', 'scale',
      'rgba'}, defaults filled in.
    stat_user: <statistic> attributes the user gave (meaninertia, meanmass, meansize, extent,
      center).
    compiler: what mj_setConst still needs: 'lengthrange' (<compiler><lengthrange> options),
      'springdamper' ((njnt, 2) timeconst and dampratio per joint, zero if unused; MuJoCo
      turns them into jnt_stiffness and dof_damping after setConst), 'settotalmass'.
    plugin_names: the plugin of each plugin instance (bound to the registry at load).
    elements: with keep_elements, the compiler's element lists by kind and its context under
      "ctx" (what edit.ModelEditor re-runs); otherwise None.
  """

  sizes: dict
  arrays: dict
  opt: dict
  vis: dict
  stat_user: dict
  compiler: dict
  plugin_names: list = dataclasses.field(default_factory=list)
  elements: dict | None = None


class Ctx:
  """Compilation state shared by the build_* modules."""

  Unsupported = UnsupportedError

  def __init__(self, root, model_dir, assets):
    self.root = root
    self.model_dir = model_dir
    self.asset_files = assets or {}
    self.names = {}

  def lookup(self, kind, name, node, attr):
    """Object of namespace `kind` named `name`; error at node/attr if unknown."""
    obj = self.names.get(kind, {}).get(name)
    if obj is None:
      raise node.error(f"unknown {kind} '{name}'", attr)
    return obj


# ---------------------------------------------------------------- settings


def _sections(root, tag):
  return [c for c in root.children if c.tag == tag]


def _settings(ctx, root):
  """<compiler>, <option>, <size>, <visual>, <statistic>."""
  comp = specs.template("compiler")
  lr = specs.template("compiler/lengthrange")
  for c in _sections(root, "compiler"):
    if c.attrs.get("coordinate") == 1:
      raise c.error("global coordinates are no longer supported", "coordinate")
    if "passthrough" in c.attrs:
      raise c.error(
        "compiler attribute 'passthrough' is not supported", "passthrough", cls=UnsupportedError
      )
    if "assetdir" in c.attrs:
      comp["meshdir"] = comp["texturedir"] = c.attrs["assetdir"]
    specs.read_attrs(comp, "compiler", c.attrs)
    for sub in c.children:
      specs.read_attrs(lr, "compiler/lengthrange", sub.attrs)
    seq = c.attrs.get("eulerseq")
    if seq is not None and (len(seq) != 3 or any(ch not in "xyzXYZ" for ch in seq)):
      raise c.error("euler sequence must have 3 characters from 'xyzXYZ'", "eulerseq")
  ctx.comp = comp
  ctx.lengthrange = lr
  ctx.degree = comp["angle"] == 1
  ctx.eulerseq = comp["eulerseq"]
  for key in (
    "autolimits",
    "boundmass",
    "boundinertia",
    "balanceinertia",
    "settotalmass",
    "fusestatic",
    "discardvisual",
    "fitaabb",
    "alignfree",
    "strippath",
  ):
    setattr(ctx, key, comp[key])
  if comp["settotalmass"] > 0:
    warnings.warn(
      "compiler attribute 'settotalmass' is deprecated in MuJoCo: scale the masses "
      "and densities in the model instead",
      DeprecationWarning,
      stacklevel=3,
    )
  ctx.inertiafromgeom = comp["inertiafromgeom"]
  ctx.inertiagrouprange = comp["inertiagrouprange"]
  ctx.meshdir = comp["meshdir"] or ""
  ctx.texturedir = comp["texturedir"] or ""

  # option
  opt = specs.template("option")
  disable = enable = disableact = 0
  for o in _sections(root, "option"):
    specs.read_attrs(
      opt, "option", {k: v for k, v in o.attrs.items() if k != "actuatorgroupdisable"}
    )
    for g in o.attrs.get("actuatorgroupdisable", ()):
      if g < 0:
        raise o.error("disabled actuator group value must be non-negative", "actuatorgroupdisable")
      if g > 30:
        raise o.error("disabled actuator group value cannot exceed 30", "actuatorgroupdisable")
      disableact |= 1 << g
    for fl in o.children:
      for k, v in fl.attrs.items():
        if k == "ipc" and v:
          # MuJoCo requires integrator="discrete" and the CG solver for it
          raise fl.error("the ipc flag is not supported", "ipc", cls=UnsupportedError)
        if k in _ENABLE_BITS:
          bit = _ENABLE_BITS[k]
          enable = (enable | bit) if v else (enable & ~bit)
        else:
          bit = _DISABLE_BITS[k]
          disable = (disable & ~bit) if v else (disable | bit)
  opt.pop("actuatorgroupdisable", None)
  opt["disableflags"] = disable
  opt["enableflags"] = enable
  opt["disableactuator"] = disableact
  ctx.opt = opt

  # size
  size = specs.template("size")
  for s in _sections(root, "size"):
    specs.read_attrs(size, "size", s.attrs)
    if "memory" in s.attrs:
      size["memory"] = _parse_memory(s, s.attrs["memory"])
      if "nstack" in s.attrs:
        raise s.error("attributes memory and nstack cannot both be specified", "nstack")
    for k in ("njmax", "nconmax", "nstack", "nuserdata", "nkey"):
      if k in s.attrs and s.attrs[k] < -1:
        raise s.error(f"{k} must be >= -1", k)
  ctx.size = size

  # visual
  vis = {}
  for sub in ("global", "quality", "headlight", "map", "scale", "rgba"):
    vis[sub] = specs.template("visual/" + sub)
  for v in _sections(root, "visual"):
    for sub in v.children:
      specs.read_attrs(vis[sub.tag], sub.key, sub.attrs)
  ctx.vis = vis

  # statistic
  stat = {}
  for st in _sections(root, "statistic"):
    stat.update(st.attrs)
    if "meaninertia" in st.attrs:
      warnings.warn(
        "statistic attribute 'meaninertia' is deprecated in MuJoCo (it no longer "
        "changes the simulation)",
        DeprecationWarning,
        stacklevel=3,
      )
  if "extent" in stat and stat["extent"] <= 0:
    raise _sections(root, "statistic")[-1].error("extent must be strictly positive", "extent")
  ctx.stat_user = {k: (list(v) if isinstance(v, tuple) else v) for k, v in stat.items()}


# <option><flag> attribute -> bit: the mjtDisableBit / mjtEnableBit member names in lower case
_DISABLE_BITS = {m.name[len("mjDSBL_") :].lower(): int(m) for m in mjtDisableBit if m != mjNDISABLE}
_ENABLE_BITS = {m.name[len("mjENBL_") :].lower(): int(m) for m in mjtEnableBit if m != mjNENABLE}


def _parse_memory(node, text):
  """<size memory="16M">: bytes, with an optional K/M/G/T/P/E suffix."""
  t = text.strip()
  if t == "-1":
    return -1
  mult = 0
  if t and t[-1] in "KkMmGgTtPpEe":
    mult = 10 * ("kmgtpe".index(t[-1].lower()) + 1)
    t = t[:-1]
  if not t.isdigit():
    raise node.error(
      "unsigned integer with an optional suffix {K,M,G,T,P,E} is expected in attribute 'memory'",
      "memory",
    )
  return int(t) << mult


# ---------------------------------------------------------------- helpers


# value checks MuJoCo's XML reader makes, in elements and default classes alike:
# (element keys, attribute) -> (valid value test, message)
_VALUE_CHECKS = {
  (("asset/mesh", "default/mesh"), "maxhullvert"): (
    lambda v: v == -1 or v > 3,
    "maxhullvert must be larger than 3",
  ),
  (("visual/global",), "realtime"): (lambda v: v > 0, "realtime must be greater than 0"),
  (("visual/map",), "znear"): (lambda v: v > 0, "znear must be strictly positive"),
}


def _check_supported(node):
  """First element the engine cannot simulate yet raises UnsupportedError; value checks."""
  if not node.spec.supported:
    raise node.error(f"element '{node.tag}' is not supported yet", cls=UnsupportedError)
  for (keys, attr), (ok, msg) in _VALUE_CHECKS.items():
    if node.key in keys and attr in node.attrs and not ok(node.attrs[attr]):
      raise node.error(msg, attr)
  for c in node.children:
    _check_supported(c)


def _register(ctx, kind, objs):
  """Assigns ids and the name map of one object list; repeated names are errors."""
  names = {}
  for i, o in enumerate(objs):
    o.id = i
    if o.name:
      if o.name in names:
        raise (
          o.node.error(f"repeated name '{o.name}' in {kind}", "name")
          if o.node
          else CompileError(f"repeated name '{o.name}' in {kind}")
        )
      names[o.name] = o
  ctx.names[kind] = names


def _hash(name, n):
  """Port of mj_hashString (djb2 with xor), engine_name.c."""
  h = 5381
  for b in name.encode():
    c = b - 256 if b > 127 else b
    h = (((h << 5) + h) ^ (c & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
  return h % n


def _names(modelname, lists):
  """names buffer, name_*adr arrays and the names_map hash table (CopyNames)."""
  buf = bytearray(modelname.encode() + b"\0")
  adrs = {}
  total = sum(len(lists.get(kind, ())) for kind, _ in NAME_LISTS)
  names_map = np.full(mjLOAD_MULTIPLE * total, -1, np.int32)
  offset = 0
  for kind, field in NAME_LISTS:
    objs = lists.get(kind, ())
    size = mjLOAD_MULTIPLE * len(objs)
    for i, o in enumerate(objs):
      if not o.name:
        continue
      j = _hash(o.name, size)
      while names_map[offset + j] != -1:
        j = (j + 1) % size
      names_map[offset + j] = i
    adr = []
    for o in objs:
      adr.append(len(buf))
      buf += o.name.encode() + b"\0"
    adrs[field] = np.array(adr, np.int32)
    offset += size
  return bytes(buf), adrs, names_map


# ---------------------------------------------------------------- main entry


def compile_model(xml=None, path=None, assets=None, keep_elements=False):
  """Compiles MJCF (text or file) into sizes, arrays and options; see CompiledModel."""
  with deep_recursion():
    return _compile_model(xml, path, assets, keep_elements)


def _compile_model(xml, path, assets, keep_elements):
  root, model_dir = pmod.parse(xml=xml, path=path, assets=assets)
  _check_supported(root)
  ctx = Ctx(root, model_dir, assets)
  _settings(ctx, root)
  ctx.defaults = dmod.Defaults(root)
  ctx.assets = build_assets.Assets(ctx, root)

  # kinematic tree (replicates expanded into frames, composites into bodies first)
  for wb in root.find("worldbody"):
    build_replicate.expand(wb, ctx.degree, ctx.eulerseq)
  build_composite.expand(ctx, root)
  tb = bt.TreeBuilder(ctx)
  world = tb.build(root)
  lists = bt.make_lists(world)

  # elements outside the tree, in document order
  lists["tendon"] = build_tendon.make(ctx, root)
  lists["actuator"] = build_actuator.make(ctx, root)
  lists["sensor"] = build_sensor.make(ctx, root)
  misc = build_misc.make(ctx, root)
  lists.update(misc)
  lists.update(ctx.assets.lists())
  lists["skin"] = build_skin.make(ctx, root)
  lists["plugin"] = build_plugin.make(ctx, root, lists)

  # ids, names, user sizes
  for kind in (
    "body",
    "joint",
    "geom",
    "site",
    "camera",
    "light",
    "tendon",
    "actuator",
    "sensor",
    "equality",
    "pair",
    "exclude",
    "numeric",
    "text",
    "tuple",
    "key",
    "mesh",
    "hfield",
    "texture",
    "material",
    "skin",
  ):
    _register(ctx, kind, lists.get(kind, []))
  _set_nuser(ctx, lists)

  # compile meshes, the tree, fuse static bodies
  ctx.assets.prepare_meshes(lists["geom"], lists.get("pair", []))
  bt.compile_tree(ctx, lists)
  if ctx.fusestatic:
    referenced = _referenced_bodies(ctx, root, lists)
    build_fuse.fuse_static(ctx, lists, referenced)
    _register(ctx, "body", lists["body"])
    for kind in ("joint", "geom", "site", "camera", "light"):
      _register(ctx, kind, lists[kind])

  if ctx.discardvisual:
    _discard_visual(ctx, root, lists)

  # compile everything else
  ctx.assets.compile()
  build_misc.compile_pairs(ctx, lists)
  build_misc.compile_equality(ctx, lists)
  build_tendon.compile_all(ctx, lists)
  build_actuator.compile_all(ctx, lists)
  build_sensor.compile_all(ctx, lists)
  build_misc.compile_custom(ctx, lists)
  build_skin.compile_all(ctx, lists["skin"])
  for cam in lists["camera"]:
    cam.targetbodyid = ctx.lookup("body", cam.target, cam.node, "target").id if cam.target else -1
  for li in lists["light"]:
    li.targetbodyid = ctx.lookup("body", li.target, li.node, "target").id if li.target else -1
    tex = li.spec.get("texture")
    li.texid = ctx.lookup("texture", tex, li.node, "texture").id if tex else -1
  bt.check_mass(lists)

  sizes, arrays = {}, {}
  build_treearrays.tree_arrays(ctx, lists, sizes, arrays)
  ctx.assets.arrays(sizes, arrays, lists["skin"])
  build_skin.arrays(lists["skin"], sizes, arrays)
  build_bvh.arrays(lists["body"], [m.info for m in ctx.assets.meshes], sizes, arrays)
  build_misc.arrays(ctx, lists, sizes, arrays)
  build_tendon.arrays(ctx, lists, sizes, arrays)
  build_actuator.arrays(ctx, lists, sizes, arrays)
  build_sensor.arrays(ctx, lists, sizes, arrays)
  plugin_names = build_plugin.arrays(ctx, lists, sizes, arrays)
  _keyframes(ctx, lists, sizes, arrays)
  _finalize(ctx, lists, sizes, arrays)

  modelname = root.attrs.get("model", "MuJoCo Model")
  names, adrs, names_map = _names(modelname, lists)
  arrays["names"] = names
  arrays.update(adrs)
  arrays["names_map"] = names_map
  sizes["nnames"] = len(names)
  sizes["nnames_map"] = len(names_map)

  opt = {k: (np.array(v, np.float64) if isinstance(v, tuple) else v) for k, v in ctx.opt.items()}
  vis = {k: dict(v) for k, v in ctx.vis.items()}
  compiler = {
    "lengthrange": dict(ctx.lengthrange),
    "settotalmass": ctx.settotalmass,
    "springdamper": np.array([j.spec["springdamper"] for j in lists["joint"]], np.float64).reshape(
      -1, 2
    ),
  }
  elements = dict(lists, ctx=ctx) if keep_elements else None
  return CompiledModel(sizes, arrays, opt, vis, ctx.stat_user, compiler, plugin_names, elements)


def _discard_visual(ctx, root, lists):
  """compiler discardvisual: drop visual geoms and the meshes only they use (IndexAssets).

  Visual geoms (contype = conaffinity = 0) that no pair, tendon, sensor or tuple names are
  removed after the bodies' inertias were computed with them; materials and textures were
  already dropped (Assets). Meshes used by no remaining geom are removed too.
  """
  named = set()

  def visit(n):
    if n.key == "contact/pair":
      named.update((n.attrs.get("geom1"), n.attrs.get("geom2")))
    elif n.key == "tendon/spatial/geom":
      named.add(n.attrs.get("geom"))
    elif n.key.startswith("sensor/"):
      for a in ("geom1", "geom2", "geom"):
        named.add(n.attrs.get(a))
      if n.attrs.get("objtype") == mjOBJ_GEOM:
        named.add(n.attrs.get("objname"))
      if n.attrs.get("reftype") == mjOBJ_GEOM:
        named.add(n.attrs.get("refname"))
    elif n.key == "custom/tuple/element" and n.attrs.get("objtype") == "geom":
      named.add(n.attrs.get("objname"))
    for c in n.children:
      visit(c)

  visit(root)
  named.discard(None)
  for b in lists["body"]:
    b.geoms = [g for g in b.geoms if not g.visual or (g.name and g.name in named)]
  new = bt.make_lists(lists["body"][0])
  lists["geom"] = new["geom"]
  _register(ctx, "geom", lists["geom"])
  ctx.assets.discard_meshes(lists["geom"])
  lists["mesh"] = ctx.assets.meshes
  _register(ctx, "mesh", lists["mesh"])


def _set_nuser(ctx, lists):
  """nuser_*: from <size>, or the longest user array of that element type (SetNuser)."""
  ctx.nuser = {}
  for kind, lst in (
    ("body", "body"),
    ("jnt", "joint"),
    ("geom", "geom"),
    ("site", "site"),
    ("cam", "camera"),
    ("tendon", "tendon"),
    ("actuator", "actuator"),
    ("sensor", "sensor"),
  ):
    n = ctx.size["nuser_" + kind]
    if n == -1:
      n = 0
      for o in lists[lst]:
        user = (
          o.user
          if kind == "body" and o.node is not None and o.id > 0
          else (o.spec.get("user") if kind != "body" else ())
        )
        n = max(n, len(user or ()))
    ctx.nuser[kind] = n


def _referenced_bodies(ctx, root, lists):
  """Bodies named by other elements (cameras, lights, excludes, equalities, actuators, skin
  bones, ...).

  FuseStatic keeps a body whose name another element needs, and bodies holding sites used by
  force/torque sensors.
  """
  refs = set()
  body_refs = {
    ("camera", "target"),
    ("light", "target"),
    ("exclude", "body1"),
    ("exclude", "body2"),
    ("connect", "body1"),
    ("connect", "body2"),
    ("weld", "body1"),
    ("weld", "body2"),
    ("adhesion", "body"),
    ("general", "body"),
    ("subtreecom", "body"),
    ("subtreelinvel", "body"),
    ("subtreeangmom", "body"),
    ("distance", "body1"),
    ("distance", "body2"),
    ("normal", "body1"),
    ("normal", "body2"),
    ("fromto", "body1"),
    ("fromto", "body2"),
    ("contact", "body1"),
    ("contact", "body2"),
    ("contact", "subtree1"),
    ("contact", "subtree2"),
  }
  names = set()
  ftsites = set()

  def visit(n):
    for tag, attr in body_refs:
      if n.tag == tag and attr in n.attrs:
        names.add(n.attrs[attr])
    if n.key.startswith("sensor/frame") or n.key in ("sensor/insidesite", "sensor/user"):
      for t, nm in (("objtype", "objname"), ("reftype", "refname")):
        if n.attrs.get(t) in (mjOBJ_BODY, mjOBJ_XBODY, "body", "xbody"):
          names.add(n.attrs.get(nm))
    if n.key in ("sensor/force", "sensor/torque"):
      ftsites.add(n.attrs.get("site"))
    if n.key == "custom/tuple/element" and n.attrs.get("objtype") in ("body", "xbody"):
      names.add(n.attrs.get("objname"))
    for c in n.children:
      visit(c)

  visit(root)
  names.update(ctx.skin_bodynames)
  for b in lists["body"][1:]:
    if b.name and b.name in names:
      refs.add(b)
    if any(s.name in ftsites for s in b.sites if s.name):
      refs.add(b)
  return refs


def _keyframes(ctx, lists, sizes, arrays):
  """Keyframes with defaults for missing or trailing entries (ResolveKeyframes, CopyObjects)."""
  keys = lists["key"]
  nq, nv, nu, na, nmocap = (sizes["nq"], sizes["nv"], sizes["nu"], sizes["na"], sizes["nmocap"])
  qpos0 = arrays["qpos0"]
  bodies = lists["body"]
  mocap = [b for b in bodies if b.mocapid >= 0]
  mpos0 = [v for b in mocap for v in b.pos]
  mquat0 = [v for b in mocap for v in b.quat]
  rows = {k: [] for k in ("time", "qpos", "qvel", "act", "ctrl", "mpos", "mquat")}
  for k in keys:
    a = k.node.attrs if k.node is not None else {}
    for name, n, default in (
      ("qpos", nq, list(qpos0)),
      ("qvel", nv, [0.0] * nv),
      ("act", na, [0.0] * na),
      ("ctrl", nu, [0.0] * nu),
      ("mpos", 3 * nmocap, mpos0),
      ("mquat", 4 * nmocap, mquat0),
    ):
      v = a.get(name)
      if v is None:
        rows[name].append(list(default))
        continue
      if len(v) > n:
        raise k.node.error(f"invalid {name} size in keyframe, got {len(v)}, should be {n}", name)
      # a short vector overwrites the leading entries (whole bodies for mpos and mquat)
      size = 3 if name == "mpos" else 4 if name == "mquat" else 1
      given = len(v) - len(v) % size
      rows[name].append(list(v[:given]) + list(default[given:]))
    rows["time"].append(a.get("time", 0.0))

  # normalize quaternions
  joints = lists["joint"]
  for q in rows["qpos"]:
    for j in joints:
      if j.type in (mjJNT_FREE, mjJNT_BALL):
        adr = j.qposadr + (3 if j.type == mjJNT_FREE else 0)
        quat = q[adr : adr + 4]
        _normalize_quat(quat)
        q[adr : adr + 4] = quat
  for q in rows["mquat"]:
    for i in range(nmocap):
      quat = q[4 * i : 4 * i + 4]
      bm.normvec(quat)
      q[4 * i : 4 * i + 4] = quat
  nkey = len(keys)
  sizes["nkey"] = nkey
  _arr(arrays, "key_time", rows["time"])
  _arr(arrays, "key_qpos", rows["qpos"], (nkey, nq))
  _arr(arrays, "key_qvel", rows["qvel"], (nkey, nv))
  _arr(arrays, "key_act", rows["act"], (nkey, na))
  _arr(arrays, "key_ctrl", rows["ctrl"], (nkey, nu))
  _arr(arrays, "key_mpos", rows["mpos"], (nkey, 3 * nmocap))
  _arr(arrays, "key_mquat", rows["mquat"], (nkey, 4 * nmocap))


def _normalize_quat(quat):
  """mjuu_normvec then mju_normalize4 (identity when the norm is tiny)."""
  bm.normvec(quat)
  norm = math.sqrt(sum(v * v for v in quat))
  if norm < mjMINVAL:
    quat[:] = [1.0, 0.0, 0.0, 0.0]
  elif abs(norm - 1) > 1e-14:
    quat[:] = [v / norm for v in quat]


def _finalize(ctx, lists, sizes, arrays):
  """FinalizeSimple, nJmom, settotalmass, setFixed topology, remaining sizes."""
  nv = sizes["nv"]
  bodies = lists["body"]
  simple = list(arrays["body_simple"])
  tarm = arrays["tendon_armature"]
  for i in range(sizes["ntendon"]):
    if tarm[i] == 0:
      continue
    adr, num = arrays["tendon_adr"][i], arrays["tendon_num"][i]
    for j in range(adr, adr + num):
      objid = arrays["wrap_objid"][j]
      wt = arrays["wrap_type"][j]
      if wt == mjWRAP_SITE:
        simple[arrays["site_bodyid"][objid]] = 0
      elif wt in (mjWRAP_SPHERE, mjWRAP_CYLINDER):
        simple[arrays["geom_bodyid"][objid]] = 0
  _arr(arrays, "body_simple", simple)
  dof_bodyid = arrays["dof_bodyid"]
  simplenum = [0] * nv
  count = 0
  for i in range(nv - 1, -1, -1):
    count = count + 1 if simple[dof_bodyid[i]] else 0
    simplenum[i] = count
  _arr(arrays, "dof_simplenum", simplenum)

  # total mass
  if ctx.settotalmass > 0:
    mass = arrays["body_mass"]
    total = float(mass[1:].sum())
    scale = ctx.settotalmass / max(mjMINVAL, total)
    mass[1:] *= scale
    arrays["body_inertia"][1:] *= scale

  # subtree mass
  sub = arrays["body_mass"].copy()
  parent = arrays["body_parentid"]
  for i in range(len(bodies) - 1, 0, -1):
    sub[parent[i]] += sub[i]
  arrays["body_subtreemass"] = sub
  sizes["ngravcomp"] = int((arrays["body_gravcomp"] > 0).sum())

  # tendon trees and the compiler's automatic sleep policy (setFixed)
  build_tendon.tendon_trees(ctx, lists, sizes, arrays)
  sleep = list(ctx.tree_sleep)
  body_treeid = ctx.body_treeid

  def wake(tree):
    if tree != -1 and sleep[tree] == mjSLEEP_AUTO:
      sleep[tree] = mjSLEEP_AUTO_NEVER

  def wrap_tree(j):
    wt, objid = arrays["wrap_type"][j], arrays["wrap_objid"][j]
    if wt == mjWRAP_JOINT:
      return body_treeid[arrays["jnt_bodyid"][objid]]
    if wt == mjWRAP_SITE:
      return body_treeid[arrays["site_bodyid"][objid]]
    if wt in (mjWRAP_SPHERE, mjWRAP_CYLINDER):
      return body_treeid[arrays["geom_bodyid"][objid]]
    return -1

  for i in range(sizes["nactuator"]):
    trn = arrays["actuator_trntype"][i]
    tid = arrays["actuator_trnid"][i, 0]
    bodyid = -1
    if trn == mjTRN_SO3:
      trn = mjTRN_SITE if lists["actuator"][i].target.node.tag == "site" else mjTRN_JOINT
    if trn in (mjTRN_JOINT, mjTRN_JOINTINPARENT):
      bodyid = arrays["jnt_bodyid"][tid]
    elif trn in (mjTRN_SLIDERCRANK, mjTRN_SITE):
      bodyid = arrays["site_bodyid"][tid]
    elif trn == mjTRN_BODY:
      bodyid = tid
    elif trn == mjTRN_TENDON:
      adr, num = arrays["tendon_adr"][tid], arrays["tendon_num"][tid]
      for j in range(adr, adr + num):
        wake(wrap_tree(j))
      continue
    if bodyid != -1:
      wake(body_treeid[bodyid])
  for i in range(sizes["ntendon"]):
    treenum = arrays["tendon_treenum"][i]
    if treenum < 2:
      continue
    if treenum == 2 and arrays["tendon_stiffness"][i] == 0 and arrays["tendon_damping"][i] == 0:
      continue
    adr, num = arrays["tendon_adr"][i], arrays["tendon_num"][i]
    for j in range(adr, adr + num):
      t = wrap_tree(j)
      if t != -1:
        if sleep[t] == mjSLEEP_AUTO:
          sleep[t] = mjSLEEP_AUTO_NEVER
        elif sleep[t] in (mjSLEEP_ALLOWED, mjSLEEP_INIT):
          raise lists["tendon"][i].error(f"tree {t} connected to tendon {i}: sleeping not allowed")
  sleep = [mjSLEEP_AUTO_ALLOWED if s == mjSLEEP_AUTO else s for s in sleep]
  _arr(arrays, "tree_sleep_policy", sleep)

  # remaining sizes (features that raise UnsupportedError have none)
  for name in (
    "nflex",
    "nflexnode",
    "nflexvert",
    "nflexedge",
    "nflexelem",
    "nflexelemdata",
    "nflexstiffness",
    "nflexbending",
    "nefm0dof",
    "nefm0L",
    "nefmCvert",
    "nflexelemedge",
    "nflexshelldata",
    "nflextexcoord",
    "nJfe",
    "nJfv",
  ):
    sizes[name] = 0
  sizes["nemax"] = sum(
    3 if e.type == mjEQ_CONNECT else (7 if e.type == mjEQ_WELD else 1) for e in lists["equality"]
  )
  sizes["njmax"] = ctx.size["njmax"]
  sizes["nconmax"] = ctx.size["nconmax"]
  sizes["nuserdata"] = ctx.size["nuserdata"]
  sizes["nsensordata"] = sizes.get("nsensordata", 0)
  sizes["narena"] = _narena(ctx, sizes)


SIZEOF_CONTACT = 568  # bytes of MuJoCo 3.17's mjContact


def _narena(ctx, sizes):
  """Arena size in bytes (mjCModel::TryCompile's heuristic, rounded up to a megabyte)."""
  mem = ctx.size["memory"]
  if mem is not None and mem != -1:
    return int(mem)
  nconmax = 100 if ctx.size["nconmax"] == -1 else ctx.size["nconmax"]
  njmax = 500 if ctx.size["njmax"] == -1 else ctx.size["njmax"]
  nstack = ctx.size["nstack"]
  nv = sizes["nv"]
  if nstack != -1:
    narena = 8 * nstack
  else:
    n = njmax + sizes.get("neq", 0) + nv
    narena = 8 * max(
      1000,
      5 * n * n
      + 20
      * (
        sizes["nq"]
        + nv
        + sizes["nu"]
        + sizes["na"]
        + sizes["nbody"]
        + sizes["njnt"]
        + sizes["ngeom"]
        + sizes["nsite"]
        + sizes.get("neq", 0)
        + sizes.get("ntendon", 0)
        + sizes.get("nwrap", 0)
      ),
    )
  narena += (
    nconmax * SIZEOF_CONTACT
    + njmax * (8 * 4 + 14 * 8)
    + nv * (3 * 4)
    + njmax * nv * (2 * 4 + 2 * 8)
    + njmax * njmax * (4 + 8)
  )
  mb = 1 << 20
  return mb * (narena // mb + (1 if narena % mb else 0))
