"""Swapping the Jaco's primitive shapes for Kinova's original meshes, read from a directory.

The meshes are not shipped; dm_control's wheel has them in `third_party/kinova/meshes_decimated`.
The directory comes from the entity's `mesh_dir` argument or, when that is None, from the
environment variable named by `MESH_DIR_ENV` (so that code building the robots itself, such as
the manipulation tasks, can use them too).
"""

import os

MESH_DIR_ENV = "KINOVA_MESH_DIR"


def resolve_mesh_dir(mesh_dir):
  """`mesh_dir`, or the environment's `KINOVA_MESH_DIR` when it is None (None if unset)."""
  if mesh_dir is None:
    mesh_dir = os.environ.get(MESH_DIR_ENV) or None
  return None if mesh_dir is None else os.fspath(mesh_dir)


def use_meshes(mjcf_root, mesh_dir, geom_meshes):
  """Turns the named geoms into mesh geoms of the STL files in `mesh_dir`.

  Args:
    mjcf_root: the robot's model.
    mesh_dir: directory holding `<mesh name>.stl` for every mesh named.
    geom_meshes: (geom name, mesh name) pairs; the meshes are declared in order of first use.

  The geoms keep their name, material and contact parameters; their frame becomes the mesh's
  (MuJoCo places a mesh geom at the mesh's centre of mass and principal axes), and the bodies'
  mass properties stay the explicit <inertial>s, which are the meshes' own.

  Raises:
    FileNotFoundError: a mesh file is missing (all missing files are named).
  """
  order = list(dict.fromkeys(mesh for _, mesh in geom_meshes))
  paths = {mesh: os.path.join(mesh_dir, mesh + ".stl") for mesh in order}
  missing = [path for path in paths.values() if not os.path.isfile(path)]
  if missing:
    raise FileNotFoundError(
      f"mesh_dir {mesh_dir!r} lacks the Kinova mesh files: "
      + ", ".join(os.path.basename(path) for path in missing)
    )
  assets = {mesh: mjcf_root.asset.add("mesh", name=mesh, file=paths[mesh]) for mesh in order}
  for geom_name, mesh in geom_meshes:
    geom = mjcf_root.find("geom", geom_name)
    # pos and quat explicitly zero: the primitives' offsets may come from a default class
    geom.set_attributes(
      type="mesh", mesh=assets[mesh], size=None, pos=[0.0, 0.0, 0.0], quat=[1.0, 0.0, 0.0, 0.0]
    )
