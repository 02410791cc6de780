"""A cable clamped at one end, swinging down under gravity.

The cable is MuJoCo's <composite type="cable">: the compiler expands it into a chain of capsule
bodies joined by ball joints, and the `mujoco.elasticity.cable` plugin adds the bending and
twisting torques of an elastic rod (twist: shear modulus, bend: Young's modulus, in Pa). The
first body has no joint (initial="none"), so the cable is clamped to the world there; it starts
horizontal and swings down, its stiffness keeping it from hanging straight. Prints the tip
position (site S_last) over time, and with --mujoco the same from the mujoco package.

  python examples/cable.py [--seconds 2] [--every 0.1] [--bend 1e6] [--count 21] [--mujoco]
"""

import argparse
import time

import engine

MODEL = """<mujoco model="clamped cable">
  <extension>
    <plugin plugin="mujoco.elasticity.cable"/>
  </extension>
  <option timestep="0.002"/>
  <worldbody>
    <light pos="0 0 3"/>
    <geom type="plane" size="2 2 .1" pos="0 0 -1"/>
    <composite type="cable" curve="s" count="{count} 1 1" size="1" offset="0 0 0.5"
               initial="none">
      <plugin plugin="mujoco.elasticity.cable">
        <config key="twist" value="{twist}"/>
        <config key="bend" value="{bend}"/>
      </plugin>
      <joint kind="main" damping="0.01"/>
      <geom type="capsule" size=".01" rgba=".8 .2 .1 1" density="1000"/>
    </composite>
  </worldbody>
</mujoco>
"""


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--seconds", type=float, default=2.0)
  parser.add_argument("--every", type=float, default=0.1, help="print interval (s)")
  parser.add_argument("--count", type=int, default=21, help="vertices (bodies + 1)")
  parser.add_argument("--bend", type=float, default=1e6, help="Young's modulus (Pa)")
  parser.add_argument("--twist", type=float, default=1e5, help="shear modulus (Pa)")
  parser.add_argument("--mujoco", action="store_true", help="also run the mujoco package")
  args = parser.parse_args()

  xml = MODEL.format(count=args.count, bend=args.bend, twist=args.twist)
  t0 = time.perf_counter()
  m = engine.MjModel.from_xml_string(xml)
  d = engine.MjData(m)
  tip = engine.mj_name2id(m, engine.mjtObj.mjOBJ_SITE, "S_last")
  print(
    f"{m.nbody - 1} bodies, {m.njnt} ball joints, nv={m.nv}; "
    f"loaded in {time.perf_counter() - t0:.2f} s"
  )

  if args.mujoco:
    import mujoco  # the reference, only when asked for

    mm = mujoco.MjModel.from_xml_string(xml)
    md = mujoco.MjData(mm)

  every = max(1, round(args.every / m.opt.timestep))
  nstep = round(args.seconds / m.opt.timestep)
  header = "   time   tip x    tip y    tip z"
  print(header + ("   |mujoco - ours|" if args.mujoco else ""))
  t0 = time.perf_counter()
  for k in range(0, nstep + 1, every):
    engine.mj_forward(m, d)  # site positions of the current state (mj_step leaves the last's)
    x, y, z = d.site_xpos[tip]
    line = f"{d.time:7.3f} {x:8.4f} {y:8.4f} {z:8.4f}"
    if args.mujoco:
      mujoco.mj_forward(mm, md)
      line += f"   {abs(md.site_xpos[tip] - d.site_xpos[tip]).max():.1e}"
    print(line)
    if k < nstep:
      engine.mj_step(m, d, every)
      if args.mujoco:
        mujoco.mj_step(mm, md, every)
  print(f"{nstep} steps in {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
  main()
