"""Walkers: the creatures of the locomotion tasks (dm_control.locomotion.walkers)."""

from suite.locomotion.walkers.ant import Ant as Ant
from suite.locomotion.walkers.jumping_ball import JumpingBallWithHead as JumpingBallWithHead
from suite.locomotion.walkers.jumping_ball import RollingBallWithHead as RollingBallWithHead
