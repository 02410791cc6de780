"""Touching a target twice with the right pause between the touches (dm_control's
locomotion.tasks.reach)."""

import collections
import enum

import numpy as np

import composer
from composer.observation import observable
from suite.locomotion.tasks import _shared

DEFAULT_PHYSICS_TIMESTEP = 0.005
DEFAULT_CONTROL_TIMESTEP = 0.03

# the hand bodies of each walker family (left, right)
_HAND_BODIES = {"CMUHumanoid": ("lhand", "rhand"), "Rat": ("hand_L", "hand_R")}
# the position of the target before its first randomisation (x, y; z is the task's z_height)
_FIRST_TARGET_XY = (1.0, 1.0)


class TwoTouchState(enum.IntEnum):
  """The stages of a trial (the 'task_logic' observation)."""

  PRE_TOUCH = 0
  TOUCHED_ONCE = 1
  TOUCHED_TWICE = 2  # at the right time
  TOUCHED_TOO_SOON = 3
  NO_SECOND_TOUCH = 4


class TwoTouch(composer.Task):
  """Touch a target with a hand, then touch it again `touch_interval` s (within
  `interval_tolerance`) later.

  Each step is rewarded `aliveness_reward` plus 0.01 * `target_type_rewards[0]` times
  exp(-3 * the L1 distance from the nearer hand to the target); the first touch of a trial and
  a second touch in time each add `target_type_rewards[0]`. A second touch too soon, or none in
  time, starts a timeout of `failure_timeout` s; after a trial (and its timeout, or
  `reset_delay` s) the target moves for the next one. Episodes never terminate; discount 1.

  The target, built by `target_builders[0]` (after a shuffle of the builders when
  `shuffle_target_builders`) and named 'target_0_0', is placed `z_height` m up, uniformly within
  `target_area` (half-extents along x and y; default half the arena's `size`) of the centre.
  As in dm_control, the target's positions and the walker's random yaw are drawn from numpy's
  global generator (np.random), not from the environment's random state.

  Args:
    walker: a Rat or a CMU humanoid (suite.locomotion.walkers), or a subclass.
    arena: a floor (suite.locomotion.arenas.Floor), or any arena with `regenerate` (and
      `size` unless `target_area` is given; `spawn_positions` with
      `randomize_spawn_position`).
    target_builders: callables `builder(name=...)` returning a target entity with `geom`,
      `activated` (touched once, touched twice), `reset(physics)` and
      `_specific_collision_geom_ids` (set to the hands' geom ids), e.g. a partial of
      props.TargetSphereTwoTouch.
    target_type_rewards: the touch reward of each builder's targets.
    shuffle_target_builders: shuffle the builders (with the episode's random state) each
      episode.
    randomize_spawn_position: spawn at one of the arena's `spawn_positions`, drawn each episode.
    randomize_spawn_rotation: give the walker a uniform random yaw each episode.
    rotation_bias_factor: kept for dm_control's signature (unused).
    aliveness_reward: reward added at every step.
    touch_interval: the rewarded time (s) between the touches.
    interval_tolerance: the accepted deviation (s) from `touch_interval`.
    failure_timeout: the pause (s) after a failed trial.
    reset_delay: the pause (s) after a successful trial.
    z_height: the target's height (m).
    target_area: half-extents (x, y) of the target's area, or () for half the arena's size.
    physics_timestep: seconds per physics step.
    control_timestep: seconds per control step, a multiple of `physics_timestep`.
  """

  def __init__(
    self,
    walker,
    arena,
    target_builders,
    target_type_rewards,
    shuffle_target_builders=False,
    randomize_spawn_position=False,
    randomize_spawn_rotation=True,
    rotation_bias_factor=0,
    aliveness_reward=0.0,
    touch_interval=0.8,
    interval_tolerance=0.1,
    failure_timeout=1.2,
    reset_delay=0.0,
    z_height=0.14,
    target_area=(),
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
    control_timestep=DEFAULT_CONTROL_TIMESTEP,
  ):
    name = type(self).__name__
    _shared.check_walker(walker, name, ("reinitialize_pose",))
    kind = _shared.walker_kind(walker, name)
    left, right = (
      _shared.find_walker_element(walker, "body", body, name) for body in _HAND_BODIES[kind]
    )
    _shared.check_arena(
      arena,
      name,
      ("regenerate",)
      + (() if target_area else ("size",))
      + (("spawn_positions",) if randomize_spawn_position else ()),
    )
    self._target_builders = list(target_builders)
    if not self._target_builders or not all(callable(b) for b in self._target_builders):
      raise ValueError(
        f"{name} `target_builders` must be a non-empty sequence of callables "
        f"building targets, got {target_builders!r}"
      )
    self._target_type_rewards = tuple(target_type_rewards)
    if not self._target_type_rewards:
      raise ValueError(f"{name} `target_type_rewards` must give at least one reward")
    del rotation_bias_factor  # unused, as in dm_control
    _shared.enable_walker_observables(walker, name, names=("egocentric_camera",))

    self._walker = walker
    self._arena = arena
    self._walker.create_root_joints(self._arena.attach(self._walker))
    self._lhand_body, self._rhand_body = left, right
    self._lhand_geoms = left.find_all("geom")
    self._rhand_geoms = right.find_all("geom")

    self._target = None
    self._shuffle_target_builders = shuffle_target_builders
    self._randomize_spawn_position = randomize_spawn_position
    self._spawn_position = [0.0, 0.0]
    self._randomize_spawn_rotation = randomize_spawn_rotation
    self._aliveness_reward = aliveness_reward
    self._discount = 1.0
    self._touch_interval = touch_interval
    self._interval_tolerance = interval_tolerance
    self._failure_timeout = failure_timeout
    self._reset_delay = reset_delay
    self._z_height = z_height
    self._target_area = target_area if target_area else [arena.size[0] / 2, arena.size[1] / 2]
    self._target_position = (*_FIRST_TARGET_XY, z_height)
    self._state_logic = TwoTouchState.PRE_TOUCH
    self._must_randomize_targets = False

    self.set_timesteps(physics_timestep=physics_timestep, control_timestep=control_timestep)

    self._task_observables = collections.OrderedDict(
      task_logic=observable.Generic(lambda physics: np.array([self._state_logic]))
    )
    camera = self._walker.observables.egocentric_camera
    camera.height = camera.width = 64
    for obs in self._task_observables.values():
      obs.enabled = True

  @property
  def name(self):
    return "two_touch"

  @property
  def task_observables(self):
    return self._task_observables

  @property
  def root_entity(self):
    return self._arena

  def initialize_episode_mjcf(self, random_state):
    """A new target (from the first builder, after the optional shuffle) at the position drawn
    for the previous episode's target."""
    self._arena.regenerate(random_state)
    if self._target is not None:
      self._target.detach()
    if self._shuffle_target_builders:
      random_state.shuffle(self._target_builders)
    self._target = self._target_builders[0](name="target_0_0")
    self._arena.attach(self._target)
    self._target.geom.pos = self._target_position
    self._target.initialize_episode_mjcf(random_state)

  def _respawn_walker(self, physics, random_state):
    self._walker.reinitialize_pose(physics, random_state)
    if self._randomize_spawn_position:
      spawn_positions = self._arena.spawn_positions
      self._spawn_position = spawn_positions[random_state.randint(0, len(spawn_positions))]
    quaternion = None
    if self._randomize_spawn_rotation:
      rotation = 2 * np.pi * np.random.uniform()  # numpy's global generator, as dm_control
      quaternion = [np.cos(rotation / 2), 0, 0, np.sin(rotation / 2)]
    self._walker.shift_pose(
      physics,
      [self._spawn_position[0], self._spawn_position[1], 0.0],
      quaternion,
      rotate_velocity=True,
    )

  def _randomize_target(self, physics):
    """Moves the target to a uniform draw (numpy's global generator, as dm_control) over the
    target area, clears it and starts a new trial."""
    target_x = self._target_area[0] * np.random.uniform(-1.0, 1.0)
    target_y = self._target_area[1] * np.random.uniform(-1.0, 1.0)
    self._target_position = (target_x, target_y, self._z_height)
    self._target.reset(physics)
    physics.bind(self._target.geom).pos = self._target_position
    self._target_rewarded_once = False
    self._target_rewarded_twice = False
    self._first_touch_time = None
    self._second_touch_time = None
    self._do_time_out = False
    self._state_logic = TwoTouchState.PRE_TOUCH

  def initialize_episode(self, physics, random_state):
    self._respawn_walker(physics, random_state)
    self._state_logic = TwoTouchState.PRE_TOUCH
    self._discount = 1.0
    lhand_ids = set(physics.bind(self._lhand_geoms).element_id)
    rhand_ids = set(physics.bind(self._rhand_geoms).element_id)
    self._hand_geomids = lhand_ids | rhand_ids
    self._randomize_target(physics)
    self._must_randomize_targets = False
    # only touches by a hand count (the attribute dm_control's targets read)
    self._target._specific_collision_geom_ids = self._hand_geomids

  def before_step(self, physics, action, random_state):
    super().before_step(physics, action, random_state)
    if self._must_randomize_targets:
      self._randomize_target(physics)
      self._must_randomize_targets = False

  def should_terminate_episode(self, physics):
    del physics  # trials follow each other until the time limit
    return False

  def get_reward(self, physics):
    """The closeness reward, plus the touch rewards; advances the trial's stage."""
    target_reward = self._target_type_rewards[0]
    target_pos = physics.bind(self._target.geom).xpos
    lhand_reward, rhand_reward = (
      np.exp(-3.0 * np.abs(physics.bind(hand).xpos - target_pos).sum())
      for hand in (self._lhand_body, self._rhand_body)
    )
    closeness = np.maximum(lhand_reward, rhand_reward)
    reward = self._aliveness_reward + 0.01 * closeness * target_reward
    now = physics.time()
    touched_once, touched_twice = self._target.activated
    if self._state_logic == TwoTouchState.PRE_TOUCH:
      if touched_once and not self._target_rewarded_once:
        self._first_touch_time = now
        self._state_logic = TwoTouchState.TOUCHED_ONCE
        self._target_rewarded_once = True
        reward += target_reward
    elif self._state_logic == TwoTouchState.TOUCHED_ONCE:
      if touched_twice and not self._target_rewarded_twice:
        self._second_touch_time = now
        self._state_logic = TwoTouchState.TOUCHED_TWICE
        self._target_rewarded_twice = True
        interval = self._second_touch_time - self._first_touch_time
        if interval < self._touch_interval - self._interval_tolerance:
          self._do_time_out = True
          self._state_logic = TwoTouchState.TOUCHED_TOO_SOON
        elif interval <= self._touch_interval + self._interval_tolerance:
          reward += target_reward
      if now - self._first_touch_time > self._touch_interval + self._interval_tolerance:
        self._do_time_out = True
        self._state_logic = TwoTouchState.NO_SECOND_TOUCH
        self._second_touch_time = now
    elif self._do_time_out:
      if now > self._second_touch_time + self._failure_timeout:
        self._do_time_out = False
    elif now > self._second_touch_time + self._reset_delay:
      self._must_randomize_targets = True
    return reward

  def get_discount(self, physics):
    del physics  # never discounted
    return self._discount
