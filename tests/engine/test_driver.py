"""engine/driver.py: the Python API's entry into numba checks its arguments and reports warnings.

The entry takes the handles as addresses, so a data of another model would index out of
bounds inside the kernels: it must raise instead. Warnings are reported at the user's line.
"""

import warnings

import mujoco
import numpy as np
import pytest

import engine

_ONE_HINGE = """<mujoco><worldbody><body><joint/><geom size=".1"/></body></worldbody></mujoco>"""
_TWO_BODIES = """<mujoco><worldbody><body><freejoint/><geom size=".1"/></body>
  <body pos="1 0 0"><joint type="ball"/><geom size=".1"/></body></worldbody></mujoco>"""


@pytest.mark.parametrize(
  "call",
  [
    lambda m, d: engine.mj_step(m, d),
    lambda m, d: engine.mj_step(m, d, 5),
    lambda m, d: engine.mj_forward(m, d),
    lambda m, d: engine.mj_inverse(m, d),
    lambda m, d: engine.mj_step1(m, d),
  ],
)
def test_data_of_another_model_raises(call):
  small = engine.MjModel.from_xml_string(_ONE_HINGE)
  big = engine.MjModel.from_xml_string(_TWO_BODIES)
  d = engine.MjData(big)
  d.qvel[:] = 0.3
  before = d.qvel.copy()
  with pytest.raises(ValueError, match="does not belong to this MjModel"):
    call(small, d)
  np.testing.assert_array_equal(d.qvel, before)  # nothing ran


def test_warnings_are_reported_at_the_callers_line():
  m = engine.MjModel.from_xml_string(_ONE_HINGE)
  d = engine.MjData(m)
  d.qpos[0] = np.nan
  with pytest.warns(engine.PhysicsWarning, match="mjWARN_BADQPOS") as record:
    engine.mj_step(m, d)
  assert record[0].filename == __file__
  d.qvel[0] = np.inf
  with pytest.warns(engine.PhysicsWarning, match="mjWARN_BADQVEL") as record:
    engine.mj_step1(m, d)
  assert record[0].filename == __file__
  # the reset on the bad velocity cleared the earlier count, as in MuJoCo
  number = d.warning.number
  assert number[engine.mjtWarning.mjWARN_BADQPOS] == 0
  assert number[engine.mjtWarning.mjWARN_BADQVEL] == 1


def test_only_warnings_that_fired_are_reported_and_counts_match_mujoco():
  """A call reports the kinds that fired in it, not older counts (nor counts a reset cleared);
  the counts left in d.warning are MuJoCo's after the same calls."""
  mjm = mujoco.MjModel.from_xml_string(_ONE_HINGE)
  mjd = mujoco.MjData(mjm)
  m = engine.MjModel.from_xml_string(_ONE_HINGE)
  d = engine.MjData(m)
  sequence = [
    ("qpos", np.nan, "mjWARN_BADQPOS"),
    (None, None, None),
    ("qvel", np.inf, "mjWARN_BADQVEL"),
    (None, None, None),
  ]
  for field, value, expected in sequence:
    if field:
      getattr(mjd, field)[0] = value
      getattr(d, field)[0] = value
    mujoco.mj_step(mjm, mjd)
    with warnings.catch_warnings(record=True) as record:
      warnings.simplefilter("always")
      engine.mj_step(m, d)
    reported = [
      str(w.message).split(":")[0] for w in record if issubclass(w.category, engine.PhysicsWarning)
    ]
    assert reported == ([expected] if expected else []), (field, reported)
    np.testing.assert_array_equal(d.warning.number, [w.number for w in mjd.warning])


_MOTOR = """<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>
  <actuator><motor joint="j"/></actuator></mujoco>"""


def test_a_warning_firing_on_every_call_is_reported_the_first_time_as_mujoco_prints_it():
  """mj_warning prints only when the count was zero: a bad control on every step is reported
  once, counted every time (as MuJoCo's counts), and reported again once the counts are reset."""
  mjm = mujoco.MjModel.from_xml_string(_MOTOR)
  mjd = mujoco.MjData(mjm)
  m = engine.MjModel.from_xml_string(_MOTOR)
  d = engine.MjData(m)
  bad_ctrl = engine.mjtWarning.mjWARN_BADCTRL
  for reset in (False, True):
    if reset:
      mujoco.mj_resetData(mjm, mjd)
      engine.mj_resetData(m, d)
    with warnings.catch_warnings(record=True) as record:
      warnings.simplefilter("always")
      for _ in range(3):
        mjd.ctrl[0] = d.ctrl[0] = np.nan
        mujoco.mj_step(mjm, mjd)
        engine.mj_step(m, d)
    reported = [str(w.message) for w in record if issubclass(w.category, engine.PhysicsWarning)]
    assert len(reported) == 1 and reported[0].startswith("mjWARN_BADCTRL"), reported
    assert d.warning.number[bad_ctrl] == mjd.warning[bad_ctrl].number == 3
