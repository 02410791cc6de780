"""Our own MJCF test models: every feature the engine covers, grouped by folder."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent


def all_models() -> list:
  """Paths of every test model (sorted), for parameterised oracle tests; files in a `parts`
  folder are fragments that other models include."""
  return sorted(p for p in ROOT.rglob("*.xml") if "parts" not in p.relative_to(ROOT).parts)
