"""Argument errors at the public API, as MuJoCo's bindings report them.

The bindings raise TypeError for an argument of the wrong type. Our mj_ functions would instead
fail inside the engine: AttributeError from a None model, numba's TypingError for an array of
the wrong dtype or a None array. `checked(function)` turns those into a TypeError that names
the function and the argument; while the arguments are right it costs a type test of the model
and the data (some functions would otherwise run on anything), the rest being examined only once
a call has failed. The driver's functions (mj_step, mj_forward, ...) check their own arguments
inline, without the extra call.
"""

import functools
import inspect

from numba.core.errors import TypingError


def checked(function):
  """`function` with MuJoCo's TypeError for arguments of the wrong type: its model `m` and data
  `d` must be an MjModel and an MjData (tested first: some functions would run on anything),
  and an engine error caused by another argument becomes a TypeError naming it."""
  signature = inspect.signature(function)
  name = function.__name__
  positional = list(signature.parameters)
  checks = [(i, p) for i, p in enumerate(positional[:2]) if p in ("m", "d")]

  @functools.wraps(function)
  def wrapper(*args, **kwargs):
    kinds = _kinds()
    for i, parameter in checks:
      if i < len(args) and not isinstance(args[i], kinds[parameter]):
        raise _wrong_argument(name, signature, args, kwargs)
    try:
      return function(*args, **kwargs)
    except (AttributeError, TypingError) as error:
      problem = _wrong_argument(name, signature, args, kwargs)
      if problem is None and isinstance(error, TypingError):
        given = ", ".join(type(a).__name__ for a in args)
        problem = TypeError(f"{name}(): incompatible function arguments ({given})")
      if problem is None:
        raise
      raise problem from None

  return wrapper


@functools.cache
def _kinds():
  """{parameter name: the classes its argument may be (a model, or a world of a ModelBatch)}
  (engine.types is imported on first use: it imports most of the engine)."""
  from engine.types import MjData
  from engine.types import MjModel
  from engine.types import _WorldModel

  return {"m": (MjModel, _WorldModel), "d": MjData}


def _wrong_argument(name, signature, args, kwargs):
  """A TypeError naming the first argument of the wrong kind: the model `m` or data `d` not an
  MjModel or MjData, or any other argument None where the function needs a value."""
  try:
    bound = signature.bind(*args, **kwargs)
  except TypeError as error:
    return TypeError(f"{name}(): {error}")
  kinds = _kinds()
  for parameter, value in bound.arguments.items():
    kind = kinds.get(parameter)
    if kind is not None and not isinstance(value, kind):
      expected = "MjModel" if parameter == "m" else "MjData"
      return TypeError(
        f"{name}(): argument '{parameter}' must be an {expected}, got {type(value).__name__}"
      )
  for parameter, value in bound.arguments.items():
    if value is None and signature.parameters[parameter].default is not None:
      return TypeError(f"{name}(): argument '{parameter}' is None")
  return None
