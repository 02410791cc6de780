"""Random distributions as variations (draws from the given numpy RandomState).

A distribution draws one sample per element of `initial_value` (its shape), or a
single sample with `single_sample=True` or without an initial value. Parameters may
themselves be variations.
"""

import abc
import functools

import numpy as np

from composer.variation import base
from composer.variation.variation_values import evaluate


class Distribution(base.Variation, metaclass=abc.ABCMeta):
  """Base class: `_callable(random_state)` is the numpy sampler given the parameters."""

  def __init__(self, *args, **kwargs):
    self._single_sample = kwargs.pop("single_sample", False)
    self._args = args
    self._kwargs = kwargs

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    sampler = self._callable(random_state or np.random)
    size = None if self._single_sample or initial_value is None else np.shape(initial_value)
    values = dict(
      initial_value=initial_value, current_value=current_value, random_state=random_state
    )
    args = evaluate(self._args, **values)
    kwargs = evaluate(self._kwargs, **values)
    return sampler(*args, size=size, **kwargs)

  def __getattr__(self, name):
    if name.startswith("__"):
      raise AttributeError(name)  # no recursion in copy/deepcopy
    kwargs = self.__dict__.get("_kwargs", {})
    if name in kwargs:
      return kwargs[name]
    raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

  @abc.abstractmethod
  def _callable(self, random_state):
    """The numpy sampling method."""

  def __eq__(self, other):
    return (
      isinstance(other, type(self))
      and self._args == other._args
      and self._kwargs == other._kwargs
      and self._single_sample == other._single_sample
    )

  def __repr__(self):
    return (
      f"{type(self).__name__}(args={self._args}, kwargs={self._kwargs}, "
      f"single_sample={self._single_sample})"
    )


class Uniform(Distribution):
  def __init__(self, low=0.0, high=1.0, single_sample=False):
    super().__init__(low=low, high=high, single_sample=single_sample)

  def _callable(self, random_state):
    return random_state.uniform


class UniformInteger(Distribution):
  """Integers in [low, high)."""

  def __init__(self, low, high=None, single_sample=False):
    super().__init__(low, high=high, single_sample=single_sample)

  def _callable(self, random_state):
    return random_state.randint


class UniformChoice(Distribution):
  def __init__(self, choices, single_sample=False):
    super().__init__(choices, single_sample=single_sample)

  def _callable(self, random_state):
    return random_state.choice


class UniformPointOnSphere(base.Variation):
  """Unit 3-vectors, uniform on the sphere (one per element of initial_value)."""

  def __init__(self, single_sample=False):
    self._single_sample = single_sample

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    random_state = random_state or np.random
    if self._single_sample or initial_value is None:
      size = 3
    else:
      size = np.append(np.shape(initial_value), 3)
    points = random_state.normal(size=size)
    points /= np.linalg.norm(points, axis=-1, keepdims=True)
    return points

  def __eq__(self, other):
    return isinstance(other, UniformPointOnSphere) and self._single_sample == other._single_sample

  def __repr__(self):
    return f"UniformPointOnSphere(single_sample={self._single_sample})"


class Normal(Distribution):
  def __init__(self, loc=0.0, scale=1.0, single_sample=False):
    super().__init__(loc=loc, scale=scale, single_sample=single_sample)

  def _callable(self, random_state):
    return random_state.normal


class LogNormal(Distribution):
  def __init__(self, mean=0.0, sigma=1.0, single_sample=False):
    super().__init__(mean=mean, sigma=sigma, single_sample=single_sample)

  def _callable(self, random_state):
    return random_state.lognormal


class Exponential(Distribution):
  def __init__(self, scale=1.0, single_sample=False):
    super().__init__(scale=scale, single_sample=single_sample)

  def _callable(self, random_state):
    return random_state.exponential


class Poisson(Distribution):
  def __init__(self, lam=1.0, single_sample=False):
    super().__init__(lam=lam, single_sample=single_sample)

  def _callable(self, random_state):
    return random_state.poisson


class Bernoulli(Distribution):
  """1 with probability `prob`, else 0."""

  def __init__(self, prob=0.5, single_sample=False):
    super().__init__(prob, single_sample=single_sample)

  def _callable(self, random_state):
    return functools.partial(random_state.binomial, 1)


class BiasedRandomWalk(base.Variation):
  """A zero-mean Ornstein-Uhlenbeck sequence with standard deviation `stdev` whose
  correlation decays by 1/e over `timescale` calls (0: independent normal draws)."""

  def __init__(self, stdev=0.1, timescale=10.0):
    if stdev < 0:
      raise ValueError(f"`stdev` must be >= 0, got {stdev}.")
    if timescale < 0:
      raise ValueError(f"`timescale` must be >= 0, got {timescale}.")
    self._retain = 0.0 if timescale == 0 else np.exp(-1.0 / timescale)
    self._scale = stdev * np.sqrt(1 - self._retain * self._retain)
    self._value = 0.0

  def __call__(self, initial_value=None, current_value=None, random_state=None):
    random_state = random_state or np.random
    self._value = self._retain * self._value + random_state.normal(loc=0.0, scale=self._scale)
    return self._value

  def __eq__(self, other):
    return self is other

  __hash__ = object.__hash__

  def __repr__(self):
    return (
      f"BiasedRandomWalk(id={id(self)}, scale={self._scale}, retain={self._retain}, "
      f"value={self._value})"
    )
