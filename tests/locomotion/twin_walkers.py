"""One small walker written once and built on either stack: ours (`suite.locomotion.walkers` on
our `mjcf` and `composer`) or dm_control's, so tests can compare them number for number.

The critter: a spherical torso (the root body) with an egocentric camera, two rangefinders
(one looking down at the floor, one up at nothing), frame sensors, and two legs of a hip and a
knee each; the feet are the end effectors, with touch, force and torque sensors. Its actuators
mix a motor without a control range, a motor with one and a scaled position actuator.
"""

import os
import types

import numpy as np

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

UPRIGHT_QPOS = (0.1, -0.2, -0.15, 0.25)
UPRIGHT_XPOS = (0.05, -0.1, 0.32)
UPRIGHT_XQUAT = (0.9, 0.1, 0.0, 0.3)


def namespace(ours):
  """The modules a walker is written against, from our stack or dm_control's."""
  if ours:
    import composer
    import mjcf
    from composer.observation import observable
    from suite.locomotion.walkers import base
    from suite.locomotion.walkers import initializers
    from suite.locomotion.walkers import legacy_base
    from suite.locomotion.walkers import rescale
    from suite.locomotion.walkers import scaled_actuators
  else:
    from dm_control import composer
    from dm_control import mjcf
    from dm_control.composer.observation import observable
    from dm_control.locomotion.walkers import base
    from dm_control.locomotion.walkers import initializers
    from dm_control.locomotion.walkers import legacy_base
    from dm_control.locomotion.walkers import rescale
    from dm_control.locomotion.walkers import scaled_actuators
  return types.SimpleNamespace(
    composer=composer,
    mjcf=mjcf,
    observable=observable,
    base=base,
    legacy_base=legacy_base,
    initializers=initializers,
    rescale=rescale,
    scaled_actuators=scaled_actuators,
  )


def _critter_model(ns, name):
  model = ns.mjcf.RootElement(model=name)
  model.default.joint.set_attributes(damping=0.2, armature=0.01)
  torso = model.worldbody.add("body", name="torso")
  torso.add("geom", name="torso", type="sphere", size=[0.1])
  torso.add("site", name="torso_site", size=[0.02])
  torso.add("camera", name="egocentric", pos=[0.1, 0, 0.02], xyaxes=[0, -1, 0, 0, 0, 1])
  torso.add("site", name="rf_down", pos=[0.05, 0, -0.05], zaxis=[0.3, 0, -1], size=[0.01])
  torso.add("site", name="rf_up", pos=[0, 0, 0.1], zaxis=[0, 0, 1], size=[0.01])
  sensors = model.sensor
  sensors.add("gyro", name="gyro", site="torso_site")
  sensors.add("accelerometer", name="accelerometer", site="torso_site")
  sensors.add("velocimeter", name="velocimeter", site="torso_site")
  sensors.add("framequat", name="framequat", objtype="site", objname="torso_site")
  sensors.add("rangefinder", name="rf_down", site="rf_down")
  sensors.add("rangefinder", name="rf_up", site="rf_up")
  joints, feet = [], []
  for side, y in (("left", 0.08), ("right", -0.08)):
    thigh = torso.add("body", name=f"{side}_thigh", pos=[0, y, -0.05])
    joints.append(
      thigh.add(
        "joint", name=f"{side}_hip", type="hinge", axis=[0, 1, 0], range=[-1, 1], limited=True
      )
    )
    thigh.add(
      "geom", name=f"{side}_thigh", type="capsule", size=[0.03], fromto=[0, 0, 0, 0.05, 0, -0.12]
    )
    foot = thigh.add("body", name=f"{side}_foot", pos=[0.05, 0, -0.12])
    joints.append(
      foot.add(
        "joint", name=f"{side}_knee", type="hinge", axis=[0, 1, 0], range=[-1.5, 0.2], limited=True
      )
    )
    foot.add(
      "geom", name=f"{side}_shin", type="capsule", size=[0.025], fromto=[0, 0, 0, -0.02, 0, -0.1]
    )
    foot.add("geom", name=f"{side}_sole", type="sphere", size=[0.035], pos=[-0.02, 0, -0.1])
    foot.add("site", name=f"{side}_sole", type="sphere", size=[0.045], pos=[-0.02, 0, -0.1])
    foot.add("site", name=f"{side}_ankle", size=[0.01], pos=[0, 0, -0.05])
    sensors.add("touch", name=f"{side}_touch", site=f"{side}_sole")
    sensors.add("force", name=f"{side}_force", site=f"{side}_ankle")
    sensors.add("torque", name=f"{side}_torque", site=f"{side}_ankle")
    feet.append(foot)
  actuators = [
    model.actuator.add("motor", name="left_hip", joint=joints[0], gear=[2]),
    model.actuator.add(
      "motor",
      name="left_knee",
      joint=joints[1],
      gear=[1.5],
      ctrlrange=[-0.5, 0.5],
      ctrllimited=True,
    ),
    model.actuator.add(
      "motor", name="right_hip", joint=joints[2], gear=[2], ctrlrange=[-2, 3], ctrllimited=True
    ),
    ns.scaled_actuators.add_position_actuator(
      joints[3], qposrange=[-1.5, 0.2], kp=3, name="right_knee"
    ),
  ]
  return model, torso, joints, feet, actuators


class _CritterParts:
  """The properties both critter walkers read from the parts `_critter_model` returns."""

  @property
  def mjcf_model(self):
    return self._mjcf_root

  @property
  def actuators(self):
    return tuple(self._actuators)

  @property
  def root_body(self):
    return self._torso

  @property
  def observable_joints(self):
    return tuple(self._joints)


def critter_class(ns):
  """The critter, a legacy walker of stack `ns`; `Critter(name='critter', initializer=None,
  upright=False)` (`upright`: a non-trivial upright pose)."""

  class Critter(_CritterParts, ns.legacy_base.Walker):
    def _build(self, name="critter", initializer=None, upright=False):
      super()._build(initializer=initializer)
      (self._mjcf_root, self._torso, self._joints, self._feet, self._actuators) = _critter_model(
        ns, name
      )
      self._upright = upright

    @property
    def upright_pose(self):
      if not self._upright:
        return super().upright_pose
      return ns.base.WalkerPose(qpos=UPRIGHT_QPOS, xpos=UPRIGHT_XPOS, xquat=UPRIGHT_XQUAT)

    @property
    def end_effectors(self):
      return tuple(self._feet)

    @property
    def egocentric_camera(self):
      return self._mjcf_root.find("camera", "egocentric")

    @property
    def ground_contact_geoms(self):
      return tuple(self._mjcf_root.find("geom", f"{side}_sole") for side in ("left", "right"))

  return Critter


def simple_walker_class(ns):
  """A `base.Walker` (not legacy) of stack `ns`: the critter's model with a turned torso."""

  class SimpleWalker(_CritterParts, ns.base.Walker):
    def _build(self, name="simple"):
      self._mjcf_root, self._torso, self._joints, _, self._actuators = _critter_model(ns, name)
      self._torso.xyaxes = [0, 1, 0, -1, 0, 0]

  return SimpleWalker


def arena_with(ns, walker):
  """A composer Arena with a floor and `walker` attached by its own root joints."""
  arena = ns.composer.Arena()
  arena.mjcf_model.worldbody.add("geom", name="floor", type="plane", size=[5, 5, 0.1])
  # a converged contact solve, so that contact forces agree between the engines
  arena.mjcf_model.option.tolerance = 1e-14
  walker.create_root_joints(arena.attach(walker))
  return arena


def set_state(physics, qpos, qvel):
  """Writes a state and recomputes everything that depends on it."""
  physics.data.qpos[:] = qpos
  physics.data.qvel[:] = qvel
  physics.forward()


def critter_state(seed=0):
  """A state of the critter on the floor (root low enough for the feet to touch it), moving."""
  rng = np.random.RandomState(seed)
  quat = np.array([1.0, 0.05, -0.08, 0.3]) + rng.uniform(-0.02, 0.02, 4)
  qpos = np.concatenate(
    [[0.3, -0.2, 0.255], quat / np.linalg.norm(quat), rng.uniform(-0.3, 0.3, 4)]
  )
  qvel = rng.uniform(-0.5, 0.5, 10)
  return qpos, qvel
