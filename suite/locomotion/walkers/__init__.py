"""Walkers: the creatures of the locomotion tasks (dm_control.locomotion.walkers)."""
