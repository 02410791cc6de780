"""The base of every suite task: its random state, actions as controls, reward colouring
(dm_control's `suite.base`), and the observations and rewards of tasks written as kernels."""

import collections
import math
import weakref

import numpy as np
from dm_env import specs

from engine import mjMAXVAL
from suite import control
from suite import kernels

# materials recoloured by reward (visualize_reward=True), blended from their two twins
_MATERIALS = ("self", "effector", "target")
_DEFAULT = [name + "_default" for name in _MATERIALS]
_HIGHLIGHT = [name + "_highlight" for name in _MATERIALS]


def action_spec(physics):
  """A BoundedArray of the controls: each actuator's ctrlrange, +-mjMAXVAL where unlimited."""
  model = physics.model
  limited = model.actuator_ctrllimited.ravel().astype(bool)
  minimum = np.full(model.nu, -mjMAXVAL)
  maximum = np.full(model.nu, mjMAXVAL)
  minimum[limited], maximum[limited] = model.actuator_ctrlrange[limited].T
  return specs.BoundedArray(shape=(model.nu,), dtype=float, minimum=minimum, maximum=maximum)


class Task(control.Task):
  """A suite task: owns a numpy RandomState, writes actions to the controls.

  A task whose observation and reward are kernels (suite/kernels.py) sets `observe_kernel`,
  `reward_kernel` and defines `observation_layout` (and `kernel_params` if its kernels need
  ids or flags): get_observation, get_reward and get_termination then run those kernels, as
  the batched step of a vectorised environment (suite/vector.py) does for all its worlds.

  Attributes:
    random: the RandomState every random choice of the task draws from (the order of the
      draws is part of the seed-level contract with dm_control).
    visualize_reward: recolour the `self`, `effector` and `target` materials by reward.
    model_fields: the model arrays the task changes at episode start; each world of a
      vectorised environment has its own rows of them (engine.ModelBatch).
  """

  observe_kernel = None
  reward_kernel = None
  terminates = False  # whether the reward kernel can end an episode (its discount)
  model_fields = ()

  def __init__(self, random=None):
    """`random`: a RandomState, a seed for one, or None (seeded by numpy from the OS)."""
    if not isinstance(random, np.random.RandomState):
      random = np.random.RandomState(random)
    self._random = random
    self._visualize_reward = False

  @property
  def random(self):
    return self._random

  def action_spec(self, physics):
    return action_spec(physics)

  def before_step(self, action, physics):
    """Writes the action into the controls (`continuous_actions` of a structured action).

    As in dm_control an action that broadcasts to the controls' shape is accepted (a scalar
    for a one-actuator task); values outside the spec are clipped by the actuators' control
    ranges, and a NaN makes the step raise PhysicsError (mjWARN_BADCTRL).

    Raises:
      ValueError: the action does not broadcast to the shape of the controls.
    """
    action = getattr(action, "continuous_actions", action)
    ctrl = physics.data.ctrl
    try:
      np.copyto(ctrl, action)
    except (ValueError, TypeError):
      raise ValueError(
        f"action has shape {np.shape(action)}; this task takes {len(ctrl)} "
        f"controls, shape ({len(ctrl)},) (see env.action_spec())"
      ) from None

  def after_step(self, physics):
    """Recolours the materials by reward when visualize_reward is set."""
    if self._visualize_reward:
      reward = np.clip(self.get_reward(physics), 0.0, 1.0)
      _set_reward_colors(physics, reward)

  def initialize_episode(self, physics):
    """Call at the end of a subclass's initialize_episode: resets the reward colours."""
    self.after_step(physics)

  # ---- kernels ----

  def observation_layout(self, physics) -> tuple:
    """((key, shape), ...) of the observation the observe kernel writes, in order."""
    raise NotImplementedError(f"{type(self).__name__} has no observation kernel")

  def kernel_params(self, physics) -> np.ndarray:
    """The float vector the kernels get as `params` (ids, addresses, flags)."""
    return np.empty(0)

  def get_observation(self, physics):
    """The observe kernel's output as an ordered dict (tasks without kernels override this)."""
    layout, size = self._layout_of(physics)
    flat = np.empty(size)
    kernels.run(self.observe_kernel, physics, self.kernel_params(physics), flat)
    return split_observation(flat, layout)

  def _layout_of(self, physics):
    """observation_layout and its size, kept per model (a weak reference: a copy of the task
    does not copy the model)."""
    model = physics.model.ptr
    cached = self.__dict__.get("_layout_cache")
    if cached is None or cached[0]() is not model:
      layout = self.observation_layout(physics)
      cached = self._layout_cache = (weakref.ref(model), layout, observation_size(layout))
    return cached[1], cached[2]

  def get_reward(self, physics):
    """The reward kernel's reward (tasks without kernels override this)."""
    return self._reward_and_discount(physics)[kernels.REWARD]

  def get_termination(self, physics):
    """The reward kernel's discount, None while it is NaN (a task that never terminates: None
    without running it)."""
    if self.reward_kernel is None or not self.terminates:
      return None
    discount = self._reward_and_discount(physics)[kernels.DISCOUNT]
    return None if math.isnan(discount) else discount

  def _reward_and_discount(self, physics):
    out = np.empty(2)
    kernels.run(self.reward_kernel, physics, self.kernel_params(physics), out)
    return out

  @property
  def visualize_reward(self):
    return self._visualize_reward

  @visualize_reward.setter
  def visualize_reward(self, value):
    if not isinstance(value, bool):
      raise ValueError(f"Expected a boolean, got {type(value)}.")
    self._visualize_reward = value


def observation_size(layout) -> int:
  return sum(math.prod(shape) for _, shape in layout)


def split_observation(flat, layout) -> dict:
  """An ordered dict of the observation keys over the last axis of `flat` (views; a key of
  shape () is a scalar, or one value per world for a batch)."""
  observation = collections.OrderedDict()
  start = 0
  for key, shape in layout:
    size = math.prod(shape)
    part = flat[..., start : start + size]
    observation[key] = part.reshape(flat.shape[:-1] + tuple(shape))[()]
    start += size
  return observation


def _set_reward_colors(physics, reward):
  """Blends each material between its default and highlight twin by reward**4 (high rewards
  stand out)."""
  colors = physics.named.model.mat_rgba
  blend = reward**4
  colors[list(_MATERIALS)] = blend * colors[_HIGHLIGHT] + (1.0 - blend) * colors[_DEFAULT]
