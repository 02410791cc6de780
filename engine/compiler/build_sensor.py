"""Sensors: type, data type, stage, sensorized object and reference, dimension, address.

Ports of mjCSensor::Compile (user_objects.cc) and the sensor reading of
xml_native_reader.cc, as MuJoCo 3.17 compiles them (checked against it).
"""

from engine.compiler import build_misc
from engine.compiler import build_tree as bt
from engine.compiler.build_common import arr as _arr
from engine.enums import mjDATATYPE_AXIS
from engine.enums import mjDATATYPE_POSITIVE
from engine.enums import mjDATATYPE_QUATERNION
from engine.enums import mjDATATYPE_REAL
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE
from engine.enums import mjOBJ_ACTUATOR
from engine.enums import mjOBJ_BODY
from engine.enums import mjOBJ_CAMERA
from engine.enums import mjOBJ_GEOM
from engine.enums import mjOBJ_JOINT
from engine.enums import mjOBJ_SITE
from engine.enums import mjOBJ_TENDON
from engine.enums import mjOBJ_UNKNOWN
from engine.enums import mjOBJ_XBODY
from engine.enums import mjSENS_ACCELEROMETER
from engine.enums import mjSENS_ACTUATORFRC
from engine.enums import mjSENS_ACTUATORPOS
from engine.enums import mjSENS_ACTUATORVEL
from engine.enums import mjSENS_BALLANGVEL
from engine.enums import mjSENS_BALLQUAT
from engine.enums import mjSENS_CAMPROJECTION
from engine.enums import mjSENS_CLOCK
from engine.enums import mjSENS_CONTACT
from engine.enums import mjSENS_E_KINETIC
from engine.enums import mjSENS_E_POTENTIAL
from engine.enums import mjSENS_FORCE
from engine.enums import mjSENS_FRAMEANGACC
from engine.enums import mjSENS_FRAMEANGVEL
from engine.enums import mjSENS_FRAMELINACC
from engine.enums import mjSENS_FRAMELINVEL
from engine.enums import mjSENS_FRAMEPOS
from engine.enums import mjSENS_FRAMEQUAT
from engine.enums import mjSENS_FRAMEXAXIS
from engine.enums import mjSENS_FRAMEYAXIS
from engine.enums import mjSENS_FRAMEZAXIS
from engine.enums import mjSENS_GEOMDIST
from engine.enums import mjSENS_GEOMFROMTO
from engine.enums import mjSENS_GEOMNORMAL
from engine.enums import mjSENS_GYRO
from engine.enums import mjSENS_INSIDESITE
from engine.enums import mjSENS_JOINTACTFRC
from engine.enums import mjSENS_JOINTLIMITFRC
from engine.enums import mjSENS_JOINTLIMITPOS
from engine.enums import mjSENS_JOINTLIMITVEL
from engine.enums import mjSENS_JOINTPOS
from engine.enums import mjSENS_JOINTVEL
from engine.enums import mjSENS_MAGNETOMETER
from engine.enums import mjSENS_PLUGIN
from engine.enums import mjSENS_RANGEFINDER
from engine.enums import mjSENS_SUBTREEANGMOM
from engine.enums import mjSENS_SUBTREECOM
from engine.enums import mjSENS_SUBTREELINVEL
from engine.enums import mjSENS_TENDONACTFRC
from engine.enums import mjSENS_TENDONLIMITFRC
from engine.enums import mjSENS_TENDONLIMITPOS
from engine.enums import mjSENS_TENDONLIMITVEL
from engine.enums import mjSENS_TENDONPOS
from engine.enums import mjSENS_TENDONVEL
from engine.enums import mjSENS_TORQUE
from engine.enums import mjSENS_TOUCH
from engine.enums import mjSENS_USER
from engine.enums import mjSENS_VELOCIMETER
from engine.enums import mjSTAGE_ACC
from engine.enums import mjSTAGE_POS
from engine.enums import mjSTAGE_VEL

# tag -> (mjtSensor, attribute holding the object, namespace, mjtObj, dim, datatype, stage)
_SIMPLE = {
  "touch": (mjSENS_TOUCH, "site", "site", mjOBJ_SITE, 1, mjDATATYPE_POSITIVE, mjSTAGE_ACC),
  "accelerometer": (
    mjSENS_ACCELEROMETER,
    "site",
    "site",
    mjOBJ_SITE,
    3,
    mjDATATYPE_REAL,
    mjSTAGE_ACC,
  ),
  "velocimeter": (mjSENS_VELOCIMETER, "site", "site", mjOBJ_SITE, 3, mjDATATYPE_REAL, mjSTAGE_VEL),
  "gyro": (mjSENS_GYRO, "site", "site", mjOBJ_SITE, 3, mjDATATYPE_REAL, mjSTAGE_VEL),
  "force": (mjSENS_FORCE, "site", "site", mjOBJ_SITE, 3, mjDATATYPE_REAL, mjSTAGE_ACC),
  "torque": (mjSENS_TORQUE, "site", "site", mjOBJ_SITE, 3, mjDATATYPE_REAL, mjSTAGE_ACC),
  "magnetometer": (
    mjSENS_MAGNETOMETER,
    "site",
    "site",
    mjOBJ_SITE,
    3,
    mjDATATYPE_REAL,
    mjSTAGE_POS,
  ),
  "camprojection": (
    mjSENS_CAMPROJECTION,
    "site",
    "site",
    mjOBJ_SITE,
    2,
    mjDATATYPE_REAL,
    mjSTAGE_POS,
  ),
  "jointpos": (mjSENS_JOINTPOS, "joint", "joint", mjOBJ_JOINT, 1, mjDATATYPE_REAL, mjSTAGE_POS),
  "jointvel": (mjSENS_JOINTVEL, "joint", "joint", mjOBJ_JOINT, 1, mjDATATYPE_REAL, mjSTAGE_VEL),
  "tendonpos": (
    mjSENS_TENDONPOS,
    "tendon",
    "tendon",
    mjOBJ_TENDON,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_POS,
  ),
  "tendonvel": (
    mjSENS_TENDONVEL,
    "tendon",
    "tendon",
    mjOBJ_TENDON,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_VEL,
  ),
  "actuatorpos": (
    mjSENS_ACTUATORPOS,
    "actuator",
    "actuator",
    mjOBJ_ACTUATOR,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_POS,
  ),
  "actuatorvel": (
    mjSENS_ACTUATORVEL,
    "actuator",
    "actuator",
    mjOBJ_ACTUATOR,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_VEL,
  ),
  "actuatorfrc": (
    mjSENS_ACTUATORFRC,
    "actuator",
    "actuator",
    mjOBJ_ACTUATOR,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_ACC,
  ),
  "jointactuatorfrc": (
    mjSENS_JOINTACTFRC,
    "joint",
    "joint",
    mjOBJ_JOINT,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_ACC,
  ),
  "tendonactuatorfrc": (
    mjSENS_TENDONACTFRC,
    "tendon",
    "tendon",
    mjOBJ_TENDON,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_ACC,
  ),
  "ballquat": (
    mjSENS_BALLQUAT,
    "joint",
    "joint",
    mjOBJ_JOINT,
    4,
    mjDATATYPE_QUATERNION,
    mjSTAGE_POS,
  ),
  "ballangvel": (mjSENS_BALLANGVEL, "joint", "joint", mjOBJ_JOINT, 3, mjDATATYPE_REAL, mjSTAGE_VEL),
  "jointlimitpos": (
    mjSENS_JOINTLIMITPOS,
    "joint",
    "joint",
    mjOBJ_JOINT,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_POS,
  ),
  "jointlimitvel": (
    mjSENS_JOINTLIMITVEL,
    "joint",
    "joint",
    mjOBJ_JOINT,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_VEL,
  ),
  "jointlimitfrc": (
    mjSENS_JOINTLIMITFRC,
    "joint",
    "joint",
    mjOBJ_JOINT,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_ACC,
  ),
  "tendonlimitpos": (
    mjSENS_TENDONLIMITPOS,
    "tendon",
    "tendon",
    mjOBJ_TENDON,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_POS,
  ),
  "tendonlimitvel": (
    mjSENS_TENDONLIMITVEL,
    "tendon",
    "tendon",
    mjOBJ_TENDON,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_VEL,
  ),
  "tendonlimitfrc": (
    mjSENS_TENDONLIMITFRC,
    "tendon",
    "tendon",
    mjOBJ_TENDON,
    1,
    mjDATATYPE_REAL,
    mjSTAGE_ACC,
  ),
  "subtreecom": (mjSENS_SUBTREECOM, "body", "body", mjOBJ_BODY, 3, mjDATATYPE_REAL, mjSTAGE_POS),
  "subtreelinvel": (
    mjSENS_SUBTREELINVEL,
    "body",
    "body",
    mjOBJ_BODY,
    3,
    mjDATATYPE_REAL,
    mjSTAGE_VEL,
  ),
  "subtreeangmom": (
    mjSENS_SUBTREEANGMOM,
    "body",
    "body",
    mjOBJ_BODY,
    3,
    mjDATATYPE_REAL,
    mjSTAGE_VEL,
  ),
  "e_potential": (mjSENS_E_POTENTIAL, None, None, mjOBJ_UNKNOWN, 1, mjDATATYPE_REAL, mjSTAGE_POS),
  "e_kinetic": (mjSENS_E_KINETIC, None, None, mjOBJ_UNKNOWN, 1, mjDATATYPE_REAL, mjSTAGE_POS),
  "clock": (mjSENS_CLOCK, None, None, mjOBJ_UNKNOWN, 1, mjDATATYPE_REAL, mjSTAGE_POS),
}
# frame sensors: tag -> (mjtSensor, dim, datatype, stage)
_FRAME = {
  "framepos": (mjSENS_FRAMEPOS, 3, mjDATATYPE_REAL, mjSTAGE_POS),
  "framequat": (mjSENS_FRAMEQUAT, 4, mjDATATYPE_QUATERNION, mjSTAGE_POS),
  "framexaxis": (mjSENS_FRAMEXAXIS, 3, mjDATATYPE_AXIS, mjSTAGE_POS),
  "frameyaxis": (mjSENS_FRAMEYAXIS, 3, mjDATATYPE_AXIS, mjSTAGE_POS),
  "framezaxis": (mjSENS_FRAMEZAXIS, 3, mjDATATYPE_AXIS, mjSTAGE_POS),
  "framelinvel": (mjSENS_FRAMELINVEL, 3, mjDATATYPE_REAL, mjSTAGE_VEL),
  "frameangvel": (mjSENS_FRAMEANGVEL, 3, mjDATATYPE_REAL, mjSTAGE_VEL),
  "framelinacc": (mjSENS_FRAMELINACC, 3, mjDATATYPE_REAL, mjSTAGE_ACC),
  "frameangacc": (mjSENS_FRAMEANGACC, 3, mjDATATYPE_REAL, mjSTAGE_ACC),
}
_GEOMPAIR = {
  "distance": (mjSENS_GEOMDIST, 1, mjDATATYPE_REAL),
  "normal": (mjSENS_GEOMNORMAL, 3, mjDATATYPE_AXIS),
  "fromto": (mjSENS_GEOMFROMTO, 6, mjDATATYPE_REAL),
}
_FRAMEOBJ_NS = {
  mjOBJ_BODY: "body",
  mjOBJ_XBODY: "body",
  mjOBJ_GEOM: "geom",
  mjOBJ_SITE: "site",
  mjOBJ_CAMERA: "camera",
}
# contact sensor data fields: bit -> size (found force torque dist pos normal tangent linvel
# angvel)
_CONDATA = ((1, 1), (2, 3), (4, 3), (8, 1), (16, 3), (32, 3), (64, 3), (128, 3), (256, 3))
_RAYDATA = ((1, 1), (2, 3), (4, 3), (8, 3), (16, 3), (32, 1))


def make(ctx, root):
  """Sensor objects in document order."""
  sensors = []
  for sec in root.children:
    if sec.tag != "sensor":
      continue
    for n in sec.children:
      sensors.append(bt.Obj(n, dict(n.attrs)))
  return sensors


def _datasize(bits, table):
  return sum(size for bit, size in table if bits & bit)


def compile_all(ctx, lists):
  """Port of mjCSensor::Compile."""
  for sen in lists["sensor"]:
    n, a = sen.node, sen.node.attrs
    tag = n.tag
    sen.user = bt.user_data(sen, a, ctx.nuser["sensor"], "sensor")
    if a.get("noise", 0.0) < 0:
      raise n.error("negative noise in sensor", "noise")
    if a.get("cutoff", 0.0) < 0:
      raise n.error("negative cutoff in sensor", "cutoff")
    sen.nsample = a.get("nsample", 0)
    sen.interp = a.get("interp", 0)
    sen.delay = a.get("delay", 0.0)
    if sen.nsample < 0:
      raise n.error("nsample must be non-negative", "nsample")
    if sen.delay > 0 and not sen.nsample:
      raise n.error("setting delay > 0 without a history buffer", "delay")
    interval = tuple(a.get("interval", ())) + (0.0, 0.0)
    sen.interval = interval[:2]
    if sen.interval[0] < 0:
      raise n.error("negative interval in sensor", "interval")
    if sen.interval[1] > 0:
      raise n.error("positive phase in sensor", "interval")
    sen.objtype, sen.objid, sen.reftype, sen.refid = mjOBJ_UNKNOWN, -1, mjOBJ_UNKNOWN, -1
    sen.intprm = [0, 0, 0]

    if tag in _SIMPLE:
      stype, attr, ns, otype, dim, dtype, stage = _SIMPLE[tag]
      sen.type, sen.dim, sen.datatype, sen.needstage = stype, dim, dtype, stage
      if attr is not None:
        obj = ctx.lookup(ns, a[attr], n, attr)
        sen.objtype, sen.objid = otype, obj.id
      if tag in ("jointpos", "jointvel", "jointactuatorfrc") and obj.type not in (
        mjJNT_SLIDE,
        mjJNT_HINGE,
      ):
        raise n.error("joint must be slide or hinge in sensor", "joint")
      if tag in ("ballquat", "ballangvel") and obj.type != mjJNT_BALL:
        raise n.error("joint must be ball in sensor", "joint")
      if tag.startswith("jointlimit") and not obj.limited:
        raise n.error("joint must be limited in sensor", "joint")
      if tag.startswith("tendonlimit") and not obj.limited:
        raise n.error("tendon must be limited in sensor", "tendon")
      if tag == "camprojection":
        cam = ctx.lookup("camera", a["camera"], n, "camera")
        sen.reftype, sen.refid = mjOBJ_CAMERA, cam.id
        res = cam.spec["resolution"]
        if not res[0] or not res[1]:
          raise n.error("camera projection sensor requires camera resolution", "camera")

    elif tag == "rangefinder":
      sen.type, sen.datatype, sen.needstage = mjSENS_RANGEFINDER, mjDATATYPE_REAL, mjSTAGE_POS
      bits = a.get("data", 1)
      sen.intprm = [bits, 0, 0]
      size = _datasize(bits, _RAYDATA)
      if "site" in a:
        sen.objtype, sen.objid = mjOBJ_SITE, ctx.lookup("site", a["site"], n, "site").id
        sen.dim = size
      elif "camera" in a:
        cam = ctx.lookup("camera", a["camera"], n, "camera")
        sen.objtype, sen.objid = mjOBJ_CAMERA, cam.id
        res = cam.spec["resolution"]
        sen.dim = size * res[0] * res[1]
      else:
        raise n.error("rangefinder requires a site or a camera")

    elif tag in _FRAME:
      sen.type, sen.dim, sen.datatype, sen.needstage = _FRAME[tag]
      _frame_obj(ctx, sen, n, a, "objtype", "objname")
      if "reftype" in a or "refname" in a:
        if "reftype" not in a or "refname" not in a:
          raise n.error("reftype and refname must be given together", "reftype")
        otype = a["reftype"]
        ref = ctx.lookup(_FRAMEOBJ_NS[otype], a["refname"], n, "refname")
        sen.reftype, sen.refid = otype, ref.id

    elif tag == "insidesite":
      if a.get("enclosed", "false") != "false":
        # MuJoCo: a signed (real) distance instead of the positive one, sensor_intprm[0] = 1
        raise n.error(
          "enclosed insidesite sensors are not supported yet", "enclosed", cls=ctx.Unsupported
        )
      sen.type, sen.dim = mjSENS_INSIDESITE, 1
      sen.datatype, sen.needstage = mjDATATYPE_POSITIVE, mjSTAGE_POS
      _frame_obj(ctx, sen, n, a, "objtype", "objname")
      sen.reftype, sen.refid = mjOBJ_SITE, ctx.lookup("site", a["site"], n, "site").id

    elif tag in _GEOMPAIR:
      sen.type, sen.dim, sen.datatype = _GEOMPAIR[tag]
      sen.needstage = mjSTAGE_POS
      objs = []
      for k in ("1", "2"):
        if "geom" + k in a:
          g = ctx.lookup("geom", a["geom" + k], n, "geom" + k)
          if g.type == mjGEOM_HFIELD:
            raise n.error("height fields are not supported in geom distance sensors", "geom" + k)
          objs.append((mjOBJ_GEOM, g))
        elif "body" + k in a:
          objs.append((mjOBJ_BODY, ctx.lookup("body", a["body" + k], n, "body" + k)))
        else:
          raise n.error(f"{tag} sensor requires geom{k} or body{k}")
      if objs[0][0] == objs[1][0] and objs[0][1] is objs[1][1]:
        raise n.error("1st body/geom must be different from 2nd body/geom")
      sen.objtype, sen.objid = objs[0][0], objs[0][1].id
      sen.reftype, sen.refid = objs[1][0], objs[1][1].id

    elif tag == "contact":
      sen.type, sen.datatype = mjSENS_CONTACT, mjDATATYPE_REAL
      for attr, otype, ns, isref in (
        ("geom1", mjOBJ_GEOM, "geom", False),
        ("body1", mjOBJ_BODY, "body", False),
        ("subtree1", mjOBJ_XBODY, "body", False),
        ("site", mjOBJ_SITE, "site", False),
        ("geom2", mjOBJ_GEOM, "geom", True),
        ("body2", mjOBJ_BODY, "body", True),
        ("subtree2", mjOBJ_XBODY, "body", True),
      ):
        if attr in a:
          obj = ctx.lookup(ns, a[attr], n, attr)
          if isref:
            sen.reftype, sen.refid = otype, obj.id
          else:
            sen.objtype, sen.objid = otype, obj.id
      bits = a.get("data", 1)
      reduce = a.get("reduce", 0)
      num = a.get("num", 1)
      if num <= 0:
        raise n.error("contact sensor num must be positive", "num")
      if reduce == 3 and bits & (128 | 256):
        raise n.error("netforce reduction is incompatible with linvel or angvel", "reduce")
      sen.intprm = [bits, reduce, num]
      sen.dim = num * _datasize(bits, _CONDATA)
      if bits & (2 | 4) or reduce in (2, 3):
        sen.needstage = mjSTAGE_ACC
      elif bits & (128 | 256):
        sen.needstage = mjSTAGE_VEL
      else:
        sen.needstage = mjSTAGE_POS

    elif tag == "plugin":
      inst = sen.plugin_inst
      sen.type, sen.datatype = mjSENS_PLUGIN, mjDATATYPE_REAL
      sen.needstage = inst.plugin.needstage
      sen.dim = inst.plugin.sensor_size(inst.config, sen.id)
      if sen.dim < 0:
        raise n.error(f"plugin '{inst.plugin.name}' gives sensor {sen.id} a negative size")
      for tattr, nattr, ref in (("objtype", "objname", False), ("reftype", "refname", True)):
        if tattr in a or nattr in a:
          if tattr not in a or nattr not in a:
            raise n.error(f"{tattr} and {nattr} must be given together", tattr)
          otype = build_misc.OBJ_TYPES.get(a[tattr])
          if otype not in build_misc.OBJ_NAMESPACE:
            raise n.error(f"unknown object type '{a[tattr]}'", tattr)
          obj = ctx.lookup(build_misc.OBJ_NAMESPACE[otype], a[nattr], n, nattr)
          if ref:
            sen.reftype, sen.refid = otype, obj.id
          else:
            sen.objtype, sen.objid = otype, obj.id

    elif tag == "user":
      sen.type = mjSENS_USER
      sen.dim = a["dim"]
      sen.datatype = a.get("datatype", mjDATATYPE_REAL)
      sen.needstage = a.get("needstage", mjSTAGE_ACC)
      if sen.dim < 0:
        raise n.error("sensor dim must be positive in sensor", "dim")
      if sen.datatype == mjDATATYPE_AXIS and sen.dim != 3:
        raise n.error("datatype AXIS requires dim=3 in sensor", "dim")
      if sen.datatype == mjDATATYPE_QUATERNION and sen.dim != 4:
        raise n.error("datatype QUATERNION requires dim=4 in sensor", "dim")
      if "objtype" in a or "objname" in a:
        if "objtype" not in a or "objname" not in a:
          raise n.error("objtype and objname must be given together", "objtype")
        otype = build_misc.OBJ_TYPES.get(a["objtype"])
        if otype not in build_misc.OBJ_NAMESPACE:
          raise n.error(f"unknown object type '{a['objtype']}'", "objtype")
        obj = ctx.lookup(build_misc.OBJ_NAMESPACE[otype], a["objname"], n, "objname")
        sen.objtype, sen.objid = otype, obj.id
    else:
      raise n.error(f"sensor '{tag}' is not supported yet", cls=ctx.Unsupported)

    if a.get("cutoff", 0.0) > 0 and (
      sen.datatype == mjDATATYPE_QUATERNION
      or (sen.datatype == mjDATATYPE_AXIS and sen.type != mjSENS_GEOMNORMAL)
    ):
      raise n.error("cutoff applied to axis or quaternion datatype in sensor", "cutoff")


def _frame_obj(ctx, sen, n, a, tattr, nattr):
  otype = a[tattr]
  obj = ctx.lookup(_FRAMEOBJ_NS[otype], a[nattr], n, nattr)
  sen.objtype, sen.objid = otype, obj.id


def arrays(ctx, lists, sizes, arrays):
  """Sensor arrays (CopyObjects)."""
  sens = lists["sensor"]
  ns = len(sens)
  adr, total = [], 0
  for s in sens:
    adr.append(total)
    total += s.dim
  sizes.update(nsensor=ns, nsensordata=total)
  _arr(arrays, "sensor_type", [s.type for s in sens])
  _arr(arrays, "sensor_datatype", [s.datatype for s in sens])
  _arr(arrays, "sensor_needstage", [s.needstage for s in sens])
  _arr(arrays, "sensor_objtype", [s.objtype for s in sens])
  _arr(arrays, "sensor_objid", [s.objid for s in sens])
  _arr(arrays, "sensor_reftype", [s.reftype for s in sens])
  _arr(arrays, "sensor_refid", [s.refid for s in sens])
  _arr(arrays, "sensor_intprm", [s.intprm for s in sens], (ns, 3))
  _arr(arrays, "sensor_dim", [s.dim for s in sens])
  _arr(arrays, "sensor_adr", adr)
  _arr(arrays, "sensor_cutoff", [s.spec.get("cutoff", 0.0) for s in sens])
  _arr(arrays, "sensor_noise", [s.spec.get("noise", 0.0) for s in sens])
  nhist = sizes.get("nhistory", 0)
  histadr = []
  for s in sens:
    histadr.append(nhist if s.nsample else -1)
    if s.nsample:
      nhist += 2 + s.nsample * (1 + s.dim)
  sizes["nhistory"] = nhist
  _arr(arrays, "sensor_history", [(s.nsample, s.interp) for s in sens], (ns, 2))
  _arr(arrays, "sensor_historyadr", histadr)
  _arr(arrays, "sensor_delay", [s.delay for s in sens])
  _arr(arrays, "sensor_interval", [s.interval for s in sens], (ns, 2))
  _arr(arrays, "sensor_user", [s.user for s in sens], (ns, ctx.nuser["sensor"]))
  _arr(arrays, "sensor_plugin", [-1] * ns)
