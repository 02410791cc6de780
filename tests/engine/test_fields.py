"""Every field we expose has MuJoCo's name, dtype and shape (pinned mujoco 3.17)."""

import mujoco
import numpy as np
import pytest

from engine import _structs
from engine import fields as F
from tests import oracle

# our internal representation of d.warning[i].number / .lastinfo
_DATA_INTERNAL = {"warning_number", "warning_lastinfo"}

_XML = """
<mujoco>
  <worldbody>
    <light pos="0 0 3"/>
    <camera name="c" pos="0 -1 1"/>
    <geom name="floor" type="plane" size="2 2 .1" pos="0 0 .9"/>
    <body name="a" pos="0 0 1">
      <freejoint/>
      <geom type="capsule" size=".05 .2"/>
      <site name="s" pos=".1 0 0"/>
      <body pos=".3 0 0">
        <joint name="h" axis="0 1 0" range="-1 1"/>
        <geom type="box" size=".1 .1 .1"/>
        <site name="s2"/>
      </body>
    </body>
    <body name="mocap" mocap="true"/>
  </worldbody>
  <tendon><fixed name="t"><joint joint="h" coef="1"/></fixed></tendon>
  <actuator><motor joint="h"/><position tendon="t" kp="2"/></actuator>
  <sensor><jointpos joint="h"/><framequat objtype="site" objname="s"/></sensor>
  <keyframe><key qpos="0 0 1 1 0 0 0 .2"/></keyframe>
</mujoco>
"""


@pytest.fixture(scope="module")
def models():
  mjm = mujoco.MjModel.from_xml_string(_XML)
  return mjm, mujoco.MjData(mjm)


_NP_KIND = {
  "f8": np.float64,
  "f4": np.float32,
  "i4": np.int32,
  "i8": np.int64,
  "u1": np.uint8,
  "i1": np.int8,
  "b1": np.bool_,
}


def _check(field, theirs, sizes):
  if field.dtype == "S":
    return
  if field.is_scalar:
    assert np.isscalar(theirs) or np.ndim(theirs) == 0, field.name
    return
  theirs = np.asarray(theirs)
  assert theirs.dtype == _NP_KIND[field.dtype], (field.name, theirs.dtype, field.dtype)
  assert theirs.shape == field.shape(sizes), (field.name, theirs.shape, field.shape(sizes))


def test_model_fields_match_mujoco(models):
  mjm, _ = models
  sizes = {f.name: getattr(mjm, f.name) for f in F.MODEL_SIZES if f.name not in F.ENGINE_ONLY_MODEL}
  sizes["npluginparam"] = 0
  for f in F.MODEL_SIZES + F.MODEL_FIELDS:
    if f.name in F.ENGINE_ONLY_MODEL:
      assert not hasattr(mjm, f.name), f"{f.name} is MuJoCo's: not ours only"
      continue
    assert hasattr(mjm, f.name), f"mujoco.MjModel has no field {f.name}"
    _check(f, getattr(mjm, f.name), sizes)
  for f in F.OPTION_FIELDS:
    _check(f, getattr(mjm.opt, f.name), sizes)
  for f in F.STATISTIC_FIELDS:
    _check(f, getattr(mjm.stat, f.name), sizes)


def test_data_fields_match_mujoco(models):
  mjm, mjd = models
  mujoco.mj_forward(mjm, mjd)
  assert mjd.ncon > 0 and mjd.nefc > 0
  sizes = {f.name: getattr(mjm, f.name) for f in F.MODEL_SIZES if f.name not in F.ENGINE_ONLY_MODEL}
  sizes.update(
    nconcap=mjd.ncon,
    nefccap=mjd.nefc,
    nJcap=mjd.nJ,
    nislandcap=mjd.nisland,
    nidofcap=mjd.nidof,
    nYcap=mjd.nY,
    nAcap=mjd.nA,
  )
  for f in F.DATA_FIELDS:
    if f.name in _DATA_INTERNAL or f.name.startswith(F.INTERNAL_PREFIX):
      continue
    if f.name == "solver_stat":
      assert len(mjd.solver) == f.shape(sizes)[0]
      continue
    if f.name.startswith("contact_"):
      theirs = getattr(mjd.contact, f.name[len("contact_") :])
    else:
      assert hasattr(mjd, f.name), f"mujoco.MjData has no field {f.name}"
      theirs = getattr(mjd, f.name)
    _check(f, theirs, sizes)
  assert len(mjd.warning) == F.CONSTANTS["mjNWARNING"]


def test_contact_and_constraint_views_cut_to_counts(models):
  mjm, _ = models
  import engine

  d = engine.MjData(oracle.from_mujoco(mjm))
  assert d.contact.dist.shape == (0,) and d.efc_J.shape == (0,) and len(d.contact) == 0
  d._arrays["ncon"][0], d._arrays["nefc"][0], d._arrays["nJ"][0] = 2, 3, 3 * mjm.nv
  assert d.contact.frame.shape == (2, 9) and d.contact.geom1.shape == (2,)
  assert d.efc_KBIP.shape == (3, 4) and d.efc_J.shape == (3 * mjm.nv,)
  assert d.contact[1].pos.shape == (3,)
  with pytest.raises(IndexError):
    d.contact[2]


def test_our_arrays_have_table_shapes(models):
  mjm, _ = models
  m = oracle.from_mujoco(mjm)
  import engine

  d = engine.MjData(m)
  assert d.qpos.shape == (mjm.nq,) and d.xmat.shape == (mjm.nbody, 9)
  assert m.body_pos.shape == (mjm.nbody, 3) and m.nq == mjm.nq
  np.testing.assert_array_equal(d.qpos, mjm.qpos0)


def test_generated_structs_up_to_date():
  import pathlib

  path = pathlib.Path(_structs.__file__)
  assert path.read_text() == F.generate_structs_source(), (
    "engine/_structs.py is stale: run `python -m engine.fields`"
  )


def test_whole_field_assignment_writes_in_place(models):
  """`m.body_pos = x` writes into the array, as MuJoCo's bindings do: views stay valid."""
  mjm, _ = models
  m = oracle.from_mujoco(mjm)
  view = m.body_pos
  m.body_pos = np.ones((mjm.nbody, 3))
  assert m.body_pos is view and (view == 1).all()
  with pytest.raises(ValueError):
    m.body_pos = np.zeros((mjm.nbody + 1, 3))
  m.opt.timestep = 0.01
  assert m.opt.timestep == 0.01 and m.opt._arrays["timestep"][0] == 0.01
