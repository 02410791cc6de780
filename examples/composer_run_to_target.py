"""Composer example: a procedurally built creature runs to a target.

The creature (a torso with `num_legs` hinged, motor-driven legs) is built in Python with
`mjcf`, attached to an arena with a free joint, and wrapped in a task whose reward is
1 when the torso is within 0.3 m of a target and decays with distance otherwise.
With `vary_sizes=True` (example b) leg lengths and torso size are varied every
episode by an MJCFVariator, and the creature's position observation is delayed by
two physics steps and noisy.

  python examples/composer_run_to_target.py [--vary] [--steps N]
"""

import argparse

import numpy as np

import composer
import mjcf
from composer import variation
from composer.observation import observable
from composer.variation import distributions
from composer.variation import noises


class CreatureObservables(composer.Observables):
  """Joint angles and speeds, torso position."""

  @composer.observable
  def joint_positions(self):
    return observable.MJCFFeature("qpos", self._entity.joints)

  @composer.observable
  def joint_velocities(self):
    return observable.MJCFFeature("qvel", self._entity.joints)

  @composer.observable
  def torso_position(self):
    return observable.MJCFFeature("xpos", self._entity.torso)


class Creature(composer.Robot):
  """A sphere torso with legs spread around it, each a hinge and a motor."""

  def _build(self, num_legs=4, name="creature"):
    self._model = mjcf.RootElement(model=name)
    self.torso = self._model.worldbody.add("body", name="torso")
    self.torso_geom = self.torso.add(
      "geom", name="torso", type="sphere", size=[0.1], rgba=[0.8, 0.3, 0.2, 1]
    )
    self.legs, self.joints, self.motors = [], [], []
    for i in range(num_legs):
      angle = 2 * np.pi * i / num_legs
      direction = np.array([np.cos(angle), np.sin(angle), 0.0])
      leg = self.torso.add("body", name=f"leg_{i}", pos=0.1 * direction)
      joint = leg.add(
        "joint",
        name=f"hip_{i}",
        type="hinge",
        axis=[-direction[1], direction[0], 0],
        range=[-60, 60],
        damping=0.05,
      )
      geom = leg.add(
        "geom",
        name=f"leg_{i}",
        type="capsule",
        size=[0.03],
        fromto=np.concatenate([[0, 0, 0], 0.25 * direction + [0, 0, -0.1]]),
      )
      self.legs.append(geom)
      self.joints.append(joint)
      self.motors.append(
        self._model.actuator.add(
          "motor", name=f"hip_{i}", joint=joint, gear=[2], ctrlrange=[-1, 1], ctrllimited=True
        )
      )

  def _build_observables(self):
    return CreatureObservables(self)

  @property
  def mjcf_model(self):
    return self._model

  @property
  def actuators(self):
    return tuple(self.motors)


class RunToTarget(composer.Task):
  """Reward for reaching a target placed at random at each episode."""

  def __init__(self, creature, vary_sizes=False, target_radius=0.3):
    self._arena = composer.Arena()
    worldbody = self._arena.mjcf_model.worldbody
    worldbody.add("light", pos=[0, 0, 3], dir=[0, 0, -1])
    worldbody.add("geom", name="floor", type="plane", size=[4, 4, 0.1], rgba=[0.3, 0.5, 0.7, 1])
    self._target = worldbody.add(
      "site", name="target", type="sphere", size=[0.05], rgba=[0, 1, 0, 1]
    )
    self._creature = creature
    self._arena.add_free_entity(creature)
    self._target_radius = target_radius
    self._variator = variation.MJCFVariator()
    if vary_sizes:
      self._variator.bind_attributes(
        creature.torso_geom, size=noises.Multiplicative(distributions.Uniform(0.8, 1.2))
      )
      for leg in creature.legs:
        self._variator.bind_attributes(
          leg, fromto=noises.Multiplicative(distributions.Uniform(0.7, 1.3, single_sample=True))
        )
    creature.observables.enable_all()
    if vary_sizes:  # a late and noisy position sensor
      creature.observables.torso_position.configure(
        delay=2, corruptor=lambda value, random_state: value + random_state.normal(0, 0.01, 3)
      )
    self.set_timesteps(control_timestep=0.02, physics_timestep=0.005)

  @property
  def root_entity(self):
    return self._arena

  @property
  def task_observables(self):
    target = observable.MJCFFeature("xpos", self._target)
    target.enabled = True
    return {"target_position": target}

  def initialize_episode_mjcf(self, random_state):
    self._variator.apply_variations(random_state)

  def initialize_episode(self, physics, random_state):
    self._creature.set_pose(physics, [0, 0, 0.3], [1, 0, 0, 0])
    angle = random_state.uniform(0, 2 * np.pi)
    physics.bind(self._target).pos = [2 * np.cos(angle), 2 * np.sin(angle), 0.05]

  def get_reward(self, physics):
    torso = physics.bind(self._creature.torso).xpos[:2]
    target = physics.bind(self._target).xpos[:2]
    distance = np.linalg.norm(torso - target)
    if distance < self._target_radius:
      return 1.0
    return float(np.exp(-(distance - self._target_radius)))


def make_environment(vary_sizes=False, seed=None, time_limit=10.0):
  """The composer.Environment of the example."""
  task = RunToTarget(Creature(), vary_sizes=vary_sizes)
  return composer.Environment(task, time_limit=time_limit, random_state=seed)


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--vary", action="store_true", help="example (b): varied sizes")
  parser.add_argument("--steps", type=int, default=100)
  args = parser.parse_args(argv)
  env = make_environment(vary_sizes=args.vary, seed=0)
  spec = env.action_spec()
  timestep = env.reset()
  total = 0.0
  rng = np.random.RandomState(0)
  for _ in range(args.steps):
    timestep = env.step(rng.uniform(spec.minimum, spec.maximum))
    total += timestep.reward
  print(
    f"{args.steps} steps, return {total:.3f}; observations: "
    + ", ".join(f"{k}{v.shape}" for k, v in timestep.observation.items())
  )
  return total


if __name__ == "__main__":
  main()
