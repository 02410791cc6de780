"""Constants of the manipulation tasks."""

CONTROL_TIMESTEP = 0.04  # seconds between the agent's actions

# translucent colours of target and workspace sites (RGBA)
RED = (1.0, 0.0, 0.0, 0.3)
GREEN = (0.0, 1.0, 0.0, 0.3)
BLUE = (0.0, 0.0, 1.0, 0.3)
CYAN = (0.0, 1.0, 1.0, 0.3)
MAGENTA = (1.0, 0.0, 1.0, 0.3)
YELLOW = (1.0, 1.0, 0.0, 0.3)

TASK_SITE_GROUP = 3  # group of the task's sites, hidden in renderings by default
