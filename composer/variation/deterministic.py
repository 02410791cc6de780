"""Deterministic variations: constants, fixed sequences, identity."""

from composer.variation import base
from composer.variation.variation_values import evaluate


class Constant(base.Variation):
  """Always `value`."""

  def __init__(self, value):
    self._value = value

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    return self._value

  def __eq__(self, other):
    return isinstance(other, Constant) and self._value == other._value

  def __repr__(self):
    return f"Constant({self._value!r})"


class Sequence(base.Variation):
  """The items of `values` in turn, starting over at the end (items may be variations)."""

  def __init__(self, values):
    self._values = values
    self._iterator = iter(values)

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    try:
      item = next(self._iterator)
    except StopIteration:
      self._iterator = iter(self._values)
      item = next(self._iterator)
    return evaluate(
      item, initial_value=initial_value, current_value=current_value, random_state=random_state
    )


class Identity(base.Variation):
  """The current value, unchanged."""

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    return current_value

  def __eq__(self, other):
    return isinstance(other, Identity)
