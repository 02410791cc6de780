"""Constraint solvers: the constraint stage of mj_fwdConstraint (port of engine_solver.c).

`solve(m, d)` turns the constraint rows built by constraint.py into qacc, efc_force,
efc_state and qfrc_constraint with the solver selected in m.opt.solver (PGS, CG or Newton),
warm-started as MuJoCo does, followed by the optional noslip pass. The pieces live in
solver_common.py (row helpers, mj_constraintUpdate), solver_pgs.py (PGS, noslip) and
solver_newton.py (CG, Newton).

As MuJoCo 3.17, every solver (and noslip) solves each constraint island (engine/island.py)
on its own, with its own termination test, iteration count and statistics, unless
mjDSBL_ISLAND or there are no islands: then all rows are solved as one.
"""

import numpy as np

from engine._jit import jit
from engine._stage import D
from engine._stage import M
from engine._stage import i8
from engine._stage import stage
from engine._stage import vec
from engine.enums import mjDSBL_WARMSTART
from engine.enums import mjNISLAND
from engine.enums import mjSOL_CG
from engine.enums import mjSOL_NEWTON
from engine.enums import mjSOL_PGS
from engine.enums import mjWARN_CNSTRFULL
from engine.flags import disabled
from engine.math import mju_dot
from engine.projection import efc_ar
from engine.projection import efc_y
from engine.smooth import mul_m
from engine.solver_common import constraint_update
from engine.solver_common import constraint_update_impl
from engine.solver_common import is_sparse
from engine.solver_common import mul_jac_t_vec
from engine.solver_common import mul_jac_vec
from engine.solver_newton import cg_newton
from engine.solver_newton import gather_islands
from engine.solver_newton import scatter_islands
from engine.solver_pgs import ar_row_dot
from engine.solver_pgs import dual_finish
from engine.solver_pgs import noslip
from engine.solver_pgs import pgs

__all__ = ["constraint_update", "constraint_update_impl", "solve", "mj_constraintUpdate"]


@jit
def _warmstart(m, d):
  """Port of warmstart, engine_forward.c: start from the better of qacc_warmstart and
  qacc_smooth (PGS: efc_force at qacc_warmstart, or zero if its dual cost is positive)."""
  nv = m.nv
  nefc = d.nefc[0]
  if disabled(m, mjDSBL_WARMSTART):
    for i in range(nv):
      d.qacc[i] = d.qacc_smooth[i]
    for i in range(nefc):
      d.efc_force[i] = 0.0
    return

  # cost of qacc_warmstart
  jar = d.scratch_jar
  for i in range(nv):
    d.qacc[i] = d.qacc_warmstart[i]
  mul_jac_vec(m, d, jar, d.qacc_warmstart)
  for i in range(nefc):
    jar[i] -= d.efc_aref[i]
  cost_warmstart = constraint_update_impl(m, d, jar, 0)
  mul_jac_t_vec(m, d, d.qfrc_constraint, d.efc_force)

  if m.opt.solver[0] == mjSOL_PGS:
    # dual cost of the warm-start forces: f'*b + 0.5*f'*AR*f; zero forces if positive
    sparse = is_sparse(m)
    ARf = d.scratch_Jv
    for i in range(nefc):
      ARf[i] = ar_row_dot(d, sparse, i, d.efc_force)
    cost = mju_dot(d.efc_force, d.efc_b, nefc) + 0.5 * mju_dot(d.efc_force, ARf, nefc)
    if cost > 0:
      for i in range(nefc):
        d.efc_force[i] = 0.0
      for i in range(nv):
        d.qfrc_constraint[i] = 0.0
  else:
    # add the Gauss cost, compare with qacc_smooth
    Ma = d.scratch_Ma
    mul_m(m, d, Ma, d.qacc_warmstart)
    for i in range(nv):
      cost_warmstart += 0.5 * (Ma[i] - d.qfrc_smooth[i]) * (d.qacc_warmstart[i] - d.qacc_smooth[i])
    cost_smooth = constraint_update_impl(m, d, d.efc_b, 0)
    mul_jac_t_vec(m, d, d.qfrc_constraint, d.efc_force)
    if cost_warmstart > cost_smooth:
      for i in range(nv):
        d.qacc[i] = d.qacc_smooth[i]

  # dofs outside every island: unconstrained
  for k in range(d.nidof[0], nv if d.nisland[0] > 0 else 0):
    dof = d.map_idof2dof[k]
    d.qacc[dof] = d.qacc_smooth[dof]


@stage()
def solve(m, d):
  """Port of mj_fwdConstraint, engine_forward.c: qacc, efc_force, efc_state and
  qfrc_constraint from the constraint rows, with the solver in m.opt.solver and the optional
  noslip pass, island by island (island.py leaves none when mjDSBL_ISLAND)."""
  nv = m.nv
  nefc = d.nefc[0]
  for i in range(nv):
    d.qfrc_constraint[i] = 0.0

  # no constraints: unconstrained acceleration
  if nefc == 0:
    for i in range(nv):
      d.qacc[i] = d.qacc_smooth[i]
    for i in range(mjNISLAND):
      d.solver_niter[i] = 0
    return

  # efc_b = J*qacc_smooth - aref
  mul_jac_vec(m, d, d.efc_b, d.qacc_smooth)
  for i in range(nefc):
    d.efc_b[i] -= d.efc_aref[i]

  # efc_AR for the dual solvers: made with the rows, unless the options changed since
  solver = m.opt.solver[0]
  dual = solver == mjSOL_PGS or m.opt.noslip_iterations[0] > 0
  if dual and d.nA[0] == 0:
    if not (efc_y(m, d, False) and efc_ar(m, d)):
      d.warning_number[mjWARN_CNSTRFULL] += 1  # no room: unconstrained, as with no rows
      d.warning_lastinfo[mjWARN_CNSTRFULL] = d.efc_AR.shape[0]
      for i in range(nv):
        d.qacc[i] = d.qacc_smooth[i]
      for i in range(nefc):
        d.efc_force[i] = 0.0
      for i in range(mjNISLAND):
        d.solver_niter[i] = 0
      return

  _warmstart(m, d)
  for i in range(mjNISLAND):
    d.solver_niter[i] = 0

  # main solver, island by island (island -1: every row at once)
  islands = d.nisland[0]
  if solver == mjSOL_PGS:
    for k in range(islands) if islands else range(-1, 0):
      pgs(m, d, k, m.opt.iterations[0])
  elif solver == mjSOL_CG or solver == mjSOL_NEWTON:
    gather_islands(m, d, islands == 0)
    for k in range(islands) if islands else range(-1, 0):
      cg_newton(m, d, k, m.opt.iterations[0], 1 if solver == mjSOL_NEWTON else 0)
    scatter_islands(m, d, islands == 0)

  # noslip post-processing; the dual solvers' forces mapped to qacc
  if m.opt.noslip_iterations[0] > 0:
    for k in range(islands) if islands else range(-1, 0):
      noslip(m, d, k, m.opt.noslip_iterations[0])
  if dual:
    dual_finish(m, d)


# ---- Python API (mujoco binding signatures) ----


# the helper compiled once more for Python's calls
_constraint_update = stage(M, D, vec, vec, i8, lazy=True)(constraint_update)


def mj_constraintUpdate(m, d, jar, cost, flg_coneHessian):
  """efc_state, efc_force, qfrc_constraint (and cone Hessians) from jar = J*qacc - aref.

  cost: None, or a writable 1-element float64 array that receives the constraint cost.
  """
  nefc = d.nefc
  jar = np.ascontiguousarray(jar, dtype=np.float64).reshape(-1)
  if jar.shape[0] != nefc:
    raise ValueError(f"jar must have nefc={nefc} elements, got {jar.shape[0]}")
  if cost is not None:
    if not (isinstance(cost, np.ndarray) and cost.dtype == np.float64 and cost.flags.writeable):
      raise TypeError("cost must be a writable float64 numpy array")
    if cost.size != 1:
      raise ValueError("cost must have exactly one element")
  buf = np.zeros(1 if cost is not None else 0)
  _constraint_update(m._struct, d._struct, jar, buf, int(flg_coneHessian))
  if cost is not None:
    cost.reshape(-1)[0] = buf[0]
