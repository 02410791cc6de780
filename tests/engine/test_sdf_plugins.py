"""The SDF plugins' callbacks reached from jitted code as the collision code reaches them
(plugin_call's callers through m.plugin_fn): the same numbers as the shapes' functions."""

import numpy as np
import pytest
from numba import njit

import engine
from engine import plugin_call
from engine.collision import sdf_shapes


@njit
def _probe(m, d, instance, point, grad):
  fn = m.plugin_fn[instance]
  dist = plugin_call.call_sdf_distance(fn[plugin_call.FN_SDF_DISTANCE], m, d, instance, point)
  plugin_call.call_sdf_gradient(fn[plugin_call.FN_SDF_GRADIENT], m, d, instance, point, grad)
  return dist


@pytest.mark.parametrize(
  "name, config",
  [
    ("mujoco.sdf.torus", {"radius1": ".3", "radius2": ".1"}),
    ("mujoco.sdf.bolt", {}),
    ("mujoco.sdf.gear", {"teeth": "12"}),
    ("mujoco.sdf.bowl", {"height": ".3"}),
  ],
)
def test_callbacks_match_the_shapes(name, config):
  cfg = "".join(f'<config key="{k}" value="{v}"/>' for k, v in config.items())
  m = engine.MjModel.from_xml_string(
    f'<mujoco><extension><plugin plugin="{name}"><instance name="s">{cfg}</instance></plugin>'
    "</extension></mujoco>"
  )
  d = engine.MjData(m)
  names, _ = sdf_shapes.ATTRIBUTES[name]
  params = sdf_shapes.SHAPES[name].parse(config)
  assert m.plugin_param.tolist() == [sdf_shapes.SHAPE_IDS[name], *params.tolist()]
  rng = np.random.default_rng(0)
  shape = sdf_shapes.SHAPE_IDS[name]
  for _ in range(50):
    x = rng.uniform(-1, 1, 3)
    grad, want = np.zeros(3), np.zeros(3)
    dist = _probe(m._struct, d._struct, 0, x, grad)
    sdf_shapes.gradient(shape, x[0], x[1], x[2], params, want)
    assert dist == sdf_shapes.distance(shape, x[0], x[1], x[2], params)
    assert grad.tolist() == want.tolist()
