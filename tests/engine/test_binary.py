"""Saved models (engine/binary.py): exact round trip, clear errors for foreign or broken bytes,
and the Physics constructors dm_control has (from_byte_string, from_binary_path)."""

import mujoco
import numpy as np
import pytest

import engine
from engine import binary
from suite import common


def _same_model(a, b):
  sa, sb = a.__getstate__(), b.__getstate__()
  assert sa["sizes"] == sb["sizes"]
  for name, value in sa["arrays"].items():
    if isinstance(value, bytes):
      assert value == sb["arrays"][name], name
    else:
      np.testing.assert_array_equal(value, sb["arrays"][name], err_msg=name)
      assert value.dtype == sb["arrays"][name].dtype, name
  for name in sa["opt"]:
    np.testing.assert_array_equal(sa["opt"][name], sb["opt"][name], err_msg=name)
  assert a.vis._dict() == b.vis._dict()


@pytest.mark.parametrize("name", ["cartpole.xml", "dog.xml"])
def test_saved_model_round_trips_exactly(name, tmp_path):
  m = engine.MjModel.from_xml_string(common.read_model(name), common.ASSETS)
  path = tmp_path / "model.bin"
  engine.mj_saveModel(m, str(path))
  loaded = engine.mj_loadModel(path)
  _same_model(m, loaded)
  # same simulation, bit for bit
  d1, d2 = engine.MjData(m), engine.MjData(loaded)
  for d in (d1, d2):
    d.ctrl[:] = 0.3
  for _ in range(10):
    engine.mj_step(m, d1)
    engine.mj_step(loaded, d2)
  np.testing.assert_array_equal(d1.qpos, d2.qpos)
  # into a buffer of mj_sizeModel bytes
  buf = np.zeros(engine.mj_sizeModel(m), np.uint8)
  engine.mj_saveModel(m, None, buf)
  _same_model(m, binary.model_from_bytes(buf.tobytes()))
  with pytest.raises(ValueError, match="mj_sizeModel"):
    engine.mj_saveModel(m, None, np.zeros(10, np.uint8))


def test_physics_from_byte_string_and_binary_path(tmp_path):
  xml = common.read_model("cartpole.xml")
  m = engine.MjModel.from_xml_string(xml, common.ASSETS)
  data = binary.model_to_bytes(m)
  physics = engine.Physics.from_byte_string(data)
  _same_model(m, physics.model.ptr)
  path = tmp_path / "cartpole.bin"
  path.write_bytes(data)
  physics = engine.Physics.from_binary_path(str(path))
  assert physics.model.nq == m.nq
  physics.step(3)


def test_foreign_and_broken_bytes_raise_clear_errors(tmp_path):
  mjm = mujoco.MjModel.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
  path = tmp_path / "m.mjb"
  mujoco.mj_saveModel(mjm, str(path), None)
  with pytest.raises(engine.Error, match="MuJoCo MJB file"):
    engine.Physics.from_binary_path(str(path))
  with pytest.raises(engine.Error, match="unknown header"):
    binary.model_from_bytes(b"<mujoco/>")
  good = binary.model_to_bytes(
    engine.MjModel.from_xml_string("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>")
  )
  with pytest.raises(engine.Error, match="corrupt"):
    binary.model_from_bytes(good[: len(good) // 2])


def test_model_wrapper_to_bytes_and_save_binary(tmp_path):
  physics = engine.Physics.from_xml_string(common.read_model("cartpole.xml"), common.ASSETS)
  again = engine.Physics.from_byte_string(physics.model.to_bytes())
  _same_model(physics.model.ptr, again.model.ptr)
  path = tmp_path / "cartpole.bin"
  physics.model.save_binary(str(path))
  _same_model(physics.model.ptr, engine.Physics.from_binary_path(str(path)).model.ptr)
