"""Open a model in the interactive viewer: `python -m engine.viewer [MODEL.xml]`.

With no file, the window waits for one to be dropped on it (or opened with ctrl+O).
`--frames N --screenshot FILE.png` runs N frames, saves the last one and exits (for scripts
and tests on a virtual display); the frame rate is printed at the end.
"""

import argparse
import sys
import time

from engine.physics import RenderingUnavailableError


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(prog="python -m engine.viewer",
                                   description=__doc__.splitlines()[0])
  parser.add_argument("model", nargs="?", help="MJCF file")
  parser.add_argument("--width", type=int, default=1280)
  parser.add_argument("--height", type=int, default=720)
  parser.add_argument("--frames", type=int, help="exit after N frames")
  parser.add_argument("--screenshot", metavar="FILE.png", help="save the last frame")
  parser.add_argument("--paused", action="store_true", help="start paused")
  args = parser.parse_args(argv)
  if args.frames is not None and args.frames < 1:
    parser.error("--frames must be at least 1")
  if args.screenshot and args.frames is None:
    parser.error("--screenshot needs --frames")

  from engine.viewer.session import ModelViewer
  try:
    app = ModelViewer(path=args.model, width=args.width, height=args.height)
  except RenderingUnavailableError as e:
    print(f"error: {e}", file=sys.stderr)
    return 1
  except Exception as e:  # a file that does not load: say why
    print(f"error: could not load {args.model}: {e}", file=sys.stderr)
    return 1
  app.viewer.paused = args.paused
  t0 = time.perf_counter()
  frames = app.run(frames=args.frames, screenshot=args.screenshot)
  wall = time.perf_counter() - t0
  print(f"{frames} frames in {wall:.2f} s ({frames / wall:.1f} frames/s), "
        f"simulated {app.data.time:.3f} s")
  if args.screenshot:
    print(f"saved the last frame to {args.screenshot}")
  return 0


if __name__ == "__main__":
  sys.exit(main())
