"""dm_control's rendering API on engine.Physics (engine/render/camera.py), against dm_control:
Camera/MovableCamera/TextOverlay, Camera.matrix, select, size checks and their messages,
render flag overrides, contexts; engine.Renderer against mujoco.Renderer; the suite's pixel
wrapper, visualize_reward and `python -m suite --save`."""

import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import engine
import suite
from engine.render import camera as C
from engine.render import context
from suite import common
from suite.wrappers import pixels
from tests import gl

dm_mujoco = pytest.importorskip("dm_control.mujoco")

XML = """
<mujoco>
  <visual><global offwidth="200" offheight="150"/></visual>
  <worldbody>
    <light pos="0 0 3"/>
    <geom name="floor" type="plane" size="2 2 .1" rgba=".3 .4 .5 1"/>
    <body name="ball" pos="0 0 .3"><freejoint/><geom name="ball" size=".1" rgba="1 0 0 1"/></body>
    <camera name="top" pos="0 0 2" xyaxes="1 0 0 0 1 0"/>
    <camera name="side" pos="1.5 -1.5 1" xyaxes="1 1 0 -.3 .3 1" fovy="60"/>
  </worldbody>
</mujoco>
"""


@pytest.fixture(scope="module")
def pair(opengl):
  ours = engine.Physics.from_xml_string(XML)
  theirs = dm_mujoco.Physics.from_xml_string(XML)
  yield ours, theirs
  theirs.free()
  del ours, theirs
  gc.collect()


def test_camera_matrix_matches_dm_control(pair):
  ours, theirs = pair
  for camera_id in (-1, 0, "side"):
    a = C.Camera(ours, 120, 160, camera_id)
    b = dm_mujoco.Camera(theirs, 120, 160, camera_id)
    a.update()
    b.update()
    np.testing.assert_allclose(a.matrix, b.matrix, rtol=1e-6, atol=1e-6)


def test_camera_by_name_and_bad_ids_raise_like_dm_control(pair):
  ours, theirs = pair
  np.testing.assert_array_equal(
    ours.render(60, 80, "top", segmentation=True), ours.render(60, 80, 0, segmentation=True)
  )
  for camera_id in (-2, 2):
    with pytest.raises(ValueError) as theirs_error:
      theirs.render(60, 80, camera_id)
    with pytest.raises(ValueError) as ours_error:
      ours.render(60, 80, camera_id)
    assert str(ours_error.value) == str(theirs_error.value)
  for height, width in ((151, 100), (100, 201)):
    with pytest.raises(ValueError) as theirs_error:
      theirs.render(height, width)
    with pytest.raises(ValueError) as ours_error:
      ours.render(height, width)
    assert str(ours_error.value) == str(theirs_error.value)


def test_bad_argument_combinations_raise(pair):
  ours, _ = pair
  with pytest.raises(ValueError, match="cannot both"):
    ours.render(60, 80, depth=True, segmentation=True)
  with pytest.raises(ValueError, match="Overlays"):
    ours.render(60, 80, depth=True, overlays=[C.TextOverlay("a")])
  with pytest.raises(ValueError, match="render_flag_overrides"):
    ours.render(60, 80, segmentation=True, render_flag_overrides={"shadow": False})
  with pytest.raises(KeyError, match="unknown rendering flag"):
    ours.render(60, 80, render_flag_overrides={"shadows": False})


def test_render_flag_overrides_match_dm_control(pair):
  ours, theirs = pair
  # wireframe lines over textures sample them a little differently (see test_gl)
  for flags, tol in (({"wireframe": True}, 2.5), ({"shadow": False, "skybox": False}, 1.0)):
    a = ours.render(120, 160, 1, render_flag_overrides=flags)
    b = theirs.render(120, 160, 1, render_flag_overrides=flags)
    assert np.abs(a.astype(int) - b.astype(int)).mean() < tol, flags
  # the overrides last for one image only
  np.testing.assert_array_equal(ours.render(120, 160, 1), ours.render(120, 160, 1))
  assert not np.array_equal(
    ours.render(120, 160, 1), ours.render(120, 160, 1, render_flag_overrides={"wireframe": True})
  )


def test_movable_camera_pose_and_select_match_dm_control(pair):
  ours, theirs = pair
  a = C.MovableCamera(ours, 120, 160)
  b = dm_mujoco.MovableCamera(theirs, 120, 160)
  for camera in (a, b):
    camera.set_pose(lookat=[0, 0, 0.3], distance=1.5, azimuth=30, elevation=-40)
  pose = a.get_pose()
  np.testing.assert_allclose(pose.lookat, b.get_pose().lookat)
  assert (pose.distance, pose.azimuth, pose.elevation) == (1.5, 30, -40)
  seg = a.render(segmentation=True)
  # the ball spans ~10 pixels: drawn with half MuJoCo's facets (gl_renderer.DETAIL_PIXELS),
  # its outline moves by at most a quarter pixel
  assert np.mean(np.all(seg == b.render(segmentation=True), axis=-1)) > 0.999
  for cursor in ((0.5, 0.5), (0.05, 0.95), (0.3, 0.2)):
    ours_sel, theirs_sel = a.select(cursor), b.select(cursor)
    assert (ours_sel.body, ours_sel.geom, ours_sel.skin) == (
      theirs_sel.body,
      theirs_sel.geom,
      theirs_sel.skin,
    ), cursor
    if theirs_sel.world_position is None:
      assert ours_sel.world_position is None
    else:
      np.testing.assert_allclose(ours_sel.world_position, theirs_sel.world_position, atol=1e-6)
  # the centre of the image sees the ball
  assert a.select((0.5, 0.5)).geom == ours.model.name2id("ball", "geom")


def test_overlays_draw_text(pair):
  ours, _ = pair
  plain = ours.render(120, 160, 1)
  for position in ("top left", "bottom right"):
    text = ours.render(120, 160, 1, overlays=[C.TextOverlay("Title", "body", position=position)])
    changed = np.any(text != plain, axis=-1)
    rows, cols = np.nonzero(changed)
    assert rows.size > 20
    if position == "top left":
      assert rows.mean() < 60 and cols.mean() < 80
    else:
      assert rows.mean() > 60 and cols.mean() > 80
  with pytest.raises(ValueError, match="position"):
    C.TextOverlay("x", position="middle")


def test_contexts_are_per_physics_and_remade_for_a_new_model(pair):
  ours, _ = pair
  ours.render(30, 40)
  contexts = ours.contexts
  assert contexts is ours.contexts
  assert isinstance(contexts.gl, engine.GLContext)
  other = ours.copy()
  other.render(30, 40)
  assert other.contexts is not contexts
  ours.reload_from_xml_string(XML.replace('rgba="1 0 0 1"', 'rgba="0 1 0 1"'))
  assert ours.contexts is not contexts
  ball = ours.render(120, 160, 0)[60, 80]
  assert ball[1] > ball[0]


def test_renderer_matches_mujoco_renderer(opengl):
  mujoco = pytest.importorskip("mujoco")
  m = engine.MjModel.from_xml_string(XML)
  d = engine.MjData(m)
  engine.mj_forward(m, d)
  mm = mujoco.MjModel.from_xml_string(XML)
  md = mujoco.MjData(mm)
  mujoco.mj_forward(mm, md)
  with engine.Renderer(m, 90, 120) as ours:
    theirs = mujoco.Renderer(mm, 90, 120)
    try:
      for camera in (-1, "top", 1):
        ours.update_scene(d, camera)
        theirs.update_scene(md, camera)
        assert np.abs(ours.render().astype(int) - theirs.render().astype(int)).mean() < 1.0
        for mode in ("depth", "segmentation"):
          getattr(ours, f"enable_{mode}_rendering")()
          getattr(theirs, f"enable_{mode}_rendering")()
          a, b = ours.render(), theirs.render()
          assert a.shape == b.shape and a.dtype == b.dtype
          if mode == "depth":
            # spheres spanning few pixels are drawn with fewer facets (see
            # engine.render.set_render_shortcuts): depth on them is within 1 %
            assert np.mean(np.abs(a - b) <= 1e-2 * b) > 0.97
          else:
            assert np.mean(np.all(a == b, axis=-1)) > 0.99
          getattr(ours, f"disable_{mode}_rendering")()
          getattr(theirs, f"disable_{mode}_rendering")()
      with pytest.raises(ValueError, match="does not exist"):
        ours.update_scene(d, "nope")
    finally:
      theirs.close()


def test_disabled_rendering_raises_a_clear_error():
  code = (
    "import engine\n"
    "p = engine.Physics.from_xml_string('<mujoco><worldbody/></mujoco>')\n"
    "try:\n  p.render(10, 10)\nexcept engine.RenderingUnavailableError as e:\n"
    "  print('unavailable:', e)\n"
  )
  env = dict(os.environ, MUJOCO_GL="disable")
  out = subprocess.run(
    [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
  )
  assert out.returncode == 0, out.stderr
  assert "unavailable:" in out.stdout and "disable" in out.stdout


def test_pixels_wrapper_and_visualize_reward(opengl):
  env = suite.load(
    "cartpole",
    "balance",
    task_kwargs={"random": 0},
    environment_kwargs={"flat_observation": False},
    visualize_reward=True,
  )
  wrapped = pixels.Wrapper(
    env, pixels_only=False, render_kwargs={"height": 48, "width": 64, "camera_id": 0}
  )
  assert wrapped.observation_spec()["pixels"].shape == (48, 64, 3)
  first = wrapped.reset().observation["pixels"]
  assert first.shape == (48, 64, 3) and first.dtype == np.uint8
  step = wrapped.step(np.zeros(1))
  assert "position" in step.observation
  assert not np.array_equal(step.observation["pixels"], np.zeros_like(first))
  # visualize_reward recolours the materials by reward, in the picture too, as dm_control does
  from dm_control import suite as dm_suite

  theirs = dm_suite.load("cartpole", "balance", task_kwargs={"random": 0}, visualize_reward=True)
  theirs.reset()
  images = []
  for angle in (0.0, 2.0):
    for e in (env, theirs):
      with e.physics.reset_context():
        e.physics.named.data.qpos["hinge_1"] = angle
      e.task.after_step(e.physics)
    a, b = env.physics.render(96, 128, 0), theirs.physics.render(96, 128, 0)
    assert np.abs(a.astype(int) - b.astype(int)).mean() < 1.0, angle
    images.append(a)
  np.testing.assert_allclose(env.physics.model.mat_rgba, theirs.physics.model.mat_rgba, atol=1e-6)
  assert np.abs(images[0].astype(int) - images[1].astype(int)).mean() > 1


def test_suite_main_saves_frames(opengl, tmp_path):
  out = tmp_path / "episode.gif"
  run = subprocess.run(
    [
      sys.executable,
      "-m",
      "suite",
      "cartpole",
      "swingup",
      "--save",
      str(out),
      "--every",
      "100",
      "--size",
      "48x64",
    ],
    capture_output=True,
    text=True,
    timeout=600,
    cwd=os.path.dirname(os.path.dirname(common.__file__)),
  )
  assert run.returncode == 0, run.stderr
  from PIL import Image

  with Image.open(out) as gif:
    assert gif.size == (64, 48)
    assert gif.n_frames == 10  # 1000 steps, a frame every 100
  assert "saved 10 frames" in run.stdout


def _render_in_subprocess(backend, **env_vars):
  """(image, backend name) rendered by a fresh process with MUJOCO_GL=backend, or
  (None, error message) when rendering is unavailable there."""
  code = (
    "import numpy as np, sys, engine\nfrom suite import common\n"
    "p = engine.Physics.from_xml_string(common.read_model('cartpole.xml'), common.ASSETS)\n"
    "try:\n  image = p.render(60, 80, 0)\n"
    "except engine.RenderingUnavailableError as e:\n  sys.exit('unavailable: ' + str(e))\n"
    "np.save(sys.stdout.buffer, image)\n"
    "print(p.contexts.gl.backend, file=sys.stderr)\n"
  )
  env = dict(os.environ, MUJOCO_GL=backend, **env_vars)
  env.pop("PYOPENGL_PLATFORM", None)  # this process's choice, inherited otherwise
  out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=300)
  err = out.stderr.decode().strip().splitlines()
  if out.returncode != 0:
    assert err and err[-1].startswith("unavailable: "), out.stderr.decode()
    return None, err[-1]
  import io

  return np.load(io.BytesIO(out.stdout)), err[-1]


@pytest.mark.parametrize("backend", ["egl", "osmesa"])
def test_headless_backend_draws_the_picture_or_names_its_package(backend):
  """Each headless backend, in a process of its own, draws what this process draws (measured
  between EGL and OSMesa: 5 % of the pixels differ at edges the two drivers antialias
  differently, mean |difference| 0.9 of 255) or, where its library is missing, says which
  package to install (.ci/run installs both)."""
  image, message = _render_in_subprocess(backend)
  problem = context.backend_problem(backend)
  if problem:
    assert image is None and problem in message, message
    assert "apt install" in message
    return
  assert message == backend
  if gl.opengl_problem() is None:
    assert np.abs(image.astype(int) - _render_here().astype(int)).mean() < 2.0


def _render_here():
  p = engine.Physics.from_xml_string(common.read_model("cartpole.xml"), common.ASSETS)
  return p.render(60, 80, 0)


def test_glfw_draws_the_picture_on_an_x_server():
  import shutil
  import time

  if shutil.which("Xvfb") is None:
    # no X server to start: GLFW without a display is a clear error (.ci/run installs xvfb)
    image, message = _render_in_subprocess("glfw", DISPLAY="")
    assert image is None and "needs a DISPLAY" in message and "xvfb" in message, message
    return
  display = f":{90 + os.getpid() % 500}"
  server = subprocess.Popen(
    ["Xvfb", display, "-screen", "0", "640x480x24"],
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
  )
  try:
    time.sleep(1.0)
    image, name = _render_in_subprocess("glfw", DISPLAY=display)
  finally:
    server.terminate()
    server.wait(timeout=30)
  assert name == "glfw", name
  if gl.opengl_problem() is None:
    assert np.abs(image.astype(int) - _render_here().astype(int)).mean() < 2.0


def test_physics_only_use_never_loads_opengl():
  code = (
    "import sys, engine, suite\n"
    "env = suite.load('cartpole', 'swingup')\n"
    "env.reset(); env.step([0.1])\n"
    "gl = ('OpenGL', 'glfw', 'engine.render')\n"
    "print(sorted(m for m in sys.modules if m.startswith(gl)))\n"
  )
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
  assert out.returncode == 0, out.stderr
  assert out.stdout.strip().splitlines()[-1] == "[]"


def test_edited_height_fields_are_redrawn(opengl):
  """A task that writes new terrain into hfield_data (quadruped escape) sees it in the next
  image, as a Physics made with that terrain would draw it (dm_control uploads it by hand)."""
  xml = """<mujoco><asset><hfield name="h" nrow="20" ncol="20" size="1 1 .5 .1"/></asset>
    <worldbody><light pos="0 0 3"/><geom type="hfield" hfield="h"/>
    <camera name="c" pos="0 -2 2" xyaxes="1 0 0 0 .7 .7"/></worldbody></mujoco>"""
  physics = engine.Physics.from_xml_string(xml)
  flat = physics.render(60, 80, 0, depth=True)
  bumps = np.random.RandomState(0).uniform(0, 1, physics.model.hfield_data.shape)
  physics.model.hfield_data[:] = bumps
  redrawn = physics.render(60, 80, 0, depth=True)
  fresh = engine.Physics.from_xml_string(xml)
  fresh.model.hfield_data[:] = bumps
  np.testing.assert_array_equal(redrawn, fresh.render(60, 80, 0, depth=True))
  assert not np.allclose(redrawn, flat)


def test_dm_control_style_hfield_upload_runs_unchanged(opengl):
  """dm_control's tasks upload edited terrain with
  `with physics.contexts.gl.make_current() as ctx: ctx.call(mjr_uploadHField, ...)`."""
  xml = """<mujoco><asset><hfield name="h" nrow="10" ncol="10" size="1 1 .5 .1"/></asset>
    <worldbody><geom type="hfield" hfield="h"/></worldbody></mujoco>"""
  physics = engine.Physics.from_xml_string(xml)
  physics.model.hfield_data[:] = np.linspace(0, 1, physics.model.hfield_data.size)
  if physics.contexts:
    with physics.contexts.gl.make_current() as ctx:
      ctx.call(engine.mjr_uploadHField, physics.model.ptr, physics.contexts.mujoco.ptr, 0)
  np.testing.assert_array_equal(physics.contexts.mujoco._hfield_drawn, physics.model.hfield_data)


def test_free_releases_the_contexts(opengl):
  physics = engine.Physics.from_xml_string(XML)
  first = physics.render(30, 40)
  gl = physics.contexts.gl
  physics.free()
  with pytest.raises(RuntimeError, match="freed"):
    gl.make_current()
  np.testing.assert_array_equal(physics.render(30, 40), first)  # new contexts on demand


def test_model_values_reloaded_into_a_rendered_physics_draw_as_a_new_physics(opengl):
  """reload_model_values (composer resets) with the floor resized: the contexts that drew the
  old floor's grid are replaced, so the image is a new Physics' of the new model; with only a
  colour changed they stay."""
  physics = engine.Physics.from_xml_string(XML)
  physics.render(60, 80, "side")
  contexts = physics.contexts
  for old, new, kept in (
    ('rgba=".3 .4 .5 1"', 'rgba=".6 .4 .5 1"', True),
    ("2 2 .1", "1 .5 .1", False),
  ):
    xml = XML.replace(old, new)
    physics.reload_model_values(engine.MjModel.from_xml_string(xml))
    fresh = engine.Physics.from_xml_string(xml)
    np.testing.assert_array_equal(physics.render(60, 80, "side"), fresh.render(60, 80, "side"))
    assert (physics.contexts is contexts) == kept
    contexts = physics.contexts


def test_making_our_context_keeps_dm_controls_current(pair):
  # dm_control remembers which of its contexts is current and skips making it current again:
  # a context we create must leave dm_control's current, or dm_control draws into ours
  ours, theirs = pair
  ours.forward()
  theirs.forward()
  before = theirs.render(60, 80, 1)
  fresh = engine.Physics.from_xml_string(XML)
  fresh.render(60, 80, 1)
  np.testing.assert_array_equal(theirs.render(60, 80, 1), before)
  fresh.free()


def test_physics_render_reuses_cameras_without_holding_the_physics(opengl):
  # Physics.render keeps its cameras between calls (per size and camera), and no reference
  # cycle through them: a physics nobody uses is freed at once, its GL context with it
  import weakref

  physics = engine.Physics.from_xml_string(XML)
  first = physics.render(60, 80, 0)
  free_camera = physics.render(60, 80, -1)
  physics.data.qpos[2] += 0.2
  physics.forward()
  moved = physics.render(60, 80, 0)
  assert not np.array_equal(first, free_camera) and not np.array_equal(first, moved)
  physics.data.qpos[2] -= 0.2
  physics.forward()
  np.testing.assert_array_equal(physics.render(60, 80, 0), first)
  ref = weakref.ref(physics)
  gc.disable()
  try:
    del physics
    assert ref() is None
  finally:
    gc.enable()
