"""Ball-in-cup: swing a ball tied to a cup by a string up into the cup (catch)."""

from suite import common
from suite import control
from suite import declare
from suite import features
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
  return control.Environment(
    physics,
    task,
    time_limit=time_limit,
    control_timestep=_CONTROL_TIMESTEP,
    **(environment_kwargs or {}),
  )


PARAMS = declare.Params(
  target=declare.site("target"), ball=declare.body("ball"), ball_geom=declare.geom("ball")
)


@declare.feature((2,))
def ball_to_target(m, d, p):
  """(x, z) of the cup's target region relative to the ball's centre."""
  return (
    d.site_xpos[p.target, 0] - d.xpos[p.ball, 0],
    d.site_xpos[p.target, 2] - d.xpos[p.ball, 2],
  )


@declare.feature(())
def in_target(m, d, p):
  """1.0 if the whole ball is inside the target box in x and z, else 0.0."""
  dx, dz = ball_to_target(m, d, p)
  radius = m.geom_size[p.ball_geom, 0]
  half_x = m.site_size[p.target, 0] - radius
  half_z = m.site_size[p.target, 2] - radius
  return 1.0 if abs(dx) < half_x and abs(dz) < half_z else 0.0


OBSERVATION = declare.Observation(PARAMS, features.position, features.velocity)


@declare.reward(PARAMS)
def reward(m, d, p):
  """1 while the whole ball is inside the target box in x and z, else 0."""
  return in_target(m, d, p)


class Physics(declare.Physics):
  """The ball-in-cup's quantities."""

  params = PARAMS
  features = (ball_to_target, in_target)


class BallInCup(declare.Task):
  """Rewards having the ball inside the cup (sparse)."""

  observation = OBSERVATION
  reward = reward

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
