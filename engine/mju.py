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

The bindings' other mju_ functions (HANDWRITTEN: CSR and band-dense matrices, mju_boxQP, sorting,
conversions, names, printing, ...) are written by hand at the end of this module, over numpy
and the kernels, with the same checks; NOT_COVERED names the few left out, and why.
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

# the `mujoco` bindings' mju_ functions that engine.mju does not provide (neither in _TABLE nor
# in HANDWRITTEN), and why
# (docs/physics_api.md lists them too; tests/engine/test_mju_api.py keeps both complete)
NOT_COVERED = {
  "mju_rayGeom": "engine/ray.py's own wrapper (wrong sizes raise ValueError there)",
  "mju_raySkin": "skins are drawn, not simulated: only the renderer has a (vectorised) version",
  "mju_writeLog": "MuJoCo's log file: not ported",
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

__all__ = sorted(TABLE)  # (HANDWRITTEN, at the end, adds the functions written by hand)


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


# ---- the bindings' other mju_ functions, written by hand over numpy and the kernels ----
#
# Ports of MuJoCo's C (engine_util_misc.c, engine_util_sparse.c, engine_util_solve.c) with the
# bindings' Python signatures and checks. Where a call would make C read or write outside its
# arrays (or divide by zero, or loop forever) and the bindings pass it on unchecked, it is refused
# with TypeError, as _REFUSED does for the table.

_dot = _jit.python_callable(_math.mju_dot)
_add_to_scl = _jit.python_callable(_math.mju_addToScl)
_chol_factor = _jit.python_callable(_math.mju_cholFactor)
_chol_solve = _jit.python_callable(_math.mju_cholSolve)
_MINVAL = 1e-15  # mjMINVAL
_STR = str  # (the bindings' parameter names `str`, `list`, `type` hide the builtins)


def _vec(fn, name, x, out=False):
  """x as the bindings' float64 vector ([m, 1]): an output is a view (writeable, C-contiguous
  float64 of shape (n,) or (n, 1)), an input a converted copy where needed."""
  return _Array(fn, name, ["n"], out, False)(x)


def _mat(fn, name, x, out=False):
  """x as the bindings' float64 matrix ([m, n], C-contiguous): (flat, rows, cols)."""
  return _Array(fn, name, ["m", "n"], out, False)(x)


def _typed_vector(fn, name, x, dtype, out=False):
  """x as the bindings' vector of `dtype` (int32, float32): an output must be a writeable,
  C-contiguous array of that dtype and shape (n,) or (n, 1) (a view of it is returned); an input
  is converted (as pybind11 force-casts it)."""
  dtype = np.dtype(dtype)
  if out:
    if (
      not isinstance(x, np.ndarray)
      or x.dtype != dtype
      or not x.flags.writeable
      or not x.flags.c_contiguous
      or not (x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1))
    ):
      raise TypeError(
        f"{fn}(): {name} must be a writeable, C-contiguous numpy {dtype} array of shape (n,) or "
        f"(n, 1); got {_describe(x)}"
      )
    return x.view(np.ndarray).reshape(-1)
  try:
    a = np.asarray(x, dtype=dtype)
  except (TypeError, ValueError, OverflowError):
    a = None
  if a is None or not (a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1)):
    raise TypeError(
      f"{fn}(): {name} must be a {dtype} array of shape (n,) or (n, 1) (or convertible to one); "
      f"got {_describe(x)}"
    ) from None
  return a.reshape(-1)


def _to_bool(x, fn, name):
  """x as pybind11's bool (converting): True, False, None (False), or what has __bool__
  (numbers, numpy scalars); not str, list, ... ."""
  if x is None:
    return False
  if isinstance(x, (bool, np.bool_)) or hasattr(type(x), "__bool__"):
    try:
      return bool(x)
    except (TypeError, ValueError):
      pass
  raise TypeError(f"{fn}(): {name} must be a bool; got {_describe(x)}")


def _to_size_t(x, fn, name):
  """x as C's size_t: an int (or __index__) in [0, 2**64)."""
  try:
    v = operator.index(x) if not isinstance(x, float) else None
  except TypeError:
    v = None
  if v is None or not 0 <= v < 2**64:
    raise TypeError(f"{fn}(): {name} must be a non-negative int (C size_t); got {_describe(x)}")
  return v


def _int32(v):
  """v wrapped to C's 32-bit int, as C's int arithmetic wraps on the bindings' platforms."""
  return (v + 2**31) % 2**32 - 2**31


def _same_size(fn, res, vec):
  if res.shape[0] != vec.shape[0]:
    raise TypeError(f"{fn}(): res has {res.shape[0]} elements, vec {vec.shape[0]}; expected equal")


def mju_isZero(vec) -> int:
  """1 if every element of vec is 0 (-0.0 too; NaN is not), else 0 (also 1 when vec is empty).
  vec must be writeable, as in the bindings."""
  v = _vec("mju_isZero", "vec", vec, out=True)
  return 0 if np.any(v != 0) else 1


def mju_insertionSort(list) -> None:
  """Sorts list (writeable float64) in place, increasing, as MuJoCo's insertion sort does:
  stable; with NaNs present, element by element as C compares (NaN never moves left)."""
  a = _vec("mju_insertionSort", "list", list, out=True)
  if not np.isnan(a).any():
    a[:] = np.sort(a, kind="stable")  # the same order: stable, -0.0 and 0.0 kept as they came
    return
  for i in range(1, a.shape[0]):
    x = a[i]
    j = i - 1
    while j >= 0 and a[j] > x:
      a[j + 1] = a[j]
      j -= 1
    a[j + 1] = x


def mju_insertionSortInt(list) -> None:
  """Sorts list (a writeable int32 array) in place, increasing."""
  a = _typed_vector("mju_insertionSortInt", "list", list, np.int32, out=True)
  a[:] = np.sort(a)


def _convert(fn, res, vec, res_dtype, vec_dtype):
  if res_dtype == _F8:
    r = _vec(fn, "res", res, out=True)
  else:
    r = _typed_vector(fn, "res", res, res_dtype, out=True)
  v = _vec(fn, "vec", vec) if vec_dtype == _F8 else _typed_vector(fn, "vec", vec, vec_dtype)
  _same_size(fn, r, v)
  with np.errstate(over="ignore"):  # (to float32: beyond its range is inf, as in C)
    r[:] = v  # C's casts: float -> double exact, double -> float rounded to nearest


def mju_n2d(res, vec) -> None:
  """res = vec (mjtNum to double: both float64)."""
  _convert("mju_n2d", res, vec, _F8, _F8)


def mju_d2n(res, vec) -> None:
  """res = vec (double to mjtNum: both float64)."""
  _convert("mju_d2n", res, vec, _F8, _F8)


def mju_f2n(res, vec) -> None:
  """res (float64) = vec (float32; other inputs are converted to float32 first, as the
  bindings convert them)."""
  _convert("mju_f2n", res, vec, _F8, np.float32)


def mju_n2f(res, vec) -> None:
  """res (a writeable float32 array) = vec rounded to float32."""
  _convert("mju_n2f", res, vec, np.dtype(np.float32), _F8)


def _object_names():
  from engine.enums import mjtObj

  names = {}
  for member in mjtObj:
    if member.name.startswith("mjOBJ_") and member.name not in ("mjOBJ_UNKNOWN",):
      names[int(member)] = member.name[len("mjOBJ_") :].lower()
  # MuJoCo 3.17's mju_type2Str names the object types up to plugin, and the frame
  return {t: s for t, s in names.items() if t <= int(mjtObj.mjOBJ_PLUGIN) or s == "frame"}


_TYPE2STR = _object_names()
# mju_str2Type knows every name of mju_type2Str but "frame" (MuJoCo 3.17)
_STR2TYPE = {s: t for t, s in _TYPE2STR.items() if s != "frame"}


def mju_type2Str(type):
  """The name of object type `type` (mjtObj: 'body', 'joint', ...), None where MuJoCo has none
  (mjOBJ_UNKNOWN, mjOBJ_DEFAULT, out of range)."""
  return _TYPE2STR.get(_to_int(type, "mju_type2Str", "type"))


def mju_str2Type(str) -> int:
  """The mjtObj id of an object type name (str or bytes); 0 (mjOBJ_UNKNOWN) if unknown."""
  if isinstance(str, (bytes, bytearray)):
    str = bytes(str).decode("utf-8", "surrogateescape")
  if not isinstance(str, _STR):
    raise TypeError(f"mju_str2Type(): str must be a str; got {_describe(str)}")
  return _STR2TYPE.get(str.split("\0", 1)[0], 0)


def mju_writeNumBytes(nbytes) -> _STR:
  """nbytes as MuJoCo writes it: with the largest suffix K, M, G, T, P or E of which it is an
  exact multiple ('4K', '3G'), else the plain number; at most 19 characters (C's buffer)."""
  n = _to_size_t(nbytes, "mju_writeNumBytes", "nbytes")
  for i in range(6):
    bits = 1 << (10 * (6 - i))
    if n >= bits and not n & (bits - 1):
      return f"{n >> (10 * (6 - i))}{' KMGTPE'[6 - i]}"[:19]
  return f"{n}"[:19]


_WARNING_TEXT = (  # MuJoCo 3.17's messages, by mjtWarning
  "Inertia matrix is too close to singular, or the effective-metric solve failed to converge, "
  "at DOF {}. Check model.",
  "Too many contacts. The arena memory is full, increase arena memory allocation.(ncon = {})",
  "Insufficient arena memory for the number of constraints generated. Increase arena memory "
  "allocation above {} bytes.",
  "Nan, Inf or huge value in QPOS at DOF {}. The simulation is unstable.",
  "Nan, Inf or huge value in QVEL at DOF {}. The simulation is unstable.",
  "Nan, Inf or huge value in QACC at DOF {}. The simulation is unstable.",
  "Nan, Inf or huge value in CTRL at ACTUATOR {}. The simulation is unstable.",
)


def mju_warningText(warning, info) -> _STR:
  """MuJoCo's message for warning `warning` (mjtWarning) with its info number."""
  warning = _to_int(warning, "mju_warningText", "warning")
  info = _to_size_t(info, "mju_warningText", "info")
  if not 0 <= warning < len(_WARNING_TEXT):
    return f"Unknown warning type {warning}."
  if warning == 2:  # mjWARN_CNSTRFULL: a number of bytes
    return _WARNING_TEXT[2].format(mju_writeNumBytes(info))
  return _WARNING_TEXT[warning].format(info)


def mju_Halton(index, base) -> float:
  """Element `index` of the Halton sequence of `base` (0 for index <= 0). base 0 (C divides by
  zero) and base 1 (C loops forever) are refused for index > 0."""
  fn = "mju_Halton"
  n0 = _to_int(index, fn, "index")
  base = _to_int(base, fn, "base")
  if n0 > 0 and base in (0, 1):
    _condition_error(
      fn, f"base is {base} (MuJoCo would {'divide by zero' if base == 0 else 'loop forever'})"
    )
  b = float(base)
  f, hn = 1 / b if base else 0.0, 0.0
  while n0 > 0:
    n1 = abs(n0) // abs(base) * (1 if (n0 >= 0) == (base > 0) else -1)  # C's truncation
    r = n0 - n1 * base
    hn += f * r
    f /= b
    n0 = n1
  return hn


def _libc_rand():
  """C's rand() and RAND_MAX: the generator MuJoCo's mju_standardNormal draws from (the same
  state, seeded by C's srand) where the C library can be reached; else None."""
  import ctypes
  import sys

  if sys.platform.startswith(("linux", "darwin")):
    try:
      rand = ctypes.CDLL(None).rand
    except (OSError, AttributeError):
      return None
    rand.restype, rand.argtypes = ctypes.c_int, []
    return rand, 2147483647  # glibc's and macOS's RAND_MAX
  return None


_RAND = _libc_rand()


def mju_standardNormal(num2) -> float:
  """A standard normal number by the Marsaglia polar method, as MuJoCo's: from C's rand() where
  the C library is reachable (Linux, macOS: the same numbers as MuJoCo after the same srand),
  else from numpy's generator (the same distribution, other numbers). num2 is a float or None;
  as in the bindings, the second number C writes into it is not returned."""
  if num2 is not None and type(num2) is not float:
    _to_float(num2, "mju_standardNormal", "num2")
  if _RAND is not None:
    rand, rand_max = _RAND
    draw = lambda: float(rand())  # noqa: E731
  else:
    rand_max = 2147483647
    draw = lambda: float(np.random.randint(0, rand_max + 1))  # noqa: E731
  scale = 2.0 / float(rand_max)
  while True:
    x1 = scale * draw() - 1.0
    x2 = scale * draw() - 1.0
    w = x1 * x1 + x2 * x2
    if not (w >= 1.0 or w == 0):
      break
  import math

  w = math.sqrt((-2.0 * math.log(w)) / w)
  return x1 * w


def _c_float(x, fmt):
  """x formatted by C's printf with `fmt` (glibc: inf, -inf, nan, -nan)."""
  if x != x:
    return (fmt % float("nan")).replace("nan", "-nan" if np.signbit(x) else "nan")
  return fmt % x


def mju_printMat(mat) -> None:
  """Prints mat (2-d; a 1-d array is one column) to stdout as MuJoCo does: each number as
  '%.8f ', a newline after each row and one more at the end."""
  flat, rows, cols = _mat("mju_printMat", "mat", mat)
  lines = [
    "".join(_c_float(flat[r * cols + c], "%.8f") + " " for c in range(cols)) for r in range(rows)
  ]
  print("".join(line + "\n" for line in lines), flush=True)


def _check_rows(fn, rownnz, rowadr, sizes):
  """Each row's values rowadr[r] .. rowadr[r]+rownnz[r]-1 lie within every array of `sizes`."""
  for r, (adr, cnt) in enumerate(zip(rowadr.tolist(), rownnz.tolist())):
    if cnt > 0 and (adr < 0 or any(adr + cnt > size for size in sizes)):
      _condition_error(fn, f"row {r} (rowadr {adr}, rownnz {cnt}) lies outside the arrays")


def mju_printMatSparse(mat, rownnz, rowadr, colind) -> None:
  """Prints the sparse matrix (values mat, rownnz, rowadr, colind) to stdout as MuJoCo does:
  '(%d %d): %9.6f  ' per value, a newline after each row and one more at the end."""
  fn = "mju_printMatSparse"
  values = _vec(fn, "mat", mat)
  rownnz = _int_vector(fn, "rownnz", rownnz)
  rowadr = _int_vector(fn, "rowadr", rowadr)
  colind = _int_vector(fn, "colind", colind)
  if len(rownnz) != len(rowadr):
    raise TypeError(f"{fn}(): size of rownnz should equal size of rowadr")
  if not len(rowadr):
    _condition_error(fn, "rowadr is empty (the bindings read rowadr[-1])")
  nnz = int(rowadr[-1]) + int(rownnz[-1])
  if len(values) != nnz:
    raise TypeError(f"{fn}(): size of mat should equal rownnz[-1] + rowadr[-1]")
  if len(colind) != nnz:
    raise TypeError(f"{fn}(): size of colind should equal rownnz[-1] + rowadr[-1]")
  _check_rows(fn, rownnz, rowadr, (nnz,))
  out = []
  for r, (adr, cnt) in enumerate(zip(rowadr.tolist(), rownnz.tolist())):
    for a in range(adr, adr + cnt):
      out.append(f"({r} {colind[a]}): {_c_float(values[a], '%9.6f')}  ")
    out.append("\n")
  print("".join(out), flush=True)


def mju_sym2dense(res, mat, rownnz, rowadr, colind) -> None:
  """Writes into res (n x n) the symmetric matrix whose lower triangle is in compressed rows
  (mat, rownnz, rowadr, colind); values right of the diagonal are ignored."""
  fn = "mju_sym2dense"
  dense, rows, cols = _mat(fn, "res", res, out=True)
  values = _vec(fn, "mat", mat)
  rownnz = _int_vector(fn, "rownnz", rownnz)
  rowadr = _int_vector(fn, "rowadr", rowadr)
  colind = _int_vector(fn, "colind", colind)
  if rows != cols:
    raise TypeError(f"{fn}(): res should be a square matrix; got {rows} x {cols}")
  for name, vector in (("rownnz", rownnz), ("rowadr", rowadr)):
    if len(vector) != rows:
      _rows_error(fn, name, len(vector), rows)
  if rows:
    nnz = int(rowadr[-1]) + int(rownnz[-1])
    if len(values) < nnz:
      raise TypeError(f"{fn}(): mat has {len(values)} elements, fewer than the {nnz} used")
    if len(colind) < nnz:
      raise TypeError(f"{fn}(): colind has {len(colind)} elements, fewer than the {nnz} used")
  _check_rows(fn, rownnz, rowadr, (len(values), len(colind)))
  n = rows
  for i in range(n):
    adr = int(rowadr[i])
    for j in range(int(rownnz[i])):
      if colind[adr + j] < 0:
        _condition_error(fn, f"colind[{adr + j}] is negative")
  dense[:] = 0
  for i in range(n):
    adr = int(rowadr[i])
    for j in range(int(rownnz[i])):
      col = int(colind[adr + j])
      if col <= i:
        dense[i * n + col] = values[adr + j]
        dense[col * n + i] = values[adr + j]


# ---- band-dense matrices (engine_util_solve.c) ----
#
# A symmetric ntotal x ntotal matrix whose first nsparse = ntotal-ndense rows are banded (nband
# numbers each, left of the diagonal, the diagonal last; rows shorter than nband start with
# unused slots) and whose last ndense rows are dense (ntotal numbers each, lower triangle used):
# (ntotal-ndense)*nband + ndense*ntotal numbers.


def _band_sizes(fn, ntotal, nband, ndense):
  """The C ints, and the number of elements of the band-dense matrix they describe."""
  ntotal = _to_int(ntotal, fn, "ntotal")
  nband = _to_int(nband, fn, "nband")
  ndense = _to_int(ndense, fn, "ndense")
  return ntotal, nband, ndense, (ntotal - ndense) * nband + ndense * ntotal


def _band_layout(fn, ntotal, nband, ndense):
  """Refuses a layout C would index outside mat with: 0 <= ndense <= ntotal and, with banded
  rows, nband >= 1 are needed."""
  if not (0 <= ndense <= ntotal and (ndense == ntotal or nband >= 1)):
    _condition_error(
      fn,
      f"ntotal={ntotal}, nband={nband}, ndense={ndense} is no band-dense layout "
      "(0 <= ndense <= ntotal, nband >= 1 with banded rows; C would index outside mat)",
    )


def _band_size_error(fn, name, got):
  raise TypeError(
    f"{fn}(): {name} has {got} elements; expected (ntotal-ndense)*nband + ndense*ntotal"
  )


def mju_bandDiag(i, ntotal, nband, ndense) -> int:
  """The address of diagonal element i in the band-dense layout (C's int arithmetic)."""
  fn = "mju_bandDiag"
  i = _to_int(i, fn, "i")
  ntotal, nband, ndense, _ = _band_sizes(fn, ntotal, nband, ndense)
  nsparse = ntotal - ndense
  if i < _int32(nsparse):
    return _int32(i * nband + nband - 1)
  return _int32(nsparse * nband + (i - nsparse) * ntotal + i)


def mju_band2Dense(res, mat, ntotal, nband, ndense, flg_sym) -> None:
  """res (ntotal x ntotal) = the band-dense mat as a dense matrix: its lower triangle, and the
  upper one mirrored if flg_sym (else zeros)."""
  fn = "mju_band2Dense"
  dense, rows, cols = _mat(fn, "res", res, out=True)
  band = _vec(fn, "mat", mat)
  ntotal, nband, ndense, size = _band_sizes(fn, ntotal, nband, ndense)
  flg_sym = _to_bool(flg_sym, fn, "flg_sym")
  if band.shape[0] != size:
    _band_size_error(fn, "mat", band.shape[0])
  if (rows, cols) != (ntotal, ntotal):
    raise TypeError(f"{fn}(): res is {rows} x {cols}; expected ntotal x ntotal = {ntotal}")
  _band_layout(fn, ntotal, nband, ndense)
  nsparse = ntotal - ndense
  dense[:] = 0
  for i in range(nsparse):
    width = min(i, nband - 1)
    start = (i + 1) * nband - (width + 1)
    dense[i * ntotal + i - width : i * ntotal + i + 1] = band[start : start + width + 1]
  for i in range(nsparse, ntotal):
    start = nsparse * nband + (i - nsparse) * ntotal
    dense[i * ntotal : i * ntotal + i + 1] = band[start : start + i + 1]
  if flg_sym:
    square = dense.reshape(ntotal, ntotal)
    upper = np.triu_indices(ntotal, 1)
    square[upper] = square.T[upper]


def mju_dense2Band(res, mat, ntotal, nband, ndense) -> None:
  """res = the band-dense layout of mat (ntotal x ntotal; its lower triangle within the band and
  the dense rows is read). The unused slots of short banded rows are left as they were."""
  fn = "mju_dense2Band"
  band = _vec(fn, "res", res, out=True)
  dense, rows, cols = _mat(fn, "mat", mat)
  ntotal, nband, ndense, size = _band_sizes(fn, ntotal, nband, ndense)
  if band.shape[0] != size:
    _band_size_error(fn, "res", band.shape[0])
  if (rows, cols) != (ntotal, ntotal):
    raise TypeError(f"{fn}(): mat is {rows} x {cols}; expected ntotal x ntotal = {ntotal}")
  _band_layout(fn, ntotal, nband, ndense)
  nsparse = ntotal - ndense
  for i in range(nsparse):
    width = min(i, nband - 1)
    start = (i + 1) * nband - (width + 1)
    band[start : start + width + 1] = dense[i * ntotal + i - width : i * ntotal + i + 1]
  for i in range(nsparse, ntotal):
    start = nsparse * nband + (i - nsparse) * ntotal
    band[start : start + i + 1] = dense[i * ntotal : i * ntotal + i + 1]


def mju_bandMulMatVec(res, mat, vec, ntotal, nband, ndense, nvec, flg_sym) -> None:
  """res = mat*vec for the band-dense mat (its lower triangle, plus the mirrored upper one if
  flg_sym). As in the bindings, res is one vector, so vec is ntotal x 1 and nvec must be 1."""
  fn = "mju_bandMulMatVec"
  out = _vec(fn, "res", res, out=True)
  band, mrows, mcols = _mat(fn, "mat", mat)
  x, vrows, vcols = _mat(fn, "vec", vec)
  ntotal, nband, ndense, size = _band_sizes(fn, ntotal, nband, ndense)
  nvec = _to_int(nvec, fn, "nvec")
  flg_sym = _to_bool(flg_sym, fn, "flg_sym")
  if band.shape[0] != size:
    _band_size_error(fn, "mat", band.shape[0])
  if out.shape[0] != ntotal:
    raise TypeError(f"{fn}(): res has {out.shape[0]} rows; expected ntotal = {ntotal}")
  if nvec != 1:
    raise TypeError(f"{fn}(): res has 1 column; expected nvec = {nvec}")
  if vrows != ntotal:
    raise TypeError(f"{fn}(): vec has {vrows} rows; expected ntotal = {ntotal}")
  if vcols != nvec:
    raise TypeError(f"{fn}(): vec has {vcols} columns; expected nvec = {nvec}")
  _band_layout(fn, ntotal, nband, ndense)
  nsparse = ntotal - ndense
  for i in range(nsparse):
    width = min(i + 1, nband)
    adr = i * nband + nband - width
    offset = max(0, i - nband + 1)
    out[i] = _dot(band[adr:], x[offset:], width)
    if flg_sym:
      _add_to_scl(out[offset:], band[adr:], x[i], width - 1)
  for i in range(nsparse, ntotal):
    adr = nsparse * nband + (i - nsparse) * ntotal
    out[i] = _dot(band[adr:], x, i + 1)
    if flg_sym:
      _add_to_scl(out, band[adr:], x[i], i)


def mju_cholFactorBand(mat, ntotal, nband, ndense, diagadd, diagmul) -> float:
  """In-place band-dense Cholesky factorization of mat (diagadd + diagmul*mat_ii added to each
  diagonal element first); returns the smallest diagonal before its square root, 0 if one is
  below mjMINVAL (factorization stopped there), -1 for an empty matrix."""
  fn = "mju_cholFactorBand"
  a = _vec(fn, "mat", mat, out=True)
  ntotal, nband, ndense, size = _band_sizes(fn, ntotal, nband, ndense)
  if type(diagadd) is not float:
    diagadd = _to_float(diagadd, fn, "diagadd")
  if type(diagmul) is not float:
    diagmul = _to_float(diagmul, fn, "diagmul")
  if a.shape[0] != size:
    _band_size_error(fn, "mat", a.shape[0])
  _band_layout(fn, ntotal, nband, ndense)
  nsparse = ntotal - ndense
  mindiag = -1.0

  for j in range(nsparse):  # banded rows (their dense-row entries too)
    width_jj = min(j, nband - 1)
    height = min(nsparse - j - 1, nband - 1)
    adr_jj = (j + 1) * nband - 1
    left = _dot(a[adr_jj - width_jj :], a[adr_jj - width_jj :], width_jj) if width_jj > 0 else 0
    ljj = diagadd + diagmul * a[adr_jj] + a[adr_jj] - left
    if ljj < mindiag or mindiag < 0:
      mindiag = ljj
    if ljj < _MINVAL:
      return 0.0
    ljj = np.sqrt(ljj)
    scale = 1 / ljj
    for i in range(j + 1, j + height + 1):
      width_ij = min(j, nband - 1 - i + j)
      adr_ij = (i + 1) * nband - 1 - i + j
      left = _dot(a[adr_jj - width_ij :], a[adr_ij - width_ij :], width_ij) if width_ij > 0 else 0
      a[adr_ij] = scale * (a[adr_ij] - left)
    for i in range(nsparse, ntotal):
      adr_ij = nsparse * nband + (i - nsparse) * ntotal + j
      left = _dot(a[adr_jj - width_jj :], a[adr_ij - width_jj :], width_jj) if width_jj > 0 else 0
      a[adr_ij] = scale * (a[adr_ij] - left)
    a[adr_jj] = ljj

  for j in range(nsparse, ntotal):  # dense rows
    adr_jj = nsparse * nband + (j - nsparse) * ntotal + j
    ljj = diagadd + diagmul * a[adr_jj] + a[adr_jj] - _dot(a[adr_jj - j :], a[adr_jj - j :], j)
    if ljj < mindiag or mindiag < 0:
      mindiag = ljj
    if ljj < _MINVAL:
      return 0.0
    ljj = np.sqrt(ljj)
    scale = 1 / ljj
    for i in range(j + 1, ntotal):
      adr_ij = adr_jj + ntotal * (i - j)
      a[adr_ij] = scale * (a[adr_ij] - _dot(a[adr_jj - j :], a[adr_ij - j :], j))
    a[adr_jj] = ljj
  return float(mindiag)


def mju_cholSolveBand(res, mat, vec, ntotal, nband, ndense) -> None:
  """Solves (L*L')*res = vec for the band-dense Cholesky factor L in mat."""
  fn = "mju_cholSolveBand"
  out = _vec(fn, "res", res, out=True)
  L = _vec(fn, "mat", mat)
  b = _vec(fn, "vec", vec)
  ntotal, nband, ndense, size = _band_sizes(fn, ntotal, nband, ndense)
  if L.shape[0] != size:
    _band_size_error(fn, "mat", L.shape[0])
  if out.shape[0] != ntotal:
    raise TypeError(f"{fn}(): res has {out.shape[0]} elements; expected ntotal = {ntotal}")
  if b.shape[0] != ntotal:
    raise TypeError(f"{fn}(): vec has {b.shape[0]} elements; expected ntotal = {ntotal}")
  _band_layout(fn, ntotal, nband, ndense)
  nsparse = ntotal - ndense
  dense0 = nsparse * nband
  out[:] = b

  # forward substitution: L*res = vec
  for i in range(nsparse):
    width = min(i, nband - 1)
    if width:
      out[i] -= _dot(L[(i + 1) * nband - 1 - width :], out[i - width :], width)
    out[i] /= L[(i + 1) * nband - 1]
  for i in range(nsparse, ntotal):
    row = dense0 + (i - nsparse) * ntotal
    out[i] -= _dot(L[row:], out, i)
    out[i] /= L[row + i]

  # backward substitution: L'*res = res
  for i in range(ntotal - 1, nsparse - 1, -1):
    for j in range(i + 1, ntotal):
      out[i] -= L[dense0 + (j - nsparse) * ntotal + i] * out[j]
    out[i] /= L[dense0 + (i - nsparse) * ntotal + i]
  for i in range(nsparse - 1, -1, -1):
    height = min(nsparse - 1 - i, nband - 1)
    for j in range(i + 1, i + height + 1):
      out[i] -= L[(j + 1) * nband - 1 - (j - i)] * out[j]
    for j in range(nsparse, ntotal):
      out[i] -= L[dense0 + (j - nsparse) * ntotal + i] * out[j]
    out[i] /= L[(i + 1) * nband - 1]


# ---- box-constrained quadratic program (engine_util_solve.c) ----


def _vec_mat_vec_sym(vec, mat, n):
  """vec'*mat*vec from the lower triangle of the symmetric mat, in MuJoCo's order."""
  res = 0.0
  for i in range(n):
    res += vec[i] * mat[n * i + i] * vec[i]
    res += 2 * vec[i] * _dot(mat[n * i :], vec, i)
  return res


def _mul_sym_vec(res, mat, vec, n):
  """res = mat*vec from the lower triangle of the symmetric mat, in MuJoCo's order."""
  for i in range(n):
    res[i] = mat[n * i + i] * vec[i] + _dot(mat[n * i :], vec, i)
    _add_to_scl(res, mat[n * i :], vec[i], i)


def mju_boxQP(res, R, index, H, g, lower, upper) -> int:
  """Minimizes 0.5*x'*H*x + x'*g subject to lower <= x <= upper (either bound may be None) by
  MuJoCo's projected Newton method, from the warm start res; returns the number of free
  dimensions nfree (-1 if H is not positive definite on them or no descent was found).

  res (n) gets the solution; R (n*(n+7) numbers) the Cholesky factor of H's free block in its
  first nfree*nfree numbers (lower triangle) and MuJoCo's scratch values after them; index (n
  int32, or None) the free dimensions in its first nfree numbers. H is read in its lower
  triangle. n = 0 and lower >= upper raise engine.FatalError, as in MuJoCo."""
  fn = "mju_boxQP"
  x = _vec(fn, "res", res, out=True)
  Rf, _, _ = _mat(fn, "R", R, out=True)
  if index is not None:
    index = _typed_vector(fn, "index", index, np.int32, out=True)
  Hf, hrows, hcols = _mat(fn, "H", H)
  g = _vec(fn, "g", g)
  if lower is not None:
    lower = _vec(fn, "lower", lower)
  if upper is not None:
    upper = _vec(fn, "upper", upper)
  n = x.shape[0]
  if Rf.shape[0] != n * (n + 7):
    raise TypeError(f"{fn}(): R has {Rf.shape[0]} elements; expected n*(n+7) = {n * (n + 7)}")
  if index is not None and index.shape[0] != n:
    raise TypeError(f"{fn}(): index has {index.shape[0]} elements; expected n = {n}")
  if (hrows, hcols) != (n, n):
    raise TypeError(f"{fn}(): H is {hrows} x {hcols}; expected n x n, n = {n}")
  for name, v in (("g", g), ("lower", lower), ("upper", upper)):
    if v is not None and v.shape[0] != n:
      raise TypeError(f"{fn}(): {name} has {v.shape[0]} elements; expected n = {n}")
  if n <= 0:
    raise FatalError("mju_boxQPoption: problem size n must be positive")
  if lower is not None and upper is not None and np.any(lower >= upper):
    raise FatalError("mju_boxQPoption: upper bounds must be strictly larger than lower bounds")
  return _box_qp(x, Rf, index, Hf, g, n, lower, upper)


def _box_qp(res, R, index, H, g, n, lower, upper):
  """MuJoCo's mju_boxQPoption with mju_boxQP's options, on flat arrays (R has n*(n+7) numbers:
  the factor, then the scratch vectors, laid out as in C, the int ones included)."""
  maxiter, mingrad, backtrack, minstep, armijo = 100, 1e-16, 0.5, 1e-22, 0.1
  no_descent, not_spd = 0, -1  # MuJoCo's status codes
  max_iter, max_ls_iter, tol_grad, unbounded, all_clamped = 1, 2, 3, 4, 5

  status = no_descent
  factorize = 1
  nfree = n
  s = n * n
  grad, search = R[s : s + n], R[s + n : s + 2 * n]
  candidate, temp = R[s + 2 * n : s + 3 * n], R[s + 3 * n : s + 4 * n]
  clamped = R[s + 4 * n : s + 5 * n].view(np.int32)[:n]
  oldclamped = R[s + 5 * n : s + 6 * n].view(np.int32)[:n]
  if index is None:
    index = R[s + 6 * n : s + 7 * n].view(np.int32)[:n]

  if lower is None and upper is None:  # no bounds: the Newton point
    R[: n * n] = H
    rank = _chol_factor(R[: n * n], n, _MINVAL)
    if rank == n:
      _chol_solve(res, R[: n * n], g, n)
      res *= -1
      status = unbounded
    else:
      status = not_spd
    index[:] = np.arange(n)
  else:
    for i in range(n):
      if lower is not None:
        res[i] = res[i] if res[i] >= lower[i] else lower[i]  # mju_max
      if upper is not None:
        res[i] = res[i] if res[i] <= upper[i] else upper[i]  # mju_min

  iteration = 0
  while iteration < maxiter:
    if status != no_descent:
      break
    value = 0.5 * _vec_mat_vec_sym(res, H, n) + _dot(res, g, n)
    oldvalue = value

    _mul_sym_vec(grad, H, res, n)
    grad += g

    for i in range(n):
      clamped[i] = (lower is not None and res[i] == lower[i] and grad[i] > 0) or (
        upper is not None and res[i] == upper[i] and grad[i] < 0
      )
    free = np.flatnonzero(clamped[:n] == 0)
    nfree = free.shape[0]
    index[:nfree] = free
    if not nfree:
      status = all_clamped
      break

    if iteration:
      factorize = int(np.any(clamped != oldclamped))
    oldclamped[:] = clamped

    # search = g + H_all,clamped * res_clamped, compressed to the free dimensions
    temp[:] = np.where(clamped != 0, res, 0.0)
    _mul_sym_vec(search, H, temp, n)
    search += g
    search[:nfree] = search[free]

    factor = R[: nfree * nfree]
    if factorize:
      for i in range(nfree):
        factor[i * nfree : i * nfree + i + 1] = H[free[i] * n + free[: i + 1]]
    rank = _chol_factor(factor, nfree, _MINVAL) if factorize else nfree
    if rank != nfree:
      status = not_spd
      break

    _chol_solve(temp[:nfree], factor, search[:nfree], nfree)
    search[:] = 0
    search[free] = -temp[:nfree] - res[free]

    norm2 = 0.0
    for i in free.tolist():
      norm2 += grad[i] * grad[i]
    if norm2 < mingrad:
      status = unbounded if nfree == n else tol_grad
      break

    sdotg = _dot(search, grad, n)
    if sdotg >= 0:
      break  # no descent direction (should not occur)

    # projected Armijo line search
    step = 1.0
    while True:
      candidate[:] = search * step
      candidate += res
      for i in range(n):
        if lower is not None and candidate[i] < lower[i]:
          candidate[i] = lower[i]
        elif upper is not None and candidate[i] > upper[i]:
          candidate[i] = upper[i]
      value = 0.5 * _vec_mat_vec_sym(candidate, H, n) + _dot(candidate, g, n)
      step = step * backtrack
      if step < minstep:
        status = max_ls_iter
        break
      improvement = (value - oldvalue) / (step * sdotg)
      if not improvement < armijo:
        break

    res[:] = candidate
    iteration += 1

  if iteration == maxiter:
    status = max_iter
  return -1 if status in (no_descent, not_spd) else nfree


# the functions above written by hand, not from _TABLE (all of them the bindings' names)
HANDWRITTEN = (
  "mju_sparse2dense",
  "mju_dense2sparse",
  "mju_sym2dense",
  "mju_isZero",
  "mju_insertionSort",
  "mju_insertionSortInt",
  "mju_n2d",
  "mju_d2n",
  "mju_f2n",
  "mju_n2f",
  "mju_type2Str",
  "mju_str2Type",
  "mju_writeNumBytes",
  "mju_warningText",
  "mju_Halton",
  "mju_standardNormal",
  "mju_printMat",
  "mju_printMatSparse",
  "mju_bandDiag",
  "mju_band2Dense",
  "mju_dense2Band",
  "mju_bandMulMatVec",
  "mju_cholFactorBand",
  "mju_cholSolveBand",
  "mju_boxQP",
)
__all__ += list(HANDWRITTEN)
