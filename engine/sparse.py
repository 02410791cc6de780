"""Sparse matrix helpers (ports of engine_util_sparse.c and the sparse LDL of engine_core_smooth.c).

Rows are stored MuJoCo's way: values `vals[rowadr[i]:rowadr[i]+rownnz[i]]` with sorted column
indices in `colind` at the same addresses. `factor_i`/`solve_ld` work in the reduced inertia
layout (row i holds i's ancestor dofs, then the diagonal); the LU pair in the full symmetric
dof pattern of qDeriv.
"""

import math

import numpy as np

from engine._jit import inline_jit
from engine._jit import jit
from engine._jit import local_array
from engine.enums import mjMINVAL
from engine.enums import mjWARN_INERTIA


@jit
def mul_mat_vec(res, vals, vec, nrow, rownnz, rowadr, colind):
  """Port of mju_mulMatVecSparse: res = mat * vec for a CSR matrix with nrow rows."""
  u = np.uint64  # unsigned positions: no negative-index wraparound in the loops
  for i in range(nrow):
    s = 0.0
    adr = u(rowadr[i])
    for a in range(adr, adr + u(rownnz[i])):
      s += vals[a] * vec[u(colind[a])]
    res[i] = s


@jit
def mul_sym_vec(res, vals, vec, n, rownnz, rowadr, colind):
  """Port of mju_mulSymVecSparse: res = mat*vec for a symmetric matrix stored as its lower
  triangle, each row ending with its diagonal (the inertia's reduced layout)."""
  u = np.uint64  # unsigned positions: no negative-index wraparound in the loops
  for i in range(n):
    res[i] = 0.0
  for i in range(n):
    adr = u(rowadr[i])
    a = adr + u(rownnz[i] - 1)  # the diagonal

    # diagonal, then strict lower (right to left) and its mirror
    vi = vec[i]
    acc = vals[a] * vi
    while a > adr:
      a -= u(1)
      j = u(colind[a])
      val = vals[a]
      acc += val * vec[j]
      res[j] += val * vi
    res[i] = acc


@inline_jit
def dot_sparse(vec1, adr1, vec2, off2, nnz, ind, adrind):
  """Port of mju_dotSparse: vec1[adr1:adr1+nnz] . vec2[off2 + ind[adrind:adrind+nnz]].

  Four interleaved partial sums combined as (s0 + s2) + (s1 + s3), then the rest in order.
  Inlined: the rows it runs over are short (a contact's row has 6-12 entries), and a call per
  row passing three arrays cost as much as the products (box_pile: 12 % of a step).
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


@inline_jit
def dot_sparse_x3(vec1, adr0, adr1, adr2, vec2, nnz, ind, adrind):
  """Port of mju_dotSparseX3: dot_sparse of three rows of vec1 (at adr0, adr1, adr2) that share
  the column pattern ind[adrind:adrind+nnz], each summed in dot_sparse's order (each result is
  dot_sparse's to the bit); the gathered vec2 entries are loaded once and the three sums run
  side by side. Returns the three dots."""
  one = np.uint64(1)
  two = np.uint64(2)
  three = np.uint64(3)
  a0 = np.uint64(adr0)
  a1 = np.uint64(adr1)
  a2 = np.uint64(adr2)
  ai = np.uint64(adrind)
  s00 = s01 = s02 = s03 = 0.0
  s10 = s11 = s12 = s13 = 0.0
  s20 = s21 = s22 = s23 = 0.0
  i = np.uint64(0)
  n = np.uint64(max(nnz, 0))
  n4 = n - n % np.uint64(4)
  while i < n4:
    v0 = vec2[np.uint64(ind[ai + i])]
    v1 = vec2[np.uint64(ind[ai + i + one])]
    v2 = vec2[np.uint64(ind[ai + i + two])]
    v3 = vec2[np.uint64(ind[ai + i + three])]
    s00 += vec1[a0 + i] * v0
    s01 += vec1[a0 + i + one] * v1
    s02 += vec1[a0 + i + two] * v2
    s03 += vec1[a0 + i + three] * v3
    s10 += vec1[a1 + i] * v0
    s11 += vec1[a1 + i + one] * v1
    s12 += vec1[a1 + i + two] * v2
    s13 += vec1[a1 + i + three] * v3
    s20 += vec1[a2 + i] * v0
    s21 += vec1[a2 + i + one] * v1
    s22 += vec1[a2 + i + two] * v2
    s23 += vec1[a2 + i + three] * v3
    i += np.uint64(4)
  r0 = (s00 + s02) + (s01 + s03)
  r1 = (s10 + s12) + (s11 + s13)
  r2 = (s20 + s22) + (s21 + s23)
  while i < n:
    v = vec2[np.uint64(ind[ai + i])]
    r0 += vec1[a0 + i] * v
    r1 += vec1[a1 + i] * v
    r2 += vec1[a2 + i] * v
    i += one
  return r0, r1, r2


@jit
def add_to_scl_sparse_inc(dst, dadr, dnnz, dind, dindadr, src, sadr, snnz, sind, sindadr, scl):
  """Port of mju_addToSclSparseInc: dst += scl*src at the common indices of two sorted rows
  (unsigned positions: no negative-index wraparound in the merge, about half its time)."""
  if dnnz <= 0 or snnz <= 0:
    return
  one = np.uint64(1)
  i_s = np.uint64(sadr)
  s_end = i_s + np.uint64(snnz)
  i_si = np.uint64(sindadr)
  i_d = np.uint64(dadr)
  d_end = i_d + np.uint64(dnnz)
  i_di = np.uint64(dindadr)
  inds = sind[i_si]
  indd = dind[i_di]
  while True:
    if inds == indd:
      dst[i_d] += scl * src[i_s]
      i_s += one
      if i_s >= s_end:
        return
      i_si += one
      inds = sind[i_si]
      i_d += one
      if i_d >= d_end:
        return
      i_di += one
      indd = dind[i_di]
    elif inds < indd:
      i_s += one
      if i_s >= s_end:
        return
      i_si += one
      inds = sind[i_si]
    else:
      i_d += one
      if i_d >= d_end:
        return
      i_di += one
      indd = dind[i_di]


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
def transpose(
  dst, dst_rownnz, dst_rowadr, dst_colind, src, rownnz, rowadr, colind, nrow, ncol, values=True
):
  """Port of mju_transposeSparse: the CSR transpose of an nrow x ncol CSR matrix. Each row of
  the transpose lists its entries in increasing source row, explicit zeros kept; values False:
  the pattern alone (dst and src unused)."""
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
      if values:
        dst[p] = src[k]
      dst_colind[p] = i
      dst_rownnz[j] += 1


@jit
def solve_ld_range(x, qld, qldiaginv, first, end, rownnz, rowadr, colind):
  """solve_ld on the dofs first..end-1 of x alone: a whole tree (or trees), whose rows of L
  reach no other dof. Same operations in the same order as the full solve on those dofs."""
  u = np.uint64  # unsigned positions: no negative-index wraparound in the loops
  for i in range(end - 1, first - 1, -1):
    xi = x[i]
    if xi and rownnz[i] > 1:
      start = u(rowadr[i])
      for adr in range(start, start + u(rownnz[i] - 1)):
        x[u(colind[adr])] -= qld[adr] * xi
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


# ---- the sparse Newton Hessian H = J'*D*J + M and its reverse Cholesky factor ----
# Ports of engine_util_sparse.c (mju_sqrMatTDSparseSymbolic/Numeric, mju_addToMatSparse) and
# engine_util_solve.c (mju_cholFactorSymbolic/Numeric, mju_cholSolveSparse,
# mju_cholUpdateSparse). The factor is L'*L = H with L lower triangular, eliminated from the
# last row up: a dof's subtree comes after it, so a tree's factor fills in only along the
# tree's chains. Each routine does MuJoCo's operations in MuJoCo's order (bit-equal results).


@jit
def super_rows(rowsuper, rownnz, rowadr, colind, n):
  """Port of mju_superSparse: rowsuper[i] = how many rows after row i have its very columns
  (one backward pass; unsigned positions, no negative-index wraparound in the comparisons)."""
  if n <= 0:
    return
  rowsuper[n - 1] = 0
  for r in range(n - 2, -1, -1):
    nnz = rownnz[r]
    same = nnz == rownnz[r + 1]
    if same:
      a = np.uint64(rowadr[r])
      b = np.uint64(rowadr[r + 1])
      k = np.uint64(0)
      while k < np.uint64(nnz):
        if colind[a + k] != colind[b + k]:
          same = False
          break
        k += np.uint64(1)
    rowsuper[r] = rowsuper[r + 1] + 1 if same else 0


_MAXSUPER = 8  # columns of equal pattern taken together by sqr_mat_td_pattern (mjMAXSUPER)


@jit
def sqr_mat_td_pattern(
  res_rownnz,
  res_rowadr,
  res_colind,
  fill,
  nr,
  nc,
  rownnz,
  rowadr,
  colind,
  rownnzT,
  rowadrT,
  colindT,
  rowsuperT,
  marker,
  found,
  rowstart,
  upper=False,
):
  """Pattern of the lower triangle of M'*D*M, M an nr x nc CSR matrix given with its transpose
  (rownnzT, rowadrT, colindT and its super_rows). fill False: count each result row into
  res_rownnz, lay out res_rowadr, return the total; fill True: write sorted columns into
  res_colind at the given res_rowadr. A column with no entries has no diagonal. Columns of
  equal pattern (a body's dofs) are taken up to 8 at a time, as MuJoCo does. upper: the
  count also makes room for the upper triangle (the full symmetric rows of MuJoCo's
  res_diagind mode; the caller mirrors the lower triangle into it). Scratch: marker,
  found (nc), rowstart (nr)."""
  u = np.uint64  # unsigned indices: no negative-index wraparound in the loops
  for j in range(nc):
    marker[j] = 0
    res_rownnz[j] = 0
  for r in range(nr):
    rowstart[r] = 0
  c = 0
  while c < nc:
    ns = 1 + min(rowsuperT[c], _MAXSUPER - 1)

    # rows j > c of the result reached through the rows of M that hold columns c..c+ns-1
    nfound = 0
    adr_c = u(rowadrT[c])
    for i in range(u(rownnzT[c])):
      r = u(colindT[adr_c + i])
      adr = u(rowadr[r])
      for k in range(u(rowstart[r]), u(rownnz[r])):
        j = u(colind[adr + k])
        if j <= c:
          rowstart[r] += 1
        elif not marker[j]:
          marker[j] = 1
          found[nfound] = j
          nfound += 1
    for i in range(nfound):
      j = found[i]
      marker[u(j)] = 0
      nm = min(ns, j - c)
      if fill:
        adr = res_rowadr[j] + res_rownnz[j]
        for k in range(nm):
          res_colind[adr + k] = c + k
      elif upper:
        for k in range(nm):
          res_rownnz[c + k] += 1
      res_rownnz[j] += nm
    for k in range(c, c + ns):
      if rownnzT[k]:
        if fill:
          res_colind[res_rowadr[k] + res_rownnz[k]] = k
        res_rownnz[k] += 1
    c += ns
  if nc == 0:
    return 0
  if not fill:
    res_rowadr[0] = 0
    for r in range(1, nc):
      res_rowadr[r] = res_rowadr[r - 1] + res_rownnz[r - 1]
  return res_rowadr[nc - 1] + res_rownnz[nc - 1]


@jit
def sqr_mat_td_values(
  res,
  nc,
  res_rownnz,
  res_rowadr,
  res_colind,
  mat,
  rownnz,
  rowadr,
  colind,
  matT,
  rownnzT,
  rowadrT,
  colindT,
  rowsuperT,
  diag,
  buffer,
):
  """Values of the lower triangle of M'*diag(diag)*M in the pattern of sqr_mat_td_pattern: row
  r sums diag[k]*M[k,r]*M[k,:r+1] over the rows k of M holding column r, in increasing k; rows
  of equal pattern are summed together (up to 8, as MuJoCo), each entry in the same order.
  buffer: 8*nc scratch."""
  u = np.uint64
  for k in range(_MAXSUPER * nc):
    buffer[k] = 0.0
  scale = local_array(_MAXSUPER)
  r = 0
  while r < nc:
    ns = 1 + min(rowsuperT[r], _MAXSUPER - 1)
    last = r + ns - 1
    adr_r = u(rowadrT[r])
    for i in range(u(rownnzT[r])):
      k = colindT[adr_r + i]
      dk = diag[k]
      if dk == 0:
        continue
      for t in range(ns):
        scale[t] = dk * matT[u(rowadrT[r + t]) + i]
      if ns == 1 and scale[0] == 0:  # (MuJoCo's single-row skip)
        continue
      adr_k = u(rowadr[k])
      for j in range(u(rownnz[k])):
        col = colind[adr_k + j]
        if col > last:
          break
        v = mat[adr_k + j]
        base = u(col * _MAXSUPER)  # entry (r+t, col) at buffer[8*col + t]
        for t in range(u(max(col - r, 0)), u(ns)):
          buffer[base + t] += scale[t] * v

    # scatter the rows into the result's pattern
    for t in range(ns):
      adr = u(res_rowadr[r + t])
      for j in range(u(res_rownnz[r + t])):
        at = u(res_colind[adr + j] * _MAXSUPER + t)
        res[adr + j] = buffer[at]
        buffer[at] = 0.0
    r += ns


@jit
def add_to_mat_sparse(dst, rownnz, rowadr, colind, nr, src, src_rownnz, src_rowadr, src_colind):
  """Port of mju_addToMatSparse: dst += src row by row, merging the patterns in place (each
  dst row has room for the union after its entries)."""
  for i in range(nr):
    da = rowadr[i]
    dn = rownnz[i]
    sa = src_rowadr[i]
    sn = src_rownnz[i]

    # entries of the union
    a = 0
    b = 0
    common = 0
    while a < dn and b < sn:
      ca = colind[da + a]
      cb = src_colind[sa + b]
      if ca == cb:
        common += 1
        a += 1
        b += 1
      elif ca < cb:
        a += 1
      else:
        b += 1
    nnz = dn + sn - common

    # merge backwards, from the end of the union
    a = dn - 1
    b = sn - 1
    w = nnz - 1
    while a >= 0 and b >= 0:
      ca = colind[da + a]
      cb = src_colind[sa + b]
      if ca == cb:
        dst[da + w] = dst[da + a] + src[sa + b]
        a -= 1
        b -= 1
      elif ca > cb:
        dst[da + w] = dst[da + a]
        a -= 1
      else:
        dst[da + w] = src[sa + b]
        b -= 1
      colind[da + w] = max(ca, cb)
      w -= 1
    while b >= 0:
      dst[da + w] = src[sa + b]
      colind[da + w] = src_colind[sa + b]
      b -= 1
      w -= 1
    rownnz[i] = nnz


@jit
def chol_pattern(
  L_colind,
  L_rownnz,
  L_rowadr,
  LT_colind,
  LT_rownnz,
  LT_rowadr,
  LT_map,
  fill,
  rownnz,
  rowadr,
  colind,
  n,
  parent,
  flag,
  cursor,
  LT_write,
):
  """Port of mju_cholFactorSymbolic: the pattern of the reverse Cholesky factor L of a
  symmetric matrix given by its upper triangle (rows of column indices >= the row), and of
  L's transpose LT (rows in elimination-tree order; LT_map: each LT entry's address in L).
  fill False: count into L_rownnz/LT_rownnz, lay out the row addresses, return nnz(L); fill
  True: write the indices at the given addresses. Scratch: parent, flag, cursor, LT_write (n).
  """
  u = np.uint64
  if fill:
    for r in range(n):
      cursor[r] = L_rowadr[r] + L_rownnz[r] - 2
      LT_write[r] = LT_rowadr[r]
  for r in range(n - 1, -1, -1):
    parent[r] = -1
    flag[r] = r
    if not fill:
      L_rownnz[r] = 1
      LT_rownnz[r] = 1
    else:
      diag = L_rowadr[r] + L_rownnz[r] - 1
      L_colind[diag] = r
      LT_colind[LT_write[r]] = r
      LT_map[LT_write[r]] = diag
      LT_write[r] += 1

    # each i > r in row r reaches L[i, r] and its elimination-tree ancestors not yet flagged
    # (the climb ends at r: i and its ancestors are never negative, unsigned indices)
    start = u(rowadr[r])
    for k in range(start, start + u(rownnz[r])):
      i = u(colind[k])
      if i <= r:
        continue
      while flag[i] != r:
        if parent[i] == -1:
          parent[i] = r
        if not fill:
          L_rownnz[i] += 1
          LT_rownnz[r] += 1
        else:
          idx = cursor[i]
          cursor[i] -= 1
          L_colind[u(idx)] = r
          w = u(LT_write[r])
          LT_colind[w] = i
          LT_map[w] = idx
          LT_write[r] += 1
        flag[i] = r
        i = u(parent[i])
  if fill or n == 0:
    return 0
  L_rowadr[0] = 0
  LT_rowadr[0] = 0
  nnz = L_rownnz[0]
  for r in range(1, n):
    L_rowadr[r] = L_rowadr[r - 1] + L_rownnz[r - 1]
    LT_rowadr[r] = LT_rowadr[r - 1] + LT_rownnz[r - 1]
    nnz += L_rownnz[r]
  return nnz


@jit
def chol_factor_sparse(
  L,
  n,
  mindiag,
  L_rownnz,
  L_rowadr,
  L_colind,
  LT_rownnz,
  LT_rowadr,
  LT_colind,
  LT_map,
  H,
  H_rownnz,
  H_rowadr,
  H_colind,
  dense,
):
  """Port of mju_cholFactorNumeric: L'*L = H (H's lower triangle, rows ending with their
  diagonal) in the pattern of chol_pattern; pivots below mindiag are raised to it. Returns
  the rank. dense: n scratch."""
  u = np.uint64  # unsigned indices: no negative-index wraparound in the loops
  for r in range(n):
    dense[r] = 0.0
  rank = n
  for r in range(n - 1, -1, -1):
    adr = u(H_rowadr[r])
    for k in range(u(H_rownnz[r])):
      dense[u(H_colind[adr + k])] = H[adr + k]

    # subtract the rows c > r of L holding column r, up to that column
    lt = u(LT_rowadr[r])
    for k in range(u(1), u(LT_rownnz[r])):
      idx = u(LT_map[lt + k])
      L_cr = L[idx]
      c_adr = u(L_rowadr[LT_colind[lt + k]])
      for i in range(c_adr, idx + u(1)):
        dense[u(L_colind[i])] -= L_cr * L[i]

    diag = dense[r]
    if diag < mindiag:
      diag = mindiag
      rank -= 1
    L_rr = math.sqrt(diag)
    L_rr_inv = 1.0 / L_rr
    adr = u(L_rowadr[r])
    end = adr + u(L_rownnz[r] - 1)
    for i in range(adr, end):
      L[i] = dense[u(L_colind[i])] * L_rr_inv
    L[end] = L_rr
    for i in range(adr, end + u(1)):
      dense[u(L_colind[i])] = 0.0
  return rank


@jit
def chol_solve_sparse(res, mat, vec, n, rownnz, rowadr, colind):
  """Port of mju_cholSolveSparse: res = (L'*L)^-1 vec for a reverse Cholesky factor."""
  u = np.uint64
  for i in range(n):
    res[i] = vec[i]

  # res <- L^-T res
  for i in range(n - 1, -1, -1):
    if res[i]:
      adr = u(rowadr[i])
      end = adr + u(rownnz[i] - 1)
      res[i] /= mat[end]
      tmp = res[i]
      for j in range(adr, end):
        res[u(colind[j])] -= mat[j] * tmp

  # res <- L^-1 res
  for i in range(n):
    adr = rowadr[i]
    nnz = rownnz[i]
    if nnz > 1:
      res[i] -= dot_sparse(mat, adr, res, 0, nnz - 1, colind, adr)
    res[i] /= mat[u(adr + nnz - 1)]


@jit
def chol_update_sparse(
  mat, x, x_adr, n, flg_plus, rownnz, rowadr, colind, x_nnz, x_ind, x_indadr, dense
):
  """Port of mju_cholUpdateSparse: L'*L +- x*x' in place by Givens rotations, x sparse
  (x[x_adr:x_adr+x_nnz] at columns x_ind[x_indadr:...], increasing) within L's pattern.
  Pivots below mjMINVAL are raised to it and lower the returned rank. dense: n scratch."""
  if x_nnz == 0:
    return n
  start = x_ind[x_indadr + x_nnz - 1]
  for j in range(start + 1):
    dense[j] = 0.0
  for k in range(x_nnz):
    dense[x_ind[x_indadr + k]] = x[x_adr + k]
  rank = n
  u = np.uint64
  for row in range(start, -1, -1):
    x_row = dense[row]
    if x_row == 0:
      continue
    nnz = u(rownnz[row] - 1)
    adr = u(rowadr[row])
    diag = mat[adr + nnz]
    tmp = diag * diag + (x_row * x_row if flg_plus else -x_row * x_row)
    if tmp < mjMINVAL:
      tmp = mjMINVAL
      rank -= 1
    r = math.sqrt(tmp)
    mat[adr + nnz] = r

    # Givens rotation of the row against the update
    c = diag / r
    s = -x_row / r
    s_signed = -s if flg_plus else s
    for i in range(adr, adr + nnz):
      j = u(colind[i])
      dense_j = dense[j]
      mat_val = mat[i]
      mat[i] = c * mat_val + s_signed * dense_j
      dense[j] = s * mat_val + c * dense_j
  return rank
