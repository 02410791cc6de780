"""Arrays of the kinematic tree: bodies, joints, dofs, trees, geoms, sites, cameras, lights.

Port of mjCModel::CopyTree (user_model.cc) and the tree part of setFixed (engine_setconst.c);
the bodies' bounding-volume hierarchies are build_bvh.py's.
"""

import numpy as np

from engine.compiler import build_tree as bt
from engine.compiler.build_common import arr as _arr
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE
from engine.enums import mjSAMEFRAME_BODY
from engine.enums import mjSAMEFRAME_BODYROT
from engine.enums import mjSAMEFRAME_INERTIA
from engine.enums import mjSAMEFRAME_INERTIAROT
from engine.enums import mjSAMEFRAME_NONE


def _is_same_vec(a, b):
  return abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6 and abs(a[2] - b[2]) < 1e-6


def _is_same_quat(a, b):
  minus = all(abs(a[i] - b[i]) < 1e-6 for i in range(4))
  plus = all(abs(a[i] + b[i]) < 1e-6 for i in range(4))
  return minus or plus


def sameframe(pos, quat, ipos=None, iquat=None):
  """mjtSameFrame of an element frame relative to its body (and inertial) frame."""
  if _is_same_vec(pos, (0, 0, 0)) and _is_same_quat(quat, (1, 0, 0, 0)):
    return mjSAMEFRAME_BODY
  if _is_same_quat(quat, (1, 0, 0, 0)):
    return mjSAMEFRAME_BODYROT
  if ipos is not None:
    if _is_same_vec(pos, ipos) and _is_same_quat(quat, iquat):
      return mjSAMEFRAME_INERTIA
    if _is_same_quat(quat, iquat):
      return mjSAMEFRAME_INERTIAROT
  return mjSAMEFRAME_NONE


def tree_arrays(ctx, lists, sizes, arrays):
  """Port of mjCModel::CopyTree plus setFixed's tree quantities."""
  bodies, joints, geoms = lists["body"], lists["joint"], lists["geom"]
  sites, cams, lights = lists["site"], lists["camera"], lists["light"]
  nbody, njnt, ngeom = len(bodies), len(joints), len(geoms)
  nuser = ctx.nuser

  # sizes
  nq = sum(j.nq for j in joints)
  nv = sum(j.nv for j in joints)
  sizes.update(
    nbody=nbody,
    njnt=njnt,
    ngeom=ngeom,
    nsite=len(sites),
    ncam=len(cams),
    nlight=len(lights),
    nq=nq,
    nv=nv,
  )
  for k in ("body", "jnt", "geom", "site", "cam", "tendon", "actuator", "sensor"):
    sizes["nuser_" + k] = nuser[k]

  # mocap
  nmocap = 0
  for b in bodies:
    if b.mocap:
      b.mocapid = nmocap
      nmocap += 1
    else:
      b.mocapid = -1
  sizes["nmocap"] = nmocap

  parentid = [0] * nbody
  rootid = [0] * nbody
  body_simple = [0] * nbody
  body_sameframe = [0] * nbody
  jntadr = dofadr = qposadr = 0
  qpos0, qpos_spring = [], []
  dof_bodyid, dof_jntid, dof_parentid = [], [], []
  dof_solref, dof_solimp, dof_frictionloss, dof_armature = [], [], [], []
  dof_damping, dof_dampingpoly = [], []
  b_jntnum, b_jntadr, b_dofnum, b_dofadr, b_geomnum, b_geomadr = [], [], [], [], [], []
  lastdof = [-1] * nbody
  for i, b in enumerate(bodies):
    par = b.parent
    parentid[i] = par.id if par is not None else 0
    b_jntnum.append(len(b.joints))
    b_jntadr.append(jntadr if b.joints else -1)
    b_dofnum.append(b.dofnum if i else 0)
    b_dofadr.append(dofadr if i and b.dofnum else -1)
    b_geomnum.append(len(b.geoms))
    b_geomadr.append(b.geoms[0].id if b.geoms else -1)
    if i == 0 or par.id == 0:
      rootid[i] = i
    else:
      rootid[i] = rootid[par.id]
    lastdof[i] = lastdof[par.id] if par is not None else -1
    sf = sameframe(b.ipos, b.iquat)
    sf = sf if sf in (mjSAMEFRAME_BODY, mjSAMEFRAME_BODYROT) else mjSAMEFRAME_NONE
    body_sameframe[i] = sf
    pid = parentid[i]
    body_simple[i] = int(
      sf == mjSAMEFRAME_BODY and (rootid[i] == i or (parentid[pid] == 0 and b_dofnum[pid] == 0))
    )
    if pid > 0:
      body_simple[pid] = 0
    rotfound = False
    for j in b.joints:
      aligned = sum(abs(v) > 1e-14 for v in j.axis) == 1
      if (
        rotfound
        or not _is_same_vec(j.pos, (0, 0, 0))
        or (j.type in (mjJNT_HINGE, mjJNT_SLIDE) and not aligned)
      ):
        body_simple[i] = 0
      if j.type in (mjJNT_BALL, mjJNT_HINGE):
        rotfound = True
      j.qposadr, j.dofadr = qposadr, dofadr
      if j.type == mjJNT_FREE:
        q = list(b.pos) + list(b.quat)
        qpos0 += q
        qpos_spring += q
      elif j.type == mjJNT_BALL:
        qpos0 += [1.0, 0.0, 0.0, 0.0]
        qpos_spring += [1.0, 0.0, 0.0, 0.0]
      else:
        qpos0.append(j.ref)
        qpos_spring.append(j.springref)
      s = j.spec
      for _ in range(j.nv):
        dof_bodyid.append(i)
        dof_jntid.append(j.id)
        dof_solref.append(s["solreffriction"])
        dof_solimp.append(s["solimpfriction"])
        dof_frictionloss.append(s["frictionloss"])
        dof_armature.append(s["armature"])
        dof_damping.append(s["damping"][0])
        dof_dampingpoly.append(s["damping"][1:3])
        dof_parentid.append(lastdof[i])
        lastdof[i] = dofadr
        dofadr += 1
      jntadr += 1
      qposadr += j.nq
    if body_simple[i] and b_dofnum[i]:
      body_simple[i] = 2
      if any(j.type != mjJNT_SLIDE for j in b.joints):
        body_simple[i] = 1
    if not b.simple:
      body_simple[i] = 0

  # trees
  dof_treeid = []
  ntree = 0
  for i in range(nv):
    if dof_parentid[i] == -1:
      ntree += 1
    dof_treeid.append(ntree - 1)
  body_treeid = []
  for b in bodies:
    w = b.weldid
    body_treeid.append(dof_treeid[b_dofadr[w]] if b_dofnum[w] else -1)
  tree_bodyadr, tree_bodynum = [0] * ntree, [0] * ntree
  cur = -1
  for i in range(1, nbody):
    t = body_treeid[i]
    if t != -1:
      if t > cur:
        cur += 1
        tree_bodyadr[cur] = i
      tree_bodynum[cur] += 1
  tree_dofadr, tree_dofnum = [0] * ntree, [0] * ntree
  cur = -1
  for i in range(nv):
    if dof_treeid[i] > cur:
      cur += 1
      tree_dofadr[cur] = i
    tree_dofnum[cur] += 1
  sleep = [0] * ntree
  for i, b in enumerate(bodies):
    if b_dofnum[i] and body_treeid[i] >= 0 and b.sleep:
      sleep[body_treeid[i]] = b.sleep
  sizes["ntree"] = ntree
  ctx.body_treeid = body_treeid
  ctx.tree_sleep = sleep

  # body arrays
  _arr(arrays, "qpos0", qpos0)
  _arr(arrays, "qpos_spring", qpos_spring)
  _arr(arrays, "body_parentid", parentid)
  _arr(arrays, "body_rootid", rootid)
  _arr(arrays, "body_weldid", [b.weldid for b in bodies])
  _arr(arrays, "body_mocapid", [b.mocapid for b in bodies])
  _arr(arrays, "body_jntnum", b_jntnum)
  _arr(arrays, "body_jntadr", b_jntadr)
  _arr(arrays, "body_dofnum", b_dofnum)
  _arr(arrays, "body_dofadr", b_dofadr)
  _arr(arrays, "body_treeid", body_treeid)
  _arr(arrays, "body_geomnum", b_geomnum)
  _arr(arrays, "body_geomadr", b_geomadr)
  _arr(arrays, "body_simple", body_simple)
  _arr(arrays, "body_sameframe", body_sameframe)
  _arr(arrays, "body_pos", [b.pos for b in bodies], (nbody, 3))
  _arr(arrays, "body_quat", [b.quat for b in bodies], (nbody, 4))
  _arr(arrays, "body_ipos", [b.ipos for b in bodies], (nbody, 3))
  _arr(arrays, "body_iquat", [b.iquat for b in bodies], (nbody, 4))
  mass = [b.mass for b in bodies]
  _arr(arrays, "body_mass", mass)
  _arr(arrays, "body_inertia", [b.inertia for b in bodies], (nbody, 3))
  _arr(arrays, "body_gravcomp", [b.gravcomp for b in bodies])
  _arr(arrays, "body_margin", [b.margin for b in bodies])
  _arr(arrays, "body_user", [b.user_data for b in bodies], (nbody, nuser["body"]))
  _arr(arrays, "body_plugin", [-1] * nbody)
  _arr(arrays, "body_contype", [b.contype for b in bodies])
  _arr(arrays, "body_conaffinity", [b.conaffinity for b in bodies])
  _arr(arrays, "body_invweight0", np.zeros((nbody, 2)))

  _arr(arrays, "body_subtreemass", np.zeros(nbody))

  # joints and dofs
  _arr(arrays, "jnt_type", [j.type for j in joints])
  _arr(arrays, "jnt_qposadr", [j.qposadr for j in joints])
  _arr(arrays, "jnt_dofadr", [j.dofadr for j in joints])
  _arr(arrays, "jnt_bodyid", [j.body.id for j in joints])
  _arr(arrays, "jnt_group", [j.spec["group"] for j in joints])
  _arr(arrays, "jnt_limited", [j.limited for j in joints])
  _arr(arrays, "jnt_actfrclimited", [j.actfrclimited for j in joints])
  _arr(arrays, "jnt_actgravcomp", [bool(j.spec["actuatorgravcomp"]) for j in joints])
  _arr(arrays, "jnt_solref", [j.spec["solreflimit"] for j in joints], (njnt, 2))
  _arr(arrays, "jnt_solimp", [j.spec["solimplimit"] for j in joints], (njnt, 5))
  _arr(arrays, "jnt_pos", [j.pos for j in joints], (njnt, 3))
  _arr(arrays, "jnt_axis", [j.axis for j in joints], (njnt, 3))
  _arr(arrays, "jnt_stiffness", [j.spec["stiffness"][0] for j in joints])
  _arr(arrays, "jnt_stiffnesspoly", [j.spec["stiffness"][1:3] for j in joints], (njnt, 2))
  _arr(arrays, "jnt_range", [j.range for j in joints], (njnt, 2))
  _arr(arrays, "jnt_actfrcrange", [j.actfrcrange for j in joints], (njnt, 2))
  _arr(arrays, "jnt_margin", [j.spec["margin"] for j in joints])
  _arr(arrays, "jnt_user", [j.user for j in joints], (njnt, nuser["jnt"]))
  _arr(arrays, "dof_bodyid", dof_bodyid)
  _arr(arrays, "dof_jntid", dof_jntid)
  _arr(arrays, "dof_parentid", dof_parentid)
  _arr(arrays, "dof_treeid", dof_treeid)
  _arr(arrays, "dof_solref", dof_solref, (nv, 2))
  _arr(arrays, "dof_solimp", dof_solimp, (nv, 5))
  _arr(arrays, "dof_frictionloss", dof_frictionloss)
  _arr(arrays, "dof_armature", dof_armature)
  _arr(arrays, "dof_damping", dof_damping)
  _arr(arrays, "dof_dampingpoly", dof_dampingpoly, (nv, 2))
  _arr(arrays, "dof_invweight0", np.zeros(nv))
  _arr(arrays, "dof_M0", np.zeros(nv))
  _arr(arrays, "dof_length", np.zeros(nv))
  _arr(arrays, "tree_bodyadr", tree_bodyadr)
  _arr(arrays, "tree_bodynum", tree_bodynum)
  _arr(arrays, "tree_dofadr", tree_dofadr)
  _arr(arrays, "tree_dofnum", tree_dofnum)
  ctx.dof_parentid = dof_parentid
  ctx.body_simple = body_simple

  # geoms
  _arr(arrays, "geom_type", [g.type for g in geoms])
  _arr(arrays, "geom_contype", [g.contype for g in geoms])
  _arr(arrays, "geom_conaffinity", [g.conaffinity for g in geoms])
  _arr(arrays, "geom_condim", [g.spec["condim"] for g in geoms])
  _arr(arrays, "geom_bodyid", [g.body.id for g in geoms])
  _arr(
    arrays,
    "geom_dataid",
    [
      g.mesh.id if g.mesh is not None else (g.hfield.id if g.hfield is not None else -1)
      for g in geoms
    ],
  )
  _arr(arrays, "geom_matid", [ctx.assets.matid(g) for g in geoms])
  _arr(arrays, "geom_group", [g.spec["group"] for g in geoms])
  _arr(arrays, "geom_priority", [g.spec["priority"] for g in geoms])
  _arr(arrays, "geom_plugin", [-1] * ngeom)
  _arr(
    arrays, "geom_sameframe", [sameframe(g.pos, g.quat, g.body.ipos, g.body.iquat) for g in geoms]
  )
  _arr(arrays, "geom_solmix", [g.spec["solmix"] for g in geoms])
  _arr(arrays, "geom_solref", [g.spec["solref"] for g in geoms], (ngeom, 2))
  _arr(arrays, "geom_solimp", [g.spec["solimp"] for g in geoms], (ngeom, 5))
  _arr(arrays, "geom_size", [g.size for g in geoms], (ngeom, 3))
  _arr(arrays, "geom_aabb", [g.aabb for g in geoms], (ngeom, 6))
  _arr(arrays, "geom_rbound", [bt.geom_rbound(g) for g in geoms])
  _arr(arrays, "geom_pos", [g.pos for g in geoms], (ngeom, 3))
  _arr(arrays, "geom_quat", [g.quat for g in geoms], (ngeom, 4))
  _arr(arrays, "geom_friction", [g.spec["friction"] for g in geoms], (ngeom, 3))
  _arr(arrays, "geom_margin", [g.spec["margin"] for g in geoms])
  _arr(arrays, "geom_gap", [g.spec["gap"] for g in geoms])
  _arr(arrays, "geom_surfacevel", [g.spec["surfacevel"] for g in geoms], (ngeom, 6))
  _arr(arrays, "geom_adhesion", [g.spec["adhesion"] for g in geoms])
  _arr(arrays, "geom_fluid", [g.fluid for g in geoms], (ngeom, 12))
  _arr(arrays, "geom_user", [g.user for g in geoms], (ngeom, nuser["geom"]))
  _arr(arrays, "geom_rgba", [g.spec["rgba"] for g in geoms], (ngeom, 4))

  # sites
  nsite = len(sites)
  _arr(arrays, "site_type", [s.type for s in sites])
  _arr(arrays, "site_bodyid", [s.body.id for s in sites])
  _arr(arrays, "site_dataid", [s.mesh.id if s.mesh is not None else -1 for s in sites])
  _arr(arrays, "site_matid", [ctx.assets.matid(s) for s in sites])
  _arr(arrays, "site_group", [s.spec["group"] for s in sites])
  _arr(
    arrays, "site_sameframe", [sameframe(s.pos, s.quat, s.body.ipos, s.body.iquat) for s in sites]
  )
  _arr(arrays, "site_size", [s.size for s in sites], (nsite, 3))
  _arr(arrays, "site_pos", [s.pos for s in sites], (nsite, 3))
  _arr(arrays, "site_quat", [s.quat for s in sites], (nsite, 4))
  _arr(arrays, "site_user", [s.user for s in sites], (nsite, nuser["site"]))
  _arr(arrays, "site_rgba", [s.spec["rgba"] for s in sites], (nsite, 4))

  # cameras
  ncam = len(cams)
  _arr(arrays, "cam_mode", [c.spec["mode"] for c in cams])
  _arr(arrays, "cam_bodyid", [c.body.id for c in cams])
  _arr(arrays, "cam_targetbodyid", [c.targetbodyid for c in cams])
  _arr(arrays, "cam_pos", [c.pos for c in cams], (ncam, 3))
  _arr(arrays, "cam_quat", [c.quat for c in cams], (ncam, 4))
  _arr(arrays, "cam_projection", [c.spec["projection"] for c in cams])
  _arr(arrays, "cam_fovy", [c.fovy for c in cams])
  _arr(arrays, "cam_ipd", [c.spec["ipd"] for c in cams])
  _arr(arrays, "cam_resolution", [c.spec["resolution"] for c in cams], (ncam, 2))
  _arr(arrays, "cam_output", [c.spec["output"] for c in cams])
  _arr(arrays, "cam_sensorsize", [c.sensorsize for c in cams], (ncam, 2))
  _arr(arrays, "cam_intrinsic", [c.intrinsic for c in cams], (ncam, 4))
  _arr(arrays, "cam_user", [c.user for c in cams], (ncam, nuser["cam"]))
  for name, w in (("cam_poscom0", 3), ("cam_pos0", 3), ("cam_mat0", 9)):
    _arr(arrays, name, np.zeros((ncam, w)))

  # lights
  nlight = len(lights)
  _arr(arrays, "light_mode", [li.spec["mode"] for li in lights])
  _arr(arrays, "light_bodyid", [li.body.id for li in lights])
  _arr(arrays, "light_targetbodyid", [li.targetbodyid for li in lights])
  _arr(arrays, "light_type", [li.type for li in lights])
  _arr(arrays, "light_texid", [li.texid for li in lights])
  _arr(arrays, "light_castshadow", [bool(li.spec["castshadow"]) for li in lights])
  _arr(arrays, "light_active", [bool(li.spec["active"]) for li in lights])
  _arr(arrays, "light_pos", [li.pos for li in lights], (nlight, 3))
  _arr(arrays, "light_dir", [li.dir for li in lights], (nlight, 3))
  for name in ("bulbradius", "intensity", "range", "cutoff", "softness", "exponent"):
    _arr(arrays, "light_" + name, [li.spec[name] for li in lights])
  for name in ("attenuation", "ambient", "diffuse", "specular"):
    _arr(arrays, "light_" + name, [li.spec[name] for li in lights], (nlight, 3))
  for name in ("light_poscom0", "light_pos0", "light_dir0"):
    _arr(arrays, name, np.zeros((nlight, 3)))
