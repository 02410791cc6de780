"""Nanoseconds per call of each suite task's observe and reward kernels: the work they add to
every world's step (suite/kernels.py), measured in a jitted loop calling them by address as
the batched step does.

Run: python benchmarks/kernels.py [--calls N] [DOMAIN[/TASK] ...]
"""

import argparse
import pathlib
import sys
import time

import numba
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import suite  # noqa: E402
from engine._stage import D  # noqa: E402
from engine._stage import M  # noqa: E402
from engine._stage import handle_at  # noqa: E402
from suite import base  # noqa: E402
from suite import kernels  # noqa: E402


@numba.njit
def _calls(address, mptr, dptr, params, out, n):
  m = handle_at(mptr, M)
  d = handle_at(dptr, D)
  for _ in range(n):
    kernels._call(address, m, d, params, out)


def _ns_per_call(kernel, physics, params, out, calls, repeats=5):
  args = (kernel.address(), physics.model.ptr._ptr, physics.data.ptr._ptr, params, out)
  _calls(*args, 10)
  best = float("inf")
  for _ in range(repeats):
    t0 = time.perf_counter()
    _calls(*args, calls)
    best = min(best, time.perf_counter() - t0)
  return 1e9 * best / calls


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("tasks", nargs="*", help="domains or domain/task (default: all)")
  parser.add_argument("--calls", type=int, default=200_000)
  args = parser.parse_args()
  print(f"{'task':30s} {'observe ns':>10s} {'reward ns':>10s}")
  for domain, task in suite.ALL_TASKS:
    if args.tasks and not any(p in (domain, f"{domain}/{task}") for p in args.tasks):
      continue
    env = suite.load(domain, task, task_kwargs={"random": 0})
    env.reset()
    env.step(np.zeros(env.action_spec().shape))
    task_, physics = env.task, env.physics
    params = task_.kernel_params(physics)
    obs = np.empty(base.observation_size(task_.observation_layout(physics)))
    observe = _ns_per_call(task_.observe_kernel, physics, params, obs, args.calls)
    reward = _ns_per_call(task_.reward_kernel, physics, params, np.empty(2), args.calls)
    print(f"{domain + '/' + task:30s} {observe:10.1f} {reward:10.1f}", flush=True)


if __name__ == "__main__":
  main()
