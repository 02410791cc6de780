"""Batched simulation speed: engine.rollout vs mujoco.rollout, and vectorised suite
environments vs dm_control and EnvPool.

Run: python benchmarks/batch.py [--part rollout|envs|all] [--nbatch N] [--nstep T]
       [--models cartpole,cheetah,humanoid] [--tasks cartpole/swingup,cheetah/run]
       [--num-envs 1,16,256,4096]

Rollouts: for each suite model both engines roll out N trajectories of T steps from the same
initial states (the model's reference pose with random velocities) under the same random
controls, on 1 thread (one MjData) and on 2 threads (two MjData), and report steps per second
(N*T over the best of 3 calls, the engines taking turns) and the ratio ours / MuJoCo (higher is
better). The first call of each configuration is a warm-up (our parallel driver compiles there,
about a second). Then the memory of one world: an MjData (the model is shared by all worlds).

Environments: environment steps per second (one step = one action of one world, with its
physics, reward and observation) of `suite.load(..., num_envs=N)` on all threads, against a
Python loop over one dm_control environment (dm_control's way to step several: one after the
other) and over one of ours, and EnvPool's dm_control task with N environments on all threads
(a C++ thread pool over MuJoCo), where installed. Random actions; steps inside episodes (the
reset of all worlds is timed apart, per world); best of 3 rounds, ours and EnvPool's taking turns
twice.
"""

import argparse
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import engine  # noqa: E402
from suite import common  # noqa: E402

try:
  import mujoco
  from mujoco import rollout as mujoco_rollout
except ImportError:  # the comparison is optional
  mujoco = None

FULL = int(engine.mjtState.mjSTATE_FULLPHYSICS)


def _inputs(m, nbatch, nstep):
  d = engine.MjData(m)
  rng = np.random.RandomState(0)
  x0 = np.zeros((nbatch, engine.mj_stateSize(m, FULL)))
  for i in range(nbatch):
    engine.mj_resetData(m, d)
    d.qvel[:] = 0.1 * rng.randn(m.nv)
    engine.mj_getState(m, d, x0[i], FULL)
  lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
  control = rng.uniform(lo, hi, (nbatch, nstep, m.nu))
  return x0, control


def _alternating_rates(runs, count, rounds=3):
  """count / the best time of each of `runs` over `rounds` rounds, the runs taking turns in
  every round (after one warm-up call each) so that a busy host's drift hits all alike."""
  for run in runs:
    run()
  best = [float("inf")] * len(runs)
  for _ in range(rounds):
    for k, run in enumerate(runs):
      t0 = time.perf_counter()
      run()
      best[k] = min(best[k], time.perf_counter() - t0)
  return [count / b for b in best]


def _best_rate(run, count, rounds=3):
  """count / the best time of `rounds` calls of run()."""
  best = float("inf")
  for _ in range(rounds):
    t0 = time.perf_counter()
    run()
    best = min(best, time.perf_counter() - t0)
  return count / best


def _loop_rate(env, nstep):
  """Env steps/s of a Python loop over one dm_env environment (random actions)."""
  spec = env.action_spec()
  actions = np.random.RandomState(0).uniform(spec.minimum, spec.maximum, (nstep,) + spec.shape)
  env.reset()

  def run():
    for a in actions:
      env.step(a)

  return _best_rate(run, nstep)


def _vector_rate(env, nstep):
  """Env steps/s of a vectorised environment; and its reset time per world."""
  spec = env.action_spec()
  actions = np.random.RandomState(0).uniform(
    spec.minimum, spec.maximum, (nstep, env.num_envs) + spec.shape
  )
  t0 = time.perf_counter()
  env.reset()
  reset = (time.perf_counter() - t0) / env.num_envs
  env.step(actions[0])  # warm-up: the parallel driver compiles on its first call

  def run():
    for a in actions:
      env.step(a)

  return _best_rate(run, nstep * env.num_envs), reset


def _envpool_rate(task_id, num_envs, nstep):
  """EnvPool's env steps/s, measured in a child process: EnvPool's MuJoCo data take several MB
  per environment, and where they exhaust memory the kernel kills the child, not this run.
  Returns the rate or a short text saying why there is none."""
  import multiprocessing

  context = multiprocessing.get_context("spawn")
  queue = context.Queue()
  child = context.Process(target=_envpool_child, args=(task_id, num_envs, nstep, queue))
  child.start()
  child.join()
  if child.exitcode != 0:
    return "killed (out of memory)" if child.exitcode == -9 else f"failed ({child.exitcode})"
  return queue.get()


def _envpool_child(task_id, num_envs, nstep, queue):
  import envpool

  env = envpool.make_dm(task_id, num_envs=num_envs, batch_size=num_envs, num_threads=os.cpu_count())
  spec = env.action_spec()
  actions = np.random.RandomState(0).uniform(
    spec.minimum, spec.maximum, (nstep, num_envs) + spec.shape
  )
  ids = np.arange(num_envs)
  env.reset()

  def run():
    for a in actions:
      env.step(a, ids)

  queue.put(_best_rate(run, nstep * num_envs))


def bench_envs(tasks, sizes, budget=2.0e5):
  """The environment table; `budget` bounds the env steps of one measurement."""
  import suite

  os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control: physics only, no GL context
  try:
    from dm_control import suite as dm_suite
  except ImportError:
    dm_suite = None
  try:
    import envpool  # noqa: F401
  except ImportError:
    envpool = None
  print(f"\nvectorised environments: env steps/s (best of 3), {os.cpu_count()} cores")
  print(
    "| task | N | ours vectorised | reset ms/world | ours loop | dm_control loop | "
    "EnvPool | ours / dm_control | ours / EnvPool |"
  )
  print("|---|---|---|---|---|---|---|---|---|")
  for task in tasks:
    domain, name = task.split("/")
    ours_loop = _loop_rate(suite.load(domain, name, task_kwargs={"random": 0}), 500)
    theirs_loop = (
      _loop_rate(dm_suite.load(domain, name, task_kwargs={"random": 0}), 500) if dm_suite else None
    )
    pool_id = "".join(part.capitalize() for part in (domain + "_" + name).split("_")) + "-v1"
    for n in sizes:
      nstep = int(max(5, min(200, budget // n)))
      # two rounds, ours then EnvPool's in each, the best of each kept: a busy host's drift
      # hits both alike
      env = suite.load(domain, name, task_kwargs={"random": 0}, num_envs=n)
      ours, reset, pool = 0.0, float("inf"), None
      for _ in range(2):
        rate, reset_time = _vector_rate(env, nstep)
        ours = max(ours, rate)
        reset = min(reset, reset_time)
        if envpool:
          rate = _envpool_rate(pool_id, n, nstep)
          if isinstance(rate, float):
            pool = max(pool, rate) if isinstance(pool, float) else rate
          elif not isinstance(pool, float):
            pool = rate  # why there is no rate
      del env
      measured = isinstance(pool, float)
      cells = [
        f"{ours:,.0f}",
        f"{reset * 1e3:.2f}",
        f"{ours_loop:,.0f}",
        f"{theirs_loop:,.0f}" if theirs_loop else "-",
        f"{pool:,.0f}" if measured else (pool or "-"),
        f"{ours / theirs_loop:.1f}" if theirs_loop else "-",
        f"{ours / pool:.2f}" if measured else "-",
      ]
      print(f"| {task} | {n} | " + " | ".join(cells) + " |")


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--part", choices=("rollout", "envs", "all"), default="all")
  parser.add_argument("--nbatch", type=int, default=64)
  parser.add_argument("--nstep", type=int, default=200)
  parser.add_argument("--models", default="cartpole,cheetah,humanoid")
  parser.add_argument("--tasks", default="cartpole/swingup,cheetah/run")
  parser.add_argument("--num-envs", default="1,16,256,4096")
  args = parser.parse_args(argv)
  if args.part in ("rollout", "all"):
    bench_rollout(args)
  if args.part in ("envs", "all"):
    bench_envs(args.tasks.split(","), [int(n) for n in args.num_envs.split(",")])


def bench_rollout(args):
  print(
    f"engine.rollout vs mujoco.rollout: {args.nbatch} trajectories x {args.nstep} steps, "
    f"steps/s (best of 3), {os.cpu_count()} cores"
  )
  print("| model | threads | ours steps/s | MuJoCo steps/s | ratio |")
  print("|---|---|---|---|---|")
  for name in args.models.split(","):
    xml = common.read_model(f"{name}.xml")
    m = engine.MjModel.from_xml_string(xml, common.ASSETS)
    x0, control = _inputs(m, args.nbatch, args.nstep)
    theirs_model = mujoco.MjModel.from_xml_string(xml, common.ASSETS) if mujoco else None
    for nthread in (1, 2):
      datas = [engine.MjData(m) for _ in range(nthread)]
      runs = [lambda: engine.rollout.rollout(m, datas, x0, control)]
      if theirs_model is not None:
        their_datas = [mujoco.MjData(theirs_model) for _ in range(nthread)]
        runs.append(lambda: mujoco_rollout.rollout(theirs_model, their_datas, x0, control))
      rates = _alternating_rates(runs, args.nbatch * args.nstep)
      if theirs_model is None:
        print(f"| {name} | {nthread} | {rates[0]:,.0f} | - | - |")
        continue
      ours, theirs = rates
      print(f"| {name} | {nthread} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f} |")
  print("\nmemory per world (one MjData; the model is shared):")
  for name in args.models.split(","):
    xml = common.read_model(f"{name}.xml")
    d = engine.MjData(engine.MjModel.from_xml_string(xml, common.ASSETS))
    ours = sum(a.nbytes for a in d._arrays.values() if isinstance(a, np.ndarray))
    line = f"  {name}: ours {ours / 1e6:.2f} MB"
    if mujoco:
      md = mujoco.MjData(mujoco.MjModel.from_xml_string(xml, common.ASSETS))
      line += (
        f", MuJoCo {(md.nbuffer + md.narena) / 1e6:.2f} MB (buffer {md.nbuffer / 1e3:.0f}"
        f" kB + arena {md.narena / 1e6:.1f} MB)"
      )
    print(line)


if __name__ == "__main__":
  main()
