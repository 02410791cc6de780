"""Test configuration: the repository root is importable (engine, mjcf, tests.oracle), the
OpenGL backend is chosen before the oracles are imported (tests/gl.py), and the tests run on
several processes (pytest-xdist, `-n auto` in pyproject.toml) that share one compiled engine.
Each test is marked with its areas (`oracle`, `render`, `suite`; see _area_markers) so that a
subset can be chosen with `-m`."""

import ast
import functools
import os
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests import gl  # noqa: E402

gl.choose_backend_for_oracles()

# the longest test (a subprocess running the bounds-checked build), started first so that the
# others run beside it
_BOUNDS_CHECKED = "tests/engine/test_memory_safety.py::test_bounds_checked_engine"

_TESTS = pathlib.Path(__file__).resolve().parent
# the area of the tests in each of these folders of tests/ (and in their subfolders)
_FOLDER_AREAS = {
  "render": "render",
  "viewer": "render",
  "suite": "suite",
  "locomotion": "suite",
  "manipulation": "suite",
}
# what a test compares against: the test-only oracles (labmaze is the oracle of our labmaze
# port) and tests/oracle.py, which copies mujoco's compiled models into ours
_ORACLES = ("mujoco", "dm_control", "labmaze", "tests.oracle")


def pytest_configure(config):
  """Before xdist starts its workers, compile the engine (or load it) in this process once, so
  that the workers load it from the cache instead of each compiling it."""
  if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
    return
  from engine import _jit

  if not _jit.DISABLE_JIT:
    from engine import _stage

    _stage.compile_all(lazy=True)


def pytest_xdist_auto_num_workers(config):
  """`-n auto`: a worker per core, at most one per 3 GB of memory (each holds mujoco, dm_control
  and the engine) and at most 4."""
  try:
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
  except (ValueError, OSError, AttributeError):
    memory = 12 << 30
  return max(1, min(os.cpu_count() or 1, memory // (3 << 30), 4))


def _is_oracle(name):
  return any(name == oracle or name.startswith(oracle + ".") for oracle in _ORACLES)


def _called_name(func):
  return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _imports(nodes, package):
  """The modules the statements `nodes` import anywhere (`import`, `from ... import`, and
  `pytest.importorskip` or `importlib.import_module` of a literal name), with the names imported
  from them as `module.name` (which may be submodules); `package` resolves relative imports."""
  names = set()
  for node in (inner for outer in nodes for inner in ast.walk(outer)):
    if isinstance(node, ast.Import):
      names.update(alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
      module = node.module or ""
      if node.level:
        base = package.rsplit(".", node.level - 1)[0]
        module = f"{base}.{module}" if module else base
      names.add(module)
      names.update(f"{module}.{alias.name}" for alias in node.names)
    elif (
      isinstance(node, ast.Call)
      and node.args
      and isinstance(node.args[0], ast.Constant)
      and _called_name(node.func) in ("importorskip", "import_module", "__import__")
    ):
      names.add(str(node.args[0].value))
  return names


@functools.cache
def _statements(path):
  """(the top-level statements of a Python file of tests/, its package's name)."""
  tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
  return tree.body, ".".join(path.relative_to(_TESTS.parent).parent.parts)


def _helper_path(name):
  """The file of module `name` if it is one of tests/ (a helper such as tests/suite/parity.py),
  else None."""
  if name.split(".")[0] != "tests":
    return None
  base = _TESTS.parent.joinpath(*name.split("."))
  return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def _reaches_oracle(names):
  """Whether one of the modules `names` is an oracle or is a helper of tests/ that imports one,
  itself or through other helpers."""
  todo, seen = list(names), set()
  while todo:
    name = todo.pop()
    if _is_oracle(name):
      return True
    helper = _helper_path(name)
    if helper is not None and helper not in seen:
      seen.add(helper)
      todo.extend(_imports(*_statements(helper)))
  return False


@functools.cache
def _oracle_tests(path):
  """(whether every test of a test module compares against an oracle, the test functions that
  do by themselves): every test when the module imports one outside its test functions (at the
  top, in a helper or fixture), else the tests that import one in their own body."""
  statements, package = _statements(path)
  tests = {
    node.name: node
    for node in statements
    if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
  }
  others = [node for node in statements if node not in tests.values()]
  if _reaches_oracle(_imports(others, package)):
    return True, frozenset()
  return False, frozenset(
    name for name, node in tests.items() if _reaches_oracle(_imports([node], package))
  )


def _area_markers(item):
  """The area markers of a test: `suite` and `render` by its folder of tests/, `render` also
  when it draws in this process (the `opengl` fixture), `oracle` when it compares against the
  mujoco package, dm_control or labmaze (see _oracle_tests)."""
  path = pathlib.Path(item.path).resolve()
  if _TESTS not in path.parents:
    return []
  areas = {_FOLDER_AREAS.get(path.relative_to(_TESTS).parts[0])} - {None}
  if "opengl" in getattr(item, "fixturenames", ()):
    areas.add("render")
  if path.suffix == ".py":
    every_test, oracle_tests = _oracle_tests(path)
    if every_test or getattr(item, "originalname", None) in oracle_tests:
      areas.add("oracle")
  return sorted(areas)


def pytest_collection_modifyitems(config, items):
  items.sort(key=lambda item: item.nodeid != _BOUNDS_CHECKED)
  for item in items:
    for area in _area_markers(item):
      item.add_marker(area)

  # tests that draw in this process run where an OpenGL backend starts, and say why not
  # elsewhere (.ci/run installs Mesa's EGL and OSMesa, so none is skipped there)
  drawing = [item for item in items if "opengl" in item.fixturenames]
  if drawing:
    problem = gl.opengl_problem()
    for item in drawing:
      item.add_marker(pytest.mark.skipif(problem is not None, reason=str(problem)))


@pytest.fixture(scope="session")
def opengl():
  """Marks a test that draws in this process (see pytest_collection_modifyitems)."""
