"""Tasks of the locomotion library (dm_control.locomotion.tasks): running through corridors,
going to a target, escaping a bowl, touching a target twice, and finding goals in a maze."""

from suite.locomotion.tasks.corridors import RunThroughCorridor as RunThroughCorridor
from suite.locomotion.tasks.escape import Escape as Escape
from suite.locomotion.tasks.go_to_target import GoToTarget as GoToTarget
from suite.locomotion.tasks.random_goal_maze import ManyGoalsMaze as ManyGoalsMaze
from suite.locomotion.tasks.random_goal_maze import (
  ManyHeterogeneousGoalsMaze as ManyHeterogeneousGoalsMaze,
)
from suite.locomotion.tasks.random_goal_maze import RepeatSingleGoalMaze as RepeatSingleGoalMaze
from suite.locomotion.tasks.random_goal_maze import (
  RepeatSingleGoalMazeAugmentedWithTargets as RepeatSingleGoalMazeAugmentedWithTargets,
)
from suite.locomotion.tasks.reach import TwoTouch as TwoTouch
