"""Reach: bring the hand's tool centre point within 5 cm of a target, a Duplo brick lying on
the floor or a site floating in the workspace."""

import collections

import numpy as np

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

_ReachWorkspace = collections.namedtuple(
  "_ReachWorkspace", ["target_bbox", "tcp_bbox", "arm_offset"]
)

_PROP_Z_OFFSET = 0.001

_DUPLO_WORKSPACE = _ReachWorkspace(
  target_bbox=workspaces.BoundingBox(
    lower=(-0.1, -0.1, _PROP_Z_OFFSET), upper=(0.1, 0.1, _PROP_Z_OFFSET)
  ),
  tcp_bbox=workspaces.BoundingBox(lower=(-0.1, -0.1, 0.2), upper=(0.1, 0.1, 0.4)),
  arm_offset=robots.ARM_OFFSET,
)

_SITE_WORKSPACE = _ReachWorkspace(
  target_bbox=workspaces.BoundingBox(lower=(-0.2, -0.2, 0.02), upper=(0.2, 0.2, 0.4)),
  tcp_bbox=workspaces.BoundingBox(lower=(-0.2, -0.2, 0.02), upper=(0.2, 0.2, 0.4)),
  arm_offset=robots.ARM_OFFSET,
)

_TARGET_RADIUS = 0.05


class Reach(robots.ArmTask):
  """Bring the hand close to a target prop or site.

  `Reach(arena, arm, hand, prop, obs_settings, workspace, control_timestep)`: with `prop`
  None the target is a site placed anew each episode (its position observed as
  `target_position`); otherwise the prop, placed on the floor, is the target. The reward is 1
  within `_TARGET_RADIUS` of the target and falls off (gaussian) over as much again.
  """

  def __init__(self, arena, arm, hand, prop, obs_settings, workspace, control_timestep):
    self._build_arm(arena, arm, hand, obs_settings, workspace, control_timestep)

    target_distribution = distributions.Uniform(*workspace.target_bbox)
    self._prop = prop
    if prop:
      # the prop marks the target itself; its site stays hidden
      self._make_target_site(parent_entity=prop, visible=False)
      self._target = self._arena.add_free_entity(prop)
      self._prop_placer = initializers.PropPlacer(
        props=[prop],
        position=target_distribution,
        quaternion=workspaces.uniform_z_rotation,
        settle_physics=True,
      )
    else:
      self._target = self._make_target_site(parent_entity=arena, visible=True)
      self._target_placer = target_distribution
      target_position = observable.MJCFFeature("pos", self._target)
      target_position.configure(**obs_settings.prop_pose._asdict())
      self._task_observables["target_position"] = target_position

    self._add_spawn_area_sites(
      (workspace.tcp_bbox, constants.GREEN, "tcp_spawn_area"),
      (workspace.target_bbox, constants.BLUE, "target_spawn_area"),
    )

  def _make_target_site(self, parent_entity, visible):
    return workspaces.add_target_site(
      body=parent_entity.mjcf_model.worldbody,
      radius=_TARGET_RADIUS,
      visible=visible,
      rgba=constants.RED,
      name="target_site",
    )

  def get_reward(self, physics):
    hand_pos = physics.bind(self._hand.tool_center_point).xpos
    target_pos = physics.bind(self._target).xpos
    distance = np.linalg.norm(hand_pos - target_pos)
    return rewards.tolerance(distance, bounds=(0, _TARGET_RADIUS), margin=_TARGET_RADIUS)

  def initialize_episode(self, physics, random_state):
    self._hand.set_grasp(physics, close_factors=random_state.uniform())
    self._tcp_initializer(physics, random_state)
    if self._prop:
      self._prop_placer(physics, random_state)
    else:
      physics.bind(self._target).pos = self._target_placer(random_state=random_state)


def _reach(obs_settings, use_site):
  """A Reach task observed with `obs_settings`; the target a site if `use_site`, else a
  Duplo brick."""
  arena = arenas.Standard()
  arm = robots.make_arm(obs_settings=obs_settings)
  hand = robots.make_hand(obs_settings=obs_settings)
  if use_site:
    workspace, prop = _SITE_WORKSPACE, None
  else:
    workspace = _DUPLO_WORKSPACE
    prop = duplo.Duplo(
      observable_options=observations.make_options(obs_settings, observations.FREEPROP_OBSERVABLES)
    )
  return Reach(
    arena=arena,
    arm=arm,
    hand=hand,
    prop=prop,
    obs_settings=obs_settings,
    workspace=workspace,
    control_timestep=constants.CONTROL_TIMESTEP,
  )


@registry.add(tags.FEATURES, tags.EASY)
def reach_duplo_features():
  return _reach(obs_settings=observations.PERFECT_FEATURES, use_site=False)


@registry.add(tags.VISION, tags.EASY)
def reach_duplo_vision():
  return _reach(obs_settings=observations.VISION, use_site=False)


@registry.add(tags.FEATURES, tags.EASY)
def reach_site_features():
  return _reach(obs_settings=observations.PERFECT_FEATURES, use_site=True)


@registry.add(tags.VISION, tags.EASY)
def reach_site_vision():
  return _reach(obs_settings=observations.VISION, use_site=True)
