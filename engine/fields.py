"""The field table: every MjModel, MjOption, MjStatistic and MjData field we expose.

One table drives allocation, the numba struct types and their handles
(`engine/_structs.py`, generated from this file), the Python `MjModel`/`MjData`
properties, copying, reset and named indexing. Names, dtypes and shapes are
MuJoCo's (3.17); a test compares them with the pinned `mujoco` bindings.

Each table row is `name dtype dims  doc`:
  dtype: f8 float64, f4 float32, i4 int32, i8 int64, u1 uint8 (mjtByte), i1 int8 (char),
         b1 bool (mjtBool),
         S bytes (Python only)
  dims:  comma-separated size names, integers or constants (`nbody,3`, `nv`,
         `nkey,nmocap*3`); `-` marks a scalar. Scalar sizes are immutable ints;
         other scalars (d.time, m.opt.timestep, ...) live in a 1-element array so
         Python and numba share them.
"""

import dataclasses

# constants used as dimensions (MuJoCo's values)
CONSTANTS = {
  "mjNREF": 2,
  "mjNIMP": 5,
  "mjNPOLY": 2,
  "mjNFLUID": 12,
  "mjNEQDATA": 12,
  "mjNDYN": 10,
  "mjNGAIN": 10,
  "mjNBIAS": 10,
  "mjNTEXROLE": 10,
  "mjNSENS": 3,
  "mjNWARNING": 7,
  "mjNSOLVER": 200,
  "mjNISLAND": 20,
  "mjMAXCONPAIR": 50,
}


@dataclasses.dataclass(frozen=True)
class Field:
  """One row of the table.

  Attributes:
    name: MuJoCo's field name.
    dtype: numpy dtype string ('f8', 'f4', 'i4', 'i8', 'u1', 'i1', 'b1', 'S').
    dims: tuple of size names, constants or ints; () for a scalar.
    doc: what the field means.
    kernel: whether numba kernels see the field (False: Python side only).
  """

  name: str
  dtype: str
  dims: tuple
  doc: str
  kernel: bool = True

  @property
  def is_scalar(self) -> bool:
    return not self.dims

  def __post_init__(self):
    # each dim as a constant times model sizes, parsed once: a model load asks ~1000 shapes
    object.__setattr__(self, "_factors", tuple(_factors(d) for d in self.dims))

  def shape(self, sizes: dict) -> tuple:
    """Concrete shape given model sizes (a scalar field is stored as (1,))."""
    if not self.dims:
      return (1,)
    shape = []
    for constant, names in self._factors:
      for name in names:
        constant *= int(sizes[name])
      shape.append(constant)
    return tuple(shape)


def _factors(dim) -> tuple:
  """A dim (an int, a constant's or a size's name, or their product `a*b`) as (constant,
  size names multiplying it)."""
  if isinstance(dim, int):
    return dim, ()
  if "*" in dim:
    a, b = (_factors(d) for d in dim.split("*"))
    return a[0] * b[0], a[1] + b[1]
  if dim in CONSTANTS:
    return CONSTANTS[dim], ()
  if dim.isdigit():
    return int(dim), ()
  return 1, (dim,)


def _parse(table: str, python_only: frozenset = frozenset()) -> tuple:
  rows = []
  for line in table.strip().splitlines():
    line = line.strip()
    if not line or line.startswith("#"):
      continue
    name, dtype, dims, doc = line.split(None, 3)
    dims = () if dims == "-" else tuple(int(d) if d.isdigit() else d for d in dims.split(","))
    kernel = dtype != "S" and name not in python_only
    rows.append(Field(name, dtype, dims, doc, kernel))
  return tuple(rows)


# ---- model sizes (immutable ints) ----
MODEL_SIZES = _parse("""
nq             i8 -  number of generalized coordinates
nv             i8 -  number of degrees of freedom
nu             i8 -  number of actuator controls
nactuator      i8 -  number of actuators
nout           i8 -  number of actuator outputs (forces)
na             i8 -  number of activation states
nbody          i8 -  number of bodies, world included
nbvh           i8 -  bounding-volume nodes of all bodies and meshes
nbvhstatic     i8 -  bounding-volume nodes whose boxes are in the model (all of them)
nbvhdynamic    i8 -  bounding-volume nodes whose boxes are in the data (flexes: none)
njnt           i8 -  number of joints
ntree          i8 -  number of kinematic trees under the world
nM             i8 -  nonzeros in the sparse inertia matrix (one triangle)
nB             i8 -  nonzeros in the body-dof sparsity pattern
nC             i8 -  nonzeros in the reduced inertia layout (lower triangle with diagonal)
nD             i8 -  nonzeros in the full symmetric dof-dof pattern
ngeom          i8 -  number of geoms
nsite          i8 -  number of sites
ncam           i8 -  number of cameras
nlight         i8 -  number of lights
nmesh          i8 -  number of meshes
nmeshvert      i8 -  vertices in all meshes
nmeshnormal    i8 -  normals in all meshes
nmeshtexcoord  i8 -  texture coordinates in all meshes
nmeshface      i8 -  triangles in all meshes
nmeshgraph     i8 -  ints in all convex-hull graphs
nmeshpoly      i8 -  polygons in all meshes
nmeshpolyvert  i8 -  vertices in all mesh polygons
nmeshpolymap   i8 -  vertex-to-polygon map entries in all meshes
npolygonmax    i8 -  most vertices of any mesh polygon
nhfield        i8 -  number of height fields
nhfielddata    i8 -  samples in all height fields
ntex           i8 -  number of textures
ntexdata       i8 -  bytes in all textures
nmat           i8 -  number of materials
npair          i8 -  number of explicit contact pairs
nexclude       i8 -  number of excluded body pairs
neq            i8 -  number of equality constraints
ntendon        i8 -  number of tendons
nJten          i8 -  nonzeros in the sparse tendon Jacobian
nwrap          i8 -  wrap objects in all tendon paths
nsensor        i8 -  number of sensors
nnumeric       i8 -  number of custom numeric fields
nnumericdata   i8 -  numbers in all custom numeric fields
ntext          i8 -  number of custom text fields
ntextdata      i8 -  characters in all custom text fields
ntuple         i8 -  number of custom tuples
ntupledata     i8 -  objects in all custom tuples
nkey           i8 -  number of keyframes
nmocap         i8 -  number of mocap bodies
nuser_body     i8 -  user numbers per body
nuser_jnt      i8 -  user numbers per joint
nuser_geom     i8 -  user numbers per geom
nuser_site     i8 -  user numbers per site
nuser_cam      i8 -  user numbers per camera
nuser_tendon   i8 -  user numbers per tendon
nuser_actuator i8 -  user numbers per actuator
nuser_sensor   i8 -  user numbers per sensor
nnames         i8 -  characters in the names buffer
nJmom          i8 -  nonzeros in the sparse actuator moment matrix
ngravcomp      i8 -  bodies with nonzero gravity compensation
nemax          i8 -  capacity for equality constraint rows
njmax          i8 -  capacity for constraint rows (-1: decided by memory)
nconmax        i8 -  capacity for contacts (-1: decided by memory)
nuserdata      i8 -  user data numbers in MjData
narena         i8 -  bytes of MuJoCo's arena (<size memory>, or its heuristic from njmax/nconmax)
nplugin        i8 -  number of plugin instances
npluginattr    i8 -  characters in all plugin instances' config values
npluginstate   i8 -  numbers in all plugin instances' states (d.plugin_state)
npluginparam   i8 -  numbers in all plugin instances' parameters (ours: m.plugin_param)
nsensordata    i8 -  numbers output by all sensors
nhistory       i8 -  numbers in the actuator and sensor history buffers
""")

# ---- MjOption (m.opt) ----
OPTION_FIELDS = _parse("""
timestep          f8 -          integration step in seconds
impratio          f8 -          ratio of friction-to-normal impedance for elliptic cones
tolerance         f8 -          main solver stops when relative improvement is below this
ls_tolerance      f8 -          line search tolerance (CG and Newton)
noslip_tolerance  f8 -          noslip solver tolerance
ccd_tolerance     f8 -          convex collision solver tolerance
sleep_tolerance   f8 -          velocity below which a tree may sleep
gravity           f8 3          gravitational acceleration
wind              f8 3          wind velocity, for fluid forces
magnetic          f8 3          global magnetic flux, for magnetometers
density           f8 -          density of the medium
viscosity         f8 -          viscosity of the medium
o_margin          f8 -          contact margin used when the override flag is set
o_solref          f8 mjNREF     solref used when the override flag is set
o_solimp          f8 mjNIMP     solimp used when the override flag is set
o_friction        f8 5          friction used when the override flag is set
integrator        i4 -          integrator (mjtIntegrator)
cone              i4 -          friction cone type (mjtCone)
jacobian          i4 -          constraint Jacobian layout (mjtJacobian)
solver            i4 -          constraint solver (mjtSolver)
iterations        i4 -          maximum main solver iterations
ls_iterations     i4 -          maximum line search iterations
noslip_iterations i4 -          maximum noslip iterations (0 disables noslip)
ccd_iterations    i4 -          maximum convex collision iterations
disableflags      i4 -          bit flags disabling pipeline features (mjtDisableBit)
enableflags       i4 -          bit flags enabling optional features (mjtEnableBit)
disableactuator   i4 -          bit flags disabling actuator groups
sdf_initpoints    i4 -          SDF collision starting points
sdf_iterations    i4 -          SDF collision iterations
""")

# ---- MjStatistic (m.stat) ----
STATISTIC_FIELDS = _parse("""
meaninertia f8 -  mean diagonal inertia at qpos0, scales solver tolerances
meanmass    f8 -  mean body mass
meansize    f8 -  mean body size
extent      f8 -  spatial extent of the model
center      f8 3  center of the model
""")

# render-only and bookkeeping fields the physics kernels never read
_MODEL_PYTHON_ONLY = frozenset(
  """
site_rgba tendon_rgba light_bulbradius light_intensity
light_range light_attenuation light_cutoff light_softness light_exponent light_ambient
light_diffuse light_specular tex_type tex_colorspace tex_height tex_width tex_nchannel tex_adr
tex_data mat_texid mat_texuniform mat_texrepeat mat_emission mat_specular mat_shininess
mat_reflectance mat_metallic mat_roughness numeric_adr numeric_size numeric_data
text_adr text_size tuple_adr tuple_size tuple_objtype tuple_objid tuple_objprm
name_bodyadr name_jntadr name_geomadr name_siteadr name_camadr name_lightadr name_meshadr
name_hfieldadr name_texadr name_matadr name_pairadr name_excludeadr name_eqadr name_tendonadr
name_actuatoradr name_sensoradr name_numericadr name_textadr name_tupleadr name_keyadr
body_user jnt_user geom_user site_user cam_user tendon_user actuator_user sensor_user
cam_output cam_ipd light_texid light_castshadow
site_group jnt_group tendon_group site_matid tendon_matid
mesh_normaladr mesh_normalnum mesh_texcoordadr mesh_texcoordnum mesh_normal
mesh_texcoord
mesh_facenormal mesh_facetexcoord
plugin_attr plugin_attradr name_pluginadr
""".split()
)

# ---- MjModel arrays ----
MODEL_FIELDS = _parse(
  """
qpos0                 f8 nq               joint positions at the reference configuration
qpos_spring           f8 nq               joint positions where springs are at rest
body_parentid         i4 nbody            id of the parent body
body_rootid           i4 nbody            id of the root body of the tree (child of the world)
body_weldid           i4 nbody            id of the nearest ancestor (or self) that has joints
body_mocapid          i4 nbody            mocap index of the body, -1 if not a mocap body
body_jntnum           i4 nbody            number of joints of the body
body_jntadr           i4 nbody            first joint of the body, -1 if none
body_dofnum           i4 nbody            number of dofs of the body
body_dofadr           i4 nbody            first dof of the body, -1 if none
body_treeid           i4 nbody            kinematic tree of the body, -1 for static bodies
body_geomnum          i4 nbody            number of geoms of the body
body_geomadr          i4 nbody            first geom of the body, -1 if none
body_simple           u1 nbody            1: diagonal inertia, sliders only; 2: also no rotation
body_sameframe        u1 nbody            inertial frame coincides with body frame (mjtSameFrame)
body_pos              f8 nbody,3          position relative to the parent body frame
body_quat             f8 nbody,4          orientation relative to the parent body frame
body_ipos             f8 nbody,3          position of the center of mass in the body frame
body_iquat            f8 nbody,4          orientation of the inertia frame in the body frame
body_mass             f8 nbody            mass
body_subtreemass      f8 nbody            mass of the body and all its descendants
body_inertia          f8 nbody,3          principal moments of inertia about the center of mass
body_invweight0       f8 nbody,2          mean inverse inertia at qpos0 (translation, rotation)
body_gravcomp         f8 nbody            gravity compensation fraction (1: full)
body_margin           f8 nbody            largest margin of the body's geoms
body_user             f8 nbody,nuser_body user numbers
body_contype          i4 nbody            OR of the contype of the body's geoms
body_conaffinity      i4 nbody            OR of the conaffinity of the body's geoms
body_bvhadr           i4 nbody            first bounding-volume node of the body, -1 if none
body_bvhnum           i4 nbody            number of bounding-volume nodes of the body
bvh_depth             i4 nbvh             depth of each node in its tree (root: 0)
bvh_child             i4 nbvh,2           children of each node within its tree, -1 if none
bvh_nodeid            i4 nbvh             geom (body) or face (mesh) of each leaf, -1 inside
bvh_aabb              f8 nbvhstatic,6     node box (center, half sizes), body inertial or mesh frame
jnt_type              i4 njnt             joint type (mjtJoint)
jnt_qposadr           i4 njnt             start address in qpos
jnt_dofadr            i4 njnt             start address in qvel
jnt_bodyid            i4 njnt             body the joint belongs to
jnt_actuatorid        i4 njnt             actuator of the joint when actuatorfrclimited, else -1
jnt_group             i4 njnt             visibility group
jnt_limited           b1 njnt             joint has limits
jnt_actfrclimited     b1 njnt             actuator force on the joint is clamped
jnt_actgravcomp       b1 njnt             gravity compensation is applied through actuators
jnt_solref            f8 njnt,mjNREF      constraint solver reference for limits
jnt_solimp            f8 njnt,mjNIMP      constraint solver impedance for limits
jnt_pos               f8 njnt,3           anchor position in the body frame
jnt_axis              f8 njnt,3           axis in the body frame (hinge and slide)
jnt_stiffness         f8 njnt             spring stiffness
jnt_stiffnesspoly     f8 njnt,mjNPOLY     higher-order spring stiffness coefficients
jnt_range             f8 njnt,2           joint limits
jnt_actfrcrange       f8 njnt,2           range of the total actuator force on the joint
jnt_margin            f8 njnt             distance at which the limit becomes active
jnt_user              f8 njnt,nuser_jnt   user numbers
dof_bodyid            i4 nv               body of the dof
dof_jntid             i4 nv               joint of the dof
dof_parentid          i4 nv               parent dof in the tree, -1 at a root
dof_treeid            i4 nv               kinematic tree of the dof
dof_Madr              i4 nv               address of the diagonal element in the sparse inertia
dof_simplenum         i4 nv               number of consecutive simple dofs starting here
dof_solref            f8 nv,mjNREF        constraint solver reference for friction loss
dof_solimp            f8 nv,mjNIMP        constraint solver impedance for friction loss
dof_frictionloss      f8 nv               dry friction force
dof_armature          f8 nv               rotor inertia added to the mass matrix diagonal
dof_damping           f8 nv               viscous damping coefficient
dof_dampingpoly       f8 nv,mjNPOLY       higher-order damping coefficients
dof_invweight0        f8 nv               inverse inertia at qpos0
dof_M0                f8 nv               diagonal of the inertia matrix at qpos0
dof_length            f8 nv               length scale of the dof (1 for translation)
tree_bodyadr          i4 ntree            first body of the tree
tree_bodynum          i4 ntree            number of bodies of the tree
tree_dofadr           i4 ntree            first dof of the tree
tree_dofnum           i4 ntree            number of dofs of the tree
tree_sleep_policy     i4 ntree            sleep policy of the tree (mjtSleepPolicy)
geom_type             i4 ngeom            geometric type (mjtGeom)
geom_contype          i4 ngeom            contact type bits
geom_conaffinity      i4 ngeom            contact affinity bits
geom_condim           i4 ngeom            contact dimensionality (1, 3, 4, 6)
geom_bodyid           i4 ngeom            body the geom belongs to
geom_dataid           i4 ngeom            mesh or height field id, -1 if none
geom_matid            i4 ngeom            material id, -1 if none
geom_group            i4 ngeom            visibility group
geom_priority         i4 ngeom            contact parameter priority
geom_sameframe        u1 ngeom            geom frame is the body or inertial frame (mjtSameFrame)
geom_solmix           f8 ngeom            mixing weight of solver parameters in contacts
geom_solref           f8 ngeom,mjNREF     constraint solver reference for contacts
geom_solimp           f8 ngeom,mjNIMP     constraint solver impedance for contacts
geom_size             f8 ngeom,3          type-specific size parameters
geom_aabb             f8 ngeom,6          bounding box in the geom frame (center, half sizes)
geom_rbound           f8 ngeom            radius of the bounding sphere about the geom center
geom_pos              f8 ngeom,3          position relative to the body frame
geom_quat             f8 ngeom,4          orientation relative to the body frame
geom_friction         f8 ngeom,3          sliding, torsional and rolling friction
geom_margin           f8 ngeom            distance at which contacts become active
geom_gap              f8 ngeom            contacts within margin-gap are ignored by the solver
geom_surfacevel       f8 ngeom,6          prescribed surface velocity
geom_adhesion         f8 ngeom            adhesion force scale
geom_fluid            f8 ngeom,mjNFLUID   parameters of the ellipsoid fluid model
geom_user             f8 ngeom,nuser_geom user numbers
geom_rgba             f4 ngeom,4          color and transparency
site_type             i4 nsite            geometric type for rendering (mjtGeom)
site_bodyid           i4 nsite            body the site belongs to
site_dataid           i4 nsite            mesh id for rendering, -1 if none
site_matid            i4 nsite            material id, -1 if none
site_group            i4 nsite            visibility group
site_sameframe        u1 nsite            site frame coincides with body or inertial frame
site_size             f8 nsite,3          geom size for rendering
site_pos              f8 nsite,3          position relative to the body frame
site_quat             f8 nsite,4          orientation relative to the body frame
site_user             f8 nsite,nuser_site user numbers
site_rgba             f4 nsite,4          color and transparency
cam_mode              i4 ncam             tracking mode (mjtCamLight)
cam_bodyid            i4 ncam             body the camera is attached to
cam_targetbodyid      i4 ncam             target body for targeting modes, -1 if none
cam_pos               f8 ncam,3           position relative to the body frame
cam_quat              f8 ncam,4           orientation relative to the body frame
cam_poscom0           f8 ncam,3           global position relative to the subtree com at qpos0
cam_pos0              f8 ncam,3           global position relative to the body at qpos0
cam_mat0              f8 ncam,9           global orientation at qpos0
cam_projection        i4 ncam             projection type (perspective or orthographic)
cam_fovy              f8 ncam             vertical field of view (degrees) or height (orthographic)
cam_ipd               f8 ncam             inter-pupillary distance
cam_resolution        i4 ncam,2           resolution in pixels
cam_output            i4 ncam             output types of the camera sensor
cam_sensorsize        f4 ncam,2           sensor size
cam_intrinsic         f4 ncam,4           focal length and principal point
cam_user              f8 ncam,nuser_cam   user numbers
light_mode            i4 nlight           tracking mode (mjtCamLight)
light_bodyid          i4 nlight           body the light is attached to
light_targetbodyid    i4 nlight           target body for targeting modes, -1 if none
light_type            i4 nlight           light type (spot, directional, point, image)
light_texid           i4 nlight           texture id for image lights
light_castshadow      b1 nlight           light casts shadows
light_bulbradius      f4 nlight           bulb radius for soft shadows
light_intensity       f4 nlight           intensity in candela
light_range           f4 nlight           range of effectiveness
light_active          b1 nlight           light is on
light_pos             f8 nlight,3         position relative to the body frame
light_dir             f8 nlight,3         direction relative to the body frame
light_poscom0         f8 nlight,3         global position relative to the subtree com at qpos0
light_pos0            f8 nlight,3         global position relative to the body at qpos0
light_dir0            f8 nlight,3         global direction at qpos0
light_attenuation     f4 nlight,3         constant, linear and quadratic attenuation
light_cutoff          f4 nlight           spot cutoff angle
light_softness        f4 nlight           shadow softness
light_exponent        f4 nlight           spot exponent
light_ambient         f4 nlight,3         ambient color
light_diffuse         f4 nlight,3         diffuse color
light_specular        f4 nlight,3         specular color
mesh_vertadr          i4 nmesh            first vertex of the mesh
mesh_vertnum          i4 nmesh            number of vertices of the mesh
mesh_faceadr          i4 nmesh            first face of the mesh
mesh_facenum          i4 nmesh            number of faces of the mesh
mesh_vert             f4 nmeshvert,3      vertex positions in the mesh frame
mesh_face             i4 nmeshface,3      triangle vertex indices
mesh_scale            f8 nmesh,3          scaling applied to the asset
mesh_pos              f8 nmesh,3          translation applied to the asset vertices
mesh_quat             f8 nmesh,4          rotation applied to the asset vertices
mesh_bvhadr           i4 nmesh            first bounding-volume node of the mesh's faces
mesh_bvhnum           i4 nmesh            number of bounding-volume nodes of the mesh
mesh_graphadr         i4 nmesh            address of the mesh's convex-hull graph, -1 if none
mesh_graph            i4 nmeshgraph       convex-hull graphs of all meshes (vertex neighbour lists)
mesh_extrema          i4 nmesh,27         hull vertex (local id) extreme along each of 27 directions
mesh_polynum          i4 nmesh            number of polygons of the mesh
mesh_polyadr          i4 nmesh            first polygon of the mesh
mesh_polynormal       f8 nmeshpoly,3      polygon normals in the mesh frame
mesh_polyvertadr      i4 nmeshpoly        first vertex of the polygon in mesh_polyvert
mesh_polyvertnum      i4 nmeshpoly        number of vertices of the polygon
mesh_polyvert         i4 nmeshpolyvert    polygon vertex ids (mesh-local), counterclockwise
mesh_polymapadr       i4 nmeshvert        first entry of the vertex in mesh_polymap
mesh_polymapnum       i4 nmeshvert        number of polygons containing the vertex
mesh_polymap          i4 nmeshpolymap     polygon ids (mesh-local) containing each vertex
mesh_normaladr        i4 nmesh            first normal of the mesh
mesh_normalnum        i4 nmesh            number of normals of the mesh
mesh_texcoordadr      i4 nmesh            first texture coordinate of the mesh, -1 if none
mesh_texcoordnum      i4 nmesh            number of texture coordinates of the mesh
mesh_normal           f4 nmeshnormal,3    normals of all meshes
mesh_texcoord         f4 nmeshtexcoord,2  texture coordinates of all meshes
mesh_facenormal       i4 nmeshface,3      normal indices of each face
mesh_facetexcoord     i4 nmeshface,3      texture coordinate indices of each face
hfield_size           f8 nhfield,4        radius x, radius y, elevation z, base depth
hfield_nrow           i4 nhfield          number of rows
hfield_ncol           i4 nhfield          number of columns
hfield_adr            i4 nhfield          start address in hfield_data
hfield_data           f4 nhfielddata      elevation samples, row-major
tex_type              i4 ntex             texture type (2d, cube, skybox)
tex_colorspace        i4 ntex             color space
tex_height            i4 ntex             rows
tex_width             i4 ntex             columns
tex_nchannel          i4 ntex             channels per pixel
tex_adr               i8 ntex             start address in tex_data
tex_data              u1 ntexdata         pixel data
mat_texid             i4 nmat,mjNTEXROLE  texture id per texture role, -1 if none
mat_texuniform        b1 nmat             texture is applied uniformly (cube mapping)
mat_texrepeat         f4 nmat,2           texture repetitions
mat_emission          f4 nmat             emission
mat_specular          f4 nmat             specularity
mat_shininess         f4 nmat             shininess
mat_reflectance       f4 nmat             reflectance
mat_metallic          f4 nmat             metallic coefficient
mat_roughness         f4 nmat             roughness coefficient
mat_rgba              f4 nmat,4           color
pair_dim              i4 npair            contact dimensionality
pair_geom1            i4 npair            first geom
pair_geom2            i4 npair            second geom
pair_signature        i4 npair            body pair signature (body1 << 16 + body2)
pair_solref           f8 npair,mjNREF     solver reference for the normal direction
pair_solreffriction   f8 npair,mjNREF     solver reference for friction directions
pair_solimp           f8 npair,mjNIMP     solver impedance
pair_margin           f8 npair            margin
pair_gap              f8 npair            gap
pair_adhesion         f8 npair            adhesion
pair_friction         f8 npair,5          tangent1, tangent2, spin, roll1, roll2 friction
exclude_signature     i4 nexclude         excluded body pair signature (body1 << 16 + body2)
eq_type               i4 neq              equality type (mjtEq)
eq_obj1id             i4 neq              first object
eq_obj2id             i4 neq              second object, -1 for the world where allowed
eq_objtype            i4 neq              object type (mjtObj)
eq_active0            b1 neq              initial activation state
eq_solref             f8 neq,mjNREF       constraint solver reference
eq_solimp             f8 neq,mjNIMP       constraint solver impedance
eq_data               f8 neq,mjNEQDATA    type-specific numeric data
tendon_adr            i4 ntendon          first wrap object of the tendon path
tendon_num            i4 ntendon          number of wrap objects of the path
tendon_matid          i4 ntendon          material id for rendering
tendon_actuatorid     i4 ntendon          actuator of the tendon when actuatorfrclimited, else -1
tendon_group          i4 ntendon          visibility group
tendon_treenum        i4 ntendon          number of trees the tendon spans
tendon_treeid         i4 ntendon,2        first two trees the tendon spans
ten_J_rownnz          i4 ntendon          nonzeros in each tendon Jacobian row
ten_J_rowadr          i4 ntendon          start of each row in ten_J
ten_J_colind          i4 nJten            dof index of each nonzero
tendon_limited        b1 ntendon          tendon has length limits
tendon_actfrclimited  b1 ntendon          actuator force on the tendon is clamped
tendon_width          f8 ntendon          width for rendering
tendon_solref_lim     f8 ntendon,mjNREF   solver reference for limits
tendon_solimp_lim     f8 ntendon,mjNIMP   solver impedance for limits
tendon_solref_fri     f8 ntendon,mjNREF   solver reference for friction loss
tendon_solimp_fri     f8 ntendon,mjNIMP   solver impedance for friction loss
tendon_range          f8 ntendon,2        length limits
tendon_actfrcrange    f8 ntendon,2        range of the total actuator force on the tendon
tendon_margin         f8 ntendon          distance at which the limit becomes active
tendon_stiffness      f8 ntendon          spring stiffness
tendon_stiffnesspoly  f8 ntendon,mjNPOLY  higher-order stiffness coefficients
tendon_damping        f8 ntendon          viscous damping
tendon_dampingpoly    f8 ntendon,mjNPOLY  higher-order damping coefficients
tendon_armature       f8 ntendon          inertia associated with the tendon velocity
tendon_frictionloss   f8 ntendon          dry friction force
tendon_lengthspring   f8 ntendon,2        spring rest length range (dead band)
tendon_length0        f8 ntendon          length at qpos0
tendon_invweight0     f8 ntendon          inverse weight at qpos0
tendon_user           f8 ntendon,nuser_tendon user numbers
tendon_rgba           f4 ntendon,4        color and transparency
wrap_type             i4 nwrap            wrap object type (mjtWrap)
wrap_objid            i4 nwrap            object id: joint, site or geom
wrap_prm              f8 nwrap            divisor, joint coefficient or side-site id
actuator_trntype      i4 nactuator        transmission type (mjtTrn)
actuator_dyntype      i4 nactuator        activation dynamics type (mjtDyn)
actuator_gaintype     i4 nactuator        gain type (mjtGain)
actuator_biastype     i4 nactuator        bias type (mjtBias)
actuator_ctrladr      i4 nactuator        first control of the actuator
actuator_ctrlnum      i4 nactuator        number of controls of the actuator
actuator_ctrlspec     i4 nactuator        control specification flags
actuator_outadr       i4 nactuator        first output of the actuator
actuator_outnum       i4 nactuator        number of outputs of the actuator
actuator_actadr       i4 nactuator        first activation state, -1 if stateless
actuator_actnum       i4 nactuator        number of activation states
actuator_trnid        i4 nactuator,2      transmission target ids
actuator_cranklength  f8 nactuator        crank length for slider-crank transmissions
actuator_dynprm       f8 nactuator,mjNDYN  activation dynamics parameters
actuator_gainprm      f8 nactuator,mjNGAIN gain parameters
actuator_biasprm      f8 nactuator,mjNBIAS bias parameters
actuator_actlimited   b1 nactuator        activation is clamped to actrange
actuator_actrange     f8 nactuator,2      activation range
actuator_actearly     b1 nactuator        force uses the next-step activation
actuator_history      i4 nactuator,2      history: samples, interpolation (0 zoh, 1 linear, 2 cubic)
actuator_historyadr   i4 nactuator        address of the actuator's history buffer, -1 if none
actuator_delay        f8 nactuator        control delay in seconds, 0 if none
actuator_damping      f8 nactuator        damping added to the transmission
actuator_dampingpoly  f8 nactuator,mjNPOLY higher-order damping coefficients
actuator_armature     f8 nactuator        armature added to the transmission
actuator_group        i4 nactuator        group, for disabling actuators
actuator_user         f8 nactuator,nuser_actuator user numbers
actuator_forcelimited b1 nactuator        force is clamped to forcerange
actuator_forcerange   f8 nactuator,2      force range
actuator_ctrllimited  b1 nu               control is clamped to ctrlrange
actuator_ctrlrange    f8 nu,2             control range
actuator_gear         f8 nout,6           transmission gear (scale and direction)
actuator_acc0         f8 nout             acceleration produced by unit force at qpos0
actuator_length0      f8 nout             transmission length at qpos0
actuator_lengthrange  f8 nout,2           feasible transmission length range
sensor_type           i4 nsensor          sensor type (mjtSensor)
sensor_datatype       i4 nsensor          output data type (mjtDataType)
sensor_needstage      i4 nsensor          stage the sensor needs (mjtStage)
sensor_objtype        i4 nsensor          type of the sensed object (mjtObj)
sensor_objid          i4 nsensor          id of the sensed object
sensor_reftype        i4 nsensor          type of the reference frame object
sensor_refid          i4 nsensor          id of the reference frame object, -1 for world
sensor_intprm         i4 nsensor,mjNSENS  integer parameters
sensor_dim            i4 nsensor          number of output numbers
sensor_adr            i4 nsensor          start address in sensordata
sensor_history        i4 nsensor,2        history: samples, interpolation (0 zoh, 1 linear, 2 cubic)
sensor_historyadr     i4 nsensor          address of the sensor's history buffer, -1 if none
sensor_delay          f8 nsensor          delay in seconds, 0 if none
sensor_interval       f8 nsensor,2        sampling period and phase in seconds
sensor_cutoff         f8 nsensor          output is clamped to +-cutoff (0: no cutoff)
sensor_noise          f8 nsensor          noise standard deviation (not applied by the engine)
sensor_user           f8 nsensor,nuser_sensor user numbers
numeric_adr           i4 nnumeric         start address in numeric_data
numeric_size          i4 nnumeric         number of values
numeric_data          f8 nnumericdata     values of all custom numeric fields
text_adr              i4 ntext            start address in text_data
text_size             i4 ntext            number of characters, terminator included
text_data             S  ntextdata        characters of all custom text fields
tuple_adr             i4 ntuple           start address in the tuple arrays
tuple_size            i4 ntuple           number of objects in the tuple
tuple_objtype         i4 ntupledata       object types (mjtObj)
tuple_objid           i4 ntupledata       object ids
tuple_objprm          f8 ntupledata       object parameters
key_time              f8 nkey             keyframe time
key_qpos              f8 nkey,nq          keyframe qpos
key_qvel              f8 nkey,nv          keyframe qvel
key_act               f8 nkey,na          keyframe act
key_mpos              f8 nkey,nmocap*3    keyframe mocap positions
key_mquat             f8 nkey,nmocap*4    keyframe mocap orientations
key_ctrl              f8 nkey,nu          keyframe controls
name_bodyadr          i4 nbody            body name start in names
name_jntadr           i4 njnt             joint name start in names
name_geomadr          i4 ngeom            geom name start in names
name_siteadr          i4 nsite            site name start in names
name_camadr           i4 ncam             camera name start in names
name_lightadr         i4 nlight           light name start in names
name_meshadr          i4 nmesh            mesh name start in names
name_hfieldadr        i4 nhfield          height field name start in names
name_texadr           i4 ntex             texture name start in names
name_matadr           i4 nmat             material name start in names
name_pairadr          i4 npair            pair name start in names
name_excludeadr       i4 nexclude         exclude name start in names
name_eqadr            i4 neq              equality name start in names
name_tendonadr        i4 ntendon          tendon name start in names
name_actuatoradr      i4 nactuator        actuator name start in names
name_sensoradr        i4 nsensor          sensor name start in names
name_numericadr       i4 nnumeric         numeric name start in names
name_textadr          i4 ntext            text name start in names
name_tupleadr         i4 ntuple           tuple name start in names
name_keyadr           i4 nkey             keyframe name start in names
names                 S  nnames           zero-terminated names of all objects
B_rownnz              i4 nbody            dofs affecting each body (ancestor dofs)
B_rowadr              i4 nbody            start of each body row in B_colind
B_colind              i4 nB               dof indices of each body row
M_rownnz              i4 nv               nonzeros in each row of the reduced inertia layout
M_rowadr              i4 nv               start of each row in M and qLD
M_colind              i4 nC               column of each nonzero (ancestors, then the diagonal)
mapM2M                i4 nC               map from the reduced layout to the legacy layout
D_rownnz              i4 nv               nonzeros in each row of the full dof-dof pattern
D_rowadr              i4 nv               start of each row of the full pattern
D_diag                i4 nv               position of the diagonal within each full row
D_colind              i4 nD               column of each nonzero of the full pattern
mapM2D                i4 nD               map from the full pattern to the reduced layout
mapD2M                i4 nC               map from the reduced layout to the full pattern
body_plugin           i4 nbody            plugin instance of the body, -1 if none
geom_plugin           i4 ngeom            plugin instance of the geom, -1 if none
actuator_plugin       i4 nactuator        plugin instance of the actuator, -1 if none
sensor_plugin         i4 nsensor          plugin instance of the sensor, -1 if none
plugin                i4 nplugin          registered plugin (its slot) of each instance
plugin_stateadr       i4 nplugin          address of the instance's state in d.plugin_state
plugin_statenum       i4 nplugin          numbers in the instance's state
plugin_attr           i1 npluginattr      config values, attribute order, each null-terminated
plugin_attradr        i4 nplugin          address of the instance's config values in plugin_attr
name_pluginadr        i4 nplugin          address of each plugin instance name
plugin_capability     i4 nplugin          (ours) mjtPluginCapabilityBit flags of its plugin
plugin_needstage      i4 nplugin          (ours) mjtStage after which its sensors are computed
plugin_fn             i8 nplugin,8        (ours) entry points of its jitted callbacks (this process)
plugin_paramadr       i4 nplugin          (ours) address of its parameters in plugin_param
plugin_paramnum       i4 nplugin          (ours) numbers in the instance's parameters
plugin_param          f8 npluginparam     (ours) numbers its plugin's init derived at load
""",
  _MODEL_PYTHON_ONLY,
)

# MjModel arrays of MuJoCo 3.17 that the compiler builds (and tests compare with MuJoCo's) but
# MjModel does not expose yet, with MuJoCo's dtypes; their dims are documentation only
COMPILER_ONLY_FIELDS = _parse("""
names_map             i4 nnames_map       hash map of the names
paths                 S  npaths           file paths of the assets
hfield_pathadr        i4 nhfield          address of the height field's path, -1 if none
mesh_pathadr          i4 nmesh            address of the mesh's path, -1 if none
tex_pathadr           i4 ntex             address of the texture's path, -1 if none
skin_pathadr          i4 nskin            address of the skin's path, -1 if none
tex_contenttypeadr    i4 ntex             address of the texture's content type, -1 if none
name_flexadr          i4 nflex            address of each flex name
name_skinadr          i4 nskin            address of each skin name
""")

# ---- MjData ----
DATA_FIELDS = _parse("""
time              f8 -              simulation time
energy            f8 2              potential and kinetic energy
ncon              i4 -              number of detected contacts
ne                i4 -              number of equality constraint rows
nf                i4 -              number of friction loss constraint rows
nl                i4 -              number of limit constraint rows
nefc              i4 -              number of constraint rows
nJ                i4 -              nonzeros in the constraint Jacobian
nA                i4 -              nonzeros in efc_AR (dual solvers only, else 0)
nY                i4 -              nonzeros in efc_Y (dual solvers and diagexact, else 0)
nisland           i4 -              number of constraint islands
nidof             i4 -              number of dofs in some island
ntree_awake       i4 -              number of awake trees (sleep.py)
nbody_awake       i4 -              number of awake and static bodies
nparent_awake     i4 -              number of bodies with an awake or static parent
nv_awake          i4 -              number of awake dofs
solver_niter      i4 mjNISLAND      solver iterations per island
solver_nnz        i4 mjNISLAND      nonzeros in the Hessian or efc_AR per island
solver_fwdinv     f8 2              forward-inverse comparison (enabled by fwdinv)
warning_number    i4 mjNWARNING     how many times each warning happened (d.warning[i].number)
warning_lastinfo  i4 mjNWARNING     info from the last warning of each kind (d.warning[i].lastinfo)
qpos              f8 nq             position
qvel              f8 nv             velocity
act               f8 na             actuator activation
qacc_warmstart    f8 nv             acceleration used to warm-start the solver
ctrl              f8 nu             control
qfrc_applied      f8 nv             applied generalized force
xfrc_applied      f8 nbody,6        applied Cartesian force and torque at the body com
eq_active         b1 neq            equality constraint is enabled
mocap_pos         f8 nmocap,3       positions of mocap bodies
mocap_quat        f8 nmocap,4       orientations of mocap bodies
qacc              f8 nv             acceleration
act_dot           f8 na             time derivative of the activation
userdata          f8 nuserdata      user data, not touched by the engine
plugin_state      f8 npluginstate   state of the plugin instances
sensordata        f8 nsensordata    sensor outputs
history           f8 nhistory       history buffers of delayed actuators and sensors
xpos              f8 nbody,3        Cartesian body position
xquat             f8 nbody,4        Cartesian body orientation
xmat              f8 nbody,9        Cartesian body orientation as a matrix
xipos             f8 nbody,3        Cartesian center of mass position
ximat             f8 nbody,9        Cartesian principal inertia frame orientation
xanchor           f8 njnt,3         Cartesian joint anchor
xaxis             f8 njnt,3         Cartesian joint axis
geom_xpos         f8 ngeom,3        Cartesian geom position
geom_xmat         f8 ngeom,9        Cartesian geom orientation
site_xpos         f8 nsite,3        Cartesian site position
site_xmat         f8 nsite,9        Cartesian site orientation
cam_xpos          f8 ncam,3         Cartesian camera position
cam_xmat          f8 ncam,9         Cartesian camera orientation
light_xpos        f8 nlight,3       Cartesian light position
light_xdir        f8 nlight,3       Cartesian light direction
subtree_com       f8 nbody,3        center of mass of each subtree
cdof              f8 nv,6           com-based motion axis of each dof (rot, lin)
cinert            f8 nbody,10       com-based body inertia and mass
ten_wrapadr       i4 ntendon        start address of the tendon path in wrap_obj/wrap_xpos
ten_wrapnum       i4 ntendon        number of path points of the tendon
ten_J             f8 nJten          sparse tendon Jacobian values
ten_length        f8 ntendon        tendon lengths
wrap_obj          i4 nwrap,2        geom id of each path point (-1: site, -2: pulley)
wrap_xpos         f8 nwrap,6        Cartesian 3D points of the tendon paths
actuator_length   f8 nout           actuator transmission lengths
moment_rownnz     i4 nout           nonzeros in each actuator moment row
moment_rowadr     i4 nout           start of each row in actuator_moment
moment_colind     i4 nJmom          dof index of each moment nonzero
actuator_moment   f8 nJmom          sparse actuator moments
crb               f8 nbody,10       com-based composite rigid body inertia
M                 f8 nC             inertia matrix in the reduced sparse layout
qLD               f8 nC             L'*D*L factorization of M in the same layout
qLDiagInv         f8 nv             inverse diagonal of D
ten_velocity      f8 ntendon        tendon velocities
actuator_velocity f8 nout           actuator velocities
cvel              f8 nbody,6        com-based velocity (rot, lin)
cdof_dot          f8 nv,6           time derivative of cdof
qfrc_bias         f8 nv             Coriolis, centrifugal and gravitational force
qfrc_spring       f8 nv             passive spring force
qfrc_damper       f8 nv             passive damper force
qfrc_gravcomp     f8 nv             passive gravity compensation force
qfrc_fluid        f8 nv             passive fluid force
qfrc_adhesion     f8 nv             adhesion actuator force
qfrc_passive      f8 nv             total passive force
subtree_linvel    f8 nbody,3        linear velocity of each subtree com
subtree_angmom    f8 nbody,3        angular momentum of each subtree about its com
actuator_force    f8 nout           actuator forces in actuation space
qfrc_actuator     f8 nv             actuator force in joint space
qfrc_smooth       f8 nv             net unconstrained force
qacc_smooth       f8 nv             unconstrained acceleration
qfrc_constraint   f8 nv             constraint force
qfrc_inverse      f8 nv             net external force from inverse dynamics
qH                f8 nC             L'*D*L factorization of the modified inertia (implicit damping)
qHDiagInv         f8 nv             inverse diagonal of the modified inertia factorization
qDeriv            f8 nD             d(qfrc_smooth)/d(qvel) in the full sparse pattern
qLU               f8 nD             sparse LU factorization of M - h*qDeriv (implicit integrator)
cacc              f8 nbody,6        com-based acceleration
cfrc_int          f8 nbody,6        com-based interaction force with the parent
cfrc_ext          f8 nbody,6        com-based external force on the body
# contacts, capacity nconcap; Python sees them through d.contact, cut to ncon
contact_dist      f8 nconcap        distance between the geoms (negative: penetration)
contact_pos       f8 nconcap,3      position of the contact point (midpoint)
contact_frame     f8 nconcap,9      contact frame; the first row is the normal, geom1 -> geom2
contact_includemargin f8 nconcap    include in the solver if dist < includemargin
contact_friction  f8 nconcap,5      tangent1, tangent2, spin, roll1, roll2 friction
contact_solref    f8 nconcap,mjNREF constraint solver reference, normal direction
contact_solreffriction f8 nconcap,mjNREF constraint solver reference, friction directions
contact_solimp    f8 nconcap,mjNIMP constraint solver impedance
contact_mu        f8 nconcap        friction of the regularized cone
contact_H         f8 nconcap,36     cone Hessian (elliptic cones, Newton solver)
contact_adhesion  f8 nconcap        adhesion force
contact_dim       i4 nconcap        contact space dimensionality (1, 3, 4 or 6)
contact_geom      i4 nconcap,2      geom ids
contact_flex      i4 nconcap,2      flex ids (-1: none)
contact_elem      i4 nconcap,2      flex element ids (-1: none)
contact_vert      i4 nconcap,2      flex vertex ids (-1: none)
contact_exclude   i4 nconcap        0: include, 1: in gap, 2: fused, 3: no dofs
contact_efc_address i4 nconcap      first constraint row of the contact (-1: none)
# constraint rows, capacity nefccap (Jacobian nonzeros nJcap); Python cuts them to nefc/nJ
efc_type          i4 nefccap        constraint type (mjtConstraint)
efc_id            i4 nefccap        id of the equality, dof, joint, tendon or contact
efc_J_rownnz      i4 nefccap        nonzeros in each Jacobian row (sparse layout)
efc_J_rowadr      i4 nefccap        start of each Jacobian row (sparse layout)
efc_J_rowsuper    i4 nefccap        rows below that share the sparsity (sparse layout)
efc_J_colind      i4 nJcap          column of each Jacobian nonzero (sparse layout)
efc_J             f8 nJcap          constraint Jacobian (dense row-major nefc x nv, or sparse)
efc_Y_rownnz      i4 nefccap        nonzeros in each row of efc_Y (sparse layout)
efc_Y_rowadr      i4 nefccap        start of each row of efc_Y (sparse layout)
efc_Y_colind      i4 nYcap          column of each nonzero of efc_Y (sparse layout)
efc_Y             f8 nYcap          J*L^-1*D^-1/2 for the dual solvers (projection.py)
efc_AR_rownnz     i4 nefccap        nonzeros in each row of efc_AR (sparse layout)
efc_AR_rowadr     i4 nefccap        start of each row of efc_AR (sparse layout)
efc_AR_colind     i4 nAcap          column of each nonzero of efc_AR (sparse layout)
efc_AR            f8 nAcap          J*M^-1*J' + diag(R) (dense nefc x nefc, or sparse)
efc_pos           f8 nefccap        constraint position (equality, limit, contact)
efc_margin        f8 nefccap        inclusion margin (contact)
efc_frictionloss  f8 nefccap        friction loss
efc_diagA         f8 nefccap        approximation to the diagonal of A
efc_KBIP          f8 nefccap,4      stiffness, damping, impedance, impedance derivative
efc_D             f8 nefccap        constraint mass
efc_R             f8 nefccap        inverse constraint mass (regularizer)
efc_vel           f8 nefccap        velocity in constraint space: J*qvel
efc_aref          f8 nefccap        reference pseudo-acceleration
efc_b             f8 nefccap        linear cost term: J*qacc_smooth - aref
efc_force         f8 nefccap        constraint force in constraint space
efc_state         i4 nefccap        constraint state (mjtConstraintState)
# sleeping trees (sleep.py)
tree_asleep       i4 ntree          <0: awake (quiet steps counted up to -1); >=0: asleep, next tree
tree_awake        i4 ntree          1 if the tree is awake
body_awake        i4 nbody          sleep state of each body (mjtSleepState)
body_awake_ind    i4 nbody          awake and static bodies, nbody_awake of them
parent_awake_ind  i4 nbody          bodies with an awake or static parent, nparent_awake of them
dof_awake_ind     i4 nv             awake dofs, nv_awake of them
# constraint islands (island.py), capacity nislandcap = ntree and nidofcap = nv; Python cuts them
# to nisland and nidof
tree_island       i4 ntree          island of each tree (-1: unconstrained)
island_ntree      i4 nislandcap     number of trees of each island
island_itreeadr   i4 nislandcap     first entry of each island in map_itree2tree
map_itree2tree    i4 ntree          trees in island-major order, unconstrained trees last
dof_island        i4 nv             island of each dof (-1: unconstrained)
island_nv         i4 nislandcap     number of dofs of each island
island_idofadr    i4 nislandcap     first entry of each island in map_idof2dof
island_dofadr     i4 nislandcap     first dof of each island
map_dof2idof      i4 nv             position of each dof in island-major order
map_idof2dof      i4 nv             dofs in island-major order, the nidof constrained ones first
efc_island        i4 nefccap        island of each row
island_ne         i4 nislandcap     number of equality rows of each island
island_nf         i4 nislandcap     number of friction loss rows of each island
island_nefc       i4 nislandcap     number of rows of each island
island_iefcadr    i4 nislandcap     first entry of each island in map_iefc2efc
map_efc2iefc      i4 nefccap        position of each row in island-major order
map_iefc2efc      i4 nefccap        rows in island-major order
iefc_type         i4 nefccap        efc_type in island-major order
iefc_id           i4 nefccap        efc_id in island-major order
iefc_frictionloss f8 nefccap        efc_frictionloss in island-major order
iefc_D            f8 nefccap        efc_D in island-major order
iefc_R            f8 nefccap        efc_R in island-major order
iefc_aref         f8 nefccap        efc_aref in island-major order
iefc_state        i4 nefccap        CG, Newton: state of each row in island-major order
iefc_force        f8 nefccap        CG, Newton: force of each row in island-major order
ifrc_smooth       f8 nidofcap       qfrc_smooth of the island dofs in island-major order
iacc_smooth       f8 nidofcap       qacc_smooth of the island dofs in island-major order
ifrc_constraint   f8 nidofcap       CG, Newton: qfrc_constraint of the island dofs
iacc              f8 nidofcap       CG, Newton: qacc of the island dofs
# solver statistics per iteration (d.solver[i]: improvement, gradient, lineslope, nactive,
# nchange, neval, nupdate)
solver_stat       f8 mjNSOLVER*mjNISLAND,7 solver statistics of each iteration
# scratch buffers (not MuJoCo fields; hidden from Python): one per purpose, named where used
# constraint islands (island.py)
scratch_island_parent i4 ntree          union-find parent of each tree (-1: unconstrained)
scratch_efc_tree      i4 nefccap        first dynamic tree of each row's constraint
scratch_island_count  i4 nislandcap     entries placed in each island so far
# integrators (forward.py)
scratch_rk4_qpos      f8 4,nq           RK4: positions of the four stages
scratch_rk4_qvel      f8 4,nv           RK4: velocities of the four stages
scratch_rk4_act       f8 4,na           RK4: activations of the four stages
scratch_rk4_qacc      f8 4,nv           RK4: accelerations of the four stages
scratch_rk4_act_dot   f8 4,na           RK4: activation derivatives of the four stages
scratch_rk4_dqpos     f8 nv             RK4: position increment (a velocity)
scratch_rk4_dqvel     f8 nv             RK4: velocity increment
scratch_rk4_dact      f8 na             RK4: activation increment
scratch_step_qacc     f8 nv             Euler and implicit: the acceleration the step integrates
scratch_step_qfrc     f8 nv             implicit: the force of the implicit solve
scratch_lu_remaining  i4 nv             implicit: entries of each row left to factor (sparse LU)
# inverse dynamics (inverse.py)
scratch_inv_qacc      f8 nv             the discrete-time qacc, restored at the end
scratch_inv_qfrc      f8 nv             discrete to continuous qacc: force of the discrete qacc
scratch_inv_Ma        f8 nv             M*qacc
# tendons, transmissions, tendon bias (tendon.py, smooth.py)
scratch_jac_a         f8 3,nv           translational Jacobian of a point (segment start, site)
scratch_jac_b         f8 3,nv           translational Jacobian of a second point (segment end)
scratch_jac_c         f8 3,nv           translational Jacobian of a third point (crank)
scratch_jac_rot       f8 3,nv           rotational Jacobian
scratch_jac_ref       f8 3,nv           Jacobian of a reference site
scratch_ctrl          f8 nu             actuation: the controls actuators act on (delayed, clamped)
scratch_dof_row       f8 nv             a dense row over dofs (tendon row, moment, Jacobian dot)
scratch_dof_tmp       f8 nv             a second dense row over dofs
scratch_ten_force     f8 ntendon        the actuator forces along each tendon (cfrc_ext)
# velocity derivatives of the implicit integrators (derivative.py)
scratch_fluid_J       f8 6*nv           fluid derivative: the 6 Jacobian rows of one body
scratch_fluid_tmp     f8 6*nv           fluid derivative: workspace of the same size
scratch_fluid_chain   i4 nv             fluid derivative: dofs of the body's kinematic chain
scratch_fluid_rowind  i4 6*nv           fluid derivative: column of each sparse Jacobian entry
scratch_Dcdofdot      f8 6*nD           RNE derivative: d cdof_dot / d qvel
scratch_Dcvel         f8 6*nB           RNE derivative: d cvel / d qvel
scratch_Dcacc         f8 6*nB           RNE derivative: d cacc / d qvel
scratch_Dcfrcbody     f8 6*nB           RNE derivative: d cfrc_body / d qvel
# recursive Newton-Euler (smooth.py)
scratch_rne_cacc      f8 nbody,6        body accelerations
scratch_rne_cfrc      f8 nbody,6        body forces
# collision (collision/)
scratch_con           f8 mjMAXCONPAIR,13 narrowphase output of one geom pair: dist, pos, frame
scratch_aabb          f8 nbody,6        broadphase: world-aligned box of each body (min, max)
scratch_bp_order      i4 nbody          broadphase: bodies sorted along the sweep axis
scratch_bp_count      i4 1              broadphase: bodies in scratch_bp_order (0: build it anew)
scratch_bp_active     i4 nbody          broadphase: bodies whose box overlaps the sweep point
scratch_bodypair      i4 npaircap       broadphase: candidate body pairs (b1 << 16) + b2
scratch_bp_bucket     i4 nbody          broadphase: each first body's next place in the sorted pairs
scratch_ccd           f8 16384          convex collision workspace (GJK/EPA polytope, contacts)
scratch_ccdi          i4 4096           convex collision integer workspace
# rays (ray.py)
scratch_ray_ba        f8 ngeom,4        multiRay: each geom's azimuth and elevation bounds
scratch_ray_skip      i4 ngeom          multiRay: geoms no ray of the source hits (eliminated)
# constraints and solvers (constraint.py, solver*.py)
scratch_jar           f8 nefccap        J*qacc - aref of every row
scratch_Jv            f8 nefccap        CG/Newton: J*search; PGS warm start: AR*force
scratch_quad          f8 3,nefccap      CG/Newton: each row's cost along the search line
scratch_oldstate      f8 nefccap        row states of the previous iteration
scratch_hess_D        f8 nefccap        Newton: weight of each row in the Hessian
scratch_ARinv         f8 nefccap        PGS: 1/diag(AR)
scratch_efc_rows      i4 nefccap        PGS, noslip: rows 0..nefc-1 (a monolithic solve)
scratch_pgs_prev      f8 nefccap        PGS: forces before the sweep
scratch_pgs_start     f8 nefccap        PGS: first row of each block, by row
scratch_pgs_blocks    f8 nefccap        PGS: block sizes in sweep order
scratch_sqrt_inv_d    f8 nv             projection: 1/sqrt of the inertia factor's diagonal
scratch_Y_marker      i4 nv             projection: the last row of Y that counted each dof
scratch_AR_diag       i4 nefccap        projection: place of each row's diagonal in sparse efc_AR
scratch_AR_work       i4 2*nefccap      projection: efc_AR pattern workspaces
scratch_AR_buffer     f8 8*nefccap      projection: up to 8 rows of efc_AR spread over the rows
scratch_Ma            f8 nv             M*qacc
scratch_Mv            f8 nv             CG/Newton: M*search
scratch_grad          f8 nv             CG/Newton: gradient
scratch_Mgrad         f8 nv             CG/Newton: preconditioned gradient
scratch_search        f8 nv             CG/Newton: search direction
scratch_gradold       f8 nv             CG: previous gradient
scratch_Mgradold      f8 nv             CG: previous preconditioned gradient
scratch_Mgraddif      f8 nv             CG: Mgrad - Mgradold
scratch_H             f8 nHcap          Newton: Hessian, then its Cholesky factor (sparse: H)
scratch_Hcone         f8 nHcap          Newton: factor with the cone Hessians (sparse: L, Lcone)
scratch_H_ind         i4 2*nHcap        sparse Newton: columns of H and rows of H' (H's pattern)
scratch_L_ind         i4 3*nHcap        sparse Newton: columns of L and L', L' entries' place in L
scratch_hess_rows     i4 9,nv           sparse Newton: rownnz, rowadr of H, H', L, L'; update costs
scratch_cone_fold     i4 1              elliptic Newton: cone terms folded into H? (-1: undecided)
scratch_cone_W        f8 nJconecap      elliptic Newton: J, cone rows times their local factor
scratch_cone_WT       f8 nJconecap      elliptic Newton: that matrix transposed (J's pattern)
scratch_hess_work     i4 6,nv           sparse Newton: workspaces of the pattern computations
scratch_hess_rowstart i4 nefccap        sparse Newton: first entry of each row of J not yet passed
scratch_hess_dense    f8 8*nv           sparse Newton: rows of H (up to 8) or L spread over the dofs
scratch_LTJ           f8 6*nv           sparse elliptic Newton: a contact's rows of L'*J
# one island's blocks of M and J for CG/Newton (every dof and row when solved monolithically)
scratch_iM_rownnz     i4 nv             nonzeros of each row of the island's M
scratch_iM_rowadr     i4 nv             first entry of each row of the island's M
scratch_iM_colind     i4 nC             column (island dof) of each entry of the island's M
scratch_iM            f8 nC             the island's block of M (reduced layout, as d.M)
scratch_iLD           f8 nC             the island's block of qLD
scratch_iLDiagInv     f8 nv             the island's qLDiagInv
scratch_iJ            f8 nJcap          the island's rows of J (dense rows x island dofs, or CSR)
scratch_iJ_rownnz     i4 nefccap        sparse: nonzeros of each island row
scratch_iJ_rowadr     i4 nefccap        sparse: first entry of each island row
scratch_iJ_colind     i4 nJcap          sparse: column (island dof) of each entry
scratch_iJ_rowsuper   i4 nefccap        sparse: rows after each island row with its columns
scratch_JT            f8 nJcap          sparse CG/Newton: the island's J transposed (CSR, dof rows)
scratch_JT_rownnz     i4 nv             sparse CG/Newton: entries of each row of the transpose
scratch_JT_rowadr     i4 nv             sparse CG/Newton: first entry of each row of the transpose
scratch_JT_colind     i4 nJcap          sparse CG/Newton: row of J of each entry of the transpose
scratch_JT_rowsuper   i4 nv             sparse Newton: rows after each row of J' with its columns
""")

INTERNAL_PREFIX = "scratch_"
# model sizes and fields of ours that MuJoCo's MjModel does not have ("(ours)" above)
ENGINE_ONLY_MODEL = frozenset(
  (
    "npluginparam",
    "plugin_capability",
    "plugin_needstage",
    "plugin_fn",
    "plugin_paramadr",
    "plugin_paramnum",
    "plugin_param",
  )
)
# data fields that are not MjData attributes: warning_* (d.warning), contact_* (d.contact),
# solver_stat (d.solver) and the scratch workspaces
DATA_NON_ATTRIBUTE_PREFIXES = ("warning_", "contact_", "solver_stat", INTERNAL_PREFIX)

MODEL_SIZE_NAMES = tuple(f.name for f in MODEL_SIZES)

# ---- struct code generation ----
# numba caches only functions defined in real source files, so the struct types are
# generated into engine/_structs.py (committed; a test checks it is up to date).
# Regenerate with `python -m engine.fields`.

_NB_DTYPES = {
  "f8": "float64",
  "f4": "float32",
  "i4": "int32",
  "i8": "int64",
  "u1": "uint8",
  "i1": "int8",
  "b1": "boolean",
}

STRUCTS = (
  # (type name, rows, extra leading members as (name, numba type expression))
  ("Option", OPTION_FIELDS, ()),
  ("Statistic", STATISTIC_FIELDS, ()),
  ("Model", MODEL_FIELDS, (("opt", "OPTION_TYPE"), ("stat", "STATISTIC_TYPE"))),
  ("Data", DATA_FIELDS, ()),
)


def struct_members(rows, extra=(), sizes=()) -> list:
  """(name, numba type expression) of every member of a generated struct."""
  members = list(extra) + [(f.name, "types.int64") for f in sizes]
  for f in rows:
    if not f.kernel:
      continue
    layout = ", ".join([":"] * (max(len(f.dims), 1) - 1) + ["::1"])
    members.append((f.name, f"types.{_NB_DTYPES[f.dtype]}[{layout}]"))
  return members


# capacities whose arrays hold the rows in use (d.ncon contacts, d.nefc constraint rows and
# their sparse entries), the rest unused
ROW_CAPACITIES = ("nconcap", "nefccap", "nJcap", "nYcap", "nAcap", "nJconecap")


def in_use_rows(field) -> bool:
  """Whether the field's first dimension is one of ROW_CAPACITIES."""
  return bool(field.dims) and field.dims[0] in ROW_CAPACITIES


def generate_structs_source() -> str:
  """Source of engine/_structs.py."""
  out = [
    '"""numba struct types of Option, Statistic, Model and Data (engine/_stage.py builds their',
    "handles).",
    "",
    "GENERATED by `python -m engine.fields` from engine/fields.py: do not edit by hand.",
    '"""',
    "",
    "from numba.core import types",
    "from numba.experimental import structref",
    "",
    "from engine._jit import define_handle_boxing",
    "from engine._jit import jit",
    "from engine._jit import register_handle",
    "from engine._jit import zero",
    "",
  ]
  for name, rows, extra in STRUCTS:
    sizes = MODEL_SIZES if name == "Model" else ()
    members = struct_members(rows, extra, sizes)
    upper = name.upper()
    out += [
      "",
      "@register_handle",
      f"class {name}Type(types.StructRef):",
      "  def preprocess_fields(self, fields):",
      "    return tuple((n, types.unliteral(t)) for n, t in fields)",
      "",
      "  def __init__(self, fields):",
      "    super().__init__(fields)",
      "    # a short name (it is also the type's identity: one instance per class): numba's",
      "    # default lists every field, and it went into every symbol name of the machine code",
      "    # (64 kB each, 60 % of the cache)",
      f'    self.name = "numjoco.{name}Type"',
      "",
      "",
      f"class {name}Struct(structref.StructRefProxy):",
      f'  """Opaque numba handle of a {name}; use the Python wrapper\'s arrays instead."""',
      "",
      "",
      f"define_handle_boxing({name}Type, {name}Struct)",
      f"{upper}_TYPE = {name}Type(",
      "  [",
    ]
    out += [f'    ("{n}", {t}),' for n, t in members]
    out += ["  ]", ")", f"{upper}_MEMBERS = ("]
    out += [f'  "{n}",' for n, _ in members]
    out += [")", ""]
    if name == "Data":
      out += [
        "",
        "@jit",
        "def zero_data(d):",
        '  """Clears every MjData array but the contact and constraint rows (mj_resetData',
        "  starts here): those are written before they are read, as in MuJoCo's arena,",
        "  and their capacity may be far more than a step uses; untouched, it costs no",
        '  memory."""',
      ]
      out += [f"  zero(d.{f.name})" for f in rows if not in_use_rows(f)]
  # laid out as `ruff format` lays it out (the CI checks the format)
  return "\n".join(out) + "\n"


if __name__ == "__main__":
  import pathlib

  path = pathlib.Path(__file__).with_name("_structs.py")
  path.write_text(generate_structs_source())
  print(f"wrote {path}")
