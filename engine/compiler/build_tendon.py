"""Tendons: fixed (joint) and spatial (site, geom wrapping with side sites, pulleys).

Ports of mjCTendon / mjCWrap (user_objects.cc), the tendon part of CopyObjects (user_model.cc)
and the tendon tree quantities of setFixed (engine_setconst.c).
"""

from engine.compiler import build_tree as bt
from engine.compiler.build_common import arr as _arr
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjLIMITED_AUTO
from engine.enums import mjWRAP_CYLINDER
from engine.enums import mjWRAP_JOINT
from engine.enums import mjWRAP_PULLEY
from engine.enums import mjWRAP_SITE
from engine.enums import mjWRAP_SPHERE


def make(ctx, root):
  """Tendon objects with their wrap paths, in document order."""
  tendons = []
  for sec in root.children:
    if sec.tag != "tendon":
      continue
    for n in sec.children:
      t = bt.Obj(n, ctx.defaults.spec(n, "tendon"))
      t.spatial_tag = n.tag == "spatial"
      t.path = []
      for w in n.children:
        if w.tag == "joint":
          t.path.append((mjWRAP_JOINT, w, w.attrs["joint"], w.attrs["coef"]))
        elif w.tag == "site":
          t.path.append((mjWRAP_SITE, w, w.attrs["site"], 0.0))
        elif w.tag == "geom":
          t.path.append((mjWRAP_SPHERE, w, w.attrs["geom"], w.attrs.get("sidesite")))
        else:
          t.path.append((mjWRAP_PULLEY, w, None, w.attrs["divisor"]))
      tendons.append(t)
  return tendons


def compile_all(ctx, lists):
  """Port of mjCTendon::Compile and mjCWrap::ResolveReferences."""
  for t in lists["tendon"]:
    s = t.spec
    t.user = bt.user_data(t, s, ctx.nuser["tendon"], "tendon")
    if not t.path:
      raise t.error(f"tendon '{t.name}' (id = {t.id}): path cannot be empty")
    spatial = t.path[0][0] != mjWRAP_JOINT
    if spatial and len(t.path) < 2:
      raise t.error(f"tendon '{t.name}': spatial path must contain at least two objects")
    if spatial and s["width"] <= 0:
      raise t.error(f"tendon '{t.name}' must have positive width", "width")
    wraps = []
    for wtype, w, name, prm in t.path:
      if wtype == mjWRAP_JOINT:
        obj = ctx.lookup("joint", name, w, "joint")
        wraps.append((mjWRAP_JOINT, obj.id, prm, obj))
      elif wtype == mjWRAP_SITE:
        obj = ctx.lookup("site", name, w, "site")
        wraps.append((mjWRAP_SITE, obj.id, 0.0, obj))
      elif wtype == mjWRAP_SPHERE:
        obj = ctx.lookup("geom", name, w, "geom")
        if obj.type == mjGEOM_CYLINDER:
          wtype = mjWRAP_CYLINDER
        elif obj.type != mjGEOM_SPHERE:
          raise w.error(f"geom '{name}' in tendon is not sphere or cylinder", "geom")
        side = ctx.lookup("site", prm, w, "sidesite").id if prm else -1
        wraps.append((wtype, obj.id, float(side), obj))
      else:
        if prm < 0:
          raise w.error("pulley has negative divisor in tendon", "divisor")
        wraps.append((mjWRAP_PULLEY, -1, prm, None))
    sz = len(wraps)
    for i, (wtype, objid, _, _) in enumerate(wraps):
      node = t.path[i][1]
      if not spatial:
        if wtype != mjWRAP_JOINT:
          raise node.error(f"tendon '{t.name}': spatial object found in fixed path at pos {i}")
        continue
      if s["armature"] < 0:
        raise t.error(f"tendon '{t.name}': tendon armature cannot be negative", "armature")
      prev = wraps[i - 1][0] if i > 0 else None
      nxt = wraps[i + 1][0] if i < sz - 1 else None
      if wtype == mjWRAP_PULLEY:
        if prev == mjWRAP_PULLEY:
          raise node.error(f"tendon '{t.name}': consecutive pulleys (pos {i})")
        if i == sz - 1:
          raise node.error(f"tendon '{t.name}': path ends with pulley")
      elif wtype == mjWRAP_SITE:
        if (prev is None or prev == mjWRAP_PULLEY) and (nxt is None or nxt == mjWRAP_PULLEY):
          raise node.error(f"tendon '{t.name}': site {i} needs a neighbor that is not a pulley")
        if nxt == mjWRAP_SITE and wraps[i + 1][1] == objid:
          raise node.error(f"tendon '{t.name}': site {i} is repeated")
      elif wtype in (mjWRAP_SPHERE, mjWRAP_CYLINDER):
        if prev != mjWRAP_SITE or nxt != mjWRAP_SITE:
          raise node.error(f"tendon '{t.name}': geom at pos {i} not bracketed by sites")
        if s["armature"] > 0:
          raise node.error(f"tendon '{t.name}': geom wrapping not supported by tendon armature")
      else:
        raise node.error(f"tendon '{t.name}': joint wrap found in spatial path at pos {i}")
    t.wraps = wraps

    # limits
    rng = s["range"]
    if s["limited"] == mjLIMITED_AUTO:
      bt.check_limited(t, ctx.autolimits, "tendon", "", s["limited"], rng)
    t.limited = bt.islimited(s["limited"], rng)
    if rng[0] >= rng[1] and t.limited:
      raise t.error("invalid limits in tendon", "range")
    afr = s["actuatorfrcrange"]
    if s["actuatorfrclimited"] == mjLIMITED_AUTO:
      bt.check_limited(t, ctx.autolimits, "tendon", "actuatorfrc", s["actuatorfrclimited"], afr)
    t.actfrclimited = bt.islimited(s["actuatorfrclimited"], afr)
    if t.actfrclimited and (afr[0] >= afr[1] or afr[0] > 0 or afr[1] < 0):
      raise t.error("invalid actuatorfrcrange in tendon", "actuatorfrcrange")
    sl = s["springlength"]
    if sl[0] > sl[1]:
      raise t.error("invalid springlength in tendon", "springlength")
    t.matid = ctx.assets.matid(t)


def body_chain(arrays, body):
  """Dofs of body and its ancestors, increasing (mj_bodyChain)."""
  out = []
  dofnum, dofadr, parent = arrays["body_dofnum"], arrays["body_dofadr"], arrays["body_parentid"]
  while body > 0:
    for k in range(dofnum[body] - 1, -1, -1):
      out.append(dofadr[body] + k)
    body = parent[body]
  return sorted(out)


def arrays(ctx, lists, sizes, arrays):
  """Tendon and wrap arrays (CopyObjects), tendon Jacobian sparsity."""
  tendons = lists["tendon"]
  nt = len(tendons)
  adr, wtype, wobj, wprm = [], [], [], []
  for t in tendons:
    adr.append(len(wtype))
    for w in t.wraps:
      wtype.append(w[0])
      wobj.append(w[1])
      wprm.append(w[2])
  sizes.update(ntendon=nt, nwrap=len(wtype))
  _arr(arrays, "tendon_adr", adr)
  _arr(arrays, "tendon_num", [len(t.wraps) for t in tendons])
  _arr(arrays, "tendon_matid", [t.matid for t in tendons])
  _arr(arrays, "tendon_group", [t.spec["group"] for t in tendons])
  _arr(arrays, "tendon_limited", [t.limited for t in tendons])
  _arr(arrays, "tendon_actfrclimited", [t.actfrclimited for t in tendons])
  _arr(arrays, "tendon_width", [t.spec["width"] for t in tendons])
  _arr(arrays, "tendon_solref_lim", [t.spec["solreflimit"] for t in tendons], (nt, 2))
  _arr(arrays, "tendon_solimp_lim", [t.spec["solimplimit"] for t in tendons], (nt, 5))
  _arr(arrays, "tendon_solref_fri", [t.spec["solreffriction"] for t in tendons], (nt, 2))
  _arr(arrays, "tendon_solimp_fri", [t.spec["solimpfriction"] for t in tendons], (nt, 5))
  _arr(arrays, "tendon_range", [t.spec["range"] for t in tendons], (nt, 2))
  _arr(arrays, "tendon_actfrcrange", [t.spec["actuatorfrcrange"] for t in tendons], (nt, 2))
  _arr(arrays, "tendon_margin", [t.spec["margin"] for t in tendons])
  _arr(arrays, "tendon_stiffness", [t.spec["stiffness"][0] for t in tendons])
  _arr(arrays, "tendon_stiffnesspoly", [t.spec["stiffness"][1:3] for t in tendons], (nt, 2))
  _arr(arrays, "tendon_damping", [t.spec["damping"][0] for t in tendons])
  _arr(arrays, "tendon_dampingpoly", [t.spec["damping"][1:3] for t in tendons], (nt, 2))
  _arr(arrays, "tendon_armature", [t.spec["armature"] for t in tendons])
  _arr(arrays, "tendon_frictionloss", [t.spec["frictionloss"] for t in tendons])
  _arr(arrays, "tendon_lengthspring", [t.spec["springlength"] for t in tendons], (nt, 2))
  _arr(arrays, "tendon_length0", [0.0] * nt)
  _arr(arrays, "tendon_invweight0", [0.0] * nt)
  _arr(arrays, "tendon_user", [t.user for t in tendons], (nt, ctx.nuser["tendon"]))
  _arr(arrays, "tendon_rgba", [t.spec["rgba"] for t in tendons], (nt, 4))
  _arr(arrays, "wrap_type", wtype)
  _arr(arrays, "wrap_objid", wobj)
  _arr(arrays, "wrap_prm", wprm)

  # sparsity of the tendon Jacobian: dofs moving any path object
  rownnz, rowadr, colind = [], [], []
  for t in tendons:
    dofs = set()
    for w in t.wraps:
      if w[0] == mjWRAP_JOINT:
        j = w[3]
        dofs.update(range(j.dofadr, j.dofadr + j.nv))
      elif w[0] == mjWRAP_SITE or w[0] in (mjWRAP_SPHERE, mjWRAP_CYLINDER):
        dofs.update(body_chain(arrays, w[3].body.id))
    cols = sorted(dofs)
    rowadr.append(len(colind))
    rownnz.append(len(cols))
    colind += cols
  sizes["nJten"] = len(colind)
  _arr(arrays, "ten_J_rownnz", rownnz)
  _arr(arrays, "ten_J_rowadr", rowadr)
  _arr(arrays, "ten_J_colind", colind)


def tendon_trees(ctx, lists, sizes, arrays):
  """tendon_treenum and tendon_treeid (setFixed): trees the tendon path touches (first two)."""
  treeid = ctx.body_treeid
  tnum, tids = [], []
  for t in lists["tendon"]:
    seen = []
    for w in t.wraps:
      if w[0] == mjWRAP_PULLEY:
        continue
      body = w[3].body.id
      tree = treeid[body]
      if tree != -1 and tree not in seen:
        seen.append(tree)
    tnum.append(len(seen))
    tids.append((seen + [-1, -1])[:2])
  nt = len(tnum)
  _arr(arrays, "tendon_treenum", tnum)
  _arr(arrays, "tendon_treeid", tids, (nt, 2))
