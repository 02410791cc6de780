"""The locomotion example builders against dm_control 1.0.50's, seed for seed.

Each builder is built in both libraries with the same seed. Their signatures, specs (camera
observables included), timesteps and time limits must be equal. Then episodes of the same
random actions, each step started from dm_control's simulation state copied into ours (as the
Control Suite's parity tests do, docs/suite.md): observations, rewards, discounts and step
types must agree within 1e-6 (and 1e-9 of large readings such as contact forces), so episodes
end at the same step. The draws of every reset (corridor lengths, bowl terrain, spawn poses,
targets) come in dm_control's order: the first observation of each episode is compared before
any state is copied. At each reset, once the episode is initialized and before the forward pass
that gives the first observation, our compiled model is checked against dm_control's
(task_parity.share_model: the generated corridors, terrain and targets to 1e-9), then given
its numbers to the last bit: the rat sunk into new bowl terrain by 50 contacts has a constraint
solve so ill-conditioned that MuJoCo's own accelerations move by ~100 when its positions move by
1e-15.

The rat's steps are compared physics step by physics step: each of our 20 physics steps of a
control step starts from dm_control's state. MuJoCo itself, started from states 1e-13 apart,
ends one control step of the rat up to 1.7 apart in the bowl and 4e-4 in the gaps corridor
(contacts that appear a physics step earlier, noslip iterations that stop on a roundoff-level
improvement), so comparing whole control steps to 1e-6 would measure roundoff, not the port.
The humanoid's control steps (6 physics steps) are compared whole.

Camera pixels are not compared: while these tests run, both libraries' physics render black
frames and dm_control's gets no rendering contexts, so that the builders that enable the
egocentric camera build without OpenGL (dm_control reads every observable when it builds an
environment). Our camera observable draws real frames in `test_camera_observation_is_drawn`.
"""

import collections
import inspect
import os

import numpy as np
import pytest

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

from dm_control.composer.observation import observable as dm_observable  # noqa: E402
from dm_control.locomotion.examples import basic_cmu_2019 as dm_basic_cmu_2019  # noqa: E402
from dm_control.locomotion.examples import basic_rodent_2020 as dm_basic_rodent_2020  # noqa: E402
from dm_control.mujoco import engine as dm_engine  # noqa: E402

from engine import physics as engine_physics  # noqa: E402
from suite import viewer  # noqa: E402
from suite.locomotion import __main__ as locomotion_main  # noqa: E402
from suite.locomotion import examples  # noqa: E402
from tests.locomotion import task_parity  # noqa: E402

# the builders compared here (the tracking builder needs motion-capture data:
# test_mocap_tracking.py tests it)
BUILDERS = tuple(name for name in examples.ALL_BUILDERS if name not in examples.MOCAP_BUILDERS)
# numpy's global generator: dm_control's TwoTouch draws the walker's spawn rotation and the
# target positions from it (not from the environment's random state), so each library gets its
# own copy of it, seeded alike
GLOBAL_SEED = 12


def _black_frame(physics, height=240, width=320, *args, depth=False, segmentation=False, **kwargs):
  """An RGB camera observable's frame, unrendered."""
  assert not (depth or segmentation), "the example builders' cameras are RGB"
  return np.zeros((height, width, 3), np.uint8)


@pytest.fixture(autouse=True)
def unrendered_cameras(request):
  """Black frames for both libraries' camera observables, no rendering contexts for dm_control
  (see the module doc); the test that draws keeps rendering."""
  if "opengl" in request.fixturenames:
    yield
    return
  with pytest.MonkeyPatch.context() as patch:
    patch.setattr(engine_physics.Physics, "render", _black_frame)
    patch.setattr(dm_engine.Physics, "render", _black_frame)
    patch.setattr(dm_engine.Physics, "contexts", property(lambda self: None))
    yield


def _dm_builder(name):
  module = dm_basic_cmu_2019 if name.startswith("cmu") else dm_basic_rodent_2020
  return getattr(module, name)


class _Side(task_parity.GlobalGenerator):
  """One library's environment of a builder, with its own copy of numpy's global generator
  (see GLOBAL_SEED), swapped in around each call."""

  def __init__(self, builder, seed):
    super().__init__(GLOBAL_SEED)
    self.env = self.call(builder, seed)


def _build_pair(name, seed):
  """(ours, dm_control's) `_Side`s of builder `name` with random_state `seed`. Ours takes
  dm_control's model numbers at the end of each episode's initialization (see the module doc),
  so dm_control's environment is to be reset first (`_reset_pair`)."""
  ours, theirs = _Side(examples.ALL_BUILDERS[name], seed), _Side(_dm_builder(name), seed)

  def share_model(physics, random_state):
    del random_state  # the model's numbers come from dm_control's
    task_parity.share_model(theirs.env.physics.model, physics.model)

  ours.env.add_extra_hook("initialize_episode", share_model)
  return ours, theirs


def _reset_pair(ours, theirs):
  """(our, dm_control's) first TimeSteps of a new episode."""
  theirs_first = theirs.call(theirs.env.reset)
  return ours.call(ours.env.reset), theirs_first


def _camera_keys(env):
  """Observation keys of dm_control's environment `env` that are camera observables."""
  return {
    key
    for entity in env.task.root_entity.iter_entities()
    for key, obs in entity.observables.as_dict().items()
    if isinstance(obs, dm_observable.MJCFCamera)
  }


def _assert_specs_equal(ours, theirs):
  a, b = ours.action_spec(), theirs.action_spec()
  assert (a.shape, a.dtype, a.name) == (b.shape, b.dtype, b.name)
  np.testing.assert_array_equal(a.minimum, b.minimum)
  np.testing.assert_array_equal(a.maximum, b.maximum)
  oa, ob = ours.observation_spec(), theirs.observation_spec()
  assert list(oa) == list(ob)
  for key, spec in ob.items():
    assert (oa[key].shape, oa[key].dtype, oa[key].name) == (spec.shape, spec.dtype, spec.name), key
    assert type(oa[key]).__name__ == type(spec).__name__, key
    if hasattr(spec, "minimum"):
      np.testing.assert_array_equal(oa[key].minimum, spec.minimum, err_msg=key)
      np.testing.assert_array_equal(oa[key].maximum, spec.maximum, err_msg=key)


def _assert_steps_close(ours, theirs, cameras, label):
  """Step types, rewards, discounts and observations within task_parity's tolerances (1e-6,
  and 1e-9 of large readings), camera frames by shape and dtype only."""
  for key in cameras & set(theirs.observation):
    assert ours.observation[key].shape == theirs.observation[key].shape, f"{label} {key}"
    assert ours.observation[key].dtype == theirs.observation[key].dtype, f"{label} {key}"
  task_parity.assert_steps_close(
    *(_without_cameras(step, cameras) for step in (ours, theirs)), label
  )


def _without_cameras(time_step, cameras):
  observation = collections.OrderedDict(
    (key, value) for key, value in time_step.observation.items() if key not in cameras
  )
  return time_step._replace(observation=observation)


class _SubstepCopier:
  """Makes each physics step of ours start from dm_control's state: a hook records dm_control's
  state before each of its physics steps, another writes it into ours before each of ours."""

  def __init__(self, ours, theirs):
    self._states = []
    theirs.env.add_extra_hook("before_substep", self._record)
    ours.env.add_extra_hook("before_substep", self._write)

  def _record(self, physics, action, random_state):
    del action, random_state  # the state is all that is recorded
    self._states.append(
      {name: np.copy(getattr(physics.data, name)) for name in (*task_parity._STATE, "time")}
    )

  def _write(self, physics, action, random_state):
    del action, random_state  # the state comes from dm_control's recording
    task_parity._write_state(self._states.pop(0), physics)


def _compare_episodes(name, episodes, steps, seed=0):
  """`episodes` episodes of at most `steps` random actions, each step from dm_control's state
  (each physics step, for the rat). Returns the episodes' lengths."""
  ours, theirs = _build_pair(name, seed)
  if name.startswith("rodent"):
    _SubstepCopier(ours, theirs)
  cameras = _camera_keys(theirs.env)
  spec = theirs.env.action_spec()
  rng = np.random.RandomState(seed + 1)
  lengths = []
  for episode in range(episodes):
    first = _reset_pair(ours, theirs)
    assert first[1].first()
    _assert_steps_close(*first, cameras, f"episode {episode} reset")
    for step in range(steps):
      action = rng.uniform(spec.minimum, spec.maximum)
      task_parity.copy_state(theirs.env.physics, ours.env.physics)
      theirs_step = theirs.call(theirs.env.step, action)
      ours_step = ours.call(ours.env.step, action)
      _assert_steps_close(ours_step, theirs_step, cameras, f"episode {episode} step {step}")
      if theirs_step.last():
        break
    lengths.append(step + 1)
  return lengths


@pytest.mark.parametrize("name", BUILDERS)
def test_builder_matches_dm_control_specs_and_first_observation(name):
  """The builder's signature, timesteps, time limit, action and observation specs (the camera's
  included) and its first observation are dm_control's."""
  assert inspect.signature(examples.ALL_BUILDERS[name]) == inspect.signature(_dm_builder(name))
  ours, theirs = _build_pair(name, seed=3)
  _assert_specs_equal(ours.env, theirs.env)
  assert ours.env.control_timestep() == theirs.env.control_timestep()
  assert ours.env.task.physics_timestep == theirs.env.task.physics_timestep
  assert ours.env._time_limit == theirs.env._time_limit
  _assert_steps_close(*_reset_pair(ours, theirs), _camera_keys(theirs.env), "reset")


def test_rodent_run_gaps_steps_match_dm_control():
  """Two short episodes of the rat in the gaps corridor, step for step."""
  assert _compare_episodes("rodent_run_gaps", episodes=2, steps=5) == [5, 5]


@pytest.mark.slow
@pytest.mark.parametrize("name", BUILDERS)
def test_episodes_match_dm_control(name):
  """Three episodes of 100 random steps (or until the episode ends) match dm_control's."""
  _compare_episodes(name, episodes=3, steps=100)


def test_camera_observation_is_drawn(opengl):
  """With rendering, the egocentric camera observation is a frame of the scene: not uniform."""
  env = examples.load("rodent_two_touch", random_state=0)
  frame = env.step(np.zeros(env.action_spec().shape)).observation["walker/egocentric_camera"]
  assert frame.shape == (64, 64, 3) and frame.dtype == np.uint8
  assert frame.std() > 1


def test_unknown_builder_names_the_builders():
  with pytest.raises(ValueError, match="rodent_two_touch") as error:
    examples.load("rodent_run_walls")
  assert "'rodent_run_walls'" in str(error.value)


def test_command_line_lists_the_builders(capsys):
  assert locomotion_main.main(["--list"]) == 0
  from suite.locomotion import soccer

  assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == (
    list(examples.ALL_BUILDERS) + list(soccer.BUILDERS)
  )


def test_command_line_rejects_an_unknown_builder(capsys):
  with pytest.raises(SystemExit) as exit_info:
    locomotion_main.main(["cmu_humanoid_run_maze"])
  error = capsys.readouterr().err
  assert exit_info.value.code == 2 and "'cmu_humanoid_run_maze'" in error
  assert all(name in error for name in BUILDERS)


def test_command_line_runs_episodes_of_dm_controls_returns(capsys):
  """Specs and per-episode returns of two 3-step episodes of zero actions: the return is
  dm_control's for the same seed and actions."""
  args = [
    "cmu_humanoid_go_to_target",
    "--episodes",
    "2",
    "--steps",
    "3",
    "--zero-actions",
    "--seed",
    "5",
  ]
  assert locomotion_main.main(args) == 0
  out = capsys.readouterr().out
  theirs = _dm_builder("cmu_humanoid_go_to_target")(random_state=5)
  assert f"action: shape {theirs.action_spec().shape}" in out
  for key, spec in theirs.observation_spec().items():
    assert f"observation {key!r}: shape {spec.shape}, dtype {spec.dtype}" in out
  for episode in range(2):
    theirs.reset()
    total = sum(theirs.step(np.zeros(theirs.action_spec().shape)).reward for _ in range(3))
    assert f"episode {episode}: return {total:.2f} in 3 steps (cut by --steps)" in out


@pytest.mark.parametrize(
  "args,message",
  [
    (["rodent_two_touch", "--steps", "0"], "--steps must be at least 1"),
    (["rodent_two_touch", "--random-actions", "--zero-actions"], "not allowed with"),
    ([], "name a builder"),
  ],
)
def test_command_line_rejects_bad_arguments(args, message, capsys):
  with pytest.raises(SystemExit):
    locomotion_main.main(args)
  assert message in capsys.readouterr().err


def test_viewer_command_line_rejects_an_unknown_builder(capsys):
  with pytest.raises(SystemExit):
    viewer.main(["locomotion", "rodent_maze"])
  assert "no locomotion example builder 'rodent_maze'" in capsys.readouterr().err


def test_command_line_says_when_the_camera_cannot_render(capsys, monkeypatch):
  def unavailable(*args, **kwargs):
    raise engine_physics.RenderingUnavailableError("no OpenGL here")

  monkeypatch.setattr(engine_physics.Physics, "render", unavailable)
  assert locomotion_main.main(["rodent_run_gaps", "--steps", "1"]) == 1
  assert (
    "rodent_run_gaps's camera observable cannot render: no OpenGL here" in capsys.readouterr().err
  )
