"""Oracle tests for engine/ray.py: ray casting against mujoco's mju_rayGeom, mj_rayMesh,
mj_rayHfield and mj_ray on seeded random rays (hits and misses), distances and normals."""

import mujoco
import numpy as np
import pytest

from engine import ray
from tests import jitted
from tests import oracle

ray = jitted.module(ray)

_T = mujoco.mjtGeom
_PRIMITIVES = (
  _T.mjGEOM_PLANE,
  _T.mjGEOM_SPHERE,
  _T.mjGEOM_CAPSULE,
  _T.mjGEOM_ELLIPSOID,
  _T.mjGEOM_CYLINDER,
  _T.mjGEOM_BOX,
)


def _close(got, want, what):
  np.testing.assert_allclose(got, want, rtol=0, atol=1e-9 * max(1.0, abs(want)), err_msg=what)


def _rotation(rng):
  q = rng.normal(size=4)
  q /= np.linalg.norm(q)
  mat = np.zeros(9)
  mujoco.mju_quat2Mat(mat, q)
  return mat


def _random_ray(rng, center, spread, reach, k):
  """A ray from near `center`: aimed at a point around it, or (every 4th) in a random
  direction, with a random length of vec."""
  pnt = center + reach * rng.normal(size=3)
  vec = (center + spread * rng.normal(size=3) - pnt) * rng.uniform(0.2, 3)
  if k % 4 == 0:
    vec = rng.normal(size=3)
  return pnt, vec


@pytest.mark.parametrize("geomtype", _PRIMITIVES)
def test_ray_geom_matches_mujoco(geomtype):
  rng = np.random.default_rng(int(geomtype))
  hits = 0
  for k in range(300):
    # sizes from site-sized zones (1 cm) to a few meters; finite and infinite planes
    scale = 10 ** rng.uniform(-2, 0.5)
    size = scale * rng.uniform(0.2, 1.5, 3)
    if geomtype == _T.mjGEOM_PLANE and k % 3 == 0:
      size[:2] = 0
    pos = rng.normal(size=3)
    mat = _rotation(rng)
    pnt, vec = _random_ray(rng, pos, scale, 3 * scale, k)
    want_n, got_n = np.full(3, np.nan), np.full(3, np.nan)
    want = mujoco.mju_rayGeom(pos, mat, size, pnt, vec, geomtype, want_n)
    got = ray.mju_rayGeom(pos, mat, size, pnt, vec, geomtype, got_n)
    _close(got, want, f"ray {k}")
    np.testing.assert_allclose(got_n, want_n, atol=1e-9, err_msg=f"normal {k}")
    # the kernel without normal agrees
    assert ray.ray_geom(pos, mat, size, pnt, vec, int(geomtype)) == got
    hits += want >= 0
  assert 50 < hits < 250


@pytest.mark.parametrize("geomtype", _PRIMITIVES[1:])
def test_ray_geom_from_inside_hits_the_far_side(geomtype):
  """A ray starting inside a closed primitive hits its surface from within, as in MuJoCo."""
  rng = np.random.default_rng(10 + int(geomtype))
  for k in range(50):
    size = 0.01 * rng.uniform(0.5, 1.5, 3)
    pos, mat = rng.normal(size=3), _rotation(rng)
    pnt = pos + 0.001 * rng.normal(size=3)
    vec = rng.normal(size=3)
    want = mujoco.mju_rayGeom(pos, mat, size, pnt, vec, geomtype)
    assert want > 0
    _close(ray.mju_rayGeom(pos, mat, size, pnt, vec, geomtype), want, f"ray {k}")


def test_ray_geom_edge_cases_match_mujoco():
  eye = np.eye(3).ravel()
  unit = np.array([1.0, 0, 0])
  cases = [
    # tangent to a sphere (zero determinant counts as a hit in 3.17)
    (_T.mjGEOM_SPHERE, unit, [-5, 1, 0], [1, 0, 0]),
    # vec too short for a finite root
    (_T.mjGEOM_SPHERE, unit, [-5, 0, 0], [1e-9, 0, 0]),
    # along a capsule's axis, onto the cap; parallel to a cylinder's side
    (_T.mjGEOM_CAPSULE, np.array([1.0, 2, 0]), [0, 0, 5], [0, 0, -1]),
    (_T.mjGEOM_CYLINDER, np.array([1.0, 2, 0]), [0.5, 0, 5], [0, 0, -1]),
    (_T.mjGEOM_CYLINDER, np.array([1.0, 2, 0]), [5, 0, 0.5], [-1, 0, 0]),
    # box face, edge and corner hits along axes
    (_T.mjGEOM_BOX, np.array([1.0, 2, 3]), [0, 0, 5], [0, 0, -1]),
    (_T.mjGEOM_BOX, np.array([1.0, 2, 3]), [1, 2, 5], [0, 0, -1]),
    (_T.mjGEOM_BOX, np.array([1.0, 2, 3]), [5, 2, 0], [-1, 0, 0]),
    # plane: from behind, parallel, outside its rectangle
    (_T.mjGEOM_PLANE, np.array([1.0, 1, 0]), [0, 0, -1], [0, 0, 1]),
    (_T.mjGEOM_PLANE, np.array([1.0, 1, 0]), [0, 0, 1], [1, 0, 0]),
    (_T.mjGEOM_PLANE, np.array([1.0, 1, 0]), [3, 0, 1], [0, 0, -1]),
  ]
  for geomtype, size, pnt, vec in cases:
    pnt, vec = np.array(pnt, float), np.array(vec, float)
    want_n, got_n = np.zeros(3), np.zeros(3)
    want = mujoco.mju_rayGeom(np.zeros(3), eye, size, pnt, vec, geomtype, want_n)
    got = ray.mju_rayGeom(np.zeros(3), eye, size, pnt, vec, geomtype, got_n)
    assert got == want, (geomtype, pnt, vec)
    np.testing.assert_allclose(got_n, want_n, atol=1e-12)


_MESH_XML = """
<mujoco>
  <asset>
    <mesh name="poly" vertex="0 0 0  1 0.2 0  0.3 1 0.1  0.2 0.3 1.2  0.9 0.8 0.7  -0.3 0.5 0.4"/>
    <mesh name="cube" vertex="0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1"/>
    <mesh name="tent" vertex="-1 -1 0  1 -1 0  1 1 0  -1 1 0  0 0 0.5"
          face="0 2 1  0 3 2  0 1 4  1 2 4  2 3 4  3 0 4"/>
    <hfield name="hf" nrow="4" ncol="6" size="1 0.5 0.3 0.1"
            elevation="0 0.2 0.4 0.1 0 0.3  0.5 0.9 0.3 0.2 0.1 0.7
                       0 0.1 0.8 0.6 0.3 0.2  1 0.4 0.2 0 0.5 0.9"/>
    <hfield name="hf2" nrow="5" ncol="3" size="0.4 1.2 0.5 0.2"
            elevation="0.1 0.2 0.3  0.9 0.8 0.1  0 0.5 1  0.4 0.4 0.4  0.7 0 0.2"/>
  </asset>
  <worldbody>
    <geom name="cube" type="mesh" mesh="cube" pos="-2 0 0" euler="0 0 30"/>
    <geom name="hf" type="hfield" hfield="hf" pos="3 0 0" euler="10 -5 20"/>
    <geom name="hf2" type="hfield" hfield="hf2" pos="0 3 0.5" euler="-20 0 70"/>
    <body pos="0.1 0.2 0.3" euler="10 20 30">
      <freejoint/>
      <geom name="poly" type="mesh" mesh="poly" pos="0.2 0 0" euler="5 0 40"/>
      <geom name="tent" type="mesh" mesh="tent" pos="0 -3 0" euler="0 30 0"/>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.fixture(scope="module")
def mesh_model():
  mjm, mjd, m, d = oracle.load(_MESH_XML)
  oracle.copy_state(mjd, d)
  rng = np.random.default_rng(3)
  mjd.qpos[3:7] = rng.normal(size=4)
  mjd.qpos[3:7] /= np.linalg.norm(mjd.qpos[3:7])
  mujoco.mj_forward(mjm, mjd)
  for name in ("geom_xpos", "geom_xmat", "xipos"):
    getattr(d, name)[...] = getattr(mjd, name)
  return mjm, mjd, m, d


@pytest.mark.parametrize("name", ["cube", "poly", "tent"])
def test_ray_mesh_matches_mujoco(mesh_model, name):
  mjm, mjd, m, d = mesh_model
  g = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_GEOM, name)
  rng = np.random.default_rng(g)
  hits = 0
  for k in range(400):
    pnt, vec = _random_ray(rng, mjd.geom_xpos[g], 0.6, 2.0, k)
    want_n, got_n = np.full(3, np.nan), np.full(3, np.nan)
    want = mujoco.mj_rayMesh(mjm, mjd, g, pnt, vec, want_n)
    got = ray.mj_rayMesh(m, d, g, pnt, vec, got_n)
    _close(got, want, f"ray {k}")
    np.testing.assert_allclose(got_n, want_n, atol=1e-9, err_msg=f"normal {k}")
    hits += want >= 0
  assert 80 < hits < 350


@pytest.mark.parametrize("name", ["hf", "hf2"])
def test_ray_hfield_matches_mujoco(mesh_model, name):
  mjm, mjd, m, d = mesh_model
  g = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_GEOM, name)
  rng = np.random.default_rng(g)
  hits = 0
  for k in range(400):
    pnt, vec = _random_ray(rng, mjd.geom_xpos[g], 0.6, 2.0, k)
    want_n, got_n = np.full(3, np.nan), np.full(3, np.nan)
    want = mujoco.mj_rayHfield(mjm, mjd, g, pnt, vec, want_n)
    got = ray.mj_rayHfield(m, d, g, pnt, vec, got_n)
    _close(got, want, f"ray {k}")
    np.testing.assert_allclose(got_n, want_n, atol=1e-9, err_msg=f"normal {k}")
    hits += want >= 0
  assert 80 < hits < 350


@pytest.mark.parametrize("name", ["hf", "hf2"])
def test_ray_hfield_side_walls_match_mujoco(mesh_model, name):
  """Rays parallel to the height field's base plane hit its side walls (nrow != ncol)."""
  mjm, mjd, m, d = mesh_model
  g = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_GEOM, name)
  size = mjm.hfield_size[mjm.geom_dataid[g]]
  xmat, xpos = mjd.geom_xmat[g].reshape(3, 3), mjd.geom_xpos[g]
  rng = np.random.default_rng(20 + g)
  walls = 0
  for k in range(400):
    side, z = k % 4, rng.uniform(0, size[2])
    out = np.array([3.0, 3.0])
    if side < 2:
      lp = [out[0] * (1 if side else -1), rng.uniform(-1.2, 1.2) * size[1], z]
      lv = [-1 if side else 1, 0.2 * rng.normal(), 0]
    else:
      lp = [rng.uniform(-1.2, 1.2) * size[0], out[1] * (1 if side == 3 else -1), z]
      lv = [0.2 * rng.normal(), -1 if side == 3 else 1, 0]
    pnt, vec = xpos + xmat @ lp, xmat @ lv
    want_n, got_n = np.zeros(3), np.zeros(3)
    want = mujoco.mj_rayHfield(mjm, mjd, g, pnt, vec, want_n)
    got = ray.mj_rayHfield(m, d, g, pnt, vec, got_n)
    _close(got, want, f"ray {k}")
    np.testing.assert_allclose(got_n, want_n, atol=1e-9, err_msg=f"normal {k}")
    walls += want >= 0 and abs((xmat.T @ want_n)[2]) < 1e-12
  assert walls > 50


def test_ray_mesh_and_hfield_reject_other_geoms(mesh_model):
  mjm, mjd, m, d = mesh_model
  with pytest.raises(ValueError):
    ray.mj_rayMesh(m, d, 1, np.zeros(3), np.ones(3))
  with pytest.raises(ValueError):
    ray.mj_rayHfield(m, d, 0, np.zeros(3), np.ones(3))


_SCENE_XML = """
<mujoco>
  <asset>
    <material name="clear" rgba="1 1 1 0"/>
    <material name="solid" rgba="1 1 1 0.5"/>
    <mesh name="poly" vertex="0 0 0  1 0.2 0  0.3 1 0.1  0.2 0.3 1.2  0.9 0.8 0.7  -0.3 0.5 0.4"/>
    <hfield name="hf" nrow="4" ncol="5" size="1.5 1 0.4 0.1"
            elevation="0 0.2 0.4 0.1 0  0.5 0.9 0.3 0.2 0.1  0 0.1 0.8 0.6 0.3  1 0.4 0.2 0 0.5"/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="4 4 0.1" pos="0 0 -1"/>
    <geom name="wall" type="box" size="0.1 2 1" pos="2.5 0 0"/>
    <geom name="terrain" type="hfield" hfield="hf" pos="-2.5 0 -0.9"/>
    <geom name="ghost" type="sphere" size="0.4" pos="0 2 0" rgba="1 0 0 0"/>
    <geom name="glass" type="sphere" size="0.4" pos="0 -2 0" material="clear" rgba="1 0 0 1"/>
    <geom name="tinted" type="sphere" size="0.3" pos="1 -2 0" material="solid" rgba="1 0 0 0"/>
    <body name="a" pos="0 0 0.5">
      <freejoint/>
      <geom name="ball" type="sphere" size="0.3" group="1"/>
      <geom name="rod" type="capsule" size="0.1 0.4" pos="0.5 0 0" group="2"/>
      <site name="sa" pos="0 0 0.35"/>
      <body name="b" pos="0 0.8 0">
        <joint type="hinge" axis="1 0 0"/>
        <geom name="can" type="cylinder" size="0.2 0.3" group="3"/>
        <geom name="egg" type="ellipsoid" size="0.2 0.3 0.4" pos="0 0.5 0" group="7"/>
        <geom name="poly" type="mesh" mesh="poly" pos="0 -0.5 0.5" group="4"/>
      </body>
    </body>
    <body name="c" pos="0.5 0.5 -0.5">
      <geom name="fixed" type="box" size="0.2 0.2 0.2" group="5"/>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.fixture(scope="module")
def scene():
  mjm, mjd, m, d = oracle.load(_SCENE_XML)
  rng = np.random.default_rng(5)
  mjd.qpos[:] = mjm.qpos0 + 0.3 * rng.normal(size=mjm.nq)
  mjd.qpos[3:7] /= np.linalg.norm(mjd.qpos[3:7])
  mujoco.mj_forward(mjm, mjd)
  for name in ("geom_xpos", "geom_xmat", "xipos"):
    getattr(d, name)[...] = getattr(mjd, name)
  return mjm, mjd, m, d


_GROUPS = [
  None,
  np.array([1, 1, 1, 1, 1, 1], np.uint8),
  np.array([1, 0, 1, 0, 1, 1], np.uint8),
  np.array([0, 1, 0, 1, 0, 0], np.uint8),
]


@pytest.mark.parametrize("flg_static", [0, 1])
@pytest.mark.parametrize("bodyexclude", [-1, 0, 1, 2])
@pytest.mark.parametrize("groups", range(len(_GROUPS)))
def test_ray_matches_mujoco(scene, flg_static, bodyexclude, groups):
  mjm, mjd, m, d = scene
  geomgroup = _GROUPS[groups]
  rng = np.random.default_rng(100 * groups + 10 * (bodyexclude + 1) + flg_static)
  seen = set()
  for k in range(150):
    # aimed around a random geom
    pnt, vec = _random_ray(rng, mjd.geom_xpos[rng.integers(mjm.ngeom)], 0.3, 2.5, k)
    want_id, got_id = np.array([-7], np.int32), np.array([-7], np.int32)
    want_n, got_n = np.full(3, np.nan), np.full(3, np.nan)
    want = mujoco.mj_ray(mjm, mjd, pnt, vec, geomgroup, flg_static, bodyexclude, want_id, want_n)
    got = ray.mj_ray(m, d, pnt, vec, geomgroup, flg_static, bodyexclude, got_id, got_n)
    _close(got, want, f"ray {k}")
    assert got_id[0] == want_id[0], f"ray {k}"
    np.testing.assert_allclose(got_n, want_n, atol=1e-9, err_msg=f"normal {k}")
    seen.add(int(want_id[0]))
  # misses and several geoms were hit
  assert -1 in seen and len(seen) >= 2


@pytest.mark.parametrize("flg_static", [0, 1])
@pytest.mark.parametrize("bodyexclude", [-1, 1])
@pytest.mark.parametrize("groups", [0, 2])
def test_multi_ray_matches_mujoco(scene, flg_static, bodyexclude, groups):
  """mj_multiRay culls geoms by the angles their boxes span from the source and bodies by a
  sphere around their tree's root box (at the box's center plus xipos, unrotated, as MuJoCo
  places it): the same hits, misses and normals as MuJoCo's, from sources outside, beside and
  inside geoms, with and without a cutoff."""
  mjm, mjd, m, d = scene
  geomgroup = _GROUPS[groups]
  rng = np.random.default_rng(10 * groups + 2 * (bodyexclude + 1) + flg_static)
  nray = 300
  seen = set()
  for k, spread in enumerate((0.0, 0.4, 1.0, 1.5)):
    cutoff = mujoco.mjMAXVAL if k % 2 == 0 else 1.5
    source = mjd.geom_xpos[rng.integers(mjm.ngeom)] + spread * rng.normal(size=3)
    directions = rng.normal(size=(nray, 3))
    results = []
    for lib, (mm, dd) in ((mujoco, (mjm, mjd)), (ray, (m, d))):
      geomid, dist, normal = np.zeros(nray, np.int32), np.zeros(nray), np.zeros(3 * nray)
      lib.mj_multiRay(
        mm,
        dd,
        source,
        directions.reshape(-1),
        geomgroup,
        flg_static,
        bodyexclude,
        geomid,
        dist,
        normal,
        nray,
        cutoff,
      )
      results.append((geomid, dist, normal))
    (want_id, want, want_n), (got_id, got, got_n) = results
    np.testing.assert_array_equal(got_id, want_id)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    np.testing.assert_allclose(got_n, want_n, rtol=0, atol=1e-9)
    seen.update(want_id.tolist())
  assert -1 in seen and len(seen) >= 3


def test_ray_kernel_and_filters(scene):
  """The numba kernel skips invisible geoms itself (alpha 0 in geom_rgba or in its material),
  with or without a group mask; a mask with every group off hits nothing."""
  mjm, mjd, m, d = scene
  gid = np.zeros(1, np.int32)
  rng = np.random.default_rng(9)
  invisible = {mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_GEOM, n) for n in ("ghost", "glass")}
  tinted = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_GEOM, "tinted")
  hit_tinted = False
  seen = set()
  for k in range(300):
    pnt, vec = _random_ray(rng, mjd.geom_xpos[rng.integers(mjm.ngeom)], 0.3, 2.5, k)
    want_id = np.zeros(1, np.int32)
    want = mujoco.mj_ray(mjm, mjd, pnt, vec, None, 1, -1, want_id)
    for mask in (ray.geom_mask(m), ray.geom_mask(m, np.ones(6, np.uint8))):
      got = ray.ray(m._struct, d._struct, pnt, vec, mask, 1, -1, gid)
      _close(got, want, f"ray {k}")
      assert gid[0] == want_id[0] and gid[0] not in invisible
    hit_tinted |= gid[0] == tinted
    seen.add(int(gid[0]))
    got = ray.ray(
      m._struct, d._struct, pnt, vec, ray.geom_mask(m, np.zeros(6, np.uint8)), 1, -1, gid
    )
    assert got == -1 and gid[0] == -1
  assert hit_tinted and len(seen) >= mjm.ngeom - len(invisible) - 1


def test_mj_ray_arguments(scene):
  mjm, mjd, m, d = scene
  # optional outputs, as in the bindings
  pnt, vec = np.array([0.0, 0, 3]), np.array([0.0, 0, -1])
  assert ray.mj_ray(m, d, pnt, vec, None, 1, -1, None) == mujoco.mj_ray(
    mjm, mjd, pnt, vec, None, 1, -1, None
  )
  with pytest.raises(ValueError):
    ray.mj_ray(m, d, pnt, np.zeros(3), None, 1, -1, None)
  with pytest.raises(ValueError):
    ray.mju_rayGeom(np.zeros(3), np.eye(3).ravel(), np.ones(3), pnt, vec, _T.mjGEOM_MESH)
