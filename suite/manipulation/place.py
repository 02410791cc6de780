"""Place: put a Duplo brick on a target held up by a pedestal, either another brick or a cradle
of three spheres."""

import collections

import numpy as np

import mjcf
from composer import define
from composer import entity
from composer import initializers
from composer.observation import observable
from composer.props import duplo
from composer.variation import distributions
from suite.manipulation.shared import arenas
from suite.manipulation.shared import constants
from suite.manipulation.shared import observations
from suite.manipulation.shared import registry
from suite.manipulation.shared import robots
from suite.manipulation.shared import tags
from suite.manipulation.shared import workspaces
from suite.utils import rewards

_PlaceWorkspace = collections.namedtuple(
  "_PlaceWorkspace", ["prop_bbox", "target_bbox", "tcp_bbox", "arm_offset"]
)

_TARGET_RADIUS = 0.05
_PEDESTAL_RADIUS = 0.07

_PROP_Z_OFFSET = 1e-6

_WORKSPACE = _PlaceWorkspace(
  prop_bbox=workspaces.BoundingBox(
    lower=(-0.1, -0.1, _PROP_Z_OFFSET), upper=(0.1, 0.1, _PROP_Z_OFFSET)
  ),
  tcp_bbox=workspaces.BoundingBox(
    lower=(-0.1, -0.1, _PEDESTAL_RADIUS + 0.1), upper=(0.1, 0.1, 0.4)
  ),
  target_bbox=workspaces.BoundingBox(
    lower=(-0.1, -0.1, _PEDESTAL_RADIUS), upper=(0.1, 0.1, _PEDESTAL_RADIUS + 0.1)
  ),
  arm_offset=robots.ARM_OFFSET,
)


class SphereCradle(entity.Entity):
  """Three spheres around a hollow a prop settles into, easier to place on than a brick."""

  _SPHERE_COUNT = 3

  def _build(self):
    self._mjcf_root = mjcf.RootElement(model="cradle")
    radius = 0.7 * _PEDESTAL_RADIUS
    # centres on a circle of 0.7 radii, sunk 0.7 radii below the origin
    for angle in np.linspace(0, 2 * np.pi, num=self._SPHERE_COUNT, endpoint=False):
      centre = 0.7 * radius * np.array([np.sin(angle), np.cos(angle), -1])
      self._mjcf_root.worldbody.add("geom", type="sphere", size=[radius], condim=6, pos=centre)

  @property
  def mjcf_model(self):
    return self._mjcf_root


class Pedestal(entity.Entity):
  """A capsule pillar 0.2 m tall under `cradle` (attached at its top), with a target site of
  `target_radius` at the origin, where the placed prop should end up."""

  _HEIGHT = 0.2

  def _build(self, cradle, target_radius):
    self._mjcf_root = mjcf.RootElement(model="pedestal")
    worldbody = self._mjcf_root.worldbody
    worldbody.add(
      "geom",
      type="capsule",
      size=[_PEDESTAL_RADIUS],
      fromto=[0, 0, -_PEDESTAL_RADIUS, 0, 0, -(self._HEIGHT + _PEDESTAL_RADIUS)],
    )
    cradle_site = worldbody.add(
      "site", type="sphere", size=(0.003,), group=constants.TASK_SITE_GROUP
    )
    self.attach(cradle, cradle_site)
    self._target_site = workspaces.add_target_site(
      body=worldbody, radius=target_radius, rgba=constants.RED
    )

  @property
  def mjcf_model(self):
    return self._mjcf_root

  @property
  def target_site(self):
    return self._target_site

  def _build_observables(self):
    return PedestalObservables(self)


class PedestalObservables(entity.Observables):
  """The target's position."""

  @define.observable
  def position(self):
    return observable.MJCFFeature("xpos", self._entity.target_site)


class Place(robots.ArmTask):
  """Place the prop on a fixed prop (`cradle`) held up by a pedestal.

  `Place(arena, arm, hand, prop, obs_settings, workspace, control_timestep, cradle)`. The
  reward weighs the prop being within `_TARGET_RADIUS` of the target ten times as much as
  the rest: before that, the hand holding the prop; after, the hand moving away from it.
  """

  def __init__(self, arena, arm, hand, prop, obs_settings, workspace, control_timestep, cradle):
    self._build_arm(arena, arm, hand, obs_settings, workspace, control_timestep)

    self._prop = prop
    self._prop_frame = self._arena.add_free_entity(prop)
    self._pedestal = Pedestal(cradle=cradle, target_radius=_TARGET_RADIUS)
    self._arena.attach(self._pedestal)
    for pedestal_observable in self._pedestal.observables.as_dict().values():
      pedestal_observable.configure(**obs_settings.prop_pose._asdict())

    self._prop_placer = initializers.PropPlacer(
      props=[prop],
      position=distributions.Uniform(*workspace.prop_bbox),
      quaternion=workspaces.uniform_z_rotation,
      settle_physics=True,
      max_attempts_per_prop=50,
    )
    self._pedestal_placer = initializers.PropPlacer(
      props=[self._pedestal],
      position=distributions.Uniform(*workspace.target_bbox),
      settle_physics=False,
    )

    self._add_spawn_area_sites(
      (workspace.tcp_bbox, constants.GREEN, "tcp_spawn_area"),
      (workspace.prop_bbox, constants.BLUE, "prop_spawn_area"),
      (workspace.target_bbox, constants.CYAN, "pedestal_spawn_area"),
    )

  def initialize_episode(self, physics, random_state):
    self._pedestal_placer(physics, random_state, ignore_contacts_with_entities=[self._prop])
    self._hand.set_grasp(physics, close_factors=random_state.uniform())
    self._tcp_initializer(physics, random_state)
    self._prop_placer(physics, random_state)

  def get_reward(self, physics):
    target = physics.bind(self._pedestal.target_site).xpos
    prop = physics.bind(self._prop_frame).xpos
    tcp = physics.bind(self._hand.tool_center_point).xpos
    grasp = rewards.tolerance(
      np.linalg.norm(prop - tcp),
      bounds=(0, _TARGET_RADIUS),
      margin=_TARGET_RADIUS,
      sigmoid="long_tail",
    )
    in_place = rewards.tolerance(
      np.linalg.norm(prop - target),
      bounds=(0, _TARGET_RADIUS),
      margin=_TARGET_RADIUS,
      sigmoid="long_tail",
    )
    hand_away = rewards.tolerance(
      np.linalg.norm(tcp - target),
      bounds=(4 * _TARGET_RADIUS, np.inf),
      margin=3 * _TARGET_RADIUS,
      sigmoid="long_tail",
    )
    in_place_weight = 10.0
    grasp_or_hand_away = grasp * (1 - in_place) + hand_away * in_place
    return (grasp_or_hand_away + in_place_weight * in_place) / (1 + in_place_weight)


def _place(obs_settings, cradle_prop_name):
  """A Place task observed with `obs_settings`: a Duplo brick to put on `cradle_prop_name`,
  'duplo' (another brick) or 'cradle' (a SphereCradle)."""
  arena = arenas.Standard()
  arm = robots.make_arm(obs_settings=obs_settings)
  hand = robots.make_hand(obs_settings=obs_settings)
  prop = duplo.Duplo(
    observable_options=observations.make_options(obs_settings, observations.FREEPROP_OBSERVABLES)
  )
  if cradle_prop_name == "duplo":
    cradle = duplo.Duplo()
  elif cradle_prop_name == "cradle":
    cradle = SphereCradle()
  else:
    raise ValueError("`cradle_prop_name` must be either 'duplo' or 'cradle'.")
  return Place(
    arena=arena,
    arm=arm,
    hand=hand,
    prop=prop,
    obs_settings=obs_settings,
    workspace=_WORKSPACE,
    control_timestep=constants.CONTROL_TIMESTEP,
    cradle=cradle,
  )


@registry.add(tags.FEATURES)
def place_brick_features():
  return _place(obs_settings=observations.PERFECT_FEATURES, cradle_prop_name="duplo")


@registry.add(tags.VISION)
def place_brick_vision():
  return _place(obs_settings=observations.VISION, cradle_prop_name="duplo")


@registry.add(tags.FEATURES)
def place_cradle_features():
  return _place(obs_settings=observations.PERFECT_FEATURES, cradle_prop_name="cradle")


@registry.add(tags.VISION)
def place_cradle_vision():
  return _place(obs_settings=observations.VISION, cradle_prop_name="cradle")
