"""Smooth rigid-body dynamics: ports of engine_core_smooth.c (MuJoCo 3.17).

Position stages (kinematics, com_pos, camlight), the inertia matrix in MuJoCo's reduced
sparse layout (crb, make_m, factor_m, solve_m, solve_m2, mul_m, full_m), velocity stages
(com_vel, subtree_vel) and recursive Newton-Euler (rne, rne_post_constraint). Tendons and
transmissions live in engine/tendon.py.

Each stage is a `@jit` kernel taking the numba handles `(m, d)`; the `mj_*` functions at the
end wrap them for the Python `MjModel`/`MjData` with the bindings' signatures. Arithmetic
follows MuJoCo's operation order so that results agree with it to (nearly) the last bit.
With sleeping enabled (engine/sleep.py), kinematics also notices a sleeping body moved from
outside and wakes its tree, and kinematics, com_pos, com_vel, crb and rne skip sleeping trees
(their values stay as computed before they slept), as MuJoCo's do; factor_m still refactors
them (frozen inputs: the same values).

Layouts: `d.cdof`, `d.cvel`, `d.cacc`... are `(n, 6)` arrays of (rotation, translation)
6-vectors; `d.cinert`/`d.crb` rows are MuJoCo's 10-vector inertias. `d.M`, `d.qLD` use the
reduced layout of `m.M_rowadr/M_rownnz/M_colind`: row i holds the ancestor dofs of i in
increasing order, then the diagonal.
"""

import numpy as np

from engine import sleep as _sleep
from engine._jit import inline_jit
from engine._jit import jit
from engine._jit import local_array
from engine._stage import SENSORS
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import runs_stage
from engine._stage import stage
from engine._stage import vec
from engine.actuation import actuator_armature
from engine.enums import mjCAMLIGHT_TARGETBODY
from engine.enums import mjCAMLIGHT_TARGETBODYCOM
from engine.enums import mjCAMLIGHT_TRACK
from engine.enums import mjCAMLIGHT_TRACKCOM
from engine.enums import mjDSBL_DAMPER
from engine.enums import mjDSBL_GRAVITY
from engine.enums import mjDSBL_SPRING
from engine.enums import mjEQ_CONNECT
from engine.enums import mjEQ_WELD
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE
from engine.enums import mjMINVAL
from engine.enums import mjNPOLY
from engine.enums import mjOBJ_BODY
from engine.enums import mjOBJ_JOINT
from engine.enums import mjOBJ_TENDON
from engine.enums import mjS_ASLEEP
from engine.enums import mjS_AWAKE
from engine.enums import mjS_STATIC
from engine.enums import mjSAMEFRAME_BODY
from engine.enums import mjSAMEFRAME_BODYROT
from engine.enums import mjSAMEFRAME_INERTIA
from engine.enums import mjSAMEFRAME_NONE
from engine.enums import mjTRN_TENDON
from engine.enums import mjWRAP_CYLINDER
from engine.enums import mjWRAP_JOINT
from engine.enums import mjWRAP_PULLEY
from engine.enums import mjWRAP_SITE
from engine.enums import mjWRAP_SPHERE
from engine.flags import disabled
from engine.math import mju_axisAngle2Quat
from engine.math import mju_crossForce
from engine.math import mju_crossMotion
from engine.math import mju_dot
from engine.math import mju_inertCom
from engine.math import mju_mulInertVec
from engine.math import mju_mulMatTVec3
from engine.math import mju_mulMatVec3
from engine.math import mju_mulQuat
from engine.math import mju_normalize3
from engine.math import mju_normalize4
from engine.math import mju_quat2Mat
from engine.math import mju_rotVecQuat
from engine.math import mju_transformSpatial
from engine.math import mul_quat_scalars
from engine.math import quat2mat_scalars
from engine.passive import tendon_spring_damper_force
from engine.sparse import add_to_scl_sparse_inc
from engine.sparse import factor_i
from engine.sparse import mul_sym_vec
from engine.sparse import solve_ld
from engine.support import contact_force

# ---- small helpers ----


@jit
def _normalize4_into(res, q0, q1, q2, q3):
  """res = (q0, q1, q2, q3), then mju_normalize4(res)."""
  res[0] = q0
  res[1] = q1
  res[2] = q2
  res[3] = q3
  mju_normalize4(res)


@jit
def _dot6(a, b):
  """Port of mju_dot for n=6: four interleaved partial sums, then the last two products."""
  res = (a[0] * b[0] + a[2] * b[2]) + (a[1] * b[1] + a[3] * b[3])
  return res + (a[4] * b[4] + a[5] * b[5])


@inline_jit
def _mul_dof_vec(res, dof, adr, vec, n):
  """Port of mju_mulDofVec: res = dof[adr:adr+n]' * vec[adr:adr+n] (6-vector)."""
  if n == 1:
    v = vec[adr]
    for k in range(6):
      res[k] = dof[adr, k] * v
  else:
    for k in range(6):
      res[k] = 0.0

    # rows with nonzero weight, as mju_mulMatTVec
    for r in range(n):
      v = vec[adr + r]
      if v != 0:
        for k in range(6):
          res[k] += dof[adr + r, k] * v


@inline_jit
def _dof_com(res, axis, offset, slide):
  """Port of mju_dofCom: motion axis in the com frame (slide: no offset)."""
  if slide:
    res[0] = 0.0
    res[1] = 0.0
    res[2] = 0.0
    res[3] = axis[0]
    res[4] = axis[1]
    res[5] = axis[2]
  else:
    res[0] = axis[0]
    res[1] = axis[1]
    res[2] = axis[2]
    res[3] = axis[1] * offset[2] - axis[2] * offset[1]
    res[4] = axis[2] * offset[0] - axis[0] * offset[2]
    res[5] = axis[0] * offset[1] - axis[1] * offset[0]


@jit
def local2global_pos(d, xpos, pos, body, sameframe):
  """Port of mj_local2Global, position part: xpos = body frame * pos (sameframe shortcuts)."""
  if sameframe == mjSAMEFRAME_BODY:
    for k in range(3):
      xpos[k] = d.xpos[body, k]
  elif sameframe == mjSAMEFRAME_INERTIA:
    for k in range(3):
      xpos[k] = d.xipos[body, k]
  else:
    mju_mulMatVec3(xpos, d.xmat[body], pos)
    for k in range(3):
      xpos[k] += d.xpos[body, k]


@inline_jit
def _place(d, xpos, xmat, i, pos, quat, body, sameframe):
  """mj_local2Global for row i of an object table: xpos[i] and xmat[i] from the frame of
  `body` and the local pos[i], quat[i], with the sameframe shortcuts. Indexes the tables
  instead of taking row views, which the per-object loops of mj_kinematics would pay for,
  and is inlined: a call passing five arrays costs more than the work (measured: humanoid's
  61 objects 1.85 -> 0.81 µs)."""
  if sameframe == mjSAMEFRAME_BODY:
    for k in range(3):
      xpos[i, k] = d.xpos[body, k]
  elif sameframe == mjSAMEFRAME_INERTIA:
    for k in range(3):
      xpos[i, k] = d.xipos[body, k]
  else:
    p0, p1, p2 = pos[i, 0], pos[i, 1], pos[i, 2]
    for k in range(3):
      xpos[i, k] = (
        d.xmat[body, 3 * k] * p0 + d.xmat[body, 3 * k + 1] * p1 + d.xmat[body, 3 * k + 2] * p2
      ) + d.xpos[body, k]

  if sameframe == mjSAMEFRAME_NONE:
    q = mul_quat_scalars(
      d.xquat[body, 0],
      d.xquat[body, 1],
      d.xquat[body, 2],
      d.xquat[body, 3],
      quat[i, 0],
      quat[i, 1],
      quat[i, 2],
      quat[i, 3],
    )
    r = quat2mat_scalars(q[0], q[1], q[2], q[3])
    for k in range(9):
      xmat[i, k] = r[k]
  elif sameframe == mjSAMEFRAME_BODY or sameframe == mjSAMEFRAME_BODYROT:
    for k in range(9):
      xmat[i, k] = d.xmat[body, k]
  else:  # mjSAMEFRAME_INERTIA or mjSAMEFRAME_INERTIAROT
    for k in range(9):
      xmat[i, k] = d.ximat[body, k]


# ---- position ----


@inline_jit
def _body_pose(m, d, i, qloc):
  """xpos and xquat (normalized) of body i from its parent's frame, its offset and its joints;
  xanchor and xaxis of its joints. Built in place."""
  xpos = d.xpos[i]
  xquat = d.xquat[i]
  jntadr = m.body_jntadr[i]
  jntnum = m.body_jntnum[i]

  # free joint: pose straight from qpos
  if jntnum == 1 and m.jnt_type[jntadr] == mjJNT_FREE:
    qadr = m.jnt_qposadr[jntadr]
    for k in range(3):
      xpos[k] = d.qpos[qadr + k]
    _normalize4_into(xquat, d.qpos[qadr + 3], d.qpos[qadr + 4], d.qpos[qadr + 5], d.qpos[qadr + 6])
    for k in range(3):
      d.xanchor[jntadr, k] = xpos[k]
      d.xaxis[jntadr, k] = m.jnt_axis[jntadr, k]

  # regular joints or none
  else:
    pid = m.body_parentid[i]

    # body offset from the model, or from mocap (normalized quaternion)
    mocapid = m.body_mocapid[i]
    if mocapid >= 0:
      bodypos = d.mocap_pos[mocapid]
      mq = d.mocap_quat[mocapid]
      _normalize4_into(qloc, mq[0], mq[1], mq[2], mq[3])
    else:
      bodypos = m.body_pos[i]
      for k in range(4):
        qloc[k] = m.body_quat[i, k]

    # fixed transform relative to the parent
    if pid:
      mju_mulMatVec3(xpos, d.xmat[pid], bodypos)
      for k in range(3):
        xpos[k] += d.xpos[pid, k]
      mju_mulQuat(xquat, d.xquat[pid], qloc)
    else:
      for k in range(3):
        xpos[k] = bodypos[k]
      for k in range(4):
        xquat[k] = qloc[k]

    # accumulate the joint transforms
    for j in range(jntnum):
      jid = jntadr + j
      qadr = m.jnt_qposadr[jid]
      jtype = m.jnt_type[jid]
      xaxis = d.xaxis[jid]
      xanchor = d.xanchor[jid]

      # global axis and anchor (ball jnt_axis is (0,0,1))
      mju_rotVecQuat(xaxis, m.jnt_axis[jid], xquat)
      mju_rotVecQuat(xanchor, m.jnt_pos[jid], xquat)
      for k in range(3):
        xanchor[k] += xpos[k]

      if jtype == mjJNT_SLIDE:
        dq = d.qpos[qadr] - m.qpos0[qadr]
        for k in range(3):
          xpos[k] += xaxis[k] * dq

      elif jtype == mjJNT_BALL or jtype == mjJNT_HINGE:
        # local rotation: normalized ball quaternion, or hinge axis-angle
        if jtype == mjJNT_BALL:
          _normalize4_into(qloc, d.qpos[qadr], d.qpos[qadr + 1], d.qpos[qadr + 2], d.qpos[qadr + 3])
        else:
          mju_axisAngle2Quat(qloc, m.jnt_axis[jid], d.qpos[qadr] - m.qpos0[qadr])
        mju_mulQuat(xquat, xquat, qloc)

        # rotate about the anchor: xpos = xanchor - xquat * jnt_pos
        mju_rotVecQuat(xpos, m.jnt_pos[jid], xquat)
        for k in range(3):
          xpos[k] = xanchor[k] - xpos[k]
  mju_normalize4(xquat)


@stage()
def kinematics(m, d):
  """Port of mj_kinematics: body, joint, inertial, geom and site frames from qpos.

  Quaternions in qpos and mocap_quat are normalized on the fly; qpos is not modified.
  """
  qloc = local_array(4)

  # world body
  for k in range(3):
    d.xpos[0, k] = 0.0
    d.xipos[0, k] = 0.0
  d.xquat[0, 0] = 1.0
  for k in range(1, 4):
    d.xquat[0, k] = 0.0
  for k in range(9):
    d.xmat[0, k] = 0.0
    d.ximat[0, k] = 0.0
  d.xmat[0, 0] = d.xmat[0, 4] = d.xmat[0, 8] = 1.0
  d.ximat[0, 0] = d.ximat[0, 4] = d.ximat[0, 8] = 1.0

  # bodies in tree order; with sleeping enabled, static bodies keep the poses of the reset and
  # a sleeping body moved from outside (qpos, mocap) marks its tree to wake below
  if not _sleep.enabled(m):
    for i in range(1, m.nbody):
      _body_pose(m, d, i, qloc)
      mju_quat2Mat(d.xmat[i], d.xquat[i])
  else:
    old = local_array(7)
    for i in range(1, m.nbody):
      state = d.body_awake[i]
      if state == mjS_STATIC:
        continue
      asleep = m.body_jntnum[i] and state == mjS_ASLEEP
      if asleep:
        for k in range(3):
          old[k] = d.xpos[i, k]
        for k in range(4):
          old[3 + k] = d.xquat[i, k]
      _body_pose(m, d, i, qloc)
      if asleep:
        moved = False
        for k in range(3):
          moved = moved or old[k] != d.xpos[i, k]
        for k in range(4):
          moved = moved or old[3 + k] != d.xquat[i, k]
        if not moved:
          continue
        d.tree_awake[m.body_treeid[i]] = 1
      mju_quat2Mat(d.xmat[i], d.xquat[i])

  # (with sleeping disabled, only trees left asleep by a model that had it enabled)
  if (_sleep.enabled(m) or d.ntree_awake[0] < m.ntree) and _sleep.wake(m, d):
    _sleep.update_sleep(m, d)

  # inertial frames of awake and static bodies; geoms and sites of awake ones (all when no
  # body sleeps and sleeping is disabled: static ones are placed by the reset otherwise)
  nbody, filtered = _sleep.awake_bodies(m, d)
  if not filtered:
    for i in range(1, m.nbody):
      _place(d, d.xipos, d.ximat, i, m.body_ipos, m.body_iquat, i, m.body_sameframe[i])
    for i in range(m.ngeom):
      _place(
        d,
        d.geom_xpos,
        d.geom_xmat,
        i,
        m.geom_pos,
        m.geom_quat,
        m.geom_bodyid[i],
        m.geom_sameframe[i],
      )
    for i in range(m.nsite):
      _place(
        d,
        d.site_xpos,
        d.site_xmat,
        i,
        m.site_pos,
        m.site_quat,
        m.site_bodyid[i],
        m.site_sameframe[i],
      )
    return
  for b in range(1, nbody):
    i = d.body_awake_ind[b]
    _place(d, d.xipos, d.ximat, i, m.body_ipos, m.body_iquat, i, m.body_sameframe[i])
  for b in range(nbody):
    i = d.body_awake_ind[b]
    if d.body_awake[i] != mjS_AWAKE:
      continue
    for g in range(m.body_geomadr[i], m.body_geomadr[i] + m.body_geomnum[i]):
      _place(d, d.geom_xpos, d.geom_xmat, g, m.geom_pos, m.geom_quat, i, m.geom_sameframe[g])
  for g in range(m.nsite):
    if d.body_awake[m.site_bodyid[g]] == mjS_AWAKE:
      _place(
        d,
        d.site_xpos,
        d.site_xmat,
        g,
        m.site_pos,
        m.site_quat,
        m.site_bodyid[g],
        m.site_sameframe[g],
      )


@stage()
def com_pos(m, d):
  """Port of mj_comPos: subtree_com, com-based inertias cinert and motion axes cdof.

  Subtree coms are normalized with the model's body_subtreemass, as MuJoCo 3.17 does.
  """
  if _sleep.awake_bodies(m, d)[1]:
    _com_pos(m, d, True)
  else:
    _com_pos(m, d, False)


@inline_jit
def _com_pos(m, d, filtered):
  """com_pos over the awake bodies (filtered) or all: each call site gets its own copy with
  `filtered` constant, so the loops run as plain loops when nothing sleeps."""
  offset = local_array(3)
  nbody = d.nbody_awake[0] if filtered else m.nbody
  nparent = d.nparent_awake[0] if filtered else nbody

  # subtree_com: body moments, accumulated to parents backwards (a sleeping child's moment
  # from its normalized com), then normalized
  for b in range(nbody):
    i = d.body_awake_ind[b] if filtered else b
    for k in range(3):
      d.subtree_com[i, k] = d.xipos[i, k] * m.body_mass[i]
  for b in range(nparent - 1, -1, -1):
    i = d.parent_awake_ind[b] if filtered else b
    if i == 0:
      continue
    p = m.body_parentid[i]
    if filtered and d.body_awake[i] == mjS_ASLEEP:
      for k in range(3):
        d.subtree_com[p, k] += d.subtree_com[i, k] * m.body_subtreemass[i]
    else:
      for k in range(3):
        d.subtree_com[p, k] += d.subtree_com[i, k]
  for b in range(nbody):
    i = d.body_awake_ind[b] if filtered else b
    mass = m.body_subtreemass[i]
    if mass < mjMINVAL:
      for k in range(3):
        d.subtree_com[i, k] = d.xipos[i, k]
    else:
      scl = 1.0 / mass
      for k in range(3):
        d.subtree_com[i, k] = d.subtree_com[i, k] * scl

  # inertias in frames centered at the subtree com of each tree
  for k in range(10):
    d.cinert[0, k] = 0.0
  for b in range(1, nbody):
    i = d.body_awake_ind[b] if filtered else b
    root = m.body_rootid[i]
    for k in range(3):
      offset[k] = d.xipos[i, k] - d.subtree_com[root, k]
    mju_inertCom(d.cinert[i], m.body_inertia[i], d.ximat[i], offset, m.body_mass[i])

  # motion dofs in the same frames, body by body
  for b in range(1, nbody):
    i = d.body_awake_ind[b] if filtered else b
    root = m.body_rootid[i]
    for j in range(m.body_jntadr[i], m.body_jntadr[i] + m.body_jntnum[i]):
      da = m.jnt_dofadr[j]
      for k in range(3):
        offset[k] = d.subtree_com[root, k] - d.xanchor[j, k]
      jtype = m.jnt_type[j]

      # free: three translations, then rotations about the body axes as a ball joint
      if jtype == mjJNT_FREE or jtype == mjJNT_BALL:
        if jtype == mjJNT_FREE:
          for r in range(3):
            for k in range(6):
              d.cdof[da + r, k] = 0.0
            d.cdof[da + r, 3 + r] = 1.0
          da += 3
        xmat = d.xmat[i]
        for r in range(3):
          row = d.cdof[da + r]
          row[0] = xmat[r]
          row[1] = xmat[r + 3]
          row[2] = xmat[r + 6]
          row[3] = row[1] * offset[2] - row[2] * offset[1]
          row[4] = row[2] * offset[0] - row[0] * offset[2]
          row[5] = row[0] * offset[1] - row[1] * offset[0]
      elif jtype == mjJNT_SLIDE:
        _dof_com(d.cdof[da], d.xaxis[j], offset, True)
      elif jtype == mjJNT_HINGE:
        _dof_com(d.cdof[da], d.xaxis[j], offset, False)


@stage()
def camlight(m, d):
  """Port of mj_camlight: camera and light poses for every cam_mode/light_mode."""
  # cameras
  for i in range(m.ncam):
    body = m.cam_bodyid[i]
    target = m.cam_targetbodyid[i]
    xpos = d.cam_xpos[i]
    xmat = d.cam_xmat[i]

    # fixed mode is the default
    _place(d, d.cam_xpos, d.cam_xmat, i, m.cam_pos, m.cam_quat, body, mjSAMEFRAME_NONE)
    mode = m.cam_mode[i]

    # tracking: fixed global orientation, position follows the body or its subtree com
    if mode == mjCAMLIGHT_TRACK or mode == mjCAMLIGHT_TRACKCOM:
      for k in range(9):
        xmat[k] = m.cam_mat0[i, k]
      if mode == mjCAMLIGHT_TRACK:
        for k in range(3):
          xpos[k] = d.xpos[body, k] + m.cam_pos0[i, k]
      else:
        for k in range(3):
          xpos[k] = d.subtree_com[body, k] + m.cam_poscom0[i, k]

    # targeting: look at the target body (or its subtree com), x axis horizontal
    elif (mode == mjCAMLIGHT_TARGETBODY or mode == mjCAMLIGHT_TARGETBODYCOM) and target >= 0:
      src = d.xpos if mode == mjCAMLIGHT_TARGETBODY else d.subtree_com

      # z axis: away from the target
      z0 = xpos[0] - src[target, 0]
      z1 = xpos[1] - src[target, 1]
      z2 = xpos[2] - src[target, 2]
      z0, z1, z2 = _normalized3(z0, z1, z2)

      # x axis = (0,0,1) x z
      x0 = 0.0 * z2 - 1.0 * z1
      x1 = 1.0 * z0 - 0.0 * z2
      x2 = 0.0 * z1 - 0.0 * z0
      x0, x1, x2 = _normalized3(x0, x1, x2)

      # y axis = z x x
      y0 = z1 * x2 - z2 * x1
      y1 = z2 * x0 - z0 * x2
      y2 = z0 * x1 - z1 * x0
      y0, y1, y2 = _normalized3(y0, y1, y2)

      # the axes are the columns of cam_xmat
      xmat[0] = x0
      xmat[3] = x1
      xmat[6] = x2
      xmat[1] = y0
      xmat[4] = y1
      xmat[7] = y2
      xmat[2] = z0
      xmat[5] = z1
      xmat[8] = z2

  # lights
  for i in range(m.nlight):
    body = m.light_bodyid[i]
    target = m.light_targetbodyid[i]
    xpos = d.light_xpos[i]
    xdir = d.light_xdir[i]

    # fixed mode is the default
    local2global_pos(d, xpos, m.light_pos[i], body, mjSAMEFRAME_NONE)
    mju_rotVecQuat(xdir, m.light_dir[i], d.xquat[body])
    mode = m.light_mode[i]

    # tracking
    if mode == mjCAMLIGHT_TRACK or mode == mjCAMLIGHT_TRACKCOM:
      for k in range(3):
        xdir[k] = m.light_dir0[i, k]
      if mode == mjCAMLIGHT_TRACK:
        for k in range(3):
          xpos[k] = d.xpos[body, k] + m.light_pos0[i, k]
      else:
        for k in range(3):
          xpos[k] = d.subtree_com[body, k] + m.light_poscom0[i, k]

    # targeting: point at the target
    elif (mode == mjCAMLIGHT_TARGETBODY or mode == mjCAMLIGHT_TARGETBODYCOM) and target >= 0:
      src = d.xpos if mode == mjCAMLIGHT_TARGETBODY else d.subtree_com
      for k in range(3):
        xdir[k] = src[target, k] - xpos[k]

    mju_normalize3(xdir)


@jit
def _normalized3(x, y, z):
  """mju_normalize3 on scalars: the unit vector, (1,0,0) when shorter than mjMINVAL."""
  norm = np.sqrt(x * x + y * y + z * z)
  if norm < mjMINVAL:
    return 1.0, 0.0, 0.0
  inv = 1 / norm
  return x * inv, y * inv, z * inv


# ---- inertia ----


@jit
def tendon_armature(m, d):
  """Port of mj_tendonArmature: M += armature * ten_J' * ten_J for each tendon.

  The armature includes what actuators on the tendon add (mj_actuatorArmature).
  """
  for k in range(m.ntendon):
    armature = m.tendon_armature[k] + actuator_armature(m, mjOBJ_TENDON, k)
    if not armature:
      continue
    jadr = m.ten_J_rowadr[k]
    jnnz = m.ten_J_rownnz[k]

    # row i of M gets armature * J_i * J at the common (lower-triangle) columns
    for jj in range(jnnz):
      ten_j = d.ten_J[jadr + jj]
      if not ten_j:
        continue
      i = m.ten_J_colind[jadr + jj]
      add_to_scl_sparse_inc(
        d.M,
        m.M_rowadr[i],
        m.M_rownnz[i],
        m.M_colind,
        m.M_rowadr[i],
        d.ten_J,
        jadr,
        jnnz,
        m.ten_J_colind,
        jadr,
        armature * ten_j,
      )


@stage()
def crb(m, d):
  """Port of mj_crb: composite rigid body inertias and the joint-space inertia M.

  Dof and actuator armature (mj_actuatorArmature) are added on the diagonal; simple dofs
  take their constant dof_M0.
  """
  if _sleep.enabled(m) and d.nv_awake[0] < m.nv:  # sleeping trees: M rows kept
    _crb(m, d, True)
  else:
    _crb(m, d, False)


@inline_jit
def _crb(m, d, filtered):
  """crb over the awake bodies and dofs (filtered) or all (see _com_pos)."""
  buf = local_array(6)
  nbody = d.nbody_awake[0] if filtered else m.nbody
  nparent = d.nparent_awake[0] if filtered else m.nbody
  nv = d.nv_awake[0] if filtered else m.nv

  # crb = cinert, accumulated from children to parents
  for b in range(nbody):
    i = d.body_awake_ind[b] if filtered else b
    for k in range(10):
      d.crb[i, k] = d.cinert[i, k]
  for b in range(nparent - 1, -1, -1):
    i = d.parent_awake_ind[b] if filtered else b
    p = m.body_parentid[i]
    if p > 0:
      for k in range(10):
        d.crb[p, k] += d.crb[i, k]

  # M, row by row in the reduced layout
  if filtered:
    for v in range(nv):
      i = d.dof_awake_ind[v]
      for adr in range(m.M_rowadr[i], m.M_rowadr[i] + m.M_rownnz[i]):
        d.M[adr] = 0.0
  else:
    for i in range(m.nC):
      d.M[i] = 0.0
  for v in range(nv):
    i = d.dof_awake_ind[v] if filtered else v
    adr = m.M_rowadr[i]
    if m.dof_simplenum[i]:
      d.M[adr] = m.dof_M0[i]
      continue

    # diagonal starts with the armature
    madr = adr + m.M_rownnz[i] - 1
    d.M[madr] = m.dof_armature[i]
    if m.jnt_actuatorid[m.dof_jntid[i]] != -1:  # skip the call (and its struct refcount)
      d.M[madr] += actuator_armature(m, mjOBJ_JOINT, m.dof_jntid[i])

    # M(i,j) += cdof_j * (crb_i * cdof_i) over the ancestors j of i (mju_dot's order, on
    # indexes: a row view per ancestor cost more than the products)
    mju_mulInertVec(buf, d.crb[m.dof_bodyid[i]], d.cdof[i])
    b0, b1, b2, b3, b4, b5 = buf[0], buf[1], buf[2], buf[3], buf[4], buf[5]
    M = d.M
    cdof = d.cdof
    parent = m.dof_parentid
    j = i
    while j >= 0:
      M[madr] += (
        (cdof[j, 0] * b0 + cdof[j, 2] * b2)
        + (cdof[j, 1] * b1 + cdof[j, 3] * b3)
        + (cdof[j, 4] * b4 + cdof[j, 5] * b5)
      )
      madr -= 1
      j = parent[j]


@stage()
def make_m(m, d):
  """Port of mj_makeM: M from crb plus the tendon armature term."""
  crb(m, d)
  tendon_armature(m, d)


@stage()
def factor_m(m, d):
  """Port of mj_factorM: qLD = L'*D*L factorization of M, qLDiagInv = 1/D."""
  for i in range(m.nC):
    d.qLD[i] = d.M[i]
  factor_i(d, d.qLD, d.qLDiagInv, m.nv, m.M_rownnz, m.M_rowadr, m.M_colind)


@stage(M, D, vec, vec, i8)
def solve_m(m, d, x, y, n):
  """Port of mj_solveM: x = inv(M) y for n vectors (flat, n*nv), using qLD.

  x and y may be the same array.
  """
  for i in range(n * m.nv):
    x[i] = y[i]
  solve_ld(x, d.qLD, d.qLDiagInv, m.nv, n, m.M_rownnz, m.M_rowadr, m.M_colind)


@jit
def half_solve_m(m, d, x, y, sqrtinvd, n):
  """Port of mj_solveM2: half solve x = sqrt(inv(D)) inv(L') y for n vectors (flat; x and y
  may be the same array)."""
  nv = m.nv
  for i in range(n * nv):
    x[i] = y[i]

  # x <- inv(L') x, skipping simple dofs
  for i in range(nv - 1, 0, -1):
    if m.dof_simplenum[i]:
      continue
    start = m.M_rowadr[i]
    end = start + m.M_rownnz[i] - 1
    for off in range(0, n * nv, nv):
      xi = x[off + i]
      if xi:
        for adr in range(start, end):
          x[off + m.M_colind[adr]] -= d.qLD[adr] * xi

  # x <- sqrt(inv(D)) x
  for i in range(nv):
    s = sqrtinvd[i]
    for off in range(0, n * nv, nv):
      x[off + i] *= s


@stage(M, D, vec, vec)
def mul_m(m, d, res, vec):
  """Port of mj_mulM: res = M vec from the lower triangle (mju_mulSymVecSparse)."""
  mul_sym_vec(res, d.M, vec, m.nv, m.M_rownnz, m.M_rowadr, m.M_colind)


@stage(M, D, vec, lazy=True)
def full_m(m, d, dst):
  """Port of mj_fullM (3.17 signature): dense symmetric M into dst (flat nv*nv)."""
  nv = m.nv
  for i in range(nv * nv):
    dst[i] = 0.0
  for i in range(nv):
    for adr in range(m.M_rowadr[i], m.M_rowadr[i] + m.M_rownnz[i]):
      j = m.M_colind[adr]
      dst[i * nv + j] = d.M[adr]
      dst[j * nv + i] = d.M[adr]


# ---- velocity ----


@stage()
def com_vel(m, d):
  """Port of mj_comVel: com-based body velocities cvel and dof derivatives cdof_dot."""
  if _sleep.awake_bodies(m, d)[1]:
    _com_vel(m, d, True)
  else:
    _com_vel(m, d, False)


@inline_jit
def _com_vel(m, d, filtered):
  """com_vel over the awake bodies (filtered) or all (see _com_pos)."""
  tmp = local_array(6)

  # world at rest
  for k in range(6):
    d.cvel[0, k] = 0.0

  # forward pass: cvel = cvel_parent + cdof * qvel, cdof_dot = cvel x cdof (awake bodies)
  nbody = d.nbody_awake[0] if filtered else m.nbody
  for b in range(1, nbody):
    i = d.body_awake_ind[b] if filtered else b
    bda = m.body_dofadr[i]
    cvel = d.cvel[i]
    for k in range(6):
      cvel[k] = d.cvel[m.body_parentid[i], k]

    dofnum = m.body_dofnum[i]
    j = 0
    while j < dofnum:
      jtype = m.jnt_type[m.dof_jntid[bda + j]]

      # free: translations do not change the axes; then the rotations as a ball joint
      if jtype == mjJNT_FREE or jtype == mjJNT_BALL:
        if jtype == mjJNT_FREE:
          for r in range(3):
            for k in range(6):
              d.cdof_dot[bda + j + r, k] = 0.0
          _mul_dof_vec(tmp, d.cdof, bda + j, d.qvel, 3)
          for k in range(6):
            cvel[k] += tmp[k]
          j += 3

        # all three rotation derivatives use the velocity before the joint
        for r in range(3):
          mju_crossMotion(d.cdof_dot[bda + j + r], cvel, d.cdof[bda + j + r])
        _mul_dof_vec(tmp, d.cdof, bda + j, d.qvel, 3)
        for k in range(6):
          cvel[k] += tmp[k]
        j += 3

      # hinge, slide
      else:
        mju_crossMotion(d.cdof_dot[bda + j], cvel, d.cdof[bda + j])
        _mul_dof_vec(tmp, d.cdof, bda + j, d.qvel, 1)
        for k in range(6):
          cvel[k] += tmp[k]
        j += 1


@jit
def _body_velocity(m, d, i, res):
  """mj_objectVelocity of body i's inertial frame, world orientation (rot, lin)."""
  if m.body_weldid[i] == 0:
    for k in range(6):
      res[k] = 0.0
    return
  mju_transformSpatial(res, d.cvel[i], 0, d.xipos[i], d.subtree_com[m.body_rootid[i]], None)


@stage()
def subtree_vel(m, d):
  """Port of mj_subtreeVel: subtree com velocities and angular momenta about subtree coms."""
  nbody = m.nbody
  vel = local_array(6)
  dv = local_array(3)

  # body linear momenta and angular momenta about their own coms
  for i in range(nbody):
    _body_velocity(m, d, i, vel)
    for k in range(3):
      d.subtree_linvel[i, k] = vel[3 + k] * m.body_mass[i]
    mju_mulMatTVec3(dv, d.ximat[i], vel)
    for k in range(3):
      dv[k] *= m.body_inertia[i, k]
    mju_mulMatVec3(d.subtree_angmom[i], d.ximat[i], dv)

  # subtree linear momenta to velocities
  for i in range(nbody - 1, -1, -1):
    if i:
      p = m.body_parentid[i]
      for k in range(3):
        d.subtree_linvel[p, k] += d.subtree_linvel[i, k]
    scl = 1 / max(mjMINVAL, m.body_subtreemass[i])
    for k in range(3):
      d.subtree_linvel[i, k] = d.subtree_linvel[i, k] * scl

  # subtree angular momenta, children to parents
  for i in range(nbody - 1, 0, -1):
    p = m.body_parentid[i]
    _body_velocity(m, d, i, vel)

    # momentum of body i about the subtree com of i
    dx0 = d.xipos[i, 0] - d.subtree_com[i, 0]
    dx1 = d.xipos[i, 1] - d.subtree_com[i, 1]
    dx2 = d.xipos[i, 2] - d.subtree_com[i, 2]
    mass = m.body_mass[i]
    dp0 = (vel[3] - d.subtree_linvel[i, 0]) * mass
    dp1 = (vel[4] - d.subtree_linvel[i, 1]) * mass
    dp2 = (vel[5] - d.subtree_linvel[i, 2]) * mass
    angmom = d.subtree_angmom[i]
    angmom[0] += dx1 * dp2 - dx2 * dp1
    angmom[1] += dx2 * dp0 - dx0 * dp2
    angmom[2] += dx0 * dp1 - dx1 * dp0

    # add to the parent
    for k in range(3):
      d.subtree_angmom[p, k] += angmom[k]

    # momentum of subtree i about the subtree com of the parent
    dx0 = d.subtree_com[i, 0] - d.subtree_com[p, 0]
    dx1 = d.subtree_com[i, 1] - d.subtree_com[p, 1]
    dx2 = d.subtree_com[i, 2] - d.subtree_com[p, 2]
    mass = m.body_subtreemass[i]
    dp0 = (d.subtree_linvel[i, 0] - d.subtree_linvel[p, 0]) * mass
    dp1 = (d.subtree_linvel[i, 1] - d.subtree_linvel[p, 1]) * mass
    dp2 = (d.subtree_linvel[i, 2] - d.subtree_linvel[p, 2]) * mass
    d.subtree_angmom[p, 0] += dx1 * dp2 - dx2 * dp1
    d.subtree_angmom[p, 1] += dx2 * dp0 - dx0 * dp2
    d.subtree_angmom[p, 2] += dx0 * dp1 - dx1 * dp0


# ---- RNE ----


@inline_jit
def _body_force(d, i, cacc, res, tmp, tmp1):
  """res = cinert * cacc + cvel x* (cinert * cvel) for body i (RNE body force)."""
  mju_mulInertVec(res, d.cinert[i], cacc)
  mju_mulInertVec(tmp, d.cinert[i], d.cvel[i])
  mju_crossForce(tmp1, d.cvel[i], tmp)
  for k in range(6):
    res[k] += tmp1[k]


@stage(M, D, i8, vec)
def rne(m, d, flg_acc, result):
  """Port of mj_rne: result = M(qpos) qacc + C(qpos, qvel); flg_acc=0 drops the M qacc term.

  Gravity enters as a world acceleration of -gravity unless mjDSBL_GRAVITY is set.
  """
  if _sleep.awake_bodies(m, d)[1]:  # sleeping trees: their result entries kept
    _rne(m, d, flg_acc, result, True)
  else:
    _rne(m, d, flg_acc, result, False)


@inline_jit
def _rne(m, d, flg_acc, result, filtered):
  """rne over the awake bodies and dofs (filtered) or all (see _com_pos)."""
  cacc = d.scratch_rne_cacc
  cfrc = d.scratch_rne_cfrc
  tmp = local_array(6)
  tmp1 = local_array(6)
  nbody = d.nbody_awake[0] if filtered else m.nbody
  nparent = d.nparent_awake[0] if filtered else nbody
  nv = d.nv_awake[0] if filtered else m.nv

  # world acceleration: -gravity
  for k in range(6):
    cacc[0, k] = 0.0
  if not disabled(m, mjDSBL_GRAVITY):
    for k in range(3):
      cacc[0, 3 + k] = m.opt.gravity[k] * -1.0

  # forward pass: cacc = cacc_parent + cdof_dot * qvel (+ cdof * qacc), body forces
  for b in range(1, nbody):
    i = d.body_awake_ind[b] if filtered else b
    bda = m.body_dofadr[i]
    dofnum = m.body_dofnum[i]
    _mul_dof_vec(tmp, d.cdof_dot, bda, d.qvel, dofnum)
    p = m.body_parentid[i]
    for k in range(6):
      cacc[i, k] = cacc[p, k] + tmp[k]
    if flg_acc:
      _mul_dof_vec(tmp, d.cdof, bda, d.qacc, dofnum)
      for k in range(6):
        cacc[i, k] += tmp[k]
    _body_force(d, i, cacc[i], cfrc[i], tmp, tmp1)

  # backward pass: accumulate forces to parents
  for k in range(6):
    cfrc[0, k] = 0.0
  for b in range(nparent - 1, 0, -1):
    i = d.parent_awake_ind[b] if filtered else b
    p = m.body_parentid[i]
    if p:
      for k in range(6):
        cfrc[p, k] += cfrc[i, k]

  # project on the dofs
  for v in range(nv):
    i = d.dof_awake_ind[v] if filtered else v
    result[i] = _dot6(d.cdof[i], cfrc[m.dof_bodyid[i]])


@jit
def _point_motion(m, d, body, point, acc, vel):
  """Linear acceleration and velocity of a point fixed on a body (world frame).

  As mj_objectAcceleration / mj_objectVelocity at `point`: com-based cacc and cvel moved to
  the point, plus the rotating-frame term w x v. Unlike those, static bodies are not skipped:
  they keep the world's -gravity acceleration, so that differences between two points are
  true relative accelerations. acc, vel are (6,) scratch; results in their last three entries.
  """
  com = d.subtree_com[m.body_rootid[body]]
  mju_transformSpatial(acc, d.cacc[body], 0, point, com, None)
  mju_transformSpatial(vel, d.cvel[body], 0, point, com, None)
  acc[3] += vel[1] * vel[5] - vel[2] * vel[4]
  acc[4] += vel[2] * vel[3] - vel[0] * vel[5]
  acc[5] += vel[0] * vel[4] - vel[1] * vel[3]


@jit
def _add_point_force(m, d, body, point, force, scl, cfrc, cfrc_com):
  """cfrc_ext[body] += the force scl*force acting at point, moved to the subtree com."""
  if body == 0:
    return
  for k in range(3):
    cfrc[k] = 0.0
    cfrc[3 + k] = force[k] * scl
  mju_transformSpatial(cfrc_com, cfrc, 1, d.subtree_com[m.body_rootid[body]], point, None)
  for k in range(6):
    d.cfrc_ext[body, k] += cfrc_com[k]


@jit
def _tendon_segment(m, d, id, j):
  """(site0, site1, next j) of the straight site-site segment starting at wrap j of tendon id.

  Returns site0 = -1 for a pulley (and the divisor in the caller) or a geom-wrapped segment.
  """
  adr = m.tendon_adr[id]
  type0 = m.wrap_type[adr + j]
  type1 = m.wrap_type[adr + j + 1]
  if type0 == mjWRAP_PULLEY or type1 == mjWRAP_PULLEY:
    return -1, -1, j + 1
  if type1 == mjWRAP_SPHERE or type1 == mjWRAP_CYLINDER:
    return -1, -1, j + 2
  return m.wrap_objid[adr + j], m.wrap_objid[adr + j + 1], j + 1


@jit
def _tendon_lddot(m, d, t, acc0, acc1, vel0, vel1, u):
  """Length acceleration of spatial tendon t from the body accelerations in cacc.

  Sums u.(a1 - a0) + (|v1 - v0|^2 - (u.(v1 - v0))^2) / L over the straight site-site
  segments, each scaled by its pulley divisor. Geom-wrapped segments are skipped: MuJoCo
  rejects armature on wrapping tendons. acc0..vel1 are (6,) and u (3,) scratch.
  """
  adr = m.tendon_adr[t]
  num = m.tendon_num[t]
  lddot = 0.0
  divisor = 1.0
  j = 0
  while j < num - 1:
    if m.wrap_type[adr + j] == mjWRAP_PULLEY:
      divisor = m.wrap_prm[adr + j]
    s0, s1, j = _tendon_segment(m, d, t, j)
    if s0 < 0:
      continue
    b0 = m.site_bodyid[s0]
    b1 = m.site_bodyid[s1]
    if b0 == b1:
      continue
    p0 = d.site_xpos[s0]
    p1 = d.site_xpos[s1]
    for k in range(3):
      u[k] = p1[k] - p0[k]
    length = mju_normalize3(u)
    if length < mjMINVAL:
      continue
    _point_motion(m, d, b0, p0, acc0, vel0)
    _point_motion(m, d, b1, p1, acc1, vel1)
    dv0 = vel1[3] - vel0[3]
    dv1 = vel1[4] - vel0[4]
    dv2 = vel1[5] - vel0[5]
    du = u[0] * dv0 + u[1] * dv1 + u[2] * dv2
    da = u[0] * (acc1[3] - acc0[3]) + u[1] * (acc1[4] - acc0[4]) + u[2] * (acc1[5] - acc0[5])
    lddot += (da + (dv0 * dv0 + dv1 * dv1 + dv2 * dv2 - du * du) / length) / divisor
  return lddot


@jit
def _tendon_actuator_forces(m, d):
  """d.scratch_ten_force[t]: the force actuators transmit along tendon t, the sum of
  gear * actuator_force in actuator order (one pass over the actuators, not one per tendon)."""
  force = d.scratch_ten_force
  for t in range(m.ntendon):
    force[t] = 0.0
  for k in range(m.nactuator):
    if m.actuator_trntype[k] == mjTRN_TENDON:
      adr = m.actuator_outadr[k]
      force[m.actuator_trnid[k, 0]] += m.actuator_gear[adr, 0] * d.actuator_force[adr]
  return force


@jit
def _add_tendon_path_forces(m, d, t, tension, u, cfrc, cfrc_com, wrap_obj, wrap_xpos):
  """Applies the tension of spatial tendon t to the bodies along its path (wrap_xpos).

  Every straight piece of the path between points on different bodies pulls its two ends
  towards each other with tension / divisor. Path points are sites (wrap_obj -1, matched in
  order with the site entries of the tendon), tangent points on a wrapping geom (its id), or
  pulley markers (-2) that end a branch and set the divisor of the next. wrap_obj and
  wrap_xpos are flat views of d's (reshaped once per step by the caller: numba's reshape is
  a call into its C helpers).
  """
  j = m.tendon_adr[t]
  end = j + m.tendon_num[t]
  divisor = 1.0
  prev = -1
  body_prev = 0
  wadr = d.ten_wrapadr[t]
  for w in range(wadr, wadr + d.ten_wrapnum[t]):
    obj = wrap_obj[w]

    # pulley: new branch with its divisor
    if obj == -2:
      while j < end and m.wrap_type[j] != mjWRAP_PULLEY:
        j += 1
      if j < end:
        divisor = m.wrap_prm[j]
        j += 1
      prev = -1
      continue

    # body of the point: the next site of the tendon, or the wrapping geom
    if obj == -1:
      while j < end and m.wrap_type[j] != mjWRAP_SITE:
        j += 1
      if j == end:
        return
      body = m.site_bodyid[m.wrap_objid[j]]
      j += 1
    else:
      body = m.geom_bodyid[obj]

    # the piece from the previous point pulls both ends together
    if prev >= 0 and body != body_prev:
      for k in range(3):
        u[k] = wrap_xpos[3 * w + k] - wrap_xpos[3 * prev + k]
      if mju_normalize3(u) >= mjMINVAL:
        p0 = wrap_xpos[3 * prev : 3 * prev + 3]
        p1 = wrap_xpos[3 * w : 3 * w + 3]
        _add_point_force(m, d, body_prev, p0, u, tension / divisor, cfrc, cfrc_com)
        _add_point_force(m, d, body, p1, u, -tension / divisor, cfrc, cfrc_com)
    prev = w
    body_prev = body


@jit
def _tendon_forces(m, d, cfrc, cfrc_com):
  """Adds the forces that spatial tendons exert on the bodies along their paths to cfrc_ext.

  As MuJoCo 3.17 does, the tension of a spatial tendon (positive when pulling) is
  armature * Lddot (its own armature plus its actuators') minus the tendon's passive spring
  and damper forces (engine/passive.py) minus the actuator forces along the tendon.
  Constraint forces on tendons (limits, friction loss, tendon equalities) are not included
  yet: see the constraint block of rne_post_constraint.
  """
  acc0 = local_array(6)
  acc1 = local_array(6)
  vel0 = local_array(6)
  vel1 = local_array(6)
  u = local_array(3)
  dpoly = local_array(mjNPOLY)
  enbl_spring = not disabled(m, mjDSBL_SPRING)
  enbl_damper = not disabled(m, mjDSBL_DAMPER)
  actuator_force = _tendon_actuator_forces(m, d)
  wrap_obj = d.wrap_obj.reshape(-1)
  wrap_xpos = d.wrap_xpos.reshape(-1)
  for t in range(m.ntendon):
    if m.wrap_type[m.tendon_adr[t]] == mjWRAP_JOINT:
      continue

    # tension: armature inertia, minus passive and actuator forces along the tendon
    tension = 0.0
    armature = m.tendon_armature[t] + actuator_armature(m, mjOBJ_TENDON, t)
    if armature:
      tension = armature * _tendon_lddot(m, d, t, acc0, acc1, vel0, vel1, u)
    frc_spring, frc_damper = tendon_spring_damper_force(m, d, t, enbl_spring, enbl_damper, dpoly)
    tension -= frc_spring + frc_damper
    tension -= actuator_force[t]
    if tension == 0:
      continue
    _add_tendon_path_forces(m, d, t, tension, u, cfrc, cfrc_com, wrap_obj, wrap_xpos)


@jit
def _add_ext_force(m, d, body, cfrc, point, cfrc_com, sign):
  """cfrc_ext[body] += sign * (world torque:force cfrc applied at point, moved to the com)."""
  mju_transformSpatial(cfrc_com, cfrc, 1, d.subtree_com[m.body_rootid[body]], point, None)
  for k in range(6):
    d.cfrc_ext[body, k] += sign * cfrc_com[k]


@jit
def _constraint_forces(m, d, cfrc, cfrc_com, lfrc):
  """Part of mj_rnePostConstraint: contact forces (minus on geom 0's body, plus on geom 1's)
  and connect/weld equality forces (plus on body 1, minus on body 2) added to cfrc_ext."""
  pos = local_array(3)
  for i in range(d.ncon[0]):
    if d.contact_efc_address[i] < 0:
      continue
    contact_force(m, d, i, lfrc)
    frame = d.contact_frame[i]
    mju_mulMatTVec3(cfrc[0:3], frame, lfrc[3:6])
    mju_mulMatTVec3(cfrc[3:6], frame, lfrc[0:3])
    b1 = m.geom_bodyid[d.contact_geom[i, 0]]
    b2 = m.geom_bodyid[d.contact_geom[i, 1]]
    if b1:
      _add_ext_force(m, d, b1, cfrc, d.contact_pos[i], cfrc_com, -1.0)
    if b2:
      _add_ext_force(m, d, b2, cfrc, d.contact_pos[i], cfrc_com, 1.0)

  i = 0
  while i < d.ne[0]:
    eq = d.efc_id[i]
    etype = m.eq_type[eq]
    if etype != mjEQ_CONNECT and etype != mjEQ_WELD:
      i += 1
      continue
    weld = etype == mjEQ_WELD
    for k in range(3):
      cfrc[3 + k] = d.efc_force[i + k]
      cfrc[k] = d.efc_force[i + 3 + k] if weld else 0.0
    body_semantic = m.eq_objtype[eq] == mjOBJ_BODY
    for side in range(2):
      obj = m.eq_obj1id[eq] if side == 0 else m.eq_obj2id[eq]
      body = obj if body_semantic else m.site_bodyid[obj]
      if not body:
        continue
      if body_semantic:
        # anchor on body 1: data[3:6] for weld, data[0:3] for connect; the other on body 2
        adr = 3 if (side == 0) == weld else 0
        local2global_pos(d, pos, m.eq_data[eq, adr : adr + 3], body, mjSAMEFRAME_NONE)
      else:
        local2global_pos(d, pos, m.site_pos[obj], body, mjSAMEFRAME_NONE)
      _add_ext_force(m, d, body, cfrc, pos, cfrc_com, 1.0 if side == 0 else -1.0)
    i += 6 if weld else 3


@stage(needed=SENSORS)
def rne_post_constraint(m, d):
  """Port of mj_rnePostConstraint: cacc, cfrc_int and cfrc_ext with the full qacc.

  cfrc_ext holds xfrc_applied, contact and connect/weld equality forces and, as in MuJoCo
  3.17, the forces of spatial tendons on the bodies along their paths (armature inertia,
  passive spring/damper and actuator forces). Gravity compensation and fluid forces are not
  part of cfrc_ext.
  """
  nbody = m.nbody
  cfrc = local_array(6)
  cfrc_com = local_array(6)
  tmp = local_array(6)
  tmp1 = local_array(6)

  # cacc: world at -gravity, then cacc_parent + cdof_dot * qvel + cdof * qacc
  for k in range(6):
    d.cacc[0, k] = 0.0
  if not disabled(m, mjDSBL_GRAVITY):
    for k in range(3):
      d.cacc[0, 3 + k] = m.opt.gravity[k] * -1.0
  for j in range(1, nbody):
    bda = m.body_dofadr[j]
    dofnum = m.body_dofnum[j]
    p = m.body_parentid[j]
    _mul_dof_vec(tmp, d.cdof_dot, bda, d.qvel, dofnum)
    for k in range(6):
      d.cacc[j, k] = d.cacc[p, k] + tmp[k]
    _mul_dof_vec(tmp, d.cdof, bda, d.qacc, dofnum)
    for k in range(6):
      d.cacc[j, k] += tmp[k]

  # cfrc_ext = applied forces (torque:force), moved from xipos to the subtree com
  for i in range(nbody):
    for k in range(6):
      d.cfrc_ext[i, k] = 0.0
  for i in range(1, nbody):
    xfrc = d.xfrc_applied[i]
    if xfrc[0] != 0 or xfrc[1] != 0 or xfrc[2] != 0 or xfrc[3] != 0 or xfrc[4] != 0 or xfrc[5] != 0:
      for k in range(3):
        cfrc[k] = xfrc[3 + k]
        cfrc[3 + k] = xfrc[k]
      mju_transformSpatial(cfrc_com, cfrc, 1, d.subtree_com[m.body_rootid[i]], d.xipos[i], None)
      for k in range(6):
        d.cfrc_ext[i, k] += cfrc_com[k]

  # contact and connect/weld equality forces
  _constraint_forces(m, d, cfrc, cfrc_com, tmp)

  # forces of spatial tendons along their paths
  _tendon_forces(m, d, cfrc, cfrc_com)

  # cfrc_int = body force - cfrc_ext, accumulated from children to parents
  for k in range(6):
    d.cfrc_int[0, k] = 0.0
  for j in range(1, nbody):
    _body_force(d, j, d.cacc[j], cfrc, tmp, tmp1)
    for k in range(6):
      d.cfrc_int[j, k] = cfrc[k] - d.cfrc_ext[j, k]
  for j in range(nbody - 1, 0, -1):
    p = m.body_parentid[j]
    for k in range(6):
      d.cfrc_int[p, k] += d.cfrc_int[j, k]


# ---- tendon armature bias ----


@jit
def _jac_point(m, d, jacp, point, body):
  """Port of mj_jac, translational part only: (3, nv) Jacobian of `point` on `body`."""
  jacp[:, :] = 0.0
  root = m.body_rootid[body]
  o0 = point[0] - d.subtree_com[root, 0]
  o1 = point[1] - d.subtree_com[root, 1]
  o2 = point[2] - d.subtree_com[root, 2]
  body = m.body_weldid[body]
  if not body:
    return
  i = m.body_dofadr[body] + m.body_dofnum[body] - 1
  while i >= 0:
    c = d.cdof[i]
    jacp[0, i] = c[3] + (c[1] * o2 - c[2] * o1)
    jacp[1, i] = c[4] + (c[2] * o0 - c[0] * o2)
    jacp[2, i] = c[5] + (c[0] * o1 - c[1] * o0)
    i = m.dof_parentid[i]


@jit
def _jac_dot_point(m, d, jacp, point, body, pvel, cdot):
  """Port of mj_jacDot, translational part only: time derivative of the point Jacobian.

  pvel (6) and cdot (6) are caller scratch.
  """
  jacp[:, :] = 0.0
  root = m.body_rootid[body]
  com = d.subtree_com[root]
  o0 = point[0] - com[0]
  o1 = point[1] - com[1]
  o2 = point[2] - com[2]
  mju_transformSpatial(pvel, d.cvel[body], 0, point, com, None)
  body = m.body_weldid[body]
  if not body:
    return
  i = m.body_dofadr[body] + m.body_dofnum[body] - 1
  while i >= 0:
    c = d.cdof[i]
    for k in range(6):
      cdot[k] = d.cdof_dot[i, k]

    # quaternion dofs: cdof_dot from the body's own velocity
    jnt = m.dof_jntid[i]
    jtype = m.jnt_type[jnt]
    if jtype == mjJNT_BALL or (jtype == mjJNT_FREE and i >= m.jnt_dofadr[jnt] + 3):
      mju_crossMotion(cdot, d.cvel[m.dof_bodyid[i]], c)

    # cdof_dot_lin + cdof_dot_rot x offset + cdof_rot x point velocity
    t0 = cdot[1] * o2 - cdot[2] * o1
    t1 = cdot[2] * o0 - cdot[0] * o2
    t2 = cdot[0] * o1 - cdot[1] * o0
    u0 = c[1] * pvel[5] - c[2] * pvel[4]
    u1 = c[2] * pvel[3] - c[0] * pvel[5]
    u2 = c[0] * pvel[4] - c[1] * pvel[3]
    jacp[0, i] += cdot[3] + t0 + u0
    jacp[1, i] += cdot[4] + t1 + u1
    jacp[2, i] += cdot[5] + t2 + u2
    i = m.dof_parentid[i]


@jit
def _site_velocity(m, d, site, res):
  """mj_objectVelocity of a site, world orientation (rot, lin)."""
  body = m.site_bodyid[site]
  if m.body_weldid[body] == 0:
    for k in range(6):
      res[k] = 0.0
    return
  mju_transformSpatial(
    res, d.cvel[body], 0, d.site_xpos[site], d.subtree_com[m.body_rootid[body]], None
  )


@jit
def _add_jacdif_proj(jdot, jac1, jac2, v, scl, tmp, nv):
  """jdot += scl * (jac2 - jac1)' v, in mju_mulMatTVec / mju_addToScl order."""
  for i in range(nv):
    tmp[i] = 0.0
  for r in range(3):
    if v[r] != 0:
      for i in range(nv):
        tmp[i] += (jac2[r, i] - jac1[r, i]) * v[r]
  for i in range(nv):
    jdot[i] += tmp[i] * scl


@jit
def tendon_dot(m, d, id, jdot):
  """Port of mj_tendonDot: dense time derivative of the Jacobian of tendon `id`.

  Fixed tendons have zero derivative. MuJoCo does not support geom wrapping here (it
  raises an error); such segments contribute nothing.
  """
  nv = m.nv
  for i in range(nv):
    jdot[i] = 0.0
  if id < 0 or id >= m.ntendon:
    return
  adr = m.tendon_adr[id]
  if m.wrap_type[adr] == mjWRAP_JOINT:
    return

  jac1 = d.scratch_jac_a
  jac2 = d.scratch_jac_b
  tmp = d.scratch_dof_tmp
  vel0 = local_array(6)
  vel1 = local_array(6)
  pvel = local_array(6)
  cdot = local_array(6)
  dpnt = local_array(3)
  dvel = local_array(3)

  divisor = 1.0
  num = m.tendon_num[id]
  j = 0
  while j < num - 1:
    type0 = m.wrap_type[adr + j]
    type1 = m.wrap_type[adr + j + 1]
    id0 = m.wrap_objid[adr + j]
    id1 = m.wrap_objid[adr + j + 1]

    # pulley: new divisor
    if type0 == mjWRAP_PULLEY or type1 == mjWRAP_PULLEY:
      if type0 == mjWRAP_PULLEY:
        divisor = m.wrap_prm[adr + j]
      j += 1
      continue

    # geom wrapping: unsupported, skip the site-geom-site segment
    if type1 == mjWRAP_SPHERE or type1 == mjWRAP_CYLINDER:
      j += 2
      continue

    # straight segment between two sites on different bodies
    body0 = m.site_bodyid[id0]
    body1 = m.site_bodyid[id1]
    if body0 != body1:
      pnt0 = d.site_xpos[id0]
      pnt1 = d.site_xpos[id1]
      _site_velocity(m, d, id0, vel0)
      _site_velocity(m, d, id1, vel1)

      # unit direction and its time derivative
      for k in range(3):
        dpnt[k] = pnt1[k] - pnt0[k]
      norm = mju_normalize3(dpnt)
      for k in range(3):
        dvel[k] = vel1[3 + k] - vel0[3 + k]
      dot = dpnt[0] * dvel[0] + dpnt[1] * dvel[1] + dpnt[2] * dvel[2]
      for k in range(3):
        dvel[k] += dpnt[k] * -dot
      scale = 1 / norm if norm > mjMINVAL else 0.0
      for k in range(3):
        dvel[k] = dvel[k] * scale

      # chain rule: d/dt(jac2 - jac1) * dpnt + (jac2 - jac1) * d/dt(dpnt)
      _jac_dot_point(m, d, jac1, pnt0, body0, pvel, cdot)
      _jac_dot_point(m, d, jac2, pnt1, body1, pvel, cdot)
      _add_jacdif_proj(jdot, jac1, jac2, dpnt, 1 / divisor, tmp, nv)
      _jac_point(m, d, jac1, pnt0, body0)
      _jac_point(m, d, jac2, pnt1, body1)
      _add_jacdif_proj(jdot, jac1, jac2, dvel, 1 / divisor, tmp, nv)
    j += 1


@stage(M, D, vec)
def tendon_bias(m, d, qfrc):
  """Port of mj_tendonBias: qfrc += ten_J * armature * (ten_Jdot . qvel) for each tendon.

  The armature includes what actuators on the tendon add (mj_actuatorArmature).
  """
  jdot = d.scratch_dof_row  # (tendon_dot uses jac_a, jac_b and dof_tmp)
  for i in range(m.ntendon):
    armature = m.tendon_armature[i] + actuator_armature(m, mjOBJ_TENDON, i)
    if not armature:
      continue
    tendon_dot(m, d, i, jdot)
    coef = armature * mju_dot(jdot, d.qvel, m.nv)
    if coef:
      adr = m.ten_J_rowadr[i]
      for j in range(adr, adr + m.ten_J_rownnz[i]):
        qfrc[m.ten_J_colind[j]] += coef * d.ten_J[j]


# ---- Python wrappers (the bindings' names and signatures) ----


def _as_out(x, size, name):
  """Flat float64 view of a writable C-contiguous output array of `size` numbers."""
  if not isinstance(x, np.ndarray) or x.dtype != np.float64 or not x.flags.c_contiguous:
    raise TypeError(f"{name} must be a C-contiguous float64 numpy array")
  if not x.flags.writeable:
    raise ValueError(f"{name} must be writable")
  if x.size != size:
    raise ValueError(f"{name} has {x.size} elements, expected {size}")
  return x.reshape(-1)


def _as_in(x, size, name):
  """Flat contiguous float64 copy-or-view of an input array of `size` numbers."""
  x = np.ascontiguousarray(x, dtype=np.float64).reshape(-1)
  if x.size != size:
    raise ValueError(f"{name} has {x.size} elements, expected {size}")
  return x


def _nvec(x, nv, name):
  """Number of nv-vectors in x (1-D: one; 2-D: rows)."""
  x = np.asarray(x)
  if nv == 0:
    return x.shape[0] if x.ndim == 2 else 1
  if x.size % nv:
    raise ValueError(f"{name} must hold whole nv-vectors (nv={nv}), got shape {x.shape}")
  return x.size // nv


@runs_stage(kinematics)
def mj_kinematics(m, d):
  """Runs forward kinematics (mj_kinematics)."""
  kinematics(m._struct, d._struct)


@runs_stage(com_pos)
def mj_comPos(m, d):
  """Maps inertias and motion dofs to com-based frames (mj_comPos)."""
  com_pos(m._struct, d._struct)


@runs_stage(camlight)
def mj_camlight(m, d):
  """Computes camera and light poses (mj_camlight)."""
  camlight(m._struct, d._struct)


@runs_stage(crb)
def mj_crb(m, d):
  """Runs the composite rigid body algorithm: d.crb and d.M (mj_crb)."""
  crb(m._struct, d._struct)


@runs_stage(make_m)
def mj_makeM(m, d):
  """Computes the inertia matrix d.M, with tendon armature (mj_makeM)."""
  make_m(m._struct, d._struct)


@runs_stage(factor_m)
def mj_factorM(m, d):
  """Factorizes M into d.qLD and d.qLDiagInv (mj_factorM)."""
  factor_m(m._struct, d._struct)


def mj_solveM(m, d, x, y):
  """Solves M x = y with the factorization; x, y are (n, nv) or (nv,) (mj_solveM)."""
  n = _nvec(y, m.nv, "y")
  xf = _as_out(x, n * m.nv, "x")
  yf = _as_in(y, n * m.nv, "y")
  solve_m(m._struct, d._struct, xf, yf, n)


# mj_solveM2 from Python
solve_m2 = stage(M, D, vec, vec, vec, i8, lazy=True)(half_solve_m)


def mj_solveM2(m, d, x, y, sqrtInvD):
  """Half solve x = sqrt(inv(D)) inv(L') y; x, y are (n, nv) or (nv,) (mj_solveM2)."""
  n = _nvec(y, m.nv, "y")
  xf = _as_out(x, n * m.nv, "x")
  yf = _as_in(y, n * m.nv, "y")
  sf = _as_in(sqrtInvD, m.nv, "sqrtInvD")
  solve_m2(m._struct, d._struct, xf, yf, sf, n)


def mj_mulM(m, d, res, vec):
  """res = M vec (mj_mulM)."""
  rf = _as_out(res, m.nv, "res")
  vf = _as_in(vec, m.nv, "vec")
  mul_m(m._struct, d._struct, rf, vf)


def mj_fullM(m, d, dst):
  """Writes the dense (nv, nv) inertia matrix into dst (mj_fullM, 3.17 signature)."""
  df = _as_out(dst, m.nv * m.nv, "dst")
  full_m(m._struct, d._struct, df)


@runs_stage(com_vel)
def mj_comVel(m, d):
  """Computes cvel and cdof_dot (mj_comVel)."""
  com_vel(m._struct, d._struct)


@runs_stage(subtree_vel)
def mj_subtreeVel(m, d):
  """Computes subtree_linvel and subtree_angmom (mj_subtreeVel)."""
  subtree_vel(m._struct, d._struct)


def mj_rne(m, d, flg_acc, result):
  """result = M qacc + C(qpos, qvel); flg_acc=0 removes the inertial term (mj_rne)."""
  rf = _as_out(result, m.nv, "result")
  rne(m._struct, d._struct, int(flg_acc), rf)


def mj_tendonBias(m, d, qfrc):
  """Adds the tendon armature bias force to qfrc (mj_tendonBias)."""
  qf = _as_out(qfrc, m.nv, "qfrc")
  tendon_bias(m._struct, d._struct, qf)


@runs_stage(rne_post_constraint)
def mj_rnePostConstraint(m, d):
  """Computes cacc, cfrc_int and cfrc_ext (mj_rnePostConstraint)."""
  rne_post_constraint(m._struct, d._struct)
