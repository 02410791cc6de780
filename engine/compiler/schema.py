"""The MJCF language definition: elements, children, attributes, types, defaults, namespaces.

This module is data. `ELEMENTS` maps an element key to its `Element` spec. Keys are unique; the
XML tag is the last path component of the key ('tendon/spatial/site' has tag 'site'), so the same
tag can mean different elements in different places (a <joint> in a body, in a fixed tendon, in
an <equality>, in a <default>). The compiler (engine/compiler/) and the PyMJCF-like object model
(mjcf/) both read this table, so they can never disagree about the language.

The table is written in a small line-based notation, parsed once at import:

  @key [tag=xml_tag] [ns=namespace] [unsupported]   starts an element
    attr  type  [= default]  [!req] [!nodef]         one attribute
    use group                                         splice an attribute group
    exclusive a b c                                   at most one of these may be given
    + childkey card                                   allowed child; card in ? * R
                                                      (at most one, any number, recursive)

Attribute types:
  real, real[3], real[1..3], real[]   float(s): scalar, exactly n, between a and b, any number
  int, int[2], int[]                  integer(s), same count rules
  bool                                "true" / "false"
  kw:set                              one keyword of KEYWORDS[set]
  flags:set                           space-separated keywords of KEYWORDS[set], OR-ed
  str, file                           text; file is a path resolved against the asset dirs
  id:ns                               this element's name, declared into namespace ns
  ref:ns                              the name of an object in namespace ns

!req marks a required attribute; !nodef one that cannot be set in a <default> class. Defaults
are MuJoCo's; an attribute without a default is "not given" unless the XML sets it.
Elements marked `unsupported` are valid MJCF the engine cannot simulate yet: the compiler raises
a clear error naming them.
"""

import dataclasses
import re

# keyword sets: XML keyword -> MuJoCo enum value
KEYWORDS = {
  "bool": {"false": 0, "true": 1},
  "limited": {"false": 0, "true": 1, "auto": 2},
  "falseauto": {"false": 0, "auto": 1},
  "angle": {"radian": 0, "degree": 1},
  "coordinate": {"local": 0, "global": 1},
  "enable": {"disable": 0, "enable": 1},
  "conflict": {"warning": 0, "merge": 1, "error": 2},
  "lrmode": {"none": 0, "muscle": 1, "muscleuser": 2, "all": 3},
  "integrator": {"Euler": 0, "RK4": 1, "implicit": 2, "implicitfast": 3},
  "cone": {"pyramidal": 0, "elliptic": 1},
  "jacobian": {"dense": 0, "sparse": 1, "auto": 2},
  "solver": {"PGS": 0, "CG": 1, "Newton": 2},
  "sleep": {"auto": 0, "never": 3, "allowed": 4, "init": 5},
  "joint": {"free": 0, "ball": 1, "slide": 2, "hinge": 3},
  "geom": {
    "plane": 0,
    "hfield": 1,
    "sphere": 2,
    "capsule": 3,
    "ellipsoid": 4,
    "cylinder": 5,
    "box": 6,
    "mesh": 7,
    "sdf": 8,
  },
  "fluidshape": {"none": 0, "ellipsoid": 1},
  "projection": {"perspective": 0, "orthographic": 1},
  "camlight": {"fixed": 0, "track": 1, "trackcom": 2, "targetbody": 3, "targetbodycom": 4},
  "camout": {"rgb": 1, "depth": 2, "distance": 4, "normal": 8, "segmentation": 16},
  "lighttype": {"spot": 0, "directional": 1, "point": 2, "image": 3},
  "texture": {"2d": 0, "cube": 1, "skybox": 2},
  "colorspace": {"auto": 0, "linear": 1, "sRGB": 2},
  "builtin": {"none": 0, "gradient": 1, "checker": 2, "flat": 3},
  "mark": {"none": 0, "edge": 1, "cross": 2, "random": 3},
  "texrole": {
    "rgb": 1,
    "occlusion": 2,
    "roughness": 3,
    "metallic": 4,
    "normal": 5,
    "opacity": 6,
    "emissive": 7,
    "rgba": 8,
    "orm": 9,
  },
  "meshinertia": {"convex": 0, "exact": 1, "legacy": 2, "shell": 3},
  "meshbuiltin": {
    "none": 0,
    "sphere": 1,
    "hemisphere": 2,
    "cone": 3,
    "supertorus": 4,
    "supersphere": 5,
    "wedge": 6,
    "plate": 7,
  },
  "dyn": {
    "none": 0,
    "integrator": 1,
    "filter": 2,
    "filterexact": 3,
    "muscle": 4,
    "dcmotor": 5,
    "pid": 6,
    "user": 7,
  },
  "gain": {"fixed": 0, "affine": 1, "muscle": 2, "dcmotor": 3, "so3": 4, "pid": 5, "user": 6},
  "bias": {"none": 0, "affine": 1, "muscle": 2, "dcmotor": 3, "so3": 4, "user": 5},
  "input": {
    "pos": 1,
    "vel": 2,
    "ff": 4,
    "voltage": 8,
    "none": 16,
    "pressure": 32,
    "expmap": 1,
    "quat": 2,
  },
  "interp": {"zoh": 0, "linear": 1, "cubic": 2},
  "stage": {"none": 0, "pos": 1, "vel": 2, "acc": 3},
  "datatype": {"real": 0, "positive": 1, "axis": 2, "quaternion": 3},
  "frameobj": {"body": 1, "xbody": 2, "geom": 5, "site": 6, "camera": 7},
  "condata": {
    "found": 1,
    "force": 2,
    "torque": 4,
    "dist": 8,
    "pos": 16,
    "normal": 32,
    "tangent": 64,
    "linvel": 128,
    "angvel": 256,
  },
  "raydata": {"dist": 1, "dir": 2, "origin": 4, "point": 8, "normal": 16, "depth": 32},
  "reduce": {"none": 0, "mindist": 1, "maxforce": 2, "netforce": 3},
  "comp": {"particle": 0, "grid": 1, "rope": 2, "loop": 3, "cable": 4, "cloth": 5},
  "compkind": {"main": 0},
}

# attribute groups spliced with `use`
_GROUPS = r"""
%orientation
  quat         real[4]   = 1 0 0 0
  axisangle    real[4]
  xyaxes       real[6]
  zaxis        real[3]
  euler        real[3]
  exclusive quat axisangle xyaxes zaxis euler

%actuator_base
  name         id:actuator
  class        ref:class
  group        int       = 0
  nsample      int       = 0
  interp       kw:interp = zoh
  delay        real      = 0
  ctrlrange    real[2]   = 0 0
  user         real[]

%actuator_dynamics
  lengthrange  real[2]   = 0 0     !nodef
  gear         real[1..6] = 1 0 0 0 0 0
  damping      real[1..3] = 0 0 0
  armature     real      = 0
  cranklength  real      = 0

%transmission
  joint         ref:joint  !nodef
  jointinparent ref:joint  !nodef
  tendon        ref:tendon !nodef
  slidersite    ref:site   !nodef
  cranksite     ref:site   !nodef
  site          ref:site   !nodef
  refsite       ref:site   !nodef

%limits
  ctrllimited  kw:limited = auto
  forcelimited kw:limited = auto
  forcerange   real[2]    = 0 0

%sensor_base
  name         id:sensor
  nsample      int       = 0
  interp       kw:interp = zoh
  delay        real      = 0
  interval     real[1..2] = 0 0
  cutoff       real      = 0
  noise        real      = 0
  user         real[]

%frame_obj
  objtype      kw:frameobj !req
  objname      str         !req

%frame_ref
  reftype      kw:frameobj
  refname      str

%geom_pair
  geom1        ref:geom
  geom2        ref:geom
  body1        ref:body
  body2        ref:body

%equality_base
  name         id:equality
  class        ref:class
  active       bool       = true
  solref       real[1..2] = 0.02 1
  solimp       real[1..5] = 0.9 0.95 0.001 0.5 2

%tendon_common
  name         id:tendon
  class        ref:class
  group        int        = 0
  limited      kw:limited = auto
  actuatorfrclimited kw:limited = auto
  range        real[2]    = 0 0
  actuatorfrcrange real[2] = 0 0
  solreflimit  real[1..2] = 0.02 1
  solimplimit  real[1..5] = 0.9 0.95 0.001 0.5 2
  solreffriction real[1..2] = 0.02 1
  solimpfriction real[1..5] = 0.9 0.95 0.001 0.5 2
  frictionloss real       = 0
  springlength real[1..2] = -1 -1
  margin       real       = 0
  stiffness    real[1..3] = 0 0 0
  damping      real[1..3] = 0 0 0
  armature     real       = 0
  user         real[]

%plugin_ref
  plugin       str
  instance     ref:instance

%body_children
  + body R
  + frame R
  + replicate *
  + geom *
  + site *
  + camera *
  + light *
  + attach *
  + body/plugin *
  + composite *
  + flexcomp *
"""

_ELEMENTS = r"""
@mujoco
  model        str
  + compiler *
  + option *
  + size *
  + statistic *
  + visual *
  + default R
  + extension *
  + custom *
  + asset *
  + worldbody *
  + deformable *
  + contact *
  + equality *
  + tendon *
  + actuator *
  + sensor *
  + keyframe *

@compiler
  autolimits      bool     = true
  boundmass       real     = 0
  boundinertia    real     = 0
  settotalmass    real     = -1
  balanceinertia  bool     = false
  strippath       bool     = false
  coordinate      kw:coordinate = local
  angle           kw:angle = degree
  fitaabb         bool     = false
  eulerseq        str      = xyz
  meshdir         str
  texturedir      str
  assetdir        str
  discardvisual   bool     = false
  usethread       bool     = true
  fusestatic      bool     = false
  inertiafromgeom kw:limited = auto
  inertiagrouprange int[2] = 0 5
  saveinertial    bool     = false
  alignfree       bool     = false
  conflict        kw:conflict
  passthrough     bool     = false
  savecanonical   bool     = false
  savecompiled    bool     = false
  + compiler/lengthrange ?

@compiler/lengthrange
  mode         kw:lrmode = muscle
  useexisting  bool      = true
  uselimit     bool      = false
  accel        real      = 20
  maxforce     real      = 0
  timeconst    real      = 1
  timestep     real      = 0.01
  inttotal     real      = 10
  interval     real      = 2
  tolrange     real      = 0.05

@option
  timestep          real      = 0.002
  impratio          real      = 1
  tolerance         real      = 1e-8
  ls_tolerance      real      = 0.01
  noslip_tolerance  real      = 1e-6
  ccd_tolerance     real      = 1e-6
  sleep_tolerance   real      = 0.001
  gravity           real[3]   = 0 0 -9.81
  wind              real[3]   = 0 0 0
  magnetic          real[3]   = 0 -0.5 0
  density           real      = 0
  viscosity         real      = 0
  o_margin          real      = 0
  o_solref          real[1..2] = 0.02 1
  o_solimp          real[1..5] = 0.9 0.95 0.001 0.5 2
  o_friction        real[1..5] = 1 1 0.005 0.0001 0.0001
  integrator        kw:integrator = Euler
  cone              kw:cone   = pyramidal
  jacobian          kw:jacobian = auto
  solver            kw:solver = Newton
  iterations        int       = 100
  ls_iterations     int       = 50
  noslip_iterations int       = 0
  ccd_iterations    int       = 35
  sdf_iterations    int       = 10
  sdf_initpoints    int       = 40
  actuatorgroupdisable int[0..31]
  + option/flag ?

@option/flag
  constraint   kw:enable
  equality     kw:enable
  frictionloss kw:enable
  limit        kw:enable
  contact      kw:enable
  spring       kw:enable
  damper       kw:enable
  gravity      kw:enable
  clampctrl    kw:enable
  warmstart    kw:enable
  filterparent kw:enable
  actuation    kw:enable
  refsafe      kw:enable
  sensor       kw:enable
  midphase     kw:enable
  eulerdamp    kw:enable
  autoreset    kw:enable
  nativeccd    kw:enable
  island       kw:enable
  multiccd     kw:enable
  override     kw:enable
  energy       kw:enable
  fwdinv       kw:enable
  invdiscrete  kw:enable
  sleep        kw:enable
  diagexact    kw:enable
  ipc          kw:enable

@size
  memory         str
  njmax          int = -1
  nconmax        int = -1
  nstack         int = -1
  nuserdata      int = 0
  nkey           int = 0
  nuser_body     int = -1
  nuser_jnt      int = -1
  nuser_geom     int = -1
  nuser_site     int = -1
  nuser_cam      int = -1
  nuser_tendon   int = -1
  nuser_actuator int = -1
  nuser_sensor   int = -1

@statistic
  meaninertia  real
  meanmass     real
  meansize     real
  extent       real
  center       real[3]

@visual
  + visual/global ?
  + visual/quality ?
  + visual/headlight ?
  + visual/map ?
  + visual/scale ?
  + visual/rgba ?

@visual/global
  cameraid         int  = -1
  orthographic     bool = false
  fovy             real = 45
  ipd              real = 0.068
  azimuth          real = 90
  elevation        real = -45
  linewidth        real = 1
  glow             real = 0.3
  offwidth         int  = 640
  offheight        int  = 480
  realtime         real = 1
  ellipsoidinertia bool = false
  bvactive         bool = false

@visual/quality
  shadowsize   int = 4096
  offsamples   int = 4
  numslices    int = 28
  numstacks    int = 16
  numquads     int = 4

@visual/headlight
  ambient      real[3] = 0.1 0.1 0.1
  diffuse      real[3] = 0.4 0.4 0.4
  specular     real[3] = 0.5 0.5 0.5
  active       int     = 1

@visual/map
  stiffness      real = 100
  stiffnessrot   real = 500
  force          real = 0.005
  torque         real = 0.1
  alpha          real = 0.3
  fogstart       real = 3
  fogend         real = 10
  znear          real = 0.01
  zfar           real = 50
  haze           real = 0.3
  shadowclip     real = 1
  shadowscale    real = 0.6
  actuatortendon real = 2

@visual/scale
  forcewidth     real = 0.1
  contactwidth   real = 0.3
  contactheight  real = 0.1
  connect        real = 0.2
  com            real = 0.4
  camera         real = 0.3
  light          real = 0.3
  selectpoint    real = 0.2
  jointlength    real = 1
  jointwidth     real = 0.1
  actuatorlength real = 0.7
  actuatorwidth  real = 0.2
  framelength    real = 1
  framewidth     real = 0.1
  constraint     real = 0.1
  slidercrank    real = 0.2
  frustum        real = 10

@visual/rgba
  fog              real[4] = 0 0 0 1
  haze             real[4] = 1 1 1 1
  force            real[4] = 1 0.5 0.5 1
  inertia          real[4] = 0.8 0.2 0.2 0.6
  joint            real[4] = 0.2 0.6 0.8 1
  actuator         real[4] = 0.2 0.25 0.2 1
  actuatornegative real[4] = 0.2 0.6 0.9 1
  actuatorpositive real[4] = 0.9 0.4 0.2 1
  com              real[4] = 0.9 0.9 0.9 1
  camera           real[4] = 0.6 0.9 0.6 1
  light            real[4] = 0.6 0.6 0.9 1
  selectpoint      real[4] = 0.9 0.9 0.1 1
  connect          real[4] = 0.2 0.2 0.8 1
  contactpoint     real[4] = 0.9 0.6 0.2 1
  contactforce     real[4] = 0.7 0.9 0.9 1
  contactfriction  real[4] = 0.9 0.8 0.4 1
  contacttorque    real[4] = 0.9 0.7 0.9 1
  contactgap       real[4] = 0.5 0.8 0.9 1
  rangefinder      real[4] = 1 1 0.1 1
  constraint       real[4] = 0.9 0 0 1
  slidercrank      real[4] = 0.5 0.3 0.8 1
  crankbroken      real[4] = 0.9 0 0 1
  frustum          real[4] = 1 1 0 0.2
  bv               real[4] = 0 1 0 0.5
  bvactive         real[4] = 1 0 0 0.5

@default ns=class
  class        id:class
  + default R
  + default/mesh ?
  + default/texture ?
  + default/material ?
  + default/joint ?
  + default/geom ?
  + default/site ?
  + default/camera ?
  + default/light ?
  + default/pair ?
  + default/equality ?
  + default/tendon ?
  + default/general ?
  + default/motor ?
  + default/position ?
  + default/velocity ?
  + default/intvelocity ?
  + default/orientation ?
  + default/pid ?
  + default/damper ?
  + default/cylinder ?
  + default/muscle ?
  + default/adhesion ?
  + default/dcmotor ?

@extension
  + extension/plugin *

@extension/plugin
  plugin       str
  + extension/plugin/instance *

@extension/plugin/instance ns=instance
  name         id:instance !req
  + config *

@config
  key          str !req
  value        str

@asset
  + asset/mesh *
  + asset/hfield *
  + asset/skin *
  + asset/texture *
  + asset/material *
  + asset/model *

@asset/mesh ns=mesh
  name         id:mesh
  class        ref:class
  content_type str        !nodef
  file         file       !nodef
  vertex       real[]     !nodef
  normal       real[]     !nodef
  texcoord     real[]     !nodef
  face         int[]      !nodef
  refpos       real[3]    = 0 0 0 !nodef
  refquat      real[4]    = 1 0 0 0 !nodef
  scale        real[3]    = 1 1 1
  smoothnormal bool       = false !nodef
  maxhullvert  int        = -1
  inertia      kw:meshinertia = legacy
  builtin      kw:meshbuiltin = none !nodef
  params       real[]     !nodef
  material     ref:material !nodef
  + asset/mesh/plugin *

@asset/mesh/plugin
  use plugin_ref
  + config *

@asset/hfield ns=hfield
  name         id:hfield
  content_type str
  file         file
  nrow         int        = 0
  ncol         int        = 0
  size         real[4]    !req
  elevation    real[]

@asset/skin ns=skin
  name         id:skin
  file         file
  material     ref:material
  rgba         real[4]    = 0.5 0.5 0.5 1
  inflate      real       = 0
  vertex       real[]
  texcoord     real[]
  face         int[]
  group        int        = 0
  + asset/skin/bone *

@asset/skin/bone
  body         ref:body   !req
  bindpos      real[3]    !req
  bindquat     real[4]    !req
  vertid       int[]      !req
  vertweight   real[]     !req

@asset/texture ns=texture
  name         id:texture
  class        ref:class
  type         kw:texture = cube
  colorspace   kw:colorspace = auto
  content_type str        !nodef
  file         file       !nodef
  gridsize     int[2]     = 1 1
  gridlayout   str
  fileright    file       !nodef
  fileleft     file       !nodef
  fileup       file       !nodef
  filedown     file       !nodef
  filefront    file       !nodef
  fileback     file       !nodef
  builtin      kw:builtin = none
  rgb1         real[3]    = 0.8 0.8 0.8
  rgb2         real[3]    = 0.5 0.5 0.5
  mark         kw:mark    = none
  markrgb      real[3]    = 0 0 0
  random       real       = 0.01
  width        int        = 0
  height       int        = 0
  hflip        bool       = false
  vflip        bool       = false
  nchannel     int        = 3
  embed        bool       = false

@asset/material ns=material
  name         id:material
  class        ref:class
  texture      ref:texture
  texrepeat    real[2]    = 1 1
  texuniform   bool       = false
  emission     real       = 0
  specular     real       = 0.5
  shininess    real       = 0.5
  reflectance  real       = 0
  metallic     real       = -1
  roughness    real       = -1
  rgba         real[4]    = 1 1 1 1
  + asset/material/layer *

@asset/material/layer
  texture      ref:texture
  role         str        !req

@asset/model ns=model unsupported
  name         id:model
  file         file
  content_type str

@worldbody tag=worldbody
  use body_children

@body ns=body
  name         id:body
  childclass   ref:class
  pos          real[3]
  use orientation
  mocap        bool       = false
  gravcomp     real       = 0
  sleep        kw:sleep   = auto
  simple       kw:falseauto = auto
  fuse         kw:falseauto = auto
  user         real[]
  + body/inertial ?
  + body/joint *
  + body/freejoint *
  use body_children

@frame ns=frame
  name         id:frame
  childclass   ref:class
  pos          real[3]    = 0 0 0
  use orientation
  + body/inertial *
  + body/joint *
  + body/freejoint *
  use body_children

@replicate
  count        int        !req
  offset       real[3]
  euler        real[3]
  sep          str
  childclass   ref:class
  + body/joint *
  use body_children

@body/inertial
  pos          real[3]    !req
  quat         real[4]    = 1 0 0 0
  axisangle    real[4]
  xyaxes       real[6]
  zaxis        real[3]
  euler        real[3]
  fullinertia  real[6]
  mass         real       !req
  diaginertia  real[3]
  exclusive quat axisangle xyaxes zaxis euler fullinertia

@body/joint tag=joint ns=joint
  name         id:joint
  class        ref:class
  type         kw:joint   = hinge
  group        int        = 0
  pos          real[3]    = 0 0 0
  axis         real[3]    = 0 0 1
  springdamper real[2]    = 0 0
  limited      kw:limited = auto
  actuatorfrclimited kw:limited = auto
  solreflimit  real[1..2] = 0.02 1
  solimplimit  real[1..5] = 0.9 0.95 0.001 0.5 2
  solreffriction real[1..2] = 0.02 1
  solimpfriction real[1..5] = 0.9 0.95 0.001 0.5 2
  stiffness    real[1..3] = 0 0 0
  range        real[2]    = 0 0
  actuatorfrcrange real[2] = 0 0
  actuatorgravcomp bool   = false
  margin       real       = 0
  ref          real       = 0
  springref    real       = 0
  armature     real       = 0
  damping      real[1..3] = 0 0 0
  frictionloss real       = 0
  user         real[]

@body/freejoint tag=freejoint ns=joint
  name         id:joint
  group        int        = 0
  align        kw:limited = auto

@geom ns=geom
  name         id:geom
  class        ref:class
  type         kw:geom    = sphere
  contype      int        = 1
  conaffinity  int        = 1
  condim       int        = 3
  group        int        = 0
  priority     int        = 0
  size         real[1..3] = 0 0 0
  material     ref:material
  friction     real[1..3] = 1 0.005 0.0001
  mass         real
  density      real       = 1000
  shellinertia bool       = false
  solmix       real       = 1
  solref       real[1..2] = 0.02 1
  solimp       real[1..5] = 0.9 0.95 0.001 0.5 2
  margin       real       = 0
  gap          real       = 0
  surfacevel   real[1..6] = 0 0 0 0 0 0
  adhesion     real       = 0
  fromto       real[6]
  pos          real[3]    = 0 0 0
  use orientation
  hfield       ref:hfield
  mesh         ref:mesh
  fitscale     real       = 1
  rgba         real[4]    = 0.5 0.5 0.5 1
  fluidshape   kw:fluidshape = none
  fluidcoef    real[1..5] = 0.5 0.25 1.5 1.0 1.0
  user         real[]
  + geom/plugin *

@geom/plugin tag=plugin
  use plugin_ref
  + config *

@attach unsupported
  model        ref:model
  body         ref:body
  frame        ref:frame
  prefix       str        !req

@site ns=site
  name         id:site
  class        ref:class
  type         kw:geom    = sphere
  group        int        = 0
  pos          real[3]    = 0 0 0
  use orientation
  material     ref:material
  mesh         ref:mesh
  size         real[1..3] = 0.005 0.005 0.005
  fromto       real[6]
  rgba         real[4]    = 0.5 0.5 0.5 1
  user         real[]

@camera ns=camera
  name         id:camera
  class        ref:class
  projection   kw:projection = perspective
  fovy         real       = 45
  ipd          real       = 0.068
  resolution   int[2]     = 1 1
  output       flags:camout = rgb
  pos          real[3]    = 0 0 0
  use orientation
  mode         kw:camlight = fixed
  target       ref:body   !nodef
  focal        real[2]    = 0 0
  focalpixel   real[2]    = 0 0
  principal    real[2]    = 0 0
  principalpixel real[2]  = 0 0
  sensorsize   real[2]    = 0 0
  user         real[]

@light ns=light
  name         id:light
  class        ref:class
  directional  bool
  type         kw:lighttype
  castshadow   bool       = true
  active       bool       = true
  pos          real[3]    = 0 0 0
  dir          real[3]    = 0 0 -1
  bulbradius   real       = 0.02
  intensity    real       = 0
  range        real       = 10
  attenuation  real[3]    = 1 0 0
  cutoff       real       = 45
  softness     real       = 0.2
  exponent     real       = 10
  ambient      real[3]    = 0 0 0
  diffuse      real[3]    = 0.7 0.7 0.7
  specular     real[3]    = 0.3 0.3 0.3
  mode         kw:camlight = fixed
  target       ref:body   !nodef
  texture      ref:texture !nodef
  exclusive directional type

@body/plugin tag=plugin
  use plugin_ref
  + config *

@composite
  prefix       str
  type         kw:comp    !req
  count        int[1..3]
  offset       real[3]
  vertex       real[]
  initial      str
  curve        str
  size         real[1..3]
  quat         real[4]
  + composite/joint *
  + composite/skin ?
  + composite/geom ?
  + composite/site ?
  + body/plugin *

@composite/joint
  kind         kw:compkind !req
  group        int
  stiffness    real
  damping      real
  armature     real
  solreffix    real[1..2]
  solimpfix    real[1..5]
  type         kw:joint
  axis         real[3]
  limited      kw:limited
  range        real[2]
  margin       real
  solreflimit  real[1..2]
  solimplimit  real[1..5]
  frictionloss real
  solreffriction real[1..2]
  solimpfriction real[1..5]

@composite/skin
  texcoord     str
  material     str
  group        str
  rgba         str
  inflate      str
  subgrid      str

@composite/geom
  type         kw:geom
  contype      int
  conaffinity  int
  condim       int
  group        int
  priority     int
  size         real[1..3]
  material     ref:material
  rgba         real[4]
  friction     real[1..3]
  mass         real
  density      real
  solmix       real
  solref       real[1..2]
  solimp       real[1..5]
  margin       real
  gap          real
  surfacevel   real[1..6]
  adhesion     real

@composite/site
  group        int
  size         real[1..3]
  material     ref:material
  mesh         str
  rgba         real[4]

@flexcomp ns=flex unsupported
  name         id:flex    !req
  type         str
  group        str
  dim          str
  dof          str
  count        str
  cellcount    str
  spacing      str
  radius       str
  rigid        str
  mass         str
  inertiabox   str
  scale        str
  file         file
  mesh         str
  point        str
  element      str
  texcoord     str
  material     str
  rgba         str
  flatskin     str
  pos          str
  quat         str
  axisangle    str
  xyaxes       str
  zaxis        str
  euler        str
  origin       str
  + flexcomp/edge ?
  + flexcomp/elasticity ?
  + flexcomp/contact ?
  + flexcomp/pin *
  + body/plugin *

@flexcomp/edge
  equality     str
  solref       str
  solimp       str
  stiffness    str
  damping      str

@flexcomp/elasticity
  young        str
  poisson      str
  damping      str
  thickness    str
  elastic2d    str
  section      str
  sectionsize  str

@flexcomp/contact
  contype      str
  conaffinity  str
  condim       str
  priority     str
  friction     str
  solmix       str
  solref       str
  solimp       str
  margin       str
  gap          str
  selfcollide  str
  activelayers str
  passive      str

@flexcomp/pin
  id           str
  range        str
  grid         str
  gridrange    str

@deformable
  + deformable/flex *
  + asset/skin *

@deformable/flex ns=flex unsupported
  name         id:flex
  group        str
  dim          str
  radius       str
  material     str
  rgba         str
  flatskin     str
  body         str        !req
  vertex       str
  element      str        !req
  texcoord     str
  elemtexcoord str
  node         str
  nodecoord    str
  cellcount    str
  dof          str
  + flexcomp/contact ?
  + deformable/flex/edge ?
  + flexcomp/elasticity ?

@deformable/flex/edge tag=edge
  stiffness    str
  damping      str

@contact
  + contact/pair *
  + contact/exclude *

@contact/pair ns=pair
  name         id:pair
  class        ref:class
  geom1        ref:geom   !req !nodef
  geom2        ref:geom   !req !nodef
  condim       int        = 3
  friction     real[1..5] = 1 1 0.005 0.0001 0.0001
  solref       real[1..2] = 0.02 1
  solreffriction real[1..2] = 0 0
  solimp       real[1..5] = 0.9 0.95 0.001 0.5 2
  gap          real       = 0
  margin       real       = 0
  adhesion     real       = 0

@contact/exclude ns=exclude
  name         id:exclude
  body1        ref:body   !req
  body2        ref:body   !req

@tendon
  + tendon/spatial *
  + tendon/fixed *

@tendon/spatial tag=spatial
  use tendon_common
  width        real       = 0.003
  material     ref:material
  rgba         real[4]    = 0.5 0.5 0.5 1
  + tendon/spatial/site *
  + tendon/spatial/geom *
  + tendon/spatial/pulley *

@tendon/spatial/site
  site         ref:site   !req

@tendon/spatial/geom
  geom         ref:geom   !req
  sidesite     ref:site

@tendon/spatial/pulley
  divisor      real       !req

@tendon/fixed tag=fixed
  use tendon_common
  + tendon/fixed/joint *

@tendon/fixed/joint
  joint        ref:joint  !req
  coef         real       !req

@equality
  + equality/connect *
  + equality/weld *
  + equality/joint *
  + equality/tendon *
  + equality/flex *
  + equality/flexvert *
  + equality/flexstrain *

@equality/connect
  use equality_base
  body1        ref:body
  body2        ref:body
  anchor       real[3]
  site1        ref:site
  site2        ref:site

@equality/weld
  use equality_base
  body1        ref:body
  body2        ref:body
  relpose      real[7]
  anchor       real[3]
  site1        ref:site
  site2        ref:site
  torquescale  real

@equality/joint
  use equality_base
  joint1       ref:joint  !req
  joint2       ref:joint
  polycoef     real[1..5] = 0 1 0 0 0

@equality/tendon
  use equality_base
  tendon1      ref:tendon !req
  tendon2      ref:tendon
  polycoef     real[1..5] = 0 1 0 0 0

@equality/flex unsupported
  use equality_base
  flex         ref:flex   !req

@equality/flexvert unsupported
  use equality_base
  flex         ref:flex   !req

@equality/flexstrain unsupported
  use equality_base
  flex         ref:flex   !req
  cell         real[3]

@actuator
  + actuator/general *
  + actuator/motor *
  + actuator/position *
  + actuator/velocity *
  + actuator/intvelocity *
  + actuator/orientation *
  + actuator/pid *
  + actuator/damper *
  + actuator/cylinder *
  + actuator/muscle *
  + actuator/adhesion *
  + actuator/dcmotor *
  + actuator/plugin *

@actuator/general
  use actuator_base
  use limits
  actlimited   kw:limited = auto
  actrange     real[2]    = 0 0
  use actuator_dynamics
  use transmission
  body         ref:body   !nodef
  actdim       int        = -1
  input        flags:input
  velrange     real[2]    = 0 0
  ffrange      real[2]    = 0 0
  inheritrange real       = 0
  dyntype      kw:dyn     = none
  gaintype     kw:gain    = fixed
  biastype     kw:bias    = none
  dynprm       real[1..10] = 1 0 0 0 0 0 0 0 0 0
  gainprm      real[1..10] = 1 0 0 0 0 0 0 0 0 0
  biasprm      real[1..10] = 0 0 0 0 0 0 0 0 0 0
  actearly     bool       = false

@actuator/motor
  use actuator_base
  use limits
  use actuator_dynamics
  use transmission

@actuator/position
  use actuator_base
  use limits
  inheritrange real
  use actuator_dynamics
  use transmission
  kp           real
  kv           real
  dampratio    real
  timeconst    real

@actuator/velocity
  use actuator_base
  use limits
  use actuator_dynamics
  use transmission
  kv           real

@actuator/intvelocity
  use actuator_base
  use limits
  actlimited   kw:limited = auto
  actrange     real[2]    = 0 0
  inheritrange real
  use actuator_dynamics
  use transmission
  kp           real
  kv           real
  dampratio    real

@actuator/orientation
  use actuator_base
  forcelimited kw:limited = auto
  forcerange   real[2]    = 0 0
  joint        ref:joint  !nodef
  site         ref:site   !nodef
  refsite      ref:site   !nodef
  kp           real
  kv           real
  dampratio    real
  input        flags:input

@actuator/pid
  use actuator_base
  use limits
  posrange     real[2]
  velrange     real[2]
  ffrange      real[2]
  inheritrange real
  use actuator_dynamics
  use transmission
  kp           real
  kv           real
  dampratio    real
  ki           real
  imax         real
  slewmax      real
  input        flags:input

@actuator/damper
  use actuator_base
  forcelimited kw:limited = auto
  forcerange   real[2]    = 0 0
  use actuator_dynamics
  use transmission
  kv           real

@actuator/cylinder
  use actuator_base
  use limits
  use actuator_dynamics
  use transmission
  timeconst    real
  area         real
  diameter     real
  bias         real[3]

@actuator/muscle
  use actuator_base
  use limits
  use actuator_dynamics
  joint         ref:joint  !nodef
  jointinparent ref:joint  !nodef
  tendon        ref:tendon !nodef
  slidersite    ref:site   !nodef
  cranksite     ref:site   !nodef
  timeconst    real[2]
  tausmooth    real       !nodef
  range        real[2]
  force        real
  scale        real
  lmin         real
  lmax         real
  vmax         real
  fpmax        real
  fvmax        real

@actuator/adhesion
  use actuator_base
  forcelimited kw:limited = auto
  forcerange   real[2]    = 0 0
  body         ref:body   !nodef
  gain         real

@actuator/dcmotor
  use actuator_base
  ctrllimited  kw:limited = auto
  use actuator_dynamics
  use transmission
  motorconst   real[1..2]
  resistance   real
  nominal      real[1..3]
  saturation   real[1..3]
  inductance   real[1..2]
  cogging      real[1..3]
  controller   real[1..6]
  thermal      real[1..6]
  lugre        real[1..5]
  input        flags:input

@actuator/plugin
  use actuator_base
  use plugin_ref
  use limits
  actlimited   kw:limited = auto
  actrange     real[2]    = 0 0
  use actuator_dynamics
  joint         ref:joint  !nodef
  jointinparent ref:joint  !nodef
  site          ref:site   !nodef
  tendon        ref:tendon !nodef
  cranksite     ref:site   !nodef
  slidersite    ref:site   !nodef
  actdim       int        = -1
  dyntype      kw:dyn     = none
  dynprm       real[1..10] = 1 0 0 0 0 0 0 0 0 0
  actearly     bool       = false
  + config *

@sensor
  + sensor/touch *
  + sensor/accelerometer *
  + sensor/velocimeter *
  + sensor/gyro *
  + sensor/force *
  + sensor/torque *
  + sensor/magnetometer *
  + sensor/camprojection *
  + sensor/rangefinder *
  + sensor/jointpos *
  + sensor/jointvel *
  + sensor/tendonpos *
  + sensor/tendonvel *
  + sensor/actuatorpos *
  + sensor/actuatorvel *
  + sensor/actuatorfrc *
  + sensor/jointactuatorfrc *
  + sensor/tendonactuatorfrc *
  + sensor/ballquat *
  + sensor/ballangvel *
  + sensor/jointlimitpos *
  + sensor/jointlimitvel *
  + sensor/jointlimitfrc *
  + sensor/tendonlimitpos *
  + sensor/tendonlimitvel *
  + sensor/tendonlimitfrc *
  + sensor/framepos *
  + sensor/framequat *
  + sensor/framexaxis *
  + sensor/frameyaxis *
  + sensor/framezaxis *
  + sensor/framelinvel *
  + sensor/frameangvel *
  + sensor/framelinacc *
  + sensor/frameangacc *
  + sensor/subtreecom *
  + sensor/subtreelinvel *
  + sensor/subtreeangmom *
  + sensor/insidesite *
  + sensor/distance *
  + sensor/normal *
  + sensor/fromto *
  + sensor/contact *
  + sensor/e_potential *
  + sensor/e_kinetic *
  + sensor/clock *
  + sensor/tactile *
  + sensor/user *
  + sensor/plugin *

@sensor/touch
  use sensor_base
  site         ref:site   !req

@sensor/accelerometer
  use sensor_base
  site         ref:site   !req

@sensor/velocimeter
  use sensor_base
  site         ref:site   !req

@sensor/gyro
  use sensor_base
  site         ref:site   !req

@sensor/force
  use sensor_base
  site         ref:site   !req

@sensor/torque
  use sensor_base
  site         ref:site   !req

@sensor/magnetometer
  use sensor_base
  site         ref:site   !req

@sensor/camprojection
  use sensor_base
  site         ref:site   !req
  camera       ref:camera !req

@sensor/rangefinder
  use sensor_base
  site         ref:site
  camera       ref:camera
  data         flags:raydata = dist
  exclusive site camera

@sensor/jointpos
  use sensor_base
  joint        ref:joint  !req

@sensor/jointvel
  use sensor_base
  joint        ref:joint  !req

@sensor/tendonpos
  use sensor_base
  tendon       ref:tendon !req

@sensor/tendonvel
  use sensor_base
  tendon       ref:tendon !req

@sensor/actuatorpos
  use sensor_base
  actuator     ref:actuator !req

@sensor/actuatorvel
  use sensor_base
  actuator     ref:actuator !req

@sensor/actuatorfrc
  use sensor_base
  actuator     ref:actuator !req

@sensor/jointactuatorfrc
  use sensor_base
  joint        ref:joint  !req

@sensor/tendonactuatorfrc
  use sensor_base
  tendon       ref:tendon !req

@sensor/ballquat
  use sensor_base
  joint        ref:joint  !req

@sensor/ballangvel
  use sensor_base
  joint        ref:joint  !req

@sensor/jointlimitpos
  use sensor_base
  joint        ref:joint  !req

@sensor/jointlimitvel
  use sensor_base
  joint        ref:joint  !req

@sensor/jointlimitfrc
  use sensor_base
  joint        ref:joint  !req

@sensor/tendonlimitpos
  use sensor_base
  tendon       ref:tendon !req

@sensor/tendonlimitvel
  use sensor_base
  tendon       ref:tendon !req

@sensor/tendonlimitfrc
  use sensor_base
  tendon       ref:tendon !req

@sensor/framepos
  use sensor_base
  use frame_obj
  use frame_ref

@sensor/framequat
  use sensor_base
  use frame_obj
  use frame_ref

@sensor/framexaxis
  use sensor_base
  use frame_obj
  use frame_ref

@sensor/frameyaxis
  use sensor_base
  use frame_obj
  use frame_ref

@sensor/framezaxis
  use sensor_base
  use frame_obj
  use frame_ref

@sensor/framelinvel
  use sensor_base
  use frame_obj
  use frame_ref

@sensor/frameangvel
  use sensor_base
  use frame_obj
  use frame_ref

@sensor/framelinacc
  use sensor_base
  use frame_obj

@sensor/frameangacc
  use sensor_base
  use frame_obj

@sensor/subtreecom
  use sensor_base
  body         ref:body   !req

@sensor/subtreelinvel
  use sensor_base
  body         ref:body   !req

@sensor/subtreeangmom
  use sensor_base
  body         ref:body   !req

@sensor/insidesite
  use sensor_base
  site         ref:site   !req
  use frame_obj
  enclosed     str

@sensor/distance
  use sensor_base
  use geom_pair
  exclusive geom1 body1
  exclusive geom2 body2

@sensor/normal
  use sensor_base
  use geom_pair
  exclusive geom1 body1
  exclusive geom2 body2

@sensor/fromto
  use sensor_base
  use geom_pair
  exclusive geom1 body1
  exclusive geom2 body2

@sensor/contact
  use sensor_base
  use geom_pair
  subtree1     ref:body
  subtree2     ref:body
  site         ref:site
  num          int        = 1
  data         flags:condata = found
  reduce       kw:reduce  = none
  exclusive geom1 body1 subtree1 site
  exclusive geom2 body2 subtree2

@sensor/e_potential
  use sensor_base

@sensor/e_kinetic
  use sensor_base

@sensor/clock
  use sensor_base

@sensor/tactile unsupported
  name         id:sensor
  geom         ref:geom   !req
  mesh         ref:mesh   !req
  nsample      int        = 0
  interp       kw:interp  = zoh
  delay        real       = 0
  interval     real[1..2] = 0 0
  cutoff       real       = 0
  user         real[]

@sensor/user
  name         id:sensor
  objtype      str
  objname      str
  datatype     kw:datatype = real
  needstage    kw:stage   = acc
  dim          int        !req
  cutoff       real       = 0
  noise        real       = 0
  user         real[]

@sensor/plugin
  name         id:sensor
  use plugin_ref
  cutoff       real       = 0
  objtype      str
  objname      str
  reftype      str
  refname      str
  user         real[]
  + config *

@custom
  + custom/numeric *
  + custom/text *
  + custom/tuple *

@custom/numeric ns=numeric
  name         id:numeric !req
  size         int        = 0
  data         real[]

@custom/text ns=text
  name         id:text    !req
  data         str        !req

@custom/tuple ns=tuple
  name         id:tuple   !req
  + custom/tuple/element *

@custom/tuple/element
  objtype      str        !req
  objname      str        !req
  prm          real       = 0

@keyframe
  + keyframe/key *

@keyframe/key ns=key
  name         id:key
  time         real       = 0
  qpos         real[]
  qvel         real[]
  act          real[]
  mpos         real[]
  mquat        real[]
  ctrl         real[]
"""

# <default> children: projections of the primary elements, minus name/class and !nodef
# attributes, as (key, source keys, extra attributes kept, attributes dropped)
_DEFAULT_PROJECTIONS = [
  ("default/mesh", ["asset/mesh"], [], []),
  ("default/texture", ["asset/texture"], [], []),
  ("default/material", ["asset/material"], [], []),
  ("default/joint", ["body/joint"], [], []),
  ("default/geom", ["geom"], [], []),
  ("default/site", ["site"], [], []),
  ("default/camera", ["camera"], [], []),
  ("default/light", ["light"], [], []),
  ("default/pair", ["contact/pair"], [], []),
  ("default/equality", ["equality/connect"], [], []),
  (
    "default/tendon",
    ["tendon/spatial"],
    [],
    ["actuatorfrclimited", "actuatorfrcrange", "armature"],
  ),
  ("default/general", ["actuator/general"], [], []),
  ("default/motor", ["actuator/motor"], [], []),
  ("default/position", ["actuator/position"], [], []),
  ("default/velocity", ["actuator/velocity"], [], []),
  ("default/intvelocity", ["actuator/intvelocity"], [], []),
  ("default/orientation", ["actuator/orientation"], [], []),
  ("default/pid", ["actuator/pid"], [], []),
  ("default/damper", ["actuator/damper"], [], []),
  ("default/cylinder", ["actuator/cylinder"], [], []),
  ("default/muscle", ["actuator/muscle"], [], []),
  ("default/adhesion", ["actuator/adhesion"], [], []),
  ("default/dcmotor", ["actuator/dcmotor"], [], []),
]

# element kinds whose defaults live in one shared slot of a default class: every actuator
# shortcut edits the class's single actuator default, as in MuJoCo
DEFAULT_SLOT = {
  "default/general": "actuator",
  "default/motor": "actuator",
  "default/position": "actuator",
  "default/velocity": "actuator",
  "default/intvelocity": "actuator",
  "default/orientation": "actuator",
  "default/pid": "actuator",
  "default/damper": "actuator",
  "default/cylinder": "actuator",
  "default/muscle": "actuator",
  "default/adhesion": "actuator",
  "default/dcmotor": "actuator",
  "default/mesh": "mesh",
  "default/texture": "texture",
  "default/material": "material",
  "default/joint": "joint",
  "default/geom": "geom",
  "default/site": "site",
  "default/camera": "camera",
  "default/light": "light",
  "default/pair": "pair",
  "default/equality": "equality",
  "default/tendon": "tendon",
}


@dataclasses.dataclass(frozen=True)
class Attr:
  """One attribute of an element.

  Attributes:
    name: XML attribute name.
    kind: 'real', 'int', 'bool', 'kw', 'flags', 'str', 'file', 'id' or 'ref'.
    nmin, nmax: allowed value count for real/int arrays (None for scalars; nmax -1: no bound).
    keywords: keyword -> value map for kw/flags (and bool).
    ns: namespace for id/ref.
    default: the default value (converted), or None when "not given" has its own meaning.
    required: must be present.
    nodefault: cannot be set in a <default> class.
  """

  name: str
  kind: str
  nmin: int | None = None
  nmax: int | None = None
  keywords: dict | None = None
  ns: str | None = None
  default: object = None
  required: bool = False
  nodefault: bool = False

  @property
  def is_array(self):
    return self.nmin is not None


@dataclasses.dataclass
class Element:
  """One MJCF element kind.

  Attributes:
    key: unique key in ELEMENTS (path-like, e.g. 'tendon/fixed/joint').
    tag: the XML tag.
    attrs: attribute name -> Attr, in declaration order.
    children: child tag -> (child key, cardinality '?', '*' or 'R').
    exclusive: groups of attributes of which at most one may be given.
    ns: namespace of this element's name (None if it has no name).
    supported: False for valid MJCF the engine does not simulate yet.
  """

  key: str
  tag: str
  attrs: dict
  children: dict
  exclusive: list
  ns: str | None
  supported: bool = True


def _convert_default(kind, nmin, nmax, keywords, text, where):
  """Converts a default written in the table (always valid) to its typed value."""
  if kind in ("real", "int"):
    cast = float if kind == "real" else int
    vals = [cast(v) for v in text.split()]
    return vals[0] if nmin is None else tuple(vals)
  if kind == "bool":
    return text == "true"
  if kind == "kw":
    return keywords[text]
  if kind == "flags":
    val = 0
    for word in text.split():
      val |= keywords[word]
    return val
  return text


def _parse_attr(line, where):
  """Parses one attribute line of the table into an Attr."""
  flags = set(re.findall(r"!(\w+)", line))
  line = re.sub(r"!\w+", "", line)
  default_text = None
  if "=" in line:
    line, default_text = line.split("=", 1)
    default_text = default_text.strip()
  name, typ = line.split()
  nmin = nmax = keywords = ns = None
  m = re.fullmatch(r"(real|int)(?:\[(\d*)(?:\.\.(\d+))?\])?", typ)
  if m:
    kind = m.group(1)
    if "[" in typ:
      if m.group(2) == "":
        nmin, nmax = 0, -1
      elif m.group(3):
        nmin, nmax = int(m.group(2)), int(m.group(3))
      else:
        nmin = nmax = int(m.group(2))
  elif typ == "bool":
    kind, keywords = "bool", KEYWORDS["bool"]
  elif typ.startswith(("kw:", "flags:")):
    kind, setname = typ.split(":")
    keywords = KEYWORDS[setname]
  elif typ.startswith(("id:", "ref:")):
    kind, ns = typ.split(":")
  elif typ in ("str", "file"):
    kind = typ
  else:
    raise ValueError(f"bad type {typ!r} in schema, {where}")
  default = None
  if default_text is not None:
    default = _convert_default(kind, nmin, nmax, keywords, default_text, where)
  return Attr(name, kind, nmin, nmax, keywords, ns, default, "req" in flags, "nodef" in flags)


def _parse_blocks(text):
  """Splits the table text into (header, [lines]) blocks."""
  blocks = []
  for raw in text.split("\n"):
    line = raw.strip()
    if not line:
      continue
    if line[0] in "@%":
      blocks.append((line, []))
    else:
      blocks[-1][1].append(line)
  return blocks


def _build():
  """Parses the table into the ELEMENTS dict."""
  groups = {header[1:]: lines for header, lines in _parse_blocks(_GROUPS)}

  def expand(lines):
    out = []
    for line in lines:
      if line.startswith("use "):
        out.extend(expand(groups[line.split()[1]]))
      else:
        out.append(line)
    return out

  elements = {}
  for header, lines in _parse_blocks(_ELEMENTS):
    words = header[1:].split()
    key = words[0]
    opts = dict(w.split("=") for w in words[1:] if "=" in w)
    attrs, children, exclusive = {}, {}, []
    for line in expand(lines):
      if line.startswith("+ "):
        _, ckey, card = line.split()
        children[ckey] = card
      elif line.startswith("exclusive "):
        exclusive.append(line.split()[1:])
      else:
        attr = _parse_attr(line, key)
        attrs[attr.name] = attr
    tag = opts.get("tag", key.split("/")[-1])
    ns = opts.get("ns")
    elements[key] = Element(key, tag, attrs, children, exclusive, ns, "unsupported" not in words)

  # default-class projections
  for key, sources, _, dropped in _DEFAULT_PROJECTIONS:
    attrs = {}
    for src in sources:
      for name, attr in elements[src].attrs.items():
        if attr.kind == "id" or name == "class" or attr.nodefault or name in dropped:
          continue
        attrs[name] = dataclasses.replace(attr, required=False)
    children = {}
    if key == "default/material":
      children["asset/material/layer"] = "*"
    exclusive = [
      g for src in sources for g in elements[src].exclusive if all(a in attrs for a in g)
    ]
    supported = all(elements[s].supported for s in sources)
    elements[key] = Element(key, key.split("/")[-1], attrs, children, exclusive, None, supported)
  elements["default/equality"].attrs = {
    k: v
    for k, v in elements["default/equality"].attrs.items()
    if k in ("active", "solref", "solimp")
  }

  # resolve child keys into tag -> (key, card)
  for elem in elements.values():
    resolved = {}
    for ckey, card in elem.children.items():
      resolved[elements[ckey].tag] = (ckey, card)
    elem.children = resolved
  return elements


ELEMENTS = _build()
ROOT = "mujoco"


def child(parent_key, tag):
  """Returns (child key, cardinality) of `tag` inside `parent_key`, or None if not allowed."""
  return ELEMENTS[parent_key].children.get(tag)
