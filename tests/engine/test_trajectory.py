"""Free trajectories against mujoco 3.17: both engines start from the same state and step on
their own, never resynchronized, through contact scenes; positions must stay within 1e-9 of
MuJoCo's after 50 steps. A per-step oracle test forgives a difference that a trajectory
amplifies (a solver stopping one iteration early, a contact decided the other way); these do
not.

Covered: Newton, CG and PGS with islands (MuJoCo's default: each island solved on its own)
and with islands disabled (all rows at once), both cones, the noslip pass, the sparse Jacobian
layout, tendon and equality rows joining trees, and stacked toy
bricks with native CCD disabled (libccd's MPR, with and without multiccd).
"""

import mujoco
import numpy as np
import pytest

import engine
from tests import oracle

_RNG = np.random.default_rng(1)

SCENES = {
  # a tilted box landing on a corner
  "box_landing": '<body pos="0 0 .2" euler="20 30 0"><freejoint/>'
  '<geom type="box" size=".1 .2 .05"/></body>',
  # boxes and spheres dropped onto each other
  "pile": "".join(
    f'<body pos="{x:.3f} {y:.3f} {z:.3f}" euler="{a:.1f} {b:.1f} 0"><freejoint/>'
    f'<geom type="{kind}" size=".08 .06 .05"/></body>'
    for (x, y, z, a, b), kind in zip(
      _RNG.uniform([-0.2, -0.2, 0.1, 0, 0], [0.2, 0.2, 0.5, 90, 90], (8, 5)), ["box", "sphere"] * 4
    )
  ),
  # three separate stacks of three boxes
  "stacks": "".join(
    f'<body pos="{x} 0 {0.1 + 0.2 * k}"><freejoint/><geom type="box" size=".1 .1 .1"/></body>'
    for x in (0, 1, 2)
    for k in range(3)
  ),
  # a capsule ragdoll (ball and hinge joints, a joint limit) falling on its side
  "ragdoll": """
    <body pos="0 0 .12" euler="0 10 0"><freejoint/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".05"/>
      <body pos=".3 0 0"><joint type="ball"/>
        <geom type="capsule" fromto="0 0 0 .25 0 0" size=".04"/>
        <body pos=".25 0 0"><joint type="hinge" axis="0 1 0" range="-30 30"/>
          <geom type="capsule" fromto="0 0 0 .2 0 0" size=".04"/></body></body>
      <body><joint type="ball"/><geom type="capsule" fromto="0 0 0 0 .25 0" size=".04"/></body>
    </body>""",
  # boxes joined across trees: a spatial tendon with a limit and friction loss between two of
  # them, a connect equality to a third (rows on two trees each)
  "tethered": """
    <body name="a" pos="0 0 .07"><freejoint/><geom type="box" size=".05 .05 .05"/>
      <site name="sa" pos=".05 0 0"/></body>
    <body name="b" pos=".3 0 .1" euler="0 20 0"><freejoint/><geom type="box" size=".05 .05 .05"/>
      <site name="sb" pos="-.05 0 0"/></body>
    <body name="c" pos="-.2 0 .12"><freejoint/><geom type="sphere" size=".05"/></body>""",
  # spheres with condim 3, 4 and 6 rolling down a tilted plane
  "tilted_spheres": "".join(
    f'<body pos="{x} {y} .12"><freejoint/><geom size=".1" condim="{c}"/></body>'
    for x, y, c in ((0, 0, 3), (0.5, 0, 4), (0, 0.5, 6), (0.5, 0.5, 3))
  ),
}

# (solver, islands, extra options)
SOLVERS = {
  "newton": ("Newton", "enable", ""),
  "cg": ("CG", "enable", ""),
  "pgs": ("PGS", "enable", ""),
  "newton_monolithic": ("Newton", "disable", ""),
  "cg_monolithic": ("CG", "disable", ""),
  "newton_noslip": ("Newton", "enable", 'noslip_iterations="5"'),
  "pgs_noslip": ("PGS", "enable", 'noslip_iterations="5"'),
  # the sparse Jacobian layout (MuJoCo's for nv >= 60): sparse efc_Y and efc_AR in PGS
  "newton_sparse": ("Newton", "enable", 'jacobian="sparse"'),
  "pgs_sparse": ("PGS", "enable", 'jacobian="sparse"'),
  "pgs_noslip_sparse": ("PGS", "enable", 'jacobian="sparse" noslip_iterations="5"'),
  "cg_sparse_monolithic": ("CG", "disable", 'jacobian="sparse"'),
}


def _xml(scene, solver, islands, extra, cone):
  plane = '<geom type="plane" size="5 5 .1"' + (
    ' euler="10 5 0"/>' if scene == "tilted_spheres" else "/>"
  )
  return (
    f'<mujoco><option solver="{solver}" cone="{cone}" {extra}>'
    f'<flag island="{islands}"/></option>'
    f"<worldbody>{plane}{SCENES[scene]}</worldbody>{_EXTRA.get(scene, '')}</mujoco>"
  )


_EXTRA = {
  "tethered": """
  <tendon><spatial range="0 .32" limited="true" frictionloss=".5">
    <site site="sa"/><site site="sb"/></spatial></tendon>
  <equality><connect body1="a" body2="c" anchor="-.1 0 .1"/></equality>"""
}


CASES = [
  (scene, solver, cone)
  for scene in SCENES
  for solver in SOLVERS
  for cone in ("pyramidal", "elliptic")
]


@pytest.mark.parametrize("scene, solver, cone", CASES)
def test_free_trajectory_stays_mujocos(scene, solver, cone):
  mjm, mjd, m, d = oracle.load(_xml(scene, *SOLVERS[solver], cone))
  contacts = 0
  for _ in range(50):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
    contacts += mjd.ncon
  assert contacts > 0  # the scene is in contact for part of the run
  assert d.ncon == mjd.ncon
  np.testing.assert_allclose(d.qpos, mjd.qpos, rtol=0, atol=1e-9)
  np.testing.assert_allclose(d.qvel, mjd.qvel, rtol=0, atol=1e-7)


@pytest.mark.parametrize("solver", ["Newton", "CG"])
@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("scene", ["pile", "stacks", "ragdoll"])
def test_primal_solve_bit_equal_from_mujocos_state(scene, cone, jacobian, solver):
  """Each step from MuJoCo's state, CG's and Newton's qacc, iterations and solver_nnz equal
  MuJoCo's to the last bit, islands on: Newton with the sparse layout builds H = J'*D*J + M
  sparse and factors it by MuJoCo's reverse sparse Cholesky, and with elliptic cones adds the
  cone Hessians by rank-1 updates or, where MuJoCo 3.17 finds that cheaper (the pile from its
  8th step), folds them into H and refactors."""
  mjm, mjd, m, d = oracle.load(_xml(scene, solver, "enable", f'jacobian="{jacobian}"', cone))
  for _ in range(30):
    mujoco.mj_step(mjm, mjd)
    d.qpos[:] = mjd.qpos
    d.qvel[:] = mjd.qvel
    d.qacc_warmstart[:] = mjd.qacc_warmstart
    d.time = mjd.time
    mujoco.mj_forward(mjm, mjd)
    engine.mj_forward(m, d)
    np.testing.assert_array_equal(d.qacc, mjd.qacc)
    n = max(1, min(mjd.nisland, mujoco.mjNISLAND))
    np.testing.assert_array_equal(d.solver_niter[:n], mjd.solver_niter[:n])
    np.testing.assert_array_equal(d.solver_nnz[:n], mjd.solver_nnz[:n])


@pytest.mark.parametrize("flags", ["multiccd", "single"])
def test_free_trajectory_bricks_without_native_ccd(flags):
  """Stacked toy bricks (cylinder studs against boxes) with nativeccd disabled: libccd's MPR
  with and without multiccd, stepped freely for 50 steps."""
  from tests.engine.test_collision_mpr import FLAGS
  from tests.engine.test_collision_mpr import _bricks_xml

  mjm, mjd, m, d = oracle.load(_bricks_xml(FLAGS[flags]))
  contacts = 0
  for _ in range(50):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
    contacts += mjd.ncon
  assert contacts > 0
  assert d.ncon == mjd.ncon
  np.testing.assert_allclose(d.qpos, mjd.qpos, rtol=0, atol=1e-9)
  np.testing.assert_allclose(d.qvel, mjd.qvel, rtol=0, atol=1e-7)
