"""Running along a corridor at a target speed (dm_control's locomotion.tasks.corridors)."""

import numbers

import composer
from composer import variation
from suite.locomotion.tasks import _shared
from suite.utils import rewards

# the near and far clipping planes of the corridor scenes (metres)
_ZNEAR = 0.00025
_ZFAR = 4.0


class RunThroughCorridor(composer.Task):
  """Rewards the walker's forward (x) speed: 1 at `target_velocity`, falling linearly to 0 at
  speeds 0 and twice the target.

  An episode fails (discount 0, termination) after a control step that ends with a non-foot
  geom of the walker touching the ground (when `contact_termination`) or with an end effector
  lower than `terminate_at_height` (unless it is None).

  Args:
    walker: a legacy locomotion walker (suite.locomotion.walkers).
    arena: a corridor (suite.locomotion.arenas), or any arena with `regenerate` and
      `ground_geoms`.
    walker_spawn_position: 3 numbers, or a Variation drawing them: the walker's offset from its
      initial pose.
    walker_spawn_rotation: a yaw (radians), or a Variation drawing it, applied to the initial
      pose (None or 0: no rotation).
    target_velocity: the rewarded speed (m/s), non-negative.
    contact_termination: end the episode on a non-foot ground contact.
    terminate_at_height: end the episode when an end effector is below this height, or None.
    physics_timestep: seconds per physics step.
    control_timestep: seconds per control step, a multiple of `physics_timestep`.
  """

  def __init__(
    self,
    walker,
    arena,
    walker_spawn_position=(0, 0, 0),
    walker_spawn_rotation=None,
    target_velocity=3.0,
    contact_termination=True,
    terminate_at_height=-0.5,
    physics_timestep=0.005,
    control_timestep=0.025,
  ):
    name = type(self).__name__
    _shared.check_walker(
      walker, name, ("reinitialize_pose", "ground_contact_geoms", "end_effectors")
    )
    _shared.check_arena(arena, name, ("regenerate", "ground_geoms"))
    if (
      not isinstance(target_velocity, numbers.Real)
      or isinstance(target_velocity, bool)
      or target_velocity < 0
    ):
      raise ValueError(
        f"{name} `target_velocity` must be a non-negative speed (m/s), got {target_velocity!r}"
      )
    _shared.enable_walker_observables(walker, name, names=("sensors_touch", "egocentric_camera"))
    self._arena = arena
    self._walker = walker
    self._walker.create_root_joints(self._arena.attach(self._walker))
    self._walker_spawn_position = walker_spawn_position
    self._walker_spawn_rotation = walker_spawn_rotation
    self._vel = target_velocity
    self._contact_termination = contact_termination
    self._terminate_at_height = terminate_at_height
    self._failure_termination = False
    self.set_timesteps(physics_timestep=physics_timestep, control_timestep=control_timestep)

  @property
  def root_entity(self):
    return self._arena

  def initialize_episode_mjcf(self, random_state):
    self._arena.regenerate(random_state)
    self._arena.mjcf_model.visual.map.znear = _ZNEAR
    self._arena.mjcf_model.visual.map.zfar = _ZFAR

  def initialize_episode(self, physics, random_state):
    """The walker's initial pose, turned by the spawn rotation and moved by the spawn position
    (drawn in that order)."""
    self._walker.reinitialize_pose(physics, random_state)
    quaternion = _shared.spawn_quaternion(self._walker_spawn_rotation, random_state)
    position = variation.evaluate(self._walker_spawn_position, random_state=random_state)
    self._walker.shift_pose(physics, position=position, quaternion=quaternion, rotate_velocity=True)
    self._failure_termination = False
    self._ground_contacts = _shared.GroundContacts(physics, self._walker, self._arena.ground_geoms)

  def before_step(self, physics, action, random_state):
    self._walker.apply_action(physics, action, random_state)

  def after_step(self, physics, random_state):
    del random_state  # deterministic
    self._failure_termination = (
      self._contact_termination and self._ground_contacts.touching(physics)
    ) or (
      self._terminate_at_height is not None
      and bool(
        (physics.bind(self._walker.end_effectors).xpos[:, -1] < self._terminate_at_height).any()
      )
    )

  def get_reward(self, physics):
    forward_speed = physics.bind(self._walker.root_body).subtree_linvel[0]
    return rewards.tolerance(
      forward_speed, (self._vel, self._vel), margin=self._vel, sigmoid="linear", value_at_margin=0.0
    )

  def should_terminate_episode(self, physics):
    del physics  # decided in after_step
    return self._failure_termination

  def get_discount(self, physics):
    del physics  # decided in after_step
    return 0.0 if self._failure_termination else 1.0
