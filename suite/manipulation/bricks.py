"""Brick tasks: stack Duplo bricks, or take a stack apart and build it again in another order.

Translucent, contactless copies of the bricks (mocap bodies) show the goal stack beside the
workspace. The reward averages, over the pairs of bricks that should be stacked, a fine term
for a pair clicked together (studs within 1 mm of the holes above) and, when stacking, a
coarse term for bringing them within 1 cm.
"""

import collections
import logging

import numpy as np

from composer import initializers
from composer import variation
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

_BrickWorkspace = collections.namedtuple(
  "_BrickWorkspace", ["prop_bbox", "tcp_bbox", "goal_hint_pos", "goal_hint_quat", "arm_offset"]
)

_PROP_Z_OFFSET = 1e-6

_WORKSPACE = _BrickWorkspace(
  prop_bbox=workspaces.BoundingBox(
    lower=(-0.1, -0.1, _PROP_Z_OFFSET), upper=(0.1, 0.1, _PROP_Z_OFFSET)
  ),
  tcp_bbox=workspaces.BoundingBox(lower=(-0.1, -0.1, 0.15), upper=(0.1, 0.1, 0.4)),
  goal_hint_pos=(0.2, 0.1, 0.0),
  goal_hint_quat=(-0.38268343, 0.0, 0.0, 0.92387953),  # turned 225 degrees about z
  arm_offset=robots.ARM_OFFSET,
)

_HINT_ALPHA = 0.75

_CLOSE_THRESHOLD = 0.01
_CLICK_THRESHOLD = 0.001

_COLOR_VALUES = (
  (1.0, 0.0, 0.0),
  (0.0, 1.0, 0.0),
  (0.0, 0.0, 1.0),
  (0.0, 1.0, 1.0),
  (1.0, 0.0, 1.0),
  (1.0, 1.0, 0.0),
)
_COLOR_NAMES = ("red", "green", "blue", "cyan", "magenta", "yellow")


class _Common(robots.ArmTask):
  """The arena, arm, hand, `num_bricks` (2 to 6) coloured bricks and as many goal hints,
  shared by the brick tasks."""

  def __init__(self, arena, arm, hand, num_bricks, obs_settings, workspace, control_timestep):
    if not 2 <= num_bricks <= 6:
      raise ValueError(f"`num_bricks` must be between 2 and 6, got {num_bricks}.")
    if num_bricks > 3:
      # each stacked pair makes many contacts: room for up to six stacked bricks
      arena.mjcf_model.size.nconmax = 400
      arena.mjcf_model.size.njmax = 1200

    self._build_arm(arena, arm, hand, obs_settings, workspace, control_timestep)

    brick_options = observations.make_options(obs_settings, observations.FREEPROP_OBSERVABLES)
    self._bricks, self._brick_frames, self._goal_hint_bricks = [], [], []
    for color in _COLOR_VALUES[:num_bricks]:
      brick = duplo.Duplo(color=color, observable_options=brick_options)
      self._brick_frames.append(arena.add_free_entity(brick))
      self._bricks.append(brick)
      # the goal hint: translucent, no contacts, no observables
      hint = duplo.Duplo(color=color)
      _hintify(hint, alpha=_HINT_ALPHA)
      arena.attach(hint)
      self._goal_hint_bricks.append(hint)

    self._goal_hint_pos = workspace.goal_hint_pos
    self._goal_hint_quat = workspace.goal_hint_quat

    self._add_spawn_area_sites(
      (workspace.tcp_bbox, constants.GREEN, "tcp_spawn_area"),
      (workspace.prop_bbox, constants.BLUE, "prop_spawn_area"),
    )

  def _get_desired_order(self, physics):
    del physics  # the order is the task's
    return self._desired_order.astype(np.double)

  def _observe_desired_order(self, obs_settings):
    """Adds the `desired_order` observable (the bricks' indices, bottom first)."""
    desired_order = observable.Generic(self._get_desired_order)
    desired_order.configure(**obs_settings.prop_pose._asdict())
    self._task_observables["desired_order"] = desired_order


def _log_order(order):
  logging.info(
    "Desired stack order (from bottom to top): [%s]", " ".join(_COLOR_NAMES[i] for i in order)
  )


class Stack(_Common):
  """Build a stack of Duplo bricks.

  `Stack(arena, arm, hand, num_bricks, target_height, moveable_base, randomize_order,
  obs_settings, workspace, control_timestep)`: the stack should be `target_height` bricks
  (2 to `num_bricks`) tall, in index order, or in an order drawn each episode (observed as
  `desired_order`) if `randomize_order`. Unless `moveable_base`, the bottom brick of the
  desired stack is fixed to the floor.
  """

  def __init__(
    self,
    arena,
    arm,
    hand,
    num_bricks,
    target_height,
    moveable_base,
    randomize_order,
    obs_settings,
    workspace,
    control_timestep,
  ):
    if not 2 <= target_height <= num_bricks:
      raise ValueError(f"`target_height` must be between 2 and {num_bricks}, got {target_height}.")
    super().__init__(
      arena=arena,
      arm=arm,
      hand=hand,
      num_bricks=num_bricks,
      obs_settings=obs_settings,
      workspace=workspace,
      control_timestep=control_timestep,
    )
    self._moveable_base = moveable_base
    self._randomize_order = randomize_order
    self._target_height = target_height
    self._prop_bbox = workspace.prop_bbox
    self._desired_order = np.arange(target_height)
    if randomize_order:
      self._observe_desired_order(obs_settings)

  def initialize_episode_mjcf(self, random_state):
    if self._randomize_order:
      self._desired_order = random_state.choice(
        len(self._bricks), size=self._target_height, replace=False
      )
      _log_order(self._desired_order)
    fixed = [] if self._moveable_base else [self._desired_order[0]]
    _add_or_remove_freejoints(attachment_frames=self._brick_frames, fixed_indices=fixed)
    # made here, not in __init__: PropPlacer finds the props' free joints when made
    self._brick_placer = initializers.PropPlacer(
      props=self._bricks,
      position=distributions.Uniform(*self._prop_bbox),
      quaternion=workspaces.uniform_z_rotation,
      settle_physics=True,
    )

  def initialize_episode(self, physics, random_state):
    self._brick_placer(physics, random_state)
    self._hand.set_grasp(physics, close_factors=random_state.uniform())
    self._tcp_initializer(physics, random_state)
    _build_stack(
      physics,
      bricks=self._goal_hint_bricks,
      base_pos=self._goal_hint_pos,
      base_quat=self._goal_hint_quat,
      order=self._desired_order,
      random_state=random_state,
    )

  def get_reward(self, physics):
    pairs = list(zip(self._desired_order[:-1], self._desired_order[1:]))
    return np.mean(
      _get_pairwise_stacking_rewards(physics=physics, bricks=self._bricks, pairs=pairs)
    )


class Reassemble(_Common):
  """Take a stack of Duplo bricks apart and build it again in another order.

  `Reassemble(arena, arm, hand, num_bricks, randomize_initial_order, randomize_desired_order,
  obs_settings, workspace, control_timestep)`: the initial stack is in index order, or
  shuffled each episode if `randomize_initial_order`. Its bottom brick is fixed to the floor
  and stays at the bottom; the others should end in reverse order, or in an independently
  shuffled order (observed as `desired_order`) if `randomize_desired_order`.
  """

  def __init__(
    self,
    arena,
    arm,
    hand,
    num_bricks,
    randomize_initial_order,
    randomize_desired_order,
    obs_settings,
    workspace,
    control_timestep,
  ):
    super().__init__(
      arena=arena,
      arm=arm,
      hand=hand,
      num_bricks=num_bricks,
      obs_settings=obs_settings,
      workspace=workspace,
      control_timestep=control_timestep,
    )
    self._randomize_initial_order = randomize_initial_order
    self._randomize_desired_order = randomize_desired_order
    self._initial_order = np.arange(num_bricks)
    self._desired_order = self._initial_order.copy()
    self._desired_order[1:] = self._desired_order[-1:0:-1]
    if randomize_desired_order:
      self._observe_desired_order(obs_settings)
    self._base_pos = distributions.Uniform(*workspace.prop_bbox)
    self._base_quat = workspaces.uniform_z_rotation

  def initialize_episode_mjcf(self, random_state):
    if self._randomize_initial_order:
      random_state.shuffle(self._initial_order)
    # the bottom brick is fixed, so it stays first; the rest reversed by default
    self._desired_order[0] = self._initial_order[0]
    self._desired_order[1:] = self._initial_order[-1:0:-1]
    if self._randomize_desired_order:
      random_state.shuffle(self._desired_order[1:])
    _log_order(self._desired_order)
    _add_or_remove_freejoints(
      attachment_frames=self._brick_frames, fixed_indices=[self._initial_order[0]]
    )

  def initialize_episode(self, physics, random_state):
    _build_stack(
      physics,
      bricks=self._bricks,
      base_pos=self._base_pos,
      base_quat=self._base_quat,
      order=self._initial_order,
      random_state=random_state,
    )
    _build_stack(
      physics,
      bricks=self._goal_hint_bricks,
      base_pos=self._goal_hint_pos,
      base_quat=self._goal_hint_quat,
      order=self._desired_order,
      random_state=random_state,
    )
    self._hand.set_grasp(physics, close_factors=random_state.uniform())
    self._tcp_initializer(physics, random_state)

  def get_reward(self, physics):
    pairs = list(zip(self._desired_order[:-1], self._desired_order[1:]))
    # no coarse term: it would reward leaving the initial stack standing
    return np.mean(
      _get_pairwise_stacking_rewards(
        physics=physics, bricks=self._bricks, pairs=pairs, close_coef=0.0
      )
    )


def _distance(pos1, pos2):
  """Sum of the distances between corresponding rows."""
  diff = pos1 - pos2
  return sum(np.sqrt((diff * diff).sum(1)))


def _min_stud_to_hole_distance(physics, bottom_brick, top_brick):
  """How far the top brick's corner holes are from the bottom brick's corner studs, in the
  better of the two orientations (a brick turned 180 degrees stacks as well)."""
  stud_pos = physics.bind(bottom_brick.studs[[0, -1], [0, -1]]).xpos
  hole_pos = physics.bind(top_brick.holes[[0, -1], [0, -1]]).xpos
  return min(_distance(stud_pos, hole_pos), _distance(stud_pos[::-1], hole_pos))


def _get_pairwise_stacking_rewards(physics, bricks, pairs, close_coef=0.1):
  """Per `(bottom index, top index)` pair, a reward in (0, 1], 1 for bricks clicked together:
  the average of a coarse term (weight `close_coef`) and a fine one (weight 1)."""
  distances = np.hstack(
    [_min_stud_to_hole_distance(physics, bricks[bottom], bricks[top]) for bottom, top in pairs]
  )
  close = rewards.tolerance(distances, bounds=(0, _CLOSE_THRESHOLD), margin=(_CLOSE_THRESHOLD * 10))
  clicked = rewards.tolerance(distances, bounds=(0, _CLICK_THRESHOLD), margin=_CLICK_THRESHOLD)
  return np.average([close, clicked], weights=[close_coef, 1.0], axis=0)


def _half_turn_about_z(quat):
  """`quat` (normalised) turned by pi about its own z axis, as mju_quatIntegrate does."""
  w, x, y, z = (float(q) for q in quat)
  norm = np.sqrt(w * w + x * x + y * y + z * z)
  if abs(norm - 1.0) > 1e-15:  # normalised by the reciprocal, as MuJoCo
    scale = 1.0 / norm
    w, x, y, z = w * scale, x * scale, y * scale, z * scale
  c, s = np.cos(np.pi / 2), np.sin(np.pi / 2)  # the half turn's quaternion is (c, 0, 0, s)
  return np.array([w * c - z * s, x * c + y * s, y * c - x * s, z * c + w * s])


def _build_stack(physics, bricks, base_pos, base_quat, order, random_state):
  """Stacks `bricks` in `order` (bottom first): the bottom one at `base_pos` and
  `base_quat` (values or variations), each other one clicked onto the one below, turned half
  a turn on a coin flip (the reward does not tell the two apart)."""
  base_pos = variation.evaluate(base_pos, random_state=random_state)
  base_quat = variation.evaluate(base_quat, random_state=random_state)
  bricks[order[0]].set_pose(physics, position=base_pos, quaternion=base_quat)
  for bottom_index, top_index in zip(order[:-1], order[1:]):
    bottom, top = bricks[bottom_index], bricks[top_index]
    stud_pos = physics.bind(bottom.studs[0, 0]).xpos
    _, quat = bottom.get_pose(physics)
    if random_state.rand() < 0.5:
      quat = _half_turn_about_z(quat)
      hole_index = (-1, -1)
    else:
      hole_index = (0, 0)
    top.set_pose(physics, quaternion=quat)
    # then move it so that its hole sits on the stud below
    top.set_pose(physics, position=stud_pos - physics.bind(top.holes[hole_index]).xpos)


def _add_or_remove_freejoints(attachment_frames, fixed_indices):
  """Removes the free joints of the frames at `fixed_indices` (fixing them to the world) and
  gives the other frames one if they lack it."""
  for i, frame in enumerate(attachment_frames):
    if i in fixed_indices:
      if frame.freejoint:
        frame.freejoint.remove()
    elif not frame.freejoint:
      frame.add("freejoint")


def _replace_alpha(rgba, alpha=0.3):
  new_rgba = rgba.copy()
  new_rgba[3] = alpha
  return new_rgba


def _hintify(entity, alpha=None):
  """Makes `entity` (in place) a visual hint: no contacts, mocap bodies (fixed as far as the
  dynamics go) and, given `alpha`, geoms that opacity.

  Colours set on the geoms or on the model's top-level geom default are changed; those from
  nested default classes are not.
  """
  for subentity in entity.iter_entities():
    default_geom = subentity.mjcf_model.default.geom
    if alpha is not None and default_geom is not None and default_geom.rgba is not None:
      default_geom.rgba = _replace_alpha(default_geom.rgba, alpha=alpha)
    for body in subentity.mjcf_model.find_all("body"):
      body.mocap = "true"
    for geom in subentity.mjcf_model.find_all("geom"):
      if alpha is not None and geom.rgba is not None:
        geom.rgba = _replace_alpha(geom.rgba, alpha=alpha)
      geom.contype = 0
      geom.conaffinity = 0


def _stack(obs_settings, num_bricks, moveable_base, randomize_order, target_height=None):
  """A Stack task observed with `obs_settings`; `target_height` defaults to `num_bricks`."""
  if target_height is None:
    target_height = num_bricks
  arena = arenas.Standard()
  arm = robots.make_arm(obs_settings=obs_settings)
  hand = robots.make_hand(obs_settings=obs_settings)
  return Stack(
    arena=arena,
    arm=arm,
    hand=hand,
    num_bricks=num_bricks,
    target_height=target_height,
    moveable_base=moveable_base,
    randomize_order=randomize_order,
    obs_settings=obs_settings,
    workspace=_WORKSPACE,
    control_timestep=constants.CONTROL_TIMESTEP,
  )


@registry.add(tags.FEATURES)
def stack_2_bricks_features():
  return _stack(
    obs_settings=observations.PERFECT_FEATURES,
    num_bricks=2,
    moveable_base=False,
    randomize_order=False,
  )


@registry.add(tags.VISION)
def stack_2_bricks_vision():
  return _stack(
    obs_settings=observations.VISION, num_bricks=2, moveable_base=False, randomize_order=False
  )


@registry.add(tags.FEATURES)
def stack_2_bricks_moveable_base_features():
  return _stack(
    obs_settings=observations.PERFECT_FEATURES,
    num_bricks=2,
    moveable_base=True,
    randomize_order=False,
  )


@registry.add(tags.VISION)
def stack_2_bricks_moveable_base_vision():
  return _stack(
    obs_settings=observations.VISION, num_bricks=2, moveable_base=True, randomize_order=False
  )


@registry.add(tags.FEATURES)
def stack_3_bricks_features():
  return _stack(
    obs_settings=observations.PERFECT_FEATURES,
    num_bricks=3,
    moveable_base=False,
    randomize_order=False,
  )


@registry.add(tags.VISION)
def stack_3_bricks_vision():
  return _stack(
    obs_settings=observations.VISION, num_bricks=3, moveable_base=False, randomize_order=False
  )


@registry.add(tags.FEATURES)
def stack_3_bricks_random_order_features():
  return _stack(
    obs_settings=observations.PERFECT_FEATURES,
    num_bricks=3,
    moveable_base=False,
    randomize_order=True,
  )


@registry.add(tags.FEATURES)
def stack_2_of_3_bricks_random_order_features():
  return _stack(
    obs_settings=observations.PERFECT_FEATURES,
    num_bricks=3,
    moveable_base=False,
    randomize_order=True,
    target_height=2,
  )


@registry.add(tags.VISION)
def stack_2_of_3_bricks_random_order_vision():
  return _stack(
    obs_settings=observations.VISION,
    num_bricks=3,
    moveable_base=False,
    randomize_order=True,
    target_height=2,
  )


def _reassemble(obs_settings, num_bricks, randomize_initial_order, randomize_desired_order):
  """A Reassemble task observed with `obs_settings`."""
  arena = arenas.Standard()
  arm = robots.make_arm(obs_settings=obs_settings)
  hand = robots.make_hand(obs_settings=obs_settings)
  return Reassemble(
    arena=arena,
    arm=arm,
    hand=hand,
    num_bricks=num_bricks,
    randomize_initial_order=randomize_initial_order,
    randomize_desired_order=randomize_desired_order,
    obs_settings=obs_settings,
    workspace=_WORKSPACE,
    control_timestep=constants.CONTROL_TIMESTEP,
  )


@registry.add(tags.FEATURES)
def reassemble_3_bricks_fixed_order_features():
  return _reassemble(
    obs_settings=observations.PERFECT_FEATURES,
    num_bricks=3,
    randomize_initial_order=False,
    randomize_desired_order=False,
  )


@registry.add(tags.VISION)
def reassemble_3_bricks_fixed_order_vision():
  return _reassemble(
    obs_settings=observations.VISION,
    num_bricks=3,
    randomize_initial_order=False,
    randomize_desired_order=False,
  )


@registry.add(tags.FEATURES)
def reassemble_5_bricks_random_order_features():
  return _reassemble(
    obs_settings=observations.PERFECT_FEATURES,
    num_bricks=5,
    randomize_initial_order=True,
    randomize_desired_order=True,
  )


@registry.add(tags.VISION)
def reassemble_5_bricks_random_order_vision():
  return _reassemble(
    obs_settings=observations.VISION,
    num_bricks=5,
    randomize_initial_order=True,
    randomize_desired_order=True,
  )
