"""Arms, hands and scenes built on either dm_control's stack or ours (the same code).

`namespace(ours)` gives the modules of one stack. `ARM_XML` is a small test arm of our own:
a slide rail, a hinge chain and a ball wrist ending in a site, beside a free puck with a site.
`jaco_scene(ours, ...)` wraps the Kinova Jaco arm and hand XMLs shipped in the installed
dm_control wheel (read in place, test-only) in minimal `RobotArm`/`RobotHand` subclasses of
that stack and attaches them to an arena with a table.
"""

import os
import types

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

ARM_XML = """
<mujoco model="ik_arm">
  <compiler angle="radian"/>
  <worldbody>
    <body name="cart" pos="0 0 0.1">
      <joint name="rail" type="slide" axis="1 0 0" range="-0.5 0.5" limited="true"/>
      <geom type="box" size="0.1 0.1 0.02"/>
      <body name="base">
        <joint name="shoulder_yaw" axis="0 0 1"/>
        <geom type="capsule" fromto="0 0 0 0 0 0.2" size="0.04"/>
        <body name="upper" pos="0 0 0.2">
          <joint name="shoulder_pitch" axis="0 1 0" range="-2 2" limited="true"/>
          <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.035"/>
          <body name="fore" pos="0.3 0 0">
            <joint name="elbow" axis="0 1 0" range="-2.5 2.5" limited="true"/>
            <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.03"/>
            <body name="hand" pos="0.25 0 0">
              <joint name="wrist" type="ball"/>
              <geom type="box" size="0.02 0.03 0.01"/>
              <site name="tcp" pos="0.05 0 0"/>
            </body>
          </body>
        </body>
      </body>
    </body>
    <body name="puck" pos="0.5 0.5 0.3">
      <freejoint name="puck_free"/>
      <geom type="cylinder" size="0.05 0.02"/>
      <site name="puck_site" pos="0.02 0 0.01"/>
    </body>
  </worldbody>
</mujoco>
"""

# the arm's hinges only (the reach of the tcp from the shoulder is 0.6)
ARM_HINGES = ["shoulder_yaw", "shoulder_pitch", "elbow"]


def kinova_dir():
  """The Kinova XMLs and meshes inside the installed dm_control wheel."""
  import dm_control

  return os.path.join(os.path.dirname(dm_control.__file__), "third_party", "kinova")


def namespace(ours):
  """The modules of one stack: composer, mjcf, the manipulator base, initializers,
  distributions, inverse_kinematics and the Physics of raw XML."""
  if ours:
    import composer
    import engine
    import mjcf
    from composer import initializers
    from composer.manipulators import base
    from composer.utils import inverse_kinematics
    from composer.variation import distributions

    physics_class = engine.Physics
  else:
    from dm_control import composer
    from dm_control import mjcf
    from dm_control import mujoco
    from dm_control.composer import initializers
    from dm_control.composer.variation import distributions
    from dm_control.entities.manipulators import base
    from dm_control.utils import inverse_kinematics

    physics_class = mujoco.Physics
  return types.SimpleNamespace(
    composer=composer,
    mjcf=mjcf,
    base=base,
    initializers=initializers,
    distributions=distributions,
    inverse_kinematics=inverse_kinematics,
    Physics=physics_class,
  )


def entity_classes(ns):
  """(JacoArm, JacoHand, SmallArm) on the stack of `ns`: minimal subclasses of its base classes
  with no actuators. SmallArm is ARM_XML's arm (its slide rail has limits, its ball wrist
  none)."""
  base, mjcf = ns.base, ns.mjcf

  class _Arm(base.RobotArm):
    """An arm of `_root` with `_joints`, its wrist at the site `_WRIST`, no actuators."""

    @property
    def mjcf_model(self):
      return self._root

    @property
    def joints(self):
      return self._joints

    @property
    def wrist_site(self):
      return self._root.find("site", self._WRIST)

    @property
    def actuators(self):
      return []

  class JacoArm(_Arm):
    _WRIST = "wristsite"

    def _build(self):
      self._root = mjcf.from_path(os.path.join(kinova_dir(), "jaco_arm.xml"))
      self._joints = [self._root.find("joint", f"joint_{i}") for i in range(1, 7)]

  class JacoHand(base.RobotHand):
    def _build(self):
      self._root = mjcf.from_path(os.path.join(kinova_dir(), "jaco_hand.xml"))

    @property
    def mjcf_model(self):
      return self._root

    @property
    def tool_center_point(self):
      return self._root.find("site", "pinchsite")

    def set_grasp(self, physics, close_factors):
      del physics, close_factors

    @property
    def actuators(self):
      return []

  class SmallArm(_Arm):
    _WRIST = "tcp"

    def _build(self, joint_names=("rail", "shoulder_yaw", "shoulder_pitch", "elbow")):
      self._root = mjcf.from_xml_string(ARM_XML)
      self._root.find("body", "puck").remove()
      self._joints = [self._root.find("joint", name) for name in joint_names]

  return JacoArm, JacoHand, SmallArm


def jaco_scene(ours, hand=True, obstacle=None, free_box=None):
  """(ns, arena, arm, hand or None, physics): the Jaco arm at the origin above a table (a plane
  at z=0), the hand on its wrist. `obstacle`: (pos, half sizes) of a fixed box in the world;
  `free_box`: the same for a box on a free joint."""
  ns = namespace(ours)
  jaco_arm, jaco_hand, _ = entity_classes(ns)
  arena = ns.composer.Arena()
  arena.mjcf_model.worldbody.add("geom", name="table", type="plane", size=[1, 1, 0.1])
  if obstacle is not None:
    arena.mjcf_model.worldbody.add(
      "geom", name="obstacle", type="box", pos=obstacle[0], size=obstacle[1]
    )
  if free_box is not None:
    body = arena.mjcf_model.worldbody.add("body", name="free_box", pos=free_box[0])
    body.add("freejoint")
    body.add("geom", type="box", size=free_box[1])
  arm = jaco_arm()
  arena.attach(arm)
  the_hand = None
  if hand:
    the_hand = jaco_hand()
    arm.attach(the_hand)
  physics = ns.mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  return ns, arena, arm, the_hand, physics
