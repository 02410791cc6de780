"""Arenas of the locomotion tasks (dm_control.locomotion.arenas)."""

from suite.locomotion.arenas.bowl import Bowl as Bowl
from suite.locomotion.arenas.corridors import EmptyCorridor as EmptyCorridor
from suite.locomotion.arenas.corridors import GapsCorridor as GapsCorridor
from suite.locomotion.arenas.corridors import WallsCorridor as WallsCorridor
from suite.locomotion.arenas.floors import Floor as Floor
from suite.locomotion.arenas.labmaze_textures import FloorTextures as FloorTextures
from suite.locomotion.arenas.labmaze_textures import SkyBox as SkyBox
from suite.locomotion.arenas.labmaze_textures import WallTextures as WallTextures
from suite.locomotion.arenas.mazes import MazeWithTargets as MazeWithTargets
from suite.locomotion.arenas.mazes import RandomMazeWithTargets as RandomMazeWithTargets
from suite.locomotion.arenas.padded_room import PaddedRoom as PaddedRoom
