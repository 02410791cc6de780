"""Arenas of the locomotion tasks (dm_control.locomotion.arenas)."""
