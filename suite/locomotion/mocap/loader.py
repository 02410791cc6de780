"""Loading motion-capture trajectories from dm_control's HDF5 files (and trajectory modifiers).

The layout, as dm_control writes and reads it: one group per clip, named by its identifier,
with attributes `num_steps`, `dt`, `year`, `month`, `day`; under it a group `walkers` with
`walker_0`, `walker_1`, ... and a group `props` with `prop_0`, .... A walker group's attributes
are its record's scalar fields (`name`, `model`, `mass`, `end_effector_names`,
`appendage_names`), its subgroups `scaling/subtree_<i>` and `markers/marker_<i>` hold the
subtree scalings and markers as attributes, and one dataset of shape (size, num_steps) per pose
field (`mocap_types.WALKER_POSE_FIELDS`). A prop group likewise (`name`, `shape`, `size`, `mass`;
`PROP_POSE_FIELDS`).

h5py is an optional dependency (`pip install numjoco[mocap]`), imported when a loader is made.
"""

import abc
import collections.abc
import operator
import os

import numpy as np

from composer import variation
from composer.utils import transformations as tr
from suite.locomotion.mocap import mocap_types
from suite.locomotion.mocap import trajectory


def import_h5py():
  """h5py, or an ImportError saying how to install it."""
  try:
    import h5py
  except ImportError as e:
    raise ImportError(
      "reading motion-capture HDF5 files needs h5py: "
      "`pip install numjoco[mocap]` (or `pip install h5py`)"
    ) from e
  return h5py


class TrajectoryLoader(metaclass=abc.ABCMeta):
  """Loads trajectories by key and wraps each in `trajectory_class`, after applying the
  `proto_modifier`s (callables that change a `FittedTrajectory` in place)."""

  def __init__(self, trajectory_class=trajectory.Trajectory, proto_modifier=()):
    self._trajectory_class = trajectory_class
    if proto_modifier is None:
      proto_modifier = ()
    elif not isinstance(proto_modifier, collections.abc.Iterable):
      proto_modifier = (proto_modifier,)
    for modifier in proto_modifier:
      if not callable(modifier):
        raise ValueError(f"{modifier} is not callable")
    self._proto_modifiers = proto_modifier

  @abc.abstractmethod
  def keys(self):
    """The identifiers of the trajectories."""

  @abc.abstractmethod
  def _get_proto_for_key(self, key):
    """The `FittedTrajectory` of `key`."""

  def get_trajectory(
    self,
    key,
    start_time=None,
    end_time=None,
    start_step=None,
    end_step=None,
    zero_out_velocities=True,
  ):
    """The trajectory `key`, modified and restricted to the given times or steps."""
    proto = self._get_proto_for_key(key)
    for modifier in self._proto_modifiers:
      modifier(proto)
    return self._trajectory_class(
      proto,
      start_time=start_time,
      end_time=end_time,
      start_step=start_step,
      end_step=end_step,
      zero_out_velocities=zero_out_velocities,
    )


def _text(value):
  return value.decode("utf-8") if isinstance(value, (bytes, np.bytes_)) else str(value)


# how each attribute of a record is converted (as a protocol buffer would store it)
_CONVERT = {str: _text, int: int, float: float}
_REPEATED_TEXT = ("end_effector_names", "appendage_names")


def _fill_fields(record, attrs, where, skip=()):
  """Sets the scalar and list fields of `record` that are attributes in `attrs`."""
  for name, default in type(record)._FIELDS.items():
    if name in skip or name not in attrs:
      continue
    value = attrs[name]
    try:
      if default is list:
        items = np.atleast_1d(value)
        convert = _text if name in _REPEATED_TEXT else float
        value = [convert(item) for item in items]
      elif default in _CONVERT:
        value = _CONVERT[default](value.item() if isinstance(value, np.ndarray) else value)
      else:
        continue  # nested records come from subgroups
    except (TypeError, ValueError) as e:
      raise ValueError(f"{where}: attribute {name!r} has an unexpected value {value!r}") from e
    setattr(record, name, value)
  return record


class HDF5TrajectoryLoader(TrajectoryLoader):
  """Reads the trajectories of an HDF5 file in dm_control's layout (see the module docstring).

  Raises:
    ImportError: h5py is not installed.
    FileNotFoundError: `path` does not exist.
    ValueError: the file is not an HDF5 file.
  """

  def __init__(self, path, trajectory_class=trajectory.Trajectory, proto_modifier=()):
    h5py = import_h5py()
    path = os.fspath(path)
    if not os.path.exists(path):
      raise FileNotFoundError(f"no motion-capture file at {path}")
    try:
      self._h5_file = h5py.File(path, mode="r")
    except OSError as e:
      raise ValueError(f"{path} is not a readable HDF5 file: {e}") from e
    self._path = path
    self._keys = tuple(sorted(self._h5_file.keys()))
    super().__init__(trajectory_class=trajectory_class, proto_modifier=proto_modifier)

  def keys(self):
    return self._keys

  def _group(self, parent, name, where):
    if name not in parent:
      raise ValueError(
        f"{self._path}: {where} has no {name!r} (not a trajectory file in dm_control's layout?)"
      )
    return parent[name]

  def _numbered(self, parent, prefix, where):
    """The subgroups `<prefix>_0`, `<prefix>_1`, ... of `parent`, checked."""
    return [self._group(parent, f"{prefix}_{i}", where) for i in range(len(parent))]

  def _poses(self, h5_entity, fields, num_steps, where):
    poses = {}
    for name in fields:
      data = np.asarray(self._group(h5_entity, name, where), float)
      if data.ndim != 2 or data.shape[1] != num_steps:
        raise ValueError(
          f"{self._path}: {where}/{name} has shape {data.shape}; expected (size, {num_steps})"
        )
      poses[name] = data.T
    return poses

  def _get_proto_for_key(self, key):
    """The `FittedTrajectory` of `key` (str or bytes)."""
    key = _text(key)
    if key not in self._h5_file:
      shown = ", ".join(self._keys[:5]) + (", ..." if len(self._keys) > 5 else "")
      raise KeyError(f"{self._path} has no trajectory {key!r} (it has {len(self._keys)}: {shown})")
    h5_trajectory = self._h5_file[key]
    if "num_steps" not in h5_trajectory.attrs:
      raise ValueError(
        f"{self._path}: trajectory {key!r} has no 'num_steps' attribute (not a "
        "trajectory file in dm_control's layout?)"
      )
    num_steps = int(h5_trajectory.attrs["num_steps"])
    proto = mocap_types.FittedTrajectory(identifier=key, num_steps=num_steps)
    for name, convert in (("year", int), ("month", int), ("day", int), ("dt", float)):
      if name in h5_trajectory.attrs:
        setattr(proto, name, convert(h5_trajectory.attrs[name]))

    for h5_walker in self._numbered(
      self._group(h5_trajectory, "walkers", key), "walker", f"{key}/walkers"
    ):
      where = h5_walker.name
      walker = _fill_fields(mocap_types.Walker(), h5_walker.attrs, where)
      walker.scaling.subtree = [
        _fill_fields(mocap_types.SubtreeScaling(), g.attrs, g.name)
        for g in self._numbered(self._group(h5_walker, "scaling", where), "subtree", where)
      ]
      walker.markers.marker = [
        _fill_fields(mocap_types.Marker(), g.attrs, g.name)
        for g in self._numbered(self._group(h5_walker, "markers", where), "marker", where)
      ]
      proto.walkers.append(walker)
      proto.walker_poses.append(
        self._poses(h5_walker, mocap_types.WALKER_POSE_FIELDS, num_steps, where)
      )

    for h5_prop in self._numbered(self._group(h5_trajectory, "props", key), "prop", f"{key}/props"):
      proto.props.append(_fill_fields(mocap_types.Prop(), h5_prop.attrs, h5_prop.name))
      proto.prop_poses.append(
        self._poses(h5_prop, mocap_types.PROP_POSE_FIELDS, num_steps, h5_prop.name)
      )
    return proto


class PropMassLimiter:
  """A modifier that caps each prop's mass at `max_mass`."""

  def __init__(self, max_mass):
    self._max_mass = max_mass

  def __call__(self, proto, random_state=None):
    for prop in proto.props:
      prop.mass = min(prop.mass, self._max_mass)


class PropResizer:
  """A modifier that scales (`size_factor`) or grows (`size_delta`) each prop's sizes and sets
  its mass; each may be a Variation, evaluated with `random_state`."""

  def __init__(self, size_factor=None, size_delta=None, mass=None):
    if size_factor and size_delta:
      raise ValueError("Only one of `size_factor` or `size_delta` can be specified.")
    if size_factor:
      self._size_variation, self._size_op = size_factor, operator.mul
    else:
      self._size_variation, self._size_op = size_delta, operator.add
    self._mass = mass

  def __call__(self, proto, random_state=None):
    for prop in proto.props:
      change = variation.evaluate(self._size_variation, random_state=random_state)
      if not np.shape(change):
        change = np.full(len(prop.size), change)
      prop.size = [self._size_op(size, c) for size, c in zip(prop.size, change)]
      prop.mass = variation.evaluate(self._mass, random_state=random_state)


class ZOffsetter:
  """A modifier that raises the walkers and props of every step by `z_offset`."""

  def __init__(self, z_offset=0.0):
    self._z_offset = z_offset

  def _add_z_offset(self, values):
    if np.shape(values)[-1] % 3:
      raise ValueError("Length of proto_field is not a multiple of 3.")
    values[..., 2::3] += self._z_offset

  def __call__(self, proto, random_state=None):
    for poses in proto.walker_poses:
      for name in ("position", "body_positions", "center_of_mass"):
        self._add_z_offset(poses[name])
    for poses in proto.prop_poses:
      self._add_z_offset(poses["position"])


class AppendageFixer:
  """A modifier that expresses each step's appendage positions in the walker's root frame."""

  def __call__(self, proto, random_state=None):
    for poses in proto.walker_poses:
      for t in range(proto.num_steps):
        xmat = tr.quat_to_mat(poses["quaternion"][t])[:3, :3]
        appendages = poses["appendages"][t].reshape(-1, 3)
        poses["appendages"][t] = np.ravel((appendages - poses["position"][t]) @ xmat)
