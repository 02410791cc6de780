"""MuJoCo's SDF plugins (`mujoco.sdf.torus`, `bolt`, `nut`, `gear`, `bowl`) on the plugin API:
their signed distance and gradient as the instances' `sdf_distance` / `sdf_gradient` callbacks
(the shapes themselves are in sdf_shapes.py). Parameters of an instance: the shape id, then the
shape's config values in MuJoCo's attribute order.

The compiler meshes `<mesh><plugin instance=.../></mesh>` from `sdf_aabb` and
`sdf_staticdistance` (engine/plugins/marching_cubes.py); collisions of `<geom type="sdf">` call
`sdf_distance` and `sdf_gradient` (engine/collision/sdf.py).
"""

import numpy as np

from engine import plugin_call
from engine.collision import sdf_shapes
from engine.plugins import config_values


def _init(m, instance):
  """[shape id, config values with MuJoCo's defaults]."""
  name = m._extras["plugin_names"][instance]
  names, _ = sdf_shapes.ATTRIBUTES[name]
  params = sdf_shapes.SHAPES[name].parse(config_values(m, instance, names))
  return np.concatenate(([sdf_shapes.SHAPE_IDS[name]], params))


def sdf_distance(m, d, instance, point):
  p = m.plugin_param[m.plugin_paramadr[instance] :]
  return sdf_shapes.distance(int(p[0]), point[0], point[1], point[2], p[1:])


def sdf_gradient(m, d, instance, point, gradient):
  p = m.plugin_param[m.plugin_paramadr[instance] :]
  sdf_shapes.gradient(int(p[0]), point[0], point[1], point[2], p[1:], gradient)


def _spec(name):
  shape = sdf_shapes.SHAPES[name]

  def aabb(config):
    box = np.empty(6)
    shape.aabb(shape.parse(config), box)
    return box

  def staticdistance(config, points):
    return sdf_shapes.distances(sdf_shapes.SHAPE_IDS[name], shape.parse(config), points)

  return dict(
    name=name,
    capabilities=plugin_call.mjPLUGIN_SDF,
    attributes=sdf_shapes.ATTRIBUTES[name][0],
    init=_init,
    sdf_distance=sdf_distance,
    sdf_gradient=sdf_gradient,
    sdf_aabb=aabb,
    sdf_staticdistance=staticdistance,
  )


SPECS = [_spec(name) for name in sdf_shapes.SHAPES]
