"""Passive forces: springs, dampers, gravity compensation, fluid (port of engine_passive.c).

`passive(m, d)` fills qfrc_spring, qfrc_damper, qfrc_gravcomp, qfrc_fluid and their sum
qfrc_passive, as MuJoCo 3.17's mj_passive does. Joint and tendon springs may be polynomial
(jnt_stiffnesspoly, tendon_stiffnesspoly), dampers too (dof_dampingpoly,
tendon_dampingpoly), and an actuator's `damping` adds to the damper of the joint or tendon it
drives. Gravity compensation of joints marked jnt_actgravcomp is routed to qfrc_actuator by
the actuation stage instead of qfrc_passive.

Not ported (no data for them yet): flex elasticity, flex edge springs, passive contact
adhesion (qfrc_adhesion stays zero without contacts), plugins and the mjcb_passive callback.
Sleeping trees' passive forces are computed (frozen inputs: the values MuJoCo keeps).
"""

import math

from engine import plugin_call
from engine import sleep as _sleep
from engine._jit import jit
from engine._jit import local_array
from engine._stage import FLUID
from engine._stage import i8
from engine._stage import runs_stage
from engine._stage import stage
from engine.actuation import actuator_damping
from engine.enums import mjDSBL_DAMPER
from engine.enums import mjDSBL_GRAVITY
from engine.enums import mjDSBL_SPRING
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjMINVAL
from engine.enums import mjNPOLY
from engine.enums import mjOBJ_JOINT
from engine.enums import mjOBJ_TENDON
from engine.enums import mjPI
from engine.flags import disabled
from engine.math import mju_max
from engine.math import mju_min
from engine.math import mju_mulMatVec3
from engine.math import mju_normalize4
from engine.math import mju_subQuat
from engine.math import mju_transformSpatial
from engine.support import apply_ft
from engine.support import apply_ft_scalars

# ---- helpers ----


@jit
def poly_force(linear, poly, x, flg_odd):
  """Port of mju_polyForce, engine_util_misc.c: coefficient linear + sum_k poly[k]*x^(k+1).

  With flg_odd the powers use |x|, so that -x*coefficient is an odd function (dampers).
  """
  if flg_odd:
    x = abs(x)
  res = linear
  xpow = 1.0
  for k in range(mjNPOLY):
    xpow *= x
    res += poly[k] * xpow
  return res


@jit
def poly_force_deriv(linear, poly, x, flg_odd):
  """Port of mjd_xPolyForce, engine_util_misc.c: d(x*poly_force(x))/dx, for implicit damping."""
  if flg_odd:
    x = abs(x)
  res = linear
  xpow = 1.0
  for k in range(mjNPOLY):
    xpow *= x
    res += (k + 2) * poly[k] * xpow
  return res


@jit
def _is_zero2(v):
  return v[0] == 0 and v[1] == 0


@jit
def geom_semi_axes(m, geomid, semiaxes):
  """Port of mju_geomSemiAxes, engine_util_misc.c: semi-axes of the geom's fluid ellipsoid."""
  size = m.geom_size[geomid]
  gtype = m.geom_type[geomid]
  if gtype == mjGEOM_SPHERE:
    semiaxes[0] = size[0]
    semiaxes[1] = size[0]
    semiaxes[2] = size[0]
  elif gtype == mjGEOM_CAPSULE:
    semiaxes[0] = size[0]
    semiaxes[1] = size[0]
    semiaxes[2] = size[1] + size[0]
  elif gtype == mjGEOM_CYLINDER:
    semiaxes[0] = size[0]
    semiaxes[1] = size[0]
    semiaxes[2] = size[1]
  else:
    semiaxes[0] = size[0]
    semiaxes[1] = size[1]
    semiaxes[2] = size[2]


@jit
def _local_velocity(m, d, body, pos, rot, res):
  """mj_objectVelocity with flg_local: 6D velocity (rot, lin) of a frame on `body`."""
  mju_transformSpatial(res, d.cvel[body], 0, pos, d.subtree_com[m.body_rootid[body]], rot)


@jit
def _subtract_wind(m, d, body, pos, rot, lvel, buf):
  """lvel[3:6] -= wind expressed in the local frame (pos, rot) of a frame on `body`."""
  wind = buf[0:6]
  lwind = buf[6:12]
  wind[0] = 0.0
  wind[1] = 0.0
  wind[2] = 0.0
  wind[3] = m.opt.wind[0]
  wind[4] = m.opt.wind[1]
  wind[5] = m.opt.wind[2]
  mju_transformSpatial(lwind, wind, 0, pos, d.subtree_com[m.body_rootid[body]], rot)
  lvel[3] -= lwind[3]
  lvel[4] -= lwind[4]
  lvel[5] -= lwind[5]


# ---- springs and dampers ----


@jit
def _joint_springs(m, d, buf):
  """Joint springs into qfrc_spring (polynomial in the displacement or its norm), of the awake
  trees' joints when some tree sleeps (as MuJoCo: a sleeping tree keeps its last forces)."""
  filtered = _sleep.filtering(m, d)
  nbody = d.nbody_awake[0] if filtered else m.nbody
  for b in range(nbody):
    body = d.body_awake_ind[b] if filtered else b
    adr = m.body_jntadr[body]
    for j in range(adr, adr + m.body_jntnum[body]):
      _joint_spring(m, d, j, buf)


@jit
def _joint_spring(m, d, j, buf):
  """The spring of joint j into qfrc_spring."""
  quat = buf[0:4]
  dif = buf[4:7]
  stiffness = m.jnt_stiffness[j]
  spoly = m.jnt_stiffnesspoly[j]
  if stiffness == 0 and _is_zero2(spoly):
    return
  padr = m.jnt_qposadr[j]
  dadr = m.jnt_dofadr[j]
  jtype = m.jnt_type[j]

  # free joint translation: spring along the displacement, coefficient from its norm
  if jtype == mjJNT_FREE:
    for k in range(3):
      dif[k] = d.qpos[padr + k] - m.qpos_spring[padr + k]
    r = math.sqrt(dif[0] * dif[0] + dif[1] * dif[1] + dif[2] * dif[2])
    kr = poly_force(stiffness, spoly, r, 0)
    for k in range(3):
      d.qfrc_spring[dadr + k] += dif[k] * -kr
    padr += 3
    dadr += 3

  # rotation (free or ball): quaternion difference as a rotation vector
  if jtype == mjJNT_FREE or jtype == mjJNT_BALL:
    for k in range(4):
      quat[k] = d.qpos[padr + k]
    mju_normalize4(quat)
    mju_subQuat(dif, quat, m.qpos_spring[padr : padr + 4])
    r = math.sqrt(dif[0] * dif[0] + dif[1] * dif[1] + dif[2] * dif[2])
    kr = poly_force(stiffness, spoly, r, 0)
    for k in range(3):
      d.qfrc_spring[dadr + k] += dif[k] * -kr

  # slide and hinge
  else:
    x = d.qpos[padr] - m.qpos_spring[padr]
    d.qfrc_spring[dadr] = -x * poly_force(stiffness, spoly, x, 0)


@jit
def _dof_dampers(m, d, poly):
  """Dof dampers (with the damping of actuators on the joint) into qfrc_damper, of the awake
  dofs when some tree sleeps."""
  filtered = _sleep.filtering(m, d)
  nv = d.nv_awake[0] if filtered else m.nv
  for k in range(nv):
    i = d.dof_awake_ind[k] if filtered else k
    poly[0] = m.dof_dampingpoly[i, 0]
    poly[1] = m.dof_dampingpoly[i, 1]
    damping = m.dof_damping[i]
    if m.jnt_actuatorid[m.dof_jntid[i]] != -1:  # skip the call (and its struct refcount)
      damping += actuator_damping(m, mjOBJ_JOINT, m.dof_jntid[i], poly)
    if damping != 0 or not _is_zero2(poly):
      v = d.qvel[i]
      d.qfrc_damper[i] = -v * poly_force(damping, poly, v, 1)


@jit
def tendon_spring_damper_force(m, d, i, enbl_spring, enbl_damper, dpoly):
  """Spring (dead band lengthspring) and damper forces along tendon i, as (spring, damper).

  Shared by mj_springdamper and mj_rnePostConstraint, which applies them on the path of
  spatial tendons. The damper includes actuators on the tendon; dpoly is (mjNPOLY,) scratch.
  """
  # spring: displacement outside [lower, upper]
  frc_spring = 0.0
  if enbl_spring:
    stiffness = m.tendon_stiffness[i]
    spoly = m.tendon_stiffnesspoly[i]
    if stiffness != 0 or not _is_zero2(spoly):
      length = d.ten_length[i]
      lower = m.tendon_lengthspring[i, 0]
      upper = m.tendon_lengthspring[i, 1]
      x = 0.0
      if length > upper:
        x = length - upper
      elif length < lower:
        x = length - lower
      frc_spring = -x * poly_force(stiffness, spoly, x, 0)

  # damper, including actuators on the tendon
  frc_damper = 0.0
  if enbl_damper:
    dpoly[0] = m.tendon_dampingpoly[i, 0]
    dpoly[1] = m.tendon_dampingpoly[i, 1]
    damping = m.tendon_damping[i] + actuator_damping(m, mjOBJ_TENDON, i, dpoly)
    if damping != 0 or not _is_zero2(dpoly):
      v = d.ten_velocity[i]
      frc_damper = -v * poly_force(damping, dpoly, v, 1)
  return frc_spring, frc_damper


@jit
def _tendon_spring_damper(m, d, enbl_spring, enbl_damper, dpoly):
  """Tendon springs (dead band lengthspring) and dampers, mapped through ten_J."""
  for i in range(m.ntendon):
    frc_spring, frc_damper = tendon_spring_damper_force(m, d, i, enbl_spring, enbl_damper, dpoly)

    # qfrc += ten_J' * frc (sparse rows)
    if frc_spring != 0 or frc_damper != 0:
      adr = m.ten_J_rowadr[i]
      for j in range(adr, adr + m.ten_J_rownnz[i]):
        k = m.ten_J_colind[j]
        J = d.ten_J[j]
        d.qfrc_spring[k] += J * frc_spring
        d.qfrc_damper[k] += J * frc_damper


@jit
def spring_damper(m, d):
  """Port of mj_springdamper: joint, dof and tendon springs and dampers."""
  enbl_spring = not disabled(m, mjDSBL_SPRING)
  enbl_damper = not disabled(m, mjDSBL_DAMPER)
  buf = local_array(8)
  if enbl_spring:
    _joint_springs(m, d, buf)
  if enbl_damper:
    _dof_dampers(m, d, buf[0:2])
  _tendon_spring_damper(m, d, enbl_spring, enbl_damper, buf[0:2])


# ---- gravity compensation ----


@jit
def gravcomp(m, d):
  """Port of mj_gravcomp: forces cancelling gravity on bodies with gravcomp; True if any."""
  g = m.opt.gravity
  if (
    m.ngravcomp == 0
    or disabled(m, mjDSBL_GRAVITY)
    or math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) == 0
  ):
    return False
  has_gravcomp = False
  buf = local_array(6)
  buf[:] = 0.0
  force = buf[0:3]
  torque = buf[3:6]
  nbody, filtered = _sleep.awake_bodies(m, d)
  for b in range(nbody):
    i = d.body_awake_ind[b] if filtered else b
    if m.body_gravcomp[i] != 0:
      has_gravcomp = True
      scl = -(m.body_mass[i] * m.body_gravcomp[i])
      force[0] = g[0] * scl
      force[1] = g[1] * scl
      force[2] = g[2] * scl
      apply_ft(m, d, force, torque, d.xipos[i], i, d.qfrc_gravcomp)
  return has_gravcomp


# ---- fluid forces ----


@jit
def inertia_box_fluid_model(m, d, i):
  """Port of mj_inertiaBoxFluidModel: drag and viscosity of the body's equivalent box.

  On scalars: it runs for every body at every step of a swimmer."""
  mass = m.body_mass[i]
  density = m.opt.density[0]
  viscosity = m.opt.viscosity[0]
  in0, in1, in2 = m.body_inertia[i, 0], m.body_inertia[i, 1], m.body_inertia[i, 2]

  # box with the body's mass and inertia
  box0 = math.sqrt(mju_max(mjMINVAL, in1 + in2 - in0) / mass * 6.0)
  box1 = math.sqrt(mju_max(mjMINVAL, in0 + in2 - in1) / mass * 6.0)
  box2 = math.sqrt(mju_max(mjMINVAL, in0 + in1 - in2) / mass * 6.0)

  # local velocity at the com (mj_objectVelocity, flg_local), relative to the wind
  root = m.body_rootid[i]
  dx = d.xipos[i, 0] - d.subtree_com[root, 0]
  dy = d.xipos[i, 1] - d.subtree_com[root, 1]
  dz = d.xipos[i, 2] - d.subtree_com[root, 2]
  a0, a1, a2 = d.cvel[i, 0], d.cvel[i, 1], d.cvel[i, 2]
  l0 = d.cvel[i, 3] - (dy * a2 - dz * a1)
  l1 = d.cvel[i, 4] - (dz * a0 - dx * a2)
  l2 = d.cvel[i, 5] - (dx * a1 - dy * a0)
  R = d.ximat
  w0 = R[i, 0] * a0 + R[i, 3] * a1 + R[i, 6] * a2
  w1 = R[i, 1] * a0 + R[i, 4] * a1 + R[i, 7] * a2
  w2 = R[i, 2] * a0 + R[i, 5] * a1 + R[i, 8] * a2
  v0 = R[i, 0] * l0 + R[i, 3] * l1 + R[i, 6] * l2
  v1 = R[i, 1] * l0 + R[i, 4] * l1 + R[i, 7] * l2
  v2 = R[i, 2] * l0 + R[i, 5] * l1 + R[i, 8] * l2
  wind0, wind1, wind2 = m.opt.wind[0], m.opt.wind[1], m.opt.wind[2]
  v0 -= R[i, 0] * wind0 + R[i, 3] * wind1 + R[i, 6] * wind2
  v1 -= R[i, 1] * wind0 + R[i, 4] * wind1 + R[i, 7] * wind2
  v2 -= R[i, 2] * wind0 + R[i, 5] * wind1 + R[i, 8] * wind2

  # viscous torque and force of the equivalent sphere
  t0 = t1 = t2 = f0 = f1 = f2 = 0.0
  if viscosity > 0:
    diam = (box0 + box1 + box2) / 3.0
    scl = -mjPI * diam * diam * diam * viscosity
    t0, t1, t2 = w0 * scl, w1 * scl, w2 * scl
    scl = -3.0 * mjPI * diam * viscosity
    f0, f1, f2 = v0 * scl, v1 * scl, v2 * scl

  # quadratic drag force and torque
  if density > 0:
    f0 -= 0.5 * density * box1 * box2 * abs(v0) * v0
    f1 -= 0.5 * density * box0 * box2 * abs(v1) * v1
    f2 -= 0.5 * density * box0 * box1 * abs(v2) * v2
    t0 -= (
      density * box0 * (box1 * box1 * box1 * box1 + box2 * box2 * box2 * box2) * abs(w0) * w0 / 64.0
    )
    t1 -= (
      density * box1 * (box0 * box0 * box0 * box0 + box2 * box2 * box2 * box2) * abs(w1) * w1 / 64.0
    )
    t2 -= (
      density * box2 * (box0 * box0 * box0 * box0 + box1 * box1 * box1 * box1) * abs(w2) * w2 / 64.0
    )

  # rotate to world and apply at the com
  apply_ft_scalars(
    m,
    d,
    R[i, 0] * f0 + R[i, 1] * f1 + R[i, 2] * f2,
    R[i, 3] * f0 + R[i, 4] * f1 + R[i, 5] * f2,
    R[i, 6] * f0 + R[i, 7] * f1 + R[i, 8] * f2,
    R[i, 0] * t0 + R[i, 1] * t1 + R[i, 2] * t2,
    R[i, 3] * t0 + R[i, 4] * t1 + R[i, 5] * t2,
    R[i, 6] * t0 + R[i, 7] * t1 + R[i, 8] * t2,
    d.xipos[i, 0],
    d.xipos[i, 1],
    d.xipos[i, 2],
    i,
    d.qfrc_fluid,
  )


@jit
def added_mass_forces(local_vels, fluid_density, virtual_mass, virtual_inertia, local_force):
  """Port of mj_addedMassForces (without the acceleration term, as mj_passive calls it)."""
  w0, w1, w2 = local_vels[0], local_vels[1], local_vels[2]
  v0, v1, v2 = local_vels[3], local_vels[4], local_vels[5]
  p0 = fluid_density * virtual_mass[0] * v0
  p1 = fluid_density * virtual_mass[1] * v1
  p2 = fluid_density * virtual_mass[2] * v2
  l0 = fluid_density * virtual_inertia[0] * w0
  l1 = fluid_density * virtual_inertia[1] * w1
  l2 = fluid_density * virtual_inertia[2] * w2

  # force p x w, torques p x v and l x w
  local_force[0] += p1 * v2 - p2 * v1
  local_force[1] += p2 * v0 - p0 * v2
  local_force[2] += p0 * v1 - p1 * v0
  local_force[0] += l1 * w2 - l2 * w1
  local_force[1] += l2 * w0 - l0 * w2
  local_force[2] += l0 * w1 - l1 * w0
  local_force[3] += p1 * w2 - p2 * w1
  local_force[4] += p2 * w0 - p0 * w2
  local_force[5] += p0 * w1 - p1 * w0


@jit
def _pow2(x):
  return x * x


@jit
def _pow4(x):
  return (x * x) * (x * x)


@jit
def _ellipsoid_max_moment(size, k):
  d0 = size[k]
  d1 = size[(k + 1) % 3]
  d2 = size[(k + 2) % 3]
  return 8.0 / 15.0 * mjPI * d0 * _pow4(mju_max(d1, d2))


@jit
def viscous_forces(
  local_vels,
  fluid_density,
  fluid_viscosity,
  size,
  magnus_lift_coef,
  kutta_lift_coef,
  blunt_drag_coef,
  slender_drag_coef,
  ang_drag_coef,
  local_force,
):
  """Port of mj_viscousForces: lift (Magnus, Kutta-Joukowski) and drag of an ellipsoid."""
  w0, w1, w2 = local_vels[0], local_vels[1], local_vels[2]
  v0, v1, v2 = local_vels[3], local_vels[4], local_vels[5]
  s0, s1, s2 = size[0], size[1], size[2]
  volume = 4.0 / 3.0 * mjPI * s0 * s1 * s2
  d_max = mju_max(mju_max(s0, s1), s2)
  d_min = mju_min(mju_min(s0, s1), s2)
  d_mid = s0 + s1 + s2 - d_max - d_min
  A_max = mjPI * d_max * d_mid

  # Magnus lift: w x v
  scl = magnus_lift_coef * fluid_density * volume
  mf0 = (w1 * v2 - w2 * v1) * scl
  mf1 = (w2 * v0 - w0 * v2) * scl
  mf2 = (w0 * v1 - w1 * v0) * scl

  # projected area along the velocity
  proj_denom = _pow4(s1 * s2) * _pow2(v0) + _pow4(s2 * s0) * _pow2(v1) + _pow4(s0 * s1) * _pow2(v2)
  proj_num = _pow2(s1 * s2 * v0) + _pow2(s2 * s0 * v1) + _pow2(s0 * s1 * v2)
  A_proj = mjPI * math.sqrt(proj_denom / mju_max(mjMINVAL, proj_num))

  # Kutta lift: (n x v) x v with n the non-unit normal of the projected area
  n0 = _pow2(s1 * s2) * v0
  n1 = _pow2(s2 * s0) * v1
  n2 = _pow2(s0 * s1) * v2
  speed = math.sqrt(v0 * v0 + v1 * v1 + v2 * v2)
  cos_alpha = proj_num / mju_max(mjMINVAL, speed * proj_denom)
  scl = kutta_lift_coef * fluid_density * cos_alpha * A_proj
  c0 = (n1 * v2 - n2 * v1) * scl
  c1 = (n2 * v0 - n0 * v2) * scl
  c2 = (n0 * v1 - n1 * v0) * scl
  kf0 = c1 * v2 - c2 * v1
  kf1 = c2 * v0 - c0 * v2
  kf2 = c0 * v1 - c1 * v0

  # Stokes viscosity of the equivalent sphere
  eq_sphere_D = 2.0 / 3.0 * (s0 + s1 + s2)
  lin_visc_force_coef = 3.0 * mjPI * eq_sphere_D
  lin_visc_torq_coef = mjPI * eq_sphere_D * eq_sphere_D * eq_sphere_D

  # quadratic angular drag from the moments of inertia
  I_max = 8.0 / 15.0 * mjPI * d_mid * _pow4(d_max)
  II0 = _ellipsoid_max_moment(size, 0)
  II1 = _ellipsoid_max_moment(size, 1)
  II2 = _ellipsoid_max_moment(size, 2)
  mv0 = w0 * (ang_drag_coef * II0 + slender_drag_coef * (I_max - II0))
  mv1 = w1 * (ang_drag_coef * II1 + slender_drag_coef * (I_max - II1))
  mv2 = w2 * (ang_drag_coef * II2 + slender_drag_coef * (I_max - II2))

  drag_lin_coef = fluid_viscosity * lin_visc_force_coef + fluid_density * speed * (
    A_proj * blunt_drag_coef + slender_drag_coef * (A_max - A_proj)
  )
  drag_ang_coef = fluid_viscosity * lin_visc_torq_coef + fluid_density * math.sqrt(
    mv0 * mv0 + mv1 * mv1 + mv2 * mv2
  )

  local_force[0] -= drag_ang_coef * w0
  local_force[1] -= drag_ang_coef * w1
  local_force[2] -= drag_ang_coef * w2
  local_force[3] += mf0 + kf0 - drag_lin_coef * v0
  local_force[4] += mf1 + kf1 - drag_lin_coef * v1
  local_force[5] += mf2 + kf2 - drag_lin_coef * v2


@jit
def ellipsoid_fluid_model(m, d, bodyid, buf):
  """Port of mj_ellipsoidFluidModel: per-geom ellipsoid fluid forces (geom_fluid)."""
  lvel = buf[0:6]
  lfrc = buf[6:12]
  bfrc = buf[12:18]
  scratch = buf[18:30]
  semiaxes = buf[30:33]
  density = m.opt.density[0]
  viscosity = m.opt.viscosity[0]
  for j in range(m.body_geomnum[bodyid]):
    geomid = m.body_geomadr[bodyid] + j
    fluid = m.geom_fluid[geomid]
    geom_interaction_coef = fluid[0]
    if geom_interaction_coef == 0.0:
      continue
    geom_semi_axes(m, geomid, semiaxes)

    # local velocity of the geom frame, relative to the wind
    _local_velocity(m, d, bodyid, d.geom_xpos[geomid], d.geom_xmat[geomid], lvel)
    _subtract_wind(m, d, bodyid, d.geom_xpos[geomid], d.geom_xmat[geomid], lvel, scratch)

    # added mass, lift and drag; fluid = (coef, blunt, slender, ang, kutta, magnus, vm, vi)
    lfrc[:] = 0.0
    added_mass_forces(lvel, density, fluid[6:9], fluid[9:12], lfrc)
    viscous_forces(
      lvel, density, viscosity, semiaxes, fluid[5], fluid[4], fluid[1], fluid[2], fluid[3], lfrc
    )
    for k in range(6):
      lfrc[k] = lfrc[k] * geom_interaction_coef

    # rotate to world and apply at the geom center
    mju_mulMatVec3(bfrc[0:3], d.geom_xmat[geomid], lfrc[0:3])
    mju_mulMatVec3(bfrc[3:6], d.geom_xmat[geomid], lfrc[3:6])
    apply_ft(m, d, bfrc[3:6], bfrc[0:3], d.geom_xpos[geomid], bodyid, d.qfrc_fluid)


@jit
def fluid_enabled(m):
  """A medium with density or viscosity (the fluid stage is compiled for the models that have
  one, engine/_stage.py FLUID)."""
  return m.opt.viscosity[0] != 0 or m.opt.density[0] != 0


@stage(restype=i8, needed=FLUID)
def fluid(m, d):
  """Port of mj_fluid: inertia-box or ellipsoid fluid forces per body; True if enabled."""
  if not fluid_enabled(m):
    return False
  buf = local_array(36)
  nbody, filtered = _sleep.awake_bodies(m, d)
  for b in range(nbody):
    i = d.body_awake_ind[b] if filtered else b
    if m.body_mass[i] < mjMINVAL:
      continue

    # any geom with geom_fluid[0] > 0 selects the ellipsoid model for the whole body
    use_ellipsoid_model = False
    for j in range(m.body_geomnum[i]):
      if m.geom_fluid[m.body_geomadr[i] + j, 0] > 0:
        use_ellipsoid_model = True
        break
    if use_ellipsoid_model:
      ellipsoid_fluid_model(m, d, i, buf)
    else:
      inertia_box_fluid_model(m, d, i)
  return True


# ---- stage ----


@stage()
def passive(m, d):
  """Port of mj_passive: every passive force and their sum qfrc_passive; when some tree sleeps,
  those of the awake dofs only (a sleeping tree keeps its last ones, as in MuJoCo)."""
  filtered = _sleep.enabled(m) and d.nv_awake[0] < m.nv
  nv = d.nv_awake[0] if filtered else m.nv
  for k in range(nv):
    i = d.dof_awake_ind[k] if filtered else k
    d.qfrc_spring[i] = 0.0
    d.qfrc_damper[i] = 0.0
    d.qfrc_gravcomp[i] = 0.0
    d.qfrc_fluid[i] = 0.0
    d.qfrc_adhesion[i] = 0.0
    d.qfrc_passive[i] = 0.0

  # springs and dampers both disabled: no passive force at all
  if disabled(m, mjDSBL_SPRING) and disabled(m, mjDSBL_DAMPER):
    return

  spring_damper(m, d)
  has_gravcomp = gravcomp(m, d)
  has_fluid = fluid_enabled(m) and fluid(m, d) != 0

  # qfrc_passive = spring + damper (+ fluid) (+ gravcomp not routed to actuators)
  for k in range(nv):
    i = d.dof_awake_ind[k] if filtered else k
    d.qfrc_passive[i] = d.qfrc_spring[i] + d.qfrc_damper[i]
  if has_fluid:
    for k in range(nv):
      i = d.dof_awake_ind[k] if filtered else k
      d.qfrc_passive[i] += d.qfrc_fluid[i]
  if has_gravcomp:
    for k in range(nv):
      i = d.dof_awake_ind[k] if filtered else k
      if not m.jnt_actgravcomp[m.dof_jntid[i]]:
        d.qfrc_passive[i] += d.qfrc_gravcomp[i]

  # passive-force plugins add to qfrc_passive (the cable's bending and twisting)
  if m.nplugin:
    plugin_call.compute(m, d, plugin_call.mjPLUGIN_PASSIVE)


@runs_stage(passive)
def mj_passive(m, d) -> None:
  """Passive forces at the current state (needs the position and velocity stages)."""
  passive(m._struct, d._struct)
