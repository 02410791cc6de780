"""compiler fusestatic: merge bodies without joints into their parents.

Port of mjCModel::FuseStatic (user_model.cc) and mjCBody::AccumulateInertia (user_objects.cc).
"""

from engine.compiler import build_math as bm
from engine.compiler import inertia as ine
from engine.compiler.build_tree import contact_flags
from engine.compiler.build_tree import make_lists
from engine.enums import mjMINVAL


def fuse_static(ctx, lists, referenced):
  """Port of mjCModel::FuseStatic: merge bodies without joints into their parents.

  `referenced` holds bodies that other elements refer to by name (these are kept, as MuJoCo
  keeps bodies whose removal would break a reference).
  """
  bodies = lists["body"]
  i = 1
  while i < len(bodies):
    b = bodies[i]
    if b.joints or b.mocap or not b.fuse or b in referenced:
      i += 1
      continue
    par = b.parent
    if par.id != 0 and b.mass >= mjMINVAL:
      accumulate_inertia(par, b)
    for c in b.children:
      c.pos, c.quat = bm.frameaccum(b.pos, b.quat, c.pos, c.quat)
      c.parent = par
    k = par.children.index(b)
    par.children[k : k + 1] = b.children
    for lst, attr in ((par.geoms, "geoms"), (par.sites, "sites")):
      for e in getattr(b, attr):
        e.body = par
        e.pos, e.quat = bm.frameaccum(b.pos, b.quat, e.pos, e.quat)
        lst.append(e)
    for c in b.cams:
      c.body = par
      c.pos, c.quat = bm.frameaccum(b.pos, b.quat, c.pos, c.quat)
      par.cams.append(c)
    for li in b.lights:
      li.body = par
      li.pos, _ = bm.frameaccum(b.pos, b.quat, li.pos, [1.0, 0.0, 0.0, 0.0])
      li.dir = bm.rotvecquat(li.dir, b.quat)
      par.lights.append(li)
    del bodies[i]
    new = make_lists(bodies[0])
    lists.update(new)
    bodies = lists["body"]
    for c in bodies[1:]:
      c.weldid = c.id if (c.joints or c.mocap) else c.parent.weldid
    contact_flags(par)


def accumulate_inertia(par, b):
  """Port of mjCBody::AccumulateInertia: add body b's inertia into its parent."""
  other_ipos, other_iquat = bm.frameaccum(b.pos, b.quat, b.ipos, b.iquat)
  masses = [par.mass, b.mass]
  poss = [par.ipos, other_ipos]
  quats = [par.iquat, other_iquat]
  inertias = [par.inertia, b.inertia]
  mass = 0.0
  ipos = [0.0, 0.0, 0.0]
  for m, p in zip(masses, poss):
    mass += m
    ipos = [ipos[0] + m * p[0], ipos[1] + m * p[1], ipos[2] + m * p[2]]
  if mass < mjMINVAL:
    par.mass = 0.0
    par.inertia = [0.0, 0.0, 0.0]
    par.ipos = [0.0, 0.0, 0.0]
    par.iquat = [1.0, 0.0, 0.0, 0.0]
    return
  ipos = [ipos[0] / mass, ipos[1] / mass, ipos[2] / mass]
  toti = [0.0] * 6
  for m, p, q, inert in zip(masses, poss, quats, inertias):
    dpos = [p[0] - ipos[0], p[1] - ipos[1], p[2] - ipos[2]]
    i0 = ine.global_inertia(inert, q)
    i1 = ine.offcenter(m, dpos)
    for k in range(6):
      toti[k] += i0[k] + i1[k]
  iquat, inertia, err = ine.full_inertia(toti)
  if err:
    raise b.error(f"error '{err}' in fusing static body inertias")
  par.mass, par.ipos, par.iquat, par.inertia = mass, ipos, iquat, inertia
