"""Variations against dm_control's: same draws from the same seeds, plus statistics."""

import numpy as np
import pytest
from dm_control.composer import variation as dm_variation
from dm_control.composer.variation import colors as dm_colors
from dm_control.composer.variation import deterministic as dm_deterministic
from dm_control.composer.variation import distributions as dm_distributions
from dm_control.composer.variation import math as dm_math
from dm_control.composer.variation import noises as dm_noises
from dm_control.composer.variation import rotations as dm_rotations
from dm_control.composer.variation import variation_broadcaster as dm_broadcaster

import mjcf
from composer import variation
from composer.variation import colors
from composer.variation import deterministic
from composer.variation import distributions
from composer.variation import math as vmath
from composer.variation import noises
from composer.variation import rotations
from composer.variation import variation_broadcaster


def _both(build):
  """build(distributions, noises, colors, rotations, deterministic, math) on both sides."""
  ours = build(distributions, noises, colors, rotations, deterministic, vmath)
  theirs = build(dm_distributions, dm_noises, dm_colors, dm_rotations, dm_deterministic, dm_math)
  return ours, theirs


CASES = {
  "uniform": lambda d, n, c, r, k, m: d.Uniform(-1, 2),
  "uniform_integer": lambda d, n, c, r, k, m: d.UniformInteger(3, 9),
  "uniform_choice": lambda d, n, c, r, k, m: d.UniformChoice([1.5, 2.5, 7.0]),
  "sphere": lambda d, n, c, r, k, m: d.UniformPointOnSphere(),
  "normal": lambda d, n, c, r, k, m: d.Normal(1.0, d.Uniform(0.1, 0.2, single_sample=True)),
  "lognormal": lambda d, n, c, r, k, m: d.LogNormal(0.1, 0.5),
  "exponential": lambda d, n, c, r, k, m: d.Exponential(2.0),
  "poisson": lambda d, n, c, r, k, m: d.Poisson(3.0),
  "bernoulli": lambda d, n, c, r, k, m: d.Bernoulli(0.3),
  "single": lambda d, n, c, r, k, m: d.Normal(single_sample=True),
  "arithmetic": lambda d, n, c, r, k, m: (2 * d.Uniform() - d.Normal()) ** 2 / 3 + 1,
  "negate_index": lambda d, n, c, r, k, m: -d.Uniform(0, [1, 2, 3], single_sample=True)[1],
  "additive": lambda d, n, c, r, k, m: n.Additive(d.Normal(scale=0.1)),
  "multiplicative": lambda d, n, c, r, k, m: n.Multiplicative(d.Uniform(0.9, 1.1), cumulative=True),
  "rgb": lambda d, n, c, r, k, m: c.RgbVariation(
    d.Uniform(single_sample=True), 0.5, d.Uniform(single_sample=True), 0.9
  ),
  "hsv": lambda d, n, c, r, k, m: c.HsvVariation(d.Uniform(single_sample=True), 0.5, 0.8),
  "gray": lambda d, n, c, r, k, m: c.GrayVariation(d.Uniform(single_sample=True)),
  "quaternion": lambda d, n, c, r, k, m: r.UniformQuaternion(),
  "axis_angle": lambda d, n, c, r, k, m: r.QuaternionFromAxisAngle(
    [0, 0, 1], d.Uniform(0, np.pi, single_sample=True)
  ),
  "premultiply": lambda d, n, c, r, k, m: r.QuaternionPreMultiply(r.UniformQuaternion()),
  "rotate": lambda d, n, c, r, k, m: r.QuaternionRotate(r.UniformQuaternion(), [1.0, 2.0, 3.0]),
  "sequence": lambda d, n, c, r, k, m: k.Sequence([1, d.Uniform(), 3]),
  "identity_plus": lambda d, n, c, r, k, m: k.Identity() + k.Constant(2.0),
  "norm": lambda d, n, c, r, k, m: m.Norm(d.Normal()) + m.Max(d.Uniform()),
  "log": lambda d, n, c, r, k, m: m.Log(d.Uniform(1, 2)),
  "dict": lambda d, n, c, r, k, m: {"b": d.Uniform(), "a": [d.Normal(), 4]},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_draws_as_dm_control(name):
  ours, theirs = _both(CASES[name])
  initial = np.array([0.5, 1.0, 2.0, 0.0]) if "quat" not in name else np.array([1.0, 0, 0, 0])
  if name in ("premultiply",):
    initial = np.array([np.cos(0.2), np.sin(0.2), 0.0, 0.0])
  rs_ours, rs_theirs = np.random.RandomState(4), np.random.RandomState(4)
  current_ours = current_theirs = initial
  for _ in range(5):
    current_ours = variation.evaluate(ours, initial, current_ours, rs_ours)
    current_theirs = dm_variation.evaluate(theirs, initial, current_theirs, rs_theirs)
    if isinstance(current_theirs, dict):
      assert list(current_ours) == list(current_theirs)
      np.testing.assert_allclose(current_ours["b"], current_theirs["b"], rtol=1e-14)
      np.testing.assert_allclose(current_ours["a"][0], current_theirs["a"][0], rtol=1e-14)
      current_ours = current_theirs = initial
    else:
      np.testing.assert_allclose(current_ours, current_theirs, rtol=1e-12, atol=1e-15)
  assert rs_ours.uniform() == rs_theirs.uniform()  # the same number of draws


def test_statistics():
  rs = np.random.RandomState(0)
  zeros = np.zeros(20000)
  normal = distributions.Normal(2.0, 0.5)(zeros, random_state=rs)
  assert abs(normal.mean() - 2.0) < 0.02 and abs(normal.std() - 0.5) < 0.02
  uniform = distributions.Uniform(1, 3)(zeros, random_state=rs)
  assert uniform.min() >= 1 and uniform.max() < 3 and abs(uniform.mean() - 2) < 0.02
  bernoulli = distributions.Bernoulli(0.25)(zeros, random_state=rs)
  assert set(np.unique(bernoulli)) == {0, 1} and abs(bernoulli.mean() - 0.25) < 0.02
  points = distributions.UniformPointOnSphere()(np.zeros(5000), random_state=rs)
  np.testing.assert_allclose(np.linalg.norm(points, axis=-1), 1.0)
  assert np.abs(points.mean(axis=0)).max() < 0.05
  walk = distributions.BiasedRandomWalk(stdev=0.3, timescale=5)
  values = np.array([walk(random_state=rs) for _ in range(30000)])
  assert abs(values.std() - 0.3) < 0.03
  lag = np.corrcoef(values[:-5], values[5:])[0, 1]
  assert abs(lag - np.exp(-1)) < 0.05
  quats = np.array([rotations.UniformQuaternion()(random_state=rs) for _ in range(2000)])
  np.testing.assert_allclose(np.linalg.norm(quats, axis=1), 1.0)
  with pytest.raises(ValueError, match="stdev"):
    distributions.BiasedRandomWalk(stdev=-1)


def test_broadcaster_shares_values_per_round():
  ours = variation_broadcaster.VariationBroadcaster(distributions.Uniform())
  theirs = dm_broadcaster.VariationBroadcaster(dm_distributions.Uniform())
  mine = [ours.get_proxy() for _ in range(3)]
  ref = [theirs.get_proxy() for _ in range(3)]
  rs1, rs2 = np.random.RandomState(1), np.random.RandomState(1)
  for order in ([0, 1, 2], [2, 0, 1], [1, 1, 0, 2, 0, 2]):
    got = [mine[i](random_state=rs1) for i in order]
    want = [ref[i](random_state=rs2) for i in order]
    assert got == want
  assert mine[0](random_state=rs1) == mine[1](random_state=rs1)


def _model(mjcf_module):
  model = mjcf_module.RootElement(model="m")
  body = model.worldbody.add("body", name="b")
  geom = body.add("geom", name="g", type="box", size=[0.1, 0.2, 0.3], rgba=[1, 0, 0, 1])
  body.add("joint", name="j", type="hinge")
  return model, geom


def test_variators_match_dm_control():
  from dm_control import mjcf as dm_mjcf

  results = []
  for mjcf_module, var, dist, noise in (
    (mjcf, variation, distributions, noises),
    (dm_mjcf, dm_variation, dm_distributions, dm_noises),
  ):
    model, geom = _model(mjcf_module)
    rs = np.random.RandomState(9)
    mjcf_variator = var.MJCFVariator()
    mjcf_variator.bind_attributes(
      geom, size=noise.Multiplicative(dist.Uniform(0.5, 1.5)), rgba=[0, 1, 0, 1]
    )
    sizes = []
    for _ in range(3):
      mjcf_variator.apply_variations(rs)
      sizes.append(np.array(geom.size))
    physics = mjcf_module.Physics.from_mjcf_model(model)
    physics_variator = var.PhysicsVariator()
    physics_variator.bind_attributes(geom, friction=noise.Additive(dist.Normal(0, 0.1)))
    frictions = []
    for _ in range(3):
      physics_variator.apply_variations(physics, rs)
      frictions.append(physics.bind(geom).friction.copy())
    mjcf_variator.bind_attributes(geom, size=None)
    mjcf_variator.apply_variations(rs)
    results.append((np.array(sizes), np.array(frictions), np.array(geom.rgba), np.array(geom.size)))
  for mine, theirs in zip(*results):
    np.testing.assert_allclose(mine, theirs, rtol=1e-14)
  sizes = results[0][0]
  assert np.all(sizes >= 0.05) and np.all(sizes <= 0.45)  # non-cumulative: from the original
