"""Asset files through the compiler: PNG textures (2D, cube grids, six faces), PNG and binary
height fields, meshes from the assets dict, against MuJoCo."""

import io
import struct

import numpy as np
from PIL import Image

from tests.engine.test_compiler import compare


def _png(w, h, seed, mode="RGB"):
  rng = np.random.default_rng(seed)
  shape = (h, w, 3) if mode == "RGB" else (h, w)
  img = Image.fromarray(rng.integers(0, 256, shape, dtype=np.uint8), mode)
  buf = io.BytesIO()
  img.save(buf, format="PNG")
  return buf.getvalue()


def test_textures_from_png_files():
  assets = {
    "img.png": _png(6, 4, 0),
    "grid.png": _png(12, 9, 1),
    "face.png": _png(5, 5, 2),
    "noext": _png(3, 2, 4),
  }
  xml = """<mujoco>
    <asset>
      <texture name="img" type="2d" file="img.png"/>
      <texture name="flipped" type="2d" file="img.png" hflip="true" vflip="true"/>
      <texture name="rgba" type="2d" file="img.png" nchannel="4"/>
      <texture name="grid" type="cube" file="grid.png" gridsize="3 4"
               gridlayout=".U..LFRB.D.."/>
      <texture name="sky" type="skybox" fileright="face.png" fileup="face.png"
               rgb1="0.1 0.2 0.3"/>
      <texture name="typed" type="2d" file="noext" content_type="image/png"/>
      <material name="m" texture="img"/>
    </asset>
    <worldbody><geom size="1" material="m"/></worldbody>
  </mujoco>"""
  compare(xml=xml, assets=assets)


def test_hfields_from_files():
  nrow, ncol = 3, 5
  data = np.arange(nrow * ncol, dtype="<f4") ** 1.5
  binary = struct.pack("<2i", nrow, ncol) + data.tobytes()
  assets = {"terrain.png": _png(7, 4, 3, mode="L"), "terrain.bin": binary}
  xml = """<mujoco>
    <asset>
      <hfield name="png" file="terrain.png" size="1 2 0.3 0.1"/>
      <hfield name="bin" file="terrain.bin" size="2 1 0.5 0.2"/>
    </asset>
    <worldbody>
      <geom type="hfield" hfield="png"/>
      <geom type="hfield" hfield="bin" pos="3 0 0"/>
    </worldbody>
  </mujoco>"""
  compare(xml=xml, assets=assets)
