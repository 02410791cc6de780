"""Actuation stage: activation dynamics and actuator forces (mj_fwdActuation, engine_forward.c).

`fwd_actuation(m, d)` computes act_dot, actuator_force (one per actuator output, `nout`) and
qfrc_actuator = moment' * actuator_force as MuJoCo 3.17 does: delayed controls read from the
history buffers, controls clamped to ctrlrange, non-finite controls zeroed with a warning,
gains and biases of the built-in types (fixed, affine, muscle, DC motor with its electrical,
thermal, LuGre and controller states, PID with slew-rate and integral states, SO(3) geodesic
servos), actearly, rotational setpoint wrapping of servos on ball joints and refsite
transmissions, tendon and joint actuator-force limits, actuator gravity compensation and
disabled actuator groups.
The helpers used by other stages live here too: actuator_disabled, next_activation
(mj_nextActivation), actuator_damping (mj_actuatorDamping) and actuator_armature.

Actuators on sleeping trees (engine/sleep.py) keep their act_dot and force. Not ported:
plugins and the user callbacks (user dynamics give act_dot 0, user gains 1 and user biases 0,
as MuJoCo without callbacks). Adhesion actuators act through
contacts: their force is computed, their moment comes from mj_transmission.
"""

import math

from engine import history as _history
from engine import plugin_call
from engine import sleep as _sleep
from engine._jit import jit
from engine._jit import local_array
from engine._stage import runs_stage
from engine._stage import stage
from engine.enums import mjBIAS_AFFINE
from engine.enums import mjBIAS_DCMOTOR
from engine.enums import mjBIAS_MUSCLE
from engine.enums import mjCHART_QUAT
from engine.enums import mjDSBL_ACTUATION
from engine.enums import mjDSBL_CLAMPCTRL
from engine.enums import mjDSBL_GRAVITY
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
from engine.enums import mjINPUT_FF
from engine.enums import mjINPUT_POS
from engine.enums import mjINPUT_VEL
from engine.enums import mjINPUT_VOLTAGE
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
from engine.flags import disabled
from engine.math import mju_axisAngle2Quat
from engine.math import mju_clip
from engine.math import mju_isBad
from engine.math import mju_max
from engine.math import mju_min
from engine.math import mju_muscleBias
from engine.math import mju_muscleDynamics
from engine.math import mju_muscleGain
from engine.math import mju_normalize4
from engine.math import mju_round
from engine.math import mju_subQuat

# ---- helpers shared with other stages ----


@jit
def actuator_disabled(m, i):
  """Port of mj_actuatorDisabled: the actuator's group (0-30) is in opt.disableactuator."""
  group = m.actuator_group[i]
  if group < 0 or group > 30:
    return False
  return (m.opt.disableactuator[0] & (1 << group)) != 0


@jit
def dcmotor_slots(m, i):
  """Offsets of a DC motor's optional states in its act block, -1 if absent, and their count:
  (slew, integral, temperature, bristle, current, num), in this order (mj_dcmotorSlots)."""
  dynprm = m.actuator_dynprm[i]
  num = 0
  slew = integral = temperature = bristle = current = -1
  if dynprm[7] > 0:
    slew = num
    num += 1
  if m.actuator_gainprm[i, 5] > 0:
    integral = num
    num += 1
  if dynprm[2] > 0:
    temperature = num
    num += 1
  if dynprm[5] > 0:
    bristle = num
    num += 1
  if dynprm[0] > 0:
    current = num
    num += 1
  return slew, integral, temperature, bristle, current, num


@jit
def lugre_stribeck(velocity, F_C, F_S, v_S):
  """Port of mj_lugreStribeck: Stribeck friction curve g(v) of the LuGre model."""
  ratio = velocity / mju_max(mjMINVAL, v_S)
  return F_C + (F_S - F_C) * math.exp(-ratio * ratio)


@jit
def _dcmotor_next(m, d, i, act_adr, act_dot):
  """One step of a DC motor state: exact for the current filter and the LuGre bristle,
  Euler otherwise, the integral clamped to +-imax."""
  act = d.act[act_adr]
  h = m.opt.timestep[0]
  dynprm = m.actuator_dynprm[i]
  _, integral, _, bristle, current, _ = dcmotor_slots(m, i)
  offset = act_adr - m.actuator_actadr[i]
  if offset == current:
    te = mju_max(mjMINVAL, dynprm[0])
    return act + act_dot * te * (1 - math.exp(-h / te))
  if offset == bristle:
    # zero-order-hold exact solution of dz/dt = a*z + v, a = -sigma0*|v|/g(v)
    biasprm = m.actuator_biasprm[i]
    velocity = d.actuator_velocity[m.actuator_outadr[i]]
    g = lugre_stribeck(velocity, biasprm[3], biasprm[4], biasprm[5])
    a = -dynprm[5] * abs(velocity) / mju_max(mjMINVAL, g)
    exp_ah = math.exp(a * h)
    int_h = (exp_ah - 1) / a if abs(a) > mjMINVAL else h
    return exp_ah * act + int_h * velocity
  act = act + act_dot * h
  if offset == integral and dynprm[8] > 0:
    act = mju_clip(act, -dynprm[8], dynprm[8])
  return act


@jit
def next_activation(m, d, i, act_adr, act_dot):
  """Port of mj_nextActivation: activation after one step (exact for filterexact and the DC
  motor's current and bristle states), clamped to actrange (except DC motors)."""
  dyntype = m.actuator_dyntype[i]
  if dyntype == mjDYN_DCMOTOR:
    return _dcmotor_next(m, d, i, act_adr, act_dot)
  act = d.act[act_adr]
  if dyntype == mjDYN_FILTEREXACT:
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
def _load_controls(m, d, clamp):
  """d.scratch_ctrl: the controls the actuators act on. Delayed actuators read their history
  buffer at time - delay; then ctrlrange clamps, and any bad control zeroes them all."""
  ctrl = d.scratch_ctrl
  for i in range(m.nactuator):
    adr = m.actuator_ctrladr[i]
    num = m.actuator_ctrlnum[i]
    if m.actuator_delay[i] != 0:
      _history.read_ctrl(m, d, i, d.time[0], ctrl[adr : adr + num])
    else:
      for k in range(adr, adr + num):
        ctrl[k] = d.ctrl[k]
  if clamp:
    for u in range(m.nu):
      if m.actuator_ctrllimited[u]:
        ctrl[u] = mju_clip(ctrl[u], m.actuator_ctrlrange[u, 0], m.actuator_ctrlrange[u, 1])
  for u in range(m.nu):
    if mju_isBad(ctrl[u]):
      d.warning_number[mjWARN_BADCTRL] += 1
      d.warning_lastinfo[mjWARN_BADCTRL] = u
      for k in range(m.nu):
        ctrl[k] = 0.0
      break


@jit
def wrap_period(m, i):
  """Rotation period of a servo's setpoint (ball joint or refsite rotation), 0 if none."""
  dyntype = m.actuator_dyntype[i]
  if (
    m.actuator_gaintype[i] != mjGAIN_FIXED
    or m.actuator_biastype[i] != mjBIAS_AFFINE
    or m.actuator_gainprm[i, 0] != -m.actuator_biasprm[i, 1]
    or (dyntype != mjDYN_NONE and dyntype != mjDYN_INTEGRATOR)
  ):
    return 0.0
  gear = m.actuator_gear[m.actuator_outadr[i]]
  trntype = m.actuator_trntype[i]

  # site with a reference site and a purely rotational gear
  if (
    trntype == mjTRN_SITE
    and m.actuator_trnid[i, 1] >= 0
    and gear[0] == 0
    and gear[1] == 0
    and gear[2] == 0
  ):
    return 2 * mjPI * math.sqrt(gear[3] * gear[3] + gear[4] * gear[4] + gear[5] * gear[5])

  # joint transmission on a ball joint
  if (trntype == mjTRN_JOINT or trntype == mjTRN_JOINTINPARENT) and m.jnt_type[
    m.actuator_trnid[i, 0]
  ] == mjJNT_BALL:
    return 2 * mjPI * math.sqrt(gear[0] * gear[0] + gear[1] * gear[1] + gear[2] * gear[2])
  return 0.0


@jit
def wrap_setpoint(u, length, period):
  """Representative of the periodic setpoint u nearest to length."""
  err = u - length
  return u - period * mju_round(err / period)


# ---- stage ----


@jit
def _slew(m, d, adr, uadr, rate):
  """Slew-rate state: the setpoint input moves at most rate*timestep from the last one."""
  ctrl = d.scratch_ctrl
  h = m.opt.timestep[0]
  u_prev = d.act[adr]
  slew = rate * h
  u_eff = mju_clip(ctrl[uadr], u_prev - slew, u_prev + slew)
  d.act_dot[adr] = (u_eff - u_prev) / h
  ctrl[uadr] = u_eff


@jit
def _integral(d, adr, err, imax):
  """Integral state: integrates err, not further outward once |state| reaches imax > 0."""
  x = d.act[adr]
  if imax > 0:
    if x >= imax:
      err = mju_min(err, 0.0)
    elif x <= -imax:
      err = mju_max(err, 0.0)
  d.act_dot[adr] = err


@jit
def _dcmotor_voltage(m, d, i, x_I, R):
  """Terminal voltage of a DC motor. With servo inputs (pos, vel, ff), the torque command
  kp*(pos - length) + ki*integral + kd*(vel - velocity) + ff becomes the voltage producing it
  at the current speed, R/K*torque + K*velocity, clipped to +-Vmax, plus any voltage input;
  otherwise the voltage input as is, or 0 without inputs. Inputs come in the order pos, vel,
  ff, voltage."""
  ctrl = d.scratch_ctrl
  spec = m.actuator_ctrlspec[i]
  gainprm = m.actuator_gainprm[i]
  oadr = m.actuator_outadr[i]
  k = m.actuator_ctrladr[i]
  pos = vel = ff = volt = 0.0
  if spec & mjINPUT_POS:
    pos = ctrl[k]
    k += 1
  if spec & mjINPUT_VEL:
    vel = ctrl[k]
    k += 1
  if spec & mjINPUT_FF:
    ff = ctrl[k]
    k += 1
  if spec & mjINPUT_VOLTAGE:
    volt = ctrl[k]
  if not spec & (mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF):
    return volt
  velocity = d.actuator_velocity[oadr]
  torque = (
    gainprm[4] * (pos - d.actuator_length[oadr])
    + gainprm[5] * x_I
    + gainprm[6] * (vel - velocity)
    + ff
  )
  K = gainprm[1]
  voltage = R / K * torque + K * velocity
  vmax = gainprm[7]
  if vmax > 0:
    voltage = mju_clip(voltage, -vmax, vmax)
  return voltage + volt


@jit
def _dcmotor_act_dot(m, d, i):
  """DC motor states: slew, integral, temperature, LuGre bristle, current (in this order)."""
  ctrl = d.scratch_ctrl
  dynprm = m.actuator_dynprm[i]
  gainprm = m.actuator_gainprm[i]
  uadr = m.actuator_ctrladr[i]
  oadr = m.actuator_outadr[i]
  adr = m.actuator_actadr[i]
  act_last = adr + m.actuator_actnum[i] - 1
  velocity = d.actuator_velocity[oadr]
  R = gainprm[0]
  K = gainprm[1]
  te = dynprm[0]

  if dynprm[7] > 0:
    _slew(m, d, adr, uadr, dynprm[7])
    adr += 1
  x_I = 0.0
  if gainprm[5] > 0:
    x_I = d.act[adr]
    _integral(d, adr, ctrl[uadr] - d.actuator_length[oadr], dynprm[8])
    adr += 1
  V = _dcmotor_voltage(m, d, i, x_I, R)

  # temperature rise T above ambient: dT/dt = (R*i^2 - T/RT) / C, R grows with T
  RT = dynprm[2]
  if RT > 0:
    T = d.act[adr]
    R *= 1 + gainprm[2] * (T + dynprm[4] - gainprm[3])
    current = d.act[act_last] if te > 0 else (V - K * velocity) / R
    d.act_dot[adr] = (R * current * current - T / RT) / dynprm[3]
    adr += 1

  # LuGre bristle deflection: dz/dt = v - sigma0*|v|/g(v)*z
  sigma0 = dynprm[5]
  if sigma0 > 0:
    biasprm = m.actuator_biasprm[i]
    g = lugre_stribeck(velocity, biasprm[3], biasprm[4], biasprm[5])
    a = -sigma0 * abs(velocity) / mju_max(mjMINVAL, g)
    d.act_dot[adr] = a * d.act[adr] + velocity
    adr += 1

  # current: di/dt = (V/R - K/R*omega - i) / te, rate-limited
  if te > 0:
    i_dot = (V / R - K / R * velocity - d.act[act_last]) / te
    if dynprm[1] > 0:
      i_dot = mju_clip(i_dot, -dynprm[1], dynprm[1])
    d.act_dot[act_last] = i_dot


@jit
def _act_dot(m, d):
  """act_dot of every stateful actuator, from the loaded controls (sleeping ones keep theirs)."""
  ctrl = d.scratch_ctrl
  sleeping = _sleep.enabled(m)
  for i in range(m.nactuator):
    if sleeping and _sleep.actuator_asleep(m, d, i):
      continue
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
        d.act_dot[act_last - num + 1 + j] = ctrl[uadr + j]

    # first-order filter: prm = tau
    elif dyntype == mjDYN_FILTER or dyntype == mjDYN_FILTEREXACT:
      tau = mju_max(mjMINVAL, prm[0])
      d.act_dot[act_last] = (ctrl[uadr] - d.act[act_last]) / tau

    # muscle activation: prm = (tau_act, tau_deact, smoothing width)
    elif dyntype == mjDYN_MUSCLE:
      d.act_dot[act_last] = mju_muscleDynamics(ctrl[uadr], d.act[act_last], prm)

    elif dyntype == mjDYN_DCMOTOR:
      _dcmotor_act_dot(m, d, i)

    # pid: slew-rate state on the position setpoint (prm[1]), then integral (imax prm[0])
    elif dyntype == mjDYN_PID:
      adr = act_first
      if prm[1] > 0:
        _slew(m, d, adr, uadr, prm[1])
        adr += 1
      if m.actuator_gainprm[i, 0] > 0:
        _integral(d, adr, ctrl[uadr] - d.actuator_length[m.actuator_outadr[i]], prm[0])


@jit
def _gain(m, d, i, oadr):
  gaintype = m.actuator_gaintype[i]
  prm = m.actuator_gainprm[i]
  if gaintype == mjGAIN_FIXED:
    return prm[0]
  if gaintype == mjGAIN_AFFINE:
    return prm[0] + prm[1] * d.actuator_length[oadr] + prm[2] * d.actuator_velocity[oadr]
  if gaintype == mjGAIN_MUSCLE:
    return mju_muscleGain(
      d.actuator_length[oadr],
      d.actuator_velocity[oadr],
      m.actuator_lengthrange[oadr],
      m.actuator_acc0[oadr],
      prm,
    )
  # user gain without a callback
  return 1.0


@jit
def _bias(m, d, i, oadr, gain):
  biastype = m.actuator_biastype[i]
  prm = m.actuator_biasprm[i]
  if biastype == mjBIAS_AFFINE:
    return prm[0] + prm[1] * d.actuator_length[oadr] + prm[2] * d.actuator_velocity[oadr]
  if biastype == mjBIAS_MUSCLE:
    return mju_muscleBias(
      d.actuator_length[oadr], m.actuator_lengthrange[oadr], m.actuator_acc0[oadr], prm
    )
  # DC motor: back-EMF when the current has no state (otherwise it is in the current's ODE)
  if biastype == mjBIAS_DCMOTOR:
    if m.actuator_dynprm[i, 0] <= 0:
      return -gain * m.actuator_gainprm[i, 1] * d.actuator_velocity[oadr]
    return 0.0
  # none, or user bias without a callback
  return 0.0


@jit
def _expmap_quat(quat, v):
  """Unit quaternion of the rotation vector v (identity when |v| < mjMINVAL)."""
  angle = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
  if angle < mjMINVAL:
    quat[0] = 1.0
    quat[1] = 0.0
    quat[2] = 0.0
    quat[3] = 0.0
  else:
    axis = local_array(3)
    for k in range(3):
      axis[k] = v[k] / angle
    mju_axisAngle2Quat(quat, axis, angle)


@jit
def _so3_forces(m, d, i):
  """SO(3) geodesic servo: force = kp*log(q_cur^-1 q_tgt) + const + kv*velocity, per output,
  in the transmission's local frame. The target is a quaternion (normalized) or a rotation
  vector from the controls, or from the activations of an integrator."""
  ctrl = d.scratch_ctrl
  uadr = m.actuator_ctrladr[i]
  oadr = m.actuator_outadr[i]
  q_tgt = local_array(4)
  q_cur = local_array(4)
  u = local_array(3)
  e = local_array(3)
  if m.actuator_ctrlspec[i] == mjCHART_QUAT:
    for k in range(4):
      q_tgt[k] = ctrl[uadr + k]
    mju_normalize4(q_tgt)
  else:
    if m.actuator_dyntype[i] == mjDYN_NONE:
      for k in range(3):
        u[k] = ctrl[uadr + k]
    else:
      act_adr = m.actuator_actadr[i]
      for k in range(3):
        if m.actuator_actearly[i]:
          u[k] = next_activation(m, d, i, act_adr + k, d.act_dot[act_adr + k])
        else:
          u[k] = d.act[act_adr + k]
    _expmap_quat(q_tgt, u)
  _expmap_quat(q_cur, d.actuator_length[oadr : oadr + 3])
  mju_subQuat(e, q_tgt, q_cur)
  kp = m.actuator_gainprm[i, 0]
  prm = m.actuator_biasprm[i]
  for k in range(3):
    d.actuator_force[oadr + k] = kp * e[k] + prm[0] + prm[2] * d.actuator_velocity[oadr + k]


@jit
def _pid_input(m, d, i):
  """The setpoint part of a PID force: kp*pos + kv*vel + ff + ki*integral (the affine bias
  adds -kp*length - kv*velocity)."""
  ctrl = d.scratch_ctrl
  spec = m.actuator_ctrlspec[i]
  k = m.actuator_ctrladr[i]
  force = 0.0
  if spec & mjINPUT_POS:
    force += -m.actuator_biasprm[i, 1] * ctrl[k]
    k += 1
  if spec & mjINPUT_VEL:
    force += -m.actuator_biasprm[i, 2] * ctrl[k]
    k += 1
  if spec & mjINPUT_FF:
    force += ctrl[k]
  ki = m.actuator_gainprm[i, 0]
  if ki > 0:
    adr = m.actuator_actadr[i] + (1 if m.actuator_dynprm[i, 1] > 0 else 0)
    force += ki * d.act[adr]
  return force


@jit
def _dcmotor_gain(m, d, i):
  """DC motor gain: K with a current state (force = K*current), K/R without (force = K/R*V),
  R at the motor's temperature; the controller's voltage (from the nominal R) replaces the
  control."""
  gainprm = m.actuator_gainprm[i]
  dynprm = m.actuator_dynprm[i]
  R = gainprm[0]
  K = gainprm[1]
  _, integral, temperature, _, _, _ = dcmotor_slots(m, i)
  adr = m.actuator_actadr[i]
  if temperature >= 0:
    R *= 1 + gainprm[2] * (d.act[adr + temperature] + dynprm[4] - gainprm[3])
  gain = K if dynprm[0] > 0 else K / mju_max(mjMINVAL, R)
  if m.actuator_ctrlspec[i] & (mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF):
    x_I = d.act[adr + integral] if integral >= 0 else 0.0
    d.scratch_ctrl[m.actuator_ctrladr[i]] = _dcmotor_voltage(m, d, i, x_I, gainprm[0])
  return gain


@jit
def _actuator_forces(m, d):
  """force = gain * (ctrl or act) + bias per actuator (sleeping ones keep theirs); True if a
  tendon force limit applies."""
  ctrl = d.scratch_ctrl
  tendon_frclimited = False
  sleeping = _sleep.enabled(m)
  for i in range(m.nactuator):
    if sleeping and _sleep.actuator_asleep(m, d, i):
      continue
    if actuator_disabled(m, i) or m.actuator_plugin[i] >= 0:
      continue
    gaintype = m.actuator_gaintype[i]
    if gaintype == mjGAIN_SO3:
      _so3_forces(m, d, i)
      continue
    uadr = m.actuator_ctrladr[i]
    oadr = m.actuator_outadr[i]

    # tendon transmission with a limit on the total actuator force
    if m.ntendon and not tendon_frclimited and m.actuator_trntype[i] == mjTRN_TENDON:
      tendon_frclimited = m.tendon_actfrclimited[m.actuator_trnid[i, 0]]

    # pid: setpoints and integral, plus the affine bias
    if gaintype == mjGAIN_PID:
      d.actuator_force[oadr] = _pid_input(m, d, i) + _bias(m, d, i, oadr, 0.0)
      continue

    # gain times control, or times (next-step) activation
    if gaintype == mjGAIN_DCMOTOR:
      gain = _dcmotor_gain(m, d, i)
    else:
      gain = _gain(m, d, i, oadr)
    actnum = m.actuator_actnum[i]
    if actnum == 0 or (gaintype == mjGAIN_DCMOTOR and m.actuator_dynprm[i, 0] <= 0):
      x = ctrl[uadr] if m.actuator_ctrlnum[i] else 0.0
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

    d.actuator_force[oadr] += _bias(m, d, i, oadr, gain)
  return tendon_frclimited


@jit
def _dcmotor_mechanical(m, d):
  """DC motor cogging torque and LuGre friction, added after the force limits."""
  sleeping = _sleep.enabled(m)
  for i in range(m.nactuator):
    if m.actuator_biastype[i] != mjBIAS_DCMOTOR or actuator_disabled(m, i):
      continue
    if sleeping and _sleep.actuator_asleep(m, d, i):
      continue
    biasprm = m.actuator_biasprm[i]
    dynprm = m.actuator_dynprm[i]
    oadr = m.actuator_outadr[i]
    A = biasprm[0]
    if A != 0:
      d.actuator_force[oadr] += A * math.sin(biasprm[1] * d.actuator_length[oadr] + biasprm[2])
    sigma0 = dynprm[5]
    if sigma0 > 0:
      _, _, _, bristle, _, _ = dcmotor_slots(m, i)
      adr = m.actuator_actadr[i] + bristle
      d.actuator_force[oadr] -= sigma0 * d.act[adr] + dynprm[6] * d.act_dot[adr]


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
  if m.nactuator == 0 or disabled(m, mjDSBL_ACTUATION):
    for k in range(nv):
      d.qfrc_actuator[k] = 0.0
    return

  # controls: delayed, clamped, all zero if any is bad
  _load_controls(m, d, not disabled(m, mjDSBL_CLAMPCTRL))

  # activation dynamics and forces; actuator plugins after the built-in types
  _act_dot(m, d)
  if m.nplugin:
    plugin_call.act_dot(m, d)
  tendon_frclimited = _actuator_forces(m, d)
  if m.nplugin:
    plugin_call.compute(m, d, plugin_call.mjPLUGIN_ACTUATOR)
  if tendon_frclimited:
    _clamp_tendon_forces(m, d)

  # per-actuator force limits (SO3: the norm of the torque)
  for i in range(m.nactuator):
    if not m.actuator_forcelimited[i]:
      continue
    oadr = m.actuator_outadr[i]
    hi = m.actuator_forcerange[i, 1]
    if m.actuator_gaintype[i] == mjGAIN_SO3:
      torque = d.actuator_force[oadr : oadr + 3]
      norm = math.sqrt(torque[0] * torque[0] + torque[1] * torque[1] + torque[2] * torque[2])
      if norm > hi:
        for k in range(3):
          torque[k] *= hi / norm
      continue
    for j in range(oadr, oadr + m.actuator_outnum[i]):
      d.actuator_force[j] = mju_clip(d.actuator_force[j], m.actuator_forcerange[i, 0], hi)
  _dcmotor_mechanical(m, d)

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
  if (
    m.ngravcomp
    and not disabled(m, mjDSBL_GRAVITY)
    and math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) != 0
  ):
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
      d.qfrc_actuator[k] = mju_clip(
        d.qfrc_actuator[k], m.jnt_actfrcrange[j, 0], m.jnt_actfrcrange[j, 1]
      )


@runs_stage(fwd_actuation)
def mj_fwdActuation(m, d) -> None:
  """Actuation stage: act_dot, actuator_force and qfrc_actuator at the current state."""
  fwd_actuation(m._struct, d._struct)
