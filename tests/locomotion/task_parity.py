"""The same locomotion task built on our stack and on dm_control's, stepped side by side.

`Twin(make_task)` calls `make_task(stack)` once per stack (`stack` has the modules a task is
built from: composer, walkers, arenas, tasks, props, distributions, deterministic) and wraps
each task in a `composer.Environment` with the same seed. `run_episodes` then resets both,
compares the first observations, and steps both with the same random actions, each control step
started from dm_control's state copied into ours (as tests/suite/parity.py does), comparing
rewards, discounts, step types and observations.

Our compiler's derived quantities (principal inertia frames, inverse weights) differ from
MuJoCo's in their last bits, as do a few contact computations (capsule-capsule normals,
height-field contacts), and the walkers' contacts can amplify such differences to ~1e-4 within
one control step (noslip iterations stop on the sign of a roundoff-level improvement, convex
collisions at a 1e-6 tolerance). So two things are shared between the stacks besides the state:
- the compiled model's numbers: after each reset our model's physical fields are checked against
  dm_control's (rtol 1e-9: the MJCF the tasks generate, target positions and terrain included)
  and then replaced by them;
- numpy's global generator, which dm_control's TwoTouch draws from: each stack gets its own
  copy, seeded alike, swapped in around its calls.
and, with `Twin(..., copy_every_substep=True)` (the rat's tests), every physics step of ours
starts from dm_control's state, not only the first of a control step.

Camera observables are disabled (images are not compared); dm_control's Bowl is kept from
uploading its terrain to a GL context (`no_dm_gl_contexts`).
"""

import contextlib
import os
import types

import numpy as np

import engine
from tests.locomotion import twin_walkers

os.environ.setdefault("MUJOCO_GL", "disable")  # dm_control must not open a GL context

OBS_ATOL = 1e-6
OBS_RTOL = 1e-9  # large readings (contact forces of tens of newtons) to their last digits
MODEL_RTOL = 1e-9
# model fields that take part in the physics (appearance, textures and skins are left out:
# the stand-in 'outdoor_natural' look differs from dm_control's by design)
_PHYSICAL_PREFIXES = (
  "body_",
  "jnt_",
  "dof_",
  "geom_",
  "site_",
  "actuator_",
  "tendon_",
  "hfield_",
  "sensor_",
  "eq_",
  "wrap_",
  "pair_",
  "qpos0",
  "qpos_spring",
)
_SPHERE, _TWO_SIZES = 2, (3, 5)  # mjtGeom: sphere; capsule, cylinder
_STATE = ("qpos", "qvel", "act", "qacc_warmstart", "ctrl", "mocap_pos", "mocap_quat")


def stack(ours):
  """The modules a locomotion task is built from, on our stack or dm_control's."""
  if ours:
    import composer
    from composer.variation import deterministic
    from composer.variation import distributions
    from suite.locomotion import arenas
    from suite.locomotion import props
    from suite.locomotion import tasks
    from suite.locomotion import walkers
  else:
    from dm_control import composer
    from dm_control.composer.variation import deterministic
    from dm_control.composer.variation import distributions
    from dm_control.locomotion import arenas
    from dm_control.locomotion import props
    from dm_control.locomotion import tasks
    from dm_control.locomotion import walkers
  return types.SimpleNamespace(
    composer=composer,
    walkers=walkers,
    arenas=arenas,
    tasks=tasks,
    props=props,
    distributions=distributions,
    deterministic=deterministic,
    ours=ours,
  )


def mini_rat(ns, **kwargs):
  """A small walker that the Rat-only tasks (Escape, TwoTouch) accept, on stack `ns`: the critter
  of twin_walkers.py named 'walker', whose thighs are the bodies 'hand_L' and 'hand_R' and whose
  torso carries a 'head' site. Its class is called MiniRat because dm_control tells walkers
  apart by class name. (The hands are the thighs, bodies of one geom each: for a body of several
  geoms MuJoCo, and our engine, find contacts through bounding boxes computed when the model
  was compiled, which do not follow a target moved by writing its geom's position, as TwoTouch
  moves it.)"""
  critter = twin_walkers.critter_class(twin_walkers.namespace(ns.ours))

  class MiniRat(critter):
    def _build(self, **kwargs):
      super()._build(name="walker", **kwargs)
      for side in ("L", "R"):
        thigh = "left_thigh" if side == "L" else "right_thigh"
        self._mjcf_root.find("body", thigh).name = f"hand_{side}"
      self._torso.add("site", name="head", pos=[0.08, 0, 0.05], size=[0.01])

  return MiniRat(**kwargs)


@contextlib.contextmanager
def no_dm_gl_contexts():
  """dm_control's physics without rendering contexts (its Bowl uploads new terrain to them)."""
  from dm_control import mjcf as dm_mjcf

  saved = dm_mjcf.Physics.contexts
  dm_mjcf.Physics.contexts = property(lambda self: None)
  try:
    yield
  finally:
    dm_mjcf.Physics.contexts = saved


def enabled_keys(task):
  """The keys of the task's enabled observables, in order."""
  return [key for key, obs in task.observables.items() if obs.enabled]


class GlobalGenerator:
  """A copy of numpy's global generator of one side (dm_control's tasks draw from it),
  swapped in around each of that side's calls."""

  def __init__(self, seed):
    self._global_state = np.random.RandomState(seed).get_state()

  def call(self, function, *args):
    """`function(*args)` with this side's numpy global generator."""
    saved = np.random.get_state()
    np.random.set_state(self._global_state)
    try:
      return function(*args)
    finally:
      self._global_state = np.random.get_state()
      np.random.set_state(saved)


class Side(GlobalGenerator):
  """One stack's task and environment, with its own copy of numpy's global generator."""

  def __init__(self, ours, make_task, seed, global_seed, env_kwargs):
    self.ns = stack(ours)
    self.task = make_task(self.ns)
    self.enabled_at_build = enabled_keys(self.task)
    for key, obs in self.task.observables.items():
      if key.endswith("egocentric_camera"):
        obs.enabled = False
    self.env = self.ns.composer.Environment(self.task, random_state=seed, **env_kwargs)
    super().__init__(global_seed)

  @property
  def physics(self):
    return self.env.physics


class Twin:
  """The task `make_task(stack)` on both stacks (`ours`, `theirs`), seeded alike.

  With `copy_every_substep`, every physics step of ours, not only the first of a control step,
  starts from dm_control's state (recorded by an extra hook before each of its physics steps).
  """

  def __init__(self, make_task, seed=0, global_seed=12, copy_every_substep=False, **env_kwargs):
    self.theirs = Side(False, make_task, seed, global_seed, env_kwargs)
    self.ours = Side(True, make_task, seed, global_seed, env_kwargs)
    if copy_every_substep:
      self._their_substeps = []
      self.theirs.env.add_extra_hook("before_substep", self._record_their_substep)
      self.ours.env.add_extra_hook("before_substep", self._start_our_substep)

  def _record_their_substep(self, physics, action, random_state):
    del action, random_state  # the state is all that is recorded
    self._their_substeps.append(
      {name: np.copy(getattr(physics.data, name)) for name in (*_STATE, "time")}
    )

  def _start_our_substep(self, physics, action, random_state):
    del action, random_state  # the state comes from dm_control's recording
    _write_state(self._their_substeps.pop(0), physics)

  @property
  def sides(self):
    return (self.ours, self.theirs)

  def reset(self):
    """Resets both; checks and shares the compiled model's numbers. (our, their) TimeSteps."""
    steps = self.ours.call(self.ours.env.reset), self.theirs.call(self.theirs.env.reset)
    share_model(self.theirs.physics.model, self.ours.physics.model)
    return steps

  def step(self, action, script=None):
    """One control step of both from dm_control's state, after `script(side)` on each side
    (if given). (our, their) TimeSteps."""
    copy_state(self.theirs.physics, self.ours.physics)
    if script is not None:
      for side in self.sides:
        script(side)
    theirs = self.theirs.call(self.theirs.env.step, action)
    return self.ours.call(self.ours.env.step, action), theirs


def share_model(theirs, ours):
  """Checks that our model's physical fields are dm_control's (to MODEL_RTOL) and copies
  theirs into ours (see the module docstring)."""
  for name in dir(theirs):
    if not name.startswith(_PHYSICAL_PREFIXES):
      continue
    value = getattr(theirs, name)
    if not isinstance(value, np.ndarray) or value.dtype.kind != "f":
      continue
    mine = getattr(ours, name)
    assert np.shape(mine) == value.shape, name
    used = _used_sizes(theirs.geom_type) if name == "geom_size" else np.ones(value.shape, bool)
    np.testing.assert_allclose(mine[used], value[used], rtol=MODEL_RTOL, atol=1e-12, err_msg=name)
    mine[...] = value


def _used_sizes(geom_type):
  """Which of each geom's three sizes its type uses (spheres one, capsules and cylinders two:
  dm_control's rat writes values MuJoCo ignores into the others)."""
  count = np.full(len(geom_type), 3)
  count[np.isin(geom_type, (_SPHERE,))] = 1
  count[np.isin(geom_type, _TWO_SIZES)] = 2
  return np.arange(3) < count[:, None]


def copy_state(theirs, ours):
  """dm_control's simulation state into ours (see `_write_state`)."""
  _write_state({name: getattr(theirs.data, name) for name in (*_STATE, "time")}, ours)


def _write_state(state, physics):
  """Writes a simulation state into our physics and runs our mj_step1, so that the next
  (legacy) step starts from it as dm_control's does."""
  data = physics.data
  for name in _STATE:
    getattr(data, name)[:] = state[name]
  data.time = state["time"]
  engine.mj_step1(physics.model.ptr, data.ptr)


def assert_specs_equal(ours, theirs):
  a, b = ours.action_spec(), theirs.action_spec()
  assert (a.shape, a.dtype, a.name) == (b.shape, b.dtype, b.name)
  np.testing.assert_array_equal(a.minimum, b.minimum)
  np.testing.assert_array_equal(a.maximum, b.maximum)
  oa, ob = ours.observation_spec(), theirs.observation_spec()
  assert list(oa) == list(ob)
  for key, spec in ob.items():
    assert (oa[key].shape, oa[key].dtype) == (spec.shape, spec.dtype), key


def assert_observations_close(ours, theirs, label):
  assert list(ours) == list(theirs), label
  for key, value in theirs.items():
    assert np.shape(ours[key]) == np.shape(value), f"{label} {key}"
    if np.asarray(value).dtype.kind in "USO":  # text, e.g. a maze's layout
      np.testing.assert_array_equal(ours[key], value, err_msg=f"{label} {key}")
      continue
    np.testing.assert_allclose(
      np.asarray(ours[key], float),
      np.asarray(value, float),
      rtol=OBS_RTOL,
      atol=OBS_ATOL,
      err_msg=f"{label} {key}",
    )


def assert_steps_close(ours, theirs, label):
  assert ours.step_type == theirs.step_type, label
  if theirs.reward is None:
    assert ours.reward is None and ours.discount is None, label
  else:
    np.testing.assert_allclose(
      ours.reward, theirs.reward, rtol=0, atol=OBS_ATOL, err_msg=f"{label} reward"
    )
    assert ours.discount == theirs.discount, label
  assert_observations_close(ours.observation, theirs.observation, label)


def random_actions(spec, seed, scale=1.0):
  """Uniform actions within the middle `scale` of the spec's ranges (of [-1, 1] for unlimited
  controls, whose spec bounds are huge)."""
  rng = np.random.RandomState(seed)
  unlimited = np.abs(spec.maximum - spec.minimum) > 1e6
  middle = np.where(unlimited, 0.0, (spec.maximum + spec.minimum) / 2)
  half_range = np.where(unlimited, 1.0, (spec.maximum - spec.minimum) / 2) * scale
  while True:
    yield rng.uniform(middle - half_range, middle + half_range)


def run_episodes(twin, episodes=2, steps=60, action_seed=1, action_scale=1.0, script=None):
  """Compares `episodes` episodes of up to `steps` steps (each ends early at a LAST step).
  `script(side, episode, step)`, if given, runs on both sides before each step, after the state
  copy (e.g. to move the walker onto the target). Actions are drawn as `random_actions`.
  Returns dm_control's (step type, reward,
  discount) of every step."""
  assert_specs_equal(twin.ours.env, twin.theirs.env)
  for timestep in ("control_timestep", "physics_timestep"):
    assert getattr(twin.ours.task, timestep) == getattr(twin.theirs.task, timestep), timestep
  actions = random_actions(twin.theirs.env.action_spec(), action_seed, action_scale)
  history = []
  for episode in range(episodes):
    ours, theirs = twin.reset()
    assert_steps_close(ours, theirs, f"episode {episode} reset")
    for step in range(steps):
      step_script = (
        None
        if script is None
        else (lambda side, episode=episode, step=step: script(side, episode, step))
      )
      ours, theirs = twin.step(next(actions), step_script)
      assert_steps_close(ours, theirs, f"episode {episode} step {step}")
      history.append((int(theirs.step_type), theirs.reward, theirs.discount))
      if theirs.last():
        break
  return history
