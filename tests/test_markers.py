"""The area markers tests/conftest.py gives each test (`oracle`, `render`, `suite`), checked on
known tests by collecting them in this process, and selected with `-m` as documented."""

import ast
import pathlib

import pytest

from tests import conftest

ROOT = pathlib.Path(__file__).resolve().parents[1]
AREAS = {"oracle", "render", "suite", "slow"}

# test -> its area markers (`slow` too); test ids without parameters
EXPECTED = {
  # no area: checks the repository's text only
  "tests/test_docs.py::test_cited_documents_exist": set(),
  # imports dm_control in its own body: that test alone
  "tests/test_docs.py::test_suite_models_doc_matches_both_stacks": {"oracle", "slow"},
  # `pytest.importorskip("mujoco")` in its body; the module's other tests need no oracle
  "tests/engine/test_cache.py::test_a_stage_the_model_did_not_load_is_loaded_on_first_use": {
    "oracle"
  },
  "tests/engine/test_cache.py::test_code_targets_the_portable_baseline": set(),
  # `import mujoco` at the top of the module
  "tests/engine/test_enums.py::test_required_enums_present": {"oracle"},
  # draws when it can, without the opengl fixture: marked by hand
  "tests/engine/test_physics.py::test_render_draws_or_explains_why_it_cannot": {"oracle", "render"},
  # tests/render, no oracle imported
  "tests/render/test_backends.py::test_renderer_modules_import_without_opengl": {"render"},
  # tests/suite; dm_control through two helpers (state_parity -> parity)
  "tests/suite/test_acrobot.py::test_compiled_totals": {"oracle", "suite"},
  "tests/suite/test_zoom.py::test_escape_bumps_match_scipy_bitwise": {"suite"},
  # the opengl fixture outside tests/render; dm_control through the twin_tasks helper
  "tests/composer/test_entity.py::test_camera_observables": {"oracle", "render"},
  # a subfolder of tests/locomotion
  "tests/locomotion/soccer/test_task.py::"
  "test_command_line_runs_a_soccer_match_of_dm_controls_return": {"oracle", "suite"},
}
FILES = sorted({test.split("::")[0] for test in EXPECTED})


class _Collected:
  """A pytest plugin that keeps the collected (and selected) tests' area markers by test id."""

  def __init__(self):
    self.markers = {}

  def pytest_collection_finish(self, session):
    for item in session.items:
      test = item.nodeid.split("[")[0]
      self.markers[test] = {m.name for m in item.iter_markers()} & AREAS


def _collect(expression):
  """{test id: area markers} of the tests of FILES that `-m expression` selects."""
  collected = _Collected()
  code = pytest.main(
    [
      "--collect-only",
      "-q",
      "-n0",
      "-p",
      "no:cacheprovider",
      "--strict-markers",
      "--rootdir",
      str(ROOT),
      "-c",
      str(ROOT / "pyproject.toml"),
      "-m",
      expression,
      *(str(ROOT / f) for f in FILES),
    ],
    plugins=[collected],
  )
  assert code == pytest.ExitCode.OK, code
  return collected.markers


@pytest.fixture(scope="module")
def every_test():
  return _collect("")


def test_known_tests_have_their_areas(every_test):
  assert {test: every_test.get(test) for test in EXPECTED} == EXPECTED


@pytest.mark.parametrize(
  "expression", ["render", "suite", "oracle", "not oracle and not render", "suite and not oracle"]
)
def test_m_selects_by_area(every_test, expression):
  """`-m` selects exactly the tests whose markers satisfy the expression (so the markers are
  registered: --strict-markers would fail on one that is not)."""
  selected = _collect(expression)
  expected = {
    test
    for test, markers in every_test.items()
    if eval(expression, {}, {area: area in markers for area in AREAS})
  }
  assert set(selected) == expected and expected


def test_relative_imports_are_followed():
  """(No test module imports relatively today; one that did must still be classified.)"""

  def imports(source, package):
    return conftest._imports(ast.parse(source).body, package)

  assert imports("from . import oracle", "tests") == {"tests", "tests.oracle"}
  assert imports("from ..suite import state_parity", "tests.engine") == {
    "tests.suite",
    "tests.suite.state_parity",
  }
  assert conftest._reaches_oracle(imports("from ..suite import state_parity", "tests.engine"))
  assert not conftest._reaches_oracle(imports("from .. import trees, jitted", "tests.engine"))
