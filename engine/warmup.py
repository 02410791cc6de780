"""Compile (or load from cache) every engine entry point: `python -m engine.warmup`.

Run once after installing so the first simulation starts at once, and before running tests
in parallel processes so they share one numba cache. The code is generated for a portable
CPU baseline (engine/_jit.py); `--native` switches this machine to code for its own CPU
(every later import uses it; `--portable` switches back). The engine's stages compile in up to
NUMJOCO_COMPILE_JOBS processes (engine/_stage.py); `--claims`/`--stages` and `--background`
are the modes of its helper processes.
"""

import argparse
import pathlib
import sys
import time

import numpy as np


# a model whose loading runs the compiler's jitted code: a gradient skybox with random marks,
# meshes (convex hull, bounding-volume tree)
_COMPILER_WARMUP = """<mujoco><asset>
  <texture type="skybox" builtin="gradient" rgb1="1 1 1" rgb2="0 0 0" width="16" height="16"
           mark="random" random="0.1" markrgb="1 1 1"/>
  <mesh name="tetrahedron" vertex="0 0 0  1 0 0  0 1 0  0 0 1"/></asset>
  <worldbody><geom type="mesh" mesh="tetrahedron"/>
    <body pos="0 0 2"><freejoint/><geom type="mesh" mesh="tetrahedron"/></body></worldbody>
</mujoco>"""


def warmup() -> float:
  """Compiles every stage and entry point on the bundled model; returns the seconds it took."""
  t0 = time.perf_counter()
  import engine
  from engine import _stage

  _stage.compile_all(lazy=True)

  path = pathlib.Path(engine.__file__).with_name("models") / "chain_humanoid.xml"
  m = engine.MjModel.from_xml_path(path)
  d = engine.MjData(m)
  engine.mj_step(m, d, 2)
  engine.mj_step1(m, d)
  engine.mj_step2(m, d)
  engine.mj_forward(m, d)
  jac = np.zeros((3, m.nv))
  engine.mj_jacBody(m, d, jac, jac.copy(), 1)
  engine.mj_fullM(m, d, np.zeros((m.nv, m.nv)))
  engine.MjModel.from_xml_string(_COMPILER_WARMUP)  # the MJCF compiler's own jitted functions
  return time.perf_counter() - t0


def warm_suite() -> None:
  """Loads, resets and steps every suite task once: their observation and reward kernels and
  the environment's entry points compile into the cache."""
  import suite

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
  import os
  import shutil
  import subprocess
  import tempfile

  from engine import _jit

  if not (_jit.PROJECT_DIR / "pyproject.toml").exists():
    print(f"numjoco: --wheel needs a source tree; {_jit.PROJECT_DIR} has no pyproject.toml",
          file=sys.stderr)
    return 2
  env = {k: v for k, v in os.environ.items()
         if k not in ("NUMBA_CACHE_DIR", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES",
                      "NUMBA_BOUNDSCHECK", "NUMJOCO_NORMAL_CACHE_DIR")}
  env.update(NUMJOCO_CPU="portable", NUMJOCO_BACKGROUND_COMPILE="0",
             PYTHONPATH=os.pathsep.join(filter(None, [str(_jit.PROJECT_DIR),
                                                      os.environ.get("PYTHONPATH")])))
  try:
    with tempfile.TemporaryDirectory(prefix="numjoco-prebuild-") as root:
      env["XDG_CACHE_HOME"] = root
      probe = subprocess.run([sys.executable, "-c", "from engine import _jit\n"
                              "print(_jit.CACHE_DIR)"], env=env, capture_output=True, text=True,
                             check=True)
      name = pathlib.Path(probe.stdout.split()[-1]).name
      built = pathlib.Path(root, "numjoco")
      for seed in _jit.CACHE_ROOT.glob(name + "*"):
        if seed.is_dir() and "boundscheck" not in seed.name:
          shutil.copytree(seed, built / seed.name, dirs_exist_ok=True)
      subprocess.run([sys.executable, "-c", "from engine import warmup\nwarmup.warmup()\n"
                      "warmup.warm_suite()"], env=env, check=True)
      shutil.rmtree(_jit.PREBUILT_DIR, ignore_errors=True)
      for folder in built.glob(name + "*"):
        shutil.copytree(folder, _jit.PREBUILT_DIR / folder.name,
                        ignore=shutil.ignore_patterns(".prebuilt", "*.tmp.*"))
    size = sum(f.stat().st_size for f in _jit.PREBUILT_DIR.rglob("*") if f.is_file())
    print(f"numjoco: compiled engine for {_jit.CPU_TARGET}: {size / 1e6:.0f} MB")
    return subprocess.call([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                            out_dir, str(_jit.PROJECT_DIR)])
  finally:
    shutil.rmtree(_jit.PREBUILT_DIR, ignore_errors=True)


def _switch_cpu_target(choice: str) -> int:
  """Records the code-generation choice for later imports (engine/_jit.py reads it) and warms
  up the engine with it in a fresh process (this one chose its target at import)."""
  import os
  import subprocess

  from engine import _jit

  _jit.CPU_PREFERENCE.parent.mkdir(parents=True, exist_ok=True)
  if choice == "native":
    _jit.CPU_PREFERENCE.write_text("native\n")
  else:
    _jit.CPU_PREFERENCE.unlink(missing_ok=True)
  env = {k: v for k, v in os.environ.items() if k != "NUMJOCO_CPU"}
  print(f"numjoco: {choice} code from now on ({_jit.CPU_PREFERENCE})")
  return subprocess.call([sys.executable, "-m", "engine.warmup"], env=env)


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(prog="python -m engine.warmup", description=__doc__)
  parser.add_argument("--claims", help="(helper process) compile the stages claimed in DIR")
  parser.add_argument("--stages", help="(helper process) the stages to claim, comma-separated")
  parser.add_argument("--background", action="store_true",
                      help="(helper process) compile every stage missing from the cache, slowly")
  parser.add_argument("--wheel", metavar="DIR",
                      help="build a wheel carrying the engine compiled for the portable "
                      "baseline into DIR (from a source tree)")
  target = parser.add_mutually_exclusive_group()
  target.add_argument("--native", action="store_true",
                      help="generate code for this CPU's every feature and use it from now on")
  target.add_argument("--portable", action="store_true",
                      help="back to the portable baseline code (the default)")
  args = parser.parse_args(argv)
  if args.wheel:
    return build_wheel(args.wheel)
  if args.native or args.portable:
    return _switch_cpu_target("native" if args.native else "portable")
  if args.claims:
    from engine import _stage

    by_name = {s.name: s for s in _stage.STAGES}
    stages = [by_name[name] for name in args.stages.split(",")]
    _stage.compile_claimed(stages, args.claims, time.perf_counter(), report=False)
    return 0
  if args.background:
    import os

    from engine import _stage

    os.nice(19)
    for s in _stage.cold_stages(_stage.selected(lazy=True)):
      s.compile()
    return 0
  print(f"engine ready in {warmup():.1f} s")
  return 0


if __name__ == "__main__":
  sys.exit(main())
