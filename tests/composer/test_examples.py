"""The Composer examples run (as CI tests) and behave as described."""

import numpy as np

from examples import composer_run_to_target as example


def test_example_a_runs_to_target():
  env = example.make_environment(seed=0, time_limit=0.2)
  assert example.main(["--steps", "5"]) > 0
  first = env.reset()
  assert sorted(first.observation) == [
    "creature/joint_positions",
    "creature/joint_velocities",
    "creature/torso_position",
    "target_position",
  ]
  np.testing.assert_allclose(
    first.observation["creature/torso_position"][0], [0, 0, 0.3], atol=1e-12
  )
  steps = [env.step(np.zeros(4)) for _ in range(10)]
  assert steps[9].step_type.last()  # 0.2 s time limit at 10 control steps of 0.02 s
  assert all(0 < s.reward <= 1 for s in steps)
  target = first.observation["target_position"][0]
  np.testing.assert_allclose(np.linalg.norm(target[:2]), 2.0)
  env.reset()
  assert env.num_compilations == 1  # the model does not change between episodes


def test_example_b_varies_sizes_and_delays_position():
  env = example.make_environment(vary_sizes=True, seed=1)
  creature = env.task.root_entity.iter_entities(exclude_self=True).__next__()
  sizes = []
  for _ in range(3):
    first = env.reset()
    sizes.append((creature.torso_geom.size[0], creature.legs[0].fromto[3]))
    # delayed by two physics steps, padded with zeros before the first reading arrives
    np.testing.assert_array_equal(first.observation["creature/torso_position"], 0)
    step = env.step(np.zeros(4))
    position = step.observation["creature/torso_position"][0]
    assert abs(position[2] - 0.3) < 0.05 and np.any(position != 0)
  assert len(set(sizes)) == 3
  assert all(0.08 <= torso <= 0.12 and 0.175 <= leg <= 0.325 for torso, leg in sizes)
  assert env.num_compilations == 1  # the new sizes are edited into the compiled model
