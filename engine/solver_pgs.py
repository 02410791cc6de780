"""Dual solvers: projected Gauss-Seidel and the noslip post-processing (port of mj_solPGS and
mj_solNoSlip, engine_solver.c), with the small QCQPs of elliptic friction cones.

Both iterate on efc_AR = J*M^-1*J' + diag(R), dense or sparse, which make_constraint builds
for them (projection.py) as MuJoCo does: each residual b + AR*force is MuJoCo's to the bit.
Block solves use a 256-float stack workspace.
"""

import math

import numpy as np

from engine._jit import inline_jit
from engine._jit import jit
from engine._jit import local_array
from engine._stage import NOSLIP
from engine._stage import PGS
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import stage
from engine.enums import mjCNSTR_CONTACT_ELLIPTIC
from engine.enums import mjCNSTR_CONTACT_PYRAMIDAL
from engine.enums import mjMINVAL
from engine.enums import mjNISLAND
from engine.math import dot_at
from engine.math import mju_cholFactor
from engine.math import mju_cholSolve
from engine.math import mju_dot
from engine.math import mju_mulVecMatVec
from engine.solver_common import dual_state
from engine.solver_common import inertia_scale
from engine.solver_common import is_sparse
from engine.solver_common import island_rows
from engine.solver_common import mul_jac_t_vec
from engine.solver_common import row_dim
from engine.solver_common import save_stats
from engine.sparse import dot_sparse
from engine.sparse import solve_ld

# ---- QCQP: min 0.5*x'*A*x + x'*b  s.t.  sum (x_i/d_i)^2 <= r^2 ----


@jit
def mju_QCQP2(res, Ain, bin, d, r):
  """Port of mju_QCQP2, engine_util_solve.c: the 2-d QCQP; returns 1 if the constraint is
  active, 0 otherwise."""
  # scale so that the constraint becomes x'*x <= r*r
  b1 = bin[0] * d[0]
  b2 = bin[1] * d[1]
  A11 = Ain[0] * d[0] * d[0]
  A22 = Ain[3] * d[1] * d[1]
  A12 = Ain[1] * d[0] * d[1]

  # Newton iteration on the multiplier
  la = 0.0
  v1 = 0.0
  v2 = 0.0
  for _ in range(20):
    det = (A11 + la) * (A22 + la) - A12 * A12
    if det < 1e-10:
      res[0] = 0.0
      res[1] = 0.0
      return 0
    detinv = 1 / det
    P11 = (A22 + la) * detinv
    P22 = (A11 + la) * detinv
    P12 = -A12 * detinv
    v1 = -P11 * b1 - P12 * b2
    v2 = -P12 * b1 - P22 * b2

    # converged, or inside the constraint set
    val = v1 * v1 + v2 * v2 - r * r
    if val < 1e-10:
      break
    deriv = -2.0 * (P11 * v1 * v1 + 2.0 * P12 * v1 * v2 + P22 * v2 * v2)
    delta = -val / deriv
    if delta < 1e-10:
      break
    la += delta

  # undo scaling
  res[0] = v1 * d[0]
  res[1] = v2 * d[1]
  return 1 if la != 0 else 0


@jit
def mju_QCQP3(res, Ain, bin, d, r):
  """Port of mju_QCQP3, engine_util_solve.c: the 3-d QCQP; returns 1 if active."""
  # scale so that the constraint becomes x'*x <= r*r
  b1 = bin[0] * d[0]
  b2 = bin[1] * d[1]
  b3 = bin[2] * d[2]
  A11 = Ain[0] * d[0] * d[0]
  A22 = Ain[4] * d[1] * d[1]
  A33 = Ain[8] * d[2] * d[2]
  A12 = Ain[1] * d[0] * d[1]
  A13 = Ain[2] * d[0] * d[2]
  A23 = Ain[5] * d[1] * d[2]

  # Newton iteration on the multiplier
  la = 0.0
  v1 = 0.0
  v2 = 0.0
  v3 = 0.0
  for _ in range(20):
    # adjugate of A + la
    P11 = (A22 + la) * (A33 + la) - A23 * A23
    P22 = (A11 + la) * (A33 + la) - A13 * A13
    P33 = (A11 + la) * (A22 + la) - A12 * A12
    P12 = A13 * A23 - A12 * (A33 + la)
    P13 = A12 * A23 - A13 * (A22 + la)
    P23 = A12 * A13 - A23 * (A11 + la)
    det = (A11 + la) * P11 + A12 * P12 + A13 * P13
    if det < 1e-10:
      res[0] = 0.0
      res[1] = 0.0
      res[2] = 0.0
      return 0
    detinv = 1 / det
    P11 *= detinv
    P22 *= detinv
    P33 *= detinv
    P12 *= detinv
    P13 *= detinv
    P23 *= detinv
    v1 = -P11 * b1 - P12 * b2 - P13 * b3
    v2 = -P12 * b1 - P22 * b2 - P23 * b3
    v3 = -P13 * b1 - P23 * b2 - P33 * b3

    # converged, or inside the constraint set
    val = v1 * v1 + v2 * v2 + v3 * v3 - r * r
    if val < 1e-10:
      break
    deriv = -2.0 * (P11 * v1 * v1 + P22 * v2 * v2 + P33 * v3 * v3) - 4.0 * (
      P12 * v1 * v2 + P13 * v1 * v3 + P23 * v2 * v3
    )
    delta = -val / deriv
    if delta < 1e-10:
      break
    la += delta

  # undo scaling
  res[0] = v1 * d[0]
  res[1] = v2 * d[1]
  res[2] = v3 * d[2]
  return 1 if la != 0 else 0


@jit
def mju_QCQP(res, Ain, bin, d, r, n, work):
  """Port of mju_QCQP, engine_util_solve.c: the n-d QCQP (n <= 5) by Cholesky; returns 1 if
  active. work holds at least 60 floats."""
  A = work[0:25]
  Ala = work[25:50]
  b = work[50:55]
  tmp = work[55:60]

  # scale so that the constraint becomes x'*x <= r*r
  for i in range(n):
    b[i] = bin[i] * d[i]
    for j in range(n):
      A[j + i * n] = Ain[j + i * n] * d[i] * d[j]

  # Newton iteration on the multiplier
  la = 0.0
  for _ in range(20):
    for k in range(n * n):
      Ala[k] = A[k]
    for i in range(n):
      Ala[i * (n + 1)] += la
    if mju_cholFactor(Ala, n, 1e-10) < n:
      for i in range(n):
        res[i] = 0.0
      return 0

    # res = -Ala \ b
    mju_cholSolve(res, Ala, b, n)
    for i in range(n):
      res[i] = -res[i]

    # converged, or inside the constraint set
    val = mju_dot(res, res, n) - r * r
    if val < 1e-10:
      break
    mju_cholSolve(tmp, Ala, res, n)
    deriv = -2.0 * mju_dot(res, tmp, n)
    delta = -val / deriv
    if delta < 1e-10:
      break
    la += delta

  # undo scaling
  for i in range(n):
    res[i] = res[i] * d[i]
  return 1 if la != 0 else 0


# ---- efc_AR = J*M^-1*J' + R (projection.py) ----


@jit
def _ar(d, sparse, i, j):
  """Entry (i, j) of efc_AR (0 where the sparse pattern has none)."""
  if not sparse:
    return d.efc_AR[i * d.nefc[0] + j]
  adr = d.efc_AR_rowadr[i]
  for k in range(adr, adr + d.efc_AR_rownnz[i]):
    if d.efc_AR_colind[k] == j:
      return d.efc_AR[k]
  return 0.0


@jit
def _ar_diaginv(d, sparse, res, flg_subR, rows):
  """Port of ARdiaginv on `rows`: res = 1/diag(AR), or 1/max(mjMINVAL, diag(AR) - R) when
  flg_subR."""
  for i in rows:
    a = _ar(d, sparse, i, i)
    res[i] = 1 / (max(mjMINVAL, a - d.efc_R[i]) if flg_subR else a)


@jit
def _extract_block(d, sparse, Ac, start, n, flg_subR):
  """Port of extractBlock: the n x n block of AR at (start, start); with flg_subR, R is
  taken off the diagonal, clamped below at 1e-10. Sparse: the block's rows (one contact's)
  share their pattern, so as in MuJoCo each row holds the block at the place where row
  `start` has column `start` (any other pattern is read entry by entry)."""
  if sparse:
    adr = d.efc_AR_rowadr[start]
    k0 = 0
    while k0 < d.efc_AR_rownnz[start] and d.efc_AR_colind[adr + k0] != start:
      k0 += 1
    contiguous = True
    for j in range(n):
      a = d.efc_AR_rowadr[start + j] + k0
      if (
        k0 + n > d.efc_AR_rownnz[start + j]
        or d.efc_AR_colind[a] != start
        or d.efc_AR_colind[a + n - 1] != start + n - 1
      ):
        contiguous = False
        break
    if contiguous:
      for j in range(n):
        a = d.efc_AR_rowadr[start + j] + k0
        for k in range(n):
          Ac[j * n + k] = d.efc_AR[a + k]
    else:
      for j in range(n):
        for k in range(n):
          Ac[j * n + k] = _ar(d, sparse, start + j, start + k)
  else:
    nefc = d.nefc[0]
    for j in range(n):
      for k in range(n):
        Ac[j * n + k] = d.efc_AR[(start + j) * nefc + start + k]
  if flg_subR:
    for j in range(n):
      Ac[j * (n + 1)] -= d.efc_R[start + j]
      Ac[j * (n + 1)] = max(1e-10, Ac[j * (n + 1)])


@inline_jit
def ar_row_dot(d, sparse, i, vec):
  """Row i of efc_AR dotted with the nefc-vector vec (C's summation order). Inlined: PGS
  calls it once per row and sweep, and the call cost as much as the short row's products."""
  if sparse:
    adr = d.efc_AR_rowadr[i]
    return dot_sparse(d.efc_AR, adr, vec, 0, d.efc_AR_rownnz[i], d.efc_AR_colind, adr)
  nefc = d.nefc[0]
  return dot_at(d.efc_AR, i * nefc, vec, 0, nefc)


@inline_jit
def _residual(d, sparse, res, i, dim, flg_subR):
  """Port of residual: res = b + AR*force on rows i..i+dim (minus R*force when flg_subR)."""
  for j in range(dim):
    res[j] = d.efc_b[i + j] + ar_row_dot(d, sparse, i + j, d.efc_force)
  if flg_subR:
    for j in range(dim):
      res[j] -= d.efc_R[i + j] * d.efc_force[i + j]


@inline_jit
def _cost_change(A, force, i, oldforce, res, dim, delta):
  """Port of costChange: cost change of the block update; a positive change (> 1e-10) is
  undone and reported as 0."""
  if dim == 1:
    dl = force[i] - oldforce[0]
    change = 0.5 * dl * dl * A[0] + dl * res[0]
  else:
    for j in range(dim):
      delta[j] = force[i + j] - oldforce[j]
    change = 0.5 * mju_mulVecMatVec(delta, A, delta, dim) + mju_dot(delta, res, dim)
  if change > 1e-10:
    for j in range(dim):
      force[i + j] = oldforce[j]
    change = 0.0
  return change


@jit
def _qcqp(v, Ac, bc, mu, fn, dim, work):
  """Friction forces of an elliptic contact from its QCQP, put on the ellipsoid when active."""
  if dim == 3:
    active = mju_QCQP2(v, Ac, bc, mu, fn)
  elif dim == 4:
    active = mju_QCQP3(v, Ac, bc, mu, fn)
  else:
    active = mju_QCQP(v, Ac, bc, mu, fn, dim - 1, work)
  if active:
    s = 0.0
    for j in range(dim - 1):
      s += v[j] * v[j] / (mu[j] * mu[j])
    s = math.sqrt(fn * fn / max(mjMINVAL, s))
    for j in range(dim - 1):
      v[j] *= s


@jit
def dual_finish(m, d):
  """Port of dualFinish: qfrc_constraint = J'*force, qacc = qacc_smooth + M^-1*qfrc_constraint."""
  mul_jac_t_vec(m, d, d.qfrc_constraint, d.efc_force)
  for i in range(m.nv):
    d.qacc[i] = d.qfrc_constraint[i]
  solve_ld(d.qacc, d.qLD, d.qLDiagInv, m.nv, 1, m.M_rownnz, m.M_rowadr, m.M_colind)
  for i in range(m.nv):
    d.qacc[i] += d.qacc_smooth[i]


# ---- PGS ----


@jit
def _pcg32(state):
  """One draw of the PCG32 generator (XSH-RR output, increment 1): (output, next state).

  The 64-bit state update state*6364136223846793005 + 1 (mod 2^64) is done on 32-bit halves,
  so no intermediate overflows (numpy warns on overflow when the JIT is disabled).
  """
  m32 = np.uint64(0xFFFFFFFF)
  x = ((state >> np.uint64(45)) ^ (state >> np.uint64(27))) & m32
  rot = state >> np.uint64(59)
  out = ((x >> rot) | (x << ((np.uint64(32) - rot) & np.uint64(31)))) & m32

  # next state
  lo = state & m32
  hi = state >> np.uint64(32)
  mlo = np.uint64(0x4C957F2D)
  mhi = np.uint64(0x5851F42D)
  p = lo * mlo + np.uint64(1)
  mid = ((p >> np.uint64(32)) + ((hi * mlo) & m32) + ((lo * mhi) & m32)) & m32
  return out, (mid << np.uint64(32)) | (p & m32)


@jit
def _shuffle(blocks, nblock, state):
  """Fisher-Yates shuffle of the block list with PCG32 draws; returns the new state."""
  i = nblock
  while i >= 2:
    r, state = _pcg32(state)
    j = int(r % np.uint64(i))
    tmp = blocks[i - 1]
    blocks[i - 1] = blocks[j]
    blocks[j] = tmp
    i -= 1
  return state


@jit
def _project(m, d, rows):
  """Projects efc_force of `rows` onto the feasible set: friction loss intervals, non-negative
  limits and contacts, elliptic cones (tangential forces scaled onto the cone)."""
  ne = d.ne[0]
  nf = d.nf[0]
  force = d.efc_force
  c = 0
  while c < rows.shape[0]:
    i = rows[c]
    if i < ne:
      c += 1
      continue
    if i < ne + nf:
      fl = d.efc_frictionloss[i]
      if force[i] < -fl:
        force[i] = -fl
      elif force[i] > fl:
        force[i] = fl
      c += 1
      continue
    if d.efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC:
      if force[i] < 0:
        force[i] = 0.0
      c += 1
      continue
    con = d.efc_id[i]
    dim = d.contact_dim[con]
    friction = d.contact_friction[con]
    if force[i] < 0:
      for j in range(dim):
        force[i + j] = 0.0
    elif dim >= 2:
      s = 0.0
      for j in range(1, dim):
        s += force[i + j] * force[i + j] / (friction[j - 1] * friction[j - 1])
      f0 = force[i] * force[i]
      if s > f0:
        scl = math.sqrt(f0 / max(mjMINVAL, s))
        for j in range(1, dim):
          force[i + j] *= scl
    c += dim


@inline_jit
def _pgs_scalar(d, sparse, i, ARinv, ne, nf):
  """One PGS update of scalar row i (not an elliptic contact): the unconstrained minimum, then
  the interval (friction loss) or sign constraint (limits, contacts); returns the cost change
  (<= 0). In registers and inlined into the sweep: on the box pile a call per row and sweep
  cost a third of the solver."""
  force = d.efc_force
  res = d.efc_b[i] + ar_row_dot(d, sparse, i, force)
  old = force[i]
  f = old - res * ARinv[i]
  if i >= ne:
    if i < ne + nf:
      fl = d.efc_frictionloss[i]
      if f < -fl:
        f = -fl
      elif f > fl:
        f = fl
    elif f < 0:
      f = 0.0
  dl = f - old
  change = 0.5 * dl * dl * (1 / ARinv[i]) + dl * res
  if change > 1e-10:  # (costChange: an increase is undone)
    return 0.0
  force[i] = f
  return change


@jit
def _pgs_elliptic(m, d, sparse, i, dim, ARinv, w):
  """One PGS update of the elliptic contact whose rows start at i (dim rows): a ray update of
  the whole force, then the friction forces from a QCQP with the normal force fixed. Returns
  the cost change (<= 0)."""
  force = d.efc_force
  Athis = w[0:36]
  Ac = w[36:61]
  bc = w[61:67]
  v = w[67:73]
  v1 = w[73:79]
  res = w[79:85]
  oldforce = w[85:91]
  delta = w[91:97]
  qwork = w[97:157]
  _residual(d, sparse, res, i, dim, False)
  for j in range(dim):
    oldforce[j] = force[i + j]
  mu = d.contact_friction[d.efc_id[i]]
  _extract_block(d, sparse, Athis, i, dim, False)

  # normal update when the normal force is too small, else ray update
  if force[i] < mjMINVAL:
    force[i] -= res[0] * ARinv[i]
    if force[i] < 0:
      force[i] = 0.0
    for j in range(1, dim):
      force[i + j] = 0.0
  else:
    for j in range(dim):
      v[j] = force[i + j]
    for r in range(dim):
      v1[r] = mju_dot(Athis[r * dim : (r + 1) * dim], v, dim)
    denom = mju_dot(v, v1, dim)
    if denom >= mjMINVAL:
      x = -mju_dot(v, res, dim) / denom
      if force[i] + x * v[0] < 0:
        x = -v[0] / force[i]
      for j in range(dim):
        force[i + j] += x * v[j]

  # friction update with the normal force fixed: Ac, bc of the friction block
  n1 = dim - 1
  for j in range(n1):
    for k in range(n1):
      Ac[j * n1 + k] = Athis[(j + 1) * dim + 1 + k]
    bc[j] = res[j + 1]
    bc[j] -= mju_dot(Ac[j * n1 : (j + 1) * n1], oldforce[1:dim], n1)
    bc[j] += Athis[(j + 1) * dim] * (force[i] - oldforce[0])
  if force[i] < mjMINVAL:
    for j in range(1, dim):
      force[i + j] = 0.0
  else:
    _qcqp(v, Ac, bc, mu, force[i], dim, qwork)
    for j in range(n1):
      force[i + 1 + j] = v[j]
  return _cost_change(Athis, force, i, oldforce, res, dim, delta)


@stage(M, D, i8, i8, needed=PGS)
def pgs(m, d, island, maxiter):
  """Port of MuJoCo 3.17's PGS (solPGS): projected Gauss-Seidel on the dual of one island's
  rows (island -1: every row), starting from efc_force. Needs efc_AR; mj_dualFinish follows.

  Each sweep visits the blocks (scalar rows, elliptic contacts) in an order reshuffled every
  iteration by a PCG32 generator seeded with 1; sweeps are accelerated with Nesterov momentum
  (y = x + (k-1)/(k+2)*(x - x_prev), projected) and the momentum restarts when the sweep
  moves against it. Elliptic contacts: ray update of the whole force, then the friction
  forces from a QCQP with the normal force fixed.
  """
  rows = island_rows(d, island)
  nrow = rows.shape[0]
  sparse = is_sparse(m)
  force = d.efc_force
  prev = d.scratch_pgs_prev
  start = d.scratch_pgs_start
  ARinv = d.scratch_ARinv
  blocks = d.scratch_pgs_blocks
  w = local_array(256)  # small block solves
  scale = inertia_scale(m, d, island)

  # inverse diagonal of AR, initial state
  _ar_diaginv(d, sparse, ARinv, False, rows)
  dual_state(m, d, d.efc_state, rows)

  # block starts
  nblock = 0
  c = 0
  while c < nrow:
    blocks[nblock] = rows[c]
    nblock += 1
    c += row_dim(d, rows[c])

  state = np.uint64(1)
  ne = d.ne[0]
  nf = d.nf[0]
  k = 0
  it = 0
  while it < maxiter:
    # momentum: extrapolate from the previous iterate and project
    beta = (k - 1) / (k + 2) if it > 0 else 0.0
    if beta > 0:
      for i in rows:
        f = force[i]
        force[i] = beta * (f - prev[i]) + f
        prev[i] = f
      _project(m, d, rows)
    else:
      for i in rows:
        prev[i] = force[i]
    for i in rows:
      start[i] = force[i]

    # one sweep in shuffled block order
    if nblock >= 2:
      state = _shuffle(blocks, nblock, state)
    improvement = 0.0
    for b in range(nblock):
      i = int(blocks[b])
      if d.efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC:
        improvement -= _pgs_elliptic(m, d, sparse, i, d.contact_dim[d.efc_id[i]], ARinv, w)
      else:
        improvement -= _pgs_scalar(d, sparse, i, ARinv, ne, nf)

    # states and statistics
    nactive, nchange = dual_state(m, d, d.efc_state, rows)
    improvement *= scale
    save_stats(d, island, it, improvement, 0.0, 0.0, nactive, nchange, 0, 0)

    # restart the momentum when the sweep went against it
    restart = False
    if it > 0:
      s = 0.0
      for i in rows:
        s += (force[i] - start[i]) * (start[i] - prev[i])
      restart = s < 0
    k = 0 if restart else k + 1
    it += 1
    if improvement < m.opt.tolerance[0]:
      break

  if island < mjNISLAND:
    d.solver_niter[max(island, 0)] += it
    nnz = nrow * nrow
    if sparse:
      nnz = 0
      for i in rows:
        nnz += d.efc_AR_rownnz[i]
    d.solver_nnz[max(island, 0)] = nnz


# ---- noslip ----


@stage(M, D, i8, i8, needed=NOSLIP)
def noslip(m, d, island, maxiter):
  """Port of solNoSlip: PGS on the friction forces only (friction loss, pyramid edge pairs,
  elliptic friction) of one island's rows (-1: every row) without regularization, normal
  forces fixed. Needs efc_AR; mj_dualFinish follows."""
  ne = d.ne[0]
  nf = d.nf[0]
  rows = island_rows(d, island)
  nrow = rows.shape[0]
  stat = max(island, 0)
  sparse = is_sparse(m)
  force = d.efc_force
  floss = d.efc_frictionloss
  ARinv = d.scratch_ARinv
  w = local_array(256)  # small block solves
  Ac = w[36:61]
  bc = w[61:67]
  v = w[67:73]
  res = w[79:85]
  oldforce = w[85:91]
  delta = w[91:97]
  qwork = w[97:157]
  scale = inertia_scale(m, d, island)

  # inverse diagonal of A, initial state
  _ar_diaginv(d, sparse, ARinv, True, rows)
  dual_state(m, d, d.efc_state, rows)

  it = 0
  while it < maxiter:
    improvement = 0.0

    # the regularizer no longer counts
    if it == 0:
      for i in rows:
        improvement += 0.5 * force[i] * force[i] * d.efc_R[i]

    # dry friction
    for i in rows:
      if i < ne or i >= ne + nf:
        continue
      _residual(d, sparse, res, i, 1, True)
      oldforce[0] = force[i]
      force[i] -= res[0] * ARinv[i]
      if force[i] < -floss[i]:
        force[i] = -floss[i]
      elif force[i] > floss[i]:
        force[i] = floss[i]
      dl = force[i] - oldforce[0]
      improvement -= 0.5 * dl * dl / ARinv[i] + dl * res[0]

    # contact friction
    c = 0
    while c < nrow:
      i = rows[c]
      if i < ne + nf:
        c += 1
      elif d.efc_type[i] == mjCNSTR_CONTACT_PYRAMIDAL:
        dim = d.contact_dim[d.efc_id[i]]

        # pairs of opposing pyramid edges
        for j in range(i, i + 2 * (dim - 1), 2):
          _residual(d, sparse, res, j, 2, True)
          oldforce[0] = force[j]
          oldforce[1] = force[j + 1]
          _extract_block(d, sparse, Ac, j, 2, True)
          for k in range(2):
            bc[k] = res[k] - mju_dot(Ac[2 * k : 2 * k + 2], oldforce, 2)

          # f0 = mid+y, f1 = mid-y, minimize over y in [-mid, mid]
          mid = 0.5 * (force[j] + force[j + 1])
          K1 = Ac[0] + Ac[3] - Ac[1] - Ac[2]
          K0 = mid * (Ac[0] - Ac[3]) + bc[0] - bc[1]
          if K1 < mjMINVAL:
            force[j] = mid
            force[j + 1] = mid
          else:
            y = -K0 / K1
            if y < -mid:
              force[j] = 0.0
              force[j + 1] = 2 * mid
            elif y > mid:
              force[j] = 2 * mid
              force[j + 1] = 0.0
            else:
              force[j] = mid + y
              force[j + 1] = mid - y
          improvement -= _cost_change(Ac, force, j, oldforce, res, 2, delta)
        c += 2 * (dim - 1)

      elif d.efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC:
        con = d.efc_id[i]
        dim = d.contact_dim[con]
        mu = d.contact_friction[con]
        n1 = dim - 1
        _residual(d, sparse, res, i + 1, n1, True)
        for j in range(n1):
          oldforce[j] = force[i + 1 + j]
        _extract_block(d, sparse, Ac, i + 1, n1, True)
        for j in range(n1):
          bc[j] = res[j] - mju_dot(Ac[j * n1 : (j + 1) * n1], oldforce, n1)

        # QCQP with the normal force fixed
        if force[i] < mjMINVAL:
          for j in range(n1):
            force[i + 1 + j] = 0.0
        else:
          _qcqp(v, Ac, bc, mu, force[i], dim, qwork)
          for j in range(n1):
            force[i + 1 + j] = v[j]
        improvement -= _cost_change(Ac, force, i + 1, oldforce, res, n1, delta)
        c += dim

      else:
        c += 1

    # states and statistics, after the main solver's
    nactive, nchange = dual_state(m, d, d.efc_state, rows)
    improvement *= scale
    if island < mjNISLAND:
      save_stats(
        d, island, it + d.solver_niter[stat], improvement, 0.0, 0.0, nactive, nchange, 0, 0
      )
    it += 1
    if improvement < m.opt.noslip_tolerance[0]:
      break

  if island < mjNISLAND:
    d.solver_niter[stat] += it
