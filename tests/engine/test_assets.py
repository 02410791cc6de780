"""Asset lookup, height fields and textures (engine/compiler/assets.py) against MuJoCo.

Height-field data and texture bytes must equal m.hfield_data / m.tex_data exactly.
"""

import io
import itertools
import math
import struct
import zlib

import mujoco
import numpy as np
import pytest
from PIL import Image

from engine.compiler import assets as A

_counter = itertools.count()


def _png(arr, mode=None):
  b = io.BytesIO()
  (Image.fromarray(arr, mode) if mode else Image.fromarray(arr)).save(b, format="PNG")
  return b.getvalue()


def _with_chunk(png, ctype, payload):
  """PNG with an extra chunk right after IHDR."""
  chunk = struct.pack(">I", len(payload)) + ctype + payload
  chunk += struct.pack(">I", zlib.crc32(ctype + payload) & 0xFFFFFFFF)
  return png[:33] + chunk + png[33:]


def _images():
  rng = np.random.default_rng(0)
  pal = Image.fromarray(rng.integers(0, 256, (5, 6, 3), dtype=np.uint8)).convert("P")
  b = io.BytesIO()
  pal.save(b, format="PNG")
  return {
    "grey": _png(rng.integers(0, 256, (7, 5), dtype=np.uint8)),
    "rgb": _png(rng.integers(0, 256, (6, 4, 3), dtype=np.uint8)),
    "rgba": _png(rng.integers(0, 256, (6, 4, 4), dtype=np.uint8)),
    "grey_alpha": _png(rng.integers(0, 256, (3, 4, 2), dtype=np.uint8), "LA"),
    "grey16": _png(rng.integers(0, 65536, (5, 3)).astype(np.uint16)),
    "palette": b.getvalue(),
    "constant": _png(np.full((4, 4), 9, dtype=np.uint8)),
  }


# ---------------------------------------------------------------------------------- file lookup


def test_asset_store_dict_lookup():
  store = A.AssetStore({"a.stl": b"A", "meshes/b.stl": b"B", "deep/dir/c.png": b"C"}, "")
  assert store.read("a.stl") == b"A"
  assert store.read("a.stl", "meshes") == b"A"  # as written first
  assert store.read("b.stl", "meshes") == b"B"  # with the directory prefix
  assert store.read("other/c.png", "tex") == b"C"  # same base name (MuJoCo's VFS rule)
  with pytest.raises(FileNotFoundError) as err:
    store.read("missing.stl", "meshes")
  msg = str(err.value)
  assert "missing.stl" in msg and "meshes/missing.stl" in msg


def test_asset_store_disk_lookup(tmp_path):
  (tmp_path / "meshes").mkdir()
  (tmp_path / "meshes" / "a.stl").write_bytes(b"disk")
  (tmp_path / "top.png").write_bytes(b"top")
  absdir = tmp_path / "abs"
  absdir.mkdir()
  (absdir / "x.obj").write_bytes(b"abs")
  store = A.AssetStore(None, str(tmp_path))
  assert store.read("a.stl", "meshes") == b"disk"
  assert store.read("top.png") == b"top"
  assert store.read("x.obj", str(absdir)) == b"abs"  # absolute kind_dir
  assert store.read(str(absdir / "x.obj"), "meshes") == b"abs"  # absolute file name
  assert A.AssetStore({"a.stl": b"dict"}, str(tmp_path)).read("a.stl", "meshes") == b"dict"
  with pytest.raises(FileNotFoundError) as err:
    store.read("nope.stl", "meshes")
  assert str(tmp_path / "meshes" / "nope.stl") in str(err.value)


@pytest.mark.parametrize(
  "meshdir,filename,key",
  [
    ("foo", "a.stl", "a.stl"),
    ("foo", "a.stl", "foo/a.stl"),
    ("", "sub/a.stl", "a.stl"),
    ("foo", "bar/a.stl", "foo/bar/a.stl"),
  ],
)
def test_asset_store_agrees_with_mujoco_vfs(meshdir, filename, key):
  v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32)
  data = struct.pack("<4i", 4, 0, 0, 0) + v.tobytes()
  comp = f'<compiler meshdir="{meshdir}"/>' if meshdir else ""
  xml = f"""<mujoco>{comp}<asset><mesh name="m" file="{filename.replace(".stl", ".msh")}"/>
    </asset><worldbody><geom type="mesh" mesh="m"/></worldbody></mujoco>"""
  mujoco.MjModel.from_xml_string(xml, assets={key.replace(".stl", ".msh"): data})
  store = A.AssetStore({key.replace(".stl", ".msh"): data}, "")
  assert store.read(filename.replace(".stl", ".msh"), meshdir) == data


# -------------------------------------------------------------------------------- height fields


def _mj_hfield(data, name):
  xml = f"""<mujoco><asset><hfield name="h" file="{name}" size="1 1 1 0.1"/></asset>
    <worldbody><geom type="hfield" hfield="h"/></worldbody></mujoco>"""
  m = mujoco.MjModel.from_xml_string(xml, assets={name: data})
  return m.hfield_nrow[0], m.hfield_ncol[0], m.hfield_data


@pytest.mark.parametrize("kind", sorted(_images()))
def test_hfield_png_matches_mujoco(kind):
  data = _images()[kind]
  nrow, ncol, ref = _mj_hfield(data, f"h{next(_counter)}.png")
  r, c, elev = A.load_hfield(data, "h.png")
  assert (r, c) == (nrow, ncol)
  out = A.normalize_hfield(elev)
  assert out.dtype == np.float64 and out.shape == (r * c,)
  np.testing.assert_array_equal(out.astype(np.float32), ref)
  np.testing.assert_array_equal(out, ref.astype(np.float64))


def test_hfield_png_row_order():
  img = np.array([[0, 50], [100, 200]], dtype=np.uint8)  # top row first in the image
  _, _, elev = A.load_hfield(_png(img), "h.png")
  np.testing.assert_array_equal(elev, [100, 200, 0, 50])  # hfield row 0 = bottom image row


def test_hfield_binary_matches_mujoco():
  arr = np.random.default_rng(1).normal(size=(4, 6)).astype(np.float32)
  data = struct.pack("<2i", 4, 6) + arr.tobytes()
  nrow, ncol, ref = _mj_hfield(data, f"h{next(_counter)}.bin")
  r, c, elev = A.load_hfield(data, "h.bin")
  assert (r, c) == (nrow, ncol) == (4, 6)
  np.testing.assert_array_equal(A.normalize_hfield(elev), ref)
  with pytest.raises(ValueError, match="unexpected file size"):
    A.load_hfield(data[:-4], "h.bin")


@pytest.mark.parametrize(
  "nrow,ncol,elev",
  [
    (2, 3, [1, 2, 3, 4, 5, 7]),
    (3, 2, [0.1, 0.2, 0.3, 0.7, 0.5, 0.4]),
    (2, 2, [3, 3, 3, 3]),
    (2, 2, None),
  ],
)
def test_hfield_inline_matches_mujoco(nrow, ncol, elev):
  attr = f'nrow="{nrow}" ncol="{ncol}"'
  if elev:
    attr += ' elevation="' + " ".join(map(str, elev)) + '"'
  xml = f"""<mujoco><asset><hfield name="h" {attr} size="1 1 1 0.1"/></asset>
    <worldbody><geom type="hfield" hfield="h"/></worldbody></mujoco>"""
  m = mujoco.MjModel.from_xml_string(xml)
  np.testing.assert_array_equal(A.hfield_from_elevation(nrow, ncol, elev), m.hfield_data)


# ------------------------------------------------------------------------------------ textures


def _mj_texture(attr, assets=None):
  xml = f'<mujoco><asset><texture name="t" {attr}/></asset><worldbody/></mujoco>'
  m = mujoco.MjModel.from_xml_string(xml, assets=assets or {})
  return m


@pytest.mark.parametrize("ttype", ["2d", "cube", "skybox"])
@pytest.mark.parametrize("builtin", ["gradient", "checker", "flat"])
@pytest.mark.parametrize("mark", ["none", "edge", "cross", "random"])
def test_builtin_texture_matches_mujoco(ttype, builtin, mark):
  rgb1, rgb2, markrgb = (0.9, 0.35, 0.123), (0.1, 0.77, 0.5), (1.0, 0.2, 0.3)
  for w, h in [(17, 9), (32, 32), (5, 4)]:
    m = _mj_texture(
      f'type="{ttype}" builtin="{builtin}" mark="{mark}" width="{w}" height="{h}" '
      f'rgb1="{" ".join(map(str, rgb1))}" rgb2="{" ".join(map(str, rgb2))}" '
      f'markrgb="{" ".join(map(str, markrgb))}" random="0.3"'
    )
    tw, th, data = A.builtin_texture(ttype, builtin, rgb1, rgb2, mark, markrgb, 0.3, w, h)
    assert (tw, th) == (m.tex_width[0], m.tex_height[0])
    np.testing.assert_array_equal(data, m.tex_data)


def test_textures_are_drawn_and_decoded_once_and_handed_out_read_only():
  """The same builtin texture (arguments as tuples, lists or arrays) and the same PNG bytes give
  the same pixels, which no caller can edit (the next caller gets them too)."""
  args = ("2d", "checker", (0.9, 0.35, 0.1), [0.1, 0.7, 0.5], "edge", np.ones(3), 0.0, 8, 6)
  first = A.builtin_texture(*args)[2]
  expected = first.copy()
  with pytest.raises(ValueError, match="read-only"):
    first[:] = 0
  again = A.builtin_texture(*args[:3], (0.1, 0.7, 0.5), "edge", (1.0, 1.0, 1.0), 0.0, 8, 6)[2]
  assert again is first
  np.testing.assert_array_equal(again, expected)
  assert expected.any()
  data = _images()["rgb"]
  decoded = A.load_texture_file(data, "a.png", 3)[3]
  with pytest.raises(ValueError, match="read-only"):
    decoded[:] = 0
  assert np.shares_memory(A.load_texture_file(data, "b.png", 3)[3], decoded)  # decoded once


def test_builtin_texture_errors():
  with pytest.raises(ValueError, match="3 channels"):
    A.builtin_texture("2d", "flat", width=2, height=2, nchannel=4)
  with pytest.raises(ValueError, match="width"):
    A.builtin_texture("cube", "flat", width=0)


def test_mt19937_64():
  # the 10000th output of std::mt19937_64 with its default seed
  assert int(A._mt19937_64(5489, 10000)[9999]) == 9981545732273789042


@pytest.mark.parametrize("probability", [0.0, 0.01, 0.3, 1.0])
def test_mt19937_64_hits_match_the_draws(probability):
  """The fused draw-and-compare gives the indices where the raw outputs, scaled by 2^-64 (1
  moved just below 1), fall below the probability; over many twists and a partial last one."""
  count = 100 * 312 + 17
  x = A._mt19937_64(42, count).astype(np.float64) / 2.0**64
  x = np.where(x >= 1.0, np.nextafter(1.0, 0.0), x)
  np.testing.assert_array_equal(
    A._mt19937_64_hits(42, count, probability), np.flatnonzero(x < probability)
  )


def _interp_reference(rgb1, rgb2, pos):
  """assets._interp in numpy (MuJoCo's sigmoid blend of two colors at pos in (-1, 1)): the form
  the jitted one replaced."""
  correction = 1.0 / math.sqrt(2)
  alpha = 0.5 * (1 + pos / np.sqrt(1 + pos * pos) / correction)
  alpha = np.clip(alpha, 0.0, 1.0)
  out = np.empty(alpha.shape + (3,), dtype=np.uint8)
  for j in range(3):
    out[..., j] = np.trunc(255 * (alpha * float(rgb1[j]) + (1 - alpha) * float(rgb2[j])))
  return out


@pytest.mark.parametrize(
  "rgb1,rgb2",
  [
    ((0.9, 0.35, 0.123), (0.1, 0.77, 0.5)),
    ((0.0, 1.0, 0.5), (1.0, 0.0, 0.25)),
    ((2.0, -1.0, 1e10), (-3e9, 1.5, 0.999)),
  ],
)
def test_jitted_gradient_blend_equals_numpy(rgb1, rgb2):
  """The jitted blend of gradient textures is the numpy reference byte for byte: positions
  across and beyond (-1, 1), infinities and nan (a one-pixel gradient divides 0 by 0), colors
  outside [0, 1] (numpy's cast keeps the low byte; nan and out-of-int32 values give 0)."""
  rng = np.random.default_rng(0)
  pos = np.concatenate(
    [
      [np.nan, np.inf, -np.inf, 0.0, -0.0],
      rng.uniform(-1, 1, 5000),
      rng.normal(0, 10, 2000),
      np.linspace(-1.5, 1.5, 995),
    ]
  ).reshape(80, 100)
  with np.errstate(invalid="ignore"):
    want = _interp_reference(rgb1, rgb2, pos)
  np.testing.assert_array_equal(A._interp(rgb1, rgb2, pos), want)
  out = np.zeros((80, 100, 3), np.uint8)
  A._interp(rgb1, rgb2, pos, out)
  np.testing.assert_array_equal(out, want)


def test_suite_skybox_matches_mujoco():
  """The suite's 800x800 gradient skybox with random marks (3.84 million draws) is MuJoCo's."""
  attr = (
    'type="skybox" builtin="gradient" rgb1=".4 .6 .8" rgb2="0 0 0" width="800" '
    'height="800" mark="random" markrgb="1 1 1"'
  )
  m = _mj_texture(attr)
  tw, th, data = A.builtin_texture(
    "skybox", "gradient", (0.4, 0.6, 0.8), (0, 0, 0), "random", (1, 1, 1), 0.01, 800, 800
  )
  assert (tw, th) == (m.tex_width[0], m.tex_height[0])
  np.testing.assert_array_equal(data, m.tex_data)


@pytest.mark.parametrize("kind", ["grey", "rgb", "rgba", "grey_alpha", "grey16", "palette"])
@pytest.mark.parametrize("nchannel,flip", [(1, ""), (3, ""), (4, ""), (3, "hflip"), (3, "vflip")])
def test_png_texture_matches_mujoco(kind, nchannel, flip):
  data = _images()[kind]
  name = f"t{next(_counter)}.png"
  attr = f'type="2d" file="{name}" nchannel="{nchannel}"' + (f' {flip}="true"' if flip else "")
  m = _mj_texture(attr, {name: data})
  w, h, nc, out, srgb = A.load_texture_file(data, name, nchannel, flip == "hflip", flip == "vflip")
  assert (w, h, nc) == (m.tex_width[0], m.tex_height[0], m.tex_nchannel[0])
  np.testing.assert_array_equal(out, m.tex_data)
  assert m.tex_colorspace[0] == (
    mujoco.mjtColorSpace.mjCOLORSPACE_SRGB if srgb else mujoco.mjtColorSpace.mjCOLORSPACE_LINEAR
  )
  if not flip:
    np.testing.assert_array_equal(A.load_texture_png(data, nchannel)[3], m.tex_data)


def test_png_srgb_colorspace():
  base = _images()["rgb"]
  for data, srgb in [
    (_with_chunk(base, b"sRGB", b"\x00"), True),
    (_with_chunk(base, b"gAMA", struct.pack(">I", 45455)), False),
    (base, False),
  ]:
    name = f"t{next(_counter)}.png"
    m = _mj_texture(f'type="2d" file="{name}"', {name: data})
    assert A.png_is_srgb(data) == srgb
    assert m.tex_colorspace[0] == (2 if srgb else 1)


def test_non_png_texture_is_rejected_like_mujoco():
  data = struct.pack("<2i", 5, 3) + bytes(45)  # MuJoCo's former custom format
  with pytest.raises(ValueError, match="unsupported content type"):
    _mj_texture('type="2d" file="t.bin"', {"t.bin": data})
  with pytest.raises(ValueError, match="unsupported content type"):
    A.load_texture_file(data, "t.bin")


@pytest.mark.parametrize("layout", [".U..LFRB.D..", "RLUDFB......", "..U.LF.B.D.."])
def test_cube_grid_matches_mujoco(layout):
  img = np.random.default_rng(5).integers(0, 256, (12, 16, 3), dtype=np.uint8)
  data = _png(img)
  name = f"g{next(_counter)}.png"
  m = _mj_texture(
    f'type="cube" file="{name}" gridsize="3 4" gridlayout="{layout}" rgb1="0.3 0.6 0.9"',
    {name: data},
  )
  w, h, _, out, _ = A.load_texture_file(data, name)
  tw, th, tex = A.cube_texture_from_grid(out, w, h, (3, 4), layout, (0.3, 0.6, 0.9))
  assert (tw, th) == (m.tex_width[0], m.tex_height[0])
  np.testing.assert_array_equal(tex, m.tex_data)


def test_cube_single_and_separate_match_mujoco():
  rng = np.random.default_rng(6)
  sq = _png(rng.integers(0, 256, (5, 5, 3), dtype=np.uint8))
  name = f"s{next(_counter)}.png"
  m = _mj_texture(f'type="skybox" file="{name}"', {name: sq})
  w, h, _, out, _ = A.load_texture_file(sq, name)
  tw, th, tex = A.cube_texture_from_grid(out, w, h)
  assert (tw, th) == (m.tex_width[0], m.tex_height[0]) == (5, 5)
  np.testing.assert_array_equal(tex, m.tex_data)

  faces = [_png(rng.integers(0, 256, (4, 4, 3), dtype=np.uint8)) for _ in range(6)]
  sides = ["right", "left", "up", "down", "front", "back"]
  for present in [range(6), [0, 2, 5]]:
    names = {i: f"f{next(_counter)}.png" for i in present}
    attr = " ".join(f'file{sides[i]}="{names[i]}"' for i in present)
    m = _mj_texture(f'type="cube" {attr} rgb1="0.1 0.2 0.3"', {names[i]: faces[i] for i in present})
    loaded = [None] * 6
    for i in present:
      w, h, _, out, _ = A.load_texture_file(faces[i], names[i])
      loaded[i] = (w, h, out)
    tw, th, tex = A.cube_texture_from_faces(loaded, (0.1, 0.2, 0.3))
    assert (tw, th) == (m.tex_width[0], m.tex_height[0])
    np.testing.assert_array_equal(tex, m.tex_data)
