"""Multi-agent soccer on MuJoCo physics (dm_control.locomotion.soccer).

`load(team_size, ...)` builds a `team_size`-vs-`team_size` match as a composer.Environment
whose actions, rewards and observations are lists with one entry per player (home players
first). Players are BoxHeads (the default), Ants or CMU humanoids (`WalkerType`).
"""

import enum
import warnings

import numpy as np

import composer
from suite.locomotion import walkers
from suite.locomotion.mocap import cmu_mocap_data
from suite.locomotion.soccer.boxhead import BoxHead as BoxHead
from suite.locomotion.soccer.humanoid import Humanoid as Humanoid
from suite.locomotion.soccer.initializers import Initializer as Initializer
from suite.locomotion.soccer.initializers import UniformInitializer as UniformInitializer
from suite.locomotion.soccer.observables import CoreObservablesAdder as CoreObservablesAdder
from suite.locomotion.soccer.observables import (
  InterceptionObservablesAdder as InterceptionObservablesAdder,
)
from suite.locomotion.soccer.observables import MultiObservablesAdder as MultiObservablesAdder
from suite.locomotion.soccer.observables import ObservablesAdder as ObservablesAdder
from suite.locomotion.soccer.pitch import MINI_FOOTBALL_GOAL_SIZE as MINI_FOOTBALL_GOAL_SIZE
from suite.locomotion.soccer.pitch import (
  MINI_FOOTBALL_MAX_AREA_PER_HUMANOID as MINI_FOOTBALL_MAX_AREA_PER_HUMANOID,
)
from suite.locomotion.soccer.pitch import (
  MINI_FOOTBALL_MIN_AREA_PER_HUMANOID as MINI_FOOTBALL_MIN_AREA_PER_HUMANOID,
)
from suite.locomotion.soccer.pitch import Pitch as Pitch
from suite.locomotion.soccer.pitch import RandomizedPitch as RandomizedPitch
from suite.locomotion.soccer.soccer_ball import SoccerBall as SoccerBall
from suite.locomotion.soccer.soccer_ball import regulation_soccer_ball as regulation_soccer_ball
from suite.locomotion.soccer.task import MultiturnTask as MultiturnTask
from suite.locomotion.soccer.task import Task as Task
from suite.locomotion.soccer.team import RGBA_BLUE as RGBA_BLUE
from suite.locomotion.soccer.team import RGBA_RED as RGBA_RED
from suite.locomotion.soccer.team import Player as Player
from suite.locomotion.soccer.team import Team as Team
from suite.locomotion.walkers.initializers import mocap as mocap_initializers

_MAX_TEAM_SIZE = 11


class WalkerType(enum.Enum):
  BOXHEAD = 0
  ANT = 1
  HUMANOID = 2


def _make_walker(name, walker_id, marker_rgba, walker_type=WalkerType.BOXHEAD):
  """A walker of `walker_type` named `name`, in the team colour `marker_rgba`."""
  if walker_type == WalkerType.BOXHEAD:
    return BoxHead(name=name, walker_id=walker_id, marker_rgba=marker_rgba)
  if walker_type == WalkerType.ANT:
    return walkers.Ant(name=name, marker_rgba=marker_rgba)
  if walker_type == WalkerType.HUMANOID:
    # in team colours: dm_control's jerseys are a skin we do not ship
    return Humanoid(
      name=name,
      marker_rgba=marker_rgba,
      walker_id=walker_id,
      visual=Humanoid.Visual.GEOM,
      initializer=_humanoid_initializer(),
    )
  raise ValueError(f"Unrecognized walker type: {walker_type}")


# dm_control's CMUMocapInitializer defaults: a clip of its 2019 CMU data
_HUMANOID_CLIP, _HUMANOID_MOCAP_VERSION = "CMU_077_02", "2019"


def _humanoid_initializer():
  """dm_control starts soccer humanoids in poses of a CMU motion-capture clip (its
  CMUMocapInitializer, which downloads the data at load). Ours does so when that data is in the
  cache; otherwise they start upright in the walker's default pose, with a warning saying how
  to fetch the data (`cmu_mocap_data.get_path_for_cmu`, ~490 MB, checked by SHA-256)."""
  path = cmu_mocap_data.get_cached_path(_HUMANOID_MOCAP_VERSION)
  if path is None:
    warnings.warn(
      "soccer humanoids start upright in their default pose: dm_control starts them in poses "
      f"of the CMU motion-capture clip {_HUMANOID_CLIP}, whose data (version "
      f"{_HUMANOID_MOCAP_VERSION}) is not in {cmu_mocap_data.cache_dir()}; fetch it once with "
      f"suite.locomotion.mocap.cmu_mocap_data.get_path_for_cmu({_HUMANOID_MOCAP_VERSION!r})",
      stacklevel=4,
    )
    return None
  return mocap_initializers.CMUMocapInitializer(
    _HUMANOID_CLIP, version=_HUMANOID_MOCAP_VERSION, ref_path=path
  )


def _make_players(team_size, walker_type):
  """`team_size` home players (blue) then `team_size` away players (red)."""
  home = [
    Player(Team.HOME, _make_walker(f"home{i}", i, RGBA_BLUE, walker_type)) for i in range(team_size)
  ]
  away = [
    Player(Team.AWAY, _make_walker(f"away{i}", i, RGBA_RED, walker_type)) for i in range(team_size)
  ]
  return home + away


def _area_to_size(area, aspect_ratio=0.75):
  """Half (length, width) of a pitch of `area` and width/length `aspect_ratio`."""
  return np.sqrt([area / aspect_ratio, area * aspect_ratio]) / 2.0


def load(
  team_size,
  time_limit=45.0,
  random_state=None,
  disable_walker_contacts=False,
  enable_field_box=False,
  keep_aspect_ratio=False,
  terminate_on_goal=True,
  walker_type=WalkerType.BOXHEAD,
):
  """A `team_size`-vs-`team_size` soccer environment (composer.Environment).

  Args:
    team_size: players per team, 1 to 11.
    time_limit: episode duration in seconds.
    random_state: an int seed or a `np.random.RandomState`.
    disable_walker_contacts: walkers pass through each other.
    enable_field_box: fence the ball (not the players) into the field.
    keep_aspect_ratio: draw the pitch's length and width with one ratio.
    terminate_on_goal: end the episode at a goal (else play on: MultiturnTask).
    walker_type: a `WalkerType`.

  Raises:
    ValueError: `team_size` not an integer in 1..11, or an unknown `walker_type`.
  """
  if (
    isinstance(team_size, bool)
    or not isinstance(team_size, (int, np.integer))
    or not 1 <= team_size <= _MAX_TEAM_SIZE
  ):
    raise ValueError(
      f"team_size must be an integer between 1 and {_MAX_TEAM_SIZE}, got: {team_size!r}."
    )
  if not isinstance(walker_type, WalkerType):
    raise ValueError(
      f"Unrecognized walker type: {walker_type!r} (expected a "
      f"soccer.WalkerType: {', '.join(t.name for t in WalkerType)})."
    )
  goal_size = None
  min_size, max_size = (32, 24), (48, 36)
  ball = SoccerBall()
  if walker_type == WalkerType.HUMANOID:
    goal_size = MINI_FOOTBALL_GOAL_SIZE
    num_walkers = team_size * 2
    min_size = _area_to_size(MINI_FOOTBALL_MIN_AREA_PER_HUMANOID * num_walkers)
    max_size = _area_to_size(MINI_FOOTBALL_MAX_AREA_PER_HUMANOID * num_walkers)
    ball = regulation_soccer_ball()
  task_factory = Task if terminate_on_goal else MultiturnTask
  return composer.Environment(
    task=task_factory(
      players=_make_players(team_size, walker_type),
      arena=RandomizedPitch(
        min_size=min_size,
        max_size=max_size,
        keep_aspect_ratio=keep_aspect_ratio,
        field_box=enable_field_box,
        goal_size=goal_size,
      ),
      ball=ball,
      disable_walker_contacts=disable_walker_contacts,
    ),
    time_limit=time_limit,
    random_state=random_state,
  )


def _builder(team_size, walker_type):
  def build(random_state=None):
    return load(team_size, random_state=random_state, walker_type=walker_type)

  build.__doc__ = (
    f"{team_size}-vs-{team_size} soccer of {walker_type.name.lower()} walkers "
    f"(soccer.load({team_size}, walker_type=WalkerType.{walker_type.name}))."
  )
  return build


# named matches for `python -m suite.locomotion NAME` (e.g. soccer_2v2_boxhead)
BUILDERS = {
  f"soccer_{n}v{n}_{walker_type.name.lower()}": _builder(n, walker_type)
  for walker_type in WalkerType
  for n in (1, 2, 3)
}
