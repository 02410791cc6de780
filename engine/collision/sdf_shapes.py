"""Signed distance fields of MuJoCo's first-party SDF plugins (plugin/sdf/*.cc, MuJoCo 3.17).

Five shapes, each named as in MJCF `<extension><plugin plugin="mujoco.sdf.NAME">`:

plugin             params (float64, in this order; MuJoCo's defaults)
mujoco.sdf.torus   radius1 (.35, major radius), radius2 (.15, tube radius)
mujoco.sdf.bolt    radius (.26, thread radius)
mujoco.sdf.nut     radius (.26, thread radius)
mujoco.sdf.gear    alpha (0, rotation), diameter (2.8, pitch circle), teeth (25), thickness (.2),
                   innerdiameter (-1: bore sized from the teeth; else the bore's diameter)
mujoco.sdf.bowl    height (.4, cut plane), radius (1, sphere), thickness (.02, half the wall)

For each shape NAME, jitted functions (Python-callable, and callable from jitted code):
- `NAME_distance(px, py, pz, params) -> float`: signed distance at a point of the shape's frame
  (negative inside). Same operation order as MuJoCo's C, so the values agree to the last bit
  in our tests.
- `NAME_gradient(px, py, pz, params, out3)`: MuJoCo's gradient: analytic for the torus, forward
  differences with step 1e-8 for the others (as MuJoCo; not unit length near kinks).
- `NAME_aabb(params, out6)`: MuJoCo's sdf_aabb: box center (3) then half-sizes (3). The
  marching-cubes mesh is sampled over this box.
and a Python `parse_NAME_config(config: dict[str, str]) -> params`.

`SHAPES[plugin_name]` is `SdfShape(parse, distance, gradient, aabb)`; `SHAPE_IDS[plugin_name]` an
int for the switches `distance(shape, ...)`, `gradient(shape, ...)`, `aabb(shape, ...)`, which
one jitted caller (the collision code) can use for every shape without function arguments.
`sample_grid` evaluates a field on the marching-cubes grid (engine/plugins/marching_cubes.py).

Config parsing follows what MuJoCo 3.17 accepts (measured with the `mujoco` package): a missing
or blank value takes the default; otherwise the whole value (surrounding whitespace allowed)
must be one C number (decimal, exponent, hexadecimal, inf); NaN is rejected; an unknown key is
an error. We also reject infinite values, which MuJoCo accepts and then fails on while meshing.
No range checks (MuJoCo has none): a negative size gives an empty box, which the mesher reports.

The shapes live in the engine proper (in engine._jit's source hash) because the collision code
calls them directly (engine/collision/sdf.py: an SDF geom whose plugin is one of these skips the
callbacks); the plugin callbacks of engine/plugins/sdf.py call the same functions.

MuJoCo's bolt, nut and gear code calls `abs` on doubles; measured against the `mujoco` package,
that is the floating-point absolute value (no truncation to int), so we use it too.
"""

import math
import re
import typing

import numpy as np

from engine._jit import always_inline
from engine._jit import entry
from engine.enums import mjMINVAL
from engine.enums import mjPI

# shape ids of the `distance`/`gradient`/`aabb` switches
TORUS, BOLT, NUT, GEAR, BOWL = 0, 1, 2, 3, 4

# forward-difference step of MuJoCo's numerical SDF gradients
_FD_EPS = 1e-8

# ------------------------------------------------------------------ helpers with C semantics


@entry
def _max(a, b):
  """mju_max: the first argument unless the second is larger (NaN in a gives b)."""
  return a if a >= b else b


@entry
def _min(a, b):
  """mju_min: the first argument unless the second is smaller."""
  return a if a <= b else b


@entry
def _fract(x):
  return x - np.floor(x)


@entry
def _hex_head(px, py):
  """x coordinate of (px, py) rotated into the nearest of six 60-degree sectors (a hexagon's
  apothem direction), as the bolt's and nut's heads use."""
  k = 6.0 / mjPI / 2.0
  angle = -np.floor(math.atan2(py, px) * k + 0.5) / k
  s0 = math.sin(angle)
  s1 = math.sin(angle + mjPI * 0.5)
  return s1 * px + (-s0) * py


@entry
def _forward_gradient(shape, px, py, pz, params, out3):
  """MuJoCo's numerical gradient: forward differences with step 1e-8 along each axis."""
  d0 = distance(shape, px, py, pz, params)
  out3[0] = (distance(shape, px + _FD_EPS, py, pz, params) - d0) / _FD_EPS
  out3[1] = (distance(shape, px, py + _FD_EPS, pz, params) - d0) / _FD_EPS
  out3[2] = (distance(shape, px, py, pz + _FD_EPS, params) - d0) / _FD_EPS


# --------------------------------------------------------------------------------------- torus


@always_inline
@entry
def torus_distance(px, py, pz, params):
  """Torus around z: major radius params[0], tube radius params[1]."""
  q = math.sqrt(px * px + py * py) - params[0]
  return math.sqrt(q * q + pz * pz) - params[1]


@always_inline
@entry
def torus_gradient(px, py, pz, params, out3):
  """Analytic, as MuJoCo (NaN on the z axis, where the torus distance has no gradient)."""
  rxy = math.sqrt(px * px + py * py)
  q = rxy - params[0]
  dqx = px / rxy
  dqy = py / rxy
  rqz = math.sqrt(q * q + pz * pz)
  denom = rqz if rqz > mjMINVAL else mjMINVAL
  out3[0] = q * dqx / denom
  out3[1] = q * dqy / denom
  out3[2] = pz / denom


@entry
def torus_aabb(params, out6):
  out6[0] = out6[1] = out6[2] = 0.0
  out6[3] = out6[4] = params[0] + params[1]
  out6[5] = params[1]


# ---------------------------------------------------------------------------------- bolt, nut
# After the shadertoy "XtffzX" screw: a thread is a triangle wave in z twisted once per turn
# (12 turns per unit length), cut by cones; the head is a hexagonal prism with a conical top.


@entry
def bolt_distance(px, py, pz, params):
  """Bolt along z: threaded shaft of radius params[0] in z in (-1, 0), hexagonal head above."""
  screw = 12.0
  sqrt12 = math.sqrt(2.0) / 2.0
  r = math.sqrt(px * px + py * py) - params[0]
  wave = abs(_fract(pz * screw - math.atan2(py, px) / mjPI / 2.0) - 0.5)
  shaft = (r - wave / screw) * sqrt12
  shaft = _max(shaft, -(0.5 - abs(pz + 0.5)))  # between z = -1 and z = 0
  shaft = _max(shaft, -((pz - r) * sqrt12 + 1.0 * sqrt12))  # chamfered tip
  head = _hex_head(px, py) - 0.5
  head = _max(head, abs(pz + 0.25) - 0.25)
  head = _max(head, (pz + r - 0.22) * sqrt12)
  return _min(shaft, head)


@entry
def bolt_gradient(px, py, pz, params, out3):
  _forward_gradient(BOLT, px, py, pz, params, out3)


@entry
def bolt_aabb(params, out6):
  out6[0] = out6[1] = out6[2] = 0.0
  out6[3] = out6[4] = 0.6
  out6[5] = 1.0


@entry
def nut_distance(px, py, pz, params):
  """Hexagonal nut along z with a threaded hole of radius params[0]."""
  screw = 12.0
  sqrt12 = math.sqrt(2.0) / 2.0
  r = math.sqrt(px * px + py * py) - params[0]
  wave = abs(_fract(pz * screw - math.atan2(py, px) / mjPI / 2.0) - 0.5)
  thread = (r - wave / screw) * sqrt12
  cone = (pz - r) * sqrt12
  hole = _max(thread, -(cone + 0.5 * sqrt12))
  hole = _min(hole, -cone - 0.05 * sqrt12)
  head = _hex_head(px, py) - 0.5
  head = _max(head, abs(pz + 0.25) - 0.25)
  head = _max(head, (pz + r - 0.22) * sqrt12)
  return _max(head, -hole)


@entry
def nut_gradient(px, py, pz, params, out3):
  _forward_gradient(NUT, px, py, pz, params, out3)


@entry
def nut_aabb(params, out6):
  out6[0] = out6[1] = out6[2] = 0.0
  out6[3] = out6[4] = 0.6
  out6[5] = 1.0


# ---------------------------------------------------------------------------------------- gear
# After the shadertoy "3lG3WR" involute gear: teeth flanks are involutes of the base circle,
# rounded at the tip, blended into the root circle, minus a bore, extruded along z.


@entry
def _smooth_union(a, b, k):
  h = 0.5 + 0.5 * (b - a) / k
  h = 0.0 if h < 0.0 else (1.0 if h > 1.0 else h)
  return b * (1.0 - h) + a * h - k * h * (1.0 - h)


@entry
def _smooth_intersection(a, b, k):
  return _max(_max(a, b), -_smooth_union(_max(a, -b), _max(b, -a), k))


@entry
def _extrude(pz, sdf2d, halfheight):
  """Distance of the prism sdf2d(x, y) x [-halfheight, halfheight]."""
  w0 = sdf2d
  w1 = abs(pz) - halfheight
  a0 = _max(w0, 0.0)
  a1 = _max(w1, 0.0)
  return _min(_max(w0, w1), 0.0) + math.sqrt(a0 * a0 + a1 * a1)


@entry
def _positive_mod(x, y):
  return x - y * np.floor(x / y)


@entry
def gear_profile(px, py, params):
  """Signed distance of the gear's cross-section in the xy plane."""
  alpha = params[0]
  diameter = params[1]
  teeth = params[2]
  psi = 3.096e-5 * teeth * teeth - 6.557e-3 * teeth + 0.551  # pressure angle
  pitch_r = diameter / 2.0
  rho = math.sqrt(px * px + py * py)
  pitch_d = teeth / diameter  # diametral pitch: teeth per unit of diameter
  circular = mjPI / pitch_d  # arc between teeth on the pitch circle
  addendum = 1.0 / pitch_d
  outer_r = (diameter + 2.0 * addendum) / 2.0
  depth = 2.2 / pitch_d  # tooth height
  inner_r = outer_r - depth - 0.14 * diameter
  if params[4] >= 0.0:
    inner_r = params[4] / 2.0

  # far inside the bore or far outside the teeth
  if inner_r - rho > 0.0:
    return inner_r - rho
  if outer_r - rho < -0.2:
    return rho - outer_r

  base_r = diameter * math.cos(psi) / 2.0
  fi = math.atan2(py, px) + alpha
  stride = circular / pitch_r  # angle between teeth
  inv_alpha = math.acos(base_r / pitch_r)
  inv_phi = math.tan(inv_alpha) - inv_alpha
  shift = stride / 2.0 - 2.0 * inv_phi
  fia = _positive_mod(fi + shift / 2.0, stride) - shift / 2.0
  fib = _positive_mod(-fi - shift + shift / 2.0, stride) - shift / 2.0

  # distances to the two involute flanks of the nearest tooth
  dista = -1.0e6
  distb = -1.0e6
  if base_r < rho:
    unroll = math.acos(base_r / rho)
    tangent = math.sqrt(rho * rho - base_r * base_r)
    dista = tangent - base_r * (fia + unroll)
    distb = tangent - base_r * (fib + unroll)

  cogs = _max(_max(fia - (stride - shift), fib - (stride - shift)), _max(dista, distb))
  cogs = _smooth_intersection(rho - outer_r, cogs, 0.0035 * diameter)
  cogs = _smooth_union(rho - (outer_r - depth), cogs, base_r - outer_r + depth)
  return _max(cogs, -(rho - inner_r))


@entry
def gear_distance(px, py, pz, params):
  """Spur gear around z, centered at the origin, params[3] thick."""
  return _extrude(pz, gear_profile(px, py, params), params[3] / 2.0)


@entry
def gear_gradient(px, py, pz, params, out3):
  _forward_gradient(GEAR, px, py, pz, params, out3)


@entry
def gear_aabb(params, out6):
  out6[0] = out6[1] = out6[2] = 0.0
  out6[3] = out6[4] = params[1] / 2.0 * 1.25
  out6[5] = params[3] / 2.0 * 1.1


# ---------------------------------------------------------------------------------------- bowl


@entry
def bowl_distance(px, py, pz, params):
  """Spherical cap shell: the sphere of radius params[1] about the origin below z = params[0],
  thickened by params[2] on each side (iquilezles.org "cut hollow sphere")."""
  height = params[0]
  radius = params[1]
  width = math.sqrt(radius * radius - height * height)  # radius of the rim
  qx = math.sqrt(px * px + py * py)
  if height * qx < width * pz:  # closest to the rim
    dx = qx - width
    dz = pz - height
    d = math.sqrt(dx * dx + dz * dz)
  else:
    d = abs(math.sqrt(qx * qx + pz * pz) - radius)
  return d - params[2]


@entry
def bowl_gradient(px, py, pz, params, out3):
  _forward_gradient(BOWL, px, py, pz, params, out3)


@entry
def bowl_aabb(params, out6):
  out6[0] = out6[1] = out6[2] = 0.0
  out6[3] = out6[4] = out6[5] = params[1] + params[2]


# ------------------------------------------------------------------------ switches over shapes


@always_inline
@entry
def distance(shape, px, py, pz, params):
  """Signed distance of shape `shape` (TORUS, BOLT, ...) at (px, py, pz); NaN for a bad id."""
  if shape == TORUS:
    return torus_distance(px, py, pz, params)
  if shape == BOLT:
    return bolt_distance(px, py, pz, params)
  if shape == NUT:
    return nut_distance(px, py, pz, params)
  if shape == GEAR:
    return gear_distance(px, py, pz, params)
  if shape == BOWL:
    return bowl_distance(px, py, pz, params)
  return math.nan


@always_inline
@entry
def gradient(shape, px, py, pz, params, out3):
  """MuJoCo's gradient of shape `shape` at (px, py, pz) into out3."""
  if shape == TORUS:
    torus_gradient(px, py, pz, params, out3)
  else:
    _forward_gradient(shape, px, py, pz, params, out3)


@entry
def aabb(shape, params, out6):
  """MuJoCo's bounding box of shape `shape`: center (3), half-sizes (3)."""
  if shape == TORUS:
    torus_aabb(params, out6)
  elif shape == BOLT:
    bolt_aabb(params, out6)
  elif shape == NUT:
    nut_aabb(params, out6)
  elif shape == GEAR:
    gear_aabb(params, out6)
  elif shape == BOWL:
    bowl_aabb(params, out6)
  else:
    out6[:] = math.nan


@entry
def distances(shape, params, points):
  """Signed distances at the rows of `points` (n, 3) -> (n,)."""
  out = np.empty(points.shape[0])
  for i in range(points.shape[0]):
    out[i] = distance(shape, points[i, 0], points[i, 1], points[i, 2], params)
  return out


@entry
def sample_grid(shape, params, box, nx, ny, nz):
  """The field on MuJoCo's marching-cubes grid over `box` (center, half-sizes), as float32
  (nz, ny, nx): point (i, j, k) is box[0] - box[3] + 2 * box[3] * i / (nx - 1), ... as in
  mjCMesh::LoadSDF (same operation order, so the same doubles)."""
  field = np.empty((nz, ny, nx), dtype=np.float32)
  for i in range(nx):
    px = box[0] - box[3] + 2.0 * box[3] * i / (nx - 1)
    for j in range(ny):
      py = box[1] - box[4] + 2.0 * box[4] * j / (ny - 1)
      for k in range(nz):
        pz = box[2] - box[5] + 2.0 * box[5] * k / (nz - 1)
        field[k, j, i] = distance(shape, px, py, pz, params)
  return field


# ------------------------------------------------------------------------------ config parsing

_C_NUMBER = re.compile(
  r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan(?:\([0-9a-zA-Z_]*\))?)",
  re.IGNORECASE,
)
_C_HEX = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?")


def _c_number(text: str) -> float | None:
  """The value of `text` if all of it is one number as C's strtod reads it, else None."""
  if _C_NUMBER.fullmatch(text):
    return float(re.sub(r"\(.*\)", "", text))  # nan(chars) -> nan
  if _C_HEX.fullmatch(text):
    sign = -1.0 if text[0] == "-" else 1.0
    body = text.lstrip("+-")
    if "p" not in body.lower():
      body += "p0"
    return sign * float.fromhex(body)
  return None


def _parse(plugin: str, names: tuple, defaults: tuple, config: dict) -> np.ndarray:
  unknown = sorted(set(config) - set(names))
  if unknown:
    raise ValueError(
      f"unrecognized attribute '{unknown[0]}' for plugin {plugin} "
      f"(its attributes: {', '.join(names)})"
    )
  params = np.array(defaults, dtype=np.float64)
  for i, name in enumerate(names):
    text = str(config.get(name, "")).strip()
    if not text:
      continue
    value = _c_number(text)
    if value is None or math.isnan(value):
      raise ValueError(
        f"invalid value '{config[name]}' for attribute '{name}' of plugin "
        f"{plugin}: expected a number"
      )
    if math.isinf(value):
      raise ValueError(
        f"invalid value '{config[name]}' for attribute '{name}' of plugin {plugin}: must be finite"
      )
    params[i] = value
  return params


# attribute names (MuJoCo's order, which is the order of params) and defaults
ATTRIBUTES = {
  "mujoco.sdf.torus": (("radius1", "radius2"), (0.35, 0.15)),
  "mujoco.sdf.bolt": (("radius",), (0.26,)),
  "mujoco.sdf.nut": (("radius",), (0.26,)),
  "mujoco.sdf.gear": (
    ("alpha", "diameter", "teeth", "thickness", "innerdiameter"),
    (0.0, 2.8, 25.0, 0.2, -1.0),
  ),
  "mujoco.sdf.bowl": (("height", "radius", "thickness"), (0.4, 1.0, 0.02)),
}


def parse_torus_config(config: dict) -> np.ndarray:
  """mujoco.sdf.torus config -> [radius1, radius2]."""
  return _parse("mujoco.sdf.torus", *ATTRIBUTES["mujoco.sdf.torus"], config)


def parse_bolt_config(config: dict) -> np.ndarray:
  """mujoco.sdf.bolt config -> [radius]."""
  return _parse("mujoco.sdf.bolt", *ATTRIBUTES["mujoco.sdf.bolt"], config)


def parse_nut_config(config: dict) -> np.ndarray:
  """mujoco.sdf.nut config -> [radius]."""
  return _parse("mujoco.sdf.nut", *ATTRIBUTES["mujoco.sdf.nut"], config)


def parse_gear_config(config: dict) -> np.ndarray:
  """mujoco.sdf.gear config -> [alpha, diameter, teeth, thickness, innerdiameter]."""
  return _parse("mujoco.sdf.gear", *ATTRIBUTES["mujoco.sdf.gear"], config)


def parse_bowl_config(config: dict) -> np.ndarray:
  """mujoco.sdf.bowl config -> [height, radius, thickness]."""
  return _parse("mujoco.sdf.bowl", *ATTRIBUTES["mujoco.sdf.bowl"], config)


class SdfShape(typing.NamedTuple):
  parse: typing.Callable
  distance: typing.Callable
  gradient: typing.Callable
  aabb: typing.Callable


SHAPES = {
  "mujoco.sdf.torus": SdfShape(parse_torus_config, torus_distance, torus_gradient, torus_aabb),
  "mujoco.sdf.bolt": SdfShape(parse_bolt_config, bolt_distance, bolt_gradient, bolt_aabb),
  "mujoco.sdf.nut": SdfShape(parse_nut_config, nut_distance, nut_gradient, nut_aabb),
  "mujoco.sdf.gear": SdfShape(parse_gear_config, gear_distance, gear_gradient, gear_aabb),
  "mujoco.sdf.bowl": SdfShape(parse_bowl_config, bowl_distance, bowl_gradient, bowl_aabb),
}

SHAPE_IDS = {
  "mujoco.sdf.torus": TORUS,
  "mujoco.sdf.bolt": BOLT,
  "mujoco.sdf.nut": NUT,
  "mujoco.sdf.gear": GEAR,
  "mujoco.sdf.bowl": BOWL,
}
