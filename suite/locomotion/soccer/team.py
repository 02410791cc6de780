"""Teams and players of a soccer match (dm_control.locomotion.soccer.team)."""

import collections
import enum


class Team(enum.Enum):
  """The two sides: HOME defends the goal at -x, AWAY the goal at +x."""
  HOME = 0
  AWAY = 1


RGBA_BLUE = [.1, .1, .8, 1.]
RGBA_RED = [.8, .1, .1, 1.]

# a participant: its `team` (a Team) and its `walker` (a locomotion walker)
Player = collections.namedtuple('Player', ['team', 'walker'])
