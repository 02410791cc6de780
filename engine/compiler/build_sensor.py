"""Sensors: type, data type, stage, sensorized object and reference, dimension, address.

Ports of mjCSensor::Compile (user_objects.cc) and the sensor reading of
xml_native_reader.cc, as MuJoCo 3.17 compiles them (checked against it).
"""

from engine.compiler import build_tree as bt
from engine.compiler import build_misc
from engine.compiler.build_common import arr as _arr
from engine.enums import mjGEOM_HFIELD
from engine.enums import mjJNT_BALL
from engine.enums import mjJNT_HINGE
from engine.enums import mjJNT_SLIDE

# mjtObj
OBJ_UNKNOWN, OBJ_BODY, OBJ_XBODY, OBJ_JOINT = 0, 1, 2, 3
OBJ_GEOM, OBJ_SITE, OBJ_CAMERA, OBJ_TENDON, OBJ_ACTUATOR = 5, 6, 7, 18, 19
# mjtDataType, mjtStage
REAL, POSITIVE, AXIS, QUATERNION = range(4)
POS, VEL, ACC = 1, 2, 3

# tag -> (mjtSensor, attribute holding the object, namespace, mjtObj, dim, datatype, stage)
_SIMPLE = {
  'touch': (0, 'site', 'site', OBJ_SITE, 1, POSITIVE, ACC),
  'accelerometer': (1, 'site', 'site', OBJ_SITE, 3, REAL, ACC),
  'velocimeter': (2, 'site', 'site', OBJ_SITE, 3, REAL, VEL),
  'gyro': (3, 'site', 'site', OBJ_SITE, 3, REAL, VEL),
  'force': (4, 'site', 'site', OBJ_SITE, 3, REAL, ACC),
  'torque': (5, 'site', 'site', OBJ_SITE, 3, REAL, ACC),
  'magnetometer': (6, 'site', 'site', OBJ_SITE, 3, REAL, POS),
  'camprojection': (8, 'site', 'site', OBJ_SITE, 2, REAL, POS),
  'jointpos': (9, 'joint', 'joint', OBJ_JOINT, 1, REAL, POS),
  'jointvel': (10, 'joint', 'joint', OBJ_JOINT, 1, REAL, VEL),
  'tendonpos': (11, 'tendon', 'tendon', OBJ_TENDON, 1, REAL, POS),
  'tendonvel': (12, 'tendon', 'tendon', OBJ_TENDON, 1, REAL, VEL),
  'actuatorpos': (13, 'actuator', 'actuator', OBJ_ACTUATOR, 1, REAL, POS),
  'actuatorvel': (14, 'actuator', 'actuator', OBJ_ACTUATOR, 1, REAL, VEL),
  'actuatorfrc': (15, 'actuator', 'actuator', OBJ_ACTUATOR, 1, REAL, ACC),
  'jointactuatorfrc': (16, 'joint', 'joint', OBJ_JOINT, 1, REAL, ACC),
  'tendonactuatorfrc': (17, 'tendon', 'tendon', OBJ_TENDON, 1, REAL, ACC),
  'ballquat': (18, 'joint', 'joint', OBJ_JOINT, 4, QUATERNION, POS),
  'ballangvel': (19, 'joint', 'joint', OBJ_JOINT, 3, REAL, VEL),
  'jointlimitpos': (20, 'joint', 'joint', OBJ_JOINT, 1, REAL, POS),
  'jointlimitvel': (21, 'joint', 'joint', OBJ_JOINT, 1, REAL, VEL),
  'jointlimitfrc': (22, 'joint', 'joint', OBJ_JOINT, 1, REAL, ACC),
  'tendonlimitpos': (23, 'tendon', 'tendon', OBJ_TENDON, 1, REAL, POS),
  'tendonlimitvel': (24, 'tendon', 'tendon', OBJ_TENDON, 1, REAL, VEL),
  'tendonlimitfrc': (25, 'tendon', 'tendon', OBJ_TENDON, 1, REAL, ACC),
  'subtreecom': (35, 'body', 'body', OBJ_BODY, 3, REAL, POS),
  'subtreelinvel': (36, 'body', 'body', OBJ_BODY, 3, REAL, VEL),
  'subtreeangmom': (37, 'body', 'body', OBJ_BODY, 3, REAL, VEL),
  'e_potential': (43, None, None, OBJ_UNKNOWN, 1, REAL, POS),
  'e_kinetic': (44, None, None, OBJ_UNKNOWN, 1, REAL, POS),
  'clock': (45, None, None, OBJ_UNKNOWN, 1, REAL, POS),
}
# frame sensors: tag -> (mjtSensor, dim, datatype, stage)
_FRAME = {
  'framepos': (26, 3, REAL, POS), 'framequat': (27, 4, QUATERNION, POS),
  'framexaxis': (28, 3, AXIS, POS), 'frameyaxis': (29, 3, AXIS, POS),
  'framezaxis': (30, 3, AXIS, POS), 'framelinvel': (31, 3, REAL, VEL),
  'frameangvel': (32, 3, REAL, VEL), 'framelinacc': (33, 3, REAL, ACC),
  'frameangacc': (34, 3, REAL, ACC),
}
_GEOMPAIR = {'distance': (39, 1, REAL), 'normal': (40, 3, AXIS), 'fromto': (41, 6, REAL)}
_FRAMEOBJ_NS = {OBJ_BODY: 'body', OBJ_XBODY: 'body', OBJ_GEOM: 'geom', OBJ_SITE: 'site',
                OBJ_CAMERA: 'camera'}
# contact sensor data fields: bit -> size (found force torque dist pos normal tangent linvel
# angvel)
_CONDATA = ((1, 1), (2, 3), (4, 3), (8, 1), (16, 3), (32, 3), (64, 3), (128, 3), (256, 3))
_RAYDATA = ((1, 1), (2, 3), (4, 3), (8, 3), (16, 3), (32, 1))


def make(ctx, root):
  """Sensor objects in document order."""
  sensors = []
  for sec in root.children:
    if sec.tag != 'sensor':
      continue
    for n in sec.children:
      sensors.append(bt.Obj(n, dict(n.attrs)))
  return sensors


def _datasize(bits, table):
  return sum(size for bit, size in table if bits & bit)


def compile_all(ctx, lists):
  """Port of mjCSensor::Compile."""
  for sen in lists['sensor']:
    n, a = sen.node, sen.node.attrs
    tag = n.tag
    sen.user = bt.user_data(sen, a, ctx.nuser['sensor'], 'sensor')
    if a.get('noise', 0.0) < 0:
      raise n.error('negative noise in sensor', 'noise')
    if a.get('cutoff', 0.0) < 0:
      raise n.error('negative cutoff in sensor', 'cutoff')
    sen.nsample = a.get('nsample', 0)
    sen.interp = a.get('interp', 0)
    sen.delay = a.get('delay', 0.0)
    if sen.nsample < 0:
      raise n.error('nsample must be non-negative', 'nsample')
    if sen.delay > 0 and not sen.nsample:
      raise n.error('setting delay > 0 without a history buffer', 'delay')
    interval = tuple(a.get('interval', ())) + (0.0, 0.0)
    sen.interval = interval[:2]
    if sen.interval[0] < 0:
      raise n.error('negative interval in sensor', 'interval')
    if sen.interval[1] > 0:
      raise n.error('positive phase in sensor', 'interval')
    sen.objtype, sen.objid, sen.reftype, sen.refid = OBJ_UNKNOWN, -1, OBJ_UNKNOWN, -1
    sen.intprm = [0, 0, 0]

    if tag in _SIMPLE:
      stype, attr, ns, otype, dim, dtype, stage = _SIMPLE[tag]
      sen.type, sen.dim, sen.datatype, sen.needstage = stype, dim, dtype, stage
      if attr is not None:
        obj = ctx.lookup(ns, a[attr], n, attr)
        sen.objtype, sen.objid = otype, obj.id
      if tag in ('jointpos', 'jointvel', 'jointactuatorfrc') and \
         obj.type not in (mjJNT_SLIDE, mjJNT_HINGE):
        raise n.error('joint must be slide or hinge in sensor', 'joint')
      if tag in ('ballquat', 'ballangvel') and obj.type != mjJNT_BALL:
        raise n.error('joint must be ball in sensor', 'joint')
      if tag.startswith('jointlimit') and not obj.limited:
        raise n.error('joint must be limited in sensor', 'joint')
      if tag.startswith('tendonlimit') and not obj.limited:
        raise n.error('tendon must be limited in sensor', 'tendon')
      if tag == 'camprojection':
        cam = ctx.lookup('camera', a['camera'], n, 'camera')
        sen.reftype, sen.refid = OBJ_CAMERA, cam.id
        res = cam.spec['resolution']
        if not res[0] or not res[1]:
          raise n.error('camera projection sensor requires camera resolution', 'camera')

    elif tag == 'rangefinder':
      sen.type, sen.datatype, sen.needstage = 7, REAL, POS
      bits = a.get('data', 1)
      sen.intprm = [bits, 0, 0]
      size = _datasize(bits, _RAYDATA)
      if 'site' in a:
        sen.objtype, sen.objid = OBJ_SITE, ctx.lookup('site', a['site'], n, 'site').id
        sen.dim = size
      elif 'camera' in a:
        cam = ctx.lookup('camera', a['camera'], n, 'camera')
        sen.objtype, sen.objid = OBJ_CAMERA, cam.id
        res = cam.spec['resolution']
        sen.dim = size * res[0] * res[1]
      else:
        raise n.error('rangefinder requires a site or a camera')

    elif tag in _FRAME:
      sen.type, sen.dim, sen.datatype, sen.needstage = _FRAME[tag]
      _frame_obj(ctx, sen, n, a, 'objtype', 'objname')
      if 'reftype' in a or 'refname' in a:
        if 'reftype' not in a or 'refname' not in a:
          raise n.error('reftype and refname must be given together', 'reftype')
        otype = a['reftype']
        ref = ctx.lookup(_FRAMEOBJ_NS[otype], a['refname'], n, 'refname')
        sen.reftype, sen.refid = otype, ref.id

    elif tag == 'insidesite':
      sen.type, sen.dim, sen.datatype, sen.needstage = 38, 1, POSITIVE, POS
      _frame_obj(ctx, sen, n, a, 'objtype', 'objname')
      sen.reftype, sen.refid = OBJ_SITE, ctx.lookup('site', a['site'], n, 'site').id

    elif tag in _GEOMPAIR:
      sen.type, sen.dim, sen.datatype = _GEOMPAIR[tag]
      sen.needstage = POS
      objs = []
      for k in ('1', '2'):
        if 'geom' + k in a:
          g = ctx.lookup('geom', a['geom' + k], n, 'geom' + k)
          if g.type == mjGEOM_HFIELD:
            raise n.error('height fields are not supported in geom distance sensors',
                          'geom' + k)
          objs.append((OBJ_GEOM, g))
        elif 'body' + k in a:
          objs.append((OBJ_BODY, ctx.lookup('body', a['body' + k], n, 'body' + k)))
        else:
          raise n.error(f'{tag} sensor requires geom{k} or body{k}')
      if objs[0][0] == objs[1][0] and objs[0][1] is objs[1][1]:
        raise n.error('1st body/geom must be different from 2nd body/geom')
      sen.objtype, sen.objid = objs[0][0], objs[0][1].id
      sen.reftype, sen.refid = objs[1][0], objs[1][1].id

    elif tag == 'contact':
      sen.type, sen.datatype = 42, REAL
      for attr, otype, ns, isref in (('geom1', OBJ_GEOM, 'geom', False),
                                     ('body1', OBJ_BODY, 'body', False),
                                     ('subtree1', OBJ_XBODY, 'body', False),
                                     ('site', OBJ_SITE, 'site', False),
                                     ('geom2', OBJ_GEOM, 'geom', True),
                                     ('body2', OBJ_BODY, 'body', True),
                                     ('subtree2', OBJ_XBODY, 'body', True)):
        if attr in a:
          obj = ctx.lookup(ns, a[attr], n, attr)
          if isref:
            sen.reftype, sen.refid = otype, obj.id
          else:
            sen.objtype, sen.objid = otype, obj.id
      bits = a.get('data', 1)
      reduce = a.get('reduce', 0)
      num = a.get('num', 1)
      if num <= 0:
        raise n.error('contact sensor num must be positive', 'num')
      if reduce == 3 and bits & (128 | 256):
        raise n.error('netforce reduction is incompatible with linvel or angvel', 'reduce')
      sen.intprm = [bits, reduce, num]
      sen.dim = num * _datasize(bits, _CONDATA)
      if bits & (2 | 4) or reduce in (2, 3):
        sen.needstage = ACC
      elif bits & (128 | 256):
        sen.needstage = VEL
      else:
        sen.needstage = POS

    elif tag == 'user':
      sen.type = 48
      sen.dim = a['dim']
      sen.datatype = a.get('datatype', REAL)
      sen.needstage = a.get('needstage', ACC)
      if sen.dim < 0:
        raise n.error('sensor dim must be positive in sensor', 'dim')
      if sen.datatype == AXIS and sen.dim != 3:
        raise n.error('datatype AXIS requires dim=3 in sensor', 'dim')
      if sen.datatype == QUATERNION and sen.dim != 4:
        raise n.error('datatype QUATERNION requires dim=4 in sensor', 'dim')
      if 'objtype' in a or 'objname' in a:
        if 'objtype' not in a or 'objname' not in a:
          raise n.error('objtype and objname must be given together', 'objtype')
        otype = build_misc.OBJ_TYPES.get(a['objtype'])
        if otype not in build_misc.OBJ_NAMESPACE:
          raise n.error(f"unknown object type '{a['objtype']}'", 'objtype')
        obj = ctx.lookup(build_misc.OBJ_NAMESPACE[otype], a['objname'], n, 'objname')
        sen.objtype, sen.objid = otype, obj.id
    else:
      raise n.error(f"sensor '{tag}' is not supported yet", cls=ctx.Unsupported)

    if a.get('cutoff', 0.0) > 0 and (sen.datatype == QUATERNION or
                                     (sen.datatype == AXIS and sen.type != 40)):
      raise n.error('cutoff applied to axis or quaternion datatype in sensor', 'cutoff')


def _frame_obj(ctx, sen, n, a, tattr, nattr):
  otype = a[tattr]
  obj = ctx.lookup(_FRAMEOBJ_NS[otype], a[nattr], n, nattr)
  sen.objtype, sen.objid = otype, obj.id


def arrays(ctx, lists, sizes, arrays):
  """Sensor arrays (CopyObjects)."""
  sens = lists['sensor']
  ns = len(sens)
  adr, total = [], 0
  for s in sens:
    adr.append(total)
    total += s.dim
  sizes.update(nsensor=ns, nsensordata=total)
  _arr(arrays, 'sensor_type', [s.type for s in sens])
  _arr(arrays, 'sensor_datatype', [s.datatype for s in sens])
  _arr(arrays, 'sensor_needstage', [s.needstage for s in sens])
  _arr(arrays, 'sensor_objtype', [s.objtype for s in sens])
  _arr(arrays, 'sensor_objid', [s.objid for s in sens])
  _arr(arrays, 'sensor_reftype', [s.reftype for s in sens])
  _arr(arrays, 'sensor_refid', [s.refid for s in sens])
  _arr(arrays, 'sensor_intprm', [s.intprm for s in sens], (ns, 3))
  _arr(arrays, 'sensor_dim', [s.dim for s in sens])
  _arr(arrays, 'sensor_adr', adr)
  _arr(arrays, 'sensor_cutoff', [s.spec.get('cutoff', 0.0) for s in sens])
  _arr(arrays, 'sensor_noise', [s.spec.get('noise', 0.0) for s in sens])
  nhist = sizes.get('nhistory', 0)
  histadr = []
  for s in sens:
    histadr.append(nhist if s.nsample else -1)
    if s.nsample:
      nhist += 2 + s.nsample * (1 + s.dim)
  sizes['nhistory'] = nhist
  _arr(arrays, 'sensor_history', [(s.nsample, s.interp) for s in sens], (ns, 2))
  _arr(arrays, 'sensor_historyadr', histadr)
  _arr(arrays, 'sensor_delay', [s.delay for s in sens])
  _arr(arrays, 'sensor_interval', [s.interval for s in sens], (ns, 2))
  _arr(arrays, 'sensor_user', [s.user for s in sens], (ns, ctx.nuser['sensor']))
  _arr(arrays, 'sensor_plugin', [-1] * ns)
