"""One task definition built on either dm_control's Composer or ours (the same code).

`make_env(ours, ...)` builds a creature (a capsule torso with a hinged, motor-driven
leg), attaches it with a free joint to an arena with a floor, and wraps it in a
"run along x" task with buffered, delayed, aggregated and noisy observables. Every hook
appends (owner, hook name) to `calls`, so tests can compare the call order.
"""

import types

import numpy as np


def _namespace(ours):
  if ours:
    import composer
    import mjcf
    from composer.observation import observable
  else:
    from dm_control import composer
    from dm_control import mjcf
    from dm_control.composer.observation import observable
  return types.SimpleNamespace(composer=composer, mjcf=mjcf, observable=observable)


def _noise(value, random_state):
  return value + random_state.normal(scale=0.01, size=np.shape(value))


def make_env(
  ours, calls=None, resize_every_episode=False, fail_resets=0, env_kwargs=None, extra_hooks=False
):
  """A Composer Environment of the twin task; see module docstring."""
  ns = _namespace(ours)
  composer, mjcf, observable = ns.composer, ns.mjcf, ns.observable
  calls = [] if calls is None else calls

  def record(owner, name):
    calls.append((owner, name))

  class CreatureObservables(composer.Observables):
    @composer.observable
    def leg_angle(self):
      return observable.MJCFFeature(
        "qpos", self._entity.leg_joint, buffer_size=3, aggregator="mean"
      )

    @composer.observable
    def torso_position(self):
      return observable.MJCFFeature("xpos", self._entity.torso, buffer_size=2, delay=2)

    @composer.observable
    def leg_velocity(self):
      return observable.MJCFFeature(
        "qvel", self._entity.leg_joint, update_interval=3, corruptor=_noise, buffer_size=4
      )

  class Creature(composer.Robot):
    def _build(self, name="creature"):
      self._model = mjcf.RootElement(model=name)
      self.torso = self._model.worldbody.add("body", name="torso")
      self.torso_geom = self.torso.add(
        "geom", name="torso", type="capsule", size=[0.1], fromto=[-0.2, 0, 0, 0.2, 0, 0]
      )
      leg = self.torso.add("body", name="leg", pos=[0.2, 0, 0])
      self.leg_joint = leg.add("joint", name="hip", type="hinge", axis=[0, 1, 0], damping=0.1)
      leg.add("geom", name="leg", type="capsule", size=[0.05], fromto=[0, 0, 0, 0, 0, -0.3])
      self.motor = self._model.actuator.add(
        "motor", name="hip", joint=self.leg_joint, gear=[5], ctrlrange=[-1, 1], ctrllimited=True
      )

    def _build_observables(self):
      return CreatureObservables(self)

    @property
    def mjcf_model(self):
      return self._model

    @property
    def actuators(self):
      return (self.motor,)

    def initialize_episode_mjcf(self, random_state):
      record("creature", "initialize_episode_mjcf")
      if resize_every_episode:
        self.torso_geom.size = [random_state.uniform(0.08, 0.12)]

    def after_compile(self, physics, random_state):
      record("creature", "after_compile")

    def initialize_episode(self, physics, random_state):
      record("creature", "initialize_episode")

    def before_step(self, physics, random_state):
      record("creature", "before_step")

    def before_substep(self, physics, random_state):
      record("creature", "before_substep")

    def after_substep(self, physics, random_state):
      record("creature", "after_substep")

    def after_step(self, physics, random_state):
      record("creature", "after_step")

  class RunTask(composer.Task):
    def __init__(self):
      self._arena = composer.Arena()
      self._arena.mjcf_model.worldbody.add("geom", name="floor", type="plane", size=[5, 5, 0.1])
      # A converged contact solve: with the default tolerance (1e-8) the Newton solver's
      # early exit makes velocities at contact onset differ by ~7e-6 between the engines.
      self._arena.mjcf_model.option.tolerance = 1e-14
      self.creature = Creature()
      self._arena.add_free_entity(self.creature)
      self.creature.observables.enable_all()
      self._failures_left = fail_resets
      self.set_timesteps(control_timestep=0.01, physics_timestep=0.002)

    @property
    def root_entity(self):
      return self._arena

    @property
    def task_observables(self):
      time = observable.Generic(lambda physics: np.array([physics.time()]))
      time.enabled = True
      return {"time": time}

    def initialize_episode_mjcf(self, random_state):
      record("task", "initialize_episode_mjcf")

    def after_compile(self, physics, random_state):
      record("task", "after_compile")

    def initialize_episode(self, physics, random_state):
      record("task", "initialize_episode")
      if self._failures_left:
        self._failures_left -= 1
        raise composer.EpisodeInitializationError("try again")
      position = [random_state.uniform(-0.5, 0.5), 0, 0.3]
      self.creature.set_pose(physics, position, [1, 0, 0, 0])
      self.creature.set_velocity(physics, [0.2, 0, 0], [0, 0, 0.5])

    def before_step(self, physics, action, random_state):
      record("task", "before_step")
      super().before_step(physics, action, random_state)

    def before_substep(self, physics, action, random_state):
      record("task", "before_substep")

    def after_substep(self, physics, random_state):
      record("task", "after_substep")

    def after_step(self, physics, random_state):
      record("task", "after_step")

    def get_reward(self, physics):
      return float(self.creature.get_velocity(physics)[0][0])

    def get_discount(self, physics):
      return 0.5 if physics.time() > 0.05 else 1.0

  env_kwargs = dict(env_kwargs or {})
  if "delayed_observation_padding" in env_kwargs:
    padding = env_kwargs["delayed_observation_padding"]
    env_kwargs["delayed_observation_padding"] = getattr(composer.ObservationPadding, padding)
  env = composer.Environment(RunTask(), random_state=3, **env_kwargs)
  if extra_hooks:
    for name in composer.environment.HOOK_NAMES:
      env.add_extra_hook(name, lambda *args, name=name: record("extra", name))
  return env


def run_episode(env, n_steps, seed=7):
  """TimeSteps of a reset and `n_steps` random actions."""
  actions = np.random.RandomState(seed).uniform(-1, 1, size=(n_steps, 1))
  steps = [env.reset()]
  for action in actions:
    steps.append(env.step(action))
  return steps
