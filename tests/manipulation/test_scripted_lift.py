"""examples/jaco_reach.py's IK-scripted policy with our default Jaco (primitive shapes) and with
dm_control's (Kinova's meshes): once the arm touches the brick the two simulations part ways,
so what must agree is the outcome (the brick lifted, full reward) and that contacts stay as
shallow as dm_control's."""

import importlib.util
import pathlib

import numpy as np
import pytest
from dm_control import manipulation as dm_manipulation  # noqa: E402
from dm_control.utils import inverse_kinematics as dm_inverse_kinematics  # noqa: E402

from suite import manipulation  # noqa: E402
from tests.locomotion import task_parity  # noqa: F401  (sets MUJOCO_GL for dm_control)

_EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "jaco_reach.py"


def _example():
  spec = importlib.util.spec_from_file_location("jaco_reach", _EXAMPLE)
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


def _run(example, env, **kwargs):
  """(rewards, the deepest contact penetration seen after any step) of one scripted episode."""
  deepest = [0.0]
  step = env.step

  def recording_step(action):
    timestep = step(action)
    data = env.physics.data
    if data.ncon:
      deepest[0] = min(deepest[0], float(np.min(np.asarray(data.contact.dist))))
    return timestep

  env.step = recording_step
  return example.run(env, verbose=False, **kwargs), deepest[0]


@pytest.mark.parametrize("seed", [0, 1])
def test_scripted_lift_succeeds_as_in_dm_control(seed):
  example = _example()
  ours, ours_deepest = _run(example, manipulation.load("lift_brick_features", seed=seed))
  theirs, theirs_deepest = _run(
    example, dm_manipulation.load("lift_brick_features", seed=seed), ik=dm_inverse_kinematics
  )
  assert theirs[-1] == 1.0 and ours[-1] == 1.0
  # the brick leaves the ground at about the same time: returns within two steps' reward
  assert abs(sum(ours) - sum(theirs)) < 2.0
  # no penetration beyond dm_control's own (about 1.3 mm while the fingers squeeze the brick)
  assert ours_deepest > min(theirs_deepest, -1e-3) - 5e-4
