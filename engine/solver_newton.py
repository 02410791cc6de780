"""Primal solvers CG and Newton (port of mj_solPrimal and its helpers, engine_solver.c).

Both minimize the Gauss cost 0.5*(qacc-qacc_smooth)'*M*(qacc-qacc_smooth) plus the
constraint cost s(J*qacc-aref) over qacc, with MuJoCo's exact line search. CG uses
Polak-Ribiere directions preconditioned by M; Newton uses the Hessian H = M + J'*D*J of the
active rows (plus cone Hessians of elliptic contacts in the middle zone) through its
Cholesky factor, updated incrementally as rows change state. Models with the dense Jacobian
factor H densely in d.scratch_H (d.scratch_Hcone with the cone terms); with the sparse layout
H is built sparse from J and its transpose (d.scratch_JT) and factored by MuJoCo's reverse
sparse Cholesky (engine/sparse.py), whose pattern follows the kinematic tree, in
d.scratch_H/_Hcone and their index fields (an island too large for them allocates its own).
With the sparse layout J'*force is also summed over the rows of J's transpose, in MuJoCo's
order. Their vectors are the named d.scratch_* fields of
engine/fields.py (Jaref in scratch_jar, the line-search quadratics in scratch_quad).

Each constraint island is solved on its own (MuJoCo 3.17 unless mjDSBL_ISLAND), on its own
blocks of M and J: gather_islands copies the solver's inputs to the island-major i* fields
(iacc, iefc_aref, ...), cg_newton solves one island on its contiguous slices and on the
island's blocks of M and J built in d.scratch_iM and d.scratch_iJ, and scatter_islands writes
qacc, qfrc_constraint and efc_force back. A monolithic solve (no islands) is the same code on
one island of every dof and row, reading M and J in place. The island's vectors being
contiguous keeps every dot product summed in MuJoCo's order.
"""

import math

import numpy as np

from engine._jit import inline_jit
from engine._jit import jit
from engine._jit import local_array
from engine._stage import PRIMAL
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import stage
from engine.enums import mjCNSTR_CONTACT_ELLIPTIC
from engine.enums import mjCNSTRSTATE_CONE
from engine.enums import mjCNSTRSTATE_QUADRATIC
from engine.enums import mjCNSTRSTATE_SATISFIED
from engine.enums import mjCONE_ELLIPTIC
from engine.enums import mjMINVAL
from engine.enums import mjNISLAND
from engine.island import copy_row_inputs
from engine.math import add_to_scl_at
from engine.math import mju_cholFactor
from engine.math import mju_cholSolve
from engine.math import mju_cholUpdate
from engine.math import mju_dot
from engine.math import mju_norm
from engine.solver_common import inertia_scale
from engine.solver_common import is_sparse
from engine.solver_common import jac_row
from engine.solver_common import jac_t_vec
from engine.solver_common import jac_vec
from engine.solver_common import save_stats
from engine.solver_common import update_rows
from engine.sparse import add_to_mat_sparse
from engine.sparse import chol_factor_sparse
from engine.sparse import chol_pattern
from engine.sparse import chol_solve_sparse
from engine.sparse import chol_update_sparse
from engine.sparse import dot_sparse
from engine.sparse import mul_sym_vec
from engine.sparse import solve_ld
from engine.sparse import sqr_mat_td_pattern
from engine.sparse import sqr_mat_td_values
from engine.sparse import super_rows
from engine.sparse import transpose

# ---- one island's slices and blocks ----
# An island is described by c = (nv, ne, nf, nefc, dofadr, efcadr, nJ, whole): its dofs are
# d.iacc[dofadr:dofadr+nv] (and the other i* dof vectors), its rows d.iefc_*[efcadr:efcadr+nefc]
# (ne equalities first, then nf friction loss rows), nJ the nonzeros of its Jacobian block;
# whole: the island is every dof and row in their own order (no islands, or a single one),
# so its blocks of M and J are d's own and are not copied.


@inline_jit
def _dofs(arr, c):
  """The island's slice of an island-major dof vector."""
  return arr[c[4] : c[4] + c[0]]


@inline_jit
def _rows(arr, c):
  """The island's slice of an island-major row vector."""
  return arr[c[5] : c[5] + c[3]]


@jit
def gather_islands(m, d, monolithic):
  """The primal solvers' inputs in island-major order (mj_fwdConstraint's gathers); monolithic:
  every dof and row in their own order, one island."""
  nv = m.nv if monolithic else d.nidof[0]
  for k in range(nv):
    dof = k if monolithic else d.map_idof2dof[k]
    d.ifrc_smooth[k] = d.qfrc_smooth[dof]
    d.iacc_smooth[k] = d.qacc_smooth[dof]
    d.ifrc_constraint[k] = d.qfrc_constraint[dof]
    d.iacc[k] = d.qacc[dof]
  for k in range(d.nefc[0]):
    i = k if monolithic else d.map_iefc2efc[k]
    d.iefc_force[k] = d.efc_force[i]
    d.iefc_aref[k] = d.efc_aref[i]
    if monolithic:
      copy_row_inputs(d, k, i)  # (island.py copies them for islands)


@jit
def scatter_islands(m, d, monolithic):
  """qacc, qfrc_constraint and efc_force from the island-major solution. As MuJoCo, efc_state
  keeps the warm start's states when solved by islands (iefc_state has the solution's)."""
  nv = m.nv if monolithic else d.nidof[0]
  for k in range(nv):
    dof = k if monolithic else d.map_idof2dof[k]
    d.qacc[dof] = d.iacc[k]
    d.qfrc_constraint[dof] = d.ifrc_constraint[k]
  for k in range(d.nefc[0]):
    i = k if monolithic else d.map_iefc2efc[k]
    d.efc_force[i] = d.iefc_force[k]
    if monolithic:
      d.efc_state[i] = d.iefc_state[k]


@jit
def _island_blocks(m, d, island):
  """Island `island`'s block of M (and qLD) in d.scratch_iM* and of J in d.scratch_iJ*, dofs
  and columns renumbered in island order (mju_blockSparse, mju_block); island -1, or an island
  of every dof: all of M and J, used in place. Returns the island's c."""
  sparse = is_sparse(m)
  if island < 0:
    nv = m.nv
    ne = d.ne[0]
    nf = d.nf[0]
    nefc = d.nefc[0]
    dofadr = 0
    efcadr = 0
  else:
    nv = d.island_nv[island]
    ne = d.island_ne[island]
    nf = d.island_nf[island]
    nefc = d.island_nefc[island]
    dofadr = d.island_idofadr[island]
    efcadr = d.island_iefcadr[island]
  if island < 0 or (nv == m.nv and nefc == d.nefc[0]):
    nJ = d.nJ[0] if sparse else nefc * nv
    return (nv, ne, nf, nefc, dofadr, efcadr, nJ, 1)

  # M, qLD and qLDiagInv: rows of the island's dofs (a dof's row holds only its own tree)
  # (arrays taken into locals once: a store through one cannot then make the loops reload the
  # others from the struct)
  map_idof2dof, map_dof2idof = d.map_idof2dof, d.map_dof2idof
  M_rownnz, M_rowadr, M_colind = m.M_rownnz, m.M_rowadr, m.M_colind
  M, qLD, qLDiagInv = d.M, d.qLD, d.qLDiagInv
  iM_rownnz, iM_rowadr, iM_colind = d.scratch_iM_rownnz, d.scratch_iM_rowadr, d.scratch_iM_colind
  iM, iLD, iLDiagInv = d.scratch_iM, d.scratch_iLD, d.scratch_iLDiagInv
  # (unsigned positions in the copy loops: no negative-index wraparound, whose array lengths
  # crowded the registers)
  one = np.uint64(1)
  adr = 0
  for i in range(nv):
    dof = map_idof2dof[dofadr + i]
    nnz = M_rownnz[dof]
    iM_rownnz[i] = nnz
    iM_rowadr[i] = adr
    a = np.uint64(adr)
    b = np.uint64(M_rowadr[dof])
    for _ in range(nnz):
      iM_colind[a] = map_dof2idof[np.uint64(M_colind[b])] - dofadr
      iM[a] = M[b]
      iLD[a] = qLD[b]
      a += one
      b += one
    iLDiagInv[i] = qLDiagInv[dof]
    adr += nnz

  # J: the island's rows, its dofs' columns
  map_iefc2efc = d.map_iefc2efc
  J, J_rownnz, J_rowadr, J_colind = d.efc_J, d.efc_J_rownnz, d.efc_J_rowadr, d.efc_J_colind
  J_rowsuper, iJ_rowsuper = d.efc_J_rowsuper, d.scratch_iJ_rowsuper
  iJ, iJ_rownnz, iJ_rowadr, iJ_colind = (
    d.scratch_iJ,
    d.scratch_iJ_rownnz,
    d.scratch_iJ_rowadr,
    d.scratch_iJ_colind,
  )
  nJ = 0
  for r in range(nefc):
    row = map_iefc2efc[efcadr + r]
    if sparse:
      nnz = J_rownnz[row]
      iJ_rownnz[r] = nnz
      iJ_rowadr[r] = nJ
      # rows sharing their columns share their trees, hence their island, where they follow
      # each other as in d: the island's rowsuper is d's (J*x takes them three at a time)
      iJ_rowsuper[r] = J_rowsuper[row]
      a = np.uint64(nJ)
      b = np.uint64(J_rowadr[row])
      for _ in range(nnz):
        iJ_colind[a] = map_dof2idof[np.uint64(J_colind[b])] - dofadr
        iJ[a] = J[b]
        a += one
        b += one
      nJ += nnz
    else:
      for k in range(nv):
        iJ[nJ + k] = J[row * m.nv + map_idof2dof[dofadr + k]]
      nJ += nv
  return (nv, ne, nf, nefc, dofadr, efcadr, nJ, 0)


@inline_jit
def _m_block(m, d, c):
  """The island's (M, qLD, qLDiagInv, rownnz, rowadr, colind)."""
  if c[7]:
    return d.M, d.qLD, d.qLDiagInv, m.M_rownnz, m.M_rowadr, m.M_colind
  return (
    d.scratch_iM,
    d.scratch_iLD,
    d.scratch_iLDiagInv,
    d.scratch_iM_rownnz,
    d.scratch_iM_rowadr,
    d.scratch_iM_colind,
  )


@inline_jit
def _j_block(d, c):
  """The island's (J, rownnz, rowadr, colind)."""
  if c[7]:
    return d.efc_J, d.efc_J_rownnz, d.efc_J_rowadr, d.efc_J_colind
  return d.scratch_iJ, d.scratch_iJ_rownnz, d.scratch_iJ_rowadr, d.scratch_iJ_colind


@inline_jit
def _mul_m(m, d, c, res, vec):
  """res = M*vec on the island's block."""
  M, _, _, rownnz, rowadr, colind = _m_block(m, d, c)
  mul_sym_vec(res, M, vec, c[0], rownnz, rowadr, colind)


@inline_jit
def _mul_j(d, c, sparse, res, vec):
  """res = J*vec on the island's block."""
  J, rownnz, rowadr, colind = _j_block(d, c)
  rowsuper = d.efc_J_rowsuper if c[7] else d.scratch_iJ_rowsuper
  jac_vec(J, rownnz, rowadr, colind, rowsuper, sparse, c[3], c[0], res, vec)


@inline_jit
def _j_row(d, c, sparse, i, res):
  """res = island row i of J as a dense vector over the island's dofs."""
  J, rownnz, rowadr, colind = _j_block(d, c)
  jac_row(J, rownnz, rowadr, colind, sparse, c[0], i, res)


# ---- cost along the search line ----


@jit
def _prepare(m, d, c):
  """Port of CGprepare: quadratic polynomials of every row along the search direction.

  Row i's polynomial is (quad0[i], quad1[i], quad2[i]); an elliptic contact stores its cone
  terms (U0, V0, UU, UV, VV, Dm) in the slots of its next two rows. Returns the Gauss
  polynomial's linear and quadratic coefficients.
  """
  nv = c[0]
  nefc = c[3]
  v = d.scratch_search
  Ma = d.scratch_Ma
  Mv = d.scratch_Mv
  Jaref = d.scratch_jar
  Jv = d.scratch_Jv
  q0 = d.scratch_quad[0]
  q1 = d.scratch_quad[1]
  q2 = d.scratch_quad[2]
  D = _rows(d.iefc_D, c)
  efc_type = _rows(d.iefc_type, c)
  efc_id = _rows(d.iefc_id, c)

  # Gauss: alpha^2*0.5*v'*M*v + alpha*v'*(Ma-qfrc_smooth) + Gauss(qacc)
  qg1 = mju_dot(v, Ma, nv) - mju_dot(_dofs(d.ifrc_smooth, c), v, nv)
  qg2 = 0.5 * mju_dot(v, Mv, nv)

  i = 0
  while i < nefc:
    # scalar quadratic
    DJ0 = D[i] * Jaref[i]
    a0 = Jaref[i] * DJ0
    a1 = Jv[i] * DJ0
    a2 = Jv[i] * D[i] * Jv[i]
    step = 1

    # elliptic cone: vector quadratic for the bottom zone, cone terms for the middle zone
    if efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC:
      con = efc_id[i]
      dim = d.contact_dim[con]
      mu = d.contact_mu[con]
      friction = d.contact_friction[con]
      for j in range(1, dim):
        DJj = D[i + j] * Jaref[i + j]
        a0 += Jaref[i + j] * DJj
        a1 += Jv[i + j] * DJj
        a2 += Jv[i + j] * D[i + j] * Jv[i + j]

      # rescale to make the primal cone circular
      UU = 0.0
      UV = 0.0
      VV = 0.0
      for j in range(1, dim):
        Uj = Jaref[i + j] * friction[j - 1]
        Vj = Jv[i + j] * friction[j - 1]
        UU += Uj * Uj
        UV += Uj * Vj
        VV += Vj * Vj
      q0[i + 1] = Jaref[i] * mu
      q1[i + 1] = Jv[i] * mu
      q2[i + 1] = UU
      q0[i + 2] = UV
      q1[i + 2] = VV
      q2[i + 2] = D[i] / ((mu * mu) * (1 + (mu * mu)))
      step = dim

    q0[i] = 0.5 * a0
    q1[i] = a1
    q2[i] = 0.5 * a2
    i += step
  return qg1, qg2


@jit
def _friction_cost(x, f, Rf, D):
  """Huber cost of a friction loss row at x: quadratic inside +-R*floss, linear outside."""
  if -Rf < x and x < Rf:
    return 0.5 * D * x * x
  if x <= -Rf:
    return f * (-0.5 * Rf - x)
  return f * (-0.5 * Rf + x)


@jit
def _friction_cost_dif(start, x, f, Rf, D):
  """cost(x) - cost(start) of a friction loss row, without cancellation within one zone."""
  zone0 = 0 if -Rf < start and start < Rf else (-1 if start <= -Rf else 1)
  zone = 0 if -Rf < x and x < Rf else (-1 if x <= -Rf else 1)
  if zone0 == 0 and zone == 0:
    return 0.5 * D * (x - start) * (x + start)
  if zone0 == -1 and zone == -1:
    return f * (start - x)
  if zone0 == 1 and zone == 1:
    return f * (x - start)
  return _friction_cost(x, f, Rf, D) - _friction_cost(start, f, Rf, D)


@jit
def _cone_zone(N, Tsqr, mu):
  """Zone of an elliptic cone's (normal, squared tangential) point: 1 top (satisfied), 2 bottom
  (quadratic), 3 middle (cone); and the tangential norm."""
  if Tsqr <= 0:
    return (2 if N < 0 else 1), 0.0
  T = math.sqrt(Tsqr)
  if N >= mu * T:
    return 1, T
  if mu * N + T <= 0:
    return 2, T
  return 3, T


@jit
def _elliptic_cost_dif(q0, q1, q2, U0, V0, UU, UV, VV, Dm, alpha, mu):
  """cost(alpha) - cost(0) of an elliptic contact (port of ellipticCostDif): by the zones at
  0 and at alpha, with the middle-zone difference rationalized against cancellation."""
  zone0, T0 = _cone_zone(U0, UU, mu)
  N = U0 + alpha * V0
  zone, T = _cone_zone(N, UU + alpha * (2 * UV + alpha * VV), mu)
  if zone0 == 1 and zone == 1:
    return 0.0
  if zone0 == 2 and zone == 2:
    return alpha * alpha * q2 + alpha * q1
  if zone0 == 3 and zone == 3:
    T_delta = alpha * (2 * UV + alpha * VV) / (T + T0)
    r_delta = alpha * V0 - mu * T_delta
    return 0.5 * Dm * r_delta * (2 * (U0 - mu * T0) + r_delta)
  if zone0 == 3 and zone == 2:
    b = mu * U0 + T0
    return alpha * (alpha * q2 + q1) + 0.5 * Dm * b * b
  if zone0 == 2 and zone == 3:
    b = mu * N + T
    return alpha * (alpha * q2 + q1) - 0.5 * Dm * b * b
  if zone0 == 1 and zone == 2:
    return alpha * alpha * q2 + alpha * q1 + q0
  if zone0 == 1 and zone == 3:
    r = N - mu * T
    return 0.5 * Dm * r * r
  if zone0 == 3 and zone == 1:
    r0 = U0 - mu * T0
    return -0.5 * Dm * r0 * r0
  if zone0 == 2 and zone == 1:
    return -q0
  return 0.0


@jit
def _eval(m, d, c, alpha, qg1, qg2):
  """Port of PrimalEval: (cost(alpha) - cost(0), first, second derivative) of the total cost at
  qacc+alpha*search. Costs are relative to the current point (MuJoCo 3.17), so that small
  improvements do not cancel against the total."""
  ne = c[1]
  nf = c[2]
  nefc = c[3]
  Jaref = d.scratch_jar
  Jv = d.scratch_Jv
  q0 = d.scratch_quad[0]
  q1 = d.scratch_quad[1]
  q2 = d.scratch_quad[2]
  efc_D = _rows(d.iefc_D, c)
  efc_R = _rows(d.iefc_R, c)
  floss = _rows(d.iefc_frictionloss, c)
  efc_type = _rows(d.iefc_type, c)
  efc_id = _rows(d.iefc_id, c)
  cost = 0.0
  deriv0 = 0.0
  deriv1 = 0.0

  # total quadratic, starting with Gauss (its constant term dropped)
  t0 = 0.0
  t1 = qg1
  t2 = qg2
  i = 0
  while i < nefc:
    # equality
    if i < ne:
      t1 += q1[i]
      t2 += q2[i]
      i += 1
      continue

    # friction loss: quadratic inside +-R*floss, linear outside
    if i < ne + nf:
      start = Jaref[i]
      dr = Jv[i]
      x = start + alpha * dr
      f = floss[i]
      D = efc_D[i]
      Rf = efc_R[i] * f
      cost += _friction_cost_dif(start, x, f, Rf, D)
      if -Rf < x and x < Rf:
        deriv0 += D * x * dr
        deriv1 += D * dr * dr
      elif x <= -Rf:
        deriv0 += -f * dr
      else:
        deriv0 += f * dr
      i += 1
      continue

    # elliptic cone
    if efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC:
      con = efc_id[i]
      dim = d.contact_dim[con]
      mu = d.contact_mu[con]
      U0 = q0[i + 1]
      V0 = q1[i + 1]
      UU = q2[i + 1]
      UV = q0[i + 2]
      VV = q1[i + 2]
      Dm = q2[i + 2]
      cost += _elliptic_cost_dif(q0[i], q1[i], q2[i], U0, V0, UU, UV, VV, Dm, alpha, mu)
      N = U0 + alpha * V0
      zone, T = _cone_zone(N, UU + alpha * (2 * UV + alpha * VV), mu)
      if zone == 2:
        deriv0 += 2 * alpha * q2[i] + q1[i]
        deriv1 += 2 * q2[i]
      elif zone == 3:
        N1 = V0
        T1 = (UV + alpha * VV) / T
        T2 = VV / T - (UV + alpha * VV) * T1 / (T * T)
        deriv0 += Dm * (N - mu * T) * (N1 - mu * T1)
        deriv1 += Dm * ((N1 - mu * T1) * (N1 - mu * T1) + (N - mu * T) * (-mu * T2))
      i += dim
      continue

    # limits and other contacts: active when negative; shifted by the cost at alpha = 0
    start = Jaref[i]
    x = start + alpha * Jv[i]
    cost0 = q0[i] if start < 0 else 0.0
    if x < 0:
      t0 += q0[i] - cost0
      t1 += q1[i]
      t2 += q2[i]
    else:
      cost -= cost0
    i += 1

  # add the total quadratic
  cost += alpha * alpha * t2 + alpha * t1 + t0
  deriv0 += 2 * alpha * t2 + t1
  deriv1 += 2 * t2

  # convexity guard (should not occur)
  if deriv1 <= 0:
    deriv1 = mjMINVAL
  return cost, deriv0, deriv1


@jit
def _update_bracket(m, d, c, p, c1, c2, c3, qg1, qg2):
  """Port of updateBracket: move bracket end p to the best candidate on its side.

  Points are (alpha, cost, deriv0, deriv1). Returns (flag, p, pnext, evaluations).
  """
  flag = 0
  for k in range(3):
    cand = c1 if k == 0 else (c2 if k == 1 else c3)
    if p[2] < 0 and cand[2] < 0 and p[2] < cand[2]:
      p = cand
      flag = 1
    elif p[2] > 0 and cand[2] > 0 and p[2] > cand[2]:
      p = cand
      flag = 2
  pnext = p
  neval = 0
  if flag:
    a = p[0] - p[2] / p[3]
    cost, d0, d1 = _eval(m, d, c, a, qg1, qg2)
    pnext = (a, cost, d0, d1)
    neval = 1
  return flag, p, pnext, neval


@jit
def _search(m, d, c, sparse, scale):
  """Port of PrimalSearch: exact line search along the scratch search vector, with costs
  relative to the current point.

  Returns (alpha, lsiter, lsslope, improvement): alpha 0 means no improvement; improvement is
  the cost decrease at alpha.
  """
  nv = c[0]
  ls_iterations = m.opt.ls_iterations[0]
  search = d.scratch_search
  lsiter = 0

  # search vector length
  snorm = mju_norm(search, nv)
  if snorm < mjMINVAL:
    return 0.0, lsiter, 1.0, 0.0

  # scaled gradient tolerance and slope scaling
  gtol = m.opt.tolerance[0] * m.opt.ls_tolerance[0] * snorm / scale
  slopescl = scale / snorm

  # Mv, Jv and the quadratics
  _mul_m(m, d, c, d.scratch_Mv, search)
  _mul_j(d, c, sparse, d.scratch_Jv, search)
  qg1, qg2 = _prepare(m, d, c)

  # alpha = 0
  f, g, h = _eval(m, d, c, 0.0, qg1, qg2)
  p0 = (0.0, f, g, h)
  lsiter += 1

  # one Newton step
  a = p0[0] - p0[2] / p0[3]
  f, g, h = _eval(m, d, c, a, qg1, qg2)
  p1 = (a, f, g, h)
  lsiter += 1

  # initial convergence
  if abs(p1[2]) < gtol and (p1[0] == 0 or p1[1] < 0):
    return p1[0], lsiter, abs(p1[2]) * slopescl, -p1[1]

  # one-sided search
  dr = 1 if p1[2] < 0 else -1
  p2 = p0
  while p1[2] * dr <= -gtol and lsiter < ls_iterations:
    p2 = p1
    a = p1[0] - p1[2] / p1[3]
    f, g, h = _eval(m, d, c, a, qg1, qg2)
    p1 = (a, f, g, h)
    lsiter += 1
    if abs(p1[2]) < gtol and p1[1] < 0:
      return p1[0], lsiter, abs(p1[2]) * slopescl, -p1[1]

  # failure to bracket
  if lsiter >= ls_iterations:
    return p1[0], lsiter, abs(p1[2]) * slopescl, -p1[1]

  # next points of the bracket
  p2next = p1
  a = p1[0] - p1[2] / p1[3]
  f, g, h = _eval(m, d, c, a, qg1, qg2)
  p1next = (a, f, g, h)
  lsiter += 1

  # bracketed search
  while lsiter < ls_iterations:
    a = 0.5 * (p1[0] + p2[0])
    f, g, h = _eval(m, d, c, a, qg1, qg2)
    pmid = (a, f, g, h)
    lsiter += 1

    # converged candidates: take the cheapest
    bestcost = 0.0
    bestind = -1
    for k in range(3):
      cand = p1next if k == 0 else (p2next if k == 1 else pmid)
      if abs(cand[2]) < gtol and (bestind == -1 or cand[1] < bestcost):
        bestcost = cand[1]
        bestind = k
    if bestind >= 0:
      cand = p1next if bestind == 0 else (p2next if bestind == 1 else pmid)
      return cand[0], lsiter, abs(cand[2]) * slopescl, -cand[1]

    # update the brackets (both from the same candidates)
    c1 = p1next
    c2 = p2next
    b1, p1, pn, n1 = _update_bracket(m, d, c, p1, c1, c2, pmid, qg1, qg2)
    if b1:
      p1next = pn
    b2, p2, pn, n2 = _update_bracket(m, d, c, p2, c1, c2, pmid, qg1, qg2)
    if b2:
      p2next = pn
    lsiter += n1 + n2

    # no update possible: numerical accuracy reached, use the midpoint
    if not b1 and not b2:
      return pmid[0], lsiter, abs(pmid[2]) * slopescl, -pmid[1]

  # best bracket end, if it improves
  if p1[1] <= p2[1] and p1[1] < 0:
    return p1[0], lsiter, abs(p1[2]) * slopescl, -p1[1]
  if p2[1] <= p1[1] and p2[1] < 0:
    return p2[0], lsiter, abs(p2[2]) * slopescl, -p2[1]
  return 0.0, lsiter, 1.0, 0.0


# ---- Newton Hessian ----
# fac = (H, L, Lcone, H_colind, HT_colind, L_colind, LT_colind, LT_map, nH, nL, Lwork).
# Dense: L holds H = M + J'*D*J (nv x nv) and then its Cholesky factor in place, Lcone the
# factor with the cone Hessians. Sparse layout (port of MakeHessian's sparse branch): H in CSR
# with its rows' rownnz/rowadr in d.scratch_hess_rows[0:2] (those of H' in [2:4], of L in
# [4:6], of L' in [6:8]) and L, Lcone reverse Cholesky factors in the pattern found once per
# solve; nH and nL count their entries (nH with room for M, as MuJoCo's solver_nnz). With
# elliptic cones, scratch_hess_rows[8] holds each row's rank-1 update cost (its entries of L
# plus its elimination-tree parent's cost) and Lwork the factorization's (sum of rownnz^2):
# MuJoCo 3.17 weighs them to add cone Hessians by updates or by refactoring (_fold_cones).


@jit
def _dense_factor(d, nv):
  """fac of a dense Hessian of nv dofs: d's kept pair, or a new one when it does not fit."""
  L = d.scratch_H
  Lcone = d.scratch_Hcone
  if nv * nv > L.shape[0]:
    L = np.empty(nv * nv)
    Lcone = np.empty(nv * nv)
  none = d.scratch_H_ind[:0]
  return (L, L, Lcone, none, none, none, none, none, 0, 0, 0)


@jit
def _hessian_D(d, c):
  """D = efc_D of the quadratic rows, 0 elsewhere: each row's weight in the Hessian."""
  efc_D = _rows(d.iefc_D, c)
  state = _rows(d.iefc_state, c)
  D = d.scratch_hess_D
  for i in range(c[3]):
    D[i] = efc_D[i] if state[i] == mjCNSTRSTATE_QUADRATIC else 0.0
  return D


@jit
def _hessian(m, d, c, H):
  """Dense H = M + J'*diag(D)*J, lower triangle of an nv x nv matrix (MakeHessian's dense
  branch, mju_sqrMatTD then mju_addToSymSparse)."""
  nv = c[0]
  nefc = c[3]
  D = _hessian_D(d, c)
  J = _j_block(d, c)[0]
  for k in range(nv * nv):
    H[k] = 0.0
  for j in range(nefc):
    if D[j] == 0:
      continue
    for i in range(nv):
      tmp = J[j * nv + i]
      if tmp != 0:
        add_to_scl_at(H, i * nv, J, j * nv, tmp * D[j], i + 1)
  M, _, _, M_rownnz, M_rowadr, M_colind = _m_block(m, d, c)
  for i in range(nv):
    start = M_rowadr[i]
    for adr in range(start, start + M_rownnz[i]):
      H[i * nv + M_colind[adr]] += M[adr]


@jit
def _sparse_hessian_values(m, d, c, H, H_colind):
  """Sparse H = J'*diag(D)*J + M in place: J'*D*J's pattern and values at H's row addresses
  (which leave room for M), then M merged in (mju_sqrMatTDSparse*, mju_addToMatSparse)."""
  nv = c[0]
  rows = d.scratch_hess_rows
  work = d.scratch_hess_work
  J, J_rownnz, J_rowadr, J_colind = _j_block(d, c)
  sqr_mat_td_pattern(
    rows[0],
    rows[1],
    H_colind,
    True,
    c[3],
    nv,
    J_rownnz,
    J_rowadr,
    J_colind,
    d.scratch_JT_rownnz,
    d.scratch_JT_rowadr,
    d.scratch_JT_colind,
    d.scratch_JT_rowsuper,
    work[0],
    work[1],
    d.scratch_hess_rowstart,
  )
  sqr_mat_td_values(
    H,
    nv,
    rows[0],
    rows[1],
    H_colind,
    J,
    J_rownnz,
    J_rowadr,
    J_colind,
    d.scratch_JT,
    d.scratch_JT_rownnz,
    d.scratch_JT_rowadr,
    d.scratch_JT_colind,
    d.scratch_JT_rowsuper,
    d.scratch_hess_D,
    d.scratch_hess_dense,
  )
  M, _, _, M_rownnz, M_rowadr, M_colind = _m_block(m, d, c)
  add_to_mat_sparse(H, rows[0], rows[1], H_colind, nv, M, M_rownnz, M_rowadr, M_colind)


@jit
def _sparse_hessian(m, d, c):
  """Port of MakeHessian's sparse branch: H = J'*D*J + M in CSR and the pattern of its reverse
  Cholesky factor; returns fac (in d's scratch when it fits, else in new arrays)."""
  nv = c[0]
  rows = d.scratch_hess_rows
  work = d.scratch_hess_work
  _hessian_D(d, c)

  # entries of J'*D*J, plus room for M's (an overcount, as MuJoCo's)
  _, J_rownnz, J_rowadr, J_colind = _j_block(d, c)
  super_rows(
    d.scratch_JT_rowsuper, d.scratch_JT_rownnz, d.scratch_JT_rowadr, d.scratch_JT_colind, nv
  )
  nH = sqr_mat_td_pattern(
    rows[0],
    rows[1],
    work[5],
    False,
    c[3],
    nv,
    J_rownnz,
    J_rowadr,
    J_colind,
    d.scratch_JT_rownnz,
    d.scratch_JT_rowadr,
    d.scratch_JT_colind,
    d.scratch_JT_rowsuper,
    work[0],
    work[1],
    d.scratch_hess_rowstart,
  )
  _, _, _, M_rownnz, M_rowadr, _ = _m_block(m, d, c)
  nH = int(nH) + int(M_rowadr[nv - 1] + M_rownnz[nv - 1])
  if nH <= d.scratch_H.shape[0] and 2 * nH <= d.scratch_H_ind.shape[0]:
    H = d.scratch_H[:nH]
    H_ind = d.scratch_H_ind
  else:
    H = np.empty(nH)
    H_ind = np.empty(2 * nH, np.int32)
  H_colind = H_ind[:nH]
  HT_colind = H_ind[nH : 2 * nH]
  shift = 0
  for r in range(nv - 1):
    shift += M_rownnz[r]
    rows[1][r + 1] += shift
  _sparse_hessian_values(m, d, c, H, H_colind)

  # H' (the upper triangle's pattern), then the factor's pattern
  transpose(H, rows[2], rows[3], HT_colind, H, rows[0], rows[1], H_colind, nv, nv, False)
  nL = chol_pattern(
    work[5],
    rows[4],
    rows[5],
    work[5],
    rows[6],
    rows[7],
    work[5],
    False,
    rows[2],
    rows[3],
    HT_colind,
    nv,
    work[0],
    work[1],
    work[2],
    work[3],
  )
  nL = int(nL)
  if 2 * nL <= d.scratch_Hcone.shape[0] and 3 * nL <= d.scratch_L_ind.shape[0]:
    Lboth = d.scratch_Hcone
    L_ind = d.scratch_L_ind
  else:
    Lboth = np.empty(2 * nL)
    L_ind = np.empty(3 * nL, np.int32)
  L_colind = L_ind[:nL]
  LT_colind = L_ind[nL : 2 * nL]
  LT_map = L_ind[2 * nL : 3 * nL]
  chol_pattern(
    L_colind,
    rows[4],
    rows[5],
    LT_colind,
    rows[6],
    rows[7],
    LT_map,
    True,
    rows[2],
    rows[3],
    HT_colind,
    nv,
    work[0],
    work[1],
    work[2],
    work[3],
  )

  # elliptic: costs of rank-1 updates from each row and of a factorization
  Lwork = 0
  if m.opt.cone[0] == mjCONE_ELLIPTIC:
    L_rownnz = rows[4]
    cost = rows[8]
    for r in range(nv):
      nnz = L_rownnz[r]
      cost[r] = nnz
      if nnz >= 2:
        cost[r] += cost[L_colind[rows[5][r] + nnz - 2]]
      Lwork += nnz * nnz
  return (
    H,
    Lboth[:nL],
    Lboth[nL : 2 * nL],
    H_colind,
    HT_colind,
    L_colind,
    LT_colind,
    LT_map,
    nH,
    nL,
    Lwork,
  )


@jit
def _cone_factor(d, con, local):
  """local = the Cholesky factor of contact con's cone Hessian (dim x dim); returns dim."""
  dim = d.contact_dim[con]
  H = d.contact_H[con]
  for k in range(dim * dim):
    local[k] = H[k]
  mju_cholFactor(local, dim, mjMINVAL)
  return dim


@jit
def _cone_rows(dst, in_place, J, J_rowadr, i, dim, nnz, local):
  """The rows of L'*J of the contact at sparse row i (L its local factor, every row of the
  contact over the same nnz columns), summed in MuJoCo's order: row col into
  dst[J_rowadr[i+col]:] when in_place (over J's own rows, in a copy of J), else dst[col*nnz:]."""
  for col in range(dim):
    adr = J_rowadr[i + col] if in_place else col * nnz
    for k in range(nnz):
      dst[adr + k] = 0.0
    for r in range(col, dim):
      add_to_scl_at(dst, adr, J, J_rowadr[i + r], local[r * dim + col], nnz)


@jit
def _fold_cones(d, c, Lwork):
  """MuJoCo 3.17's choice for the sparse cone Hessians: 1 to fold them into H and refactor,
  when the rank-1 updates they need (each from its contact's last dof up the elimination
  tree) are estimated to cost more than building and factoring H anew."""
  nefc = c[3]
  state = _rows(d.iefc_state, c)
  efc_id = _rows(d.iefc_id, c)
  _, J_rownnz, J_rowadr, J_colind = _j_block(d, c)
  cost = d.scratch_hess_rows[8]
  update = 0
  refactor = 0
  i = 0
  while i < nefc:
    nnz = J_rownnz[i]
    if state[i] == mjCNSTRSTATE_CONE:
      dim = d.contact_dim[efc_id[i]]
      update += dim * cost[J_colind[J_rowadr[i] + nnz - 1]]
      refactor += dim * nnz * nnz
      i += dim
    else:
      if state[i] == mjCNSTRSTATE_QUADRATIC:
        refactor += nnz * nnz
      i += 1
  return 1 if 10 * update > 3 * (2 * refactor + Lwork) else 0


@jit
def _hessian_cone_folded(m, d, c, fac):
  """Lcone = chol(M + W'*D2*W), W = J with each cone contact's rows replaced by its local
  factor times them (L'*J, weight 1) and D2 the quadratic rows' efc_D: the cone terms folded
  into the Hessian and refactored (MuJoCo 3.17's sparse HessianCone). H and D are not read
  again until the next refactorization recomputes them, so H+cones and D2 take their place.
  Returns nupdate."""
  nv = c[0]
  nefc = c[3]
  Hc, _, Lcone, H_colind, _, L_colind, LT_colind, LT_map, _, _, _ = fac  # H is spent: reuse
  state = _rows(d.iefc_state, c)
  efc_id = _rows(d.iefc_id, c)
  J, J_rownnz, J_rowadr, J_colind = _j_block(d, c)
  rows = d.scratch_hess_rows
  local = local_array(36)
  size = J_rowadr[nefc - 1] + J_rownnz[nefc - 1]
  W = d.scratch_cone_W
  WT = d.scratch_cone_WT
  if size > W.shape[0]:  # made dense or pyramidal, switched after MjData
    W = np.empty(size)
    WT = np.empty(size)
  for k in range(size):
    W[k] = J[k]
  D2 = _hessian_D(d, c)  # D is spent too: the quadratic rows' weights, cone rows' set below
  nupdate = 0
  i = 0
  while i < nefc:
    if state[i] != mjCNSTRSTATE_CONE:
      i += 1
      continue
    dim = _cone_factor(d, efc_id[i], local)
    _cone_rows(W, True, J, J_rowadr, i, dim, J_rownnz[i], local)
    for col in range(dim):
      D2[i + col] = 1.0
    nupdate += dim
    i += dim

  # W' has J's pattern: the transpose rewrites d.scratch_JT's pattern as it was
  transpose(
    WT,
    d.scratch_JT_rownnz,
    d.scratch_JT_rowadr,
    d.scratch_JT_colind,
    W,
    J_rownnz,
    J_rowadr,
    J_colind,
    nefc,
    nv,
  )
  sqr_mat_td_values(
    Hc,
    nv,
    rows[0],
    rows[1],
    H_colind,
    W,
    J_rownnz,
    J_rowadr,
    J_colind,
    WT,
    d.scratch_JT_rownnz,
    d.scratch_JT_rowadr,
    d.scratch_JT_colind,
    d.scratch_JT_rowsuper,
    D2,
    d.scratch_hess_dense,
  )
  M, _, _, M_rownnz, M_rowadr, M_colind = _m_block(m, d, c)
  add_to_mat_sparse(Hc, rows[0], rows[1], H_colind, nv, M, M_rownnz, M_rowadr, M_colind)
  chol_factor_sparse(
    Lcone,
    nv,
    mjMINVAL,
    rows[4],
    rows[5],
    L_colind,
    rows[6],
    rows[7],
    LT_colind,
    LT_map,
    Hc,
    rows[0],
    rows[1],
    H_colind,
    d.scratch_hess_dense,
  )
  return nupdate


@jit
def _hessian_cone(m, d, c, sparse, fac):
  """Port of HessianCone: Lcone = chol(H + sum of J'*Hcone*J over contacts in the cone zone),
  by rank-1 updates of the factor L or (sparse, when MuJoCo 3.17 finds it cheaper; decided
  once until rows change state) by refactoring; returns the number of updates."""
  nv = c[0]
  nefc = c[3]
  if sparse:
    fold = d.scratch_cone_fold[0]
    if fold < 0:
      fold = _fold_cones(d, c, fac[10])
      d.scratch_cone_fold[0] = fold
    if fold:
      return _hessian_cone_folded(m, d, c, fac)
  L = fac[1]
  Lcone = fac[2]
  state = _rows(d.iefc_state, c)
  efc_id = _rows(d.iefc_id, c)
  J, J_rownnz, J_rowadr, J_colind = _j_block(d, c)
  rows = d.scratch_hess_rows
  LTJ = d.scratch_LTJ
  row = d.scratch_dof_row
  tmp = d.scratch_dof_tmp
  local = local_array(36)
  for k in range(fac[9] if sparse else nv * nv):
    Lcone[k] = L[k]
  nupdate = 0
  i = 0
  while i < nefc:
    if state[i] != mjCNSTRSTATE_CONE:
      i += 1
      continue
    dim = _cone_factor(d, efc_id[i], local)

    # rows of L'*J (local factor times the contact's rows), each added to the factor
    if sparse:
      nnz = J_rownnz[i]
      _cone_rows(LTJ, False, J, J_rowadr, i, dim, nnz, local)
      for r in range(dim):
        chol_update_sparse(
          Lcone,
          LTJ,
          r * nnz,
          nv,
          1,
          rows[4],
          rows[5],
          fac[5],
          nnz,
          J_colind,
          J_rowadr[i + r],
          d.scratch_hess_dense,
        )
    else:
      for col in range(dim):
        for k in range(nv):
          row[k] = 0.0
        for r in range(col, dim):
          _j_row(d, c, sparse, i + r, tmp)
          scl = local[r * dim + col]
          for k in range(nv):
            row[k] += tmp[k] * scl
        mju_cholUpdate(Lcone, row, nv, 1)
    nupdate += dim
    i += dim
  return nupdate


@jit
def _factorize(m, d, c, sparse, recompute, ncone, fac):
  """Port of FactorizeHessian: L = chol(H), recomputing H from the row states when asked;
  adds the cone terms when some contact is in the cone zone. Returns nupdate (= nefc)."""
  H, L, _, H_colind, _, L_colind, LT_colind, LT_map, _, _, _ = fac
  if sparse:
    if recompute:
      _hessian_D(d, c)
      _sparse_hessian_values(m, d, c, H, H_colind)
    rows = d.scratch_hess_rows
    chol_factor_sparse(
      L,
      c[0],
      mjMINVAL,
      rows[4],
      rows[5],
      L_colind,
      rows[6],
      rows[7],
      LT_colind,
      LT_map,
      H,
      rows[0],
      rows[1],
      H_colind,
      d.scratch_hess_dense,
    )
  else:
    if recompute:
      _hessian(m, d, c, L)
    mju_cholFactor(L, c[0], mjMINVAL)
  if ncone:
    _hessian_cone(m, d, c, sparse, fac)
  return c[3]


@jit
def _incremental(m, d, c, sparse, ncone, fac):
  """Port of HessianIncremental: rank-1 updates of L for rows entering or leaving the quadratic
  state; full refactorization when accuracy is lost. Returns nupdate."""
  nv = c[0]
  nefc = c[3]
  L = fac[1]
  efc_D = _rows(d.iefc_D, c)
  state = _rows(d.iefc_state, c)
  oldstate = d.scratch_oldstate
  J, J_rownnz, J_rowadr, J_colind = _j_block(d, c)
  rows = d.scratch_hess_rows
  vec = d.scratch_dof_row
  nupdate = 0
  for i in range(nefc):
    if state[i] != int(oldstate[i]):
      d.scratch_cone_fold[0] = -1  # weigh folding the cones anew
    old_quad = int(oldstate[i]) == mjCNSTRSTATE_QUADRATIC
    new_quad = state[i] == mjCNSTRSTATE_QUADRATIC
    if old_quad == new_quad:
      continue

    # update (add) or downdate (subtract) with J(i,:)*sqrt(D[i])
    s = math.sqrt(efc_D[i])
    if sparse:
      adr = J_rowadr[i]
      nnz = J_rownnz[i]
      for k in range(nnz):
        vec[k] = J[adr + k] * s
      rank = chol_update_sparse(
        L,
        vec,
        0,
        nv,
        1 if new_quad else 0,
        rows[4],
        rows[5],
        fac[5],
        nnz,
        J_colind,
        adr,
        d.scratch_hess_dense,
      )
    else:
      for k in range(nv):
        vec[k] = J[i * nv + k] * s
      rank = mju_cholUpdate(L, vec, nv, 1 if new_quad else 0)
    nupdate += 1

    # accuracy lost: recompute H and refactor
    if rank < nv:
      return _factorize(m, d, c, sparse, True, ncone, fac)

  if ncone:
    nupdate += _hessian_cone(m, d, c, sparse, fac)
  return nupdate


# ---- driver ----


@jit
def _update_constraint(m, d, c, sparse, flg_coneHessian):
  """Port of PrimalUpdateConstraint: forces, states and qfrc_constraint at qacc (the line search
  measures costs itself). Returns (nactive, ncone)."""
  nefc = c[3]
  force = _rows(d.iefc_force, c)
  state = _rows(d.iefc_state, c)
  update_rows(
    d,
    d.scratch_jar,
    c[1],
    c[2],
    nefc,
    _rows(d.iefc_D, c),
    _rows(d.iefc_R, c),
    _rows(d.iefc_frictionloss, c),
    _rows(d.iefc_type, c),
    _rows(d.iefc_id, c),
    force,
    state,
    flg_coneHessian,
  )
  qfrc = _dofs(d.ifrc_constraint, c)
  if sparse:  # J'*force as rows of the transpose (MuJoCo's summation order)
    JT = d.scratch_JT
    JT_rowadr = d.scratch_JT_rowadr
    JT_rownnz = d.scratch_JT_rownnz
    JT_colind = d.scratch_JT_colind
    for j in range(c[0]):
      adr = JT_rowadr[j]
      qfrc[j] = dot_sparse(JT, adr, force, 0, JT_rownnz[j], JT_colind, adr)
  else:
    J, rownnz, rowadr, colind = _j_block(d, c)
    jac_t_vec(J, rownnz, rowadr, colind, sparse, nefc, c[0], qfrc, force)

  # count active and cone rows
  nactive = 0
  ncone = 0
  for i in range(nefc):
    if state[i] != mjCNSTRSTATE_SATISFIED:
      nactive += 1
    if state[i] == mjCNSTRSTATE_CONE:
      ncone += 1
  return nactive, ncone


@jit
def _update_gradient(m, d, c, sparse, flg_newton, ncone, fac):
  """Port of CGupdateGradient: grad = M*qacc - qfrc_smooth - qfrc_constraint and the
  preconditioned Mgrad (H \\ grad for Newton, M \\ grad for CG)."""
  nv = c[0]
  Ma = d.scratch_Ma
  grad = d.scratch_grad
  Mgrad = d.scratch_Mgrad
  qfrc_smooth = _dofs(d.ifrc_smooth, c)
  qfrc_constraint = _dofs(d.ifrc_constraint, c)
  for i in range(nv):
    grad[i] = Ma[i] - qfrc_smooth[i] - qfrc_constraint[i]
  if flg_newton:
    L = fac[2] if ncone else fac[1]
    if sparse:
      rows = d.scratch_hess_rows
      chol_solve_sparse(Mgrad, L, grad, nv, rows[4], rows[5], fac[5])
    else:
      mju_cholSolve(Mgrad, L, grad, nv)
  else:
    for i in range(nv):
      Mgrad[i] = grad[i]
    _, qLD, qLDiagInv, rownnz, rowadr, colind = _m_block(m, d, c)
    solve_ld(Mgrad, qLD, qLDiagInv, nv, 1, rownnz, rowadr, colind)


@jit
def _decrement(grad, Mgrad, nv, scale):
  """0.5*scale*grad'*Mgrad, at least 0: with Mgrad = M^-1*grad a bound on the cost's
  suboptimality, with Mgrad = H^-1*grad the Newton decrement."""
  return max(0.0, 0.5 * scale * mju_dot(grad, Mgrad, nv))


@stage(M, D, i8, i8, i8, needed=PRIMAL)
def cg_newton(m, d, island, maxiter, flg_newton):
  """Port of mj_solPrimal: CG (flg_newton 0) or Newton on constraint island `island` (-1: every
  dof and row) from its current iacc, after gather_islands.

  Sets the island's iacc, iefc_force, iefc_state, ifrc_constraint, solver_niter,
  solver_nnz and solver_stat rows.
  """
  c = _island_blocks(m, d, island)
  nv = c[0]
  nefc = c[3]
  sparse = is_sparse(m)
  cone_hessian = 1 if flg_newton and m.opt.cone[0] == mjCONE_ELLIPTIC else 0
  qacc = _dofs(d.iacc, c)
  state = _rows(d.iefc_state, c)
  Jaref = d.scratch_jar
  Jv = d.scratch_Jv
  oldstate = d.scratch_oldstate
  Ma = d.scratch_Ma
  Mv = d.scratch_Mv
  grad = d.scratch_grad
  Mgrad = d.scratch_Mgrad
  search = d.scratch_search
  gradold = d.scratch_gradold
  Mgradold = d.scratch_Mgradold
  Mgraddif = d.scratch_Mgraddif
  fac = _dense_factor(d, nv if flg_newton and not sparse else 0)
  d.scratch_cone_fold[0] = -1

  # sparse: J transposed, for J'*force
  if sparse:
    J, rownnz, rowadr, colind = _j_block(d, c)
    transpose(
      d.scratch_JT,
      d.scratch_JT_rownnz,
      d.scratch_JT_rowadr,
      d.scratch_JT_colind,
      J,
      rownnz,
      rowadr,
      colind,
      nefc,
      nv,
    )

  # Ma = M*qacc, Jaref = J*qacc - aref
  _mul_m(m, d, c, Ma, qacc)
  _mul_j(d, c, sparse, Jaref, qacc)
  aref = _rows(d.iefc_aref, c)
  for i in range(nefc):
    Jaref[i] -= aref[i]

  # first update
  nactive, ncone = _update_constraint(m, d, c, sparse, cone_hessian)
  scale = inertia_scale(m, d, island)
  tolerance = m.opt.tolerance[0]

  # converged already (e.g. a good warm start)? The cost is strongly convex in the M-norm, so
  # 0.5*grad'*M^-1*grad bounds its suboptimality; Newton also asks for a small gradient
  _update_gradient(m, d, c, sparse, 0, ncone, fac)
  gradient_small = scale * mju_norm(grad, nv) < tolerance
  certificate = _decrement(grad, Mgrad, nv, scale) < tolerance and (
    not flg_newton or gradient_small
  )
  done = certificate

  # Newton: factor the Hessian; converged when the Newton decrement is below tolerance
  nupdate = 0
  if flg_newton and not done:
    if sparse:
      fac = _sparse_hessian(m, d, c)
    nupdate = _factorize(m, d, c, sparse, not sparse, ncone, fac)
    _update_gradient(m, d, c, sparse, 1, ncone, fac)
    done = gradient_small and _decrement(grad, Mgrad, nv, scale) < tolerance

  # start with the preconditioned gradient
  for i in range(nv):
    search[i] = -Mgrad[i]

  it = 0
  while not done and it < maxiter:
    # line search
    alpha, lsiter, lsslope, ls_improvement = _search(m, d, c, sparse, scale)
    if alpha == 0:
      break

    # move to the new solution
    for i in range(nv):
      qacc[i] += alpha * search[i]
      Ma[i] += alpha * Mv[i]
    for i in range(nefc):
      Jaref[i] += alpha * Jv[i]

    # save old
    if not flg_newton:
      for i in range(nv):
        gradold[i] = grad[i]
        Mgradold[i] = Mgrad[i]
    for i in range(nefc):
      oldstate[i] = state[i]

    # update
    nactive, ncone = _update_constraint(m, d, c, sparse, cone_hessian)
    if flg_newton:
      nupdate = _incremental(m, d, c, sparse, ncone, fac)
    _update_gradient(m, d, c, sparse, flg_newton, ncone, fac)

    # count state changes
    nchange = 0
    for i in range(nefc):
      if state[i] != int(oldstate[i]):
        nchange += 1

    # scaled improvement and gradient, statistics
    improvement = scale * ls_improvement
    gradient = scale * mju_norm(grad, nv)
    save_stats(d, island, it, improvement, gradient, lsslope, nactive, nchange, lsiter, nupdate)
    it += 1

    # termination: small improvement, gradient or (Newton) predicted improvement of the next
    # step, the Newton decrement 0.5*grad'*H^-1*grad
    if (
      (improvement > 0 and improvement < tolerance)
      or gradient < tolerance
      or (flg_newton and _decrement(grad, Mgrad, nv, scale) < tolerance)
    ):
      break

    # new direction
    if flg_newton:
      for i in range(nv):
        search[i] = -Mgrad[i]
    else:
      # Hager-Zhang, restarted when conjugacy is lost, bounded below so that the direction
      # stays a descent direction
      graddif = gradold  # gradold is not needed after this: keep grad - gradold in its place
      for i in range(nv):
        graddif[i] = grad[i] - gradold[i]
        Mgraddif[i] = Mgrad[i] - Mgradold[i]
      d_dot_y = mju_dot(search, graddif, nv)
      if d_dot_y < mjMINVAL:
        beta = 0.0
      else:
        y_dot_My = mju_dot(graddif, Mgraddif, nv)
        y_dot_Mgrad = mju_dot(graddif, Mgrad, nv)
        d_dot_grad = mju_dot(search, grad, nv)
        beta_hz = (y_dot_Mgrad - 2 * (y_dot_My / d_dot_y) * d_dot_grad) / d_dot_y
        eta_k = -1.0 / max(mjMINVAL, mju_norm(search, nv) * min(0.01, mju_norm(grad, nv)))
        beta = max(eta_k, beta_hz)
      for i in range(nv):
        search[i] = -Mgrad[i] + beta * search[i]

  # statistics: iterations; nonzeros of the Hessian, or of J when no Hessian was made
  if island < mjNISLAND:
    k = max(island, 0)
    d.solver_niter[k] += it
    if flg_newton and not certificate:  # the Hessian's entries (sparse: H, L and Lcone)
      elliptic = m.opt.cone[0] == mjCONE_ELLIPTIC
      d.solver_nnz[k] = (2 if elliptic else 1) * fac[9] + fac[8] if sparse else nv * nv
    else:
      d.solver_nnz[k] = c[6]
