"""Teams and players of a soccer match (dm_control.locomotion.soccer.team)."""

import collections
import enum


class Team(enum.Enum):
  """The two sides: HOME defends the goal at -x, AWAY the goal at +x."""

  HOME = 0
  AWAY = 1


RGBA_BLUE = [0.1, 0.1, 0.8, 1.0]
RGBA_RED = [0.8, 0.1, 0.1, 1.0]

# a participant: its `team` (a Team) and its `walker` (a locomotion walker)
Player = collections.namedtuple("Player", ["team", "walker"])
