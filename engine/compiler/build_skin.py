"""Skins: <skin> meshes deformed by bone bodies, inline or from .skn files.

Ports of mjCSkin::Compile and mjCSkin::LoadSKN (user_mesh.cc) and the skin part of
CopyObjects (user_model.cc). A skin only changes what is drawn, never the physics, so its
arrays are host-side data: MjModel keeps them outside the numba model handle (like m.vis), and
the tables below (not engine/fields.py) give their MuJoCo names, dtypes and shapes.
"""

import numpy as np

from engine.compiler import build_math as bm
from engine.compiler import build_tree as bt
from engine.compiler import specs
from engine.enums import mjMINVAL
from engine.enums import mjNGROUP
from engine.fields import Field

# skin sizes of MjModel, as mujoco.MjModel names them
SKIN_SIZES = (
  Field("nskin", "i8", (), "number of skins"),
  Field("nskinvert", "i8", (), "vertices in all skins"),
  Field("nskintexvert", "i8", (), "texture coordinates in all skins"),
  Field("nskinface", "i8", (), "triangles in all skins"),
  Field("nskinbone", "i8", (), "bones in all skins"),
  Field("nskinbonevert", "i8", (), "vertex references of all bones"),
)

# skin arrays of MjModel (host-side; skin_pathadr is compiler output only, like mesh_pathadr)
SKIN_FIELDS = (
  Field("skin_matid", "i4", ("nskin",), "material of the skin, -1 if none", False),
  Field("skin_group", "i4", ("nskin",), "visibility group of the skin", False),
  Field("skin_rgba", "f4", ("nskin", 4), "color of the skin", False),
  Field("skin_inflate", "f4", ("nskin",), "offset of the vertices along their normals", False),
  Field("skin_vertadr", "i4", ("nskin",), "first vertex of the skin", False),
  Field("skin_vertnum", "i4", ("nskin",), "number of vertices of the skin", False),
  Field("skin_texcoordadr", "i4", ("nskin",), "first texture coordinate, -1 if none", False),
  Field("skin_faceadr", "i4", ("nskin",), "first triangle of the skin", False),
  Field("skin_facenum", "i4", ("nskin",), "number of triangles of the skin", False),
  Field("skin_boneadr", "i4", ("nskin",), "first bone of the skin", False),
  Field("skin_bonenum", "i4", ("nskin",), "number of bones of the skin", False),
  Field("skin_vert", "f4", ("nskinvert", 3), "vertex positions of all skins", False),
  Field("skin_texcoord", "f4", ("nskintexvert", 2), "texture coordinates of all skins", False),
  Field("skin_face", "i4", ("nskinface", 3), "triangles of all skins (skin vertex ids)", False),
  Field("skin_bonevertadr", "i4", ("nskinbone",), "first vertex reference of the bone", False),
  Field("skin_bonevertnum", "i4", ("nskinbone",), "number of vertices of the bone", False),
  Field("skin_bonebindpos", "f4", ("nskinbone", 3), "bone position in the bind pose", False),
  Field("skin_bonebindquat", "f4", ("nskinbone", 4), "bone orientation in the bind pose", False),
  Field("skin_bonebodyid", "i4", ("nskinbone",), "body of the bone", False),
  Field("skin_bonevertid", "i4", ("nskinbonevert",), "skin vertex ids of the bones", False),
  Field("skin_bonevertweight", "f4", ("nskinbonevert",), "normalized vertex weights", False),
)


class Skin(bt.Obj):
  """One skin: attributes, mesh data and bones (body names until compile_all)."""

  def __init__(self, node, spec):
    super().__init__(node, spec)
    self.vert = self.texcoord = self.face = None
    self.bodyname, self.bindpos, self.bindquat, self.vertid, self.vertweight = [], [], [], [], []
    self.bodyid = []
    self.matid = -1


def make(ctx, root):
  """Skins of <asset> sections, then of <deformable> sections (MuJoCo's parse order).

  .skn files are read here, so the bone bodies are known before fusestatic
  (ctx.skin_bodynames: those bodies are kept).
  """
  nodes = [
    n
    for sec in ("asset", "deformable")
    for s in root.children
    if s.tag == sec
    for n in s.children
    if n.tag == "skin"
  ]
  skins = []
  for n in nodes:
    spec = specs.template(n.key)
    specs.read_attrs(spec, n.key, n.attrs)
    sk = Skin(n, spec)
    if not (0 <= spec["group"] < mjNGROUP):
      raise n.error(f"skin group must be between 0 and {mjNGROUP - 1}", "group")
    if not sk.name and spec.get("file"):
      sk.name = _strip(spec["file"])
    _read_inline(sk)
    if spec.get("file"):
      _load_file(ctx, sk)
    skins.append(sk)
  ctx.skin_bodynames = {name for sk in skins for name in sk.bodyname}
  return skins


def _strip(path):
  """File name without folders and extension (the name of an unnamed skin)."""
  base = path.replace("\\", "/").split("/")[-1]
  return base.rsplit(".", 1)[0] if "." in base else base


def _read_inline(sk):
  """Mesh data and <bone> children of the element (mjXReader::OneSkin)."""
  a = sk.node.attrs
  sk.vert = np.array(a.get("vertex", ()), np.float32)
  sk.texcoord = np.array(a.get("texcoord", ()), np.float32)
  sk.face = np.array(a.get("face", ()), np.int32)
  for b in sk.node.children:
    sk.bodyname.append(b.attrs["body"])
    sk.bindpos.append(b.attrs["bindpos"])
    sk.bindquat.append(b.attrs["bindquat"])
    sk.vertid.append(np.array(b.attrs["vertid"], np.int32))
    sk.vertweight.append(np.array(b.attrs["vertweight"], np.float32))
  sk.bone_nodes = list(sk.node.children)


def _load_file(ctx, sk):
  """Skin data from a .skn file (mjCSkin::Compile's file part)."""
  fname = sk.spec["file"]
  if sk.vert.size or sk.texcoord.size or sk.face.size or sk.bodyname:
    raise sk.error(f"Both skin data and file were specified: {fname}", "file")
  if "." not in fname or fname[fname.rfind(".") :].lower() != ".skn":
    raise sk.error(f"Unknown skin file type: {fname}", "file")
  buf = ctx.assets.read_file(sk.node, fname, ctx.meshdir)
  try:
    data = read_skn(buf, fname)
  except ValueError as e:
    raise sk.error(str(e), "file") from None
  sk.vert, sk.texcoord, sk.face = data["vert"], data["texcoord"], data["face"]
  for name in ("bodyname", "bindpos", "bindquat", "vertid", "vertweight"):
    setattr(sk, name, data[name])
  sk.bone_nodes = []


def read_skn(buf: bytes, name: str) -> dict:
  """Port of mjCSkin::LoadSKN: decodes MuJoCo's binary skin format (little endian).

  Layout: int32 nvert, ntexcoord, nface, nbone; float32 vert (nvert, 3); float32 texcoord
  (ntexcoord, 2); int32 face (nface, 3); then per bone a 40-byte body name, float32 bindpos (3)
  and bindquat (4), int32 vertex count n, int32 vertid (n) and float32 vertweight (n).
  Raises ValueError with MuJoCo's message for a malformed file.
  """
  size = len(buf)
  if not size:
    raise ValueError(f"SKN file '{name}' is empty")
  if size < 16:
    raise ValueError(f"missing header in SKN file '{name}'")
  nvert, ntex, nface, nbone = (int(v) for v in np.frombuffer(buf, "<i4", 4))
  if min(nvert, ntex, nface, nbone) < 0:
    raise ValueError(f"negative size in header of SKN file '{name}'")
  if size < 16 + 12 * nvert + 8 * ntex + 12 * nface:
    raise ValueError(f"insufficient data in SKN file '{name}'")
  words = np.frombuffer(buf, "<u4", size // 4)[4:]
  nword = len(words)
  floats, ints = words.view("<f4"), words.view("<i4")
  out = {"vert": floats[: 3 * nvert].astype(np.float32)}
  cnt = 3 * nvert
  out["texcoord"] = floats[cnt : cnt + 2 * ntex].astype(np.float32)
  cnt += 2 * ntex
  out["face"] = ints[cnt : cnt + 3 * nface].astype(np.int32)
  cnt += 3 * nface
  for key in ("bodyname", "bindpos", "bindquat", "vertid", "vertweight"):
    out[key] = []
  for i in range(nbone):
    if nword - cnt < 18:
      raise ValueError(f"insufficient data in SKN file '{name}', bone {i}")
    raw = words[cnt : cnt + 10].tobytes()[:39]
    out["bodyname"].append(raw.split(b"\0", 1)[0].decode("latin-1"))
    cnt += 10
    out["bindpos"].append(tuple(float(v) for v in floats[cnt : cnt + 3]))
    cnt += 3
    out["bindquat"].append(tuple(float(v) for v in floats[cnt : cnt + 4]))
    cnt += 4
    vcount = int(ints[cnt])
    cnt += 1
    if vcount < 1:
      raise ValueError(f"vertex count must be positive in SKN file '{name}', bone {i}")
    if nword - cnt < 2 * vcount:
      raise ValueError(f"insufficient vertex data in SKN file '{name}', bone {i}")
    out["vertid"].append(ints[cnt : cnt + vcount].astype(np.int32))
    cnt += vcount
    out["vertweight"].append(floats[cnt : cnt + vcount].astype(np.float32))
    cnt += vcount
  if size != 16 + 4 * cnt:
    raise ValueError(f"unexpected buffer size in SKN file '{name}'")
  return out


def compile_all(ctx, skins):
  """Port of mjCSkin::Compile for every skin: checks, body and material ids, normalization."""
  for sk in skins:
    _compile(ctx, sk)


def _compile(ctx, sk):
  nvert = sk.vert.size // 3
  nbone = len(sk.bodyname)
  if not (sk.vert.size and sk.face.size and nbone):
    raise sk.error("Missing data in skin")

  # mesh and bone sizes
  if sk.vert.size % 3:
    raise sk.error("Vertex data must be multiple of 3", "vertex")
  if sk.texcoord.size and sk.texcoord.size != 2 * nvert:
    raise sk.error("Vertex and texcoord data incompatible size", "texcoord")
  if sk.face.size % 3:
    raise sk.error("Face data must be multiple of 3", "face")

  # body and material ids
  sk.bodyid = []
  for i, name in enumerate(sk.bodyname):
    body = ctx.names["body"].get(name)
    if body is None:
      raise _bone_error(sk, i, f"unknown body '{name}' in skin", "body")
    sk.bodyid.append(body.id)
  mat = sk.spec.get("material")
  sk.matid = -1
  if mat and not ctx.discardvisual:
    m = ctx.names.get("material", {}).get(mat)
    if m is None:
      raise sk.error(f"material '{mat}' not found in skin {sk.id}", "material")
    sk.matid = m.id

  # total vertex weights, accumulated in float32 in bone order
  vw = np.zeros(nvert, np.float32)
  for i in range(nbone):
    ids, w = sk.vertid[i], sk.vertweight[i]
    if len(w) != len(ids) or not len(ids):
      raise _bone_error(
        sk, i, "vertid and vertweight must have same non-zero size in skin", "vertweight"
      )
    bad = (ids < 0) | (ids >= nvert)
    if bad.any():
      raise _bone_error(sk, i, f"vertid {ids[bad][0]} out of range in skin", "vertid")
    np.add.at(vw, ids, w)
  low = np.nonzero(vw.astype(np.float64) <= mjMINVAL)[0]
  if len(low):
    raise sk.error(f"vertex {low[0]} must have positive total weight in skin")

  # normalize weights and bind quaternions
  sk.vertweight = [(w / vw[ids]).astype(np.float32) for ids, w in zip(sk.vertid, sk.vertweight)]
  quats = []
  for q in sk.bindquat:
    q = [float(np.float32(v)) for v in q]
    bm.normvec(q)
    quats.append(q)
  sk.bindquat = quats


def _bone_error(sk, i, msg, attr):
  """Error at bone i's element when it is inline, else at the skin."""
  if i < len(sk.bone_nodes):
    return sk.bone_nodes[i].error(msg, attr)
  return sk.error(msg)


def arrays(skins, sizes, arrays):
  """Skin sizes and arrays (CopyObjects), with MuJoCo's dtypes and shapes."""
  cols = {f.name: [] for f in SKIN_FIELDS}
  vert_adr = tex_adr = face_adr = bone_adr = bonevert_adr = 0
  for sk in skins:
    nvert, nface, nbone = sk.vert.size // 3, sk.face.size // 3, len(sk.bodyid)
    cols["skin_matid"].append(sk.matid)
    cols["skin_group"].append(sk.spec["group"])
    cols["skin_rgba"].append(sk.spec["rgba"])
    cols["skin_inflate"].append(sk.spec["inflate"])
    cols["skin_vertadr"].append(vert_adr)
    cols["skin_vertnum"].append(nvert)
    cols["skin_texcoordadr"].append(tex_adr if sk.texcoord.size else -1)
    cols["skin_faceadr"].append(face_adr)
    cols["skin_facenum"].append(nface)
    cols["skin_boneadr"].append(bone_adr)
    cols["skin_bonenum"].append(nbone)
    cols["skin_vert"].append(sk.vert)
    cols["skin_texcoord"].append(sk.texcoord)
    cols["skin_face"].append(sk.face)
    cols["skin_bonebindpos"] += sk.bindpos
    cols["skin_bonebindquat"] += sk.bindquat
    cols["skin_bonebodyid"] += sk.bodyid
    for ids, w in zip(sk.vertid, sk.vertweight):
      cols["skin_bonevertadr"].append(bonevert_adr)
      cols["skin_bonevertnum"].append(len(ids))
      cols["skin_bonevertid"].append(ids)
      cols["skin_bonevertweight"].append(w)
      bonevert_adr += len(ids)
    vert_adr += nvert
    tex_adr += sk.texcoord.size // 2
    face_adr += nface
    bone_adr += nbone
  sizes.update(
    nskin=len(skins),
    nskinvert=vert_adr,
    nskintexvert=tex_adr,
    nskinface=face_adr,
    nskinbone=bone_adr,
    nskinbonevert=bonevert_adr,
  )
  flat = ("skin_vert", "skin_texcoord", "skin_face", "skin_bonevertid", "skin_bonevertweight")
  for f in SKIN_FIELDS:
    data = cols[f.name]
    if f.name in flat:
      data = np.concatenate(data) if data else ()
    arrays[f.name] = np.array(data, np.dtype(f.dtype)).reshape(f.shape(sizes))
