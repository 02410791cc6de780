"""A motion-capture trajectory: a `FittedTrajectory` restricted to a window of its steps."""

import collections.abc
import copy

import numpy as np

from suite.locomotion.mocap import mocap_types
from suite.locomotion.mocap import props as mocap_props
from suite.locomotion.mocap import walkers as mocap_walkers

STEP_TIME_TOLERANCE = 1e-4

_REPEATED_POSITION_FIELDS = ("end_effectors", "appendages", "body_positions")
_REPEATED_QUATERNION_FIELDS = ("body_quaternions",)


def _zero_out_velocities(timestep):
  """A copy of `timestep` with every velocity zero."""
  out = timestep.copy()
  for pose in out.walkers:
    for name in mocap_types.VELOCITY_FIELDS:
      getattr(pose, name)[...] = 0.0
  for pose in out.props:
    for name in ("velocity", "angular_velocity"):
      getattr(pose, name)[...] = 0.0
  return out


class Trajectory:
  """A fitted clip (`proto`, a `mocap_types.FittedTrajectory`) between a start and an end.

  Times must be multiples of the clip's `dt` (to within 1e-4 of a step). As in dm_control, a
  start or end of 0 means the clip's own, `start_time`/`start_step` cannot be combined (nor the
  ends), and `zero_out_velocities` makes the last step of the window one at rest.
  """

  def __init__(
    self,
    proto,
    start_time=None,
    end_time=None,
    start_step=None,
    end_step=None,
    zero_out_velocities=True,
  ):
    self._proto = proto
    self._zero_out_velocities = zero_out_velocities
    if (start_time and start_step) or (end_time and end_step):
      raise ValueError(
        "Please specify either start and end times or start and end steps but not both."
      )
    if start_step:
      start_time = start_step * proto.dt
    if end_step:
      end_time = end_step * proto.dt
    self._set_start_time(start_time or 0.0)
    self._set_end_time(end_time or (len(proto.timesteps) * proto.dt))
    self._walkers_info = tuple(mocap_walkers.WalkerInfo(w) for w in proto.walkers)
    self._dict = None

  def as_dict(self):
    """The window's fields, each an array over its steps (read-only): 'walker/<field>' (or
    'walker_<i>/<field>' for several walkers; positions as (steps, n, 3), quaternions as
    (steps, n, 4)) and 'prop/<field>' (or 'prop_<i>/<field>')."""
    if self._dict is None:
      self._dict = {}
      proto = self._proto
      if proto.num_steps:
        n_walkers = len(proto.walker_poses)
        for i, poses in enumerate(proto.walker_poses):
          prefix = f"walker_{i}/" if n_walkers > 1 else "walker/"
          for name in mocap_types.WALKER_POSE_FIELDS:
            values = np.array(poses[name], float)
            if name in _REPEATED_POSITION_FIELDS:
              values = values.reshape(proto.num_steps, -1, 3)
            elif name in _REPEATED_QUATERNION_FIELDS:
              values = values.reshape(proto.num_steps, -1, 4)
            self._dict[prefix + name] = values
        n_props = len(proto.prop_poses)
        for i, poses in enumerate(proto.prop_poses):
          prefix = f"prop_{i}/" if n_props > 1 else "prop/"
          for name in mocap_types.PROP_POSE_FIELDS:
            self._dict[prefix + name] = np.array(poses[name], float)
        for value in self._dict.values():
          value.flags.writeable = False
    return {k: v[self._start_step : self._end_step] for k, v in self._dict.items()}

  def _get_quantized_time(self, time):
    if time == float("inf"):
      return len(self._proto.timesteps) - 1
    divided_time = time / self._proto.dt
    quantized_time = int(np.round(divided_time))
    if np.abs(quantized_time - divided_time) > STEP_TIME_TOLERANCE:
      raise ValueError(f"`time` should be a multiple of dt = {self._proto.dt}: got {time}")
    return quantized_time

  def _get_step_id(self, time):
    return np.clip(
      self._get_quantized_time(time) + self._start_step, self._start_step, self._end_step - 1
    )

  def get_modified_trajectory(self, proto_modifier, random_state=None):
    """A new trajectory of the same window, from a copy of the clip changed by
    `proto_modifier` (a callable or several)."""
    modified = copy.deepcopy(self._proto)
    modifiers = (
      proto_modifier if isinstance(proto_modifier, collections.abc.Iterable) else (proto_modifier,)
    )
    for modifier in modifiers:
      modifier(modified, random_state=random_state)
    return type(self)(modified, self.start_time, self.end_time)

  @property
  def identifier(self):
    return self._proto.identifier

  @property
  def start_time(self):
    return self._start_step * self._proto.dt

  def _set_start_time(self, new_value):
    self._start_step = np.clip(
      self._get_quantized_time(new_value), 0, len(self._proto.timesteps) - 1
    )

  @start_time.setter
  def start_time(self, new_value):
    self._set_start_time(new_value)

  @property
  def start_step(self):
    return self._start_step

  @start_step.setter
  def start_step(self, new_value):
    self._start_step = np.clip(int(new_value), 0, len(self._proto.timesteps) - 1)

  @property
  def end_step(self):
    return self._end_step

  @end_step.setter
  def end_step(self, new_value):
    # as dm_control: clipped to the last step's index (the end step is otherwise one past it)
    self._end_step = np.clip(int(new_value), 0, len(self._proto.timesteps) - 1)

  @property
  def end_time(self):
    return (self._end_step - 1) * self._proto.dt

  @property
  def clip_end_time(self):
    """The time of the full clip's last step."""
    return (len(self._proto.timesteps) - 1) * self._proto.dt

  def _set_end_time(self, new_value):
    self._end_step = 1 + np.clip(
      self._get_quantized_time(new_value), 0, len(self._proto.timesteps) - 1
    )
    last = self._proto.timesteps[self._end_step - 1]
    self._last_timestep = _zero_out_velocities(last) if self._zero_out_velocities else last

  @end_time.setter
  def end_time(self, new_value):
    self._set_end_time(new_value)

  @property
  def duration(self):
    return self.end_time - self.start_time

  @property
  def num_steps(self):
    return self._end_step - self._start_step

  @property
  def dt(self):
    return self._proto.dt

  def configure_walkers(self, walkers):
    """Rescales each walker to its subject and adds the marker sites."""
    try:
      walkers = iter(walkers)
    except TypeError:
      walkers = iter((walkers,))
    for walker, walker_info in zip(walkers, self._walkers_info):
      walker_info.rescale_walker(walker)
      walker_info.add_marker_sites(walker)

  def create_props(self, proto_modifier=None, priority_friction=False, prop_factory=None):
    """One prop entity per prop of the clip (made by `prop_factory`, `props.Prop` by
    default)."""
    proto = self._proto
    prop_factory = prop_factory or mocap_props.Prop
    if proto_modifier is not None:
      proto = copy.copy(proto)
      proto_modifier(proto)
    return tuple(prop_factory(prop, priority_friction=priority_friction) for prop in proto.props)

  def get_timestep_data(self, time):
    """The `TimestepData` at `time` (from the window's start; clipped to the window)."""
    step_id = self._get_step_id(time)
    if step_id == self._end_step - 1:
      return self._last_timestep
    return self._proto.timesteps[step_id]

  def set_walker_poses(self, physics, walkers):
    """Poses the walkers as at the physics' time."""
    timestep = self._proto.timesteps[self._get_step_id(physics.time())]
    for walker, pose in zip(walkers, timestep.walkers):
      walker.set_pose(physics, position=pose.position, quaternion=pose.quaternion)
      physics.bind(walker.mocap_joints).qpos = pose.joints

  def set_prop_poses(self, physics, props):
    """Poses the props as at the physics' time."""
    timestep = self._proto.timesteps[self._get_step_id(physics.time())]
    for prop, pose in zip(props, timestep.props):
      prop.set_pose(physics, position=pose.position, quaternion=pose.quaternion)
