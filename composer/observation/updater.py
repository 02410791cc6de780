"""The Updater: takes readings of the enabled observables on their schedules and buffers them.

Time is counted in physics steps since the episode start. Before each control step
`prepare_for_next_control_step` plans the readings (every `update_interval` steps, each
with its `delay`) for the next two control steps and drops readings no observation
would return; `update` runs after each physics step and takes the readings due.

Most observables keep the default options (read every step, no delay, a buffer of one): the
only reading an observation returns is the one at the control step's last physics step, so
these are read then into one array each, without a schedule or a buffer (the many per-player
observables of soccer made this bookkeeping a large part of a step).
"""

import collections
import functools
import inspect
import logging

import numpy as np
from dm_env import specs

from composer.observation import obs_buffer

DEFAULT_BUFFER_SIZE = 1
DEFAULT_UPDATE_INTERVAL = 1
DEFAULT_DELAY = 0


def _option(observable, name, default, random_state):
  """An observable's option: its value, a sampler bound to random_state, or the default."""
  value = getattr(observable, name)
  if not value:
    return default
  if _takes_random_state(value):  # a variation: a fresh draw each time it is used
    return functools.partial(value, random_state=random_state)
  return value


def _takes_random_state(value):
  """Whether `value` is a sampler called as value(random_state=...) (a variation)."""
  if not callable(value):
    return False
  try:
    return "random_state" in inspect.signature(value).parameters
  except (TypeError, ValueError):
    return False


def _value(option):
  return option() if callable(option) else option


class _EnabledObservable:
  """An enabled observable with its reading callable, options, buffer and schedule."""

  __slots__ = (
    "observable",
    "observation_callable",
    "update_interval",
    "delay",
    "buffer_size",
    "buffer",
    "update_schedule",
    "latest_only",
    "latest",
    "_dtype",
    "_shape",
  )

  def __init__(
    self, observable, physics, random_state, strip_singleton_buffer_dim, pad_with_initial_value
  ):
    self.observable = observable
    self.observation_callable = observable.observation_callable(physics, random_state)
    self.update_interval = _option(
      observable, "update_interval", DEFAULT_UPDATE_INTERVAL, random_state
    )
    self.delay = _option(observable, "delay", DEFAULT_DELAY, random_state)
    self.buffer_size = _option(observable, "buffer_size", DEFAULT_BUFFER_SIZE, random_state)
    spec = observable.array_spec
    if spec is None:
      # Shape and dtype from one reading; the state may be invalid here, errors do not matter.
      with physics.suppress_physics_errors():
        reading = np.asarray(self.observation_callable())
      spec = specs.Array(shape=reading.shape, dtype=reading.dtype)
    self.buffer = obs_buffer.Buffer(
      buffer_size=self.buffer_size,
      shape=spec.shape,
      dtype=spec.dtype,
      pad_with_initial_value=pad_with_initial_value,
      strip_singleton_buffer_dim=strip_singleton_buffer_dim,
    )
    self.update_schedule = collections.deque()
    # the default options: only the reading at the end of each control step is observed
    self.latest_only = (self.update_interval, self.delay, self.buffer_size) == (
      DEFAULT_UPDATE_INTERVAL,
      DEFAULT_DELAY,
      DEFAULT_BUFFER_SIZE,
    )
    self.latest = None
    self._dtype, self._shape = self.buffer.dtype, self.buffer.shape

  def take_reading(self, timestamp):
    """Reads the observable: into `latest` (in the buffer's shape and dtype) for the default
    options, else into the buffer with the delay planned for `timestamp`."""
    if self.latest_only:
      value = np.array(self.observation_callable(), dtype=self._dtype)
      self.latest = value if value.shape == self._shape else value.reshape(self._shape)
    else:
      self.buffer.insert(timestamp, _value(self.delay), self.observation_callable())

  def read(self, step):
    """The observation at `step`: a copy of the latest reading, or the buffer's contents."""
    if self.latest_only:
      return self.latest.copy()
    return self.buffer.read(step)


def _is_nested(structure):
  """True for a list/tuple of dicts, False for a dict; ValueError otherwise."""
  if isinstance(structure, (list, tuple)):
    if all(isinstance(item, dict) for item in structure):
      return True
  elif isinstance(structure, dict):
    return False
  raise ValueError(
    f"`observables` should be a dict, or a (list or tuple) of dicts: got {structure}"
  )


class Updater:
  """Creates buffers for the enabled observables and keeps them up to date."""

  def __init__(
    self,
    observables,
    physics_steps_per_control_step=1,
    strip_singleton_buffer_dim=False,
    pad_with_initial_value=False,
  ):
    self._physics_steps_per_control_step = physics_steps_per_control_step
    self._strip_singleton_buffer_dim = strip_singleton_buffer_dim
    self._pad_with_initial_value = pad_with_initial_value
    self._observables = observables
    self._is_nested = _is_nested(observables)
    self._step_counter = 0
    self._next_due = 0  # no reading is scheduled before this step (update skips until then)
    self._control_step_end = 0  # the step at which the default-option observables are read
    self._enabled_structure = None
    self._enabled_list = None
    self._scheduled = None  # the enabled observables with other options, read on a schedule

  def _map(self, function):
    """`function` applied to each dict of the structure, keeping its shape and types."""
    if self._is_nested:
      return type(self._enabled_structure)(function(d) for d in self._enabled_structure)
    return function(self._enabled_structure)

  def reset(self, physics, random_state):
    """New buffers for the enabled observables, each holding a first reading at step 0."""

    def enabled_dict(observables):
      out = type(observables)()
      for name, obs in observables.items():
        if obs.enabled:
          out[name] = _EnabledObservable(
            obs,
            physics,
            random_state,
            self._strip_singleton_buffer_dim,
            self._pad_with_initial_value,
          )
      return out

    if self._is_nested:
      self._enabled_structure = type(self._observables)(enabled_dict(d) for d in self._observables)
      self._enabled_list = [e for d in self._enabled_structure for e in d.values()]
    else:
      self._enabled_structure = enabled_dict(self._observables)
      self._enabled_list = list(self._enabled_structure.values())
    self._scheduled = [e for e in self._enabled_list if not e.latest_only]
    self._step_counter = 0
    self._next_due = 0
    self._control_step_end = 0
    for enabled in self._enabled_list:
      enabled.take_reading(0)

  def _require_reset(self, what):
    if self._enabled_structure is None:
      raise RuntimeError(f"`reset` must be called before `{what}`.")

  def observation_spec(self):
    """Specs of the observations, with the buffer axis and the aggregators applied.

    Bounds are kept only when no aggregator is used or the aggregator has a true
    `preserves_bounds` attribute.
    """
    self._require_reset("observation_spec")

    def spec_dict(enabled_dict):
      out = type(enabled_dict)()
      for name, enabled in enabled_dict.items():
        out[name] = _spec(name, enabled)
      return out

    return self._map(spec_dict)

  def prepare_for_next_control_step(self):
    """Plans the readings of the next control steps."""
    self._require_reset("before_step")
    n = self._physics_steps_per_control_step
    self._control_step_end = self._step_counter + n
    for enabled in self._scheduled:
      schedule = enabled.update_schedule
      if (
        enabled.update_interval == DEFAULT_UPDATE_INTERVAL
        and enabled.delay == DEFAULT_DELAY
        and enabled.buffer_size < n
      ):
        # Only the last buffer_size steps of the control step can be observed.
        for back in reversed(range(enabled.buffer_size)):
          schedule.append((self._step_counter + n - back, DEFAULT_DELAY))
        continue
      last = schedule[-1][0] if schedule else self._step_counter
      horizon = self._step_counter + 2 * n
      while last < horizon:
        last += _value(enabled.update_interval)
        schedule.append((last, _value(enabled.delay)))
      enabled.buffer.drop_unobserved_upcoming_items(schedule, n)
    self._next_due = self._earliest_scheduled_step()

  def _earliest_scheduled_step(self):
    due = [enabled.update_schedule[0][0] for enabled in self._scheduled if enabled.update_schedule]
    if self._control_step_end > self._step_counter:
      due.append(self._control_step_end)
    return min(due, default=float("inf"))

  def update(self):
    """Advances one physics step and takes the readings due at it."""
    self._require_reset("after_substep")
    self._step_counter += 1
    step = self._step_counter
    if step < self._next_due:
      return  # (most physics steps of a control step take no reading)
    # in the observables' order: a corruptor's noise is drawn in the same order as dm_control
    at_end = step == self._control_step_end
    for enabled in self._enabled_list if at_end else self._scheduled:
      if enabled.latest_only:
        enabled.take_reading(step)
        continue
      schedule = enabled.update_schedule
      if schedule and schedule[0][0] == step:
        timestamp, delay = schedule.popleft()
        enabled.buffer.insert(timestamp, delay, enabled.observation_callable())
    self._next_due = self._earliest_scheduled_step()

  def get_observation(self):
    """The current observations, in the structure of the observables given."""
    self._require_reset("observation")
    step = self._step_counter

    def read_dict(enabled_dict):
      out = type(enabled_dict)()
      for name, enabled in enabled_dict.items():
        value = enabled.read(step)
        aggregator = enabled.observable.aggregator
        out[name] = aggregator(value) if aggregator else value
      return out

    return self._map(read_dict)


def _spec(name, enabled):
  """The observation spec of one enabled observable."""
  observable = enabled.observable
  array_spec = observable.array_spec
  aggregator = observable.aggregator
  if aggregator is None and array_spec is not None:
    return array_spec.replace(name=name, shape=enabled.buffer.shape)
  bounds = None
  if isinstance(array_spec, specs.BoundedArray):
    bounds = (array_spec.minimum, array_spec.maximum)
  if aggregator:
    aggregated = np.asarray(aggregator(np.zeros(enabled.buffer.shape, enabled.buffer.dtype)))
    shape, dtype = aggregated.shape, aggregated.dtype
    if bounds and not getattr(aggregator, "preserves_bounds", False):
      if not hasattr(aggregator, "preserves_bounds"):
        logging.warning(
          "Ignoring the bounds of this observable's spec, as its aggregator "
          "has no boolean `preserves_bounds` attribute."
        )
      bounds = None
  else:
    shape, dtype = enabled.buffer.shape, enabled.buffer.dtype
  if bounds:
    return specs.BoundedArray(
      shape=shape, dtype=dtype, minimum=bounds[0], maximum=bounds[1], name=name
    )
  return specs.Array(shape=shape, dtype=dtype, name=name)
