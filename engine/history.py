"""History buffers of delayed actuators and sensors (MuJoCo 3.17's d.history).

An actuator or sensor with `nsample` > 0 owns the block d.history[historyadr:] laid out as
[user, cursor, times(n), values(n * dim)]: `user` is an interval sensor's last sampling time,
`cursor` the physical index of the newest sample (a float, as in MuJoCo), logical index 0 the
oldest sample and n-1 the newest. `dim` is the actuator's number of controls or the sensor's
dimension. mj_resetData fills the times one step (or one sampling period) apart before 0;
mj_step inserts a sample per buffer at the start of each integration (mj_advance);
actuation and the sensor stages read the delayed values (mj_readCtrl, mj_readSensor).
Interpolation between samples: 0 zero-order hold, 1 linear, else cubic Hermite.
"""

import math

from engine._jit import jit
from engine.enums import mjMINVAL


@jit
def _physical(cursor, n, logical):
  """Physical slot of the logical sample index (0 oldest, n-1 newest)."""
  return (cursor + 1 + logical) % n


@jit
def _find_index(buf, n, cursor, t):
  """Smallest logical i whose time is >= t: 0 at or before the oldest, n after the newest."""
  if t <= buf[2 + _physical(cursor, n, 0)]:
    return 0
  if t > buf[2 + _physical(cursor, n, n - 1)]:
    return n
  lo = 0
  hi = n - 1
  while hi - lo > 1:
    mid = (lo + hi) // 2
    if buf[2 + _physical(cursor, n, mid)] < t:
      lo = mid
    else:
      hi = mid
  return hi


@jit
def insert(buf, n, dim, t):
  """Port of mju_historyInsert: room for a sample at time t; returns the offset of its dim
  values in buf (the existing sample at t, else a new one that drops the oldest)."""
  cursor = int(buf[1])
  i = _find_index(buf, n, cursor, t)
  values = 2 + n
  if i < n:
    p = _physical(cursor, n, i)
    if abs(t - buf[2 + p]) < mjMINVAL:
      return values + p * dim

  # older than the oldest: replace the oldest
  if i == 0:
    p = _physical(cursor, n, 0)
    buf[2 + p] = t
    return values + p * dim

  # newer than the newest: the cursor moves onto the oldest slot
  if i == n:
    cursor = (cursor + 1) % n
    buf[1] = cursor
    buf[2 + cursor] = t
    return values + cursor * dim

  # in between: shift logical samples 1..i-1 down by one (dropping the oldest), insert at i-1
  for j in range(i - 1):
    src = _physical(cursor, n, j + 1)
    dst = _physical(cursor, n, j)
    buf[2 + dst] = buf[2 + src]
    for k in range(dim):
      buf[values + dst * dim + k] = buf[values + src * dim + k]
  p = _physical(cursor, n, i - 1)
  buf[2 + p] = t
  return values + p * dim


@jit
def read(buf, n, dim, out, t, interp):
  """Port of mju_historyRead: the value at time t into out (dim numbers).

  Times outside the buffer clamp to its oldest or newest sample; between samples, zero-order
  hold (interp 0), linear (1) or cubic Hermite with Catmull-Rom slopes, zero at the ends.
  """
  cursor = int(buf[1])
  values = 2 + n
  oldest = _physical(cursor, n, 0)
  newest = _physical(cursor, n, n - 1)
  if t <= buf[2 + oldest] + mjMINVAL:
    _copy(out, buf, values + oldest * dim, dim)
    return
  if t >= buf[2 + newest] - mjMINVAL:
    _copy(out, buf, values + newest * dim, dim)
    return
  i = _find_index(buf, n, cursor, t)
  hi = _physical(cursor, n, i)
  if abs(t - buf[2 + hi]) < mjMINVAL:
    _copy(out, buf, values + hi * dim, dim)
    return
  lo = _physical(cursor, n, i - 1)
  if interp == 0:
    _copy(out, buf, values + lo * dim, dim)
    return
  tlo = buf[2 + lo]
  thi = buf[2 + hi]
  dt = thi - tlo
  alpha = (t - tlo) / dt
  vlo = values + lo * dim
  vhi = values + hi * dim
  if interp == 1:
    for k in range(dim):
      out[k] = buf[vlo + k] + alpha * (buf[vhi + k] - buf[vlo + k])
    return

  # cubic Hermite basis
  alpha2 = alpha * alpha
  alpha3 = alpha2 * alpha
  h00 = 2 * alpha3 - 3 * alpha2 + 1
  h10 = alpha3 - 2 * alpha2 + alpha
  h01 = -2 * alpha3 + 3 * alpha2
  h11 = alpha3 - alpha2
  for k in range(dim):
    m_lo = 0.0
    if i > 1:
      prev = _physical(cursor, n, i - 2)
      m_lo = (buf[vhi + k] - buf[values + prev * dim + k]) / (thi - buf[2 + prev])
    m_hi = 0.0
    if i < n - 1:
      nxt = _physical(cursor, n, i + 1)
      m_hi = (buf[values + nxt * dim + k] - buf[vlo + k]) / (buf[2 + nxt] - tlo)
    out[k] = h00 * buf[vlo + k] + h10 * dt * m_lo + h01 * buf[vhi + k] + h11 * dt * m_hi


@jit
def _copy(out, buf, adr, dim):
  for k in range(dim):
    out[k] = buf[adr + k]


@jit
def _block(d, adr, n, dim):
  """The history block of one actuator or sensor (a view)."""
  return d.history[adr : adr + 2 + n + n * dim]


# ---- reset ----


@jit
def init(m, d):
  """History buffers as mj_resetData leaves them: zero values, cursor on the last slot, times
  one timestep apart ending at -timestep; an interval sensor's times one period apart ending
  at its phase (or -period), each rounded up to a timestep, and its last sampling time there."""
  dt = m.opt.timestep[0]
  for i in range(m.nactuator):
    n = m.actuator_history[i, 0]
    if n <= 0:
      continue
    buf = _block(d, m.actuator_historyadr[i], n, m.actuator_ctrlnum[i])
    buf[:] = 0.0
    buf[1] = n - 1
    for j in range(n):
      buf[2 + j] = -(n - j) * dt
  for i in range(m.nsensor):
    n = m.sensor_history[i, 0]
    if n <= 0:
      continue
    buf = _block(d, m.sensor_historyadr[i], n, m.sensor_dim[i])
    buf[:] = 0.0
    period = m.sensor_interval[i, 0]
    phase = m.sensor_interval[i, 1]
    t0 = -period if phase == 0 else phase
    buf[0] = t0 if period > 0 else -dt
    buf[1] = n - 1
    for j in range(n):
      if period > 0:
        buf[2 + j] = math.ceil((t0 - (n - 1 - j) * period) / dt) * dt
      else:
        buf[2 + j] = -(n - j) * dt


# ---- reads ----


@jit
def read_ctrl(m, d, i, time, out):
  """Port of mj_readCtrl with the model's interpolation: actuator i's controls at `time` minus
  its delay, into out (ctrlnum numbers); the current controls if it has no buffer."""
  n = m.actuator_history[i, 0]
  adr = m.actuator_ctrladr[i]
  num = m.actuator_ctrlnum[i]
  if n <= 0:
    for k in range(num):
      out[k] = d.ctrl[adr + k]
    return
  buf = _block(d, m.actuator_historyadr[i], n, num)
  read(buf, n, num, out, time - m.actuator_delay[i], m.actuator_history[i, 1])


@jit
def sensor_reads_buffer(m, d, i):
  """Whether the sensor stages take sensor i from its buffer instead of computing it: a
  delayed sensor, or an interval sensor between two sampling times (compute_or_read_sensor)."""
  if m.nhistory == 0 or m.sensor_history[i, 0] <= 0:
    return False
  if m.sensor_delay[i] > 0:
    return True
  period = m.sensor_interval[i, 0]
  return period > 0 and not d.history[m.sensor_historyadr[i]] + period <= d.time[0]


@jit
def read_sensor(m, d, i, out):
  """Port of mj_readSensor with the model's interpolation: sensor i at time minus its delay."""
  n = m.sensor_history[i, 0]
  buf = _block(d, m.sensor_historyadr[i], n, m.sensor_dim[i])
  read(buf, n, m.sensor_dim[i], out, d.time[0] - m.sensor_delay[i], m.sensor_history[i, 1])


# ---- insertion (mj_advance) ----


@jit
def advance_ctrl(m, d):
  """Appends every buffered actuator's current controls at the current time."""
  for i in range(m.nactuator):
    n = m.actuator_history[i, 0]
    if n <= 0:
      continue
    num = m.actuator_ctrlnum[i]
    buf = _block(d, m.actuator_historyadr[i], n, num)
    slot = insert(buf, n, num, d.time[0])
    adr = m.actuator_ctrladr[i]
    for k in range(num):
      buf[slot + k] = d.ctrl[adr + k]


@jit
def sensor_slot(m, d, i):
  """Where sensor i's next sample goes: its offset in d.history, or -1 when an interval sensor
  is between sampling times. Advances the interval sensor's last sampling time by a period."""
  n = m.sensor_history[i, 0]
  if n <= 0:
    return -1
  adr = m.sensor_historyadr[i]
  period = m.sensor_interval[i, 0]
  if period > 0:
    if not d.history[adr] + period <= d.time[0]:
      return -1
    d.history[adr] += period
  dim = m.sensor_dim[i]
  return adr + insert(_block(d, adr, n, dim), n, dim, d.time[0])
