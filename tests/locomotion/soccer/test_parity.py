"""Soccer environments from `soccer.load` on our stack and on dm_control's, seeded alike and
stepped side by side with the same actions: observations, rewards, discounts and goals agree
within 1e-6. Each control step of ours starts from dm_control's state and, after every reset,
our compiled model is checked against dm_control's and given its numbers (see
tests/locomotion/task_parity.py for why)."""

import os

import numpy as np
import pytest

from tests.locomotion import task_parity

os.environ.setdefault("MUJOCO_GL", "disable")

ATOL = 1e-6
CONFIGS = [(1, "BOXHEAD"), (2, "BOXHEAD"), (2, "ANT")]


def load_pair(team_size, walker_type, seed, **kwargs):
  """(ours, dm_control's) environments of `soccer.load` with the same arguments."""
  from dm_control.locomotion import soccer as dm_soccer

  from suite.locomotion import soccer

  ours = soccer.load(
    team_size, random_state=seed, walker_type=soccer.WalkerType[walker_type], **kwargs
  )
  theirs = dm_soccer.load(
    team_size, random_state=seed, walker_type=dm_soccer.WalkerType[walker_type], **kwargs
  )
  return ours, theirs


def assert_players_observations_close(ours, theirs, label):
  assert len(ours) == len(theirs), label
  for player, (mine, their) in enumerate(zip(ours, theirs)):
    assert list(mine) == list(their), f"{label} player {player}"
    for key, value in their.items():
      np.testing.assert_allclose(
        np.asarray(mine[key], float),
        np.asarray(value, float),
        rtol=1e-9,
        atol=ATOL,
        err_msg=f"{label} player {player} {key}",
      )


def assert_timesteps_close(ours, theirs, label):
  assert ours.step_type == theirs.step_type, label
  if theirs.reward is None:
    assert ours.reward is None and ours.discount is None, label
  else:
    np.testing.assert_array_equal(ours.reward, theirs.reward, err_msg=f"{label} reward")
    assert ours.discount == theirs.discount, label
  assert_players_observations_close(ours.observation, theirs.observation, label)


def run(
  team_size,
  walker_type,
  episodes,
  steps,
  seed=0,
  action_seed=1,
  after_reset=None,
  action_scale=1.0,
  **kwargs,
):
  """Runs both stacks; returns dm_control's (rewards, discount, detected goal, toucher) per
  step. `after_reset(env)`, if given, changes dm_control's state after each reset (ours
  starts each step from that state)."""
  ours, theirs = load_pair(team_size, walker_type, seed, **kwargs)
  specs = theirs.action_spec()
  our_specs = ours.action_spec()
  assert len(specs) == len(our_specs) == 2 * team_size
  for mine, their in zip(our_specs, specs):
    assert (mine.shape, mine.name) == (their.shape, their.name)
    np.testing.assert_array_equal(mine.minimum, their.minimum)
    np.testing.assert_array_equal(mine.maximum, their.maximum)
  rng = np.random.RandomState(action_seed)
  history = []
  for episode in range(episodes):
    our_step, their_step = ours.reset(), theirs.reset()
    task_parity.share_model(theirs.physics.model, ours.physics.model)
    assert_timesteps_close(our_step, their_step, f"episode {episode} reset")
    if after_reset is not None:
      after_reset(theirs)
    for step in range(steps):
      actions = [action_scale * rng.uniform(spec.minimum, spec.maximum) for spec in specs]
      task_parity.copy_state(theirs.physics, ours.physics)
      our_step, their_step = ours.step(actions), theirs.step(actions)
      label = f"episode {episode} step {step}"
      assert_timesteps_close(our_step, their_step, label)
      goal = theirs.task.arena.detected_goal()
      our_goal = ours.task.arena.detected_goal()
      assert (None if our_goal is None else our_goal.name) == (
        None if goal is None else goal.name
      ), label
      assert [p.name for p in ours.task.arena.detected_off_court()] == [
        p.name for p in theirs.task.arena.detected_off_court()
      ], label
      their_toucher = theirs.task.ball.last_hit
      our_toucher = ours.task.ball.last_hit
      assert (None if our_toucher is None else our_toucher.walker.mjcf_model.model) == (
        None if their_toucher is None else their_toucher.walker.mjcf_model.model
      ), label
      history.append(
        (
          list(their_step.reward),
          their_step.discount,
          goal,
          None if their_toucher is None else their_toucher.team.name,
        )
      )
      if their_step.last():
        break
  return history


@pytest.mark.parametrize("team_size,walker_type", CONFIGS)
def test_short_episode_matches_dm_control(team_size, walker_type):
  run(team_size, walker_type, episodes=1, steps=30)


@pytest.mark.slow
@pytest.mark.parametrize("team_size,walker_type", CONFIGS)
def test_two_episodes_match_dm_control(team_size, walker_type):
  run(team_size, walker_type, episodes=2, steps=100)


def test_ball_touches_match_dm_control():
  """The ball rolled at each home player in turn and then at the away goal: the same touchers
  and goal, step by step."""

  def roll_at_players(env):
    ball, players = env.task.ball, env.task.players
    target = env.physics.bind(players[0].walker.root_body).xpos
    start = target + np.array([2.5, 0.0, 0.0])
    ball.set_pose(env.physics, [start[0], start[1], 0.0])
    ball.set_velocity(env.physics, velocity=np.array([-8.0, 0, 0]), angular_velocity=np.zeros(3))

  history = run(2, "BOXHEAD", episodes=1, steps=40, after_reset=roll_at_players, action_scale=0.0)
  touchers = [toucher for *_, toucher in history]
  assert "HOME" in touchers


def test_goal_scored_rewards_and_ends_like_dm_control():
  """A ball pushed into the away goal: +1 home, -1 away, discount 0, last step, on both."""
  from dm_control.locomotion import soccer as dm_soccer  # noqa: F401  (oracle imported)

  ours, theirs = load_pair(1, "BOXHEAD", seed=2)
  our_steps, their_steps = [], []
  for env, out in ((ours, our_steps), (theirs, their_steps)):
    env.reset()
    ball, arena = env.task.ball, env.task.arena
    goal = arena.away_goal
    ball.set_pose(env.physics, [goal.mid[0], 0.0, 0.5])
    ball.set_velocity(env.physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
    out.append(env.step([np.zeros(3), np.zeros(3)]))
  ours_step, theirs_step = our_steps[0], their_steps[0]
  np.testing.assert_array_equal(theirs_step.reward, [1.0, -1.0])
  np.testing.assert_array_equal(ours_step.reward, theirs_step.reward)
  assert ours_step.discount == theirs_step.discount == 0.0
  assert ours_step.last() and theirs_step.last()
  assert ours.task.arena.detected_goal().name == "HOME"
