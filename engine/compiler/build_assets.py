"""Assets: meshes, height fields, textures and materials.

Ports of mjCHField / mjCMaterial (user_objects.cc) and the asset parts of CopyObjects
(user_model.cc). Mesh files and processing (STL/OBJ decoding, convex hull, inertia) live in
mesh.py and texture/height-field file decoding in assets.py (written alongside); this module
wires them to the model.
"""

import os

import numpy as np

from engine.compiler import build_math as bm
from engine.compiler import build_tree as bt
from engine.compiler import schema

_TEXROLE = schema.KEYWORDS['texrole']


def _strip(path):
  """File name without directories and extension (MuJoCo's default asset name)."""
  base = path.replace('\\', '/').split('/')[-1]
  return base.rsplit('.', 1)[0] if '.' in base else base


class Assets:
  """Meshes, height fields, textures and materials of a model."""

  def __init__(self, ctx, root):
    self.ctx = ctx
    self.meshes, self.hfields, self.textures, self.materials = [], [], [], []
    for sec in root.children:
      if sec.tag != 'asset':
        continue
      for n in sec.children:
        if n.tag == 'mesh':
          o = bt.Obj(n, ctx.defaults.spec(n, 'mesh'))
          self.meshes.append(o)
        elif n.tag == 'hfield':
          o = bt.Obj(n, dict(n.attrs))
          self.hfields.append(o)
        elif n.tag == 'texture':
          o = bt.Obj(n, ctx.defaults.spec(n, 'texture'))
          self.textures.append(o)
        elif n.tag == 'material':
          o = bt.Obj(n, ctx.defaults.spec(n, 'material'))
          self.materials.append(o)
        else:
          continue
        if not o.name and n.attrs.get('file'):
          o.name = _strip(n.attrs['file'])
    for kind, objs in (('mesh', self.meshes), ('height field', self.hfields),
                       ('material', self.materials)):
      for o in objs:
        if not o.name:
          raise o.error(f'empty name in {kind}', 'name')
    for t in self.textures:
      if not t.name and t.spec['type'] != 2:
        raise t.error('empty name in texture', 'name')
    self._mesh_info = {}

  def lists(self):
    return {'mesh': self.meshes, 'hfield': self.hfields, 'texture': self.textures,
            'material': self.materials}

  # ---- references from geoms and sites

  def lookup_mesh(self, g):
    m = self.ctx.lookup('mesh', g.spec['mesh'], g.node, 'mesh')
    raise g.node.error('mesh assets are not supported yet', 'mesh', cls=self.ctx.Unsupported)
    return m

  def lookup_hfield(self, g):
    h = self.ctx.lookup('hfield', g.spec['hfield'], g.node, 'hfield')
    self._compile_hfield(h)
    return h

  def matid(self, obj):
    name = obj.spec.get('material')
    if not name:
      return -1
    return self.ctx.lookup('material', name, obj.node, 'material').id

  def mesh_geom_frame(self, g, gtype, pos, quat, size):
    raise g.node.error('mesh assets are not supported yet', 'mesh', cls=self.ctx.Unsupported)

  def mesh_inertia(self, g, spec):
    raise g.node.error('mesh assets are not supported yet', 'mesh', cls=self.ctx.Unsupported)

  # ---- compilation

  def _read_file(self, node, name, subdir):
    """Bytes of an asset file: the assets dict first, then disk relative to the model dir."""
    ctx = self.ctx
    if ctx.strippath:
      name = name.replace('\\', '/').split('/')[-1]
    path = os.path.join(subdir, name) if subdir and not os.path.isabs(name) else name
    for key in (path, name):
      if key in ctx.asset_files:
        return ctx.asset_files[key]
    full = path if os.path.isabs(path) else os.path.join(ctx.model_dir or '.', path)
    try:
      with open(full, 'rb') as f:
        return f.read()
    except OSError:
      raise node.error(f"resource not found: '{name}'", 'file') from None

  def _compile_hfield(self, h):
    """Port of mjCHField::Compile (elevation from the XML or a file, scaled to [0, 1])."""
    if getattr(h, 'data', None) is not None:
      return
    a, n = h.spec, h.node
    size = a['size']
    if any(v <= 0 for v in size):
      raise n.error('size parameter is not positive in hfield', 'size')
    nrow, ncol = a.get('nrow', 0), a.get('ncol', 0)
    if a.get('file'):
      if nrow or ncol or a.get('elevation'):
        raise n.error('hfield specified from file and manually', 'file')
      raise n.error('height fields from files are not supported yet', 'file',
                    cls=self.ctx.Unsupported)
    if nrow < 1 or ncol < 1:
      raise n.error('hfield not specified', 'nrow')
    elev = a.get('elevation')
    if elev is not None:
      if len(elev) != nrow * ncol:
        raise n.error('elevation data length must match nrow*ncol', 'elevation')
      data = np.array(elev, np.float32).reshape(nrow, ncol)[::-1].reshape(-1)
    else:
      data = np.zeros(nrow * ncol, np.float32)
    emin, emax = data.min(), data.max()
    data = data - emin
    if emax - emin > 1e-14:
      data = data / (emax - emin)
    h.nrow, h.ncol, h.size, h.data = nrow, ncol, list(size), data.astype(np.float32)

  def compile(self):
    """Compiles height fields, textures and materials (after the tree)."""
    for h in self.hfields:
      self._compile_hfield(h)
    for t in self.textures:
      raise t.node.error('textures are not supported yet', cls=self.ctx.Unsupported)
    for m in self.materials:
      texid = [-1] * 10
      tex = m.spec.get('texture')
      if tex:
        texid[_TEXROLE['rgb']] = self.ctx.lookup('texture', tex, m.node, 'texture').id
      for layer in m.spec.get('_layers', ()) + tuple(
          (c.attrs.get('texture'), c.attrs['role']) for c in m.node.children):
        tname, role = layer
        if role not in _TEXROLE:
          raise m.error(f"invalid texture role '{role}'", 'role')
        if tname:
          texid[_TEXROLE[role]] = self.ctx.lookup('texture', tname, m.node, 'texture').id
      m.texid = texid

  def arrays(self, sizes, arrays):
    """Mesh, height field, texture and material arrays."""
    from engine.compiler.build import _arr
    hf = self.hfields
    nh = len(hf)
    adr, total = [], 0
    for h in hf:
      adr.append(total)
      total += h.nrow * h.ncol
    sizes.update(nhfield=nh, nhfielddata=total, nmesh=0, nmeshvert=0, nmeshface=0, ntex=0,
                 ntexdata=0, nmat=len(self.materials))
    _arr(arrays, 'hfield_size', [h.size for h in hf], (nh, 4))
    _arr(arrays, 'hfield_nrow', [h.nrow for h in hf])
    _arr(arrays, 'hfield_ncol', [h.ncol for h in hf])
    _arr(arrays, 'hfield_adr', adr)
    _arr(arrays, 'hfield_data', np.concatenate([h.data for h in hf]) if hf else [])
    _arr(arrays, 'hfield_pathadr', [-1] * nh)
    arrays['paths'] = b'\0'
    sizes['npaths'] = 1

    mats = self.materials
    nm = len(mats)
    s = [m.spec for m in mats]
    _arr(arrays, 'mat_texid', [m.texid for m in mats], (nm, 10))
    _arr(arrays, 'mat_texuniform', [bool(x['texuniform']) for x in s])
    _arr(arrays, 'mat_texrepeat', [x['texrepeat'] for x in s], (nm, 2))
    for name in ('emission', 'specular', 'shininess', 'reflectance', 'metallic', 'roughness'):
      _arr(arrays, 'mat_' + name, [x[name] for x in s])
    _arr(arrays, 'mat_rgba', [x['rgba'] for x in s], (nm, 4))
