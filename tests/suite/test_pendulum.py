"""pendulum: the Physics accessors against dm_control."""

from tests.suite import state_parity


def test_physics_methods_match_dm_control():
  names = state_parity.compare_physics_methods("pendulum", "swingup")
  assert names == ["pole_vertical", "angular_velocity", "pole_orientation"]
