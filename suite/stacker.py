"""Stacker: the planar manipulator's arm stacks boxes so that one reaches a target height.

Tasks: stack_2 and stack_4 (two or four boxes; both hard). The target is a ghost box at a
random x, at the height of the top box of a stack of 1..n boxes.
"""

import collections

import numpy as np

import mjcf
from suite import base
from suite import common
from suite import control
from suite import manipulator
from suite.utils import containers
from suite.utils import rewards

_CLOSE = .01  # metres: the hand must be this far beyond 0.1 m from the target to count as away
_CONTROL_TIMESTEP = .01  # seconds: 10 physics steps of 1 ms
_TIME_LIMIT = 10  # seconds
_MAX_BOXES = 4  # boxes in the model file

SUITE = containers.TaggedTasks()


def make_model(n_boxes):
  """The model's XML text with boxes box0..box{n_boxes - 1}, and the include files it needs."""
  xml = common.read_model("stacker.xml")
  if n_boxes < _MAX_BOXES:
    model = mjcf.from_xml_string(xml, assets=common.ASSETS)
    for k in range(n_boxes, _MAX_BOXES):
      model.find("body", f"box{k}").remove()
    xml = model.to_xml_string()
  return xml, common.ASSETS


@SUITE.add("hard")
def stack_2(fully_observable=True, time_limit=_TIME_LIMIT, random=None,
            environment_kwargs=None):
  """Stack two boxes so that one reaches the target."""
  return _environment(2, fully_observable, time_limit, random, environment_kwargs)


@SUITE.add("hard")
def stack_4(fully_observable=True, time_limit=_TIME_LIMIT, random=None,
            environment_kwargs=None):
  """Stack four boxes so that one reaches the target."""
  return _environment(4, fully_observable, time_limit, random, environment_kwargs)


def _environment(n_boxes, fully_observable, time_limit, random, environment_kwargs):
  physics = Physics.from_xml_string(*make_model(n_boxes))
  task = Stack(n_boxes=n_boxes, fully_observable=fully_observable, random=random)
  return control.Environment(physics, task, control_timestep=_CONTROL_TIMESTEP,
                             time_limit=time_limit, **(environment_kwargs or {}))


class Physics(manipulator.Physics):
  """The planar arm's quantities (see manipulator.Physics)."""


class Stack(base.Task):
  """Rewards a box at the target while the hand is away from it."""

  def __init__(self, n_boxes, fully_observable, random=None):
    """`n_boxes`: boxes in the model (box0..); `fully_observable`: observe the hand, box and
    target poses and the box velocities too."""
    self._n_boxes = n_boxes
    self._box_names = [f"box{k}" for k in range(n_boxes)]
    self._box_joint_names = [f"{box}_{axis}" for box in self._box_names for axis in "xyz"]
    self._fully_observable = fully_observable
    self._indices = None
    super().__init__(random=random)

  def _get_indices(self, physics):
    """The task's model addresses for `physics`' model (computed once per model)."""
    indices = self._indices
    if indices is None or indices.model is not physics.model.ptr:
      model = physics.model
      indices = manipulator.ArmIndices(physics)
      indices.boxes = np.array([model.name2id(name, "body") for name in self._box_names])
      indices.target = model.name2id("target", "body")
      joints = [model.name2id(name, "joint") for name in self._box_joint_names]
      indices.box_dof = model.jnt_dofadr[joints]
      indices.box_sites = np.array([model.name2id(name, "site") for name in self._box_names])
      indices.grasp_site = model.name2id("grasp", "site")
      indices.target_site = model.name2id("target", "site")
      indices.target_geom = model.name2id("target", "geom")
      self._indices = indices
    return indices

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
      model.body_pos["target", "x"] = random.uniform(-.37, .37)

      for name in self._box_names:
        qpos[name + "_x"] = random.uniform(.1, .3)
        qpos[name + "_z"] = random.uniform(0, .7)
        qpos[name + "_y"] = random.uniform(0, 2 * np.pi)

      physics.after_reset()
      if physics.data.ncon == 0:
        break
    super().initialize_episode(physics)

  def get_observation(self, physics):
    """Arm angles (sin, cos), velocities and touch; with full observability also the hand and
    box poses (x, z, qw, qy), the box velocities (x, angle, z) and the target's (x, z)."""
    indices = self._get_indices(physics)
    obs = collections.OrderedDict()
    indices.arm_observation(physics, obs)
    if self._fully_observable:
      data = physics.data
      obs["hand_pos"] = manipulator.body_2d_poses(physics, [indices.hand])[0]
      obs["box_pos"] = manipulator.body_2d_poses(physics, indices.boxes)
      obs["box_vel"] = data.qvel[indices.box_dof]
      obs["target_pos"] = data.xpos[indices.target, ::2].copy()
    return obs

  def get_reward(self, physics):
    """box_close (the nearest box to the target, gaussian within two box half-sizes) times
    hand_far (the grasp site at least 0.1 m from the target)."""
    indices = self._get_indices(physics)
    site_xpos = physics.data.site_xpos
    target = site_xpos[indices.target_site]
    box_size = physics.model.geom_size[indices.target_geom, 0]
    box_distance = np.linalg.norm(site_xpos[indices.box_sites] - target, axis=1).min()
    box_is_close = rewards.tolerance(box_distance, margin=2 * box_size)
    hand_distance = np.linalg.norm(site_xpos[indices.grasp_site] - target)
    hand_is_far = rewards.tolerance(hand_distance, (.1, float("inf")), _CLOSE)
    return box_is_close * hand_is_far
