"""A sensor plugin written in Python: a low-pass-filtered accelerometer with state.

The plugin reads another sensor (a built-in accelerometer, named in its config), keeps a
first-order filter of it in d.plugin_state, and reports the filtered value. Its callbacks are
plain numba-compatible functions; engine.plugin compiles them once into the step.

  python examples/plugin_sensor.py [--tau 0.05] [--seconds 2]
"""

import argparse

import numpy as np

import engine
import engine.plugin as plugin

XML = """
<mujoco>
  <option timestep="0.002"/>
  <extension>
    <plugin plugin="example.lowpass">
      <instance name="smooth"><config key="source" value="raw"/>
        <config key="tau" value="{tau}"/></instance>
    </plugin>
  </extension>
  <worldbody>
    <body name="arm"><joint type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" fromto="0 0 0 .4 0 0" size=".02"/>
      <site name="tip" pos=".4 0 0"/></body>
  </worldbody>
  <sensor>
    <accelerometer name="raw" site="tip"/>
    <plugin name="filtered" instance="smooth"/>
  </sensor>
</mujoco>
"""


def init(m, instance):
  """Parameters: the time constant, the source sensor's address, this sensor's address."""
  config = plugin.plugin_config(m, instance)
  source = engine.mj_name2id(m, engine.mjOBJ_SENSOR, config["source"])
  if source < 0:
    raise ValueError(f"example.lowpass: no sensor named {config['source']!r}")
  own = int(np.flatnonzero(np.asarray(m.sensor_plugin) == instance)[0])
  return np.array([float(config["tau"]), m.sensor_adr[source], m.sensor_adr[own]])


def compute(m, d, instance, capability):
  """The filtered value (after the built-in acceleration sensors of this stage)."""
  p, s = m.plugin_paramadr[instance], m.plugin_stateadr[instance]
  out = int(m.plugin_param[p + 2])
  for k in range(3):
    d.sensordata[out + k] = d.plugin_state[s + k]


def advance(m, d, instance):
  """One filter step toward the raw reading: x += h / tau * (raw - x)."""
  p, s = m.plugin_paramadr[instance], m.plugin_stateadr[instance]
  a = m.opt.timestep[0] / max(m.plugin_param[p], m.opt.timestep[0])
  raw = int(m.plugin_param[p + 1])
  for k in range(3):
    d.plugin_state[s + k] += a * (d.sensordata[raw + k] - d.plugin_state[s + k])


def register():
  return plugin.register_plugin(
    "example.lowpass",
    plugin.mjPLUGIN_SENSOR,
    ("source", "tau"),
    nstate=3,
    nsensordata=3,
    init=init,
    compute=compute,
    advance=advance,
  )


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--tau", type=float, default=0.05)
  parser.add_argument("--seconds", type=float, default=2.0)
  args = parser.parse_args(argv)
  register()
  m = engine.MjModel.from_xml_string(XML.format(tau=args.tau))
  d = engine.MjData(m)
  d.qpos[0] = 1.0
  raw, filtered = [], []
  for _ in range(int(args.seconds / m.opt.timestep)):
    engine.mj_step(m, d)
    raw.append(d.sensordata[0:3].copy())
    filtered.append(d.sensordata[3:6].copy())
  raw, filtered = np.array(raw), np.array(filtered)
  print(
    f"{len(raw)} steps; tip acceleration (x, y, z), last step: raw "
    f"{np.array2string(raw[-1], precision=3)}, filtered (tau {args.tau:g} s) "
    f"{np.array2string(filtered[-1], precision=3)}"
  )
  return raw, filtered


if __name__ == "__main__":
  main()
