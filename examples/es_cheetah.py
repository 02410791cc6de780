"""An evolution strategy over a vectorised environment: linear policies learn to run.

Every iteration evaluates `--pairs` antithetic pairs of perturbations of a linear policy
(action = tanh(W @ observation)) in one vectorised cheetah environment of 2 * pairs worlds,
all episodes `--horizon` steps long, and moves W along the rank-weighted perturbations
(OpenAI-ES with antithetic sampling). Prints the mean and best return per iteration and the
environment steps per second.

  python examples/es_cheetah.py [--iterations 20] [--pairs 32] [--horizon 200] [--seed 0]
"""

import argparse
import time

import numpy as np

import suite


def ranks(values):
  """Centred ranks in [-0.5, 0.5]: the update ignores the scale of the returns."""
  order = np.empty(len(values))
  order[np.argsort(values)] = np.arange(len(values))
  return order / (len(values) - 1) - 0.5


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--iterations", type=int, default=20)
  parser.add_argument("--pairs", type=int, default=32)
  parser.add_argument("--horizon", type=int, default=200)
  parser.add_argument("--sigma", type=float, default=0.1)
  parser.add_argument("--lr", type=float, default=0.05)
  parser.add_argument("--seed", type=int, default=0)
  args = parser.parse_args(argv)

  n = 2 * args.pairs
  env = suite.load(
    "cheetah",
    "run",
    num_envs=n,
    task_kwargs={"random": args.seed, "time_limit": args.horizon * 0.01},
    environment_kwargs={"flat_observation": True},
  )
  nobs = env.observation_spec()["observations"].shape[0]
  nu = env.action_spec().shape[0]
  rng = np.random.RandomState(args.seed)
  weights = np.zeros((nu, nobs))
  history = []
  for iteration in range(args.iterations):
    noise = rng.randn(args.pairs, nu, nobs)
    policies = weights + args.sigma * np.concatenate([noise, -noise])  # (n, nu, nobs)
    time_step = env.reset()
    returns = np.zeros(n)
    t0 = time.perf_counter()
    for _ in range(args.horizon):
      obs = time_step.observation["observations"]
      time_step = env.step(np.tanh(np.einsum("wij,wj->wi", policies, obs)))
      returns += time_step.reward
    rate = n * args.horizon / (time.perf_counter() - t0)
    score = ranks(returns)
    step = (score[: args.pairs] - score[args.pairs :]) @ noise.reshape(args.pairs, -1)
    weights += args.lr / (args.pairs * args.sigma) * step.reshape(nu, nobs)
    history.append(returns.mean())
    print(
      f"iteration {iteration:2d}: mean return {returns.mean():6.2f}, best "
      f"{returns.max():6.2f} ({rate:,.0f} env steps/s)"
    )
  return history


if __name__ == "__main__":
  main()
