"""A physics simulation and a task behind the dm_env API (dm_control's `rl.control`).

`Environment(physics, task, time_limit, control_timestep | n_sub_steps, flat_observation,
legacy_step)` steps `physics` `n_sub_steps` times per action, asks `task` for reward,
observation and termination, and ends an episode with a LAST step (discount 1.0: truncation)
when the time limit is reached; a task ends it earlier by returning a discount from
`get_termination`. A step after LAST starts a new episode. Physics errors (a diverging state,
a full contact buffer) propagate as `PhysicsError`; `reset()` starts over afterwards. The
episode bookkeeping is suite/episodes.py's for one world, which the vectorised environment
(suite/vector.py) runs for N.
"""

import abc
import collections

import dm_env
import numpy as np
from dm_env import specs

import engine
from engine import PhysicsError as PhysicsError
from suite import episodes

FLAT_OBSERVATION_KEY = "observations"
_WORLD = 0  # the environment's one world in its episode bookkeeping
_GOES_ON = float("nan")  # the termination of a step that does not end the episode


class Physics(engine.Physics):
  """The simulation an Environment steps: engine.Physics (dm_control's `mujoco.Physics`)."""


class Environment(dm_env.Environment):
  """A dm_env environment from a Physics and a Task."""

  def __init__(
    self,
    physics,
    task,
    time_limit=float("inf"),
    control_timestep=None,
    n_sub_steps=None,
    flat_observation=False,
    legacy_step=True,
  ):
    """Builds the environment.

    Args:
      physics: the Physics to simulate.
      task: the Task: rewards, observations, episode initialization.
      time_limit: seconds of simulated time per episode (default: no limit).
      control_timestep: seconds between actions; must be a whole number of physics timesteps.
      n_sub_steps: physics steps per action (instead of control_timestep; default 1).
      flat_observation: concatenate the observations into one vector, key by key.
      legacy_step: dm_control's step order (the step finishes with mj_step1, so positions,
        velocities and what derives from them are current when observations are read).

    Raises:
      ValueError: both control_timestep and n_sub_steps given, or a control timestep that is
        not a whole number of physics timesteps.
    """
    self._task = task
    self._physics = physics
    self._physics.legacy_step = legacy_step
    self._flat_observation = flat_observation
    if n_sub_steps is not None and control_timestep is not None:
      raise ValueError("Both n_sub_steps and control_timestep were supplied.")
    if control_timestep is not None:
      self._n_sub_steps = compute_n_steps(control_timestep, self._physics.timestep())
    elif n_sub_steps is not None:
      self._n_sub_steps = int(n_sub_steps)
    else:
      self._n_sub_steps = 1
    self._time_limit = time_limit
    if time_limit == float("inf"):
      step_limit = float("inf")
    else:
      step_limit = time_limit / (self._physics.timestep() * self._n_sub_steps)
    self._episodes = episodes.Episodes(1, step_limit)

  def reset(self):
    """Starts a new episode: resets the physics, lets the task initialize it, returns FIRST."""
    self._episodes.begin(_WORLD)
    self.reset_physics()
    return dm_env.TimeStep(
      step_type=dm_env.StepType.FIRST, reward=None, discount=None, observation=self.observation()
    )

  def reset_physics(self):
    """The physics reset to the model's initial state, then the task's initialize_episode:
    the state a new episode starts from (the part of reset a vectorised environment runs per
    world)."""
    with self._physics.reset_context():
      self._task.initialize_episode(self._physics)

  def step(self, action):
    """Applies `action` for one control step; returns MID, or LAST at the end of an episode."""
    if self._episodes.must_reset(_WORLD):
      return self.reset()
    self._task.before_step(action, self._physics)
    self._physics.step(self._n_sub_steps)
    self._task.after_step(self._physics)

    reward = self._task.get_reward(self._physics)
    observation = self.observation()
    time_up = self._episodes.count_step(_WORLD)
    termination = None if time_up else self._task.get_termination(self._physics)
    step_type, discount = self._episodes.end_step(
      _WORLD, time_up, _GOES_ON if termination is None else termination
    )
    return dm_env.TimeStep(step_type, reward, discount, observation)

  def observation(self):
    """The task's observation at the current state (flattened with flat_observation)."""
    observation = self._task.get_observation(self._physics)
    return flatten_observation(observation) if self._flat_observation else observation

  def action_spec(self):
    """The task's action spec (for suite tasks: the actuators' control ranges)."""
    return self._task.action_spec(self._physics)

  def step_spec(self):
    """The task's reward and discount specs, where it defines them."""
    return self._task.step_spec(self._physics)

  def observation_spec(self):
    """The observation spec: the task's, or one read off a current observation."""
    try:
      return self._task.observation_spec(self._physics)
    except NotImplementedError:
      return _spec_from_observation(self.observation())

  @property
  def physics(self):
    return self._physics

  @property
  def task(self):
    return self._task

  @property
  def n_sub_steps(self) -> int:
    """Physics steps per control step."""
    return self._n_sub_steps

  @property
  def time_limit(self) -> float:
    """Seconds of simulated time per episode (inf: no limit)."""
    return self._time_limit

  @property
  def step_limit(self) -> float:
    """Control steps per episode: the time limit over the control timestep (inf: no limit)."""
    return self._episodes.step_limit

  @property
  def flat_observation(self) -> bool:
    """Whether observations are flattened into one vector under FLAT_OBSERVATION_KEY."""
    return self._flat_observation

  def control_timestep(self):
    """Seconds of simulated time per control step."""
    return self._physics.timestep() * self._n_sub_steps


def compute_n_steps(control_timestep, physics_timestep, tolerance=1e-8):
  """Physics steps per control step.

  Raises:
    ValueError: control_timestep < physics_timestep, or not a whole multiple of it.
  """
  if control_timestep < physics_timestep:
    raise ValueError(
      f"Control timestep ({control_timestep}) cannot be smaller than physics "
      f"timestep ({physics_timestep})."
    )
  if (
    abs((control_timestep / physics_timestep - round(control_timestep / physics_timestep)))
    > tolerance
  ):
    raise ValueError(
      f"Control timestep ({control_timestep}) must be an integer multiple of "
      f"physics timestep ({physics_timestep})"
    )
  return int(round(control_timestep / physics_timestep))


def _spec_from_observation(observation):
  result = collections.OrderedDict()
  for key, value in observation.items():
    result[key] = specs.Array(np.shape(value), np.asarray(value).dtype, name=key)
  return result


def flatten_observation(observation, output_key=FLAT_OBSERVATION_KEY):
  """The observation's arrays raveled and concatenated in key order, under `output_key`.

  Raises:
    ValueError: `observation` is not a dict.
  """
  if not isinstance(observation, collections.abc.MutableMapping):
    raise ValueError(f"Can only flatten dict-like observations, got {type(observation)}.")
  if isinstance(observation, collections.OrderedDict):
    keys = observation.keys()
  else:
    keys = sorted(observation.keys())  # a plain dict gives no order to rely on
  parts = [
    observation[key].ravel()
    if isinstance(observation[key], np.ndarray)
    else np.array([observation[key]])
    for key in keys
  ]
  return type(observation)([(output_key, np.concatenate(parts))])


class Task(abc.ABC):
  """What an Environment asks of a task (dm_control's `control.Task`)."""

  @abc.abstractmethod
  def initialize_episode(self, physics):
    """Sets the state of the environment at the start of each episode."""

  @abc.abstractmethod
  def before_step(self, action, physics):
    """Updates the task from the action (usually: writes it to the controls)."""

  def after_step(self, physics):
    """Optional update after each physics step."""

  @abc.abstractmethod
  def action_spec(self, physics):
    """The spec of the actions the task accepts."""

  def step_spec(self, physics):
    """Optional spec of reward and discount."""
    raise NotImplementedError

  def observation_spec(self, physics):
    """Optional spec of the observations (default: derived from one)."""
    raise NotImplementedError

  @abc.abstractmethod
  def get_observation(self, physics):
    """The observation at the current state."""

  @abc.abstractmethod
  def get_reward(self, physics):
    """The reward at the current state."""

  def get_termination(self, physics):
    """None to continue the episode, else the discount of its LAST step."""
    return None
