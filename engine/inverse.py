"""Inverse dynamics: the generalized force that produces the current qacc (engine_inverse.c).

qfrc_inverse = M qacc + bias - passive - constraint forces. With the invdiscrete
enable flag, qacc is first converted from the discrete-time acceleration of the
selected integrator to the continuous-time one, so inverse(forward(x)) holds exactly.
"""

from engine import constraint as _constraint
from engine import derivative as _derivative
from engine import forward as _forward
from engine import passive as _passive
from engine import sensor as _sensor
from engine import smooth as _smooth
from engine._jit import jit
from engine._jit import local_array
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import never
from engine._stage import stage
from engine.enums import mjDSBL_EULERDAMP
from engine.enums import mjENBL_ENERGY
from engine.enums import mjENBL_INVDISCRETE
from engine.enums import mjINT_EULER
from engine.enums import mjINT_IMPLICIT
from engine.enums import mjINT_IMPLICITFAST
from engine.enums import mjSTAGE_POS
from engine.enums import mjSTAGE_VEL
from engine.flags import disabled
from engine.flags import enabled
from engine.sparse import solve_ld


@jit
def discrete_acc(m, d):
  """Port of mj_discreteAcc: continuous-time qacc from the integrator's discrete qacc."""
  nv = m.nv
  h = m.opt.timestep[0]
  qacc = d.qacc
  qfrc = d.scratch_inv_qfrc
  integrator = m.opt.integrator[0]
  if integrator == mjINT_EULER:
    if disabled(m, mjDSBL_EULERDAMP):
      return
    damped = False
    for i in range(nv):
      if _forward.implicit_damping(m, i):
        damped = True
        break
    if not damped:
      return
    # qfrc = (M + h*diag(dB/dv)) qacc
    _smooth.mul_m(m, d, qfrc, qacc)
    poly = local_array(2)
    for i in range(nv):
      damping = _forward.euler_damping(m, i, poly)
      deriv = _passive.poly_force_deriv(damping, poly, d.qvel[i], 1)
      qfrc[i] += h * deriv * qacc[i]
  elif integrator == mjINT_IMPLICIT:
    # qfrc = (M - h*qDeriv) qacc in the full pattern
    _derivative.smooth_vel(m, d, 1)
    for i in range(nv):
      s = 0.0
      adr = m.D_rowadr[i]
      for k in range(m.D_rownnz[i]):
        j = adr + k
        s += (d.M[m.mapM2D[j]] - h * d.qDeriv[j]) * qacc[m.D_colind[j]]
      qfrc[i] = s
  elif integrator == mjINT_IMPLICITFAST:
    # qfrc = (M - h*qDeriv without the bias derivative) qacc, symmetric lower layout
    _derivative.smooth_vel(m, d, 0)
    for k in range(m.nC):
      d.qH[k] = d.M[k] - h * d.qDeriv[m.mapD2M[k]]
    qfrc[:] = 0.0
    for i in range(nv):
      adr = m.M_rowadr[i]
      for k in range(m.M_rownnz[i] - 1):
        j = m.M_colind[adr + k]
        qfrc[i] += d.qH[adr + k] * qacc[j]
        qfrc[j] += d.qH[adr + k] * qacc[i]
      qfrc[i] += d.qH[adr + m.M_rownnz[i] - 1] * qacc[i]
    # free rigid subtrees use their local unsymmetric block, as the integrator does
    A = local_array(36)
    for jnt in range(m.njnt):
      if _derivative.free_mhat(m, d, jnt, h, A):
        adr = m.jnt_dofadr[jnt]
        for r in range(6):
          s = 0.0
          for c in range(6):
            s += A[6 * r + c] * qacc[adr + c]
          qfrc[adr + r] = s
  else:
    return
  # qacc = inv(M) qfrc
  qacc[:] = qfrc
  solve_ld(qacc, d.qLD, d.qLDiagInv, nv, 1, m.M_rownnz, m.M_rowadr, m.M_colind)


@stage(M, D, i8, i8, needed=never)
def inverse_skip(m, d, skipstage, skipsensor):
  """Port of mj_inverseSkip: qfrc_inverse for the current qpos, qvel and qacc."""
  nv = m.nv
  if skipstage < mjSTAGE_POS:
    _forward.fwd_position(m, d)
    if not skipsensor:
      _sensor.sensor_pos(m, d)
    if enabled(m, mjENBL_ENERGY):
      _sensor.energy_pos(m, d)
  if skipstage < mjSTAGE_VEL:
    _forward.fwd_velocity(m, d)
    if not skipsensor:
      _forward.sensors_vel(m, d)
    if enabled(m, mjENBL_ENERGY):
      _sensor.energy_vel(m, d)
  discrete = enabled(m, mjENBL_INVDISCRETE)
  saved = d.scratch_inv_qacc
  if discrete:
    saved[:] = d.qacc
    discrete_acc(m, d)
  # constraint forces of the soft model at this qacc
  _constraint.inverse_constraint(m, d)
  # bias forces, then acceleration-stage sensors
  _smooth.rne(m, d, 0, d.qfrc_inverse)
  _smooth.tendon_bias(m, d, d.qfrc_inverse)
  if not skipsensor:
    _forward.sensors_acc(m, d)
  ma = d.scratch_inv_Ma
  _smooth.mul_m(m, d, ma, d.qacc)
  for i in range(nv):
    d.qfrc_inverse[i] += ma[i] - d.qfrc_passive[i] - d.qfrc_constraint[i]
  if discrete:
    d.qacc[:] = saved
