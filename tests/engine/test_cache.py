"""Where the compiled engine is cached, for which CPU, and in how many processes it compiles.

The numba cache is keyed on the sources' contents and on the CPU class the code is generated
for, not on where the sources are installed: a copy of the packages in another folder (a
second venv, a regular install beside an editable one, another clone) loads every stage from
the same cache and compiles nothing. The code targets a portable baseline (x86-64-v3 on an
AVX2 machine) unless this machine asked for native code.
"""

import os
import platform
import shutil
import subprocess
import sys

import numba
import pytest

from engine import _jit
from engine import _stage

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="about compiled code")


def test_code_targets_the_portable_baseline():
  from numba.core.registry import cpu_target

  triple, cpu, features = cpu_target.target_context.codegen().magic_tuple()
  if os.environ.get("NUMJOCO_CPU") == "native" or _jit.CPU_TARGET.startswith("native-"):
    assert cpu == _jit.CPU_TARGET[len("native-"):]
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
    shutil.copytree(_jit.ENGINE_DIR.parent / package, tmp_path / package,
                    ignore=shutil.ignore_patterns("__pycache__"))
  script = ("import engine, engine._jit as j, engine._stage as s\n"
            "print(engine.__file__)\nprint(j.CACHE_DIR)\n"
            "print(len(s.cold_stages(False)))\n"
            "m = engine.MjModel.from_xml_string('<mujoco><worldbody><body><freejoint/>"
            "<geom size=\".1\"/></body></worldbody></mujoco>')\n"
            "d = engine.MjData(m)\nengine.mj_step(m, d, 10)\n")
  env = dict(os.environ, PYTHONPATH=str(tmp_path))
  out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
  assert out.returncode == 0, out.stderr
  path, cache, cold = out.stdout.split()
  assert path.startswith(str(tmp_path))
  assert cache == _jit.CACHE_DIR  # the same sources: the same cache
  assert cold == "0", out.stderr  # every stage found there
  assert "compil" not in out.stderr, out.stderr  # and stepping compiled nothing either


def test_native_code_on_request():
  # NUMJOCO_CPU=native (or `python -m engine.warmup --native`): this CPU's name and features,
  # in a cache directory of its own
  script = ("from engine import _jit\nfrom numba.core.registry import cpu_target\n"
            "print(_jit.CPU_TARGET, _jit.CACHE_DIR)\n"
            "print(*cpu_target.target_context.codegen().magic_tuple()[1:], sep='|')\n")
  env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU")}
  env.update(NUMJOCO_CPU="native")
  out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                       text=True, timeout=300)
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
