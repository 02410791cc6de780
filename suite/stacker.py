"""Stacker: the planar manipulator's arm stacks boxes so that one reaches a target height.

Tasks: stack_2 and stack_4 (two or four boxes; both hard). The target is a ghost box at a
random x, at the height of the top box of a stack of 1..n boxes.
"""

import functools

import numpy as np

import mjcf
from suite import common
from suite import control
from suite import declare
from suite import manipulator
from suite.utils import containers
from suite.utils import rewards

_CLOSE = 0.01  # metres: the hand must be this far beyond 0.1 m from the target to count as away
_CONTROL_TIMESTEP = 0.01  # seconds: 10 physics steps of 1 ms
_TIME_LIMIT = 10  # seconds
_MAX_BOXES = 4  # boxes in the model file
_BOX_AXES = "xyz"  # each box's joints box{k}_x, box{k}_y (its angle), box{k}_z, as observed
_ARM_SIZE = len(manipulator.ARM_JOINTS)  # the arm's coordinates, before the boxes' in qpos

SUITE = containers.TaggedTasks()


def _box_names(n_boxes):
  """The bodies (and sites) of the first `n_boxes` boxes."""
  return [f"box{k}" for k in range(n_boxes)]


def make_model(n_boxes):
  """The model's XML text with boxes box0..box{n_boxes - 1}, and the include files it needs."""
  xml = common.read_model("stacker.xml")
  if n_boxes < _MAX_BOXES:
    model = mjcf.from_xml_string(xml, assets=common.ASSETS)
    for name in _box_names(_MAX_BOXES)[n_boxes:]:
      model.find("body", name).remove()
    xml = model.to_xml_string()
  return xml, common.ASSETS


@SUITE.add("hard")
def stack_2(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stack two boxes so that one reaches the target."""
  return _environment(2, fully_observable, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def stack_4(fully_observable=True, time_limit=_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stack four boxes so that one reaches the target."""
  return _environment(4, fully_observable, time_limit, random, environment_kwargs)


def _environment(n_boxes, fully_observable, time_limit, random, environment_kwargs):
  physics = Physics.from_xml_string(*make_model(n_boxes))
  task = Stack(n_boxes=n_boxes, fully_observable=fully_observable, random=random)
  return control.Environment(
    physics,
    task,
    control_timestep=_CONTROL_TIMESTEP,
    time_limit=time_limit,
    **(environment_kwargs or {}),
  )


class Physics(manipulator.Physics):
  """The planar arm's quantities (see manipulator.Physics)."""


@declare.feature(lambda m: ((m.nq - _ARM_SIZE) // len(_BOX_AXES), manipulator.POSE_SIZE))
def box_pos(m, d, p, out):
  """The boxes' poses (x, z, qw, qy), one row per box."""
  for i in range(len(p.boxes)):
    pose = manipulator.body_2d_pose(d, p.boxes[i])
    for j in range(manipulator.POSE_SIZE):
      out[manipulator.POSE_SIZE * i + j] = pose[j]


@declare.feature(lambda m: (m.nq - _ARM_SIZE,))
def box_vel(m, d, p, out):
  """The boxes' velocities (x, angle, z), box by box."""
  for i in range(len(p.box_dofs)):
    out[i] = d.qvel[p.box_dofs[i]]


@declare.feature((2,))
def target_pos(m, d, p):
  """The target's position (x, z)."""
  return d.xpos[p.target, 0], d.xpos[p.target, 2]


def _reward(m, d, p):
  """box_close (the nearest box to the target, gaussian within two box half-sizes) times
  hand_far (the grasp site at least 0.1 m from the target)."""
  box_size = m.geom_size[p.target_geom, 0]
  box_distance = np.inf
  for box in p.box_sites:
    box_distance = min(box_distance, manipulator.site_distance(d, box, p.target_site))
  box_is_close = rewards.tolerance(box_distance, margin=2 * box_size)
  hand_distance = manipulator.site_distance(d, p.grasp, p.target_site)
  hand_is_far = rewards.tolerance(hand_distance, bounds=(0.1, np.inf), margin=_CLOSE)
  return box_is_close * hand_is_far


@functools.cache
def _declared(n_boxes):
  """The observations (by full observability) and the reward of stacking `n_boxes` boxes,
  box0.., with parameters naming each box."""
  boxes = _box_names(n_boxes)
  params = declare.Params(
    **manipulator.ARM_PARAMS.fields,
    target=declare.body("target"),
    target_site=declare.site("target"),
    target_geom=declare.geom("target"),
    grasp=declare.site("grasp"),
    boxes=declare.bodies(*boxes),
    box_sites=declare.sites(*boxes),
    box_dofs=declare.dofs(*(f"{box}_{axis}" for box in boxes for axis in _BOX_AXES)),
  )
  arm = declare.Observation(params, *manipulator.ARM_OBSERVED)
  full = declare.Observation(params, *arm.items, manipulator.hand_pos, box_pos, box_vel, target_pos)
  return {False: arm, True: full}, declare.reward(params)(_reward)


class Stack(declare.Task):
  """Rewards a box at the target while the hand is away from it."""

  model_fields = ("body_pos",)  # the target placed per episode

  def __init__(self, n_boxes, fully_observable, random=None):
    """`n_boxes`: boxes in the model (box0..); `fully_observable`: observe the hand, box and
    target poses and the box velocities too."""
    self._n_boxes = n_boxes
    self._box_names = _box_names(n_boxes)
    observations, self.reward = _declared(n_boxes)
    self.observation = observations[bool(fully_observable)]
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Draws arm, target and boxes until the configuration has no contact.

    Each try: arm angles; target height = box size x (2k + 1), k uniform in 0..n-1, and
    x ~ U(-.37, .37); then each box: x ~ U(.1, .3), z ~ U(0, .7), angle ~ U(0, 2 pi).
    """
    random = self.random
    model = physics.named.model
    qpos = physics.named.data.qpos
    box_size = model.geom_size["target", 0]
    while True:
      manipulator.randomize_arm(physics, random)

      target_height = 2 * random.randint(self._n_boxes) + 1
      model.body_pos["target", "z"] = box_size * target_height
      model.body_pos["target", "x"] = random.uniform(-0.37, 0.37)

      for name in self._box_names:
        qpos[name + "_x"] = random.uniform(0.1, 0.3)
        qpos[name + "_z"] = random.uniform(0, 0.7)
        qpos[name + "_y"] = random.uniform(0, 2 * np.pi)

      physics.after_reset()
      if physics.data.ncon == 0:
        break
    super().initialize_episode(physics)
