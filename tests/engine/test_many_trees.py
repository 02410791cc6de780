"""Scenes of many kinematic trees: MjData grows with the number of constraint rows times the
size of a tree (not times nv), the solvers' per-island work with the island, and stepping
stays MuJoCo's. Also the capacity edges: an island too large for the kept Newton Hessian, a
full broadphase pair list, a Jacobian layout switched to dense after MjData was made.
"""

import mujoco
import numpy as np
import pytest

import engine
from engine import types as _types
from tests import oracle


def _spheres(n, spacing=0.25, options=""):
  """n free spheres of radius .1 on a cubic grid above a plane (no two touching)."""
  k = int(np.ceil(n ** (1 / 3)))
  bodies = "".join(
    f'<body pos="{spacing * (i % k)} {spacing * ((i // k) % k)} {0.2 + spacing * (i // k // k)}">'
    f'<freejoint/><geom size=".1"/></body>'
    for i in range(n)
  )
  return (
    f"<mujoco><option {options}/><worldbody><geom type='plane' size='10 10 .1'/>"
    f"{bodies}</worldbody></mujoco>"
  )


def _pile(solver, cone="pyramidal", n=10, layers=3, jacobian="auto"):
  """layers x n x n spheres of radius .05 touching their neighbours: 23 islands on the plane."""
  rng = np.random.default_rng(0)
  bodies = "".join(
    f'<body pos="{0.1 * i + rng.uniform(-0.005, 0.005):.4f} {0.1 * j:.4f} {0.05 + 0.098 * k:.4f}">'
    f'<freejoint/><geom size=".05"/></body>'
    for k in range(layers)
    for i in range(n)
    for j in range(n)
  )
  return (
    f'<mujoco><option solver="{solver}" cone="{cone}" jacobian="{jacobian}"/><worldbody>'
    f'<geom type="plane" size="5 5 .1"/>{bodies}</worldbody></mujoco>'
  )


def test_data_grows_with_rows_times_tree_size():
  # 2000 free spheres: before, the Jacobian and its copies took rows x nv (each 10 GiB here)
  m = engine.MjModel.from_xml_string(_spheres(2000))
  d = engine.MjData(m)
  cap = _types.data_capacity(m)
  assert cap["nJcap"] == cap["nefccap"] * 12  # a contact row spans two trees of 6 dofs
  for name in ("efc_J", "efc_J_colind", "scratch_iJ", "scratch_JT"):
    assert d._arrays[name].size == cap["nJcap"]
  assert d._arrays["scratch_H"].size == 1 << 22  # not nv^2 = 1.4e8
  assert d._arrays["efc_Y"].size == d._arrays["efc_AR"].size == 0  # Newton: no projection
  total = sum(a.nbytes for a in d._arrays.values())
  assert total < 2**30

  # PGS: Y like J, AR within its cap (not nefc^2 = 2.3e9; half this model's arena would be more)
  d = engine.MjData(engine.MjModel.from_xml_string(_spheres(2000, options='solver="PGS"')))
  assert d._arrays["efc_Y"].size == cap["nJcap"] and d._arrays["efc_AR"].size == 1 << 25
  assert sum(a.nbytes for a in d._arrays.values()) < 2**30


@pytest.mark.parametrize("solver", ["Newton", "CG", "PGS"])
def test_pile_of_many_trees_stays_mujocos(solver):
  # 300 spheres (nv 1800, sparse Jacobian): contacts between trees, two dozen islands
  mjm, mjd, m, d = oracle.load(_pile(solver))
  islands = 0
  for _ in range(40):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
    islands = max(islands, d.nisland)
  assert islands > 10 and d.nisland == mjd.nisland
  assert d.ncon == mjd.ncon > 300
  np.testing.assert_allclose(d.qpos, mjd.qpos, rtol=0, atol=1e-12)
  np.testing.assert_allclose(d.qvel, mjd.qvel, rtol=0, atol=1e-10)


@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_island_beyond_the_kept_hessian_stays_mujocos(monkeypatch, cone, jacobian):
  # a Hessian of 36 entries: every island whose Hessian (dense: of more than 6 dofs; sparse:
  # H or its factor past 36 entries) does not fit takes its own, as one of more than 2048
  # dofs does by default
  monkeypatch.setattr(_types, "_HESSIAN_CAP", 36)
  mjm, mjd, m, d = oracle.load(_pile("Newton", cone, n=4, layers=2, jacobian=jacobian))
  assert d._arrays["scratch_H"].size == 36
  largest = 0
  for _ in range(40):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
    largest = max(largest, d.island_nv.max(initial=0))
  assert largest > 6
  np.testing.assert_allclose(d.qpos, mjd.qpos, rtol=0, atol=1e-12)


def test_broadphase_after_teleports_finds_mujocos_contacts():
  # bodies moved far between calls: the kept sweep order is rebuilt, contacts stay MuJoCo's
  xml = _spheres(300, spacing=0.2)
  mjm, mjd, m, d = oracle.load(xml)
  rng = np.random.default_rng(3)
  for _ in range(5):
    qpos = mjd.qpos.copy().reshape(-1, 7)
    qpos[:, :3] = rng.uniform([0, 0, 0.05], [2, 2, 0.6], (len(qpos), 3))
    mjd.qpos[:] = d.qpos[:] = qpos.ravel()
    mujoco.mj_forward(mjm, mjd)
    engine.mj_forward(m, d)
    assert d.ncon == mjd.ncon > 50
    ours = sorted(zip(d.contact.geom1, d.contact.geom2, np.round(d.contact.dist, 12)))
    theirs = sorted(zip(mjd.contact.geom1, mjd.contact.geom2, np.round(mjd.contact.dist, 12)))
    assert ours == theirs


def test_full_broadphase_pair_list_warns(monkeypatch):
  monkeypatch.setattr(_types, "_PAIR_CAP", 2)
  m = engine.MjModel.from_xml_string(_spheres(8, spacing=0.15))
  d = engine.MjData(m)
  assert d._arrays["scratch_bodypair"].size == 2
  engine.mj_step(m, d, 300)  # the spheres' boxes overlap pairwise well beyond two pairs
  assert d.warning[engine.mjtWarning.mjWARN_CONTACTFULL].number > 0
  assert np.isfinite(d.qpos).all()


def test_dense_layout_past_the_sparse_capacity_warns():
  # capacity is sized for the layout MjData was made for: switching a large model to dense
  # rows (nv entries each) runs out of Jacobian room and warns, as a full arena does
  m = engine.MjModel.from_xml_string(_spheres(100, options='timestep=".01"'))
  d = engine.MjData(m)
  m.opt.jacobian = mujoco.mjtJacobian.mjJAC_DENSE
  engine.mj_step(m, d, 60)  # all 100 spheres rest on the plane: 400 rows of 600 entries
  assert d.warning[engine.mjtWarning.mjWARN_CNSTRFULL].number > 0
  assert d.nefc == 0 and np.isfinite(d.qpos).all()


@pytest.mark.parametrize("case", ["switched_to_pgs", "past_the_cap"])
def test_projection_past_its_capacity_warns(monkeypatch, case):
  # efc_Y and efc_AR get room when MjData is made for a dual solver (PGS or noslip), up to a
  # cap: a switch to PGS afterwards, or more AR entries than the cap, warns as a full arena
  # does and leaves no rows (never a write past the buffers)
  options = 'solver="PGS"' if case == "past_the_cap" else ""
  monkeypatch.setattr(_types, "_AR_CAP", 16)
  monkeypatch.setattr(_types, "_AR_ARENA_SHARE", 1 << 62)  # no room from the arena either
  m = engine.MjModel.from_xml_string(_spheres(8, spacing=0.15, options=options))
  d = engine.MjData(m)
  assert d._arrays["efc_AR"].size == (16 if options else 0)
  m.opt.solver = mujoco.mjtSolver.mjSOL_PGS
  engine.mj_step(m, d, 5)  # overlapping spheres: dozens of rows
  assert d.warning[engine.mjtWarning.mjWARN_CNSTRFULL].number == 5
  assert d.nefc == 0 and d.nA == 0 and np.isfinite(d.qpos).all()
