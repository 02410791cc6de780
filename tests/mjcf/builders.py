"""Models built procedurally with mjcf, shared by the mjcf tests."""

import math

import mjcf


class Arm:
  """A two-link arm: ball shoulder, hinge elbow (the PyMJCF documentation's example)."""

  def __init__(self, name):
    self.mjcf_model = mjcf.RootElement(model=name)
    self.upper_arm = self.mjcf_model.worldbody.add("body", name="upper_arm")
    self.shoulder = self.upper_arm.add("joint", name="shoulder", type="ball")
    self.upper_arm.add(
      "geom", name="upper_arm", type="capsule", pos=[0, 0, -0.15], size=[0.045, 0.15]
    )
    self.forearm = self.upper_arm.add("body", name="forearm", pos=[0, 0, -0.3])
    self.elbow = self.forearm.add("joint", name="elbow", type="hinge", axis=[0, 1, 0])
    self.forearm.add("geom", name="forearm", type="capsule", pos=[0, 0, -0.15], size=[0.045, 0.15])


class UpperBody:
  """A torso with two arms attached at shoulder sites."""

  def __init__(self):
    self.mjcf_model = mjcf.RootElement()
    self.mjcf_model.worldbody.add("geom", name="torso", type="box", size=[0.15, 0.045, 0.25])
    left_shoulder_site = self.mjcf_model.worldbody.add(
      "site", size=[1e-6] * 3, pos=[-0.15, 0, 0.25]
    )
    right_shoulder_site = self.mjcf_model.worldbody.add(
      "site", size=[1e-6] * 3, pos=[0.15, 0, 0.25]
    )
    self.left_arm = Arm(name="left_arm")
    left_shoulder_site.attach(self.left_arm.mjcf_model)
    self.right_arm = Arm(name="right_arm")
    right_shoulder_site.attach(self.right_arm.mjcf_model)


def make_leg(length, rgba):
  """A leg model: a thigh on a two-axis hip and a shin on a knee, with hinge servos."""
  model = mjcf.RootElement(model="leg")
  model.default.joint.damping = 2
  model.default.joint.type = "hinge"
  model.default.geom.type = "capsule"
  model.default.geom.rgba = rgba
  thigh = model.worldbody.add("body", name="thigh")
  hip_z = thigh.add("joint", name="hip_z", axis=[0, 0, 1])
  hip_y = thigh.add("joint", name="hip_y", axis=[0, 1, 0])
  thigh.add("geom", fromto=[0, 0, 0, length, 0, 0], size=[length / 4])
  shin = thigh.add("body", name="shin", pos=[length, 0, 0])
  knee = shin.add("joint", name="knee", axis=[0, 1, 0])
  shin.add("geom", fromto=[0, 0, 0, 0, 0, -length], size=[length / 5])
  foot = shin.add("site", name="foot", pos=[0, 0, -length])
  for joint in (hip_z, hip_y, knee):
    model.actuator.add("position", joint=joint, kp=10, name=joint.name)
  model.sensor.add("framepos", objtype="site", objname=foot, name="foot_pos")
  return model


def make_creature(num_legs, rgba, length=0.2):
  """A creature: an ellipsoid torso with `num_legs` legs attached at sites around it.

  Returns:
    (model, torso geom).
  """
  model = mjcf.RootElement(model="creature")
  model.compiler.angle = "degree"
  torso = model.worldbody.add(
    "geom", name="torso", type="ellipsoid", size=[length, length, length / 2], rgba=rgba
  )
  for i in range(num_legs):
    theta = 360.0 * i / num_legs
    x = length * math.cos(math.radians(theta))
    y = length * math.sin(math.radians(theta))
    site = model.worldbody.add("site", name=f"hip_{i}", pos=[x, y, 0], euler=[0, 0, theta])
    site.attach(make_leg(length, rgba))
  return model, torso


def make_arena(num_creatures, num_legs=8):
  """A floor and `num_creatures` free creatures in a row, contacts off.

  Returns:
    (arena, torso geoms, spawn positions, torso colors).
  """
  arena = mjcf.RootElement(model="arena")
  arena.worldbody.add(
    "geom", name="floor", type="plane", size=[10, 10, 0.1], contype=0, conaffinity=0
  )
  torsos, positions, colors = [], [], []
  for i in range(num_creatures):
    rgba = [i / num_creatures, 1 - i / num_creatures, 0.5, 1]
    creature, torso = make_creature(num_legs, rgba)
    for geom in creature.find_all("geom"):
      geom.contype = 0
      geom.conaffinity = 0
    pos = [1.5 * i - 3.75, 0.5 * i, 1.0 + 0.1 * i]
    spawn = arena.worldbody.add("site", name=f"spawn_{i}", pos=pos, size=[0.01])
    frame = spawn.attach(creature)
    frame.add("freejoint")
    torsos.append(torso)
    positions.append(pos)
    colors.append(rgba)
  return arena, torsos, positions, colors
