"""Swimmer: a planar chain of n links in a dense fluid; swim the nose to a target (swimmer6,
swimmer15, and `swimmer(n_links)` for other lengths)."""

import math

import numpy as np

import mjcf
from suite import base
from suite import common
from suite import control
from suite import kernels
from suite.utils import containers
from suite.utils import randomizers

_DEFAULT_TIME_LIMIT = 30
_CONTROL_TIMESTEP = .03
_SEGMENT_SPACING = .1  # m between consecutive bodies of the chain
_CAMERA_LINKS = 6  # the tracking cameras are placed for this many links and scaled with n

SUITE = containers.TaggedTasks()


def get_model_and_assets(n_joints):
  """The XML text of a swimmer of `n_joints` links (hinges, the root's yaw included) and the
  include files it needs."""
  return _make_model(n_joints), common.ASSETS


@SUITE.add("benchmarking")
def swimmer6(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swim a 6-link swimmer's nose to the target."""
  return _make_swimmer(6, time_limit, random=random, environment_kwargs=environment_kwargs)


@SUITE.add("benchmarking")
def swimmer15(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swim a 15-link swimmer's nose to the target."""
  return _make_swimmer(15, time_limit, random=random, environment_kwargs=environment_kwargs)


def swimmer(n_links=3, time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Swim an `n_links`-link swimmer's nose to the target (not a registered task)."""
  return _make_swimmer(n_links, time_limit, random=random, environment_kwargs=environment_kwargs)


def _make_swimmer(n_joints, time_limit, random, environment_kwargs):
  physics = Physics.from_xml_string(*get_model_and_assets(n_joints))
  task = Swimmer(random=random)
  return control.Environment(physics, task, time_limit=time_limit,
                             control_timestep=_CONTROL_TIMESTEP, **(environment_kwargs or {}))


def _make_model(n_bodies):
  """The head of assets/suite/swimmer.xml followed by n_bodies - 1 segments, each with a hinge
  limited to +-360/n_bodies degrees, a motor and a velocimeter and gyro at its site.

  Raises:
    ValueError: n_bodies < 3.
  """
  if n_bodies < 3:
    raise ValueError(f"At least 3 bodies required. Received {n_bodies}")
  model = mjcf.from_xml_string(common.read_model("swimmer.xml"), assets=common.ASSETS)
  joint_limit = 360 / n_bodies
  parent = model.find("body", "head")
  for i in range(n_bodies - 1):
    body = parent.add("body", name=f"segment_{i}", pos=[0, _SEGMENT_SPACING, 0])
    body.add("geom", name=f"visual_{i}", dclass="visual")
    body.add("geom", name=f"inertial_{i}", dclass="inertial")
    body.add("site", name=f"site_{i}")
    body.add("joint", name=f"joint_{i}", range=[-joint_limit, joint_limit],
             dclass="segment")
    model.actuator.add("motor", name=f"motor_{i}", joint=f"joint_{i}", dclass="swimmer")
    model.sensor.add("velocimeter", name=f"velocimeter_{i}", site=f"site_{i}")
    model.sensor.add("gyro", name=f"gyro_{i}", site=f"site_{i}")
    parent = body
  scale = n_bodies / _CAMERA_LINKS
  for name in ("tracking1", "tracking2"):
    camera = model.find("camera", name)
    camera.pos = camera.pos * scale
  return model.to_xml_string()


class Physics(control.Physics):
  """The swimmer's quantities (ids and addresses looked up once per model)."""

  def _reload_from_data(self, data):
    super()._reload_from_data(data)
    model = self.model
    self._head = model.name2id("head", "body")
    self._target = model.name2id("target", "geom")
    self._nose_adr = model.sensor_adr[model.name2id("nose_pos", "sensor")]
    self._target_adr = model.sensor_adr[model.name2id("target_pos", "sensor")]
    # (velocimeter, gyro) pairs of every body, head first, after the four frame sensors
    self._body_vel_adr = model.sensor_adr[model.name2id("head_vel", "sensor")]

  def nose_to_target(self):
    """The nose-to-target vector in the head's frame, x and y only."""
    sensordata = self.data.sensordata
    nose_to_target = (sensordata[self._target_adr:self._target_adr + 3]
                      - sensordata[self._nose_adr:self._nose_adr + 3])
    head_orientation = self.data.xmat[self._head].reshape(3, 3)
    return nose_to_target.dot(head_orientation)[:2]

  def nose_to_target_dist(self):
    return np.linalg.norm(self.nose_to_target())

  def target_size(self):
    """Radius of the target sphere."""
    return self.model.geom_size[self._target, 0]

  def body_velocities(self):
    """Each body's local (vx, vy, wz): its velocimeter's x, y and its gyro's z."""
    local = self.data.sensordata[self._body_vel_adr:].reshape(-1, 6)
    return local[:, [0, 1, 5]].ravel()

  def joints(self):
    """The angles of the joints after the root (x, y, yaw)."""
    return self.data.qpos[3:].copy()


# the layout of kernel_params: the head body, the target geom, the addresses of the nose and
# target position sensors and of the first (velocimeter, gyro) pair
_HEAD, _TARGET, _NOSE_ADR, _TARGET_ADR, _BODY_VEL_ADR = range(5)


@kernels.kernel
def observe(m, d, params, out):
  """joints: qpos after the root (x, y, yaw); to_target: x, y of the nose-to-target vector in
  the head's frame; body_velocities: each body's velocimeter x, y and gyro z."""
  k = 0
  for i in range(3, m.nq):
    out[k] = d.qpos[i]
    k += 1
  head = int(params[_HEAD])
  nose, target = int(params[_NOSE_ADR]), int(params[_TARGET_ADR])
  for j in range(2):  # the row vector target - nose times the head's rotation matrix
    value = 0.0
    for i in range(3):
      value += (d.sensordata[target + i] - d.sensordata[nose + i]) * d.xmat[head, 3 * i + j]
    out[k + j] = value
  k += 2
  for adr in range(int(params[_BODY_VEL_ADR]), m.nsensordata, 6):
    out[k] = d.sensordata[adr]
    out[k + 1] = d.sensordata[adr + 1]
    out[k + 2] = d.sensordata[adr + 5]
    k += 3


@kernels.kernel
def reward(m, d, params, out):
  """The nose inside the target sphere; outside, a long tail over 5 target radii."""
  head = int(params[_HEAD])
  nose, target = int(params[_NOSE_ADR]), int(params[_TARGET_ADR])
  x = y = 0.0
  for i in range(3):
    delta = d.sensordata[target + i] - d.sensordata[nose + i]
    x += delta * d.xmat[head, 3 * i]
    y += delta * d.xmat[head, 3 * i + 1]
  target_size = m.geom_size[int(params[_TARGET]), 0]
  out[kernels.REWARD] = kernels.tolerance(math.sqrt(x * x + y * y), 0.0, target_size,
                                          5 * target_size, kernels.LONG_TAIL, 0.1)
  out[kernels.DISCOUNT] = np.nan


class Swimmer(base.Task):
  """Rewards the nose reaching the target (falling off with a long tail beyond its radius)."""

  observe_kernel = observe
  reward_kernel = reward
  model_fields = ("geom_pos", "light_pos")

  def initialize_episode(self, physics):
    """Random root yaw and joint angles; the target (and its light) uniform in +-0.3 with
    probability 0.2, otherwise in +-2, in x and y."""
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    close_target = self.random.rand() < .2
    target_box = .3 if close_target else 2
    xpos, ypos = self.random.uniform(-target_box, target_box, size=2)
    model = physics.named.model
    model.geom_pos["target", "x"] = xpos
    model.geom_pos["target", "y"] = ypos
    model.light_pos["target_light", "x"] = xpos
    model.light_pos["target_light", "y"] = ypos
    super().initialize_episode(physics)

  def observation_layout(self, physics):
    """Joint angles, the target in the head's frame, body velocities."""
    model = physics.model
    nbody_velocities = (model.nsensordata - physics._body_vel_adr) // 6
    return (("joints", (model.nq - 3,)), ("to_target", (2,)),
            ("body_velocities", (3 * nbody_velocities,)))

  def kernel_params(self, physics):
    return np.array([physics._head, physics._target, physics._nose_adr, physics._target_adr,
                     physics._body_vel_adr], float)
