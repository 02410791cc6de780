"""Locomotion on Composer, after dm_control.locomotion: walkers, arenas, tasks, props and the
example builders (`suite.locomotion.examples`). docs/porting.md maps dm_control's modules to
ours."""
