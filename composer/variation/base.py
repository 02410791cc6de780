"""Variation: a callable (initial_value, current_value, random_state) -> new value.

Arithmetic on variations builds new variations (`Uniform(1, 2) * 3 + Normal()`),
evaluated leaf by leaf when called.
"""

import abc
import operator

import numpy as np

from composer.variation import variation_values


class Variation(metaclass=abc.ABCMeta):
  """Base class of variations."""

  @abc.abstractmethod
  def __call__(self, initial_value=None, current_value=None, random_state=None):
    """A new value, given the attribute's original and current values."""

  def __add__(self, other):
    return _BinaryOperation(operator.add, self, other)

  def __radd__(self, other):
    return _BinaryOperation(operator.add, other, self)

  def __sub__(self, other):
    return _BinaryOperation(operator.sub, self, other)

  def __rsub__(self, other):
    return _BinaryOperation(operator.sub, other, self)

  def __mul__(self, other):
    return _BinaryOperation(operator.mul, self, other)

  def __rmul__(self, other):
    return _BinaryOperation(operator.mul, other, self)

  def __truediv__(self, other):
    return _BinaryOperation(operator.truediv, self, other)

  def __rtruediv__(self, other):
    return _BinaryOperation(operator.truediv, other, self)

  def __floordiv__(self, other):
    return _BinaryOperation(operator.floordiv, self, other)

  def __rfloordiv__(self, other):
    return _BinaryOperation(operator.floordiv, other, self)

  def __pow__(self, other):
    return _BinaryOperation(operator.pow, self, other)

  def __rpow__(self, other):
    return _BinaryOperation(operator.pow, other, self)

  def __getitem__(self, index):
    return _GetItemOperation(self, index)

  def __neg__(self):
    return _UnaryOperation(operator.neg, self)


class _UnaryOperation(Variation):
  """op(variation)."""

  def __init__(self, op, variation):
    self._op = op
    self._variation = variation

  def __eq__(self, other):
    return (
      isinstance(other, _UnaryOperation)
      and self._op == other._op
      and self._variation == other._variation
    )

  def __repr__(self):
    return f"UnaryOperation({self._op.__name__}({self._variation!r}))"

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    return self._op(
      variation_values.evaluate(self._variation, initial_value, current_value, random_state)
    )


class _BinaryOperation(Variation):
  """op(first, second); the first operand is drawn first."""

  def __init__(self, op, first, second):
    self._op = op
    self._first = first
    self._second = second

  def __eq__(self, other):
    return (
      isinstance(other, _BinaryOperation)
      and self._op == other._op
      and self._first == other._first
      and self._second == other._second
    )

  def __repr__(self):
    return f"BinaryOperation({self._op.__name__}({self._first!r}, {self._second!r}))"

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    args = (initial_value, current_value, random_state)
    first = variation_values.evaluate(self._first, *args)
    second = variation_values.evaluate(self._second, *args)
    return self._op(first, second)


class _GetItemOperation(Variation):
  """variation[index]."""

  def __init__(self, variation, index):
    self._variation = variation
    self._index = index

  def __eq__(self, other):
    return (
      isinstance(other, _GetItemOperation)
      and self._variation == other._variation
      and self._index == other._index
    )

  def __repr__(self):
    return f"GetItemOperation({self._variation!r}[{self._index}])"

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    value = variation_values.evaluate(self._variation, initial_value, current_value, random_state)
    return np.asarray(value)[self._index]
