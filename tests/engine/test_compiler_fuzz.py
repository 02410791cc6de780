"""Random MJCF models compiled by MuJoCo and by us: identical arrays, or both reject the model.

Also a compile-time budget for a typical 30-body model.
"""

import time

import mujoco
import numpy as np
import pytest

from engine.compiler import compile_model
from engine.errors import CompileError
from tests.engine.test_compiler import compare

ORIENT = ("quat", "euler", "axisangle", "xyaxes", "zaxis")


def _fmt(v):
  return " ".join(f"{x:.5g}" for x in np.ravel(v))


def _orient(rng):
  if rng.random() < 0.3:
    return ""
  kind = ORIENT[int(rng.integers(0, len(ORIENT)))]
  if kind == "quat":
    return f' quat="{_fmt(rng.normal(size=4))}"'
  if kind == "euler":
    return f' euler="{_fmt(rng.uniform(-90, 90, 3))}"'
  if kind == "axisangle":
    return f' axisangle="{_fmt(rng.normal(size=3))} {rng.uniform(-180, 180):.4g}"'
  if kind == "xyaxes":
    return f' xyaxes="{_fmt(rng.normal(size=6))}"'
  return f' zaxis="{_fmt(rng.normal(size=3))}"'


def random_model(seed, nbody=12):
  """A random model with joints, geoms, sites, inertials, actuators, tendons, sensors, keys."""
  rng = np.random.default_rng(seed)
  lines = [
    "<mujoco>",
    f'  <compiler angle="{"degree" if rng.random() < 0.5 else "radian"}"'
    f' eulerseq="{rng.choice(["xyz", "zyx", "XYZ", "zxy"])}"'
    f' inertiafromgeom="{rng.choice(["auto", "true", "auto"])}"/>',
    '  <default><geom rgba="0.5 0.5 0.5 1"/><default class="c"><joint damping="0.1"/>'
    f'<geom friction="{rng.uniform(0.2, 1):.3g}" density="{rng.uniform(200, 2000):.4g}"/>'
    "</default></default>",
    "  <worldbody>",
    '    <geom type="plane" size="5 5 0.1"/>',
  ]
  joints, sites, bodies, hinges, balls = [], [], [], [], []
  parents = [int(rng.integers(0, b)) for b in range(1, nbody + 1)]
  children = {b: [] for b in range(nbody + 1)}
  for b, p in enumerate(parents, 1):
    children[p].append(b)

  def body(b, depth):
    pad = "    " * depth
    cls = ' childclass="c"' if rng.random() < 0.3 else ""
    out = [f'{pad}<body name="b{b}" pos="{_fmt(rng.uniform(-0.3, 0.3, 3))}"{_orient(rng)}{cls}>']
    bodies.append(f"b{b}")
    if parents[b - 1] == 0 and rng.random() < 0.3:
      out.append(f'{pad}  <freejoint name="j{b}"/>')
      joints.append(f"j{b}")
    else:
      for k in range(int(rng.integers(0, 3))):
        jtype = str(rng.choice(["hinge", "slide", "ball", "hinge"]))
        if jtype == "ball" and k > 0:
          break
        name = f"j{b}_{k}"
        attrs = f' type="{jtype}" axis="{_fmt(rng.normal(size=3))}"'
        attrs += f' pos="{_fmt(rng.uniform(-0.1, 0.1, 3))}"'
        if jtype != "ball" and rng.random() < 0.5:
          lo = rng.uniform(-90, 0)
          attrs += f' range="{lo:.4g} {lo + rng.uniform(1, 90):.4g}"'
        if jtype == "ball" and rng.random() < 0.5:
          attrs += f' range="0 {rng.uniform(10, 90):.4g}"'
        if rng.random() < 0.3:
          attrs += f' ref="{rng.uniform(-1, 1):.3g}" springref="{rng.uniform(-1, 1):.3g}"'
        out.append(f'{pad}  <joint name="{name}"{attrs}/>')
        joints.append(name)
        (balls if jtype == "ball" else hinges).append(name)
        if jtype == "ball":
          break
    if rng.random() < 0.2:
      inertia = _fmt(rng.uniform(0.01, 0.02, 3))
      out.append(
        f'{pad}  <inertial pos="{_fmt(rng.uniform(-0.1, 0.1, 3))}" '
        f'mass="{rng.uniform(0.1, 2):.3g}" diaginertia="{inertia}"{_orient(rng)}/>'
      )
    for g in range(int(rng.integers(1, 4))):
      gtype = str(rng.choice(["sphere", "capsule", "box", "ellipsoid", "cylinder"]))
      size = _fmt(rng.uniform(0.02, 0.1, 3))
      if gtype in ("capsule", "cylinder") and rng.random() < 0.4:
        out.append(
          f'{pad}  <geom type="{gtype}" size="{size[:5]}" '
          f'fromto="{_fmt(rng.uniform(-0.2, 0.2, 6))}"/>'
        )
      else:
        mass = f' mass="{rng.uniform(0.1, 1):.3g}"' if rng.random() < 0.3 else ""
        out.append(
          f'{pad}  <geom type="{gtype}" size="{size}" '
          f'pos="{_fmt(rng.uniform(-0.1, 0.1, 3))}"{_orient(rng)}{mass}/>'
        )
    if rng.random() < 0.5:
      out.append(f'{pad}  <site name="s{b}" pos="{_fmt(rng.uniform(-0.1, 0.1, 3))}"/>')
      sites.append(f"s{b}")
    for c in children[b]:
      out += body(c, depth + 1)
    out.append(f"{pad}</body>")
    return out

  for c in children[0]:
    lines += body(c, 1)
  lines.append("  </worldbody>")

  if len(sites) >= 2:
    lines += [
      "  <tendon>",
      f'    <spatial name="t0"><site site="{sites[0]}"/><site site="{sites[-1]}"/></spatial>',
      "  </tendon>",
    ]
  acts = []
  for j in hinges[:4]:
    kind = rng.choice(["motor", "position", "velocity", "intvelocity", "general"])
    extra = {
      "position": f' kp="{rng.uniform(1, 10):.3g}"',
      "intvelocity": ' kp="2" actrange="-1 1"',
      "velocity": ' kv="0.5"',
      "general": ' dyntype="filter" dynprm="0.1" biastype="affine" biasprm="0 -1 0"',
      "motor": f' gear="{rng.uniform(1, 50):.3g}" ctrlrange="-1 1"',
    }[str(kind)]
    acts.append(f'    <{kind} joint="{j}"{extra}/>')
  for j in balls[:1]:
    acts.append(f'    <orientation joint="{j}" kp="3"/>')
  if len(sites) >= 2:
    acts.append(f'    <general site="{sites[0]}" refsite="{sites[1]}" gear="0 0 1 0 0 0"/>')
    acts.append('    <muscle tendon="t0" lengthrange="0.01 1"/>')
  if acts:
    lines += ["  <actuator>"] + acts + ["  </actuator>"]
  sens = [f'    <jointpos joint="{j}"/>' for j in hinges[:3]]
  sens += [f'    <framequat objtype="body" objname="{b}"/>' for b in bodies[:2]]
  sens += [f'    <accelerometer site="{s}"/>' for s in sites[:2]]
  sens += [f'    <subtreecom body="{bodies[0]}"/>']
  lines += ["  <sensor>"] + sens + ["  </sensor>"]
  lines += ['  <keyframe><key time="1"/></keyframe>', "</mujoco>"]
  return "\n".join(lines)


@pytest.mark.parametrize("seed", range(40))
def test_random_model(seed):
  xml = random_model(seed)
  try:
    mujoco.MjModel.from_xml_string(xml)
  except ValueError:
    with pytest.raises(CompileError):
      compile_model(xml=xml)
    return
  compare(xml=xml)


def test_compile_time_30_bodies():
  xml = random_model(1234, nbody=30)
  compile_model(xml=xml)
  times = []
  for _ in range(5):
    t = time.perf_counter()
    compile_model(xml=xml)
    times.append(time.perf_counter() - t)
  # budget: well under 50 ms (generous bound for a loaded machine)
  assert sorted(times)[2] < 0.1, times
