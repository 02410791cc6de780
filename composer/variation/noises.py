"""Noises: variations added to or multiplied with the original (or current) value."""

from composer.variation import base
from composer.variation import variation_values


class _Noise(base.Variation):
  """Combines a drawn value with the initial value (or the current one if cumulative)."""

  def __init__(self, variation, cumulative=False):
    self._variation = variation
    self._cumulative = cumulative

  def _combine(self, base_value, noise):
    raise NotImplementedError

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    base_value = current_value if self._cumulative else initial_value
    noise = variation_values.evaluate(self._variation, initial_value, current_value, random_state)
    return self._combine(base_value, noise)

  def __eq__(self, other):
    return (
      type(other) is type(self)
      and self._variation == other._variation
      and self._cumulative == other._cumulative
    )

  def __repr__(self):
    return f"{type(self).__name__}(variation={self._variation}, cumulative={self._cumulative})"


class Additive(_Noise):
  """value + noise."""

  def _combine(self, base_value, noise):
    return base_value + noise


class Multiplicative(_Noise):
  """value * noise."""

  def _combine(self, base_value, noise):
    return base_value * noise
