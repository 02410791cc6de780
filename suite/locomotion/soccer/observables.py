"""Per-player observables of the soccer tasks (dm_control.locomotion.soccer.observables).

An `ObservablesAdder` is called once per player when the task is built; it adds observables to
the player's walker (and framepos/framelinvel/... sensors to its MJCF model where the reading
is a relative pose or velocity).
"""

import abc
import math

import numpy as np

from composer.observation import observable as base_observable
from suite.locomotion.soccer import team as team_lib


class ObservablesAdder(metaclass=abc.ABCMeta):
  """A callable that adds a set of per-player observables for a task."""

  @abc.abstractmethod
  def __call__(self, task, player):
    """Adds observables to `player` (a soccer Player) of `task` (a soccer Task)."""


class MultiObservablesAdder(ObservablesAdder):
  """Applies several `ObservablesAdder`s in turn."""

  def __init__(self, observables):
    self._observables = observables

  def __call__(self, task, player):
    for adder in self._observables:
      adder(task, player)


class _Reader:
  """Rows of one element in the data arrays, as views made once per data (the per-step
  observables are many: this skips the binding machinery and the per-call field lookups),
  after forward() on a stale physics as a binding read would. `fields` are data array names
  of the element's kind (a body's xpos, xmat, cvel; a geom's geom_xpos)."""

  def __init__(self, element, *fields):
    self._element = element
    self._fields = fields
    self._data = None
    self._rows = None

  def rows(self, physics):
    """The element's rows of `fields` (live views)."""
    data = physics.data
    if data is not self._data:
      i = int(physics.bind(self._element).element_id)
      self._rows = tuple(getattr(data, field)[i] for field in self._fields)
      self._data = data
    if physics.is_dirty:
      physics.forward()
    return self._rows


class _Corners:
  """A position detector's lower, upper and mid points ((lower + upper) / 2) as float lists,
  made again when the detector is moved or resized (which replaces its lower and upper)."""

  def __init__(self, detector):
    self._detector = detector
    self._lower = self._upper = None
    self.lower = self.upper = self.mid = None

  def __call__(self):
    lower, upper = self._detector.lower, self._detector.upper
    if lower is not self._lower or upper is not self._upper:
      self._lower, self._upper = lower, upper
      self.lower, self.upper = lower.tolist(), upper.tolist()
      self.mid = [(a + b) / 2.0 for a, b in zip(self.lower, self.upper)]
    return self


def _in_frame(p, origin, xmat, dims):
  """(p - origin) in the frame of rotation matrix `xmat` (9 numbers, row-major), using the
  first `dims` (2 or 3) coordinates of the float list p: np.dot(p - origin, xmat[:dims, :dims])
  in floats."""
  o, m = origin.tolist(), xmat.tolist()
  x, y = p[0] - o[0], p[1] - o[1]
  if dims == 2:
    return np.array((x * m[0] + y * m[3], x * m[1] + y * m[4]))
  z = p[2] - o[2]
  return np.array(
    (x * m[0] + y * m[3] + z * m[6], x * m[1] + y * m[4] + z * m[7], x * m[2] + y * m[5] + z * m[8])
  )


def _frame_sensor(walker, kind, name, objtype, objname):
  """A `kind` frame sensor of `objname` in the frame of `walker`'s root body."""
  return walker.mjcf_model.sensor.add(
    kind, name=name, objtype=objtype, objname=objname, reftype="body", refname=walker.root_body
  )


class CoreObservablesAdder(ObservablesAdder):
  """The core observables: proprioception and kinematic sensors (enabled), the ball and the
  other players in the player's egocentric frame (opponents and teammates numbered in player
  order), the goals' and field's corners, and game statistics (`stats_*`)."""

  def __call__(self, task, player):
    self._add_player_proprio_observables(player)
    self._add_player_observables_on_ball(player, task.ball)
    counts = {"teammate": 0, "opponent": 0}
    for other in task.players:
      if other is player:
        continue
      side = "teammate" if other.team == player.team else "opponent"
      self._add_player_observables_on_other(player, other, f"{side}_{counts[side]}")
      counts[side] += 1
    self._add_player_arena_observables(player, task.arena)
    self._add_player_stats_observables(task, player)

  def _add_player_observables_on_other(self, player, other, prefix):
    """`other`'s end effectors, root position, orientation and velocity in `player`'s frame
    (`<prefix>_ego_*`), and `other`'s end effectors in its own frame."""
    if player is other:
      raise ValueError("Cannot add egocentric observables of player on itself.")
    walker = player.walker
    observables = walker.observables
    effector_sensors = [
      _frame_sensor(
        walker, "framepos", f"{effector.name}_{prefix}_end_effector", effector.tag, effector
      )
      for effector in other.walker.end_effectors
    ]
    name = f"{prefix}_ego_end_effectors_pos"
    walker.obs_on_other[name] = effector_sensors
    observables.add_observable(
      name,
      base_observable.Generic(
        base_observable.BoundAttribute("sensordata", effector_sensors, flat=True)
      ),
    )

    for suffix, kind in (("ego_linear_velocity", "framelinvel"), ("ego_position", "framepos")):
      name = f"{prefix}_{suffix}"
      sensor = _frame_sensor(walker, kind, name, "body", other.walker.root_body)
      walker.obs_on_other[name] = [sensor]
      observables.add_observable(name, base_observable.MJCFFeature("sensordata", sensor))

    name = f"{prefix}_ego_orientation"
    axis_sensors = [
      _frame_sensor(walker, f"frame{axis}axis", f"{name}_{axis}", "body", other.walker.root_body)
      for axis in "xyz"
    ]
    walker.obs_on_other[name] = axis_sensors
    observables.add_observable(
      name,
      base_observable.Generic(
        base_observable.BoundAttribute("sensordata", axis_sensors, flat=True)
      ),
    )
    observables.add_observable(
      f"{prefix}_end_effectors_pos", other.walker.observables.end_effectors_pos
    )

  def _add_player_observables_on_ball(self, player, ball):
    """The ball's angular velocity, position and linear velocity in `player`'s frame."""
    walker = player.walker
    for attribute, kind, sensor_name, key in (
      ("ball_ego_angvel_sensor", "frameangvel", "ball_ego_angvel", "ball_ego_angular_velocity"),
      ("ball_ego_pos_sensor", "framepos", "ball_ego_pos", "ball_ego_position"),
      ("ball_ego_linvel_sensor", "framelinvel", "ball_ego_linvel", "ball_ego_linear_velocity"),
    ):
      sensor = _frame_sensor(walker, kind, sensor_name, "body", ball.root_body)
      setattr(walker, attribute, sensor)
      walker.observables.add_observable(key, base_observable.MJCFFeature("sensordata", sensor))

  def _add_player_proprio_observables(self, player):
    observables = player.walker.observables
    for observable in observables.proprioception + observables.kinematic_sensors:
      observable.enabled = True
    observables.prev_action.enabled = True

  def _add_player_arena_observables(self, player, arena):
    """Eight points of the pitch in the player's frame, named as seen facing the opponents'
    goal and going clockwise from the player's own goal (the goals' back and front corners and
    middles, the field's corners)."""
    names = [
      "team_goal_back_right",
      "team_goal_mid",
      "team_goal_front_left",
      "field_front_left",
      "opponent_goal_back_left",
      "opponent_goal_mid",
      "opponent_goal_front_right",
      "field_back_right",
    ]
    home, away, field = (_Corners(d) for d in (arena.home_goal, arena.away_goal, arena.field))
    features = [  # (float lists: numpy calls on 2- and 3-vectors cost more than the math)
      lambda _: home().lower,
      lambda _: home().mid,
      lambda _: home().upper,
      lambda _: field().upper,
      lambda _: away().upper,
      lambda _: away().mid,
      lambda _: away().lower,
      lambda _: field().lower,
    ]
    root = _Reader(player.walker.root_body, "xpos", "xmat")
    origins = [2, 3, 2, 2, 2, 3, 2, 2]  # the xy or xyz of the root body
    if player.team != team_lib.Team.HOME:
      half = len(features) // 2
      features = features[half:] + features[:half]
      origins = origins[half:] + origins[:half]
    for name, feature, dims in zip(names, features, origins):
      # as walkers' add_egocentric_vector: (feature - origin) rotated into the root frame
      def egocentric(physics, feature=feature, dims=dims):
        xpos, xmat = root.rows(physics)
        return _in_frame(feature(physics), xpos, xmat, dims)

      player.walker.observables.add_observable(name, base_observable.Generic(egocentric))

  def _add_player_stats_observables(self, task, player):
    """Game statistics: velocity towards the ball (also only for the team's closest player),
    forward velocity, the ball's velocity towards the opponents' goal, the mean distance to the
    teammates (and whether it exceeds 5 m), and whether the team scored or conceded."""
    walker = player.walker
    add = walker.observables.add_observable
    ball_geom = _Reader(task.ball.geom, "geom_xpos")
    root = _Reader(walker.root_body, "xpos", "cvel")
    mates = [
      _Reader(mate.walker.root_body, "xpos") for mate in task.players if mate.team == player.team
    ]
    others = [
      _Reader(other.walker.root_body, "xpos")
      for other in task.players
      if other is not player and other.team == player.team
    ]

    def vel_to_ball(physics):
      xpos, cvel = root.rows(physics)
      ball_x, ball_y, _ = ball_geom.rows(physics)[0].tolist()
      x, y, _ = xpos.tolist()
      vel = cvel.tolist()
      dx, dy = ball_x - x, ball_y - y
      return (dx * vel[3] + dy * vel[4]) / (math.hypot(dx, dy) + 1e-7)

    def closest_vel_to_ball(physics):
      ball_pos = ball_geom.rows(physics)[0].tolist()
      closest, closest_dist = None, math.inf
      for mate in mates:
        dist = math.dist(ball_pos, mate.rows(physics)[0].tolist())
        if dist < closest_dist:
          closest, closest_dist = mate, dist
      return vel_to_ball(physics) if closest is mates[own_index] else 0.0

    own_index = [p for p in task.players if p.team == player.team].index(player)
    home_goal, away_goal = _Corners(task.arena.home_goal), _Corners(task.arena.away_goal)
    ball_velocity = base_observable.PerPhysics(
      task.ball.observables.linear_velocity.observation_callable
    )

    def vel_ball_to_goal(physics):
      goal = away_goal if player.team == team_lib.Team.HOME else home_goal
      center = goal().mid
      direction = [c - b for c, b in zip(center, ball_geom.rows(physics)[0].tolist())]
      norm = math.hypot(*direction)
      if norm:
        direction = [d / norm for d in direction]
      return math.fsum(d * v for d, v in zip(direction, ball_velocity(physics).tolist()))

    def avg_teammate_dist(physics):
      mine = root.rows(physics)[0].tolist()
      dists = [math.dist(mine, other.rows(physics)[0].tolist()) for other in others]
      return sum(dists) / len(dists) if dists else 0.0

    has_opponent = any(other.team != player.team for other in task.players)

    def home_score(unused_physics):
      scorer = task.arena.detected_goal()
      return 1.0 if scorer and scorer == player.team else 0.0

    def away_score(unused_physics):
      scorer = task.arena.detected_goal()
      return 1.0 if has_opponent and scorer and scorer != player.team else 0.0

    add("stats_vel_to_ball", base_observable.Generic(vel_to_ball))
    add("stats_closest_vel_to_ball", base_observable.Generic(closest_vel_to_ball))
    add(
      "stats_veloc_forward",
      base_observable.Generic(
        base_observable.PerPhysics(walker.observables.veloc_forward.observation_callable)
      ),
    )
    add("stats_vel_ball_to_goal", base_observable.Generic(vel_ball_to_goal))
    add("stats_home_avg_teammate_dist", base_observable.Generic(avg_teammate_dist))
    add(
      "stats_teammate_spread_out",
      base_observable.Generic(lambda physics: avg_teammate_dist(physics) > 5.0),
    )
    add("stats_home_score", base_observable.Generic(home_score))
    add("stats_away_score", base_observable.Generic(away_score))


class InterceptionObservablesAdder(ObservablesAdder):
  """Interception events of the last step, as 0/1 observables: `stats_i_received_ball` (this
  player touched the ball after another player), `stats_opponent_intercepted_ball` (an opponent
  took the ball from this player's team, or touched it first), and both again restricted to a
  ball that travelled more than 5, 10 or 15 m between the two touches (`..._5m` etc.)."""

  def __call__(self, task, player):
    ball = task.ball
    add = player.walker.observables.add_observable

    def i_received(unused_physics):
      return 1.0 if ball.hit and ball.repossessed and ball.last_hit is player else 0.0

    def opponent_intercepted(unused_physics):
      return 1.0 if (ball.hit and ball.intercepted and ball.last_hit.team != player.team) else 0.0

    def farther_than(event, dist):
      def observation(physics):
        travelled = ball.dist_between_last_hits
        return 1.0 if event(physics) and travelled is not None and travelled > dist else 0.0

      return observation

    add("stats_i_received_ball", base_observable.Generic(i_received))
    add("stats_opponent_intercepted_ball", base_observable.Generic(opponent_intercepted))
    for dist in (5, 10, 15):
      add(f"stats_i_received_ball_{dist}m", base_observable.Generic(farther_than(i_received, dist)))
      add(
        f"stats_opponent_intercepted_ball_{dist}m",
        base_observable.Generic(farther_than(opponent_intercepted, dist)),
      )
