"""Assets: meshes, height fields, textures and materials.

Ports of mjCHField / mjCMaterial (user_objects.cc) and the asset parts of CopyObjects
(user_model.cc). Mesh files and processing (STL/OBJ decoding, convex hull, inertia) live in
mesh.py and texture/height-field file decoding in assets.py (written alongside); this module
wires them to the model.
"""

import collections
import hashlib
import posixpath

import numpy as np

from engine.compiler import assets as afile
from engine.compiler import build_math as bm
from engine.compiler import build_tree as bt
from engine.compiler import mesh as meshlib
from engine.compiler import schema
from engine.compiler.build_common import arr as _arr
from engine.enums import mjCOLORSPACE_AUTO
from engine.enums import mjCOLORSPACE_LINEAR
from engine.enums import mjCOLORSPACE_SRGB
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_SDF
from engine.enums import mjTEXTURE_2D

_TEXROLE = schema.KEYWORDS["texrole"]
_MESH_INERTIA = {v: k for k, v in schema.KEYWORDS["meshinertia"].items()}
_MARK = {v: k for k, v in schema.KEYWORDS["mark"].items()}
_BUILTIN = {v: k for k, v in schema.KEYWORDS["builtin"].items()}
_CUBEFILES = ("fileright", "fileleft", "fileup", "filedown", "filefront", "fileback")


def _typed_name(node, name, content_type):
  """File name whose extension matches content_type (decoders dispatch on the extension).

  Without content_type, a data URI's media type ("data:model/obj;base64,...") sets it.
  """
  if not content_type:
    return afile.decoder_name(name)
  ctype = content_type.split(";")[0].strip()
  if ctype not in afile.CONTENT_TYPE_EXTENSIONS:
    raise node.error(f"unsupported content type: '{content_type}'", "content_type")
  return name + afile.CONTENT_TYPE_EXTENSIONS[ctype]


def _strip(path):
  """File name without directories and extension (MuJoCo's default asset name)."""
  base = path.replace("\\", "/").split("/")[-1]
  return base.rsplit(".", 1)[0] if "." in base else base


# Compiled mesh files, as MuJoCo caches them within a process: loading the same robot again (one
# model per environment of a vectorized task) skips decoding, the hull and the polygons. Keyed
# on the file's bytes (for a mesh an SDF plugin makes: the plugin and its configuration) and
# every attribute that changes the compiled mesh; entries are copied in and out, so a model
# never shares arrays with the cache.
_MESH_CACHE = collections.OrderedDict()
_MESH_CACHE_SIZE = 64
_MESH_KEY_ATTRS = ("scale", "inertia", "refpos", "refquat", "maxhullvert", "smoothnormal")


def _mesh_key(spec, data, name, needhull, discardvisual):
  attrs = tuple(
    tuple(np.ravel(spec.get(a)).tolist()) if np.ndim(spec.get(a)) else spec.get(a)
    for a in _MESH_KEY_ATTRS
  )
  return (hashlib.sha1(bytes(data)).hexdigest(), name, attrs, bool(needhull), bool(discardvisual))


class Assets:
  """Meshes, height fields, textures and materials of a model."""

  def __init__(self, ctx, root):
    self.ctx = ctx
    self.meshes, self.hfields, self.textures, self.materials = [], [], [], []
    for sec in root.children:
      if sec.tag != "asset":
        continue
      for n in sec.children:
        if n.tag == "mesh":
          o = bt.Obj(n, ctx.defaults.spec(n, "mesh"))
          self.meshes.append(o)
        elif n.tag == "hfield":
          o = bt.Obj(n, dict(n.attrs))
          self.hfields.append(o)
        elif n.tag == "texture":
          o = bt.Obj(n, ctx.defaults.spec(n, "texture"))
          self.textures.append(o)
        elif n.tag == "material":
          o = bt.Obj(n, ctx.defaults.spec(n, "material"))
          self.materials.append(o)
        else:
          continue
        if not o.name and n.attrs.get("file"):
          o.name = _strip(n.attrs["file"])
    if ctx.discardvisual:
      self.textures, self.materials = [], []
    for kind, objs in (
      ("mesh", self.meshes),
      ("height field", self.hfields),
      ("material", self.materials),
    ):
      for o in objs:
        if not o.name:
          raise o.error(f"empty name in {kind}", "name")
    for t in self.textures:
      if not t.name and t.spec["type"] != 2:
        raise t.error("empty name in texture", "name")
    self.store = afile.AssetStore(ctx.asset_files, ctx.model_dir or "")

  def lists(self):
    return {
      "mesh": self.meshes,
      "hfield": self.hfields,
      "texture": self.textures,
      "material": self.materials,
    }

  # ---- references from geoms and sites

  def lookup_mesh(self, g):
    return self.ctx.lookup("mesh", g.spec["mesh"], g.node, "mesh")

  def lookup_hfield(self, g):
    h = self.ctx.lookup("hfield", g.spec["hfield"], g.node, "hfield")
    self._compile_hfield(h)
    return h

  def matid(self, obj):
    name = obj.spec.get("material")
    if not name or self.ctx.discardvisual:
      return -1
    return self.ctx.lookup("material", name, obj.node, "material").id

  def mesh_geom_frame(self, g, gtype, pos, quat, size):
    """Port of the mesh part of mjCGeom::Compile: fit a primitive, or use the mesh frame."""
    info = g.mesh.info
    if gtype not in (mjGEOM_MESH, mjGEOM_SDF):
      try:
        size = [
          float(v)
          for v in meshlib.fit_primitive(info, gtype, g.spec["fitscale"], bool(self.ctx.fitaabb))
        ]
        meshpos = [float(v) for v in meshlib.fit_offset(info, bool(self.ctx.fitaabb))]
      except ValueError as e:
        raise g.error(str(e), "mesh") from None
      g.mesh = None
    else:
      if g.spec["shellinertia"]:
        raise g.error(
          "for mesh geoms, inertia should be specified in the mesh asset", "shellinertia"
        )
      meshpos = [float(v) for v in info.pos]
      size = [float(v) for v in meshlib.mesh_geom_size(info)]
      g.meshinfo = info
    pos, quat = bm.frameaccum(pos, quat, meshpos, [float(v) for v in info.quat])
    return pos, quat, size

  def mesh_size(self, mesh):
    return meshlib.mesh_geom_size(mesh.info)

  def mesh_inertia(self, g, s):
    """Mass, diagonal inertia and density of a mesh geom (mjCGeom::Compile + SetInertia)."""
    info = g.meshinfo
    vol = info.volume_ref
    density = s["density"]
    if s["mass"] is not None:
      if s["mass"] == 0:
        return 0.0, [0.0, 0.0, 0.0], 0.0
      if vol > bm.mjEPS:
        mass, inertia = meshlib.mesh_geom_inertia(info, mass=s["mass"])
        return mass, [float(v) for v in inertia], s["mass"] / vol
      return 0.0, [0.0, 0.0, 0.0], density
    if density == 0:
      return 0.0, [0.0, 0.0, 0.0], density
    mass, inertia = meshlib.mesh_geom_inertia(info, density=density)
    return mass, [float(v) for v in inertia], density

  # ---- compilation

  def _read_file(self, node, name, subdir, attr="file"):
    """Bytes of an asset file: the assets dict first, then disk relative to the model dir.

    An element from an included file in another folder falls back, as in MuJoCo, to that
    folder (without the asset dir).
    """
    if self.ctx.strippath and not afile.find_resource_provider(name):
      name = name.replace("\\", "/").split("/")[-1]
    try:
      return self.store.read(name, subdir)
    except FileNotFoundError as e:
      folder = posixpath.dirname((node.file or "").replace("\\", "/"))
      if folder and not afile.is_absolute(name):
        try:
          return self.store.read(afile.combine_path(folder, name))
        except OSError:
          pass
      raise node.error(str(e), attr, cls=afile.MissingFileError) from None
    except afile.ResourceError as e:
      raise node.error(str(e), attr, cls=afile.ResourceCompileError) from e

  def read_file(self, node, name, subdir):
    """Bytes of an asset file of another build module (skins), found as meshes are."""
    return self._read_file(node, name, subdir)

  def _path(self, name, subdir):
    """Resource path MuJoCo records for a file: model dir + asset dir + name, normalized."""
    if afile.find_resource_provider(name):
      return name  # a resource name (a data URI, say) as written
    if self.ctx.strippath:
      return name.replace("\\", "/").split("/")[-1]
    path = afile.combine_path(subdir, name) if subdir else name
    if self.ctx.model_dir:
      path = afile.combine_path(self.ctx.model_dir, path)
    return posixpath.normpath(path)

  def discard_meshes(self, geoms):
    """Drops meshes no geom uses (compiler discardvisual)."""
    used = {id(g.mesh) for g in geoms if g.mesh is not None}
    self.meshes = [m for m in self.meshes if id(m) in used]

  def prepare_meshes(self, geoms, pairs=()):
    """Compiles every mesh (mjCMesh::Compile), before the geoms that use them.

    A mesh gets a convex hull if a mesh geom that can collide uses it (contype or conaffinity
    nonzero, or named in a <pair>) or its inertia is "convex".
    """
    paired = {p.node.attrs.get(k) for p in pairs for k in ("geom1", "geom2")}
    needhull = set()
    for g in geoms:
      s = g.spec
      if (
        s.get("mesh")
        and s["type"] in (mjGEOM_MESH, mjGEOM_SDF)
        and (s["contype"] or s["conaffinity"] or (g.name and g.name in paired))
      ):
        needhull.add(s["mesh"])
    for m in self.meshes:
      self._compile_mesh(m, m.name in needhull)

  def _compile_mesh(self, m, needhull):
    s, n = m.spec, m.node
    if s.get("builtin", 0):
      raise n.error("builtin meshes are not supported yet", "builtin", cls=self.ctx.Unsupported)
    if s.get("material"):
      raise n.error("mesh materials are not supported yet", "material", cls=self.ctx.Unsupported)
    kw = {}
    inst = getattr(m, "plugin_inst", None)
    try:
      if inst is not None:
        if s.get("file") or s.get("vertex") is not None:
          raise n.error("mesh with a plugin and file or vertex data", "file")
        # the same plugin with the same configuration meshes the same field
        config = repr((id(inst.plugin), sorted(inst.config.items()))).encode()
        key = _mesh_key(s, config, inst.plugin.name, needhull, self.ctx.discardvisual)
        if key in _MESH_CACHE:
          _MESH_CACHE.move_to_end(key)
          self._set_info(m, _MESH_CACHE[key].copy())
          return
        vert, face, kw["normal"] = self._plugin_mesh(m, inst)
      elif s.get("file"):
        if s.get("vertex") is not None:
          raise n.error("mesh with file and vertex data", "vertex")
        data = self._read_file(n, s["file"], self.ctx.meshdir)
        name = _typed_name(n, s["file"], s.get("content_type"))
        key = _mesh_key(s, data, name, needhull, self.ctx.discardvisual)
        if key in _MESH_CACHE:
          _MESH_CACHE.move_to_end(key)
          self._set_info(m, _MESH_CACHE[key].copy())
          return
        md = meshlib.decode_mesh(data, name)
        vert, face = md.vert, md.face
        kw = dict(
          normal=md.normal,
          facenormal=md.facenormal,
          texcoord=md.texcoord,
          facetexcoord=md.facetexcoord,
        )
        if self.ctx.discardvisual:
          kw["texcoord"] = kw["facetexcoord"] = None
      elif s.get("vertex") is not None:
        vert, face = meshlib.mesh_from_arrays(s["vertex"], s.get("face"))
        if s.get("normal"):
          kw["normal"] = np.array(s["normal"], np.float32).reshape(-1, 3)
        if s.get("texcoord") and not self.ctx.discardvisual:
          kw["texcoord"] = np.array(s["texcoord"], np.float32).reshape(-1, 2)
      else:
        raise n.error("mesh has no file or vertex data", "file")
      inertia = _MESH_INERTIA[s["inertia"]]
      info = meshlib.process_mesh(
        vert,
        face,
        scale=s["scale"],
        inertia=inertia,
        refpos=s["refpos"],
        refquat=s["refquat"],
        maxhullvert=s["maxhullvert"],
        needhull=needhull or inertia == "convex",
        smoothnormal=bool(s["smoothnormal"]),
        keep_frame=inst is not None,
        **kw,
      )
    except ValueError as e:
      raise n.error(f"mesh '{m.name}': {e}", "file" if s.get("file") else "vertex") from None
    if s.get("file") or inst is not None:
      _MESH_CACHE[key] = info.copy()
      while len(_MESH_CACHE) > _MESH_CACHE_SIZE:
        _MESH_CACHE.popitem(last=False)
    self._set_info(m, info)

  def _plugin_mesh(self, m, inst):
    """Marching-cubes mesh of an SDF plugin instance's field (mjCMesh::LoadSDF)."""
    plugin = inst.plugin
    if plugin.sdf_aabb is None or plugin.sdf_staticdistance is None:
      raise m.error(
        f"plugin '{plugin.name}' cannot make a mesh: it registers no sdf_aabb "
        "and sdf_staticdistance",
        "plugin",
      )
    from engine.plugins import marching_cubes

    return marching_cubes.field_mesh(
      plugin.sdf_aabb(inst.config),
      lambda p: plugin.sdf_staticdistance(inst.config, p),
      f"mesh '{m.name}' (plugin '{plugin.name}')",
    )

  @staticmethod
  def _set_info(m, info):
    m.info = info
    m.aamm = [float(v) for v in info.aamm]

  def _compile_hfield(self, h):
    """Port of mjCHField::Compile (elevation from the XML or a file, scaled to [0, 1])."""
    if getattr(h, "data", None) is not None:
      return
    a, n = h.spec, h.node
    size = a["size"]
    if any(v <= 0 for v in size):
      raise n.error("size parameter is not positive in hfield", "size")
    nrow, ncol = a.get("nrow", 0), a.get("ncol", 0)
    try:
      if a.get("file"):
        if nrow or ncol or a.get("elevation"):
          raise n.error("hfield specified from file and manually", "file")
        raw = self._read_file(n, a["file"], self.ctx.meshdir)
        nrow, ncol, elev = afile.load_hfield(raw, _typed_name(n, a["file"], a.get("content_type")))
        data = afile.normalize_hfield(elev)
      else:
        data = afile.hfield_from_elevation(nrow, ncol, a.get("elevation"))
    except ValueError as e:
      raise n.error(str(e), "file" if a.get("file") else "elevation") from None
    h.nrow, h.ncol, h.size, h.data = nrow, ncol, list(size), data.astype(np.float32)

  def compile(self):
    """Compiles height fields, textures and materials (after the tree)."""
    for h in self.hfields:
      self._compile_hfield(h)
    for t in self.textures:
      self._compile_texture(t)
    for m in self.materials:
      texid = [-1] * 10
      tex = m.spec.get("texture")
      if tex:
        texid[_TEXROLE["rgb"]] = self.ctx.lookup("texture", tex, m.node, "texture").id
      for layer in m.spec.get("_layers", ()) + tuple(
        (c.attrs.get("texture"), c.attrs["role"]) for c in m.node.children
      ):
        tname, role = layer
        if role not in _TEXROLE:
          raise m.error(f"invalid texture role '{role}'", "role")
        if tname:
          texid[_TEXROLE[role]] = self.ctx.lookup("texture", tname, m.node, "texture").id
      m.texid = texid

  def _compile_texture(self, t):
    """Port of mjCTexture::Compile: builtin, single file, or six cube files."""
    s, n = t.spec, t.node
    ttype = s["type"]
    nchannel = s["nchannel"]
    t.colorspace = s["colorspace"]
    try:
      if s["builtin"]:
        w, h, data = afile.builtin_texture(
          ttype,
          _BUILTIN[s["builtin"]],
          s["rgb1"],
          s["rgb2"],
          _MARK[s["mark"]],
          s["markrgb"],
          s["random"],
          s["width"],
          s["height"],
          nchannel,
        )
      elif s.get("file"):
        raw = self._read_file(n, s["file"], self.ctx.texturedir)
        fname = _typed_name(n, s["file"], s.get("content_type"))
        w, h, nchannel, data, srgb = afile.load_texture_file(
          raw, fname, nchannel, s["hflip"], s["vflip"]
        )
        if t.colorspace == mjCOLORSPACE_AUTO:
          t.colorspace = mjCOLORSPACE_SRGB if srgb else mjCOLORSPACE_LINEAR
        if ttype != mjTEXTURE_2D:
          w, h, data = afile.cube_texture_from_grid(
            data, w, h, s["gridsize"], s.get("gridlayout") or "", s["rgb1"]
          )
      else:
        if ttype == mjTEXTURE_2D:
          raise n.error("cannot load 2D texture from separate files", "file")
        faces = []
        for attr in _CUBEFILES:
          if s.get(attr):
            raw = self._read_file(n, s[attr], self.ctx.texturedir, attr)
            fw, fh, _, fdata, _ = afile.load_texture_file(
              raw, afile.decoder_name(s[attr]), 3, s["hflip"], s["vflip"]
            )
            faces.append((fw, fh, fdata))
          else:
            faces.append(None)
        w, h, data = afile.cube_texture_from_faces(faces, s["rgb1"])
        if t.colorspace == mjCOLORSPACE_AUTO:
          t.colorspace = mjCOLORSPACE_LINEAR
    except ValueError as e:
      raise n.error(f"texture '{t.name}': {e}") from None
    t.width, t.height, t.nchannel = w, h, nchannel
    t.data = np.asarray(data, np.uint8)

  def arrays(self, sizes, arrays, skins=()):
    """Mesh, height field, texture and material arrays; `skins` add their file paths."""
    hf = self.hfields
    nh = len(hf)
    adr, total = [], 0
    for h in hf:
      adr.append(total)
      total += h.nrow * h.ncol
    sizes.update(nhfield=nh, nhfielddata=total, nmat=len(self.materials))
    _arr(arrays, "hfield_size", [h.size for h in hf], (nh, 4))
    _arr(arrays, "hfield_nrow", [h.nrow for h in hf])
    _arr(arrays, "hfield_ncol", [h.ncol for h in hf])
    _arr(arrays, "hfield_adr", adr)
    _arr(arrays, "hfield_data", np.concatenate([h.data for h in hf]) if hf else [])
    self._mesh_arrays(sizes, arrays)
    self._texture_arrays(sizes, arrays)

    # file paths (hfields, meshes, skins, textures)
    buf = bytearray()
    ctype_adr = []
    for objs, field, subdir in (
      (hf, "hfield_pathadr", self.ctx.meshdir),
      (self.meshes, "mesh_pathadr", self.ctx.meshdir),
      (skins, "skin_pathadr", self.ctx.meshdir),
      (self.textures, "tex_pathadr", self.ctx.texturedir),
    ):
      adrs = []
      for o in objs:
        f = o.spec.get("file")
        if f:
          adrs.append(len(buf))
          buf += self._path(f, subdir).encode() + b"\0"
        else:
          adrs.append(-1)
        if field == "tex_pathadr":
          ctype = o.spec.get("content_type")
          ctype_adr.append(len(buf) if ctype else -1)
          if ctype:
            buf += ctype.encode() + b"\0"
      _arr(arrays, field, adrs)
    _arr(arrays, "tex_contenttypeadr", ctype_adr)
    arrays["paths"] = bytes(buf) if buf else b"\0"
    sizes["npaths"] = max(1, len(buf))

    mats = self.materials
    nm = len(mats)
    s = [m.spec for m in mats]
    _arr(arrays, "mat_texid", [m.texid for m in mats], (nm, 10))
    _arr(arrays, "mat_texuniform", [bool(x["texuniform"]) for x in s])
    _arr(arrays, "mat_texrepeat", [x["texrepeat"] for x in s], (nm, 2))
    for name in ("emission", "specular", "shininess", "reflectance", "metallic", "roughness"):
      _arr(arrays, "mat_" + name, [x[name] for x in s])
    _arr(arrays, "mat_rgba", [x["rgba"] for x in s], (nm, 4))

  def _mesh_arrays(self, sizes, arrays):
    """Mesh arrays (CopyObjects) and hull polygons; the octree is not produced, the face BVHs
    are build_bvh.py's."""
    ms = self.meshes
    nm = len(ms)
    vert, normal, tex, face, fnormal, ftex, graph = [], [], [], [], [], [], []
    cols = {
      k: []
      for k in (
        "vertadr",
        "vertnum",
        "normaladr",
        "normalnum",
        "texcoordadr",
        "texcoordnum",
        "faceadr",
        "facenum",
        "graphadr",
      )
    }
    nv = nn = nt = nf = ng = 0
    for m in ms:
      info = m.info
      cols["vertadr"].append(nv)
      cols["vertnum"].append(len(info.vert))
      cols["normaladr"].append(nn)
      cols["normalnum"].append(len(info.normal))
      has_tex = info.texcoord is not None and len(info.texcoord) > 0
      cols["texcoordadr"].append(nt if has_tex else -1)
      cols["texcoordnum"].append(len(info.texcoord) if has_tex else 0)
      cols["faceadr"].append(nf)
      cols["facenum"].append(len(info.face))
      g = info.graph
      cols["graphadr"].append(ng if g is not None and len(g) else -1)
      vert.append(np.asarray(info.vert, np.float32).reshape(-1, 3))
      normal.append(np.asarray(info.normal, np.float32).reshape(-1, 3))
      face.append(np.asarray(info.face, np.int32).reshape(-1, 3))
      fnormal.append(np.asarray(info.facenormal, np.int32).reshape(-1, 3))
      if has_tex:
        tex.append(np.asarray(info.texcoord, np.float32).reshape(-1, 2))
        ftex.append(np.asarray(info.facetexcoord, np.int32).reshape(-1, 3))
      else:
        ftex.append(np.zeros((len(info.face), 3), np.int32))
      if g is not None and len(g):
        graph.append(np.asarray(g, np.int32))
        ng += len(g)
      nv += len(info.vert)
      nn += len(info.normal)
      nt += cols["texcoordnum"][-1]
      nf += len(info.face)
    sizes.update(
      nmesh=nm, nmeshvert=nv, nmeshnormal=nn, nmeshtexcoord=nt, nmeshface=nf, nmeshgraph=ng
    )
    for k, v in cols.items():
      _arr(arrays, "mesh_" + k, v)

    def cat(parts, width, dtype):
      return np.concatenate(parts) if parts else np.zeros((0, width), dtype)

    _arr(arrays, "mesh_vert", cat(vert, 3, np.float32), (nv, 3))
    _arr(arrays, "mesh_normal", cat(normal, 3, np.float32), (nn, 3))
    _arr(arrays, "mesh_texcoord", cat(tex, 2, np.float32), (nt, 2))
    _arr(arrays, "mesh_face", cat(face, 3, np.int32), (nf, 3))
    _arr(arrays, "mesh_facenormal", cat(fnormal, 3, np.int32), (nf, 3))
    _arr(arrays, "mesh_facetexcoord", cat(ftex, 3, np.int32), (nf, 3))
    _arr(arrays, "mesh_graph", np.concatenate(graph) if graph else np.zeros(0, np.int32))
    _arr(arrays, "mesh_scale", [m.info.scale for m in ms], (nm, 3))
    _arr(arrays, "mesh_pos", [m.info.pos for m in ms], (nm, 3))
    _arr(arrays, "mesh_quat", [m.info.quat for m in ms], (nm, 4))
    _arr(arrays, "mesh_extrema", [m.info.extrema for m in ms], (nm, 27))
    self._mesh_polygon_arrays(sizes, arrays)

  def _mesh_polygon_arrays(self, sizes, arrays):
    """Hull polygons of the meshes (mjCMesh::CopyPolygons, CopyPolygonMap, CopyPolygonNormals):
    polygon and map addresses are global, vertex and polygon ids mesh-local."""
    flat = [m.info.polygon_arrays() for m in self.meshes]
    polynum = [len(f[0]) for f in flat]

    def cat(parts):
      return np.concatenate(parts) if parts else np.zeros(0, np.int32)

    def starts(counts):
      return (np.cumsum(counts) - counts).astype(np.int32)

    vertnum, polyvert = cat([f[0] for f in flat]), cat([f[1] for f in flat])
    mapnum, polymap = cat([f[2] for f in flat]), cat([f[3] for f in flat])
    normal = [np.asarray(m.info.polynormal, np.float64).reshape(-1, 3) for m in self.meshes]
    sizes.update(
      nmeshpoly=len(vertnum),
      nmeshpolyvert=len(polyvert),
      nmeshpolymap=len(polymap),
      npolygonmax=int(vertnum.max(initial=0)),
    )
    _arr(arrays, "mesh_polynum", polynum)
    _arr(arrays, "mesh_polyadr", starts(np.array(polynum, np.int64)))
    _arr(
      arrays,
      "mesh_polynormal",
      np.concatenate(normal) if normal else np.zeros((0, 3)),
      (len(vertnum), 3),
    )
    for name, vals in (
      ("polyvertadr", starts(vertnum)),
      ("polyvertnum", vertnum),
      ("polyvert", polyvert),
      ("polymapadr", starts(mapnum)),
      ("polymapnum", mapnum),
      ("polymap", polymap),
    ):
      _arr(arrays, "mesh_" + name, vals)

  def _texture_arrays(self, sizes, arrays):
    """Texture arrays (CopyObjects)."""
    ts = self.textures
    nt = len(ts)
    adr, total = [], 0
    for t in ts:
      adr.append(total)
      total += t.data.size
    sizes.update(ntex=nt, ntexdata=total)
    _arr(arrays, "tex_type", [t.spec["type"] for t in ts])
    _arr(arrays, "tex_colorspace", [t.colorspace for t in ts])
    _arr(arrays, "tex_height", [t.height for t in ts])
    _arr(arrays, "tex_width", [t.width for t in ts])
    _arr(arrays, "tex_nchannel", [t.nchannel for t in ts])
    _arr(arrays, "tex_adr", adr)
    _arr(arrays, "tex_data", np.concatenate([t.data for t in ts]) if ts else [])
