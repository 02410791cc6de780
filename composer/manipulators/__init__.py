"""Robot arms and hands for manipulation tasks (dm_control.entities.manipulators)."""
