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
