"""mj_step, mj_forward, mj_step1, mj_step2 and mj_inverse as CPython builtin functions.

A call of a Python-level `mj_step(m, d)` pays a Python frame, two attribute reads and numba's
generic wrapper (a tuple of six arguments unboxed one by one, the result boxed): ~0.25 µs of
a call whose physics may take 1 µs. The builtins made here take their arguments through
CPython's vectorcall protocol (METH_FASTCALL: an array of object pointers, no tuple) into
machine code that reads the two handle addresses (`m._ptr`, `d._ptr`) and `nstep` with
CPython's C API and calls the driver's entry stage itself. Anything else (keywords, arguments
of other types, a warning to report, an exception of the pipeline) goes to the Python
function the builtin stands for, whose checks and messages stay the only ones.

The machine code is a stage (engine/_stage.py): the first model's prepare() loads it like the
pipeline's. Until then the builtin's method pointer is CPython's PyObject_Vectorcall, which has
a METH_FASTCALL method's signature and calls the builtin's `self`: a tuple whose `__call__`
is the Python function, so the builtin works from import on.
"""

import ctypes

from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic

from engine import _jit
from engine import _stage
from engine._stage import i8

# PyMethodDef flags (Include/methodobject.h)
_METH_FASTCALL = 0x80
_METH_KEYWORDS = 0x02

# an integer that is not there (an attribute missing, an object that is not an integer)
NOT_INT = -(2**63)

# the items of a builtin's `self` tuple that the machine code reads
PYTHON_FUNCTION, REPORT, PTR_NAME, OPERATION, MAX_ARGS = range(5)


def _pyobject(builder, value):
  """An int64 value as a PyObject* (the stage's arguments are plain integers)."""
  return builder.inttoptr(value, ir.IntType(8).as_pointer())


def _integer(builder, pointer):
  return builder.ptrtoint(pointer, ir.IntType(64))


@intrinsic
def pointer_at(typingctx, address):
  """The pointer stored at `address` (an item of the argument array)."""

  def codegen(context, builder, signature, args):
    cell = builder.inttoptr(args[0], ir.IntType(64).as_pointer())
    return builder.load(cell)

  return i8(i8), codegen


@intrinsic
def item(typingctx, tuple_, index):
  """Borrowed item `index` of a tuple (PyTuple_GetItem)."""

  def codegen(context, builder, signature, args):
    pyapi = context.get_python_api(builder)
    fnty = ir.FunctionType(pyapi.pyobj, [pyapi.pyobj, pyapi.py_ssize_t])
    fn = pyapi._get_function(fnty, name="PyTuple_GetItem")
    return _integer(builder, builder.call(fn, [_pyobject(builder, args[0]), args[1]]))

  return i8(i8, i8), codegen


def _as_int_or_not(pyapi, builder, obj):
  """PyNumber_AsSsize_t(obj) (integers and objects with __index__), or NOT_INT with the error
  cleared."""
  value = pyapi.number_as_ssize_t(obj)
  failed = builder.and_(
    builder.icmp_signed("==", value, ir.Constant(value.type, -1)),
    cgutils.is_not_null(builder, pyapi.err_occurred()),
  )
  with builder.if_then(failed, likely=False):
    pyapi.err_clear()
  return builder.select(failed, ir.Constant(value.type, NOT_INT), value)


@intrinsic
def as_int(typingctx, obj):
  """The integer value of object `obj`, or NOT_INT (no exception left set)."""

  def codegen(context, builder, signature, args):
    pyapi = context.get_python_api(builder)
    return _as_int_or_not(pyapi, builder, _pyobject(builder, args[0]))

  return i8(i8), codegen


@intrinsic
def attribute_int(typingctx, obj, name):
  """The integer value of attribute `name` (a str object) of `obj`, or NOT_INT (missing, not
  an integer; no exception left set)."""

  def codegen(context, builder, signature, args):
    pyapi = context.get_python_api(builder)
    attribute = pyapi.object_getattr(_pyobject(builder, args[0]), _pyobject(builder, args[1]))
    result = cgutils.alloca_once_value(builder, ir.Constant(ir.IntType(64), NOT_INT))
    with builder.if_else(cgutils.is_null(builder, attribute), likely=False) as (missing, found):
      with missing:
        pyapi.err_clear()
      with found:
        builder.store(_as_int_or_not(pyapi, builder, attribute), result)
        pyapi.decref(attribute)
    return builder.load(result)

  return i8(i8, i8), codegen


@intrinsic
def vectorcall(typingctx, callable_, args, nargs, kwnames):
  """PyObject_Vectorcall: the new reference its call returns (0 with an exception set)."""

  def codegen(context, builder, signature, llargs):
    pyapi = context.get_python_api(builder)
    objects = pyapi.pyobj.as_pointer()
    fnty = ir.FunctionType(pyapi.pyobj, [pyapi.pyobj, objects, pyapi.py_ssize_t, pyapi.pyobj])
    fn = pyapi._get_function(fnty, name="PyObject_Vectorcall")
    callee, array, count, names = llargs
    array = builder.inttoptr(array, objects)
    result = builder.call(fn, [_pyobject(builder, callee), array, count, _pyobject(builder, names)])
    return _integer(builder, result)

  return i8(i8, i8, i8, i8), codegen


@intrinsic
def report_call(typingctx, report, m, d, changed):
  """report(m, d, changed), the last an integer: its new reference (0 with an exception set)."""

  def codegen(context, builder, signature, args):
    pyapi = context.get_python_api(builder)
    code = pyapi.long_from_longlong(args[3])
    objects = [_pyobject(builder, a) for a in args[1:3]] + [code]
    result = pyapi.call_function_objargs(_pyobject(builder, args[0]), objects)
    pyapi.decref(code)
    return _integer(builder, result)

  return i8(i8, i8, i8, i8), codegen


@intrinsic
def none(typingctx):
  """A new reference to None."""

  def codegen(context, builder, signature, args):
    return _integer(builder, context.get_python_api(builder).make_none())

  return i8(), codegen


def calling_or_raising(stage_):
  """An intrinsic calling stage `stage_` (int64 arguments, an int64 result) with the GIL
  released, as numba's wrapper of a nogil function and MuJoCo's bindings do (other Python
  threads run meanwhile); an exception it raises is set as the Python exception, with the GIL
  back, and NOT_INT returned."""

  def codegen(context, builder, signature, args):
    pyapi = context.get_python_api(builder)
    address = _stage.stage_address(context, builder, stage_)  # (may call Python: GIL held)
    thread_state = pyapi.save_thread()
    status, value = _stage.call_native(
      context, builder, stage_.signature, args, address, propagate=False
    )
    pyapi.restore_thread(thread_state)
    result = cgutils.alloca_once_value(builder, value)
    with builder.if_then(status.is_error, likely=False):
      context.call_conv.raise_error(builder, pyapi, status)
      builder.store(ir.Constant(ir.IntType(64), NOT_INT), result)
    return builder.load(result)

  assert len(stage_.signature.args) == 6

  def typer(typingctx, a0, a1, a2, a3, a4, a5):  # (numba lowers an intrinsic's arguments by name)
    return stage_.signature, codegen

  return intrinsic(typer)


class _Target(tuple):
  """A builtin's `self`: (Python function, reporter, "_ptr", operation, most positional
  arguments). Calling it calls the Python function (the builtin before its code loads)."""

  def __call__(self, *args, **kwargs):
    return self[PYTHON_FUNCTION](*args, **kwargs)


class _PyMethodDef(ctypes.Structure):
  _fields_ = [
    ("ml_name", ctypes.c_char_p),
    ("ml_meth", ctypes.c_void_p),
    ("ml_flags", ctypes.c_int),
    ("ml_doc", ctypes.c_char_p),
  ]


_new_builtin = ctypes.pythonapi.PyCFunction_NewEx
_new_builtin.restype = ctypes.py_object
_new_builtin.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.py_object]
_FORWARD = ctypes.cast(ctypes.pythonapi.PyObject_Vectorcall, ctypes.c_void_p).value

# every builtin's method definition, by the stage serving it (CPython reads ml_meth at each
# call; the definitions live as long as the process, as a C extension's static tables do)
_DEFINITIONS: dict = {}


def builtin(python_function, entry, report, op: int, max_args: int, text_signature: str):
  """A builtin function doing `python_function`'s operation `op` in machine code: stage `entry`
  (of signature int64(int64 x 4)) is the METH_FASTCALL | METH_KEYWORDS function, called with
  (self, args, nargs, kwnames), self being the tuple (python_function, report, "_ptr", op,
  max_args); `report(m, d, changed)` reports a call's warnings or status; `text_signature`
  ("(m, d)") gives inspect.signature the parameters. Without the JIT: python_function."""
  if _jit.DISABLE_JIT:
    return python_function
  name = python_function.__name__
  doc = f"{name}($self, {text_signature[1:]}\n--\n\n{python_function.__doc__ or ''}"
  flags = _METH_FASTCALL | _METH_KEYWORDS
  definition = _PyMethodDef(name.encode(), _code_address(entry) or _FORWARD, flags, doc.encode())
  if entry not in _DEFINITIONS:
    _DEFINITIONS[entry] = []
    entry.on_load = lambda: _point_at(entry)
  _DEFINITIONS[entry].append(definition)
  target = _Target((python_function, report, "_ptr", op, max_args))
  return _new_builtin(ctypes.addressof(definition), target, python_function.__module__)


def _code_address(entry) -> int:
  """The address of the C-callable wrapper numba made for stage `entry` (0: not loaded)."""
  if not entry._cell.value:
    return 0
  overload = entry.dispatcher.overloads[entry.signature.args]
  return overload.library.get_pointer_to_function(overload.fndesc.llvm_cfunc_wrapper_name)


def _point_at(entry) -> None:
  """Points the builtins served by stage `entry` at its machine code, now loaded."""
  address = _code_address(entry)
  for definition in _DEFINITIONS[entry]:
    definition.ml_meth = address
