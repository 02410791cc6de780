"""Sparse matrix helpers (ports of engine_util_sparse.c and the sparse LDL of engine_core_smooth.c).

Rows are stored MuJoCo's way: values `vals[rowadr[i]:rowadr[i]+rownnz[i]]` with sorted column
indices in `colind` at the same addresses. `factor_i`/`solve_ld` work in the reduced inertia
layout (row i holds i's ancestor dofs, then the diagonal); the LU pair in the full symmetric
dof pattern of qDeriv.
"""

import numpy as np

from engine._jit import jit
from engine.enums import mjMINVAL
from engine.enums import mjWARN_INERTIA


@jit
def mul_mat_vec(res, vals, vec, nrow, rownnz, rowadr, colind):
  """Port of mju_mulMatVecSparse: res = mat * vec for a CSR matrix with nrow rows."""
  for i in range(nrow):
    s = 0.0
    adr = rowadr[i]
    for k in range(rownnz[i]):
      s += vals[adr + k] * vec[colind[adr + k]]
    res[i] = s


@jit
def mul_sym_vec(res, vals, vec, n, rownnz, rowadr, colind):
  """Port of mju_mulSymVecSparse: res = mat*vec for a symmetric matrix stored as its lower
  triangle, each row ending with its diagonal (the inertia's reduced layout)."""
  for i in range(n):
    res[i] = 0.0
  for i in range(n):
    adr = rowadr[i]
    diag = adr + rownnz[i] - 1

    # diagonal, then strict lower (right to left) and its mirror
    vi = vec[i]
    acc = vals[diag] * vi
    for a in range(diag - 1, adr - 1, -1):
      j = colind[a]
      val = vals[a]
      acc += val * vec[j]
      res[j] += val * vi
    res[i] = acc


@jit
def dot_sparse(vec1, adr1, vec2, off2, nnz, ind, adrind):
  """Port of mju_dotSparse: vec1[adr1:adr1+nnz] . vec2[off2 + ind[adrind:adrind+nnz]].

  Four interleaved partial sums combined as (s0 + s2) + (s1 + s3), then the rest in order.
  """
  # unsigned indices (no negative-index wraparound in the loop)
  a1 = np.uint64(adr1)
  o2 = np.uint64(off2)
  ai = np.uint64(adrind)
  s0 = 0.0
  s1 = 0.0
  s2 = 0.0
  s3 = 0.0
  i = np.uint64(0)
  n = np.uint64(max(nnz, 0))
  n4 = n - n % np.uint64(4)
  while i < n4:
    s0 += vec1[a1 + i] * vec2[o2 + np.uint64(ind[ai + i])]
    s1 += vec1[a1 + i + np.uint64(1)] * vec2[o2 + np.uint64(ind[ai + i + np.uint64(1)])]
    s2 += vec1[a1 + i + np.uint64(2)] * vec2[o2 + np.uint64(ind[ai + i + np.uint64(2)])]
    s3 += vec1[a1 + i + np.uint64(3)] * vec2[o2 + np.uint64(ind[ai + i + np.uint64(3)])]
    i += np.uint64(4)
  res = (s0 + s2) + (s1 + s3)
  while i < n:
    res += vec1[a1 + i] * vec2[o2 + np.uint64(ind[ai + i])]
    i += np.uint64(1)
  return res


@jit
def add_to_scl_sparse_inc(dst, dadr, dnnz, dind, dindadr, src, sadr, snnz, sind, sindadr, scl):
  """Port of mju_addToSclSparseInc: dst += scl*src at the common indices of two sorted rows."""
  if dnnz == 0 or snnz == 0:
    return
  i_s = 0
  i_d = 0
  inds = sind[sindadr]
  indd = dind[dindadr]
  while True:
    if inds == indd:
      dst[dadr + i_d] += scl * src[sadr + i_s]
      i_s += 1
      if i_s >= snnz:
        return
      inds = sind[sindadr + i_s]
      i_d += 1
      if i_d >= dnnz:
        return
      indd = dind[dindadr + i_d]
    elif inds < indd:
      i_s += 1
      if i_s >= snnz:
        return
      inds = sind[sindadr + i_s]
    else:
      i_d += 1
      if i_d >= dnnz:
        return
      indd = dind[dindadr + i_d]


@jit
def factor_i(d, mat, diaginv, nv, rownnz, rowadr, colind):
  """Port of mj_factorI: in-place sparse L'*D*L of an inertia-like matrix, reduced layout.

  On return mat holds L (unit diagonal implied, off-diagonals scaled) with D on the
  diagonal, and diaginv = 1/D. A pivot below mjMINVAL (singular or indefinite matrix) is
  raised to mjMINVAL with an mjWARN_INERTIA warning, as MuJoCo does.
  """
  # unsigned indices: numba then skips the negative-index wraparound, which halves the
  # time of these short loops
  one = np.uint64(1)
  for k in range(nv - 1, -1, -1):
    start = np.uint64(rowadr[k])
    end = start + np.uint64(rownnz[k] - 1)
    if mat[end] < mjMINVAL:
      d.warning_number[mjWARN_INERTIA] += 1
      d.warning_lastinfo[mjWARN_INERTIA] = k
      mat[end] = mjMINVAL
    invd = 1 / mat[end]
    diaginv[k] = invd

    # update the ancestors' rows: L(i, 0..i) -= L(i, 0..i) * L(k, i) / L(k, k)
    adr = end
    while adr > start:
      adr -= one
      i = colind[adr]
      scl = -mat[adr] * invd
      ri = np.uint64(rowadr[i])
      for t in range(np.uint64(rownnz[i])):
        mat[ri + t] += mat[start + t] * scl

    # scale row k: L(k, :) /= L(k, k)
    for adr in range(start, end):
      mat[adr] *= invd


@jit
def solve_ld(x, qld, qldiaginv, nv, n, rownnz, rowadr, colind):
  """Port of mj_solveLD: in place x = inv(L'*D*L) x for n vectors stored back to back."""
  for k in range(n):
    _solve_ld_vector(x, k * nv, qld, qldiaginv, nv, rownnz, rowadr, colind)


@jit
def _solve_ld_vector(x, off, qld, qldiaginv, nv, rownnz, rowadr, colind):
  """solve_ld on the one vector x[off:off+nv] (the vectors are independent)."""
  # x <- inv(L') x (unsigned indices: no negative-index wraparound in the loops)
  base = np.uint64(off)
  for i in range(nv - 1, -1, -1):
    xi = x[base + np.uint64(i)]
    if xi and rownnz[i] > 1:
      start = np.uint64(rowadr[i])
      end = start + np.uint64(rownnz[i] - 1)
      for adr in range(start, end):
        x[base + np.uint64(colind[adr])] -= qld[adr] * xi

  # x <- inv(D) x
  for i in range(nv):
    x[base + np.uint64(i)] *= qldiaginv[i]

  # x <- inv(L) x
  for i in range(nv):
    nnz = rownnz[i] - 1
    if nnz > 0:
      adr = rowadr[i]
      x[base + np.uint64(i)] -= dot_sparse(qld, adr, x, off, nnz, colind, adr)


@jit
def transpose(dst, dst_rownnz, dst_rowadr, dst_colind, src, rownnz, rowadr, colind, nrow, ncol):
  """Port of mju_transposeSparse: the CSR transpose of an nrow x ncol CSR matrix. Each row of
  the transpose lists its entries in increasing source row, explicit zeros kept."""
  u = np.uint64  # unsigned indices: no negative-index wraparound (halves the time)
  for j in range(ncol):
    dst_rownnz[j] = 0
  for i in range(nrow):
    start = u(rowadr[i])
    for k in range(start, start + u(rownnz[i])):
      dst_rownnz[u(colind[k])] += 1
  adr = 0
  for j in range(ncol):
    dst_rowadr[j] = adr
    adr += dst_rownnz[j]
    dst_rownnz[j] = 0
  for i in range(nrow):
    start = u(rowadr[i])
    for k in range(start, start + u(rownnz[i])):
      j = u(colind[k])
      p = u(dst_rowadr[j] + dst_rownnz[j])
      dst[p] = src[k]
      dst_colind[p] = i
      dst_rownnz[j] += 1


@jit
def solve_ld_range(x, qld, qldiaginv, first, end, rownnz, rowadr, colind):
  """solve_ld on the dofs first..end-1 of x alone: a whole tree (or trees), whose rows of L
  reach no other dof. Same operations in the same order as the full solve on those dofs."""
  for i in range(end - 1, first - 1, -1):
    xi = x[i]
    if xi and rownnz[i] > 1:
      start = rowadr[i]
      for adr in range(start, start + rownnz[i] - 1):
        x[colind[adr]] -= qld[adr] * xi
  for i in range(first, end):
    x[i] *= qldiaginv[i]
  for i in range(first, end):
    nnz = rownnz[i] - 1
    if nnz > 0:
      adr = rowadr[i]
      x[i] -= dot_sparse(qld, adr, x, 0, nnz, colind, adr)


@jit
def factor_lu_sparse(LU, n, scratch, rownnz, rowadr, colind):
  """Port of mju_factorLUSparse: reverse-order LU without fill-in; original = (U+I)*L.

  Returns False (leaving LU partly factored) on a missing or tiny diagonal, where MuJoCo
  raises an error.
  """
  remaining = scratch
  for i in range(n):
    remaining[i] = rownnz[i]
  for i in range(n - 1, -1, -1):
    ii = rowadr[i] + remaining[i] - 1
    remaining[i] -= 1
    if colind[ii] != i or abs(LU[ii]) < mjMINVAL:
      return False
    # rows j above i with a nonzero (j, i)
    for j in range(i - 1, -1, -1):
      ji = rowadr[j] + remaining[j] - 1
      if colind[ji] != i:
        continue
      remaining[j] -= 1
      LU[ji] = LU[ji] / LU[ii]
      LUji = LU[ji]
      # (j, k) -= (i, k) * (j, i) for k < i
      icnt = rowadr[i]
      jcnt = rowadr[j]
      jend = rowadr[j] + remaining[j]
      while jcnt < jend:
        if colind[icnt] == colind[jcnt]:
          LU[jcnt] -= LU[icnt] * LUji
          jcnt += 1
          icnt += 1
        elif colind[icnt] > colind[jcnt]:
          jcnt += 1
        else:
          return False
  return True


@jit
def solve_lu_sparse(res, LU, vec, n, rownnz, rowadr, diag, colind):
  """Port of mju_solveLUSparse: solves mat*res = vec from the factorization of factor_lu_sparse."""
  # (U+I) * res = vec
  for i in range(n - 1, -1, -1):
    s = vec[i]
    d1 = diag[i] + 1
    adr = rowadr[i] + d1
    for k in range(rownnz[i] - d1):
      s -= LU[adr + k] * res[colind[adr + k]]
    res[i] = s
  # L * res = res
  for i in range(n):
    dg = diag[i]
    adr = rowadr[i]
    s = res[i]
    for k in range(dg):
      s -= LU[adr + k] * res[colind[adr + k]]
    res[i] = s / LU[adr + dg]
