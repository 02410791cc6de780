"""Pieces shared by the constraint solvers (engine_solver.c, engine_core_constraint.c).

Constraint rows are read through a few helpers so every solver works on both Jacobian
layouts: dense (row-major nefc x nv in efc_J) and sparse CSR (efc_J_rownnz/rowadr/colind),
chosen as MuJoCo's mj_isSparse does. `constraint_update` is MuJoCo's mj_constraintUpdate:
forces, states and cost of the constraint rows from jar = J*qacc - aref.
"""

import math

import numpy as np

from engine._jit import inline_jit
from engine._jit import jit
from engine.enums import mjCNSTR_CONTACT_ELLIPTIC
from engine.enums import mjCNSTRSTATE_CONE
from engine.enums import mjCNSTRSTATE_LINEARNEG
from engine.enums import mjCNSTRSTATE_LINEARPOS
from engine.enums import mjCNSTRSTATE_QUADRATIC
from engine.enums import mjCNSTRSTATE_SATISFIED
from engine.enums import mjJAC_AUTO
from engine.enums import mjJAC_SPARSE
from engine.enums import mjMINVAL
from engine.enums import mjNISLAND
from engine.enums import mjNSOLVER
from engine.math import add_to_scl_at
from engine.math import dot_at
from engine.sparse import dot_sparse
from engine.sparse import dot_sparse_x3

# ---- Jacobian rows, dense or sparse ----


@jit
def is_sparse(m):
  """Port of mj_isSparse: sparse Jacobian layout if asked for, or automatic with nv >= 60."""
  jac = m.opt.jacobian[0]
  return jac == mjJAC_SPARSE or (jac == mjJAC_AUTO and m.nv >= 60)


@inline_jit
def jac_row_dot(m, d, sparse, i, vec):
  """Row i of the constraint Jacobian dotted with the nv-vector vec (C's summation order)."""
  if sparse:
    adr = d.efc_J_rowadr[i]
    return dot_sparse(d.efc_J, adr, vec, 0, d.efc_J_rownnz[i], d.efc_J_colind, adr)
  return dot_at(d.efc_J, i * m.nv, vec, 0, m.nv)


@inline_jit
def jac_row_dense(m, d, sparse, i, res):
  """res = row i of the constraint Jacobian as a dense nv-vector."""
  jac_row(d.efc_J, d.efc_J_rownnz, d.efc_J_rowadr, d.efc_J_colind, sparse, m.nv, i, res)


@jit
def mul_jac_vec(m, d, res, vec):
  """Port of mj_mulJacVec: res = J*vec (nefc)."""
  jac_vec(
    d.efc_J,
    d.efc_J_rownnz,
    d.efc_J_rowadr,
    d.efc_J_colind,
    d.efc_J_rowsuper,
    is_sparse(m),
    d.nefc[0],
    m.nv,
    res,
    vec,
  )


@jit
def mul_jac_t_vec(m, d, res, vec):
  """Port of mj_mulJacTVec: res = J'*vec (nv), skipping zero weights."""
  jac_t_vec(
    d.efc_J, d.efc_J_rownnz, d.efc_J_rowadr, d.efc_J_colind, is_sparse(m), d.nefc[0], m.nv, res, vec
  )


# ---- any Jacobian: dense row-major nrow x ncol, or CSR (the solvers' island blocks) ----


@inline_jit
def jac_row(J, rownnz, rowadr, colind, sparse, ncol, i, res):
  """res = row i of J as a dense ncol-vector."""
  if sparse:
    for k in range(ncol):
      res[k] = 0.0
    adr = rowadr[i]
    for k in range(adr, adr + rownnz[i]):
      res[colind[k]] = J[k]
  else:
    adr = i * ncol
    for k in range(ncol):
      res[k] = J[adr + k]


@jit
def jac_vec(J, rownnz, rowadr, colind, rowsuper, sparse, nrow, ncol, res, vec):
  """res = J*vec (nrow), in C's summation order (mju_mulMatVec, mju_mulMatVecSparse). Sparse:
  rows that share their columns with the next ones (rowsuper, mju_superSparse: a contact's
  pyramid edges) go three at a time, as MuJoCo's mju_dotSparseX3 takes them."""
  if not sparse:
    for i in range(nrow):
      res[i] = dot_at(J, i * ncol, vec, 0, ncol)
    return
  i = 0
  while i < nrow:
    same = rowsuper[i] + 1
    while same >= 3:
      res[i], res[i + 1], res[i + 2] = dot_sparse_x3(
        J, rowadr[i], rowadr[i + 1], rowadr[i + 2], vec, rownnz[i], colind, rowadr[i]
      )
      i += 3
      same -= 3
    for _ in range(same):
      res[i] = dot_sparse(J, rowadr[i], vec, 0, rownnz[i], colind, rowadr[i])
      i += 1


@jit
def jac_t_vec(J, rownnz, rowadr, colind, sparse, nrow, ncol, res, vec):
  """res = J'*vec (ncol), skipping zero weights (mju_mulMatTVec and its sparse twin)."""
  for k in range(ncol):
    res[k] = 0.0
  if sparse:
    for i in range(nrow):
      scl = vec[i]
      if scl != 0:
        for k in range(np.uint64(rowadr[i]), np.uint64(rowadr[i] + rownnz[i])):
          res[np.uint64(colind[k])] += J[k] * scl
  else:
    for i in range(nrow):
      if vec[i] != 0:
        add_to_scl_at(res, 0, J, i * ncol, vec[i], ncol)


# ---- constraint update ----


@inline_jit
def _scaled(x, f, divide):
  return x / f if divide else x * f


@inline_jit
def _norm_scaled(jar, adr, friction, n, divide):
  """Norm of (jar[adr+j]*friction[j], j < n), or of jar/friction when divide, summed in
  mju_norm's order."""
  res = 0.0
  j = 0
  if n >= 4:
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    while j <= n - 4:
      u0 = _scaled(jar[adr + j], friction[j], divide)
      u1 = _scaled(jar[adr + j + 1], friction[j + 1], divide)
      u2 = _scaled(jar[adr + j + 2], friction[j + 2], divide)
      u3 = _scaled(jar[adr + j + 3], friction[j + 3], divide)
      s0 += u0 * u0
      s1 += u1 * u1
      s2 += u2 * u2
      s3 += u3 * u3
      j += 4
    res = (s0 + s2) + (s1 + s3)
  left = n - j
  if left > 0:
    u0 = _scaled(jar[adr + j], friction[j], divide)
    tail = u0 * u0
    if left > 1:
      u1 = _scaled(jar[adr + j + 1], friction[j + 1], divide)
      tail += u1 * u1
    if left > 2:
      u2 = _scaled(jar[adr + j + 2], friction[j + 2], divide)
      tail += u2 * u2
    res += tail
  return math.sqrt(res)


@jit
def _cone_hessian(H, jar, i, mu, friction, dim, N, T, Dm):
  """Cone Hessian of the middle zone of an elliptic contact (dim x dim into H, flat)."""
  # first row: (1, -mu/T * U)
  scl = -mu / T
  H[0] = 1.0
  for j in range(1, dim):
    H[j] = scl * (jar[i + j] * friction[j - 1])

  # upper block: mu*N/T^3 * U*U'
  scl = mu * N / (T * T * T)
  for k in range(1, dim):
    uk = jar[i + k] * friction[k - 1]
    for j in range(k, dim):
      H[k * dim + j] = scl * (jar[i + j] * friction[j - 1]) * uk

  # add (mu^2 - mu*N/T) to the diagonal
  scl = mu * mu - mu * N / T
  for j in range(1, dim):
    H[j * (dim + 1)] += scl

  # pre and post multiply by diag(mu, friction), scale by Dm
  for k in range(dim):
    scl = Dm * (mu if k == 0 else friction[k - 1])
    for j in range(k, dim):
      H[k * dim + j] *= scl * (mu if j == 0 else friction[j - 1])

  # copy the upper triangle into the lower one
  for k in range(dim):
    for j in range(k + 1, dim):
      H[j * dim + k] = H[k * dim + j]


@jit
def constraint_update_impl(m, d, jar, flg_coneHessian):
  """Port of mj_constraintUpdate_impl, engine_core_constraint.c: efc_force and efc_state from
  jar = J*qacc - aref; returns the constraint cost s(jar). Cone Hessians go to contact_H."""
  return update_rows(
    d,
    jar,
    d.ne[0],
    d.nf[0],
    d.nefc[0],
    d.efc_D,
    d.efc_R,
    d.efc_frictionloss,
    d.efc_type,
    d.efc_id,
    d.efc_force,
    d.efc_state,
    flg_coneHessian,
  )


@jit
def update_rows(d, jar, ne, nf, nefc, D, R, floss, efc_type, efc_id, force, state, flg_coneHessian):
  """constraint_update_impl on rows given as arrays: every row of d, or one island's rows in
  the island-major iefc_* arrays (ne equalities, then nf friction rows, then the rest)."""
  # unconstrained force
  for i in range(nefc):
    force[i] = -D[i] * jar[i]

  s = 0.0
  i = 0
  while i < nefc:
    # equality
    if i < ne:
      s += 0.5 * D[i] * jar[i] * jar[i]
      state[i] = mjCNSTRSTATE_QUADRATIC
      i += 1
      continue

    # friction loss: linear zones beyond +-R*floss
    if i < ne + nf:
      if jar[i] <= -R[i] * floss[i]:
        s += -0.5 * R[i] * floss[i] * floss[i] - floss[i] * jar[i]
        force[i] = floss[i]
        state[i] = mjCNSTRSTATE_LINEARNEG
      elif jar[i] >= R[i] * floss[i]:
        s += -0.5 * R[i] * floss[i] * floss[i] + floss[i] * jar[i]
        force[i] = -floss[i]
        state[i] = mjCNSTRSTATE_LINEARPOS
      else:
        s += 0.5 * D[i] * jar[i] * jar[i]
        state[i] = mjCNSTRSTATE_QUADRATIC
      i += 1
      continue

    # limits, frictionless and pyramidal contacts: non-negative
    if efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC:
      if jar[i] >= 0:
        force[i] = 0.0
        state[i] = mjCNSTRSTATE_SATISFIED
      else:
        s += 0.5 * D[i] * jar[i] * jar[i]
        state[i] = mjCNSTRSTATE_QUADRATIC
      i += 1
      continue

    # elliptic cone: map to the regular dual cone, split normal and tangent
    con = efc_id[i]
    mu = d.contact_mu[con]
    friction = d.contact_friction[con]
    dim = d.contact_dim[con]
    N = jar[i] * mu
    T = _norm_scaled(jar, i + 1, friction, dim - 1, False)

    # top zone
    if N >= mu * T or (T <= 0 and N >= 0):
      for j in range(dim):
        force[i + j] = 0.0
      state[i] = mjCNSTRSTATE_SATISFIED

    # bottom zone
    elif mu * N + T <= 0 or (T <= 0 and N < 0):
      for j in range(dim):
        s += 0.5 * D[i + j] * jar[i + j] * jar[i + j]
      state[i] = mjCNSTRSTATE_QUADRATIC

    # middle zone: cost 0.5*Dm*(N-mu*T)^2
    else:
      Dm = D[i] / (mu * mu * (1 + mu * mu))
      NmT = N - mu * T
      s += 0.5 * Dm * NmT * NmT

      # force = -ds/djar
      force[i] = -Dm * NmT * mu
      for j in range(1, dim):
        force[i + j] = -force[i] / T * (jar[i + j] * friction[j - 1]) * friction[j - 1]
      state[i] = mjCNSTRSTATE_CONE
      if flg_coneHessian:
        _cone_hessian(d.contact_H[con], jar, i, mu, friction, dim, N, T, Dm)

    # replicate the state over the cone rows
    for j in range(1, dim):
      state[i + j] = state[i]
    i += dim
  return s


@jit
def constraint_update(m, d, jar, cost, flg_coneHessian):
  """Port of mj_constraintUpdate, engine_core_constraint.c: efc_force, efc_state and
  qfrc_constraint = J'*efc_force from jar; the cost goes to cost[0] unless cost is empty."""
  s = constraint_update_impl(m, d, jar, flg_coneHessian)
  if cost.shape[0] > 0:
    cost[0] = s
  mul_jac_t_vec(m, d, d.qfrc_constraint, d.efc_force)


# ---- statistics and dual state ----


@jit
def inertia_scale(m, d, island):
  """1 / (sum of the diagonal of M over the island's dofs; island -1: every dof): the scale of
  the improvement and gradient statistics (and of the line-search tolerance) in MuJoCo 3.17's
  solvers."""
  s = 0.0
  if island < 0:
    for i in range(m.nv):
      s += d.M[m.M_rowadr[i] + m.M_rownnz[i] - 1]
  else:
    adr = d.island_idofadr[island]
    for k in range(adr, adr + d.island_nv[island]):
      i = d.map_idof2dof[k]
      s += d.M[m.M_rowadr[i] + m.M_rownnz[i] - 1]
  return 1 / max(mjMINVAL, s)


@jit
def save_stats(d, island, it, improvement, gradient, lineslope, nactive, nchange, neval, nupdate):
  """Port of saveStats, engine_solver.c: one row of d.solver_stat."""
  if island >= mjNISLAND or it >= mjNSOLVER:
    return
  island = max(0, island)
  row = d.solver_stat[island * mjNSOLVER + it]
  row[0] = improvement
  row[1] = gradient
  row[2] = lineslope
  row[3] = nactive
  row[4] = nchange
  row[5] = neval
  row[6] = nupdate


@jit
def island_rows(d, island):
  """Row indices of island `island` in efc order (MuJoCo's efclist); -1: every row."""
  if island < 0:
    nefc = d.nefc[0]
    rows = d.scratch_efc_rows
    for i in range(nefc):
      rows[i] = i
    return rows[:nefc]
  adr = d.island_iefcadr[island]
  return d.map_iefc2efc[adr : adr + d.island_nefc[island]]


@jit
def row_dim(d, i):
  """Rows of the block starting at row i: an elliptic contact's dim, else 1."""
  return d.contact_dim[d.efc_id[i]] if d.efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC else 1


@jit
def dual_state(m, d, state, rows):
  """Port of dualState and dualStateChange, engine_solver.c: states of `rows` (island_rows)
  from efc_force, in one pass; returns (nactive, nchange), nchange the rows whose state
  differs from the one `state` held."""
  ne = d.ne[0]
  nf = d.nf[0]
  force = d.efc_force
  floss = d.efc_frictionloss
  nactive = 0
  nchange = 0
  c = 0
  while c < rows.shape[0]:
    i = rows[c]

    # equality and friction loss are always active
    if i < ne + nf:
      new = mjCNSTRSTATE_QUADRATIC
      if i >= ne:
        if force[i] <= -floss[i]:
          new = mjCNSTRSTATE_LINEARPOS
        elif force[i] >= floss[i]:
          new = mjCNSTRSTATE_LINEARNEG
      nactive += 1
      dim = 1

    # limits and contacts
    elif d.efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC:
      if force[i] <= 0:
        new = mjCNSTRSTATE_SATISFIED
      else:
        new = mjCNSTRSTATE_QUADRATIC
        nactive += 1
      dim = 1

    # elliptic: zone of the force in the regular cone space
    else:
      con = d.efc_id[i]
      dim = d.contact_dim[con]
      mu = d.contact_mu[con]
      friction = d.contact_friction[con]
      N = force[i] / mu
      T = _norm_scaled(force, i + 1, friction, dim - 1, True)
      if mu * N >= T:
        new = mjCNSTRSTATE_SATISFIED
      elif N + mu * T <= 0:
        new = mjCNSTRSTATE_QUADRATIC
        nactive += dim
      else:
        new = mjCNSTRSTATE_CONE
        nactive += dim
    for j in range(i, i + dim):
      if state[j] != new:
        nchange += 1
        state[j] = new
    c += dim
  return nactive, nchange


# ---- workspace ----


@inline_jit
def jac_row_dot_at(m, d, sparse, i, vec, off):
  """Row i of the constraint Jacobian dotted with vec[off:off+nv]."""
  if sparse:
    adr = d.efc_J_rowadr[i]
    return dot_sparse(d.efc_J, adr, vec, off, d.efc_J_rownnz[i], d.efc_J_colind, adr)
  return dot_at(d.efc_J, i * m.nv, vec, off, m.nv)
