"""engine.mju's hand-written mju_ functions (mju.HANDWRITTEN) against the `mujoco` bindings'.

Same arguments to both (random, seeded; empty, 1 x 1 and other edge sizes), the same results bit
for bit, except mju_boxQP (a port of the public C source: MuJoCo 3.17's compiled version orders
its arithmetic differently, see test_box_qp_agrees_with_mujoco); bad arguments raise the same
exception type as the bindings, and calls C cannot do raise TypeError here without writing.
"""

import ctypes
import inspect
import re

import mujoco
import numpy as np
import pytest

import engine
from engine import mju

LIBC = ctypes.CDLL(None)


def _same(ours, theirs):
  """Equal to the bit, of the same type (arrays: dtype and shape too)."""
  if isinstance(theirs, np.ndarray):
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    assert ours.tobytes() == theirs.tobytes(), (ours, theirs)
  else:
    assert type(ours) is type(theirs), (ours, theirs)
    assert np.array(ours).tobytes() == np.array(theirs).tobytes(), (ours, theirs)


def _both(name, *args):
  """Calls engine's and mujoco's `name` on copies of args: (return, args after) of each."""
  out = []
  for lib in (engine, mujoco):
    a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
    out.append((getattr(lib, name)(*a), a))
  return out


def _assert_both_same(name, *args):
  (r1, a1), (r2, a2) = _both(name, *args)
  _same(r1, r2)
  for x, y in zip(a1, a2):
    if isinstance(y, np.ndarray):
      _same(x, y)
  return r1, a1


def _copy(x):
  """x copied, a read-only array staying read-only."""
  if not isinstance(x, np.ndarray):
    return x
  out = x.copy()
  out.flags.writeable = x.flags.writeable
  return out


def _raises_like_mujoco(name, *args):
  """Both raise, the same exception type (mujoco.FatalError counting as engine.FatalError)."""
  kinds = []
  for lib in (engine, mujoco):
    a = [_copy(x) for x in args]
    with pytest.raises(Exception) as info:
      getattr(lib, name)(*a)
    kinds.append(engine.FatalError if isinstance(info.value, mujoco.FatalError) else info.type)
  assert kinds[0] is kinds[1], (name, kinds)
  return kinds[0]


@pytest.mark.parametrize("name", mju.HANDWRITTEN)
def test_signature_is_the_bindings(name):
  """Parameter names and order are those of the bindings' docstring."""
  line = getattr(mujoco, name).__doc__.splitlines()[0]
  params = re.findall(r"(\w+): ", re.fullmatch(rf"{name}\((.*)\) -> .*", line).group(1))
  assert list(inspect.signature(getattr(engine, name)).parameters) == params


# ---- vectors: zero test, sorting, conversions ----


def test_is_zero_and_sorts_match_mujoco():
  """mju_isZero (signed zeros, NaN, empty), mju_insertionSort (ties, -0.0 and 0.0, NaN, inf)
  and mju_insertionSortInt give mujoco's results, sorting in place."""
  rng = np.random.default_rng(1)
  for n in (0, 1, 2, 7, 40):
    for v in (np.zeros(n), -np.zeros(n), rng.normal(size=n), np.round(rng.normal(size=n))):
      assert _assert_both_same("mju_isZero", v)[0] == int(not np.any(v))
      _assert_both_same("mju_insertionSort", v)
    ints = rng.integers(-5, 5, size=n).astype(np.int32)
    _, (out,) = _assert_both_same("mju_insertionSortInt", ints)
    np.testing.assert_array_equal(out, np.sort(ints))
  special = np.array([0.0, -0.0, np.nan, 1.0, -np.inf, np.nan, -0.0, 2.0, np.inf, -1.0])
  for seed in range(20):
    v = np.random.default_rng(seed).permutation(special)
    _assert_both_same("mju_insertionSort", v)
    assert _assert_both_same("mju_isZero", v)[0] == 0
  col = np.array([[3.0], [1.0], [2.0]])  # an (n, 1) column is sorted in place too
  engine.mju_insertionSort(col)
  np.testing.assert_array_equal(col, [[1.0], [2.0], [3.0]])


def test_conversions_match_mujoco():
  """mju_n2d, mju_d2n (float64 copies), mju_f2n (float32 -> float64) and mju_n2f (rounded to
  float32, overflow to inf included) write what mujoco writes."""
  rng = np.random.default_rng(2)
  for n in (0, 1, 5):
    v = rng.normal(size=n) * 10.0 ** rng.integers(-40, 40, size=n)
    for name in ("mju_n2d", "mju_d2n"):
      _assert_both_same(name, np.full(n, 7.0), v)
    _assert_both_same("mju_f2n", np.full(n, 7.0), v.astype(np.float32))
    _assert_both_same("mju_f2n", np.full(n, 7.0), v)  # float64 input: cast to float32 first
    _assert_both_same("mju_n2f", np.full(n, 7.0, np.float32), v)
  _assert_both_same("mju_n2f", np.zeros(3, np.float32), np.array([1e300, -1e-300, np.nan]))


def test_vector_errors_match_mujoco():
  """Wrong sizes, dtypes, shapes or a read-only output raise TypeError in both."""
  ro = np.zeros(3)
  ro.flags.writeable = False
  cases = [
    ("mju_isZero", [ro]),
    ("mju_isZero", [np.zeros((2, 2))]),
    ("mju_isZero", [[0.0, 0.0]]),
    ("mju_insertionSort", [np.zeros(3, np.float32)]),
    ("mju_insertionSortInt", [np.zeros(3, np.int64)]),
    ("mju_insertionSortInt", [[3, 2, 1]]),
    ("mju_n2d", [np.zeros(3), np.zeros(2)]),
    ("mju_n2f", [np.zeros(3), np.zeros(3)]),
    ("mju_f2n", [np.zeros(3, np.float32), np.zeros(3, np.float32)]),
    ("mju_d2n", [ro, np.zeros(3)]),
  ]
  for name, args in cases:
    assert _raises_like_mujoco(name, *args) is TypeError, (name, args)


# ---- names, messages, Halton, random numbers ----


def test_names_and_messages_match_mujoco():
  """mju_type2Str / mju_str2Type over every mjtObj (and beyond), mju_writeNumBytes at the
  suffixes' edges and at C's 19-character buffer, mju_warningText for every warning."""
  for t in range(-3, 110):
    assert engine.mju_type2Str(t) == mujoco.mju_type2Str(t), t
    name = mujoco.mju_type2Str(t)
    if name is not None:
      assert engine.mju_str2Type(name) == mujoco.mju_str2Type(name), name
  for name in ("", "Body", "bodies", "xbody", "frame", "plugin", b"geom"):
    assert engine.mju_str2Type(name) == mujoco.mju_str2Type(name), name
  sizes = [0, 1, 1023, 1024, 1025, 2**20, 3 * 2**30, 5 * 2**50, 2**60, 2**63, 2**64 - 1]
  sizes += [k * 2**e + d for k in (1, 3, 1000) for e in (10, 20, 40) for d in (0, 1)]
  for n in sizes:
    assert engine.mju_writeNumBytes(n) == mujoco.mju_writeNumBytes(n), n
  for warning in range(-2, 10):
    for info in (0, 5, 4096, 3 * 2**20, 2**64 - 1):
      assert engine.mju_warningText(warning, info) == mujoco.mju_warningText(warning, info)
  for name, args in [
    ("mju_writeNumBytes", [-1]),
    ("mju_writeNumBytes", [2**64]),
    ("mju_writeNumBytes", [1.0]),
    ("mju_warningText", [0, -1]),
    ("mju_warningText", [0.0, 1]),
    ("mju_type2Str", ["body"]),
    ("mju_str2Type", [1]),
  ]:
    assert _raises_like_mujoco(name, *args) is TypeError, (name, args)


def test_halton_matches_mujoco():
  """mju_Halton for positive, zero and negative indices and bases, bit for bit; base 0 (C
  divides by zero) and 1 (C never ends) are refused for positive indices."""
  for base in (2, 3, 5, 7, 10, 97, -2, -3):
    for index in list(range(-3, 300)) + [2**31 - 1]:
      _same(engine.mju_Halton(index, base), mujoco.mju_Halton(index, base))
  for base in (0, 1):
    with pytest.raises(TypeError, match=r"mju_Halton\(\): base is"):
      engine.mju_Halton(5, base)
    _same(engine.mju_Halton(0, base), mujoco.mju_Halton(0, base))


def test_standard_normal_is_mujocos_after_the_same_srand():
  """From the same C srand seed, our numbers are MuJoCo's (both draw from C's rand()); num2 may
  be a float or None; the numbers look standard normal."""
  for seed in (0, 1, 12345):
    LIBC.srand(seed)
    ours = [engine.mju_standardNormal(None if i % 2 else 0.5) for i in range(50)]
    LIBC.srand(seed)
    theirs = [mujoco.mju_standardNormal(None if i % 2 else 0.5) for i in range(50)]
    assert ours == theirs and all(type(x) is float for x in ours)
  LIBC.srand(7)
  sample = np.array([engine.mju_standardNormal(None) for _ in range(20000)])
  assert abs(sample.mean()) < 0.03 and abs(sample.std() - 1) < 0.03
  for bad in ("1", [1.0]):
    assert _raises_like_mujoco("mju_standardNormal", bad) is TypeError


# ---- printing ----


def _printed(capfd, fn, *args):
  capfd.readouterr()
  fn(*args)
  LIBC.fflush(None)  # MuJoCo's printf buffers in C's stdio
  return capfd.readouterr().out


def test_printing_is_mujocos(capfd):
  """mju_printMat and mju_printMatSparse print the same text as mujoco (numbers of every size,
  negative zero, inf and NaN, empty rows)."""
  rng = np.random.default_rng(3)
  mats = [np.zeros((0, 0)), np.zeros((2, 0)), np.array([[1.5]]), rng.normal(size=(3, 4)) * 1e3]
  mats += [np.array([[-0.0, np.inf, -np.inf, np.nan, 1e-9, 123456789.123456789]]), np.ones(3)]
  for mat in mats:
    ours = _printed(capfd, engine.mju_printMat, mat)
    assert ours == _printed(capfd, mujoco.mju_printMat, mat) and ours.endswith("\n")
  sparse = np.array([[0.0, 1.25, 0], [0, 0, 0], [-3.5, 0, 1e6]])
  values, rownnz, rowadr, colind = np.zeros(3), *np.zeros((3, 3), np.int32)
  engine.mju_dense2sparse(values, sparse, rownnz, rowadr, colind)
  args = (values, rownnz, rowadr, colind)
  ours = _printed(capfd, engine.mju_printMatSparse, *args)
  assert ours == _printed(capfd, mujoco.mju_printMatSparse, *args)
  assert ours.startswith("(0 1):  1.250000  \n\n(2 0): -3.500000")
  for bad in [(values[:2], rownnz, rowadr, colind), (values, rownnz[:2], rowadr, colind)]:
    assert _raises_like_mujoco("mju_printMatSparse", *bad) is TypeError
  with pytest.raises(TypeError, match="rowadr is empty"):
    engine.mju_printMatSparse(np.zeros(0), *np.zeros((3, 0), np.int32))
  with pytest.raises(TypeError, match="lies outside the arrays"):  # row 0 past the values
    engine.mju_printMatSparse(values, rownnz, np.array([3, 1, 1], np.int32), colind)


# ---- compressed sparse rows ----


def _csr(rng, n, lower_only):
  dense = rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.5)
  if lower_only:
    dense = np.tril(dense) + np.triu(dense, 1) * (rng.random() < 0.5)  # upper parts: ignored
  values, colind = np.zeros(n * n), np.zeros(n * n, np.int32)
  rownnz, rowadr = np.zeros(n, np.int32), np.zeros(n, np.int32)
  engine.mju_dense2sparse(values, dense, rownnz, rowadr, colind)
  return values, rownnz, rowadr, colind


def test_sym2dense_matches_mujoco():
  """mju_sym2dense (the upper part of a row ignored, the lower mirrored) writes what mujoco
  writes for sizes 0 to 6; the bindings' size errors are TypeError in both."""
  rng = np.random.default_rng(4)
  for n in (0, 1, 2, 3, 6):
    for _ in range(5):
      values, rownnz, rowadr, colind = _csr(rng, n, True)
      _, (res, *_) = _assert_both_same(
        "mju_sym2dense", np.full((n, n), 7.0), values, rownnz, rowadr, colind
      )
      np.testing.assert_array_equal(res, res.T)
  values, rownnz, rowadr, colind = _csr(rng, 3, True)
  for bad in [
    (np.zeros((3, 2)), values, rownnz, rowadr, colind),
    (np.zeros((3, 3)), values, rownnz[:2], rowadr, colind),
    (np.zeros((3, 3)), values[: rowadr[-1] + rownnz[-1] - 1], rownnz, rowadr, colind),
    (np.zeros((3, 3), np.float32), values, rownnz, rowadr, colind),
  ]:
    assert _raises_like_mujoco("mju_sym2dense", *bad) is TypeError
  res = np.full((2, 2), 7.0)
  with pytest.raises(TypeError, match="lies outside"):  # row 0 past the values
    engine.mju_sym2dense(
      res, np.ones(2), np.array([1, 1], np.int32), np.array([3, 0], np.int32), np.zeros(2, np.int32)
    )
  with pytest.raises(TypeError, match="negative"):
    engine.mju_sym2dense(
      res,
      np.ones(2),
      np.array([1, 1], np.int32),
      np.array([0, 1], np.int32),
      np.array([0, -1], np.int32),
    )
  np.testing.assert_array_equal(res, 7.0)


# ---- band-dense matrices ----

# (ntotal, nband, ndense): empty, 1 x 1, no dense rows, all dense, band wider than the banded
# part, band of 1 (diagonal)
LAYOUTS = [(0, 0, 0), (0, 3, 0), (1, 1, 0), (1, 0, 1), (1, 5, 1), (4, 1, 1), (5, 1, 0), (6, 3, 0)]
LAYOUTS += [(6, 2, 2), (5, 5, 0), (5, 7, 1), (5, 2, 5), (5, 0, 5), (10, 3, 2), (13, 4, 3)]


def _band_spd(rng, ntotal, nband, ndense):
  """A symmetric positive definite matrix, zero outside the band among the banded rows."""
  a = rng.normal(size=(ntotal, ntotal))
  a = a @ a.T + ntotal * np.eye(ntotal)
  nsparse = ntotal - ndense
  i, j = np.indices((ntotal, ntotal))
  a[(i < nsparse) & (j < nsparse) & (abs(i - j) >= nband)] = 0
  return a


@pytest.mark.parametrize("layout", LAYOUTS)
def test_band_functions_match_mujoco(layout):
  """mju_dense2Band, mju_band2Dense (with and without the mirrored upper triangle),
  mju_bandDiag, mju_bandMulMatVec, mju_cholFactorBand (with diagadd, diagmul) and
  mju_cholSolveBand give mujoco's results bit for bit, and solve the system."""
  ntotal, nband, ndense = layout
  size = (ntotal - ndense) * nband + ndense * ntotal
  rng = np.random.default_rng(ntotal * 100 + nband * 10 + ndense)
  for trial in range(3):
    dense = _band_spd(rng, ntotal, nband, ndense)
    _, (band, _, *_) = _assert_both_same(
      "mju_dense2Band", np.full(size, 7.0), dense, ntotal, nband, ndense
    )
    for flg_sym in (True, False, 0, 1):
      _, (back, *_) = _assert_both_same(
        "mju_band2Dense", np.full((ntotal, ntotal), 7.0), band, ntotal, nband, ndense, flg_sym
      )
      np.testing.assert_array_equal(back, dense if flg_sym else np.tril(dense))
    for i in range(ntotal):
      index = engine.mju_bandDiag(i, ntotal, nband, ndense)
      assert index == mujoco.mju_bandDiag(i, ntotal, nband, ndense)
      assert band[index] == dense[i, i]
    vec = rng.normal(size=(ntotal, 1))
    if ntotal:  # (the bindings' res cannot have the one column of nvec = 1 when empty)
      for flg_sym in (True, False):
        _, (prod, *_) = _assert_both_same(
          "mju_bandMulMatVec", np.zeros(ntotal), band, vec, ntotal, nband, ndense, 1, flg_sym
        )
        want = (dense if flg_sym else np.tril(dense)) @ vec[:, 0]
        np.testing.assert_allclose(prod, want, rtol=1e-12, atol=1e-12)
    diagadd, diagmul = [(0.0, 0.0), (0.5, 0.1), (1e-3, 0)][trial]
    mindiag, (factor, *_) = _assert_both_same(
      "mju_cholFactorBand", band, ntotal, nband, ndense, diagadd, diagmul
    )
    assert mindiag > 0 or ntotal == 0
    _, (x, *_) = _assert_both_same(
      "mju_cholSolveBand", np.zeros(ntotal), factor, vec[:, 0], ntotal, nband, ndense
    )
    regularized = dense + np.diag(diagadd + diagmul * np.diag(dense))
    np.testing.assert_allclose(regularized @ x, vec[:, 0], rtol=1e-9, atol=1e-9)


def test_band_factor_of_a_singular_matrix_is_mujocos():
  """A diagonal that is not positive stops the factorization: 0 returned, mat as MuJoCo
  leaves it (in the banded and the dense part)."""
  for layout, bad in [((5, 2, 1), 2), ((5, 2, 2), 4), ((3, 1, 0), 0)]:
    ntotal, nband, ndense = layout
    dense = _band_spd(np.random.default_rng(5), *layout)
    dense[bad, bad] = -1.0
    band = np.zeros((ntotal - ndense) * nband + ndense * ntotal)
    engine.mju_dense2Band(band, dense, *layout)
    mindiag, _ = _assert_both_same("mju_cholFactorBand", band, *layout, 0.0, 0.0)
    assert mindiag == 0.0


def test_band_errors_match_mujoco():
  """Wrong sizes and types raise TypeError as in the bindings; layouts C cannot index
  (ndense > ntotal, ndense < 0, nband < 1 with banded rows) raise TypeError here (the bindings
  pass them to C) and write nothing."""
  band = np.zeros(7)  # (4-1)*1 + 1*4
  cases = [
    ("mju_dense2Band", [np.zeros(6), np.eye(4), 4, 1, 1]),
    ("mju_dense2Band", [band, np.eye(3), 4, 1, 1]),
    ("mju_dense2Band", [band, np.eye(4), 4.0, 1, 1]),
    ("mju_band2Dense", [np.zeros((4, 3)), band, 4, 1, 1, True]),
    ("mju_band2Dense", [np.zeros((4, 4)), band, 4, 1, 1, "yes"]),
    ("mju_band2Dense", [np.zeros((4, 4)), band[:6], 4, 1, 1, True]),
    ("mju_bandMulMatVec", [np.zeros(4), band, np.ones((4, 2)), 4, 1, 1, 2, True]),
    ("mju_bandMulMatVec", [np.zeros((4, 2)), band, np.ones((4, 2)), 4, 1, 1, 2, True]),
    ("mju_bandMulMatVec", [np.zeros(4), band, np.ones((1, 4)), 4, 1, 1, 1, True]),
    ("mju_bandMulMatVec", [np.zeros(3), band, np.ones(4), 4, 1, 1, 1, True]),
    ("mju_cholFactorBand", [np.zeros((7, 2)), 4, 1, 1, 0.0, 0.0]),
    ("mju_cholFactorBand", [band, 4, 1, 1, "0", 0.0]),
    ("mju_cholFactorBand", [band.astype(np.float32), 4, 1, 1, 0.0, 0.0]),
    ("mju_cholSolveBand", [np.zeros(4), band, np.ones(3), 4, 1, 1]),
    ("mju_cholSolveBand", [np.zeros(3), band, np.ones(4), 4, 1, 1]),
    ("mju_cholSolveBand", [np.zeros(4), band[:5], np.ones(4), 4, 1, 1]),
    ("mju_bandDiag", [1.5, 4, 1, 1]),
  ]
  for name, args in cases:
    assert _raises_like_mujoco(name, *args) is TypeError, (name, args)
  assert engine.mju_bandDiag(2**30, 4, 2**30, 0) == mujoco.mju_bandDiag(2**30, 4, 2**30, 0)
  for ntotal, nband, ndense in [(2, 2, 3), (3, 2, -1), (3, 0, 1), (3, -1, 1)]:
    size = (ntotal - ndense) * nband + ndense * ntotal
    mat = np.full(max(size, 0), 7.0)
    res = np.full(max(ntotal, 0), 7.0)
    with pytest.raises(TypeError, match="no band-dense layout"):
      engine.mju_cholFactorBand(mat, ntotal, nband, ndense, 0.0, 0.0)
    with pytest.raises(TypeError, match="no band-dense layout"):
      engine.mju_cholSolveBand(res, mat, res.copy(), ntotal, nband, ndense)
    np.testing.assert_array_equal(mat, 7.0)
    np.testing.assert_array_equal(res, 7.0)


# ---- box-constrained QP ----


def _qp(rng, n, kind):
  a = rng.normal(size=(n, n))
  H = a @ a.T + rng.choice([0.0, 0.01, 1.0]) * np.eye(n)
  H[np.triu_indices(n, 1)] = rng.normal(size=n * (n - 1) // 2)  # the upper triangle is ignored
  g = rng.normal(size=n) * 3
  lower = -rng.uniform(0.1, 1, n) if kind in ("box", "lower") else None
  upper = rng.uniform(0.1, 1, n) if kind in ("box", "upper") else None
  return H, g, lower, upper


@pytest.mark.parametrize("kind", ["box", "lower", "upper", "none"])
def test_box_qp_agrees_with_mujoco(kind):
  """On random problems (n = 1 to 10, warm starts inside and outside the box, with and without
  index), the rank and the free dimensions are mujoco's, and the solution and the factor of the
  free block agree to 1e-12 (relative). Not bit for bit: MuJoCo 3.17's compiled mju_boxQP
  orders its arithmetic differently from the public C source ported here (its solutions differ
  in the last bits, about 1e-14), and keeps other scratch values after the factor in R."""
  rng = np.random.default_rng(["box", "lower", "upper", "none"].index(kind))
  exact = 0
  for trial in range(150):
    n = int(rng.integers(1, 11))
    H, g, lower, upper = _qp(rng, n, kind)
    start, scratch = rng.normal(size=n), rng.normal(size=(n, n + 7))
    with_index = trial % 2 == 0
    out = []
    for lib in (engine, mujoco):
      res, R = start.copy(), scratch.copy()
      index = np.full(n, -1, np.int32) if with_index else None
      out.append((lib.mju_boxQP(res, R, index, H, g, lower, upper), res, R, index))
    (rank, res, R, index), (rank_m, res_m, R_m, index_m) = out
    assert rank == rank_m, (trial, rank, rank_m)
    np.testing.assert_allclose(res, res_m, rtol=1e-12, atol=1e-12 * np.abs(res_m).max())
    exact += res.tobytes() == res_m.tobytes()
    if rank > 0:
      if with_index:
        np.testing.assert_array_equal(index[:rank], index_m[:rank])
      L, L_m = (np.tril(r.ravel()[: rank * rank].reshape(rank, rank)) for r in (R, R_m))
      np.testing.assert_allclose(L, L_m, rtol=1e-12, atol=1e-12 * np.abs(L_m).max())
      if lower is not None:
        assert np.all(res >= lower)
      if upper is not None:
        assert np.all(res <= upper)
  assert exact >= 20  # many solutions are the same to the bit


def test_box_qp_solves_known_problems():
  """An unconstrained problem gives the Newton point -H^-1 g (rank n); a box that binds every
  dimension gives its corner (rank 0); a singular H without bounds fails (-1), as in mujoco."""
  n = 4
  H = np.diag([1.0, 2.0, 3.0, 4.0])
  g = np.array([1.0, -1.0, 2.0, -2.0])
  for lib in (engine, mujoco):
    res, R = np.zeros(n), np.zeros((n, n + 7))
    assert lib.mju_boxQP(res, R, None, H, g, None, None) == n
    np.testing.assert_allclose(res, -g / np.diag(H), rtol=1e-15)
    res = np.zeros(n)
    lower, upper = np.full(n, 10.0), np.full(n, 11.0)
    assert lib.mju_boxQP(res, R, None, H, g, lower, upper) == 0
    np.testing.assert_array_equal(res, lower)
    assert lib.mju_boxQP(np.zeros(n), R, None, np.zeros((n, n)), g, None, None) == -1


def test_box_qp_errors_match_mujoco():
  """Wrong sizes raise TypeError, n = 0 and lower >= upper engine.FatalError, as in mujoco."""
  n = 3
  ok = [np.zeros(n), np.zeros((n, n + 7)), None, np.eye(n), np.ones(n), -np.ones(n), np.ones(n)]
  changes = {
    1: [np.zeros((n, n + 6)), np.zeros((n, n + 7), np.float32)],
    2: [np.zeros(n - 1, np.int32), np.zeros(n, np.int64)],
    3: [np.eye(n + 1), np.ones((n, n - 1))],
    4: [np.ones(n + 1)],
    5: [np.ones(n - 1)],
    6: [np.ones(n + 1)],
  }
  for i, values in changes.items():
    for value in values:
      args = ok[:i] + [value] + ok[i + 1 :]
      assert _raises_like_mujoco("mju_boxQP", *args) is TypeError, (i, value)
  empty = [np.zeros(0), np.zeros((0, 0)), None, np.zeros((0, 0)), np.zeros(0), None, None]
  assert _raises_like_mujoco("mju_boxQP", *empty) is engine.FatalError
  crossed = ok[:5] + [np.ones(n), np.ones(n)]
  assert _raises_like_mujoco("mju_boxQP", *crossed) is engine.FatalError
