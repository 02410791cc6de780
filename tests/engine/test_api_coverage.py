"""What engine lacks of the `mujoco` module is written down: docs/physics_api.md's table lists
exactly the public names of mujoco 3.17 that engine does not provide."""

import pathlib
import re
import types

import mujoco

import engine

DOC = pathlib.Path(__file__).parents[2] / "docs" / "physics_api.md"
SECTION = "### What `engine` lacks of `mujoco` 3.17"

# names the mujoco module imports for its own use, not part of its API
NOT_API = {"Any", "IO", "Sequence", "TypeAlias", "Union", "MjStruct"}


def _lacking():
  names = set()
  for name in dir(mujoco):
    if name.startswith("_") or name in NOT_API:
      continue
    if isinstance(getattr(mujoco, name), types.ModuleType):
      continue
    try:
      getattr(engine, name)
    except AttributeError:
      names.add(name)
  return names


def _documented():
  text = DOC.read_text()
  table = text[text.index(SECTION) :].split("\n\n")[2]
  rows = [line.split(" | ")[0] for line in table.splitlines() if line.startswith("| `")]
  return {name for row in rows for name in re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", row)}


def test_lacking_names_are_documented():
  missing_from_docs = _lacking() - _documented()
  assert not missing_from_docs, f"add to {DOC.name}: {sorted(missing_from_docs)}"


def test_documented_names_are_lacking():
  provided = _documented() - _lacking()
  assert not provided, f"engine provides these now, remove them from {DOC.name}: {sorted(provided)}"
