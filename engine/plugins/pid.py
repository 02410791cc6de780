"""`mujoco.pid`: a PID controller actuator (MuJoCo's plugin/actuator/pid.cc, reimplemented).

Config: kp, ki, kd (gains, default 0), imax (largest integral term as a force), slewmax (largest
setpoint rate). Activations: the error integral when ki != 0, then the previous setpoint when
slewmax is given (the actuator's actdim must say how many; the previous setpoint counts once
time has advanced); no plugin state. Force = kp * error + kd * d(error)/dt + ki * integral,
error = setpoint - actuator_length; the setpoint is ctrl (clamped to ctrlrange), or the last
activation for stateful dynamics (filter, integrator), limited to slewmax per second.
"""

import math

import numpy as np

from engine import plugin_call
from engine._jit import jit
from engine.enums import mjDYN_FILTEREXACT
from engine.enums import mjDYN_NONE
from engine.enums import mjMINVAL
from engine.plugins import config_values

ATTRIBUTES = ("kp", "ki", "kd", "imax", "slewmax")
# parameters: kp ki kd has_imax imax has_slew slewmax actuator
KP, KI, KD, HAS_IMAX, IMAX, HAS_SLEW, SLEWMAX, ACTUATOR = range(8)


def _number(config, key):
  text = config[key].strip()
  if not text:
    return None
  try:
    return float(text.split()[0])
  except ValueError:
    raise ValueError(f"mujoco.pid: config {key}={config[key]!r} is not a number") from None


def _actdim(config):
  ki = _number(config, "ki") or 0.0
  return int(ki != 0) + int(_number(config, "slewmax") is not None)


def _init(m, instance):
  """The gains, the integral clamp (imax / ki) and the one actuator the instance drives."""
  config = config_values(m, instance, ATTRIBUTES)
  kp, ki, kd = ((_number(config, k) or 0.0) for k in ("kp", "ki", "kd"))
  imax = _number(config, "imax")
  has_imax = imax is not None and ki != 0
  slew = _number(config, "slewmax")
  if has_imax and imax / ki < 0:
    raise ValueError("mujoco.pid: negative imax")
  if slew is not None and slew < 0:
    raise ValueError("mujoco.pid: slewmax must be non-negative")
  actuators = np.flatnonzero(np.asarray(m.actuator_plugin) == instance)
  if len(actuators) != 1:
    raise ValueError(
      f"mujoco.pid: plugin instance {instance} drives {len(actuators)} "
      "actuators; it needs exactly one"
    )
  return np.array(
    [
      kp,
      ki,
      kd,
      float(has_imax),
      imax / ki if has_imax else 0.0,
      float(slew is not None),
      slew or 0.0,
      float(actuators[0]),
    ]
  )


@jit
def _next_activation(m, d, i, adr, act_dot):
  """act after one step at act_dot (Euler, or exact for filterexact), clamped to actrange."""
  act = d.act[adr]
  h = m.opt.timestep[0]
  if m.actuator_dyntype[i] == mjDYN_FILTEREXACT:
    tau = max(mjMINVAL, m.actuator_dynprm[i, 0])
    act = act + act_dot * tau * (1 - math.exp(-h / tau))
  else:
    act = act + act_dot * h
  if m.actuator_actlimited[i]:
    act = min(max(act, m.actuator_actrange[i, 0]), m.actuator_actrange[i, 1])
  return act


@jit
def _setpoint(m, d, p, actearly):
  """The controller's setpoint: ctrl (clamped) or the last activation, slew-limited."""
  i = int(p[ACTUATOR])
  if m.actuator_dyntype[i] == mjDYN_NONE:
    ctrl = d.ctrl[i]
    if m.actuator_ctrllimited[i]:
      ctrl = min(max(ctrl, m.actuator_ctrlrange[i, 0]), m.actuator_ctrlrange[i, 1])
  else:
    adr = m.actuator_actadr[i] + m.actuator_actnum[i] - 1
    ctrl = _next_activation(m, d, i, adr, d.act_dot[adr]) if actearly else d.act[adr]
  if p[HAS_SLEW] and d.time[0] > 0:
    previous = d.act[m.actuator_actadr[i] + (1 if p[KI] != 0 else 0)]
    step = p[SLEWMAX] * m.opt.timestep[0]
    ctrl = min(max(ctrl, previous - step), previous + step)
  return ctrl


@jit
def _params(m, instance):
  adr = m.plugin_paramadr[instance]
  return m.plugin_param[adr : adr + m.plugin_paramnum[instance]]


@jit
def _integral(m, d, p, error):
  integral = d.act[m.actuator_actadr[int(p[ACTUATOR])]] + error * m.opt.timestep[0]
  if p[HAS_IMAX]:
    integral = min(max(integral, -p[IMAX]), p[IMAX])
  return integral


def act_dot(m, d, instance):
  p = _params(m, instance)
  i = int(p[ACTUATOR])
  ctrl = _setpoint(m, d, p, False)
  error = ctrl - d.actuator_length[i]
  h = m.opt.timestep[0]
  adr = m.actuator_actadr[i]
  if p[KI] != 0:
    d.act_dot[adr] = (_integral(m, d, p, error) - d.act[adr]) / h
    adr += 1
  if p[HAS_SLEW]:
    d.act_dot[adr] = (ctrl - d.act[adr]) / h


def compute(m, d, instance, capability):
  p = _params(m, instance)
  i = int(p[ACTUATOR])
  ctrl = _setpoint(m, d, p, m.actuator_actearly[i])
  error = ctrl - d.actuator_length[i]
  ctrl_dot = 0.0
  if m.actuator_dyntype[i] != mjDYN_NONE:
    ctrl_dot = d.act_dot[m.actuator_actadr[i] + m.actuator_actnum[i] - 1]
  error_dot = ctrl_dot - d.actuator_velocity[i]
  integral = _integral(m, d, p, error) if p[KI] != 0 else 0.0
  d.actuator_force[i] = p[KP] * error + p[KD] * error_dot + p[KI] * integral


SPEC = dict(
  name="mujoco.pid",
  capabilities=plugin_call.mjPLUGIN_ACTUATOR,
  attributes=ATTRIBUTES,
  actdim=_actdim,
  init=_init,
  act_dot=act_dot,
  compute=compute,
)
