"""Microseconds per mj_step, ours vs MuJoCo's C engine, in a loop and one call per step.

Run: python benchmarks/step.py [--steps N]

For each contact-free model (the test models, the bundled humanoid-like demo and a
random 20-body tree) both engines load the same MJCF and step from the same
state. Two columns per engine: `loop`, n steps in one call (MuJoCo's mj_step with nstep,
ours one numba call), and `1/call`, `mj_step(m, d)` called once per step from Python as
users write RL loops; `+call` is our per-call overhead (1/call minus loop).
Contact-rich models (a capsule humanoid lying on a floor, a pile of 20 boxes, 25 separate
stacks of 3 boxes: 25 constraint islands) step with contacts and the default Newton solver
after 200 settling steps; the pile and the stacks also with PGS, and the pile with Newton
and 5 noslip iterations (the dual solvers iterate on efc_AR). The sleeping scene is 100
boxes resting on a floor with `<flag sleep="enable"/>`, timed once they sleep, against its
awake twin (sleep disabled).
Start-up times are measured by benchmarks/startup.py.
"""

import argparse
import os
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402

try:
  import mujoco
except ImportError:  # the comparison is optional
  mujoco = None


def _models():
  from tests import models
  from tests import trees

  out = [(p.stem, p.read_text(), str(p)) for p in models.all_models()]
  demo = pathlib.Path(engine.__file__).with_name("models") / "chain_humanoid.xml"
  out.append(("chain_humanoid (33 dof)", demo.read_text(), str(demo)))
  out.append(("random_tree_20", trees.random_tree_xml(3, nbody=20), None))
  return out


def _time_per_step(step, nstep, reset, repeats=5):
  """Best of `repeats` runs of step(nstep), each from the same state (reset() before)."""
  best = float("inf")
  for _ in range(repeats):
    reset()
    t0 = time.perf_counter()
    step(nstep)
    best = min(best, time.perf_counter() - t0)
  return 1e6 * best / nstep


def _one_per_call(step_once):
  """A stepping function of n that calls step_once() n times (one mj_step per call)."""

  def run(n):
    for _ in range(n):
      step_once()

  return run


def _times(lib, m, d, nstep):
  """(loop, 1/call) microseconds per step of lib.mj_step on (m, d), both from d's state now
  (so both modes simulate the same trajectory)."""
  sig = lib.mjtState.mjSTATE_INTEGRATION
  state = np.empty(lib.mj_stateSize(m, sig))
  lib.mj_getState(m, d, state, sig)

  def reset():
    lib.mj_setState(m, d, state, sig)

  loop = _time_per_step(lambda n: lib.mj_step(m, d, n), nstep, reset)
  single = _time_per_step(_one_per_call(lambda: lib.mj_step(m, d)), nstep, reset)
  return loop, single


_HEADER = (
  f"{'ours loop':>10s} {'1/call':>7s} {'+call':>6s} {'mujoco loop':>12s} {'1/call':>7s} "
  f"{'ratio':>6s} {'ratio 1/call':>12s}"
)


def _row(ours, theirs):
  (ol, oc), (tl, tc) = ours, theirs
  return f"{ol:10.2f} {oc:7.2f} {oc - ol:6.2f} {tl:12.2f} {tc:7.2f} {ol / tl:6.2f} {oc / tc:12.2f}"


def bench_step(nstep: int):
  print(f"{'model':28s} {'nv':>4s} {_HEADER}")
  ratios = []
  for name, xml, path in _models():
    try:
      m = engine.MjModel.from_xml_path(path) if path else engine.MjModel.from_xml_string(xml)
    except Exception as e:  # noqa: BLE001 - report and continue
      print(f"{name:28s} ours failed to load: {e}")
      continue
    m.opt.disableflags |= engine.mjtDisableBit.mjDSBL_CONSTRAINT
    d = engine.MjData(m)
    engine.mj_step(m, d, 10)
    ours = _times(engine, m, d, nstep)
    theirs = (float("nan"), float("nan"))
    if mujoco is not None:
      mjm = mujoco.MjModel.from_xml_path(path) if path else mujoco.MjModel.from_xml_string(xml)
      mjm.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
      mjd = mujoco.MjData(mjm)
      mujoco.mj_step(mjm, mjd, 10)
      theirs = _times(mujoco, mjm, mjd, nstep)
    ratios.append(ours[0] / theirs[0])
    print(f"{name:28s} {m.nv:4d} {_row(ours, theirs)}")
  print(f"median ratio (loop): {np.median(ratios):.2f}x")


def _scene(bodies, sleep=False):
  flag = '<option><flag sleep="enable"/></option>' if sleep else ""
  return (
    f'<mujoco>{flag}<worldbody><geom type="plane" size="20 20 .1"/>{bodies}</worldbody></mujoco>'
  )


def _stacks():
  """25 separate stacks of 3 boxes: 25 constraint islands."""
  return _scene(
    "".join(
      f'<body pos="{x} {y} {0.1 + 0.2 * k}"><freejoint/><geom type="box" size=".1 .1 .1"/></body>'
      for x in range(5)
      for y in range(5)
      for k in range(3)
    )
  )


def _resting_boxes(sleep):
  """100 boxes resting on a floor, 10 x 10."""
  return _scene(
    "".join(
      f'<body pos="{x * 0.5} {y * 0.5} .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>'
      for x in range(10)
      for y in range(10)
    ),
    sleep,
  )


def _contact_models():
  """Contact-rich models: (name, xml, path, settling steps)."""
  root = ROOT / "tests" / "models" / "contact"
  out = [
    (p.stem, None, str(p), 200) for p in (root / "capsule_humanoid.xml", root / "box_pile.xml")
  ]
  out.append(("stacks (25 islands)", _stacks(), None, 200))
  pile = (root / "box_pile.xml").read_text()
  for option, label in (('solver="PGS"', "PGS"), ('noslip_iterations="5"', "noslip")):
    out.append((f"box_pile, {label}", pile.replace("<option ", f"<option {option} ", 1), None, 200))
  out.append(
    ("stacks, PGS", _stacks().replace("<mujoco>", '<mujoco><option solver="PGS"/>'), None, 200)
  )
  out.append(("100 boxes, awake", _resting_boxes(False), None, 300))
  out.append(("100 boxes, asleep", _resting_boxes(True), None, 300))
  return out


def _load(lib, xml, path):
  return lib.MjModel.from_xml_path(path) if path else lib.MjModel.from_xml_string(xml)


def bench_contact(nstep: int):
  """Both engines step the same contact-rich model from the same start."""
  print(f"\n{'contact model':22s} {'nv':>4s} {'ncon':>5s} {_HEADER}")
  for name, xml, path, settle in _contact_models():
    m = _load(engine, xml, path)
    d = engine.MjData(m)
    engine.mj_step(m, d, settle)  # settle into contact (and sleep)
    ours = _times(engine, m, d, nstep)
    theirs = (float("nan"), float("nan"))
    if mujoco is not None:
      mjm = _load(mujoco, xml, path)
      mjd = mujoco.MjData(mjm)
      mujoco.mj_step(mjm, mjd, settle)
      theirs = _times(mujoco, mjm, mjd, nstep)
    print(f"{name:22s} {m.nv:4d} {d.ncon:5d} {_row(ours, theirs)}")


if __name__ == "__main__":
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--steps", type=int, default=2000)
  args = parser.parse_args()
  print(
    f"numjoco benchmark, {time.strftime('%Y-%m-%d')}, python {sys.version.split()[0]}, "
    f"mujoco {getattr(mujoco, '__version__', 'not installed')}, {os.cpu_count()} cpus"
  )
  bench_step(args.steps)
  bench_contact(args.steps)
