"""Viewer frame rate: frames/s of `suite.viewer` in a 640x480 window, with where the time goes.

Run: python benchmarks/viewer.py [--domain humanoid --task run] [--frames 100] [--size 480x640]

Opens suite.viewer's window on the display (starting a virtual X server, Xvfb, when DISPLAY is
unset), runs a random policy in real time and times each frame's parts: input and environment
steps with the scene update ("advance"), drawing ("render", finished with glFinish so the
rasterizer's work is counted), and the buffer swap. For scale, the same model drawn by MuJoCo's
`mujoco.Renderer` into an offscreen buffer of the same size on the same OpenGL (a hidden GLFW
window), one mj_step between frames: once with the model's multisampling and once without
(our window has none on software rasterizers, see engine/viewer/window.py).
"""

import argparse
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _start_xvfb():
  """Start Xvfb and set DISPLAY; returns the process (None when a display is already set)."""
  if os.environ.get("DISPLAY"):
    return None
  from engine.viewer.window import start_virtual_display

  proc, os.environ["DISPLAY"] = start_virtual_display()
  return proc


def ours(domain, task, height, width, nframe):
  from OpenGL import GL

  import suite
  from suite.viewer import EnvironmentViewer
  from suite.viewer import random_policy

  env = suite.load(domain, task)
  app = EnvironmentViewer(env, random_policy(env), width=width, height=height)
  for _ in range(10):
    app.frame()
  parts = {"advance": 0.0, "render": 0.0, "swap": 0.0}
  t0 = time.perf_counter()
  steps0 = app.total_steps
  for _ in range(nframe):
    a = time.perf_counter()
    app.window.poll_events()
    app.advance()
    b = time.perf_counter()
    app.viewer.render()
    GL.glFinish()
    c = time.perf_counter()
    app.viewer.swap()
    parts["advance"] += b - a
    parts["render"] += c - b
    parts["swap"] += time.perf_counter() - c
  wall = time.perf_counter() - t0
  steps = app.total_steps - steps0
  renderer = GL.glGetString(GL.GL_RENDERER).decode()
  app.close()
  return nframe / wall, {k: 1e3 * v / nframe for k, v in parts.items()}, steps / wall, renderer


def mujoco_renderer(domain, height, width, nframe, samples):
  os.environ["MUJOCO_GL"] = "glfw"
  import mujoco

  m = mujoco.MjModel.from_xml_path(str(ROOT / "assets" / "suite" / f"{domain}.xml"))
  if samples is not None:
    m.vis.quality.offsamples = samples
  m.vis.global_.offwidth, m.vis.global_.offheight = max(width, 640), max(height, 480)
  d = mujoco.MjData(m)
  with mujoco.Renderer(m, height, width) as r:
    for _ in range(5):
      mujoco.mj_step(m, d)
      r.update_scene(d)
      r.render()
    t0 = time.perf_counter()
    for _ in range(nframe):
      mujoco.mj_step(m, d)
      r.update_scene(d)
      r.render()
    return nframe / (time.perf_counter() - t0)


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--domain", default="humanoid")
  parser.add_argument("--task", default="run")
  parser.add_argument("--frames", type=int, default=100)
  parser.add_argument("--size", default="480x640", help="HEIGHTxWIDTH")
  args = parser.parse_args()
  height, width = (int(v) for v in args.size.split("x"))
  xvfb = _start_xvfb()
  try:
    fps, parts, steps_per_s, renderer = ours(args.domain, args.task, height, width, args.frames)
    print(f"OpenGL: {renderer}; display {os.environ['DISPLAY']}")
    print(
      f"suite.viewer {args.domain} {args.task} at {width}x{height}: {fps:.1f} frames/s "
      f"({steps_per_s:.0f} environment steps/s in real time)"
    )
    print("  ms per frame: " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))
    try:
      import mujoco  # noqa: F401
    except ImportError:
      return
    for samples, label in ((None, "model's multisampling"), (0, "no multisampling")):
      rate = mujoco_renderer(args.domain, height, width, args.frames, samples)
      print(
        f"MuJoCo's Renderer, same model and size, {label}: {rate:.1f} frames/s "
        f"(ours / MuJoCo: {fps / rate:.2f})"
      )
  finally:
    if xvfb is not None:
      xvfb.terminate()


if __name__ == "__main__":
  main()
