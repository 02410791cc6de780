"""Observables: callables of the physics with buffering, delay and noise options.

An observable only describes how to read a value and how the `Updater` should
buffer it (`update_interval`, `buffer_size`, `delay` in physics steps,
`aggregator` over the buffer axis, `corruptor` applied to each raw reading).
"""

import abc
import functools

import numpy as np
from dm_env import specs


def _reducer(np_function, preserves_bounds):
  """A reduction over the buffer axis; `preserves_bounds` tells the spec to keep bounds."""
  reduce = functools.partial(np_function, axis=0)
  reduce.preserves_bounds = preserves_bounds
  return reduce


AGGREGATORS = {
  "min": _reducer(np.min, True),
  "max": _reducer(np.max, True),
  "mean": _reducer(np.mean, True),
  "median": _reducer(np.median, True),
  "sum": _reducer(np.sum, False),
}


def _get_aggregator(name_or_callable):
  """A callable aggregator from a name in AGGREGATORS, a callable, or None."""
  if name_or_callable is None or callable(name_or_callable):
    return name_or_callable
  if name_or_callable not in AGGREGATORS:
    raise KeyError(
      f"Unrecognized aggregator name: {name_or_callable!r}. Valid names: {list(AGGREGATORS)}."
    )
  return AGGREGATORS[name_or_callable]


class Observable(metaclass=abc.ABCMeta):
  """Base class: holds the buffering options and turns a physics into a reading callable."""

  def __init__(self, update_interval, buffer_size, delay, aggregator, corruptor):
    self._update_interval = update_interval
    self._buffer_size = buffer_size
    self._delay = delay
    self._aggregator = _get_aggregator(aggregator)
    self._corruptor = corruptor
    self._enabled = False

  @property
  def update_interval(self):
    return self._update_interval

  @update_interval.setter
  def update_interval(self, value):
    self._update_interval = value

  @property
  def buffer_size(self):
    return self._buffer_size

  @buffer_size.setter
  def buffer_size(self, value):
    self._buffer_size = value

  @property
  def delay(self):
    return self._delay

  @delay.setter
  def delay(self, value):
    self._delay = value

  @property
  def aggregator(self):
    return self._aggregator

  @aggregator.setter
  def aggregator(self, value):
    self._aggregator = _get_aggregator(value)

  @property
  def corruptor(self):
    return self._corruptor

  @corruptor.setter
  def corruptor(self, value):
    self._corruptor = value

  @property
  def enabled(self):
    return self._enabled

  @enabled.setter
  def enabled(self, value):
    self._enabled = value

  @property
  def array_spec(self):
    """The spec of one reading, or None when it is found by taking a reading."""
    return None

  @abc.abstractmethod
  def _callable(self, physics):
    """A no-argument callable returning the raw reading from `physics`."""

  def observation_callable(self, physics, random_state=None):
    """A no-argument callable returning a reading, passed through the corruptor if any."""
    read = self._callable(physics)
    corruptor = self._corruptor
    if not corruptor:
      return read
    return lambda: corruptor(read(), random_state=random_state)

  def __call__(self, physics, random_state=None):
    """One reading now (convenience for tests and scripts)."""
    return self.observation_callable(physics, random_state)()

  def configure(self, **kwargs):
    """Sets several options at once; unknown option names raise AttributeError."""
    for key, value in kwargs.items():
      if not hasattr(self, key):
        raise AttributeError(f"Cannot add attribute {key} in configure.")
      setattr(self, key, value)


class PerPhysics:
  """`reading(physics)`: calls a no-argument reader that `make(physics)` returns, made once per
  physics (for Generic observables and hooks that read the same thing at every step)."""

  def __init__(self, make):
    self._make = make
    self._physics = None
    self._read = None

  def __call__(self, physics):
    if physics is not self._physics:
      self._read = self._make(physics)
      self._physics = physics
    return self._read()


class Generic(Observable):
  """An observable defined by a function of the physics."""

  def __init__(
    self,
    raw_observation_callable,
    update_interval=1,
    buffer_size=None,
    delay=None,
    aggregator=None,
    corruptor=None,
  ):
    self._raw_callable = raw_observation_callable
    super().__init__(update_interval, buffer_size, delay, aggregator, corruptor)

  def _callable(self, physics):
    return lambda: self._raw_callable(physics)


class MujocoFeature(Observable):
  """A named row of an mjData field, e.g. MujocoFeature('xpos', 'torso')."""

  def __init__(
    self,
    kind,
    feature_name,
    update_interval=1,
    buffer_size=None,
    delay=None,
    aggregator=None,
    corruptor=None,
  ):
    self._kind = kind
    self._feature_name = feature_name
    super().__init__(update_interval, buffer_size, delay, aggregator, corruptor)

  def _callable(self, physics):
    indexer = getattr(physics.named.data, self._kind)
    name = self._feature_name
    if callable(name):
      return lambda: indexer[name()]
    return lambda: indexer[name]


class MujocoCamera(Observable):
  """Images from a camera named in the compiled model (uint8 RGB or float32 depth)."""

  def __init__(
    self,
    camera_name,
    height=240,
    width=320,
    update_interval=1,
    buffer_size=None,
    delay=None,
    aggregator=None,
    corruptor=None,
    depth=False,
  ):
    self._camera_name = camera_name
    self._height = height
    self._width = width
    self._depth = depth
    super().__init__(update_interval, buffer_size, delay, aggregator, corruptor)

  @property
  def height(self):
    return self._height

  @height.setter
  def height(self, value):
    self._height = value

  @property
  def width(self):
    return self._width

  @width.setter
  def width(self, value):
    self._width = value

  @property
  def array_spec(self):
    channels, dtype = (1, np.float32) if self._depth else (3, np.uint8)
    return specs.Array(shape=(self._height, self._width, channels), dtype=dtype)

  def _callable(self, physics):
    return lambda: physics.render(self._height, self._width, self._camera_name, depth=self._depth)
