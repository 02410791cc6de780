"""Equality constraints, contact pairs and excludes, custom numeric/text/tuple, keyframes.

Ports of mjCEquality, mjCPair, mjCBodyPair, mjCNumeric, mjCText, mjCTuple (user_objects.cc),
the MJCF reading of <equality> (xml_native_reader.cc) and CopyObjects (user_model.cc).
"""

from engine.compiler import build_math as bm
from engine.compiler import build_tree as bt
from engine.compiler.build_common import arr as _arr
from engine.enums import mjEQ_CONNECT
from engine.enums import mjEQ_JOINT
from engine.enums import mjEQ_TENDON
from engine.enums import mjEQ_WELD
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE
from engine.enums import mjNOBJECT
from engine.enums import mjOBJ_ACTUATOR
from engine.enums import mjOBJ_BODY
from engine.enums import mjOBJ_CAMERA
from engine.enums import mjOBJ_EQUALITY
from engine.enums import mjOBJ_EXCLUDE
from engine.enums import mjOBJ_GEOM
from engine.enums import mjOBJ_HFIELD
from engine.enums import mjOBJ_JOINT
from engine.enums import mjOBJ_KEY
from engine.enums import mjOBJ_LIGHT
from engine.enums import mjOBJ_MATERIAL
from engine.enums import mjOBJ_MESH
from engine.enums import mjOBJ_NUMERIC
from engine.enums import mjOBJ_PAIR
from engine.enums import mjOBJ_SENSOR
from engine.enums import mjOBJ_SITE
from engine.enums import mjOBJ_TENDON
from engine.enums import mjOBJ_TEXT
from engine.enums import mjOBJ_TEXTURE
from engine.enums import mjOBJ_TUPLE
from engine.enums import mjOBJ_UNKNOWN
from engine.enums import mjOBJ_XBODY
from engine.enums import mjtObj

# objtype words (tuples, user sensors) -> mjtObj: the member names in lower case, as MuJoCo's
# mju_str2Type reads them
OBJ_TYPES = {
  m.name[len("mjOBJ_") :].lower(): int(m) for m in mjtObj if mjOBJ_UNKNOWN < m < mjNOBJECT
}
# mjtObj -> namespace its objects are named in (types that can be referenced by name)
OBJ_NAMESPACE = {
  mjOBJ_BODY: "body",
  mjOBJ_XBODY: "body",
  mjOBJ_JOINT: "joint",
  mjOBJ_GEOM: "geom",
  mjOBJ_SITE: "site",
  mjOBJ_CAMERA: "camera",
  mjOBJ_LIGHT: "light",
  mjOBJ_MESH: "mesh",
  mjOBJ_HFIELD: "hfield",
  mjOBJ_TEXTURE: "texture",
  mjOBJ_MATERIAL: "material",
  mjOBJ_PAIR: "pair",
  mjOBJ_EXCLUDE: "exclude",
  mjOBJ_EQUALITY: "equality",
  mjOBJ_TENDON: "tendon",
  mjOBJ_ACTUATOR: "actuator",
  mjOBJ_SENSOR: "sensor",
  mjOBJ_NUMERIC: "numeric",
  mjOBJ_TEXT: "text",
  mjOBJ_TUPLE: "tuple",
  mjOBJ_KEY: "key",
}
_EQ_TYPES = {"connect": mjEQ_CONNECT, "weld": mjEQ_WELD, "joint": mjEQ_JOINT, "tendon": mjEQ_TENDON}


def make(ctx, root):
  """Objects for <equality>, <contact>, <custom>, <keyframe> children, in document order."""
  out = {k: [] for k in ("equality", "pair", "exclude", "numeric", "text", "tuple", "key")}
  for sec in root.children:
    if sec.tag == "equality":
      for n in sec.children:
        e = bt.Obj(n, ctx.defaults.spec(n, "equality"))
        e.type = _EQ_TYPES[n.tag]
        out["equality"].append(e)
    elif sec.tag == "contact":
      for n in sec.children:
        if n.tag == "pair":
          out["pair"].append(bt.Obj(n, ctx.defaults.spec(n, "pair")))
        else:
          out["exclude"].append(bt.Obj(n, dict(n.attrs)))
    elif sec.tag == "custom":
      for n in sec.children:
        out[n.tag].append(bt.Obj(n, dict(n.attrs)))
    elif sec.tag == "keyframe":
      for n in sec.children:
        out["key"].append(bt.Obj(n, dict(n.attrs)))
  while len(out["key"]) < ctx.size["nkey"]:
    k = bt.Obj(None)
    out["key"].append(k)
  return out


def compile_equality(ctx, lists):
  """Port of OneEquality (reader) and mjCEquality::Compile."""
  for e in lists["equality"]:
    n, a = e.node, e.node.attrs
    data = [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    if e.type in (mjEQ_CONNECT, mjEQ_WELD):
      # sites or bodies (with anchor/relpose) define the constraint, never both (MuJoCo's schema)
      sites = [x for x in ("site1", "site2") if x in a]
      bodies = [x for x in ("body1", "body2", "anchor", "relpose") if x in a]
      if sites and bodies:
        raise n.error(f"attributes {sites[0]} and {bodies[0]} cannot be used together", bodies[0])
      has_anchor = "anchor" in a
      if has_anchor:
        data[0:3] = a["anchor"]
      if e.type == mjEQ_WELD and "relpose" in a:
        quat = list(a["relpose"][3:])
        bm.normvec(quat)
        data[3:10] = list(a["relpose"][:3]) + quat
      body = "body1" in a and (has_anchor or e.type == mjEQ_WELD)
      if body:
        names, kind, attrs = (a["body1"], a.get("body2")), "body", ("body1", "body2")
        e.objtype = mjOBJ_BODY
        if e.type == mjEQ_WELD and not has_anchor:
          data[0:3] = [0.0, 0.0, 0.0]
      else:
        if "site1" not in a or "site2" not in a:
          what = "connect" if e.type == mjEQ_CONNECT else "weld"
          raise n.error(f"{what} constraint requires body1 (with anchor) or site1 and site2")
        names, kind, attrs = (a["site1"], a["site2"]), "site", ("site1", "site2")
        e.objtype = mjOBJ_SITE
      if e.type == mjEQ_WELD and "torquescale" in a:
        data[10] = a["torquescale"]
      if e.type == mjEQ_WELD and body and "relpose" not in a:
        data[11] = 1.0  # relpose is taken from qpos0 (as MuJoCo 3.17 marks it)
    else:
      kind = "joint" if e.type == mjEQ_JOINT else "tendon"
      attrs = (kind + "1", kind + "2")
      names = (a[attrs[0]], a.get(attrs[1]))
      e.objtype = mjOBJ_UNKNOWN
      poly = a.get("polycoef", ())
      data[0 : len(poly)] = poly
    obj1 = ctx.lookup(kind, names[0], n, attrs[0])
    e.obj1id = obj1.id
    if names[1] is not None:
      obj2 = ctx.lookup(kind, names[1], n, attrs[1])
      e.obj2id = obj2.id
    else:
      obj2 = None
      e.obj2id = 0 if kind == "body" else -1
    if e.obj1id == e.obj2id:
      raise n.error(f"element '{names[0]}' is repeated in equality constraint")
    if e.type == mjEQ_JOINT:
      for j in (obj1, obj2):
        if j is not None and j.type not in (mjJNT_SLIDE, mjJNT_HINGE):
          raise n.error("only HINGE and SLIDE joint allowed in constraint", attrs[0])
    e.data = data


def compile_pairs(ctx, lists):
  """Port of mjCPair::Compile and mjCBodyPair::Compile; sorts both by signature."""
  for p in lists["pair"]:
    s, n = p.spec, p.node
    if s["condim"] not in (1, 3, 4, 6):
      raise n.error("invalid condim in contact pair", "condim")
    g1 = ctx.lookup("geom", n.attrs["geom1"], n, "geom1")
    g2 = ctx.lookup("geom", n.attrs["geom2"], n, "geom2")
    if g1.body.id > g2.body.id:
      g1, g2 = g2, g1
    p.geom1, p.geom2 = g1, g2
    p.signature = (g1.body.id << 16) + g2.body.id
  for x in lists["exclude"]:
    n = x.node
    b1 = ctx.lookup("body", n.attrs["body1"], n, "body1")
    b2 = ctx.lookup("body", n.attrs["body2"], n, "body2")
    if b1.id > b2.id:
      b1, b2 = b2, b1
    x.signature = (b1.id << 16) + b2.id
  lists["pair"].sort(key=lambda p: p.signature)
  lists["exclude"].sort(key=lambda x: x.signature)
  for i, p in enumerate(lists["pair"]):
    p.id = i
  for i, x in enumerate(lists["exclude"]):
    x.id = i


def compile_custom(ctx, lists):
  """Port of mjCNumeric/mjCText/mjCTuple::Compile."""
  for c in lists["numeric"]:
    data = list(c.spec.get("data") or ())
    size = c.spec.get("size", 0)
    if size and data and size < len(data):
      raise c.error("specified size smaller than initialization array", "size")
    if not size:
      size = len(data)
    if not size:
      raise c.error("numeric size cannot be zero", "size")
    c.data = data + [0.0] * (size - len(data))
  for t in lists["text"]:
    if not t.spec.get("data"):
      raise t.error("text size cannot be zero", "data")
  for t in lists["tuple"]:
    t.objtype, t.objid, t.objprm = [], [], []
    if not t.node.children:
      raise t.error("tuple is empty")
    for el in t.node.children:
      word = el.attrs["objtype"]
      otype = OBJ_TYPES.get(word)
      if otype is None or otype not in OBJ_NAMESPACE:
        raise el.error(f"unknown object type '{word}'", "objtype")
      obj = ctx.lookup(OBJ_NAMESPACE[otype], el.attrs["objname"], el, "objname")
      t.objtype.append(otype)
      t.objid.append(obj.id)
      t.objprm.append(el.attrs.get("prm", 0.0))


def arrays(ctx, lists, sizes, arrays):
  """Arrays of equality constraints, pairs, excludes and custom elements."""
  eqs, pairs, excl = lists["equality"], lists["pair"], lists["exclude"]
  neq, npair = len(eqs), len(pairs)
  sizes.update(neq=neq, npair=npair, nexclude=len(excl))
  _arr(arrays, "eq_type", [e.type for e in eqs])
  _arr(arrays, "eq_obj1id", [e.obj1id for e in eqs])
  _arr(arrays, "eq_obj2id", [e.obj2id for e in eqs])
  _arr(arrays, "eq_objtype", [e.objtype for e in eqs])
  _arr(arrays, "eq_active0", [bool(e.spec["active"]) for e in eqs])
  _arr(arrays, "eq_solref", [e.spec["solref"] for e in eqs], (neq, 2))
  _arr(arrays, "eq_solimp", [e.spec["solimp"] for e in eqs], (neq, 5))
  _arr(arrays, "eq_data", [e.data for e in eqs], (neq, 12))

  _arr(arrays, "pair_dim", [p.spec["condim"] for p in pairs])
  _arr(arrays, "pair_geom1", [p.geom1.id for p in pairs])
  _arr(arrays, "pair_geom2", [p.geom2.id for p in pairs])
  _arr(arrays, "pair_signature", [p.signature for p in pairs])
  _arr(arrays, "pair_solref", [p.spec["solref"] for p in pairs], (npair, 2))
  _arr(arrays, "pair_solreffriction", [p.spec["solreffriction"] for p in pairs], (npair, 2))
  _arr(arrays, "pair_solimp", [p.spec["solimp"] for p in pairs], (npair, 5))
  _arr(arrays, "pair_margin", [p.spec["margin"] for p in pairs])
  _arr(arrays, "pair_gap", [p.spec["gap"] for p in pairs])
  _arr(arrays, "pair_adhesion", [p.spec["adhesion"] for p in pairs])
  _arr(arrays, "pair_friction", [p.spec["friction"] for p in pairs], (npair, 5))
  _arr(arrays, "exclude_signature", [x.signature for x in excl])

  nums, texts, tuples = lists["numeric"], lists["text"], lists["tuple"]
  adr, data = [], []
  for c in nums:
    adr.append(len(data))
    data += c.data
  sizes.update(nnumeric=len(nums), nnumericdata=len(data))
  _arr(arrays, "numeric_adr", adr)
  _arr(arrays, "numeric_size", [len(c.data) for c in nums])
  _arr(arrays, "numeric_data", data)
  buf = bytearray()
  adr, size = [], []
  for t in texts:
    adr.append(len(buf))
    b = t.spec["data"].encode() + b"\0"
    size.append(len(b))
    buf += b
  sizes.update(ntext=len(texts), ntextdata=len(buf))
  _arr(arrays, "text_adr", adr)
  _arr(arrays, "text_size", size)
  arrays["text_data"] = bytes(buf)
  adr, size, otype, oid, oprm = [], [], [], [], []
  for t in tuples:
    adr.append(len(otype))
    size.append(len(t.objtype))
    otype += t.objtype
    oid += t.objid
    oprm += t.objprm
  sizes.update(ntuple=len(tuples), ntupledata=len(otype))
  _arr(arrays, "tuple_adr", adr)
  _arr(arrays, "tuple_size", size)
  _arr(arrays, "tuple_objtype", otype)
  _arr(arrays, "tuple_objid", oid)
  _arr(arrays, "tuple_objprm", oprm)
