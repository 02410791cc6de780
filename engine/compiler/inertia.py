"""Mass and inertia: primitive geoms (solid and shell), principal axes, body inertia from geoms.

Ports of mjCGeom::GetVolume / SetInertia, mjCBody::InertiaFromGeom / AccumulateInertia
(user_objects.cc), mjuu_fullInertia / mjuu_globalinertia / mjuu_offcenter
(user_util.cc) and mj_setTotalmass (engine_util_misc.c). Plain Python on small lists.
"""

from engine.compiler import build_math as bm
from engine.compiler import mesh
from engine.compiler.build_math import mjEPS
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_ELLIPSOID
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjGEOM_SPHERE
from engine.enums import mjPI


def geom_volume(gtype, size, shell):
  """Port of mjCGeom::GetVolume for primitives: volume, or surface area if `shell`."""
  if gtype == mjGEOM_SPHERE:
    r = size[0]
    return 4 * mjPI * r * r if shell else 4 * mjPI * r * r * r / 3
  if gtype == mjGEOM_CAPSULE:
    height = 2 * size[1]
    r = size[0]
    if shell:
      return 4 * mjPI * r * r + 2 * mjPI * r * height
    return mjPI * (r * r * height + 4 * r * r * r / 3)
  if gtype == mjGEOM_CYLINDER:
    height = 2 * size[1]
    r = size[0]
    if shell:
      return 2 * mjPI * r * r + 2 * mjPI * r * height
    return mjPI * r * r * height
  if gtype == mjGEOM_ELLIPSOID:
    if shell:
      # Thomsen approximation of the ellipsoid surface area
      p = 1.6075
      tmp = (size[0] * size[1]) ** p + (size[1] * size[2]) ** p + (size[2] * size[0]) ** p
      return 4 * mjPI * (tmp / 3) ** (1 / p)
    return 4 * mjPI * size[0] * size[1] * size[2] / 3
  if gtype in (mjGEOM_HFIELD, mjGEOM_BOX):
    if shell:
      return 8 * (size[0] * size[1] + size[1] * size[2] + size[2] * size[0])
    return size[0] * size[1] * size[2] * 8
  return 0.0


def geom_inertia(gtype, size, mass, shell):
  """Port of mjCGeom::SetInertia for primitives: diagonal inertia in the geom frame."""
  if gtype == mjGEOM_SPHERE:
    r2 = size[0] * size[0]
    val = 2 * mass * r2 / 3 if shell else 2 * mass * r2 / 5
    return [val, val, val]
  if gtype == mjGEOM_CAPSULE:
    halfheight = size[1]
    height = 2 * size[1]
    r = size[0]
    if not shell:
      sphere_mass = mass * 4 * r / (4 * r + 3 * height)
      cylinder_mass = mass - sphere_mass
      i0 = cylinder_mass * (3 * r * r + height * height) / 12
      i2 = cylinder_mass * r * r / 2
      sphere_inertia = 2 * sphere_mass * r * r / 5
      i0 += sphere_inertia + sphere_mass * height * (3 * r + 2 * height) / 8
      i2 += sphere_inertia
      return [i0, i0, i2]
    asphere = 4 * mjPI * r * r
    acylinder = 2 * mjPI * r * height
    atotal = asphere + acylinder
    sphere_mass = mass * asphere / atotal
    cylinder_mass = mass - sphere_mass
    i0 = cylinder_mass * (6 * r * r + height * height) / 12
    i2 = cylinder_mass * r * r
    sphere_inertia = 2 * sphere_mass * r * r / 3
    hs_com = r / 2
    hs_pos = halfheight + hs_com
    i0 += sphere_inertia + sphere_mass * (hs_pos * hs_pos - hs_com * hs_com)
    i2 += sphere_inertia
    return [i0, i0, i2]
  if gtype == mjGEOM_CYLINDER:
    halfheight = size[1]
    height = 2 * halfheight
    r = size[0]
    if not shell:
      i0 = mass * (3 * r * r + height * height) / 12
      return [i0, i0, mass * r * r / 2]
    adisk = mjPI * r * r
    acylinder = 2 * mjPI * r * height
    atotal = 2 * adisk + acylinder
    mass_disk = mass * adisk / atotal
    mass_cylinder = mass - 2 * mass_disk
    i0 = mass_cylinder * (6 * r * r + height * height) / 12
    i2 = mass_cylinder * r * r
    inertia_disk_x = mass_disk * r * r / 4 + mass_disk * halfheight * halfheight
    inertia_disk_z = mass_disk * r * r / 2
    return [i0 + 2 * inertia_disk_x, i0 + 2 * inertia_disk_x, i2 + 2 * inertia_disk_z]
  if gtype == mjGEOM_ELLIPSOID:
    s00 = size[0] * size[0]
    s11 = size[1] * size[1]
    s22 = size[2] * size[2]
    if not shell:
      return [mass * (s11 + s22) / 5, mass * (s00 + s22) / 5, mass * (s00 + s11) / 5]
    # shell: difference of an expanded and the original solid ellipsoid
    eps = 1e-6
    va = 4 * mjPI * size[0] * size[1] * size[2] / 3
    ae = size[0] + eps
    be = size[1] + eps
    ce = size[2] + eps
    vb = 4 * mjPI * ae * be * ce / 3
    density = mass / (vb - va)
    mass_a = va * density
    ia = [mass_a * (s11 + s22) / 5, mass_a * (s00 + s22) / 5, mass_a * (s00 + s11) / 5]
    mass_b = vb * density
    ib = [
      mass_b * (be * be + ce * ce) / 5,
      mass_b * (ae * ae + ce * ce) / 5,
      mass_b * (ae * ae + be * be) / 5,
    ]
    return [ib[0] - ia[0], ib[1] - ia[1], ib[2] - ia[2]]
  if gtype in (mjGEOM_HFIELD, mjGEOM_BOX):
    s00 = size[0] * size[0]
    s11 = size[1] * size[1]
    s22 = size[2] * size[2]
    if not shell:
      return [mass * (s11 + s22) / 3, mass * (s00 + s22) / 3, mass * (s00 + s11) / 3]
    lx = 2 * size[0]
    ly = 2 * size[1]
    lz = 2 * size[2]
    a0 = lx * ly
    a1 = ly * lz
    a2 = lz * lx
    atotal = 2 * (a0 + a1 + a2)
    mass0 = mass * a0 / atotal
    ix0 = mass0 * ly * ly / 12
    iy0 = mass0 * lx * lx / 12
    iz0 = mass0 * (lx * lx + ly * ly) / 12
    mass1 = mass * a1 / atotal
    ix1 = mass1 * (ly * ly + lz * lz) / 12
    iy1 = mass1 * lz * lz / 12
    iz1 = mass1 * ly * ly / 12
    mass2 = mass * a2 / atotal
    ix2 = mass2 * lz * lz / 12
    iy2 = mass2 * (lx * lx + lz * lz) / 12
    iz2 = mass2 * lx * lx / 12
    return [
      2 * (mass0 * s22 + mass2 * s11 + ix0 + ix1 + ix2),
      2 * (mass0 * s22 + mass1 * s00 + iy0 + iy1 + iy2),
      2 * (mass1 * s00 + mass2 * s11 + iz0 + iz1 + iz2),
    ]
  return [0.0, 0.0, 0.0]


def full_inertia(full):
  """Port of mjuu_fullInertia: (iquat, diagonal inertia) of a full inertia (xx yy zz xy xz yz).

  The principal axes come from mesh.eig3, our port of MuJoCo 3.17's mju_eig3.

  Returns (quat, inertia, error message or None).
  """
  mat = [[full[0], full[3], full[4]], [full[3], full[1], full[5]], [full[4], full[5], full[2]]]
  eigval, quat = mesh.eig3(mat)
  eigval = [float(v) for v in eigval]
  quat = [float(v) for v in quat]
  if eigval[2] < mjEPS:
    return quat, eigval, "inertia must have positive eigenvalues"
  return quat, eigval, None


def global_inertia(local, quat):
  """Port of mjuu_globalinertia: diagonal inertia in frame quat -> full (xx yy zz xy xz yz)."""
  mat = bm.quat2mat(quat)
  tmp = [
    mat[0] * local[0],
    mat[3] * local[0],
    mat[6] * local[0],
    mat[1] * local[1],
    mat[4] * local[1],
    mat[7] * local[1],
    mat[2] * local[2],
    mat[5] * local[2],
    mat[8] * local[2],
  ]
  return [
    mat[0] * tmp[0] + mat[1] * tmp[3] + mat[2] * tmp[6],
    mat[3] * tmp[1] + mat[4] * tmp[4] + mat[5] * tmp[7],
    mat[6] * tmp[2] + mat[7] * tmp[5] + mat[8] * tmp[8],
    mat[0] * tmp[1] + mat[1] * tmp[4] + mat[2] * tmp[7],
    mat[0] * tmp[2] + mat[1] * tmp[5] + mat[2] * tmp[8],
    mat[3] * tmp[2] + mat[4] * tmp[5] + mat[5] * tmp[8],
  ]


def offcenter(mass, vec):
  """Port of mjuu_offcenter: parallel-axis term of a point mass at vec."""
  return [
    mass * (vec[1] * vec[1] + vec[2] * vec[2]),
    mass * (vec[0] * vec[0] + vec[2] * vec[2]),
    mass * (vec[0] * vec[0] + vec[1] * vec[1]),
    -mass * vec[0] * vec[1],
    -mass * vec[0] * vec[2],
    -mass * vec[1] * vec[2],
  ]


def combine(masses, poss, quats, inertias):
  """Total mass, com and principal inertia of rigid parts (mjCBody::InertiaFromGeom core).

  Args:
    masses, poss, quats, inertias: per-part mass, position, frame and diagonal inertia.

  Returns:
    (mass, ipos, iquat, inertia, error or None); mass below mjEPS is reported as an error.
  """
  mass = 0.0
  com = [0.0, 0.0, 0.0]
  for m, p in zip(masses, poss):
    mass += m
    com[0] += m * p[0]
    com[1] += m * p[1]
    com[2] += m * p[2]
  if mass < mjEPS:
    return mass, None, None, None, "body mass is too small, cannot compute center of mass"
  ipos = [com[0] / mass, com[1] / mass, com[2] / mass]
  toti = [0.0] * 6
  for m, p, q, inert in zip(masses, poss, quats, inertias):
    dpos = [p[0] - ipos[0], p[1] - ipos[1], p[2] - ipos[2]]
    i0 = global_inertia(inert, q)
    i1 = offcenter(m, dpos)
    for j in range(6):
      toti[j] = toti[j] + i0[j] + i1[j]
  quat, inertia, err = full_inertia(toti)
  if err:
    return mass, ipos, None, None, f"error '{err}' in alternative for principal axes"
  return mass, ipos, quat, inertia, None
