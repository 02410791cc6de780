"""finger: the compiled model, the per-task model edits, the contact-free start, and the
rewards at sampled states against dm_control."""

import numpy as np
import pytest

from suite import finger
from tests.suite import state_parity


def test_compiled_totals():
  physics = finger.Physics.from_xml_string(*finger.get_model_and_assets())
  state_parity.assert_totals(
    physics.model,
    nq=3,
    nv=3,
    nu=2,
    nbody=4,
    njnt=3,
    ngeom=8,
    nsite=4,
    ntendon=0,
    nsensordata=22,
    mass=3.979053,
    meaninertia=0.028202,
  )


@pytest.mark.parametrize("task", ["spin", "turn_easy", "turn_hard"])
def test_model_edits(task):
  state_parity.compare_model_edits(
    "finger", task, ["site_pos", "site_size", "site_rgba", "dof_damping"]
  )


def test_spin_hides_sites_and_damps_less():
  env = finger.spin(random=0)
  env.reset()
  assert env.physics.named.model.site_rgba[["target", "tip"], 3].tolist() == [0, 0]
  assert env.physics.named.model.dof_damping["hinge"] == 0.03


def test_start_is_contact_free():
  env = finger.turn_hard(random=0)
  for _ in range(10):
    env.reset()
    assert env.physics.data.ncon == 0


def test_no_contact_free_start_raises():
  physics = finger.Physics.from_xml_string(*finger.get_model_and_assets())
  physics.named.model.body_pos["spinner"] = [-0.2, 0, 0.4]  # the spinner on the finger's base
  with pytest.raises(RuntimeError, match="collision-free"):
    finger._set_random_joint_angles(physics, np.random.RandomState(0), max_attempts=3)


@pytest.mark.parametrize("task", ["spin", "turn_easy", "turn_hard"])
def test_rewards_at_sampled_states(task):
  def sample(rng):
    limit = np.deg2rad(110)
    qpos = np.array(
      [rng.uniform(-limit, limit), rng.uniform(-limit, limit), rng.uniform(-np.pi, np.pi)]
    )
    return qpos, rng.randn(3) * [1, 1, 20], rng.uniform(-1, 1, 2)

  rewards = state_parity.compare_at_states("finger", task, sample)
  assert (rewards == 1).any() and (rewards == 0).any()


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("finger", "turn_hard")
  assert names == [
    "touch",
    "hinge_velocity",
    "tip_position",
    "bounded_position",
    "velocity",
    "target_position",
    "to_target",
    "dist_to_target",
  ]
