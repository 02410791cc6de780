"""Layout of the repository's packages: imports run one way, and the code passes ruff.

Between packages the direction is engine <- mjcf <- composer <- suite (assets, our MJCF data,
imports nothing and only composer and suite read it): engine imports none of the others, mjcf
only engine, composer not suite. Inside a package no two modules import each other, even through
others and counting imports inside functions and `importlib.import_module("...")` calls: a
cycle would mean a module calling back into one that builds on it. In engine the pipeline's
order is math -> sparse/support -> smooth -> constraint -> solver -> forward -> driver -> physics,
and the renderer and viewer never reach engine.physics (the Python API builds on them, not
the other way round).
"""

import ast
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "mjcf", "composer", "suite", "assets")
# the packages each package may import (besides itself)
ALLOWED = {
  "engine": set(),
  "assets": set(),
  "mjcf": {"engine"},
  "composer": {"engine", "mjcf", "assets"},
  "suite": {"engine", "mjcf", "composer", "assets"},
}
ENGINE = ROOT / "engine"


def _module_name(path):
  parts = list(path.relative_to(ROOT).with_suffix("").parts)
  if parts[-1] == "__init__":
    parts.pop()
  return ".".join(parts)


MODULES = {
  _module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))
}


def _package_of(name, path):
  return name if path.name == "__init__.py" else name.rsplit(".", 1)[0]


def _resolve(name):
  """The module `name` loads: itself, else its longest prefix that is one of ours (for a name
  imported from a module, or a dynamic suffix), else None (not ours)."""
  while name:
    if name in MODULES:
      return name
    name = name.rpartition(".")[0]
  return None


def _literal_prefix(node, name):
  """The text of an import_module argument up to its first dynamic part (`__name__` is the
  importing module's name); None when it does not start with a literal."""
  if isinstance(node, ast.Constant) and isinstance(node.value, str):
    return node.value
  if isinstance(node, ast.JoinedStr):
    text = ""
    for part in node.values:
      if isinstance(part, ast.Constant):
        text += part.value
      elif isinstance(part.value, ast.Name) and part.value.id == "__name__":
        text += name
      else:
        return text.rpartition(".")[0] or None  # (its package, at least)
    return text
  if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
    left = _literal_prefix(node.left, name)
    return left and left.rpartition(".")[0]
  if isinstance(node, ast.Name) and node.id == "__name__":
    return name
  return None


def _is_import_module(func):
  return (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
    isinstance(func, ast.Name) and func.id in ("import_module", "__import__")
  )


def _imports(name, path):
  """Our modules imported anywhere in the module (package imports resolve to __init__)."""
  package = _package_of(name, path)
  out = set()
  for node in ast.walk(ast.parse(path.read_text(), str(path))):
    if isinstance(node, ast.Import):
      names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
      if node.level:
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1])
        base = f"{base}.{node.module}" if node.module else base
      else:
        base = node.module
      names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
    elif isinstance(node, ast.Call) and _is_import_module(node.func) and node.args:
      text = _literal_prefix(node.args[0], name)
      names = [text] if text else []
    else:
      continue
    out.update(m for m in map(_resolve, names) if m and m != name)
  return out


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _top(name):
  return name.split(".")[0]


def _cycle(graph):
  """One import cycle as a list of modules, or None."""
  state = {}

  def visit(node, path):
    state[node] = "open"
    for nxt in sorted(graph[node]):
      if state.get(nxt) == "open":
        return path[path.index(nxt) :] + [nxt]
      if nxt not in state:
        found = visit(nxt, path + [nxt])
        if found:
          return found
    state[node] = "done"
    return None

  for start in sorted(graph):
    if start not in state:
      found = visit(start, [start])
      if found:
        return found
  return None


def _reach(graph, start):
  """Modules reachable from `start` (not counting the parent packages Python also loads)."""
  seen, todo = set(), [start]
  while todo:
    for dep in graph[todo.pop()]:
      if dep not in seen:
        seen.add(dep)
        todo.append(dep)
  return seen


def test_cycle_finder_sees_a_cycle():
  assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
  assert _cycle({"a": {"b"}, "b": set()}) is None


def test_import_finder_sees_every_form(tmp_path, monkeypatch):
  """Plain, relative, in-function and import_module imports all count, with module or package
  targets; names of other libraries do not."""
  fake = {n: tmp_path / f"{n}.py" for n in ("p.a", "p.b", "p.c", "p.d", "p.e", "q.x", "p.src")}
  fake["p"] = tmp_path / "p" / "__init__.py"
  monkeypatch.setattr(sys.modules[__name__], "MODULES", fake)
  fake["p.src"].write_text(
    "import numpy\nimport p.a\nfrom . import b\nfrom p.c import thing\n"
    "def f(name):\n  import importlib\n  importlib.import_module('p.d')\n"
    "  importlib.import_module('q.' + name)\n  importlib.import_module(f'q.x.{name}')\n"
  )
  assert _imports("p.src", fake["p.src"]) == {"p.a", "p.b", "p.c", "p.d", "q.x"}
  fake["p"].parent.mkdir()
  fake["p"].write_text("import importlib\nimportlib.import_module(f'{__name__}.e')\n")
  assert _imports("p", fake["p"]) == {"p.e"}


def test_the_walk_sees_every_package():
  assert {_top(name) for name in MODULES} == set(PACKAGES)
  assert ALLOWED.keys() == set(PACKAGES)


def test_packages_import_one_way():
  """engine <- mjcf <- composer <- suite; assets (our MJCF data) imports none of them."""
  wrong = sorted(
    f"{name} imports {dep}"
    for name, deps in GRAPH.items()
    for dep in deps
    if _top(dep) != _top(name) and _top(dep) not in ALLOWED[_top(name)]
  )
  assert not wrong, "\n".join(wrong)


def test_render_and_viewer_do_not_reach_physics():
  """The Physics class builds on the renderer (Physics.render) and the viewer on the raw
  MjModel/MjData API: neither loads engine.physics, directly or through other modules."""
  for name in MODULES:
    if name.startswith(("engine.render", "engine.viewer")):
      reached = _reach(GRAPH, name)
      assert "engine.physics" not in reached, f"{name} reaches engine.physics"
      assert "engine" not in reached, f"{name} reaches engine/__init__ (and engine.physics)"


# scripts (`python -m engine`, `python -m engine.warmup`) use the package's public API
SCRIPTS = ["engine.__main__", "engine.warmup"]


def test_engine_imports_run_one_way():
  # `engine` itself (its __init__ re-exports the API) imports the pipeline; only scripts import it
  graph = {
    name: deps & {n for n in MODULES if _top(n) == "engine"}
    for name, deps in GRAPH.items()
    if _top(name) == "engine"
  }
  users = sorted(name for name, deps in graph.items() if "engine" in deps)
  assert users == SCRIPTS, users
  for name in SCRIPTS:
    graph[name].discard("engine")
  assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_no_import_cycle_within_a_package():
  for package in PACKAGES:
    if package == "engine":
      continue  # (test_engine_imports_run_one_way, which also allows its scripts)
    graph = {
      name: {d for d in deps if _top(d) == package}
      for name, deps in GRAPH.items()
      if _top(name) == package
    }
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle)


def test_python_only_modules_are_not_imported_by_jitted_code():
  """engine/_jit.py leaves these out of the cache key: jitted code must not depend on them."""
  from engine import _jit

  engine = {name: path for name, path in MODULES.items() if _top(name) == "engine"}
  python_only = {
    name for name, path in engine.items() if path.relative_to(ENGINE).parts[0] in _jit.PYTHON_ONLY
  }
  jitted = {
    name
    for name, path in engine.items()
    if name not in python_only and ("@jit" in path.read_text() or "@stage" in path.read_text())
  }
  reach = set().union(*(_reach(GRAPH, name) for name in jitted))
  assert python_only and not (reach & python_only), sorted(reach & python_only)


@pytest.mark.parametrize(
  "command", [("check", "--output-format", "concise"), ("format", "--check")], ids=str
)
def test_ruff_clean(command):
  """The linter (import order included) and the formatter find nothing to change."""
  out = subprocess.run(
    [sys.executable, "-m", "ruff", *command, "."],
    cwd=ROOT,
    capture_output=True,
    text=True,
  )
  assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-1000:]
