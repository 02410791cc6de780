"""Helpers shared by the build modules: MjModel arrays with MuJoCo's dtypes."""

import numpy as np

from engine import fields as F

# dtypes of arrays the field table does not list (MuJoCo's)
_EXTRA_DTYPES = {
  'body_plugin': 'i4', 'geom_plugin': 'i4', 'actuator_plugin': 'i4', 'sensor_plugin': 'i4',
  'site_dataid': 'i4', 'tree_sleep_policy': 'i4', 'names_map': 'i4', 'paths': 'S',
  'hfield_pathadr': 'i4', 'mesh_pathadr': 'i4', 'tex_pathadr': 'i4', 'skin_pathadr': 'i4',
  'tex_contenttypeadr': 'i4', 'actuator_history': 'i4', 'actuator_historyadr': 'i4',
  'actuator_delay': 'f8', 'sensor_history': 'i4', 'sensor_historyadr': 'i4',
  'sensor_delay': 'f8', 'sensor_interval': 'f8', 'name_flexadr': 'i4', 'name_skinadr': 'i4',
  'name_pluginadr': 'i4', 'mesh_normaladr': 'i4', 'mesh_normalnum': 'i4',
  'mesh_texcoordadr': 'i4', 'mesh_texcoordnum': 'i4', 'mesh_graphadr': 'i4',
  'mesh_normal': 'f4', 'mesh_texcoord': 'f4', 'mesh_facenormal': 'i4',
  'mesh_facetexcoord': 'i4', 'mesh_graph': 'i4', 'mesh_extrema': 'i4', 'body_bvhadr': 'i4',
  'body_bvhnum': 'i4', 'bvh_aabb': 'f8', 'bvh_child': 'i4', 'bvh_depth': 'i4',
  'bvh_nodeid': 'i4',
}
_DTYPES = {f.name: f.dtype for f in F.MODEL_FIELDS}
_DTYPES.update({k: v for k, v in _EXTRA_DTYPES.items() if k not in _DTYPES})
_NP = {'f8': np.float64, 'f4': np.float32, 'i4': np.int32, 'i8': np.int64, 'u1': np.uint8,
       'b1': np.bool_}


def arr(arrays, name, data, shape=None):
  """Stores `data` as array `name` with MuJoCo's dtype (and 2-D shape if given)."""
  dt = _NP[_DTYPES[name]] if _DTYPES.get(name, 'f8') != 'S' else None
  a = np.array(data, dtype=dt)
  if shape is not None:
    a = a.reshape(shape)
  arrays[name] = a
