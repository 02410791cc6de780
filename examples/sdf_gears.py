"""Two meshing gears whose shapes are signed distance fields.

Each gear is a `<geom type="sdf">` of MuJoCo's `mujoco.sdf.gear` plugin (20 teeth, 10 cm pitch
diameter): the compiler meshes the field with marching cubes (for drawing, mass and inertia)
and the contacts come from the field itself (MuJoCo's mjc_SDF: gradient descent on the two
gears' distance functions from Halton-sequence starting points). A velocity servo drives the
left gear; the right one turns only through the teeth, the other way at the same speed.
Prints both angles over time, and with --mujoco the same from the mujoco package.

The bodies' centres of mass sit 5 mm off their axles (gravity is off, so this adds no torque):
MuJoCo scales a contact's softness by the bodies' translational mobility at their centres of
mass, which is zero for a rotor balanced on its hinge; its contacts would then be rigid to
rounding and the teeth would rattle apart instead of rolling on each other.

  python examples/sdf_gears.py [--seconds 2] [--every 0.25] [--speed 2] [--mujoco]
"""

import argparse
import time

import engine

MODEL = """<mujoco model="sdf gears">
  <option timestep="0.002" gravity="0 0 0"/>
  <extension>
    <plugin plugin="mujoco.sdf.gear">
      <instance name="drive">
        <config key="diameter" value="0.1"/>
        <config key="teeth" value="20"/>
        <config key="thickness" value="0.02"/>
        <config key="innerdiameter" value="0.01"/>
      </instance>
      <instance name="driven">
        <config key="diameter" value="0.1"/>
        <config key="teeth" value="20"/>
        <config key="thickness" value="0.02"/>
        <config key="innerdiameter" value="0.01"/>
      </instance>
    </plugin>
  </extension>
  <asset>
    <mesh name="drive"><plugin instance="drive"/></mesh>
    <mesh name="driven"><plugin instance="driven"/></mesh>
  </asset>
  <worldbody>
    <light pos="0 0 1"/>
    <body name="drive">
      <joint name="drive" axis="0 0 1" damping="1e-4"/>
      <inertial pos=".005 0 0" mass=".16" diaginertia="1e-4 1e-4 2e-4"/>
      <geom type="sdf" mesh="drive" rgba=".8 .3 .2 1"><plugin instance="drive"/></geom>
    </body>
    <body name="driven" pos=".103 0 0">
      <joint name="driven" axis="0 0 1" damping="1e-4"/>
      <inertial pos=".005 0 0" mass=".16" diaginertia="1e-4 1e-4 2e-4"/>
      <geom type="sdf" mesh="driven" rgba=".2 .5 .8 1"><plugin instance="driven"/></geom>
    </body>
  </worldbody>
  <actuator>
    <velocity joint="drive" kv="0.05" ctrlrange="-5 5"/>
  </actuator>
</mujoco>
"""


def main(argv=None):
  """Runs the gears; returns the final (drive, driven) angles."""
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--seconds", type=float, default=2.0)
  parser.add_argument("--every", type=float, default=0.25, help="print interval (s)")
  parser.add_argument("--speed", type=float, default=2.0, help="drive speed (rad/s)")
  parser.add_argument("--mujoco", action="store_true", help="also run the mujoco package")
  args = parser.parse_args(argv)

  t0 = time.perf_counter()
  m = engine.MjModel.from_xml_string(MODEL)
  d = engine.MjData(m)
  print(
    f"gear meshes: {m.mesh_vertnum.tolist()} vertices; loaded in {time.perf_counter() - t0:.2f} s"
  )
  d.ctrl[0] = args.speed
  if args.mujoco:
    import mujoco  # the reference, only when asked for

    mm = mujoco.MjModel.from_xml_string(MODEL)
    md = mujoco.MjData(mm)
    md.ctrl[0] = args.speed

  steps = round(args.every / m.opt.timestep)
  print("   time   drive  driven" + ("   mujoco: drive  driven" if args.mujoco else ""))
  t0 = time.perf_counter()
  for _ in range(round(args.seconds / args.every)):
    engine.mj_step(m, d, steps)
    line = f"{d.time:7.2f} {d.qpos[0]:7.3f} {d.qpos[1]:7.3f}"
    if args.mujoco:
      mujoco.mj_step(mm, md, steps)
      line += f"           {md.qpos[0]:7.3f} {md.qpos[1]:7.3f}"
    print(line)
  elapsed = time.perf_counter() - t0
  print(
    f"{d.time / elapsed:.1f}x real time ({elapsed / (d.time / m.opt.timestep) * 1e3:.2f} ms "
    f"per step, {d.ncon} contacts now)"
  )
  return float(d.qpos[0]), float(d.qpos[1])


if __name__ == "__main__":
  main()
