"""Episode initializers of the soccer tasks (dm_control.locomotion.soccer.initializers)."""

import abc

import numpy as np

_INIT_BALL_Z = 0.5
_SPAWN_RATIO = 0.6


class Initializer(metaclass=abc.ABCMeta):
  """Places the ball and players at the start of an episode (and after a goal in
  MultiturnTask)."""

  @abc.abstractmethod
  def __call__(self, task, physics, random_state):
    """Initialize episode for a task."""


class UniformInitializer(Initializer):
  """Ball and players at uniform positions over the middle `spawn_ratio` of the pitch, players
  facing uniform directions, all at rest; drawn again while a player overlaps another (up to
  `max_collision_avoidance_retries` times, then RuntimeError).

  As dm_control's, only contacts between two players' geoms count as overlaps: dm_control
  collects the ball's geom as a binding, not an id, so a player overlapping the ball is kept
  (we keep that behaviour, so that the same seed places everything alike).
  """

  def __init__(
    self, spawn_ratio=_SPAWN_RATIO, init_ball_z=_INIT_BALL_Z, max_collision_avoidance_retries=100
  ):
    self._spawn_ratio = spawn_ratio
    self._init_ball_z = init_ball_z
    self._walker_geom_ids = None
    self._max_retries = max_collision_avoidance_retries

  def _initialize_ball(self, ball, spawn_range, physics, random_state):
    if isinstance(spawn_range, np.ndarray):
      x, y = random_state.uniform(-spawn_range, spawn_range)
    elif isinstance(spawn_range, (list, tuple)) and len(spawn_range) == 2:
      x, y = random_state.uniform(spawn_range[0], spawn_range[1])
    else:
      raise ValueError("Unsupported spawn_range. Must be ndarray or list/tuple of length 2.")
    ball.set_pose(physics, [x, y, self._init_ball_z])
    ball.set_velocity(physics, velocity=0.0, angular_velocity=0.0)  # not always after a reset

  def _initialize_walker(self, walker, spawn_range, physics, random_state):
    walker.reinitialize_pose(physics, random_state)
    x, y = random_state.uniform(-spawn_range, spawn_range)
    (_, _, z), quat = walker.get_pose(physics)
    walker.set_pose(physics, [x, y, z], quat)
    rotation = random_state.uniform(-np.pi, np.pi)
    walker.shift_pose(physics, quaternion=[np.cos(rotation / 2), 0, 0, np.sin(rotation / 2)])
    walker.set_velocity(physics, velocity=0.0, angular_velocity=0.0)

  def _initialize_entities(self, task, physics, random_state):
    spawn_range = np.asarray(task.arena.size) * self._spawn_ratio
    self._initialize_ball(task.ball, spawn_range, physics, random_state)
    for player in task.players:
      self._initialize_walker(player.walker, spawn_range, physics, random_state)

  def _initialize_geom_ids(self, task, physics):
    """Each player's geom ids, as an owner index per geom id (-1: no player's)."""
    self._walker_geom_ids = np.full(physics.model.ngeom, -1)
    for index, player in enumerate(task.players):
      geoms = player.walker.mjcf_model.find_all("geom")
      self._walker_geom_ids[physics.bind(geoms).element_id] = index

  def _players_overlap(self, physics):
    contact = physics.data.contact
    owner1 = self._walker_geom_ids[np.asarray(contact.geom1, int)]
    owner2 = self._walker_geom_ids[np.asarray(contact.geom2, int)]
    return bool(np.any((owner1 >= 0) & (owner2 >= 0) & (owner1 != owner2)))

  def __call__(self, task, physics, random_state):
    if self._walker_geom_ids is None or len(self._walker_geom_ids) != physics.model.ngeom:
      self._initialize_geom_ids(task, physics)
    retries = 0
    while True:
      self._initialize_entities(task, physics, random_state)
      physics.forward()  # finds the contacts
      if not self._players_overlap(physics):
        break
      retries += 1
      if retries > self._max_retries:
        raise RuntimeError(f"UniformInitializer: `max_retries` ({self._max_retries}) exceeded.")
