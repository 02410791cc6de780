"""Walker: a planar biped; stand, walk or run forward (stand, walk, run)."""

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers
from suite.utils import randomizers

_DEFAULT_TIME_LIMIT = 25
_CONTROL_TIMESTEP = .025
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
  return _environment(PlanarWalker(move_speed=_WALK_SPEED, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("benchmarking")
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run forward while standing (full reward from 8 m/s)."""
  return _environment(PlanarWalker(move_speed=_RUN_SPEED, random=random), time_limit,
                      environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The walker's quantities (ids and sensor addresses looked up once per model)."""

  def _reload_from_data(self, data):
    super()._reload_from_data(data)
    model = self.model
    self._torso = model.name2id("torso", "body")
    self._speed_adr = model.sensor_adr[model.name2id("torso_subtreelinvel", "sensor")]

  def torso_upright(self):
    """Cosine of the torso's tilt: rotation entry zz."""
    return self.data.xmat[self._torso, 8]

  def torso_height(self):
    return self.data.xpos[self._torso, 2]

  def horizontal_velocity(self):
    """Forward (x) velocity of the torso subtree's centre of mass."""
    return self.data.sensordata[self._speed_adr]

  def orientations(self):
    """Rotation entries xx and xz of every body but the world, body by body."""
    return self.data.xmat[1:, [0, 2]].ravel()


@kernels.kernel
def observe(m, d, params, out):
  """orientations: xx, xz of every body but the world; height: the torso's z (body
  params[0]); velocity: qvel."""
  k = 0
  for b in range(1, m.nbody):
    out[k] = d.xmat[b, 0]
    out[k + 1] = d.xmat[b, 2]
    k += 2
  out[k] = d.xpos[int(params[0]), 2]
  for i in range(m.nv):
    out[k + 1 + i] = d.qvel[i]


@kernels.kernel
def reward(m, d, params, out):
  """A high, upright torso (body params[0]); with a move speed params[2] > 0, times forward
  speed (the sensor at params[1]) linearly up to that speed."""
  torso = int(params[0])
  standing = kernels.tolerance(d.xpos[torso, 2], _STAND_HEIGHT, np.inf, _STAND_HEIGHT / 2,
                               kernels.GAUSSIAN, 0.1)
  upright = (1 + d.xmat[torso, 8]) / 2
  stand_reward = (3 * standing + upright) / 4
  move_speed = params[2]
  if move_speed == 0:
    value = stand_reward
  else:
    move_reward = kernels.tolerance(d.sensordata[int(params[1])], move_speed, np.inf,
                                    move_speed / 2, kernels.LINEAR, 0.5)
    value = stand_reward * (5 * move_reward + 1) / 6
  out[kernels.REWARD] = value
  out[kernels.DISCOUNT] = np.nan


class PlanarWalker(base.Task):
  """Rewards a high, upright torso; with a target speed, also moving forward at that speed."""

  observe_kernel = observe
  reward_kernel = reward

  def __init__(self, move_speed, random=None):
    """`move_speed`: forward speed (m/s) for the full reward; 0 rewards standing only."""
    self._move_speed = move_speed
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Limited hinges uniform in their ranges, root pitch uniform (root x, z kept)."""
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    """Body orientations, torso height and velocities (no absolute x: translation invariant)."""
    model = physics.model
    return (("orientations", (2 * (model.nbody - 1),)), ("height", ()),
            ("velocity", (model.nv,)))

  def kernel_params(self, physics):
    return np.array([physics._torso, physics._speed_adr, self._move_speed], float)
