"""`mujoco.sensor.touch_grid`: a grid of taxels over a site's spherical field of view
(MuJoCo's plugin/sensor/touch_grid.cc, reimplemented).

Config: nchannel (1-6: normal force, two tangential forces, three torques), size (taxels
horizontally and vertically), fov (degrees, horizontal up to 180, vertical up to 90), gamma
(foveal deformation in [0, 1]: 0 linear bins, 1 quintic). Every contact of the site's weld body
lands in the taxel of its direction (azimuth, elevation in the site frame, looking down -z) and
adds its force and torque, in the site frame permuted to (normal, tangent, tangent), to that
taxel's channels. Output: nchannel * size[0] * size[1] numbers, channel-major, rows of size[0].
"""

import math

import numpy as np

from engine import plugin_call
from engine._jit import jit
from engine.enums import mjOBJ_SITE
from engine.enums import mjSENS_PLUGIN
from engine.enums import mjSTAGE_ACC
from engine.plugins import config_values
from engine.support import contact_force

ATTRIBUTES = ("nchannel", "size", "fov", "gamma")
# parameters: nchannel size0 size1 fov0 fov1 gamma sensor site
NCHANNEL, SIZE0, SIZE1, FOV0, FOV1, GAMMA, SENSOR, SITE = range(8)


def _numbers(text, key, count=None):
  """The numbers of a config value (as C's strtod reads them), count-checked."""
  try:
    values = [float(v) for v in text.split()]
  except ValueError:
    raise ValueError(f"mujoco.sensor.touch_grid: config {key}={text!r} is not numeric") from None
  if count is not None and len(values) != count:
    raise ValueError(f"mujoco.sensor.touch_grid: {key} needs {count} numbers, got {text!r}")
  return values


def _nchannel(config):
  values = _numbers(config["nchannel"], "nchannel")
  return int(values[0]) if values and int(values[0]) else 1


def _nsensordata(config, sensor_id):
  size = _numbers(config["size"], "size", 2)
  return _nchannel(config) * int(size[0]) * int(size[1])


def _init(m, instance):
  """Validated config (MuJoCo's checks and messages), the sensor and its site."""
  config = config_values(m, instance, ATTRIBUTES)
  nchannel = _nchannel(config)
  if not 1 <= nchannel <= 6:
    raise ValueError("nchannel must be between 1 and 6")
  size = [int(v) for v in _numbers(config["size"], "size", 2)]
  if size[0] <= 0 or size[1] <= 0:
    raise ValueError("Horizontal and vertical resolutions must be positive")
  fov = _numbers(config["fov"], "fov", 2)
  if not 0 < fov[0] <= 180:
    raise ValueError("`fov[0]` must be a float between (0, 180] degrees")
  if not 0 < fov[1] <= 90:
    raise ValueError("`fov[1]` must be a float between (0, 90] degrees")
  gamma = (_numbers(config["gamma"], "gamma") or [0.0])[0]
  if not 0 <= gamma <= 1:
    raise ValueError("`gamma` must be a nonnegative float between [0, 1]")
  sensors = [
    i
    for i in range(m.nsensor)
    if m.sensor_type[i] == mjSENS_PLUGIN and m.sensor_plugin[i] == instance
  ]
  if not sensors:
    raise ValueError("the touch_grid instance has no sensor")
  for i in sensors:
    if m.sensor_objtype[i] != mjOBJ_SITE:
      raise ValueError("Touch Grid sensor must be attached to a site")
  return np.array(
    [nchannel, size[0], size[1], fov[0], fov[1], gamma, sensors[0], m.sensor_objid[sensors[0]]],
    np.float64,
  )


@jit
def _lower_bound(edges, x):
  """Index of the first edge that x is at most, len(edges) if none (binary search)."""
  lo, hi = 0, edges.shape[0]
  while lo < hi:
    mid = (lo + hi) // 2
    if x <= edges[mid]:
      hi = mid
    else:
      lo = mid + 1
  return lo


@jit
def _edges(n, fov_degrees, gamma):
  """Bin edges over [-fov, fov] (radians), evenly spaced, then foveally deformed."""
  edges = np.empty(n + 1)
  increment = 2.0 / n if n > 0 else 0.0
  x = -1.0
  for i in range(n + 1):
    edges[i] = x
    x += increment
  if gamma:
    g = max(0.0, min(1.0, gamma))
    for i in range(n + 1):
      edges[i] = g * edges[i] ** 5 + (1 - g) * edges[i]
  scale = fov_degrees * math.pi / 180
  for i in range(n + 1):
    edges[i] *= scale
  return edges


@jit
def _mat_t_vec(mat, v, out):
  """out = mat' v for a row-major 3x3 matrix (9,)."""
  for i in range(3):
    out[i] = mat[i] * v[0] + mat[3 + i] * v[1] + mat[6 + i] * v[2]


def compute(m, d, instance, capability):
  p = m.plugin_param[m.plugin_paramadr[instance] :]
  nchannel, nx, ny = int(p[NCHANNEL]), int(p[SIZE0]), int(p[SIZE1])
  sensor, site = int(p[SENSOR]), int(p[SITE])
  adr = m.sensor_adr[sensor]
  frame = nx * ny
  out = d.sensordata[adr : adr + m.sensor_dim[sensor]]
  out[:] = 0.0

  parent_body = m.body_weldid[m.site_bodyid[site]]
  parent_weld = m.body_weldid[parent_body]
  ncon = 0
  for i in range(d.ncon[0]):
    if (
      m.body_weldid[m.geom_bodyid[d.contact_geom[i, 0]]] == parent_weld
      or m.body_weldid[m.geom_bodyid[d.contact_geom[i, 1]]] == parent_weld
    ):
      ncon += 1
  if ncon == 0:
    return

  site_pos = d.site_xpos[site]
  site_mat = d.site_xmat[site]
  forces = np.empty((6, ncon))  # channels x contacts (MuJoCo's transposed layout)
  positions = np.empty((3, ncon))  # azimuth, elevation, radius
  force = np.empty(6)
  world = np.empty(3)
  local = np.empty(3)
  k = 0
  for i in range(d.ncon[0]):
    body1 = m.geom_bodyid[d.contact_geom[i, 0]]
    body2 = m.geom_bodyid[d.contact_geom[i, 1]]
    if m.body_weldid[body1] != parent_weld and m.body_weldid[body2] != parent_weld:
      continue
    # force and torque: contact frame -> world -> site frame
    contact_force(m, d, i, force)
    sign = -1.0 if parent_body < max(body1, body2) else 1.0
    for half in range(2):
      _mat_t_vec(d.contact_frame[i], force[3 * half : 3 * half + 3], world)
      _mat_t_vec(site_mat, world, local)
      # permuted to (z, x, y): normal first
      forces[3 * half, k] = sign * local[2]
      forces[3 * half + 1, k] = sign * local[0]
      forces[3 * half + 2, k] = sign * local[1]
    # position in the site frame, then spherical (the frame looks down -z)
    for j in range(3):
      world[j] = d.contact_pos[i, j] - site_pos[j]
    _mat_t_vec(site_mat, world, local)
    x, y, z = local[0], local[1], local[2]
    positions[0, k] = math.atan2(x, -z)
    positions[1, k] = math.atan2(y, math.sqrt(x * x + z * z))
    positions[2, k] = math.sqrt(x * x + z * z + y * y)
    k += 1

  x_edges = _edges(nx, p[FOV0], p[GAMMA])
  y_edges = _edges(ny, p[FOV1], p[GAMMA])
  for c in range(nchannel):
    nonzero = False
    for j in range(ncon):
      if forces[c, j] != 0:
        nonzero = True
    if not nonzero:
      continue
    for j in range(ncon):
      xi = _lower_bound(x_edges, positions[0, j])
      if xi == 0 or xi == nx + 1:
        continue
      yi = _lower_bound(y_edges, positions[1, j])
      if yi == 0 or yi == ny + 1:
        continue
      out[c * frame + (yi - 1) * nx + (xi - 1)] += forces[c, j]


SPEC = dict(
  name="mujoco.sensor.touch_grid",
  capabilities=plugin_call.mjPLUGIN_SENSOR,
  attributes=ATTRIBUTES,
  nsensordata=_nsensordata,
  needstage=mjSTAGE_ACC,
  init=_init,
  compute=compute,
)
