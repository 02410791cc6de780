"""Run a locomotion example: `python -m suite.locomotion BUILDER [--episodes N] [--steps N]`.

Builds the environment of one of `suite.locomotion.examples`'s builders (`--list` names them),
prints its action and observation specs, then runs episodes with uniform random actions (or
zero actions) and prints each episode's return, length and speed (environment steps per second,
observations and reward included; the egocentric camera of the builders that enable it is
rendered at every step, so they need OpenGL). `--steps N` ends an episode after N steps at most.
The soccer matches (`soccer_2v2_boxhead` etc., see `--list`) take one action per player, all
drawn by the same policy; their return is the sum over the players.
"""

import argparse
import os
import sys
import time

import numpy as np

from engine.physics import RenderingUnavailableError
from suite.locomotion import examples
from suite.locomotion import soccer


def main(argv=None) -> int:
  parser = argparse.ArgumentParser(
    prog="python -m suite.locomotion", description=__doc__.splitlines()[0]
  )
  parser.add_argument("builder", nargs="?", help="an example builder (see --list)")
  parser.add_argument("--list", action="store_true", help="list the builders and exit")
  parser.add_argument("--episodes", type=int, default=1)
  parser.add_argument(
    "--steps", type=int, help="at most N steps per episode (default: until the episode ends)"
  )
  parser.add_argument("--seed", type=int, default=0, help="environment and policy seed")
  parser.add_argument(
    "--mocap-file",
    help="for cmu_humanoid_tracking and cmu_humanoid_mocap_playback: an HDF5 file of "
    "motion-capture clips to track (sets $NUMJOCO_MOCAP_FILE)",
  )
  policy = parser.add_mutually_exclusive_group()
  policy.add_argument(
    "--random-actions",
    dest="policy",
    action="store_const",
    const="random",
    help="uniform random actions within the action spec (the default)",
  )
  policy.add_argument(
    "--zero-actions",
    dest="policy",
    action="store_const",
    const="zero",
    help="the action closest to zero that the spec allows",
  )
  parser.set_defaults(policy="random")
  args = parser.parse_args(argv)
  if args.list:
    for name, builder in {**examples.ALL_BUILDERS, **soccer.BUILDERS}.items():
      print(f"{name:28s} {builder.__doc__.splitlines()[0]}")
    return 0
  if args.builder is None:
    parser.error("name a builder (one of: " + ", ".join(examples.ALL_BUILDERS) + ")")
  if args.episodes < 1:
    parser.error("--episodes must be at least 1")
  if args.steps is not None and args.steps < 1:
    parser.error("--steps must be at least 1")

  if args.mocap_file:
    os.environ["NUMJOCO_MOCAP_FILE"] = args.mocap_file
  t0 = time.perf_counter()
  try:
    if args.builder in soccer.BUILDERS:
      env = soccer.BUILDERS[args.builder](random_state=args.seed)
    else:
      env = examples.load(args.builder, random_state=args.seed)
  except ValueError as e:
    parser.error(str(e))
  except (OSError, ImportError) as e:  # missing motion-capture data (or h5py), failed download
    print(
      f"error: {args.builder} needs motion-capture data, which could not be read or "
      f"downloaded: {e}\npass --mocap-file PATH (or set NUMJOCO_MOCAP_FILE) to an HDF5 "
      "file of clips in dm_control's layout",
      file=sys.stderr,
    )
    return 1
  except RenderingUnavailableError as e:
    print(f"error: {args.builder}'s camera observable cannot render: {e}", file=sys.stderr)
    return 1
  print(f"{args.builder}: built in {time.perf_counter() - t0:.2f} s")
  spec = env.action_spec()
  players = isinstance(spec, list)  # soccer: one spec, observation dict and reward per player
  specs = spec if players else [spec]
  for spec in specs:
    print(
      f"action: shape {spec.shape}, bounds [{np.min(spec.minimum):g}, {np.max(spec.maximum):g}]"
    )
  for observation_spec in env.observation_spec() if players else [env.observation_spec()]:
    for key, value in observation_spec.items():
      print(f"observation {key!r}: shape {value.shape}, dtype {value.dtype}")

  rng = np.random.RandomState(args.seed)
  zeros = [np.clip(np.zeros(s.shape, s.dtype), s.minimum, s.maximum) for s in specs]
  for episode in range(args.episodes):
    time_step = env.reset()
    total, steps = 0.0, 0
    t0 = time.perf_counter()
    while not time_step.last() and steps != args.steps:
      actions = (
        [rng.uniform(s.minimum, s.maximum) for s in specs] if args.policy == "random" else zeros
      )
      time_step = env.step(actions if players else actions[0])
      total += np.sum(time_step.reward)
      steps += 1
    wall = time.perf_counter() - t0
    end = (
      "cut by --steps"
      if not time_step.last()
      else "terminated"
      if time_step.discount == 0
      else "time limit"
    )
    print(
      f"episode {episode}: return {total:.2f} in {steps} steps ({end}), "
      f"{steps / wall:.0f} steps/s ({1e3 * wall / steps:.2f} ms per env.step)"
    )
  return 0


if __name__ == "__main__":
  sys.exit(main())
