"""Named indexing (engine/index.py): every field, every axis kind, every key form.

The oracle for names and ragged blocks is MuJoCo's own named access
(`mjd.joint('root').qpos`, `mjd.sensor('tip_pos').data`, `mj_name2id`), on the
same model copied into our MjModel.
"""

import mujoco
import numpy as np
import pytest

import engine
from engine import fields as F
from engine import index
from tests import oracle

XML = """
<mujoco model="named">
  <size nuserdata="2"/>
  <custom><numeric name="gains" data="1 2 3"/><numeric name="one" data="7"/></custom>
  <worldbody>
    <light name="lamp" pos="0 0 3"/>
    <camera name="cam" pos="0 -3 1"/>
    <body name="torso" pos="0 0 1">
      <freejoint name="root"/>
      <geom name="torso_geom" type="capsule" size="0.1 0.2" contype="0" conaffinity="0"/>
      <site name="head" pos="0 0 0.3"/>
      <body name="arm" pos="0.2 0 0">
        <joint name="shoulder" type="ball"/>
        <geom name="arm_geom" type="capsule" fromto="0 0 0 0.3 0 0" size="0.05"
              rgba="1 0 0 1"/>
        <body name="hand" pos="0.3 0 0">
          <joint name="elbow" type="hinge" axis="0 1 0"/>
          <geom type="sphere" size="0.05"/>
          <site name="tip" pos="0.05 0 0"/>
          <body name="finger" pos="0.1 0 0">
            <joint name="slider" type="slide" axis="1 0 0"/>
            <geom name="finger_geom" type="box" size="0.02 0.02 0.02"/>
          </body>
        </body>
      </body>
    </body>
    <body name="target" mocap="true" pos="1 0 1"><geom type="sphere" size="0.05"/></body>
    <body name="target2" mocap="true" pos="1 1 1"/>
  </worldbody>
  <tendon>
    <fixed name="tendon"><joint joint="elbow" coef="1"/><joint joint="slider" coef="2"/></fixed>
  </tendon>
  <equality><weld name="weld" body1="target2"/></equality>
  <actuator>
    <motor name="elbow_motor" joint="elbow" gear="2"/>
    <position name="slider_servo" joint="slider" kp="5" timeconst="0.05"/>
    <motor name="tendon_motor" tendon="tendon"/>
  </actuator>
  <sensor>
    <jointpos name="elbow_pos" joint="elbow"/>
    <framepos name="tip_pos" objtype="site" objname="tip"/>
    <framequat name="head_quat" objtype="site" objname="head"/>
  </sensor>
  <keyframe>
    <key name="home" qpos="0 0 1.2 1 0 0 0 1 0 0 0 0.5 0.01" mpos="1 2 3 4 5 6"/>
    <key name="zero"/>
  </keyframe>
</mujoco>
"""

_JOINT_WIDTHS = {"root": (7, 6), "shoulder": (4, 3), "elbow": (1, 1), "slider": (1, 1)}


@pytest.fixture(scope="module")
def loaded():
  mjm, mjd, m, d = oracle.load(XML)
  rng = np.random.default_rng(1)
  # distinct values everywhere, so a wrong row or column cannot match by accident
  for name in (
    "qpos",
    "qvel",
    "act",
    "ctrl",
    "xpos",
    "xquat",
    "xmat",
    "geom_xpos",
    "sensordata",
    "mocap_pos",
    "actuator_force",
    "qfrc_applied",
    "xfrc_applied",
  ):
    value = rng.normal(size=getattr(mjd, name).shape)
    getattr(mjd, name)[...] = value
    getattr(d, name)[...] = value
  return mjm, mjd, m, d


@pytest.fixture
def named(loaded):
  _, _, m, d = loaded
  return index.named_structs(m, d)


def test_every_field_has_an_indexer_of_the_right_shape(loaded, named):
  _, _, m, d = loaded
  model_fields = named.model._asdict()
  data_fields = named.data._asdict()
  expected_model = {f.name for f in F.MODEL_FIELDS if f.dtype != "S"}
  expected_data = {
    f.name for f in F.DATA_FIELDS if f.dims and not f.name.startswith(F.DATA_NON_ATTRIBUTE_PREFIXES)
  }
  assert set(model_fields) == expected_model
  assert set(data_fields) == expected_data
  for name, indexer in model_fields.items():
    assert indexer.shape == getattr(m, name).shape, name
    assert np.shares_memory(np.asarray(indexer), m._arrays[name]) or indexer.size == 0
  for name, indexer in data_fields.items():
    assert indexer.shape == getattr(d, name).shape, name
    assert np.shares_memory(np.asarray(indexer), d._arrays[name]) or indexer.size == 0


def test_object_rows_match_mujoco_name2id_for_every_field(loaded, named):
  mjm, _, m, _ = loaded
  objtypes = {size: objtype for size, objtype in index._OBJECT_AXES.items()}
  checked = 0
  for rows, struct, arrays in (
    (index.model_fields(), named.model, m._arrays),
    (index.data_fields(), named.data, loaded[3]._arrays),
  ):
    for f in rows:
      size = f.dims[0]
      if size not in objtypes:
        continue
      objtype = objtypes[size]
      indexer = getattr(struct, f.name)
      for i in range(arrays[f.name].shape[0]):
        name = mujoco.mj_id2name(mjm, objtype, i)
        if not name:
          continue
        assert mujoco.mj_name2id(mjm, objtype, name) == i
        np.testing.assert_array_equal(indexer[name], arrays[f.name][i])
        checked += 1
  assert checked > 100


@pytest.mark.parametrize("joint", sorted(_JOINT_WIDTHS))
def test_joint_slices_match_mujoco_for_every_joint_type(loaded, named, joint):
  mjm, mjd, m, d = loaded
  nq, nv = _JOINT_WIDTHS[joint]
  # qpos/qvel-sized data fields: the joint's block, as a view
  for field, width, ref in (
    ("qpos", nq, mjd.joint(joint).qpos),
    ("qvel", nv, mjd.joint(joint).qvel),
    ("qfrc_applied", nv, mjd.joint(joint).qfrc_applied),
  ):
    value = getattr(named.data, field)[joint]
    assert value.shape == (width,)
    np.testing.assert_array_equal(value, ref)
    assert np.shares_memory(value, getattr(d, field))
  # dof-sized and qpos-sized model fields; keyframe columns
  assert named.model.dof_damping[joint].shape == (nv,)
  np.testing.assert_array_equal(named.model.qpos0[joint], mjm.joint(joint).qpos0)
  np.testing.assert_array_equal(
    named.model.key_qpos["home", joint],
    mjm.key("home").qpos[
      mjm.jnt_qposadr[mjm.joint(joint).id] : mjm.jnt_qposadr[mjm.joint(joint).id] + nq
    ],
  )
  assert named.model.key_qvel["home", joint].shape == (nv,)
  # joint-sized fields: one row
  assert named.model.jnt_type[joint] == mjm.joint(joint).type[0]


def test_writing_through_every_key_form_writes_engine_memory():
  _, _, m, d = oracle.load(XML)
  named = index.named_structs(m, d)
  named.data.qpos["elbow"] = 0.25
  assert d.qpos[m.jnt_qposadr[2]] == 0.25
  named.data.qpos["root"][3:] = [0, 1, 0, 0]
  np.testing.assert_array_equal(d.qpos[3:7], [0, 1, 0, 0])
  named.data.qvel[["elbow", "slider"]] = [1.5, -2.5]
  np.testing.assert_array_equal(d.qvel[-2:], [1.5, -2.5])
  named.data.xfrc_applied["arm", 2] = 9.0
  assert d.xfrc_applied[2, 2] == 9.0
  named.data.mocap_pos["target", "z"] = 4.0
  assert d.mocap_pos[0, 2] == 4.0
  named.model.geom_rgba[["torso_geom", "arm_geom"], "a"] = 0.5
  np.testing.assert_array_equal(m.geom_rgba[[0, 1], 3], [0.5, 0.5])
  named.model.body_mass[np.array([False, True, False, False, False, False, False])] = 3.0
  assert m.body_mass[1] == 3.0
  named.data.ctrl[:] = 0.0
  named.data.ctrl["tendon_motor"] = 0.7
  np.testing.assert_array_equal(d.ctrl, [0, 0, 0.7])
  named.data.userdata[...] = 2.0
  np.testing.assert_array_equal(d.userdata, [2.0, 2.0])


def test_columns_are_named_where_their_meaning_is_fixed(loaded, named):
  _, _, m, d = loaded
  b = 2
  assert named.data.xpos["arm", "z"] == d.xpos[b, 2]
  np.testing.assert_array_equal(named.data.xpos["arm", ["x", "z"]], d.xpos[b, [0, 2]])
  np.testing.assert_array_equal(named.data.xpos[:, "y"], d.xpos[:, 1])
  assert named.data.xquat["arm", "qw"] == d.xquat[b, 0]
  assert named.data.xquat["arm", "qz"] == d.xquat[b, 3]
  assert named.data.xmat["arm", "zz"] == d.xmat[b, 8]
  assert named.data.xmat["arm", "xy"] == d.xmat[b, 1]
  assert named.data.xmat["arm", "yx"] == d.xmat[b, 3]
  assert named.model.geom_rgba["arm_geom", "r"] == 1.0
  assert named.model.geom_size["torso_geom", "y"] == m.geom_size[0, 1]
  np.testing.assert_array_equal(named.data.mocap_pos["target2"], d.mocap_pos[1])
  # column kinds only name fields with that many columns, but for dm_control's wrap_xpos (two
  # points a row: the first point's columns are named)
  for f in index.model_fields() + index.data_fields():
    kind = index._column_kind(f.name)
    if kind is not None:
      columns = 2 * len(index.COLUMN_NAMES[kind]) if f.name == "wrap_xpos" else None
      assert len(f.dims) == 2, f.name
      assert f.dims[1] == (columns or len(index.COLUMN_NAMES[kind])), f.name
  # unnamed columns take numbers only
  with pytest.raises(KeyError):
    named.data.xfrc_applied["arm", "x"]


def test_ragged_sensor_actuator_and_custom_axes(loaded, named):
  mjm, mjd, m, d = loaded
  for s in ("elbow_pos", "tip_pos", "head_quat"):
    value = named.data.sensordata[s]
    np.testing.assert_array_equal(value, mjd.sensor(s).data)
    assert value.shape == (mjm.sensor(s).dim[0],)
  # actuator axes give one number per actuator, an empty slice for stateless act
  assert named.data.ctrl["slider_servo"] == mjd.ctrl[1]
  assert np.ndim(named.data.ctrl["slider_servo"]) == 0
  assert named.data.act["slider_servo"] == mjd.act[0]
  assert named.data.act["elbow_motor"].shape == (0,)
  assert named.data.actuator_force["tendon_motor"] == mjd.actuator_force[2]
  np.testing.assert_array_equal(
    named.model.actuator_ctrlrange["elbow_motor"], mjm.actuator_ctrlrange[0]
  )
  np.testing.assert_array_equal(named.model.actuator_gear["tendon_motor"], mjm.actuator_gear[2])
  np.testing.assert_array_equal(named.data.ctrl[["tendon_motor", "elbow_motor"]], mjd.ctrl[[2, 0]])
  # custom numeric data, mocap keyframe columns
  np.testing.assert_array_equal(named.model.numeric_data["gains"], [1, 2, 3])
  np.testing.assert_array_equal(named.model.numeric_data["one"], [7])
  np.testing.assert_array_equal(named.model.key_mpos["home", "target2"], [4, 5, 6])
  np.testing.assert_array_equal(named.model.key_mpos["home"], [1, 2, 3, 4, 5, 6])
  np.testing.assert_array_equal(named.model.key_mquat["zero", "target"], mjm.key_mquat[1, :4])
  # other object types
  assert named.model.tendon_stiffness["tendon"] == mjm.tendon_stiffness[0]
  np.testing.assert_array_equal(named.model.eq_data["weld"], mjm.eq_data[0])
  np.testing.assert_array_equal(named.model.cam_pos["cam"], mjm.cam_pos[0])
  np.testing.assert_array_equal(named.model.light_pos["lamp"], mjm.light_pos[0])
  assert named.model.key_time["zero"] == 0.0


def test_numpy_style_keys_pass_through(loaded, named):
  _, _, _, d = loaded
  x = d.xpos
  np.testing.assert_array_equal(named.data.xpos[1], x[1])
  np.testing.assert_array_equal(named.data.xpos[-1], x[-1])
  np.testing.assert_array_equal(named.data.xpos[1:3], x[1:3])
  np.testing.assert_array_equal(named.data.xpos[[1, 3]], x[[1, 3]])
  np.testing.assert_array_equal(named.data.xpos[x[:, 0] > 0], x[x[:, 0] > 0])
  np.testing.assert_array_equal(named.data.xpos[1:3, 2], x[1:3, 2])
  np.testing.assert_array_equal(named.data.xpos[..., 0], x[..., 0])
  np.testing.assert_array_equal(named.data.xpos[...], x)
  np.testing.assert_array_equal(named.data.xpos["arm", ...], x[2])
  # mixed names and ints in one list; nested lists keep their shape
  np.testing.assert_array_equal(named.data.xpos[["arm", 1]], x[[2, 1]])
  np.testing.assert_array_equal(
    named.data.xpos[[["arm", "hand"], ["torso", "world"]]], x[[[2, 3], [1, 0]]]
  )
  np.testing.assert_array_equal(named.data.xpos[np.array(["hand", "arm"])], x[[3, 2]])
  np.testing.assert_array_equal(named.data.qpos[["elbow", "root"]], d.qpos[[11] + list(range(7))])
  np.testing.assert_array_equal(named.data.qpos[b"elbow"], d.qpos[11:12])
  # array behaviour of the indexer itself
  assert len(named.data.xpos) == len(x)
  assert named.data.xpos.shape == x.shape and named.data.xpos.dtype == np.float64
  np.testing.assert_array_equal(np.asarray(named.data.qvel), d.qvel)
  np.testing.assert_array_equal(named.data.qvel.copy(), d.qvel)
  assert named.data.xpos.axes.row.names[2] == "arm"
  assert named.data.xpos.axes.col.names == ["x", "y", "z"]


def test_invalid_keys_raise(named):
  with pytest.raises(KeyError, match="not a body name"):
    named.data.xpos["nonexistent"]
  with pytest.raises(KeyError, match="not a joint name"):
    named.data.qpos[["elbow", "nonexistent"]]
  with pytest.raises(KeyError):
    named.data.xpos["arm", "w"]
  with pytest.raises(IndexError):
    named.data.xpos[None]
  with pytest.raises(IndexError):
    named.data.xpos[""]
  with pytest.raises(IndexError):
    named.data.xpos["arm", "x", 0]
  with pytest.raises(IndexError):
    named.data.xpos[..., ...]
  with pytest.raises(AttributeError, match="assign through indexing"):
    named.data.qpos = np.zeros(13)
  with pytest.raises(AttributeError, match="no field"):
    named.data.nonexistent_field


def test_unnamed_elements_are_still_reachable_by_index(loaded, named):
  _, _, m, _ = loaded
  # the hand's sphere geom has no name
  assert named.model.geom_size[2, 0] == m.geom_size[2, 0]
  assert "" in named.model.geom_size.axes.row.names


def test_repr_prints_a_table_with_row_and_column_names(named):
  text = repr(named.data.xpos)
  lines = text.splitlines()
  assert lines[0] == "FieldIndexer(xpos):"
  assert lines[1].split() == ["x", "y", "z"]
  assert lines[2].split()[:2] == ["0", "world"]
  assert any(line.split()[:2] == ["2", "arm"] for line in lines)
  qpos = repr(named.data.qpos).splitlines()
  assert len(qpos) == 1 + 13
  assert [line.split()[1] for line in qpos[1:]] == ["root"] * 7 + ["shoulder"] * 4 + [
    "elbow",
    "slider",
  ]
  assert "(empty)" in repr(named.model.hfield_size)
  assert "named.data" in repr(named.data)


def test_model_built_by_our_compiler_indexes_the_same():
  m = engine.MjModel.from_xml_string(XML)
  d = engine.MjData(m)
  named = index.named_structs(m, d)
  mjm = mujoco.MjModel.from_xml_string(XML)
  for joint in _JOINT_WIDTHS:
    np.testing.assert_array_equal(named.model.qpos0[joint], mjm.joint(joint).qpos0)
  np.testing.assert_array_equal(named.model.key_qpos["home", "elbow"], [0.5])
  assert named.model.body_mass["hand"] == pytest.approx(mjm.body("hand").mass[0], abs=1e-12)


def test_int_bool_and_float32_fields_keep_their_dtype():
  _, _, m, d = oracle.load(XML)
  named = index.named_structs(m, d)
  assert named.model.jnt_type["slider"] == mujoco.mjtJoint.mjJNT_SLIDE
  assert named.model.jnt_type.dtype == np.int32
  assert named.data.eq_active["weld"] == d.eq_active[0]
  named.data.eq_active["weld"] = False
  assert not d.eq_active[0] and d.eq_active.dtype == np.bool_
  assert named.model.geom_rgba.dtype == np.float32
  named.model.geom_rgba["torso_geom"] = [0.1, 0.2, 0.3, 0.4]
  np.testing.assert_allclose(m.geom_rgba[0], [0.1, 0.2, 0.3, 0.4], rtol=1e-7)
  assert "True" in repr(named.model.eq_active0) or "False" in repr(named.model.eq_active0)


def test_a_model_without_names_or_mocap_bodies():
  xml = "<mujoco><worldbody><body><joint/><geom size='0.1'/></body></worldbody></mujoco>"
  _, _, m, d = oracle.load(xml)
  named = index.named_structs(m, d)
  assert named.data.mocap_pos.shape == (0, 3)
  assert "(empty)" in repr(named.data.mocap_pos)
  np.testing.assert_array_equal(named.data.qpos[0], d.qpos[0])
  with pytest.raises(KeyError):
    named.data.qpos["anything"]
  # the world body is always named
  assert named.data.xpos["world"].shape == (3,)


def test_printouts_are_dm_controls():
  """print(physics.named.data.xpos) and every other named field print as dm_control's do,
  given the same values: its layout (title, column names, row indices and names, values with
  3 significant digits), for each field both have, after some steps and with random values of
  every magnitude (exponents, negatives, tiny values shown as 0)."""
  from dm_control import mujoco as dm_mujoco

  ours = engine.Physics.from_xml_string(XML)
  theirs = dm_mujoco.Physics.from_xml_string(XML)
  for physics in (ours, theirs):
    physics.reset(0)
    physics.data.ctrl[:] = [0.5, -0.2, 0.1]
    physics.step(20)
  rng = np.random.default_rng(3)
  compared = 0
  for struct in ("model", "data"):
    for name, their_field in getattr(theirs.named, struct)._asdict().items():
      theirs_array = np.asarray(their_field._field)
      if not hasattr(getattr(ours.named, struct), name):
        continue  # a field of a feature we do not have (flex, skin, octree)
      our_field = getattr(getattr(ours.named, struct), name)
      ours_array = np.asarray(our_field)
      assert ours_array.shape == theirs_array.shape and ours_array.dtype == theirs_array.dtype
      for values in (theirs_array.copy(), None):
        if values is None:
          if theirs_array.dtype.kind != "f":
            continue
          magnitude = 10.0 ** rng.integers(-6, 6, theirs_array.shape)
          values = rng.standard_normal(theirs_array.shape) * magnitude
        ours_array[...] = values
        theirs_array[...] = values
        assert repr(our_field) == repr(their_field), name
        assert str(our_field) == str(their_field), name
      compared += 1
  assert compared > 400
  text = str(ours.named.data.xpos).splitlines()
  assert text[0] == "FieldIndexer(xpos):" and text[1].split() == ["x", "y", "z"]
