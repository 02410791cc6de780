"""The CMU humanoid (V2020) tracking motion-capture clips (dm_control's cmu_2020_tracking)."""

import os

import composer
from suite.locomotion import arenas
from suite.locomotion.mocap import cmu_mocap_data
from suite.locomotion.tasks.reference_pose import tracking
from suite.locomotion.walkers import cmu_humanoid

# the HDF5 file to track instead of the CMU data (e.g. a file with a few clips)
REF_PATH_ENV = "NUMJOCO_MOCAP_FILE"


class MocapDataMissingError(FileNotFoundError):
  """The motion-capture data is neither given nor cached (and is not downloaded)."""


def default_ref_path(download=True):
  """`$NUMJOCO_MOCAP_FILE` if set, else the CMU 2020 data (downloaded if `download`)."""
  path = os.environ.get(REF_PATH_ENV)
  if path:
    if not os.path.exists(path):
      raise MocapDataMissingError(f"{REF_PATH_ENV}={path}: no such file")
    return path
  cached = cmu_mocap_data.get_cached_path("2020")
  if cached or download:
    return cached or cmu_mocap_data.get_path_for_cmu("2020")
  raise MocapDataMissingError(
    "the CMU motion-capture data (about 480 MB) is not in "
    f"{cmu_mocap_data.cache_dir()}: allow its download, or set {REF_PATH_ENV} to an HDF5 file "
    "of trajectories in dm_control's layout"
  )


def _dataset(ref_path):
  """'walk_tiny' for the CMU data; for a file of `$NUMJOCO_MOCAP_FILE`, its clips of walk_tiny,
  or all its clips if it has none of them."""
  if not os.environ.get(REF_PATH_ENV):
    return "walk_tiny"
  from suite.locomotion.mocap import loader
  from suite.locomotion.tasks.reference_pose import datasets
  from suite.locomotion.tasks.reference_pose import types

  keys = loader.HDF5TrajectoryLoader(ref_path).keys()
  walk_tiny = [key for key in datasets.DATASETS["walk_tiny"].ids if key in keys]
  return types.ClipCollection(ids=tuple(walk_tiny or keys))


def cmu_humanoid_tracking(random_state=None):
  """The position-controlled CMU humanoid (V2020) tracks walking clips on a floor (CoMic
  reward, 5 steps of lookahead, 30 s episodes).

  The clips are dm_control's 'walk_tiny' subset of the CMU data (about 2 minutes of walking,
  downloaded on first use), or those of the HDF5 file `$NUMJOCO_MOCAP_FILE` (see `_dataset`).
  """
  ref_path = default_ref_path()
  task = tracking.MultiClipMocapTracking(
    walker=cmu_humanoid.CMUHumanoidPositionControlledV2020,
    arena=arenas.Floor(),
    ref_path=ref_path,
    dataset=_dataset(ref_path),
    ref_steps=(1, 2, 3, 4, 5),
    min_steps=10,
    reward_type="comic",
  )
  return composer.Environment(
    time_limit=30, task=task, random_state=random_state, strip_singleton_obs_buffer_dim=True
  )


def cmu_humanoid_mocap_playback(random_state=None):
  """The CMU humanoid (V2020) plays the motion-capture clips back, one per episode, posed from
  the data at every step (actions are ignored, the reward is 0): for looking at the data in the
  viewer.

  The clips are those of `cmu_humanoid_tracking` (see `_dataset`). dm_control has the task
  (`PlaybackTask`) but no builder for it; this one is ours.
  """
  ref_path = default_ref_path()
  task = tracking.PlaybackTask(
    walker=cmu_humanoid.CMUHumanoidPositionControlledV2020,
    arena=arenas.Floor(),
    ref_path=ref_path,
    dataset=_dataset(ref_path),
  )
  return composer.Environment(
    task=task, random_state=random_state, strip_singleton_obs_buffer_dim=True
  )
