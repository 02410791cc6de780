"""Engine plugins: actuators, sensors, passive forces and signed distance fields written in
Python and compiled into the step (MuJoCo's mjpPlugin, reference "Extensions" chapter).

    import engine.plugin as plugin

    @numba.njit
    def compute(m, d, instance, capability):      # jitted: reads m, d; writes forces/sensors
      ...
    plugin.register_plugin("my.sensor", capabilities=plugin.mjPLUGIN_SENSOR,
                           attributes=("alpha",), nstate=3, nsensordata=3, compute=compute)

A model then uses it as MuJoCo's do: `<extension><plugin plugin="my.sensor"/></extension>` and
`<sensor><plugin plugin="my.sensor"><config key="alpha" value="0.1"/></plugin></sensor>`.

Callbacks (numba-compatible functions; the model and data are the engine's struct handles,
whose fields are MuJoCo's, e.g. m.actuator_plugin, d.plugin_state, d.sensordata):
  compute(m, d, instance, capability)  actuator forces, sensor values or passive forces
  advance(m, d, instance)              after each step advanced the state
  reset(m, d, instance)                writes the instance's initial d.plugin_state
  act_dot(m, d, instance)              activation derivatives of actuator plugins
  sdf_distance(m, d, instance, point) -> float, sdf_gradient(m, d, instance, point, gradient)
Python hooks, run when a model compiles or loads:
  nstate(config) -> int, nsensordata(config, sensor_id) -> int, actdim(config) -> int or None
  (the activations each actuator of the instance needs), init(m, instance) -> float array of
  parameters the callbacks read at m.plugin_param[m.plugin_paramadr[instance]:...];
  for SDF plugins whose field meshes a `<mesh><plugin instance=.../></mesh>`:
  sdf_aabb(config) -> (6,) bounding box (center, half-sizes) and
  sdf_staticdistance(config, points (n, 3)) -> (n,) distances (marching cubes samples them).
`config` is the instance's {attribute: value string} (missing attributes read '').

Each callback compiles once, on its own (cached on disk like the engine), when the first model
using the plugin loads; the engine itself never recompiles for a plugin, and a model without
plugins runs no plugin code at all (engine/plugin_call.py). The entry points are this
process's: a model saved, pickled or sent to another process binds its plugins again by name
when it loads there, so the plugins must be registered there too.
"""

import dataclasses
import importlib
import re

import numpy as np
from numba.core import types

from engine import _jit
from engine import plugin_call
from engine import plugins
from engine._stage import D
from engine._stage import M
from engine.collision import sdf_shapes
from engine.enums import mjSTAGE_ACC
from engine.errors import CompileError
from engine.plugin_call import mjPLUGIN_ACTUATOR as mjPLUGIN_ACTUATOR
from engine.plugin_call import mjPLUGIN_PASSIVE as mjPLUGIN_PASSIVE
from engine.plugin_call import mjPLUGIN_SDF as mjPLUGIN_SDF
from engine.plugin_call import mjPLUGIN_SENSOR as mjPLUGIN_SENSOR

_i8 = types.int64
_vec = types.float64[::1]
# callback name -> (slot in m.plugin_fn, numba signature)
_CALLBACKS = {
  "compute": (plugin_call.FN_COMPUTE, types.none(M, D, _i8, _i8)),
  "advance": (plugin_call.FN_ADVANCE, types.none(M, D, _i8)),
  "reset": (plugin_call.FN_RESET, types.none(M, D, _i8)),
  "act_dot": (plugin_call.FN_ACT_DOT, types.none(M, D, _i8)),
  "sdf_distance": (plugin_call.FN_SDF_DISTANCE, types.float64(M, D, _i8, _vec)),
  "sdf_gradient": (plugin_call.FN_SDF_GRADIENT, types.none(M, D, _i8, _vec, _vec)),
}
_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")


@dataclasses.dataclass(eq=False)
class Plugin:
  """A registered plugin (mjpPlugin): its name, capabilities, config attributes, hooks and
  callbacks; `slot` is its index in this process's registry."""

  name: str
  capabilities: int
  attributes: tuple = ()
  needstage: int = mjSTAGE_ACC
  nstate: object = 0
  nsensordata: object = 0
  actdim: object = None
  init: object = None
  callbacks: dict = dataclasses.field(default_factory=dict)
  sdf_staticdistance: object = None
  sdf_aabb: object = None
  slot: int = -1
  _addresses: dict = dataclasses.field(default_factory=dict, repr=False)

  def state_size(self, config) -> int:
    return int(self.nstate(config) if callable(self.nstate) else self.nstate)

  def sensor_size(self, config, sensor_id) -> int:
    n = self.nsensordata
    return int(n(config, sensor_id) if callable(n) else n)

  def address(self, name) -> int:
    """Native entry point of callback `name` (compiled or loaded from the cache on first use),
    0 when the plugin has none."""
    func = self.callbacks.get(name)
    if func is None:
      return 0
    if name not in self._addresses:
      self._addresses[name] = _compile(func, _CALLBACKS[name][1], f"{self.name}.{name}")
    return self._addresses[name]


_REGISTRY: dict = {}
_SLOTS: list = []


def register_plugin(
  name,
  capabilities,
  attributes=(),
  *,
  nstate=0,
  nsensordata=0,
  needstage=mjSTAGE_ACC,
  actdim=None,
  init=None,
  compute=None,
  advance=None,
  reset=None,
  act_dot=None,
  sdf_distance=None,
  sdf_gradient=None,
  sdf_staticdistance=None,
  sdf_aabb=None,
) -> Plugin:
  """Register a plugin under `name` (see the module doc); returns it.

  Registering the same name again with the same callbacks returns the registered plugin
  (MuJoCo's mjp_registerPlugin); with other callbacks it raises ValueError.
  """
  if not isinstance(name, str) or not _NAME.match(name):
    raise ValueError(f"invalid plugin name {name!r}: letters, digits, '_', '.' and '-' only")
  capabilities = int(capabilities)
  if not capabilities or capabilities & ~(
    mjPLUGIN_ACTUATOR | mjPLUGIN_SENSOR | mjPLUGIN_PASSIVE | mjPLUGIN_SDF
  ):
    raise ValueError(
      f"plugin {name!r}: capabilities must combine mjPLUGIN_ACTUATOR, "
      f"mjPLUGIN_SENSOR, mjPLUGIN_PASSIVE and mjPLUGIN_SDF, got {capabilities}"
    )
  attributes = tuple(attributes)
  for a in attributes:
    if not isinstance(a, str) or not _NAME.match(a):
      raise ValueError(f"plugin {name!r}: invalid attribute name {a!r}")
  if len(set(attributes)) != len(attributes):
    raise ValueError(f"plugin {name!r}: repeated attribute names {attributes}")
  callbacks = {
    k: v
    for k, v in dict(
      compute=compute,
      advance=advance,
      reset=reset,
      act_dot=act_dot,
      sdf_distance=sdf_distance,
      sdf_gradient=sdf_gradient,
    ).items()
    if v is not None
  }
  for k, v in callbacks.items():
    if not callable(v):
      raise TypeError(f"plugin {name!r}: {k} is not callable")
  if (
    capabilities & (mjPLUGIN_ACTUATOR | mjPLUGIN_SENSOR | mjPLUGIN_PASSIVE)
    and "compute" not in callbacks
  ):
    raise ValueError(f"plugin {name!r}: actuator, sensor and passive plugins need compute")
  if capabilities & mjPLUGIN_SDF and not (
    "sdf_distance" in callbacks and "sdf_gradient" in callbacks
  ):
    raise ValueError(f"plugin {name!r}: SDF plugins need sdf_distance and sdf_gradient")
  plugin = Plugin(
    name,
    capabilities,
    attributes,
    int(needstage),
    nstate,
    nsensordata,
    actdim,
    init,
    callbacks,
    sdf_staticdistance,
    sdf_aabb,
  )
  old = _REGISTRY.get(name)
  if old is not None:
    if (old.capabilities, old.attributes, old.callbacks) == (capabilities, attributes, callbacks):
      return old
    raise ValueError(f"plugin {name!r} is already registered with other callbacks")
  plugin.slot = len(_SLOTS)
  _SLOTS.append(plugin)
  _REGISTRY[name] = plugin
  return plugin


def unregister_plugin(name):
  """Remove a plugin from the registry (its slot stays taken); models already loaded keep it."""
  plugin = _REGISTRY.pop(name, None)
  if plugin is not None:
    _SLOTS[plugin.slot] = None


def find_plugin(name) -> Plugin | None:
  """The registered plugin called `name`, or None (first-party plugins register on first
  lookup)."""
  if name not in _REGISTRY and name.startswith("mujoco."):
    _register_first_party()
  return _REGISTRY.get(name)


def plugin_count() -> int:
  return len(_SLOTS)


def plugin_at_slot(slot) -> Plugin | None:
  return _SLOTS[slot] if 0 <= slot < len(_SLOTS) else None


def _register_first_party():
  for name in plugins.FIRST_PARTY:
    module = importlib.import_module(name)
    for spec in getattr(module, "SPECS", None) or [module.SPEC]:
      register_plugin(**spec)


def plugin_config(m, instance) -> dict:
  """{attribute: value} of plugin instance `instance` of model m (mj_getPluginConfig for all
  attributes; '' where the model gives none)."""
  return plugins.config_values(m, instance, _instance_plugin(m, instance).attributes)


def _instance_plugin(m, instance) -> Plugin:
  names = m._extras.get("plugin_names", ())
  if not 0 <= instance < len(names):
    raise ValueError(f"plugin instance {instance} out of range [0, {len(names)})")
  return find_plugin(names[instance])


# ---- compiling callbacks ----


def _compile(func, signature, label) -> int:
  """Entry point of `func` compiled for `signature` with numba's calling convention (what
  plugin_call's callers expect), cached on disk when the function lives in a file."""
  py_func = getattr(func, "py_func", func)
  if _jit.DISABLE_JIT:
    key = len(plugin_call.PY_CALLBACKS) + 1
    plugin_call.PY_CALLBACKS[key] = py_func
    return key
  try:
    dispatcher = _jit.stage_dispatcher(py_func)
  except RuntimeError:  # no source file to cache from (exec, python -c): compile each run
    dispatcher = _jit._decorator(cache=False)(py_func)
  try:
    dispatcher.compile(signature.args)
  except Exception as e:
    raise CompileError(
      f"plugin callback {label} does not compile for {signature}: {type(e).__name__}: {e}"
    ) from e
  cres = dispatcher.overloads[signature.args]
  if cres.signature.return_type != signature.return_type:
    raise CompileError(
      f"plugin callback {label} returns {cres.signature.return_type}, "
      f"expected {signature.return_type}"
    )
  _KEEP.append(dispatcher)  # the machine code lives as long as its dispatcher
  return cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)


_KEEP = []


def _own_sdf_shape(plugin) -> int:
  """1 + the shape id of one of our `mujoco.sdf.*` plugins (the collision code evaluates its
  field without the callbacks), 0 for any other plugin (a user's, even under such a name)."""
  from engine.plugins import sdf

  if plugin.callbacks.get("sdf_distance") is not sdf.sdf_distance:
    return 0
  return sdf_shapes.SHAPE_IDS[plugin.name] + 1


# ---- binding a model's instances ----


def bind(m):
  """Fill the per-process plugin fields of MjModel m (called while it is built): registry
  slots, capabilities, callback entry points and the parameters from each plugin's init."""
  names = m._extras.get("plugin_names", ())
  n = int(m._sizes["nplugin"])
  if len(names) != n:
    raise ValueError(f"model has {n} plugin instances but {len(names)} plugin names")
  arrays = m._arrays
  params = []
  for i, name in enumerate(names):
    plugin = find_plugin(name)
    if plugin is None:
      raise CompileError(
        f"the model uses plugin '{name}', which is not registered in this "
        "process (engine.plugin.register_plugin)"
      )
    arrays["plugin"][i] = plugin.slot
    arrays["plugin_capability"][i] = plugin.capabilities
    arrays["plugin_needstage"][i] = plugin.needstage
    for cb, (col, _) in _CALLBACKS.items():
      arrays["plugin_fn"][i, col] = plugin.address(cb)
    arrays["plugin_fn"][i, plugin_call.FN_SDF_SHAPE] = _own_sdf_shape(plugin)
    try:
      values = np.zeros(0) if plugin.init is None else plugin.init(m, i)
    except (ValueError, TypeError, IndexError) as e:
      raise CompileError(f"plugin '{name}' (instance {i}): {e}") from e
    values = np.ascontiguousarray(values, np.float64).ravel()
    arrays["plugin_paramadr"][i] = sum(len(p) for p in params)
    arrays["plugin_paramnum"][i] = len(values)
    params.append(values)
  m._sizes["npluginparam"] = sum(len(p) for p in params)
  arrays["plugin_param"] = np.concatenate(params) if params else np.zeros(0)
