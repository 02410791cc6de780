"""The plugin examples run and do what they say (analytic checks)."""

import numpy as np
import pytest

from examples import plugin_actuator
from examples import plugin_sensor


def test_dc_motor_plugin_reaches_the_analytic_steady_state():
  speed, expected = plugin_actuator.main(["--seconds", "2"])
  assert speed == pytest.approx(expected, rel=1e-6)


def test_lowpass_sensor_plugin_smooths_its_source():
  raw, filtered = plugin_sensor.main(["--seconds", "1", "--tau", "0.05"])
  # the state follows x += h/tau (raw - x), reported one step later
  a = 0.002 / 0.05
  x = np.zeros(3)
  for k in range(len(raw) - 1):
    x += a * (raw[k] - x)
    np.testing.assert_allclose(filtered[k + 1], x, rtol=0, atol=1e-9)
  # it follows its source: after the first tau's transient, within the swing's range
  assert np.abs(filtered[100:] - raw[100:]).max() < np.ptp(raw[100:])


def test_sdf_gears_turn_each_other():
  from examples import sdf_gears

  drive, driven = sdf_gears.main(["--seconds", "1", "--every", "0.5"])
  assert drive > 1.0  # the servo turned the drive gear
  assert driven / drive == pytest.approx(-1.0, abs=0.05)  # equal gears: opposite, same angle
