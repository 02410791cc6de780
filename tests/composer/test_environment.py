"""Composer environments against dm_control's: the same task written on both, same results."""

import dm_env
import numpy as np
import pytest

import composer
import mjcf
from engine.physics import PhysicsError
from tests import same_model
from tests.composer import twin_tasks

TOL = dict(rtol=1e-7, atol=1e-8)


def _assert_same_steps(ours, theirs):
  assert len(ours) == len(theirs)
  for mine, ref in zip(ours, theirs):
    assert mine.step_type == ref.step_type
    if ref.reward is None:
      assert mine.reward is None and mine.discount is None
    else:
      np.testing.assert_allclose(mine.reward, ref.reward, **TOL)
      assert mine.discount == ref.discount
    assert list(mine.observation) == list(ref.observation)
    for key, value in ref.observation.items():
      assert mine.observation[key].shape == value.shape, key
      assert mine.observation[key].dtype == value.dtype, key
      np.testing.assert_allclose(mine.observation[key], value, **TOL, err_msg=key)


@pytest.mark.parametrize(
  "env_kwargs",
  [
    {},
    {"strip_singleton_obs_buffer_dim": True, "time_limit": 0.05},
    {"delayed_observation_padding": "INITIAL_VALUE", "legacy_step": False},
    {"fixed_initial_state": True, "time_limit": 0.03},
  ],
)
def test_episode_matches_dm_control(env_kwargs):
  """Observations (buffered, delayed, aggregated, noisy), rewards, discounts, step types and
  specs over episodes (with time limits: LAST steps and automatic resets) as dm_control."""
  theirs_env = twin_tasks.make_env(False, env_kwargs=env_kwargs)
  ours_env = twin_tasks.make_env(True, env_kwargs=env_kwargs)
  assert ours_env.observation_spec() == theirs_env.observation_spec()
  assert ours_env.action_spec() == theirs_env.action_spec()
  assert ours_env.action_spec().name == theirs_env.action_spec().name == "creature/hip"
  assert ours_env.reward_spec() == theirs_env.reward_spec()
  assert ours_env.control_timestep() == theirs_env.control_timestep() == 0.01
  _assert_same_steps(twin_tasks.run_episode(ours_env, 12), twin_tasks.run_episode(theirs_env, 12))


def test_hook_order_matches_dm_control():
  """Task, entity and extra hooks run in dm_control's order over two episodes."""
  calls = {False: [], True: []}
  for ours in (False, True):
    env = twin_tasks.make_env(ours, calls[ours], extra_hooks=True)
    twin_tasks.run_episode(env, 2)
    twin_tasks.run_episode(env, 1)
  assert calls[True] == calls[False]
  step = calls[True].index(("task", "before_step"))
  assert calls[True][step : step + 4] == [
    ("task", "before_step"),
    ("creature", "before_step"),
    ("extra", "before_step"),
    ("task", "before_substep"),
  ]


def test_compiles_once_and_edits_what_changes_between_episodes():
  """Unchanged MJCF: one compilation for many resets. A geom resized every episode (its body's
  inertia with it) is edited into the compiled model rather than recompiled, and the results
  still match dm_control's, which recompiles at every reset."""
  env = twin_tasks.make_env(True)
  for _ in range(3):
    twin_tasks.run_episode(env, 2)
  assert env.num_compilations == 1
  resized = twin_tasks.make_env(True, resize_every_episode=True)
  theirs = twin_tasks.make_env(False, resize_every_episode=True)
  for seed in range(3):
    _assert_same_steps(
      twin_tasks.run_episode(resized, 3, seed), twin_tasks.run_episode(theirs, 3, seed)
    )
  assert resized.num_compilations == 1


def test_an_attribute_the_engine_cannot_edit_recompiles():
  env = twin_tasks.make_env(True)
  geom = env.task.creature.torso_geom
  frictions = iter([0.5, 0.7])
  env.add_extra_hook(
    "initialize_episode_mjcf", lambda random_state: setattr(geom, "friction", [next(frictions)])
  )
  for friction, compilations in ((0.5, 2), (0.7, 3)):
    env.reset()
    assert env.physics.bind(geom).friction[0] == friction
    assert env.num_compilations == compilations


def test_reused_physics_starts_fresh():
  """A model field edited during an episode does not leak into the next (no recompile)."""
  env = twin_tasks.make_env(True)
  env.reset()
  env.physics.model.geom_size[1, 0] = 0.5
  env.reset()
  assert env.num_compilations == 1
  assert env.physics.model.geom_size[1, 0] == 0.1


def test_each_episode_starts_from_the_model_as_compiled_and_edited():
  """A model field written during an episode never leaks into the next, whether the MJCF
  changed at that reset (an edit) or not; an array handed out earlier and changed in place
  later counts as a change."""
  env = twin_tasks.make_env(True)
  geom = env.task.creature.torso_geom
  size = geom.size  # the stored array, changed in place below
  sizes = iter([0.09, 0.11, 0.11, 0.12])
  env.add_extra_hook(
    "initialize_episode_mjcf", lambda random_state: size.__setitem__(0, next(sizes))
  )
  for expected in (0.09, 0.11, 0.11, 0.12):
    env.reset()
    assert env.physics.bind(geom).size[0] == expected
    reference = mjcf.Physics.from_mjcf_model(env.task.root_entity.mjcf_model)
    same_model.assert_same_values(env.physics.model, reference.model, groups=())
    env.physics.bind(geom).size = [0.5]  # edited during the episode
    env.physics.model.body_mass[1] = 7.0
  assert env.num_compilations == 1


def test_episode_initialization_error_retries():
  """Failing resets are retried up to max_reset_attempts, with dm_control's calls; one
  attempt too few raises the error."""
  calls = {False: [], True: []}
  for ours in (False, True):
    env = twin_tasks.make_env(
      ours, calls[ours], fail_resets=2, env_kwargs={"max_reset_attempts": 3}
    )
    assert env.reset().step_type == dm_env.StepType.FIRST
  assert calls[True] == calls[False]
  assert calls[True].count(("task", "initialize_episode")) == 3
  env = twin_tasks.make_env(True, fail_resets=2, env_kwargs={"max_reset_attempts": 2})
  with pytest.raises(composer.EpisodeInitializationError, match="try again"):
    env.reset()


def _make_diverging(ours, raise_error):
  env = twin_tasks.make_env(ours, env_kwargs={"raise_exception_on_physics_error": raise_error})

  def diverge(physics, action, random_state):
    if physics.time() > 0.015:
      physics.data.qvel[:] = np.inf

  env.add_extra_hook("before_substep", diverge)
  return env


def test_physics_error_ends_the_episode():
  """raise_exception_on_physics_error=False: a PhysicsError gives a LAST step with reward 0
  and discount 0, then a new episode; True: the error propagates."""
  from dm_control.rl import control

  ours = twin_tasks.run_episode(_make_diverging(True, False), 4)
  theirs = twin_tasks.run_episode(_make_diverging(False, False), 4)
  assert (
    [t.step_type for t in ours]
    == [t.step_type for t in theirs]
    == [
      dm_env.StepType.FIRST,
      dm_env.StepType.MID,
      dm_env.StepType.LAST,
      dm_env.StepType.FIRST,
      dm_env.StepType.MID,
    ]
  )
  assert ours[2].reward == 0.0 and ours[2].discount == 0.0
  env = _make_diverging(True, True)
  with pytest.raises(PhysicsError):
    twin_tasks.run_episode(env, 4)
  with pytest.raises(control.PhysicsError):
    twin_tasks.run_episode(_make_diverging(False, True), 4)


def test_add_extra_hook_checks_its_arguments():
  env = twin_tasks.make_env(True)
  with pytest.raises(ValueError, match="not a valid hook name"):
    env.add_extra_hook("after_everything", lambda *a: None)
  with pytest.raises(ValueError, match="not a callable"):
    env.add_extra_hook("after_step", 3)


def test_timesteps():
  """set_timesteps / control_timestep / physics_timestep and the divisibility check."""
  task = composer.NullTask(composer.Arena())
  assert task.control_timestep == task.physics_timestep == 0.002
  task.set_timesteps(0.02, 0.004)
  assert task.physics_steps_per_control_step == 5
  assert task.root_entity.mjcf_model.option.timestep == 0.004
  with pytest.raises(ValueError, match="integer multiple"):
    task.control_timestep = 0.005
  with pytest.raises(ValueError, match="integer multiple"):
    task.physics_timestep = 0.003
  assert task.get_reward(None) == 0.0


def test_model_wrapper_entity_null_task_and_options():
  """A parsed model wrapped in an entity runs under NullTask; n_sub_steps overrides the
  control timestep; recompile_mjcf_every_episode=False runs the MJCF hooks once."""
  import mjcf

  model = mjcf.from_xml_string("""
    <mujoco model="pendulum">
      <worldbody><body><joint name="swing" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/></body></worldbody>
      <actuator><motor name="torque" joint="swing" ctrlrange="-1 1"/></actuator>
    </mujoco>""")
  wrapped = composer.ModelWrapperEntity(model)
  calls = []

  class Counting(composer.NullTask):
    def initialize_episode_mjcf(self, random_state):
      calls.append("mjcf")

  env = composer.Environment(
    Counting(wrapped), n_sub_steps=3, recompile_mjcf_every_episode=False, time_limit=0.012
  )
  assert env.control_timestep() == pytest.approx(0.006)
  assert env.action_spec().name == "torque"
  steps = [env.reset()] + [env.step([0.5]) for _ in range(2)]
  assert steps[-1].last() and steps[-1].reward == 0.0
  assert env.physics.data.time == pytest.approx(0.012)
  env.reset()
  assert calls == ["mjcf"]
  assert env.observation_spec() == {}


def test_invalid_padding_argument():
  with pytest.raises(ValueError, match="ObservationPadding"):
    composer.Environment(composer.NullTask(composer.Arena()), delayed_observation_padding=0)


def test_entities_added_between_episodes():
  """An entity attached in initialize_episode_mjcf is compiled in, its hooks run and its
  enabled observables appear from that episode on."""
  from composer import props

  arena = composer.Arena()
  seen = []

  class Ball(props.Primitive):
    def initialize_episode(self, physics, random_state):
      seen.append(self.mjcf_model.model)

  class Growing(composer.NullTask):
    def initialize_episode_mjcf(self, random_state):
      ball = Ball("sphere", [0.1], name=f"ball{len(list(arena.iter_entities()))}")
      ball.observables.position.enabled = True
      arena.add_free_entity(ball)

  env = composer.Environment(Growing(arena))
  first = env.reset()
  second = env.reset()
  assert list(first.observation) == ["ball1/position"]
  assert list(second.observation) == ["ball1/position", "ball2/position"]
  assert seen == ["ball1", "ball1", "ball2"]
  assert env.num_compilations == 3
  assert env.physics.model.nbody == 3
