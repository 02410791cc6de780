"""Watch a policy act in an environment: `suite.viewer.launch(environment_loader, policy)`.

Works for any dm_env environment with a `.physics` (suite and composer), like dm_control's
`viewer.launch`. The environment is stepped in real time with the policy's actions (zeros when
there is no policy), and restarted when an episode ends; the info overlay shows the time, the
step, the last reward, the episode's return and the measured real-time factor. The keys are the
model viewer's (F1 lists them): space pauses, the right arrow takes one environment step while
paused, backspace restarts the episode, ctrl + drag pushes the selected body.

    python -m suite.viewer walker walk --policy random

The locomotion examples (suite.locomotion.examples) and soccer matches (`soccer_2v2_boxhead`...,
every player acting on one policy) open with the domain `locomotion` and a
builder's name, or with their builder as the environment loader:

    python -m suite.viewer locomotion cmu_humanoid_run_gaps --policy zero
    suite.viewer.launch(basic_rodent_2020.rodent_escape_bowl)

The manipulation environments (suite.manipulation.ALL) open with the domain `manipulation`, as
dm_control's manipulation explorer does:

    python -m suite.viewer manipulation stack_2_bricks_features
"""

import argparse
import sys
import time
import traceback

import numpy as np

from engine.physics import RenderingUnavailableError
from engine.render import gl_resources
from engine.viewer import session
from engine.viewer.session import STEP_BUDGET
from engine.viewer.session import App
from engine.viewer.session import RealTimeClock


def _zero_action(spec):
  """The action closest to zero that the spec allows (a list of them for a list of specs: one
  per player of a multi-agent environment such as soccer)."""
  if isinstance(spec, (list, tuple)):
    return [_zero_action(s) for s in spec]
  return np.clip(np.zeros(spec.shape, spec.dtype), spec.minimum, spec.maximum)


def random_policy(environment, seed=0):
  """A policy drawing actions uniformly within the action spec's bounds (for every player
  when the spec is a list)."""
  spec = environment.action_spec()
  specs = list(spec) if isinstance(spec, (list, tuple)) else [spec]
  rng = np.random.RandomState(seed)
  bounds = [
    (np.broadcast_to(s.minimum, s.shape), np.broadcast_to(s.maximum, s.shape), s.dtype)
    for s in specs
  ]

  def policy(time_step):
    del time_step
    actions = [rng.uniform(lo, hi).astype(dtype) for lo, hi, dtype in bounds]
    return actions if isinstance(spec, (list, tuple)) else actions[0]

  return policy


class EnvironmentViewer(App):
  """A window that runs `policy` in an environment in real time (see the module doc).

  Args:
    environment_loader: an environment, or a callable returning one.
    policy: callable(time_step) -> action, or None for zero actions.
  """

  def __init__(self, environment_loader, policy=None, title=None, width=1280, height=720):
    env = environment_loader
    if callable(env) and not hasattr(env, "step"):
      env = env()
    if not hasattr(env, "physics"):
      raise TypeError(f"the environment {type(env).__name__} has no .physics to show")
    self.env = env
    self.policy = policy
    self.time_step = env.reset()
    physics = env.physics
    super().__init__(
      physics.model.ptr,
      physics.data.ptr,
      title or f"engine viewer: {type(env).__name__}",
      width,
      height,
    )
    self.clock = RealTimeClock()
    self.episode = 0
    self.steps = 0  # in this episode
    self.total_steps = 0
    self.reward = None
    self.episode_return = 0.0
    self._applied = np.zeros((physics.model.ptr.nbody, 6))
    self._baked = gl_resources.baked_values(physics.model.ptr)
    self._show_info()
    self.viewer.update_scene()

  def _restart(self):
    self.time_step = self.env.reset()
    m, d = self.env.physics.model.ptr, self.env.physics.data.ptr
    baked = gl_resources.baked_values(m)
    if m is not self.viewer.m or d is not self.viewer.d or baked != self._baked:
      # a composer environment may compile a new model at reset, or edit the planes' sizes
      self.viewer.set_model(m, d)
    self._baked = baked
    self._applied = np.zeros((m.nbody, 6))
    self.episode += 1
    self.steps = 0
    self.reward = None
    self.episode_return = 0.0
    self.clock.resync()

  def _action(self):
    if self.policy is None:
      return _zero_action(self.env.action_spec())
    return self.policy(self.time_step)

  def env_step(self):
    """One environment step with the policy's action (a restart after the last step)."""
    if self.time_step.last():
      self._restart()
      return
    self.viewer.apply_perturbation(self.viewer.d, self._applied)
    try:
      action = self._action()
    except Exception:  # the user's policy failed: pause and show it, keep the window
      traceback.print_exc()
      self.viewer.paused = True
      self.viewer.notify("the policy raised an exception (see the terminal); paused", 10)
      return
    self.time_step = self.env.step(action)
    self.steps += 1
    self.total_steps += 1
    self.reward = self.time_step.reward
    if self.reward is not None:
      self.episode_return += float(np.sum(self.reward))

  def advance(self):
    v = self.viewer
    if v.take_load() is not None:
      v.notify("this window shows an environment: files cannot be opened here", 5)
    if v.take_reset():
      self._restart()
    v.process(v.d)
    if v.paused:
      for _ in range(v.take_steps()):
        self.env_step()
      self.clock.resync()
    else:
      start = time.perf_counter()
      dt = float(self.env.control_timestep())
      n = 0
      while (
        not v.paused
        and self.clock.steps(v.d.time, dt, v.speed)
        and time.perf_counter() - start < STEP_BUDGET
      ):
        self.env_step()
        n += 1
      v.measure_steps(n, time.perf_counter() - start)
    v.measure_time(v.d.time)
    self._show_info()
    v.update_scene()

  def _show_info(self):
    reward = "-" if self.reward is None else np.array2string(np.asarray(self.reward), precision=3)
    self.viewer.info = [
      ("Episode", str(self.episode)),
      ("Step", str(self.steps)),
      ("Reward", reward),
      ("Return", f"{self.episode_return:.2f}"),
    ]


def launch(environment_loader, policy=None, title=None, width=1280, height=720):
  """Open a window running `policy` in the environment until it is closed (see module doc)."""
  EnvironmentViewer(environment_loader, policy, title, width, height).run()


def main(argv=None) -> int:
  import suite

  parser = argparse.ArgumentParser(
    prog="python -m suite.viewer", description="Watch a policy in a suite task."
  )
  parser.add_argument(
    "domain",
    help="a suite domain, `locomotion` for the locomotion "
    "examples or `manipulation` for the manipulation environments",
  )
  parser.add_argument(
    "task", help="a task of the domain, a locomotion example builder or a manipulation environment"
  )
  parser.add_argument("--policy", choices=("random", "zero"), default="random")
  parser.add_argument("--seed", type=int, default=0)
  session.add_window_arguments(parser)
  args = parser.parse_args(argv)
  session.check_window_arguments(parser, args)
  try:
    if args.domain == "locomotion":
      from suite.locomotion import examples
      from suite.locomotion import soccer

      if args.task in soccer.BUILDERS:  # a match: one action per player
        env = soccer.BUILDERS[args.task](random_state=args.seed)
      else:
        env = examples.load(args.task, random_state=args.seed)
    elif args.domain == "manipulation":
      from suite import manipulation

      env = manipulation.load(args.task, seed=args.seed)
    else:
      env = suite.load(args.domain, args.task, task_kwargs={"random": args.seed})
  except ValueError as e:
    parser.error(str(e))
  except RenderingUnavailableError as e:  # a camera observable rendered at the first reset
    print(f"error: {e}", file=sys.stderr)
    return 1
  policy = random_policy(env, args.seed) if args.policy == "random" else None
  try:
    app = EnvironmentViewer(env, policy, f"{args.domain} {args.task}", args.width, args.height)
  except RenderingUnavailableError as e:
    print(f"error: {e}", file=sys.stderr)
    return 1
  return session.run_command_line(
    app, args, lambda a: f"episode {a.episode}, step {a.steps}, return {a.episode_return:.2f}"
  )


if __name__ == "__main__":
  sys.exit(main())
