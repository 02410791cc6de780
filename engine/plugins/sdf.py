"""MuJoCo's SDF plugins (`mujoco.sdf.torus`, `bolt`, `nut`, `gear`, `bowl`) on the plugin API:
their signed distance and gradient as the instances' `sdf_distance` / `sdf_gradient` callbacks
(the shapes themselves are in sdf_shapes.py). Parameters of an instance: the shape id, then the
shape's config values in MuJoCo's attribute order.

Groundwork: SDF collision (MuJoCo's mjc_SDF / mjc_MeshSDF) and the compiler's `<mesh><plugin>` /
`<geom type="sdf">` do not use them yet, so these plugins stay unregistered (FIRST_PARTY does
not list this module) and models with SDF geoms are refused as unsupported.
"""

import numpy as np

from engine import plugin_call
from engine.plugins import config_values
from engine.plugins import sdf_shapes


def _init(m, instance):
  """[shape id, config values with MuJoCo's defaults]."""
  name = m._extras["plugin_names"][instance]
  names, _ = sdf_shapes.ATTRIBUTES[name]
  params = sdf_shapes.SHAPES[name].parse(config_values(m, instance, names))
  return np.concatenate(([sdf_shapes.SHAPE_IDS[name]], params))


def sdf_distance(m, d, instance, point):
  p = m.plugin_param[m.plugin_paramadr[instance]:]
  return sdf_shapes.distance(int(p[0]), point[0], point[1], point[2], p[1:])


def sdf_gradient(m, d, instance, point, gradient):
  p = m.plugin_param[m.plugin_paramadr[instance]:]
  sdf_shapes.gradient(int(p[0]), point[0], point[1], point[2], p[1:], gradient)


SPECS = [dict(name=name, capabilities=plugin_call.mjPLUGIN_SDF,
              attributes=sdf_shapes.ATTRIBUTES[name][0], init=_init,
              sdf_distance=sdf_distance, sdf_gradient=sdf_gradient)
         for name in sdf_shapes.SHAPES]
