"""The project's numba decorators and their cache location.

Every engine kernel is compiled with the same options: numpy error model (C-like inf/nan
instead of exceptions), no fastmath (NaN checks must survive), nogil. `jit` marks helpers
(compiled into the stages of engine/_stage.py that call them), `entry` cached functions
Python calls, `stage_dispatcher` the dispatchers of stages.

numba does not invalidate a cached function when a function it calls in
another file changes, so the cache directory is keyed on a hash of every
engine source file. Inside it each function's cache lies under its folder's path within the
project (engine/collision, suite, ...), not the absolute path numba would use, so every
install of the same sources shares it. Set NUMBA_CACHE_DIR to choose the location yourself.

A bounds-checked build (NUMBA_BOUNDSCHECK=1) is other code and gets a directory of its own.
The stages named in NUMJOCO_UNCHECKED_STAGES (comma-separated, e.g.
engine.collision.sdf.collide_sdf) it loads instead from the normal build's cache when that has
them, without checks: code a bounds-checked run never executes, or that indexes nothing, would
only cost compile time (tests/boundscheck.py names them).
"""

import contextlib
import hashlib
import os
import pathlib
import pickle
import platform
import re
import shutil
import sys
import tempfile

import llvmlite.binding as llvm
import numba
import numba.core.caching
import numba.core.codegen
import numba.core.compiler
import numba.core.compiler_machinery
import numba.core.datamodel.models
import numba.core.registry
import numba.core.runtime
import numba.core.typed_passes
import numba.extending
import numpy as np

ENGINE_DIR = pathlib.Path(__file__).resolve().parent
PROJECT_DIR = ENGINE_DIR.parent  # the folder holding engine/, suite/, ... (site-packages)


# plain-Python parts of the engine that no jitted code imports (tests/engine/test_layout.py
# checks it): editing them cannot make a cached function stale
PYTHON_ONLY = (
  "compiler",
  "render",
  "viewer",
  "plugins",
  "__init__.py",
  "binary.py",
  "loader.py",
  "types.py",
  "physics.py",
  "index.py",
  "mju.py",
  "warmup.py",
  "__main__.py",
  "plugin.py",
  "arguments.py",
  "functions.py",
  "finite_difference.py",
)


def _source_hash() -> str:
  """Hash of the engine's sources, so any edit of jitted code gives a fresh cache.

  PYTHON_ONLY is left out, so that editing the MJCF compiler or the Python API does not force
  a recompile (the compiler's one jitted function has no callees in other files, and numba
  itself notices when its file changes).
  """
  h = hashlib.sha1()
  for path in sorted(ENGINE_DIR.rglob("*.py")):
    if path.relative_to(ENGINE_DIR).parts[0] in PYTHON_ONLY:
      continue
    h.update(str(path.relative_to(ENGINE_DIR)).encode())
    h.update(path.read_bytes())
  return h.hexdigest()[:16]


CACHE_ROOT = pathlib.Path(
  os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"), "numjoco"
)
CPU_PREFERENCE = CACHE_ROOT / "cpu"  # "native": `python -m engine.warmup --native` asked for it

# x86-64 microarchitecture levels, newest first: the features each needs of the host
_X86_LEVELS = (
  (
    "x86-64-v3",
    (
      "avx",
      "avx2",
      "bmi",
      "bmi2",
      "f16c",
      "fma",
      "lzcnt",
      "movbe",
      "xsave",
      "cx16",
      "popcnt",
      "sahf",
      "sse4.1",
      "sse4.2",
      "ssse3",
    ),
  ),
  ("x86-64-v2", ("cx16", "popcnt", "sahf", "sse4.1", "sse4.2", "ssse3")),
  ("x86-64", ()),
)


def _cpu_target() -> str:
  """The CPU the engine's machine code is generated for: a portable baseline by default (the
  newest x86-64 level this CPU has, x86-64-v3 on any AVX2 machine; `generic` elsewhere), so a
  cache built on one machine serves every machine of its class (a wheel's prebuilt engine);
  'native' (this CPU's every feature) with NUMJOCO_CPU=native or after
  `python -m engine.warmup --native`. NUMBA_CPU_NAME, when set, is numba's to honour."""
  choice = os.environ.get("NUMJOCO_CPU")
  if choice is None:
    try:
      choice = CPU_PREFERENCE.read_text().strip()
    except OSError:
      choice = "portable"
  if choice == "native" or os.environ.get("NUMBA_CPU_NAME"):
    return "native-" + (numba.config.CPU_NAME or llvm.get_host_cpu_name())
  if platform.machine().lower() in ("x86_64", "amd64"):
    host = llvm.get_host_cpu_features()
    name = next(name for name, needs in _X86_LEVELS if all(host.get(f) for f in needs))
  else:
    name = "generic"
  numba.config.CPU_NAME = name  # (read when numba first builds its code generator)
  numba.config.CPU_FEATURES = ""  # the level's features only, none of the host's others
  return name


CPU_TARGET = _cpu_target()

# a wheel's compiled engine (`python -m suite.wheel DIR` puts it there)
PREBUILT_DIR = ENGINE_DIR / "_prebuilt"


def _writable(path: pathlib.Path) -> bool:
  try:
    path.mkdir(parents=True, exist_ok=True)
    tempfile.TemporaryFile(dir=path).close()
    return True
  except OSError:
    return False


def _install_prebuilt(cache_dir: pathlib.Path) -> None:
  """Copies the caches a wheel carries for these sources and this CPU class (the engine's and
  the suite's kernels') into the cache root, once, so that the first run compiles nothing.
  Each folder appears whole (copied beside it, then renamed) or is merged file by file into
  one that exists."""
  if not PREBUILT_DIR.is_dir():
    return
  for src in PREBUILT_DIR.iterdir():
    if src.name != cache_dir.name and not src.name.startswith(cache_dir.name + "-suite-"):
      continue
    dst = cache_dir.parent / src.name
    if (dst / ".prebuilt").exists():
      continue
    try:
      if not dst.exists():
        tmp = pathlib.Path(tempfile.mkdtemp(prefix=f".{src.name}-", dir=cache_dir.parent))
        shutil.copytree(src, tmp, dirs_exist_ok=True)
        try:
          tmp.rename(dst)
        except OSError:  # another process installed it first
          shutil.rmtree(tmp, ignore_errors=True)
      else:
        for file in src.rglob("*"):
          target = dst / file.relative_to(src)
          if file.is_file() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, f"{target}.{os.getpid()}")
            os.replace(f"{target}.{os.getpid()}", target)
      (dst / ".prebuilt").touch()
    except OSError as e:  # (no room: the stages compile instead)
      print(f"numjoco: could not install the prebuilt engine into {dst}: {e}", file=sys.stderr)


def _cache_dir(name: str) -> str:
  """The cache directory `name` under the cache root, with the wheel's compiled engine in it;
  when the root cannot be written, the wheel's own copy (read-only: what it lacks compiles
  in memory) or else a temporary directory."""
  if _writable(CACHE_ROOT):
    _install_prebuilt(CACHE_ROOT / name)
    return str(CACHE_ROOT / name)
  fallback = PREBUILT_DIR / name
  if not fallback.is_dir():
    fallback = tempfile.mkdtemp(prefix="numjoco-cache-")
  print(
    f"numjoco: cannot write the engine cache in {CACHE_ROOT}; using {fallback}", file=sys.stderr
  )
  return str(fallback)


SOURCE_HASH = _source_hash()
if "NUMBA_CACHE_DIR" not in os.environ:
  NORMAL_CACHE_DIR = _cache_dir(f"{SOURCE_HASH}-{CPU_TARGET}")
  CACHE_DIR = NORMAL_CACHE_DIR + ("-boundscheck" if numba.config.BOUNDSCHECK else "")
  numba.config.CACHE_DIR = CACHE_DIR
else:
  CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
  # (the compile helper processes of engine/_stage.py are told where the normal build is)
  NORMAL_CACHE_DIR = os.environ.get("NUMJOCO_NORMAL_CACHE_DIR")
if os.environ.get("NUMJOCO_SOURCE_HASH", SOURCE_HASH) != SOURCE_HASH:
  # a compile helper that imported other engine sources than the process that started it
  # would fill that process's cache with code for another layout
  raise ImportError(
    f"numjoco: this engine ({ENGINE_DIR}) is not the one whose cache "
    f"{CACHE_DIR} this process was started to compile into"
  )
_UNCHECKED = frozenset(filter(None, os.environ.get("NUMJOCO_UNCHECKED_STAGES", "").split(",")))

DISABLE_JIT = bool(numba.config.DISABLE_JIT)


def _inline_refcounts() -> None:
  """Lets LLVM inline numba's NRT_incref/NRT_decref into the engine's code.

  numba marks both `noinline` so that its refcount pruning can find the calls, but most
  struct-field and row accesses of the engine keep theirs, and each call spills every live
  float register. The engine's arrays are borrowed (null meminfo, engine/_stage.py), so the
  calls only test for null; inlined, that test is a compare. Measured: swimmer15's env.step
  went from 1.50x to ~1.2x dm_control's, humanoid_CMU from 1.17x to ~1.0x. Applied at import,
  before numba builds its runtime module; refcounting itself is unchanged.
  """
  from numba.core.runtime import nrtdynmod

  def allow_inlining(define, name):
    def define_inlinable(module, atomic):
      define(module, atomic)
      module.get_global(name).attributes.discard("noinline")

    return define_inlinable

  if not getattr(nrtdynmod, "_numjoco_inlined", False):
    nrtdynmod._define_nrt_incref = allow_inlining(nrtdynmod._define_nrt_incref, "NRT_incref")
    nrtdynmod._define_nrt_decref = allow_inlining(nrtdynmod._define_nrt_decref, "NRT_decref")
    nrtdynmod._numjoco_inlined = True


_inline_refcounts()


def _c_indexing() -> None:
  """The engine's kernels index arrays as C does: a negative integer index is not wrapped.

  numba follows Python, adding the length to a negative index, which costs a compare and a
  select per access, keeps every array's length in a register and stops LLVM from seeing
  consecutive accesses (so loops do not vectorize). The engine is a port of C code where a
  negative index is a bug: with NUMBA_BOUNDSCHECK it raises IndexError, as any index out of
  range. Only functions of the `engine` package (numba mangles their names as _ZN6engine...)
  are compiled this way, so they never index from the end (not even x[-1]: numba has typed the
  literal as a plain integer by then); any other numba code in the process keeps Python's
  rule.
  """
  from numba.np import arrayobj

  python_rule = arrayobj.fix_integer_index

  def fix_integer_index(context, builder, idxty, idx, size):
    if idxty.signed and builder.function.name.startswith("_ZN6engine"):
      return context.cast(builder, idx, idxty, numba.types.intp)
    return python_rule(context, builder, idxty, idx, size)

  if not getattr(arrayobj, "_numjoco_c_indexing", False):
    arrayobj.fix_integer_index = fix_integer_index
    arrayobj._numjoco_c_indexing = True


_c_indexing()


# mangled-name prefixes (_ZN6engine...<name>) of the functions marked always_inline
_ALWAYS_INLINE: set = set()


def always_inline(function):
  """Marks a jit helper or entry for LLVM to inline into every caller (the `alwaysinline`
  attribute, set as numba lowers it). For small functions on hot call chains, where numba's
  calling convention (every array argument passed as seven words, a status returned) costs more
  than the body: the SDF field evaluations of engine/collision/sdf.py ran 2.4-2.8x faster. numba's
  own `inline="always"` (inline_jit) types the body again at every call site: on the same
  functions it took the SDF collision's compile from 6 to 85 s, where LLVM's inliner adds
  nothing measurable."""
  if DISABLE_JIT:
    return function
  py_func = getattr(function, "py_func", function)
  parts = f"{py_func.__module__}.{py_func.__qualname__}".split(".")
  _ALWAYS_INLINE.add("_ZN" + "".join(f"{len(part)}{part}" for part in parts))
  return function


def _marks_always_inline() -> None:
  """Sets `alwaysinline` on the functions marked always_inline as numba lowers them (a
  function's mangled name is its prefix followed by its ABI tags, B..., or the end of the name,
  E...)."""
  from numba.core import cpu

  post_lowering = cpu.CPUContext.post_lowering

  def marking_post_lowering(self, mod, library):
    for fn in mod.functions:
      if fn.is_declaration or not fn.name.startswith("_ZN6engine"):
        continue
      for prefix in _ALWAYS_INLINE:
        if fn.name.startswith(prefix) and fn.name[len(prefix) : len(prefix) + 1] in ("B", "E"):
          fn.attributes.discard("noinline")
          fn.attributes.add("alwaysinline")
    return post_lowering(self, mod, library)

  if not getattr(cpu.CPUContext, "_numjoco_always_inline", False):
    cpu.CPUContext.post_lowering = marking_post_lowering
    cpu.CPUContext._numjoco_always_inline = True


_marks_always_inline()


def start_runtime(context) -> None:
  """numba's runtime (`rtsys.initialize`), with the machine code of its refcount and atomic
  helpers loaded from the cache: numba compiles that small module in every process that uses
  it, ~20 ms of a process's first model load. Anything unexpected (numba internals moved, a
  damaged file) falls back on numba's own start."""
  from numba.core.compiler_lock import global_compiler_lock
  from numba.core.runtime import nrt
  from numba.core.runtime import nrtdynmod

  rtsys = numba.core.runtime.rtsys
  if rtsys._init:
    return
  llvm_version = ".".join(map(str, llvm.llvm_version_info))
  path = os.path.join(CACHE_DIR, f"nrt-{numba.__version__}-llvm{llvm_version}.bin")
  with global_compiler_lock:
    try:
      if rtsys._init or numba.config.NRT_STATS:
        raise LookupError
      for py_name, address in nrt._nrt.c_helpers.items():  # (as rtsys.initialize does)
        llvm.add_symbol(py_name if py_name.startswith("_") else "NRT_" + py_name, address)
      try:
        with open(path, "rb") as f:
          digest, payload = f.read(32), f.read()
        if hashlib.sha256(payload).digest() != digest:
          raise ValueError("checksum mismatch")
        library = context.codegen().unserialize_library(pickle.loads(payload))
      except Exception:  # (missing, damaged, or not loadable here: compiled again)
        module, library = nrtdynmod.create_nrt_module(context)
        library.add_ir_module(module)
        library.enable_object_caching()
        library.finalize()
        payload = pickle.dumps(library.serialize_using_object_code())
        with contextlib.suppress(OSError):
          tmp = f"{path}.{os.getpid()}"
          with open(tmp, "wb") as f:
            f.write(hashlib.sha256(payload).digest() + payload)
          os.replace(tmp, path)
      rtsys._library = library
      rtsys._init = True
    except (LookupError, AttributeError):
      pass
  rtsys.initialize(context)  # (returns at once when started above)


_OPTIONS = dict(nopython=True, boundscheck=None, error_model="numpy", fastmath=False, nogil=True)


class _Dispatcher(numba.core.registry.CPUDispatcher):
  """numba's CPU dispatcher, except that a jitted caller passing a literal (an enum value, a
  flag, -1) gets the function compiled for the argument's type, not once per value: numba
  specializes calls on literal arguments, which compiled some helpers three times."""

  def get_call_template(self, args, kws):
    args = tuple(numba.types.unliteral(a) for a in args)
    kws = {k: numba.types.unliteral(v) for k, v in kws.items()}
    return super().get_call_template(args, kws)


class _HelperDispatcher(_Dispatcher):
  """A jit helper: compiled without a wrapper for calls from Python, so such a call would
  crash the process; it raises instead."""

  def __call__(self, *args, **kwargs):
    raise TypeError(
      f"{self.py_func.__module__}.{self.py_func.__qualname__} is an engine helper that only "
      f"jitted code calls; from Python, call engine._jit.python_callable(helper)(...) or the "
      f"mj_/mju_ function of the API"
    )


# ---- helpers compile to LLVM IR only ----
#
# A jit helper is never called from Python: numba links its LLVM IR into each jitted caller,
# and the stage at the top of the call tree optimizes the whole and generates its machine
# code. numba also optimized each helper's own module and generated machine code for it, work
# nothing ran: a fifth of the engine's compile time (a cart-pole's stages 153 -> 122 CPU-s).


class _LinkOnlyLibrary(numba.core.codegen.JITCodeLibrary):
  """The code library of a helper: function-level optimization only, no module passes, no
  machine code (its callers' libraries link its module and do both)."""

  def _optimize_final_module(self):
    pass

  def _finalize_final_module(self):
    self._finalized = True

  def get_pointer_to_function(self, name):
    self._ensure_finalized()
    return 0

  @property
  def codegen(self):
    return _NoEnvironment(self._codegen)


class _NoEnvironment:
  """A codegen that does not set a function's environment pointer: that writes into the
  execution engine, which a helper's module never enters."""

  def __init__(self, codegen):
    self._codegen = codegen

  def __getattr__(self, name):
    return getattr(self._codegen, name)

  def set_env(self, env_name, env):
    pass


@numba.core.compiler_machinery.register_pass(mutates_CFG=True, analysis_only=False)
class _LinkOnlyLowering(numba.core.typed_passes.NativeLowering):
  _name = "numjoco_link_only_lowering"

  def run_pass(self, state):
    if state.library is None:
      state.library = _LinkOnlyLibrary(state.targetctx.codegen(), state.func_id.func_qualname)
    return super().run_pass(state)


class _LinkOnlyCompiler(numba.core.compiler.CompilerBase):
  """numba's nopython pipeline, lowering helpers into _LinkOnlyLibrary."""

  def define_pipelines(self):
    pm = numba.core.compiler.DefaultPassBuilder.define_nopython_pipeline(self.state)
    pm.passes = [
      (_LinkOnlyLowering if p is numba.core.typed_passes.NativeLowering else p, d)
      for p, d in pm.passes
    ]
    pm.finalize()
    return [pm]


class _LazyHelper:
  """A jit helper whose numba dispatcher is made when first needed: by the compile of a caller
  (numba types the global through typeof, below) or by a look at its attributes. A process
  that loads the engine from the cache compiles no helper, and making the 900 dispatchers was
  25 ms of every `import engine`."""

  def __init__(self, py_func, options):
    self.py_func = py_func
    self._options = options
    self._dispatcher = None

  @property
  def dispatcher(self) -> _HelperDispatcher:
    if self._dispatcher is None:
      self._dispatcher = _HelperDispatcher(
        py_func=self.py_func,
        locals={},
        targetoptions=self._options,
        pipeline_class=_LinkOnlyCompiler,
      )
    return self._dispatcher

  def __getattr__(self, name):
    return getattr(self.dispatcher, name)

  def __call__(self, *args, **kwargs):
    return self.dispatcher(*args, **kwargs)  # (raises: helpers have no entry for Python)

  def __repr__(self):
    return f"<jit helper {self.py_func.__module__}.{self.py_func.__qualname__}>"


@numba.extending.typeof_impl.register(_LazyHelper)
def _typeof_lazy_helper(helper, context):
  return numba.types.Dispatcher(helper.dispatcher)


def is_helper(fn) -> bool:
  """Whether `fn` is a jit helper (`jit` or `inline_jit`)."""
  return isinstance(fn, (_LazyHelper, _HelperDispatcher))


class _ProjectLocator(
  numba.core.caching._SourceFileBackedLocatorMixin, numba.core.caching._CacheLocator
):
  """Locates the cache of a function of this project (engine/, suite/, ...) by the folder's
  path inside the project, where numba's own locators use its absolute path: every install
  of the same sources (two venvs, an editable and a regular install, a CI clone) then shares
  one cache. Freshness stays numba's: a hash of the source file's contents."""

  def __init__(self, py_func, py_file, folder):
    self._py_file = py_file
    self._lineno = py_func.__code__.co_firstlineno
    self._cache_path = os.path.join(numba.config.CACHE_DIR, "_".join(folder.parts) or "_")

  def get_cache_path(self):
    return self._cache_path

  def ensure_cache_path(self):
    """The folder exists (a read-only one serves loads; saves then fail quietly)."""
    os.makedirs(self._cache_path, exist_ok=True)

  @classmethod
  def from_function(cls, py_func, py_file):
    try:
      folder = pathlib.Path(py_file).resolve().parent.relative_to(PROJECT_DIR)
    except (OSError, ValueError):  # not a file of this project: numba's locators
      return None
    locator = cls(py_func, py_file, folder)
    try:
      locator.ensure_cache_path()
    except OSError:  # the cache folder cannot be written
      return None
    return locator


class _ProjectCacheImpl(numba.core.caching.CompileResultCacheImpl):
  _locator_classes = [_ProjectLocator, *numba.core.caching.CompileResultCacheImpl._locator_classes]

  def reduce(self, cres):
    """numba's, minus the type annotation (text nothing reads) and the environments the machine
    code never reads: numba stores the environment of every function compiled in, and a load
    sets each (importing its module: numba.np.arrayobj is 20 ms). Kept: those an instruction
    names besides the global's own definition."""
    payload = super().reduce(cres)
    text = str(cres.library._final_module)
    used = tuple(
      env
      for env in payload[8]
      if len(re.findall(re.escape(env.env_name) + r"(?![\w.$])", text)) > 1
    )
    return (*payload[:6], "", payload[7], used, *payload[9:])


_INDEXES = {}  # (index path, its stat, source stamp) -> its overloads


class _CheckedCacheFile(numba.core.caching.IndexDataCacheFile):
  """numba's index and data files, each data file led by the SHA-256 of the rest, so that a
  file truncated or damaged on disk is found out (and recompiled), never loaded."""

  def _save_data(self, name, data):
    payload = self._dump(data)
    with self._open_for_write(self._data_path(name)) as f:
      f.write(hashlib.sha256(payload).digest())
      f.write(payload)

  def _load_index(self):
    """numba's, memoized while the file is unchanged: a model's first load asks for each
    stage's index twice (is it cached? then load it)."""
    try:
      st = os.stat(self._index_path)
    except OSError:
      return super()._load_index()
    key = (self._index_path, st.st_mtime_ns, st.st_size, st.st_ino, self._source_stamp)
    if key not in _INDEXES:
      _INDEXES[key] = super()._load_index()
    return dict(_INDEXES[key])

  def _load_data(self, name):
    with open(self._data_path(name), "rb") as f:
      digest, payload = f.read(32), f.read()
    if hashlib.sha256(payload).digest() != digest:
      raise ValueError("checksum mismatch")
    return pickle.loads(payload)


_SAVE_FAILED = []  # (one message per process)


@contextlib.contextmanager
def _quiet_llvm_lock():
  """numba announces every call into LLVM as an event ("numba:llvm_lock", for its compile
  timers); loading a stage from the cache makes ~90 such calls, and their events were 15-20 ms
  of a process's first model load. While a cache entry loads, llvmlite's lock callbacks are set
  aside (swapped under the lock, so no call is left half announced)."""
  lock = getattr(getattr(llvm.ffi, "lib", None), "_lock", None)
  callbacks = getattr(lock, "_cblist", None)
  if not callbacks:  # (llvmlite internals moved: load as numba does)
    yield
    return
  with lock._lock:
    saved = callbacks[:]
    callbacks.clear()
  try:
    yield
  finally:
    with lock._lock:
      callbacks[:] = saved


class _ProjectCache(numba.core.caching.FunctionCache):
  """The cache of a function of this project: checksummed files; a file that cannot be read
  is compiled again and rewritten, a cache that cannot be written is left as it is."""

  _impl_class = _ProjectCacheImpl

  def __init__(self, py_func):
    super().__init__(py_func)
    self._cache_file.__class__ = _CheckedCacheFile
    self._qualname = f"{py_func.__module__}.{py_func.__qualname__}"

  def load_overload(self, sig, target_context):
    """numba's, minus the refresh of the target's registries that comes first: loading machine
    code needs only numba's runtime, and the refresh imports every lowering module numba has
    (scipy.linalg among them, for BLAS): 0.2 s of every process's first load. A compile
    refreshes them itself."""
    start_runtime(target_context)
    try:
      with self._guard_against_spurious_io_errors(), _quiet_llvm_lock():
        return self._load_overload(sig, target_context)
    except Exception as e:  # a damaged or truncated file (OSError: numba's own answer, None)
      print(
        f"numjoco: the cached code of {self._qualname} cannot be read ({type(e).__name__}: "
        f"{e}); compiling it again",
        file=sys.stderr,
      )
      try:
        self._cache_file.flush()  # an empty index, which the compiled code's save fills
      except OSError:
        pass
      return None

  def save_overload(self, sig, data):
    try:
      super().save_overload(sig, data)
    except OSError as e:
      if not _SAVE_FAILED:
        _SAVE_FAILED.append(e)
        print(
          f"numjoco: cannot save compiled code in {self._cache_path} ({e}); it stays in memory",
          file=sys.stderr,
        )


class _ObjectCodeCacheImpl(_ProjectCacheImpl):
  """numba's cache of compile results, minus the LLVM bitcode of the whole linked module.

  numba stores it next to the machine code so that other functions can link the cached one
  in; nothing links a stage (jitted callers go through its pointer), and the bitcode was 45 %
  of the cache and a third of the time to load it. A stub module that only names the
  library's own exported functions takes its place (numba looks symbols up by these names);
  the stubs trap if anything ever linked them.
  """

  def reduce(self, cres):
    payload = super().reduce(cres)
    name, kind, data = payload[0]
    if kind != "object":
      return payload
    module = cres.library._final_module
    exported = [
      f.name
      for f in module.functions
      if not f.is_declaration and f.linkage == llvm.Linkage.external
    ]
    stub = (
      "\n".join(
        f'define void @"{n}"() {{\n  call void @llvm.trap()\n  unreachable\n}}' for n in exported
      )
      + "\ndeclare void @llvm.trap()\n"
    )
    return ((name, kind, (data[0], llvm.parse_assembly(stub).as_bitcode())),) + payload[1:]


class _ObjectCodeCache(_ProjectCache):
  _impl_class = _ObjectCodeCacheImpl


class _NormalBuildCache(_ObjectCodeCache):
  """A stage's cache in the normal build's directory, as a bounds-checked build reads it: it
  loads and never saves (a stage compiled in that build would carry bounds checks)."""

  def save_overload(self, sig, data):
    pass


def from_normal_build(name) -> bool:
  """Whether this bounds-checked build takes stage `name` from the normal build (it is named in
  NUMJOCO_UNCHECKED_STAGES): its compile helpers leave it out."""
  return bool(numba.config.BOUNDSCHECK and NORMAL_CACHE_DIR and name in _UNCHECKED)


def _stage_cache(py_func):
  """The cache of a stage: the normal build's for the NUMJOCO_UNCHECKED_STAGES of a
  bounds-checked build, when it has compiled them, else this build's own."""
  if from_normal_build(f"{py_func.__module__}.{py_func.__qualname__}"):
    numba.config.CACHE_DIR = NORMAL_CACHE_DIR  # read when the cache locates its files
    try:
      cache = _NormalBuildCache(py_func)
    finally:
      numba.config.CACHE_DIR = CACHE_DIR
    if os.path.exists(cache._cache_file._index_path):
      return cache
  return _ObjectCodeCache(py_func)


def _decorator(
  cache: bool, object_code_only: bool = False, helper: bool = False, inline: bool = False
):
  extra = dict(no_cpython_wrapper=True, no_cfunc_wrapper=True) if helper else {}
  if inline:
    extra["inline"] = "always"
  kind = _HelperDispatcher if helper else _Dispatcher

  def decorate(py_func):
    if DISABLE_JIT:
      return py_func
    if helper and not inline:  # (numba inlines only the dispatchers it sees)
      return _LazyHelper(py_func, dict(_OPTIONS, **extra))
    dispatcher = kind(
      py_func=py_func,
      locals={},
      targetoptions=dict(_OPTIONS, **extra),
      pipeline_class=_LinkOnlyCompiler if helper else numba.core.compiler.Compiler,
    )
    try:
      if object_code_only:
        dispatcher._cache = _stage_cache(py_func)
      elif cache:
        dispatcher._cache = _ProjectCache(py_func)
    except RuntimeError as e:  # numba found no folder it may write: compiled in memory only
      print(f"numjoco: {e}", file=sys.stderr)
    return dispatcher

  return decorate


# jit: an engine helper. It is compiled into the stages that call it (engine/_stage.py), never
# cached on its own (each would be stored with its whole call tree) and has no wrapper for
# calls from Python (generating them was 8 % of the engine's compile time).
jit = _decorator(cache=False, helper=True)

# inline_jit: a jit helper that numba inlines into each caller's IR, for the few tiny helpers of
# inner loops (dot products of the dense factorizations) that LLVM would otherwise call.
inline_jit = _decorator(cache=False, helper=True, inline=True)

# entry: a cached function that Python calls directly.
entry = _decorator(cache=True)

# the dispatcher of a stage (engine/_stage.py): cached as machine code only
stage_dispatcher = _decorator(cache=True, object_code_only=True)

_python_callables = {}


def compiled_entry(dispatcher, *argtypes):
  """The machine code of an `entry` for one signature (loaded or compiled once), to call without
  numba's typing of the arguments, so the caller must pass exactly those types (arrays
  C-contiguous): typing a process's first array imports numpy.ma, 15 ms of a first model
  load."""
  if DISABLE_JIT:
    return dispatcher
  if argtypes not in dispatcher.overloads:
    dispatcher.compile(argtypes)
  return dispatcher.overloads[argtypes].entry_point


def python_callable(helper):
  """A cached, Python-callable version of a jit helper (the public mju_ functions, tests).

  Compiled on first call for the argument types given, like any numba function.
  """
  if DISABLE_JIT or not hasattr(helper, "py_func"):  # no JIT, or a plain Python function
    return helper
  if helper not in _python_callables:
    _python_callables[helper] = entry(helper.py_func)
  return _python_callables[helper]


def _stack_array(arrty, size):
  """Codegen of a C-contiguous 1-d array of `size` items in a static alloca of the kernel."""

  def codegen(context, builder, signature, args):
    from llvmlite import ir
    from numba.core import cgutils

    lltype = context.get_data_type(arrty.dtype)
    data = cgutils.alloca_once(builder, lltype, size=size)
    out = context.make_array(arrty)(context, builder)
    intp = context.get_value_type(numba.types.intp)
    itemsize = context.get_abi_sizeof(lltype)
    context.populate_array(
      out,
      data=data,
      shape=[ir.Constant(intp, size)],
      strides=[ir.Constant(intp, itemsize)],
      itemsize=ir.Constant(intp, itemsize),
      meminfo=None,
    )
    return out._getvalue()

  return codegen


def _stack_array_typing(n, dtype):
  """Signature and codegen of a stack vector of dtype; only literal sizes are static."""
  if not isinstance(n, numba.types.IntegerLiteral):
    return None
  arrty = numba.types.Array(dtype, 1, "C")
  return arrty(n), _stack_array(arrty, n.literal_value)


@numba.extending.intrinsic
def _local_array_jit(typingctx, n):
  return _stack_array_typing(n, numba.types.float64)


@numba.extending.intrinsic
def _local_int_array_jit(typingctx, n):
  return _stack_array_typing(n, numba.types.int32)


# local_array(n) / local_int_array(n): an uninitialized float64 / int32 scratch vector of
# literal size n on the stack of the calling kernel: no allocation and no reference counting.
# It lives until that kernel returns, so never return it or store it in a struct.
if DISABLE_JIT:

  def local_array(n):
    return np.empty(n)

  def local_int_array(n):
    return np.empty(n, np.int32)
else:
  local_array = _local_array_jit
  local_int_array = _local_int_array_jit


@numba.extending.intrinsic
def _zero_jit(typingctx, ary):
  if not isinstance(ary, numba.types.Array) or ary.layout != "C":
    return None

  def codegen(context, builder, signature, args):
    from numba.core import cgutils

    a = context.make_array(signature.args[0])(context, builder, value=args[0])
    cgutils.memset(builder, a.data, builder.mul(a.nitems, a.itemsize), 0)
    return context.get_dummy_value()

  return numba.types.none(ary), codegen


def _zero_python(ary):
  ary[...] = 0


# zero(a): sets every element of a C-contiguous array to zero with one memset (clearing
# MjData's 300 arrays this way compiles in a fraction of a second; slice assignments took 8 s)
zero = _zero_python if DISABLE_JIT else _zero_jit


@numba.extending.intrinsic
def _sum4_products_jit(typingctx, vec1, adr1, vec2, adr2, nblock):
  if not (
    isinstance(vec1, numba.types.Array)
    and vec1.layout == "C"
    and vec1.ndim == 1
    and isinstance(vec2, numba.types.Array)
    and vec2.layout == "C"
    and vec2.ndim == 1
  ):
    return None

  def codegen(context, builder, signature, args):
    from llvmlite import ir
    from numba.core import cgutils

    i64 = numba.types.int64
    lanes = ir.VectorType(ir.DoubleType(), 4)
    data1 = context.make_array(signature.args[0])(context, builder, value=args[0]).data
    data2 = context.make_array(signature.args[2])(context, builder, value=args[2]).data
    p1 = builder.gep(data1, [context.cast(builder, args[1], signature.args[1], i64)])
    p2 = builder.gep(data2, [context.cast(builder, args[3], signature.args[3], i64)])
    count = context.cast(builder, args[4], signature.args[4], i64)
    acc = cgutils.alloca_once_value(builder, ir.Constant(lanes, [0.0] * 4))
    with cgutils.for_range(builder, count) as loop:
      k = builder.mul(loop.index, ir.Constant(ir.IntType(64), 4))
      x = builder.load(builder.bitcast(builder.gep(p1, [k]), lanes.as_pointer()), align=8)
      y = builder.load(builder.bitcast(builder.gep(p2, [k]), lanes.as_pointer()), align=8)
      builder.store(builder.fadd(builder.load(acc), builder.fmul(x, y)), acc)
    s = builder.load(acc)
    e = [builder.extract_element(s, ir.Constant(ir.IntType(32), j)) for j in range(4)]
    return builder.fadd(builder.fadd(e[0], e[2]), builder.fadd(e[1], e[3]))

  return numba.types.float64(vec1, adr1, vec2, adr2, nblock), codegen


def _sum4_products_python(vec1, adr1, vec2, adr2, nblock):
  s = [0.0, 0.0, 0.0, 0.0]
  for b in range(nblock):
    for k in range(4):
      s[k] += vec1[adr1 + 4 * b + k] * vec2[adr2 + 4 * b + k]
  return (s[0] + s[2]) + (s[1] + s[3])


# sum4_products(vec1, adr1, vec2, adr2, nblock): the products vec1[adr1+i]*vec2[adr2+i],
# i < 4*nblock, summed in four interleaved partial sums s0..s3 combined as (s0+s2)+(s1+s3):
# the order of MuJoCo's mju_dot, whose AVX build keeps the four sums in one 4-lane register.
# Here too: one vector multiply and add per four products (numba leaves scalar code). Its
# loads are not bounds-checked under NUMBA_BOUNDSCHECK: dot_at's tail products, indexed
# normally, lie past them.
sum4_products = _sum4_products_python if DISABLE_JIT else _sum4_products_jit


_HANDLE_TYPES = {}  # class name -> the one instance of a handle type
_LAYOUTS = {}  # class name -> hash of its members' names and types


def _layout(struct_type) -> str:
  name = type(struct_type).__name__
  if name not in _LAYOUTS:
    _LAYOUTS[name] = hashlib.sha1(repr(struct_type._fields).encode()).hexdigest()[:16]
  return _LAYOUTS[name]


def handle_type(name: str, layout: str):
  """The handle type `name` (ModelType...), as a pickled one unpickles: numba rebuilds a type
  from its fields, and rebuilding MjModel's 600 was 70 us, twice per stage a model loads. A
  type pickled with other members (code compiled for another layout) does not unpickle."""
  struct_type = _HANDLE_TYPES[name]
  if _layout(struct_type) != layout:
    raise pickle.UnpicklingError(f"{name} was pickled with other members")
  return struct_type


class _UncountedStructRefModel(numba.core.datamodel.models.StructRefModel):
  """A handle's data model with no reference count: numba increments and decrements a
  StructRef's (atomically) wherever a kernel passes or keeps one, a locked instruction each
  time m or d goes into a helper. A handle lives as long as the Python MjModel/MjData that
  owns it, which outlives every call, so kernels never need the count: with nothing to
  traverse, numba emits none (the real-world arm 1.18x -> 1.06x MuJoCo's step, the capsule
  humanoid 1.02x -> 0.92x, interleaved). The count stays Python's: boxing takes a reference
  and unboxing gives back the one it took (define_handle_boxing)."""

  def traverse(self, builder):
    return []


def define_handle_boxing(struct_type, proxy_class):
  """numba's structref.define_boxing for a handle type, balanced without jitted reference
  counts: a handle boxed for Python takes a reference of its own (the Python object releases it
  when it dies), and an unboxed argument gives back the reference numba's unboxing took (the
  argument's Python object keeps the handle alive through the call)."""
  from numba.core import cgutils
  from numba.core.pythonapi import NativeValue
  from numba.core.pythonapi import box
  from numba.core.pythonapi import unbox
  from numba.core.runtime.nrtdynmod import incref_decref_ty

  meminfo_type = numba.types.MemInfoPointer(numba.types.voidptr)
  constructor = proxy_class._numba_box_

  def refcount(builder, name, meminfo):
    fn = cgutils.get_or_insert_function(builder.module, incref_decref_ty, name)
    builder.call(fn, [meminfo])

  @box(struct_type)
  def _box(typ, val, c):
    meminfo = cgutils.create_struct_proxy(typ)(c.context, c.builder, value=val).meminfo
    refcount(c.builder, "NRT_incref", meminfo)
    boxed = c.box(meminfo_type, meminfo)
    ctor = c.pyapi.unserialize(c.pyapi.serialize_object(constructor))
    ty = c.pyapi.unserialize(c.pyapi.serialize_object(typ))
    out = c.pyapi.call_function_objargs(ctor, [ty, boxed])
    for obj in (ctor, ty, boxed):
      c.pyapi.decref(obj)
    return out

  @unbox(struct_type)
  def _unbox(typ, obj, c):
    meminfo_obj = c.pyapi.object_getattr_string(obj, "_meminfo")
    meminfo = c.unbox(meminfo_type, meminfo_obj).value
    refcount(c.builder, "NRT_decref", meminfo)
    c.pyapi.decref(meminfo_obj)
    proxy = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    proxy.meminfo = meminfo
    return NativeValue(proxy._getvalue())


def register_handle(struct_type):
  """numba's structref.register for the engine's struct handles, with invariant field loads.

  A handle (MjModel/MjData/MjOption/MjStatistic struct) is written once, from Python
  (engine/_stage.py HandleBuilder), and never changes while kernels run. numba's own getattr
  reloads a field after every store through any array, since the store might have changed the
  struct: a loop writing d.qacc[i] reloaded d.qacc (and every other field it read) on each
  iteration and never vectorized. Marking the loads of the payload pointer and of the field
  !invariant.load lets LLVM hoist them out of loops: a 729-element copy into d.scratch_H
  0.39 -> 0.05 us.
  Jitted code cannot set a field. The type pickles as its name and a hash of its members
  (`handle_type`). Handles are not reference counted in jitted code (_UncountedStructRefModel;
  boxing: define_handle_boxing).
  """
  from numba.core import cgutils
  from numba.core import datamodel
  from numba.core import imputils
  from numba.core.runtime.nrtdynmod import _meminfo_struct_type
  from numba.core.typing import templates

  datamodel.default_manager.register(struct_type, _UncountedStructRefModel)
  init = struct_type.__init__

  def __init__(self, fields):
    init(self, fields)
    _HANDLE_TYPES.setdefault(type(self).__name__, self)

  struct_type.__init__ = __init__
  struct_type.__reduce__ = lambda self: (handle_type, (type(self).__name__, _layout(self)))

  @templates.infer_getattr
  class _Attribute(templates.AttributeTemplate):
    key = struct_type

    def generic_resolve(self, typ, attr):
      return typ.field_dict.get(attr)

  @imputils.lower_getattr_generic(struct_type)
  def _getattr(context, builder, typ, value, attr):
    invariant = builder.module.add_metadata([])
    meminfo = cgutils.create_struct_proxy(typ)(context, builder, value=value).meminfo
    # the payload pointer (NRT_MemInfo_data_fast reads the same slot)
    slot = cgutils.gep(builder, builder.bitcast(meminfo, _meminfo_struct_type.as_pointer()), 0, 3)
    data = builder.load(slot)
    data.set_metadata("invariant.load", invariant)
    payload_type = typ.get_data_type()
    llty = context.data_model_manager[payload_type].get_value_type()
    payload = cgutils.create_struct_proxy(payload_type)(
      context, builder, ref=builder.bitcast(data, llty.as_pointer())
    )
    index = payload._datamodel.get_field_position(attr)
    field = builder.load(payload._get_ptr_by_index(index))
    field.set_metadata("invariant.load", invariant)
    result = payload._cast_member_to_value(index, field)
    field_type = typ.field_dict[attr]
    if isinstance(field_type, numba.types.Array):
      # every array member is stored borrowed (engine/_stage.py HandleBuilder writes a null
      # meminfo and parent): saying so as constants lets LLVM drop the refcount tests on the
      # array and on every view and helper argument made from it
      array = context.make_array(field_type)(context, builder, value=result)
      array.meminfo = cgutils.get_null_value(array.meminfo.type)
      array.parent = cgutils.get_null_value(array.parent.type)
      result = array._getvalue()
    return imputils.impl_ret_borrowed(context, builder, field_type, result)

  return struct_type
