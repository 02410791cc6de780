"""Run a suite task with a random policy: `python -m suite [DOMAIN TASK] [--episodes N]`.

Prints the task's specs, then each episode's return, length and speed (environment steps per
second, observation and reward included). The default task is cartpole swingup.
`--save FILE.gif` (or `.png`) also renders the first episode every `--every` steps and saves the
frames as an animated GIF (or a PNG contact sheet); steps/s then includes rendering.
"""

import argparse
import sys
import time

import numpy as np

import suite


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(prog="python -m suite", description=__doc__.splitlines()[0])
  parser.add_argument("domain", nargs="?", default="cartpole")
  parser.add_argument("task", nargs="?", default="swingup")
  parser.add_argument("--episodes", type=int, default=1)
  parser.add_argument("--seed", type=int, default=0, help="task and policy seed")
  parser.add_argument(
    "--save",
    metavar="FILE",
    help="save frames of the first episode: an animated .gif or a .png contact sheet",
  )
  parser.add_argument("--every", type=int, default=10, help="render every N steps (--save)")
  parser.add_argument("--camera", default="0", help="camera index or name (--save)")
  parser.add_argument("--size", default="240x320", help="frame HEIGHTxWIDTH (--save)")
  args = parser.parse_args(argv)
  if args.save and not args.save.lower().endswith((".gif", ".png")):
    parser.error("--save needs a .gif or .png file name")
  if args.every < 1:
    parser.error("--every must be at least 1")
  try:
    height, width = (int(v) for v in args.size.lower().split("x"))
  except ValueError:
    parser.error(f"--size must be HEIGHTxWIDTH, got {args.size!r}")
  camera = int(args.camera) if args.camera.lstrip("-").isdigit() else args.camera

  t0 = time.perf_counter()
  try:
    env = suite.load(args.domain, args.task, task_kwargs={"random": args.seed})
  except ValueError as e:
    parser.error(str(e))
  env.reset()
  print(f"{args.domain}/{args.task}: loaded in {time.perf_counter() - t0:.2f} s")
  spec = env.action_spec()
  print(f"action: shape {spec.shape}, bounds [{np.min(spec.minimum):g}, {np.max(spec.maximum):g}]")
  for key, value in env.observation_spec().items():
    print(f"observation {key!r}: shape {value.shape}")

  rng = np.random.RandomState(args.seed)
  lo, hi = np.maximum(spec.minimum, -1), np.minimum(spec.maximum, 1)
  for episode in range(args.episodes):
    time_step = env.reset()
    total, steps = 0.0, 0
    frames = []
    record = args.save and episode == 0
    t0 = time.perf_counter()
    while not time_step.last():
      if record and steps % args.every == 0:
        frames.append(env.physics.render(height, width, camera_id=camera))
      time_step = env.step(rng.uniform(lo, hi))
      total += time_step.reward
      steps += 1
    wall = time.perf_counter() - t0
    print(
      f"episode {episode}: return {total:.2f} in {steps} steps, "
      f"{steps / wall:.0f} steps/s ({1e6 * wall / steps:.1f} us per env.step)"
    )
    if record:
      _save_frames(frames, args.save)
      print(f"saved {len(frames)} frames of {height}x{width} to {args.save}")
  return 0


def _save_frames(frames, path):
  """An animated GIF (25 frames/s) or a PNG contact sheet (8 frames per row) of RGB frames."""
  from PIL import Image

  images = [Image.fromarray(f) for f in frames]
  if path.lower().endswith(".gif"):
    images[0].save(path, save_all=True, append_images=images[1:], duration=40, loop=0)
    return
  h, w = frames[0].shape[:2]
  cols = min(8, len(images))
  rows = -(-len(images) // cols)
  sheet = Image.new("RGB", (cols * w, rows * h))
  for k, image in enumerate(images):
    sheet.paste(image, ((k % cols) * w, (k // cols) * h))
  sheet.save(path)


if __name__ == "__main__":
  sys.exit(main())
