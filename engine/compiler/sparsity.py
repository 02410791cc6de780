"""Sparsity structure of the inertia matrix and of body-dof coupling (MuJoCo 3.17 layout).

Row i of the reduced layout ("M", also used by qLD) holds the ancestor dofs of
dof i in increasing order followed by the diagonal; rows of simple dofs
(dof_simplenum > 0: bodies whose inertia block is diagonal) hold only the
diagonal. The full pattern ("D")
holds, per row, every dof related to i (ancestors, descendants and i itself);
"B" holds, per body, the dofs of its ancestors, its own and its subtree's. The
legacy layout (dof_Madr, mapM2M) stores each full row diagonal-first, descending;
mapM2D is -1 where a D entry has no reduced entry.
"""

import numpy as np


def _dof_ancestors(dof_parentid: np.ndarray) -> list:
  """Ancestor dofs of each dof, increasing."""
  dof_parentid = np.asarray(dof_parentid).tolist()  # Python ints: indexing numpy is slow
  anc = []
  for i, p in enumerate(dof_parentid):
    chain = []
    while p >= 0:
      chain.append(int(p))
      p = dof_parentid[p]
    anc.append(sorted(chain))
  return anc


def mass_sparsity(dof_parentid, body_parentid, body_dofadr, body_dofnum, dof_simplenum) -> dict:
  """Sizes and index arrays of the M, D and B sparse layouts for one model."""
  nv = len(dof_parentid)
  nbody = len(body_parentid)
  i32 = np.int32
  # Python ints for the loops below (indexing numpy arrays one element at a time is slow)
  body_parentid, body_dofadr, body_dofnum, dof_simplenum = (
    np.asarray(a).tolist() for a in (body_parentid, body_dofadr, body_dofnum, dof_simplenum)
  )
  anc = _dof_ancestors(dof_parentid)
  desc = [[] for _ in range(nv)]
  for i in range(nv):
    for a in anc[i]:
      desc[a].append(i)

  # reduced lower-triangle layout: ancestors (none for simple dofs) then diagonal
  rows = [[i] if dof_simplenum[i] > 0 else anc[i] + [i] for i in range(nv)]
  M_rownnz = np.array([len(r) for r in rows], i32)
  M_rowadr = np.concatenate([[0], np.cumsum(M_rownnz)[:-1]]).astype(i32) if nv else np.zeros(0, i32)
  M_colind = np.array([c for r in rows for c in r], i32)
  nC = int(M_rownnz.sum())

  # legacy layout: full rows, diagonal first then ancestors descending
  legacy_nnz = [len(a) + 1 for a in anc]
  dof_Madr = (
    np.concatenate([[0], np.cumsum(legacy_nnz)[:-1]]).astype(i32) if nv else np.zeros(0, i32)
  )
  nM = int(sum(legacy_nnz))
  Madr = dof_Madr.tolist()
  mapM2M = np.array(
    [Madr[i] + len(rows[i]) - 1 - k for i in range(nv) for k in range(len(rows[i]))], i32
  )

  # full symmetric pattern
  D_cols = [sorted(anc[i] + [i] + desc[i]) for i in range(nv)]
  D_rownnz = np.array([len(c) for c in D_cols], i32)
  D_rowadr = np.concatenate([[0], np.cumsum(D_rownnz)[:-1]]).astype(i32) if nv else np.zeros(0, i32)
  D_colind = np.array([c for cols in D_cols for c in cols], i32)
  D_diag = np.array([D_cols[i].index(i) for i in range(nv)], i32)
  M_adr, D_adr = M_rowadr.tolist(), D_rowadr.tolist()
  mpos = {(i, c): M_adr[i] + k for i in range(nv) for k, c in enumerate(rows[i])}
  mapM2D = np.array(
    [mpos.get((max(i, j), min(i, j)), -1) for i in range(nv) for j in D_cols[i]], i32
  )
  dpos = {(i, j): D_adr[i] + k for i in range(nv) for k, j in enumerate(D_cols[i])}
  mapD2M = np.array([dpos[(i, c)] for i in range(nv) for c in rows[i]], i32)

  # body rows: dofs of ancestors, own dofs and subtree dofs
  body_dofs = [set() for _ in range(nbody)]
  for b in range(nbody):
    body_dofs[b].update(range(body_dofadr[b], body_dofadr[b] + body_dofnum[b]))
  subtree = [set(body_dofs[b]) for b in range(nbody)]
  for b in range(nbody - 1, 0, -1):  # children come after their parents
    subtree[body_parentid[b]] |= subtree[b]
  B_cols = []
  for b in range(nbody):
    cols = set(subtree[b])
    a = b
    while a > 0:  # ancestors and self
      cols |= body_dofs[a]
      a = body_parentid[a]
    if b == 0:
      cols = set(range(nv))
    B_cols.append(sorted(cols))
  B_rownnz = np.array([len(c) for c in B_cols], i32)
  B_rowadr = np.concatenate([[0], np.cumsum(B_rownnz)[:-1]]).astype(i32)
  B_colind = np.array([c for cols in B_cols for c in cols], i32)

  return {
    "sizes": {"nM": nM, "nC": nC, "nD": int(D_rownnz.sum()), "nB": int(B_rownnz.sum())},
    "arrays": {
      "M_rownnz": M_rownnz,
      "M_rowadr": M_rowadr,
      "M_colind": M_colind,
      "mapM2M": mapM2M,
      "dof_Madr": dof_Madr,
      "D_rownnz": D_rownnz,
      "D_rowadr": D_rowadr,
      "D_diag": D_diag,
      "D_colind": D_colind,
      "mapM2D": mapM2D,
      "mapD2M": mapD2M,
      "B_rownnz": B_rownnz,
      "B_rowadr": B_rowadr,
      "B_colind": B_colind,
    },
  }
