"""Spheres that walkers pass through and that light up when touched (dm_control's
locomotion.props.target_sphere).

The sphere's geom has a contact margin of minus its diameter and a gap of its diameter, so the
engine reports contacts with it (which mark it touched) but never lets them push anything.
"""

import abc
import numbers

import numpy as np

import composer
import mjcf

_CHECKER_SIZE = 100  # pixels of each face of the cube-mapped checker textures


def _check_radius(radius, owner):
  if (
    not isinstance(radius, numbers.Real)
    or isinstance(radius, bool)
    or not np.isfinite(radius)
    or radius <= 0
  ):
    raise ValueError(f"{owner} `radius` must be a positive number of metres, got {radius!r}")


def _add_checker(mjcf_root, name, colours):
  """A cube-mapped checker texture of two colours."""
  first, second = colours
  return mjcf_root.asset.add(
    "texture",
    name=name,
    type="cube",
    builtin="checker",
    rgb1=first,
    rgb2=second,
    width=_CHECKER_SIZE,
    height=_CHECKER_SIZE,
  )


class _Target(composer.Entity):
  """The sphere shared by both targets: one geom `radius` m in size, `height_above_ground` m up,
  and contact detection with it."""

  def _build_sphere(self, radius, height_above_ground, material, specific_collision_geom_ids):
    self._geom = self._mjcf_root.worldbody.add(
      "geom",
      type="sphere",
      name="geom",
      margin=-2 * radius,
      gap=2 * radius,
      pos=[0, 0, height_above_ground],
      size=[radius],
      material=material,
    )
    self._material = material
    self._geom_id = -1
    self._specific_collision_geom_ids = specific_collision_geom_ids

  @property
  def geom(self):
    return self._geom

  @property
  def material(self):
    return self._material

  @property
  def mjcf_model(self):
    return self._mjcf_root

  def _is_touched(self, physics):
    """Whether a current contact involves the sphere (and, if `specific_collision_geom_ids` is
    non-empty, one of those geoms)."""
    contact = physics.data.contact
    geom1, geom2 = np.asarray(contact.geom1), np.asarray(contact.geom2)
    touching = (geom1 == self._geom_id) | (geom2 == self._geom_id)
    if self._specific_collision_geom_ids:
      partners = list(self._specific_collision_geom_ids)
      touching &= np.isin(geom1, partners) | np.isin(geom2, partners)
    return bool(touching.any())

  def initialize_episode(self, physics, random_state):
    del random_state  # deterministic
    self._geom_id = physics.model.name2id(self._geom.full_identifier, "geom")
    self._update_activation(physics)

  def after_substep(self, physics, random_state):
    del random_state  # deterministic
    self._update_activation(physics)

  @abc.abstractmethod
  def _update_activation(self, physics):
    """Records touches from the current contacts."""


class TargetSphere(_Target):
  """A sphere that is activated by the first contact with it and stays activated for the rest
  of the episode; it turns transparent then.

  `TargetSphere(radius=0.6, height_above_ground=1, rgb1=(0, 0.4, 0), rgb2=(0, 0.7, 0),
  specific_collision_geom_ids=None, name='target')`: `rgb1`, `rgb2` are the colours of its
  checker pattern; with `specific_collision_geom_ids` only contacts with those geoms count.
  A new episode (or `reset`) deactivates it.
  """

  def _build(
    self,
    radius=0.6,
    height_above_ground=1,
    rgb1=(0, 0.4, 0),
    rgb2=(0, 0.7, 0),
    specific_collision_geom_ids=None,
    name="target",
  ):
    _check_radius(radius, "TargetSphere")
    self._mjcf_root = mjcf.RootElement(model=name)
    self._texture = _add_checker(self._mjcf_root, "target_sphere", (rgb1, rgb2))
    material = self._mjcf_root.asset.add("material", name="target_sphere", texture=self._texture)
    self._build_sphere(radius, height_above_ground, material, specific_collision_geom_ids)
    self._activated = False

  @property
  def activated(self):
    """Whether the sphere was touched in this episode."""
    return self._activated

  def reset(self, physics):
    """Deactivates the sphere and makes it opaque again."""
    self._activated = False
    physics.bind(self._material).rgba[-1] = 1

  def initialize_episode_mjcf(self, random_state):
    del random_state  # deterministic
    self._activated = False

  def _update_activation(self, physics):
    if not self._activated and self._is_touched(physics):
      self._activated = True
      physics.bind(self._material).rgba[-1] = 0


class TargetSphereTwoTouch(_Target):
  """A sphere that records a first touch and a second one, the second counting only when it
  comes more than `touch_debounce` seconds after the first (any contact then counts); both
  stay recorded for the rest of the episode. Its texture shows the stage: `rgb_initial`,
  `rgb_interval` after the first touch, `rgb_final` after the second (pairs of checker colours).

  `TargetSphereTwoTouch(radius=0.6, height_above_ground=1, rgb_initial=((0, 0.4, 0),
  (0, 0.7, 0)), rgb_interval=((1., 1., .4), (0.7, 0.7, 0.)), rgb_final=((.4, 0.7, 1.),
  (0, 0.4, .7)), touch_debounce=.2, specific_collision_geom_ids=None, name='target')`.
  A new episode (or `reset`) clears both touches.
  """

  def _build(
    self,
    radius=0.6,
    height_above_ground=1,
    rgb_initial=((0, 0.4, 0), (0, 0.7, 0)),
    rgb_interval=((1.0, 1.0, 0.4), (0.7, 0.7, 0.0)),
    rgb_final=((0.4, 0.7, 1.0), (0, 0.4, 0.7)),
    touch_debounce=0.2,
    specific_collision_geom_ids=None,
    name="target",
  ):
    _check_radius(radius, "TargetSphereTwoTouch")
    self._mjcf_root = mjcf.RootElement(model=name)
    self._texture_initial = _add_checker(self._mjcf_root, "target_sphere_init", rgb_initial)
    self._texture_interval = _add_checker(self._mjcf_root, "target_sphere_inter", rgb_interval)
    self._texture_final = _add_checker(self._mjcf_root, "target_sphere_final", rgb_final)
    material = self._mjcf_root.asset.add(
      "material", name="target_sphere_init", texture=self._texture_initial
    )
    self._build_sphere(radius, height_above_ground, material, specific_collision_geom_ids)
    self._touch_debounce = touch_debounce
    self._touched_once = False
    self._touched_twice = False
    self._touch_time = None

  @property
  def activated(self):
    """(touched once, touched a second time after the debounce interval) in this episode."""
    return (self._touched_once, self._touched_twice)

  def reset(self, physics):
    """Clears both touches and shows the initial texture again."""
    self._touched_once = False
    self._touched_twice = False
    self._geom.material = self._material
    self._show(physics, self._texture_initial)

  def _show(self, physics, texture):
    """Makes the sphere's material use `texture` (in every texture role, as dm_control)."""
    physics.bind(self._material).texid = physics.bind(texture).element_id

  def initialize_episode_mjcf(self, random_state):
    del random_state  # deterministic
    self._touched_once = False
    self._touched_twice = False

  def _update_activation(self, physics):
    if self._touched_twice or not self._is_touched(physics):
      return
    if not self._touched_once:
      self._touched_once = True
      self._touch_time = physics.time()
      self._show(physics, self._texture_interval)
    if physics.time() > self._touch_time + self._touch_debounce:
      self._touched_twice = True
      self._show(physics, self._texture_final)
