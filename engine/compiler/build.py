"""Parsed MJCF tree -> MjModel sizes, arrays and options (plain numpy; no MjModel objects).

Follows mjCModel::TryCompile (user_model.cc): settings, defaults, assets, kinematic tree (with
fusestatic), non-tree elements, names, then the arrays of CopyTree / CopyObjects and the
topology part of mj_setConst (subtree masses, trees, sleep policy). Quantities mj_setConst
computes from a forward pass at qpos0 (invweight0, length0, acc0, dof_M0, stat, cam/light *0,
lengthrange by simulation, springdamper) are left to engine/setconst.py.
"""

import dataclasses
import math
import warnings

import numpy as np

from engine import fields as F
from engine.compiler import build_actuator
from engine.compiler import build_assets
from engine.compiler import build_math as bm
from engine.compiler import build_misc
from engine.compiler import build_sensor
from engine.compiler import build_tendon
from engine.compiler import build_tree as bt
from engine.compiler import defaults as dmod
from engine.compiler import parse as pmod
from engine.errors import CompileError
from engine.errors import UnsupportedError

mjMINVAL = 1e-15
mjLOAD_MULTIPLE = 2

# mjtObj values of the named object lists, in MuJoCo's names order
NAME_LISTS = (
  ('body', 'name_bodyadr'), ('joint', 'name_jntadr'), ('geom', 'name_geomadr'),
  ('site', 'name_siteadr'), ('camera', 'name_camadr'), ('light', 'name_lightadr'),
  ('flex', 'name_flexadr'), ('mesh', 'name_meshadr'), ('skin', 'name_skinadr'),
  ('hfield', 'name_hfieldadr'), ('texture', 'name_texadr'), ('material', 'name_matadr'),
  ('pair', 'name_pairadr'), ('exclude', 'name_excludeadr'), ('equality', 'name_eqadr'),
  ('tendon', 'name_tendonadr'), ('actuator', 'name_actuatoradr'),
  ('sensor', 'name_sensoradr'), ('numeric', 'name_numericadr'), ('text', 'name_textadr'),
  ('tuple', 'name_tupleadr'), ('key', 'name_keyadr'), ('plugin', 'name_pluginadr'),
)

# dtypes of arrays the field table does not list (MuJoCo's)
_EXTRA_DTYPES = {
  'body_plugin': 'i4', 'geom_plugin': 'i4', 'actuator_plugin': 'i4', 'sensor_plugin': 'i4',
  'site_dataid': 'i4', 'tree_sleep_policy': 'i4', 'names_map': 'i4', 'paths': 'S',
  'hfield_pathadr': 'i4', 'mesh_pathadr': 'i4', 'tex_pathadr': 'i4', 'skin_pathadr': 'i4',
  'tex_contenttypeadr': 'i4', 'actuator_history': 'i4', 'actuator_historyadr': 'i4',
  'actuator_delay': 'f8', 'sensor_history': 'i4', 'sensor_historyadr': 'i4',
  'sensor_delay': 'f8', 'sensor_interval': 'f8', 'name_flexadr': 'i4', 'name_skinadr': 'i4',
  'name_pluginadr': 'i4', 'mesh_normaladr': 'i4', 'mesh_normalnum': 'i4',
  'mesh_texcoordadr': 'i4', 'mesh_texcoordnum': 'i4', 'mesh_graphadr': 'i4',
  'mesh_normal': 'f4', 'mesh_texcoord': 'f4', 'mesh_facenormal': 'i4',
  'mesh_facetexcoord': 'i4', 'mesh_graph': 'i4', 'mesh_extrema': 'i4', 'body_bvhadr': 'i4',
  'body_bvhnum': 'i4', 'bvh_aabb': 'f8', 'bvh_child': 'i4', 'bvh_depth': 'i4',
  'bvh_nodeid': 'i4',
}
_DTYPES = {f.name: f.dtype for f in F.MODEL_FIELDS}
_DTYPES.update({k: v for k, v in _EXTRA_DTYPES.items() if k not in _DTYPES})
_NP = {'f8': np.float64, 'f4': np.float32, 'i4': np.int32, 'i8': np.int64, 'u1': np.uint8,
       'b1': np.bool_}


@dataclasses.dataclass
class CompiledModel:
  """Result of compile_model.

  Attributes:
    sizes: MjModel sizes (nq, nv, nbody, ...), named as mujoco.MjModel.
    arrays: MjModel arrays by field name, with MuJoCo's dtype and shape ('S' fields as bytes).
    opt: every MjOption field.
    vis: <visual> settings: {'global': {...}, 'quality': ..., 'headlight', 'map', 'scale',
      'rgba'}, defaults filled in.
    stat_user: <statistic> attributes the user gave (meaninertia, meanmass, meansize, extent,
      center).
    compiler: what mj_setConst still needs: 'lengthrange' (<compiler><lengthrange> options),
      'springdamper' ((njnt, 2) timeconst and dampratio per joint, zero if unused; MuJoCo
      turns them into jnt_stiffness and dof_damping after setConst), 'settotalmass'.
  """
  sizes: dict
  arrays: dict
  opt: dict
  vis: dict
  stat_user: dict
  compiler: dict


class Ctx:
  """Compilation state shared by the build_* modules."""
  Unsupported = UnsupportedError

  def __init__(self, root, model_dir, assets):
    self.root = root
    self.model_dir = model_dir
    self.asset_files = assets or {}
    self.names = {}

  def lookup(self, kind, name, node, attr):
    """Object of namespace `kind` named `name`; error at node/attr if unknown."""
    obj = self.names.get(kind, {}).get(name)
    if obj is None:
      raise node.error(f"unknown {kind} '{name}'", attr)
    return obj


# ---------------------------------------------------------------- settings


def _sections(root, tag):
  return [c for c in root.children if c.tag == tag]


def _settings(ctx, root):
  """<compiler>, <option>, <size>, <visual>, <statistic>."""
  comp = dmod.template('compiler')
  lr = dmod.template('compiler/lengthrange')
  for c in _sections(root, 'compiler'):
    if c.attrs.get('coordinate') == 1:
      raise c.error('global coordinates are no longer supported', 'coordinate')
    if 'assetdir' in c.attrs:
      comp['meshdir'] = comp['texturedir'] = c.attrs['assetdir']
    dmod.read_attrs(comp, 'compiler', c.attrs)
    for sub in c.children:
      dmod.read_attrs(lr, 'compiler/lengthrange', sub.attrs)
    seq = c.attrs.get('eulerseq')
    if seq is not None and (len(seq) != 3 or any(ch not in 'xyzXYZ' for ch in seq)):
      raise c.error("euler sequence must have 3 characters from 'xyzXYZ'", 'eulerseq')
  ctx.comp = comp
  ctx.lengthrange = lr
  ctx.degree = comp['angle'] == 1
  ctx.eulerseq = comp['eulerseq']
  for key in ('autolimits', 'boundmass', 'boundinertia', 'balanceinertia', 'settotalmass',
              'fusestatic', 'discardvisual', 'fitaabb', 'alignfree', 'strippath'):
    setattr(ctx, key, comp[key])
  if comp['settotalmass'] > 0:
    warnings.warn("compiler attribute 'settotalmass' is deprecated in MuJoCo: scale the masses "
                  'and densities in the model instead', DeprecationWarning, stacklevel=3)
  ctx.inertiafromgeom = comp['inertiafromgeom']
  ctx.inertiagrouprange = comp['inertiagrouprange']
  ctx.meshdir = comp['meshdir'] or ''
  ctx.texturedir = comp['texturedir'] or ''

  # option
  opt = dmod.template('option')
  disable = enable = disableact = 0
  for o in _sections(root, 'option'):
    dmod.read_attrs(opt, 'option', {k: v for k, v in o.attrs.items()
                                     if k != 'actuatorgroupdisable'})
    for g in o.attrs.get('actuatorgroupdisable', ()):
      if g < 0:
        raise o.error('disabled actuator group value must be non-negative',
                      'actuatorgroupdisable')
      if g > 30:
        raise o.error('disabled actuator group value cannot exceed 30', 'actuatorgroupdisable')
      disableact |= 1 << g
    for fl in o.children:
      for k, v in fl.attrs.items():
        if k in _ENABLE_BITS:
          bit = _ENABLE_BITS[k]
          enable = (enable | bit) if v else (enable & ~bit)
        else:
          bit = _DISABLE_BITS[k]
          disable = (disable & ~bit) if v else (disable | bit)
  opt.pop('actuatorgroupdisable', None)
  opt['disableflags'] = disable
  opt['enableflags'] = enable
  opt['disableactuator'] = disableact
  ctx.opt = opt

  # size
  size = dmod.template('size')
  for s in _sections(root, 'size'):
    dmod.read_attrs(size, 'size', s.attrs)
    if 'memory' in s.attrs:
      size['memory'] = _parse_memory(s, s.attrs['memory'])
      if 'nstack' in s.attrs:
        raise s.error('attributes memory and nstack cannot both be specified', 'nstack')
    for k in ('njmax', 'nconmax', 'nstack', 'nuserdata', 'nkey'):
      if k in s.attrs and s.attrs[k] < -1:
        raise s.error(f'{k} must be >= -1', k)
  ctx.size = size

  # visual
  vis = {}
  for sub in ('global', 'quality', 'headlight', 'map', 'scale', 'rgba'):
    vis[sub] = dmod.template('visual/' + sub)
  for v in _sections(root, 'visual'):
    for sub in v.children:
      dmod.read_attrs(vis[sub.tag], sub.key, sub.attrs)
  ctx.vis = vis

  # statistic
  stat = {}
  for st in _sections(root, 'statistic'):
    stat.update(st.attrs)
  if 'extent' in stat and stat['extent'] <= 0:
    raise _sections(root, 'statistic')[-1].error('extent must be strictly positive', 'extent')
  ctx.stat_user = {k: (list(v) if isinstance(v, tuple) else v) for k, v in stat.items()}


_DISABLE_BITS = {n: 1 << i for i, n in enumerate(
  'constraint equality frictionloss limit contact spring damper gravity clampctrl warmstart '
  'filterparent actuation refsafe sensor midphase eulerdamp autoreset nativeccd island '
  'multiccd'.split())}
_ENABLE_BITS = {n: 1 << i for i, n in enumerate(
  'override energy fwdinv invdiscrete sleep diagexact ipc'.split())}


def _parse_memory(node, text):
  """<size memory="16M">: bytes, with an optional K/M/G/T/P/E suffix."""
  t = text.strip()
  if t == '-1':
    return -1
  mult = 0
  if t and t[-1] in 'KkMmGgTtPpEe':
    mult = 10 * ('kmgtpe'.index(t[-1].lower()) + 1)
    t = t[:-1]
  if not t.isdigit():
    raise node.error('unsigned integer with an optional suffix {K,M,G,T,P,E} is expected in '
                     "attribute 'memory'", 'memory')
  return int(t) << mult


# ---------------------------------------------------------------- helpers


def _check_supported(node):
  """First element the engine cannot simulate yet raises UnsupportedError."""
  if not node.spec.supported:
    raise node.error(f"element '{node.tag}' is not supported yet", cls=UnsupportedError)
  for c in node.children:
    _check_supported(c)


def _register(ctx, kind, objs):
  """Assigns ids and the name map of one object list; repeated names are errors."""
  names = {}
  for i, o in enumerate(objs):
    o.id = i
    if o.name:
      if o.name in names:
        raise o.node.error(f"repeated name '{o.name}' in {kind}", 'name') if o.node else \
          CompileError(f"repeated name '{o.name}' in {kind}")
      names[o.name] = o
  ctx.names[kind] = names


def _hash(name, n):
  """Port of mj_hashString (djb2 with xor), engine_name.c."""
  h = 5381
  for b in name.encode():
    c = b - 256 if b > 127 else b
    h = (((h << 5) + h) ^ (c & 0xFFFFFFFFFFFFFFFF)) & 0xFFFFFFFFFFFFFFFF
  return h % n


def _names(modelname, lists):
  """names buffer, name_*adr arrays and the names_map hash table (CopyNames)."""
  buf = bytearray(modelname.encode() + b'\0')
  adrs = {}
  total = sum(len(lists.get(kind, ())) for kind, _ in NAME_LISTS)
  names_map = np.full(mjLOAD_MULTIPLE * total, -1, np.int32)
  offset = 0
  for kind, field in NAME_LISTS:
    objs = lists.get(kind, ())
    size = mjLOAD_MULTIPLE * len(objs)
    for i, o in enumerate(objs):
      if not o.name:
        continue
      j = _hash(o.name, size)
      while names_map[offset + j] != -1:
        j = (j + 1) % size
      names_map[offset + j] = i
    adr = []
    for o in objs:
      adr.append(len(buf))
      buf += o.name.encode() + b'\0'
    adrs[field] = np.array(adr, np.int32)
    offset += size
  return bytes(buf), adrs, names_map


def _arr(arrays, name, data, shape=None):
  """Stores `data` as array `name` with MuJoCo's dtype (and 2-D shape if given)."""
  dt = _NP[_DTYPES[name]] if _DTYPES.get(name, 'f8') != 'S' else None
  a = np.array(data, dtype=dt)
  if shape is not None:
    a = a.reshape(shape)
  arrays[name] = a


# ---------------------------------------------------------------- main entry


def compile_model(xml=None, path=None, assets=None):
  """Compiles MJCF (text or file) into sizes, arrays and options; see CompiledModel."""
  root, model_dir = pmod.parse(xml=xml, path=path, assets=assets)
  _check_supported(root)
  ctx = Ctx(root, model_dir, assets)
  _settings(ctx, root)
  ctx.defaults = dmod.Defaults(root)
  ctx.assets = build_assets.Assets(ctx, root)

  # kinematic tree
  tb = bt.TreeBuilder(ctx)
  world = tb.build(root)
  lists = bt.make_lists(world)

  # elements outside the tree, in document order
  lists['tendon'] = build_tendon.make(ctx, root)
  lists['actuator'] = build_actuator.make(ctx, root)
  lists['sensor'] = build_sensor.make(ctx, root)
  misc = build_misc.make(ctx, root)
  lists.update(misc)
  lists.update(ctx.assets.lists())

  # ids, names, user sizes
  for kind in ('body', 'joint', 'geom', 'site', 'camera', 'light', 'tendon', 'actuator',
               'sensor', 'equality', 'pair', 'exclude', 'numeric', 'text', 'tuple', 'key',
               'mesh', 'hfield', 'texture', 'material'):
    _register(ctx, kind, lists.get(kind, []))
  _set_nuser(ctx, lists)

  # compile meshes, the tree, fuse static bodies
  ctx.assets.prepare_meshes(lists['geom'])
  bt.compile_tree(ctx, lists)
  if ctx.fusestatic:
    referenced = _referenced_bodies(ctx, root, lists)
    bt.fuse_static(ctx, lists, referenced)
    _register(ctx, 'body', lists['body'])
    for kind in ('joint', 'geom', 'site', 'camera', 'light'):
      _register(ctx, kind, lists[kind])

  if ctx.discardvisual:
    _discard_visual(ctx, root, lists)

  # compile everything else
  ctx.assets.compile()
  build_misc.compile_pairs(ctx, lists)
  build_misc.compile_equality(ctx, lists)
  build_tendon.compile_all(ctx, lists)
  build_actuator.compile_all(ctx, lists)
  build_sensor.compile_all(ctx, lists)
  build_misc.compile_custom(ctx, lists)
  for cam in lists['camera']:
    cam.targetbodyid = ctx.lookup('body', cam.target, cam.node, 'target').id \
      if cam.target else -1
  for li in lists['light']:
    li.targetbodyid = ctx.lookup('body', li.target, li.node, 'target').id if li.target else -1
    tex = li.spec.get('texture')
    li.texid = ctx.lookup('texture', tex, li.node, 'texture').id if tex else -1
  bt.check_mass(lists)

  sizes, arrays = {}, {}
  _tree_arrays(ctx, lists, sizes, arrays)
  ctx.assets.arrays(sizes, arrays)
  build_misc.arrays(ctx, lists, sizes, arrays)
  build_tendon.arrays(ctx, lists, sizes, arrays)
  build_actuator.arrays(ctx, lists, sizes, arrays)
  build_sensor.arrays(ctx, lists, sizes, arrays)
  _keyframes(ctx, lists, sizes, arrays)
  _finalize(ctx, lists, sizes, arrays)

  modelname = root.attrs.get('model', 'MuJoCo Model')
  names, adrs, names_map = _names(modelname, lists)
  arrays['names'] = names
  arrays.update(adrs)
  arrays['names_map'] = names_map
  sizes['nnames'] = len(names)
  sizes['nnames_map'] = len(names_map)

  opt = {k: (np.array(v, np.float64) if isinstance(v, tuple) else v)
         for k, v in ctx.opt.items()}
  vis = {k: dict(v) for k, v in ctx.vis.items()}
  compiler = {
    'lengthrange': dict(ctx.lengthrange),
    'settotalmass': ctx.settotalmass,
    'springdamper': np.array([j.spec['springdamper'] for j in lists['joint']],
                             np.float64).reshape(-1, 2),
  }
  return CompiledModel(sizes, arrays, opt, vis, ctx.stat_user, compiler)


def _discard_visual(ctx, root, lists):
  """compiler discardvisual: drop visual geoms and the meshes only they use (IndexAssets).

  Visual geoms (contype = conaffinity = 0) that no pair, tendon, sensor or tuple names are
  removed after the bodies' inertias were computed with them; materials and textures were
  already dropped (Assets). Meshes used by no remaining geom are removed too.
  """
  named = set()

  def visit(n):
    if n.key == 'contact/pair':
      named.update((n.attrs.get('geom1'), n.attrs.get('geom2')))
    elif n.key == 'tendon/spatial/geom':
      named.add(n.attrs.get('geom'))
    elif n.key.startswith('sensor/'):
      for a in ('geom1', 'geom2', 'geom'):
        named.add(n.attrs.get(a))
      if n.attrs.get('objtype') == 5:
        named.add(n.attrs.get('objname'))
      if n.attrs.get('reftype') == 5:
        named.add(n.attrs.get('refname'))
    elif n.key == 'custom/tuple/element' and n.attrs.get('objtype') == 'geom':
      named.add(n.attrs.get('objname'))
    for c in n.children:
      visit(c)

  visit(root)
  named.discard(None)
  for b in lists['body']:
    b.geoms = [g for g in b.geoms if not g.visual or (g.name and g.name in named)]
  new = bt.make_lists(lists['body'][0])
  lists['geom'] = new['geom']
  _register(ctx, 'geom', lists['geom'])
  ctx.assets.discard_meshes(lists['geom'])
  lists['mesh'] = ctx.assets.meshes
  _register(ctx, 'mesh', lists['mesh'])


def _set_nuser(ctx, lists):
  """nuser_*: from <size>, or the longest user array of that element type (SetNuser)."""
  ctx.nuser = {}
  for kind, lst in (('body', 'body'), ('jnt', 'joint'), ('geom', 'geom'), ('site', 'site'),
                    ('cam', 'camera'), ('tendon', 'tendon'), ('actuator', 'actuator'),
                    ('sensor', 'sensor')):
    n = ctx.size['nuser_' + kind]
    if n == -1:
      n = 0
      for o in lists[lst]:
        user = o.user if kind == 'body' and o.node is not None and o.id > 0 else \
          (o.spec.get('user') if kind != 'body' else ())
        n = max(n, len(user or ()))
    ctx.nuser[kind] = n


def _referenced_bodies(ctx, root, lists):
  """Bodies named by other elements (cameras, lights, excludes, equalities, actuators, ...).

  FuseStatic keeps a body whose name another element needs, and bodies holding sites used by
  force/torque sensors.
  """
  refs = set()
  body_refs = {('camera', 'target'), ('light', 'target'), ('exclude', 'body1'),
               ('exclude', 'body2'), ('connect', 'body1'), ('connect', 'body2'),
               ('weld', 'body1'), ('weld', 'body2'), ('adhesion', 'body'), ('general', 'body'),
               ('subtreecom', 'body'), ('subtreelinvel', 'body'), ('subtreeangmom', 'body'),
               ('distance', 'body1'), ('distance', 'body2'), ('normal', 'body1'),
               ('normal', 'body2'), ('fromto', 'body1'), ('fromto', 'body2'),
               ('contact', 'body1'), ('contact', 'body2'), ('contact', 'subtree1'),
               ('contact', 'subtree2')}
  names = set()
  ftsites = set()

  def visit(n):
    for (tag, attr) in body_refs:
      if n.tag == tag and attr in n.attrs:
        names.add(n.attrs[attr])
    if n.key.startswith('sensor/frame') or n.key in ('sensor/insidesite', 'sensor/user'):
      for t, nm in (('objtype', 'objname'), ('reftype', 'refname')):
        if n.attrs.get(t) in (1, 2, 'body', 'xbody'):
          names.add(n.attrs.get(nm))
    if n.key in ('sensor/force', 'sensor/torque'):
      ftsites.add(n.attrs.get('site'))
    if n.key == 'custom/tuple/element' and n.attrs.get('objtype') in ('body', 'xbody'):
      names.add(n.attrs.get('objname'))
    for c in n.children:
      visit(c)

  visit(root)
  for b in lists['body'][1:]:
    if b.name and b.name in names:
      refs.add(b)
    if any(s.name in ftsites for s in b.sites if s.name):
      refs.add(b)
  return refs


# ---------------------------------------------------------------- tree arrays


def _is_same_vec(a, b):
  return abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6 and abs(a[2] - b[2]) < 1e-6


def _is_same_quat(a, b):
  minus = all(abs(a[i] - b[i]) < 1e-6 for i in range(4))
  plus = all(abs(a[i] + b[i]) < 1e-6 for i in range(4))
  return minus or plus


def _sameframe(pos, quat, ipos=None, iquat=None):
  """mjtSameFrame of an element frame relative to its body (and inertial) frame."""
  if _is_same_vec(pos, (0, 0, 0)) and _is_same_quat(quat, (1, 0, 0, 0)):
    return 1
  if _is_same_quat(quat, (1, 0, 0, 0)):
    return 3
  if ipos is not None:
    if _is_same_vec(pos, ipos) and _is_same_quat(quat, iquat):
      return 2
    if _is_same_quat(quat, iquat):
      return 4
  return 0


def _tree_arrays(ctx, lists, sizes, arrays):
  """Port of mjCModel::CopyTree plus setFixed's tree quantities."""
  bodies, joints, geoms = lists['body'], lists['joint'], lists['geom']
  sites, cams, lights = lists['site'], lists['camera'], lists['light']
  nbody, njnt, ngeom = len(bodies), len(joints), len(geoms)
  nuser = ctx.nuser

  # sizes
  nq = sum(j.nq for j in joints)
  nv = sum(j.nv for j in joints)
  sizes.update(nbody=nbody, njnt=njnt, ngeom=ngeom, nsite=len(sites), ncam=len(cams),
               nlight=len(lights), nq=nq, nv=nv)
  for k in ('body', 'jnt', 'geom', 'site', 'cam', 'tendon', 'actuator', 'sensor'):
    sizes['nuser_' + k] = nuser[k]

  # mocap
  nmocap = 0
  for b in bodies:
    if b.mocap:
      b.mocapid = nmocap
      nmocap += 1
    else:
      b.mocapid = -1
  sizes['nmocap'] = nmocap

  parentid = [0] * nbody
  rootid = [0] * nbody
  body_simple = [0] * nbody
  body_sameframe = [0] * nbody
  jntadr = dofadr = qposadr = 0
  qpos0, qpos_spring = [], []
  dof_bodyid, dof_jntid, dof_parentid = [], [], []
  dof_solref, dof_solimp, dof_frictionloss, dof_armature = [], [], [], []
  dof_damping, dof_dampingpoly = [], []
  b_jntnum, b_jntadr, b_dofnum, b_dofadr, b_geomnum, b_geomadr = [], [], [], [], [], []
  lastdof = [-1] * nbody
  for i, b in enumerate(bodies):
    par = b.parent
    parentid[i] = par.id if par is not None else 0
    b_jntnum.append(len(b.joints))
    b_jntadr.append(jntadr if b.joints else -1)
    b_dofnum.append(b.dofnum if i else 0)
    b_dofadr.append(dofadr if i and b.dofnum else -1)
    b_geomnum.append(len(b.geoms))
    b_geomadr.append(b.geoms[0].id if b.geoms else -1)
    if i == 0 or par.id == 0:
      rootid[i] = i
    else:
      rootid[i] = rootid[par.id]
    lastdof[i] = lastdof[par.id] if par is not None else -1
    sf = _sameframe(b.ipos, b.iquat)
    sf = 1 if sf == 1 else (3 if sf == 3 else 0)
    body_sameframe[i] = sf
    pid = parentid[i]
    body_simple[i] = int(sf == 1 and (rootid[i] == i or
                                      (parentid[pid] == 0 and b_dofnum[pid] == 0)))
    if pid > 0:
      body_simple[pid] = 0
    rotfound = False
    for j in b.joints:
      aligned = sum(abs(v) > 1e-14 for v in j.axis) == 1
      if rotfound or not _is_same_vec(j.pos, (0, 0, 0)) or \
         (j.type in (bt.HINGE, bt.SLIDE) and not aligned):
        body_simple[i] = 0
      if j.type in (bt.BALL, bt.HINGE):
        rotfound = True
      j.qposadr, j.dofadr = qposadr, dofadr
      if j.type == bt.FREE:
        q = list(b.pos) + list(b.quat)
        qpos0 += q
        qpos_spring += q
      elif j.type == bt.BALL:
        qpos0 += [1.0, 0.0, 0.0, 0.0]
        qpos_spring += [1.0, 0.0, 0.0, 0.0]
      else:
        qpos0.append(j.ref)
        qpos_spring.append(j.springref)
      s = j.spec
      for _ in range(j.nv):
        dof_bodyid.append(i)
        dof_jntid.append(j.id)
        dof_solref.append(s['solreffriction'])
        dof_solimp.append(s['solimpfriction'])
        dof_frictionloss.append(s['frictionloss'])
        dof_armature.append(s['armature'])
        dof_damping.append(s['damping'][0])
        dof_dampingpoly.append(s['damping'][1:3])
        dof_parentid.append(lastdof[i])
        lastdof[i] = dofadr
        dofadr += 1
      jntadr += 1
      qposadr += j.nq
    if body_simple[i] and b_dofnum[i]:
      body_simple[i] = 2
      if any(j.type != bt.SLIDE for j in b.joints):
        body_simple[i] = 1

  # trees
  dof_treeid = []
  ntree = 0
  for i in range(nv):
    if dof_parentid[i] == -1:
      ntree += 1
    dof_treeid.append(ntree - 1)
  body_treeid = []
  for b in bodies:
    w = b.weldid
    body_treeid.append(dof_treeid[b_dofadr[w]] if b_dofnum[w] else -1)
  tree_bodyadr, tree_bodynum = [0] * ntree, [0] * ntree
  cur = -1
  for i in range(1, nbody):
    t = body_treeid[i]
    if t != -1:
      if t > cur:
        cur += 1
        tree_bodyadr[cur] = i
      tree_bodynum[cur] += 1
  tree_dofadr, tree_dofnum = [0] * ntree, [0] * ntree
  cur = -1
  for i in range(nv):
    if dof_treeid[i] > cur:
      cur += 1
      tree_dofadr[cur] = i
    tree_dofnum[cur] += 1
  sleep = [0] * ntree
  for i, b in enumerate(bodies):
    if b_dofnum[i] and body_treeid[i] >= 0 and b.sleep:
      sleep[body_treeid[i]] = b.sleep
  sizes['ntree'] = ntree
  ctx.body_treeid = body_treeid
  ctx.tree_sleep = sleep

  # body arrays
  _arr(arrays, 'qpos0', qpos0)
  _arr(arrays, 'qpos_spring', qpos_spring)
  _arr(arrays, 'body_parentid', parentid)
  _arr(arrays, 'body_rootid', rootid)
  _arr(arrays, 'body_weldid', [b.weldid for b in bodies])
  _arr(arrays, 'body_mocapid', [b.mocapid for b in bodies])
  _arr(arrays, 'body_jntnum', b_jntnum)
  _arr(arrays, 'body_jntadr', b_jntadr)
  _arr(arrays, 'body_dofnum', b_dofnum)
  _arr(arrays, 'body_dofadr', b_dofadr)
  _arr(arrays, 'body_treeid', body_treeid)
  _arr(arrays, 'body_geomnum', b_geomnum)
  _arr(arrays, 'body_geomadr', b_geomadr)
  _arr(arrays, 'body_simple', body_simple)
  _arr(arrays, 'body_sameframe', body_sameframe)
  _arr(arrays, 'body_pos', [b.pos for b in bodies], (nbody, 3))
  _arr(arrays, 'body_quat', [b.quat for b in bodies], (nbody, 4))
  _arr(arrays, 'body_ipos', [b.ipos for b in bodies], (nbody, 3))
  _arr(arrays, 'body_iquat', [b.iquat for b in bodies], (nbody, 4))
  mass = [b.mass for b in bodies]
  _arr(arrays, 'body_mass', mass)
  _arr(arrays, 'body_inertia', [b.inertia for b in bodies], (nbody, 3))
  _arr(arrays, 'body_gravcomp', [b.gravcomp for b in bodies])
  _arr(arrays, 'body_margin', [b.margin for b in bodies])
  _arr(arrays, 'body_user', [b.user_data for b in bodies], (nbody, nuser['body']))
  _arr(arrays, 'body_plugin', [-1] * nbody)
  _arr(arrays, 'body_contype', [b.contype for b in bodies])
  _arr(arrays, 'body_conaffinity', [b.conaffinity for b in bodies])
  _arr(arrays, 'body_invweight0', np.zeros((nbody, 2)))

  # bounding volume hierarchies of the bodies' colliding geoms (meshes' own BVHs not included)
  bvh_adr, bvh_num, aabb, child, depth, nodeid = [], [], [], [], [], []
  for b in bodies:
    a, c, d, nid = bt.body_bvh(b)
    bvh_adr.append(len(aabb) if a else -1)
    bvh_num.append(len(a))
    aabb += a
    child += c
    depth += d
    nodeid += nid
  nbvh = len(aabb)
  sizes.update(nbvh=nbvh, nbvhstatic=nbvh, nbvhdynamic=0)
  _arr(arrays, 'body_bvhadr', bvh_adr)
  _arr(arrays, 'body_bvhnum', bvh_num)
  _arr(arrays, 'bvh_aabb', aabb, (nbvh, 6))
  _arr(arrays, 'bvh_child', child, (nbvh, 2))
  _arr(arrays, 'bvh_depth', depth)
  _arr(arrays, 'bvh_nodeid', nodeid)
  _arr(arrays, 'body_subtreemass', np.zeros(nbody))

  # joints and dofs
  _arr(arrays, 'jnt_type', [j.type for j in joints])
  _arr(arrays, 'jnt_qposadr', [j.qposadr for j in joints])
  _arr(arrays, 'jnt_dofadr', [j.dofadr for j in joints])
  _arr(arrays, 'jnt_bodyid', [j.body.id for j in joints])
  _arr(arrays, 'jnt_group', [j.spec['group'] for j in joints])
  _arr(arrays, 'jnt_limited', [j.limited for j in joints])
  _arr(arrays, 'jnt_actfrclimited', [j.actfrclimited for j in joints])
  _arr(arrays, 'jnt_actgravcomp', [bool(j.spec['actuatorgravcomp']) for j in joints])
  _arr(arrays, 'jnt_solref', [j.spec['solreflimit'] for j in joints], (njnt, 2))
  _arr(arrays, 'jnt_solimp', [j.spec['solimplimit'] for j in joints], (njnt, 5))
  _arr(arrays, 'jnt_pos', [j.pos for j in joints], (njnt, 3))
  _arr(arrays, 'jnt_axis', [j.axis for j in joints], (njnt, 3))
  _arr(arrays, 'jnt_stiffness', [j.spec['stiffness'][0] for j in joints])
  _arr(arrays, 'jnt_stiffnesspoly', [j.spec['stiffness'][1:3] for j in joints], (njnt, 2))
  _arr(arrays, 'jnt_range', [j.range for j in joints], (njnt, 2))
  _arr(arrays, 'jnt_actfrcrange', [j.actfrcrange for j in joints], (njnt, 2))
  _arr(arrays, 'jnt_margin', [j.spec['margin'] for j in joints])
  _arr(arrays, 'jnt_user', [j.user for j in joints], (njnt, nuser['jnt']))
  _arr(arrays, 'dof_bodyid', dof_bodyid)
  _arr(arrays, 'dof_jntid', dof_jntid)
  _arr(arrays, 'dof_parentid', dof_parentid)
  _arr(arrays, 'dof_treeid', dof_treeid)
  _arr(arrays, 'dof_solref', dof_solref, (nv, 2))
  _arr(arrays, 'dof_solimp', dof_solimp, (nv, 5))
  _arr(arrays, 'dof_frictionloss', dof_frictionloss)
  _arr(arrays, 'dof_armature', dof_armature)
  _arr(arrays, 'dof_damping', dof_damping)
  _arr(arrays, 'dof_dampingpoly', dof_dampingpoly, (nv, 2))
  _arr(arrays, 'dof_invweight0', np.zeros(nv))
  _arr(arrays, 'dof_M0', np.zeros(nv))
  _arr(arrays, 'dof_length', np.zeros(nv))
  _arr(arrays, 'tree_bodyadr', tree_bodyadr)
  _arr(arrays, 'tree_bodynum', tree_bodynum)
  _arr(arrays, 'tree_dofadr', tree_dofadr)
  _arr(arrays, 'tree_dofnum', tree_dofnum)
  ctx.dof_parentid = dof_parentid
  ctx.body_simple = body_simple

  # geoms
  _arr(arrays, 'geom_type', [g.type for g in geoms])
  _arr(arrays, 'geom_contype', [g.contype for g in geoms])
  _arr(arrays, 'geom_conaffinity', [g.conaffinity for g in geoms])
  _arr(arrays, 'geom_condim', [g.spec['condim'] for g in geoms])
  _arr(arrays, 'geom_bodyid', [g.body.id for g in geoms])
  _arr(arrays, 'geom_dataid', [g.mesh.id if g.mesh is not None else
                               (g.hfield.id if g.hfield is not None else -1) for g in geoms])
  _arr(arrays, 'geom_matid', [ctx.assets.matid(g) for g in geoms])
  _arr(arrays, 'geom_group', [g.spec['group'] for g in geoms])
  _arr(arrays, 'geom_priority', [g.spec['priority'] for g in geoms])
  _arr(arrays, 'geom_plugin', [-1] * ngeom)
  _arr(arrays, 'geom_sameframe', [_sameframe(g.pos, g.quat, g.body.ipos, g.body.iquat)
                                  for g in geoms])
  _arr(arrays, 'geom_solmix', [g.spec['solmix'] for g in geoms])
  _arr(arrays, 'geom_solref', [g.spec['solref'] for g in geoms], (ngeom, 2))
  _arr(arrays, 'geom_solimp', [g.spec['solimp'] for g in geoms], (ngeom, 5))
  _arr(arrays, 'geom_size', [g.size for g in geoms], (ngeom, 3))
  _arr(arrays, 'geom_aabb', [g.aabb for g in geoms], (ngeom, 6))
  _arr(arrays, 'geom_rbound', [bt.geom_rbound(g) for g in geoms])
  _arr(arrays, 'geom_pos', [g.pos for g in geoms], (ngeom, 3))
  _arr(arrays, 'geom_quat', [g.quat for g in geoms], (ngeom, 4))
  _arr(arrays, 'geom_friction', [g.spec['friction'] for g in geoms], (ngeom, 3))
  _arr(arrays, 'geom_margin', [g.spec['margin'] for g in geoms])
  _arr(arrays, 'geom_gap', [g.spec['gap'] for g in geoms])
  _arr(arrays, 'geom_surfacevel', [g.spec['surfacevel'] for g in geoms], (ngeom, 6))
  _arr(arrays, 'geom_adhesion', [g.spec['adhesion'] for g in geoms])
  _arr(arrays, 'geom_fluid', [g.fluid for g in geoms], (ngeom, 12))
  _arr(arrays, 'geom_user', [g.user for g in geoms], (ngeom, nuser['geom']))
  _arr(arrays, 'geom_rgba', [g.spec['rgba'] for g in geoms], (ngeom, 4))

  # sites
  nsite = len(sites)
  _arr(arrays, 'site_type', [s.type for s in sites])
  _arr(arrays, 'site_bodyid', [s.body.id for s in sites])
  _arr(arrays, 'site_dataid', [s.mesh.id if s.mesh is not None else -1 for s in sites])
  _arr(arrays, 'site_matid', [ctx.assets.matid(s) for s in sites])
  _arr(arrays, 'site_group', [s.spec['group'] for s in sites])
  _arr(arrays, 'site_sameframe', [_sameframe(s.pos, s.quat, s.body.ipos, s.body.iquat)
                                  for s in sites])
  _arr(arrays, 'site_size', [s.size for s in sites], (nsite, 3))
  _arr(arrays, 'site_pos', [s.pos for s in sites], (nsite, 3))
  _arr(arrays, 'site_quat', [s.quat for s in sites], (nsite, 4))
  _arr(arrays, 'site_user', [s.user for s in sites], (nsite, nuser['site']))
  _arr(arrays, 'site_rgba', [s.spec['rgba'] for s in sites], (nsite, 4))

  # cameras
  ncam = len(cams)
  _arr(arrays, 'cam_mode', [c.spec['mode'] for c in cams])
  _arr(arrays, 'cam_bodyid', [c.body.id for c in cams])
  _arr(arrays, 'cam_targetbodyid', [c.targetbodyid for c in cams])
  _arr(arrays, 'cam_pos', [c.pos for c in cams], (ncam, 3))
  _arr(arrays, 'cam_quat', [c.quat for c in cams], (ncam, 4))
  _arr(arrays, 'cam_projection', [c.spec['projection'] for c in cams])
  _arr(arrays, 'cam_fovy', [c.fovy for c in cams])
  _arr(arrays, 'cam_ipd', [c.spec['ipd'] for c in cams])
  _arr(arrays, 'cam_resolution', [c.spec['resolution'] for c in cams], (ncam, 2))
  _arr(arrays, 'cam_output', [c.spec['output'] for c in cams])
  _arr(arrays, 'cam_sensorsize', [c.sensorsize for c in cams], (ncam, 2))
  _arr(arrays, 'cam_intrinsic', [c.intrinsic for c in cams], (ncam, 4))
  _arr(arrays, 'cam_user', [c.user for c in cams], (ncam, nuser['cam']))
  for name, w in (('cam_poscom0', 3), ('cam_pos0', 3), ('cam_mat0', 9)):
    _arr(arrays, name, np.zeros((ncam, w)))

  # lights
  nlight = len(lights)
  _arr(arrays, 'light_mode', [li.spec['mode'] for li in lights])
  _arr(arrays, 'light_bodyid', [li.body.id for li in lights])
  _arr(arrays, 'light_targetbodyid', [li.targetbodyid for li in lights])
  _arr(arrays, 'light_type', [li.type for li in lights])
  _arr(arrays, 'light_texid', [li.texid for li in lights])
  _arr(arrays, 'light_castshadow', [bool(li.spec['castshadow']) for li in lights])
  _arr(arrays, 'light_active', [bool(li.spec['active']) for li in lights])
  _arr(arrays, 'light_pos', [li.pos for li in lights], (nlight, 3))
  _arr(arrays, 'light_dir', [li.dir for li in lights], (nlight, 3))
  for name in ('bulbradius', 'intensity', 'range', 'cutoff', 'softness', 'exponent'):
    _arr(arrays, 'light_' + name, [li.spec[name] for li in lights])
  for name in ('attenuation', 'ambient', 'diffuse', 'specular'):
    _arr(arrays, 'light_' + name, [li.spec[name] for li in lights], (nlight, 3))
  for name in ('light_poscom0', 'light_pos0', 'light_dir0'):
    _arr(arrays, name, np.zeros((nlight, 3)))


def _keyframes(ctx, lists, sizes, arrays):
  """Keyframes with defaults for missing entries (ResolveKeyframes, CopyObjects)."""
  keys = lists['key']
  nq, nv, nu, na, nmocap = (sizes['nq'], sizes['nv'], sizes['nu'], sizes['na'],
                            sizes['nmocap'])
  qpos0 = arrays['qpos0']
  bodies = lists['body']
  mocap = [b for b in bodies if b.mocapid >= 0]
  mpos0 = [v for b in mocap for v in b.pos]
  mquat0 = [v for b in mocap for v in b.quat]
  rows = {k: [] for k in ('time', 'qpos', 'qvel', 'act', 'ctrl', 'mpos', 'mquat')}
  for k in keys:
    a = k.node.attrs if k.node is not None else {}
    for name, n, default in (('qpos', nq, list(qpos0)), ('qvel', nv, [0.0] * nv),
                             ('act', na, [0.0] * na), ('ctrl', nu, [0.0] * nu),
                             ('mpos', 3 * nmocap, mpos0), ('mquat', 4 * nmocap, mquat0)):
      v = a.get(name)
      if v is None:
        rows[name].append(list(default))
        continue
      if len(v) != n:
        raise k.node.error(f"invalid {name} size in keyframe, got {len(v)}, should be {n}",
                           name)
      rows[name].append(list(v))
    rows['time'].append(a.get('time', 0.0))

  # normalize quaternions
  joints = lists['joint']
  for q in rows['qpos']:
    for j in joints:
      if j.type in (bt.FREE, bt.BALL):
        adr = j.qposadr + (3 if j.type == bt.FREE else 0)
        quat = q[adr:adr + 4]
        _normalize_quat(quat)
        q[adr:adr + 4] = quat
  for q in rows['mquat']:
    for i in range(nmocap):
      quat = q[4 * i:4 * i + 4]
      bm.normvec(quat)
      q[4 * i:4 * i + 4] = quat
  nkey = len(keys)
  sizes['nkey'] = nkey
  _arr(arrays, 'key_time', rows['time'])
  _arr(arrays, 'key_qpos', rows['qpos'], (nkey, nq))
  _arr(arrays, 'key_qvel', rows['qvel'], (nkey, nv))
  _arr(arrays, 'key_act', rows['act'], (nkey, na))
  _arr(arrays, 'key_ctrl', rows['ctrl'], (nkey, nu))
  _arr(arrays, 'key_mpos', rows['mpos'], (nkey, 3 * nmocap))
  _arr(arrays, 'key_mquat', rows['mquat'], (nkey, 4 * nmocap))


def _normalize_quat(quat):
  """mjuu_normvec then mju_normalize4 (identity when the norm is tiny)."""
  bm.normvec(quat)
  norm = math.sqrt(sum(v * v for v in quat))
  if norm < mjMINVAL:
    quat[:] = [1.0, 0.0, 0.0, 0.0]
  elif abs(norm - 1) > 1e-14:
    quat[:] = [v / norm for v in quat]


def _finalize(ctx, lists, sizes, arrays):
  """FinalizeSimple, nJmom, settotalmass, setFixed topology, remaining sizes."""
  nv = sizes['nv']
  bodies = lists['body']
  simple = list(arrays['body_simple'])
  tarm = arrays['tendon_armature']
  for i in range(sizes['ntendon']):
    if tarm[i] == 0:
      continue
    adr, num = arrays['tendon_adr'][i], arrays['tendon_num'][i]
    for j in range(adr, adr + num):
      objid = arrays['wrap_objid'][j]
      wt = arrays['wrap_type'][j]
      if wt == 3:
        simple[arrays['site_bodyid'][objid]] = 0
      elif wt in (4, 5):
        simple[arrays['geom_bodyid'][objid]] = 0
  _arr(arrays, 'body_simple', simple)
  dof_bodyid = arrays['dof_bodyid']
  simplenum = [0] * nv
  count = 0
  for i in range(nv - 1, -1, -1):
    count = count + 1 if simple[dof_bodyid[i]] else 0
    simplenum[i] = count
  _arr(arrays, 'dof_simplenum', simplenum)

  # total mass
  if ctx.settotalmass > 0:
    mass = arrays['body_mass']
    total = float(mass[1:].sum())
    scale = ctx.settotalmass / max(mjMINVAL, total)
    mass[1:] *= scale
    arrays['body_inertia'][1:] *= scale

  # subtree mass
  sub = arrays['body_mass'].copy()
  parent = arrays['body_parentid']
  for i in range(len(bodies) - 1, 0, -1):
    sub[parent[i]] += sub[i]
  arrays['body_subtreemass'] = sub
  sizes['ngravcomp'] = int((arrays['body_gravcomp'] > 0).sum())

  # tendon trees and the compiler's automatic sleep policy (setFixed)
  build_tendon.tendon_trees(ctx, lists, sizes, arrays)
  sleep = list(ctx.tree_sleep)
  body_treeid = ctx.body_treeid

  def wake(tree):
    if tree != -1 and sleep[tree] == 0:
      sleep[tree] = 1

  def wrap_tree(j):
    wt, objid = arrays['wrap_type'][j], arrays['wrap_objid'][j]
    if wt == 1:
      return body_treeid[arrays['jnt_bodyid'][objid]]
    if wt == 3:
      return body_treeid[arrays['site_bodyid'][objid]]
    if wt in (4, 5):
      return body_treeid[arrays['geom_bodyid'][objid]]
    return -1

  for i in range(sizes['nactuator']):
    trn = arrays['actuator_trntype'][i]
    tid = arrays['actuator_trnid'][i, 0]
    bodyid = -1
    if trn == 6:
      trn = 4 if lists['actuator'][i].target.node.tag == 'site' else 0
    if trn in (0, 1):
      bodyid = arrays['jnt_bodyid'][tid]
    elif trn in (2, 4):
      bodyid = arrays['site_bodyid'][tid]
    elif trn == 5:
      bodyid = tid
    elif trn == 3:
      adr, num = arrays['tendon_adr'][tid], arrays['tendon_num'][tid]
      for j in range(adr, adr + num):
        wake(wrap_tree(j))
      continue
    if bodyid != -1:
      wake(body_treeid[bodyid])
  for i in range(sizes['ntendon']):
    treenum = arrays['tendon_treenum'][i]
    if treenum < 2:
      continue
    if treenum == 2 and arrays['tendon_stiffness'][i] == 0 and arrays['tendon_damping'][i] == 0:
      continue
    adr, num = arrays['tendon_adr'][i], arrays['tendon_num'][i]
    for j in range(adr, adr + num):
      t = wrap_tree(j)
      if t != -1:
        if sleep[t] == 0:
          sleep[t] = 1
        elif sleep[t] in (4, 5):
          raise lists['tendon'][i].error(f'tree {t} connected to tendon {i}: sleeping not '
                                         'allowed')
  sleep = [2 if s == 0 else s for s in sleep]
  _arr(arrays, 'tree_sleep_policy', sleep)

  # remaining sizes (features that raise UnsupportedError have none)
  for name in ('nflex', 'nflexnode', 'nflexvert', 'nflexedge', 'nflexelem', 'nflexelemdata',
               'nflexstiffness', 'nflexbending', 'nefm0dof', 'nefm0L', 'nefmCvert',
               'nflexelemedge', 'nflexshelldata', 'nflextexcoord', 'nJfe', 'nJfv', 'nskin',
               'nskinvert', 'nskintexvert', 'nskinface', 'nskinbone', 'nskinbonevert',
               'nplugin', 'npluginattr', 'npluginstate'):
    sizes[name] = 0
  sizes['nemax'] = sum(3 if e.type == 0 else (7 if e.type == 1 else 1)
                       for e in lists['equality'])
  sizes['njmax'] = ctx.size['njmax']
  sizes['nconmax'] = ctx.size['nconmax']
  sizes['nuserdata'] = ctx.size['nuserdata']
  sizes['nsensordata'] = sizes.get('nsensordata', 0)
  sizes['narena'] = _narena(ctx, sizes)


def _narena(ctx, sizes):
  """Arena size in bytes (mjCModel::TryCompile's heuristic, rounded up to a megabyte)."""
  mem = ctx.size['memory']
  if mem is not None and mem != -1:
    return int(mem)
  nconmax = 100 if ctx.size['nconmax'] == -1 else ctx.size['nconmax']
  njmax = 500 if ctx.size['njmax'] == -1 else ctx.size['njmax']
  nstack = ctx.size['nstack']
  nv = sizes['nv']
  if nstack != -1:
    narena = 8 * nstack
  else:
    n = njmax + sizes.get('neq', 0) + nv
    narena = 8 * max(1000, 5 * n * n + 20 * (
      sizes['nq'] + nv + sizes['nu'] + sizes['na'] + sizes['nbody'] + sizes['njnt'] +
      sizes['ngeom'] + sizes['nsite'] + sizes.get('neq', 0) + sizes.get('ntendon', 0) +
      sizes.get('nwrap', 0)))
  sizeof_contact = 568
  narena += (nconmax * sizeof_contact + njmax * (8 * 4 + 14 * 8) + nv * (3 * 4) +
             njmax * nv * (2 * 4 + 2 * 8) + njmax * njmax * (4 + 8))
  mb = 1 << 20
  return mb * (narena // mb + (1 if narena % mb else 0))
