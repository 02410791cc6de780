"""Walker initializers against dm_control 1.0.50's: the same walker and random state give the
same pose."""

import numpy as np
import pytest

from tests.locomotion import twin_walkers as tw


def _pose_after(ours, make_initializers, seed=0, upright=False):
  """qpos and qvel of the critter, thrown into a messy state, after `reinitialize_pose`."""
  ns = tw.namespace(ours)
  walker = tw.critter_class(ns)(initializer=make_initializers(ns), upright=upright)
  arena = tw.arena_with(ns, walker)
  physics = ns.mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  messy = np.random.RandomState(99)
  physics.data.qpos[:] = messy.uniform(-0.5, 0.5, physics.model.nq)
  physics.data.qvel[:] = messy.uniform(-1, 1, physics.model.nv)
  if not ours:
    np.random.seed(seed)  # dm_control's RandomlySampledInitializer draws from numpy's global RNG
  walker.reinitialize_pose(physics, np.random.RandomState(seed))
  return physics.data.qpos.copy(), physics.data.qvel.copy()


def _assert_same_pose(make_initializers, **kwargs):
  mine, theirs = (_pose_after(ours, make_initializers, **kwargs) for ours in (True, False))
  for got, want in zip(mine, theirs):
    np.testing.assert_array_equal(got, want)
  return mine


@pytest.mark.parametrize("upright", [False, True])
def test_upright_initializer_matches_dm_control(upright):
  """The upright pose (qpos0 at the origin, or the walker's own pose, its quaternion
  normalised) with the root at rest; joint velocities untouched."""
  qpos, qvel = _assert_same_pose(lambda ns: None, upright=upright)
  np.testing.assert_array_equal(qvel[:6], 0)
  if upright:
    quat = np.array(tw.UPRIGHT_XQUAT) / np.linalg.norm(tw.UPRIGHT_XQUAT)
    np.testing.assert_allclose(
      qpos, np.concatenate([tw.UPRIGHT_XPOS, quat, tw.UPRIGHT_QPOS]), rtol=0, atol=1e-15
    )
  else:
    np.testing.assert_array_equal(qpos, [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])


def test_noop_initializer_leaves_the_state():
  qpos, qvel = _assert_same_pose(lambda ns: ns.initializers.NoOpInitializer())
  messy = np.random.RandomState(99)
  np.testing.assert_array_equal(qpos, messy.uniform(-0.5, 0.5, 11))
  np.testing.assert_array_equal(qvel, messy.uniform(-1, 1, 10))


def _lift_knees(ns):
  """An initializer of stack `ns` that bends the knees (after another has set the pose)."""

  class LiftKnees(ns.initializers.WalkerInitializer):
    def initialize_pose(self, physics, walker, random_state):
      knees = [walker.mjcf_model.find("joint", f"{side}_knee") for side in ("left", "right")]
      physics.bind(knees).qpos = random_state.uniform(-1, 0, 2)

  return LiftKnees()


def test_initializers_apply_in_order():
  qpos, _ = _assert_same_pose(lambda ns: [ns.initializers.UprightInitializer(), _lift_knees(ns)])
  assert np.all(qpos[[8, 10]] < 0) and np.all(qpos[[7, 9]] == 0)


def _bend_knees(ns):
  """An initializer of stack `ns` that sets the knees to fixed angles (draws nothing)."""

  class BendKnees(ns.initializers.WalkerInitializer):
    def initialize_pose(self, physics, walker, random_state):
      knees = [walker.mjcf_model.find("joint", f"{side}_knee") for side in ("left", "right")]
      physics.bind(knees).qpos = [-0.7, -0.2]

  return BendKnees()


@pytest.mark.parametrize("seed", range(6))
def test_randomly_sampled_initializer_matches_dm_control(seed):
  """Ours draws the choice from the episode's random state, dm_control from numpy's global
  generator: seeded alike, they pick the same initializer."""

  def sampled(ns):
    return ns.initializers.RandomlySampledInitializer(
      [ns.initializers.UprightInitializer(), ns.initializers.NoOpInitializer(), _bend_knees(ns)]
    )

  _assert_same_pose(sampled, seed=seed, upright=True)


def test_randomly_sampled_initializer_is_reproducible_and_leaves_the_global_generator():
  from suite.locomotion.walkers import initializers

  np.random.seed(5)
  before = np.random.get_state()[1].copy()
  choices = []
  for _ in range(2):
    picks = []
    candidates = [_Recorder(picks, k) for k in range(4)]
    sampler = initializers.RandomlySampledInitializer(candidates)
    rng = np.random.RandomState(11)
    for _ in range(20):
      sampler.initialize_pose(None, None, rng)
    choices.append(picks)
  assert choices[0] == choices[1] == list(np.random.RandomState(11).randint(0, 4, 20))
  assert set(choices[0]) == {0, 1, 2, 3}
  np.testing.assert_array_equal(np.random.get_state()[1], before)
  assert sampler.num_initializers == 4


class _Recorder:
  def __init__(self, picks, index):
    self._picks, self._index = picks, index

  def initialize_pose(self, physics, walker, random_state):
    self._picks.append(self._index)


def test_randomly_sampled_initializer_needs_initializers():
  from suite.locomotion.walkers import initializers

  with pytest.raises(ValueError, match="at least one initializer"):
    initializers.RandomlySampledInitializer([])


def test_walker_initializer_is_abstract():
  from suite.locomotion.walkers import initializers

  with pytest.raises(TypeError):
    initializers.WalkerInitializer()
