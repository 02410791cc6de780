"""Oracle tests of engine/render/visualize.py: the abstract scene against mujoco.mjv_updateScene.

Both engines load the same MJCF; ours is stepped, its state copied into MuJoCo's MjData and
both run mj_forward, so contacts and constraint forces agree. Then both scenes are built with
the same options, camera, perturbation and category mask and compared field by field: counts
and ids exactly, floats to 1e-5 relative (MuJoCo stores them as C floats).
"""

import pathlib

import mujoco
import numpy as np
import pytest

import engine
from engine.render import visualize as vis

ASSETS = pathlib.Path(engine.__file__).resolve().parent.parent / "assets" / "suite"

# every geom type, materials with a builtin texture, sites, lights of each kind, cameras that
# track, a tendon, an actuated hinge and a free ball resting on the floor (contacts)
SCENE_XML = """
<mujoco model="scene">
  <option><flag island="disable"/></option>
  <visual><headlight ambient="0.2 0.2 0.2"/></visual>
  <asset>
    <texture name="grid" type="2d" builtin="checker" rgb1=".1 .2 .3" rgb2=".2 .3 .4"
             width="64" height="64"/>
    <material name="grid" texture="grid" texrepeat="2 2" reflectance=".2"/>
    <material name="red" rgba="1 0 0 1" emission="0.3" specular="0.7" shininess="0.2"/>
    <mesh name="tet" vertex="0 0 0  0.1 0 0  0 0.2 0  0 0 0.3"/>
    <mesh name="textet" vertex="0 0 0  0.1 0 0  0 0.2 0  0 0 0.3" texcoord="0 0 1 0 0 1 1 1"/>
    <hfield name="hf" nrow="3" ncol="3" size="0.5 0.5 0.1 0.05" elevation="0 1 0 1 2 1 0 1 0"/>
  </asset>
  <worldbody>
    <light name="spot" pos="0 0 3" dir="0 0 -1" mode="fixed" castshadow="false"/>
    <light name="dirl" type="directional" pos="1 0 2" dir="0 0.3 -1"/>
    <light name="pt" type="point" pos="0 1 2" attenuation="1 0.1 0"/>
    <light name="off" pos="0 0 3" active="false"/>
    <light name="tracker" pos="0 0 2" mode="trackcom"/>
    <geom name="floor" type="plane" size="0 0 0.1" material="grid"/>
    <geom name="hf" type="hfield" hfield="hf" pos="2 2 0"/>
    <geom name="finite" type="plane" size="1 1 0.1" pos="-3 0 0" rgba=".3 .3 .3 1"/>
    <site name="worldsite" pos="0 0 1" size="0.02"/>
    <camera name="fixedcam" pos="0 -3 1" xyaxes="1 0 0 0 0.3 1"/>
    <camera name="trackcam" mode="trackcom" pos="0 -2 2" xyaxes="1 0 0 0 1 1"/>
    <camera name="target" mode="targetbody" target="ball" pos="1 -2 2"/>
    <body name="ball" pos="0 0 0.3">
      <freejoint/>
      <geom name="ball" type="sphere" size="0.1" material="red"/>
      <site name="s1" pos="0 0 0.1" size="0.02" rgba="0 1 0 1"/>
    </body>
    <body name="arm" pos="1 0 0.5">
      <joint name="hinge" type="hinge" axis="0 1 0" range="-1 1" limited="true"/>
      <geom name="cap" type="capsule" fromto="0 0 0 0.3 0 0" size="0.04" rgba="0.2 0.6 0.2 0.5"/>
      <site name="s2" pos="0.3 0 0" type="box" size="0.02 0.02 0.02" group="3"/>
      <body name="link2" pos="0.3 0 0">
        <joint name="slide" type="slide" axis="1 0 0" range="-0.1 0.1"/>
        <geom name="box" type="box" size="0.05 0.04 0.03" group="1"/>
        <geom name="cyl" type="cylinder" size="0.03 0.05" pos="0 0 0.1"/>
        <geom name="ell" type="ellipsoid" size="0.03 0.04 0.05" pos="0 0.1 0.1"/>
        <geom name="mesh" type="mesh" mesh="tet" pos="0 0 -0.1"/>
        <geom name="texmesh" type="mesh" mesh="textet" material="grid" pos="0 0.1 -0.1"
              contype="0" conaffinity="0"/>
        <geom name="hidden" type="sphere" size="0.02" group="4"/>
        <geom name="invisible" type="sphere" size="0.02" rgba="1 1 1 0"/>
        <site name="s3" pos="0.05 0 0" size="0.01"/>
      </body>
    </body>
    <body name="mocap" mocap="true" pos="-1 0 1">
      <geom type="box" size="0.05 0.05 0.05" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="ten" width="0.01">
      <site site="worldsite"/>
      <site site="s1"/>
    </spatial>
  </tendon>
  <actuator>
    <motor joint="hinge" ctrlrange="-1 1" ctrllimited="true"/>
  </actuator>
</mujoco>
"""

# decorations: cameras with frusta (fovy, orthographic, intrinsics), a hanging (catenary)
# tendon, an actuated tendon, site, ball, slider-crank and body actuators, equalities,
# a rangefinder
DECOR_XML = """
<mujoco model="decor">
  <option><flag island="disable"/></option>
  <visual><global ellipsoidinertia="true"/></visual>
  <asset>
    <material name="red" rgba="1 0 0 1" emission="0.3"/>
    <material name="ten" rgba="0 0 1 1"/>
  </asset>
  <worldbody>
    <light name="spot" pos="0 0 3" dir="0 0 -1" cutoff="30" exponent="5"/>
    <geom name="floor" type="plane" size="0 0 0.1"/>
    <site name="anchor" pos="0 0 1.5" size="0.02"/>
    <site name="anchor2" pos="0.4 0.1 1.4" size="0.02"/>
    <camera name="res" pos="0 -3 1" xyaxes="1 0 0 0 0.3 1" resolution="64 48" fovy="50"/>
    <camera name="ortho" pos="0 -3 1" xyaxes="1 0 0 0 0.3 1" projection="orthographic" fovy="2"
            resolution="32 32"/>
    <camera name="intr" pos="0 -3 2" xyaxes="1 0 0 0 0.6 1" sensorsize="0.01 0.008"
            focal="0.012 0.012" principalpixel="3 -2" resolution="100 80"/>
    <body name="hang" pos="0 0 1.2">
      <freejoint/>
      <geom type="box" size="0.05 0.06 0.07" density="800"/>
      <site name="hook" pos="0 0 0.07" size="0.01"/>
      <site name="ranger" pos="0 0 -0.07" zaxis="0.1 0 -1" size="0.02"/>
    </body>
    <body name="arm" pos="1 0 0.5">
      <joint name="hinge" type="hinge" axis="0 1 0" range="-0.1 0.1"/>
      <geom name="cap" type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/>
      <site name="crank" pos="0.3 0 0" size="0.01"/>
      <body name="link" pos="0.3 0 0">
        <joint name="ball" type="ball"/>
        <geom type="sphere" size="0.05" material="red"/>
        <site name="tip" size="0.02" type="capsule" fromto="0 0 0 0.1 0 0"/>
      </body>
    </body>
    <body name="slider" pos="-1 0 0.5">
      <joint name="slide" type="slide" axis="0 0 1"/>
      <geom type="cylinder" size="0.05 0.05"/>
      <site name="sl" zaxis="1 0 0" size="0.01"/>
    </body>
    <site name="w1" pos="0.6 0.5 1.0" size="0.01"/>
    <site name="w3" pos="0.6 0.8 1.0" size="0.01"/>
    <geom name="wrapball" type="sphere" size="0.08" pos="0.8 0.5 1.02" contype="0"
          conaffinity="0"/>
    <body name="wrapper" pos="1 0.5 1">
      <joint name="wraphinge" type="hinge" axis="0 1 0" damping="1"/>
      <geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.02" contype="0" conaffinity="0"/>
      <site name="w2" pos="0.1 0 0" size="0.01"/>
    </body>
    <body name="welded" pos="-1 1 1">
      <freejoint/>
      <geom type="ellipsoid" size="0.05 0.04 0.03"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="string" limited="true" range="0 0.5" width="0.005">
      <site site="anchor"/>
      <site site="hook"/>
    </spatial>
    <spatial name="slack" limited="true" range="0 0.8" width="0.004" rgba="1 .5 0 1">
      <site site="anchor2"/>
      <site site="hook"/>
    </spatial>
    <spatial name="wrapped" width="0.006">
      <site site="w1"/>
      <geom geom="wrapball"/>
      <site site="w2"/>
      <pulley divisor="2"/>
      <site site="w3"/>
      <site site="w2"/>
    </spatial>
    <spatial name="act" width="0.01" material="ten">
      <site site="crank"/>
      <site site="tip"/>
    </spatial>
  </tendon>
  <equality>
    <connect body1="link" body2="world" anchor="0.1 0 0"/>
    <weld body1="welded" relpose="-1 1 1 1 0 0 0"/>
  </equality>
  <actuator>
    <motor joint="hinge" ctrlrange="-1 1"/>
    <motor joint="ball" gear="0 1 0"/>
    <motor site="tip" gear="1 0 0 0 0 0"/>
    <motor tendon="act" ctrlrange="0 2"/>
    <general cranksite="crank" slidersite="sl" cranklength="1.2"/>
    <adhesion body="welded" ctrlrange="0 1" gain="1"/>
  </actuator>
  <sensor>
    <rangefinder site="ranger"/>
    <fromto geom1="cap" geom2="floor" cutoff="10"/>
  </sensor>
</mujoco>
"""

# a skin of 6 vertices over two bones
SKIN_XML = """
<mujoco model="skin">
  <worldbody>
    <body name="b1" pos="0 0 1">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1"/>
      <body name="b2" pos="0.2 0 0">
        <joint type="hinge" axis="0 1 0"/>
        <geom type="box" size="0.1 0.1 0.1"/>
      </body>
    </body>
  </worldbody>
  <deformable>
    <skin name="sk" rgba="0.8 0.2 0.2 1" inflate="0.01"
          vertex="-0.1 -0.1 0  0.1 -0.1 0  0.3 -0.1 0  -0.1 0.1 0  0.1 0.1 0  0.3 0.1 0"
          face="0 1 4  0 4 3  1 2 5  1 5 4">
      <bone body="b1" bindpos="0 0 -0.15" bindquat="1 0 0 0" vertid="0 1 3 4"
            vertweight="1 0.5 1 0.5"/>
      <bone body="b2" bindpos="-0.2 0 -0.15" bindquat="1 0 0 0" vertid="1 2 4 5"
            vertweight="0.5 1 0.5 1"/>
    </skin>
  </deformable>
</mujoco>
"""

# rangefinders on cameras (one ray per pixel; perspective and orthographic) and on a site, with
# the optional point and normal fields; the rays start in a body so that they see the world
RANGEFINDER_XML = """
<mujoco model="rangefinders">
  <worldbody>
    <geom type="plane" size="0 0 1"/>
    <geom type="sphere" size="0.3" pos="0.2 0 0.3"/>
    <body name="rig" mocap="true" pos="0 0 2">
      <camera name="rf" resolution="4 3" fovy="40"/>
      <camera name="rfo" resolution="3 2" projection="orthographic" fovy="1"/>
    </body>
    <body pos="0.5 0 1"><freejoint/><geom type="box" size=".05 .05 .05"/>
      <site name="s" zaxis="0 0 -1"/></body>
  </worldbody>
  <sensor>
    <rangefinder camera="rf" data="dist point normal"/>
    <rangefinder camera="rfo" data="dist normal"/>
    <rangefinder site="s" data="point normal"/>
  </sensor>
</mujoco>
"""

GEOM_INT_FIELDS = (
  "type",
  "dataid",
  "objtype",
  "objid",
  "category",
  "matid",
  "texid",
  "texuniform",
  "texcoord",
  "segid",
  "transparent",
  "label",
)
GEOM_FLOAT_FIELDS = (
  "size",
  "pos",
  "mat",
  "rgba",
  "emission",
  "specular",
  "shininess",
  "reflectance",
  "texrepeat",
  "camdist",
  "modelrbound",
)
LIGHT_FIELDS = (
  "id",
  "pos",
  "dir",
  "type",
  "texid",
  "attenuation",
  "cutoff",
  "exponent",
  "ambient",
  "diffuse",
  "specular",
  "headlight",
  "castshadow",
  "bulbradius",
  "intensity",
  "range",
  "softness",
)
GLCAMERA_FIELDS = (
  "pos",
  "forward",
  "up",
  "frustum_center",
  "frustum_width",
  "frustum_bottom",
  "frustum_top",
  "frustum_near",
  "frustum_far",
  "orthographic",
)


class Pair:
  """The same model and state in both engines."""

  def __init__(self, xml=None, path=None, nstep=0, ctrl_seed=None):
    if path is not None:
      self.m = engine.MjModel.from_xml_path(str(path))
      self.mm = mujoco.MjModel.from_xml_path(str(path))
    else:
      self.m = engine.MjModel.from_xml_string(xml)
      self.mm = mujoco.MjModel.from_xml_string(xml)
    self.d = engine.MjData(self.m)
    self.md = mujoco.MjData(self.mm)
    if ctrl_seed is not None:
      self.d.ctrl[:] = np.random.default_rng(ctrl_seed).uniform(-1, 1, self.m.nu)
    if nstep:
      engine.mj_step(self.m, self.d, nstep)
    self.md.qpos[:] = self.d.qpos
    self.md.qvel[:] = self.d.qvel
    self.md.act[:] = self.d.act
    self.md.ctrl[:] = self.d.ctrl
    self.md.mocap_pos[:] = self.d.mocap_pos
    self.md.mocap_quat[:] = self.d.mocap_quat
    engine.mj_forward(self.m, self.d)
    mujoco.mj_forward(self.mm, self.md)
    assert self.d.ncon == self.md.ncon

  def scenes(
    self,
    flags=(),
    label=0,
    frame=0,
    setup_cam=None,
    setup_pert=None,
    catmask=int(mujoco.mjtCatBit.mjCAT_ALL),
    maxgeom=2000,
    updates=2,
    groups=None,
  ):
    """Both scenes after `updates` mjv_updateScene calls with the same settings.

    Two updates by default: infinite planes are placed under the previous update's camera.
    """
    opt, mopt = vis.MjvOption(), mujoco.MjvOption()
    for f in flags:
      opt.flags[f] = 1 - opt.flags[f]
      mopt.flags[f] = 1 - mopt.flags[f]
    opt.label = mopt.label = label
    opt.frame = mopt.frame = frame
    for name, value in (groups or {}).items():
      getattr(opt, name)[:] = value
      getattr(mopt, name)[:] = value
    cam, mcam = vis.MjvCamera(), mujoco.MjvCamera()
    vis.mjv_defaultFreeCamera(self.m, cam)
    mujoco.mjv_defaultFreeCamera(self.mm, mcam)
    if setup_cam:
      setup_cam(cam)
      setup_cam(mcam)
    pert, mpert = vis.MjvPerturb(), mujoco.MjvPerturb()
    if setup_pert:
      setup_pert(pert)
      setup_pert(mpert)
    scn = vis.MjvScene(self.m, maxgeom)
    mscn = mujoco.MjvScene(self.mm, maxgeom)
    for _ in range(updates):
      vis.mjv_updateScene(self.m, self.d, opt, pert, cam, catmask, scn)
      mujoco.mjv_updateScene(self.mm, self.md, mopt, mpert, mcam, catmask, mscn)
    np.testing.assert_allclose(cam.lookat, mcam.lookat, rtol=1e-9, atol=1e-12)
    return scn, mscn


def assert_geom_equal(geom, mgeom, where=""):
  for f in GEOM_INT_FIELDS:
    assert getattr(geom, f) == getattr(mgeom, f), f"{where} {f}"
  for f in GEOM_FLOAT_FIELDS:
    np.testing.assert_allclose(
      getattr(geom, f),
      getattr(mgeom, f),
      rtol=1e-5,
      atol=2e-6,
      err_msg=f"{where} {f} (type {mgeom.type})",
    )


def assert_scenes_equal(scn, mscn):
  assert scn.ngeom == mscn.ngeom
  assert scn.status == mscn.status
  for i in range(mscn.ngeom):
    assert_geom_equal(scn.geoms[i], mscn.geoms[i], f"geom {i}")
  assert scn.nlight == mscn.nlight
  for i in range(mscn.nlight):
    for f in LIGHT_FIELDS:
      np.testing.assert_allclose(
        getattr(scn.lights[i], f),
        getattr(mscn.lights[i], f),
        rtol=1e-5,
        atol=1e-6,
        err_msg=f"light {i} {f}",
      )
  for v in range(2):
    for f in GLCAMERA_FIELDS:
      np.testing.assert_allclose(
        getattr(scn.camera[v], f),
        getattr(mscn.camera[v], f),
        rtol=1e-5,
        atol=1e-6,
        err_msg=f"camera {v} {f}",
      )
  assert scn.enabletransform == mscn.enabletransform
  assert scn.nskin == mscn.nskin
  if mscn.nskin:
    np.testing.assert_allclose(scn.skinvert, mscn.skinvert, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(scn.skinnormal, mscn.skinnormal, rtol=1e-5, atol=1e-6)


@pytest.fixture(scope="module")
def scene():
  # the ball falls onto the floor: two contacts after 300 steps
  pair = Pair(SCENE_XML, nstep=300)
  assert pair.d.ncon > 0
  return pair


@pytest.fixture(scope="module")
def decor():
  return Pair(DECOR_XML, nstep=30, ctrl_seed=1)


# ------------------------------------------------------------------------------------------------
# defaults


def test_defaults_match_mujoco():
  opt, mopt = vis.MjvOption(), mujoco.MjvOption()
  for f in (
    "label",
    "frame",
    "bvh_depth",
    "flex_layer",
    "geomgroup",
    "sitegroup",
    "jointgroup",
    "tendongroup",
    "actuatorgroup",
    "flexgroup",
    "skingroup",
    "flags",
  ):
    np.testing.assert_array_equal(getattr(opt, f), getattr(mopt, f), err_msg=f)
  cam, mcam = vis.MjvCamera(), mujoco.MjvCamera()
  for f in (
    "type",
    "fixedcamid",
    "trackbodyid",
    "lookat",
    "distance",
    "azimuth",
    "elevation",
    "orthographic",
  ):
    np.testing.assert_array_equal(getattr(cam, f), getattr(mcam, f), err_msg=f)
  pert, mpert = vis.MjvPerturb(), mujoco.MjvPerturb()
  for f in (
    "select",
    "flexselect",
    "skinselect",
    "active",
    "active2",
    "refpos",
    "refquat",
    "refselpos",
    "localpos",
    "localmass",
    "scale",
  ):
    np.testing.assert_array_equal(getattr(pert, f), getattr(mpert, f), err_msg=f)
  scn, mscn = (
    vis.MjvScene(None, 10),
    mujoco.MjvScene(mujoco.MjModel.from_xml_string("<mujoco/>"), 10),
  )
  for f in (
    "maxgeom",
    "ngeom",
    "nlight",
    "enabletransform",
    "translate",
    "rotate",
    "scale",
    "stereo",
    "flags",
    "framewidth",
    "framergb",
    "status",
    "nskin",
  ):
    np.testing.assert_array_equal(getattr(scn, f), getattr(mscn, f), err_msg=f)
  assert len(scn.geoms) == len(mscn.geoms) == 10
  assert len(scn.lights) == len(mscn.lights) == vis.mjMAXLIGHT
  assert scn.geomorder.shape == mscn.geomorder.shape and scn.geomorder.dtype == np.int32


def test_default_free_camera(scene):
  cam, mcam = vis.MjvCamera(), mujoco.MjvCamera()
  vis.mjv_defaultFreeCamera(scene.m, cam)
  mujoco.mjv_defaultFreeCamera(scene.mm, mcam)
  for f in (
    "type",
    "fixedcamid",
    "trackbodyid",
    "lookat",
    "distance",
    "azimuth",
    "elevation",
    "orthographic",
  ):
    np.testing.assert_allclose(getattr(cam, f), getattr(mcam, f), rtol=1e-12, err_msg=f)


def test_geom_views_share_the_column_store(scene):
  scn, _ = scene.scenes()
  g = scn.geoms[3]
  g.rgba[:] = (0.1, 0.2, 0.3, 0.4)
  g.emission = 0.25
  np.testing.assert_allclose(scn.geom_arrays.rgba[3], (0.1, 0.2, 0.3, 0.4), rtol=1e-7)
  assert g.emission == 0.25 and isinstance(g.type, int) and g.mat.shape == (3, 3)
  with pytest.raises(AttributeError):
    g.colour = 1


# ------------------------------------------------------------------------------------------------
# model elements, options, categories, cameras


def test_default_scene(scene):
  scn, mscn = scene.scenes()
  assert_scenes_equal(scn, mscn)
  # every geom type of the model is in it, group 4 and transparent geoms are not
  types = {scn.geoms[i].type for i in range(scn.ngeom)}
  assert {0, 1, 2, 3, 4, 5, 6, 7} <= types
  assert scn.nlight == 1 + 4  # headlight and the active lights


@pytest.mark.parametrize("flag", [int(f) for f in vis.V if f < vis.V.mjVIS_FLEXVERT])
def test_each_visual_flag(scene, flag):
  assert_scenes_equal(*scene.scenes(flags=(flag,)))


@pytest.mark.parametrize("flags", [(14, 16), (14, 16, 17), (1, 18), (3, 6, 13)])
def test_flag_combinations(scene, flags):
  assert_scenes_equal(*scene.scenes(flags=flags))


@pytest.mark.parametrize("frame", range(1, 8))
def test_frames(scene, frame):
  assert_scenes_equal(*scene.scenes(frame=frame, flags=(3, 6)))


@pytest.mark.parametrize("label", range(1, 16))
def test_labels(scene, label):
  assert_scenes_equal(*scene.scenes(label=label, flags=(2, 3, 4, 6, 10, 14, 16)))


@pytest.mark.parametrize("catmask", range(8))
def test_category_masks(scene, catmask):
  assert_scenes_equal(*scene.scenes(catmask=catmask, flags=(2, 14)))


def test_groups(scene):
  groups = {
    "geomgroup": [0, 1, 0, 0, 1, 0],
    "sitegroup": [0, 0, 0, 1, 0, 0],
    "jointgroup": [0, 0, 0, 0, 0, 0],
    "tendongroup": [0, 0, 0, 0, 0, 0],
    "actuatorgroup": [0, 1, 0, 0, 0, 0],
  }
  assert_scenes_equal(*scene.scenes(groups=groups, flags=(2, 4)))


def _tracking(cam):
  cam.type = mujoco.mjtCamera.mjCAMERA_TRACKING
  cam.trackbodyid = 2
  cam.distance = 1.5
  cam.azimuth = 30
  cam.elevation = -20


def _fixed(camid):
  def setup(cam):
    cam.type = mujoco.mjtCamera.mjCAMERA_FIXED
    cam.fixedcamid = camid

  return setup


@pytest.mark.parametrize(
  "setup",
  [_tracking, _fixed(0), _fixed(1), _fixed(2)],
  ids=["tracking", "fixed", "trackcom", "targetbody"],
)
def test_camera_types(scene, setup):
  assert_scenes_equal(*scene.scenes(setup_cam=setup))


@pytest.mark.parametrize("camid", range(3), ids=["fovy", "orthographic", "intrinsic"])
def test_fixed_camera_frusta(decor, camid):
  # the GL frustum of each projection, and the camera decorations with their frusta
  assert_scenes_equal(*decor.scenes(setup_cam=_fixed(camid), flags=(3,)))


def test_orthographic_free_camera(scene):
  scene.m.vis.global_.orthographic = 1
  scene.mm.vis.global_.orthographic = 1
  try:
    scn, mscn = scene.scenes()
  finally:
    scene.m.vis.global_.orthographic = 0
    scene.mm.vis.global_.orthographic = 0
  assert scn.camera[0].orthographic == 1
  assert_scenes_equal(scn, mscn)


def test_user_camera_keeps_gl_cameras(scene):
  scn, mscn = scene.scenes()
  before = [c.pos.copy() for c in scn.camera]
  opt, mopt = vis.MjvOption(), mujoco.MjvOption()
  cam, mcam = vis.MjvCamera(), mujoco.MjvCamera()
  cam.type = mcam.type = mujoco.mjtCamera.mjCAMERA_USER
  cam.azimuth = mcam.azimuth = 10
  vis.mjv_updateScene(scene.m, scene.d, opt, None, cam, 7, scn)
  mujoco.mjv_updateScene(scene.mm, scene.md, mopt, None, mcam, 7, mscn)
  np.testing.assert_array_equal([c.pos for c in scn.camera], before)
  assert_scenes_equal(scn, mscn)


def test_geom_buffer_overflow(scene):
  with pytest.warns(RuntimeWarning, match="Increase maxgeom"):
    scn, mscn = scene.scenes(maxgeom=5, updates=1, flags=(2,))
  assert scn.ngeom == mscn.ngeom == 5
  assert scn.status == mscn.status == 1
  for i in range(5):
    assert_geom_equal(scn.geoms[i], mscn.geoms[i])


# ------------------------------------------------------------------------------------------------
# decorations


@pytest.mark.parametrize(
  "flags", [(), (2,), (3,), (4,), (4, 5), (6,), (9,), (10,), (10, 11), (19,), (20,), (8,), (7,)]
)
def test_decorations(decor, flags):
  scn, mscn = decor.scenes(flags=flags, label=int(mujoco.mjtLabel.mjLABEL_ACTUATOR))
  assert_scenes_equal(scn, mscn)


WRAP_XML = """
<mujoco model="wrap">
  <worldbody>
    <site name="a1" pos="-0.3 0 -0.05"/>
    <site name="a2" pos="0.3 0 -0.05"/>
    <geom name="ball" type="sphere" size="0.1" contype="0" conaffinity="0"/>
    <site name="b1" pos="-0.3 0.9 -0.05"/>
    <site name="b2" pos="0.3 1.1 -0.02"/>
    <geom name="drum" type="cylinder" size="0.1 0.2" pos="0 1 0" zaxis="0 1 0" contype="0"
          conaffinity="0"/>
    <site name="c1" pos="-0.11 2 0"/>
    <site name="c2" pos="0.11 2 0"/>
    <geom name="ball2" type="sphere" size="0.1" pos="0 2 0" contype="0" conaffinity="0"/>
  </worldbody>
  <tendon>
    <spatial name="over_ball" width="0.01">
      <site site="a1"/><geom geom="ball"/><site site="a2"/>
    </spatial>
    <spatial name="helix" width="0.01">
      <site site="b1"/><geom geom="drum"/><site site="b2"/>
    </spatial>
    <spatial name="wide" width="0.01">
      <site site="c1"/><geom geom="ball2"/><site site="c2"/>
    </spatial>
  </tendon>
  <actuator>
    <motor tendon="over_ball"/>
    <motor tendon="helix"/>
  </actuator>
</mujoco>
"""


def test_wrapped_tendons():
  # arcs over a sphere (small and wide angles) and a helix over a cylinder, for the tendons
  # and for the actuators driving them
  pair = Pair(WRAP_XML)
  assert_scenes_equal(*pair.scenes(flags=(4,), label=int(mujoco.mjtLabel.mjLABEL_ACTUATOR)))


def test_rangefinders():
  pair = Pair(RANGEFINDER_XML, nstep=20)
  scn, mscn = pair.scenes()
  sensor = [i for i in range(scn.ngeom) if scn.geoms[i].objtype == mujoco.mjtObj.mjOBJ_SENSOR]
  assert {scn.geoms[i].type for i in sensor} == {2, 101, 103}  # points, normals, rays
  assert_scenes_equal(scn, mscn)
  assert_scenes_equal(*pair.scenes(flags=(3, 8)))  # cameras shown, rangefinders hidden


def test_catenary_tendon(decor):
  # a nearly vertical string hangs as a bead (2 segments), a slack one as a full catenary
  for t, length in ((0, 0.5), (1, 0.8)):
    draw, catenary_length = vis.mjv_isCatenary(decor.m, decor.d, t)
    assert draw and catenary_length == pytest.approx(length)
  scn, mscn = decor.scenes(label=int(mujoco.mjtLabel.mjLABEL_TENDON))
  segments = [
    sum(
      scn.geoms[i].objtype == mujoco.mjtObj.mjOBJ_TENDON and scn.geoms[i].objid == t
      for i in range(scn.ngeom)
    )
    for t in range(4)
  ]
  assert segments[:2] == [2, decor.m.vis.quality.numslices]
  assert segments[2] > 3  # the wrapped tendon follows the sphere in several pieces
  assert_scenes_equal(scn, mscn)


@pytest.mark.parametrize("ellipsoid", [0, 1])
def test_inertia(scene, ellipsoid):
  scene.m.vis.global_.ellipsoidinertia = ellipsoid
  scene.mm.vis.global_.ellipsoidinertia = ellipsoid
  try:
    assert_scenes_equal(*scene.scenes(flags=(10,), frame=1))
    assert_scenes_equal(*scene.scenes(flags=(10, 11), label=1))
  finally:
    scene.m.vis.global_.ellipsoidinertia = 0
    scene.mm.vis.global_.ellipsoidinertia = 0


@pytest.mark.parametrize("active,active2", [(1, 0), (2, 0), (3, 0), (1, 2), (0, 3)])
def test_perturbation(scene, active, active2):
  def setup(pert):
    pert.select = 2
    pert.active = active
    pert.active2 = active2
    pert.localpos[:] = (0.1, 0.0, 0.02)
    pert.refselpos[:] = (1.2, 0.1, 0.8)
    pert.refquat[:] = (0.9, 0.1, 0.3, 0.0)
    pert.refquat[:] /= np.linalg.norm(pert.refquat)

  scn, mscn = scene.scenes(
    setup_pert=setup, flags=(10, 21), label=int(mujoco.mjtLabel.mjLABEL_SELECTION)
  )
  assert_scenes_equal(scn, mscn)


def test_selection_glow_and_point_label(scene):
  def setup(pert):
    pert.select = 1
    pert.localpos[:] = (0.0, 0.05, 0.0)

  assert_scenes_equal(
    *scene.scenes(setup_pert=setup, flags=(21,), label=int(mujoco.mjtLabel.mjLABEL_SELPNT))
  )


def test_applied_force(scene):
  scene.d.xfrc_applied[1, :3] = (0.0, 3.0, 4.0)
  scene.md.xfrc_applied[1, :3] = (0.0, 3.0, 4.0)
  try:
    assert_scenes_equal(*scene.scenes(flags=(12,)))
  finally:
    scene.d.xfrc_applied[:] = 0
    scene.md.xfrc_applied[:] = 0


def test_transparency(scene):
  scene.m.vis.map.alpha = 0.25
  scene.mm.vis.map.alpha = 0.25
  try:
    assert_scenes_equal(*scene.scenes(flags=(18,)))
  finally:
    scene.m.vis.map.alpha = scene.mm.vis.map.alpha = 0.3


# ------------------------------------------------------------------------------------------------
# suite models


@pytest.mark.parametrize("name", ["cartpole", "humanoid", "quadruped"])
def test_suite_models(name):
  pair = Pair(path=ASSETS / f"{name}.xml", nstep=300, ctrl_seed=0)
  for flags in [(), (2, 4, 7), (14, 16, 17), (10, 20, 19)]:
    assert_scenes_equal(*pair.scenes(flags=flags))
  assert_scenes_equal(*pair.scenes(setup_cam=_tracking))
  if pair.m.ncam:
    assert_scenes_equal(*pair.scenes(setup_cam=_fixed(pair.m.ncam - 1), flags=(3,)))


# ------------------------------------------------------------------------------------------------
# skins and helpers


def test_skin(scene):
  pair = Pair(SKIN_XML, nstep=100)
  scn, mscn = pair.scenes()
  assert scn.nskin == 1
  np.testing.assert_array_equal(scn.skinvertadr, mscn.skinvertadr)
  np.testing.assert_array_equal(scn.skinvertnum, mscn.skinvertnum)
  np.testing.assert_array_equal(scn.skinfacenum, mscn.skinfacenum)
  assert scn.skinvert.dtype == np.float32 and scn.skinvert.shape == mscn.skinvert.shape
  assert_scenes_equal(scn, mscn)
  # hidden skin group: vertices cleared
  assert_scenes_equal(*pair.scenes(groups={"skingroup": [0, 0, 0, 0, 0, 0]}))


@pytest.mark.parametrize("camid", [None, -1, 0, 1, 2])
def test_camera2glcamera(decor, camid):
  cam, mcam = _camera_pair(
    decor, None if camid is None else (_tracking if camid == -1 else _fixed(camid))
  )
  glcam = vis.mjv_camera2GLCamera(decor.m, decor.d, cam)
  mglcam = mujoco.mjv_camera2GLCamera(decor.mm, decor.md, mcam)
  for f in GLCAMERA_FIELDS:
    np.testing.assert_allclose(
      getattr(glcam, f), getattr(mglcam, f), rtol=1e-6, atol=1e-7, err_msg=f
    )


def test_average_camera_and_frame(decor):
  scn, mscn = decor.scenes()
  avg = vis.mjv_averageCamera(scn.camera[0], scn.camera[1])
  mavg = mujoco.mjv_averageCamera(mscn.camera[0], mscn.camera[1])
  for f in GLCAMERA_FIELDS:
    np.testing.assert_allclose(getattr(avg, f), getattr(mavg, f), rtol=1e-6, atol=1e-7)
  for setup in (_tracking, _fixed(2)):
    cam, mcam = vis.MjvCamera(), mujoco.MjvCamera()
    setup(cam)
    setup(mcam)
    ours = [np.zeros(3) for _ in range(4)]
    theirs = [np.zeros(3) for _ in range(4)]
    vis.mjv_cameraFrame(*ours, decor.d, cam)
    mujoco.mjv_cameraFrame(*theirs, decor.md, mcam)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)
    ours = [np.zeros(2, np.float32) for _ in range(3)]
    theirs = [np.zeros(2, np.float32) for _ in range(3)]
    vis.mjv_cameraFrustum(*ours, decor.m, cam)
    mujoco.mjv_cameraFrustum(*theirs, decor.mm, mcam)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
  headpos, forward, up = np.zeros(3), np.zeros(3), np.zeros(3)
  mheadpos, mforward, mup = np.zeros(3), np.zeros(3), np.zeros(3)
  vis.mjv_cameraInModel(headpos, forward, up, scn)
  mujoco.mjv_cameraInModel(mheadpos, mforward, mup, mscn)
  np.testing.assert_allclose(
    [headpos, forward, up], [mheadpos, mforward, mup], rtol=1e-6, atol=1e-7
  )


def test_init_geom_and_connector():
  geom, mgeom = vis.MjvGeom(), mujoco.MjvGeom()
  for type_, size in ((2, (0.3, 0, 0)), (3, (0.1, 0.4, 0)), (6, (0.1, 0.2, 0.3))):
    args = (
      type_,
      np.array(size),
      np.array([1.0, 2, 3]),
      np.eye(3).ravel(),
      np.array([0.1, 0.2, 0.3, 1], np.float32),
    )
    vis.mjv_initGeom(geom, *args)
    mujoco.mjv_initGeom(mgeom, *args)
    assert_geom_equal(geom, mgeom)
  for type_ in (3, 5, 100, 101, 102, 103):
    vis.mjv_connector(geom, type_, 0.05, np.array([0.0, 0, 0]), np.array([0.3, -0.2, 0.5]))
    mujoco.mjv_connector(mgeom, type_, 0.05, np.array([0.0, 0, 0]), np.array([0.3, -0.2, 0.5]))
    assert_geom_equal(geom, mgeom)
  with pytest.raises(ValueError, match="invalid geom type"):
    vis.mjv_connector(geom, 6, 0.05, np.zeros(3), np.ones(3))


# ------------------------------------------------------------------------------------------------
# interaction


MOUSE = mujoco.mjtMouse


def _camera_pair(pair, setup=None):
  cam, mcam = vis.MjvCamera(), mujoco.MjvCamera()
  vis.mjv_defaultFreeCamera(pair.m, cam)
  mujoco.mjv_defaultFreeCamera(pair.mm, mcam)
  if setup:
    setup(cam)
    setup(mcam)
  return cam, mcam


def _assert_cameras_equal(cam, mcam):
  assert int(cam.type) == int(mcam.type)
  for f in ("lookat", "distance", "azimuth", "elevation"):
    np.testing.assert_allclose(getattr(cam, f), getattr(mcam, f), rtol=1e-6, atol=1e-9, err_msg=f)


@pytest.mark.parametrize(
  "action",
  [
    MOUSE.mjMOUSE_ROTATE_V,
    MOUSE.mjMOUSE_ROTATE_H,
    MOUSE.mjMOUSE_MOVE_V,
    MOUSE.mjMOUSE_MOVE_H,
    MOUSE.mjMOUSE_ZOOM,
  ],
)
def test_move_camera(scene, action):
  scn, mscn = scene.scenes()
  for setup in (None, _tracking):
    cam, mcam = _camera_pair(scene, setup)
    for dx, dy in ((0.1, -0.05), (0.7, 0.9), (-0.3, 0.2)):
      vis.mjv_moveCamera(scene.m, action, dx, dy, cam)
      mujoco.mjv_moveCamera(scene.mm, action, dx, dy, mcam)
      _assert_cameras_equal(cam, mcam)
  assert vis.mjv_frustumHeight(scn) == pytest.approx(mujoco.mjv_frustumHeight(mscn), rel=1e-7)
  ours, theirs = [np.zeros(3) for _ in range(3)], [np.zeros(3) for _ in range(3)]
  vis.mjv_cameraInRoom(*ours, scn)
  mujoco.mjv_cameraInRoom(*theirs, mscn)
  np.testing.assert_allclose(ours, theirs, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize(
  "action",
  [
    MOUSE.mjMOUSE_ROTATE_V,
    MOUSE.mjMOUSE_ROTATE_H,
    MOUSE.mjMOUSE_MOVE_V,
    MOUSE.mjMOUSE_MOVE_H,
    MOUSE.mjMOUSE_ZOOM,
  ],
)
def test_move_model(scene, action):
  scn, mscn = scene.scenes()
  scn.enabletransform = mscn.enabletransform = 1
  for dx, dy in ((0.1, -0.05), (0.3, 0.4)):
    vis.mjv_moveModel(scene.m, action, dx, dy, np.array([0, 0, 1.0]), scn)
    mujoco.mjv_moveModel(scene.mm, action, dx, dy, np.array([0, 0, 1.0]), mscn)
    np.testing.assert_allclose(scn.translate, mscn.translate, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(scn.rotate, mscn.rotate, rtol=1e-6, atol=1e-7)
    assert scn.scale == pytest.approx(mscn.scale, rel=1e-6)
  pos, quat = np.array([0.3, -0.2, 0.5]), np.array([0.8, 0.2, 0.0, 0.565685424949238])
  mpos, mquat = np.zeros(3), np.zeros(4)
  mujoco.mjv_model2room(mpos, mquat, pos, quat, mscn)
  rpos, rquat = np.zeros(3), np.zeros(4)
  vis.mjv_model2room(rpos, rquat, pos, quat, scn)
  np.testing.assert_allclose(rpos, mpos, rtol=1e-6, atol=1e-7)
  np.testing.assert_allclose(rquat, mquat, rtol=1e-6, atol=1e-7)
  mujoco.mjv_room2model(mpos, mquat, rpos, rquat, mscn)
  bpos, bquat = np.zeros(3), np.zeros(4)
  vis.mjv_room2model(bpos, bquat, rpos, rquat, scn)
  np.testing.assert_allclose(bpos, mpos, rtol=1e-6, atol=1e-7)
  np.testing.assert_allclose(bquat, mquat, rtol=1e-6, atol=1e-7)
  np.testing.assert_allclose(bpos, pos, rtol=1e-5, atol=1e-6)
  scn.scale = mscn.scale = 0.0
  with pytest.raises(mujoco.FatalError, match="scale too small"):
    mujoco.mjv_model2room(mpos, mquat, pos, quat, mscn)
  with pytest.raises(engine.FatalError, match="scale too small"):
    vis.mjv_model2room(rpos, rquat, pos, quat, scn)


def test_select_and_perturb(decor):
  scn, mscn = decor.scenes()
  opt, mopt = vis.MjvOption(), mujoco.MjvOption()
  hits = 0
  for relx, rely in [(0.5, 0.5), (0.45, 0.6), (0.7, 0.3), (0.2, 0.9), (0.55, 0.52)]:
    pnt, mpnt = np.zeros(3), np.zeros(3)
    ids = [np.array([7], np.int32) for _ in range(3)]
    mids = [np.array([7], np.int32) for _ in range(3)]
    body = vis.mjv_select(decor.m, decor.d, opt, 1.5, relx, rely, scn, pnt, *ids)
    mbody = mujoco.mjv_select(decor.mm, decor.md, mopt, 1.5, relx, rely, mscn, mpnt, *mids)
    assert body == mbody
    np.testing.assert_array_equal(ids, mids)
    if body >= 0:
      hits += 1
      np.testing.assert_allclose(pnt, mpnt, rtol=1e-6, atol=1e-8)
  assert hits >= 2

  # select the hanging box at a point on it, drag it, apply the spring
  pert, mpert = vis.MjvPerturb(), mujoco.MjvPerturb()
  for p in (pert, mpert):
    p.select = 1
    p.localpos[:] = (0.02, -0.01, 0.03)
    p.active = int(mujoco.mjtPertBit.mjPERT_TRANSLATE)
  vis.mjv_initPerturb(decor.m, decor.d, scn, pert)
  mujoco.mjv_initPerturb(decor.mm, decor.md, mscn, mpert)
  for action, dx, dy in (
    (MOUSE.mjMOUSE_MOVE_V, 0.05, -0.02),
    (MOUSE.mjMOUSE_ROTATE_H, 0.3, 0.1),
    (MOUSE.mjMOUSE_ROTATE_V, 0.6, -0.4),
    (MOUSE.mjMOUSE_MOVE_H, -0.1, 0.2),
  ):
    vis.mjv_movePerturb(decor.m, decor.d, action, dx, dy, scn, pert)
    mujoco.mjv_movePerturb(decor.mm, decor.md, action, dx, dy, mscn, mpert)
  for f in ("refpos", "refquat", "refselpos", "localmass", "scale"):
    np.testing.assert_allclose(getattr(pert, f), getattr(mpert, f), rtol=1e-6, atol=1e-9, err_msg=f)
  for active in (1, 2, 3):
    pert.active = mpert.active = active
    vis.mjv_applyPerturbForce(decor.m, decor.d, pert)
    mujoco.mjv_applyPerturbForce(decor.mm, decor.md, mpert)
    np.testing.assert_allclose(decor.d.xfrc_applied, decor.md.xfrc_applied, rtol=1e-6, atol=1e-9)
  decor.d.xfrc_applied[:] = 0
  decor.md.xfrc_applied[:] = 0

  # pose perturbation of a free body (paused)
  pert.select = mpert.select = 1
  qpos, mqpos = decor.d.qpos.copy(), decor.md.qpos.copy()
  vis.mjv_applyPerturbPose(decor.m, decor.d, pert, 1)
  mujoco.mjv_applyPerturbPose(decor.mm, decor.md, mpert, 1)
  # the reference pose agrees to ~1e-8 (the mouse scale goes through float frusta)
  np.testing.assert_allclose(decor.d.qpos, decor.md.qpos, rtol=1e-6, atol=1e-9)
  assert not np.allclose(decor.d.qpos, qpos)
  decor.d.qpos[:] = qpos
  decor.md.qpos[:] = mqpos


def test_select_skin():
  pair = Pair(SKIN_XML, nstep=10)
  scn, mscn = pair.scenes()
  hits = set()
  for relx in np.linspace(0.3, 0.7, 9):
    for rely in np.linspace(0.3, 0.7, 9):
      pnt, mpnt = np.zeros(3), np.zeros(3)
      ids = [np.array([7], np.int32) for _ in range(3)]
      mids = [np.array([7], np.int32) for _ in range(3)]
      body = vis.mjv_select(pair.m, pair.d, vis.MjvOption(), 1.3, relx, rely, scn, pnt, *ids)
      mbody = mujoco.mjv_select(
        pair.mm, pair.md, mujoco.MjvOption(), 1.3, relx, rely, mscn, mpnt, *mids
      )
      assert body == mbody
      np.testing.assert_array_equal(ids, mids)
      np.testing.assert_allclose(pnt, mpnt, rtol=1e-6, atol=1e-8)
      hits.add((body, int(ids[0][0]), int(ids[2][0])))
  assert any(h[2] == 0 for h in hits) and any(h[1] >= 0 for h in hits)


@pytest.mark.parametrize("paused", [0, 1])
def test_perturb_pose_of_child_of_free_body(paused):
  pair = Pair(SKIN_XML, nstep=20)
  pert, mpert = vis.MjvPerturb(), mujoco.MjvPerturb()
  for p in (pert, mpert):
    p.select = 2
    p.active = 1
    p.refpos[:] = (0.3, 0.1, 0.9)
    p.refquat[:] = (0.8, 0.0, 0.6, 0.0)
  qpos = pair.d.qpos.copy()
  vis.mjv_applyPerturbPose(pair.m, pair.d, pert, paused)
  mujoco.mjv_applyPerturbPose(pair.mm, pair.md, mpert, paused)
  np.testing.assert_allclose(pair.d.qpos, pair.md.qpos, rtol=1e-12, atol=1e-14)
  assert np.allclose(pair.d.qpos, qpos) == (not paused)
