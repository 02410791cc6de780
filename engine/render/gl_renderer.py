"""OpenGL renderer of an abstract scene: the counterpart of MuJoCo's mjr_* functions.

Port of render_gl3.c (mjr_render) and render_gl2.c (pixels) on PyOpenGL's fixed-function
pipeline, which is what MuJoCo's classic renderer draws with: the same projection (reversed
depth), lights, materials, fog, textures, shadows and reflections, so images match MuJoCo's
pixel for pixel up to rasterization details.

The scene is any object with the attribute interface of `mujoco.MjvScene` (ngeom, geoms[i].type
..., lights, camera[0/1], flags, enabletransform ...), built by engine/render/visualize.py or by
MuJoCo itself. A current OpenGL context (engine/render/context.py) is required for every call.
The model's GPU resources (MjrContext) live in gl_resources.py, text and 2D drawing in
gl_text.py; both are re-exported here, so this module is the whole mjr_* API.
"""

import ctypes
import dataclasses
import math

import numpy as np

from engine.enums import mjMINVAL
from engine.enums import mjRND_ADDITIVE
from engine.enums import mjRND_CULL_FACE
from engine.enums import mjRND_FOG
from engine.enums import mjRND_HAZE
from engine.enums import mjRND_IDCOLOR
from engine.enums import mjRND_REFLECTION
from engine.enums import mjRND_SEGMENT
from engine.enums import mjRND_SHADOW
from engine.enums import mjRND_SKYBOX
from engine.enums import mjRND_WIREFRAME
from engine.enums import mjSTEREO_NONE
from engine.enums import mjSTEREO_QUADBUFFERED
from engine.enums import mjSTEREO_SIDEBYSIDE
from engine.enums import mjtCatBit
from engine.enums import mjtGeom
from engine.enums import mjtLightType
from engine.enums import mjtTexture
from engine.enums import mjtTextureRole
from engine.render import context
from engine.render import gl_resources
from engine.render import gl_text
from engine.render.gl_resources import MjrContext as MjrContext
from engine.render.gl_resources import MjrRect as MjrRect
from engine.render.gl_resources import mjDEPTH_ZEROFAR as mjDEPTH_ZEROFAR
from engine.render.gl_resources import mjDEPTH_ZERONEAR as mjDEPTH_ZERONEAR
from engine.render.gl_resources import mjFB_OFFSCREEN as mjFB_OFFSCREEN
from engine.render.gl_resources import mjFB_WINDOW as mjFB_WINDOW
from engine.render.gl_resources import mjr_restoreBuffer as mjr_restoreBuffer
from engine.render.gl_resources import mjr_setBuffer as mjr_setBuffer
from engine.render.gl_text import mjFONT_BIG as mjFONT_BIG
from engine.render.gl_text import mjFONT_NORMAL as mjFONT_NORMAL
from engine.render.gl_text import mjFONT_SHADOW as mjFONT_SHADOW
from engine.render.gl_text import mjGRID_BOTTOMLEFT as mjGRID_BOTTOMLEFT
from engine.render.gl_text import mjGRID_BOTTOMRIGHT as mjGRID_BOTTOMRIGHT
from engine.render.gl_text import mjGRID_TOPLEFT as mjGRID_TOPLEFT
from engine.render.gl_text import mjGRID_TOPRIGHT as mjGRID_TOPRIGHT
from engine.render.gl_text import mjr_overlay as mjr_overlay
from engine.render.gl_text import mjr_rectangle as mjr_rectangle
from engine.render.gl_text import mjr_text as mjr_text

GL = context.LazyModule(context.import_opengl)  # OpenGL.GL, loaded when first drawn with
mjMAXLIGHT = 100

# geom rendering modes of renderGeom; _STENCIL: coverage only (reflection masks)
_NORMAL, _SHADOWMAP, _SHADOWCAST, _SEGMENT, _IDCOLOR, _STENCIL = range(6)

_G = mjtGeom
_ROLE_RGB = int(mjtTextureRole.mjTEXROLE_RGB)


@dataclasses.dataclass
class _Geom:
  """Per-frame copy of the mjvGeom fields the renderer reads (float32 like MuJoCo)."""

  index: int
  type: int
  objid: int
  dataid: int
  matid: int
  texcoord: int
  texid: int
  texuniform: int
  texrepeat: np.ndarray
  segid: int
  category: int
  size: np.ndarray
  pos: np.ndarray
  mat: np.ndarray
  rgba: np.ndarray
  emission: float
  specular: float
  shininess: float
  reflectance: float
  label: str
  transparent: bool = False
  camdist: float = 0.0
  builtin: int = -1  # first display list of the builtin shapes to draw it with (_pick_detail)
  transform: np.ndarray = None  # GL matrix of mat, and the specular colour, set by _read_geom
  specular_rgba: np.ndarray = None


def _read_geom(i, g):
  geom = _Geom(
    i,
    int(g.type),
    int(g.objid),
    int(g.dataid),
    int(g.matid),
    int(g.texcoord),
    int(g.texid),
    int(g.texuniform),
    np.array(g.texrepeat, np.float32).reshape(2),
    int(g.segid),
    int(g.category),
    np.array(g.size, np.float32).reshape(3),
    np.array(g.pos, np.float32).reshape(3),
    np.array(g.mat, np.float32).reshape(9),
    np.array(g.rgba, np.float32).reshape(4),
    float(g.emission),
    float(g.specular),
    float(g.shininess),
    float(g.reflectance),
    str(g.label),
  )
  geom.transform = _gl_matrix(geom.mat)
  geom.specular_rgba = np.array([geom.specular, geom.specular, geom.specular, 1], np.float32)
  return geom


def _rbound(g):
  """Bounding radius of a scene geom from its size (mjv_rbound), for transparency order."""
  s = g.size
  if g.type in (_G.mjGEOM_SPHERE, _G.mjGEOM_ELLIPSOID):
    return float(max(s))
  if g.type == _G.mjGEOM_CAPSULE:
    return float(s[0] + s[2])
  if g.type == _G.mjGEOM_CYLINDER:
    return float(np.hypot(s[0], s[2]))
  if g.type == _G.mjGEOM_BOX:
    return float(np.linalg.norm(s))
  return 0.0


def _normalize(v):
  """v / |v| in float64 (v unchanged when tiny); plain floats: numpy's overhead on 3-vectors
  would be most of the per-frame camera work."""
  x, y, z = float(v[0]), float(v[1]), float(v[2])
  n = math.sqrt(x * x + y * y + z * z)
  return np.array([x / n, y / n, z / n] if n > mjMINVAL else [x, y, z])


def _cross32(a, b):
  """Cross product of two 3-vectors in float32 arithmetic (as numpy's on float32 arrays)."""
  a0, a1, a2 = (np.float32(x) for x in a[:3])
  b0, b1, b2 = (np.float32(x) for x in b[:3])
  return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], np.float32)


def _quat2mat(q):
  w, x, y, z = (float(a) for a in q)
  return np.array(
    [
      [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
      [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
      [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]
  )


@dataclasses.dataclass
class _GLCamera:
  pos: np.ndarray
  forward: np.ndarray
  up: np.ndarray
  frustum_center: float
  frustum_width: float
  frustum_bottom: float
  frustum_top: float
  frustum_near: float
  frustum_far: float
  orthographic: int


def _average_camera(c1, c2):
  """mjv_averageCamera: mean pose (up made orthogonal to forward) and mean frustum."""
  pos = 0.5 * (np.asarray(c1.pos, np.float64) + np.asarray(c2.pos, np.float64))
  forward = _normalize(np.asarray(c1.forward, np.float64) + np.asarray(c2.forward, np.float64))
  up = np.asarray(c1.up, np.float64) + np.asarray(c2.up, np.float64)
  up = _normalize(up - np.dot(up, forward) * forward)

  def avg(name):
    return np.float32(0.5) * (np.float32(getattr(c1, name)) + np.float32(getattr(c2, name)))

  return _GLCamera(
    pos.astype(np.float32),
    forward.astype(np.float32),
    up.astype(np.float32),
    avg("frustum_center"),
    avg("frustum_width"),
    avg("frustum_bottom"),
    avg("frustum_top"),
    avg("frustum_near"),
    avg("frustum_far"),
    int(c1.orthographic),
  )


def _head_in_model(scn):
  """Camera position in model space (mjv_cameraInModel headpos), undoing the scene transform."""
  head = np.zeros(3)
  for n in range(2):
    pos = np.asarray(scn.camera[n].pos, np.float64)
    if scn.enabletransform:
      rot = _quat2mat(np.asarray(scn.rotate, np.float64))
      pos = rot.T @ (pos - np.asarray(scn.translate, np.float64)) / float(scn.scale)
    head += 0.5 * pos
  return head.astype(np.float32)


def _is_behind(headpos, pos, mat):
  return (
    (headpos[0] - pos[0]) * mat[2] + (headpos[1] - pos[1]) * mat[5] + (headpos[2] - pos[2]) * mat[8]
  ) < 0


def _is_reflective(g):
  return g.type in (_G.mjGEOM_PLANE, _G.mjGEOM_BOX) and not g.transparent and g.reflectance > 0


def _look_at(eye, forward, up):
  """mjr_lookAt: multiply the current matrix by a view matrix from eye, forward and up."""
  f = _normalize(forward).astype(np.float32)
  s = _normalize(_cross32(f, up)).astype(np.float32)
  u = _normalize(_cross32(s, f)).astype(np.float32)
  mat = np.array(
    [
      s[0],
      u[0],
      -f[0],
      0,
      s[1],
      u[1],
      -f[1],
      0,
      s[2],
      u[2],
      -f[2],
      0,
      -np.dot(s, eye),
      -np.dot(u, eye),
      np.dot(f, eye),
      1,
    ],
    np.float32,
  )
  _fast_gl().mult_matrix(mat)


def _ortho_vec(v):
  """mjr_orthoVec: a unit vector orthogonal to v (up direction for light views): v x (-1, 0, 0),
  else v x (0, 1, 0)."""
  x, y, z = float(v[0]), float(v[1]), float(v[2])
  if y * y + z * z > 0.01:
    return _normalize((0.0, -z, y)).astype(np.float32)
  return _normalize((-z, 0.0, x)).astype(np.float32)


def _reflect(pos, mat):
  """mjr_reflect: multiply the current matrix by the reflection through a geom's z-plane."""
  v = np.array([mat[2], mat[5], mat[8]], np.float32)
  vvt = np.outer(v, v)
  r = np.eye(4, dtype=np.float32)
  r[:3, :3] -= 2 * vvt
  r[3, :3] = 2 * vvt @ np.asarray(pos, np.float32)
  _fast_gl().mult_matrix(r.ravel())  # symmetric 3x3 block: row-major equals column-major


def _transform(translate, rotate, scale):
  """mjr_transform: multiply by the scene's model-to-room transform."""
  rot = _quat2mat(np.asarray(rotate, np.float64)) * float(scale)
  m = np.eye(4, dtype=np.float32)
  m[:3, :3] = rot.T  # column-major upload of rot
  m[3, :3] = translate
  _fast_gl().mult_matrix(m.ravel())


def mjr_uploadHField(m, con, hfieldid):
  """Redraws a height field after m.hfield_data changed (current context: the one of con)."""
  con.upload_hfield(m, hfieldid)


def mjr_readPixels(rgb, depth, viewport, con):
  """Read RGB (uint8 (h, w, 3)) and/or depth (float32 (h, w)) of the viewport, bottom row first.

  Depth is the depth buffer in [0, 1]: 0 at znear with the default readDepthMap
  (mjDEPTH_ZERONEAR), as dm_control's Physics.render converts it; 1 at znear with ZEROFAR.
  """
  if rgb is None and depth is None:
    return
  x, y, w, h = viewport.left, viewport.bottom, viewport.width, viewport.height
  if con.currentBuffer == mjFB_OFFSCREEN:
    if con.offSamples:
      mask = (GL.GL_COLOR_BUFFER_BIT if rgb is not None else 0) | (
        GL.GL_DEPTH_BUFFER_BIT if depth is not None else 0
      )
      GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, con.offFBO)
      GL.glReadBuffer(GL.GL_COLOR_ATTACHMENT0)
      GL.glBindFramebuffer(GL.GL_DRAW_FRAMEBUFFER, con.offFBO_r)
      GL.glDrawBuffer(GL.GL_COLOR_ATTACHMENT0)
      GL.glBlitFramebuffer(x, y, x + w, y + h, x, y, x + w, y + h, mask, GL.GL_NEAREST)
      GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, con.offFBO_r)
    else:
      GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, con.offFBO)
    GL.glReadBuffer(GL.GL_COLOR_ATTACHMENT0)
  if rgb is not None:
    _check_out(rgb, (h, w, 3), np.uint8, "rgb")
    GL.glReadPixels(x, y, w, h, GL.GL_RGB, GL.GL_UNSIGNED_BYTE, rgb)
  if depth is not None:
    _check_out(depth, (h, w), np.float32, "depth")
    GL.glReadPixels(x, y, w, h, GL.GL_DEPTH_COMPONENT, GL.GL_FLOAT, depth)
    # the renderer draws with reversed depth (1 at znear): map to the requested convention
    if con.readDepthMap == mjDEPTH_ZERONEAR:
      np.subtract(np.float32(1), depth, out=depth)
  mjr_restoreBuffer(con)


def _check_out(array, shape, dtype, name):
  if not (
    isinstance(array, np.ndarray)
    and array.dtype == dtype
    and array.flags.c_contiguous
    and array.size >= int(np.prod(shape))
  ):
    raise ValueError(
      f"{name} must be a C-contiguous {np.dtype(dtype).name} array of at least shape {shape}"
    )


def depth_to_metres(depth, model, depth_map=mjDEPTH_ZERONEAR):
  """Depth buffer values in [0, 1] to distances from the camera plane in metres.

  With ZERONEAR (dm_control's convention) this is dm_control's Physics.render conversion
  near / (1 - d (1 - near / far)), near/far = m.vis.map.znear/zfar * m.stat.extent, in the
  precision of `depth` (float32 buffers give dm_control's float32 numbers). ZEROFAR
  buffers (1 at znear, the renderer's reversed depth) keep float32 precision far away, where
  1 - d rounds: near / (near / far + d (1 - near / far)), computed in float64.
  """
  extent = float(model.stat.extent)
  near = float(model.vis.map.znear) * extent
  far = float(model.vis.map.zfar) * extent
  if depth_map == mjDEPTH_ZEROFAR:
    return near / (near / far + np.asarray(depth, np.float64) * (1 - near / far))
  # in the buffer's precision (float32 with Python-float factors), as dm_control computes it
  return near / (1 - np.asarray(depth) * (1 - near / far))


# ---- rendering ----


# geom types whose display lists carry texture coordinates (MuJoCo's isBuiltinWithUV)
_BUILTIN_UV = frozenset(
  int(t)
  for t in (
    _G.mjGEOM_PLANE,
    _G.mjGEOM_SPHERE,
    _G.mjGEOM_ELLIPSOID,
    _G.mjGEOM_BOX,
    _G.mjGEOM_CYLINDER,
    _G.mjGEOM_CAPSULE,
    _G.mjGEOM_ARROW,
    _G.mjGEOM_ARROW1,
    _G.mjGEOM_ARROW2,
    _G.mjGEOM_TRIANGLE,
  )
)


def _geom_texture(con, geom):
  """(texid, texuniform, texrepeat) of a geom's RGB texture: the scene geom's own fields when it
  names a texture, else its material's (scene geoms added without them)."""
  if geom.texid >= 0:
    return geom.texid, geom.texuniform, geom.texrepeat
  if geom.matid >= 0:
    return (
      int(con.mat_texid[geom.matid, _ROLE_RGB]),
      int(con.mat_texuniform[geom.matid]),
      con.mat_texrepeat[geom.matid],
    )
  return -1, 0, None


def _texture_scale(geom, texuniform, texrepeat, default):
  """texrepeat per texture axis (default where not positive), times the geom's size along x, y
  with texuniform (repeats per unit length instead of per object)."""
  scl = [float(r) if r > 0 else default for r in texrepeat]
  if texuniform:
    scl = [s * float(geom.size[k]) if geom.size[k] > 0 else s for k, s in enumerate(scl)]
  return scl


def _texture_matrix(geom, texuniform, texrepeat):
  """Texture matrix (column-major float32) for explicit texture coordinates: texrepeat scales
  them; an infinite plane's (half a texture per unit from its origin) are shifted by half a
  texture, so that its texture is anchored at the origin as with object-linear mapping."""
  s0, s1 = _texture_scale(geom, texuniform, texrepeat, 1.0)
  shift = geom.type == _G.mjGEOM_PLANE and (geom.size[0] <= 0 or geom.size[1] <= 0)
  t = -0.5 if shift else 0.0
  return np.array([s0, 0, 0, 0, 0, s1, 0, 0, 0, 0, 1, 0, t, t, 0, 1], np.float32)


def _texgen_2d(geom, texuniform, texrepeat):
  """Object-linear s and t planes mapping a geom's local x, y to 2D texture coordinates (geoms
  without texture coordinates: meshes without them, height fields)."""
  scl = [float(r) for r in texrepeat]
  size = geom.size
  # pre-scaled geoms (meshes, planes with data) are in physical units already
  if geom.dataid >= 0:
    for k in range(2):
      if size[k] > 0:
        scl[k] = scl[k] / max(mjMINVAL, float(size[k]))
  if texuniform:
    for k in range(2):
      if size[k] > 0:
        scl[k] = scl[k] * float(size[k])
  return (
    np.array([0.5 * scl[0], 0, 0, -0.5], np.float32),
    np.array([0, -0.5 * scl[1], 0, -0.5], np.float32),
  )


def _set_texture(kind, state, con, geom):
  """settexture: enable or disable texture mapping for a geom, the skybox or the shadow map.

  Texturing is off between draws, so a geom without a texture needs no calls."""
  texid, texuniform, texrepeat = -1, 0, None
  if geom is not None:
    texid, texuniform, texrepeat = _geom_texture(con, geom)
  fast = _fast_gl()
  if kind == "shadow":
    fast.glActiveTexture(GL.GL_TEXTURE1)
    func = fast.glEnable if state else fast.glDisable
    for cap in (
      GL.GL_TEXTURE_2D,
      GL.GL_TEXTURE_GEN_S,
      GL.GL_TEXTURE_GEN_T,
      GL.GL_TEXTURE_GEN_R,
      GL.GL_TEXTURE_GEN_Q,
    ):
      func(cap)
    if state:
      fast.glBindTexture(GL.GL_TEXTURE_2D, con.shadowTex)
    fast.glActiveTexture(GL.GL_TEXTURE0)
    return
  if texid < 0:
    return
  fast.glActiveTexture(GL.GL_TEXTURE0)
  is_2d = con.textureType[texid] == mjtTexture.mjTEXTURE_2D
  if kind == "regular" and (geom.texcoord or (is_2d and geom.type in _BUILTIN_UV)):
    # explicit texture coordinates (meshes, skins and flexes with their own, builtin shapes),
    # scaled by the texture matrix
    if state:
      fast.glEnable(GL.GL_TEXTURE_2D)
      fast.glBindTexture(GL.GL_TEXTURE_2D, con.texture[texid])
      fast.glMatrixMode(GL.GL_TEXTURE)
      fast.glLoadMatrixf(_texture_matrix(geom, texuniform, texrepeat).ctypes.data)
      fast.glMatrixMode(GL.GL_MODELVIEW)
    else:
      fast.glDisable(GL.GL_TEXTURE_2D)
      fast.glMatrixMode(GL.GL_TEXTURE)
      fast.glLoadIdentity()
      fast.glMatrixMode(GL.GL_MODELVIEW)
  elif kind == "regular" and is_2d:
    if state:
      fast.glEnable(GL.GL_TEXTURE_2D)
      fast.glEnable(GL.GL_TEXTURE_GEN_S)
      fast.glEnable(GL.GL_TEXTURE_GEN_T)
      fast.glBindTexture(GL.GL_TEXTURE_2D, con.texture[texid])
      fast.glTexGeni(GL.GL_S, GL.GL_TEXTURE_GEN_MODE, GL.GL_OBJECT_LINEAR)
      fast.glTexGeni(GL.GL_T, GL.GL_TEXTURE_GEN_MODE, GL.GL_OBJECT_LINEAR)
      splane, tplane = _texgen_2d(geom, texuniform, texrepeat)
      fast.glTexGenfv(GL.GL_S, GL.GL_OBJECT_PLANE, splane.ctypes.data)
      fast.glTexGenfv(GL.GL_T, GL.GL_OBJECT_PLANE, tplane.ctypes.data)
    else:
      fast.glDisable(GL.GL_TEXTURE_2D)
      fast.glDisable(GL.GL_TEXTURE_GEN_S)
      fast.glDisable(GL.GL_TEXTURE_GEN_T)
  else:
    if state:
      fast.glEnable(GL.GL_TEXTURE_CUBE_MAP)
      for cap in (GL.GL_TEXTURE_GEN_S, GL.GL_TEXTURE_GEN_T, GL.GL_TEXTURE_GEN_R):
        fast.glEnable(cap)
      for coord in (GL.GL_S, GL.GL_T, GL.GL_R):
        fast.glTexGeni(coord, GL.GL_TEXTURE_GEN_MODE, GL.GL_OBJECT_LINEAR)
      fast.glBindTexture(GL.GL_TEXTURE_CUBE_MAP, con.texture[texid])
      if kind == "regular":
        s = geom.size if texuniform else (1.0, 1.0, 1.0)
        planes = np.array([[s[0], 0, 0, 0], [0, s[1], 0, 0], [0, 0, s[2], 0]], np.float32)
      else:
        # skybox: rotate 90 degrees about x so that the cube's +y is up
        planes = _SKYBOX_PLANES
      for coord, plane in zip((GL.GL_S, GL.GL_T, GL.GL_R), planes):
        fast.glTexGenfv(coord, GL.GL_OBJECT_PLANE, plane.ctypes.data)
    else:
      fast.glDisable(GL.GL_TEXTURE_CUBE_MAP)
      for cap in (GL.GL_TEXTURE_GEN_S, GL.GL_TEXTURE_GEN_T, GL.GL_TEXTURE_GEN_R):
        fast.glDisable(cap)


_SKYBOX_PLANES = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0]], np.float32)
_BLACK = np.array([0, 0, 0, 1], np.float32)


class _FastGL:
  """Direct ctypes entry points of the calls made for every geom.

  PyOpenGL's wrappers cost ~10 us a call (argument conversion, glGetError); these cost ~1 us,
  which is most of the per-geom Python time. Like MuJoCo's C calls they do not check errors.
  Pointer arguments are addresses of live float32 arrays.
  """

  def __init__(self):
    lib = context.import_opengl("OpenGL.platform").PLATFORM.GL
    f, u, i, ub, p = ctypes.c_float, ctypes.c_uint, ctypes.c_int, ctypes.c_ubyte, ctypes.c_void_p
    for name, argtypes in (
      ("glMaterialfv", (u, u, p)),
      ("glMaterialf", (u, u, f)),
      ("glColor4f", (f, f, f, f)),
      ("glColor4ub", (ub, ub, ub, ub)),
      ("glPushMatrix", ()),
      ("glPopMatrix", ()),
      ("glTranslatef", (f, f, f)),
      ("glScalef", (f, f, f)),
      ("glMultMatrixf", (p,)),
      ("glCallList", (u,)),
      ("glEnable", (u,)),
      ("glDisable", (u,)),
      ("glActiveTexture", (u,)),
      ("glBindTexture", (u, u)),
      ("glTexGeni", (u, u, i)),
      ("glTexGenfv", (u, u, p)),
      ("glLightfv", (u, u, p)),
      ("glFogfv", (u, p)),
      ("glLoadMatrixf", (p,)),
      ("glMatrixMode", (u,)),
      ("glLoadIdentity", ()),
      ("glGetFloatv", (u, p)),
    ):
      function = lib[name]  # a fresh function object: PyOpenGL's own are left untouched
      function.argtypes = argtypes
      function.restype = None
      setattr(self, name, function)

  # the array-taking calls, from anything numpy converts (the array lives through the call)

  def light(self, light, pname, values):
    a = np.ascontiguousarray(values, np.float32)
    self.glLightfv(light, pname, a.ctypes.data)

  def fog_color(self, values):
    a = np.ascontiguousarray(values, np.float32)
    self.glFogfv(GL.GL_FOG_COLOR, a.ctypes.data)

  def mult_matrix(self, values):
    a = np.ascontiguousarray(values, np.float32)
    self.glMultMatrixf(a.ctypes.data)

  def load_matrix(self, values):
    a = np.ascontiguousarray(values, np.float32)
    self.glLoadMatrixf(a.ctypes.data)

  def eye_plane(self, coord, values):
    a = np.ascontiguousarray(values, np.float32)
    self.glTexGenfv(coord, GL.GL_EYE_PLANE, a.ctypes.data)

  def matrix(self, pname):
    """The current GL_MODELVIEW_MATRIX or GL_PROJECTION_MATRIX, as PyOpenGL returns it."""
    out = np.empty((4, 4), np.float32)
    self.glGetFloatv(pname, out.ctypes.data)
    return out


_FAST = []


def _fast_gl():
  """The _FastGL of this process (the GL library is fixed once PyOpenGL is loaded)."""
  if not _FAST:
    _FAST.append(_FastGL())
  return _FAST[0]


def _draw_visible_tiles(lists, corners, fast):
  """Call the display lists of the plane tiles that can reach the viewport: a tile is skipped
  when all its corners lie outside one side of the current clip volume (or behind the eye),
  which leaves the picture unchanged (the grid's vertices are the same)."""
  if len(lists) <= 4:  # culling would cost more than it saves
    for list_id in lists:
      fast.glCallList(int(list_id))
    return
  mvp = fast.matrix(GL.GL_MODELVIEW_MATRIX) @ fast.matrix(GL.GL_PROJECTION_MATRIX)
  clip = corners @ mvp  # row vectors: the arrays read back are the transposed matrices
  x, y, w = clip[..., 0], clip[..., 1], clip[..., 3]
  outside = (x < -w).all(1) | (x > w).all(1) | (y < -w).all(1) | (y > w).all(1) | (w <= 0).all(1)
  for list_id in lists[~outside]:
    fast.glCallList(int(list_id))


def _draw_plane_stencil(g, con):
  """A plane's coverage for the reflection stencil: its outline, without lighting or texture."""
  fast = _fast_gl()
  fast.glPushMatrix()
  fast.glTranslatef(*g.pos)
  fast.glMultMatrixf(g.transform.ctypes.data)
  if g.dataid >= 0 and g.dataid in con.planeOutline:
    fast.glCallList(con.planeOutline[g.dataid])
  else:
    fast.glScalef(g.size[0], g.size[1], 1)
    fast.glCallList(con.basePlane)
  fast.glPopMatrix()


def _gl_matrix(m):
  """Column-major 4x4 rotation from a row-major 3x3 (float32, for glMultMatrixf)."""
  return np.array(
    [m[0], m[3], m[6], 0, m[1], m[4], m[7], 0, m[2], m[5], m[8], 0, 0, 0, 0, 1], np.float32
  )


def _render_geom(g, mode, headpos, scn, con, skins=None):
  """renderGeom: draw one scene geom in the given mode."""
  t = g.type
  if mode == _SHADOWCAST and (t == _G.mjGEOM_LINE or g.category == mjtCatBit.mjCAT_DECOR):
    return
  if mode == _STENCIL and t == _G.mjGEOM_PLANE:
    _draw_plane_stencil(g, con)
    return
  size = g.size
  rgba = g.rgba
  behind = t == _G.mjGEOM_PLANE and _is_behind(headpos, g.pos, g.mat)
  textured = g.matid >= 0 and mode in (_NORMAL, _SHADOWMAP)
  if textured:
    _set_texture("regular", True, con, g)
  if behind and mode == _NORMAL:
    rgba = rgba.copy()
    rgba[3] *= np.float32(0.3)
  fast = _fast_gl()
  if mode == _NORMAL:
    emission = np.array(
      [g.emission * rgba[0], g.emission * rgba[1], g.emission * rgba[2], 1], np.float32
    )
  else:
    emission = _BLACK
  fast.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_EMISSION, emission.ctypes.data)
  fast.glColor4f(*rgba)
  fast.glMaterialf(GL.GL_FRONT_AND_BACK, GL.GL_SHININESS, min(max(g.shininess, 0.0), 1.0) * 128)
  fast.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_SPECULAR, g.specular_rgba.ctypes.data)
  if mode == _IDCOLOR:
    seg = g.segid + 1
    fast.glColor4ub(seg & 0xFF, (seg >> 8) & 0xFF, (seg >> 16) & 0xFF, 0xFF)
  elif mode == _SEGMENT:
    fast.glColor4f(
      0.1 + 0.8 * _halton(g.segid + 10, 2),
      0.1 + 0.8 * _halton(g.segid + 10, 3),
      0.1 + 0.8 * _halton(g.segid + 10, 5),
      1,
    )

  fast.glPushMatrix()
  if t != _G.mjGEOM_SKIN and t != _G.mjGEOM_FLEX:
    fast.glTranslatef(*g.pos)
    fast.glMultMatrixf(g.transform.ctypes.data)
  base = g.builtin if g.builtin >= 0 else con.baseBuiltin
  if t == _G.mjGEOM_PLANE:
    flip = behind and GL.glGetIntegerv(GL.GL_CULL_FACE_MODE) == GL.GL_BACK
    if flip:
      GL.glCullFace(GL.GL_FRONT)
    if g.dataid >= 0 and g.dataid in con.planeTiles:
      if mode == _SHADOWCAST and not scn.flags[mjRND_WIREFRAME]:  # depth only: no grid needed
        fast.glCallList(con.planeOutline[g.dataid])
      else:
        _draw_visible_tiles(*con.planeTiles[g.dataid], fast)
    else:
      fast.glScalef(size[0], size[1], 1)
      fast.glCallList(con.basePlane)
    if flip:
      GL.glCullFace(GL.GL_BACK)
  elif t == _G.mjGEOM_HFIELD:
    if 0 <= g.dataid < len(con.hfieldList):
      fast.glCallList(con.hfieldList[g.dataid])
  elif t in (_G.mjGEOM_SPHERE, _G.mjGEOM_ELLIPSOID):
    fast.glScalef(size[0], size[1], size[2])
    fast.glCallList(base + gl_resources.SPHERE)
  elif t == _G.mjGEOM_CAPSULE:
    av = np.float32(0.5) * (size[0] + size[1])
    # a zero-length capsule (a perturbation's spring as it starts) is a sphere
    size = (size[0], size[1], max(size[2], np.float32(1e-6) * av, np.float32(1e-12)))
    fast.glScalef(size[0], size[1], size[2])
    fast.glCallList(base + gl_resources.CYLINDEROPEN)
    fast.glScalef(1, 1, av / size[2])
    fast.glTranslatef(0, 0, (size[2] - av) / av)
    fast.glCallList(base + gl_resources.SPHERETOP)
    fast.glTranslatef(0, 0, 2 * (av - size[2]) / av)
    fast.glCallList(base + gl_resources.SPHEREBOTTOM)
  elif t == _G.mjGEOM_CYLINDER:
    fast.glScalef(size[0], size[1], size[2])
    fast.glCallList(base + gl_resources.CYLINDER)
  elif t == _G.mjGEOM_BOX:
    fast.glScalef(size[0], size[1], size[2])
    fast.glCallList(base + gl_resources.BOX)
  elif t in (_G.mjGEOM_MESH, _G.mjGEOM_SDF):
    # a mesh geom's dataid is 2*meshid, plus 1 to draw its convex hull (mjVIS_CONVEXHULL)
    meshid = g.dataid // 2
    if 0 <= meshid < len(con.meshList):
      hull = con.hullList[meshid] if g.dataid % 2 else None
      fast.glCallList(hull if hull is not None else con.meshList[meshid])
  elif t in (_G.mjGEOM_ARROW, _G.mjGEOM_ARROW1):
    fast.glScalef(size[0], size[1], size[2] / 6)
    fast.glTranslatef(0, 0, 1)
    fast.glCallList(base + gl_resources.CYLINDER)
    fast.glTranslatef(0, 0, 1)
    if t == _G.mjGEOM_ARROW:
      fast.glScalef(1.75, 1.75, 1)
    fast.glCallList(base + gl_resources.CONE)
  elif t == _G.mjGEOM_ARROW2:
    fast.glScalef(size[0], size[1], size[2] / 3)
    fast.glCallList(base + gl_resources.CYLINDEROPEN)
    fast.glScalef(1.75, 1.75, 0.5)
    fast.glTranslatef(0, 0, -2)
    GL.glRotatef(180, 1, 0, 0)
    fast.glCallList(base + gl_resources.CONE)
    GL.glRotatef(180, 1, 0, 0)
    fast.glTranslatef(0, 0, 4)
    fast.glCallList(base + gl_resources.CONE)
  elif t == _G.mjGEOM_LINE:
    GL.glLineWidth(max(size[0] * con.lineWidth, 1e-3))
    lighting = GL.glIsEnabled(GL.GL_LIGHTING)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glBegin(GL.GL_LINES)
    GL.glVertex3f(0, 0, 0)
    GL.glVertex3f(0, 0, size[2])
    GL.glEnd()
    GL.glLineWidth(con.lineWidth)
    if lighting:
      GL.glEnable(GL.GL_LIGHTING)
  elif t == _G.mjGEOM_LINEBOX:
    _line_box(size, con)
  elif t == _G.mjGEOM_TRIANGLE:
    # two-sided, normal +z, the texture's (0, 1) (1, 1) (0, 0) at its corners
    GL.glDisable(GL.GL_CULL_FACE)
    GL.glBegin(GL.GL_TRIANGLES)
    GL.glNormal3f(0, 0, 1)
    GL.glTexCoord2f(0, 1)
    GL.glVertex3f(0, 0, 0)
    GL.glTexCoord2f(1, 1)
    GL.glVertex3f(size[0], 0, 0)
    GL.glTexCoord2f(0, 0)
    GL.glVertex3f(0, size[1], 0)
    GL.glEnd()
    if scn.flags[mjRND_CULL_FACE]:
      GL.glEnable(GL.GL_CULL_FACE)
  elif t == _G.mjGEOM_SKIN and skins is not None:
    _draw_skin(g, scn, con, skins)
  elif t == _G.mjGEOM_FLEX:
    _draw_flex(g, scn, con)
  fast.glPopMatrix()
  if textured:
    _set_texture("regular", False, con, g)


def _line_box(size, con):
  GL.glLineWidth(1.5 * con.lineWidth)
  lighting = GL.glIsEnabled(GL.GL_LIGHTING)
  GL.glDisable(GL.GL_LIGHTING)
  x, y, z = (float(s) for s in size)
  for zz in (-z, z):
    GL.glBegin(GL.GL_LINE_LOOP)
    for vx, vy in ((-x, -y), (x, -y), (x, y), (-x, y)):
      GL.glVertex3f(vx, vy, zz)
    GL.glEnd()
  GL.glBegin(GL.GL_LINES)
  for vx, vy in ((-x, -y), (x, -y), (x, y), (-x, y)):
    GL.glVertex3f(vx, vy, -z)
    GL.glVertex3f(vx, vy, z)
  GL.glEnd()
  GL.glLineWidth(con.lineWidth)
  if lighting:
    GL.glEnable(GL.GL_LIGHTING)


def _draw_skin(g, scn, con, skins):
  """Skin of the scene (vertices and normals in world coordinates) with the model's faces."""
  i = g.objid
  if not 0 <= i < min(len(skins), con.nskin):
    return
  vert, normal = skins[i]
  if len(vert) < con.skin_vertnum[i] or len(normal) < con.skin_vertnum[i]:
    return  # the scene does not hold this skin's vertices: drawing would read past them
  GL.glEnableClientState(GL.GL_VERTEX_ARRAY)
  GL.glEnableClientState(GL.GL_NORMAL_ARRAY)
  GL.glVertexPointer(3, GL.GL_FLOAT, 0, vert)
  GL.glNormalPointer(GL.GL_FLOAT, 0, normal)
  tex = con.skin_texcoord[i]
  if tex is not None and len(tex) >= con.skin_vertnum[i]:
    GL.glEnableClientState(GL.GL_TEXTURE_COORD_ARRAY)
    GL.glTexCoordPointer(2, GL.GL_FLOAT, 0, tex)
  faces = con.skin_faces[i]
  GL.glDrawElements(GL.GL_TRIANGLES, faces.size, GL.GL_UNSIGNED_INT, faces)
  GL.glDisableClientState(GL.GL_VERTEX_ARRAY)
  GL.glDisableClientState(GL.GL_NORMAL_ARRAY)
  GL.glDisableClientState(GL.GL_TEXTURE_COORD_ARRAY)


def _quat_z2vec_mat(vec):
  """Rotation matrix of mju_quatZ2Vec: the shortest rotation taking +z to vec (unit)."""
  axis = np.cross([0.0, 0.0, 1.0], vec)
  s = np.linalg.norm(axis)
  if s < mjMINVAL:
    return np.diag([1.0, -1.0, -1.0]) if vec[2] < 0 else np.eye(3)
  axis /= s
  angle = np.arctan2(s, vec[2])
  k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
  return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


def _draw_flex(g, scn, con):
  """Flex: vertex spheres and edge cylinders (unless skinned faces hide them), then faces."""
  f = g.objid
  size = g.size
  faceused = int(scn.flexfaceused[f])
  hidden = bool(scn.flexskinopt) and faceused > 0
  texture = GL.glIsEnabled(GL.GL_TEXTURE_2D)
  if texture:
    GL.glDisable(GL.GL_TEXTURE_2D)
  vert = np.asarray(scn.flexvert, np.float32).reshape(-1, 3)
  vadr, vnum = int(scn.flexvertadr[f]), int(scn.flexvertnum[f])
  if size[0] > 0 and scn.flexvertopt and not hidden:
    for v in vert[vadr : vadr + vnum]:
      GL.glPushMatrix()
      GL.glTranslatef(*v)
      GL.glScalef(size[0], size[0], size[0])
      GL.glCallList(con.baseBuiltin + gl_resources.SPHERE)
      GL.glPopMatrix()
  if size[0] > 0 and scn.flexedgeopt and not hidden:
    edge = np.asarray(scn.flexedge, np.int64).reshape(-1, 2)
    eadr, enum = int(scn.flexedgeadr[f]), int(scn.flexedgenum[f])
    for e0, e1 in edge[eadr : eadr + enum]:
      v1, v2 = vert[vadr + e0].astype(np.float64), vert[vadr + e1].astype(np.float64)
      vec = v2 - v1
      length = np.linalg.norm(vec)
      rot = _quat_z2vec_mat(vec / length if length > mjMINVAL else np.array([0.0, 0, 1]))
      mat = np.eye(4, dtype=np.float32)
      mat[:3, :3] = rot.T  # column-major upload
      GL.glPushMatrix()
      GL.glTranslatef(*((v1 + v2) * 0.5))
      GL.glMultMatrixf(mat.ravel())
      GL.glScalef(size[0], size[0], length * 0.5)
      GL.glCallList(con.baseBuiltin + gl_resources.CYLINDEROPEN)
      GL.glPopMatrix()
  if texture:
    GL.glEnable(GL.GL_TEXTURE_2D)
  if faceused:
    fadr = int(scn.flexfaceadr[f])
    face = np.ascontiguousarray(
      np.asarray(scn.flexface, np.float32).reshape(-1, 9)[fadr : fadr + faceused]
    )
    normal = np.ascontiguousarray(
      np.asarray(scn.flexnormal, np.float32).reshape(-1, 9)[fadr : fadr + faceused]
    )
    if len(face) < faceused or len(normal) < faceused:
      return  # the scene does not hold these faces
    GL.glEnableClientState(GL.GL_VERTEX_ARRAY)
    GL.glEnableClientState(GL.GL_NORMAL_ARRAY)
    GL.glVertexPointer(3, GL.GL_FLOAT, 0, face)
    GL.glNormalPointer(GL.GL_FLOAT, 0, normal)
    textured = g.texcoord and g.matid >= 0
    if textured:
      tex = np.ascontiguousarray(
        np.asarray(scn.flextexcoord, np.float32).reshape(-1, 6)[fadr : fadr + faceused]
      )
      textured = len(tex) == faceused
      if textured:
        GL.glEnableClientState(GL.GL_TEXTURE_COORD_ARRAY)
        GL.glTexCoordPointer(2, GL.GL_FLOAT, 0, tex)
    GL.glDrawArrays(GL.GL_TRIANGLES, 0, 3 * faceused)
    GL.glDisableClientState(GL.GL_VERTEX_ARRAY)
    GL.glDisableClientState(GL.GL_NORMAL_ARRAY)
    GL.glDisableClientState(GL.GL_TEXTURE_COORD_ARRAY)


def _halton(index, base):
  """mju_Halton: element `index` of the Halton sequence in `base`."""
  n0, f, result = index, 1.0 / base, 0.0
  while n0 > 0:
    result += f * (n0 % base)
    n0 //= base
    f /= base
  return result


def _init_gl(scn, con):
  """initGL3: per-frame fixed-function state."""
  flags = scn.flags
  GL.glEnable(GL.GL_MULTISAMPLE)
  GL.glEnable(GL.GL_LIGHTING)
  (GL.glEnable if flags[mjRND_FOG] else GL.glDisable)(GL.GL_FOG)
  GL.glDisable(GL.GL_BLEND)
  GL.glEnable(GL.GL_NORMALIZE)
  if con._clip_control:
    GL.glClipControl(GL.GL_LOWER_LEFT, GL.GL_ZERO_TO_ONE)
  GL.glEnable(GL.GL_DEPTH_TEST)
  GL.glDepthMask(GL.GL_TRUE)
  (GL.glEnable if flags[mjRND_CULL_FACE] else GL.glDisable)(GL.GL_CULL_FACE)
  GL.glCullFace(GL.GL_BACK)
  GL.glShadeModel(GL.GL_SMOOTH)
  GL.glDepthFunc(GL.GL_GEQUAL)
  GL.glDepthRange(0, 1)
  GL.glAlphaFunc(GL.GL_GEQUAL, 0.99)
  GL.glClearColor(0, 0, 0, 0)
  GL.glClearDepth(0)
  GL.glClearStencil(0)
  GL.glTexEnvi(GL.GL_TEXTURE_ENV, GL.GL_TEXTURE_ENV_MODE, GL.GL_MODULATE)
  GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_LINE if flags[mjRND_WIREFRAME] else GL.GL_FILL)
  GL.glLineWidth(con.lineWidth)
  GL.glFrontFace(GL.GL_CCW)
  GL.glMaterialfv(GL.GL_FRONT_AND_BACK, GL.GL_SPECULAR, np.ones(4, np.float32))
  GL.glEnable(GL.GL_COLOR_MATERIAL)
  GL.glColorMaterial(GL.GL_FRONT_AND_BACK, GL.GL_AMBIENT_AND_DIFFUSE)
  # texturing stays off between draws (_set_texture relies on it)
  GL.glActiveTexture(GL.GL_TEXTURE0)
  for cap in (
    GL.GL_TEXTURE_2D,
    GL.GL_TEXTURE_CUBE_MAP,
    GL.GL_TEXTURE_GEN_S,
    GL.GL_TEXTURE_GEN_T,
    GL.GL_TEXTURE_GEN_R,
  ):
    GL.glDisable(cap)
  # fog parameters belong to the model (MuJoCo sets them once per OpenGL context)
  GL.glFogi(GL.GL_FOG_MODE, GL.GL_LINEAR)
  GL.glFogf(GL.GL_FOG_START, con.fogStart)
  GL.glFogf(GL.GL_FOG_END, con.fogEnd)
  _fast_gl().fog_color(con.fogRGBA)


def _init_lights(lights, any_light):
  """initLights: colours and attenuation of each light; all left disabled."""
  fast = _fast_gl()
  ambient = 0.0 if any_light else 0.3
  GL.glLightModelfv(GL.GL_LIGHT_MODEL_AMBIENT, np.array([ambient, ambient, ambient, 1], np.float32))
  GL.glLightModeli(GL.GL_LIGHT_MODEL_TWO_SIDE, 0)
  GL.glLightModeli(GL.GL_LIGHT_MODEL_LOCAL_VIEWER, 1)
  for i, light in enumerate(lights):
    gl_light = GL.GL_LIGHT0 + i
    for name, value in (
      (GL.GL_AMBIENT, light.ambient),
      (GL.GL_DIFFUSE, light.diffuse),
      (GL.GL_SPECULAR, light.specular),
    ):
      fast.light(gl_light, name, np.append(np.asarray(value, np.float32)[:3], 1))
    if int(light.type) != mjtLightType.mjLIGHT_DIRECTIONAL:
      # every positional light is a spot light, as in MuJoCo's classic renderer (a point
      # light's cutoff of 0 makes it contribute nothing there, and so here)
      # OpenGL rejects (and MuJoCo's C calls then leave unchanged) out-of-range values
      exponent, cutoff = float(light.exponent), float(light.cutoff)
      if 0 <= exponent <= 128:
        GL.glLightf(gl_light, GL.GL_SPOT_EXPONENT, exponent)
      if 0 <= cutoff <= 90 or cutoff == 180:
        GL.glLightf(gl_light, GL.GL_SPOT_CUTOFF, cutoff)
      att = np.asarray(light.attenuation, np.float32)
    else:
      GL.glLightf(gl_light, GL.GL_SPOT_EXPONENT, 0)
      GL.glLightf(gl_light, GL.GL_SPOT_CUTOFF, 180)
      att = np.asarray(light.attenuation, np.float32)
    if not np.any(att > 0) or np.any(att < 0):
      # scenes give directional and point lights no attenuation: constant, like directional
      att = (1, 0, 0)
    GL.glLightf(gl_light, GL.GL_CONSTANT_ATTENUATION, float(att[0]))
    GL.glLightf(gl_light, GL.GL_LINEAR_ATTENUATION, float(att[1]))
    GL.glLightf(gl_light, GL.GL_QUADRATIC_ATTENUATION, float(att[2]))
    GL.glDisable(gl_light)


def _adjust_light(light, n):
  """adjustLight: position and direction of light n in the current (world) frame."""
  fast = _fast_gl()
  d = np.asarray(light.dir, np.float32)
  p = np.asarray(light.pos, np.float32)
  if int(light.type) == mjtLightType.mjLIGHT_DIRECTIONAL:
    fast.light(GL.GL_LIGHT0 + n, GL.GL_POSITION, (-d[0], -d[1], -d[2], 0))
  else:
    fast.light(GL.GL_LIGHT0 + n, GL.GL_SPOT_DIRECTION, (d[0], d[1], d[2], 0))
    fast.light(GL.GL_LIGHT0 + n, GL.GL_POSITION, (p[0], p[1], p[2], 1))


def _reversed_depth_projection(con):
  """Loads the projection matrix's reversed-depth part (1 at the near plane, as MuJoCo): the
  caller multiplies the frustum onto it."""
  GL.glMatrixMode(GL.GL_PROJECTION)
  GL.glLoadIdentity()
  if con._clip_control:
    GL.glTranslatef(0, 0, 0.5)
    GL.glScalef(1, 1, -0.5)
  else:
    GL.glScalef(1, 1, -1)


def _set_view(cam, viewport, scn, con):
  """setView: projection (reversed depth) and modelview of the averaged camera."""
  halfwidth = (
    cam.frustum_width
    if cam.frustum_width
    else np.float32(0.5)
    * np.float32(viewport.width)
    / np.float32(viewport.height)
    * (cam.frustum_top - cam.frustum_bottom)
  )
  _reversed_depth_projection(con)
  args = (
    cam.frustum_center - halfwidth,
    cam.frustum_center + halfwidth,
    cam.frustum_bottom,
    cam.frustum_top,
    cam.frustum_near,
    cam.frustum_far,
  )
  (GL.glOrtho if cam.orthographic else GL.glFrustum)(*(float(a) for a in args))
  cam_project = _fast_gl().matrix(GL.GL_PROJECTION_MATRIX)
  GL.glMatrixMode(GL.GL_MODELVIEW)
  GL.glLoadIdentity()
  _look_at(cam.pos, cam.forward, cam.up)
  if scn.enabletransform:
    _transform(scn.translate, scn.rotate, scn.scale)
  cam_view = _fast_gl().matrix(GL.GL_MODELVIEW_MATRIX)
  return cam_project, cam_view


def _scene_skins(scn):
  """Per-skin (vertices, normals) float32 arrays from the scene, or None."""
  nskin = int(getattr(scn, "nskin", 0))
  if not nskin:
    return None
  vert = np.asarray(scn.skinvert, np.float32).reshape(-1, 3)
  normal = np.asarray(scn.skinnormal, np.float32).reshape(-1, 3)
  out = []
  for i in range(nskin):
    adr, num = int(scn.skinvertadr[i]), int(scn.skinvertnum[i])
    out.append(
      (np.ascontiguousarray(vert[adr : adr + num]), np.ascontiguousarray(normal[adr : adr + num]))
    )
  return out


def mjr_render(viewport, scn, con):
  """Render the scene into the current buffer's viewport (mjr_render, render_gl3.c)."""
  if viewport.width <= 0 or viewport.height <= 0:
    return
  con.use_builtins_for(viewport)
  cam = _average_camera(scn.camera[0], scn.camera[1])
  ngeom = int(scn.ngeom)
  if cam.frustum_near < mjMINVAL:
    if ngeom:
      raise ValueError("mjvScene frustum_near too small in mjr_render")
    return
  flags = [bool(f) for f in scn.flags]
  geoms = [_read_geom(i, scn.geoms[i]) for i in range(ngeom)]
  nscene_light = min(mjMAXLIGHT, int(scn.nlight))
  # fixed-function OpenGL has GL_MAX_LIGHTS (8) lights; MuJoCo's calls beyond fail silently
  lights = [scn.lights[i] for i in range(min(nscene_light, con.maxLights))]
  skins = _scene_skins(scn)
  _init_lights(lights, nscene_light > 0)
  headpos = _head_in_model(scn)

  # transparent geoms, sorted by distance to the camera
  transparent = []
  for g in geoms:
    if g.rgba[3] < 0.995 or (g.type == _G.mjGEOM_PLANE and _is_behind(headpos, g.pos, g.mat)):
      g.transparent = True
      g.camdist = float(np.linalg.norm(g.pos - headpos)) - _rbound(g)
      if g.type == _G.mjGEOM_PLANE:
        g.camdist = 1e10
      transparent.append(g)
  transparent.sort(key=lambda g: g.camdist)
  _pick_detail(geoms, cam, headpos, viewport, scn, con)
  # only one reflective geom
  found = False
  for g in geoms:
    if found:
      g.reflectance = 0.0
    elif _is_reflective(g):
      found = True

  # several MjrContexts may share one OpenGL context: bind this one's buffer first
  mjr_restoreBuffer(con)
  _init_gl(scn, con)
  GL.glViewport(viewport.left, viewport.bottom, viewport.width, viewport.height)
  GL.glScissor(viewport.left, viewport.bottom, viewport.width, viewport.height)
  GL.glEnable(GL.GL_SCISSOR_TEST)
  GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
  GL.glDisable(GL.GL_SCISSOR_TEST)
  # stereo: two views side by side (no quad-buffered stereo windows here)
  stereo = int(getattr(scn, "stereo", mjSTEREO_NONE))
  if stereo == mjSTEREO_QUADBUFFERED:
    stereo = mjSTEREO_SIDEBYSIDE
  viewport = MjrRect(viewport.left, viewport.bottom, viewport.width, viewport.height)
  if stereo == mjSTEREO_SIDEBYSIDE:
    viewport.width //= 2
  for view in (0, 1) if stereo else (-1,):
    if stereo == mjSTEREO_SIDEBYSIDE:
      if view:
        viewport.left += viewport.width
      GL.glViewport(viewport.left, viewport.bottom, viewport.width, viewport.height)
    view_cam = cam if view < 0 else _average_camera(scn.camera[view], scn.camera[view])
    cam_project, cam_view = _set_view(view_cam, viewport, scn, con)
    _render_view(
      viewport,
      cam,
      cam_project,
      cam_view,
      geoms,
      transparent,
      lights,
      headpos,
      flags,
      scn,
      con,
      skins,
    )

  framewidth = int(getattr(scn, "framewidth", 0))
  if framewidth:
    rgb = np.asarray(scn.framergb, np.float32)
    GL.glClearColor(rgb[0], rgb[1], rgb[2], 0)
    GL.glEnable(GL.GL_SCISSOR_TEST)
    x, y, w, h = viewport.left, viewport.bottom, viewport.width, viewport.height
    for rect in (
      (x, y, w, framewidth),
      (x, y + h - framewidth, w, framewidth),
      (x, y, framewidth, h),
      (x + w - framewidth, y, framewidth, h),
    ):
      GL.glScissor(*rect)
      GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    GL.glDisable(GL.GL_SCISSOR_TEST)
  mjr_restoreBuffer(con)


def _render_view(
  viewport, cam, cam_project, cam_view, geoms, transparent, lights, headpos, flags, scn, con, skins
):
  """One view of mjr_render: segmentation, or reflections, opaque geoms, shadows, skybox,
  transparent geoms and labels."""
  nlight = len(lights)
  if flags[mjRND_SEGMENT]:
    GL.glShadeModel(GL.GL_FLAT)
    GL.glDisable(GL.GL_LIGHTING)
    GL.glDisable(GL.GL_COLOR_MATERIAL)
    GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_FILL)
    GL.glDisable(GL.GL_FOG)
    GL.glDisable(GL.GL_MULTISAMPLE)
    mode = _IDCOLOR if flags[mjRND_IDCOLOR] else _SEGMENT
    for g in geoms:
      if g.segid >= 0:
        _render_geom(g, mode, headpos, scn, con, skins)
    return

  if flags[mjRND_REFLECTION]:
    _render_reflections(geoms, transparent, lights, headpos, flags, scn, con, skins)

  # opaque geoms, lit by the lights without shadows
  for i, light in enumerate(lights):
    _adjust_light(light, i)
    if not light.castshadow or not (flags[mjRND_SHADOW] and con.shadowFBO):
      GL.glEnable(GL.GL_LIGHT0 + i)
  GL.glEnable(GL.GL_BLEND)
  GL.glBlendFunc(GL.GL_ONE, GL.GL_ONE)
  for g in geoms:
    if _is_reflective(g):
      _render_geom(g, _NORMAL, headpos, scn, con, skins)
  GL.glDisable(GL.GL_BLEND)
  for g in geoms:
    if not g.transparent and not _is_reflective(g):
      _render_geom(g, _NORMAL, headpos, scn, con, skins)
  for i in range(nlight):
    GL.glDisable(GL.GL_LIGHT0 + i)

  # shadows: add the light of each shadow-casting light where its shadow map says lit. Flushing
  # first lets Mesa's llvmpipe threads rasterize the passes above while these are submitted
  GL.glFlush()
  _fast_gl().fog_color(np.zeros(4, np.float32))
  if flags[mjRND_SHADOW] and con.shadowFBO:
    for i, light in enumerate(lights):
      if light.castshadow:
        _render_shadow(
          i, light, geoms, cam, cam_project, cam_view, viewport, headpos, scn, con, skins
        )
  _fast_gl().fog_color(con.fogRGBA)

  if flags[mjRND_SKYBOX]:
    _render_skybox(geoms, headpos, cam, flags, scn, con)

  # transparent geoms: front to back, then back to front unless additive
  for i in range(nlight):
    GL.glEnable(GL.GL_LIGHT0 + i)
  _blend_transparent(
    transparent, flags, lambda g: _render_geom(g, _NORMAL, headpos, scn, con, skins)
  )
  for i in range(nlight):
    GL.glDisable(GL.GL_LIGHT0 + i)

  # labels
  labelled = [g for g in geoms if g.label]
  if labelled:
    GL.glDisable(GL.GL_DEPTH_TEST)
    GL.glDisable(GL.GL_LIGHTING)
    for g in labelled:
      gl_text.text_at(g.label, con, g.pos, (1, 1, 1), shadow=True)
    GL.glEnable(GL.GL_DEPTH_TEST)
    GL.glEnable(GL.GL_LIGHTING)


def _blend_transparent(transparent, flags, draw):
  """Draw transparent geoms blended, without depth writes: front to back, then back to front
  unless blending is additive (as MuJoCo, in the main view and in reflections)."""
  GL.glDepthMask(GL.GL_FALSE)
  GL.glEnable(GL.GL_BLEND)
  if flags[mjRND_ADDITIVE]:
    GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE)
  else:
    GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
  for g in transparent:
    draw(g)
  if not flags[mjRND_ADDITIVE]:
    for g in reversed(transparent):
      draw(g)
  GL.glDepthMask(GL.GL_TRUE)
  GL.glDisable(GL.GL_BLEND)


def _render_reflections(geoms, transparent, lights, headpos, flags, scn, con, skins):
  """Planar reflections: draw the mirrored scene where the reflective geom covers the stencil."""
  for g in geoms:
    if not _is_reflective(g):
      continue
    this = g
    if g.type == _G.mjGEOM_BOX:
      # the box's +z face acts as the mirror
      this = dataclasses.replace(g, type=int(_G.mjGEOM_PLANE), pos=g.pos.copy())
      this.pos += g.size[2] * np.array([g.mat[2], g.mat[5], g.mat[8]], np.float32)
    if _is_behind(headpos, this.pos, this.mat):
      continue
    GL.glDisable(GL.GL_DEPTH_TEST)
    GL.glColorMask(0, 0, 0, 0)
    GL.glEnable(GL.GL_STENCIL_TEST)
    GL.glEnable(GL.GL_SCISSOR_TEST)
    GL.glClear(GL.GL_STENCIL_BUFFER_BIT)
    GL.glDisable(GL.GL_SCISSOR_TEST)
    GL.glStencilFunc(GL.GL_ALWAYS, 1, 0xFF)
    GL.glStencilOp(GL.GL_REPLACE, GL.GL_REPLACE, GL.GL_REPLACE)
    GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_FILL)
    GL.glPushAttrib(GL.GL_ENABLE_BIT)  # colour is masked: no lighting, fog or textures
    GL.glDisable(GL.GL_LIGHTING)
    GL.glDisable(GL.GL_FOG)
    _render_geom(this, _STENCIL, headpos, scn, con, skins)
    GL.glPopAttrib()
    GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_LINE if flags[mjRND_WIREFRAME] else GL.GL_FILL)
    GL.glEnable(GL.GL_DEPTH_TEST)
    GL.glColorMask(1, 1, 1, 1)
    GL.glStencilFunc(GL.GL_EQUAL, 1, 0xFF)
    GL.glStencilOp(GL.GL_KEEP, GL.GL_KEEP, GL.GL_KEEP)
    GL.glEnable(GL.GL_CLIP_PLANE0)
    m, p = this.mat, this.pos
    GL.glClipPlane(
      GL.GL_CLIP_PLANE0,
      np.array([-m[2], -m[5], -m[8], p[0] * m[2] + p[1] * m[5] + p[2] * m[8]], np.float64),
    )
    GL.glFrontFace(GL.GL_CW)
    GL.glPushMatrix()
    _reflect(this.pos, this.mat)
    for j, light in enumerate(lights):
      _adjust_light(light, j)
      GL.glEnable(GL.GL_LIGHT0 + j)

    def reflected(other):
      tinted = dataclasses.replace(other, rgba=other.rgba.copy())
      tinted.rgba[:3] *= np.float32(this.reflectance)
      _render_geom(tinted, _NORMAL, headpos, scn, con, skins)

    for other in geoms:
      if not other.transparent and other.index != g.index:
        reflected(other)
    _blend_transparent([o for o in transparent if o.index != g.index], flags, reflected)
    for j in range(len(lights)):
      GL.glDisable(GL.GL_LIGHT0 + j)
    GL.glDisable(GL.GL_STENCIL_TEST)
    GL.glDisable(GL.GL_CLIP_PLANE0)
    GL.glPopMatrix()
    GL.glFrontFace(GL.GL_CCW)


_BIAS = np.array([0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0, 0.5, 0.5, 0, 1], np.float32)


# shadow-map texels per image pixel (along the image's larger side), see _render_shadow
SHADOW_TEXELS_PER_PIXEL = 4


# projected radius in pixels below which spheres, capsules, cylinders, ellipsoids, boxes and
# arrows are drawn with half / a quarter of MuJoCo's facets (their outline then stays within
# about 0.4 pixel of the finer one), see _pick_detail
DETAIL_PIXELS = (16.0, 4.0)
_DETAIL_TYPES = frozenset(
  int(t)
  for t in (
    _G.mjGEOM_SPHERE,
    _G.mjGEOM_ELLIPSOID,
    _G.mjGEOM_CAPSULE,
    _G.mjGEOM_CYLINDER,
    _G.mjGEOM_BOX,
    _G.mjGEOM_ARROW,
    _G.mjGEOM_ARROW1,
    _G.mjGEOM_ARROW2,
  )
)


def _pick_detail(geoms, cam, headpos, viewport, scn, con):
  """Set each geom's builtin shapes (g.builtin) from the radius its rounded part spans in this
  image: a sphere a few pixels wide needs no 28x16 tessellation. One choice per frame serves
  every pass (shadow maps, reflections), so a geom casts the shadow of the shape drawn."""
  half_px, quarter_px = DETAIL_PIXELS
  span = float(cam.frustum_top) - float(cam.frustum_bottom)
  near = float(cam.frustum_near)
  if half_px <= 0 or span <= 0 or scn.enabletransform:
    return
  forward = cam.forward.astype(np.float64)
  for g in geoms:
    if g.type not in _DETAIL_TYPES:
      continue
    s = g.size
    radius = float(
      max(s)
      if g.type in (_G.mjGEOM_BOX, _G.mjGEOM_ELLIPSOID, _G.mjGEOM_SPHERE)
      else max(s[0], s[1])
    )
    if cam.orthographic:
      pixels = radius * viewport.height / span
    else:
      depth = float(np.dot(g.pos - headpos, forward)) - _rbound(g)
      pixels = radius * viewport.height * near / (span * max(depth, near))
    g.builtin = con.builtins(2 if pixels < quarter_px else 1 if pixels < half_px else 0)


def set_render_shortcuts(enabled: bool):
  """Draw faster than MuJoCo where the image cannot show the difference (on by default): shadow
  maps sized to the image (SHADOW_TEXELS_PER_PIXEL), builtin shapes with fewer facets where they
  span few pixels (DETAIL_PIXELS), the skybox with half the facets at gl_resources.SMALL_IMAGE
  pixels and below. Segmentation stays within a pixel of MuJoCo's, depth on curved surfaces
  within about 1 %, shadow edges are softer. Off: MuJoCo's drawing at every size."""
  global SHADOW_TEXELS_PER_PIXEL, DETAIL_PIXELS
  SHADOW_TEXELS_PER_PIXEL = 4 if enabled else 10**9
  DETAIL_PIXELS = (16.0, 4.0) if enabled else (0.0, 0.0)
  gl_resources.SMALL_IMAGE = 128 if enabled else 0


def shadow_map_size(con, viewport) -> int:
  """Side of the shadow map drawn for this viewport: MuJoCo's shadowsize, or less for small
  images (SHADOW_TEXELS_PER_PIXEL texels per pixel, at least 256)."""
  wanted = SHADOW_TEXELS_PER_PIXEL * max(int(viewport.width), int(viewport.height))
  return int(min(con.shadowSize, max(256, wanted)))


def _render_shadow(i, light, geoms, cam, cam_project, cam_view, viewport, headpos, scn, con, skins):
  """Shadow map of light i, then the opaque geoms lit by it where the map says lit."""
  light_dir = np.asarray(light.dir, np.float32)
  up = _ortho_vec(light_dir)
  _reversed_depth_projection(con)
  near, far = float(cam.frustum_near), float(cam.frustum_far)
  if int(light.type) == mjtLightType.mjLIGHT_DIRECTIONAL:
    c = con.shadowClip
    GL.glOrtho(-c, c, -c, c, near, far)
  else:
    fovy = min(2 * float(light.cutoff) * con.shadowScale, 160)
    h = np.tan(fovy / 360.0 * np.pi) * near
    if h > 0:  # OpenGL ignores an empty frustum (e.g. lights with cutoff 0) with an error
      GL.glFrustum(-h, h, -h, h, near, far)
  light_project = _fast_gl().matrix(GL.GL_PROJECTION_MATRIX)
  GL.glMatrixMode(GL.GL_MODELVIEW)
  GL.glLoadIdentity()
  _look_at(np.asarray(light.pos, np.float32), light_dir, up)
  light_view = _fast_gl().matrix(GL.GL_MODELVIEW_MATRIX)

  # the shadow map uses MuJoCo's shadowsize texels at most, and no more than the image can
  # show (SHADOW_TEXELS_PER_PIXEL per pixel of its larger side): at small image sizes drawing a
  # 2048x2048 map is most of the frame time
  size = shadow_map_size(con, viewport)
  GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, con.shadowFBO)
  GL.glDrawBuffer(GL.GL_NONE)
  if size < con.shadowSize:
    # clear only the part in use (and its margin, which clamped lookups read)
    GL.glEnable(GL.GL_SCISSOR_TEST)
    GL.glScissor(0, 0, size + 1, size + 1)
    GL.glClear(GL.GL_DEPTH_BUFFER_BIT)
    GL.glDisable(GL.GL_SCISSOR_TEST)
  else:
    GL.glClear(GL.GL_DEPTH_BUFFER_BIT)
  GL.glViewport(1, 1, size - 2, size - 2)
  GL.glShadeModel(GL.GL_FLAT)
  GL.glDisable(GL.GL_LIGHTING)
  GL.glColorMask(0, 0, 0, 0)
  cull_face = GL.glIsEnabled(GL.GL_CULL_FACE)
  GL.glDisable(GL.GL_CULL_FACE)
  GL.glEnable(GL.GL_POLYGON_OFFSET_FILL)
  if con._clip_control:
    GL.glPolygonOffset(-1.5, -4.0)
  else:
    GL.glPolygonOffset(-16.0, -512.0)
  for g in geoms:
    _render_geom(g, _SHADOWCAST, headpos, scn, con, skins)

  mjr_restoreBuffer(con)
  GL.glViewport(viewport.left, viewport.bottom, viewport.width, viewport.height)
  if cull_face:
    GL.glEnable(GL.GL_CULL_FACE)
  GL.glDisable(GL.GL_POLYGON_OFFSET_FILL)
  GL.glShadeModel(GL.GL_SMOOTH)
  GL.glEnable(GL.GL_LIGHTING)
  GL.glColorMask(1, 1, 1, 1)
  GL.glMatrixMode(GL.GL_PROJECTION)
  _fast_gl().load_matrix(cam_project)
  GL.glMatrixMode(GL.GL_MODELVIEW)
  _fast_gl().load_matrix(cam_view)

  # texture matrix = bias * lightProject * lightView (column-major 4x4)
  lp = np.asarray(light_project, np.float32).reshape(4, 4).T
  lv = np.asarray(light_view, np.float32).reshape(4, 4).T
  bias = _BIAS.reshape(4, 4).T.copy()
  if not con._clip_control:
    bias[2, 2] = 0.5
    bias[2, 3] = 0.5
  texmat = bias @ lp @ lv
  texmat[0:2] *= size / con.shadowSize  # the map covers [0, size) of the texture
  _set_texture("shadow", True, con, None)
  GL.glActiveTexture(GL.GL_TEXTURE1)
  for coord, row in zip((GL.GL_S, GL.GL_T, GL.GL_R, GL.GL_Q), range(4)):
    _fast_gl().eye_plane(coord, texmat[row])
  GL.glActiveTexture(GL.GL_TEXTURE0)
  GL.glEnable(GL.GL_ALPHA_TEST)
  GL.glEnable(GL.GL_BLEND)
  GL.glBlendFunc(GL.GL_ONE, GL.GL_ONE)
  GL.glEnable(GL.GL_LIGHT0 + i)
  for g in geoms:
    if not g.transparent:
      _render_geom(g, _SHADOWMAP, headpos, scn, con, skins)
  GL.glDisable(GL.GL_LIGHT0 + i)
  GL.glDisable(GL.GL_BLEND)
  GL.glDisable(GL.GL_ALPHA_TEST)
  _set_texture("shadow", False, con, None)


def _render_skybox(geoms, headpos, cam, flags, scn, con):
  """Skybox: a textured cylinder around the head, plus haze over the first infinite plane."""
  GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_FILL)
  texid = int(con.mat_texid[con.skybox_matid, _ROLE_RGB])
  if texid >= 0:
    sky = _Geom(
      -1,
      0,
      -1,
      -1,
      con.skybox_matid,
      0,
      texid,
      0,
      np.zeros(2, np.float32),
      -1,
      0,
      np.zeros(3, np.float32),
      np.zeros(3, np.float32),
      np.zeros(9, np.float32),
      np.ones(4, np.float32),
      0.0,
      0.0,
      0.0,
      0.0,
      "",
    )
    GL.glDisable(GL.GL_LIGHTING)
    GL.glDisable(GL.GL_COLOR_MATERIAL)
    GL.glCullFace(GL.GL_FRONT)
    GL.glPushMatrix()
    GL.glTranslatef(headpos[0], headpos[1], headpos[2])
    dst = np.float32(cam.frustum_far) * np.float32(0.7)
    if scn.enabletransform:
      dst /= np.float32(scn.scale)
    GL.glScalef(dst, dst, dst)
    _set_texture("skybox", True, con, sky)
    GL.glColor4f(1, 1, 1, 1)
    GL.glCallList(con.baseBuiltin + gl_resources.CYLINDER)
    _set_texture("skybox", False, con, sky)
    if flags[mjRND_HAZE]:
      for g in geoms:
        if g.type == _G.mjGEOM_PLANE and g.size[0] == 0 and g.size[1] == 0:
          m = g.mat
          elevation = (
            (headpos[0] - g.pos[0]) * m[2]
            + (headpos[1] - g.pos[1]) * m[5]
            + (headpos[2] - g.pos[2]) * m[8]
          ) / dst
          if elevation < 0:
            break
          GL.glMultMatrixf(
            np.array(
              [m[0], m[3], m[6], 0, m[1], m[4], m[7], 0, m[2], m[5], m[8], 0, 0, 0, 0, 1],
              np.float32,
            )
          )
          GL.glTranslatef(0, 0, -elevation)
          GL.glScalef(1, 1, elevation)
          GL.glEnable(GL.GL_BLEND)
          GL.glBlendFunc(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)
          GL.glCallList(con.baseBuiltin + gl_resources.HAZE)
          GL.glDisable(GL.GL_BLEND)
          break
    GL.glPopMatrix()
    GL.glEnable(GL.GL_LIGHTING)
    GL.glEnable(GL.GL_COLOR_MATERIAL)
    GL.glCullFace(GL.GL_BACK)
  GL.glPolygonMode(GL.GL_FRONT_AND_BACK, GL.GL_LINE if flags[mjRND_WIREFRAME] else GL.GL_FILL)


# ---- offscreen rendering of a scene to arrays ----


class OffscreenRenderer:
  """Renders scenes of one model to numpy images, as dm_control's Physics.render returns them.

  Owns (or borrows) a GLContext and the model's MjrContext. Images are top row first: RGB
  uint8 (h, w, 3), depth float32 (h, w) in metres, segmentation int32 (h, w, 2) holding
  (object id, mjtObj type) with (-1, -1) for the background.
  """

  def __init__(self, model, height, width, gl_context=None, font_scale=150, mjr_context=None):
    """`gl_context` and `mjr_context` (the model's uploaded MjrContext on that GL context) are
    borrowed when given, else made here and freed by close()."""
    glob = model.vis.global_
    for name, size, limit, attr in (
      ("width", width, int(glob.offwidth), "offwidth"),
      ("height", height, int(glob.offheight), "offheight"),
    ):
      if size > limit:
        raise ValueError(
          f"image {name} {size} > framebuffer {name} {limit}: reduce the image {name} or "
          f"set a larger offscreen framebuffer in the model XML: "
          f'<visual><global {attr}="{size}"/></visual>'
        )
    self.model = model
    self.height, self.width = int(height), int(width)
    self._owns_context = gl_context is None
    self._owns_mjr = mjr_context is None
    self.gl = gl_context if gl_context is not None else context.GLContext(width, height)
    self.con = (
      mjr_context if mjr_context is not None else self.gl.call(MjrContext, model, font_scale)
    )
    self.rect = MjrRect(0, 0, self.width, self.height)
    self._rgb = np.empty((self.height, self.width, 3), np.uint8)
    self._depth = np.empty((self.height, self.width), np.float32)

  def render(self, scn, depth=False, segmentation=False, overlays=(), dm_control_depth=False):
    """Draw scn and read back RGB, depth (metres) or segmentation (see the class doc).

    overlays: (font, gridpos, text, text2) tuples drawn over an RGB image. Depth is drawn as
    mujoco.Renderer draws it (flat segmentation colours, reversed buffer converted in float64),
    or with `dm_control_depth` as dm_control's Physics.render (the full RGB drawing, the [0, 1]
    buffer converted in float32), so that each gives its library's numbers. The GL context that
    was current before is current again afterwards.
    """
    if depth and segmentation:
      raise ValueError("depth and segmentation cannot both be requested")
    with self.gl.make_current():
      return self._render(scn, depth, segmentation, overlays, dm_control_depth)

  def _render(self, scn, depth, segmentation, overlays, dm_control_depth):
    self.con.refresh_hfields(self.model)
    flags = np.array(scn.flags, copy=True)
    if segmentation or (depth and not dm_control_depth):
      scn.flags[mjRND_SEGMENT] = 1
      scn.flags[mjRND_IDCOLOR] = 1
    try:
      mjr_render(self.rect, scn, self.con)
    finally:
      scn.flags[:] = flags
    if depth and dm_control_depth:
      mjr_readPixels(None, self._depth, self.rect, self.con)
      return np.flipud(depth_to_metres(self._depth, self.model))
    if depth:
      # read the reversed buffer: converting it directly keeps the precision of far depths
      self.con.readDepthMap = mjDEPTH_ZEROFAR
      try:
        mjr_readPixels(None, self._depth, self.rect, self.con)
      finally:
        self.con.readDepthMap = mjDEPTH_ZERONEAR
      metres = depth_to_metres(self._depth, self.model, mjDEPTH_ZEROFAR)
      return np.flipud(metres).astype(np.float32)
    if not segmentation:
      for font, gridpos, text, text2 in overlays:
        gl_text.mjr_overlay(font, gridpos, self.rect, text, text2, self.con)
    mjr_readPixels(self._rgb, None, self.rect, self.con)
    rgb = np.flipud(self._rgb)
    if segmentation:
      return decode_segmentation(rgb, scn)
    return rgb.copy()

  def close(self):
    """Free the GPU resources and the GL context that this renderer made (not borrowed ones)."""
    if self.con is not None:
      if self._owns_mjr:
        self.gl.call(self.con.free)
      self.con = None
      if self._owns_context:
        self.gl.free()


def decode_segmentation(rgb, scn):
  """(object id, object type) per pixel from mjRND_IDCOLOR colours (segid + 1, little endian),
  -1 for the background: dm_control's Physics.render decoding."""
  rgb = np.asarray(rgb, np.uint32)
  segimage = rgb[..., 0] + rgb[..., 1] * 2**8 + rgb[..., 2] * 2**16
  ngeom = int(scn.ngeom)
  # the last row catches colours that are no segid (blended edges, overlays)
  table = np.full((ngeom + 2, 2), -1, np.int32)
  for i in range(ngeom):
    g = scn.geoms[i]
    if g.segid != -1 and 0 <= g.segid + 1 <= ngeom:
      table[g.segid + 1] = (g.objid, g.objtype)
  return table[np.minimum(segimage, ngeom + 1)]
