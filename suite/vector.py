"""Vectorised suite environments: N worlds of one task stepped by one jitted call.

  env = suite.load("cartpole", "swingup", task_kwargs={"random": 0}, num_envs=256)
  time_step = env.reset()                       # every world starts an episode
  time_step = env.step(np.zeros((256, 1)))      # actions (N, nu)
  time_step.observation["position"].shape       # (256, 3); reward, discount: (256,)

`step` does, for every world, what `control.Environment.step` does for one: the action into
the controls, the physics steps of one control step, the reward, the discount and the
observation, in one call of a numba function over all worlds (on numba's threads when it has
more than one and the batch is large enough: engine.batch.POOL). For a task with kernels
(suite/kernels.py) the observation and reward are computed inside that call by the same
functions the single environment runs; a task without them gets its observation and reward
from the task's Python methods after the batched physics step.

Hooks. A task with its own `before_step` (one that transforms its action, say) has it called
per world before the batched call, with the world's action row, and the batched call then
leaves the controls as the hook wrote them; the rows take the shape of the task's action
spec. A task with its own `after_step`, or its own get_reward, get_observation or
get_termination, has them called per world after the batched physics step, in the single
environment's order. `visualize_reward` is refused: it recolours the model the worlds share.

Episodes. World i follows dm_env's rules on its own: a step after its LAST step starts a new
episode instead (that step is FIRST, with reward 0 and discount 1, and the world's action is
ignored), so each world's sequence of time steps is the one a single environment would give.
The bookkeeping is the single environment's own (suite/episodes.py, over N worlds).
`reset()` starts a new episode in every world.

Seeds. A vectorised environment with seed s seeds world i's task with `world_seed(s, i)`
(numpy's SeedSequence of the pair (s, i)); world i's trajectory is then that of
`suite.load(domain, task, task_kwargs={"random": world_seed(s, i)})` under the same actions.
Without a seed, s is drawn from the OS and kept in `env.seed`.

Model. The worlds share one compiled model; the arrays a task edits at episode start (its
`model_fields`, e.g. a target's position) are per world (engine.ModelBatch), so no world sees
another's edits. lqr, whose model is drawn from the seed, compiles one model per world.

Your own tasks: `VectorEnvironment([control.Environment(...), ...])` batches environments of
one task built any way (with kernels, or with Python observations and rewards).
"""

import collections
import copy
import warnings

import dm_env
import numba
import numpy as np
from dm_env import specs

import engine
from engine import batch
from engine import driver as _driver
from engine.physics import DataWrapper
from engine.physics import ModelWrapper
from suite import base
from suite import control
from suite import episodes
from suite import kernels

# at most this many worlds per task on the threads (smaller batches: four tasks per thread)
_CHUNK = 16


def world_seed(seed: int, world: int) -> int:
  """The seed of world `world` of a vectorised environment seeded `seed` (a 32-bit int)."""
  return int(np.random.SeedSequence([int(seed), int(world)]).generate_state(1)[0])


def load(
  domain_name,
  task_name,
  num_envs,
  task_kwargs=None,
  environment_kwargs=None,
  first_world=0,
  num_threads=None,
  physics_errors="raise",
  *,
  build_environment,
):
  """A VectorEnvironment of `num_envs` worlds of a suite task (suite.load with num_envs).

  Args:
    domain_name, task_name: as suite.load.
    num_envs: number of worlds N.
    task_kwargs: as suite.load; "random" is the seed s of the batch (an int or None), not a
      RandomState.
    environment_kwargs: as suite.load (time_limit goes in task_kwargs, as there).
    first_world: the index of world 0 in the seed derivation (world i is seeded with
      world_seed(s, first_world + i)), for batches that are parts of a larger one.
    num_threads: threads to step on (default: numba's thread count; 1: the calling thread).
    physics_errors: "raise" (as the single environment: PhysicsError names the worlds) or
      "end_episode" (the world's step is LAST with discount 0 and a warning; it restarts at
      its next step).
    build_environment: suite.build_environment, which makes each world's environment (passed
      in by suite.load: the package imports this module, so this module does not import it).

  Raises:
    ValueError: bad num_envs, a RandomState as seed, or an unknown domain or task.
  """
  num_envs = int(num_envs)
  if num_envs < 1:
    raise ValueError(f"num_envs must be at least 1, got {num_envs}")
  task_kwargs = dict(task_kwargs or {})
  seed = task_kwargs.pop("random", None)
  if isinstance(seed, np.random.RandomState):
    raise ValueError(
      "a vectorised environment derives one seed per world from an int seed; "
      "pass task_kwargs={'random': int} (or None), not a RandomState"
    )
  if seed is None:
    seed = np.random.SeedSequence().entropy
  seed = int(seed)
  seeds = [world_seed(seed, first_world + i) for i in range(num_envs)]

  def build(world_seed_):
    return build_environment(
      domain_name, task_name, dict(task_kwargs, random=world_seed_), environment_kwargs
    )

  first = build(seeds[0])
  if getattr(first.task, "model_from_seed", False):
    worlds = [first] + [build(s) for s in seeds[1:]]  # the model itself is drawn (lqr)
  elif first.task.model_fields:
    models = engine.ModelBatch(first.physics.model.ptr, num_envs, first.task.model_fields)
    worlds = [_clone(first, models[i], s) for i, s in enumerate(seeds)]
  else:  # one model for all: its handle stays in the caches from world to world
    worlds = [_clone(first, first.physics.model.ptr, s) for s in seeds]
  return VectorEnvironment(
    worlds, seed=seed, num_threads=num_threads, physics_errors=physics_errors
  )


def _clone(env, world_model, seed):
  """An environment like `env` over `world_model`, with its task reseeded by `seed`."""
  physics = type(env.physics)(DataWrapper(engine.MjData(world_model), ModelWrapper(world_model)))
  random = np.random.RandomState(seed)
  # a new random state; the model a task may keep ids of stays shared
  model = env.physics.model.ptr
  task = copy.deepcopy(env.task, {id(env.task.random): random, id(model): model})
  return control.Environment(
    physics,
    task,
    time_limit=env.time_limit,
    n_sub_steps=env.n_sub_steps,
    flat_observation=env.flat_observation,
    legacy_step=env.physics.legacy_step,
  )


def _own_hooks(task):
  """Whether `task` has its own before_step, and its own after_step or reward, observation or
  termination methods. suite.base.Task's before_step writes the action into the controls,
  which the batched call does for every world; its after_step, as control.Task's, does nothing
  without visualize_reward (refused batched); its other methods run the kernels the batched
  call runs."""
  cls = type(task)
  evaluation = ("get_reward", "get_observation", "get_termination")
  return (
    cls.before_step is not base.Task.before_step,
    cls.after_step not in (base.Task.after_step, control.Task.after_step)
    or any(getattr(cls, name) is not getattr(base.Task, name) for name in evaluation),
  )


def _check_worlds(worlds):
  """Raises ValueError unless `worlds` are environments of one task that a batch can step."""
  first = worlds[0]
  for world in worlds[1:]:
    if (
      type(world.task) is not type(first.task)
      or world.n_sub_steps != first.n_sub_steps
      or world.step_limit != first.step_limit
      or world.physics.model.nu != first.physics.model.nu
    ):
      raise ValueError(
        "the worlds of a VectorEnvironment must be environments of one task "
        "(same task class, control step, time limit and actuators)"
      )
  if any(getattr(world.task, "visualize_reward", False) for world in worlds):
    raise ValueError(
      "visualize_reward recolours the materials of the model the worlds of a "
      "VectorEnvironment share (in suite.base.Task.after_step), so it cannot show "
      "each world's reward: set task.visualize_reward = False"
    )


class VectorEnvironment:
  """N worlds of one task behind batched dm_env-style calls (see the module docstring).

  Attributes:
    num_envs: N.
    seed: the seed the worlds' seeds derive from.
    worlds: the N single environments (control.Environment) the batch is made of, sharing
      their physics and tasks with it; read or render them, but step them only through the
      batch.
  """

  def __init__(self, worlds, seed=None, num_threads=None, physics_errors="raise"):
    if physics_errors not in ("raise", "end_episode"):
      raise ValueError(f"physics_errors must be 'raise' or 'end_episode', got {physics_errors!r}")
    self.worlds = list(worlds)
    _check_worlds(self.worlds)
    self.num_envs = n = len(self.worlds)
    self.seed = seed
    self._physics_errors = physics_errors
    first = self.worlds[0]
    physics, task = first.physics, first.task
    self._nu = physics.model.nu
    self._op = _driver.OP_LEGACY_STEP if physics.legacy_step else _driver.OP_STEP
    self._nsub = first.n_sub_steps
    self._flat = first.flat_observation
    self._episodes = episodes.Episodes(n, first.step_limit)
    self._before_step, python_evaluation = _own_hooks(task)
    # reward and observation inside the batched call, unless after_step must run before them
    # or the task computes them in Python
    self._in_kernels = (
      isinstance(task, base.Task)
      and task.observe_kernel is not None
      and task.reward_kernel is not None
      and not python_evaluation
    )
    if self._in_kernels:
      self._layout = task.observation_layout(physics)
      self._observe = task.observe_kernel.address()
      self._reward = task.reward_kernel.address()
      nobs = base.observation_size(self._layout)
      nparam = len(task.kernel_params(physics))
    else:
      self._layout, self._observe, self._reward, nobs, nparam = None, 0, 0, 0, 0
    self._obs = np.zeros((n, nobs))
    self._params = np.zeros((n, nparam))
    self._result = np.zeros((n, 2))
    self._fired = np.zeros(n, np.int64)
    # one row per world: the controls, or what the task's own before_step takes
    self._action_shape = tuple(first.action_spec().shape) if self._before_step else (self._nu,)
    self._actions = np.zeros((n,) + self._action_shape)
    self._no_actions = np.zeros((n, 0))  # the batched call then leaves the controls as they are
    self._dptrs = batch.POOL.data_handles([w.physics.data.ptr for w in self.worlds])
    self._nthread = min(int(num_threads or numba.get_num_threads()), numba.get_num_threads())
    self._mptrs = batch.POOL.model_handles(
      [w.physics.model.ptr for w in self.worlds], self._nthread
    )
    self._python_obs = [None] * n  # observations from the tasks' Python methods
    self._every_world = np.arange(n)
    if self._nthread > 1 and n >= 2 * self._nthread:
      # the parallel driver is not cached (docs/architecture.md): compile it now (about a
      # second, once per process), with no world to step, rather than in the first step
      self._step_worlds(np.empty(0, np.int64), self._actions, parallel=True)

  # ---- dm_env-style API ----

  def reset(self):
    """Starts a new episode in every world; returns FIRST time steps."""
    n = self.num_envs
    self._reset_worlds(np.arange(n))
    return self._time_step(np.full(n, dm_env.StepType.FIRST, np.uint8), np.zeros(n), np.ones(n))

  def step(self, actions):
    """Steps every world with its row of `actions` (N, nu); worlds whose last step was LAST
    start a new episode instead. Returns batched time steps (see the module docstring).

    Raises:
      ValueError: actions of the wrong shape or not numbers.
      PhysicsError: a world's step raised a MuJoCo warning (with physics_errors="raise").
    """
    actions = self._check_actions(actions)
    n = self.num_envs
    starting = self._episodes.needs_reset.copy()
    restarting = starting.any()
    stepping = np.flatnonzero(~starting) if restarting else self._every_world
    step_type = np.full(n, dm_env.StepType.FIRST, np.uint8)
    reward, discount = np.zeros(n), np.ones(n)
    if len(stepping):
      self._step_worlds(stepping, actions)
      failed = self._fired[stepping] != 0
      time_up = self._episodes.count_step(stepping)
      if not self._in_kernels:
        self._evaluate_in_python(stepping[~failed], time_up[~failed])
      reward[stepping] = self._result[stepping, kernels.REWARD]
      step_type[stepping], discount[stepping] = self._episodes.end_step(
        stepping, time_up, self._result[stepping, kernels.DISCOUNT], failed
      )
      if failed.any():
        reward[stepping[failed]] = 0.0
        self._report_physics_errors(stepping[failed])
    if restarting:
      self._reset_worlds(np.flatnonzero(starting))
    return self._time_step(step_type, reward, discount)

  def action_spec(self):
    """The spec of one world's action; step takes a batch (N, nu) of them."""
    return self.worlds[0].action_spec()

  def observation_spec(self):
    """The spec of one world's observation; step returns each key with a leading N axis."""
    return self.worlds[0].observation_spec()

  def reward_spec(self):
    return specs.Array(shape=(self.num_envs,), dtype=float, name="reward")

  def discount_spec(self):
    return specs.BoundedArray(
      shape=(self.num_envs,), dtype=float, minimum=0.0, maximum=1.0, name="discount"
    )

  def control_timestep(self):
    return self.worlds[0].control_timestep()

  @property
  def physics(self):
    """World 0's physics (each world's is `env.worlds[i].physics`)."""
    return self.worlds[0].physics

  def close(self):
    """Nothing to release (kept for dm_env's interface)."""

  # ---- internals ----

  def _check_actions(self, actions):
    shape = (self.num_envs,) + self._action_shape
    try:
      array = np.asarray(actions, dtype=np.float64)
    except (TypeError, ValueError):
      raise ValueError(f"actions must be numbers of shape {shape}") from None
    if array.shape != shape:
      if self._action_shape == (1,) and array.shape == (self.num_envs,):
        array = array.reshape(shape)  # one actuator: one action per world
      else:
        raise ValueError(
          f"actions have shape {array.shape}; this environment takes "
          f"{shape}: one action of shape {self._action_shape} per world"
        )
    np.copyto(self._actions, array)
    return self._actions

  def _step_worlds(self, worlds, actions, parallel=None):
    """The task's own before_step per world, then one jitted call: the physics of `worlds`,
    and with kernels their reward and observation."""
    worlds = np.asarray(worlds, np.int64)
    if self._before_step:
      for w in worlds:
        env = self.worlds[w]
        env.task.before_step(actions[w].copy(), env.physics)
      actions = self._no_actions  # the hook wrote the controls
    self._result[:, kernels.DISCOUNT] = np.nan
    args = (
      actions,
      self._op,
      self._nsub,
      self._observe,
      self._reward,
      self._params,
      self._obs,
      self._result,
      self._fired,
    )
    if parallel is None:
      parallel = self._nthread > 1 and len(worlds) >= 2 * self._nthread
    if parallel and batch.POOL.usable():
      chunk = max(1, min(_CHUNK, len(worlds) // (4 * self._nthread)))
      batch.POOL.run(
        self._nthread, kernels.step_worlds_parallel, self._mptrs, self._dptrs, worlds, chunk, *args
      )
    else:
      kernels.step_worlds(self._mptrs[0], self._dptrs, worlds, *args)

  def _evaluate_in_python(self, worlds, time_up):
    """after_step, reward, observation and termination of `worlds` from their tasks' Python
    methods, in the single environment's order (no termination asked at the time limit)."""
    for w, up in zip(worlds, time_up):
      env = self.worlds[w]
      task, physics = env.task, env.physics
      task.after_step(physics)
      self._result[w, kernels.REWARD] = task.get_reward(physics)
      self._python_obs[w] = env.observation()
      termination = None if up else task.get_termination(physics)
      self._result[w, kernels.DISCOUNT] = np.nan if termination is None else termination

  def _reset_worlds(self, worlds):
    """A new episode in `worlds`, as control.Environment.reset starts one."""
    self._episodes.begin(worlds)
    for w in worlds:
      env = self.worlds[w]
      env.reset_physics()
      if self._in_kernels:
        self._params[w] = env.task.kernel_params(env.physics)
        kernels.run(env.task.observe_kernel, env.physics, self._params[w], self._obs[w])
      else:
        self._python_obs[w] = env.observation()

  def _report_physics_errors(self, failed):
    names = [", ".join(k.name for k in _driver.fired_kinds(int(self._fired[w]))) for w in failed]
    message = (
      f"the physics of world(s) {failed.tolist()} raised MuJoCo warnings ({names}); "
      f"their episodes restart at the next step"
    )
    if self._physics_errors == "raise":
      raise engine.PhysicsError(message)
    warnings.warn(
      message + " (their last step has discount 0)", _driver.PhysicsWarning, stacklevel=3
    )

  def _time_step(self, step_type, reward, discount):
    if not self._in_kernels:
      observation = {
        key: np.stack([np.asarray(o[key]) for o in self._python_obs]) for key in self._python_obs[0]
      }
      observation = type(self._python_obs[0])(observation)
      return dm_env.TimeStep(step_type, reward, discount, observation)
    if self._flat:  # the kernel's layout is already the flat one, key after key
      observation = collections.OrderedDict([(control.FLAT_OBSERVATION_KEY, self._obs.copy())])
    else:
      observation = base.split_observation(self._obs.copy(), self._layout)
    return dm_env.TimeStep(step_type, reward, discount, observation)
