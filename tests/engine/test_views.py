"""MuJoCo's named accessors on our MjModel and MjData: `m.body('torso').mass`, `d.joint(0).qpos`.

The oracle is the installed `mujoco`: the same MJCF is compiled by both engines, stepped, and for
every accessor mujoco's MjModel and MjData have, every object and every attribute of its view,
ours must have the attribute with mujoco's shape, dtype and value, reached by id and by name;
writing into a view must land where it lands in mujoco's field. The attributes we cannot give,
or give differently on purpose, are listed below with the reason; any other difference fails.
"""

import mujoco
import numpy as np
import pytest

import engine

# attributes of mujoco's views that our MjModel has no field for: (accessor, attribute) -> why
MISSING = {
  ("hfield", "pathadr"): "no m.paths: our MjModel keeps no asset file paths",
  ("mesh", "pathadr"): "no m.paths: our MjModel keeps no asset file paths",
  ("tex", "pathadr"): "no m.paths: our MjModel keeps no asset file paths",
  ("tex", "contenttypeadr"): "no m.paths: our MjModel keeps no asset content types",
  ("skin", "pathadr"): "no m.paths: our MjModel keeps no asset file paths",
}
# attributes whose mujoco 3.17 view does not show the object's part of its field; ours does:
# (accessor, attribute) -> why. test_deviations checks what they have in common.
DIFFERENT = {
  ("tendon", "J_colind"): "mujoco reads nv entries at id*nv of the compressed ten_J_colind "
  "(nJten long): past its end; ours is the tendon's own ten_J_rownnz columns from ten_J_rowadr",
  ("tendon", "_lengthspring"): "mujoco's table gives tendon_lengthspring one column, so it reads "
  "flat entry id of the (ntendon, 2) array; ours is the tendon's row (2,)",
}
# mujoco 3.17's views of these flags (bool fields, shown as uint8) are detached copies: writing
# them changes nothing the physics reads, and writing the field leaves them stale. Ours are
# uint8 views of the field that write through. Their values are compared; their writes are not.
DETACHED = {
  ("actuator", "actlimited"),
  ("actuator", "ctrllimited"),
  ("actuator", "forcelimited"),
  ("eq", "active0"),
  ("jnt", "limited"),
  ("light", "active"),
  ("light", "castshadow"),
  ("mat", "texuniform"),
  ("tendon", "_limited"),
}
# mujoco's other names of accessors (MuJoCo's tables call the group by the first)
CANONICAL = {"camera": "cam", "equality": "eq", "joint": "jnt", "material": "mat"}
CANONICAL |= {"texture": "tex", "keyframe": "key", "ten": "tendon"}

_BOX_VERT = "-.05 -.05 0  .05 -.05 0  .05 .05 0  -.05 .05 0  -.05 -.05 .2  .05 -.05 .2"
_BOX_VERT += "  .05 .05 .2  -.05 .05 .2"
_BOX_FACE = "0 2 1 0 3 2 4 5 6 4 6 7 0 1 5 0 5 4 1 2 6 1 6 5 2 3 7 2 7 6 3 0 4 3 4 7"

# every object type, named and unnamed objects, joints of each type, ragged actuators (an SO3
# servo with 3 controls and 3 outputs, a pid with 2 controls), activation, sensors of 1, 3 and
# 4 numbers, user numbers
RICH = f"""
<mujoco model="views">
  <size nuser_body="2" nuser_jnt="1" nuser_geom="1" nuser_site="2" nuser_cam="1"
        nuser_tendon="1" nuser_actuator="2" nuser_sensor="1"/>
  <option timestep="0.005"/>
  <asset>
    <texture name="grid" type="2d" builtin="checker" width="8" height="8" rgb1="0 0 0"
             rgb2="1 1 1"/>
    <texture name="sky" type="skybox" builtin="gradient" width="4" height="4" rgb1=".3 .5 .7"
             rgb2="0 0 0"/>
    <material name="mat" texture="grid" texrepeat="2 3" rgba=".9 .8 .7 1" emission=".1"/>
    <material name="skinmat" specular=".3"/>
    <mesh name="tet" vertex="0 0 0  .1 0 0  0 .2 0  0 0 .3"/>
    <hfield name="hf" nrow="3" ncol="4" size="1 1 0.1 0.1"/>
  </asset>
  <worldbody>
    <light name="lamp" pos="0 0 3" dir="0 0 -1"/>
    <light pos="1 0 3" directional="true"/>
    <camera name="cam0" pos="0 -2 1" xyaxes="1 0 0 0 1 2"/>
    <geom name="floor" type="plane" size="5 5 .1" material="mat"/>
    <geom name="terrain" type="hfield" hfield="hf" pos="3 3 -1"/>
    <body name="torso" pos="0 0 1" user="1 2">
      <freejoint name="root"/>
      <geom name="tg" type="box" size=".1 .08 .06" user="3"/>
      <site name="s0" pos=".1 0 0" user="4 5"/>
      <camera name="track" mode="track" pos="0 -1 0" user="6"/>
      <body name="arm" pos=".2 0 0">
        <joint name="ball" type="ball" damping=".1"/>
        <geom name="ag" type="capsule" fromto="0 0 0 .2 0 0" size=".03"/>
        <body name="hand" pos=".2 0 0">
          <joint name="hinge" axis="0 1 0" range="-1 1" limited="true" user="7"/>
          <joint name="slide" type="slide" axis="1 0 0" stiffness="10"/>
          <geom name="hg" type="mesh" mesh="tet"/>
          <site name="tip" pos=".1 0 0"/>
        </body>
      </body>
    </body>
    <body name="upper" pos="0 1 1">
      <joint name="j1" axis="1 0 0"/>
      <geom size=".05"/>
      <body name="lower" pos="0 0 -.3">
        <joint name="j2" axis="1 0 0"/>
        <geom size=".05"/>
      </body>
    </body>
    <body name="target" mocap="true" pos="1 0 1"><geom size=".05" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <deformable>
    <skin name="box" material="skinmat" rgba=".8 .2 .2 .9" inflate=".003"
          vertex="{_BOX_VERT}" face="{_BOX_FACE}">
      <bone body="upper" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2 3 4 5 6 7"
            vertweight="4 4 4 4 1 1 1 1"/>
      <bone body="lower" bindpos="0 0 -.3" bindquat="1 0 0 0" vertid="4 5 6 7"
            vertweight="3 3 3 .5"/>
    </skin>
  </deformable>
  <tendon>
    <fixed name="ten" user="8" limited="true" range="-1 1">
      <joint joint="hinge" coef="1"/><joint joint="slide" coef="-.5"/>
    </fixed>
    <spatial name="rope" springlength=".1 .3" stiffness="5" rgba="1 0 0 1">
      <site site="s0"/><site site="tip"/>
    </spatial>
  </tendon>
  <actuator>
    <general name="filt" joint="hinge" dyntype="filter" dynprm=".05" gainprm="2"
             ctrlrange="-1 1" ctrllimited="true" user="1 2"/>
    <orientation name="so3" joint="ball" kp="3" kv=".4"/>
    <motor joint="slide" gear="2"/>
    <pid name="pid" joint="j1" kp="1" ki="1" input="pos vel"/>
    <motor name="tmotor" tendon="ten"/>
  </actuator>
  <sensor>
    <jointpos name="jp" joint="hinge" user="9"/>
    <framepos name="fp" objtype="site" objname="tip"/>
    <framequat name="fq" objtype="body" objname="torso"/>
    <actuatorfrc actuator="filt"/>
    <tendonpos name="tp" tendon="rope"/>
  </sensor>
  <contact>
    <pair name="pr" geom1="tg" geom2="floor" friction="1 1 .005 .001 .001"/>
    <exclude name="ex" body1="torso" body2="hand"/>
    <exclude body1="arm" body2="hand"/>
  </contact>
  <equality>
    <joint name="eqj" joint1="j1" joint2="j2" polycoef="0 .5 0 0 0"/>
    <connect body1="target" body2="torso" anchor="0 0 0" active="false"/>
  </equality>
  <custom>
    <numeric name="num" data="1 2 3"/>
    <numeric name="four" data="4"/>
    <text name="txt" data="hello"/>
    <tuple name="tup">
      <element objtype="body" objname="torso" prm="1"/>
      <element objtype="site" objname="tip" prm="2"/>
    </tuple>
  </custom>
  <keyframe>
    <key name="home" time="1" qpos="0 0 1 1 0 0 0 1 0 0 0 0.1 0.2 .3 -.3"
         mpos="1 0 1.5" act="0.5"/>
    <key qvel="0 0 0 0 0 1 0 0 1 0 0 0 .5"/>
  </keyframe>
</mujoco>
"""

# nothing named, no actuators or custom data: unnamed views, empty accessors
PLAIN = """
<mujoco>
  <worldbody>
    <body pos="0 0 1"><joint/><geom size=".1" pos=".1 0 0"/>
      <body pos=".2 0 0"><joint type="slide"/><geom size=".1"/></body>
    </body>
  </worldbody>
</mujoco>
"""

MODELS = {"rich": RICH, "plain": PLAIN}


def _load(xml, nstep=8):
  """(mujoco model, mujoco data, our model, our data), stepped with the same controls; then our
  state is made mujoco's and both run mj_forward, so computed values agree to rounding."""
  mjm = mujoco.MjModel.from_xml_string(xml)
  mjd = mujoco.MjData(mjm)
  m = engine.MjModel.from_xml_string(xml)
  d = engine.MjData(m)
  ctrl = np.linspace(-0.8, 0.9, mjm.nu)
  for data, step, model in ((mjd, mujoco.mj_step, mjm), (d, engine.mj_step, m)):
    data.ctrl[:] = ctrl
    data.xfrc_applied[1] = [0.1, 0, 0, 0, 0.02, 0]
    data.qfrc_applied[:] = 0.01
    for _ in range(nstep):
      step(model, data)
  for name in ("qpos", "qvel", "act", "ctrl", "qacc_warmstart", "mocap_pos", "mocap_quat"):
    getattr(d, name)[...] = getattr(mjd, name)
  d.time = mjd.time
  mujoco.mj_forward(mjm, mjd)
  engine.mj_forward(m, d)
  return mjm, mjd, m, d


@pytest.fixture(scope="module", params=sorted(MODELS))
def loaded(request):
  return (request.param, *_load(MODELS[request.param]))


def _accessors(obj) -> set:
  """The names of obj's view accessors: the methods that, given 0, return a `...Views`."""
  names = set()
  for name in dir(obj):
    if name.startswith("_") or not callable(getattr(obj, name)):
      continue
    try:
      view = getattr(obj, name)(0)
    except Exception:  # noqa: BLE001 (not an accessor, or an empty one: only views count)
      continue
    if type(view).__name__.endswith("Views"):
      names.add(name)
  return names


def _attributes(view) -> set:
  return {a for a in dir(view) if not a.startswith("__") and "pybind" not in a} - {"id", "name"}


def _count(mjobj, accessor) -> int:
  """How many objects mujoco's accessor indexes (its IndexError names the last valid index)."""
  with pytest.raises(IndexError) as info:
    getattr(mjobj, accessor)(10**6)
  return int(str(info.value).rsplit(" ", 1)[1]) + 1


def test_rich_model_has_every_object_type():
  """The rich model reaches every accessor with at least one object, so no view goes untested."""
  mjm = mujoco.MjModel.from_xml_string(RICH)
  for mjobj in (mjm, mujoco.MjData(mjm)):
    for accessor in _accessors(mjobj):
      assert _count(mjobj, accessor) >= 1, accessor


def test_same_accessors():
  """Our MjModel and MjData have exactly mujoco's accessors, aliases included (mujoco 3.17 has
  no text or plugin views: neither do we)."""
  mjm = mujoco.MjModel.from_xml_string(RICH)
  m = engine.MjModel.from_xml_string(RICH)
  assert _accessors(m) == _accessors(mjm)
  assert _accessors(engine.MjData(m)) == _accessors(mujoco.MjData(mjm))
  assert {"body", "jnt", "joint", "tex", "texture", "key", "keyframe"} <= _accessors(m)
  assert {"body", "joint", "sensor", "ten", "tendon", "actuator"} <= _accessors(engine.MjData(m))


def _pairs(mjobj, ours, accessor, n):
  """(id, mujoco's view, our view by id, our view by name or None) for each object."""
  for i in range(n):
    theirs = getattr(mjobj, accessor)(i)
    mine = getattr(ours, accessor)(i)
    by_name = getattr(ours, accessor)(theirs.name) if theirs.name else None
    yield i, theirs, mine, by_name


def _compare_views(kind, mjobj, ours):
  """Every attribute of every view of every accessor of mjobj, against ours; returns how many
  (object, attribute) pairs were compared."""
  compared = 0
  for accessor in sorted(_accessors(mjobj)):
    group = CANONICAL.get(accessor, accessor)
    for i, theirs, mine, by_name in _pairs(mjobj, ours, accessor, _count(mjobj, accessor)):
      assert type(mine).__name__ == type(theirs).__name__
      assert mine.id == theirs.id == i
      assert isinstance(mine.id, int) and isinstance(mine.name, str)
      assert mine.name == theirs.name, (accessor, i)
      if by_name is not None:
        assert by_name is mine, (accessor, theirs.name)
      wanted, have = _attributes(theirs), _attributes(mine)
      unexplained = {a for a in wanted - have if (group, a) not in MISSING}
      assert not unexplained, f"{kind}.{accessor}({i}) lacks {sorted(unexplained)}"
      assert not have - wanted, f"{kind}.{accessor}({i}) has more: {sorted(have - wanted)}"
      for attr in sorted(wanted & have):
        if (group, attr) in DIFFERENT:
          continue
        x, y = getattr(theirs, attr), getattr(mine, attr)
        where = f"{kind}.{accessor}({i}).{attr}"
        assert isinstance(y, np.ndarray), where
        assert y.shape == x.shape and y.dtype == x.dtype, (where, y.shape, x.shape, y.dtype)
        if x.dtype.kind in "iub" or x.dtype == np.float32:
          np.testing.assert_array_equal(y, x, err_msg=where)
        else:  # computed by the compiler or the pipeline: to rounding
          np.testing.assert_allclose(y, x, rtol=1e-12, atol=1e-12, err_msg=where)
        compared += 1
  return compared


def test_model_views_match_mujoco(loaded):
  name, mjm, _, m, _ = loaded
  compared = _compare_views("m", mjm, m)
  assert compared >= (600 if name == "rich" else 50), compared


def test_data_views_match_mujoco(loaded):
  name, mjm, mjd, _, d = loaded
  compared = _compare_views("d", mjd, d)
  assert compared >= (250 if name == "rich" else 40), compared


def test_missing_and_different_are_current():
  """Each listed attribute is one mujoco has and ours lacks (MISSING) or has (DIFFERENT): a stale
  entry fails, so the lists stay the true account."""
  mjm = mujoco.MjModel.from_xml_string(RICH)
  m = engine.MjModel.from_xml_string(RICH)
  for (group, attr), why in MISSING.items():
    assert hasattr(getattr(mjm, group)(0), attr) and why
    assert not hasattr(getattr(m, group)(0), attr), (group, attr)
  for group, attr in DIFFERENT:
    assert hasattr(getattr(mjm, group)(0), attr) and hasattr(getattr(m, group)(0), attr)


def test_deviations():
  """What the DIFFERENT attributes share with mujoco's, and that ours are the objects' parts."""
  mjm, _, m, _ = _load(RICH, nstep=0)
  assert m.ntendon == mjm.ntendon == 2
  for t in range(m.ntendon):
    adr, nnz = m.ten_J_rowadr[t], m.ten_J_rownnz[t]
    cols = m.tendon(t).J_colind
    assert np.shares_memory(cols, m.ten_J_colind)
    np.testing.assert_array_equal(cols, mjm.ten_J_colind[adr : adr + nnz])
    np.testing.assert_array_equal(m.tendon(t)._lengthspring, mjm.tendon_lengthspring[t])
  # tendon 0: mujoco's window starts where ours does, and its one number is the row's first
  np.testing.assert_array_equal(mjm.tendon(0).J_colind[: m.ten_J_rownnz[0]], m.tendon(0).J_colind)
  assert mjm.tendon(0)._lengthspring[0] == m.tendon(0)._lengthspring[0]
  # the reasons: mujoco's windows start at id*nv, and at flat entry id
  start = mjm.tendon(1).J_colind.ctypes.data - mjm.ten_J_colind.ctypes.data
  assert start == mjm.nv * mjm.ten_J_colind.itemsize and mjm.tendon(1).J_colind.shape == (mjm.nv,)
  assert 2 * mjm.nv > mjm.nJten  # tendon 1's window ends past the compressed array
  assert mjm.tendon(1)._lengthspring.shape == (1,)
  assert mjm.tendon(1)._lengthspring[0] == mjm.tendon_lengthspring.flat[1]
  assert mjm.tendon_lengthspring.flat[1] != mjm.tendon_lengthspring[1, 0]


def _sentinel(arr):
  """New values for every entry of arr: distinct numbers, or the flipped flag for uint8."""
  if arr.dtype == np.uint8:
    return (arr == 0).astype(np.uint8)
  return (np.arange(1, arr.size + 1).reshape(arr.shape) * 3 + 17).astype(arr.dtype)


def _field_of(view, attr):
  return type(view).__dict__[attr].field


@pytest.mark.parametrize("kind", ["m", "d"])
def test_views_write_through_where_mujoco_writes(kind):
  """For every attribute of every view: writing into ours changes our field exactly where the
  same write into mujoco's view changes mujoco's field (a view, at the object's place)."""
  mjm, mjd, m, d = _load(RICH, nstep=2)
  mjobj, ours = (mjm, m) if kind == "m" else (mjd, d)
  written = 0
  for accessor in sorted(_accessors(mjobj)):
    group = CANONICAL.get(accessor, accessor)
    if accessor != group:
      continue  # the same views as the canonical accessor's
    for i in range(_count(mjobj, accessor)):
      theirs, mine = getattr(mjobj, accessor)(i), getattr(ours, accessor)(i)
      for attr in sorted(_attributes(mine)):
        if (group, attr) in DIFFERENT or attr == "moment":
          continue
        field = _field_of(mine, attr)
        ours_before = getattr(ours, field).copy()
        theirs_before = getattr(mjobj, field).copy()
        theirs_view_before = getattr(theirs, attr).copy()
        value = _sentinel(theirs_view_before)
        getattr(theirs, attr)[...] = value
        getattr(mine, attr)[...] = value
        if (group, attr) in DETACHED:  # mujoco's field keeps its values; ours takes the write
          np.testing.assert_array_equal(getattr(mjobj, field), theirs_before)
          changed = np.asarray(getattr(ours, field)) != ours_before
          assert np.count_nonzero(changed) <= value.size
          np.testing.assert_array_equal(getattr(mine, attr), value)
          assert np.shares_memory(getattr(mine, attr), getattr(ours, field))
          getattr(ours, field)[...] = ours_before
          getattr(theirs, attr)[...] = theirs_view_before
          written += 1
          continue
        np.testing.assert_array_equal(
          np.asarray(getattr(ours, field)) != ours_before,
          np.asarray(getattr(mjobj, field)) != theirs_before,
          err_msg=f"{kind}.{accessor}({i}).{attr} -> {field}",
        )
        changed = np.asarray(getattr(mjobj, field)) != theirs_before
        assert changed.any(), f"{kind}.{accessor}({i}).{attr}"
        np.testing.assert_array_equal(
          np.asarray(getattr(ours, field))[changed], np.asarray(getattr(mjobj, field))[changed]
        )
        getattr(ours, field)[...] = ours_before
        getattr(mjobj, field)[...] = theirs_before
        written += 1
  assert written >= (500 if kind == "m" else 200), written


def test_assignment_and_live_values():
  """`view.attr = x` writes in place (mujoco's setter); views follow the simulation."""
  mjm, mjd, m, d = _load(RICH, nstep=0)
  hinge = d.joint("hinge")
  adr = m.jnt_qposadr[m.joint("hinge").id]
  hinge.qpos = 0.25
  assert d.qpos[adr] == 0.25 and hinge.qpos.shape == (1,)
  d.joint("hinge").qpos[0] = 0.5
  assert d.qpos[adr] == 0.5
  root = d.joint("root")
  root.qpos[:3] = [1, 2, 3]
  np.testing.assert_array_equal(d.qpos[:3], [1, 2, 3])
  assert root.qpos.shape == (7,) and root.qvel.shape == (6,) and root.cdof.shape == (6, 6)
  assert d.joint("ball").qpos.shape == (4,) and d.joint("slide").qvel.shape == (1,)
  m.body("torso").mass = 2.5
  assert m.body_mass[m.body("torso").id] == 2.5
  m.geom("tg").rgba[3] = 0.5
  assert m.geom_rgba[m.geom("tg").id, 3] == np.float32(0.5)
  m.key("home").qpos[0] = 9
  assert m.key_qpos[0, 0] == 9
  so3 = d.actuator("so3")
  so3.ctrl = [0.1, 0.2, 0.3]
  np.testing.assert_array_equal(d.ctrl[m.actuator_ctrladr[so3.id] :][:3], [0.1, 0.2, 0.3])
  d.sensor("fp").data[1] = 4
  assert d.sensordata[m.sensor_adr[m.sensor("fp").id] + 1] == 4
  # views are live: the same arrays show the next step's values
  xpos, qvel = d.body("torso").xpos, d.joint("root").qvel
  engine.mj_step(m, d)
  np.testing.assert_array_equal(xpos, d.xpos[1])
  np.testing.assert_array_equal(qvel, d.qvel[:6])
  assert d.body("torso").xpos is xpos


def test_model_batch_worlds_have_their_own_views():
  """A ModelBatch world's views show its own row of a per-world field, the shared arrays
  otherwise; the shared model's views are not the world's."""
  m = engine.MjModel.from_xml_string(PLAIN)
  batch = engine.ModelBatch(m, 2, ["body_mass"])
  batch.body_mass[1, 1] = 7.0
  assert m.body(1).mass[0] != 7.0 and batch[0].body(1).mass[0] != 7.0
  assert batch[1].body(1).mass[0] == 7.0
  batch[1].body(1).mass = 8.0
  assert batch.body_mass[1, 1] == 8.0 and np.shares_memory(batch[1].body(1).mass, batch.body_mass)
  assert batch[1].geom(0).size is not m.geom(0).size
  assert np.shares_memory(batch[1].geom(0).size, m.geom_size)


def test_actuator_moment_is_a_dense_read_only_copy():
  """`d.actuator(i).moment`: the dense moment rows (one per output), recomputed at each read and
  read-only, as mujoco's; writing raises as in mujoco."""
  mjm, mjd, m, d = _load(RICH)
  for i in range(m.nactuator):
    ours, theirs = d.actuator(i).moment, mjd.actuator(i).moment
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    assert not ours.flags.writeable and not theirs.flags.writeable
    e = _error(lambda: setattr(mjd.actuator(i), "moment", 0))
    mine = _error(lambda: setattr(d.actuator(i), "moment", 0))
    assert type(e) is type(mine) is AttributeError and str(e) == str(mine)
    with pytest.raises(ValueError):
      d.actuator(i).moment[0] = 1
  assert d.actuator("so3").moment.shape == (3, m.nv)
  before = d.actuator("filt").moment
  d.qpos[:] = mjd.qpos + 0.1
  engine.mj_forward(m, d)
  assert not np.shares_memory(before, d.actuator_moment)


def test_ids_names_and_caching(loaded):
  _, mjm, mjd, m, d = loaded
  for i in range(m.nbody):
    assert m.body(i) is m.body(np.int64(i)) is m.body(np.int32(i))
    name = mujoco.mj_id2name(mjm, mujoco.mjtObj.mjOBJ_BODY, i)
    if name:
      assert m.body(name) is m.body(i) and d.body(name) is d.body(i)
      assert m.body(name=name).id == i
  assert m.jnt(0) is m.joint(0) and d.jnt(0) is d.joint(0)
  assert m.body(True) is m.body(1)
  assert m.body(0).name == mjm.body(0).name == "world"


def _error(call):
  try:
    call()
  except Exception as e:  # noqa: BLE001 (the exception is what is compared)
    return e
  raise AssertionError("no exception")


@pytest.mark.parametrize("kind", ["m", "d"])
def test_errors_match_mujoco(loaded, kind):
  """Unknown names: KeyError listing the valid names; ids out of range (negative too):
  IndexError; neither a name nor an int: TypeError; messages as mujoco's."""
  _, mjm, mjd, m, d = loaded
  mjobj, ours = (mjm, m) if kind == "m" else (mjd, d)
  for accessor in sorted(_accessors(mjobj)):
    n = _count(mjobj, accessor)
    for key in ("nosuchname", "", n, n + 5, -1, -n - 1):
      theirs = _error(lambda: getattr(mjobj, accessor)(key))
      mine = _error(lambda: getattr(ours, accessor)(key))
      assert type(mine) is type(theirs), (accessor, key, theirs, mine)
      assert str(mine) == str(theirs), (accessor, key)
    for key in (1.0, None, [0]):
      assert isinstance(_error(lambda: getattr(mjobj, accessor)(key)), TypeError)
      assert isinstance(_error(lambda: getattr(ours, accessor)(key)), TypeError)
    theirs, mine = _error(getattr(mjobj, accessor)), _error(getattr(ours, accessor))
    assert type(mine) is type(theirs) is KeyError and str(mine) == str(theirs)  # the name ''


def test_view_attributes_cannot_be_replaced_or_invented():
  mjm, mjd, m, d = _load(PLAIN, nstep=0)
  for mjview, view in ((mjm.body(1), m.body(1)), (mjd.joint(0), d.joint(0))):
    for attr in ("id", "name", "nosuchfield"):
      e, mine = _error(lambda: setattr(mjview, attr, 1)), _error(lambda: setattr(view, attr, 1))
      assert type(e) is type(mine) is AttributeError
    assert type(_error(lambda: view.nosuchfield)) is AttributeError


def test_repr_matches_mujoco():
  """The repr lists `name: value` of id, name and the attributes (no leading underscore), as
  mujoco's; model views print identically."""
  mjm, mjd, m, d = _load(RICH, nstep=0)
  for accessor in ("body", "jnt", "geom", "actuator", "sensor", "key", "mat", "numeric", "tuple"):
    for i in range(_count(mjm, accessor)):
      assert repr(getattr(m, accessor)(i)) == repr(getattr(mjm, accessor)(i)), (accessor, i)
  for accessor in ("body", "jnt", "sensor", "tendon"):
    ours, theirs = repr(getattr(d, accessor)(0)), repr(getattr(mjd, accessor)(0))
    assert ours.splitlines()[0] == theirs.splitlines()[0]
    keys = [line.split(":")[0] for line in ours.splitlines() if line[:3].strip() and ": " in line]
    assert keys == [line.split(":")[0] for line in theirs.splitlines() if ": " in line]
  tendon = repr(m.tendon(0))
  assert "_range" not in tendon and "J_rownnz" in tendon  # mujoco's shows no _ attributes
