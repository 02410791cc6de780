"""Ball walkers: a head riding on an actuated ball, which rolls, steers and (for the jumping
one) kicks (dm_control.locomotion.walkers.jumping_ball)."""

import numpy as np

import assets
import composer
import mjcf
from suite.locomotion.walkers import legacy_base

_XML_PATH = assets.LOCOMOTION / "walkers" / "jumping_ball_with_head.xml"
_CAMERA_DOFS = ("camera_height", "camera_tilt")
# the ears: red on the head's +x side, blue on its -x side (its left and right)
_EARS = (((0.22, 0, 0), (0.7, 0, 0, 1)), ((-0.22, 0, 0), (0, 0, 0.7, 1)))
_EAR_RADIUS = 0.26


def _yaw(quaternion):
  """The rotation about z of a (w, x, y, z) quaternion (its yaw angle)."""
  w, x, y, z = quaternion
  return np.arctan2(2 * (w * z + x * y), 1 - 2 * (y**2 + z**2))


class HeadOnBall:
  """What the ball walkers share (this module's and soccer's BoxHead): slide-joint roots, a
  pose turned on the steer joint, the camera mount held up, and the parts found by name.
  Mixed into a legacy_base.Walker whose model has a 'root' default class, a 'steer' joint, a
  'head_body', an 'egocentric' camera, a 'shell' geom and an 'egocentric_camera' body."""

  def create_root_joints(self, attachment_frame):
    """Three unlimited slide joints (root_x, root_y, root_z) of the model's 'root' class."""
    root_class = self._mjcf_root.find("default", "root")
    self._root_joints = [
      attachment_frame.add(
        "joint", name=f"root_{axis_name}", type="slide", axis=axis, dclass=root_class
      )
      for axis_name, axis in (("x", [1, 0, 0]), ("y", [0, 1, 0]), ("z", [0, 0, 1]))
    ]

  def set_pose(self, physics, position=None, quaternion=None):
    """Zeroes the walker's own joints, then moves it to `position` (on its slide joints, or
    its frame when it has none) and turns it by the yaw of `quaternion` (its only rotation)."""
    if position is not None:
      if self._root_joints is not None:
        physics.bind(self._root_joints).qpos = position
      else:
        super().set_pose(physics, position, quaternion=None)
    physics.bind(self._mjcf_root.find_all("joint")).qpos = 0.0
    if quaternion is not None:
      physics.bind(self._mjcf_root.find("joint", "steer")).qpos = _yaw(quaternion)

  def _hold_camera_mount(self, physics):
    """With camera control, holds the camera mount up against gravity."""
    if self._camera_control:
      gravity = np.hstack([physics.model.opt.gravity, [0, 0, 0]])
      mount = physics.bind(self._mjcf_root.find("body", "egocentric_camera"))
      mount.xfrc_applied = -gravity * mount.mass[..., None]

  @composer.cached_property
  def actuators(self):
    return self._mjcf_root.find_all("actuator")

  @composer.cached_property
  def root_body(self):
    return self._mjcf_root.find("body", "head_body")

  @composer.cached_property
  def egocentric_camera(self):
    return self._mjcf_root.find("camera", "egocentric")

  @composer.cached_property
  def ground_contact_geoms(self):
    return (self._mjcf_root.find("geom", "shell"),)


class JumpingBallWithHead(HeadOnBall, legacy_base.Walker):
  """A head on a ball that rolls, steers and jumps (actuators roll, steer, kick).

  `JumpingBallWithHead(name='walker', marker_rgba=None, camera_control=False,
  initializer=None, add_ears=False, camera_height=None)`:
    marker_rgba: colour of the head, to tell walkers apart.
    camera_control: keep the egocentric camera's height and tilt joints and their velocity
      actuators (two more actions; the camera mount's weight is then compensated).
    add_ears: two large coloured spheres on the head's sides (cues for egocentric vision).
    camera_height: height of the camera mount above the head, instead of the model's 0.9.

  The walker moves in the arena on three slide joints (`create_root_joints`) and turns only
  about the vertical (its steer joint).
  """

  def _build(
    self,
    name="walker",
    marker_rgba=None,
    camera_control=False,
    initializer=None,
    add_ears=False,
    camera_height=None,
  ):
    super()._build(initializer=initializer)
    self._mjcf_root = mjcf.from_path(str(self._xml_path))
    if name:
      self._mjcf_root.model = name
    if camera_height is not None:
      self._mjcf_root.find("body", "egocentric_camera").pos[2] = camera_height
    if add_ears:
      head = self._mjcf_root.find("body", "head_body")
      for pos, rgba in _EARS:
        head.add("site", type="sphere", size=(_EAR_RADIUS,), pos=pos, rgba=rgba)
    if marker_rgba is not None:
      for geom in self.marker_geoms:
        geom.set_attributes(rgba=marker_rgba)
    self._root_joints = None
    self._camera_control = camera_control
    if not camera_control:
      for dof in _CAMERA_DOFS:
        self._mjcf_root.find("actuator", dof).remove()
        self._mjcf_root.find("joint", dof).remove()

  @property
  def _xml_path(self):
    return _XML_PATH

  @property
  def marker_geoms(self):
    return [self._mjcf_root.find("geom", "head")]

  def initialize_episode(self, physics, random_state):
    """With camera control, holds the camera mount up against gravity."""
    self._hold_camera_mount(physics)

  @composer.cached_property
  def end_effectors(self):
    return [self._mjcf_root.find("body", "head_body")]

  @composer.cached_property
  def observable_joints(self):
    return [self._mjcf_root.find("joint", "kick")]


class RollingBallWithHead(JumpingBallWithHead):
  """The ball without its kick: it only rolls and steers; no observable joints."""

  def _build(self, **kwargs):
    super()._build(**kwargs)
    self._mjcf_root.find("actuator", "kick").remove()
    self._mjcf_root.find("joint", "kick").remove()

  @composer.cached_property
  def observable_joints(self):
    return []
