"""The reference-pose tasks (MultiClipMocapTracking, PlaybackTask) against dm_control 1.0.50's
on a small HDF5 file of CMU humanoid (V2020) clips (mocap_files.py): the same task on both
stacks, seeded alike, stepped with the same random actions from dm_control's state
(task_parity.py), comparing reference observations, rewards, discounts and step types over two
episodes; the properties dm_control's tracking and reward tests check; and errors."""

import numpy as np
import pytest

import composer  # noqa: E402  (after task_parity sets MUJOCO_GL)
from suite.locomotion import arenas  # noqa: E402
from suite.locomotion import walkers  # noqa: E402
from suite.locomotion.mocap import props as mocap_props  # noqa: E402
from suite.locomotion.tasks.reference_pose import rewards  # noqa: E402
from suite.locomotion.tasks.reference_pose import tracking  # noqa: E402
from suite.locomotion.tasks.reference_pose import types  # noqa: E402
from tests.locomotion import mocap_files
from tests.locomotion import mocap_oracle
from tests.locomotion import task_parity as tp


@pytest.fixture(scope="module")
def cmu_file(tmp_path_factory):
  return mocap_files.write_cmu_v2020_file(str(tmp_path_factory.mktemp("mocap") / "cmu.h5"))


@pytest.fixture(autouse=True)
def dm_loader():
  with mocap_oracle.patched_loader():
    yield


def reference_pose(ns):
  if ns.ours:
    from suite.locomotion.mocap import props
    from suite.locomotion.tasks.reference_pose import tracking
    from suite.locomotion.tasks.reference_pose import types
  else:
    from dm_control.locomotion.mocap import props
    from dm_control.locomotion.tasks.reference_pose import tracking
    from dm_control.locomotion.tasks.reference_pose import types
  return tracking, types, props


def tracking_builder(path, **kwargs):
  def make(ns):
    tracking_module, types_module, props_module = reference_pose(ns)
    options = dict(ref_steps=(1, 2, 3, 4, 5), min_steps=10, reward_type="comic")
    options.update(kwargs)
    if options.pop("props", False):
      options.update(disable_props=False, prop_factory=props_module.Prop)
    return tracking_module.MultiClipMocapTracking(
      walker=ns.walkers.CMUHumanoidPositionControlledV2020,
      arena=ns.arenas.Floor(),
      ref_path=path,
      dataset=types_module.ClipCollection(ids=mocap_files.CLIPS),
      **options,
    )

  return make


@pytest.mark.parametrize(
  "seed, options, action_scale",
  [
    (3, dict(), 0.3),  # CoMic reward, terminated by the tracking error
    # a lenient threshold: the episodes run to the end of their clips
    (5, dict(reward_type="multi_term_pose_reward", termination_error_threshold=10.0), 0.05),
    # props, a ghost, the termination reward, starts at the clips' starts
    (
      7,
      dict(
        reward_type="termination_reward",
        props=True,
        ghost_offset=(0.0, 1.0, 0.0),
        always_init_at_clip_start=True,
        prop_termination_error_threshold=10.0,
      ),
      0.1,
    ),
  ],
)
def test_tracking_parity(cmu_file, seed, options, action_scale):
  twin = tp.Twin(
    tracking_builder(cmu_file, **options), seed=seed, strip_singleton_obs_buffer_dim=True
  )
  history = tp.run_episodes(twin, episodes=2, steps=40, action_scale=action_scale)
  lasts = [discount for step_type, _, discount in history if step_type == 2]
  assert len(lasts) == 2  # both episodes ended within the steps
  if "termination_error_threshold" in options:
    assert lasts == [1.0, 1.0]  # at the end of the clip
  elif not options.get("props"):
    assert lasts == [0.0, 0.0]  # on the tracking error
  for side in twin.sides:
    assert side.task._should_truncate == (lasts[-1] == 0.0)


@pytest.fixture(scope="module")
def cmu_file_without_props(tmp_path_factory):
  return mocap_files.write_cmu_v2020_file(
    str(tmp_path_factory.mktemp("mocap") / "cmu_no_props.h5"), with_props=False
  )


def test_playback_parity(cmu_file_without_props):
  """(dm_control's PlaybackTask fails on clips with props: see the next test.)"""
  cmu_file = cmu_file_without_props

  def make(ns):
    tracking_module, types_module, _ = reference_pose(ns)
    return tracking_module.PlaybackTask(
      walker=ns.walkers.CMUHumanoidPositionControlledV2020,
      arena=ns.arenas.Floor(),
      ref_path=cmu_file,
      dataset=types_module.ClipCollection(
        ids=mocap_files.CLIPS[:2], start_steps=(3, 0), end_steps=(20, 15)
      ),
    )

  twin = tp.Twin(make, seed=0, strip_singleton_obs_buffer_dim=True)
  history = tp.run_episodes(twin, episodes=2, steps=30)
  # the clips play one after the other: a window of start..end (end included, as in
  # dm_control) has end - start + 1 steps, and playback stops one step of lookahead before its
  # last, after end - start - 1 control steps
  lengths = np.diff([-1] + [i for i, (t, _, _) in enumerate(history) if t == 2])
  assert list(lengths) == [20 - 3 - 1, 15 - 0 - 1]
  assert all(reward == 0 for _, reward, _ in history)


def test_playback_poses_props_from_the_data(cmu_file):
  task = tracking.PlaybackTask(
    walker=walkers.CMUHumanoidPositionControlledV2020,
    arena=arenas.Floor(),
    ref_path=cmu_file,
    dataset=types.ClipCollection(ids=mocap_files.CLIPS[2:]),
  )
  env = composer.Environment(task, strip_singleton_obs_buffer_dim=True)
  env.reset()
  for _ in range(3):
    observation = env.step(np.zeros(env.action_spec().shape)).observation
    np.testing.assert_allclose(
      observation["box/position"], [1.5, 1.0, mocap_files.BOX_SIZE[2]], atol=1e-9
    )
  np.testing.assert_allclose(
    task._walker.get_pose(env.physics)[0], task._clip_reference_features["position"][3], atol=1e-12
  )


def make_task(path, **kwargs):
  options = dict(
    walker=walkers.CMUHumanoidPositionControlledV2020,
    arena=arenas.Floor(),
    ref_path=path,
    dataset=types.ClipCollection(ids=mocap_files.CLIPS),
    ref_steps=(1, 2, 3, 4, 5),
    min_steps=1,
  )
  options.update(kwargs)
  return tracking.MultiClipMocapTracking(**options)


@pytest.mark.parametrize("clip", [0, 2])
def test_clip_weights(cmu_file, clip):
  weights = [0, 0, 0]
  weights[clip] = 1
  task = make_task(cmu_file, dataset=types.ClipCollection(ids=mocap_files.CLIPS, weights=weights))
  env = composer.Environment(task, random_state=0)
  for _ in range(3):
    env.reset()
    assert task._current_clip.identifier == mocap_files.CLIPS[clip]
    assert task._termination_error < 1e-3


def test_possible_starts(cmu_file):
  dataset = types.ClipCollection(
    ids=mocap_files.CLIPS, start_steps=(2, 0, 5), end_steps=(10, 10, 20)
  )
  task = make_task(cmu_file, dataset=dataset, always_init_at_clip_start=True)
  assert task._possible_starts == [(0, 2), (1, 0), (2, 5)]
  task = make_task(cmu_file, dataset=dataset, min_steps=2)
  # up to (end - largest ref step - min steps), exclusive
  assert task._possible_starts == [(0, 2), (1, 0), (1, 1), (1, 2)] + [(2, s) for s in range(5, 13)]
  assert dataset.end_steps == (10, 10, 20)


def test_enabled_reference_observables(cmu_file):
  task = make_task(cmu_file, enabled_reference_observables=("walker/reference_rel_joints",))
  observation = composer.Environment(task).reset().observation
  assert "walker/reference_rel_joints" in observation
  assert "walker/reference_rel_root_pos_local" not in observation
  walker_obs = task._walker.observables
  for observable in (
    walker_obs.proprioception + walker_obs.kinematic_sensors + walker_obs.dynamic_sensors
  ):
    assert observable.enabled


def test_props_follow_reference_and_prop_termination(cmu_file):
  task = make_task(cmu_file, ref_steps=(0,), disable_props=False, prop_factory=mocap_props.Prop)
  env = composer.Environment(task)
  observation = env.reset().observation
  for ref_key, obs_key in (
    ("reference_props_pos_global", "box/position"),
    ("reference_props_quat_global", "box/orientation"),
  ):
    assert observation[ref_key].shape == (1, 3 if "pos" in ref_key else 4)
    np.testing.assert_allclose(observation[ref_key], observation[obs_key], atol=1e-12)
  task._props[0].set_pose(env.physics, observation["reference_props_pos_global"][0] + 1.0)
  task.after_step(env.physics, np.random.RandomState(0))
  assert task._prop_termination_error > 0.1
  task.get_reward(env.physics)
  assert task._should_truncate


def test_disabled_props_have_empty_observations(cmu_file):
  task = make_task(cmu_file, ref_steps=(0,), prop_factory=mocap_props.Prop)
  observation = composer.Environment(task).reset().observation
  assert observation["reference_props_pos_global"].shape == (1, 0)
  assert not task._props and not task._ghost_props


def test_ghost_adds_no_actions(cmu_file):
  plain = composer.Environment(make_task(cmu_file))
  ghost = composer.Environment(make_task(cmu_file, ghost_offset=np.array((0, 0, 0.1))))
  assert plain.action_spec() == ghost.action_spec()


def test_wrong_walker_is_refused(cmu_file):
  """The 2019 model has one body fewer than the 2020 data (refused when the task is built;
  dm_control fails on arrays that do not broadcast); the 2020 model unscaled has its bodies
  elsewhere (refused at the first reset, as dm_control does)."""
  with pytest.raises(ValueError, match="31 tracked bodies.*30.*proto/walker"):
    make_task(cmu_file, walker=walkers.CMUHumanoidPositionControlled)

  def scaled_walker(name):
    return walkers.CMUHumanoidPositionControlled(model_version="2020", include_face=True, name=name)

  task = make_task(cmu_file, walker=scaled_walker)
  with pytest.raises(ValueError, match="proto/walker"):
    composer.Environment(task).reset()


@pytest.mark.parametrize(
  "lengths", [dict(start_steps=(0,)), dict(end_steps=(5, 5)), dict(weights=(1, 1))]
)
def test_clip_collection_validation(lengths):
  with pytest.raises(ValueError, match="ClipCollection"):
    types.ClipCollection(ids=mocap_files.CLIPS, **lengths)
  with pytest.raises(ValueError, match="non-negative"):
    types.ClipCollection(ids=("a", "b"), weights=(1, -1))


def test_unknown_names(cmu_file):
  with pytest.raises(ValueError, match="not a valid option"):
    rewards.get_reward("kumquat_reward")
  with pytest.raises(KeyError, match="no dataset 'walk_huge'.*walk_tiny"):
    make_task(cmu_file, dataset="walk_huge")


def test_rewards_analytic():
  walker = {"scalar": 0.0, "vector": np.ones(3), "match": 0.1}
  reference = {"scalar": 1.5, "vector": np.full(3, 2.0), "match": 0.1}
  assert rewards.compute_squared_differences(walker, reference) == {
    "scalar": 2.25,
    "vector": 3.0,
    "match": 0.0,
  }
  assert set(rewards.compute_squared_differences(walker, reference, ("scalar", "match"))) == {
    "vector"
  }
  # a half-turn about x against the identity: half the angle, pi/2
  d = rewards.compute_squared_differences(
    {
      "root_quaternion": np.array([0.0, 1.0, 0.0, 0.0]),
      "body_quaternions": np.array([[1.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]]),
    },
    {
      "root_quaternion": np.array([1.0, 0.0, 0.0, 0.0]),
      "body_quaternions": np.array([[1.0, 0.0, 1.0, 0.0], [np.cos(0.1), np.sin(0.1), 0.0, 0.0]]),
    },
  )
  np.testing.assert_allclose(d["root_quaternion"], [(np.pi / 2) ** 2])
  np.testing.assert_allclose(d["body_quaternions"], 0.1**2)
  out = rewards.get_reward("termination_reward")(
    termination_error=0.1, termination_error_threshold=0.4
  )
  assert out.reward == pytest.approx(0.75) and dict(out.reward_terms) == {"termination": 0.75}
  features = {
    "center_of_mass": np.zeros(3),
    "joints_velocity": np.zeros(4),
    "appendages": np.zeros((2, 3)),
    "body_quaternions": np.tile([1.0, 0, 0, 0], (3, 1)),
  }
  perfect = rewards.get_reward("comic")(
    termination_error=0.0,
    termination_error_threshold=0.3,
    walker_features=features,
    reference_features={k: np.array(v) for k, v in features.items()},
  )
  assert perfect.reward == pytest.approx(1.9 / 2 + 0.5)  # 0.5 * (1 + (0.1 + 1 + .15 + .65))
  assert list(perfect.reward_terms) == sorted(rewards.get_reward_channels("comic"))


# ---- the example builder, its command line, the mocap initializer ----


def test_builder_is_dm_controls_tracking_setup(cmu_file, monkeypatch):
  """cmu_humanoid_tracking (on the clips of $NUMJOCO_MOCAP_FILE) is dm_control's
  cmu_2020_tracking setup: the same signature, specs, time steps, time limit and first two
  steps as dm_control's task built with its builder's arguments on those clips."""
  import inspect

  from dm_control import composer as dm_composer
  from dm_control.locomotion import arenas as dm_arenas
  from dm_control.locomotion import walkers as dm_walkers
  from dm_control.locomotion.examples import cmu_2020_tracking as dm_example
  from dm_control.locomotion.tasks.reference_pose import tracking as dm_tracking
  from dm_control.locomotion.tasks.reference_pose import types as dm_types

  from suite.locomotion import examples

  monkeypatch.setenv("NUMJOCO_MOCAP_FILE", cmu_file)
  assert inspect.signature(examples.ALL_BUILDERS["cmu_humanoid_tracking"]) == inspect.signature(
    dm_example.cmu_humanoid_tracking
  )
  ours = examples.load("cmu_humanoid_tracking", random_state=3)
  theirs = dm_composer.Environment(
    time_limit=30,
    random_state=3,
    strip_singleton_obs_buffer_dim=True,
    task=dm_tracking.MultiClipMocapTracking(
      walker=dm_walkers.CMUHumanoidPositionControlledV2020,
      arena=dm_arenas.Floor(),
      ref_path=cmu_file,
      dataset=dm_types.ClipCollection(ids=tuple(sorted(mocap_files.CLIPS))),
      ref_steps=(1, 2, 3, 4, 5),
      min_steps=10,
      reward_type="comic",
    ),
  )
  tp.assert_specs_equal(ours, theirs)
  assert ours.control_timestep() == theirs.control_timestep() == mocap_files.DT
  assert ours.task.physics_timestep == theirs.task.physics_timestep
  assert ours._time_limit == theirs._time_limit == 30
  first = ours.reset(), theirs.reset()
  tp.share_model(theirs.physics.model, ours.physics.model)
  tp.assert_steps_close(*first, "reset")
  for step in range(2):
    action = np.full(theirs.action_spec().shape, 0.1 * step)
    tp.copy_state(theirs.physics, ours.physics)
    tp.assert_steps_close(ours.step(action), theirs.step(action), f"step {step}")


def test_command_line_runs_tracking_with_a_mocap_file(cmu_file, monkeypatch, capsys):
  from suite.locomotion import __main__ as locomotion_main

  monkeypatch.setenv("NUMJOCO_MOCAP_FILE", "")  # restored after the test
  args = ["cmu_humanoid_tracking", "--mocap-file", cmu_file, "--steps", "3", "--zero-actions"]
  assert locomotion_main.main(args) == 0
  out = capsys.readouterr().out
  assert "observation 'walker/reference_rel_joints': shape (280,)" in out
  assert "episode 0: return" in out


def test_playback_builder_plays_the_clips_of_the_file(cmu_file, monkeypatch, capsys):
  """cmu_humanoid_mocap_playback poses the walker from the data, whatever the action: after k
  steps of a clip its root is at the clip's k-th position; the command line runs it."""
  from suite.locomotion import __main__ as locomotion_main
  from suite.locomotion import examples

  monkeypatch.setenv("NUMJOCO_MOCAP_FILE", cmu_file)
  env = examples.load("cmu_humanoid_mocap_playback", random_state=0)
  assert env.reset().first()
  task = env.task
  for k in range(1, 4):
    timestep = env.step(np.ones(env.action_spec().shape))
    assert timestep.reward == 0
    np.testing.assert_allclose(
      task._walker.get_pose(env.physics)[0],
      task._clip_reference_features["position"][k],
      atol=1e-12,
    )
  args = ["cmu_humanoid_mocap_playback", "--mocap-file", cmu_file, "--steps", "3"]
  assert locomotion_main.main(args) == 0
  assert "episode 0: return 0" in capsys.readouterr().out


def test_command_line_says_when_the_data_is_missing(tmp_path, monkeypatch, capsys):
  import urllib.error

  from suite.locomotion import __main__ as locomotion_main
  from suite.locomotion.mocap import cmu_mocap_data

  def no_network(url):
    raise urllib.error.URLError("no network")

  monkeypatch.delenv("NUMJOCO_MOCAP_FILE", raising=False)
  monkeypatch.setenv("NUMJOCO_MOCAP_DIR", str(tmp_path / "cache"))
  monkeypatch.setenv("HOME", str(tmp_path))
  monkeypatch.setattr(cmu_mocap_data.urllib.request, "urlopen", no_network)
  assert locomotion_main.main(["cmu_humanoid_tracking", "--steps", "1"]) == 1
  error = capsys.readouterr().err
  assert "needs motion-capture data" in error and "--mocap-file" in error
  assert "no network" in error
  assert not any((tmp_path / "cache").iterdir())
  monkeypatch.setenv("NUMJOCO_MOCAP_FILE", str(tmp_path / "missing.h5"))
  assert locomotion_main.main(["cmu_humanoid_tracking"]) == 1
  assert "missing.h5: no such file" in capsys.readouterr().err


def test_cmu_mocap_initializer_matches_dm_control(cmu_file, monkeypatch):
  """The same clip step (drawn alike) sets the same joints and velocities."""
  from dm_control import mjcf as dm_mjcf
  from dm_control.locomotion import arenas as dm_arenas
  from dm_control.locomotion import walkers as dm_walkers
  from dm_control.locomotion.mocap import cmu_mocap_data as dm_data
  from dm_control.locomotion.tasks.reference_pose import utils as dm_utils
  from dm_control.locomotion.walkers.initializers import mocap as dm_mocap

  import mjcf
  from suite.locomotion.tasks.reference_pose import utils
  from suite.locomotion.walkers.initializers import mocap

  monkeypatch.setattr(dm_data, "get_path_for_cmu", lambda version: cmu_file)
  ours = mocap.CMUMocapInitializer("CMU_902_01", version="2020", ref_path=cmu_file)
  theirs = dm_mocap.CMUMocapInitializer("CMU_902_01", version="2020")
  sides = []
  for init, arena, walker_class, add, physics_class in (
    (
      ours,
      arenas.Floor(),
      walkers.CMUHumanoidPositionControlledV2020,
      utils.add_walker,
      mjcf.Physics,
    ),
    (
      theirs,
      dm_arenas.Floor(),
      dm_walkers.CMUHumanoidPositionControlledV2020,
      dm_utils.add_walker,
      dm_mjcf.Physics,
    ),
  ):
    walker = add(walker_class, arena)
    physics = physics_class.from_mjcf_model(arena.mjcf_model)
    rng = np.random.RandomState(4)
    states = []
    for _ in range(3):
      init.initialize_pose(physics, walker, rng)
      states.append((np.array(physics.data.qpos), np.array(physics.data.qvel)))
    sides.append(states)
  for (qpos, qvel), (their_qpos, their_qvel) in zip(*sides):
    np.testing.assert_allclose(qpos, their_qpos, atol=1e-12)
    np.testing.assert_allclose(qvel, their_qvel, atol=1e-12)
  assert not np.allclose(sides[0][0][0][7:], sides[0][1][0][7:])  # different steps were drawn
