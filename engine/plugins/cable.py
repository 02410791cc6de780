"""`mujoco.elasticity.cable`: bending and twisting of an inextensible rod made of a chain of
bodies (MuJoCo's plugin/elasticity/cable.cc, reimplemented; used by <composite type="cable">).

Config: twist (shear modulus G, Pa), bend (Young's modulus E, Pa), flat ("true": the rest shape
is straight instead of the initial shape), vmax (stress of the colour scale MuJoCo's visualizer
uses; read and kept, nothing is drawn here). No plugin state.

The instance's bodies must be contiguous ids. Body b (after the first) is the edge between its
parent and itself: its curvature is the rotation vector of body_quat * (the ball/free joint's
quaternion) and its stiffness is (J G, Iy E, Iz E) / L, with J, Iy, Iz the torsion constant and
second moments of area of the body's first geom (circle for capsules and cylinders, rectangle
for boxes) and L the distance to its parent at qpos0. Each body receives, in its own frame, the
stress of its own edge pulled back through that edge's rotation minus the stress of the next
edge, applied as a torque at its origin (mj_applyFT) and added to qfrc_passive.

m.plugin_param of an instance: N, i0, vmax, then per body b (9 numbers): prev flag, next flag,
omega0 (3, rest curvature), stiffness (4: twist, bend y, bend z, length).
"""

import math

import numpy as np

from engine import plugin_call
from engine._jit import jit
from engine._jit import local_array
from engine._jit import python_callable
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE
from engine.enums import mjPI
from engine.math import mju_mulQuat
from engine.math import mju_negQuat
from engine.math import mju_normalize4
from engine.math import mju_quat2Mat
from engine.math import mju_quat2Vel
from engine.math import mju_rotVecQuat
from engine.plugins import config_values
from engine.support import apply_ft

ATTRIBUTES = ("twist", "bend", "flat", "vmax")
HEADER = 3  # N, i0, vmax
PER_BODY = 9  # prev, next, omega0[3], stiffness[4]


def _number(config, key):
  """strtod of a config value as the plugin reads it ('' is 0); None when it is no number."""
  text = "".join(config[key].split())
  if not text:
    return 0.0
  try:
    return float(text)
  except ValueError:
    return None


# ---- the model at qpos0 (what the plugin's constructor gets from mj_kinematics) ----


# the engine's own quaternion operations (MuJoCo's order), callable from Python
_normalize4 = python_callable(mju_normalize4)
_mulquat = python_callable(mju_mulQuat)
_rotvec = python_callable(mju_rotVecQuat)
_quat2mat = python_callable(mju_quat2Mat)
_quat2vel = python_callable(mju_quat2Vel)


def _kinematics0(m):
  """Body positions at qpos0, in mj_kinematics' operation order (mocap quaternions zeroed, as
  the plugin's constructor does before it calls mj_kinematics)."""
  nbody = int(m._sizes["nbody"])
  qpos = np.asarray(m.qpos0, np.float64)
  xpos = np.zeros((nbody, 3))
  xquat = np.zeros((nbody, 4))
  xquat[0, 0] = 1.0
  xmat = np.zeros((nbody, 9))
  _quat2mat(xmat[0], xquat[0])
  tmp = np.empty(3)
  for i in range(1, nbody):
    jntadr, jntnum = int(m.body_jntadr[i]), int(m.body_jntnum[i])
    pos, quat = xpos[i], xquat[i]
    if jntnum == 1 and m.jnt_type[jntadr] == mjJNT_FREE:
      qadr = int(m.jnt_qposadr[jntadr])
      pos[:] = qpos[qadr : qadr + 3]
      quat[:] = qpos[qadr + 3 : qadr + 7]
      _normalize4(quat)
    else:
      pid = int(m.body_parentid[i])
      bpos = np.asarray(m.body_pos[i], np.float64)
      qloc = (
        np.array([1.0, 0, 0, 0])
        if m.body_mocapid[i] >= 0
        else np.asarray(m.body_quat[i], np.float64)
      )
      if pid:
        r = xmat[pid]
        for k in range(3):
          pos[k] = (
            r[3 * k] * bpos[0] + r[3 * k + 1] * bpos[1] + r[3 * k + 2] * bpos[2] + xpos[pid, k]
          )
        _mulquat(quat, xquat[pid], qloc)
      else:
        pos[:], quat[:] = bpos, qloc
      for j in range(jntadr, jntadr + jntnum):
        qadr, jtype = int(m.jnt_qposadr[j]), int(m.jnt_type[j])
        jpos = np.asarray(m.jnt_pos[j], np.float64)
        _rotvec(tmp, jpos, quat)
        anchor = tmp + pos
        if jtype == mjJNT_SLIDE:
          continue  # qpos0 moves nothing
        if jtype == mjJNT_BALL:
          qball = np.array(qpos[qadr : qadr + 4])
          _normalize4(qball)
          _mulquat(quat, quat, qball)
        elif jtype != mjJNT_HINGE:
          continue
        _rotvec(tmp, jpos, quat)
        pos[:] = anchor - tmp
      _normalize4(quat)
    _quat2mat(xmat[i], quat)
  return xpos


def _section(gtype, size):
  """Torsion constant J and second moments Iy, Iz of the cross-section of a cable geom."""
  if gtype in (mjGEOM_CYLINDER, mjGEOM_CAPSULE):
    r4 = size[0] ** 4
    return mjPI * r4 / 2, mjPI * r4 / 4.0, mjPI * r4 / 4.0
  if gtype == mjGEOM_BOX:
    h, w = size[1], size[2]
    a, b = max(h, w), min(h, w)
    j = a * b**3 * (16.0 / 3.0 - 3.36 * b / a * (1 - b**4 / a**4 / 12))
    return j, (2 * w) ** 3 * 2 * h / 12.0, (2 * h) ** 3 * 2 * w / 12.0
  return 0.0, 0.0, 0.0


def _init(m, instance):
  """The instance's bodies, rest curvatures and stiffnesses (Cable's constructor)."""
  config = config_values(m, instance, ATTRIBUTES)
  G, E, vmax = (_number(config, k) for k in ("twist", "bend", "vmax"))
  if G is None or E is None:
    raise ValueError(
      "mujoco.elasticity.cable: invalid parameter specification (twist and "
      f"bend must be numbers, got {config['twist']!r}, {config['bend']!r})"
    )
  flat = config["flat"] == "true"
  bodies = np.flatnonzero(np.asarray(m.body_plugin) == instance)
  bodies = bodies[bodies > 0]
  n = len(bodies)
  if n == 0:
    raise ValueError(f"mujoco.elasticity.cable: plugin instance {instance} has no bodies")
  i0 = int(bodies[0])
  if bodies[-1] - i0 != n - 1:
    raise ValueError(
      "mujoco.elasticity.cable: the plugin instance must be applied to contiguous bodies"
    )
  xpos = _kinematics0(m)
  qpos0 = np.asarray(m.qpos0, np.float64)
  p = np.zeros(HEADER + PER_BODY * n)
  p[0], p[1], p[2] = n, i0, vmax or 0.0
  for b in range(n):
    i = i0 + b
    prev = 0 if b == 0 else -1
    nxt = 0 if b == n - 1 else 1
    row = p[HEADER + PER_BODY * b : HEADER + PER_BODY * (b + 1)]
    row[0], row[1] = prev, nxt
    if prev and not flat:
      qadr = int(m.jnt_qposadr[m.body_jntadr[i]] + m.body_dofnum[i] - 3)
      qb = qpos0[qadr : qadr + 4]
      # mju_subQuat(omega0, body_quat, qpos): rotation vector of neg(qpos) * body_quat
      dif = np.empty(4)
      _mulquat(
        dif, np.array([qb[0], -qb[1], -qb[2], -qb[3]]), np.asarray(m.body_quat[i], np.float64)
      )
      omega = np.empty(3)
      _quat2vel(omega, dif, 1.0)
      row[2:5] = omega
    g = int(m.body_geomadr[i])
    J, Iy, Iz = _section(int(m.geom_type[g]), [float(v) for v in m.geom_size[g]])
    row[5], row[6], row[7] = J * G, Iy * E, Iz * E
    if prev:
      a, c = xpos[i], xpos[i + prev]
      row[8] = math.sqrt((a[0] - c[0]) ** 2 + (a[1] - c[1]) ** 2 + (a[2] - c[2]) ** 2)
  return p


# ---- the passive force ----


@jit
def _local_stress(stress, p, adr, quat, pullback):
  """LocalStress of cable.cc: -k (omega - omega0) / L of the edge at p[adr:], optionally
  rotated back through the edge's own rotation."""
  omega = local_array(3)
  tmp = local_array(3)
  mju_quat2Vel(omega, quat, 1.0)
  for k in range(3):
    tmp[k] = -p[adr + 5 + k] * (omega[k] - p[adr + 2 + k]) / p[adr + 8]
  if pullback:
    inv = local_array(4)
    mju_negQuat(inv, quat)
    mju_rotVecQuat(stress, tmp, inv)
  else:
    for k in range(3):
      stress[k] = tmp[k]


@jit
def _edge_quat(m, d, quat, i):
  """body_quat[i] * (quaternion of body i's last joint): the edge's rotation from its parent."""
  qadr = m.jnt_qposadr[m.body_jntadr[i]] + m.body_dofnum[i] - 3
  mju_mulQuat(quat, m.body_quat[i], d.qpos[qadr : qadr + 4])


def compute(m, d, instance, capability):
  adr0 = m.plugin_paramadr[instance]
  p = m.plugin_param
  n = int(p[adr0])
  i0 = int(p[adr0 + 1])
  quat = local_array(4)
  stress = local_array(3)
  lfrc = local_array(3)
  xfrc = local_array(3)
  zero = local_array(3)
  for k in range(3):
    zero[k] = 0.0
  for b in range(n):
    i = i0 + b
    adr = adr0 + HEADER + PER_BODY * b

    # no stiffness: skip the body
    if p[adr + 5] == 0 and p[adr + 6] == 0 and p[adr + 7] == 0:
      continue
    for k in range(3):
      lfrc[k] = 0.0

    # this body's edge, pulled back into this body's frame
    if p[adr] != 0:
      _edge_quat(m, d, quat, i)
      _local_stress(stress, p, adr, quat, True)
      for k in range(3):
        lfrc[k] += stress[k] * 1.0

    # the next body's edge
    if p[adr + 1] != 0:
      _edge_quat(m, d, quat, i + 1)
      _local_stress(stress, p, adr + PER_BODY, quat, False)
      for k in range(3):
        lfrc[k] += stress[k] * -1.0

    # torque in world coordinates at the body's origin
    mju_rotVecQuat(xfrc, lfrc, d.xquat[i])
    apply_ft(m, d, zero, xfrc, d.xpos[i], i, d.qfrc_passive)


SPEC = dict(
  name="mujoco.elasticity.cable",
  capabilities=plugin_call.mjPLUGIN_PASSIVE,
  attributes=ATTRIBUTES,
  init=_init,
  compute=compute,
)
