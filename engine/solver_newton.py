"""Primal solvers CG and Newton (port of mj_solCGNewton and its helpers, engine_solver.c).

Both minimize the Gauss cost 0.5*(qacc-qacc_smooth)'*M*(qacc-qacc_smooth) plus the
constraint cost s(J*qacc-aref) over qacc, with MuJoCo's exact line search. CG uses
Polak-Ribiere directions preconditioned by M; Newton uses the Hessian H = M + J'*D*J of the
active rows (plus cone Hessians of elliptic contacts in the middle zone), kept as a dense
Cholesky factor in d.scratch_H (d.scratch_Hcone with the cone terms) and updated
incrementally as rows change state. Large models (sparse Jacobian) keep H in reverse dof
order: there a dof's subtree precedes it, so each row's envelope is its subtree and the
factor and its rank-1 updates cost about what MuJoCo's sparse Cholesky does, where the
forward order fills in completely below a floating base. Their vectors are the named
d.scratch_* fields of engine/fields.py (Jaref in scratch_jar, the line-search quadratics in
scratch_quad).
"""

import math

from engine._jit import jit
from engine._jit import local_array
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
from engine.math import add_to_scl_at
from engine.math import chol_factor_envelope
from engine.math import chol_solve_envelope
from engine.math import chol_update_envelope
from engine.math import mju_cholFactor
from engine.math import mju_cholSolve
from engine.math import mju_cholUpdate
from engine.math import mju_dot
from engine.math import mju_norm
from engine.smooth import mul_m
from engine.sparse import solve_ld
from engine.solver_common import constraint_update_impl
from engine.solver_common import inertia_scale
from engine.solver_common import is_sparse
from engine.solver_common import jac_row_dense
from engine.solver_common import mul_jac_t_vec
from engine.solver_common import mul_jac_vec
from engine.solver_common import save_stats

# ---- reverse dof order (sparse Hessian) ----


@jit
def _reverse(vec, n):
  """vec[:n] reversed in place: dof order <-> the sparse Hessian's reverse order."""
  for i in range(n // 2):
    j = n - 1 - i
    vec[i], vec[j] = vec[j], vec[i]


# ---- cost along the search line ----


@jit
def _prepare(m, d):
  """Port of CGprepare: quadratic polynomials of every row along the search direction.

  Row i's polynomial is (quad0[i], quad1[i], quad2[i]); an elliptic contact stores its cone
  terms (U0, V0, UU, UV, VV, Dm) in the slots of its next two rows. Returns the Gauss
  polynomial's linear and quadratic coefficients.
  """
  nv = m.nv
  nefc = d.nefc[0]
  v = d.scratch_search
  Ma = d.scratch_Ma
  Mv = d.scratch_Mv
  Jaref = d.scratch_jar
  Jv = d.scratch_Jv
  q0 = d.scratch_quad[0]
  q1 = d.scratch_quad[1]
  q2 = d.scratch_quad[2]
  D = d.efc_D

  # Gauss: alpha^2*0.5*v'*M*v + alpha*v'*(Ma-qfrc_smooth) + Gauss(qacc)
  qg1 = mju_dot(v, Ma, nv) - mju_dot(d.qfrc_smooth, v, nv)
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
    if d.efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC:
      con = d.efc_id[i]
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
def _eval(m, d, alpha, qg1, qg2):
  """Port of PrimalEval: (cost(alpha) - cost(0), first, second derivative) of the total cost at
  qacc+alpha*search. Costs are relative to the current point (MuJoCo 3.17), so that small
  improvements do not cancel against the total."""
  ne = d.ne[0]
  nf = d.nf[0]
  nefc = d.nefc[0]
  Jaref = d.scratch_jar
  Jv = d.scratch_Jv
  q0 = d.scratch_quad[0]
  q1 = d.scratch_quad[1]
  q2 = d.scratch_quad[2]
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
      f = d.efc_frictionloss[i]
      D = d.efc_D[i]
      Rf = d.efc_R[i] * f
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
    if d.efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC:
      con = d.efc_id[i]
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
def _update_bracket(m, d, p, c1, c2, c3, qg1, qg2):
  """Port of updateBracket: move bracket end p to the best candidate on its side.

  Points are (alpha, cost, deriv0, deriv1). Returns (flag, p, pnext, evaluations).
  """
  flag = 0
  for k in range(3):
    c = c1 if k == 0 else (c2 if k == 1 else c3)
    if p[2] < 0 and c[2] < 0 and p[2] < c[2]:
      p = c
      flag = 1
    elif p[2] > 0 and c[2] > 0 and p[2] > c[2]:
      p = c
      flag = 2
  pnext = p
  neval = 0
  if flag:
    a = p[0] - p[2] / p[3]
    cost, d0, d1 = _eval(m, d, a, qg1, qg2)
    pnext = (a, cost, d0, d1)
    neval = 1
  return flag, p, pnext, neval


@jit
def _search(m, d, sparse, scale):
  """Port of PrimalSearch: exact line search along the scratch search vector, with costs
  relative to the current point.

  Returns (alpha, lsiter, lsslope, improvement): alpha 0 means no improvement; improvement is
  the cost decrease at alpha.
  """
  nv = m.nv
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
  mul_m(m, d, d.scratch_Mv, search)
  mul_jac_vec(m, d, d.scratch_Jv, search)
  qg1, qg2 = _prepare(m, d)

  # alpha = 0
  c, g, h = _eval(m, d, 0.0, qg1, qg2)
  p0 = (0.0, c, g, h)
  lsiter += 1

  # one Newton step
  a = p0[0] - p0[2] / p0[3]
  c, g, h = _eval(m, d, a, qg1, qg2)
  p1 = (a, c, g, h)
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
    c, g, h = _eval(m, d, a, qg1, qg2)
    p1 = (a, c, g, h)
    lsiter += 1
    if abs(p1[2]) < gtol and p1[1] < 0:
      return p1[0], lsiter, abs(p1[2]) * slopescl, -p1[1]

  # failure to bracket
  if lsiter >= ls_iterations:
    return p1[0], lsiter, abs(p1[2]) * slopescl, -p1[1]

  # next points of the bracket
  p2next = p1
  a = p1[0] - p1[2] / p1[3]
  c, g, h = _eval(m, d, a, qg1, qg2)
  p1next = (a, c, g, h)
  lsiter += 1

  # bracketed search
  while lsiter < ls_iterations:
    a = 0.5 * (p1[0] + p2[0])
    c, g, h = _eval(m, d, a, qg1, qg2)
    pmid = (a, c, g, h)
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
    b1, p1, pn, n1 = _update_bracket(m, d, p1, c1, c2, pmid, qg1, qg2)
    if b1:
      p1next = pn
    b2, p2, pn, n2 = _update_bracket(m, d, p2, c1, c2, pmid, qg1, qg2)
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


@jit
def _hessian(m, d, sparse):
  """H = M + J'*diag(D)*J (lower triangle, dense nv x nv) into scratch_H, with D the efc_D
  of quadratic rows (port of the dense branch of MakeHessian); in reverse dof order when
  sparse (entry (i, j) of H at row nv-1-j, column nv-1-i)."""
  nv = m.nv
  nefc = d.nefc[0]
  H = d.scratch_H
  D = d.scratch_hess_D
  for i in range(nefc):
    D[i] = d.efc_D[i] if d.efc_state[i] == mjCNSTRSTATE_QUADRATIC else 0.0
  for k in range(nv * nv):
    H[k] = 0.0

  # J'*D*J, lower triangle, row by row of J (as mju_sqrMatTD)
  for j in range(nefc):
    if D[j] == 0:
      continue
    if sparse:
      adr = d.efc_J_rowadr[j]
      nnz = d.efc_J_rownnz[j]
      for k in range(nnz):
        tmp = d.efc_J[adr + k]
        if tmp != 0:
          tmp *= D[j]
          col = d.efc_J_colind[adr + k]
          for k2 in range(nnz):
            col2 = d.efc_J_colind[adr + k2]
            if col2 <= col:
              H[(nv - 1 - col2) * nv + nv - 1 - col] += d.efc_J[adr + k2] * tmp
    else:
      for i in range(nv):
        tmp = d.efc_J[j * nv + i]
        if tmp != 0:
          add_to_scl_at(H, i * nv, d.efc_J, j * nv, tmp * D[j], i + 1)

  # add M (reduced sparse lower triangle)
  for i in range(nv):
    for adr in range(m.M_rowadr[i], m.M_rowadr[i] + m.M_rownnz[i]):
      if sparse:
        H[(nv - 1 - m.M_colind[adr]) * nv + nv - 1 - i] += d.M[adr]
      else:
        H[i * nv + m.M_colind[adr]] += d.M[adr]


@jit
def _hessian_cone(m, d, sparse):
  """Port of HessianCone: Lcone = chol(H + sum of J'*Hcone*J over contacts in the cone zone),
  by rank-1 updates of the factor in scratch_H; returns the number of updates."""
  nv = m.nv
  nefc = d.nefc[0]
  L = d.scratch_H
  Lcone = d.scratch_Hcone
  row = d.scratch_dof_row
  tmp = d.scratch_dof_tmp
  local = local_array(256)  # small block solves
  for k in range(nv * nv):
    Lcone[k] = L[k]
  nupdate = 0
  i = 0
  while i < nefc:
    if d.efc_state[i] != mjCNSTRSTATE_CONE:
      i += 1
      continue
    con = d.efc_id[i]
    dim = d.contact_dim[con]

    # Cholesky of the local cone Hessian
    H = d.contact_H[con]
    for k in range(dim * dim):
      local[k] = H[k]
    mju_cholFactor(local, dim, mjMINVAL)

    # rows of L'*J, each added to the factor
    for c in range(dim):
      for k in range(nv):
        row[k] = 0.0
      for r in range(c, dim):
        jac_row_dense(m, d, sparse, i + r, tmp)
        if sparse:
          _reverse(tmp, nv)
        scl = local[r * dim + c]
        for k in range(nv):
          row[k] += tmp[k] * scl
      mju_cholUpdate(Lcone, row, nv, 1)
    nupdate += dim
    i += dim
  return nupdate


@jit
def _factorize(m, d, sparse, recompute, ncone):
  """Port of FactorizeHessian: L = chol(H), recomputing H from efc_state when asked; adds the
  cone terms when some contact is in the cone zone. Returns nupdate (= nefc)."""
  if recompute:
    _hessian(m, d, sparse)
  if sparse:
    # large models (sparse Jacobian): H is block-structured, factor only its envelope
    chol_factor_envelope(d.scratch_H, m.nv, mjMINVAL, d.scratch_envelope)
  else:
    mju_cholFactor(d.scratch_H, m.nv, mjMINVAL)
  if ncone:
    _hessian_cone(m, d, sparse)
  return d.nefc[0]


@jit
def _incremental(m, d, sparse, ncone):
  """Port of HessianIncremental: rank-1 updates of L for rows entering or leaving the quadratic
  state; full refactorization when accuracy is lost. Returns nupdate."""
  nv = m.nv
  nefc = d.nefc[0]
  oldstate = d.scratch_oldstate
  vec = d.scratch_dof_row
  nupdate = 0
  for i in range(nefc):
    old_quad = int(oldstate[i]) == mjCNSTRSTATE_QUADRATIC
    new_quad = d.efc_state[i] == mjCNSTRSTATE_QUADRATIC
    if old_quad == new_quad:
      continue

    # update (add) or downdate (subtract) with J(i,:)*sqrt(D[i])
    jac_row_dense(m, d, sparse, i, vec)
    s = math.sqrt(d.efc_D[i])
    for k in range(nv):
      vec[k] *= s
    if sparse:
      _reverse(vec, nv)
      rank = chol_update_envelope(d.scratch_H, vec, nv, 1 if new_quad else 0,
                                  d.scratch_envelope)
    else:
      rank = mju_cholUpdate(d.scratch_H, vec, nv, 1 if new_quad else 0)
    nupdate += 1

    # accuracy lost: recompute H and refactor
    if rank < nv:
      return _factorize(m, d, sparse, True, ncone)

  if ncone:
    nupdate += _hessian_cone(m, d, sparse)
  return nupdate


# ---- driver ----


@jit
def _update_constraint(m, d, flg_coneHessian):
  """Port of PrimalUpdateConstraint: forces, states and qfrc_constraint at qacc (the line search
  measures costs itself). Returns (nactive, ncone)."""
  nefc = d.nefc[0]
  constraint_update_impl(m, d, d.scratch_jar, flg_coneHessian)
  mul_jac_t_vec(m, d, d.qfrc_constraint, d.efc_force)

  # count active and cone rows
  nactive = 0
  ncone = 0
  for i in range(nefc):
    if d.efc_state[i] != mjCNSTRSTATE_SATISFIED:
      nactive += 1
    if d.efc_state[i] == mjCNSTRSTATE_CONE:
      ncone += 1
  return nactive, ncone


@jit
def _update_gradient(m, d, flg_newton, ncone):
  """Port of CGupdateGradient: grad = M*qacc - qfrc_smooth - qfrc_constraint and the
  preconditioned Mgrad (H \\ grad for Newton, M \\ grad for CG)."""
  nv = m.nv
  Ma = d.scratch_Ma
  grad = d.scratch_grad
  Mgrad = d.scratch_Mgrad
  for i in range(nv):
    grad[i] = Ma[i] - d.qfrc_smooth[i] - d.qfrc_constraint[i]
  if flg_newton:
    sparse = is_sparse(m)
    if sparse:
      for i in range(nv):
        Mgrad[i] = grad[nv - 1 - i]
    else:
      for i in range(nv):
        Mgrad[i] = grad[i]
    if ncone:
      mju_cholSolve(Mgrad, d.scratch_Hcone, Mgrad, nv)
    elif sparse:
      chol_solve_envelope(Mgrad, d.scratch_H, Mgrad, nv, d.scratch_envelope)
    else:
      mju_cholSolve(Mgrad, d.scratch_H, Mgrad, nv)
    if sparse:
      _reverse(Mgrad, nv)
  else:
    for i in range(nv):
      Mgrad[i] = grad[i]
    solve_ld(Mgrad, d.qLD, d.qLDiagInv, nv, 1, m.M_rownnz, m.M_rowadr, m.M_colind)


@jit
def _decrement(grad, Mgrad, nv, scale):
  """0.5*scale*grad'*Mgrad, at least 0: with Mgrad = M^-1*grad a bound on the cost's
  suboptimality, with Mgrad = H^-1*grad the Newton decrement."""
  return max(0.0, 0.5 * scale * mju_dot(grad, Mgrad, nv))


@stage(M, D, i8, i8)
def cg_newton(m, d, maxiter, flg_newton):
  """Port of mj_solCGNewton (one island): CG (flg_newton 0) or Newton from the current qacc.

  Sets qacc, efc_force, efc_state, qfrc_constraint, solver_niter[0], solver_nnz[0] and the
  solver_stat rows of island 0.
  """
  nv = m.nv
  nefc = d.nefc[0]
  sparse = is_sparse(m)
  cone_hessian = 1 if flg_newton and m.opt.cone[0] == mjCONE_ELLIPTIC else 0
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

  # Ma = M*qacc, Jaref = J*qacc - aref
  mul_m(m, d, Ma, d.qacc)
  mul_jac_vec(m, d, Jaref, d.qacc)
  for i in range(nefc):
    Jaref[i] -= d.efc_aref[i]

  # first update
  nactive, ncone = _update_constraint(m, d, cone_hessian)
  scale = inertia_scale(m, d, -1)
  tolerance = m.opt.tolerance[0]

  # converged already (e.g. a good warm start)? The cost is strongly convex in the M-norm, so
  # 0.5*grad'*M^-1*grad bounds its suboptimality; Newton also asks for a small gradient
  _update_gradient(m, d, 0, ncone)
  gradient_small = scale * mju_norm(grad, nv) < tolerance
  done = _decrement(grad, Mgrad, nv, scale) < tolerance and (not flg_newton or gradient_small)

  # Newton: factor the Hessian; converged when the Newton decrement is below tolerance
  nupdate = 0
  if flg_newton and not done:
    nupdate = _factorize(m, d, sparse, True, ncone)
    _update_gradient(m, d, 1, ncone)
    done = gradient_small and _decrement(grad, Mgrad, nv, scale) < tolerance

  # start with the preconditioned gradient
  for i in range(nv):
    search[i] = -Mgrad[i]

  it = 0
  while not done and it < maxiter:
    # line search
    alpha, lsiter, lsslope, ls_improvement = _search(m, d, sparse, scale)
    if alpha == 0:
      break

    # move to the new solution
    for i in range(nv):
      d.qacc[i] += alpha * search[i]
      Ma[i] += alpha * Mv[i]
    for i in range(nefc):
      Jaref[i] += alpha * Jv[i]

    # save old
    if not flg_newton:
      for i in range(nv):
        gradold[i] = grad[i]
        Mgradold[i] = Mgrad[i]
    for i in range(nefc):
      oldstate[i] = d.efc_state[i]

    # update
    nactive, ncone = _update_constraint(m, d, cone_hessian)
    if flg_newton:
      nupdate = _incremental(m, d, sparse, ncone)
    _update_gradient(m, d, flg_newton, ncone)

    # count state changes
    nchange = 0
    for i in range(nefc):
      if d.efc_state[i] != int(oldstate[i]):
        nchange += 1

    # scaled improvement and gradient, statistics
    improvement = scale * ls_improvement
    gradient = scale * mju_norm(grad, nv)
    save_stats(d, 0, it, improvement, gradient, lsslope, nactive, nchange, lsiter, nupdate)
    it += 1

    # termination: small improvement, gradient or (Newton) predicted improvement of the next
    # step, the Newton decrement 0.5*grad'*H^-1*grad
    if ((improvement > 0 and improvement < tolerance) or gradient < tolerance
            or (flg_newton and _decrement(grad, Mgrad, nv, scale) < tolerance)):
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

  d.solver_niter[0] += it
  d.solver_nnz[0] = nv * nv if flg_newton else 0
