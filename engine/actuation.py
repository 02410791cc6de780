"""Actuation stage: activation dynamics and actuator forces (mj_fwdActuation, engine_forward.c).

`fwd_actuation(m, d)` computes act_dot, actuator_force (one per actuator output, `nout`) and
qfrc_actuator = moment' * actuator_force as MuJoCo 3.17 does: controls clamped to ctrlrange,
non-finite controls zeroed with a warning, gains and biases of the built-in types, actearly,
rotational setpoint wrapping of servos on ball joints and refsite transmissions, tendon and
joint actuator-force limits, actuator gravity compensation and disabled actuator groups.
The helpers used by other stages live here too: actuator_disabled, next_activation
(mj_nextActivation), actuator_damping (mj_actuatorDamping) and actuator_armature.

Not ported: DC motor, PID and SO(3) actuators (mjDYN_DCMOTOR/PID, mjGAIN_DCMOTOR/SO3/PID,
mjBIAS_DCMOTOR/SO3) produce no force here and must be rejected when a model is loaded;
delayed controls (actuator_delay), plugins, sleeping islands and the user callbacks
(user dynamics give act_dot 0, user gains 1 and user biases 0, as MuJoCo without callbacks).
Adhesion actuators act through contacts: their force is computed, their moment comes from
mj_transmission (zero without contacts).
"""

import math

from engine._jit import jit
from engine._stage import stage
from engine.enums import mjBIAS_AFFINE
from engine.enums import mjBIAS_MUSCLE
from engine.enums import mjDSBL_ACTUATION
from engine.enums import mjDSBL_CLAMPCTRL
from engine.enums import mjDSBL_GRAVITY
from engine.enums import mjDYN_FILTER
from engine.enums import mjDYN_FILTEREXACT
from engine.enums import mjDYN_INTEGRATOR
from engine.enums import mjDYN_MUSCLE
from engine.enums import mjDYN_NONE
from engine.enums import mjGAIN_AFFINE
from engine.enums import mjGAIN_FIXED
from engine.enums import mjGAIN_MUSCLE
from engine.enums import mjGAIN_SO3
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjMINVAL
from engine.enums import mjNPOLY
from engine.enums import mjOBJ_JOINT
from engine.enums import mjOBJ_TENDON
from engine.enums import mjPI
from engine.enums import mjTRN_JOINT
from engine.enums import mjTRN_JOINTINPARENT
from engine.enums import mjTRN_SITE
from engine.enums import mjTRN_TENDON
from engine.enums import mjWARN_BADCTRL
from engine.math import mju_clip
from engine.math import mju_isBad
from engine.math import mju_max
from engine.math import mju_muscleBias
from engine.math import mju_muscleDynamics
from engine.math import mju_muscleGain
from engine.math import mju_round

# ---- helpers shared with other stages ----


@jit
def actuator_disabled(m, i):
  """Port of mj_actuatorDisabled: the actuator's group (0-30) is in opt.disableactuator."""
  group = m.actuator_group[i]
  if group < 0 or group > 30:
    return False
  return (m.opt.disableactuator[0] & (1 << group)) != 0


@jit
def next_activation(m, d, i, act_adr, act_dot):
  """Port of mj_nextActivation: activation after one step (exact for filterexact), clamped."""
  act = d.act[act_adr]
  if m.actuator_dyntype[i] == mjDYN_FILTEREXACT:
    tau = mju_max(mjMINVAL, m.actuator_dynprm[i, 0])
    act = act + act_dot * tau * (1 - math.exp(-m.opt.timestep[0] / tau))
  else:
    act = act + act_dot * m.opt.timestep[0]
  if m.actuator_actlimited[i]:
    act = mju_clip(act, m.actuator_actrange[i, 0], m.actuator_actrange[i, 1])
  return act


@jit
def _acts_on(m, k, objtype, objid):
  """Whether actuator k transmits directly to joint or tendon objid."""
  if m.actuator_trnid[k, 0] != objid:
    return False
  trntype = m.actuator_trntype[k]
  if objtype == mjOBJ_JOINT:
    return trntype == mjTRN_JOINT or trntype == mjTRN_JOINTINPARENT
  return trntype == mjTRN_TENDON


@jit
def _object_actuator(m, objtype, objid):
  if objtype == mjOBJ_JOINT:
    return m.jnt_actuatorid[objid]
  if objtype == mjOBJ_TENDON:
    return m.tendon_actuatorid[objid]
  return -1


@jit
def actuator_damping(m, objtype, objid, poly):
  """Port of mj_actuatorDamping: damping that actuators add to a joint or tendon.

  Returns the linear coefficient and adds the polynomial terms to poly (mjNPOLY), both scaled
  by gear[0]^2. jnt/tendon_actuatorid is the single contributing actuator, -1 for none and
  below -1 when several actuators must be scanned.
  """
  actuatorid = _object_actuator(m, objtype, objid)
  if actuatorid == -1:
    return 0.0
  damping = 0.0

  # single actuator
  if actuatorid >= 0:
    g = m.actuator_gear[m.actuator_outadr[actuatorid], 0]
    gear2 = g * g
    damping = m.actuator_damping[actuatorid] * gear2
    for k in range(mjNPOLY):
      poly[k] += m.actuator_dampingpoly[actuatorid, k] * gear2

  # several actuators: scan
  else:
    for k in range(m.nactuator):
      if not _acts_on(m, k, objtype, objid):
        continue
      g = m.actuator_gear[m.actuator_outadr[k], 0]
      gear2 = g * g
      damping += m.actuator_damping[k] * gear2
      for j in range(mjNPOLY):
        poly[j] += m.actuator_dampingpoly[k, j] * gear2
  return damping


@jit
def actuator_armature(m, objtype, objid):
  """Port of mj_actuatorArmature: armature that actuators add to a joint or tendon (gear^2)."""
  actuatorid = _object_actuator(m, objtype, objid)
  if actuatorid == -1:
    return 0.0
  if actuatorid >= 0:
    g = m.actuator_gear[m.actuator_outadr[actuatorid], 0]
    return m.actuator_armature[actuatorid] * (g * g)
  armature = 0.0
  for k in range(m.nactuator):
    if _acts_on(m, k, objtype, objid):
      g = m.actuator_gear[m.actuator_outadr[k], 0]
      armature += m.actuator_armature[k] * (g * g)
  return armature


# ---- controls and setpoints ----


@jit
def _ctrl(m, d, u, clamp, bad):
  """Control u as the actuation stage sees it: clamped to ctrlrange, zero if any was bad."""
  if bad:
    return 0.0
  c = d.ctrl[u]
  if clamp and m.actuator_ctrllimited[u]:
    c = mju_clip(c, m.actuator_ctrlrange[u, 0], m.actuator_ctrlrange[u, 1])
  return c


@jit
def wrap_period(m, i):
  """Rotation period of a servo's setpoint (ball joint or refsite rotation), 0 if none."""
  dyntype = m.actuator_dyntype[i]
  if (m.actuator_gaintype[i] != mjGAIN_FIXED or m.actuator_biastype[i] != mjBIAS_AFFINE
      or m.actuator_gainprm[i, 0] != -m.actuator_biasprm[i, 1]
      or (dyntype != mjDYN_NONE and dyntype != mjDYN_INTEGRATOR)):
    return 0.0
  gear = m.actuator_gear[m.actuator_outadr[i]]
  trntype = m.actuator_trntype[i]

  # site with a reference site and a purely rotational gear
  if (trntype == mjTRN_SITE and m.actuator_trnid[i, 1] >= 0 and gear[0] == 0 and gear[1] == 0
      and gear[2] == 0):
    return 2 * mjPI * math.sqrt(gear[3] * gear[3] + gear[4] * gear[4] + gear[5] * gear[5])

  # joint transmission on a ball joint
  if ((trntype == mjTRN_JOINT or trntype == mjTRN_JOINTINPARENT)
      and m.jnt_type[m.actuator_trnid[i, 0]] == mjJNT_BALL):
    return 2 * mjPI * math.sqrt(gear[0] * gear[0] + gear[1] * gear[1] + gear[2] * gear[2])
  return 0.0


@jit
def wrap_setpoint(u, length, period):
  """Representative of the periodic setpoint u nearest to length."""
  err = u - length
  return u - period * mju_round(err / period)


# ---- stage ----


@jit
def _act_dot(m, d, clamp, bad):
  """act_dot of every stateful actuator, from the clamped controls."""
  for i in range(m.nactuator):
    act_first = m.actuator_actadr[i]
    if act_first < 0:
      continue
    uadr = m.actuator_ctrladr[i]
    actnum = m.actuator_actnum[i]
    for k in range(act_first, act_first + actnum):
      d.act_dot[k] = 0.0
    prm = m.actuator_dynprm[i]
    act_last = act_first + actnum - 1
    dyntype = m.actuator_dyntype[i]

    # integrator: one activation per control
    if dyntype == mjDYN_INTEGRATOR:
      num = m.actuator_ctrlnum[i]
      for j in range(num):
        d.act_dot[act_last - num + 1 + j] = _ctrl(m, d, uadr + j, clamp, bad)

    # first-order filter: prm = tau
    elif dyntype == mjDYN_FILTER or dyntype == mjDYN_FILTEREXACT:
      tau = mju_max(mjMINVAL, prm[0])
      d.act_dot[act_last] = (_ctrl(m, d, uadr, clamp, bad) - d.act[act_last]) / tau

    # muscle activation: prm = (tau_act, tau_deact, smoothing width)
    elif dyntype == mjDYN_MUSCLE:
      d.act_dot[act_last] = mju_muscleDynamics(_ctrl(m, d, uadr, clamp, bad), d.act[act_last],
                                               prm)


@jit
def _gain(m, d, i, oadr):
  gaintype = m.actuator_gaintype[i]
  prm = m.actuator_gainprm[i]
  if gaintype == mjGAIN_FIXED:
    return prm[0]
  if gaintype == mjGAIN_AFFINE:
    return prm[0] + prm[1] * d.actuator_length[oadr] + prm[2] * d.actuator_velocity[oadr]
  if gaintype == mjGAIN_MUSCLE:
    return mju_muscleGain(d.actuator_length[oadr], d.actuator_velocity[oadr],
                          m.actuator_lengthrange[oadr], m.actuator_acc0[oadr], prm)
  # user gain without a callback
  return 1.0


@jit
def _bias(m, d, i, oadr):
  biastype = m.actuator_biastype[i]
  prm = m.actuator_biasprm[i]
  if biastype == mjBIAS_AFFINE:
    return prm[0] + prm[1] * d.actuator_length[oadr] + prm[2] * d.actuator_velocity[oadr]
  if biastype == mjBIAS_MUSCLE:
    return mju_muscleBias(d.actuator_length[oadr], m.actuator_lengthrange[oadr],
                          m.actuator_acc0[oadr], prm)
  # none, or user bias without a callback
  return 0.0


@jit
def _actuator_forces(m, d, clamp, bad):
  """force = gain * (ctrl or act) + bias per actuator; True if a tendon force limit applies."""
  tendon_frclimited = False
  for i in range(m.nactuator):
    if actuator_disabled(m, i):
      continue
    # SO(3) servos are not ported (see the module docstring)
    if m.actuator_gaintype[i] == mjGAIN_SO3:
      continue
    uadr = m.actuator_ctrladr[i]
    oadr = m.actuator_outadr[i]

    # tendon transmission with a limit on the total actuator force
    if m.ntendon and not tendon_frclimited and m.actuator_trntype[i] == mjTRN_TENDON:
      tendon_frclimited = m.tendon_actfrclimited[m.actuator_trnid[i, 0]]

    # gain times control, or times (next-step) activation
    gain = _gain(m, d, i, oadr)
    actnum = m.actuator_actnum[i]
    if actnum == 0:
      x = _ctrl(m, d, uadr, clamp, bad)
    else:
      act_adr = m.actuator_actadr[i] + actnum - 1
      if m.actuator_actearly[i]:
        x = next_activation(m, d, i, act_adr, d.act_dot[act_adr])
      else:
        x = d.act[act_adr]

    # rotational setpoint: the representative nearest to the length
    period = wrap_period(m, i)
    if period > 0:
      x = wrap_setpoint(x, d.actuator_length[oadr], period)
    d.actuator_force[oadr] = gain * x

    d.actuator_force[oadr] += _bias(m, d, i, oadr)
  return tendon_frclimited


@jit
def _clamp_tendon_forces(m, d):
  """Scales the actuators of each force-limited tendon so their total is in actfrcrange."""
  force = d.actuator_force
  for t in range(m.ntendon):
    if not m.tendon_actfrclimited[t]:
      continue
    total = 0.0
    for i in range(m.nactuator):
      if m.actuator_trntype[i] == mjTRN_TENDON and m.actuator_trnid[i, 0] == t:
        total += force[m.actuator_outadr[i]]
    if total == 0:
      continue
    lo = m.tendon_actfrcrange[t, 0]
    hi = m.tendon_actfrcrange[t, 1]
    for i in range(m.nactuator):
      if m.actuator_trntype[i] == mjTRN_TENDON and m.actuator_trnid[i, 0] == t:
        if total < lo:
          force[m.actuator_outadr[i]] *= lo / total
        elif total > hi:
          force[m.actuator_outadr[i]] *= hi / total


@stage()
def fwd_actuation(m, d):
  """Port of mj_fwdActuation: (qpos, qvel, ctrl, act) -> act_dot, actuator_force, qfrc_actuator."""
  nv = m.nv
  for k in range(m.nout):
    d.actuator_force[k] = 0.0
  if m.nactuator == 0 or m.opt.disableflags[0] & mjDSBL_ACTUATION:
    for k in range(nv):
      d.qfrc_actuator[k] = 0.0
    return

  # controls: clamp, then zero all of them if any is bad
  clamp = not m.opt.disableflags[0] & mjDSBL_CLAMPCTRL
  bad = False
  for u in range(m.nu):
    if mju_isBad(_ctrl(m, d, u, clamp, False)):
      d.warning_number[mjWARN_BADCTRL] += 1
      d.warning_lastinfo[mjWARN_BADCTRL] = u
      bad = True
      break

  # activation dynamics and forces
  _act_dot(m, d, clamp, bad)
  if _actuator_forces(m, d, clamp, bad):
    _clamp_tendon_forces(m, d)

  # per-actuator force limits
  for i in range(m.nactuator):
    if not m.actuator_forcelimited[i] or m.actuator_gaintype[i] == mjGAIN_SO3:
      continue
    oadr = m.actuator_outadr[i]
    for j in range(oadr, oadr + m.actuator_outnum[i]):
      d.actuator_force[j] = mju_clip(d.actuator_force[j], m.actuator_forcerange[i, 0],
                                     m.actuator_forcerange[i, 1])

  # qfrc_actuator = moment' * force (sparse rows)
  for k in range(nv):
    d.qfrc_actuator[k] = 0.0
  for r in range(m.nout):
    f = d.actuator_force[r]
    if f == 0:
      continue
    adr = d.moment_rowadr[r]
    for j in range(adr, adr + d.moment_rownnz[r]):
      d.qfrc_actuator[d.moment_colind[j]] += d.actuator_moment[j] * f

  # gravity compensation routed through actuators
  g = m.opt.gravity
  if (m.ngravcomp and not m.opt.disableflags[0] & mjDSBL_GRAVITY
      and math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) != 0):
    for j in range(m.njnt):
      if not m.jnt_actgravcomp[j]:
        continue
      jtype = m.jnt_type[j]
      dofnum = 6 if jtype == mjJNT_FREE else 3 if jtype == mjJNT_BALL else 1
      adr = m.jnt_dofadr[j]
      for k in range(adr, adr + dofnum):
        d.qfrc_actuator[k] += d.qfrc_gravcomp[k]

  # joint-level limits on the total actuator force (first dof of the joint)
  for j in range(m.njnt):
    if m.jnt_actfrclimited[j]:
      k = m.jnt_dofadr[j]
      d.qfrc_actuator[k] = mju_clip(d.qfrc_actuator[k], m.jnt_actfrcrange[j, 0],
                                    m.jnt_actfrcrange[j, 1])


def mj_fwdActuation(m, d) -> None:
  """Actuation stage: act_dot, actuator_force and qfrc_actuator at the current state."""
  fwd_actuation(m._struct, d._struct)
