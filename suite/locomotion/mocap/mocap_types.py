"""The records of a fitted motion-capture trajectory, in plain Python (no protocol buffers).

dm_control keeps a loaded clip in `mocap_pb2` messages; these classes have the same names and
fields, so proto modifiers written for dm_control (functions that change a trajectory in place,
e.g. `proto.timesteps[t].walkers[0].position[2] += dz`) work unchanged. The difference is where
the poses live: one array of shape (num_steps, size) per field, and `timesteps[t]` is a view of
row t, so a change through a timestep writes into the arrays (and `as_dict` reads them without
a per-step copy).
"""

import copy
import enum

import numpy as np

# the per-step fields of a walker and of a prop, in the order of dm_control's records
WALKER_POSE_FIELDS = (
  "position",
  "quaternion",
  "joints",
  "center_of_mass",
  "end_effectors",
  "velocity",
  "angular_velocity",
  "joints_velocity",
  "appendages",
  "body_positions",
  "body_quaternions",
)
PROP_POSE_FIELDS = ("position", "quaternion", "velocity", "angular_velocity")
VELOCITY_FIELDS = ("velocity", "angular_velocity", "joints_velocity")


class _Record:
  """A record with named fields and defaults; `==` compares every field."""

  _FIELDS = {}  # name -> default factory

  def __init__(self, **fields):
    unknown = set(fields) - set(self._FIELDS)
    if unknown:
      raise TypeError(
        f"{type(self).__name__} has no field {sorted(unknown)[0]!r}; its fields "
        f"are {', '.join(self._FIELDS)}"
      )
    for name, default in self._FIELDS.items():
      setattr(self, name, fields[name] if name in fields else default())

  def __eq__(self, other):
    return type(self) is type(other) and all(
      _equal(getattr(self, name), getattr(other, name)) for name in self._FIELDS
    )

  def __repr__(self):
    fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS)
    return f"{type(self).__name__}({fields})"


def _equal(a, b):
  if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
    return np.array_equal(a, b)
  return a == b


class Marker(_Record):
  """A tracking marker: its name, the body it is on and its position in that body."""

  _FIELDS = {"name": str, "parent": str, "position": list, "quaternion": list}


class Markers(_Record):
  _FIELDS = {"marker": list}


class SubtreeScaling(_Record):
  """How a walker's subtree below `body_name` is scaled to the subject."""

  _FIELDS = {"body_name": str, "parent_length": float, "size_factor": float}


class WalkerScaling(_Record):
  _FIELDS = {"subtree": list}


class Walker(_Record):
  """The walker a trajectory was fitted to: its model, scaling, markers and mass."""

  class Model(enum.IntEnum):
    """The walker models (the numbers are those of dm_control's data files)."""

    UNSPECIFIED = 0
    CMU_2019 = 1
    RESERVED_MODEL_ID_2 = 2
    RESERVED_MODEL_ID_3 = 3
    CMU_2020 = 4
    RESERVED_MODEL_ID_5 = 5
    RESERVED_MODEL_ID_6 = 6

  _FIELDS = {
    "name": str,
    "model": int,
    "scaling": WalkerScaling,
    "markers": Markers,
    "mass": float,
    "end_effector_names": list,
    "appendage_names": list,
  }


for _model in Walker.Model:
  setattr(Walker, _model.name, _model)


class Prop(_Record):
  """A prop of the trajectory: its shape, sizes and mass."""

  class Shape(enum.IntEnum):
    UNSPECIFIED = 0
    SPHERE = 1
    BOX = 2

  _FIELDS = {"name": str, "shape": int, "size": list, "mass": float}


for _shape in Prop.Shape:
  setattr(Prop, _shape.name, _shape)


class _Pose:
  """One entity's fields at one time step: 1-D arrays, views of the trajectory's arrays."""

  _FIELD_NAMES = ()

  def __init__(self, fields):
    object.__setattr__(self, "_fields", fields)

  def __getattr__(self, name):
    fields = object.__getattribute__(self, "_fields")
    if name in fields:
      return fields[name]
    raise AttributeError(f"{type(self).__name__} has no field {name!r}")

  def __setattr__(self, name, value):
    if name not in self._fields:
      raise AttributeError(f"{type(self).__name__} has no field {name!r}")
    value = np.asarray(value, float)
    if value.shape != self._fields[name].shape:
      raise ValueError(
        f"{type(self).__name__}.{name} has {self._fields[name].size} values; "
        f"got shape {value.shape}"
      )
    self._fields[name][...] = value

  def copy(self):
    """A detached copy (its arrays are its own)."""
    return type(self)({k: np.array(v) for k, v in self._fields.items()})

  def __eq__(self, other):
    return type(self) is type(other) and all(
      np.array_equal(v, other._fields[k]) for k, v in self._fields.items()
    )


class WalkerPose(_Pose):
  """A walker's pose at one time step (`WALKER_POSE_FIELDS`)."""

  _FIELD_NAMES = WALKER_POSE_FIELDS


class PropPose(_Pose):
  """A prop's pose at one time step (`PROP_POSE_FIELDS`)."""

  _FIELD_NAMES = PROP_POSE_FIELDS


class TimestepData:
  """The walkers' and props' poses at one time step."""

  def __init__(self, walkers, props):
    self.walkers = walkers
    self.props = props

  def copy(self):
    return TimestepData([w.copy() for w in self.walkers], [p.copy() for p in self.props])

  def __eq__(self, other):
    return (
      isinstance(other, TimestepData)
      and self.walkers == other.walkers
      and self.props == other.props
    )


class _Timesteps:
  """The time steps of a trajectory as a sequence of `TimestepData` views."""

  def __init__(self, trajectory):
    self._trajectory = trajectory

  def __len__(self):
    return self._trajectory.num_steps

  def __bool__(self):
    return len(self) > 0

  def __getitem__(self, index):
    if isinstance(index, slice):
      return [self[i] for i in range(*index.indices(len(self)))]
    n = len(self)
    index = int(index)
    if not -n <= index < n:
      raise IndexError(f"time step {index} out of range for a trajectory of {n} steps")
    index %= n
    t = self._trajectory
    return TimestepData(
      [WalkerPose({k: v[index] for k, v in poses.items()}) for poses in t.walker_poses],
      [PropPose({k: v[index] for k, v in poses.items()}) for poses in t.prop_poses],
    )

  def __iter__(self):
    return (self[i] for i in range(len(self)))


class FittedTrajectory:
  """A clip fitted to walker models: metadata, walkers, props and the poses at each step.

  `walker_poses[i][field]` (for each field of `WALKER_POSE_FIELDS`) and `prop_poses[i][field]`
  (`PROP_POSE_FIELDS`) are float arrays of shape (num_steps, size); `timesteps` views them one
  step at a time.
  """

  def __init__(
    self,
    identifier="",
    year=0,
    month=0,
    day=0,
    dt=0.0,
    walkers=(),
    props=(),
    walker_poses=(),
    prop_poses=(),
    num_steps=0,
  ):
    self.identifier = identifier
    self.year, self.month, self.day, self.dt = year, month, day, dt
    self.walkers = list(walkers)
    self.props = list(props)
    self.walker_poses = [_pose_arrays(p, WALKER_POSE_FIELDS, num_steps) for p in walker_poses]
    self.prop_poses = [_pose_arrays(p, PROP_POSE_FIELDS, num_steps) for p in prop_poses]
    self.num_steps = int(num_steps)

  @property
  def timesteps(self):
    return _Timesteps(self)

  def __deepcopy__(self, memo):
    new = copy.copy(self)
    new.walkers = copy.deepcopy(self.walkers, memo)
    new.props = copy.deepcopy(self.props, memo)
    new.walker_poses = [{k: np.array(v) for k, v in p.items()} for p in self.walker_poses]
    new.prop_poses = [{k: np.array(v) for k, v in p.items()} for p in self.prop_poses]
    return new


def _pose_arrays(poses, fields, num_steps):
  """`poses` (field -> values of shape (num_steps, size)) as float arrays, checked."""
  arrays = {}
  for name in fields:
    if name not in poses:
      raise ValueError(f"the poses have no field {name!r}")
    value = np.array(poses[name], float)
    if value.ndim == 1 and value.size == 0:
      value = value.reshape(num_steps, 0)
    if value.ndim != 2 or value.shape[0] != num_steps:
      raise ValueError(f"pose field {name!r} has shape {value.shape}; expected ({num_steps}, size)")
    arrays[name] = value
  return arrays
