"""Helpers of the reference-pose tasks: adding walkers (and ghosts), setting a walker or props
from reference features, and reading a walker's features."""

import numpy as np

import mjcf
from composer.utils import transformations as tr


def add_walker(walker_fn, arena, name="walker", ghost=False, visible=True, position=(0, 0, 0)):
  """Builds `walker_fn(name=name)` and attaches it to `arena` with a free joint (at
  `position`). A ghost has no contacts, actuators or tracking light and is grey (see-through
  unless `visible`)."""
  walker = walker_fn(name=name)
  if ghost:
    light = walker.mjcf_model.find("light", "tracking_light")
    if light:
      light.remove()
    for geom in walker.mjcf_model.find_all("geom"):
      # alpha 0.999 keeps the ghost grey (at 1 it would look like the walker)
      alpha = 0.999
      if geom.rgba is not None and geom.rgba[3] < alpha:
        alpha = geom.rgba[3]
      geom.set_attributes(contype=0, conaffinity=0, rgba=(0.5, 0.5, 0.5, alpha if visible else 0.0))
    model = walker.mjcf_model
    elements = model.find_all("actuator")
    elements += [x for x in model.find_all("sensor") if "actuator" in x.tag]
    for element in elements:
      element.remove()
    skin = walker.mjcf_model.find("skin", "skin")
    if skin:
      skin.set_attributes(rgba=(0.5, 0.5, 0.5, 0.999 if visible else 0.0))

  if tuple(position) == (0, 0, 0):
    walker.create_root_joints(arena.attach(walker))
  else:
    spawn_site = arena.mjcf_model.worldbody.add("site", pos=position)
    walker.create_root_joints(arena.attach(walker, spawn_site))
    spawn_site.remove()
  return walker


def get_qpos_qvel_from_features(features):
  """The free joint's and the mocap joints' positions and velocities, as qpos and qvel."""
  qpos = np.hstack([features["position"], features["quaternion"], features["joints"]])
  qvel = np.hstack(
    [features["velocity"], features["angular_velocity"], features["joints_velocity"]]
  )
  return qpos, qvel


def set_walker_from_features(physics, walker, features, offset=0):
  """Sets the walker's free joint and joints from reference features (shifted by `offset`)."""
  qpos, qvel = get_qpos_qvel_from_features(features)
  set_walker(physics, walker, qpos, qvel, offset=offset)


def set_walker(
  physics,
  walker,
  qpos,
  qvel,
  offset=0,
  null_xyz_and_yaw=False,
  position_shift=None,
  rotation_shift=None,
):
  """Writes qpos and qvel (free joint, then the mocap joints) into the walker's joints.

  `null_xyz_and_yaw` zeroes the horizontal position and the heading first; `offset` is added
  to the position; `position_shift`/`rotation_shift` then move the walker (and turn its
  velocity) with `shift_pose`."""
  qpos = np.array(qpos)
  if null_xyz_and_yaw:
    qpos[:2] = 0.0
    euler = tr.quat_to_euler(qpos[3:7], ordering="ZYX")
    euler[0] = 0.0
    qpos[3:7] = tr.euler_to_quat(euler, ordering="ZYX")
  qpos[:3] += offset
  freejoint = mjcf.get_attachment_frame(walker.mjcf_model).freejoint
  physics.bind(freejoint).qpos = qpos[:7]
  physics.bind(freejoint).qvel = qvel[:6]
  physics.bind(walker.mocap_joints).qpos = qpos[7:]
  physics.bind(walker.mocap_joints).qvel = qvel[6:]
  if position_shift is not None or rotation_shift is not None:
    walker.shift_pose(
      physics, position=position_shift, quaternion=rotation_shift, rotate_velocity=True
    )


def set_props_from_features(physics, props, features, z_offset=0):
  """Poses the props from the features 'prop_positions' and 'prop_quaternions' (raised by
  `z_offset`, a number or a 3-vector)."""
  if np.isscalar(z_offset):
    z_offset = np.array([0.0, 0.0, z_offset])
  for prop, pos, quat in zip(props, features["prop_positions"], features["prop_quaternions"]):
    prop.set_pose(physics, pos + z_offset, quat)


def get_features(physics, walker, props=None):
  """The walker's features as the reference clips have them: root position, quaternion and
  velocities, mocap joint positions and velocities, centre of mass, end effectors and
  appendages (egocentric), the tracking bodies' positions and quaternions; and the props'
  positions and quaternions if `props`."""
  bodies = walker.mocap_tracking_bodies
  features = {}
  root_pos, root_quat = walker.get_pose(physics)
  features["position"] = np.array(root_pos)
  features["quaternion"] = np.array(root_quat)
  features["joints"] = np.array(physics.bind(walker.mocap_joints).qpos)
  frame = mjcf.get_attachment_frame(walker.mjcf_model)
  features["center_of_mass"] = np.array(physics.bind(frame).subtree_com)
  end_effectors = np.array(walker.observables.end_effectors_pos(physics)[:]).reshape(-1, 3)
  features["end_effectors"] = end_effectors
  if hasattr(walker.observables, "appendages_pos"):
    features["appendages"] = np.array(walker.observables.appendages_pos(physics)[:]).reshape(-1, 3)
  else:
    features["appendages"] = np.array(end_effectors)
  features["body_positions"] = np.array(physics.bind(bodies).xpos)
  features["body_quaternions"] = np.array(physics.bind(bodies).xquat)
  root_vel, root_angvel = walker.get_velocity(physics)
  features["velocity"] = np.array(root_vel)
  features["angular_velocity"] = np.array(root_angvel)
  features["joints_velocity"] = np.array(physics.bind(walker.mocap_joints).qvel)
  if props:
    poses = [prop.get_pose(physics) for prop in props]
    features["prop_positions"] = np.array([pos for pos, _ in poses])
    features["prop_quaternions"] = np.array([quat for _, quat in poses])
  return features
