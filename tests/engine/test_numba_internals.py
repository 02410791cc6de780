"""Canaries for the numba (and llvmlite) internals the engine relies on.

engine/_jit.py and engine/_stage.py subclass and call parts of numba that are not its public
API: its cache classes and their private methods, the code library, the calling convention,
the runtime's start, the structref data model. A numba release may rename any of them; these
tests name the one that moved, where the engine would fail somewhere deep in a compile or, for
the few uses with a fallback (the refcount inlining, the runtime from the cache, the quiet LLVM
lock), silently lose the speed they bring. They import numba only, never the engine.
"""

import ctypes
import importlib
import inspect

import numba
import numba.core.caching
import numba.core.runtime
import numpy as np
import pytest

# (dotted name, what uses it): modules, classes, functions and class attributes
NAMES = [
  ("numba.core.runtime.nrtdynmod._define_nrt_incref", "_jit._inline_refcounts"),
  ("numba.core.runtime.nrtdynmod._define_nrt_decref", "_jit._inline_refcounts"),
  ("numba.core.runtime.nrtdynmod.create_nrt_module", "_jit.start_runtime"),
  ("numba.core.runtime.nrtdynmod._meminfo_struct_type", "_jit.register_handle"),
  ("numba.core.runtime.nrt._nrt.c_helpers", "_jit.start_runtime"),
  ("numba.core.runtime.rtsys", "_jit.start_runtime, _stage.HandleBuilder"),
  ("numba.core.runtime.rtsys.initialize", "_jit.start_runtime"),
  ("numba.core.runtime.rtsys.meminfo_new", "_stage.HandleBuilder"),
  ("numba.core.compiler_lock.global_compiler_lock", "_jit.start_runtime"),
  ("numba.core.registry.CPUDispatcher.get_call_template", "_jit._Dispatcher"),
  ("numba.core.registry.cpu_target", "_stage.HandleBuilder"),
  ("numba.core.dispatcher.Dispatcher.disable_compile", "_stage.Stage.compile"),
  ("numba.core.codegen.JITCodeLibrary", "_jit._LinkOnlyLibrary"),
  ("numba.core.codegen.JITCodeLibrary._optimize_final_module", "_jit._LinkOnlyLibrary"),
  ("numba.core.codegen.JITCodeLibrary._finalize_final_module", "_jit._LinkOnlyLibrary"),
  ("numba.core.codegen.JITCodeLibrary._ensure_finalized", "_jit._LinkOnlyLibrary"),
  ("numba.core.codegen.JITCodeLibrary.get_pointer_to_function", "_jit._LinkOnlyLibrary"),
  ("numba.core.codegen.JITCodeLibrary.codegen", "_jit._LinkOnlyLibrary"),
  ("numba.core.codegen.JITCodeLibrary.serialize_using_object_code", "_jit.start_runtime"),
  ("numba.core.codegen.JITCodeLibrary.enable_object_caching", "_jit.start_runtime"),
  ("numba.core.codegen.JITCPUCodegen.unserialize_library", "_jit.start_runtime"),
  ("numba.core.codegen.JITCPUCodegen.set_env", "_jit._NoEnvironment"),
  ("numba.core.compiler_machinery.register_pass", "_jit._LinkOnlyLowering"),
  ("numba.core.typed_passes.NativeLowering", "_jit._LinkOnlyLowering"),
  ("numba.core.typed_passes.NativeLowering.run_pass", "_jit._LinkOnlyLowering"),
  ("numba.core.compiler.CompilerBase", "_jit._LinkOnlyCompiler"),
  ("numba.core.compiler.CompilerBase.define_pipelines", "_jit._LinkOnlyCompiler"),
  ("numba.core.compiler.DefaultPassBuilder.define_nopython_pipeline", "_jit._LinkOnlyCompiler"),
  ("numba.core.compiler_machinery.PassManager.finalize", "_jit._LinkOnlyCompiler"),
  ("numba.extending.typeof_impl.register", "_jit._typeof_lazy_helper"),
  ("numba.extending.intrinsic", "_jit.local_array, _stage"),
  ("numba.core.caching._SourceFileBackedLocatorMixin", "_jit._ProjectLocator"),
  ("numba.core.caching._CacheLocator", "_jit._ProjectLocator"),
  ("numba.core.caching.CompileResultCacheImpl._locator_classes", "_jit._ProjectCacheImpl"),
  ("numba.core.caching.CompileResultCacheImpl.reduce", "_jit._ProjectCacheImpl"),
  ("numba.core.caching.IndexDataCacheFile._save_data", "_jit._CheckedCacheFile"),
  ("numba.core.caching.IndexDataCacheFile._dump", "_jit._CheckedCacheFile"),
  ("numba.core.caching.IndexDataCacheFile._open_for_write", "_jit._CheckedCacheFile"),
  ("numba.core.caching.IndexDataCacheFile._data_path", "_jit._CheckedCacheFile"),
  ("numba.core.caching.IndexDataCacheFile._load_index", "_jit._CheckedCacheFile, _stage"),
  ("numba.core.caching.IndexDataCacheFile._load_data", "_jit._CheckedCacheFile"),
  ("numba.core.caching.IndexDataCacheFile.flush", "_jit._ProjectCache.load_overload"),
  ("numba.core.caching.FunctionCache._impl_class", "_jit._ProjectCache"),
  ("numba.core.caching.Cache._guard_against_spurious_io_errors", "_jit._ProjectCache"),
  ("numba.core.caching.Cache._load_overload", "_jit._ProjectCache.load_overload"),
  ("numba.core.caching.Cache._index_key", "_stage.Stage.is_cached"),
  ("numba.core.caching.Cache.save_overload", "_jit._ProjectCache.save_overload"),
  ("numba.core.datamodel.default_manager.register", "_jit.register_handle"),
  ("numba.core.datamodel.models.StructRefModel", "_jit.register_handle"),
  ("numba.core.datamodel.models.StructRefModel.traverse", "_jit._UncountedStructRefModel"),
  ("numba.core.pythonapi.box", "_jit.define_handle_boxing"),
  ("numba.core.pythonapi.unbox", "_jit.define_handle_boxing"),
  ("numba.core.pythonapi.NativeValue", "_jit.define_handle_boxing"),
  ("numba.core.runtime.nrtdynmod.incref_decref_ty", "_jit.define_handle_boxing"),
  ("numba.core.cgutils.get_or_insert_function", "_jit.define_handle_boxing"),
  ("numba.core.cgutils.get_null_value", "_jit.register_handle"),
  ("numba.np.arrayobj.fix_integer_index", "_jit._c_indexing"),
  ("numba.core.cpu.CPUContext.post_lowering", "_jit._marks_always_inline"),
  ("numba.core.typing.templates.infer_getattr", "_jit.register_handle"),
  ("numba.core.typing.templates.AttributeTemplate", "_jit.register_handle"),
  ("numba.core.typing.templates.make_concrete_template", "_stage.Stage"),
  ("numba.core.imputils.lower_getattr_generic", "_jit.register_handle"),
  ("numba.core.imputils.lower_builtin", "_stage.Stage"),
  ("numba.core.imputils.impl_ret_borrowed", "_jit.register_handle"),
  ("numba.core.cgutils.create_struct_proxy", "_jit.register_handle, _stage"),
  ("numba.core.cgutils.gep", "_jit.register_handle"),
  ("numba.core.cgutils._StructProxy._getvalue", "_stage._handle_at"),
  ("numba.core.cgutils._StructProxy._get_ptr_by_index", "_jit.register_handle"),
  ("numba.core.cgutils._StructProxy._cast_member_to_value", "_jit.register_handle"),
  ("numba.core.callconv.CPUCallConv._get_arg_packer", "_stage.call_native"),
  ("numba.core.callconv.CPUCallConv._get_return_status", "_stage.call_native"),
  ("numba.core.callconv.CPUCallConv.return_status_propagate", "_stage.call_native"),
  ("numba.core.callconv.CPUCallConv.get_function_type", "_stage.call_native"),
  ("numba.core.callconv.CPUCallConv.raise_error", "fastcall.calling_or_raising"),
  ("numba.core.pythonapi.PythonAPI._get_function", "fastcall"),
  ("numba.core.pythonapi.PythonAPI.number_as_ssize_t", "fastcall"),
  ("numba.core.pythonapi.PythonAPI.object_getattr", "fastcall.attribute_int"),
  ("numba.core.pythonapi.PythonAPI.call_function_objargs", "fastcall.report_call"),
  ("numba.core.pythonapi.PythonAPI.long_from_longlong", "fastcall.report_call"),
  ("numba.core.pythonapi.PythonAPI.make_none", "fastcall.none"),
  ("numba.core.pythonapi.PythonAPI.err_occurred", "fastcall"),
  ("numba.core.pythonapi.PythonAPI.err_clear", "fastcall"),
  ("numba.experimental.structref.StructRefProxy._numba_box_", "_stage.HandleBuilder"),
  ("numba.experimental.structref.StructRefProxy._type", "_stage.HandleBuilder"),
  ("numba.np.numpy_support.as_dtype", "_stage.HandleBuilder"),
  ("llvmlite.binding.add_symbol", "_jit.start_runtime, _stage"),
  ("llvmlite.binding.llvm_version_info", "_jit.start_runtime"),
  ("llvmlite.binding.ffi.lib", "_jit._quiet_llvm_lock"),
]

# numba.config settings the engine reads or sets
CONFIG = ["CPU_NAME", "CPU_FEATURES", "CACHE_DIR", "BOUNDSCHECK", "DISABLE_JIT", "NRT_STATS"]


def _get(dotted):
  """The object at a dotted name: the longest importable module, then attributes."""
  parts = dotted.split(".")
  for i in range(len(parts), 0, -1):
    try:
      obj = importlib.import_module(".".join(parts[:i]))
    except ImportError:
      continue
    for attr in parts[i:]:
      obj = getattr(obj, attr)
    return obj
  raise ImportError(dotted)


@pytest.mark.parametrize("name,user", NAMES, ids=[n for n, _ in NAMES])
def test_numba_name_exists(name, user):
  try:
    _get(name)
  except (ImportError, AttributeError) as e:
    pytest.fail(
      f"numba {numba.__version__} has no {name} ({type(e).__name__}: {e}); "
      f"engine/{user.split('.')[0]}.py ({user}) relies on it"
    )


@pytest.mark.parametrize("name", CONFIG)
def test_numba_config_setting_exists(name):
  assert hasattr(numba.config, name), f"numba.config.{name} is gone; engine/_jit.py reads it"


def test_refcount_definers_take_module_and_atomic():
  """_inline_refcounts wraps them as define(module, atomic) and then finds NRT_incref /
  NRT_decref in the module by those names."""
  from numba.core.runtime import nrtdynmod

  for name in ("_define_nrt_incref", "_define_nrt_decref"):
    params = list(inspect.signature(getattr(nrtdynmod, name)).parameters)
    assert params == ["module", "atomic"], f"nrtdynmod.{name} now takes {params}"
  source = inspect.getsource(nrtdynmod)
  for symbol in ("NRT_incref", "NRT_decref"):
    assert f'"{symbol}"' in source, f"nrtdynmod no longer names its function {symbol}"


def test_runtime_state_attributes():
  """start_runtime sets rtsys._library and rtsys._init itself, as rtsys.initialize does."""
  rtsys = numba.core.runtime.rtsys
  assert isinstance(rtsys._init, bool), "numba's rtsys._init is gone or not a flag"
  source = inspect.getsource(type(rtsys).initialize)
  assert "self._library" in source and "self._init = True" in source, (
    "numba's _Runtime.initialize no longer sets self._library / self._init"
  )


def test_llvm_lock_callbacks():
  """_quiet_llvm_lock swaps llvmlite's lock callbacks (llvm.ffi.lib._lock._cblist under
  _lock._lock); without them it loads as numba does, losing 15-20 ms of a first load."""
  import llvmlite.binding as llvm

  lock = getattr(llvm.ffi.lib, "_lock", None)
  assert lock is not None, "llvmlite.binding.ffi.lib._lock is gone"
  assert isinstance(getattr(lock, "_cblist", None), list), "llvmlite's _lock._cblist is gone"
  assert hasattr(lock, "_lock"), "llvmlite's _lock._lock is gone"


def _square(x):
  return x * x


def test_compile_result_and_cache_layout(tmp_path, monkeypatch):
  """The payload CompileResultCacheImpl.reduce returns (engine/_jit.py rewrites its items 0, 6
  and 8), the attributes of a compile result and of a function cache the engine reads."""
  monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
  dispatcher = numba.njit(cache=True)(_square)
  assert dispatcher(3.0) == 9.0
  cache = dispatcher._cache
  assert isinstance(cache, numba.core.caching.FunctionCache), "Dispatcher._cache moved"
  for attr in ("_cache_file", "_cache_path", "_impl"):
    assert hasattr(cache, attr), f"numba's FunctionCache has no {attr}"
  cache_file = cache._cache_file
  assert isinstance(cache_file, numba.core.caching.IndexDataCacheFile)
  for attr in ("_index_path", "_source_stamp"):
    assert hasattr(cache_file, attr), f"numba's IndexDataCacheFile has no {attr}"
  (sig,) = dispatcher.signatures
  key = cache._index_key(sig, dispatcher.targetctx.codegen())
  assert key in cache_file._load_index(), "Cache._index_key no longer keys the index"

  cres = dispatcher.overloads[sig]
  assert cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name), (
    "compile results lost library.get_pointer_to_function or fndesc.llvm_func_name"
  )
  # engine/fastcall.py calls a stage's C wrapper (float64(float64) here) from CPython
  address = cres.library.get_pointer_to_function(cres.fndesc.llvm_cfunc_wrapper_name)
  assert address, (
    "jit functions no longer get a C-callable wrapper (fndesc.llvm_cfunc_wrapper_name)"
  )
  assert ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)(address)(3.0) == 9.0
  assert hasattr(cres.library, "_final_module"), "numba's code library has no _final_module"
  assert hasattr(cres.library, "_codegen"), "numba's code library has no _codegen"
  assert hasattr(cres.library, "_finalized"), "numba's code library has no _finalized"
  payload = cache._impl.reduce(cres)
  assert len(payload) == 9, f"CompileResult._reduce now has {len(payload)} items, not 9"
  name, kind, data = payload[0]
  assert kind == "object" and isinstance(data[0], bytes) and isinstance(data[1], bytes), (
    "payload[0] is no longer (name, 'object', (object code, bitcode))"
  )
  assert isinstance(payload[6], str), "payload[6] is no longer the type annotation text"
  assert all(hasattr(env, "env_name") for env in payload[8]), (
    "payload[8] is no longer the referenced environments"
  )


def test_struct_proxy_keeps_its_data_model():
  """register_handle reads a struct proxy's data model (payload._datamodel) for field indexes."""
  from numba.core import cgutils

  assert "self._datamodel" in inspect.getsource(cgutils._StructProxy.__init__), (
    "numba's cgutils._StructProxy no longer keeps self._datamodel"
  )


def test_array_data_model_fields():
  """_stage.HandleBuilder writes arrays as numba's array struct, member by member."""
  from numba.core.registry import cpu_target

  model = cpu_target.target_context.data_model_manager[numba.types.float64[::1]]
  assert model._fields == ("meminfo", "parent", "nitems", "itemsize", "data", "shape", "strides"), (
    f"numba's array data model is now {model._fields}"
  )


def test_structref_type_fields():
  """_stage.HandleBuilder reads a StructRef type's _fields as (name, type) pairs."""
  from numba.experimental import structref

  @structref.register
  class _Probe(numba.types.StructRef):
    pass

  probe = _Probe([("a", numba.types.int64), ("b", numba.types.float64[::1])])
  fields = [tuple(field) for field in probe._fields]
  assert fields == [("a", numba.types.int64), ("b", numba.types.float64[::1])], (
    f"numba's StructRef._fields is now {probe._fields!r}"
  )
  from numba.np.numpy_support import as_dtype

  assert as_dtype(numba.types.float64) == np.float64
