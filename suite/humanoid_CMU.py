"""Humanoid_CMU: the 56-joint humanoid of the CMU motion-capture skeleton stands, walks or runs.

Tasks (extra): stand, walk and run, with the humanoid domain's rewards. The model's root frame
is y-up (as the mocap data), so the thorax's "up" axis is its local y axis.
"""

from suite import common
from suite import control
from suite import declare
from suite import humanoid
from suite.utils import containers

_DEFAULT_TIME_LIMIT = 20
_CONTROL_TIMESTEP = 0.02
_WALK_SPEED = 1  # horizontal centre-of-mass speeds (m/s), as humanoid's
_RUN_SPEED = 10

# bodies whose positions form the `extremities` observation, in its order
_EXTREMITIES = ("lhand", "lfoot", "rhand", "rfoot")

SUITE = containers.TaggedTasks()


def get_model_and_assets():
  """The model's XML text and the include files it needs."""
  return common.read_model("humanoid_CMU.xml"), common.ASSETS


@SUITE.add()
def stand(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Stand up and stay still."""
  return _environment(HumanoidCMU(move_speed=0, random=random), time_limit, environment_kwargs)


@SUITE.add()
def walk(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Walk at 1 m/s or faster in any horizontal direction."""
  return _environment(
    HumanoidCMU(move_speed=_WALK_SPEED, random=random), time_limit, environment_kwargs
  )


@SUITE.add()
def run(time_limit=_DEFAULT_TIME_LIMIT, random=None, environment_kwargs=None):
  """Run at 10 m/s or faster in any horizontal direction."""
  return _environment(
    HumanoidCMU(move_speed=_RUN_SPEED, random=random), time_limit, environment_kwargs
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


# the humanoid's parameters with the CMU model's names; its up axis is the thorax's local y
PARAMS = humanoid.PARAMS.renamed(
  torso="thorax", extremities=_EXTREMITIES, com_velocity="thorax_subtreelinvel", upright_entry=7
)


class Physics(humanoid.Physics):
  """The CMU humanoid's quantities: thorax frame, head height, centre of mass, extremities
  (humanoid's, read off the thorax)."""

  params = PARAMS

  def thorax_upright(self):
    """The thorax's up (local y) axis's world z component: rotation entry zy."""
    return self.torso_upright()


class HumanoidCMU(declare.Task):
  """Rewards a high head, an upright thorax and small controls, times a speed term (the
  humanoid's kernels)."""

  params = PARAMS
  observation = humanoid.OBSERVATION
  reward = humanoid.reward

  def __init__(self, move_speed, random=None):
    """`move_speed`: the horizontal speed to reach (0: stand still)."""
    self.move_speed = move_speed
    super().__init__(random=random)

  def initialize_episode(self, physics):
    """Random joint angles and root orientation, redrawn until no geoms touch."""
    humanoid.initialize_without_contacts(physics, self.random)
    super().initialize_episode(physics)
