"""The repository explains itself: every document that code, tests and docs point to is in it.

A reference to a `.md` file (in Python comments and strings, or anywhere in a Markdown file), or
a relative Markdown link, must name a file of the repository; notes kept outside it (the team's
notebook of design notes, in a folder beside the clone) must not be cited at all.
"""

import io
import pathlib
import re
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_SKIP_DIRS = {".git", "__pycache__", "_prebuilt", "build", "dist", ".venv", "venv"}

# `name.md` or `dir/name.md`, not part of a longer name or path (`x.md.bak`, `a.mdx`)
_MD_REFERENCE = re.compile(r"(?<![\w./-])((?:\.{1,2}/)*(?:[\w-]+/)*[\w.-]*\w\.md)(?![\w-]|\.\w)")
# a Markdown link or image with a relative target: [text](target) / ![alt](target)
_MD_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
# notes outside the repository (spelt in pieces so that this file does not cite them itself)
_OUTSIDE = tuple(
  re.compile(p)
  for p in (
    r"\.\./" + "shared",
    r"/work/" + "shared",
    r"\b" + "SUITE_" + r"(?:SPEC|MODELS)\b",
    r"\b" + "STYLE_" + r"ANCHORS\b",
    r"\b" + "anchors_" + r"style\b",
    r"\b" + "numba_" + r"bench\b",
    r"\b" + "LOCOMOTION_" + r"MANIPULATION\b",
    r"\b" + "NUMBA" + r"\.md\b",
    r"\b" + "ARCHITECTURE" + r"\.md\b",
    r"\b" + "STYLE" + r"\.md\b",
  )
)


def _files(*suffixes):
  """The repository's files with one of the suffixes, outside caches and build folders."""
  found = []
  for path in sorted(ROOT.rglob("*")):
    parts = path.relative_to(ROOT).parts
    if (
      path.suffix in suffixes
      and path.is_file()
      and not _SKIP_DIRS.intersection(parts)
      and not any(p.endswith(".egg-info") for p in parts)
    ):
      found.append(path)
  return found


def _python_text(path):
  """The comments and string literals of a Python file (docstrings included), where it names
  documents; code such as `self.md.qpos` (a variable named md) is left out."""
  pieces = []
  source = path.read_text(encoding="utf-8")
  if ".md" not in source and not any(p.search(source) for p in _OUTSIDE):
    return pieces  # (nothing to find: most files, tokenized in far longer)
  for token in tokenize.generate_tokens(io.StringIO(source).readline):
    if token.type in (tokenize.COMMENT, tokenize.STRING) or token.type == getattr(
      tokenize, "FSTRING_MIDDLE", -1
    ):
      pieces.append((token.start[0], token.string))
  return pieces


def _texts():
  """(file, line, text) of everything that may cite a document (but this file, whose examples
  of bad references are on purpose)."""
  for path in _files(".py"):
    if path == pathlib.Path(__file__).resolve():
      continue
    for line, text in _python_text(path):
      yield path, line, text
  for path in _files(".md", ".toml", ".cfg", ".txt", ".xml"):
    for line, text in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
      yield path, line, text


def _exists(reference: str, source: pathlib.Path) -> bool:
  """Whether `reference` names a file, from the repository's root or from the citing file's
  folder (a bare name may also be a document of docs/)."""
  candidates = [ROOT / reference, source.parent / reference]
  if "/" not in reference:
    candidates.append(ROOT / "docs" / reference)
  return any(c.resolve().is_file() and ROOT in c.resolve().parents for c in candidates)


def _where(path, line):
  return f"{path.relative_to(ROOT)}:{line}"


def test_cited_documents_exist():
  missing = []
  for path, line, text in _texts():
    for reference in _MD_REFERENCE.findall(text):
      if not _exists(reference, path):
        missing.append(f"{_where(path, line)}: {reference}")
  assert not missing, "references to documents that are not in the repository:\n" + "\n".join(
    missing
  )


def test_markdown_links_resolve():
  broken = []
  for path in _files(".md"):
    for line, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
      for target in _MD_LINK.findall(re.sub(r"`[^`]*`", "", text)):  # (code spans aside)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # a URL (https:, mailto:)
          continue
        if not (path.parent / target).resolve().exists():
          broken.append(f"{_where(path, line)}: {target}")
  assert not broken, "Markdown links to missing files:\n" + "\n".join(broken)


def test_no_notes_outside_the_repository():
  cited = []
  for path, line, text in _texts():
    for pattern in _OUTSIDE:
      for match in pattern.finditer(text):
        cited.append(f"{_where(path, line)}: {match.group(0)}")
  assert not cited, "citations of notes kept outside the repository:\n" + "\n".join(cited)


@pytest.mark.parametrize(
  "text,found",
  [
    ("see docs/numba.md, section 2", ["docs/numba.md"]),
    ("(benchmarks/RESULTS.md): measured", ["benchmarks/RESULTS.md"]),
    ("README.md.", ["README.md"]),
    ("self.md.qpos, x.mdx and notes.md-old", []),
    ("`../notes/NOTES.md`", ["../notes/NOTES.md"]),
  ],
)
def test_reference_pattern(text, found):
  """What counts as naming a document (the pattern the tests above rely on)."""
  assert _MD_REFERENCE.findall(text) == found


def test_checks_fail_on_a_missing_document(tmp_path):
  """A reference to a document that is not there is reported; one that is there is not."""
  source = ROOT / "tests" / "test_docs.py"
  assert _exists("docs/architecture.md", source)
  assert _exists("numba.md", source)  # a bare name of docs/
  assert not _exists("docs/no_such_notes.md", source)
  assert not _exists("../" + "shared/NOTES.md", source)
  assert any(p.search("see ../" + "shared/x") for p in _OUTSIDE)


def test_ci_runs_the_readme_test_command():
  """.ci/run runs the lines of README.md's Test section word for word, in order: the lint
  (`ruff check .`) and the format check (`ruff format --check .`) before the tests."""
  section = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## Test\n", 1)[1]
  commands = section.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
  ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
  assert [c for c in commands if c not in ci] == [], "README's commands missing from .ci/run"
  assert [ci.index(c) for c in commands] == sorted(ci.index(c) for c in commands)
  assert commands[-1].index("ruff check .") < commands[-1].index("python -m pytest")
  assert commands[-1].index("ruff format --check .") < commands[-1].index("python -m pytest")


def _table_rows(path, ncells):
  """The rows of `ncells` cells of the Markdown tables of `path`, header rows left out."""
  rows = []
  for line in path.read_text(encoding="utf-8").splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if (
      line.startswith("|")
      and len(cells) == ncells
      and not set(cells[0]) <= set("-")
      and cells[0] != "domain"
    ):
      rows.append(cells)
  return rows


def _size(shape):
  """An observation's size as docs/suite_models.md writes it: `n`, or `axb` for a matrix."""
  return "x".join(map(str, shape)) if len(shape) > 1 else str(shape[0] if shape else 1)


@pytest.mark.slow
def test_suite_models_doc_matches_both_stacks():
  """Every row of docs/suite_models.md's two tables describes dm_control's model and task (the
  numbers our models are written from) and ours, loaded with the same seed."""
  pytest.importorskip("mujoco")
  from dm_control import suite as dm_suite

  import suite

  doc = ROOT / "docs" / "suite_models.md"
  totals = _table_rows(doc, 14)
  tasks = _table_rows(doc, 6)
  assert {(r[0], r[1]) for r in tasks} == set(dm_suite.ALL_TASKS) == set(suite.ALL_TASKS)
  for row in totals:
    domain, task = row[0], row[1].split(",")[0]
    documented = [c.split(" ")[0] for c in row[3:12]]
    ours_ngeom = re.search(r"\(ours (\d+)\)", row[9])
    for name, stack in (("dm_control", dm_suite), ("ours", suite)):
      model = stack.load(domain, task, task_kwargs={"random": 0}).physics.model
      sizes = [
        model.nq,
        model.nv,
        model.nu,
        model.na,
        model.nbody,
        model.njnt,
        model.ngeom,
        model.nsite,
        model.nsensordata,
      ]
      expected = [int(c) for c in documented]
      if name == "ours" and ours_ngeom:
        expected[6] = int(ours_ngeom.group(1))
      assert sizes == expected, (name, domain, task)
      assert f"{model.opt.timestep:g}" == row[2].split()[0], (name, domain, task)
      assert float(model.body_mass.sum()) == pytest.approx(float(row[12]), rel=1e-6)
      assert float(model.stat.meaninertia) == pytest.approx(float(row[13]), rel=1e-5)
  for domain, task, control_timestep, time_limit, action_dim, observations in tasks:
    for name, stack in (("dm_control", dm_suite), ("ours", suite)):
      env = stack.load(domain, task, task_kwargs={"random": 0})
      label = (name, domain, task)
      assert f"{env.control_timestep():g}" == control_timestep, label
      # (the time limit, as a number of control steps; dm_control's is private)
      step_limit = env.step_limit if stack is suite else env._step_limit
      assert step_limit * env.control_timestep() == pytest.approx(float(time_limit)), label
      assert str(env.action_spec().shape[0]) == action_dim, label
      listed = ", ".join(f"{k} {_size(v.shape)}" for k, v in env.observation_spec().items())
      assert listed == observations, label
