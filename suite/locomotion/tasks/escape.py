"""Climbing out of a bowl of rough terrain (dm_control's locomotion.tasks.escape)."""

import numpy as np

import composer
import mjcf
from composer.observation import observable
from engine.physics import PhysicsError
from suite.locomotion.tasks import _shared
from suite.utils import rewards

# the height field whose extent measures the escape (the arena's first)
_HEIGHTFIELD_ID = 0
# near and far clipping planes of the scene (metres)
_ZNEAR = 0.00025
_ZFAR = 50.0
# the bodies each walker family is observed and rewarded by: (root-frame body, rewarded site)
_CORE_BODY_AND_REWARD_SITE = {"CMUHumanoid": ("root", "root"), "Rat": ("torso", "head")}


class Escape(composer.Task):
  """Rewards being far from the centre while upright: the product of a linear ramp of the
  walker's distance from the origin (0 at the centre, 1 from the terrain's half-extent on) and
  of how upright its torso (and pelvis, if it has one) is. No termination; discount 1.

  Each episode starts from a random orientation (a normalised Gaussian quaternion) at the
  lowest height, in 1 cm steps from 0, where the walker touches nothing; as in dm_control this
  height is found before the arena's hooks (a Bowl's new terrain) run. The walker observes the
  origin in its root body's frame ('walker/origin').

  Args:
    walker: a Rat or a CMU humanoid (suite.locomotion.walkers), or a subclass.
    arena: an arena with a height field, e.g. suite.locomotion.arenas.Bowl.
    walker_spawn_position: kept for dm_control's signature; the walker starts at the origin.
    walker_spawn_rotation: kept for dm_control's signature; the orientation is random.
    physics_timestep: seconds per physics step.
    control_timestep: seconds per control step, a multiple of `physics_timestep`.
  """

  def __init__(
    self,
    walker,
    arena,
    walker_spawn_position=(0, 0, 0),
    walker_spawn_rotation=None,
    physics_timestep=0.005,
    control_timestep=0.025,
  ):
    name = type(self).__name__
    _shared.check_walker(walker, name)
    kind = _shared.walker_kind(walker, name)
    core_name, reward_name = _CORE_BODY_AND_REWARD_SITE[kind]
    core_body = _shared.find_walker_element(walker, "body", core_name, name)
    self._reward_site = _shared.find_walker_element(walker, "site", reward_name, name)
    _shared.enable_walker_observables(walker, name, names=("sensors_touch", "egocentric_camera"))
    self._arena = arena
    self._walker = walker
    self._walker.create_root_joints(self._arena.attach(self._walker))
    del walker_spawn_position, walker_spawn_rotation  # unused, as in dm_control

    def origin_in_core_frame(physics):
      core = physics.bind(core_body)
      return -core.xpos.dot(core.xmat.reshape(3, 3))

    self._walker.observables.add_observable("origin", observable.Generic(origin_in_core_frame))
    self.set_timesteps(physics_timestep=physics_timestep, control_timestep=control_timestep)

  @property
  def root_entity(self):
    return self._arena

  def initialize_episode_mjcf(self, random_state):
    if hasattr(self._arena, "regenerate"):
      self._arena.regenerate(random_state)
    self._arena.mjcf_model.visual.map.znear = _ZNEAR
    self._arena.mjcf_model.visual.map.zfar = _ZFAR

  def after_compile(self, physics, random_state):
    if physics.model.nhfield <= _HEIGHTFIELD_ID:
      raise ValueError(
        "Escape needs an arena with a height field (e.g. arenas.Bowl): the "
        "reward measures the escape by the terrain's extent"
      )

  def initialize_episode(self, physics, random_state):
    orientation = random_state.randn(4)
    orientation /= np.linalg.norm(orientation)
    _find_non_contacting_height(physics, self._walker, orientation)

  def get_reward(self, physics):
    terrain_size = physics.model.hfield_size[_HEIGHTFIELD_ID, 0]
    distance = np.asarray(np.linalg.norm(physics.bind(self._reward_site).xpos))
    escape_reward = rewards.tolerance(
      distance,
      bounds=(terrain_size, float("inf")),
      margin=terrain_size,
      value_at_margin=0,
      sigmoid="linear",
    )
    upright_reward = _upright_reward(physics, self._walker, deviation_angle=30)
    return upright_reward * escape_reward

  def get_discount(self, physics):
    del physics  # never discounted
    return 1.0


def _find_non_contacting_height(physics, walker, orientation, x_pos=0.0, y_pos=0.0, maxiter=1000):
  """Puts the walker's free joint at (x_pos, y_pos) with `orientation` (a quaternion), at the
  first height from 0 up in 1 cm steps at which it has no contacts (each try resets the
  physics).

  Raises:
    ValueError: no such height within `maxiter` tries (the walker's reference pose may touch
      itself).
  """
  freejoint = mjcf.get_frame_freejoint(walker.mjcf_model)
  z_pos = 0.0
  num_contacts = 1
  tries = 1
  while num_contacts > 0:
    try:
      with physics.reset_context():
        joint = physics.bind(freejoint)
        joint.qpos[:3] = x_pos, y_pos, z_pos
        joint.qpos[3:] = orientation
    except PhysicsError:
      pass  # e.g. the contact buffer filled up deep in the ground: try higher
    num_contacts = physics.data.ncon
    z_pos += 0.01
    tries += 1
    if tries > maxiter:
      raise ValueError("maxiter reached: possibly contacts in null pose of body.")


def _upright_reward(physics, walker, deviation_angle=0):
  """1 while the torso's z axis (and the pelvis's, if the walker has a `pelvis_body`) is within
  `deviation_angle` degrees of the world's z axis, falling linearly to 0 upside down; the
  smaller of the two."""
  deviation = np.cos(np.deg2rad(deviation_angle))
  upright_zz = physics.bind(walker.root_body).xmat[-1]
  if hasattr(walker, "pelvis_body"):
    upright_zz = np.stack([upright_zz, physics.bind(walker.pelvis_body).xmat[-1]])
  upright = rewards.tolerance(
    upright_zz,
    bounds=(deviation, float("inf")),
    sigmoid="linear",
    margin=1 + deviation,
    value_at_margin=0,
  )
  return np.min(upright)
