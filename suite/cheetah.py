"""Cheetah: a planar two-legged runner; reward for running forward fast (run)."""

import numpy as np

from suite import common
from suite import control
from suite import declare
from suite import features
from suite.utils import containers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 10
_RUN_SPEED = 10  # m/s of the torso's centre of mass that earns the full reward
_SETTLE_STEPS = 200  # physics steps with zero control after the random pose

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("cheetah.xml"), common.ASSETS


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run forward as fast as possible (full reward from 10 m/s)."""
  physics = Physics.from_xml_string(*get_model_and_assets())
  task = Cheetah(random=random)
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


PARAMS = declare.Params(torso_velocity=declare.sensor("torso_subtreelinvel"))


@declare.feature(())
def speed(m, d, p):
  """Forward (x) velocity of the torso subtree's centre of mass."""
  return d.sensordata[p.torso_velocity]


# qpos without the root's x: the task is translation invariant
OBSERVATION = declare.Observation(
  PARAMS, ("position", features.position_without_x), features.velocity
)


@declare.reward(PARAMS)
def reward(m, d, p):
  """Forward speed, linearly up to 10 m/s."""
  return rewards.tolerance(
    speed(m, d, p),
    bounds=(_RUN_SPEED, np.inf),
    margin=_RUN_SPEED,
    value_at_margin=0,
    sigmoid="linear",
  )


class Physics(declare.Physics):
  """The cheetah's quantities."""

  params = PARAMS
  features = (speed,)


class Cheetah(declare.Task):
  """Rewards forward speed, linearly up to 10 m/s."""

  observation = OBSERVATION
  reward = reward

  def initialize_episode(self, physics):
    """Limited joints uniform in their ranges, then 200 physics steps with zero control so the
    body settles on the ground; the clock restarts at 0."""
    model = physics.model
    limited = model.jnt_limited.ravel() == 1
    lower, upper = model.jnt_range[limited].T
    # every joint has one coordinate, so joint ids index qpos
    physics.data.qpos[limited] = self.random.uniform(lower, upper)
    physics.step(_SETTLE_STEPS)  # as many single legacy steps, in one engine call
    physics.data.time = 0
    super().initialize_episode(physics)
