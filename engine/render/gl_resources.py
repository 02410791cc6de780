"""GPU resources of a model for the OpenGL renderer (MuJoCo's mjrContext, render_context.c).

Uploads once per context what every frame reuses: builtin shapes, planes, meshes and height
fields as display lists (tessellated by gl_mesh.py), textures, the offscreen framebuffer with
its multisample resolve buffer, the shadow map and the bitmap fonts.
"""

import dataclasses

import numpy as np

from engine.enums import mjtColorSpace
from engine.enums import mjtGeom
from engine.enums import mjtTexture
from engine.enums import mjtTextureRole
from engine.errors import FatalError
from engine.render import context
from engine.render import gl_mesh
from engine.render import gl_text

GL = context.LazyModule(context.import_opengl)  # OpenGL.GL, loaded when first drawn with
_raw_gl = context.LazyModule(lambda: context.import_opengl("OpenGL.raw.GL.VERSION.GL_1_0"))

# framebuffers (mjtFramebuffer)
mjFB_WINDOW = 0
mjFB_OFFSCREEN = 1
# depth mapping of mjr_readPixels (mjtDepthMap)
mjDEPTH_ZERONEAR = 0
mjDEPTH_ZEROFAR = 1
# builtin display lists (mjtBuiltin of render_context.h)
SPHERE, SPHERETOP, SPHEREBOTTOM, CYLINDER, CYLINDEROPEN, HAZE, BOX, CONE = range(8)
_NBUILTIN = 8

_NTEXROLE = int(mjtTextureRole.mjNTEXROLE)
_ROLE_RGB = int(mjtTextureRole.mjTEXROLE_RGB)


# formats and attachments of the offscreen renderbuffers (functions: OpenGL loads lazily)
_OFF_FORMATS = (
  (lambda: GL.GL_RGBA8, lambda: GL.GL_COLOR_ATTACHMENT0),
  (lambda: GL.GL_DEPTH32F_STENCIL8, lambda: GL.GL_DEPTH_STENCIL_ATTACHMENT),
)
_FONT_SCALES = (50, 100, 150, 200, 250, 300)  # mjtFontScale
mjNAUX = 10  # auxiliary buffers of a context


# images whose larger side is at most this many pixels use coarser builtin shapes
SMALL_IMAGE = 128


@dataclasses.dataclass
class MjrRect:
  """Rectangle in pixels, origin at the bottom left (mjrRect)."""

  left: int = 0
  bottom: int = 0
  width: int = 0
  height: int = 0


def baked_values(m):
  """The model values an MjrContext bakes in besides its assets (meshes, textures, height
  fields): the planes' grids, made from their sizes and materials and the far clipping
  distance. A context made before these changed draws the old planes; a new one is needed, as
  after a recompilation (composer resets edit the model in place: soccer resizes its ground)."""
  planes = np.asarray(m.geom_type) == mjtGeom.mjGEOM_PLANE
  return (
    np.asarray(m.geom_size)[planes].tobytes(),
    np.asarray(m.geom_matid)[planes].tobytes(),
    np.asarray(m.mat_texrepeat).tobytes(),
    float(m.stat.extent),
    float(m.vis.map.zfar),
    int(m.vis.quality.numquads),
  )


class MjrContext:
  """GPU resources of one model in the current OpenGL context (mjrContext).

  Attributes:
    offWidth, offHeight: offscreen framebuffer size (m.vis.global_.offwidth/offheight).
    offSamples: multisamples of the offscreen buffer (clamped to GL_MAX_SAMPLES).
    currentBuffer: mjFB_WINDOW or mjFB_OFFSCREEN, set by mjr_setBuffer.
    readDepthMap: mjDEPTH_ZERONEAR (default: 0 at znear, as dm_control expects) or ZEROFAR.
    ntexture: number of uploaded textures; textureType: their mjtTexture.
  """

  def __init__(self, model, font_scale=150):
    m = model
    vis = m.vis
    glob = vis.global_ if hasattr(vis, "global_") else getattr(vis, "global")
    self.fontScale = int(font_scale)
    self.lineWidth = float(glob.linewidth)
    self.offWidth = int(glob.offwidth)
    self.offHeight = int(glob.offheight)
    self.offSamples = int(vis.quality.offsamples)
    self.shadowSize = int(vis.quality.shadowsize)
    extent = float(m.stat.extent)
    self.shadowClip = extent * float(vis.map.shadowclip)
    self.shadowScale = float(vis.map.shadowscale)
    self.fogStart = np.float32(extent * float(vis.map.fogstart))
    self.fogEnd = np.float32(extent * float(vis.map.fogend))
    self.fogRGBA = np.array(vis.rgba.fog, np.float32)
    self.readDepthMap = mjDEPTH_ZERONEAR
    self.currentBuffer = mjFB_OFFSCREEN
    self.windowAvailable = False
    self.windowDoublebuffer = False
    self.ngeom = int(m.ngeom)
    # auxiliary buffers (mjr_addAux): multisampled colour FBO and its resolve FBO per index
    self.auxWidth = [0] * mjNAUX
    self.auxHeight = [0] * mjNAUX
    self.auxSamples = [0] * mjNAUX
    self.auxFBO = [0] * mjNAUX
    self.auxFBO_r = [0] * mjNAUX
    self.auxColor = [0] * mjNAUX
    self.auxColor_r = [0] * mjNAUX
    self._lists = []  # (base, range) of display lists to free
    self._textures = []
    self._framebuffers = []
    self._renderbuffers = []

    version = GL.glGetString(GL.GL_VERSION)
    if version is None:
      raise RuntimeError("MjrContext needs a current OpenGL context (engine.render.context)")
    self._clip_control = bool(GL.glClipControl) if hasattr(GL, "glClipControl") else False
    # a window framebuffer exists with GLFW, not with headless EGL/OSMesa contexts
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, 0)
    status = GL.glCheckFramebufferStatus(GL.GL_FRAMEBUFFER)
    if status == GL.GL_FRAMEBUFFER_COMPLETE:
      self.windowAvailable = True
      self.windowDoublebuffer = bool(GL.glGetBooleanv(GL.GL_DOUBLEBUFFER))
    self.maxLights = int(GL.glGetIntegerv(GL.GL_MAX_LIGHTS))
    GL.glPixelStorei(GL.GL_PACK_ALIGNMENT, 1)
    GL.glPixelStorei(GL.GL_UNPACK_ALIGNMENT, 1)
    GL.glFogi(GL.GL_FOG_MODE, GL.GL_LINEAR)
    GL.glFogf(GL.GL_FOG_START, self.fogStart)
    GL.glFogf(GL.GL_FOG_END, self.fogEnd)
    GL.glFogfv(GL.GL_FOG_COLOR, self.fogRGBA)
    GL.glFogi(GL.GL_FOG_COORD_SRC, GL.GL_FRAGMENT_DEPTH)
    GL.glHint(GL.GL_FOG_HINT, GL.GL_NICEST)

    self._make_offscreen()
    self._make_shadow()
    self._make_materials(m)
    self._make_textures(m)
    q = vis.quality
    zfar = float(vis.map.zfar) * extent
    self._make_planes(m, int(q.numquads), zfar)
    self._make_meshes(m)
    self._make_hfields(m, int(q.numquads))
    self._builtin_shape = (
      int(q.numslices),
      int(q.numstacks),
      int(q.numquads),
      float(vis.map.haze),
      np.array(vis.rgba.haze, np.float32),
    )
    self._builtin_levels = {}
    self.baseBuiltin = self.builtins(0)
    self._make_skins(m)
    self._make_font(font_scale)
    GL.glEnable(GL.GL_TEXTURE_CUBE_MAP_SEAMLESS)
    # as MuJoCo: the window when there is one, else the offscreen buffer
    mjr_setBuffer(mjFB_WINDOW, self)

  # ---- resources ----

  def _compile(self, batches):
    """Compile vertex-array batches into one new display list; returns its id."""
    base = GL.glGenLists(1)
    self._lists.append((base, 1))
    self._compile_into(base, batches)
    return base

  def _compile_into(self, list_id, batches):
    GL.glNewList(list_id, GL.GL_COMPILE)
    for b in batches:
      if len(b.vert) == 0:
        continue
      GL.glEnableClientState(GL.GL_VERTEX_ARRAY)
      GL.glEnableClientState(GL.GL_NORMAL_ARRAY)
      GL.glVertexPointer(3, GL.GL_FLOAT, 0, b.vert)
      GL.glNormalPointer(GL.GL_FLOAT, 0, b.normal)
      if b.texcoord is not None:
        GL.glEnableClientState(GL.GL_TEXTURE_COORD_ARRAY)
        GL.glTexCoordPointer(2, GL.GL_FLOAT, 0, b.texcoord)
      if b.color is not None:
        GL.glEnableClientState(GL.GL_COLOR_ARRAY)
        GL.glColorPointer(4, GL.GL_FLOAT, 0, b.color)
      mode = GL.GL_QUADS if b.mode == "quads" else GL.GL_TRIANGLES
      GL.glDrawArrays(mode, 0, len(b.vert))
      GL.glDisableClientState(GL.GL_VERTEX_ARRAY)
      GL.glDisableClientState(GL.GL_NORMAL_ARRAY)
      GL.glDisableClientState(GL.GL_TEXTURE_COORD_ARRAY)
      GL.glDisableClientState(GL.GL_COLOR_ARRAY)
    GL.glEndList()

  def _make_offscreen(self):
    """Offscreen FBO (multisampled when offsamples > 0) plus its resolve FBO (makeOff)."""
    w, h = self.offWidth, self.offHeight
    self.offSamples = min(self.offSamples, int(GL.glGetIntegerv(GL.GL_MAX_SAMPLES)))
    self.offFBO = self._framebuffer()
    self._off_buffers = self._color_depth(w, h, self.offSamples)
    _check_fbo("offscreen")
    self.offFBO_r = 0
    self._off_buffers_r = ()
    if self.offSamples:
      self.offFBO_r = self._framebuffer()
      self._off_buffers_r = self._color_depth(w, h, 0)
      _check_fbo("offscreen resolve")

  def _framebuffer(self):
    fbo = int(GL.glGenFramebuffers(1))
    self._framebuffers.append(fbo)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, fbo)
    return fbo

  def _color_depth(self, w, h, samples):
    """Colour and depth-stencil renderbuffers of the bound framebuffer; returns their ids."""
    ids = []
    for fmt, attachment in _OFF_FORMATS:
      rb = int(GL.glGenRenderbuffers(1))
      self._renderbuffers.append(rb)
      ids.append(rb)
      GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb)
      _storage(fmt(), w, h, samples)
      GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, attachment(), GL.GL_RENDERBUFFER, rb)
    return tuple(ids)

  def resize_offscreen(self, width, height):
    """New sizes for the offscreen buffers (mjr_resizeOffscreen); the contents are lost."""
    width, height = int(width), int(height)
    if width < 0 or height < 0:
      raise ValueError(f"offscreen size must not be negative, got {width} x {height}")
    if (width, height) == (self.offWidth, self.offHeight):
      return
    self.offWidth, self.offHeight = width, height
    if not width or not height:
      return  # as MuJoCo: the buffers keep their old storage until a real size comes
    _check_renderbuffer_size(width, height, "offscreen")
    for ids, samples in ((self._off_buffers, self.offSamples), (self._off_buffers_r, 0)):
      for rb, (fmt, _) in zip(ids, _OFF_FORMATS):
        GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb)
        _storage(fmt(), width, height, samples)

  def _make_shadow(self):
    """Depth texture and FBO for shadow maps (makeShadow)."""
    self.shadowFBO = 0
    self.shadowTex = 0
    if not self.shadowSize:
      return
    self.shadowFBO = self._framebuffer()
    self.shadowTex = int(GL.glGenTextures(1))
    self._textures.append(self.shadowTex)
    GL.glActiveTexture(GL.GL_TEXTURE1)
    GL.glEnable(GL.GL_TEXTURE_2D)
    GL.glBindTexture(GL.GL_TEXTURE_2D, self.shadowTex)
    # raw entry point: PyOpenGL's wrapper has no array type for GL_UNSIGNED_INT_24_8
    _raw_gl.glTexImage2D(
      GL.GL_TEXTURE_2D,
      0,
      GL.GL_DEPTH24_STENCIL8,
      self.shadowSize,
      self.shadowSize,
      0,
      GL.GL_DEPTH_STENCIL,
      GL.GL_UNSIGNED_INT_24_8,
      None,
    )
    for name, value in (
      (GL.GL_TEXTURE_MIN_FILTER, GL.GL_NEAREST),
      (GL.GL_TEXTURE_MAG_FILTER, GL.GL_NEAREST),
      (GL.GL_TEXTURE_WRAP_S, GL.GL_CLAMP_TO_EDGE),
      (GL.GL_TEXTURE_WRAP_T, GL.GL_CLAMP_TO_EDGE),
      (GL.GL_TEXTURE_COMPARE_MODE, GL.GL_COMPARE_R_TO_TEXTURE),
      (GL.GL_TEXTURE_COMPARE_FUNC, GL.GL_GEQUAL),
      (GL.GL_DEPTH_TEXTURE_MODE, GL.GL_INTENSITY),
    ):
      GL.glTexParameteri(GL.GL_TEXTURE_2D, name, value)
    for coord in (GL.GL_S, GL.GL_T, GL.GL_R, GL.GL_Q):
      GL.glTexGeni(coord, GL.GL_TEXTURE_GEN_MODE, GL.GL_EYE_LINEAR)
    GL.glFramebufferTexture2D(
      GL.GL_FRAMEBUFFER, GL.GL_DEPTH_ATTACHMENT, GL.GL_TEXTURE_2D, self.shadowTex, 0
    )
    GL.glDrawBuffer(GL.GL_NONE)
    GL.glReadBuffer(GL.GL_NONE)
    _check_fbo("shadow")
    GL.glDisable(GL.GL_TEXTURE_2D)
    GL.glActiveTexture(GL.GL_TEXTURE0)

  def _make_materials(self, m):
    """Texture ids, repeat and uniform flags of materials with an RGB texture (makeMaterial)."""
    nmat = int(m.nmat)
    self.mat_texid = -np.ones((nmat + 1, _NTEXROLE), np.int32)
    self.mat_texrepeat = np.zeros((nmat + 1, 2), np.float32)
    self.mat_texuniform = np.zeros(nmat + 1, np.int32)
    texid = np.asarray(m.mat_texid, np.int32).reshape(nmat, -1) if nmat else None
    for i in range(nmat):
      if texid[i, _ROLE_RGB] >= 0:
        self.mat_texid[i] = texid[i]
        self.mat_texuniform[i] = int(np.asarray(m.mat_texuniform).reshape(-1)[i])
        self.mat_texrepeat[i] = np.asarray(m.mat_texrepeat, np.float32).reshape(-1, 2)[i]
    # the last row holds the skybox: the first skybox texture
    self.skybox_matid = nmat
    for i in range(int(m.ntex)):
      if int(m.tex_type[i]) == mjtTexture.mjTEXTURE_SKYBOX:
        self.mat_texid[nmat, _ROLE_RGB] = i
        break

  def _make_textures(self, m):
    """Upload every texture: 2D with mipmaps, cube and skybox as cube maps (mjr_uploadTexture)."""
    self.ntexture = int(m.ntex)
    self.texture = [int(GL.glGenTextures(1)) for _ in range(self.ntexture)]
    self._textures.extend(self.texture)
    self.textureType = [int(m.tex_type[i]) for i in range(self.ntexture)]
    for i in range(self.ntexture):
      self.upload_texture(m, i)

  def upload_texture(self, m, i):
    """(Re)upload texture i from m.tex_data into its GL texture (mjr_uploadTexture)."""
    i = int(i)
    if not 0 <= i < self.ntexture:
      raise FatalError(f"Invalid texture index {i}")
    data = np.asarray(m.tex_data, np.uint8).reshape(-1)
    w, h = int(m.tex_width[i]), int(m.tex_height[i])
    nc = int(m.tex_nchannel[i])
    adr = int(m.tex_adr[i])
    srgb = (
      hasattr(m, "tex_colorspace") and int(m.tex_colorspace[i]) == mjtColorSpace.mjCOLORSPACE_SRGB
    )
    GL.glActiveTexture(GL.GL_TEXTURE0)
    if self.textureType[i] == mjtTexture.mjTEXTURE_2D:
      if nc not in (3, 4):
        raise ValueError(f"texture {i}: {nc} channels not supported (3 or 4)")
      fmt = GL.GL_RGB if nc == 3 else GL.GL_RGBA
      internal = (GL.GL_SRGB8 if nc == 3 else GL.GL_SRGB8_ALPHA8) if srgb else fmt
      GL.glBindTexture(GL.GL_TEXTURE_2D, self.texture[i])
      GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_WRAP_S, GL.GL_REPEAT)
      GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_WRAP_T, GL.GL_REPEAT)
      GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, GL.GL_LINEAR)
      GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, GL.GL_LINEAR_MIPMAP_LINEAR)
      pixels = _texture_bytes(data, adr, w * h * nc, i)
      GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, internal, w, h, 0, fmt, GL.GL_UNSIGNED_BYTE, pixels)
      GL.glGenerateMipmap(GL.GL_TEXTURE_2D)
    else:
      GL.glBindTexture(GL.GL_TEXTURE_CUBE_MAP, self.texture[i])
      for name in (GL.GL_TEXTURE_WRAP_S, GL.GL_TEXTURE_WRAP_T, GL.GL_TEXTURE_WRAP_R):
        GL.glTexParameteri(GL.GL_TEXTURE_CUBE_MAP, name, GL.GL_CLAMP_TO_EDGE)
      GL.glTexParameteri(GL.GL_TEXTURE_CUBE_MAP, GL.GL_TEXTURE_MAG_FILTER, GL.GL_LINEAR)
      GL.glTexParameteri(
        GL.GL_TEXTURE_CUBE_MAP, GL.GL_TEXTURE_MIN_FILTER, GL.GL_LINEAR_MIPMAP_LINEAR
      )
      face_size = 3 * w * w
      for k in range(6):
        start = adr if w == h else adr + k * face_size
        pixels = _texture_bytes(data, start, face_size, i)
        GL.glTexImage2D(
          GL.GL_TEXTURE_CUBE_MAP_POSITIVE_X + k,
          0,
          GL.GL_RGB,
          w,
          w,
          0,
          GL.GL_RGB,
          GL.GL_UNSIGNED_BYTE,
          pixels,
        )
      GL.glGenerateMipmap(GL.GL_TEXTURE_CUBE_MAP)

  def _make_planes(self, m, numquads, zfar):
    """List 0: unit plane for scene planes without data; then per model plane its grid in
    tiles (planeTiles: list ids and tile corners, for culling) and its outline (planeOutline)."""
    self.basePlane = self._compile(gl_mesh.unit_plane(numquads))
    self.planeTiles = {}
    self.planeOutline = {}
    matids = np.asarray(m.geom_matid).reshape(-1)
    texrepeat = np.asarray(m.mat_texrepeat, np.float64).reshape(-1, 2)
    sizes = np.asarray(m.geom_size, np.float64).reshape(-1, 3)
    nplane = 0
    for i in range(int(m.ngeom)):
      if int(m.geom_type[i]) == mjtGeom.mjGEOM_PLANE:
        matid = int(matids[i])
        rep = texrepeat[matid] if matid >= 0 else (0.0, 0.0)
        gx, gy = gl_mesh.plane_grid_lines(sizes[i], matid, rep, zfar)
        gu, gv = gl_mesh.plane_texcoord_lines(sizes[i], gx, gy)
        tiles = gl_mesh.plane_tiles(gx, gy, gu, gv)
        base = GL.glGenLists(len(tiles))
        self._lists.append((base, len(tiles)))
        for k, (batches, _) in enumerate(tiles):
          self._compile_into(base + k, batches)
        self.planeTiles[nplane] = (
          base + np.arange(len(tiles), dtype=np.uint32),
          np.stack([corners for _, corners in tiles]),
        )
        self.planeOutline[nplane] = self._compile(gl_mesh.plane_outline(gx, gy, gu, gv))
        nplane += 1

  def _make_meshes(self, m):
    """Two display lists per mesh, as MuJoCo: the mesh and its convex hull (empty without)."""
    self.nmesh = int(m.nmesh)
    self.meshList, self.hullList = [], []
    if self.nmesh:
      base = GL.glGenLists(2 * self.nmesh)
      self._lists.append((base, 2 * self.nmesh))
      self.meshList = [base + 2 * i for i in range(self.nmesh)]
      self.hullList = [base + 2 * i + 1 for i in range(self.nmesh)]
    for i in range(self.nmesh):
      self.upload_mesh(m, i)

  def upload_mesh(self, m, i):
    """(Re)compile mesh i and its convex hull from m.mesh_vert & co (mjr_uploadMesh)."""
    i = int(i)
    if not 0 <= i < self.nmesh:
      raise FatalError(f"Invalid mesh index {i}")
    self._compile_into(self.meshList[i], gl_mesh.mesh(m, i))
    hull = gl_mesh.convex_hull(m, i)
    hull_id = self.meshList[i] + 1
    self._compile_into(hull_id, hull if hull is not None else ())
    self.hullList[i] = hull_id if hull is not None else None  # None: the renderer draws the mesh

  def _make_hfields(self, m, numquads):
    self._numquads = numquads
    self.hfieldList = [self._compile(gl_mesh.hfield(m, i, numquads)) for i in range(int(m.nhfield))]
    # the elevations drawn, to notice edits of m.hfield_data (see refresh_hfields)
    self._hfield_drawn = np.array(m.hfield_data, copy=True)

  def add_aux(self, index, width, height, samples):
    """(Re)make auxiliary buffer `index` (mjr_addAux): none when a size is below 1."""
    index = _aux_index(index)
    for ids, delete in (
      ((self.auxColor, self.auxColor_r), GL.glDeleteRenderbuffers),
      ((self.auxFBO, self.auxFBO_r), GL.glDeleteFramebuffers),
    ):
      owned = self._renderbuffers if delete is GL.glDeleteRenderbuffers else self._framebuffers
      for table in ids:
        if table[index]:
          delete(1, [table[index]])
          owned.remove(table[index])
          table[index] = 0
    width, height, samples = int(width), int(height), int(samples)
    if width < 1 or height < 1:
      return
    _check_renderbuffer_size(width, height, "auxiliary")
    samples = max(0, min(samples, int(GL.glGetIntegerv(GL.GL_MAX_SAMPLES))))
    self.auxWidth[index], self.auxHeight[index], self.auxSamples[index] = width, height, samples
    for fbos, colors, n, what in (
      (self.auxFBO, self.auxColor, samples, "auxiliary"),
      (self.auxFBO_r, self.auxColor_r, 0, "auxiliary resolve"),
    ):
      fbos[index] = self._framebuffer()
      rb = int(GL.glGenRenderbuffers(1))
      self._renderbuffers.append(rb)
      colors[index] = rb
      GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb)
      # MuJoCo asks for multisample storage even with 0 samples (then an ordinary buffer)
      GL.glRenderbufferStorageMultisample(GL.GL_RENDERBUFFER, n, GL.GL_RGBA8, width, height)
      GL.glFramebufferRenderbuffer(
        GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, rb
      )
      _check_fbo(what)
    mjr_restoreBuffer(self)

  @property
  def ptr(self):
    """This context (dm_control code passes `contexts.mujoco.ptr` to mjr_* functions)."""
    return self

  def upload_hfield(self, m, hfieldid):
    """Redraws height field hfieldid from m.hfield_data (mjr_uploadHField); current context."""
    self._compile_into(self.hfieldList[hfieldid], gl_mesh.hfield(m, hfieldid, self._numquads))
    adr, n = int(m.hfield_adr[hfieldid]), int(m.hfield_nrow[hfieldid] * m.hfield_ncol[hfieldid])
    self._hfield_drawn[adr : adr + n] = m.hfield_data[adr : adr + n]

  def refresh_hfields(self, m):
    """Uploads the height fields whose m.hfield_data changed since they were drawn (tasks such
    as the quadruped's escape make new terrain each episode; MuJoCo needs mjr_uploadHField)."""
    data = m.hfield_data
    if np.array_equal(data, self._hfield_drawn):
      return
    for i in range(int(m.nhfield)):
      adr, n = int(m.hfield_adr[i]), int(m.hfield_nrow[i] * m.hfield_ncol[i])
      if not np.array_equal(data[adr : adr + n], self._hfield_drawn[adr : adr + n]):
        self.upload_hfield(m, i)

  def builtins(self, level):
    """First display list of the builtin shapes at a level of detail: 0 MuJoCo's tessellation
    (m.vis.quality), 1 half its slices and stacks, 2 a quarter (and boxes with fewer quads),
    for shapes that span few pixels, where vertex work would be most of the frame time."""
    base = self._builtin_levels.get(level)
    if base is None:
      nslice, nstack, numquads, haze, haze_rgba = self._builtin_shape
      if level:
        nslice, nstack = max(8, nslice // (2 * level)), max(4, nstack // (2 * level))
        numquads = max(1, numquads // (4 ** (level - 1)))
      base = self._make_builtins(nslice, nstack, numquads, haze, haze_rgba)
      self._builtin_levels[level] = base
    return base

  def use_builtins_for(self, viewport):
    """Selects the builtin shapes of the skybox and decorations drawn without a scene geom:
    MuJoCo's, or half as detailed when the image's larger side is at most SMALL_IMAGE pixels."""
    small = max(int(viewport.width), int(viewport.height)) <= SMALL_IMAGE
    self.baseBuiltin = self.builtins(1 if small else 0)

  def _make_builtins(self, nslice, nstack, numquads, haze, haze_rgba) -> int:
    """Display lists of the builtin shapes; returns the first list id."""
    base = GL.glGenLists(_NBUILTIN)
    self._lists.append((base, _NBUILTIN))
    shapes = {
      SPHERE: gl_mesh.sphere(nslice, nstack),
      SPHERETOP: gl_mesh.half_sphere(1, nslice, nstack // 2),
      SPHEREBOTTOM: gl_mesh.half_sphere(-1, nslice, nstack // 2),
      CYLINDER: gl_mesh.closed_cylinder(nslice, nstack),
      CYLINDEROPEN: gl_mesh.cylinder(nslice, nstack),
      HAZE: gl_mesh.haze(nslice, haze, haze_rgba),
      BOX: gl_mesh.box(numquads),
      CONE: gl_mesh.cone_with_base(nslice, nstack),
    }
    for k, batches in shapes.items():
      self._compile_into(base + k, batches)
    return base

  def _make_skins(self, m):
    """Static skin data: faces and texture coordinates; positions come with each scene."""
    self.nskin = int(getattr(m, "nskin", 0))
    self.skin_faces = []
    self.skin_vertnum = []
    self.skin_texcoord = []
    for i in range(self.nskin):
      fadr, fnum = int(m.skin_faceadr[i]), int(m.skin_facenum[i])
      faces = np.ascontiguousarray(
        np.asarray(m.skin_face, np.uint32).reshape(-1, 3)[fadr : fadr + fnum]
      )
      # OpenGL indexes the scene's vertex array with these: out-of-range ids would read past it
      if faces.size and int(faces.max()) >= int(m.skin_vertnum[i]):
        raise ValueError(
          f"skin {i}: face vertex id {int(faces.max())} >= vertnum {int(m.skin_vertnum[i])}"
        )
      self.skin_faces.append(faces)
      self.skin_vertnum.append(int(m.skin_vertnum[i]))
      tadr = int(m.skin_texcoordadr[i])
      if tadr >= 0:
        vnum = int(m.skin_vertnum[i])
        self.skin_texcoord.append(
          np.ascontiguousarray(
            np.asarray(m.skin_texcoord, np.float32).reshape(-1, 2)[tadr : tadr + vnum]
          )
        )
      else:
        self.skin_texcoord.append(None)

  def _make_font(self, font_scale):
    """Bitmap fonts as display lists of glBitmap glyphs (makeFont): normal, shadow, big.

    MuJoCo ships its own bitmaps; we rasterize Pillow's bundled font at a pixel size that
    grows with fontscale (rounded to 50, clamped to [100, 300] as MuJoCo does). 0.14 * scale
    pixels gives MuJoCo's line heights (charHeight 18 at scale 100 ... 54 at 300, the big
    font twice that) to within two pixels, so overlays take the same room on screen.
    """
    scale = min(300, max(100, 50 * int(round(font_scale / 50.0))))
    self.fontScale = scale
    first = len(self._lists)
    px = int(round(0.14 * scale))
    glyphs = gl_text.make_glyphs
    self.charWidth, self.charHeight, self.baseFontNormal = glyphs(self, px, dilate=False)
    _, _, self.baseFontShadow = glyphs(self, px, dilate=True, widths=self.charWidth)
    self.charWidthBig, self.charHeightBig, self.baseFontBig = glyphs(self, 2 * px, dilate=False)
    self._font_lists = self._lists[first:]

  def change_font(self, font_scale):
    """Replace the fonts by those of another mjtFontScale (mjr_changeFont)."""
    if int(font_scale) not in _FONT_SCALES:
      raise FatalError("Invalid fontscale")
    for entry in self._font_lists:
      GL.glDeleteLists(*entry)
      self._lists.remove(entry)
    self._make_font(int(font_scale))

  def free(self):
    """Release the GPU resources (the OpenGL context must be current)."""
    for base, count in self._lists:
      GL.glDeleteLists(base, count)
    if self._textures:
      GL.glDeleteTextures(self._textures)
    if self._renderbuffers:
      GL.glDeleteRenderbuffers(len(self._renderbuffers), self._renderbuffers)
    if self._framebuffers:
      GL.glDeleteFramebuffers(len(self._framebuffers), self._framebuffers)
    self._lists, self._textures, self._renderbuffers, self._framebuffers = [], [], [], []


def _texture_bytes(data, start, count, texid):
  """count bytes of tex_data from start; OpenGL reads exactly that many, so check they exist."""
  pixels = np.ascontiguousarray(data[start : start + count])
  if start < 0 or pixels.size != count:
    raise ValueError(
      f"texture {texid}: tex_data holds {pixels.size} bytes at address {start}, {count} needed"
    )
  return pixels


def _storage(fmt, w, h, samples):
  """Storage of the bound renderbuffer, multisampled when samples > 0."""
  if samples:
    GL.glRenderbufferStorageMultisample(GL.GL_RENDERBUFFER, samples, fmt, w, h)
  else:
    GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, fmt, w, h)


def _check_renderbuffer_size(width, height, what):
  limit = int(GL.glGetIntegerv(GL.GL_MAX_RENDERBUFFER_SIZE))
  if width > limit or height > limit:
    raise ValueError(f"{what} buffer {width} x {height} exceeds GL_MAX_RENDERBUFFER_SIZE {limit}")


def _check_fbo(what):
  status = GL.glCheckFramebufferStatus(GL.GL_FRAMEBUFFER)
  if status != GL.GL_FRAMEBUFFER_COMPLETE:
    raise RuntimeError(f"{what} framebuffer is not complete (status 0x{int(status):x})")


# ---- framebuffers and pixels ----


def mjr_setBuffer(framebuffer, con):
  """Bind the window or the offscreen buffer for rendering (mjr_setBuffer); when only one
  exists, that one whatever was asked."""
  if con.windowAvailable and (framebuffer == mjFB_WINDOW or not con.offFBO):
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, 0)
    buffer = GL.GL_BACK if con.windowDoublebuffer else GL.GL_FRONT
    GL.glReadBuffer(buffer)
    GL.glDrawBuffer(buffer)
    con.currentBuffer = mjFB_WINDOW
  else:
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, con.offFBO)
    GL.glReadBuffer(GL.GL_COLOR_ATTACHMENT0)
    GL.glDrawBuffer(GL.GL_COLOR_ATTACHMENT0)
    con.currentBuffer = mjFB_OFFSCREEN


def mjr_restoreBuffer(con):
  """Make con.currentBuffer current again."""
  mjr_setBuffer(con.currentBuffer, con)


def _aux_index(index):
  index = int(index)
  if not 0 <= index < mjNAUX:
    raise FatalError("Invalid aux buffer index")
  return index


def _rect(viewport):
  return int(viewport.left), int(viewport.bottom), int(viewport.width), int(viewport.height)


def _window_buffer(con):
  return GL.GL_BACK if con.windowDoublebuffer else GL.GL_FRONT


def mjr_setAux(index, con):
  """Render into auxiliary buffer `index` (mjr_setAux); mjr_restoreBuffer when done."""
  index = _aux_index(index)
  if not con.auxFBO[index]:
    raise FatalError(f"auxFBO {index} does not exist")
  GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, con.auxFBO[index])
  GL.glReadBuffer(GL.GL_COLOR_ATTACHMENT0)
  GL.glDrawBuffer(GL.GL_COLOR_ATTACHMENT0)


def mjr_addAux(index, width, height, samples, con):
  """Add auxiliary buffer `index` of the given size and multisamples, freeing the previous one
  (mjr_addAux)."""
  con.add_aux(index, width, height, samples)


def mjr_blitAux(index, src, left, bottom, con):
  """Copy rectangle src of auxiliary buffer `index` to (left, bottom) of con.currentBuffer,
  resolving its multisamples (mjr_blitAux); nothing when the buffer does not exist."""
  index = _aux_index(index)
  if not con.auxFBO[index]:
    return
  x, y, w, h = _rect(src)
  left, bottom = int(left), int(bottom)
  GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, con.auxFBO[index])
  GL.glReadBuffer(GL.GL_COLOR_ATTACHMENT0)
  GL.glBindFramebuffer(GL.GL_DRAW_FRAMEBUFFER, con.auxFBO_r[index])
  GL.glDrawBuffer(GL.GL_COLOR_ATTACHMENT0)
  GL.glBlitFramebuffer(
    x, y, x + w, y + h, x, y, x + w, y + h, GL.GL_COLOR_BUFFER_BIT, GL.GL_NEAREST
  )
  GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, con.auxFBO_r[index])
  GL.glReadBuffer(GL.GL_COLOR_ATTACHMENT0)
  if con.currentBuffer == mjFB_WINDOW:
    GL.glBindFramebuffer(GL.GL_DRAW_FRAMEBUFFER, 0)
    GL.glDrawBuffer(_window_buffer(con))
  else:
    GL.glBindFramebuffer(GL.GL_DRAW_FRAMEBUFFER, con.offFBO)
    GL.glDrawBuffer(GL.GL_COLOR_ATTACHMENT0)
  GL.glBlitFramebuffer(
    x, y, x + w, y + h, left, bottom, left + w, bottom + h, GL.GL_COLOR_BUFFER_BIT, GL.GL_NEAREST
  )
  mjr_restoreBuffer(con)


def mjr_blitBuffer(src, dst, flg_color, flg_depth, con):
  """Copy rectangle src of the current buffer to rectangle dst of the other one (window to
  offscreen or back), through the resolve buffer when the offscreen one is multisampled
  (mjr_blitBuffer). Colour is interpolated linearly when the sizes differ and depth is not
  copied. Nothing happens unless both a window and an offscreen buffer exist."""
  mask = (GL.GL_COLOR_BUFFER_BIT if flg_color else 0) | (GL.GL_DEPTH_BUFFER_BIT if flg_depth else 0)
  sx, sy, sw, sh = _rect(src)
  dx, dy, dw, dh = _rect(dst)
  linear = not flg_depth and (sw != dw or sh != dh)
  filt = GL.GL_LINEAR if linear else GL.GL_NEAREST
  if not con.windowAvailable or not con.offFBO or not mask:
    return
  s_box = (sx, sy, sx + sw, sy + sh)
  d_box = (dx, dy, dx + dw, dy + dh)

  def blit(read_fbo, read_buf, draw_fbo, draw_buf, frm, to):
    GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, read_fbo)
    GL.glReadBuffer(read_buf)
    GL.glBindFramebuffer(GL.GL_DRAW_FRAMEBUFFER, draw_fbo)
    GL.glDrawBuffer(draw_buf)
    GL.glBlitFramebuffer(*frm, *to, mask, filt)

  color0, window = GL.GL_COLOR_ATTACHMENT0, _window_buffer(con)
  if con.currentBuffer == mjFB_WINDOW:
    if con.offSamples:
      blit(0, window, con.offFBO_r, color0, s_box, d_box)
      blit(con.offFBO_r, color0, con.offFBO, color0, d_box, d_box)
    else:
      blit(0, window, con.offFBO, color0, s_box, d_box)
  else:
    if con.offSamples:
      blit(con.offFBO, color0, con.offFBO_r, color0, s_box, s_box)
      blit(con.offFBO_r, color0, 0, window, s_box, d_box)
    else:
      blit(con.offFBO, color0, 0, window, s_box, d_box)
  mjr_restoreBuffer(con)


def mjr_drawPixels(rgb, depth, viewport, con):
  """Write RGB (uint8, 3 per pixel) and/or depth (float32 in [0, 1]) pixels, bottom row first,
  into the viewport of the current framebuffer (mjr_drawPixels). Arrays of any shape with at
  least width x height pixels; depth is written as given (the depth buffer's convention)."""
  del con
  x, y, w, h = _rect(viewport)
  rgb = _pixels(rgb, np.uint8, 3 * w * h, "rgb")
  depth = _pixels(depth, np.float32, w * h, "depth")
  if w <= 0 or h <= 0:
    return
  GL.glWindowPos2i(x, y)
  if rgb is not None:
    GL.glDrawPixels(w, h, GL.GL_RGB, GL.GL_UNSIGNED_BYTE, rgb)
  if depth is not None:
    GL.glDrawPixels(w, h, GL.GL_DEPTH_COMPONENT, GL.GL_FLOAT, depth)


def _pixels(array, dtype, size, name):
  """array as a C-contiguous `dtype` array of at least `size` elements (None stays None)."""
  if array is None:
    return None
  if isinstance(array, np.ndarray) and array.dtype != dtype:
    raise TypeError(f"{name} must be a {np.dtype(dtype).name} array, got {array.dtype}")
  try:
    array = np.ascontiguousarray(array, dtype)
  except (TypeError, ValueError) as e:
    raise TypeError(f"{name} must be a {np.dtype(dtype).name} array: {e}") from None
  if array.size < size:
    raise ValueError(f"{name} holds {array.size} values, the viewport needs {size}")
  return array


def mjr_maxViewport(con):
  """The largest viewport of the current buffer (mjr_maxViewport): the offscreen buffer's
  size, or the window's scissor box."""
  if con.currentBuffer == mjFB_WINDOW:
    box = GL.glGetIntegerv(GL.GL_SCISSOR_BOX)
    return MjrRect(0, 0, int(box[2]), int(box[3]))
  return MjrRect(0, 0, con.offWidth, con.offHeight)


def mjr_findRect(x, y, nrect, rect):
  """Index of the first of the nrect rectangles containing pixel (x, y), or -1 (mjr_findRect).
  `rect` is one MjrRect (as the bindings take) or a sequence of them."""
  rects = [rect] if hasattr(rect, "left") else list(rect)
  nrect = int(nrect)
  if nrect > len(rects):
    raise ValueError(f"nrect is {nrect} but {len(rects)} rectangle(s) were given")
  x, y = int(x), int(y)
  for i in range(nrect):
    left, bottom, width, height = _rect(rects[i])
    if left <= x < left + width and bottom <= y < bottom + height:
      return i
  return -1


def mjr_changeFont(fontscale, con):
  """Replace the context's fonts by those of another mjtFontScale (mjr_changeFont)."""
  con.change_font(fontscale)


def mjr_resizeOffscreen(width, height, con):
  """Resize the offscreen buffers (mjr_resizeOffscreen); their contents are lost."""
  con.resize_offscreen(width, height)


def mjr_uploadMesh(m, con, meshid):
  """Upload mesh meshid anew after m.mesh_vert & co changed (mjr_uploadMesh)."""
  con.upload_mesh(m, meshid)


def mjr_uploadTexture(m, con, texid):
  """Upload texture texid anew after m.tex_data changed (mjr_uploadTexture)."""
  con.upload_texture(m, texid)


def mjr_finish():
  """Wait until OpenGL has finished drawing (glFinish)."""
  GL.glFinish()


def mjr_getError():
  """The oldest OpenGL error flag, cleared by reading it (glGetError; 0: none)."""
  return int(_raw_gl.glGetError())
