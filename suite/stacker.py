"""Stacker: the planar manipulator's arm stacks boxes so that one reaches a target height.

Tasks: stack_2 and stack_4 (two or four boxes; both hard). The target is a ghost box at a
random x, at the height of the top box of a stack of 1..n boxes.
"""

import numpy as np

import mjcf
from suite import base
from suite import common
from suite import control
from suite import kernels
from suite import manipulator
from suite.utils import containers

_CLOSE = .01  # metres: the hand must be this far beyond 0.1 m from the target to count as away
_CONTROL_TIMESTEP = .01  # seconds: 10 physics steps of 1 ms
_TIME_LIMIT = 10  # seconds
_MAX_BOXES = 4  # boxes in the model file
_NARM = manipulator._NARM  # arm joints observed

# the layout of Stack's kernel parameters
_FULLY_OBSERVABLE, _N_BOXES = 0, 1
_ARM_QPOS = manipulator._ARM_QPOS  # qpos addresses of the arm joints
_ARM_DOF = manipulator._ARM_DOF  # their dof addresses
_HAND, _TARGET_BODY, _GRASP_SITE, _TARGET_SITE, _TARGET_GEOM = range(_ARM_DOF + _NARM,
                                                                     _ARM_DOF + _NARM + 5)
_BOXES = _TARGET_GEOM + 1  # n box body ids, then their n site ids, then their 3 n dofs

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


# the arm observation and the geometry helpers are manipulator's (same params layout)
_observe_arm = manipulator._observe_arm
_body_2d_pose = manipulator._body_2d_pose
_site_distance = manipulator._site_distance


@kernels.kernel
def observe(m, d, params, out):
  """The arm (see _observe_arm); fully observable: then the hand and box poses (x, z, qw, qy),
  the box velocities (x, angle, z) and the target's (x, z)."""
  k = _observe_arm(m, d, params, out)
  if params[_FULLY_OBSERVABLE]:
    n = int(params[_N_BOXES])
    _body_2d_pose(d, int(params[_HAND]), out, k)
    k += 4
    for i in range(n):
      _body_2d_pose(d, int(params[_BOXES + i]), out, k + 4 * i)
    k += 4 * n
    for i in range(3 * n):
      out[k + i] = d.qvel[int(params[_BOXES + 2 * n + i])]
    k += 3 * n
    target = int(params[_TARGET_BODY])
    out[k] = d.xpos[target, 0]
    out[k + 1] = d.xpos[target, 2]


@kernels.kernel
def reward(m, d, params, out):
  """box_close (the nearest box to the target, gaussian within two box half-sizes) times
  hand_far (the grasp site at least 0.1 m from the target)."""
  n = int(params[_N_BOXES])
  target = int(params[_TARGET_SITE])
  box_size = m.geom_size[int(params[_TARGET_GEOM]), 0]
  box_distance = np.inf
  for i in range(n):
    box_distance = min(box_distance, _site_distance(d, int(params[_BOXES + n + i]), target))
  box_is_close = kernels.tolerance(box_distance, 0.0, 0.0, 2 * box_size, kernels.GAUSSIAN, 0.1)
  hand_distance = _site_distance(d, int(params[_GRASP_SITE]), target)
  hand_is_far = kernels.tolerance(hand_distance, 0.1, np.inf, _CLOSE, kernels.GAUSSIAN, 0.1)
  out[kernels.REWARD] = box_is_close * hand_is_far
  out[kernels.DISCOUNT] = np.nan


class Stack(base.Task):
  """Rewards a box at the target while the hand is away from it."""

  observe_kernel = observe
  reward_kernel = reward
  model_fields = ("body_pos",)  # the target placed per episode

  def __init__(self, n_boxes, fully_observable, random=None):
    """`n_boxes`: boxes in the model (box0..); `fully_observable`: observe the hand, box and
    target poses and the box velocities too."""
    self._n_boxes = n_boxes
    self._box_names = [f"box{k}" for k in range(n_boxes)]
    self._box_joint_names = [f"{box}_{axis}" for box in self._box_names for axis in "xyz"]
    self._fully_observable = fully_observable
    self._params = None  # (model, the kernel parameters for it)
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
      model.body_pos["target", "x"] = random.uniform(-.37, .37)

      for name in self._box_names:
        qpos[name + "_x"] = random.uniform(.1, .3)
        qpos[name + "_z"] = random.uniform(0, .7)
        qpos[name + "_y"] = random.uniform(0, 2 * np.pi)

      physics.after_reset()
      if physics.data.ncon == 0:
        break
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    """Arm angles (sin, cos), velocities and touch; with full observability also the hand and
    box poses (x, z, qw, qy), the box velocities (x, angle, z) and the target's (x, z)."""
    n = self._n_boxes
    layout = (("arm_pos", (_NARM, 2)), ("arm_vel", (_NARM,)),
              ("touch", (physics.model.nsensordata,)))
    if self._fully_observable:
      layout += (("hand_pos", (4,)), ("box_pos", (n, 4)), ("box_vel", (3 * n,)),
                 ("target_pos", (2,)))
    return layout

  def kernel_params(self, physics):
    """Flags and model addresses (see the layout at the top), computed once per model."""
    model = physics.model
    if self._params is None or self._params[0] is not model.ptr:
      arm_qpos, arm_dof = manipulator.arm_addresses(physics)
      ids = [model.name2id("hand", "body"), model.name2id("target", "body"),
             model.name2id("grasp", "site"), model.name2id("target", "site"),
             model.name2id("target", "geom")]
      boxes = [model.name2id(name, "body") for name in self._box_names]
      box_sites = [model.name2id(name, "site") for name in self._box_names]
      joints = [model.name2id(name, "joint") for name in self._box_joint_names]
      params = np.concatenate(([self._fully_observable, self._n_boxes], arm_qpos, arm_dof, ids,
                               boxes, box_sites, model.jnt_dofadr[joints])).astype(float)
      self._params = (model.ptr, params)
    return self._params[1]
