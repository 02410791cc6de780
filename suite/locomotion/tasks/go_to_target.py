"""Walking to a target on the floor (dm_control's locomotion.tasks.go_to_target)."""

import numpy as np

import composer
from composer import variation
from composer.observation import observable
from composer.variation import distributions
from suite.locomotion.tasks import _shared

DEFAULT_DISTANCE_TOLERANCE_TO_TARGET = 1.0


class GoToTarget(composer.Task):
  """Rewards 1 while the walker's root is within `distance_tolerance` (horizontally) of a target
  site on the floor, else 0.

  With `moving_target`, once the walker has been rewarded `steps_before_moving_target` times the
  target moves: to a new draw of `target_spawn_position`, or, with `target_relative`, to a
  uniform draw within `target_relative_dist` of the walker along x and y. An episode fails
  (discount 0, termination) after a control step that ends with a non-foot geom of the walker
  touching the ground. The walker observes the target in its egocentric frame
  ('walker/target').

  Args:
    walker: a legacy locomotion walker (suite.locomotion.walkers).
    arena: a floor (suite.locomotion.arenas.Floor), or any arena with `size`, `regenerate` and
      `ground_geoms`.
    moving_target: whether the target moves after it was reached.
    target_relative: whether a moved target is placed relative to the walker.
    target_relative_dist: the range (m) of a relative target along x and y.
    steps_before_moving_target: rewarded steps before the target moves.
    distance_tolerance: the distance (m) to the target within which the reward is 1.
    target_spawn_position: 2 numbers, or a Variation drawing them; None draws uniformly over
      half the arena's `size` around the centre.
    walker_spawn_position: as `target_spawn_position`, for the walker.
    walker_spawn_rotation: a yaw (radians), or a Variation drawing it (None or 0: none).
    physics_timestep: seconds per physics step.
    control_timestep: seconds per control step, a multiple of `physics_timestep`.
  """

  def __init__(
    self,
    walker,
    arena,
    moving_target=False,
    target_relative=False,
    target_relative_dist=1.5,
    steps_before_moving_target=10,
    distance_tolerance=DEFAULT_DISTANCE_TOLERANCE_TO_TARGET,
    target_spawn_position=None,
    walker_spawn_position=None,
    walker_spawn_rotation=None,
    physics_timestep=0.005,
    control_timestep=0.025,
  ):
    name = type(self).__name__
    _shared.check_walker(walker, name, ("reinitialize_pose", "ground_contact_geoms"))
    _shared.check_arena(arena, name, ("size", "regenerate", "ground_geoms"))
    _shared.enable_walker_observables(walker, name, names=("sensors_touch",))
    self._arena = arena
    self._walker = walker
    self._walker.create_root_joints(self._arena.attach(self._walker))

    half_size = np.array(arena.size) / 2
    anywhere = distributions.Uniform(low=-half_size, high=half_size)
    self._target_spawn_position = (
      anywhere if target_spawn_position is None else target_spawn_position
    )
    self._walker_spawn_position = (
      anywhere if walker_spawn_position is None else walker_spawn_position
    )
    self._walker_spawn_rotation = walker_spawn_rotation

    self._distance_tolerance = distance_tolerance
    self._moving_target = moving_target
    self._target_relative = target_relative
    self._target_relative_dist = target_relative_dist
    self._steps_before_moving_target = steps_before_moving_target
    self._reward_step_counter = 0
    self._failure_termination = False

    self._target = self.root_entity.mjcf_model.worldbody.add(
      "site",
      name="target",
      type="sphere",
      pos=(0.0, 0.0, 0.0),
      size=(0.1,),
      rgba=(0.9, 0.6, 0.6, 1.0),
    )

    walker.observables.add_egocentric_vector(
      "target",
      observable.MJCFFeature("pos", self._target),
      origin_callable=lambda physics: physics.bind(walker.root_body).xpos,
    )

    self.set_timesteps(physics_timestep=physics_timestep, control_timestep=control_timestep)

  @property
  def root_entity(self):
    return self._arena

  def target_position(self, physics):
    """The target's position (a copy)."""
    return np.array(physics.bind(self._target).pos)

  def initialize_episode_mjcf(self, random_state):
    self._arena.regenerate(random_state=random_state)
    target_x, target_y = variation.evaluate(self._target_spawn_position, random_state=random_state)
    self._target.pos = [target_x, target_y, 0.0]

  def initialize_episode(self, physics, random_state):
    """The walker's initial pose, turned by the spawn rotation, then moved to the spawn position
    (drawn in that order)."""
    self._walker.reinitialize_pose(physics, random_state)
    quaternion = _shared.spawn_quaternion(self._walker_spawn_rotation, random_state)
    walker_x, walker_y = variation.evaluate(self._walker_spawn_position, random_state=random_state)
    self._walker.shift_pose(
      physics, position=[walker_x, walker_y, 0.0], quaternion=quaternion, rotate_velocity=True
    )
    self._failure_termination = False
    # dm_control counts the target site's id among the ground's geom ids; kept for parity
    target_id = physics.bind(self._target).element_id
    self._ground_contacts = _shared.GroundContacts(
      physics, self._walker, self._arena.ground_geoms, extra_ground_ids=(target_id,)
    )

  def should_terminate_episode(self, physics):
    del physics  # decided in after_step
    return self._failure_termination

  def get_discount(self, physics):
    del physics  # decided in after_step
    return 0.0 if self._failure_termination else 1.0

  def get_reward(self, physics):
    """1 within the distance tolerance (counting the step towards moving the target), else 0."""
    offset = physics.bind(self._target).pos[:2] - physics.bind(self._walker.root_body).xpos[:2]
    if not np.linalg.norm(offset) < self._distance_tolerance:
      return 0.0
    if self._moving_target:
      self._reward_step_counter += 1
    return 1.0

  def before_step(self, physics, action, random_state):
    self._walker.apply_action(physics, action, random_state)

  def after_step(self, physics, random_state):
    self._failure_termination = self._ground_contacts.touching(physics)
    if self._moving_target and self._reward_step_counter >= self._steps_before_moving_target:
      if self._target_relative:
        reach = np.array([self._target_relative_dist, self._target_relative_dist])
        target_x, target_y = (
          random_state.uniform(-reach, reach) + physics.bind(self._walker.root_body).xpos[:2]
        )
      else:
        target_x, target_y = variation.evaluate(
          self._target_spawn_position, random_state=random_state
        )
      physics.bind(self._target).pos = [target_x, target_y, 0.0]
      self._reward_step_counter = 0
