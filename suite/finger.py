"""Finger: a planar two-link finger flicks a free-spinning body (the spinner).

Tasks (all benchmarking): spin (keep the spinner turning fast) and turn_easy / turn_hard
(turn the spinner's tip into a large or small target on its circle).
"""

import functools
import math

import numpy as np

from engine._jit import jit
from suite import base
from suite import common
from suite import control
from suite import kernels
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
  return _environment(Turn(target_radius=_EASY_TARGET_SIZE, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("benchmarking")
def turn_hard(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Turn the spinner's tip into a target of radius 3 cm."""
  return _environment(Turn(target_radius=_HARD_TARGET_SIZE, random=random), time_limit,
                      environment_kwargs)


def _environment(task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets())
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


class Physics(control.Physics):
  """The finger's quantities, read from its sensors."""

  @functools.cached_property
  def _adr(self):
    """sensordata addresses of the sensors, by name."""
    model = self.model
    names = ("proximal", "distal", "proximal_velocity", "distal_velocity", "hinge_velocity",
             "tip", "target", "spinner", "touchtop", "touchbottom")
    return {name: int(model.sensor_adr[model.name2id(name, "sensor")]) for name in names}

  @functools.cached_property
  def _indices(self):
    """sensordata indices of (joint angles, joint velocities, touches) and the (x, z) entries
    of the tip, target and spinner positions."""
    adr = self._adr
    return (np.array([adr["proximal"], adr["distal"]]),
            np.array([adr["proximal_velocity"], adr["distal_velocity"], adr["hinge_velocity"]]),
            np.array([adr["touchtop"], adr["touchbottom"]]),
            np.array([adr["tip"], adr["tip"] + 2]),
            np.array([adr["target"], adr["target"] + 2]),
            np.array([adr["spinner"], adr["spinner"] + 2]))

  @functools.cached_property
  def _target_site(self):
    return self.model.name2id("target", "site")

  def touch(self):
    """log(1 + touch) of the top and bottom touch sensors."""
    return np.log1p(self.data.sensordata[self._indices[2]])

  def hinge_velocity(self):
    """The spinner's angular velocity (positive about -y)."""
    return self.data.sensordata[self._adr["hinge_velocity"]]

  def tip_position(self):
    """(x, z) of the spinner's tip relative to the spinner."""
    sensordata = self.data.sensordata
    return sensordata[self._indices[3]] - sensordata[self._indices[5]]

  def bounded_position(self):
    """The two finger joint angles, then the tip's (x, z) relative to the spinner."""
    return np.hstack((self.data.sensordata[self._indices[0]], self.tip_position()))

  def velocity(self):
    """Angular velocities of the proximal, distal and spinner joints."""
    return self.data.sensordata[self._indices[1]]

  def target_position(self):
    """(x, z) of the target relative to the spinner."""
    sensordata = self.data.sensordata
    return sensordata[self._indices[4]] - sensordata[self._indices[5]]

  def to_target(self):
    """The target's position relative to the tip, in (x, z)."""
    return self.target_position() - self.tip_position()

  def dist_to_target(self):
    """Distance from the tip to the target's edge (negative inside the target)."""
    return np.linalg.norm(self.to_target()) - self.model.site_size[self._target_site, 0]


# the kernels' params: sensordata addresses of the sensors (the x entry of the positions),
# then the target site and 1 for a turn task (its observation adds the target)
_SENSORS = ("proximal", "distal", "proximal_velocity", "distal_velocity", "hinge_velocity",
            "tip", "target", "spinner", "touchtop", "touchbottom")
(_PROXIMAL, _DISTAL, _PROXIMAL_VELOCITY, _DISTAL_VELOCITY, _HINGE_VELOCITY, _TIP, _TARGET,
 _SPINNER, _TOUCH_TOP, _TOUCH_BOTTOM, _TARGET_SITE, _TURN) = range(12)


@jit
def _dist_to_target(s, params, target_radius):
  """Distance in (x, z) from the spinner's tip to the edge of the target (negative inside),
  from the sensordata s."""
  tip, target, spinner = int(params[_TIP]), int(params[_TARGET]), int(params[_SPINNER])
  dx = (s[target] - s[spinner]) - (s[tip] - s[spinner])
  dz = (s[target + 2] - s[spinner + 2]) - (s[tip + 2] - s[spinner + 2])
  return math.sqrt(dx * dx + dz * dz) - target_radius


@kernels.kernel
def observe(m, d, params, out):
  """position: the finger's joint angles, then the tip's (x, z) relative to the spinner;
  velocity: the three joints'; touch: log(1 + touch) of the top and bottom sensors. Turn
  (params[_TURN] = 1) adds target_position, the target's (x, z) relative to the spinner, and
  dist_to_target, the distance from the tip to the target's edge."""
  s = d.sensordata
  tip, target, spinner = int(params[_TIP]), int(params[_TARGET]), int(params[_SPINNER])
  out[0] = s[int(params[_PROXIMAL])]
  out[1] = s[int(params[_DISTAL])]
  out[2] = s[tip] - s[spinner]
  out[3] = s[tip + 2] - s[spinner + 2]
  out[4] = s[int(params[_PROXIMAL_VELOCITY])]
  out[5] = s[int(params[_DISTAL_VELOCITY])]
  out[6] = s[int(params[_HINGE_VELOCITY])]
  out[7] = math.log1p(s[int(params[_TOUCH_TOP])])
  out[8] = math.log1p(s[int(params[_TOUCH_BOTTOM])])
  if params[_TURN]:
    out[9] = s[target] - s[spinner]
    out[10] = s[target + 2] - s[spinner + 2]
    out[11] = _dist_to_target(s, params, m.site_size[int(params[_TARGET_SITE]), 0])


@kernels.kernel
def spin_reward(m, d, params, out):
  """1 while the spinner turns at 15 rad/s or more about -y, else 0."""
  spinning = d.sensordata[int(params[_HINGE_VELOCITY])] <= -_SPIN_VELOCITY
  out[kernels.REWARD] = 1.0 if spinning else 0.0
  out[kernels.DISCOUNT] = np.nan


@kernels.kernel
def turn_reward(m, d, params, out):
  """1 while the spinner's tip is inside the target, else 0."""
  radius = m.site_size[int(params[_TARGET_SITE]), 0]
  out[kernels.REWARD] = 1.0 if _dist_to_target(d.sensordata, params, radius) <= 0 else 0.0
  out[kernels.DISCOUNT] = np.nan


def _kernel_params(physics, turn):
  """The params of the kernels (see _SENSORS): addresses, target site, turn flag."""
  adr = physics._adr
  return np.array([adr[name] for name in _SENSORS] + [physics._target_site, turn], dtype=float)


_BASE_LAYOUT = (("position", (4,)), ("velocity", (3,)), ("touch", (2,)))


class Spin(base.Task):
  """Rewards the spinner turning at 15 rad/s or more (sparse)."""

  observe_kernel = observe
  reward_kernel = spin_reward
  model_fields = ("site_rgba", "dof_damping")  # the hidden sites, the spinner's damping

  def initialize_episode(self, physics):
    """Hides the target and tip, sets the spinner's damping, then a contact-free random
    finger and spinner pose."""
    physics.named.model.site_rgba["target", 3] = 0
    physics.named.model.site_rgba["tip", 3] = 0
    physics.named.model.dof_damping["hinge"] = _SPIN_DAMPING
    _set_random_joint_angles(physics, self.random)
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    return _BASE_LAYOUT

  def kernel_params(self, physics):
    return _kernel_params(physics, turn=False)


class Turn(base.Task):
  """Rewards the spinner's tip being inside the target (sparse)."""

  observe_kernel = observe
  reward_kernel = turn_reward
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

  def observation_layout(self, physics):
    return _BASE_LAYOUT + (("target_position", (2,)), ("dist_to_target", ()))

  def kernel_params(self, physics):
    return _kernel_params(physics, turn=True)


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
