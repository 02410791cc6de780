"""Microseconds each layer adds over the physics step: ours vs MuJoCo + dm_control, in one run.

Run: python benchmarks/layers.py [--steps N] [--repeats R] [DOMAIN/TASK ...]

For each Control Suite task both stacks load the same task and time, from the same state:

  loop     one physics step inside `mj_step(m, d, N)` (no Python between steps)
  call     `mj_step(m, d)` once per step from Python, as RL loops and Gymnasium call it
  physics  `physics.step()` (engine.Physics / dm_control's mujoco.Physics) once per step
  env      `env.step(action)` of the suite task, per physics step it runs (a control step is
           `physics.step(n_sub_steps)`, plus the task's before_step, observations and reward)

and the overhead of each layer over the one below: call - loop, physics - call, and the
environment's own work per control step (env.step minus `physics.step(n_sub_steps)`). Best of
R runs of N steps each; MuJoCo's columns are its C engine through its Python bindings and
dm_control 1.0.50 on it.
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
import suite  # noqa: E402

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context
try:
  import mujoco
  from dm_control import suite as dm_suite
except ImportError:  # the comparison is optional
  mujoco = dm_suite = None

TASKS = ["cartpole/swingup", "cheetah/run", "walker/walk", "humanoid/run"]


def _best(run, repeats):
  best = float("inf")
  for _ in range(repeats):
    t0 = time.perf_counter()
    run()
    best = min(best, time.perf_counter() - t0)
  return best


def _layers(lib, env, steps, repeats):
  """µs per physics step of each layer (loop, call, physics, env) of one loaded task."""
  physics = env.physics
  m, d = physics.model.ptr, physics.data.ptr
  n_sub = env._n_sub_steps
  rng = np.random.default_rng(0)
  spec = env.action_spec()
  actions = rng.uniform(spec.minimum, spec.maximum, (steps,) + spec.shape)
  env.reset()
  start = physics.get_state().copy()

  def reset():
    with physics.reset_context():
      physics.set_state(start)

  def loop():
    reset()
    lib.mj_step(m, d, steps)

  def call():
    reset()
    step = lib.mj_step
    for _ in range(steps):
      step(m, d)

  def physics_step():
    reset()
    step = physics.step
    for _ in range(steps):
      step()

  def physics_control_step():
    reset()
    step = physics.step
    for _ in range(steps):
      step(n_sub)

  def env_step():
    env.reset()
    for action in actions:
      if env.step(action).last():
        env.reset()

  out = {}
  for name, run, n in (
    ("loop", loop, steps),
    ("call", call, steps),
    ("physics", physics_step, steps),
    ("physics_n", physics_control_step, steps),
    ("env", env_step, steps * n_sub),
  ):
    out[name] = 1e6 * _best(run, repeats) / n
  out["env_own"] = n_sub * out["env"] - out["physics_n"]  # per control step
  out["n_sub"] = n_sub
  return out


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("tasks", nargs="*", default=TASKS)
  parser.add_argument("--steps", type=int, default=500)
  parser.add_argument("--repeats", type=int, default=5)
  args = parser.parse_args()
  engine.mj_step  # noqa: B018 (imported and linked before timing)
  print(f"µs per physics step, best of {args.repeats} x {args.steps} steps (MuJoCo in brackets)")
  header = "task               loop          call          physics       env        "
  print(header + "  +call        +physics     env's own per control step")
  for task in args.tasks:
    domain, name = task.split("/")
    env = suite.load(domain, name, task_kwargs={"random": 0})
    _layers(engine, env, args.steps, 1)  # first calls: nothing left to load while timing
    ours = _layers(engine, env, args.steps, args.repeats)
    theirs = None
    if dm_suite is not None:
      env = dm_suite.load(domain, name, task_kwargs={"random": 0})
      theirs = _layers(mujoco, env, args.steps, args.repeats)

    def cell(key, ours=ours, theirs=theirs):
      mine = f"{ours[key]:6.2f}"
      return f"{mine} [{theirs[key]:6.2f}]" if theirs else f"{mine}         "

    plus_call = f"{ours['call'] - ours['loop']:5.2f}"
    plus_physics = f"{ours['physics'] - ours['call']:5.2f}"
    if theirs:
      plus_call += f" [{theirs['call'] - theirs['loop']:5.2f}]"
      plus_physics += f" [{theirs['physics'] - theirs['call']:5.2f}]"
    own = f"{ours['env_own']:6.1f}" + (f" [{theirs['env_own']:6.1f}]" if theirs else "")
    print(
      f"{task:18s} {cell('loop')} {cell('call')} {cell('physics')} {cell('env')}"
      f" {plus_call} {plus_physics} {own} (n_sub {ours['n_sub']})"
    )


if __name__ == "__main__":
  main()
