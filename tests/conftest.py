"""Test configuration: the repository root is importable (engine, mjcf, tests.oracle)."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
