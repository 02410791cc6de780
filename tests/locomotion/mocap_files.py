"""Small motion-capture files in dm_control's HDF5 layout, for the mocap and tracking tests.

`write_cmu_v2020_file(path)` writes a few short clips of the CMU humanoid (V2020): the walker's
upright pose with every joint swinging sinusoidally (its own amplitude, frequency and phase per
clip), the root moving forward and bobbing; the features (bodies, centre of mass, end effectors,
appendages, velocities) are read from our physics at each pose, so the file is consistent with
the walker. Each clip also has one box prop resting on the floor, and markers on two bodies.
"""

import h5py
import numpy as np

CLIPS = ("CMU_901_01", "CMU_901_02", "CMU_902_01")
DT = 0.03
NUM_STEPS = (40, 32, 36)
BOX_SIZE = (0.15, 0.1, 0.12)


def _features_per_step(clip_index, num_steps):
  """{field: (num_steps, size) array} of the walker's poses in clip `clip_index`."""
  import mjcf
  from suite.locomotion import arenas
  from suite.locomotion import walkers
  from suite.locomotion.tasks.reference_pose import utils

  arena = arenas.Floor()
  walker = utils.add_walker(walkers.CMUHumanoidPositionControlledV2020, arena)
  physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  rng = np.random.RandomState(100 + clip_index)
  qpos0, root_pos, root_quat = walker.upright_pose
  qpos0 = np.zeros(len(walker.mocap_joints)) if qpos0 is None else np.asarray(qpos0)
  joints = physics.bind(walker.mocap_joints)
  low, high = joints.range.T
  amplitude = rng.uniform(0.02, 0.12, qpos0.shape)
  omega = 2 * np.pi * rng.uniform(0.5, 1.5, qpos0.shape)
  phase = rng.uniform(0, 2 * np.pi, qpos0.shape)
  speed = 0.3 + 0.2 * clip_index
  fields = {}
  for step in range(num_steps):
    t = step * DT
    qpos = np.clip(qpos0 + amplitude * np.sin(omega * t + phase), low, high)
    qvel = amplitude * omega * np.cos(omega * t + phase)
    position = np.array(root_pos, float) + [speed * t, 0.0, 0.01 * np.sin(2 * np.pi * t)]
    velocity = np.array([speed, 0.0, 0.02 * np.pi * np.cos(2 * np.pi * t)])
    walker.set_pose(physics, position=position, quaternion=root_quat)
    walker.set_velocity(physics, velocity=velocity, angular_velocity=np.zeros(3))
    joints.qpos = qpos
    joints.qvel = qvel
    physics.forward()
    features = utils.get_features(physics, walker)
    for name, value in features.items():
      fields.setdefault(name, []).append(np.ravel(value))
  return {name: np.array(values) for name, values in fields.items()}


def write_cmu_v2020_file(path, clips=CLIPS, num_steps=NUM_STEPS, with_props=True):
  """Writes the clips to `path` (an HDF5 file in dm_control's layout; the props group empty
  unless `with_props`); returns `path`."""
  with h5py.File(path, "w") as f:
    for index, (clip, steps) in enumerate(zip(clips, num_steps)):
      group = f.create_group(clip)
      for name, value in (
        ("num_steps", steps),
        ("dt", DT),
        ("year", 2026),
        ("month", 11),
        ("day", 29 - index),
      ):
        group.attrs[name] = value
      walker = group.create_group("walkers").create_group("walker_0")
      walker.attrs["name"] = np.bytes_(b"CMU_V2020")
      walker.attrs["model"] = 4  # CMU_2020
      walker.attrs["mass"] = 0.0
      walker.attrs["end_effector_names"] = np.array([], dtype="S1")
      walker.attrs["appendage_names"] = np.array([], dtype="S1")
      walker.create_group("scaling")
      markers = walker.create_group("markers")
      for i, (name, parent) in enumerate((("_head", "head"), ("_left_hand", "lhand"))):
        marker = markers.create_group(f"marker_{i}")
        marker.attrs["name"] = np.bytes_(name.encode())
        marker.attrs["parent"] = np.bytes_(parent.encode())
        marker.attrs["position"] = np.array([0.01 * i, 0.0, 0.02])
      for name, values in _features_per_step(index, steps).items():
        walker.create_dataset(name, data=values.T)
      props = group.create_group("props")
      if not with_props:
        continue
      prop = props.create_group("prop_0")
      prop.attrs["name"] = np.bytes_(b"box")
      prop.attrs["shape"] = 2  # BOX
      prop.attrs["size"] = np.array(BOX_SIZE)
      prop.attrs["mass"] = 2.0 + index
      position = np.tile([1.5, 0.5 * index, BOX_SIZE[2]], (steps, 1))
      poses = {
        "position": position,
        "quaternion": np.tile([1.0, 0, 0, 0], (steps, 1)),
        "velocity": np.zeros((steps, 3)),
        "angular_velocity": np.zeros((steps, 3)),
      }
      for name, values in poses.items():
        prop.create_dataset(name, data=values.T)
  return path


def dm_control_test_file():
  """dm_control's own test file (two 10-step clips fitted to the 2019 model, with a box)."""
  import os

  from dm_control.locomotion import mocap

  return os.path.join(os.path.dirname(mocap.__file__), "test_trajectories.h5")
