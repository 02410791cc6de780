"""The Control Suite: benchmark tasks behind dm_env (dm_control's `suite`).

  env = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
  time_step = env.reset()
  time_step = env.step(action)

Each domain is a module of this package with a `SUITE` registry of task constructors
(`suite/pendulum.py`, ...); the task lists below are built from them.
"""

import collections
import importlib
import pkgutil

from suite.control import PhysicsError as PhysicsError


def _find_domains() -> dict:
  """Every module of this package that registers tasks in a `SUITE`, by name."""
  domains = {}
  for info in pkgutil.iter_modules(__path__):
    if info.ispkg or info.name.startswith("_") or info.name in _NOT_DOMAINS:
      continue
    module = importlib.import_module(f"{__name__}.{info.name}")
    if hasattr(module, "SUITE"):
      domains[info.name] = module
  return dict(sorted(domains.items()))


# modules of the package that are infrastructure, not domains
_NOT_DOMAINS = (
  "base",
  "common",
  "control",
  "distributed",
  "episodes",
  "gym_vector",
  "kernels",
  "rewards",
  "vector",
  "viewer",
)

_DOMAINS = _find_domains()


def _get_tasks(tag) -> tuple:
  """(domain, task) pairs, by domain name, with `tag` (None: every task)."""
  result = []
  for name, domain in _DOMAINS.items():
    tasks = domain.SUITE if tag is None else domain.SUITE.tagged(tag)
    result += [(name, task) for task in tasks]
  return tuple(result)


def _get_tasks_by_domain(tasks) -> dict:
  result = collections.defaultdict(list)
  for domain, task in tasks:
    result[domain].append(task)
  return {domain: tuple(names) for domain, names in result.items()}


ALL_TASKS = _get_tasks(tag=None)
BENCHMARKING = _get_tasks("benchmarking")
EASY = _get_tasks("easy")
HARD = _get_tasks("hard")
EXTRA = tuple(sorted(set(ALL_TASKS) - set(BENCHMARKING)))
NO_REWARD_VIZ = _get_tasks("no_reward_visualization")
REWARD_VIZ = tuple(sorted(set(ALL_TASKS) - set(NO_REWARD_VIZ)))
TASKS_BY_DOMAIN = _get_tasks_by_domain(ALL_TASKS)


def load(
  domain_name,
  task_name,
  task_kwargs=None,
  environment_kwargs=None,
  visualize_reward=False,
  num_envs=None,
  **vector_kwargs,
):
  """The environment of task `task_name` of domain `domain_name`.

  With `num_envs` = N: a suite.vector.VectorEnvironment of N worlds of the task, stepped
  together (batched actions, observations, rewards; see suite/vector.py, which also lists the
  `vector_kwargs`: first_world, num_threads, physics_errors). Its seed is task_kwargs["random"].

  Args:
    domain_name: e.g. "cartpole" (suite.TASKS_BY_DOMAIN lists them all).
    task_name: e.g. "swingup".
    task_kwargs: keyword arguments of the task's constructor, e.g. {"random": seed} or
      {"time_limit": 5}.
    environment_kwargs: keyword arguments of control.Environment (flat_observation, ...).
    visualize_reward: recolour the model by reward (cosmetic).

  Raises:
    ValueError: unknown domain or task (the message lists the valid names).
  """
  if num_envs is not None:
    from suite import vector

    if visualize_reward:
      raise ValueError(
        "visualize_reward recolours a single model; a vectorised environment "
        "shares one model between its worlds"
      )
    return vector.load(
      domain_name,
      task_name,
      num_envs,
      task_kwargs,
      environment_kwargs,
      **vector_kwargs,
      build_environment=build_environment,
    )
  if vector_kwargs:
    raise TypeError(
      f"load() got unexpected keyword arguments {sorted(vector_kwargs)} (they apply with num_envs)"
    )
  return build_environment(
    domain_name, task_name, task_kwargs, environment_kwargs, visualize_reward
  )


def build_environment(
  domain_name, task_name, task_kwargs=None, environment_kwargs=None, visualize_reward=False
):
  """Same as `load`."""
  if domain_name not in _DOMAINS:
    raise ValueError(
      f"Domain {domain_name!r} does not exist; the domains are: {', '.join(_DOMAINS)}."
    )
  domain = _DOMAINS[domain_name]
  if task_name not in domain.SUITE:
    raise ValueError(
      f"Level {task_name!r} does not exist in domain {domain_name!r}; its tasks "
      f"are: {', '.join(domain.SUITE)}."
    )
  task_kwargs = dict(task_kwargs or {})
  if environment_kwargs is not None:
    task_kwargs["environment_kwargs"] = environment_kwargs
  env = domain.SUITE[task_name](**task_kwargs)
  env.task.visualize_reward = visualize_reward
  for kernel in (env.task.observe_kernel, env.task.reward_kernel):
    if kernel is not None:
      kernel.address()  # compiled (once per install) or loaded here, not in the first steps
  return env
