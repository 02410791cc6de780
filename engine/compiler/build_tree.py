"""Kinematic tree: bodies, frames, joints, geoms, sites, cameras, lights; fusestatic.

Ports of mjCBody/mjCFrame/mjCJoint/mjCGeom/mjCSite/mjCCamera/mjCLight::Compile
(user_objects.cc) and mjCModel::FuseStatic / CopyTree (user_model.cc). Elements are plain Python
objects (`Obj`) holding their resolved attributes; build.py turns them into arrays.
"""

import math

import numpy as np

from engine.compiler import build_math as bm
from engine.compiler import inertia as ine
from engine.compiler.build_math import mjEPS
from engine.compiler.specs import ORIENT_ATTRS
from engine.compiler.specs import template
from engine.enums import mjALIGNFREE_AUTO
from engine.enums import mjALIGNFREE_TRUE
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_PLANE
from engine.enums import mjGEOM_SDF
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjINERTIAFROMGEOM_AUTO
from engine.enums import mjINERTIAFROMGEOM_TRUE
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjJNT_HINGE
from engine.enums import mjLIGHT_DIRECTIONAL
from engine.enums import mjLIGHT_SPOT
from engine.enums import mjLIMITED_AUTO
from engine.enums import mjLIMITED_FALSE
from engine.enums import mjLIMITED_TRUE
from engine.enums import mjMINVAL
from engine.enums import mjPI

# number of size parameters used by each geom type (mjGEOMINFO)
GEOMINFO = (3, 0, 1, 2, 3, 2, 3, 0, 0)


class Obj:
  """A compiled element: the source node, resolved attributes and computed values."""

  def __init__(self, node, spec=None):
    self.node = node
    self.spec = spec if spec is not None else {}
    self.name = node.attrs.get("name", "") if node is not None else ""
    self.id = -1

  def error(self, msg, attribute=None):
    return self.node.error(msg, attribute)


def islimited(limited, rng):
  """True if limits apply: limited="true", or "auto" with a nonempty range."""
  return limited == mjLIMITED_TRUE or (limited == mjLIMITED_AUTO and rng[0] < rng[1])


def check_limited(obj, autolimits, entity, attr, limited, rng):
  """Port of checklimited: range given without limited and autolimits="false" is an error."""
  hasrange = not (rng[0] == 0 and rng[1] == 0)
  if not autolimits and limited == mjLIMITED_AUTO and hasrange:
    raise obj.error(
      f'{entity} has `{attr}range` but not `{attr}limited`. set the autolimits="true" compiler '
      f'option, specify `{attr}limited` explicitly ("true" or "false"), or remove the '
      f"`{attr}range` attribute.",
      f"{attr}limited" if attr else "limited",
    )


def user_data(obj, spec, nuser, kind):
  """userdata padded with zeros to nuser (error if longer)."""
  user = list(spec.get("user") or ())
  if len(user) > nuser:
    raise obj.error(f"user has more values than nuser_{kind} in {obj.node.tag}", "user")
  return user + [0.0] * (nuser - len(user))


# ---------------------------------------------------------------- tree construction


class TreeBuilder:
  """Builds Obj elements for the kinematic tree from the <worldbody> nodes."""

  def __init__(self, ctx):
    self.ctx = ctx
    self.defaults = ctx.defaults
    self.frame_names = set()

  def build(self, root):
    world = Obj(None)
    world.name = "world"
    world.parent = None
    world.explicit = False
    world.children = []
    world.joints, world.geoms, world.sites, world.cams, world.lights = [], [], [], [], []
    world.pos, world.quat = [0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]
    world.frame = None
    world.mocap = False
    world.gravcomp = 0.0
    world.user = ()
    world.sleep = 0
    world.simple = world.fuse = 1
    world.node = root
    self.world = world
    for wb in root.find("worldbody"):
      self.contents(wb, world, None)
    return world

  def frame_pose(self, node, parent_frame):
    """Port of mjCFrame::Compile: frame pose within its body, accumulated over parent frames."""
    ctx = self.ctx
    spec = {"quat": node.attrs.get("quat", (1.0, 0.0, 0.0, 0.0))}
    for a in ORIENT_ATTRS[1:]:
      spec[a] = node.attrs.get(a)
    quat = bm.resolve_orientation(node, spec, ctx.degree, ctx.eulerseq)
    pos = list(node.attrs.get("pos", (0.0, 0.0, 0.0)))
    if parent_frame is not None:
      pos, quat = bm.frameaccum(parent_frame[0], parent_frame[1], pos, quat)
    bm.normvec(quat)
    return (pos, quat)

  def contents(self, node, body, frame):
    """Adds the children of a body/worldbody/frame node to `body`, in document order."""
    for c in node.children:
      tag = c.tag
      if tag == "body":
        body.children.append(self.body(c, body, frame))
      elif tag == "frame":
        name = c.attrs.get("name")
        if name:
          if name in self.frame_names:
            raise c.error(f"repeated name '{name}' in frame", "name")
          self.frame_names.add(name)
        self.contents(c, body, self.frame_pose(c, frame))
      elif tag == "geom":
        body.geoms.append(self.geom(c, body, frame))
      elif tag == "site":
        body.sites.append(self.site(c, body, frame))
      elif tag == "camera":
        body.cams.append(self.camera(c, body, frame))
      elif tag == "light":
        body.lights.append(self.light(c, body, frame))
      elif tag in ("joint", "freejoint"):
        if body is self.world:
          raise c.error("joint found in world body")
        body.joints.append(self.joint(c, body, frame))
      elif tag == "inertial":
        if body is self.world:
          raise c.error("World body cannot have inertia")
        self.inertial(c, body, frame)
      elif tag == "plugin" and body is not self.world:
        pass  # a passive-force plugin instance: build_plugin resolves it
      else:
        raise c.error(f"element '{tag}' is not supported yet", cls=self.ctx.Unsupported)

  def body(self, node, parent, frame):
    a = node.attrs
    b = Obj(node)
    b.parent = parent
    b.frame = frame
    b.children = []
    b.joints, b.geoms, b.sites, b.cams, b.lights = [], [], [], [], []
    spec = {"quat": a.get("quat", (1.0, 0.0, 0.0, 0.0))}
    for name in ORIENT_ATTRS[1:]:
      spec[name] = a.get(name)
    b.orient = spec
    b.pos = list(a.get("pos", (0.0, 0.0, 0.0)))
    b.mocap = bool(a.get("mocap", 0))
    b.gravcomp = a.get("gravcomp", 0.0)
    b.user = a.get("user", ())
    b.sleep = a.get("sleep", 0)
    b.simple = a.get("simple", 1)  # "false" (0) clears body_simple
    b.fuse = a.get("fuse", 1)  # "false" (0) keeps the body under compiler fusestatic
    b.explicit = False
    self.contents(node, b, None)
    return b

  def inertial(self, node, b, frame):
    """An <inertial> of body b (inside `frame` if not None, which then poses it)."""
    ia = node.attrs
    b.explicit = True
    b.inode = node
    b.iframe = frame
    b.ipos_given = list(ia["pos"])
    b.imass = ia["mass"]
    b.iinertia = list(ia.get("diaginertia", (0.0, 0.0, 0.0)))
    b.fullinertia = ia.get("fullinertia")
    ispec = {"quat": ia.get("quat", (1.0, 0.0, 0.0, 0.0))}
    for name in ORIENT_ATTRS[1:]:
      ispec[name] = ia.get(name)
    b.iorient = ispec

  def joint(self, node, body, frame):
    if node.tag == "freejoint":
      spec = template("body/joint")
      spec.update(node.attrs)
      spec["type"] = mjJNT_FREE
      spec["class"] = "main"
    else:
      spec = self.defaults.spec(node, "joint")
    spec.setdefault("align", mjALIGNFREE_AUTO)
    j = Obj(node, spec)
    j.body = body
    j.frame = frame
    return j

  def geom(self, node, body, frame):
    spec = self.defaults.spec(node, "geom")
    g = Obj(node, spec)
    g.body = body
    g.frame = frame
    return g

  def site(self, node, body, frame):
    spec = self.defaults.spec(node, "site")
    s = Obj(node, spec)
    s.body = body
    s.frame = frame
    return s

  def camera(self, node, body, frame):
    spec = self.defaults.spec(node, "camera")
    c = Obj(node, spec)
    c.body = body
    c.frame = frame
    return c

  def light(self, node, body, frame):
    spec = self.defaults.spec(node, "light")
    li = Obj(node, spec)
    li.body = body
    li.frame = frame
    return li


def make_lists(world):
  """Global element lists in MuJoCo's order: bodies depth-first, elements by body."""
  bodies = []

  def visit(b):
    bodies.append(b)
    for c in b.children:
      visit(c)

  visit(world)
  lists = {"body": bodies, "joint": [], "geom": [], "site": [], "camera": [], "light": []}
  for i, b in enumerate(bodies):
    b.id = i
    for key, attr in (
      ("joint", "joints"),
      ("geom", "geoms"),
      ("site", "sites"),
      ("camera", "cams"),
      ("light", "lights"),
    ):
      for e in getattr(b, attr):
        e.id = len(lists[key])
        lists[key].append(e)
  return lists


# ---------------------------------------------------------------- element compilers


def compile_joint(ctx, j):
  """Port of mjCJoint::Compile; returns the number of dofs."""
  s = j.spec
  jtype = s["type"]
  j.type = jtype
  j.user = user_data(j, s, ctx.nuser["jnt"], "jnt")
  sd = s["springdamper"]
  if sd[0] or sd[1]:
    if sd[0] <= 0 or sd[1] <= 0:
      raise j.error("when defined, springdamper values must be positive in joint", "springdamper")
  rng = list(s["range"])
  limited = s["limited"]
  if jtype == mjJNT_FREE:
    limited = mjLIMITED_FALSE
  elif limited == mjLIMITED_AUTO:
    check_limited(j, ctx.autolimits, "joint", "", limited, rng)
  j.limited = islimited(limited, rng)
  if j.limited:
    if rng[0] >= rng[1] and jtype != mjJNT_BALL:
      raise j.error("range[0] should be smaller than range[1] in joint", "range")
    if rng[0] and jtype == mjJNT_BALL:
      raise j.error("range[0] should be 0 in ball joint", "range")
    if ctx.degree and jtype in (mjJNT_HINGE, mjJNT_BALL):
      if rng[0]:
        rng[0] *= mjPI / 180.0
      if rng[1]:
        rng[1] *= mjPI / 180.0
  j.range = rng

  afr = list(s["actuatorfrcrange"])
  afl = s["actuatorfrclimited"]
  if jtype in (mjJNT_FREE, mjJNT_BALL):
    afl = mjLIMITED_FALSE
  elif afl == mjLIMITED_AUTO:
    check_limited(j, ctx.autolimits, "joint", "actuatorfrc", afl, afr)
  j.actfrclimited = islimited(afl, afr)
  if j.actfrclimited and afr[0] >= afr[1]:
    raise j.error(
      "actfrcrange[0] should be smaller than actfrcrange[1] in joint", "actuatorfrcrange"
    )
  j.actfrcrange = afr

  # axis and position, with frame
  if jtype in (mjJNT_FREE, mjJNT_BALL):
    axis = [0.0, 0.0, 1.0]
  else:
    axis = list(s["axis"])
    if j.frame is not None:
      axis = bm.rotvecquat(axis, j.frame[1])
  if bm.normvec(axis) < mjEPS:
    raise j.error("axis too small in joint", "axis")
  j.axis = axis
  if jtype == mjJNT_FREE:
    pos = [0.0, 0.0, 0.0]
  else:
    pos = list(s["pos"])
    if j.frame is not None:
      pos, _ = bm.frameaccum(j.frame[0], j.frame[1], pos, [1.0, 0.0, 0.0, 0.0])
  j.pos = pos

  ref, springref = s["ref"], s["springref"]
  if jtype == mjJNT_HINGE and ctx.degree:
    ref *= mjPI / 180.0
    springref *= mjPI / 180.0
  j.ref, j.springref = ref, springref
  j.nq = {mjJNT_FREE: 7, mjJNT_BALL: 4}.get(jtype, 1)
  j.nv = {mjJNT_FREE: 6, mjJNT_BALL: 3}.get(jtype, 1)
  return j.nv


def _fromto(obj, s, gtype, what):
  """pos, quat, size from fromto (capsule, cylinder, ellipsoid, box)."""
  ft = s["fromto"]
  if gtype not in (mjGEOM_CAPSULE, mjGEOM_CYLINDER, mjGEOM_ELLIPSOID, mjGEOM_BOX):
    raise obj.error(f"fromto requires capsule, cylinder, box or ellipsoid in {what}", "fromto")
  pos = s["pos"]
  if pos[0] or pos[1] or pos[2]:
    raise obj.error(f"both pos and fromto defined in {what}", "fromto")
  vec = [ft[0] - ft[3], ft[1] - ft[4], ft[2] - ft[5]]
  size = list(s["size"])
  size[1] = bm.normvec(vec) / 2
  if size[1] < mjEPS:
    raise obj.error(f"fromto points too close in {what}", "fromto")
  if gtype in (mjGEOM_ELLIPSOID, mjGEOM_BOX):
    size[2] = size[1]
    size[1] = size[0]
  pos = [(ft[0] + ft[3]) / 2, (ft[1] + ft[4]) / 2, (ft[2] + ft[5]) / 2]
  return pos, bm.z2quat(vec), size


def checksize(obj, size, gtype, what):
  """Port of checksize: positive sizes for the parameters a type uses."""
  if gtype == mjGEOM_PLANE:
    if size[2] <= 0:
      raise obj.error("plane size(3) must be positive", "size")
  else:
    for i in range(GEOMINFO[gtype]):
      if size[i] <= 0:
        raise obj.error(f"size {i} must be positive in {what}", "size")


def compile_geom(ctx, g):
  """Port of mjCGeom::Compile (primitives, planes, hfields; meshes via build_assets)."""
  s = g.spec
  gtype = s["type"]
  g.type = gtype
  g.user = user_data(g, s, ctx.nuser["geom"], "geom")
  if s["condim"] not in (1, 3, 4, 6):
    raise g.error("invalid condim in geom", "condim")
  g.mesh = ctx.assets.lookup_mesh(g) if s.get("mesh") else None
  g.hfield = ctx.assets.lookup_hfield(g) if s.get("hfield") else None
  if gtype in (mjGEOM_MESH, mjGEOM_SDF) and g.mesh is None:
    raise g.error("mesh geom must have a mesh", "mesh")
  if (gtype == mjGEOM_HFIELD) != (g.hfield is not None):
    raise g.error("hfield geom must have valid hfield", "hfield")
  if gtype == mjGEOM_SDF and not any(c.tag == "plugin" for c in g.node.children):
    # MuJoCo compiles this and then fails in collision; we say why here
    raise g.error("sdf geom needs a <plugin> child naming its signed distance field", "type")
  if gtype == mjGEOM_PLANE and g.body.weldid != 0:
    raise g.error("plane only allowed in static bodies", "type")
  g.contype, g.conaffinity = s["contype"], s["conaffinity"]
  g.visual = not g.contype and not g.conaffinity
  size = list(s["size"])
  if s["fromto"] is not None:
    pos, quat, size = _fromto(g, s, gtype, "geom")
  else:
    pos = list(s["pos"])
    quat = bm.resolve_orientation(g.node, s, ctx.degree, ctx.eulerseq)
  g.mesh_fit = False
  if g.mesh is not None:
    if s["fromto"] is not None:
      raise g.error("fromto cannot be used with mesh geom", "fromto")
    pos, quat, size = ctx.assets.mesh_geom_frame(g, gtype, pos, quat, size)
  if g.mesh is None or gtype not in (mjGEOM_MESH, mjGEOM_SDF):
    checksize(g, size, gtype, "geom")
  if gtype == mjGEOM_HFIELD:
    hs = g.hfield.size
    size = [hs[0], hs[1], 0.25 * hs[2] + 0.5 * hs[3]]
  for v in size:
    if math.isnan(v):
      raise g.error("nan size in geom", "size")
  g.size = size
  g.aabb = geom_aabb(g, gtype, size)

  # mass and inertia
  g.mass = 0.0
  g.inertia = [0.0, 0.0, 0.0]
  shell = bool(s["shellinertia"])
  density = s["density"]
  if g.inferinertia:
    if gtype in (mjGEOM_MESH, mjGEOM_SDF):
      g.mass, g.inertia, density = ctx.assets.mesh_inertia(g, s)
    elif s["mass"] is not None:
      mass = s["mass"]
      if mass == 0:
        density = 0.0
      else:
        vol = ine.geom_volume(gtype, size, shell)
        if vol > mjEPS:
          g.mass = mass
          density = mass / vol
          g.inertia = ine.geom_inertia(gtype, size, mass, shell)
    elif density != 0:
      g.mass = density * ine.geom_volume(gtype, size, shell)
      g.inertia = ine.geom_inertia(gtype, size, g.mass, shell)
    if g.mass < 0 or min(g.inertia) < 0 or density < 0:
      raise g.error("mass, inertia or density are negative in geom")

  g.fluid = [0.0] * 12
  if s["fluidshape"] == 1:
    g.fluid = fluid_coefs(gtype, size, s["fluidcoef"])
  if g.frame is not None:
    pos, quat = bm.frameaccum(g.frame[0], g.frame[1], pos, quat)
  g.pos, g.quat = pos, quat


def geom_aabb(g, gtype, size):
  """Port of mjCGeom::ComputeAABB: (center, half-size) box in the geom frame."""
  if gtype == mjGEOM_HFIELD:
    hs = g.hfield.size
    aamm = [-hs[0], -hs[1], -hs[3], hs[0], hs[1], hs[2]]
  elif gtype == mjGEOM_SPHERE:
    aamm = [-size[0]] * 3 + [size[0]] * 3
  elif gtype == mjGEOM_CAPSULE:
    aamm = [-size[0], -size[0], -(size[0] + size[1]), size[0], size[0], size[0] + size[1]]
  elif gtype == mjGEOM_CYLINDER:
    aamm = [-size[0], -size[0], -size[1], size[0], size[0], size[1]]
  elif gtype in (mjGEOM_MESH, mjGEOM_SDF):
    aamm = list(g.mesh.aamm)
  elif gtype == mjGEOM_PLANE:
    big = 1e10
    aamm = [-big, -big, -big, big, big, 0.0]
  else:
    aamm = [-size[0], -size[1], -size[2], size[0], size[1], size[2]]
  return [
    (aamm[3] + aamm[0]) / 2,
    (aamm[4] + aamm[1]) / 2,
    (aamm[5] + aamm[2]) / 2,
    (aamm[3] - aamm[0]) / 2,
    (aamm[4] - aamm[1]) / 2,
    (aamm[5] - aamm[2]) / 2,
  ]


def geom_rbound(g):
  """Port of mjCGeom::GetRBound: radius of the bounding sphere about the geom frame origin."""
  size, t = g.size, g.type
  if t == mjGEOM_HFIELD:
    hs = g.hfield.size
    return math.sqrt(hs[0] * hs[0] + hs[1] * hs[1] + max(hs[2] * hs[2], hs[3] * hs[3]))
  if t == mjGEOM_SPHERE:
    return size[0]
  if t == mjGEOM_CAPSULE:
    return size[0] + size[1]
  if t == mjGEOM_CYLINDER:
    return math.sqrt(size[0] * size[0] + size[1] * size[1])
  if t == mjGEOM_ELLIPSOID:
    return max(size[0], size[1], size[2])
  if t == mjGEOM_BOX:
    return math.sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2])
  if t in (mjGEOM_MESH, mjGEOM_SDF):
    aamm = g.mesh.aamm
    h = [
      max(abs(aamm[0]), abs(aamm[3])),
      max(abs(aamm[1]), abs(aamm[4])),
      max(abs(aamm[2]), abs(aamm[5])),
    ]
    return math.sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2])
  return 0.0


# Gauss-Kronrod (K15) quadrature on [0, inf) for the added-mass kappa integral (MuJoCo's nodes)
_KRONROD_W = (
  0.01146766,
  0.03154605,
  0.05239501,
  0.07032663,
  0.08450236,
  0.09517529,
  0.10221647,
  0.10474107,
  0.10221647,
  0.09517529,
  0.08450236,
  0.07032663,
  0.05239501,
  0.03154605,
  0.01146766,
)
_KRONROD_L = (
  7.865151709349917e-08,
  1.7347976913907274e-05,
  0.0003548008144506193,
  0.002846636252924549,
  0.014094260903596077,
  0.053063261727396636,
  0.17041978741317773,
  0.5,
  1.4036301548686991,
  3.9353484827022642,
  11.644841677041734,
  39.53187807410903,
  177.5711362220801,
  1429.4772912937397,
  54087.416549217705,
)
_KRONROD_D = (
  5.538677720489877e-05,
  0.002080868285293228,
  0.016514126520723166,
  0.07261900344370877,
  0.23985243401862602,
  0.6868318249020725,
  1.8551129519182894,
  5.0,
  14.060031152313941,
  43.28941239611009,
  156.58546376397112,
  747.9826085305024,
  5827.4042950027115,
  116754.0197944512,
  25482945.327264845,
)


def _kappa(dx, dy, dz):
  """Port of mjCGeom::GetAddedMassKappa."""
  invdx2 = 1.0 / (dx * dx)
  invdy2 = 1.0 / (dy * dy)
  invdz2 = 1.0 / (dz * dz)
  scale = (dx * dx * dx * dy * dz) ** 0.4
  kappa = 0.0
  for w, l, d in zip(_KRONROD_W, _KRONROD_L, _KRONROD_D):
    lam = scale * l
    denom = (1 + lam * invdx2) * math.sqrt(
      (1 + lam * invdx2) * (1 + lam * invdy2) * (1 + lam * invdz2)
    )
    kappa += scale * d / denom * w
  return kappa * invdx2


def fluid_coefs(gtype, size, coefs):
  """Port of mjCGeom::SetFluidCoefs: geom_fluid = [1, coefs(5), virtual mass(3), inertia(3)]."""
  if gtype == mjGEOM_SPHERE:
    dx = dy = dz = size[0]
  elif gtype == mjGEOM_CAPSULE:
    dx = dy = size[0]
    dz = size[1] + size[0]
  elif gtype == mjGEOM_CYLINDER:
    dx = dy = size[0]
    dz = size[1]
  else:
    dx, dy, dz = size[0], size[1], size[2]
  volume = 4.0 / 3.0 * mjPI * dx * dy * dz
  kx = _kappa(dx, dy, dz)
  ky = _kappa(dy, dz, dx)
  kz = _kappa(dz, dx, dy)

  def pow2(v):
    return v * v

  ixfac = (
    pow2(dy * dy - dz * dz)
    * abs(kz - ky)
    / max(mjEPS, abs(2 * (dy * dy - dz * dz) + (dy * dy + dz * dz) * (ky - kz)))
  )
  iyfac = (
    pow2(dz * dz - dx * dx)
    * abs(kx - kz)
    / max(mjEPS, abs(2 * (dz * dz - dx * dx) + (dz * dz + dx * dx) * (kz - kx)))
  )
  izfac = (
    pow2(dx * dx - dy * dy)
    * abs(ky - kx)
    / max(mjEPS, abs(2 * (dx * dx - dy * dy) + (dx * dx + dy * dy) * (kx - ky)))
  )
  vmass = [
    volume * kx / max(mjEPS, 2 - kx),
    volume * ky / max(mjEPS, 2 - ky),
    volume * kz / max(mjEPS, 2 - kz),
  ]
  vinertia = [volume * ixfac / 5, volume * iyfac / 5, volume * izfac / 5]
  return [1.0] + list(coefs) + vmass + vinertia


def compile_site(ctx, s_):
  """Port of mjCSite::Compile."""
  s = s_.spec
  stype = s["type"]
  s_.type = stype
  s_.user = user_data(s_, s, ctx.nuser["site"], "site")
  if stype in (mjGEOM_HFIELD, mjGEOM_PLANE, mjGEOM_SDF):
    raise s_.error("hfields and planes not allowed in site", "type")
  if s.get("mesh") and stype != mjGEOM_MESH:
    raise s_.error("mesh can only be specified for mesh sites", "mesh")
  s_.mesh = None
  if stype == mjGEOM_MESH:
    if not s.get("mesh"):
      raise s_.error("mesh site must have a mesh", "mesh")
    s_.mesh = ctx.assets.lookup_mesh(s_)
  size = list(s["size"])
  if s["fromto"] is not None:
    pos, quat, size = _fromto(s_, s, stype, "site")
  else:
    pos = list(s["pos"])
    quat = bm.resolve_orientation(s_.node, s, ctx.degree, ctx.eulerseq)
  if s_.frame is not None:
    pos, quat = bm.frameaccum(s_.frame[0], s_.frame[1], pos, quat)
  bm.normvec(quat)
  if s_.mesh is not None:
    size = [float(v) for v in ctx.assets.mesh_size(s_.mesh)]
  else:
    checksize(s_, size, stype, "site")
  s_.pos, s_.quat, s_.size = pos, quat, size


def compile_camera(ctx, c):
  """Port of mjCCamera::Compile."""
  s = c.spec
  c.user = user_data(c, s, ctx.nuser["cam"], "cam")
  pos = list(s["pos"])
  quat = bm.resolve_orientation(c.node, s, ctx.degree, ctx.eulerseq)
  if c.frame is not None:
    pos, quat = bm.frameaccum(c.frame[0], c.frame[1], pos, quat)
  bm.normvec(quat)
  c.pos, c.quat = pos, quat
  c.target = s.get("target")
  fovy = s["fovy"]
  if fovy >= 180:
    raise c.error("fovy too large in camera", "fovy")
  f32 = np.float32
  principal, principalpixel = s["principal"], s["principalpixel"]
  focal, focalpixel = s["focal"], s["focalpixel"]
  if (principal[0] and principalpixel[0]) or (principal[1] and principalpixel[1]):
    raise c.error("principal length duplicated in camera", "principal")
  if (focal[0] and focalpixel[0]) or (focal[1] and focalpixel[1]):
    raise c.error("focal length duplicated in camera", "focal")
  sensor = [f32(v) for v in s["sensorsize"]]
  if not (sensor[0] > 0 and sensor[1] > 0):
    for name in ("focal", "focalpixel", "principal", "principalpixel"):
      if any(s[name]):
        raise c.error("focal/principal require sensorsize in camera", name)
  res = s["resolution"]
  intrinsic = [f32(0)] * 4
  if sensor[0] > 0 and sensor[1] > 0:
    dens = [f32(res[0]) / sensor[0], f32(res[1]) / sensor[1]]
    intrinsic = [
      f32(focalpixel[0]) / dens[0] + f32(focal[0]),
      f32(focalpixel[1]) / dens[1] + f32(focal[1]),
      f32(principalpixel[0]) / dens[0] + f32(principal[0]),
      f32(principalpixel[1]) / dens[1] + f32(principal[1]),
    ]
    # float arithmetic as MuJoCo (std::atan2 of two floats)
    fovy = float(bm.atan2f(sensor[1] / f32(2), intrinsic[1])) * 360.0 / mjPI
  else:
    znear = f32(ctx.vis["map"]["znear"])
    intrinsic[0] = intrinsic[1] = znear
  c.fovy = fovy
  c.sensorsize = sensor
  c.intrinsic = intrinsic


def compile_light(ctx, li):
  """Port of mjCLight::Compile."""
  s = li.spec
  pos = list(s["pos"])
  d = list(s["dir"])
  if li.frame is not None:
    pos, _ = bm.frameaccum(li.frame[0], li.frame[1], pos, [1.0, 0.0, 0.0, 0.0])
    d = bm.rotvecquat(d, li.frame[1])
  if bm.normvec(d) < mjEPS:
    raise li.error("zero direction in light", "dir")
  if not 0 <= s["softness"] <= 1:
    raise li.error("light softness must be in [0, 1]", "softness")
  li.pos, li.dir = pos, d
  if s.get("type") is not None:
    li.type = s["type"]
  elif s.get("directional"):
    li.type = mjLIGHT_DIRECTIONAL
  else:
    li.type = mjLIGHT_SPOT
  li.target = s.get("target")


def compile_body(ctx, b):
  """Port of mjCBody::Compile for body b (id > 0) and the world (id 0)."""
  bid = b.id
  b.user_data = (
    user_data(b, {"user": b.user}, ctx.nuser["body"], "body") if bid else [0.0] * ctx.nuser["body"]
  )
  if bid == 0:
    b.quat = [1.0, 0.0, 0.0, 0.0]
  for c in b.children:
    c.weldid = c.id if (c.joints or c.mocap) else b.weldid

  if bid:
    b.quat = bm.resolve_orientation(b.node, b.orient, ctx.degree, ctx.eulerseq)
  b.local_pose = (list(b.pos), list(b.quat))
  compile_inertial(ctx, b)

  if b.frame is not None:
    b.pos, b.quat = bm.frameaccum(b.frame[0], b.frame[1], b.pos, b.quat)

  contact_flags(b)

  # free-joint alignment
  align = (
    len(b.joints) == 1
    and b.joints[0].spec["type"] == mjJNT_FREE
    and not b.children
    and (
      b.joints[0].spec["align"] == mjALIGNFREE_TRUE
      or (b.joints[0].spec["align"] == mjALIGNFREE_AUTO and ctx.alignfree)
    )
  )
  b.aligned = align
  if align:
    b.pos, b.quat = bm.frameaccum(b.pos, b.quat, b.ipos, b.iquat)
    ipos_inv, iquat_inv = bm.frameinvert(b.ipos, b.iquat)
    b.ipos, b.iquat = [0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]
    for g in b.geoms:
      g.pos, g.quat = bm.frameaccum(ipos_inv, iquat_inv, g.pos, g.quat)

  # joints
  b.dofnum = 0
  for j in b.joints:
    b.dofnum += compile_joint(ctx, j)
  if b.dofnum > 6:
    raise b.error(f"more than 6 dofs in body '{b.name}'")
  hasball = False
  for j in b.joints:
    if j.type in (mjJNT_BALL, mjJNT_HINGE) and hasball:
      raise b.error(f"ball followed by rotation in body '{b.name}'")
    if j.type == mjJNT_BALL:
      hasball = True
  if b.mocap and (b.dofnum or (b.parent is not None and b.parent.id != 0)):
    raise b.error(f"mocap body '{b.name}' is not a fixed child of world")

  for s in b.sites:
    compile_site(ctx, s)
  for c in b.cams:
    compile_camera(ctx, c)
  for li in b.lights:
    compile_light(ctx, li)

  if align:
    for s in b.sites:
      s.pos, s.quat = bm.frameaccum(ipos_inv, iquat_inv, s.pos, s.quat)
    for c in b.cams:
      c.pos, c.quat = bm.frameaccum(ipos_inv, iquat_inv, c.pos, c.quat)
    for li in b.lights:
      li.pos, _ = bm.frameaccum(ipos_inv, iquat_inv, li.pos, [1.0, 0.0, 0.0, 0.0])
      li.dir = bm.rotvecquat(li.dir, iquat_inv)


def contact_flags(b):
  """A body's contype and conaffinity (its geoms' ORed) and margin (their largest margin+gap)."""
  b.contype = b.conaffinity = 0
  b.margin = 0.0
  for g in b.geoms:
    b.contype |= g.contype
    b.conaffinity |= g.conaffinity
    b.margin = max(b.margin, g.spec["margin"] + g.spec["gap"])


def compile_inertial(ctx, b):
  """The inertial frame, mass and inertia of body b: from its <inertial>, or from its geoms,
  which this compiles (edit.py re-runs it after an edit of a geom)."""
  bid = b.id
  b.ipos = None
  b.iquat = [1.0, 0.0, 0.0, 0.0]
  b.mass = 0.0
  b.inertia = [0.0, 0.0, 0.0]
  if b.explicit:
    inode = b.inode
    iq = list(b.iorient["quat"])
    bm.normvec(iq)
    b.ipos = list(b.ipos_given)
    b.mass = b.imass
    b.inertia = list(b.iinertia)
    if b.fullinertia is not None:
      if any(b.iorient[a] is not None for a in ORIENT_ATTRS[1:]) or "quat" in inode.attrs:
        raise inode.error(
          "fullinertia and inertial orientation cannot both be specified", "fullinertia"
        )
      if any(b.inertia):
        raise inode.error(
          "fullinertia and diagonal inertia cannot both be specified", "fullinertia"
        )
      iq, b.inertia, err = ine.full_inertia(b.fullinertia)
      if err:
        raise inode.error(f"error '{err}' in fullinertia", "fullinertia")
    else:
      iq = bm.resolve_orientation(inode, b.iorient, ctx.degree, ctx.eulerseq)
    if b.iframe is not None:
      b.ipos, iq = bm.frameaccum(b.iframe[0], b.iframe[1], b.ipos, iq)
      bm.normvec(iq)
    b.iquat = iq

  # geoms, then the inertial frame from geoms if needed
  lo, hi = ctx.inertiagrouprange
  for g in b.geoms:
    g.inferinertia = (
      bid > 0
      and (not b.explicit or ctx.inertiafromgeom == mjINERTIAFROMGEOM_TRUE)
      and lo <= g.spec["group"] <= hi
    )
    compile_geom(ctx, g)
  if bid > 0 and (
    ctx.inertiafromgeom == mjINERTIAFROMGEOM_TRUE
    or (b.ipos is None and ctx.inertiafromgeom == mjINERTIAFROMGEOM_AUTO)
  ):
    # massless geoms do not enter the body's inertial frame (MuJoCo 3.17)
    sel = [g for g in b.geoms if lo <= g.spec["group"] <= hi and g.mass > 0]
    if len(sel) == 1:
      g = sel[0]
      b.ipos, b.iquat, b.mass, b.inertia = list(g.pos), list(g.quat), g.mass, list(g.inertia)
    elif len(sel) > 1:
      mass, ipos, iquat, inertia, err = ine.combine(
        [g.mass for g in sel], [g.pos for g in sel], [g.quat for g in sel], [g.inertia for g in sel]
      )
      if err:
        raise b.error(err)
      b.mass, b.ipos, b.iquat, b.inertia = mass, ipos, iquat, inertia
  if b.ipos is None:
    b.ipos, b.iquat = (list(v) for v in b.local_pose)

  # bound and check mass and inertia
  if bid > 0:
    b.mass = max(b.mass, ctx.boundmass)
    b.inertia = [max(v, ctx.boundinertia) for v in b.inertia]
    if b.mass < 0 or min(b.inertia) < 0:
      raise b.error("mass and inertia cannot be negative")
    i0, i1, i2 = b.inertia
    if i0 + i1 < i2 or i0 + i2 < i1 or i1 + i2 < i0:
      if ctx.balanceinertia:
        b.inertia = [(i0 + i1 + i2) / 3.0] * 3
      else:
        raise b.error("inertia must satisfy A + B >= C; use 'balanceinertia' to fix")


def compile_tree(ctx, lists):
  """Compiles all bodies in order (children after parents)."""
  world = lists["body"][0]
  world.weldid = 0
  for b in lists["body"]:
    compile_body(ctx, b)
  for b in lists["body"][1:]:
    if b.joints:
      free = sum(j.type == mjJNT_FREE for j in b.joints)
      if free > 1 or (free == 1 and len(b.joints) > 1):
        raise b.error("free joint can only appear by itself")
      if free and b.parent.id != 0:
        raise b.error("free joint can only be used on top level")


def check_mass(lists):
  """Port of CheckBodiesMassInertia: moving bodies need mass and inertia above mjMINVAL."""

  def ok(b):
    # NaN (a flat mesh's inertia) fails too, as in MuJoCo
    if b.mass >= mjMINVAL and all(v >= mjMINVAL for v in b.inertia):
      return True
    return any(ok(c) for c in b.children if not c.joints)

  for b in lists["body"][1:]:
    if b.joints and not ok(b):
      raise b.error("mass and inertia of moving bodies must be larger than mjMINVAL")
