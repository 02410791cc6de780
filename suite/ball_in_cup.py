"""Ball-in-cup: swing a ball tied to a cup by a string up into the cup (catch)."""

import functools

import numpy as np

from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers

_DEFAULT_TIME_LIMIT = 20  # seconds
_CONTROL_TIMESTEP = 0.02  # seconds: 10 physics steps of 2 ms

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("ball_in_cup.xml"), common.ASSETS


@SUITE.add("benchmarking", "easy")
def catch(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Catch the dangling ball in the cup; reward 1 while it is inside."""
  physics = Physics.from_xml_string(*get_model_and_assets())
  task = BallInCup(random=random)
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The ball-in-cup's quantities."""

  @functools.cached_property
  def _ids(self):
    """(target site, ball body, ball geom) ids."""
    model = self.model
    return (model.name2id("target", "site"), model.name2id("ball", "body"),
            model.name2id("ball", "geom"))

  def ball_to_target(self):
    """(x, z) of the cup's target region relative to the ball's centre."""
    target, ball, _ = self._ids
    return self.data.site_xpos[target, ::2] - self.data.xpos[ball, ::2]

  def in_target(self):
    """1.0 if the whole ball is inside the target box in x and z, else 0.0."""
    target, _, ball_geom = self._ids
    half_x, _, half_z = self.model.site_size[target] - self.model.geom_size[ball_geom, 0]
    dx, dz = self.ball_to_target()
    return float(abs(dx) < half_x and abs(dz) < half_z)


@kernels.kernel
def reward(m, d, params, out):
  """1 while the whole ball is inside the target box in x and z, else 0.
  params: (target site, ball body, ball geom)."""
  target, ball, ball_geom = int(params[0]), int(params[1]), int(params[2])
  radius = m.geom_size[ball_geom, 0]
  inside = True
  for k in (0, 2):
    offset = d.site_xpos[target, k] - d.xpos[ball, k]
    inside = inside and abs(offset) < m.site_size[target, k] - radius
  out[kernels.REWARD] = 1.0 if inside else 0.0
  out[kernels.DISCOUNT] = np.nan


class BallInCup(base.Task):
  """Rewards having the ball inside the cup (sparse)."""

  observe_kernel = kernels.observe_position_velocity
  reward_kernel = reward

  def initialize_episode(self, physics):
    """The ball at x ~ U(-.2, .2), z ~ U(.2, .5), redrawn until it touches nothing; the cup
    at rest in its default pose."""
    penetrating = True
    while penetrating:
      physics.named.data.qpos["ball_x"] = self.random.uniform(-0.2, 0.2)
      physics.named.data.qpos["ball_z"] = self.random.uniform(0.2, 0.5)
      physics.after_reset()
      penetrating = physics.data.ncon > 0
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    return kernels.position_velocity_layout(physics)

  def kernel_params(self, physics):
    return np.array(physics._ids, dtype=float)
