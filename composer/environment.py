"""The Composer RL environment: runs a Task's hooks around the physics, as dm_control does.

Episode reset:
  task.initialize_episode_mjcf, entity hooks, extra hooks      (MJCF stage)
  compile the model -- only when its tree or an attribute the engine cannot edit in place
  changed; otherwise the changed attributes are edited into the compiled model and the
  episode's physics takes its values and a reset
  task.after_compile, entity hooks, extra hooks; observation updater built and reset
  task.initialize_episode, ... (inside physics.reset_context)  (physics stage)
  observation updater reset; first observation
Control step:
  before_step (task applies the action), plan the observations; for each physics step:
  before_substep, physics.step, after_substep, observation update (but the last);
  after_step; last observation update; reward, discount, termination.
Each stage calls the task's hook, then the entities' (depth first), then the extra hooks.
"""

import copy
import enum
import logging
import weakref

import dm_env
import numpy as np

import mjcf
from composer import observation
from engine.physics import PhysicsError
from mjcf import edits as mjcf_edits
from mjcf import physics as mjcf_physics

_STEPS_LOGGING_INTERVAL = 10000

HOOK_NAMES = (
  "initialize_episode_mjcf",
  "after_compile",
  "initialize_episode",
  "before_step",
  "before_substep",
  "after_substep",
  "after_step",
)


def _empty():
  pass


def _empty_with_docstring():
  """Docstring."""


_TRIVIAL_CODE = {_empty.__code__.co_code, _empty_with_docstring.__code__.co_code}


def _callable_is_trivial(function):
  """True for a function whose body does nothing (such hooks are not called)."""
  code = getattr(function, "__code__", None)
  return code is not None and code.co_code in _TRIVIAL_CODE


class ObservationPadding(enum.Enum):
  """What fills a delayed observable's buffer before its first readings arrive."""

  INITIAL_VALUE = -1
  ZERO = 0


class EpisodeInitializationError(RuntimeError):
  """Raised by a hook when an episode cannot be initialized; the reset is retried."""


class _Hook:
  __slots__ = ("entity_hooks", "extra_hooks")

  def __init__(self):
    self.entity_hooks = []
    self.extra_hooks = []


class _EnvironmentHooks:
  """Calls a task's hooks, its entities' non-trivial hooks and the extra hooks in order."""

  def __init__(self, task):
    self._task = task
    self._episode_step_count = 0
    self._hooks = {name: _Hook() for name in HOOK_NAMES}
    self.refresh_entity_hooks()

  def refresh_entity_hooks(self):
    """Collects the entities' hooks that do something (the entity tree may have changed)."""
    entities = list(self._task.root_entity.iter_entities())
    for name, hook in self._hooks.items():
      methods = (getattr(entity, name) for entity in entities)
      hook.entity_hooks = [m for m in methods if not _callable_is_trivial(m)]

  def add_extra_hook(self, hook_name, hook_callable):
    if hook_name not in HOOK_NAMES:
      raise ValueError(f"{hook_name!r} is not a valid hook name")
    if not callable(hook_callable):
      raise ValueError(f"{hook_callable!r} is not a callable")
    self._hooks[hook_name].extra_hooks.append(hook_callable)

  def _run(self, name, task_args, entity_args, extra_args):
    getattr(self._task, name)(*task_args)
    hook = self._hooks[name]
    for entity_hook in hook.entity_hooks:
      entity_hook(*entity_args)
    for extra_hook in hook.extra_hooks:
      extra_hook(*extra_args)

  def initialize_episode_mjcf(self, random_state):
    args = (random_state,)
    self._run("initialize_episode_mjcf", args, args, args)

  def after_compile(self, physics, random_state):
    args = (physics, random_state)
    self._run("after_compile", args, args, args)

  def initialize_episode(self, physics, random_state):
    self._episode_step_count = 0
    args = (physics, random_state)
    self._run("initialize_episode", args, args, args)

  def before_step(self, physics, action, random_state):
    self._episode_step_count += 1
    if self._episode_step_count % _STEPS_LOGGING_INTERVAL == 0:
      logging.info("The current episode has been running for %d steps.", self._episode_step_count)
    with_action = (physics, action, random_state)
    self._run("before_step", with_action, (physics, random_state), with_action)

  def before_substep(self, physics, action, random_state):
    with_action = (physics, action, random_state)
    self._run("before_substep", with_action, (physics, random_state), with_action)

  def after_substep(self, physics, random_state):
    args = (physics, random_state)
    self._run("after_substep", args, args, args)

  def after_step(self, physics, random_state):
    args = (physics, random_state)
    self._run("after_step", args, args, args)


class _CommonEnvironment:
  """Physics compilation, hooks and observation updater shared by Composer environments."""

  def __init__(
    self,
    task,
    time_limit=float("inf"),
    random_state=None,
    n_sub_steps=None,
    raise_exception_on_physics_error=True,
    strip_singleton_obs_buffer_dim=False,
    delayed_observation_padding=ObservationPadding.ZERO,
    legacy_step=True,
  ):
    if not isinstance(delayed_observation_padding, ObservationPadding):
      raise ValueError(
        "`delayed_observation_padding` should be an `ObservationPadding` "
        f"enum value: got {delayed_observation_padding}"
      )
    self._task = task
    if isinstance(random_state, np.random.RandomState):
      self._random_state = random_state
    else:
      self._random_state = np.random.RandomState(random_state)
    self._hooks = _EnvironmentHooks(task)
    self._time_limit = time_limit
    self._raise_exception_on_physics_error = raise_exception_on_physics_error
    self._strip_singleton_obs_buffer_dim = strip_singleton_obs_buffer_dim
    self._delayed_observation_padding = delayed_observation_padding
    self._legacy_step = legacy_step
    if n_sub_steps is not None:
      logging.warning(
        "The `n_sub_steps` argument is deprecated: set the task's `control_timestep` instead."
      )
    self._overridden_n_sub_steps = n_sub_steps
    self._physics = None
    self._model_editor = None  # the compiled model, kept pristine for edits
    self._edit_tracker = None  # what changed in the MJCF since
    self.num_compilations = 0
    self._recompile_physics_and_update_observables()

  def add_extra_hook(self, hook_name, hook_callable):
    """Adds a callable run after the task's and entities' hooks at `hook_name`."""
    self._hooks.add_extra_hook(hook_name, hook_callable)

  def _recompile_physics_and_update_observables(self):
    """A new physics for the task's current model, then after_compile and observables."""
    self._recompile_physics()
    self._physics_proxy = weakref.proxy(self._physics)
    if self._overridden_n_sub_steps is not None:
      self._n_sub_steps = self._overridden_n_sub_steps
    else:
      self._n_sub_steps = self._task.physics_steps_per_control_step
    self._hooks.refresh_entity_hooks()
    self._hooks.after_compile(self._physics_proxy, self._random_state)
    self._observation_updater = self._make_observation_updater()
    self._observation_updater.reset(self._physics_proxy, self._random_state)

  def _recompile_physics(self):
    """Brings the episode's physics up to date with the task's MJCF, starting fresh.

    The model is compiled once and kept pristine; the episode runs on a physics of its own.
    Before each later episode, the attributes changed since (soccer resizes its pitch) are
    edited into the pristine model where the engine can do that exactly as a recompilation
    would (`engine.compiler.edit`), and the episode's physics takes the pristine model's values
    and a reset: what dm_control gets by recompiling, without the recompilation. A change of
    the tree, or of an attribute the engine cannot edit, recompiles.
    """
    model = self._task.root_entity.mjcf_model
    tracker, editor = self._edit_tracker, self._model_editor
    if tracker is not None and tracker.mjcf_model is model:
      edits = tracker.edits(editor.model)
      if edits is not None and editor.apply(edits):
        tracker.snapshot()
        self._physics.reload_model_values(editor.model)
        self._physics.legacy_step = self._legacy_step
        return
    editor = mjcf_physics.compile_editable(model)
    tracker = mjcf_edits.EditTracker(model)
    tracker.snapshot()
    self._edit_tracker, self._model_editor = tracker, editor
    self.num_compilations += 1
    self._physics = mjcf.Physics.from_model(copy.deepcopy(editor.model))
    self._physics.legacy_step = self._legacy_step

  def _make_observation_updater(self):
    pad = self._delayed_observation_padding == ObservationPadding.INITIAL_VALUE
    return observation.Updater(
      self._task.observables,
      self._task.physics_steps_per_control_step,
      self._strip_singleton_obs_buffer_dim,
      pad,
    )

  @property
  def physics(self):
    """A weak proxy to the current physics (replaced at each recompilation)."""
    return self._physics_proxy

  @property
  def task(self):
    return self._task

  @property
  def random_state(self):
    return self._random_state

  def control_timestep(self):
    """Seconds between agent actions."""
    if self._overridden_n_sub_steps is not None:
      return self.physics.timestep() * self._overridden_n_sub_steps
    return self.task.control_timestep


class Environment(_CommonEnvironment, dm_env.Environment):
  """A dm_env environment running a Composer task."""

  def __init__(
    self,
    task,
    time_limit=float("inf"),
    random_state=None,
    n_sub_steps=None,
    raise_exception_on_physics_error=True,
    strip_singleton_obs_buffer_dim=False,
    max_reset_attempts=1,
    recompile_mjcf_every_episode=True,
    fixed_initial_state=False,
    delayed_observation_padding=ObservationPadding.ZERO,
    legacy_step=True,
  ):
    """Arguments as dm_control's composer.Environment.

    Args:
      task: the composer.Task.
      time_limit: seconds after which an episode ends.
      random_state: seed or np.random.RandomState for every hook and observable.
      n_sub_steps: deprecated override of physics steps per control step.
      raise_exception_on_physics_error: when False a PhysicsError ends the episode
        (reward 0, discount 0) instead of propagating.
      strip_singleton_obs_buffer_dim: observations with buffer_size 1 have no buffer axis.
      max_reset_attempts: resets tried when hooks raise EpisodeInitializationError.
      recompile_mjcf_every_episode: when False the MJCF hooks (and compilation) run only
        at the first reset.
      fixed_initial_state: every reset starts from the same random state.
      delayed_observation_padding: ObservationPadding of buffers before readings arrive.
      legacy_step: dm_control's step order (see engine.Physics.step).
    """
    super().__init__(
      task=task,
      time_limit=time_limit,
      random_state=random_state,
      n_sub_steps=n_sub_steps,
      raise_exception_on_physics_error=raise_exception_on_physics_error,
      strip_singleton_obs_buffer_dim=strip_singleton_obs_buffer_dim,
      delayed_observation_padding=delayed_observation_padding,
      legacy_step=legacy_step,
    )
    self._max_reset_attempts = max_reset_attempts
    self._recompile_mjcf_every_episode = recompile_mjcf_every_episode
    self._mjcf_never_compiled = True
    self._fixed_initial_state = fixed_initial_state
    self._fixed_random_state = self._random_state.get_state()
    self._reset_next_step = True

  def reset(self):
    """Starts an episode, retrying on EpisodeInitializationError up to max_reset_attempts."""
    failed_attempts = 0
    while True:
      try:
        return self._reset_attempt()
      except EpisodeInitializationError as error:
        failed_attempts += 1
        if failed_attempts >= self._max_reset_attempts:
          raise
        logging.error("Error during episode reset: %r", error)

  def _reset_attempt(self):
    if self._recompile_mjcf_every_episode or self._mjcf_never_compiled:
      if self._fixed_initial_state:
        self._random_state.set_state(self._fixed_random_state)
      self._hooks.initialize_episode_mjcf(self._random_state)
      self._recompile_physics_and_update_observables()
      self._mjcf_never_compiled = False
    if self._fixed_initial_state:
      self._random_state.set_state(self._fixed_random_state)
    with self._physics.reset_context():
      self._hooks.initialize_episode(self._physics_proxy, self._random_state)
    self._observation_updater.reset(self._physics_proxy, self._random_state)
    self._reset_next_step = False
    return dm_env.TimeStep(
      step_type=dm_env.StepType.FIRST,
      reward=None,
      discount=None,
      observation=self._observation_updater.get_observation(),
    )

  def step(self, action):
    """One control step (or a reset if the last step ended the episode)."""
    if self._reset_next_step:
      self._reset_next_step = False
      return self.reset()
    physics, random_state = self._physics_proxy, self._random_state
    updater = self._observation_updater
    self._hooks.before_step(physics, action, random_state)
    updater.prepare_for_next_control_step()
    physics_is_divergent = False
    try:
      for i in range(self._n_sub_steps):
        self._substep(action)
        if i < self._n_sub_steps - 1:
          updater.update()
    except PhysicsError as error:
      if self._raise_exception_on_physics_error:
        raise
      logging.warning(error)
      physics_is_divergent = True
    self._hooks.after_step(physics, random_state)
    updater.update()
    if physics_is_divergent:
      reward, discount, terminating = 0.0, 0.0, True
    else:
      reward = self._task.get_reward(physics)
      discount = self._task.get_discount(physics)
      terminating = (
        self._task.should_terminate_episode(physics) or self._physics.time() >= self._time_limit
      )
    obs = updater.get_observation()
    if terminating:
      self._reset_next_step = True
      return dm_env.TimeStep(dm_env.StepType.LAST, reward, discount, obs)
    return dm_env.TimeStep(dm_env.StepType.MID, reward, discount, obs)

  def _substep(self, action):
    self._hooks.before_substep(self._physics_proxy, action, self._random_state)
    self._physics.step()
    self._hooks.after_substep(self._physics_proxy, self._random_state)

  def close(self):
    self._physics = None

  def action_spec(self):
    return self._task.action_spec(self._physics_proxy)

  def reward_spec(self):
    spec = self._task.get_reward_spec()
    return super().reward_spec() if spec is None else spec

  def discount_spec(self):
    spec = self._task.get_discount_spec()
    return super().discount_spec() if spec is None else spec

  def observation_spec(self):
    return self._observation_updater.observation_spec()
