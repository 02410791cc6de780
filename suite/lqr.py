"""LQR: drive a chain of spring-loaded sliding bodies to rest at the origin.

A linear system with a quadratic cost, whose optimal controller is known (the linear-quadratic
regulator). Tasks (extra): lqr_2_1 (2 bodies, 1 motor) and lqr_6_2 (6 bodies, 2 motors). The
model is generated per construction; its joint stiffnesses come from the task's random state.
"""

import math

import numpy as np

import mjcf
from engine._jit import inline_jit
from suite import common
from suite import control
from suite import declare
from suite import features
from suite.utils import containers

_DEFAULT_TIME_LIMIT = float("inf")
_CONTROL_COST_COEF = 0.1
_BODY_SPACING = 0.25  # m between consecutive bodies along x
_STIFFNESS_RANGE = (15, 25)
_DAMPING_RANGE = (0, 0)  # no damping, but still drawn: part of the seed-level draw order
_TERMINATION_NORM = 1e-6  # the episode ends (discount 0) below this state norm
_SUCCESS_NORM = 1e-2

SUITE = containers.TaggedTasks()


def get_model_and_assets(n_bodies, n_actuators, random):
  """The XML text of a chain of `n_bodies` bodies with motors on the first `n_actuators`
  joints, and the include files it needs. Draws each joint's stiffness and damping from
  `random` (a RandomState), body by body."""
  return _make_model(n_bodies, n_actuators, random), common.ASSETS


@SUITE.add()
def lqr_2_1(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Two bodies, one motor."""
  return _make_lqr(2, 1, _CONTROL_COST_COEF, time_limit, random, environment_kwargs)


@SUITE.add()
def lqr_6_2(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Six bodies, two motors."""
  return _make_lqr(6, 2, _CONTROL_COST_COEF, time_limit, random, environment_kwargs)


def _make_lqr(n_bodies, n_actuators, control_cost_coef, time_limit, random, environment_kwargs):
  """The environment; the model and the task draw from one RandomState, the model first."""
  if not isinstance(random, np.random.RandomState):
    random = np.random.RandomState(random)
  physics = Physics.from_xml_string(*get_model_and_assets(n_bodies, n_actuators, random))
  task = LQRLevel(control_cost_coef, random=random)
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


def _make_model(n_bodies, n_actuators, random):
  """Bodies body_0..body_{n-1}, each a child of the previous one 0.25 m further along x, on a
  y slide joint with a random spring; tendons between consecutive bodies' sites (drawn only);
  motors on the first `n_actuators` joints."""
  if not 1 <= n_actuators <= n_bodies:
    raise ValueError(f"n_actuators ({n_actuators}) must be between 1 and n_bodies ({n_bodies}).")
  model = mjcf.from_xml_string(common.read_model("lqr.xml"), assets=common.ASSETS)
  parent = model.worldbody
  for i in range(n_bodies):
    pos = [_BODY_SPACING, 0, 0.1 if i == 0 else 0]
    parent = parent.add("body", name=f"body_{i}", pos=pos)
    stiffness = random.uniform(*_STIFFNESS_RANGE)
    damping = random.uniform(*_DAMPING_RANGE)
    parent.add("joint", name=f"joint_{i}", stiffness=stiffness, damping=damping)
    parent.add("geom", name=f"geom_{i}")
    parent.add("site", name=f"site_{i}")
  for i in range(n_bodies - 1):
    tendon = model.tendon.add("spatial", name=f"tendon_{i}")
    tendon.add("site", site=f"site_{i}")
    tendon.add("site", site=f"site_{i + 1}")
  for i in range(n_actuators):
    model.actuator.add("motor", name=f"motor_{i}", joint=f"joint_{i}")
  return model.to_xml_string()


PARAMS = declare.Params(control_cost_coef=declare.number())


@inline_jit
def _squared_norm(values, total):
  """total plus the squares of `values`."""
  for value in values:
    total += value * value
  return total


@declare.feature(())
def state_norm(m, d, p):
  """The Euclidean norm of the state (qpos, qvel, act)."""
  return math.sqrt(_squared_norm(d.act, _squared_norm(d.qvel, _squared_norm(d.qpos, 0.0))))


def _at_rest(m, d, p):
  """Discount 0 once the state norm is below 1e-6 (the episode ends), else NaN."""
  return 0.0 if state_norm(m, d, p) < _TERMINATION_NORM else np.nan


@declare.reward(PARAMS, termination=_at_rest)
def reward(m, d, p):
  """1 - (|qpos|^2 / 2 + control_cost_coef * |ctrl|^2 / 2)."""
  position_cost = _squared_norm(d.qpos, 0.0)
  control_cost = _squared_norm(d.ctrl, 0.0)
  return 1 - (0.5 * position_cost + 0.5 * control_cost * p.control_cost_coef)


OBSERVATION = declare.Observation(PARAMS, features.position, features.velocity)


class Physics(declare.Physics):
  """The LQR system's state norm."""

  params = PARAMS
  features = (state_norm,)


class LQRLevel(declare.Task):
  """Rewards 1 minus the quadratic cost of position and control; ends once at rest.

  The model is drawn from the seed (`model_from_seed`): a vectorised environment builds each
  world with its own model instead of sharing one.
  """

  observation = OBSERVATION
  reward = reward
  model_from_seed = True

  def __init__(self, control_cost_coef, random=None):
    """`control_cost_coef`: the weight of the control cost relative to the position cost."""
    if control_cost_coef <= 0:
      raise ValueError("control_cost_coef must be positive.")
    self._control_cost_coef = control_cost_coef
    super().__init__(random=random)

  @property
  def control_cost_coef(self):
    return self._control_cost_coef

  def initialize_episode(self, physics):
    """Positions on a random direction at distance sqrt(2) from the origin; at rest."""
    ndof = physics.model.nq
    unit = self.random.randn(ndof)
    physics.data.qpos[:] = np.sqrt(2) * unit / np.linalg.norm(unit)
    super().initialize_episode(physics)

  def get_evaluation(self, physics):
    """Whether the state is within 0.01 of rest (the success criterion)."""
    return physics.state_norm() <= _SUCCESS_NORM
