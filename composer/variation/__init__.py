"""Variations: random or deterministic changes of model attributes between episodes.

  variator = variation.MJCFVariator()
  variator.bind_attributes(geom, size=distributions.Uniform(0.8, 1.2) * geom.size)
  variator.apply_variations(random_state)        # in initialize_episode_mjcf

`PhysicsVariator` does the same on the compiled model/data through physics.bind.
"""

import collections
import copy

from composer.variation.base import Variation as Variation
from composer.variation.variation_values import evaluate as evaluate


class _VariationInfo:
  __slots__ = ("initial_value", "variation")

  def __init__(self, initial_value=None, variation=None):
    self.initial_value = initial_value
    self.variation = variation


class _Variator:
  """Variations bound to attributes of elements; remembers each attribute's first value."""

  def __init__(self):
    self._variations = collections.defaultdict(dict)

  def clear(self):
    """Forgets all bound variations."""
    self._variations.clear()

  def reset_initial_values(self):
    """The next application takes the attributes' values at that time as initial values."""
    for variations in self._variations.values():
      for info in variations.values():
        info.initial_value = None


class MJCFVariator(_Variator):
  """Applies variations to attributes of MJCF elements (before compilation)."""

  def bind_attributes(self, element, **kwargs):
    """Binds attribute=variation (a value, or a callable of (initial, current, random_state));
    None unbinds."""
    for name, variation in kwargs.items():
      if variation is None and name in self._variations[element]:
        del self._variations[element][name]
      else:
        initial = copy.copy(getattr(element, name))
        self._variations[element][name] = _VariationInfo(initial, variation)

  def apply_variations(self, random_state):
    """Sets every bound attribute to a new value of its variation."""
    for element, variations in self._variations.items():
      new_values = {}
      for name, info in variations.items():
        current = getattr(element, name)
        if info.initial_value is None:
          info.initial_value = copy.copy(current)
        new_values[name] = evaluate(info.variation, info.initial_value, current, random_state)
      element.set_attributes(**new_values)


class PhysicsVariator(_Variator):
  """Applies variations to compiled model/data fields of MJCF elements (physics.bind)."""

  def bind_attributes(self, element, **kwargs):
    """Binds field=variation; None unbinds. Initial values are taken at the first apply."""
    for name, variation in kwargs.items():
      if variation is None and name in self._variations[element]:
        del self._variations[element][name]
      else:
        self._variations[element][name] = _VariationInfo(None, variation)

  def apply_variations(self, physics, random_state):
    """Sets every bound field to a new value of its variation."""
    for element, variations in self._variations.items():
      binding = physics.bind(element)
      for name, info in variations.items():
        current = getattr(binding, name)
        if info.initial_value is None:
          info.initial_value = copy.copy(current)
        setattr(binding, name, evaluate(info.variation, info.initial_value, current, random_state))
