"""Manipulation on Composer, after dm_control.manipulation: a Jaco arm and hand reaching for,
lifting, placing and stacking props, each task observed either through the props' true poses
(`*_features`) or through a camera (`*_vision`). docs/porting.md maps dm_control's modules to
ours.

  env = suite.manipulation.load("stack_2_bricks_features", seed=0)

`ALL` names the 25 environments, `TAGS` their tags ('features', 'vision', 'easy'). Episodes
last 10 s unless `TIMEOUT` is set False (dm_control's `--timeout` flag) before loading.
"""

import composer as _composer
from suite.manipulation import bricks as _bricks  # noqa: F401  (registers its environments)
from suite.manipulation import lift as _lift  # noqa: F401
from suite.manipulation import place as _place  # noqa: F401
from suite.manipulation import reach as _reach  # noqa: F401
from suite.manipulation.shared import registry as _registry

_registry.done_importing_tasks()

_TIME_LIMIT = 10.0
TIMEOUT = True  # whether episodes end after _TIME_LIMIT seconds

ALL = tuple(_registry.get_all_names())
TAGS = tuple(_registry.get_tags())


def get_environments_by_tag(tag):
  """The names of the environments tagged `tag` (one of `TAGS`), in registration order."""
  return tuple(_registry.get_names_by_tag(tag))


def load(environment_name, seed=None):
  """A `composer.Environment` of the environment `environment_name` (one of `ALL`); `seed`
  seeds the task's random numbers (None: fresh entropy).

  Raises:
    ValueError: the name is not one of `ALL` (the message lists them).
  """
  if environment_name not in ALL:
    raise ValueError(
      f"Unknown manipulation environment {environment_name!r}; the "
      f"environments are: {', '.join(ALL)}."
    )
  task = _registry.get_constructor(environment_name)()
  time_limit = _TIME_LIMIT if TIMEOUT else float("inf")
  return _composer.Environment(task, time_limit=time_limit, random_state=seed)
