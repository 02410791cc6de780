"""Open a model in the interactive viewer: `python -m engine.viewer [MODEL.xml]`.

With no file, the window waits for one to be dropped on it (or opened with ctrl+O).
`--frames N --screenshot FILE.png` runs N frames, saves the last one and exits (for scripts
and tests on a virtual display); the frame rate is printed at the end.
"""

import argparse
import sys

from engine.errors import RenderingUnavailableError
from engine.viewer import session


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(
    prog="python -m engine.viewer", description=__doc__.splitlines()[0]
  )
  parser.add_argument("model", nargs="?", help="MJCF file")
  parser.add_argument("--paused", action="store_true", help="start paused")
  session.add_window_arguments(parser)
  args = parser.parse_args(argv)
  session.check_window_arguments(parser, args)
  try:
    app = session.ModelViewer(path=args.model, width=args.width, height=args.height)
  except RenderingUnavailableError as e:
    print(f"error: {e}", file=sys.stderr)
    return 1
  except Exception as e:  # a file that does not load: say why
    print(f"error: could not load {args.model}: {e}", file=sys.stderr)
    return 1
  app.viewer.paused = args.paused
  return session.run_command_line(app, args, lambda a: f"simulated {a.data.time:.3f} s")


if __name__ == "__main__":
  sys.exit(main())
