"""Humanoid_CMU: the 56-joint humanoid of the CMU motion-capture skeleton stands, walks or runs.

Tasks (extra): stand, walk and run, with the humanoid domain's rewards. The model's root frame
is y-up (as the mocap data), so the thorax's "up" axis is its local y axis.
"""

import collections

from suite import base
from suite import common
from suite import control
from suite import humanoid
from suite.utils import containers
from suite.utils import randomizers

_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = 0.02
_WALK_SPEED = 1  # horizontal centre-of-mass speeds (m/s), as humanoid's
_RUN_SPEED = 10

# bodies whose positions form the `extremities` observation, in its order
_EXTREMITIES = ("lhand", "lfoot", "rhand", "rfoot")

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("humanoid_CMU.xml"), common.ASSETS


@SUITE.add()
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stand up and stay still."""
  return _environment(HumanoidCMU(move_speed=0, random=random), time_limit, environment_kwargs)


@SUITE.add()
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Walk at 1 m/s or faster in any horizontal direction."""
  return _environment(HumanoidCMU(move_speed=_WALK_SPEED, random=random), time_limit,
                      environment_kwargs)


@SUITE.add()
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run at 10 m/s or faster in any horizontal direction."""
  return _environment(HumanoidCMU(move_speed=_RUN_SPEED, random=random), time_limit,
                      environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The CMU humanoid's quantities: thorax frame, head height, centre of mass, extremities."""

  def thorax_upright(self):
    """The thorax's up (local y) axis's world z component: rotation entry zy."""
    return self.named.data.xmat["thorax", "zy"]

  def head_height(self):
    return self.named.data.xpos["head", "z"]

  def center_of_mass_position(self):
    return self.named.data.subtree_com["thorax"].copy()

  def center_of_mass_velocity(self):
    return self.named.data.sensordata["thorax_subtreelinvel"].copy()

  def torso_vertical_orientation(self):
    """World up in the thorax frame: rotation entries zx, zy, zz."""
    return self.named.data.xmat["thorax", ["zx", "zy", "zz"]]

  def joint_angles(self):
    """The hinge angles: qpos after the root's free joint."""
    return self.data.qpos[7:].copy()

  def extremities(self):
    """Hands and feet relative to the thorax, in the thorax frame (left hand, left foot,
    right hand, right foot)."""
    if not hasattr(self, "_extremity_ids"):
      self._thorax_id = self.model.name2id("thorax", "body")
      self._extremity_ids = [self.model.name2id(name, "body") for name in _EXTREMITIES]
    frame = self.data.xmat[self._thorax_id].reshape(3, 3)
    return ((self.data.xpos[self._extremity_ids] - self.data.xpos[self._thorax_id])
            @ frame).ravel()


class HumanoidCMU(base.Task):
  """Rewards a high head, an upright thorax and small controls, times a speed term."""

  def __init__(self, move_speed, random=None):
    """`move_speed`: the horizontal speed to reach (0: stand still)."""
    self._move_speed = move_speed
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Random joint angles and root orientation, redrawn until no geoms touch."""
    penetrating = True
    while penetrating:
      randomizers.randomize_limited_and_rotational_joints(physics, self.random)
      physics.after_reset()
      penetrating = physics.data.ncon > 0
    super().initialize_episode(physics)

  def get_observation(self, physics):
    obs = collections.OrderedDict()
    obs["joint_angles"] = physics.joint_angles()
    obs["head_height"] = physics.head_height()
    obs["extremities"] = physics.extremities()
    obs["torso_vertical"] = physics.torso_vertical_orientation()
    obs["com_velocity"] = physics.center_of_mass_velocity()
    obs["velocity"] = physics.velocity()
    return obs

  def get_reward(self, physics):
    return humanoid.stand_move_reward(physics.head_height(), physics.thorax_upright(),
                                      physics.control(), physics.center_of_mass_velocity(),
                                      self._move_speed)
