"""General-purpose helpers that composer and the tasks built on it share (dm_control.utils'
transformations; docs/porting.md lists where each of dm_control's utilities went)."""
