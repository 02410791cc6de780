"""Tasks: a root entity plus reward, discount, termination and the action mapping."""

import abc
import collections
import copy

from dm_env import specs

from engine import physics as engine_physics

_MUJOCO_DEFAULT_TIMESTEP = 0.002


def _check_timesteps_divisible(control_timestep, physics_timestep):
  """The number of physics steps per control step.

  Raises:
    ValueError: `control_timestep` is not an integer multiple of `physics_timestep`.
  """
  ratio = control_timestep / physics_timestep
  steps = int(round(ratio))
  if abs(ratio - steps) > 1e-6:
    raise ValueError(
      "Control timestep should be an integer multiple of physics timestep"
      f": got {control_timestep!r} and {physics_timestep!r}"
    )
  return steps


class Task(metaclass=abc.ABCMeta):
  """Base class of Composer tasks: subclasses give `root_entity` and `get_reward`."""

  @property
  @abc.abstractmethod
  def root_entity(self):
    """The root Entity of the task's scene (usually an Arena)."""

  def iter_entities(self):
    return self.root_entity.iter_entities()

  @property
  def observables(self):
    """All observables: `task_observables`, then every entity's (fully qualified keys)."""
    observables = copy.copy(self.task_observables)
    for entity in self.root_entity.iter_entities():
      observables.update(entity.observables.as_dict())
    return observables

  @property
  def task_observables(self):
    """Observables of the task itself (not of an entity); override to add some."""
    return collections.OrderedDict()

  def _check_root_entity(self, callee_name):
    try:
      self.root_entity  # noqa: B018 (raises when not built yet)
    except Exception as effect:
      cause = RuntimeError(f"call to `{callee_name}` made before `root_entity` is available")
      raise effect from cause

  # ---- timesteps ----

  @property
  def control_timestep(self):
    """Seconds between agent actions (the physics timestep unless set)."""
    self._check_root_entity("control_timestep")
    if hasattr(self, "_control_timestep"):
      return self._control_timestep
    return self.physics_timestep

  @control_timestep.setter
  def control_timestep(self, new_value):
    self._check_root_entity("control_timestep")
    _check_timesteps_divisible(new_value, self.physics_timestep)
    self._control_timestep = new_value

  @property
  def physics_timestep(self):
    """Seconds per physics step: the root model's option.timestep (MuJoCo's 0.002 if unset)."""
    self._check_root_entity("physics_timestep")
    timestep = self.root_entity.mjcf_model.option.timestep
    return _MUJOCO_DEFAULT_TIMESTEP if timestep is None else timestep

  @physics_timestep.setter
  def physics_timestep(self, new_value):
    self._check_root_entity("physics_timestep")
    if hasattr(self, "_control_timestep"):
      _check_timesteps_divisible(self._control_timestep, new_value)
    self.root_entity.mjcf_model.option.timestep = new_value

  def set_timesteps(self, control_timestep, physics_timestep):
    """Sets both timesteps, checking that the first is a multiple of the second."""
    self._check_root_entity("set_timesteps")
    _check_timesteps_divisible(control_timestep, physics_timestep)
    self.root_entity.mjcf_model.option.timestep = physics_timestep
    self._control_timestep = control_timestep

  @property
  def physics_steps_per_control_step(self):
    return _check_timesteps_divisible(self.control_timestep, self.physics_timestep)

  # ---- specs ----

  def action_spec(self, physics):
    """A BoundedArray over the actuators' controls, named by the tab-joined actuator names."""
    names = [physics.model.id2name(i, "actuator") or str(i) for i in range(physics.model.nu)]
    spec = engine_physics.action_spec(physics)
    return specs.BoundedArray(
      shape=spec.shape,
      dtype=spec.dtype,
      minimum=spec.minimum,
      maximum=spec.maximum,
      name="\t".join(names),
    )

  def get_reward_spec(self):
    """A non-scalar reward spec, or None for the default scalar reward."""
    return None

  def get_discount_spec(self):
    """A non-scalar discount spec, or None for the default scalar discount."""
    return None

  # ---- hooks ----

  def initialize_episode_mjcf(self, random_state):
    """Edits the MJCF model before an episode (it is recompiled if it changed)."""

  def after_compile(self, physics, random_state):
    """Called after the model was compiled into `physics`."""

  def initialize_episode(self, physics, random_state):
    """Sets the initial physics state of an episode."""

  def before_step(self, physics, action, random_state):
    """Applies `action` as the actuator controls; overrides must still set the control."""
    del random_state
    physics.set_control(action)

  def before_substep(self, physics, action, random_state):
    """Called before each physics step (may change the controls)."""

  def after_substep(self, physics, random_state):
    """Called after each physics step."""

  def after_step(self, physics, random_state):
    """Called after each control step."""

  # ---- outcome ----

  @abc.abstractmethod
  def get_reward(self, physics):
    """The reward after a control step."""

  def should_terminate_episode(self, physics):
    """Whether the episode ends after this step."""
    del physics
    return False

  def get_discount(self, physics):
    """The discount after this step."""
    del physics
    return 1.0


class NullTask(Task):
  """A task around one entity with zero reward (for viewing and testing entities)."""

  def __init__(self, root_entity):
    self._root_entity = root_entity

  @property
  def root_entity(self):
    return self._root_entity

  def get_reward(self, physics):
    return 0.0
