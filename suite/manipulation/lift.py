"""Lift: raise a prop (a Duplo brick, or a box too large for a pinch grip) 0.3 m above where
it settled."""

import collections
import itertools

import numpy as np

from composer import initializers
from composer.props import duplo
from composer.props import primitive
from composer.variation import distributions
from suite.manipulation.shared import arenas
from suite.manipulation.shared import constants
from suite.manipulation.shared import observations
from suite.manipulation.shared import registry
from suite.manipulation.shared import robots
from suite.manipulation.shared import tags
from suite.manipulation.shared import workspaces
from suite.utils import rewards

_LiftWorkspace = collections.namedtuple("_LiftWorkspace", ["prop_bbox", "tcp_bbox", "arm_offset"])

_DUPLO_WORKSPACE = _LiftWorkspace(
  prop_bbox=workspaces.BoundingBox(lower=(-0.1, -0.1, 0.0), upper=(0.1, 0.1, 0.0)),
  tcp_bbox=workspaces.BoundingBox(lower=(-0.1, -0.1, 0.2), upper=(0.1, 0.1, 0.4)),
  arm_offset=robots.ARM_OFFSET,
)

_BOX_SIZE = 0.09
_BOX_MASS = 1.3
_BOX_WORKSPACE = _LiftWorkspace(
  prop_bbox=workspaces.BoundingBox(lower=(-0.1, -0.1, _BOX_SIZE), upper=(0.1, 0.1, _BOX_SIZE)),
  tcp_bbox=workspaces.BoundingBox(lower=(-0.1, -0.1, 0.2), upper=(0.1, 0.1, 0.4)),
  arm_offset=robots.ARM_OFFSET,
)

_DISTANCE_TO_LIFT = 0.3


class _VertexSitesMixin:
  """Adds a site at each corner of a box geom or site (`vertices`), whose lowest one measures
  the prop's height."""

  def _add_vertex_sites(self, box_geom_or_site):
    # corners in the order x, then y, then z, each - before +
    corners = np.vstack(list(itertools.product(*[(-half, half) for half in box_geom_or_site.size])))
    if box_geom_or_site.pos is not None:
      corners += box_geom_or_site.pos
    parent = box_geom_or_site.parent
    self._vertices = [
      parent.add(
        "site",
        name=f"vertex_{i}",
        pos=corner,
        type="sphere",
        size=[0.002],
        rgba=constants.RED,
        group=constants.TASK_SITE_GROUP,
      )
      for i, corner in enumerate(corners)
    ]

  @property
  def vertices(self):
    return self._vertices


class _BoxWithVertexSites(primitive.Primitive, _VertexSitesMixin):
  """A box Primitive with sites at the corners of its geom."""

  def _build(self, *args, **kwargs):
    super()._build(*args, geom_type="box", **kwargs)
    self._add_vertex_sites(self.geom)


class _DuploWithVertexSites(duplo.Duplo, _VertexSitesMixin):
  """A Duplo brick with sites at the corners of its bounding-box site."""

  def _build(self, *args, **kwargs):
    super()._build(*args, **kwargs)
    self._add_vertex_sites(self.mjcf_model.find("site", "bounding_box"))


class Lift(robots.ArmTask):
  """Raise a prop.

  `Lift(arena, arm, hand, prop, obs_settings, workspace, control_timestep)`: `prop` needs
  `vertices` (sites at its corners). The target height is `_DISTANCE_TO_LIFT` above the lowest
  vertex once the prop has settled; the reward rises linearly from 0 at the settled height to
  1 at the target and above.
  """

  def __init__(self, arena, arm, hand, prop, obs_settings, workspace, control_timestep):
    self._build_arm(arena, arm, hand, obs_settings, workspace, control_timestep)

    self._prop = prop
    self._arena.add_free_entity(prop)
    self._prop_placer = initializers.PropPlacer(
      props=[prop],
      position=distributions.Uniform(*workspace.prop_bbox),
      quaternion=workspaces.uniform_z_rotation,
      ignore_collisions=True,
      settle_physics=True,
    )

    # a plane at the target height (moved each episode) and the spawn areas
    worldbody = self.root_entity.mjcf_model.worldbody
    self._target_height_site = workspaces.add_bbox_site(
      body=worldbody, lower=(-1, -1, 0), upper=(1, 1, 0), rgba=constants.RED, name="target_height"
    )
    self._add_spawn_area_sites(
      (workspace.tcp_bbox, constants.GREEN, "tcp_spawn_area"),
      (workspace.prop_bbox, constants.BLUE, "prop_spawn_area"),
    )

  def _get_height_of_lowest_vertex(self, physics):
    return min(physics.bind(self._prop.vertices).xpos[:, 2])

  def get_reward(self, physics):
    return rewards.tolerance(
      self._get_height_of_lowest_vertex(physics),
      bounds=(self._target_height, np.inf),
      margin=_DISTANCE_TO_LIFT,
      value_at_margin=0,
      sigmoid="linear",
    )

  def initialize_episode(self, physics, random_state):
    self._hand.set_grasp(physics, close_factors=random_state.uniform())
    self._prop_placer(physics, random_state)
    self._tcp_initializer(physics, random_state)
    # the target is measured from where the prop came to rest
    self._target_height = _DISTANCE_TO_LIFT + self._get_height_of_lowest_vertex(physics)
    physics.bind(self._target_height_site).pos[2] = self._target_height


def _lift(obs_settings, prop_name):
  """A Lift task observed with `obs_settings`; `prop_name` is 'duplo' or 'box'."""
  arena = arenas.Standard()
  arm = robots.make_arm(obs_settings=obs_settings)
  hand = robots.make_hand(obs_settings=obs_settings)
  prop_options = observations.make_options(obs_settings, observations.FREEPROP_OBSERVABLES)
  if prop_name == "duplo":
    workspace = _DUPLO_WORKSPACE
    prop = _DuploWithVertexSites(observable_options=prop_options)
  elif prop_name == "box":
    workspace = _BOX_WORKSPACE
    # too large to pick up with a pinch grip, on purpose
    prop = _BoxWithVertexSites(size=[_BOX_SIZE] * 3, observable_options=prop_options)
    prop.geom.mass = _BOX_MASS
  else:
    raise ValueError("`prop_name` must be either 'duplo' or 'box'.")
  return Lift(
    arena=arena,
    arm=arm,
    hand=hand,
    prop=prop,
    workspace=workspace,
    obs_settings=obs_settings,
    control_timestep=constants.CONTROL_TIMESTEP,
  )


@registry.add(tags.FEATURES)
def lift_brick_features():
  return _lift(obs_settings=observations.PERFECT_FEATURES, prop_name="duplo")


@registry.add(tags.VISION)
def lift_brick_vision():
  return _lift(obs_settings=observations.VISION, prop_name="duplo")


@registry.add(tags.FEATURES)
def lift_large_box_features():
  return _lift(obs_settings=observations.PERFECT_FEATURES, prop_name="box")


@registry.add(tags.VISION)
def lift_large_box_vision():
  return _lift(obs_settings=observations.VISION, prop_name="box")
