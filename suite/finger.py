"""Finger: a planar two-link finger flicks a free-spinning body (the spinner).

Tasks (all benchmarking): spin (keep the spinner turning fast) and turn_easy / turn_hard
(turn the spinner's tip into a large or small target on its circle).
"""

import math

import numpy as np

from engine._jit import inline_jit
from suite import common
from suite import control
from suite import declare
from suite.utils import containers
from suite.utils import randomizers

_DEFAULT_TIME_LIMIT = 20  # seconds
_CONTROL_TIMESTEP = 0.02  # seconds: 2 physics steps of 10 ms
_EASY_TARGET_SIZE = 0.07  # target radius of turn_easy
_HARD_TARGET_SIZE = 0.03  # target radius of turn_hard
_SPIN_VELOCITY = 15.0  # rad/s (clockwise about -y) that counts as spinning
_SPIN_DAMPING = 0.03  # the spinner hinge's damping in the spin task
_MAX_ATTEMPTS = 1000  # joint draws tried for a contact-free start

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("finger.xml"), common.ASSETS


@SUITE.add("benchmarking")
def spin(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Spin the body fast."""
  return _environment(Spin(random=random), time_limit, environment_kwargs)


@SUITE.add("benchmarking")
def turn_easy(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Turn the spinner's tip into a target of radius 7 cm."""
  return _environment(
    Turn(target_radius=_EASY_TARGET_SIZE, random=random), time_limit, environment_kwargs
  )


@SUITE.add("benchmarking")
def turn_hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Turn the spinner's tip into a target of radius 3 cm."""
  return _environment(
    Turn(target_radius=_HARD_TARGET_SIZE, random=random), time_limit, environment_kwargs
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
  joints=declare.sensors("proximal", "distal"),
  joint_velocities=declare.sensors("proximal_velocity", "distal_velocity"),
  hinge_velocity=declare.sensor("hinge_velocity"),
  tip=declare.sensor("tip"),
  target=declare.sensor("target"),  # positions: x, y, z
  spinner=declare.sensor("spinner"),
  touch=declare.sensors("touchtop", "touchbottom"),
  target_site=declare.site("target"),
)


@declare.feature((2,))
def touch(m, d, p):
  """log(1 + touch) of the top and bottom touch sensors."""
  top, bottom = p.touch
  return math.log1p(d.sensordata[top]), math.log1p(d.sensordata[bottom])


@declare.feature(())
def hinge_velocity(m, d, p):
  """The spinner's angular velocity (positive about -y)."""
  return d.sensordata[p.hinge_velocity]


@inline_jit
def _relative_to_spinner(d, p, position):
  """(x, z) of the position sensor at address `position` relative to the spinner."""
  s = d.sensordata
  return s[position] - s[p.spinner], s[position + 2] - s[p.spinner + 2]


@declare.feature((2,))
def tip_position(m, d, p):
  """(x, z) of the spinner's tip relative to the spinner."""
  return _relative_to_spinner(d, p, p.tip)


@declare.feature((4,))
def bounded_position(m, d, p):
  """The two finger joint angles, then the tip's (x, z) relative to the spinner."""
  proximal, distal = p.joints
  return (d.sensordata[proximal], d.sensordata[distal]) + tip_position(m, d, p)


@declare.feature((3,))
def velocity(m, d, p):
  """Angular velocities of the proximal, distal and spinner joints."""
  proximal, distal = p.joint_velocities
  return d.sensordata[proximal], d.sensordata[distal], hinge_velocity(m, d, p)


@declare.feature((2,))
def target_position(m, d, p):
  """(x, z) of the target relative to the spinner."""
  return _relative_to_spinner(d, p, p.target)


@declare.feature((2,))
def to_target(m, d, p):
  """The target's position relative to the tip, in (x, z)."""
  target_x, target_z = target_position(m, d, p)
  tip_x, tip_z = tip_position(m, d, p)
  return target_x - tip_x, target_z - tip_z


@declare.feature(())
def dist_to_target(m, d, p):
  """Distance from the tip to the target's edge (negative inside the target)."""
  dx, dz = to_target(m, d, p)
  return math.sqrt(dx * dx + dz * dz) - m.site_size[p.target_site, 0]


SPIN_OBSERVATION = declare.Observation(PARAMS, ("position", bounded_position), velocity, touch)
TURN_OBSERVATION = declare.Observation(
  PARAMS, ("position", bounded_position), velocity, touch, target_position, dist_to_target
)


@declare.reward(PARAMS)
def spin_reward(m, d, p):
  """1 while the spinner turns at 15 rad/s or more about -y, else 0."""
  return 1.0 if hinge_velocity(m, d, p) <= -_SPIN_VELOCITY else 0.0


@declare.reward(PARAMS)
def turn_reward(m, d, p):
  """1 while the spinner's tip is inside the target, else 0."""
  return 1.0 if dist_to_target(m, d, p) <= 0 else 0.0


class Physics(declare.Physics):
  """The finger's quantities, read from its sensors."""

  params = PARAMS
  features = (
    touch,
    hinge_velocity,
    tip_position,
    bounded_position,
    velocity,
    target_position,
    to_target,
    dist_to_target,
  )


class Spin(declare.Task):
  """Rewards the spinner turning at 15 rad/s or more (sparse)."""

  observation = SPIN_OBSERVATION
  reward = spin_reward
  model_fields = ("site_rgba", "dof_damping")  # the hidden sites, the spinner's damping

  def initialize_episode(self, physics):
    """Hides the target and tip, sets the spinner's damping, then a contact-free random
    finger and spinner pose."""
    physics.named.model.site_rgba["target", 3] = 0
    physics.named.model.site_rgba["tip", 3] = 0
    physics.named.model.dof_damping["hinge"] = _SPIN_DAMPING
    _set_random_joint_angles(physics, self.random)
    super().initialize_episode(physics)


class Turn(declare.Task):
  """Rewards the spinner's tip being inside the target (sparse)."""

  observation = TURN_OBSERVATION
  reward = turn_reward
  model_fields = ("site_pos", "site_size")  # the target's place and radius

  def __init__(self, target_radius, random=None):
    """`target_radius`: the target's radius, set on the model every episode."""
    self._target_radius = target_radius
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """The target at an angle U[-pi, pi) on the circle the tip sweeps (radius: cap1's radius
    plus half-length, 0.13) about the spinner hinge; then a contact-free random pose."""
    target_angle = self.random.uniform(-np.pi, np.pi)
    hinge_x, hinge_z = physics.named.data.xanchor["hinge", ["x", "z"]]
    radius = physics.named.model.geom_size["cap1"].sum()
    target_x = hinge_x + radius * np.sin(target_angle)
    target_z = hinge_z + radius * np.cos(target_angle)
    physics.named.model.site_pos["target", ["x", "z"]] = target_x, target_z
    physics.named.model.site_size["target", 0] = self._target_radius
    _set_random_joint_angles(physics, self.random)
    super().initialize_episode(physics)


def _set_random_joint_angles(physics, random, max_attempts=_MAX_ATTEMPTS):
  """Random joint angles (shared randomizer), redrawn until the model has no contact.

  Raises:
    RuntimeError: no contact-free pose within `max_attempts` draws.
  """
  for _ in range(max_attempts):
    randomizers.randomize_limited_and_rotational_joints(physics, random)
    physics.after_reset()
    if physics.data.ncon == 0:
      return
  raise RuntimeError(f"Could not find a collision-free state after {max_attempts} attempts")
