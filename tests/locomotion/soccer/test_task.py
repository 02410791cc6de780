"""The soccer task's behaviour (dm_control's soccer unit-test properties, in our words): the
ball's toucher, goal and off-court detection, rewards, throw-ins, per-player observations, the
initializer's spread, MultiturnTask, and `load`'s arguments and errors."""

import os

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "disable")

import composer  # noqa: E402
import mjcf  # noqa: E402
from composer import props  # noqa: E402
from suite.locomotion import soccer  # noqa: E402
from tests import same_model  # noqa: E402


def _team(size, team, color):
  prefix = "home" if team == soccer.Team.HOME else "away"
  return [
    soccer.Player(team, soccer.BoxHead(name=f"{prefix}{i}", walker_id=i, marker_rgba=color))
    for i in range(size)
  ]


def _env(
  home=1,
  away=1,
  disable_walker_contacts=True,
  observables=None,
  seed=42,
  task=soccer.Task,
  time_limit=1.0,
  **task_kwargs,
):
  players = _team(home, soccer.Team.HOME, soccer.RGBA_BLUE) + _team(
    away, soccer.Team.AWAY, soccer.RGBA_RED
  )
  return composer.Environment(
    task=task(
      players=players,
      arena=soccer.Pitch((20, 15)),
      observables=observables,
      disable_walker_contacts=disable_walker_contacts,
      **task_kwargs,
    ),
    random_state=seed,
    time_limit=time_limit,
  )


def _place(env, ball_pos, ball_vel=(0, 0, 0), walkers=()):
  """An initialize_episode hook putting the ball at `ball_pos` moving at `ball_vel` and the
  walkers at the (x, y, yaw, velocity) of `walkers`."""

  def hook(physics, unused_random_state):
    env.task.ball.set_pose(physics, list(ball_pos))
    env.task.ball.set_velocity(
      physics, velocity=np.asarray(ball_vel, float), angular_velocity=np.zeros(3)
    )
    for player, (x, y, yaw, vel) in zip(env.task.players, walkers):
      quat = [np.cos(yaw / 2), 0, 0, np.sin(yaw / 2)]
      player.walker.set_pose(physics, [x, y, 0.0], quat)
      player.walker.set_velocity(
        physics, velocity=np.asarray(vel, float), angular_velocity=np.zeros(3)
      )

  env.add_extra_hook("initialize_episode", hook)


def _zeros(env):
  return [np.zeros(s.shape, s.dtype) for s in env.action_spec()]


def test_ball_records_its_first_toucher():
  arena = composer.Arena()
  ball = soccer.SoccerBall(radius=0.35, mass=0.045, name="test_ball")
  player = soccer.Player(
    soccer.Team.HOME, props.Primitive(geom_type="sphere", size=(0.1,), name="home")
  )
  arena.add_free_entity(player.walker)
  ball.register_player(player)
  arena.add_free_entity(ball)
  rng = np.random.RandomState(42)
  physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
  physics.step()  # both start at the origin: they touch
  ball.initialize_episode(physics, rng)
  ball.before_step(physics, rng)
  assert (ball.hit, ball.repossessed, ball.intercepted, ball.last_hit) == (
    False,
    False,
    False,
    None,
  )
  assert ball.dist_between_last_hits is None
  ball.after_substep(physics, rng)
  ball.after_step(physics, rng)
  assert (ball.hit, ball.repossessed, ball.intercepted) == (True, True, True)
  assert ball.last_hit is player
  assert ball.dist_between_last_hits is None  # a single touch so far


def _pitch_with_ball(pos):
  pitch = soccer.Pitch(size=(12, 9))
  sphere = props.Primitive(geom_type="sphere", size=(0.1,), pos=pos)
  pitch.register_ball(sphere)
  pitch.attach(sphere)
  composer.Environment(composer.NullTask(pitch), random_state=42).reset()
  return pitch


@pytest.mark.parametrize(
  "pos,off_court,goal",
  [
    ((0, 0, 0), False, None),
    ((20, 0, 0), True, None),
    ((-9.5, 0, 1), True, soccer.Team.AWAY),
    ((9.5, 0, 1), True, soccer.Team.HOME),
  ],
)
def test_pitch_detects_goals_and_off_court(pos, off_court, goal):
  pitch = _pitch_with_ball(pos)
  assert len(pitch.detected_off_court()) == int(off_court)
  assert pitch.detected_goal() == goal


@pytest.mark.parametrize(
  "observables,count",
  [
    (None, 43),
    (
      soccer.MultiObservablesAdder(
        [soccer.CoreObservablesAdder(), soccer.InterceptionObservablesAdder()]
      ),
      51,
    ),
  ],
)
def test_players_observe_the_same_keys_with_teams_as_seen_by_each(observables, count):
  env = _env(2, 2, observables=observables)
  timestep = env.reset()
  assert len(timestep.observation) == 4
  keys = [list(obs) for obs in timestep.observation]
  assert all(sorted(k) == sorted(keys[0]) for k in keys)
  assert len(keys[0]) == count
  assert "teammate_0_ego_position" in keys[0] and "opponent_1_ego_position" in keys[0]
  assert "teammate_1_ego_position" not in keys[0]
  # home0 sees away1 as its opponent_1; away1 sees home0 as its opponent_0
  home0, away1 = env.task.players[0].walker, env.task.players[3].walker
  pos = env.physics.bind([home0.root_body, away1.root_body]).xpos
  distance = np.linalg.norm(pos[0] - pos[1])
  np.testing.assert_allclose(
    np.linalg.norm(timestep.observation[0]["opponent_1_ego_position"]), distance, rtol=1e-9
  )
  np.testing.assert_allclose(
    np.linalg.norm(timestep.observation[3]["opponent_0_ego_position"]), distance, rtol=1e-9
  )
  for spec, reward in zip(env.reward_spec(), env.step(_zeros(env)).reward):
    spec.validate(reward)


def test_mirrored_players_observe_the_same():
  """Players placed point-symmetrically about the ball, facing opposite ways, observe the same
  (or negated) values: each sees its own goal behind it."""
  env = _env()
  _place(
    env,
    (0, 0, 0.5),
    (0, 0, 1.0),
    [(5, 3, np.pi / 3, (3, -5, 0)), (-5, -3, np.pi / 3 + np.pi, (-3, 5, 0))],
  )
  obs_a, obs_b = env.reset().observation
  assert sorted(obs_a) == sorted(obs_b)
  for key in obs_a:
    a, b = np.asarray(obs_a[key], float), np.asarray(obs_b[key], float)
    assert np.allclose(a, b) or np.allclose(a, -b), key


def test_prev_action_is_observed():
  env = _env()
  actions = [(i + 1) * np.ones(s.shape, s.dtype) / 3 for i, s in enumerate(env.action_spec())]
  env.reset()
  timestep = env.step(actions)
  for obs, action in zip(timestep.observation, actions):
    np.testing.assert_allclose(np.squeeze(obs["prev_action"], 0), action)


@pytest.mark.parametrize(
  "home,away,ball_vel,home_score", [(1, 2, 0.0, 0), (2, 1, 50.0, 1), (2, 2, -50.0, -1)]
)
def test_goals_reward_each_team(home, away, ball_vel, home_score):
  env = _env(home, away)
  _place(
    env, (0, 0, 0.5), (ball_vel, 0, 0), [(0, 5 + 2 * i, 0, (0, 0, 0)) for i in range(home + away)]
  )
  env.reset()
  timestep = env.step(_zeros(env))
  while not timestep.last():
    timestep = env.step(_zeros(env))
  np.testing.assert_array_equal(timestep.reward[:home], home_score)
  np.testing.assert_array_equal(timestep.reward[home:], -home_score)
  assert timestep.discount == (0.0 if home_score else 1.0)
  scored = [obs["stats_home_score"] for obs in timestep.observation]
  conceded = [obs["stats_away_score"] for obs in timestep.observation]
  np.testing.assert_array_equal(np.ravel(scored), [home_score > 0] * home + [home_score < 0] * away)
  np.testing.assert_array_equal(
    np.ravel(conceded), [home_score < 0] * home + [home_score > 0] * away
  )


def test_ball_out_of_play_is_thrown_in_at_rest():
  env = _env(time_limit=2.0)
  _place(env, (0, 3, 0.5), (0, 50, 0), [(0, -3, 0, (0, 0, 0)), (0, -5, 0, (0, 0, 0))])
  timestep = env.reset()
  thrown_in = False
  while not timestep.last():
    was_out = bool(env.task.arena.detected_off_court())
    timestep = env.step(_zeros(env))
    if was_out:
      x, y, _ = env.physics.bind(env.task.ball.geom).xpos
      field = env.task.arena.field
      assert np.all(np.abs([x, y]) < field.upper)
      thrown_in = True
  assert thrown_in
  np.testing.assert_allclose(
    np.linalg.norm(timestep.observation[0]["ball_ego_linear_velocity"]), 0.0, atol=1e-6
  )


def test_multiturn_task_plays_on_after_a_goal():
  env = _env(task=soccer.MultiturnTask, time_limit=2.0)
  _place(env, (0, 0, 0.5), (50, 0, 0), [(0, 5, 0, (0, 0, 0)), (0, 7, 0, (0, 0, 0))])
  timestep = env.reset()
  rewards, steps = [], 0
  while not timestep.last():
    timestep = env.step(_zeros(env))
    rewards.append(list(timestep.reward))
    steps += 1
    assert timestep.discount == 1.0
  goal_step = rewards.index([1.0, -1.0])
  assert steps >= 80 > goal_step + 1  # the time limit, not the goal, ends the episode
  # the players and ball were placed anew within the spawn area after the goal
  x, _, _ = env.physics.bind(env.task.ball.geom).xpos
  assert abs(x) < 20


@pytest.mark.parametrize("spawn_ratio", [0.3, 0.7])
def test_initializer_spreads_players_within_the_spawn_area(spawn_ratio):
  env = _env(2, 2, initializer=soccer.UniformInitializer(spawn_ratio=spawn_ratio))
  bodies = [p.walker.root_body for p in env.task.players]
  bounds = np.asarray(env.task.arena.size) * spawn_ratio
  positions, yaws = [], []
  for _ in range(2):
    env.reset()
    xy = env.physics.bind(bodies).xpos[:, :2].copy()
    assert np.all(np.abs(xy) <= bounds)
    positions.append(xy)
    yaws.append(
      [
        env.physics.bind(p.walker.mjcf_model.find("joint", "steer")).qpos[0]
        for p in env.task.players
      ]
    )
    np.testing.assert_array_equal(env.physics.bind(bodies).cvel, 0.0)
    ball, _ = env.task.ball.get_pose(env.physics)
    assert np.all(np.abs(ball[:2]) <= bounds) and ball[2] == pytest.approx(0.5)
  assert not np.any(positions[0] == positions[1])
  assert len(set(np.round(np.ravel(yaws), 9))) == 8
  # pairwise apart: the initializer redraws overlapping players
  dists = np.linalg.norm(positions[1][:, None] - positions[1][None], axis=-1)
  assert np.all(dists[np.triu_indices(4, 1)] > 0.7)


def test_initializer_gives_up_when_players_cannot_be_apart():
  env = _env(
    2,
    2,
    disable_walker_contacts=False,
    initializer=soccer.UniformInitializer(spawn_ratio=0.0, max_collision_avoidance_retries=3),
  )
  with pytest.raises(RuntimeError, match=r"`max_retries` \(3\) exceeded"):
    env.reset()


def test_interception_observables_follow_the_ball():
  """The ball thrown at home0 from away0's touch: home0 intercepted it (away0's view) and
  received it (its own view)."""
  adder = soccer.MultiObservablesAdder(
    [soccer.CoreObservablesAdder(), soccer.InterceptionObservablesAdder()]
  )
  env = _env(observables=adder, time_limit=3.0)
  _place(env, (-3.0, 0, 0.35), (0, 0, 0), [(4, 0, 0, (0, 0, 0)), (-4, 0, 0, (0, 0, 0))])
  env.reset()
  events = []
  first_pass = True
  for _ in range(120):
    ball = env.task.ball
    if first_pass and ball.last_hit is env.task.players[1]:
      ball.set_velocity(env.physics, velocity=np.array([12.0, 0, 0]), angular_velocity=np.zeros(3))
      first_pass = False
    elif first_pass:
      ball.set_velocity(env.physics, velocity=np.array([-6.0, 0, 0]), angular_velocity=np.zeros(3))
    timestep = env.step(_zeros(env))
    if ball.hit:
      events.append(
        (
          ball.last_hit.walker.mjcf_model.model,
          ball.repossessed,
          ball.intercepted,
          timestep.observation[0]["stats_i_received_ball"].item(),
          timestep.observation[1]["stats_opponent_intercepted_ball"].item(),
          timestep.observation[0]["stats_i_received_ball_5m"].item(),
        )
      )
    if ball.last_hit is env.task.players[0]:
      break
  assert events[0][:3] == ("away0", True, True)
  assert events[-1] == ("home0", True, True, 1.0, 1.0, 1.0)  # the ball travelled ~6.6 m


@pytest.mark.parametrize("team_size", [0, 12, 2.0, True])
def test_load_rejects_team_sizes_outside_1_to_11(team_size):
  with pytest.raises(ValueError, match="team_size must be an integer between 1 and 11"):
    soccer.load(team_size)


def test_load_rejects_unknown_walker_types():
  with pytest.raises(ValueError, match="Unrecognized walker type: 'BOXHEAD'"):
    soccer.load(1, walker_type="BOXHEAD")


@pytest.mark.parametrize(
  "kwargs",
  [
    dict(team_size=1, disable_walker_contacts=True),
    dict(team_size=3, enable_field_box=True, terminate_on_goal=False, keep_aspect_ratio=True),
  ],
)
def test_load_builds_a_match(kwargs):
  env = soccer.load(random_state=1, **kwargs)
  team_size = kwargs["team_size"]
  assert len(env.action_spec()) == 2 * team_size
  assert len(env.reward_spec()) == 2 * team_size
  task = env.task
  assert isinstance(task, soccer.MultiturnTask if "terminate_on_goal" in kwargs else soccer.Task)
  assert [p.walker.mjcf_model.model for p in task.players] == (
    [f"home{i}" for i in range(team_size)] + [f"away{i}" for i in range(team_size)]
  )
  first = env.reset().observation
  again = soccer.load(random_state=1, **kwargs).reset().observation
  other = soccer.load(random_state=2, **kwargs).reset().observation
  for mine, same, different in zip(first, again, other):
    for key in mine:
      np.testing.assert_array_equal(mine[key], same[key])
    assert not np.allclose(mine["ball_ego_position"], different["ball_ego_position"])
  if kwargs.get("disable_walker_contacts"):
    assert all(g.contype == 0 for p in task.players for g in p.walker.mjcf_model.find_all("geom"))


@pytest.mark.parametrize("enable_field_box", [False, True])
def test_the_resized_pitch_is_edited_in_as_a_recompilation_would_make_it(enable_field_box):
  """Each reset draws a new pitch size: walls, goals, boards, lights and cameras move. The
  environment edits them into the compiled model instead of recompiling; the model of every
  episode equals a recompilation of the MJCF, array for array, and the physics starts fresh."""
  env = soccer.load(team_size=1, enable_field_box=enable_field_box, random_state=3)
  for _ in range(3):
    env.reset()
    reference = mjcf.Physics.from_mjcf_model(env.task.root_entity.mjcf_model)
    # the episode's physics is a reset copy of the edited model
    same_model.assert_same_values(env._model_editor.model, reference.model)
  assert env.num_compilations == 1


def test_load_humanoid_builds_a_mini_football_match():
  env = soccer.load(1, walker_type=soccer.WalkerType.HUMANOID, random_state=0)
  timestep = env.reset()
  assert env.task.ball.geom.size[0] == pytest.approx(0.117)
  assert env.task.arena.home_goal.upper[1] == pytest.approx(3.66 / 2)
  assert len(timestep.observation) == 2
  env.step([np.zeros(s.shape) for s in env.action_spec()])


def test_humanoids_start_in_motion_capture_poses_when_the_data_is_cached(tmp_path, monkeypatch):
  """As dm_control's CMUMocapInitializer: each humanoid's joints at a step of the clip; without
  the data in the cache, the default pose and a warning saying how to fetch it."""
  from suite.locomotion.mocap import cmu_mocap_data
  from suite.locomotion.mocap import loader
  from tests.locomotion import mocap_files

  path = mocap_files.write_cmu_v2020_file(str(tmp_path / "cmu.h5"))
  monkeypatch.setattr(cmu_mocap_data, "get_cached_path", lambda version: path)
  monkeypatch.setattr(soccer, "_HUMANOID_CLIP", mocap_files.CLIPS[1])
  env = soccer.load(1, walker_type=soccer.WalkerType.HUMANOID, random_state=0)
  env.reset()
  clip = loader.HDF5TrajectoryLoader(path).get_trajectory(mocap_files.CLIPS[1])
  poses = [
    clip.get_timestep_data(clip.start_time + clip.dt * k).walkers[0].joints
    for k in range(clip.num_steps)
  ]
  for player in env.task.players:
    joints = env.physics.bind(player.walker.mocap_joints).qpos
    assert any(np.allclose(joints, pose, atol=1e-12) for pose in poses)
  monkeypatch.setattr(cmu_mocap_data, "get_cached_path", lambda version: None)
  with pytest.warns(UserWarning, match=r"get_path_for_cmu\('2019'\)"):
    env = soccer.load(1, walker_type=soccer.WalkerType.HUMANOID, random_state=0)
  env.reset()
  for player in env.task.players:
    assert not np.any(env.physics.bind(player.walker.mocap_joints).qpos)


def test_humanoid_jersey_is_refused():
  with pytest.raises(ValueError, match="JERSEY visual"):
    soccer.Humanoid(visual=soccer.Humanoid.Visual.JERSEY, marker_rgba=[1, 0, 0, 1], walker_id=1)
  with pytest.raises(ValueError, match=r"walker_id must be in \[0-10\]"):
    soccer.Humanoid(visual=soccer.Humanoid.Visual.GEOM, marker_rgba=[1, 0, 0, 1], walker_id=11)


def test_command_line_runs_a_soccer_match_of_dm_controls_return(capsys):
  """`python -m suite.locomotion soccer_1v1_boxhead`: one action spec and observation set per
  player, and the summed players' return of zero actions, as dm_control's."""
  from dm_control.locomotion import soccer as dm_soccer

  from suite.locomotion import __main__ as locomotion_main

  args = ["soccer_1v1_boxhead", "--steps", "3", "--zero-actions", "--seed", "4"]
  assert locomotion_main.main(args) == 0
  out = capsys.readouterr().out
  theirs = dm_soccer.load(1, random_state=4)
  assert out.count("action: shape (3,)") == 2
  assert out.count("observation 'ball_ego_position': shape (1, 3)") == 2
  theirs.reset()
  total = sum(np.sum(theirs.step([np.zeros(3)] * 2).reward) for _ in range(3))
  assert f"episode 0: return {total:.2f} in 3 steps (cut by --steps)" in out
