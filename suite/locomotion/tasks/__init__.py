"""Tasks of the locomotion library (dm_control.locomotion.tasks): running through corridors,
going to a target, escaping a bowl, and touching a target twice."""

from suite.locomotion.tasks.corridors import RunThroughCorridor as RunThroughCorridor
from suite.locomotion.tasks.escape import Escape as Escape
from suite.locomotion.tasks.go_to_target import GoToTarget as GoToTarget
from suite.locomotion.tasks.reach import TwoTouch as TwoTouch
