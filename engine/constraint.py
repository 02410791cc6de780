"""Constraint rows and their impedance (port of engine_core_constraint.c, MuJoCo 3.17).

`make_constraint` instantiates the rows of the current position in MuJoCo's order: equality,
friction loss, limits, contacts. Each row gets its Jacobian (dense row-major nefc x nv, or
MuJoCo's CSR layout with row supernodes when the model asks for a sparse Jacobian), position,
margin, friction loss, type and id; then the impedance model sets efc_diagA, efc_R, efc_D,
efc_KBIP and the regularized cone friction contact_mu. `reference_constraint` adds the
velocity terms efc_vel and efc_aref (with the Jdot*qvel term of connect and weld rows), and
`inverse_constraint` the constraint forces of the soft model at a known qacc (mj_inverse).

Jacobian columns are computed one dof at a time along the merged dof chains of the bodies
involved and written straight into efc_J, so no row-sized temporaries are needed. When the
rows do not fit the capacity of d.efc_*, the stage warns with mjWARN_CNSTRFULL and leaves no
rows at all, as MuJoCo does when its arena runs out.

Not supported: flex equality constraints and contacts with flex vertices or elements (our
compiler builds no flexes; such equalities add no rows) and d.tendon_efcadr (not a field
here). Sleeping trees (engine/sleep.py) add no equality, friction loss or joint limit rows.
"""

import math

import numpy as np

from engine import sleep as _sleep
from engine._jit import inline_jit
from engine._jit import jit
from engine._jit import local_array
from engine._stage import CONTACTS
from engine._stage import EQUALITIES
from engine._stage import i8
from engine._stage import never
from engine._stage import runs_stage
from engine._stage import stage
from engine.enums import mjCNSTR_CONTACT_ELLIPTIC
from engine.enums import mjCNSTR_CONTACT_FRICTIONLESS
from engine.enums import mjCNSTR_CONTACT_PYRAMIDAL
from engine.enums import mjCNSTR_EQUALITY
from engine.enums import mjCNSTR_FRICTION_DOF
from engine.enums import mjCNSTR_FRICTION_TENDON
from engine.enums import mjCNSTR_LIMIT_JOINT
from engine.enums import mjCNSTR_LIMIT_TENDON
from engine.enums import mjCONE_PYRAMIDAL
from engine.enums import mjDSBL_CONSTRAINT
from engine.enums import mjDSBL_CONTACT
from engine.enums import mjDSBL_EQUALITY
from engine.enums import mjDSBL_FRICTIONLOSS
from engine.enums import mjDSBL_LIMIT
from engine.enums import mjDSBL_REFSAFE
from engine.enums import mjENBL_DIAGEXACT
from engine.enums import mjEQ_CONNECT
from engine.enums import mjEQ_JOINT
from engine.enums import mjEQ_TENDON
from engine.enums import mjEQ_WELD
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_FREE
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE
from engine.enums import mjMAXIMP
from engine.enums import mjMINIMP
from engine.enums import mjMINVAL
from engine.enums import mjOBJ_BODY
from engine.enums import mjS_ASLEEP
from engine.enums import mjSOL_PGS
from engine.enums import mjWARN_CNSTRFULL
from engine.flags import disabled
from engine.flags import enabled
from engine.math import mul_quat_scalars
from engine.math import normalize3_scalars
from engine.math import normalize4_scalars
from engine.projection import efc_ar
from engine.projection import efc_y
from engine.solver_common import constraint_update
from engine.solver_common import is_sparse
from engine.solver_common import mul_jac_vec
from engine.sparse import super_rows
from engine.support import chain_step
from engine.support import jac_dif_col
from engine.support import last_dof

# ---- layout (is_sparse and mul_jac_vec: solver_common) ----


@jit
def is_pyramidal(m):
  """Port of mj_isPyramidal: whether contacts use the pyramidal friction cone."""
  return m.opt.cone[0] == mjCONE_PYRAMIDAL


# ---- adding rows ----


@jit
def _chain_count(m, b1, b2, skipcommon):
  """Port of mj_mergeChain (count only): dofs in the union of the dof chains of two bodies.

  With skipcommon the dofs shared by both chains (whose columns cancel) are left out.
  """
  da1 = last_dof(m, b1)
  da2 = last_dof(m, b2)
  NV = 0
  while da1 >= 0 or da2 >= 0:
    _, in1, in2, da1, da2 = chain_step(m, da1, da2)
    if skipcommon and in1 and in2:
      break
    NV += 1
  return NV


@jit
def _begin(m, d, sparse, size, NV):
  """Checks capacity for `size` more rows and returns the efc_J address of the first one.

  In the dense layout the rows are cleared (nv columns each). Returns -1 when the rows or
  their Jacobian (NV entries a row when sparse, nv when dense) do not fit: MuJoCo sizes its
  allocation by the rows it will try to add (dense: every candidate, sparse: rows with a
  nonempty chain), so capacity is counted the same way.
  """
  nefc = d.nefc[0]
  nv = m.nv
  if sparse:
    if nefc + size > d.efc_type.shape[0] or d.nJ[0] + size * NV > d.efc_J.shape[0]:
      return -1
    return d.nJ[0]
  nalloc = d.nJ[0] // nv
  if nalloc + size > d.efc_type.shape[0] or d.nJ[0] + size * nv > d.efc_J.shape[0]:
    return -1
  d.nJ[0] += size * nv
  base = nefc * nv
  for k in range(base, base + size * nv):
    d.efc_J[k] = 0.0
  return base


@inline_jit
def _put(d, sparse, base, stride, r, idx, da, val):
  """Writes Jacobian entry (row r of the new block, dof da at chain position idx); positions
  unsigned (they are never negative: no wraparound code in the contact loop)."""
  if sparse:
    adr = np.uint64(base + r * stride + idx)
    d.efc_J[adr] = val
    d.efc_J_colind[adr] = da
  else:
    d.efc_J[np.uint64(base + r * stride + da)] = val


@jit
def _finish(m, d, sparse, base, size, NV, frictionloss, type, id):
  """Port of the bookkeeping of mj_addConstraint: row descriptors, type, id, counters.

  Positions and margins of the new rows (d.efc_pos/efc_margin at nefc...) are written by the
  caller before. Dense rows other than contacts whose Jacobian is all zero are dropped.
  """
  nefc = d.nefc[0]
  nv = m.nv
  contact = (
    type == mjCNSTR_CONTACT_FRICTIONLESS
    or type == mjCNSTR_CONTACT_PYRAMIDAL
    or type == mjCNSTR_CONTACT_ELLIPTIC
  )
  if sparse:
    for i in range(size):
      d.efc_J_rowadr[nefc + i] = base + i * NV
      d.efc_J_rownnz[nefc + i] = NV
    d.nJ[0] += size * NV
  elif not contact:
    empty = True
    for k in range(base, base + size * nv):
      if d.efc_J[k] != 0:
        empty = False
        break
    if empty:
      return
  for i in range(size):
    d.efc_frictionloss[nefc + i] = frictionloss
    d.efc_type[nefc + i] = type
    d.efc_id[nefc + i] = id
  d.nefc[0] += size
  if type == mjCNSTR_EQUALITY:
    d.ne[0] += size
  elif type == mjCNSTR_FRICTION_DOF or type == mjCNSTR_FRICTION_TENDON:
    d.nf[0] += size
  elif type == mjCNSTR_LIMIT_JOINT or type == mjCNSTR_LIMIT_TENDON:
    d.nl[0] += size


@inline_jit
def _set_posmargin(d, r, pos, margin):
  """Position and margin of new row r (counted from nefc)."""
  d.efc_pos[d.nefc[0] + r] = pos
  d.efc_margin[d.nefc[0] + r] = margin


# ---- equality constraints ----


@jit
def _anchors(m, d, i):
  """Port of mj_equalityAnchors: bodies and global anchor points of connect/weld i.

  Body semantic: anchors in the body frames (connect: data[0:3] on body 1, data[3:6] on
  body 2; weld the other way round); site semantic: the site positions.
  """
  data = m.eq_data[i]
  id0 = m.eq_obj1id[i]
  id1 = m.eq_obj2id[i]
  if m.eq_objtype[i] != mjOBJ_BODY:
    s0 = d.site_xpos[id0]
    s1 = d.site_xpos[id1]
    return (m.site_bodyid[id0], m.site_bodyid[id1], s0[0], s0[1], s0[2], s1[0], s1[1], s1[2])
  weld = m.eq_type[i] == mjEQ_WELD
  a0 = 3 if weld else 0
  a1 = 0 if weld else 3
  x0 = d.xmat[id0]
  x1 = d.xmat[id1]
  p0x = (x0[0] * data[a0] + x0[1] * data[a0 + 1] + x0[2] * data[a0 + 2]) + d.xpos[id0, 0]
  p0y = (x0[3] * data[a0] + x0[4] * data[a0 + 1] + x0[5] * data[a0 + 2]) + d.xpos[id0, 1]
  p0z = (x0[6] * data[a0] + x0[7] * data[a0 + 1] + x0[8] * data[a0 + 2]) + d.xpos[id0, 2]
  p1x = (x1[0] * data[a1] + x1[1] * data[a1 + 1] + x1[2] * data[a1 + 2]) + d.xpos[id1, 0]
  p1y = (x1[3] * data[a1] + x1[4] * data[a1 + 1] + x1[5] * data[a1 + 2]) + d.xpos[id1, 1]
  p1z = (x1[6] * data[a1] + x1[7] * data[a1 + 1] + x1[8] * data[a1 + 2]) + d.xpos[id1, 2]
  return id0, id1, p0x, p0y, p0z, p1x, p1y, p1z


@jit
def _eq_connect_weld(m, d, i, sparse):
  """Connect (3 rows) or weld (6 rows) equality i; False when out of capacity."""
  data = m.eq_data[i]
  id0 = m.eq_obj1id[i]
  id1 = m.eq_obj2id[i]
  weld = m.eq_type[i] == mjEQ_WELD
  body = m.eq_objtype[i] == mjOBJ_BODY
  b0, b1, p0x, p0y, p0z, p1x, p1y, p1z = _anchors(m, d, i)

  # orientation error of a weld: neg(q1) * q0 * relpose, axis part scaled by torquescale
  torquescale = data[10]
  q0 = q1 = q2 = q3 = 0.0
  n0 = n1 = n2 = n3 = 0.0
  if weld:
    if body:
      q0, q1, q2, q3 = mul_quat_scalars(
        d.xquat[id0, 0],
        d.xquat[id0, 1],
        d.xquat[id0, 2],
        d.xquat[id0, 3],
        data[6],
        data[7],
        data[8],
        data[9],
      )
      n0, n1, n2, n3 = d.xquat[id1, 0], -d.xquat[id1, 1], -d.xquat[id1, 2], -d.xquat[id1, 3]
    else:
      sq = m.site_quat
      q0, q1, q2, q3 = mul_quat_scalars(
        d.xquat[b0, 0],
        d.xquat[b0, 1],
        d.xquat[b0, 2],
        d.xquat[b0, 3],
        sq[id0, 0],
        sq[id0, 1],
        sq[id0, 2],
        sq[id0, 3],
      )
      s0, s1, s2, s3 = mul_quat_scalars(
        d.xquat[b1, 0],
        d.xquat[b1, 1],
        d.xquat[b1, 2],
        d.xquat[b1, 3],
        sq[id1, 0],
        sq[id1, 1],
        sq[id1, 2],
        sq[id1, 3],
      )
      n0, n1, n2, n3 = s0, -s1, -s2, -s3

  # rows and chain (Jacobian of point 0 on body 0 minus point 1 on body 1)
  size = 6 if weld else 3
  NV = _chain_count(m, b1, b0, False) if sparse else m.nv
  if sparse and NV == 0:
    return True
  base = _begin(m, d, sparse, size, NV)
  if base < 0:
    return False
  stride = NV if sparse else m.nv

  # positions
  _set_posmargin(d, 0, p0x - p1x, 0.0)
  _set_posmargin(d, 1, p0y - p1y, 0.0)
  _set_posmargin(d, 2, p0z - p1z, 0.0)
  if weld:
    _, e1, e2, e3 = mul_quat_scalars(n0, n1, n2, n3, q0, q1, q2, q3)
    _set_posmargin(d, 3, e1 * torquescale, 0.0)
    _set_posmargin(d, 4, e2 * torquescale, 0.0)
    _set_posmargin(d, 5, e3 * torquescale, 0.0)

  # Jacobian columns along the merged chain, last dof first
  r1 = m.body_rootid[b1]
  r0 = m.body_rootid[b0]
  c1 = d.subtree_com[r1]
  c0 = d.subtree_com[r0]
  o1x, o1y, o1z = p1x - c1[0], p1y - c1[1], p1z - c1[2]
  o0x, o0y, o0z = p0x - c0[0], p0y - c0[1], p0z - c0[2]
  da1 = last_dof(m, b1)
  da0 = last_dof(m, b0)
  idx = NV - 1
  while da1 >= 0 or da0 >= 0:
    da, in1, in0, da1, da0 = chain_step(m, da1, da0)
    jx, jy, jz, ax, ay, az = jac_dif_col(d, da, in1, o1x, o1y, o1z, in0, o0x, o0y, o0z)
    _put(d, sparse, base, stride, 0, idx, da, jx)
    _put(d, sparse, base, stride, 1, idx, da, jy)
    _put(d, sparse, base, stride, 2, idx, da, jz)
    if weld:
      # rotation: 0.5 * neg(q1) * (jac0 - jac1) * q0 * relpose, scaled by torquescale
      t0 = -n1 * ax - n2 * ay - n3 * az
      t1 = n0 * ax + n2 * az - n3 * ay
      t2 = n0 * ay + n3 * ax - n1 * az
      t3 = n0 * az + n1 * ay - n2 * ax
      _, u1, u2, u3 = mul_quat_scalars(t0, t1, t2, t3, q0, q1, q2, q3)
      _put(d, sparse, base, stride, 3, idx, da, (0.5 * u1) * torquescale)
      _put(d, sparse, base, stride, 4, idx, da, (0.5 * u2) * torquescale)
      _put(d, sparse, base, stride, 5, idx, da, (0.5 * u3) * torquescale)
    idx -= 1
  _finish(m, d, sparse, base, size, NV, 0.0, mjCNSTR_EQUALITY, i)
  return True


@jit
def _scalar_obj(m, d, tendon, id):
  """Position, reference and sparse Jacobian row (adr, nnz) of a joint or tendon object.

  A joint's row is the single dof jnt_dofadr with value 1 (adr is -1); a tendon's row is its
  part of ten_J.
  """
  if tendon:
    return d.ten_length[id], m.tendon_length0[id], int(m.ten_J_rowadr[id]), int(m.ten_J_rownnz[id])
  adr = m.jnt_qposadr[id]
  return d.qpos[adr], m.qpos0[adr], -1, 1


@jit
def _obj_entry(m, d, tendon, id, adr, k):
  """k-th (dof, value) of an object's sparse Jacobian row."""
  if tendon:
    return m.ten_J_colind[adr + k], d.ten_J[adr + k]
  return m.jnt_dofadr[id], 1.0


@jit
def _eq_scalar(m, d, i, sparse):
  """Joint or tendon equality i (1 row, polynomial coupling); False when out of capacity."""
  data = m.eq_data[i]
  tendon = m.eq_type[i] == mjEQ_TENDON
  id0 = m.eq_obj1id[i]
  id1 = m.eq_obj2id[i]
  pos0, ref0, adr0, nnz0 = _scalar_obj(m, d, tendon, id0)

  # position error and derivative of the cubic (quartic) coupling
  deriv = 0.0
  adr1 = 0
  nnz1 = 0
  if id1 >= 0:
    pos1, ref1, adr1, nnz1 = _scalar_obj(m, d, tendon, id1)
    dif = pos1 - ref1
    cpos = (
      pos0
      - ref0
      - data[0]
      - (
        data[1] * dif
        + data[2] * dif * dif
        + data[3] * dif * dif * dif
        + data[4] * dif * dif * dif * dif
      )
    )
    deriv = data[1] + 2 * data[2] * dif + 3 * data[3] * dif * dif + 4 * data[4] * dif * dif * dif
  else:
    cpos = pos0 - ref0 - data[0]

  # nonzeros of the union of both rows (mju_combineSparse)
  NV = nnz0
  if id1 >= 0:
    a = 0
    b = 0
    common = 0
    while a < nnz0 and b < nnz1:
      ca, _ = _obj_entry(m, d, tendon, id0, adr0, a)
      cb, _ = _obj_entry(m, d, tendon, id1, adr1, b)
      if ca == cb:
        common += 1
        a += 1
        b += 1
      elif ca < cb:
        a += 1
      else:
        b += 1
    NV = nnz0 + nnz1 - common
  if not sparse:
    NV = m.nv
  elif NV == 0:
    return True
  base = _begin(m, d, sparse, 1, NV)
  if base < 0:
    return False
  _set_posmargin(d, 0, cpos, 0.0)

  # Jacobian: row0 - deriv*row1
  if id1 < 0:
    for k in range(nnz0):
      da, v = _obj_entry(m, d, tendon, id0, adr0, k)
      _put(d, sparse, base, 0, 0, k, da, v)
  elif not sparse:
    for k in range(nnz0):
      da, v = _obj_entry(m, d, tendon, id0, adr0, k)
      d.efc_J[base + da] = v
    for k in range(nnz1):
      da, v = _obj_entry(m, d, tendon, id1, adr1, k)
      d.efc_J[base + da] += v * -deriv
  else:
    a = 0
    b = 0
    idx = 0
    while a < nnz0 or b < nnz1:
      ca = cb = m.nv + 1
      va = vb = 0.0
      if a < nnz0:
        ca, va = _obj_entry(m, d, tendon, id0, adr0, a)
      if b < nnz1:
        cb, vb = _obj_entry(m, d, tendon, id1, adr1, b)
      if ca == cb:
        _put(d, sparse, base, 0, 0, idx, ca, 1.0 * va + -deriv * vb)
        a += 1
        b += 1
      elif ca < cb:
        _put(d, sparse, base, 0, 0, idx, ca, 1.0 * va)
        a += 1
      else:
        _put(d, sparse, base, 0, 0, idx, cb, -deriv * vb)
        b += 1
      idx += 1
  _finish(m, d, sparse, base, 1, NV, 0.0, mjCNSTR_EQUALITY, i)
  return True


@stage(restype=i8, needed=EQUALITIES)
def instantiate_equality(m, d):
  """Port of mj_instantiateEquality: rows of the active equality constraints.

  Returns False when the rows do not fit. Flex equalities are not supported and add no rows.
  """
  if disabled(m, mjDSBL_EQUALITY) or m.nemax == 0:
    return True
  sparse = is_sparse(m)
  sleeping = _sleep.filtering(m, d)
  for i in range(m.neq):
    if not d.eq_active[i]:
      continue
    if sleeping and _sleep.equality_asleep(m, d, i):
      continue
    t = m.eq_type[i]
    if t == mjEQ_CONNECT or t == mjEQ_WELD:
      if not _eq_connect_weld(m, d, i, sparse):
        return False
    elif t == mjEQ_JOINT or t == mjEQ_TENDON:
      if not _eq_scalar(m, d, i, sparse):
        return False
  return True


# ---- friction loss and limits ----


@jit
def _add_single_dof(m, d, sparse, dof, val, pos, margin, frictionloss, type, id):
  """One row whose Jacobian has the single entry `val` at `dof`."""
  NV = 1 if sparse else m.nv
  base = _begin(m, d, sparse, 1, NV)
  if base < 0:
    return False
  _set_posmargin(d, 0, pos, margin)
  _put(d, sparse, base, 0, 0, 0, dof, val)
  _finish(m, d, sparse, base, 1, NV, frictionloss, type, id)
  return True


@jit
def _add_tendon(m, d, sparse, t, scl, pos, margin, frictionloss, type):
  """One row with the Jacobian of tendon t times `scl` (its ten_J sparsity in CSR)."""
  adr = m.ten_J_rowadr[t]
  nnz = m.ten_J_rownnz[t]
  NV = nnz if sparse else m.nv
  if sparse and NV == 0:
    return True
  base = _begin(m, d, sparse, 1, NV)
  if base < 0:
    return False
  _set_posmargin(d, 0, pos, margin)
  for k in range(nnz):
    _put(d, sparse, base, 0, 0, k, m.ten_J_colind[adr + k], d.ten_J[adr + k] * scl)
  _finish(m, d, sparse, base, 1, NV, frictionloss, type, t)
  return True


@jit
def instantiate_friction(m, d, sparse):
  """Port of mj_instantiateFriction: friction loss rows of dofs, then of tendons."""
  if disabled(m, mjDSBL_FRICTIONLOSS):
    return True
  sleeping = _sleep.filtering(m, d)
  for i in range(m.nv):
    if sleeping and d.body_awake[m.dof_bodyid[i]] == mjS_ASLEEP:
      continue
    if m.dof_frictionloss[i] != 0:
      if not _add_single_dof(
        m, d, sparse, i, 1.0, 0.0, 0.0, m.dof_frictionloss[i], mjCNSTR_FRICTION_DOF, i
      ):
        return False
  for i in range(m.ntendon):
    if m.tendon_frictionloss[i] > 0:
      if not _add_tendon(
        m, d, sparse, i, 1.0, 0.0, 0.0, m.tendon_frictionloss[i], mjCNSTR_FRICTION_TENDON
      ):
        return False
  return True


@jit
def _ball_angle(d, adr):
  """Rotation angle of a ball joint and its unit axis (mju_quat2Vel + mju_normalize3)."""
  w, x, y, z = normalize4_scalars(d.qpos[adr], d.qpos[adr + 1], d.qpos[adr + 2], d.qpos[adr + 3])
  sin_a_2, a0, a1, a2 = normalize3_scalars(x, y, z)
  speed = 2 * math.atan2(sin_a_2, w)
  if speed > math.pi:
    speed -= 2 * math.pi
  return normalize3_scalars(a0 * speed, a1 * speed, a2 * speed)


@jit
def instantiate_limit(m, d, sparse):
  """Port of mj_instantiateLimit: joint limits (slide/hinge both sides, ball), then tendons."""
  if disabled(m, mjDSBL_LIMIT):
    return True
  sleeping = _sleep.filtering(m, d)
  for i in range(m.njnt):
    if not m.jnt_limited[i]:
      continue
    if sleeping and d.body_awake[m.jnt_bodyid[i]] == mjS_ASLEEP:
      continue
    margin = m.jnt_margin[i]
    jtype = m.jnt_type[i]
    if jtype == mjJNT_SLIDE or jtype == mjJNT_HINGE:
      value = d.qpos[m.jnt_qposadr[i]]
      for side in (-1, 1):
        # distance from the lower (side -1) or upper (side 1) limit, negative: violated
        dist = side * (m.jnt_range[i, (side + 1) // 2] - value)
        if dist < margin:
          if not _add_single_dof(
            m, d, sparse, m.jnt_dofadr[i], float(-side), dist, margin, 0.0, mjCNSTR_LIMIT_JOINT, i
          ):
            return False
    elif jtype == mjJNT_BALL:
      value, a0, a1, a2 = _ball_angle(d, m.jnt_qposadr[i])
      dist = max(m.jnt_range[i, 0], m.jnt_range[i, 1]) - value
      if dist < margin:
        NV = 3 if sparse else m.nv
        base = _begin(m, d, sparse, 1, NV)
        if base < 0:
          return False
        _set_posmargin(d, 0, dist, margin)
        adr = m.jnt_dofadr[i]
        _put(d, sparse, base, 0, 0, 0, adr, a0 * -1.0)
        _put(d, sparse, base, 0, 0, 1, adr + 1, a1 * -1.0)
        _put(d, sparse, base, 0, 0, 2, adr + 2, a2 * -1.0)
        _finish(m, d, sparse, base, 1, NV, 0.0, mjCNSTR_LIMIT_JOINT, i)
  for i in range(m.ntendon):
    if not m.tendon_limited[i]:
      continue
    value = d.ten_length[i]
    margin = m.tendon_margin[i]
    for side in (-1, 1):
      dist = side * (m.tendon_range[i, (side + 1) // 2] - value)
      if dist < margin:
        if not _add_tendon(m, d, sparse, i, float(-side), dist, margin, 0.0, mjCNSTR_LIMIT_TENDON):
          return False
  return True


# ---- contacts ----


@stage(restype=i8, needed=CONTACTS)
def instantiate_contact(m, d):
  """Port of mj_instantiateContact: rows of the included contacts, sets contact_efc_address.

  Rows are the contact frame applied to the Jacobian difference geom2 - geom1 at the contact
  point: 1 row (frictionless), 2*(dim-1) pyramid edges J0 +- friction*Jk, or dim elliptic rows.
  Dofs shared by both bodies cancel and are left out of sparse rows. Contacts without dofs
  in the chain get exclude=3 and no rows.
  """
  ncon = d.ncon[0]
  nv = m.nv
  if disabled(m, mjDSBL_CONTACT) or ncon == 0 or nv == 0:
    return True
  pyramid = is_pyramidal(m)
  sparse = is_sparse(m)
  for i in range(ncon):
    if d.contact_exclude[i]:
      continue
    dim = d.contact_dim[i]
    d.contact_efc_address[i] = d.nefc[0]
    b1 = m.geom_bodyid[d.contact_geom[i, 0]]
    b2 = m.geom_bodyid[d.contact_geom[i, 1]]
    NV = _chain_count(m, b1, b2, True) if sparse else nv
    if NV == 0:
      d.contact_efc_address[i] = -1
      d.contact_exclude[i] = 3
      continue

    # rows of this contact
    if dim == 1:
      size = 1
      ctype = mjCNSTR_CONTACT_FRICTIONLESS
    elif pyramid:
      size = 2 * (dim - 1)
      ctype = mjCNSTR_CONTACT_PYRAMIDAL
    else:
      size = dim
      ctype = mjCNSTR_CONTACT_ELLIPTIC
    base = _begin(m, d, sparse, size, NV)
    if base < 0:
      return False
    stride = NV if sparse else nv
    dist = d.contact_dist[i]
    margin = d.contact_includemargin[i]
    if ctype == mjCNSTR_CONTACT_ELLIPTIC:
      _set_posmargin(d, 0, dist, margin)
      for r in range(1, size):
        _set_posmargin(d, r, 0.0, 0.0)
    else:
      for r in range(size):
        _set_posmargin(d, r, dist, margin)

    # Jacobian columns: frame * (jac2 - jac1), translation rows then rotation rows
    f = d.contact_frame[i]
    fr = d.contact_friction[i]
    p = d.contact_pos[i]
    r1 = m.body_rootid[b1]
    r2 = m.body_rootid[b2]
    c1 = d.subtree_com[r1]
    c2 = d.subtree_com[r2]
    o1x, o1y, o1z = p[0] - c1[0], p[1] - c1[1], p[2] - c1[2]
    o2x, o2y, o2z = p[0] - c2[0], p[1] - c2[1], p[2] - c2[2]
    da1 = last_dof(m, b1)
    da2 = last_dof(m, b2)
    idx = NV - 1
    while da1 >= 0 or da2 >= 0:
      da, in1, in2, da1, da2 = chain_step(m, da1, da2)
      if in1 and in2:
        # shared dofs: equal columns cancel (left out of the sparse chain)
        break
      px, py, pz, ax, ay, az = jac_dif_col(d, da, in1, o1x, o1y, o1z, in2, o2x, o2y, o2z)
      j0 = f[0] * px + f[1] * py + f[2] * pz
      j1 = j2 = j3 = j4 = j5 = 0.0
      if dim > 1:
        j1 = f[3] * px + f[4] * py + f[5] * pz
        j2 = f[6] * px + f[7] * py + f[8] * pz
      if dim > 3:
        j3 = f[0] * ax + f[1] * ay + f[2] * az
      if dim > 4:
        j4 = f[3] * ax + f[4] * ay + f[5] * az
        j5 = f[6] * ax + f[7] * ay + f[8] * az
      jk = (j0, j1, j2, j3, j4, j5)
      if ctype == mjCNSTR_CONTACT_PYRAMIDAL:
        for k in range(1, dim):
          _put(d, sparse, base, stride, 2 * k - 2, idx, da, j0 + jk[k] * fr[k - 1])
          _put(d, sparse, base, stride, 2 * k - 1, idx, da, j0 + jk[k] * -fr[k - 1])
      else:
        for r in range(size):
          _put(d, sparse, base, stride, r, idx, da, jk[r])
      idx -= 1
    _finish(m, d, sparse, base, size, NV, 0.0, ctype, i)
  return True


# ---- impedance ----


@jit
def diag_approx(m, d):
  """Port of mj_diagApprox: efc_diagA from the inverse weights at qpos0 (dof, body, tendon)."""
  nefc = d.nefc[0]
  dA = d.efc_diagA
  weldcnt = 0
  i = 0
  while i < nefc:
    id = d.efc_id[i]
    t = d.efc_type[i]
    if t == mjCNSTR_EQUALITY:
      et = m.eq_type[id]
      if et == mjEQ_CONNECT or et == mjEQ_WELD:
        b1 = m.eq_obj1id[id]
        b2 = m.eq_obj2id[id]
        if m.eq_objtype[id] != mjOBJ_BODY:
          b1 = m.site_bodyid[b1]
          b2 = m.site_bodyid[b2]
        if et == mjEQ_CONNECT:
          dA[i] = m.body_invweight0[b1, 0] + m.body_invweight0[b2, 0]
        else:
          # translation rows, then rotation rows
          k = 1 if weldcnt > 2 else 0
          dA[i] = m.body_invweight0[b1, k] + m.body_invweight0[b2, k]
          weldcnt = (weldcnt + 1) % 6
      elif et == mjEQ_JOINT:
        dA[i] = m.dof_invweight0[m.jnt_dofadr[m.eq_obj1id[id]]]
        if m.eq_obj2id[id] >= 0:
          dA[i] += m.dof_invweight0[m.jnt_dofadr[m.eq_obj2id[id]]]
      elif et == mjEQ_TENDON:
        dA[i] = m.tendon_invweight0[m.eq_obj1id[id]]
        if m.eq_obj2id[id] >= 0:
          dA[i] += m.tendon_invweight0[m.eq_obj2id[id]]
    elif t == mjCNSTR_FRICTION_DOF:
      dA[i] = m.dof_invweight0[id]
    elif t == mjCNSTR_LIMIT_JOINT:
      dA[i] = m.dof_invweight0[m.jnt_dofadr[id]]
    elif t == mjCNSTR_FRICTION_TENDON or t == mjCNSTR_LIMIT_TENDON:
      dA[i] = m.tendon_invweight0[id]
    else:
      # contacts: translation and rotation weights of both bodies
      dim = d.contact_dim[id]
      b1 = m.geom_bodyid[d.contact_geom[id, 0]]
      b2 = m.geom_bodyid[d.contact_geom[id, 1]]
      tran = 0.0
      rot = 0.0
      tran += m.body_invweight0[b1, 0]
      rot += m.body_invweight0[b1, 1]
      tran += m.body_invweight0[b2, 0]
      rot += m.body_invweight0[b2, 1]
      if t == mjCNSTR_CONTACT_FRICTIONLESS:
        dA[i] = tran
      elif t == mjCNSTR_CONTACT_ELLIPTIC:
        for j in range(dim):
          dA[i + j] = tran if j < 3 else rot
        i += dim - 1
      else:
        for j in range(dim - 1):
          fri = d.contact_friction[id, j]
          dA[i + 2 * j] = tran + fri * fri * (tran if j < 2 else rot)
          dA[i + 2 * j + 1] = dA[i + 2 * j]
        i += 2 * dim - 3
    i += 1


@jit
def _pos_dim(m, d, i):
  """Port of getposdim: rows sharing one impedance and the position that sets it."""
  id = d.efc_id[i]
  t = d.efc_type[i]
  if t == mjCNSTR_CONTACT_ELLIPTIC:
    return d.efc_pos[i], d.contact_dim[id]
  if t == mjCNSTR_CONTACT_PYRAMIDAL:
    return d.efc_pos[i], 2 * (d.contact_dim[id] - 1)
  if t == mjCNSTR_EQUALITY:
    n = 0
    if m.eq_type[id] == mjEQ_WELD:
      n = 6
    elif m.eq_type[id] == mjEQ_CONNECT:
      n = 3
    if n:
      s = 0.0
      for k in range(n):
        s += d.efc_pos[i + k] * d.efc_pos[i + k]
      return math.sqrt(s), n
  return d.efc_pos[i], 1


@jit
def _sol_params(m, d, i):
  """Port of getsolparam: (solref, solreffriction, solimp) of row i, checked and clamped.

  Returned as scalars: ref0, ref1, reff0, reff1, imp0..imp4.
  """
  id = d.efc_id[i]
  t = d.efc_type[i]
  reff0 = reff1 = 0.0
  if t == mjCNSTR_EQUALITY:
    ref = m.eq_solref[id]
    imp = m.eq_solimp[id]
  elif t == mjCNSTR_LIMIT_JOINT:
    ref = m.jnt_solref[id]
    imp = m.jnt_solimp[id]
  elif t == mjCNSTR_FRICTION_DOF:
    ref = m.dof_solref[id]
    imp = m.dof_solimp[id]
  elif t == mjCNSTR_LIMIT_TENDON:
    ref = m.tendon_solref_lim[id]
    imp = m.tendon_solimp_lim[id]
  elif t == mjCNSTR_FRICTION_TENDON:
    ref = m.tendon_solref_fri[id]
    imp = m.tendon_solimp_fri[id]
  else:
    ref = d.contact_solref[id]
    imp = d.contact_solimp[id]
    reff0 = d.contact_solreffriction[id, 0]
    reff1 = d.contact_solreffriction[id, 1]
  ref0 = ref[0]
  ref1 = ref[1]

  # standard (positive) or direct (negative) format, not mixed: else the default
  if (ref0 > 0) != (ref1 > 0):
    ref0 = 0.02
    ref1 = 1.0
  refsafe = not disabled(m, mjDSBL_REFSAFE)
  if refsafe and ref0 > 0:
    ref0 = max(ref0, 2 * m.opt.timestep[0])
  if (reff0 > 0) != (reff1 > 0):
    reff0 = 0.0
    reff1 = 0.0
  if refsafe and reff0 > 0:
    reff0 = max(reff0, 2 * m.opt.timestep[0])

  # impedance limits
  imp0 = min(mjMAXIMP, max(mjMINIMP, imp[0]))
  imp1 = min(mjMAXIMP, max(mjMINIMP, imp[1]))
  imp2 = max(0.0, imp[2])
  imp3 = min(mjMAXIMP, max(mjMINIMP, imp[3]))
  imp4 = max(1.0, imp[4])
  return ref0, ref1, reff0, reff1, imp0, imp1, imp2, imp3, imp4


@jit
def _power(a, b):
  """a**b with MuJoCo's quick returns for the common powers 1 and 2."""
  if b == 1:
    return a
  if b == 2:
    return a * a
  return a**b


@jit
def get_impedance(imp0, imp1, imp2, imp3, imp4, pos, margin):
  """Port of getimpedance: impedance and its derivative at pos - margin (solimp sigmoid)."""
  # flat function
  if imp0 == imp1 or imp2 <= mjMINVAL:
    return 0.5 * (imp0 + imp1), 0.0

  # x = |pos - margin| / width
  x = (pos - margin) / imp2
  sgn = 1.0
  if x < 0:
    x = -x
    sgn = -1.0

  # saturated
  if x >= 1 or x <= 0:
    return (imp1 if x >= 1 else imp0), 0.0

  # y(x): linear, a*x^p below the midpoint, 1-b*(1-x)^p above it
  if imp4 == 1:
    y = x
    yP = 1.0
  elif x <= imp3:
    a = 1 / _power(imp3, imp4 - 1)
    y = a * _power(x, imp4)
    yP = imp4 * a * _power(x, imp4 - 1)
  else:
    b = 1 / _power(1 - imp3, imp4 - 1)
    y = 1 - b * _power(1 - x, imp4)
    yP = imp4 * b * _power(1 - x, imp4 - 1)
  return imp0 + y * (imp1 - imp0), yP * sgn * (imp1 - imp0) / imp2


@jit
def make_impedance(m, d):
  """Port of mj_makeImpedance: efc_R, efc_D, efc_KBIP, contact_mu; rescales efc_diagA."""
  nefc = d.nefc[0]
  R = d.efc_R
  KBIP = d.efc_KBIP

  # R and KBIP, one impedance per constraint (all rows of a connect, weld or contact)
  i = 0
  while i < nefc:
    ref0, ref1, reff0, reff1, imp0, imp1, imp2, imp3, imp4 = _sol_params(m, d, i)
    pos, dim = _pos_dim(m, d, i)
    imp, impP = get_impedance(imp0, imp1, imp2, imp3, imp4, pos, d.efc_margin[i])
    for j in range(dim):
      R[i + j] = max(mjMINVAL, (1 - imp) * d.efc_diagA[i + j] / imp)
      tp = d.efc_type[i + j]

      # elliptic friction rows use solreffriction when it is set
      elliptic_friction = tp == mjCNSTR_CONTACT_ELLIPTIC and j > 0
      r0 = ref0
      r1 = ref1
      if elliptic_friction and (reff0 != 0 or reff1 != 0):
        r0 = reff0
        r1 = reff1

      # K: zero for friction, standard 1/(dmax^2 timeconst^2 dampratio^2), or direct
      if tp == mjCNSTR_FRICTION_DOF or tp == mjCNSTR_FRICTION_TENDON or elliptic_friction:
        KBIP[i + j, 0] = 0.0
      elif r0 > 0:
        KBIP[i + j, 0] = 1 / max(mjMINVAL, imp1 * imp1 * r0 * r0 * r1 * r1)
      else:
        KBIP[i + j, 0] = -r0 / max(mjMINVAL, imp1 * imp1)

      # B: standard 2/(dmax timeconst) or direct
      if r1 > 0:
        KBIP[i + j, 1] = 2 / max(mjMINVAL, imp1 * r0)
      else:
        KBIP[i + j, 1] = -r1 / max(mjMINVAL, imp1)
      KBIP[i + j, 2] = imp
      KBIP[i + j, 3] = impP
    i += dim

  # frictional contacts: R of friction rows, mu of the regularized cone
  i = d.ne[0] + d.nf[0]
  while i < nefc:
    tp = d.efc_type[i]
    if tp == mjCNSTR_CONTACT_PYRAMIDAL or tp == mjCNSTR_CONTACT_ELLIPTIC:
      id = d.efc_id[i]
      dim = d.contact_dim[id]
      friction = d.contact_friction[id]
      R[i + 1] = R[i] / max(mjMINVAL, m.opt.impratio[0])
      mu = friction[0] * math.sqrt(R[i + 1] / R[i])
      d.contact_mu[id] = mu
      if tp == mjCNSTR_CONTACT_ELLIPTIC:
        # R[j]*friction[j]^2 equal to R[1]*friction[0]^2
        for j in range(1, dim - 1):
          R[i + j + 1] = R[i + 1] * friction[0] * friction[0] / (friction[j] * friction[j])
        i += dim - 1
      else:
        # one R for all edges, matching the friction impedance of the elliptic model
        Rpy = 2 * mu * mu * R[i]
        for j in range(2 * (dim - 1)):
          R[i + j] = Rpy
        i += 2 * (dim - 1) - 1
    i += 1

  # D = 1/R; diagA such that R = (1-imp)/imp * diagA
  for i in range(nefc):
    d.efc_D[i] = 1 / R[i]
  for i in range(nefc):
    d.efc_diagA[i] = R[i] * KBIP[i, 2] / (1 - KBIP[i, 2])


# ---- velocity terms ----


@jit
def _cdof_dot(m, d, i):
  """cdof_dot of dof i; quaternion dofs (ball, free rotation) use the body's own cvel."""
  c = d.cdof_dot[i]
  jnt = m.dof_jntid[i]
  jtype = m.jnt_type[jnt]
  if jtype == mjJNT_BALL or (jtype == mjJNT_FREE and i >= m.jnt_dofadr[jnt] + 3):
    # mju_crossMotion(cvel, cdof)
    v = d.cvel[m.dof_bodyid[i]]
    u = d.cdof[i]
    r0 = -v[2] * u[1] + v[1] * u[2]
    r1 = v[2] * u[0] - v[0] * u[2]
    r2 = -v[1] * u[0] + v[0] * u[1]
    r3 = -v[2] * u[4] + v[1] * u[5]
    r4 = v[2] * u[3] - v[0] * u[5]
    r5 = -v[1] * u[3] + v[0] * u[4]
    r3 += -v[5] * u[1] + v[4] * u[2]
    r4 += v[5] * u[0] - v[3] * u[2]
    r5 += -v[4] * u[0] + v[3] * u[1]
    return r0, r1, r2, r3, r4, r5
  return c[0], c[1], c[2], c[3], c[4], c[5]


@jit
def _jac_dot_v(m, d, px, py, pz, body):
  """mj_jacDot of a point on `body` times qvel: translational (3) and rotational (3)."""
  com = d.subtree_com[m.body_rootid[body]]
  ox, oy, oz = px - com[0], py - com[1], pz - com[2]

  # translational velocity of the point (mju_transformSpatial of cvel)
  cv = d.cvel[body]
  v3 = cv[3] - (oy * cv[2] - oz * cv[1])
  v4 = cv[4] - (oz * cv[0] - ox * cv[2])
  v5 = cv[5] - (ox * cv[1] - oy * cv[0])
  jx = jy = jz = rx = ry = rz = 0.0
  i = last_dof(m, body)
  while i >= 0:
    c0, c1, c2, c3, c4, c5 = _cdof_dot(m, d, i)
    u = d.cdof[i]
    q = d.qvel[i]
    # cdof_dot_lin + cdof_dot_rot x offset + cdof_rot x point velocity
    jx += (c3 + (c1 * oz - c2 * oy) + (u[1] * v5 - u[2] * v4)) * q
    jy += (c4 + (c2 * ox - c0 * oz) + (u[2] * v3 - u[0] * v5)) * q
    jz += (c5 + (c0 * oy - c1 * ox) + (u[0] * v4 - u[1] * v3)) * q
    rx += c0 * q
    ry += c1 * q
    rz += c2 * q
    i = m.dof_parentid[i]
  return jx, jy, jz, rx, ry, rz


@jit
def _deriv_quat(q0, q1, q2, q3, w0, w1, w2):
  """mju_derivQuat on scalars: d(quat)/dt for angular velocity w."""
  return (
    0.5 * (-w0 * q1 - w1 * q2 - w2 * q3),
    0.5 * (w0 * q0 + w1 * q3 - w2 * q2),
    0.5 * (-w0 * q3 + w1 * q0 + w2 * q1),
    0.5 * (w0 * q2 - w1 * q1 + w2 * q0),
  )


@jit
def _mul_quat_axis(q0, q1, q2, q3, a0, a1, a2):
  """mju_mulQuatAxis on scalars: quat * (0, axis)."""
  return (
    -q1 * a0 - q2 * a1 - q3 * a2,
    q0 * a0 + q2 * a2 - q3 * a1,
    q0 * a1 + q3 * a0 - q1 * a2,
    q0 * a2 + q1 * a1 - q2 * a0,
  )


@jit
def jdotv(m, d, result):
  """Port of mj_Jdotv: subtracts Jdot*qvel of connect and weld rows from result (efc_aref).

  The translational rows use the point Jacobian derivatives of both anchors; weld rotation
  rows differentiate 0.5 * neg(q1) * (J0-J1) v * q0 * relpose by the product rule.
  """
  ne = d.ne[0]
  if ne == 0 or m.nv == 0:
    return
  row = 0
  while row < ne:
    i = d.efc_id[row]
    t = m.eq_type[i]
    if t != mjEQ_CONNECT and t != mjEQ_WELD:
      while row < ne and d.efc_id[row] == i:
        row += 1
      continue
    b0, b1, p0x, p0y, p0z, p1x, p1y, p1z = _anchors(m, d, i)
    j0x, j0y, j0z, r0x, r0y, r0z = _jac_dot_v(m, d, p0x, p0y, p0z, b0)
    j1x, j1y, j1z, r1x, r1y, r1z = _jac_dot_v(m, d, p1x, p1y, p1z, b1)
    result[row] -= j0x - j1x
    result[row + 1] -= j0y - j1y
    result[row + 2] -= j0z - j1z
    row += 3
    if t != mjEQ_WELD:
      continue

    # weld rotation: quaternions as in the rows, and their time derivatives
    data = m.eq_data[i]
    torquescale = data[10]
    body = m.eq_objtype[i] == mjOBJ_BODY
    id0 = m.eq_obj1id[i]
    id1 = m.eq_obj2id[i]
    x0 = d.xquat[b0]
    x1 = d.xquat[b1]
    w0 = d.cvel[b0]
    w1 = d.cvel[b1]
    if body:
      f0, f1, f2, f3 = x0[0], x0[1], x0[2], x0[3]
      g0, g1, g2, g3 = x1[0], x1[1], x1[2], x1[3]
    else:
      sq = m.site_quat
      f0, f1, f2, f3 = mul_quat_scalars(
        x0[0], x0[1], x0[2], x0[3], sq[id0, 0], sq[id0, 1], sq[id0, 2], sq[id0, 3]
      )
      g0, g1, g2, g3 = mul_quat_scalars(
        x1[0], x1[1], x1[2], x1[3], sq[id1, 0], sq[id1, 1], sq[id1, 2], sq[id1, 3]
      )
    # q0r = q0 * relpose (or the site frame), negq1 = neg(q1)
    if body:
      a0, a1, a2, a3 = mul_quat_scalars(f0, f1, f2, f3, data[6], data[7], data[8], data[9])
    else:
      a0, a1, a2, a3 = f0, f1, f2, f3
    n0, n1, n2, n3 = g0, -g1, -g2, -g3
    dw0, dw1, dw2 = w0[0] - w1[0], w0[1] - w1[1], w0[2] - w1[2]
    e0, e1, e2, e3 = _deriv_quat(f0, f1, f2, f3, w0[0], w0[1], w0[2])
    if body:
      e0, e1, e2, e3 = mul_quat_scalars(e0, e1, e2, e3, data[6], data[7], data[8], data[9])
    h0, h1, h2, h3 = _deriv_quat(g0, g1, g2, g3, w1[0], w1[1], w1[2])
    h1, h2, h3 = -h1, -h2, -h3

    # product rule: neg(q1)' w q0r + neg(q1) Jrdot v q0r + neg(q1) w q0r'
    s0, s1, s2, s3 = _mul_quat_axis(h0, h1, h2, h3, dw0, dw1, dw2)
    _, t11, t12, t13 = mul_quat_scalars(s0, s1, s2, s3, a0, a1, a2, a3)
    s0, s1, s2, s3 = _mul_quat_axis(n0, n1, n2, n3, r0x - r1x, r0y - r1y, r0z - r1z)
    _, t21, t22, t23 = mul_quat_scalars(s0, s1, s2, s3, a0, a1, a2, a3)
    s0, s1, s2, s3 = _mul_quat_axis(n0, n1, n2, n3, dw0, dw1, dw2)
    _, t31, t32, t33 = mul_quat_scalars(s0, s1, s2, s3, e0, e1, e2, e3)
    result[row] -= 0.5 * (t11 + t21 + t31) * torquescale
    result[row + 1] -= 0.5 * (t12 + t22 + t32) * torquescale
    result[row + 2] -= 0.5 * (t13 + t23 + t33) * torquescale
    row += 3


# ---- top level ----


@jit
def _clear(d):
  d.ne[0] = 0
  d.nf[0] = 0
  d.nl[0] = 0
  d.nefc[0] = 0
  d.nJ[0] = 0
  d.nA[0] = 0
  d.nY[0] = 0


@jit
def _full(d, capacity):
  """Out of room: warns mjWARN_CNSTRFULL (info: the capacity that ran out) and leaves no rows,
  as MuJoCo does when its arena is full."""
  d.warning_number[mjWARN_CNSTRFULL] += 1
  d.warning_lastinfo[mjWARN_CNSTRFULL] = capacity
  _clear(d)
  for i in range(d.ncon[0]):
    d.contact_efc_address[i] = -1


@stage()
def make_constraint(m, d):
  """Port of mj_makeConstraint: constraint rows, Jacobian and impedance of the position.

  Out of row capacity: warns (mjWARN_CNSTRFULL, info = row capacity) and leaves no rows, as
  MuJoCo does when its arena is full.
  """
  _clear(d)
  if disabled(m, mjDSBL_CONSTRAINT) or m.nv == 0:
    return
  # (equality and contact rows are stages of their own, compiled for the models that have them)
  sparse = is_sparse(m)
  ok = m.neq == 0 or instantiate_equality(m, d) != 0
  if ok:
    ok = instantiate_friction(m, d, sparse)
  if ok:
    ok = instantiate_limit(m, d, sparse)
  if ok and d.ncon[0] > 0:
    ok = instantiate_contact(m, d) != 0
  if not ok:
    _full(d, d.efc_type.shape[0])
    return
  if d.nefc[0] == 0:
    return
  if sparse:
    super_rows(d.efc_J_rowsuper, d.efc_J_rownnz, d.efc_J_rowadr, d.efc_J_colind, d.nefc[0])

  # as mj_regularizeConstraint: Y for the dual solvers and the exact diagonal, the
  # impedance, AR for the dual solvers
  dual = m.opt.solver[0] == mjSOL_PGS or m.opt.noslip_iterations[0] > 0
  diagexact = enabled(m, mjENBL_DIAGEXACT)
  if dual or diagexact:
    if not efc_y(m, d, diagexact):
      _full(d, d.efc_Y.shape[0])
      return
  if not diagexact:
    diag_approx(m, d)
  make_impedance(m, d)
  if dual and not efc_ar(m, d):
    _full(d, d.efc_AR.shape[0])


@stage()
def reference_constraint(m, d):
  """Port of mj_referenceConstraint: efc_vel = J*qvel, efc_aref = -B*vel - K*I*(pos-margin).

  Needs com_vel (cvel, cdof_dot) for the Jdot*qvel term of connect and weld rows.
  """
  mul_jac_vec(m, d, d.efc_vel, d.qvel)
  KBIP = d.efc_KBIP
  for i in range(d.nefc[0]):
    d.efc_aref[i] = -KBIP[i, 1] * d.efc_vel[i] - KBIP[i, 0] * KBIP[i, 2] * (
      d.efc_pos[i] - d.efc_margin[i]
    )

  # connect and weld rows: remove the Jdot*qvel bias
  if d.ne[0] > 0:
    jdotv(m, d, d.efc_aref)


@stage(needed=never)
def inverse_constraint(m, d):
  """Port of mj_invConstraint: constraint forces of the soft model at the current qacc.

  jar = J*qacc - aref gives efc_force, efc_state and qfrc_constraint (mj_constraintUpdate,
  without cost or cone Hessians).
  """
  nefc = d.nefc[0]
  if nefc == 0:
    for i in range(m.nv):
      d.qfrc_constraint[i] = 0.0
    return
  jar = d.scratch_jar
  mul_jac_vec(m, d, jar, d.qacc)
  for i in range(nefc):
    jar[i] -= d.efc_aref[i]
  constraint_update(m, d, jar, local_array(1)[:0], 0)  # no cost wanted


# ---- Python API (mujoco binding signatures) ----


@runs_stage(make_constraint)
def mj_makeConstraint(m, d):
  """Constraint rows, Jacobian and impedance of the current position (needs the position
  stages and collision)."""
  make_constraint(m._struct, d._struct)


@runs_stage(reference_constraint)
def mj_referenceConstraint(m, d):
  """efc_vel and efc_aref of the current velocity."""
  reference_constraint(m._struct, d._struct)


@runs_stage(inverse_constraint)
def mj_invConstraint(m, d):
  """Constraint forces (efc_force, efc_state, qfrc_constraint) of the current qacc."""
  inverse_constraint(m._struct, d._struct)
