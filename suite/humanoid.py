"""Humanoid: a 21-joint humanoid that should stand up, walk or run.

Tasks: stand, walk and run (benchmarking), and run_pure_state, which observes the raw state
(qpos, qvel) instead of the egocentric features.
"""

import math

import numpy as np

from suite import common
from suite import control
from suite import declare
from suite import features
from suite.utils import containers
from suite.utils import randomizers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 25
_CONTROL_TIMESTEP = 0.025

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
  return _environment(
    Humanoid(move_speed=0, pure_state=False, random=random), time_limit, environment_kwargs
  )


@SUITE.add("benchmarking")
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Walk at 1 m/s or faster in any horizontal direction."""
  return _environment(
    Humanoid(move_speed=_WALK_SPEED, pure_state=False, random=random),
    time_limit,
    environment_kwargs,
  )


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run at 10 m/s or faster in any horizontal direction."""
  return _environment(
    Humanoid(move_speed=_RUN_SPEED, pure_state=False, random=random), time_limit, environment_kwargs
  )


@SUITE.add()
def run_pure_state(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run at 10 m/s or faster, observing qpos and qvel only."""
  return _environment(
    Humanoid(move_speed=_RUN_SPEED, pure_state=True, random=random), time_limit, environment_kwargs
  )


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(
    physics,
    task,
    time_limit=time_limit,
    control_timestep=_CONTROL_TIMESTEP,
    **(environment_kwargs or {}),
  )


PARAMS = declare.Params(
  torso=declare.body("torso"),
  head=declare.body("head"),
  extremities=declare.bodies(*_EXTREMITIES),
  com_velocity=declare.sensor("torso_subtreelinvel"),
  upright_entry=declare.integer(8),  # the torso rotation's entry that is 1 upright: zz
  move_speed=declare.number(),
)


@declare.feature(())
def torso_upright(m, d, p):
  """The torso's up axis's world z component (1 when upright)."""
  return d.xmat[p.torso, p.upright_entry]


@declare.feature(())
def head_height(m, d, p):
  return d.xpos[p.head, 2]


@declare.feature((3,))
def center_of_mass_position(m, d, p):
  """The centre of mass of the torso's subtree (the whole body's)."""
  com = d.subtree_com
  return com[p.torso, 0], com[p.torso, 1], com[p.torso, 2]


@declare.feature((3,))
def center_of_mass_velocity(m, d, p):
  """The torso subtree's linear velocity sensor (the whole body's)."""
  velocity = d.sensordata
  return velocity[p.com_velocity], velocity[p.com_velocity + 1], velocity[p.com_velocity + 2]


@declare.feature((3,))
def torso_vertical_orientation(m, d, p):
  """World up in the torso frame: rotation entries zx, zy, zz."""
  return d.xmat[p.torso, 6], d.xmat[p.torso, 7], d.xmat[p.torso, 8]


@declare.feature(lambda m: (m.nq - 7,))
def joint_angles(m, d, p, out):
  """The hinge angles: qpos after the root's free joint (3 position + 4 quaternion)."""
  for i in range(m.nq - 7):
    out[i] = d.qpos[7 + i]


@declare.feature((3 * len(_EXTREMITIES),))
def extremities(m, d, p, out):
  """Hands and feet relative to the torso, in the torso frame (left hand, left foot, right
  hand, right foot)."""
  torso = p.torso
  for e in range(len(p.extremities)):
    body = p.extremities[e]
    dx = d.xpos[body, 0] - d.xpos[torso, 0]
    dy = d.xpos[body, 1] - d.xpos[torso, 1]
    dz = d.xpos[body, 2] - d.xpos[torso, 2]
    for j in range(3):  # the row vector (dx, dy, dz) times the torso's rotation matrix
      out[3 * e + j] = dx * d.xmat[torso, j] + dy * d.xmat[torso, 3 + j] + dz * d.xmat[torso, 6 + j]


OBSERVATION = declare.Observation(
  PARAMS,
  joint_angles,
  head_height,
  extremities,
  ("torso_vertical", torso_vertical_orientation),
  ("com_velocity", center_of_mass_velocity),
  features.velocity,
)
PURE_STATE = declare.Observation(PARAMS, features.position, features.velocity)


@declare.reward(PARAMS)
def reward(m, d, p):
  """standing (head height) * upright * small controls, times: with move speed 0, staying
  still (horizontal centre-of-mass velocity); else the horizontal speed, linearly up to the
  move speed."""
  standing = rewards.tolerance(
    head_height(m, d, p), bounds=(_STAND_HEIGHT, np.inf), margin=_STAND_HEIGHT / 4
  )
  upright = rewards.tolerance(
    torso_upright(m, d, p), bounds=(0.9, np.inf), sigmoid="linear", margin=1.9, value_at_margin=0
  )
  stand_reward = standing * upright
  small_control = (4 + features.small_control(m, d, p)) / 5
  vx, vy, _ = center_of_mass_velocity(m, d, p)
  if p.move_speed == 0:
    dont_move = (rewards.tolerance(vx, margin=2) + rewards.tolerance(vy, margin=2)) / 2
    return small_control * stand_reward * dont_move
  move = rewards.tolerance(
    math.sqrt(vx * vx + vy * vy),
    bounds=(p.move_speed, np.inf),
    margin=p.move_speed,
    value_at_margin=0,
    sigmoid="linear",
  )
  move = (5 * move + 1) / 6
  return small_control * stand_reward * move


class Physics(declare.Physics):
  """The humanoid's quantities: torso frame, head height, centre of mass, extremities."""

  params = PARAMS
  features = (
    torso_upright,
    head_height,
    center_of_mass_position,
    center_of_mass_velocity,
    torso_vertical_orientation,
    joint_angles,
    extremities,
  )


class Humanoid(declare.Task):
  """Rewards a high head, an upright torso and small controls, times a speed term."""

  reward = reward

  def __init__(self, move_speed, pure_state, random=None):
    """`move_speed`: the horizontal speed to reach (0: stand still); `pure_state`: observe
    qpos and qvel instead of egocentric features."""
    self.move_speed = move_speed
    self.observation = PURE_STATE if pure_state else OBSERVATION
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Random joint angles and root orientation, redrawn until no geoms touch."""
    initialize_without_contacts(physics, self.random)
    super().initialize_episode(physics)


def initialize_without_contacts(physics, random):
  """Random joint angles and root orientation, redrawn until no geoms touch (humanoid and
  humanoid_CMU)."""
  penetrating = True
  while penetrating:
    randomizers.randomize_limited_and_rotational_joints(physics, random)
    physics.after_reset()
    penetrating = physics.data.ncon > 0
