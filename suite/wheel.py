"""Build a wheel that carries the compiled engine: `python -m suite.wheel DIR`.

From a source checkout: the engine's stages and every suite task's kernels are compiled for the
portable CPU baseline (engine/_jit.py) and packed into the wheel, so that installing it on
another machine of the same CPU class and Python starts without compiling. It lives here, at
the top of the stack, because the wheel holds every package's compiled code.
"""

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import suite
from engine import _jit


def warm_suite() -> None:
  """Loads, resets and steps every suite task once: their observation and reward kernels and
  the environment's entry points compile into the cache."""
  for domain, task in suite.ALL_TASKS:
    env = suite.load(domain, task, task_kwargs={"random": 0})
    env.reset()
    env.step(np.zeros(env.action_spec().shape))


def build_wheel(out_dir: str) -> int:
  """Builds a wheel that carries the compiled engine into `out_dir`: compiles the engine and the
  suite's kernels for the portable CPU baseline into engine/_prebuilt of this source tree (in a
  fresh cache root, seeded from this machine's cache of the same sources), runs
  `pip wheel --no-deps` (the package data takes them in; setup.py tags the wheel for this
  Python and platform), then removes engine/_prebuilt again. engine/_jit.py installs the
  prebuilt engine into the user's cache on the first import."""
  if not (_jit.PROJECT_DIR / "pyproject.toml").exists():
    print(
      f"numjoco: a wheel is built from a source tree; {_jit.PROJECT_DIR} has no pyproject.toml",
      file=sys.stderr,
    )
    return 2
  env = {
    k: v
    for k, v in os.environ.items()
    if k
    not in (
      "NUMBA_CACHE_DIR",
      "NUMBA_CPU_NAME",
      "NUMBA_CPU_FEATURES",
      "NUMBA_BOUNDSCHECK",
      "NUMJOCO_NORMAL_CACHE_DIR",
    )
  }
  env.update(
    NUMJOCO_CPU="portable",
    NUMJOCO_BACKGROUND_COMPILE="0",
    PYTHONPATH=os.pathsep.join(filter(None, [str(_jit.PROJECT_DIR), os.environ.get("PYTHONPATH")])),
  )
  try:
    with tempfile.TemporaryDirectory(prefix="numjoco-prebuild-") as root:
      env["XDG_CACHE_HOME"] = root
      probe = subprocess.run(
        [sys.executable, "-c", "from engine import _jit\nprint(_jit.CACHE_DIR)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
      )
      name = pathlib.Path(probe.stdout.split()[-1]).name
      built = pathlib.Path(root, "numjoco")
      for seed in _jit.CACHE_ROOT.glob(name + "*"):
        if seed.is_dir() and "boundscheck" not in seed.name:
          shutil.copytree(seed, built / seed.name, dirs_exist_ok=True)
      subprocess.run(
        [
          sys.executable,
          "-c",
          "from engine import warmup\nwarmup.warmup()\nfrom suite import wheel\nwheel.warm_suite()",
        ],
        env=env,
        check=True,
      )
      shutil.rmtree(_jit.PREBUILT_DIR, ignore_errors=True)
      for folder in built.glob(name + "*"):
        shutil.copytree(
          folder,
          _jit.PREBUILT_DIR / folder.name,
          ignore=shutil.ignore_patterns(".prebuilt", "*.tmp.*"),
        )
    size = sum(f.stat().st_size for f in _jit.PREBUILT_DIR.rglob("*") if f.is_file())
    print(f"numjoco: compiled engine for {_jit.CPU_TARGET}: {size / 1e6:.0f} MB")
    return subprocess.call(
      [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "-w",
        out_dir,
        str(_jit.PROJECT_DIR),
      ]
    )
  finally:
    shutil.rmtree(_jit.PREBUILT_DIR, ignore_errors=True)


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(prog="python -m suite.wheel", description=__doc__)
  parser.add_argument("out_dir", metavar="DIR", help="where the wheel is written")
  return build_wheel(parser.parse_args(argv).out_dir)


if __name__ == "__main__":
  sys.exit(main())
