"""The constraint rows projected through the inverse inertia, for the dual solvers (port of
mj_makeY and mj_makeAR, engine_core_constraint.c, as MuJoCo 3.17 calls them from
mj_regularizeConstraint).

With M = L'*D*L (the inertia's factor qLD), Y = J*L^-1*D^-1/2 is the constraint Jacobian in
coordinates where the inertia is the identity, and

    efc_AR = Y*Y' + diag(efc_R) = J*M^-1*J' + R,

the matrix PGS and noslip iterate on. Y has the pattern of J closed over each dof's
ancestors (a row reaches every dof its dofs' chains pass through), so in the sparse layout a
row of Y is no wider than a row of J's trees; AR is nefc x nefc (dense layout) or holds, in
each row, the rows that share a tree with it (sparse layout, full symmetric rows). Both are
built in MuJoCo's order of operations, so PGS's residuals AR*force are MuJoCo's to the bit.
The diagonal of AR is also efc_diagA when mjENBL_DIAGEXACT asks for it exactly.
"""

import math

from engine._jit import jit
from engine._stage import DUAL
from engine._stage import DUAL_OR_DIAGEXACT
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import stage
from engine.math import dot_at
from engine.math import mju_sqrMatTD
from engine.math import mju_transpose
from engine.smooth import half_solve_m
from engine.solver_common import is_sparse
from engine.sparse import add_to_scl_sparse_inc
from engine.sparse import sqr_mat_td_pattern
from engine.sparse import sqr_mat_td_values
from engine.sparse import transpose


@jit
def _mirror_pattern(rownnz, rowadr, colind, diagind, n):
  """Appends to each row of a lower-triangle pattern (rows laid out with room for the full
  symmetric pattern) the columns of its upper triangle, in increasing order."""
  for r in range(n):
    adr = rowadr[r]
    for k in range(adr, diagind[r] + 1):
      c = colind[k]
      if c < r:
        colind[rowadr[c] + rownnz[c]] = r
        rownnz[c] += 1


@jit
def _mirror_values(res, rowadr, colind, diagind, n, cursor):
  """Copies the lower triangle's values to the upper triangle laid out by _mirror_pattern."""
  for r in range(n):
    cursor[r] = diagind[r] + 1
  for r in range(n):
    for k in range(rowadr[r], diagind[r] + 1):
      c = colind[k]
      if c < r:
        res[cursor[c]] = res[k]
        cursor[c] += 1


@jit
def _sqrt_inv_d(m, d, res):
  """res[i] = 1/sqrt(D[i]) from the diagonal of the inertia's LDL factor."""
  for i in range(m.nv):
    res[i] = 1 / math.sqrt(d.qLD[m.M_rowadr[i] + m.M_rownnz[i] - 1])


@jit
def _y_pattern(m, d, marker):
  """Port of computeY_precount and computeY_fill: each row of Y lists the dofs of its row of J
  and all their ancestors (sorted), J's values there and zeros elsewhere. Returns nY."""
  nefc = d.nefc[0]
  rownnz = d.efc_Y_rownnz
  rowadr = d.efc_Y_rowadr
  colind = d.efc_Y_colind
  Y = d.efc_Y
  for j in range(m.nv):
    marker[j] = -1

  # count: the dofs of the chains below each nonzero of J, each once
  adr = 0
  for r in range(nefc):
    nnz = 0
    start = d.efc_J_rowadr[r]
    for i in range(start + d.efc_J_rownnz[r] - 1, start - 1, -1):
      j = d.efc_J_colind[i]
      if marker[j] == r:  # counted with a descendant
        continue
      adrM = m.M_rowadr[j]
      for k in range(adrM, adrM + m.M_rownnz[j]):
        c = m.M_colind[k]
        if marker[c] != r:
          marker[c] = r
          nnz += 1
    rownnz[r] = nnz
    rowadr[r] = adr
    adr += nnz
  if adr > Y.shape[0]:
    return adr  # (cannot happen: a row of Y stays in the trees of its row of J)

  # fill from the end of each row: J's dofs merged with the parents of those already placed
  for r in range(nefc):
    end = rowadr[r] + rownnz[r]
    adrJ = d.efc_J_rowadr[r]
    remain = d.efc_J_rownnz[r]
    n = 0
    while True:
      src = d.efc_J_colind[adrJ + remain - 1] if remain > 0 else -1
      dst = m.dof_parentid[colind[end - n]] if n > 0 else -1
      if src < 0 and dst < 0:
        break
      n += 1
      if src >= dst:
        remain -= 1
        colind[end - n] = src
        Y[end - n] = d.efc_J[adrJ + remain]
      else:
        colind[end - n] = dst
        Y[end - n] = 0.0
  return adr


@jit
def make_y(m, d, sqrt_inv_d, marker, diag_exact):
  """Port of mj_makeY: efc_Y = J*L^-1*D^-1/2 (dense nefc x nv, or sparse with its pattern)
  and nY; with diag_exact, efc_diagA = the squared norms of Y's rows. Returns False when Y
  does not fit (never for the capacities MjData gives)."""
  nv = m.nv
  nefc = d.nefc[0]
  Y = d.efc_Y
  _sqrt_inv_d(m, d, sqrt_inv_d)
  if is_sparse(m):
    nY = _y_pattern(m, d, marker)
    if nY > Y.shape[0]:
      return False
    d.nY[0] = nY

    # each row: Y <- Y*L^-1 (L' back-substitution over the row's own pattern), then D^-1/2
    for r in range(nefc):
      adrY = d.efc_Y_rowadr[r]
      nnzY = d.efc_Y_rownnz[r]
      for i in range(adrY + nnzY - 1, adrY - 1, -1):
        val = Y[i]
        if val == 0:
          continue
        j = d.efc_Y_colind[i]
        adrM = m.M_rowadr[j]
        add_to_scl_sparse_inc(
          Y,
          adrY,
          nnzY,
          d.efc_Y_colind,
          adrY,
          d.qLD,
          adrM,
          m.M_rownnz[j] - 1,
          m.M_colind,
          adrM,
          -val,
        )
      for i in range(adrY, adrY + nnzY):
        Y[i] *= sqrt_inv_d[d.efc_Y_colind[i]]
      if diag_exact:
        d.efc_diagA[r] = dot_at(Y, adrY, Y, adrY, nnzY)
    return True

  # dense: mj_solveM2 on every row of J at once
  n = nefc * nv
  if n > Y.shape[0]:
    return False
  d.nY[0] = n
  half_solve_m(m, d, Y, d.efc_J, sqrt_inv_d, nefc)
  if diag_exact:
    for r in range(nefc):
      d.efc_diagA[r] = dot_at(Y, r * nv, Y, r * nv, nv)
  return True


@jit
def make_ar(m, d, diagind, work, buffer):
  """Port of mj_makeAR: efc_AR = Y*Y' + diag(efc_R) and nA, from make_y's efc_Y. Sparse: the
  full symmetric pattern (lower triangle by sqr_mat_td_pattern, mirrored), the entries of
  rows of equal pattern summed together as MuJoCo does; diagind (nefc) gets the diagonal's
  places. Scratch: work (2*nefc ints), buffer (8*nefc floats). Returns False when AR does not fit
  in MjData (its capacity is set for the solver the model had when MjData was made)."""
  nv = m.nv
  nefc = d.nefc[0]
  AR = d.efc_AR
  YT = d.scratch_JT
  if not is_sparse(m):
    n = nefc * nefc
    if n > AR.shape[0]:
      return False
    d.nA[0] = n
    mju_transpose(YT, d.efc_Y, nefc, nv)
    mju_sqrMatTD(AR, YT, None, nv, nefc)
    for r in range(nefc):
      AR[r * (nefc + 1)] += d.efc_R[r]
    return True

  # Y' (dof rows), then the pattern of Y*Y': count, lay out, fill
  rownnz = d.efc_AR_rownnz
  rowadr = d.efc_AR_rowadr
  colind = d.efc_AR_colind
  YT_rownnz = d.scratch_JT_rownnz
  YT_rowadr = d.scratch_JT_rowadr
  YT_colind = d.scratch_JT_colind
  transpose(
    YT,
    YT_rownnz,
    YT_rowadr,
    YT_colind,
    d.efc_Y,
    d.efc_Y_rownnz,
    d.efc_Y_rowadr,
    d.efc_Y_colind,
    nefc,
    nv,
  )
  marker = work[:nefc]
  found = work[nefc : 2 * nefc]
  rowstart = d.scratch_hess_work[0]
  nA = sqr_mat_td_pattern(
    rownnz,
    rowadr,
    colind,
    False,
    nv,
    nefc,
    YT_rownnz,
    YT_rowadr,
    YT_colind,
    d.efc_Y_rownnz,
    d.efc_Y_rowadr,
    d.efc_Y_colind,
    d.efc_J_rowsuper,
    marker,
    found,
    rowstart,
    True,
  )
  if nA > AR.shape[0]:
    return False
  d.nA[0] = nA
  sqr_mat_td_pattern(
    rownnz,
    rowadr,
    colind,
    True,
    nv,
    nefc,
    YT_rownnz,
    YT_rowadr,
    YT_colind,
    d.efc_Y_rownnz,
    d.efc_Y_rowadr,
    d.efc_Y_colind,
    d.efc_J_rowsuper,
    marker,
    found,
    rowstart,
    True,
  )
  for r in range(nefc):  # the lower triangle ends with the diagonal
    diagind[r] = rowadr[r] + rownnz[r] - 1
  _mirror_pattern(rownnz, rowadr, colind, diagind, nefc)

  # values of the lower triangle (unit weights), mirrored; R on the diagonal
  ones = d.scratch_dof_row  # (weights of exactly 1: every product is MuJoCo's unweighted one)
  for k in range(nv):
    ones[k] = 1.0
  sqr_mat_td_values(
    AR,
    nefc,
    rownnz,
    rowadr,
    colind,
    YT,
    YT_rownnz,
    YT_rowadr,
    YT_colind,
    d.efc_Y,
    d.efc_Y_rownnz,
    d.efc_Y_rowadr,
    d.efc_Y_colind,
    d.efc_J_rowsuper,
    ones,
    buffer,
  )
  _mirror_values(AR, rowadr, colind, diagind, nefc, found)
  for r in range(nefc):
    AR[diagind[r]] += d.efc_R[r]
  return True


# the stages of the dual solvers' matrices, compiled for the models that use them


@stage(M, D, i8, restype=i8, needed=DUAL_OR_DIAGEXACT)
def efc_y(m, d, diag_exact):
  """make_y in d's scratch; False when efc_Y is full."""
  return make_y(m, d, d.scratch_sqrt_inv_d, d.scratch_Y_marker, diag_exact)


@stage(M, D, restype=i8, needed=DUAL)
def efc_ar(m, d):
  """make_ar in d's scratch; False when efc_AR is full."""
  return make_ar(m, d, d.scratch_AR_diag, d.scratch_AR_work, d.scratch_AR_buffer)
