"""Batched rollouts for planning: the cross-entropy method swings up the cart-pole.

Each iteration samples `--samples` open-loop plans around a Gaussian (the force at 16 knots,
interpolated over `--horizon` steps: white noise per step would average out), rolls them all
out from the hanging pose with one engine.rollout call (on two threads), scores each by how
upright and centred the pole is over the plan's second half, and refits the Gaussian to the
best tenth. Prints the best and mean score per iteration and the rollout speed.

  python examples/cem_swingup.py [--iterations N] [--samples N] [--horizon N]
"""

import argparse
import time

import numpy as np

import engine
from suite import common

FULL = int(engine.mjtState.mjSTATE_FULLPHYSICS)


KNOTS = 16


def score(states):
  """Mean reward over the second half of each trajectory: pole upright ((1 + cos) / 2) and
  cart centred. States are mj_getState vectors: [time, qpos (slider, hinge), qvel]."""
  half = states[:, states.shape[1] // 2 :]
  slider, hinge = half[..., 1], half[..., 2]
  return ((1 + np.cos(hinge)) / 2 / (1 + slider**2)).mean(axis=1)


def controls_of(knots, horizon):
  """(samples, horizon, 1) forces interpolated linearly between the knots (samples, KNOTS)."""
  t = np.linspace(0, KNOTS - 1, horizon)
  k = np.minimum(t.astype(int), KNOTS - 2)
  w = (t - k)[None]
  return (knots[:, k] * (1 - w) + knots[:, k + 1] * w)[..., None]


def plan(iterations=8, samples=256, horizon=300, elite_fraction=0.1, seed=0, verbose=True):
  """CEM over open-loop plans from the hanging pose; returns (best plan, score per iteration)."""
  model = engine.MjModel.from_xml_string(common.read_model("cartpole.xml"), common.ASSETS)
  data = engine.MjData(model)
  data.qpos[1] = np.pi  # hanging down
  x0 = np.zeros(engine.mj_stateSize(model, FULL))
  engine.mj_getState(model, data, x0, FULL)
  threads = [engine.MjData(model) for _ in range(2)]
  rng = np.random.default_rng(seed)
  mean, std = np.zeros(KNOTS), np.ones(KNOTS)
  nelite = max(2, int(elite_fraction * samples))
  best, history = None, []
  for it in range(iterations):
    knots = np.clip(mean + std * rng.standard_normal((samples, KNOTS)), -1, 1)
    controls = controls_of(knots, horizon)
    t0 = time.perf_counter()
    states, _ = engine.rollout.rollout(model, threads, x0, controls)
    elapsed = time.perf_counter() - t0
    scores = score(states)
    elite = np.argsort(scores)[-nelite:]
    mean, std = knots[elite].mean(axis=0), knots[elite].std(axis=0) + 0.02
    best = controls[elite[-1]]
    history.append(float(scores[elite[-1]]))
    if verbose:
      print(
        f"iteration {it}: best {scores.max():.3f}, mean {scores.mean():.3f}, "
        f"{samples * horizon / elapsed:,.0f} steps/s"
      )
  return best, history


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--iterations", type=int, default=8)
  parser.add_argument("--samples", type=int, default=256)
  parser.add_argument("--horizon", type=int, default=300)
  args = parser.parse_args(argv)
  plan(args.iterations, args.samples, args.horizon)


if __name__ == "__main__":
  main()
