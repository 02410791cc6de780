"""Tasks that track motion-capture clips with a walker (multi-clip tracking, playback).

An episode starts at a step of a clip drawn (with the clip weights) from the dataset, with the
walker posed as the clip is there; each control step (the clip's dt) advances the reference by
one step. The observations give the reference `ref_steps` steps ahead relative to the walker;
the episode ends (discount 0) when the tracking error passes `termination_error_threshold`, or
(discount 1) at the end of the clip.
"""

import abc
import collections
import copy
import logging

import numpy as np
from dm_env import specs

import composer
import engine
from composer.observation import observable as base_observable
from composer.utils import transformations as tr
from suite.locomotion.mocap import loader
from suite.locomotion.tasks.reference_pose import datasets
from suite.locomotion.tasks.reference_pose import rewards
from suite.locomotion.tasks.reference_pose import types
from suite.locomotion.tasks.reference_pose import utils

DEFAULT_PHYSICS_TIMESTEP = 0.005
_MAX_END_STEP = 10000

_log = logging.getLogger(__name__)

# the reference observables the walker gets, each reading the task's stored observations
_REFERENCE_OBSERVABLES = (
  "reference_rel_joints",
  "reference_rel_bodies_pos_global",
  "reference_rel_bodies_quats",
  "reference_rel_bodies_pos_local",
  "reference_ego_bodies_quats",
  "reference_rel_root_quat",
  "reference_rel_root_pos_local",
)


def _strip_reference_prefix(dictionary, prefix, keep_prefixes=None):
  """The entries whose keys start with `prefix`, without it, and those whose keys start with
  one of `keep_prefixes`, unchanged; the rest are left out."""
  keep_prefixes = keep_prefixes or []
  stripped = {}
  for key, value in dictionary.items():
    if key.startswith(prefix):
      stripped[key.split(prefix)[1]] = value
    elif any(key.startswith(keep) for keep in keep_prefixes):
      stripped[key] = value
  return stripped


def _at(features, index):
  return {key: value[index] for key, value in features.items()}


class ReferencePosesTask(composer.Task, metaclass=abc.ABCMeta):
  """What the reference-pose tasks share: data loading, clip sampling, the reference
  observations, the termination error and the reward.

  Args:
    walker: the walker's constructor (called with `name=`).
    arena: the arena.
    ref_path: the HDF5 file of reference trajectories.
    ref_steps: the steps ahead the reference observations show (e.g. (1, 2, 3)).
    dataset: a `types.ClipCollection`, or a name in `datasets.DATASETS`.
    termination_error_threshold: the tracking error (mean of the body position and joint
      errors) that ends an episode.
    prop_termination_error_threshold: the prop position error that ends an episode.
    min_steps: the fewest steps an episode can have (the latest start of a clip).
    reward_type: a name of `rewards.get_reward`.
    physics_timestep: the physics time step (the control step is the clip's dt).
    always_init_at_clip_start: start every episode at the start of its clip.
    proto_modifier: modifier(s) applied to every trajectory as loaded.
    prop_factory: the constructor of the clips' props (`mocap.props.Prop` by default).
    disable_props: no props.
    ghost_offset: if not None, a contact-free grey copy of the walker shows the reference,
      shifted by this offset.
    body_error_multiplier: the weight of the body error in the termination error.
    actuator_force_coeff: the weight of the 'actuator_force' reward channel.
    enabled_reference_observables: if given, only these task observables are enabled.
  """

  def __init__(
    self,
    walker,
    arena,
    ref_path,
    ref_steps,
    dataset,
    termination_error_threshold=0.3,
    prop_termination_error_threshold=0.1,
    min_steps=10,
    reward_type="termination_reward",
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
    always_init_at_clip_start=False,
    proto_modifier=None,
    prop_factory=None,
    disable_props=False,
    ghost_offset=None,
    body_error_multiplier=1.0,
    actuator_force_coeff=0.015,
    enabled_reference_observables=None,
  ):
    self._ref_steps = np.sort(ref_steps)
    self._max_ref_step = self._ref_steps[-1]
    self._termination_error_threshold = termination_error_threshold
    self._prop_termination_error_threshold = prop_termination_error_threshold
    self._reward_fn = rewards.get_reward(reward_type)
    self._reward_keys = rewards.get_reward_channels(reward_type)
    self._min_steps = min_steps
    self._always_init_at_clip_start = always_init_at_clip_start
    self._ghost_offset = ghost_offset
    self._body_error_multiplier = body_error_multiplier
    self._actuator_force_coeff = actuator_force_coeff

    if isinstance(dataset, str):
      if dataset not in datasets.DATASETS:
        raise KeyError(f"no dataset {dataset!r}; the datasets are {', '.join(datasets.DATASETS)}")
      dataset = datasets.DATASETS[dataset]
    # a copy: the end steps read from the data are stored in it
    self._load_reference_data(
      ref_path=ref_path, proto_modifier=proto_modifier, dataset=copy.copy(dataset)
    )
    self._get_possible_starts()

    self._current_clip_index = 0
    self._current_clip = self._loader.get_trajectory(
      self._dataset.ids[0], zero_out_velocities=False
    )
    self._arena = arena
    self._walker = utils.add_walker(walker, self._arena)
    self.set_timesteps(physics_timestep=physics_timestep, control_timestep=self._current_clip.dt)
    if not hasattr(self._walker, "mocap_tracking_bodies"):
      raise AttributeError(
        f"{type(self._walker).__name__} has no mocap_tracking_bodies: a "
        "walker must name the bodies a tracking task follows"
      )
    names = [body.name for body in self._walker.mocap_tracking_bodies]
    self._body_idxs = np.array([names.index(name) for name in names])

    self._prop_factory = prop_factory
    self._props = (
      [] if disable_props else list(self._current_clip.create_props(prop_factory=prop_factory))
    )
    for prop in self._props:
      self._arena.add_free_entity(prop)

    self._add_observables(enabled_reference_observables)

    self._time_step = 0
    self._current_start_time = 0.0
    self._last_step = 0
    self._current_clip_index = 0
    self._reference_observations = {}
    self._end_mocap = False
    self._should_truncate = False

    self._disable_props = disable_props
    self._prop_prefixes = []
    if not disable_props:
      self._prop_prefixes = (
        ["prop/"] if len(self._props) == 1 else [f"prop_{i}/" for i in range(len(self._props))]
      )
    self._clip_reference_features = self._current_clip.as_dict()
    self._strip_reference_prefix()

    self._check_walker_matches_data()
    self._walker_joints = self._clip_reference_features["joints"][0]
    self._walker_features = _at(self._clip_reference_features, 0)
    self._walker_features_prev = _at(self._clip_reference_features, 0)
    self._current_reference_features = {}
    self._reference_ego_bodies_quats = collections.defaultdict(dict)

    self._ghost_props = []
    if self._ghost_offset is not None:
      self._ghost = utils.add_walker(walker, self._arena, name="ghost", ghost=True)
      self._ghost.observables.disable_all()
      if not disable_props:
        self._ghost_props = list(
          self._current_clip.create_props(prop_factory=self._ghost_prop_factory)
        )
        for prop in self._ghost_props:
          self._arena.add_free_entity(prop)
          prop.observables.disable_all()

    self._reset_reward_channels()

  def _check_walker_matches_data(self):
    """Raises ValueError if the clips have another number of joints or tracked bodies than the
    walker (dm_control fails later, on arrays that do not broadcast)."""
    features = self._clip_reference_features
    counts = (
      ("joints", features["joints"].shape[-1], len(self._walker.mocap_joints)),
      ("tracked bodies", features["body_positions"].shape[-2], len(self._body_idxs)),
    )
    for what, in_data, in_walker in counts:
      if in_data != in_walker:
        raise ValueError(
          f"The reference data has {in_data} {what} and the walker "
          f"{type(self._walker).__name__} {in_walker}: the walker does not match "
          "the data (proto/walker mismatch)."
        )

  def _strip_reference_prefix(self):
    """The clip's features without the 'walker/' prefix; the props' positions and quaternions
    gathered into 'prop_positions' and 'prop_quaternions' of shape (steps, props, 3 or 4)."""
    features = _strip_reference_prefix(
      self._clip_reference_features, "walker/", keep_prefixes=self._prop_prefixes
    )
    positions = [features.pop(f"{prefix}position") for prefix in self._prop_prefixes]
    quaternions = [features.pop(f"{prefix}quaternion") for prefix in self._prop_prefixes]
    if self._prop_prefixes:
      features["prop_positions"] = np.transpose(positions, axes=[1, 0, 2])
      features["prop_quaternions"] = np.transpose(quaternions, axes=[1, 0, 2])
    self._clip_reference_features = features

  def _ghost_prop_factory(self, prop_proto, priority_friction=False):
    if self._prop_factory is None:
      return None
    prop = self._prop_factory(prop_proto, priority_friction=priority_friction)
    for geom in prop.mjcf_model.find_all("geom"):
      geom.set_attributes(contype=0, conaffinity=0, rgba=(0.5, 0.5, 0.5, 0.999))
    prop.observables.disable_all()
    return prop

  def _load_reference_data(self, ref_path, proto_modifier, dataset):
    self._loader = loader.HDF5TrajectoryLoader(ref_path, proto_modifier=proto_modifier)
    self._dataset = dataset
    self._num_clips = len(dataset.ids)
    if dataset.end_steps is None:
      # every clip is loaded to find where it ends
      self._all_clips = [
        self._loader.get_trajectory(clip_id, start_step=start, end_step=_MAX_END_STEP)
        for clip_id, start in zip(dataset.ids, dataset.start_steps)
      ]
      dataset.end_steps = tuple(clip.end_step for clip in self._all_clips)
    else:
      self._all_clips = [None] * self._num_clips

  def _reference_observable(self, key):
    return base_observable.Generic(lambda _: self._reference_observations[key])

  def _add_observables(self, enabled_reference_observables):
    walker_observables = self._walker.observables
    for name in _REFERENCE_OBSERVABLES:
      walker_observables.add_observable(name, self._reference_observable(f"walker/{name}"))
    walker_observables.add_observable(
      "reference_appendages_pos", base_observable.Generic(self.get_reference_appendages_pos)
    )
    if enabled_reference_observables:
      for name, observable in self.observables.items():
        observable.enabled = name in enabled_reference_observables
    walker_observables.add_observable("clip_id", base_observable.Generic(self.get_clip_id))
    walker_observables.add_observable(
      "velocimeter_control", base_observable.Generic(self.get_veloc_control)
    )
    walker_observables.add_observable(
      "gyro_control", base_observable.Generic(self.get_gyro_control)
    )
    walker_observables.add_observable(
      "joints_vel_control", base_observable.Generic(self.get_joints_vel_control)
    )
    self._arena.observables.add_observable(
      "reference_props_pos_global", base_observable.Generic(self.get_reference_props_pos_global)
    )
    self._arena.observables.add_observable(
      "reference_props_quat_global", base_observable.Generic(self.get_reference_props_quat_global)
    )
    for observable in (
      walker_observables.proprioception
      + walker_observables.kinematic_sensors
      + walker_observables.dynamic_sensors
    ):
      observable.enabled = True
    for prop in self._props:
      prop.observables.position.enabled = True
      prop.observables.orientation.enabled = True

  def _get_possible_starts(self):
    """Every (clip, step) an episode can start at, with its probability."""
    self._possible_starts = []
    probabilities = []
    dataset = self._dataset
    for clip, (start, end, weight) in enumerate(
      zip(dataset.start_steps, dataset.end_steps, dataset.weights)
    ):
      if self._always_init_at_clip_start:
        starts = [start]
      else:
        starts = range(start, end - self._max_ref_step - self._min_steps)
      self._possible_starts += [(clip, step) for step in starts]
      probabilities += [weight] * len(starts)
    self._start_probabilities = np.array(probabilities) / np.sum(probabilities)

  def initialize_episode_mjcf(self, random_state):
    if hasattr(self._arena, "regenerate"):
      self._arena.regenerate(random_state)
    self._get_clip_to_track(random_state)
    # the props are rebuilt each episode (the factory may vary them)
    for prop in self._props:
      prop.detach()
    if not self._disable_props:
      self._props = list(self._current_clip.create_props(prop_factory=self._prop_factory))
      for prop in self._props:
        self._arena.add_free_entity(prop)
        prop.observables.position.enabled = True
        prop.observables.orientation.enabled = True
      if self._ghost_offset is not None:
        for prop in self._ghost_props:
          prop.detach()
        self._ghost_props = list(
          self._current_clip.create_props(prop_factory=self._ghost_prop_factory)
        )
        for prop in self._ghost_props:
          self._arena.add_free_entity(prop)
          prop.observables.disable_all()

  def _load_clip(self, index):
    """The trajectory of clip `index` (loaded once)."""
    if self._all_clips[index] is None:
      _log.info("Loading clip %s", self._dataset.ids[index])
      self._all_clips[index] = self._loader.get_trajectory(
        self._dataset.ids[index],
        start_step=self._dataset.start_steps[index],
        end_step=self._dataset.end_steps[index],
        zero_out_velocities=False,
      )
    return self._all_clips[index]

  def _start_clip(self, start_step):
    """Sets the episode's time step and start time within the current clip."""
    offset = start_step - self._dataset.start_steps[self._current_clip_index]
    self._time_step = offset
    self._current_start_time = offset * self._current_clip.dt
    self._last_step = len(self._clip_reference_features["joints"]) - self._max_ref_step - 1

  def _get_clip_to_track(self, random_state):
    index = random_state.choice(len(self._possible_starts), p=self._start_probabilities)
    self._current_clip_index, start_step = self._possible_starts[index]
    self._current_clip = self._load_clip(self._current_clip_index)
    self._clip_reference_features = self._current_clip.as_dict()
    self._strip_reference_prefix()
    self._start_clip(start_step)

  def initialize_episode(self, physics, random_state):
    """Poses the walker as the reference at the episode's start.

    Raises:
      ValueError: the walker does not match the data (its error at the start exceeds 1e-2).
    """
    self._set_walker(physics)
    self._walker_features = utils.get_features(physics, self._walker, props=self._props)
    self._walker_features_prev = self._walker_features.copy()
    self._walker_joints = np.array(physics.bind(self._walker.mocap_joints).qpos)
    self._compute_termination_error()
    if self._termination_error > 1e-2:
      raise ValueError(
        f"The termination error is {self._termination_error:.3g} (above 1e-2) "
        "at initialization: the walker does not match the reference data "
        "(proto/walker mismatch)."
      )
    self._update_ghost(physics)
    self._reference_observations.update(self.get_all_reference_observations(physics))
    self._reset_reward_channels()

  def _reset_reward_channels(self):
    self.last_reward_channels = (
      collections.OrderedDict((k, 0.0) for k in self._reward_keys) if self._reward_keys else None
    )

  def _compute_termination_error(self):
    reference = self._clip_reference_features
    error_joints = np.mean(np.abs(reference["joints"][self._time_step] - self._walker_joints))
    error_bodies = np.mean(
      np.abs(
        (reference["body_positions"][self._time_step] - self._walker_features["body_positions"])[
          self._body_idxs
        ]
      )
    )
    self._termination_error = 0.5 * self._body_error_multiplier * error_bodies + 0.5 * error_joints
    if self._props:
      target = reference["prop_positions"][self._time_step]
      self._prop_termination_error = np.mean(
        np.linalg.norm(target - self._walker_features["prop_positions"], axis=-1)
      )

  def before_step(self, physics, action, random_state):
    self._walker.apply_action(physics, action, random_state)

  def after_step(self, physics, random_state):
    del random_state  # unused
    self._walker_features_prev = self._walker_features.copy()

  def after_compile(self, physics, random_state):
    # the observations need values before the first episode
    if not self._reference_observations:
      self._reference_observations.update(self.get_all_reference_observations(physics))

  def should_terminate_episode(self, physics):
    del physics  # unused
    if self._should_truncate:
      _log.info("Truncate with error %f.", self._termination_error)
      return True
    return bool(self._end_mocap)

  def get_discount(self, physics):
    del physics  # unused
    return 0.0 if self._should_truncate else 1.0

  def _reference_steps(self):
    return self._time_step + self._ref_steps

  def get_reference_rel_joints(self, physics):
    """The reference joints (at the ref steps) minus the walker's, in observable order."""
    del physics  # unused
    diff = self._clip_reference_features["joints"][self._reference_steps()] - self._walker_joints
    return diff[:, self._walker.mocap_to_observable_joint_order].flatten()

  def get_reference_rel_bodies_pos_global(self, physics):
    """The reference body positions minus the walker's, in the world frame."""
    del physics  # unused
    return (
      self._clip_reference_features["body_positions"][self._reference_steps()]
      - self._walker_features["body_positions"]
    )[:, self._body_idxs].flatten()

  def get_reference_rel_bodies_quats(self, physics):
    """The rotation from each walker body to the reference's."""
    del physics  # unused
    reference = self._clip_reference_features["body_quaternions"]
    bodies = self._walker_features["body_quaternions"]
    return np.concatenate(
      [
        tr.quat_diff(bodies[b, :], reference[t, b, :]).flatten()
        for t in self._reference_steps()
        for b in self._body_idxs
      ]
    )

  def get_reference_rel_bodies_pos_local(self, physics):
    """The reference body positions minus the walker's, in the walker's frame."""
    obs = self._walker.transform_vec_to_egocentric_frame(
      physics,
      (
        self._clip_reference_features["body_positions"][self._reference_steps()]
        - self._walker_features["body_positions"]
      )[:, self._body_idxs],
    )
    return np.concatenate([o.flatten() for o in obs])

  def get_reference_ego_bodies_quats(self, unused_physics):
    """Each reference body's rotation relative to the reference root (cached per clip)."""
    quats = self._reference_ego_bodies_quats[self._current_clip_index]
    obs = []
    for t in self._reference_steps():
      if t not in quats:
        root = self._clip_reference_features["quaternion"][t, :]
        quats[t] = [
          tr.quat_diff(root, self._clip_reference_features["body_quaternions"][t, b, :])
          for b in self._body_idxs
        ]
      obs.extend(quats[t])
    return np.concatenate([o.flatten() for o in obs])

  def get_reference_rel_root_quat(self, physics):
    """The rotation from the walker's root to the reference root."""
    del physics  # unused
    root = self._walker_features["quaternion"]
    return np.concatenate(
      [
        tr.quat_diff(root, self._clip_reference_features["quaternion"][t, :]).flatten()
        for t in self._reference_steps()
      ]
    )

  def get_reference_appendages_pos(self, physics):
    """The reference appendage positions (in the reference's frame)."""
    del physics  # unused
    return self._clip_reference_features["appendages"][self._reference_steps()].flatten()

  def get_reference_rel_root_pos_local(self, physics):
    """The reference root position minus the walker's, in the walker's frame."""
    obs = self._walker.transform_vec_to_egocentric_frame(
      physics,
      (
        self._clip_reference_features["position"][self._reference_steps()]
        - self._walker_features["position"]
      ),
    )
    return np.concatenate([o.flatten() for o in obs])

  def get_reference_props_pos_global(self, physics):
    """The props' reference positions (empty without props)."""
    if self._props:
      return self._clip_reference_features["prop_positions"][self._reference_steps()].flatten()
    return []

  def get_reference_props_quat_global(self, physics):
    """The props' reference quaternions (empty without props)."""
    if self._props:
      return self._clip_reference_features["prop_quaternions"][self._reference_steps()].flatten()
    return []

  def get_veloc_control(self, physics):
    """The root's velocity over the last control step, in the previous root frame."""
    del physics  # unused
    rmat_prev = tr.quat_to_mat(self._walker_features_prev["quaternion"])[:3, :3]
    velocity = (
      self._walker_features["position"] - self._walker_features_prev["position"]
    ) / self._control_timestep
    return np.dot(velocity, rmat_prev)

  def get_gyro_control(self, physics):
    """The root's angular velocity over the last control step, in the previous root frame."""
    del physics  # unused
    diff = tr.quat_diff(
      self._walker_features_prev["quaternion"], self._walker_features["quaternion"]
    )
    diff /= np.linalg.norm(diff)
    return tr.quat_to_axisangle(diff) / self._control_timestep

  def get_joints_vel_control(self, physics):
    """The joints' velocities over the last control step, in observable order."""
    del physics  # unused
    diff = self._walker_features["joints"] - self._walker_features_prev["joints"]
    return diff[self._walker.mocap_to_observable_joint_order] / self._control_timestep

  def get_clip_id(self, physics):
    """The index of the current clip in the dataset."""
    del physics  # unused
    return np.array([self._current_clip_index])

  def get_all_reference_observations(self, physics):
    observations = {
      "walker/reference_rel_bodies_pos_local": self.get_reference_rel_bodies_pos_local(physics),
      "walker/reference_rel_joints": self.get_reference_rel_joints(physics),
      "walker/reference_rel_bodies_pos_global": self.get_reference_rel_bodies_pos_global(physics),
      "walker/reference_ego_bodies_quats": self.get_reference_ego_bodies_quats(physics),
      "walker/reference_rel_root_quat": self.get_reference_rel_root_quat(physics),
      "walker/reference_rel_bodies_quats": self.get_reference_rel_bodies_quats(physics),
      "walker/reference_rel_root_pos_local": self.get_reference_rel_root_pos_local(physics),
    }
    if self._props:
      observations["props/reference_pos_global"] = self.get_reference_props_pos_global(physics)
      observations["props/reference_quat_global"] = self.get_reference_props_quat_global(physics)
    return observations

  def get_reward(self, physics):
    reward, _, channels = self._reward_fn(
      termination_error=self._termination_error,
      termination_error_threshold=self._termination_error_threshold,
      reference_features=self._current_reference_features,
      walker_features=self._walker_features,
      reference_observations=self._reference_observations,
    )
    if "actuator_force" in self._reward_keys:
      channels["actuator_force"] = -self._actuator_force_coeff * np.mean(
        np.square(self._walker.actuator_force(physics))
      )
    self._should_truncate = self._termination_error > self._termination_error_threshold
    if self._props:
      self._should_truncate = self._should_truncate or (
        self._prop_termination_error > self._prop_termination_error_threshold
      )
    self.last_reward_channels = channels
    return reward

  def _set_walker(self, physics):
    features = _at(self._clip_reference_features, self._time_step)
    utils.set_walker_from_features(physics, self._walker, features)
    if self._props:
      utils.set_props_from_features(physics, self._props, features)
    engine.mj_kinematics(physics.model.ptr, physics.data.ptr)

  def _update_ghost(self, physics):
    if self._ghost_offset is not None:
      target = _at(self._clip_reference_features, self._time_step)
      utils.set_walker_from_features(physics, self._ghost, target, self._ghost_offset)
      if self._ghost_props:
        utils.set_props_from_features(
          physics, self._ghost_props, target, z_offset=self._ghost_offset
        )
      engine.mj_kinematics(physics.model.ptr, physics.data.ptr)

  def action_spec(self, physics):
    """The walker's controls only (not a ghost's), bounded by their control ranges."""
    bound = physics.bind(self._walker.actuators)
    ctrl = bound.ctrl
    minimum, maximum = [], []
    for actuator in self._walker.actuators:
      if physics.bind(actuator).ctrllimited:
        low, high = physics.bind(actuator).ctrlrange
      else:
        low, high = -float("inf"), float("inf")
      minimum.append(low)
      maximum.append(high)
    return specs.BoundedArray(
      shape=ctrl.shape,
      dtype=ctrl.dtype,
      minimum=np.asarray(minimum, dtype=ctrl.dtype),
      maximum=np.asarray(maximum, dtype=ctrl.dtype),
      name="\t".join(actuator.full_identifier for actuator in self._walker.actuators),
    )

  @property
  @abc.abstractmethod
  def name(self):
    raise NotImplementedError

  @property
  def root_entity(self):
    return self._arena


class MultiClipMocapTracking(ReferencePosesTask):
  """Tracking clips of a dataset, one per episode (see `ReferencePosesTask` for the arguments;
  props are off by default). The walker also observes 'time_in_clip'."""

  def __init__(
    self,
    walker,
    arena,
    ref_path,
    ref_steps,
    dataset,
    termination_error_threshold=0.3,
    prop_termination_error_threshold=0.1,
    min_steps=10,
    reward_type="termination_reward",
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
    always_init_at_clip_start=False,
    proto_modifier=None,
    prop_factory=None,
    disable_props=True,
    ghost_offset=None,
    body_error_multiplier=1.0,
    actuator_force_coeff=0.015,
    enabled_reference_observables=None,
  ):
    super().__init__(
      walker=walker,
      arena=arena,
      ref_path=ref_path,
      ref_steps=ref_steps,
      dataset=dataset,
      termination_error_threshold=termination_error_threshold,
      prop_termination_error_threshold=prop_termination_error_threshold,
      min_steps=min_steps,
      reward_type=reward_type,
      physics_timestep=physics_timestep,
      always_init_at_clip_start=always_init_at_clip_start,
      proto_modifier=proto_modifier,
      prop_factory=prop_factory,
      disable_props=disable_props,
      ghost_offset=ghost_offset,
      body_error_multiplier=body_error_multiplier,
      actuator_force_coeff=actuator_force_coeff,
      enabled_reference_observables=enabled_reference_observables,
    )
    self._walker.observables.add_observable(
      "time_in_clip", base_observable.Generic(self.get_normalized_time_in_clip)
    )

  def after_step(self, physics, random_state):
    super().after_step(physics, random_state)
    self._time_step += 1
    self._walker_features = utils.get_features(physics, self._walker, props=self._props)
    self._walker_joints = np.array(physics.bind(self._walker.mocap_joints).qpos)
    self._current_reference_features = {
      k: v[self._time_step].copy() for k, v in self._clip_reference_features.items()
    }
    self._compute_termination_error()
    self._end_mocap = self._time_step == self._last_step
    self._reference_observations.update(self.get_all_reference_observations(physics))
    self._update_ghost(physics)

  def get_normalized_time_in_clip(self, physics):
    """The time since the clip's start, as a fraction of the clip's duration."""
    return np.array([(self._current_start_time + physics.time()) / self._current_clip.duration])

  @property
  def name(self):
    return "MultiClipMocapTracking"


class PlaybackTask(ReferencePosesTask):
  """Plays the dataset's clips one after another (one per episode, from their start), the
  walker (and the props) posed from the data at every step; the reward is 0.

  dm_control's fails on clips with props (it drops their reference features, then reads them
  for the observations); here they are kept and the props follow the data.
  """

  def __init__(
    self,
    walker,
    arena,
    ref_path,
    dataset,
    proto_modifier=None,
    physics_timestep=DEFAULT_PHYSICS_TIMESTEP,
  ):
    super().__init__(
      walker=walker,
      arena=arena,
      ref_path=ref_path,
      ref_steps=(1,),
      dataset=dataset,
      termination_error_threshold=np.inf,
      physics_timestep=physics_timestep,
      always_init_at_clip_start=True,
      proto_modifier=proto_modifier,
    )
    self._current_clip_index = -1

  def _get_clip_to_track(self, random_state):
    self._current_clip_index = (self._current_clip_index + 1) % self._num_clips
    start_step = self._dataset.start_steps[self._current_clip_index]
    _log.info(
      "Showing clip %d of %d, clip id %s",
      self._current_clip_index + 1,
      self._num_clips,
      self._dataset.ids[self._current_clip_index],
    )
    self._current_clip = self._load_clip(self._current_clip_index)
    self._clip_reference_features = self._current_clip.as_dict()
    self._strip_reference_prefix()
    self._start_clip(start_step)

  def after_step(self, physics, random_state):
    super().after_step(physics, random_state)
    self._time_step += 1
    self._set_walker(physics)
    self._end_mocap = self._time_step == self._last_step

  def get_reward(self, physics):
    return 0.0

  @property
  def name(self):
    return "PlaybackTask"


__all__ = ["ReferencePosesTask", "MultiClipMocapTracking", "PlaybackTask", "types"]
