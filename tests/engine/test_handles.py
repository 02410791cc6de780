"""Struct handles written from Python (engine/_stage.py HandleBuilder) and jit helpers compiled
to LLVM IR only (engine/_jit.py): jitted code reads what Python wrote, the handle keeps its
arrays alive, a wrong member raises instead of corrupting memory, and a helper's own library
holds no machine code while the stages linking it compute right."""

import gc
import pickle
import types

import numba
import numpy as np
import pytest

import engine
from engine import _jit
from engine import _stage
from engine import _structs

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="numba handles and libraries")

_XML = """<mujoco><option timestep="0.004"/><worldbody>
  <body><joint/><geom size=".1" mass="2"/><body pos="0 0 1"><joint/><geom size=".1"/></body>
  </body></worldbody></mujoco>"""


@numba.njit(cache=False)
def _read(m, d):
  """Members of every kind, as jitted code sees them: scalars, 1-d and 2-d arrays of several
  dtypes, the nested option handle, and a store through MjData."""
  d.qfrc_applied[1] = 7.0
  return (
    m.nbody,
    m.nv,
    m.body_mass[1],
    m.body_pos[2, 2],
    m.body_parentid[2],
    m.opt.timestep[0],
    d.qfrc_applied.shape[0],
    d.xpos.shape[1],
  )


def test_jitted_code_reads_the_members_python_wrote():
  m = engine.MjModel.from_xml_string(_XML)
  d = engine.MjData(m)
  got = _read(m._struct, d._struct)
  assert got == (3, 2, m.body_mass[1], m.body_pos[2, 2], 1, 0.004, 2, 3)
  assert d.qfrc_applied[1] == 7.0  # the handle holds the Python array's memory


def test_a_handle_keeps_its_members_alive():
  m = engine.MjModel.from_xml_string(_XML)
  d = engine.MjData(m)
  arrays = {name: d._arrays[name].copy() for name in _structs.DATA_MEMBERS}
  arrays["qfrc_applied"][:] = 3.0
  handle = _stage.make_data(*[arrays[name] for name in _structs.DATA_MEMBERS])
  del arrays
  gc.collect()
  [np.ones(1000) for _ in range(100)]  # (reuse any freed memory)
  assert _read(m._struct, handle)[6] == 2
  qfrc = _jit.python_callable(_first_qfrc)(handle)
  assert qfrc == 3.0


@numba.njit(cache=False)
def _first_qfrc(d):
  return d.qfrc_applied[0]


@numba.njit(cache=False)
def _echo(handle):
  return handle


def test_jitted_calls_keep_the_python_reference_count_balanced():
  # jitted code counts no references to a handle (engine/_jit.py _UncountedStructRefModel):
  # unboxing an argument gives back the reference it took, and a handle returned to Python
  # takes one for the new Python object, which gives it back when it dies
  m = engine.MjModel.from_xml_string(_XML)
  d = engine.MjData(m)
  meminfo = d._struct._meminfo
  before = meminfo.refcount
  for _ in range(100):
    _read(m._struct, d._struct)
    _stage.address_of(d._struct)
  assert meminfo.refcount == before
  echoed = _echo(d._struct)
  assert meminfo.refcount == before + 1
  assert _read(m._struct, echoed)[6] == 2
  del echoed
  gc.collect()
  assert meminfo.refcount == before


def test_a_wrong_member_raises_naming_it():
  m = engine.MjModel.from_xml_string(_XML)
  d = engine.MjData(m)
  values = [d._arrays[name] for name in _structs.DATA_MEMBERS]
  i = _structs.DATA_MEMBERS.index("qpos")
  for bad in (values[i].astype(np.float32), np.zeros((m.nq, 2)), values[i][::-1], [0.0]):
    wrong = list(values)
    wrong[i] = bad
    with pytest.raises(TypeError, match="qpos"):
      _stage.make_data(*wrong)
  with pytest.raises(TypeError, match="members"):
    _stage.make_data(*values[:-1])


def test_a_nested_handle_member_takes_only_its_handle_type():
  m = engine.MjModel.from_xml_string(_XML)
  values = dict(m._arrays, **m._sizes, opt=m.opt._struct, stat=m.stat._struct)
  for bad in (m.stat._struct, 12345):
    with pytest.raises(TypeError, match="opt"):
      _stage.make_model(
        *[bad if name == "opt" else values[name] for name in _structs.MODEL_MEMBERS]
      )


@_jit.jit
def _helper(x):
  return 2.0 * x + 1.0


@numba.njit(cache=False)  # (compiled in this process, with its helper)
def _caller(x):
  return _helper(x) + _helper(-x)


@pytest.mark.parametrize(
  "struct_type",
  [_structs.OPTION_TYPE, _structs.STATISTIC_TYPE, _structs.MODEL_TYPE, _structs.DATA_TYPE],
)
def test_a_handle_type_pickles_as_its_name(struct_type):
  """Cache entries hold the handle types (in signatures and keys): they must unpickle to the
  process's own type, by name, not as a copy rebuilt from hundreds of fields."""
  data = pickle.dumps(struct_type)
  assert pickle.loads(data) is struct_type
  assert len(data) < 200


class _OtherLayout:
  """Pickles as MjModel's type compiled with other members."""

  def __reduce__(self):
    return _jit.handle_type, ("ModelType", "0" * 16)


def test_a_handle_type_of_another_layout_does_not_unpickle():
  """Code compiled for other members must never load: its cache entry fails to unpickle (and
  is compiled again)."""
  with pytest.raises(pickle.UnpicklingError, match="ModelType was pickled with other members"):
    pickle.loads(pickle.dumps(_OtherLayout()))


def test_helpers_compile_to_ir_their_callers_link():
  assert _caller(3.0) == 2.0
  (overload,) = _helper.overloads.values()
  assert type(overload.library).__name__ == "_LinkOnlyLibrary"
  assert overload.library.get_pointer_to_function(overload.fndesc.llvm_func_name) == 0
  (caller,) = _caller.overloads.values()
  assert caller.library.get_pointer_to_function(caller.fndesc.llvm_func_name) != 0


def _index(a, i):
  return a[i]


def test_engine_functions_index_as_c_and_other_code_as_python():
  # engine/_jit.py _c_indexing: no negative-index wraparound in functions of the engine package
  # (a negative index is out of range: IndexError under bounds checks); numba code elsewhere
  # keeps Python's rule
  a = np.arange(5.0)
  python_rule = numba.njit(cache=False, boundscheck=True)(_index)
  assert python_rule(a, -2) == 3.0
  as_engine = types.FunctionType(_index.__code__, {}, "_index")
  as_engine.__module__ = "engine.c_indexing_probe"
  c_rule = numba.njit(cache=False, boundscheck=True)(as_engine)
  assert c_rule(a, 1) == 1.0
  with pytest.raises(IndexError):
    c_rule(a, -2)


def _scaled(x):
  return 2.0 * x + 1.0


def _calls_scaled(x):
  return _probe(x) * 3.0  # noqa: F821 (given as a global by _engine_function)


def _engine_function(py_func, name, namespace):
  """py_func as a function of module engine.inline_probe (the rules of engine/_jit.py apply
  to the engine's functions only), its globals `namespace`."""
  function = types.FunctionType(py_func.__code__, namespace, name)
  function.__module__ = "engine.inline_probe"
  function.__qualname__ = name
  return function


def test_always_inline_marks_the_function_and_llvm_inlines_it():
  # engine/_jit.py always_inline: the attribute is set as numba lowers the helper, and the
  # caller's machine code has no call left to it; an unmarked twin does not get the attribute
  marked = _jit.always_inline(_jit.jit(_engine_function(_scaled, "marked_scaled", {})))
  unmarked = _jit.jit(_engine_function(_scaled, "unmarked_scaled", {}))
  for helper, name in [(marked, "marked_scaled"), (unmarked, "unmarked_scaled")]:
    caller = numba.njit(cache=False)(_engine_function(_calls_scaled, "caller", {"_probe": helper}))
    assert caller(2.0) == 15.0
    (overload,) = helper.overloads.values()
    helper_ir = overload.library.get_llvm_str()
    definition = next(line for line in helper_ir.splitlines() if line.startswith("define"))
    assert name in definition
    assert ("alwaysinline" in helper_ir) == (helper is marked)
    if helper is marked:
      caller_ir = caller.inspect_llvm(caller.signatures[0])
      assert not [line for line in caller_ir.splitlines() if "call" in line and name in line]
