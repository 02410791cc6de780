"""Actuator elements read over an actuator spec: <general> and the shortcuts (motor, position,
velocity, intvelocity, damper, cylinder, muscle, adhesion, orientation, pid, dcmotor), all
expanded to MuJoCo's general actuator parameters and control-input signature (ctrlspec).

Ports of mjXReader::OneActuator with mjs_setTo* (xml_native_reader.cc, user_api.cc). Default
classes (defaults.py) and actuator elements both read through `read_actuator`, which is why it
lives apart from build_actuator.py. Reading follows MuJoCo 3.17, verified against it: a shortcut
inherits the gain/bias/dynamics family (types, prm arrays, input signature) from its default
class only if the class's actuator was last written by the same shortcut or by <general>, with
the gain type the shortcut uses; otherwise it starts that family from MuJoCo's defaults. Other
attributes (ranges, gear, ...) are always inherited.
"""

import math

from engine.compiler import schema
from engine.compiler.specs import read_attrs
from engine.enums import mjBIAS_AFFINE
from engine.enums import mjBIAS_DCMOTOR
from engine.enums import mjBIAS_MUSCLE
from engine.enums import mjBIAS_NONE
from engine.enums import mjBIAS_SO3
from engine.enums import mjCHART_EXPMAP
from engine.enums import mjDYN_DCMOTOR
from engine.enums import mjDYN_FILTER
from engine.enums import mjDYN_FILTEREXACT
from engine.enums import mjDYN_INTEGRATOR
from engine.enums import mjDYN_MUSCLE
from engine.enums import mjDYN_NONE
from engine.enums import mjDYN_PID
from engine.enums import mjGAIN_AFFINE
from engine.enums import mjGAIN_DCMOTOR
from engine.enums import mjGAIN_FIXED
from engine.enums import mjGAIN_MUSCLE
from engine.enums import mjGAIN_PID
from engine.enums import mjGAIN_SO3
from engine.enums import mjINPUT_POS
from engine.enums import mjINPUT_PRESSURE
from engine.enums import mjINPUT_VEL
from engine.enums import mjLIMITED_AUTO
from engine.enums import mjLIMITED_FALSE
from engine.enums import mjLIMITED_TRUE
from engine.enums import mjPI
from engine.enums import mjTRN_BODY
from engine.enums import mjTRN_JOINT
from engine.enums import mjTRN_JOINTINPARENT
from engine.enums import mjTRN_SITE
from engine.enums import mjTRN_SLIDERCRANK
from engine.enums import mjTRN_TENDON
from engine.enums import mjTRN_UNDEFINED

_TRANSMISSION = (
  ("joint", mjTRN_JOINT),
  ("jointinparent", mjTRN_JOINTINPARENT),
  ("tendon", mjTRN_TENDON),
  ("cranksite", mjTRN_SLIDERCRANK),
  ("site", mjTRN_SITE),
  ("body", mjTRN_BODY),
)
_SPECIAL = {
  "name",
  "class",
  "joint",
  "jointinparent",
  "tendon",
  "cranksite",
  "site",
  "body",
  "slidersite",
  "refsite",
  "cranklength",
  "input",
}
_DCMOTOR_ARGS = (
  ("motorconst", 2),
  ("nominal", 3),
  ("saturation", 3),
  ("inductance", 2),
  ("cogging", 3),
  ("controller", 6),
  ("thermal", 6),
  ("lugre", 5),
)
_GENERIC = {n for n in schema.ELEMENTS["actuator/general"].attrs if n not in _SPECIAL}
_ZERO10 = (0.0,) * 10
_FAMILY = {
  "dyntype": mjDYN_NONE,
  "gaintype": mjGAIN_FIXED,
  "biastype": mjBIAS_NONE,
  "dynprm": (1.0,) + (0.0,) * 9,
  "gainprm": (1.0,) + (0.0,) * 9,
  "biasprm": _ZERO10,
  "_ctrlspec": 0,
}
# a pid started afresh: kp 1, no integral or slew state, inputs (pos, vel) by default
_PID_FAMILY = dict(
  _FAMILY,
  gaintype=mjGAIN_PID,
  biastype=mjBIAS_AFFINE,
  dynprm=_ZERO10,
  gainprm=_ZERO10,
  biasprm=(0.0, -1.0) + (0.0,) * 8,
)
# gain type each shortcut uses (for inheriting from a <general> class)
_SHORTCUT_GAIN = {
  "motor": mjGAIN_FIXED,
  "position": mjGAIN_FIXED,
  "velocity": mjGAIN_FIXED,
  "intvelocity": mjGAIN_FIXED,
  "cylinder": mjGAIN_FIXED,
  "adhesion": mjGAIN_FIXED,
  "damper": mjGAIN_AFFINE,
  "muscle": mjGAIN_MUSCLE,
  "orientation": mjGAIN_SO3,
  "pid": mjGAIN_PID,
  "dcmotor": mjGAIN_DCMOTOR,
}


def _prm(first=(), base=None):
  """10-vector: `first` values over `base` (zeros by default)."""
  out = list(base if base is not None else _ZERO10)
  out[: len(first)] = first
  return tuple(out)


def read_actuator(spec, node, in_default):
  """Reads an actuator element (general or shortcut) over an actuator spec, in place."""
  kind = node.tag
  a = node.attrs
  spec.setdefault("_kind", None)
  spec.setdefault("_ctrlspec", 0)
  spec.setdefault("_trntype", mjTRN_UNDEFINED)
  spec.setdefault("_target", None)

  # shortcut over a class last written by another kind: take the gain/bias/dynamics family
  # this kind last wrote in the class chain (or MuJoCo's defaults)
  spec["_fam"] = dict(spec.get("_fam") or {})
  if kind not in ("general", "plugin"):
    # general-only attributes are not carried into a shortcut
    spec["actearly"] = False
    spec["actdim"] = -1
    inherit = (
      spec["_kind"] == kind
      or (spec["_kind"] is None and kind != "pid")
      or (spec["_kind"] == "general" and spec["gaintype"] == _SHORTCUT_GAIN[kind])
    )
    if not inherit:
      spec.update(spec["_fam"].get(kind, _PID_FAMILY if kind == "pid" else _FAMILY))
  elif "gaintype" in a and a["gaintype"] != spec["gaintype"]:
    spec["_ctrlspec"] = 0

  # attributes shared with <general>
  generic = {k: v for k, v in a.items() if k in _GENERIC}
  read_attrs(spec, node.key, generic)

  # transmission
  for attr, trn in _TRANSMISSION:
    if attr in a:
      spec["_target"] = a[attr]
      spec["_trntype"] = trn
      spec["_target_attr"] = attr
  r1, r2 = "cranklength" in a, "slidersite" in a
  if r1:
    spec["cranklength"] = a["cranklength"]
  if r2:
    spec["slidersite"] = a["slidersite"]
  if (r1 or r2) and spec["_trntype"] not in (mjTRN_SLIDERCRANK, mjTRN_UNDEFINED):
    raise node.error(
      "cranklength and slidersite can only be used in slidercrank transmission",
      "cranklength" if r1 else "slidersite",
    )
  if "refsite" in a:
    spec["refsite"] = a["refsite"]
    if spec["_trntype"] not in (mjTRN_SITE, mjTRN_UNDEFINED):
      raise node.error("refsite can only be used with site transmission", "refsite")

  err = None
  if kind == "general":
    if "input" in a:
      spec["_ctrlspec"] = a["input"]
  elif kind == "motor":
    spec.update(_FAMILY)
  elif kind in ("position", "intvelocity"):
    kp = a.get("kp", spec["gainprm"][0])
    kv = a.get("kv")
    dampratio = a.get("dampratio")
    timeconst = a.get("timeconst")
    if timeconst is None and spec["dyntype"] == mjDYN_FILTEREXACT:
      timeconst = spec["dynprm"][0]
    inheritrange = a.get("inheritrange", spec.get("inheritrange", 0.0))
    err = _set_position(spec, kp, kv, dampratio, timeconst, inheritrange)
    spec["_ctrlspec"] = mjINPUT_POS
    if kind == "intvelocity":
      spec["dyntype"] = mjDYN_INTEGRATOR
      spec["actlimited"] = mjLIMITED_AUTO
      spec["_ctrlspec"] = mjINPUT_VEL
      if inheritrange > 0 and (spec["actrange"][0] or spec["actrange"][1]):
        err = err or "actrange and inheritrange cannot both be defined"
  elif kind == "orientation":
    kp = a.get("kp", spec["gainprm"][0])
    err = _set_position(spec, kp, a.get("kv"), a.get("dampratio"), None, 0.0)
    spec["gaintype"] = mjGAIN_SO3
    spec["biastype"] = mjBIAS_SO3
    spec["_ctrlspec"] = a.get("input", spec["_ctrlspec"] or mjCHART_EXPMAP)
  elif kind == "pid":
    if "input" in a:
      spec["_ctrlspec"] = a["input"]
    if "posrange" in a:
      spec["ctrlrange"] = a["posrange"]
    for rng in ("velrange", "ffrange"):
      spec[rng] = a.get(rng, spec.get(rng, (0.0, 0.0)))
    err = _set_pid(
      spec,
      a.get("kp", -spec["biasprm"][1]),
      a.get("kv"),
      a.get("dampratio"),
      a.get("ki", spec["gainprm"][0]),
      a.get("imax", spec["dynprm"][0]),
      a.get("slewmax", spec["dynprm"][1]),
      a.get("inheritrange", spec.get("inheritrange", 0.0)),
    )
  elif kind == "dcmotor":
    err = _read_dcmotor(spec, a)
  elif kind == "velocity":
    kv = a.get("kv", spec["gainprm"][0])
    spec.update(_FAMILY)
    spec["gainprm"] = _prm((kv,))
    spec["biasprm"] = _prm((0.0, 0.0, -kv))
    spec["biastype"] = mjBIAS_AFFINE
    spec["_ctrlspec"] = mjINPUT_VEL
  elif kind == "damper":
    kv = a.get("kv", -spec["gainprm"][2] if spec["gaintype"] == mjGAIN_AFFINE else 0.0)
    spec.update(_FAMILY)
    spec["gainprm"] = _prm((0.0, 0.0, -kv))
    spec["gaintype"] = mjGAIN_AFFINE
    spec["ctrllimited"] = mjLIMITED_TRUE
    if kv < 0:
      err = "damping coefficient cannot be negative"
    elif spec["ctrlrange"][0] < 0 or spec["ctrlrange"][1] < 0:
      err = "damper control range cannot be negative"
  elif kind == "cylinder":
    timeconst = a.get("timeconst", spec["dynprm"][0])
    bias = a.get("bias", tuple(spec["biasprm"][:3]))
    area = a.get("area", spec["gainprm"][0])
    diameter = a.get("diameter", -1.0)
    spec.update(_FAMILY)
    gain = area if diameter < 0 else mjPI / 4 * diameter * diameter
    spec["dynprm"] = _prm((timeconst,), _FAMILY["dynprm"])
    spec["gainprm"] = _prm((gain,))
    spec["biasprm"] = _prm(bias)
    spec["dyntype"] = mjDYN_FILTER
    spec["biastype"] = mjBIAS_AFFINE
    spec["_ctrlspec"] = mjINPUT_PRESSURE
  elif kind == "muscle":
    err = _set_muscle(spec, a)
  elif kind == "adhesion":
    gain = a.get("gain", spec["gainprm"][0])
    spec.update(_FAMILY)
    spec["gainprm"] = _prm((gain,))
    spec["ctrllimited"] = mjLIMITED_TRUE
    if gain < 0:
      err = "adhesion gain cannot be negative"
    elif spec["ctrlrange"][0] < 0 or spec["ctrlrange"][1] < 0:
      err = "adhesion control range cannot be negative"
  if err:
    raise node.error(err)
  spec["_kind"] = kind
  if kind not in ("general", "plugin"):
    spec["_fam"][kind] = {k: spec[k] for k in _FAMILY}


def _set_position(spec, kp, kv, dampratio, timeconst, inheritrange):
  """Port of mjs_setToPosition (3.17 semantics); returns an error message or None."""
  if kv is not None and dampratio is not None:
    return "kv and dampratio cannot both be defined"
  b2 = spec["biasprm"][2]
  if kv is not None:
    if kv < 0:
      return "kv cannot be negative"
    b2 = -kv
  if dampratio is not None:
    if dampratio < 0:
      return "dampratio cannot be negative"
    b2 = dampratio
  spec["gainprm"] = _prm((kp,))
  spec["biasprm"] = _prm((0.0, -kp, b2))
  spec["dynprm"] = _FAMILY["dynprm"]
  spec["dyntype"] = mjDYN_NONE
  if timeconst is not None:
    if timeconst < 0:
      return "timeconst cannot be negative"
    if timeconst > 0:
      spec["dynprm"] = _prm((timeconst,), _FAMILY["dynprm"])
      spec["dyntype"] = mjDYN_FILTEREXACT
  spec["inheritrange"] = inheritrange
  if inheritrange > 0 and (spec["ctrlrange"][0] or spec["ctrlrange"][1]):
    return "ctrlrange and inheritrange cannot both be defined"
  spec["gaintype"] = mjGAIN_FIXED
  spec["biastype"] = mjBIAS_AFFINE
  return None


def _set_pid(spec, kp, kv, dampratio, ki, imax, slewmax, inheritrange):
  """Port of mjs_setToPID (3.17 semantics); returns an error message or None."""
  if kv is not None and dampratio is not None:
    return "kv and dampratio cannot both be defined"
  if kv is not None and kv < 0:
    return "kv cannot be negative"
  if dampratio is not None and dampratio < 0:
    return "dampratio cannot be negative"
  if slewmax < 0:
    return "slewmax cannot be negative"
  b2 = spec["biasprm"][2]
  if kv is not None:
    b2 = -kv
  if dampratio is not None:
    b2 = dampratio
  spec["gainprm"] = _prm((ki,))
  spec["biasprm"] = _prm((0.0, -kp, b2))
  spec["dynprm"] = _prm((imax if ki else 0.0, slewmax))
  spec["gaintype"] = mjGAIN_PID
  spec["biastype"] = mjBIAS_AFFINE
  spec["dyntype"] = mjDYN_PID if (ki or slewmax) else mjDYN_NONE
  spec["inheritrange"] = inheritrange
  if inheritrange > 0 and (spec["ctrlrange"][0] or spec["ctrlrange"][1]):
    return "posrange and inheritrange cannot both be defined"
  return None


def _read_dcmotor(spec, a):
  """Port of the <dcmotor> reader: parameters start from the class's dcmotor (if any)."""
  inh = spec["gaintype"] == mjGAIN_DCMOTOR
  g, b, d = (spec[k] if inh else _ZERO10 for k in ("gainprm", "biasprm", "dynprm"))
  args = {
    "motorconst": [g[1], 0.0],
    "nominal": [0.0] * 3,
    "saturation": [0.0, 0.0, d[1]],
    "inductance": [0.0, d[0]],
    "cogging": list(b[:3]),
    "controller": [g[4], g[5], g[6], d[7], d[8], g[7]],
    "thermal": [d[2], d[3], 0.0, g[2], g[3], d[4]],
    "lugre": [d[5], d[6], b[3], b[4], b[5]],
  }
  for name, _ in _DCMOTOR_ARGS:
    given = a.get(name, ())
    args[name][: len(given)] = given
  ctrlspec = a.get("input", spec["_ctrlspec"] if inh else 0)
  return _set_dcmotor(spec, a.get("resistance", g[0]), ctrlspec, **args)


def _set_dcmotor(
  spec,
  resistance,
  ctrlspec,
  motorconst,
  nominal,
  saturation,
  inductance,
  cogging,
  controller,
  thermal,
  lugre,
):
  """Port of mjs_setToDCMotor (3.17 semantics); returns an error message or None."""
  r = resistance
  kt, ke = motorconst
  vn, tau0, omega0 = nominal
  if vn > 0 and ke <= 0 and omega0 > 0:
    # back-EMF constant from the no-load speed
    damp = spec["damping"][0]
    if damp > 0 and r > 0:
      disc = vn * vn - 4 * r * damp * omega0 * omega0
      ke = (vn + math.sqrt(disc)) / (2 * omega0) if disc > 0 else vn / omega0
    elif damp > 0 and tau0 > 0:
      exact = vn / omega0 - vn * damp / tau0
      ke = exact if exact > 0 else vn / omega0
    else:
      ke = vn / omega0
  k = math.sqrt(kt * ke) if kt > 0 and ke > 0 else (kt if kt > 0 else ke)
  if r == 0 and vn > 0 and tau0 > 0 and k > 0:
    r = k * vn / tau0
  if k <= 0:
    return "DC motor: motor constant K must be positive"
  if r <= 0:
    return "DC motor: resistance R must be positive"
  g, b, d = [0.0] * 10, [0.0] * 10, [0.0] * 10
  g[0], g[1] = r, k
  g[4:7] = controller[:3]
  d[7], d[8] = controller[3], controller[4]
  if controller[5] > 0:
    g[7] = controller[5]
  if saturation[0] > 0 or saturation[1] > 0:
    taumax = saturation[0] if saturation[0] != 0 else k * saturation[1]
    spec["forcerange"] = (-taumax, taumax)
    spec["forcelimited"] = mjLIMITED_TRUE
  if saturation[2] > 0:
    d[1] = saturation[2]
  b[0:3] = cogging
  actdim = 0
  if inductance[0] < 0:
    return "DC motor: inductance must be non-negative"
  if inductance[1] < 0:
    return "DC motor: electrical time constant must be non-negative"
  te = inductance[0] / r if inductance[0] > 0 else inductance[1]
  d[0] = te
  actdim += (te > 0) + (controller[3] > 0) + (controller[1] > 0)
  if thermal[0] > 0 or thermal[1] > 0 or thermal[2] > 0:
    rt, cap, tth, alpha, t0, ta = thermal
    if tth > 0 and rt > 0 and cap == 0:
      cap = tth / rt
    elif tth > 0 and cap > 0 and rt == 0:
      rt = tth / cap
    if rt <= 0:
      return "DC motor: thermal resistance must be positive"
    if cap <= 0:
      return "DC motor: thermal capacitance must be positive"
    d[2], d[3], d[4] = rt, cap, ta
    g[2], g[3] = alpha, t0
    actdim += 1
  if lugre[0] > 0:
    d[5], d[6] = lugre[0], lugre[1]
    b[3:6] = lugre[2:5]
    actdim += 1
  spec["gainprm"], spec["biasprm"], spec["dynprm"] = tuple(g), tuple(b), tuple(d)
  spec["dyntype"] = mjDYN_DCMOTOR
  spec["gaintype"] = mjGAIN_DCMOTOR
  spec["biastype"] = mjBIAS_DCMOTOR
  spec["_ctrlspec"] = ctrlspec
  spec["actdim"] = actdim
  spec["actlimited"] = mjLIMITED_FALSE
  spec["actearly"] = True
  return None


def _set_muscle(spec, a):
  """Port of mjs_setToMuscle; returns an error message or None."""
  dyn = list(spec["dynprm"])
  gain = list(spec["gainprm"])
  defaults = (
    (dyn, 0, 1, 0.01),
    (dyn, 1, 0, 0.04),
    (gain, 0, 1, 0.75),
    (gain, 1, 0, 1.05),
    (gain, 2, 0, -1),
    (gain, 3, 0, 200),
    (gain, 4, 0, 0.5),
    (gain, 5, 0, 1.6),
    (gain, 6, 0, 1.5),
    (gain, 7, 0, 1.3),
    (gain, 8, 0, 1.2),
  )
  for arr, i, unset, value in defaults:
    if arr[i] == unset:
      arr[i] = value
  tausmooth = a.get("tausmooth", dyn[2])
  if tausmooth < 0:
    return "muscle tausmooth cannot be negative"
  dyn[2] = tausmooth
  timeconst = a.get("timeconst", (-1.0, -1.0))
  rng = a.get("range", (-1.0, -1.0))
  if timeconst[0] >= 0:
    dyn[0] = timeconst[0]
  if timeconst[1] >= 0:
    dyn[1] = timeconst[1]
  if rng[0] >= 0:
    gain[0] = rng[0]
  if rng[1] >= 0:
    gain[1] = rng[1]
  for i, name in enumerate(("force", "scale", "lmin", "lmax", "vmax", "fpmax", "fvmax")):
    v = a.get(name, -1.0)
    if v >= 0:
      gain[2 + i] = v
  spec["dynprm"] = tuple(dyn)
  spec["gainprm"] = tuple(gain)
  spec["biasprm"] = tuple(gain[:9]) + tuple(spec["biasprm"][9:])
  spec["dyntype"] = mjDYN_MUSCLE
  spec["gaintype"] = mjGAIN_MUSCLE
  spec["biastype"] = mjBIAS_MUSCLE
  spec["_ctrlspec"] = 0
  return None
