"""The rewards of the reference-pose tasks, by name: `get_reward(name)` and
`get_reward_channels(name)`.

Each reward function takes keyword arguments (the task passes `termination_error`,
`termination_error_threshold`, `reference_features`, `walker_features` and
`reference_observations`) and returns a `RewardFnOutput`: the reward, debugging terms and the
terms that make it up (by name, sorted).
"""

import collections

import numpy as np

RewardFnOutput = collections.namedtuple("RewardFnOutput", ["reward", "debug", "reward_terms"])


def bounded_quat_dist(source, target):
  """The angle between the rotations of quaternions `source` and `target` (shape (..., 4)),
  halved: in [0, pi/2], shape (..., 1). The inputs are normalised in place."""
  source /= np.linalg.norm(source, axis=-1, keepdims=True)
  target /= np.linalg.norm(target, axis=-1, keepdims=True)
  cosine = np.minimum(1.0, 2 * np.einsum("...i,...i", source, target) ** 2 - 1)
  return 0.5 * np.arccos(cosine)[..., np.newaxis]


def sort_dict(d):
  return collections.OrderedDict(sorted(d.items()))


def compute_squared_differences(walker_features, reference_features, exclude_keys=()):
  """For each feature (but `exclude_keys`): the summed squared difference, or for keys naming
  quaternions the squared `bounded_quat_dist` (summed over several quaternions)."""
  differences = {}
  for key in walker_features:
    if key in exclude_keys:
      continue
    if "quaternion" not in key:
      differences[key] = np.sum((walker_features[key] - reference_features[key]) ** 2)
    elif "quaternions" in key:
      differences[key] = np.sum(
        bounded_quat_dist(walker_features[key], reference_features[key]) ** 2
      )
    else:
      differences[key] = bounded_quat_dist(walker_features[key], reference_features[key]) ** 2
  return differences


def termination_reward_fn(termination_error, termination_error_threshold, **unused_kwargs):
  """1 - error / threshold (in [0, 1] while the episode goes on)."""
  reward = 1 - termination_error / termination_error_threshold
  debug = {
    "termination_error": termination_error,
    "termination_error_threshold": termination_error_threshold,
  }
  return RewardFnOutput(reward=reward, debug=debug, reward_terms=sort_dict({"termination": reward}))


def debug(reference_features, walker_features, **unused_kwargs):
  return RewardFnOutput(
    reward=0.0,
    reward_terms=None,
    debug=compute_squared_differences(walker_features, reference_features),
  )


def multi_term_pose_reward_fn(walker_features, reference_features, **unused_kwargs):
  """Weighted exponentials of the centre-of-mass, joint-velocity, appendage and body-rotation
  errors (weights 0.1, 1, 0.15, 0.65)."""
  d = compute_squared_differences(walker_features, reference_features)
  terms = {
    "center_of_mass": 0.1 * np.exp(-10 * d["center_of_mass"]),
    "joints_velocity": 1.0 * np.exp(-0.1 * d["joints_velocity"]),
    "appendages": 0.15 * np.exp(-40.0 * d["appendages"]),
    "body_quaternions": 0.65 * np.exp(-2 * d["body_quaternions"]),
  }
  return RewardFnOutput(reward=sum(terms.values()), debug=terms, reward_terms=sort_dict(terms))


def comic_reward_fn(
  termination_error,
  termination_error_threshold,
  walker_features,
  reference_features,
  **unused_kwargs,
):
  """The mean of `termination_reward_fn` and `multi_term_pose_reward_fn` (the reward of
  Hasenclever et al., CoMic, ICML 2020)."""
  termination, debug_terms, termination_terms = termination_reward_fn(
    termination_error, termination_error_threshold
  )
  pose, pose_debug, pose_terms = multi_term_pose_reward_fn(walker_features, reference_features)
  debug_terms.update(pose_debug)
  terms = {k: 0.5 * v for k, v in termination_terms.items()}
  terms.update({k: 0.5 * v for k, v in pose_terms.items()})
  return RewardFnOutput(
    reward=0.5 * termination + 0.5 * pose, debug=debug_terms, reward_terms=sort_dict(terms)
  )


_REWARD_FN = {
  "termination_reward": termination_reward_fn,
  "multi_term_pose_reward": multi_term_pose_reward_fn,
  "comic": comic_reward_fn,
}

_REWARD_CHANNELS = {
  "termination_reward": ("termination",),
  "multi_term_pose_reward": ("appendages", "body_quaternions", "center_of_mass", "joints_velocity"),
  "comic": ("appendages", "body_quaternions", "center_of_mass", "termination", "joints_velocity"),
}


def _check(reward_key):
  if reward_key not in _REWARD_FN:
    raise ValueError(
      f"Requested loss {reward_key}, which is not a valid option (the rewards "
      f"are {', '.join(_REWARD_FN)})."
    )


def get_reward(reward_key):
  """The reward function named `reward_key`."""
  _check(reward_key)
  return _REWARD_FN[reward_key]


def get_reward_channels(reward_key):
  """The names of the reward terms of `reward_key`."""
  _check(reward_key)
  return _REWARD_CHANNELS[reward_key]
