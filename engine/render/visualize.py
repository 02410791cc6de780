"""Abstract visualization: the mjv_* functions that turn (model, data) into a scene to draw.

Port of engine_vis_visualize.c (scene geoms, decorations, lights, cameras, skins),
engine_vis_init.c (defaults, mjv_makeScene) and engine_vis_interact.c (camera and model motion,
selection, perturbation). The renderer consumes an MjvScene with the attribute interface of
MuJoCo's bindings (`scn.ngeom`, `scn.geoms[i].pos`, `scn.lights[i].dir`, `scn.camera[0]`, ...).

Plain numpy, outside the jitted core. The geoms live in one numpy record array
(`scn.geom_arrays.records`, rows `[:scn.ngeom]` valid, each field also a column attribute such
as `scn.geom_arrays.pos`) and `scn.geoms[i]` is a view of row i, so a renderer can read whole
columns at once. Model geoms and sites (the bulk of a scene) and joint decorations are filled
with vectorised numpy; other decorations loop over objects in Python where MuJoCo has
per-object logic. Reals are stored as float32 like MuJoCo's C floats: computed in float64 and
rounded once. `camdist` and `transparent` are left 0: the renderer sets them when it sorts.

Not drawn: flexes (the engine has none), bounding-volume hierarchies, SDF iterations, tactile
sensors and surface-velocity arrows.
"""

import math

import numpy as np

from engine import _jit
from engine import enums
from engine import math as _math
from engine import support
from engine.collision.sdf import halton
from engine.enums import mjtCamera
from engine.enums import mjtCatBit
from engine.enums import mjtFrame
from engine.enums import mjtGeom
from engine.enums import mjtLabel
from engine.enums import mjtObj
from engine.enums import mjtVisFlag as V
from engine.errors import FatalError
from engine.ray import mj_ray as _ray
from engine.smooth import mj_solveM as _solveM

mjMAXLIGHT = 100  # maximum number of lights in a scene
mjMAXPLANEGRID = 200  # maximum number of grid divisions for a plane
mjNGROUP = enums.mjNGROUP
mjMINVAL = enums.mjMINVAL
mjNVISFLAG = int(V.mjNVISFLAG)
mjNRNDFLAG = int(enums.mjtRndFlag.mjNRNDFLAG)

# mjv_defaultOption's flags (mjVISSTRING initial values) and mjv_makeScene's render flags
_VIS_DEFAULT_ON = (
  V.mjVIS_TEXTURE,
  V.mjVIS_TENDON,
  V.mjVIS_RANGEFINDER,
  V.mjVIS_PERTOBJ,
  V.mjVIS_STATIC,
  V.mjVIS_SKIN,
  V.mjVIS_FLEXEDGE,
  V.mjVIS_FLEXSKIN,
)
_RND_DEFAULT_ON = tuple(
  enums.mjtRndFlag[n]
  for n in ("mjRND_SHADOW", "mjRND_REFLECTION", "mjRND_SKYBOX", "mjRND_HAZE", "mjRND_CULL_FACE")
)

_CAT_STATIC = int(mjtCatBit.mjCAT_STATIC)
_CAT_DYNAMIC = int(mjtCatBit.mjCAT_DYNAMIC)
_CAT_DECOR = int(mjtCatBit.mjCAT_DECOR)
_OBJ_UNKNOWN = int(mjtObj.mjOBJ_UNKNOWN)
_JNT_FREE = int(enums.mjtJoint.mjJNT_FREE)
_JNT_BALL = int(enums.mjtJoint.mjJNT_BALL)
_JNT_SLIDE = int(enums.mjtJoint.mjJNT_SLIDE)
_TEXROLE_RGB = int(enums.mjtTextureRole.mjTEXROLE_RGB)
_BOX = int(mjtGeom.mjGEOM_BOX)
_SPHERE = int(mjtGeom.mjGEOM_SPHERE)
_ARROW = int(mjtGeom.mjGEOM_ARROW)
_ARROW1 = int(mjtGeom.mjGEOM_ARROW1)
_F32 = np.float32

# the engine's quaternion helpers, callable from Python
_quatZ2Vec = _jit.python_callable(_math.mju_quatZ2Vec)
_quat2Mat = _jit.python_callable(_math.mju_quat2Mat)
_mat2Quat = _jit.python_callable(_math.mju_mat2Quat)
_mulQuat = _jit.python_callable(_math.mju_mulQuat)
_negQuat = _jit.python_callable(_math.mju_negQuat)
_rotVecQuat = _jit.python_callable(_math.mju_rotVecQuat)
_axisAngle2Quat = _jit.python_callable(_math.mju_axisAngle2Quat)
_quat2Vel = _jit.python_callable(_math.mju_quat2Vel)
_negPose = _jit.python_callable(_math.mju_negPose)
_mulPose = _jit.python_callable(_math.mju_mulPose)


def _f32(x) -> float:
  """x rounded to a C float, as a Python float (how MuJoCo's float fields read back)."""
  return float(_F32(x))


# ------------------------------------------------------------------------------------------------
# option, camera, perturbation


class MjvOption:
  """Visualization options (mjvOption): what to show.

  Attributes: label (mjtLabel), frame (mjtFrame), geomgroup, sitegroup, jointgroup, tendongroup,
  actuatorgroup, flexgroup, skingroup: (6,) uint8 visibility per group; flags: (mjNVISFLAG,)
  uint8 indexed by mjtVisFlag; bvh_depth, flex_layer: ints.
  """

  def __init__(self):
    mjv_defaultOption(self)

  def __repr__(self):
    return _repr(self, "MjvOption")


class MjvCamera:
  """Abstract camera (mjvCamera): free, tracking, fixed or user.

  Attributes: type (mjtCamera), fixedcamid, trackbodyid: ints; lookat: (3,) float64;
  distance, azimuth, elevation (degrees): floats; orthographic: 0 or 1.
  """

  def __init__(self):
    mjv_defaultCamera(self)

  def __repr__(self):
    return _repr(self, "MjvCamera")


class MjvPerturb:
  """Object selection and mouse perturbation (mjvPerturb).

  Attributes: select (body id, <= 0 none), flexselect, skinselect (-1 none), active, active2
  (mjtPertBit masks); refpos (3,), refquat (4,), refselpos (3,), localpos (3,): float64;
  localmass, scale: floats.
  """

  def __init__(self):
    mjv_defaultPerturb(self)

  def __repr__(self):
    return _repr(self, "MjvPerturb")


def mjv_defaultOption(opt: MjvOption):
  """Port of mjv_defaultOption, engine_vis_init.c: groups 0-2 visible, MuJoCo's default flags."""
  opt.label = int(mjtLabel.mjLABEL_NONE)
  opt.frame = int(mjtFrame.mjFRAME_NONE)
  for name in (
    "geomgroup",
    "sitegroup",
    "jointgroup",
    "tendongroup",
    "actuatorgroup",
    "flexgroup",
    "skingroup",
  ):
    setattr(opt, name, np.array([1, 1, 1, 0, 0, 0], np.uint8))
  opt.flags = np.zeros(mjNVISFLAG, np.uint8)
  opt.flags[list(_VIS_DEFAULT_ON)] = 1
  opt.bvh_depth = 1
  opt.flex_layer = 0


def mjv_defaultCamera(cam: MjvCamera):
  """Port of mjv_defaultCamera: free camera 2 units from the origin, azimuth 90, elevation -45."""
  cam.type = int(mjtCamera.mjCAMERA_FREE)
  cam.fixedcamid = -1
  cam.trackbodyid = -1
  cam.lookat = np.zeros(3)
  cam.distance = 2.0
  cam.azimuth = 90.0
  cam.elevation = -45.0
  cam.orthographic = 0


def mjv_defaultFreeCamera(m, cam: MjvCamera):
  """Port of mjv_defaultFreeCamera: free camera looking at the model's center from 1.5 extents,
  at the azimuth, elevation and projection of <visual><global>."""
  mjv_defaultCamera(cam)
  cam.lookat = np.array(m.stat.center, np.float64)
  cam.distance = 1.5 * float(m.stat.extent)
  cam.azimuth = float(m.vis.global_.azimuth)
  cam.elevation = float(m.vis.global_.elevation)
  cam.orthographic = int(m.vis.global_.orthographic)


def mjv_defaultPerturb(pert: MjvPerturb):
  """Port of mjv_defaultPerturb: nothing selected, identity reference orientation, scale 1."""
  pert.select = 0
  pert.flexselect = -1
  pert.skinselect = -1
  pert.active = 0
  pert.active2 = 0
  pert.refpos = np.zeros(3)
  pert.refquat = np.array([1.0, 0, 0, 0])
  pert.refselpos = np.zeros(3)
  pert.localpos = np.zeros(3)
  pert.localmass = 0.0
  pert.scale = 1.0


def _repr(obj, name):
  body = "\n".join(f"  {k}: {v!r}" for k, v in sorted(vars(obj).items()) if k[0] != "_")
  return f"<{name}\n{body}\n>"


# ------------------------------------------------------------------------------------------------
# struct-of-arrays stores with per-index views (geoms and lights)


class _Store:
  """n records in one numpy structured array; each field is also an attribute (a column view),
  so `store.pos[lo:hi]` reads or writes a block and `store.records[i] = store.default` resets
  a record in one operation."""

  def __init__(self, spec, n, defaults=None):
    dtype = np.dtype([(name, dt, shape) for name, (dt, shape) in spec.items()])
    self.n = n
    self.records = np.zeros(n, dtype)
    self.default = np.zeros((), dtype)
    for name, value in (defaults or {}).items():
      self.default[name] = value
    # n default records: copying a block of them is much faster than broadcasting `default`
    self.blank = np.empty(n, dtype)
    self.blank[...] = self.default
    for name in spec:
      setattr(self, name, self.records[name])


class _Views:
  """A read-only sequence of n row views of a _Store, each made when indexed (a scene is made
  for every Physics.render call: a tuple of 1000 views would cost more than the drawing)."""

  def __init__(self, view, store, n):
    self._view, self._store, self._n = view, store, n

  def __len__(self):
    return self._n

  def __getitem__(self, i):
    if isinstance(i, slice):
      return [self[k] for k in range(*i.indices(self._n))]
    i = int(i)
    if i < 0:
      i += self._n
    if not 0 <= i < self._n:
      raise IndexError(f"index {i} out of range for {self._n} elements")
    return self._view(self._store, i)

  def __iter__(self):
    return (self._view(self._store, i) for i in range(self._n))


def _view_class(name, spec, doc, extra=(), new_store=None):
  """A class whose instances view one row of a _Store; scalars read back as Python numbers.
  A view made without a store gets its own one-record store (`new_store()`)."""
  new_store = new_store or (lambda: _Store(spec, 1))

  def make_property(field, dtype, shape):
    if shape:

      def get(self):
        return getattr(self._store, field)[self._index]

      def set_(self, value):
        getattr(self._store, field)[self._index] = value
    else:
      cast = float if np.dtype(dtype).kind == "f" else int

      def get(self):
        return cast(getattr(self._store, field)[self._index])

      def set_(self, value):
        getattr(self._store, field)[self._index] = value

    return property(get, set_)

  def __init__(self, _store=None, _index=0):
    object.__setattr__(self, "_store", _store if _store is not None else new_store())
    object.__setattr__(self, "_index", _index)

  def __setattr__(self, key, value):
    if not hasattr(type(self), key):
      raise AttributeError(f"'{name}' has no attribute '{key}'")
    object.__setattr__(self, key, value)

  def __repr__(self):
    fields = sorted(list(spec) + [e[0] for e in extra])
    body = "\n".join(f"  {k}: {getattr(self, k)!r}" for k in fields)
    return f"<{name}\n{body}\n>"

  attrs = {
    "__doc__": doc,
    "__init__": __init__,
    "__setattr__": __setattr__,
    "__repr__": __repr__,
    "__slots__": ("_store", "_index"),
  }
  for field, (dtype, shape) in spec.items():
    attrs[field] = make_property(field, dtype, shape)
  for field, prop in extra:
    attrs[field] = prop
  return type(name, (), attrs)


_GEOM_SPEC = {
  "type": (np.int32, ()),
  "dataid": (np.int32, ()),
  "objtype": (np.int32, ()),
  "objid": (np.int32, ()),
  "category": (np.int32, ()),
  "matid": (np.int32, ()),
  "texid": (np.int32, ()),
  "texuniform": (np.int32, ()),
  "texcoord": (np.int32, ()),
  "segid": (np.int32, ()),
  "size": (np.float32, (3,)),
  "pos": (np.float32, (3,)),
  "mat": (np.float32, (3, 3)),
  "rgba": (np.float32, (4,)),
  "emission": (np.float32, ()),
  "specular": (np.float32, ()),
  "shininess": (np.float32, ()),
  "reflectance": (np.float32, ()),
  "texrepeat": (np.float32, (2,)),
  "camdist": (np.float32, ()),
  "modelrbound": (np.float32, ()),
  "transparent": (np.uint8, ()),
}


# mjv_initGeom's values for a geom of type mjGEOM_NONE
_GEOM_DEFAULTS = {
  "type": mjtGeom.mjGEOM_NONE,
  "size": 0.1,
  "mat": np.eye(3),
  "rgba": (0.5, 0.5, 0.5, 1),
  "dataid": -1,
  "matid": -1,
  "texid": -1,
  "specular": 0.5,
  "shininess": 0.5,
}


class _GeomStore(_Store):
  """Geom records plus the labels (a list of str)."""

  def __init__(self, n):
    super().__init__(_GEOM_SPEC, n, _GEOM_DEFAULTS)
    self.label = [""] * n


def _get_label(self):
  return self._store.label[self._index]


def _set_label(self, value):
  self._store.label[self._index] = str(value)[:99]


MjvGeom = _view_class(
  "MjvGeom",
  _GEOM_SPEC,
  """Abstract geom (mjvGeom): one row of a geom store (scn.geoms[i]) or a standalone record.

  Attributes: type (mjtGeom), dataid (mesh 2*id or 2*id+1 for the hull, hfield or plane number),
  objtype (mjtObj), objid, category (mjtCatBit), matid, texid, texuniform, texcoord, segid: ints;
  size (3,), pos (3,), mat (3, 3), rgba (4,), texrepeat (2,): float32 views; emission, specular,
  shininess, reflectance, camdist, modelrbound: floats; transparent: 0/1; label: str.
  """,
  extra=(("label", property(_get_label, _set_label)),),
  new_store=lambda: _GeomStore(1),
)


_LIGHT_SPEC = {
  "id": (np.int32, ()),
  "pos": (np.float32, (3,)),
  "dir": (np.float32, (3,)),
  "type": (np.int32, ()),
  "texid": (np.int32, ()),
  "attenuation": (np.float32, (3,)),
  "cutoff": (np.float32, ()),
  "exponent": (np.float32, ()),
  "ambient": (np.float32, (3,)),
  "diffuse": (np.float32, (3,)),
  "specular": (np.float32, (3,)),
  "headlight": (np.uint8, ()),
  "castshadow": (np.uint8, ()),
  "bulbradius": (np.float32, ()),
  "intensity": (np.float32, ()),
  "range": (np.float32, ()),
  "softness": (np.float32, ()),
}

MjvLight = _view_class(
  "MjvLight",
  _LIGHT_SPEC,
  """OpenGL light (mjvLight) in world coordinates: one row of the scene's light store.

  Attributes: id (model light, -1 headlight), type (mjtLightType), texid: ints; pos, dir,
  attenuation, ambient, diffuse, specular: (3,) float32; cutoff, exponent, bulbradius,
  intensity, range, softness: floats; headlight, castshadow: 0/1.
  """,
)


class MjvGLCamera:
  """OpenGL camera (mjvGLCamera): pose and frustum of one eye.

  Attributes: pos, forward, up: (3,) float32; frustum_center, frustum_width, frustum_bottom,
  frustum_top, frustum_near, frustum_far: floats (C float precision); orthographic: 0 or 1.
  """

  _FLOATS = (
    "frustum_center",
    "frustum_width",
    "frustum_bottom",
    "frustum_top",
    "frustum_near",
    "frustum_far",
  )

  def __init__(self):
    self.pos = np.zeros(3, np.float32)
    self.forward = np.zeros(3, np.float32)
    self.up = np.zeros(3, np.float32)
    for name in self._FLOATS:
      setattr(self, name, 0.0)
    self.orthographic = 0

  def __setattr__(self, key, value):
    if key in self._FLOATS:
      value = _f32(value)
    elif key in ("pos", "forward", "up") and key in self.__dict__:
      self.__dict__[key][...] = value
      return
    object.__setattr__(self, key, value)

  def __repr__(self):
    return _repr(self, "MjvGLCamera")


# ------------------------------------------------------------------------------------------------
# scene


class MjvScene:
  """Abstract scene (mjvScene) passed to the renderer.

  Attributes:
    maxgeom, ngeom: capacity and count of geoms; geoms: tuple of maxgeom MjvGeom views (first
      ngeom valid); geom_arrays: the same data as columns (`scn.geom_arrays.pos[:scn.ngeom]`,
      our extension for vectorised renderers); geomorder: (maxgeom,) int32 for the sorter.
    nlight, lights: count and tuple of mjMAXLIGHT MjvLight views.
    camera: (left, right) MjvGLCamera.
    enabletransform, translate (3,), rotate (4,), scale: model transformation (room space).
    stereo (mjtStereo), flags: (mjNRNDFLAG,) uint8 render flags, framewidth, framergb (3,).
    status: 0 ok, 1 geom buffer full (a warning was issued).
    nskin, skinfacenum, skinvertadr, skinvertnum: (nskin,) int32; skinvert, skinnormal:
      (3*nskinvert,) float32 posed skin vertices and normals (mjv_updateSkin).
    nflex: 0 (flexes are not supported).
  """

  def __init__(self, model=None, maxgeom: int | None = None):
    """Port of mjv_makeScene: buffers for maxgeom geoms and the model's skins. `MjvScene()` is an
    empty scene (no geom slots), as the bindings'; with a model, maxgeom defaults to 1000."""
    maxgeom = int(maxgeom if maxgeom is not None else (0 if model is None else 1000))
    if maxgeom < 0:
      raise ValueError("maxgeom must be non-negative")
    self.maxgeom = maxgeom
    self.ngeom = 0
    self.geom_arrays = _GeomStore(maxgeom)
    self.geoms = _Views(MjvGeom, self.geom_arrays, maxgeom)
    self.geomorder = np.zeros(maxgeom, np.int32)
    self.nlight = 0
    self.light_arrays = _Store(_LIGHT_SPEC, mjMAXLIGHT)
    self.lights = _Views(MjvLight, self.light_arrays, mjMAXLIGHT)
    self.camera = (MjvGLCamera(), MjvGLCamera())
    self.enabletransform = 0
    self.translate = np.zeros(3, np.float32)
    self.rotate = np.array([1, 0, 0, 0], np.float32)
    self.scale = 1.0
    self.stereo = 0
    self.flags = np.zeros(mjNRNDFLAG, np.uint8)
    self.flags[list(_RND_DEFAULT_ON)] = 1
    self.framewidth = 0
    self.framergb = np.zeros(3, np.float32)
    self.status = 0
    self.nflex = 0
    nskin = model.nskin if model is not None else 0
    self.nskin = nskin
    if nskin:
      self.skinfacenum = np.array(model.skin_facenum, np.int32)
      self.skinvertadr = np.array(model.skin_vertadr, np.int32)
      self.skinvertnum = np.array(model.skin_vertnum, np.int32)
      nvert = int(np.sum(model.skin_vertnum))
    else:
      self.skinfacenum = self.skinvertadr = self.skinvertnum = np.zeros(0, np.int32)
      nvert = 0
    self.skinvert = np.zeros(3 * nvert, np.float32)
    self.skinnormal = np.zeros(3 * nvert, np.float32)

  def __repr__(self):
    return f"<MjvScene ngeom={self.ngeom}/{self.maxgeom} nlight={self.nlight}>"


# ------------------------------------------------------------------------------------------------
# geom construction


def _init_rows(g, lo, hi):
  """mjv_initGeom(geom, mjGEOM_NONE, NULL, ...) on rows [lo, hi): MuJoCo's default record."""
  g.records[lo:hi] = g.blank[lo:hi]
  g.label[lo:hi] = [""] * (hi - lo)


def _full(scn) -> bool:
  """True (and a one-time warning) when the geom buffer is exhausted, as acquireGeom."""
  if scn.ngeom < scn.maxgeom:
    return False
  if not scn.status:
    import warnings

    warnings.warn(
      f"Pre-allocated visual geom buffer is full. Increase maxgeom above {scn.maxgeom}.",
      RuntimeWarning,
      stacklevel=3,
    )
    scn.status = 1
  return True


def _acquire(scn, objid, category, objtype) -> int:
  """Port of acquireGeom: row of the next free geom, initialised; -1 when the buffer is full.
  The geom counts once _release is called (an unreleased row is reused by the next acquire)."""
  if _full(scn):
    return -1
  i = scn.ngeom
  g = scn.geom_arrays
  _init_rows(g, i, i + 1)
  g.objtype[i] = objtype
  g.objid[i] = objid
  g.category[i] = category
  g.segid[i] = i
  return i


def _release(scn):
  scn.ngeom += 1


def _set_geom(g, i, type_, size=None, pos=None, mat=None, rgba=None):
  """Port of mjv_initGeom on row i: the given fields, MuJoCo's defaults for the rest."""
  g.type[i] = type_
  if size is None:
    g.size[i] = 0.1
  elif type_ == mjtGeom.mjGEOM_SPHERE:
    g.size[i] = size[0]
  elif type_ in (mjtGeom.mjGEOM_CAPSULE, mjtGeom.mjGEOM_CYLINDER):
    g.size[i] = (size[0], size[0], size[1])
  else:
    g.size[i] = size[:3]
  g.pos[i] = 0 if pos is None else pos
  g.mat[i] = np.eye(3) if mat is None else np.reshape(mat, (3, 3))
  g.rgba[i] = (0.5, 0.5, 0.5, 1) if rgba is None else rgba
  g.dataid[i] = -1
  g.matid[i] = -1
  g.texid[i] = -1
  g.texuniform[i] = 0
  g.texrepeat[i] = 0
  g.texcoord[i] = 0
  g.emission[i] = 0
  g.specular[i] = 0.5
  g.shininess[i] = 0.5
  g.reflectance[i] = 0
  g.label[i] = ""
  g.modelrbound[i] = 0


def mjv_initGeom(geom, type, size, pos, mat, rgba):  # noqa: A002 (MuJoCo's argument name)
  """Port of mjv_initGeom: set the given fields (None: default), defaults for the others."""
  _set_geom(
    geom._store,
    geom._index,
    int(type),
    None if size is None else np.asarray(size, np.float64).ravel(),
    None if pos is None else np.asarray(pos, np.float64).ravel(),
    None if mat is None else np.asarray(mat, np.float64).ravel(),
    None if rgba is None else np.asarray(rgba, np.float32).ravel(),
  )


def _connector(g, i, type_, width, frm, to):
  """Port of mjv_connector on row i: a capsule, cylinder, arrow or line from `frm` to `to`."""
  if type_ not in (
    mjtGeom.mjGEOM_CAPSULE,
    mjtGeom.mjGEOM_CYLINDER,
    mjtGeom.mjGEOM_ARROW,
    mjtGeom.mjGEOM_ARROW1,
    mjtGeom.mjGEOM_ARROW2,
    mjtGeom.mjGEOM_LINE,
  ):
    raise ValueError(f"invalid geom type {int(type_)} for connector")
  frm = np.asarray(frm, np.float64)
  to = np.asarray(to, np.float64)
  dif = to - frm
  g.type[i] = type_
  length = math.sqrt(dif[0] * dif[0] + dif[1] * dif[1] + dif[2] * dif[2])
  if type_ in (mjtGeom.mjGEOM_CAPSULE, mjtGeom.mjGEOM_CYLINDER):
    # centered, size[2] is the half-length
    g.pos[i] = 0.5 * (frm + to)
    g.size[i] = (width, width, _f32(length) * _F32(0.5))
  else:
    g.pos[i] = frm
    g.size[i] = (width, width, length)
  quat = np.empty(4)
  mat = np.empty(9)
  _quatZ2Vec(quat, dif)
  _quat2Mat(mat, quat)
  g.mat[i] = mat.reshape(3, 3)


def _quatz2vec_rows(vec):
  """mju_quatZ2Vec for rows of vectors (n, 3): quaternions (n, 4) turning z onto each."""
  n = len(vec)
  quat = np.zeros((n, 4))
  quat[:, 0] = 1
  norm = np.sqrt(np.sum(vec * vec, axis=1))
  ok = norm >= mjMINVAL
  vn = np.where(ok[:, None], vec / np.where(ok, norm, 1)[:, None], (1.0, 0.0, 0.0))
  # axis = z x vn
  axis = np.stack([-vn[:, 1], vn[:, 0], np.zeros(n)], axis=1)
  a = np.sqrt(np.sum(axis * axis, axis=1))
  axis = np.where(
    (a >= mjMINVAL)[:, None], axis / np.where(a >= mjMINVAL, a, 1)[:, None], (1.0, 0.0, 0.0)
  )
  cosine = vn[:, 2]
  angle = np.arctan2(a, cosine)
  turn = ok & (np.abs(a) >= mjMINVAL)
  half = 0.5 * angle[turn]
  quat[turn, 0] = np.cos(half)
  quat[turn, 1:] = axis[turn] * np.sin(half)[:, None]
  flip = ok & (np.abs(a) < mjMINVAL) & (cosine < 0)
  quat[flip] = (0.0, 1.0, 0.0, 0.0)
  return quat


def _quat2mat_rows(quat):
  """mju_quat2Mat for rows of unit quaternions (n, 4): rotation matrices (n, 3, 3)."""
  w, x, y, z = quat.T
  return np.stack(
    [
      w * w + x * x - y * y - z * z,
      2 * (x * y - w * z),
      2 * (x * z + w * y),
      2 * (x * y + w * z),
      w * w - x * x + y * y - z * z,
      2 * (y * z - w * x),
      2 * (x * z - w * y),
      2 * (y * z + w * x),
      w * w - x * x - y * y + z * z,
    ],
    axis=1,
  ).reshape(-1, 3, 3)


def _connector_rows(g, rows, types, width, frm, to):
  """mjv_connector on many rows: types (n,) of capsule, cylinder, arrow or line kinds,
  segments frm -> to (n, 3)."""
  if not len(rows):
    return
  dif = to - frm
  length = np.sqrt(np.sum(dif * dif, axis=1))
  centered = (types == mjtGeom.mjGEOM_CAPSULE) | (types == mjtGeom.mjGEOM_CYLINDER)
  g.type[rows] = types
  size = np.empty((len(rows), 3), np.float32)
  size[:, :2] = width
  size[:, 2] = np.where(centered, length.astype(np.float32) * _F32(0.5), length)
  g.size[rows] = size
  g.pos[rows] = np.where(centered[:, None], 0.5 * (frm + to), frm)
  g.mat[rows] = _quat2mat_rows(_quatz2vec_rows(dif))


def mjv_connector(geom, type, width, from_, to):  # noqa: A002 (MuJoCo's argument name)
  """Port of mjv_connector: set type, size, pos and mat of a connector between two points."""
  _connector(geom._store, geom._index, int(type), float(width), from_, to)


def _add_connector(scn, type_, width, frm, to, rgba, objid, category, objtype):
  """Port of addConnector."""
  i = _acquire(scn, objid, category, objtype)
  if i < 0:
    return
  _connector(scn.geom_arrays, i, type_, width, frm, to)
  if rgba is not None:
    scn.geom_arrays.rgba[i] = rgba
  _release(scn)


def _add_frame(scn, objid, pos, rot, length, width):
  """Port of addFrame: three cylinders along the columns of rot (red x, green y, blue z)."""
  rot = np.asarray(rot, np.float64).reshape(3, 3)
  for j in range(3):
    i = _acquire(scn, objid, _CAT_DECOR, _OBJ_UNKNOWN)
    if i < 0:
      return
    _connector(
      scn.geom_arrays, i, mjtGeom.mjGEOM_CYLINDER, width, pos, np.asarray(pos) + rot[:, j] * length
    )
    rgba = [0.0, 0.0, 0.0, 1.0]
    rgba[j] = 0.9
    scn.geom_arrays.rgba[i] = rgba
    _release(scn)


def _add_triangle(scn, v0, v1, v2, rgba, objid, category, objtype):
  """Port of addTriangle: a mjGEOM_TRIANGLE with edge lengths and normal in size and mat."""
  i = _acquire(scn, objid, category, objtype)
  if i < 0:
    return
  e1 = v1 - v0
  e2 = v2 - v0
  nrm = _cross(e1, e2)
  lengths = []
  for v in (e1, e2, nrm):
    n = math.sqrt(v @ v)
    lengths.append(n)
    if n >= mjMINVAL:
      v /= n
    else:
      v[:] = (1, 0, 0)
  mat = np.array([e1, e2, nrm]).T
  _set_geom(scn.geom_arrays, i, mjtGeom.mjGEOM_TRIANGLE, np.array(lengths), v0, mat.ravel(), rgba)
  _release(scn)


def _hsv2rgb(h, s, v):
  """Port of hsv2rgb (float arithmetic)."""
  h, s, v = _F32(h), _F32(s), _F32(v)
  if s <= 0:
    return (v, v, v)
  hh = h * _F32(6)
  i = int(hh)
  ff = hh - _F32(i)
  p = v * (_F32(1) - s)
  q = v * (_F32(1) - s * ff)
  t = v * (_F32(1) - s * (_F32(1) - ff))
  return ((v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v))[i] if i < 5 else (v, p, q)


def _island_color(h, awake=True):
  """Port of islandColor: a Halton-sequence color per island (gray when h < 0)."""
  hue, saturation, value = 1.0, 0.0, 0.7
  if h >= 0:
    hue = halton(h + 1, 7)
    saturation = 0.5 + 0.5 * halton(h + 1, 3)
    value = 0.6 + 0.4 * halton(h + 1, 5)
  if not awake:
    value *= 0.6
    saturation *= 0.7
  return list(_hsv2rgb(hue, saturation, value)) + [1.0]


def _dof_island_start(d, dof):
  """First dof of the island of `dof`, -1 if none (no islands built, or `dof` in none)."""
  nisland = int(getattr(d, "nisland", 0))
  if not nisland or dof < 0:
    return -1
  island = int(d.dof_island[dof])
  return int(d.island_dofadr[island]) if island >= 0 else -1


def _cross(a, b):
  """Cross product of two 3-vectors (np.cross is slow on small arrays)."""
  return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _round(x):
  """mju_round: nearest integer, halves away from zero."""
  return float(math.copysign(math.floor(abs(x) + 0.5), x))


def _make_label(m, objtype, objid) -> str:
  """Port of makeLabel: the object's name, else '<type> <id>'."""
  name = support.mj_id2name(m, objtype, objid)
  if name:
    return name[:99]
  return f"{mjtObj(objtype).name[6:].lower()} {objid}"


def _group_visible(groupflags, group):
  """Visibility of elements by group (an array of groups), clamped to [0, mjNGROUP-1] as
  MuJoCo does."""
  return np.asarray(groupflags)[np.clip(np.asarray(group), 0, mjNGROUP - 1)] != 0


def _visible(groupflags, group) -> bool:
  """Visibility of one element by its group."""
  return groupflags[min(max(int(group), 0), mjNGROUP - 1)] != 0


def _body_category(m, bodyid):
  """Port of bodycategory (vectorised): static if welded to the world, else dynamic."""
  return np.where(np.asarray(m.body_weldid)[bodyid] == 0, _CAT_STATIC, _CAT_DYNAMIC)


def _category(m, body) -> int:
  """Port of bodycategory for one body."""
  return _CAT_STATIC if m.body_weldid[body] == 0 else _CAT_DYNAMIC


_GRAY = np.array([0.5, 0.5, 0.5, 1], np.float32)


def _materials(m, opt, matid, rgba, category):
  """Port of setMaterial, vectorised over n elements.

  Returns the geom fields it decides: rgba (n, 4), emission, specular, shininess, reflectance,
  matid, texid, texuniform (n,) and texrepeat (n, 2). The element's rgba wins over the
  material's when it differs from the default gray or there is no material.
  """

  # material tables with a last row of mjv_initGeom defaults, picked by matid -1
  def table(values, default):
    default = np.reshape(np.asarray(default, np.float32), (1, -1))
    values = np.asarray(values, np.float32).reshape(m.nmat, default.shape[1])
    return np.concatenate([values, default])

  has = matid >= 0
  out_rgba = table(m.mat_rgba, _GRAY)[matid]
  own = np.any(rgba != _GRAY, axis=1) | ~has
  out_rgba[own] = rgba[own]
  emission = table(m.mat_emission, 0)[matid, 0]
  specular = table(m.mat_specular, 0.5)[matid, 0]
  shininess = table(m.mat_shininess, 0.5)[matid, 0]
  reflectance = table(m.mat_reflectance, 0)[matid, 0]
  if opt.flags[V.mjVIS_TEXTURE]:
    out_matid = matid.astype(np.int32)
    texid = np.append(m.mat_texid[:, _TEXROLE_RGB], -1).astype(np.int32)[matid]
    texuniform = np.append(m.mat_texuniform, 0).astype(np.int32)[matid]
    texrepeat = table(m.mat_texrepeat, (0, 0))[matid]
  else:
    n = len(matid)
    out_matid = texid = np.full(n, -1, np.int32)
    texuniform = np.zeros(n, np.int32)
    texrepeat = np.zeros((n, 2), np.float32)
  if opt.flags[V.mjVIS_TRANSPARENT]:
    out_rgba[category == _CAT_DYNAMIC, 3] *= _F32(m.vis.map.alpha)
  return (
    out_rgba,
    emission,
    specular,
    shininess,
    reflectance,
    out_matid,
    texid,
    texuniform,
    texrepeat,
  )


def _set_material(m, opt, g, i, matid, rgba):
  """Port of setMaterial on row i (one element)."""
  rgba = np.asarray(rgba, np.float32)
  if matid >= 0:
    g.rgba[i] = m.mat_rgba[matid]
    g.emission[i] = m.mat_emission[matid]
    g.specular[i] = m.mat_specular[matid]
    g.shininess[i] = m.mat_shininess[matid]
    g.reflectance[i] = m.mat_reflectance[matid]
  if matid < 0 or np.any(rgba != _GRAY):
    g.rgba[i] = rgba
  if opt.flags[V.mjVIS_TEXTURE] and matid >= 0:
    g.matid[i] = matid
    g.texid[i] = m.mat_texid[matid, _TEXROLE_RGB]
    g.texuniform[i] = m.mat_texuniform[matid]
    g.texrepeat[i] = m.mat_texrepeat[matid]
  if opt.flags[V.mjVIS_TRANSPARENT] and g.category[i] == _CAT_DYNAMIC:
    g.rgba[i, 3] *= _F32(m.vis.map.alpha)


def _model_elements(scn, m, d, opt, pert, kind, ids, category):
  """Adds model geoms or sites `ids` (already filtered by category and group) in one block.

  Vectorised addGeomGeoms/addSiteGeoms: sizes, poses, materials, texcoord, glow and dataid;
  elements with zero alpha are dropped as MuJoCo does (their slot is reused). Returns the first
  row and the ids that were added.
  """
  g = scn.geom_arrays
  matid = np.asarray(getattr(m, kind + "_matid"))[ids]
  mats = _materials(m, opt, matid, np.asarray(getattr(m, kind + "_rgba"))[ids], category)
  # island colors for geoms of moving bodies (before the alpha test, as MuJoCo)
  if kind == "geom" and opt.flags[V.mjVIS_ISLAND]:
    weld = np.asarray(m.body_weldid)[np.asarray(m.geom_bodyid)[ids]]
    for r in np.flatnonzero(np.asarray(m.body_dofnum)[weld] != 0):
      mats[5][r] = -1
      mats[0][r] = _island_color(_dof_island_start(d, int(m.body_dofadr[weld[r]])))
  keep = np.flatnonzero(mats[0][:, 3] != 0)
  lo = scn.ngeom
  full = len(keep) > scn.maxgeom - lo
  keep = keep[: scn.maxgeom - lo]
  ids, category = ids[keep], category[keep]
  rgba, emission, specular, shininess, reflectance, out_matid, texid, texuniform, texrepeat = (
    c[keep] for c in mats
  )
  types = np.asarray(getattr(m, kind + "_type"))[ids]
  n = len(ids)
  hi = lo + n
  _init_rows(g, lo, hi)
  g.objtype[lo:hi] = mjtObj.mjOBJ_GEOM if kind == "geom" else mjtObj.mjOBJ_SITE
  g.objid[lo:hi] = ids
  g.category[lo:hi] = category
  g.segid[lo:hi] = np.arange(lo, hi)
  g.type[lo:hi] = types

  # size for xyz scaling: sphere (r, r, r), capsule and cylinder (r, r, half-length)
  size = np.array(getattr(m, kind + "_size")[ids], np.float64)
  sph = types == mjtGeom.mjGEOM_SPHERE
  capcyl = (types == mjtGeom.mjGEOM_CAPSULE) | (types == mjtGeom.mjGEOM_CYLINDER)
  size[sph, 1] = size[sph, 0]
  size[sph, 2] = size[sph, 0]
  size[capcyl, 2] = size[capcyl, 1]
  size[capcyl, 1] = size[capcyl, 0]
  g.size[lo:hi] = size
  g.pos[lo:hi] = getattr(d, kind + "_xpos")[ids]
  g.mat[lo:hi] = getattr(d, kind + "_xmat")[ids].reshape(n, 3, 3)

  # materials
  g.rgba[lo:hi] = rgba
  g.emission[lo:hi] = emission
  g.specular[lo:hi] = specular
  g.shininess[lo:hi] = shininess
  g.reflectance[lo:hi] = reflectance
  g.matid[lo:hi] = out_matid
  g.texid[lo:hi] = texid
  g.texuniform[lo:hi] = texuniform
  g.texrepeat[lo:hi] = texrepeat

  # mesh data: texcoord flag, dataid 2*mesh or 2*mesh+1 (convex hull)
  dataid = np.asarray(getattr(m, kind + "_dataid"))[ids].astype(np.int32)
  is_mesh = types == mjtGeom.mjGEOM_MESH
  if kind == "geom":
    is_mesh = is_mesh | (types == mjtGeom.mjGEOM_SDF)
  mesh = is_mesh & (dataid >= 0)
  if np.any(mesh):
    mids = dataid[mesh]
    g.texcoord[lo:hi][mesh] = np.asarray(m.mesh_texcoordadr)[mids] >= 0
    hull = (np.asarray(m.mesh_graphadr)[mids] >= 0) & bool(opt.flags[V.mjVIS_CONVEXHULL])
    if kind == "geom":
      hull &= (np.asarray(m.geom_contype)[ids][mesh] != 0) | (
        np.asarray(m.geom_conaffinity)[ids][mesh] != 0
      )
    dataid[mesh] = 2 * mids + hull
  g.dataid[lo:hi] = dataid

  # glow elements of the selected body
  if pert.select > 0:
    sel = np.asarray(getattr(m, kind + "_bodyid"))[ids] == pert.select
    g.emission[lo:hi][sel] += _F32(m.vis.global_.glow)

  # labels
  label = mjtLabel.mjLABEL_GEOM if kind == "geom" else mjtLabel.mjLABEL_SITE
  if opt.label == label:
    objtype = mjtObj.mjOBJ_GEOM if kind == "geom" else mjtObj.mjOBJ_SITE
    g.label[lo:hi] = [_make_label(m, objtype, int(k)) for k in ids]
  scn.ngeom = hi
  if full:
    _full(scn)
  return lo, ids


def _add_geom_geoms(m, d, opt, pert, catmask, scn):
  """Port of addGeomGeoms: the model's geoms, planes re-centred under the camera."""
  if not m.ngeom:
    return
  types = np.asarray(m.geom_type)
  planeid = np.cumsum(types == mjtGeom.mjGEOM_PLANE) - 1
  category = _body_category(m, np.asarray(m.geom_bodyid))
  show = ((category & catmask) != 0) & _group_visible(opt.geomgroup, m.geom_group)
  ids = np.flatnonzero(show)
  lo, ids = _model_elements(scn, m, d, opt, pert, "geom", ids, category[ids])
  g = scn.geom_arrays
  g.modelrbound[lo : scn.ngeom] = np.asarray(m.geom_rbound)[ids]

  # planes: dataid is the plane number; infinite planes follow the camera in grid steps
  for r in np.flatnonzero(types[ids] == mjtGeom.mjGEOM_PLANE):
    i = lo + r
    gid = int(ids[r])
    g.dataid[i] = planeid[gid]
    pos = np.array(d.geom_xpos[gid], np.float64)
    size = m.geom_size[gid]
    if size[0] <= 0 or size[1] <= 0:
      head = (scn.camera[0].pos + scn.camera[1].pos).astype(np.float64) * 0.5
      vec = head - d.geom_xpos[gid]
      xmat = np.asarray(d.geom_xmat[gid]).reshape(3, 3)
      zfar = float(m.vis.map.zfar) * float(m.stat.extent)
      matid = int(m.geom_matid[gid])
      for k in range(2):
        if size[k] <= 0:
          if matid >= 0 and m.mat_texrepeat[matid, k] > 0:
            sx = 2 / float(m.mat_texrepeat[matid, k])
          else:
            sx = 2.1 * zfar / (mjMAXPLANEGRID - 2)
          dx = float(vec @ xmat[:, k])
          dx = 2 * sx * _round(0.5 * dx / sx)
          pos += xmat[:, k] * dx
    g.pos[i] = pos


def _add_site_geoms(m, d, opt, pert, catmask, scn):
  """Port of addSiteGeoms: the model's sites."""
  if not m.nsite:
    return
  category = _body_category(m, np.asarray(m.site_bodyid))
  show = ((category & catmask) != 0) & _group_visible(opt.sitegroup, m.site_group)
  ids = np.flatnonzero(show)
  _model_elements(scn, m, d, opt, pert, "site", ids, category[ids])


def _skin_geoms(m, d, opt, pert, catmask, scn):
  """Port of addSkinGeoms: one mjGEOM_SKIN per visible skin, placed at its first bone."""
  if not (_CAT_DYNAMIC & catmask) or not opt.flags[V.mjVIS_SKIN]:
    return
  g = scn.geom_arrays
  for k in range(m.nskin):
    if not _visible(opt.skingroup, m.skin_group[k]):
      continue
    i = _acquire(scn, k, _CAT_DYNAMIC, mjtObj.mjOBJ_SKIN)
    if i < 0:
      return
    body = int(m.skin_bonebodyid[m.skin_boneadr[k]])
    _set_geom(g, i, mjtGeom.mjGEOM_SKIN, pos=d.xpos[body])
    _set_material(m, opt, g, i, int(m.skin_matid[k]), m.skin_rgba[k])
    if pert.skinselect == k:
      g.emission[i] += _F32(m.vis.global_.glow)
    if m.skin_texcoordadr[k] >= 0:
      g.texcoord[i] = 1
    if g.rgba[i, 3] == 0:
      continue
    if opt.label == mjtLabel.mjLABEL_SKIN:
      g.label[i] = _make_label(m, mjtObj.mjOBJ_SKIN, k)
    _release(scn)


def _limit_impedances(d, efc_type) -> dict:
  """{joint or tendon id: impedance of its last limit row of type efc_type} (absent: 0)."""
  start = d.ne + d.nf
  rows = np.arange(start, start + d.nl)
  rows = rows[np.asarray(d.efc_type)[rows] == efc_type]
  return {int(d.efc_id[k]): float(d.efc_KBIP[k, 2]) for k in rows}


def mjv_isCatenary(m, d, i):
  """Port of mjv_isCatenary: (draw as a hanging catenary?, its length)."""
  has_stiffness = m.tendon_stiffness[i] != 0 or np.any(m.tendon_stiffnesspoly[i] != 0)
  limitedspring = bool(
    has_stiffness and m.tendon_lengthspring[i, 0] == 0 and m.tendon_lengthspring[i, 1] > 0
  )
  limitedconstraint = bool(
    not has_stiffness
    and m.tendon_limited[i] == 1
    and m.tendon_range[i, 0] == 0
    and d.ten_length[i] < m.tendon_range[i, 1]
  )
  has_damping = m.tendon_damping[i] != 0 or np.any(m.tendon_dampingpoly[i] != 0)
  gravity = np.asarray(m.opt.gravity)
  draw = (
    not (m.opt.disableflags & enums.mjtDisableBit.mjDSBL_GRAVITY)
    and math.sqrt(gravity @ gravity) > mjMINVAL
    and m.tendon_num[i] == 2
    and limitedspring != limitedconstraint
    and not has_damping
    and m.tendon_frictionloss[i] == 0
  )
  if draw:
    for j in range(m.nactuator):
      if m.actuator_trntype[j] == enums.mjtTrn.mjTRN_TENDON and m.actuator_trnid[j, 0] == i:
        draw = False
        break
  length = 0.0
  if draw:
    length = float(m.tendon_range[i, 1] if limitedconstraint else m.tendon_lengthspring[i, 1])
  return draw, length


def _cosh(x):
  e = math.exp(x)
  return 0.5 * (e + 1 / e), 0.5 * (e - 1 / e)


def _solve_catenary(v, h, length):
  """Port of solve_catenary: flatness b of the catenary through the suspension extents."""
  intercept = 1 / math.sqrt(math.sqrt(length * length - v * v) / h - 1)

  def residual(b):
    a = 0.5 / b
    c, s = _cosh(a)
    grad = (a * c - s) * (2 * b * s - 1) ** -1.5
    return 1 / math.sqrt(2 * b * s - 1) - intercept, grad

  b = intercept / math.sqrt(24)
  for _ in range(50):
    res, grad = residual(b)
    if abs(res) < 1e-9:
      break
    step = -res / grad
    for _ in range(10):
      if abs(residual(b + step)[0]) < abs(res):
        break
      step *= 0.5
    b += step
  return b


def mjv_catenary(x0, x1, gravity, length, ncatenary):
  """Port of mjv_catenary: points (n, 3) along a catenary of `length` hanging from x0 to x1."""
  x0 = np.asarray(x0, np.float64)
  x1 = np.asarray(x1, np.float64)
  x01 = x1 - x0
  if math.sqrt(x01 @ x01) > length:
    return np.stack([x0, x1])
  up = -np.asarray(gravity, np.float64)
  up = up / max(mjMINVAL, math.sqrt(up @ up)) if math.sqrt(up @ up) >= mjMINVAL else up
  across = x01 - up * (up @ x01)
  norm = math.sqrt(across @ across)
  across = across / norm if norm >= mjMINVAL else np.zeros(3)
  h = float(x01 @ across)
  v = float(x01 @ up)
  if length > 100 * h:
    # near vertical: one bead hanging on the tendon
    d_up = -0.5 * (math.sqrt(length * length - h * h) - v)
    d_across = h * d_up / (2 * d_up - v)
    return np.stack([x0, x0 + up * d_up + across * d_across, x1])
  bh = _solve_catenary(v, h, length) * h
  h_offset = -0.5 * (math.log((length + v) / (length - v)) * bh - h)
  v_offset = -_cosh(h_offset / bh)[0] * bh
  pts = np.empty((ncatenary, 3))
  pts[0] = x0
  for i in range(1, ncatenary - 1):
    horizontal = i * h / ncatenary
    vertical = bh * _cosh((horizontal - h_offset) / bh)[0] + v_offset
    pts[i] = x0 + across * horizontal + up * vertical
  pts[-1] = x1
  return pts


def _add_tendon_geoms(m, d, opt, catmask, scn):
  """Port of addSpatialTendonGeoms: capsules along each visible spatial tendon's path."""
  if not (_CAT_DYNAMIC & catmask) or not opt.flags[V.mjVIS_TENDON]:
    return
  g = scn.geom_arrays
  default = np.array([0.5, 0.5, 0.5, 1], np.float32)
  impedance = _limit_impedances(d, enums.mjtConstraint.mjCNSTR_LIMIT_TENDON)
  for t in range(m.ntendon):
    if not _visible(opt.tendongroup, m.tendon_group[t]):
      continue
    draw_catenary, length = mjv_isCatenary(m, d, t)
    adr = int(d.ten_wrapadr[t])
    if not draw_catenary:
      for j, k, frm, to in _tendon_segments(m, d, t):
        i = _acquire(scn, t, _CAT_DYNAMIC, mjtObj.mjOBJ_TENDON)
        if i < 0:
          return
        _connector(g, i, mjtGeom.mjGEOM_CAPSULE, float(m.tendon_width[t]), frm, to)
        matid = int(m.tendon_matid[t])
        rgba = np.array(m.tendon_rgba[t], np.float32)
        if matid == -1 and np.all(rgba == default):
          # default gray: mix in the constraint color by the limit's impedance
          imp = impedance.get(t, 0.0)
          c = np.asarray(m.vis.rgba.constraint, np.float64)
          rgba[:3] = (1 - imp) * rgba[:3].astype(np.float64) + imp * c[:3]
        _set_material(m, opt, g, i, matid, rgba)
        if opt.flags[V.mjVIS_ISLAND]:
          h = -1
          efcadr = getattr(d, "tendon_efcadr", None)
          if int(getattr(d, "nisland", 0)) and efcadr is not None and efcadr[t] >= 0:
            h = int(d.island_dofadr[d.efc_island[efcadr[t]]])
          g.matid[i] = -1
          g.rgba[i] = _island_color(h)
        if opt.label == mjtLabel.mjLABEL_TENDON and j == adr and k == 0:
          g.label[i] = _make_label(m, mjtObj.mjOBJ_TENDON, t)
        _release(scn)
    else:
      npts = min(int(m.vis.quality.numslices) + 1, 100)
      pts = mjv_catenary(_wrap_point(d, adr), _wrap_point(d, adr + 1), m.opt.gravity, length, npts)
      for j in range(len(pts) - 1):
        i = _acquire(scn, t, _CAT_DYNAMIC, mjtObj.mjOBJ_TENDON)
        if i < 0:
          return
        _connector(g, i, mjtGeom.mjGEOM_CAPSULE, float(m.tendon_width[t]), pts[j], pts[j + 1])
        _set_material(m, opt, g, i, int(m.tendon_matid[t]), m.tendon_rgba[t])
        if opt.label == mjtLabel.mjLABEL_TENDON and len(pts) // 2:
          g.label[i] = _make_label(m, mjtObj.mjOBJ_TENDON, t)
        _release(scn)


def _wrap_arc(m, d, geom, a, b):
  """Points (n+1, 3) along the surface of wrapping geom `geom` from a to b: a great-circle arc
  on a sphere, a helix on a cylinder; n = round(angle * numslices / pi), at least 1."""
  center = np.asarray(d.geom_xpos[geom], np.float64)
  xmat = np.asarray(d.geom_xmat[geom], np.float64).reshape(3, 3)
  numslices = int(m.vis.quality.numslices)
  if m.geom_type[geom] == mjtGeom.mjGEOM_SPHERE:
    u, v = a - center, b - center
    nu, nv = math.sqrt(u @ u), math.sqrt(v @ v)
    cosine = float(u @ v) / max(mjMINVAL, nu * nv)
    angle = math.acos(min(1.0, max(-1.0, cosine)))
    n = max(1, int(_round(angle * numslices / math.pi)))
    t = np.arange(n + 1)[:, None] / n
    if angle < mjMINVAL:
      return a + (b - a) * t
    sin = math.sin(angle)
    radius = nu + (nv - nu) * t
    dirs = (np.sin((1 - t) * angle) * (u / nu) + np.sin(t * angle) * (v / nv)) / sin
    return center + dirs * radius
  # cylinder: angle and radius in the cross-section, height along the axis
  u, v = (a - center) @ xmat, (b - center) @ xmat
  phi_u, phi_v = math.atan2(u[1], u[0]), math.atan2(v[1], v[0])
  angle = (phi_v - phi_u + math.pi) % (2 * math.pi) - math.pi
  n = max(1, int(_round(abs(angle) * numslices / math.pi)))
  t = np.arange(n + 1) / n
  r_u, r_v = math.hypot(u[0], u[1]), math.hypot(v[0], v[1])
  phi = phi_u + angle * t
  radius = r_u + (r_v - r_u) * t
  local = np.stack([radius * np.cos(phi), radius * np.sin(phi), u[2] + (v[2] - u[2]) * t], axis=1)
  return center + local @ xmat.T


def _tendon_segments(m, d, t):
  """(path index j, piece k, from, to) of the capsules drawing spatial tendon t: straight
  between path points, subdivided into arcs over wrapping geoms, none across pulleys."""
  obj = _wrap_obj(d)
  adr = int(d.ten_wrapadr[t])
  for j in range(adr, adr + int(d.ten_wrapnum[t]) - 1):
    if obj[j] == -2 or obj[j + 1] == -2:
      continue
    a, b = _wrap_point(d, j), _wrap_point(d, j + 1)
    if obj[j] >= 0 and obj[j + 1] >= 0:
      pts = _wrap_arc(m, d, int(obj[j]), a, b)
      for k in range(len(pts) - 1):
        yield j, k, pts[k], pts[k + 1]
    else:
      yield j, 0, a, b


def _wrap_obj(d):
  """d.wrap_obj as MuJoCo's flat array (one entry per path point)."""
  return np.asarray(d.wrap_obj).reshape(-1)


def _wrap_point(d, j):
  """Point j of the tendon wrap path (d.wrap_xpos stores two points per row)."""
  return np.asarray(d.wrap_xpos).reshape(-1, 3)[j]


def _add_slidercrank_geoms(m, d, opt, catmask, scn):
  """Port of addSliderCrankGeoms: slider cylinder and crank capsule of slider-crank actuators."""
  if not (_CAT_DYNAMIC & catmask):
    return
  g = scn.geom_arrays
  scl = float(m.stat.meansize)
  cranks = np.flatnonzero(np.asarray(m.actuator_trntype) == enums.mjtTrn.mjTRN_SLIDERCRANK)
  for a in (int(a) for a in cranks):
    j, k = int(m.actuator_trnid[a, 0]), int(m.actuator_trnid[a, 1])
    rod = float(m.actuator_cranklength[a])
    axis = np.asarray(d.site_xmat[k]).reshape(3, 3)[:, 2]
    vec = d.site_xpos[j] - d.site_xpos[k]
    length = float(vec @ axis)
    det = length * length + rod * rod - float(vec @ vec)
    broken = det < 0
    det = max(det, 0.0)
    length -= math.sqrt(det)
    end = axis * length + d.site_xpos[k]
    i = _acquire(scn, a, _CAT_DYNAMIC, mjtObj.mjOBJ_ACTUATOR)
    if i < 0:
      return
    _connector(
      g, i, mjtGeom.mjGEOM_CYLINDER, _f32(scl) * _F32(m.vis.scale.slidercrank), d.site_xpos[k], end
    )
    g.rgba[i] = m.vis.rgba.slidercrank
    if opt.label == mjtLabel.mjLABEL_ACTUATOR:
      g.label[i] = _make_label(m, mjtObj.mjOBJ_ACTUATOR, a)
    _release(scn)
    i = _acquire(scn, a, _CAT_DYNAMIC, mjtObj.mjOBJ_ACTUATOR)
    if i < 0:
      return
    _connector(
      g,
      i,
      mjtGeom.mjGEOM_CAPSULE,
      _f32(scl) * _F32(m.vis.scale.slidercrank) / 2.0,
      end,
      d.site_xpos[j],
    )
    g.rgba[i] = m.vis.rgba.crankbroken if broken else m.vis.rgba.slidercrank
    _release(scn)


def _frame_sizes(m, factor=1.0):
  scl = _f32(m.stat.meansize)
  return (
    float(m.vis.scale.framelength) * scl * factor,
    float(m.vis.scale.framewidth) * scl * factor,
  )


def _add_element_frames(m, d, opt, catmask, scn, kind):
  """Port of addGeomFrameGeoms / addSiteFrameGeoms: frames of visible geoms or sites."""
  length, width = _frame_sizes(m)
  n = m.ngeom if kind == "geom" else m.nsite
  bodyid = getattr(m, kind + "_bodyid")
  group = getattr(m, kind + "_group")
  groupflags = opt.geomgroup if kind == "geom" else opt.sitegroup
  for k in range(n):
    if not (_category(m, bodyid[k]) & catmask):
      continue
    if not _visible(groupflags, group[k]):
      continue
    matid = int(getattr(m, kind + "_matid")[k])
    rgba = m.mat_rgba[matid] if matid >= 0 else getattr(m, kind + "_rgba")[k]
    if rgba[3] == 0:
      continue
    _add_frame(scn, k, getattr(d, kind + "_xpos")[k], getattr(d, kind + "_xmat")[k], length, width)


def _add_inertia_geoms(m, d, opt, pert, catmask, scn):
  """Port of addInertiaGeoms: equivalent-inertia boxes (or ellipsoids) of the bodies."""
  if not opt.flags[V.mjVIS_INERTIA]:
    return
  g = scn.geom_arrays
  ellipsoid = m.vis.global_.ellipsoidinertia == 1
  for b in range(1, m.nbody):
    mass = float(m.body_mass[b])
    if mass <= mjMINVAL or not (_category(m, b) & catmask):
      continue
    i = _acquire(scn, b, _CAT_DECOR, mjtObj.mjOBJ_BODY)
    if i < 0:
      return
    ixx, iyy, izz = (float(x) for x in m.body_inertia[b])
    scale_inertia = math.sqrt(5) if ellipsoid else math.sqrt(3)
    sz = (
      np.array(
        [
          math.sqrt(max(0.0, (iyy + izz - ixx) / (2 * mass))),
          math.sqrt(max(0.0, (ixx + izz - iyy) / (2 * mass))),
          math.sqrt(max(0.0, (ixx + iyy - izz) / (2 * mass))),
        ]
      )
      * scale_inertia
    )
    if opt.flags[V.mjVIS_SCLINERTIA]:
      # scale so that a body of density 1000 keeps its size
      volume = (4.0 / 3.0 * math.pi if ellipsoid else 8.0) * sz[0] * sz[1] * sz[2]
      density = mass / max(mjMINVAL, volume)
      sz *= (density * 0.001) ** (1.0 / 3.0)
    type_ = mjtGeom.mjGEOM_ELLIPSOID if ellipsoid else mjtGeom.mjGEOM_BOX
    _set_geom(g, i, type_, sz, d.xipos[b], d.ximat[b], m.vis.rgba.inertia)
    if pert.select == b:
      g.emission[i] += _F32(m.vis.global_.glow)
    if opt.label == mjtLabel.mjLABEL_BODY or (
      opt.label == mjtLabel.mjLABEL_SELECTION and pert.select == b
    ):
      g.label[i] = _make_label(m, mjtObj.mjOBJ_BODY, b)
    _release(scn)


def _mixcolor(ref, flg1, flg2):
  """Port of mixcolor: perturbation color showing which of the two actions is active."""
  ref = np.asarray(ref, np.float32)
  rgba = ref.copy()
  rgba[0] = ref[0] if flg1 else 0
  if flg2:
    rgba[0] = max(rgba[0], ref[1])
  rgba[1] = ref[1] if flg1 else 0
  if flg2:
    rgba[1] = max(rgba[1], ref[0])
  return rgba


def _selection_point(d, pert):
  return (
    np.asarray(d.xmat[pert.select]).reshape(3, 3) @ np.asarray(pert.localpos) + d.xpos[pert.select]
  )


def _add_perturb_geoms(m, d, opt, pert, scn):
  """Port of addPerturbGeoms: the spring to the reference point and the reference box."""
  if not opt.flags[V.mjVIS_PERTOBJ] or pert.select <= 0:
    return
  g = scn.geom_arrays
  scl = _f32(m.stat.meansize)
  translate = int(enums.mjtPertBit.mjPERT_TRANSLATE)
  rotate = int(enums.mjtPertBit.mjPERT_ROTATE)
  mat = np.empty(9)
  _quat2Mat(mat, np.asarray(pert.refquat, np.float64))
  if (pert.active | pert.active2) & translate:
    i = _acquire(scn, pert.select, _CAT_DECOR, _OBJ_UNKNOWN)
    if i < 0:
      return
    width = scl * float(m.vis.scale.constraint)
    _connector(g, i, mjtGeom.mjGEOM_CAPSULE, width, _selection_point(d, pert), pert.refselpos)
    rgba = _mixcolor(m.vis.rgba.constraint, pert.active & translate, pert.active2 & translate)
    g.rgba[i] = rgba
    _release(scn)
    i = _acquire(scn, pert.select, _CAT_DECOR, _OBJ_UNKNOWN)
    if i < 0:
      return
    _set_geom(g, i, mjtGeom.mjGEOM_SPHERE, np.full(3, 2 * width), pert.refselpos, mat, rgba)
    _release(scn)
  if (pert.active | pert.active2) & rotate:
    i = _acquire(scn, pert.select, _CAT_DECOR, _OBJ_UNKNOWN)
    if i < 0:
      return
    rgba = _mixcolor(m.vis.rgba.inertia, pert.active & rotate, pert.active2 & rotate)
    sel = pert.select
    pos = np.zeros(3)
    if m.body_bvhnum[sel]:
      aabb = m.bvh_aabb[m.body_bvhadr[sel]]
      sz = np.array(aabb[3:6], np.float64)
      pos = np.asarray(d.ximat[sel]).reshape(3, 3) @ aabb[:3]
    else:
      sz = np.full(3, scl)
    _set_geom(g, i, mjtGeom.mjGEOM_LINEBOX, sz, pos + d.xipos[sel], mat, rgba)
    _release(scn)


def _add_body_frames(m, d, opt, catmask, scn):
  """Port of addWorldBodyFrameGeoms: the world frame (double size) and/or body frames."""
  start = 0 if opt.frame == mjtFrame.mjFRAME_WORLD else 1
  stop = m.nbody if opt.frame == mjtFrame.mjFRAME_BODY else 1
  inertial = opt.flags[V.mjVIS_INERTIA]
  for b in range(start, stop):
    if b > 0 and _category(m, b) & ~catmask:
      continue
    length, width = _frame_sizes(m, 2.0 if b == 0 else 1.0)
    pos = d.xipos[b] if inertial else d.xpos[b]
    mat = d.ximat[b] if inertial else d.xmat[b]
    _add_frame(scn, b, pos, mat, length, width)


def _add_selection_point(m, d, opt, pert, scn):
  """Port of addSelectionPointGeoms."""
  if pert.select <= 0 or not opt.flags[V.mjVIS_SELECT]:
    return
  g = scn.geom_arrays
  selpos = _selection_point(d, pert)
  i = _acquire(scn, pert.select, _CAT_DECOR, _OBJ_UNKNOWN)
  if i < 0:
    return
  g.type[i] = mjtGeom.mjGEOM_SPHERE
  g.size[i] = _f32(m.stat.meansize) * float(m.vis.scale.selectpoint)
  g.pos[i] = selpos
  g.mat[i] = np.eye(3)
  g.rgba[i] = m.vis.rgba.selectpoint
  if opt.label == mjtLabel.mjLABEL_SELPNT:
    lp = pert.localpos
    g.label[i] = (
      f"{selpos[0]:.3f} {selpos[1]:.3f} {selpos[2]:.3f} (local {lp[0]:.3f} {lp[1]:.3f} {lp[2]:.3f})"
    )
  _release(scn)


def _add_body_labels(m, d, opt, pert, catmask, scn):
  """Port of addBodyLabelGeoms: mjGEOM_LABEL at body frames (when inertia boxes are off)."""
  if opt.flags[V.mjVIS_INERTIA]:
    return
  if opt.label not in (mjtLabel.mjLABEL_SELECTION, mjtLabel.mjLABEL_BODY):
    return
  g = scn.geom_arrays
  for b in range(1, m.nbody):
    if opt.label == mjtLabel.mjLABEL_SELECTION and pert.select != b:
      continue
    if _category(m, b) & ~catmask:
      continue
    i = _acquire(scn, b, _CAT_DECOR, _OBJ_UNKNOWN)
    if i < 0:
      return
    g.type[i] = mjtGeom.mjGEOM_LABEL
    g.pos[i] = d.xpos[b]
    g.mat[i] = np.reshape(d.xmat[b], (3, 3))
    g.label[i] = _make_label(m, mjtObj.mjOBJ_BODY, b)
    _release(scn)


def _add_joint_geoms(m, d, opt, scn):
  """Port of addJointGeoms (vectorised): arrows on hinge/slide axes, boxes and spheres on
  free/ball joints, colored toward the constraint color by the joint limit's impedance."""
  if not opt.flags[V.mjVIS_JOINT] or not m.njnt:
    return
  g = scn.geom_arrays
  ids = np.flatnonzero(_group_visible(opt.jointgroup, m.jnt_group))
  lo = scn.ngeom
  full = len(ids) > scn.maxgeom - lo
  ids = ids[: scn.maxgeom - lo]
  hi = lo + len(ids)
  _init_rows(g, lo, hi)
  g.objtype[lo:hi] = mjtObj.mjOBJ_JOINT
  g.objid[lo:hi] = ids
  g.category[lo:hi] = _CAT_DECOR
  g.segid[lo:hi] = np.arange(lo, hi)
  scl = _f32(m.stat.meansize)
  length = _f32(float(m.vis.scale.jointlength) * scl)
  width = _f32(float(m.vis.scale.jointwidth) * scl)
  jtype = np.asarray(m.jnt_type)[ids]
  anchor = np.asarray(d.xanchor)[ids]

  # free and ball joints: box or sphere in the body frame
  r = np.flatnonzero((jtype == _JNT_FREE) | (jtype == _JNT_BALL))
  g.type[lo + r] = np.where(jtype[r] == _JNT_FREE, _BOX, _SPHERE)
  g.size[lo + r] = 0.3 * length
  g.pos[lo + r] = anchor[r]
  g.mat[lo + r] = np.asarray(d.xmat)[np.asarray(m.jnt_bodyid)[ids[r]]].reshape(-1, 3, 3)

  # hinge and slide joints: arrows along the axis
  r = np.flatnonzero((jtype != _JNT_FREE) & (jtype != _JNT_BALL))
  types = np.where(jtype[r] == _JNT_SLIDE, _ARROW, _ARROW1)
  _connector_rows(
    g, lo + r, types, width, anchor[r], anchor[r] + np.asarray(d.xaxis)[ids[r]] * length
  )

  # colors: joint color mixed with the constraint color by the limit impedance
  impedance = _limit_impedances(d, enums.mjtConstraint.mjCNSTR_LIMIT_JOINT)
  imp = np.array([impedance.get(int(j), 0.0) for j in ids]) if impedance else np.zeros(len(ids))
  joint = np.asarray(m.vis.rgba.joint, np.float64)[:3]
  cnstr = np.asarray(m.vis.rgba.constraint, np.float64)[:3]
  g.rgba[lo:hi, :3] = (1 - imp)[:, None] * joint + imp[:, None] * cnstr
  g.rgba[lo:hi, 3] = 1
  if opt.label == mjtLabel.mjLABEL_JOINT:
    g.label[lo:hi] = [_make_label(m, mjtObj.mjOBJ_JOINT, int(j)) for j in ids]
  scn.ngeom = hi
  if full:
    _full(scn)


def _actuator_color(m, d, opt, a):
  """Actuator color interpolated between negative, neutral and positive by its control."""
  rng = [-1.0, 0.0, 1.0]
  rmin, rmax = -1.0, 1.0
  ctrladr = int(m.actuator_ctrladr[a]) if hasattr(m, "actuator_ctrladr") else a
  if m.actuator_ctrllimited[ctrladr]:
    rmin, rmax = (float(x) for x in m.actuator_ctrlrange[ctrladr])
  elif opt.flags[V.mjVIS_ACTIVATION] and m.actuator_actlimited[a]:
    rmin, rmax = (float(x) for x in m.actuator_actrange[a])
  if rmin >= 0:
    rng = [-1.0, rmin, rmax]
  elif rmax <= 0:
    rng = [rmin, rmax, 1.0]
  else:
    rng = [rmin, 0.0, rmax]
  if rng[1] - rng[0] < mjMINVAL:
    rng[0] = rng[1] - mjMINVAL
  if rng[2] - rng[1] < mjMINVAL:
    rng[2] = rng[1] + mjMINVAL
  if opt.flags[V.mjVIS_ACTIVATION] and m.actuator_dyntype[a]:
    act = float(d.act[m.actuator_actadr[a] + m.actuator_actnum[a] - 1])
  else:
    act = float(d.ctrl[ctrladr])
  act = min(max(act, rng[0]), rng[2])
  if act <= rng[1]:
    amin = _f32((rng[1] - act) / max(mjMINVAL, rng[1] - rng[0]))
    amean, amax = _f32(1 - amin), 0.0
  else:
    amax = _f32((act - rng[1]) / max(mjMINVAL, rng[2] - rng[1]))
    amean, amin = _f32(1 - amax), 0.0
  rgba = (
    _F32(amin) * m.vis.rgba.actuatornegative
    + _F32(amean) * m.vis.rgba.actuator
    + _F32(amax) * m.vis.rgba.actuatorpositive
  )
  return rgba.astype(np.float32)


def _add_actuator_geoms(m, d, opt, scn):
  """Port of addActuatorGeoms: joint arrows, inflated site/body geoms or thick tendons."""
  if not opt.flags[V.mjVIS_ACTUATOR]:
    return
  g = scn.geom_arrays
  scl = _f32(m.stat.meansize)
  trn = enums.mjtTrn
  jnt = enums.mjtJoint
  for a in range(m.nactuator):
    if not _visible(opt.actuatorgroup, m.actuator_group[a]):
      continue
    group = int(m.actuator_group[a])
    if 0 <= group <= 30 and (int(m.opt.disableactuator) >> group) & 1:
      continue
    rgba = _actuator_color(m, d, opt, a)
    j = int(m.actuator_trnid[a, 0])
    ttype = int(m.actuator_trntype[a])
    if ttype in (trn.mjTRN_JOINT, trn.mjTRN_JOINTINPARENT, trn.mjTRN_SITE):
      i = _acquire(scn, a, _CAT_DECOR, mjtObj.mjOBJ_ACTUATOR)
      if i < 0:
        return
      if ttype == trn.mjTRN_SITE:
        _set_geom(
          g,
          i,
          int(m.site_type[j]),
          m.site_size[j] * 1.05,
          d.site_xpos[j],
          d.site_xmat[j],
          g.rgba[i].copy(),
        )
      elif m.jnt_type[j] in (jnt.mjJNT_HINGE, jnt.mjJNT_SLIDE):
        length = _f32(float(m.vis.scale.actuatorlength) * scl)
        width = _f32(float(m.vis.scale.actuatorwidth) * scl)
        arrow = mjtGeom.mjGEOM_ARROW if m.jnt_type[j] == jnt.mjJNT_SLIDE else mjtGeom.mjGEOM_ARROW1
        _connector(g, i, arrow, width, d.xanchor[j], d.xanchor[j] + d.xaxis[j] * length)
      else:
        sz = np.full(3, float(m.vis.scale.jointlength) * scl * 0.33)
        type_ = mjtGeom.mjGEOM_SPHERE if m.jnt_type[j] == jnt.mjJNT_BALL else mjtGeom.mjGEOM_BOX
        _set_geom(g, i, type_, sz, d.xanchor[j], d.xmat[m.jnt_bodyid[j]], g.rgba[i].copy())
      g.rgba[i] = rgba
      if opt.label == mjtLabel.mjLABEL_ACTUATOR:
        g.label[i] = _make_label(m, mjtObj.mjOBJ_ACTUATOR, a)
      _release(scn)
    elif ttype == trn.mjTRN_BODY:
      adr = int(m.body_geomadr[j])
      for k in range(adr, adr + int(m.body_geomnum[j])):
        if m.geom_type[k] in (
          mjtGeom.mjGEOM_PLANE,
          mjtGeom.mjGEOM_HFIELD,
          mjtGeom.mjGEOM_MESH,
          mjtGeom.mjGEOM_SDF,
        ):
          continue
        i = _acquire(scn, a, _CAT_DECOR, mjtObj.mjOBJ_ACTUATOR)
        if i < 0:
          return
        _set_geom(
          g, i, int(m.geom_type[k]), m.geom_size[k] * 1.05, d.geom_xpos[k], d.geom_xmat[k], rgba
        )
        _release(scn)
    elif ttype == trn.mjTRN_TENDON and d.ten_wrapnum[j]:
      adr = int(d.ten_wrapadr[j])
      width = float(m.tendon_width[j]) * float(m.vis.map.actuatortendon)
      for k, piece, frm, to in _tendon_segments(m, d, j):
        i = _acquire(scn, a, _CAT_DECOR, mjtObj.mjOBJ_ACTUATOR)
        if i < 0:
          return
        _connector(g, i, mjtGeom.mjGEOM_CAPSULE, width, frm, to)
        _set_material(m, opt, g, i, int(m.tendon_matid[j]), m.tendon_rgba[j])
        g.rgba[i] = rgba
        if opt.label == mjtLabel.mjLABEL_ACTUATOR and k == adr and piece == 0:
          g.label[i] = _make_label(m, mjtObj.mjOBJ_ACTUATOR, a)
        _release(scn)


def _camera_frustum_geoms(m, d, scn, c, rgba):
  """The frustum of model camera c (cameras with a resolution): triangles and edges."""
  scl = _f32(m.stat.meansize)
  znear = float(m.vis.map.znear) * float(m.stat.extent)
  zfar = float(m.vis.scale.frustum) * scl
  res = m.cam_resolution[c]
  ortho = m.cam_projection[c] == enums.mjtProjection.mjPROJ_ORTHOGRAPHIC
  aspect = _f32(_F32(res[0]) / _F32(res[1]))
  fovy = float(m.cam_fovy[c])
  if ortho:
    zver = [_f32(fovy / 2)] * 2
    zhor = [_f32(fovy * aspect / 2)] * 2
  elif m.cam_sensorsize[c, 0] and m.cam_sensorsize[c, 1]:
    zver, zhor = _intrinsic_frustum(znear, m.cam_intrinsic[c], m.cam_sensorsize[c])
  else:
    zv = _f32(znear * math.tan(fovy * math.pi / 360.0))
    zver = [zv, zv]
    zhor = [_f32(zv * aspect)] * 2
  pos = np.asarray(d.cam_xpos[c], np.float64)
  xmat = np.asarray(d.cam_xmat[c]).reshape(3, 3)
  x, y, z = xmat[:, 0], xmat[:, 1], xmat[:, 2]

  def corners(center, zh, zv):
    return [
      center - x * zh[0] - y * zv[0],
      center + x * zh[1] - y * zv[0],
      center + x * zh[1] + y * zv[1],
      center - x * zh[0] + y * zv[1],
    ]

  vnear = corners(pos - z * znear, zhor, zver)
  if not ortho:
    zhor = [_f32(h * (zfar / znear)) for h in zhor]
    zver = [_f32(v * (zfar / znear)) for v in zver]
  else:
    zfar = (zhor[0] + zver[0]) / 2
  vfar = corners(pos - z * zfar, zhor, zver)
  line = mjtGeom.mjGEOM_LINE
  cam = mjtObj.mjOBJ_CAMERA
  for e in range(4):
    n = (e + 1) % 4
    _add_triangle(scn, vnear[e], vfar[e], vnear[n], rgba, c, _CAT_DECOR, cam)
    _add_triangle(scn, vfar[e], vfar[n], vnear[n], rgba, c, _CAT_DECOR, cam)
    _add_connector(scn, line, 3, vnear[e], vnear[n], rgba, c, _CAT_DECOR, cam)
    _add_connector(scn, line, 3, vfar[e], vfar[n], rgba, c, _CAT_DECOR, cam)
    _add_connector(scn, line, 3, vnear[e], vfar[e], rgba, c, _CAT_DECOR, cam)


def _add_camera_geoms(m, d, opt, scn):
  """Port of addCameraGeoms: camera body (box) and lens (cylinder), frusta and frames."""
  if not opt.flags[V.mjVIS_CAMERA]:
    return
  g = scn.geom_arrays
  scl = _f32(m.stat.meansize)
  size = scl * float(m.vis.scale.camera)
  for c in range(m.ncam):
    cam_rgba = np.array(m.vis.rgba.camera, np.float32)
    if m.cam_resolution[c, 0] > 1 or m.cam_resolution[c, 1] > 1:
      cam_rgba[3] = 0.3
      _camera_frustum_geoms(m, d, scn, c, m.vis.rgba.frustum)
    i = _acquire(scn, c, _CAT_DECOR, mjtObj.mjOBJ_CAMERA)
    if i < 0:
      return
    g.type[i] = mjtGeom.mjGEOM_BOX
    g.size[i] = (size * 1.0, size * 0.8, size * 0.4)
    g.pos[i] = d.cam_xpos[c]
    g.mat[i] = np.reshape(d.cam_xmat[c], (3, 3))
    g.rgba[i] = cam_rgba
    if opt.label == mjtLabel.mjLABEL_CAMERA:
      g.label[i] = _make_label(m, mjtObj.mjOBJ_CAMERA, c)
    _release(scn)
    i = _acquire(scn, c, _CAT_DECOR, mjtObj.mjOBJ_CAMERA)
    if i < 0:
      return
    zaxis = np.asarray(d.cam_xmat[c]).reshape(3, 3)[:, 2]
    g.pos[i] = d.cam_xpos[c] - size * 0.6 * zaxis
    g.type[i] = mjtGeom.mjGEOM_CYLINDER
    g.size[i] = (size * 0.4, size * 0.4, size * 0.3)
    g.mat[i] = np.reshape(d.cam_xmat[c], (3, 3))
    g.rgba[i] = cam_rgba
    g.rgba[i, :3] *= _F32(0.5)
    _release(scn)
    if opt.frame == mjtFrame.mjFRAME_CAMERA:
      length, width = _frame_sizes(m)
      _add_frame(scn, c, d.cam_xpos[c], d.cam_xmat[c], length, width)


def _add_light_geoms(m, d, opt, scn):
  """Port of addLightGeoms: a cylinder behind each light, pointing along its direction."""
  if not opt.flags[V.mjVIS_LIGHT]:
    return
  g = scn.geom_arrays
  scl = _f32(m.stat.meansize)
  size = scl * float(m.vis.scale.light)
  for k in range(m.nlight):
    quat = np.empty(4)
    mat = np.empty(9)
    _quatZ2Vec(quat, np.asarray(d.light_xdir[k], np.float64))
    _quat2Mat(mat, quat)
    i = _acquire(scn, k, _CAT_DECOR, mjtObj.mjOBJ_LIGHT)
    if i < 0:
      return
    g.type[i] = mjtGeom.mjGEOM_CYLINDER
    g.size[i] = (size * 0.8, size * 0.8, size)
    g.pos[i] = d.light_xpos[k] + d.light_xdir[k] * (-size - 0.0001)
    g.mat[i] = mat.reshape(3, 3)
    g.rgba[i] = m.vis.rgba.light
    if opt.label == mjtLabel.mjLABEL_LIGHT:
      g.label[i] = _make_label(m, mjtObj.mjOBJ_LIGHT, k)
    _release(scn)
    if opt.frame == mjtFrame.mjFRAME_LIGHT:
      length, width = _frame_sizes(m)
      _add_frame(scn, k, d.light_xpos[k], mat, length, width)


def _add_com_geoms(m, d, opt, scn):
  """Port of addCenterOfMassGeoms: a sphere at the subtree com of each root body."""
  if not opt.flags[V.mjVIS_COM]:
    return
  g = scn.geom_arrays
  for b in range(1, m.nbody):
    if m.body_rootid[b] != b:
      continue
    i = _acquire(scn, b, _CAT_DECOR, _OBJ_UNKNOWN)
    if i < 0:
      return
    g.type[i] = mjtGeom.mjGEOM_SPHERE
    g.size[i] = _f32(m.stat.meansize) * float(m.vis.scale.com)
    g.pos[i] = d.subtree_com[b]
    g.mat[i] = np.eye(3)
    g.rgba[i] = m.vis.rgba.com
    _release(scn)


def _add_autoconnect_geoms(m, d, opt, scn):
  """Port of addAutoConnectGeoms: capsules from each body com through its joints to the
  parent's com (not for bodies attached to the world)."""
  if not opt.flags[V.mjVIS_AUTOCONNECT]:
    return
  width = _f32(m.stat.meansize) * float(m.vis.scale.connect)
  rgba = m.vis.rgba.connect
  for b in range(1, m.nbody):
    parent = int(m.body_parentid[b])
    if parent == 0:
      continue
    cur = d.xipos[b]
    adr = int(m.body_jntadr[b])
    for j in range(adr + int(m.body_jntnum[b]) - 1, adr - 1, -1):
      _add_connector(
        scn, mjtGeom.mjGEOM_CAPSULE, width, cur, d.xanchor[j], rgba, b, _CAT_DECOR, _OBJ_UNKNOWN
      )
      cur = d.xanchor[j]
    _add_connector(
      scn, mjtGeom.mjGEOM_CAPSULE, width, cur, d.xipos[parent], rgba, b, _CAT_DECOR, _OBJ_UNKNOWN
    )


_RAYDATA_SIZE = (1, 3, 3, 3, 3, 1)  # mjRAYDATA_SIZE, indexed by mjtRayDataField


def _ray_offsets(dataspec):
  """Offsets of the fields of one ray in a rangefinder's data, and the ray's size."""
  offset = {}
  size = 0
  for f in range(len(_RAYDATA_SIZE)):
    offset[f] = size
    if dataspec & (1 << f):
      size += _RAYDATA_SIZE[f]
  return offset, size


def _cam_intrinsics(m, c):
  """Port of mju_camIntrinsics: (fx, fy, cx, cy, extent) of camera c in pixels (float
  arithmetic where the sensor size is given, as MuJoCo)."""
  width, height = (int(x) for x in m.cam_resolution[c])
  fovy = float(m.cam_fovy[c])
  if m.cam_projection[c] == enums.mjtProjection.mjPROJ_ORTHOGRAPHIC:
    return width / 2.0, height / 2.0, width / 2.0, height / 2.0, fovy
  sensorsize = np.asarray(m.cam_sensorsize[c], np.float32)
  if sensorsize[0] != 0 and sensorsize[1] != 0:
    f = np.asarray(m.cam_intrinsic[c], np.float32)
    w, h = _F32(width), _F32(height)
    return (
      float(f[0] / sensorsize[0] * w),
      float(f[1] / sensorsize[1] * h),
      float(f[2] / sensorsize[0] * w),
      float(f[3] / sensorsize[1] * h),
      fovy,
    )
  fx = 0.5 / math.tan(fovy * math.pi / 360.0) * height
  return fx, fx, width / 2.0, height / 2.0, fovy


def _add_ray_geoms(m, scn, s, data, dataspec, origin, direction, sphere_scale, length, width):
  """The decorations of one rangefinder ray: line to the hit, hit point, surface normal."""
  rd = enums.mjtRayDataField
  g = scn.geom_arrays
  rgba = m.vis.rgba.rangefinder
  offset, _ = _ray_offsets(dataspec)
  dist = float(data[offset[rd.mjRAYDATA_DIST]]) if dataspec & (1 << rd.mjRAYDATA_DIST) else -1.0
  point = np.zeros(3)
  if dist >= 0:
    point = origin + direction * dist
    _add_connector(
      scn, mjtGeom.mjGEOM_LINE, 3, origin, point, rgba, s, _CAT_DECOR, mjtObj.mjOBJ_SENSOR
    )
  if dataspec & (1 << rd.mjRAYDATA_POINT):
    p = data[offset[rd.mjRAYDATA_POINT] : offset[rd.mjRAYDATA_POINT] + 3]
    if np.any(p != 0):
      point = np.array(p, np.float64)
      i = _acquire(scn, s, _CAT_DECOR, mjtObj.mjOBJ_SENSOR)
      if i >= 0:
        g.type[i] = mjtGeom.mjGEOM_SPHERE
        g.size[i] = sphere_scale * width
        g.pos[i] = point
        g.mat[i] = np.eye(3)
        g.rgba[i] = rgba
        _release(scn)
  if (dist >= 0 or np.any(point != 0)) and dataspec & (1 << rd.mjRAYDATA_NORMAL):
    normal = np.asarray(data[offset[rd.mjRAYDATA_NORMAL] : offset[rd.mjRAYDATA_NORMAL] + 3])
    _add_connector(
      scn,
      mjtGeom.mjGEOM_ARROW1,
      width,
      point,
      point + normal * (2 * length),
      rgba,
      s,
      _CAT_DECOR,
      mjtObj.mjOBJ_SENSOR,
    )


def _add_rangefinder_geoms(m, d, opt, scn):
  """Port of addRangefinderGeoms: for each rangefinder ray (one for a site, one per pixel for
  a camera) the line to the hit point, the point and the surface normal when the sensor
  reports them; geomfromto sensors' segments."""
  if not opt.flags[V.mjVIS_RANGEFINDER]:
    return
  length, width = _frame_sizes(m)
  types = np.asarray(m.sensor_type)
  sensors = np.flatnonzero(
    (types == enums.mjtSensor.mjSENS_RANGEFINDER) | (types == enums.mjtSensor.mjSENS_GEOMFROMTO)
  )
  for s in (int(s) for s in sensors):
    if m.sensor_type[s] == enums.mjtSensor.mjSENS_GEOMFROMTO:
      # the segment between the two geoms' nearest points, when there is one
      fromto = np.asarray(d.sensordata[m.sensor_adr[s] : m.sensor_adr[s] + 6], np.float64)
      if np.any(fromto != 0):
        _add_connector(
          scn,
          mjtGeom.mjGEOM_LINE,
          3,
          fromto[:3],
          fromto[3:],
          m.vis.rgba.rangefinder,
          s,
          _CAT_DECOR,
          mjtObj.mjOBJ_SENSOR,
        )
      continue
    objid = int(m.sensor_objid[s])
    adr = int(m.sensor_adr[s])
    dataspec = int(m.sensor_intprm[s, 0])
    if m.sensor_objtype[s] == mjtObj.mjOBJ_SITE:
      origin = np.asarray(d.site_xpos[objid], np.float64)
      direction = np.asarray(d.site_xmat[objid], np.float64).reshape(3, 3)[:, 2]
      _add_ray_geoms(m, scn, s, d.sensordata[adr:], dataspec, origin, direction, 1.5, length, width)
    elif m.sensor_objtype[s] == mjtObj.mjOBJ_CAMERA:
      # one ray through the center of each pixel (mju_camPixelRay)
      _, size = _ray_offsets(dataspec)
      ncol, nrow = (int(x) for x in m.cam_resolution[objid])
      fx, fy, cx, cy, extent = _cam_intrinsics(m, objid)
      pos = np.asarray(d.cam_xpos[objid], np.float64)
      xmat = np.asarray(d.cam_xmat[objid], np.float64).reshape(3, 3)
      ortho = m.cam_projection[objid] == enums.mjtProjection.mjPROJ_ORTHOGRAPHIC
      for row in range(nrow):
        for col in range(ncol):
          u = (col + 0.5 - cx) / fx
          v = -(row + 0.5 - cy) / fy
          if ortho:
            origin = pos + xmat @ np.array([u * extent * 0.5, v * extent * 0.5, 0.0])
            direction = -xmat[:, 2]
          else:
            origin = pos
            direction = xmat @ (np.array([u, v, -1.0]) / math.sqrt(u * u + v * v + 1))
          data = d.sensordata[adr + (row * ncol + col) * size :]
          _add_ray_geoms(m, scn, s, data, dataspec, origin, direction, 1.3, length, width)


def _add_pertforce_geoms(m, d, opt, scn):
  """Port of addExternalPerturbGeoms: arrows for the applied Cartesian forces."""
  if not opt.flags[V.mjVIS_PERTFORCE]:
    return
  width = float(m.vis.scale.forcewidth) * _f32(m.stat.meansize)
  for b in range(1, m.nbody):
    frc = np.asarray(d.xfrc_applied[b, :3], np.float64)
    if math.sqrt(frc @ frc) <= mjMINVAL:
      continue
    vec = frc * (float(m.vis.map.force) / float(m.stat.meanmass))
    _add_connector(
      scn,
      mjtGeom.mjGEOM_ARROW,
      width,
      d.xipos[b],
      d.xipos[b] + vec,
      m.vis.rgba.force,
      b,
      _CAT_DECOR,
      _OBJ_UNKNOWN,
    )


def _add_constraint_geoms(m, d, opt, scn):
  """Port of addConstraintGeoms: two spheres at the anchors of active connect/weld equalities."""
  if not opt.flags[V.mjVIS_CONSTRAINT]:
    return
  g = scn.geom_arrays
  sz = np.full(3, _f32(m.stat.meansize) * float(m.vis.scale.constraint))
  for e in range(m.neq):
    is_weld = m.eq_type[e] == enums.mjtEq.mjEQ_WELD
    is_connect = m.eq_type[e] == enums.mjtEq.mjEQ_CONNECT
    if not (d.eq_active[e] and (is_weld or is_connect)):
      continue
    j, k = int(m.eq_obj1id[e]), int(m.eq_obj2id[e])
    if m.eq_objtype[e] == mjtObj.mjOBJ_SITE:
      vec, end = d.site_xpos[j], d.site_xpos[k]
      xmat_j, xmat_k = d.site_xmat[j], d.site_xmat[k]
    else:
      data = np.asarray(m.eq_data[e], np.float64)
      a = 3 * int(is_weld)
      b = 3 * int(is_connect)
      vec = np.asarray(d.xmat[j]).reshape(3, 3) @ data[a : a + 3] + d.xpos[j]
      end = np.asarray(d.xmat[k]).reshape(3, 3) @ data[b : b + 3] + d.xpos[k]
      xmat_j, xmat_k = d.xmat[j], d.xmat[k]
    for pos, mat, rgba in ((vec, xmat_j, m.vis.rgba.connect), (end, xmat_k, m.vis.rgba.constraint)):
      i = _acquire(scn, e, _CAT_DECOR, mjtObj.mjOBJ_EQUALITY)
      if i < 0:
        return
      _set_geom(g, i, mjtGeom.mjGEOM_SPHERE, sz, pos, mat, rgba)
      if opt.label == mjtLabel.mjLABEL_CONSTRAINT:
        g.label[i] = _make_label(m, mjtObj.mjOBJ_EQUALITY, e)
      _release(scn)


def _add_contact_geoms(m, d, opt, scn):
  """Port of addContactGeoms: contact points (cylinders along the normal), contact frames and
  contact forces (combined, or split into normal and friction)."""
  if not (
    opt.flags[V.mjVIS_CONTACTPOINT]
    or opt.flags[V.mjVIS_CONTACTFORCE]
    or opt.frame == mjtFrame.mjFRAME_CONTACT
  ):
    return
  g = scn.geom_arrays
  scl = float(m.stat.meansize)
  con = d.contact
  confrc = np.zeros(6)
  for c in range(d.ncon):
    frame = np.asarray(con.frame[c], np.float64).reshape(3, 3)
    pos = np.asarray(con.pos[c], np.float64)
    efc_address = int(con.efc_address[c])
    if opt.flags[V.mjVIS_CONTACTPOINT]:
      i = _acquire(scn, c, _CAT_DECOR, _OBJ_UNKNOWN)
      if i < 0:
        return
      # rows of the contact frame, normal last: the cylinder's axis is the normal
      g.type[i] = mjtGeom.mjGEOM_CYLINDER
      halfheight = _F32(float(m.vis.scale.contactheight) * scl)
      halfdepth = _F32(-float(con.dist[c]) / 2)
      width = float(m.vis.scale.contactwidth) * scl
      g.size[i] = (width, width, max(halfheight, halfdepth))
      g.pos[i] = pos
      g.mat[i] = frame[[1, 2, 0]].T
      if opt.flags[V.mjVIS_ISLAND] and efc_address >= 0:
        h = -1
        if int(getattr(d, "nisland", 0)):
          h = int(d.island_dofadr[d.efc_island[efc_address]])
        g.rgba[i] = _island_color(h)
      else:
        g.rgba[i] = m.vis.rgba.contactpoint if efc_address >= 0 else m.vis.rgba.contactgap
      if opt.label == mjtLabel.mjLABEL_CONTACTPOINT:
        names = []
        for gid in con.geom[c]:
          name = support.mj_id2name(m, mjtObj.mjOBJ_GEOM, int(gid))
          names.append(name if name else f"g{int(gid)}")
        g.label[i] = f"{names[0]} | {names[1]}"
      _release(scn)
    mat = frame.T
    if opt.frame == mjtFrame.mjFRAME_CONTACT:
      length, width = _frame_sizes(m, 0.5)
      _add_frame(scn, c, pos, mat, length, width)
    if efc_address < 0:
      continue
    support.mj_contactForce(m, d, c, confrc)
    if not opt.flags[V.mjVIS_CONTACTFORCE]:
      continue
    dim = int(con.dim[c])
    frc = np.zeros(3)
    frc[: min(3, dim)] = confrc[: min(3, dim)]
    if math.sqrt(frc @ frc) < mjMINVAL:
      continue
    split = bool(opt.flags[V.mjVIS_CONTACTSPLIT]) and dim > 1
    for j in range(1, 3) if split else range(1):
      if j == 0:
        vec = mat @ frc
      elif j == 1:
        vec = mat[:, 0] * frc[0]
      else:
        vec = mat[:, 1] * frc[1] + mat[:, 2] * frc[2]
      vec = vec * (float(m.vis.map.force) / float(m.stat.meanmass))
      bodies = [int(m.geom_bodyid[gid]) for gid in con.geom[c]]
      if bodies[0] > bodies[1]:
        vec = -vec
      i = _acquire(scn, c, _CAT_DECOR, _OBJ_UNKNOWN)
      if i < 0:
        return
      arrow = (
        mjtGeom.mjGEOM_ARROW2
        if bodies[0] > 0 and bodies[1] > 0 and not split
        else mjtGeom.mjGEOM_ARROW
      )
      _connector(g, i, arrow, float(m.vis.scale.forcewidth) * scl, pos, pos + vec)
      g.rgba[i] = m.vis.rgba.contactfriction if j == 2 else m.vis.rgba.contactforce
      if opt.label == mjtLabel.mjLABEL_CONTACTFORCE and j == (1 if split else 0):
        g.label[i] = f"{math.sqrt(frc @ frc):<.3g}"
      _release(scn)


def mjv_addGeoms(m, d, opt, pert, catmask, scn):
  """Port of mjv_addGeoms: append the geoms of the selected categories to the scene.

  Order as MuJoCo (skins, model geoms, sites, tendons, slider-cranks, then decorations), so
  segmentation ids match. pert may be None (default perturbation).
  """
  if pert is None:
    pert = MjvPerturb()
  catmask = int(catmask)
  if not opt.flags[V.mjVIS_STATIC]:
    catmask &= ~_CAT_STATIC
  _skin_geoms(m, d, opt, pert, catmask, scn)
  _add_geom_geoms(m, d, opt, pert, catmask, scn)
  _add_site_geoms(m, d, opt, pert, catmask, scn)
  _add_tendon_geoms(m, d, opt, catmask, scn)
  _add_slidercrank_geoms(m, d, opt, catmask, scn)

  # the rest are decorations
  if not catmask & _CAT_DECOR:
    return
  if opt.frame == mjtFrame.mjFRAME_GEOM:
    _add_element_frames(m, d, opt, catmask, scn, "geom")
  if opt.frame == mjtFrame.mjFRAME_SITE:
    _add_element_frames(m, d, opt, catmask, scn, "site")
  _add_inertia_geoms(m, d, opt, pert, catmask, scn)
  _add_perturb_geoms(m, d, opt, pert, scn)
  _add_body_frames(m, d, opt, catmask, scn)
  _add_selection_point(m, d, opt, pert, scn)
  _add_body_labels(m, d, opt, pert, catmask, scn)
  _add_joint_geoms(m, d, opt, scn)
  _add_actuator_geoms(m, d, opt, scn)
  _add_camera_geoms(m, d, opt, scn)
  _add_light_geoms(m, d, opt, scn)
  _add_com_geoms(m, d, opt, scn)
  _add_autoconnect_geoms(m, d, opt, scn)
  _add_rangefinder_geoms(m, d, opt, scn)
  _add_pertforce_geoms(m, d, opt, scn)
  _add_constraint_geoms(m, d, opt, scn)
  _add_contact_geoms(m, d, opt, scn)


# ------------------------------------------------------------------------------------------------
# cameras and lights


def _intrinsic_frustum(znear, intrinsic, sensorsize):
  """Port of getFrustum: (zver, zhor) of a camera given by focal length and principal point."""
  f = [_F32(x) for x in intrinsic]
  s = [_F32(x) for x in sensorsize]
  zn = _F32(znear)
  zhor = [_f32(zn / f[0] * (s[0] / _F32(2) - f[2])), _f32(zn / f[0] * (s[0] / _F32(2) + f[2]))]
  zver = [_f32(zn / f[1] * (s[1] / _F32(2) - f[3])), _f32(zn / f[1] * (s[1] / _F32(2) + f[3]))]
  return zver, zhor


def mjv_cameraFrustum(zver, zhor, zclip, m, cam):
  """Port of mjv_cameraFrustum: vertical and horizontal frustum extents at znear, and the
  (near, far) clip distances, written into float32 (2,) arrays (None to skip)."""
  intrinsic = sensorsize = None
  if cam.type in (mjtCamera.mjCAMERA_FREE, mjtCamera.mjCAMERA_TRACKING):
    ortho = bool(m.vis.global_.orthographic)
    fovy = float(m.vis.global_.fovy)
  elif cam.type == mjtCamera.mjCAMERA_FIXED:
    cid = int(cam.fixedcamid)
    if not 0 <= cid < m.ncam:
      raise ValueError("fixed camera id is outside valid range")
    ortho = m.cam_projection[cid] == enums.mjtProjection.mjPROJ_ORTHOGRAPHIC
    fovy = float(m.cam_fovy[cid])
    if m.cam_sensorsize[cid, 1]:
      sensorsize = m.cam_sensorsize[cid]
      intrinsic = m.cam_intrinsic[cid]
  else:
    raise ValueError("unknown camera type")
  znear = _f32(float(m.vis.map.znear) * float(m.stat.extent))
  if ortho:
    v, h = [fovy / 2] * 2, [0.0, 0.0]
  elif intrinsic is not None:
    v, h = _intrinsic_frustum(znear, intrinsic, sensorsize)
  else:
    v, h = [znear * math.tan(fovy * math.pi / 360.0)] * 2, [0.0, 0.0]
  if zver is not None:
    zver[:] = v
  if zhor is not None:
    zhor[:] = h
  if zclip is not None:
    zclip[:] = (znear, float(m.vis.map.zfar) * float(m.stat.extent))


def mjv_cameraFrame(headpos, forward, up, right, d, cam):
  """Port of mjv_cameraFrame: camera position and forward, up, right axes (float64 (3,) arrays,
  None to skip)."""
  if cam.type in (mjtCamera.mjCAMERA_FREE, mjtCamera.mjCAMERA_TRACKING):
    ca = math.cos(cam.azimuth / 180.0 * math.pi)
    sa = math.sin(cam.azimuth / 180.0 * math.pi)
    ce = math.cos(cam.elevation / 180.0 * math.pi)
    se = math.sin(cam.elevation / 180.0 * math.pi)
    fwd = np.array([ce * ca, ce * sa, se])
    u = np.array([-se * ca, -se * sa, ce])
    r = np.array([sa, -ca, 0.0])
    if cam.type == mjtCamera.mjCAMERA_TRACKING and cam.trackbodyid >= 0:
      center = np.asarray(d.subtree_com[cam.trackbodyid], np.float64)
    else:
      center = np.asarray(cam.lookat, np.float64)
    head = center + fwd * (-cam.distance)
  elif cam.type == mjtCamera.mjCAMERA_FIXED:
    mat = np.asarray(d.cam_xmat[cam.fixedcamid], np.float64).reshape(3, 3)
    fwd, u, r = -mat[:, 2], mat[:, 1], mat[:, 0]
    head = np.asarray(d.cam_xpos[cam.fixedcamid], np.float64)
  else:
    raise ValueError("unknown camera type")
  for out, val in ((headpos, head), (forward, fwd), (up, u), (right, r)):
    if out is not None:
      out[:] = val


def _set_gl_cameras(m, d, cam, glcams, offsets):
  """Pose and frustum of GL cameras from the abstract camera, each eye moved sideways by
  offset * ipd (-0.5 and +0.5 for the left and right eyes, 0 for the center)."""
  zver = np.zeros(2, np.float32)
  zhor = np.zeros(2, np.float32)
  zclip = np.zeros(2, np.float32)
  mjv_cameraFrustum(zver, zhor, zclip, m, cam)
  headpos, forward, up, right = (np.zeros(3) for _ in range(4))
  mjv_cameraFrame(headpos, forward, up, right, d, cam)
  if cam.type == mjtCamera.mjCAMERA_FIXED:
    ipd = float(m.cam_ipd[cam.fixedcamid])
    ortho = int(m.cam_projection[cam.fixedcamid] == enums.mjtProjection.mjPROJ_ORTHOGRAPHIC)
  else:
    ipd = float(m.vis.global_.ipd)
    ortho = int(m.vis.global_.orthographic)
  for glcam, offset in zip(glcams, offsets):
    glcam.pos = headpos + offset * ipd * right
    glcam.forward = forward
    glcam.up = up
    glcam.orthographic = ortho
    glcam.frustum_top = zver[0]
    glcam.frustum_bottom = -zver[1]
    glcam.frustum_center = (zhor[1] - zhor[0]) / _F32(2)
    glcam.frustum_width = (zhor[1] + zhor[0]) / _F32(2)
    glcam.frustum_near = zclip[0]
    glcam.frustum_far = zclip[1]


def mjv_updateCamera(m, d, cam, scn):
  """Port of mjv_updateCamera: set the scene's two GL cameras from the abstract camera (a
  tracking camera first moves its lookat to the tracked body's subtree com)."""
  if m is None or cam is None or cam.type == mjtCamera.mjCAMERA_USER:
    return
  if cam.type == mjtCamera.mjCAMERA_TRACKING:
    if not 0 <= cam.trackbodyid < m.nbody:
      raise ValueError("track body id is outside valid range")
    cam.lookat[:] = d.subtree_com[cam.trackbodyid]
  _set_gl_cameras(m, d, cam, scn.camera, (-0.5, 0.5))
  scn.enabletransform = 0


def mjv_camera2GLCamera(m, d, cam) -> MjvGLCamera:
  """Port of mjv_camera2GLCamera: the GL camera of an abstract camera, at the center between
  the eyes (the abstract camera is not changed)."""
  if cam.type not in (
    mjtCamera.mjCAMERA_FREE,
    mjtCamera.mjCAMERA_TRACKING,
    mjtCamera.mjCAMERA_FIXED,
  ):
    raise ValueError("unknown camera type")
  glcam = MjvGLCamera()
  _set_gl_cameras(m, d, cam, (glcam,), (0.0,))
  return glcam


def mjv_room2model(modelpos, modelquat, roompos, roomquat, scn):
  """Port of mjv_room2model: writes into modelpos (3,), modelquat (4,) the model-space pose of
  the room-space pose (roompos, roomquat)."""
  modelpos[:], modelquat[:] = _room2model(roompos, roomquat, scn)


def _room2model(roompos, roomquat, scn):
  """(pos, quat) in model space of a pose in room space."""
  roompos = np.asarray(roompos, np.float64)
  roomquat = np.asarray(roomquat, np.float64)
  _check_scale(scn)
  if not scn.enabletransform:
    return roompos.copy(), roomquat.copy()
  translate = scn.translate.astype(np.float64)
  rotate = scn.rotate.astype(np.float64)
  invquat = np.empty(4)
  _negQuat(invquat, rotate)
  invpos = np.empty(3)
  _rotVecQuat(invpos, -translate, invquat)
  pos = np.empty(3)
  _rotVecQuat(pos, roompos, invquat)
  quat = np.empty(4)
  _mulQuat(quat, invquat, roomquat)
  return (pos + invpos) / float(scn.scale), quat


def _check_scale(scn):
  if scn.scale < mjMINVAL:
    raise FatalError("mjvScene scale too small")


def mjv_cameraInModel(headpos, forward, up, scn):
  """Port of mjv_cameraInModel: head position, forward and up of the averaged GL cameras in
  model space (float64 (3,) arrays, None to skip)."""
  if scn.camera[0].frustum_near < mjMINVAL or scn.camera[1].frustum_near < mjMINVAL:
    raise ValueError("mjvScene frustum_near too small")
  hp, fw, u = np.zeros(3), np.zeros(3), np.zeros(3)
  for cam in scn.camera:
    pos = cam.pos.astype(np.float64)
    fwd = cam.forward.astype(np.float64)
    cup = cam.up.astype(np.float64)
    fwd = fwd / math.sqrt(fwd @ fwd) if fwd @ fwd > 0 else fwd
    cup = cup / math.sqrt(cup @ cup) if cup @ cup > 0 else cup
    left = _cross(cup, fwd)
    left = left / math.sqrt(left @ left) if left @ left > 0 else left
    quat = np.empty(4)
    _mat2Quat(quat, np.array([left, cup, fwd]).T.ravel())
    modelpos, modelquat = _room2model(pos, quat, scn)
    modelmat = np.empty(9)
    _quat2Mat(modelmat, modelquat)
    modelmat = modelmat.reshape(3, 3)
    hp += 0.5 * modelpos
    fw += 0.5 * modelmat[:, 2]
    u += 0.5 * modelmat[:, 1]
  fw /= max(mjMINVAL, math.sqrt(fw @ fw))
  u /= max(mjMINVAL, math.sqrt(u @ u))
  for out, val in ((headpos, hp), (forward, fw), (up, u)):
    if out is not None:
      out[:] = val


def mjv_averageCamera(cam1, cam2) -> MjvGLCamera:
  """Port of mjv_averageCamera: the average of two GL cameras (up made orthogonal to forward)."""
  if cam1.orthographic != cam2.orthographic:
    raise ValueError("cannot average perspective and orthographic cameras")
  cam = MjvGLCamera()
  cam.pos = 0.5 * (cam1.pos.astype(np.float64) + cam2.pos.astype(np.float64))
  forward = cam1.forward.astype(np.float64) + cam2.forward.astype(np.float64)
  forward /= max(mjMINVAL, math.sqrt(forward @ forward))
  up = cam1.up.astype(np.float64) + cam2.up.astype(np.float64)
  up -= forward * (up @ forward)
  up /= max(mjMINVAL, math.sqrt(up @ up))
  cam.forward = forward
  cam.up = up
  for name in MjvGLCamera._FLOATS:
    setattr(cam, name, _F32(0.5) * (_F32(getattr(cam1, name)) + _F32(getattr(cam2, name))))
  cam.orthographic = cam1.orthographic
  return cam


def mjv_makeLights(m, d, scn):
  """Port of mjv_makeLights: the headlight (at the averaged camera, when active) and the
  model's active lights in world coordinates."""
  L = scn.light_arrays
  scn.nlight = 0
  active = np.flatnonzero(np.asarray(m.light_active))
  head = m.vis.headlight
  n = min(mjMAXLIGHT, len(active) + 1)
  L.records[:n] = L.blank[:n]
  if head.active:
    hpos, hfwd = np.zeros(3), np.zeros(3)
    mjv_cameraInModel(hpos, hfwd, None, scn)
    L.id[0] = -1
    L.headlight[0] = 1
    L.texid[0] = -1
    L.type[0] = enums.mjtLightType.mjLIGHT_DIRECTIONAL
    L.bulbradius[0] = 0.02
    L.range[0] = 10
    L.pos[0] = hpos
    L.dir[0] = hfwd
    L.ambient[0] = head.ambient
    L.diffuse[0] = head.diffuse
    L.specular[0] = head.specular
    scn.nlight = 1
  active = active[: mjMAXLIGHT - scn.nlight]
  lo, hi = scn.nlight, scn.nlight + len(active)
  L.id[lo:hi] = active
  L.type[lo:hi] = m.light_type[active]
  L.texid[lo:hi] = m.light_texid[active]
  L.castshadow[lo:hi] = m.light_castshadow[active]
  L.bulbradius[lo:hi] = m.light_bulbradius[active]
  L.intensity[lo:hi] = m.light_intensity[active]
  L.range[lo:hi] = m.light_range[active]
  spot = np.asarray(m.light_type)[active] == enums.mjtLightType.mjLIGHT_SPOT
  rows = np.arange(lo, hi)[spot]
  L.attenuation[rows] = m.light_attenuation[active[spot]]
  L.exponent[rows] = m.light_exponent[active[spot]]
  L.cutoff[rows] = m.light_cutoff[active[spot]]
  L.softness[rows] = m.light_softness[active[spot]]
  L.ambient[lo:hi] = m.light_ambient[active]
  L.diffuse[lo:hi] = m.light_diffuse[active]
  L.specular[lo:hi] = m.light_specular[active]
  L.pos[lo:hi] = d.light_xpos[active]
  L.dir[lo:hi] = d.light_xdir[active]
  scn.nlight = hi


# ------------------------------------------------------------------------------------------------
# skins


def mjv_updateSkin(m, d, scn, opt=None):
  """Port of mjv_updateActiveSkin: pose the vertices of visible skins by their bones
  (linear blend skinning), area-weighted vertex normals, inflation along the normals.

  opt: the visualization options (skin groups); None uses the defaults, as mjv_updateSkin.
  """
  if opt is None:
    opt = MjvOption()
  vert = scn.skinvert.reshape(-1, 3)
  normal = scn.skinnormal.reshape(-1, 3)
  for s in range(m.nskin):
    vadr, vnum = int(m.skin_vertadr[s]), int(m.skin_vertnum[s])
    fadr, fnum = int(m.skin_faceadr[s]), int(m.skin_facenum[s])
    vert[vadr : vadr + vnum] = 0
    normal[vadr : vadr + vnum] = 0
    if not _visible(opt.skingroup, m.skin_group[s]):
      continue
    skinvert = vert[vadr : vadr + vnum]
    bind = np.asarray(m.skin_vert, np.float64).reshape(-1, 3)[vadr : vadr + vnum]
    badr = int(m.skin_boneadr[s])
    for j in range(badr, badr + int(m.skin_bonenum[s])):
      # bone transform relative to its bind pose
      bindpos = np.asarray(m.skin_bonebindpos[j], np.float32).astype(np.float64)
      bindquat = np.asarray(m.skin_bonebindquat[j], np.float32).astype(np.float64)
      body = int(m.skin_bonebodyid[j])
      quatneg = np.empty(4)
      quat = np.empty(4)
      rotate = np.empty(9)
      _negQuat(quatneg, bindquat)
      _mulQuat(quat, np.asarray(d.xquat[body], np.float64), quatneg)
      _quat2Mat(rotate, quat)
      rotate = rotate.reshape(3, 3)
      translate = d.xpos[body] - rotate @ bindpos
      lo = int(m.skin_bonevertadr[j])
      hi = lo + int(m.skin_bonevertnum[j])
      vid = np.asarray(m.skin_bonevertid[lo:hi])
      weight = np.asarray(m.skin_bonevertweight[lo:hi], np.float32)
      pos = (bind[vid] @ rotate.T + translate).astype(np.float32)
      np.add.at(skinvert, vid, weight[:, None] * pos)

    # vertex normals: sum of the adjacent (unnormalised, area-weighted) face normals
    face = np.asarray(m.skin_face).reshape(-1, 3)[fadr : fadr + fnum]
    v = skinvert.astype(np.float64)
    nrm = np.cross(v[face[:, 1]] - v[face[:, 0]], v[face[:, 2]] - v[face[:, 0]])
    acc = np.zeros((vnum, 3))
    for r in range(3):
      np.add.at(acc, face[:, r], nrm)
    norm = np.sqrt(np.sum(acc.astype(np.float32) ** 2, axis=1, dtype=np.float32))
    normal[vadr : vadr + vnum] = (
      acc.astype(np.float32)
      * (1 / np.maximum(mjMINVAL, norm.astype(np.float64))).astype(np.float32)[:, None]
    )
    inflate = float(m.skin_inflate[s])
    if inflate:
      skinvert += _F32(inflate) * normal[vadr : vadr + vnum]


# ------------------------------------------------------------------------------------------------
# scene update


def mjv_updateScene(m, d, opt, pert, cam, catmask, scn):
  """Port of mjv_updateScene: geoms, then camera, then lights, then skins.

  As in MuJoCo, infinite planes are re-centred under the cameras of the previous update (geoms
  are added before the camera moves).
  """
  scn.ngeom = 0
  mjv_addGeoms(m, d, opt, pert, catmask, scn)
  mjv_updateCamera(m, d, cam, scn)
  mjv_makeLights(m, d, scn)
  if opt.flags[V.mjVIS_SKIN] and m.nskin:
    mjv_updateSkin(m, d, scn, opt)


# ------------------------------------------------------------------------------------------------
# interaction (engine_vis_interact.c): camera and model motion, selection, perturbation


def mjv_model2room(roompos, roomquat, modelpos, modelquat, scn):
  """Port of mjv_model2room: writes into roompos (3,), roomquat (4,) the room-space pose of the
  model-space pose (modelpos, modelquat)."""
  modelpos = np.asarray(modelpos, np.float64)
  modelquat = np.asarray(modelquat, np.float64)
  _check_scale(scn)
  if not scn.enabletransform:
    roompos[:], roomquat[:] = modelpos, modelquat
    return
  rotate = scn.rotate.astype(np.float64)
  pos = np.empty(3)
  _rotVecQuat(pos, modelpos, rotate)
  _mulQuat(roomquat, rotate, modelquat)
  roompos[:] = (pos + scn.translate.astype(np.float64)) * float(scn.scale)


def mjv_cameraInRoom(headpos, forward, up, scn):
  """Port of mjv_cameraInRoom: head position, forward and up of the averaged GL cameras in room
  space (float64 (3,) arrays, None to skip)."""
  if scn.camera[0].frustum_near < mjMINVAL or scn.camera[1].frustum_near < mjMINVAL:
    raise ValueError("mjvScene frustum_near too small")
  cams = scn.camera
  hp = 0.5 * (cams[0].pos.astype(np.float64) + cams[1].pos.astype(np.float64))
  fw = 0.5 * (cams[0].forward.astype(np.float64) + cams[1].forward.astype(np.float64))
  u = 0.5 * (cams[0].up.astype(np.float64) + cams[1].up.astype(np.float64))
  fw /= max(mjMINVAL, math.sqrt(fw @ fw))
  u /= max(mjMINVAL, math.sqrt(u @ u))
  for out, val in ((headpos, hp), (forward, fw), (up, u)):
    if out is not None:
      out[:] = val


def mjv_frustumHeight(scn) -> float:
  """Port of mjv_frustumHeight: frustum height at unit distance (perspective) or the frustum
  height (orthographic), averaged over the two GL cameras."""
  cam1, cam2 = scn.camera
  if cam1.orthographic != cam2.orthographic:
    raise ValueError("cannot average frustums of perspective and orthographic cameras")
  if not cam1.orthographic:
    if cam1.frustum_near < mjMINVAL or cam2.frustum_near < mjMINVAL:
      raise ValueError("mjvScene frustum_near too small")
    height = (cam1.frustum_top - cam1.frustum_bottom) / cam1.frustum_near + (
      cam2.frustum_top - cam2.frustum_bottom
    ) / cam2.frustum_near
  else:
    height = (cam1.frustum_top - cam1.frustum_bottom) + (cam2.frustum_top - cam2.frustum_bottom)
  return 0.5 * height


def mjv_alignToCamera(res, vec, forward):
  """Port of mjv_alignToCamera: rotate vec in the horizontal plane by the angle between (0, 1)
  and the camera's horizontal forward direction."""
  y0, y1 = float(forward[0]), float(forward[1])
  norm = math.sqrt(y0 * y0 + y1 * y1)
  if norm >= mjMINVAL:
    y0, y1 = y0 / norm, y1 / norm
  else:
    y0, y1 = 1.0, 0.0
  x0, x1 = y1, -y0
  v0, v1, v2 = float(vec[0]), float(vec[1]), float(vec[2])
  res[0] = v0 * x0 + v1 * y0
  res[1] = v0 * x1 + v1 * y1
  res[2] = v2


_MOUSE_ROTATE_V, _MOUSE_ROTATE_H, _MOUSE_MOVE_V, _MOUSE_MOVE_H, _MOUSE_ZOOM = 1, 2, 3, 4, 5


def _convert2d(action, dx, dy, forward):
  """Port of convert2D: 2D mouse motion as a z-aligned 3D vector in world coordinates."""
  if action == _MOUSE_ROTATE_V:
    vec = (dy, 0.0, dx)
  elif action == _MOUSE_ROTATE_H:
    vec = (dy, dx, 0.0)
  elif action == _MOUSE_MOVE_V:
    vec = (dx, 0.0, -dy)
  elif action == _MOUSE_MOVE_H:
    vec = (dx, -dy, 0.0)
  elif action == _MOUSE_ZOOM:
    return np.zeros(3)
  else:
    raise ValueError(f"unexpected mouse action {action} in convert2D")
  res = np.zeros(3)
  mjv_alignToCamera(res, vec, forward)
  return res


def mjv_moveCamera(m, action, reldx, reldy, cam):
  """Port of mjv_moveCamera: orbit, pan or zoom the abstract camera (action: mjtMouse).

  MuJoCo 3.17 takes no scene: panning uses the camera's own frame and frustum, so that the
  rendered lookat point follows the mouse.
  """
  if cam.type == mjtCamera.mjCAMERA_FIXED:
    return
  action = int(action)
  extent = float(m.stat.extent)
  if action in (_MOUSE_ROTATE_V, _MOUSE_ROTATE_H):
    cam.azimuth -= reldx * 180.0
    cam.elevation -= reldy * 180.0
  elif action in (_MOUSE_MOVE_V, _MOUSE_MOVE_H):
    # the lookat point of a tracking camera does not move
    if cam.type == mjtCamera.mjCAMERA_TRACKING:
      return
    headpos, forward = np.zeros(3), np.zeros(3)
    mjv_cameraFrame(headpos, forward, None, None, None, cam)
    vec = _convert2d(action, reldx, reldy, forward)
    # rendered lookat displacement = mouse displacement
    zver, zclip = np.zeros(2, np.float32), np.zeros(2, np.float32)
    mjv_cameraFrustum(zver, None, zclip, m, cam)
    height = float(zver[0]) + float(zver[1])
    if not m.vis.global_.orthographic:
      height /= float(zclip[0])
    scl = height * float((np.asarray(cam.lookat) - headpos) @ forward)
    if cam.orthographic:
      scl *= 0.15
    cam.lookat[:] = cam.lookat - vec * scl
  elif action == _MOUSE_ZOOM:
    cam.distance -= math.log(1 + cam.distance / extent / 3) * reldy * 9 * extent
  else:
    raise ValueError(f"unexpected action {action}")
  # clamp
  if cam.azimuth > 180:
    cam.azimuth -= 360
  if cam.azimuth < -180:
    cam.azimuth += 360
  cam.elevation = min(89.0, max(-89.0, cam.elevation))
  cam.distance = min(100 * extent, max(0.01 * extent, cam.distance))


def mjv_moveModel(m, action, reldx, reldy, roomup, scn):
  """Port of mjv_moveModel: rotate, translate or scale the model in room space."""
  if not scn.enabletransform:
    return
  action = int(action)
  camforward = np.zeros(3)
  mjv_cameraInRoom(None, camforward, None, scn)
  roomup = np.asarray(roomup, np.float64)
  roomforward = camforward - roomup * (camforward @ roomup)
  roomforward /= max(mjMINVAL, math.sqrt(roomforward @ roomforward))
  roomright = _cross(roomforward, roomup)
  roomright /= max(mjMINVAL, math.sqrt(roomright @ roomright))
  if action in (_MOUSE_ROTATE_V, _MOUSE_ROTATE_H):
    first = roomup if action == _MOUSE_ROTATE_V else roomforward
    vec = first * reldx + roomright * reldy
    scl = math.sqrt(vec @ vec)
    vec = vec / scl if scl >= mjMINVAL else np.array([1.0, 0, 0])
    quat = np.empty(4)
    _axisAngle2Quat(quat, vec, scl * math.pi)
    result = np.empty(4)
    _mulQuat(result, quat, scn.rotate.astype(np.float64))
    scn.rotate[:] = result / math.sqrt(result @ result)
  elif action == _MOUSE_MOVE_V:
    scn.translate += ((roomright * reldx - roomup * reldy) * float(m.stat.extent)).astype(_F32)
  elif action == _MOUSE_MOVE_H:
    scn.translate += ((roomright * reldx - roomforward * reldy) * float(m.stat.extent)).astype(_F32)
  elif action == _MOUSE_ZOOM:
    scn.scale = min(
      100.0, max(0.01, _f32(scn.scale + _f32(math.log(1 + scn.scale / 3) * reldy * 3)))
    )
  else:
    raise ValueError(f"unexpected action {action}")


def mjv_initPerturb(m, d, scn, pert):
  """Port of mjv_initPerturb: reference pose and point from the selected body, the local mass
  at the selection point and the mouse-to-space scale."""
  sel = int(pert.select)
  if sel <= 0 or sel >= m.nbody:
    return
  selpos = _selection_point(d, pert)

  # average spatial inertia at the selection point: 3 / trace(J M^-1 J')
  jac = np.zeros((3, m.nv))
  support.mj_jac(m, d, jac, None, selpos, sel)
  if m.nv:
    x = np.zeros((3, m.nv))
    _solveM(m, d, x, jac)
    invmass = float(np.sum(jac * x))
  else:
    invmass = 0.0
  pert.localmass = 1.0 if invmass == 0 else 3 / max(invmass, mjMINVAL)

  # reference pose of the body's inertial frame, reference point
  pert.refpos[:] = d.xipos[sel]
  quat = np.empty(4)
  _mulQuat(quat, np.asarray(d.xquat[sel], np.float64), np.asarray(m.body_iquat[sel], np.float64))
  pert.refquat[:] = quat
  pert.refselpos[:] = selpos

  # rendered displacement of refselpos = mouse displacement
  headpos, forward = np.zeros(3), np.zeros(3)
  mjv_cameraInModel(headpos, forward, None, scn)
  pert.scale = mjv_frustumHeight(scn) * float((selpos - headpos) @ forward)
  if scn.camera[0].orthographic:
    pert.scale *= 0.15


def mjv_movePerturb(m, d, action, reldx, reldy, scn, pert):
  """Port of mjv_movePerturb: move the reference point or rotate the reference frame (rotation
  limited to 90 degrees from the selected body's frame)."""
  action = int(action)
  forward = np.zeros(3)
  mjv_cameraInModel(None, forward, None, scn)
  vec = _convert2d(action, reldx, reldy, forward)
  sel = int(pert.select)
  if action in (_MOUSE_MOVE_V, _MOUSE_MOVE_H):
    pert.refpos[:] = pert.refpos + vec * pert.scale
    pert.refselpos[:] = pert.refselpos + vec * pert.scale
  elif action in (_MOUSE_ROTATE_V, _MOUSE_ROTATE_H):
    scl = math.sqrt(vec @ vec)
    vec = vec / scl if scl >= mjMINVAL else np.array([1.0, 0, 0])
    q1 = np.empty(4)
    _axisAngle2Quat(q1, vec, scl * math.pi * 2)
    refquat = np.empty(4)
    _mulQuat(refquat, q1, np.asarray(pert.refquat, np.float64))
    refquat /= math.sqrt(refquat @ refquat)
    pert.refquat[:] = refquat
    if 0 < sel < m.nbody:
      # limit the rotation relative to the selected body
      xiquat = np.empty(4)
      _mulQuat(
        xiquat, np.asarray(d.xquat[sel], np.float64), np.asarray(m.body_iquat[sel], np.float64)
      )
      neg, q2 = np.empty(4), np.empty(4)
      _negQuat(neg, xiquat)
      _mulQuat(q2, neg, refquat)
      dif = np.empty(3)
      _quat2Vel(dif, q2, 1.0)
      angle = math.sqrt(dif @ dif)
      axis = dif / angle if angle >= mjMINVAL else np.array([1.0, 0, 0])
      if angle < -math.pi * 0.5 or angle > math.pi * 0.5:
        angle = max(-math.pi * 0.5, min(math.pi * 0.5, angle))
        _axisAngle2Quat(q2, axis, angle)
        _mulQuat(refquat, xiquat, q2)
        pert.refquat[:] = refquat
  elif action != _MOUSE_ZOOM:
    raise ValueError(f"unexpected mouse action {action}")


def mjv_applyPerturbPose(m, d, pert, flg_paused):
  """Port of mjv_applyPerturbPose: move a selected mocap body to the reference pose, or (when
  paused) a free body or the free root of the selected body."""
  sel = int(pert.select)
  if sel <= 0 or sel >= m.nbody or not (pert.active | pert.active2):
    return
  rootid = int(m.body_rootid[sel])

  # reference pose of the body frame (refpos/refquat are of the inertial frame)
  pos1, quat1 = np.empty(3), np.empty(4)
  _negPose(
    pos1, quat1, np.asarray(m.body_ipos[sel], np.float64), np.asarray(m.body_iquat[sel], np.float64)
  )
  refpos, refquat = np.empty(3), np.empty(4)
  _mulPose(
    refpos,
    refquat,
    np.asarray(pert.refpos, np.float64),
    np.asarray(pert.refquat, np.float64),
    pos1,
    quat1,
  )
  free = _JNT_FREE
  if m.body_mocapid[sel] >= 0:
    d.mocap_pos[m.body_mocapid[sel]] = refpos
    d.mocap_quat[m.body_mocapid[sel]] = refquat
  elif flg_paused and m.body_jntnum[sel] == 1 and m.jnt_type[m.body_jntadr[sel]] == free:
    adr = int(m.jnt_qposadr[m.body_jntadr[sel]])
    d.qpos[adr : adr + 3] = refpos
    d.qpos[adr + 3 : adr + 7] = refquat
  elif flg_paused and m.body_jntnum[rootid] == 1 and m.jnt_type[m.body_jntadr[rootid]] == free:
    # root <- ref * neg(child) * root
    adr = int(m.jnt_qposadr[m.body_jntadr[rootid]])
    rpos = np.array(d.qpos[adr : adr + 3])
    rquat = np.array(d.qpos[adr + 3 : adr + 7])
    _negPose(pos1, quat1, np.asarray(d.xpos[sel], np.float64), np.asarray(d.xquat[sel], np.float64))
    pos2, quat2 = np.empty(3), np.empty(4)
    _mulPose(pos2, quat2, pos1, quat1, rpos, rquat)
    _mulPose(rpos, rquat, refpos, refquat, pos2, quat2)
    d.qpos[adr : adr + 3] = rpos
    d.qpos[adr + 3 : adr + 7] = rquat


def mjv_applyPerturbForce(m, d, pert):
  """Port of mjv_applyPerturbForce: critically damped spring force and torque pulling the
  selected body toward the reference, written into d.xfrc_applied."""
  sel = int(pert.select)
  if sel < 0 or sel >= m.nbody or not (pert.active | pert.active2):
    return
  # only the parts being perturbed are written
  force = np.array(d.xfrc_applied[sel, :3])
  torque = np.array(d.xfrc_applied[sel, 3:])

  # body velocity at its com, world orientation (mj_objectVelocity, mjOBJ_BODY)
  cvel = np.asarray(d.cvel[sel], np.float64)
  rotvel = cvel[:3]
  linvel = cvel[3:] - _cross(d.xipos[sel] - d.subtree_com[m.body_rootid[sel]], rotvel)
  invweight = float(m.body_invweight0[sel, 1])
  inertia = 1.0 / max(mjMINVAL, invweight) if invweight else 1.0
  translate = int(enums.mjtPertBit.mjPERT_TRANSLATE)
  rotate = int(enums.mjtPertBit.mjPERT_ROTATE)
  if (pert.active | pert.active2) & translate:
    selpos = _selection_point(d, pert)
    diff = selpos - pert.refselpos
    stiffness = float(m.vis.map.stiffness)
    force = -stiffness * pert.localmass * diff
    arm = selpos - d.xipos[sel]
    svel = _cross(rotvel, arm) + linvel
    force = force - float(np.sqrt(_F32(stiffness))) * pert.localmass * svel
    torque = _cross(arm, force)
    stiffness = float(m.vis.map.stiffnessrot)
    norm = math.sqrt(diff @ diff)
    diff = diff / norm if norm >= mjMINVAL else np.array([1.0, 0, 0])
    torque = torque - diff * (float(np.sqrt(_F32(stiffness))) * inertia * (diff @ rotvel))
  if (pert.active | pert.active2) & rotate:
    stiffness = float(m.vis.map.stiffnessrot)
    xiquat, neg, difquat = np.empty(4), np.empty(4), np.empty(4)
    _mulQuat(
      xiquat, np.asarray(d.xquat[sel], np.float64), np.asarray(m.body_iquat[sel], np.float64)
    )
    _negQuat(neg, xiquat)
    _mulQuat(difquat, np.asarray(pert.refquat, np.float64), neg)
    _quat2Vel(torque, difquat, 1.0 / (stiffness * inertia))
    torque = torque - rotvel * (float(np.sqrt(_F32(stiffness))) * inertia)
  d.xfrc_applied[sel, :3] = force
  d.xfrc_applied[sel, 3:] = torque


def _ray_skin(face, vert, pnt, vec):
  """mju_raySkin (vectorised over faces): (distance, nearest vertex of the hit face) of a ray
  and a triangle mesh, (-1, -1) on a miss."""
  v = vert.astype(np.float64)
  if not len(face) or not len(v):
    return -1.0, -1
  v0, v1, v2 = v[face[:, 0]], v[face[:, 1]], v[face[:, 2]]
  # Moller-Trumbore on every face
  e1, e2 = v1 - v0, v2 - v0
  pvec = np.cross(vec, e2)
  det = np.sum(e1 * pvec, axis=1)
  ok = np.abs(det) >= mjMINVAL
  inv = np.where(ok, 1 / np.where(ok, det, 1), 0)
  tvec = pnt - v0
  u = np.sum(tvec * pvec, axis=1) * inv
  qvec = np.cross(tvec, e1)
  w = (qvec @ vec) * inv
  x = np.sum(e2 * qvec, axis=1) * inv
  hit = ok & (u >= 0) & (w >= 0) & (u + w <= 1) & (x >= 0)
  if not np.any(hit):
    return -1.0, -1
  k = np.flatnonzero(hit)[np.argmin(x[hit])]
  point = pnt + vec * x[k]
  corners = v[face[k]]
  return float(x[k]), int(face[k][np.argmin(np.sum((corners - point) ** 2, axis=1))])


def mjv_select(m, d, vopt, aspectratio, relx, rely, scn, selpnt, geomid, flexid, skinid) -> int:
  """Port of mjv_select: the body under the relative viewport point (relx, rely), -1 if none.

  Ray-casts geoms and (with mjVIS_SKIN) the posed skins of the scene; selpnt receives the 3D
  point, geomid, flexid, skinid (int32 (1,)) what was hit (-1 for the others; the engine has
  no flexes).
  """
  cam = mjv_averageCamera(scn.camera[0], scn.camera[1])
  pos, forward, up = np.zeros(3), np.zeros(3), np.zeros(3)
  mjv_cameraInModel(pos, forward, up, scn)
  left = _cross(up, forward)
  left /= max(mjMINVAL, math.sqrt(left @ left))

  # frustum half-width matching the viewport's aspect ratio, offsets of the cursor
  halfwidth = 0.5 * aspectratio * (cam.frustum_top - cam.frustum_bottom)
  d_up = cam.frustum_bottom + rely * (cam.frustum_top - cam.frustum_bottom)
  d_left = -(cam.frustum_center + (2 * relx - 1) * halfwidth)
  if cam.orthographic:
    ray = forward.copy()
    pos = pos + up * d_up + left * d_left
  else:
    ray = forward * cam.frustum_near + up * d_up + left * d_left
    ray /= max(mjMINVAL, math.sqrt(ray @ ray))

  # geoms
  gid = np.array([-1], np.int32)
  geomdist = _ray(
    m, d, pos, ray, np.asarray(vopt.geomgroup, np.uint8), bool(vopt.flags[V.mjVIS_STATIC]), -1, gid
  )

  # skins: the body of the bone with the largest weight on the nearest vertex
  skindist, skinbody, skin, skinpnt = -1.0, -1, -1, np.zeros(3)
  if vopt.flags[V.mjVIS_SKIN]:
    verts = scn.skinvert.reshape(-1, 3)
    faces = np.asarray(m.skin_face).reshape(-1, 3)
    for k in range(m.nskin):
      vadr, vnum = int(m.skin_vertadr[k]), int(m.skin_vertnum[k])
      fadr, fnum = int(m.skin_faceadr[k]), int(m.skin_facenum[k])
      dist, vertid = _ray_skin(faces[fadr : fadr + fnum], verts[vadr : vadr + vnum], pos, ray)
      if dist < 0 or not (dist < skindist or skindist < 0):
        continue
      skindist = dist
      best = -1.0
      for j in range(int(m.skin_boneadr[k]), int(m.skin_boneadr[k] + m.skin_bonenum[k])):
        lo = int(m.skin_bonevertadr[j])
        for n in range(lo, lo + int(m.skin_bonevertnum[j])):
          if m.skin_bonevertid[n] == vertid and m.skin_bonevertweight[n] > best:
            best = float(m.skin_bonevertweight[n])
            skinbody, skin = int(m.skin_bonebodyid[j]), k
            skinpnt = verts[vadr + vertid].astype(np.float64)

  for out in (geomid, flexid, skinid):
    np.asarray(out).reshape(-1)[0] = -1
  if geomdist < 0 and skindist < 0:
    return -1
  if geomdist >= 0 and (skindist < 0 or geomdist <= skindist):
    np.asarray(geomid).reshape(-1)[0] = gid[0]
    selpnt[:] = pos + ray * geomdist
    return int(m.geom_bodyid[gid[0]])
  np.asarray(skinid).reshape(-1)[0] = skin
  selpnt[:] = skinpnt
  return skinbody
