"""Cart-pole: balance one or more poles on a cart that slides along a rail.

Tasks: balance and swingup, each with a dense and a sparse reward (benchmarking), and the
swing-up of two or three stacked poles.
"""

import numpy as np

import mjcf
from engine._jit import inline_jit
from suite import common
from suite import control
from suite import declare
from suite import features
from suite.utils import containers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 10

SUITE = containers.TaggedTasks()


def get_model_and_assets(num_poles=1):
  """The model's XML text (with `num_poles` poles) and the include files it needs."""
  return _make_model(num_poles), common.ASSETS


@SUITE.add("benchmarking")
def balance(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Keep an upright pole balanced (dense reward)."""
  return _environment(
    1, Balance(swing_up=False, sparse=False, random=random), time_limit, environment_kwargs
  )


@SUITE.add("benchmarking")
def balance_sparse(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Keep an upright pole balanced (reward 1 only when centred and upright)."""
  return _environment(
    1, Balance(swing_up=False, sparse=True, random=random), time_limit, environment_kwargs
  )


@SUITE.add("benchmarking")
def swingup(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing the hanging pole up and balance it (dense reward)."""
  return _environment(
    1, Balance(swing_up=True, sparse=False, random=random), time_limit, environment_kwargs
  )


@SUITE.add("benchmarking")
def swingup_sparse(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing the hanging pole up and balance it (sparse reward)."""
  return _environment(
    1, Balance(swing_up=True, sparse=True, random=random), time_limit, environment_kwargs
  )


@SUITE.add()
def two_poles(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing up and balance two stacked poles (dense reward)."""
  return _environment(
    2, Balance(swing_up=True, sparse=False, random=random), time_limit, environment_kwargs
  )


@SUITE.add()
def three_poles(
  time_limit=_DEFAULT_TIME_LIMIT, random=None, num_poles=3, sparse=False, environment_kwargs=None
):
  """Swing up and balance `num_poles` stacked poles (three by default)."""
  return _environment(
    num_poles, Balance(swing_up=True, sparse=sparse, random=random), time_limit, environment_kwargs
  )


def _environment(num_poles, task, time_limit, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets(num_poles))
  return control.Environment(physics, task, time_limit=time_limit, **(environment_kwargs or {}))


def _make_model(num_poles):
  """The one-pole model with poles 2..num_poles stacked 1 m apart, floor and cameras moved."""
  xml = common.read_model("cartpole.xml")
  if num_poles == 1:
    return xml
  model = mjcf.from_xml_string(xml, assets=common.ASSETS)
  parent = model.find("body", "pole_1")
  for k in range(2, num_poles + 1):
    parent = parent.add("body", name=f"pole_{k}", pos=[0, 0, 1], childclass="pole")
    parent.add("joint", name=f"hinge_{k}")
    parent.add("geom", name=f"pole_{k}")
  model.find("geom", "floor").pos = [0, 0, 1 - num_poles - 0.05]
  model.find("camera", "fixed").pos = [0, -1 - 2 * num_poles, 1]
  model.find("camera", "lookatcart").pos = [0, -2 * num_poles, 2]
  return model.to_xml_string()


_CART_RANGE = (-0.25, 0.25)  # sparse reward: the cart's position and the poles' cosines
_ANGLE_COSINE_RANGE = (0.995, 1)

# the poles are bodies 2.. in chain order, their hinges dofs 1..
PARAMS = declare.Params(slider=declare.qpos("slider"), sparse=declare.flag())


@declare.feature(())
def cart_position(m, d, p):
  return d.qpos[p.slider]


@declare.feature(lambda m: (m.nv - 1,))
def angular_vel(m, d, p, out):
  """Angular velocities of the poles."""
  for i in range(m.nv - 1):
    out[i] = d.qvel[1 + i]


@declare.feature(lambda m: (m.nbody - 2,))
def pole_angle_cosine(m, d, p, out):
  """Cosines of the poles' angles from upright."""
  for pole in range(m.nbody - 2):
    out[pole] = _pole_cosine(d, pole)


@declare.feature(lambda m: (1 + 2 * (m.nbody - 2),))
def bounded_position(m, d, p, out):
  """Cart x, then (cos, sin) of each pole's angle (rotation entries zz, xz)."""
  out[0] = cart_position(m, d, p)
  for pole in range(m.nbody - 2):
    out[1 + 2 * pole] = _pole_cosine(d, pole)
    out[2 + 2 * pole] = d.xmat[2 + pole, 2]


@inline_jit
def _pole_cosine(d, pole):
  """The cosine of pole `pole`'s angle from upright: its rotation entry zz."""
  return d.xmat[2 + pole, 8]


OBSERVATION = declare.Observation(PARAMS, ("position", bounded_position), features.velocity)


@declare.reward(PARAMS)
def reward(m, d, p):
  """Sparse: centred and every pole upright. Dense: mean uprightness times soft terms for
  centring, small control and small angular velocities."""
  npole = m.nbody - 2
  if p.sparse:
    value = rewards.tolerance(cart_position(m, d, p), _CART_RANGE)
    for pole in range(npole):
      value *= rewards.tolerance(_pole_cosine(d, pole), _ANGLE_COSINE_RANGE)
    return value
  upright = 0.0
  for pole in range(npole):
    upright += (_pole_cosine(d, pole) + 1) / 2
  upright /= npole
  centered = (1 + rewards.tolerance(cart_position(m, d, p), margin=2)) / 2
  small_control = (4 + features.small_control(m, d, p)) / 5
  small_velocity = 1.0
  for i in range(1, m.nv):  # the poles' angular velocities
    small_velocity = min(small_velocity, rewards.tolerance(d.qvel[i], margin=5))
  small_velocity = (1 + small_velocity) / 2
  return upright * small_control * small_velocity * centered


class Physics(declare.Physics):
  """The cart-pole's quantities."""

  params = PARAMS
  features = (cart_position, angular_vel, pole_angle_cosine, bounded_position)


class Balance(declare.Task):
  """Balance (or swing up and balance) the poles: upright, centred, calm, cheap control."""

  observation = OBSERVATION
  reward = reward

  def __init__(self, swing_up, sparse, random=None):
    """`swing_up`: start hanging down instead of near upright; `sparse`: reward 1 only when
    centred and upright."""
    self.sparse = sparse
    self._swing_up = swing_up
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Swing-up: cart ~ N(0, .01^2), first pole at pi + N(0, .01^2), others ~ N(0, .1^2).
    Balance: cart uniform in +-.1, poles uniform in +-.034. Velocities ~ N(0, .01^2)."""
    nv = physics.model.nv
    qpos = physics.named.data.qpos
    if self._swing_up:
      qpos["slider"] = 0.01 * self.random.randn()
      qpos["hinge_1"] = np.pi + 0.01 * self.random.randn()
      qpos[2:] = 0.1 * self.random.randn(nv - 2)
    else:
      qpos["slider"] = self.random.uniform(-0.1, 0.1)
      qpos[1:] = self.random.uniform(-0.034, 0.034, nv - 1)
    physics.named.data.qvel[:] = 0.01 * self.random.randn(nv)
    super().initialize_episode(physics)
