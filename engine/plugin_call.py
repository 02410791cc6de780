"""Where the pipeline calls plugin code: the jitted side of engine plugins (engine/plugin.py).

Each plugin instance's callbacks are jitted stages of one fixed signature, compiled apart from
the engine; `m.plugin_fn[i]` holds their native entry points in this process and these loops
call through them (`_stage.address_caller`), as MuJoCo calls through mjpPlugin's function
pointers. A model without plugins has nplugin = 0 and the loops do nothing; a model with
plugins compiles only its plugins' callbacks, never the engine again.

Callback slots of `m.plugin_fn` (0: the plugin has none):
  FN_COMPUTE  compute(m, d, instance, capability)   actuator forces, sensor values, passive forces
  FN_ADVANCE  advance(m, d, instance)               after the integrator advanced the state
  FN_RESET    reset(m, d, instance)                 writes the instance's d.plugin_state
  FN_ACT_DOT  act_dot(m, d, instance)               actuator plugins' activation derivatives
  FN_SDF_DISTANCE, FN_SDF_GRADIENT                  signed distance fields (collision)
  FN_SDF_SHAPE  not a callback: 1 + the shape id (engine/collision/sdf_shapes.py) of an instance
                of our own `mujoco.sdf.*` plugins, whose field the collision code evaluates
                directly (a call through an address with the model and data handles cost more
                than the field); 0 for every other plugin
"""

from numba.core import types

from engine import _jit
from engine._jit import jit
from engine._stage import D
from engine._stage import M
from engine._stage import address_caller

FN_COMPUTE, FN_ADVANCE, FN_RESET, FN_ACT_DOT, FN_SDF_DISTANCE, FN_SDF_GRADIENT = range(6)
FN_SDF_SHAPE = 6
NFN = 8

# mjtPluginCapabilityBit
mjPLUGIN_ACTUATOR = 1 << 0
mjPLUGIN_SENSOR = 1 << 1
mjPLUGIN_PASSIVE = 1 << 2
mjPLUGIN_SDF = 1 << 3

i8 = types.int64
vec = types.float64[::1]

if _jit.DISABLE_JIT:
  # pure-Python runs: plugin_fn holds keys of this table (filled by engine/plugin.py)
  PY_CALLBACKS = {}

  def _call(address, *args):
    return PY_CALLBACKS[int(address)](*args)

  call_compute = call3 = call_sdf_distance = call_sdf_gradient = _call
else:
  call_compute = address_caller(types.none, M, D, i8, i8)
  call3 = address_caller(types.none, M, D, i8)
  call_sdf_distance = address_caller(types.float64, M, D, i8, vec)
  call_sdf_gradient = address_caller(types.none, M, D, i8, vec, vec)


@jit
def compute(m, d, capability):
  """compute(m, d, i, capability) of every instance whose plugin has the capability (the
  actuator and passive stages)."""
  for i in range(m.nplugin):
    if m.plugin_capability[i] & capability and m.plugin_fn[i, FN_COMPUTE]:
      call_compute(m.plugin_fn[i, FN_COMPUTE], m, d, i, capability)


@jit
def act_dot(m, d):
  """act_dot(m, d, i) of the actuator plugins (before the built-in actuator forces)."""
  for i in range(m.nplugin):
    if m.plugin_capability[i] & mjPLUGIN_ACTUATOR and m.plugin_fn[i, FN_ACT_DOT]:
      call3(m.plugin_fn[i, FN_ACT_DOT], m, d, i)


@jit
def advance(m, d):
  """advance(m, d, i) of every instance that has one (after the state advanced)."""
  for i in range(m.nplugin):
    if m.plugin_fn[i, FN_ADVANCE]:
      call3(m.plugin_fn[i, FN_ADVANCE], m, d, i)


@jit
def reset(m, d):
  """Zero d.plugin_state, then reset(m, d, i) of every instance that has one."""
  for k in range(d.plugin_state.shape[0]):
    d.plugin_state[k] = 0.0
  for i in range(m.nplugin):
    if m.plugin_fn[i, FN_RESET]:
      call3(m.plugin_fn[i, FN_RESET], m, d, i)
