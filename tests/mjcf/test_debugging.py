"""Debug mode: where elements and attributes were set, added to compile errors."""

import os
import subprocess
import sys

import pytest

import engine
import mjcf
from mjcf import debugging


@pytest.fixture
def debug_mode():
  debugging.enable_debug_mode()
  yield
  debugging.disable_debug_mode()


def test_debug_mode_from_environment():
  code = "import mjcf; print(mjcf.debugging.debug_mode())"
  root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
  env = dict(os.environ, NUMJOCO_MJCF_DEBUG="1", PYTHONPATH=root)
  out = subprocess.run(
    [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=root
  )
  assert out.stdout.strip() == "True"
  env["NUMJOCO_MJCF_DEBUG"] = "0"
  out = subprocess.run(
    [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=root
  )
  assert out.stdout.strip() == "False"


def test_stacks_are_recorded_in_debug_mode(debug_mode):  # pylint: disable=redefined-outer-name,unused-argument
  model = mjcf.RootElement()
  geom = model.worldbody.add("geom", name="g", size=[1])  # created here
  created_line = sys._getframe().f_lineno - 1
  geom.rgba = [1, 0, 0, 1]
  set_line = sys._getframe().f_lineno - 1
  stack = geom.get_init_stack()
  assert stack[-1].filename == __file__ and stack[-1].lineno == created_line
  stacks = geom.get_last_modified_stacks_for_all_attributes()
  assert stacks["rgba"][-1].lineno == set_line
  assert stacks["size"][-1].lineno == created_line
  assert stacks["pos"] is None


def test_nothing_is_recorded_by_default():
  model = mjcf.RootElement()
  geom = model.worldbody.add("geom", size=[1])
  assert geom.get_init_stack() is None
  assert geom.get_last_modified_stacks_for_all_attributes()["size"] is None


def test_compile_errors_name_the_python_line(debug_mode):  # pylint: disable=redefined-outer-name,unused-argument
  model = mjcf.RootElement()
  model.worldbody.add("geom", name="fine", size=[1])
  body = model.worldbody.add("body", name="b")
  bad = body.add("geom", name="bad", type="box")  # the line to report
  created_line = sys._getframe().f_lineno - 1
  bad.size = [0.1, -0.2, 0.3]
  set_line = sys._getframe().f_lineno - 1
  with pytest.raises(engine.CompileError) as info:
    mjcf.Physics.from_mjcf_model(model)
  message = str(info.value)
  assert f"{__file__}:{created_line}" in message
  assert f"attribute 'size' was last set at {__file__}:{set_line}" in message
  assert '<geom name="bad"' in message


def test_compile_errors_are_unchanged_without_debug_mode():
  model = mjcf.RootElement()
  body = model.worldbody.add("body", name="b")
  body.add("geom", name="bad", type="box", size=[0.1, -0.2, 0.3])
  with pytest.raises(engine.CompileError) as info:
    mjcf.Physics.from_mjcf_model(model)
  assert __file__ not in str(info.value)


def test_compile_errors_show_the_generated_xml_line():
  model = mjcf.RootElement()
  body = model.worldbody.add("body", name="b")
  body.add("geom", name="bad", type="box", size=[0.1, -0.2, 0.3])
  with pytest.raises(engine.CompileError) as info:
    mjcf.Physics.from_mjcf_model(model)
  message = str(info.value)
  # as dm_control's message: the offending line of the generated XML, and how to learn more
  assert '<geom name="bad"' in message and "enable_debug_mode" in message
  assert info.value.line is not None


def test_full_debug_dump(debug_mode, tmp_path):  # pylint: disable=redefined-outer-name,unused-argument
  model = mjcf.RootElement()
  bad = model.worldbody.add("geom", name="bad", type="box", size=[1, 1, 1])
  bad.size = [0.1, -0.2, 0.3]
  set_line = sys._getframe().f_lineno - 1
  debugging.set_full_dump_dir(str(tmp_path))
  try:
    with pytest.raises(engine.CompileError):
      mjcf.Physics.from_mjcf_model(model)
  finally:
    debugging.set_full_dump_dir("")
  assert debugging.get_full_dump_dir() == ""
  assert '<geom name="bad"' in (tmp_path / "model.xml").read_text()
  dumps = [p.read_text() for p in tmp_path.glob("*.dump")]
  assert any(f"{__file__}:{set_line}" in d and 'size="0.1 -0.2 0.3"' in d for d in dumps)
  frame = bad.get_last_modified_stacks_for_all_attributes()["size"][-1]
  # dm_control's StackTraceEntry field names
  assert frame.line_number == set_line and frame.function_name == "test_full_debug_dump"
  assert frame.text == "bad.size = [0.1, -0.2, 0.3]"
  assert mjcf.PREFIX_SEPARATOR == "/"
