"""MuJoCo's enums and numeric constants, with MuJoCo's names and values.

Each enum is an `enum.IntEnum` named as in MuJoCo (`mjtJoint.mjJNT_HINGE`), and every
member is also a plain module-level int (`mjJNT_HINGE`), which is what numba kernels
read. Values follow the pinned oracle release (mujoco 3.17); a test checks each one.
"""

import enum

# ---- numeric constants ----

mjPI = 3.141592653589793  # pi
mjMAXVAL = 10000000000.0  # larger magnitudes in qpos/qvel/qacc count as divergence
mjMINVAL = 1e-15  # smallest value treated as nonzero in divisions and norms
mjMINMU = 1e-05  # smallest friction coefficient allowed
mjMINIMP = 0.0001  # smallest constraint impedance
mjMAXIMP = 0.9999  # largest constraint impedance
mjMAXCONPAIR = 50  # most contacts one geom pair can produce
mjMAXTREEDEPTH = 50  # deepest bounding-volume hierarchy
mjMAXFLEXNODES = 27  # most interpolation nodes in a flex
mjMINAWAKE = 10  # steps a tree stays awake before it may sleep
mjNEQDATA = 12  # length of eq_data per equality
mjNDYN = 10  # length of actuator_dynprm
mjNGAIN = 10  # length of actuator_gainprm
mjNBIAS = 10  # length of actuator_biasprm
mjNFLUID = 12  # length of geom_fluid
mjNREF = 2  # length of solref
mjNIMP = 5  # length of solimp
mjNSOLVER = 200  # solver iterations with statistics kept, per island
mjNISLAND = 20  # islands with solver statistics kept
mjNSENS = 3  # length of sensor_intprm
mjNPOLY = 2  # higher-order terms in the *_stiffnesspoly/*_dampingpoly fields
mjNGROUP = 6  # visibility groups of geoms, sites, joints and skins
mjMAXLIGHT = 100  # most lights in an mjvScene
mjMAXLINE = 100  # most lines in an mjvFigure
mjMAXLINEPNT = 1001  # most points in an mjvFigure line
mjMAXOVERLAY = 500  # most characters in an overlay text
mjMAXPLANEGRID = 200  # most grid divisions of a drawn plane

# names of the option and visualisation flags, as MuJoCo's simulate shows them
mjDISABLESTRING = (
  "Constraint", "Equality", "Frictionloss", "Limit", "Contact", "Spring", "Damper", "Gravity",
  "Clampctrl", "Warmstart", "Filterparent", "Actuation", "Refsafe", "Sensor", "Midphase",
  "Eulerdamp", "AutoReset", "NativeCCD", "Island", "MultiCCD",
)  # fmt: skip
mjENABLESTRING = ("Override", "Energy", "Fwdinv", "InvDiscrete", "Sleep", "DiagExact", "IPC")
mjFRAMESTRING = ("None", "Body", "Geom", "Site", "Camera", "Light", "Contact", "World")
mjLABELSTRING = (
  "None", "Body", "Joint", "Geom", "Site", "Camera", "Light", "Tendon", "Actuator", "Constraint",
  "Flex", "Skin", "Selection", "SelPoint", "Contact", "ContactForce", "Island",
)  # fmt: skip
mjTIMERSTRING = (
  "step", "forward", "inverse", "position", "velocity", "actuation", "constraint", "advance",
  "pos_kinematics", "pos_inertia", "pos_collision", "pos_make", "pos_project", "col_broadphase",
  "col_narrowphase",
)  # fmt: skip
# (name, default on/off, keyboard shortcut) of each mjtRndFlag / mjtVisFlag
mjRNDSTRING = (
  ("Shadow", "1", "S"), ("Wireframe", "0", "W"), ("Reflection", "1", "R"), ("Additive", "0", "L"),
  ("Skybox", "1", "K"), ("Fog", "0", "G"), ("Haze", "1", "/"), ("Depth", "0", ""),
  ("Segment", "0", ","), ("Id Color", "0", ""), ("Cull Face", "1", ""),
)  # fmt: skip
mjVISSTRING = (
  ("Convex Hull", "0", "H"), ("Texture", "1", "X"), ("Joint", "0", "J"), ("Camera", "0", "Q"),
  ("Actuator", "0", "U"), ("Activation", "0", ","), ("Light", "0", "Z"), ("Tendon", "1", "V"),
  ("Range Finder", "1", "Y"), ("Equality", "0", "E"), ("Inertia", "0", "I"),
  ("Scale Inertia", "0", "'"), ("Perturb Force", "0", "B"), ("Perturb Object", "1", "O"),
  ("Contact Point", "0", "C"), ("Island", "0", "N"), ("Contact Force", "0", "F"),
  ("Contact Split", "0", "P"), ("Transparent", "0", "T"), ("Auto Connect", "0", "A"),
  ("Center of Mass", "0", "M"), ("Select Point", "0", ""), ("Static Body", "1", "D"),
  ("Skin", "1", ";"), ("Flex Vert", "0", ""), ("Flex Edge", "1", ""), ("Flex Face", "0", ""),
  ("Flex Skin", "1", ""), ("Body Tree", "0", "`"), ("Mesh Tree", "0", "\\"),
  ("SDF iters", "0", ""),
)  # fmt: skip


# Bits of opt.disableflags: each switches off one pipeline feature.
class mjtDisableBit(enum.IntEnum):
  mjDSBL_CONSTRAINT = 1 << 0
  mjDSBL_EQUALITY = 1 << 1
  mjDSBL_FRICTIONLOSS = 1 << 2
  mjDSBL_LIMIT = 1 << 3
  mjDSBL_CONTACT = 1 << 4
  mjDSBL_SPRING = 1 << 5
  mjDSBL_DAMPER = 1 << 6
  mjDSBL_GRAVITY = 1 << 7
  mjDSBL_CLAMPCTRL = 1 << 8
  mjDSBL_WARMSTART = 1 << 9
  mjDSBL_FILTERPARENT = 1 << 10
  mjDSBL_ACTUATION = 1 << 11
  mjDSBL_REFSAFE = 1 << 12
  mjDSBL_SENSOR = 1 << 13
  mjDSBL_MIDPHASE = 1 << 14
  mjDSBL_EULERDAMP = 1 << 15
  mjDSBL_AUTORESET = 1 << 16
  mjDSBL_NATIVECCD = 1 << 17
  mjDSBL_ISLAND = 1 << 18
  mjDSBL_MULTICCD = 1 << 19
  mjNDISABLE = 20


# Bits of opt.enableflags: each switches on one optional feature.
class mjtEnableBit(enum.IntEnum):
  mjENBL_OVERRIDE = 1 << 0
  mjENBL_ENERGY = 1 << 1
  mjENBL_FWDINV = 1 << 2
  mjENBL_INVDISCRETE = 1 << 3
  mjENBL_SLEEP = 1 << 4
  mjENBL_DIAGEXACT = 1 << 5
  mjENBL_IPC = 1 << 6
  mjNENABLE = 7


# Time integrator selected by opt.integrator.
class mjtIntegrator(enum.IntEnum):
  mjINT_EULER = 0
  mjINT_RK4 = 1
  mjINT_IMPLICIT = 2
  mjINT_IMPLICITFAST = 3
  mjINT_DISCRETE = 4


# Friction cone model: linearised pyramid or exact ellipse.
class mjtCone(enum.IntEnum):
  mjCONE_PYRAMIDAL = 0
  mjCONE_ELLIPTIC = 1


# Constraint Jacobian storage: dense, sparse, or chosen from nv.
class mjtJacobian(enum.IntEnum):
  mjJAC_DENSE = 0
  mjJAC_SPARSE = 1
  mjJAC_AUTO = 2


# Constraint solver algorithm selected by opt.solver.
class mjtSolver(enum.IntEnum):
  mjSOL_PGS = 0
  mjSOL_CG = 1
  mjSOL_NEWTON = 2


# Joint kind; fixes how many qpos (7/4/1/1) and dofs (6/3/1/1) a joint owns.
class mjtJoint(enum.IntEnum):
  mjJNT_FREE = 0
  mjJNT_BALL = 1
  mjJNT_SLIDE = 2
  mjJNT_HINGE = 3


# Geom shape; values from 100 on are decorative shapes used only for drawing.
class mjtGeom(enum.IntEnum):
  mjGEOM_PLANE = 0
  mjGEOM_HFIELD = 1
  mjGEOM_SPHERE = 2
  mjGEOM_CAPSULE = 3
  mjGEOM_ELLIPSOID = 4
  mjGEOM_CYLINDER = 5
  mjGEOM_BOX = 6
  mjGEOM_MESH = 7
  mjGEOM_SDF = 8
  mjNGEOMTYPES = 9
  mjGEOM_ARROW = 100
  mjGEOM_ARROW1 = 101
  mjGEOM_ARROW2 = 102
  mjGEOM_LINE = 103
  mjGEOM_LINEBOX = 104
  mjGEOM_FLEX = 105
  mjGEOM_SKIN = 106
  mjGEOM_LABEL = 107
  mjGEOM_TRIANGLE = 108
  mjGEOM_NONE = 1001


# Camera projection: perspective or orthographic.
class mjtProjection(enum.IntEnum):
  mjPROJ_PERSPECTIVE = 0
  mjPROJ_ORTHOGRAPHIC = 1


# How a camera or light follows the model (fixed, tracking, targeting).
class mjtCamLight(enum.IntEnum):
  mjCAMLIGHT_FIXED = 0
  mjCAMLIGHT_TRACK = 1
  mjCAMLIGHT_TRACKCOM = 2
  mjCAMLIGHT_TARGETBODY = 3
  mjCAMLIGHT_TARGETBODYCOM = 4


# Light source kind.
class mjtLightType(enum.IntEnum):
  mjLIGHT_SPOT = 0
  mjLIGHT_DIRECTIONAL = 1
  mjLIGHT_POINT = 2
  mjLIGHT_IMAGE = 3


# Texture layout: flat 2D, cube map, or skybox.
class mjtTexture(enum.IntEnum):
  mjTEXTURE_2D = 0
  mjTEXTURE_CUBE = 1
  mjTEXTURE_SKYBOX = 2


# What a material texture slot is used for when rendering.
class mjtTextureRole(enum.IntEnum):
  mjTEXROLE_USER = 0
  mjTEXROLE_RGB = 1
  mjTEXROLE_OCCLUSION = 2
  mjTEXROLE_ROUGHNESS = 3
  mjTEXROLE_METALLIC = 4
  mjTEXROLE_NORMAL = 5
  mjTEXROLE_OPACITY = 6
  mjTEXROLE_EMISSIVE = 7
  mjTEXROLE_RGBA = 8
  mjTEXROLE_ORM = 9
  mjNTEXROLE = 10


# Colour space a texture file is interpreted in.
class mjtColorSpace(enum.IntEnum):
  mjCOLORSPACE_AUTO = 0
  mjCOLORSPACE_LINEAR = 1
  mjCOLORSPACE_SRGB = 2


# Equality constraint kind.
class mjtEq(enum.IntEnum):
  mjEQ_CONNECT = 0
  mjEQ_WELD = 1
  mjEQ_JOINT = 2
  mjEQ_TENDON = 3
  mjEQ_FLEX = 4
  mjEQ_FLEXVERT = 5
  mjEQ_FLEXSTRAIN = 6
  mjEQ_DISTANCE = 7


# Object a spatial tendon path passes through or wraps around.
class mjtWrap(enum.IntEnum):
  mjWRAP_NONE = 0
  mjWRAP_JOINT = 1
  mjWRAP_PULLEY = 2
  mjWRAP_SITE = 3
  mjWRAP_SPHERE = 4
  mjWRAP_CYLINDER = 5


# Actuator transmission: what the actuator force is applied to.
class mjtTrn(enum.IntEnum):
  mjTRN_JOINT = 0
  mjTRN_JOINTINPARENT = 1
  mjTRN_SLIDERCRANK = 2
  mjTRN_TENDON = 3
  mjTRN_SITE = 4
  mjTRN_BODY = 5
  mjTRN_SO3 = 6
  mjTRN_UNDEFINED = 1000


# Actuator activation dynamics (how act evolves in time).
class mjtDyn(enum.IntEnum):
  mjDYN_NONE = 0
  mjDYN_INTEGRATOR = 1
  mjDYN_FILTER = 2
  mjDYN_FILTEREXACT = 3
  mjDYN_MUSCLE = 4
  mjDYN_DCMOTOR = 5
  mjDYN_PID = 6
  mjDYN_USER = 7


# Actuator gain model (the term multiplying ctrl or act).
class mjtGain(enum.IntEnum):
  mjGAIN_FIXED = 0
  mjGAIN_AFFINE = 1
  mjGAIN_MUSCLE = 2
  mjGAIN_DCMOTOR = 3
  mjGAIN_SO3 = 4
  mjGAIN_PID = 5
  mjGAIN_USER = 6


# Actuator bias model (the term added to the gain term).
class mjtBias(enum.IntEnum):
  mjBIAS_NONE = 0
  mjBIAS_AFFINE = 1
  mjBIAS_MUSCLE = 2
  mjBIAS_DCMOTOR = 3
  mjBIAS_SO3 = 4
  mjBIAS_USER = 5


# Bits selecting the chart used for orientation controls.
class mjtCtrlChart(enum.IntEnum):
  mjCHART_EXPMAP = 1 << 0
  mjCHART_QUAT = 1 << 1


# Bits naming which inputs an actuator's control vector carries.
class mjtCtrlInput(enum.IntEnum):
  mjINPUT_POS = 1 << 0
  mjINPUT_VEL = 1 << 1
  mjINPUT_FF = 1 << 2
  mjINPUT_VOLTAGE = 1 << 3
  mjINPUT_NONE = 1 << 4
  mjINPUT_PRESSURE = 1 << 5


# Actuator shortcut element the actuator was declared with.
class mjtActuator(enum.IntEnum):
  mjACTUATOR_GENERAL = 0
  mjACTUATOR_MOTOR = 1
  mjACTUATOR_POSITION = 2
  mjACTUATOR_VELOCITY = 3
  mjACTUATOR_INTVELOCITY = 4
  mjACTUATOR_DAMPER = 5
  mjACTUATOR_CYLINDER = 6
  mjACTUATOR_MUSCLE = 7
  mjACTUATOR_ADHESION = 8
  mjACTUATOR_PID = 9
  mjACTUATOR_ORIENTATION = 10
  mjACTUATOR_DCMOTOR = 11


# Object type, as used by name lookup and by sensor/frame references.
class mjtObj(enum.IntEnum):
  mjOBJ_UNKNOWN = 0
  mjOBJ_BODY = 1
  mjOBJ_XBODY = 2
  mjOBJ_JOINT = 3
  mjOBJ_DOF = 4
  mjOBJ_GEOM = 5
  mjOBJ_SITE = 6
  mjOBJ_CAMERA = 7
  mjOBJ_LIGHT = 8
  mjOBJ_FLEX = 9
  mjOBJ_MESH = 10
  mjOBJ_SKIN = 11
  mjOBJ_HFIELD = 12
  mjOBJ_TEXTURE = 13
  mjOBJ_MATERIAL = 14
  mjOBJ_PAIR = 15
  mjOBJ_EXCLUDE = 16
  mjOBJ_EQUALITY = 17
  mjOBJ_TENDON = 18
  mjOBJ_ACTUATOR = 19
  mjOBJ_SENSOR = 20
  mjOBJ_NUMERIC = 21
  mjOBJ_TEXT = 22
  mjOBJ_TUPLE = 23
  mjOBJ_KEY = 24
  mjOBJ_PLUGIN = 25
  mjNOBJECT = 26
  mjOBJ_FRAME = 100
  mjOBJ_DEFAULT = 101
  mjOBJ_MODEL = 102


# Sensor kind; decides the stage it is computed in and its dimension.
class mjtSensor(enum.IntEnum):
  mjSENS_TOUCH = 0
  mjSENS_ACCELEROMETER = 1
  mjSENS_VELOCIMETER = 2
  mjSENS_GYRO = 3
  mjSENS_FORCE = 4
  mjSENS_TORQUE = 5
  mjSENS_MAGNETOMETER = 6
  mjSENS_RANGEFINDER = 7
  mjSENS_CAMPROJECTION = 8
  mjSENS_JOINTPOS = 9
  mjSENS_JOINTVEL = 10
  mjSENS_TENDONPOS = 11
  mjSENS_TENDONVEL = 12
  mjSENS_ACTUATORPOS = 13
  mjSENS_ACTUATORVEL = 14
  mjSENS_ACTUATORFRC = 15
  mjSENS_JOINTACTFRC = 16
  mjSENS_TENDONACTFRC = 17
  mjSENS_BALLQUAT = 18
  mjSENS_BALLANGVEL = 19
  mjSENS_JOINTLIMITPOS = 20
  mjSENS_JOINTLIMITVEL = 21
  mjSENS_JOINTLIMITFRC = 22
  mjSENS_TENDONLIMITPOS = 23
  mjSENS_TENDONLIMITVEL = 24
  mjSENS_TENDONLIMITFRC = 25
  mjSENS_FRAMEPOS = 26
  mjSENS_FRAMEQUAT = 27
  mjSENS_FRAMEXAXIS = 28
  mjSENS_FRAMEYAXIS = 29
  mjSENS_FRAMEZAXIS = 30
  mjSENS_FRAMELINVEL = 31
  mjSENS_FRAMEANGVEL = 32
  mjSENS_FRAMELINACC = 33
  mjSENS_FRAMEANGACC = 34
  mjSENS_SUBTREECOM = 35
  mjSENS_SUBTREELINVEL = 36
  mjSENS_SUBTREEANGMOM = 37
  mjSENS_INSIDESITE = 38
  mjSENS_GEOMDIST = 39
  mjSENS_GEOMNORMAL = 40
  mjSENS_GEOMFROMTO = 41
  mjSENS_CONTACT = 42
  mjSENS_E_POTENTIAL = 43
  mjSENS_E_KINETIC = 44
  mjSENS_CLOCK = 45
  mjSENS_TACTILE = 46
  mjSENS_PLUGIN = 47
  mjSENS_USER = 48


# Pipeline stage a quantity depends on (position, velocity, acceleration).
class mjtStage(enum.IntEnum):
  mjSTAGE_NONE = 0
  mjSTAGE_POS = 1
  mjSTAGE_VEL = 2
  mjSTAGE_ACC = 3


# Kind of data a sensor outputs (plain, positive, unit axis, quaternion).
class mjtDataType(enum.IntEnum):
  mjDATATYPE_REAL = 0
  mjDATATYPE_POSITIVE = 1
  mjDATATYPE_AXIS = 2
  mjDATATYPE_QUATERNION = 3


# Fields a contact sensor can report, one bit per field in its dataspec.
class mjtConDataField(enum.IntEnum):
  mjCONDATA_FOUND = 0
  mjCONDATA_FORCE = 1
  mjCONDATA_TORQUE = 2
  mjCONDATA_DIST = 3
  mjCONDATA_POS = 4
  mjCONDATA_NORMAL = 5
  mjCONDATA_TANGENT = 6
  mjCONDATA_LINVEL = 7
  mjCONDATA_ANGVEL = 8
  mjNCONDATA = 9


# Fields a ray-casting sensor can report.
class mjtRayDataField(enum.IntEnum):
  mjRAYDATA_DIST = 0
  mjRAYDATA_DIR = 1
  mjRAYDATA_ORIGIN = 2
  mjRAYDATA_POINT = 3
  mjRAYDATA_NORMAL = 4
  mjRAYDATA_DEPTH = 5
  mjNRAYDATA = 6


# Bits choosing which images a camera sensor produces.
class mjtCamOutBit(enum.IntEnum):
  mjCAMOUT_RGB = 1 << 0
  mjCAMOUT_DEPTH = 1 << 1
  mjCAMOUT_DIST = 1 << 2
  mjCAMOUT_NORMAL = 1 << 3
  mjCAMOUT_SEG = 1 << 4
  mjNCAMOUT = 5


# Geom/site frame that coincides with its body frame (lets kinematics skip work).
class mjtSameFrame(enum.IntEnum):
  mjSAMEFRAME_NONE = 0
  mjSAMEFRAME_BODY = 1
  mjSAMEFRAME_INERTIA = 2
  mjSAMEFRAME_BODYROT = 3
  mjSAMEFRAME_INERTIAROT = 4


# Whether a kinematic tree may be put to sleep.
class mjtSleepPolicy(enum.IntEnum):
  mjSLEEP_AUTO = 0
  mjSLEEP_AUTO_NEVER = 1
  mjSLEEP_AUTO_ALLOWED = 2
  mjSLEEP_NEVER = 3
  mjSLEEP_ALLOWED = 4
  mjSLEEP_INIT = 5


# Sleep state of a tree or body.
class mjtSleepState(enum.IntEnum):
  mjS_STATIC = -1
  mjS_ASLEEP = 0
  mjS_AWAKE = 1


# Which actuators get their length range computed at compile time.
class mjtLRMode(enum.IntEnum):
  mjLRMODE_NONE = 0
  mjLRMODE_MUSCLE = 1
  mjLRMODE_MUSCLEUSER = 2
  mjLRMODE_ALL = 3


# Self-collision mode of a flex.
class mjtFlexSelf(enum.IntEnum):
  mjFLEXSELF_NONE = 0
  mjFLEXSELF_NARROW = 1
  mjFLEXSELF_BVH = 2
  mjFLEXSELF_SAP = 3
  mjFLEXSELF_AUTO = 4


# How signed distance fields are combined in SDF collisions.
class mjtSDFType(enum.IntEnum):
  mjSDFTYPE_SINGLE = 0
  mjSDFTYPE_INTERSECTION = 1
  mjSDFTYPE_MIDSURFACE = 2
  mjSDFTYPE_COLLISION = 3


# Bits naming the roles an engine plugin can take.
class mjtPluginCapabilityBit(enum.IntEnum):
  mjPLUGIN_ACTUATOR = 1 << 0
  mjPLUGIN_SENSOR = 1 << 1
  mjPLUGIN_PASSIVE = 1 << 2
  mjPLUGIN_SDF = 1 << 3


# Bits selecting components of the simulation state for get/set state.
class mjtState(enum.IntEnum):
  mjSTATE_TIME = 1 << 0
  mjSTATE_QPOS = 1 << 1
  mjSTATE_QVEL = 1 << 2
  mjSTATE_ACT = 1 << 3
  mjSTATE_HISTORY = 1 << 4
  mjSTATE_WARMSTART = 1 << 5
  mjSTATE_CTRL = 1 << 6
  mjSTATE_QFRC_APPLIED = 1 << 7
  mjSTATE_XFRC_APPLIED = 1 << 8
  mjSTATE_EQ_ACTIVE = 1 << 9
  mjSTATE_MOCAP_POS = 1 << 10
  mjSTATE_MOCAP_QUAT = 1 << 11
  mjSTATE_USERDATA = 1 << 12
  mjSTATE_PLUGIN = 1 << 13
  mjNSTATE = 14
  mjSTATE_PHYSICS = mjSTATE_QPOS | mjSTATE_QVEL | mjSTATE_ACT | mjSTATE_HISTORY
  mjSTATE_FULLPHYSICS = (
    mjSTATE_TIME | mjSTATE_QPOS | mjSTATE_QVEL | mjSTATE_ACT | mjSTATE_HISTORY | mjSTATE_PLUGIN
  )
  mjSTATE_USER = (
    mjSTATE_CTRL
    | mjSTATE_QFRC_APPLIED
    | mjSTATE_XFRC_APPLIED
    | mjSTATE_EQ_ACTIVE
    | mjSTATE_MOCAP_POS
    | mjSTATE_MOCAP_QUAT
    | mjSTATE_USERDATA
  )
  mjSTATE_INTEGRATION = (
    mjSTATE_TIME
    | mjSTATE_QPOS
    | mjSTATE_QVEL
    | mjSTATE_ACT
    | mjSTATE_HISTORY
    | mjSTATE_WARMSTART
    | mjSTATE_CTRL
    | mjSTATE_QFRC_APPLIED
    | mjSTATE_XFRC_APPLIED
    | mjSTATE_EQ_ACTIVE
    | mjSTATE_MOCAP_POS
    | mjSTATE_MOCAP_QUAT
    | mjSTATE_USERDATA
    | mjSTATE_PLUGIN
  )


# Kind of a constraint row in d.efc_type.
class mjtConstraint(enum.IntEnum):
  mjCNSTR_EQUALITY = 0
  mjCNSTR_FRICTION_DOF = 1
  mjCNSTR_FRICTION_TENDON = 2
  mjCNSTR_LIMIT_JOINT = 3
  mjCNSTR_LIMIT_TENDON = 4
  mjCNSTR_CONTACT_FRICTIONLESS = 5
  mjCNSTR_CONTACT_PYRAMIDAL = 6
  mjCNSTR_CONTACT_ELLIPTIC = 7


# State of a constraint row after solving, in d.efc_state.
class mjtConstraintState(enum.IntEnum):
  mjCNSTRSTATE_SATISFIED = 0
  mjCNSTRSTATE_QUADRATIC = 1
  mjCNSTRSTATE_LINEARNEG = 2
  mjCNSTRSTATE_LINEARPOS = 3
  mjCNSTRSTATE_CONE = 4


# Warning kinds counted in d.warning.
class mjtWarning(enum.IntEnum):
  mjWARN_INERTIA = 0
  mjWARN_CONTACTFULL = 1
  mjWARN_CNSTRFULL = 2
  mjWARN_BADQPOS = 3
  mjWARN_BADQVEL = 4
  mjWARN_BADQACC = 5
  mjWARN_BADCTRL = 6
  mjNWARNING = 7


# Profiling timers in d.timer.
class mjtTimer(enum.IntEnum):
  mjTIMER_STEP = 0
  mjTIMER_FORWARD = 1
  mjTIMER_INVERSE = 2
  mjTIMER_POSITION = 3
  mjTIMER_VELOCITY = 4
  mjTIMER_ACTUATION = 5
  mjTIMER_CONSTRAINT = 6
  mjTIMER_ADVANCE = 7
  mjTIMER_POS_KINEMATICS = 8
  mjTIMER_POS_INERTIA = 9
  mjTIMER_POS_COLLISION = 10
  mjTIMER_POS_MAKE = 11
  mjTIMER_POS_PROJECT = 12
  mjTIMER_COL_BROAD = 13
  mjTIMER_COL_NARROW = 14
  mjNTIMER = 15


# How a geom's inertia is computed: solid volume or thin shell.
class mjtGeomInertia(enum.IntEnum):
  mjINERTIA_VOLUME = 0
  mjINERTIA_SHELL = 1


# How a mesh's inertia is computed.
class mjtMeshInertia(enum.IntEnum):
  mjMESH_INERTIA_CONVEX = 0
  mjMESH_INERTIA_EXACT = 1
  mjMESH_INERTIA_LEGACY = 2
  mjMESH_INERTIA_SHELL = 3


# Whether body inertia is inferred from its geoms.
class mjtInertiaFromGeom(enum.IntEnum):
  mjINERTIAFROMGEOM_FALSE = 0
  mjINERTIAFROMGEOM_TRUE = 1
  mjINERTIAFROMGEOM_AUTO = 2


# Tri-state for the 'limited' attributes: false, true, or inferred from range.
class mjtLimited(enum.IntEnum):
  mjLIMITED_FALSE = 0
  mjLIMITED_TRUE = 1
  mjLIMITED_AUTO = 2


# Tri-state for aligning free joints with the body inertia frame.
class mjtAlignFree(enum.IntEnum):
  mjALIGNFREE_FALSE = 0
  mjALIGNFREE_TRUE = 1
  mjALIGNFREE_AUTO = 2


# Procedural texture generator.
class mjtBuiltin(enum.IntEnum):
  mjBUILTIN_NONE = 0
  mjBUILTIN_GRADIENT = 1
  mjBUILTIN_CHECKER = 2
  mjBUILTIN_FLAT = 3


# Marks drawn over a procedural texture.
class mjtMark(enum.IntEnum):
  mjMARK_NONE = 0
  mjMARK_EDGE = 1
  mjMARK_CROSS = 2
  mjMARK_RANDOM = 3


# Bits selecting geom categories (static, dynamic, decoration) to draw.
class mjtCatBit(enum.IntEnum):
  mjCAT_STATIC = 1 << 0
  mjCAT_DYNAMIC = 1 << 1
  mjCAT_DECOR = 1 << 2
  mjCAT_ALL = mjCAT_STATIC | mjCAT_DYNAMIC | mjCAT_DECOR


# Bits of the mouse perturbation mode (translate, rotate).
class mjtPertBit(enum.IntEnum):
  mjPERT_TRANSLATE = 1 << 0
  mjPERT_ROTATE = 1 << 1


# Abstract camera mode of the visualiser.
class mjtCamera(enum.IntEnum):
  mjCAMERA_FREE = 0
  mjCAMERA_TRACKING = 1
  mjCAMERA_FIXED = 2
  mjCAMERA_USER = 3


# Which coordinate frames the visualiser draws.
class mjtFrame(enum.IntEnum):
  mjFRAME_NONE = 0
  mjFRAME_BODY = 1
  mjFRAME_GEOM = 2
  mjFRAME_SITE = 3
  mjFRAME_CAMERA = 4
  mjFRAME_LIGHT = 5
  mjFRAME_CONTACT = 6
  mjFRAME_WORLD = 7
  mjNFRAME = 8


# Which object labels the visualiser draws.
class mjtLabel(enum.IntEnum):
  mjLABEL_NONE = 0
  mjLABEL_BODY = 1
  mjLABEL_JOINT = 2
  mjLABEL_GEOM = 3
  mjLABEL_SITE = 4
  mjLABEL_CAMERA = 5
  mjLABEL_LIGHT = 6
  mjLABEL_TENDON = 7
  mjLABEL_ACTUATOR = 8
  mjLABEL_CONSTRAINT = 9
  mjLABEL_FLEX = 10
  mjLABEL_SKIN = 11
  mjLABEL_SELECTION = 12
  mjLABEL_SELPNT = 13
  mjLABEL_CONTACTPOINT = 14
  mjLABEL_CONTACTFORCE = 15
  mjLABEL_ISLAND = 16
  mjNLABEL = 17


# Indices into the visualiser's on/off flags (scene_option.flags).
class mjtVisFlag(enum.IntEnum):
  mjVIS_CONVEXHULL = 0
  mjVIS_TEXTURE = 1
  mjVIS_JOINT = 2
  mjVIS_CAMERA = 3
  mjVIS_ACTUATOR = 4
  mjVIS_ACTIVATION = 5
  mjVIS_LIGHT = 6
  mjVIS_TENDON = 7
  mjVIS_RANGEFINDER = 8
  mjVIS_CONSTRAINT = 9
  mjVIS_INERTIA = 10
  mjVIS_SCLINERTIA = 11
  mjVIS_PERTFORCE = 12
  mjVIS_PERTOBJ = 13
  mjVIS_CONTACTPOINT = 14
  mjVIS_ISLAND = 15
  mjVIS_CONTACTFORCE = 16
  mjVIS_CONTACTSPLIT = 17
  mjVIS_TRANSPARENT = 18
  mjVIS_AUTOCONNECT = 19
  mjVIS_COM = 20
  mjVIS_SELECT = 21
  mjVIS_STATIC = 22
  mjVIS_SKIN = 23
  mjVIS_FLEXVERT = 24
  mjVIS_FLEXEDGE = 25
  mjVIS_FLEXFACE = 26
  mjVIS_FLEXSKIN = 27
  mjVIS_BODYBVH = 28
  mjVIS_MESHBVH = 29
  mjVIS_SDFITER = 30
  mjNVISFLAG = 31


# Indices into the renderer's on/off flags.
class mjtRndFlag(enum.IntEnum):
  mjRND_SHADOW = 0
  mjRND_WIREFRAME = 1
  mjRND_REFLECTION = 2
  mjRND_ADDITIVE = 3
  mjRND_SKYBOX = 4
  mjRND_FOG = 5
  mjRND_HAZE = 6
  mjRND_DEPTH = 7
  mjRND_SEGMENT = 8
  mjRND_IDCOLOR = 9
  mjRND_CULL_FACE = 10
  mjNRNDFLAG = 11


# Framebuffer the renderer draws into.
class mjtFramebuffer(enum.IntEnum):
  mjFB_WINDOW = 0
  mjFB_OFFSCREEN = 1


# Depth mapping of the renderer's depth buffer.
class mjtDepthMap(enum.IntEnum):
  mjDEPTH_ZERONEAR = 0
  mjDEPTH_ZEROFAR = 1


# Font sizes, in percent of the normal size.
class mjtFontScale(enum.IntEnum):
  mjFONTSCALE_50 = 50
  mjFONTSCALE_100 = 100
  mjFONTSCALE_150 = 150
  mjFONTSCALE_200 = 200
  mjFONTSCALE_250 = 250
  mjFONTSCALE_300 = 300


# Font types of text overlays.
class mjtFont(enum.IntEnum):
  mjFONT_NORMAL = 0
  mjFONT_SHADOW = 1
  mjFONT_BIG = 2


# Where a text overlay goes in its viewport.
class mjtGridPos(enum.IntEnum):
  mjGRID_TOPLEFT = 0
  mjGRID_TOPRIGHT = 1
  mjGRID_BOTTOMLEFT = 2
  mjGRID_BOTTOMRIGHT = 3
  mjGRID_TOP = 4
  mjGRID_BOTTOM = 5
  mjGRID_LEFT = 6
  mjGRID_RIGHT = 7


# Stereo rendering mode.
class mjtStereo(enum.IntEnum):
  mjSTEREO_NONE = 0
  mjSTEREO_QUADBUFFERED = 1
  mjSTEREO_SIDEBYSIDE = 2


# Mouse buttons of MuJoCo's UI events.
class mjtButton(enum.IntEnum):
  mjBUTTON_NONE = 0
  mjBUTTON_LEFT = 1
  mjBUTTON_RIGHT = 2
  mjBUTTON_MIDDLE = 3


# Event types of MuJoCo's UI.
class mjtEvent(enum.IntEnum):
  mjEVENT_NONE = 0
  mjEVENT_MOVE = 1
  mjEVENT_PRESS = 2
  mjEVENT_RELEASE = 3
  mjEVENT_SCROLL = 4
  mjEVENT_KEY = 5
  mjEVENT_RESIZE = 6
  mjEVENT_REDRAW = 7
  mjEVENT_FILESDROP = 8


# Item types of MuJoCo's UI sections.
class mjtItem(enum.IntEnum):
  mjITEM_END = -2
  mjITEM_SECTION = -1
  mjITEM_SEPARATOR = 0
  mjITEM_STATIC = 1
  mjITEM_BUTTON = 2
  mjITEM_CHECKINT = 3
  mjITEM_CHECKBYTE = 4
  mjITEM_RADIO = 5
  mjITEM_RADIOLINE = 6
  mjITEM_SELECT = 7
  mjITEM_SLIDERINT = 8
  mjITEM_SLIDERNUM = 9
  mjITEM_EDITINT = 10
  mjITEM_EDITNUM = 11
  mjITEM_EDITFLOAT = 12
  mjITEM_EDITTXT = 13
  mjNITEM = 14


# States of a MuJoCo UI section.
class mjtSection(enum.IntEnum):
  mjSECT_CLOSED = 0
  mjSECT_OPEN = 1
  mjSECT_FIXED = 2


# Mouse actions that move a camera, a body or a perturbation (mjv_moveCamera, ...).
class mjtMouse(enum.IntEnum):
  mjMOUSE_NONE = 0
  mjMOUSE_ROTATE_V = 1
  mjMOUSE_ROTATE_H = 2
  mjMOUSE_MOVE_V = 3
  mjMOUSE_MOVE_H = 4
  mjMOUSE_ZOOM = 5
  mjMOUSE_MOVE_V_REL = 6
  mjMOUSE_MOVE_H_REL = 7
  mjMOUSE_TURN_V = 8
  mjMOUSE_TURN_H = 9


# Compiler timers.
class mjtCTimer(enum.IntEnum):
  mjCTIMER_TOTAL = 0
  mjCTIMER_ASSETS = 1
  mjCTIMER_TEXTURE = 2
  mjCTIMER_MESH_LOAD = 3
  mjCTIMER_MESH_HULL = 4
  mjCTIMER_MESH_POLYGON = 5
  mjCTIMER_MESH_INERTIA = 6
  mjCTIMER_MESH_BVH = 7
  mjCTIMER_MESH_OCTREE = 8
  mjNCTIMER = 9


# What attaching a model does when names conflict (MjSpec).
class mjtConflict(enum.IntEnum):
  mjCONFLICT_WARNING = 0
  mjCONFLICT_MERGE = 1
  mjCONFLICT_ERROR = 2


# Whether assets are embedded in a saved model (MjSpec).
class mjtEmbed(enum.IntEnum):
  mjEMBED_FALSE = 0
  mjEMBED_TRUE = 1
  mjEMBED_AUTO = 2


# Cross-section of a flex cable.
class mjtFlexSection(enum.IntEnum):
  mjFLEXSECTION_CIRCLE = 0
  mjFLEXSECTION_BOX = 1


# Severity of a log message.
class mjtLogLevel(enum.IntEnum):
  mjLOG_DEBUG = 0
  mjLOG_INFO = 1
  mjLOG_WARNING = 2
  mjLOG_ERROR = 3


# Topics of MuJoCo's log.
class mjtLogTopic(enum.IntEnum):
  mjTOPIC_NONE = 0
  mjTOPIC_TIME_STP = 1
  mjTOPIC_TIME_CMP = 2
  mjTOPIC_SLEEP = 3
  mjNTOPIC = 3


# Meshes the compiler can generate (MjSpec).
class mjtMeshBuiltin(enum.IntEnum):
  mjMESH_BUILTIN_NONE = 0
  mjMESH_BUILTIN_SPHERE = 1
  mjMESH_BUILTIN_HEMISPHERE = 2
  mjMESH_BUILTIN_CONE = 3
  mjMESH_BUILTIN_SUPERSPHERE = 4
  mjMESH_BUILTIN_SUPERTORUS = 5
  mjMESH_BUILTIN_WEDGE = 6
  mjMESH_BUILTIN_PLATE = 7
  mjMESH_BUILTIN_GRID = 8
  mjMESH_BUILTIN_BOX = 9
  mjMESH_BUILTIN_CYLINDER = 10
  mjMESH_BUILTIN_ELLIPSOID = 11
  mjMESH_BUILTIN_SQUARE = 12
  mjMESH_BUILTIN_DISC = 13


# Ways to give an orientation (MjSpec).
class mjtOrientation(enum.IntEnum):
  mjORIENTATION_QUAT = 0
  mjORIENTATION_AXISANGLE = 1
  mjORIENTATION_XYAXES = 2
  mjORIENTATION_ZAXIS = 3
  mjORIENTATION_EULER = 4


# What a renderer passes through unchanged.
class mjtPassthrough(enum.IntEnum):
  mjPASSTHROUGH_NONE = 0
  mjPASSTHROUGH_TEXTURES = 1


# How attached models are scaled (MjSpec).
class mjtScaling(enum.IntEnum):
  mjSCALING_SIMILAR = 0
  mjSCALING_GEOMETRY = 1


# ---- plain int constants for numba kernels ----

ENUMS = (
  mjtDisableBit,
  mjtEnableBit,
  mjtIntegrator,
  mjtCone,
  mjtJacobian,
  mjtSolver,
  mjtJoint,
  mjtGeom,
  mjtProjection,
  mjtCamLight,
  mjtLightType,
  mjtTexture,
  mjtTextureRole,
  mjtColorSpace,
  mjtEq,
  mjtWrap,
  mjtTrn,
  mjtDyn,
  mjtGain,
  mjtBias,
  mjtCtrlChart,
  mjtCtrlInput,
  mjtActuator,
  mjtObj,
  mjtSensor,
  mjtStage,
  mjtDataType,
  mjtConDataField,
  mjtRayDataField,
  mjtCamOutBit,
  mjtSameFrame,
  mjtSleepPolicy,
  mjtSleepState,
  mjtLRMode,
  mjtFlexSelf,
  mjtSDFType,
  mjtPluginCapabilityBit,
  mjtState,
  mjtConstraint,
  mjtConstraintState,
  mjtWarning,
  mjtTimer,
  mjtGeomInertia,
  mjtMeshInertia,
  mjtInertiaFromGeom,
  mjtLimited,
  mjtAlignFree,
  mjtBuiltin,
  mjtMark,
  mjtCatBit,
  mjtPertBit,
  mjtCamera,
  mjtFrame,
  mjtLabel,
  mjtVisFlag,
  mjtRndFlag,
  mjtFramebuffer,
  mjtDepthMap,
  mjtFontScale,
  mjtFont,
  mjtGridPos,
  mjtStereo,
  mjtButton,
  mjtEvent,
  mjtItem,
  mjtSection,
  mjtMouse,
  mjtCTimer,
  mjtConflict,
  mjtEmbed,
  mjtFlexSection,
  mjtLogLevel,
  mjtLogTopic,
  mjtMeshBuiltin,
  mjtOrientation,
  mjtPassthrough,
  mjtScaling,
)

# every member, e.g. mjJNT_HINGE, as a plain int in this module's namespace
for _enum in ENUMS:
  for _name, _member in _enum.__members__.items():
    globals()[_name] = int(_member)
del _enum, _name, _member


# `from engine.enums import *` exports the mjt enums and mj* constants only.
__all__ = sorted(name for name in dir() if name.startswith("mj"))
