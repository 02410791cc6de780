"""Constraint islands (engine/island.py) against mujoco 3.17: every island field after
mj_forward from MuJoCo's state, on scenes with one, several and many islands, trees coupled
by equalities and tendons, contacts with the world, both Jacobian layouts."""

import mujoco
import numpy as np
import pytest

import engine
from tests import oracle

# fields of one entry per tree or dof (always full), per island (cut to nisland) and per row
PER_TREE_DOF = ("tree_island", "map_itree2tree", "dof_island", "map_dof2idof", "map_idof2dof")
PER_ISLAND = (
  "island_ntree",
  "island_itreeadr",
  "island_nv",
  "island_idofadr",
  "island_dofadr",
  "island_ne",
  "island_nf",
  "island_nefc",
  "island_iefcadr",
)
PER_ROW = (
  "efc_island",
  "map_efc2iefc",
  "map_iefc2efc",
  "iefc_type",
  "iefc_id",
  "iefc_frictionloss",
  "iefc_D",
  "iefc_R",
)

# three stacks of boxes and spheres, a body in the air, a hinged pendulum at its joint limit
# (a one-tree island) and a pair of spheres touching each other but not the floor
PILES = """
<mujoco>
  <option jacobian="{jacobian}"/>
  <worldbody>
    <geom type="plane" size="5 5 .1"/>
    <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="0 0 .3"><freejoint/><geom type="sphere" size=".1"/></body>
    <body pos="1 0 .1"><freejoint/><geom type="sphere" size=".1"/></body>
    <body pos="0 0 3"><freejoint/><geom type="capsule" size=".05 .1"/></body>
    <body pos="1 .02 .3"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="2 0 1.5">
      <joint type="hinge" axis="0 1 0" limited="true" range="-1 1"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
    </body>
    <body pos="-2 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="-2 0 .3"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="-2 .01 .5"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="3 0 2"><joint type="slide" axis="1 0 0"/><geom type="sphere" size=".1"/></body>
    <body pos="3.19 0 2"><joint type="slide" axis="1 0 0"/><geom type="sphere" size=".1"/></body>
  </worldbody>
</mujoco>
"""

# trees joined only by constraints: a connect equality between two bodies, a weld between two
# sites, a joint equality, a spatial tendon across two trees with a limit and friction loss, a
# fixed tendon equality, and dof friction on a lone tree
COUPLINGS = """
<mujoco>
  <option jacobian="{jacobian}" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="a" pos="0 0 1"><joint name="a" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <site name="a_tip" pos=".3 0 0"/></body>
    <body name="b" pos=".6 0 1"><joint name="b" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 -.3 0 0" size=".03"/></body>
    <body name="c" pos="0 1 1"><joint name="c" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <site name="c_tip" pos=".3 0 0"/></body>
    <body name="d" pos=".3 1 1"><freejoint/><geom type="sphere" size=".05"/>
      <site name="d_site"/></body>
    <body name="e" pos="0 2 1"><joint name="e" type="slide" axis="0 0 1"/>
      <geom type="sphere" size=".05"/></body>
    <body name="f" pos="1 2 1"><joint name="f" type="slide" axis="0 0 1"/>
      <geom type="sphere" size=".05"/></body>
    <body name="g" pos="0 3 1"><joint name="g" type="slide" axis="1 0 0"/>
      <geom type="sphere" size=".05"/><site name="g_site"/></body>
    <body name="h" pos="1 3 1"><joint name="h" type="slide" axis="1 0 0"/>
      <geom type="sphere" size=".05"/><site name="h_site"/></body>
    <body name="i" pos="0 4 1"><joint name="i1" type="slide" axis="0 0 1"/>
      <joint name="i2" type="slide" axis="1 0 0" frictionloss=".1"/>
      <geom type="sphere" size=".05"/></body>
    <body name="j" pos="0 5 1"><joint name="j1" type="slide" axis="0 0 1"/>
      <geom type="sphere" size=".05"/></body>
    <body name="k" pos="1 5 1"><joint name="k1" type="slide" axis="0 0 1"/>
      <geom type="sphere" size=".05"/></body>
  </worldbody>
  <equality>
    <connect body1="a" body2="b" anchor=".3 0 0"/>
    <weld site1="c_tip" site2="d_site"/>
    <joint joint1="e" joint2="f" polycoef="0 1 0 0 0"/>
    <tendon tendon1="jk" polycoef="0 1 0 0 0"/>
  </equality>
  <tendon>
    <spatial limited="true" range="0 .9" frictionloss=".2">
      <site site="g_site"/><site site="h_site"/></spatial>
    <fixed name="jk"><joint joint="j1" coef="1"/><joint joint="k1" coef="-1"/></fixed>
  </tendon>
</mujoco>
"""


def _forward(xml: str, nstep: int):
  """MuJoCo steps the model nstep times; both engines then run mj_forward on that state."""
  mjm, mjd, m, d = oracle.load(xml)
  mujoco.mj_step(mjm, mjd, nstep)
  mujoco.mj_forward(mjm, mjd)
  oracle.copy_state(mjd, d)
  engine.mj_forward(m, d)
  return mjm, mjd, m, d


def _assert_islands_equal(mjd, d):
  assert (d.nefc, d.nisland, d.nidof) == (mjd.nefc, mjd.nisland, mjd.nidof)
  for name in PER_TREE_DOF + PER_ISLAND + PER_ROW:
    np.testing.assert_array_equal(getattr(d, name), getattr(mjd, name), err_msg=name)


@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_piles_form_one_island_per_touching_group(jacobian):
  mjm, mjd, m, d = _forward(PILES.format(jacobian=jacobian), 20)
  assert mjd.nisland == 5  # two stacks, the lone sphere, the pendulum, the sphere pair
  _assert_islands_equal(mjd, d)
  # the falling capsule touches nothing: its tree is in no island, its dofs come last
  assert d.tree_island[3] == -1
  assert set(d.map_idof2dof[d.nidof :]) == set(range(18, 24))


@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_equalities_and_tendons_join_trees(jacobian):
  mjm, mjd, m, d = _forward(COUPLINGS.format(jacobian=jacobian), 5)
  assert mjd.ne > 0 and mjd.nf > 0 and mjd.nl > 0
  _assert_islands_equal(mjd, d)
  # a-b (connect), c-d (weld of sites), e-f (joint), g-h (tendon limit and friction),
  # i (dof friction), j-k (fixed tendon equality)
  assert d.nisland == 6
  assert list(d.island_ntree) == [2, 2, 2, 2, 1, 2]


def test_many_trees_in_a_box_match_mujoco():
  rng = np.random.default_rng(0)
  bodies = "".join(
    f'<body pos="{x:.3f} {y:.3f} {z:.3f}"><freejoint/>'
    f'<geom type="{kind}" size=".08 .06 .05"/></body>'
    for (x, y, z), kind in zip(
      rng.uniform([-0.6, -0.6, 0.1], [0.6, 0.6, 1.5], (40, 3)),
      rng.choice(["sphere", "box", "capsule", "ellipsoid"], 40),
    )
  )
  xml = f"""<mujoco><worldbody><geom type="plane" size="1 1 .1"/>{bodies}</worldbody>
  </mujoco>"""
  mjm, mjd, m, d = _forward(xml, 150)
  assert mjd.nisland > 5
  _assert_islands_equal(mjd, d)


def test_disabled_islands_leave_none():
  xml = PILES.format(jacobian="sparse").replace(
    "<option ", '<option><flag island="disable"/></option><option '
  )
  mjm, mjd, m, d = _forward(xml, 20)
  assert mjd.nefc > 0
  assert (d.nisland, d.nidof) == (mjd.nisland, mjd.nidof) == (0, 0)


def test_no_constraints_no_islands():
  xml = """<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
  <body pos="0 0 1"><freejoint/><geom size=".1"/></body></worldbody></mujoco>"""
  mjm, mjd, m, d = _forward(xml, 1)
  assert mjd.nefc == 0
  assert (d.nisland, d.nidof) == (mjd.nisland, mjd.nidof) == (0, 0)


@pytest.mark.parametrize("solver", ["Newton", "CG", "PGS"])
def test_more_islands_than_statistics_rows(solver):
  """30 separate boxes in contact with the floor: 30 islands, more than the mjNISLAND rows of
  solver statistics. Each island is solved and stepped as MuJoCo does; statistics are kept for
  the first mjNISLAND islands only."""
  bodies = "".join(
    f'<body pos="{x * 0.5} {y * 0.5} .098"><freejoint/><geom type="box" size=".1 .1 .1"/></body>'
    for x in range(6)
    for y in range(5)
  )
  xml = (
    f'<mujoco><option solver="{solver}"/><worldbody><geom type="plane" size="5 5 .1"/>'
    f"{bodies}</worldbody></mujoco>"
  )
  mjm, mjd, m, d = oracle.load(xml)
  for _ in range(20):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
  assert d.nisland == mjd.nisland == 30 > mujoco.mjNISLAND
  np.testing.assert_array_equal(d.solver_niter, mjd.solver_niter)
  np.testing.assert_allclose(d.qpos, mjd.qpos, rtol=0, atol=1e-12)
