"""A suite task declared once: its parameters, features, observation and reward.

A task's observation and reward run as jitted kernels (suite/kernels.py) in the single
environment and in the batched step of suite/vector.py. This module derives those kernels,
the observation's layout, the kernels' `params` vector and the dm_control-style Physics
methods from one declaration. How to write a task (suite/cheetah.py is the shortest one,
suite/humanoid.py the fullest):

1. Parameters: what the kernels need of the model or of the task, each named once.

     PARAMS = declare.Params(
       head=declare.body("head"),                         # a body's id
       hands=declare.bodies("left_hand", "right_hand"),   # a tuple of ids
       com_velocity=declare.sensor("torso_subtreelinvel"),  # its address in sensordata
       move_speed=declare.number())                       # the task's `move_speed`

   Kinds: body(ies), geom(s), site(s), sensor(s), qpos(es) and dof(s) (joints' addresses) resolve
   their names once per model (a missing name raises, naming it); number, flag and integer
   take a fixed value, or without one the task's attribute of the parameter's name. In
   jitted code the parameters arrive as a named tuple `p`: `p.head` is an int, `p.hands` a
   tuple of ints, `p.move_speed` a float, a flag a bool, read once from the float vector the
   kernels get (compiled to the loads themselves: no lookup by name at run time).
   `PARAMS.renamed(head="skull")` keeps the layout (and the compiled kernels) for a model
   whose names differ (humanoid_CMU).

2. Features: the quantities of the state, as small jitted functions of (m, d, p) with a
   declared shape: `()` returns a float, a fixed `(n,)` may return a tuple of n floats, and
   any shape (or a function of the model giving it) may instead write `out`, flat.

     @declare.feature(())
     def head_height(m, d, p):
       return d.xpos[p.head, 2]

     @declare.feature(lambda m: (m.nq - 7,))
     def joint_angles(m, d, p, out):
       for i in range(m.nq - 7):
         out[i] = d.qpos[7 + i]

   A reward or another feature calls a feature as the function it is: `head_height(m, d, p)`.
   Index `out` from a loop counter starting at 0 (`out[i] = d.qpos[7 + i]`): numba keeps the
   negative-index test of `out[i - 7]`, and the loop does not vectorize (9 -> 77 ns for 56
   values). A helper taking m or d is `engine._jit.inline_jit`, so that it is inlined too.

3. The observation: features in key order (a `(key, feature)` pair where the key is not the
   feature's name). Its layout and each key's offset follow from the shapes, and its kernel
   writes each feature at its offset.

     OBSERVATION = declare.Observation(PARAMS, joint_angles, head_height,
                                       ("com_velocity", center_of_mass_velocity))

4. The reward: a jitted function of (m, d, p) returning the reward, written with
   `rewards.tolerance(x, bounds=..., margin=..., sigmoid="linear", value_at_margin=...)`
   as in dm_control (jitted code resolves the sigmoid's name as it compiles).

     @declare.reward(PARAMS)
     def reward(m, d, p):
       return rewards.tolerance(head_height(m, d, p), bounds=(1.4, np.inf), margin=0.35)

   A task that can end its episode passes `termination=`, a jitted function of (m, d, p)
   returning the discount, NaN while the episode goes on.

5. The classes: `declare.Physics` with `params` and `features` gets a method per feature
   (`physics.head_height()`, running the feature into an array of its shape, a float for
   shape ()); `declare.Task` with `observation` and `reward` (class or instance attributes)
   gets observe_kernel, reward_kernel, terminates, observation_layout and kernel_params.

Each observation, reward and Physics method compiles as one small kernel of its own, cached
(suite/kernels.py), so the batched step stays compiled once for every task. The kernels are
named after their module, their keys or function, and a digest of the functions they compile
(names, lines) and of the parameters' layout, so two declarations never share a cache entry
(a factory making several features or rewards from one `def` names each one). Features and
rewards are inlined into them and compiled without numba's reference counting, so they must
not allocate (np.empty fails to compile; a scratch vector of literal size is
engine._jit.local_array(n)); reading `p` and calling features then cost nothing over
hand-written kernels (benchmarks/kernels.py).
"""

import collections
import hashlib
import sys
import types as pytypes
import weakref

import numpy as np
from numba.core import cgutils
from numba.core import types
from numba.extending import intrinsic
from numba.extending import typeof_impl

from engine import _jit
from engine import errors
from engine._jit import inline_jit
from suite import base
from suite import control
from suite import kernels

# ---- parameters ----

# the MuJoCo object type a model parameter names, and what of it the kernels get
_MODEL_KINDS = {
  "body": ("body", lambda model, i: i),
  "geom": ("geom", lambda model, i: i),
  "site": ("site", lambda model, i: i),
  "sensor": ("sensor", lambda model, i: model.sensor_adr[i]),
  "qpos": ("joint", lambda model, i: model.jnt_qposadr[i]),
  "dof": ("joint", lambda model, i: model.jnt_dofadr[i]),
}
# the value parameters, by the type jitted code reads them as
_VALUE_TYPES = {"number": types.float64, "flag": types.boolean, "integer": types.int64}


class _Param:
  """One declared parameter: `size` floats of the params vector.

  kind: a key of _MODEL_KINDS or _VALUE_TYPES; names: the object names of a model parameter;
  many: read as a tuple (bodies(...)); value: a value parameter's fixed value (None: the
  task's attribute).
  """

  def __init__(self, kind, names=(), many=False, value=None):
    self.kind, self.names, self.many, self.value = kind, tuple(names), many, value
    self.size = len(self.names) if kind in _MODEL_KINDS else 1

  def numba_type(self):
    if self.kind in _VALUE_TYPES:
      return _VALUE_TYPES[self.kind]
    return types.UniTuple(types.int64, self.size) if self.many else types.int64

  def replaced(self, new):
    """This parameter naming `new` objects (a model parameter) or with value `new`."""
    if self.kind not in _MODEL_KINDS:
      return _Param(self.kind, value=new)
    names = (new,) if isinstance(new, str) else tuple(new)
    if len(names) != self.size:
      raise ValueError(f"a {self.kind} parameter of {self.size} names cannot name {names}")
    return _Param(self.kind, names, self.many)


def body(name):
  """A body's id."""
  return _Param("body", [name])


def bodies(*names):
  """The bodies' ids, a tuple in jitted code."""
  return _Param("body", names, many=True)


def geom(name):
  """A geom's id."""
  return _Param("geom", [name])


def geoms(*names):
  return _Param("geom", names, many=True)


def site(name):
  """A site's id."""
  return _Param("site", [name])


def sites(*names):
  return _Param("site", names, many=True)


def sensor(name):
  """A sensor's address in sensordata (its first value)."""
  return _Param("sensor", [name])


def sensors(*names):
  return _Param("sensor", names, many=True)


def qpos(joint):
  """A joint's address in qpos (its first coordinate)."""
  return _Param("qpos", [joint])


def dof(joint):
  """A joint's address in qvel (its first degree of freedom)."""
  return _Param("dof", [joint])


def number(value=None):
  """A float: `value`, or without it the task's attribute of the parameter's name."""
  return _Param("number", value=value)


def flag(value=None):
  """A bool: `value`, or without it the task's attribute of the parameter's name."""
  return _Param("flag", value=value)


def integer(value=None):
  """An int (an index, a count): `value`, or without it the task's attribute."""
  return _Param("integer", value=value)


def qposes(*joints):
  """The joints' addresses in qpos, a tuple in jitted code."""
  return _Param("qpos", joints, many=True)


def dofs(*joints):
  """The joints' addresses in qvel, a tuple in jitted code."""
  return _Param("dof", joints, many=True)


class Params:
  """A task's declared parameters, in order (see the module docstring).

  Attributes:
    tuple_type: the named tuple `p` jitted code gets; the kernels are compiled for it, and
      `renamed` copies share it.
    size: the length of the float vector the kernels get as `params`.
  """

  def __init__(self, **fields):
    self.fields = fields
    self.offsets = {}
    offset = 0
    for name, param in fields.items():
      self.offsets[name] = offset
      offset += param.size
    self.size = offset
    layout = tuple((name, p.kind, p.many, p.size) for name, p in fields.items())
    self.tuple_type = collections.namedtuple("Params", list(fields))
    # what the reader below builds `p` from: each field's offset and numba type
    self.tuple_type.fields_read = tuple(
      (self.offsets[name], p.size, p.numba_type()) for name, p in fields.items()
    )
    self.tuple_type.digest = _digest(repr(layout))
    self._task_fields = self._task_values()

  def renamed(self, **changes):
    """These parameters with other names (model parameters) or values (value parameters),
    the same layout: kernels compiled for them serve the copy."""
    unknown = set(changes) - set(self.fields)
    if unknown:
      raise ValueError(f"no parameters {sorted(unknown)}; declared: {list(self.fields)}")
    copy = Params.__new__(Params)
    copy.__dict__.update(self.__dict__)
    copy.fields = {
      name: param.replaced(changes[name]) if name in changes else param
      for name, param in self.fields.items()
    }
    copy._task_fields = copy._task_values()
    return copy

  def _task_values(self):
    """(offset, name) of the parameters whose values are the task's attributes."""
    return [
      (self.offsets[name], name)
      for name, param in self.fields.items()
      if param.kind in _VALUE_TYPES and param.value is None
    ]

  def resolve(self, model) -> np.ndarray:
    """The params vector for `model`: names looked up, fixed values in, the task's values NaN.

    Raises:
      engine.Error: the model has no object of a declared name (the message names it).
    """
    vector = np.full(self.size, np.nan)
    for name, param in self.fields.items():
      start = self.offsets[name]
      if param.kind in _MODEL_KINDS:
        object_type, address = _MODEL_KINDS[param.kind]
        for i, object_name in enumerate(param.names):
          try:
            object_id = model.name2id(object_name, object_type)
          except errors.Error:
            raise errors.Error(
              f"parameter {name!r}: the model has no {object_type} named {object_name!r}"
            ) from None
          vector[start + i] = address(model, object_id)
      elif param.value is not None:
        vector[start] = param.value
    return vector

  def pack(self, resolved, task) -> np.ndarray:
    """The params vector of `task`: `resolved` (from resolve) with the task's values."""
    vector = resolved.copy()
    for offset, name in self._task_fields:
      vector[offset] = getattr(task, name)
    return vector

  def __deepcopy__(self, memo):
    return self  # a declaration: shared by copies of a task


def _digest(text) -> str:
  return hashlib.sha1(text.encode()).hexdigest()[:8]


@intrinsic
def _read_jit(typingctx, params, params_class):
  """`p`: the named tuple of params_class read off the float vector `params`."""
  cls = params_class.instance_class
  tuple_type = types.NamedTuple([t for _, _, t in cls.fields_read], cls)

  def codegen(context, builder, signature, args):
    vector = context.make_array(signature.args[0])(context, builder, args[0])
    int64 = context.get_value_type(types.int64)

    def load(i):
      index = context.get_constant(types.intp, i)
      return builder.load(
        cgutils.get_item_pointer(context, builder, signature.args[0], vector, [index])
      )

    values = []
    for offset, size, numba_type in cls.fields_read:
      if isinstance(numba_type, types.UniTuple):
        ids = [builder.fptosi(load(offset + i), int64) for i in range(size)]
        values.append(context.make_tuple(builder, numba_type, ids))
      elif numba_type == types.float64:
        values.append(load(offset))
      elif numba_type == types.boolean:
        values.append(builder.fcmp_unordered("!=", load(offset), load(offset).type(0)))
      else:
        values.append(builder.fptosi(load(offset), int64))
    return context.make_tuple(builder, tuple_type, values)

  return tuple_type(params, params_class), codegen


def _read_python(params, params_class):
  """_read_jit without the JIT."""
  convert = {types.float64: float, types.boolean: bool, types.int64: int}
  values = []
  for offset, size, numba_type in params_class.fields_read:
    if isinstance(numba_type, types.UniTuple):
      values.append(tuple(int(v) for v in params[offset : offset + size]))
    else:
      values.append(convert[numba_type](params[offset]))
  return params_class(*values)


# read(params, Params.tuple_type): the named tuple `p` of a kernel
read = _read_python if _jit.DISABLE_JIT else _read_jit


# ---- features ----


class Feature:
  """A declared quantity of the state: a jitted function of (m, d, p) and its shape (see the
  module docstring); jitted code calls it as that function."""

  def __init__(self, py_func, shape):
    self.py_func = py_func
    self.name = py_func.__name__
    self.module = py_func.__module__
    self.line = py_func.__code__.co_firstlineno
    self.fn = inline_jit(py_func)
    self.returns = py_func.__code__.co_argcount == 3  # (m, d, p): returns its value(s)
    self._shape = shape
    if self.returns and callable(shape):
      raise TypeError(
        f"feature {self.name}: a feature of (m, d, p) returns values of a fixed "
        f"shape; one whose shape depends on the model writes `out`"
      )

  def shape(self, model) -> tuple:
    """The feature's shape in `model`."""
    shape = self._shape(model) if callable(self._shape) else self._shape
    return (shape,) if isinstance(shape, int) else tuple(shape)

  def __call__(self, *args):
    return self.fn(*args)  # (without the JIT; jitted code calls `fn` directly)

  def __repr__(self):
    return f"<feature {self.module}.{self.name}>"


@typeof_impl.register(Feature)
def _typeof_feature(feature, context):
  return typeof_impl(feature.fn, context)


def feature(shape):
  """Declares a feature of shape `shape`: (), an int, a tuple, or a function of the model
  returning the shape (of the sizes both jitted code's `m` and a Physics' model have: nq,
  nv, nbody, ...)."""
  return lambda py_func: Feature(py_func, shape)


@inline_jit
def _written(m, d, p, out, k):
  """The end of a chain of writers: the size written."""
  return k


def _writer(feature, rest):
  """A jit helper writing `feature` into out from index k, then running `rest`."""
  fn = feature.fn
  if feature._shape == ():

    def write(m, d, p, out, k):
      out[k] = fn(m, d, p)
      return rest(m, d, p, out, k + 1)
  elif feature.returns:
    size = int(np.prod(feature.shape(None)))

    def write(m, d, p, out, k):
      values = fn(m, d, p)
      if len(values) != size:
        raise ValueError("a feature returned other than its declared number of values")
      for value in values:
        out[k] = value
        k += 1
      return rest(m, d, p, out, k)
  else:
    shape = feature._shape if callable(feature._shape) else _constant(feature.shape(None))
    shape = inline_jit(shape)

    def write(m, d, p, out, k):
      n = _product(shape(m))
      fn(m, d, p, out[k : k + n])
      return rest(m, d, p, out, k + n)

  return inline_jit(write)


def _constant(shape):
  return lambda m: shape


@inline_jit
def _product(shape):
  n = 1
  for s in shape:
    n *= s
  return n


def _writers(features):
  """One jit helper writing the features one after the other from out[k]."""
  write = _written
  for f in reversed(features):
    write = _writer(f, write)
  return write


def _observe_template(m, d, params, out):
  """Writes the declared features into out, each at its offset."""
  _WRITE(m, d, read(params, _PARAMS), out, 0)  # noqa: F821 (a global of each copy)


def _reward_template(m, d, params, out):
  """The declared reward into out[REWARD], the discount (NaN: the episode goes on) into
  out[DISCOUNT]."""
  p = read(params, _PARAMS)  # noqa: F821 (a global of each copy)
  out[kernels.REWARD] = _REWARD(m, d, p)  # noqa: F821
  out[kernels.DISCOUNT] = _TERMINATION(m, d, p)  # noqa: F821


@inline_jit
def _goes_on(m, d, p):
  return np.nan


_DECLARED = {}  # kernel name -> the functions compiled into it


def _name(prefix, functions, params):
  """The name of the kernel compiling `functions` (features, a reward) for `params`: numba
  caches a kernel under its name, so two kernels of other code must not share one.

  Raises:
    ValueError: functions of one name and line (made by one factory) compiled twice.
  """
  what = repr([(f.__module__, f.__qualname__, f.__code__.co_firstlineno) for f in functions])
  name = f"{prefix}_{_digest(what + params.tuple_type.digest)}"
  if _DECLARED.setdefault(name, functions) != functions:
    raise ValueError(
      f"{[f.__qualname__ for f in functions]}: other functions of these names "
      f"and lines were declared before (made by one factory?); name each one"
    )
  return name


def _kernel(template, module, line, name, **constants):
  """A kernel (kernels.kernel) compiled from a copy of `template` with `constants` as globals,
  named `module`.`name` and located at `line` of the module's file: numba caches it under that
  name, as stale as that file."""
  source = sys.modules[module].__file__
  code = template.__code__.replace(
    co_filename=source, co_firstlineno=line, co_name=name, co_qualname=name
  )
  function = pytypes.FunctionType(code, dict(template.__globals__, **constants), name)
  function.__module__ = module
  function.__doc__ = template.__doc__
  return kernels.kernel(function, refcounts=False)


def _caller(depth=2):
  """The module and line that declared something (`depth` frames up)."""
  frame = sys._getframe(depth)
  return frame.f_globals["__name__"], frame.f_lineno


class Observation:
  """An observation: declared features in key order, and the kernel writing them (see the
  module docstring).

  Attributes:
    params: the parameters the features read.
    items: ((key, feature), ...) in order.
    kernel: the observe kernel (kernels.kernel).
  """

  def __init__(self, params, *items):
    self.params = params
    self.items = tuple(item if isinstance(item, tuple) else (item.name, item) for item in items)
    module, line = _caller()
    keys = "_".join(key for key, _ in self.items)
    functions = tuple(f.py_func for _, f in self.items)
    self.kernel = _kernel(
      _observe_template,
      module,
      line,
      _name(f"observe_{keys}", functions, params),
      _WRITE=_writers([f for _, f in self.items]),
      _PARAMS=params.tuple_type,
    )

  def layout(self, model) -> tuple:
    """((key, shape), ...) of the observation in `model`."""
    return tuple((key, f.shape(model)) for key, f in self.items)

  def __deepcopy__(self, memo):
    return self


class Reward:
  """A declared reward (see `reward`).

  Attributes:
    kernel: the reward kernel (kernels.kernel).
    terminates: whether it can end an episode (it has a termination).
  """

  def __init__(self, params, py_func, termination, module, line):
    self.params = params
    self.terminates = termination is not None
    functions = (py_func,) if termination is None else (py_func, termination)
    self.kernel = _kernel(
      _reward_template,
      module,
      line,
      _name(py_func.__name__, functions, params),
      _REWARD=inline_jit(py_func),
      _TERMINATION=_goes_on if termination is None else inline_jit(termination),
      _PARAMS=params.tuple_type,
    )

  def __deepcopy__(self, memo):
    return self


def reward(params, termination=None):
  """Declares a reward: a function of (m, d, p) returning it; `termination`, a function of
  (m, d, p) returning the discount or NaN, for a task that can end its episode."""
  module, line = _caller()
  return lambda py_func: Reward(params, py_func, termination, module, line)


# ---- the classes ----


_FEATURE_KERNELS = {}  # (feature, params tuple type) -> its kernel


def feature_kernel(feature, params):
  """The kernel writing `feature` alone, for its Physics method (compiled on first use)."""
  key = (feature, params.tuple_type)
  if key not in _FEATURE_KERNELS:
    _FEATURE_KERNELS[key] = _kernel(
      _observe_template,
      feature.module,
      feature.line,
      _name(feature.name, (feature.py_func,), params),
      _WRITE=_writers([feature]),
      _PARAMS=params.tuple_type,
    )
  return _FEATURE_KERNELS[key]


class Physics(control.Physics):
  """A suite Physics whose `features` are methods, dm_control's accessors: `physics.speed()`
  runs the feature `speed` (a float for shape (), else an array of its shape).

  Subclasses set `params` (the Params the features read) and `features`.
  """

  params = None
  features = ()

  def __init_subclass__(cls, **kwargs):
    super().__init_subclass__(**kwargs)
    for f in cls.__dict__.get("features", ()):
      if f.name not in cls.__dict__:
        setattr(cls, f.name, _method(f))

  def _reload_from_data(self, data):
    """Also resolves the parameters' names in the (new) model."""
    super()._reload_from_data(data)
    self._declared_params = self.params.resolve(self.model) if self.params else np.empty(0)

  def feature(self, feature):
    """The value of `feature` in this state."""
    shape = feature.shape(self.model)
    out = np.empty(int(np.prod(shape)))
    kernels.run(feature_kernel(feature, self.params), self, self._declared_params, out)
    return out[0] if shape == () else out.reshape(shape)


def _method(feature):
  def method(self):
    return self.feature(feature)

  method.__name__ = method.__qualname__ = feature.name
  method.__doc__ = feature.py_func.__doc__
  return method


class Task(base.Task):
  """A suite task whose kernels are declared: set `observation` (an Observation) and `reward`
  (a Reward), as class or instance attributes; `params` (default: the observation's) may be
  a renamed copy for a model whose names differ."""

  observation = None
  reward = None

  @property
  def params(self):
    return self.observation.params

  @property
  def observe_kernel(self):
    return self.observation.kernel

  @property
  def reward_kernel(self):
    return self.reward.kernel

  @property
  def terminates(self):
    return self.reward.terminates

  def observation_layout(self, physics):
    return self.observation.layout(physics.model)

  def kernel_params(self, physics):
    """The params vector: the names resolved once per model, then the task's values."""
    model = physics.model.ptr
    cached = self.__dict__.get("_resolved")
    if cached is None or cached[0]() is not model:
      params = self.params
      for declared in (self.observation.params, self.reward.params):
        if declared.tuple_type is not params.tuple_type:
          raise TypeError(
            f"{type(self).__name__}: its params are not the layout its "
            f"observation and reward were declared with"
          )
      cached = self._resolved = (weakref.ref(model), params.resolve(physics.model))
    return self.params.pack(cached[1], self)
