"""Walkers: the creatures of the locomotion tasks (dm_control.locomotion.walkers)."""

from suite.locomotion.walkers.ant import Ant as Ant
