"""BoxHead: the soccer walker, a box head steering on a rolling ball, with a kick
(dm_control.locomotion.soccer.boxhead).

The shirt number on the head is drawn with pillow when the walker is built (white digits on the
team colour), as dm_control composites its digit images over the marker colour.
"""

import io

import numpy as np
from PIL import Image
from PIL import ImageDraw
from PIL import ImageFont

import assets
import composer
import mjcf
from composer.observation import observable
from suite.locomotion.walkers import jumping_ball
from suite.locomotion.walkers import legacy_base

_XML_PATH = assets.LOCOMOTION / "soccer" / "boxhead.xml"
_MAX_WALKER_ID = 10
_CAMERA_DOFS = ("camera_pitch", "camera_yaw")
_DIGIT_TEXTURE_SIZE = 64


def _alpha_blend(foreground, background):
  """RGBA `foreground` over RGBA `background` (floats in [0, 1], broadcast), "over" operator."""
  fg, bg = np.broadcast_arrays(np.asarray(foreground, float), np.asarray(background, float))
  fg_alpha, bg_alpha = fg[..., 3:], bg[..., 3:]
  alpha = fg_alpha + bg_alpha * (1.0 - fg_alpha)
  rgb = fg[..., :3] * fg_alpha + bg[..., :3] * bg_alpha * (1.0 - fg_alpha)
  safe = np.where(alpha > 0, alpha, 1.0)
  rgb = np.where(alpha > 0, rgb / safe, rgb)
  return np.concatenate([rgb, alpha], axis=-1)


def _digit_image(number, size=_DIGIT_TEXTURE_SIZE):
  """A size x size RGBA float image: `number` in white, centred, on transparency."""
  image = Image.new("RGBA", (size, size), (255, 255, 255, 0))
  draw = ImageDraw.Draw(image)
  font = ImageFont.load_default(size=size // 2)
  text = str(number)
  left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
  draw.text(
    ((size - (right - left)) / 2 - left, (size - (bottom - top)) / 2 - top),
    text,
    font=font,
    fill=(255, 255, 255, 255),
  )
  return np.asarray(image, float) / 255.0


def _number_png(number, background_rgba):
  """PNG bytes of the shirt number `number` over a solid `background_rgba`."""
  rgba = 255.0 * _alpha_blend(_digit_image(number), background_rgba)
  buffer = io.BytesIO()
  Image.fromarray(rgba.astype(np.uint8), mode="RGBA").save(buffer, format="PNG")
  return buffer.getvalue()


class BoxHeadObservables(legacy_base.WalkerObservables):
  """BoxHead's observables: a low resolution egocentric camera, and the camera joints
  (as sin, cos of their angles and their velocities) in the proprioception with camera
  control."""

  def __init__(self, entity, camera_resolution):
    self._camera_resolution = camera_resolution
    super().__init__(entity)

  @composer.observable
  def egocentric_camera(self):
    width, height = self._camera_resolution
    return observable.MJCFCamera(self._entity.egocentric_camera, width=width, height=height)

  @property
  def proprioception(self):
    proprioception = super().proprioception
    if self._entity.observable_camera_joints:
      return proprioception + [self.camera_joints_pos, self.camera_joints_vel]
    return proprioception

  @composer.observable
  def camera_joints_pos(self):
    joints = self._entity.observable_camera_joints

    def sin_cos(physics):
      angles = physics.bind(joints).qpos
      return np.concatenate([np.sin(angles), np.cos(angles)], -1)

    return observable.Generic(sin_cos)

  @composer.observable
  def camera_joints_vel(self):
    return observable.MJCFFeature("qvel", self._entity.observable_camera_joints)


class BoxHead(jumping_ball.HeadOnBall, legacy_base.Walker):
  """A box head on a ball that rolls, steers and kicks (actuators roll, steer, kick).

  `BoxHead(name='walker', marker_rgba=None, camera_control=False, camera_resolution=(28, 28),
  roll_gear=-60, steer_gear=55, walker_id=None, initializer=None)`:
    marker_rgba: team colour of the arms and eyes (and of the head without a number); also the
      first colour of the ball's checker.
    camera_control: keep the camera mount's yaw and pitch joints and their velocity actuators
      (two more actions; the mount's weight is then compensated).
    walker_id: 0..10, the number shown on the head (none if None).
  """

  def _build(
    self,
    name="walker",
    marker_rgba=None,
    camera_control=False,
    camera_resolution=(28, 28),
    roll_gear=-60,
    steer_gear=55,
    walker_id=None,
    initializer=None,
  ):
    super()._build(initializer=initializer)
    self._mjcf_root = mjcf.from_path(str(_XML_PATH))
    if name:
      self._mjcf_root.model = name
    if walker_id is not None and not 0 <= walker_id <= _MAX_WALKER_ID:
      raise ValueError(f"walker_id must be in [0-{_MAX_WALKER_ID}], got: {walker_id}.")
    self._walker_id = walker_id
    if walker_id is not None:
      background = marker_rgba if marker_rgba is not None else (0.1, 0.1, 0.1, 1.0)
      texture = self._mjcf_root.asset.add(
        "texture",
        name="head_texture",
        type="2d",
        file=mjcf.Asset(_number_png(walker_id, background), ".png"),
      )
      material = self._mjcf_root.asset.add("material", name="head_material", texture=texture)
      for geom_name in ("head", "top_down_cam_box"):
        geom = self._mjcf_root.find("geom", geom_name)
        geom.material = material
        geom.rgba = None
    self._body_texture = self._mjcf_root.asset.add(
      "texture",
      name="ball_body",
      type="cube",
      builtin="checker",
      rgb1=marker_rgba[:-1] if marker_rgba else ".4 .4 .4",
      rgb2=".8 .8 .8",
      width="100",
      height="100",
    )
    self._body_material = self._mjcf_root.asset.add(
      "material", name="ball_body", texture=self._body_texture
    )
    self._mjcf_root.find("geom", "shell").material = self._body_material
    if marker_rgba is not None:
      for geom in self.marker_geoms:
        geom.set_attributes(rgba=marker_rgba)

    self._root_joints = None
    self._camera_control = camera_control
    self._camera_resolution = camera_resolution
    if not camera_control:
      for dof in _CAMERA_DOFS:
        self._mjcf_root.find("actuator", dof).remove()
        self._mjcf_root.find("joint", dof).remove()
    self._roll_gear = roll_gear
    self._steer_gear = steer_gear
    self._mjcf_root.find("actuator", "roll").gear[0] = roll_gear
    self._mjcf_root.find("actuator", "steer").gear[0] = steer_gear
    spec = self.action_spec
    self._prev_action = np.zeros(shape=spec.shape, dtype=spec.dtype)

  def _build_observables(self):
    return BoxHeadObservables(self, camera_resolution=self._camera_resolution)

  @property
  def marker_geoms(self):
    """Arms and eyes (and the head, when it shows no number)."""
    names = ["arm_l", "arm_r", "eye_l", "eye_r"] + (["head"] if self._walker_id is None else [])
    return [self._mjcf_root.find("geom", name) for name in names]

  def set_velocity(self, physics, velocity=None, angular_velocity=None):
    """Sets the slide joints' velocity and the steer joint's (the z of `angular_velocity`,
    or the number itself)."""
    if velocity is not None and self._root_joints is not None:
      physics.bind(self._root_joints).qvel = velocity
    if angular_velocity is not None:
      spin = angular_velocity if isinstance(angular_velocity, float) else angular_velocity[2]
      physics.bind(self._mjcf_root.find("joint", "steer")).qvel = spin

  def initialize_episode(self, physics, random_state):
    """Zeroes the previous action; with camera control, holds the camera mount up."""
    self._hold_camera_mount(physics)
    self._prev_action = np.zeros_like(self._prev_action)

  def apply_action(self, physics, action, random_state):
    super().apply_action(physics, action, random_state)
    self._prev_action[:] = action

  @property
  def mjcf_model(self):
    return self._mjcf_root

  @composer.cached_property
  def end_effectors(self):
    return (self._mjcf_root.find("body", "head_body"),)

  @composer.cached_property
  def observable_joints(self):
    return (self._mjcf_root.find("joint", "kick"),)

  @composer.cached_property
  def observable_camera_joints(self):
    if self._camera_control:
      return (
        self._mjcf_root.find("joint", "camera_yaw"),
        self._mjcf_root.find("joint", "camera_pitch"),
      )
    return ()

  @property
  def prev_action(self):
    return self._prev_action
