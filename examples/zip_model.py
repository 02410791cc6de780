"""Loading a model straight out of a zip archive through a resource provider.

Registers a "zip" resource provider (engine.register_resource_provider, MuJoCo's
mjpResourceProvider) that serves the files of an archive, loads the model with
`MjModel.from_xml_path("zip:<model file>")` (its <include>s, meshes and textures are read from
the archive through the same provider, relative to the model file's folder and the compiler's
meshdir/texturedir), steps it, and prints what it did. Without an archive on the command line
it builds one in memory: a body from an included file, an OBJ mesh and a PNG texture.

  python examples/zip_model.py [archive.zip] [--model robot/robot.xml] [--steps 500]
"""

import argparse
import io
import posixpath
import time
import zipfile

import numpy as np

import engine
from engine.compiler import assets

MODEL = """<mujoco model="pyramid drop">
  <compiler meshdir="meshes" texturedir="textures"/>
  <include file="parts/pyramid.xml"/>
  <asset>
    <texture name="grid" type="2d" file="checker.png"/>
    <material name="grid" texture="grid" texrepeat="4 4"/>
    <mesh name="pyramid" file="pyramid.obj"/>
  </asset>
  <worldbody>
    <light pos="0 0 3"/>
    <geom type="plane" size="2 2 .1" material="grid"/>
  </worldbody>
</mujoco>
"""

PYRAMID = """<mujoco>
  <worldbody>
    <body name="pyramid" pos="0 0 .5" euler="20 10 0">
      <freejoint/>
      <geom type="mesh" mesh="pyramid" rgba=".8 .5 .2 1"/>
    </body>
  </worldbody>
</mujoco>
"""

OBJ = """v -.1 -.1 0
v .1 -.1 0
v .1 .1 0
v -.1 .1 0
v 0 0 .15
f 1 3 2
f 1 4 3
f 1 2 5
f 2 3 5
f 3 4 5
f 4 1 5
"""


def _checker_png(size=64):
  from PIL import Image

  tile = (np.indices((size, size)).sum(axis=0) // (size // 2)) % 2
  rgb = np.where(tile[..., None] == 1, [200, 200, 200], [60, 60, 90]).astype(np.uint8)
  buf = io.BytesIO()
  Image.fromarray(rgb).save(buf, format="PNG")
  return buf.getvalue()


def build_zip() -> bytes:
  """An archive holding robot/robot.xml, its include, a mesh and a texture."""
  buf = io.BytesIO()
  with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("robot/robot.xml", MODEL)
    z.writestr("robot/parts/pyramid.xml", PYRAMID)
    z.writestr("robot/meshes/pyramid.obj", OBJ)
    z.writestr("robot/textures/checker.png", _checker_png())
  return buf.getvalue()


class ZipProvider:
  """Serves "zip:<name in the archive>" resources from an open ZipFile.

  Attributes:
    archive: the zipfile.ZipFile read from.
    served: names opened so far, in order.
  """

  def __init__(self, archive: zipfile.ZipFile):
    self.archive = archive
    self.served = []

  def open(self, name):
    # "zip:robot/parts/../meshes/a.obj" -> "robot/meshes/a.obj"; None tells the engine "not here"
    member = posixpath.normpath(name.partition(":")[2])
    try:
      handle = self.archive.open(member)
    except KeyError:
      return None
    self.served.append(name)
    return handle

  def read(self, handle) -> bytes:
    return handle.read()

  def close(self, handle):
    handle.close()


def _model_file(archive, requested):
  if requested:
    return requested
  xml = sorted(
    (n for n in archive.namelist() if n.endswith(".xml")), key=lambda n: (n.count("/"), n)
  )
  if not xml:
    raise SystemExit("no .xml file in the archive")
  return xml[0]


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("archive", nargs="?", help="a zip file (default: one built in memory)")
  parser.add_argument(
    "--model", help="model file inside the archive (default: the shallowest .xml)"
  )
  parser.add_argument("--steps", type=int, default=500)
  args = parser.parse_args(argv)

  if args.archive:
    with open(args.archive, "rb") as f:
      data = f.read()
    print(f"read {args.archive} ({len(data)} bytes)")
  else:
    data = build_zip()
    print(f"built a zip in memory ({len(data)} bytes)")
  archive = zipfile.ZipFile(io.BytesIO(data))
  for info in archive.infolist():
    print(f"  {info.filename:32s} {info.file_size:7d} bytes")

  provider = ZipProvider(archive)
  engine.register_resource_provider("zip", provider.open, provider.read, provider.close)
  try:
    name = "zip:" + _model_file(archive, args.model)
    t0 = time.perf_counter()
    m = engine.MjModel.from_xml_path(name)
    print(
      f"loaded {name} in {time.perf_counter() - t0:.2f} s: nbody={m.nbody} ngeom={m.ngeom} "
      f"nmesh={m.nmesh} ntex={m.ntex}"
    )
    print("files read through the provider:")
    for served in provider.served:
      print(f"  {served}")
  finally:
    assets.unregister_resource_provider("zip")

  d = engine.MjData(m)
  t0 = time.perf_counter()
  engine.mj_step(m, d, nstep=args.steps)
  print(
    f"stepped {args.steps} times ({d.time:.2f} s simulated) in "
    f"{time.perf_counter() - t0:.3f} s; ncon={d.ncon}"
  )
  if m.nq >= 7:
    print(f"first body position: {np.round(d.qpos[:3], 4)}")
  return m, d


if __name__ == "__main__":
  main()
