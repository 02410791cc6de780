"""Seeded random tiny models for memory-safety fuzzing (tests/engine/test_memory_safety.py).

Each model has 0 to 3 bodies, so nv runs through 0, 1, 2, ... and the engine's small-size
paths (a 1-dof model, a lone ball joint, no dofs at all) get exercised. Every joint type,
dof damping/armature/friction loss/limits/springs on and off, every integrator, both cones,
the three solvers, dense and sparse Jacobians, actuators, a tendon and contacts on and off are
drawn at random; `CASES` lists fixed models first (the heap corruption of issue 9 among them).
"""

import numpy as np

# fixed cases: name -> MJCF
CASES = {
  # one hinge with damping under Euler: wrote one past a 1-element scratch view (issue 9)
  "hinge_damping_euler": """<mujoco><option integrator="Euler"/><worldbody><body>
    <joint type="hinge" damping="0.1"/><geom size=".1" contype="0" conaffinity="0"/>
    </body></worldbody></mujoco>""",
  "no_dofs": """<mujoco><worldbody><geom type="plane" size="1 1 .1"/><body pos="0 0 .1">
    <geom size=".1"/></body></worldbody></mujoco>""",
  "one_slide_rk4": """<mujoco><option integrator="RK4"/><worldbody><body>
    <joint type="slide" damping="1" armature=".1" frictionloss=".1"/><geom size=".1"/>
    </body></worldbody></mujoco>""",
  "one_ball_implicit": """<mujoco><option integrator="implicit"/><worldbody><body>
    <joint type="ball" damping=".2"/><geom type="capsule" size=".05 .2"/>
    </body></worldbody></mujoco>""",
  "free_on_floor_implicitfast": """<mujoco><option integrator="implicitfast"/><worldbody>
    <geom type="plane" size="1 1 .1"/><body pos="0 0 .2"><freejoint/>
    <geom type="box" size=".1 .1 .1"/></body></worldbody></mujoco>""",
}

_JOINTS = ("hinge", "slide", "ball", "free", None)
_INTEGRATORS = ("Euler", "RK4", "implicit", "implicitfast")
_GEOMS = ("sphere", "capsule", "box", "ellipsoid", "cylinder")


def random_tiny_xml(seed: int) -> str:
  """A random model of 0-3 bodies (see the module docstring for what varies)."""
  rng = np.random.default_rng(seed)
  contacts = rng.random() < 0.5
  options = (
    f'integrator="{rng.choice(_INTEGRATORS)}" '
    f'cone="{rng.choice(["pyramidal", "elliptic"])}" '
    f'solver="{rng.choice(["PGS", "CG", "Newton"])}" '
    f'jacobian="{rng.choice(["dense", "sparse"])}"'
  )
  flags = ' eulerdamp="disable"' if rng.random() < 0.2 else ""
  con = "" if contacts else ' contype="0" conaffinity="0"'
  body_xml, joints = [], []
  depth = 0
  for b in range(int(rng.integers(0, 4))):
    kind = _JOINTS[int(rng.integers(0, len(_JOINTS)))]
    if kind == "free" and depth > 0:
      kind = "hinge"
    attrs = ""
    if kind in ("hinge", "slide"):
      if rng.random() < 0.5:
        attrs += f' damping="{rng.uniform(0, 1):.3g}"'
      if rng.random() < 0.3:
        attrs += f' stiffness="{rng.uniform(0, 2):.3g}"'
      if rng.random() < 0.3:
        attrs += ' limited="true" range="-0.5 0.5"'
    if kind is not None and kind != "free":
      if rng.random() < 0.3:
        attrs += f' armature="{rng.uniform(0, 0.1):.3g}"'
      if rng.random() < 0.3:
        attrs += f' frictionloss="{rng.uniform(0, 0.1):.3g}"'
    pos = " ".join(f"{x:.3g}" for x in rng.uniform(-0.2, 0.2, 3))
    geom = _GEOMS[int(rng.integers(0, len(_GEOMS)))]
    size = " ".join(f"{x:.3g}" for x in rng.uniform(0.03, 0.1, 3))
    lines = [f'<body name="b{b}" pos="{pos}">']
    if kind == "free":
      lines.append(f'<freejoint name="j{b}"/>')
    elif kind is not None:
      lines.append(f'<joint name="j{b}" type="{kind}"{attrs}/>')
      joints.append((f"j{b}", kind))
    lines.append(f'<geom type="{geom}" size="{size}"{con}/>')
    body_xml.append("\n".join(lines))
    depth += 1
  tree = "".join(body_xml) + "</body>" * depth
  floor = f'<geom type="plane" size="2 2 .1"{con}/>' if contacts else ""
  actuators, tendons = [], []
  scalar = [name for name, kind in joints if kind in ("hinge", "slide")]
  if scalar and rng.random() < 0.5:
    name = scalar[int(rng.integers(0, len(scalar)))]
    actuators.append(f'<motor joint="{name}" gear="2"/>')
    if rng.random() < 0.5:
      actuators.append(f'<position joint="{name}" kp="5" dampratio="1"/>')
  if len(scalar) >= 2 and rng.random() < 0.5:
    tendons.append(
      f'<fixed name="t"><joint joint="{scalar[0]}" coef="1"/>'
      f'<joint joint="{scalar[1]}" coef="-0.5"/></fixed>'
    )
  return (
    f"<mujoco><option {options}><flag{flags}/></option><worldbody>{floor}{tree}"
    f"</worldbody><tendon>{''.join(tendons)}</tendon>"
    f"<actuator>{''.join(actuators)}</actuator></mujoco>"
  )
