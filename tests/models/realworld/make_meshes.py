"""Writes the corpus meshes (our own shapes, deterministic): `python make_meshes.py`.

Traits the corpus needs: STL and OBJ files, symmetric inertia (equal principal moments: the
tube, the cube), asymmetric links and fingers, a non-convex cup (collides as its hull), and a
2562-vertex blob (support points by hill-climbing, a face BVH of 5120 triangles).
"""

import pathlib
import struct

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent / "meshes"


def write_stl(path, vert, face):
  """Binary STL, one facet per triangle (MuJoCo merges the repeated vertices)."""
  with open(path, "wb") as f:
    f.write(b"numjoco corpus mesh".ljust(80, b" "))
    f.write(struct.pack("<I", len(face)))
    for a, b, c in face:
      n = np.cross(vert[b] - vert[a], vert[c] - vert[a])
      n = n / (np.linalg.norm(n) or 1.0)
      f.write(struct.pack("<12fH", *n, *vert[a], *vert[b], *vert[c], 0))


def write_obj(path, vert, face):
  lines = [f"v {x:.6f} {y:.6f} {z:.6f}" for x, y, z in vert]
  lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in face]
  path.write_text("# numjoco corpus mesh\n" + "\n".join(lines) + "\n")


def lathe(profile, nseg):
  """Surface of revolution about z of an open (r, z) profile whose ends lie on the axis."""
  vert, ring = [], []
  for r, z in profile:
    if r == 0:
      ring.append([len(vert)])
      vert.append((0.0, 0.0, z))
    else:
      ring.append(list(range(len(vert), len(vert) + nseg)))
      vert += [
        (r * np.cos(t), r * np.sin(t), z) for t in np.linspace(0, 2 * np.pi, nseg, endpoint=False)
      ]
  face = []
  for lo, hi in zip(ring[:-1], ring[1:]):
    for k in range(nseg):
      k1 = (k + 1) % nseg
      if len(lo) == 1:
        face.append((lo[0], hi[k1], hi[k]))
      elif len(hi) == 1:
        face.append((lo[k], lo[k1], hi[0]))
      else:
        face += [(lo[k], lo[k1], hi[k1]), (lo[k], hi[k1], hi[k])]
  return np.array(vert), np.array(face)


def extrude(poly, height):
  """Prism of a counter-clockwise convex-or-not polygon (fan-triangulated caps from vertex 0)."""
  n = len(poly)
  vert = np.array([(x, y, z) for z in (0.0, height) for x, y in poly])
  face = []
  for k in range(1, n - 1):
    face += [(0, k + 1, k), (n, n + k, n + k + 1)]
  for k in range(n):
    k1 = (k + 1) % n
    face += [(k, k1, n + k1), (k, n + k1, n + k)]
  return vert, np.array(face)


def icosphere(level):
  t = (1 + 5**0.5) / 2
  v = [
    (-1, t, 0),
    (1, t, 0),
    (-1, -t, 0),
    (1, -t, 0),
    (0, -1, t),
    (0, 1, t),
    (0, -1, -t),
    (0, 1, -t),
    (t, 0, -1),
    (t, 0, 1),
    (-t, 0, -1),
    (-t, 0, 1),
  ]
  f = [
    (0, 11, 5),
    (0, 5, 1),
    (0, 1, 7),
    (0, 7, 10),
    (0, 10, 11),
    (1, 5, 9),
    (5, 11, 4),
    (11, 10, 2),
    (10, 7, 6),
    (7, 1, 8),
    (3, 9, 4),
    (3, 4, 2),
    (3, 2, 6),
    (3, 6, 8),
    (3, 8, 9),
    (4, 9, 5),
    (2, 4, 11),
    (6, 2, 10),
    (8, 6, 7),
    (9, 8, 1),
  ]
  v = [np.array(p, float) / np.linalg.norm(p) for p in v]
  for _ in range(level):
    cache, nf = {}, []

    def mid(a, b):
      key = (min(a, b), max(a, b))
      if key not in cache:
        p = v[a] + v[b]
        cache[key] = len(v)
        v.append(p / np.linalg.norm(p))
      return cache[key]

    for a, b, c in f:
      ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
      nf += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
    f = nf
  return np.array(v), np.array(f)


def main():
  OUT.mkdir(exist_ok=True)
  # a rounded tube along z: two equal principal moments
  prof = [(0, -0.06)] + [
    (0.035 * np.sin(a), -0.045 - 0.015 * np.cos(a)) for a in np.linspace(0.4, np.pi / 2, 3)
  ]
  prof += (
    [(0.035, 0.045)]
    + [(0.035 * np.cos(a), 0.045 + 0.015 * np.sin(a)) for a in np.linspace(0.4, 1.2, 3)]
    + [(0, 0.06)]
  )
  write_stl(OUT / "tube.stl", *lathe(prof, 16))
  # an L-shaped link: three distinct moments
  write_stl(
    OUT / "elbow.stl",
    *extrude([(0, 0), (0.08, 0), (0.08, 0.03), (0.03, 0.03), (0.03, 0.1), (0, 0.1)], 0.04),
  )
  # a tapered finger with a pad
  write_obj(
    OUT / "finger.obj",
    *extrude([(0, 0), (0.018, 0), (0.02, 0.03), (0.014, 0.055), (0.004, 0.058), (0, 0.05)], 0.018),
  )
  # a non-convex cup (hollow inside; it collides as its convex hull)
  write_obj(
    OUT / "cup.obj",
    *lathe([(0, 0), (0.03, 0), (0.035, 0.07), (0.03, 0.07), (0.026, 0.006), (0, 0.006)], 20),
  )
  # a cube (all moments equal) and a bumpy blob of 2562 vertices
  cube = np.array(
    [(x, y, z) for x in (-0.025, 0.025) for y in (-0.025, 0.025) for z in (-0.025, 0.025)]
  )
  write_obj(
    OUT / "cube.obj",
    cube,
    np.array(
      [
        (0, 1, 3),
        (0, 3, 2),
        (4, 6, 7),
        (4, 7, 5),
        (0, 4, 5),
        (0, 5, 1),
        (2, 3, 7),
        (2, 7, 6),
        (0, 2, 6),
        (0, 6, 4),
        (1, 5, 7),
        (1, 7, 3),
      ]
    ),
  )
  v, f = icosphere(4)
  bump = 1 + 0.08 * np.sin(5 * v[:, 0]) * np.cos(4 * v[:, 1]) + 0.05 * v[:, 2] ** 2
  write_stl(OUT / "blob.stl", v * bump[:, None] * [0.04, 0.035, 0.03], f)


if __name__ == "__main__":
  main()
