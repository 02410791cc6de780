"""Manipulation on Composer, after dm_control.manipulation: props, shared arena, cameras,
observation settings and workspaces. docs/porting.md maps dm_control's modules to ours."""
