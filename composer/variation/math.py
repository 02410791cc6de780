"""Math functions applied to the values of variations."""

import abc

import numpy as np

from composer.variation import base
from composer.variation.variation_values import evaluate


class MathOp(base.Variation):
  """`_callable(*args, **kwargs)` with the variations among the arguments evaluated."""

  def __init__(self, *args, **kwargs):
    self._args = args
    self._kwargs = kwargs

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    values = dict(
      initial_value=initial_value, current_value=current_value, random_state=random_state
    )
    return self._callable(*evaluate(self._args, **values), **evaluate(self._kwargs, **values))

  @property
  @abc.abstractmethod
  def _callable(self):
    """The numpy function."""

  def __eq__(self, other):
    return (
      isinstance(other, type(self)) and self._args == other._args and self._kwargs == other._kwargs
    )

  def __repr__(self):
    return f"{type(self).__name__}(args={self._args}, kwargs={self._kwargs})"


class Log(MathOp):
  _callable = staticmethod(np.log)


class Max(MathOp):
  _callable = staticmethod(np.max)


class Min(MathOp):
  _callable = staticmethod(np.min)


class Norm(MathOp):
  _callable = staticmethod(np.linalg.norm)
