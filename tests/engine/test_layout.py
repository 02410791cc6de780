"""Layout of engine/: imports run one way (no cycle between engine modules, counting imports
inside functions too), and the code passes ruff with the repository's settings.

The pipeline's order is math -> sparse/support -> smooth -> constraint -> solver -> forward ->
driver -> physics; a cycle would mean a module calling back into one that builds on it.
"""

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"


def _module_name(path):
  parts = list(path.relative_to(ROOT).with_suffix("").parts)
  if parts[-1] == "__init__":
    parts.pop()
  return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ENGINE.rglob("*.py"))}


def _imports(name, path):
  """Engine modules imported anywhere in the module (package imports resolve to __init__)."""
  package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
  out = set()
  for node in ast.walk(ast.parse(path.read_text(), str(path))):
    if isinstance(node, ast.Import):
      names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
      if node.level:
        base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1])
        base = f"{base}.{node.module}" if node.module else base
      else:
        base = node.module
      names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
               for a in node.names]
    else:
      continue
    out.update(n for n in names if n in MODULES and n != name)
  return out


def _cycle(graph):
  """One import cycle as a list of modules, or None."""
  state = {}

  def visit(node, path):
    state[node] = "open"
    for nxt in sorted(graph[node]):
      if state.get(nxt) == "open":
        return path[path.index(nxt):] + [nxt]
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


def test_cycle_finder_sees_a_cycle():
  assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
  assert _cycle({"a": {"b"}, "b": set()}) is None


# scripts (`python -m engine`, `python -m engine.warmup`) use the package's public API
SCRIPTS = ["engine.__main__", "engine.warmup"]


def test_engine_imports_run_one_way():
  # `engine` itself (its __init__ re-exports the API) imports the pipeline; only scripts import it
  graph = {name: _imports(name, path) for name, path in MODULES.items()}
  users = sorted(name for name, deps in graph.items() if "engine" in deps)
  assert users == SCRIPTS, users
  for name in SCRIPTS:
    graph[name].discard("engine")
  assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_python_only_modules_are_not_imported_by_jitted_code():
  """engine/_jit.py leaves these out of the cache key: jitted code must not depend on them."""
  from engine import _jit

  graph = {name: _imports(name, path) for name, path in MODULES.items()}
  python_only = {name for name, path in MODULES.items()
                 if path.relative_to(ENGINE).parts[0] in _jit.PYTHON_ONLY}
  jitted = {name for name, path in MODULES.items() if name not in python_only
            and ("@jit" in path.read_text() or "@stage" in path.read_text())}
  # modules reachable from jitted modules
  reach, todo = set(), list(jitted)
  while todo:
    for dep in graph[todo.pop()]:
      if dep not in reach:
        reach.add(dep)
        todo.append(dep)
  assert python_only and not (reach & python_only), sorted(reach & python_only)


def test_ruff_clean():
  out = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise", "."],
                       cwd=ROOT, capture_output=True, text=True)
  assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-1000:]
