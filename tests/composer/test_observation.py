"""The observation system against dm_control's: buffers, delays, schedules, aggregators, specs."""

import collections
import contextlib

import numpy as np
import pytest
from dm_control.composer.observation import obs_buffer as dm_obs_buffer
from dm_control.composer.observation import updater as dm_updater
from dm_control.composer.observation.observable import base as dm_base
from dm_control.composer.variation import distributions as dm_distributions
from dm_env import specs

from composer.observation import obs_buffer
from composer.observation import updater
from composer.observation.observable import base


class FakePhysics:
  """Counts physics steps; an observation is a function of the count."""

  def __init__(self):
    self.count = 0

  def step(self):
    self.count += 1

  def time(self):
    return self.count * 0.002

  @contextlib.contextmanager
  def suppress_physics_errors(self):
    yield


class _Sampler:
  """Plain callable drawing from its own seeded stream (works with both updaters)."""

  def __init__(self, seed, low, high):
    self._rng = np.random.RandomState(seed)
    self._low, self._high = low, high

  def __call__(self):
    return int(self._rng.randint(self._low, self._high))


def _observables(module, options):
  out = collections.OrderedDict()
  for i, option in enumerate(options):
    option = dict(option)
    for key in ("update_interval", "delay"):
      if isinstance(option.get(key), tuple):
        option[key] = _Sampler(i, *option[key])
    obs = module.Generic(lambda physics, i=i: np.array([physics.count, 10 * i + 1.5]), **option)
    obs.enabled = True
    out[f"obs{i}"] = obs
  return out


OPTIONS = [
  {},
  {"buffer_size": 3},
  {"buffer_size": 2, "delay": 3},
  {"buffer_size": 4, "delay": 7, "update_interval": 2},
  {"buffer_size": 3, "update_interval": 3, "aggregator": "max"},
  {"buffer_size": 5, "aggregator": "mean", "delay": 1},
  {"buffer_size": 2, "update_interval": (1, 4), "delay": (0, 6)},
  {"buffer_size": 6, "delay": (2, 9), "aggregator": "sum"},
  {"buffer_size": 3, "aggregator": lambda x: x[-1] - x[0]},
]


def _run(updater_module, observable_module, steps_per_control, strip, pad, n_steps=15):
  physics = FakePhysics()
  up = updater_module.Updater(
    _observables(observable_module, OPTIONS), steps_per_control, strip, pad
  )
  up.reset(physics, np.random.RandomState(0))
  observations = [up.get_observation()]
  for _ in range(n_steps):
    up.prepare_for_next_control_step()
    for i in range(steps_per_control):
      physics.step()
      if i < steps_per_control - 1:
        up.update()
    up.update()
    observations.append(up.get_observation())
  return up.observation_spec(), observations


@pytest.mark.parametrize("steps_per_control", [1, 3, 5])
@pytest.mark.parametrize("strip,pad", [(False, False), (True, True)])
def test_updater_matches_dm_control(steps_per_control, strip, pad):
  """Every observation over 15 control steps equals dm_control's (values are step counts,
  so this checks which reading each buffer row holds), and the specs are equal."""
  ours_spec, ours = _run(updater, base, steps_per_control, strip, pad)
  ref_spec, ref = _run(dm_updater, dm_base, steps_per_control, strip, pad)
  assert ours_spec == ref_spec
  for mine, theirs in zip(ours, ref):
    assert list(mine) == list(theirs)
    for key in theirs:
      assert mine[key].dtype == theirs[key].dtype
      np.testing.assert_array_equal(mine[key], theirs[key], err_msg=key)


def test_corruptor_noise_is_drawn_in_dm_controls_order():
  """Observables with the default options (read only at a control step's end, without a
  schedule) and with other options take their readings in the observables' order: noise drawn
  from the shared random state is dm_control's, reading for reading."""

  def noise(value, random_state):
    return value + random_state.uniform(size=np.shape(value))

  def run(updater_module, observable_module):
    physics = FakePhysics()
    options = [
      {"corruptor": noise},
      {"buffer_size": 2, "corruptor": noise},
      {"corruptor": noise},
      {"update_interval": 2, "corruptor": noise},
    ]
    up = updater_module.Updater(_observables(observable_module, options), 3)
    up.reset(physics, np.random.RandomState(0))
    out = [up.get_observation()]
    for _ in range(6):
      up.prepare_for_next_control_step()
      for _ in range(3):
        physics.step()
        up.update()
      out.append(up.get_observation())
    return out

  ours, theirs = run(updater, base), run(dm_updater, dm_base)
  for mine, ref in zip(ours, theirs):
    for key in ref:
      np.testing.assert_array_equal(mine[key], ref[key], err_msg=key)
  assert not np.array_equal(ours[-1]["obs0"], ours[-2]["obs0"])  # fresh noise at each step


def test_variation_options_draw_from_the_environment_random_state():
  """A delay that takes `random_state` is drawn from the updater's random state, as a
  dm_control Variation is."""

  def run(module, delay):
    physics = FakePhysics()
    obs = module.Generic(lambda p: np.array([p.count]), buffer_size=3, delay=delay)
    obs.enabled = True
    up = module is base and updater or dm_updater
    u = up.Updater({"x": obs}, 2)
    u.reset(physics, np.random.RandomState(5))
    out = []
    for _ in range(10):
      u.prepare_for_next_control_step()
      physics.step()
      u.update()
      physics.step()
      u.update()
      out.append(u.get_observation()["x"])
    return np.array(out)

  from composer.variation import distributions

  ours = run(base, lambda random_state: random_state.randint(0, 5))
  theirs = run(dm_base, dm_distributions.UniformInteger(0, 5))
  np.testing.assert_array_equal(ours, theirs)
  np.testing.assert_array_equal(run(base, distributions.UniformInteger(0, 5)), theirs)
  assert len(np.unique(ours)) > 5  # the readings moved on


def test_buffer_matches_dm_control_with_out_of_order_arrivals():
  rng = np.random.RandomState(1)
  mine = obs_buffer.Buffer(3, (2,), np.float64)
  ref = dm_obs_buffer.Buffer(3, (2,), np.float64)
  for t in range(40):
    delay = int(rng.randint(0, 6))
    value = rng.normal(size=2)
    mine.insert(t, delay, value)
    ref.insert(t, delay, value)
    np.testing.assert_array_equal(mine.read(t), ref.read(t))
  with pytest.raises(ValueError, match="should not be negative"):
    mine.insert(41, -1, np.zeros(2))


def test_drop_unobserved_matches_dm_control():
  rng = np.random.RandomState(2)
  for _ in range(50):
    size = int(rng.randint(1, 4))
    mine = obs_buffer.Buffer(size, (), np.float64)
    ref = dm_obs_buffer.Buffer(size, (), np.float64)
    for t in range(int(rng.randint(0, 5))):
      d = int(rng.randint(1, 8))
      mine.insert(t, d, 0.0)
      ref.insert(t, d, 0.0)
    start = 5
    schedule = [(start + k, int(rng.randint(0, 6))) for k in range(int(rng.randint(1, 12)))]
    mine_schedule, ref_schedule = collections.deque(schedule), collections.deque(schedule)
    interval = int(rng.randint(1, 5))
    mine.drop_unobserved_upcoming_items(mine_schedule, interval)
    ref.drop_unobserved_upcoming_items(ref_schedule, interval)
    assert list(mine_schedule) == list(ref_schedule)


def test_bounded_spec_with_aggregators():
  """Bounds survive bounds-preserving aggregators and no aggregator; 'sum' drops them."""

  class Bounded(base.Generic):
    @property
    def array_spec(self):
      return specs.BoundedArray((2,), np.float64, -1.0, 1.0)

  out = {}
  for name, aggregator in (("none", None), ("max", "max"), ("sum", "sum")):
    obs = Bounded(lambda p: np.zeros(2), buffer_size=3, aggregator=aggregator)
    obs.enabled = True
    out[name] = obs
  up = updater.Updater(out)
  up.reset(FakePhysics(), np.random.RandomState(0))
  spec = up.observation_spec()
  assert spec["none"] == specs.BoundedArray((3, 2), np.float64, -1.0, 1.0, name="none")
  assert spec["max"] == specs.BoundedArray((2,), np.float64, -1.0, 1.0, name="max")
  assert spec["sum"] == specs.Array((2,), np.float64, name="sum")


def test_observable_options():
  obs = base.Generic(lambda p: np.ones(2), aggregator="median")
  assert obs.aggregator(np.array([[1.0], [5.0], [2.0]])) == 2.0
  obs.configure(buffer_size=4, delay=2, update_interval=3)
  assert (obs.buffer_size, obs.delay, obs.update_interval) == (4, 2, 3)
  with pytest.raises(AttributeError, match="Cannot add attribute"):
    obs.configure(colour="red")
  with pytest.raises(KeyError, match="Unrecognized aggregator name"):
    obs.aggregator = "mode"
  noisy = base.Generic(
    lambda p: np.ones(2), corruptor=lambda v, random_state: v + random_state.uniform()
  )
  rs = np.random.RandomState(0)
  value = noisy(None, rs)
  assert value[0] == value[1] == 1 + np.random.RandomState(0).uniform()
  with pytest.raises(RuntimeError, match="`reset` must be called"):
    updater.Updater({"x": obs}).get_observation()
  with pytest.raises(ValueError, match="should be a dict"):
    updater.Updater([obs])
