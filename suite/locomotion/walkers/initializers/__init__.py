"""Walker initializers: how a legacy walker is posed at the start of an episode
(dm_control.locomotion.walkers.initializers, without the motion-capture one)."""

import abc

import numpy as np


class WalkerInitializer(metaclass=abc.ABCMeta):
  """Sets a walker's initial pose; `Walker.reinitialize_pose` calls each of its initializers."""

  @abc.abstractmethod
  def initialize_pose(self, physics, walker, random_state):
    """Writes the pose of `walker` into `physics`."""


class UprightInitializer(WalkerInitializer):
  """The walker's `upright_pose`: its joints (or `qpos0`), root position and orientation, and
  zero root velocity."""

  def initialize_pose(self, physics, walker, random_state):
    qpos, xpos, xquat = walker.upright_pose
    if qpos is None:
      qpos = physics.bind(walker.mjcf_model.find_all("joint")).qpos0
    walker.configure_joints(physics, qpos)
    walker.set_pose(physics, position=xpos, quaternion=xquat)
    walker.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))


class RandomlySampledInitializer(WalkerInitializer):
  """Applies one of several initializers, chosen uniformly at each call.

  The choice is one `randint(0, len(initializers))` draw from the episode's `random_state`
  (from numpy's global generator when it is None), so episodes are reproducible from their
  seed. dm_control draws it from numpy's global generator: with that generator seeded as the
  random state, both choose alike.

  Raises:
    ValueError: `initializers` is empty.
  """

  def __init__(self, initializers):
    self._initializers = tuple(initializers)
    if not self._initializers:
      raise ValueError("RandomlySampledInitializer needs at least one initializer to sample")
    self.num_initializers = len(self._initializers)

  def initialize_pose(self, physics, walker, random_state):
    generator = np.random if random_state is None else random_state
    chosen = self._initializers[generator.randint(0, self.num_initializers)]
    chosen.initialize_pose(physics, walker, random_state)


class NoOpInitializer(WalkerInitializer):
  """Leaves the pose as it is."""

  def initialize_pose(self, physics, walker, random_state):
    del physics, walker, random_state  # nothing to set
