"""Decorators for Entity methods that build elements and observables once per instance.

`cached_property` evaluates its getter on first access and stores the result in the
instance dict, so MJCF elements found in `_build` are looked up only once.
`observable` marks an `Observables` method whose result the collection registers
(by the method's name) when the entity is built.
"""

import abc
import threading


class cached_property(property):  # noqa: N801 (dm_control's name)
  """A property computed on first access and then stored on the instance."""

  def __init__(self, func, doc=None):
    super().__init__(fget=func, doc=doc)
    self.lock = threading.RLock()

  def __get__(self, obj, cls):
    if obj is None:
      return self
    name = self.fget.__name__
    stored = obj.__dict__
    if name in stored:
      return stored[name]
    with self.lock:
      if name not in stored:
        stored[name] = self.fget(obj)
      return stored[name]


abstract_observable = abc.abstractproperty


class observable(cached_property):  # noqa: N801 (dm_control's name)
  """Marks an `Observables` method returning an observable; evaluated once, at build."""
