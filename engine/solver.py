"""Constraint solvers: the constraint stage of mj_fwdConstraint (port of engine_solver.c).

`solve(m, d)` turns the constraint rows built by constraint.py into qacc, efc_force,
efc_state and qfrc_constraint with the solver selected in m.opt.solver (PGS, CG or Newton),
warm-started as MuJoCo does, followed by the optional noslip pass. The pieces live in
solver_common.py (row helpers, mj_constraintUpdate), solver_pgs.py (PGS, noslip) and
solver_newton.py (CG, Newton).

Known difference: MuJoCo 3.17 splits the rows into islands and solves each island
separately (unless mjDSBL_ISLAND); we always solve all rows as one island. Both minimize the
same convex cost, so the solutions agree at convergence; iteration counts and per-iteration
statistics are those of MuJoCo with islands disabled.
"""

import numpy as np

from engine.solver_common import constraint_update
from engine.solver_common import constraint_update_impl

__all__ = ["constraint_update", "constraint_update_impl", "mj_constraintUpdate"]


# ---- Python API (mujoco binding signatures) ----


def mj_constraintUpdate(m, d, jar, cost, flg_coneHessian):
  """efc_state, efc_force, qfrc_constraint (and cone Hessians) from jar = J*qacc - aref.

  cost: None, or a writable 1-element float64 array that receives the constraint cost.
  """
  nefc = d.nefc
  jar = np.ascontiguousarray(jar, dtype=np.float64).reshape(-1)
  if jar.shape[0] != nefc:
    raise ValueError(f"jar must have nefc={nefc} elements, got {jar.shape[0]}")
  buf = np.zeros(1 if cost is not None else 0)
  constraint_update(m._struct, d._struct, jar, buf, int(flg_coneHessian))
  if cost is not None:
    out = np.asarray(cost)
    if out.size != 1:
      raise ValueError("cost must have exactly one element")
    out.reshape(-1)[0] = buf[0]
