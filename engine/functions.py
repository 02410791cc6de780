"""mj_ functions of MuJoCo's bindings written in Python over the engine's kernels (issue 35).

Each has the bindings' name, argument order and results (ports of engine_support.c,
engine_core_util.c, engine_core_constraint.c, engine_inverse.c, engine_io.c of MuJoCo 3.17).
They are query or composition functions: numpy code on the model and data arrays, or calls of
the engine's exported functions, so no jitted file changes. Arguments are checked before any
write, as the bindings check them: wrong types or dtypes raise TypeError, wrong sizes and ids
out of range ValueError, naming the function and the parameter (numba has no bounds checks).
"""

import math
import operator

import numpy as np

from engine import _structs
from engine import enums as _enums
from engine import mju as _mju
from engine.errors import FatalError
from engine.errors import UnsupportedError

# MuJoCo's mjMINVAL
_MINVAL = _enums.mjMINVAL

# mjOBJ_ type -> (count size, body of the object, position table, orientation table)
_FRAMES = {
  int(_enums.mjtObj.mjOBJ_BODY): ("nbody", None, "xipos", "ximat"),
  int(_enums.mjtObj.mjOBJ_XBODY): ("nbody", None, "xpos", "xmat"),
  int(_enums.mjtObj.mjOBJ_GEOM): ("ngeom", "geom_bodyid", "geom_xpos", "geom_xmat"),
  int(_enums.mjtObj.mjOBJ_SITE): ("nsite", "site_bodyid", "site_xpos", "site_xmat"),
  int(_enums.mjtObj.mjOBJ_CAMERA): ("ncam", "cam_bodyid", "cam_xpos", "cam_xmat"),
}


# ---- argument checks ----


def _int(value, function, name):
  """`value` as a Python int (anything with __index__, as the bindings' SupportsIndex);
  TypeError naming the parameter otherwise."""
  try:
    return operator.index(value)
  except TypeError:
    raise TypeError(f"{function}(): {name} must be an int, got {type(value).__name__}") from None


def _id(value, count, function, name):
  """An object id in [0, count): ValueError naming it otherwise (C would read past arrays)."""
  i = _int(value, function, name)
  if not 0 <= i < count:
    raise ValueError(f"{function}(): {name} {i} out of range [0, {count})")
  return i


def _out(x, shape, function, name, dtype=np.float64):
  """A writable C-contiguous array of `dtype` holding prod(shape) numbers, as a view of
  `shape`; a matrix must have exactly that shape (a transposed one would mix up rows)."""
  if x is None:
    raise TypeError(f"{function}(): {name} is None")
  if not isinstance(x, np.ndarray) or x.dtype != dtype or not x.flags.c_contiguous:
    kind = np.dtype(dtype).name
    raise TypeError(f"{function}(): {name} must be a C-contiguous {kind} numpy array")
  if not x.flags.writeable:
    raise ValueError(f"{function}(): {name} must be writable")
  size = math.prod(shape)
  if x.size != size:
    raise ValueError(f"{function}(): {name} must have {size} elements, got shape {x.shape}")
  if len(shape) == 2 and x.shape != shape:
    raise ValueError(f"{function}(): {name} must have shape {shape}, got {x.shape}")
  return x.reshape(shape)


def _in(x, size, function, name):
  """A float64 input of `size` numbers (lists and other dtypes converted, as the bindings)."""
  if x is None:
    raise TypeError(f"{function}(): {name} is None")
  try:
    a = np.asarray(x, dtype=np.float64)
  except (TypeError, ValueError) as error:
    raise TypeError(f"{function}(): {name} must be an array of numbers ({error})") from None
  if a.size != size:
    raise ValueError(f"{function}(): {name} must have {size} elements, got shape {a.shape}")
  return a.reshape(size)


def _frame(m, d, objtype, objid, function):
  """(body, position (3,), orientation (3, 3)) of an object with a spatial frame."""
  objtype = _int(objtype, function, "objtype")
  entry = _FRAMES.get(objtype)
  if entry is None:  # MuJoCo's mjERROR
    raise FatalError(f"{function}: invalid object type {objtype}")
  count, bodyof, pos, rot = entry
  objid = _id(objid, getattr(m, count), function, "objid")
  body = objid if bodyof is None else int(getattr(m, bodyof)[objid])
  return body, getattr(d, pos)[objid], getattr(d, rot)[objid].reshape(3, 3)


def _motion(motion, pos, com, rot):
  """mju_transformSpatial of a motion vector (rot, lin) from `com` to `pos`, then rotated into
  the frame `rot` (None: world orientation)."""
  ang, lin = motion[:3], motion[3:]
  lin = lin - np.cross(pos - com, ang)
  if rot is not None:
    ang, lin = rot.T @ ang, rot.T @ lin
  return np.concatenate((ang, lin))


# ---- frames and velocities ----


def mj_objectVelocity(m, d, objtype, objid, res, flg_local) -> None:
  """6D velocity (rot, lin) of an object (body, xbody, geom, site, camera) at its origin, in the
  world (flg_local=0) or object (1) orientation, into res (6,)."""
  moving = _object_motion(m, d, objtype, objid, res, flg_local, "mj_objectVelocity")
  if moving is not None:
    out, body, pos, com, rot = moving
    out[:] = _motion(d.cvel[body], pos, com, rot)


def mj_objectAcceleration(m, d, objtype, objid, res, flg_local) -> None:
  """6D acceleration (rot, lin) of an object at its origin, world or object orientation, with
  the Coriolis term of the rotating frame (needs d.cacc: mj_rnePostConstraint)."""
  moving = _object_motion(m, d, objtype, objid, res, flg_local, "mj_objectAcceleration")
  if moving is not None:
    out, body, pos, com, rot = moving
    acc = _motion(d.cacc[body], pos, com, rot)
    vel = _motion(d.cvel[body], pos, com, rot)
    acc[3:] += np.cross(vel[:3], vel[3:])
    out[:] = acc


def _object_motion(m, d, objtype, objid, res, flg_local, name):
  """The checked arguments of mj_objectVelocity/Acceleration: (res, body, origin, its root's
  com, the object's rotation or None for world axes); None (res zeroed) when the object's body
  is static or mocap (no motion)."""
  body, pos, rot = _frame(m, d, objtype, objid, name)
  out = _out(res, (6,), name, "res")
  local = _int(flg_local, name, "flg_local")
  if m.body_dofnum[m.body_weldid[body]] == 0:
    out[:] = 0.0
    return None
  return out, body, pos, d.subtree_com[m.body_rootid[body]], rot if local else None


def mj_local2Global(d, xpos, xmat, pos, quat, body, sameframe) -> None:
  """Global position xpos (3,) and orientation xmat (9,) of a frame at `pos`, `quat` in the
  frame of `body`; sameframe (mjtSameFrame) takes the body or inertial frame directly."""
  name = "mj_local2Global"
  body = _id(body, d.xpos.shape[0], name, "body")
  sameframe = _int(sameframe, name, "sameframe")
  if not 0 <= sameframe <= 4:
    raise ValueError(f"{name}(): sameframe {sameframe} is not an mjtSameFrame value")
  xp, xm = _out(xpos, (3,), name, "xpos"), _out(xmat, (9,), name, "xmat")
  p, q = _in(pos, 3, name, "pos"), _in(quat, 4, name, "quat")
  if sameframe == _enums.mjSAMEFRAME_BODY:
    xp[:] = d.xpos[body]
  elif sameframe == _enums.mjSAMEFRAME_INERTIA:
    xp[:] = d.xipos[body]
  else:
    xp[:] = d.xmat[body].reshape(3, 3) @ p + d.xpos[body]
  if sameframe == _enums.mjSAMEFRAME_NONE:
    product = np.zeros(4)
    _mju.mju_mulQuat(product, d.xquat[body].copy(), q.copy())
    _mju.mju_quat2Mat(xm, product)
  elif sameframe in (_enums.mjSAMEFRAME_BODY, _enums.mjSAMEFRAME_BODYROT):
    xm[:] = d.xmat[body]
  else:
    xm[:] = d.ximat[body]


# ---- model queries and edits ----


def mj_getTotalmass(m) -> float:
  """Sum of the masses of all bodies but the world (C's summation order)."""
  total = 0.0
  for mass in m.body_mass[1:].tolist():
    total += mass
  return total


def mj_setTotalmass(m, newmass) -> None:
  """Scales every body's mass and inertia so that the total mass becomes `newmass` (call
  mj_setConst afterwards for the quantities derived from them, as in MuJoCo)."""
  try:
    newmass = float(newmass)
  except (TypeError, ValueError):
    raise TypeError(f"mj_setTotalmass(): newmass must be a number, got {newmass!r}") from None
  scale = max(_MINVAL, newmass / max(_MINVAL, mj_getTotalmass(m)))
  m.body_mass[1:] *= scale
  m.body_inertia[1:] *= scale


def mj_normalizeQuat(m, qpos) -> None:
  """Normalizes in place the quaternions of the ball and free joints in qpos (nq,)."""
  q = _out(qpos, (m.nq,), "mj_normalizeQuat", "qpos")
  for j in range(m.njnt):
    kind = int(m.jnt_type[j])
    if kind in (_enums.mjJNT_BALL, _enums.mjJNT_FREE):
      adr = int(m.jnt_qposadr[j]) + 3 * (kind == _enums.mjJNT_FREE)
      quat = q[adr : adr + 4]  # a view: normalized in place
      _mju.mju_normalize4(quat)


def mj_isSparse(m) -> int:
  """1 if the constraint Jacobian is sparse (opt.jacobian sparse, or auto with nv >= 60)."""
  jacobian = int(m.opt.jacobian)
  return int(jacobian == _enums.mjJAC_SPARSE or (jacobian == _enums.mjJAC_AUTO and m.nv >= 60))


def mj_isPyramidal(m) -> int:
  """1 if the friction cone is pyramidal."""
  return int(int(m.opt.cone) == _enums.mjCONE_PYRAMIDAL)


def mj_isDual(m) -> int:
  """1 if the solver works in the dual (PGS, or any solver with noslip iterations)."""
  return int(int(m.opt.solver) == _enums.mjSOL_PGS or int(m.opt.noslip_iterations) > 0)


def mj_defaultOption(opt) -> None:
  """Sets every physics option of `opt` to MuJoCo's default (the <option> defaults)."""
  from engine.types import MjOption

  if not isinstance(opt, MjOption):
    raise TypeError(f"mj_defaultOption(): opt must be an MjOption, got {type(opt).__name__}")
  opt._assign(MjOption())


def mj_defaultVisual(vis) -> None:
  """Sets every visual option of `vis` to MuJoCo's default (the <visual> defaults)."""
  from engine.types import MjVisual

  if not isinstance(vis, MjVisual):
    raise TypeError(f"mj_defaultVisual(): vis must be an MjVisual, got {type(vis).__name__}")
  vis._assign(MjVisual())


def mj_defaultSolRefImp(solref, solimp) -> None:
  """Writes MuJoCo's default solref (2,) and solimp (5,); either may be None (C's nullable
  pointers; mujoco 3.17's binding takes floats and cannot be called with arrays)."""
  if solref is None and solimp is None:
    raise TypeError("mj_defaultSolRefImp(): solref and solimp are both None")
  ref = None if solref is None else _out(solref, (2,), "mj_defaultSolRefImp", "solref")
  imp = None if solimp is None else _out(solimp, (5,), "mj_defaultSolRefImp", "solimp")
  if ref is not None:
    ref[:] = (0.02, 1.0)
  if imp is not None:
    imp[:] = (0.9, 0.95, 0.001, 0.5, 2.0)


class MjLROpt:
  """Options of the actuator length-range computation (mjLROpt): zeros when made, as the
  bindings' MjLROpt(); mj_defaultLROpt sets MuJoCo's defaults. (mj_setLengthRange, which uses
  them, is not ported: the compiler computes actuator_lengthrange itself.)"""

  _FIELDS = {
    "mode": 1,  # mjLRMODE_MUSCLE
    "useexisting": 1,
    "uselimit": 0,
    "accel": 20.0,
    "maxforce": 0.0,
    "timeconst": 1.0,
    "timestep": 0.01,
    "inttotal": 10.0,
    "interval": 2.0,
    "tolrange": 0.05,
  }

  def __init__(self):
    for field, default in self._FIELDS.items():
      setattr(self, field, type(default)(0))

  def __repr__(self):
    body = "\n".join(f"  {k}: {getattr(self, k)!r}" for k in sorted(self._FIELDS))
    return f"<MjLROpt\n{body}\n>"


def mj_defaultLROpt(opt) -> None:
  """Sets the length-range options `opt` (an MjLROpt) to MuJoCo's defaults."""
  if not isinstance(opt, MjLROpt):
    raise TypeError(f"mj_defaultLROpt(): opt must be an MjLROpt, got {type(opt).__name__}")
  for field, default in MjLROpt._FIELDS.items():
    setattr(opt, field, default)


def mj_actuatorInputName(m, id, input) -> str | None:
  """Name of control `input` of actuator `id`: rx ry rz or qw qx qy qz for an SO3 actuator,
  else its present inputs among pos, vel, ff, voltage; None where the actuator names none or
  the indices are out of range (MuJoCo checks them and returns NULL)."""
  i = _int(id, "mj_actuatorInputName", "id")
  k = _int(input, "mj_actuatorInputName", "input")
  if not (0 <= i < m.nu and 0 <= k < int(m.actuator_ctrlnum[i])):
    return None
  if int(m.actuator_gaintype[i]) == _enums.mjGAIN_SO3:
    quat = int(m.actuator_ctrlspec[i]) == _enums.mjCHART_QUAT
    return ("qw", "qx", "qy", "qz")[k] if quat else ("rx", "ry", "rz")[k]
  spec = int(m.actuator_ctrlspec[i])
  bits = (_enums.mjINPUT_POS, _enums.mjINPUT_VEL, _enums.mjINPUT_FF, _enums.mjINPUT_VOLTAGE)
  present = [n for n, bit in zip(("pos", "vel", "ff", "voltage"), bits) if spec & bit]
  return present[k] if k < len(present) else None


def mj_maxContact(m, g1, g2, has_margin) -> int:
  """Most contacts the collision of geoms g1 and g2 can produce; has_margin -1 reads the
  margin from the model (pair, override or geom margins), else says whether it is positive."""
  name = "mj_maxContact"
  g1, g2 = _id(g1, m.ngeom, name, "g1"), _id(g2, m.ngeom, name, "g2")
  has_margin = _int(has_margin, name, "has_margin")
  e = _enums
  t1, t2 = int(m.geom_type[g1]), int(m.geom_type[g2])
  types = {t1, t2}
  if e.mjGEOM_SDF in types:
    return int(m.opt.sdf_initpoints)
  if e.mjGEOM_HFIELD in types:
    other = t2 if t1 == e.mjGEOM_HFIELD else t1
    return e.mjMAXCONPAIR if other not in (e.mjGEOM_PLANE, e.mjGEOM_HFIELD) else 0
  if types & {e.mjGEOM_SPHERE, e.mjGEOM_ELLIPSOID}:
    return 1
  if types == {e.mjGEOM_BOX}:
    return 8
  if types == {e.mjGEOM_CAPSULE}:
    return 2
  if types == {e.mjGEOM_CAPSULE, e.mjGEOM_BOX}:
    return 4
  if e.mjGEOM_PLANE in types:
    other = t2 if t1 == e.mjGEOM_PLANE else t1
    return {e.mjGEOM_CAPSULE: 2, e.mjGEOM_CYLINDER: 4, e.mjGEOM_BOX: 4, e.mjGEOM_MESH: 3}.get(
      other, 0
    )
  disable = int(m.opt.disableflags)
  if disable & e.mjDSBL_MULTICCD:
    return 1
  if types & {e.mjGEOM_CAPSULE, e.mjGEOM_CYLINDER}:
    return 5
  if disable & e.mjDSBL_NATIVECCD:
    return 5
  if has_margin < 0:
    if int(m.opt.enableflags) & e.mjENBL_OVERRIDE:
      has_margin = m.opt.o_margin > 0
    else:
      pairs = [
        k
        for k in range(m.npair)
        if {int(m.pair_geom1[k]), int(m.pair_geom2[k])} == {g1, g2}
        and (int(m.pair_geom1[k]), int(m.pair_geom2[k])) in ((g1, g2), (g2, g1))
      ]
      if pairs:
        has_margin = m.pair_margin[pairs[0]] > 0
      else:
        has_margin = m.geom_margin[g1] > 0 or m.geom_margin[g2] > 0
  return 5 if has_margin else 4


# ---- data resets ----


def mj_resetCtrl(m, d) -> None:
  """Sets the controls to their neutral values: zero, except the quaternion inputs of SO3
  actuators, which become the identity (1, 0, 0, 0)."""
  d.ctrl[:] = 0.0
  for i in range(m.nu):
    so3 = int(m.actuator_gaintype[i]) == _enums.mjGAIN_SO3
    if so3 and int(m.actuator_ctrlspec[i]) == _enums.mjCHART_QUAT:
      d.ctrl[int(m.actuator_ctrladr[i])] = 1.0


# the MjData fields MuJoCo's mj_resetDataDebug fills with the debug byte: the computed arrays
# of its buffer, xpos to cfrc_ext in mjData's order (what mj_resetData sets explicitly, the
# state and inputs, keeps its value), and sensordata
_DEBUG_FIELDS = ("sensordata",) + _structs.DATA_MEMBERS[
  _structs.DATA_MEMBERS.index("xpos") : _structs.DATA_MEMBERS.index("cfrc_ext") + 1
]


_DEBUG_TAILS = (
  ("body_awake_ind", "nbody_awake"),
  ("parent_awake_ind", "nparent_awake"),
  ("dof_awake_ind", "nv_awake"),
)


def mj_resetDataDebug(m, d, debug_value) -> None:
  """mj_resetData, then every computed array of the data filled with the byte `debug_value`
  (0-255), so that reading one before the pipeline wrote it shows up."""
  from engine.io import mj_resetData

  value = _int(debug_value, "mj_resetDataDebug", "debug_value")
  if not 0 <= value <= 255:
    raise ValueError(f"mj_resetDataDebug(): debug_value {value} out of range [0, 255]")
  mj_resetData(m, d)
  for field in _DEBUG_FIELDS:
    getattr(d, field).view(np.uint8)[...] = value
  # the index lists of awake objects: only their first count entries are written
  for field, count in _DEBUG_TAILS:
    getattr(d, field)[int(getattr(d, count)) :].view(np.uint8)[...] = value


# ---- constraint Jacobian and inertia products ----


def _efc_rows(m, d):
  """(nefc, sparse, J) with J the dense (nefc, nv) matrix or the flat sparse values."""
  nefc = int(d.nefc)
  sparse = mj_isSparse(m)
  if sparse:
    return nefc, True, d.efc_J
  return nefc, False, np.asarray(d.efc_J)[: nefc * m.nv].reshape(nefc, m.nv)


def mj_mulJacVec(m, d, res, vec) -> None:
  """res (nefc,) = efc_J vec (nv,): dense or sparse constraint Jacobian."""
  name = "mj_mulJacVec"
  nefc = int(d.nefc)
  out, v = _out(res, (nefc,), name, "res"), _in(vec, m.nv, name, "vec")
  if not nefc:
    return
  _, sparse, jac = _efc_rows(m, d)
  if not sparse:
    out[:] = jac @ v
    return
  for r in range(nefc):
    adr, nnz = int(d.efc_J_rowadr[r]), int(d.efc_J_rownnz[r])
    out[r] = jac[adr : adr + nnz] @ v[d.efc_J_colind[adr : adr + nnz]]


def mj_mulJacTVec(m, d, res, vec) -> None:
  """res (nv,) = efc_J' vec (nefc,): dense or sparse constraint Jacobian transposed."""
  name = "mj_mulJacTVec"
  nefc = int(d.nefc)
  out, v = _out(res, (m.nv,), name, "res"), _in(vec, nefc, name, "vec")
  if not nefc:
    return
  _, sparse, jac = _efc_rows(m, d)
  if not sparse:
    out[:] = jac.T @ v
    return
  out[:] = 0.0
  for r in range(nefc):
    adr, nnz = int(d.efc_J_rowadr[r]), int(d.efc_J_rownnz[r])
    np.add.at(out, d.efc_J_colind[adr : adr + nnz], jac[adr : adr + nnz] * v[r])


def _M_rows(m):
  """[(first entry, columns)] of each row of d.M's lower triangle (reduced layout)."""
  rows = []
  for i in range(m.nv):
    adr, nnz = int(m.M_rowadr[i]), int(m.M_rownnz[i])
    rows.append((adr, m.M_colind[adr : adr + nnz]))
  return rows


def mj_mulM2(m, d, res, vec) -> None:
  """res (nv,) = M^(1/2) vec (nv,), with M = L' D L from mj_factorM: res = sqrt(D) L vec."""
  name = "mj_mulM2"
  out, v = _out(res, (m.nv,), name, "res"), _in(vec, m.nv, name, "vec")
  result = v.copy()
  for i, (adr, cols) in enumerate(_M_rows(m)):
    if not m.dof_simplenum[i]:
      result[i] += d.qLD[adr : adr + len(cols) - 1] @ v[cols[:-1]]
  for i, (adr, cols) in enumerate(_M_rows(m)):
    result[i] *= math.sqrt(d.qLD[adr + len(cols) - 1])
  out[:] = result


def mj_addM(m, d, dst, rownnz, rowadr, colind) -> None:
  """Adds the lower triangle of M to dst: a sparse matrix of nM entries (CSR rownnz, rowadr
  (nv,), colind (nM,), int32; each row grows to the union of its and M's columns, sorted,
  which must fit before the next row starts), or, all three None (C's nullable arguments;
  mujoco 3.17's binding refuses None), a dense (nv, nv) matrix."""
  name = "mj_addM"
  nv, nM = m.nv, m.nM
  rows = _M_rows(m)
  if rownnz is None and rowadr is None and colind is None:
    dense = _out(dst, (nv, nv), name, "dst")
    for i, (adr, cols) in enumerate(rows):
      dense[i, cols] += d.M[adr : adr + len(cols)]
    return
  values = _out(dst, (nM,), name, "dst")
  nnz = _out(rownnz, (nv,), name, "rownnz", np.int32)
  adrs = _out(rowadr, (nv,), name, "rowadr", np.int32)
  ind = _out(colind, (nM,), name, "colind", np.int32)
  merged = []
  for i, (adr, cols) in enumerate(rows):
    start, count = int(adrs[i]), int(nnz[i])
    row = {}
    if start >= 0 and count >= 0 and start + count <= nM:
      row = dict(zip(ind[start : start + count].tolist(), values[start : start + count].tolist()))
    for c, value in zip(cols.tolist(), d.M[adr : adr + len(cols)].tolist()):
      row[c] = row[c] + value if c in row else value
    if start < 0 or count < 0 or start + len(row) > nM or (row and max(row) >= nv):
      raise ValueError(f"{name}(): row {i} (rowadr {start}, rownnz {count}) does not fit in dst")
    merged.append((start, sorted(row.items())))
  for i, (start, entries) in enumerate(merged):
    nnz[i] = len(entries)
    ind[start : start + len(entries)] = [c for c, _ in entries]
    values[start : start + len(entries)] = [v for _, v in entries]


# ---- Jacobians ----


def _jac_out(x, nv, function, name):
  """An optional (3, nv) Jacobian output (None: not computed)."""
  return None if x is None else _out(x, (3, nv), function, name)


def _cross_motion(vel, v):
  """mju_crossMotion: the spatial cross product vel x v of motion vectors (rot, lin)."""
  return np.concatenate(
    (np.cross(vel[:3], v[:3]), np.cross(vel[:3], v[3:]) + np.cross(vel[3:], v[:3]))
  )


def _dof_chain(m, body):
  """The dofs moving `body`, last first (empty for bodies welded to the world)."""
  body = int(m.body_weldid[body])
  if m.body_dofnum[body] == 0:
    return []
  chain, i = [], int(m.body_dofadr[body] + m.body_dofnum[body] - 1)
  while i >= 0:
    chain.append(i)
    i = int(m.dof_parentid[i])
  return chain


def mj_jacDot(m, d, jacp, jacr, point, body) -> None:
  """Time derivatives (3, nv) of the translational (jacp) and rotational (jacr) Jacobians of a
  global point attached to `body`; either may be None (needs cdof_dot: mj_comVel)."""
  name = "mj_jacDot"
  nv = m.nv
  body = _id(body, m.nbody, name, "body")
  p, r = _jac_out(jacp, nv, name, "jacp"), _jac_out(jacr, nv, name, "jacr")
  point = _in(point, 3, name, "point")
  com = d.subtree_com[m.body_rootid[body]]
  offset = point - com
  pvel = _motion(d.cvel[body], point, com, None)
  for out in (p, r):
    if out is not None:
      out[:] = 0.0
  for i in _dof_chain(m, body):
    cdof, cdof_dot = d.cdof[i], d.cdof_dot[i].copy()
    joint = int(m.dof_jntid[i])
    kind = int(m.jnt_type[joint])
    if kind == _enums.mjJNT_BALL or (kind == _enums.mjJNT_FREE and i >= m.jnt_dofadr[joint] + 3):
      cdof_dot = _cross_motion(d.cvel[m.dof_bodyid[i]], cdof)  # quaternion dofs rotate
    if r is not None:
      r[:, i] += cdof_dot[:3]
    if p is not None:
      p[:, i] += cdof_dot[3:] + np.cross(cdof_dot[:3], offset) + np.cross(cdof[:3], pvel[3:])


def mj_jacPointAxis(m, d, jacPoint, jacAxis, point, axis, body) -> None:
  """Translational Jacobian (3, nv) of a global point on `body` and rotational Jacobian of a
  global axis attached to it (the axis's rate of change); either output may be None."""
  from engine import support

  name = "mj_jacPointAxis"
  nv = m.nv
  body = _id(body, m.nbody, name, "body")
  p, a = _jac_out(jacPoint, nv, name, "jacPoint"), _jac_out(jacAxis, nv, name, "jacAxis")
  point, axis = _in(point, 3, name, "point"), _in(axis, 3, name, "axis")
  jacp = p if p is not None else np.zeros((3, nv))
  jacr = np.zeros((3, nv))
  support.mj_jac(m, d, jacp, jacr, point, body)
  if a is not None:
    a[:] = np.cross(jacr.T, axis).T


def mj_angmomMat(m, d, mat, body) -> None:
  """Matrix (3, nv) mapping qvel to the angular momentum of the subtree of `body` about its
  center of mass (needs subtree_com: mj_comPos)."""
  from engine import support

  name = "mj_angmomMat"
  nv = m.nv
  body = _id(body, m.nbody, name, "body")
  out = _out(mat, (3, nv), name, "mat")
  total = np.zeros((3, nv))
  jacp, jacr = np.zeros((3, nv)), np.zeros((3, nv))
  center = d.subtree_com[body].copy()
  for b in range(body, m.nbody):
    if b > body and m.body_parentid[b] < body:  # past the subtree
      break
    support.mj_jacBodyCom(m, d, jacp, jacr, b)
    rot = d.ximat[b].reshape(3, 3)
    inertia = (rot * m.body_inertia[b]) @ rot.T  # ximat diag(inertia) ximat'
    total += inertia @ jacr
    com = d.xipos[b] - center
    skew = np.array([[0, -com[2], com[1]], [com[2], 0, -com[0]], [-com[1], com[0], 0]])
    total += (skew @ jacp) * m.body_mass[b]
  out[:] = total


# ---- pipeline pieces ----


def mj_flex(m, d) -> None:
  """Flex quantities: nothing to compute, since the compiler builds no flexes."""
  if getattr(m, "nflex", 0):
    raise UnsupportedError("mj_flex: flexes are not supported")


def mj_fwdKinematics(m, d) -> None:
  """Kinematics-like computations: mj_kinematics, mj_comPos, mj_camlight, mj_flex, mj_tendon
  (and the tendon wake-up of sleeping trees)."""
  from engine import _jit
  from engine import sleep
  from engine import smooth
  from engine import tendon

  smooth.mj_kinematics(m, d)
  smooth.mj_comPos(m, d)
  smooth.mj_camlight(m, d)
  mj_flex(m, d)
  tendon.mj_tendon(m, d)
  if int(m.opt.enableflags) & _enums.mjENBL_SLEEP:
    if _jit.python_callable(sleep.wake_tendon)(m._struct, d._struct):
      _jit.python_callable(sleep.update_sleep)(m._struct, d._struct, False)


def mj_invPosition(m, d) -> None:
  """Position stage of inverse dynamics: kinematics, inertia and its factorization,
  collision, constraint rows (projected with diagexact), transmission (no islands, unlike
  mj_fwdPosition)."""
  from engine import constraint
  from engine import smooth
  from engine import tendon
  from engine.collision import driver as collision_driver

  smooth.mj_kinematics(m, d)
  smooth.mj_comPos(m, d)
  smooth.mj_camlight(m, d)
  mj_flex(m, d)
  tendon.mj_tendon(m, d)
  smooth.mj_makeM(m, d)
  smooth.mj_factorM(m, d)
  collision_driver.mj_collision(m, d)
  constraint.mj_makeConstraint(m, d)
  if int(m.opt.enableflags) & _enums.mjENBL_DIAGEXACT:
    mj_projectConstraint(m, d)
  tendon.mj_transmission(m, d)


def mj_invVelocity(m, d) -> None:
  """Velocity stage of inverse dynamics: the same as mj_fwdVelocity."""
  from engine import driver

  driver.mj_fwdVelocity(m, d)


def mj_invConstraint(m, d) -> None:
  """Constraint forces of the soft model at d.qacc: efc_force, efc_state, qfrc_constraint from
  jar = J qacc - aref (the analytical inverse of the constraint solver)."""
  from engine import solver

  nefc = int(d.nefc)
  if not nefc:
    d.qfrc_constraint[:] = 0.0
    return
  jar = np.zeros(nefc)
  mj_mulJacVec(m, d, jar, d.qacc)
  jar -= d.efc_aref[:nefc]
  solver.mj_constraintUpdate(m, d, jar, None, 0)


def mj_compareFwdInv(m, d) -> None:
  """Compares forward and inverse dynamics at the current state, leaving the forward results:
  solver_fwdinv = (|qfrc_constraint forward - inverse|, |applied forces - qfrc_inverse|)."""
  from engine import driver
  from engine import support

  d.solver_fwdinv[:] = 0.0
  nefc = int(d.nefc)
  if not nefc:
    return
  qforce = d.qfrc_applied + d.qfrc_actuator
  for b in range(1, m.nbody):
    if d.xfrc_applied[b].any():
      xfrc = d.xfrc_applied[b]
      support.mj_applyFT(m, d, xfrc[:3], xfrc[3:], d.xipos[b], b, qforce)
  saved_qfrc, saved_force = d.qfrc_constraint.copy(), d.efc_force[:nefc].copy()
  driver.mj_inverseSkip(m, d, _enums.mjSTAGE_VEL, 1)
  d.solver_fwdinv[0] = np.linalg.norm(saved_qfrc - d.qfrc_constraint)
  d.solver_fwdinv[1] = np.linalg.norm(qforce - d.qfrc_inverse)
  d.qfrc_constraint[:] = saved_qfrc
  d.efc_force[:nefc] = saved_force


def mj_projectConstraint(m, d) -> None:
  """The dual quantities of the constraint rows: efc_Y = J M^(-1/2) for dual solvers and
  diagexact, then (diagexact) the exact diagonal and the impedance from it, then (dual)
  efc_AR = J M^-1 J' + diag(efc_R), dense nefc x nefc or sparse, with nA. Nothing for a primal
  solver without diagexact. UnsupportedError when this MjData has no room for them (its
  capacity follows the options its model had when it was made)."""
  from engine import _jit
  from engine import constraint
  from engine import projection

  nefc = int(d.nefc)
  dual, diagexact = mj_isDual(m), bool(int(m.opt.enableflags) & _enums.mjENBL_DIAGEXACT)
  if not nefc or not (dual or diagexact):
    return
  room = "mj_projectConstraint: this MjData has no room for {} (made for other options)"
  if not projection.efc_y(m._struct, d._struct, diagexact):
    raise UnsupportedError(room.format("efc_Y"))
  if diagexact:
    _jit.python_callable(constraint.make_impedance)(m._struct, d._struct)
    if int(d.nisland):
      order = d.map_iefc2efc[:nefc]
      d.iefc_D[:nefc] = d.efc_D[order]
      d.iefc_R[:nefc] = d.efc_R[order]
  if dual and not projection.efc_ar(m._struct, d._struct):
    raise UnsupportedError(room.format("efc_AR"))


# ---- text dumps ----


def _write_fields(out, title, source, rows):
  """One section: each field's name, shape and values (one row per line), in table order."""
  out.write(f"{title}\n")
  for row in rows:
    value = getattr(source, row.name, None)
    if value is None or row.name.startswith("scratch_"):
      continue
    if isinstance(value, np.ndarray):
      out.write(f"  {row.name} {value.shape}\n")
      matrix = value.reshape(len(value), -1) if value.ndim > 1 and value.size else [value.ravel()]
      for line in matrix:
        if line.size:
          out.write("    " + " ".join(_number(x) for x in line.tolist()) + "\n")
    elif isinstance(value, bytes):
      out.write(f"  {row.name} {value.decode(errors='replace')!r}\n")
    else:
      out.write(f"  {row.name} {_number(value)}\n")
  out.write("\n")


def _number(x):
  return f"{x:.9g}" if isinstance(x, float) else str(x)


def mj_printModel(m, filename) -> None:
  """Writes every size, option, statistic and array of the model to the text file `filename`:
  a field per heading, a row per line (readable, not MuJoCo's exact layout)."""
  from engine import fields

  if not isinstance(filename, (str, bytes)) and not hasattr(filename, "__fspath__"):
    raise TypeError(f"mj_printModel(): filename must be a path, got {type(filename).__name__}")
  with open(filename, "w") as out:
    _write_fields(out, "SIZES", m, fields.MODEL_SIZES)
    _write_fields(out, "OPTION", m.opt, fields.OPTION_FIELDS)
    _write_fields(out, "STATISTIC", m.stat, fields.STATISTIC_FIELDS)
    _write_fields(out, "MODEL", m, fields.MODEL_FIELDS)


def mj_printData(m, d, filename) -> None:
  """Writes every array of the data (constraint rows and contacts cut to nefc and ncon) and
  the warnings to the text file `filename` (readable, not MuJoCo's exact layout)."""
  from engine import fields

  if not isinstance(filename, (str, bytes)) and not hasattr(filename, "__fspath__"):
    raise TypeError(f"mj_printData(): filename must be a path, got {type(filename).__name__}")
  contacts = [row.name[len("contact_") :] for row in fields.DATA_FIELDS if "contact_" in row.name]
  with open(filename, "w") as out:
    _write_fields(out, "DATA", d, fields.DATA_FIELDS)
    out.write("WARNINGS\n")
    for i, warning in enumerate(d.warning):
      out.write(f"  {i} number {warning.number} lastinfo {warning.lastinfo}\n")
    out.write("\nCONTACTS\n")
    for k in range(int(d.ncon)):
      contact = d.contact[k]
      out.write(f"  contact {k}\n")
      for name in contacts:
        value = np.asarray(getattr(contact, name, None))
        if value.dtype != object:
          out.write(f"    {name} " + " ".join(_number(x) for x in value.ravel().tolist()) + "\n")
