"""The Jaco arm and hand with the manipulation tasks' observable settings."""

from composer import initializers
from composer import task as task_module
from composer.manipulators import kinova
from composer.variation import distributions
from suite.manipulation.shared import cameras
from suite.manipulation.shared import observations
from suite.manipulation.shared import workspaces

ARM_OFFSET = (0.0, 0.4, 0.0)  # where the arm's base stands, from the arena's origin


def make_arm(obs_settings):
  """A Jaco arm whose observables are configured by `obs_settings`."""
  return kinova.JacoArm(
    observable_options=observations.make_options(obs_settings, observations.JACO_ARM_OBSERVABLES)
  )


def make_hand(obs_settings):
  """A Jaco hand whose tool centre point is its pinch site, its observables configured by
  `obs_settings`."""
  return kinova.JacoHand(
    use_pinch_site_as_tcp=True,
    observable_options=observations.make_options(obs_settings, observations.JACO_HAND_OBSERVABLES),
  )


class ArmTask(task_module.Task):
  """A task of an arm and hand in an arena: the construction and the properties every
  manipulation task shares (`_build_arm`, then the task's own props and sites)."""

  def _build_arm(self, arena, arm, hand, obs_settings, workspace, control_timestep):
    """Mounts `hand` on `arm` and the arm at the workspace's offset in `arena`; adds the front
    camera's observables (the task observables) and an initializer drawing the tool centre
    point in the workspace's `tcp_bbox`, pointing down."""
    self._arena = arena
    self._arm = arm
    self._hand = hand
    self._arm.attach(self._hand)
    self._arena.attach_offset(self._arm, offset=workspace.arm_offset)
    self.control_timestep = control_timestep
    self._task_observables = cameras.add_camera_observables(
      arena, obs_settings, cameras.FRONT_CLOSE
    )
    self._tcp_initializer = initializers.ToolCenterPointInitializer(
      self._hand,
      self._arm,
      position=distributions.Uniform(*workspace.tcp_bbox),
      quaternion=workspaces.DOWN_QUATERNION,
    )

  def _add_spawn_area_sites(self, *areas):
    """A hidden box site for each (bounding box, rgba, name) in the arena's worldbody."""
    worldbody = self.root_entity.mjcf_model.worldbody
    for bbox, rgba, name in areas:
      workspaces.add_bbox_site(
        body=worldbody, lower=bbox.lower, upper=bbox.upper, rgba=rgba, name=name
      )

  @property
  def root_entity(self):
    return self._arena

  @property
  def arm(self):
    return self._arm

  @property
  def hand(self):
    return self._hand

  @property
  def task_observables(self):
    return self._task_observables
