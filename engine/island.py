"""Constraint islands: port of MuJoCo 3.17's mj_island.

Kinematic trees coupled by constraint rows form an island; the solver can then solve each
island on its own. Rows are grouped by constraint (consecutive rows of one type and id); the
trees a constraint touches are found from its definition where that is cheap (dof friction,
joint limits, geom contacts, connect and weld equalities) and otherwise from the nonzeros of
its first Jacobian row. A union-find over trees (roots are always the smallest tree of their
set) joins them, and islands are numbered in ascending order of their smallest tree, so the
numbering is independent of the order rows are visited.

Each island's trees, dofs and rows are then listed contiguously: `map_itree2tree`,
`map_idof2dof` (constrained dofs first, `nidof` of them, then the unconstrained ones) and
`map_iefc2efc` give the island-major order, `island_*adr`/`island_n*` its blocks, and
`iefc_*` copies the per-row inputs the solvers read in that order.

Sleeping trees add no rows, so they are in no island. Not ported: flexes (the engine has
none).
"""

from engine._jit import jit
from engine._stage import runs_stage
from engine._stage import stage
from engine.enums import mjCNSTR_CONTACT_ELLIPTIC
from engine.enums import mjCNSTR_CONTACT_FRICTIONLESS
from engine.enums import mjCNSTR_CONTACT_PYRAMIDAL
from engine.enums import mjCNSTR_EQUALITY
from engine.enums import mjCNSTR_FRICTION_DOF
from engine.enums import mjCNSTR_FRICTION_TENDON
from engine.enums import mjCNSTR_LIMIT_JOINT
from engine.enums import mjDSBL_ISLAND
from engine.enums import mjEQ_CONNECT
from engine.enums import mjEQ_WELD
from engine.enums import mjOBJ_SITE
from engine.flags import disabled
from engine.solver_common import is_sparse


@jit
def _root(parent, tree):
  """The root of `tree`'s set, compressing the path to it."""
  root = tree
  while parent[root] != root:
    root = parent[root]
  while parent[tree] != tree:
    up = parent[tree]
    parent[tree] = root
    tree = up
  return root


@jit
def _merge(parent, tree1, tree2):
  """Activate two trees of one constraint and join their sets (-1: the static world)."""
  if tree1 == -1:
    tree1 = tree2
  if tree2 == -1:
    tree2 = tree1
  if parent[tree1] == -1:
    parent[tree1] = tree1
  if parent[tree2] == -1:
    parent[tree2] = tree2
  root1 = _root(parent, tree1)
  root2 = _root(parent, tree2)
  if root1 < root2:
    parent[root2] = root1
  elif root2 < root1:
    parent[root1] = root2


@jit
def _join_row_trees(m, d, i, parent):
  """Join the trees of row `i`'s constraint; the first dynamic tree found (-1: none)."""
  kind = d.efc_type[i]
  obj = d.efc_id[i]
  tree1 = -2
  tree2 = -2
  if kind == mjCNSTR_FRICTION_DOF:
    tree1 = m.dof_treeid[obj]
  elif kind == mjCNSTR_LIMIT_JOINT:
    tree1 = m.dof_treeid[m.jnt_dofadr[obj]]
  elif (
    kind == mjCNSTR_CONTACT_FRICTIONLESS
    or kind == mjCNSTR_CONTACT_PYRAMIDAL
    or kind == mjCNSTR_CONTACT_ELLIPTIC
  ):
    tree1 = m.body_treeid[m.geom_bodyid[d.contact_geom[obj, 0]]]
    tree2 = m.body_treeid[m.geom_bodyid[d.contact_geom[obj, 1]]]
  elif kind == mjCNSTR_EQUALITY and (m.eq_type[obj] == mjEQ_CONNECT or m.eq_type[obj] == mjEQ_WELD):
    b1 = m.eq_obj1id[obj]
    b2 = m.eq_obj2id[obj]
    if m.eq_objtype[obj] == mjOBJ_SITE:
      b1 = m.site_bodyid[b1]
      b2 = m.site_bodyid[b2]
    tree1 = m.body_treeid[b1]
    tree2 = m.body_treeid[b2]
  if tree1 != -2:
    if tree2 == -2:
      tree2 = -1
    if tree1 < 0 and tree2 < 0:
      return -1
    _merge(parent, tree1, tree2)
    return tree1 if tree1 >= 0 else tree2

  # any other constraint: the trees of its first Jacobian row's nonzeros, in column order
  first = -1
  if is_sparse(m):
    adr = d.efc_J_rowadr[i]
    for j in range(d.efc_J_rownnz[i]):
      tree = m.dof_treeid[d.efc_J_colind[adr + j]]
      if first == -1:
        first = tree
        _merge(parent, tree, -1)
      else:
        _merge(parent, first, tree)
  else:
    nv = m.nv
    j = 0
    while j < nv:
      if d.efc_J[i * nv + j] != 0.0:
        tree = m.dof_treeid[j]
        if first == -1:
          first = tree
          _merge(parent, tree, -1)
        else:
          _merge(parent, first, tree)
        j = m.tree_dofadr[tree] + m.tree_dofnum[tree]  # the rest of this tree's dofs
      else:
        j += 1
  return first


@stage()
def island(m, d):
  """Port of mj_island: nisland, nidof and every tree_/dof_/efc_/island_/map_/iefc_ field."""
  nv = m.nv
  nefc = d.nefc[0]
  ntree = m.ntree
  d.nisland[0] = 0
  d.nidof[0] = 0
  if disabled(m, mjDSBL_ISLAND) or nefc == 0:
    return

  # join the trees of each constraint (rows of one constraint share its first tree)
  parent = d.scratch_island_parent
  efc_tree = d.scratch_efc_tree
  parent[:ntree] = -1
  for i in range(nefc):
    if i > 0 and d.efc_type[i] == d.efc_type[i - 1] and d.efc_id[i] == d.efc_id[i - 1]:
      efc_tree[i] = efc_tree[i - 1]
      continue
    efc_tree[i] = _join_row_trees(m, d, i, parent)
    if efc_tree[i] < 0:
      raise RuntimeError("mj_island: a constraint row touches no dynamic tree")

  # number the islands by their smallest tree (each set's root)
  tree_island = d.tree_island
  nisland = 0
  nidof = 0
  for tree in range(ntree):
    if parent[tree] == -1:
      tree_island[tree] = -1
      continue
    if parent[tree] == tree:
      tree_island[tree] = nisland
      nisland += 1
    else:
      parent[tree] = parent[parent[tree]]  # the root of a smaller tree, already final
      tree_island[tree] = tree_island[parent[tree]]
    nidof += m.tree_dofnum[tree]
  d.nisland[0] = nisland
  d.nidof[0] = nidof
  if nisland == 0:
    return
  count = d.scratch_island_count

  # trees: island-major order, unconstrained trees last
  d.island_ntree[:nisland] = 0
  for tree in range(ntree):
    if tree_island[tree] >= 0:
      d.island_ntree[tree_island[tree]] += 1
  _cumsum(d.island_itreeadr, d.island_ntree, nisland)
  count[:nisland] = 0
  free = d.island_itreeadr[nisland - 1] + d.island_ntree[nisland - 1]
  for tree in range(ntree):
    k = tree_island[tree]
    if k >= 0:
      d.map_itree2tree[d.island_itreeadr[k] + count[k]] = tree
      count[k] += 1
    else:
      d.map_itree2tree[free] = tree
      free += 1

  # dofs: island-major order, the nidof constrained dofs first
  d.island_nv[:nisland] = 0
  for dof in range(nv):
    k = tree_island[m.dof_treeid[dof]]
    d.dof_island[dof] = k
    if k >= 0:
      d.island_nv[k] += 1
  _cumsum(d.island_idofadr, d.island_nv, nisland)
  count[:nisland] = 0
  free = nidof
  for dof in range(nv):
    k = d.dof_island[dof]
    if k >= 0:
      idof = d.island_idofadr[k] + count[k]
      count[k] += 1
    else:
      idof = free
      free += 1
    d.map_dof2idof[dof] = idof
    d.map_idof2dof[idof] = dof
  for k in range(nisland):
    d.island_dofadr[k] = d.map_idof2dof[d.island_idofadr[k]]

  # rows: island-major order, with the per-row solver inputs copied in that order
  d.island_ne[:nisland] = 0
  d.island_nf[:nisland] = 0
  d.island_nefc[:nisland] = 0
  for i in range(nefc):
    k = tree_island[efc_tree[i]]
    d.efc_island[i] = k
    d.island_nefc[k] += 1
    if d.efc_type[i] == mjCNSTR_EQUALITY:
      d.island_ne[k] += 1
    elif d.efc_type[i] == mjCNSTR_FRICTION_DOF or d.efc_type[i] == mjCNSTR_FRICTION_TENDON:
      d.island_nf[k] += 1
  _cumsum(d.island_iefcadr, d.island_nefc, nisland)
  count[:nisland] = 0
  for i in range(nefc):
    k = d.efc_island[i]
    ic = d.island_iefcadr[k] + count[k]
    count[k] += 1
    d.map_efc2iefc[i] = ic
    d.map_iefc2efc[ic] = i
    copy_row_inputs(d, ic, i)


@jit
def copy_row_inputs(d, ic, i):
  """Row i's solver inputs (type, id, friction loss, D, R) into island-major position ic."""
  d.iefc_type[ic] = d.efc_type[i]
  d.iefc_id[ic] = d.efc_id[i]
  d.iefc_frictionloss[ic] = d.efc_frictionloss[i]
  d.iefc_D[ic] = d.efc_D[i]
  d.iefc_R[ic] = d.efc_R[i]


@jit
def _cumsum(adr, num, n):
  """adr[k] = num[0] + ... + num[k-1] for k < n."""
  total = 0
  for k in range(n):
    adr[k] = total
    total += num[k]


@runs_stage(island)
def mj_island(m, d):
  """Constraint islands of the current constraint rows (needs mj_makeConstraint)."""
  island(m._struct, d._struct)
