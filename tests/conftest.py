"""Test configuration: the repository root is importable (engine, mjcf, tests.oracle)."""

import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

# the oracles (mujoco, dm_control) choose their OpenGL backend when first imported, whichever
# test module imports them first: without a display, Mesa's EGL (as our renderer's default)
if not os.environ.get("DISPLAY"):
  os.environ.setdefault("MUJOCO_GL", "egl")
