"""What the manipulation tasks share: the arena, cameras, constants, observation settings, the
registry of environments and its tags, robots and workspaces (dm_control.manipulation.shared)."""
