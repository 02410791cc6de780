"""What the locomotion tasks share: checks of their walker and arena, enabling the walker's
observables, the spawn yaw, and the ground contacts that end an episode."""

import numpy as np

from composer import variation
from suite.locomotion.walkers import base

# the observable groups every locomotion task enables (lists of a legacy walker's observables)
SENSOR_GROUPS = ("proprioception", "kinematic_sensors", "dynamic_sensors")


def check_walker(walker, task_name, attributes=()):
  """Raises unless `walker` is a locomotion walker with the given attributes.

  Raises:
    TypeError: `walker` is not a `suite.locomotion.walkers.base.Walker`.
    ValueError: it lacks some of `attributes` (e.g. those of legacy_base.Walker).
  """
  if not isinstance(walker, base.Walker):
    raise TypeError(
      f"{task_name}: `walker` must be a locomotion walker "
      f"(suite.locomotion.walkers.base.Walker), got {type(walker).__name__}"
    )
  missing = [name for name in attributes if not hasattr(walker, name)]
  if missing:
    raise ValueError(
      f"{task_name} needs a walker with {', '.join(missing)} (as the walkers of "
      f"suite.locomotion.walkers.legacy_base have): {type(walker).__name__} "
      "lacks them"
    )


def check_arena(arena, task_name, attributes):
  """Raises ValueError naming the attributes among `attributes` that `arena` lacks."""
  missing = [name for name in attributes if not hasattr(arena, name)]
  if missing:
    raise ValueError(
      f"{task_name} needs an arena with {', '.join(missing)}: {type(arena).__name__} lacks them"
    )


def enable_walker_observables(walker, task_name, groups=SENSOR_GROUPS, names=()):
  """Enables the walker's observables of each group in `groups` and those named in `names`.

  Raises:
    ValueError: the walker has no such group or observable.
  """
  observables = walker.observables
  missing = [name for name in (*groups, *names) if not hasattr(observables, name)]
  if missing:
    raise ValueError(
      f"{task_name} needs the walker observables {', '.join(missing)}: "
      f"{type(walker).__name__} has none of that name"
    )
  chosen = [obs for group in groups for obs in getattr(observables, group)]
  chosen += [getattr(observables, name) for name in names]
  for obs in chosen:
    obs.enabled = True


def walker_kind(walker, task_name):
  """'CMUHumanoid' or 'Rat': the walker family (by class name, its bases' included, as
  dm_control tells them apart) whose body names a task relies on.

  Raises:
    ValueError: the walker is neither.
  """
  class_names = [cls.__name__ for cls in type(walker).__mro__]
  for kind in ("CMUHumanoid", "Rat"):
    if any(kind in name for name in class_names):
      return kind
  raise ValueError(
    f"{task_name} expects Rat or CMUHumanoid (it uses their body names), got "
    f"{type(walker).__name__}"
  )


def find_walker_element(walker, kind, name, task_name):
  """The walker's `kind` element called `name` (e.g. a hand body).

  Raises:
    ValueError: the walker's model has none.
  """
  element = walker.mjcf_model.find(kind, name)
  if element is None:
    raise ValueError(f"{task_name}: the walker {type(walker).__name__} has no {kind} {name!r}")
  return element


def spawn_quaternion(rotation, random_state):
  """The yaw quaternion of `rotation` (radians, or a Variation drawing them), or None (no
  draw) when `rotation` is None or 0."""
  if not rotation:
    return None
  angle = variation.evaluate(rotation, random_state=random_state)
  return [np.cos(angle / 2), 0, 0, np.sin(angle / 2)]


class GroundContacts:
  """The geom ids of a walker's non-foot geoms and of the ground, for episode termination.

  `GroundContacts(physics, walker, ground_geoms, extra_ground_ids=())`: the walker's geoms other
  than its `ground_contact_geoms` against `ground_geoms` (and any other ids in
  `extra_ground_ids`).
  """

  def __init__(self, physics, walker, ground_geoms, extra_ground_ids=()):
    feet = set(walker.ground_contact_geoms)
    non_foot = [geom for geom in walker.mjcf_model.find_all("geom") if geom not in feet]
    self.walker_ids = set(physics.bind(non_foot).element_id)
    self.ground_ids = set(physics.bind(ground_geoms).element_id) | set(extra_ground_ids)
    # one flag per geom id: a lookup per contact, cheaper than set membership at every step
    self._is_walker = np.zeros(physics.model.ngeom, bool)
    self._is_walker[list(self.walker_ids)] = True
    self._is_ground = np.zeros(physics.model.ngeom, bool)
    self._is_ground[list(self.ground_ids)] = True

  def touching(self, physics):
    """Whether any current contact is between a non-foot geom and the ground."""
    contact = physics.data.contact
    geom1, geom2 = np.asarray(contact.geom1), np.asarray(contact.geom2)
    is_walker, is_ground = self._is_walker, self._is_ground
    return bool(
      np.any((is_walker[geom1] & is_ground[geom2]) | (is_ground[geom1] & is_walker[geom2]))
    )
