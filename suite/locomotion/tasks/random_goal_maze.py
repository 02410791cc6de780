"""Finding goals in a maze (dm_control.locomotion.tasks.random_goal_maze).

Every episode the maze arena is regenerated, the walker is put on one of its spawn cells (facing
a random direction, optionally biased towards the longest free view) and targets are put on its
target cells. The tasks differ in what is rewarded: nothing but being alive (`NullGoalMaze`),
one target reached repeatedly (`RepeatSingleGoalMaze`, optionally with smaller sub-targets),
or every target of a set, possibly of several kinds worth different rewards
(`ManyGoalsMaze`, `ManyHeterogeneousGoalsMaze`). Episodes fail (discount 0) when the walker's
aliveness drops below a threshold or, with `contact_termination`, when a non-foot geom of the
walker touches the ground.
"""

import collections
import itertools

import numpy as np

import composer
import engine
import mjcf
from composer.observation import observable as observable_lib
from suite.locomotion.props import target_sphere

_NUM_RAYS = 10

# aliveness is in [-1, 0]
DEFAULT_ALIVE_THRESHOLD = -0.5
DEFAULT_PHYSICS_TIMESTEP = 0.001
DEFAULT_CONTROL_TIMESTEP = 0.025


class NullGoalMaze(composer.Task):
  """A walker in a maze, rewarded `aliveness_reward` per step; the base of the maze tasks.

  Args:
    walker: a legacy locomotion walker (suite.locomotion.walkers).
    maze_arena: a `suite.locomotion.arenas.MazeWithTargets`.
    randomize_spawn_position: spawn on a random spawn cell (else on the first one).
    randomize_spawn_rotation: spawn facing a random direction (else unrotated).
    rotation_bias_factor: >= 0; 0 draws the heading uniformly, larger values concentrate it
      on the direction of the longest of 10 horizontal rays cast from the spawn cell.
    aliveness_reward: reward per step.
    aliveness_threshold: the episode fails when the walker's aliveness drops below it.
    contact_termination: the episode fails when a non-foot geom touches the ground.
    enable_global_task_observables: adds observables of global information: the maze layout,
      the walker's world position and orientation, and its maze cell.
    physics_timestep, control_timestep: seconds per physics and control step.
  """

  def __init__(
    self,
    walker,
    maze_arena,
    randomize_spawn_position=True,
    randomize_spawn_rotation=True,
    rotation_bias_factor=0,
    aliveness_reward=0.0,
    aliveness_threshold=DEFAULT_ALIVE_THRESHOLD,
    contact_termination=True,
    enable_global_task_observables=False,
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
    control_timestep=DEFAULT_CONTROL_TIMESTEP,
  ):
    self._walker = walker
    self._maze_arena = maze_arena
    self._walker.create_root_joints(self._maze_arena.attach(self._walker))
    self._randomize_spawn_position = randomize_spawn_position
    self._randomize_spawn_rotation = randomize_spawn_rotation
    self._rotation_bias_factor = rotation_bias_factor
    self._aliveness_reward = aliveness_reward
    self._aliveness_threshold = aliveness_threshold
    self._contact_termination = contact_termination
    self._discount = 1.0
    self.set_timesteps(physics_timestep=physics_timestep, control_timestep=control_timestep)

    observables = self._walker.observables
    observables.egocentric_camera.height = 64
    observables.egocentric_camera.width = 64
    for obs in (
      observables.proprioception + observables.kinematic_sensors + observables.dynamic_sensors
    ):
      obs.enabled = True
    observables.egocentric_camera.enabled = True

    self._task_observables = collections.OrderedDict()
    if enable_global_task_observables:
      self._task_observables.update(self._global_observables())

  def _global_observables(self):
    """The maze layout and the walker's world pose and maze cell, as observables."""

    def walker_position(physics):
      return physics.bind(self._walker.root_body).xpos

    def walker_orientation(physics):
      return np.reshape(physics.bind(self._walker.root_body).xmat, (3, 3))

    def walker_cell(physics):
      # rounds half-cells away from the centre, then counts from the maze's first cell
      xy = physics.bind(self._walker.root_body).xpos[:-1]
      scale = self._maze_arena.xy_scale
      from_centre = ((xy + np.sign(xy) * scale / 2) / scale).astype(int)
      maze = self._maze_arena.maze
      return from_centre + np.array([(maze.width - 1) / 2, (maze.height - 1) / 2])

    entries = (
      ("maze_layout", lambda _: self._maze_arena.maze.entity_layer),
      ("absolute_position", walker_position),
      ("absolute_orientation", walker_orientation),
      ("location_in_maze", walker_cell),
    )
    out = collections.OrderedDict()
    for key, function in entries:
      out[key] = observable_lib.Generic(function)
      out[key].enabled = True
    return out

  @property
  def task_observables(self):
    return self._task_observables

  @property
  def name(self):
    return "goal_maze"

  @property
  def root_entity(self):
    return self._maze_arena

  def initialize_episode_mjcf(self, unused_random_state):
    self._maze_arena.regenerate()

  def _spawn_heading(self, physics, random_state):
    """A yaw: around the longest free ray from the spawn cell, spread by the bias factor."""
    # lift the walker out of the rays' way while casting them
    self._walker.shift_pose(physics, [0.0, 0.0, 100.0])
    distances = []
    hit = np.array([-1], dtype=np.intc)
    for i in range(_NUM_RAYS):
      theta = 2 * np.pi * i / _NUM_RAYS
      origin = np.array([self._spawn_position[0], self._spawn_position[1], 0.1])
      direction = np.array([np.cos(theta), np.sin(theta), 0])
      distances.append(
        engine.mj_ray(physics.model.ptr, physics.data.ptr, origin, direction, None, 1, -1, hit)
      )
    self._walker.shift_pose(physics, [0.0, 0.0, -100.0])

    def biased(x):
      # maps [-1, 1] onto itself, squeezing values towards 0 as the bias grows
      return np.tanh((1 + self._rotation_bias_factor) * np.arctanh(x))

    longest = 2 * np.pi * np.argmax(distances) / _NUM_RAYS
    return longest + np.pi * (1 + biased(random_state.uniform(-1, 1)))

  def _respawn(self, physics, random_state):
    self._walker.reinitialize_pose(physics, random_state)
    spawns = self._maze_arena.spawn_positions
    if not spawns:
      raise ValueError(
        "The maze has no spawn positions (no {!r} cell in its entity layer): "
        "it is too small for its rooms or has no spawns per room".format("P")
      )
    if self._randomize_spawn_position:
      self._spawn_position = spawns[random_state.randint(0, len(spawns))]
    else:
      self._spawn_position = spawns[0]
    quat = None
    if self._randomize_spawn_rotation:
      rotation = self._spawn_heading(physics, random_state)
      quat = [np.cos(rotation / 2), 0, 0, np.sin(rotation / 2)]
    self._walker.shift_pose(
      physics, [self._spawn_position[0], self._spawn_position[1], 0.0], quat, rotate_velocity=True
    )

  def initialize_episode(self, physics, random_state):
    super().initialize_episode(physics, random_state)
    self._respawn(physics, random_state)
    self._discount = 1.0
    feet = set(self._walker.ground_contact_geoms)
    non_feet = [geom for geom in self._walker.mjcf_model.find_all("geom") if geom not in feet]
    self._walker_nonfoot_geomids = set(physics.bind(non_feet).element_id)
    self._ground_geomids = set(physics.bind(self._maze_arena.ground_geoms).element_id)

  def _is_disallowed_contact(self, contact):
    walker, ground = self._walker_nonfoot_geomids, self._ground_geomids
    return (contact.geom1 in walker and contact.geom2 in ground) or (
      contact.geom1 in ground and contact.geom2 in walker
    )

  def after_step(self, physics, random_state):
    self._failure_termination = bool(
      self._contact_termination
      and any(self._is_disallowed_contact(contact) for contact in physics.data.contact)
    )

  def should_terminate_episode(self, physics):
    if self._walker.aliveness(physics) < self._aliveness_threshold:
      self._failure_termination = True
    if self._failure_termination:
      self._discount = 0.0
      return True
    return False

  def get_reward(self, physics):
    del physics
    return self._aliveness_reward

  def get_discount(self, physics):
    del physics
    return self._discount


def _check_targets(arena, needed, what):
  count = len(arena.target_positions)
  if count < needed:
    raise ValueError(
      "The maze has {} target position(s) ({!r} cells), fewer than the {} {} needs: make the "
      "maze larger or ask for more targets per room".format(count, "G", needed, what)
    )


class RepeatSingleGoalMaze(NullGoalMaze):
  """One target on a random target cell; reaching it gives `target_reward_scale`.

  After a reach the walker is respawned (and, with `regenerate_maze_on_repeat`, the maze and
  target redrawn) up to `max_repeats` times; the reach after that ends the episode. Other
  arguments as `NullGoalMaze`; `target` defaults to a `TargetSphere`. With
  `enable_global_task_observables` the walker also observes the target egocentrically.
  """

  def __init__(
    self,
    walker,
    maze_arena,
    target=None,
    target_reward_scale=1.0,
    randomize_spawn_position=True,
    randomize_spawn_rotation=True,
    rotation_bias_factor=0,
    aliveness_reward=0.0,
    aliveness_threshold=DEFAULT_ALIVE_THRESHOLD,
    contact_termination=True,
    max_repeats=0,
    enable_global_task_observables=False,
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
    control_timestep=DEFAULT_CONTROL_TIMESTEP,
    regenerate_maze_on_repeat=False,
  ):
    super().__init__(
      walker=walker,
      maze_arena=maze_arena,
      randomize_spawn_position=randomize_spawn_position,
      randomize_spawn_rotation=randomize_spawn_rotation,
      rotation_bias_factor=rotation_bias_factor,
      aliveness_reward=aliveness_reward,
      aliveness_threshold=aliveness_threshold,
      contact_termination=contact_termination,
      enable_global_task_observables=enable_global_task_observables,
      physics_timestep=physics_timestep,
      control_timestep=control_timestep,
    )
    if target is None:
      target = target_sphere.TargetSphere()
    self._target = target
    self._rewarded_this_step = False
    self._maze_arena.attach(target)
    self._target_reward_scale = target_reward_scale
    self._max_repeats = max_repeats
    self._targets_obtained = 0
    self._regenerate_maze_on_repeat = regenerate_maze_on_repeat
    if enable_global_task_observables:

      def target_position(physics, target=target):
        return physics.bind(target.geom).xpos

      walker.observables.add_egocentric_vector(
        "target_0",
        observable_lib.Generic(target_position),
        origin_callable=lambda physics: physics.bind(walker.root_body).xpos,
      )

  def initialize_episode_mjcf(self, random_state):
    super().initialize_episode_mjcf(random_state)
    _check_targets(self._maze_arena, 1, type(self).__name__)
    positions = self._maze_arena.target_positions
    self._target_position = positions[random_state.randint(0, len(positions))]
    mjcf.get_attachment_frame(self._target.mjcf_model).pos = self._target_position

  def initialize_episode(self, physics, random_state):
    super().initialize_episode(physics, random_state)
    self._rewarded_this_step = False
    self._targets_obtained = 0

  def after_step(self, physics, random_state):
    super().after_step(physics, random_state)
    self._rewarded_this_step = self._target.activated
    if not self._target.activated:
      return
    self._targets_obtained += 1
    if self._targets_obtained <= self._max_repeats:
      if self._regenerate_maze_on_repeat:
        self.initialize_episode_mjcf(random_state)
        self._target.set_pose(physics, self._target_position)
      self._respawn(physics, random_state)
      self._target.reset(physics)

  def should_terminate_episode(self, physics):
    if super().should_terminate_episode(physics):
      return True
    return self._targets_obtained > self._max_repeats

  def get_reward(self, physics):
    del physics
    target_reward = self._target_reward_scale if self._rewarded_this_step else 0.0
    return target_reward + self._aliveness_reward


class ManyHeterogeneousGoalsMaze(NullGoalMaze):
  """Targets of several kinds on every target cell; each pays its kind's reward once.

  `target_builders[k](name=...)` makes a target of kind k, worth `target_type_rewards[k]`;
  the cells are shared between kinds in `target_type_proportions` (rounded down, the remainder
  going to the kinds furthest below their share). With `shuffle_target_builders` the builders
  are shuffled each episode (kinds keep their rewards). The episode ends successfully once
  every target has been reached. Other arguments as `NullGoalMaze`.
  """

  def __init__(
    self,
    walker,
    maze_arena,
    target_builders,
    target_type_rewards,
    target_type_proportions,
    shuffle_target_builders=False,
    randomize_spawn_position=True,
    randomize_spawn_rotation=True,
    rotation_bias_factor=0,
    aliveness_reward=0.0,
    aliveness_threshold=DEFAULT_ALIVE_THRESHOLD,
    contact_termination=True,
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
    control_timestep=DEFAULT_CONTROL_TIMESTEP,
  ):
    if not len(target_builders) == len(target_type_rewards) == len(target_type_proportions):
      raise ValueError(
        "`target_builders`, `target_type_rewards` and `target_type_proportions` must have "
        "one entry per target kind: got {}, {} and {}".format(
          len(target_builders), len(target_type_rewards), len(target_type_proportions)
        )
      )
    super().__init__(
      walker=walker,
      maze_arena=maze_arena,
      randomize_spawn_position=randomize_spawn_position,
      randomize_spawn_rotation=randomize_spawn_rotation,
      rotation_bias_factor=rotation_bias_factor,
      aliveness_reward=aliveness_reward,
      aliveness_threshold=aliveness_threshold,
      contact_termination=contact_termination,
      physics_timestep=physics_timestep,
      control_timestep=control_timestep,
    )
    self._active_targets = []
    self._target_builders = target_builders
    self._target_type_rewards = tuple(target_type_rewards)
    proportions = np.array(target_type_proportions, dtype=float)
    self._target_type_fractions = proportions / np.sum(proportions)
    self._shuffle_target_builders = shuffle_target_builders

  def _get_targets(self, total_target_count, random_state):
    """New targets, a list per kind, `total_target_count` in all."""
    counts = np.array(
      [int(fraction * total_target_count) for fraction in self._target_type_fractions]
    )
    shortfall = self._target_type_fractions - counts / float(total_target_count)
    # top up kinds from the one furthest below its share
    by_shortfall = list(np.argsort(shortfall))
    total = np.sum(counts)
    while total < total_target_count:
      counts[by_shortfall.pop()] += 1
      total += 1
    if self._shuffle_target_builders:
      random_state.shuffle(self._target_builders)
    return [
      [self._target_builders[kind](name="target_{}_{}".format(kind, i)) for i in range(count)]
      for kind, count in enumerate(counts)
    ]

  def initialize_episode_mjcf(self, random_state):
    super().initialize_episode_mjcf(random_state)
    _check_targets(self._maze_arena, 1, type(self).__name__)
    for target in itertools.chain(*self._active_targets):
      target.detach()
    positions = list(self._maze_arena.target_positions)
    random_state.shuffle(positions)
    all_targets = self._get_targets(len(positions), random_state)
    for position, target in zip(positions, itertools.chain(*all_targets)):
      self._maze_arena.attach(target)
      mjcf.get_attachment_frame(target.mjcf_model).pos = position
      target.initialize_episode_mjcf(random_state)
    self._active_targets = all_targets
    self._target_rewarded = [[False] * len(targets) for targets in all_targets]

  def get_reward(self, physics):
    del physics
    reward = self._aliveness_reward
    for kind, targets in enumerate(self._active_targets):
      for i, target in enumerate(targets):
        if target.activated and not self._target_rewarded[kind][i]:
          reward += self._target_type_rewards[kind]
          self._target_rewarded[kind][i] = True
    return reward

  def should_terminate_episode(self, physics):
    if super().should_terminate_episode(physics):
      return True
    return all(target.activated for target in itertools.chain(*self._active_targets))


class ManyGoalsMaze(ManyHeterogeneousGoalsMaze):
  """Targets from `target_builder` on every target cell, each worth `target_reward_scale`
  once; the episode ends when all are reached. Other arguments as `NullGoalMaze`."""

  def __init__(
    self,
    walker,
    maze_arena,
    target_builder,
    target_reward_scale=1.0,
    randomize_spawn_position=True,
    randomize_spawn_rotation=True,
    rotation_bias_factor=0,
    aliveness_reward=0.0,
    aliveness_threshold=DEFAULT_ALIVE_THRESHOLD,
    contact_termination=True,
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
    control_timestep=DEFAULT_CONTROL_TIMESTEP,
  ):
    super().__init__(
      walker=walker,
      maze_arena=maze_arena,
      target_builders=[target_builder],
      target_type_rewards=[target_reward_scale],
      target_type_proportions=[1],
      randomize_spawn_position=randomize_spawn_position,
      randomize_spawn_rotation=randomize_spawn_rotation,
      rotation_bias_factor=rotation_bias_factor,
      aliveness_reward=aliveness_reward,
      aliveness_threshold=aliveness_threshold,
      contact_termination=contact_termination,
      physics_timestep=physics_timestep,
      control_timestep=control_timestep,
    )


class RepeatSingleGoalMazeAugmentedWithTargets(RepeatSingleGoalMaze):
  """`RepeatSingleGoalMaze` with `main_target`, plus `num_subtargets` small spheres on the
  target cells, each paying `subtarget_reward_scale` once; the episode also ends when every
  sub-target has been reached.

  Raises ValueError at the start of an episode whose maze has fewer target cells than
  sub-targets (dm_control would leave the extra ones at the maze's centre).
  """

  def __init__(
    self,
    walker,
    main_target,
    maze_arena,
    num_subtargets=20,
    target_reward_scale=10.0,
    subtarget_reward_scale=1.0,
    subtarget_colors=((0, 0, 0.4), (0, 0, 0.7)),
    randomize_spawn_position=True,
    randomize_spawn_rotation=True,
    rotation_bias_factor=0,
    aliveness_reward=0.0,
    aliveness_threshold=DEFAULT_ALIVE_THRESHOLD,
    contact_termination=True,
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
    control_timestep=DEFAULT_CONTROL_TIMESTEP,
  ):
    super().__init__(
      walker=walker,
      target=main_target,
      maze_arena=maze_arena,
      target_reward_scale=target_reward_scale,
      randomize_spawn_position=randomize_spawn_position,
      randomize_spawn_rotation=randomize_spawn_rotation,
      rotation_bias_factor=rotation_bias_factor,
      aliveness_reward=aliveness_reward,
      aliveness_threshold=aliveness_threshold,
      contact_termination=contact_termination,
      physics_timestep=physics_timestep,
      control_timestep=control_timestep,
    )
    self._subtarget_reward_scale = subtarget_reward_scale
    self._subtargets = []
    for i in range(num_subtargets):
      subtarget = target_sphere.TargetSphere(
        radius=0.4,
        rgb1=subtarget_colors[0],
        rgb2=subtarget_colors[1],
        name="subtarget_{}".format(i),
      )
      self._subtargets.append(subtarget)
      self._maze_arena.attach(subtarget)
    self._subtarget_rewarded = None

  def initialize_episode_mjcf(self, random_state):
    super().initialize_episode_mjcf(random_state)
    _check_targets(
      self._maze_arena,
      len(self._subtargets),
      "{} with {} sub-targets".format(type(self).__name__, len(self._subtargets)),
    )
    for position, subtarget in zip(self._maze_arena.target_positions, self._subtargets):
      mjcf.get_attachment_frame(subtarget.mjcf_model).pos = position
    self._subtarget_rewarded = [False] * len(self._subtargets)

  def get_reward(self, physics):
    main_reward = super().get_reward(physics)
    newly = 0
    for i, subtarget in enumerate(self._subtargets):
      if subtarget.activated and not self._subtarget_rewarded[i]:
        newly += 1
        self._subtarget_rewarded[i] = True
    return main_reward + newly * self._subtarget_reward_scale

  def should_terminate_episode(self, physics):
    if super().should_terminate_episode(physics):
      return True
    return all(subtarget.activated for subtarget in self._subtargets)
