"""The whole pipeline with contacts and constraints against mujoco: mj_forward (collision,
constraint rows, each solver and cone), short trajectories in contact, mj_inverse with
constraints, and 10-second stability of models written the way people write them.

Models: tests/models/contact/ (our own). MuJoCo simulates each scene for a while first so the
comparison happens in contact; both engines then start from the same state.
"""

import pathlib

import mujoco
import numpy as np
import pytest

import engine
from tests import oracle

MODELS = pathlib.Path(__file__).parents[1] / "models" / "contact"
SCENES = ["capsule_humanoid", "box_pile", "gripper", "terrain_quadruped", "constraints"]
SOLVERS = {
  "newton": mujoco.mjtSolver.mjSOL_NEWTON,
  "cg": mujoco.mjtSolver.mjSOL_CG,
  "pgs": mujoco.mjtSolver.mjSOL_PGS,
}
CONES = {"pyramidal": mujoco.mjtCone.mjCONE_PYRAMIDAL, "elliptic": mujoco.mjtCone.mjCONE_ELLIPTIC}


def _scene(name, solver="newton", cone=None, settle=150, tight=True):
  """MuJoCo model and data in contact, and our copies of both."""
  mjm = mujoco.MjModel.from_xml_path(str(MODELS / f"{name}.xml"))
  mjm.opt.solver = SOLVERS[solver]
  if cone is not None:
    mjm.opt.cone = CONES[cone]
  if tight:  # solve to convergence so both engines reach the same solution
    mjm.opt.iterations = 1000 if solver != "pgs" else 5000
    mjm.opt.tolerance = 1e-13
    mjm.opt.ls_tolerance = 1e-6
  mjd = mujoco.MjData(mjm)
  mjd.ctrl[:] = 0.02 if name == "gripper" else 0.0
  mujoco.mj_step(mjm, mjd, settle)
  m = oracle.from_mujoco(mjm)
  d = engine.MjData(m)
  oracle.copy_state(mjd, d)
  return mjm, mjd, m, d


def _rel(ours, ref):
  return np.abs(ours - ref).max() / max(np.abs(ref).max(), 1e-12)


@pytest.mark.parametrize("cone", CONES)
@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("name", SCENES)
def test_forward_matches_mujoco(name, solver, cone):
  """Contacts, rows and qacc at convergence (1e-4 relative, docs/architecture.md)."""
  mjm, mjd, m, d = _scene(name, solver, cone)
  mujoco.mj_forward(mjm, mjd)
  engine.mj_forward(m, d)
  assert d.ncon == mjd.ncon and d.nefc == mjd.nefc
  assert (d.ne, d.nf, d.nl) == (mjd.ne, mjd.nf, mjd.nl)
  np.testing.assert_array_equal(d.efc_type, mjd.efc_type)
  assert _rel(d.qacc, mjd.qacc) < 1e-4
  assert _rel(d.qfrc_constraint, mjd.qfrc_constraint) < 1e-4
  if solver == "newton":
    assert _rel(d.qacc, mjd.qacc) < 1e-6


@pytest.mark.parametrize("name", SCENES)
def test_trajectory_in_contact_matches_mujoco(name):
  """20 steps with the default Newton solver from the same state in contact."""
  mjm, mjd, m, d = _scene(name)
  for _ in range(20):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
  scale = max(np.abs(mjd.qvel).max(), 1.0)
  assert np.abs(d.qpos - mjd.qpos).max() < 1e-6
  assert np.abs(d.qvel - mjd.qvel).max() < 1e-5 * scale
  assert d.ncon == mjd.ncon


@pytest.mark.parametrize("name", SCENES)
def test_inverse_with_constraints_matches_mujoco(name):
  """mj_inverse recovers the applied forces: with the soft model it is analytic."""
  mjm, mjd, m, d = _scene(name)
  mujoco.mj_forward(mjm, mjd)
  engine.mj_forward(m, d)
  mujoco.mj_inverse(mjm, mjd)
  engine.mj_inverse(m, d)
  assert _rel(d.qfrc_constraint, mjd.qfrc_constraint) < 1e-6
  # forward then inverse gives back the applied and actuator forces (zero here, so compare
  # on the scale of the forces that cancel)
  scale = max(np.abs(mjd.qfrc_constraint).max(), np.abs(mjd.qfrc_bias).max(), 1.0)
  assert np.abs(d.qfrc_inverse - mjd.qfrc_inverse).max() < 1e-9 * scale
  expected = mjd.qfrc_applied + mjd.qfrc_actuator
  assert np.abs(d.qfrc_inverse - expected).max() < 1e-6 * scale


@pytest.mark.parametrize("name", ["capsule_humanoid", "box_pile", "terrain_quadruped", "gripper"])
def test_ten_seconds_are_stable(name):
  """Default options (Newton): 10 s without warnings, bodies at rest on the ground, no
  penetration beyond a few millimetres."""
  path = MODELS / f"{name}.xml"
  m = engine.MjModel.from_xml_path(str(path))
  d = engine.MjData(m)
  if name == "gripper":
    d.ctrl[:] = 0.02
  nstep = int(round(10.0 / m.opt.timestep))
  engine.mj_step(m, d, nstep)
  assert sum(w.number for w in d.warning) == 0
  assert np.all(np.isfinite(d.qpos)) and np.abs(d.qvel).max() < 0.5
  assert d.ncon > 0 and d.contact.dist.min() > -0.01
