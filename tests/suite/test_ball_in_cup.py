"""ball_in_cup: the compiled model and the catch reward at sampled states against dm_control."""

import numpy as np

from suite import ball_in_cup
from tests.suite import state_parity


def test_compiled_totals():
  physics = ball_in_cup.Physics.from_xml_string(*ball_in_cup.get_model_and_assets())
  state_parity.assert_totals(
    physics.model,
    nq=4,
    nv=4,
    nu=2,
    nbody=3,
    njnt=4,
    ngeom=7,
    nsite=3,
    ntendon=1,
    nsensordata=0,
    mass=0.1306028,
    meaninertia=0.0653014,
  )


def test_reward_at_sampled_states():
  def sample(rng):
    # the ball near the cup's target box (its centre is 0.35 m above the ball's body frame)
    cup = rng.uniform(-0.1, 0.1, 2)
    ball = cup + [0, 0.35] + rng.uniform(-0.05, 0.05, 2)
    return np.concatenate((cup, ball)), rng.randn(4), rng.uniform(-1, 1, 2)

  rewards = state_parity.compare_at_states("ball_in_cup", "catch", sample)
  assert (rewards == 1).any() and (rewards == 0).any()


def test_initial_ball_is_contact_free():
  env = ball_in_cup.catch(random=3)
  for _ in range(10):
    env.reset()
    assert env.physics.data.ncon == 0
    np.testing.assert_array_equal(env.physics.data.qpos[:2], 0)


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("ball_in_cup", "catch")
  assert names == ["ball_to_target", "in_target"]
