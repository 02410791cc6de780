"""The wheel that carries the compiled engine: built from this source tree, installed into a
fresh virtual environment with an empty cache, its first `python -m suite cartpole swingup`
compiles nothing.

Slow (a few minutes: the suite's kernels compile for the wheel, pip installs the dependencies
from the package index): `python -m pytest -m slow tests/suite/test_wheel.py`.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import time
import zipfile

import numba
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# the first run of the installed wheel, counting what numba compiles (a cache load is no
# compile event)
_FIRST_RUN = """
import runpy, sys, time
t0 = time.perf_counter()
from numba.core import event
compiled = []
class Count(event.Listener):
  def on_start(self, ev): compiled.append(ev.data["dispatcher"].py_func.__qualname__)
  def on_end(self, ev): pass
event.register("numba:compile", Count())
sys.argv = ["suite", "cartpole", "swingup"]
try:
  runpy.run_module("suite", run_name="__main__")
except SystemExit as e:
  assert not e.code, e.code
import engine
print("ENGINE", engine.__file__)
print("COMPILED", len(compiled), *compiled)
print("SECONDS", time.perf_counter() - t0)
"""


@pytest.mark.slow
@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="about compiled code")
def test_the_wheel_starts_without_compiling(tmp_path):
  src = tmp_path / "src"
  shutil.copytree(
    ROOT,
    src,
    ignore=shutil.ignore_patterns(
      ".git", ".venv", "dist", "build", "*.egg-info", "__pycache__", "_prebuilt"
    ),
  )
  env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "NUMJOCO_"))}
  subprocess.run(
    [sys.executable, "-m", "suite.wheel", str(tmp_path / "dist")],
    cwd=src,
    env=dict(env, PYTHONPATH=str(src)),
    check=True,
    timeout=3600,
  )
  assert not (src / "engine" / "_prebuilt").exists()  # (the source tree is left clean)
  (wheel,) = (tmp_path / "dist").glob("*.whl")
  python = f"cp{sys.version_info.major}{sys.version_info.minor}"
  assert f"-{python}-{python}-" in wheel.name  # machine code for one Python and platform
  with zipfile.ZipFile(wheel) as z:
    assert any("engine/_prebuilt/" in n and n.endswith(".nbc") for n in z.namelist())

  venv = tmp_path / "venv"
  subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
  subprocess.run(
    [venv / "bin" / "python", "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=1800
  )
  t0 = time.perf_counter()
  out = subprocess.run(
    [venv / "bin" / "python", "-c", _FIRST_RUN],
    cwd=tmp_path,
    env=dict(env, XDG_CACHE_HOME=str(tmp_path / "empty-cache")),
    capture_output=True,
    text=True,
    timeout=600,
  )
  wall = time.perf_counter() - t0
  assert out.returncode == 0, out.stderr
  lines = dict(
    line.split(" ", 1)
    for line in out.stdout.splitlines()
    if line.startswith(("ENGINE", "COMPILED", "SECONDS"))
  )
  assert lines["ENGINE"].startswith(str(venv))
  assert lines["COMPILED"] == "0", lines["COMPILED"]
  assert "compil" not in out.stderr, out.stderr
  print(f"wheel {wheel.name} ({wheel.stat().st_size / 1e6:.0f} MB): first run {wall:.1f} s")
