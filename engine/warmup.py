"""Compile (or load from cache) every engine entry point: `python -m engine.warmup`.

Run once after installing so the first simulation starts at once, and before running tests
in parallel processes so they share one numba cache. The code is generated for a portable
CPU baseline (engine/_jit.py); `--native` switches this machine to code for its own CPU
(every later import uses it; `--portable` switches back). The engine's stages compile in up to
NUMJOCO_COMPILE_JOBS processes (engine/_stage.py); `--claims`/`--stages` and `--background`
are the modes of its helper processes.
"""

import argparse
import contextlib
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


@contextlib.contextmanager
def _only_one(name: str):
  """Yields whether this process holds the cache's lock `name` (an flock, released when the
  process ends however it ends); True where there are no such locks."""
  import os

  from engine import _jit

  try:
    import fcntl
  except ImportError:  # (Windows)
    yield True
    return
  try:
    f = open(os.path.join(_jit.CACHE_DIR, f"{name}.lock"), "w")
  except OSError:  # (a read-only cache: nothing to compile into anyway)
    yield False
    return
  with f:
    try:
      fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
      yield False
      return
    yield True


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
  parser.add_argument(
    "--background",
    action="store_true",
    help="(helper process) compile every stage missing from the cache, slowly",
  )
  target = parser.add_mutually_exclusive_group()
  target.add_argument(
    "--native",
    action="store_true",
    help="generate code for this CPU's every feature and use it from now on",
  )
  target.add_argument(
    "--portable", action="store_true", help="back to the portable baseline code (the default)"
  )
  args = parser.parse_args(argv)
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

    with _only_one("background") as alone:
      if alone:  # (else another process compiles them already)
        os.nice(19)
        for s in _stage.cold_stages(_stage.selected(lazy=True)):
          s.compile()
    return 0
  print(f"engine ready in {warmup():.1f} s")
  return 0


if __name__ == "__main__":
  sys.exit(main())
