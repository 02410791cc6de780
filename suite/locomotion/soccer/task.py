"""The soccer tasks: two teams of walkers on a pitch, +1 / -1 to every player when their team
scores / concedes (dm_control.locomotion.soccer.task)."""

import numpy as np
from dm_env import specs

import composer
from suite.locomotion.soccer import initializers
from suite.locomotion.soccer import observables as observables_lib
from suite.locomotion.soccer import soccer_ball

_THROW_IN_BALL_Z = 0.5


def _disable_geom_contacts(entities):
  for entity in entities:
    for geom in entity.mjcf_model.find_all("geom"):
      geom.set_attributes(contype=0)


class Task(composer.Task):
  """Soccer between the `players`' two teams on `arena` (a Pitch), until a goal.

  `Task(players, arena, ball=None, initializer=None, observables=None,
  disable_walker_contacts=False, nconmax_per_player=200, njmax_per_player=400,
  control_timestep=0.025, tracking_cameras=())`: `ball` defaults to a SoccerBall, `initializer`
  to a UniformInitializer, `observables` to a CoreObservablesAdder. Actions, rewards and
  observations are lists with one entry per player, in `players` order. When the ball leaves
  the field it is thrown in (moved back towards the centre, at rest) before the next step.
  """

  def __init__(
    self,
    players,
    arena,
    ball=None,
    initializer=None,
    observables=None,
    disable_walker_contacts=False,
    nconmax_per_player=200,
    njmax_per_player=400,
    control_timestep=0.025,
    tracking_cameras=(),
  ):
    self.arena = arena
    self.players = players
    self._initializer = initializer or initializers.UniformInitializer()
    self._observables = observables or observables_lib.CoreObservablesAdder()
    if disable_walker_contacts:
      _disable_geom_contacts([p.walker for p in self.players])
    self.ball = ball or soccer_ball.SoccerBall()
    self.arena.add_free_entity(self.ball)
    self.arena.register_ball(self.ball)
    for player in self.players:
      player.walker.create_root_joints(self.arena.attach(player.walker))
      self.ball.register_player(player)
      self._observables(self, player)
    self._tracking_cameras = tracking_cameras
    self.set_timesteps(physics_timestep=0.005, control_timestep=control_timestep)
    self.root_entity.mjcf_model.size.nconmax = nconmax_per_player * len(players)
    self.root_entity.mjcf_model.size.njmax = njmax_per_player * len(players)

  @property
  def observables(self):
    """One dict of (unqualified) observables per player."""
    return [player.walker.observables.as_dict(fully_qualified=False) for player in self.players]

  def _throw_in(self, physics, random_state, ball):
    x, y, _ = physics.bind(ball.geom).xpos
    shrink_x, shrink_y = random_state.uniform([0.7, 0.7], [0.9, 0.9])
    ball.set_pose(physics, [x * shrink_x, y * shrink_y, _THROW_IN_BALL_Z])
    ball.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
    ball.initialize_entity_trackers()

  def _tracked_entity_positions(self, physics):
    """Positions of the ball and of every player."""
    positions = [self.ball.get_pose(physics)[0]]
    positions += [player.walker.get_pose(physics)[0] for player in self.players]
    return positions

  def after_compile(self, physics, random_state):
    super().after_compile(physics, random_state)
    for camera in self._tracking_cameras:
      camera.after_compile(physics)

  def after_step(self, physics, random_state):
    super().after_step(physics, random_state)
    for camera in self._tracking_cameras:
      camera.after_step(self._tracked_entity_positions(physics))

  def initialize_episode_mjcf(self, random_state):
    self.arena.initialize_episode_mjcf(random_state)

  def initialize_episode(self, physics, random_state):
    self.arena.initialize_episode(physics, random_state)
    for player in self.players:
      player.walker.reinitialize_pose(physics, random_state)
    self._initializer(self, physics, random_state)
    for camera in self._tracking_cameras:
      camera.initialize_episode(self._tracked_entity_positions(physics))

  @property
  def root_entity(self):
    return self.arena

  def get_reward(self, physics):
    """One float32 scalar per player: +1 if their team scored in this step, -1 if it
    conceded, else 0."""
    scoring_team = self.arena.detected_goal()
    if not scoring_team:
      return [np.zeros((), dtype=np.float32) for _ in self.players]
    return [
      np.ones((), dtype=np.float32) if p.team == scoring_team else -np.ones((), dtype=np.float32)
      for p in self.players
    ]

  def get_reward_spec(self):
    return [specs.Array(name="reward", shape=(), dtype=np.float32) for _ in self.players]

  def get_discount(self, physics):
    if self.arena.detected_goal():
      return np.zeros((), np.float32)
    return np.ones((), np.float32)

  def get_discount_spec(self):
    return specs.Array(name="discount", shape=(), dtype=np.float32)

  def should_terminate_episode(self, physics):
    """Whether a goal was scored."""
    return self.arena.detected_goal() is not None

  def before_step(self, physics, actions, random_state):
    for player, action in zip(self.players, actions):
      player.walker.apply_action(physics, action, random_state)
    if self.arena.detected_off_court():
      self._throw_in(physics, random_state, self.ball)

  def action_spec(self, physics):
    """One action spec per player."""
    return [player.walker.action_spec for player in self.players]


class MultiturnTask(Task):
  """Soccer through goals until the time limit: after a goal the players and ball are placed
  anew (the discount stays 1)."""

  def __init__(
    self,
    players,
    arena,
    ball=None,
    initializer=None,
    observables=None,
    disable_walker_contacts=False,
    nconmax_per_player=200,
    njmax_per_player=400,
    control_timestep=0.025,
    tracking_cameras=(),
  ):
    super().__init__(
      players,
      arena,
      ball=ball,
      initializer=initializer,
      observables=observables,
      disable_walker_contacts=disable_walker_contacts,
      nconmax_per_player=nconmax_per_player,
      njmax_per_player=njmax_per_player,
      control_timestep=control_timestep,
      tracking_cameras=tracking_cameras,
    )
    self._should_reset = False  # forget the ball's touches before the next step

  def should_terminate_episode(self, physics):
    return False

  def get_discount(self, physics):
    return np.ones((), np.float32)

  def before_step(self, physics, actions, random_state):
    super().before_step(physics, actions, random_state)
    if self._should_reset:
      self.ball.initialize_entity_trackers()
      self._should_reset = False

  def after_step(self, physics, random_state):
    super().after_step(physics, random_state)
    if self.arena.detected_goal():
      self._initializer(self, physics, random_state)
      self._should_reset = True
