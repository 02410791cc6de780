"""Cart-pole: balance one or more poles on a cart that slides along a rail.

Tasks: balance and swingup, each with a dense and a sparse reward (benchmarking), and the
swing-up of two or three stacked poles.
"""

import numpy as np

import mjcf
from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers

_DEFAULT_TIME_LIMIT = 10

SUITE = containers.TaggedTasks()


def get_model_and_assets(num_poles=1):
  """The model's XML text (with `num_poles` poles) and the include files it needs."""
  return _make_model(num_poles), common.ASSETS


@SUITE.add("benchmarking")
def balance(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Keep an upright pole balanced (dense reward)."""
  return _environment(1, Balance(swing_up=False, sparse=False, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("benchmarking")
def balance_sparse(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Keep an upright pole balanced (reward 1 only when centred and upright)."""
  return _environment(1, Balance(swing_up=False, sparse=True, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("benchmarking")
def swingup(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing the hanging pole up and balance it (dense reward)."""
  return _environment(1, Balance(swing_up=True, sparse=False, random=random), time_limit,
                      environment_kwargs)


@SUITE.add("benchmarking")
def swingup_sparse(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing the hanging pole up and balance it (sparse reward)."""
  return _environment(1, Balance(swing_up=True, sparse=True, random=random), time_limit,
                      environment_kwargs)


@SUITE.add()
def two_poles(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swing up and balance two stacked poles (dense reward)."""
  return _environment(2, Balance(swing_up=True, sparse=False, random=random), time_limit,
                      environment_kwargs)


@SUITE.add()
def three_poles(time_limit=_DEFAULT_TIME_LIMIT, random=None, num_poles=3, sparse=False,
                environment_kwargs=None):
  """Swing up and balance `num_poles` stacked poles (three by default)."""
  return _environment(num_poles, Balance(swing_up=True, sparse=sparse, random=random),
                      time_limit, environment_kwargs)


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


class Physics(control.Physics):
  """The cart-pole's quantities: the slider is qpos[0], the poles are bodies 2.., in chain
  order."""

  def cart_position(self):
    return self.data.qpos[0]

  def angular_vel(self):
    """Angular velocities of the poles."""
    return self.data.qvel[1:]

  def pole_angle_cosine(self):
    """Cosines of the poles' angles from upright: rotation entries zz."""
    return self.data.xmat[2:, 8]

  def bounded_position(self):
    """Cart x, then (cos, sin) of each pole's angle (rotation entries zz, xz)."""
    position = np.empty(1 + 2 * (self.model.nbody - 2))
    position[0] = self.data.qpos[0]
    position[1::2] = self.data.xmat[2:, 8]
    position[2::2] = self.data.xmat[2:, 2]
    return position


@kernels.kernel
def observe(m, d, params, out):
  """position: cart x, then (zz, xz) of each pole's rotation; velocity: qvel."""
  out[0] = d.qpos[0]
  k = 1
  for b in range(2, m.nbody):
    out[k] = d.xmat[b, 8]
    out[k + 1] = d.xmat[b, 2]
    k += 2
  for i in range(m.nv):
    out[k + i] = d.qvel[i]


@kernels.kernel
def reward(m, d, params, out):
  """Sparse (params[0] = 1): centred and every pole upright. Dense: mean uprightness times
  soft terms for centring, small control and small angular velocities."""
  cart = d.qpos[0]
  if params[0]:
    value = kernels.tolerance(cart, -0.25, 0.25, 0.0, kernels.GAUSSIAN, 0.1)
    for b in range(2, m.nbody):
      value *= kernels.tolerance(d.xmat[b, 8], 0.995, 1.0, 0.0, kernels.GAUSSIAN, 0.1)
  else:
    upright = 0.0
    for b in range(2, m.nbody):
      upright += (d.xmat[b, 8] + 1) / 2
    upright /= m.nbody - 2
    centered = (1 + kernels.tolerance(cart, 0.0, 0.0, 2.0, kernels.GAUSSIAN, 0.1)) / 2
    small_control = kernels.tolerance(d.ctrl[0], 0.0, 0.0, 1.0, kernels.QUADRATIC, 0.0)
    small_control = (4 + small_control) / 5
    small_velocity = 1.0
    for i in range(1, m.nv):
      small_velocity = min(small_velocity,
                           kernels.tolerance(d.qvel[i], 0.0, 0.0, 5.0, kernels.GAUSSIAN, 0.1))
    small_velocity = (1 + small_velocity) / 2
    value = upright * small_control * small_velocity * centered
  out[kernels.REWARD] = value
  out[kernels.DISCOUNT] = np.nan


class Balance(base.Task):
  """Balance (or swing up and balance) the poles: upright, centred, calm, cheap control."""

  _CART_RANGE = (-0.25, 0.25)
  _ANGLE_COSINE_RANGE = (0.995, 1)
  observe_kernel = observe
  reward_kernel = reward

  def __init__(self, swing_up, sparse, random=None):
    """`swing_up`: start hanging down instead of near upright; `sparse`: reward 1 only when
    centred and upright."""
    self._sparse = sparse
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

  def observation_layout(self, physics):
    nv = physics.model.nv
    return (("position", (1 + 2 * (nv - 1),)), ("velocity", (nv,)))

  def kernel_params(self, physics):
    return np.array([float(self._sparse)])
