"""Narrowphase dispatch: MuJoCo 3.17's table of pair collision functions (mjCOLLISIONFUNC in
engine_collision_driver.c) as an if/elif chain over the two geom types.

Dedicated functions (primitives.py, box.py) handle plane against sphere, capsule, cylinder and
box, sphere against sphere, capsule, cylinder and box, capsule-capsule, capsule-box and box-box.
Every other convex pair (anything with an ellipsoid or a cylinder not listed above, and every
mesh pair) goes to convex.py, whose mjc_PlaneConvex serves plane-ellipsoid and plane-mesh, and
height fields against any convex geom to the height field routine. A signed distance field
(SDF geom, always g2 as the last type) meets a plane through mjc_PlaneConvex on its mesh, a mesh
through mjc_MeshSDF and any other geom through mjc_SDF (sdf.py). MuJoCo has no function for
plane-plane, plane-hfield, hfield-hfield or hfield-SDF: those return 0.
"""

from engine._jit import jit
from engine._stage import CONTACTS
from engine._stage import D
from engine._stage import M
from engine._stage import f8
from engine._stage import i8
from engine._stage import mat
from engine._stage import stage
from engine.collision import box
from engine.collision import convex
from engine.collision import hfield
from engine.collision import primitives
from engine.collision import sdf
from engine.enums import mjGEOM_BOX
from engine.enums import mjGEOM_CAPSULE
from engine.enums import mjGEOM_CYLINDER
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjGEOM_MESH
from engine.enums import mjGEOM_PLANE
from engine.enums import mjGEOM_SDF
from engine.enums import mjGEOM_SPHERE


@jit
def has_collider(t1, t2):
  """Whether MuJoCo 3.17's table has a pair function for geom types t1 <= t2."""
  return t2 > mjGEOM_HFIELD and not (t1 == mjGEOM_HFIELD and t2 == mjGEOM_SDF)


@jit
def uses_convex(t1, t2):
  """Whether the pair function of geom types t1 <= t2 is mjc_Convex or mjc_BoxBox (the pairs
  mj_geomDistance measures with the native CCD instead of collide_geoms)."""
  if not has_collider(t1, t2) or t1 == mjGEOM_PLANE or t1 == mjGEOM_HFIELD or t2 == mjGEOM_SDF:
    return False
  if t1 == mjGEOM_SPHERE:
    return not (
      t2 == mjGEOM_SPHERE or t2 == mjGEOM_CAPSULE or t2 == mjGEOM_CYLINDER or t2 == mjGEOM_BOX
    )
  if t1 == mjGEOM_CAPSULE:
    return not (t2 == mjGEOM_CAPSULE or t2 == mjGEOM_BOX)
  return True


@stage(M, D, i8, i8, f8, mat, restype=i8, needed=CONTACTS)
def collide_geoms(m, d, g1, g2, margin, con):
  """Collides geoms g1 and g2 (type(g1) <= type(g2)) with the pair function MuJoCo 3.17 uses,
  writing up to mjMAXCONPAIR contacts into con (see primitives.py for the row layout) and
  returning their number."""
  t1 = m.geom_type[g1]
  t2 = m.geom_type[g2]
  if not has_collider(t1, t2):
    return 0  # plane-plane, plane-hfield, hfield-hfield, hfield-SDF

  # geom : signed distance field (a plane meets the SDF's mesh in mjc_PlaneConvex below)
  if t2 == mjGEOM_SDF and t1 != mjGEOM_PLANE:
    if t1 == mjGEOM_MESH:
      return sdf.collide_mesh_sdf(m, d, g1, g2, margin, con)
    return sdf.collide_sdf(m, d, g1, g2, margin, con)

  # plane : geom
  if t1 == mjGEOM_PLANE:
    if t2 == mjGEOM_SPHERE:
      return primitives.collide_plane_sphere(m, d, g1, g2, margin, con)
    if t2 == mjGEOM_CAPSULE:
      return primitives.collide_plane_capsule(m, d, g1, g2, margin, con)
    if t2 == mjGEOM_CYLINDER:
      return primitives.collide_plane_cylinder(m, d, g1, g2, margin, con)
    if t2 == mjGEOM_BOX:
      return primitives.collide_plane_box(m, d, g1, g2, margin, con)
    return convex.collide_convex(m, d, g1, g2, margin, con)  # mjc_PlaneConvex

  # height field : convex geom
  if t1 == mjGEOM_HFIELD:
    return hfield.collide_hfield(m, d, g1, g2, margin, con)

  # dedicated primitive pairs
  if t1 == mjGEOM_SPHERE:
    if t2 == mjGEOM_SPHERE:
      return primitives.collide_sphere_sphere(m, d, g1, g2, margin, con)
    if t2 == mjGEOM_CAPSULE:
      return primitives.collide_sphere_capsule(m, d, g1, g2, margin, con)
    if t2 == mjGEOM_CYLINDER:
      return primitives.collide_sphere_cylinder(m, d, g1, g2, margin, con)
    if t2 == mjGEOM_BOX:
      return box.collide_sphere_box(m, d, g1, g2, margin, con)
  elif t1 == mjGEOM_CAPSULE:
    if t2 == mjGEOM_CAPSULE:
      return primitives.collide_capsule_capsule(m, d, g1, g2, margin, con)
    if t2 == mjGEOM_BOX:
      return box.collide_capsule_box(m, d, g1, g2, margin, con)
  elif t1 == mjGEOM_BOX and t2 == mjGEOM_BOX:
    return box.collide_box_box(m, d, g1, g2, margin, con)

  # everything else: general convex collision
  return convex.collide_convex(m, d, g1, g2, margin, con)
