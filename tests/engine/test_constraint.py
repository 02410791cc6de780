"""engine/constraint.py against MuJoCo 3.17: constraint rows, impedance, reference, forces.

Each test puts MuJoCo in a perturbed state and runs mj_forward. Our side copies the state,
runs our position stages (kinematics, com_pos, tendon, make_m, factor_m) and com_vel, takes
MuJoCo's contacts, then builds the rows with make_constraint and reference_constraint. Every
efc_ field and counter is compared (ids and sparsity exactly, values to 1e-9; diagA, R, D
and aref relative to their norm) together with contact_efc_address, contact_exclude and the
regularized friction contact_mu. Outputs are pre-filled with garbage to prove they are
written. Models: joint limits (slide, hinge both sides, ball, margins), tendon limits, dof
and tendon friction loss, every equality type (body and site semantics, weld relpose and
torquescale, joint/tendon polynomials, inactive ones), contacts of condim 1/3/4/6 in
pyramidal and elliptic cones with solref/solimp/solreffriction/margin/gap variants and
shared dofs, in dense, sparse and automatic Jacobian layouts; plus the exact diagonal
option, disable flags, capacity overflow, mj_contactForce and the inverse constraint forces.
"""

import pathlib

import mujoco
import numpy as np
import pytest

import engine
from engine import constraint
from engine import smooth
from engine import tendon
from engine.enums import mjCNSTR_CONTACT_ELLIPTIC
from engine.enums import mjCNSTR_CONTACT_PYRAMIDAL
from engine.enums import mjWARN_CNSTRFULL
from tests import jitted
from tests import oracle

constraint = jitted.module(constraint)
smooth = jitted.module(smooth)
tendon = jitted.module(tendon)

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models" / "contact"

# ---- models ----

LIMITS_XML = """
<mujoco>
  <option timestep="0.002" jacobian="{jacobian}">{flags}</option>
  <default><geom contype="0" conaffinity="0" size=".04"/></default>
  <worldbody>
    <site name="w1" pos="0 0 3"/>
    <site name="w2" pos="0 1 3"/>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" axis="0 1 0" range="-17 17" margin=".05" frictionloss=".1"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0"/>
      <body name="slider" pos=".3 0 0">
        <joint name="slide" type="slide" axis="1 0 0" range="-.1 .1" solreflimit=".01 .5"
               solimplimit=".8 .95 .05 .4 3"/>
        <geom type="sphere"/>
        <site name="tip"/>
      </body>
    </body>
    <body name="wide" pos="0 1 1">
      <joint name="wide" axis="1 0 0" range="-6 6" margin=".5" solimplimit=".5 .99 1 .39 2"
             solreflimit=".02 -1"/>
      <geom type="capsule" fromto="0 0 0 0 .2 0"/>
    </body>
    <body name="ball" pos="1 0 1">
      <joint name="ball" type="ball" range="0 30" margin=".02" frictionloss=".05"
             solreflimit="-2000 -40" solimplimit=".9 .9 .01 .5 2"/>
      <geom type="capsule" fromto="0 0 0 0 0 -.3"/>
      <site name="ball_end" pos="0 0 -.3"/>
    </body>
    <body name="t1" pos="-1 1 1">
      <joint name="t1" type="slide" axis="0 0 1"/>
      <geom type="sphere"/>
    </body>
    <body name="t2" pos="-1.3 1 1">
      <joint name="t2" type="slide" axis="0 0 1"/>
      <geom type="sphere"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="pair" limited="true" range="-.05 .05" margin=".2" frictionloss=".3"
           solreflimit=".05 .7" solimplimit=".7 .9 .5 .2 4" solreffriction=".03 2">
      <joint joint="t1" coef="1"/>
      <joint joint="t2" coef="-.5"/>
    </fixed>
    <spatial name="rope" limited="true" range="0 .8" frictionloss=".02">
      <site site="tip"/>
      <site site="ball_end"/>
    </spatial>
    <spatial name="still" limited="true" range="0 .5" frictionloss=".1">
      <site site="w1"/>
      <site site="w2"/>
    </spatial>
  </tendon>
</mujoco>
"""

EQUALITY_XML = """
<mujoco>
  <option timestep="0.002" jacobian="{jacobian}">{flags}</option>
  <default><geom contype="0" conaffinity="0" size=".04"/></default>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="ja" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0"/>
      <body name="a2" pos=".3 0 0">
        <joint name="ja2" axis="0 0 1"/>
        <geom type="sphere"/>
        <site name="sa" pos=".02 .01 0" quat=".9 .1 .3 .2"/>
      </body>
    </body>
    <body name="f1" pos=".6 0 1">
      <freejoint/>
      <geom type="box" size=".05 .03 .02"/>
      <site name="sf1" pos=".05 0 0" quat=".8 .2 -.1 .3"/>
    </body>
    <body name="f2" pos="1 0 1" euler="10 20 30">
      <freejoint/>
      <geom type="box" size=".04 .04 .02"/>
      <site name="sf2" pos="0 .02 0"/>
    </body>
    <body name="j1" pos="0 1 1">
      <joint name="s1" type="slide" axis="0 0 1"/>
      <geom type="sphere"/>
    </body>
    <body name="j2" pos=".3 1 1">
      <joint name="s2" axis="1 0 0"/>
      <geom type="sphere"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="ten1"><joint joint="s1" coef="1"/><joint joint="ja" coef=".5"/></fixed>
    <fixed name="ten2"><joint joint="s2" coef="1"/><joint joint="ja2" coef="-2"/></fixed>
  </tendon>
  <equality>
    <connect body1="a2" body2="f1" anchor=".1 0 0"/>
    <connect site1="sa" site2="sf2" solref=".05 .5"/>
    <weld body1="f1" body2="f2" relpose=".1 .2 0 .9 .1 .2 .3" torquescale=".3"
          solimp=".8 .95 .01 .3 2"/>
    <weld body1="a" anchor="0 0 .1"/>
    <weld site1="sf1" site2="sa" torquescale="2" solref="-1000 -50"/>
    <joint joint1="s1" joint2="s2" polycoef=".1 .5 .2 .3 .1" solref="-500 -30"
           solimp=".9 .95 0 .5 2"/>
    <joint joint1="ja" polycoef=".2 0 0 0 0"/>
    <tendon tendon1="ten1" tendon2="ten2" polycoef="0 1 .5 .1 0"/>
    <tendon tendon1="ten2"/>
    <connect body1="j1" body2="j2" anchor="0 0 0" active="false"/>
  </equality>
</mujoco>
"""

CONTACT_XML = """
<mujoco>
  <option timestep="0.002" cone="{cone}" jacobian="{jacobian}" impratio="{impratio}">
    {flags}
  </option>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1" condim="1" friction="0 0 0"/>
    <body pos="0 0 .045">
      <freejoint/>
      <geom type="sphere" size=".05" condim="1"/>
    </body>
    <body pos=".3 0 .045">
      <freejoint/>
      <geom type="sphere" size=".05" condim="3" friction=".6 .01 .002" solref="-800 -25"/>
    </body>
    <body pos=".6 0 .045">
      <freejoint/>
      <geom type="sphere" size=".05" condim="4" friction=".7 .02 .003"
            solimp=".8 .9 .01 .3 1"/>
    </body>
    <body pos=".9 0 .045" euler="3 4 0">
      <freejoint/>
      <geom type="box" size=".05 .05 .05" condim="6" friction=".8 .03 .004"/>
    </body>
    <body pos="1.2 0 .075">
      <freejoint/>
      <geom type="sphere" size=".05" margin=".03" gap=".01" condim="3"/>
    </body>
    <body pos="1.5 0 .053">
      <freejoint/>
      <geom type="sphere" size=".05" margin=".03" gap=".01" condim="3"/>
    </body>
    <body pos="2 0 .3">
      <joint axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .2 0 -.2" size=".03" condim="6"/>
      <body pos=".2 0 -.2">
        <joint axis="0 1 0"/>
        <geom name="link2" type="capsule" fromto="0 0 0 .1 0 -.09" size=".03" condim="4"/>
      </body>
    </body>
    <body name="hand" pos="0 1 .5">
      <joint type="slide" axis="0 0 1"/>
      <geom type="box" size=".1 .02 .01" contype="0" conaffinity="0"/>
      <body name="fa" pos="-.03 0 -.1">
        <joint type="slide" axis="1 0 0"/>
        <geom name="pa" type="box" size=".035 .02 .05" condim="3" friction=".9 .01 .001"/>
      </body>
      <body name="fb" pos=".03 0 -.1">
        <joint type="hinge" axis="0 1 0"/>
        <geom name="pb" type="box" size=".035 .02 .05" condim="3"/>
      </body>
    </body>
    <body pos="0 2 .045">
      <freejoint/>
      <geom name="b1" type="box" size=".1 .1 .05" contype="2" conaffinity="2"/>
    </body>
    <body pos=".02 2 .14" euler="0 0 20">
      <freejoint/>
      <geom name="b2" type="box" size=".05 .05 .05" contype="4" conaffinity="4"/>
    </body>
  </worldbody>
  <contact>
    <pair geom1="b1" geom2="b2" condim="6" friction="1 1 .01 .001 .001"
          solreffriction=".03 .8" solimp=".85 .95 .002 .5 2"/>
    <pair geom1="b1" geom2="floor" condim="4" solreffriction="-300 -20"/>
  </contact>
</mujoco>
"""

FREE_XML = """
<mujoco>
  <option cone="{cone}"/>
  <worldbody>
    <geom type="plane" size="5 5 .1"/>
    {bodies}
  </worldbody>
</mujoco>
"""

EFC_INT = ("efc_type", "efc_id")
EFC_SPARSE = ("efc_J_rownnz", "efc_J_rowadr", "efc_J_rowsuper", "efc_J_colind")
EFC_ABS = ("efc_J", "efc_pos", "efc_margin", "efc_frictionloss", "efc_KBIP", "efc_vel")
EFC_REL = ("efc_diagA", "efc_R", "efc_D", "efc_aref")

# ---- helpers ----


def _forward(xml, qpos=None, qvel_scale=1.0, seed=0, setup=None, nstep=0):
  """MuJoCo model and data after mj_forward in a perturbed state, and our model/data."""
  mjm, mjd, m, d = oracle.load(xml)
  rng = np.random.default_rng(seed)
  if setup is not None:
    setup(mjm, mjd)
  if nstep:
    mujoco.mj_forward(mjm, mjd)
    for _ in range(nstep):
      mujoco.mj_step(mjm, mjd)
  if qpos is not None:
    mjd.qpos[:] = qpos(mjm, rng)
    mujoco.mj_normalizeQuat(mjm, mjd.qpos)
  mjd.qvel[:] = qvel_scale * rng.standard_normal(mjm.nv)
  mujoco.mj_forward(mjm, mjd)
  return mjm, mjd, m, d


def _build(mjm, mjd, m, d):
  """Our rows from MuJoCo's state and contacts, with outputs pre-filled with garbage."""
  oracle.copy_state(mjd, d)
  ms, ds = m._struct, d._struct
  smooth.kinematics(ms, ds)
  smooth.com_pos(ms, ds)
  tendon.tendon(ms, ds)
  smooth.make_m(ms, ds)
  smooth.factor_m(ms, ds)
  smooth.com_vel(ms, ds)
  oracle.copy_contacts(mjd, d)
  a = d._arrays
  for name in EFC_ABS + EFC_REL:
    a[name][...] = np.nan
  for name in EFC_INT + EFC_SPARSE:
    a[name][...] = -7
  for name in ("ne", "nf", "nl", "nefc", "nJ"):
    a[name][0] = -3
  n = mjd.ncon
  included = a["contact_exclude"][:n] == 0
  a["contact_efc_address"][:n][included] = -9
  a["contact_mu"][:n][a["contact_dim"][:n] > 1] = np.nan
  constraint.make_constraint(ms, ds)
  constraint.reference_constraint(ms, ds)


def _close(name, ours, ref, rel):
  ours = np.asarray(ours, dtype=float)
  ref = np.asarray(ref, dtype=float)
  assert ours.shape == ref.shape, name
  scale = max(1.0, float(np.max(np.abs(ref)))) if rel and ref.size else 1.0
  np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-9 * scale, err_msg=name)


def _compare(mjm, mjd, m, d):
  """Every counter and efc_ field, contact addresses/exclusions and mu, against MuJoCo."""
  for name in ("ne", "nf", "nl", "nefc", "nJ"):
    assert getattr(d, name) == getattr(mjd, name), name
  assert d.nefc > 0
  for name in EFC_INT:
    np.testing.assert_array_equal(getattr(d, name), getattr(mjd, name), err_msg=name)
  if constraint.is_sparse(m._struct):
    for name in EFC_SPARSE:
      np.testing.assert_array_equal(getattr(d, name), getattr(mjd, name), err_msg=name)
  for name in EFC_ABS:
    ours, ref = getattr(d, name), getattr(mjd, name)
    if name == "efc_J" and not constraint.is_sparse(m._struct):
      # dense: rows dropped as all-zero still count in nJ (MuJoCo's allocation)
      ours, ref = ours[: d.nefc * m.nv], ref[: d.nefc * m.nv]
    _close(name, ours, ref, False)
  for name in EFC_REL:
    _close(name, getattr(d, name), getattr(mjd, name), True)
  n = mjd.ncon
  np.testing.assert_array_equal(d.contact.efc_address, mjd.contact.efc_address)
  np.testing.assert_array_equal(d.contact.exclude, mjd.contact.exclude)
  fric = mjd.contact.dim > 1
  _close("mu", d.contact.mu[:n][fric], mjd.contact.mu[fric], False)


def _check(xml, **kw):
  mjm, mjd, m, d = _forward(xml, **kw)
  _build(mjm, mjd, m, d)
  _compare(mjm, mjd, m, d)
  return mjm, mjd, m, d


# ---- limits and friction loss ----


def _limit_qpos(mjm, rng):
  qpos = mjm.qpos0 + 0.02 * rng.standard_normal(mjm.nq)
  qpos[0] = 0.33  # hinge above its upper limit
  qpos[1] = -0.12  # slide below its lower limit
  qpos[2] = 0.01  # wide hinge: both sides inside the margin
  ang = np.deg2rad(40)  # ball beyond 30 degrees
  axis = np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])
  qpos[3:7] = [np.cos(ang / 2), *(np.sin(ang / 2) * axis)]
  qpos[7] = 0.02  # fixed tendon t1 - t2/2 inside its margin on both sides
  qpos[8] = -0.1
  return qpos


@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_limits_and_friction(jacobian):
  """Joint limits (hinge, slide, ball, margins), tendon limits, dof/tendon friction loss.

  The tendon between two world sites has an all-zero Jacobian: its rows are dropped (dense)
  or never counted (sparse), as in MuJoCo.
  """
  mjm, mjd, m, d = _check(LIMITS_XML.format(jacobian=jacobian, flags=""), qpos=_limit_qpos)
  assert d.nf == 6 and d.nl >= 6
  assert d.nJ == (d.nefc + 2) * m.nv if jacobian == "dense" else d.nJ < d.nefc * m.nv
  types = set(d.efc_type.tolist())
  assert {1, 2, 3, 4} <= types


def test_limits_refsafe_and_diagexact():
  """Disabled refsafe (timeconst below 2*timestep kept) and the exact diagonal option."""
  xml = LIMITS_XML.format(jacobian="dense", flags='<flag refsafe="disable"/>')
  _check(xml.replace('solreflimit=".01 .5"', 'solreflimit=".001 .5"'), qpos=_limit_qpos)
  _check(LIMITS_XML.format(jacobian="sparse", flags='<flag diagexact="enable"/>'), qpos=_limit_qpos)


# ---- equality constraints ----


def _eq_qpos(mjm, rng):
  return mjm.qpos0 + 0.2 * rng.standard_normal(mjm.nq)


@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_equality(jacobian):
  """Connect/weld (body and site semantics, relpose, torquescale), joint and tendon."""
  mjm, mjd, m, d = _check(EQUALITY_XML.format(jacobian=jacobian, flags=""), qpos=_eq_qpos)
  assert d.ne == 3 + 3 + 6 + 6 + 6 + 1 + 1 + 1 + 1


def test_equality_runtime_activation():
  """eq_active toggled at runtime: disabled rows vanish, enabled inactive ones appear."""

  def setup(mjm, mjd):
    mjd.eq_active[2] = 0
    mjd.eq_active[9] = 1

  for seed in range(3):
    xml = EQUALITY_XML.format(jacobian="sparse", flags="")
    mjm, mjd, m, d = _check(xml, qpos=_eq_qpos, seed=seed, setup=setup)
    assert 2 not in d.efc_id[: d.ne] and 9 in d.efc_id[: d.ne]


def test_equality_diagexact():
  xml = EQUALITY_XML.format(jacobian="dense", flags='<flag diagexact="enable"/>')
  _check(xml, qpos=_eq_qpos, seed=4)


# ---- contacts ----


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_contacts(cone, jacobian):
  """Condim 1/3/4/6, contacts inside the margin, pairs with solreffriction, shared dofs."""
  xml = CONTACT_XML.format(cone=cone, jacobian=jacobian, impratio=1, flags="")
  mjm, mjd, m, d = _check(xml)
  dims = set(mjd.contact.dim[mjd.contact.exclude == 0].tolist())
  assert dims == {1, 3, 4, 6}
  ctype = mjCNSTR_CONTACT_PYRAMIDAL if cone == "pyramidal" else mjCNSTR_CONTACT_ELLIPTIC
  assert (d.efc_type == ctype).any()


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_contacts_impratio_diagexact(cone):
  xml = CONTACT_XML.format(
    cone=cone, jacobian="sparse", impratio=7, flags='<flag diagexact="enable"/>'
  )
  _check(xml, seed=3)


def test_contacts_automatic_sparse():
  """opt.jacobian auto with nv >= 60 uses the sparse layout (11 free bodies, 66 dofs)."""
  bodies = "\n".join(
    f'<body pos="{0.3 * i} 0 .045"><freejoint/><geom type="sphere" size=".05"/></body>'
    for i in range(11)
  )
  mjm, mjd, m, d = _check(FREE_XML.format(cone="elliptic", bodies=bodies))
  assert constraint.is_sparse(m._struct) and mjd.nJ < mjd.nefc * mjm.nv


@pytest.mark.parametrize("name", ["capsule_humanoid.xml", "box_pile.xml", "gripper.xml"])
@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_contact_models(name, jacobian):
  """The project's contact models after a few MuJoCo steps, both layouts."""
  xml = (MODELS / name).read_text()
  xml = xml.replace("<option ", f'<option jacobian="{jacobian}" ', 1)

  def setup(mjm, mjd):
    if mjm.nu:
      mjd.ctrl[:] = 0.3 * np.linspace(-1, 1, mjm.nu)

  _check(xml, setup=setup, nstep=40, qvel_scale=0.1)


# ---- the dual solvers' projection: efc_Y = J*L^-1*D^-1/2, efc_AR = Y*Y' + R ----


def _projected(xml, dual, **kw):
  """_check with a dual solver option (as the model's own, so MjData has room for Y and AR);
  efc_Y, efc_AR and their patterns must be MuJoCo's bit for bit."""
  mjm, mjd, m, d = _check(xml.replace("<option ", f"<option {dual} ", 1), **kw)
  assert d.nY == mjd.nY > 0 and d.nA == mjd.nA > 0
  names = ["efc_Y", "efc_AR"]
  if constraint.is_sparse(m._struct):
    names += [
      "efc_Y_rownnz",
      "efc_Y_rowadr",
      "efc_Y_colind",
      "efc_AR_rownnz",
      "efc_AR_rowadr",
      "efc_AR_colind",
    ]
  for name in names:
    np.testing.assert_array_equal(getattr(d, name), getattr(mjd, name), err_msg=name)
  return mjm, mjd, m, d


@pytest.mark.parametrize("dual", ['solver="PGS"', 'noslip_iterations="3"'])
@pytest.mark.parametrize("name", ["capsule_humanoid.xml", "box_pile.xml", "gripper.xml"])
@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_projection_contact_models(dual, name, jacobian):
  """Hinge and ball chains (Y fills each row over the ancestors of its dofs), free bodies,
  pyramidal and elliptic contacts, a coupled gripper; PGS or noslip under Newton."""
  xml = (MODELS / name).read_text()
  xml = xml.replace("<option ", f'<option jacobian="{jacobian}" ', 1)
  mjm, mjd, m, d = _projected(xml, dual, nstep=40, qvel_scale=0.1)
  if jacobian == "sparse" and name == "box_pile.xml":
    assert mjd.nA < mjd.nefc**2  # rows on trees that do not touch do not meet in AR


@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_projection_equalities_and_exact_diagonal(jacobian):
  """Every equality type and tendon rows joining trees; with diagexact, efc_diagA is the
  squared norm of each row of Y, MuJoCo's to the bit."""
  xml = EQUALITY_XML.format(jacobian=jacobian, flags='<flag diagexact="enable"/>')
  mjm, mjd, m, d = _projected(xml, 'solver="PGS"', qpos=_eq_qpos, seed=4)
  np.testing.assert_array_equal(d.efc_diagA, mjd.efc_diagA)


def test_excluded_contacts():
  """Excluded contacts get no rows; one whose bodies share all dofs gets exclude=3 (sparse)."""
  xml = CONTACT_XML.format(cone="elliptic", jacobian="sparse", impratio=1, flags="")
  mjm, mjd, m, d = _forward(xml)
  # the arm link's floor contact moved onto the link alone: MuJoCo's own rows as reference
  link2 = mujoco.mj_name2id(mjm, mujoco.mjtObj.mjOBJ_GEOM, "link2")
  k = int(np.flatnonzero((mjd.contact.geom == link2).any(axis=1))[0])
  mjd.contact.geom[k] = [link2, link2]
  mjd.contact.exclude[2] = 1
  mujoco.mj_makeConstraint(mjm, mjd)
  mujoco.mj_referenceConstraint(mjm, mjd)
  assert mjd.contact.exclude[k] == 3
  oracle.copy_state(mjd, d)
  ms, ds = m._struct, d._struct
  for f in (
    smooth.kinematics,
    smooth.com_pos,
    tendon.tendon,
    smooth.make_m,
    smooth.factor_m,
    smooth.com_vel,
  ):
    f(ms, ds)
  oracle.copy_contacts(mjd, d)
  d._arrays["contact_exclude"][k] = 0
  assert d.contact.exclude[2] == 1
  constraint.make_constraint(ms, ds)
  constraint.reference_constraint(ms, ds)
  _compare(mjm, mjd, m, d)


# ---- flags and capacity ----


@pytest.mark.parametrize("flag", ["equality", "frictionloss", "limit", "contact", "constraint"])
def test_disable_flags(flag):
  xml = EQUALITY_XML.format(jacobian="dense", flags=f'<flag {flag}="disable"/>').replace(
    "<worldbody>",
    '<worldbody><geom type="plane" size="5 5 .1" contype="1" conaffinity="1"/>'
    '<body pos="3 3 .04"><freejoint/><geom size=".05" contype="1" conaffinity="1"/></body>',
  )
  xml = xml.replace(
    '<joint name="ja" axis="0 1 0"/>',
    '<joint name="ja" axis="0 1 0" range="-1 1" frictionloss=".1"/>',
  )

  def qpos(mjm, rng):
    q = _eq_qpos(mjm, rng)
    q[0] = 1.2
    return q

  mjm, mjd, m, d = _forward(xml, qpos=qpos)
  _build(mjm, mjd, m, d)
  for name in ("ne", "nf", "nl", "nefc", "nJ"):
    assert getattr(d, name) == getattr(mjd, name), name
  if flag != "constraint":
    _compare(mjm, mjd, m, d)
  else:
    assert d.nefc == 0


def test_capacity_overflow(monkeypatch):
  """Rows beyond MjData's capacity: mjWARN_CNSTRFULL and no rows at all, as MuJoCo when its
  arena is full: the warning with the capacity as info, every counter zero and no contact
  pointing at a row. (<size njmax> only sizes that arena in MuJoCo 3.17, and ours holds what
  MuJoCo's would: the capacity is forced down here.)"""
  capacity = engine.types.data_capacity
  monkeypatch.setattr(engine.types, "data_capacity", lambda m: dict(capacity(m), nefccap=12))
  xml = CONTACT_XML.format(cone="pyramidal", jacobian="dense", impratio=1, flags="")
  mjm, mjd, m, d = _forward(xml)
  assert mjd.nefc > 12
  _build(mjm, mjd, m, d)
  assert d.warning.number[mjWARN_CNSTRFULL] == 1
  assert d.warning.lastinfo[mjWARN_CNSTRFULL] == 12
  assert (d.ne, d.nf, d.nl, d.nefc, d.nJ) == (0, 0, 0, 0, 0)
  assert (d.contact.efc_address == -1).all()


# ---- forces ----


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
def test_contact_force(cone):
  """mj_contactForce from MuJoCo's efc_force, in the contact frame, for every contact."""
  xml = CONTACT_XML.format(cone=cone, jacobian="dense", impratio=2, flags="")
  mjm, mjd, m, d = _forward(xml)
  _build(mjm, mjd, m, d)
  d._arrays["efc_force"][: mjd.nefc] = mjd.efc_force
  ours = np.empty(6)
  ref = np.empty(6)
  for i in range(mjd.ncon):
    ours[:] = np.nan
    engine.mj_contactForce(m, d, i, ours)
    mujoco.mj_contactForce(mjm, mjd, i, ref)
    np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-12)
  engine.mj_contactForce(m, d, mjd.ncon + 3, ours)
  assert not ours.any()


def test_python_wrappers():
  """mj_makeConstraint / mj_referenceConstraint wrappers give the kernel results."""
  xml = EQUALITY_XML.format(jacobian="sparse", flags="")
  mjm, mjd, m, d = _forward(xml, qpos=_eq_qpos, seed=2)
  _build(mjm, mjd, m, d)
  d._arrays["efc_aref"][:] = np.nan
  constraint.mj_makeConstraint(m, d)
  constraint.mj_referenceConstraint(m, d)
  _compare(mjm, mjd, m, d)
  with pytest.raises(TypeError):
    engine.mj_contactForce(m, d, 0, np.empty(5))


@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("jacobian", ["dense", "sparse"])
def test_inverse_constraint(cone, jacobian):
  """mj_invConstraint: forces, states and qfrc_constraint of the soft model at given qacc."""
  xml = CONTACT_XML.format(cone=cone, jacobian=jacobian, impratio=3, flags="")
  xml = xml.replace('<joint axis="0 1 0"/>', '<joint axis="0 1 0" frictionloss=".2"/>', 1)
  for seed in range(3):
    mjm, mjd, m, d = _forward(xml, seed=seed)
    _build(mjm, mjd, m, d)
    rng = np.random.default_rng(seed)
    mjd.qacc[:] = mjd.qacc + 5 * rng.standard_normal(mjm.nv)
    mujoco.mj_invConstraint(mjm, mjd)
    d.qacc[:] = mjd.qacc
    d._arrays["efc_force"][:] = np.nan
    d._arrays["efc_state"][:] = -1
    d.qfrc_constraint[:] = np.nan
    constraint.mj_invConstraint(m, d)
    np.testing.assert_array_equal(d.efc_state, mjd.efc_state)
    _close("efc_force", d.efc_force, mjd.efc_force, True)
    _close("qfrc_constraint", d.qfrc_constraint, mjd.qfrc_constraint, True)
    assert len(set(mjd.efc_state.tolist())) >= 3


def test_inverse_constraint_empty():
  """No rows: qfrc_constraint is cleared."""
  mjm, mjd, m, d = _forward(LIMITS_XML.format(jacobian="dense", flags=""))
  _build(mjm, mjd, m, d)
  if d.nefc:
    d._arrays["nefc"][0] = 0
  d.qfrc_constraint[:] = np.nan
  constraint.mj_invConstraint(m, d)
  assert not d.qfrc_constraint.any()
