"""Swimmer: a planar chain of n links in a dense fluid; swim the nose to a target (swimmer6,
swimmer15, and `swimmer(n_links)` for other lengths)."""

import math

import mjcf
from suite import common
from suite import control
from suite import declare
from suite import features
from suite.utils import containers
from suite.utils import randomizers
from suite.utils import rewards

_DEFAULT_TIME_LIMIT = 30
_CONTROL_TIMESTEP = 0.03
_SEGMENT_SPACING = 0.1  # m between consecutive bodies of the chain
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
  return control.Environment(
    physics,
    task,
    time_limit=time_limit,
    control_timestep=_CONTROL_TIMESTEP,
    **(environment_kwargs or {}),
  )


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
    body.add("joint", name=f"joint_{i}", range=[-joint_limit, joint_limit], dclass="segment")
    model.actuator.add("motor", name=f"motor_{i}", joint=f"joint_{i}", dclass="swimmer")
    model.sensor.add("velocimeter", name=f"velocimeter_{i}", site=f"site_{i}")
    model.sensor.add("gyro", name=f"gyro_{i}", site=f"site_{i}")
    parent = body
  scale = n_bodies / _CAMERA_LINKS
  for name in ("tracking1", "tracking2"):
    camera = model.find("camera", name)
    camera.pos = camera.pos * scale
  return model.to_xml_string()


PARAMS = declare.Params(
  head=declare.body("head"),
  target=declare.geom("target"),
  nose_position=declare.sensor("nose_pos"),
  target_position=declare.sensor("target_pos"),
  # (velocimeter, gyro) pairs of every body follow, head first
  head_velocity=declare.sensor("head_vel"),
)


@declare.feature((2,))
def nose_to_target(m, d, p):
  """The nose-to-target vector in the head's frame, x and y only."""
  nose = d.sensordata[p.nose_position : p.nose_position + 3]
  target = d.sensordata[p.target_position : p.target_position + 3]
  head = d.xmat[p.head]
  x, y, _ = features.vector_in_frame(
    head, target[0] - nose[0], target[1] - nose[1], target[2] - nose[2]
  )
  return x, y


@declare.feature(())
def nose_to_target_dist(m, d, p):
  x, y = nose_to_target(m, d, p)
  return math.sqrt(x * x + y * y)


@declare.feature(())
def target_size(m, d, p):
  """Radius of the target sphere."""
  return m.geom_size[p.target, 0]


@declare.feature(lambda m: (3 * (m.nbody - 1),))
def body_velocities(m, d, p, out):
  """Each body's (the world's excepted) local (vx, vy, wz): its velocimeter's x, y and its
  gyro's z."""
  for b in range(m.nbody - 1):
    adr = p.head_velocity + 6 * b
    out[3 * b] = d.sensordata[adr]
    out[3 * b + 1] = d.sensordata[adr + 1]
    out[3 * b + 2] = d.sensordata[adr + 5]


@declare.feature(lambda m: (m.nq - 3,))
def joints(m, d, p, out):
  """The angles of the joints after the root (x, y, yaw)."""
  for i in range(m.nq - 3):
    out[i] = d.qpos[3 + i]


OBSERVATION = declare.Observation(PARAMS, joints, ("to_target", nose_to_target), body_velocities)


@declare.reward(PARAMS)
def reward(m, d, p):
  """The nose inside the target sphere; outside, a long tail over 5 target radii."""
  size = target_size(m, d, p)
  return rewards.tolerance(
    nose_to_target_dist(m, d, p), bounds=(0, size), margin=5 * size, sigmoid="long_tail"
  )


class Physics(declare.Physics):
  """The swimmer's quantities."""

  params = PARAMS
  features = (nose_to_target, nose_to_target_dist, target_size, body_velocities, joints)


class Swimmer(declare.Task):
  """Rewards the nose reaching the target (falling off with a long tail beyond its radius)."""

  observation = OBSERVATION
  reward = reward
  model_fields = ("geom_pos", "light_pos")

  def initialize_episode(self, physics):
    """Random root yaw and joint angles; the target (and its light) uniform in +-0.3 with
    probability 0.2, otherwise in +-2, in x and y."""
    randomizers.randomize_limited_and_rotational_joints(physics, self.random)
    close_target = self.random.rand() < 0.2
    target_box = 0.3 if close_target else 2
    xpos, ypos = self.random.uniform(-target_box, target_box, size=2)
    model = physics.named.model
    model.geom_pos["target", "x"] = xpos
    model.geom_pos["target", "y"] = ypos
    model.light_pos["target_light", "x"] = xpos
    model.light_pos["target_light", "y"] = ypos
    super().initialize_episode(physics)
