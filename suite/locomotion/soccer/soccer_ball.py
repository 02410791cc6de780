"""The soccer ball: a free sphere that records which player touched it last
(dm_control.locomotion.soccer.soccer_ball)."""

import numpy as np

from composer import props

# a FIFA size 5 ball
_REGULATION_RADIUS = 0.117  # m
_REGULATION_MASS = 0.45  # kg

_DEFAULT_FRICTION = (0.7, 0.05, 0.04)  # slide, spin, roll
_DEFAULT_DAMP_RATIO = 0.4


def regulation_soccer_ball():
  """A SoccerBall of regulation size and mass, bouncier than the default one."""
  return SoccerBall(
    radius=_REGULATION_RADIUS,
    mass=_REGULATION_MASS,
    friction=_DEFAULT_FRICTION,
    damp_ratio=_DEFAULT_DAMP_RATIO,
  )


class SoccerBall(props.Primitive):
  """A ball that tracks the registered players' contacts with it.

  `SoccerBall(radius=0.35, mass=0.045, friction=(0.7, 0.075, 0.075), damp_ratio=1.0,
  name='soccer_ball')`: `damp_ratio` (>= 0) is the damping ratio of its contacts (lower
  bounces more). After each control step `hit` tells whether a player touched it during the
  step, `repossessed` whether that player differs from the previous toucher, `intercepted`
  whether the previous toucher was of the other team (or there was none); `last_hit` is the
  last toucher and `dist_between_last_hits` how far the ball travelled between the last two
  touches.
  """

  def _build(
    self, radius=0.35, mass=0.045, friction=(0.7, 0.075, 0.075), damp_ratio=1.0, name="soccer_ball"
  ):
    super()._build(geom_type="sphere", size=(radius,), name=name)
    # a cube map of hexagon-ish checks: one texture, as dm_control's six-image cube map
    texture = self._mjcf_root.asset.add(
      "texture",
      name="soccer_ball",
      type="cube",
      builtin="checker",
      rgb1=(0.95, 0.95, 0.95),
      rgb2=(0.1, 0.1, 0.1),
      width=64,
      height=64,
    )
    material = self._mjcf_root.asset.add("material", name="soccer_ball", texture=texture)
    if damp_ratio < 0.0:
      raise ValueError(f"Invalid `damp_ratio` parameter ({damp_ratio} is not positive).")
    self._geom.set_attributes(
      pos=[0, 0, radius],
      size=[radius],
      condim=6,
      priority=1,
      mass=mass,
      friction=friction,
      solref=[0.02, damp_ratio],
      material=material,
    )
    for camera_name, distance in (("ball_cam_near", 2), ("ball_cam", 7), ("ball_cam_far", 10)):
      self._mjcf_root.worldbody.add(
        "camera",
        name=camera_name,
        pos=[0, -distance, distance],
        zaxis=[0, -1, 1],
        fovy=70,
        mode="trackcom",
      )
    self._players = []
    self.initialize_entity_trackers()

  def register_player(self, player):
    """Tracks `player`'s (a soccer Player's) contacts with the ball."""
    self._players.append(player)

  def initialize_entity_trackers(self):
    """Forgets the touches so far."""
    self._last_hit = None
    self._hit = False
    self._repossessed = False
    self._intercepted = False
    self._pos_at_last_step = None
    self._dist_since_last_hit = None
    self._dist_between_last_hits = None

  def initialize_episode(self, physics, unused_random_state):
    self._geom_id = int(physics.bind(self._geom).element_id)
    self._geom_id_to_player = {}
    for player in self._players:
      for geom_id in physics.bind(player.walker.mjcf_model.find_all("geom")).element_id:
        self._geom_id_to_player[int(geom_id)] = player
    self.initialize_entity_trackers()

  def after_substep(self, physics, unused_random_state):
    """Records the first contact of the step between the ball and a registered player (the
    player of the contact's other geom; a contact of the ball with itself or with no player
    counts as none)."""
    if self._hit:
      return
    ball = self._geom_id
    for geom1, geom2 in physics.data.contact.geom.tolist():
      if geom1 != ball and geom2 != ball:
        continue
      # as dm_control: the player is looked up from the contact's last geom that is not the ball
      player = None
      for geom_id in (geom1, geom2):
        if geom_id != ball:
          player = self._geom_id_to_player.get(geom_id)
      if player:
        self._intercepted = self._last_hit is None or player.team != self._last_hit.team
        self._repossessed = player is not self._last_hit
        self._last_hit = player
        self._hit = True
        break

  def before_step(self, physics, random_state):
    super().before_step(physics, random_state)
    self._hit = False
    self._repossessed = False
    self._intercepted = False

  def after_step(self, physics, random_state):
    """Accumulates the distance travelled since the last touch."""
    super().after_step(physics, random_state)
    pos = physics.bind(self._geom).xpos
    if self._hit:
      self._dist_between_last_hits = self._dist_since_last_hit
      self._dist_since_last_hit = 0.0
      self._pos_at_last_step = pos.copy()
    if self._dist_since_last_hit is not None:
      self._dist_since_last_hit += np.linalg.norm(pos - self._pos_at_last_step)
    self._pos_at_last_step = pos.copy()

  @property
  def last_hit(self):
    """The player that last touched the ball, or None."""
    return self._last_hit

  @property
  def hit(self):
    """Whether a registered player touched the ball during the last control step."""
    return self._hit

  @property
  def repossessed(self):
    """Whether the ball was touched in the last step by a player other than the one before."""
    return self._repossessed

  @property
  def intercepted(self):
    """Whether the ball was touched in the last step for the first time, or by the other
    team's player than the one before."""
    return self._intercepted

  @property
  def dist_between_last_hits(self):
    """Distance the ball travelled between its last two touches (None before two)."""
    return self._dist_between_last_hits
