"""engine.mju_* (engine/mju.py) against the `mujoco` bindings' mju_ functions.

Each function of engine/mju.py's table is called as `mujoco.mju_*` is, with the same
arguments: random valid inputs give the same outputs and return values bit for bit (the kernels
follow C's operation order, as tests/engine/test_math.py checks), and bad inputs raise the same
exception type as the bindings, before any call into numba.
"""

import copy
import inspect
import pathlib
import re
import zlib

import mujoco
import numpy as np
import pytest

import engine
from engine import mju

NAMES = sorted(mju.TABLE)
SEQS = [a + b + c for a in "xyzXYZ" for b in "xyzXYZ" for c in "xyzXYZ"]
DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "physics_api.md"
TRIALS = 20  # random valid calls per function


def _params(name):
  """(name, kind, dims, out, optional) of each parameter of the table's entry `name`; kind is
  'float', 'int', 'str' or 'array'."""
  out = []
  for spec in mju.TABLE[name][0].split():
    pname, rest = spec.split(":")
    if rest in ("float", "int", "str"):
      out.append((pname, rest, None, False, False))
    else:
      dims = rest.strip("w?")[1:-1].split(",")
      out.append((pname, "array", dims, rest.startswith("w"), rest.endswith("?")))
  return out


# ---- the table against the bindings' published signatures ----


def _split_top(text):
  """text split at the commas outside brackets and quotes."""
  parts, depth, quoted, start = [], 0, False, 0
  for i, ch in enumerate(text):
    if ch == '"':
      quoted = not quoted
    elif not quoted and ch == "[":
      depth += 1
    elif not quoted and ch == "]":
      depth -= 1
    elif not quoted and depth == 0 and ch == ",":
      parts.append(text[start:i].strip())
      start = i + 1
  parts.append(text[start:].strip())
  return [p for p in parts if p]


def _binding_signature(name):
  """[(parameter, annotation)], return annotation: the first line of mujoco's docstring."""
  line = getattr(mujoco, name).__doc__.splitlines()[0]
  m = re.fullmatch(rf"{name}\((.*)\) -> (.*)", line)
  params = [tuple(p.split(": ", 1)) for p in _split_top(m.group(1))]
  return params, m.group(2)


def _table_annotation(kind, dims, out, optional):
  """What the bindings' annotation of a parameter must say for our table's entry."""
  if kind == "float":
    return {"float"}
  if kind == "int":
    return {"int"}
  if kind == "str":
    return {"str"}
  shape = f"[{dims[0]}, {dims[1]}]" if len(dims) == 2 else f"[{dims[0]}, 1]"
  if not dims[0].isdigit():  # the bindings name every free size m, n
    shape = "[m, n]" if len(dims) == 2 else "[m, 1]"
  flags = {"writeable"} if out else set()
  if len(dims) == 2:
    flags.add("c_contiguous")
  return {"float64", shape, *flags, *(["None"] if optional else [])}


def _binding_annotation(annotation):
  if annotation.startswith("typing.SupportsFloat"):
    return {"float"}
  if annotation.startswith("typing.SupportsInt"):
    return {"int"}
  if annotation == "str":
    return {"str"}
  m = re.match(
    r'typing\.Annotated\[numpy\.typing\.NDArray\[numpy\.(\w+)\], "(\[[^\]]*\])"', annotation
  )
  assert m, annotation
  what = {m.group(1), m.group(2), *re.findall(r'"flags\.(\w+)"', annotation)}
  if annotation.endswith("| None"):
    what.add("None")
  return what


@pytest.mark.parametrize("name", NAMES)
def test_table_matches_the_binding_signature(name):
  """Parameter names and order, dtypes, shapes, flags, optional-ness and return type of each
  table entry are those of the bindings' docstring; the Python signature too."""
  params, returns = _binding_signature(name)
  ours = _params(name)
  assert [p[0] for p in ours] == [p[0] for p in params]
  for (pname, *spec), (_, annotation) in zip(ours, params):
    assert _table_annotation(*spec) == _binding_annotation(annotation), pname
  assert (mju.TABLE[name][2] or "None") == returns
  fn = getattr(engine, name)
  assert list(inspect.signature(fn).parameters) == [p[0] for p in params]
  assert fn is getattr(mju, name)


def test_every_binding_name_is_covered_or_explained():
  """Each mju_ name of mujoco is in the table, written by hand (mju.HANDWRITTEN, exported as
  engine.mju_*) or in mju.NOT_COVERED with its reason (a new unexplained name fails here), and
  docs/physics_api.md lists what is not covered."""
  binding = {n for n in dir(mujoco) if n.startswith("mju_")}
  assert set(mju.TABLE).isdisjoint(mju.NOT_COVERED)
  assert set(mju.HANDWRITTEN).isdisjoint(set(mju.TABLE) | set(mju.NOT_COVERED))
  assert set(mju.HANDWRITTEN) <= binding
  assert all(getattr(engine, n) is getattr(mju, n) for n in mju.HANDWRITTEN)
  assert sorted(binding - set(mju.TABLE) - set(mju.HANDWRITTEN) - set(mju.NOT_COVERED)) == []
  assert set(mju.NOT_COVERED) <= binding  # no stale entries
  assert all(reason for reason in mju.NOT_COVERED.values())
  # every helper of engine/math.py that mujoco has is in the table
  assert sorted(binding & set(engine.math.__all__) - set(mju.TABLE)) == []
  docs = DOCS.read_text()
  assert [n for n in mju.NOT_COVERED if f"`{n}`" not in docs] == []


def test_engine_exports():
  """engine.mju_* is the checked function where mujoco has the name, the raw kernel (C
  arguments) where it has not; engine.math_raw keeps every raw kernel."""
  for name in engine.math.__all__:
    raw = getattr(engine.math_raw, name)
    if name in mju.TABLE:
      assert getattr(engine, name) is getattr(mju, name)
    else:
      assert getattr(engine, name) is raw
  res = np.zeros(2)
  engine.math_raw.mju_mulMatVec(res, np.arange(6.0), np.ones(3), 2, 3)
  np.testing.assert_array_equal(res, [3.0, 12.0])


# ---- valid calls: the same results as mujoco ----


def _unit_quat(rng):
  q = rng.normal(size=4)
  return q / np.linalg.norm(q)


def _rot(rng):
  mat = np.zeros(9)
  mujoco.mju_quat2Mat(mat, _unit_quat(rng))
  return mat


def _chol_factor(rng, n):
  """A lower-triangular Cholesky factor with a positive diagonal (the upper part random: the
  functions read only the lower triangle)."""
  L = rng.normal(size=(n, n))
  L[np.diag_indices(n)] = rng.uniform(0.5, 2.0, size=n)
  return L


def _special(name, rng, sizes):
  """Values a function needs to be meaningful (SPD matrices, unit quaternions, muscle
  parameters, ...), by parameter."""
  if name == "mju_cholFactor":
    a = rng.normal(size=(sizes["n"], sizes["n"]))
    return {"mat": a @ a.T + 0.1 * np.eye(sizes["n"]), "mindiag": rng.choice([1e-10, 0.5])}
  if name == "mju_cholSolve":
    return {"mat": _chol_factor(rng, sizes["n"])}
  if name == "mju_cholUpdate":
    x = rng.normal(size=sizes["n"]) * rng.choice([0.1, 1.0])
    return {"mat": _chol_factor(rng, sizes["n"]), "x": x, "flg_plus": int(rng.integers(2))}
  if name == "mju_eig3":
    a = rng.normal(size=(3, 3))
    return {"mat": (a + a.T).ravel()}
  if name == "mju_mat2Quat":
    return {"mat": _rot(rng)}
  if name == "mju_transformSpatial":
    return {"flg_force": int(rng.integers(2)), "rotnew2old": _rot(rng)}
  if name == "mju_euler2Quat":
    return {"seq": SEQS[rng.integers(len(SEQS))]}
  if name in ("mju_muscleGain", "mju_muscleBias"):
    prm = np.array([0.75, 1.05, rng.choice([-1.0, 50.0]), 200, 0.5, 1.6, 1.5, 1.3, 1.2])
    lo = rng.uniform(0.1, 0.5)
    return {
      "len": rng.uniform(lo - 0.2, lo + 0.6),
      "lengthrange": np.array([lo, lo + 0.4]),
      "acc0": rng.uniform(0.5, 50.0),
      "prm": prm,
    }
  if name == "mju_muscleDynamics":
    return {
      "ctrl": rng.uniform(-0.2, 1.2),
      "act": rng.uniform(-0.2, 1.2),
      "prm": np.array([0.01, 0.04, rng.choice([0.0, 0.3])]),
    }
  if name == "mju_springDamper":
    return {"Kp": rng.uniform(0.1, 10), "Kv": rng.uniform(0.01, 5), "dt": rng.uniform(0, 1)}
  if name in ("mju_encodePyramid", "mju_decodePyramid"):
    return {"mu": rng.uniform(0.1, 2.0, size=sizes["d"])}
  if name == "mju_isBad":
    return {"x": rng.choice([0.3, np.nan, np.inf, -2e10, 1e9])}
  if name == "mju_round":
    return {"x": rng.choice([2.5, -2.5, 0.49999999999999994, rng.normal() * 1e3])}
  if name == "mju_sigmoid":
    return {"x": rng.uniform(-0.5, 1.5)}
  return {}


def _valid_args(name, rng):
  """Random valid arguments of `name`, in the bindings' order."""
  params = _params(name)
  sizes = {}
  for _, kind, dims, _, _ in params:
    for dim in dims or ():
      if re.fullmatch(r"[a-z]\w*", dim):
        sizes.setdefault(dim, int(rng.integers(2, 6)))
  special = _special(name, rng, sizes)
  args = []
  for pname, kind, dims, _, optional in params:
    if pname in special:
      value = special[pname]
    elif kind == "float":
      value = float(rng.normal())
    elif kind == "int":
      value = int(rng.integers(2))
    elif optional and rng.random() < 0.3:
      value = None
    else:
      shape = tuple(eval(d, {}, sizes) for d in dims)  # sizes such as 2*d, d+1
      if shape in ((4,),) and re.match(r"(quat|q[ab])", pname):
        value = _unit_quat(rng)
      else:
        value = rng.normal(size=shape)
    args.append(np.array(value) if isinstance(value, np.ndarray) else value)
  return args


def _assert_same(ours, theirs, what):
  """Equal to the bit (signed zeros and NaN payloads included), and of the same Python type
  for returns."""
  if isinstance(theirs, np.ndarray):
    np.testing.assert_array_equal(ours, theirs, err_msg=what)
    assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes(), what
  else:
    assert type(ours) is type(theirs), (what, ours, theirs)
    assert np.array(ours).tobytes() == np.array(theirs).tobytes(), (what, ours, theirs)


def _call_both(name, make):
  """(ours, mujoco's) outcomes on equal arguments, `make()` -> (args, kwargs) made afresh for
  each (a copy would lose read-only flags and strides): ('ok', return value, arguments after
  the call) or ('raise', exception type, message); mujoco.FatalError counts as ours."""
  outcomes = []
  for fn in (getattr(engine, name), getattr(mujoco, name)):
    a, k = make()
    try:
      outcomes.append(("ok", fn(*a, **k), (a, k)))
    except Exception as e:  # the type is what is compared
      kind = engine.FatalError if isinstance(e, mujoco.FatalError) else type(e)
      outcomes.append(("raise", kind, str(e)))
  return outcomes


def _assert_outcomes_agree(name, ours, theirs, what):
  assert ours[0] == theirs[0], (name, what, ours, theirs)
  if ours[0] == "raise":
    assert ours[1] is theirs[1], (name, what, ours, theirs)
    return
  _assert_same(ours[1], theirs[1], f"{name} {what}: return")
  (a_ours, k_ours), (a_theirs, k_theirs) = ours[2], theirs[2]
  for i, (x, y) in enumerate(
    zip(a_ours + list(k_ours.values()), a_theirs + list(k_theirs.values()))
  ):
    if isinstance(y, np.ndarray):
      _assert_same(x, y, f"{name} {what}: argument {i}")


@pytest.mark.parametrize("name", NAMES)
def test_valid_calls_match_mujoco(name):
  """Same outputs (every array argument after the call) and return value (value and type) as
  mujoco, exactly, on TRIALS random calls; once with keyword arguments."""
  rng = np.random.default_rng(zlib.crc32(name.encode()))
  for trial in range(TRIALS):
    args = _valid_args(name, rng)
    ours, theirs = _call_both(name, lambda: (copy.deepcopy(args), {}))
    assert ours[0] == theirs[0] == "ok", (name, args, ours, theirs)
    _assert_outcomes_agree(name, ours, theirs, f"trial {trial}")
  names = [p[0] for p in _params(name)]
  ours, theirs = _call_both(name, lambda: ([], copy.deepcopy(dict(zip(names, args)))))
  assert ours[0] == theirs[0] == "ok", (name, ours, theirs)
  _assert_outcomes_agree(name, ours, theirs, "keywords")


# ---- bad calls: the same exception type as mujoco, and nothing reaches numba ----


def _read_only(value):
  out = value.copy()
  out.flags.writeable = False
  return out


def _strided(value):
  out = np.zeros(value.shape + (2,))[..., 0]  # a view with every other float64
  out[...] = value
  return out


def _array_variants(value):
  """Variants of a valid array argument: (label, a function making a new one)."""
  n = value.shape[0]
  variants = [
    ("None", lambda: None),
    ("list", value.tolist),
    ("tuple", lambda: tuple(value.ravel())),
    ("float32", lambda: value.astype(np.float32)),
    ("int64", lambda: value.astype(np.int64)),
    ("read-only", lambda: _read_only(value)),
    ("strided", lambda: _strided(value)),
    ("fortran", lambda: np.asfortranarray(value.copy())),
    ("bigger", lambda: np.concatenate([value, value[:1]])),
    ("smaller", lambda: value[:-1].copy()),
    ("0-d", lambda: np.array(1.0)),
    ("ndim + 2", lambda: value[None, ..., None].copy()),
    ("str", lambda: "abc"),
  ]
  if value.ndim == 1:
    variants += [
      ("column", lambda: value.reshape(n, 1).copy()),
      ("row", lambda: value.reshape(1, n).copy()),
    ]
  else:
    variants += [("flat", lambda: value.ravel().copy()), ("transposed", lambda: value.T.copy())]
  return variants


def _scalar_variants(kind):
  common = [("None", None), ("str", "1"), ("list", [1.0]), ("array2", np.ones(2))]
  if kind == "float":
    return common + [
      ("int", 1),
      ("bool", True),
      ("float32", np.float32(0.5)),
      ("0-d", np.array(0.5)),
      ("1-d", np.ones(1)),
      ("complex", 1j),
      ("big int", 2**1100),
    ]
  if kind == "int":
    return common + [
      ("float", 1.0),
      ("np.float64", np.float64(1.0)),
      ("np.float32", np.float32(1.0)),
      ("bool", True),
      ("np.int64", np.int64(1)),
      ("0-d int", np.array(1)),
      ("1-d int", np.ones(1, dtype=np.int64)),
      ("int64 range", 2**40),
    ]
  return [  # str (not None: mujoco passes it to C as a null pointer and segfaults)
    ("int", 1),
    ("bytes", b"xyz"),
    ("short", "xy"),
    ("long", "xyzx"),
    ("bad letter", "xyq"),
    ("list", ["x", "y", "z"]),
  ]


@pytest.mark.parametrize("name", NAMES)
def test_bad_calls_raise_as_mujoco(name, monkeypatch):
  """Each argument replaced by None, a list, float32, a wrong shape, a read-only or strided
  array, a float for an int, ...: where mujoco raises, ours raises the same exception type
  without calling the kernel; where mujoco accepts (inputs are converted), ours gives the same
  results. A wrong number of arguments raises TypeError in both."""
  fn = getattr(engine, name)
  calls = []
  kernel = fn.__globals__["_c"]
  monkeypatch.setitem(fn.__globals__, "_c", lambda *a: calls.append(a) or kernel(*a))
  rng = np.random.default_rng(7)
  args = _valid_args(name, rng)
  while any(a is None for a in args):  # (an optional argument left out)
    args = _valid_args(name, rng)
  for i, (pname, kind, _, _, _) in enumerate(_params(name)):
    if kind == "array":
      variants = _array_variants(args[i])
    else:
      variants = [(label, lambda v=v: v) for label, v in _scalar_variants(kind)]
    for label, make in variants:

      def bad(i=i, make=make):
        return [make() if j == i else copy.deepcopy(a) for j, a in enumerate(args)], {}

      calls.clear()
      ours, theirs = _call_both(name, bad)
      _assert_outcomes_agree(name, ours, theirs, f"{pname} {label}")
      if ours[0] == "raise":
        assert calls == [], f"{name}: {pname} {label} reached the kernel"
  for wrong in (args[:-1], args + [args[-1]]):
    ours, theirs = _call_both(name, lambda wrong=wrong: (copy.deepcopy(wrong), {}))
    assert ours[0] == theirs[0] == "raise" and ours[1] is theirs[1] is TypeError


def test_short_output_is_never_written():
  """A 2-vector for mju_add3's res (numba would write a third number past its end) raises
  before anything is written, as does a res one row short for mju_mulMatVec."""
  buf = np.full(5, 7.0)
  with pytest.raises(TypeError, match=r"mju_add3\(\): res must be .* shape \(3,\)"):
    engine.mju_add3(buf[:2], np.ones(3), np.ones(3))
  np.testing.assert_array_equal(buf, 7.0)
  with pytest.raises(TypeError, match=r"mju_mulMatVec\(\): res has 2 elements; expected r = 3"):
    engine.mju_mulMatVec(buf[:2], np.ones((3, 4)), np.ones(4))
  np.testing.assert_array_equal(buf, 7.0)
  with pytest.raises(TypeError, match=r"mju_mulMatVec\(\): vec has 3 elements; expected c = 4"):
    engine.mju_mulMatVec(buf[:3], np.ones((3, 4)), np.ones(3))
  np.testing.assert_array_equal(buf, 7.0)


def test_normalize_of_nothing_is_refused():
  """The bindings pass an empty vector to C's mju_normalize, which writes res[0] (a segfault in
  mujoco, which is therefore not called here); ours raises TypeError and writes nothing."""
  buf = np.full(2, 7.0)
  with pytest.raises(TypeError, match=r"mju_normalize\(\): res is empty"):
    engine.mju_normalize(buf[:0])
  np.testing.assert_array_equal(buf, 7.0)


def test_euler_sequence_none_is_refused():
  """mujoco.mju_euler2Quat(quat, euler, None) passes a null pointer to C (a segfault: mujoco
  is not called here); ours raises TypeError and writes nothing."""
  quat = np.full(4, 7.0)
  with pytest.raises(TypeError, match=r"mju_euler2Quat\(\): seq must be a str; got NoneType"):
    engine.mju_euler2Quat(quat, np.ones(3), None)
  np.testing.assert_array_equal(quat, 7.0)


def test_pyramid_sizes_are_the_bindings():
  """mju_encodePyramid / mju_decodePyramid pass C's dim = size of mu as the bindings do (not
  the force's size): the last friction direction is not converted, in mujoco and here alike;
  with an empty mu, decode writes force[0] = 0 (no pyramid number is read)."""
  force, mu = np.array([1.0, 0.2, -0.3]), np.array([0.5, 0.8])
  for fn in (engine.mju_encodePyramid, mujoco.mju_encodePyramid):
    pyramid = np.full(4, 7.0)
    fn(pyramid, force, mu)
    np.testing.assert_array_equal(pyramid, [0.7, 0.3, 7.0, 7.0])
  for fn in (engine.mju_decodePyramid, mujoco.mju_decodePyramid):
    out = np.full(1, 7.0)
    fn(out, np.zeros(0), np.zeros(0))
    np.testing.assert_array_equal(out, [0.0])


def test_messages_name_function_parameter_expected_and_given():
  """A TypeError says which function and parameter, what was expected and what was given."""
  cases = [
    (
      lambda: engine.mju_add3([0.0, 0, 0], np.ones(3), np.ones(3)),
      r"res must be a writeable.*got list",
    ),
    (
      lambda: engine.mju_add3(np.zeros(3, np.float32), np.ones(3), np.ones(3)),
      r"res must be .*float64.*got a float32 array of shape \(3,\)",
    ),
    (lambda: engine.mju_scl3(np.zeros(3), np.ones(3), "2"), r"scl must be a float; got str '2'"),
    (
      lambda: engine.mju_transformSpatial(
        np.zeros(6), np.ones(6), 1.0, *[np.ones(3)] * 2, np.ones(9)
      ),
      r"flg_force must be an int \(C int\); got float 1.0",
    ),
    (lambda: engine.mju_eye(np.zeros((2, 3))), r"mju_eye\(\): mat has 3 columns; expected n = 2"),
  ]
  for call, pattern in cases:
    with pytest.raises(TypeError, match=pattern):
      call()


def test_inputs_are_converted_outputs_written_in_place():
  """Inputs in any form the bindings convert (lists, int arrays, strided or read-only arrays,
  (n, 1) columns) work; an (n, 1) or strided-free 2-d output is written in place."""
  res = np.zeros((3, 1))
  ro = np.array([1.0, 2.0, 3.0])
  ro.flags.writeable = False
  engine.mju_add3(res, [1, 2, 3], ro)
  np.testing.assert_array_equal(res, [[2.0], [4.0], [6.0]])
  mat = np.zeros((2, 2))
  engine.mju_mulMatMat(mat, np.arange(6.0).reshape(2, 3)[:, ::-1], np.ones((3, 2), np.int32))
  np.testing.assert_array_equal(mat, [[3.0, 3.0], [12.0, 12.0]])
