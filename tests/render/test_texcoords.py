"""2D textures on MuJoCo's builtin shapes against mjr_render (MuJoCo 3.17).

MuJoCo's builtin shapes carry texture coordinates (render_context.c since "Add texture
coordinates to primitive shape types"): each box face maps the texture once, spheres and
ellipsoids by longitude and latitude, cylinders around and along, caps and disks across, finite
planes from their -x, +y corner; texrepeat (times the size with texuniform) scales them through
the texture matrix, and infinite planes keep half a texture per unit from the origin. Cube
textures, height fields and meshes without texture coordinates keep object-linear mapping;
meshes with their own use those. Each scene is drawn by MuJoCo and by us (the Pair of
test_gl.py) and compared in RGB.
"""

import mujoco
import numpy as np
import pytest

from engine.render import gl_mesh
from engine.render import gl_renderer as R
from engine.render import gl_resources
from tests.render.test_gl import RGB_TOL
from tests.render.test_gl import Pair

# every test draws as MuJoCo does (mujoco_detail: tests/render/conftest.py)
pytestmark = pytest.mark.usefixtures("opengl", "mujoco_detail")

H, W = 120, 160


def _mad(a, b):
  return float(np.abs(a.astype(int) - b.astype(int)).mean())


def _compare(gl, xml, camera=0, size=(H, W), decorate=None):
  """RGB mean |difference| of our image and MuJoCo's of one scene; decorate(model, scene) adds
  geoms to MuJoCo's scene before both draw it."""
  pair = Pair(gl, xml=xml, camera=camera, size=size)
  try:
    r = pair.renderer
    r.update_scene(pair.md, camera=pair.camera)
    if decorate is not None:
      decorate(pair.mm, r.scene)
    ref = r.render().copy()
    ours = pair.ours(r.scene, "rgb")
  finally:
    pair.close()
  print(f"RGB mean difference {_mad(ours, ref):.4f}")
  assert (ref.max(-1) > 8).mean() > 0.02, "the scene shows nothing"
  return _mad(ours, ref), ref, ours


# a high-contrast checker with edge marks: any shift or stretch of the texture shows
CHECKER = """
    <texture name="c" type="2d" builtin="checker" rgb1="0.9 0.9 0.9" rgb2="0.4 0.1 0.6"
             width="64" height="64" mark="edge" markrgb="0.1 0.8 0.1"/>
"""

# one textured shape, seen obliquely (camera 0) and from close by (camera 1); the light casts
# no shadow: shadow acne on surfaces facing a directional light differs by a few pixels from
# MuJoCo's with or without textures (the shadow test below has its own light)
SHAPE = """
<mujoco>
  <asset>
    {checker}
    <material name="m" texture="c" texrepeat="{repeat}" texuniform="{uniform}"/>
  </asset>
  <worldbody>
    <light directional="true" pos="0 0 3" dir="0.3 0.2 -1" castshadow="false"/>
    {geom}
    <camera name="oblique" pos="1.6 -1.4 1.2" xyaxes="0.7 0.7 0 -0.35 0.35 0.87"/>
    <camera name="close" pos="0.35 -0.35 0.55" xyaxes="0.7 0.7 0 -0.5 0.5 0.7"/>
  </worldbody>
</mujoco>
"""

SHAPES = {
  "box": '<geom type="box" size="0.3 0.2 0.15" pos="0 0 0.3" euler="0 0 20" material="m"/>',
  "sphere": '<geom type="sphere" size="0.3" pos="0 0 0.3" euler="20 0 30" material="m"/>',
  "cylinder": '<geom type="cylinder" size="0.2 0.3" pos="0 0 0.3" euler="30 0 0" material="m"/>',
  "capsule": '<geom type="capsule" size="0.15 0.25" pos="0 0 0.3" euler="30 0 0" material="m"/>',
  "ellipsoid": '<geom type="ellipsoid" size="0.3 0.2 0.15" pos="0 0 0.3" material="m"/>',
  "plane": '<geom type="plane" size="0.6 0.4 0.1" material="m"/>',
  "infinite_plane": '<geom type="plane" size="0 0 1" material="m"/>',
}

MATERIALS = [("2 2", "false"), ("2 2", "true"), ("1.3 2.6", "true"), ("0.7 3", "false")]


# measured on Mesa llvmpipe at 160x120 (MuJoCo 3.17): at most 0.0003 for every shape, material
# and camera; before the shapes had texture coordinates (object-linear mapping on all of them)
# the oblique / close views differed by 1.0 / 37 (box), 3.2 / 39 (sphere), 2.7 / 9.4
# (cylinder), 1.0 / 5.6 (capsule), 1.6 / 31 (ellipsoid), 12.8 / 17 (infinite plane)
@pytest.mark.parametrize("material", MATERIALS, ids=lambda m: f"{m[0]}-uniform={m[1]}")
@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("camera", [0, 1], ids=["oblique", "close"])
def test_textured_shapes_match_mujoco(gl, shape, material, camera):
  xml = SHAPE.format(checker=CHECKER, repeat=material[0], uniform=material[1], geom=SHAPES[shape])
  mad, _, _ = _compare(gl, xml, camera)
  assert mad < RGB_TOL, mad


def test_box_faces_each_show_the_checker(gl):
  """The bug this file guards against: object-linear mapping makes the texture constant across
  a box's side faces (one flat colour); with texture coordinates each face shows the checker."""
  xml = SHAPE.format(checker=CHECKER, repeat="2 2", uniform="false", geom=SHAPES["box"])
  _, ref, ours = _compare(gl, xml, camera=0)
  # the side faces: the lower part of the box, below its top face
  rows = ours[55:70, 50:110].reshape(-1, 3).astype(int)
  lit = rows[rows.sum(1) > 30]
  assert len(lit) > 100
  assert lit.std(0).max() > 20, "a side face is a single colour"
  np.testing.assert_array_equal(ours, ref)


# every textured shape in one scene, at different sizes, on a reflective textured infinite
# floor that receives their shadows; the light shines along the cameras' views
SCENE = """
<mujoco>
  <visual><quality shadowsize="1024"/></visual>
  <asset>
    {checker}
    <material name="floor" texture="c" texrepeat="3 3" reflectance="0.3"/>
    <material name="m" texture="c" texrepeat="2 1" texuniform="{uniform}"/>
    <material name="tiny" texture="c" texrepeat="1 1" texuniform="{uniform}"/>
  </asset>
  <worldbody>
    <light directional="true" pos="0 0 3" dir="0 -0.3 -1" castshadow="true"/>
    <geom type="plane" size="0 0 1" material="floor"/>
    <geom type="plane" size="0.3 0.2 0.1" pos="0.9 0.6 0.4" euler="-40 0 0" material="m"/>
    <geom type="box" size="0.2 0.1 0.15" pos="-0.7 0 0.3" euler="10 20 30" material="m"/>
    <geom type="sphere" size="0.18" pos="-0.2 0.2 0.35" euler="40 10 0" material="m"/>
    <geom type="cylinder" size="0.1 0.2" pos="0.3 -0.1 0.3" euler="0 60 20" material="m"/>
    <geom type="capsule" size="0.07 0.15" pos="0.6 0.3 0.3" euler="30 0 0" material="m"/>
    <geom type="ellipsoid" size="0.25 0.1 0.12" pos="0 -0.5 0.3" material="m"/>
    <geom type="box" size="0.03 0.02 0.04" pos="-0.4 -0.6 0.1" material="tiny"/>
    <geom type="sphere" size="0.03" pos="-0.3 -0.6 0.1" material="tiny"/>
    <camera name="oblique" pos="0 -2.2 1.4" xyaxes="1 0 0 0 0.55 0.83"/>
    <camera name="low" pos="1.5 -1.2 0.35" xyaxes="0.62 0.78 0 -0.1 0.08 0.99"/>
  </worldbody>
</mujoco>
"""


# measured: at most 0.006 (reflection and shadows on the floor included); before 7-13
@pytest.mark.parametrize("uniform", ["false", "true"])
@pytest.mark.parametrize("camera", [0, 1], ids=["oblique", "low"])
def test_textured_scene_with_reflection_and_shadows_matches_mujoco(gl, uniform, camera):
  mad, _, _ = _compare(gl, SCENE.format(checker=CHECKER, uniform=uniform), camera)
  assert mad < RGB_TOL, mad


def _add_geom(model, scn, type_, size, pos, euler, texrepeat=(2, 2), texuniform=0):
  """A decoration with the model's material 0 (and its texture) added to the scene."""
  mat = np.zeros(9)
  quat = np.zeros(4)
  mujoco.mju_euler2Quat(quat, np.radians(euler), "xyz")
  mujoco.mju_quat2Mat(mat, quat)
  g = scn.geoms[scn.ngeom]
  mujoco.mjv_initGeom(g, type_, np.asarray(size, float), np.asarray(pos, float), mat, np.ones(4))
  g.matid = 0
  g.texid = int(model.mat_texid[0, mujoco.mjtTextureRole.mjTEXROLE_RGB])
  g.texrepeat[:] = texrepeat
  g.texuniform = texuniform
  g.category = mujoco.mjtCatBit.mjCAT_DECOR
  scn.ngeom += 1


DECOR = """
<mujoco>
  <asset>
    {checker}
    <material name="m" texture="c"/>
  </asset>
  <worldbody>
    <light directional="true" pos="0 0 3" dir="0.3 0.2 -1" castshadow="false"/>
    <camera name="oblique" pos="0.8 -0.95 0.65" xyaxes="0.77 0.64 0 -0.3 0.36 0.88"/>
  </worldbody>
</mujoco>
"""


DECORATIONS = {
  # type, size, euler, texrepeat
  "arrow": (mujoco.mjtGeom.mjGEOM_ARROW, (0.08, 0.08, 0.7), (0, 80, 20), (2, 3)),
  "arrow1": (mujoco.mjtGeom.mjGEOM_ARROW1, (0.08, 0.08, 0.6), (-70, 10, 0), (1, 1)),
  "arrow2": (mujoco.mjtGeom.mjGEOM_ARROW2, (0.08, 0.08, 0.7), (30, 90, 0), (2, 2)),
  "triangle": (mujoco.mjtGeom.mjGEOM_TRIANGLE, (0.5, 0.4, 0), (20, 0, 10), (3, 2)),
  "triangle_back": (mujoco.mjtGeom.mjGEOM_TRIANGLE, (0.5, 0.4, 0), (-120, 0, 0), (1, 1)),
}


# measured: 0.0000; before (object-linear mapping, and triangles culled from behind): arrow
# 1.4-2.5, arrow1 0.7-0.8, arrow2 2.2-3.5, triangle 2.4-2.7, from behind 0.9-1.2
@pytest.mark.parametrize("uniform", [0, 1])
@pytest.mark.parametrize("name", list(DECORATIONS))
def test_textured_arrows_and_triangles_match_mujoco(gl, name, uniform):
  """Arrows (cylinder, cones and their base disks) and triangles (two-sided), which only
  decorations are: added to the scene with a textured material."""
  type_, size, euler, texrepeat = DECORATIONS[name]

  def decorate(model, scn):
    _add_geom(model, scn, type_, size, (0, 0, 0), euler, texrepeat, uniform)

  mad, _, _ = _compare(gl, DECOR.format(checker=CHECKER), decorate=decorate)
  assert mad < RGB_TOL, mad


# what keeps object-linear mapping or its own coordinates: cube textures (with and without
# texuniform), meshes with texture coordinates (texrepeat scales them too), meshes without them
# and height fields with a 2D texture
OTHERS = """
<mujoco>
  <asset>
    {checker}
    <texture name="cube" type="cube" builtin="checker" rgb1="0.9 0.5 0.2" rgb2="0.2 0.5 0.9"
             width="32" height="32" mark="cross" markrgb="1 1 1"/>
    <material name="cube" texture="cube" texuniform="false"/>
    <material name="cube_uniform" texture="cube" texuniform="true"/>
    <material name="m" texture="c" texrepeat="{repeat}"/>
    <mesh name="quad" vertex="0 0 0  1 0 0  1 1 0  0 1 0  0.5 0.5 0.3"
          texcoord="0 0  1 0  1 1  0 1  0.5 0.5" face="0 1 4  1 2 4  2 3 4  3 0 4"/>
    <mesh name="tetra" vertex="0 0 0  0.5 0 0  0 0.5 0  0 0 0.5"/>
    <hfield name="terrain" nrow="4" ncol="5" size="0.5 0.4 0.2 0.05"
            elevation="0 0.2 0.4 0.2 0  0.1 0.5 1 0.5 0.1  0 0.3 0.6 0.3 0  0 0 0.2 0 0"/>
  </asset>
  <worldbody>
    <light directional="true" pos="0 0 3" dir="0.3 0.2 -1" castshadow="false"/>
    <geom type="box" size="0.3 0.2 0.15" pos="-0.6 0.5 0.2" euler="0 0 20" material="cube"/>
    <geom type="sphere" size="0.2" pos="0.6 0.6 0.2" material="cube_uniform"/>
    <geom type="box" size="0.2 0.3 0.1" pos="0.1 0.8 0.2" material="cube_uniform"/>
    <geom type="mesh" mesh="quad" material="m" pos="-0.9 -0.5 0.1"/>
    <geom type="mesh" mesh="tetra" material="m" pos="0.5 -0.4 0" euler="0 0 30"/>
    <geom type="hfield" hfield="terrain" material="m" pos="-0.1 -0.1 0"/>
    <camera name="oblique" pos="0 -2.4 1.6" xyaxes="1 0 0 0 0.55 0.83"/>
  </worldbody>
</mujoco>
"""


# measured: at most 0.0002; before 8.7 with texrepeat 2 3 (texrepeat did not scale a mesh's own
# coordinates, object-linear mapping was anchored at the geom's corner instead of its origin)
@pytest.mark.parametrize("repeat", ["1 1", "2 3"])
def test_cube_textures_meshes_and_height_fields_match_mujoco(gl, repeat):
  mad, _, _ = _compare(gl, OTHERS.format(checker=CHECKER, repeat=repeat))
  assert mad < RGB_TOL, mad


# ---- the render shortcuts ----


@pytest.mark.parametrize("size", [(84, 84), (240, 320)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_shortcuts_keep_textures_close_to_mujoco(gl, monkeypatch, size):
  """Fewer facets for small shapes and a tiled floor: the same bound as test_gl.py's shortcut
  test (measured 1.08 at 84x84, 0.14 at 240x320;
  the same scene untextured: 0.95, 0.14)."""
  monkeypatch.setattr(R, "SHADOW_TEXELS_PER_PIXEL", 4)
  monkeypatch.setattr(R, "DETAIL_PIXELS", (16.0, 4.0))
  monkeypatch.setattr(gl_resources, "SMALL_IMAGE", 128)
  mad, _, _ = _compare(gl, SCENE.format(checker=CHECKER, uniform="true"), size=size)
  print(f"{size}: RGB {mad:.3f}")
  assert mad < 2.0, mad


def _sphere_uv(v, centre=0.0):
  """Longitude / 2 pi (in [0, 1)) and latitude from the top pole (0) to the bottom one (1)."""
  x, y, z = v[:, 0], v[:, 1], v[:, 2] - centre
  u = np.mod(np.arctan2(y, x) / (2 * np.pi), 1.0)
  return u, 0.5 - np.arcsin(np.clip(z, -1, 1)) / np.pi


def _same_u(a, b):
  """Equal azimuth fractions, 0 and 1 being the same seam."""
  d = np.abs(a - b)
  return np.minimum(d, 1 - d) < 1e-5


@pytest.mark.parametrize("nslice, nstack", [(32, 16), (16, 8), (8, 4)])
def test_builtin_texcoords_follow_the_surface_at_every_detail(nslice, nstack):
  """Texture coordinates are a function of the point on the shape, whatever the tessellation:
  the reduced-detail shapes of the render shortcuts show the texture where MuJoCo's do."""
  for b in gl_mesh.sphere(nslice, nstack):
    u, v = _sphere_uv(b.vert)
    pole = np.abs(b.vert[:, 2]) > 1 - 1e-6  # the poles' u is the middle of their slice
    assert _same_u(u, b.texcoord[:, 0])[~pole].all()
    np.testing.assert_allclose(b.texcoord[:, 1], v, atol=1e-5)
  for sign in (-1, 1):
    for b in gl_mesh.half_sphere(sign, nslice, nstack // 2):
      u, v = _sphere_uv(b.vert, centre=sign)
      pole = np.abs(b.vert[:, 2] - sign) > 1 - 1e-6
      assert _same_u(u, b.texcoord[:, 0])[~pole].all()
      # v runs 0 to 1 from the equator to the pole; the top cap mirrored
      expect = 2 * np.abs(v - 0.5)
      np.testing.assert_allclose(b.texcoord[:, 1], 1 - expect if sign > 0 else expect, atol=1e-5)
  for b in gl_mesh.cylinder(nslice, nstack):
    u, _ = _sphere_uv(b.vert)
    assert _same_u(u, b.texcoord[:, 0]).all()
    np.testing.assert_allclose(b.texcoord[:, 1], (1 - b.vert[:, 2]) / 2, atol=1e-6)
  for sign in (-1, 0, 1):
    for b in gl_mesh.disk(sign, nslice, nstack // 2):
      np.testing.assert_allclose(b.texcoord, 0.5 + 0.5 * b.vert[:, :2], atol=1e-6)
  cone = gl_mesh.cone(nslice, nstack)
  for b in cone:
    radius = np.hypot(b.vert[:, 0], b.vert[:, 1])
    np.testing.assert_allclose(b.texcoord[:, 1], radius, atol=1e-6)
    np.testing.assert_allclose(b.texcoord[:, 1], 1 - b.vert[:, 2], atol=1e-6)


@pytest.mark.parametrize("numquads", [1, 2, 4])
def test_box_faces_map_the_texture_once_at_every_detail(numquads):
  """Each face: u along its first axis (x; y on the +-x faces), v down its second, [0, 1]."""
  (b,) = gl_mesh.box(numquads)
  assert len(b.vert) == 6 * 4 * numquads**2
  for axis in range(3):
    on = np.abs(b.normal[:, axis]) == 1
    first, second = [k for k in range(3) if k != axis]
    np.testing.assert_allclose(b.texcoord[on, 0], (b.vert[on, first] + 1) / 2, atol=1e-6)
    np.testing.assert_allclose(b.texcoord[on, 1], (1 - b.vert[on, second]) / 2, atol=1e-6)


@pytest.mark.parametrize("size", [(0.6, 0.4, 0.1), (0, 0, 1), (2.5, 0, 0.2)])
def test_plane_tiles_carry_the_planes_texture_coordinates(size):
  """The tiles and the outline of a plane (render shortcuts) have the texture coordinates of
  MuJoCo's single grid: a finite side from its -x / +y edge, an infinite one from the origin."""
  gx, gy = gl_mesh.plane_grid_lines(np.array(size), 0, (2.0, 3.0), zfar=50.0)
  gu, gv = gl_mesh.plane_texcoord_lines(np.array(size), gx, gy)

  def expect(vert):
    x, y = vert[:, 0].astype(float), vert[:, 1].astype(float)
    u = (x + size[0]) / (2 * size[0]) if size[0] > 0 else 0.5 * x
    v = 1 - (y + size[1]) / (2 * size[1]) if size[1] > 0 else -0.5 * y
    return np.stack([u, v], -1)

  tiles = gl_mesh.plane_tiles(gx, gy, gu, gv)
  assert len(tiles) > 1 or min(len(gx), len(gy)) <= gl_mesh.PLANE_TILE_CELLS + 1
  batches = [b for tile, _ in tiles for b in tile] + gl_mesh.plane_outline(gx, gy, gu, gv)
  for b in batches:
    np.testing.assert_allclose(b.texcoord, expect(b.vert), rtol=1e-6, atol=1e-6)
  (unit,) = gl_mesh.unit_plane(5)
  np.testing.assert_allclose(unit.texcoord[:, 0], (unit.vert[:, 0] + 1) / 2, atol=1e-6)
  np.testing.assert_allclose(unit.texcoord[:, 1], (1 - unit.vert[:, 1]) / 2, atol=1e-6)
