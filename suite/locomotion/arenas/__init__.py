"""Arenas of the locomotion tasks (dm_control.locomotion.arenas)."""

from suite.locomotion.arenas.bowl import Bowl as Bowl
from suite.locomotion.arenas.corridors import EmptyCorridor as EmptyCorridor
from suite.locomotion.arenas.corridors import GapsCorridor as GapsCorridor
from suite.locomotion.arenas.corridors import WallsCorridor as WallsCorridor
from suite.locomotion.arenas.floors import Floor as Floor
