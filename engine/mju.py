"""`engine.mju_*`: the helpers of engine/math.py called as the `mujoco` bindings call them.

The kernels of engine/math.py take MuJoCo's C arguments (flat arrays plus sizes) and check
nothing: numba does not check bounds, so a short output array is written past its end. The
functions here have the bindings' Python signatures instead (`mju_mulMatVec(res, mat, vec)`, sizes
taken from the arrays), check every argument as the bindings do, then call the kernel:

- an output (`flags.writeable` in the bindings' signature) must be a writeable, C-contiguous
  numpy array of float64 of the declared shape; nothing else is accepted (a list or a float32
  array would lose the result);
- an input is converted as the bindings convert it: lists, tuples, other numeric dtypes,
  strided or read-only arrays become a float64 copy (a read-only array is copied so that numba
  compiles one version per function);
- a vector of n (`[n, 1]` in the bindings) is an array of shape (n,) or (n, 1); a matrix
  (`[m, n]`) is 2-d (a 1-d array of n is one column, n x 1, as in the bindings);
- floats accept what has `__float__` or `__index__` (not str); ints refuse floats; str accepts
  str and bytes.

Anything else raises TypeError naming the function, the parameter, what was expected and what
was given, before any call into numba; the bindings raise TypeError in the same cases (size
mismatches included), and mujoco.FatalError (here engine.FatalError) for a bad Euler sequence.
One call the bindings accept but MuJoCo's C cannot do is refused here with TypeError:
mju_normalize of an empty vector (MuJoCo writes res[0]: a segfault in `mujoco`).

Sizes are passed to the kernel as the bindings pass them to C, including one surprise:
mju_encodePyramid and mju_decodePyramid take force (d+1), pyramid (2d) and mu (d) but pass
dim = d, not the force's d+1, so the last friction direction is left out (the last two pyramid
numbers, resp. the last force number, are not written) exactly as in `mujoco` 3.17;
`engine.math_raw.mju_encodePyramid(pyramid, force, mu, dim)` takes the C dim.

The functions are generated from _TABLE when this module is imported (one small function per
entry, with the bindings' parameter names, so keywords work as in `mujoco`). The kernels without
such a signature stay reachable as `engine.math_raw.mju_*` (C arguments, no checks).
"""

import operator
import re

import numpy as np

from engine import _jit
from engine import math as _math
from engine.errors import FatalError

# One line per function: name | parameters, in the bindings' order | the kernel's arguments |
# return type (empty: None).
#
# Parameters: `x:float`, `x:int`, `x:str`; `x:[3]` a float64 vector of 3, `x:[n]` of any
# length n, `x:[r,c]` a float64 matrix; `w[...]` an output (writeable, never converted);
# a trailing `?`: None is allowed (passed on as None). A dimension that is a bare letter is bound
# by its first appearance, inputs before outputs; every other appearance, and expressions such
# as `2*d`, must agree. The kernel's arguments are parameter names and dimension expressions;
# `*` stands for all the parameters in order.
_TABLE = """
mju_min              | a:float b:float                        | *         | float
mju_max              | a:float b:float                        | *         | float
mju_clip             | x:float min:float max:float            | *         | float
mju_sign             | x:float                                | *         | float
mju_round            | x:float                                | *         | int
mju_isBad            | x:float                                | *         | int
mju_sigmoid          | x:float                                | *         | float
mju_zero3            | res:w[3]                               | *
mju_copy3            | res:w[3] data:[3]                      | *
mju_scl3             | res:w[3] vec:[3] scl:float             | *
mju_add3             | res:w[3] vec1:[3] vec2:[3]             | *
mju_sub3             | res:w[3] vec1:[3] vec2:[3]             | *
mju_addTo3           | res:w[3] vec:[3]                       | *
mju_subFrom3         | res:w[3] vec:[3]                       | *
mju_addToScl3        | res:w[3] vec:[3] scl:float             | *
mju_addScl3          | res:w[3] vec1:[3] vec2:[3] scl:float   | *
mju_dot3             | vec1:[3] vec2:[3]                      | *         | float
mju_dist3            | pos1:[3] pos2:[3]                      | *         | float
mju_norm3            | vec:[3]                                | *         | float
mju_normalize3       | vec:w[3]                               | *         | float
mju_cross            | res:w[3] a:[3] b:[3]                   | *
mju_mulMatVec3       | res:w[3] mat:[9] vec:[3]               | *
mju_mulMatTVec3      | res:w[3] mat:[9] vec:[3]               | *
mju_zero4            | res:w[4]                               | *
mju_unit4            | res:w[4]                               | *
mju_copy4            | res:w[4] data:[4]                      | *
mju_normalize4       | vec:w[4]                               | *         | float
mju_zero             | res:w[n]                               | * n
mju_fill             | res:w[n] val:float                     | * n
mju_copy             | res:w[n] vec:[n]                       | * n
mju_scl              | res:w[n] vec:[n] scl:float             | * n
mju_add              | res:w[n] vec1:[n] vec2:[n]             | * n
mju_sub              | res:w[n] vec1:[n] vec2:[n]             | * n
mju_addTo            | res:w[n] vec:[n]                       | * n
mju_subFrom          | res:w[n] vec:[n]                       | * n
mju_addToScl         | res:w[n] vec:[n] scl:float             | * n
mju_addScl           | res:w[n] vec1:[n] vec2:[n] scl:float   | * n
mju_dot              | vec1:[n] vec2:[n]                      | * n       | float
mju_norm             | res:[n]                                | * n       | float
mju_normalize        | res:w[n]                               | * n       | float
mju_sum              | vec:w[n]                               | * n       | float
mju_L1               | vec:w[n]                               | * n       | float
mju_mulMatVec        | res:w[r] mat:[r,c] vec:[c]             | * r c
mju_mulMatTVec       | res:w[c] mat:[r,c] vec:[r]             | * r c
mju_mulVecMatVec     | vec1:[n] mat:[n,n] vec2:[n]            | * n       | float
mju_transpose        | res:w[c,r] mat:[r,c]                   | * r c
mju_symmetrize       | res:w[n,n] mat:[n,n]                   | * n
mju_eye              | mat:w[n,n]                             | * n
mju_mulMatMat        | res:w[r1,c2] mat1:[r1,c1] mat2:[c1,c2] | * r1 c1 c2
mju_mulMatMatT       | res:w[r1,r2] mat1:[r1,c1] mat2:[r2,c1] | * r1 c1 r2
mju_mulMatTMat       | res:w[c1,c2] mat1:[r1,c1] mat2:[r1,c2] | * r1 c1 c2
mju_sqrMatTD         | res:w[c,c] mat:[r,c] diag:w[r]?        | * r c
mju_rotVecQuat       | res:w[3] vec:[3] quat:[4]              | *
mju_negQuat          | res:w[4] quat:[4]                      | *
mju_mulQuat          | res:w[4] quat1:[4] quat2:[4]           | *
mju_mulQuatAxis      | res:w[4] quat:[4] axis:[3]             | *
mju_axisAngle2Quat   | res:w[4] axis:[3] angle:float          | *
mju_quat2Vel         | res:w[3] quat:[4] dt:float             | *
mju_subQuat          | res:w[3] qa:[4] qb:[4]                 | *
mju_quat2Mat         | res:w[9] quat:[4]                      | *
mju_mat2Quat         | quat:w[4] mat:[9]                      | *
mju_derivQuat        | res:w[4] quat:[4] vel:[3]              | *
mju_quatIntegrate    | quat:w[4] vel:[3] scale:float          | *
mju_quatZ2Vec        | quat:w[4] vec:[3]                      | *
mju_mat2Rot          | quat:w[4] mat:[9]                      | *         | int
mju_euler2Quat       | quat:w[4] euler:[3] seq:str            | *
mju_mulPose          | posres:w[3] quatres:w[4] pos1:[3] quat1:[4] pos2:[3] quat2:[4] | *
mju_negPose          | posres:w[3] quatres:w[4] pos:[3] quat:[4] | *
mju_trnVecPose       | res:w[3] pos:[3] quat:[4] vec:[3]      | *
mju_transformSpatial | res:w[6] vec:[6] flg_force:int newpos:[3] oldpos:[3] rotnew2old:[9] | *
mju_cholFactor       | mat:w[n,n] mindiag:float               | mat n mindiag | int
mju_cholSolve        | res:w[n] mat:[n,n] vec:[n]             | * n
mju_cholUpdate       | mat:w[n,n] x:w[n] flg_plus:int         | mat x n flg_plus | int
mju_eig3             | eigval:w[3] eigvec:w[9] quat:w[4] mat:[9] | *         | int
mju_muscleGain       | len:float vel:float lengthrange:[2] acc0:float prm:[9] | *         | float
mju_muscleBias       | len:float lengthrange:[2] acc0:float prm:[9] | *         | float
mju_muscleDynamics   | ctrl:float act:float prm:[3]           | *         | float
mju_springDamper     | pos0:float vel0:float Kp:float Kv:float dt:float | *         | float
mju_encodePyramid    | pyramid:w[2*d] force:[d+1] mu:[d]      | * d
mju_decodePyramid    | force:w[d+1] pyramid:[2*d] mu:[d]      | * d
"""

# calls the bindings pass to C although C cannot do them: condition, and the error's message
_REFUSED = {
  "mju_normalize": ("n >= 1", "res is empty (MuJoCo would write res[0])"),
}

# the kernel of an entry when it is not engine.math's function of the same name
_KERNELS = {"mju_euler2Quat": _math.euler2quat_codes}  # seq as integer codes

# the `mujoco` bindings' mju_ functions that engine.mju does not provide, and why
# (docs/physics_api.md lists them too; tests/engine/test_mju_api.py keeps both complete)
NOT_COVERED = {
  "mju_rayGeom": "engine/ray.py's own wrapper (wrong sizes raise ValueError there)",
  "mju_raySkin": "skins are drawn, not simulated: only the renderer has a (vectorised) version",
  "mju_Halton": "an internal helper of the SDF collider and the renderer, not exported",
  "mju_standardNormal": "MuJoCo's C random generator: use numpy.random",
  "mju_band2Dense": "band-dense matrices: the engine does not use MuJoCo's band solver",
  "mju_bandDiag": "band-dense matrices: the engine does not use MuJoCo's band solver",
  "mju_bandMulMatVec": "band-dense matrices: the engine does not use MuJoCo's band solver",
  "mju_cholFactorBand": "band-dense matrices: the engine does not use MuJoCo's band solver",
  "mju_cholSolveBand": "band-dense matrices: the engine does not use MuJoCo's band solver",
  "mju_dense2Band": "band-dense matrices: the engine does not use MuJoCo's band solver",
  "mju_boxQP": "box-constrained QP solver: not ported (the engine's solvers do not use it)",
  "mju_dense2sparse": "MuJoCo's CSR layout: engine/sparse.py has its own kernels, not exported",
  "mju_sparse2dense": "MuJoCo's CSR layout: engine/sparse.py has its own kernels, not exported",
  "mju_sym2dense": "MuJoCo's CSR layout: engine/sparse.py has its own kernels, not exported",
  "mju_printMat": "printing: use numpy's",
  "mju_printMatSparse": "printing: use numpy's",
  "mju_d2n": "float64/mjtNum conversion: mjtNum is float64, use numpy (np.copyto)",
  "mju_n2d": "float64/mjtNum conversion: mjtNum is float64, use numpy (np.copyto)",
  "mju_f2n": "float32/mjtNum conversion: use numpy (np.copyto, astype)",
  "mju_n2f": "float32/mjtNum conversion: use numpy (np.copyto, astype)",
  "mju_insertionSort": "sorting: use numpy.sort",
  "mju_insertionSortInt": "sorting: use numpy.sort",
  "mju_isZero": "not ported: `not vec.any()`",
  "mju_str2Type": "object type names (mjtObj): not ported",
  "mju_type2Str": "object type names (mjtObj): not ported",
  "mju_warningText": "not ported: engine.Physics.check_invalid_state names the warnings",
  "mju_writeLog": "MuJoCo's log file: not ported",
  "mju_writeNumBytes": "byte-count formatting: not ported",
  "mju_getXMLDependencies": "not ported: the MJCF compiler does not report the files it read",
  "mju_threadpool": "MuJoCo's thread pool: batches run on numba's threads (engine.batch)",
}

_F8 = np.dtype(np.float64)
_OK = 0x501  # flags.num: C-contiguous | aligned | writeable (what the compiled code is built for)
_ROW = re.compile(r"(\w+):(?:(float|int|str)|(w?)\[([^\]]*)\](\??))$")
_NAME = re.compile(r"[A-Za-z_]\w*")


def _describe(x):
  """What was given, for error messages."""
  if isinstance(x, np.ndarray):
    what = f"a {x.dtype} array of shape {x.shape}"
    if not x.flags.writeable:
      what += ", read-only"
    if not x.flags.c_contiguous:
      what += ", not C-contiguous"
    return what
  return f"{type(x).__name__} {x!r}"[:80]


class _Array:
  """The checks of one array parameter (built once per function and parameter)."""

  def __init__(self, fn, name, dims, out, optional):
    self.fn, self.name, self.dims, self.out = fn, name, dims, out
    self.matrix = len(dims) == 2
    self.fixed = int(dims[0]) if not self.matrix and dims[0].isdigit() else None
    if self.matrix:
      shape = "2-d (a 1-d array is one column)"
    elif self.fixed is not None:
      shape = f"of shape ({self.fixed},) or ({self.fixed}, 1)"
    else:
      shape = "of shape (n,) or (n, 1)"
    none = " or None" if optional else ""
    if out:
      self.expected = f"a writeable, C-contiguous numpy float64 array {shape}{none}"
    else:
      self.expected = f"a float64 array {shape} (or convertible to one){none}"

  def error(self, x, why=""):
    raise TypeError(
      f"{self.fn}(): {self.name} must be {self.expected}{why}; got {_describe(x)}"
    ) from None

  def shape(self, a):
    """The (rows, cols) of a as the bindings read its shape, or None if it does not fit."""
    if a.ndim == 1:
      rows, cols = a.shape[0], 1
    elif a.ndim == 2:
      rows, cols = a.shape
    else:
      return None
    if not self.matrix and (cols != 1 or (self.fixed is not None and rows != self.fixed)):
      return None
    return rows, cols

  def __call__(self, x):
    """x as a flat float64 array the kernel can take (a view of an output), with its
    (rows, cols) for a matrix."""
    if self.out:
      if not isinstance(x, np.ndarray) or x.dtype != _F8:
        self.error(x)
      if not x.flags.writeable:
        self.error(x, " (it is written)")
      shape = self.shape(x)
      if shape is None or not x.flags.c_contiguous:
        self.error(x)
      flat = x.view(np.ndarray).reshape(-1)  # a view: x is C-contiguous
    else:
      if isinstance(x, np.ndarray) and x.dtype == _F8:
        a = x.view(np.ndarray)
      else:
        try:
          a = np.asarray(x, dtype=_F8)
        except (TypeError, ValueError, OverflowError):
          self.error(x)
      shape = self.shape(a)
      if shape is None:
        self.error(x)
      flat = a.reshape(-1)
      if flat.flags.num & _OK != _OK:  # strided, read-only or unaligned: a copy
        flat = flat.copy()
    return (flat, *shape) if self.matrix else flat


def _to_float(x, fn, name):
  """x as the bindings' double: __float__ or __index__ (PyFloat_AsDouble), never str."""
  t = type(x)
  try:
    if hasattr(t, "__float__"):
      return float(t.__float__(x))
    if hasattr(t, "__index__"):
      return float(operator.index(x))
  except (TypeError, ValueError, OverflowError):
    pass
  raise TypeError(f"{fn}(): {name} must be a float; got {_describe(x)}") from None


def _to_int(x, fn, name):
  """x as the bindings' int: an int or what has __index__ (or else __int__), never a float
  (np.float64 included), within C's int."""
  v = None
  if not isinstance(x, float):
    t = type(x)
    try:
      v = operator.index(x)
    except TypeError:
      if hasattr(t, "__int__") or hasattr(t, "__float__") or isinstance(x, complex):
        try:
          v = int(x)
        except (TypeError, ValueError, OverflowError):
          pass
  if v is None or not -(2**31) <= v < 2**31:
    raise TypeError(f"{fn}(): {name} must be an int (C int); got {_describe(x)}")
  return v


_SEQ = {}  # Euler sequence -> its codes (there are 216 valid ones)


def _to_seq(x, fn, name):
  """An Euler sequence (str or bytes, as the bindings take it) as euler2quat_codes' codes;
  engine.FatalError with MuJoCo's message when invalid (mujoco raises its FatalError)."""
  codes = _SEQ.get(x) if isinstance(x, str) else None
  if codes is not None:
    return codes
  if isinstance(x, (bytes, bytearray)):
    try:
      x = bytes(x).decode()
    except UnicodeDecodeError:
      x = None
  if not isinstance(x, str):
    raise TypeError(f"{fn}(): {name} must be a str; got {_describe(x)}")
  if len(x) != 3:
    raise FatalError(f"{fn}: seq must contain exactly 3 characters")
  for i, ch in enumerate(x):
    if ch not in "xyzXYZ":
      raise FatalError(f"{fn}: seq[{i}] is '{ch}', should be one of x, y, z, X, Y, Z")
  codes = np.array(["xyzXYZ".index(ch) for ch in x], dtype=np.int32)
  _SEQ[x] = codes
  return codes


def _size_error(fn, name, what, got, expr, want, origin):
  raise TypeError(f"{fn}(): {name} has {got} {what}; expected {expr} = {want} ({origin})")


def _condition_error(fn, message):
  raise TypeError(f"{fn}(): {message}; the `mujoco` bindings pass this call to C unchecked")


def _build(fn, params, cargs, ret):
  """The checked function of one _TABLE row, as Python source made into a function."""
  kernel = _KERNELS.get(fn) or getattr(_math, fn)
  ns = {
    "_c": _jit.python_callable(kernel),
    "_nd": np.ndarray,
    "_F8": _F8,
    "_type": type,
    "_to_float": _to_float,
    "_to_int": _to_int,
    "_to_str": _to_seq,
    "_size_error": _size_error,
    "_condition_error": _condition_error,
  }
  names, arrays, lines = [], [], []
  for spec in params.split():
    m = _ROW.match(spec)
    assert m, (fn, spec)
    name, scalar, w, dims, optional = m.groups()
    optional = optional == "?"
    names.append(name)
    if scalar:
      if scalar == "float":
        lines.append(f"if _type({name}) is not float: {name} = _to_float({name}, {fn!r}, {name!r})")
      else:
        lines.append(f"{name} = _to_{scalar}({name}, {fn!r}, {name!r})")
      continue
    dims = [d.strip() for d in dims.split(",")]
    check = ns[f"_a_{name}"] = _Array(fn, name, dims, w == "w", optional)
    arrays.append((name, dims, w == "w", optional))
    # the common case inline (no call): a C-contiguous, aligned, writeable float64 array
    none = f"{name} is not None and " if optional else ""
    ndim = 2 if check.matrix else 1
    shape = f"{name}.shape == ({check.fixed},)" if check.fixed else f"{name}.ndim == {ndim}"
    fast = f"_type({name}) is _nd and {shape} and {name}.dtype is _F8"
    fast += f" and {name}.flags.num & {_OK} == {_OK}"
    if check.matrix:
      assert not optional, (fn, name)
      lines.append(
        f"if {fast}: _rows_{name}, _cols_{name} = {name}.shape; {name} = {name}.reshape(-1)"
      )
      lines.append(f"else: {name}, _rows_{name}, _cols_{name} = _a_{name}({name})")
    else:
      lines.append(f"if {none}not ({fast}): {name} = _a_{name}({name})")

  # dimensions: each letter bound by its first bare appearance, inputs before outputs
  bound, origin = {}, {}
  for name, dims, out, optional in sorted(arrays, key=lambda a: a[2]):
    for axis, dim in enumerate(dims):
      if dim in bound or not _NAME.fullmatch(dim):
        continue
      assert not optional, (fn, name)
      bound[dim] = _extent(name, dims, axis)
      origin[dim] = f"{dim}: {('rows', 'columns')[axis] if len(dims) == 2 else 'size'} of {name}"
  for dim, extent in bound.items():
    lines.append(f"_d_{dim} = {extent}")

  def expr(e):
    return _NAME.sub(lambda m: f"_d_{m.group(0)}", e)

  for name, dims, out, optional in arrays:
    for axis, dim in enumerate(dims):
      if dim.isdigit() or bound.get(dim) == _extent(name, dims, axis):
        continue  # fixed sizes are checked with the type; this is where dim was bound
      what = ("rows", "columns")[axis] if len(dims) == 2 else "elements"
      used = ", ".join(origin[d] for d in _NAME.findall(dim))
      extent = _extent(name, dims, axis)
      none = f"{name} is not None and " if optional else ""
      lines.append(
        f"if {none}{extent} != {expr(dim)}: _size_error({fn!r}, {name!r}, {what!r}, {extent}, "
        f"{dim!r}, {expr(dim)}, {used!r})"
      )
  if fn in _REFUSED:
    test, message = _REFUSED[fn]
    lines.append(f"if not ({expr(test)}): _condition_error({fn!r}, {message!r})")

  cargs = [a for token in cargs.split() for a in (names if token == "*" else [token])]
  call = ", ".join(a if a in names else expr(a) for a in cargs)
  lines.append(f"return _c({call})")
  source = f"def {fn}({', '.join(names)}):\n" + "".join(f"  {line}\n" for line in lines)
  exec(compile(source, f"<engine.mju {fn}>", "exec"), ns)
  func = ns[fn]
  func.__module__ = __name__
  func.__doc__ = (
    f"{fn}({', '.join(names)}): the `mujoco` binding's call of engine.math.{fn}, "
    f"arguments checked (engine/mju.py).\n\n{kernel.__doc__ or ''}"
  )
  func.__annotations__ = {"return": {"": None, "float": float, "int": int}[ret]}
  func.source = source  # the generated code, for reading
  return func


def _extent(name, dims, axis):
  """Source of the length of `name` along `axis` (after its conversion)."""
  if len(dims) == 2:
    return f"_{('rows', 'cols')[axis]}_{name}"
  return f"{name}.shape[0]"


def _rows():
  for line in _TABLE.strip().splitlines():
    fn, params, cargs, ret = ([cell.strip() for cell in line.split("|")] + [""])[:4]
    yield fn, (params, cargs, ret)


# name -> (parameters, kernel's arguments, return type): the table, parsed
TABLE = dict(_rows())

for _fn, _row in TABLE.items():
  globals()[_fn] = _build(_fn, *_row)
del _fn, _row

__all__ = sorted(TABLE)


# ---- compressed sparse rows (MuJoCo's rownnz/rowadr/colind), outside the float-only table ----


def _int_vector(fn, name, x, out=False):
  """x as the bindings' int32 vector: an output must be a writeable, C-contiguous int32 array
  (it is written); an input is converted."""
  if out:
    if (
      not (isinstance(x, np.ndarray) and x.dtype == np.int32 and x.ndim == 1 and x.flags.writeable)
      or not x.flags.c_contiguous
    ):
      raise TypeError(
        f"{fn}(): {name} must be a writeable, C-contiguous int32 array; got {_describe(x)}"
      )
    return x
  try:
    return np.asarray(x, dtype=np.int32).reshape(-1)
  except (TypeError, ValueError):
    raise TypeError(f"{fn}(): {name} must be an int32 vector; got {_describe(x)}") from None


def _rows_error(fn, name, size, rows):
  raise TypeError(f"{fn}(): {name} has {size} elements; expected the {rows} rows of the matrix")


def mju_sparse2dense(res, mat, rownnz, rowadr, colind):
  """Writes into res (rows x cols) the matrix whose compressed rows are mat (values), rownnz
  (values per row), rowadr (each row's first value) and colind (each value's column)."""
  fn = "mju_sparse2dense"
  dense = _Array(fn, "res", ["m", "n"], True, False)(res)[0].reshape(res.shape)
  values = _Array(fn, "mat", ["k"], False, False)(mat)
  rownnz = _int_vector(fn, "rownnz", rownnz)
  rowadr = _int_vector(fn, "rowadr", rowadr)
  colind = _int_vector(fn, "colind", colind)
  for name, vector in (("rownnz", rownnz), ("rowadr", rowadr)):
    if len(vector) != dense.shape[0]:
      _rows_error(fn, name, len(vector), dense.shape[0])
  dense[...] = 0
  for r, (adr, nnz) in enumerate(zip(rowadr, rownnz)):
    dense[r, colind[adr : adr + nnz]] = values[adr : adr + nnz]


def mju_dense2sparse(res, mat, rownnz, rowadr, colind) -> int:
  """Compresses the rows of mat into res (nonzero values), rownnz, rowadr and colind; res and
  colind hold at most len(res) values: returns 1 if they are too short (the rows that fitted
  are written), else 0."""
  fn = "mju_dense2sparse"
  values = _Array(fn, "res", ["k"], True, False)(res)
  dense, rows, cols = _Array(fn, "mat", ["m", "n"], False, False)(mat)
  dense = dense.reshape(rows, cols)
  rownnz = _int_vector(fn, "rownnz", rownnz, out=True)
  rowadr = _int_vector(fn, "rowadr", rowadr, out=True)
  colind = _int_vector(fn, "colind", colind, out=True)
  for name, vector in (("rownnz", rownnz), ("rowadr", rowadr)):
    if len(vector) != rows:
      _rows_error(fn, name, len(vector), rows)
  if len(colind) != len(values):
    raise TypeError(f"{fn}(): colind has {len(colind)} elements; expected len(res) = {len(values)}")
  adr = 0
  for r in range(rows):
    rownnz[r], rowadr[r] = 0, adr
    for c in np.flatnonzero(dense[r]):
      if adr >= len(values):
        return 1
      values[adr], colind[adr] = dense[r, c], c
      rownnz[r] += 1
      adr += 1
  return 0 if len(values) else 1
