"""<composite type="cable">: a chain of capsule, cylinder or box bodies joined by ball joints.

Our reimplementation of what MuJoCo's XML reader and mjCComposite (user_composite.cc) build for a
cable, done on the parsed tree before the kinematic tree is built: the <composite> element is
replaced in place by nested <body> nodes (prefix + B_first, B_1, ..., B_last), each with one geom
(G0, G1, ...) from the origin along its x axis, a ball joint (J_first only for initial="ball",
free for initial="free", none for initial="none"), sites S_first / S_last at the two ends, an
<exclude> between neighbours (appended after the model's own excludes), a custom text
"composite_<prefix>" = "rope_<prefix>" and, with a <plugin> child, one plugin instance
("composite<prefix>" unless named) shared by every body. A cable of boxes also gets MuJoCo's
skin (`<prefix>Skin`, appended in a <deformable> section) that wraps the boxes as a ribbon.

As in MuJoCo, the composite's geom, site and joint start from MuJoCo's built-in defaults (no
default class applies), joints and sites are in group 3, and the vertices (given or generated
from `curve`) are single-precision floats. The orientation of each body follows a discrete
parallel-transport frame along the vertices (mjuu_updateFrame).
"""

import math

import numpy as np

from engine.compiler import build_math as bm
from engine.compiler import schema
from engine.compiler.defaults import SLOT_SOURCE
from engine.compiler.parse import Node
from engine.compiler.specs import template
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjMINVAL
from engine.enums import mjPI
from engine.errors import UnsupportedError

# default class holding MuJoCo's built-in defaults (not an XML name, so no model can use it)
CLASS = " composite"
CABLE_PLUGIN = "mujoco.elasticity.cable"
# curve words -> vertex coordinate of vertex ix (mjtCompShape: line, cos, sin, zero)
_SHAPES = ("s", "cos(s)", "sin(s)", "0")
_DEPRECATED = {
  "particle": "replicate",
  "grid": "flex",
  "rope": "cable",
  "loop": "flexcomp",
  "cloth": "shell",
}
_TYPE_NAMES = {v: k for k, v in schema.KEYWORDS["comp"].items()}
BOX = 6  # mjGEOM_BOX: a box cable gets a skin
# composite <joint> attributes copied onto the cable's joints (MuJoCo's reader takes these)
_JOINT_ATTRS = (
  "group",
  "stiffness",
  "damping",
  "armature",
  "range",
  "margin",
  "solreflimit",
  "solimplimit",
  "solreffriction",
  "solimpfriction",
  "frictionloss",
)
_JOINT_TUPLE = ("stiffness", "damping")  # scalars in <composite>, arrays on <joint>
_GEOM_ATTRS = (
  "type",
  "size",
  "contype",
  "conaffinity",
  "condim",
  "group",
  "priority",
  "friction",
  "solmix",
  "solref",
  "solimp",
  "margin",
  "gap",
  "material",
  "rgba",
  "mass",
  "density",
  "adhesion",
  "surfacevel",
)
_SITE_ATTRS = ("size", "group", "material", "rgba")


def expand(ctx, root):
  """Replaces every <composite> below <worldbody> by the bodies it makes (in place)."""
  out = {"exclude": [], "text": [], "skin": []}
  for wb in root.find("worldbody"):
    _walk(ctx, wb, out)
  for tag, key in (("exclude", "contact"), ("text", "custom"), ("skin", "deformable")):
    if out[tag]:
      first = out[tag][0]
      sec = Node(key, {}, [], first.line, first.file, root)
      for n in out[tag]:
        n.parent = sec
      sec.children = out[tag]
      root.children.append(sec)


def _walk(ctx, node, out):
  if not any(c.children or c.tag == "composite" for c in node.children):
    return
  children = []
  for c in node.children:
    if c.tag == "composite":
      if CLASS not in ctx.defaults.classes:
        ctx.defaults.classes[CLASS] = {slot: template(src) for slot, src in SLOT_SOURCE.items()}
        ctx.defaults.parent[CLASS] = None
      children.append(_cable(c, node, out))
    else:
      _walk(ctx, c, out)
      children.append(c)
  node.children = children


# ---------------------------------------------------------------- reading the element


def _read(comp):
  """The composite's settings, checked as mjCComposite::Make and MakeCable check them."""
  a = comp.attrs
  ctype = _TYPE_NAMES[a["type"]]
  if ctype in _DEPRECATED:
    raise comp.error(
      f"composite type '{ctype}' is not supported (deprecated in MuJoCo: use "
      f"'{_DEPRECATED[ctype]}' instead); only type=\"cable\" is",
      "type",
      cls=UnsupportedError,
    )
  count = list(a.get("count", ())) + [1, 1, 1][len(a.get("count", ())) :]
  size = list(a.get("size", ())) + [1.0, 0.0, 0.0][len(a.get("size", ())) :]
  s = {
    "prefix": a.get("prefix", ""),
    "offset": list(a.get("offset", (0.0, 0.0, 0.0))),
    "quat": list(a.get("quat", (1.0, 0.0, 0.0, 0.0))),
    "initial": a.get("initial", "ball"),
    "size": size,
  }
  curve = [3, 3, 3]
  words = a.get("curve", "").split()
  if len(words) > 3:
    raise comp.error("the curve array must have a maximum of 3 components", "curve")
  for k, w in enumerate(words):
    if w not in _SHAPES:
      raise comp.error(f"invalid curve shape '{w}' (one of {', '.join(_SHAPES)})", "curve")
    curve[k] = _SHAPES.index(w)
  s["curve"] = curve
  for k in range(3):
    if count[k] < 1:
      raise comp.error("positive counts expected in composite", "count")
  vertex = a.get("vertex")
  if (size[0] ** 2 + size[1] ** 2 + size[2] ** 2) < mjMINVAL and not vertex:
    raise comp.error("positive spacing or length expected in composite", "size")
  if vertex:
    if count[0] > 1:
      raise comp.error("either vertex or count can be specified, not both", "vertex")
    if len(vertex) % 3:
      raise comp.error("vertex needs 3 numbers per vertex", "vertex")
    count[0] = len(vertex) // 3
    count[1] = 1
  dim, single = 0, False
  for k in range(3):
    if count[k] == 1:
      single = True
    else:
      dim += 1
      if single:
        raise comp.error("singleton counts must come last", "count")
  if dim != 1:
    raise comp.error("cable must be one-dimensional", "count")
  s["count"] = count[0]
  s["vertex"] = vertex

  # children: the first geom, site, plugin; every joint (only kind="main" exists)
  geom = {}
  site = {}
  joint = {}
  plugin = None
  for c in comp.children:
    if c.tag == "geom" and not geom:
      geom = {k: c.attrs[k] for k in _GEOM_ATTRS if k in c.attrs}
      s["geom_node"] = c
    elif c.tag == "site" and not site:
      site = {k: c.attrs[k] for k in _SITE_ATTRS if k in c.attrs}
    elif c.tag == "joint":
      if c.attrs.get("kind") != schema.KEYWORDS["compkind"]["main"]:
        raise c.error(
          "cable composites take joints of kind 'main' only", "kind", cls=UnsupportedError
        )
      if joint:
        raise c.error("only particles are allowed to have multiple joints", "kind")
      joint = {
        k: ((c.attrs[k],) if k in _JOINT_TUPLE else c.attrs[k])
        for k in _JOINT_ATTRS
        if k in c.attrs
      }
    elif c.tag == "plugin" and plugin is None:
      plugin = c
    elif c.tag == "skin":
      s["skin_node"] = c
  gtype = geom.get("type")
  if gtype not in (5, 3, 6):  # cylinder, capsule, box
    node = s.get("geom_node", comp)
    raise node.error("cable geom type must be cylinder, capsule or box", "type")
  if plugin is not None and plugin.attrs.get("plugin", "") != CABLE_PLUGIN:
    raise plugin.error(f"only {CABLE_PLUGIN} is supported by composites", "plugin")
  if s["initial"] not in ("ball", "none", "free"):
    raise comp.error(
      f"initial must be ball, none or free, got '{s['initial']}'", "initial", cls=UnsupportedError
    )
  s.update(geom=geom, site=site, joint=joint, plugin=plugin, skin=_read_skin(s.get("skin_node")))
  if gtype == BOX and s["skin"]["subgrid"] > 0:  # other cables have no skin: MuJoCo ignores it
    raise s["skin"]["node"].error(
      "composite skins with a subgrid are not supported yet", "subgrid", cls=UnsupportedError
    )
  return s


def _read_skin(node):
  """The <skin> child's settings (MuJoCo's reader takes them as text): material, rgba, group,
  texcoord, subgrid."""
  a = node.attrs if node is not None else {}

  def numbers(key, n, default):
    words = a.get(key, "").split()
    try:
      values = [float(w) for w in words]
    except ValueError:
      raise node.error(f"invalid number in composite skin {key}", key) from None
    if words and len(values) != n:
      raise node.error(f"composite skin {key} needs {n} numbers", key)
    return values or default

  texcoord = a.get("texcoord", "false").strip()
  if texcoord not in ("true", "false"):
    raise node.error(f"invalid boolean '{texcoord}' in composite skin texcoord", "texcoord")
  return {
    "material": a.get("material", ""),
    "rgba": tuple(numbers("rgba", 4, [1.0] * 4)),
    "group": int(numbers("group", 1, [0])[0]),
    "texcoord": texcoord == "true",
    "subgrid": int(numbers("subgrid", 1, [0])[0]),
    "node": node,
  }


def _vertices(s):
  """The vertex list as MuJoCo stores it (single-precision floats), n x 3."""
  if s["vertex"]:
    return np.array(s["vertex"], np.float32).reshape(-1, 3)
  n, size, quat = s["count"], s["size"], s["quat"]
  verts = []
  for ix in range(n):
    v = [0.0, 0.0, 0.0]
    for k in range(3):
      shape = s["curve"][k]
      if shape == 0:
        v[k] = ix * size[0] / (n - 1)
      elif shape == 1:
        v[k] = size[1] * math.cos(mjPI * ix * size[2] / (n - 1))
      elif shape == 2:
        v[k] = size[1] * math.sin(mjPI * ix * size[2] / (n - 1))
    verts.append(bm.rotvecquat(v, quat))
  return np.array(verts, np.float32)


# ---------------------------------------------------------------- the chain


def _update_frame(normal, edge, tprv, tnxt, first):
  """Port of mjuu_updateFrame: the body frame along the curve; returns (quat, normal, length)."""
  tangent = list(edge)
  bm.normvec(tangent)
  if first:
    binormal = bm.cross(tangent, tnxt)
    bm.normvec(binormal)
    normal = bm.cross(binormal, tangent)
    bm.normvec(normal)
  else:
    binormal = bm.cross(tprv, tangent)
    nrm = bm.normvec(binormal)
    angle = math.atan2(nrm, tprv[0] * tangent[0] + tprv[1] * tangent[1] + tprv[2] * tangent[2])
    if angle == 0:
      darboux = [1.0, 0.0, 0.0, 0.0]
    else:
      sa = math.sin(angle * 0.5)
      darboux = [math.cos(angle * 0.5), binormal[0] * sa, binormal[1] * sa, binormal[2] * sa]
    normal = bm.rotvecquat(normal, darboux)
    bm.normvec(normal)
    binormal = bm.cross(tangent, normal)
    bm.normvec(binormal)
  quat = bm.frame2quat(tangent, normal, binormal)
  return quat, normal, math.sqrt(edge[0] * edge[0] + edge[1] * edge[1] + edge[2] * edge[2])


def _diff(verts, i, j):
  """verts[i] - verts[j] in single precision (MuJoCo subtracts the float vertices)."""
  return [float(x) for x in (verts[i] - verts[j])]


def _cable(comp, parent, out):
  """The body nodes of one cable composite (the first one returned, the rest nested)."""
  s = _read(comp)
  verts = _vertices(s)
  n = len(verts)
  prefix = s["prefix"]
  line, file = comp.line, comp.file

  def node(key, attrs, par, children=()):
    nd = Node(key, attrs, list(children), line, file, par)
    for c in nd.children:
      c.parent = nd
    return nd

  shared = {"name": "composite" + prefix}  # the cable's one plugin instance
  plugin = s["plugin"]
  if plugin is not None and plugin.attrs.get("instance"):
    shared["name"] = plugin.attrs["instance"]
  out["text"].append(
    node("custom/text", {"name": "composite_" + prefix, "data": "rope_" + prefix}, None)
  )
  normal = [0.0, 1.0, 0.0]
  prev_quat = [1.0, 0.0, 0.0, 0.0]
  first_body = None
  body_parent = parent
  last = n - 2
  for ix in range(n - 1):
    first, is_last = ix == 0, ix == last
    edge = _diff(verts, ix + 1, ix)
    tprev, tnext, length_prev = [0.0] * 3, [0.0] * 3, 0.0
    if not first:
      tprev = _diff(verts, ix, ix - 1)
      length_prev = bm.normvec(tprev)
    if not is_last:
      tnext = _diff(verts, ix + 2, ix + 1)
      bm.normvec(tnext)
    this_quat, normal, length = _update_frame(normal, edge, tprev, tnext, first)

    # names
    if first:
      this_body, this_joint, site_name = "B_first", "J_first", "S_first"
      next_body = f"B_{ix + 1}"  # as MuJoCo names it (so count=3 fails: there is no B_1)
    elif is_last:
      this_body, this_joint, site_name = "B_last", "J_last", "S_last"
      next_body = "B_first"
    else:
      this_body, this_joint, site_name = f"B_{ix}", f"J_{ix}", None
      next_body = "B_last" if ix == last - 1 else f"B_{ix + 1}"

    # body pose: the first at the first vertex, the others at the end of their parent
    if first:
      pos = tuple(s["offset"][k] + float(verts[0][k]) for k in range(3))
      quat = tuple(this_quat)
    else:
      pos = (length_prev, 0.0, 0.0)
      neg = [prev_quat[0], -prev_quat[1], -prev_quat[2], -prev_quat[3]]
      quat = tuple(bm.mulquat(neg, this_quat))
    body = node("body", {"name": prefix + this_body, "pos": pos, "quat": quat}, body_parent)
    kids = []

    # geom along the edge (a box: centred on it, half as long)
    gattrs = dict(s["geom"])
    gattrs.update({"class": CLASS, "name": f"{prefix}G{ix}"})
    if gattrs["type"] == BOX:
      size = list(gattrs.get("size", ())) + [0.0] * (3 - len(gattrs.get("size", ())))
      gattrs.update(pos=(length / 2, 0.0, 0.0), size=(length / 2, *size[1:3]))
    else:
      gattrs["fromto"] = (0.0, 0.0, 0.0, length, 0.0, 0.0)
    kids.append(node("geom", gattrs, body))

    # the shared plugin instance
    if plugin is not None:
      p = node("body/plugin", dict(plugin.attrs), body, () if ix else plugin.children)
      p.composite_instance = shared
      kids.append(p)
    prev_quat = this_quat

    # joint: ball, or free / none for the first body as `initial` says
    if not first or s["initial"] != "none":
      free = first and s["initial"] == "free"
      jattrs = dict(s["joint"])
      jattrs.setdefault("group", 3)
      jattrs.update(
        {"class": CLASS, "name": prefix + this_joint, "type": mjJNT_FREE if free else mjJNT_BALL}
      )
      if free:
        jattrs.update(damping=(0.0,), armature=0.0, frictionloss=0.0)
      kids.append(node("body/joint", jattrs, body))

    # no contacts with the next body
    if not is_last:
      out["exclude"].append(
        node("contact/exclude", {"body1": prefix + this_body, "body2": prefix + next_body}, None)
      )

    # sites at the two ends
    if first or is_last:
      sattrs = dict(s["site"])
      sattrs.setdefault("group", 3)
      sattrs.update(
        {
          "class": CLASS,
          "name": prefix + site_name,
          "pos": (length if is_last else 0.0, 0.0, 0.0),
          "quat": (1.0, 0.0, 0.0, 0.0),
        }
      )
      kids.append(node("site", sattrs, body))
    body.children = kids
    if first_body is None:
      first_body = body
    else:
      body_parent.children.append(body)
    body_parent = body
  if s["geom"]["type"] == BOX:
    out["skin"].append(_box_skin(s, n, node))
  return first_body


def _box_skin(s, count, node):
  """The skin MuJoCo wraps around a box cable (mjCComposite::MakeSkin2 with MakeCableBones):
  two rows of vertices (the box's two long edges at y = -+size[1]) on each of two sides,
  inflated by the box's thickness; vertex (ix, iy) of each side follows bone (ix, iy), bound
  to the body that starts at vertex ix (the last vertex to the last body, at its far end).
  The vertices are zero: the renderer places them from the bones."""
  rows = 2
  n = count * rows
  face = []
  for side in (0, 1):
    for ix in range(count - 1):
      for iy in range(rows - 1):
        o = side * n
        a = o + ix * rows + iy
        face += [
          a,
          o + (ix + 1) * rows + iy + side,
          o + (ix + 1) * rows + iy + 1 - side,
          a,
          o + (ix + 1 - side) * rows + iy + 1,
          o + (ix + side) * rows + iy + 1,
        ]
  for ix in range(count - 1):  # thin triangles along the two long edges
    a, b = ix * rows, (ix + 1) * rows
    face += [a, n + b, b, a, n + a, n + b]
  for ix in range(count - 1):
    a, b = ix * rows + rows - 1, (ix + 1) * rows + rows - 1
    face += [a, b, n + b, a, n + b, n + a]
  for iy in range(rows - 1):  # and across the two ends
    face += [iy, iy + 1, n + iy + 1, iy, n + iy + 1, n + iy]
  for iy in range(rows - 1):
    a = iy + (count - 1) * rows
    face += [a, n + a + 1, a + 1, a, n + a, n + a + 1]
  size = list(s["geom"].get("size", ())) + [0.0] * 3
  skin = s["skin"]
  bones = []
  for ix in range(count):
    body = "B_first" if ix == 0 else ("B_last" if ix >= count - 2 else f"B_{ix}")
    for iy in range(rows):
      bones.append(
        node(
          "asset/skin/bone",
          {
            "body": s["prefix"] + body,
            "bindpos": (-2 * size[0] if ix == count - 1 else 0.0, size[1] if iy else -size[1], 0.0),
            "bindquat": (1.0, 0.0, 0.0, 0.0),
            "vertid": (ix * rows + iy, n + ix * rows + iy),
            "vertweight": (1.0, 1.0),
          },
          None,
        )
      )
  attrs = {
    "name": s["prefix"] + "Skin",
    "vertex": (0.0,) * (6 * n),
    "face": tuple(face),
    "inflate": 2 * size[2],
    "rgba": skin["rgba"],
    "group": skin["group"],
  }
  if skin["material"]:
    attrs["material"] = skin["material"]
  if skin["texcoord"]:
    f32 = np.float32  # MuJoCo divides in single precision
    attrs["texcoord"] = tuple(
      float(v)
      for _ in (0, 1)
      for ix in range(count)
      for iy in range(rows)
      for v in (f32(ix) / f32(count - 1), f32(iy) / f32(rows - 1))
    )
  return node("asset/skin", attrs, None, bones)
