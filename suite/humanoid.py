"""Humanoid: a 21-joint humanoid that should stand up, walk or run.

Tasks: stand, walk and run (benchmarking), and run_pure_state, which observes the raw state
(qpos, qvel) instead of the egocentric features.
"""

import collections

import numpy as np

from suite import base
from suite import common
from suite import control
from suite.utils import containers
from suite.utils import randomizers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 25
_CONTROL_TIMESTEP = .025

_STAND_HEIGHT = 1.4  # head height (m) that counts as standing
_WALK_SPEED = 1  # horizontal centre-of-mass speeds (m/s)
_RUN_SPEED = 10

# bodies whose positions form the `extremities` observation, in its order
_EXTREMITIES = ("left_hand", "left_foot", "right_hand", "right_foot")

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("humanoid.xml"), common.ASSETS


@SUITE.add("benchmarking")
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stand up and stay still."""
  return _environment(Humanoid(move_speed=0, pure_state=False, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("benchmarking")
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Walk at 1 m/s or faster in any horizontal direction."""
  return _environment(Humanoid(move_speed=_WALK_SPEED, pure_state=False, random=random),
                      time_limit, environment_kwargs)


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run at 10 m/s or faster in any horizontal direction."""
  return _environment(Humanoid(move_speed=_RUN_SPEED, pure_state=False, random=random),
                      time_limit, environment_kwargs)


@SUITE.add()
def run_pure_state(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run at 10 m/s or faster, observing qpos and qvel only."""
  return _environment(Humanoid(move_speed=_RUN_SPEED, pure_state=True, random=random),
                      time_limit, environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The humanoid's quantities: torso frame, head height, centre of mass, extremities."""

  _TORSO = "torso"
  _HEAD = "head"
  _EXTREMITIES = _EXTREMITIES
  _COM_VELOCITY = "torso_subtreelinvel"

  def _reload_from_data(self, data):
    """Also looks up the indices the observations read on every step (after every model
    (re)load, copy or unpickling)."""
    super()._reload_from_data(data)
    model = self.model
    self._torso_id = model.name2id(self._TORSO, "body")
    self._head_id = model.name2id(self._HEAD, "body")
    self._extremity_ids = [model.name2id(name, "body") for name in self._EXTREMITIES]
    adr = model.sensor_adr[model.name2id(self._COM_VELOCITY, "sensor")]
    self._com_velocity = slice(adr, adr + 3)

  def torso_upright(self):
    """The torso z axis's world z component (1 when upright): rotation entry zz."""
    return self.data.xmat[self._torso_id, 8]

  def head_height(self):
    return self.data.xpos[self._head_id, 2]

  def center_of_mass_position(self):
    return self.data.subtree_com[self._torso_id].copy()

  def center_of_mass_velocity(self):
    """The torso subtree's linear velocity sensor (the whole body's)."""
    return self.data.sensordata[self._com_velocity].copy()

  def torso_vertical_orientation(self):
    """World up in the torso frame: rotation entries zx, zy, zz."""
    return self.data.xmat[self._torso_id, 6:9].copy()

  def joint_angles(self):
    """The hinge angles: qpos after the root's free joint (3 position + 4 quaternion)."""
    return self.data.qpos[7:].copy()

  def extremities(self):
    """Hands and feet relative to the torso, in the torso frame (left hand, left foot,
    right hand, right foot)."""
    frame = self.data.xmat[self._torso_id].reshape(3, 3)
    return ((self.data.xpos[self._extremity_ids] - self.data.xpos[self._torso_id])
            @ frame).ravel()


class Humanoid(base.Task):
  """Rewards a high head, an upright torso and small controls, times a speed term."""

  def __init__(self, move_speed, pure_state, random=None):
    """`move_speed`: the horizontal speed to reach (0: stand still); `pure_state`: observe
    qpos and qvel instead of egocentric features."""
    self._move_speed = move_speed
    self._pure_state = pure_state
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
    if self._pure_state:
      obs["position"] = physics.position()
      obs["velocity"] = physics.velocity()
    else:
      obs["joint_angles"] = physics.joint_angles()
      obs["head_height"] = physics.head_height()
      obs["extremities"] = physics.extremities()
      obs["torso_vertical"] = physics.torso_vertical_orientation()
      obs["com_velocity"] = physics.center_of_mass_velocity()
      obs["velocity"] = physics.velocity()
    return obs

  def get_reward(self, physics):
    return stand_move_reward(physics.head_height(), physics.torso_upright(), physics.control(),
                             physics.center_of_mass_velocity(), self._move_speed)


def stand_move_reward(head_height, upright, control, com_velocity, move_speed):
  """The humanoid reward (shared with humanoid_CMU): standing * upright * small control *
  (still when `move_speed` is 0, else fast enough horizontally)."""
  standing = rewards.tolerance(head_height, bounds=(_STAND_HEIGHT, float("inf")),
                               margin=_STAND_HEIGHT / 4)
  upright = rewards.tolerance(upright, bounds=(0.9, float("inf")), sigmoid="linear", margin=1.9,
                              value_at_margin=0)
  small_control = rewards.tolerance(control, margin=1, value_at_margin=0,
                                    sigmoid="quadratic").mean()
  small_control = (4 + small_control) / 5
  if move_speed == 0:
    dont_move = rewards.tolerance(com_velocity[:2], margin=2).mean()
    return small_control * (standing * upright) * dont_move
  speed = np.linalg.norm(com_velocity[:2])
  move = rewards.tolerance(speed, bounds=(move_speed, float("inf")), margin=move_speed,
                           value_at_margin=0, sigmoid="linear")
  move = (5 * move + 1) / 6
  return small_control * (standing * upright) * move
