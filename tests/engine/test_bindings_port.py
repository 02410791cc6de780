"""MuJoCo's own binding tests (bindings_test.py, shipped in the `mujoco` package), ported.

Each test names in its docstring the bindings_test.py test it ports; the checks are rewritten
for our own models. Most run the same code on `mujoco` and on `engine` (the `lib` parameter):
a check that MuJoCo does not pass would be a wrong description of MuJoCo, so it runs on both;
where values are compared, MuJoCo's are the oracle. docs/binding_tests.md lists every test of
bindings_test.py: ported, or not ported and why.
"""

import copy
import gc
import pickle
import warnings
import weakref

import mujoco
import numpy as np
import pytest

import engine

LIBS = [pytest.param(mujoco, id="mujoco"), pytest.param(engine, id="engine")]

# a floor, a crate resting on it (four contacts), an arm on a hinge with a site at its tip, a
# knob on a ball joint and a mocap target: nq 12, nv 10, three geoms
MODEL = """
<mujoco model="port">
  <size nkey="2"/>
  <option timestep="0.002"/>
  <visual>
    <global fovy="40"/>
    <quality shadowsize="64"/>
  </visual>
  <worldbody>
    <geom name="ground" type="plane" size="5 5 .5"/>
    <body name="crate" pos="0 0 .2">
      <freejoint name="float"/>
      <geom name="crate" type="box" size=".2 .2 .2" mass=".5"/>
    </body>
    <body name="arm" pos="1 0 1">
      <inertial pos="0 0 0" mass="2" diaginertia=".1 .1 .1"/>
      <joint name="swing" axis="1 0 0" damping=".5"/>
      <site name="tip" pos="0 0 -.5"/>
    </body>
    <body name="knob" pos="-1 0 1">
      <inertial pos="0 0 0" mass="1" diaginertia=".1 .1 .1"/>
      <joint name="pivot" type="ball"/>
    </body>
    <body name="target" mocap="true" pos="3 0 3">
      <geom type="sphere" size=".2"/>
    </body>
  </worldbody>
  <actuator>
    <position name="servo" joint="swing" kp="5"/>
  </actuator>
  <sensor>
    <jointvel name="spin" joint="swing"/>
    <accelerometer name="acc" site="tip"/>
  </sensor>
</mujoco>
"""


def _load(lib, xml=MODEL, assets=None):
  m = lib.MjModel.from_xml_string(xml, assets) if assets else lib.MjModel.from_xml_string(xml)
  return m, lib.MjData(m)


def _both(xml=MODEL):
  """(mujoco's model and data, ours) for the same MJCF."""
  return _load(mujoco, xml), _load(engine, xml)


# ---- loading ----


@pytest.mark.parametrize("lib", LIBS)
def test_include_names_that_extend_each_other(lib):
  """bindings_test: test_load_xml_can_handle_name_clash"""
  main = """
  <mujoco>
    <worldbody>
      <geom name="first" type="sphere" size=".1"/>
      <include file="part_.xml"/>
      <include file="part__.xml"/>
    </worldbody>
  </mujoco>"""
  assets = {
    "part_.xml": b'<mujoco><geom name="second" type="box" size=".1 .1 .1"/></mujoco>',
    "part__.xml": b'<mujoco><geom name="third" type="capsule" size=".1 .2"/></mujoco>',
  }
  m = lib.MjModel.from_xml_string(main, assets)
  for i, name in enumerate(("first", "second", "third")):
    assert lib.mj_name2id(m, lib.mjtObj.mjOBJ_GEOM, name) == i
  assert list(m.geom_type) == [
    lib.mjtGeom.mjGEOM_SPHERE,
    lib.mjtGeom.mjGEOM_BOX,
    lib.mjtGeom.mjGEOM_CAPSULE,
  ]


@pytest.mark.parametrize("lib", LIBS)
def test_assets_with_one_file_name_in_two_folders(lib):
  """bindings_test: test_load_xml_repeated_asset_name"""
  with pytest.raises(ValueError, match="Repeated"):
    lib.MjModel.from_xml_string("<mujoco/>", {"a.xml": b"one", "sub/a.xml": b"two"})


# ---- arrays ----


def test_read_array():
  """bindings_test: test_can_read_array"""
  (m0, _), (m1, _) = _both()
  np.testing.assert_array_equal(m1.body_pos, m0.body_pos)
  np.testing.assert_array_equal(m1.body_pos[4], [3, 0, 3])


@pytest.mark.parametrize("lib", LIBS)
def test_assign_a_number_to_an_array(lib):
  """bindings_test: test_can_set_array"""
  _, d = _load(lib)
  d.qpos = 0.625
  np.testing.assert_array_equal(d.qpos, np.full(12, 0.625))


@pytest.mark.parametrize("lib", LIBS)
def test_array_is_a_view(lib):
  """bindings_test: test_array_is_a_view"""
  _, d = _load(lib)
  qvel = d.qvel
  d.qvel = -1.5
  np.testing.assert_array_equal(qvel, np.full(10, -1.5))
  qvel[3] = 2
  assert d.qvel[3] == 2


@pytest.mark.parametrize("lib", LIBS)
def test_array_outlives_its_model(lib):
  """bindings_test: test_array_keeps_struct_alive (the array stays valid; not the refcounts)"""
  m, _ = _load(lib)
  qpos0 = m.qpos0
  qpos0[:] = 3.5
  del m
  gc.collect()
  np.testing.assert_array_equal(qpos0, np.full(12, 3.5))


@pytest.mark.parametrize("lib", LIBS)
def test_gravcomp_flag(lib):
  """bindings_test: test_flg_gravcomp_and_surfacevel_properties (flg_gravcomp; not the
  surface-velocity flag)"""
  xml = """
  <mujoco>
    <worldbody>
      <body name="float" pos="0 0 1">
        <freejoint/>
        <geom size=".1" mass="1"/>
      </body>
    </worldbody>
  </mujoco>"""
  m, d = _load(lib, xml)
  assert not m.flg_gravcomp and m.ngravcomp == 0
  m.body_gravcomp[1] = 1  # a compensation the compiled model did not have
  lib.mj_forward(m, d)
  assert d.qacc[2] == pytest.approx(-9.81)  # not applied while the flag is off
  m.flg_gravcomp = True
  assert m.flg_gravcomp and m.ngravcomp == 1
  lib.mj_forward(m, d)
  assert d.qacc[2] == pytest.approx(0, abs=1e-12)
  m.flg_gravcomp = False
  assert not m.flg_gravcomp and m.ngravcomp == 0
  lib.mj_forward(m, d)
  assert d.qacc[2] == pytest.approx(-9.81)


# ---- named accessors ----


@pytest.mark.parametrize("lib", LIBS)
def test_actuator_ctrl_by_name_and_id(lib):
  """bindings_test: test_named_indexing_actuator_ctrl"""
  m, d = _load(lib)
  i = lib.mj_name2id(m, lib.mjtObj.mjOBJ_ACTUATOR, "servo")
  assert d.actuator("servo") is d.actuator(i)
  assert d.actuator("servo").ctrl is d.actuator(i).ctrl
  assert d.actuator("servo").ctrl.shape == (1,)
  ctrl = d.actuator("servo").ctrl
  d.ctrl[i] = -2
  np.testing.assert_array_equal(ctrl, [-2])
  d.actuator("servo").ctrl = 0.25
  assert d.ctrl[i] == 0.25


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("side", ["model", "data"])
def test_unknown_name(lib, side):
  """bindings_test: test_named_indexing_invalid_names_in_model,
  test_named_indexing_invalid_names_in_data"""
  m, d = _load(lib)
  owner = m if side == "model" else d
  with pytest.raises(
    KeyError, match=r"Invalid name 'nothing'\. Valid names: \['crate', 'ground'\]"
  ):
    owner.geom("nothing")


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("side", ["model", "data"])
def test_accessor_without_argument(lib, side):
  """bindings_test: test_named_indexing_no_name_argument_in_model,
  test_named_indexing_no_name_argument_in_data"""
  m, d = _load(lib)
  owner = m if side == "model" else d
  with pytest.raises(
    KeyError, match=r"Invalid name ''\. Valid names: \['float', 'pivot', 'swing'\]"
  ):
    owner.jnt()


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("side", ["model", "data"])
@pytest.mark.parametrize("index", [3, -1, 40])
def test_index_out_of_range(lib, side, index):
  """bindings_test: test_named_indexing_invalid_index_in_model,
  test_named_indexing_invalid_index_in_data"""
  m, d = _load(lib)
  owner = m if side == "model" else d
  with pytest.raises(IndexError, match=rf"Invalid index {index}\. Valid indices from 0 to 2"):
    owner.geom(index)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize(
  ("attr", "width", "value"), [("size", 3, [4, 5, 6]), ("quat", 4, [1, 2, 3, 4])]
)
def test_geom_row_view(lib, attr, width, value):
  """bindings_test: test_named_indexing_geom_size, test_named_indexing_geom_quat"""
  m, _ = _load(lib)
  i = lib.mj_name2id(m, lib.mjtObj.mjOBJ_GEOM, "crate")
  assert m.geom("crate") is m.geom(i)
  assert getattr(m.geom("crate"), attr) is getattr(m.geom(i), attr)
  view = getattr(m.geom("crate"), attr)
  assert view.shape == (width,)
  field = getattr(m, "geom_" + attr)
  field[i] = value
  np.testing.assert_array_equal(view, value)
  setattr(m.geom("crate"), attr, np.arange(width) + 10)
  np.testing.assert_array_equal(field[i], np.arange(width) + 10)


@pytest.mark.parametrize("lib", LIBS)
def test_ball_joint_qpos_view(lib):
  """bindings_test: test_named_indexing_ragged_qpos"""
  m, d = _load(lib)
  i = lib.mj_name2id(m, lib.mjtObj.mjOBJ_JOINT, "pivot")
  assert d.joint("pivot") is d.joint(i)
  assert d.joint("pivot").qpos is d.joint(i).qpos
  view = d.joint("pivot").qpos
  assert view.shape == (4,)
  adr = m.jnt_qposadr[i]
  d.qpos[adr : adr + 4] = [0.5, 0.5, 0.5, 0.5]
  np.testing.assert_array_equal(view, [0.5, 0.5, 0.5, 0.5])
  d.joint("pivot").qpos = [1, 0, 0, 0]
  np.testing.assert_array_equal(d.qpos[adr : adr + 4], [1, 0, 0, 0])


@pytest.mark.parametrize("lib", LIBS)
def test_free_joint_cdof_view(lib):
  """bindings_test: test_named_indexing_ragged2d_cdof"""
  m, d = _load(lib)
  i = lib.mj_name2id(m, lib.mjtObj.mjOBJ_JOINT, "float")
  assert d.joint("float").cdof is d.joint(i).cdof
  view = d.joint("float").cdof
  assert view.shape == (6, 6)
  adr = m.jnt_dofadr[i]
  block = np.arange(36.0).reshape(6, 6) / 7
  d.cdof[adr : adr + 6] = block
  np.testing.assert_array_equal(view, block)
  d.joint("float").cdof = -3
  np.testing.assert_array_equal(d.cdof[adr : adr + 6], np.full((6, 6), -3))


@pytest.mark.parametrize("lib", LIBS)
def test_dof_rows_of_later_joints(lib):
  """bindings_test: test_named_indexing_ragged2d_after_first_joint"""
  m, d = _load(lib)
  d.cdof[:] = np.arange(d.cdof.size).reshape(m.nv, 6)
  m.dof_dampingpoly[:] = np.arange(m.dof_dampingpoly.size).reshape(m.nv, -1)
  for name, ndof in (("swing", 1), ("pivot", 3)):
    adr = m.joint(name).dofadr[0]
    assert d.joint(name).qvel.size == ndof
    np.testing.assert_array_equal(d.joint(name).cdof, d.cdof[adr : adr + ndof])
    expected = m.dof_dampingpoly[adr : adr + ndof]
    np.testing.assert_array_equal(m.joint(name).dampingpoly.reshape(expected.shape), expected)


MIMO = """
<mujoco>
  <worldbody>
    <body>
      <joint name="rail" type="slide" axis="0 1 0"/>
      <geom size=".1"/>
      <body>
        <joint name="wrist" type="ball"/>
        <geom size=".1" pos="0 .3 0"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="push" joint="rail" gear="4" ctrlrange="-3 3"/>
    <orientation name="turn" joint="wrist" kp="2" input="quat"/>
    <motor name="pull" joint="rail" gear="-1" ctrlrange="-1 2"/>
  </actuator>
</mujoco>
"""


def test_actuators_with_several_controls():
  """bindings_test: test_named_indexing_mimo_actuators"""
  (m0, d0), (m1, d1) = _both(MIMO)
  for m, d in ((m0, d0), (m1, d1)):
    d.ctrl[:] = np.linspace(0.1, 0.6, m.nu)
  mujoco.mj_forward(m0, d0)
  engine.mj_forward(m1, d1)
  np.testing.assert_array_equal(m1.actuator_ctrlnum, m0.actuator_ctrlnum)
  np.testing.assert_array_equal(m1.actuator_outnum, m0.actuator_outnum)
  for i in range(m0.nactuator):
    assert m1.actuator(i).name == m0.actuator(i).name
    for attr in ("ctrlrange", "gear", "lengthrange"):
      want, got = getattr(m0.actuator(i), attr), getattr(m1.actuator(i), attr)
      assert got.shape == want.shape, attr
      np.testing.assert_allclose(got, want, atol=1e-12, err_msg=attr)
    for attr in ("ctrl", "force", "length"):
      want, got = getattr(d0.actuator(i), attr), getattr(d1.actuator(i), attr)
      assert got.shape == want.shape, attr
      np.testing.assert_allclose(got, want, atol=1e-12, err_msg=attr)
  assert m1.actuator("turn").gear.shape == (3, 6)
  assert m1.actuator("turn").ctrlrange.shape == (4, 2)
  assert d1.actuator("turn").ctrl.shape == (4,)
  d1.actuator("pull").ctrl = 1.5
  assert d1.ctrl[m1.actuator_ctrladr[2]] == 1.5


def test_actuator_moment_rows():
  """bindings_test: test_named_indexing_actuator_moment"""
  (m0, d0), (m1, d1) = _both(MIMO)
  mujoco.mj_forward(m0, d0)
  engine.mj_forward(m1, d1)
  assert m1.nJmom < m1.nout * m1.nv  # stored sparse
  dense = np.zeros((m1.nout, m1.nv))
  engine.mju_sparse2dense(
    dense, d1.actuator_moment, d1.moment_rownnz, d1.moment_rowadr, d1.moment_colind
  )
  for i in range(m1.nactuator):
    adr, n = m1.actuator_outadr[i], m1.actuator_outnum[i]
    rows = dense[adr : adr + n]
    moment = d1.actuator(i).moment
    np.testing.assert_allclose(moment, rows[0] if n == 1 else rows, atol=1e-12)
    np.testing.assert_allclose(moment, d0.actuator(i).moment, atol=1e-12)
    assert not moment.flags.writeable
  np.testing.assert_array_equal(d1.actuator("push").moment, [4, 0, 0, 0])


@pytest.mark.parametrize("lib", LIBS)
def test_view_repr(lib):
  """bindings_test: test_named_indexing_repr_in_data, test_named_indexing_body_repr_in_data,
  test_named_indexing_repr_in_model"""
  m, d = _load(lib)
  text = repr(d.geom("crate"))
  assert text.startswith("<_MjDataGeomViews") and text.endswith(">")
  assert "name: 'crate'" in text and "xpos:" in text
  text = repr(d.body("arm"))
  assert text.startswith("<_MjDataBodyViews") and "xquat:" in text
  text = repr(m.geom("crate"))
  assert text.startswith("<_MjModelGeomViews") and "size:" in text and text.endswith(">")


@pytest.mark.parametrize("lib", LIBS)
def test_names_by_id_and_ids_by_name(lib):
  """bindings_test: test_indexer_name_id"""
  xml = """
  <mujoco>
    <worldbody>
      <geom name="a" size=".5" pos="1 0 0"/>
      <geom size=".6" pos="2 0 0"/>
      <geom name="c" size=".7" pos="3 0 0"/>
      <geom size=".8" pos="4 0 0"/>
    </worldbody>
  </mujoco>"""
  m, d = _load(lib, xml)
  lib.mj_forward(m, d)
  for owner, attr, values in ((m, "size", [0.5, 0.6, 0.7, 0.8]), (d, "xpos", [1, 2, 3, 4])):
    assert owner.geom("a").id == 0 and owner.geom("c").id == 2
    assert [owner.geom(i).name for i in range(4)] == ["a", "", "c", ""]
    assert [getattr(owner.geom(i), attr)[0] for i in range(4)] == values


# ---- options, statistics, visual settings ----


@pytest.mark.parametrize("lib", LIBS)
def test_options_read_and_write(lib):
  """bindings_test: test_mjmodel_can_read_and_write_opt"""
  m, _ = _load(lib)
  assert m.opt.timestep == 0.002
  np.testing.assert_array_equal(m.opt.gravity, [0, 0, -9.81])
  opt = m.opt
  m.opt.timestep = 0.004
  assert opt.timestep == 0.004
  gravity = opt.gravity
  m.opt.gravity[0] = 1.5
  np.testing.assert_array_equal(gravity, [1.5, 0, -9.81])
  m.opt.gravity = -2
  np.testing.assert_array_equal(gravity, [-2, -2, -2])


@pytest.mark.parametrize("lib", LIBS)
def test_statistics_read_and_write(lib):
  """bindings_test: test_mjmodel_can_read_and_write_stat"""
  m, _ = _load(lib)
  assert m.stat.meanmass > 0
  stat = m.stat
  m.stat.meanmass = 4.5
  assert stat.meanmass == 4.5


@pytest.mark.parametrize("lib", LIBS)
def test_visual_read_and_write(lib):
  """bindings_test: test_mjmodel_can_read_and_write_vis, test_vis_global_exposed_as_global_,
  test_mjvisual_repr"""
  m, _ = _load(lib)
  assert m.vis.quality.shadowsize == 64
  m.vis.quality.shadowsize = 256
  assert m.vis.quality.shadowsize == 256
  assert m.vis.global_.fovy == 40
  m.vis.global_.fovy = 55
  assert m.vis.global_.fovy == 55
  assert "MjVisual" in repr(m.vis)


def test_statistics_match():
  """bindings_test: test_mjmodel_can_read_and_write_stat (the values, against MuJoCo's)"""
  (m0, _), (m1, _) = _both()
  for name in ("meaninertia", "meanmass", "meansize", "extent"):
    assert getattr(m1.stat, name) == pytest.approx(getattr(m0.stat, name), rel=1e-9), name
  np.testing.assert_allclose(m1.stat.center, m0.stat.center, atol=1e-12)


@pytest.mark.parametrize("lib", LIBS)
def test_default_options(lib):
  """bindings_test: test_mjoption_can_make_default"""
  opt = lib.MjOption()
  assert opt.timestep == 0.002
  np.testing.assert_array_equal(opt.gravity, [0, 0, -9.81])
  assert opt.iterations == 100 and opt.integrator == lib.mjtIntegrator.mjINT_EULER


def test_default_options_match():
  """bindings_test: test_mjoption_can_make_default (every field, against MuJoCo's)"""
  want, got = mujoco.MjOption(), engine.MjOption()
  for name in [a for a in dir(want) if not a.startswith("_")]:
    np.testing.assert_array_equal(getattr(got, name), getattr(want, name), err_msg=name)


@pytest.mark.parametrize("lib", LIBS)
def test_copy_options(lib):
  """bindings_test: test_mjoption_can_copy"""
  first = lib.MjOption()
  first.timestep = 0.01
  first.gravity = 3
  second = copy.copy(first)
  assert second.timestep == 0.01
  np.testing.assert_array_equal(second.gravity, [3, 3, 3])
  first.timestep = 0.02
  first.gravity = 4
  assert second.timestep == 0.01
  np.testing.assert_array_equal(second.gravity, [3, 3, 3])


@pytest.mark.parametrize("lib", LIBS)
def test_assign_options_and_statistics(lib):
  """bindings_test: test_mjmodel_and_mjvisual_substruct_assignment (m.opt, m.stat)"""
  m, d = _load(lib)
  gravity = m.opt.gravity
  opt = lib.MjOption()
  opt.timestep = 0.005
  opt.gravity = (0, 0, 0)
  m.opt = opt
  assert m.opt == opt
  assert m.opt.timestep == 0.005
  np.testing.assert_array_equal(gravity, [0, 0, 0])  # views taken before see the new values
  opt.timestep = 0.1  # the model keeps a copy
  opt.gravity = (1, 1, 1)
  assert m.opt.timestep == 0.005
  np.testing.assert_array_equal(m.opt.gravity, [0, 0, 0])
  lib.mj_step(m, d)  # the physics reads the assigned options
  assert d.time == 0.005
  np.testing.assert_array_equal(d.qvel, np.zeros(m.nv))

  center = m.stat.center
  stat = lib.MjStatistic()
  stat.extent = 7.5
  stat.center = (4, 5, 6)
  m.stat = stat
  assert m.stat == stat
  assert m.stat.extent == 7.5
  np.testing.assert_array_equal(center, [4, 5, 6])


@pytest.mark.parametrize("lib", LIBS)
def test_assign_visual(lib):
  """bindings_test: test_mjmodel_and_mjvisual_substruct_assignment (m.vis and its groups)"""
  m, _ = _load(lib)
  vis = copy.copy(m.vis)
  vis.global_.fovy = 30
  vis.quality.shadowsize = 512
  vis.headlight.ambient = (0.25, 0.5, 0.75)
  vis.map.stiffness = 50.0
  vis.scale.framelength = 1.5
  vis.rgba.haze = (0.5, 0.25, 0.125, 1)
  assert m.vis.global_.fovy == 40  # a copy
  ambient = m.vis.headlight.ambient
  haze = m.vis.rgba.haze
  m.vis = vis
  assert m.vis == vis
  assert m.vis.global_.fovy == 30 and m.vis.quality.shadowsize == 512
  assert m.vis.map.stiffness == 50 and m.vis.scale.framelength == 1.5
  np.testing.assert_array_equal(ambient, [0.25, 0.5, 0.75])
  np.testing.assert_array_equal(haze, [0.5, 0.25, 0.125, 1])

  headlight = copy.copy(m.vis.headlight)
  headlight.diffuse = (0.125, 0.25, 0.5)
  m.vis.headlight = headlight
  np.testing.assert_array_equal(m.vis.headlight.diffuse, [0.125, 0.25, 0.5])
  global_ = copy.copy(m.vis.global_)
  global_.fovy = 70
  assert m.vis.global_.fovy == 30
  m.vis.global_ = global_
  assert m.vis.global_.fovy == 70


# ---- model names ----


@pytest.mark.parametrize("lib", LIBS)
def test_names_buffer(lib):
  """bindings_test: test_mjmodel_can_access_names_directly, test_mjmodel_names_doesnt_copy"""
  m, _ = _load(lib)
  assert m.names[: m.names.index(b"\0")] == b"port"
  start = m.name_geomadr[1]
  assert m.names[start : m.names.index(b"\0", start)] == b"crate"
  assert m.names is m.names


def test_names_buffer_matches():
  """bindings_test: test_mjmodel_can_access_names_directly (the whole buffer, against MuJoCo's)"""
  (m0, _), (m1, _) = _both()
  assert m1.names == m0.names
  np.testing.assert_array_equal(m1.name_geomadr, m0.name_geomadr)


# ---- copies ----


@pytest.mark.parametrize("lib", LIBS)
def test_copy_model(lib):
  """bindings_test: test_mjmodel_can_copy"""
  m, _ = _load(lib)
  other = copy.copy(m)
  assert lib.mj_id2name(other, lib.mjtObj.mjOBJ_JOINT, 0) == "float"
  assert lib.mj_id2name(other, lib.mjtObj.mjOBJ_GEOM, 1) == "crate"
  m.geom_size[1] = 0.75
  np.testing.assert_array_equal(m.geom_size[1], [0.75, 0.75, 0.75])
  np.testing.assert_array_equal(other.geom_size[1], [0.2, 0.2, 0.2])


# the crate tilted 45 degrees about x and lowered onto an edge: two contacts
TILTED = [0, 0, 0.2 * np.sqrt(2) - 0.002, np.cos(np.pi / 8), np.sin(np.pi / 8), 0, 0]


@pytest.mark.parametrize("lib", LIBS)
def test_copy_data(lib):
  """bindings_test: test_mjdata_can_copy"""
  m, d = _load(lib)
  d.qpos[:7] = TILTED
  lib.mj_forward(m, d)
  other = copy.copy(d)
  assert other.ncon == 2
  assert other.contact[1].dist == d.contact[1].dist
  np.testing.assert_array_equal(other.contact.pos, d.contact.pos)
  lib.mj_resetData(m, d)
  lib.mj_forward(m, d)
  lib.mj_forward(m, other)
  assert d.ncon == 4 and other.ncon == 2
  lib.mj_resetData(m, other)
  lib.mj_forward(m, other)
  assert other.ncon == 4

  other.qpos[8] = 0.5
  other.geom_xpos[2] = 9
  assert not np.array_equal(d.qpos, other.qpos)
  lib.mj_copyData(d, m, other)  # into an existing MjData
  np.testing.assert_array_equal(d.qpos, other.qpos)
  np.testing.assert_array_equal(d.geom_xpos, other.geom_xpos)
  assert d.ncon == 4


@pytest.mark.parametrize("lib", LIBS)
def test_data_keeps_its_model(lib):
  """bindings_test: test_mjdata_holds_ref_to_model (the model stays usable; not the refcounts)"""
  d = lib.MjData(lib.MjModel.from_xml_string(MODEL))
  m = d.model
  assert d.model is m
  del d
  gc.collect()
  assert m.nq == 12
  lib.mj_step(m, lib.MjData(m))


# ---- warnings ----


@pytest.mark.parametrize("lib", LIBS)
def test_warning_array(lib):
  """bindings_test: test_mjdata_can_read_warning_array"""
  m, d = _load(lib)
  stats = d.warning
  assert len(stats) == lib.mjtWarning.mjNWARNING
  d.qpos[8] = np.nan
  with warnings.catch_warnings():  # ours also warns in Python (engine.PhysicsWarning)
    warnings.simplefilter("ignore")
    lib.mj_checkPos(m, d)
  assert stats[lib.mjtWarning.mjWARN_BADQPOS].number == 1
  assert stats[lib.mjtWarning.mjWARN_BADQPOS].lastinfo == 8  # the bad number's index
  assert stats[lib.mjtWarning.mjWARN_BADQVEL].number == 0
  np.testing.assert_array_equal(d.qpos, m.qpos0)  # the state was reset


# ---- contacts ----


def _anticlockwise(contacts):
  return sorted(contacts, key=lambda c: np.arctan2(c.pos[1], c.pos[0]))


CORNERS = [[-0.2, -0.2], [0.2, -0.2], [0.2, 0.2], [-0.2, 0.2]]


@pytest.mark.parametrize("lib", LIBS)
def test_copy_a_contact(lib):
  """bindings_test: test_mjcontact_can_copy"""
  m, d = _load(lib)
  lib.mj_forward(m, d)
  copies = _anticlockwise([copy.copy(d.contact[i]) for i in range(4)])
  for contact, corner in zip(copies, CORNERS):
    np.testing.assert_allclose(contact.pos[:2], corner, atol=1e-12)
  for i in range(4):
    d.contact[i].pos[:2] = 8
  np.testing.assert_array_equal(d.contact.pos[:, :2], np.full((4, 2), 8))
  for contact, corner in zip(copies, CORNERS):  # the copies are not views
    np.testing.assert_allclose(contact.pos[:2], corner, atol=1e-12)


@pytest.mark.parametrize("lib", LIBS)
def test_step_until_contact(lib):
  """bindings_test: test_mj_step"""
  m, d = _load(lib)
  drop = 0.125
  d.qpos[2] += drop
  lib.mj_forward(m, d)
  m.opt.timestep = 2**-9  # time adds up exactly
  contact = d.contact  # taken before: a view, not a copy
  landing = np.sqrt(2 * drop / 9.81)
  assert d.time == 0
  while d.time < landing:
    assert d.ncon == 0 and len(d.efc_type) == 0
    before = d.time
    lib.mj_step(m, d)
    assert d.time == before + 2**-9
  lib.mj_forward(m, d)
  assert d.ncon == 4 and len(d.efc_type) == 16  # pyramidal cones: 4 rows per contact
  assert len(contact) == 4
  for c, corner in zip(_anticlockwise(contact), CORNERS):
    np.testing.assert_allclose(c.pos[:2], corner, atol=1e-6)
  lib.mj_resetData(m, d)
  assert d.ncon == 0 and len(d.efc_type) == 0 and len(contact) == 0


@pytest.mark.parametrize("lib", LIBS)
def test_step_several_times(lib):
  """bindings_test: test_mj_step_multiple"""
  m, d = _load(lib)
  m.opt.timestep = 2**-8
  for _ in range(5):
    before = d.time
    lib.mj_step(m, d, nstep=3)
    assert d.time == before + 3 * 2**-8
  lib.mj_step(m, d, 2)
  assert d.time == 17 * 2**-8


@pytest.mark.parametrize("lib", LIBS)
def test_contact_list_fields(lib):
  """bindings_test: test_mj_contact_list"""
  m, d = _load(lib)
  assert len(d.contact) == 0
  lib.mj_forward(m, d)
  assert len(d.contact) == 4
  np.testing.assert_array_equal(d.contact.geom, [[0, 1]] * 4)
  rng = np.random.default_rng(3)
  for field, size in (("pos", 3), ("friction", 5), ("H", 36), ("frame", 9)):
    values = rng.uniform(size=(4, size))
    for contact, row in zip(d.contact, values):
      setattr(contact, field, row)
    np.testing.assert_array_equal(getattr(d.contact, field), values, err_msg=field)
  for i, contact in enumerate(d.contact):
    contact.geom = [i, i + 2]
    contact.dist = -i / 8
  np.testing.assert_array_equal(d.contact.geom, [[i, i + 2] for i in range(4)])
  np.testing.assert_array_equal(d.contact.dist, [-i / 8 for i in range(4)])


def test_contacts_match():
  """bindings_test: test_mj_contact_list (the detected contacts, against MuJoCo's)"""
  (m0, d0), (m1, d1) = _both()
  d0.qpos[:7] = d1.qpos[:7] = TILTED
  mujoco.mj_forward(m0, d0)
  engine.mj_forward(m1, d1)
  assert d1.ncon == d0.ncon == 2
  for field in ("dist", "pos", "frame", "geom", "dim", "friction", "solref", "solimp", "H"):
    want = getattr(d0.contact, field)
    np.testing.assert_allclose(getattr(d1.contact, field), want, atol=1e-9, err_msg=field)


@pytest.mark.parametrize("lib", LIBS)
def test_contact_lists_compare(lib):
  """bindings_test: test_mj_struct_list_equality"""
  m, d = _load(lib)
  m2, d2 = _load(lib)
  lib.mj_forward(m, d)
  lib.mj_forward(m2, d2)
  assert d.ncon == d2.ncon == 4
  assert d2.contact == d.contact
  d.qpos[:7] = TILTED
  lib.mj_forward(m, d)
  assert d.ncon == 2
  assert d2.contact != d.contact  # lists of different lengths
  assert d.contact != d.warning
  assert d.contact != 5
  assert d.contact[0] == copy.copy(d.contact[0])
  assert d.contact[0] != d.contact[1]


# ---- structs: equality and repr ----

STRUCTS = [("MjOption", "tolerance"), ("MjStatistic", "extent")]
STRUCTS += [("MjWarningStat", "number"), ("MjContact", "dist")]


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize(("name", "attr"), STRUCTS)
def test_struct_equality(lib, name, attr):
  """bindings_test: test_mj_struct_equality (the structs we have)"""
  cls = getattr(lib, name)
  first, second = cls(), cls()
  assert first == second
  setattr(first, attr, 3)
  assert first != second
  setattr(second, attr, 3)
  assert first == second
  assert first != 3 and first is not None
  with pytest.raises(TypeError):
    hash(first)  # mutable: not hashable


@pytest.mark.parametrize("lib", LIBS)
def test_struct_equality_of_arrays(lib):
  """bindings_test: test_mj_struct_equality_array"""
  first, second = lib.MjContact(), lib.MjContact()
  first.H[7] = 0.5
  assert first != second
  second.H[7] = 0.5
  assert first == second
  first.geom = [1, 2]
  assert first != second


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize(("name", "attr"), STRUCTS)
def test_struct_repr(lib, name, attr):
  """bindings_test: test_mj_struct_repr (the structs we have)"""
  struct = getattr(lib, name)()
  setattr(struct, attr, 5)
  text = repr(struct)
  assert text.startswith(f"<{name}\n") and text.endswith(">")
  assert f"\n  {attr}: 5" in text  # 5 or 5.0
  lines = text.splitlines()[1:-1]
  names = [line.split(":")[0] for line in lines if line.startswith("  ") and line[2] != " "]
  assert names == sorted(names)
  assert str(struct) == text


@pytest.mark.parametrize("lib", LIBS)
def test_repr_of_a_subclass(lib):
  """bindings_test: test_mj_struct_repr_for_subclass"""

  class Counted(lib.MjWarningStat):
    @property
    def itself(self):  # an attribute that is not a field: not shown
      return self

  assert repr(Counted()) == "<Counted\n  lastinfo: 0\n  number: 0\n>"


# ---- functions ----


@pytest.mark.parametrize("lib", LIBS)
def test_rotate_vector_by_quaternion(lib):
  """bindings_test: test_mju_rotVecQuat"""
  vec = [0, 1, 0]
  quat = [np.cos(np.pi / 8), np.sin(np.pi / 8), 0, 0]  # 45 degrees about x
  want = np.array([0, 1, 1]) / np.sqrt(2)
  res = np.empty(3)
  assert lib.mju_rotVecQuat(res, vec, quat) is None
  np.testing.assert_allclose(res, want, atol=1e-15)
  res[:] = 0
  lib.mju_rotVecQuat(quat=quat, vec=vec, res=res)
  np.testing.assert_allclose(res, want, atol=1e-15)
  for bad in (
    (np.zeros(4), vec, quat),  # res of the wrong size
    (res, [1, 2, 3, 4], quat),  # vec of the wrong size
    (res, vec, [1, 0, 0]),  # quat of the wrong size
    (np.zeros(3, np.int32), vec, quat),  # res of the wrong dtype
  ):
    with pytest.raises(TypeError):
      lib.mju_rotVecQuat(*bad)


@pytest.mark.parametrize("lib", LIBS)
def test_get_and_set_state(lib):
  """bindings_test: test_getsetstate"""
  m, d = _load(lib)
  lib.mj_step(m, d)
  bad = 1 << int(lib.mjtState.mjNSTATE)
  with pytest.raises(lib.FatalError) as info:
    lib.mj_stateSize(m, bad)
  assert str(info.value) == f"mj_stateSize: invalid state signature {bad} >= 2^mjNSTATE"
  sig = lib.mjtState.mjSTATE_INTEGRATION
  size = lib.mj_stateSize(m, sig)
  with pytest.raises(TypeError, match=r"mj_stateSize\(m, sig\)"):  # our message adds the sizes
    lib.mj_getState(m, d, np.empty(size - 1), sig)
  start = np.empty(size)
  lib.mj_getState(m, d, start, sig)
  lib.mj_step(m, d)
  first = np.empty(size)
  lib.mj_getState(m, d, first, sig)
  lib.mj_setState(m, d, start, sig)
  lib.mj_step(m, d)
  again = np.empty(size)
  lib.mj_getState(m, d, again, sig)
  np.testing.assert_array_equal(again, first)
  other = lib.MjData(m)
  lib.mj_copyState(m, d, other, sig)
  copied = np.empty(size)
  lib.mj_getState(m, other, copied, sig)
  np.testing.assert_array_equal(copied, first)


def test_state_matches():
  """bindings_test: test_getsetstate (the state vector, against MuJoCo's)"""
  (m0, d0), (m1, d1) = _both()
  sig = mujoco.mjtState.mjSTATE_INTEGRATION
  assert engine.mj_stateSize(m1, sig) == mujoco.mj_stateSize(m0, sig)
  for m, d, lib in ((m0, d0, mujoco), (m1, d1, engine)):
    d.ctrl[0] = 0.3
    lib.mj_step(m, d, 3)
  want, got = np.empty(mujoco.mj_stateSize(m0, sig)), np.empty(engine.mj_stateSize(m1, sig))
  mujoco.mj_getState(m0, d0, want, sig)
  engine.mj_getState(m1, d1, got, sig)
  np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("lib", LIBS)
def test_set_keyframe(lib):
  """bindings_test: test_mj_setKeyframe"""
  m, d = _load(lib)
  d.ctrl[0] = 0.5
  lib.mj_step(m, d)
  saved = d.time, d.qpos.copy(), d.qvel.copy(), d.act.copy(), d.ctrl.copy()
  lib.mj_setKeyframe(m, d, 1)
  lib.mj_step(m, d)
  assert d.time != saved[0]
  lib.mj_resetDataKeyframe(m, d, 1)
  assert d.time == saved[0]
  for got, want in zip((d.qpos, d.qvel, d.act, d.ctrl), saved[1:]):
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("lib", LIBS)
def test_angular_momentum_matrix(lib):
  """bindings_test: test_mj_angmomMat"""
  m, d = _load(lib)
  d.qvel[:] = 1
  lib.mj_forward(m, d)
  lib.mj_subtreeVel(m, d)
  mat = np.empty((3, m.nv))
  lib.mj_angmomMat(m, d, mat, 0)
  np.testing.assert_allclose(mat @ d.qvel, d.subtree_angmom[0], atol=1e-5)


@pytest.mark.parametrize("lib", LIBS)
def test_site_jacobian(lib):
  """bindings_test: test_mj_jacSite"""
  m, d = _load(lib)
  lib.mj_forward(m, d)
  site = lib.mj_name2id(m, lib.mjtObj.mjOBJ_SITE, "tip")
  # the tip hangs 0.5 below a hinge about x: it moves along +y, and turns about x
  want_p = np.zeros((3, 10))
  want_p[1, 6] = 0.5
  want_r = np.zeros((3, 10))
  want_r[0, 6] = 1
  jacp = np.full((3, 10), 9.0)
  lib.mj_jacSite(m, d, jacp, None, site)
  np.testing.assert_allclose(jacp, want_p, atol=1e-15)
  jacr = np.full((3, 10), 9.0)
  lib.mj_jacSite(m, d, None, jacr, site)
  np.testing.assert_array_equal(jacr, want_r)
  jacp[:] = jacr[:] = 0
  lib.mj_jacSite(m, d, jacp, jacr, site)
  np.testing.assert_allclose(jacp, want_p, atol=1e-15)
  np.testing.assert_array_equal(jacr, want_r)
  for p, r in (
    (np.zeros((3, 10), int), None),  # not float64
    (None, np.zeros((3, 10), np.float32)),
  ):
    with pytest.raises(TypeError):
      lib.mj_jacSite(m, d, p, r, site)


# ---- constants and enums ----


@pytest.mark.parametrize("lib", LIBS)
def test_float_constants(lib):
  """bindings_test: test_float_constant"""
  assert lib.mjMAXVAL == pytest.approx(1e10, rel=1e-6)
  assert lib.mjMINVAL == pytest.approx(1e-15, rel=1e-6)


ENUMS = ["mjtJoint", "mjtEnableBit", "mjtDisableBit", "mjtGeom", "mjtFrame", "mjtObj", "mjtState"]


@pytest.mark.parametrize("name", ENUMS)
def test_enum_values(name):
  """bindings_test: test_enum_values (every member of these enums, against MuJoCo's)"""
  want, got = getattr(mujoco, name), getattr(engine, name)
  assert {k: int(v) for k, v in got.__members__.items()} == {
    k: int(v) for k, v in want.__members__.items()
  }


@pytest.mark.parametrize("lib", LIBS)
def test_enum_values_spot_checks(lib):
  """bindings_test: test_enum_values"""
  assert [lib.mjtJoint.mjJNT_FREE, lib.mjtJoint.mjJNT_HINGE] == [0, 3]
  assert lib.mjtEnableBit.mjENBL_ENERGY == 2 and lib.mjtEnableBit.mjNENABLE == 7
  assert lib.mjtGeom.mjGEOM_ARROW == 100 and lib.mjtGeom.mjGEOM_NONE == 1001


@pytest.mark.parametrize("lib", LIBS)
def test_enum_from_int(lib):
  """bindings_test: test_enum_from_int"""
  assert lib.mjtJoint(2) == lib.mjtJoint.mjJNT_SLIDE
  assert lib.mjtGeom(value=102) == lib.mjtGeom.mjGEOM_ARROW2
  for bad in (99, -2):
    with pytest.raises(ValueError):
      lib.mjtJoint(bad)


@pytest.mark.parametrize("lib", LIBS)
def test_enum_as_index(lib):
  """bindings_test: test_enum_as_index"""
  letters = list("abcdefghijk")
  assert letters[lib.mjtFrame.mjFRAME_LIGHT] == letters[5]
  assert letters[lib.mjtFrame.mjFRAME_BODY : lib.mjtFrame.mjFRAME_LIGHT] == letters[1:5]


@pytest.mark.parametrize("lib", LIBS)
def test_enum_arithmetic(lib):
  """bindings_test: test_enum_ops"""
  site = lib.mjtFrame.mjFRAME_LIGHT  # 5: odd, so that divisions round
  assert site == 5 and 5 == site and site != lib.mjtFrame.mjFRAME_BODY
  cases = [
    (-site, -5, int),
    (site + 2, 7, int),
    (2 + site, 7, int),
    (site + 0.5, 5.5, float),
    (site - 7, -2, int),
    (7 - site, 2, int),
    (site * 4, 20, int),
    (site * 0.5, 2.5, float),
    (site / 2, 2.5, float),
    (site // 2, 2, int),
    (-site // 2, -3, int),
    (12 // site, 2, int),
    (site // 2.0, 2.0, float),
    (site % 3, 2, int),
    (-site % 3, 1, int),
    (site % -3, -1, int),
    (13 % site, 3, int),
    (-13 % site, 2, int),
  ]
  for value, want, kind in cases:
    assert value == want and type(value) is kind, (value, want)
  for divide in (lambda: site / 0, lambda: 1 // lib.mjtFrame.mjFRAME_NONE, lambda: site % 0):
    with pytest.raises(ZeroDivisionError):
      divide()
  bits = lib.mjtDisableBit
  assert bits.mjDSBL_CONTACT | bits.mjDSBL_GRAVITY == 144
  assert bits.mjDSBL_GRAVITY & 0xFF == 128 and bits.mjDSBL_GRAVITY ^ 129 == 1
  assert 129 & bits.mjDSBL_GRAVITY == 128
  assert bits.mjDSBL_LIMIT << 1 == bits.mjDSBL_CONTACT
  assert bits.mjDSBL_GRAVITY >> 3 == bits.mjDSBL_CONTACT


# ---- rays and distances ----


@pytest.mark.parametrize("lib", LIBS)
def test_ray_arguments(lib):
  """bindings_test: test_mj_ray"""
  m, d = _load(lib)
  lib.mj_forward(m, d)
  geomid = np.zeros(1, np.int32)
  start, up = [0, 0, 1], [0, 0, -1]  # down onto the crate's top at z = 0.4
  dist = lib.mj_ray(m, d, start, up, None, 1, -1, geomid, None)
  assert dist == pytest.approx(0.6) and geomid[0] == 1
  dist = lib.mj_ray(m, d, start, up, [1, 1, 1, 1, 1, 1], 1, -1, geomid)  # normal left out
  assert dist == pytest.approx(0.6)
  normal = np.zeros(3)
  dist = lib.mj_ray(
    m=m,
    d=d,
    pnt=start,
    vec=up,
    geomgroup=None,
    flg_static=0,
    bodyexclude=1,  # the crate's body: the ray reaches the static floor, not wanted either
    geomid=geomid,
    normal=normal,
  )
  assert dist == -1 and geomid[0] == -1
  lib.mj_ray(m, d, start, up, None, 1, -1, geomid, normal)
  np.testing.assert_allclose(normal, [0, 0, 1], atol=1e-12)


@pytest.mark.parametrize("lib", LIBS)
def test_ray_and_one_geom(lib):
  """bindings_test: test_mju_ray_geom"""
  pos, mat, size = np.zeros(3), np.eye(3).reshape(-1), np.array([3.0, 3.0, 1.0])
  pnt = np.array([2.0, 2.0, 2.0])
  vec = -pnt / np.linalg.norm(pnt)
  normal = np.zeros(3)
  dist = lib.mju_rayGeom(pos, mat, size, pnt, vec, lib.mjtGeom.mjGEOM_PLANE, normal)
  assert dist == pytest.approx(np.sqrt(12))
  np.testing.assert_array_equal(normal, [0, 0, 1])
  assert lib.mju_rayGeom(pos, mat, size, pnt, vec, lib.mjtGeom.mjGEOM_PLANE) == dist
  sphere = lib.mju_rayGeom(pos, mat, size, pnt, vec, lib.mjtGeom.mjGEOM_SPHERE)
  assert sphere == pytest.approx(np.sqrt(12) - 3)


def test_geom_distance():
  """bindings_test: test_geom_distance"""
  (m0, d0), (m1, d1) = _both()
  mujoco.mj_forward(m0, d0)
  engine.mj_forward(m1, d1)
  want, got = np.empty(6), np.empty(6)
  dist0 = mujoco.mj_geomDistance(m0, d0, 0, 2, 10, want)
  dist1 = engine.mj_geomDistance(m1, d1, 0, 2, 10, got)
  assert dist1 == pytest.approx(dist0, abs=1e-9) and dist1 == pytest.approx(2.8)
  np.testing.assert_allclose(got, want, atol=1e-9)
  np.testing.assert_allclose(got, [3, 0, 0, 3, 0, 2.8], atol=1e-9)
  assert engine.mj_geomDistance(m1, d1, 0, 2, 1, None) == 1  # beyond distmax: distmax


@pytest.mark.parametrize("lib", LIBS)
def test_inverse_fd_none(lib):
  """bindings_test: test_inverse_fd_none"""
  m, d = _load(lib)
  lib.mjd_inverseFD(m, d, 1e-6, 0, None, None, None, None, None, None, None)


def test_inverse_fd():
  """bindings_test: test_inverse_fd (and ours equal to MuJoCo's: the crate on the floor, the
  ball joint)"""
  eps, results = 1e-6, []
  for lib, (m, d) in zip((mujoco, engine), _both()):
    nv, ns = m.nv, m.nsensordata
    shapes = [(nv, nv)] * 3 + [(nv, ns)] * 3 + [(nv, m.nC)]
    outputs = [np.zeros(shape) for shape in shapes]
    lib.mjd_inverseFD(m, d, eps, 0, *outputs)
    for output in outputs[:6]:
      assert np.linalg.norm(output) > eps
    results.append(outputs)
  for theirs, mine in zip(*results, strict=True):
    np.testing.assert_allclose(mine, theirs, rtol=0, atol=1e-9 * max(1, np.abs(theirs).max()))


# ---- mju_ helpers ----


@pytest.mark.parametrize("lib", LIBS)
def test_fill(lib):
  """bindings_test: test_mju_fill"""
  res = np.empty(4)
  lib.mju_fill(res, -0.75)
  np.testing.assert_array_equal(res, np.full(4, -0.75))


@pytest.mark.parametrize("lib", LIBS)
def test_identity(lib):
  """bindings_test: test_mju_eye"""
  res = np.full((3, 3), 7.0)
  lib.mju_eye(res)
  np.testing.assert_array_equal(res, np.eye(3))


@pytest.mark.parametrize("lib", LIBS)
def test_symmetrize(lib):
  """bindings_test: test_mju_symmetrize"""
  mat = np.arange(9.0).reshape(3, 3) ** 2
  res = np.empty((3, 3))
  lib.mju_symmetrize(res, mat)
  np.testing.assert_array_equal(res, (mat + mat.T) / 2)


@pytest.mark.parametrize("lib", LIBS)
def test_clip(lib):
  """bindings_test: test_mju_clip"""
  assert lib.mju_clip(0.5, 0.0, 1.0) == 0.5
  assert lib.mju_clip(-3.0, -1.0, 1.0) == -1.0
  assert lib.mju_clip(4.0, -1.0, 2.5) == 2.5


@pytest.mark.parametrize("lib", LIBS)
def test_vector_matrix_vector(lib):
  """bindings_test: test_mju_mul_vec_mat_vec"""
  a, b = np.array([1.0, -1.0, 2.0]), np.array([0.5, 2.0, 1.0])
  mat = np.arange(1.0, 10.0).reshape(3, 3)
  assert lib.mju_mulVecMatVec(a, mat, b) == a @ mat @ b == 46.5


@pytest.mark.parametrize("lib", LIBS)
def test_dense_to_sparse(lib):
  """bindings_test: test_mju_dense_to_sparse"""
  mat = np.array([[0.0, 0.0, 4.0], [5.0, 6.0, 0.0], [0.0, 0.0, 0.0]])
  values, colind = np.zeros(3), np.zeros(3, np.int32)
  rownnz, rowadr = np.zeros(3, np.int32), np.zeros(3, np.int32)
  assert lib.mju_dense2sparse(values, mat, rownnz, rowadr, colind) == 0
  np.testing.assert_array_equal(values, [4, 5, 6])
  np.testing.assert_array_equal(rownnz, [1, 2, 0])
  np.testing.assert_array_equal(rowadr, [0, 1, 3])
  np.testing.assert_array_equal(colind, [2, 0, 1])
  short, colind = np.zeros(2), np.zeros(2, np.int32)  # room for two values: too small
  assert lib.mju_dense2sparse(short, mat, rownnz, rowadr, colind) == 1
  with pytest.raises(TypeError):  # the rows of mat and rownnz differ
    lib.mju_dense2sparse(values, mat, np.zeros(2, np.int32), rowadr, np.zeros(3, np.int32))


@pytest.mark.parametrize("lib", LIBS)
def test_sparse_to_dense(lib):
  """bindings_test: test_mju_sparse_to_dense"""
  res = np.full((3, 3), 9.0)
  lib.mju_sparse2dense(res, [4.0, 5.0, 6.0], [1, 2, 0], [0, 1, 3], [2, 0, 1])
  np.testing.assert_array_equal(res, [[0, 0, 4], [5, 6, 0], [0, 0, 0]])


@pytest.mark.parametrize("lib", LIBS)
def test_band_dense_matrices(lib):
  """bindings_test: test_banded"""
  # five rows: three banded ones (the diagonal and one number left of it), two dense ones
  ntotal, nband, ndense = 5, 2, 2
  dense = np.array(
    [
      [4.0, 0.5, 0.0, 0.2, 0.1],
      [0.5, 5.0, 0.7, 0.0, 0.3],
      [0.0, 0.7, 6.0, 0.4, 0.0],
      [0.2, 0.0, 0.4, 7.0, 0.6],
      [0.1, 0.3, 0.0, 0.6, 8.0],
    ]
  )
  band = np.zeros((ntotal - ndense) * nband + ndense * ntotal)
  lib.mju_dense2Band(band, dense, ntotal, nband, ndense)
  for i in range(ntotal):  # the diagonal is where mju_bandDiag says
    assert band[lib.mju_bandDiag(i, ntotal, nband, ndense)] == dense[i, i]
  back = np.zeros((ntotal, ntotal))
  lib.mju_band2Dense(back, band, ntotal, nband, ndense, True)
  np.testing.assert_array_equal(back, dense)
  vec = np.array([[1.0], [-2.0], [0.5], [3.0], [-1.0]])
  res = np.zeros(ntotal)
  lib.mju_bandMulMatVec(res, band, vec, ntotal, nband, ndense, 1, True)
  np.testing.assert_allclose(res, dense @ vec[:, 0], rtol=1e-14)
  assert lib.mju_cholFactorBand(band, ntotal, nband, ndense, 0.0, 0.0) > 0
  lib.mju_cholSolveBand(res, band, vec[:, 0], ntotal, nband, ndense)
  np.testing.assert_allclose(res, np.linalg.solve(dense, vec[:, 0]), rtol=1e-12)


@pytest.mark.parametrize("lib", LIBS)
def test_box_constrained_qp(lib):
  """bindings_test: test_mju_box_qp"""
  n = 4
  res, R, index = np.zeros(n), np.zeros((n, n + 7)), np.zeros(n, np.int32)
  H = np.diag([2.0, 1.0, 4.0, 1.0])
  g = np.array([3.0, -0.5, -1.0, 0.0])
  lower, upper = np.full(n, -1.0), np.full(n, 1.0)
  # unconstrained minimum -g/diag(H) = (-1.5, 0.5, 0.25, 0): the first bound binds
  rank = lib.mju_boxQP(res, R, index, H, g, lower, upper)
  assert rank == 3
  np.testing.assert_allclose(res, [-1.0, 0.5, 0.25, 0.0], atol=1e-12)
  np.testing.assert_array_equal(index[:rank], [1, 2, 3])


@pytest.mark.parametrize("lib", LIBS)
def test_euler_to_quaternion(lib):
  """bindings_test: test_mju_euler_to_quat"""
  quat = np.zeros(4)
  lib.mju_euler2Quat(quat, [np.pi / 2, 0, 0], "xyz")
  np.testing.assert_allclose(quat, [np.sqrt(0.5), np.sqrt(0.5), 0, 0], atol=1e-15)
  for seq in ("yz", "zyxz"):
    with pytest.raises(lib.FatalError) as info:
      lib.mju_euler2Quat(quat, [0, 0, 0], seq)
    assert str(info.value) == "mju_euler2Quat: seq must contain exactly 3 characters"
  with pytest.raises(lib.FatalError) as info:
    lib.mju_euler2Quat(quat, [0, 0, 0], "xqz")
  assert str(info.value) == "mju_euler2Quat: seq[1] is 'q', should be one of x, y, z, X, Y, Z"


# ---- pickle ----


def _same(actual, expected, names):
  for name in names:
    want, got = getattr(expected, name), getattr(actual, name)
    if isinstance(want, np.ndarray):
      np.testing.assert_array_equal(got, want, err_msg=name)
    else:
      assert got == want, name


@pytest.mark.parametrize("lib", LIBS)
def test_pickle_fresh_data(lib):
  """bindings_test: test_pickle_mjdata_clean"""
  _, d = _load(lib)
  d.mocap_pos[0] = [1, 2, 3]
  other = pickle.loads(pickle.dumps(d))
  _same(other, d, ("time", "qpos", "qvel", "mocap_pos"))


@pytest.mark.parametrize("lib", LIBS)
def test_unpickled_data_frees_its_model(lib):
  """bindings_test: test_pickle_mjdata_releases_owned_model"""
  _, d = _load(lib)
  other = pickle.loads(pickle.dumps(d))
  model_array = weakref.ref(other.model.body_mass)
  del other
  gc.collect()
  assert model_array() is None


@pytest.mark.parametrize("lib", LIBS)
def test_unpickled_model_lives_while_used(lib):
  """bindings_test: test_pickle_mjdata_retains_external_model_reference"""
  _, d = _load(lib)
  other = pickle.loads(pickle.dumps(d))
  m = other.model
  model_array = weakref.ref(m.body_mass)
  del other
  gc.collect()
  assert model_array() is not None
  fresh = lib.MjData(m)
  lib.mj_step(m, fresh)
  del fresh, m
  gc.collect()
  assert model_array() is None


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("owner", ["model", "data"])
def test_views_of_unpickled_data_stay_valid(lib, owner):
  """bindings_test: test_pickle_mjdata_retains_array_views"""
  _, d = _load(lib)
  other = pickle.loads(pickle.dumps(d))
  view = other.model.body_mass if owner == "model" else other.qpos
  before = view.copy()
  ref = weakref.ref(view)
  del other
  gc.collect()
  np.testing.assert_array_equal(view, before)
  view[:] = before * 2 + 1
  np.testing.assert_array_equal(view, before * 2 + 1)
  del view
  gc.collect()
  assert ref() is None


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_copy_of_unpickled_data_keeps_the_model(lib, copier):
  """bindings_test: test_copy_unpickled_mjdata_retains_model"""
  _, d = _load(lib)
  other = pickle.loads(pickle.dumps(d))
  third = copier(other)
  model_array = weakref.ref(third.model.body_mass)
  del other
  gc.collect()
  assert model_array() is not None
  lib.mj_step(third.model, third)
  del third
  gc.collect()
  assert model_array() is None


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("jacobian", ["mjJAC_DENSE", "mjJAC_SPARSE"])
def test_pickle_data_and_step_on(lib, jacobian):
  """bindings_test: test_pickle_mjdata, test_pickle_mjdata_sparse"""
  m, d = _load(lib)
  m.opt.jacobian = getattr(lib.mjtJacobian, jacobian)
  d.ctrl[0] = 0.4
  lib.mj_step(m, d)
  other = pickle.loads(pickle.dumps(d))
  names = ("time", "qpos", "qvel", "qacc", "xpos", "mocap_pos", "energy", "efc_J", "ctrl")
  _same(other, d, names)
  assert other.contact == d.contact and d.ncon == 4
  for _ in range(10):
    lib.mj_step(m, d)
    lib.mj_step(m, other)
  _same(other, d, names)
  assert other.contact == d.contact


@pytest.mark.parametrize("lib", LIBS)
def test_pickle_model(lib):
  """bindings_test: test_pickle_mjmodel"""
  m, _ = _load(lib)
  m.body_pos[1, 0] = 0.25
  other = pickle.loads(pickle.dumps(m))
  _same(other, m, ("nq", "nv", "ngeom", "body_pos", "names", "geom_size"))
  assert other.opt == m.opt and other.vis == m.vis


# ---- plugins ----

CABLE = """
<mujoco>
  <extension>
    <plugin plugin="mujoco.elasticity.cable"/>
  </extension>
  <worldbody>
    <composite type="cable" curve="s" count="12 1 1" size=".6" offset="0 0 .5" initial="none">
      <plugin plugin="mujoco.elasticity.cable">
        <config key="twist" value="1e4"/>
        <config key="bend" value="1e5"/>
      </plugin>
      <joint kind="main" damping=".05"/>
      <geom type="capsule" size=".01" density="50"/>
    </composite>
  </worldbody>
</mujoco>
"""


def test_load_plugin_model():
  """bindings_test: test_load_plugin"""
  (m0, d0), (m1, d1) = _both(CABLE)
  assert m1.nplugin == m0.nplugin == 1
  mujoco.mj_forward(m0, d0)
  engine.mj_forward(m1, d1)
  np.testing.assert_allclose(d1.qfrc_passive, d0.qfrc_passive, rtol=1e-6, atol=1e-6)
  np.testing.assert_allclose(d1.qacc, d0.qacc, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_copy_data_with_plugin(lib, copier):
  """bindings_test: test_copy_mjdata_with_plugin, test_deepcopy_mjdata_with_plugin"""
  m, first = _load(lib, CABLE)
  assert first.model is m
  lib.mj_step(m, first)
  second = copier(first)
  lib.mj_step(m, first)
  lib.mj_step(second.model, second)
  np.testing.assert_array_equal(second.qpos, first.qpos)
  assert (second.model is first.model) == (copier is copy.copy)


# ---- textures ----


def test_texture_view():
  """bindings_test: test_texture_size"""
  xml = """
  <mujoco>
    <asset>
      <texture name="board" type="2d" builtin="checker" rgb1="1 1 1" rgb2="0 0 0" width="64"
               height="32"/>
      <material name="board" texture="board"/>
    </asset>
    <worldbody>
      <geom type="plane" size="1 1 1" material="board"/>
    </worldbody>
  </mujoco>"""
  (m0, _), (m1, _) = _both(xml)
  assert m1.tex("board").data.shape == m0.tex("board").data.shape == (32, 64, 3)
  np.testing.assert_array_equal(m1.tex("board").data, m0.tex("board").data)
  assert m1.tex("board").adr.dtype == m0.tex("board").adr.dtype
  assert np.shares_memory(m1.tex("board").adr, m1.tex_adr)
  assert np.shares_memory(m1.tex("board").data, m1.tex_data)


# ---- delayed controls and sensors ----

DELAYED_CTRL = """
<mujoco>
  <worldbody>
    <body>
      <joint name="hinge"/>
      <geom size=".1"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="{name}" joint="hinge" {extra} delay="0.02" nsample="{n}"/>
  </actuator>
</mujoco>
"""


@pytest.mark.parametrize("lib", LIBS)
def test_delayed_control_history(lib):
  """bindings_test: test_mj_read_ctrl_and_init_ctrl_delay (one control)"""
  m, d = _load(lib, DELAYED_CTRL.format(name="late", extra="", n=3))
  lib.mj_forward(m, d)
  assert m.actuator_history[0, 0] == 3
  times, values = np.array([0.0, 0.02, 0.04]), np.array([10.0, 20.0, 30.0])
  lib.mj_initCtrlHistory(m, d, 0, times, values)
  result = np.zeros(1)
  lib.mj_readCtrl(m, d, 0, 0.045, result, interp=0)  # looks up 0.025: holds 20
  assert result[0] == 20
  lib.mj_readCtrl(m, d, 0, 0.05, result, interp=1)  # looks up 0.03: halfway from 20 to 30
  assert result[0] == pytest.approx(25)
  lib.mj_initCtrlHistory(m, d, 0, None, values + 1)  # the times stay
  lib.mj_readCtrl(m, d, 0, 0.045, result, interp=0)
  assert result[0] == 21
  with pytest.raises(TypeError):  # a result too short for the control
    lib.mj_readCtrl(m, d, 0, 0.0, np.zeros(0), interp=0)


@pytest.mark.parametrize("lib", LIBS)
def test_delayed_controls_of_a_pid(lib):
  """bindings_test: test_mj_read_ctrl_and_init_ctrl_delay (several controls)"""
  xml = DELAYED_CTRL.replace("motor", "pid").format(
    name="pid", extra='kp="5" kv="1" input="pos vel ff"', n=2
  )
  m, d = _load(lib, xml)
  assert m.actuator_ctrlnum[0] == 3
  lib.mj_initCtrlHistory(m, d, 0, [0.0, 0.02], np.array([[1.0, 2.0, 3.0], [5.0, 6.0, 7.0]]))
  result = np.zeros(3)
  lib.mj_readCtrl(m, d, 0, 0.03, result, interp=0)  # looks up 0.01: the first sample
  np.testing.assert_array_equal(result, [1, 2, 3])
  lib.mj_readCtrl(m, d, 0, 0.035, result, interp=1)  # 0.015: three quarters of the way
  np.testing.assert_allclose(result, [4, 5, 6])


DELAYED_SENSOR = """
<mujoco>
  <worldbody>
    <body name="ball">
      <freejoint/>
      <geom size=".1"/>
      <site name="centre"/>
    </body>
  </worldbody>
  <sensor>
    <framepos name="where" objtype="site" objname="centre" delay="0.01" nsample="3"/>
    <framequat name="facing" objtype="body" objname="ball" delay="0.01" nsample="4"/>
  </sensor>
</mujoco>
"""


@pytest.mark.parametrize("lib", LIBS)
def test_delayed_sensor_history(lib):
  """bindings_test: test_mj_read_sensor_and_init_sensor_delay"""
  m, d = _load(lib, DELAYED_SENSOR)
  lib.mj_forward(m, d)
  assert m.sensor_history[0, 0] == 3 and m.sensor_dim[0] == 3
  times = np.array([0.0, 0.01, 0.02])
  values = np.arange(9.0).reshape(3, 3)
  lib.mj_initSensorHistory(m, d, 0, times, values, phase=0.0)
  result = np.zeros(3)
  lib.mj_readSensor(m, d, 0, 0.025, result, interp=0)  # looks up 0.015: the second sample
  np.testing.assert_array_equal(result, [3, 4, 5])
  lib.mj_initSensorHistory(m, d, 0, None, values * 10, phase=0.0)
  lib.mj_readSensor(m, d, 0, 0.025, result, interp=0)
  np.testing.assert_array_equal(result, [30, 40, 50])
  with pytest.raises(TypeError):  # a result too short for the sensor
    lib.mj_readSensor(m, d, 0, 0.0, np.zeros(2), interp=0)


@pytest.mark.parametrize("lib", LIBS)
def test_fill_a_sensor_history_with_valid_values(lib):
  """bindings_test: test_init_sensor_history_pedagogical"""
  m, d = _load(lib, DELAYED_SENSOR)
  delay = m.sensor_delay[1]
  assert m.sensor_dim[1] == 4 and m.sensor_history[1, 0] == 4 and delay == 0.01
  result = np.ones(4)
  lib.mj_readSensor(m, d, 1, delay, result, interp=0)
  np.testing.assert_array_equal(result, np.zeros(4))  # a new MjData's history: zeros
  lib.mj_readSensor(m, d, 1, delay, result, interp=0)
  saved = m.sensor_delay.copy()
  m.sensor_delay[:] = 0  # undelayed, sensordata gets the current values
  lib.mj_forward(m, d)
  m.sensor_delay[:] = saved
  adr = m.sensor_adr[1]
  np.testing.assert_array_equal(d.sensordata[adr : adr + 4], [1, 0, 0, 0])
  lib.mj_initSensorHistory(m, d, 1, None, np.tile(d.sensordata[adr : adr + 4], (4, 1)), 0.0)
  lib.mj_readSensor(m, d, 1, delay, result, interp=0)
  np.testing.assert_array_equal(result, [1, 0, 0, 0])


def test_delayed_sensors_match():
  """bindings_test: test_mj_read_sensor_and_init_sensor_delay (stepping, against MuJoCo)"""
  (m0, d0), (m1, d1) = _both(DELAYED_SENSOR)
  for m, d, lib in ((m0, d0, mujoco), (m1, d1, engine)):
    d.qvel[:3] = [0.5, -0.25, 1]
    d.qvel[3:] = [1, 2, 3]
    lib.mj_step(m, d, 20)
  np.testing.assert_allclose(d1.sensordata, d0.sensordata, rtol=1e-9, atol=1e-12)
  for i in range(2):
    want, got = np.zeros(m0.sensor_dim[i]), np.zeros(m1.sensor_dim[i])
    mujoco.mj_readSensor(m0, d0, i, d0.time - 0.003, want, 1)
    engine.mj_readSensor(m1, d1, i, d1.time - 0.003, got, 1)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


# ---- joint springs ----


@pytest.mark.parametrize("lib", LIBS)
def test_polynomial_stiffness(lib):
  """bindings_test: test_poly_stiffness"""
  xml = """
  <mujoco>
    <worldbody>
      <body>
        <joint type="slide" stiffness="2 -1 4"/>
        <geom size=".1"/>
      </body>
    </worldbody>
  </mujoco>"""
  m, d = _load(lib, xml)
  assert m.jnt_stiffness[0] == 2
  np.testing.assert_array_equal(m.jnt_stiffnesspoly[0], [-1, 4])
  for x in (0.5, 0.2):
    d.qpos[0] = x
    lib.mj_forward(m, d)
    assert d.qfrc_spring[0] == pytest.approx(-(2 * x - x * abs(x) + 4 * x**3))


# ---- visualization structs ----


@pytest.mark.parametrize("lib", LIBS)
def test_make_visualization_structs(lib):
  """bindings_test: test_can_initialize_mjv_structs"""
  m, _ = _load(lib)
  names = ("MjvScene", "MjvCamera", "MjvGLCamera", "MjvGeom", "MjvLight", "MjvOption", "MjvFigure")
  for name in names:
    cls = getattr(lib, name)
    assert isinstance(cls(), cls)
  assert isinstance(lib.MjvScene(m, 50), lib.MjvScene)


@pytest.mark.parametrize("lib", LIBS)
def test_scene_fills(lib):
  """bindings_test: test_mjv_scene"""
  m, d = _load(lib)
  scene = lib.MjvScene(model=m, maxgeom=64)
  assert scene.ngeom == 0 and scene.maxgeom == 64 and len(scene.geoms) == 64
  lib.mj_forward(m, d)
  camera = lib.MjvCamera()
  lib.mjv_updateScene(m, d, lib.MjvOption(), None, camera, lib.mjtCatBit.mjCAT_ALL, scene)
  assert scene.ngeom > 0


def test_scene_fills_as_mujoco():
  """bindings_test: test_mjv_scene (what the scene holds, against MuJoCo's)"""
  scenes = []
  for lib, (m, d) in zip((mujoco, engine), _both()):
    scene = lib.MjvScene(model=m, maxgeom=64)
    lib.mj_forward(m, d)
    option, camera = lib.MjvOption(), lib.MjvCamera()
    lib.mjv_updateScene(m, d, option, None, camera, lib.mjtCatBit.mjCAT_ALL, scene)
    scenes.append(scene)
  want, got = scenes
  assert got.ngeom == want.ngeom
  for i in range(want.ngeom):
    assert got.geoms[i].type == want.geoms[i].type
    np.testing.assert_allclose(got.geoms[i].pos, want.geoms[i].pos, atol=1e-6)


@pytest.mark.parametrize("lib", LIBS)
def test_camera_ids(lib):
  """bindings_test: test_mjv_camera (the ids; not the TypeError for a float)"""
  camera = lib.MjvCamera()
  camera.type = lib.mjtCamera.mjCAMERA_FIXED
  camera.fixedcamid = 2**31 - 1
  assert camera.fixedcamid == 2**31 - 1


# ---- more rays, points in sites ----


def test_several_rays_at_once():
  """bindings_test: test_mj_multi_ray"""
  pnt = np.array([0.5, 0.1, 0.3])  # beside the crate, above the floor
  vec = np.array([[-1.0, 0, 0], [0, 0, 1], [0, 0, -1], [0.6, 0, -0.8]])
  results = []
  for lib, (m, d) in zip((mujoco, engine), _both()):
    lib.mj_forward(m, d)
    geomid, dist, normal = np.zeros(4, np.int32), np.zeros(4), np.zeros(12)
    lib.mj_multiRay(
      m=m,
      d=d,
      pnt=pnt,
      vec=vec.reshape(-1),
      geomgroup=None,
      flg_static=1,
      bodyexclude=-1,
      geomid=geomid,
      dist=dist,
      normal=normal,
      nray=4,
      cutoff=lib.mjMAXVAL,
    )
    one = np.zeros(1, np.int32)
    for i in range(4):  # each as mj_ray casts it
      assert dist[i] == lib.mj_ray(m, d, pnt, vec[i], None, 1, -1, one, None)
      assert geomid[i] == one[0]
    results.append((geomid, dist, normal))
  (want_id, want_dist, want_normal), (got_id, got_dist, got_normal) = results
  np.testing.assert_array_equal(got_id, [1, -1, 0, 0])
  np.testing.assert_allclose(got_dist, [0.3, -1, 0.3, 0.375], atol=1e-12)
  np.testing.assert_array_equal(got_id, want_id)
  np.testing.assert_allclose(got_dist, want_dist, atol=1e-12)
  np.testing.assert_allclose(got_normal, want_normal, atol=1e-12)


INSIDE = """
<mujoco>
  <worldbody>
    <body pos="0 0 1" euler="0 0 45">
      <site name="ball" type="sphere" size=".5" pos="1 0 0"/>
      <site name="brick" type="box" size=".4 .2 .1"/>
      <site name="rod" type="capsule" size=".1 .3" pos="0 0 -1"/>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("lib", LIBS)
def test_point_inside_sites(lib):
  """bindings_test: test_mj_inside_site_sphere, test_mj_inside_site_box,
  test_mj_inside_site_kwargs"""
  m, d = _load(lib, INSIDE)
  lib.mj_forward(m, d)
  ball = lib.mj_name2id(m, lib.mjtObj.mjOBJ_SITE, "ball")
  c = np.sqrt(0.5)  # the body turns 45 degrees about z
  for site, point, inside in (
    (ball, [c, c, 1], 1),  # the centre
    (ball, [c + 0.3, c + 0.3, 1], 1),
    (ball, [2 * c, 2 * c, 1], 0),
    (1, [0.3 * c, 0.3 * c, 1], 1),  # along the box's long side
    (1, [0.3 * c, -0.3 * c, 1], 0),  # as far along its short side: out
    (1, [0, 0, 1.15], 0),
    (2, [0, 0, 0.35], 1),
    (2, [0.05, 0, 0.45], 0),
  ):
    assert lib.mj_insideSite(m, d, site, point) == inside, (site, point)
  assert lib.mj_insideSite(m=m, d=d, siteid=ball, point=np.array([c, c, 1.2])) == 1


def test_scene_without_model_is_empty():
  """bindings_test: test_mjv_scene_without_model."""
  for lib in (engine, mujoco):
    scene = lib.MjvScene()
    assert scene.scale == 1.0 and scene.maxgeom == 0 and scene.ngeom == 0


def test_string_constants():
  """bindings_test: test_string_constants (one name per flag, MuJoCo's names)."""
  for lib in (engine, mujoco):
    assert len(lib.mjDISABLESTRING) == lib.mjtDisableBit.mjNDISABLE
    assert len(lib.mjENABLESTRING) == lib.mjtEnableBit.mjNENABLE
    assert len(lib.mjTIMERSTRING) == lib.mjtTimer.mjNTIMER
    assert len(lib.mjLABELSTRING) == lib.mjtLabel.mjNLABEL
    assert len(lib.mjFRAMESTRING) == lib.mjtFrame.mjNFRAME
    assert len(lib.mjVISSTRING) == lib.mjtVisFlag.mjNVISFLAG
    assert len(lib.mjRNDSTRING) == lib.mjtRndFlag.mjNRNDFLAG
    assert (
      lib.mjDISABLESTRING[int(lib.mjtDisableBit.mjDSBL_ACTUATION).bit_length() - 1] == "Actuation"
    )
    assert lib.mjVISSTRING[lib.mjtVisFlag.mjVIS_INERTIA] == ("Inertia", "0", "I")
