"""Layout of engine/compiler/: its modules import each other without cycles, at module level,
and take MuJoCo's enum values and constants from engine/enums.py instead of restating them.

Reads the sources with `ast`, walking whole modules (function bodies too), so an import hidden in
a function still counts.
"""

import ast
import pathlib

import pytest

from engine import compiler
from engine import enums

PACKAGE = "engine.compiler"
COMPILER_DIR = pathlib.Path(compiler.__file__).parent
TREES = {p.stem: ast.parse(p.read_text(), str(p)) for p in sorted(COMPILER_DIR.glob("*.py"))}
ENUM_NAMES = {name for name in dir(enums) if name.startswith("mj")}


def compiler_imports(tree, anywhere=True):
  """Compiler modules imported by `tree` (anywhere, or only by its top-level statements)."""
  out = set()
  for node in ast.walk(tree) if anywhere else tree.body:
    if isinstance(node, ast.Import):
      names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
      base = PACKAGE + ("." + node.module if node.module else "") if node.level else node.module
      # `from engine.compiler import x` imports module x, or a name of the package's __init__
      names = [f"{base}.{a.name}" for a in node.names] if base == PACKAGE else [base]
    else:
      continue
    for name in names:
      if name == PACKAGE:
        out.add("__init__")
      elif name.startswith(PACKAGE + "."):
        module = name[len(PACKAGE) + 1 :].split(".")[0]
        out.add(module if module in TREES else "__init__")
  return out


def restated_constants(tree):
  """Assignments that restate engine.enums: an mj* name of engine.enums bound locally, or
  uppercase names unpacked from range(...) or from integer literals (`FREE, BALL = range(2)`)."""
  found = []
  for node in ast.walk(tree):
    if isinstance(node, ast.Assign):
      targets, value = node.targets, node.value
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
      targets, value = [node.target], node.value
    else:
      continue
    for target in targets:
      names = [t.id for t in ast.walk(target) if isinstance(t, ast.Name)]
      found += [(node.lineno, n) for n in names if n in ENUM_NAMES]
      if isinstance(target, ast.Tuple) and all(n.isupper() for n in names):
        from_range = (
          isinstance(value, ast.Call)
          and isinstance(value.func, ast.Name)
          and value.func.id == "range"
        )
        from_ints = isinstance(value, ast.Tuple) and all(
          isinstance(v, ast.Constant) and type(v.value) is int for v in value.elts
        )
        if from_range or from_ints:
          found.append((node.lineno, ", ".join(names)))
  return found


def test_checks_see_what_they_look_for():
  tree = ast.parse(
    "import engine.compiler.schema\n"
    "def f():\n  from engine.compiler import build_tree, compile_model\n"
    "FREE, BALL = range(2)\nmjMINVAL = 1e-15\nIN_A, IN_B = 1, 2\n"
    "x, y = 1, 2\nmjEPS = 1e-14\n"
  )
  assert compiler_imports(tree) == {"schema", "build_tree", "__init__"}
  assert compiler_imports(tree, anywhere=False) == {"schema"}
  assert [n for _, n in restated_constants(tree)] == ["FREE, BALL", "mjMINVAL", "IN_A, IN_B"]


def test_compiler_imports_have_no_cycle():
  graph = {name: compiler_imports(tree) for name, tree in TREES.items()}
  done, stack = set(), []

  def visit(module):
    stack.append(module)
    for dep in sorted(graph[module]):
      assert dep not in stack, "import cycle: " + " -> ".join(stack[stack.index(dep) :] + [dep])
      if dep not in done:
        visit(dep)
    stack.pop()
    done.add(module)

  for module in sorted(graph):
    if module not in done:
      visit(module)


@pytest.mark.parametrize("module", sorted(TREES))
def test_compiler_imports_at_module_level(module):
  tree = TREES[module]
  assert compiler_imports(tree) == compiler_imports(tree, anywhere=False)


@pytest.mark.parametrize("module", sorted(TREES))
def test_no_local_copies_of_mujoco_enums(module):
  assert restated_constants(TREES[module]) == []
