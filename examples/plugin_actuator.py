"""An actuator plugin written in Python: a DC motor with its current as activation state.

The control is the voltage V; the plugin integrates the current i through the activation
(act_dot: L di/dt = V - R i - K w, w the joint speed) and applies the torque K i. A motor
spinning a damped wheel settles at w = K V / (R b + K^2), which the script checks.

  python examples/plugin_actuator.py [--volts 12] [--seconds 3]
"""

import argparse

import numpy as np

import engine
import engine.plugin as plugin

R, K, L, B = 2.0, 0.5, 0.01, 0.1  # ohm, N m / A (= V s), henry, wheel damping N m s

XML = f"""
<mujoco>
  <option timestep="0.001"/>
  <extension><plugin plugin="example.dcmotor"/></extension>
  <worldbody>
    <body name="wheel"><joint name="axle" type="hinge" axis="0 0 1" damping="{B}"/>
      <geom type="cylinder" size=".1 .02" mass="1"/></body>
  </worldbody>
  <actuator>
    <plugin name="motor" joint="axle" plugin="example.dcmotor" actdim="1">
      <config key="resistance" value="{R}"/><config key="constant" value="{K}"/>
      <config key="inductance" value="{L}"/>
    </plugin>
  </actuator>
</mujoco>
"""


def init(m, instance):
  config = plugin.plugin_config(m, instance)
  actuator = int(np.flatnonzero(np.asarray(m.actuator_plugin) == instance)[0])
  return np.array([float(config[k]) for k in ("resistance", "constant", "inductance")] + [actuator])


def act_dot(m, d, instance):
  """di/dt = (V - R i - K w) / L."""
  p = m.plugin_paramadr[instance]
  r, k, ind = m.plugin_param[p], m.plugin_param[p + 1], m.plugin_param[p + 2]
  a = int(m.plugin_param[p + 3])
  adr = m.actuator_actadr[a]
  current = d.act[adr]
  d.act_dot[adr] = (d.ctrl[a] - r * current - k * d.actuator_velocity[a]) / ind


def compute(m, d, instance, capability):
  """Torque K i."""
  p = m.plugin_paramadr[instance]
  a = int(m.plugin_param[p + 3])
  d.actuator_force[a] = m.plugin_param[p + 1] * d.act[m.actuator_actadr[a]]


def register():
  return plugin.register_plugin(
    "example.dcmotor",
    plugin.mjPLUGIN_ACTUATOR,
    ("resistance", "constant", "inductance"),
    actdim=1,
    init=init,
    act_dot=act_dot,
    compute=compute,
  )


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--volts", type=float, default=12.0)
  parser.add_argument("--seconds", type=float, default=3.0)
  args = parser.parse_args(argv)
  register()
  m = engine.MjModel.from_xml_string(XML)
  d = engine.MjData(m)
  d.ctrl[0] = args.volts
  engine.mj_step(m, d, int(args.seconds / m.opt.timestep))
  expected = K * args.volts / (R * B + K * K)
  print(
    f"after {d.time:.2f} s: speed {d.qvel[0]:.4f} rad/s (steady state {expected:.4f}), "
    f"current {d.act[0]:.4f} A (steady state {B * expected / K:.4f})"
  )
  return d.qvel[0], expected


if __name__ == "__main__":
  main()
