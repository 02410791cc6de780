"""Our own MJCF test models: every feature the engine covers, grouped by folder."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent


def all_models() -> list:
  """Paths of every test model (sorted), for parameterised oracle tests."""
  return sorted(ROOT.rglob("*.xml"))
