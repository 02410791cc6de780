"""The interactive viewers on a virtual X server (Xvfb): windows open and draw, scripted keys
pause, step and reset, a scripted ctrl+drag pushes a body, a passive viewer follows a loop.

Each check runs in a subprocess with DISPLAY set to the Xvfb server (PyOpenGL binds its
platform per process, and a crash in a GL driver cannot take pytest down). Scripted input
calls the handler methods GLFW's callbacks call (`on_key`, `on_mouse_button`, `on_cursor`).
The tests skip only when no X server can start (no Xvfb binary); CI installs xvfb.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# a free box floating without gravity at the origin (the default camera looks at it), a
# pendulum on a hinge beside it, a fixed camera
MODEL = """
<mujoco>
  <option gravity="0 0 0" timestep="0.002"/>
  <worldbody>
    <light pos="0 0 3"/>
    <camera name="side" pos="0 -2 0" xyaxes="1 0 0 0 0 1"/>
    <body name="box">
      <freejoint/>
      <geom type="box" size=".1 .1 .1" rgba=".9 .3 .2 1"/>
    </body>
    <body name="arm" pos="0.3 0 0">
      <joint name="hinge" type="hinge" axis="0 1 0" damping="0.01"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.1" size="0.01"/>
    </body>
  </worldbody>
</mujoco>
"""


# the window tests need an X server; .ci/run installs Xvfb, so in CI none is skipped
needs_xvfb = pytest.mark.skipif(
  shutil.which("Xvfb") is None,
  reason="no X server can start: Xvfb is not installed (Debian: apt install xvfb)",
)


@pytest.fixture(scope="module")
def display():
  """DISPLAY of an Xvfb server started for these tests."""
  from engine.viewer.window import start_virtual_display

  proc, number = start_virtual_display()
  yield number
  proc.terminate()
  proc.wait(timeout=10)


def run(display, args, timeout=240, returncode=0, **extra_env):
  env = dict(os.environ, DISPLAY=display, PYTHONPATH=ROOT)
  env.pop("MUJOCO_GL", None)
  env.pop("PYOPENGL_PLATFORM", None)
  env.update(extra_env)
  proc = subprocess.run(
    [sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout
  )
  assert proc.returncode == returncode, proc.stdout + proc.stderr
  return proc.stdout + proc.stderr


def run_script(display, code, tmp_path):
  """Run `code` (which prints one JSON line last) in a subprocess on the display."""
  script = tmp_path / "script.py"
  script.write_text(f"MODEL = {MODEL!r}\n" + textwrap.dedent(code))
  out = run(display, [str(script)])
  return json.loads(out.strip().splitlines()[-1])


def assert_drawn(path):
  from PIL import Image

  image = np.asarray(Image.open(path).convert("RGB")).astype(float)
  assert image.shape[2] == 3 and image.shape[0] > 100
  # a drawn scene: many distinct colours, not a cleared buffer
  assert image.std() > 10
  assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50
  return image


@needs_xvfb
def test_model_viewer_cli_draws_frames(display, tmp_path):
  model = tmp_path / "model.xml"
  model.write_text(MODEL)
  shot = tmp_path / "shot.png"
  out = run(
    display,
    [
      "-m",
      "engine.viewer",
      str(model),
      "--frames",
      "5",
      "--screenshot",
      str(shot),
      "--width",
      "320",
      "--height",
      "240",
    ],
  )
  assert "5 frames" in out and "frames/s" in out
  image = assert_drawn(shot)
  assert image.shape == (240, 320, 3)
  # the red box is in the middle of the picture
  r, g, b = image[100:140, 140:180].mean(axis=(0, 1))
  assert r > 1.5 * g and r > 1.5 * b


@needs_xvfb
def test_viewer_draws_with_pyopengl_bound_to_egl(display, tmp_path):
  """MUJOCO_GL=egl (common on RL machines) binds PyOpenGL to EGL: the window then uses an EGL
  context, and its pixels are the same picture."""
  model = tmp_path / "model.xml"
  model.write_text(MODEL)
  shot = tmp_path / "shot.png"
  run(
    display,
    [
      "-m",
      "engine.viewer",
      str(model),
      "--frames",
      "3",
      "--screenshot",
      str(shot),
      "--width",
      "320",
      "--height",
      "240",
      "--paused",
    ],
    MUJOCO_GL="egl",
  )
  assert_drawn(shot)
  out = run(
    display, ["-m", "engine.viewer", str(model), "--frames", "1"], returncode=1, MUJOCO_GL="osmesa"
  )
  assert "OSMesa" in out and "unset it" in out


@needs_xvfb
def test_suite_viewer_cli_runs_a_policy(display, tmp_path):
  shot = tmp_path / "shot.png"
  out = run(
    display,
    [
      "-m",
      "suite.viewer",
      "cartpole",
      "swingup",
      "--policy",
      "random",
      "--frames",
      "20",
      "--screenshot",
      str(shot),
      "--width",
      "320",
      "--height",
      "240",
    ],
  )
  assert "20 frames" in out and "return" in out
  assert_drawn(shot)
  step = int(out.split("step ")[1].split(",")[0])
  assert step > 0  # the environment was stepped


@needs_xvfb
def test_suite_viewer_cli_runs_a_locomotion_example(display, tmp_path):
  """`locomotion BUILDER` opens a locomotion example; the rat's egocentric camera observable
  renders at every step beside the window."""
  shot = tmp_path / "shot.png"
  out = run(
    display,
    [
      "-m",
      "suite.viewer",
      "locomotion",
      "rodent_two_touch",
      "--frames",
      "10",
      "--screenshot",
      str(shot),
      "--width",
      "320",
      "--height",
      "240",
    ],
  )
  assert "10 frames" in out
  assert_drawn(shot)
  assert int(out.split("step ")[1].split(",")[0]) > 0


@needs_xvfb
def test_suite_viewer_cli_runs_a_manipulation_environment(display, tmp_path):
  """`manipulation NAME` opens a manipulation environment (its front camera observable renders
  at every step beside the window)."""
  shot = tmp_path / "shot.png"
  out = run(
    display,
    [
      "-m",
      "suite.viewer",
      "manipulation",
      "reach_site_vision",
      "--frames",
      "10",
      "--screenshot",
      str(shot),
      "--width",
      "320",
      "--height",
      "240",
    ],
  )
  assert "10 frames" in out
  assert_drawn(shot)
  assert int(out.split("step ")[1].split(",")[0]) > 0


@needs_xvfb
def test_suite_viewer_cli_runs_a_soccer_match(display, tmp_path):
  """`locomotion soccer_1v1_boxhead` opens a match, every player acting on one random policy:
  the environment steps and the return sums the players' rewards."""
  shot = tmp_path / "shot.png"
  out = run(
    display,
    [
      "-m",
      "suite.viewer",
      "locomotion",
      "soccer_1v1_boxhead",
      "--frames",
      "10",
      "--screenshot",
      str(shot),
      "--width",
      "320",
      "--height",
      "240",
    ],
  )
  assert "10 frames" in out
  assert_drawn(shot)
  assert int(out.split("step ")[1].split(",")[0]) > 0


def test_random_policy_acts_for_every_player():
  """A list of action specs (soccer) gets a list of actions within each player's bounds."""
  from suite import viewer
  from suite.locomotion import soccer

  env = soccer.load(team_size=2, random_state=0)
  specs = env.action_spec()
  actions = viewer.random_policy(env, seed=1)(None)
  assert len(actions) == len(specs) == 4
  for action, spec in zip(actions, specs):
    spec.validate(action)
  zeros = viewer._zero_action(specs)
  for action, spec in zip(zeros, specs):
    spec.validate(action)
    np.testing.assert_array_equal(action, np.clip(0.0, spec.minimum, spec.maximum))


def test_suite_viewer_cli_names_the_manipulation_environments(capsys):
  from suite import viewer

  with pytest.raises(SystemExit) as exit_info:
    viewer.main(["manipulation", "stack_7_bricks"])
  error = capsys.readouterr().err
  assert exit_info.value.code == 2 and "'stack_7_bricks'" in error
  assert "stack_2_bricks_features" in error and "reach_site_vision" in error


@needs_xvfb
def test_keys_pause_step_reset_speed_camera(display, tmp_path):
  result = run_script(
    display,
    """
    import json, glfw, numpy as np, engine
    from engine.viewer import ModelViewer
    m = engine.MjModel.from_xml_string(MODEL)
    d = engine.MjData(m)
    d.qvel[6] = 3.0                  # the pendulum swings
    app = ModelViewer(m, d, width=320, height=240)
    v = app.viewer
    out = {}
    for _ in range(5):
      app.frame()
    out["ran"] = d.time
    v.on_key(glfw.KEY_SPACE, glfw.PRESS, 0)
    app.frame(); t = d.time
    for _ in range(5):
      app.frame()
    out["paused"] = [t, d.time]
    v.on_key(glfw.KEY_RIGHT, glfw.PRESS, 0)
    app.frame()
    out["stepped"] = d.time - t
    v.on_key(glfw.KEY_BACKSPACE, glfw.PRESS, 0)
    app.frame()
    out["reset"] = [d.time, d.qpos.tolist(), m.qpos0.tolist(), float(np.abs(d.qvel).max())]
    v.on_key(glfw.KEY_MINUS, glfw.PRESS, 0)
    out["slower"] = v.speed
    v.on_key(glfw.KEY_EQUAL, glfw.PRESS, 0); v.on_key(glfw.KEY_EQUAL, glfw.PRESS, 0)
    out["faster"] = v.speed
    v.on_key(glfw.KEY_RIGHT_BRACKET, glfw.PRESS, 0)
    out["camera"] = [int(v.cam.type), int(v.cam.fixedcamid)]
    before = app.frame(read=True)
    v.on_key(glfw.KEY_ESCAPE, glfw.PRESS, 0)
    out["free"] = int(v.cam.type)
    # mouse: left drag orbits, right drag pans, scroll zooms
    az, look, dist = v.cam.azimuth, v.cam.lookat.copy(), v.cam.distance
    v.on_cursor(100, 100)
    v.on_mouse_button(glfw.MOUSE_BUTTON_LEFT, glfw.PRESS, 0)
    v.on_cursor(130, 100)
    v.on_mouse_button(glfw.MOUSE_BUTTON_LEFT, glfw.RELEASE, 0)
    out["orbit"] = v.cam.azimuth - az
    v.on_mouse_button(glfw.MOUSE_BUTTON_RIGHT, glfw.PRESS, 0)
    v.on_cursor(100, 130)
    v.on_mouse_button(glfw.MOUSE_BUTTON_RIGHT, glfw.RELEASE, 0)
    out["pan"] = float(np.linalg.norm(v.cam.lookat - look))
    v.on_scroll(0, -2)                  # wheel toward the user: closer, as in MuJoCo
    out["zoom"] = v.cam.distance - dist
    # ctrl + right double-click on the box tracks it
    w, h = app.window.window_size()
    v.on_cursor(w / 2, h / 2)
    v.free_camera(); v.cam.lookat[:] = 0; app.frame()
    for _ in range(2):
      v.on_mouse_button(glfw.MOUSE_BUTTON_RIGHT, glfw.PRESS, glfw.MOD_CONTROL)
      v.on_mouse_button(glfw.MOUSE_BUTTON_RIGHT, glfw.RELEASE, glfw.MOD_CONTROL)
    app.frame()
    out["track"] = [int(v.cam.type), int(v.cam.trackbodyid)]
    v.on_key(glfw.KEY_ESCAPE, glfw.PRESS, 0)
    v.on_key(glfw.KEY_C, glfw.PRESS, 0)
    out["contacts"] = int(v.opt.flags[engine.mjVIS_CONTACTPOINT])
    v.on_key(glfw.KEY_0, glfw.PRESS, 0)
    out["group0"] = int(v.opt.geomgroup[0])
    plain = app.frame(read=True)
    v.on_key(glfw.KEY_F1, glfw.PRESS, 0)
    helped = app.frame(read=True)
    out["help_changed"] = float(np.abs(helped.astype(float) - plain).mean())
    out["fixed_vs_free"] = float(np.abs(before.astype(float) - plain).mean())
    app.close()
    print(json.dumps(out))
  """,
    tmp_path,
  )
  assert result["ran"] > 0
  t0, t1 = result["paused"]
  assert t1 == t0  # space: no time passes
  assert result["stepped"] == pytest.approx(0.002)  # right arrow: exactly one timestep
  time, qpos, qpos0, speed = result["reset"]  # backspace: the initial state
  assert time == 0 and qpos == qpos0 and speed == 0
  assert result["slower"] == pytest.approx(0.8)
  assert result["faster"] == pytest.approx(2.0)
  assert result["camera"] == [int(2), 0]  # ']' -> the model's camera 0 (FIXED)
  assert result["free"] == 0
  assert result["orbit"] == pytest.approx(-30 / 240 * 180)  # mjv_moveCamera: 180 deg/height
  assert result["pan"] > 0 and result["zoom"] < 0
  assert result["track"] == [1, 1]  # TRACKING the box
  assert result["contacts"] == 1
  assert result["group0"] == 0
  assert result["help_changed"] > 1  # F1 drew the help overlay
  assert result["fixed_vs_free"] > 1


@needs_xvfb
def test_ctrl_drag_pushes_the_selected_body(display, tmp_path):
  result = run_script(
    display,
    """
    import json, glfw, numpy as np, engine
    from engine.viewer import ModelViewer
    m = engine.MjModel.from_xml_string(MODEL)
    d = engine.MjData(m)
    app = ModelViewer(m, d, width=320, height=240)
    v = app.viewer
    app.frame()
    w, h = app.window.window_size()
    # double-click the box in the middle of the window
    v.on_cursor(w / 2, h / 2)
    for _ in range(2):
      v.on_mouse_button(glfw.MOUSE_BUTTON_LEFT, glfw.PRESS, 0)
      v.on_mouse_button(glfw.MOUSE_BUTTON_LEFT, glfw.RELEASE, 0)
    app.frame()
    out = {"selected": int(v.pert.select)}
    # ctrl + left drag to the right, held for some frames
    v.on_mouse_button(glfw.MOUSE_BUTTON_LEFT, glfw.PRESS, glfw.MOD_CONTROL)
    app.frame()
    for k in range(10):
      v.on_cursor(w / 2 + 8 * (k + 1), h / 2)
    for _ in range(15):
      app.frame()
    out["force_while_dragging"] = float(np.abs(d.xfrc_applied[1]).max())
    v.on_mouse_button(glfw.MOUSE_BUTTON_LEFT, glfw.RELEASE, glfw.MOD_CONTROL)
    app.frame()
    out["force_after_release"] = float(np.abs(d.xfrc_applied[1]).max())
    out["pos"] = d.xpos[1].tolist()
    out["time"] = d.time
    right = np.cross(v.scn.camera[0].forward, v.scn.camera[0].up)
    out["right"] = right.tolist()
    # ctrl + right drag twists it
    v.on_mouse_button(glfw.MOUSE_BUTTON_RIGHT, glfw.PRESS, glfw.MOD_CONTROL)
    app.frame()
    for k in range(10):
      v.on_cursor(w / 2 + 80, h / 2 + 8 * (k + 1))
    for _ in range(15):
      app.frame()
    v.on_mouse_button(glfw.MOUSE_BUTTON_RIGHT, glfw.RELEASE, glfw.MOD_CONTROL)
    app.frame()
    out["quat"] = d.xquat[1].tolist()
    app.close()
    # the same number of steps without the mouse
    ref = engine.MjData(m)
    engine.mj_step(m, ref, int(round(out["time"] / m.opt.timestep)))
    out["ref_pos"] = ref.xpos[1].tolist()
    print(json.dumps(out))
  """,
    tmp_path,
  )
  assert result["selected"] == 1  # the box
  assert result["force_while_dragging"] > 0
  assert result["force_after_release"] == 0  # the viewer takes its force back
  moved = np.array(result["pos"]) - np.array(result["ref_pos"])
  assert np.linalg.norm(result["ref_pos"]) < 1e-12  # unperturbed, it stays put
  assert moved @ np.array(result["right"]) > 0.01  # pulled toward the drag (screen right)
  quat = np.array(result["quat"])
  assert abs(abs(quat[0]) - 1) > 1e-3  # twisted


@needs_xvfb
def test_passive_viewer_follows_the_users_loop(display, tmp_path):
  result = run_script(
    display,
    """
    import json, time, numpy as np, engine, engine.viewer
    from engine.render.visualize import mjv_initGeom
    m = engine.MjModel.from_xml_string(MODEL)
    d = engine.MjData(m)
    d.qvel[6] = 3.0
    d.xfrc_applied[1, 2] = 0.25                     # the user's own force
    out = {}
    keys = []
    with engine.viewer.launch_passive(m, d, key_callback=keys.append) as h:
      out["running"] = h.is_running()
      g = h.user_scn
      mjv_initGeom(g.geoms[0], engine.mjGEOM_SPHERE, np.array([0.05, 0, 0]),
                   np.array([0.0, 0.0, 0.5]), np.eye(3).ravel(), np.array([0, 1, 0, 1.0]))
      g.ngeom = 1
      for _ in range(50):
        engine.mj_step(m, d)
        h.sync()
        time.sleep(0.01)
      frames = h.frames
      time.sleep(0.3)
      with h.lock():
        v = h._viewer
        scn = v.scn
        out["user_geom"] = scn.geom_arrays.pos[scn.ngeom - 1].tolist()
        # the scene shows the data of the last sync: the arm's capsule is where d has it
        arm = [i for i in range(scn.ngeom) if scn.geom_arrays.objtype[i] == engine.mjOBJ_GEOM
               and scn.geom_arrays.objid[i] == 1][0]
        out["arm_scene"] = scn.geom_arrays.pos[arm].tolist()
        out["arm_data"] = d.geom_xpos[1].tolist()
        # space goes to the user's key callback: the caller owns the simulation
        import glfw
        v.on_key(glfw.KEY_SPACE, glfw.PRESS, 0)
        # the mouse pulls the box (selected as if double-clicked)
        v.pert.select = 1
        v.pert.localpos[:] = 0
        v._start_perturbation(d, engine.mjPERT_TRANSLATE)
        v.pert.refselpos[:] = [0.3, 0, 0]
      h.sync()
      out["pulled"] = d.xfrc_applied[1].tolist()
      with h.lock():
        h._viewer.pert.active = 0
      h.sync()
      out["released"] = d.xfrc_applied[1].tolist()
      out["frames"] = [frames, h.frames]
    out["closed"] = h.is_running()
    out["keys"] = keys
    print(json.dumps(out))
  """,
    tmp_path,
  )
  assert result["running"]
  assert result["frames"][0] > 0 and result["frames"][1] >= result["frames"][0]
  assert result["user_geom"] == pytest.approx([0, 0, 0.5])
  assert result["arm_scene"] == pytest.approx(result["arm_data"], abs=1e-6)
  assert result["pulled"][0] > 0  # toward the reference point at +x
  assert result["released"] == [0, 0, 0.25, 0, 0, 0]  # the user's force, untouched
  assert result["closed"] is False
  assert result["keys"] == [32]  # GLFW_KEY_SPACE


@needs_xvfb
def test_dropping_a_file_loads_it_and_a_bad_file_is_reported(display, tmp_path):
  good = tmp_path / "good.xml"
  good.write_text(MODEL)
  bad = tmp_path / "bad.xml"
  bad.write_text("<mujoco><worldbody><geom type='nosuchtype'/></worldbody></mujoco>")
  result = run_script(
    display,
    f"""
    import json
    from engine.viewer import ModelViewer
    app = ModelViewer(width=320, height=240)       # no model: waits for a file
    out = {{"empty": int(app.model.nbody)}}
    app.frame()
    app.viewer.on_drop([{str(good)!r}])
    app.frame()
    out["loaded"] = int(app.model.nbody)
    app.viewer.on_drop([{str(bad)!r}])
    app.frame()
    out["kept"] = int(app.model.nbody)
    out["message"] = app.viewer.message
    app.close()
    print(json.dumps(out))
  """,
    tmp_path,
  )
  assert result["empty"] == 1
  assert result["loaded"] == 3
  assert result["kept"] == 3
  assert "could not load" in result["message"] and "nosuchtype" in result["message"]


@needs_xvfb
def test_environment_viewer_follows_a_composer_environment(display, tmp_path):
  """A composer environment whose model changes every episode (varied sizes, edited into the
  compiled model): the viewer restarts at LAST and shows the new sizes."""
  result = run_script(
    display,
    """
    import json
    from examples.composer_run_to_target import make_environment
    from suite.viewer import EnvironmentViewer
    app = EnvironmentViewer(lambda: make_environment(vary_sizes=True, seed=0, time_limit=0.1),
                            width=320, height=240)
    app.viewer.speed_index = 0                       # 8x real time
    sizes = set()
    for _ in range(60):
      app.frame()
      sizes.add(tuple(app.viewer.m.geom_size.ravel().tolist()))
    out = {"episodes": app.episode, "sizes": len(sizes),
           "same": app.viewer.m is app.env.physics.model.ptr,
           "steps": app.total_steps}
    app.close()
    print(json.dumps(out))
  """,
    tmp_path,
  )
  assert result["episodes"] >= 2 and result["steps"] > 10
  assert result["sizes"] >= 2 and result["same"]


@needs_xvfb
def test_mujoco_viewer_is_ours_after_install_as_mujoco(display, tmp_path):
  """Code written for mujoco.viewer runs on ours: `import mujoco.viewer` after
  engine.install_as_mujoco() gives engine.viewer, with mujoco.viewer's keyword arguments."""
  result = run_script(
    display,
    """
    import json, engine
    engine.install_as_mujoco()
    import mujoco
    import mujoco.viewer
    m = mujoco.MjModel.from_xml_string(MODEL)
    d = mujoco.MjData(m)
    d.qvel[6] = 3.0
    with mujoco.viewer.launch_passive(m, d, show_left_ui=False, show_right_ui=False) as h:
      running = h.is_running()
      for _ in range(30):
        mujoco.mj_step(m, d)
        h.sync()
      frames = h.frames
    print(json.dumps({"running": running, "frames": frames, "closed": h.is_running(),
                      "ours": mujoco.viewer.launch_passive is engine.viewer.launch_passive,
                      "time": d.time, "hinge": float(d.qpos[7])}))
  """,
    tmp_path,
  )
  assert result["ours"] and result["running"] and not result["closed"]
  assert result["frames"] >= 1
  # the user's loop stepped the data the window showed
  assert result["time"] == pytest.approx(30 * 0.002) and result["hinge"] > 0.01


# Gymnasium's render_mode="human": its own GLFW window, drawn with mjv_updateScene /
# mjr_render / mjr_overlay into the window's framebuffer. The back buffer is read just before
# each buffer swap, with Gymnasium's menu overlay hidden (our fonts are not MuJoCo's).
GYM_HUMAN = """
import json, sys
import numpy as np
if sys.argv[1] == "ours":
  import engine
  engine.install_as_mujoco()
import glfw
import gymnasium
import OpenGL.GL as GL
frames = []
swap = glfw.swap_buffers
def read_then_swap(window):
  width, height = glfw.get_framebuffer_size(window)
  GL.glReadBuffer(GL.GL_BACK)
  pixels = GL.glReadPixels(0, 0, width, height, GL.GL_RGB, GL.GL_UNSIGNED_BYTE)
  frames.append(np.frombuffer(pixels, np.uint8).reshape(height, width, 3))
  swap(window)
glfw.swap_buffers = read_then_swap
env = gymnasium.make("Ant-v5", render_mode="human", width=320, height=240)
env.reset(seed=0)
rng = np.random.default_rng(0)
for _ in range(20):
  env.step(rng.uniform(-1, 1, env.action_space.shape))
env.unwrapped.mujoco_renderer._get_viewer("human")._hide_menu = True
env.render()
env.close()
np.save(sys.argv[2], frames[-1])
print(json.dumps({"frames": len(frames)}))
"""


@needs_xvfb
def test_gymnasium_human_mode_draws_mujocos_picture(display, tmp_path):
  script = tmp_path / "human.py"
  script.write_text(GYM_HUMAN)
  images = {}
  for engine_name in ("ours", "mujoco"):
    out = run(display, [str(script), engine_name, str(tmp_path / f"{engine_name}.npy")])
    assert json.loads(out.strip().splitlines()[-1])["frames"] == 22  # 21 steps/renders + 1
    images[engine_name] = np.load(tmp_path / f"{engine_name}.npy").astype(float)
  ours, theirs = images["ours"], images["mujoco"]
  assert ours.shape == theirs.shape == (240, 320, 3)
  assert ours.std() > 10  # a drawn scene, not a cleared window
  psnr = 10 * np.log10(255**2 / np.mean((ours - theirs) ** 2))
  assert psnr > 28, psnr  # measured 33.6 dB (the same ant, floor and sky)


# a textured box and a mesh, for the passive viewer's overlays and uploads
TEXTURED = """
<mujoco>
  <asset>
    <texture name="c" type="2d" builtin="checker" rgb1="0.9 0.2 0.2" rgb2="0.2 0.2 0.9"
             width="32" height="32"/>
    <material name="c" texture="c" texrepeat="2 2"/>
    <mesh name="tetra" vertex="0 0 0  0.3 0 0  0 0.3 0  0 0 0.3"/>
  </asset>
  <worldbody>
    <light directional="true" pos="0 0 3" dir="0 0 -1"/>
    <geom type="box" size="0.25 0.25 0.25" pos="-0.3 0 0" material="c"/>
    <geom type="mesh" mesh="tetra" pos="0.2 -0.1 -0.1" rgba="0.2 0.8 0.3 1"/>
  </worldbody>
</mujoco>
"""


@needs_xvfb
def test_passive_viewer_draws_texts_figures_images_and_uploads(display, tmp_path):
  """mujoco.viewer.Handle's set_texts, set_figures, set_images (and clear_*), update_mesh and
  update_texture: each changes the pixels where it should."""
  result = run_script(
    display,
    """
    import json, numpy as np, engine, engine.viewer
    TEXTURED = __TEXTURED__
    m = engine.MjModel.from_xml_string(TEXTURED)
    d = engine.MjData(m)
    engine.mj_forward(m, d)
    out = {}
    W, H = 320, 240
    def changed(a, b, rows=slice(None), cols=slice(None)):
      return int((np.abs(a[rows, cols].astype(int) - b[rows, cols]).sum(-1) > 30).sum())
    with engine.viewer.launch_passive(m, d, width=W, height=H) as h:
      h.sync()
      base = h._read_frame()
      out["shape"] = list(base.shape)
      # text at the top right: the overlay box and its glyphs
      h.set_texts((None, engine.mjtGridPos.mjGRID_TOPRIGHT, "Hello", "world"))
      frame = h._read_frame()
      out["text"] = changed(frame, base, slice(0, 40), slice(W // 2, W))
      h.clear_texts()
      out["text_cleared"] = changed(h._read_frame(), base, slice(0, 40), slice(W // 2, W))
      # a figure in a rectangle at the right (bottom-left origin: rows 80..180 from the top)
      fig = engine.MjvFigure()
      x = np.linspace(0, 1, 50)
      fig.linepnt[0] = 50
      fig.linedata[0, :100:2] = x
      fig.linedata[0, 1:100:2] = x**2
      fig.title = "plot"
      fig.figurergba[:] = [0.3, 0.3, 0.6, 1]
      fig.flg_ticklabel[:] = 0  # (with them the plot area would be empty at this size)
      h.set_figures((engine.MjrRect(170, 60, 140, 100), fig))
      frame = h._read_frame()
      out["figure"] = changed(frame, base, slice(80, 180), slice(170, 310))
      out["figure_outside"] = changed(frame, base, slice(0, 70), slice(170, 310))
      red = np.abs(frame[80:180, 170:310].astype(int) - [255, 76, 76]).max(-1) <= 40
      out["figure_line"] = int(red.sum())
      h.clear_figures()
      # an image: exact pixels, top row first
      image = np.zeros((30, 40, 3), np.uint8)
      image[:15] = [255, 0, 0]
      image[15:] = [0, 0, 255]
      h.set_images((engine.MjrRect(10, 100, 40, 30), image))
      frame = h._read_frame()
      out["image_exact"] = bool((frame[H - 130 : H - 100, 10:50] == image).all())
      try:
        h.set_images((engine.MjrRect(0, 0, 10, 10), image))
      except ValueError as e:
        out["image_error"] = str(e)
      h.clear_images()
      frame = h._read_frame()
      out["image_cleared"] = not bool((frame[H - 130 : H - 100, 10:50] == image).all())
      out["figure_cleared"] = changed(frame, base, slice(80, 180), slice(170, 310))
      # the texture inverted, then the mesh enlarged, each uploaded by the viewer
      m.tex_data[:] = 255 - m.tex_data
      h.update_texture(0)
      tex = h._read_frame()
      out["texture"] = changed(tex, base, slice(40, 200), slice(40, 280))
      m.mesh_vert[:] *= 2
      h.update_mesh(0)
      out["mesh"] = changed(h._read_frame(), tex, slice(40, 200), slice(40, 280))
      try:
        h.update_mesh(5)
      except ValueError as e:
        out["mesh_error"] = str(e)
    print(json.dumps(out))
  """.replace("__TEXTURED__", repr(TEXTURED)),
    tmp_path,
  )
  assert result["shape"] == [240, 320, 3]
  assert result["text"] > 100 and result["text_cleared"] == 0
  assert result["figure"] > 0.8 * 100 * 140  # its background covers the rectangle
  assert result["figure_outside"] == 0 and result["figure_line"] > 50
  assert result["image_exact"] and result["image_cleared"]
  assert "does not match" in result["image_error"]
  assert result["figure_cleared"] == 0
  assert result["texture"] > 500
  assert result["mesh"] > 200
  assert "out of range" in result["mesh_error"]
