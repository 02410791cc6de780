"""Vectorised suite environments on Ray actors: many batches of worlds, on many cores or nodes.

  pip install "numjoco[ray]"
  runner = suite.distributed.Runner("cheetah", "run", num_actors=4, envs_per_actor=256, seed=0)
  trajectories = runner.rollout(policy, num_steps=1000)   # policy(time_step) -> actions
  trajectories["reward"].shape                             # (4 * 256, 1001)
  runner.close()

Each actor is one Ray actor process holding a `suite.vector.VectorEnvironment` of
`envs_per_actor` worlds. Worlds are numbered globally, actor k holding worlds
k * envs_per_actor ... (k + 1) * envs_per_actor - 1, and world w is seeded with
`suite.vector.world_seed(seed, w)`: the runner's worlds are exactly the worlds of one
`suite.load(domain, task, task_kwargs={"random": seed}, num_envs=num_actors * envs_per_actor)`,
split over processes. `rollout` sends the policy to every actor, each steps its batch for
`num_steps` steps (resetting first), and the runner stacks the results world by world.

The policy is any picklable callable policy(time_step) -> actions (n, nu) for the batched
time step of an actor's n worlds (observations (n, ...)); give it its own seeded random state
if it is random.

Several machines: start Ray on each (`ray start --head` on one, `ray start
--address=<head>:6379` on the others), then in the driver `ray.init(address="auto")` before
building the Runner; Ray places the actors on the nodes' cores (one CPU per actor by default,
`cpus_per_actor` to give each actor several numba threads).
"""

import numpy as np


def _ray():
  try:
    import ray
  except ImportError:
    raise ImportError("suite.distributed needs Ray: pip install 'numjoco[ray]' (or ray)") from None
  return ray


class _Actor:
  """The process-side half: one vectorised environment and its rollouts."""

  def __init__(
    self, domain, task, num_envs, seed, first_world, task_kwargs, environment_kwargs, num_threads
  ):
    import suite

    self._env = suite.load(
      domain,
      task,
      task_kwargs=dict(task_kwargs or {}, random=seed),
      environment_kwargs=environment_kwargs,
      num_envs=num_envs,
      first_world=first_world,
      num_threads=num_threads,
    )

  def rollout(self, policy, num_steps):
    return rollout(self._env, policy, num_steps)


def rollout(env, policy, num_steps) -> dict:
  """Steps a vectorised environment `num_steps` times from a reset under `policy`.

  Returns a dict of arrays with a leading world axis and a time axis of num_steps + 1 (the
  reset, then each step): "step_type", "reward", "discount", "observation" (a dict), and
  "action" (worlds, num_steps, nu): the action given at each step.
  """
  steps = [env.reset()]
  actions = []
  for _ in range(num_steps):
    action = np.asarray(policy(steps[-1]), dtype=np.float64)
    actions.append(action)
    steps.append(env.step(action))
  out = {
    name: np.stack([getattr(t, name) for t in steps], axis=1)
    for name in ("step_type", "reward", "discount")
  }
  out["observation"] = {
    key: np.stack([t.observation[key] for t in steps], axis=1) for key in steps[0].observation
  }
  nu = env.action_spec().shape[0]
  out["action"] = np.stack(actions, axis=1) if actions else np.zeros((env.num_envs, 0, nu))
  return out


class Runner:
  """Vectorised environments of one task on `num_actors` Ray actors (see the module docstring).

  Args:
    domain, task: the suite task.
    num_actors: actors (processes) to start.
    envs_per_actor: worlds in each actor's vectorised environment.
    seed: the seed the worlds' seeds derive from (None: drawn from the OS, kept in `seed`).
    task_kwargs, environment_kwargs: as suite.load (no "random" in task_kwargs: use seed).
    cpus_per_actor: CPUs Ray reserves per actor; the actor's numba threads.
  """

  def __init__(
    self,
    domain,
    task,
    num_actors,
    envs_per_actor,
    seed=None,
    task_kwargs=None,
    environment_kwargs=None,
    cpus_per_actor=1,
  ):
    ray = _ray()
    if task_kwargs and "random" in task_kwargs:
      raise ValueError("give the seed as Runner(seed=...), not task_kwargs['random']")
    if seed is None:
      seed = np.random.SeedSequence().entropy
    self.seed = int(seed)
    self.num_actors, self.envs_per_actor = int(num_actors), int(envs_per_actor)
    if self.num_actors < 1 or self.envs_per_actor < 1:
      raise ValueError("num_actors and envs_per_actor must be at least 1")
    if not ray.is_initialized():
      ray.init()
    threads = int(cpus_per_actor)
    remote = ray.remote(
      num_cpus=threads, runtime_env={"env_vars": {"NUMBA_NUM_THREADS": str(threads)}}
    )(_Actor)
    self._actors = [
      remote.remote(
        domain,
        task,
        self.envs_per_actor,
        self.seed,
        k * self.envs_per_actor,
        task_kwargs,
        environment_kwargs,
        threads,
      )
      for k in range(self.num_actors)
    ]

  @property
  def num_envs(self) -> int:
    return self.num_actors * self.envs_per_actor

  def rollout(self, policy, num_steps) -> dict:
    """Every actor's worlds stepped `num_steps` times from a reset under `policy` (see the
    module-level `rollout` for the arrays), stacked in global world order."""
    ray = _ray()
    parts = ray.get([actor.rollout.remote(policy, int(num_steps)) for actor in self._actors])
    out = {
      name: np.concatenate([p[name] for p in parts])
      for name in ("step_type", "reward", "discount", "action")
    }
    out["observation"] = {
      key: np.concatenate([p["observation"][key] for p in parts]) for key in parts[0]["observation"]
    }
    return out

  def close(self):
    """Stops the actors."""
    ray = _ray()
    for actor in self._actors:
      ray.kill(actor)
    self._actors = []
