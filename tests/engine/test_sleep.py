"""Sleeping trees (engine/sleep.py) against mujoco 3.17: both engines step freely from the
same state with `<flag sleep="enable"/>` and every sleep field (tree_asleep, tree_awake,
body_awake, the *_awake_ind lists and their counts) must be MuJoCo's at every step, with
positions equal to 1e-12: trees falling asleep one island at a time, woken by a contact from
an awake tree, by an applied force, by a qpos change and by an equality, policies (never,
allowed, init, the automatic one of actuated trees), controls of sleeping actuators, and the
reset."""

import mujoco
import numpy as np
import pytest

import engine
from tests import oracle

SLEEP_FIELDS = (
  "tree_asleep",
  "tree_awake",
  "body_awake",
  "ntree_awake",
  "nbody_awake",
  "nparent_awake",
  "nv_awake",
)
# index lists: only their first n entries are meaningful
SLEEP_LISTS = (
  ("body_awake_ind", "nbody_awake"),
  ("parent_awake_ind", "nparent_awake"),
  ("dof_awake_ind", "nv_awake"),
)

# two boxes stacked and one alone at rest, a sphere falling onto the lone box late (waking it),
# a damped pendulum swinging down and a tree that may never sleep
SCENE = """
<mujoco>
  <option><flag sleep="enable"/></option>
  <worldbody>
    <geom type="plane" size="5 5 .1"/>
    <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="1 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="1 0 .3"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="0 0 1.5"><freejoint/><geom type="sphere" size=".1"/></body>
    <body pos="2 0 .5"><joint type="hinge" axis="0 1 0" damping="1"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/></body>
    <body pos="3 0 .1" sleep="never"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
  </worldbody>
</mujoco>
"""


def _assert_sleep_equal(d, mjd, where):
  for name in SLEEP_FIELDS:
    np.testing.assert_array_equal(getattr(d, name), getattr(mjd, name), err_msg=f"{name} {where}")
  for name, count in SLEEP_LISTS:
    n = int(getattr(mjd, count))
    np.testing.assert_array_equal(
      getattr(d, name)[:n], getattr(mjd, name)[:n], err_msg=f"{name} {where}"
    )


def _step_both(mjm, mjd, m, d, nstep, before=None):
  for step in range(nstep):
    if before is not None:
      before(step, mjd, d)
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
    _assert_sleep_equal(d, mjd, f"step {step}")
    np.testing.assert_allclose(d.qpos, mjd.qpos, rtol=0, atol=1e-12, err_msg=f"step {step}")
    np.testing.assert_allclose(d.qvel, mjd.qvel, rtol=0, atol=1e-10, err_msg=f"step {step}")
    assert d.ncon == mjd.ncon, f"step {step}"


def test_reset_fields_match_mujoco():
  mjm, mjd, m, d = oracle.load(SCENE)
  _assert_sleep_equal(d, mjd, "after reset")
  assert d.ntree_awake == m.ntree


def test_trees_fall_asleep_and_wake_on_contact():
  """Islands sleep once all their trees are quiet for mjMINAWAKE steps; the falling sphere
  wakes the lone box it lands on and the two then sleep together, as one cycle."""
  mjm, mjd, m, d = oracle.load(SCENE)
  _step_both(mjm, mjd, m, d, 600)
  asleep = np.asarray(d.tree_asleep) >= 0
  assert asleep[:4].all() and not asleep[4:].any()  # never-tree and pendulum stay awake
  assert d.tree_asleep[0] != 0  # the sphere's landing joined box 0 into a two-tree cycle
  # a sleeping tree's velocity is exactly zero and its position frozen
  qpos = d.qpos.copy()
  engine.mj_step(m, d, 10)
  for tree in range(4):
    adr, num = m.tree_dofadr[tree], m.tree_dofnum[tree]
    np.testing.assert_array_equal(d.qvel[adr : adr + num], 0)
  np.testing.assert_array_equal(d.qpos[:21], qpos[:21])


def test_forces_and_qpos_changes_wake_trees():
  """xfrc_applied, qfrc_applied and an outside qpos change wake a sleeping tree (mj_wake)."""
  mjm, mjd, m, d = oracle.load(SCENE)
  _step_both(mjm, mjd, m, d, 150)
  assert d.tree_asleep[1] >= 0

  def push(step, mjd, d):
    if step == 5:
      mjd.xfrc_applied[2, 0] = d.xfrc_applied[2, 0] = 1.0
    if step == 6:
      mjd.xfrc_applied[2, 0] = d.xfrc_applied[2, 0] = 0.0
    if step == 200:
      mjd.qfrc_applied[0] = d.qfrc_applied[0] = 0.5
    if step == 201:
      mjd.qfrc_applied[0] = d.qfrc_applied[0] = 0.0
    if step == 400:
      mjd.qpos[2] += 1e-3
      d.qpos[2] += 1e-3

  _step_both(mjm, mjd, m, d, 450, push)


def test_equality_wakes_the_other_tree():
  """A connect equality between two trees: they sleep together as one island, and pushing one
  wakes both."""
  xml = """
  <mujoco>
    <option><flag sleep="enable"/></option>
    <worldbody>
      <geom type="plane" size="5 5 .1"/>
      <body name="a" pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body name="b" pos=".5 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    </worldbody>
    <equality><connect body1="a" body2="b" anchor=".25 0 0"/></equality>
  </mujoco>
  """
  mjm, mjd, m, d = oracle.load(xml)

  def push(step, mjd, d):
    if step == 300:
      mjd.xfrc_applied[1, 2] = d.xfrc_applied[1, 2] = 5.0
    if step == 301:
      mjd.xfrc_applied[1, 2] = d.xfrc_applied[1, 2] = 0.0

  _step_both(mjm, mjd, m, d, 500, push)


def test_sleep_init_policy():
  """sleep="init" trees start asleep after the reset (mj_resetData runs mj_forward and
  mj_sleep), and a tree that cannot be put to sleep (here: in contact, with islands disabled,
  so no island can sleep) stays awake with a warning, as in MuJoCo."""
  xml = """
  <mujoco>
    <option><flag sleep="enable"/></option>
    <worldbody>
      <geom type="plane" size="5 5 .1"/>
      <body pos="0 0 .1" sleep="init"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body pos="1 0 1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    </worldbody>
  </mujoco>
  """
  mjm, mjd, m, d = oracle.load(xml)
  _assert_sleep_equal(d, mjd, "after reset")
  assert d.tree_asleep[0] >= 0
  _step_both(mjm, mjd, m, d, 100)

  stuck = xml.replace('<flag sleep="enable"/>', '<flag sleep="enable" island="disable"/>')
  stuck = stuck.replace('<body pos="0 0 .1" sleep="init">', '<body pos="0 0 .05" sleep="init">')
  mjd = mujoco.MjData(mujoco.MjModel.from_xml_string(stuck))
  with pytest.warns(engine.PhysicsWarning, match="sleep='init' but only 0 could be slept"):
    d = engine.MjData(engine.MjModel.from_xml_string(stuck))
  np.testing.assert_array_equal(d.tree_asleep, mjd.tree_asleep)


def test_no_tree_may_sleep():
  """Sleep enabled but every tree's policy is never: nothing sleeps, the run is the awake
  one."""
  xml = SCENE.replace(' sleep="never"', "").replace('<body pos="', '<body sleep="never" pos="')
  mjm, mjd, m, d = oracle.load(xml)
  _step_both(mjm, mjd, m, d, 300)
  assert d.ntree_awake == m.ntree


def test_disabled_sleep_wakes_everything():
  """Turning the flag off on a model with sleeping trees wakes them all at the next step."""
  mjm, mjd, m, d = oracle.load(SCENE)
  _step_both(mjm, mjd, m, d, 150)
  assert d.ntree_awake < m.ntree
  mjm.opt.enableflags &= ~int(mujoco.mjtEnableBit.mjENBL_SLEEP)
  m.opt.enableflags &= ~int(engine.mjtEnableBit.mjENBL_SLEEP)
  _step_both(mjm, mjd, m, d, 5)
  assert d.ntree_awake == m.ntree


@pytest.mark.parametrize("policy", ["", ' sleep="allowed"'])
def test_actuated_trees_and_controls(policy):
  """The compiler's automatic policy keeps an actuated tree awake; allowed to sleep, it does,
  and a control change neither wakes it nor moves its activation (MuJoCo 3.17 skips sleeping
  actuators)."""
  xml = f"""
  <mujoco>
    <option><flag sleep="enable"/></option>
    <worldbody>
      <geom type="plane" size="5 5 .1"/>
      <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
      <body pos="1 0 .5"{policy}><joint name="h" type="hinge" axis="0 1 0" damping="5"/>
        <geom type="capsule" fromto="0 0 0 0 0 -.3" size=".03"/></body>
    </worldbody>
    <actuator><motor joint="h"/><position joint="h" kp="10" timeconst=".1"/></actuator>
  </mujoco>
  """
  mjm, mjd, m, d = oracle.load(xml)

  def control(step, mjd, d):
    if step == 200:
      mjd.ctrl[:] = d.ctrl[:] = [0.5, 0.3]

  _step_both(mjm, mjd, m, d, 300, control)
  np.testing.assert_array_equal(d.act, mjd.act)
  assert (d.tree_asleep[1] >= 0) == bool(policy)


# damped, sprung pendulums that come to rest and sleep, a gravity-compensated one, and a box
PASSIVE_SCENE = """
<mujoco>
  <option><flag sleep="enable"/></option>
  <worldbody>
    <geom type="plane" size="5 5 .1"/>
    <body pos="0 0 1"><joint type="hinge" axis="0 1 0" damping="3" stiffness="4" springref="20"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/></body>
    <body pos="1 0 1"><joint type="hinge" axis="1 0 0" damping="2" stiffness="1"/>
      <geom type="capsule" fromto="0 0 0 0 .3 0" size=".03"/></body>
    <body pos="2 0 1" gravcomp=".5"><joint type="hinge" axis="0 1 0" damping="1"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/></body>
    <body pos="3 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
  </worldbody>
</mujoco>
"""


def test_passive_forces_with_sleeping_trees_are_mujocos():
  """mj_passive and the Euler step skip sleeping trees (their springs' forces stay as they
  were); the passive forces stay MuJoCo's while some pendulums sleep and others swing."""
  mjm, mjd, m, d = oracle.load(PASSIVE_SCENE)
  for step in range(2800):
    mujoco.mj_step(mjm, mjd)
    engine.mj_step(m, d)
    if step % 10 == 0 or step > 2700:
      for name in ("qfrc_spring", "qfrc_damper", "qfrc_gravcomp", "qfrc_passive", "qvel"):
        np.testing.assert_allclose(
          getattr(d, name), getattr(mjd, name), rtol=1e-9, atol=1e-12, err_msg=f"{name} {step}"
        )
      _assert_sleep_equal(d, mjd, f"step {step}")
  asleep = np.asarray(d.tree_asleep) >= 0
  assert asleep[0] and asleep[1] and not asleep[2]  # two sleep, the compensated one swings
  assert d.qfrc_spring[0] != 0  # a sleeping tree's spring force, kept
