"""Where a step's time goes: each pipeline stage timed inside a stepping loop, ours vs MuJoCo.

Both engines step the trajectories of benchmarks/batch.py (reference pose, random velocities,
random controls) in a jitted loop that calls the stages of mj_step one by one and reads the
CPU's cycle counter between them: ours through the engine's stages, MuJoCo's through the C
functions of its shared library (ctypes pointers called from numba, so neither side pays for
Python). Times are per step, in µs, at the counter's rate measured against the wall clock.

  python benchmarks/stages.py --model humanoid
  python benchmarks/stages.py --xml scene.xml --states states.npy   # any model, given states

`--states` holds rows of mjSTATE_FULLPHYSICS states to start the trajectories from (e.g. saved
from an environment's episodes); without it they start at the reference pose with random
velocities.
"""

import argparse
import ctypes
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import numba  # noqa: E402
import numpy as np  # noqa: E402
from batch import _inputs  # noqa: E402
from llvmlite import ir  # noqa: E402
from numba.core import cgutils  # noqa: E402
from numba.core import types  # noqa: E402

import engine  # noqa: E402
from engine import actuation as _actuation  # noqa: E402
from engine import constraint as _constraint  # noqa: E402
from engine import forward as _forward  # noqa: E402
from engine import island as _island  # noqa: E402
from engine import sensor as _sensor  # noqa: E402
from engine import smooth as _smooth  # noqa: E402
from engine import tendon as _tendon  # noqa: E402
from engine._stage import D  # noqa: E402
from engine._stage import M  # noqa: E402
from engine._stage import handle_at  # noqa: E402
from engine.collision import driver as _collision  # noqa: E402
from engine.state import write_state_at  # noqa: E402
from suite import common  # noqa: E402

try:
  import mujoco
except ImportError:  # the comparison is optional
  mujoco = None

FULL = int(engine.mjtState.mjSTATE_FULLPHYSICS)
STAGES = (
  "checks",
  "kinematics",
  "comPos",
  "camlight+tendon",
  "crb",
  "factorM",
  "collision",
  "makeConstraint+island",
  "transmission",
  "sensorPos",
  "fwdVelocity",
  "sensorVel",
  "fwdActuation",
  "fwdAcceleration",
  "fwdConstraint",
  "sensorAcc",
  "checkAcc+Euler",
)


@numba.extending.intrinsic
def _cycles(typingctx):
  """The CPU's time-stamp counter."""

  def codegen(context, builder, signature, args):
    fn = cgutils.get_or_insert_function(
      builder.module, ir.FunctionType(ir.IntType(64), []), "llvm.readcyclecounter"
    )
    return builder.call(fn, [])

  return types.int64(), codegen


@numba.njit
def _ours(mptr, dptr, x0, control, acc):
  m = handle_at(mptr, M)
  d = handle_at(dptr, D)
  for r in range(x0.shape[0]):
    write_state_at(m, d, x0[r], 0, FULL)
    d.qacc_warmstart[:] = 0.0
    for t in range(control.shape[1]):
      d.ctrl[:] = control[r, t]
      c0 = _cycles()
      _forward.check_pos(m, d)
      _forward.check_vel(m, d)
      c1 = _cycles()
      acc[0] += c1 - c0
      _smooth.kinematics(m, d)
      c0 = _cycles()
      acc[1] += c0 - c1
      _smooth.com_pos(m, d)
      c1 = _cycles()
      acc[2] += c1 - c0
      _smooth.camlight(m, d)
      _tendon.tendon(m, d)
      c0 = _cycles()
      acc[3] += c0 - c1
      _smooth.make_m(m, d)
      c1 = _cycles()
      acc[4] += c1 - c0
      _smooth.factor_m(m, d)
      c0 = _cycles()
      acc[5] += c0 - c1
      _collision.collision(m, d)
      c1 = _cycles()
      acc[6] += c1 - c0
      _constraint.make_constraint(m, d)
      _island.island(m, d)
      c0 = _cycles()
      acc[7] += c0 - c1
      _tendon.transmission(m, d)
      c1 = _cycles()
      acc[8] += c1 - c0
      _sensor.sensor_pos(m, d)
      c0 = _cycles()
      acc[9] += c0 - c1
      _forward.fwd_velocity(m, d)
      c1 = _cycles()
      acc[10] += c1 - c0
      _forward.sensors_vel(m, d)
      c0 = _cycles()
      acc[11] += c0 - c1
      _actuation.fwd_actuation(m, d)
      c1 = _cycles()
      acc[12] += c1 - c0
      _forward.fwd_acceleration(m, d)
      c0 = _cycles()
      acc[13] += c0 - c1
      _forward.fwd_constraint(m, d)
      c1 = _cycles()
      acc[14] += c1 - c0
      _forward.sensors_acc(m, d)
      c0 = _cycles()
      acc[15] += c0 - c1
      _forward.check_acc(m, d)
      _forward.euler(m, d)
      c1 = _cycles()
      acc[16] += c1 - c0


def _mujoco_loop():
  """The same loop over MuJoCo's C functions (flags cleared so the lazy sensor inputs,
  subtree velocities and rnePostConstraint, are computed inside their sensor stage)."""
  lib = ctypes.CDLL(
    os.path.join(os.path.dirname(mujoco.__file__), f"libmujoco.so.{mujoco.__version__}")
  )

  def fn(name, nargs=2):
    f = getattr(lib, name)
    f.restype = None
    f.argtypes = [ctypes.c_void_p] * nargs
    return f

  check_pos, check_vel, check_acc = fn("mj_checkPos"), fn("mj_checkVel"), fn("mj_checkAcc")
  kinematics, com_pos, camlight, tendon = (
    fn("mj_kinematics"),
    fn("mj_comPos"),
    fn("mj_camlight"),
    fn("mj_tendon"),
  )
  crb, factor_m, collision, make_constraint = (
    fn("mj_crb"),
    fn("mj_factorM"),
    fn("mj_collision"),
    fn("mj_makeConstraint"),
  )
  island, project = fn("mj_island"), fn("mj_projectConstraint")
  transmission, sensor_pos, fwd_velocity = (
    fn("mj_transmission"),
    fn("mj_sensorPos"),
    fn("mj_fwdVelocity"),
  )
  sensor_vel, fwd_actuation, fwd_acceleration = (
    fn("mj_sensorVel"),
    fn("mj_fwdActuation"),
    fn("mj_fwdAcceleration"),
  )
  fwd_constraint, sensor_acc, euler = (fn("mj_fwdConstraint"), fn("mj_sensorAcc"), fn("mj_Euler"))
  set_state = lib.mj_setState
  set_state.restype = None
  set_state.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

  @numba.njit
  def loop(m, d, x0, control, ctrl, warmstart, flags, acc):
    for r in range(x0.shape[0]):
      set_state(m, d, x0[r].ctypes.data, FULL)
      warmstart[:] = 0.0
      for t in range(control.shape[1]):
        ctrl[:] = control[r, t]
        c0 = _cycles()
        check_pos(m, d)
        check_vel(m, d)
        c1 = _cycles()
        acc[0] += c1 - c0
        kinematics(m, d)
        c0 = _cycles()
        acc[1] += c0 - c1
        com_pos(m, d)
        c1 = _cycles()
        acc[2] += c1 - c0
        camlight(m, d)
        tendon(m, d)
        c0 = _cycles()
        acc[3] += c0 - c1
        crb(m, d)
        c1 = _cycles()
        acc[4] += c1 - c0
        factor_m(m, d)
        c0 = _cycles()
        acc[5] += c0 - c1
        collision(m, d)
        c1 = _cycles()
        acc[6] += c1 - c0
        make_constraint(m, d)
        island(m, d)
        project(m, d)  # efc_AR for PGS and noslip (ours: inside fwdConstraint)
        c0 = _cycles()
        acc[7] += c0 - c1
        transmission(m, d)
        c1 = _cycles()
        acc[8] += c1 - c0
        sensor_pos(m, d)
        c0 = _cycles()
        acc[9] += c0 - c1
        fwd_velocity(m, d)
        c1 = _cycles()
        acc[10] += c1 - c0
        flags[0] = 0
        sensor_vel(m, d)
        c0 = _cycles()
        acc[11] += c0 - c1
        fwd_actuation(m, d)
        c1 = _cycles()
        acc[12] += c1 - c0
        fwd_acceleration(m, d)
        c0 = _cycles()
        acc[13] += c0 - c1
        fwd_constraint(m, d)
        c1 = _cycles()
        acc[14] += c1 - c0
        flags[1] = 0
        sensor_acc(m, d)
        c0 = _cycles()
        acc[15] += c0 - c1
        check_acc(m, d)
        euler(m, d)
        c1 = _cycles()
        acc[16] += c1 - c0

  return loop


def _flags(data):
  """A uint8 view of MjData's flg_subtreevel and flg_rnepost (found by toggling them)."""
  view = np.ctypeslib.as_array((ctypes.c_uint8 * 300000).from_address(data._address))
  data.flg_subtreevel = 0
  data.flg_rnepost = 0
  before = view.copy()
  data.flg_subtreevel = 1
  subtree = int(np.flatnonzero(view != before)[0])
  data.flg_subtreevel = 0
  data.flg_rnepost = 1
  rnepost = int(np.flatnonzero(view != before)[0])
  data.flg_rnepost = 0
  assert rnepost == subtree + 1, "flg_subtreevel and flg_rnepost are not adjacent"
  return np.ctypeslib.as_array((ctypes.c_uint8 * 2).from_address(data._address + subtree))


def _per_stage(run, nsteps):
  """Best of 3 runs: (µs per step of each stage, µs per step in all)."""
  best = None
  for _ in range(3):
    acc = np.zeros(len(STAGES), np.int64)
    start = time.perf_counter()
    run(acc)
    elapsed = time.perf_counter() - start
    if best is None or elapsed < best[1]:
      best = (acc, elapsed)
  acc, elapsed = best
  rate = acc.sum() / elapsed  # counter ticks per second (the stages fill the loop)
  return acc / rate / nsteps * 1e6, elapsed / nsteps * 1e6


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--model", default="humanoid")
  parser.add_argument("--xml", help="an MJCF file instead of a suite model")
  parser.add_argument("--states", help="a .npy file of mjSTATE_FULLPHYSICS rows to start from")
  parser.add_argument("--nbatch", type=int, default=64)
  parser.add_argument("--nstep", type=int, default=200)
  args = parser.parse_args(argv)
  if args.xml:
    m = engine.MjModel.from_xml_path(args.xml)
    load_mujoco = lambda: mujoco.MjModel.from_xml_path(args.xml)  # noqa: E731
  else:
    xml = common.read_model(f"{args.model}.xml")
    m = engine.MjModel.from_xml_string(xml, common.ASSETS)
    load_mujoco = lambda: mujoco.MjModel.from_xml_string(xml, common.ASSETS)  # noqa: E731
  d = engine.MjData(m)
  x0, control = _inputs(m, args.nbatch, args.nstep)
  if args.states:
    states = np.load(args.states)
    x0 = np.ascontiguousarray(states[np.arange(args.nbatch) % len(states)])
  nsteps = args.nbatch * args.nstep
  _ours(m._ptr, d._ptr, x0[:1], control[:1, :2], np.zeros(len(STAGES), np.int64))
  ours, ours_total = _per_stage(lambda acc: _ours(m._ptr, d._ptr, x0, control, acc), nsteps)
  theirs = theirs_total = None
  if mujoco is not None:
    mm = load_mujoco()
    md = mujoco.MjData(mm)
    loop = _mujoco_loop()
    flags = _flags(md)

    def run(acc):
      loop(mm._address, md._address, x0, control, md.ctrl, md.qacc_warmstart, flags, acc)

    loop(
      mm._address,
      md._address,
      x0[:1],
      control[:1, :2],
      md.ctrl,
      md.qacc_warmstart,
      flags,
      np.zeros(len(STAGES), np.int64),
    )
    theirs, theirs_total = _per_stage(run, nsteps)

  print(f"{args.xml or args.model}: {args.nbatch} trajectories x {args.nstep} steps, µs per step")
  print("| stage | ours | MuJoCo | difference |")
  print("|---|---|---|---|")
  for k, name in enumerate(STAGES):
    if theirs is None:
      print(f"| {name} | {ours[k]:.2f} | - | - |")
    else:
      print(f"| {name} | {ours[k]:.2f} | {theirs[k]:.2f} | {ours[k] - theirs[k]:+.2f} |")
  if theirs is None:
    print(f"| step | {ours_total:.2f} | - | - |")
  else:
    print(f"| step | {ours_total:.2f} | {theirs_total:.2f} | {ours_total - theirs_total:+.2f} |")


if __name__ == "__main__":
  main()
