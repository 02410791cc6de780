"""Walker: a planar biped; stand, walk or run forward (stand, walk, run)."""

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
_STAND_HEIGHT = 1.2  # torso height (m) from which the walker counts as standing
_WALK_SPEED = 1  # forward speeds (m/s) that earn the full walk and run rewards
_RUN_SPEED = 8

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("walker.xml"), common.ASSETS


@SUITE.add("benchmarking")
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stand up with the torso high and upright."""
  return _environment(PlanarWalker(move_speed=0, random=random), time_limit, environment_kwargs)


@SUITE.add("benchmarking")
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Walk forward while standing (full reward from 1 m/s)."""
  return _environment(
    PlanarWalker(move_speed=_WALK_SPEED, random=random), time_limit, environment_kwargs
  )


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run forward while standing (full reward from 8 m/s)."""
  return _environment(
    PlanarWalker(move_speed=_RUN_SPEED, random=random), time_limit, environment_kwargs
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
  torso_velocity=declare.sensor("torso_subtreelinvel"),
  move_speed=declare.number(),
)


@declare.feature(())
def torso_upright(m, d, p):
  """Cosine of the torso's tilt: rotation entry zz."""
  return d.xmat[p.torso, 8]


@declare.feature(())
def torso_height(m, d, p):
  return d.xpos[p.torso, 2]


@declare.feature(())
def horizontal_velocity(m, d, p):
  """Forward (x) velocity of the torso subtree's centre of mass."""
  return d.sensordata[p.torso_velocity]


@declare.feature(lambda m: (2 * (m.nbody - 1),))
def orientations(m, d, p, out):
  """Rotation entries xx and xz of every body but the world, body by body."""
  for b in range(1, m.nbody):
    out[2 * b - 2] = d.xmat[b, 0]
    out[2 * b - 1] = d.xmat[b, 2]


# no absolute x: the task is translation invariant
OBSERVATION = declare.Observation(PARAMS, orientations, ("height", torso_height), features.velocity)


@declare.reward(PARAMS)
def reward(m, d, p):
  """A high, upright torso; with a move speed, times forward speed linearly up to it."""
  standing = rewards.tolerance(
    torso_height(m, d, p), bounds=(_STAND_HEIGHT, np.inf), margin=_STAND_HEIGHT / 2
  )
  upright = (1 + torso_upright(m, d, p)) / 2
  stand_reward = (3 * standing + upright) / 4
  if p.move_speed == 0:
    return stand_reward
  move_reward = rewards.tolerance(
    horizontal_velocity(m, d, p),
    bounds=(p.move_speed, np.inf),
    margin=p.move_speed / 2,
    value_at_margin=0.5,
    sigmoid="linear",
  )
  return stand_reward * (5 * move_reward + 1) / 6


class Physics(declare.Physics):
  """The walker's quantities."""

  params = PARAMS
  features = (torso_upright, torso_height, horizontal_velocity, orientations)


class PlanarWalker(declare.Task):
  """Rewards a high, upright torso; with a target speed, also moving forward at that speed."""

  observation = OBSERVATION
  reward = reward

  def __init__(self, move_speed, random=None):
    """`move_speed`: forward speed (m/s) for the full reward; 0 rewards standing only."""
    self.move_speed = move_speed
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Limited hinges uniform in their ranges, root pitch uniform (root x, z kept)."""
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    super().initialize_episode(physics)
