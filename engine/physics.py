"""engine.Physics: the dm_control-style simulation object.

`Physics` mirrors `dm_control.mujoco.Physics`, so code written against
dm_control runs with only its import changed:

  physics = engine.Physics.from_xml_string(xml)
  with physics.reset_context():
    physics.named.data.qpos['hinge'] = 0.3
  physics.set_control(u)
  physics.step(nstep=5)
  height = physics.named.data.geom_xpos['head', 'z']

`physics.model` / `physics.data` wrap the engine's MjModel / MjData (`.ptr`
gives the raw object for `engine.mj_*` calls); their arrays are writable in
place, and assigning a whole field raises with a hint to assign in place.

Stepping follows dm_control's legacy order: each step finishes the previous
one with mj_step2 (mj_step for RK4) and then runs mj_step1, so positions,
velocities and everything derived from them (kinematics, sensors up to the
velocity stage) are current when the step returns. The whole `nstep` loop runs
in one numba call.

State layout of get_state()/set_state(): [qpos (nq), qvel (nv), act (na)], as dm_control's;
with `sig`, the mj_getState layout of that signature (mjSTATE_PHYSICS adds the delay history).
"""

import contextlib
import copy as _copy
import importlib
import importlib.util
import sys
import types
import warnings

import numpy as np

from engine import _stage
from engine import _structs
from engine import binary as _binary
from engine import driver as _driver
from engine import errors
from engine import index
from engine import io as _io
from engine import state as _state
from engine import support as _support
from engine import types as _types
from engine.enums import mjDSBL_ACTUATION
from engine.enums import mjDSBL_AUTORESET
from engine.enums import mjMAXVAL
from engine.enums import mjSTAGE_NONE
from engine.enums import mjtDisableBit
from engine.enums import mjtObj
from engine.enums import mjtWarning
from engine.enums import mjWARN_BADQACC
from engine.enums import mjWARN_BADQPOS
from engine.enums import mjWARN_BADQVEL
from engine.errors import PhysicsError as PhysicsError  # (re-exported: its old home)
from engine.errors import RenderingUnavailableError as RenderingUnavailableError

# ---- object types and flags by name ----


def _obj_type(object_type) -> int:
  """mjtObj value of an object type given as 'body', 'mjOBJ_BODY' or an int."""
  if isinstance(object_type, (int, np.integer)):
    return int(mjtObj(int(object_type)))
  if isinstance(object_type, bytes):
    object_type = object_type.decode()
  name = str(object_type)
  key = name if name.startswith("mjOBJ_") else "mjOBJ_" + name.upper()
  if key not in mjtObj.__members__:
    raise errors.Error(f"{object_type!r} is not a valid object type name")
  return int(mjtObj[key])


def _disable_bit(flag) -> int:
  """mjtDisableBit value of a flag given as 'actuation', 'mjDSBL_ACTUATION' or an int."""
  if isinstance(flag, (int, np.integer)):
    return int(mjtDisableBit(int(flag)))
  name = flag.decode() if isinstance(flag, bytes) else str(flag)
  key = name if name.startswith("mjDSBL_") else "mjDSBL_" + name.upper()
  if key not in mjtDisableBit.__members__:
    valid = [
      n[len("mjDSBL_") :].lower() for n in mjtDisableBit.__members__ if n.startswith("mjDSBL_")
    ]
    raise ValueError(f"{flag!r} is not a disable flag; valid flags: {valid}")
  return int(mjtDisableBit[key])


# ---- model and data wrappers ----


class _Wrapper:
  """Forwards attribute access to the wrapped engine object; refuses whole-field assignment."""

  _owner = ""

  def __init__(self, ptr):
    object.__setattr__(self, "_ptr", ptr)

  @property
  def ptr(self):
    """The wrapped engine object, for `engine.mj_*(physics.model.ptr, physics.data.ptr)`."""
    return self._ptr

  def __getattr__(self, name):
    return getattr(object.__getattribute__(self, "_ptr"), name)

  def __setattr__(self, name, value):
    if name.startswith("_") or name in type(self).__dict__:
      object.__setattr__(self, name, value)
      return
    current = getattr(self._ptr, name, None)
    if isinstance(current, (np.ndarray, bytes, _types._StructView)):
      raise AttributeError(
        f"{self._owner}.{name} is a view of engine memory and cannot be replaced; assign in "
        f"place instead: {self._owner}.{name}[:] = value"
      )
    if isinstance(self._ptr, _types.MjModel) and name in self._ptr._sizes:
      raise AttributeError(f"{self._owner}.{name} is a model size and cannot be changed")
    setattr(self._ptr, name, value)

  def __dir__(self):
    return sorted(set(dir(type(self))) | set(dir(self._ptr)))

  def __reduce__(self):
    return (type(self), (self._ptr,))


class ModelWrapper(_Wrapper):
  """`physics.model`: the MjModel with dm_control's helpers (dm_control's wrapper.MjModel)."""

  _owner = "physics.model"

  @classmethod
  def from_xml_string(cls, xml_string, assets=None):
    """Compiles MJCF text (`assets`: {filename: bytes})."""
    return cls(_types.MjModel.from_xml_string(xml_string, assets=assets))

  @classmethod
  def from_xml_path(cls, file_path, assets=None):
    """Compiles an MJCF file."""
    return cls(_types.MjModel.from_xml_path(file_path, assets=assets))

  @property
  def name(self) -> str:
    """The model name (`<mujoco model="...">`)."""
    names = self._ptr.names
    end = names.find(b"\0")
    return names[: end if end >= 0 else None].decode()

  def name2id(self, name, object_type) -> int:
    """Id of the object of `object_type` ('body', 'geom', ...) called `name`; raises if none."""
    if isinstance(name, bytes):
      name = name.decode()
    objid = _support.mj_name2id(self._ptr, _obj_type(object_type), name)
    if objid == -1:
      raise errors.Error(f"no object of type {object_type!r} is named {name!r}")
    return objid

  def id2name(self, object_id, object_type) -> str:
    """Name of object `object_id` of `object_type`; '' if it is unnamed or does not exist."""
    return _support.mj_id2name(self._ptr, _obj_type(object_type), int(object_id)) or ""

  @contextlib.contextmanager
  def disable(self, *flags):
    """Context manager that disables pipeline features ('actuation', 'contact', ...) in a block.

    Note this edits `opt.disableflags` of the model, which Physics copies made with
    `share_model=True` share.
    """
    bits = 0
    for flag in flags:
      bits |= _disable_bit(flag)
    flags_array = self._ptr.opt._arrays["disableflags"]
    old = int(flags_array[0])
    flags_array[0] = old | bits
    try:
      yield
    finally:
      flags_array[0] = old

  def copy(self) -> "ModelWrapper":
    """An independent deep copy."""
    return ModelWrapper(_copy.deepcopy(self._ptr))

  def to_bytes(self) -> bytes:
    """The model as bytes (engine.mj_saveModel's layout; Physics.from_byte_string reads it)."""
    return _binary.model_to_bytes(self._ptr)

  def save_binary(self, filename):
    """Saves the model to `filename` (Physics.from_binary_path reads it)."""
    _binary.mj_saveModel(self._ptr, filename)

  @classmethod
  def from_byte_string(cls, byte_string):
    return cls(_binary.model_from_bytes(byte_string))

  def free(self):
    """No-op: memory is managed by Python (dm_control frees native structs here)."""

  def __repr__(self):
    return f"<ModelWrapper of {self._ptr!r}>"


class DataWrapper(_Wrapper):
  """`physics.data`: the MjData (dm_control's wrapper.MjData)."""

  _owner = "physics.data"

  def __init__(self, ptr, model=None):
    # DataWrapper(model): new data for a model, as dm_control's wrapper.MjData(model)
    if isinstance(ptr, ModelWrapper):
      ptr, model = _types.MjData(ptr.ptr), ptr
    elif isinstance(ptr, _types.MjModel):
      ptr = _types.MjData(ptr)
    super().__init__(ptr)
    object.__setattr__(self, "_model", model if model is not None else ModelWrapper(ptr.model))

  @property
  def model(self) -> ModelWrapper:
    """The wrapped model this data belongs to."""
    return self._model

  def copy(self) -> "DataWrapper":
    """A copy of the data that shares the model (like copy.copy of mujoco.MjData)."""
    return DataWrapper(_copy.copy(self._ptr), self._model)

  def free(self):
    """No-op: memory is managed by Python."""

  def __reduce__(self):
    return (DataWrapper, (self._ptr,))

  def __repr__(self):
    return f"<DataWrapper of {self._ptr!r}>"


def _copy_data(data, model):
  """A copy of MjData `data` bound to `model` (which must have the same sizes)."""
  new = _types.MjData.__new__(_types.MjData)
  new.__setstate__({"model": model, "arrays": data._arrays})
  return new


# ---- Physics ----

_INVALID_STATE = "Physics state is invalid. Warning(s) raised: {}"
_RESETTING_WARNINGS = (mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC)


class Physics:
  """A simulated world: model, data, named views and dm_control's stepping (dm_control's Physics).

  Attributes:
    model: ModelWrapper over the MjModel (sizes, options, every model array).
    data: DataWrapper over the MjData (state, inputs, every computed array).
    named: NamedIndexStructs(model, data) of FieldIndexers, see engine/index.py.
    legacy_step: True (default): dm_control's step2-then-step1 order, see `step`;
      False: plain mj_step.
  """

  legacy_step = True

  def __init__(self, data):
    """Wraps an MjData (or DataWrapper); prefer the from_* constructors."""
    self._warnings_cause_exception = True
    self._reload_from_data(data)

  # ---- construction ----

  @classmethod
  def from_model(cls, model) -> "Physics":
    """A Physics with fresh data for `model` (an MjModel or ModelWrapper)."""
    model = getattr(model, "ptr", model)
    return cls(_types.MjData(model))

  @classmethod
  def from_xml_string(cls, xml_string, assets=None) -> "Physics":
    """Compiles MJCF text; `assets` maps file names to contents, searched before disk."""
    return cls.from_model(_types.MjModel.from_xml_string(xml_string, assets=assets))

  @classmethod
  def from_xml_path(cls, file_path) -> "Physics":
    """Compiles an MJCF file."""
    return cls.from_model(_types.MjModel.from_xml_path(file_path))

  @classmethod
  def from_byte_string(cls, byte_string):
    """A Physics of a model saved by `engine.mj_saveModel` (our own binary layout; MuJoCo's
    MJB files are refused with a clear error)."""
    return cls.from_model(_binary.model_from_bytes(byte_string))

  @classmethod
  def from_binary_path(cls, file_path):
    """A Physics of a model file saved by `engine.mj_saveModel`."""
    return cls.from_model(_binary.mj_loadModel(file_path))

  def reload_from_xml_string(self, xml_string, assets=None):
    """Replaces the model and data in place, as a new `from_xml_string` would build them."""
    self._reload_from_model(_types.MjModel.from_xml_string(xml_string, assets=assets))

  def reload_from_xml_path(self, file_path):
    """Replaces the model and data in place from an MJCF file."""
    self._reload_from_model(_types.MjModel.from_xml_path(file_path))

  def reload_model_values(self, model):
    """Copies the values of `model`, a model of this one's structure (say an edited copy), into
    this Physics' model and resets the data: the state a Physics made anew from `model` starts
    in, with this Physics' model, data and views kept (a fraction of a recompilation's cost).

    Raises:
      ValueError: `model` differs in its sizes.
    """
    mine, source = self._data.model.ptr, getattr(model, "ptr", model)
    if mine._sizes != source._sizes:
      raise ValueError("reload_model_values needs a model of the same sizes")
    rendered = self.__dict__.get("_render_contexts") is not None
    if rendered:
      baked = _renderer().gl_resources.baked_values(mine)
    for name, value in source._arrays.items():
      target = mine._arrays[name]
      if target is not value and isinstance(target, np.ndarray):
        target[...] = value
    mine.opt, mine.stat, mine.vis = source.opt, source.stat, source.vis
    if rendered and _renderer().gl_resources.baked_values(mine) != baked:
      self.free()  # its contexts drew the old planes; the next render makes new ones
    _io.mj_resetData(mine, self._data.ptr)
    self._after_reload()

  def _after_reload(self):
    """after_reset for a new model or data: a diverging initial state warns, as MuJoCo does."""
    try:
      self.after_reset()
    except PhysicsError as e:
      warnings.warn(str(e), _driver.PhysicsWarning, stacklevel=3)

  def _reload_from_model(self, model):
    self._reload_from_data(_types.MjData(getattr(model, "ptr", model)))

  def _reload_from_data(self, data):
    """Adopts `data`, brings derived quantities up to date and builds the named views."""
    if isinstance(data, DataWrapper):
      self._data = data
    else:
      self._data = DataWrapper(data)
    self._noact = None
    self._after_reload()
    self._named = index.named_structs(self._data.model, self._data)

  # ---- accessors ----

  @property
  def model(self) -> ModelWrapper:
    return self._data.model

  @property
  def data(self) -> DataWrapper:
    return self._data

  @property
  def named(self) -> index.NamedIndexStructs:
    """Named views: `physics.named.data.xpos['torso']`, `physics.named.model.geom_size[...]`."""
    return self._named

  def timestep(self) -> float:
    """The simulation timestep in seconds."""
    return self._data.model.ptr.opt.timestep

  def time(self) -> float:
    """The simulation time in seconds."""
    return self._data.ptr.time

  def control(self) -> np.ndarray:
    """A copy of the controls (`data.ctrl`)."""
    return self._data.ptr.ctrl.copy()

  def set_control(self, control):
    """Sets the controls applied by the following steps."""
    np.copyto(self._data.ptr.ctrl, control)

  def activation(self) -> np.ndarray:
    """A copy of the actuator activations (`data.act`)."""
    return self._data.ptr.act.copy()

  def position(self) -> np.ndarray:
    """A copy of the generalized positions (`data.qpos`)."""
    return self._data.ptr.qpos.copy()

  def velocity(self) -> np.ndarray:
    """A copy of the generalized velocities (`data.qvel`)."""
    return self._data.ptr.qvel.copy()

  def state(self) -> np.ndarray:
    """The physics state [qpos, qvel, act], same as get_state()."""
    return self.get_state()

  # ---- state ----

  def _state_items(self):
    """The arrays of dm_control's physics state: qpos, qvel, act (views into the data)."""
    d = self._data.ptr
    return (d.qpos, d.qvel, d.act)

  def get_state(self, sig=None) -> np.ndarray:
    """The physics state as one vector (a copy).

    Args:
      sig: None: [qpos (nq), qvel (nv), act (na)], as dm_control; an mjtState signature: the
        state `mj_getState` returns for it (mjSTATE_PHYSICS adds the delay history).

    Raises:
      FatalError: invalid signature (as MuJoCo's bindings).
    """
    if sig is None:
      return np.concatenate(self._state_items())
    m, d = self._data.model.ptr, self._data.ptr
    out = np.empty(_state.mj_stateSize(m, sig))
    _state.mj_getState(m, d, out, sig)
    return out

  def set_state(self, physics_state, sig=None):
    """Sets the state from a vector laid out as get_state(sig) returns it.

    Derived quantities are not recomputed: call forward() (or set the state inside
    reset_context()) before reading them.

    Raises:
      ValueError: if the vector does not have get_state(sig)'s shape.
      FatalError: invalid signature.
    """
    physics_state = np.asarray(physics_state)
    m, d = self._data.model.ptr, self._data.ptr
    if sig is None:
      items = self._state_items()
      size = sum(item.size for item in items)
      if physics_state.shape != (size,):
        raise ValueError(
          f"Input physics state has shape {physics_state.shape}. Expected ({size},) laid out as "
          f"[qpos ({m.nq}), qvel ({m.nv}), act ({m.na})]."
        )
      start = 0
      for item in items:
        item[...] = physics_state[start : start + item.size]
        start += item.size
      return
    size = _state.mj_stateSize(m, sig)
    if physics_state.shape != (size,):
      raise ValueError(
        f"Input physics state has shape {physics_state.shape}. Expected "
        f"({size},): mj_stateSize for signature {int(sig)}."
      )
    _state.mj_setState(m, d, np.ascontiguousarray(physics_state, dtype=np.float64), sig)

  # ---- simulation ----

  def step(self, nstep: int = 1):
    """Advances the simulation by `nstep` steps in one numba call.

    With `legacy_step` (the default, as in dm_control) each step completes the
    previous one with mj_step2 (mj_step for RK4) and then runs mj_step1, so
    kinematics and position/velocity-dependent quantities match the new state
    when this returns. Set controls first with set_control().

    Raises:
      PhysicsError: if MuJoCo raised a warning (a diverging state is reset by the
        engine, as MuJoCo does), unless inside suppress_physics_errors().
    """
    nstep = int(nstep)
    if nstep < 0:
      raise ValueError(f"nstep must be >= 0, got {nstep}")
    if nstep == 0:
      return
    op = _driver.OP_LEGACY_STEP if self.legacy_step else _driver.OP_STEP
    self._run_checked(self._data.model.ptr._ptr, op, nstep)

  def forward(self):
    """Recomputes every derived quantity (mj_forward) without advancing time."""
    self._run_checked(self._data.model.ptr._ptr, _driver.OP_FORWARD_SKIP, 0, mjSTAGE_NONE)

  def reset(self, keyframe_id=None):
    """Resets the data to qpos0 or to keyframe `keyframe_id`, then runs forward without actuation.

    Raises:
      ValueError: if `keyframe_id` is not a keyframe index.
    """
    m, d = self._data.model.ptr, self._data.ptr
    if keyframe_id is None:
      _io.mj_resetData(m, d)
    else:
      keyframe_id = int(keyframe_id)
      if not 0 <= keyframe_id < m.nkey:
        raise ValueError(
          f"keyframe_id must be in [0, {m.nkey - 1}] (the model has {m.nkey} keyframes), "
          f"got {keyframe_id}"
        )
      _io.mj_resetDataKeyframe(m, d, keyframe_id)
    self.after_reset()

  def after_reset(self):
    """Runs forward with actuation disabled, so derived quantities match the new state.

    Controls are not meaningful yet at a reset, so (as dm_control does) actuator
    forces are left out of this forward pass. The model itself is not modified:
    the pass uses a private copy of the options, so other Physics sharing the model
    are unaffected.
    """
    self._run_checked(self._model_without_actuation(), _driver.OP_FORWARD_SKIP, 0, mjSTAGE_NONE)

  def _model_without_actuation(self):
    """The address of a model handle sharing every array of the model, with its own options,
    actuation off."""
    m = self._data.model.ptr
    if self._noact is None or self._noact[0] is not m:
      opt = _types.MjOption({k: v.copy() for k, v in m.opt._arrays.items()})
      values = dict(m._arrays)
      values.update(m._sizes)
      values["opt"] = opt._struct
      values["stat"] = m.stat._struct
      handle = _types._make_handle(_stage.make_model, _structs.MODEL_MEMBERS, values)
      self._noact = (m, opt, handle, _stage.address_of(handle))
    _, opt, _, address = self._noact
    for name, value in m.opt._arrays.items():
      opt._arrays[name][...] = value
    opt._arrays["disableflags"][0] |= mjDSBL_ACTUATION
    return address

  @contextlib.contextmanager
  def reset_context(self):
    """Context manager: reset on entry (errors ignored), after_reset() (forward) on exit.

    Set the initial state inside the block; on exit kinematics, sensors and every
    derived quantity are valid for that state:

      with physics.reset_context():
        physics.named.data.qpos['slider'] = 0.1
    """
    try:
      self.reset()
    except PhysicsError:
      pass
    yield self
    self.after_reset()

  # ---- warnings ----

  @contextlib.contextmanager
  def check_invalid_state(self):
    """Context manager raising PhysicsError if MuJoCo raised a warning inside the block.

    Counts are compared per mjtWarning kind, even when a diverging state reset the
    data (and with it the counts) inside the block. The counts in `data.warning`
    afterwards are exactly what MuJoCo leaves. Inside suppress_physics_errors() the
    error is reported as a PhysicsWarning instead.
    """
    before = self._begin_check()
    try:
      yield
    finally:
      new = self._end_check(before)
    if new is not None:
      self._raise_warnings(new)

  def _begin_check(self):
    """Saves and clears the warning counts, so any warning in the checked block shows."""
    number = self._data.ptr._arrays["warning_number"]
    before = number.copy()
    number[:] = 0
    return before

  def _end_check(self, before):
    """Restores the counts as MuJoCo leaves them; returns the new warning kinds or None."""
    number = self._data.ptr._arrays["warning_number"]
    if not number.any():
      number[:] = before
      return None
    new = np.nonzero(number)[0]
    # a reset on divergence cleared the old counts, as in MuJoCo
    reset = any(number[k] for k in _RESETTING_WARNINGS) and not (
      self._data.model.ptr.opt.disableflags & mjDSBL_AUTORESET
    )
    if not reset:
      number += before
    return new

  def _run_checked(self, mptr, op, n=0, a=0, b=0):
    """One driver call on this data (model handle address `mptr`), raising PhysicsError on
    the warnings that fired (the driver leaves the counts as MuJoCo does)."""
    fired = _driver.call(mptr, self._data.ptr._ptr, op, n, a, b)
    if fired:
      self._raise_warnings(_driver.fired_kinds(fired))

  def _raise_warnings(self, kinds):
    lastinfo = self._data.ptr._arrays["warning_lastinfo"]
    kinds = [mjtWarning(int(k)) for k in kinds]
    details = []
    for k in kinds:
      text = _driver.WARNING_TEXT.get(k)
      details.append(f"{k.name} ({text.format(int(lastinfo[k]))})" if text else k.name)
    message = _INVALID_STATE.format(", ".join(details))
    if self._warnings_cause_exception:
      raise PhysicsError(message, kinds)
    warnings.warn(message, _driver.PhysicsWarning, stacklevel=3)

  @contextlib.contextmanager
  def suppress_physics_errors(self):
    """Context manager: physics warnings in the block are reported as warnings, not raised."""
    previous = self._warnings_cause_exception
    self._warnings_cause_exception = False
    try:
      yield
    finally:
      self._warnings_cause_exception = previous

  def check_divergence(self):
    """No-op, as in dm_control's base Physics (divergence is checked on every step)."""

  # ---- copies ----

  def copy(self, share_model: bool = False) -> "Physics":
    """An independent copy; with `share_model` the copy uses this Physics' model object."""
    m = self._data.model.ptr
    model = m if share_model else _copy.deepcopy(m)
    data = _copy_data(self._data.ptr, model)
    new = type(self).__new__(type(self))
    new._warnings_cause_exception = True
    wrapper = self._data.model if share_model else None
    new._reload_from_data(DataWrapper(data, wrapper))
    return new

  def __getstate__(self):
    return self._data.ptr  # the data holds the model and the whole state

  def __setstate__(self, data):
    self._warnings_cause_exception = True
    self._reload_from_data(data)

  def free(self):
    """Releases the rendering contexts, if any (memory is otherwise managed by Python)."""
    if self.__dict__.get("_render_contexts") is not None:
      _renderer().free_contexts(self)

  def enable_profiling(self):
    """No-op: the engine has no timers (MuJoCo's mjData.timer is not implemented)."""

  # ---- rendering ----

  def render(
    self,
    height=240,
    width=320,
    camera_id=-1,
    overlays=(),
    depth=False,
    segmentation=False,
    scene_option=None,
    render_flag_overrides=None,
    scene_callback=None,
  ):
    """A camera image: uint8 (height, width, 3) RGB, float depth, or (height, width, 2) ids.

    Args:
      height, width: image size in pixels.
      camera_id: camera index or name; -1 is the free camera.
      overlays: text overlays (RGB only).
      depth: return depth in meters instead of RGB.
      segmentation: return (object id, object type) per pixel instead of RGB.
      scene_option: visualization options.
      render_flag_overrides: {flag name: bool} rendering flag overrides.
      scene_callback: called with (physics, scene) before rendering.

    Raises:
      RenderingUnavailableError: when no renderer can run here (the message says why).
    """
    renderer = _renderer()
    return renderer.render_physics(
      self,
      height=height,
      width=width,
      camera_id=camera_id,
      overlays=overlays,
      depth=depth,
      segmentation=segmentation,
      scene_option=scene_option,
      render_flag_overrides=render_flag_overrides,
      scene_callback=scene_callback,
    )

  @property
  def contexts(self):
    """Rendering contexts (dm_control's Contexts(gl, mujoco)), from the renderer."""
    return _renderer().contexts(self)


def _renderer():
  """The engine.render module, or RenderingUnavailableError saying why it cannot be used."""
  if importlib.util.find_spec("engine.render") is None:
    raise RenderingUnavailableError(
      "rendering not available: the engine's renderer (engine.render) is not installed"
    )
  try:
    render = importlib.import_module("engine.render")
  except ImportError as e:
    raise RenderingUnavailableError(f"rendering not available: {e}") from e
  if not hasattr(render, "render_physics"):
    raise RenderingUnavailableError(
      "rendering not available: engine.render does not provide render_physics yet"
    )
  return render


def action_spec(physics):
  """dm_env BoundedArray of the physics' controls (dm_control.mujoco.action_spec): the
  actuators' ctrlrange where ctrllimited, +-mjMAXVAL elsewhere."""
  from dm_env import specs

  model = physics.model
  limited = np.asarray(model.actuator_ctrllimited, bool).ravel()
  minimum = np.full(model.nu, -mjMAXVAL, float)
  maximum = np.full(model.nu, mjMAXVAL, float)
  ctrlrange = np.asarray(model.actuator_ctrlrange)
  minimum[limited], maximum[limited] = ctrlrange[limited].T
  return specs.BoundedArray(shape=(model.nu,), dtype=float, minimum=minimum, maximum=maximum)


# ---- dm_control.mujoco.wrapper ----

# engine.wrapper, engine.wrapper.core and engine.wrapper.mjbindings: the names code ported from
# dm_control reaches through `mujoco.wrapper` (with `import engine as mujoco`) or imports from
# dm_control.mujoco.wrapper.core / .mjbindings. Modules made here (the engine's cache key covers
# its files, so no file is added for them), registered so that `from engine.wrapper.mjbindings
# import enums` imports; the rendering names load the renderer on first use.
_WRAPPER_NAMES = {
  "Error": lambda: errors.Error,
  "MjModel": lambda: ModelWrapper,  # .from_xml_string/.from_xml_path/.ptr, as dm_control's
  "MjData": lambda: DataWrapper,  # MjData(model)
  "MjvOption": lambda: importlib.import_module("engine.render.camera").MjvOption,
  "MjvCamera": lambda: importlib.import_module("engine.render.visualize").MjvCamera,
  "MjvPerturb": lambda: importlib.import_module("engine.render.visualize").MjvPerturb,
}
# (not MjvScene and MjrContext: dm_control's take other arguments than ours, MuJoCo's)
_MJBINDINGS_NAMES = {
  "enums": lambda: importlib.import_module("engine.enums"),
  "mjlib": lambda: sys.modules["engine"],  # dm_control's mjlib is the `mujoco` module
}


def _lazy_module(name, doc, names, **attributes):
  module = types.ModuleType(name, doc)
  module.__dict__.update(attributes)

  def __getattr__(attr):
    if attr in names:
      value = names[attr]()
      setattr(module, attr, value)
      return value
    raise AttributeError(f"module {name!r} has no attribute {attr!r}")

  module.__getattr__ = __getattr__
  module.__dir__ = lambda: sorted(set(module.__dict__) | set(names))
  sys.modules[name] = module
  return module


_core = _lazy_module(
  "engine.wrapper.core", "dm_control.mujoco.wrapper.core's names", _WRAPPER_NAMES
)
_mjbindings = _lazy_module(
  "engine.wrapper.mjbindings", "dm_control's mjbindings: enums, mjlib", _MJBINDINGS_NAMES
)
wrapper = _lazy_module(
  "engine.wrapper",
  "dm_control.mujoco.wrapper's names (docs/porting.md)",
  _WRAPPER_NAMES,
  core=_core,
  mjbindings=_mjbindings,
  __path__=[],
)
