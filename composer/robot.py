"""Robots: entities with actuators."""

import abc

import numpy as np

from composer import entity

DOWN_QUATERNION = np.array([0.0, 0.70710678118, 0.70710678118, 0.0])


class Robot(entity.Entity, metaclass=abc.ABCMeta):
  """Base class of robots: subclasses list their actuator elements."""

  @property
  @abc.abstractmethod
  def actuators(self):
    """The robot's actuator elements."""
