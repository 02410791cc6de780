"""The rat walker (dm_control.locomotion.walkers.rodent): a position-controlled rat whose 38
actuators take controls in [-1, 1], from assets/locomotion/walkers/rodent.xml."""

import re

import numpy as np

import composer
import engine
import mjcf
from assets import LOCOMOTION
from composer.observation import observable
from suite.locomotion.walkers import base
from suite.locomotion.walkers import legacy_base

_XML_PATH = LOCOMOTION / "walkers" / "rodent.xml"

# the joints in the order of the motion-capture data the rat is fit to
_MOCAP_JOINTS = (
  # lumbar spine
  "vertebra_1_extend",
  "vertebra_2_bend",
  "vertebra_3_twist",
  "vertebra_4_extend",
  "vertebra_5_bend",
  "vertebra_6_twist",
  # hind legs
  "hip_L_supinate",
  "hip_L_abduct",
  "hip_L_extend",
  "knee_L",
  "ankle_L",
  "toe_L",
  "hip_R_supinate",
  "hip_R_abduct",
  "hip_R_extend",
  "knee_R",
  "ankle_R",
  "toe_R",
  # tail
  "vertebra_C1_extend",
  "vertebra_C1_bend",
  "vertebra_C2_extend",
  "vertebra_C2_bend",
  "vertebra_C3_extend",
  "vertebra_C3_bend",
  "vertebra_C4_extend",
  "vertebra_C4_bend",
  "vertebra_C5_extend",
  "vertebra_C5_bend",
  "vertebra_C6_extend",
  "vertebra_C6_bend",
  "vertebra_C7_extend",
  "vertebra_C9_bend",
  "vertebra_C11_extend",
  "vertebra_C13_bend",
  "vertebra_C15_extend",
  "vertebra_C17_bend",
  "vertebra_C19_extend",
  "vertebra_C21_bend",
  "vertebra_C23_extend",
  "vertebra_C25_bend",
  "vertebra_C27_extend",
  "vertebra_C29_bend",
  # neck, head and jaw
  "vertebra_cervical_5_extend",
  "vertebra_cervical_4_bend",
  "vertebra_cervical_3_twist",
  "vertebra_cervical_2_extend",
  "vertebra_cervical_1_bend",
  "vertebra_axis_twist",
  "vertebra_atlant_extend",
  "atlas",
  "mandible",
  # forelegs
  "scapula_L_supinate",
  "scapula_L_abduct",
  "scapula_L_extend",
  "shoulder_L",
  "shoulder_sup_L",
  "elbow_L",
  "wrist_L",
  "finger_L",
  "scapula_R_supinate",
  "scapula_R_abduct",
  "scapula_R_extend",
  "shoulder_R",
  "shoulder_sup_R",
  "elbow_R",
  "wrist_R",
  "finger_R",
)

# bodies left out of motion-capture tracking: vertebrae, hands and toes
_UNTRACKED_BODIES = re.compile(r"(vertebra|hand|toe)")

# the torque observable squashes a reading v to tanh(2 v / _TORQUE_THRESHOLD)
_TORQUE_THRESHOLD = 60

# geom groups the egocentric camera does not draw: the rat's own eyes and teeth (1) and its
# collision shapes (2)
_HIDDEN_FROM_EGOCENTRIC_CAMERA = (1, 2)


class Rat(legacy_base.Walker):
  """A rat of 0.338 kg whose actuators are position servos over the joints' ranges, with
  controls in [-1, 1].

  `Rat(params=None, name='walker', torque_actuators=False, foot_mods=False, initializer=None)`:
  `params` is a dict whose '_STAND_HEIGHT' is `standing_height`; `name` names the model (the
  prefix of its elements once attached); `torque_actuators` makes every actuator a torque
  motor with gain equal to its force limit (no bias); `foot_mods` widens the ankles' range to
  [-0.1, 2] and sets the toes' to [-0.7, 0.87] rad (the servos keep the gains of the original
  ranges); `initializer` sets the pose at each episode start (default: the upright pose).
  """

  def _build(
    self, params=None, name="walker", torque_actuators=False, foot_mods=False, initializer=None
  ):
    self.params = params
    self._mjcf_root = mjcf.from_path(str(_XML_PATH))
    if name:
      self._mjcf_root.model = name
    self.body_sites = []
    super()._build(initializer=initializer)
    if torque_actuators:
      for actuator in self._mjcf_root.find_all("actuator"):
        actuator.gainprm = [actuator.forcerange[1]]
        del actuator.biastype
        del actuator.biasprm
    if foot_mods:
      self._mjcf_root.find("default", "ankle").joint.range = [-0.1, 2.0]
      self._mjcf_root.find("default", "toe").joint.range = [-0.7, 0.87]

  def _build_observables(self):
    return RodentObservables(self)

  @property
  def upright_pose(self):
    """The model's own configuration, with the torso at the attachment frame's pose."""
    return base.WalkerPose(xpos=(0.0, 0.0, 0.0), xquat=(1.0, 0.0, 0.0, 0.0))

  @composer.cached_property
  def actuators(self):
    """The 8 tendon actuators (spine, neck, tail), then the 30 joint actuators."""
    return tuple(self._mjcf_root.find_all("actuator"))

  @composer.cached_property
  def root_body(self):
    return self._mjcf_root.find("body", "torso")

  @composer.cached_property
  def pelvis_body(self):
    return self._mjcf_root.find("body", "pelvis")

  @composer.cached_property
  def head(self):
    return self._mjcf_root.find("body", "skull")

  @composer.cached_property
  def left_arm_root(self):
    return self._mjcf_root.find("body", "scapula_L")

  @composer.cached_property
  def right_arm_root(self):
    return self._mjcf_root.find("body", "scapula_R")

  @composer.cached_property
  def ground_contact_geoms(self):
    """The geoms of the feet, hands (toes and fingers included) and tail."""
    return tuple(
      geom
      for body in ("foot_L", "foot_R", "hand_L", "hand_R", "vertebra_C1")
      for geom in self._mjcf_root.find("body", body).find_all("geom")
    )

  @composer.cached_property
  def standing_height(self):
    """`params['_STAND_HEIGHT']`.

    Raises:
      TypeError: the rat was built without `params`.
      KeyError: `params` has no '_STAND_HEIGHT'.
    """
    if self.params is None:
      raise TypeError(
        "Rat.standing_height: the rat was built with params=None; pass "
        "params={'_STAND_HEIGHT': height}"
      )
    if "_STAND_HEIGHT" not in self.params:
      raise KeyError(
        f"Rat.standing_height: params has no '_STAND_HEIGHT' (its keys: {sorted(self.params)})"
      )
    return self.params["_STAND_HEIGHT"]

  @composer.cached_property
  def end_effectors(self):
    """The forearms and the feet: right arm, left arm, right foot, left foot."""
    return tuple(
      self._mjcf_root.find("body", name)
      for name in ("lower_arm_R", "lower_arm_L", "foot_R", "foot_L")
    )

  @composer.cached_property
  def observable_joints(self):
    """The joints of the joint actuators, in actuator order."""
    return tuple(actuator.joint for actuator in self.actuators if actuator.joint is not None)

  @composer.cached_property
  def observable_tendons(self):
    return self._mjcf_root.find_all("tendon")

  @composer.cached_property
  def mocap_joints(self):
    return tuple(self._mjcf_root.find("joint", name) for name in _MOCAP_JOINTS)

  @composer.cached_property
  def mocap_joint_order(self):
    return tuple(joint.name for joint in self.mocap_joints)

  @composer.cached_property
  def bodies(self):
    return tuple(self._mjcf_root.find_all("body"))

  @composer.cached_property
  def mocap_tracking_bodies(self):
    """The bodies compared with motion capture: all but vertebrae, hands and toes."""
    return tuple(
      body for body in self._mjcf_root.find_all("body") if not _UNTRACKED_BODIES.match(body.name)
    )

  @composer.cached_property
  def primary_joints(self):
    """The joints outside the spine and tail."""
    return tuple(
      joint for joint in self._mjcf_root.find_all("joint") if "vertebra" not in joint.name
    )

  @composer.cached_property
  def vertebra_joints(self):
    """The joints of the spine and tail."""
    return tuple(joint for joint in self._mjcf_root.find_all("joint") if "vertebra" in joint.name)

  @composer.cached_property
  def primary_joint_order(self):
    """The index in `mocap_joint_order` of each primary joint."""
    return [self.mocap_joint_order.index(joint.name) for joint in self.primary_joints]

  @composer.cached_property
  def vertebra_joint_order(self):
    """The index in `mocap_joint_order` of each vertebra joint."""
    return [self.mocap_joint_order.index(joint.name) for joint in self.vertebra_joints]

  @composer.cached_property
  def egocentric_camera(self):
    """The camera in the skull, looking forward."""
    return self._mjcf_root.find("camera", "egocentric")

  @composer.cached_property
  def joint_actuators(self):
    """The 30 actuators on joints (each named after its joint)."""
    return tuple(actuator for actuator in self._mjcf_root.find_all("actuator") if actuator.joint)

  @composer.cached_property
  def joint_actuators_range(self):
    """The range of each joint actuator's joint, as its default class gives it."""
    return [actuator.joint.dclass.joint.range for actuator in self.joint_actuators]

  @composer.cached_property
  def joint_actuator_order(self):
    """The index in `mocap_joint_order` of each joint actuator's joint."""
    return [self.mocap_joint_order.index(actuator.name) for actuator in self.joint_actuators]

  def pose_to_actuation(self, pose):
    """The action that holds `pose` (joint angles in `mocap_joint_order`): 0 for the tendon
    actuators, and for a joint actuator over [lo, hi] the control (2 q - lo - hi) / (hi - lo)
    whose servo target is q.

    Raises:
      ValueError: `pose` does not have one angle per mocap joint.
    """
    pose = np.asarray(pose)
    if pose.shape != (len(_MOCAP_JOINTS),):
      raise ValueError(
        f"Rat.pose_to_actuation: `pose` must hold the {len(_MOCAP_JOINTS)} "
        f"angles of mocap_joint_order, got shape {pose.shape}"
      )
    lower, upper = np.transpose(self.joint_actuators_range)
    tendon_actions = np.zeros(len(self.actuators) - len(self.joint_actuators))
    joint_actions = (2 * pose[self.joint_actuator_order] - (lower + upper)) / (upper - lower)
    return np.hstack([tendon_actions, joint_actions])


class RodentObservables(legacy_base.WalkerObservables):
  """The legacy walker observables and the rat's own: head height, tendons, activations,
  appendages, and a camera view that leaves out the rat's own body."""

  @composer.observable
  def head_height(self):
    return observable.MJCFFeature("xpos", self._entity.head)[2]

  @composer.observable
  def sensors_torque(self):
    """Torque sensors squashed by tanh(2 v / 60) (the rat has none: an empty reading)."""
    return observable.MJCFFeature(
      "sensordata", self._entity.mjcf_model.sensor.torque, corruptor=_squashed_torque
    )

  @composer.observable
  def tendons_pos(self):
    return observable.MJCFFeature("length", self._entity.observable_tendons)

  @composer.observable
  def tendons_vel(self):
    return observable.MJCFFeature("velocity", self._entity.observable_tendons)

  @composer.observable
  def actuator_activation(self):
    """The activation filters' states, one per actuator."""
    return observable.MJCFFeature("act", self._entity.mjcf_model.find_all("actuator"))

  @composer.observable
  def appendages_pos(self):
    """The end effectors' and the head's positions relative to the torso, in its frame."""
    walker = self._entity

    def positions_in_egocentric_frame(physics):
      appendages = physics.bind(walker.end_effectors + (walker.head,)).xpos
      torso = physics.bind(walker.root_body)
      return np.reshape((appendages - torso.xpos) @ np.reshape(torso.xmat, (3, 3)), -1)

    return observable.Generic(positions_in_egocentric_frame)

  @property
  def proprioception(self):
    return [
      self.joints_pos,
      self.joints_vel,
      self.tendons_pos,
      self.tendons_vel,
      self.actuator_activation,
      self.body_height,
      self.end_effectors_pos,
      self.appendages_pos,
      self.world_zaxis,
    ] + self._collect_from_attachments("proprioception")

  @composer.observable
  def egocentric_camera(self):
    """64x64 pixels from the skull, without the rat's own geoms in view."""
    scene_option = engine.MjvOption()
    for group in _HIDDEN_FROM_EGOCENTRIC_CAMERA:
      scene_option.geomgroup[group] = 0
    return observable.MJCFCamera(
      self._entity.egocentric_camera, width=64, height=64, scene_option=scene_option
    )


def _squashed_torque(torque, random_state):
  del random_state  # deterministic
  return np.tanh(2 * torque / _TORQUE_THRESHOLD)
