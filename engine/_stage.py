"""Stages: jitted functions compiled once, on their own, and called through a pointer.

numba compiles a function together with everything it calls: each jitted caller links its
callees' code in, optimizes the linked module and emits machine code for it (and with
`cache=True` writes it to disk). A pipeline that calls kinematics from forward, from step,
from RK4 and from the inverse dynamics therefore compiles kinematics once per caller, and a
deep call tree multiplies the whole engine's compile time by its depth (746 s and a 1.5 GB
cache before this module existed).

A stage breaks that chain. `@stage(argtypes...)` compiles the function once, for one fixed
signature, and caches it. Jitted callers do not link it: a call loads the stage's address
from a per-process cell (an external symbol registered with LLVM) and calls through it, with
numba's own calling convention, so exceptions (e.g. NUMBA_BOUNDSCHECK's IndexError) still
propagate.

Stages load (or compile) per model: `prepare(m)`, run as each MjModel is built, loads the
stages that model reaches (a stage's `needed` predicate says when: a cart-pole needs no
mesh, height-field, SDF, implicit-integrator or noslip code), compiling the missing ones in
parallel. A stage reached anyway (an option changed after loading, a predicate too narrow)
finds its cell empty: the call asks Python, through a callback, to load or compile it there
and then, and goes on. Lazy stages (Python-only parts of the API such as mj_jac or mj_ray)
have no jitted callers and compile on their first call.

Stages are the units of compilation: stage functions of the pipeline (mj_kinematics,
mj_collision, the solvers, mj_step, ...) and the functions Python calls. Everything else is a
plain `jit` helper, compiled into the stages that use it and never cached by itself.

A cold start compiles the missing stages in NUMJOCO_COMPILE_JOBS processes (default: one per
CPU the process may use, as many as the free memory holds); the processes claim stages one at
a time, largest first, and share the numba cache. Progress is one line (rewritten in place on
a terminal). Then one background process, at low priority, compiles the stages no model
has needed yet, so that later models find them cached (NUMJOCO_BACKGROUND_COMPILE=0: not).
"""

import ctypes
import functools
import os
import subprocess
import sys
import tempfile
import threading
import time
import types as pytypes

import llvmlite.binding as ll
import numpy as np
from llvmlite import ir
from numba.core import cgutils
from numba.core import types
from numba.core.imputils import lower_builtin
from numba.core.runtime import rtsys as _nrt
from numba.core.typing import templates
from numba.experimental.structref import StructRefProxy
from numba.extending import intrinsic
from numba.extending import typeof_impl

from engine import _jit
from engine import _structs
from engine import enums
from engine._structs import DATA_TYPE
from engine._structs import MODEL_TYPE

# signature shorthands for stage declarations
M = MODEL_TYPE
D = DATA_TYPE
i8 = types.int64
f8 = types.float64
vec = types.float64[::1]
mat = types.float64[:, ::1]
ivec = types.int32[::1]

STAGES: list["Stage"] = []
_BY_CELL: dict[int, "Stage"] = {}  # stages by the address of their cell (the resolver's key)


class Stage:
  """A jitted function with one declared signature, compiled and cached on its own.

  Call it like the function it wraps, from Python or from jitted code (through its pointer).
  A `lazy` stage serves Python calls only (the mj_/mju_ API): jitted code cannot call it.
  `needed(m)` (default: always) says whether the MjModel m reaches it: prepare(m) loads it
  ahead only then; otherwise it loads on first use.
  """

  def __init__(self, py_func, argtypes: tuple, restype, lazy: bool = False, needed=None):
    py_func = getattr(py_func, "py_func", py_func)  # a jit helper compiled once more as a stage
    functools.update_wrapper(self, py_func)
    self.py_func = py_func
    self.name = f"{py_func.__module__}.{py_func.__qualname__}"
    self.signature = restype(*argtypes)
    self.dispatcher = _jit.stage_dispatcher(py_func)
    self.lazy = lazy
    self.needed = needed
    self.symbol = "numjoco.stage." + self.name
    # the cell holding the stage's address in this process; compiled callers read it
    self._cell = ctypes.c_void_p(0)
    ll.add_symbol(self.symbol, ctypes.addressof(self._cell))
    _BY_CELL[ctypes.addressof(self._cell)] = self
    self.numba_type = None  # a lazy stage has no type: jitted code cannot call it
    self.on_load = None  # called once the stage's code is loaded (engine/fastcall.py)
    if not lazy:
      template = templates.make_concrete_template(f"Stage({self.name})", self, [self.signature])
      self.numba_type = types.Function(template)
      lower_builtin(self, *argtypes)(self._lower_call)
    STAGES.append(self)

  def __call__(self, *args):
    if _jit.DISABLE_JIT:
      return self.py_func(*args)
    if not self._cell.value:
      self.compile()
    return self.dispatcher(*args)

  def __repr__(self):
    return f"<stage {self.name}{self.signature.args}>"

  def is_cached(self) -> bool:
    """Whether the cache holds this stage's code, for these sources, this numba and this CPU
    (an index written by another numba or for another CPU has no entry for it)."""
    try:
      cache = self.dispatcher._cache
      key = cache._index_key(self.signature.args, self.dispatcher.targetctx.codegen())
      return key in cache._cache_file._load_index()
    except Exception:  # no cache, a damaged index (recompiled), numba internals moved
      return False

  def compile(self) -> None:
    """Compiles the stage (or loads it from the cache) and publishes its address."""
    with _COMPILE_LOCK:  # (threads of a batched rollout may reach an empty cell together)
      if self._cell.value:
        return
      if self.signature.args not in self.dispatcher.overloads:
        self.dispatcher.compile(self.signature.args)
      cres = self.dispatcher.overloads[self.signature.args]
      address = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
      if not address:
        raise RuntimeError(f"stage {self.name}: compiled code has no native entry point")
      self._cell.value = address
      # a Python call with other argument types raises instead of compiling a second version
      self.dispatcher.disable_compile()
      if self.on_load is not None:
        self.on_load()

  def address(self) -> int:
    """The stage's native entry point (compiled or loaded first), for `call_at` from jitted
    code that chooses the function at run time (a task's observation kernel, say)."""
    if _jit.DISABLE_JIT:
      return self
    if not self._cell.value:
      self.compile()
    return self._cell.value

  def _lower_call(self, context, builder, sig, args):
    """Code for a jitted call: `call_stage`, its exceptions propagated."""
    status, value = call_stage(context, builder, self, args)
    with cgutils.if_unlikely(builder, status.is_error):
      context.call_conv.return_status_propagate(builder, status)
    return value


_BYTE_POINTER = ir.IntType(8).as_pointer()
_COMPILE_LOCK = threading.RLock()


def _external_cell(module, symbol: str):
  """The pointer-sized global `symbol` of `module` (a cell this process registered)."""
  try:
    return module.get_global(symbol)
  except KeyError:
    cell = ir.GlobalVariable(module, _BYTE_POINTER, name=symbol)
    cell.linkage = "external"
    return cell


def _resolve(cell_address: int) -> None:
  """Fills the cell at `cell_address`: called from jitted code that reached a stage prepare()
  did not load (its model was not thought to need it), with the GIL taken by ctypes."""
  s = _BY_CELL[cell_address]
  if not s.is_cached() and not _jit.from_normal_build(s.name):
    print(f"numjoco: compiling {s.name} on first use", file=sys.stderr, flush=True)
  s.compile()


# the resolver: a C function pointer in a cell of its own, which jitted callers load
_RESOLVER_SYMBOL = "numjoco.stage_resolver"
_RESOLVER_LLTYPE = ir.FunctionType(ir.VoidType(), [_BYTE_POINTER])
_resolver = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(_resolve)
_resolver_cell = ctypes.c_void_p(ctypes.cast(_resolver, ctypes.c_void_p).value)
ll.add_symbol(_RESOLVER_SYMBOL, ctypes.addressof(_resolver_cell))


def call_stage(context, builder, stage_, args):
  """Code calling stage `stage_` from jitted code with numba's convention; returns (status,
  value)."""
  address = stage_address(context, builder, stage_)
  return call_native(context, builder, stage_.signature, args, address, propagate=False)


def stage_address(context, builder, stage_):
  """Code loading the address in stage `stage_`'s cell; an empty cell first asks the resolver
  to fill it, and if it stays empty the function returns a RuntimeError."""
  cell = _external_cell(builder.module, stage_.symbol)
  with cgutils.if_unlikely(builder, cgutils.is_null(builder, builder.load(cell))):
    resolver = builder.load(_external_cell(builder.module, _RESOLVER_SYMBOL))
    builder.call(
      builder.bitcast(resolver, _RESOLVER_LLTYPE.as_pointer()),
      [builder.bitcast(cell, _BYTE_POINTER)],
    )
    with cgutils.if_unlikely(builder, cgutils.is_null(builder, builder.load(cell))):
      context.call_conv.return_user_exc(
        builder, RuntimeError, (f"numjoco: stage {stage_.name} failed to compile (see above)",)
      )
  return builder.load(cell)


def call_native(context, builder, sig, args, address, propagate=True):
  """Calls the function at `address` (a pointer value) compiled with numba's calling convention
  for `sig`: its value, its exceptions propagated (propagate=False: (status, value))."""
  cc = context.call_conv
  fnty = cc.get_function_type(sig.return_type, sig.args)
  fn = builder.bitcast(address, fnty.as_pointer())
  retty = fnty.args[0].pointee
  retval = cgutils.alloca_once(builder, retty)
  builder.store(cgutils.get_null_value(retty), retval)
  excinfo = cgutils.alloca_once(builder, fnty.args[1].pointee, name="excinfo")
  argvals = list(cc._get_arg_packer(sig.args).as_arguments(builder, args))
  status = cc._get_return_status(
    builder, builder.call(fn, [retval, excinfo] + argvals), builder.load(excinfo)
  )
  value = context.get_returned_value(builder, sig.return_type, builder.load(retval))
  if not propagate:
    return status, value
  with cgutils.if_unlikely(builder, status.is_error):
    cc.return_status_propagate(builder, status)
  return value


def address_caller(restype, *argtypes):
  """`call(address, a0, ...)`: in jitted code, calls the stage of signature restype(*argtypes)
  (two to five arguments) whose `address()` is given, so that one compiled caller serves
  every such stage (without the JIT, `address` is the stage itself)."""
  if not 2 <= len(argtypes) <= 5:
    raise NotImplementedError("address_caller supports stages of two to five arguments")
  if _jit.DISABLE_JIT:
    return lambda address, *args: address.py_func(*args)
  signature = restype(types.intp, *argtypes)
  inner = restype(*argtypes)

  def codegen(context, builder, sig, args):
    fnptr = builder.inttoptr(args[0], ir.IntType(8).as_pointer())
    return call_native(context, builder, inner, args[1:], fnptr)

  # numba lowers an intrinsic's arguments by name: no *args
  def call2(typingctx, address, a0, a1):
    return signature, codegen

  def call3(typingctx, address, a0, a1, a2):
    return signature, codegen

  def call4(typingctx, address, a0, a1, a2, a3):
    return signature, codegen

  def call5(typingctx, address, a0, a1, a2, a3, a4):
    return signature, codegen

  return intrinsic((call2, call3, call4, call5)[len(argtypes) - 2])


@typeof_impl.register(Stage)
def _typeof_stage(val, c):
  return val.numba_type


def runs_stage(stage_):
  """Marks an mj_ function whose whole work is `stage_(m._struct, d._struct)`, an (m, d) stage:
  engine/__init__.py exports it as driver.stage_function(it), which calls the stage through
  the driver's entry point (numba's typing of two struct handles cost ~2 µs a call)."""

  def mark(function):
    function.stage = stage_
    return function

  return mark


def stage(*argtypes, restype=types.none, lazy=False, needed=None):
  """Declares a stage with argument types `argtypes` (default: the (m, d) struct handles);
  `needed(m)`: whether MjModel m reaches it (default: every model does)."""
  argtypes = argtypes or (M, D)
  return lambda py_func: Stage(py_func, argtypes, restype, lazy, needed)


# ---- `needed` predicates: whether a model reaches a stage (false: it loads on first use) ----


def _has_geoms(*geom_types, count: int = 1):
  """The model has at least `count` geoms of the given types."""
  return lambda m: int(np.isin(m.geom_type, geom_types).sum()) >= count


def _option_in(name: str, *values):
  """Option m.opt.<name> is one of the values."""
  return lambda m: getattr(m.opt, name) in values


def never(m) -> bool:
  """No step reaches it (mj_inverse, rollouts)."""
  return False


BOX_PAIRS = _has_geoms(enums.mjGEOM_BOX, count=2)
# the pairs without a primitive collider of their own meet a mesh, an ellipsoid or a cylinder
# (or a plane meets an SDF's mesh)
CONVEX_PAIRS = _has_geoms(
  enums.mjGEOM_ELLIPSOID, enums.mjGEOM_CYLINDER, enums.mjGEOM_MESH, enums.mjGEOM_SDF
)
CONVEX_OR_HFIELD = _has_geoms(
  enums.mjGEOM_ELLIPSOID,
  enums.mjGEOM_CYLINDER,
  enums.mjGEOM_MESH,
  enums.mjGEOM_SDF,
  enums.mjGEOM_HFIELD,
)
HFIELDS = _has_geoms(enums.mjGEOM_HFIELD)
SDFS = _has_geoms(enums.mjGEOM_SDF)
PGS = _option_in("solver", enums.mjSOL_PGS)
PRIMAL = _option_in("solver", enums.mjSOL_CG, enums.mjSOL_NEWTON)
RK4 = _option_in("integrator", enums.mjINT_RK4)
IMPLICIT = _option_in("integrator", enums.mjINT_IMPLICIT, enums.mjINT_IMPLICITFAST)


def MESH_SDF(m) -> bool:
  return SDFS(m) and _has_geoms(enums.mjGEOM_MESH)(m)


def NOSLIP(m) -> bool:
  return m.opt.noslip_iterations > 0


def KEYFRAMES(m) -> bool:
  return m.nkey > 0


def DUAL(m) -> bool:
  """PGS or noslip: the solvers iterating on efc_AR."""
  return PGS(m) or NOSLIP(m)


def DUAL_OR_DIAGEXACT(m) -> bool:
  return DUAL(m) or bool(m.opt.enableflags & enums.mjENBL_DIAGEXACT)


def EQUALITIES(m) -> bool:
  return m.neq > 0


def FLUID(m) -> bool:
  return bool(m.opt.density or m.opt.viscosity)


def SENSORS(m) -> bool:
  return m.nsensor > 0


def SENSORS_OR_PLUGINS(m) -> bool:
  return m.nsensor > 0 or m.nplugin > 0


def CONTACTS(m) -> bool:
  """Contacts enabled, and two bodies that could touch (mj_collision's early return)."""
  return not m.opt.disableflags & (enums.mjDSBL_CONSTRAINT | enums.mjDSBL_CONTACT) and m.nbody > 1


def ENERGY(m) -> bool:
  return bool(m.opt.enableflags & enums.mjENBL_ENERGY)


# ---- loading and compiling ----


_background = {"started": False}


def prepare(model) -> None:
  """Loads the stages MjModel `model` reaches (compiling the missing ones in parallel), so
  that stepping it compiles nothing; after a cold start, the stages no model has needed yet
  compile in the background.

  Importing any engine module runs engine/__init__.py, which imports the whole pipeline, so
  the registry is complete by the time a model exists.
  """
  if _jit.DISABLE_JIT:
    return
  stages = [
    s for s in STAGES if not s.lazy and not s._cell.value and (s.needed is None or s.needed(model))
  ]
  if not stages:
    return
  cold = compile_stages(stages)
  if cold and not _background["started"]:
    _background["started"] = True
    _compile_in_background()


def selected(lazy: bool) -> list:
  """The stages jitted code can reach (lazy=False) or every stage (lazy=True)."""
  return [s for s in STAGES if lazy or not s.lazy]


def code_size(stage) -> int:
  """Bytecode size of a stage and of the helpers it compiles in (other stages excluded): an
  estimate of its compile time, so the heavy stages start first and the processes finish
  together."""
  seen, todo, total = set(), [stage.py_func], 0
  while todo:
    func = todo.pop()
    if func in seen:
      continue
    seen.add(func)
    code, scope = func.__code__, func.__globals__
    total += len(code.co_code)
    names = [scope.get(n) for n in code.co_names]
    # `module.helper` puts both names in co_names
    modules = [v for v in names if isinstance(v, pytypes.ModuleType)]
    names += [getattr(mod, n, None) for mod in modules for n in code.co_names]
    todo += [v.py_func for v in names if _jit.is_helper(v)]
  # each argument costs its Python wrapper's unboxing code
  return total + 40 * len(stage.signature.args)


def cold_stages(stages: list) -> list:
  """The stages missing from the cache (but those a bounds-checked build takes from the normal
  one), the largest first."""
  cold = [s for s in stages if not s.is_cached() and not _jit.from_normal_build(s.name)]
  return sorted(cold, key=code_size, reverse=True)


def compile_stages(stages: list) -> list:
  """Loads the stages, compiling the missing ones in parallel processes first; returns those."""
  cold = cold_stages(stages)
  if cold:
    _compile_cold(cold)
  for s in stages:
    s.compile()
  return cold


def compile_all(lazy: bool) -> None:
  """Loads every stage jitted code can reach (lazy=True: every stage), compiling the missing."""
  compile_stages(selected(lazy))


_COMPILE_MEMORY = 1 << 30  # peak memory of one compiling process, with room to spare


def _available_memory() -> int:
  """Bytes of memory available for new processes (Linux's MemAvailable; elsewhere free
  physical pages), or a large number when that is unknown."""
  try:
    with open("/proc/meminfo") as f:
      for line in f:
        if line.startswith("MemAvailable:"):
          return int(line.split()[1]) * 1024
  except OSError:
    pass
  try:
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
  except (AttributeError, ValueError, OSError):
    return 1 << 40


def _jobs() -> int:
  """Compiling processes: NUMJOCO_COMPILE_JOBS, else one per CPU this process may run on,
  as many as the available memory holds."""
  env = os.environ.get("NUMJOCO_COMPILE_JOBS")
  if env:
    return max(1, int(env))
  try:
    cpus = len(os.sched_getaffinity(0))
  except AttributeError:  # (no affinity masks: macOS, Windows)
    cpus = os.cpu_count() or 1
  return max(1, min(cpus, _available_memory() // _COMPILE_MEMORY))


def _helper_command(*args) -> list:
  """`python -m engine.warmup ARGS` for a compiling helper process: -P, so that an `engine`
  folder in the working directory does not shadow this engine (found through PYTHONPATH)."""
  return [sys.executable, "-P", "-m", "engine.warmup", *args]


def _helper_env() -> dict:
  """Environment of a compiling helper process: it imports this very engine (also when it was
  found through sys.path, not installed; it checks the sources' hash) and writes into this
  process's cache."""
  path = os.pathsep.join(filter(None, [str(_jit.ENGINE_DIR.parent), os.environ.get("PYTHONPATH")]))
  env = dict(
    os.environ,
    NUMBA_CACHE_DIR=_jit.CACHE_DIR,
    PYTHONPATH=path,
    NUMJOCO_SOURCE_HASH=_jit.SOURCE_HASH,
  )
  if _jit.NORMAL_CACHE_DIR:
    env["NUMJOCO_NORMAL_CACHE_DIR"] = _jit.NORMAL_CACHE_DIR
  return env


def _compile_in_background() -> None:
  """Starts one low-priority process compiling every stage still missing from the cache, which
  outlives this one (NUMJOCO_BACKGROUND_COMPILE=0: none)."""
  if os.environ.get("NUMJOCO_BACKGROUND_COMPILE", "1") == "0" or not cold_stages(selected(True)):
    return
  try:
    subprocess.Popen(
      _helper_command("--background"),
      env=_helper_env(),
      stdin=subprocess.DEVNULL,
      stdout=subprocess.DEVNULL,
      stderr=subprocess.DEVNULL,
      start_new_session=True,
    )
  except OSError:  # (no process to spare: the stages compile on first use instead)
    return
  print("numjoco: the engine's other stages compile in the background", file=sys.stderr, flush=True)


def _compile_cold(cold: list) -> None:
  """Compiles the stages missing from the cache, with helper processes claiming stages too."""
  t0 = time.perf_counter()
  jobs = min(_jobs(), len(cold))
  # CPU-seconds shared out by the size of the stages' code; measured on a 2-core VM
  # (benchmarks/RESULTS.md): 215-240 for every stage, 94-108 for a cart-pole's 42, a larger
  # part than their share of the code (the first stages compile the common helpers), so the
  # scale, 300, fits a first run and errs high for everything
  share = sum(map(code_size, cold)) / sum(map(code_size, STAGES))
  estimate = round(300 * share / jobs)
  print(
    f"numjoco: compiling the engine with numba, once per install: {len(cold)} stages in "
    f"{jobs} process{'es' if jobs > 1 else ''} (about {estimate} s)",
    file=sys.stderr,
    flush=True,
  )
  with tempfile.TemporaryDirectory(prefix="numjoco-claims-") as claims:
    names = ",".join(s.name for s in cold)
    workers = [
      subprocess.Popen(
        _helper_command("--claims", claims, "--stages", names),
        env=_helper_env(),
        stdout=subprocess.DEVNULL,
      )
      for _ in range(jobs - 1)
    ]
    try:
      compile_claimed(cold, claims, t0, report=True)
    finally:
      for w in workers:
        w.wait()
  print(
    f"numjoco: engine compiled in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True
  )


def compile_claimed(stages: list, claims: str, t0: float, report: bool) -> None:
  """Compiles each stage this process claims first (O_EXCL file creation in `claims`); with
  `report` on a terminal, one progress line rewritten as stages are claimed."""
  report = report and sys.stderr.isatty()
  for s in stages:
    try:
      os.close(os.open(os.path.join(claims, s.name), os.O_CREAT | os.O_EXCL))
    except FileExistsError:
      continue
    if report:
      _progress(len(os.listdir(claims)), len(stages), s.name, time.perf_counter() - t0)
    s.compile()
  if report:
    print(file=sys.stderr, flush=True)


def _progress(claimed: int, total: int, name: str, elapsed: float) -> None:
  """numjoco: [#####.....] 23/74 engine.smooth.rne, 25 s, about 60 s left"""
  done = max(claimed - 1, 0)  # (the stage just claimed is still compiling)
  bar = "#" * (20 * done // total)
  left = f", about {elapsed * (total - done) / done:.0f} s left" if done else ""
  line = f"numjoco: [{bar:20s}] {claimed}/{total} {name}, {elapsed:.0f} s{left}"
  print(f"\r{line[:120]:120s}", end="", file=sys.stderr, flush=True)


# ---- handles from addresses (the driver's entry takes plain ints) ----


@intrinsic
def _meminfo_address(typingctx, handle):
  def codegen(context, builder, signature, args):
    proxy = cgutils.create_struct_proxy(handle)(context, builder, value=args[0])
    return builder.ptrtoint(proxy.meminfo, context.get_value_type(types.intp))

  return types.intp(handle), codegen


@_jit.entry
def _address_of(handle):
  return _meminfo_address(handle)


def address_of(handle):
  """The address of a struct handle's memory, valid while the Python handle lives (without the
  JIT: the handle itself, which handle_at gives back)."""
  return handle if _jit.DISABLE_JIT else int(_address_of(handle))


@intrinsic
def _handle_at(typingctx, address, handle_type):
  """The struct handle at `address` (from address_of) as a numba value of `handle_type`."""
  struct_type = handle_type.instance_type

  def codegen(context, builder, signature, args):
    proxy = cgutils.create_struct_proxy(struct_type)(context, builder)
    mi_type = proxy.meminfo.type
    proxy.meminfo = builder.inttoptr(args[0], mi_type)
    value = proxy._getvalue()
    # (no reference taken: handles are not counted in jitted code, engine/_jit.py)
    return value

  return struct_type(types.intp, handle_type), codegen


def _handle_at_python(address, handle_type):
  return address


# handle_at(address, M): the struct handle at an address from address_of, in jitted code
handle_at = _handle_at_python if _jit.DISABLE_JIT else _handle_at


# ---- struct handles, built in Python for every MjOption/MjStatistic/MjModel/MjData ----


_ARRAY_MEMBERS = ("meminfo", "parent", "nitems", "itemsize", "data", "shape", "strides")


def _array_data_field(a):
  """An array's data pointer read from numpy's array object (PyArrayObject_fields.data, right
  after the object header): 0.1 us, where a.ctypes.data takes 1.4 (x 600 members a model)."""
  return ctypes.c_void_p.from_address(id(a) + _ARRAY_DATA_OFFSET).value


_ARRAY_DATA_OFFSET = object.__basicsize__  # (PyObject_HEAD)
_probe = np.zeros(3)[1:]
# numpy's public way where the object layout differs (another Python implementation)
_data_address = (
  _array_data_field if _array_data_field(_probe) == _probe.ctypes.data else lambda a: a.ctypes.data
)
del _probe


class HandleBuilder:
  """Builds a struct handle from its members (in the struct's order) without jitted code.

  numba lays a handle's payload out as the C struct of its members' data models, and every
  member of ours is a whole number of 8-byte words: an int64; a nested handle's meminfo
  pointer; an array's meminfo, parent, nitems, itemsize, data pointer, shape and strides.
  The builder writes those words into memory that an NRT meminfo owns together with the
  members, so the arrays and nested handles live as long as the handle. Arrays are stored
  borrowed, with a null meminfo and parent: numba increments and decrements an atomic
  reference count at every use of a field, which on the small helpers cost more than their
  arithmetic; with a null meminfo it is a null check. The layout is checked against
  numba's once, at import. (A jitted constructor taking every member as an argument was
  30 CPU-s of a cold start, for code that runs once per model.)
  """

  def __init__(self, struct_type, proxy_class):
    from numba.core.registry import cpu_target
    from numba.np.numpy_support import as_dtype

    self.struct_type = struct_type
    self.proxy_class = proxy_class
    context = self.context = cpu_target.target_context
    models = context.data_model_manager
    self.members = []  # (name, (numpy dtype, ndim) of an array, or the handle or int kind)
    words = 0
    for name, member_type in struct_type._fields:
      if isinstance(member_type, types.Array):
        if member_type.layout != "C" or models[member_type]._fields != _ARRAY_MEMBERS:
          raise TypeError(f"{struct_type}.{name}: {member_type} has an unknown layout")
        self.members.append((name, (as_dtype(member_type.dtype), member_type.ndim)))
        words += 5 + 2 * member_type.ndim
      elif member_type == types.int64 or isinstance(member_type, types.StructRef):
        self.members.append((name, "int" if member_type == types.int64 else member_type))
        words += 1
      else:
        raise TypeError(f"{struct_type}.{name}: no handle layout for {member_type}")
    payload = models[struct_type.get_data_type()].get_value_type()
    if payload.get_abi_size(context.target_data) != 8 * words:
      raise TypeError(f"{struct_type}: numba's payload is not {words} packed words")

  def __call__(self, *values):
    if len(values) != len(self.members):
      raise TypeError(f"{self.struct_type} takes {len(self.members)} members, got {len(values)}")
    words = []
    for (name, array), value in zip(self.members, values):
      if array == "int":
        words.append(int(value))
        continue
      if not isinstance(array, tuple):  # a nested handle: its meminfo pointer
        if not (isinstance(value, StructRefProxy) and value._type == array):
          raise TypeError(f"{self.struct_type}.{name}: needs a {array} handle, got {value!r}")
        words.append(address_of(value))
        continue
      dtype, ndim = array
      if not (
        isinstance(value, np.ndarray)
        and value.dtype == dtype
        and value.ndim == ndim
        and value.flags.c_contiguous
      ):
        raise TypeError(
          f"{self.struct_type}.{name}: needs a C-contiguous {ndim}-d {dtype} "
          f"array, got {getattr(value, 'dtype', type(value))} "
          f"{getattr(value, 'shape', '')}"
        )
      words += (
        0,
        0,
        value.size,
        value.itemsize,
        _data_address(value),
        *value.shape,
        *value.strides,
      )
    payload = np.array(words, dtype=np.int64)
    _jit.start_runtime(self.context)
    meminfo = _nrt.meminfo_new(payload.ctypes.data, (payload, values))
    return self.proxy_class._numba_box_(self.struct_type, meminfo)


make_option = HandleBuilder(_structs.OPTION_TYPE, _structs.OptionStruct)
make_statistic = HandleBuilder(_structs.STATISTIC_TYPE, _structs.StatisticStruct)
make_model = HandleBuilder(MODEL_TYPE, _structs.ModelStruct)
make_data = HandleBuilder(DATA_TYPE, _structs.DataStruct)
