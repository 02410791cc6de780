"""Initializers: callables that set part of the physics state at episode start."""

import abc


class Initializer(metaclass=abc.ABCMeta):
  """Base class of initializers, called as initializer(physics, random_state)."""

  @abc.abstractmethod
  def __call__(self, physics, random_state):
    """Sets the state it is responsible for."""
