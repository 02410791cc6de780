"""engine/smooth.py against MuJoCo 3.17, stage by stage.

Each test puts MuJoCo in a random state, runs MuJoCo's pipeline for the reference, copies
the inputs of one stage into our data, runs only that stage and compares its outputs
(docs/architecture.md tolerances). Models: a hinge/slide/ball chain covering every sameframe
shortcut, a free-floating tree with mocap body, tendons, actuator armature and every
camera/light mode, spatial tendons with armature through a pulley, and seeded random trees.
The forces of spatial tendons in cfrc_ext (armature, springs, dampers, actuators) are checked
on an inline model together with the force, torque and accelerometer sensors.
"""

import pathlib
import re

import mujoco
import numpy as np
import pytest

from engine import sensor
from engine import smooth
from engine.enums import mjDSBL_GRAVITY
from tests import oracle
from tests import trees

MODELS = pathlib.Path(__file__).resolve().parent.parent / "models" / "smooth"
SEEDS = range(6)

KINEMATICS = (
  "xpos",
  "xquat",
  "xmat",
  "xipos",
  "ximat",
  "xanchor",
  "xaxis",
  "geom_xpos",
  "geom_xmat",
  "site_xpos",
  "site_xmat",
)


# ---- models ----


def random_tree_xml(seed: int, nbody: int = 12) -> str:
  """A seeded random tree: random joints, axes, poses, inertias, sites, cameras and lights.

  Bodies hang from a random earlier body; each has zero to three joints of random type
  (free only directly under the world), random references (qpos0 != 0), random explicit or
  geom-derived inertia, and geoms/sites either offset or coinciding with the body frame.
  A mocap body, cameras and lights in random modes complete the model. No contacts.
  """
  rng = np.random.default_rng(seed)
  parents = [-1] + [int(rng.integers(0, b)) for b in range(1, nbody + 1)]
  children = {b: [c for c in range(1, nbody + 1) if parents[c] == b] for b in range(nbody + 1)}
  modes = ["fixed", "track", "trackcom", "targetbody", "targetbodycom"]
  nocon = 'contype="0" conaffinity="0"'

  def vec(n, scale):
    return " ".join(f"{x:.6g}" for x in rng.uniform(-scale, scale, n))

  def quat():
    q = rng.normal(size=4)
    return " ".join(f"{x:.6g}" for x in q / np.linalg.norm(q))

  def frame(scale):
    # offset and rotated, offset only, or coinciding with the parent frame
    r = rng.random()
    if r < 0.5:
      return f'pos="{vec(3, scale)}" quat="{quat()}"'
    if r < 0.75:
      return f'pos="{vec(3, scale)}"'
    return ""

  def body(b, depth):
    pad = "  " * depth
    out = [f'{pad}<body name="b{b}" pos="{vec(3, 0.3)}" quat="{quat()}">']
    if parents[b] == 0 and rng.random() < 0.3:
      out.append(f"{pad}  <freejoint/>")
    else:
      ndof = 0
      for k in range(int(rng.integers(0, 4))):
        jtype = str(rng.choice(["hinge", "slide", "ball"]))
        ndof += 3 if jtype == "ball" else 1
        if ndof > 6:
          break
        attrs = f'type="{jtype}" pos="{vec(3, 0.1)}" armature="{rng.uniform(0, 0.05):.3g}"'
        if jtype != "ball":
          attrs += f' axis="{vec(3, 1)}" ref="{rng.uniform(-0.5, 0.5):.3g}"'
        out.append(f'{pad}  <joint name="j{b}_{k}" {attrs}/>')
        if jtype == "ball":
          break  # MuJoCo allows no rotation after a ball joint

    # inertia: explicit (rotated or not) or from the geoms
    r = rng.random()
    if r < 0.6:
      diag = np.sort(rng.uniform(0.01, 0.02, 3))
      where = f'pos="{vec(3, 0.05)}" quat="{quat()}"' if r < 0.4 else 'pos="0 0 0"'
      out.append(
        f'{pad}  <inertial {where} mass="{rng.uniform(0.1, 2):.4g}" '
        f'diaginertia="{diag[0]:.4g} {diag[1]:.4g} {diag[2]:.4g}"/>'
      )
    for _ in range(int(rng.integers(1, 3))):
      gtype = str(rng.choice(["sphere", "capsule", "box", "ellipsoid", "cylinder"]))
      size = " ".join(f"{x:.3g}" for x in rng.uniform(0.02, 0.1, 3))
      out.append(f'{pad}  <geom type="{gtype}" size="{size}" {frame(0.1)} {nocon}/>')
    if rng.random() < 0.7:
      out.append(f"{pad}  <site {frame(0.1)}/>")
    if rng.random() < 0.4:
      mode = str(rng.choice(modes))
      target = f' target="b{int(rng.integers(1, nbody + 1))}"' if "target" in mode else ""
      out.append(f'{pad}  <camera mode="{mode}"{target} pos="{vec(3, 1)}" quat="{quat()}"/>')
    if rng.random() < 0.4:
      mode = str(rng.choice(modes))
      target = f' target="b{int(rng.integers(1, nbody + 1))}"' if "target" in mode else ""
      out.append(f'{pad}  <light mode="{mode}"{target} pos="{vec(3, 1)}" dir="{vec(3, 1)}"/>')
    for c in children[b]:
      out += body(c, depth + 1)
    out.append(f"{pad}</body>")
    return out

  lines = [
    '<mujoco model="random-tree">',
    f'  <option gravity="{vec(2, 1)} -9.81"/>',
    "  <worldbody>",
  ]
  for c in children[0]:
    lines += body(c, 2)
  lines += [
    f'    <body name="mocap" mocap="true" pos="{vec(3, 1)}" quat="{quat()}">',
    f'      <geom type="sphere" size="0.05" {frame(0.1)} {nocon}/>',
    f"      <site {frame(0.1)}/>",
    "    </body>",
    "  </worldbody>",
    "</mujoco>",
  ]
  return "\n".join(lines)


def _xml(name):
  if name.startswith("random"):
    return random_tree_xml(int(name[6:]))
  if name.startswith("tree"):
    return trees.random_tree_xml(int(name[4:]), nbody=10)
  return (MODELS / f"{name}.xml").read_text()


MODEL_NAMES = ["chain", "mixed", "pulley"] + [f"random{s}" for s in SEEDS] + ["tree0", "tree1"]


def _randomize(mjm, mjd, seed):
  """Random qpos (unnormalized quaternions), qvel, qacc, mocap and applied forces."""
  rng = np.random.default_rng(1000 + seed)
  mjd.qpos[:] = mjm.qpos0 + rng.normal(scale=0.5, size=mjm.nq)
  for j in range(mjm.njnt):
    adr = mjm.jnt_qposadr[j]
    if mjm.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
      mjd.qpos[adr + 3 : adr + 7] = rng.normal(size=4) * 1.3
    elif mjm.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
      mjd.qpos[adr : adr + 4] = rng.normal(size=4) * 0.8
  mjd.qvel[:] = rng.normal(size=mjm.nv)
  mjd.qacc[:] = rng.normal(size=mjm.nv)
  mjd.mocap_pos[:] = rng.normal(size=mjd.mocap_pos.shape)
  mjd.mocap_quat[:] = rng.normal(size=mjd.mocap_quat.shape)
  mjd.xfrc_applied[1:] = rng.normal(size=(mjm.nbody - 1, 6))


@pytest.fixture(scope="module", params=MODEL_NAMES)
def case(request):
  """(mujoco model, mujoco data after fwdPosition/fwdVelocity, our model, our data)."""
  mjm, mjd, m, d = oracle.load(_xml(request.param))
  _randomize(mjm, mjd, MODEL_NAMES.index(request.param))
  qacc = mjd.qacc.copy()
  mujoco.mj_fwdPosition(mjm, mjd)
  mujoco.mj_fwdVelocity(mjm, mjd)
  mjd.qacc[:] = qacc
  assert mjd.ncon == 0
  return mjm, mjd, m, d


def _copy(mjd, d, *names):
  for name in names:
    getattr(d, name)[...] = getattr(mjd, name)


def _fresh(case):
  """Our data cleared, then given MuJoCo's state, mocap, applied forces and qacc.

  Clearing every array makes each test copy exactly the inputs its stage reads.
  """
  mjm, mjd, m, d = case
  for array in d._arrays.values():
    array[...] = 0
  oracle.copy_state(mjd, d)
  _copy(mjd, d, "qacc")
  return mjm, mjd, m, d


def _assert_abs(ours, ref, tol, name):
  err = np.abs(ours - ref).max() if ref.size else 0.0
  assert err <= tol, f"{name}: max abs error {err:.3g}"


def _assert_rel(ours, ref, tol, name):
  """Max error relative to the largest magnitude of the reference field."""
  if not ref.size:
    return
  err = np.abs(ours - ref).max()
  assert err <= tol * max(np.abs(ref).max(), 1e-300), f"{name}: max error {err:.3g}"


# ---- position ----


def test_kinematics(case):
  mjm, mjd, m, d = _fresh(case)
  qpos = d.qpos.copy()
  smooth.mj_kinematics(m, d)
  for name in KINEMATICS:
    _assert_abs(getattr(d, name), getattr(mjd, name), 1e-9, name)
  # like MuJoCo 3.17, quaternions are normalized on the fly, qpos is left alone
  np.testing.assert_array_equal(d.qpos, qpos)


@pytest.mark.parametrize("name", ["chain", "mixed", "random0", "random3"])
def test_kinematics_bitwise(name):
  """Same operations in the same order as MuJoCo: identical bits, sameframe shortcuts too."""
  mjm, mjd, m, d = oracle.load(_xml(name))
  _randomize(mjm, mjd, 7)
  oracle.copy_state(mjd, d)
  mujoco.mj_kinematics(mjm, mjd)
  smooth.mj_kinematics(m, d)
  for field in KINEMATICS:
    np.testing.assert_array_equal(getattr(d, field), getattr(mjd, field), err_msg=field)


def test_models_cover_every_case():
  """The fixed models exercise each sameframe value, joint type and camera/light mode."""
  chain = mujoco.MjModel.from_xml_path(str(MODELS / "chain.xml"))
  frames = np.concatenate([chain.body_sameframe, chain.geom_sameframe, chain.site_sameframe])
  assert set(frames) == {0, 1, 2, 3, 4}
  mixed = mujoco.MjModel.from_xml_path(str(MODELS / "mixed.xml"))
  assert set(mixed.jnt_type) == {0, 1, 2, 3}
  assert set(mixed.cam_mode) == set(mixed.light_mode) == {0, 1, 2, 3, 4}
  assert mixed.nmocap == 1 and mixed.ntendon == 2
  assert -2 in mixed.jnt_actuatorid and (mixed.tendon_actuatorid >= 0).any()
  assert (mixed.dof_simplenum > 0).any() and (mixed.body_subtreemass == 0).any()


def test_com_pos(case):
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, "xpos", "xmat", "xipos", "ximat", "xanchor", "xaxis")
  smooth.mj_comPos(m, d)
  for name in ("subtree_com", "cinert", "cdof"):
    _assert_abs(getattr(d, name), getattr(mjd, name), 1e-9, name)


def test_com_pos_uses_model_subtreemass():
  """MuJoCo 3.17 divides by body_subtreemass, even when body_mass was edited after compile."""
  mjm, mjd, m, d = oracle.load(_xml("mixed"))
  _randomize(mjm, mjd, 3)
  for model in (mjm, m):
    model.body_mass[2] *= 3
  oracle.copy_state(mjd, d)
  mujoco.mj_kinematics(mjm, mjd)
  mujoco.mj_comPos(mjm, mjd)
  smooth.mj_kinematics(m, d)
  smooth.mj_comPos(m, d)
  _assert_abs(d.subtree_com, mjd.subtree_com, 1e-9, "subtree_com")
  _assert_abs(d.cinert, mjd.cinert, 1e-9, "cinert")


def test_camlight(case):
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, "xpos", "xquat", "xmat", "subtree_com")
  smooth.mj_camlight(m, d)
  for name in ("cam_xpos", "cam_xmat", "light_xpos", "light_xdir"):
    _assert_abs(getattr(d, name), getattr(mjd, name), 1e-9, name)


# ---- inertia ----


def test_make_m(case):
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, "cinert", "cdof", "ten_J")
  smooth.mj_makeM(m, d)
  _assert_abs(d.crb, mjd.crb, 1e-9, "crb")
  _assert_rel(d.M, mjd.M, 1e-10, "M")


def test_factor_m(case):
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, "M")
  smooth.mj_factorM(m, d)
  _assert_rel(d.qLD, mjd.qLD, 1e-10, "qLD")
  _assert_rel(d.qLDiagInv, mjd.qLDiagInv, 1e-10, "qLDiagInv")


def test_factor_m_singular_pivot_is_clamped_with_a_warning():
  """A hinge about the same axis as a ball joint on one body makes M singular: MuJoCo raises
  the pivot to mjMINVAL and warns mjWARN_INERTIA with the dof index; so do we."""
  mjm, mjd, m, d = oracle.load("""
    <mujoco><worldbody><body pos="0 0 1"><freejoint/><geom size=".1"/>
      <body pos=".2 0 0"><joint name="h" type="hinge"/><joint type="ball"/>
        <geom type="capsule" size=".02 .1"/></body>
    </body></worldbody></mujoco>""")
  mujoco.mj_forward(mjm, mjd)
  _copy(mjd, d, "M")
  smooth.mj_factorM(m, d)
  kind = mujoco.mjtWarning.mjWARN_INERTIA
  assert mjd.warning[kind].number == 1
  assert d.warning[kind].number == 1 and d.warning[kind].lastinfo == mjd.warning[kind].lastinfo
  _assert_rel(d.qLD, mjd.qLD, 1e-10, "qLD")
  _assert_rel(d.qLDiagInv, mjd.qLDiagInv, 1e-10, "qLDiagInv")


def test_dense_and_products(case):
  """full_m, mul_m, solve_m (one and several vectors), solve_m2 against MuJoCo."""
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, "M", "qLD", "qLDiagInv")
  nv = mjm.nv
  rng = np.random.default_rng(5)

  dense, ref = np.zeros((nv, nv)), np.zeros((nv, nv))
  smooth.mj_fullM(m, d, dense)
  mujoco.mj_fullM(mjm, mjd, ref)
  np.testing.assert_array_equal(dense, ref)

  vec = rng.normal(size=nv)
  res, ref = np.zeros(nv), np.zeros(nv)
  smooth.mj_mulM(m, d, res, vec)
  mujoco.mj_mulM(mjm, mjd, ref, vec)
  _assert_rel(res, ref, 1e-12, "mulM")

  for n in (1, 3):
    y = rng.normal(size=(n, nv))
    x, ref = np.zeros((n, nv)), np.zeros((n, nv))
    smooth.mj_solveM(m, d, x, y)
    mujoco.mj_solveM(mjm, mjd, ref, y)
    _assert_rel(x, ref, 1e-10, f"solveM n={n}")
    np.testing.assert_allclose(x @ dense, y, atol=1e-8 * np.abs(y).max())

  y = rng.normal(size=(2, nv))
  sqrt_inv_d = np.sqrt(mjd.qLDiagInv)
  x, ref = np.zeros((2, nv)), np.zeros((2, nv))
  smooth.mj_solveM2(m, d, x, y, sqrt_inv_d)
  mujoco.mj_solveM2(mjm, mjd, ref, y, sqrt_inv_d)
  _assert_rel(x, ref, 1e-10, "solveM2")


def test_solve_m_in_place():
  mjm, mjd, m, d = oracle.load(_xml("random2"))
  _randomize(mjm, mjd, 2)
  mujoco.mj_fwdPosition(mjm, mjd)
  _copy(mjd, d, "qLD", "qLDiagInv")
  y = np.random.default_rng(0).normal(size=(1, mjm.nv))
  ref = np.zeros((1, mjm.nv))
  mujoco.mj_solveM(mjm, mjd, ref, y)
  x = y.copy()
  smooth.mj_solveM(m, d, x, x)
  _assert_rel(x, ref, 1e-10, "solveM in place")
  x = y[0].copy()  # a single (nv,) vector is accepted too
  smooth.mj_solveM(m, d, x, x)
  _assert_rel(x, ref[0], 1e-10, "solveM on a vector")


# ---- velocity ----


def test_com_vel(case):
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, "cdof")
  smooth.mj_comVel(m, d)
  for name in ("cvel", "cdof_dot"):
    _assert_abs(getattr(d, name), getattr(mjd, name), 1e-9, name)


def test_qfrc_bias(case):
  """rne(flg_acc=0) plus the tendon armature bias is MuJoCo's qfrc_bias."""
  mjm, mjd, m, d = _fresh(case)
  _copy(
    mjd,
    d,
    "xpos",
    "xipos",
    "site_xpos",
    "subtree_com",
    "cinert",
    "cdof",
    "cvel",
    "cdof_dot",
    "ten_J",
  )
  smooth.rne(m._struct, d._struct, 0, d.qfrc_bias)
  smooth.mj_tendonBias(m, d, d.qfrc_bias)
  _assert_rel(d.qfrc_bias, mjd.qfrc_bias, 1e-8, "qfrc_bias")


def test_rne_with_acceleration(case):
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, "cinert", "cdof", "cvel", "cdof_dot")
  res, ref = np.zeros(mjm.nv), np.zeros(mjm.nv)
  smooth.mj_rne(m, d, 1, res)
  mujoco.mj_rne(mjm, mjd, 1, ref)
  _assert_rel(res, ref, 1e-8, "rne")


def test_rne_without_gravity():
  mjm, mjd, m, d = oracle.load(_xml("mixed"))
  _randomize(mjm, mjd, 4)
  mjm.opt.disableflags |= mjDSBL_GRAVITY
  m.opt.disableflags |= mjDSBL_GRAVITY
  mujoco.mj_fwdPosition(mjm, mjd)
  mujoco.mj_fwdVelocity(mjm, mjd)
  oracle.copy_state(mjd, d)
  _copy(mjd, d, "cinert", "cdof", "cvel", "cdof_dot")
  res, ref = np.zeros(mjm.nv), np.zeros(mjm.nv)
  smooth.mj_rne(m, d, 0, res)
  mujoco.mj_rne(mjm, mjd, 0, ref)
  _assert_rel(res, ref, 1e-8, "rne without gravity")
  d.qvel[:] = 0
  d.cvel[:] = 0
  d.cdof_dot[:] = 0
  smooth.mj_rne(m, d, 0, res)
  np.testing.assert_array_equal(res, 0)


def test_subtree_vel(case):
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, "xipos", "ximat", "subtree_com", "cvel")
  smooth.mj_subtreeVel(m, d)
  mujoco.mj_subtreeVel(mjm, mjd)
  for name in ("subtree_linvel", "subtree_angmom"):
    _assert_abs(getattr(d, name), getattr(mjd, name), 1e-9, name)


RNE_POST_INPUTS = (
  "xipos",
  "site_xpos",
  "subtree_com",
  "cinert",
  "cdof",
  "cvel",
  "cdof_dot",
  "ten_length",
  "ten_velocity",
  "ten_wrapadr",
  "ten_wrapnum",
  "wrap_obj",
  "wrap_xpos",
  "actuator_force",
)


def test_rne_post_constraint(case):
  mjm, mjd, m, d = _fresh(case)
  _copy(mjd, d, *RNE_POST_INPUTS)
  smooth.mj_rnePostConstraint(m, d)
  mujoco.mj_rnePostConstraint(mjm, mjd)
  _assert_abs(d.cacc, mjd.cacc, 1e-9, "cacc")
  _assert_rel(d.cfrc_ext, mjd.cfrc_ext, 1e-8, "cfrc_ext")
  _assert_rel(d.cfrc_int, mjd.cfrc_int, 1e-8, "cfrc_int")


# ---- forces of spatial tendons in cfrc_ext ----

# MuJoCo 3.17 applies the tension of each spatial tendon (armature inertia, passive spring and
# damper, actuator forces) to the bodies along its path. A free body with gravity compensation
# and fluid forces (inertia box; ellipsoid on body D), a pulley with armature, sites on the
# world body, sphere and cylinder wrapping with and without side site, dead-band and
# polynomial springs, polynomial dampers, actuator damping and actuators on the tendons; a
# fixed tendon with a spring adds no Cartesian force. No contacts or constraint rows.
TENDON_XML = """
<mujoco model="tendon-forces">
  <option density="1.3" viscosity="0.2" wind="0.3 -0.2 0.1"/>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <site name="anchor" pos="0.2 0 2"/>
    <site name="ground" pos="0.8 0.3 0"/>
    <body name="A" pos="0 0 1" gravcomp="0.6">
      <freejoint/>
      <geom size="0.1"/>
      <site name="a" pos="0.1 0 0"/>
      <site name="a2" pos="-0.05 0.08 0.02"/>
      <body name="B" pos="0.5 0 0">
        <joint name="hB" type="hinge" axis="0 1 0"/>
        <geom name="drum" size="0.08"/>
        <site name="b" pos="0 0.1 0.05"/>
        <site name="b2" pos="0.02 -0.1 0.05"/>
        <site name="side" pos="0 0 0.3"/>
        <body name="C" pos="0.5 0 0" gravcomp="1">
          <joint type="ball"/>
          <geom size="0.05"/>
          <site name="c" pos="0 0 0.1"/>
        </body>
      </body>
    </body>
    <body name="D" pos="1 0 0.6" quat="0.9 0.3 0.2 0.1">
      <joint name="sD" type="slide" axis="1 0 0"/>
      <joint name="hD" type="hinge" axis="0 0 1"/>
      <geom name="spool" type="cylinder" size="0.06 0.1" fluidshape="ellipsoid"/>
      <site name="d" pos="0.1 0.2 0"/>
      <site name="dside" pos="0 -0.3 0"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="deadband" stiffness="30 8 2" damping="2 0.5 0.1" springlength="2.2 2.35">
      <site site="a"/>
      <site site="b"/>
      <site site="c"/>
      <site site="anchor"/>
    </spatial>
    <spatial name="pulley" armature="0.4" stiffness="12" damping="0.8">
      <site site="a2"/>
      <site site="b2"/>
      <pulley divisor="2"/>
      <site site="b2"/>
      <site site="c"/>
      <site site="d"/>
      <pulley divisor="3"/>
      <site site="ground"/>
      <site site="d"/>
    </spatial>
    <spatial name="sphere" stiffness="20" damping="1.5">
      <site site="a"/>
      <geom geom="drum" sidesite="side"/>
      <site site="c"/>
    </spatial>
    <spatial name="cylinder" stiffness="15" damping="0.5">
      <site site="b"/>
      <geom geom="spool"/>
      <site site="ground"/>
    </spatial>
    <spatial name="cylside" damping="1">
      <site site="c"/>
      <geom geom="spool" sidesite="dside"/>
      <site site="anchor"/>
    </spatial>
    <fixed name="fixed" stiffness="40" damping="3">
      <joint joint="hB" coef="1"/>
      <joint joint="sD" coef="-0.5"/>
    </fixed>
  </tendon>
  <actuator>
    <motor tendon="deadband" gear="2"/>
    <general tendon="pulley" gear="-1.5" forcelimited="true" forcerange="-0.4 0.4"/>
    <position tendon="sphere" kp="5" damping="0.7"/>
    <motor tendon="sphere" gear="0.5"/>
    <motor joint="hD"/>
  </actuator>
  <sensor>
    <force site="a"/>
    <torque site="a"/>
    <force site="b"/>
    <torque site="b2"/>
    <force site="c"/>
    <torque site="c"/>
    <force site="d"/>
    <torque site="d"/>
    <accelerometer site="b"/>
    <accelerometer site="d"/>
  </sensor>
</mujoco>
"""

FLAGS = {
  "all": 0,
  "nospring": mujoco.mjtDisableBit.mjDSBL_SPRING,
  "nodamper": mujoco.mjtDisableBit.mjDSBL_DAMPER,
  "nopassive": mujoco.mjtDisableBit.mjDSBL_SPRING | mujoco.mjtDisableBit.mjDSBL_DAMPER,
  "noactuation": mujoco.mjtDisableBit.mjDSBL_ACTUATION,
}


@pytest.fixture(scope="module")
def tendon_model():
  return oracle.load(TENDON_XML)


def _tendon_state(tendon_model, seed, flags):
  """MuJoCo after mj_forward in a random state (no applied forces), ours given its inputs.

  Sets the disable flags of both models (every caller passes them).
  """
  mjm, mjd, m, d = tendon_model
  mjm.opt.disableflags = flags
  m.opt.disableflags = flags
  rng = np.random.default_rng(seed)
  mjd.qpos[:] = mjm.qpos0 + rng.normal(scale=0.3, size=mjm.nq)
  mujoco.mj_normalizeQuat(mjm, mjd.qpos)
  mjd.qvel[:] = rng.normal(size=mjm.nv)
  mjd.ctrl[:] = rng.normal(size=mjm.nu)
  mujoco.mj_forward(mjm, mjd)
  assert mjd.ncon == 0 and mjd.nefc == 0
  for array in d._arrays.values():
    array[...] = 0
  oracle.copy_state(mjd, d)
  _copy(mjd, d, "qacc", "xpos", "xmat", "ximat", "site_xmat", *RNE_POST_INPUTS)
  return mjm, mjd, m, d


@pytest.mark.parametrize("flags", list(FLAGS))
@pytest.mark.parametrize("seed", range(3))
def test_rne_post_constraint_tendon_forces(tendon_model, seed, flags):
  """cfrc_ext/cfrc_int and the force, torque and accelerometer sensors match MuJoCo."""
  mjm, mjd, m, d = _tendon_state(tendon_model, seed, FLAGS[flags])
  smooth.mj_rnePostConstraint(m, d)
  sensor.mj_sensorAcc(m, d)
  _assert_abs(d.cacc, mjd.cacc, 1e-9, "cacc")
  _assert_rel(d.cfrc_ext, mjd.cfrc_ext, 1e-8, "cfrc_ext")
  _assert_rel(d.cfrc_int, mjd.cfrc_int, 1e-8, "cfrc_int")
  for i in range(mjm.nsensor):
    adr, dim = mjm.sensor_adr[i], mjm.sensor_dim[i]
    name = f"sensor {i} {mujoco.mjtSensor(mjm.sensor_type[i]).name}"
    _assert_rel(d.sensordata[adr : adr + dim], mjd.sensordata[adr : adr + dim], 1e-8, name)


def test_tendon_forces_are_exercised(tendon_model):
  """Every spatial tendon wraps or pulls with a nonzero tension, and MuJoCo's cfrc_ext
  (no applied forces) changes with each force source: stiffness, damping, actuators."""
  mjm, mjd, m, d = tendon_model
  wrapped = set()
  for seed in range(3):
    _tendon_state(tendon_model, seed, 0)
    for t in range(mjm.ntendon):
      obj = mjd.wrap_obj.ravel()[mjd.ten_wrapadr[t] : mjd.ten_wrapadr[t] + mjd.ten_wrapnum[t]]
      wrapped.update(int(o) for o in obj if o >= 0)
  assert wrapped == {mjm.geom("drum").id, mjm.geom("spool").id}
  _tendon_state(tendon_model, 0, 0)
  ext = mjd.cfrc_ext.copy()
  assert np.abs(ext).max() > 1
  for flags in FLAGS.values():
    if flags:
      _tendon_state(tendon_model, 0, flags)
      assert np.abs(mjd.cfrc_ext - ext).max() > 1e-2


def test_gravcomp_and_fluid_stay_out_of_cfrc_ext():
  """MuJoCo 3.17 leaves gravity compensation and fluid forces out of cfrc_ext; so do we."""
  xml = re.sub(r"<tendon>.*</actuator>", "", TENDON_XML, flags=re.S)
  mjm, mjd, m, d = oracle.load(xml)
  assert mjm.ntendon == 0 and mjm.nu == 0
  for seed in range(2):
    _, _, _, d = _tendon_state((mjm, mjd, m, d), seed, 0)
    assert np.abs(mjd.qfrc_gravcomp).max() > 1 and np.abs(mjd.qfrc_fluid).max() > 1e-3
    smooth.mj_rnePostConstraint(m, d)
    assert not mjd.cfrc_ext.any()
    assert not d.cfrc_ext.any()
    _assert_rel(d.cfrc_int, mjd.cfrc_int, 1e-8, "cfrc_int")


def test_whole_position_and_velocity_chain():
  """Our stages run back to back from qpos/qvel alone reproduce MuJoCo's fields."""
  mjm, mjd, m, d = oracle.load(_xml("mixed"))
  _randomize(mjm, mjd, 9)
  oracle.copy_state(mjd, d)
  mujoco.mj_fwdPosition(mjm, mjd)
  mujoco.mj_fwdVelocity(mjm, mjd)
  for f in (smooth.mj_kinematics, smooth.mj_comPos, smooth.mj_camlight):
    f(m, d)
  _copy(mjd, d, "ten_J")  # tendons are computed by engine/tendon.py
  smooth.mj_makeM(m, d)
  smooth.mj_factorM(m, d)
  smooth.mj_comVel(m, d)
  smooth.mj_rne(m, d, 0, d.qfrc_bias)
  smooth.mj_tendonBias(m, d, d.qfrc_bias)
  for name in KINEMATICS + ("cam_xmat", "light_xdir", "cinert", "cdof", "cvel", "cdof_dot"):
    _assert_abs(getattr(d, name), getattr(mjd, name), 1e-9, name)
  for name in ("M", "qLD", "qLDiagInv", "qfrc_bias"):
    _assert_rel(getattr(d, name), getattr(mjd, name), 1e-10, name)


def test_wrapper_argument_checks():
  mjm, mjd, m, d = oracle.load(_xml("chain"))
  with pytest.raises(ValueError):
    smooth.mj_fullM(m, d, np.zeros((m.nv, m.nv + 1)))
  with pytest.raises(TypeError):
    smooth.mj_mulM(m, d, np.zeros(m.nv, dtype=np.float32), np.zeros(m.nv))
  with pytest.raises(ValueError):
    smooth.mj_solveM(m, d, np.zeros((2, m.nv)), np.zeros((3, m.nv)))


@pytest.mark.parametrize("name", ["gripper", "box_pile", "capsule_humanoid"])
def test_rne_post_constraint_contact_and_equality_forces(name):
  """cfrc_ext/cfrc_int with contact forces (pyramidal and elliptic cones) and a weld, from
  MuJoCo's own contacts, constraint rows and qacc after it simulated the scene."""
  mjm, mjd, m, d = oracle.settled_contact_scene(name, 200)
  assert mjd.ncon > 0
  oracle.copy_contacts(mjd, d)
  oracle.copy_constraints(mjd, d)
  _copy(mjd, d, "qacc", *RNE_POST_INPUTS)
  smooth.mj_rnePostConstraint(m, d)
  mujoco.mj_rnePostConstraint(mjm, mjd)
  assert np.abs(mjd.cfrc_ext).max() > 1.0
  _assert_rel(d.cfrc_ext, mjd.cfrc_ext, 1e-8, "cfrc_ext")
  _assert_rel(d.cfrc_int, mjd.cfrc_int, 1e-8, "cfrc_int")
