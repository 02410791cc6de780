"""Resource providers (engine.register_resource_provider, engine/compiler/assets.py).

A model served from an in-memory zip through a "zip" provider must compile to exactly the arrays
of the same files loaded from disk, and those match MuJoCo's (the oracle loads the disk copy:
its Python bindings do not expose resource providers). The built-in "data:" provider, errors
and the registry's rules (duplicates, case, prefix syntax, getdir, modified) are checked too.
"""

import base64
import contextlib
import io
import posixpath
import struct
import urllib.parse
import zipfile

import mujoco
import numpy as np
import pytest
from PIL import Image

import engine
from engine.compiler import assets as A
from engine.compiler import compile_model
from tests.engine.test_compiler import compare

# ------------------------------------------------------------------------------- model files

_TET = np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], np.float32)
_TET_FACES = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]


def stl_bytes(vert=_TET, faces=_TET_FACES):
  """Binary STL of a triangle list."""
  out = bytearray(b"\0" * 80) + struct.pack("<I", len(faces))
  for f in faces:
    out += struct.pack("<3f", 0, 0, 0) + np.asarray(vert[list(f)], "<f4").tobytes() + b"\0\0"
  return bytes(out)


def obj_bytes(vert=_TET, faces=_TET_FACES):
  lines = [f"v {x} {y} {z}" for x, y, z in vert.tolist()]
  lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in faces]
  return ("\n".join(lines) + "\n").encode()


def png_bytes(shape, seed):
  rng = np.random.default_rng(seed)
  b = io.BytesIO()
  Image.fromarray(rng.integers(0, 256, shape, dtype=np.uint8)).save(b, format="PNG")
  return b.getvalue()


def skn_bytes():
  """MuJoCo's binary skin file: one tetrahedron bound to two bodies."""
  vert = np.array([0, 0, 0, 0.2, 0, 0, 0, 0.2, 0, 0, 0, -0.4], "<f4")
  face = np.array([0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2], "<i4")
  out = np.array([4, 0, 4, 2], "<i4").tobytes() + vert.tobytes() + face.tobytes()
  for body, ids, weights in (("upper", [0, 1, 2, 3], [1, 1, 1, 0.5]), ("lower", [3], [1.5])):
    out += body.encode().ljust(40, b"\0") + np.zeros(3, "<f4").tobytes()
    out += np.array([1, 0, 0, 0], "<f4").tobytes() + np.array([len(ids)], "<i4").tobytes()
    out += np.array(ids, "<i4").tobytes() + np.array(weights, "<f4").tobytes()
  return out


# mesh geoms do not collide: no convex hulls (whose vertex order for a tetrahedron is not
# MuJoCo's; tests/engine/test_mesh.py covers hulls)
ROBOT_XML = """<mujoco model="zipped">
  <compiler meshdir="meshes" texturedir="textures"/>
  <include file="parts/arm.xml"/>
  <asset>
    <mesh name="tet_stl" file="tet.stl"/>
    <mesh name="tet_obj" file="sub/tet.obj" scale="2 2 2"/>
    <texture name="grid" type="2d" file="grid.png"/>
    <texture name="sky" type="skybox" fileright="r.png" fileleft="l.png" fileup="u.png"
             filedown="d.png" filefront="f.png" fileback="b.png"/>
    <material name="gridmat" texture="grid"/>
    <hfield name="terrain" file="terrain.png" size="1 1 .2 .1"/>
  </asset>
  <deformable><skin file="tri.skn"/></deformable>
</mujoco>"""

ARM_XML = """<mujoco>
  <include file="bodies.xml"/>
  <asset><mesh name="arm" file="arm.obj"/></asset>
</mujoco>"""

BODIES_XML = """<mujoco>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <geom type="hfield" hfield="terrain" contype="1" conaffinity="1"/>
    <body name="upper" pos="0 0 1">
      <freejoint/>
      <geom type="mesh" mesh="tet_stl" material="gridmat"/>
      <body name="lower" pos="0 0 -.3">
        <joint type="hinge" axis="1 0 0"/>
        <geom type="mesh" mesh="tet_obj"/>
        <geom type="mesh" mesh="arm" pos=".2 0 0"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""


def robot_files(root="models/"):
  """{archive name: bytes} of the test robot: two includes, meshes, textures, hfield, skin."""
  files = {
    "robot.xml": ROBOT_XML.encode(),
    "parts/arm.xml": ARM_XML.encode(),
    "parts/bodies.xml": BODIES_XML.encode(),
    "meshes/tet.stl": stl_bytes(),
    "meshes/sub/tet.obj": obj_bytes(),
    "meshes/arm.obj": obj_bytes(_TET * 3),
    "meshes/terrain.png": png_bytes((5, 7), 0),
    "meshes/tri.skn": skn_bytes(),
    "textures/grid.png": png_bytes((8, 8, 3), 1),
  }
  for i, face in enumerate("rludfb"):
    files[f"textures/{face}.png"] = png_bytes((4, 4, 3), 10 + i)
  return {root + k: v for k, v in files.items()}


def write_tree(folder, files):
  for name, data in files.items():
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


class ZipProvider:
  """A provider serving an in-memory zip archive (zipfile over io.BytesIO).

  Attributes:
    archive: the open ZipFile.
    asked: every name open() was asked for; opened: those it found; closes: close() calls.
  """

  def __init__(self, files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
      for name, data in files.items():
        z.writestr(name, data)
    self.archive = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    self.asked, self.opened, self.closes = [], [], 0

  def open(self, name):
    self.asked.append(name)
    try:
      handle = self.archive.open(posixpath.normpath(name.partition(":")[2]))
    except KeyError:
      return None
    self.opened.append(name)
    return handle

  def read(self, handle):
    return handle.read()

  def close(self, handle):
    self.closes += 1
    handle.close()


@contextlib.contextmanager
def registered(prefix, provider, **kw):
  """Registers provider's callbacks under prefix for the duration of a with block."""
  A.register_resource_provider(prefix, provider.open, provider.read, provider.close, **kw)
  try:
    yield provider
  finally:
    A.unregister_resource_provider(prefix)


def _path_fields(arrays):
  return {k for k in arrays if k == "paths" or k.endswith("pathadr") or k.endswith("typeadr")}


def assert_same_compile(c1, c2):
  """Two compiled models have the same sizes and arrays (file paths aside)."""
  skip = _path_fields(c1.arrays) | {"npaths"}
  assert {k: v for k, v in c1.sizes.items() if k not in skip} == {
    k: v for k, v in c2.sizes.items() if k not in skip
  }
  assert set(c1.arrays) == set(c2.arrays)
  for k in c1.arrays:
    if k not in skip:
      np.testing.assert_array_equal(np.asarray(c1.arrays[k]), np.asarray(c2.arrays[k]), err_msg=k)


def data_uri(data, mediatype):
  return f"data:{mediatype};base64," + base64.b64encode(data).decode()


# ------------------------------------------------------------------------- zip provider models


def test_zip_model_equals_disk_model_and_mujoco(tmp_path):
  files = robot_files()
  write_tree(tmp_path, files)
  disk = tmp_path / "models" / "robot.xml"
  mjm, c_disk = compare(path=disk)  # ours from disk == MuJoCo from disk, every field
  with registered("zip", ZipProvider(files)) as zp:
    c_zip = compile_model(path="zip:models/robot.xml")
    m = engine.MjModel.from_xml_path("zip:models/robot.xml")
  assert_same_compile(c_zip, c_disk)
  # every file came through the provider, relative names combined with its directory
  assert zp.opened[0] == "zip:models/robot.xml"
  assert "zip:models/parts/bodies.xml" in zp.opened
  assert "zip:models/meshes/sub/tet.obj" in zp.opened
  assert "zip:models/textures/f.png" in zp.opened
  # a nested include is tried relative to the model first, then to the including file
  assert zp.asked[2:4] == ["zip:models/bodies.xml", "zip:models/parts/bodies.xml"]
  assert set(zp.asked) - set(zp.opened) == {"zip:models/bodies.xml"}
  assert zp.closes == len(zp.opened)
  # the oracle, directly on the loaded MjModel
  assert (m.nmesh, m.ntex, m.nhfield, m.nskin) == (mjm.nmesh, mjm.ntex, mjm.nhfield, mjm.nskin)
  for name in (
    "mesh_vert",
    "mesh_face",
    "tex_data",
    "hfield_data",
    "body_mass",
    "body_inertia",
    "geom_size",
  ):
    np.testing.assert_allclose(getattr(m, name), getattr(mjm, name), atol=1e-12, err_msg=name)
  paths = bytes(c_zip.arrays["paths"]).split(b"\0")
  assert b"zip:models/meshes/sub/tet.obj" in paths


def test_zip_model_steps_and_closes_every_open():
  with registered("zip", ZipProvider(robot_files())) as zp:
    m = engine.MjModel.from_xml_path("zip:models/robot.xml")
  d = engine.MjData(m)
  engine.mj_step(m, d, nstep=5)
  assert d.time == pytest.approx(5 * m.opt.timestep)
  assert np.isfinite(d.qpos).all() and d.qpos[2] < 1
  assert zp.closes == len(zp.opened)


def test_prefix_matches_case_insensitively():
  with registered("MyZip", ZipProvider(robot_files())):
    a = compile_model(path="myzip:models/robot.xml")
    b = compile_model(path="MYZIP:models/robot.xml")
  assert_same_compile(a, b)
  assert b"MYZIP:models/meshes/tet.stl" in bytes(b.arrays["paths"])


def test_getdir_drives_relative_paths():
  files = robot_files("elsewhere/")
  files["index/robot.xml"] = files.pop("elsewhere/robot.xml")
  calls = []

  def getdir(name):
    calls.append(name)
    return "zip:elsewhere/"

  with registered("zip", ZipProvider(files), getdir=getdir) as zp:
    c = compile_model(path="zip:index/robot.xml")
  assert calls[0] == "zip:index/robot.xml"
  assert "zip:elsewhere/meshes/tet.stl" in zp.opened
  assert c.sizes["nmesh"] == 3


def test_default_dir_keeps_the_prefix():
  files = {k.removeprefix("models/"): v for k, v in robot_files().items()}
  with registered("zip", ZipProvider(files)) as zp:
    assert A.resource_dir("zip:robot.xml") == "zip:"
    assert A.resource_dir("zip:a/b/robot.xml") == "zip:a/b/"
    c = compile_model(path="zip:robot.xml")
  assert "zip:meshes/tet.stl" in zp.opened and c.sizes["nmesh"] == 3


def test_provider_names_inside_a_disk_model(tmp_path):
  """A disk model names files of a provider directly (absolute names: no meshdir applied)."""
  files = {
    "parts/piece.xml": b'<mujoco><worldbody><geom type="mesh" mesh="m"/></worldbody></mujoco>',
    "tet.stl": stl_bytes(),
  }
  (tmp_path / "model.xml").write_text(
    '<mujoco><compiler meshdir="nowhere"/><include file="zip:parts/piece.xml"/>'
    '<asset><mesh name="m" file="ZIP:tet.stl"/></asset></mujoco>'
  )
  with registered("zip", ZipProvider(files)) as zp:
    m = engine.MjModel.from_xml_path(str(tmp_path / "model.xml"))
  assert zp.opened == ["zip:parts/piece.xml", "ZIP:tet.stl"]
  assert m.nmesh == 1 and m.ngeom == 1


def test_provider_miss_falls_back_to_the_assets_dict():
  files = robot_files()
  arm = files.pop("models/meshes/arm.obj")
  with registered("zip", ZipProvider(files)) as zp:
    m = engine.MjModel.from_xml_path("zip:models/robot.xml", assets={"arm.obj": arm})
  assert "zip:models/meshes/arm.obj" in zp.asked
  assert m.nmesh == 3


# ----------------------------------------------------------------------------------- data URIs


def test_data_provider_is_registered_by_default():
  assert A.find_resource_provider("DATA:,x").prefix == "data"
  assert A.read_resource("data:text/plain;base64,aGVsbG8=") == b"hello"
  assert A.read_resource("data:,a%20b") == b"a b"
  assert A.resource_dir("data:text/plain,x/y") == ""


def test_data_uri_mesh_texture_and_hfield_match_named_files():
  stl, obj, png, hf = (
    stl_bytes(),
    obj_bytes(_TET * 2),
    png_bytes((6, 6, 3), 3),
    png_bytes((4, 5), 4),
  )
  body = """<worldbody><geom type="hfield" hfield="h"/><body pos="0 0 1"><freejoint/>
    <geom type="mesh" mesh="a" material="mat"/><geom type="mesh" mesh="b"/></body></worldbody>"""

  def model(a, b, t, h, ctype=""):
    return f"""<mujoco><compiler meshdir="meshes" texturedir="tex"/><asset>
      <mesh name="a" file="{a}"/><mesh name="b" file="{b}" {ctype}/>
      <texture name="t" type="2d" file="{t}"/><material name="mat" texture="t"/>
      <hfield name="h" file="{h}" size="1 1 .1 .1"/></asset>{body}</mujoco>"""

  assets = {"a.stl": stl, "b.obj": obj, "t.png": png, "h.png": hf}
  named = model("a.stl", "b.obj", "t.png", "h.png")
  mjm = mujoco.MjModel.from_xml_string(named, assets)
  ref = compile_model(xml=named, assets=assets)
  uris = (
    data_uri(stl, "model/stl"),
    data_uri(obj, "model/obj"),
    data_uri(png, "image/png"),
    data_uri(hf, "image/png"),
  )
  assert_same_compile(compile_model(xml=model(*uris)), ref)
  # no media type in the URI: the content_type attribute says what it is
  untyped = model(
    uris[0],
    "data:;base64," + base64.b64encode(obj).decode(),
    *uris[2:],
    ctype='content_type="model/obj"',
  )
  assert_same_compile(compile_model(xml=untyped), ref)
  m = engine.MjModel.from_xml_string(model(*uris))
  for name in ("mesh_vert", "tex_data", "hfield_data", "body_mass"):
    np.testing.assert_allclose(getattr(m, name), getattr(mjm, name), atol=1e-12, err_msg=name)


def test_data_uri_cube_faces():
  faces = [png_bytes((4, 4, 3), 20 + i) for i in range(6)]
  attrs = " ".join(
    f'{k}="{{}}"' for k in ("fileright", "fileleft", "fileup", "filedown", "filefront", "fileback")
  )
  xml = '<mujoco><asset><texture name="sky" type="skybox" ' + attrs + "/></asset></mujoco>"
  named = [f"{i}.png" for i in range(6)]
  mjm = mujoco.MjModel.from_xml_string(xml.format(*named), dict(zip(named, faces)))
  c = compile_model(xml=xml.format(*[data_uri(f, "image/png") for f in faces]))
  np.testing.assert_array_equal(c.arrays["tex_data"], mjm.tex_data)


def test_data_uri_whole_model():
  xml = f"""<mujoco><asset><mesh name="m" file="{data_uri(obj_bytes(), "model/obj")}"/></asset>
    <worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody></mujoco>"""
  ref = compile_model(xml=xml)
  assert_same_compile(compile_model(path=data_uri(xml.encode(), "text/xml")), ref)
  assert_same_compile(compile_model(path="data:text/xml," + urllib.parse.quote(xml)), ref)
  m = engine.MjModel.from_xml_path(data_uri(xml.encode(), "application/xml"))
  d = engine.MjData(m)
  engine.mj_step(m, d)
  assert m.nmesh == 1 and d.time > 0


def test_malformed_data_uri():
  with pytest.raises(FileNotFoundError, match="prefix 'data'"):
    A.read_resource("data:model/obj;base64,@@not base64@@")
  xml = '<mujoco><asset><mesh name="m" file="data:model/obj;base64,%%%"/></asset></mujoco>'
  with pytest.raises(engine.CompileError, match="prefix 'data'") as err:
    compile_model(xml=xml)
  assert isinstance(err.value, FileNotFoundError)
  assert err.value.element == "mesh" and err.value.attribute == "file"


# -------------------------------------------------------------------------------------- errors


def test_unknown_name_in_provider():
  files = robot_files()
  del files["models/meshes/sub/tet.obj"]
  with registered("zip", ZipProvider(files)):
    with pytest.raises(FileNotFoundError) as err:
      engine.MjModel.from_xml_path("zip:models/robot.xml")
    msg = str(err.value)
    assert "'zip:models/meshes/sub/tet.obj'" in msg and "prefix 'zip'" in msg
    assert isinstance(err.value, engine.CompileError) and err.value.element == "mesh"
    with pytest.raises(FileNotFoundError, match="'zip:models/nothing.xml'.*prefix 'zip'"):
      engine.MjModel.from_xml_path("zip:models/nothing.xml")


def test_missing_include_in_provider():
  files = robot_files()
  del files["models/parts/bodies.xml"]
  with registered("zip", ZipProvider(files)):
    with pytest.raises(FileNotFoundError, match="zip:models/parts/bodies.xml") as err:
      compile_model(path="zip:models/robot.xml")
  assert err.value.element == "include" and err.value.file == "parts/arm.xml"


def test_open_returning_false_is_a_failure():
  calls = []
  A.register_resource_provider("nope", lambda n: calls.append(n) or False, bytes, print)
  try:
    with pytest.raises(
      FileNotFoundError, match="'nope:x.xml' with the resource provider for prefix 'nope'"
    ):
      engine.MjModel.from_xml_path("nope:x.xml")
  finally:
    A.unregister_resource_provider("nope")
  assert calls == ["nope:x.xml"]


class _Boom(RuntimeError):
  pass


@pytest.mark.parametrize("callback", ["open", "read", "close", "getdir"])
def test_callback_exception_names_the_resource(callback):
  zp = ZipProvider(robot_files())
  kw = dict(
    open=zp.open, read=zp.read, close=zp.close, getdir=lambda name: name.rpartition("/")[0] + "/"
  )

  def boom(*args):
    raise _Boom("kaput")

  kw[callback] = boom
  A.register_resource_provider("zip", **kw)
  try:
    with pytest.raises(A.ResourceError) as err:
      engine.MjModel.from_xml_path("zip:models/robot.xml")
  finally:
    A.unregister_resource_provider("zip")
  msg = str(err.value)
  assert "zip:models/robot.xml" in msg and callback in msg and "kaput" in msg
  assert isinstance(err.value, engine.CompileError)
  assert isinstance(err.value.__cause__.__cause__, _Boom)


def test_mesh_callback_exception_is_located():
  zp = ZipProvider(robot_files())

  def read(handle):
    if handle.name.endswith(".stl"):
      raise _Boom("bad disk")
    return handle.read()

  with registered("zip", zp):
    A.unregister_resource_provider("zip")
    A.register_resource_provider("zip", zp.open, read, zp.close)
    with pytest.raises(
      A.ResourceError, match="read failed for resource 'zip:models/meshes/tet.stl'.*bad disk"
    ) as err:
      compile_model(path="zip:models/robot.xml")
  assert err.value.element == "mesh" and err.value.attribute == "file"


def test_read_must_return_bytes():
  A.register_resource_provider("num", lambda n: n, lambda h: 42, lambda h: None)
  try:
    with pytest.raises(A.ResourceError, match="read returned int for resource 'num:m.xml'"):
      compile_model(path="num:m.xml")
  finally:
    A.unregister_resource_provider("num")


# ------------------------------------------------------------------------------------ registry


def test_registration_rules():
  zp = ZipProvider({})
  p = A.register_resource_provider("zz", zp.open, zp.read, zp.close)
  try:
    assert p in A.resource_providers()
    # the same callbacks again: the existing slot, whatever the case of the prefix
    assert A.register_resource_provider("ZZ", zp.open, zp.read, zp.close) is p
    with pytest.raises(ValueError, match="prefix 'zz' is already registered"):
      A.register_resource_provider("Zz", zp.open, zp.read, print)
    with pytest.raises(ValueError, match="already registered"):
      A.register_resource_provider("zz", zp.open, zp.read, zp.close, getdir=str)
  finally:
    assert A.unregister_resource_provider("ZZ")
  assert not A.unregister_resource_provider("zz")
  assert p not in A.resource_providers()
  assert A.find_resource_provider("zz:anything") is None


@pytest.mark.parametrize("prefix", ["", "1zip", "zip:", "a b", "zip/x", "ü", None])
def test_invalid_prefix(prefix):
  with pytest.raises(ValueError, match="invalid resource provider prefix"):
    A.register_resource_provider(prefix, print, print, print)


def test_callbacks_must_be_callable():
  with pytest.raises(TypeError, match="read must be callable"):
    A.register_resource_provider("ok", print, None, print)
  with pytest.raises(TypeError, match="modified must be callable"):
    A.register_resource_provider("ok", print, print, print, modified="yes")
  assert A.find_resource_provider("ok:x") is None


def test_valid_scheme_characters():
  p = A.register_resource_provider("a1+b-c.d", print, print, print)
  try:
    assert A.find_resource_provider("A1+B-C.D:thing") is p
    assert A.find_resource_provider("a1+b-c.dx:thing") is None
    assert A.find_resource_provider("a1+b-c.d") is None  # no colon: not a match
  finally:
    A.unregister_resource_provider("a1+b-c.d")


def test_modified_is_optional(tmp_path):
  zp = ZipProvider({"x.txt": b"abc"})
  with registered("zip", zp):
    with A.open_resource("zip:x.txt") as r:
      assert r.read() == b"abc"
      assert r.modified("any timestamp")  # no callback: always modified, as in MuJoCo
  seen = []

  def modified(handle, timestamp):
    seen.append((handle.name, timestamp))
    return timestamp != "v2"

  with registered("zip", zp, modified=modified):
    with A.open_resource("zip:x.txt") as r:
      assert r.modified("v1") and not r.modified("v2")
  assert seen == [("x.txt", "v1"), ("x.txt", "v2")]
  f = tmp_path / "f.bin"
  f.write_bytes(b"1")
  with A.open_resource(str(f)) as r:
    assert not r.modified(f.stat().st_mtime) and r.modified(0.0)


def test_resource_names_are_absolute():
  assert A.is_absolute("data:model/obj;base64,AAAA")
  assert A.combine_path("meshes", "data:,x") == "data:,x"
  assert not A.is_absolute("unregistered:thing")
  with registered("zip", ZipProvider({})):
    assert A.combine_path("zip:", "a.stl") == "zip:a.stl"
    assert A.combine_path("zip:dir/", "a.stl") == "zip:dir/a.stl"
    assert A.combine_path("meshes", "zip:a.stl") == "zip:a.stl"
  assert A.combine_path("meshes", "a.stl") == "meshes/a.stl"


def test_exported_from_engine():
  assert engine.register_resource_provider is A.register_resource_provider


def test_zip_example(tmp_path, capsys):
  from examples import zip_model

  m, d = zip_model.main(["--steps", "50"])
  out = capsys.readouterr().out
  assert "zip:robot/parts/pyramid.xml" in out and "zip:robot/meshes/pyramid.obj" in out
  assert A.find_resource_provider("zip:x") is None  # the example unregisters its provider
  with zipfile.ZipFile(io.BytesIO(zip_model.build_zip())) as z:
    z.extractall(tmp_path)
  mjm = mujoco.MjModel.from_xml_path(str(tmp_path / "robot" / "robot.xml"))
  mjd = mujoco.MjData(mjm)
  mujoco.mj_step(mjm, mjd, 50)
  for name in ("mesh_vert", "tex_data", "body_mass", "geom_pos"):
    np.testing.assert_allclose(getattr(m, name), getattr(mjm, name), atol=1e-12, err_msg=name)
  np.testing.assert_allclose(d.qpos, mjd.qpos, atol=1e-9)
