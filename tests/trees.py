"""Seeded random MJCF kinematic trees (every joint type, random poses and inertias)."""

import numpy as np


def random_tree_xml(seed: int, nbody: int = 10, contacts: bool = False) -> str:
  """A random tree of `nbody` bodies under the world, as MJCF text.

  Bodies attach to a random earlier body (or the world, starting new trees);
  each gets zero to two joints of random type (a free joint only directly under
  the world), a random offset and orientation, and one or two geoms.
  """
  rng = np.random.default_rng(seed)
  parents = [-1]
  for b in range(1, nbody + 1):
    parents.append(int(rng.integers(0, b)))
  children = {b: [] for b in range(nbody + 1)}
  for b in range(1, nbody + 1):
    children[parents[b]].append(b)

  def fmt(v):
    return " ".join(f"{x:.6g}" for x in v)

  def body(b, depth):
    pad = "  " * depth
    pos = rng.uniform(-0.3, 0.3, 3)
    quat = rng.normal(size=4)
    quat /= np.linalg.norm(quat)
    lines = [f'{pad}<body name="b{b}" pos="{fmt(pos)}" quat="{fmt(quat)}">']
    if parents[b] == 0 and rng.random() < 0.3:
      lines.append(f'{pad}  <freejoint name="j{b}_free"/>')
    else:
      for k in range(int(rng.integers(0, 3))):
        jtype = str(rng.choice(["hinge", "slide", "ball", "hinge"]))
        if jtype == "ball" and k > 0:
          jtype = "hinge"
        axis = rng.normal(size=3)
        jpos = rng.uniform(-0.1, 0.1, 3)
        extra = ""
        if jtype in ("hinge", "slide") and rng.random() < 0.5:
          extra = f' damping="{rng.uniform(0, 0.5):.3g}" stiffness="{rng.uniform(0, 2):.3g}"'
        if rng.random() < 0.3:
          extra += f' armature="{rng.uniform(0, 0.1):.3g}"'
        lines.append(
          f'{pad}  <joint name="j{b}_{k}" type="{jtype}" axis="{fmt(axis)}" pos="{fmt(jpos)}"'
          f"{extra}/>"
        )
        if jtype == "ball":
          break
    for g in range(int(rng.integers(1, 3))):
      gtype = str(rng.choice(["sphere", "capsule", "box", "ellipsoid", "cylinder"]))
      size = rng.uniform(0.02, 0.1, 3)
      gpos = rng.uniform(-0.1, 0.1, 3)
      con = "" if contacts else ' contype="0" conaffinity="0"'
      lines.append(f'{pad}  <geom type="{gtype}" size="{fmt(size)}" pos="{fmt(gpos)}"{con}/>')
    for c in children[b]:
      lines += body(c, depth + 1)
    lines.append(f"{pad}</body>")
    return lines

  lines = ["<mujoco>", "  <worldbody>"]
  for c in children[0]:
    lines += body(c, 2)
  lines += ["  </worldbody>", "</mujoco>"]
  return "\n".join(lines)
