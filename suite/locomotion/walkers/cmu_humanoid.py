"""The CMU humanoid walkers (dm_control.locomotion.walkers.cmu_humanoid): the skeleton of the
CMU motion-capture data, 56 hinges, driven by torque motors (CMUHumanoid) or by position servos
with controls in [-1, 1] (CMUHumanoidPositionControlled, 2019 or 2020 model;
CMUHumanoidPositionControlledV2020: the 2020 model 1.2 times larger, 70 kg, with a face).

The models' root frame is y-up, as the mocap data's. Actuators are in alphabetical order of
their joints; `actuator_order` and `actuator_to_joint_order` map to and from the mocap data's
channel order (`mocap_joints`).
"""

import abc
import collections

import numpy as np

import composer
import engine
import mjcf
from assets import LOCOMOTION
from composer.observation import observable
from suite.locomotion.walkers import base
from suite.locomotion.walkers import legacy_base
from suite.locomotion.walkers import rescale
from suite.locomotion.walkers import scaled_actuators

MODEL_VERSIONS = ("2019", "2020")
_WALKER_GEOM_GROUP = 2  # the body's capsules: hidden from the body camera
_WALKER_INVIS_GROUP = 1  # the nose: hidden from the egocentric camera

# The hinges in the mocap data's channel order, with the position servo each gets: the 2019
# model's gain kp (N m/rad) and force limit (N m); the 2020 model's gain, which is also its
# force limit, and the joint damping (N m s/rad) it sets on the joint.
_JOINT_TABLE = (
  #  joint          2019 kp  limit   2020 kp  damping
  ("lfemurrz", 80, 80, 200, 10),
  ("lfemurry", 80, 80, 200, 10),
  ("lfemurrx", 120, 120, 300, 15),
  ("ltibiarx", 80, 80, 160, 8),
  ("lfootrz", 50, 50, 50, 3),
  ("lfootrx", 50, 50, 120, 6),
  ("ltoesrx", 20, 20, 20, 1),
  ("rfemurrz", 80, 80, 200, 10),
  ("rfemurry", 80, 80, 200, 10),
  ("rfemurrx", 120, 120, 300, 15),
  ("rtibiarx", 80, 80, 160, 8),
  ("rfootrz", 50, 50, 50, 3),
  ("rfootrx", 50, 50, 120, 6),
  ("rtoesrx", 20, 20, 20, 1),
  ("lowerbackrz", 150, 120, 200, 20),
  ("lowerbackry", 150, 120, 180, 20),
  ("lowerbackrx", 150, 120, 300, 15),
  ("upperbackrz", 80, 80, 200, 12),
  ("upperbackry", 80, 80, 80, 8),
  ("upperbackrx", 80, 80, 300, 15),
  ("thoraxrz", 100, 80, 200, 12),
  ("thoraxry", 100, 80, 80, 8),
  ("thoraxrx", 100, 80, 300, 15),
  ("lowerneckrz", 20, 20, 120, 20),
  ("lowerneckry", 20, 20, 120, 20),
  ("lowerneckrx", 20, 20, 120, 20),
  ("upperneckrz", 20, 20, 60, 10),
  ("upperneckry", 20, 20, 60, 10),
  ("upperneckrx", 20, 20, 60, 10),
  ("headrz", 20, 20, 40, 2),
  ("headry", 20, 20, 40, 2),
  ("headrx", 20, 20, 40, 2),
  ("lclaviclerz", 20, 20, 80, 20),
  ("lclaviclery", 20, 20, 80, 20),
  ("lhumerusrz", 60, 60, 120, 6),
  ("lhumerusry", 60, 60, 120, 6),
  ("lhumerusrx", 60, 60, 120, 6),
  ("lradiusrx", 60, 60, 90, 5),
  ("lwristry", 20, 20, 20, 1),
  ("lhandrz", 20, 20, 20, 1),
  ("lhandrx", 20, 20, 20, 1),
  ("lfingersrx", 20, 20, 20, 1),
  ("lthumbrz", 20, 20, 20, 1),
  ("lthumbrx", 20, 20, 20, 1),
  ("rclaviclerz", 20, 20, 80, 20),
  ("rclaviclery", 20, 20, 80, 20),
  ("rhumerusrz", 60, 60, 120, 6),
  ("rhumerusry", 60, 60, 120, 6),
  ("rhumerusrx", 60, 60, 120, 6),
  ("rradiusrx", 60, 60, 90, 5),
  ("rwristry", 20, 20, 20, 1),
  ("rhandrz", 20, 20, 20, 1),
  ("rhandrx", 20, 20, 20, 1),
  ("rfingersrx", 20, 20, 20, 1),
  ("rthumbrz", 20, 20, 20, 1),
  ("rthumbrx", 20, 20, 20, 1),
)
_CMU_MOCAP_JOINTS = tuple(row[0] for row in _JOINT_TABLE)

# a position servo: gain, symmetric force limit, and the joint damping it sets (None: keep)
_Servo = collections.namedtuple("_Servo", ("kp", "force_limit", "damping"))
_SERVOS = {
  "2019": {name: _Servo(kp, limit, None) for name, kp, limit, _, _ in _JOINT_TABLE},
  "2020": {name: _Servo(kp, kp, damping) for name, _, _, kp, damping in _JOINT_TABLE},
}
_SERVO_FILTER_TIME = 0.03  # the 2020 servos' control low-pass time constant (s)

# `scale_default` (always on for the V2020 walker): lengths and sizes times 1.2, mass 70 kg
_DEFAULT_SCALE = 1.2
_DEFAULT_MASS = 70

# upright: the root body's position and (y-up to z-up) orientation
_UPRIGHT_POS = (0.0, 0.0, 0.94)
_UPRIGHT_POS_V2020 = (0.0, 0.0, 1.143)
_UPRIGHT_QUAT = (0.859, 1.0, 1.0, 0.859)

_STAND_HEIGHT = 1.5  # head height (m) above which the humanoid counts as standing
_TORQUE_THRESHOLD = 60  # shoulder torques (N m) are observed as tanh(2 torque / threshold)


def _asset_path(model_version):
  if model_version not in MODEL_VERSIONS:
    raise ValueError(
      f"CMU humanoid: model_version must be one of {MODEL_VERSIONS}: got {model_version!r}"
    )
  return LOCOMOTION / "walkers" / f"humanoid_CMU_V{model_version}.xml"


class _CMUHumanoidBase(legacy_base.Walker):
  """What the CMU humanoid walkers share: the model of `_xml_path`, the mocap joint order and
  the walker properties.

  `_build(name='walker', marker_rgba=None, include_face=False, initializer=None)`: `name` is
  the model's name (kept from the file if empty); `marker_rgba` colours the forearms (the
  marker geoms); `include_face` adds a massless, non-colliding face and nose to the head.
  """

  def _build(self, name="walker", marker_rgba=None, include_face=False, initializer=None):
    self._mjcf_root = mjcf.from_path(str(self._xml_path))
    if name:
      self._mjcf_root.model = name
    if marker_rgba is not None:
      for geom in self.marker_geoms:
        geom.set_attributes(rgba=marker_rgba)
    self._actuator_order = np.argsort(_CMU_MOCAP_JOINTS)
    self._inverse_order = np.argsort(self._actuator_order)
    super()._build(initializer=initializer)
    if include_face:
      self._add_face()

  def _add_face(self):
    """A face capsule on the head and a nose (in the group the egocentric camera hides) on a
    'face' body in front of it, sized from the head."""
    head = self._mjcf_root.find("body", "head")
    visual_only = dict(type="capsule", mass=0.0, contype=0, conaffinity=0)
    head.add(
      "geom",
      name="face",
      size=(0.065, 0.014),
      pos=(0.000341465, 0.048184, 0.01),
      quat=(0.717887, 0.696142, -0.00493334, 0),
      **visual_only,
    )
    head_radius = self._mjcf_root.find("geom", "head").size[0]
    face = head.add("body", name="face", pos=(0.0, 0.039, head.pos[1] - 0.02))
    face.add(
      "geom",
      name="nose",
      size=(head_radius / 4.75, 0.01),
      pos=(0.0, 0.0, 0.0),
      quat=(1, 0.7, 0, 0),
      group=_WALKER_INVIS_GROUP,
      **visual_only,
    )

  def _build_observables(self):
    return CMUHumanoidObservables(self)

  @property
  @abc.abstractmethod
  def _xml_path(self):
    """The model file this walker loads."""

  @composer.cached_property
  def mocap_joints(self):
    """The hinges in the mocap data's channel order."""
    return tuple(self._mjcf_root.find("joint", name) for name in _CMU_MOCAP_JOINTS)

  @property
  def actuator_order(self):
    """For each actuator (alphabetical), the index of its joint in the mocap channel order."""
    return self._actuator_order

  @property
  def actuator_to_joint_order(self):
    """For each mocap joint (channel order), the index of its actuator."""
    return self._inverse_order

  @property
  def upright_pose(self):
    return base.WalkerPose(xpos=_UPRIGHT_POS, xquat=_UPRIGHT_QUAT)

  @composer.cached_property
  def actuators(self):
    return tuple(self._mjcf_root.find_all("actuator"))

  @composer.cached_property
  def root_body(self):
    return self._mjcf_root.find("body", "root")

  @composer.cached_property
  def head(self):
    return self._mjcf_root.find("body", "head")

  @composer.cached_property
  def left_arm_root(self):
    return self._mjcf_root.find("body", "lclavicle")

  @composer.cached_property
  def right_arm_root(self):
    return self._mjcf_root.find("body", "rclavicle")

  @composer.cached_property
  def ground_contact_geoms(self):
    """The geoms of the feet and toes."""
    return tuple(
      self._mjcf_root.find("body", "lfoot").find_all("geom")
      + self._mjcf_root.find("body", "rfoot").find_all("geom")
    )

  @composer.cached_property
  def standing_height(self):
    return _STAND_HEIGHT

  @composer.cached_property
  def end_effectors(self):
    """The forearms and the feet."""
    return tuple(
      self._mjcf_root.find("body", name) for name in ("rradius", "lradius", "rfoot", "lfoot")
    )

  @composer.cached_property
  def observable_joints(self):
    return tuple(actuator.joint for actuator in self.actuators if actuator.joint is not None)

  @composer.cached_property
  def bodies(self):
    return tuple(self._mjcf_root.find_all("body"))

  @composer.cached_property
  def mocap_tracking_bodies(self):
    """The bodies a mocap-tracking task follows: all but the root."""
    root = self.root_body
    return tuple(body for body in self._mjcf_root.find_all("body") if body != root)

  @composer.cached_property
  def egocentric_camera(self):
    return self._mjcf_root.find("camera", "egocentric")

  @composer.cached_property
  def body_camera(self):
    return self._mjcf_root.find("camera", "bodycam")

  @property
  def marker_geoms(self):
    """The forearm capsules, which `marker_rgba` colours."""
    return (self._mjcf_root.find("geom", "rradius"), self._mjcf_root.find("geom", "lradius"))


class CMUHumanoid(_CMUHumanoidBase):
  """The 2019 CMU humanoid with a torque motor per hinge (gears 20-120 N m, controls in
  [-1, 1])."""

  @property
  def _xml_path(self):
    return _asset_path("2019")


class CMUHumanoidPositionControlled(CMUHumanoid):
  """The CMU humanoid with a position servo per hinge instead: control -1 drives the joint to
  the low end of its range, +1 to the high end.

  `_build(model_version='2019', scale_default=False, **kwargs)`: `model_version` is '2019' or
  '2020' (whose servos also low-pass their controls and set the joints' damping);
  `scale_default` scales the model by 1.2 to 70 kg first; other arguments as CMUHumanoid.

  Raises:
    ValueError: an unknown `model_version`.
  """

  def _build(self, model_version="2019", scale_default=False, **kwargs):
    self._xml_file = _asset_path(model_version)
    super()._build(**kwargs)
    if scale_default:
      rescale.rescale_humanoid(self, _DEFAULT_SCALE, _DEFAULT_SCALE, _DEFAULT_MASS)
    self._replace_motors_by_servos(_SERVOS[model_version], filtered=model_version == "2020")
    low, high = np.array([actuator.joint.range for actuator in self.actuators]).T
    self._scale = high - low
    self._offset = high + low

  def _replace_motors_by_servos(self, servos, filtered):
    """Each motor becomes a force-limited position servo of its joint's range, in the same
    (alphabetical) order; the ranges are read as written (the 2019 file's are radians,
    although that model compiles them as degrees)."""
    joints = [motor.joint for motor in self._mjcf_root.actuator.motor]
    self._mjcf_root.default.general.forcelimited = "true"
    self._mjcf_root.actuator.motor.clear()
    for joint in joints:
      servo = servos[joint.name]
      if servo.damping is not None:
        joint.damping = servo.damping
      actuator = scaled_actuators.add_position_actuator(
        name=joint.name,
        target=joint,
        kp=servo.kp,
        qposrange=joint.range,
        ctrlrange=(-1, 1),
        forcerange=(-servo.force_limit, servo.force_limit),
      )
      if filtered:
        actuator.dyntype = "filter"
        actuator.dynprm = [_SERVO_FILTER_TIME]

  @property
  def _xml_path(self):
    return self._xml_file

  def cmu_pose_to_actuation(self, target_pose):
    """The controls that drive the joints to `target_pose`, a position per joint in the mocap
    channel order (`mocap_joints`); the result is in actuator order, for
    `physics.bind(walker.actuators).ctrl`.

    Raises:
      ValueError: `target_pose` does not have one position per joint.
    """
    target_pose = np.asarray(target_pose)
    if target_pose.shape != (len(_CMU_MOCAP_JOINTS),):
      raise ValueError(
        f"cmu_pose_to_actuation: expected {len(_CMU_MOCAP_JOINTS)} joint "
        f"positions, got shape {target_pose.shape}"
      )
    return (2 * target_pose[self.actuator_order] - self._offset) / self._scale


class CMUHumanoidPositionControlledV2020(CMUHumanoidPositionControlled):
  """The 2020 position-controlled CMU humanoid, scaled by 1.2 to 70 kg, with a face (its nose
  shows the head's heading); arguments as CMUHumanoid."""

  def _build(self, **kwargs):
    super()._build(model_version="2020", scale_default=True, include_face=True, **kwargs)

  @property
  def upright_pose(self):
    return base.WalkerPose(xpos=_UPRIGHT_POS_V2020, xquat=_UPRIGHT_QUAT)


def _scene_option_hiding(geom_group):
  """Rendering options that hide geom group `geom_group`, otherwise dm_control's defaults
  (MuJoCo's, with the rangefinder rays hidden)."""
  option = engine.MjvOption()
  option.flags[engine.mjtVisFlag.mjVIS_RANGEFINDER] = 0
  option.geomgroup[geom_group] = 0
  return option


class CMUHumanoidObservables(legacy_base.WalkerObservables):
  """The legacy walker observables plus cameras that do not see the walker itself, head
  height, squashed shoulder torques, actuator activations and appendage positions."""

  @composer.observable
  def body_camera(self):
    """64x64 images of the camera on the root body, without the walker's capsules."""
    return observable.MJCFCamera(
      self._entity.body_camera,
      width=64,
      height=64,
      scene_option=_scene_option_hiding(_WALKER_GEOM_GROUP),
    )

  @composer.observable
  def egocentric_camera(self):
    """64x64 images of the head camera, without the nose."""
    return observable.MJCFCamera(
      self._entity.egocentric_camera,
      width=64,
      height=64,
      scene_option=_scene_option_hiding(_WALKER_INVIS_GROUP),
    )

  @composer.observable
  def head_height(self):
    return observable.MJCFFeature("xpos", self._entity.head)[2]

  @composer.observable
  def sensors_torque(self):
    """The shoulder torques, squashed: tanh(2 torque / 60 N m)."""
    return observable.MJCFFeature(
      "sensordata", self._entity.mjcf_model.sensor.torque, corruptor=_squashed_torques
    )

  @composer.observable
  def actuator_activation(self):
    return observable.MJCFFeature("act", self._entity.mjcf_model.find_all("actuator"))

  @composer.observable
  def appendages_pos(self):
    """The end effectors' and the head's positions relative to the root body, in its frame."""
    walker = self._entity

    def positions_in_egocentric_frame(physics):
      appendages = physics.bind(walker.end_effectors + (walker.head,)).xpos
      root = physics.bind(walker.root_body)
      return np.reshape((appendages - root.xpos) @ np.reshape(root.xmat, (3, 3)), -1)

    return observable.Generic(positions_in_egocentric_frame)

  @property
  def proprioception(self):
    return [
      self.joints_pos,
      self.joints_vel,
      self.actuator_activation,
      self.body_height,
      self.end_effectors_pos,
      self.appendages_pos,
      self.world_zaxis,
    ] + self._collect_from_attachments("proprioception")


def _squashed_torques(torques, random_state):
  del random_state  # deterministic
  return np.tanh(2 * torques / _TORQUE_THRESHOLD)
