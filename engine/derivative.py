"""The analytic velocity derivative used by the implicit integrators (MuJoCo 3.17).

Ports mjd_smooth_vel with its parts (engine_derivative.c): actuator, passive (dof and
tendon damping with their polynomials, inertia-box and ellipsoid fluid) and Coriolis (RNE)
derivatives. The integrator itself (mj_implicit) is in engine/forward.py.

`d.qDeriv` = d(qfrc_actuator + qfrc_passive - qfrc_bias)/d(qvel) lives in the full
symmetric dof pattern `m.D_rowadr/D_rownnz/D_colind` (rows sorted by column, diagonal at
`m.D_diag`). forward.implicit integrates with M - h*qDeriv: a sparse LU in that pattern
(`d.qLU`) for the implicit integrator; for implicitfast the lower triangle in the reduced
inertia layout (`d.qH`, L'DL) without the RNE term, plus MuJoCo's local 6x6 solve that
restores the gyroscopic derivative of free rigid subtrees (a free joint whose descendants
are welded). Sleep filtering and flexes are not supported (every body is awake).

Known differences: the free-subtree bias derivative (mjd_freeBias_vel) is evaluated as the
RNE derivative of one body with the composite inertia d.crb, equal to MuJoCo's to rounding;
DC motors contribute only LuGre damping and, when driven by voltage alone, their back-EMF
terms (what MuJoCo 3.17 computes); a singular LU pivot, an error in MuJoCo, leaves qLU
partly factored here. Model-sized workspaces are MjData scratch fields (nothing is allocated
per call).
"""

import numpy as np

from engine import actuation as _actuation
from engine import passive as _passive
from engine._jit import jit
from engine._jit import local_array
from engine._jit import local_int_array
from engine._jit import zero
from engine._stage import IMPLICIT
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import stage
from engine.enums import mjBIAS_AFFINE
from engine.enums import mjBIAS_DCMOTOR
from engine.enums import mjBIAS_SO3
from engine.enums import mjDSBL_ACTUATION
from engine.enums import mjDSBL_DAMPER
from engine.enums import mjDSBL_SPRING
from engine.enums import mjDYN_NONE
from engine.enums import mjGAIN_AFFINE
from engine.enums import mjGAIN_DCMOTOR
from engine.enums import mjGAIN_MUSCLE
from engine.enums import mjGAIN_SO3
from engine.enums import mjINPUT_FF
from engine.enums import mjINPUT_POS
from engine.enums import mjINPUT_VEL
from engine.enums import mjINT_IMPLICITFAST
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjMINVAL
from engine.enums import mjNPOLY
from engine.enums import mjOBJ_JOINT
from engine.enums import mjOBJ_TENDON
from engine.enums import mjPI
from engine.flags import disabled
from engine.math import mju_mulInertVec
from engine.math import mju_muscleGainLength
from engine.math import mju_transformSpatial
from engine.sparse import add_to_scl_sparse_inc

# ---- derivatives of spatial algebra (6x6 and 3x3 row-major, flat) ----


@jit
def _d_cross(a, b, Da, Db):
  """Port of mjd_cross: Da = d(a x b)/da, Db = d(a x b)/db."""
  Da[:] = 0.0
  Da[1] = b[2]
  Da[2] = -b[1]
  Da[3] = -b[2]
  Da[5] = b[0]
  Da[6] = b[1]
  Da[7] = -b[0]
  Db[:] = 0.0
  Db[1] = -a[2]
  Db[2] = a[1]
  Db[3] = a[2]
  Db[5] = -a[0]
  Db[6] = -a[1]
  Db[7] = a[0]


@jit
def _d_cross_motion_vel(D, v):
  """Port of mjd_crossMotion_vel: d crossMotion(vel, v) / d vel."""
  D[:] = 0.0
  D[2] = -v[1]
  D[1] = v[2]
  D[6 + 2] = v[0]
  D[6 + 0] = -v[2]
  D[12 + 1] = -v[0]
  D[12 + 0] = v[1]
  D[18 + 2] = -v[4]
  D[18 + 1] = v[5]
  D[18 + 5] = -v[1]
  D[18 + 4] = v[2]
  D[24 + 2] = v[3]
  D[24 + 0] = -v[5]
  D[24 + 5] = v[0]
  D[24 + 3] = -v[2]
  D[30 + 1] = -v[3]
  D[30 + 0] = v[4]
  D[30 + 4] = -v[0]
  D[30 + 3] = v[1]


@jit
def _d_cross_force_vel(D, f):
  """Port of mjd_crossForce_vel: d crossForce(vel, f) / d vel."""
  D[:] = 0.0
  D[2] = -f[1]
  D[1] = f[2]
  D[5] = -f[4]
  D[4] = f[5]
  D[6 + 2] = f[0]
  D[6 + 0] = -f[2]
  D[6 + 5] = f[3]
  D[6 + 3] = -f[5]
  D[12 + 1] = -f[0]
  D[12 + 0] = f[1]
  D[12 + 4] = -f[3]
  D[12 + 3] = f[4]
  D[18 + 2] = -f[4]
  D[18 + 1] = f[5]
  D[24 + 2] = f[3]
  D[24 + 0] = -f[5]
  D[30 + 1] = -f[3]
  D[30 + 0] = f[4]


@jit
def _d_cross_force_frc(D, vel):
  """Port of mjd_crossForce_frc: d crossForce(vel, f) / d f."""
  D[:] = 0.0
  D[1] = -vel[2]
  D[2] = vel[1]
  D[4] = -vel[5]
  D[5] = vel[4]
  D[6 + 0] = vel[2]
  D[6 + 2] = -vel[0]
  D[6 + 3] = vel[5]
  D[6 + 5] = -vel[3]
  D[12 + 0] = -vel[1]
  D[12 + 1] = vel[0]
  D[12 + 3] = -vel[4]
  D[12 + 4] = vel[3]
  D[18 + 4] = -vel[2]
  D[18 + 5] = vel[1]
  D[24 + 3] = vel[2]
  D[24 + 5] = -vel[0]
  D[30 + 3] = -vel[1]
  D[30 + 4] = vel[0]


@jit
def _d_mul_inert_vec_vel(D, i):
  """Port of mjd_mulInertVec_vel: d mulInertVec(i, v) / d v."""
  D[:] = 0.0
  D[0] = i[0]
  D[1] = i[3]
  D[2] = i[4]
  D[4] = -i[8]
  D[5] = i[7]
  D[6 + 0] = i[3]
  D[6 + 1] = i[1]
  D[6 + 2] = i[5]
  D[6 + 3] = i[8]
  D[6 + 5] = -i[6]
  D[12 + 0] = i[4]
  D[12 + 1] = i[5]
  D[12 + 2] = i[2]
  D[12 + 3] = -i[7]
  D[12 + 4] = i[6]
  D[18 + 1] = i[8]
  D[18 + 2] = -i[7]
  D[18 + 3] = i[9]
  D[24 + 2] = i[6]
  D[24 + 0] = -i[8]
  D[24 + 4] = i[9]
  D[30 + 0] = i[7]
  D[30 + 1] = -i[6]
  D[30 + 5] = i[9]


@jit
def _mul_mat6_vec(res, mat, vec, vadr):
  """res = mat (6x6) @ vec[vadr:vadr+6]."""
  for r in range(6):
    s = 0.0
    for c in range(6):
      s += mat[6 * r + c] * vec[vadr + c]
    res[r] = s


@jit
def _mul_mat6_mat6(res, a, b):
  """res = a @ b for flat 6x6 matrices."""
  for r in range(6):
    for c in range(6):
      s = 0.0
      for k in range(6):
        s += a[6 * r + k] * b[6 * k + c]
      res[6 * r + c] = s


# ---- sparse helpers ----


@jit
def _add_jtbj_sparse(m, d, J, B, n, offset, J_rownnz, J_rowadr, J_colind):
  """Port of addJTBJSparse: qDeriv += J'*B*J for rows offset..offset+n of sparse J (B is n x n)."""
  for i in range(n):
    for j in range(n):
      b = B[i * n + j]
      if b == 0:
        continue
      nnz_i = J_rownnz[offset + i]
      adr_i = J_rowadr[offset + i]
      nnz_j = J_rownnz[offset + j]
      adr_j = J_rowadr[offset + j]
      for k in range(nnz_i):
        ik = adr_i + k
        col = J_colind[ik]
        # qDeriv(col, :) += J(j, :) * J(i, col) * B(i, j)
        add_to_scl_sparse_inc(
          d.qDeriv,
          m.D_rowadr[col],
          m.D_rownnz[col],
          m.D_colind,
          m.D_rowadr[col],
          J,
          adr_j,
          nnz_j,
          J_colind,
          adr_j,
          J[ik] * b,
        )


# ---- actuator derivative ----


@jit
def _dcmotor_resistance(m, d, i):
  """Port of mj_dcmotorResistance: the winding resistance at the motor's temperature."""
  gainprm = m.actuator_gainprm[i]
  R = gainprm[0]
  _, _, temperature, _, _, _ = _actuation.dcmotor_slots(m, i)
  if temperature >= 0:
    T = d.act[m.actuator_actadr[i] + temperature]
    R *= 1 + gainprm[2] * (T + m.actuator_dynprm[i, 4] - gainprm[3])
  return max(mjMINVAL, R)


@jit
def _dcmotor_voltage_vel(m, i):
  """d(voltage)/d(velocity) of a DC motor, ignoring the voltage limit: 0 for a voltage input,
  K - R*kd/K for the servo (its torque command turned into a voltage)."""
  if not m.actuator_ctrlspec[i] & (mjINPUT_POS | mjINPUT_VEL | mjINPUT_FF):
    return 0.0
  gainprm = m.actuator_gainprm[i]
  K = gainprm[1]
  return K - gainprm[0] * gainprm[6] / K


@jit
def _muscle_gain_vel(length, vel, lengthrange, acc0, prm):
  """Port of mjd_muscleGain_vel: derivative of mju_muscleGain with respect to velocity."""
  range0 = prm[0]
  range1 = prm[1]
  force = prm[2]
  scale = prm[3]
  lmin = prm[4]
  lmax = prm[5]
  vmax = prm[6]
  fvmax = prm[8]
  # scale force if negative
  if force < 0:
    force = scale / max(mjMINVAL, acc0)
  # optimal length, normalized length and velocity
  L0 = (lengthrange[1] - lengthrange[0]) / max(mjMINVAL, range1 - range0)
  L = range0 + (length - lengthrange[0]) / max(mjMINVAL, L0)
  V = vel / max(mjMINVAL, L0 * vmax)
  FL = mju_muscleGainLength(L, lmin, lmax)
  # derivative of the velocity curve
  y = fvmax - 1
  if V <= -1:
    dFV = 0.0
  elif V <= 0:
    dFV = 2 * V + 2
  elif V <= y:
    dFV = (-2 * V + 2 * y) / max(mjMINVAL, y)
  else:
    dFV = 0.0
  return -force * FL * dFV / max(mjMINVAL, L0 * vmax)


@stage(needed=IMPLICIT)
def actuator_vel(m, d):
  """Port of mjd_actuator_vel: qDeriv += d qfrc_actuator / d qvel."""
  if disabled(m, mjDSBL_ACTUATION):
    return
  bias = local_array(1)
  for i in range(m.nactuator):
    uadr = m.actuator_ctrladr[i]
    oadr = m.actuator_outadr[i]
    if _actuation.actuator_disabled(m, i):
      continue
    # skip if the force is clamped by forcerange
    if m.actuator_forcelimited[i]:
      lo = m.actuator_forcerange[i, 0]
      hi = m.actuator_forcerange[i, 1]
      if m.actuator_gaintype[i] == mjGAIN_SO3:
        f0 = d.actuator_force[oadr]
        f1 = d.actuator_force[oadr + 1]
        f2 = d.actuator_force[oadr + 2]
        if np.sqrt(f0 * f0 + f1 * f1 + f2 * f2) >= hi:
          continue
      else:
        force = d.actuator_force[oadr]
        if force <= lo or force >= hi:
          continue
    bias_vel = 0.0
    gain_vel = 0.0
    gainprm = m.actuator_gainprm[i]
    dynprm = m.actuator_dynprm[i]
    # bias: affine and SO3 kv, DC motor back-EMF
    biastype = m.actuator_biastype[i]
    if biastype == mjBIAS_AFFINE or biastype == mjBIAS_SO3:
      bias_vel = m.actuator_biasprm[i, 2]
    elif biastype == mjBIAS_DCMOTOR:
      if dynprm[0] <= 0:
        K = gainprm[1]
        bias_vel -= K * K / _dcmotor_resistance(m, d, i)
    # gain: affine kv, muscle force-velocity curve, DC motor current and LuGre damping
    gaintype = m.actuator_gaintype[i]
    if gaintype == mjGAIN_AFFINE:
      gain_vel = gainprm[2]
    elif gaintype == mjGAIN_MUSCLE:
      gain_vel = _muscle_gain_vel(
        d.actuator_length[oadr],
        d.actuator_velocity[oadr],
        m.actuator_lengthrange[oadr],
        m.actuator_acc0[oadr],
        gainprm,
      )
    elif gaintype == mjGAIN_DCMOTOR:
      # force K/R*V (stateless) or K*next current (exact step of di/dt = (V - K*w)/R/te - i/te)
      R = _dcmotor_resistance(m, d, i)
      K = gainprm[1]
      dV = _dcmotor_voltage_vel(m, i)
      te = dynprm[0]
      if te > 0:
        s = 1 - np.exp(-m.opt.timestep[0] / te)
        bias_vel += K * (dV - K) * s / R
      else:
        bias_vel += K * dV / R
      # LuGre micro-damping
      sigma1 = dynprm[6]
      if sigma1 > 0:
        bias_vel -= sigma1
    # force = gain * [ctrl or act]
    if gain_vel != 0:
      if m.actuator_dyntype[i] == mjDYN_NONE:
        bias_vel += gain_vel * d.ctrl[uadr]
      else:
        act_adr = m.actuator_actadr[i] + m.actuator_actnum[i] - 1
        act = d.act[act_adr]
        if m.actuator_actearly[i]:
          act = _actuation.next_activation(m, d, i, act_adr, d.act_dot[act_adr])
        bias_vel += gain_vel * act
    # add once per output row
    if bias_vel != 0:
      bias[0] = bias_vel
      for k in range(m.actuator_outnum[i]):
        _add_jtbj_sparse(
          m,
          d,
          d.actuator_moment,
          bias,
          1,
          oadr + k,
          d.moment_rownnz,
          d.moment_rowadr,
          d.moment_colind,
        )


# ---- passive derivative: damping ----


# ---- passive derivative: fluid ----


@jit
def _body_chain(m, body, chain):
  """Port of mj_bodyChain: dofs moving `body` in increasing order; returns their count."""
  while body > 0 and m.body_dofnum[body] == 0:
    body = m.body_parentid[body]
  if body <= 0:
    return 0
  n = 0
  dof = m.body_dofadr[body] + m.body_dofnum[body] - 1
  while dof >= 0:
    chain[n] = dof
    n += 1
    dof = m.dof_parentid[dof]
  # reverse into increasing order
  for k in range(n // 2):
    tmp = chain[k]
    chain[k] = chain[n - 1 - k]
    chain[n - 1 - k] = tmp
  return n


@jit
def _local_jac(m, d, J, tmp, point, body, rot, chain, nnz):
  """Rotational (rows 0-2) and translational (rows 3-5) Jacobian of a point, in frame `rot`.

  J is (6*nnz,) row-major over the dofs in `chain` (mj_jacSparse), then rotated into the
  local frame as J <- rot' J, blockwise (mju_mulMatTMat).
  """
  root = m.body_rootid[body]
  ox = point[0] - d.subtree_com[root, 0]
  oy = point[1] - d.subtree_com[root, 1]
  oz = point[2] - d.subtree_com[root, 2]
  for k in range(nnz):
    c = d.cdof[chain[k]]
    J[k] = c[0]
    J[nnz + k] = c[1]
    J[2 * nnz + k] = c[2]
    J[3 * nnz + k] = c[3] + (c[1] * oz - c[2] * oy)
    J[4 * nnz + k] = c[4] + (c[2] * ox - c[0] * oz)
    J[5 * nnz + k] = c[5] + (c[0] * oy - c[1] * ox)
  # rotate each 3-row block to the local frame
  for blk in range(2):
    base = 3 * blk * nnz
    for r in range(3):
      for k in range(nnz):
        tmp[r * nnz + k] = 0.0
      for c in range(3):
        a = rot[3 * c + r]
        if a != 0:
          for k in range(nnz):
            tmp[r * nnz + k] += a * J[base + c * nnz + k]
    for k in range(3 * nnz):
      J[base + k] = tmp[k]


@jit
def _local_velocity(m, d, body, pos, rot, wind, res):
  """Local 6D velocity of a frame on `body` relative to the wind (mj_objectVelocity, flg_local)."""
  root = m.body_rootid[body]
  mju_transformSpatial(res, d.cvel[body], 0, pos, d.subtree_com[root], rot)
  # wind in local coordinates, subtracted from the linear velocity
  lwind = local_array(6)
  mju_transformSpatial(lwind, wind, 0, pos, d.subtree_com[root], rot)
  res[3] -= lwind[3]
  res[4] -= lwind[4]
  res[5] -= lwind[5]


@jit
def _add_to_quadrant(B, D, col_quad, row_quad):
  """Port of addToQuadrant: adds 3x3 D to one quadrant of 6x6 B."""
  r = 3 * row_quad
  c = 3 * col_quad
  for a in range(3):
    for b in range(3):
      B[6 * (c + a) + r + b] += D[3 * a + b]


@jit
def _ellipsoid_max_moment(size, axis):
  d0 = size[axis]
  d1 = size[(axis + 1) % 3]
  d2 = size[(axis + 2) % 3]
  dm = max(d1, d2)
  return 8.0 / 15.0 * mjPI * d0 * ((dm * dm) * (dm * dm))


@jit
def _d_added_mass_forces(B, lvel, density, virtual_mass, virtual_inertia, Da, Db):
  """Port of mjd_addedMassForces: derivative of the added-mass forces, B is 6x6."""
  lin_vel = lvel[3:6]
  ang_vel = lvel[0:3]
  lin_mom = local_array(3)
  ang_mom = local_array(3)
  for k in range(3):
    lin_mom[k] = density * virtual_mass[k] * lin_vel[k]
    ang_mom[k] = density * virtual_inertia[k] * ang_vel[k]
  # torque += ang_mom x ang_vel
  _d_cross(ang_mom, ang_vel, Da, Db)
  _add_to_quadrant(B, Db, 0, 0)
  for k in range(9):
    Da[k] *= density * virtual_inertia[k % 3]
  _add_to_quadrant(B, Da, 0, 0)
  # torque += lin_mom x lin_vel
  _d_cross(lin_mom, lin_vel, Da, Db)
  _add_to_quadrant(B, Db, 0, 1)
  for k in range(9):
    Da[k] *= density * virtual_mass[k % 3]
  _add_to_quadrant(B, Da, 0, 1)
  # force += lin_mom x ang_vel
  _d_cross(lin_mom, ang_vel, Da, Db)
  _add_to_quadrant(B, Db, 1, 0)
  for k in range(9):
    Da[k] *= density * virtual_mass[k % 3]
  _add_to_quadrant(B, Da, 1, 1)


@jit
def _d_viscous_torque(D, lvel, density, viscosity, size, slender_drag_coef, ang_drag_coef):
  """Port of mjd_viscous_torque: derivative of the viscous and quadratic torque, D is 3x3."""
  d_max = max(max(size[0], size[1]), size[2])
  d_min = min(min(size[0], size[1]), size[2])
  d_mid = size[0] + size[1] + size[2] - d_max - d_min
  eq_sphere_D = 2.0 / 3.0 * (size[0] + size[1] + size[2])
  lin_visc_torq_coef = mjPI * eq_sphere_D * eq_sphere_D * eq_sphere_D
  I_max = 8.0 / 15.0 * mjPI * d_mid * (d_max * d_max) * (d_max * d_max)
  x = lvel[0]
  y = lvel[1]
  z = lvel[2]
  c0 = ang_drag_coef * _ellipsoid_max_moment(size, 0)
  c0 += slender_drag_coef * (I_max - _ellipsoid_max_moment(size, 0))
  c1 = ang_drag_coef * _ellipsoid_max_moment(size, 1)
  c1 += slender_drag_coef * (I_max - _ellipsoid_max_moment(size, 1))
  c2 = ang_drag_coef * _ellipsoid_max_moment(size, 2)
  c2 += slender_drag_coef * (I_max - _ellipsoid_max_moment(size, 2))
  v0 = x * c0
  v1 = y * c1
  v2 = z * c2
  dens = density / max(mjMINVAL, np.sqrt(v0 * v0 + v1 * v1 + v2 * v2))
  # -density * [x, y, z] * mom_coef^2
  s0 = -dens * x * c0 * c0
  s1 = -dens * y * c1 * c1
  s2 = -dens * z * c2 * c2
  lin_coef = viscosity * lin_visc_torq_coef
  D[:] = 0.0
  diag = x * s0 + y * s1 + z * s2 - lin_coef
  D[0] = diag
  D[4] = diag
  D[8] = diag
  # outer product
  D[0] += s0 * x
  D[1] += s1 * x
  D[2] += s2 * x
  D[3] += s0 * y
  D[4] += s1 * y
  D[5] += s2 * y
  D[6] += s0 * z
  D[7] += s1 * z
  D[8] += s2 * z


@jit
def _d_viscous_drag(D, lvel, density, viscosity, size, blunt_drag_coef, slender_drag_coef):
  """Port of mjd_viscous_drag: derivative of the viscous and quadratic drag, D is 3x3."""
  d_max = max(max(size[0], size[1]), size[2])
  d_min = min(min(size[0], size[1]), size[2])
  d_mid = size[0] + size[1] + size[2] - d_max - d_min
  eq_sphere_D = 2.0 / 3.0 * (size[0] + size[1] + size[2])
  A_max = mjPI * d_max * d_mid
  a = (size[1] * size[2]) * (size[1] * size[2])
  b = (size[2] * size[0]) * (size[2] * size[0])
  c = (size[0] * size[1]) * (size[0] * size[1])
  aa = a * a
  bb = b * b
  cc = c * c
  x = lvel[3]
  y = lvel[4]
  z = lvel[5]
  xx = x * x
  yy = y * y
  zz = z * z
  xy = x * y
  yz = y * z
  xz = x * z
  proj_denom = aa * xx + bb * yy + cc * zz
  proj_num = a * xx + b * yy + c * zz
  dA_coef = mjPI / max(mjMINVAL, np.sqrt(proj_num * proj_num * proj_num * proj_denom))
  A_proj = mjPI * np.sqrt(proj_denom / max(mjMINVAL, proj_num))
  norm = np.sqrt(xx + yy + zz)
  inv_norm = 1.0 / max(mjMINVAL, norm)
  lin_coef = viscosity * 3.0 * mjPI * eq_sphere_D
  quad_coef = density * (A_proj * blunt_drag_coef + slender_drag_coef * (A_max - A_proj))
  Aproj_coef = density * norm * (blunt_drag_coef - slender_drag_coef)
  dA0 = Aproj_coef * dA_coef * a * x * (b * yy * (a - b) + c * zz * (a - c))
  dA1 = Aproj_coef * dA_coef * b * y * (a * xx * (b - a) + c * zz * (b - c))
  dA2 = Aproj_coef * dA_coef * c * z * (a * xx * (c - a) + b * yy * (c - b))
  # outer product plus the squared norm on the diagonal
  D[0] = xx
  D[1] = xy
  D[2] = xz
  D[3] = xy
  D[4] = yy
  D[5] = yz
  D[6] = xz
  D[7] = yz
  D[8] = zz
  inner = xx + yy + zz
  D[0] += inner
  D[4] += inner
  D[8] += inner
  scl = -quad_coef * inv_norm
  for k in range(9):
    D[k] = D[k] * scl
  # D += outer(-[x y z], dAproj_dv)
  D[0] += dA0 * -x
  D[1] += dA1 * -x
  D[2] += dA2 * -x
  D[3] += dA0 * -y
  D[4] += dA1 * -y
  D[5] += dA2 * -y
  D[6] += dA0 * -z
  D[7] += dA1 * -z
  D[8] += dA2 * -z
  D[0] -= lin_coef
  D[4] -= lin_coef
  D[8] -= lin_coef


@jit
def _d_kutta_lift(D, lvel, density, size, kutta_lift_coef):
  """Port of mjd_kutta_lift: derivative of the Kutta lift force, D is 3x3."""
  a = (size[1] * size[2]) * (size[1] * size[2])
  b = (size[2] * size[0]) * (size[2] * size[0])
  c = (size[0] * size[1]) * (size[0] * size[1])
  aa = a * a
  bb = b * b
  cc = c * c
  x = lvel[3]
  y = lvel[4]
  z = lvel[5]
  xx = x * x
  yy = y * y
  zz = z * z
  xy = x * y
  yz = y * z
  xz = x * z
  proj_denom = aa * xx + bb * yy + cc * zz
  proj_num = a * xx + b * yy + c * zz
  norm2 = xx + yy + zz
  df_denom = (
    mjPI * kutta_lift_coef * density / max(mjMINVAL, np.sqrt(proj_denom * proj_num * norm2))
  )
  dfx_coef = yy * (a - b) + zz * (a - c)
  dfy_coef = xx * (b - a) + zz * (b - c)
  dfz_coef = xx * (c - a) + yy * (c - b)
  proj_term = proj_num / max(mjMINVAL, proj_denom)
  cos_term = proj_num / max(mjMINVAL, norm2)
  D[0] = a - a
  D[1] = b - a
  D[2] = c - a
  D[3] = a - b
  D[4] = b - b
  D[5] = c - b
  D[6] = a - c
  D[7] = b - c
  D[8] = c - c
  for k in range(9):
    D[k] = D[k] * (2 * proj_num)
  t0 = aa * proj_term - a + cos_term
  t1 = bb * proj_term - b + cos_term
  t2 = cc * proj_term - c + cos_term
  D[0] += t0 * dfx_coef
  D[1] += t1 * dfx_coef
  D[2] += t2 * dfx_coef
  D[3] += t0 * dfy_coef
  D[4] += t1 * dfy_coef
  D[5] += t2 * dfy_coef
  D[6] += t0 * dfz_coef
  D[7] += t1 * dfz_coef
  D[8] += t2 * dfz_coef
  D[0] *= xx
  D[1] *= xy
  D[2] *= xz
  D[3] *= xy
  D[4] *= yy
  D[5] *= yz
  D[6] *= xz
  D[7] *= yz
  D[8] *= zz
  D[0] -= dfx_coef * proj_num
  D[4] -= dfy_coef * proj_num
  D[8] -= dfz_coef * proj_num
  for k in range(9):
    D[k] = D[k] * df_denom


@jit
def _d_magnus_force(B, lvel, density, size, magnus_lift_coef, Da, Db):
  """Port of mjd_magnus_force: derivative of the Magnus force, B is 6x6."""
  volume = 4.0 / 3.0 * mjPI * size[0] * size[1] * size[2]
  magnus_coef = magnus_lift_coef * density * volume
  lin_vel = local_array(3)
  ang_vel = local_array(3)
  for k in range(3):
    lin_vel[k] = magnus_coef * lvel[3 + k]
    ang_vel[k] = magnus_coef * lvel[k]
  # force += magnus_coef * (ang_vel x lin_vel)
  _d_cross(ang_vel, lin_vel, Da, Db)
  _add_to_quadrant(B, Da, 1, 0)
  _add_to_quadrant(B, Db, 1, 1)


@jit
def ellipsoid_fluid(m, d, body, J, tmp, chain, rowind):
  """Port of mjd_ellipsoidFluid: qDeriv += derivative of the ellipsoid fluid forces of a body.

  J, tmp: (6*nv,) scratch; chain: (nv,) int scratch; rowind: (6*nv,) int scratch.
  """
  nnz = _body_chain(m, body, chain)
  rownnz = local_int_array(6)
  rowadr = local_int_array(6)
  for r in range(6):
    rownnz[r] = nnz
    rowadr[r] = r * nnz
    for k in range(nnz):
      rowind[r * nnz + k] = chain[k]
  wind = local_array(6)
  wind[:] = 0.0
  wind[3:6] = m.opt.wind
  lvel = local_array(6)
  semiaxes = local_array(3)
  B = local_array(36)
  D = local_array(9)
  Da = local_array(9)
  Db = local_array(9)
  density = m.opt.density[0]
  viscosity = m.opt.viscosity[0]
  symmetrize = m.opt.integrator[0] == mjINT_IMPLICITFAST and not _in_free_subtree(m, body)
  for geom in range(m.body_geomadr[body], m.body_geomadr[body] + m.body_geomnum[body]):
    fluid = m.geom_fluid[geom]
    if fluid[0] == 0.0:
      continue
    _passive.geom_semi_axes(m, geom, semiaxes)
    # local velocity of the geom relative to the wind, local Jacobian
    _local_velocity(m, d, body, d.geom_xpos[geom], d.geom_xmat[geom], wind, lvel)
    _local_jac(m, d, J, tmp, d.geom_xpos[geom], m.geom_bodyid[geom], d.geom_xmat[geom], chain, nnz)
    # 6x6 derivative of the local force with respect to the local velocity
    B[:] = 0.0
    _d_magnus_force(B, lvel, density, semiaxes, fluid[5], Da, Db)
    _d_kutta_lift(D, lvel, density, semiaxes, fluid[4])
    _add_to_quadrant(B, D, 1, 1)
    _d_viscous_drag(D, lvel, density, viscosity, semiaxes, fluid[1], fluid[2])
    _add_to_quadrant(B, D, 1, 1)
    _d_viscous_torque(D, lvel, density, viscosity, semiaxes, fluid[2], fluid[3])
    _add_to_quadrant(B, D, 0, 0)
    _d_added_mass_forces(B, lvel, density, fluid[6:9], fluid[9:12], Da, Db)
    # implicitfast needs a symmetric B, except in free rigid subtrees (local 6x6 solve)
    if symmetrize:
      for r in range(6):
        for c in range(r + 1, 6):
          s = 0.5 * (B[6 * r + c] + B[6 * c + r])
          B[6 * r + c] = s
          B[6 * c + r] = s
    _add_jtbj_sparse(m, d, J, B, 6, 0, rownnz, rowadr, rowind)


@jit
def inertia_box_fluid(m, d, body, J, tmp, chain, rowind):
  """Port of mjd_inertiaBoxFluid: qDeriv += derivative of the inertia-box fluid forces.

  J, tmp: (6*nv,) scratch; chain: (nv,) int scratch; rowind: (6*nv,) int scratch.
  """
  inertia = m.body_inertia[body]
  mass = m.body_mass[body]
  box0 = np.sqrt(max(mjMINVAL, inertia[1] + inertia[2] - inertia[0]) / mass * 6.0)
  box1 = np.sqrt(max(mjMINVAL, inertia[0] + inertia[2] - inertia[1]) / mass * 6.0)
  box2 = np.sqrt(max(mjMINVAL, inertia[0] + inertia[1] - inertia[2]) / mass * 6.0)
  wind = local_array(6)
  wind[:] = 0.0
  wind[3:6] = m.opt.wind
  lvel = local_array(6)
  _local_velocity(m, d, body, d.xipos[body], d.ximat[body], wind, lvel)
  nnz = _body_chain(m, body, chain)
  _local_jac(m, d, J, tmp, d.xipos[body], body, d.ximat[body], chain, nnz)
  rownnz = local_int_array(6)
  rowadr = local_int_array(6)
  for r in range(6):
    rownnz[r] = nnz
    rowadr[r] = r * nnz
    for k in range(nnz):
      rowind[r * nnz + k] = chain[k]
  B = local_array(1)
  density = m.opt.density[0]
  viscosity = m.opt.viscosity[0]
  # viscous force and torque
  if viscosity > 0:
    diam = (box0 + box1 + box2) / 3.0
    B[0] = -mjPI * diam * diam * diam * viscosity
    for r in range(3):
      _add_jtbj_sparse(m, d, J, B, 1, r, rownnz, rowadr, rowind)
    B[0] = -3.0 * mjPI * diam * viscosity
    for r in range(3):
      _add_jtbj_sparse(m, d, J, B, 1, 3 + r, rownnz, rowadr, rowind)
  # quadratic drag torque and force
  if density > 0:
    b0_4 = box0 * box0 * box0 * box0
    b1_4 = box1 * box1 * box1 * box1
    b2_4 = box2 * box2 * box2 * box2
    B[0] = -density * box0 * (b1_4 + b2_4) * 2 * abs(lvel[0]) / 64.0
    _add_jtbj_sparse(m, d, J, B, 1, 0, rownnz, rowadr, rowind)
    B[0] = -density * box1 * (b0_4 + b2_4) * 2 * abs(lvel[1]) / 64.0
    _add_jtbj_sparse(m, d, J, B, 1, 1, rownnz, rowadr, rowind)
    B[0] = -density * box2 * (b0_4 + b1_4) * 2 * abs(lvel[2]) / 64.0
    _add_jtbj_sparse(m, d, J, B, 1, 2, rownnz, rowadr, rowind)
    B[0] = -0.5 * density * box1 * box2 * 2 * abs(lvel[3])
    _add_jtbj_sparse(m, d, J, B, 1, 3, rownnz, rowadr, rowind)
    B[0] = -0.5 * density * box0 * box2 * 2 * abs(lvel[4])
    _add_jtbj_sparse(m, d, J, B, 1, 4, rownnz, rowadr, rowind)
    B[0] = -0.5 * density * box0 * box1 * 2 * abs(lvel[5])
    _add_jtbj_sparse(m, d, J, B, 1, 5, rownnz, rowadr, rowind)


@stage(needed=IMPLICIT)
def passive_vel(m, d):
  """Port of mjd_passive_vel: qDeriv += d qfrc_passive / d qvel."""
  if disabled(m, mjDSBL_SPRING) and disabled(m, mjDSBL_DAMPER):
    return
  nv = m.nv
  # fluid forces: ellipsoid model if any geom of the body asks for it, else inertia box
  if m.opt.viscosity[0] > 0 or m.opt.density[0] > 0:
    J = d.scratch_fluid_J
    tmp = d.scratch_fluid_tmp
    chain = d.scratch_fluid_chain
    rowind = d.scratch_fluid_rowind
    for i in range(m.nbody):
      if m.body_mass[i] < mjMINVAL:
        continue
      ellipsoid = False
      for g in range(m.body_geomadr[i], m.body_geomadr[i] + m.body_geomnum[i]):
        if m.geom_fluid[g, 0] > 0:
          ellipsoid = True
          break
      if ellipsoid:
        ellipsoid_fluid(m, d, i, J, tmp, chain, rowind)
      else:
        inertia_box_fluid(m, d, i, J, tmp, chain, rowind)
  if disabled(m, mjDSBL_DAMPER):
    return
  poly = local_array(mjNPOLY)
  # dof damping, with its polynomial and the damping of attached actuators
  for i in range(nv):
    for k in range(mjNPOLY):
      poly[k] = m.dof_dampingpoly[i, k]
    damping = m.dof_damping[i]
    if m.jnt_actuatorid[m.dof_jntid[i]] != -1:  # skip the call (and its struct refcount)
      damping += _actuation.actuator_damping(m, mjOBJ_JOINT, m.dof_jntid[i], poly)
    d.qDeriv[m.D_rowadr[i] + m.D_diag[i]] -= _passive.poly_force_deriv(damping, poly, d.qvel[i], 1)
  # tendon damping
  B = local_array(1)
  for i in range(m.ntendon):
    for k in range(mjNPOLY):
      poly[k] = m.tendon_dampingpoly[i, k]
    damping = m.tendon_damping[i] + _actuation.actuator_damping(m, mjOBJ_TENDON, i, poly)
    B[0] = -_passive.poly_force_deriv(damping, poly, d.ten_velocity[i], 1)
    if B[0] == 0:
      continue
    _add_jtbj_sparse(m, d, d.ten_J, B, 1, i, m.ten_J_rownnz, m.ten_J_rowadr, m.ten_J_colind)


# ---- bias (RNE) derivative ----


@jit
def _copy_from_parent(m, mat, n):
  """Port of copyFromParent: B-row of body n <- shared ancestor entries of its parent's row."""
  if n == 0 or m.body_weldid[m.body_parentid[n]] == 0:
    return
  ndof = 0
  p = m.body_weldid[m.body_parentid[n]]
  while p > 0:
    ndof += m.body_dofnum[p]
    p = m.body_weldid[m.body_parentid[p]]
  dst = 6 * m.B_rowadr[n]
  src = 6 * m.B_rowadr[m.body_parentid[n]]
  for k in range(6 * ndof):
    mat[dst + k] = mat[src + k]


@jit
def _add_to_parent(m, mat, n):
  """Port of addToParent: parent's B-row += body n's B-row at the common columns."""
  if n == 0 or m.body_weldid[m.body_parentid[n]] == 0:
    return
  p = m.body_parentid[n]
  i = 0
  ip = 0
  while i < m.B_rownnz[n] and ip < m.B_rownnz[p]:
    ci = m.B_colind[m.B_rowadr[n] + i]
    cp = m.B_colind[m.B_rowadr[p] + ip]
    if ci == cp:
      dst = 6 * (m.B_rowadr[p] + ip)
      src = 6 * (m.B_rowadr[n] + i)
      for k in range(6):
        mat[dst + k] += mat[src + k]
      i += 1
      ip += 1
    elif ci > cp:
      ip += 1
    else:
      # child columns must be a subset of the parent's: should not occur
      return


@jit
def _add_mat_rows(res, radr, rows, adr, mat, nrow):
  """res[radr + 6r: +6] (+)= mat @ rows[adr + 6r: +6] for r < nrow (mju_mulMatMat with mat')."""
  for r in range(nrow):
    base = adr + 6 * r
    for a in range(6):
      s = 0.0
      for c in range(6):
        s += rows[base + c] * mat[6 * a + c]
      res[radr + 6 * r + a] = s


@jit
def _num_ancestors(m, j):
  """Number of dof ancestors of dof j, from the legacy inertia layout (dof_Madr).

  The reduced layout (M_rownnz) drops the structural zeros of simple bodies, so it cannot
  be used here.
  """
  end = m.dof_Madr[j + 1] if j < m.nv - 1 else m.nM
  return end - (m.dof_Madr[j] + 1)


@jit
def com_vel_vel(m, d, Dcvel, Dcdofdot):
  """Port of mjd_comVel_vel: derivatives of cvel (B layout) and cdof_dot (D layout) by qvel."""
  mat = local_array(36)
  Badr = m.B_rowadr
  Dadr = m.D_rowadr
  for i in range(1, m.nbody):
    _copy_from_parent(m, Dcvel, i)
    j = m.body_dofadr[i]
    doflast = j + m.body_dofnum[i]
    while j < doflast:
      Jadr = _num_ancestors(m, j)
      jtype = m.jnt_type[m.dof_jntid[j]]
      if jtype == mjJNT_FREE or jtype == mjJNT_BALL:
        if jtype == mjJNT_FREE:
          # translations: cdof_dot = 0; Dcvel += cdof
          for dj in range(3):
            dst = 6 * (Badr[i] + Jadr + dj)
            for k in range(6):
              Dcvel[dst + k] += d.cdof[j + dj, k]
          j += 3
          Jadr += 3
        # rotations: Dcdofdot = D crossMotion(cvel, cdof) * Dcvel
        for dj in range(3):
          _d_cross_motion_vel(mat, d.cdof[j + dj])
          _add_mat_rows(Dcdofdot, 6 * Dadr[j + dj], Dcvel, 6 * Badr[i], mat, Jadr + dj)
        for dj in range(3):
          dst = 6 * (Badr[i] + Jadr + dj)
          for k in range(6):
            Dcvel[dst + k] += d.cdof[j + dj, k]
        j += 3
      else:
        # hinge and slide
        _d_cross_motion_vel(mat, d.cdof[j])
        _add_mat_rows(Dcdofdot, 6 * Dadr[j], Dcvel, 6 * Badr[i], mat, Jadr)
        dst = 6 * (Badr[i] + Jadr)
        for k in range(6):
          Dcvel[dst + k] += d.cdof[j, k]
        j += 1


@jit
def _body_force_mats(cinert, cvel, dmul, mat, mat1, mat2, tmp):
  """dmul = D mulInertVec; mat = D cross/D cvel + D cross/D mul * D mul/D cvel (mjd_rne_vel)."""
  _d_mul_inert_vec_vel(dmul, cinert)
  mju_mulInertVec(tmp, cinert, cvel)
  _d_cross_force_vel(mat, tmp)
  _d_cross_force_frc(mat1, cvel)
  _mul_mat6_mat6(mat2, mat1, dmul)
  for k in range(36):
    mat[k] += mat2[k]


@stage(needed=IMPLICIT)
def rne_vel(m, d):
  """Port of mjd_rne_vel: qDeriv -= d qfrc_bias / d qvel."""
  Badr = m.B_rowadr
  Bnnz = m.B_rownnz
  Dadr = m.D_rowadr
  Dcdofdot = d.scratch_Dcdofdot
  Dcvel = d.scratch_Dcvel
  Dcacc = d.scratch_Dcacc
  Dcfrcbody = d.scratch_Dcfrcbody
  zero(Dcdofdot)
  zero(Dcvel)
  zero(Dcacc)
  zero(Dcfrcbody)
  mat = local_array(36)
  mat1 = local_array(36)
  mat2 = local_array(36)
  dmul = local_array(36)
  tmp = local_array(6)
  row = local_array(6)
  com_vel_vel(m, d, Dcvel, Dcdofdot)
  # forward pass over bodies: accumulate Dcacc, set Dcfrcbody
  for i in range(1, m.nbody):
    _copy_from_parent(m, Dcacc, i)
    base = 6 * Badr[i]
    for j in range(m.body_dofadr[i], m.body_dofadr[i] + m.body_dofnum[i]):
      Jadr = _num_ancestors(m, j)
      # Dcacc += cdof_dot * D(qvel) + D(cdof_dot) * qvel
      dst = 6 * (Badr[i] + Jadr)
      for k in range(6):
        Dcacc[dst + k] += d.cdof_dot[j, k]
      qv = d.qvel[j]
      src = 6 * Dadr[j]
      for k in range(6 * Bnnz[i]):
        Dcacc[base + k] += qv * Dcdofdot[src + k]
    # Dcfrcbody = D(cinert * cacc + cvel x (cinert * cvel))
    _body_force_mats(d.cinert[i], d.cvel[i], dmul, mat, mat1, mat2, tmp)
    for r in range(Bnnz[i]):
      adr = base + 6 * r
      _mul_mat6_vec(tmp, dmul, Dcacc, adr)
      _mul_mat6_vec(row, mat, Dcvel, adr)
      for k in range(6):
        Dcfrcbody[adr + k] = tmp[k] + row[k]
  # backward pass over bodies: accumulate Dcfrcbody
  for i in range(m.nbody - 1, 0, -1):
    _add_to_parent(m, Dcfrcbody, i)
  # qDeriv -= D(cdof * cfrc_body)
  for j in range(m.nv):
    i = m.dof_bodyid[j]
    for r in range(Bnnz[i]):
      adr = 6 * (Badr[i] + r)
      s = 0.0
      for k in range(6):
        s += Dcfrcbody[adr + k] * d.cdof[j, k]
      d.qDeriv[Dadr[j] + r] -= s


# ---- main entry point of the derivative ----


@stage(M, D, i8, needed=IMPLICIT)
def smooth_vel(m, d, flg_bias):
  """Port of mjd_smooth_vel: qDeriv = d(qfrc_actuator + qfrc_passive - [qfrc_bias]) / d qvel."""
  d.qDeriv[:] = 0.0
  actuator_vel(m, d)
  passive_vel(m, d)
  if flg_bias:
    rne_vel(m, d)


# ---- free rigid subtrees (implicitfast local solve) ----


@jit
def is_free_body(m, body):
  """Port of mj_isFreeBody: body has a single free joint and its tree has no other dofs."""
  if m.body_jntnum[body] != 1 or m.jnt_type[m.body_jntadr[body]] != mjJNT_FREE:
    return False
  adr = m.jnt_dofadr[m.body_jntadr[body]]
  return m.tree_dofnum[m.dof_treeid[adr]] == 6


@jit
def _in_free_subtree(m, body):
  """Body belongs to a free rigid subtree (its root body is a free body)."""
  if body <= 0:
    return False
  return is_free_body(m, m.body_rootid[body])


@jit
def free_bias_vel(m, d, jnt, B):
  """6x6 d qfrc_bias / d qvel of the free joint of a rigid subtree (mjd_freeBias_vel).

  The subtree moves as one body, so the RNE derivative is evaluated once with its composite
  inertia d.crb[body]. B is (36,) row-major over the joint's dofs.
  """
  body = m.jnt_bodyid[jnt]
  adr = m.jnt_dofadr[jnt]
  Dcacc = local_array(36)
  Dcacc[:] = 0.0
  dmul = local_array(36)
  mat = local_array(36)
  mat1 = local_array(36)
  mat2 = local_array(36)
  tmp = local_array(6)
  row = local_array(6)
  # Dcvel column r is cdof[adr + r]; the rotational cdof_dot depend on the translations only
  for dj in range(3):
    _d_cross_motion_vel(mat, d.cdof[adr + 3 + dj])
    for r in range(3):
      _mul_mat6_vec(tmp, mat, d.cdof[adr + r], 0)
      for k in range(6):
        Dcacc[6 * r + k] += d.qvel[adr + 3 + dj] * tmp[k]
  # Dcacc += cdof_dot * D(qvel) (zero for the translations)
  for r in range(6):
    for k in range(6):
      Dcacc[6 * r + k] += d.cdof_dot[adr + r, k]
  # Dcfrc = dmul * Dcacc + mat * Dcvel, with the composite inertia
  _body_force_mats(d.crb[body], d.cvel[body], dmul, mat, mat1, mat2, tmp)
  for r in range(6):
    _mul_mat6_vec(tmp, dmul, Dcacc, 6 * r)
    _mul_mat6_vec(row, mat, d.cdof[adr + r], 0)
    for k in range(6):
      Dcacc[6 * r + k] = tmp[k] + row[k]
  # B(j, r) = cdof_j . Dcfrc_r
  for j in range(6):
    for r in range(6):
      s = 0.0
      for k in range(6):
        s += Dcacc[6 * r + k] * d.cdof[adr + j, k]
      B[6 * j + r] = s


@jit
def free_mhat(m, d, jnt, h, A):
  """Port of mjd_freeMhat: A = M - h * d qfrc_smooth / d qvel on a free rigid subtree's joint.

  Returns False (A untouched) unless jnt is the free joint of a free rigid subtree. Uses the
  qDeriv rows computed without the bias term and adds the bias derivative here.
  """
  if m.jnt_type[jnt] != mjJNT_FREE or not is_free_body(m, m.jnt_bodyid[jnt]):
    return False
  adr = m.jnt_dofadr[jnt]
  A[:] = 0.0
  # M block, from the lower triangle
  for r in range(6):
    rowadr = m.M_rowadr[adr + r]
    for k in range(m.M_rownnz[adr + r]):
      c = m.M_colind[rowadr + k] - adr
      A[6 * r + c] = d.M[rowadr + k]
      A[6 * c + r] = d.M[rowadr + k]
  # minus h * qDeriv block
  for r in range(6):
    rowadr = m.D_rowadr[adr + r]
    for k in range(m.D_rownnz[adr + r]):
      c = m.D_colind[rowadr + k] - adr
      A[6 * r + c] -= h * d.qDeriv[rowadr + k]
  # plus h * bias derivative (qfrc_smooth contains -qfrc_bias)
  Bb = local_array(36)
  free_bias_vel(m, d, jnt, Bb)
  for k in range(36):
    A[k] += h * Bb[k]
  return True


@jit
def factor_lu6(A, pivot):
  """LU factorization of a 6x6 matrix with partial pivoting, in place; False if singular."""
  for k in range(6):
    # pivot row
    p = k
    best = abs(A[6 * k + k])
    for r in range(k + 1, 6):
      v = abs(A[6 * r + k])
      if v > best:
        best = v
        p = r
    pivot[k] = p
    if best < mjMINVAL:
      return False
    if p != k:
      for c in range(6):
        t = A[6 * k + c]
        A[6 * k + c] = A[6 * p + c]
        A[6 * p + c] = t
    # eliminate below the pivot
    inv = 1.0 / A[6 * k + k]
    for r in range(k + 1, 6):
      f = A[6 * r + k] * inv
      A[6 * r + k] = f
      if f != 0:
        for c in range(k + 1, 6):
          A[6 * r + c] -= f * A[6 * k + c]
  return True


@jit
def solve_lu6(x, A, b, badr, pivot):
  """Solves A x = b[badr:badr+6] with the factorization of factor_lu6."""
  for k in range(6):
    x[k] = b[badr + k]
  # apply the row swaps, then forward and back substitution
  for k in range(6):
    p = pivot[k]
    if p != k:
      t = x[k]
      x[k] = x[p]
      x[p] = t
  for r in range(6):
    s = x[r]
    for c in range(r):
      s -= A[6 * r + c] * x[c]
    x[r] = s
  for r in range(5, -1, -1):
    s = x[r]
    for c in range(r + 1, 6):
      s -= A[6 * r + c] * x[c]
    x[r] = s / A[6 * r + r]


# ---- Python API ----


def mjd_smooth_vel(m, d, flg_bias: int) -> None:
  """Analytic d(qfrc_actuator + qfrc_passive - [qfrc_bias if flg_bias]) / d qvel into d.qDeriv."""
  smooth_vel(m._struct, d._struct, int(flg_bias))
