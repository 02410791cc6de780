"""Mesh frames through the whole compiler against MuJoCo (issue 11, "Mesh frames").

MuJoCo moves every mesh into its principal inertia frame (mesh_pos, mesh_quat) and places mesh
geoms and bodies accordingly. Symmetric meshes (equal moments) are the hard case: the axes are
then decided by where MuJoCo's Jacobi iteration stops and how it sorts equal eigenvalues, which
engine.compiler.mesh.mesh_eig3 reproduces. Each model here is compiled by both engines and every
field is compared (tests/engine/test_compiler.py: compare), the mesh-frame fields to 1e-10.
Meshes are our own: inline vertex/face lists, OBJ and STL files written by the tests.
"""

import itertools
import struct

import numpy as np
import pytest

from tests.engine import test_mesh
from tests.engine.test_compiler import POLY_ORDER
from tests.engine.test_compiler import compare

_counter = itertools.count()

# mesh_vert and mesh_normal are float32 in MuJoCo: one float32 rounding apart at most
TOL = {
  k: 1e-10
  for k in (
    "geom_size",
    "geom_aabb",
    "geom_rbound",
    "geom_quat",
    "geom_pos",
    "mesh_quat",
    "mesh_pos",
    "body_iquat",
    "body_ipos",
    "body_inertia",
    "bvh_aabb",
  )
}
TOL.update({k: 3e-7 for k in ("mesh_vert", "mesh_normal")})
# hull vertex numbering differs (tested in test_mesh.py), so does the hull polygon order
SKIP = {"mesh_graph", "mesh_extrema"} | POLY_ORDER


def _box(a, b, c, offset=(0.0, 0.0, 0.0)):
  v = np.array([[x, y, z] for x in (0, a) for y in (0, b) for z in (0, c)], float) + offset
  f = [
    (0, 1, 3),
    (0, 3, 2),
    (4, 6, 7),
    (4, 7, 5),
    (0, 4, 5),
    (0, 5, 1),
    (2, 3, 7),
    (2, 7, 6),
    (0, 2, 6),
    (0, 6, 4),
    (1, 5, 7),
    (1, 7, 3),
  ]
  return v, np.array(f)


def _octahedron():
  v = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
  f = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)]
  return v * 0.4 + [0.3, -0.2, 0.5], np.array(f)


def _prism(n=6, r=0.3, h=0.8):
  """A regular n-gon prism (cylinder-like: two equal moments about the axis)."""
  ang = 2 * np.pi * np.arange(n) / n
  ring = np.c_[r * np.cos(ang), r * np.sin(ang)]
  v = np.concatenate([np.c_[ring, np.zeros(n)], np.c_[ring, np.full(n, h)]])
  f = []
  for i in range(1, n - 1):
    f += [(0, i + 1, i), (n, n + i, n + i + 1)]
  for i in range(n):
    j = (i + 1) % n
    f += [(i, j, j + n), (i, j + n, i + n)]
  return v + [-0.1, 0.2, 0.05], np.array(f)


def _icosphere():
  """A level-2 icosphere (equal moments: every axis choice is a tie)."""
  return test_mesh._icosphere(level=2, r=0.5)


def _tetra():
  v = np.array([[0.1, 0.0, 0.05], [1.2, 0.1, -0.1], [0.3, 0.9, 0.2], [0.2, 0.3, 1.1]])
  return v, np.array([(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)])


def _hull_points(seed=4, n=16):
  rng = np.random.default_rng(seed)
  return rng.normal(size=(n, 3)) * [0.5, 0.3, 0.2] + [1.0, -0.5, 0.3]


SHAPES = {
  "cube": lambda: _box(0.6, 0.6, 0.6, (0.2, 0.3, -0.1)),
  "box": lambda: _box(0.2, 0.4, 0.6, (-0.3, 0.1, 0.2)),
  "square_prism": lambda: _box(0.3, 0.3, 0.9, (0.5, 0.5, 0.5)),
  "near_cube": lambda: _box(0.5, 0.5 * (1 + 3e-7), 0.5 * (1 + 1e-6), (0.1, 0.0, 0.0)),
  "octahedron": _octahedron,
  "hex_prism": _prism,
  "icosphere": _icosphere,
  "tetra": _tetra,
}


def _fmt(a):
  return " ".join("%.9g" % x for x in np.ravel(a))


def _stl(v, f):
  b = bytearray(80) + struct.pack("<i", len(f))
  for tri in f:
    b += struct.pack("<3f", 0, 0, 0)
    for i in tri:
      b += struct.pack("<3f", *v[i])
    b += b"\0\0"
  return bytes(b)


def _obj(v, f):
  s = "".join("v %.9g %.9g %.9g\n" % tuple(x) for x in v)
  s += "".join("f %d %d %d\n" % tuple(i + 1 for i in tri) for tri in f)
  return s.encode()


def _model(meshattr, geomattr="", body=""):
  return f"""<mujoco>
  <asset><mesh name="m" {meshattr}/></asset>
  <worldbody>
    <body pos="0.1 0.2 0.3" {body}>
      <freejoint/>
      <geom type="mesh" mesh="m" {geomattr}/>
    </body>
  </worldbody>
</mujoco>"""


def _check(xml, assets=None, skip=(), bitwise=False):
  """Compares the compiled models; bitwise: the mesh frame to the last bit.

  Bitwise holds whenever the triangles are given (our hull orders its triangles differently
  from qhull, which changes the rounding of inertia="convex" and of vertex-only meshes).
  """
  mjm, c = compare(xml=xml, assets=assets, tol=TOL, skip=SKIP | set(skip))
  if bitwise:
    for name in ("mesh_quat", "mesh_pos", "mesh_vert", "body_iquat", "geom_quat"):
      np.testing.assert_array_equal(c.arrays[name], getattr(mjm, name), err_msg=name)


@pytest.mark.parametrize("inertia", ["legacy", "exact", "convex", "shell"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_inline_mesh_frame(shape, inertia):
  v, f = SHAPES[shape]()
  _check(
    _model(f'vertex="{_fmt(v)}" face="{_fmt(f)}" inertia="{inertia}"'), bitwise=inertia != "convex"
  )


@pytest.mark.parametrize(
  "scale",
  ["2 0.5 1.5", "3 -2 1", "-1 -1 -1", "0.004 0.004 0.004", "0.002 0.0021 0.0019", "40 40 40"],
)
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_scaled_mesh_frame(shape, scale):
  v, f = SHAPES[shape]()
  name = f"frame{next(_counter)}.stl"
  _check(_model(f'file="{name}" scale="{scale}"'), {name: _stl(v, f)}, bitwise=True)


@pytest.mark.parametrize("shape", ["cube", "hex_prism", "icosphere", "tetra"])
def test_obj_mesh_frame_with_geom_pose(shape):
  v, f = SHAPES[shape]()
  name = f"frame{next(_counter)}.obj"
  _check(
    _model(f'file="{name}" inertia="exact"', 'pos="0.2 -0.1 0.4" quat="0.9 0.1 -0.3 0.2"'),
    {name: _obj(v, f)},
  )


@pytest.mark.parametrize(
  "attr",
  [
    'refpos="0.1 -0.2 0.3"',
    'refquat="0.8 0.1 -0.4 0.3"',
    'refpos="0.3 0.1 0" refquat="0 1 0 0" scale="1 2 -1"',
  ],
)
@pytest.mark.parametrize("shape", ["box", "octahedron", "tetra"])
def test_reference_frame(shape, attr):
  v, f = SHAPES[shape]()
  _check(_model(f'vertex="{_fmt(v)}" face="{_fmt(f)}" {attr}'))


@pytest.mark.parametrize("inertia", ["legacy", "convex", "shell"])
def test_hull_of_points(inertia):
  """vertex= without faces: the convex hull supplies the faces.

  Our hull lists its triangles in another order than qhull (mesh_face and what follows from it
  are compared as sets in test_mesh.py); the frame must not depend on it beyond rounding.
  """
  _check(
    _model(f'vertex="{_fmt(_hull_points())}" inertia="{inertia}"'),
    skip=("mesh_face", "mesh_facenormal", "bvh_nodeid"),
  )


def test_body_inertia_combines_mesh_frames():
  """A body with several mesh geoms (and a primitive): its principal frame from all of them."""
  xml = f"""<mujoco>
  <asset>
    <mesh name="oct" vertex="{_fmt(_octahedron()[0])}" face="{_fmt(_octahedron()[1])}"/>
    <mesh name="tet" vertex="{_fmt(_tetra()[0])}" face="{_fmt(_tetra()[1])}" scale="0.5 1 2"/>
  </asset>
  <worldbody>
    <body pos="0 0 1">
      <freejoint/>
      <geom type="mesh" mesh="oct" pos="0.3 0 0" euler="10 20 30"/>
      <geom type="mesh" mesh="tet" pos="-0.2 0.1 0" quat="0 1 0 0" density="300"/>
      <geom type="box" size="0.1 0.2 0.05" pos="0 0 0.4"/>
    </body>
  </worldbody>
</mujoco>"""
  _check(xml)
