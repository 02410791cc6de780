"""Where the compiled engine is cached, for which CPU, what a model loads, and what happens
when the cache is damaged, foreign, unwritable or written by two processes at once.

The numba cache is keyed on the sources' contents and on the CPU class the code is generated
for, not on where the sources are installed: a copy of the packages in another folder (a
second venv, a regular install beside an editable one, another clone) loads every stage from
the same cache and compiles nothing. The code targets a portable baseline (x86-64-v3 on an
AVX2 machine) unless this machine asked for native code.
"""

import os
import pathlib
import pickle
import platform
import shutil
import subprocess
import sys

import numba
import numpy as np
import pytest

from engine import _jit
from engine import _stage

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="about compiled code")


def test_code_targets_the_portable_baseline():
  from numba.core.registry import cpu_target

  triple, cpu, features = cpu_target.target_context.codegen().magic_tuple()
  if os.environ.get("NUMJOCO_CPU") == "native" or _jit.CPU_TARGET.startswith("native-"):
    assert cpu == _jit.CPU_TARGET[len("native-") :]
    return
  # the cache index keys code on (triple, cpu, features): a baseline name and no host
  # features make it valid on every machine of the class
  assert cpu == _jit.CPU_TARGET and features == ""
  if platform.machine().lower() in ("x86_64", "amd64"):
    assert cpu in ("x86-64-v3", "x86-64-v2", "x86-64")
  assert _jit.CACHE_DIR.endswith(cpu) or "NUMBA_CACHE_DIR" in os.environ


def test_a_copy_installed_elsewhere_compiles_nothing(tmp_path):
  _stage.compile_all(lazy=False)  # (this install's cache is warm)
  for package in ("engine",):
    shutil.copytree(
      _jit.ENGINE_DIR.parent / package,
      tmp_path / package,
      ignore=shutil.ignore_patterns("__pycache__"),
    )
  script = (
    "import engine, engine._jit as j, engine._stage as s\n"
    "print(engine.__file__)\nprint(j.CACHE_DIR)\n"
    "print(len(s.cold_stages(s.selected(False))))\n"
    "m = engine.MjModel.from_xml_string('<mujoco><worldbody><body><freejoint/>"
    '<geom size=".1"/></body></worldbody></mujoco>\')\n'
    "d = engine.MjData(m)\nengine.mj_step(m, d, 10)\n"
  )
  env = dict(os.environ, PYTHONPATH=str(tmp_path))
  out = subprocess.run(
    [sys.executable, "-c", script],
    cwd=tmp_path,
    env=env,
    capture_output=True,
    text=True,
    timeout=600,
  )
  assert out.returncode == 0, out.stderr
  path, cache, cold = out.stdout.split()
  assert path.startswith(str(tmp_path))
  assert cache == _jit.CACHE_DIR  # the same sources: the same cache
  assert cold == "0", out.stderr  # every stage found there
  assert "compil" not in out.stderr, out.stderr  # and stepping compiled nothing either


def test_native_code_on_request():
  # NUMJOCO_CPU=native (or `python -m engine.warmup --native`): this CPU's name and features,
  # in a cache directory of its own
  script = (
    "from engine import _jit\nfrom numba.core.registry import cpu_target\n"
    "print(_jit.CPU_TARGET, _jit.CACHE_DIR)\n"
    "print(*cpu_target.target_context.codegen().magic_tuple()[1:], sep='|')\n"
  )
  env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU")}
  env.update(NUMJOCO_CPU="native")
  out = subprocess.run(
    [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
  )
  assert out.returncode == 0, out.stderr
  (target, cache), (cpu_features,) = (line.split() for line in out.stdout.splitlines())
  cpu, features = cpu_features.split("|")
  import llvmlite.binding as llvm

  assert target == "native-" + llvm.get_host_cpu_name() == "native-" + cpu
  assert cache.endswith(target) and cache != _jit.CACHE_DIR
  assert features  # the host's own feature list


def test_compile_jobs_follow_cpus_and_memory(monkeypatch):
  monkeypatch.delenv("NUMJOCO_COMPILE_JOBS", raising=False)
  monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5}, raising=False)
  monkeypatch.setattr(_stage, "_available_memory", lambda: 64 << 30)
  assert _stage._jobs() == 6  # every CPU the process may use
  monkeypatch.setattr(_stage, "_available_memory", lambda: 3 * _stage._COMPILE_MEMORY + 5)
  assert _stage._jobs() == 3  # as many as the memory holds
  monkeypatch.setattr(_stage, "_available_memory", lambda: 0)
  assert _stage._jobs() == 1
  monkeypatch.setenv("NUMJOCO_COMPILE_JOBS", "4")
  assert _stage._jobs() == 4


# ---- what a model loads ----

_STAGES_OF = """
import sys, engine
from engine import _stage
m = engine.MjModel.from_xml_path(sys.argv[1])
print(' '.join(s.name for s in _stage.STAGES if s._cell.value))
"""


def _loaded_stages(path) -> set:
  out = subprocess.run(
    [sys.executable, "-c", _STAGES_OF, str(path)],
    capture_output=True,
    text=True,
    timeout=300,
    env=dict(os.environ, NUMJOCO_BACKGROUND_COMPILE="0"),
  )
  assert out.returncode == 0, out.stderr
  return set(out.stdout.split())


def test_a_model_loads_only_the_stages_it_reaches():
  _stage.compile_all(lazy=False)
  root = pathlib.Path(_jit.PROJECT_DIR)
  cartpole = _loaded_stages(root / "assets" / "suite" / "cartpole.xml")
  # contacts disabled, one joint limit, no equality, Newton, RK4, no sensors: none of these
  for name in (
    "collision.driver.collision",
    "constraint.instantiate_contact",
    "constraint.instantiate_equality",
    "projection.efc_ar",
    "passive.fluid",
    "collision.convex.collide_convex",
    "collision.hfield.collide_hfield",
    "collision.sdf.collide_sdf",
    "collision.epa.ccd",
    "solver_pgs.noslip",
    "solver_pgs.pgs",
    "forward.implicit",
    "derivative.passive_vel",
    "sensor._compute_pos",
    "inverse.inverse_skip",
  ):
    assert "engine." + name not in cartpole
  assert {
    "engine.forward.step",
    "engine.constraint.make_constraint",
    "engine.solver_newton.cg_newton",
  } <= cartpole
  # a mesh model with contacts, sensors and keyframes needs the collision driver, the contact
  # rows, the convex colliders and the sensor stages
  arm = _loaded_stages(next((root / "tests" / "models" / "realworld").glob("*arm*.xml")))
  assert {
    "engine.collision.driver.collision",
    "engine.constraint.instantiate_contact",
    "engine.collision.convex.collide_convex",
    "engine.collision.epa.ccd",
    "engine.sensor._compute_pos",
  } <= arm


_OPTION_AFTER_LOADING = """
import sys, numpy as np
import {lib} as lib
m = lib.MjModel.from_xml_string(sys.argv[1])
m.opt.noslip_iterations = 4  # not loaded with the model: the first step reaches it
m.opt.integrator = 3         # implicitfast
d = lib.MjData(m)
for _ in range(200):
  lib.mj_step(m, d)
print(*d.qpos.tolist())
"""

_SPHERES_ON_BOX = """<mujoco><worldbody><geom type="plane" size="2 2 .1"/>
<body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
<body pos=".05 0 .3"><freejoint/><geom type="sphere" size=".08"/></body>
</worldbody></mujoco>"""


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="about compiled code")
def test_a_stage_the_model_did_not_load_is_loaded_on_first_use():
  mujoco = pytest.importorskip("mujoco")
  _stage.compile_all(lazy=False)
  env = dict(os.environ, NUMJOCO_BACKGROUND_COMPILE="0")
  ours = subprocess.run(
    [sys.executable, "-c", _OPTION_AFTER_LOADING.format(lib="engine"), _SPHERES_ON_BOX],
    capture_output=True,
    text=True,
    timeout=300,
    env=env,
  )
  assert ours.returncode == 0, ours.stderr
  assert "compiling" not in ours.stderr  # loaded from the cache, in the middle of a step
  theirs = subprocess.run(
    [sys.executable, "-c", _OPTION_AFTER_LOADING.format(lib="mujoco"), _SPHERES_ON_BOX],
    capture_output=True,
    text=True,
    timeout=300,
  )
  assert theirs.returncode == 0, theirs.stderr
  assert mujoco.mjtIntegrator.mjINT_IMPLICITFAST == 3
  np.testing.assert_allclose(
    np.array(ours.stdout.split(), float), np.array(theirs.stdout.split(), float), atol=1e-8
  )


# ---- bad caches: damaged, foreign, unwritable, two writers ----

_STEP = """
import engine
m = engine.MjModel.from_xml_string('<mujoco><worldbody><body><joint/><geom type="capsule" '
                                   'size=".1" fromto="0 0 0 0 0 -.5"/></body></worldbody></mujoco>')
d = engine.MjData(m)
d.qpos[0] = 1.0
engine.mj_step(m, d, 100)
print(repr(d.qpos[0]))
"""


def _copy_of_the_cache(tmp_path) -> pathlib.Path:
  """A copy of this build's warm cache, to damage."""
  _stage.compile_all(lazy=False)
  cache = tmp_path / "cache"
  shutil.copytree(_jit.CACHE_DIR, cache)
  return cache


def _step_with(cache, **extra):
  env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), NUMJOCO_BACKGROUND_COMPILE="0", **extra)
  env.pop("NUMJOCO_NORMAL_CACHE_DIR", None)
  return subprocess.run(
    [sys.executable, "-c", _STEP], capture_output=True, text=True, timeout=900, env=env
  )


def _step_files(cache):
  (index,) = (cache / "engine").glob("forward.step-*.nbi")
  (data,) = (cache / "engine").glob("forward.step-*.nbc")
  return index, data


def _expected_angle():
  out = _step_with(_jit.CACHE_DIR)
  assert out.returncode == 0 and out.stdout, out.stderr
  return out.stdout


needs_jit = pytest.mark.skipif(
  numba.config.DISABLE_JIT or "NUMBA_CACHE_DIR" in os.environ,
  reason="about the compiled engine's own cache",
)


def _runtime_module(cache) -> pathlib.Path:
  (path,) = cache.glob("nrt-*.bin")
  return path


@needs_jit
@pytest.mark.parametrize(
  "damage", ["flipped bytes", "truncated data", "truncated index", "runtime module"]
)
def test_a_damaged_cache_file_is_compiled_again(tmp_path, damage):
  cache = _copy_of_the_cache(tmp_path)
  index, data = _step_files(cache)
  if damage == "runtime module":  # numba's runtime helpers, cached as machine code too
    raw = bytearray(_runtime_module(cache).read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    _runtime_module(cache).write_bytes(bytes(raw))
  elif damage == "flipped bytes":
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    data.write_bytes(bytes(raw))
  elif damage == "truncated data":
    data.write_bytes(data.read_bytes()[:1000])
  else:
    index.write_bytes(index.read_bytes()[:20])
  first = _step_with(cache)
  assert first.returncode == 0, first.stderr
  assert first.stdout == _expected_angle()
  assert first.stderr.count("\n") <= 3, first.stderr  # a line or two, no traceback
  assert "Traceback" not in first.stderr
  again = _step_with(cache)  # repaired: loads without a word
  assert again.stdout == first.stdout and again.stderr == "", again.stderr
  if damage == "runtime module":
    repaired, ours = _runtime_module(cache), _runtime_module(pathlib.Path(_jit.CACHE_DIR))
    assert repaired.read_bytes() == ours.read_bytes()


@_jit.entry
def _copy_into(dst, src):
  dst[:] = src


_COPY_WRONG_SHAPE = """
import numpy as np
from tests.engine import test_cache
try:
  test_cache._copy_into(np.zeros(3), np.ones(2))
except ValueError as e:
  print(e)
print(sum(test_cache._copy_into.stats.cache_hits.values()))
"""


@needs_jit
def test_cached_code_raises_its_own_errors(tmp_path):
  """The cache keeps only the environments (numba's per-function globals) that the machine code
  reads; an error raised from a function compiled in, here numba's shape check of a slice
  assignment, must read the same from cached code as from freshly compiled code."""
  env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), NUMJOCO_BACKGROUND_COMPILE="0")
  compiled, loaded = (
    subprocess.run(
      [sys.executable, "-c", _COPY_WRONG_SHAPE],
      env=env,
      capture_output=True,
      text=True,
      timeout=300,
      cwd=_jit.PROJECT_DIR,
    )
    for _ in range(2)
  )
  assert compiled.returncode == 0 and loaded.returncode == 0, compiled.stderr + loaded.stderr
  message = "cannot assign slice of shape (3,) from input of shape (2,)"
  assert compiled.stdout.split("\n")[:2] == [message, "0"], compiled.stdout
  assert loaded.stdout.split("\n")[:2] == [message, "1"], loaded.stdout


@needs_jit
@pytest.mark.parametrize("foreign", ["numba version", "cpu"])
def test_a_foreign_cache_entry_is_never_loaded(tmp_path, foreign):
  cache = _copy_of_the_cache(tmp_path)
  index, _ = _step_files(cache)
  with open(index, "rb") as f:
    version = pickle.load(f)
    stamp, overloads = pickle.loads(f.read())
  if foreign == "numba version":
    version = "0.0.1"
  else:  # the same function compiled for another CPU: keyed on (triple, cpu name, features)
    overloads = {
      (sig, (magic[0], "foreign-cpu", "+foreign"), deps): name
      for (sig, magic, deps), name in overloads.items()
    }
  with open(index, "wb") as f:
    pickle.dump(version, f, protocol=-1)
    f.write(pickle.dumps((stamp, overloads), protocol=-1))
  out = _step_with(cache)
  assert out.returncode == 0, out.stderr
  assert out.stdout == _expected_angle()
  assert "compiling the engine with numba" in out.stderr and "1 stages" in out.stderr


@needs_jit
def test_two_processes_compiling_one_cache_at_once(tmp_path):
  cache = _copy_of_the_cache(tmp_path)
  for path in _step_files(cache):
    path.unlink()
  env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), NUMJOCO_BACKGROUND_COMPILE="0")
  runs = [
    subprocess.Popen(
      [sys.executable, "-c", _STEP],
      env=env,
      stdout=subprocess.PIPE,
      stderr=subprocess.PIPE,
      text=True,
    )
    for _ in range(2)
  ]
  results = [r.communicate(timeout=900) + (r.returncode,) for r in runs]
  assert all(code == 0 for _, _, code in results), results
  assert {out for out, _, _ in results} == {_expected_angle()}
  after = _step_with(cache)
  assert after.stdout == _expected_angle() and after.stderr == ""  # one good entry left


def _installed_copy(tmp_path) -> pathlib.Path:
  """The packages copied elsewhere, with this build's cache as their prebuilt engine (what
  `python -m engine.warmup --prebuild` puts into a wheel)."""
  _stage.compile_all(lazy=False)
  site = tmp_path / "site"
  for package in ("engine",):
    shutil.copytree(
      _jit.ENGINE_DIR.parent / package,
      site / package,
      ignore=shutil.ignore_patterns("__pycache__", "_prebuilt"),
    )
  name = pathlib.Path(_jit.CACHE_DIR).name
  shutil.copytree(_jit.CACHE_DIR, site / "engine" / "_prebuilt" / name)
  return site


def _step_installed(site, xdg):
  env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_CPU_NAME")}
  env.update(PYTHONPATH=str(site), XDG_CACHE_HOME=str(xdg), NUMJOCO_BACKGROUND_COMPILE="0")
  script = _STEP + "from engine import _jit\nprint(_jit.CACHE_DIR)\n"
  out = subprocess.run(
    [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=site, env=env
  )
  assert out.returncode == 0, out.stderr
  angle, cache_dir = out.stdout.splitlines()
  return angle + "\n", pathlib.Path(cache_dir), out.stderr


@needs_jit
@pytest.mark.skipif(_jit.CPU_TARGET.startswith("native"), reason="prebuilt code is portable")
def test_the_prebuilt_engine_is_installed_into_an_empty_cache(tmp_path):
  site = _installed_copy(tmp_path)
  angle, cache_dir, stderr = _step_installed(site, tmp_path / "xdg")
  assert angle == _expected_angle()
  assert stderr == ""  # nothing compiled
  assert cache_dir.parent == tmp_path / "xdg" / "numjoco" and (cache_dir / ".prebuilt").exists()


@needs_jit
@pytest.mark.skipif(_jit.CPU_TARGET.startswith("native"), reason="prebuilt code is portable")
def test_an_unwritable_cache_root_falls_back_to_the_prebuilt_engine(tmp_path):
  site = _installed_copy(tmp_path)
  blocked = tmp_path / "a-file"
  blocked.write_text("the cache root would be below a file: no folder can be made there")
  angle, cache_dir, stderr = _step_installed(site, blocked)
  assert angle == _expected_angle()
  assert cache_dir.parent == site / "engine" / "_prebuilt"
  assert stderr.startswith("numjoco: cannot write the engine cache") and stderr.count("\n") == 1


@needs_jit
def test_the_background_compile_fills_in_what_is_missing(tmp_path):
  # what a cold start leaves running: `python -m engine.warmup --background` compiles every
  # stage missing from the cache, so that the next model finds it there
  cache = _copy_of_the_cache(tmp_path)
  for path in _step_files(cache):
    path.unlink()
  env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
  out = subprocess.run(
    [sys.executable, "-m", "engine.warmup", "--background"],
    env=env,
    capture_output=True,
    text=True,
    timeout=900,
  )
  assert out.returncode == 0, out.stderr
  after = _step_with(cache)
  assert after.stdout == _expected_angle() and after.stderr == ""  # nothing left to compile


@needs_jit
@pytest.mark.skipif(not hasattr(os, "fork"), reason="flock locks (POSIX)")
def test_one_background_compile_at_a_time(tmp_path):
  # a second cold process while the first one's background compile runs starts none of its own
  import fcntl

  cache = _copy_of_the_cache(tmp_path)
  missing = _step_files(cache)
  for path in missing:
    path.unlink()
  env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
  with open(cache / "background.lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # (as a running background compile holds it)
    out = subprocess.run(
      [sys.executable, "-m", "engine.warmup", "--background"],
      env=env,
      capture_output=True,
      text=True,
      timeout=300,
    )
  assert out.returncode == 0, out.stderr
  assert not any(path.exists() for path in missing)  # it compiled nothing


@needs_jit
def test_a_compile_helper_imports_the_engine_that_started_it(tmp_path):
  """A helper process started from a folder holding another `engine` package imports this
  one; a helper whose engine has other sources than its parent's refuses to start (it would
  fill the parent's cache with code for another layout)."""
  (tmp_path / "engine").mkdir()
  (tmp_path / "engine" / "__init__.py").write_text("raise SystemExit('the wrong engine')\n")
  out = subprocess.run(
    _stage._helper_command("--help"),
    cwd=tmp_path,
    env=_stage._helper_env(),
    capture_output=True,
    text=True,
    timeout=300,
  )
  assert out.returncode == 0 and "python -m engine.warmup" in out.stdout, out.stderr
  env = dict(_stage._helper_env(), NUMJOCO_SOURCE_HASH="0" * 16)
  out = subprocess.run(
    [sys.executable, "-c", "import engine"], env=env, capture_output=True, text=True, timeout=300
  )
  assert out.returncode != 0
  assert "is not the one whose cache" in out.stderr
