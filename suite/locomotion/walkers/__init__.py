"""Walkers: the creatures of the locomotion tasks (dm_control.locomotion.walkers)."""

from suite.locomotion.walkers.ant import Ant as Ant
from suite.locomotion.walkers.cmu_humanoid import CMUHumanoid as CMUHumanoid
from suite.locomotion.walkers.cmu_humanoid import (
  CMUHumanoidPositionControlled as CMUHumanoidPositionControlled,
)
from suite.locomotion.walkers.cmu_humanoid import (
  CMUHumanoidPositionControlledV2020 as CMUHumanoidPositionControlledV2020,
)
from suite.locomotion.walkers.jumping_ball import JumpingBallWithHead as JumpingBallWithHead
from suite.locomotion.walkers.jumping_ball import RollingBallWithHead as RollingBallWithHead
from suite.locomotion.walkers.rodent import Rat as Rat
